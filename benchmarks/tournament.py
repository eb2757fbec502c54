"""Level against level: each AI level plays the one below it, on several variants, both sides.

Run: ``python benchmarks/tournament.py`` (defaults below; ``--quick`` for a smoke run).

For each pair (higher level H, lower level L), each variant and each seed, two games
are played: H as the attackers against L, and L as the attackers against H. Games
that reach the ply cap are draws. The table gives H's wins, draws and losses, H's
win rate with its 95% Wilson interval, H's score (a draw counts half) and the
two-sided sign test on the decisive games (how likely so uneven a split would be
between equal players). The games are played by :func:`tafl_rules.balance.run`, so
they use all local cores (or a Dask cluster with ``--scheduler``) and are
reproducible from their seeds; the results are written as JSON (``--out``).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tafl_rules import balance  # noqa: E402
from tafl_rules.ai import RETIRED_LEVELS  # noqa: E402
from tafl_rules.balance import Config, sign_test, wilson  # noqa: E402

VARIANTS = ("brandubh", "tablut-linnaeus", "tawlbwrdd-cyningstan-9")
#: (higher, lower, games per variant and side): 17 x 3 variants x 2 sides = 102 games a pair
PAIRS = ((2, 1, 17), (3, 2, 17), (4, 3, 17), (5, 4, 17))


def tournament(variants, pairs, ply_cap: int, workers=None, scheduler=None, progress=True, work_file=None,
               opening_plies: int = 0, first_seed: int = 0):
    configs = []
    seeds_of = {}
    for hi, lo, n in pairs:
        for vid in variants:
            for la, ld in ((hi, lo), (lo, hi)):
                c = Config(vid, (), la, ld, ply_cap, opening_plies)
                configs.append(c)
                seeds_of[c.key] = n
    # balance.run plays every config with the same seeds: group configs by game count
    results = []
    provenance = None
    resumed = 0
    for n in sorted(set(seeds_of.values()), reverse=True):
        group = [c for c in configs if seeds_of[c.key] == n]
        data = balance.run(group, range(first_seed, first_seed + n), workers=workers, scheduler=scheduler, progress=progress,
                           work_file=work_file)
        results += data["results"]
        provenance = data["provenance"]
        resumed += provenance["resumed"]
    provenance["resumed"] = resumed  # every group's, not only the last one's
    by_key = {r["key"]: r for r in results}
    table = []
    for hi, lo, n in pairs:
        row = {"higher": hi, "lower": lo, "variants": list(variants), "games": 0, "wins": 0, "draws": 0, "losses": 0,
               "by_side": {}}
        for vid in variants:
            for side, (la, ld) in (("attackers", (hi, lo)), ("defenders", (lo, hi))):
                s = by_key[Config(vid, (), la, ld, ply_cap, opening_plies).key]["summary"]
                w = s[side]["count"]
                d = s["draws"]["count"]
                l_ = s["games"] - w - d
                row["games"] += s["games"]
                row["wins"] += w
                row["draws"] += d
                row["losses"] += l_
                tot = row["by_side"].setdefault(side, [0, 0, 0])
                tot[0] += w
                tot[1] += d
                tot[2] += l_
        lo_ci, hi_ci = wilson(row["wins"], row["games"])
        row["win_rate"] = round(row["wins"] / row["games"], 4)
        row["win_low"], row["win_high"] = round(lo_ci, 4), round(hi_ci, 4)
        row["score"] = round((row["wins"] + row["draws"] / 2) / row["games"], 4)
        table.append(row)
    return {"provenance": provenance, "ply_cap": ply_cap, "opening_plies": opening_plies, "first_seed": first_seed,
            "table": table,
            "results": results}


def seeds_so_far(work_file, variants, pairs, ply_cap: int, opening_plies: int = 0, first_seed: int = 0):
    """The pairs cut down to the seeds (from ``first_seed`` on, without a gap) whose games the work
    file holds for every variant and both sides (:func:`tafl_rules.balance.seeds_done`)."""
    cut = []
    for hi, lo, n in pairs:
        configs = [Config(vid, (), la, ld, ply_cap, opening_plies) for vid in variants for la, ld in ((hi, lo), (lo, hi))]
        k = len(balance.seeds_done(configs, range(first_seed, first_seed + n), work_file))
        if k:
            cut.append((hi, lo, k))
    return cut


def _level_name(level: int) -> str:
    return f"former {level - 100}" if level in RETIRED_LEVELS else str(level)


def print_table(data) -> None:
    print(f"ply cap {data['ply_cap']}; random opening plies {data.get('opening_plies', 0)}; variants: {', '.join(data['table'][0]['variants'])}")
    print(f"{'pair':<8} {'games':>5} {'W':>4} {'D':>4} {'L':>4}  {'win rate [95% CI]':<22} {'score':>6}  "
          f"{'sign p':>7}  {'as attackers W/D/L':<18} {'as defenders W/D/L':<18}")
    for r in sorted(data["table"], key=lambda r: (r["higher"], r["lower"])):
        ci = f"{r['win_rate']:.0%} [{r['win_low']:.0%}-{r['win_high']:.0%}]"
        a = "/".join(map(str, r["by_side"]["attackers"]))
        d = "/".join(map(str, r["by_side"]["defenders"]))
        print(f"{r['higher']} v {r['lower']:<3} {r['games']:>5} {r['wins']:>4} {r['draws']:>4} {r['losses']:>4}  "
              f"{ci:<22} {r['score']:>6.0%}  {sign_test(r['wins'], r['losses']):>7.3f}  {a:<18} {d:<18}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variants", nargs="+", default=list(VARIANTS))
    p.add_argument("--pairs", nargs="+", default=[f"{h}:{l}:{n}" for h, l, n in PAIRS],
                   help="HIGHER:LOWER:GAMES (games per variant and side)")
    p.add_argument("--ply-cap", type=int, default=120)
    p.add_argument("--first-seed", type=int, default=0, help="seeds are FIRST_SEED .. FIRST_SEED + GAMES - 1")
    p.add_argument("--opening-plies", type=int, default=2, help="random (seeded) plies before the AIs take over")
    p.add_argument("--workers", "-j", type=int)
    p.add_argument("--scheduler")
    p.add_argument("--out", default=str(ROOT / "docs" / "data" / "tournament.json"))
    p.add_argument("--quick", action="store_true", help="levels 1-3, two games per variant and side")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument("--so-far", action="store_true",
                   help="play nothing: write the table of the seeds every game of which the work file holds "
                        "(a part-way run; the work file is kept, and the command without --so-far resumes)")
    args = p.parse_args(argv)
    pairs = [tuple(int(x) for x in s.split(":")) for s in args.pairs]
    if args.quick:
        pairs = [(2, 1, 2), (3, 2, 2)]
    started = time.monotonic()
    work = args.out + ".work.jsonl"
    planned = pairs
    if args.so_far:
        pairs = seeds_so_far(work, args.variants, pairs, args.ply_cap, args.opening_plies, args.first_seed)
        if not pairs:
            print(f"error: {work} holds no seed with every game of a pair played yet", file=sys.stderr)
            return 1
    try:
        with balance.signals_interrupt():
            data = tournament(args.variants, pairs, args.ply_cap, args.workers, args.scheduler, not args.no_progress,
                              work_file=work, opening_plies=args.opening_plies, first_seed=args.first_seed)
    except KeyboardInterrupt:
        print(f"\ninterrupted; finished games are kept in {work}: run the same command again to resume",
              file=sys.stderr)
        return 130
    data["provenance"]["seconds"] = round(time.monotonic() - started, 1)
    data["provenance"]["games"] = sum(r["summary"]["games"] for r in data["results"])
    data["provenance"]["seeds"] = {f"{h}v{l}": n for h, l, n in pairs}
    if args.so_far:
        data["provenance"]["seconds"] = None  # nothing was played: the games' time is not known here
        planned_seeds = {(h, l): n for h, l, n in planned}
        data["provenance"]["partial"] = "; ".join(
            f"{_level_name(h)} v {_level_name(l)}: seeds {args.first_seed} to {args.first_seed + k - 1} of the {planned_seeds[h, l]} planned"
            for h, l, k in pairs)
    balance.write_json(data, args.out)
    if not args.so_far:
        pathlib.Path(work).unlink(missing_ok=True)
    print_table(data)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
