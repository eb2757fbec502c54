"""Single figures of the balance lab in running prose, read from the committed results.

A sentence such as "the attackers won 1 of the 10 games decided at level 3" must change when
the run goes on; typed by hand it would not. Each role takes one configuration, written
``variant@level`` or ``variant?toggle=value&toggle=value@level`` (the toggles as in the lab's
keys, both sides at that level), and prints one figure of its entry:

- ``{lab-games}`` the games played: ``18``
- ``{lab-capped}`` the games that reached the ply cap (draws): ``11``
- ``{lab-decided}`` the attackers' wins of the decided games: ``1 of the 10``
- ``{lab-pct}`` their share of the decided games: ``10%``
- ``{lab-share}`` their share with its 95% interval: ``10%, interval 2% to 40%``
- ``{lab-interval}`` the interval alone: ``2% to 40%``

A target that names no committed entry, or more than one, is a build error.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Callable

from docutils import nodes
from docutils.parsers.rst.states import Inliner
from sphinx.application import Sphinx

from .balance import decided_share, noted_results, select
from .util import RoleResult, pct

TARGET = re.compile(r"(?P<variant>[a-z0-9-]+)(?:\?(?P<toggles>[a-z_]+=[a-z0-9_-]+(?:&[a-z_]+=[a-z0-9_-]+)*))?"
                    r"@(?P<level>\d+)")


class LabFigureError(ValueError):
    """A role's target is malformed or names no single committed configuration."""


def find_entry(target: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The one entry a target names (toggles in any order)."""
    m = TARGET.fullmatch(target.strip())
    if not m:
        raise LabFigureError(f"{target!r} is not of the form variant@level or variant?toggle=value@level")
    toggles = dict(pair.split("=") for pair in m["toggles"].split("&")) if m["toggles"] else {}
    found = [e for e in select(entries, m["variant"], int(m["level"])) if (e["config"].get("toggles") or {}) == toggles]
    if len(found) != 1:
        raise LabFigureError(f"{target!r} names {len(found)} committed results (docs/data/balance*.json), not one")
    return found[0]


def _decided(summary: dict[str, Any]) -> str:
    return f"{summary['attackers']['count']:,} of the {decided_share(summary)[3]:,}"


def _interval(summary: dict[str, Any]) -> str:
    _, low, high, _ = decided_share(summary)
    return f"{pct(low)} to {pct(high)}"


def _share(summary: dict[str, Any]) -> str:
    share, _, _, decided = decided_share(summary)
    return f"{pct(share)}, interval {_interval(summary)}" if decided else "no game decided"


FIGURES: dict[str, Callable[[dict[str, Any]], str]] = {
    "lab-games": lambda s: f"{s['games']:,}",
    "lab-capped": lambda s: f"{s['endings'].get('ply-cap', 0):,}",
    "lab-decided": _decided,
    "lab-pct": lambda s: pct(decided_share(s)[0]),
    "lab-share": _share,
    "lab-interval": _interval,
}


def figure(role: str, target: str, entries: list[dict[str, Any]]) -> str:
    """The text a role prints for a target."""
    return FIGURES[role](find_entry(target, entries)["summary"])


def lab_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
             options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> RoleResult:
    try:
        return [nodes.Text(figure(name, text, noted_results(inliner.document.settings.env)))], []
    except LabFigureError as error:
        msg = inliner.reporter.error(f"{name} role: {error}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]


def setup_lab_figures(app: Sphinx) -> None:
    for name in FIGURES:
        app.add_role(name, lab_role)
