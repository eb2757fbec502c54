"""The rules record: every point on which tafl reconstructions differ, as data.

A :class:`Rules` value is immutable and validated when it is made. Every field
has an explicit value, including the points a source is silent about; the
catalogue records, for each field of each variant, where the value comes from.

Pieces are named ``"attacker"``, ``"defender"`` and ``"king"``; sides are
``"attackers"`` and ``"defenders"``.

>>> from tafl_rules import Rules, RulesError
>>> rules = Rules(size=7, start="/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", corners=True, escape="corner")
>>> rules.escape, rules.replace(first="defenders").first
('corner', 'defenders')
>>> try:
...     Rules(size=8)
... except RulesError as error:
...     print(error.field, "-", error.message)
size - the board must have an odd side, got 8
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Mapping, Sequence

from .errors import NotationError, PositionError, RulesError
from .messages import message, verbatim
from .modes import (POINTS, CornerHostilityName, EscapeName, HostilityName, KingArmedName, KingCaptureName,
                    NoMovesName, RepetitionName, SandwichName, ShieldwallName, SideName, TuichiName)
from .pieces import KIND_NAMES, SIDE_NAMES
from .position import Placement, parse_position
from .squares import geometry

PIECES = KIND_NAMES
SIDES = SIDE_NAMES

#: The enumerated fields, in the order the site lists them (each but ``first`` is a rule
#: point of :mod:`tafl_rules.modes`).
_CHOICE_FIELDS = ("first", "throne_hostile_to_attackers", "throne_hostile_to_defenders",
                  "corners_hostile_to_attackers", "corners_hostile_to_defenders", "camps_hostile_to_attackers",
                  "camps_hostile_to_defenders", "shieldwall", "king_armed", "sandwich", "king_capture", "escape",
                  "tuichi", "no_moves", "repetition")


class _Choices(Mapping[str, tuple[str, ...]]):
    """Field -> its allowed values, read from the rule points as they are now (a mode added
    at run time is allowed at once)."""

    def __getitem__(self, field: str) -> tuple[str, ...]:
        if field == "first":
            return SIDES
        if field not in _CHOICE_FIELDS:
            raise KeyError(field)
        return POINTS[field].names()

    def __iter__(self) -> Iterator[str]:
        return iter(_CHOICE_FIELDS)

    def __len__(self) -> int:
        return len(_CHOICE_FIELDS)


#: Allowed values of every enumerated field, in the order the site lists them.
CHOICES: Mapping[str, tuple[str, ...]] = _Choices()

#: Fields whose value is a set of piece kinds.
PIECE_SETS = ("throne_stop", "throne_pass", "corner_stop", "camp_stop", "camp_pass")

#: Special squares that can make up the king's surround (``king_capture_against``).
KING_ANVILS = ("throne", "camp", "edge", "corner")

@dataclasses.dataclass(frozen=True)
class Rules:
    """One complete set of rules.

    Field docstrings state the rule each value encodes. Piece-set fields are
    frozensets of ``"attacker"``, ``"defender"``, ``"king"``.
    """

    # --- board and start -------------------------------------------------
    size: int = 11
    """Board side, odd, 7 to 19."""
    start: str = "/3ttttt3/5t5/5T5/t4T4t/t4T4t/ttTTTKTTTtt/t4T4t/t4T4t/5T5/5t5/3ttttt3/"
    """Start position as an OTN position record (``/``-separated ranks, rank 1 first,
    ``t`` attacker, ``T`` defender, ``K`` king, digits for runs of empty squares)."""
    first: SideName = "attackers"
    """Which side makes the first move."""

    # --- movement -------------------------------------------------------
    king_speed: int = 0
    """Most squares the king may move in one turn; 0 means any distance (like a rook)."""
    man_speed: int = 0
    """Most squares any other piece may move in one turn; 0 means any distance."""
    throne: bool = True
    """The centre square is a special square (the throne, konakis). If false it is an
    ordinary square and every ``throne_*`` field is ignored."""
    throne_stop: frozenset[str] = frozenset({"king"})
    """Pieces that may stop on the empty throne."""
    throne_pass: frozenset[str] = frozenset({"king", "defender", "attacker"})
    """Pieces that may pass over the empty throne."""
    king_reenter_throne: bool = True
    """Whether the king, once he has left the throne, may stop on it again."""
    corners: bool = False
    """The four corner squares are special squares."""
    corner_stop: frozenset[str] = frozenset({"king"})
    """Pieces that may stop on a corner (when ``corners``)."""
    camps: bool = False
    """The attackers' starting squares are camps (Granquist's red squares)."""
    camp_stop: frozenset[str] = frozenset({"attacker"})
    """Pieces that may stop on a camp square when coming from outside the camps. An
    attacker still in its camp may always move within it."""
    camp_pass: frozenset[str] = frozenset({"attacker", "defender", "king"})
    """Pieces that may pass over a camp square."""

    # --- capture --------------------------------------------------------
    shieldwall: ShieldwallName = "none"
    """``"none"``: a row of pieces cannot be captured at once; ``"copenhagen"``: a row
    along the edge bracketed at both ends and fronted square for square is taken."""
    throne_hostile_to_attackers: HostilityName = "never"
    """When the throne acts as an enemy piece for capturing attackers. Throughout the
    hostility fields, ``"always"`` means whoever stands on the square (Smith's law 10:
    a man is taken between his own king on the castle and an enemy); ``"empty"`` only
    while nobody does."""
    throne_hostile_to_defenders: HostilityName = "never"
    """When the throne acts as an enemy piece for capturing defenders."""
    corners_hostile_to_attackers: CornerHostilityName = "never"
    corners_hostile_to_defenders: CornerHostilityName = "never"
    camps_hostile_to_attackers: HostilityName = "never"
    camps_hostile_to_defenders: HostilityName = "never"
    king_armed: KingArmedName = "yes"
    """Whether the king takes part in captures: both ways, not at all, only as the
    static partner (anvil) or only as the moving piece (hammer)."""
    sandwich: SandwichName = "safe"
    """A piece moving between two enemies: is safe; may do so only if the move
    captures; may never do so. Judged on the board before the move's own captures;
    for the king it applies only where two attackers could take him."""

    # --- king capture ---------------------------------------------------
    king_capture: KingCaptureName = "two"
    """``"two"``: like any man; ``"four"``: enclosed on four sides (squares listed in
    ``king_capture_against`` count as a side); ``"linnaeus"``: four on the throne,
    three beside it with the throne as the fourth, two elsewhere; ``"immobile"``:
    taken when an attacker's move beside him leaves him unable to move at all; ``"none"``: never taken (the attackers can
    only win by leaving the defenders without a move)."""
    king_capture_against: frozenset[str] = frozenset()
    """Squares that stand in for an attacker when the king is enclosed (``"four"``):
    any of ``"throne"``, ``"camp"``, ``"edge"`` (the board's edge), ``"corner"``."""
    watch_king: bool = False
    """ap Ifan's warning: a king whose own move put him between two attackers, and
    who after the attackers' reply cannot move, is taken."""

    # --- end of the game -----------------------------------------------
    escape: EscapeName = "edge"
    """Where the king escapes to win."""
    tuichi: TuichiName = "announce"
    """Two open escape routes at once: only announced, or an immediate win."""
    edge_fort: bool = False
    """Copenhagen: the defenders win with the king on the edge, able to move, in a fort
    the attackers cannot break."""
    encirclement: bool = False
    """Copenhagen: the attackers win by enclosing every defender in an unbroken ring."""
    no_moves: NoMovesName = "loss"
    """A side with no legal move on its turn loses, or the game is drawn."""
    repetition: RepetitionName = "ignore"
    """What the third occurrence of a position does: nothing, a draw, a loss for the
    side that made it, or a loss for the defenders whoever made it."""
    repetition_count: int = 3
    """How many occurrences of the same position (same side to move) count as repetition."""
    ply_limit: int = 0
    """Draw after this many plies; 0 means no limit."""

    def __post_init__(self) -> None:
        for name in PIECE_SETS:
            object.__setattr__(self, name, _name_set(name, getattr(self, name), PIECES, "piece", "pieces"))
        object.__setattr__(self, "king_capture_against",
                           _name_set("king_capture_against", self.king_capture_against, KING_ANVILS,
                                     "square kind", "squares"))

        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise RulesError(name, message("{value} is not one of {choices}", value=_shown(value),
                                                choices=verbatim(", ".join(allowed))))
        for name in ("throne", "king_reenter_throne", "corners", "camps", "watch_king", "edge_fort", "encirclement"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(name, message("expected true or false, got {value}", value=_shown(getattr(self, name))))
        for name, low, high in (("size", 7, 19), ("king_speed", 0, 18), ("man_speed", 0, 18),
                                ("repetition_count", 2, 10), ("ply_limit", 0, 100_000)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise RulesError(name, message("expected a whole number from {low} to {high}, got {value}", low=low, high=high,
                                                value=_shown(value)))
        if self.size % 2 == 0:
            raise RulesError("size", message("the board must have an odd side, got {size}", size=self.size))
        self._check_start()
        self._check_combinations()

    def _check_start(self) -> None:
        if not isinstance(self.start, str):
            raise RulesError("start", message("expected an OTN position record (text), got {value}", value=_shown(self.start)))
        try:
            parse_position(self.start, self.size)
        except NotationError as error:
            raise RulesError("start", message("{problem} (at offset {offset})", problem=error.message,
                                              offset=error.offset)) from None

    def check_position(self, placement: Placement) -> None:
        """Raise :class:`~tafl_rules.errors.PositionError` if no game under these rules can
        start from ``placement`` (a :class:`~tafl_rules.game.Game` asks this of its start, its
        own or the rules'; a rules record itself may hold any well-formed start, to be drawn
        as a diagram): there is no king, the attackers have no piece, a piece stands on the
        throne, a corner or a camp where it may not stop (unless a piece of its kind starts
        there under these rules and may never have moved; an attacker on a camp may be in its
        own camp), or the king already stands on an escape square."""
        g = geometry(self.size)
        names = g.names
        attackers, defenders, king = placement
        if king < 0:
            raise PositionError("no-king", message("there is no king"))
        if not attackers:
            raise PositionError("no-attackers", message("the attackers have no piece"))
        start = parse_position(self.start, self.size)
        camps = start.attackers if self.camps else 0
        special = [("throne", 1 << g.center if self.throne else 0, self.throne_stop),
                   ("corner", g.corners if self.corners else 0, self.corner_stop),
                   ("camp", camps, self.camp_stop | {"attacker"})]  # an attacker may move within its camp
        for kind, squares, at_start in (("attacker", attackers, start.attackers),
                                        ("defender", defenders, start.defenders),
                                        ("king", 1 << king, 1 << start.king if start.king >= 0 else 0)):
            for place, mask, may_stop in special:
                at = squares & mask & ~at_start  # a piece on its own start square may never have moved
                if at and kind not in may_stop:
                    square = names[at.bit_length() - 1]
                    allowed = [_PLURAL[p] for p in PIECES if p in may_stop]
                    raise PositionError("forbidden-square", message(
                        "{piece} stands on the {place} {square}, where {who} may stop", piece=_A[kind],
                        place=message(place), square=square,
                        who=_only(allowed)), square)
        if POINTS["escape"][self.escape].squares(g, camps) >> king & 1:
            raise PositionError("king-escaped", message("the king already stands on an escape square ({square}): "
                                                        "the game would be over before its first move",
                                                        square=names[king]), names[king])

    def _check_combinations(self) -> None:
        problem = POINTS["escape"][self.escape].check(self)
        if problem:
            raise RulesError(*problem)
        if "camp" in self.king_capture_against and not self.camps:
            raise RulesError("king_capture_against", message("'camp' needs camps = true"))
        if "corner" in self.king_capture_against and not self.corners:
            raise RulesError("king_capture_against", message("'corner' needs corners = true"))
        if "throne" in self.king_capture_against and not self.throne:
            raise RulesError("king_capture_against", message("'throne' needs throne = true"))
        # what a mode needs of the other rule points (the escape's needs came first: the
        # king_capture_against messages above assume the squares exist)
        for field, point in POINTS.items():
            if field != "escape":
                problem = point[getattr(self, field)].check(self)
                if problem:
                    raise RulesError(*problem)

    # --- conversions ----------------------------------------------------

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some fields changed (validated again)."""
        unknown = sorted(set(changes) - set(FIELDS))
        if unknown:
            raise RulesError(unknown[0], message("no such rule; rules are {fields}", fields=verbatim(", ".join(FIELDS))))
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (piece sets as sorted lists), suitable for TOML or JSON."""
        out: dict[str, Any] = {}
        for name in FIELDS:
            value = getattr(self, name)
            out[name] = sorted(value) if isinstance(value, frozenset) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Rules":
        """Rules from plain data; every unknown key is refused by name."""
        if not isinstance(data, Mapping):
            raise RulesError("rules", message("expected a table of rule points, got {value}", value=_shown(data)))
        if not all(isinstance(key, str) for key in data):
            raise RulesError("rules", message("rule names must be text"))
        unknown = sorted(set(data) - set(FIELDS))
        if unknown:
            raise RulesError(unknown[0], message("no such rule; rules are {fields}", fields=verbatim(", ".join(FIELDS))))
        return cls(**dict(data))


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))
_A = {"attacker": message("an attacker"), "defender": message("a defender"), "king": message("the king")}
_PLURAL = {"attacker": message("attackers"), "defender": message("defenders"), "king": message("the king")}


def _only(pieces: Sequence[str]) -> str:
    """``no piece``, ``only the king``, ``only attackers and the king``... (as one message)."""
    if len(pieces) == 3:
        return message("only {first} and {second} and {third}", first=pieces[0], second=pieces[1], third=pieces[2])
    if len(pieces) == 2:
        return message("only {first} and {second}", first=pieces[0], second=pieces[1])
    return message("only {pieces}", pieces=pieces[0]) if pieces else message("no piece")


def _shown(value: object) -> str:
    """``repr(value)``, cut short if long (messages never echo a megabyte back)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _name_set(field: str, value: object, allowed: tuple[str, ...], noun: str, nouns: str) -> frozenset[str]:
    """A set-of-names field as a frozenset, or RulesError naming the field."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (set, frozenset, list, tuple)):
        raise RulesError(field, message("expected a list of pieces, got {value}", value=_shown(value)) if nouns == "pieces"
                         else message("expected a list of squares, got {value}", value=_shown(value)))
    names = list(value)
    odd = [name for name in names if not isinstance(name, str)]
    unknown = odd or sorted(set(names) - set(allowed))
    if unknown:
        shown, choices = _shown(unknown[0]), verbatim(", ".join(allowed))
        raise RulesError(field, message("unknown piece {value}; pieces are {choices}", value=shown, choices=choices)
                         if noun == "piece" else
                         message("unknown square kind {value}; choose from {choices}", value=shown, choices=choices))
    return frozenset(names)


__all__ = ["CHOICES", "FIELDS", "KING_ANVILS", "PIECES", "PIECE_SETS", "Rules", "SIDES"]
