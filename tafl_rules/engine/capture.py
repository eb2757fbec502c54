"""Capture: the men a move takes (custodial capture, and the shield wall of the rules' mode).

A function of plain ints (bitboards, square indices) and the rules' :class:`Tables`:
the engine's :class:`~tafl_rules.engine.state.Position` calls it with its own state,
and a :class:`~tafl_rules.game.Move` asked for its captures calls it with the state
it was generated in. How the king is taken is his capture mode's
(:mod:`tafl_rules.modes.king`).
"""

from __future__ import annotations

from .tables import ATTACKERS, KING, Tables


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
    if t.takes_rows and t.g.edge >> to & 1:  # a shield wall is closed by a move along the edge
        caps |= t.shieldwall.captures(t, k, to, side, friends, victims, occ)
    return caps


__all__ = ["captures"]
