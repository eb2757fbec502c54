"""How the king is taken (``Rules.king_capture``), and ap Ifan's "watch your king" (``Rules.watch_king``).

Each mode says how the engine decides that an attackers' move took the king
(:meth:`KingCapture.taken`), where a king moving in between two attackers is in
jeopardy (the sandwich rule), how the AI estimates that the king can be taken next
move (:meth:`KingCapture.exposed`, never "no" where the engine's exact test says
"yes") and how much pressure the attackers around him are worth to it
(:meth:`KingCapture.pressure`), its OTN ``ks`` letter, and its words.

The engine calls these with its :class:`~tafl_rules.engine.state.Position` and the AI
with its :class:`~tafl_rules.ai.evaluate.Evaluator`; this module imports neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..messages import message, the_place
from ..pieces import DEFENDERS
from ..squares import Geometry
from .base import Mode, Problem, RulePoint

if TYPE_CHECKING:  # pragma: no cover - type names only
    from ..ai.evaluate import Evaluator
    from ..engine.state import Position
    from ..rules import Rules

KingCaptureName = Literal["two", "four", "linnaeus", "immobile", "none"]


def ray_through(g: Geometry, k: int, s: int) -> int:
    """The squares from ``s``, a neighbour of ``k``, on to the board's edge, away from ``k``."""
    step = s - k
    if step == g.size:
        return g.rays_up[k][0]
    if step == 1:
        return g.rays_up[k][1]
    if step == -g.size:
        return g.rays_down[k][0]
    return g.rays_down[k][1]


def _closing(ev: "Evaluator", a: int, occ: int, k: int, open_: list[int]) -> bool:
    """Whether an attacker could close the last side of the king left open (``open_``: the
    squares beside him not yet closed). With none left open (the king went in among closed
    sides himself), any empty square beside him that an attacker may stop on will do."""
    if len(open_) == 1:
        return not occ >> open_[0] & 1 and ev.reaches(open_[0], a, occ)
    if open_:
        return False
    t = ev.tables
    for x in ev.neighbours[k]:
        if occ >> x & 1:
            continue
        if ev.attacker_may_stop >> x & 1:
            if ev.reaches(x, a, occ):
                return True
        elif t.camps >> x & 1 and ev.reaches(x, a & t.camp_group[x], occ):  # from within its own camp
            return True
    return False


def _shut_in(ev: "Evaluator", a: int, d: int, k: int, king_targets: int, beside: int = -1) -> bool:
    """Whether an attacker could move to an empty square beside the king after which he cannot
    move (all his moves now go through that square); with ``beside`` (a bitboard of attackers),
    only such a square opposite one of them. Lines only: special squares and speed ignored,
    and the squares a capture or the mover itself would free are not counted (a "yes" may be wrong,
    a "no" is not)."""
    occ = a | d | 1 << k
    g = ev.tables.g
    for s, opposite in ev.flanks[k] if beside >= 0 else ((s, -1) for s in g.neighbours[k]):
        if (not occ >> s & 1 and not king_targets & ~ray_through(g, k, s)
                and (beside < 0 or beside >> opposite & 1) and ev.reaches(s, a, occ)):
            return True
    return False


class KingCapture(Mode):
    """A way of taking the king."""

    value: str
    otn: str = "y"
    """The OTN ``ks`` letter written for it: the nearest plain-OTN reading (an ``x-`` key
    then carries the exact mode where the letter alone would be read otherwise)."""
    otn_reads: tuple[str, ...] = ()
    """The ``ks`` letters read as this mode."""
    takeable: bool = True
    """Whether the king can be taken by this rule at all."""
    flanked: bool = False
    """Whether he can be taken between two attackers somewhere (the search then tries the
    squares beside him early)."""
    surrounded: bool = False
    """Whether the squares of ``Rules.king_capture_against`` stand in for attackers around him."""

    def taken(self, pos: "Position", to: int, occ: int) -> str | None:
        """After an attackers' move to ``to``, a square beside the king (its captures done,
        ``occ`` the occupancy): the reason in words if he is taken, else None."""
        raise NotImplementedError

    def jeopardy(self, g: Geometry) -> int:
        """The squares where two attackers beside the king would take him: the sandwich rule
        keeps him from moving in between them there (0: nowhere)."""
        return 0

    def exposed(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> bool:
        """The AI's quick estimate: whether an attacker's next move could take the king on ``k``
        (``king_targets``: where he can move now). It may say "yes" wrongly, never "no"."""
        raise NotImplementedError

    def pressure(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> float:
        """The evaluation's term for the attackers around the king (in the evaluator's weights)."""
        return 0


class _Two(KingCapture):
    value = "two"
    short = "two, like any man"
    sentence = "The king is taken like any other piece, between two enemies."
    howto = "by taking the king between two attackers, like any other piece"
    otn = "n"
    otn_reads = ("n", "w")
    flanked = True

    def taken(self, pos: "Position", to: int, occ: int) -> str | None:
        t = pos.t
        g = t.g
        a = pos.a
        anvils = a | t.hostile(DEFENDERS, occ)
        for n, b in g.pairs[to]:
            if n == pos.k and b >= 0 and anvils >> b & 1:
                by = g.names[b] if a >> b & 1 else message("{place} at {square}", place=the_place(t.special_name(b)),
                                                           square=g.names[b])
                return message("king captured between {square} and {by}", square=g.names[to], by=by)
        return None

    def jeopardy(self, g: Geometry) -> int:
        return g.full

    def exposed(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> bool:
        occ = a | d | 1 << k
        anvils = a | ev.hostile(DEFENDERS, occ)
        t = ev.tables
        if t.takes_rows:  # a row the same move takes along the edge may empty a square hostile when empty
            anvils |= t.hostile_empty[DEFENDERS] & t.g.edge
        for s, o in ev.flanks[k]:
            if anvils >> o & 1 and not occ >> s & 1 and ev.reaches(s, a, occ):
                return True
        return False

    def pressure(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> float:
        return ev.w_beside * sum(1 for x in ev.neighbours[k] if a >> x & 1)


TWO = _Two()


class _Four(KingCapture):
    value = "four"
    short = "four sides"
    sentence = "The king is taken when enclosed on four sides."
    howto = "by surrounding the king on all four sides"
    otn = "y"
    otn_reads = ("y", "s")
    surrounded = True

    def taken(self, pos: "Position", to: int, occ: int) -> str | None:
        t = pos.t
        g = t.g
        names = g.names
        k = pos.k
        a = pos.a
        nbrs = g.neighbours[k]
        if len(nbrs) < 4 and not t.against_edge:
            return None
        sides = []
        for n in nbrs:
            if a >> n & 1:
                sides.append(names[n])
            elif t.against >> n & 1 and not (pos.d >> n & 1):
                sides.append(the_place(t.special_name(n)))
            else:
                return None
        if len(nbrs) < 4:
            sides.append(message("the edge"))
        return message("king captured on {square} by {sides}", square=names[k], sides=sides)

    def exposed(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> bool:
        nbrs = ev.neighbours[k]
        if len(nbrs) < 4 and not ev.against_edge:
            return False
        occ = a | d | 1 << k
        against = ev.against
        t = ev.tables
        # a row the same move takes along the edge may empty a special square beside him
        emptied = d & against & t.g.edge if t.takes_rows else 0
        open_ = [x for x in nbrs if not (a >> x & 1 or (against >> x & 1 and not d >> x & 1) or emptied >> x & 1)]
        return _closing(ev, a, occ, k, open_)

    def pressure(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> float:
        nbrs = ev.neighbours[k]
        against = ev.against
        sides = sum(1 for x in nbrs if a >> x & 1 or (against >> x & 1 and not d >> x & 1))
        if ev.against_edge:
            sides += 4 - len(nbrs)
        return ev.w_sides[min(sides, 4)]


FOUR = _Four()


class _Linnaeus(KingCapture):
    value = "linnaeus"
    short = "4 on the throne, 3 beside it, else 2"
    sentence = "The king is taken by four on the throne, three beside it (the throne the fourth side), two elsewhere."
    howto = "by surrounding the king: on all four sides on the throne, on three beside it, between two elsewhere"
    otn = "c"
    otn_reads = ("c",)
    flanked = True

    def check(self, rules: "Rules") -> Problem | None:
        if not rules.throne:
            return "king_capture", message("the linnaeus capture is defined around the throne; it needs throne = true")
        return None

    def taken(self, pos: "Position", to: int, occ: int) -> str | None:
        g = pos.t.g
        k = pos.k
        c = g.center
        if k != c and c not in g.neighbours[k]:
            return TWO.taken(pos, to, occ)
        a = pos.a
        others = [n for n in g.neighbours[k] if n != c]
        if all(a >> n & 1 for n in others):
            by = [g.names[n] for n in others]
            return (message("king captured on {square} by {sides}", square=g.names[k], sides=by) if k == c
                    else message("king captured on {square} by {sides} and the throne", square=g.names[k], sides=by))
        return None

    def jeopardy(self, g: Geometry) -> int:
        return g.full & ~g.grow(1 << g.center)

    def exposed(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> bool:
        c = ev.center
        nbrs = ev.neighbours[k]
        if k != c and c not in nbrs:
            return TWO.exposed(ev, a, d, k, king_targets)
        occ = a | d | 1 << k
        return _closing(ev, a, occ, k, [x for x in nbrs if x != c and not a >> x & 1])

    def pressure(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> float:
        c = ev.center
        nbrs = ev.neighbours[k]
        if k != c and c not in nbrs:
            return TWO.pressure(ev, a, d, k, king_targets)
        return ev.w_sides[min(sum(1 for x in nbrs if a >> x & 1 or x == c), 4)]


LINNAEUS = _Linnaeus()


class _Immobile(KingCapture):
    value = "immobile"
    short = "when he cannot move"
    sentence = "The king is taken when he cannot move at all."
    howto = "by leaving the king no move at all"

    def taken(self, pos: "Position", to: int, occ: int) -> str | None:
        # the move that shuts him in ends beside him (so a king hemmed in by his own men, as
        # at the start of ap Ifan's game, is not taken by a distant move)
        if pos.king_targets() == 0:
            return message("king captured on {square}: he cannot move", square=pos.t.g.names[pos.k])
        return None

    def exposed(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> bool:
        # an attacker closing the last way out (with every free square beside him a square he
        # may stop on, as on a board without special squares: the one free square beside him)
        return _shut_in(ev, a, d, k, king_targets)

    def pressure(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> float:
        free = king_targets.bit_count()
        return ev.w_hemmed * (4 - free) if free < 4 else 0


IMMOBILE = _Immobile()


class _Never(KingCapture):
    value = "none"
    short = "never"
    sentence = "The king is never taken; the attackers win only by leaving the defenders without a move."
    takeable = False

    def check(self, rules: "Rules") -> Problem | None:
        if rules.no_moves != "loss":
            return "no_moves", message("with king_capture = none the attackers can only win by leaving the defenders "
                                        "without a move, so no_moves must be loss")
        return None

    def taken(self, pos: "Position", to: int, occ: int) -> str | None:
        return None

    def exposed(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> bool:
        return False


NEVER = _Never()

KING_CAPTURE: RulePoint[KingCapture] = RulePoint("king_capture", (TWO, FOUR, LINNAEUS, IMMOBILE, NEVER))


class WatchKing(Mode):
    """ap Ifan's warning, on or off."""

    value: bool

    def taken(self, pos: "Position") -> str | None:
        """After an attackers' move: the reason in words if the warning takes the king, else None."""
        return None

    def exposed(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> bool:
        """The AI's quick estimate that the warning could take him next move (never a wrong "no")."""
        return False


class _WatchOff(WatchKing):
    value = False
    sentence = "No 'watch your king' rule."


class _WatchOn(WatchKing):
    value = True
    sentence = "ap Ifan's warning applies: a king who moves between two attackers and then cannot get out is taken."
    howto = "by shutting in a king who moved between two attackers (ap Ifan's warning)"

    def taken(self, pos: "Position") -> str | None:
        # as read here: if the defenders' previous move brought the king to the square he
        # stands on, between two attackers on a rank or a file, and he now has no move at
        # all, he is taken
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
        if between and not pos.king_targets():
            return message("king taken on {square}: he moved between two attackers and cannot get out", square=g.names[k])
        return None

    def exposed(self, ev: "Evaluator", a: int, d: int, k: int, king_targets: int) -> bool:
        # the king between two attackers, or an attacker arriving opposite another, and shut in
        # by that move (whether his own last move brought him there is not known here: "yes")
        size = ev.size
        r, f = divmod(k, size)
        between = ((0 < f < size - 1 and a >> (k - 1) & 1 and a >> (k + 1) & 1)
                   or (0 < r < size - 1 and a >> (k - size) & 1 and a >> (k + size) & 1))
        return _shut_in(ev, a, d, k, king_targets, -1 if between else a)


WATCH_KING: RulePoint[WatchKing] = RulePoint("watch_king", (_WatchOff(), _WatchOn()))

__all__ = ["IMMOBILE", "FOUR", "KING_CAPTURE", "KingCapture", "KingCaptureName", "LINNAEUS", "NEVER", "TWO",
           "WATCH_KING", "WatchKing"]
