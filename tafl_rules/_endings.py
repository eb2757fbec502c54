"""The rarer rules, kept out of game.py: shield walls, edge forts, encirclement,
ap Ifan's "watch your king", and the defenders' announcements.

Each function takes the :class:`~tafl_rules.game.Game` and reads its bitboards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._tables import ATTACKERS, DEFENDERS, KING

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game


def _edges_of(sq: int, size: int):
    """For each board edge through ``sq``: (inward offset, along-edge step, position along the
    edge)."""
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


def shieldwall(game: "Game", to: int, kind: int, side: int, friends: int, victims: int, occ: int) -> int:
    """Copenhagen shield wall: a row of two or more enemy pieces along the board edge,
    each fronted (on the square inward from it) by a piece of the mover, and
    bracketed at both ends by pieces of the mover or by squares hostile to the row, is
    captured when the moving piece arrives as one of the brackets. A king in the row
    belongs to it but is not taken; the other pieces of the row are."""
    size = game.size
    king = game._k
    members = victims
    if side == ATTACKERS and king >= 0 and king != to:
        members |= 1 << king
    anvils = friends | game._hostile(1 - side, occ)
    caps = 0
    for inward, step, pos in _edges_of(to, size):
        for direction in (1, -1):
            p = pos + direction
            s = to + direction * step
            row = 0
            count = 0
            while 0 <= p < size and members >> s & 1 and friends >> (s + inward) & 1:
                row |= 1 << s
                count += 1
                p += direction
                s += direction * step
            if count >= 2 and 0 <= p < size and anvils >> s & 1:
                caps |= row & victims
    return caps


def encircled(game: "Game") -> bool:
    """Copenhagen encirclement: no defender (king included) can reach the board edge
    through squares free of attackers - every one is shut in by unbroken rings of
    attackers (orthogonal steps; a diagonal gap does not open a ring)."""
    g = game._g
    region = game._d | (1 << game._k if game._k >= 0 else 0)
    if not region:
        return False
    free = g.full & ~game._a
    edge = g.edge
    while True:
        if region & edge:
            return False
        grown = g.grow(region) & free
        if grown == region:
            return True
        region = grown


def edge_fort(game: "Game") -> bool:
    """Copenhagen edge fort, read conservatively: the king stands on the edge and can
    move; the empty squares he can reach (his fort) touch no attacker; and every
    defender bordering the fort is safe for good. A defender is safe when, on each line
    through it, one of its two neighbours is off the board or a square no attacker can
    ever stand on (the fort, the king, another safe defender; never a hostile square),
    and - with shield walls - when its run along the edge cannot be fronted and
    bracketed. The safe defenders are found as the largest set that supports itself."""
    k = game._k
    g = game._g
    if k < 0 or not g.edge >> k & 1:
        return False
    if not game._targets(k, KING):
        return False
    a = game._a
    d = game._d
    kbit = 1 << k
    free = g.full & ~(a | d | kbit)
    fort = kbit
    while True:
        grown = (g.grow(fort) & free) | fort
        if grown == fort:
            break
        fort = grown
    border = g.grow(fort) & ~fort
    if border & a:
        return False
    if a.bit_count() < 2:
        return True
    hostile = game._hostile(DEFENDERS, a | d | kbit)
    size = g.size
    shieldwall = game.rules.shieldwall != "none"
    stand = d
    while True:
        safe = (fort | stand) & ~hostile
        fallen = 0
        for s in _iter(stand):
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


def _row_safe(s: int, g, fort: int, wall: int, pieces: int) -> bool:
    """Whether the run of defenders along the edge through ``s`` is safe from a shield
    wall: some member is fronted by the fort or a safe defender, or the run ends at the fort."""
    size = g.size
    for inward, step, pos in _edges_of(s, size):
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


def watch_king(game: "Game") -> str | None:
    """ap Ifan's "watch your king", as read here: called after an attackers' move. If the
    defenders' previous move brought the king to the square he stands on, between two
    attackers on a rank or a file, and he now has no move at all, he is taken."""
    stack = game._stack
    k = game._k
    if k < 0 or len(stack) < 2 or stack[-2][9] != k:
        return None
    g = game._g
    a = game._a
    size = g.size
    r, f = divmod(k, size)
    between = ((0 < f < size - 1 and a >> (k - 1) & 1 and a >> (k + 1) & 1)
               or (0 < r < size - 1 and a >> (k - size) & 1 and a >> (k + size) & 1))
    if between and not game._targets(k, KING):
        return f"king taken on {g.names[k]}: he moved between two attackers and cannot get out"
    return None


def announcements(game: "Game") -> list[str]:
    """``["tuichi", "check"]`` when the king has open roads to two or more escape squares,
    ``["raichi", "check"]`` for one road, plus ``"king threatened"`` when some attacker
    move would capture the king. Empty once the game is over."""
    if game._outcome is not None or game._k < 0:
        return []
    out = []
    t = game._t
    roads = (game._targets(game._k, KING) & t.escape).bit_count()
    if roads >= 2:
        out += ["tuichi", "check"]
    elif roads == 1:
        out += ["raichi", "check"]
    if game.rules.king_capture != "none" and _king_threatened(game):
        out.append("king threatened")
    return out


def _king_threatened(game: "Game") -> bool:
    """Whether an attackers' move (played now, whoever is to move) would take the king."""
    k = game._k
    g = game._g
    near = 0
    for n in g.neighbours[k]:
        near |= 1 << n
    saved = game._side
    game._side = ATTACKERS
    try:
        for frm, kind, targets in game._move_targets(ATTACKERS):
            targets &= near  # every way of taking the king ends beside him
            for to in _iter(targets):
                caps, reason = game._make(frm, to, kind)
                game._unmake()
                if reason:
                    return True
    finally:
        game._side = saved
    return False


def _iter(bb: int):
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


__all__ = ["announcements", "edge_fort", "encircled", "shieldwall", "watch_king"]
