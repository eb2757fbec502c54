"""The people-like player beside every published result of people's games, fitted out of sample.

Run: ``python benchmarks/people_calibration.py -j 2`` (plays what is missing, resumable from its
work file, then writes ``docs/data/people-calibration.json`` and prints the table);
``--report`` prints the committed table again, playing nothing; ``--quick`` is a smoke run.

*People's results*: the 1,752 Copenhagen games of the test corpus (counts read from
``tests/data``) and every result in ``docs/data/human-results.json`` whose rules the catalogue
plays exactly (``match: same``). The figure compared is the attackers' share of the decided
games (draws left out), with a 95% Wilson interval where the counts are published; where only
percentages or a balance are published the figure is a point.

*The player*: :mod:`tafl_rules.ai.people` at each style of :data:`GRID` (the two sides'
temperatures). Every rule set is played at every style with the same seeds, in two stages:
the first :data:`FIT_GAMES` seeds choose the styles, and each rule set is then played to
:data:`REPORT_GAMES` seeds at the styles the table reports for it (the in-sample style, and the
style fitted without it).

*The fit*: a style is chosen by the mean absolute error of the attackers' share over the
datasets it is fitted to. *In sample*: one style fitted to every dataset. *Out of sample*: for
each rule set, a style fitted to the datasets of the other rule sets only (the two Copenhagen
datasets are one rule set, so they are left out together), and that rule set's datasets judged
at it. The table gives both, with the Spearman rank correlation between the player's shares and
people's, and the share of games stopped at the ply cap.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import sys
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tafl_rules import balance  # noqa: E402
from tafl_rules.ai.people import Style, style_name  # noqa: E402
from tafl_rules.balance import Config, wilson  # noqa: E402

HUMAN_RESULTS = ROOT / "docs" / "data" / "human-results.json"
CORPUS = ROOT / "tests" / "data" / "copenhagen-aagenielsen.csv"
OUT = ROOT / "docs" / "data" / "people-calibration.json"
PLY_CAP = 300
#: the styles tried: attackers' temperature by defenders' temperature
GRID = [Style(ta, td) for ta in (0.5, 1.0) for td in (1.5, 2.0, 3.0)]
FIT_GAMES = 40
REPORT_GAMES = 200
GOAL_MAE = 7.0
GOAL_SPEARMAN = 0.8
GOAL_CAP = 0.10


def corpus_counts(path: pathlib.Path = CORPUS) -> tuple[int, int]:
    """(attackers' wins, defenders' wins) recorded in the corpus: ``Black`` and ``White``."""
    attackers = defenders = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        result = line.rsplit(",", 1)[-1].strip()
        attackers += result == "Black"
        defenders += result == "White"
    return attackers, defenders


def datasets() -> list[dict[str, Any]]:
    """People's results the catalogue plays exactly: id, rules (variant and toggles), the
    attackers' share of decided games and, where counts are published, its interval."""
    a, d = corpus_counts()
    out = [{"id": "copenhagen-corpus", "variant": "copenhagen", "toggles": {},
            "label": "Copenhagen, 1,752 games on aagenielsen.dk", "attackers": a, "defenders": d}]
    for r in json.loads(HUMAN_RESULTS.read_text(encoding="utf-8"))["results"]:
        if r["match"] != "same":
            continue
        row = {"id": r["id"], "variant": r["config"]["variant"], "toggles": dict(r["config"]["toggles"]),
               "label": r["rules"]}
        if "counts" in r:
            row["attackers"], row["defenders"] = r["counts"]["attackers"], r["counts"]["defenders"]
        elif "percent" in r:
            row["share"] = r["percent"]["attackers"] / (r["percent"]["attackers"] + r["percent"]["defenders"])
        else:  # Nielsen's balance: -1.61 is 161 attackers' wins for every 100 defenders' wins
            b = r["balance"]
            row["share"] = abs(b) / (abs(b) + 1) if b < 0 else 1 / (1 + b)
        out.append(row)
    for row in out:
        if "attackers" in row:
            n = row["attackers"] + row["defenders"]
            row["share"] = row["attackers"] / n
            row["low"], row["high"] = wilson(row["attackers"], n)
        row["rule_set"] = rule_set(row)
    return out


def rule_set(row: dict[str, Any]) -> str:
    toggles = "&".join(f"{k}={v}" for k, v in sorted(row["toggles"].items()))
    return row["variant"] + ("?" + toggles if toggles else "")


def config(row: dict[str, Any], style: Style) -> Config:
    """A dataset's rules played by the player at ``style`` on both sides."""
    return Config(row["variant"], tuple(row["toggles"].items()), style_name(style), style_name(style), PLY_CAP)


def rule_sets(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The first dataset of each rule set, by rule set (the two Copenhagen datasets share one)."""
    seen: dict[str, dict[str, Any]] = {}
    for row in rows:
        seen.setdefault(row["rule_set"], row)
    return seen


def configs(rows: list[dict[str, Any]], styles: list[Style]) -> list[Config]:
    return [config(row, s) for row in rule_sets(rows).values() for s in styles]


def report_configs(rows: list[dict[str, Any]], chosen: dict[str, Any]) -> list[Config]:
    """Each rule set at the in-sample style and at the style fitted without it."""
    seen = rule_sets(rows)
    pairs = dict.fromkeys((rs, s) for rs in seen for s in (chosen["in_sample"], chosen["out_of_sample"][rs]))
    return [config(seen[rs], s) for rs, s in pairs]


def play(cfgs: list[Config], games: int, workers: int | None, work: str, progress: bool) -> dict[str, Any]:
    return balance.run(cfgs, range(games), workers=workers, work_file=work, progress=progress)


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation, ties given their mean rank.

    >>> spearman([1, 2, 3], [10, 20, 30]), spearman([1, 2, 3], [3, 2, 1]), spearman([1, 1, 2], [1, 2, 3])
    (1.0, -1.0, 0.866)
    """
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=v.__getitem__)
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return round(cov / (sx * sy), 3) if sx and sy else 0.0


def tally(games: list[list[Any]], first: int) -> dict[str, Any]:
    """Counts over the games with seeds below ``first``: attackers' and defenders' wins, draws,
    games at the ply cap, the attackers' share of the decided ones with its interval."""
    chosen = [g for g in games if g[0] < first]
    a = sum(1 for g in chosen if g[1] == "a")
    d = sum(1 for g in chosen if g[1] == "d")
    cap = sum(1 for g in chosen if g[2] == balance.PLY_CAP)
    lo, hi = wilson(a, a + d)
    return {"games": len(chosen), "attackers": a, "defenders": d, "draws": len(chosen) - a - d, "ply_cap": cap,
            "share": a / (a + d) if a + d else 0.0, "low": lo, "high": hi}


def fit(rows: list[dict[str, Any]], by_key: dict[str, list[list[Any]]], styles: list[Style]) -> dict[str, Any]:
    """Choose styles on the first FIT_GAMES seeds: one for all datasets, one per rule set left out."""
    def share(row: dict[str, Any], style: Style, first: int) -> float:
        return tally(by_key[_key(row, style)], first)["share"]

    def loss(style: Style, chosen: list[dict[str, Any]]) -> float:
        return sum(abs(share(r, style, FIT_GAMES) - r["share"]) for r in chosen) / len(chosen)

    def best(chosen: list[dict[str, Any]]) -> Style:
        return min(styles, key=lambda s: (round(loss(s, chosen), 9), styles.index(s)))

    every = best(rows)
    held = {rs: best([r for r in rows if r["rule_set"] != rs]) for rs in dict.fromkeys(r["rule_set"] for r in rows)}
    return {"in_sample": every, "out_of_sample": held}


def _key(row: dict[str, Any], style: Style) -> str:
    return config(row, style).key


def table(rows: list[dict[str, Any]], by_key: dict[str, list[list[Any]]], chosen: dict[str, Any]) -> dict[str, Any]:
    out = []
    for r in rows:
        ins = tally(by_key[_key(r, chosen["in_sample"])], REPORT_GAMES)
        oos_style = chosen["out_of_sample"][r["rule_set"]]
        oos = tally(by_key[_key(r, oos_style)], REPORT_GAMES)
        out.append({"id": r["id"], "label": r["label"], "rule_set": r["rule_set"], "people": r["share"],
                    "people_low": r.get("low"), "people_high": r.get("high"),
                    "people_counts": "attackers" in r, "in_sample": ins, "out_of_sample": oos,
                    "out_of_sample_style": style_name(oos_style),
                    "error_in": 100 * abs(ins["share"] - r["share"]), "error_out": 100 * abs(oos["share"] - r["share"])})
    people = [x["people"] for x in out]
    summary = {
        "mae_in": round(sum(x["error_in"] for x in out) / len(out), 2),
        "mae_out": round(sum(x["error_out"] for x in out) / len(out), 2),
        "spearman_in": spearman([x["in_sample"]["share"] for x in out], people),
        "spearman_out": spearman([x["out_of_sample"]["share"] for x in out], people),
        "cap_share_max_in": max(x["in_sample"]["ply_cap"] / x["in_sample"]["games"] for x in out),
        "cap_share_max_out": max(x["out_of_sample"]["ply_cap"] / x["out_of_sample"]["games"] for x in out),
        "in_sample_style": style_name(chosen["in_sample"]),
    }
    summary["goals_met_out"] = (summary["mae_out"] <= GOAL_MAE and summary["spearman_out"] >= GOAL_SPEARMAN
                                and summary["cap_share_max_out"] < GOAL_CAP)
    return {"rows": out, "summary": summary}


def print_table(data: dict[str, Any]) -> None:
    s = data["summary"]
    print("Attackers' share of decided games: people beside the people-like player "
          f"(in sample: {s['in_sample_style']}; out of sample: fitted without the dataset's rule set)")
    print(f"{'dataset':<28} {'people':>18} {'in sample':>18} {'out of sample':>18} {'style (out)':<22} "
          f"{'games':>5} {'cap':>5}")
    for x in data["rows"]:
        p = (f"{100 * x['people']:.1f} [{100 * x['people_low']:.0f}-{100 * x['people_high']:.0f}]"
             if x["people_counts"] else f"{100 * x['people']:.1f} (point)")
        i, o = x["in_sample"], x["out_of_sample"]
        print(f"{x['id']:<28} {p:>18} {100 * i['share']:>5.1f} [{100 * i['low']:.0f}-{100 * i['high']:.0f}] "
              f"{100 * o['share']:>11.1f} [{100 * o['low']:.0f}-{100 * o['high']:.0f}] {x['out_of_sample_style']:<22} "
              f"{o['games']:>5} {100 * o['ply_cap'] / max(1, o['games']):>4.1f}%")
    print(f"mean absolute error: in sample {s['mae_in']:.1f} points, out of sample {s['mae_out']:.1f} "
          f"(goal {GOAL_MAE:g}); Spearman: in sample {s['spearman_in']:.2f}, out of sample {s['spearman_out']:.2f} "
          f"(goal {GOAL_SPEARMAN}); most games at the ply cap: {100 * s['cap_share_max_out']:.1f}% "
          f"(goal under {100 * GOAL_CAP:.0f}%)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workers", "-j", type=int)
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--report", action="store_true", help="print the committed table; play nothing")
    p.add_argument("--quick", action="store_true", help="a smoke run: 2 styles, 4 and 6 games")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    if args.report:
        print_table(json.loads(pathlib.Path(args.out).read_text(encoding="utf-8")))
        return 0
    global FIT_GAMES, REPORT_GAMES, GRID
    if args.quick:
        FIT_GAMES, REPORT_GAMES, GRID = 4, 6, GRID[:2]
    rows = datasets()
    work = args.out + ".work.jsonl"
    started = time.monotonic()
    try:
        with balance.signals_interrupt():
            first = play(configs(rows, GRID), FIT_GAMES, args.workers, work, not args.no_progress)
            by_key = {e["key"]: e["games"] for e in first["results"]}
            chosen = fit(rows, by_key, GRID)
            second = play(report_configs(rows, chosen), REPORT_GAMES, args.workers, work, not args.no_progress)
    except KeyboardInterrupt:
        print(f"\ninterrupted; finished games are kept in {work}: run the same command again to resume",
              file=sys.stderr)
        return 130
    by_key.update({e["key"]: e["games"] for e in second["results"]})
    data = {"provenance": {**second["provenance"], "seconds": round(time.monotonic() - started, 1),
                           "command": "python benchmarks/people_calibration.py" + (" --quick" if args.quick else ""),
                           "grid": [style_name(s) for s in GRID], "fit_games": FIT_GAMES,
                           "report_games": REPORT_GAMES, "ply_cap": PLY_CAP},
            "datasets": rows, **table(rows, by_key, chosen),
            "grid_results": {e["key"]: tally(e["games"], FIT_GAMES) for e in first["results"]},
            "results": list({**{e["key"]: e for e in first["results"]},
                             **{e["key"]: e for e in second["results"]}}.values())}
    balance.write_json(data, args.out)
    pathlib.Path(work).unlink(missing_ok=True)  # every game is in the results now, as the lab's CLI does
    print_table(data)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
