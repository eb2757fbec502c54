"""Movement: where each piece may go, by the movement rules and the sandwich rule.

Every piece moves like a rook (any distance along a rank or a file, not through other
pieces) unless the rules limit its speed; special squares (throne, corners, camps)
may forbid a kind of piece to stop on them or to pass over them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..squares import iter_bits
from .capture import captures
from .tables import ATTACKER, ATTACKERS, DEFENDER, DEFENDERS, KING

if TYPE_CHECKING:  # pragma: no cover - type names only
    from .state import Position

#: One entry of :func:`move_targets`: (from square, piece kind, bitboard of target squares).
Targets = tuple[int, int, int]


def targets(pos: "Position", sq: int, kind: int) -> int:
    """Squares the piece of ``kind`` on ``sq`` may move to, by the movement rules
    (sliding, special squares, speed); the sandwich rule is applied apart."""
    t = pos.t
    g = t.g
    k = pos.k
    occ = pos.a | pos.d | (1 << k if k >= 0 else 0)
    nostop = t.nostop[kind]
    if t.camps and t.camps >> sq & 1:
        nostop &= ~t.camp_group[sq]  # a piece still in its camp may move within it
    if kind == KING and t.throne and not t.king_reenter and pos.left:
        nostop |= t.throne
    np = t.nopass[kind]
    if np:
        out = g.slide(sq, occ | np, pos.occt | t.nopass_t[kind])
        snp = np & ~nostop & ~occ & g.lines[sq]
        if snp:
            # squares that stop the piece without being forbidden to it: it may end there
            for s in iter_bits(snp):
                if not g.between(sq, s) & (occ | np):
                    out |= 1 << s
    else:
        out = g.slide(sq, occ, pos.occt)
    if kind == KING:
        if t.king_within:
            out &= t.king_within[sq]
    elif t.man_within:
        out &= t.man_within[sq]
    return out & ~nostop


def move_targets(pos: "Position", side: int) -> list[Targets]:
    """(from, kind, targets) for every piece of ``side`` with at least one legal target,
    attackers or defenders in square order, then the king."""
    t = pos.t
    k = pos.k
    out = []
    if side == ATTACKERS:
        pieces, kind = pos.a, ATTACKER
    else:
        pieces, kind = pos.d, DEFENDER
    if t.simple[kind]:
        g = t.g
        occ = pos.a | pos.d | (1 << k if k >= 0 else 0)
        occt = pos.occt
        rowt = g.row_targets
        colt = g.col_targets
        m = g.row_mask
        coords = g.coords
        allowed = ~t.nostop[kind]
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            sq = low.bit_length() - 1
            f, rs, r, fs = coords[sq]
            found = ((rowt[f][(occ >> rs) & m] << rs) | (colt[r][(occt >> fs) & m] << f)) & allowed
            if found:
                out.append((sq, kind, found))
    else:
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            sq = low.bit_length() - 1
            found = targets(pos, sq, kind)
            if found:
                out.append((sq, kind, found))
    if side == DEFENDERS and k >= 0:
        found = targets(pos, k, KING)
        if found:
            out.append((k, KING, found))
    if t.sandwich_filters:
        filtered = []
        for sq, kind, found in out:
            found = sandwich_filter(pos, sq, kind, side, found)
            if found:
                filtered.append((sq, kind, found))
        out = filtered
    return out


def has_move(pos: "Position", side: int) -> bool:
    """Whether ``side`` has at least one legal move."""
    if pos.t.sandwich_filters:
        return bool(move_targets(pos, side))
    if side == DEFENDERS and pos.k >= 0 and targets(pos, pos.k, KING):
        return True
    pieces, kind = (pos.a, ATTACKER) if side == ATTACKERS else (pos.d, DEFENDER)
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        if targets(pos, low.bit_length() - 1, kind):
            return True
    return False


def sandwiched(pos: "Position", sq: int, side: int, a: int, d: int, k: int) -> bool:
    """Whether the piece of ``side`` on ``sq`` stands between two enemies (or hostile squares)
    on a rank or a file, in the placement ``a``, ``d``, ``k``."""
    t = pos.t
    size = t.g.size
    kbit = 1 << k if k >= 0 else 0
    occ = a | d | kbit
    if side == ATTACKERS:
        enemies = d | (kbit if t.king_anvil else 0)
    else:
        enemies = a
    hostile = enemies | t.hostile(side, occ)
    r, f = divmod(sq, size)
    if 0 < f < size - 1 and hostile >> (sq - 1) & 1 and hostile >> (sq + 1) & 1:
        return True
    if 0 < r < size - 1 and hostile >> (sq - size) & 1 and hostile >> (sq + size) & 1:
        return True
    return False


def sandwich_filter(pos: "Position", frm: int, kind: int, side: int, found: int) -> int:
    """Remove the targets that would put the piece between two enemies, per the rules'
    sandwich mode: ``"unless-capturing"`` keeps them when the move captures something;
    ``"forbidden"`` never keeps them (the flanking pieces are judged before the move's captures)."""
    t = pos.t
    check = found
    if kind == KING:
        # the king is in jeopardy between two enemies only where two can take him
        check &= t.king_jeopardy
        if not check:
            return found
    forbidden = not t.sandwich.capturing_allowed
    keep = found
    a, d, k = pos.a, pos.d, pos.k
    for to in iter_bits(check):
        mover = (1 << frm) | (1 << to)
        # "forbidden": never, even when the move takes one of the two (judged before captures)
        caps = 0 if forbidden else captures(t, a, d, k, frm, to, kind, side)
        if caps:
            continue
        if side == ATTACKERS:
            a2, d2, k2 = a ^ mover, d & ~caps, k
        elif kind == KING:
            a2, d2, k2 = a & ~caps, d, to
        else:
            a2, d2, k2 = a & ~caps, d ^ mover, k
        if sandwiched(pos, to, side, a2, d2, k2):
            keep &= ~(1 << to)
    return keep


__all__ = ["Targets", "has_move", "move_targets", "sandwich_filter", "sandwiched", "targets"]
