"""How a game ends: where the king escapes (``Rules.escape``), two open roads (``Rules.tuichi``),
the edge fort and encirclement (``Rules.edge_fort``, ``Rules.encirclement``), a side without
a move (``Rules.no_moves``) and repeated positions (``Rules.repetition``).

An ending judged after a move (:class:`Ending`) is asked by the engine after every move of
the side it concerns; it answers with an :class:`~tafl_rules.outcome.Outcome` or None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..messages import Message, message
from ..outcome import Outcome, Termination
from ..pieces import ATTACKER, ATTACKERS, DEFENDERS, SIDE_NAMES
from ..squares import Geometry, edges_of, iter_bits
from .base import Mode, Problem, RulePoint

if TYPE_CHECKING:  # pragma: no cover - type names only
    from ..engine.state import Position
    from ..rules import Rules

EscapeName = Literal["edge", "corner", "edge-except-camps", "none"]
TuichiName = Literal["announce", "win"]
NoMovesName = Literal["loss", "draw"]
RepetitionName = Literal["ignore", "draw", "loss", "defenders-lose"]


class Escape(Mode):
    """Where the king escapes to win."""

    value: str
    otn: str = "e"
    """The OTN ``esc`` letter written for it (the nearest plain-OTN reading)."""
    otn_reads: tuple[str, ...] = ()

    def squares(self, g: Geometry, camps: int) -> int:
        """The escape squares, on the board ``g`` with these camp squares."""
        return 0

    def guards(self, g: Geometry) -> int:
        """For the AI's evaluation: the squares where an attacker guards an escape square (0: none)."""
        return 0

    def seals(self, g: Geometry) -> tuple[int, ...]:
        """For the AI's evaluation: for each escape square that a few attackers can close to the
        king, the squares that close it when attackers hold them all (empty: none can be closed)."""
        return ()


class _EdgeEscape(Escape):
    value = "edge"
    short = "any edge square"
    sentence = "The king wins on reaching any edge square."
    howto = "by bringing the king to any edge square"
    otn_reads = ("e",)

    def squares(self, g: Geometry, camps: int) -> int:
        return g.edge


class _CornerEscape(Escape):
    value = "corner"
    short = "a corner"
    sentence = "The king wins on reaching a corner."
    howto = "by bringing the king to a corner square"
    otn = "c"
    otn_reads = ("c",)

    def check(self, rules: "Rules") -> Problem | None:
        if not rules.corners:
            return "escape", message("corner escape needs corners = true")
        if "king" not in rules.corner_stop:
            return "corner_stop", message("the king must be allowed to stop on a corner when he escapes there")
        return None

    def squares(self, g: Geometry, camps: int) -> int:
        return g.corners

    def guards(self, g: Geometry) -> int:
        # the squares beside a corner and the one diagonally in front of it
        guard = 0
        for c in g.corner_squares:
            for nb in g.neighbours[c]:
                guard |= 1 << nb
            r, f = divmod(c, g.size)
            guard |= 1 << ((r + (1 if r == 0 else -1)) * g.size + f + (1 if f == 0 else -1))
        return guard

    def seals(self, g: Geometry) -> tuple[int, ...]:
        # the three squares two steps from a corner (a3, b2 and c1 for a1)
        if g.size < 5:
            return ()
        out = []
        for c in g.corner_squares:
            r, f = divmod(c, g.size)
            dr, df = (1 if r == 0 else -1), (1 if f == 0 else -1)
            out.append(sum(1 << ((r + y) * g.size + f + x) for y, x in ((2 * dr, 0), (dr, df), (0, 2 * df))))
        return tuple(out)


class _EdgeExceptCampsEscape(Escape):
    value = "edge-except-camps"
    short = "an edge square, not a camp"
    sentence = "The king wins on reaching an edge square that is not a camp."
    howto = "by bringing the king to an edge square that is not a camp"

    def check(self, rules: "Rules") -> Problem | None:
        if not rules.camps:
            return "escape", message("edge-except-camps needs camps = true")
        return None

    def squares(self, g: Geometry, camps: int) -> int:
        return g.edge & ~camps


class _NoEscape(Escape):
    value = "none"
    short = "nowhere"
    sentence = "The king cannot escape."


ESCAPE: RulePoint[Escape] = RulePoint("escape", (_EdgeEscape(), _CornerEscape(), _EdgeExceptCampsEscape(),
                                                 _NoEscape()))


class Ending(Mode):
    """A rule that can end the game after a move of the side ``after`` (0 attackers, 1 defenders)."""

    after: int = DEFENDERS

    def judge(self, pos: "Position") -> Outcome | None:
        """The outcome after such a move (the other side is now to move), or None. The engine
        asks only the modes whose :attr:`ends` is true."""
        return None

    @property
    def ends(self) -> bool:
        """Whether this mode can end a game (the engine asks only those)."""
        return type(self).judge is not Ending.judge


class _Announce(Ending):
    value = "announce"
    short = "only announced"
    sentence = "Open routes to the edge are only announced (raichi, tuichi)."


class _TuichiWins(Ending):
    value = "win"
    short = "wins"
    sentence = "Two open routes to the edge at once (tuichi) win at once."
    howto = "at once when the king has two open roads to escape (tuichi)"

    def judge(self, pos: "Position") -> Outcome | None:
        if pos.k < 0:
            return None
        routes = pos.king_targets() & pos.t.escape
        if routes.bit_count() < 2:
            return None
        names = pos.t.g.names
        roads = [names[i] for i in iter_bits(routes)]
        return Outcome("defenders", message("tuichi: the king has open roads to {squares} and {last}", squares=roads[:-1],
                                            last=roads[-1]), Termination.TUICHI)


TUICHI: RulePoint[Ending] = RulePoint("tuichi", (_Announce(), _TuichiWins()))


class _NoEdgeFort(Ending):
    value = False
    sentence = "No edge fort rule."


class _EdgeFort(Ending):
    value = True
    sentence = "The defenders win with an unbreakable fort on the edge."
    howto = "by building an unbreakable fort around the king on the edge"

    def check(self, rules: "Rules") -> Problem | None:
        if rules.escape == "edge":
            return "edge_fort", message("an edge fort is pointless when reaching the edge already wins")
        return None

    def judge(self, pos: "Position") -> Outcome | None:
        if pos.k >= 0 and pos.t.g.edge >> pos.k & 1 and edge_fort(pos):
            return Outcome("defenders", message("edge fort"), Termination.EDGE_FORT)
        return None


def edge_fort(pos: "Position") -> bool:
    """Copenhagen edge fort, read conservatively: the king stands on the edge and can
    move; the empty squares he can reach (his fort, which ends at a square no attacker
    can ever stand on or pass, such as a corner) touch no attacker; and every
    defender bordering the fort is safe for good. A defender is safe when, on each line
    through it, one of its two neighbours is off the board or a square no attacker can
    ever stand on (the fort, the king, another safe defender; never a hostile square),
    and - with shield walls - when its run along the edge cannot be fronted and
    bracketed. The safe defenders are found as the largest set that supports itself.
    With no attacker left nothing can break the wall; a lone attacker still can (against
    a hostile square), so the test of the wall is made whenever one is left."""
    k = pos.k
    t = pos.t
    g = t.g
    if k < 0 or not g.edge >> k & 1:
        return False
    if not pos.king_targets():
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
        return True
    hostile = t.hostile(DEFENDERS, a | d | kbit)
    size = g.size
    shieldwall = t.takes_rows
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


EDGE_FORT: RulePoint[Ending] = RulePoint("edge_fort", (_NoEdgeFort(), _EdgeFort()))


class _NoEncirclement(Ending):
    value = False
    after = ATTACKERS
    sentence = "No encirclement rule."


class _Encirclement(Ending):
    value = True
    after = ATTACKERS
    sentence = "The attackers win by enclosing every defender."
    howto = "by enclosing every defender in an unbroken ring"

    def judge(self, pos: "Position") -> Outcome | None:
        if encircled(pos):
            return Outcome("attackers", message("defenders encircled"), Termination.ENCIRCLEMENT)
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


ENCIRCLEMENT: RulePoint[Ending] = RulePoint("encirclement", (_NoEncirclement(), _Encirclement()))


class NoMoves(Mode):
    """What happens to a side with no legal move on its turn."""

    def __init__(self, value: str, *, stuck_loses: bool, short: str, sentence: str, phrase: str) -> None:
        self.value = value
        self.stuck_loses = stuck_loses
        self.short = short
        self.sentence = sentence
        self.phrase = phrase
        """The "how to play" phrase for the other side, with ``{side}`` for the side left without a move."""

    def outcome(self, stuck: int) -> Outcome:
        """The outcome when ``stuck`` (0 attackers, 1 defenders) has no legal move."""
        winner = SIDE_NAMES[1 - stuck] if self.stuck_loses else None
        reason = message("attackers have no legal move") if stuck == ATTACKERS else message("defenders have no legal move")
        return Outcome(winner, reason, Termination.NO_MOVES)


NO_MOVES: RulePoint[NoMoves] = RulePoint("no_moves", (
    NoMoves("loss", stuck_loses=True, short="loses", sentence="A side with no legal move loses.",
            phrase="by leaving the {side} without a move"),
    NoMoves("draw", stuck_loses=False, short="draws", sentence="A side with no legal move draws.",
            phrase="only if the {side} run out of moves (which draws)"),
))


class Repetition(Mode):
    """What the ``repetition_count``-th occurrence of a position does."""

    value: str
    otn: str = "i"
    """The OTN ``tfr`` letter written for it (the nearest plain-OTN reading)."""
    otn_reads: tuple[str, ...] = ()
    otn_exact: bool = True
    """Whether other OTN programs read that letter as this mode (if not, the writer adds an
    ``x-repetition`` key and strict mode reports the rule lost)."""
    ends = True

    def outcome(self, mover: int, count: int) -> Outcome | None:
        """The outcome when ``mover``'s move made a position occur ``count`` times."""
        return None


def _fold(n: int) -> Message:
    named = {2: message("twofold"), 3: message("threefold"), 4: message("fourfold"), 5: message("fivefold")}
    return named.get(n) or message("{n}-fold", n=n)


class _IgnoreRepetition(Repetition):
    value = "ignore"
    short = "no effect"
    sentence = "Repeated positions have no effect."
    otn_reads = ("i",)
    ends = False


class _RepetitionDraws(Repetition):
    value = "draw"
    short = "draw"
    sentence = "Repetition draws."
    otn = "d"
    otn_reads = ("d",)

    def outcome(self, mover: int, count: int) -> Outcome | None:
        return Outcome(None, message("{fold} repetition", fold=_fold(count)), Termination.REPETITION)


class _RepeaterLoses(Repetition):
    value = "loss"
    short = "repeater loses"
    sentence = "The side that repeats loses."
    otn = "l"
    otn_reads = ("l",)
    otn_exact = False  # OpenTafl plays tfr:l as a win for the side that repeats (see tafl_rules.otn)

    def outcome(self, mover: int, count: int) -> Outcome | None:
        reason = (message("{fold} repetition by the attackers", fold=_fold(count)) if mover == ATTACKERS
                  else message("{fold} repetition by the defenders", fold=_fold(count)))
        return Outcome(SIDE_NAMES[1 - mover], reason, Termination.REPETITION)


class _DefendersLose(Repetition):
    value = "defenders-lose"
    short = "defenders lose"
    sentence = "Repetition is a loss for the defenders."
    otn = "l"

    def outcome(self, mover: int, count: int) -> Outcome | None:
        if mover == DEFENDERS:
            return Outcome("attackers", message("{fold} repetition by the defenders", fold=_fold(count)), Termination.REPETITION)
        return Outcome("attackers", message("{fold} repetition (a loss for the defenders)", fold=_fold(count)),
                       Termination.REPETITION)


REPETITION: RulePoint[Repetition] = RulePoint("repetition", (_IgnoreRepetition(), _RepetitionDraws(),
                                                             _RepeaterLoses(), _DefendersLose()))

__all__ = ["EDGE_FORT", "ENCIRCLEMENT", "ESCAPE", "Ending", "Escape", "EscapeName", "NO_MOVES", "NoMoves",
           "NoMovesName", "REPETITION", "Repetition", "RepetitionName", "TUICHI", "TuichiName", "edge_fort",
           "encircled"]
