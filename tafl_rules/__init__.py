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
