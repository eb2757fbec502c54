"""AI speed: move time and nodes per second per level (CPython, and Pyodide under Node), games per hour per core.

Run: ``python benchmarks/bench_ai.py`` (``--quick`` for fewer positions, ``--no-pyodide``
to skip the Pyodide part, ``--json FILE`` to keep the figures).

* *Move time*: the positions are those after plies 0, 3, 6, ... 27 of a level-1
  self-play game (seed 0) of each variant below (7x7, 9x9, two 11x11 and a 19x19
  board); every level searches every position (seed 0). The median and the
  maximum over all positions are reported, and the same for the 11x11 and 19x19
  positions alone, with the nodes searched per second. CPU seconds of this process
  (``time.process_time``), so other work on a shared machine does not count. The
  same positions are then searched in Pyodide (the browser worker's Python, run
  here by Node from ``node_modules/pyodide``, wall-clock of a single thread) for
  the levels given with ``--pyodide-levels``.
* *Games per hour per core*: whole self-play games (both sides at the level) of
  brandubh and tablut-linnaeus with a ply cap of 120, CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tafl_rules import Game  # noqa: E402
from tafl_rules.ai import LEVELS, analyse, choose_move  # noqa: E402

VARIANTS = ("brandubh", "tablut-linnaeus", "tawlbwrdd-cyningstan", "copenhagen", "alea-evangelii")
#: The boards the strongest level's time goal is about (the browser's slowest cases).
LARGE = (11, 19)
GAME_VARIANTS = ("brandubh", "tablut-linnaeus")


def positions(vid: str, count: int) -> list[tuple[str, str]]:
    """(position, side to move) after plies 0, 3, 6, ... of a level-1 self-play game."""
    game = Game(vid)
    out = []
    while len(out) < count and game.outcome is None:
        if game.ply % 3 == 0:
            out.append((game.position(), game.turn))
        game.play(choose_move(game, 1, 0))
    return out


def cpython_move_times(cases, levels) -> dict[int, list[tuple[float, int]]]:
    """(CPU seconds, nodes) of each level's search of each position."""
    times: dict[int, list[tuple[float, int]]] = {lv: [] for lv in levels}
    for vid, pos, turn in cases:
        for lv in levels:
            game = Game(vid, position=pos, turn=turn)
            t0 = time.process_time()
            result = analyse(game, lv, 0)
            times[lv].append((time.process_time() - t0, result.nodes))
    return times


def summary(cases, runs: list[tuple[float, int]]) -> dict:
    """Median and max seconds over all positions and over the large boards alone, and nodes/s."""
    sizes = [Game(vid).size for vid, _p, _t in cases]
    secs = [t for t, _n in runs]
    large = [t for (t, _n), size in zip(runs, sizes) if size in LARGE]
    nodes = sum(n for _t, n in runs)
    return {"median": round(statistics.median(secs), 4), "max": round(max(secs), 4),
            "large_median": round(statistics.median(large), 4) if large else None,
            "large_max": round(max(large), 4) if large else None,
            "nodes_per_second": round(nodes / sum(secs)) if sum(secs) else None}


def _line(lv: int, s: dict) -> str:
    return (f"  level {lv}: median {s['median']:.3f} s, max {s['max']:.3f} s; 11x11 and 19x19: median "
            f"{s['large_median']:.3f} s, max {s['large_max']:.3f} s; {s['nodes_per_second']:,} nodes/s")


_NODE = r"""
const { loadPyodide } = require(process.argv[2]);
(async () => {
  const py = await loadPyodide();
  py.FS.mkdirTree('/pkg');
  py.FS.mount(py.FS.filesystems.NODEFS, { root: process.argv[3] }, '/pkg');
  const out = py.runPython(`
import sys, json, time
sys.path.insert(0, '/pkg')
from tafl_rules import Game
from tafl_rules.ai import analyse
cases = json.load(open('/pkg/.bench_ai_cases.json'))
res = {}
for lv in cases['levels']:
    res[lv] = []
    for vid, pos, turn in cases['cases']:
        g = Game(vid, position=pos, turn=turn)
        t0 = time.perf_counter()
        r = analyse(g, lv, 0)
        res[lv].append((time.perf_counter() - t0, r.nodes))
json.dumps(res)
`);
  console.log(out);
})().catch(e => { console.error(e); process.exit(1); });
"""


def pyodide_move_times(cases, levels) -> dict[int, list[tuple[float, int]]] | None:
    pyodide = ROOT / "node_modules" / "pyodide" / "pyodide.js"
    if not pyodide.exists():
        print("(no node_modules/pyodide: Pyodide part skipped)")
        return None
    spec = ROOT / ".bench_ai_cases.json"
    spec.write_text(json.dumps({"levels": list(levels), "cases": cases}))
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".js", delete=False) as fh:
            fh.write(_NODE)
        proc = subprocess.run(["node", fh.name, str(pyodide), str(ROOT)], capture_output=True, text=True,
                              timeout=3600)
        if proc.returncode:
            print("Pyodide run failed:", proc.stderr[-2000:])
            return None
        data = json.loads(proc.stdout.strip().splitlines()[-1])
        return {int(k): [tuple(x) for x in v] for k, v in data.items()}
    finally:
        spec.unlink(missing_ok=True)
        pathlib.Path(fh.name).unlink(missing_ok=True)


def games_per_hour(levels, per_level: dict[int, int], cap: int = 120) -> dict[int, dict]:
    out = {}
    for lv in levels:
        cpu = 0.0
        games = 0
        plies = []
        for vid in GAME_VARIANTS:
            for seed in range(per_level[lv]):
                game = Game(vid)
                t0 = time.process_time()
                while game.outcome is None and game.ply < cap:
                    game.play(choose_move(game, lv, seed))
                cpu += time.process_time() - t0
                games += 1
                plies.append(game.ply)
        out[lv] = {"games": games, "cpu_seconds": round(cpu, 2), "games_per_hour_per_core": round(3600 * games / cpu),
                   "median_plies": statistics.median(plies)}
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--no-pyodide", action="store_true")
    p.add_argument("--pyodide-levels", nargs="+", type=int, default=[1, 2, 3])
    p.add_argument("--no-games", action="store_true")
    p.add_argument("--levels", nargs="+", type=int, help="the levels timed in CPython (default: all)")
    p.add_argument("--json")
    args = p.parse_args(argv)
    levels = sorted(args.levels or LEVELS)
    count = 4 if args.quick else 10
    cases = [(vid, pos, turn) for vid in VARIANTS for pos, turn in positions(vid, count)]
    print(f"{len(cases)} positions ({count} per variant: {', '.join(VARIANTS)})")
    report: dict = {"positions": len(cases), "variants": VARIANTS}
    cp = cpython_move_times(cases, levels)
    report["cpython"] = {lv: summary(cases, runs) for lv, runs in cp.items()}
    print(f"CPython {sys.version.split()[0]}, CPU seconds per move:")
    for lv in levels:
        print(_line(lv, report["cpython"][lv]))
    if not args.no_pyodide:
        pyo = pyodide_move_times(cases, args.pyodide_levels)
        if pyo:
            report["pyodide"] = {lv: summary(cases, runs) for lv, runs in pyo.items()}
            print("Pyodide (Node, one thread), wall seconds per move:")
            for lv in sorted(pyo):
                s = report["pyodide"][lv]
                print(_line(lv, s) + f" ({s['median'] / report['cpython'][lv]['median']:.1f}x CPython's median)")
    if not args.no_games:
        per = {1: 10, 2: 4, 3: 2, 4: 1, 5: 1} if not args.quick else {1: 2, 2: 1, 3: 1, 4: 1, 5: 1}
        gl = games_per_hour([lv for lv in levels if lv in per] if not args.quick else [1, 2, 3], per)
        report["games"] = gl
        print(f"Self-play games per hour per core ({' and '.join(GAME_VARIANTS)}, ply cap 120, CPU time):")
        for lv, g in gl.items():
            print(f"  level {lv}: {g['games_per_hour_per_core']} games/h ({g['games']} games, "
                  f"{g['cpu_seconds']} s, median {g['median_plies']} plies)")
    if args.json:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
        report["provenance"] = {"command": "python benchmarks/bench_ai.py " + " ".join(sys.argv[1:] if argv is None else argv),
                                "commit": commit.strip() or None, "python": sys.version.split()[0],
                                "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
                                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        pathlib.Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
