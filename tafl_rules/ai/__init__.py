"""The AI opponent: :func:`choose_move` and :func:`analyse` at levels 1-6 (:data:`LEVELS`).

:mod:`~tafl_rules.ai.search` holds the alpha-beta search (on the engine's
:class:`~tafl_rules.engine.state.Position`), :mod:`~tafl_rules.ai.evaluate` the
static evaluation it scores positions with.

>>> from tafl_rules import Game
>>> game = Game("brandubh")
>>> str(choose_move(game, level=1, seed=0)) in {str(m) for m in game.legal_moves()}
True
"""

from __future__ import annotations

from .search import DEFAULT_LEVEL, LEVELS, RETIRED_LEVELS, WIN, Level, SearchResult, analyse, choose_move, level_spec

__all__ = ["DEFAULT_LEVEL", "LEVELS", "RETIRED_LEVELS", "WIN", "Level", "SearchResult", "analyse", "choose_move",
           "level_spec"]
