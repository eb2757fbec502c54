"""The end of the game: judging a position after a move, and the rarer endings
(edge forts, encirclement, ap Ifan's "watch your king"), and what the defenders
announce (tuichi, raichi, a threatened king).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..outcome import Outcome, Termination
from ..squares import Geometry, iter_bits
from .capture import edges_of
from .movement import has_move, move_targets, targets
from .tables import ATTACKER, ATTACKERS, DEFENDERS, KING, SIDE_NAMES

if TYPE_CHECKING:  # pragma: no cover - type names only
    from .state import Position


def _ordinal_count(n: int) -> str:
    return {2: "twofold", 3: "threefold", 4: "fourfold", 5: "fivefold"}.get(n, f"{n}-fold")


def no_moves_outcome(pos: "Position") -> Outcome:
    """The outcome when the side to move has no legal move (``rules.no_moves``)."""
    stuck = SIDE_NAMES[pos.side]
    if pos.t.rules.no_moves == "draw":
        return Outcome(None, f"{stuck} have no legal move", Termination.NO_MOVES)
    return Outcome(SIDE_NAMES[1 - pos.side], f"{stuck} have no legal move", Termination.NO_MOVES)


def initial_outcome(pos: "Position") -> Outcome | None:
    """A game set up in a position where the side to move cannot move is already over."""
    if not has_move(pos, pos.side):
        return no_moves_outcome(pos)
    return None


def judge(pos: "Position", frm: int, to: int, kind: int, mover: int, king_reason: str | None,
          fast: bool = False) -> Outcome | None:
    """The outcome after ``mover`` played ``frm``-``to`` (now the other side is to move).
    With ``fast`` the caller checks for a side without moves itself (it generates them anyway)."""
    t = pos.t
    rules = t.rules
    names = t.g.names
    if king_reason:
        return Outcome("attackers", king_reason, Termination.KING_CAPTURED)
    if kind == KING and t.escape >> to & 1:
        return Outcome("defenders", f"king reached {names[to]}", Termination.ESCAPE)
    if mover == DEFENDERS:
        if rules.tuichi == "win" and pos.k >= 0:
            routes = targets(pos, pos.k, KING) & t.escape
            if routes.bit_count() >= 2:
                roads = [names[i] for i in iter_bits(routes)]
                ends = ", ".join(roads[:-1]) + " and " + roads[-1]
                return Outcome("defenders", f"tuichi: the king has open roads to {ends}", Termination.TUICHI)
        if rules.edge_fort and pos.k >= 0 and t.g.edge >> pos.k & 1 and edge_fort(pos):
            return Outcome("defenders", "edge fort", Termination.EDGE_FORT)
    elif rules.encirclement and encircled(pos):
        return Outcome("attackers", "defenders encircled", Termination.ENCIRCLEMENT)
    if rules.repetition != "ignore" and pos.seen.get(pos.hash, 0) >= rules.repetition_count:
        times = _ordinal_count(rules.repetition_count)
        who = SIDE_NAMES[mover]
        if rules.repetition == "draw":
            return Outcome(None, f"{times} repetition", Termination.REPETITION)
        if rules.repetition == "loss":
            return Outcome(SIDE_NAMES[1 - mover], f"{times} repetition by the {who}", Termination.REPETITION)
        # defenders-lose
        if mover == DEFENDERS:
            return Outcome("attackers", f"{times} repetition by the defenders", Termination.REPETITION)
        return Outcome("attackers", f"{times} repetition (a loss for the defenders)", Termination.REPETITION)
    if not fast and not has_move(pos, pos.side):
        return no_moves_outcome(pos)
    if rules.ply_limit and len(pos.stack) >= rules.ply_limit:
        if fast and not has_move(pos, pos.side):
            return no_moves_outcome(pos)
        return Outcome(None, "ply limit", Termination.PLY_LIMIT)
    return None


def encircled(pos: "Position") -> bool:
    """Copenhagen encirclement: no defender (king included) can reach the board edge
    through squares free of attackers - every one is shut in by unbroken rings of
    attackers (orthogonal steps; a diagonal gap does not open a ring)."""
    g = pos.t.g
    region = pos.d | (1 << pos.k if pos.k >= 0 else 0)
    if not region:
        return False
    free = g.full & ~pos.a
    edge = g.edge
    while True:
        if region & edge:
            return False
        grown = g.grow(region) & free
        if grown == region:
            return True
        region = grown


def edge_fort(pos: "Position") -> bool:
    """Copenhagen edge fort, read conservatively: the king stands on the edge and can
    move; the empty squares he can reach (his fort, which ends at a square no attacker
    can ever stand on or pass, such as a corner) touch no attacker; and every
    defender bordering the fort is safe for good. A defender is safe when, on each line
    through it, one of its two neighbours is off the board or a square no attacker can
    ever stand on (the fort, the king, another safe defender; never a hostile square),
    and - with shield walls - when its run along the edge cannot be fronted and
    bracketed. The safe defenders are found as the largest set that supports itself."""
    k = pos.k
    t = pos.t
    g = t.g
    if k < 0 or not g.edge >> k & 1:
        return False
    if not targets(pos, k, KING):
        return False
    a = pos.a
    d = pos.d
    kbit = 1 << k
    free = g.full & ~(a | d | kbit)
    # squares no attacker can ever stand on or pass (a corner; the throne where the rules bar
    # them from both) belong to the fort but close it: it does not grow on beyond them
    barrier = t.nostop[ATTACKER] & (t.nopass[ATTACKER] | t.corners)
    fort = kbit
    while True:
        grown = (g.grow(fort & ~barrier) & free) | fort
        if grown == fort:
            break
        fort = grown
    border = g.grow(fort & ~barrier) & ~fort
    if border & a:
        return False
    if not a:
        return True  # no attacker is left to take a wall defender (a lone one still can, against a hostile square)
    hostile = t.hostile(DEFENDERS, a | d | kbit)
    size = g.size
    shieldwall = t.shieldwall
    stand = d
    while True:
        safe = (fort | stand) & ~hostile
        fallen = 0
        for s in iter_bits(stand):
            r, f = divmod(s, size)
            if ((0 < f < size - 1 and not (safe >> (s - 1) & 1 or safe >> (s + 1) & 1))
                    or (0 < r < size - 1 and not (safe >> (s - size) & 1 or safe >> (s + size) & 1))
                    or (shieldwall and g.edge >> s & 1 and not _row_safe(s, g, fort, stand, d | kbit))):
                fallen |= 1 << s
        if not fallen:
            break
        stand &= ~fallen
        if border & d & ~stand:
            return False
    return not border & d & ~stand


def _row_safe(s: int, g: Geometry, fort: int, wall: int, pieces: int) -> bool:
    """Whether the run of defenders along the edge through ``s`` is safe from a shield
    wall: some member is fronted by the fort or a safe defender, or the run ends at the fort."""
    size = g.size
    for inward, step, pos in edges_of(s, size):
        safe = False
        for direction in (1, -1):
            p, q = pos, s
            while 0 <= p < size and pieces >> q & 1:
                if (fort | wall) >> (q + inward) & 1:
                    safe = True
                p += direction
                q += direction * step
            if 0 <= p < size and fort >> q & 1:
                safe = True
        if not safe:
            return False
    return True


def watch_king(pos: "Position") -> str | None:
    """ap Ifan's "watch your king", as read here: called after an attackers' move. If the
    defenders' previous move brought the king to the square he stands on, between two
    attackers on a rank or a file, and he now has no move at all, he is taken."""
    stack = pos.stack
    k = pos.k
    if k < 0 or len(stack) < 2 or stack[-2].to != k:
        return None
    g = pos.t.g
    a = pos.a
    size = g.size
    r, f = divmod(k, size)
    between = ((0 < f < size - 1 and a >> (k - 1) & 1 and a >> (k + 1) & 1)
               or (0 < r < size - 1 and a >> (k - size) & 1 and a >> (k + size) & 1))
    if between and not targets(pos, k, KING):
        return f"king taken on {g.names[k]}: he moved between two attackers and cannot get out"
    return None


def announcements(pos: "Position") -> list[str]:
    """``["tuichi", "check"]`` when the king has open roads to two or more escape squares,
    ``["raichi", "check"]`` for one road, plus ``"king threatened"`` when some attacker
    move would capture the king. Empty once the game is over."""
    if pos.outcome is not None or pos.k < 0:
        return []
    out = []
    roads = (targets(pos, pos.k, KING) & pos.t.escape).bit_count()
    if roads >= 2:
        out += ["tuichi", "check"]
    elif roads == 1:
        out += ["raichi", "check"]
    if pos.t.rules.king_capture != "none" and king_threatened(pos):
        out.append("king threatened")
    return out


def king_threatened(pos: "Position") -> bool:
    """Whether an attackers' move (played now, whoever is to move) would take the king.

    Tries every attacker move that ends beside the king and takes it back; the
    position is unchanged afterwards (the side to move included: on the defenders'
    turn the move is handed over with :meth:`Position.pass_turn` and back)."""
    k = pos.k
    g = pos.t.g
    near = 0
    for n in g.neighbours[k]:
        near |= 1 << n
    handed_over = pos.side != ATTACKERS
    if handed_over:
        pos.pass_turn()
    try:
        for frm, kind, found in move_targets(pos, ATTACKERS):
            found &= near  # every way of taking the king ends beside him
            for to in iter_bits(found):
                _caps, reason = pos.push(frm, to, kind)
                pos.unmake()
                if reason:
                    return True
    finally:
        if handed_over:
            pos.pass_turn()
    return False


__all__ = ["announcements", "edge_fort", "encircled", "initial_outcome", "judge", "king_threatened",
           "no_moves_outcome", "watch_king"]
