"""tafl_rules: one engine for every reading of tawlbwrdd, tablut and their relatives.

Pure Python, the same code in CPython (3.11+) and in Pyodide.

Modules, each importing only those listed before it:

- :mod:`~tafl_rules.errors` (the error types), :mod:`~tafl_rules.squares` (square
  names and board geometry), :mod:`~tafl_rules.position` (OTN position records),
  :mod:`~tafl_rules.rules` (the :class:`Rules` record), :mod:`~tafl_rules.outcome`
  (how a game ends), :mod:`~tafl_rules.catalogue` (every variant and its sources);
- :mod:`~tafl_rules.engine` (the position as ints: moves, captures, endings);
- :mod:`~tafl_rules.game` (:class:`Game`, :class:`Move`: the public face of the engine);
- :mod:`~tafl_rules.otn` (OpenTafl notation), :mod:`~tafl_rules.svg` (pictures),
  :mod:`~tafl_rules.ai` (the computer opponent);
- :mod:`~tafl_rules.webapi` (the browser worker's requests) and
  :mod:`~tafl_rules.balance` (the self-play lab).

>>> import tafl_rules
>>> game = tafl_rules.Game("brandubh")
>>> game.play("d7-e7").to_square
'e7'
"""

from __future__ import annotations

__version__ = "0.1.0"

from . import ai, otn, svg
from .catalogue import Variant, variant, variants
from .errors import IllegalMove, NotationError, RulesError
from .game import Game, Move
from .otn import game_from_otn, game_to_otn, parse_rules, rules_to_otn
from .outcome import Outcome, Termination
from .rules import Rules

__all__ = [
    "Game", "IllegalMove", "Move", "NotationError", "Outcome", "Rules", "RulesError", "Termination", "Variant",
    "__version__", "ai", "game_from_otn", "game_to_otn", "otn", "parse_rules", "rules_to_otn", "svg", "variant",
    "variants",
]
