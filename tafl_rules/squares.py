"""Squares: names, indices and the precomputed bit masks of each board size.

Squares are numbered ``rank * size + file`` with ``a1`` (bottom-left) as 0; a set of
squares is a Python int with bit ``i`` set for square ``i`` (a bitboard). Square
names are a file letter ``a``-``s`` and a rank number ``1``-``19``. This is the only
module that turns names into indices and back. Everything here depends only on the
board size and is built once per size (:func:`geometry`).

For fast move generation a second, *transposed* numbering ``file * size + rank`` is
used for the occupancy of files, so that a whole rank or a whole file of the board
is a contiguous run of ``size`` bits and the sliding targets of a piece can be read
from a table indexed by that run (boards up to 13x13) or from ray masks (larger).

>>> square_name(0, 11), parse_square("f6", 11), square_index("l1", 11)
('a1', 60, -1)
"""

from __future__ import annotations

import functools
import re
from typing import Iterator

from .errors import NotationError

FILES = "abcdefghijklmnopqrs"

#: A square name on a board of any size, as a regular expression (lower-case file letter).
SQUARE_PATTERN = r"[a-s](?:1[0-9]|[1-9])"
_SQUARE = re.compile(r"([a-s])(1[0-9]|[1-9])")

#: Largest board for which rank/file lookup tables are built (size * 2**size entries each).
TABLE_MAX = 13


def square_name(index: int, size: int) -> str:
    """``"a1"`` for square 0 of any board."""
    return f"{FILES[index % size]}{index // size + 1}"


def square_index(name: str, size: int) -> int:
    """Index of a square name (lower-case, like ``"e5"``) on a ``size`` x ``size`` board;
    -1 if ``name`` is not the name of one of its squares."""
    m = _SQUARE.fullmatch(name) if isinstance(name, str) else None
    if not m:
        return -1
    file = FILES.index(m.group(1))
    rank = int(m.group(2)) - 1
    if file >= size or rank >= size:
        return -1
    return rank * size + file


def parse_square(name: str, size: int) -> int:
    """Index of a square name such as ``"e5"`` (the file letter in either case).

    Raises :class:`~tafl_rules.errors.NotationError` if ``name`` is not the name of a
    square of a ``size`` x ``size`` board, saying whether it is not written like a square
    name at all or names a square off this board.

    >>> parse_square("L1", 11)
    Traceback (most recent call last):
    ...
    tafl_rules.errors.NotationError: l1 is off the 11x11 board (at offset 0)
    """
    if not isinstance(name, str):
        raise NotationError(f"a square name must be text, got {type(name).__name__}", "", 0)
    m = _SQUARE.fullmatch(name[:1].lower() + name[1:])
    if not m:
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise NotationError(f"{shown!r} is not a square name (expected a file letter and a rank number, like e5)",
                            name, 0)
    index = square_index(m.group(0), size)
    if index < 0:
        raise NotationError(f"{m.group(0)} is off the {size}x{size} board", name, 0)
    return index


def iter_bits(bb: int) -> Iterator[int]:
    """Indices of the set bits of ``bb``, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


class Geometry:
    """Masks and tables for one board size. Get it from :func:`geometry` (cached)."""

    def __init__(self, size: int) -> None:
        n = size * size
        self.size = size
        self.n = n
        self.full = (1 << n) - 1
        self.names = [square_name(i, size) for i in range(n)]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.center = n // 2
        self.row_mask = (1 << size) - 1
        edge = 0
        for i in range(n):
            r, f = divmod(i, size)
            if r in (0, size - 1) or f in (0, size - 1):
                edge |= 1 << i
        self.edge = edge
        self.corner_squares = (0, size - 1, n - size, n - 1)
        self.corners = sum(1 << c for c in self.corner_squares)
        file_a = sum(1 << (r * size) for r in range(size))
        self.not_file_a = self.full & ~file_a
        self.not_last_file = self.full & ~(file_a << (size - 1))
        #: transposed bit of each square (file * size + rank)
        self.tbit = [1 << ((i % size) * size + i // size) for i in range(n)]
        #: for each square, its orthogonal neighbours as (neighbour, square beyond it or -1)
        self.pairs: list[tuple[tuple[int, int], ...]] = []
        #: for each square, its on-board orthogonal neighbours, as a tuple and as a bitboard
        self.neighbours: list[tuple[int, ...]] = []
        self.near: list[int] = []
        for i in range(n):
            r, f = divmod(i, size)
            pairs = []
            nbrs = []
            for dr, df in ((1, 0), (0, 1), (-1, 0), (0, -1)):
                r1, f1, r2, f2 = r + dr, f + df, r + 2 * dr, f + 2 * df
                if 0 <= r1 < size and 0 <= f1 < size:
                    nbrs.append(r1 * size + f1)
                    beyond = r2 * size + f2 if 0 <= r2 < size and 0 <= f2 < size else -1
                    pairs.append((r1 * size + f1, beyond))
            self.pairs.append(tuple(pairs))
            self.neighbours.append(tuple(nbrs))
            self.near.append(sum(1 << s for s in nbrs))
        # ray masks: north and east increase the index, south and west decrease it
        self.rays_up: list[tuple[int, int]] = []
        self.rays_down: list[tuple[int, int]] = []
        for i in range(n):
            r, f = divmod(i, size)
            north = sum(1 << (rr * size + f) for rr in range(r + 1, size))
            east = sum(1 << (r * size + ff) for ff in range(f + 1, size))
            south = sum(1 << (rr * size + f) for rr in range(r))
            west = sum(1 << (r * size + ff) for ff in range(f))
            self.rays_up.append((north, east))
            self.rays_down.append((south, west))
        self.lines = [self.rays_up[i][0] | self.rays_up[i][1] | self.rays_down[i][0] | self.rays_down[i][1]
                      for i in range(n)]
        #: for each square: (file, rank * size, rank, file * size)
        self.coords = [(i % size, (i // size) * size, i // size, (i % size) * size) for i in range(n)]
        self.use_tables = size <= TABLE_MAX
        if self.use_tables:
            self._build_tables()

    def _build_tables(self) -> None:
        """``row_targets[f][occ]``: bits (0..size-1) a slider on file ``f`` of a rank reaches,
        given the rank's occupancy ``occ``; ``col_targets[r][occ]``: the same along a
        file, returned as a mask of file ``a`` in normal numbering (shift by the file)."""
        size = self.size
        row = []
        col = []
        spread = [1 << (k * size) for k in range(size)]
        for pos in range(size):
            row_pos = []
            col_pos = []
            for occ in range(1 << size):
                bits = 0
                k = pos + 1
                while k < size and not occ >> k & 1:
                    bits |= 1 << k
                    k += 1
                k = pos - 1
                while k >= 0 and not occ >> k & 1:
                    bits |= 1 << k
                    k -= 1
                row_pos.append(bits)
                colbits = 0
                b = bits
                while b:
                    low = b & -b
                    colbits |= spread[low.bit_length() - 1]
                    b ^= low
                col_pos.append(colbits)
            row.append(row_pos)
            col.append(col_pos)
        self.row_targets = row
        self.col_targets = col

    def transpose(self, bb: int) -> int:
        """The same squares in transposed numbering."""
        out = 0
        tbit = self.tbit
        while bb:
            low = bb & -bb
            out |= tbit[low.bit_length() - 1]
            bb ^= low
        return out

    def slide(self, sq: int, occ: int, occ_t: int) -> int:
        """Squares a rook-like piece on ``sq`` reaches when ``occ`` (normal numbering) and
        ``occ_t`` (the same squares, transposed) block it. The blockers themselves are
        not included."""
        size = self.size
        r, f = divmod(sq, size)
        if self.use_tables:
            m = self.row_mask
            return (self.row_targets[f][(occ >> (r * size)) & m] << (r * size)) | (
                self.col_targets[r][(occ_t >> (f * size)) & m] << f)
        targets = 0
        for ray in self.rays_up[sq]:
            b = ray & occ
            targets |= ray & ((b & -b) - 1) if b else ray
        for ray in self.rays_down[sq]:
            b = ray & occ
            targets |= ray & -(1 << b.bit_length()) if b else ray
        return targets

    @functools.lru_cache(maxsize=None)
    def within(self, distance: int) -> tuple[int, ...]:
        """For each square, the squares on its rank and file at most ``distance`` away."""
        size = self.size
        out = []
        for i in range(self.n):
            r, f = divmod(i, size)
            m = 0
            for k in range(1, distance + 1):
                for rr, ff in ((r + k, f), (r - k, f), (r, f + k), (r, f - k)):
                    if 0 <= rr < size and 0 <= ff < size:
                        m |= 1 << (rr * size + ff)
            out.append(m)
        return tuple(out)

    def between(self, a: int, b: int) -> int:
        """Squares strictly between two squares on one rank or file (0 otherwise)."""
        size = self.size
        ra, fa = divmod(a, size)
        rb, fb = divmod(b, size)
        m = 0
        if ra == rb:
            for f in range(min(fa, fb) + 1, max(fa, fb)):
                m |= 1 << (ra * size + f)
        elif fa == fb:
            for r in range(min(ra, rb) + 1, max(ra, rb)):
                m |= 1 << (r * size + fa)
        return m

    def grow(self, bb: int) -> int:
        """``bb`` and its orthogonal neighbours."""
        s = self.size
        return (bb | ((bb << 1) & self.not_file_a) | ((bb >> 1) & self.not_last_file)
                | (bb << s) | (bb >> s)) & self.full


def edges_of(sq: int, size: int) -> list[tuple[int, int, int]]:
    """For each board edge through ``sq``: (inward offset, along-edge step, position along the edge).

    >>> edges_of(0, 7)  # a1: on the first rank and on the a file
    [(7, 1, 0), (1, 7, 0)]
    """
    r, f = divmod(sq, size)
    out = []
    if r == 0:
        out.append((size, 1, f))
    if r == size - 1:
        out.append((-size, 1, f))
    if f == 0:
        out.append((1, size, r))
    if f == size - 1:
        out.append((-1, size, r))
    return out


@functools.lru_cache(maxsize=None)
def geometry(size: int) -> Geometry:
    """The (cached) :class:`Geometry` of a ``size`` x ``size`` board."""
    if not isinstance(size, int) or not 3 <= size <= 19:
        raise ValueError(f"board size must be a whole number from 3 to 19, got {size!r}")
    return Geometry(size)


__all__ = ["FILES", "SQUARE_PATTERN", "Geometry", "edges_of", "geometry", "iter_bits", "parse_square", "square_index",
           "square_name"]
