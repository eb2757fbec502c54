"""Calibration: the AI's self-play on the Copenhagen rules beside 1,752 human games.

Run: ``python benchmarks/calibration.py`` (the default level, 400 games, seeds 0-399;
``--level N`` repeatable to try other levels; ``--quick`` for a smoke run;
``--report FILE`` prints a committed run again, playing nothing).

The human yardstick is the corpus in ``tests/data/copenhagen-aagenielsen.csv``:
Copenhagen games played by people on aagenielsen.dk, with the result the site
recorded. The program's figure is self-play of one AI level against itself under
the catalogue's Copenhagen rules (seeded, through :func:`tafl_rules.balance.run`,
so a run can be interrupted and resumed from its work file, and replays from the
committed code). The comparison is the attackers' share of the *decided* games
(draws and unfinished records left out, as the human corpus has almost no draws
and the lab's draws are games stopped at the ply cap), with 95% Wilson intervals.
The goal is the humans' share within 7 points.

People's games mostly end by resignation or on time, which a program playing itself
never does, so the report also gives the people's games that the rules themselves
ended (the record's last move ends the game: an escape, an edge fort, the king
taken, encirclement, no move left), replayed under the catalogue's rules
(:func:`human_endings`).

The results are written to ``docs/data/calibration.json`` (``--out``) with their
provenance; the site's "Which rules are fairest?" page shows them.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tafl_rules import Game, balance, variant  # noqa: E402
from tafl_rules.ai import DEFAULT_LEVEL, LEVELS, RETIRED_LEVELS  # noqa: E402
from tafl_rules.ai.evaluate import evaluator  # noqa: E402
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


#: how a person's decided game ended: the rules ended it, a player ran out of time, or neither
#: (a resignation or an agreed result)
ENDED_BY = ("rules", "time", "resigned")


def human_endings(path: pathlib.Path = CORPUS) -> dict:
    """How the people's decided games ended, replayed under the catalogue's Copenhagen rules:
    ``rules`` where the record's last move ends the game (with each ending's count), ``time``
    where the record ends with ``timeout``, ``resigned`` for the rest. A threefold repetition
    does not stop the replay: the site let such games go on, and each is counted as it ended.
    The attackers' share of the games the rules ended is ``rules_share``."""
    rules = variant(VARIANT).rules.replace(repetition="ignore")
    out = {how: {"attackers": 0, "defenders": 0} for how in ENDED_BY}
    kinds: collections.Counter[str] = collections.Counter()
    with path.open(newline="") as fh:
        for row in csv.reader(fh):
            side = {"Black": "attackers", "White": "defenders"}.get(row[3])
            if side is None:
                continue
            tokens = row[0].split()
            game = Game(rules)
            for token in tokens:
                if token == "timeout":
                    break
                game.play(token.split("x")[0])
            if game.outcome is not None:
                if game.outcome.winner != side:
                    raise ValueError(f"{path}: a record won by the {side} ends under the rules with {game.outcome}")
                how = "rules"
                kinds[str(game.outcome.kind)] += 1
            else:
                how = "time" if "timeout" in tokens else "resigned"
            out[how][side] += 1
    out["rules"]["kinds"] = dict(sorted(kinds.items()))
    out["rules_share"] = decided_share(out["rules"]["attackers"], out["rules"]["defenders"])
    return out


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
    return compare(levels, data["provenance"], data["results"])


def compare(levels, provenance: dict, results: list) -> dict:
    """The calibration record: the people's figures (read from the corpus now) beside the
    self-play ``results`` of each level (the lab's entries, in the order of ``levels``)."""
    human = human_results()
    human["share"] = decided_share(human["attackers"], human["defenders"])
    human["ended"] = human_endings()
    rules_rate = human["ended"]["rules_share"]["rate"]
    rows = []
    for level, entry in zip(levels, results):
        s = entry["summary"]
        share = decided_share(s["attackers"]["count"], s["defenders"]["count"])
        rows.append({"level": level, "key": entry["key"], "summary": s, "share": share,
                     "points_from_humans": round(100 * (share["rate"] - human["share"]["rate"]), 1),
                     "points_from_rules_ended": round(100 * (share["rate"] - rules_rate), 1),
                     "within_goal": abs(share["rate"] - human["share"]["rate"]) * 100 <= GOAL_POINTS})
    provenance["human_source"] = HUMAN_SOURCE
    provenance["goal"] = f"attackers' share of decided games within {GOAL_POINTS} points of the humans'"
    return {"provenance": provenance, "variant": VARIANT, "default_level": DEFAULT_LEVEL, "human": human,
            "levels": rows, "results": results}


def recompare(path: pathlib.Path) -> dict:
    """A committed calibration record with the people's side read again from the corpus (its
    games, provenance and default level as they were: nothing is played)."""
    old = json.loads(path.read_text(encoding="utf-8"))
    data = compare([row["level"] for row in old["levels"]], old["provenance"], old["results"])
    data["default_level"] = old["default_level"]
    return data


CAPPED = ROOT / "docs" / "data" / "copenhagen-capped.json"


def where_it_stood(rules, position: str) -> dict:
    """A final position read for the capped-games report: the king's square, whether it is on
    the edge, how many corners attackers close (all three squares two steps from the corner
    held: a3, b2 and c1 for a1), whether the king stands on one of those squares himself, and
    the men left on each side."""
    final = Game(rules, position=position)
    pos = final.engine
    seals = evaluator(rules).seals
    return {"position": position, "king": final.king_square(),
            "king_on_edge": bool(pos.k >= 0 and pos.t.g.edge >> pos.k & 1),
            "king_on_corner_square": any(pos.k >= 0 and seal >> pos.k & 1 for seal in seals),
            "corners_closed": sum(1 for seal in seals if pos.a & seal == seal),
            "attackers": pos.a.bit_count(), "defenders": pos.d.bit_count()}


def capped_games(path: pathlib.Path, count: int) -> dict:
    """Where the games stopped at the ply cap stood when they stopped: the first ``count`` of
    them (by seed) of the default level (or the one level) of the calibration record ``path``
    are played again
    and their last position read: the king's square and whether it is on the edge, the
    corners closed by attackers on all three squares two steps from them, the men left."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = data["levels"]
    level = data["default_level"] if any(row["level"] == data["default_level"] for row in rows) else rows[0]["level"]
    entry = next(e for row, e in zip(rows, data["results"]) if row["level"] == level)
    config = Config.from_dict(entry["config"])
    seeds = sorted(seed for seed, _w, kind, _p in entry["games"] if kind == balance.PLY_CAP)[:count]
    rules = config.rules()
    started = time.monotonic()
    games = []
    for seed in seeds:
        played = balance.play_game(config, seed, position=True)
        if played["kind"] != balance.PLY_CAP:
            raise ValueError(f"seed {seed} no longer reaches the ply cap: {played}")
        games.append({"seed": seed, **where_it_stood(rules, played["position"])})
    return {"provenance": {"commit": balance._git_commit(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                           "command": f"python benchmarks/calibration.py --capped {count} --from docs/data/{path.name}",
                           "from": path.name, "level": level, "seconds": round(time.monotonic() - started, 1),
                           "capped_in_run": sum(1 for g in entry["games"] if g[2] == balance.PLY_CAP)},
            "games": games}


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
    ended = h.get("ended")
    if ended:
        r = ended["rules"]
        print(f"{'  ended by the rules':<22} {r['attackers'] + r['defenders']:>6} {r['attackers']:>9} "
              f"{r['defenders']:>9} {'':>6} {'':>12}  {_pct(ended['rules_share']):<24}   "
              f"(the rest: {ended['resigned']['attackers']} + {ended['resigned']['defenders']} resigned or agreed, "
              f"{ended['time']['attackers']} + {ended['time']['defenders']} on time)")
    for row in data["levels"]:
        s = row["summary"]
        name = (f"former level {row['level'] % 100}" if row["level"] in RETIRED_LEVELS else f"level {row['level']}"
                + (" (default)" if row["level"] == data["default_level"] else ""))
        print(f"{name:<22} {s['games']:>6} {s['attackers']['count']:>9} {s['defenders']['count']:>9} "
              f"{s['draws']['count']:>6} {s['median_plies']:>12g}  {_pct(row['share']):<24} "
              f"{row['points_from_humans']:>+8.1f}  {'within' if row['within_goal'] else 'outside'} the goal "
              f"(±{GOAL_POINTS})"
              + (f"; {row['points_from_rules_ended']:+.1f} from the games the rules ended"
                 if "points_from_rules_ended" in row else ""))


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
    p.add_argument("--report", metavar="FILE", help="play nothing: print a committed results file beside the "
                   "people's figures as the corpus gives them now (with --write, rewrite its people's side)")
    p.add_argument("--write", action="store_true", help="with --report: rewrite FILE")
    p.add_argument("--capped", type=int, metavar="N", help="play again the first N games of the default level "
                   f"stopped at the ply cap and write where they stood ({CAPPED.relative_to(ROOT)})")
    p.add_argument("--from", dest="source", default=str(ROOT / "docs" / "data" / "calibration-level3.json"),
                   help="with --capped: the calibration record to read")
    args = p.parse_args(argv)
    if args.capped:
        data = capped_games(pathlib.Path(args.source), args.capped)
        balance.write_json(data, str(CAPPED))
        edge = sum(g["king_on_edge"] for g in data["games"])
        print(f"{len(data['games'])} capped games: king on the edge in {edge}; corners closed "
              f"{collections.Counter(g['corners_closed'] for g in data['games'])}; wrote {CAPPED}")
        return 0
    if args.report:
        try:
            data = recompare(pathlib.Path(args.report))
        except (OSError, ValueError, KeyError, TypeError) as error:
            print(f"error: {args.report}: cannot read it as a calibration record ({error!r})", file=sys.stderr)
            return 2
        if args.write:
            balance.write_json(data, args.report)
        print_report(data)
        return 0
    if args.write:
        p.error("--write goes with --report FILE")
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
