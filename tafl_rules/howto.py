"""How to play a set of rules, in a few short lines, for the box beside each board.

Everything here is read from a :class:`~tafl_rules.rules.Rules` record (and, for the
announcements, from the catalogue's provenance), so the box is never typed per page
and changes with every toggle.

>>> from tafl_rules import Rules
>>> for heading, text in how_to_play(Rules()):
...     print(f"{heading}: {text}")
Moving: The attackers move first. Every piece moves any distance along a rank or file, without jumping.
Defenders win: By bringing the king to any edge square.
Attackers win: By taking the king between two attackers, like any other piece; or by leaving the defenders without a move.
Taking: A piece is taken when an enemy move traps it between two enemies in a line. The king helps take.
Special squares: Only the king may stop on the throne.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from .messages import translator
from .modes import EDGE_FORT, ENCIRCLEMENT, ESCAPE, KING_ARMED, KING_CAPTURE, NO_MOVES, SHIELDWALL, TUICHI, WATCH_KING
from .rules import Rules

if TYPE_CHECKING:
    from .catalogue import Variant

_AGAINST = {"throne": "the throne", "camp": "the camps", "edge": "the board's edge", "corner": "the corners"}
_SINGULAR = {"the throne", "the board's edge"}

_PIECE_NAMES = {"king": "the king", "defender": "defenders", "attacker": "attackers"}


def _who(pieces: Collection[str], _: Callable[..., str]) -> str:
    names = [_(_PIECE_NAMES[p]) for p in ("king", "defender", "attacker") if p in pieces]
    if not names:
        return _("No piece")
    text = names[0] if len(names) == 1 else _("{items} and {last}", items=", ".join(names[:-1]), last=names[-1])
    return text[0].upper() + text[1:]


def how_to_play(rules: Rules, lang: str = "") -> list[tuple[str, str]]:
    """(heading, sentence) pairs: who moves first and how, each side's goal, how pieces are
    taken and what the special squares do. Short on purpose; the variant page has every rule.
    ``lang`` ("cy") gives them in another language (:mod:`tafl_rules.messages`)."""
    _ = translator(lang)
    first = _("The attackers move first.") if rules.first == "attackers" else _("The defenders move first.")
    if rules.king_speed == rules.man_speed == 0:
        moving = _("Every piece moves any distance along a rank or file, without jumping.")
    else:
        def speed(n: int) -> str:
            return _("any distance") if n == 0 else _("at most 1 square") if n == 1 else _("at most {n} squares", n=n)
        moving = _("The king moves {king}, the other pieces {men}, along a rank or file, without jumping.",
                   king=speed(rules.king_speed), men=speed(rules.man_speed))
    lines = [(_("Moving"), f"{first} {moving}")]

    escape = ESCAPE[rules.escape]
    defenders = [_(phrase) for phrase in (escape.howto, EDGE_FORT[rules.edge_fort].howto) if phrase]
    if escape.howto:  # two open roads win only where there is somewhere to escape to
        defenders += [_(phrase) for phrase in (TUICHI[rules.tuichi].howto,) if phrase]
    no_moves = NO_MOVES[rules.no_moves]
    king_mode = KING_CAPTURE[rules.king_capture]
    if not king_mode.takeable or not defenders:
        defenders.append(_(no_moves.phrase, side=_("attackers")))
    lines.append((_("Defenders win"), _join(defenders, _) + "."))

    attackers = [_(king_mode.howto)] if king_mode.howto else []
    if king_mode.surrounded and rules.king_capture_against:
        sides = [_AGAINST[name] for name in sorted(rules.king_capture_against)]
        against = _list([_(side) for side in sides], _)
        counted = (_("{against} counts as a side", against=against) if len(sides) == 1 and sides[0] in _SINGULAR
                   else _("{against} count as a side", against=against))
        attackers[0] += f" ({counted})"
    attackers += [_(phrase) for phrase in (WATCH_KING[rules.watch_king].howto, ENCIRCLEMENT[rules.encirclement].howto)
                  if phrase]
    if no_moves.stuck_loses:
        attackers.append(_(no_moves.phrase, side=_("defenders")))
    lines.append((_("Attackers win"), _join(attackers, _) + "."))

    taking = _("A piece is taken when an enemy move traps it between two enemies in a line.")
    taking += " " + _(KING_ARMED[rules.king_armed].taking)
    shieldwall = SHIELDWALL[rules.shieldwall].howto
    if shieldwall:
        taking += " " + _(shieldwall)
    lines.append((_("Taking"), taking))

    special = []
    if rules.throne:
        special.append(_may_stop(rules.throne_stop, "the throne", _))
    if rules.corners:
        special.append(_may_stop(rules.corner_stop, "a corner", _))
    if rules.camps:
        special.append(_("The attackers start on camps; other pieces may not stop on them."))
    hostile = sorted({place for place, values in (
        ("the throne", (rules.throne_hostile_to_attackers, rules.throne_hostile_to_defenders)),
        ("the corners", (rules.corners_hostile_to_attackers, rules.corners_hostile_to_defenders)),
        ("the camps", (rules.camps_hostile_to_attackers, rules.camps_hostile_to_defenders)),
    ) if any(v != "never" for v in values) and _present(rules, place)})
    if hostile:
        sentence = _("{places} can stand in for an enemy when taking.", places=_list([_(place) for place in hostile], _))
        special.append(sentence[0].upper() + sentence[1:])
    if special:
        lines.append((_("Special squares"), " ".join(special)))
    return lines


def _may_stop(pieces: Collection[str], place: str, _: Callable[..., str]) -> str:
    if pieces == frozenset({"king"}):
        return _("Only the king may stop on {place}.", place=_(place))
    return _("{who} may stop on {place}.", who=_who(pieces, _), place=_(place))


def _present(rules: Rules, place: str) -> bool:
    return {"the throne": rules.throne, "the corners": rules.corners, "the camps": rules.camps}[place]


def _list(items: list[str], _: Callable[..., str]) -> str:
    return items[0] if len(items) == 1 else _("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def _join(parts: list[str], _: Callable[..., str]) -> str:
    if not parts:
        return _("never")
    text = parts[0] if len(parts) == 1 else _("{items}; or {last}", items="; ".join(parts[:-1]), last=parts[-1])
    return text[0].upper() + text[1:]


def announced_terms(rules: Rules, variant: Variant | None = None) -> list[str]:
    """The announcement words ("raichi", "tuichi") a board should show for these rules: those
    of a variant whose sources state the announcement (a passage, not a modern filler), and
    "tuichi" wherever two open roads win. Other boards show none of them."""
    sourced = variant is not None and variant.provenance.get("tuichi") is not None \
        and variant.provenance["tuichi"].passage is not None
    if sourced:
        return ["raichi", "tuichi"]
    return ["tuichi"] if rules.tuichi == "win" else []
