"""What a move does, in terms of the rules: the features the people-like player scores.

Every feature is a yes/no fact about one legal move, stated through the rules rather than
one variant's squares: whether it takes men and how many, whether it opens or closes the
king's roads to his escape squares (wherever the rules put them), whether it leaves the
king or the moved man open to capture next move, how near it lands to the king, to the
escape squares and to the opponent's last move, the pattern of the four squares
around where it lands (friends, enemies, squares hostile to the mover, the board's edge), how far
the moved man and the other side's men can move afterwards, and how the position after it stands
in the search's own evaluation (:mod:`tafl_rules.ai.evaluate`) beside the positions after the
other legal moves.
A move's features are a list of indices into :data:`NAMES` (:meth:`MoveFeatures.of_position`),
so a model is one weight per name and a move's score is the sum of its weights.

>>> from tafl_rules import Game
>>> game = Game("brandubh")
>>> moves, active = MoveFeatures(game.rules).of_position(game.engine)
>>> len(moves) == len(active) == len(game.legal_moves())
True
>>> {"attackers:length=1", "attackers:length=2"} <= {NAMES[i] for row in active for i in row if i < len(NAMES)}
True
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Sequence

from ..engine import ATTACKERS, DEFENDERS, KING, Position, tables
from ..engine.endings import king_threatened
from ..engine.movement import targets
from ..rules import Rules
from ..squares import Geometry, iter_bits
from .evaluate import PLAY_WEIGHTS, evaluator

__all__ = ["JUDGED", "NAMES", "INDEX", "MoveFeatures", "king_region", "move_features"]

_SIDES = ("attackers", "defenders")
#: the states of a square beside the landing square, as the mover sees it
CELL_STATES = ("empty", "hostile", "friend", "own king", "enemy", "enemy king", "edge")
_EMPTY, _HOSTILE, _FRIEND, _OWN_KING, _ENEMY, _ENEMY_KING, _OFF = range(7)


def square_code(squares: Sequence[int], friends: int, enemies: int, king: int, hostile: int, side: int) -> int:
    """What ``side`` sees on ``squares`` (in order; -1 off the board) as a base-7 number, the
    first square its lowest digit: off the board, a friend, an enemy, a king (its own or the
    other side's), a square hostile to it, or empty."""
    code = 0
    for nb in reversed(squares):
        if nb < 0:
            c = _OFF
        elif friends >> nb & 1:
            c = _FRIEND
        elif enemies >> nb & 1:
            c = _ENEMY
        elif nb == king:
            c = _OWN_KING if side == DEFENDERS else _ENEMY_KING
        elif hostile >> nb & 1:
            c = _HOSTILE
        else:
            c = _EMPTY
        code = code * 7 + c
    return code


def _canonical(cells: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The least of a (north, east, south, west) pattern's turns and mirror images."""
    n, e, s, w = cells
    images = [(n, e, s, w), (e, s, w, n), (s, w, n, e), (w, n, e, s),
              (n, w, s, e), (w, s, e, n), (s, e, n, w), (e, n, w, s)]
    return min(images)


def _patterns() -> list[tuple[int, int, int, int]]:
    seen = set()
    for code in range(7 ** 4):
        cells = (code % 7, code // 7 % 7, code // 49 % 7, code // 343)
        seen.add(_canonical(cells))
    return sorted(seen)


PATTERNS = _patterns()
_PATTERN_INDEX = {p: i for i, p in enumerate(PATTERNS)}


#: offsets (nearer, further), in steps along ranks and files, up to five
_OFFSETS = [(i, j) for j in range(6) for i in range(j + 1)]


def _offset(a: int, b: int, size: int) -> tuple[int, int] | None:
    dr, df = abs(a // size - b // size), abs(a % size - b % size)
    lo, hi = min(dr, df), max(dr, df)
    return (lo, hi) if hi <= 5 else None


#: the labels of the bands of :func:`_band`, for each banded count: a value falls in band ``i`` when
#: it is at least the band's lower bound (``*_BOUNDS[i - 1]``) and below the next
EVALUATION_GAPS = ("0", "1-10", "11-30", "31-100", "101-300", "301-1000", "over 1000")
EVALUATION_GAP_BOUNDS = (1, 11, 31, 101, 301, 1001)
EVALUATION_RANKS = ("1", "2-3", "4-10", "11-30", "31+")
EVALUATION_RANK_BOUNDS = (1, 3, 10, 30)  # ranks counted from 0
REACH_AFTER = ("0", "1-2", "3-5", "6-9", "10-14", "15+")
REACH_AFTER_BOUNDS = (1, 3, 6, 10, 15)
REACH_CHANGE = ("-6 or less", "-5 to -2", "-1 to 0", "+1 to +4", "+5 or more")
REACH_CHANGE_BOUNDS = (-5, -1, 1, 5)
SHARE_CHANGE = ("down 20% or more", "down 10-20%", "down 3-10%", "down under 3%", "none", "up under 3%",
                "up 3-10%", "up 10% or more")
SHARE_CHANGE_BOUNDS = (-0.2, -0.1, -0.03, -0.0001, 0.0001, 0.03, 0.1)
#: what a move that ends the game is worth in the evaluation's ranking (more than any position)
_DECIDED = 10 ** 6


def _band(value: float, bounds: Sequence[float]) -> int:
    """The band ``value`` falls in: how many of ``bounds`` (ascending) are at most ``value``.

    >>> _band(0, EVALUATION_GAP_BOUNDS), _band(10, EVALUATION_GAP_BOUNDS), _band(11, EVALUATION_GAP_BOUNDS)
    (0, 1, 2)
    """
    return bisect.bisect_right(bounds, value)


def _names() -> list[str]:
    """Every feature's name: ``side:fact`` (a separate set for each side, as the attackers'
    and the defenders' aims differ)."""
    facts = ["length=1", "length=2", "length=3", "length>=4",
             "king moves", "takes 1", "takes 2+", "wins",
             "roads after=1", "roads after=2+", "roads before>0 and after=0",
             "king fork squares after>0",
             "own king open to capture after",
             "enemy king open to capture after",
             "mover open to capture after", "mover was open to capture",
             "lands beside king", "lands 2 from king", "lands 3 from king",
             "leaves king's side", "nearer the king", "further from the king",
             "lands on king's road square", "lands on escape square", "lands 1 from escape", "lands 2 from escape",
             "lands on edge", "leaves edge",
             "lands beside opponent's last", "lands 2 from opponent's last",
             "same piece as own last", "lands beside own last",
             "threatens a capture after", "threatens two captures after", "saves a man", "leaves a man open",
             "takes the man that moved last", "nearer an escape square", "further from an escape square"]
    facts += [f"pattern man {i}" for i in range(len(PATTERNS))]
    facts += [f"pattern king {i}" for i in range(len(PATTERNS))]
    facts += [f"from escape {i},{j}" for i, j in _OFFSETS]
    facts += [f"to escape {i},{j}" for i, j in _OFFSETS]
    facts += [f"to king {i},{j}" for i, j in _OFFSETS if (i, j) != (0, 0)]
    facts += [f"opening from escape {i},{j}" for i, j in _OFFSETS]
    facts += [f"opening to escape {i},{j}" for i, j in _OFFSETS]
    # what the move does to the king's next move and to the ring the attackers are closing
    facts += [f"king to escape {i},{j}" for i, j in _OFFSETS] + [f"king from escape {i},{j}" for i, j in _OFFSETS]
    facts += [f"king road squares after={n}" for n in ("0", "1", "2", "3+")]
    facts += ["king road squares more", "king road squares fewer", "king reach grows", "king reach shrinks"]
    facts += ["escapes in king's region fewer", "escapes in king's region more", "closes the king's region",
              "king's region shrinks 1-2", "king's region shrinks 3-9", "king's region shrinks 10+", "king's region grows"]
    facts += [f"lands by an escape guarded by {n}" for n in ("0", "1", "2", "3+")]
    # how the search's own evaluation of the position after the move compares with the other moves'
    facts += [f"evaluation below the best by {n}" for n in EVALUATION_GAPS]
    facts += [f"evaluation rank {n}" for n in EVALUATION_RANKS]
    # how far men can move after the move: the moved man, the other side, the mover's own side
    facts += [f"moved man's reach after {n}" for n in REACH_AFTER]
    facts += [f"moved man's reach changes {n}" for n in REACH_CHANGE]
    facts += [f"other side's reach changes {n}" for n in SHARE_CHANGE]
    return [f"{side}:{fact}" for side in _SIDES for fact in facts]


NAMES: list[str] = _names()
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
#: the features :meth:`MoveFeatures.of_position` gives only when asked (``judged``): the
#: evaluation's ranking of the position after the move, and the reach of men after it
JUDGED: frozenset[int] = frozenset(i for i, name in enumerate(NAMES) if name.split(":", 1)[1].startswith(
    ("evaluation below the best by ", "evaluation rank ", "moved man's reach ", "other side's reach ")))
_PER_SIDE = len(NAMES) // 2
#: ring patterns (the eight squares around the landing square) are numbered from here:
#: ``PATTERN3_BASE + (side * 2 + king_move) * 7**8 + canonical code``, and those around the
#: square left (before the move) from ``PATTERN3_BASE + 4 * 7**8``; a model names the ones it
#: weighs
PATTERN3_BASE = 1 << 30
#: diamond patterns (the twelve squares up to two steps from the landing square, after the
#: move) are numbered from here: ``PATTERN5_BASE + (side * 2 + king_move) * 7**12 + canonical code``
PATTERN5_BASE = 1 << 40
#: the plies counted as the opening
OPENING_PLIES = 12



def _cheb(a: int, b: int, size: int) -> int:
    return max(abs(a // size - b // size), abs(a % size - b % size))


def king_region(g: Geometry, attackers: int, king: int) -> int:
    """The king's region: the squares joined to his own by a path (a rook's steps) over squares no
    attacker holds. While it holds an escape square, the attackers' ring round him is not closed."""
    size, nfa, nlf = g.size, g.not_file_a, g.not_last_file
    passable = g.full & ~attackers
    r = 1 << king
    while True:
        x = r | (((r << size) | (r >> size) | ((r << 1) & nfa) | ((r >> 1) & nlf)) & passable)
        if x == r:
            return r
        r = x


class MoveFeatures:
    """The features of every legal move of a position, for one rules record."""

    def __init__(self, rules: Rules) -> None:
        t = tables(rules)
        g = t.g
        self.t = t
        self.g = g
        self.size = g.size
        size = g.size
        n = g.n
        self.escape = t.escape
        esc = [i for i in range(n) if t.escape >> i & 1]
        self.esc_dist = [min((abs(i // size - e // size) + abs(i % size - e % size) for e in esc), default=99)
                         for i in range(n)]
        self.cheb = [[_cheb(a, b, size) for b in range(n)] for a in range(n)]
        # (north, east, south, west) neighbour of each square, -1 off the board
        self.around = []
        for i in range(n):
            r, f = divmod(i, size)
            self.around.append((i + size if r + 1 < size else -1, i + 1 if f + 1 < size else -1,
                                i - size if r > 0 else -1, i - 1 if f > 0 else -1))
        self.can_take_king = t.king_mode.takeable

        self.index = {side: {fact: INDEX[f"{name}:{fact}"] for fact in
                             (nm.split(":", 1)[1] for nm in NAMES[:_PER_SIDE])}
                      for side, name in enumerate(_SIDES)}
        self.pattern_base = {side: (self.index[side]["pattern man 0"], self.index[side]["pattern king 0"])
                             for side in (ATTACKERS, DEFENDERS)}
        self.evaluator = evaluator(rules, PLAY_WEIGHTS)
        self.bands = {side: tuple([self.index[side][f"{fact} {n}"] for n in labels] for fact, labels in (
            ("evaluation below the best by", EVALUATION_GAPS), ("evaluation rank", EVALUATION_RANKS),
            ("moved man's reach after", REACH_AFTER), ("moved man's reach changes", REACH_CHANGE),
            ("other side's reach changes", SHARE_CHANGE))) for side in (ATTACKERS, DEFENDERS)}
        self._pattern_cache: dict[int, int] = {}
        self._pattern3_cache: dict[int, int] = {}
        # for each side, each square's "to escape i,j" and "from escape i,j" feature (or -1)
        self.to_escape = []
        self.from_escape = []
        for side in (ATTACKERS, DEFENDERS):
            to_f, from_f = [], []
            for sq in range(n):
                best = None
                for e in esc:
                    off = _offset(sq, e, size)
                    if off is not None and (best is None or sum(off) < sum(best) or (sum(off) == sum(best) and off < best)):
                        best = off
                to_f.append(self.index[side][f"to escape {best[0]},{best[1]}"] if best else -1)
                from_f.append(self.index[side][f"from escape {best[0]},{best[1]}"] if best else -1)
            self.to_escape.append(to_f)
            self.from_escape.append(from_f)
        shift = {side: self.index[side]["opening from escape 0,0"] - self.index[side]["from escape 0,0"]
                 for side in (ATTACKERS, DEFENDERS)}
        self.opening_shift = shift
        self.to_king = []
        for side in (ATTACKERS, DEFENDERS):
            rows_k = []
            for sq in range(n):
                row_k = []
                for kq in range(n):
                    off = _offset(sq, kq, size)
                    row_k.append(self.index[side][f"to king {off[0]},{off[1]}"] if off and off != (0, 0) else -1)
                rows_k.append(row_k)
            self.to_king.append(rows_k)
        # the eight squares around each square (north first, clockwise), -1 off the board
        self.ring = []
        for i in range(n):
            r, f = divmod(i, size)
            cells = []
            for dr, df in ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)):
                rr, ff = r + dr, f + df
                cells.append(rr * size + ff if 0 <= rr < size and 0 <= ff < size else -1)
            self.ring.append(tuple(cells))
        # the twelve squares up to two steps away: the ring, then two steps north, east, south, west
        self.diamond = []
        for i in range(n):
            r, f = divmod(i, size)
            far = [(r + dr) * size + f + df if 0 <= r + dr < size and 0 <= f + df < size else -1
                   for dr, df in ((2, 0), (0, 2), (-2, 0), (0, -2))]
            self.diamond.append(self.ring[i] + tuple(far))
        self._pattern5_cache: dict[int, int] = {}
        self.king_escape_shift = {side: (self.index[side]["king to escape 0,0"] - self.index[side]["to escape 0,0"],
                                         self.index[side]["king from escape 0,0"] - self.index[side]["from escape 0,0"])
                                  for side in (ATTACKERS, DEFENDERS)}
        # for a square two steps or less from an escape square: the squares two steps or less from
        # the nearest such escape square (where its guards stand)
        self.guard_zone = []
        for sq in range(n):
            near = sorted((self.cheb[sq][e], e) for e in esc if self.cheb[sq][e] <= 2)
            e = near[0][1] if near else -1
            self.guard_zone.append(sum(1 << x for x in range(n) if e >= 0 and x != e and self.cheb[x][e] <= 2))

    # ----------------------------------------------------------------- helpers
    def _pattern(self, code: int) -> int:
        found = self._pattern_cache.get(code)
        if found is None:
            cells = (code % 7, code // 7 % 7, code // 49 % 7, code // 343)
            found = self._pattern_cache[code] = _PATTERN_INDEX[_canonical(cells)]
        return found

    def _open_men(self, pos: Position, victims: int, side_of_victims: int, reach: int, occ: int) -> int:
        """Men of ``victims`` that an enemy move could take next (an enemy or a square hostile
        to them on one side, an empty square the enemy can reach on the other)."""
        t = self.t
        hostile = t.hostile_always[side_of_victims] | (t.hostile_empty[side_of_victims] & ~occ)
        if side_of_victims == DEFENDERS:
            anvils = pos.a | hostile
        else:
            anvils = pos.d | hostile
            if t.king_anvil and pos.k >= 0:
                anvils |= 1 << pos.k
        out = 0
        around = self.around
        bb = victims
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            nn, ee, ss, ww = around[sq]
            for x, y in ((nn, ss), (ee, ww)):
                if x < 0 or y < 0:
                    continue
                if (anvils >> x & 1 and reach >> y & 1) or (anvils >> y & 1 and reach >> x & 1):
                    out |= low
                    break
        return out

    @staticmethod
    def _reach(pos: Position, side: int) -> int:
        out = 0
        for _frm, _kind, found in pos.move_targets(side):
            out |= found
        return out

    def _king_open(self, pos: Position) -> bool:
        """Whether some attacker move now would take the king (the engine's own test, tried
        only where an attacker or a square hostile to the king already stands beside him)."""
        k = pos.k
        if k < 0 or not self.can_take_king:
            return False
        near = self.g.near[k]
        occ = pos.a | pos.d | (1 << k)
        if not (pos.a | self.t.hostile_always[DEFENDERS] | (self.t.hostile_empty[DEFENDERS] & ~occ)) & near:
            return False
        return king_threatened(pos)

    def _pattern3(self, code: int) -> int:
        """The canonical code of a ring of eight cells (base 7, north first, clockwise)."""
        found = self._pattern3_cache.get(code)
        if found is None:
            cells = [code // 7 ** i % 7 for i in range(8)]
            best = None
            for turn in range(0, 8, 2):
                for flip in (False, True):
                    c = cells[turn:] + cells[:turn]
                    if flip:
                        c = [c[0]] + c[:0:-1]
                    v = 0
                    for x in reversed(c):
                        v = v * 7 + x
                    if best is None or v < best:
                        best = v
            found = self._pattern3_cache[code] = best if best is not None else 0
        return found

    def _king_roads(self, pos: Position, king_targets: int) -> tuple[int, int]:
        """Squares the king can reach from which he would see one escape square or more, and two or more."""
        esc = self.escape
        one = two = 0
        g = self.g
        occ = pos.a | pos.d
        occt = pos.occt ^ g.tbit[pos.k]  # the king leaves his square
        bb = king_targets & ~esc
        while bb:
            low = bb & -bb
            bb ^= low
            seen = (g.slide(low.bit_length() - 1, occ, occt) & esc).bit_count()
            if seen:
                one += 1
                two += seen >= 2
        return one, two

    def _pattern5(self, code: int) -> int:
        """The canonical code of a diamond of twelve cells (the ring of eight, north first, clockwise,
        then two steps north, east, south and west), the least of its turns and mirror images."""
        found = self._pattern5_cache.get(code)
        if found is None:
            cells = [code // 7 ** i % 7 for i in range(12)]
            ring, far = cells[:8], cells[8:]
            best = None
            for turn in range(4):
                for flip in (False, True):
                    c = ring[2 * turn:] + ring[:2 * turn]
                    d = far[turn:] + far[:turn]
                    if flip:
                        c = [c[0]] + c[:0:-1]
                        d = [d[0], d[3], d[2], d[1]]
                    v = 0
                    for x in reversed(c + d):
                        v = v * 7 + x
                    if best is None or v < best:
                        best = v
            found = self._pattern5_cache[code] = best if best is not None else 0
        return found

    # ----------------------------------------------------------------- the features
    def of_position(self, pos: Position, judged: bool = True) -> tuple[list[int], list[list[int]]]:
        """The legal moves of the side to move (packed, as :meth:`Position.moves` lists
        them) and, for each, the indices of its features in :data:`NAMES` (and ring-pattern
        codes from :data:`PATTERN3_BASE` on). ``judged=False`` leaves out the facts of
        :data:`JUDGED` (the evaluation and the reach after each move), which cost an evaluation
        of every position after a move: a model that weighs none of them scores every move the
        same without them."""
        side = pos.side
        ix = self.index[side]
        man_base, king_base = self.pattern_base[side]
        size = self.size
        cheb = self.cheb
        esc = self.escape
        esc_dist = self.esc_dist
        around = self.around
        g = self.g
        t = self.t
        k = pos.k
        edge = g.edge
        stack = pos.stack
        last_to = stack[-1].to if stack else -1
        own_last = stack[-2].to if len(stack) >= 2 else -1
        occ0 = pos.a | pos.d | (1 << k if k >= 0 else 0)
        enemy_reach = self._reach(pos, 1 - side)
        own_men = pos.a if side == ATTACKERS else pos.d
        open_before = self._open_men(pos, own_men, side, enemy_reach, occ0)
        king_targets0 = pos.king_targets() if k >= 0 else 0
        roads0 = (king_targets0 & esc).bit_count()
        road_sq0 = self._king_roads(pos, king_targets0)[0] if k >= 0 and esc else 0
        reach0 = king_targets0.bit_count()
        region0 = king_region(g, pos.a, k) if k >= 0 and esc else 0
        reg_esc0, reg_n0 = (region0 & esc).bit_count(), region0.bit_count()
        kshift_to, kshift_from = self.king_escape_shift[side]
        opening = len(stack) < OPENING_PLIES
        shift = self.opening_shift[side]
        found_all = pos.move_targets(side)
        friends0 = pos.a if side == ATTACKERS else pos.d
        enemies0 = pos.d if side == ATTACKERS else pos.a
        hostile0 = t.hostile_always[side] | (t.hostile_empty[side] & ~occ0)
        from_rings = {}
        for frm, kind, _fd in found_all:
            code3 = square_code(self.ring[frm], friends0, enemies0, k, hostile0, side)
            from_rings[frm] = PATTERN3_BASE + (4 + side * 2 + (kind == KING)) * 7 ** 8 + self._pattern3(code3)
        own_reach = 0
        for _f, _k, fd in found_all:
            own_reach |= fd
        gap_ix, rank_ix, after_ix, change_ix, share_ix = self.bands[side]
        other_moves0 = max(sum(fd.bit_count() for _f, _k, fd in pos.move_targets(1 - side)), 1) if judged else 1
        score = self.evaluator.attackers_score
        sign = 1 if side == ATTACKERS else -1
        values: list[int] = []  # the evaluation of the position after each move, for the mover
        moves: list[int] = []
        rows: list[list[int]] = []
        make, unmake = pos.make, pos.unmake
        for frm, kind, found in found_all:
            base = frm << 11 | kind
            king_move = kind == KING
            reach_before = found.bit_count()
            while found:
                low = found & -found
                found ^= low
                to = low.bit_length() - 1
                m = base | to << 2
                row: list[int] = []
                length = cheb[frm][to]
                row.append(ix["length=1"] if length == 1 else ix["length=2"] if length == 2
                           else ix["length=3"] if length == 3 else ix["length>=4"])
                if king_move:
                    row.append(ix["king moves"])
                if k >= 0 and not king_move:
                    d_to = cheb[to][k]
                    d_from = cheb[frm][k]
                    if d_to == 1 and (to // size == k // size or to % size == k % size):
                        row.append(ix["lands beside king"])
                    elif d_to == 2:
                        row.append(ix["lands 2 from king"])
                    elif d_to == 3:
                        row.append(ix["lands 3 from king"])
                    if d_from == 1 and d_to > 1:
                        row.append(ix["leaves king's side"])
                    if d_to < d_from:
                        row.append(ix["nearer the king"])
                    elif d_to > d_from:
                        row.append(ix["further from the king"])
                    if king_targets0 >> to & 1:
                        row.append(ix["lands on king's road square"])
                de = esc_dist[to]
                if de == 0:
                    row.append(ix["lands on escape square"])
                elif de == 1:
                    row.append(ix["lands 1 from escape"])
                elif de == 2:
                    row.append(ix["lands 2 from escape"])
                if edge >> to & 1:
                    row.append(ix["lands on edge"])
                elif edge >> frm & 1:
                    row.append(ix["leaves edge"])
                if last_to >= 0:
                    dl = cheb[to][last_to]
                    if dl == 1:
                        row.append(ix["lands beside opponent's last"])
                    elif dl == 2:
                        row.append(ix["lands 2 from opponent's last"])
                if own_last >= 0:
                    if frm == own_last:
                        row.append(ix["same piece as own last"])
                    elif cheb[to][own_last] == 1:
                        row.append(ix["lands beside own last"])
                if open_before >> frm & 1:
                    row.append(ix["mover was open to capture"])
                row.append(from_rings[frm])
                fe = self.from_escape[side][frm]
                if fe >= 0:
                    row.append(fe)
                    if opening:
                        row.append(fe + shift)
                    if king_move:
                        row.append(fe + kshift_from)
                te = self.to_escape[side][to]
                if te >= 0:
                    row.append(te)
                    if opening:
                        row.append(te + shift)
                    if king_move:
                        row.append(te + kshift_to)
                zone = self.guard_zone[to]
                if zone and not king_move:
                    guards = (friends0 & zone & ~(1 << frm)).bit_count()
                    row.append(ix["lands by an escape guarded by 0" if guards == 0 else "lands by an escape guarded by 1"
                                  if guards == 1 else "lands by an escape guarded by 2" if guards == 2
                                  else "lands by an escape guarded by 3+"])
                if esc_dist[to] < esc_dist[frm]:
                    row.append(ix["nearer an escape square"])
                elif esc_dist[to] > esc_dist[frm]:
                    row.append(ix["further from an escape square"])
                if k >= 0 and not king_move:
                    tk = self.to_king[side][to][k]
                    if tk >= 0:
                        row.append(tk)
                # --- after the move
                caps = make(frm, to, kind, True)
                try:
                    outcome = pos.outcome
                    if outcome is not None and outcome.winner == _SIDES[side]:
                        row.append(ix["wins"])
                    if judged:
                        if outcome is None:
                            values.append(sign * score(pos.a, pos.d, pos.k, pos.side, pos.king_targets()))
                            other_moves = sum(fd.bit_count() for _f, _k, fd in pos.move_targets(1 - side))
                        else:
                            values.append(0 if outcome.winner is None else _DECIDED if outcome.winner == _SIDES[side]
                                          else -_DECIDED)
                            other_moves = other_moves0
                        reach_after = targets(pos, to, kind).bit_count()
                        row.append(after_ix[_band(reach_after, REACH_AFTER_BOUNDS)])
                        row.append(change_ix[_band(reach_after - reach_before, REACH_CHANGE_BOUNDS)])
                        row.append(share_ix[_band((other_moves - other_moves0) / other_moves0, SHARE_CHANGE_BOUNDS)])
                    if caps:
                        row.append(ix["takes 1"] if caps & (caps - 1) == 0 else ix["takes 2+"])
                        if last_to >= 0 and caps >> last_to & 1:
                            row.append(ix["takes the man that moved last"])
                    k1 = pos.k
                    if k1 >= 0:
                        kt = pos.king_targets()
                        roads = (kt & esc).bit_count()
                        if roads == 1:
                            row.append(ix["roads after=1"])
                        elif roads >= 2:
                            row.append(ix["roads after=2+"])
                        elif roads0:
                            row.append(ix["roads before>0 and after=0"])
                        if esc:
                            road_sq, fork_sq = self._king_roads(pos, kt)
                            if fork_sq:
                                row.append(ix["king fork squares after>0"])
                            row.append(ix["king road squares after=0" if road_sq == 0 else "king road squares after=1"
                                          if road_sq == 1 else "king road squares after=2" if road_sq == 2
                                          else "king road squares after=3+"])
                            if road_sq > road_sq0:
                                row.append(ix["king road squares more"])
                            elif road_sq < road_sq0:
                                row.append(ix["king road squares fewer"])
                        reach = kt.bit_count()
                        if reach > reach0:
                            row.append(ix["king reach grows"])
                        elif reach < reach0:
                            row.append(ix["king reach shrinks"])
                        if side == ATTACKERS:
                            changes_region = region0 >> to & 1 or g.near[frm] & region0
                        else:
                            changes_region = caps
                        if changes_region and esc:
                            region = king_region(g, pos.a, k1)
                            res, rn = (region & esc).bit_count(), region.bit_count()
                            if res < reg_esc0:
                                row.append(ix["escapes in king's region fewer"])
                                if not res:
                                    row.append(ix["closes the king's region"])
                            elif res > reg_esc0:
                                row.append(ix["escapes in king's region more"])
                            dn = reg_n0 - rn
                            if dn > 0:
                                row.append(ix["king's region shrinks 1-2" if dn <= 2 else "king's region shrinks 3-9"
                                              if dn <= 9 else "king's region shrinks 10+"])
                            elif dn < 0:
                                row.append(ix["king's region grows"])
                        if self._king_open(pos):
                            row.append(ix["own king open to capture after" if side == DEFENDERS
                                          else "enemy king open to capture after"])
                    occ = pos.a | pos.d | (1 << k1 if k1 >= 0 else 0)
                    reach = enemy_reach | (1 << frm)  # the square left behind may be passed over now
                    if not king_move:
                        if self._open_men(pos, 1 << to, side, reach, occ):
                            row.append(ix["mover open to capture after"])
                    # only men beside a square the move changed can change whether they are open
                    changed = g.near[frm] | g.near[to]
                    if caps:
                        for c in iter_bits(caps):
                            changed |= g.near[c]
                    others = (pos.a if side == ATTACKERS else pos.d) & ~(1 << to) & changed
                    open_after = self._open_men(pos, others, side, reach, occ)
                    if open_before & others & ~open_after:
                        row.append(ix["saves a man"])
                    if open_after & ~open_before:
                        row.append(ix["leaves a man open"])
                    enemy_men = pos.d if side == ATTACKERS else pos.a
                    threats = 0
                    for nb, beyond in g.pairs[to]:
                        if beyond >= 0 and enemy_men >> nb & 1 and not occ >> beyond & 1 and own_reach >> beyond & 1:
                            threats += 1
                    if threats:
                        row.append(ix["threatens a capture after"] if threats == 1 else ix["threatens two captures after"])
                    # the pattern of the four squares around the landing square
                    hostile = t.hostile_always[side] | (t.hostile_empty[side] & ~occ)
                    friends = pos.a if side == ATTACKERS else pos.d
                    enemies = pos.d if side == ATTACKERS else pos.a
                    code = square_code(around[to], friends, enemies, k1, hostile, side)
                    row.append((king_base if king_move else man_base) + self._pattern(code))
                    code3 = square_code(self.ring[to], friends, enemies, k1, hostile, side)
                    row.append(PATTERN3_BASE + (side * 2 + king_move) * 7 ** 8 + self._pattern3(code3))
                    code5 = square_code(self.diamond[to], friends, enemies, k1, hostile, side)
                    row.append(PATTERN5_BASE + (side * 2 + king_move) * 7 ** 12 + self._pattern5(code5))
                finally:
                    unmake()
                moves.append(m)
                rows.append(row)
        if values:
            best = max(values)
            ranked = sorted(-v for v in values)  # a move's rank: how many moves are evaluated above it
            for row, value in zip(rows, values):
                row.append(gap_ix[_band(best - value, EVALUATION_GAP_BOUNDS)])
                row.append(rank_ix[_band(bisect.bisect_left(ranked, -value), EVALUATION_RANK_BOUNDS)])
        return moves, rows


@functools.lru_cache(maxsize=64)
def move_features(rules: Rules) -> MoveFeatures:
    """The cached :class:`MoveFeatures` of a rules record."""
    return MoveFeatures(rules)
