"""Jones's question answered by the people-like player: the answer, its chart and its evidence.

Everything is read from committed data written by the project's commands, so that no sentence
on the pages has to be edited when a run goes on:

- ``docs/data/people-balance*.json``: every reconstruction and Jones's points played by the
  people-like player (``python -m tafl_rules balance --level people ...``), each game counted on
  the board and as people's games are counted (the give-up model);
- ``docs/data/people-calibration.json``: the player beside people's published results, and the
  error model fitted to them with its out-of-sample check (``benchmarks/people_calibration.py``);
- ``docs/data/move-model.json`` and ``docs/data/giveup-model.json``: how often the move model
  plays the person's move, and how well the give-up model foresees people's resignations
  (``benchmarks/train_people.py``, ``benchmarks/train_giveup.py``).

Directives
    ``people-answer``       the answer in plain words: for how many reconstructions we cannot
                            tell which side people would favour, and which favour a side
    ``people-chart``        for each reconstruction, people's share as the error model predicts
                            it (90% interval), the player's share, and people's results
    ``people-verdicts``     the same as a table, with the chance that the attackers are ahead
    ``people-calibration``  the player beside people's results: on the board, and counted as people's
    ``people-coverage``     the error model's out-of-sample check, dataset by dataset
    ``people-error-model``  the fitted error model in numbers
    ``move-model``          the move model's agreement with people's moves, beside the AI's levels
    ``move-model-steps``    what was tried to raise it, each step measured on the held-out games
    ``giveup-model``        the give-up model's calibration on held-out games
    ``people-jones <id>``   Jones's three points read the other way on a layout, with their tests
    ``people-runs``         the runs' provenance and the commands that make them again
    ``people-calibration-runs``  the calibration run's provenance and command
"""

from __future__ import annotations

import functools
import json
import re
import shutil
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
from tafl_rules.ai.people import MODEL_PATH, STYLE, browser_model_name, style_name
from tafl_rules.balance import JONES_REVERSED, wilson

from .roots import Roots
from . import error_model, roots
from .balance import CHART_RC, COLOURS, _figure, _svg, chart_box, readings_words
from .util import MarkdownDirective

CALIBRATION = "people-calibration.json"
MOVE_MODEL = "move-model.json"
MOVE_STEPS = "move-model-steps.json"
GIVEUP = "giveup-model.json"
VERDICTS = ("attackers ahead", "cannot tell", "even", "defenders ahead")
#: Jones's layouts whose points the answer sums up
JONES_LAYOUTS = ("jones-3", "hywel-dda-jones")
#: the comparisons Jones's points make: three points and all three, on each of his two layouts
JONES_COMPARISONS = 2 * (len(JONES_REVERSED[1]) + 1)
ALPHA = 0.05
#: the move model's goals on the held-out games (issue 37 of the project): top-1, and top-1 on quiet moves
GOAL_TOP1, GOAL_QUIET = 0.32, 0.20


def run_files(folders: Roots) -> list[Path]:
    """The people-like player's results files, by name."""
    return sorted(folders.data.glob("people-balance*.json"))


@functools.lru_cache(maxsize=8)
def _read(path: Path, mtime: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def read(path: Path) -> dict[str, Any]:
    return _read(path, path.stat().st_mtime_ns)


def player() -> str:
    """The people-like player's name as the runs record it (its style)."""
    return style_name(STYLE)


def entries(folders: Roots) -> dict[str, dict[str, Any]]:
    """Every configuration the people-like player (at its own style) played, by key: the run with
    most games (a longer run of a configuration extends a shorter one seed for seed)."""
    out: dict[str, dict[str, Any]] = {}
    for path in run_files(folders):
        data = read(path)
        for e in data["results"]:
            if e["config"]["attackers_level"] != player() or e["config"]["defenders_level"] != player():
                continue
            e = {**e, "file": path.name, "provenance": data["provenance"]}
            if e["key"] not in out or e["summary"]["games"] > out[e["key"]]["summary"]["games"]:
                out[e["key"]] = e
    return out


def calibration(folders: Roots) -> dict[str, Any]:
    return read(folders.data / CALIBRATION)


def fitted(folders: Roots) -> error_model.Fit:
    """The error model fitted to every people's result."""
    return error_model.Fit.from_dict(calibration(folders)["summary"]["model"])


def decided(summary: dict[str, Any]) -> tuple[float, float, float, float]:
    """The attackers' share of the decided games counted as people's are, its 95% interval, and how
    many games were decided (expected counts)."""
    c = summary["counted_as_people"]
    n = c["attackers"] + c["defenders"]
    return c["share"], c["low"], c["high"], n


def on_board(summary: dict[str, Any]) -> tuple[float, float, float, int]:
    """The attackers' share of the games decided on the board, its 95% interval, and how many."""
    a, d = summary["attackers"]["count"], summary["defenders"]["count"]
    lo, hi = wilson(a, a + d)
    return (a / (a + d) if a + d else 0.5), lo, hi, a + d


def family_of(config: dict[str, Any]) -> str:
    rules = catalogue.variant(config["variant"], **(config.get("toggles") or {})).rules
    return error_model.family(rules.escape, rules.king_armed)


def prediction(folders: Roots, entry: dict[str, Any]) -> error_model.Prediction:
    """People's share on an entry's rules, as the error model predicts it from the player's games."""
    share, _lo, _hi, n = decided(entry["summary"])
    return error_model.predict(fitted(folders), family_of(entry["config"]), share, n)


def verdict(folders: Roots, entry: dict[str, Any]) -> str:
    return error_model.verdict(prediction(folders, entry))


def reader_name(config: dict[str, Any]) -> str:
    """A configuration as readers know it: the variant's name, and its readings in words."""
    v = catalogue.variant(config["variant"])
    toggles = config.get("toggles") or {}
    return f"{v.name}, with {readings_words(v.id, toggles)}" if toggles else v.name


def plain_entries(folders: Roots) -> list[dict[str, Any]]:
    """The people-like player's run of each reconstruction as it stands (no toggles), in the catalogue's order."""
    found = {e["config"]["variant"]: e for e in entries(folders).values() if not e["config"].get("toggles")}
    return [found[v] for v in catalogue.reconstructions() if v in found]


def not_played(folders: Roots) -> list[str]:
    """The reconstructions the people-like player has not played."""
    played = {e["config"]["variant"] for e in plain_entries(folders)}
    return [v for v in catalogue.reconstructions() if v not in played]


def people_points(folders: Roots) -> dict[str, list[dict[str, Any]]]:
    """People's published results by rule set (``variant?toggles``), from the calibration record."""
    out: dict[str, list[dict[str, Any]]] = {}
    for row in calibration(folders)["rows"]:
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


def _var(vid: str) -> str:
    return f"{{variant}}`{vid}`"


def answer_md(folders: Roots) -> str:
    """The answer in plain words, each verdict as the error model gives it."""
    rows = plain_entries(folders)
    by: dict[str, list[str]] = {v: [] for v in VERDICTS}
    for e in rows:
        by[verdict(folders, e)].append(_var(e["config"]["variant"]))
    games = min(e["summary"]["games"] for e in rows)
    cannot = by["cannot tell"]
    named = len(cannot) <= len(rows) // 2
    lead = (f"**For {len(cannot)} of the {len(rows)} reconstructions we cannot tell which side people would "
            f"favour**" + (f": {_names(cannot)}." if named else ".")) if cannot else \
        f"**Each of the {len(rows)} reconstructions favours a side, or is even.**"
    sides = []
    if by["attackers ahead"]:
        sides.append(f"the attackers are ahead in {_names(by['attackers ahead'])}")
    if by["defenders ahead"]:
        sides.append(f"the king's side is ahead in {_names(by['defenders ahead'])}")
    if by["even"]:
        sides.append(f"{_names(by['even'])} {'is' if len(by['even']) == 1 else 'are'} even within "
                     f"{round(100 * error_model.EVEN_MARGIN)} points")
    said = "; ".join(sides)
    missing = not_played(folders)
    cal = calibration(folders)["summary"]
    return "\n".join([
        lead + (f" {said[0].upper()}{said[1:]}." if said else "") + jones_sentence(folders),
        "",
        f"Each verdict rests on {games} or more games of the player "
        f"({cal['inside']} of {cal['datasets']} of people's results fell inside the range foreseen for them)."
        + (f" Not played yet: {_names([_var(v) for v in missing])}." if missing else ""),
    ])


def jones_tests(folders: Roots) -> list[dict[str, Any]]:
    """Jones's points: each change (and all three) against his reading, on each of his layouts, by a
    two-proportion test on the shares counted as people's, Holm-adjusted for the comparisons, with
    the smallest shift the games could have found (80% power, Bonferroni)."""
    found = {(e["config"]["variant"], tuple(sorted((e["config"].get("toggles") or {}).items()))): e
             for e in entries(folders).values()}
    out: list[dict[str, Any]] = []
    for vid in JONES_LAYOUTS:
        for change in [*JONES_REVERSED[1], None]:
            key = tuple(sorted(JONES_REVERSED[1])) if change is None else (change,)
            if (vid, ()) not in found or (vid, key) not in found:
                continue
            s0, _l0, _h0, n0 = decided(found[(vid, ())]["summary"])
            s1, _l1, _h1, n1 = decided(found[(vid, key)]["summary"])
            diff, z, p = error_model.two_proportions(s0 * n0, n0, s1 * n1, n1)
            out.append({"layout": vid, "point": change[0] if change else "all", "change": key, "his": s0, "changed": s1,
                        "n_his": n0, "n_changed": n1, "difference": diff, "z": z, "p": p,
                        "smallest": error_model.smallest_shift((s0 + s1) / 2, n0, n1, JONES_COMPARISONS)})
    for row, adjusted in zip(out, error_model.holm([r["p"] for r in out])):
        row["p_adjusted"] = adjusted
        row["finding"] = ("no clear effect" if adjusted >= ALPHA else
                          "towards the king's side" if row["difference"] < 0 else "towards the attackers")
    return out


def jones_sentence(folders: Roots) -> str:
    """Jones's hypothesis in one sentence, from the tests: which of his points, read the king's way,
    clearly tilts the player's games (on which of his layouts), and for which no clear effect was found."""
    tests = {(t["layout"], t["point"]): t for t in jones_tests(folders)}
    words = {"first": "the king's side moving first", "king_armed": "an armed king", "confinement": "a whole side to confine"}
    layouts = {"jones-3": "his Figure 3", "hywel-dda-jones": "the Hywel Dda layout"}
    parts, unclear = [], []
    for point, said in words.items():
        found = {v: tests[(v, point)]["finding"] for v in JONES_LAYOUTS if (v, point) in tests}
        clear = [v for v, f in found.items() if f != "no clear effect"]
        if not found:
            continue
        if not clear:
            unclear.append(point)
            continue
        towards = {found[v] for v in clear}
        other = [v for v in found if v not in clear]
        where = ("on both his layouts" if not other else
                 f"on {layouts[clear[0]]}; on {layouts[other[0]]} the shift is not clear (one of up to "
                 f"{round(100 * tests[(other[0], point)]['smallest'])} points could have gone unseen there)")
        parts.append(f"{said} tilts the games {towards.pop() if len(towards) == 1 else 'both ways'} {where}")
    if unclear:
        shift = max(tests[(v, p)]["smallest"] for v in JONES_LAYOUTS for p in unclear if (v, p) in tests)
        if not parts and len(unclear) == len(words):
            return (f" None of Jones's three points, read the king's way, shows a clear effect (the games could miss a "
                    f"shift of up to {round(100 * shift)} points).")
        parts.append(f"{'the other two show' if parts and len(unclear) == 2 else 'for ' + _names([words[p] for p in unclear]) + ' the games show'} "
                     f"no clear effect (a shift of up to {round(100 * shift)} points could have gone unseen)")
    if not parts:
        return ""
    return " Of Jones's three points, read the king's way, " + "; ".join(parts) + "."


def chart_rows(folders: Roots) -> list[dict[str, Any]]:
    """The chart's rows: each reconstruction's prediction, the player's share, people's results."""
    points = people_points(folders)
    return [{"name": reader_name(e["config"]), "summary": e["summary"], "prediction": prediction(folders, e),
             "people": points.get(rule_set(e["config"]), [])} for e in plain_entries(folders)]


LABEL = ("For each reconstruction, the attackers' share of the decided games people would have, as the error model "
         "predicts it with its 90% interval, beside the people-like player's share and people's results on the same rules")


def chart_svg(folders: Roots, narrow: bool = False) -> str:
    """One row per reconstruction: people's attackers' share as the error model predicts it (a bar,
    its 90% interval), the player's share counted as people's (a dot), and people's results on the
    same rules (diamonds). ``narrow``: drawn for a phone, each name above its row."""
    with matplotlib.rc_context({**CHART_RC, "font.size": 9}):
        return _chart(folders, narrow)


def _chart(folders: Roots, narrow: bool) -> str:
    rows = chart_rows(folders)
    names = [textwrap.wrap(row["name"], 46) if narrow else [row["name"]] for row in rows]
    heights = [0.95 + 0.62 * len(lines) if narrow else 1.0 for lines in names]
    tops = [sum(heights[i + 1:]) for i in range(len(rows))]  # the first row at the top
    fig, ax = _figure(height=(0.23 * sum(heights) + 0.8) if narrow else 0.25 * len(rows) + 0.8)
    fig.set_figwidth(3.45 if narrow else 7.0)
    for row, lines, top in zip(rows, names, tops):
        share = decided(row["summary"])[0]
        lo, hi = row["prediction"].interval()
        y = top + 0.45 if narrow else top + 0.5
        ax.plot([lo, hi], [y, y], color=COLOURS["draws"], linewidth=6, solid_capstyle="butt")
        ax.plot([row["prediction"].share], [y], "|", color="#000000", markersize=9)
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
    handles = [matplotlib.patches.Patch(color=COLOURS["draws"], label="predicted for people (90%)"),
               matplotlib.lines.Line2D([], [], color=COLOURS["attackers"], marker="o", linestyle="",
                                       label="the player"),
               matplotlib.lines.Line2D([], [], color=COLOURS["defenders"], marker="D", linestyle="",
                                       label="people's results")]
    ax.legend(handles=handles, loc="lower right" if not narrow else "lower left",
              bbox_to_anchor=(1.0, 1.0) if not narrow else (0, 1.0), ncol=3 if not narrow else 1,
              frameon=False, fontsize=9, handlelength=1.4, columnspacing=1.0)
    return _svg(fig, "people-chart", LABEL)


def _share(share: float, lo: float, hi: float) -> str:
    # no break inside the figure: a no-break space, and a word joiner each side of the dash
    return f"{100 * share:.0f}%\u00a0[{100 * lo:.0f}\u2060–\u2060{100 * hi:.0f}]"


def verdicts_md(folders: Roots) -> str:
    points = people_points(folders)
    rows = plain_entries(folders)
    games = sorted({e["summary"]["games"] for e in rows})
    out = ["| Reconstruction | The player: on the board | Counted as people's | People, predicted (90%) | "
           "Verdict (chance attackers ahead) | People |", "|:--|:--|:--|:--|:--|:--|"]
    for e in rows:
        s = e["summary"]
        pred = prediction(folders, e)
        lo, hi = pred.interval()
        people = points.get(rule_set(e["config"]), [])
        said = "; ".join(f"{100 * p['people']:.0f}%" for p in people) or "none"
        family_note = "" if pred.played_family else " \\*"
        out.append(f"| {_var(e['config']['variant'])}{family_note} | {_share(*on_board(s)[:3])} | "
                   f"{_share(*decided(s)[:3])} | {_share(pred.share, lo, hi)} | "
                   f"{verdict(folders, e)} ({100 * pred.chance_attackers_ahead():.0f}%) | {said} |")
    each = f"{games[0]:,} games each" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,} games each"
    out += ["", f"{each}; the attackers' share of the decided games, with its 95% interval (the player's) or its 90% "
                "interval (people's, predicted); *People*: people's published results on the same rules. \\* A rule family people have not been seen playing in numbers (an "
                "unarmed king): the error model gives it the mean of the families they have played, with their spread "
                "as more uncertainty."]
    return "\n".join(out)


def short_label(row: dict[str, Any]) -> str:
    """A people's result in a few words: its setup on the forum, else its rules and where they were played."""
    setup = re.search(r"'([^']+)' setup", row["label"])
    if setup:
        return f"Tawlbwrdd, {setup.group(1)} (forum)"
    known = {"copenhagen-corpus": "Copenhagen, the corpus", "copenhagen-app": "Copenhagen, a phone app",
             "fetlar-tournament-2011": "Fetlar, a 2011 tournament"}
    return known.get(str(row["id"]), str(row["label"]))


def calibration_md(folders: Roots) -> str:
    data = calibration(folders)
    out = ["| People's result | People: every decided game | People: on the board | The player: on the board | "
           "The player: counted as people's | Games |", "|:--|:--|:--|:--|:--|--:|"]
    for r in data["rows"]:
        people = (_share(r["people"], r["people_low"], r["people_high"]) if r["people_low"] is not None
                  else f"{100 * r['people']:.0f}% (no counts)")
        pob = r.get("people_on_board")
        board = _share(pob["share"], pob["low"], pob["high"]) if pob else "not published"
        ob, c = r["on_board"], r["counted"]
        out.append(f"| {short_label(r)} | {people} | {board} | {_share(ob['share'], ob['low'], ob['high'])} | "
                   f"{_share(c['share'], c['low'], c['high'])} | {r['games']} |")
    moved: dict[str, list[float]] = {}
    for r in {r["rule_set"]: r for r in data["rows"]}.values():
        moved.setdefault(r["family"].split(",")[0], []).append(100 * (r["counted"]["share"] - r["on_board"]["share"]))
    out += ["", "Counting the player's games as people's moved its attackers' share by "
            + " and ".join(f"{sum(v) / len(v):+.0f} points on average on the {fam} rules" for fam, v in moved.items()) + "."]
    return "\n".join(out)


def coverage_md(folders: Roots) -> str:
    s = calibration(folders)["summary"]
    rows = {r["id"]: r for r in calibration(folders)["rows"]}
    out = ["| People's result | People | Predicted without its rules (90%) | Inside |", "|:--|--:|:--|:--|"]
    for x in s["leave_one_out"]:
        out.append(f"| {short_label(rows[x['id']])} | {100 * x['people']:.1f}% | "
                   f"{100 * x['predicted']:.0f}% [{100 * x['low']:.0f}–{100 * x['high']:.0f}] | "
                   f"{'yes' if x['inside'] else '**no**'} |")
    out += ["", f"**{s['inside']} of {s['datasets']}** people's results fell inside the 90% range foreseen for them "
                f"by the model fitted without their own rules; the ranges were {s['mean_width']:.0f} points wide on average."]
    return "\n".join(out)


def error_model_md(folders: Roots) -> str:
    model = fitted(folders)
    out = ["| Rule family | Rule sets played by people | Mean difference, people less the player (logit) | "
           "At a player's 50%, people's share |", "|:--|--:|--:|--:|"]
    rows = calibration(folders)["rows"]
    for fam, mean in model.means.items():
        sets = len({r["rule_set"] for r in rows if r["family"] == fam})
        out.append(f"| {fam} | {sets} | {mean:+.2f} ± {model.mean_vars[fam] ** 0.5:.2f} | "
                   f"{100 * error_model.expit(mean):.0f}% |")
    out.append(f"| any other family | 0 | {model.other_mean:+.2f} ± {model.other_var ** 0.5:.2f} | "
               f"{100 * error_model.expit(model.other_mean):.0f}% |")
    out += ["", f"Spread between rule sets of one family (tau): {model.tau2 ** 0.5:.2f} on the logit scale; "
                f"{model.rule_sets} rule sets, Student's *t* with {model.df} degrees of freedom."]
    return "\n".join(out)


def move_model_md(folders: Roots) -> str:
    data = read(folders.data / MOVE_MODEL)
    held, train = data["held_out"], data["training"]
    rows = ["| Positions of the held-out games | Positions | Person's move first (top-1) | Among the first three (top-3) "
            "| Top-1 on the training games |", "|:--|--:|--:|--:|--:|",
            f"| all | {held['positions']:,} | {100 * held['top1']:.1f}% | {100 * held['top3']:.1f}% | "
            f"{100 * train['top1']:.1f}% |"]
    for part in ("attackers", "defenders", "quiet", "tactical", "plies 1-20", "plies 21-60", "plies 61 on"):
        p, t = held[part], train[part]
        rows.append(f"| {part} | {p['positions']:,} | {100 * p['top1']:.1f}% | {100 * p['top3']:.1f}% | "
                    f"{100 * t['top1']:.1f}% |")
    for side in ("attackers", "defenders"):
        q, t = held["quiet"][side], train["quiet"][side]
        rows.append(f"| quiet, {side} | {q['positions']:,} | {100 * q['top1']:.1f}% | | {100 * t['top1']:.1f}% |")
    top1, quiet = held["top1"], (held["quiet"]["attackers"]["top1"], held["quiet"]["defenders"]["top1"])
    met = top1 >= GOAL_TOP1, min(quiet) >= GOAL_QUIET
    rows += ["", f"The goals set for the model were the person's move first in {100 * GOAL_TOP1:.0f}% of the held-out "
                 f"positions and in {100 * GOAL_QUIET:.0f}% of the quiet ones, for each side: it reaches "
                 f"{100 * top1:.1f}% ({'met' if met[0] else 'short of that goal'}) and {100 * quiet[0]:.1f}% and "
                 f"{100 * quiet[1]:.1f}% ({'met' if met[1] else 'short of that goal'})."]
    levels = data["levels"]
    if len(levels) > 2:
        rows += ["", f"On one position drawn from each held-out game ({levels['positions']} positions): ",
                 "", "| Player | Person's move |", "|:--|--:|"]
        rows += [f"| {name} | {100 * levels[name]:.1f}% |" for name in levels if name != "positions"]
    return "\n".join(rows)


def move_steps_md(folders: Roots) -> str:
    data = read(folders.data / MOVE_STEPS)
    rows = ["| Step | Held-out top-1 | Quiet moves (attackers / defenders) | Training top-1 |", "|:--|--:|--:|--:|"]
    for step in data["steps"]:
        h, t = step["held_out"], step["training"]
        rows.append(f"| {step['what']} | {100 * h['top1']:.1f}% | {100 * h['quiet']['attackers']['top1']:.1f}% / "
                    f"{100 * h['quiet']['defenders']['top1']:.1f}% | {100 * t['top1']:.1f}% |")
    return "\n".join(rows)


def giveup_md(folders: Roots) -> str:
    data = read(folders.data / GIVEUP)
    held = data["held_out"]
    rows = ["| The model's chance of giving up | Positions | Its mean chance | Share that gave up |", "|:--|--:|--:|--:|"]
    for b in held["calibration"]:
        rows.append(f"| {100 * b['from']:g}% to {100 * b['to']:g}% | {b['positions']:,} | {100 * b['mean_chance']:.2f}% | "
                    f"{100 * b['share']:.2f}% ({b['gave_up']}) |")
    by = held["by_side"]
    rows += ["", f"On the {held['positions']:,} positions of the held-out games, {held['gave_up']} give-ups happened and "
                 f"the model expected {held['expected']:.0f} (attackers {by['attackers']['gave_up']} against "
                 f"{by['attackers']['expected']:.0f}, defenders {by['defenders']['gave_up']} against "
                 f"{by['defenders']['expected']:.0f}). A position where a player gave up got a higher chance than one where "
                 f"the player moved on {100 * held['auc']:.0f} times in 100 (the area under the ROC curve, "
                 f"{held['auc']:.2f}; 0.5 is a coin, 1 is perfect)."]
    return "\n".join(rows)


def jones_md(folders: Roots, vid: str) -> str:
    """Jones's reading on ``vid`` and each of his points read the other way, with their tests."""
    found = {tuple(sorted((e["config"].get("toggles") or {}).items())): e for e in entries(folders).values()
             if e["config"]["variant"] == vid}
    if () not in found:
        return f"Jones's points on `{vid}` have not been played by the people-like player yet."
    tests = {t["change"]: t for t in jones_tests(folders) if t["layout"] == vid}
    base = catalogue.variant(vid)
    rows = ["| Reading | Games | Attackers' share, counted as people's | Beside his reading (points) | "
            "Holm-adjusted p | Smallest shift the games could see | Finding |", "|:--|--:|:--|--:|--:|--:|:--|"]
    his = found[()]["summary"]
    rows.append(f"| His reading (the variant as it stands) | {his['games']} | {_share(*decided(his)[:3])} | | | | |")
    for change in [*[(c,) for c in JONES_REVERSED[1]], tuple(sorted(JONES_REVERSED[1]))]:
        if len(change) == 1:
            name, value = change[0]
            label = f"{{toggle}}`‘{base.toggles[name].readings[value].label}’ <{vid}:{name}={value}>`"
        else:
            label = "All three read the other way"
        key = tuple(sorted(change))
        if key not in found or key not in tests:
            rows.append(f"| {label} | not played | | | | | |")
            continue
        t, s = tests[key], found[key]["summary"]
        rows.append(f"| {label} | {s['games']} | {_share(*decided(s)[:3])} | {100 * t['difference']:+.1f} | "
                    f"{t['p_adjusted']:.3f} | {100 * t['smallest']:.0f} | {t['finding']} |")
    return "\n".join(rows)


def _when(provenance: dict[str, Any]) -> str:
    date = provenance.get("finished") or provenance.get("date") or provenance.get("started", "")
    return str(date)[:16].replace("T", " ")


def runs_md(folders: Roots) -> str:
    """Each results file of the player: what it holds, when and from which commit, and its command."""
    out = []
    for path in run_files(folders):
        data = read(path)
        prov = data["provenance"]
        games = sum(e["summary"]["games"] for e in data["results"])
        names = sorted({reader_name(e["config"]) for e in data["results"]})
        out += [f"**`docs/data/{path.name}`**: {len(data['results'])} configurations, {games:,} games, "
                f"played with `{(prov.get('commit') or '?')[:10]}`, written {_when(prov)} UTC"
                + (f", in {prov['seconds'] / 60:.0f} minutes of playing time" if prov.get("seconds") else "")
                + (f" ({prov['partial']})" if prov.get("partial") else "")
                + f" ({_names(names)})." + (f" It was {prov['sittings']}." if prov.get("sittings") else ""),
                "", "```text", prov.get("command", "(command not recorded)"), "```", ""]
    return "\n".join(out)


def calibration_runs_md(folders: Roots) -> str:
    prov = calibration(folders)["provenance"]
    return "\n".join([
        f"The calibration was played with `{(prov.get('commit') or '?')[:10]}`, finished {_when(prov)} UTC: "
        f"{prov['games_per_rule_set']} games of each rule set by the player `{prov['player']}`, with the ply cap at "
        f"{prov['ply_cap']}. It is made again, game for game and resumable from its work file, by", "", "```text",
        prov["command"], "```"])


def text_directive(make: Callable[..., str], arguments: int = 0) -> type[MarkdownDirective]:
    """A directive whose text ``make`` writes (from its ``arguments``) out of the committed files
    of the people-like player, which become the page's dependencies."""

    class PeopleText(MarkdownDirective):
        required_arguments = arguments

        def markdown(self) -> str:
            return make(_note(self), *self.arguments)

    return PeopleText


class PeopleChart(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        folders = _note(self)
        # two drawings of the same chart: names beside the rows where the page is wide, above
        # them on a phone (the site's stylesheet shows one)
        return [nodes.raw("", chart_box(chart_svg(folders), "Chart: the reconstructions' balance", "tafl-chart-box people-chart-wide")
                          + chart_box(chart_svg(folders, narrow=True), "Chart: the reconstructions' balance",
                                      "tafl-chart-box people-chart-narrow"), format="html")]


def _note(directive: SphinxDirective) -> Roots:
    """The project's folders, with the people-like player's files in them noted as the page's dependencies."""
    folders = roots.of(directive.config)
    for path in [*run_files(folders), *(folders.data / name for name in (CALIBRATION, MOVE_MODEL, MOVE_STEPS, GIVEUP))]:
        directive.env.note_dependency(str(path))
    return folders


def serve_people_model(app: Sphinx, error: Exception | None) -> None:
    """Serve the people-like player's model beside the site (``_models/``, under a name its digest
    fixes): it is not in the wheel the boards load, and a board's worker fetches it from there only
    when the people-like player is chosen."""
    if error is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_models" / browser_model_name()
    if not target.exists() or target.read_bytes() != MODEL_PATH.read_bytes():
        target.parent.mkdir(parents=True, exist_ok=True)
        for old in target.parent.glob("people-model-*.json"):
            old.unlink()
        shutil.copyfile(MODEL_PATH, target)


def setup_fairest(app: Sphinx) -> None:
    app.connect("build-finished", serve_people_model, priority=400)  # before the runtime stamps the site's version
    app.add_directive("people-chart", PeopleChart)
    for name, make in (("people-answer", answer_md), ("people-verdicts", verdicts_md),
                       ("people-calibration", calibration_md), ("people-coverage", coverage_md),
                       ("people-error-model", error_model_md), ("move-model", move_model_md),
                       ("move-model-steps", move_steps_md), ("giveup-model", giveup_md),
                       ("people-runs", runs_md), ("people-calibration-runs", calibration_runs_md)):
        app.add_directive(name, text_directive(make))
    app.add_directive("people-jones", text_directive(jones_md, arguments=1))


__all__ = ["answer_md", "chart_svg", "decided", "jones_md", "jones_tests", "prediction", "runs_md", "setup_fairest",
           "verdict"]
