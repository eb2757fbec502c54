"""Calibration: the AI's self-play on the Copenhagen rules beside 1,752 human games.

Run: ``python benchmarks/calibration.py`` (the default level, 400 games, seeds 0-399;
``--level N`` repeatable to try other levels; ``--quick`` for a smoke run).

The human yardstick is the corpus in ``tests/data/copenhagen-aagenielsen.csv``:
Copenhagen games played by people on aagenielsen.dk, with the result the site
recorded. The program's figure is self-play of one AI level against itself under
the catalogue's Copenhagen rules (seeded, through :func:`tafl_rules.balance.run`,
so a run can be interrupted and resumed from its work file, and replays from the
committed code). The comparison is the attackers' share of the *decided* games
(draws and unfinished records left out, as the human corpus has almost no draws
and the lab's draws are games stopped at the ply cap), with 95% Wilson intervals.
The goal is the humans' share within 7 points.

The results are written to ``docs/data/calibration.json`` (``--out``) with their
provenance; the site's "Which rules are fairest?" page shows them.
"""

from __future__ import annotations

import argparse
import collections
import csv
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tafl_rules import balance  # noqa: E402
from tafl_rules.ai import DEFAULT_LEVEL, LEVELS, RETIRED_LEVELS  # noqa: E402
from tafl_rules.balance import Config, wilson  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "copenhagen-aagenielsen.csv"
VARIANT = "copenhagen"
GOAL_POINTS = 7
HUMAN_SOURCE = ("1,752 Copenhagen Hnefatafl games played by people on aagenielsen.dk, as collected in the "
                "test data of the hnefatafl-copenhagen project (David Lawrence Campbell; tests/copenhagen.csv, "
                "commit cff8baab of 2025-06-25); results as the site recorded them")


def human_results(path: pathlib.Path = CORPUS) -> dict:
    """Counts of the recorded results: ``Black`` is an attackers' win, ``White`` a defenders' win."""
    with path.open(newline="") as fh:
        counts = collections.Counter(row[3] for row in csv.reader(fh))
    unknown = set(counts) - {"Black", "White", "Draw", "Ongoing"}
    if unknown:
        raise ValueError(f"{path}: unknown results {sorted(unknown)}")
    return {"games": sum(counts.values()), "attackers": counts["Black"], "defenders": counts["White"],
            "draws": counts["Draw"], "unfinished": counts["Ongoing"]}


def decided_share(attackers: int, defenders: int) -> dict:
    """The attackers' share of the decided games with its 95% Wilson interval."""
    n = attackers + defenders
    lo, hi = wilson(attackers, n)
    return {"decided": n, "rate": round(attackers / n, 4) if n else 0.0, "low": round(lo, 4), "high": round(hi, 4)}


def calibrate(levels, games: int, first_seed: int = 0, ply_cap: int = 300, workers=None, scheduler=None,
              work_file=None, progress=True) -> dict:
    configs = [Config(VARIANT, (), lv, lv, ply_cap) for lv in levels]
    data = balance.run(configs, range(first_seed, first_seed + games), workers=workers, scheduler=scheduler,
                       work_file=work_file, progress=progress)
    human = human_results()
    human["share"] = decided_share(human["attackers"], human["defenders"])
    rows = []
    for level, entry in zip(levels, data["results"]):
        s = entry["summary"]
        share = decided_share(s["attackers"]["count"], s["defenders"]["count"])
        rows.append({"level": level, "key": entry["key"], "summary": s, "share": share,
                     "points_from_humans": round(100 * (share["rate"] - human["share"]["rate"]), 1),
                     "within_goal": abs(share["rate"] - human["share"]["rate"]) * 100 <= GOAL_POINTS})
    data["provenance"]["human_source"] = HUMAN_SOURCE
    data["provenance"]["goal"] = f"attackers' share of decided games within {GOAL_POINTS} points of the humans'"
    return {"provenance": data["provenance"], "variant": VARIANT, "default_level": DEFAULT_LEVEL, "human": human,
            "levels": rows, "results": data["results"]}


def _pct(part: dict) -> str:
    return f"{part['rate']:.1%} [{part['low']:.1%}-{part['high']:.1%}]"


def print_report(data: dict) -> None:
    h = data["human"]
    first, last = data["results"][0]["seeds"] if data["results"] else (0, 0)
    print(f"Copenhagen: attackers' share of decided games (95% Wilson interval); self-play seeds {first}-{last}")
    print(f"{'':<22} {'games':>6} {'att. wins':>9} {'def. wins':>9} {'draws':>6} {'median plies':>12}  "
          f"{'attackers of decided':<24} {'vs humans':>9}")
    print(f"{'humans (aagenielsen)':<22} {h['games']:>6} {h['attackers']:>9} {h['defenders']:>9} {h['draws']:>6} "
          f"{'':>12}  {_pct(h['share']):<24} {'':>9}   ({h['unfinished']} unfinished records)")
    for row in data["levels"]:
        s = row["summary"]
        name = f"level {row['level']}" + (" (default)" if row["level"] == data["default_level"] else "")
        print(f"{name:<22} {s['games']:>6} {s['attackers']['count']:>9} {s['defenders']['count']:>9} "
              f"{s['draws']['count']:>6} {s['median_plies']:>12g}  {_pct(row['share']):<24} "
              f"{row['points_from_humans']:>+8.1f}  {'within' if row['within_goal'] else 'outside'} the goal "
              f"(±{GOAL_POINTS})")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--level", type=int, action="append", help=f"AI level (repeatable; default {DEFAULT_LEVEL})")
    p.add_argument("--games", "-n", type=int, default=400)
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--ply-cap", type=int, default=300)
    p.add_argument("--workers", "-j", type=int)
    p.add_argument("--scheduler")
    p.add_argument("--out", default=str(ROOT / "docs" / "data" / "calibration.json"))
    p.add_argument("--work-file", help="default: OUT.work.jsonl")
    p.add_argument("--quick", action="store_true", help="level 1, 4 games, ply cap 60 (a smoke run)")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    levels = args.level or [DEFAULT_LEVEL]
    if args.quick:
        levels, args.games, args.ply_cap = [1], 4, 60
    bad = [lv for lv in levels if lv not in LEVELS and lv not in RETIRED_LEVELS]
    if bad or args.games < 1:
        p.error(f"levels must be among {sorted(LEVELS)} (or the retired {sorted(RETIRED_LEVELS)}) "
                "and --games at least 1")
    work = args.work_file or args.out + ".work.jsonl"
    started = time.monotonic()
    try:
        with balance.signals_interrupt():
            data = calibrate(levels, args.games, args.seed, args.ply_cap, args.workers, args.scheduler, work,
                             not args.no_progress)
    except KeyboardInterrupt:
        print(f"\ninterrupted; finished games are kept in {work}: run the same command again to resume",
              file=sys.stderr)
        return 130
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    data["provenance"]["seconds"] = round(time.monotonic() - started, 1)
    balance.write_json(data, args.out)
    pathlib.Path(work).unlink(missing_ok=True)
    print_report(data)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
