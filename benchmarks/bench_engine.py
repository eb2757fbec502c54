"""Engine speed: legal-move generations/s and random-playout plies/s (median of 5 runs).

Run: ``python benchmarks/bench_engine.py`` (add ``--no-pyhnefatafl`` to skip the
comparison, ``--quick`` for shorter runs).

Figures, for each rule set, from its start position:

- *generations/s*: how many times per second the engine lists every legal move of the
  side to move (ours: the internal from -> target-bitboard list; also shown, the public
  ``Game.legal_moves()`` that builds a ``Move`` object with its captures for each move);
- *plies/s*: uniformly random playouts (uniform choice over the whole legal list, game
  rules applied after every ply, cap 500 plies per game), total plies / total time.

Times are CPU seconds of the benchmark process (``time.process_time``), so that other
work on the shared machine does not count against either engine; the wall-clock
plies/s of the same runs is printed beside them.

The comparison package pyhnefatafl 0.3.2 (GPL-3.0, imports as ``hnefatafl``) only installs
on Python < 3.12, so it runs in a venv of its own (benchmarks/.venv-pyhnefatafl, made with
/root/.pyenv/versions/3.11.7/bin/python, or ``$PYHNEFATAFL_PYTHON``) through a subprocess.
Its rules (pyhnefatafl's ``Board``): 11x11 Copenhagen start, attackers first, rook moves,
only the king stops on the throne and the corners, anyone passes the empty throne,
corners always hostile, the throne hostile when empty (the king on it is an armed
defender), armed king, the king taken by four attackers or three and the empty throne,
never on the edge, escape to a corner, a side without moves draws. Ours is set to the
same rules (``FETLAR_LIKE`` below) for the side-by-side figures.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tafl_rules import Game, Rules, variant  # noqa: E402

COPENHAGEN = variant("copenhagen").rules  # the catalogue's Copenhagen Hnefatafl
TABLUT = variant("tablut-linnaeus").rules
CYNINGSTAN = variant("tawlbwrdd-cyningstan").rules
FETLAR_LIKE = Rules(
    size=11, start=COPENHAGEN.start, corners=True, escape="corner",
    corners_hostile_to_attackers="always", corners_hostile_to_defenders="always",
    throne_hostile_to_attackers="empty", throne_hostile_to_defenders="empty",
    king_capture="four", king_capture_against={"throne"}, no_moves="draw",
)
RULESETS = {
    "Copenhagen 11x11": COPENHAGEN,
    "Tablut 9x9 (Linnaeus as read today)": TABLUT,
    "Cyningstan Tawlbwrdd 11x11": CYNINGSTAN,
    "Fetlar-like 11x11 (= pyhnefatafl's rules)": FETLAR_LIKE,
}
CAP = 500

PYH_SNIPPET = r"""
import json, random, statistics, sys, time
import hnefatafl
runs, seconds, cap = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
gens, plies, walls, lengths = [], [], [], []
for run in range(runs):
    board = hnefatafl.Board()
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        list(board.legal_moves)
        n += 1
    gens.append(n / (time.process_time() - t0))
    rng = random.Random(run)
    total = 0
    t0 = time.process_time()
    w0 = time.perf_counter()
    while time.process_time() - t0 < seconds:
        board = hnefatafl.Board()
        board.move_limit = 10 ** 9
        ply = 0
        while ply < cap and board.outcome() is None:
            board.push(rng.choice(list(board.legal_moves)))
            ply += 1
        total += ply
        lengths.append(ply)
    plies.append(total / (time.process_time() - t0))
    walls.append(total / (time.perf_counter() - w0))
print(json.dumps({"gen": statistics.median(gens), "plies": statistics.median(plies),
                  "wall": statistics.median(walls), "length": statistics.mean(lengths)}))
"""


def bench_ours(rules: Rules, runs: int, seconds: float) -> dict[str, float]:
    gens, api_gens, plies, walls, lengths = [], [], [], [], []
    clock = time.process_time
    for run in range(runs):
        game = Game(rules)
        pos = game.engine
        side = pos.side
        n = 0
        t0 = clock()
        while clock() - t0 < seconds:
            pos.move_targets(side)
            n += 1
        gens.append(n / (clock() - t0))
        n = 0
        t0 = clock()
        while clock() - t0 < seconds / 2:
            game.legal_moves()
            n += 1
        api_gens.append(n / (clock() - t0))
        rng = random.Random(run)
        total = 0
        t0 = clock()
        w0 = time.perf_counter()
        while clock() - t0 < seconds:
            n = Game(rules).random_playout(CAP, rng)
            total += n
            lengths.append(n)
        plies.append(total / (clock() - t0))
        walls.append(total / (time.perf_counter() - w0))
    return {"gen": statistics.median(gens), "api_gen": statistics.median(api_gens),
            "plies": statistics.median(plies), "wall": statistics.median(walls),
            "length": statistics.mean(lengths)}


def pyhnefatafl_python() -> pathlib.Path | None:
    """The venv's python, created (pip install pyhnefatafl==0.3.2) if it is missing."""
    env = os.environ.get("PYHNEFATAFL_PYTHON")
    if env:
        return pathlib.Path(env)
    venv = HERE / ".venv-pyhnefatafl"
    python = venv / "bin" / "python"
    if not python.exists():
        base = pathlib.Path("/root/.pyenv/versions/3.11.7/bin/python")
        if not base.exists():
            return None
        subprocess.run([str(base), "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "pyhnefatafl==0.3.2"], check=True)
    return python


def bench_pyhnefatafl(runs: int, seconds: float) -> dict[str, float] | None:
    python = pyhnefatafl_python()
    if python is None:
        return None
    out = subprocess.run([str(python), "-c", PYH_SNIPPET, str(runs), str(seconds), str(CAP)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="0.3 s per measurement instead of 1 s")
    parser.add_argument("--no-pyhnefatafl", action="store_true", help="skip the comparison")
    args = parser.parse_args(argv)
    runs, seconds = 5, (0.3 if args.quick else 1.0)
    print(f"tafl_rules engine, Python {sys.version.split()[0]}, median of {runs} runs of {seconds} CPU s each; "
          f"playouts uniform over all legal moves, cap {CAP} plies; load average {os.getloadavg()[0]:.1f}")
    print(f"{'rules':44} {'gen/s':>10} {'legal_moves()/s':>16} {'plies/s':>10} {'(wall)':>10} {'mean game':>10}")
    ours = {}
    for name, rules in RULESETS.items():
        r = bench_ours(rules, runs, seconds)
        ours[name] = r
        print(f"{name:44} {r['gen']:10.0f} {r['api_gen']:16.0f} {r['plies']:10.0f} {r['wall']:10.0f} {r['length']:10.1f}")
    if args.no_pyhnefatafl:
        return
    theirs = bench_pyhnefatafl(runs, seconds)
    if theirs is None:
        print("pyhnefatafl: no Python 3.11 to run it with; skipped")
        return
    mine = ours["Fetlar-like 11x11 (= pyhnefatafl's rules)"]
    print(f"{'pyhnefatafl 0.3.2 (Python 3.11, same rules)':44} {theirs['gen']:10.0f} {'-':>16} {theirs['plies']:10.0f} {theirs['wall']:10.0f} {theirs['length']:10.1f}")
    print(f"ratio ours / pyhnefatafl on the same rules: generations {mine['gen'] / theirs['gen']:.1f}x, "
          f"plies {mine['plies'] / theirs['plies']:.1f}x (target: plies >= 3x)")
    cop = ours["Copenhagen 11x11"]
    print(f"Copenhagen plies/s: {cop['plies']:.0f} per CPU second, {cop['wall']:.0f} wall-clock (target: >= 30,000)")


if __name__ == "__main__":
    main()
