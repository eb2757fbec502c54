"""How a game ends: :class:`Outcome` and the set of ending kinds, :class:`Termination`.

This is the one place the kinds are listed. Each is a string enum, so
``outcome.kind == "escape"`` holds and the kind is written to JSON as its name.

>>> Termination("king-captured") is Termination.KING_CAPTURED
True
>>> Outcome("defenders", "king reached f11", Termination.ESCAPE).kind == "escape"
True
"""

from __future__ import annotations

import enum
from typing import NamedTuple


class Termination(enum.StrEnum):
    """Why a game ended (``Outcome.kind``)."""

    KING_CAPTURED = "king-captured"
    """The attackers took the king (by the capture rule in force, or ap Ifan's "watch your king")."""
    ESCAPE = "escape"
    """The king reached an escape square (the edge or a corner, as the rules say)."""
    TUICHI = "tuichi"
    """With ``tuichi = "win"``: the king had open roads to two escape squares at once."""
    EDGE_FORT = "edge-fort"
    """The king stands on the edge, able to move, in a fort the attackers cannot break."""
    ENCIRCLEMENT = "encirclement"
    """The attackers shut every defender in an unbroken ring."""
    REPETITION = "repetition"
    """A position occurred ``repetition_count`` times (a draw or a loss, as the rules say)."""
    NO_MOVES = "no-moves"
    """The side to move had no legal move (a loss or a draw, as the rules say)."""
    PLY_LIMIT = "ply-limit"
    """The rules' ``ply_limit`` was reached: a draw."""


class Outcome(NamedTuple):
    """How a game ended: ``winner`` is ``"attackers"``, ``"defenders"`` or ``None`` (a draw),
    ``reason`` says what happened in words, ``kind`` is a :class:`Termination`."""

    winner: str | None
    reason: str
    kind: Termination


__all__ = ["Outcome", "Termination"]
