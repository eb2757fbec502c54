"""The balance lab's results on the site: a table and a chart drawn at build time.

Everything comes from the committed JSON files ``docs/data/balance*.json`` written
by ``python -m tafl_rules balance`` (see :mod:`tafl_rules.balance`); nothing is
computed in the browser and the chart is an inline SVG made here.

Directives
    ``balance-table``          every configuration: wins of each side and draws with
                               95% Wilson intervals, games, lengths, endings
                               (``:level: N``: only the games with both sides at level N;
                               default 1)
    ``balance-chart``          the same as horizontal stacked bars with the intervals
                               (``:level:`` as above)
    ``balance-row <variant>``  one variant's own rows at every level played (and its
                               single-toggle rows, if any)
    ``balance-provenance``     how, when and from which code the results were made
    ``tournament-table``       the AI's levels against each other (``docs/data/tournament.json``,
                               written by ``benchmarks/tournament.py``)
    ``ai-levels``              what each level is allowed to search (from ``tafl_rules.ai.LEVELS``)
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from tafl_rules.balance import sign_test

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "docs" / "data"
COLOURS = {"attackers": "#b5472f", "draws": "#b9b3a8", "defenders": "#2f5f8a"}


def result_files() -> list[Path]:
    """``balance.json`` first, then the other ``balance*.json`` files by name."""
    files = sorted(DATA.glob("balance*.json"), key=lambda p: (p.name != "balance.json", p.name))
    return [p for p in files if not p.name.endswith(".work.jsonl")]


def load_results() -> list[dict[str, Any]]:
    """Every configuration's entry, with its file's provenance under ``"provenance"``."""
    out = []
    seen = set()
    for path in result_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data["results"]:
            if entry["key"] in seen:
                continue
            seen.add(entry["key"])
            out.append({**entry, "provenance": data["provenance"], "file": path.name})
    try:  # the site's order: catalogue variants, then the single-toggle changes
        from tafl_rules.balance import site_configs

        order = {c.key: i for i, c in enumerate(site_configs())}
    except Exception:  # noqa: BLE001 - keep the files' order if the package cannot say
        order = {}
    return sorted(out, key=lambda e: order.get(e["key"], len(order)))


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def _cell(part: dict) -> str:
    return f"{_pct(part['rate'])} ({_pct(part['low'])}–{_pct(part['high'])})"


def level_of(entry: dict) -> int | None:
    """The AI level both sides played at (None if the two sides differ)."""
    config = entry["config"]
    a, d = config["attackers_level"], config["defenders_level"]
    return a if a == d else None


def _level_suffix(entry: dict) -> str:
    level = level_of(entry)
    return "" if level == 1 else f", level {level}" if level else \
        f", levels {entry['config']['attackers_level']} v {entry['config']['defenders_level']}"


def _label_md(entry: dict) -> str:
    config = entry["config"]
    vid = config["variant"]
    toggles = config.get("toggles") or {}
    if not toggles:
        return f"{{variant}}`{vid}`{_level_suffix(entry)}"
    changes = ", ".join(f"{{toggle}}`{name}={value} <{vid}:{name}={value}>`" for name, value in sorted(toggles.items()))
    return f"{{variant}}`{vid} <{vid}>` with {changes}{_level_suffix(entry)}"


def _label_text(entry: dict) -> str:
    config = entry["config"]
    toggles = config.get("toggles") or {}
    text = config["variant"]
    if toggles:
        text += " · " + ", ".join(f"{k}={v}" for k, v in sorted(toggles.items()))
    return text + _level_suffix(entry)


def table_md(entries: list[dict]) -> str:
    rows = ["| Rules | Games | Attackers win | Defenders win | Draws | Plies, mean / median | King escaped / taken |",
            "|:--|--:|--:|--:|--:|--:|--:|"]
    for e in entries:
        s = e["summary"]
        rows.append(f"| {_label_md(e)} | {s['games']} | {_cell(s['attackers'])} | {_cell(s['defenders'])} | "
                    f"{_cell(s['draws'])} | {s['mean_plies']:.0f} / {s['median_plies']:g} | {s['king_escaped']} / {s['king_captured']} |")
    return "\n".join(rows)


def chart_svg(entries: list[dict], *, svg_id: str = "balance-chart") -> str:
    """Stacked bars (attackers' wins, draws, defenders' wins) with the 95% intervals of
    both sides' win rates drawn as whiskers, one row per configuration."""
    label_w, plot_w, row_h, top = 330, 420, 20, 34
    width = label_w + plot_w + 20
    height = top + row_h * len(entries) + 30
    x0 = label_w
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="{svg_id}" class="balance-chart" role="img" '
           f'viewBox="0 0 {width} {height}" width="100%" style="max-width:{width}px" '
           f'font-family="sans-serif" font-size="11">',
           "<title>Win rates of attackers and defenders in self-play, with 95% Wilson intervals</title>"]
    # legend
    lx = x0
    for name, label in (("attackers", "attackers win"), ("draws", "draw"), ("defenders", "defenders win")):
        out.append(f'<rect x="{lx}" y="6" width="12" height="12" fill="{COLOURS[name]}"/>'
                   f'<text x="{lx + 16}" y="16">{label}</text>')
        lx += 110
    for i, e in enumerate(entries):
        s = e["summary"]
        y = top + i * row_h
        a, d, dr = s["attackers"]["rate"], s["defenders"]["rate"], s["draws"]["rate"]
        label = html.escape(_label_text(e))
        out.append(f'<text x="{label_w - 8}" y="{y + 13}" text-anchor="end">{label}</text>')
        tip = html.escape(f"{_label_text(e)}: attackers {_cell(s['attackers'])}, draws {_cell(s['draws'])}, "
                          f"defenders {_cell(s['defenders'])}; {s['games']} games")
        out.append(f"<g><title>{tip}</title>")
        out.append(f'<rect x="{x0}" y="{y + 3}" width="{a * plot_w:.1f}" height="12" fill="{COLOURS["attackers"]}"/>')
        out.append(f'<rect x="{x0 + a * plot_w:.1f}" y="{y + 3}" width="{dr * plot_w:.1f}" height="12" '
                   f'fill="{COLOURS["draws"]}"/>')
        out.append(f'<rect x="{x0 + (a + dr) * plot_w:.1f}" y="{y + 3}" width="{d * plot_w:.1f}" height="12" '
                   f'fill="{COLOURS["defenders"]}"/>')
        lo, hi = s["attackers"]["low"], s["attackers"]["high"]
        out.append(f'<path d="M{x0 + lo * plot_w:.1f} {y + 6}H{x0 + hi * plot_w:.1f}M{x0 + lo * plot_w:.1f} {y + 3}'
                   f'V{y + 9}M{x0 + hi * plot_w:.1f} {y + 3}V{y + 9}" stroke="#000" fill="none"/>')
        lo, hi = s["defenders"]["low"], s["defenders"]["high"]
        a_lo, a_hi = x0 + (1 - hi) * plot_w, x0 + (1 - lo) * plot_w
        out.append(f'<path d="M{a_lo:.1f} {y + 12}H{a_hi:.1f}M{a_lo:.1f} {y + 9}V{y + 15}M{a_hi:.1f} {y + 9}V{y + 15}" '
                   f'stroke="#fff" fill="none"/>')
        out.append("</g>")
    axis_y = top + row_h * len(entries) + 4
    for p in (0, 25, 50, 75, 100):
        x = x0 + p / 100 * plot_w
        out.append(f'<line x1="{x}" y1="{top}" x2="{x}" y2="{axis_y}" stroke="#000" stroke-opacity="'
                   f'{0.6 if p == 50 else 0.15}"/>')
        out.append(f'<text x="{x}" y="{axis_y + 14}" text-anchor="middle">{p}%</text>')
    out.append("</svg>")
    return "".join(out)


def select(entries: list[dict], variant: str | None = None, level: int | None = None) -> list[dict]:
    """The entries of one variant (all if None) played with both sides at ``level`` (any if None)."""
    return [e for e in entries if (variant is None or e["config"]["variant"] == variant)
            and (level is None or level_of(e) == level)]


class _BalanceDirective(SphinxDirective):
    has_content = False

    def entries(self, variant: str | None = None, level: int | None = None) -> list[dict]:
        self.env.note_dependency(str(DATA))  # a results file added later must rebuild the page too
        for path in result_files():
            self.env.note_dependency(str(path))
        return select(load_results(), variant, level)

    def parse_md(self, text: str) -> list[nodes.Node]:
        container = nodes.container()
        self.state.nested_parse(StringList(text.splitlines(), source=self.env.docname), 0, container)
        return container.children


class BalanceTable(_BalanceDirective):
    option_spec = {"level": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        level = self.options.get("level", 1)
        entries = self.entries(level=level)
        if not entries:
            return [self.state.document.reporter.warning(
                f"balance-table: no level-{level} results in docs/data/balance*.json", line=self.lineno)]
        return self.parse_md(table_md(entries))


class BalanceChart(_BalanceDirective):
    option_spec = {"level": directives.positive_int}

    def run(self) -> list[nodes.Node]:
        level = self.options.get("level", 1)
        entries = self.entries(level=level)
        if not entries:
            return [self.state.document.reporter.warning(
                f"balance-chart: no level-{level} results in docs/data/balance*.json", line=self.lineno)]
        return [nodes.raw("", chart_svg(entries, svg_id=f"balance-chart-{level}" if level != 1 else "balance-chart"),
                          format="html")]


class BalanceRow(_BalanceDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        vid = self.arguments[0]
        entries = self.entries(vid)
        if not entries:
            return self.parse_md(f"No self-play results for `{vid}` yet (see {{doc}}`/docs/fairest`).")
        entries.sort(key=lambda e: level_of(e) or 0)  # level 1 first, as on the fairest page
        note = ("Self-play of the site's AI (both sides at level 1 unless the line says otherwise), "
                "95% Wilson intervals; how and why: {doc}`/docs/fairest`.")
        return self.parse_md(table_md(entries) + "\n\n" + note)


class BalanceProvenance(_BalanceDirective):
    def run(self) -> list[nodes.Node]:
        self.entries()
        lines = []
        for path in result_files():
            p = json.loads(path.read_text(encoding="utf-8"))["provenance"]
            seeds = p.get("seeds", {})
            commit = (p.get("commit") or "unknown")[:10]
            lines.append(f"- `docs/data/{path.name}`: {p['games']} games, seeds {seeds.get('first')} to "
                         f"{seeds.get('last')}, made {p['date']} by tafl_rules {p['version']} (commit `{commit}`, "
                         f"Python {p.get('python', '?')}, {p.get('runner', '?')}, {p.get('seconds', '?')} s).")
        return self.parse_md("\n".join(lines))


def _p_value(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def tournament_md(data: dict) -> str:
    rows = ["| Pair | Games | Higher level wins | Draws | Losses | Win rate (95% interval) | Score | "
            "Sign test *p* | As attackers W/D/L | As defenders W/D/L |",
            "|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in sorted(data["table"], key=lambda r: (r["higher"], r["lower"])):
        a = "/".join(map(str, r["by_side"]["attackers"]))
        d = "/".join(map(str, r["by_side"]["defenders"]))
        rows.append(f"| {r['higher']} v {r['lower']} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | "
                    f"{_pct(r['win_rate'])} ({_pct(r['win_low'])}–{_pct(r['win_high'])}) | {_pct(r['score'])} | "
                    f"{_p_value(sign_test(r['wins'], r['losses']))} | {a} | {d} |")
    variants = ", ".join(f"{{variant}}`{v}`" for v in data["table"][0]["variants"]) if data["table"] else ""
    p = data["provenance"]
    opening = data.get("opening_plies", 0)
    opening = f"; the first {opening} plies of each game played at random (seeded)" if opening else ""
    note = (f"Variants: {variants}; ply cap {data['ply_cap']} (a game reaching it is a draw){opening}; score counts a draw "
            f"as half; the sign test asks how likely so uneven a split of the decisive games would be between "
            f"equal players (draws left out). Made {p['date']} by tafl_rules {p['version']} (commit `{(p.get('commit') or '?')[:10]}`), "
            f"{p['games']} games.")
    return "\n".join(rows) + "\n\n" + note + "\n\n" + tournament_by_variant_md(data)


def tournament_by_variant(data: dict) -> dict[tuple[int, str, str], tuple[int, int, int]]:
    """The higher level's wins, draws and losses for each (higher level, variant, side it took)."""
    out = {}
    for e in data["results"]:
        c, s = e["config"], e["summary"]
        la, ld = c["attackers_level"], c["defenders_level"]
        side = "attackers" if la > ld else "defenders"
        wins, draws = s[side]["count"], s["draws"]["count"]
        out[(max(la, ld), c["variant"], side)] = (wins, draws, s["games"] - wins - draws)
    return out


def tournament_by_variant_md(data: dict) -> str:
    """One row per pair, one column per variant: how the higher level fared on each side."""
    if not data["table"]:
        return ""
    variants = data["table"][0]["variants"]
    cells = tournament_by_variant(data)
    rows = ["| Pair | " + " | ".join(f"{{variant}}`{v}`" for v in variants) + " |",
            "|:--|" + "--:|" * len(variants)]
    for r in sorted(data["table"], key=lambda r: (r["higher"], r["lower"])):
        line = [f"{r['higher']} v {r['lower']}"]
        for v in variants:
            a, d = ("/".join(map(str, cells[(r["higher"], v, side)])) for side in ("attackers", "defenders"))
            line.append(f"attacking {a}, defending {d}")
        rows.append("| " + " | ".join(line) + " |")
    return ("The same games by variant (the higher level's wins/draws/losses as each side):\n\n"
            + "\n".join(rows))


def levels_md() -> str:
    from tafl_rules.ai import DEFAULT_LEVEL, LEVELS

    rows = ["| Level | Name | Deepest iteration (plies) | Node budget | Picks among moves within | Time cap |",
            "|--:|:--|--:|--:|--:|--:|"]
    for n, spec in LEVELS.items():
        name = spec.name + (" (the board's default)" if n == DEFAULT_LEVEL else "")
        margin = f"{spec.margin} points of the best" if spec.margin else "(the best only)"
        rows.append(f"| {n} | {name} | {spec.depth} | {spec.nodes:,} | {margin} | {spec.time_cap:g} s |")
    return "\n".join(rows)


class AiLevels(_BalanceDirective):
    def run(self) -> list[nodes.Node]:
        return self.parse_md(levels_md())


class TournamentTable(_BalanceDirective):
    optional_arguments = 1  # the file in docs/data (default tournament.json)

    def run(self) -> list[nodes.Node]:
        path = DATA / (self.arguments[0] if self.arguments else "tournament.json")
        if not path.exists():
            return self.parse_md("No tournament results yet (run `python benchmarks/tournament.py`).")
        self.env.note_dependency(str(path))
        return self.parse_md(tournament_md(json.loads(path.read_text(encoding="utf-8"))))


def setup_balance(app: Sphinx) -> None:
    app.add_directive("tournament-table", TournamentTable)
    app.add_directive("ai-levels", AiLevels)
    app.add_directive("balance-table", BalanceTable)
    app.add_directive("balance-chart", BalanceChart)
    app.add_directive("balance-row", BalanceRow)
    app.add_directive("balance-provenance", BalanceProvenance)
