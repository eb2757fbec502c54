"""The end of the game: judging a position after a move, and what the defenders announce
(tuichi, raichi, a threatened king).

Which endings a set of rules has, and how each is decided, are their modes' (the
rarer ones - tuichi as a win, edge forts, encirclement, repetition - are
:mod:`tafl_rules.modes.endings`); this module asks them in a fixed order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..messages import message
from ..outcome import Outcome, Termination
from ..squares import iter_bits
from .movement import has_move, move_targets
from .tables import ATTACKERS, KING

if TYPE_CHECKING:  # pragma: no cover - type names only
    from .state import Position


def no_moves_outcome(pos: "Position") -> Outcome:
    """The outcome when the side to move has no legal move (``rules.no_moves``)."""
    return pos.t.no_moves.outcome(pos.side)


def initial_outcome(pos: "Position") -> Outcome | None:
    """A game set up in a position where the side to move cannot move is already over."""
    if not has_move(pos, pos.side):
        return no_moves_outcome(pos)
    return None


def judge(pos: "Position", frm: int, to: int, kind: int, mover: int, king_reason: str | None,
          fast: bool = False) -> Outcome | None:
    """The outcome after ``mover`` played ``frm``-``to`` (now the other side is to move): the king
    taken, his escape, the rarer endings of the mover's side (tuichi and the edge fort after a
    defenders' move, encirclement after an attackers'), repetition, a side left without moves,
    the ply limit. With ``fast`` the caller checks for a side without moves itself (it
    generates them anyway)."""
    t = pos.t
    if king_reason:
        return Outcome("attackers", king_reason, Termination.KING_CAPTURED)
    if kind == KING and t.escape >> to & 1:
        return Outcome("defenders", message("king reached {square}", square=t.g.names[to]), Termination.ESCAPE)
    for ending in t.endings[mover]:
        outcome = ending.judge(pos)
        if outcome is not None:
            return outcome
    rules = t.rules
    if t.repetition.ends and pos.seen.get(pos.hash, 0) >= rules.repetition_count:
        return t.repetition.outcome(mover, rules.repetition_count)
    if not fast and not has_move(pos, pos.side):
        return no_moves_outcome(pos)
    if rules.ply_limit and len(pos.stack) >= rules.ply_limit:
        if fast and not has_move(pos, pos.side):
            return no_moves_outcome(pos)
        return Outcome(None, message("ply limit"), Termination.PLY_LIMIT)
    return None


def announcements(pos: "Position") -> list[str]:
    """``["tuichi", "check"]`` when the king has open roads to two or more escape squares,
    ``["raichi", "check"]`` for one road, plus ``"king threatened"`` when some attacker
    move would capture the king. Empty once the game is over."""
    if pos.outcome is not None or pos.k < 0:
        return []
    out = []
    roads = (pos.king_targets() & pos.t.escape).bit_count()
    if roads >= 2:
        out += ["tuichi", "check"]
    elif roads == 1:
        out += ["raichi", "check"]
    if pos.t.king_can_fall and king_threatened(pos):
        out.append("king threatened")
    return out


def king_threatened(pos: "Position") -> bool:
    """Whether an attackers' move (played now, whoever is to move) would take the king.

    Tries every attacker move that ends beside the king and takes it back; the
    position is unchanged afterwards (the side to move included: on the defenders'
    turn the move is handed over with :meth:`Position.pass_turn` and back)."""
    k = pos.k
    if k < 0:
        return False
    near = pos.t.g.near[k]  # every way of taking the king ends beside him
    handed_over = pos.side != ATTACKERS
    if handed_over:
        pos.pass_turn()
    try:
        for frm, kind, found in move_targets(pos, ATTACKERS):
            for to in iter_bits(found & near):
                _caps, reason = pos.step(frm, to, kind)
                pos.unmake()
                if reason:
                    return True
    finally:
        if handed_over:
            pos.pass_turn()
    return False


__all__ = ["announcements", "initial_outcome", "judge", "king_threatened", "no_moves_outcome"]
