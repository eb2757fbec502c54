"""The rule points in a reader's words: their names, their values in a sentence or a few words.

The words of each rule mode are the mode's own (``short`` and ``sentence``, :mod:`tafl_rules.modes`);
this module words the rest (sizes, speeds, special squares) and names the rule points and families.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from tafl_rules.catalogue import Variant
from tafl_rules.modes import POINTS
from tafl_rules.rules import Rules

#: Each rule point as a reader names it (the rows of the rule tables and the matrix).
RULE_NAMES = {
    "size": "Board size",
    "start": "Pieces at the start",
    "first": "Who moves first",
    "king_speed": "How far the king moves",
    "man_speed": "How far the other pieces move",
    "throne": "Is the centre square special?",
    "throne_stop": "Who may stop on the empty throne",
    "throne_pass": "Who may pass over the empty throne",
    "king_reenter_throne": "May the king go back to the throne?",
    "corners": "Are the corners special?",
    "corner_stop": "Who may stop on a corner",
    "camps": "Are the attackers' starting squares special (camps)?",
    "camp_stop": "Who may stop on a camp square",
    "camp_pass": "Who may pass over a camp square",
    "shieldwall": "Can a row on the edge be taken at once?",
    "throne_hostile_to_attackers": "The throne takes the place of an enemy, against attackers",
    "throne_hostile_to_defenders": "The throne takes the place of an enemy, against defenders",
    "corners_hostile_to_attackers": "A corner takes the place of an enemy, against attackers",
    "corners_hostile_to_defenders": "A corner takes the place of an enemy, against defenders",
    "camps_hostile_to_attackers": "A camp takes the place of an enemy, against attackers",
    "camps_hostile_to_defenders": "A camp takes the place of an enemy, against defenders",
    "king_armed": "Does the king take part in captures?",
    "sandwich": "May a piece move in between two enemies?",
    "king_capture": "The king is taken by…",
    "king_capture_against": "Squares that count as an attacker around the king",
    "watch_king": "Robert ap Ifan's warning to the king",
    "escape": "The king escapes by reaching…",
    "tuichi": "Two open roads at once (tuichi)",
    "edge_fort": "Does an unbreakable fort on the edge win?",
    "encirclement": "Does surrounding every defender win?",
    "no_moves": "A side that cannot move",
    "repetition": "Repeated positions",
    "repetition_count": "How many repetitions count",
    "ply_limit": "Limit on the length of a game",
}
#: The catalogue's families as a reader names them (headings of the variant list).
FAMILY_NAMES = {"tawlbwrdd": "Tawlbwrdd", "tablut": "Tablut", "hnefatafl": "Hnefatafl", "brandubh": "Brandubh",
                "alea-evangelii": "Alea Evangelii", "tafl": "Other tafl rule sets"}
#: Squares a game may lack, and the rule points that only matter if it has them.
SPECIAL_SQUARES = {
    "throne": ("throne_stop", "throne_pass", "king_reenter_throne", "throne_hostile_to_attackers",
               "throne_hostile_to_defenders"),
    "corners": ("corner_stop", "corners_hostile_to_attackers", "corners_hostile_to_defenders"),
    "camps": ("camp_stop", "camp_pass", "camps_hostile_to_attackers", "camps_hostile_to_defenders"),
}
#: What the words of a rule point about a square the game lacks end with.
NO_EFFECT = "(No effect: there is no such special square.)"
#: The rule points in the groups the rule tables and the matrix show them in.
GROUPS = (
    ("Board and start", ("size", "start", "first")),
    ("Movement", ("king_speed", "man_speed", "throne", "throne_stop", "throne_pass", "king_reenter_throne",
                  "corners", "corner_stop", "camps", "camp_stop", "camp_pass")),
    ("Capture", ("shieldwall", "throne_hostile_to_attackers", "throne_hostile_to_defenders",
                 "corners_hostile_to_attackers", "corners_hostile_to_defenders", "camps_hostile_to_attackers",
                 "camps_hostile_to_defenders", "king_armed", "sandwich")),
    ("Capturing the king", ("king_capture", "king_capture_against", "watch_king")),
    ("End of the game", ("escape", "tuichi", "edge_fort", "encirclement", "no_moves", "repetition",
                         "repetition_count", "ply_limit")),
)


def size_label(size: int) -> str:
    """A board size as the pages write it.

    >>> size_label(11)
    '11×11'
    """
    return f"{size}×{size}"


def short_name(v: Variant) -> str:
    """A variant's name without its parenthesis, for column heads."""
    return re.sub(r"\s*\([^)]*\)$", "", v.name)


def _pieces(value: Iterable[str]) -> str:
    order = ("king", "defender", "attacker")
    names = [f"{p}s" if p != "king" else "the king" for p in order if p in set(value)]
    if not names:
        return "no piece"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _mode_words(field: str, value: object, words: str) -> str | None:
    """The mode's own words (``"short"`` or ``"sentence"``, tafl_rules.modes) for a rule point's
    value; None where the field is no rule point or the value no mode of it."""
    point = POINTS.get(field)
    if point is None or value not in point:
        return None
    said: str = getattr(point[value], words)
    return said


def plain(field: str, value: object, rules: Rules) -> str:
    """One rule point in plain words.

    >>> from tafl_rules import catalogue
    >>> rules = catalogue.variant("brandubh").rules
    >>> plain("king_speed", rules.king_speed, rules), plain("throne_stop", rules.throne_stop, rules)
    ('The king moves any distance in a straight line, like a rook.', 'The king may stop on the empty throne.')
    """
    side = {"attackers": "The attackers", "defenders": "The defenders"}
    if field == "size":
        return f"A board of {value} by {value} squares."
    if field == "start":
        counts = Counter(ch for ch in str(value) if ch in "tTK")
        return (f"{counts['t']} attackers, {counts['T']} defenders and {'the king' if counts['K'] else 'no king'}"
                " as in the figure.")
    if field == "first":
        return f"{side[str(value)]} move first."
    if field in ("king_speed", "man_speed"):
        who = "The king" if field == "king_speed" else "Every other piece"
        return f"{who} moves any distance in a straight line, like a rook." if value == 0 else \
            f"{who} moves at most {value} square{'s' if value != 1 else ''} in a straight line."
    if field == "throne":
        return "The centre square is a special square (throne, konakis)." if value else \
            "The centre square is an ordinary square."
    if field in ("throne_stop", "corner_stop", "camp_stop", "throne_pass", "camp_pass"):
        place = {"throne": "the empty throne", "corner": "a corner", "camp": "a camp square"}[field.split("_")[0]]
        verb = "stop on" if field.endswith("stop") else "pass over"
        active = {"throne": rules.throne, "corner": rules.corners, "camp": rules.camps}[field.split("_")[0]]
        text = f"{_pieces(_strings(value)).capitalize()} may {verb} {place}."
        return text if active else f"{text} {NO_EFFECT}"
    if field == "king_reenter_throne":
        return "The king may return to the throne." if value else "Once he has left it, the king may not stop on the throne again."
    if field == "corners":
        return "The four corners are special squares." if value else "The corners are ordinary squares."
    if field == "camps":
        return "The attackers' starting squares are camps." if value else "There are no camps."
    m = re.fullmatch(r"(throne|corners|camps)_hostile_to_(attackers|defenders)", field)
    if m:
        place = {"throne": "The throne", "corners": "The corners", "camps": "The camps"}[m.group(1)]
        return f"{place} act{'s' if m.group(1) == 'throne' else ''} as an enemy piece against {m.group(2)}: {_mode_words(field, value, 'short')}."
    sentence = _mode_words(field, value, "sentence")
    if sentence is not None:
        return sentence
    if field == "king_capture_against":
        if not value:
            return "No special square stands in for an attacker around the king."
        squares = sorted(_strings(value))
        names = squares[0] if len(squares) == 1 else ", ".join(squares[:-1]) + " and " + squares[-1]
        return f"When the king is enclosed, the {names} count{'s' if len(squares) == 1 else ''} as a side."
    if field == "repetition_count":
        return f"Repetition means {value} occurrences of the same position."
    if field == "ply_limit":
        return "No move limit." if value == 0 else f"Drawn after {value} moves (plies)."
    return f"{field} = {value!r}"


def _strings(value: object) -> list[str]:
    """A rule value that is a set of names (pieces, squares), as a list."""
    if not isinstance(value, (frozenset, set, list, tuple)):
        raise TypeError(f"a set of names, not {value!r}")
    return [str(item) for item in value]


#: Values a reader would not follow as the rules package spells them, in a few plain words (the
#: matrix); each rule mode's are its own (``short``, tafl_rules.modes).
SHORT_WORDS = {("first", "attackers"): "attackers", ("first", "defenders"): "king's side"}
_PIECE_WORDS = {"attacker": "attackers", "defender": "defenders", "king": "king",
                "throne": "throne", "corner": "corners", "camp": "camps", "edge": "edge"}


def short_value(field: str, value: object) -> str:
    """A rule value in a few plain words, for the matrix.

    >>> short_value("start", "3t/1T1/3"), short_value("corner_stop", frozenset({"king"})), short_value("size", 7)
    ('1+1+0', 'king', '7×7')
    """
    if field == "start":
        counts = Counter(ch for ch in str(value) if ch in "tTK")
        return f"{counts['t']}+{counts['T']}+{counts['K']}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, frozenset):
        return ", ".join(_PIECE_WORDS.get(v, v) for v in sorted(_strings(value))) or "none"
    if field in ("king_speed", "man_speed") and value == 0:
        return "any distance"
    if field == "ply_limit" and value == 0:
        return "none"
    if field == "size" and isinstance(value, int):
        return size_label(value)
    return _mode_words(field, value, "short") or SHORT_WORDS.get((field, str(value)), str(value))
