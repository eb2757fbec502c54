"""The people-like player beside every published result of people's games, and the error model fitted to them.

Run: ``python benchmarks/people_calibration.py -j 2`` (plays what is missing, resumable from its
work file, then writes ``docs/data/people-calibration.json`` and prints the table); ``--report``
prints the committed table again, playing nothing; ``--games N`` plays N games a rule set (a
smoke run: ``--games 2 --out /tmp/x.json``).

*People's results*: the 1,752 Copenhagen games of the test corpus (counts read from
``tests/data``, with how each game ended: on the board, given up, on time) and every result in
``docs/data/human-results.json`` whose rules the catalogue plays exactly (``match: same``). The
figure is the attackers' share of the decided games (draws left out), with its count of decided
games where one is published.

*The player*: :mod:`tafl_rules.ai.people` at its own style (:data:`tafl_rules.ai.people.STYLE`,
chosen by the likelihood of people's moves, never by results), on both sides, on each rule set.
Its games are counted twice: as they ended on the board, and as people's are counted (the give-up
model, :mod:`tafl_rules.ai.giveup`, says how likely each side was to give up on the way). Nothing
of the player is fitted to these results.

*The comparisons*: on the board against on the board (the corpus, the only people's result whose
records tell how its games ended), and counted as people's against all (every dataset: the
publishers count games however they ended).

*The error model* (``tafl_sphinx.error_model``): people's share against the player's counted as
people's, on the logit scale, by rule family, fitted to all datasets; and checked out of sample,
each dataset predicted by the model fitted without its rule set, with its 90% interval.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from tafl_rules import balance, variant  # noqa: E402
from tafl_rules.ai.people import STYLE, style_name  # noqa: E402
from tafl_rules.balance import Config, wilson  # noqa: E402
from tafl_sphinx import error_model  # noqa: E402
from calibration import human_endings  # noqa: E402

HUMAN_RESULTS = ROOT / "docs" / "data" / "human-results.json"
CORPUS = ROOT / "tests" / "data" / "copenhagen-aagenielsen.csv"
OUT = ROOT / "docs" / "data" / "people-calibration.json"
PLY_CAP = 300
GAMES = 200


def datasets() -> list[dict[str, Any]]:
    """People's results the catalogue plays exactly: id, rules (variant and toggles), family, the
    attackers' share of the decided games, how many were decided (None where not published), and
    what the figure counts."""
    ended = human_endings(CORPUS)
    on_board, gave_up, time_ = ended["rules"], ended["resigned"], ended["time"]
    a = on_board["attackers"] + gave_up["attackers"] + time_["attackers"]
    d = on_board["defenders"] + gave_up["defenders"] + time_["defenders"]
    out = [{"id": "copenhagen-corpus", "variant": "copenhagen", "toggles": {},
            "label": "Copenhagen, 1,752 games on aagenielsen.dk", "attackers": a, "defenders": d,
            "ended": {"known": True, "on_board": {"attackers": on_board["attackers"], "defenders": on_board["defenders"]},
                      "gave_up": gave_up, "on_time": time_,
                      "counts": "every decided game of the records: ended on the board, given up (resigned or "
                                "left: the records do not tell which) or lost on time"}}]
    for r in json.loads(HUMAN_RESULTS.read_text(encoding="utf-8"))["results"]:
        if r["match"] != "same":
            continue
        row = {"id": r["id"], "variant": r["config"]["variant"], "toggles": dict(r["config"]["toggles"]),
               "label": r["rules"], "ended": r["ended"]}
        if "counts" in r:
            row["attackers"], row["defenders"] = r["counts"]["attackers"], r["counts"]["defenders"]
        elif "percent" in r:
            row["share"] = r["percent"]["attackers"] / (r["percent"]["attackers"] + r["percent"]["defenders"])
        else:  # Nielsen's balance: -1.61 is 161 attackers' wins for every 100 defenders' wins
            b = r["balance"]
            row["share"] = abs(b) / (abs(b) + 1) if b < 0 else 1 / (1 + b)
        out.append(row)
    for row in out:
        row["decided"] = row["attackers"] + row["defenders"] if "attackers" in row else None
        if "attackers" in row:
            row["share"] = row["attackers"] / row["decided"]
            row["low"], row["high"] = wilson(row["attackers"], row["decided"])
        row["rule_set"] = rule_set(row)
        rules = variant(row["variant"], **row["toggles"]).rules
        row["family"] = error_model.family(rules.escape, rules.king_armed)
    return out


def rule_set(row: dict[str, Any]) -> str:
    toggles = "&".join(f"{k}={v}" for k, v in sorted(row["toggles"].items()))
    return row["variant"] + ("?" + toggles if toggles else "")


def config(row: dict[str, Any]) -> Config:
    """A dataset's rules played by the player at its own style on both sides."""
    name = style_name(STYLE)
    return Config(row["variant"], tuple(row["toggles"].items()), name, name, PLY_CAP)


def configs(rows: list[dict[str, Any]]) -> list[Config]:
    """One configuration a rule set (the two Copenhagen datasets share one)."""
    return list(dict.fromkeys(config(r) for r in rows))


def on_board(summary: dict[str, Any]) -> dict[str, Any]:
    a, d = summary["attackers"]["count"], summary["defenders"]["count"]
    lo, hi = wilson(a, a + d)
    return {"attackers": a, "defenders": d, "share": a / (a + d) if a + d else 0.5, "low": lo, "high": hi}


def table(rows: list[dict[str, Any]], by_key: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out = []
    for r in rows:
        s = by_key[config(r).key]["summary"]
        counted = s["counted_as_people"]
        row = {"id": r["id"], "label": r["label"], "rule_set": r["rule_set"], "family": r["family"],
               "people": r["share"], "people_low": r.get("low"), "people_high": r.get("high"),
               "people_games": r["decided"], "games": s["games"], "ply_cap": s["endings"].get(balance.PLY_CAP, 0),
               "on_board": on_board(s), "counted": counted,
               "player": counted["share"], "player_games": counted["attackers"] + counted["defenders"],
               "error_counted": round(100 * (counted["share"] - r["share"]), 2)}
        if r["ended"].get("known"):
            ob = r["ended"]["on_board"]
            lo, hi = wilson(ob["attackers"], ob["attackers"] + ob["defenders"])
            row["people_on_board"] = {**ob, "share": ob["attackers"] / (ob["attackers"] + ob["defenders"]),
                                      "low": lo, "high": hi}
        out.append(row)
    model = error_model.fit(out)
    loo = error_model.leave_one_out(out)
    inside = sum(x["inside"] for x in loo)
    summary = {"model": model.to_dict(), "leave_one_out": loo, "inside": inside, "datasets": len(loo),
               "mean_width": round(100 * sum(x["high"] - x["low"] for x in loo) / len(loo), 1),
               "level": error_model.LEVEL, "assumed_games": error_model.ASSUMED_GAMES,
               "mean_abs_error_counted": round(sum(abs(x["error_counted"]) for x in out) / len(out), 2)}
    return {"rows": out, "summary": summary}


def print_table(data: dict[str, Any]) -> None:
    s = data["summary"]
    print(f"Attackers' share of decided games: people beside the people-like player ({data['provenance']['player']})")
    print(f"{'dataset':<26} {'people':>16} {'player on board':>18} {'player as people':>18} {'LOO 90% interval':>18}")
    for x, loo in zip(data["rows"], s["leave_one_out"]):
        p = (f"{100 * x['people']:.1f} [{100 * x['people_low']:.0f}-{100 * x['people_high']:.0f}]"
             if x["people_low"] is not None else f"{100 * x['people']:.1f} (point)")
        ob, c = x["on_board"], x["counted"]
        print(f"{x['id']:<26} {p:>16} {100 * ob['share']:>6.1f} [{100 * ob['low']:.0f}-{100 * ob['high']:.0f}] "
              f"{100 * c['share']:>9.1f} [{100 * c['low']:.0f}-{100 * c['high']:.0f}] "
              f"{100 * loo['low']:>8.0f}-{100 * loo['high']:.0f} {'in' if loo['inside'] else 'OUT'}")
        if "people_on_board" in x:
            pob = x["people_on_board"]
            print(f"{'  on the board only':<26} {100 * pob['share']:>6.1f} [{100 * pob['low']:.0f}-{100 * pob['high']:.0f}]")
    print(f"out of sample: {s['inside']} of {s['datasets']} people's results inside their {100 * s['level']:.0f}% "
          f"interval (mean width {s['mean_width']} points); mean error counted as people's: "
          f"{s['mean_abs_error_counted']} points")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workers", "-j", type=int)
    p.add_argument("--out", default=str(OUT))
    p.add_argument("--games", type=int, default=GAMES, help=f"games a rule set (default {GAMES})")
    p.add_argument("--report", action="store_true", help="print the committed table; play nothing")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--so-far", action="store_true", help="play nothing: table the seeds whose every game the work "
                   "file holds (a run stopped part-way); the work file is kept, and the command without it resumes")
    args = p.parse_args(argv)
    if args.report:
        print_table(json.loads(pathlib.Path(args.out).read_text(encoding="utf-8")))
        return 0
    rows = datasets()
    work = args.out + ".work.jsonl"
    started = time.monotonic()
    seeds = range(args.games)
    partial = None
    if args.so_far:  # the seeds whose every game the work file holds, as the lab's --so-far does
        whole = balance.seeds_done(configs(rows), seeds, work)
        if not whole:
            print(f"{work} holds no seed with a game of every rule set yet", file=sys.stderr)
            return 2
        seeds, partial = whole, f"seeds {whole[0]} to {whole[-1]} of the {args.games} planned"
    try:
        with balance.signals_interrupt():
            played = balance.run(configs(rows), seeds, workers=1 if partial else args.workers, work_file=work,
                                 progress=not args.no_progress and not partial)
    except KeyboardInterrupt:
        print(f"\ninterrupted; finished games are kept in {work}: run the same command again to resume",
              file=sys.stderr)
        return 130
    by_key = {e["key"]: e for e in played["results"]}
    command = " ".join(["python benchmarks/people_calibration.py", *(sys.argv[1:] if argv is None else argv)])
    data = {"provenance": {**played["provenance"], "seconds": None if partial else round(time.monotonic() - started, 1),
                           "command": command, "player": style_name(STYLE), "games_per_rule_set": len(seeds),
                           "ply_cap": PLY_CAP, **({"partial": partial} if partial else {})},
            "datasets": rows, **table(rows, by_key), "results": played["results"]}
    balance.write_json(data, args.out)
    if not partial:
        pathlib.Path(work).unlink(missing_ok=True)  # every game is in the results now, as the lab's CLI does
    print_table(data)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
