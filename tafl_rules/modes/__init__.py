"""Rule modes: every way each rule point can be played, each in one place.

A rule point is a field of :class:`~tafl_rules.rules.Rules` on which the sources
differ (how the king is taken, where he escapes, when a special square acts as an
enemy, moving in between two enemies, shield walls, edge forts, encirclement, "watch
your king", two open roads, a side without moves, repetition). Each of its modes is
one object (a :class:`~tafl_rules.modes.base.Mode`) holding everything the project
says about it: how the engine decides it, how the AI estimates it where it needs to,
its OpenTafl notation, and its words for readers (the variant page's rule table, the
rule matrix, the "how to play" box). The engine, the AI, :mod:`tafl_rules.otn`,
:mod:`tafl_rules.howto` and the site read them from here.

:data:`POINTS` maps each field to its :class:`~tafl_rules.modes.base.RulePoint`. The
``Rules`` fields are typed with the names' ``Literal`` types below, so that ``mypy``
rejects a misspelt mode; a new mode is one new definition (and its name in the
``Literal``, which a test checks), plus its reading in the catalogue. A program may add
a mode of its own at run time with :meth:`~tafl_rules.modes.base.RulePoint.add`.

Two kinds of mode, on purpose: a mode that *decides* something (takes the king, finds the
escape squares, ends the game) is a subclass with its own methods (``_Two``, ``_EdgeEscape``);
a mode that differs from its siblings only in a few flags and words (``KingArmed``,
``Hostility``, ``Sandwich``, ``NoMoves``) is an instance of one class, configured by keyword,
because the code that reads it (the engine's tables, the capture test) is the same for all of
them. A new mode of the first kind is a new class; of the second, a new instance.

Layout: :mod:`~tafl_rules.modes.base` (:class:`Mode`, :class:`RulePoint`), then
:mod:`~tafl_rules.modes.king`, :mod:`~tafl_rules.modes.capture` and
:mod:`~tafl_rules.modes.endings`, each importing only ``base`` and the package's lower
layers (the engine and the AI are named for type checking only).

>>> KING_CAPTURE["linnaeus"].short
'4 on the throne, 3 beside it, else 2'
>>> [mode.value for mode in ESCAPE]
['edge', 'corner', 'edge-except-camps', 'none']
>>> POINTS["sandwich"]["forbidden"].refusal.format(square="d4")
'a piece may not move between two enemies (d4)'
"""

from __future__ import annotations

from typing import Any, Literal

from .base import Mode, Problem, RulePoint
from .capture import (HOSTILITY, KING_ARMED, SANDWICH, SHIELDWALL, CornerHostilityName, Hostility, HostilityName,
                      KingArmed, KingArmedName, Sandwich, SandwichName, Shieldwall, ShieldwallName)
from .endings import (EDGE_FORT, ENCIRCLEMENT, ESCAPE, NO_MOVES, REPETITION, TUICHI, Ending, Escape, EscapeName,
                      NoMoves, NoMovesName, Repetition, RepetitionName, TuichiName)
from .king import KING_CAPTURE, WATCH_KING, KingCapture, KingCaptureName, WatchKing

SideName = Literal["attackers", "defenders"]

#: Every rule point by its ``Rules`` field, in the order of the fields.
POINTS: dict[str, RulePoint[Any]] = {
    "shieldwall": SHIELDWALL, **HOSTILITY, "king_armed": KING_ARMED, "sandwich": SANDWICH,
    "king_capture": KING_CAPTURE, "watch_king": WATCH_KING, "escape": ESCAPE, "tuichi": TUICHI,
    "edge_fort": EDGE_FORT, "encirclement": ENCIRCLEMENT, "no_moves": NO_MOVES, "repetition": REPETITION,
}

#: The ``Literal`` type of each named (not true/false) rule point: the names mypy knows.
NAME_TYPES: dict[str, Any] = {
    "shieldwall": ShieldwallName, "throne_hostile_to_attackers": HostilityName,
    "throne_hostile_to_defenders": HostilityName, "corners_hostile_to_attackers": CornerHostilityName,
    "corners_hostile_to_defenders": CornerHostilityName, "camps_hostile_to_attackers": HostilityName,
    "camps_hostile_to_defenders": HostilityName, "king_armed": KingArmedName, "sandwich": SandwichName,
    "king_capture": KingCaptureName, "escape": EscapeName, "tuichi": TuichiName, "no_moves": NoMovesName,
    "repetition": RepetitionName,
}


def mode(field: str, value: object) -> Mode:
    """The mode object of ``value`` for the rule point ``field`` (KeyError if none)."""
    found: Mode = POINTS[field][value]
    return found


__all__ = ["CornerHostilityName", "EDGE_FORT", "ENCIRCLEMENT", "ESCAPE", "Ending", "Escape", "EscapeName",
           "HOSTILITY", "Hostility", "HostilityName", "KING_ARMED", "KING_CAPTURE", "KingArmed", "KingArmedName",
           "KingCapture", "KingCaptureName", "Mode", "NAME_TYPES", "NO_MOVES", "NoMoves", "NoMovesName", "POINTS",
           "Problem", "REPETITION", "Repetition", "RepetitionName", "RulePoint", "SANDWICH", "SHIELDWALL", "Sandwich",
           "SandwichName", "Shieldwall", "ShieldwallName", "SideName", "TUICHI", "TuichiName", "WATCH_KING",
           "WatchKing", "mode"]
