"""Errors raised by tafl_rules. Each names what was wrong, never where in the engine."""

from __future__ import annotations

from .rules import RulesError


class IllegalMove(ValueError):
    """A move that the rules do not allow; the message says why (``"e5 is occupied"``).

    The game is left unchanged.
    """


class NotationError(ValueError):
    """Malformed OTN text; ``offset`` is the index of the first bad character."""

    def __init__(self, message: str, text: str = "", offset: int = 0) -> None:
        super().__init__(f"{message} (at offset {offset})")
        self.text = text
        self.offset = offset


__all__ = ["IllegalMove", "NotationError", "RulesError"]
