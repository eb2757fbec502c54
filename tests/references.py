"""Square-by-square readings of the capture rules, written from the :class:`Rules` fields and
their docstrings alone (no engine table, no bitboard), for the conformance test to hold the
engine to after every ply: which men a move takes, whether it takes the king, and which
moves the sandwich rule refuses.

A board here is a dict from square index to ``"attacker"``, ``"defender"`` or ``"king"``.
"""

from __future__ import annotations

import functools

from tafl_rules import Game, Rules
from tafl_rules.squares import geometry

SIDE_OF = {"attacker": "attackers", "defender": "defenders", "king": "defenders"}
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def board_of(game: Game) -> dict[int, str]:
    g = geometry(game.size)
    return {g.index[s]: kind for kind in ("attacker", "defender", "king") for s in game.pieces(kind)}


class Moved(dict[int, str]):
    """A board after the piece on ``frm`` moved to ``to`` (before any capture)."""

    def __init__(self, board: dict[int, str], frm: int, to: int) -> None:
        super().__init__(board)
        self[to] = self.pop(frm)


@functools.lru_cache(maxsize=64)
def special_squares(rules: Rules) -> dict[str, frozenset[int]]:
    """The throne, the corners and the camps (the attackers' start squares) of these rules."""
    g = geometry(rules.size)
    camps: set[int] = set()
    if rules.camps:
        camps = {g.index[s] for s in Game(rules, position=rules.start).pieces("attacker")}
    return {"throne": frozenset({g.center} if rules.throne else ()),
            "corners": frozenset(g.corner_squares if rules.corners else ()),
            "camps": frozenset(camps)}


def beyond(size: int, square: int, step: tuple[int, int], times: int = 1) -> int | None:
    """The square ``times`` steps from ``square`` in direction ``step`` (rank, file), or None off the board."""
    r, f = divmod(square, size)
    r, f = r + step[0] * times, f + step[1] * times
    return r * size + f if 0 <= r < size and 0 <= f < size else None


def hostile(rules: Rules, specials: dict[str, frozenset[int]], square: int, victims: str,
            board: dict[int, str]) -> bool:
    """Whether ``square`` is a special square that acts as an enemy of ``victims``' men now."""
    for place, squares in specials.items():
        if square in squares:
            reading = getattr(rules, f"{place}_hostile_to_{victims}")
            if reading == "always" or (reading == "empty" and square not in board):
                return True
    return False


def closes(rules: Rules, specials: dict[str, frozenset[int]], square: int | None, side: str, victims: str,
           board: dict[int, str], mover: int) -> bool:
    """Whether ``square`` closes a capture of ``victims``' man for ``side``: a piece of the side
    (the king only when armed as the static partner, or as the mover), or a hostile square."""
    if square is None:
        return False
    kind = board.get(square)
    if kind is not None and SIDE_OF[kind] == side:
        if kind != "king" or square == mover or rules.king_armed in ("yes", "anvil"):
            return True
    return hostile(rules, specials, square, victims, board)


def reference_captures(rules: Rules, board: dict[int, str], frm: int, to: int) -> set[int]:
    """The men (never the king) taken when the piece on ``frm`` moves to ``to``."""
    size = rules.size
    kind = board[frm]
    side = SIDE_OF[kind]
    victims = "defenders" if side == "attackers" else "attackers"
    victim_kind = "defender" if side == "attackers" else "attacker"
    if kind == "king" and rules.king_armed in ("no", "anvil"):
        return set()  # he takes nothing by moving
    after = Moved(board, frm, to)
    specials = special_squares(rules)
    taken = set()
    for step in STEPS:
        n = beyond(size, to, step)
        if n is not None and after.get(n) == victim_kind and closes(rules, specials, beyond(size, to, step, 2),
                                                                     side, victims, after, to):
            taken.add(n)
    if rules.shieldwall == "copenhagen":
        taken |= _shield_wall(rules, specials, after, to, side, victims)
    return taken


def _shield_wall(rules: Rules, specials: dict[str, frozenset[int]], after: dict[int, str], to: int, side: str,
                 victims: str) -> set[int]:
    """Copenhagen: arriving on the edge as one end of a row of two or more of the other side's
    pieces along that edge, each fronted on its inward square by a piece of the mover's side
    and closed at the far end by such a piece or a hostile square, takes the row's men (a king
    in the row is part of it but is not taken)."""
    size = rules.size
    r, f = divmod(to, size)
    taken: set[int] = set()
    edges = []
    if r in (0, size - 1):
        edges.append(((1 if r == 0 else -1, 0), ((0, 1), (0, -1))))
    if f in (0, size - 1):
        edges.append(((0, 1 if f == 0 else -1), ((1, 0), (-1, 0))))
    friendly = {"attacker"} if side == "attackers" else {"defender", "king"}
    members = {"defender", "king"} if side == "attackers" else {"attacker"}
    for inward, directions in edges:
        for along in directions:
            row = []
            s = beyond(size, to, along)
            while s is not None and after.get(s) in members and after.get(beyond(size, s, inward)) in friendly \
                    and (after.get(beyond(size, s, inward)) != "king" or rules.king_armed in ("yes", "anvil")):
                row.append(s)
                s = beyond(size, s, along)
            if len(row) >= 2 and closes(rules, specials, s, side, victims, after, to):
                taken |= {x for x in row if after[x] != "king"}
    return taken


def reference_king_taken(rules: Rules, board: dict[int, str], to: int) -> bool:
    """After an attackers' move to ``to`` (its captures made), whether the king is taken by the
    rules' ``king_capture`` (``"two"``, ``"four"`` or ``"linnaeus"``; None for the others)."""
    size = rules.size
    g = geometry(size)
    kings = [s for s, kind in board.items() if kind == "king"]
    if not kings or to not in g.neighbours[kings[0]]:
        return False
    k = kings[0]
    specials = special_squares(rules)
    step = {size: (1, 0), -size: (-1, 0), 1: (0, 1), -1: (0, -1)}[k - to]  # from the mover through the king

    def two() -> bool:
        b = beyond(size, k, step)
        return b is not None and (board.get(b) == "attacker" or hostile(rules, specials, b, "defenders", board))

    if rules.king_capture == "two":
        return two()
    if rules.king_capture == "four":
        against = set()
        for name, place in (("throne", "throne"), ("corner", "corners"), ("camp", "camps")):
            if name in rules.king_capture_against:
                against |= specials[place]
        sides = [beyond(size, k, s) for s in STEPS]
        if None in sides and "edge" not in rules.king_capture_against:
            return False
        return all(s is None or board.get(s) == "attacker" or (s in against and board.get(s) != "defender")
                   for s in sides)
    if rules.king_capture == "linnaeus":
        c = g.center
        if k != c and c not in g.neighbours[k]:
            return two()
        return all(board.get(n) == "attacker" for n in g.neighbours[k] if n != c)
    raise ValueError(f"no reference for king_capture = {rules.king_capture}")


def reference_sandwich_refuses(rules: Rules, board: dict[int, str], frm: int, to: int) -> bool:
    """Whether the sandwich rule refuses the move ``frm``-``to`` (a move the movement rules
    allow): it would put the piece between two enemies on a rank or a file, judged on the board
    after the move and before its captures; ``"unless-capturing"`` lets it through when it
    captures. Enemies are the other side's pieces (the king among them only as an armed static
    partner) and the squares hostile to the mover's side. For the king it applies only where two
    attackers could take him."""
    if rules.sandwich == "safe":
        return False
    size = rules.size
    g = geometry(size)
    kind = board[frm]
    side = SIDE_OF[kind]
    if kind == "king":
        if rules.king_capture in ("four", "immobile", "none"):
            return False
        if rules.king_capture == "linnaeus" and (to == g.center or to in g.neighbours[g.center]):
            return False
    if rules.sandwich == "unless-capturing" and reference_captures(rules, board, frm, to):
        return False
    after = Moved(board, frm, to)
    specials = special_squares(rules)

    def enemy(s: int | None) -> bool:
        if s is None:
            return False
        other = after.get(s)
        if other is not None and SIDE_OF[other] != side:
            return other != "king" or rules.king_armed in ("yes", "anvil")
        return hostile(rules, specials, s, side, after)

    return any(enemy(beyond(size, to, step)) and enemy(beyond(size, to, (-step[0], -step[1])))
               for step in ((1, 0), (0, 1)))
