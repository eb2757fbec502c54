"""The AI's static evaluation: how good a position looks for the attackers, read from the rules.

An :class:`Evaluator` is built once per rules record (:func:`evaluator`, cached) from
the rules' tables; it scores the engine's plain ints (bitboards and the king's square).
"""

from __future__ import annotations

import functools
from typing import Callable

from ..engine import ATTACKERS, DEFENDERS, Tables, tables
from ..rules import Rules

__all__ = ["Evaluator", "evaluator"]

#: Weights of the evaluation, in hundredths of an attacker-army (1000 = a whole army).
ROAD_TO_MOVE = 4000      # defenders to move with an open road: the king escapes next move
ROADS_TWO = 2500         # attackers to move facing two open roads
ROAD_ONE = 300           # attackers to move facing one open road (they must block it)
KING_TAKEN_NEXT = 3500   # attackers to move can take the king
KING_THREAT = 120        # defenders to move, the king can be taken unless they act
FORK_TO_MOVE = 2000      # defenders to move, the king can reach a square with two open roads
FORK = 150               # attackers to move: per such square
NEAR_ROAD = 20           # per square within the king's reach that has one open road
KING_DISTANCE = 30       # per step between the king and the nearest escape square
KING_MOBILITY = 6        # per square the king can reach
GUARD = 25               # per attacker on a square next to an escape corner
_SIDES_SCORE = (0, 15, 60, 180, 400)  # king enclosed on n sides (four-sided capture)


class Evaluator:
    """A static evaluation that reads the rules rather than one variant's habits.

    From the rules it takes: where the king escapes (edge, corners, edge except
    camps, nowhere) and so how far he is from freedom and how many open roads he
    has; how he is captured (by two like a man, enclosed on four sides with the
    throne, camps, corners or edge standing in, the Linnaeus mixture, by immobility,
    or never) and so how dangerous each attacker beside him is; how many men each side
    starts with, so that a man is worth his share of his army. Scores are for the
    attackers; :meth:`score` turns them to the side to move.
    """

    def __init__(self, rules: Rules) -> None:
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
        self.va = 1000 // max(1, start.count("t"))
        self.vd = 1000 // max(1, start.count("T"))
        self.escape = t.escape
        esc = [i for i in range(n) if t.escape >> i & 1]
        if esc:
            self.dist = tuple(min(abs(i // size - e // size) + abs(i % size - e % size) for e in esc)
                              for i in range(n))
        else:
            self.dist = (0,) * n
        self.mode = rules.king_capture
        self.center = g.center
        self.against = t.against
        self.against_edge = t.against_edge
        # squares next to an escape corner: attackers there guard it
        guard = 0
        if rules.escape == "corner":
            for c in g.corner_squares:
                for nb in g.neighbours[c]:
                    guard |= 1 << nb
                r, f = divmod(c, size)
                guard |= 1 << ((r + (1 if r == 0 else -1)) * size + f + (1 if f == 0 else -1))
        self.guard = guard
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

    def king_threatened(self, a: int, d: int, k: int) -> bool:
        """Whether an attacker's next move could take the king (by the capture rule in force)."""
        mode = self.mode
        if mode == "none" or k < 0:
            return False
        occ = a | d | 1 << k
        nbrs = self.neighbours[k]
        if mode == "immobile":  # one free square beside him, and an attacker can fill it
            free = [x for x in nbrs if not occ >> x & 1]
            return len(free) == 1 and self.reaches(free[0], a, occ)
        if mode == "linnaeus":
            c = self.center
            if k != c and c not in nbrs:
                mode = "two"
            else:
                open_ = [x for x in nbrs if x != c and not a >> x & 1]
                return len(open_) == 1 and not occ >> open_[0] & 1 and self.reaches(open_[0], a, occ)
        if mode == "two":
            anvils = a | self.hostile(DEFENDERS, occ)
            for s, o in self.flanks[k]:
                if anvils >> o & 1 and not occ >> s & 1 and self.reaches(s, a, occ):
                    return True
            return False
        against = self.against
        if len(nbrs) < 4 and not self.against_edge:
            return False
        open_ = [x for x in nbrs if not (a >> x & 1 or (against >> x & 1 and not d >> x & 1))]
        return len(open_) == 1 and not occ >> open_[0] & 1 and self.reaches(open_[0], a, occ)

    def attackers_score(self, a: int, d: int, k: int, side: int, king_targets: int) -> int:
        s = self.va * a.bit_count() - self.vd * d.bit_count()
        if k < 0:
            return s + 5000
        esc = self.escape
        if esc:
            roads = (king_targets & esc).bit_count()
            if roads:
                if side == DEFENDERS:
                    s -= ROAD_TO_MOVE
                elif roads >= 2:
                    s -= ROADS_TWO
                else:
                    s -= ROAD_ONE
            s += KING_DISTANCE * self.dist[k]
            forks, near = self.next_roads(king_targets, a | d | 1 << k)
            if forks:
                s -= FORK_TO_MOVE if side == DEFENDERS else FORK * forks
            s -= NEAR_ROAD * near
            if self.guard:
                s += GUARD * (a & self.guard).bit_count()
        s -= KING_MOBILITY * king_targets.bit_count()
        if self.king_threatened(a, d, k):
            s += KING_TAKEN_NEXT if side == ATTACKERS else KING_THREAT
        mode = self.mode
        if mode == "none":
            return s
        nbrs = self.neighbours[k]
        if mode == "immobile":
            free = king_targets.bit_count()
            return s + (60 * (4 - free) if free < 4 else 0)
        if mode == "linnaeus":
            c = self.center
            if k != c and c not in nbrs:
                mode = "two"
            else:
                sides = sum(1 for x in nbrs if a >> x & 1 or x == c)
                return s + _SIDES_SCORE[min(sides, 4)]
        if mode == "two":
            near = sum(1 for x in nbrs if a >> x & 1)
            return s + 45 * near
        # four sides, with special squares (and the edge) standing in
        against = self.against
        sides = sum(1 for x in nbrs if a >> x & 1 or (against >> x & 1 and not d >> x & 1))
        if self.against_edge:
            sides += 4 - len(nbrs)
        return s + _SIDES_SCORE[min(sides, 4)]


@functools.lru_cache(maxsize=64)
def evaluator(rules: Rules) -> Evaluator:
    """The (cached) :class:`Evaluator` of a rules record."""
    return Evaluator(rules)
