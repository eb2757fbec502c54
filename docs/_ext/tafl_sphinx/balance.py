"""The balance lab's results on the site: a table and a chart drawn at build time.

Everything comes from the committed JSON files ``docs/data/balance*.json`` written
by ``python -m tafl_rules balance`` (see :mod:`tafl_rules.balance`); nothing is
computed in the browser and the chart is an inline SVG made here.

Directives
    ``balance-table``          every configuration: wins of each side and draws with
                               95% Wilson intervals, games, lengths, endings
                               (``:level: N``: only the games with both sides at level N;
                               default 1; ``:plain:``: only the variants as they stand)
    ``balance-chart``          the same as horizontal stacked bars with the intervals
                               (``:level:`` as above)
    ``balance-row <variant>``  one variant's own rows at every level played (and its
                               single-toggle rows, if any)
    ``balance-provenance``     how, when and from which code the results were made
    ``tournament-table``       the AI's levels against each other (``docs/data/tournament.json``,
                               written by ``benchmarks/tournament.py``)
    ``ai-levels``              what each level is allowed to search (from ``tafl_rules.ai.LEVELS``)
                               and its move times in the browser's Python (``docs/data/level-times.json``)
    ``calibration-table``      Copenhagen self-play of each level beside the human games
                               (``docs/data/calibration*.json``, from ``benchmarks/calibration.py``;
                               ``:endings:``: how the decided games ended, people's and the default level's;
                               ``:capped:``: where its games stopped at the ply cap stood)
    ``level-chart``            the attackers' share of the decided games at each level played, per
                               reconstruction (matplotlib, SVG at build time)
    ``texel-fit``              the tuned evaluation's fit on held-out human games (``docs/data/texel.json``)
    ``human-results``          published results of people's games (``docs/data/human-results.json``)
                               beside the self-play on the same rules
"""

from __future__ import annotations

import functools
import html
import io
import json
import re
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import matplotlib
import matplotlib.patches
from matplotlib.figure import Figure
from matplotlib.typing import RcKeyType
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.locale import _

from tafl_rules import catalogue
from tafl_rules.ai import DEFAULT_LEVEL, LEVELS, RETIRED_LEVELS
from tafl_rules.balance import sign_test, site_configs, wilson

from . import roots
from .roots import Roots
from .util import MystDirective, pct

COLOURS = {"attackers": "#b5472f", "draws": "#b9b3a8", "defenders": "#2f5f8a"}


def result_files(folders: Roots) -> list[Path]:
    """``balance.json`` first, then the other ``balance*.json`` files by name."""
    files = sorted(folders.data.glob("balance*.json"), key=lambda p: (p.name != "balance.json", p.name))
    return [p for p in files if not p.name.endswith(".work.jsonl")]


def load_results(folders: Roots) -> list[dict[str, Any]]:
    """Every configuration's entry, with its file's provenance under ``"provenance"`` (read once
    per version of the files: many directives and roles of one build ask for them)."""
    return list(_read_results(tuple((path, path.stat().st_mtime_ns) for path in result_files(folders))))


def noted_results(env: Any) -> list[dict[str, Any]]:
    """:func:`load_results`, with the results files noted as the document's dependencies."""
    folders = roots.of(env.config)
    for path in result_files(folders):
        env.note_dependency(str(path))
    return load_results(folders)


def _results_files_added(app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]) -> list[str]:
    # A folder cannot be a Sphinx dependency (one that is not a file is read as changed on every
    # build), so a document that read the results is read again when the files it noted are not
    # the files there are now. (A removed file Sphinx sees itself: a dependency gone missing.)
    folders = roots.of(app.config)
    now = set(result_files(folders))
    data = folders.data
    readers = {doc: {Path(dep) for dep in deps if Path(dep).parent == data and Path(dep).match("balance*.json")}
               for doc, deps in env.dependencies.items()}
    return sorted(doc for doc, noted in readers.items() if noted and noted != now)


@functools.lru_cache(maxsize=1)
def _read_results(files: tuple[tuple[Path, int], ...]) -> tuple[dict[str, Any], ...]:
    by_key: dict[str, dict[str, Any]] = {}
    for path, _mtime in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data["results"]:
            entry = {**entry, "provenance": data["provenance"], "file": path.name}
            other = by_key.get(entry["key"])
            if other is not None:  # a configuration played by two runs (one extending the other): the larger
                entry = _larger_run(other, entry)
            by_key[entry["key"]] = entry
    out = list(by_key.values())
    try:  # the site's order: catalogue variants, then the single-toggle changes

        order = {c.key: i for i, c in enumerate(site_configs())}
    except Exception:  # noqa: BLE001 - keep the files' order if the package cannot say
        order = {}
    return tuple(sorted(out, key=lambda e: order.get(e["key"], len(order))))


def _larger_run(one: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Of two results of one configuration, the one with more games, once every seed both
    played is found to have given the same game in each (else the build stops, naming both)."""
    a = {g[0]: g for g in one["games"]}
    b = {g[0]: g for g in other["games"]}
    differ = sorted(seed for seed in a.keys() & b.keys() if a[seed] != b[seed])
    if differ:
        raise ExtensionError(f"{one['file']} and {other['file']} disagree about {one['key']} "
                             f"(seeds {', '.join(map(str, differ[:5]))}): one of them is not from the committed code")
    return other if len(b) > len(a) else one


def _cell(part: dict[str, Any]) -> str:
    return f"{pct(part['rate'])} ({pct(part['low'])}–{pct(part['high'])})"


def level_of(entry: dict[str, Any]) -> int | None:
    """The AI level both sides played at (None if the two sides differ)."""
    config = entry["config"]
    a, d = config["attackers_level"], config["defenders_level"]
    return a if a == d else None


def _level_suffix(entry: dict[str, Any], say: Callable[[str], str] = str) -> str:
    level = level_of(entry)
    config = entry["config"]
    return "" if level == 1 else say(", level %s") % level if level else \
        say(", levels %s v %s") % (config["attackers_level"], config["defenders_level"])


def _label_md(entry: dict[str, Any], say: Callable[[str], str] = str) -> str:
    config = entry["config"]
    vid = config["variant"]
    toggles = config.get("toggles") or {}
    if not toggles:
        return f"{{variant}}`{vid}`{_level_suffix(entry, say)}"
    base = catalogue.variant(vid)
    changes = ", ".join(f"{{toggle}}`‘{base.toggles[name].readings[value].label}’ <{vid}:{name}={value}>`"
                        for name, value in sorted(toggles.items()))
    return f"{{variant}}`{vid}` {say('with')} {changes}{_level_suffix(entry, say)}"


def _label_text(entry: dict[str, Any]) -> str:
    """A configuration as readers know it: the variant's name, and its changed readings in words."""
    config = entry["config"]
    toggles = config.get("toggles") or {}
    base = catalogue.variant(config["variant"])
    text: str = base.name
    if toggles:
        text += ": " + ", ".join(base.toggles[k].readings[v].label for k, v in sorted(toggles.items()))
    return text + _level_suffix(entry)


#: The headings of a table of results.
TABLE_HEADINGS = ("Rules", "Games", "Attackers win", "Defenders win", "Draws", "Plies, mean / median", "King escaped / taken")


def table_md(entries: list[dict[str, Any]], say: Callable[[str], str] = str) -> str:
    """The results as a MyST table, one row per configuration; ``say``: its words in the build's
    language, where the page's catalogue does not reach them (:class:`BalanceRow`)."""
    rows = ["| " + " | ".join(say(h) for h in TABLE_HEADINGS) + " |", "|:--|--:|--:|--:|--:|--:|--:|"]
    for e in entries:
        s = e["summary"]
        rows.append(f"| {_label_md(e, say)} | {s['games']} | {_cell(s['attackers'])} | {_cell(s['defenders'])} | "
                    f"{_cell(s['draws'])} | {s['mean_plies']:.0f} / {s['median_plies']:g} | {s['king_escaped']} / {s['king_captured']} |")
    return "\n".join(rows)


def chart_svg(entries: list[dict[str, Any]], *, svg_id: str = "balance-chart") -> str:
    """Stacked bars (attackers' wins, draws, defenders' wins) with the 95% intervals of
    both sides' win rates drawn as whiskers, one row per configuration (matplotlib, drawn
    to SVG at build time; each row carries its figures as a tooltip)."""
    with matplotlib.rc_context(CHART_RC):
        return _chart_svg(entries, svg_id)


def _chart_svg(entries: list[dict[str, Any]], svg_id: str) -> str:
    fig, ax = _figure(height=0.3 * len(entries) + 1.2)
    rows = list(reversed(entries))
    # room for the longest name beside its bar (the chart scrolls in its box on a narrow page)
    fig.set_figwidth(max(7.6, 4.6 + 0.075 * max((len(_label_text(e)) for e in rows), default=0)))
    for y, e in enumerate(rows):
        s = e["summary"]
        a, dr, d = s["attackers"]["rate"], s["draws"]["rate"], s["defenders"]["rate"]
        bars = ax.barh([y, y, y], [a, dr, d], left=[0, a, a + dr], height=0.62,
                       color=[COLOURS["attackers"], COLOURS["draws"], COLOURS["defenders"]])
        for bar in bars:
            bar.set_gid(f"{svg_id}-row{y}")
        lo, hi = s["attackers"]["low"], s["attackers"]["high"]
        ax.errorbar(a, y - 0.12, xerr=[[max(0.0, a - lo)], [max(0.0, hi - a)]], fmt="none", ecolor="#000000",
                    elinewidth=0.9, capsize=2)
        lo, hi = s["defenders"]["low"], s["defenders"]["high"]
        mid = 1 - d
        ax.errorbar(mid, y + 0.12, xerr=[[max(0.0, hi - d)], [max(0.0, d - lo)]], fmt="none", ecolor="#ffffff",
                    elinewidth=0.9, capsize=2)
    ax.set_yticks(range(len(rows)), [_label_text(e) for e in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(0, 1)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0%", "25%", "50%", "75%", "100%"])
    ax.axvline(0.5, color="#000000", linewidth=0.6, alpha=0.5)
    handles = [matplotlib.patches.Patch(color=COLOURS[k], label=label)
               for k, label in (("attackers", "attackers win"), ("draws", "draw"), ("defenders", "defenders win"))]
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    svg = _svg(fig, "balance-chart", "Win rates of attackers and defenders in self-play, with 95% Wilson intervals")
    svg = svg.replace("<svg ", f'<svg id="{svg_id}" ', 1)
    for y, e in enumerate(rows):
        s = e["summary"]
        tip = html.escape(f"{_label_text(e)}: attackers {_cell(s['attackers'])}, draws {_cell(s['draws'])}, "
                          f"defenders {_cell(s['defenders'])}; {s['games']} games")
        svg = svg.replace(f'<g id="{svg_id}-row{y}">', f'<g id="{svg_id}-row{y}"><title>{tip}</title>', 1)
    return svg


#: text set as text (searchable, in the page's font); the same bytes for the same data
CHART_RC: dict[RcKeyType, Any] = {"svg.fonttype": "none", "font.size": 10, "font.family": "sans-serif", "svg.hashsalt": "tafl"}


def _figure(height: float) -> tuple[Figure, Any]:
    """A matplotlib figure for a chart of the site (drawn without pyplot: no global state)."""
    fig = Figure(figsize=(7.6, height))
    ax = fig.subplots()
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)
    return fig, ax


def _svg(fig: Figure, css_class: str, label: str) -> str:
    """The figure as inline SVG: black ink becomes ``currentColor`` (so the page's light or
    dark mode colours axes and text), as wide as its box up to its natural width."""
    fig.tight_layout()
    out = io.StringIO()
    fig.savefig(out, format="svg", transparent=True, metadata={"Date": None, "Creator": None})
    svg = out.getvalue()
    svg = svg[svg.index("<svg"):].replace("#000000", "currentColor")
    # never narrower than drawn, so that no text falls under the size it was set in (a phone
    # scrolls the chart in its box, see chart_box); a little wider where the page has room
    svg = re.sub(r'<svg ([^>]*?)width="([\d.]+)pt" height="[\d.]+pt"',
                 lambda m: f'<svg {m.group(1)}style="width:100%;min-width:{float(m.group(2)) * 4 / 3:.0f}px;'
                           f'max-width:{float(m.group(2)) * 4 / 3 * 1.25:.0f}px;height:auto"',
                 svg, count=1)
    return svg.replace("<svg ", f'<svg class="{css_class}" fill="currentColor" role="img" aria-label="{html.escape(label)}" ', 1)


def chart_box(svg: str, label: str, css_class: str = "tafl-chart-box") -> str:
    """A chart in a box of its own that scrolls sideways where the page is narrower than the
    chart, and can take the focus so that the keyboard scrolls it too."""
    return (f'<div class="{css_class}" tabindex="0" role="region" aria-label="{html.escape(label)}">'
            f'{svg}</div>')


def select(entries: list[dict[str, Any]], variant: str | None = None, level: int | None = None) -> list[dict[str, Any]]:
    """The entries of one variant (all if None) played with both sides at ``level`` (any if None)."""
    return [e for e in entries if (variant is None or e["config"]["variant"] == variant)
            and (level is None or level_of(e) == level)]


class BalanceDirective(MystDirective):
    """A directive drawn from the results: :meth:`entries` reads them (noting the files read)."""

    has_content = False

    def entries(self, variant: str | None = None, level: int | None = None) -> list[dict[str, Any]]:
        return select(noted_results(self.env), variant, level)


_BalanceDirective = BalanceDirective  # the name the results' modules import


class BalanceTable(BalanceDirective):
    option_spec = {"level": directives.positive_int, "plain": directives.flag}

    def run(self) -> list[nodes.Node]:
        level = self.options.get("level", 1)
        entries = self.entries(level=level)
        if "plain" in self.options:  # the variants as they stand, no toggled lines
            entries = [e for e in entries if not e["config"].get("toggles")]
        if not entries:
            return [self.state.document.reporter.warning(
                f"balance-table: no level-{level} results in docs/data/balance*.json", line=self.lineno)]
        return self.parse_md(table_md(entries))


class BalanceChart(BalanceDirective):
    option_spec = {"level": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        level = self.options.get("level", 1)
        entries = self.entries(level=level)
        if not entries:
            return [self.state.document.reporter.warning(
                f"balance-chart: no level-{level} results in docs/data/balance*.json", line=self.lineno)]
        return [nodes.raw("", chart_box(chart_svg(entries, svg_id=f"balance-chart-{level}" if level != 1 else "balance-chart"),
                                        f"Chart: win rates at level {level}"),
                          format="html")]


class BalanceRow(BalanceDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        vid = self.arguments[0]
        entries = self.entries(vid)
        if not entries:
            return self.parse_md(f"No self-play results for `{vid}` yet (see {{doc}}`/docs/fairest`).")
        entries.sort(key=lambda e: level_of(e) or 0)  # level 1 first, as on the fairest page
        note = ("Self-play of the site's AI (both sides at level 1 unless the line says otherwise), "
                "95% Wilson intervals; how and why: {doc}`/docs/fairest`.")
        # the table's cells have no message of the page's catalogue (its headings and a row's level
        # stand in no page text): they are said in the build's language here (sphinx.po)
        return self.parse_md(table_md(entries, lambda text: str(_(text))) + "\n\n" + note)


class BalanceProvenance(BalanceDirective):
    def run(self) -> list[nodes.Node]:
        self.entries()
        lines = []
        for path in result_files(self.folders):
            p = json.loads(path.read_text(encoding="utf-8"))["provenance"]
            seeds = p.get("seeds", {})
            commit = (p.get("commit") or "unknown")[:10]
            seconds = f", {p['seconds']} s" if p.get("seconds") is not None else ""
            lines.append(f"- `docs/data/{path.name}`: {p['games']} games, seeds {seeds.get('first')} to "
                         f"{seeds.get('last')}" + (f" (part-way: {p['partial']})" if p.get("partial") else "")
                         + f", made {p['date']} by tafl_rules {p['version']} (commit `{commit}`, "
                         f"Python {p.get('python', '?')}, {p.get('runner', '?')}{seconds})"
                         + (f"; {p['sittings']}" if p.get("sittings") else "") + ".")
        return self.parse_md("\n".join(lines))


def _p_value(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def level_label(level: int) -> str:
    """A level as the page names it: ``3``, or ``former 3`` for a retired level (103)."""
    return f"former {level - 100}" if level in RETIRED_LEVELS else str(level)


def _pair(r: dict[str, Any]) -> str:
    return f"{level_label(r['higher'])} v {level_label(r['lower'])}"


def _ladder(table: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(table, key=lambda r: (r["lower"] % 100, r["lower"], r["higher"]))


def tournament_md(data: dict[str, Any]) -> str:
    rows = ["| Pair | Games | Higher level wins | Draws | Losses | Win rate (95% interval) | Score | "
            "Sign test *p* | As attackers W/D/L | As defenders W/D/L |",
            "|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in _ladder(data["table"]):
        a = "/".join(map(str, r["by_side"]["attackers"]))
        d = "/".join(map(str, r["by_side"]["defenders"]))
        rows.append(f"| {_pair(r)} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | "
                    f"{pct(r['win_rate'])} ({pct(r['win_low'])}–{pct(r['win_high'])}) | {pct(r['score'])} | "
                    f"{_p_value(sign_test(r['wins'], r['losses']))} | {a} | {d} |")
    variants = ", ".join(f"{{variant}}`{v}`" for v in data["table"][0]["variants"]) if data["table"] else ""
    p = data["provenance"]
    opening = data.get("opening_plies", 0)
    opening = f"; the first {opening} plies of each game played at random (seeded)" if opening else ""
    note = (f"Variants: {variants}; ply cap {data['ply_cap']} (a game reaching it is a draw){opening}; score counts a draw "
            f"as half; the sign test asks how likely so uneven a split of the decisive games would be between "
            f"equal players (draws left out). Made {p['date']} by tafl_rules {p['version']} (commit `{(p.get('commit') or '?')[:10]}`), "
            f"{p['games']} games."
            + (f" **Part-way:** {p['partial']}; the rest are still to be played." if p.get("partial") else ""))
    return "\n".join(rows) + "\n\n" + note + "\n\n" + tournament_by_variant_md(data)


def tournament_by_variant(data: dict[str, Any]) -> dict[tuple[int, str, str], tuple[int, int, int]]:
    """The higher level's wins, draws and losses for each (higher level, variant, side it took)."""
    out = {}
    for r in data["table"]:
        hi, lo = r["higher"], r["lower"]
        for e in data["results"]:
            c, s = e["config"], e["summary"]
            la, ld = c["attackers_level"], c["defenders_level"]
            if {la, ld} != {hi, lo}:
                continue
            side = "attackers" if la == hi else "defenders"
            wins, draws = s[side]["count"], s["draws"]["count"]
            out[(hi, c["variant"], side)] = (wins, draws, s["games"] - wins - draws)
    return out


def tournament_by_variant_md(data: dict[str, Any]) -> str:
    """One row per pair, one column per variant: how the higher level fared on each side."""
    if not data["table"]:
        return ""
    variants = data["table"][0]["variants"]
    cells = tournament_by_variant(data)
    rows = ["| Pair | " + " | ".join(f"{{variant}}`{v}`" for v in variants) + " |",
            "|:--|" + "--:|" * len(variants)]
    for r in _ladder(data["table"]):
        line = [_pair(r)]
        for v in variants:
            a, d = ("/".join(map(str, cells[(r["higher"], v, side)])) for side in ("attackers", "defenders"))
            line.append(f"attacking {a}, defending {d}")
        rows.append("| " + " | ".join(line) + " |")
    return ("The same games by variant (the higher level's wins/draws/losses as each side):\n\n"
            + "\n".join(rows))


LEVEL_TIMES = "level-times.json"


def level_times(folders: Roots) -> dict[int, dict[str, float]]:
    """Each level's measured move times in Pyodide (``docs/data/level-times.json``, written by
    ``benchmarks/bench_ai.py --json``): ``{level: {"median", "max", "large_median", "large_max"}}``;
    levels not measured there are missing."""
    path = folders.data / LEVEL_TIMES
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {int(k): v for k, v in data.get("pyodide", {}).items()}


def seconds(value: float) -> str:
    """A move time as the menu and the table write it."""
    if value < 0.1:
        return "under 0.1 s"
    return f"{value:.1f} s" if value < 10 else f"{value:.0f} s"


LEVEL_TIMES_BROWSER = "level-times-browser.json"


def level_times_by_size(folders: Roots) -> dict[int, dict[int, dict[str, float]]]:
    """Each level's move times in the board's worker by board size (``docs/data/level-times-browser.json``,
    written by ``benchmarks/bench_board.py --ai 1,2,3,4,5,6 --ai-json``): ``{size: {level: {"median", "max"}}}``."""
    path = folders.data / LEVEL_TIMES_BROWSER
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {int(size): {int(level): v for level, v in levels.items()} for size, levels in data.get("by_size", {}).items()}


def typical_time(folders: Roots, level: int, size: int | None = None) -> str:
    """What the board's menu says of a level's time: the median measured in the board's worker on
    boards of ``size`` where there is one, else the median measured in the browser's Python over
    every board, or, where it was not measured, the level's time cap."""
    on_size = level_times_by_size(folders).get(size or 0, {}).get(level)
    if on_size:
        median = seconds(on_size["median"])
        return median if median.startswith("under") else "about " + median
    measured = level_times(folders).get(level)
    if measured:
        median = seconds(measured["median"])
        return median if median.startswith("under") else "about " + median
    return f"up to {LEVELS[level].time_cap:g} s"


def levels_md(folders: Roots) -> str:
    times = level_times(folders)
    by_size = level_times_by_size(folders)
    sizes = sorted(by_size)
    rows = ["| Level | Name | Deepest iteration (plies) | Node budget | Picks among moves within | Time cap "
            "| Pyodide under Node: median, worst (11x11, 19x19) |"
            + "".join(f" In the board's worker on {n}x{n}: median, worst |" for n in sizes),
            "|--:|:--|--:|--:|--:|--:|:--|" + ":--|" * len(sizes)]
    for n, spec in LEVELS.items():
        name = spec.name + (" (the board's)" if n == DEFAULT_LEVEL and spec.name == "default"
                            else " (the board's default)" if n == DEFAULT_LEVEL else "")
        margin = f"{spec.margin} points of the best" if spec.margin else "(the best only)"
        t = times.get(n)
        measured = (f"{seconds(t['median'])}, {seconds(t['max'])} ({seconds(t['large_median'])}, "
                    f"{seconds(t['large_max'])})" if t else "not measured")
        budget = f"{spec.nodes:,}" + (f" ({spec.budget(19):,} on 19x19)" if spec.scaled else "")
        cells = "".join(f" {seconds(by_size[size][n]['median'])}, {seconds(by_size[size][n]['max'])} |"
                        if n in by_size[size] else " not measured |" for size in sizes)
        rows.append(f"| {n} | {name} | {spec.depth} | {budget} | {margin} | {spec.time_cap:g} s | {measured} |{cells}")
    return "\n".join(rows)


def calibration_files(folders: Roots) -> list[Path]:
    return sorted(folders.data.glob("calibration*.json"))


def level_title(level: int) -> str:
    """How the calibration report names a level: ``level 3``, ``its former level 3`` (the levels
    retired on 24 November 2026), or a later retired level by its label."""
    if level not in RETIRED_LEVELS:
        return f"level {level}"
    return f"its former level {level - 100}" if level < 200 else RETIRED_LEVELS[level].label


def calibration_md(folders: Roots) -> str:
    """The Copenhagen self-play of each level measured by ``benchmarks/calibration.py``
    beside the human games: the attackers' share of the decided games with its interval,
    against all the people's decided games and against those the rules ended."""
    files = [json.loads(p.read_text(encoding="utf-8")) for p in calibration_files(folders)]
    if not files:
        return "No calibration run yet (run `python benchmarks/calibration.py`)."
    human = files[0]["human"]
    ended = human["ended"]
    rules = ended["rules"]
    rows = ["| Players | Games | Attackers win | Defenders win | Draws | Attackers' share of the decided games "
            "(95% interval) | Points from the people's share: all decided, ended by the rules |",
            "|:--|--:|--:|--:|--:|--:|--:|",
            f"| People on aagenielsen.dk | {human['games']:,} | {human['attackers']} | {human['defenders']} | "
            f"{human['draws']} (and {human['unfinished']} unfinished) | {_cell(human['share'])} | |",
            f"| … of which the rules ended | {rules['attackers'] + rules['defenders']} | {rules['attackers']} | "
            f"{rules['defenders']} | | {_cell(ended['rules_share'])} | |"]
    levels = sorted((row for data in files for row in data["levels"]), key=lambda r: r["level"])
    for row in levels:
        s = row["summary"]
        who = level_title(row["level"])
        rows.append(f"| The AI at {who}, against itself | {s['games']} | {s['attackers']['count']} | "
                    f"{s['defenders']['count']} | {s['draws']['count']} | {_cell(row['share'])} | "
                    f"{row['points_from_humans']:+.0f}, {row['points_from_rules_ended']:+.0f} |")
    return "\n".join(rows)


#: how a game ended, in the order the endings table lists them, with the side it favours
_ENDINGS = (("escape", "The king escaped", "defenders"), ("edge-fort", "An edge fort", "defenders"),
            ("king-captured", "The king was taken", "attackers"),
            ("encirclement", "Every defender encircled", "attackers"),
            ("no-moves", "The defenders had no move", "attackers"),
            ("repetition", "A repeated position (the defenders lose)", "attackers"))


def calibration_endings_md(folders: Roots, level: int = DEFAULT_LEVEL) -> str:
    """How the decided games ended, the people's and one level's self-play (its draws, games
    stopped at the ply cap, are left out), each ending counted for the side it gives the game
    to."""
    files = [json.loads(p.read_text(encoding="utf-8")) for p in calibration_files(folders)]
    default = next((row for data in files for row in data["levels"] if row["level"] == level), None)
    if default is None:
        return f"No calibration run of level {level} yet."
    ended = files[0]["human"]["ended"]
    kinds = ended["rules"]["kinds"]
    played = default["summary"]["endings"]
    who = f"AI at {level_title(level)}"
    rows = ["| How the game ended | People: attackers won | People: defenders won "
            f"| {who}: attackers won | {who}: defenders won |",
            "|:--|--:|--:|--:|--:|"]
    for kind, label, side in _ENDINGS:
        people, ai = kinds.get(kind, 0), played.get(kind, 0)
        cells = (people, "–", ai, "–") if side == "attackers" else ("–", people, "–", ai)
        rows.append(f"| {label} | " + " | ".join(map(str, cells)) + " |")
    for how, label in (("resigned", "A resignation or an agreed result"), ("time", "A player's time ran out")):
        rows.append(f"| {label} | {ended[how]['attackers']} | {ended[how]['defenders']} | – | – |")
    return "\n".join(rows)


CAPPED = "copenhagen-capped.json"


def capped_md(folders: Roots) -> str:
    """Where the default level's Copenhagen games stopped at the ply cap stood when they
    stopped (``benchmarks/calibration.py --capped N``), by how many corners the attackers had
    closed: a table and its provenance."""
    path = folders.data / CAPPED
    if not path.exists():
        return "No capped games replayed yet (run `python benchmarks/calibration.py --capped 40`)."
    data = json.loads(path.read_text(encoding="utf-8"))
    games, prov = data["games"], data["provenance"]
    n = len(games)
    rows = ["| Corners closed by the attackers | Games | The king on the edge, on a square of an open corner "
            "| The king off the edge | Men left, median: attackers, defenders |", "|--:|--:|--:|--:|--:|"]
    for closed in range(4, -1, -1):
        group = [g for g in games if g["corners_closed"] == closed]
        if group:
            rows.append(f"| {closed} | {len(group)} | {sum(g['king_on_edge'] and g['king_on_corner_square'] for g in group)} "
                        f"| {sum(not g['king_on_edge'] for g in group)} | "
                        f"{statistics.median(g['attackers'] for g in group):g}, "
                        f"{statistics.median(g['defenders'] for g in group):g} |")
    seeds = [g["seed"] for g in games]
    return ("\n".join(rows) + f"\n\nThe first {n} of the {prov['capped_in_run']} games of {level_title(prov['level'])} "
            f"that reached the cap (seeds {seeds[0]} to {seeds[-1]}), played again from `docs/data/{prov['from']}` "
            f"and read at their last position: `{prov['command']}`, code {str(prov['commit'])[:7]}, "
            f"{prov['date'][:10]}, {prov['seconds'] / 60:.0f} minutes on one core (`docs/data/{CAPPED}` "
            "holds each position).")


def calibration_provenance_md(folders: Roots) -> str:
    lines = []
    for path in calibration_files(folders):
        prov = json.loads(path.read_text(encoding="utf-8"))["provenance"]
        games = prov.get("games")
        # games an hour only for a run played in one sitting (a resumed run's seconds leave out the earlier ones)
        per_hour = round(3600 * games / prov["seconds"]) if prov.get("seconds") and games and not prov.get("resumed") \
            else None
        lines.append(f"- `docs/data/{path.name}`: {games:,} games, seeds {prov['seeds']['first']} to "
                     f"{prov['seeds']['last']}, code {str(prov.get('commit'))[:7]}, {prov.get('date', '?')[:10]}, "
                     f"{prov.get('runner', '?')}"
                     + (f"; {prov['sittings']}" if prov.get("sittings")  # a run over several sittings says how
                        else f", {prov['resumed']:,} of them played in an earlier sitting and read from the work file"
                        if prov.get("resumed") else f", {prov.get('seconds', 0) / 3600:.1f} hours")
                     + (f" ({per_hour:,} games an hour)" if per_hour else "") + "."
                     + (f" {prov['renumbered']}." if prov.get("renumbered") else ""))
    return "\n".join(lines)


HUMAN_RESULTS = "human-results.json"


def human_share(result: dict[str, Any]) -> tuple[float, float] | None:
    """The attackers' share of the decided games, as a range (low, high), from a published
    figure: counts or percentages of both sides, Nielsen's game balance (or a range of
    them), or the king's side's percentage (draws, if counted, unknown: an upper bound)."""
    def from_balance(b: float) -> float:  # -1.06: 106 attackers' wins per 100; +1.51: 151 defenders' wins per 100
        return abs(b) / (abs(b) + 1) if b < 0 else 1 / (1 + b)

    for key in ("counts", "percent"):
        if key in result:
            a, d = result[key]["attackers"], result[key]["defenders"]
            return a / (a + d), a / (a + d)
    if "balance" in result:
        x = from_balance(result["balance"])
        return x, x
    if "balance_range" in result:
        xs = sorted(from_balance(b) for b in result["balance_range"])
        return xs[0], xs[-1]
    if "king_wins_percent" in result:
        x = 1 - result["king_wins_percent"] / 100
        return x, x
    return None


def _published(result: dict[str, Any]) -> str:
    if "counts" in result:
        c = result["counts"]
        return f"{c['attackers']:,} / {c['draws']:,} / {c['defenders']:,} games"
    if "percent" in result:
        c = result["percent"]
        return f"{c['attackers']:g}% / {c['draws']:g}% / {c['defenders']:g}%"
    if "balance" in result:
        return f"game balance {result['balance']:+.2f}"
    if "balance_range" in result:
        lo, hi = result["balance_range"]
        return f"game balance {lo:+.2f} to {hi:+.2f} (three setups)"
    if "king_wins_percent" in result:
        return f"king's side wins {result['king_wins_percent']}%"
    return "none"


def _self_play(config: dict[str, Any] | None, entries: list[dict[str, Any]]) -> str:
    if not config:
        return "no catalogue layout"
    cells = []
    for e in entries:
        c = e["config"]
        if (c["variant"] == config["variant"] and (c.get("toggles") or {}) == config["toggles"]
                and level_of(e) is not None):
            s = e["summary"]
            a, d = s["attackers"]["count"], s["defenders"]["count"]
            cells.append((level_of(e), f"level {level_of(e)}: {pct(a / (a + d)) if a + d else '–'} "
                                       f"({s['games']} games, {pct(s['draws']['rate'])} drawn)"))
    return "; ".join(text for _lv, text in sorted(cells)) or "not played"


def readings_words(vid: str, toggles: dict[str, str]) -> str:
    """Toggles as a reader knows them: the label of each reading in force, never a field name."""
    v = catalogue.variant(vid)
    return "; ".join(v.toggles[name].readings[value].label for name, value in sorted(toggles.items()))


def human_results_md(folders: Roots, entries: list[dict[str, Any]]) -> str:
    data = json.loads((folders.data / HUMAN_RESULTS).read_text(encoding="utf-8"))
    rows = ["| Rules as those people played them, who played, and the source | Published (attackers / draws / "
            "defenders) | Attackers' share of the decided games | Self-play on the same rules: attackers' share of "
            "the decided games |",
            "|:--|:--|--:|:--|"]
    for r in data["results"]:
        share = human_share(r)
        if share is None:
            share_text = "not given as a figure"
        elif share[0] == share[1]:
            share_text = pct(share[0]) + (" (at most: draws unknown)" if "king_wins_percent" in r else "")
        else:
            share_text = f"{pct(share[0])}–{pct(share[1])}"
        config = r["config"]
        rules = r["rules"] + ("" if r["match"] == "same" else f" *(close to the catalogue's: {r['differences']})*")
        if config:
            changes = readings_words(config["variant"], config["toggles"])
            rules += f" — here {{variant}}`{config['variant']}`" + (f", with {changes}" if changes else "")
        src = r["source"]
        cite = (f"{src['author']}, [{src['title']}]({src['url']})" + (f", {src['date']}" if src.get("date") else "")
                + f" {{cite:p}}`{src['cite']}`")
        ended = r.get("ended")
        counts = f" What it counts: {ended['counts']}; how the games ended is not published." if ended and not ended["known"] else ""
        rows.append(f"| {rules}. {r['players']}{counts} Source: {cite}. | {_published(r)} | {share_text} | "
                    f"{_self_play(config, entries)} |")
    return "\n".join(rows)


LEVEL_COLOURS = {1: "#c77c1e", 2: "#2f7fbf", 3: "#3a9a5b", 4: "#8e5bb5", 5: "#b5472f"}


def decided_share(summary: dict[str, Any]) -> tuple[float, float, float, int]:
    """The attackers' share of the decided games and its 95% Wilson interval, and how many were decided."""
    a, d = summary["attackers"]["count"], summary["defenders"]["count"]
    lo, hi = wilson(a, a + d)
    return (a / (a + d) if a + d else 0.5), lo, hi, a + d


def plain_rows(entries: list[dict[str, Any]], variants: Sequence[str] | None = None) -> dict[str, dict[int, dict[str, Any]]]:
    """Each variant's summaries (the variant as it stands, no toggles) by the level both sides played
    (every reconstruction of the catalogue, unless ``variants`` names others)."""
    rows: dict[str, dict[int, dict[str, Any]]] = {}
    for vid in catalogue.reconstructions() if variants is None else variants:
        for e in entries:
            if e["config"]["variant"] == vid and not e["config"].get("toggles") and (level := level_of(e)):
                rows.setdefault(vid, {})[level] = e["summary"]
    return rows


def level_chart_svg(entries: list[dict[str, Any]], variants: Sequence[str] | None = None) -> str:
    """The attackers' share of the decided games at each level played, one row per reconstruction
    (matplotlib, drawn to SVG at build time; axes and text in ``currentColor`` so that the page's
    light or dark mode colours them)."""
    with matplotlib.rc_context(CHART_RC):
        return _level_chart_svg(entries, variants)


def _level_chart_svg(entries: list[dict[str, Any]], variants: Sequence[str] | None) -> str:
    rows = [(vid, {lv: decided_share(summary) for lv, summary in by_level.items()})
            for vid, by_level in plain_rows(entries, variants).items()]
    fig, ax = _figure(height=0.36 * len(rows) + 1.3)
    levels_seen = set()
    for i, (vid, points) in enumerate(rows):
        y = len(rows) - 1 - i
        xs = [points[lv][0] for lv in sorted(points)]
        ax.plot(xs, [y] * len(xs), color="#9a9a9a", linewidth=1, zorder=1)
        for j, lv in enumerate(sorted(points)):
            share, lo, hi, _n = points[lv]
            dy = (j - (len(points) - 1) / 2) * 0.18
            ax.errorbar(share, y + dy, xerr=[[max(0.0, share - lo)], [max(0.0, hi - share)]], fmt="o", markersize=5,
                        color=LEVEL_COLOURS.get(lv, "#777777"), elinewidth=1, capsize=2, zorder=2,
                        label=f"level {level_label(lv)}" if lv not in levels_seen else None)
            levels_seen.add(lv)
    ax.axvline(0.5, color="#9a9a9a", linestyle="--", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [catalogue.variant(vid).name for vid, _p in reversed(rows)])
    ax.set_xlim(0, 1)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0%", "25%", "50%", "75%", "100%"])
    ax.set_xlabel("attackers' share of the decided games (95% intervals); 50% = even")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=max(1, len(levels_seen)), frameon=False)
    return _svg(fig, "balance-level-chart",
                "The attackers' share of the decided games at each AI level, per reconstruction")


class LevelChart(BalanceDirective):
    def run(self) -> list[nodes.Node]:
        # on a phone the chart keeps a legible size and scrolls sideways in its own box, which
        # can take the focus so that the keyboard can scroll it too
        return [nodes.raw("", chart_box(level_chart_svg(self.entries()), "Chart: the attackers' share at each AI level",
                                        "tafl-chart-box balance-level-chart-box"), format="html")]


TEXEL = "texel.json"


def texel_md(folders: Roots) -> str:
    """The Texel tuning's fit (``docs/data/texel.json``, from ``benchmarks/texel.py``) on the games
    it never saw."""
    path = folders.data / TEXEL
    if not path.exists():
        return ""
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = ["| Weights | Positions | Mean squared error | Log loss | The side the evaluation favoured won |",
            "|:--|--:|--:|--:|--:|"]
    names = {"constant": "none (always the training games' average)", "hand-set": "hand-set (levels 1 and 2)",
             "tuned": "tuned", "rounded": "tuned, rounded (`TUNED_WEIGHTS`)"}
    for what, m in data["fit"]["held-out"].items():
        fav = "" if m["favoured_side_won"] is None else pct(m["favoured_side_won"])
        rows.append(f"| {names.get(what, what)} | {m['positions']:,} | {m['mse']:.4f} | {m['log_loss']:.4f} | {fav} |")
    prov = data["provenance"]
    return (f"Fit on the held-out games ({prov['split'].split(';')[0]}), which the tuning never saw; "
            f"`{prov['command']}`, {prov['date'][:10]}:\n\n" + "\n".join(rows))


class TexelFit(BalanceDirective):
    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(self.folders.data / TEXEL))
        return self.parse_md(texel_md(self.folders) or "No tuning run yet (run `python benchmarks/texel.py --out docs/data/texel.json`).")


class CalibrationTable(BalanceDirective):
    """The calibration table with its provenance; with ``:endings:``, how the games ended."""
    option_spec = {"endings": directives.flag, "capped": directives.flag, "level": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        for path in calibration_files(self.folders):
            self.env.note_dependency(str(path))
        if "endings" in self.options:
            return self.parse_md(calibration_endings_md(self.folders, self.options.get("level", DEFAULT_LEVEL)))
        if "capped" in self.options:
            self.env.note_dependency(str(self.folders.data / CAPPED))
            return self.parse_md(capped_md(self.folders))
        return self.parse_md(calibration_md(self.folders) + "\n\n" + calibration_provenance_md(self.folders))


class HumanResults(BalanceDirective):
    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(self.folders.data / HUMAN_RESULTS))
        return self.parse_md(human_results_md(self.folders, self.entries(level=None)))


class AiLevels(BalanceDirective):
    def run(self) -> list[nodes.Node]:
        return self.parse_md(levels_md(self.folders))


class TournamentTable(BalanceDirective):
    optional_arguments = 1  # the file in docs/data (default tournament.json)

    def run(self) -> list[nodes.Node]:
        path = self.folders.data / (self.arguments[0] if self.arguments else "tournament.json")
        if not path.exists():
            return self.parse_md("No tournament results yet (run `python benchmarks/tournament.py`).")
        self.env.note_dependency(str(path))
        return self.parse_md(tournament_md(json.loads(path.read_text(encoding="utf-8"))))


def setup_balance(app: Sphinx) -> None:
    app.connect("env-get-outdated", _results_files_added)
    app.add_directive("tournament-table", TournamentTable)
    app.add_directive("ai-levels", AiLevels)
    app.add_directive("calibration-table", CalibrationTable)
    app.add_directive("human-results", HumanResults)
    app.add_directive("level-chart", LevelChart)
    app.add_directive("texel-fit", TexelFit)
    app.add_directive("balance-table", BalanceTable)
    app.add_directive("balance-chart", BalanceChart)
    app.add_directive("balance-row", BalanceRow)
    app.add_directive("balance-provenance", BalanceProvenance)
