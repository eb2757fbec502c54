"""Does a verdict hold as play gets stronger? The ``level-verdicts`` directive.

One row per reconstruction played at the chosen level (``:level: N``, default the board's
level): the attackers' share of the decided games at every level played, which lower levels'
intervals that level's interval lies apart from, which side it favours, and, where it could
still be an even game, about how many games would tell. Everything is read from the committed
results, so that no sentence on the page has to be edited when a run goes on.
"""

from __future__ import annotations

from typing import Any

import math

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from tafl_rules.ai import DEFAULT_LEVEL
from tafl_rules.balance import Z95

from .balance import BalanceDirective, decided_share, plain_rows
from .util import pct

ENOUGH = 10_000  # beyond this many games the estimate is given as "over"


def apart_from(by_level: dict[int, dict[str, Any]], level: int) -> list[int]:
    """The lower levels whose 95% interval does not overlap ``level``'s."""
    _, lo, hi, _ = decided_share(by_level[level])
    apart = []
    for other in sorted(lv for lv in by_level if lv < level):
        _, lo2, hi2, _ = decided_share(by_level[other])
        if hi2 < lo or hi < lo2:
            apart.append(other)
    return apart


def favoured(summary: dict[str, Any]) -> str | None:
    """The side the interval puts ahead: 'attackers' if it lies wholly above 50%, 'defenders'
    if wholly below, None if it could be an even game. Read from the interval as printed, in
    whole percents, so that the page never says more than its figures show."""
    _, lo, hi, decided = decided_share(summary)
    if not decided:
        return None
    lo, hi = round(100 * lo), round(100 * hi)
    return "attackers" if lo > 50 else "defenders" if hi < 50 else None


def games_to_tell(summary: dict[str, Any]) -> int | None:
    """About how many games it would take for the interval to leave 50% if the share stayed
    where it is: n decided games with Z95 * sqrt(p(1-p)/n) < |p - 1/2|, scaled by the share of the
    games played so far that were decided. None if the share is exactly even."""
    share, _, _, decided = decided_share(summary)
    if not decided or share == 0.5:
        return None
    needed = Z95 ** 2 * share * (1 - share) / (share - 0.5) ** 2
    games: int = summary["games"]
    return math.ceil(needed * games / decided)


def _round(n: int) -> str:
    digits = max(0, len(str(n)) - 2)
    return f"{round(n, -digits):,}"


def _verdict(summary: dict[str, Any]) -> str:
    side = favoured(summary)
    if side:
        return f"{side} ahead"
    n = games_to_tell(summary)
    if n is None or n > ENOUGH:
        return f"could be even (over {ENOUGH:,} games to tell)"
    if n <= summary["games"]:
        return "could be even (on the edge)"
    return f"could be even (about {_round(n)} games to tell)"


def _cell(summary: dict[str, Any] | None) -> str:
    if summary is None:
        return "not played"
    share, lo, hi, decided = decided_share(summary)
    # a word joiner each side of the dash: a narrow column breaks after the share, not inside the interval
    return f"{pct(share)} ({round(100 * lo)}\u2060–\u2060{round(100 * hi)})" if decided else "none decided"


def level_verdicts_md(entries: list[dict[str, Any]], level: int = DEFAULT_LEVEL) -> str:
    rows = {vid: by_level for vid, by_level in plain_rows(entries).items() if level in by_level}
    lower = sorted({lv for by_level in rows.values() for lv in by_level if lv < level})
    head = ["Rules"] + [f"Level {lv}" for lv in lower] + [f"Level {level}", "Games (capped)",
                                                          "Apart from", f"At level {level}"]
    lines = ["| " + " | ".join(head) + " |", "|:--|" + "--:|" * (len(lower) + 2) + ":--|:--|"]
    for vid, by_level in rows.items():
        top = by_level[level]
        apart = apart_from(by_level, level)
        apart_text = ("neither" if not apart else f"level {apart[0]}" if len(apart) == 1
                      else "levels " + ", ".join(map(str, apart[:-1])) + f" and {apart[-1]}")
        cells = ([f"{{variant}}`{vid}`"] + [_cell(by_level.get(lv)) for lv in lower] + [_cell(top)]
                 + [f"{top['games']:,} ({top['endings'].get('ply-cap', 0):,})", apart_text, _verdict(top)])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


class LevelVerdicts(BalanceDirective):
    option_spec = {"level": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        level = self.options.get("level", DEFAULT_LEVEL)
        text = level_verdicts_md(self.entries(), level)
        if text.count("\n") < 2:
            return [self.state.document.reporter.warning(
                f"level-verdicts: no reconstruction played at level {level} in docs/data/balance*.json",
                line=self.lineno)]
        return self.parse_md(text)


def setup_level_verdicts(app: Sphinx) -> None:
    app.add_directive("level-verdicts", LevelVerdicts)
