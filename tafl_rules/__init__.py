"""tafl_rules: one engine for every reading of tawlbwrdd, tablut and their relatives.

Pure Python, the same code in CPython (3.11+) and in Pyodide.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import IllegalMove, NotationError, RulesError
from .rules import Rules
from .game import Game, Move, Outcome  # engine

__all__ = ["IllegalMove", "NotationError", "Rules", "RulesError", "__version__"]
__all__ += ["Game", "Move", "Outcome"]  # engine
from .catalogue import Variant, variant, variants  # catalogue
__all__ += ["Variant", "variant", "variants"]  # catalogue
from . import otn, svg  # notation
from .otn import game_from_otn, game_to_otn, parse_rules, rules_to_otn  # notation
__all__ += ["otn", "svg", "game_from_otn", "game_to_otn", "parse_rules", "rules_to_otn"]  # notation
from . import ai  # ai
__all__ += ["ai"]  # ai
