"""Jones's three points at every AI level played: the ``jones-points <variant>`` directive.

Jones (1993) suspected that the game is more equal when three ambiguities go against the
king's side. The lab plays his reading (the variant as it stands) and each point read the
other way, alone and all three together (:func:`tafl_rules.balance.jones_configs`). The
table gives, per level, the attackers' share of the decided games and says, for each
change, which of the two readings is nearer an even game where the intervals can tell.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from tafl_rules import catalogue
from tafl_rules.balance import JONES_REVERSED

from .balance import BalanceDirective, decided_share, level_label, level_of
from .util import pct


def _distance_from_even(share: float, lo: float, hi: float) -> tuple[float, float]:
    """How far from 50% the share may be, given its interval."""
    if lo <= 0.5 <= hi:
        return 0.0, max(0.5 - lo, hi - 0.5)
    return min(abs(lo - 0.5), abs(hi - 0.5)), max(abs(lo - 0.5), abs(hi - 0.5))


def nearer_even(his: dict[str, Any], changed: dict[str, Any]) -> str:
    """Which reading is nearer an even game (the attackers' share of the decided games nearer
    50%). Said only where the intervals tell: the two shares' 95% intervals must not overlap,
    and neither may the ranges of their distances from 50% that those intervals allow."""
    s0, lo0, hi0, n0 = decided_share(his)
    s1, lo1, hi1, n1 = decided_share(changed)
    if not n0 or not n1 or (lo1 <= hi0 and lo0 <= hi1):
        return "no difference the intervals can see"
    near0, far0 = _distance_from_even(s0, lo0, hi0)
    near1, far1 = _distance_from_even(s1, lo1, hi1)
    if far0 < near1:
        return "his reading nearer even"
    if far1 < near0:
        return "this change nearer even"
    return "they differ, but neither is clearly nearer even"


def _share_cell(summary: dict[str, Any]) -> str:
    share, lo, hi, decided = decided_share(summary)
    if not decided:
        return f"no game decided of {summary['games']}"
    return f"{pct(share)} ({pct(lo)}–{pct(hi)}), {decided:,} of {summary['games']:,} decided"


def jones_points_md(vid: str, entries: list[dict[str, Any]]) -> str:
    """One row for his reading and one per change; one column per level at which a change was played."""
    changes: list[tuple[tuple[str, str], ...]] = [(change,) for change in JONES_REVERSED[1]] + [JONES_REVERSED[1]]
    keys = [()] + [tuple(sorted(toggles)) for toggles in changes]
    by_level: dict[int, dict[tuple[tuple[str, str], ...], dict[str, Any]]] = {}
    for e in entries:
        toggles = tuple(sorted((e["config"].get("toggles") or {}).items()))
        if (level := level_of(e)) is not None and toggles in keys:
            by_level.setdefault(level, {})[toggles] = e["summary"]
    levels = sorted(lv for lv, got in by_level.items() if len(got) > 1)  # his reading alone says nothing here
    if not levels:
        return f"Jones's points on `{vid}` have not been played yet."
    base = catalogue.variant(vid)
    labels = ["His reading (the variant as it stands)"]
    for (name, value), in changes[:-1]:
        labels.append(f"{{toggle}}`‘{base.toggles[name].readings[value].label}’ <{vid}:{name}={value}>`")
    labels.append("All three read the other way")
    rows = ["| Reading | " + " | ".join(f"Level {level_label(lv)}: attackers' share of the decided games"
                                        for lv in levels) + " |",
            "|:--|" + "--:|" * len(levels)]
    for key, label in zip(keys, labels):
        cells = []
        for lv in levels:
            got = by_level[lv]
            if key not in got:
                cells.append("not played")
            elif not key or () not in got:
                cells.append(_share_cell(got[key]))
            else:
                cells.append(f"{_share_cell(got[key])}: {nearer_even(got[()], got[key])}")
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


class JonesPoints(BalanceDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        vid = self.arguments[0]
        return self.parse_md(jones_points_md(vid, self.entries(vid)) + "\n\n"
                             "95% Wilson intervals; the draws (mostly games stopped at the ply cap) are left out "
                             "of the share. *Nearer even* compares each change with his reading at the same "
                             "level; it is said only where the two shares' intervals do not overlap and "
                             "neither do the distances from 50% that those intervals allow.")


def setup_jones_points(app: Sphinx) -> None:
    app.add_directive("jones-points", JonesPoints)
