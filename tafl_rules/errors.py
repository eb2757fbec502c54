"""Errors raised by tafl_rules. Each names what was wrong, never where in the engine.

All are :class:`ValueError` subclasses, so ``except ValueError`` catches every refusal
of bad input; the three kinds say *what* was wrong:

* :class:`RulesError`: an impossible rules record (``field`` names the rule point);
* :class:`NotationError`: malformed text (``offset`` points at the first bad character),
  including a move that is not written like ``d1-d4``;
* :class:`IllegalMove`: a well-formed move that the rules do not allow here;
* :class:`PositionError`: a well-formed start position that cannot occur under the rules
  (``problem`` names the kind: no king, a piece where it may not stand...).

This module imports only :mod:`tafl_rules.messages` (which imports nothing from the package):
every other module may import it. Each error's text is a message (``str(error)`` the English
as ever), so that the web API can say it in the language a request asks for.

>>> from tafl_rules import Game, IllegalMove, NotationError
>>> game = Game("brandubh")
>>> try:
...     game.play("d7-d7x")
... except NotationError as error:
...     print(error.offset, error.message)
0 'd7-d7x' is not a move (expected a form like d1-d4 or d1-d4xd5)
>>> try:
...     game.play("c1-c2")
... except IllegalMove as error:
...     print(error)
there is no piece on c1
"""

from __future__ import annotations

from .messages import message as _message, verbatim as _verbatim


class RulesError(ValueError):
    """A rules record (or a toggle, or a rules file) is impossible; the message names the field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(_message("{field}: {problem}", field=_verbatim(field), problem=message))
        self.field = field
        self.message = message


class NotationError(ValueError):
    """Malformed text (OTN, a position record, a move, a square name).

    ``message`` says what is wrong, ``text`` is the whole text read and ``offset`` the
    index of the first bad character in it; ``str(error)`` is the message followed by
    ``(at offset N)``.
    """

    def __init__(self, message: str, text: str = "", offset: int = 0) -> None:
        super().__init__(_message("{problem} (at offset {offset})", problem=message, offset=offset))
        self.message = message
        self.text = text
        self.offset = offset


class IllegalMove(ValueError):
    """A move that the rules do not allow; the message says why (``"e5 is occupied"``).

    The game is left unchanged. (A move that is not even written like a move raises
    :class:`NotationError` instead.)
    """


class PositionError(ValueError):
    """A start position that no game under these rules can reach: the message names what is
    wrong, ``problem`` its kind (``"no-king"``, ``"no-attackers"``, ``"forbidden-square"``,
    ``"king-escaped"``) and ``square`` the square at fault, if one is."""

    def __init__(self, problem: str, message: str, square: str | None = None) -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message
        self.square = square


__all__ = ["IllegalMove", "NotationError", "PositionError", "RulesError"]
