"""Self-play on the rules under which people's published results were played.

Run: ``python benchmarks/people_rules.py --level 1 -n 200 --out docs/data/balance-people-level1.json``

``docs/data/human-results.json`` names, for each published figure, the catalogue variant and
toggles that play the same rules as those people did (its ``config``). The lab's other runs
cover the catalogue's variants as they stand; this one plays each named configuration that
no other committed ``docs/data/balance*.json`` holds at the level asked for, so that every
published figure has the program's self-play on the same rules beside it. The output is an
ordinary balance results file (seeded, resumable from its work file, replayed by the tests)
that the fairest page reads with the others.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tafl_rules import balance  # noqa: E402
from tafl_rules.__main__ import _print_table  # noqa: E402
from tafl_rules.balance import Config  # noqa: E402

DATA = ROOT / "docs" / "data"
HUMAN_RESULTS = DATA / "human-results.json"


def people_configs(level: int, ply_cap: int = 300) -> list[Config]:
    """The configurations of the published results (each once), in the file's order."""
    out: dict[str, Config] = {}
    for result in json.loads(HUMAN_RESULTS.read_text(encoding="utf-8"))["results"]:
        named = result["config"]
        if named:
            config = Config(named["variant"], tuple(sorted(named["toggles"].items())), level, level, ply_cap)
            out.setdefault(config.key, config)
    return list(out.values())


def played_elsewhere(out: pathlib.Path) -> set[str]:
    """Keys of the configurations in the committed results files other than ``out``."""
    keys = set()
    for path in DATA.glob("balance*.json"):
        if path.resolve() != out.resolve():
            keys |= {entry["key"] for entry in json.loads(path.read_text(encoding="utf-8"))["results"]}
    return keys


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--level", type=int, default=1, help="AI level of both sides (default 1)")
    p.add_argument("--games", "-n", type=int, default=200)
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--ply-cap", type=int, default=300)
    p.add_argument("--workers", "-j", type=int)
    p.add_argument("--out", help="default: docs/data/balance-people-levelN.json")
    p.add_argument("--work-file", help="default: OUT.work.jsonl")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    out = pathlib.Path(args.out or DATA / f"balance-people-level{args.level}.json")
    work = args.work_file or str(out) + ".work.jsonl"
    elsewhere = played_elsewhere(out)
    configs = []
    for config in people_configs(args.level, args.ply_cap):
        if config.key in elsewhere:
            print(f"{config.key}: already in another results file, not played again")
        else:
            configs.append(config)
    if not configs:
        print("every published result's rules are played already at this level")
        return 0
    try:
        with balance.signals_interrupt():
            data = balance.run(configs, range(args.seed, args.seed + args.games), workers=args.workers,
                               work_file=work, progress=not args.no_progress)
    except KeyboardInterrupt:
        print(f"\ninterrupted; finished games are kept in {work}: run the same command again to resume",
              file=sys.stderr)
        return 130
    except (ValueError, balance.WorkFileError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    balance.write_json(data, str(out))
    pathlib.Path(work).unlink(missing_ok=True)
    _print_table(data)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
