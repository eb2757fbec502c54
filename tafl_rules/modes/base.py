"""What every rule mode has (:class:`Mode`), and the rule points that hold them (:class:`RulePoint`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Iterator, TypeVar

if TYPE_CHECKING:  # pragma: no cover - type names only
    from ..rules import Rules

#: What a mode's ``check`` returns when the rules cannot use it: (the field to blame, why).
Problem = tuple[str, str]


class Mode:
    """One mode of one rule point: its value as a rules record spells it, and its words.

    ``short`` is the rule matrix's cell, ``sentence`` the variant page's rule table, and
    ``howto`` (where the mode has one) the phrase of the "how to play" box. Subclasses
    add how the engine decides the mode and, where the AI needs one, its estimate.
    """

    value: Any
    short: str = ""
    sentence: str = ""
    howto: str | None = None

    def check(self, rules: "Rules") -> Problem | None:
        """(field, message) if ``rules`` cannot be played with this mode, else None."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.value!r}>"


M = TypeVar("M", bound=Mode)


class RulePoint(Generic[M]):
    """The modes of one rule point (one field of :class:`~tafl_rules.rules.Rules`), by value,
    in the order the site lists them. A new mode is one :meth:`add`."""

    def __init__(self, field: str, modes: tuple[M, ...]) -> None:
        self.field = field
        self._modes: dict[Any, M] = {}
        for mode in modes:
            self.add(mode)

    def __getitem__(self, value: object) -> M:
        try:
            return self._modes[value]
        except (KeyError, TypeError):
            raise KeyError(f"{self.field} has no mode {value!r}") from None

    def __contains__(self, value: object) -> bool:
        try:
            return value in self._modes
        except TypeError:  # an unhashable value is no mode's
            return False

    def __iter__(self) -> Iterator[M]:
        return iter(tuple(self._modes.values()))

    def names(self) -> tuple[Any, ...]:
        """The values of the modes, in order."""
        return tuple(self._modes)

    def add(self, mode: M) -> M:
        """Register a mode (a value no mode of this point has yet); returns it."""
        if mode.value in self._modes:
            raise ValueError(f"{self.field} already has a mode {mode.value!r}")
        self._modes[mode.value] = mode
        return mode

    def remove(self, value: object) -> None:
        """Take a mode out again (a test's own mode, when the test is done)."""
        del self._modes[value]

    def __repr__(self) -> str:
        return f"RulePoint({self.field!r}, {', '.join(map(repr, self._modes))})"


__all__ = ["Mode", "Problem", "RulePoint"]
