"""How men are taken: the shield wall (``Rules.shieldwall``), the king's part in captures
(``Rules.king_armed``), special squares standing in for an enemy (the ``*_hostile_to_*``
fields) and moving in between two enemies (``Rules.sandwich``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..pieces import ATTACKERS
from ..squares import edges_of
from .base import Mode, RulePoint

if TYPE_CHECKING:  # pragma: no cover - type names only
    from ..engine.tables import Tables

ShieldwallName = Literal["none", "copenhagen"]
KingArmedName = Literal["yes", "no", "anvil", "hammer"]
HostilityName = Literal["never", "empty", "always"]
CornerHostilityName = Literal["never", "always"]
SandwichName = Literal["safe", "unless-capturing", "forbidden"]

class Shieldwall(Mode):
    """Whether a row of men along the edge can be taken at once."""

    value: str
    otn: str = "n"
    """The OTN ``sw`` letter written for it."""
    otn_reads: tuple[str, ...] = ()
    takes_rows: bool = False
    """Whether a move can take a row of men at once."""

    def captures(self, t: "Tables", king: int, to: int, side: int, friends: int, victims: int, occ: int) -> int:
        """The men taken in rows when ``side``'s piece arrives on ``to``, an edge square (``friends``:
        the mover's pieces that close a capture; ``victims``: the other side's men)."""
        return 0


class _NoShieldwall(Shieldwall):
    value = "none"
    short = "no"
    sentence = "A row of pieces cannot be captured at once."
    otn_reads = ("n",)


class _CopenhagenShieldwall(Shieldwall):
    value = "copenhagen"
    short = "yes (shieldwall)"
    sentence = "A row of pieces along the edge can be taken at once (shieldwall)."
    howto = "A row along the edge can be taken at once (shieldwall)."
    otn = "s"
    otn_reads = ("s",)
    takes_rows = True

    def captures(self, t: "Tables", king: int, to: int, side: int, friends: int, victims: int, occ: int) -> int:
        """Copenhagen shield wall: a row of two or more enemy pieces along the board edge,
        each fronted (on the square inward from it) by a piece of the mover, and
        bracketed at both ends by pieces of the mover or by squares hostile to the row, is
        captured when the moving piece arrives as one of the brackets. A king in the row
        belongs to it but is not taken; the other pieces of the row are."""
        size = t.g.size
        members = victims
        if side == ATTACKERS and king >= 0 and king != to:
            members |= 1 << king
        anvils = friends | t.hostile(1 - side, occ)
        caps = 0
        for inward, step, pos in edges_of(to, size):
            for direction in (1, -1):
                p = pos + direction
                s = to + direction * step
                row = 0
                count = 0
                while 0 <= p < size and members >> s & 1 and friends >> (s + inward) & 1:
                    row |= 1 << s
                    count += 1
                    p += direction
                    s += direction * step
                if count >= 2 and 0 <= p < size and anvils >> s & 1:
                    caps |= row & victims
        return caps


SHIELDWALL: RulePoint[Shieldwall] = RulePoint("shieldwall", (_NoShieldwall(), _CopenhagenShieldwall()))


class KingArmed(Mode):
    """The king's part in capturing men: as the piece that waits (anvil), the piece that
    moves (hammer), both or neither."""

    def __init__(self, value: str, *, anvil: bool, hammer: bool, otn: str, short: str, sentence: str,
                 taking: str) -> None:
        self.value = value
        self.anvil = anvil
        self.hammer = hammer
        self.otn = otn
        """The OTN ``ka`` letter."""
        self.short = short
        self.sentence = sentence
        self.taking = taking
        """The "how to play" box's sentence on the king's part in taking."""


KING_ARMED: RulePoint[KingArmed] = RulePoint("king_armed", (
    KingArmed("yes", anvil=True, hammer=True, otn="y", short="yes", sentence="The king takes part in captures.",
              taking="The king helps take."),
    KingArmed("no", anvil=False, hammer=False, otn="n", short="no", sentence="The king takes no part in captures.",
              taking="The king takes no part in taking."),
    KingArmed("anvil", anvil=True, hammer=False, otn="a", short="only as the anvil",
              sentence="The king takes part in captures only as the static partner (anvil).",
              taking="The king helps take only as the piece that waits."),
    KingArmed("hammer", anvil=False, hammer=True, otn="h", short="only as the hammer",
              sentence="The king takes part in captures only as the moving piece (hammer).",
              taking="The king helps take only as the piece that moves."),
))


class Hostility(Mode):
    """When a special square (the throne, a corner, a camp) acts as an enemy of one side's
    men in a capture: never, only while empty, or whoever stands on it. In OTN its
    side's letter is in the ``*h`` key when ``when_occupied`` and in the ``cenhe`` key (the
    throne when empty) when ``when_empty``."""

    def __init__(self, value: str, *, when_empty: bool, when_occupied: bool, short: str) -> None:
        self.value = value
        self.when_empty = when_empty
        self.when_occupied = when_occupied
        self.short = short
        self.sentence = short


NEVER_HOSTILE = Hostility("never", when_empty=False, when_occupied=False, short="never")
HOSTILE_WHEN_EMPTY = Hostility("empty", when_empty=True, when_occupied=False, short="only when empty")
ALWAYS_HOSTILE = Hostility("always", when_empty=True, when_occupied=True, short="always")
_HOSTILITY = (NEVER_HOSTILE, HOSTILE_WHEN_EMPTY, ALWAYS_HOSTILE)
#: One rule point per special square and side; a corner is never empty-only (nobody but the
#: king ever stands on one long).
HOSTILITY: dict[str, RulePoint[Hostility]] = {
    "throne_hostile_to_attackers": RulePoint("throne_hostile_to_attackers", _HOSTILITY),
    "throne_hostile_to_defenders": RulePoint("throne_hostile_to_defenders", _HOSTILITY),
    "corners_hostile_to_attackers": RulePoint("corners_hostile_to_attackers", (NEVER_HOSTILE, ALWAYS_HOSTILE)),
    "corners_hostile_to_defenders": RulePoint("corners_hostile_to_defenders", (NEVER_HOSTILE, ALWAYS_HOSTILE)),
    "camps_hostile_to_attackers": RulePoint("camps_hostile_to_attackers", _HOSTILITY),
    "camps_hostile_to_defenders": RulePoint("camps_hostile_to_defenders", _HOSTILITY),
}


class Sandwich(Mode):
    """Whether a piece may move in between two enemies (judged on the board before the
    move's own captures; for the king only where two attackers could take him)."""

    def __init__(self, value: str, *, filters: bool, capturing_allowed: bool, refusal: str, short: str,
                 sentence: str) -> None:
        self.value = value
        self.filters = filters
        """Whether some moves in between two enemies are refused."""
        self.capturing_allowed = capturing_allowed
        """Whether a move that captures may still go in between."""
        self.refusal = refusal
        """Why such a move is refused, with ``{square}`` for its target."""
        self.short = short
        self.sentence = sentence


SANDWICH: RulePoint[Sandwich] = RulePoint("sandwich", (
    Sandwich("safe", filters=False, capturing_allowed=True, refusal="", short="yes, safely",
             sentence="A piece may safely move between two enemies."),
    Sandwich("unless-capturing", filters=True, capturing_allowed=True,
             refusal="a piece may move between two enemies ({square}) only to capture", short="only to capture",
             sentence="A piece may move between two enemies only if the move captures."),
    Sandwich("forbidden", filters=True, capturing_allowed=False,
             refusal="a piece may not move between two enemies ({square})", short="never",
             sentence="A piece may never move between two enemies."),
))

__all__ = ["ALWAYS_HOSTILE", "CornerHostilityName", "HOSTILE_WHEN_EMPTY", "HOSTILITY", "Hostility", "HostilityName",
           "KING_ARMED", "KingArmed", "KingArmedName", "NEVER_HOSTILE", "SANDWICH", "SHIELDWALL",
           "Sandwich", "SandwichName", "Shieldwall", "ShieldwallName"]
