"""Jones's question answered by the people-like player: the answer, its chart and its evidence.

Everything is read from committed data written by the project's commands, so that no sentence
on the pages has to be edited when a run goes on:

- ``docs/data/people-balance*.json``: every reconstruction and Jones's points played by the
  people-like player (``python -m tafl_rules balance --level people ...``);
- ``docs/data/people-calibration.json``: the player beside people's published results, fitted
  in and out of sample (``benchmarks/people_calibration.py``);
- ``docs/data/move-model.json``: how often the move model plays the person's move
  (``benchmarks/train_people.py``).

Directives
    ``people-answer``       the answer in plain words (which reconstructions could be even
                            games, which favour either side), with the player's error
    ``people-chart``        for each layout, the player's share beside people's result where one
                            is published, with intervals (matplotlib, SVG at build time)
    ``people-verdicts``     the same as a table, each interval widened by the player's error
    ``people-calibration``  the calibration table: people, the player in and out of sample
    ``move-model``          the move model's agreement with people's moves, beside the AI's levels
    ``people-jones <id>``   Jones's three points read the other way on a layout, by the player
    ``people-runs``         the runs' provenance and the commands that make them again
    ``people-calibration-runs``  the calibration run's provenance and command

A verdict reads the attackers' share of the decided games: its 95% Wilson interval, widened on
both sides by the player's mean out-of-sample error against people's results. Wholly above 50%:
the attackers are ahead; wholly below: the defenders; otherwise it could be an even game.
"""

from __future__ import annotations

import functools
import json
import re
import textwrap
from pathlib import Path
from typing import Any, Callable

import matplotlib
import matplotlib.lines
import matplotlib.patches
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from tafl_rules import catalogue
from tafl_rules.ai.people import parse_style
from tafl_rules.balance import JONES_REVERSED, wilson

from .balance import CHART_RC, COLOURS, _figure, _pct, _svg, chart_box, data_dir, readings_words
from .util import MarkdownDirective
from .jones_points import nearer_even

CALIBRATION = "people-calibration.json"
MOVE_MODEL = "move-model.json"
#: what the player was asked to reach against people's results, out of sample (issue 28 of the project)
GOAL_MAE, GOAL_SPEARMAN, GOAL_CAP = 7.0, 0.8, 10.0
VERDICTS = ("attackers ahead", "could be even", "defenders ahead")


def run_files() -> list[Path]:
    """The people-like player's results files, by name."""
    return sorted(data_dir().glob("people-balance*.json"))


@functools.lru_cache(maxsize=4)
def _read(path: Path, mtime: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def read(path: Path) -> dict[str, Any]:
    return _read(path, path.stat().st_mtime_ns)


def entries() -> dict[str, dict[str, Any]]:
    """Every configuration the people-like player played, by key: the run with most games
    (a longer run of a configuration extends a shorter one seed for seed)."""
    out: dict[str, dict[str, Any]] = {}
    for path in run_files():
        data = read(path)
        for e in data["results"]:
            e = {**e, "file": path.name, "provenance": data["provenance"]}
            if e["key"] not in out or e["summary"]["games"] > out[e["key"]]["summary"]["games"]:
                out[e["key"]] = e
    return out


def error_points() -> float:
    """The player's mean absolute out-of-sample error against people's results, in points."""
    return float(read(data_dir() / CALIBRATION)["summary"]["mae_out"])


def decided(summary: dict[str, Any]) -> tuple[float, float, float, int]:
    """The attackers' share of the decided games, its 95% Wilson interval, and how many were decided."""
    a, d = summary["attackers"]["count"], summary["defenders"]["count"]
    lo, hi = wilson(a, a + d)
    return (a / (a + d) if a + d else 0.5), lo, hi, a + d


def verdict(summary: dict[str, Any], error: float) -> str:
    """``attackers ahead``, ``defenders ahead`` or ``could be even``: the decided games' 95%
    interval, widened by ``error`` points on each side, against 50% (in whole percents, as
    the page prints them)."""
    _, lo, hi, n = decided(summary)
    if not n:
        return "could be even"
    lo, hi = round(100 * lo - error), round(100 * hi + error)
    return "attackers ahead" if lo > 50 else "defenders ahead" if hi < 50 else "could be even"


def reader_name(config: dict[str, Any]) -> str:
    """A configuration as readers know it: the variant's name, and its readings in words."""
    v = catalogue.variant(config["variant"])
    toggles = config.get("toggles") or {}
    return f"{v.name}, with {readings_words(v.id, toggles)}" if toggles else v.name


def plain_entries() -> list[dict[str, Any]]:
    """The people-like player's run of each reconstruction as it stands (no toggles), in site order."""
    found = {e["config"]["variant"]: e for e in entries().values() if not e["config"].get("toggles")}
    return [found[v] for v in catalogue.reconstructions() if v in found]


def people_points() -> dict[str, list[dict[str, Any]]]:
    """People's published results by rule set (``variant?toggles``), from the calibration record."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in read(data_dir() / CALIBRATION)["rows"]:
        out.setdefault(row["rule_set"], []).append(row)
    return out


def rule_set(config: dict[str, Any]) -> str:
    """A configuration's rules as the calibration names them: ``variant?toggle=reading&...``."""
    toggles = "&".join(f"{k}={v}" for k, v in sorted((config.get("toggles") or {}).items()))
    return str(config["variant"]) + ("?" + toggles if toggles else "")


def _names(items: list[str]) -> str:
    if not items:
        return "none"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def answer_md() -> str:
    """The answer in plain words: how many reconstructions could be even games between people and
    which favour a side (named; the largest group is only counted when it is most of them, the chart
    beside the answer names every one), and how sure that is."""
    error = error_points()
    rows = plain_entries()
    by: dict[str, list[str]] = {v: [] for v in VERDICTS}
    for e in rows:
        by[verdict(e["summary"], error)].append(f"{{variant}}`{e['config']['variant']}`")
    games = min(e["summary"]["games"] for e in rows)
    even = by["could be even"]
    named = len(even) <= len(rows) // 2
    lead = (f"**{len(even)} of the {len(rows)} reconstructions could be even games between people**, as far as "
            f"we can tell" + (f": {_names(even)}." if named else ".")
            if even else f"**None of the {len(rows)} reconstructions is shown to be an even game.**")
    only = "" if named else " only"
    sides = []
    if by["attackers ahead"]:
        sides.append(f"the attackers are ahead{only} in {_names(by['attackers ahead'])}")
    if by["defenders ahead"]:
        sides.append(f"the king's side is ahead{only} in {_names(by['defenders ahead'])}")
    said = "; ".join(sides)
    return "\n".join([
        lead + (f" {said[0].upper()}{said[1:]}." if said else "") + jones_sentence(),
        "",
        f"Each verdict rests on {games} games or more of a computer player that moves as people do. On rules it "
        f"was not fitted to it misses people's results by {error:.0f} points on average, and every verdict "
        f"allows for that.",
    ])


#: Jones's layouts whose points the answer sums up
JONES_LAYOUTS = ("jones-3", "hywel-dda-jones")


def jones_findings() -> dict[tuple[str, str], str]:
    """For each of Jones's points read the other way (and all three), on each of his layouts, how it
    compares with his reading (:func:`tafl_sphinx.jones_points.nearer_even`)."""
    found = {(e["config"]["variant"], tuple(sorted((e["config"].get("toggles") or {}).items()))): e["summary"]
             for e in entries().values()}
    out = {}
    for vid in JONES_LAYOUTS:
        for change in [*JONES_REVERSED[1], None]:
            key = tuple(sorted(JONES_REVERSED[1])) if change is None else (change,)
            if (vid, ()) in found and (vid, key) in found:
                out[(vid, change[0] if change else "all")] = nearer_even(found[(vid, ())], found[(vid, key)])
    return out


def jones_sentence() -> str:
    """Jones's hypothesis in one sentence: which of his points, read the king's way, moves the game
    away from even on both his layouts, and which changes nothing the intervals can see."""
    found = jones_findings()
    words = {"first": "the king's side moving first", "king_armed": "an armed king", "confinement": "a whole side to confine"}
    away = [words[p] for p in words if all(found.get((v, p)) == "his reading nearer even" for v in JONES_LAYOUTS)]
    same = [words[p] for p in words
            if all(found.get((v, p)) == "no difference the intervals can see" for v in JONES_LAYOUTS)]
    if not away and not same:
        return ""
    parts = []
    if away:
        parts.append(f"{_names(away)} {'makes' if len(away) == 1 else 'make'} the game less even on both his layouts")
    if same:
        parts.append(f"{_names(same)} {'changes' if len(same) == 1 else 'change'} nothing measurable")
    return " Of Jones's three points read the king's way, " + "; ".join(parts) + "."


def chart_rows() -> list[dict[str, Any]]:
    """The chart's rows: each reconstruction's run, with people's results on the same rules."""
    points = people_points()
    return [{"name": reader_name(e["config"]), "summary": e["summary"], "people": points.get(rule_set(e["config"]), [])}
            for e in plain_entries()]


LABEL = ("For each reconstruction, the attackers' share of the decided games: the people-like player's, with "
         "its 95% interval and that interval widened by its error, beside people's results on the same rules")


def chart_svg(narrow: bool = False) -> str:
    """One row per reconstruction: the player's attackers' share of the decided games as a dot
    with its 95% interval (and, broad and light, the interval widened by the player's error);
    people's results on the same rules as diamonds (with their interval where counts are
    published). ``narrow``: drawn for a phone, each name above its row (wrapped), the whole
    no wider than a phone's page."""
    with matplotlib.rc_context({**CHART_RC, "font.size": 9}):
        return _chart(narrow)


def _chart(narrow: bool) -> str:
    rows = chart_rows()
    error = error_points() / 100
    names = [textwrap.wrap(row["name"], 46) if narrow else [row["name"]] for row in rows]
    heights = [0.95 + 0.62 * len(lines) if narrow else 1.0 for lines in names]
    tops = [sum(heights[i + 1:]) for i in range(len(rows))]  # the first row at the top
    fig, ax = _figure(height=(0.23 * sum(heights) + 0.8) if narrow else 0.3 * len(rows) + 0.9)
    fig.set_figwidth(3.45 if narrow else 7.0)
    for row, lines, top in zip(rows, names, tops):
        share, lo, hi, _ = decided(row["summary"])
        y = top + 0.45 if narrow else top + 0.5
        ax.plot([max(0, lo - error), min(1, hi + error)], [y, y], color=COLOURS["draws"], linewidth=6,
                solid_capstyle="butt")
        ax.plot([lo, hi], [y, y], color="#000000", linewidth=1.4)
        ax.plot([share], [y], "o", color=COLOURS["attackers"], markersize=5)
        for p in row["people"]:
            if p.get("people_low") is not None:
                ax.plot([p["people_low"], p["people_high"]], [y - 0.25, y - 0.25], color=COLOURS["defenders"],
                        linewidth=1.2)
            ax.plot([p["people"]], [y - 0.25], "D", color=COLOURS["defenders"], markersize=4.5)
        if narrow:
            ax.text(0, y + 0.3, "\n".join(lines), fontsize=9, va="bottom", ha="left", color="#000000",
                    linespacing=1.1)
    ax.axvline(0.5, color="#000000", linewidth=0.6, alpha=0.6)
    ax.set_ylim(0, sum(heights))
    if narrow:
        ax.set_yticks([])
        ax.spines["left"].set_visible(False)
    else:
        ax.set_yticks([top + 0.5 for top in tops], [lines[0] for lines in names])
    ax.set_xlim(0, 1)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1], ["0%", "25%", "50%", "75%", "100%"])
    ax.set_xlabel("attackers' share of the decided games (50%: even)", fontsize=9)
    handles = [matplotlib.lines.Line2D([], [], color=COLOURS["attackers"], marker="o", linestyle="-",
                                       markeredgecolor=COLOURS["attackers"], label="the player (95%)"),
               matplotlib.patches.Patch(color=COLOURS["draws"], label="with its error"),
               matplotlib.lines.Line2D([], [], color=COLOURS["defenders"], marker="D", linestyle="",
                                       label="people")]
    ax.legend(handles=handles, loc="lower center" if not narrow else "lower left",
              bbox_to_anchor=(0.5, 1.0) if not narrow else (0, 1.0), ncol=3 if not narrow else 2,
              frameon=False, fontsize=9, handlelength=1.4, columnspacing=1.0)
    return _svg(fig, "people-chart", LABEL)


def verdicts_md() -> str:
    error = error_points()
    points = people_points()
    out = ["| Reconstruction | Games | Attackers' share of decided games | Widened by the player's error | "
           "Verdict | People's result |", "|:--|--:|:--|:--|:--|:--|"]
    for e in plain_entries():
        share, lo, hi, _ = decided(e["summary"])
        people = points.get(rule_set(e["config"]), [])
        said = "; ".join(f"{100 * p['people']:.0f}%" for p in people) or "none published"
        out.append(f"| {{variant}}`{e['config']['variant']}` | {e['summary']['games']} | {100 * share:.0f}% "
                   f"[{100 * lo:.0f}–{100 * hi:.0f}] | [{max(0, round(100 * lo - error))}–"
                   f"{min(100, round(100 * hi + error))}] | {verdict(e['summary'], error)} | {said} |")
    return "\n".join(out)


def calibration_md() -> str:
    data = read(data_dir() / CALIBRATION)
    s = data["summary"]
    out = ["| People's results | People | Player, in sample | Player, out of sample | Games | At the ply cap |",
           "|:--|:--|:--|:--|--:|--:|"]
    for r in data["rows"]:
        people = (f"{100 * r['people']:.1f}% [{100 * r['people_low']:.0f}–{100 * r['people_high']:.0f}]"
                  if r["people_counts"] else f"{100 * r['people']:.1f}% (no counts published)")
        i, o = r["in_sample"], r["out_of_sample"]
        out.append(f"| {r['label']} | {people} | {100 * i['share']:.1f}% [{100 * i['low']:.0f}–{100 * i['high']:.0f}] | "
                   f"{100 * o['share']:.1f}% [{100 * o['low']:.0f}–{100 * o['high']:.0f}] | {o['games']} | "
                   f"{100 * o['ply_cap'] / max(1, o['games']):.1f}% |")
    cap = 100 * s["cap_share_max_out"]
    met = [s["mae_out"] <= GOAL_MAE, s["spearman_out"] >= GOAL_SPEARMAN, cap < GOAL_CAP]
    out += ["", f"Mean absolute error: {s['mae_in']:.1f} points in sample, **{s['mae_out']:.1f} out of sample**. "
                f"Spearman rank correlation with people's results: {s['spearman_in']:.2f} in sample, "
                f"{s['spearman_out']:.2f} out of sample. At most {cap:.1f}% of a dataset's games reached the ply cap "
                f"(out of sample).", "",
            f"The goals set for the player, all out of sample, were an error of at most {GOAL_MAE:g} points "
            f"({'met' if met[0] else 'not met'}), a rank correlation of at least {GOAL_SPEARMAN:g} "
            f"({'met' if met[1] else 'not met'}) and under {GOAL_CAP:g}% of games at the ply cap on every dataset "
            f"({'met' if met[2] else 'not met'})."
            + ("" if all(met) else " Where a goal is not met, the answer on the fairest page carries the error as "
                                   "it is: its verdicts are widened by it, not by the goal.")]
    return "\n".join(out)


def move_model_md() -> str:
    data = read(data_dir() / MOVE_MODEL)
    held = data["held_out"]
    rows = ["| Positions of the held-out games | Positions | Person's move first (top-1) | Among the first three (top-3) |",
            "|:--|--:|--:|--:|", f"| all | {held['positions']:,} | {100 * held['top1']:.1f}% | {100 * held['top3']:.1f}% |"]
    for part in ("attackers", "defenders", "plies 1-20", "plies 21-60", "plies 61 on"):
        p = held[part]
        rows.append(f"| {part} | {p['positions']:,} | {100 * p['top1']:.1f}% | {100 * p['top3']:.1f}% |")
    levels = data["levels"]
    rows += ["", f"On one position drawn from each held-out game ({levels['positions']} positions): ",
             "", "| Player | Person's move |", "|:--|--:|"]
    rows += [f"| {name} | {100 * levels[name]:.1f}% |" for name in levels if name != "positions"]
    return "\n".join(rows)


def widened(summary: dict[str, Any], error: float) -> tuple[int, int]:
    """The decided games' 95% interval in whole percents, widened by ``error`` points each side."""
    _, lo, hi, _n = decided(summary)
    return max(0, round(100 * lo - error)), min(100, round(100 * hi + error))


def _share_cell(summary: dict[str, Any]) -> str:
    share, lo, hi, n = decided(summary)
    if not n:
        return f"no game decided of {summary['games']}"
    return f"{_pct(share)} [{_pct(lo)}–{_pct(hi)}], {n:,} of {summary['games']:,} decided"


def jones_md(vid: str) -> str:
    """Jones's reading on ``vid`` and each of his points read the other way, by the player."""
    error = error_points()
    changes: list[tuple[tuple[str, str], ...]] = [(change,) for change in JONES_REVERSED[1]] + [JONES_REVERSED[1]]
    found = {tuple(sorted((e["config"].get("toggles") or {}).items())): e for e in entries().values()
             if e["config"]["variant"] == vid}
    if () not in found:
        return f"Jones's points on `{vid}` have not been played by the people-like player yet."
    base = catalogue.variant(vid)
    labels = ["His reading (the variant as it stands)"]
    labels += [f"{{toggle}}`‘{base.toggles[name].readings[value].label}’ <{vid}:{name}={value}>`"
               for ((name, value),) in changes[:-1]]
    labels.append("All three read the other way")
    rows = ["| Reading | Attackers' share of the decided games | Widened by the player's error | Verdict | "
            "Beside his reading |", "|:--|:--|:--|:--|:--|"]
    his = found[()]["summary"]
    for key, label in zip([()] + [tuple(sorted(c)) for c in changes], labels):
        if key not in found:
            rows.append(f"| {label} | not played | | | |")
            continue
        s = found[key]["summary"]
        lo, hi = widened(s, error)
        beside = "" if not key else nearer_even(his, s)
        rows.append(f"| {label} | {_share_cell(s)} | [{lo}–{hi}] | {verdict(s, error)} | {beside} |")
    return "\n".join(rows)


def _when(provenance: dict[str, Any]) -> str:
    date = provenance.get("finished") or provenance.get("date") or provenance.get("started", "")
    return str(date)[:16].replace("T", " ")


def runs_md() -> str:
    """Each results file of the player: what it holds, when and from which commit, and its command."""
    out = []
    for path in run_files():
        data = read(path)
        prov = data["provenance"]
        games = sum(e["summary"]["games"] for e in data["results"])
        names = sorted({reader_name(e["config"]) for e in data["results"]})
        out += [f"**`docs/data/{path.name}`**: {len(data['results'])} configurations, {games:,} games, "
                f"played with `{prov.get('commit', '?')[:10]}`, written {_when(prov)} UTC"
                + (f", in {prov['seconds'] / 60:.0f} minutes of playing time" if prov.get("seconds") else "")
                + f" ({_names(names)}).", "", "```text", prov.get("command", "(command not recorded)"), "```", ""]
    return "\n".join(out)


def _short_label(dataset: dict[str, Any]) -> str:
    """A dataset's rules in a few words: the forum's name of its setup, else the variant's name."""
    setup = re.search(r"'([^']+)' setup", dataset["label"])
    return f"the {setup.group(1)}" if setup else catalogue.variant(dataset["variant"]).name


def grid_md() -> str:
    """What each style tried gave on the games that chose the styles: the attackers' share of the
    decided games per rule set, beside people's, and each style's mean error over all of them."""
    data = read(data_dir() / CALIBRATION)
    grid = data["provenance"]["grid"]
    rule_sets = list(dict.fromkeys(r["rule_set"] for r in data["datasets"]))
    people = {rs: [r["share"] for r in data["datasets"] if r["rule_set"] == rs] for rs in rule_sets}
    first = {rs: next(r for r in data["datasets"] if r["rule_set"] == rs) for rs in rule_sets}
    head = ["| Style (attackers' and defenders' temperatures) | "
            + " | ".join(_short_label(first[rs]) for rs in rule_sets) + " | Mean error |",
            "|:--|" + "--:|" * (len(rule_sets) + 1),
            "| People | " + " | ".join("; ".join(f"{100 * x:.0f}%" for x in people[rs]) for rs in rule_sets) + " | |"]
    for name in grid:
        cells, errors = [], []
        for rs in rule_sets:
            key = f"{rs}|a:{name}/d:{name}|cap{data['provenance']['ply_cap']}"
            got = data["grid_results"][key]
            cells.append(f"{100 * got['share']:.0f}%")
            errors += [abs(got["share"] - x) for x in people[rs]]
        style = parse_style(name)
        head.append(f"| {style.attackers_temperature:g} and {style.defenders_temperature:g}"
                    + (" (chosen in sample)" if name == data["summary"]["in_sample_style"] else "")
                    + " | " + " | ".join(cells) + f" | {100 * sum(errors) / len(errors):.1f} |")
    return "\n".join(head)


def calibration_runs_md() -> str:
    prov = read(data_dir() / CALIBRATION)["provenance"]
    return "\n".join([
        f"Each style as it played the first {prov['fit_games']} seeds of each rule set (the games that chose "
        f"the styles), the attackers' share of the decided games:", "", grid_md(), "",
        f"The calibration was played with `{prov.get('commit', '?')[:10]}`, finished {_when(prov)} UTC: "
        f"{prov['fit_games']} games a style to choose the styles, then {prov['report_games']} games of each rule "
        f"set at the styles the table reports, with the ply cap at {prov['ply_cap']}"
        + (f" ({prov['sittings']})" if prov.get("sittings") else "") + ". It is made again, "
        "game for game and resumable from its work file, by", "", "```text", prov["command"], "```"])


def text_directive(make: Callable[..., str], arguments: int = 0) -> type[MarkdownDirective]:
    """A directive whose text ``make`` writes (from its ``arguments``) out of the committed files
    of the people-like player, which become the page's dependencies."""

    class PeopleText(MarkdownDirective):
        required_arguments = arguments

        def markdown(self) -> str:
            _note(self)
            return make(*self.arguments)

    return PeopleText


class PeopleChart(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        _note(self)
        # two drawings of the same chart: names beside the rows where the page is wide, above
        # them on a phone (the site's stylesheet shows one)
        return [nodes.raw("", chart_box(chart_svg(), "Chart: the reconstructions' balance", "tafl-chart-box people-chart-wide")
                          + chart_box(chart_svg(narrow=True), "Chart: the reconstructions' balance",
                                      "tafl-chart-box people-chart-narrow"), format="html")]


def _note(directive: SphinxDirective) -> None:
    for path in [*run_files(), data_dir() / CALIBRATION, data_dir() / MOVE_MODEL]:
        directive.env.note_dependency(str(path))


def setup_fairest(app: Sphinx) -> None:
    app.add_directive("people-chart", PeopleChart)
    for name, make in (("people-answer", answer_md), ("people-verdicts", verdicts_md),
                       ("people-calibration", calibration_md), ("move-model", move_model_md),
                       ("people-runs", runs_md), ("people-calibration-runs", calibration_runs_md)):
        app.add_directive(name, text_directive(make))
    app.add_directive("people-jones", text_directive(jones_md, arguments=1))


__all__ = ["answer_md", "chart_svg", "decided", "jones_md", "runs_md", "setup_fairest", "verdict", "widened"]
