"""The people-like player's speed in CPython: seconds to read its model, and CPU milliseconds a move.

Run: ``python benchmarks/bench_people.py [--peer MODEL.json] [--positions 10]``. The positions are
those ``bench_ai.py`` uses (plies 0, 3, 6, ... of a level-1 self-play game of each of its variants);
the player chooses a move in each (seed 0), with the package's model and, with ``--peer``, with
another model file in the same run, position for position in turn, so both see the same load (an
earlier model: ``git show REV:tafl_rules/ai/people-model.json > old.json``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_ai import VARIANTS, positions  # noqa: E402
from tafl_rules import Game  # noqa: E402
from tafl_rules.ai.people import MODEL_PATH, STYLE, model_from_data, people_move  # noqa: E402


def read(path: Path):
    """The model at ``path`` and the CPU seconds reading it took (the file's JSON and the model's tables)."""
    import json

    t0 = time.process_time()
    model = model_from_data(json.loads(path.read_text(encoding="utf-8")), str(path))
    return model, time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="another model file, timed beside the package's")
    parser.add_argument("--positions", type=int, default=10, help="positions per variant (default 10)")
    args = parser.parse_args(argv)
    models = {"package": read(MODEL_PATH)}
    if args.peer:
        models["peer"] = read(args.peer)
    cases = [(vid, pos, turn) for vid in VARIANTS for pos, turn in positions(vid, args.positions)]
    times: dict[str, list[float]] = {name: [] for name in models}
    for vid, pos, turn in cases:
        for name, (model, _read) in models.items():
            game = Game(vid, position=pos, turn=turn)
            t0 = time.process_time()
            people_move(game, STYLE, 0, model)
            times[name].append(time.process_time() - t0)
    print(f"{len(cases)} positions ({', '.join(VARIANTS)}), CPU time of this process")
    for name, (model, seconds) in models.items():
        path = MODEL_PATH if name == "package" else args.peer
        by_variant = "; ".join(f"{vid} {statistics.median(t for t, c in zip(times[name], cases) if c[0] == vid) * 1000:.1f}"
                               for vid in VARIANTS)
        print(f"  {name} ({path.stat().st_size / 1e6:.2f} MB, {len(model.out)} hidden units, "
              f"{'with' if model.judged else 'without'} the search's facts): read in {seconds:.2f} s; "
              f"a move: median {statistics.median(times[name]) * 1000:.1f} ms, max {max(times[name]) * 1000:.1f} ms "
              f"(medians by variant, ms: {by_variant})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
