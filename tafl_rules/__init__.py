"""tafl_rules: one engine for every reading of tawlbwrdd, tablut and their relatives.

Pure Python, the same code in CPython (3.11+) and in Pyodide.

Modules, in layers: each imports only from the layers listed before its own (a test
walks the imports and holds the package to this list):

- :mod:`~tafl_rules.messages` (the words a board shows, in the reader's language);
- :mod:`~tafl_rules.errors` (the error types, whose words are messages), :mod:`~tafl_rules.pieces` (piece
  kinds and sides), :mod:`~tafl_rules.outcome` (how a game ends), :mod:`~tafl_rules._version`,
  :mod:`~tafl_rules._workers` (the lab's worker processes);
- :mod:`~tafl_rules.squares` (square names and board geometry),
  :mod:`~tafl_rules.position` (OTN position records);
- :mod:`~tafl_rules.modes` (every mode of every rule point, each in one place);
- :mod:`~tafl_rules.rules` (the :class:`Rules` record);
- :mod:`~tafl_rules.catalogue` (every variant and its sources),
  :mod:`~tafl_rules.howto` (the "how to play" box);
- :mod:`~tafl_rules.engine` (the position as ints: moves, captures, endings);
- :mod:`~tafl_rules.game` (:class:`Game`, :class:`Move`: the public face of the engine);
- :mod:`~tafl_rules.otn` (OpenTafl notation), :mod:`~tafl_rules.svg` (pictures),
  :mod:`~tafl_rules.ai` (the computer opponent);
- :mod:`~tafl_rules.webapi` (the browser worker's requests),
  :mod:`~tafl_rules.balance` (the self-play lab);
- :mod:`~tafl_rules.__main__` (the command line).

``import tafl_rules`` loads the layers up to :mod:`~tafl_rules.game`; ``ai``, ``otn`` and
``svg`` (and the names taken from ``otn``) are loaded when first used.

>>> import tafl_rules
>>> game = tafl_rules.Game("brandubh")
>>> game.play("d7-e7").to_square
'e7'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .catalogue import Variant, variant, variants
from .errors import IllegalMove, NotationError, PositionError, RulesError
from .game import Game, Move
from .outcome import Outcome, Termination
from .rules import Rules

if TYPE_CHECKING:  # pragma: no cover - loaded on first use (see __getattr__)
    from . import ai, otn, svg
    from .otn import game_from_otn, game_to_otn, parse_rules, rules_to_otn

#: Submodules loaded when first used, and the names taken from one of them.
_LAZY_MODULES = ("ai", "otn", "svg")
_LAZY_NAMES = {"game_from_otn": "otn", "game_to_otn": "otn", "parse_rules": "otn", "rules_to_otn": "otn"}


def __getattr__(name: str) -> Any:
    if name in _LAZY_MODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY_NAMES:
        return getattr(importlib.import_module(f".{_LAZY_NAMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "Game", "IllegalMove", "Move", "NotationError", "Outcome", "PositionError", "Rules", "RulesError", "Termination",
    "Variant",
    "__version__", "ai", "game_from_otn", "game_to_otn", "otn", "parse_rules", "rules_to_otn", "svg", "variant",
    "variants",
]
