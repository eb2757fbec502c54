"""The AI's static evaluation: how good a position looks for the attackers, read from the rules.

An :class:`Evaluator` is built once per rules record (:func:`evaluator`, cached) from
the rules' tables; it scores the engine's plain ints (bitboards and the king's square).
"""

from __future__ import annotations

import copy
import functools
from typing import Callable, NamedTuple

from ..engine import ATTACKER, ATTACKERS, DEFENDERS, Tables, tables
from ..modes import ESCAPE
from ..rules import Rules

__all__ = ["CORNERS_TIED", "DEFAULT_WEIGHTS", "FAR_FROM_CORNER", "HAND_SET", "PLAY_WEIGHTS", "TUNED_WEIGHTS", "Evaluator", "Weights", "evaluator"]


class Weights(NamedTuple):
    """The evaluation's weights. The score is for the attackers (a negative weight helps
    the defenders), a sum of terms, each a count or a yes/no times its weight, so it is
    linear in these numbers (:meth:`Evaluator.features` gives the counts); the Texel
    tuning (``benchmarks/texel.py``) fits them to the results of human games. Material is
    counted in thousandths of an army (1000 = all the men a side starts with)."""

    attacker: int = 1            # per thousandth of the attackers' army on the board
    defender: int = -1           # per thousandth of the defenders' army on the board
    road_to_move: int = -4000    # defenders to move with an open road: the king escapes next move
    roads_two: int = -2500       # attackers to move facing two open roads
    road_one: int = -300         # attackers to move facing one open road they can close
    king_taken_next: int = 3500  # attackers to move can take the king
    king_threat: int = 120       # defenders to move, the king can be taken unless they act
    fork_to_move: int = -2000    # defenders to move, the king can reach a square with two open roads
    fork: int = -150             # attackers to move: per such square
    near_road: int = -20         # per square within the king's reach that has one open road
    king_distance: int = 30      # per step between the king and the nearest escape square (left out
                                 # where the corner terms are weighted: corner_near takes its place)
    king_mobility: int = -6      # per square the king can reach
    guard: int = 25              # per attacker on a square next to an escape corner
    sides_1: int = 15            # king enclosed on one side (where four are needed to take him)
    sides_2: int = 60            # on two sides
    sides_3: int = 180           # on three sides
    sides_4: int = 400           # on four sides (not yet taken: an own man stands in)
    beside: int = 45             # per attacker beside a king taken by two
    hemmed: int = 60             # per blocked side of a king taken by immobility
    escapes_open: int = 0        # per escape square the king could reach in any number of moves
                                 # past his own men (in quarters of all escape squares)
    sealed: int = 0              # no escape square is open that way: the attackers have fenced him in
    region: int = 0              # per square of that area (in 121ths of the board)
    escapes_clear: int = 0       # per escape square reachable over empty squares alone (quarters)
    cut_off: int = 0             # per defender outside the king's area
    unblockable: int = -300      # attackers to move facing one open road that no attacker may close
                                 # (the king beside a corner only he may enter)
    seal: int = 0                # per attacker two steps from an escape corner (a3, b2, c1 for a1):
                                 # three there close that corner, and beside a hostile corner none
                                 # of them can be taken
    closed: int = 0              # per escape corner closed by all three
    king_zone: int = 0           # the king within two steps of an escape corner that is not closed
    corner_near: int = 0         # per step the king is nearer than six to an escape corner not closed
    beside_corner: int = 0       # per attacker beside an escape corner that is hostile to attackers
    seal_far: int = 0            # per attacker two steps from an escape corner the king is more than
                                 # FAR_FROM_CORNER steps from (added to seal: a man the attackers may
                                 # take away to hunt the king, and bring back as he comes nearer)
    closed_far: int = 0          # per escape corner closed by all three, the king that far from it


#: The hand-set weights (the defaults of :class:`Weights`): levels 1 and 2 (and the retired
#: levels 103-105) play with them, so the committed results of the balance lab replay unchanged.
HAND_SET = DEFAULT_WEIGHTS = Weights()
#: The weights levels 3-5 played with from 24 to 26 November 2026: the hand-set ones with the
#: corner terms, and men valued as the Texel fit to human games values them (about a quarter of
#: the first two roads' worth each rather than a twentieth). A closed corner kept its worth
#: wherever the king was, so the attackers' men stayed on the corners and the king, hunted by
#: the few left over, was seldom taken. The retired level 203 plays with them.
CORNERS_TIED = HAND_SET._replace(attacker=6, defender=-4, guard=0, seal=150, closed=400,
                                 king_zone=-600, corner_near=-60, beside_corner=-80)
#: The weights of levels 3-5: :data:`CORNERS_TIED`, except that a corner the king is far from
#: (more than :data:`FAR_FROM_CORNER` steps) is worth nothing to the attackers, so they may
#: take its men away to hunt the king and bring them back as he comes nearer. Chosen by
#: self-play on the Copenhagen rules (see the calibration report on the site's fairest page).
PLAY_WEIGHTS = CORNERS_TIED._replace(seal_far=-150, closed_far=-400)
#: The weights tuned on the human Copenhagen games (Texel method, ``benchmarks/texel.py``;
#: ``docs/data/texel.json`` holds the run and its fit on the held-out games). A level may play
#: with them (``Level.weights``); none does: in self-play they attacked no better than the
#: hand-set ones (see the calibration report).
TUNED_WEIGHTS = Weights(attacker=6, defender=-4, road_to_move=-4000, roads_two=-2500, road_one=12,
                        king_taken_next=3500, king_threat=120, fork_to_move=-2000, fork=-150, near_road=-235,
                        king_distance=56, king_mobility=7, guard=-47, sides_1=96, sides_2=53, sides_3=162,
                        sides_4=400, beside=45, hemmed=60, escapes_open=-198, sealed=0, region=-16,
                        escapes_clear=-66, cut_off=-149, unblockable=-300)
KING_GONE = 5000  # the king is off the board (a search past the end of the game)
#: steps (along ranks and files) beyond which a corner counts as far from the king for the
#: seal_far and closed_far terms (chosen by self-play trials on the Copenhagen rules: see the
#: calibration report)
FAR_FROM_CORNER = 8


class Evaluator:
    """A static evaluation that reads the rules rather than one variant's habits.

    From the rules it takes: where the king escapes (edge, corners, edge except
    camps, nowhere) and so how far he is from freedom and how many open roads he
    has; how he is captured (by two like a man, enclosed on four sides with the
    throne, camps, corners or edge standing in, the Linnaeus mixture, by immobility,
    or never) and so how dangerous each attacker beside him is; how many men each side
    starts with, so that a man is worth his share of his army; and, from the board,
    how much of it the king could still reach past the attackers' lines (their
    fence). Scores are for the attackers, a sum of :class:`Weights` times counts.
    """

    def __init__(self, rules: Rules, weights: Weights = DEFAULT_WEIGHTS) -> None:
        t: Tables = tables(rules)
        self.tables = t
        #: hostile(victim_side, occ): squares acting as enemies of that side's men
        self.hostile: Callable[[int, int], int] = t.hostile
        g = t.g
        size = rules.size
        n = size * size
        self.size = size
        self.neighbours = g.neighbours
        start = rules.start
        self.share_a = 1000 // max(1, start.count("t"))  # one attacker's share of a 1000-point army
        self.share_d = 1000 // max(1, start.count("T"))
        self.escape = t.escape
        esc = [i for i in range(n) if t.escape >> i & 1]
        if esc:
            self.dist = tuple(min(abs(i // size - e // size) + abs(i % size - e % size) for e in esc)
                              for i in range(n))
        else:
            self.dist = (0,) * n
        #: how the king is taken, and whether ap Ifan's warning can take him too: the modes
        #: estimate the threat to him (tafl_rules.modes.king)
        self.king_mode = t.king_mode
        self.watch_king = t.watch_king
        #: the warning's estimate where the rules have the warning (None without: nothing to ask)
        self.warning_exposed = t.watch_king.exposed if t.taken_by_warning is not None else None
        self.center = g.center
        self.against = t.against
        self.against_edge = t.against_edge
        # where attackers guard an escape square, and the squares that close one to the king when
        # attackers hold them all (a3, b2 and c1 for the corner a1): the escape mode's own
        escape_mode = ESCAPE[rules.escape]
        self.guard = escape_mode.guards(g)
        seals = escape_mode.seals(g)
        self.seals = seals
        self.seal_squares = sum(seals)
        corners = g.corner_squares if seals else ()
        # zones[i]: the squares within two steps of corner i (where the king all but escapes)
        self.zones = tuple(sum(1 << j for j in range(n) if abs(j // size - c // size) + abs(j % size - c % size) <= 2)
                           for c in corners)
        self.corner_steps = tuple(tuple(abs(j // size - c // size) + abs(j % size - c % size) for j in range(n))
                                  for c in corners)
        beside = 0
        if seals and t.hostile(ATTACKERS, 0) & g.corners:  # corners hostile to attackers
            for c in corners:
                for nb in g.neighbours[c]:
                    beside |= 1 << nb
        self.beside_corners = beside
        # rays[sq]: the squares seen from sq in each of the four directions, nearest first
        rays = []
        for i in range(n):
            r, f = divmod(i, size)
            rays.append(tuple(tuple(rr * size + ff for rr, ff in ray) for ray in (
                [(r, x) for x in range(f - 1, -1, -1)], [(r, x) for x in range(f + 1, size)],
                [(y, f) for y in range(r - 1, -1, -1)], [(y, f) for y in range(r + 1, size)]) if ray))
        self.rays = tuple(rays)
        # roads[sq]: for each direction from sq that meets an escape square, the squares up to
        # and including the first one; the king has an open road that way if they are all empty
        self.roads = tuple(
            tuple(sum(1 << x for x in ray[:next(j for j, x in enumerate(ray) if t.escape >> x & 1) + 1])
                  for ray in rays[sq] if any(t.escape >> x & 1 for x in ray))
            for sq in range(n))
        # flanks[sq]: (one side, the other side) pairs across sq
        flanks = []
        for v in range(n):
            r, f = divmod(v, size)
            pairs = []
            if 0 < f < size - 1:
                pairs += [(v - 1, v + 1), (v + 1, v - 1)]
            if 0 < r < size - 1:
                pairs += [(v - size, v + size), (v + size, v - size)]
            flanks.append(tuple(pairs))
        self.flanks = tuple(flanks)
        self.throne = t.throne
        self.attacker_may_stop = ((1 << n) - 1) & ~t.nostop[ATTACKER]
        # the masks that grow an area by one square in each direction (see region_of)
        self.full = (1 << n) - 1
        self.not_first = sum(1 << i for i in range(n) if i % size)
        self.not_last = sum(1 << i for i in range(n) if i % size != size - 1)
        self.escape_quarters = 4 / max(1, t.escape.bit_count())
        self.region_scale = 121 / n
        self._set_weights(weights)

    def _set_weights(self, w: Weights) -> None:
        self.weights = w
        self.w_road_to_move, self.w_roads_two, self.w_road_one = w.road_to_move, w.roads_two, w.road_one
        self.w_fork_to_move, self.w_fork, self.w_near_road = w.fork_to_move, w.fork, w.near_road
        self.w_king_distance, self.w_king_mobility, self.w_guard = w.king_distance, w.king_mobility, w.guard
        self.w_king_taken_next, self.w_king_threat = w.king_taken_next, w.king_threat
        self.w_sides = (0, w.sides_1, w.sides_2, w.sides_3, w.sides_4)
        self.w_beside, self.w_hemmed = w.beside, w.hemmed
        self.va = w.attacker * self.share_a
        self.vd = w.defender * self.share_d
        self.w_escapes_open = w.escapes_open * self.escape_quarters
        self.w_escapes_clear = w.escapes_clear * self.escape_quarters
        self.w_sealed, self.w_cut_off = w.sealed, w.cut_off
        self.w_unblockable = w.unblockable
        self.w_region = w.region * self.region_scale
        self.fence = any((w.escapes_open, w.sealed, w.region, w.escapes_clear, w.cut_off))
        self.w_seal, self.w_closed = w.seal, w.closed
        self.w_king_zone, self.w_corner_near, self.w_beside_corner = w.king_zone, w.corner_near, w.beside_corner
        self.w_seal_far, self.w_closed_far = w.seal_far, w.closed_far
        self.corners_on = bool(self.seal_squares) and any((w.seal, w.closed, w.king_zone, w.corner_near, w.beside_corner,
                                                           w.seal_far, w.closed_far))

    def features(self, a: int, d: int, k: int, side: int, king_targets: int) -> tuple[float, ...]:
        """The counts behind :meth:`attackers_score`, one for each field of :class:`Weights`:
        with the king on the board the score is their sum weighted by the weights (up to
        rounding)."""
        probe = copy.copy(self)
        out = []
        n = len(Weights._fields)
        for i in range(n):
            probe._set_weights(Weights(*(1 if j == i else 0 for j in range(n))))
            out.append(probe._score(a, d, k, side, king_targets, True))
        return tuple(out)

    def region_of(self, k: int, passable: int) -> int:
        """The squares reachable from ``k`` in steps to a neighbouring ``passable`` square
        (the area the king could get to in any number of moves if nothing moved)."""
        size = self.size
        full, not_first, not_last = self.full, self.not_first, self.not_last
        r = 1 << k
        while True:
            grown = (r | (r << 1 & not_first) | (r >> 1 & not_last) | (r << size & full) | r >> size) & passable | r
            if grown == r:
                return r
            r = grown

    def blockable(self, k: int, target: int) -> bool:
        """Whether the attackers could close the king's one open road (to the escape square
        ``target``, a bitboard) by stopping a man on it: not if the king stands beside a
        corner that only he may enter."""
        for path in self.roads[k]:
            if path & target:
                return bool(path & self.attacker_may_stop)
        return True

    def next_roads(self, king_targets: int, occ: int) -> tuple[int, int]:
        """Among the squares the king can reach now: how many have two or more open roads to
        an escape square (a fork next move), and how many have exactly one."""
        esc = self.escape
        roads_of = self.roads
        forks = near = 0
        while king_targets:
            low = king_targets & -king_targets
            king_targets ^= low
            sq = low.bit_length() - 1
            if esc >> sq & 1:
                continue
            roads = 0
            for path in roads_of[sq]:
                if not path & occ:
                    roads += 1
            if roads >= 2:
                forks += 1
            elif roads:
                near += 1
        return forks, near

    def reaches(self, s: int, pieces: int, occ: int) -> bool:
        """Whether one of ``pieces`` sees the empty square ``s`` along a line (special
        squares and speed limits ignored: a fast approximation)."""
        for ray in self.rays[s]:
            for x in ray:
                if occ >> x & 1:
                    if pieces >> x & 1:
                        return True
                    break
        return False

    def king_exposed(self, a: int, d: int, k: int, king_targets: int) -> bool:
        """Whether an attacker's next move could take the king on ``k`` (``king_targets``: where he
        can move now), by the capture rule in force or ap Ifan's warning: found fast and roughly
        (lines only, special squares and speed limits ignored), so it may say "yes" wrongly but
        never "no" where the engine's exact test,
        :func:`tafl_rules.engine.endings.king_threatened`, says "yes"."""
        if k < 0:
            return False
        warning = self.warning_exposed
        return self.king_mode.exposed(self, a, d, k, king_targets) or (
            warning is not None and warning(self, a, d, k, king_targets))

    def attackers_score(self, a: int, d: int, k: int, side: int, king_targets: int) -> int:
        """The position's score for the attackers (whole numbers: the fence terms are rounded)."""
        return int(self._score(a, d, k, side, king_targets, False))

    def _score(self, a: int, d: int, k: int, side: int, king_targets: int, exact: bool) -> float:
        s: float = self.va * a.bit_count() + self.vd * d.bit_count()
        if k < 0:
            return s + KING_GONE
        esc = self.escape
        if esc:
            roads = (king_targets & esc).bit_count()
            if roads:
                if side == DEFENDERS:
                    s += self.w_road_to_move
                elif roads >= 2:
                    s += self.w_roads_two
                elif self.w_unblockable != self.w_road_one and not self.blockable(k, king_targets & esc):
                    s += self.w_unblockable
                else:
                    s += self.w_road_one
            if not self.corners_on:  # where the corner terms apply, corner_near takes its place
                s += self.w_king_distance * self.dist[k]
            forks, near = self.next_roads(king_targets, a | d | 1 << k)
            if forks:
                s += self.w_fork_to_move if side == DEFENDERS else self.w_fork * forks
            s += self.w_near_road * near
            if self.guard:
                s += self.w_guard * (a & self.guard).bit_count()
            if self.fence:
                s += self._fence(a, d, k, exact)
            if self.corners_on:
                s += self._corners(a, k)
        s += self.w_king_mobility * king_targets.bit_count()
        king_mode = self.king_mode
        warning = self.warning_exposed
        if king_mode.exposed(self, a, d, k, king_targets) or (
                warning is not None and warning(self, a, d, k, king_targets)):
            s += self.w_king_taken_next if side == ATTACKERS else self.w_king_threat
        return s + king_mode.pressure(self, a, d, k, king_targets)

    def _corners(self, a: int, k: int) -> int:
        """The corner terms: seals held and closed (and again, where the king is far from the
        corner: see seal_far), the king's nearness to open corners, attackers beside a hostile
        corner."""
        held = a & self.seal_squares
        s = self.w_seal * held.bit_count() + self.w_beside_corner * (a & self.beside_corners).bit_count()
        kbit = 1 << k
        for seal, zone, steps in zip(self.seals, self.zones, self.corner_steps):
            closed = held & seal == seal
            if steps[k] > FAR_FROM_CORNER:
                s += self.w_seal_far * (held & seal).bit_count() + (self.w_closed_far if closed else 0)
            if closed:
                s += self.w_closed
            else:
                if zone & kbit:
                    s += self.w_king_zone
                near = 6 - steps[k]
                if near > 0:
                    s += self.w_corner_near * near
        return s

    def _fence(self, a: int, d: int, k: int, exact: bool) -> float:
        """The fence terms: how much of the board and of the escape squares the king could
        reach past his own men (but not through an attacker), and over empty squares alone."""
        esc = self.escape
        area = self.region_of(k, self.full & ~a)
        open_ = (area & esc).bit_count()
        f = (self.w_escapes_open * open_ + (0 if open_ else self.w_sealed) + self.w_region * area.bit_count()
             + self.w_cut_off * (d & ~area).bit_count())
        if self.w_escapes_clear:
            f += self.w_escapes_clear * (self.region_of(k, self.full & ~(a | d)) & esc).bit_count()
        return f if exact else round(f)


@functools.lru_cache(maxsize=64)
def evaluator(rules: Rules, weights: Weights = DEFAULT_WEIGHTS) -> Evaluator:
    """The (cached) :class:`Evaluator` of a rules record (with these weights)."""
    return Evaluator(rules, weights)
