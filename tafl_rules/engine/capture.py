"""Capture: the men a move takes (custodial capture and the shield wall), and the king's capture.

Functions of plain ints (bitboards, square indices) and the rules' :class:`Tables`:
the engine's :class:`~tafl_rules.engine.state.Position` calls them with its own state,
and a :class:`~tafl_rules.game.Move` asked for its captures calls them with the state
it was generated in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .tables import ATTACKERS, DEFENDERS, KING, Tables

if TYPE_CHECKING:  # pragma: no cover - type names only
    from .state import Position


def captures(t: Tables, a: int, d: int, k: int, frm: int, to: int, kind: int, side: int) -> int:
    """Men (not the king) captured when ``side``'s piece of ``kind`` moves ``frm``-``to`` in
    the placement ``a`` (attackers), ``d`` (defenders), ``k`` (the king's square or -1).

    A man is taken when the moving piece closes him between itself and a friend or a
    square hostile to him on the far side (custodial capture); an unarmed king never
    closes a capture, and takes part as the far partner only when ``king_armed`` says so.
    With ``shieldwall = "copenhagen"`` a row along the edge can be taken at once.
    """
    if kind == KING and not t.king_hammer:
        return 0
    kbit = 1 << k if k >= 0 else 0
    mover = (1 << frm) | (1 << to)
    if side == ATTACKERS:
        victims = d
        friends = a ^ mover
        occ = friends | victims | kbit
    else:
        victims = a
        if kind == KING:
            friends = d | (1 << to)
            occ = friends | victims
        else:
            friends = d ^ mover
            occ = friends | victims | kbit
            if t.king_anvil:
                friends |= kbit
    anvils = friends | t.hostile_always[1 - side] | (t.hostile_empty[1 - side] & ~occ)
    caps = 0
    for n, b in t.g.pairs[to]:
        if victims >> n & 1 and b >= 0 and anvils >> b & 1:
            caps |= 1 << n
    if t.shieldwall and t.g.edge >> to & 1:  # a shield wall is closed by a move along the edge
        caps |= shieldwall(t, k, to, side, friends, victims, occ)
    return caps


def edges_of(sq: int, size: int) -> list[tuple[int, int, int]]:
    """For each board edge through ``sq``: (inward offset, along-edge step, position along the edge)."""
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


def shieldwall(t: Tables, king: int, to: int, side: int, friends: int, victims: int, occ: int) -> int:
    """Copenhagen shield wall: a row of two or more enemy pieces along the board edge,
    each fronted (on the square inward from it) by a piece of the mover, and
    bracketed at both ends by pieces of the mover or by squares hostile to the row, is
    captured when the moving piece arrives as one of the brackets. A king in the row
    belongs to it but is not taken; the other pieces of the row are."""
    size = t.g.size
    members = victims
    if side == ATTACKERS and king >= 0 and king != to:
        members |= 1 << king
    anvils = friends | t.hostile(1 - side, occ)
    caps = 0
    for inward, step, pos in edges_of(to, size):
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


def special_name(t: Tables, sq: int) -> str:
    """``"throne"``, ``"corner"``, ``"camp"`` or ``"square"``: what the rules make of ``sq``."""
    if t.throne >> sq & 1:
        return "throne"
    if t.corners >> sq & 1:
        return "corner"
    if t.camps >> sq & 1:
        return "camp"
    return "square"


def king_taken(pos: "Position", to: int, occ: int) -> str | None:
    """After an attackers' move to ``to`` (its captures done, ``occ`` the occupancy):
    the reason in words if the king is taken by the rules' ``king_capture``, else None."""
    k = pos.k
    if k < 0:
        return None
    t = pos.t
    mode = t.rules.king_capture
    g = t.g
    names = g.names
    if mode == "none":
        return None
    if to not in g.neighbours[k]:
        return None
    if mode == "immobile":
        # the move that shuts him in ends beside him (so a king hemmed in by his own
        # men, as at the start of ap Ifan's game, is not taken by a distant move)
        if pos.targets(k, KING) == 0:
            return f"king captured on {names[k]}: he cannot move"
        return None
    a = pos.a
    if mode == "linnaeus":
        c = g.center
        if k == c or c in g.neighbours[k]:
            others = [n for n in g.neighbours[k] if n != c]
            if all(a >> n & 1 for n in others):
                return f"king captured on {names[k]} by {', '.join(names[n] for n in others)}" + (
                    "" if k == c else " and the throne")
            return None
        mode = "two"
    if mode == "two":
        anvils = a | t.hostile(DEFENDERS, occ)
        for n, b in g.pairs[to]:
            if n == k and b >= 0 and anvils >> b & 1:
                by = names[b] if a >> b & 1 else f"the {special_name(t, b)} at {names[b]}"
                return f"king captured between {names[to]} and {by}"
        return None
    # four sides, some of which may be special squares
    nbrs = g.neighbours[k]
    if len(nbrs) < 4 and not t.against_edge:
        return None
    sides = []
    for n in nbrs:
        if a >> n & 1:
            sides.append(names[n])
        elif t.against >> n & 1 and not (pos.d >> n & 1):
            sides.append(f"the {special_name(t, n)}")
        else:
            return None
    if len(nbrs) < 4:
        sides.append("the edge")
    return f"king captured on {names[k]} by {', '.join(sides)}"


__all__ = ["captures", "edges_of", "king_taken", "shieldwall", "special_name"]
