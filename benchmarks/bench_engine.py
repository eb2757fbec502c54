"""Engine speed: move generation and random playouts, inside the engine and through the
public API, side by side with pyhnefatafl in the same run (median of 5 runs).

Run: ``python benchmarks/bench_engine.py`` (``--no-pyhnefatafl`` skips the comparison,
``--quick`` makes shorter runs, ``--long`` adds the long-game table below).

Figures, for each rule set, from its start position:

- *gen/s*: how many times per second the engine lists every legal move of the side to
  move (the engine's from -> target-bitboard list, ``Position.move_targets``);
- *legal_moves()/s*: the same through the public ``Game.legal_moves()`` (a sequence
  whose :class:`Move` objects are made when read);
- *inner plies/s*: ``Game.random_playout`` (uniform over the whole legal list, rules
  applied after every ply, cap 500 plies per game), total plies / total time;
- *public plies/s*: the same playouts through the public API a user's own program
  would use: ``game.play(rng.choice(game.legal_moves()))`` until ``game.outcome``;
- *list plies/s*: the same with ``list(game.legal_moves())`` (every move made as an
  object each ply, as pyhnefatafl's ``list(board.legal_moves)`` does).

Times are CPU seconds of the benchmark process (``time.process_time``), so that other
work on the shared machine does not count against either engine; the wall-clock
public plies/s of the same runs is printed beside them.

The comparison package pyhnefatafl 0.3.2 (GPL-3.0, imports as ``hnefatafl``) only installs
on Python < 3.12, so it runs in a venv of its own (benchmarks/.venv-pyhnefatafl, made with
/root/.pyenv/versions/3.11.7/bin/python, or ``$PYHNEFATAFL_PYTHON``) through a subprocess,
through its own public API (``board.push(rng.choice(list(board.legal_moves)))``, which
makes every move an object each ply, so its public and list figures are one). The
fetlar-like figures of this package are also measured under that same interpreter, so
that the ratios printed are not the interpreters' difference.
Its rules (pyhnefatafl's ``Board``): 11x11 Copenhagen start, attackers first, rook moves,
only the king stops on the throne and the corners, anyone passes the empty throne,
corners always hostile, the throne hostile when empty (the king on it is an armed
defender), armed king, the king taken by four attackers or three and the empty throne,
never on the edge, escape to a corner, a side without moves draws. Ours is set to the
same rules (``FETLAR_LIKE`` below) for the side-by-side figures.

``--long`` times what a page does with a long game (1,000, 4,000 and 10,000 plies of
brandubh, a shuffle of one attacker and one defender): reading and writing its OTN
record, and the browser worker's ``new`` (a share link or a saved game) and
``import``/``export`` requests. Every one of them grows linearly with the game.
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

from tafl_rules import Game, Rules, game_from_otn, game_to_otn, variant, webapi  # noqa: E402

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


def _public_playout(rules: Rules, rng: random.Random, materialise: bool) -> int:
    game = Game(rules)
    ply = 0
    while ply < CAP and game.outcome is None:
        moves = game.legal_moves()
        game.play(rng.choice(list(moves) if materialise else moves))
        ply += 1
    return ply


def _rate(work, seconds: float) -> tuple[float, float, list[int]]:
    """Run ``work()`` (which returns a count) for ``seconds`` of CPU time: (count per CPU
    second, count per wall-clock second, the counts)."""
    clock = time.process_time
    counts = []
    t0 = clock()
    w0 = time.perf_counter()
    while clock() - t0 < seconds:
        counts.append(work())
    return sum(counts) / (clock() - t0), sum(counts) / (time.perf_counter() - w0), counts


def bench_ours(rules: Rules, runs: int, seconds: float) -> dict[str, float]:
    out: dict[str, list[float]] = {k: [] for k in ("gen", "api_gen", "plies", "public", "public_wall", "list")}
    lengths: list[int] = []
    for run in range(runs):
        game = Game(rules)
        pos = game.engine
        side = pos.side
        out["gen"].append(_rate(lambda: (pos.move_targets(side), 1)[1], seconds)[0])
        out["api_gen"].append(_rate(lambda: (game.legal_moves(), 1)[1], seconds / 2)[0])
        rng = random.Random(run)
        rate, _wall, counts = _rate(lambda: Game(rules).random_playout(CAP, rng), seconds)
        out["plies"].append(rate)
        lengths += counts
        rng = random.Random(run)
        rate, wall, _counts = _rate(lambda: _public_playout(rules, rng, False), seconds)
        out["public"].append(rate)
        out["public_wall"].append(wall)
        rng = random.Random(run)
        out["list"].append(_rate(lambda: _public_playout(rules, rng, True), seconds)[0])
    result = {k: statistics.median(v) for k, v in out.items()}
    result["length"] = statistics.mean(lengths)
    return result


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


def _brandubh_shuffle(plies: int) -> list[str]:
    cycle = ["d7-e7", "d5-e5", "e7-d7", "e5-d5"]
    return [cycle[i % 4] for i in range(plies)]


def bench_long_games(sizes: tuple[int, ...] = (1000, 4000, 10000)) -> None:
    """Seconds (CPU) for what a page does with a game of n plies."""
    print()
    print("long games (brandubh, repetition ignored), CPU seconds:")
    print(f"{'plies':>7} {'game_from_otn':>14} {'game_to_otn':>12} {'webapi new':>11} {'import':>8} {'export':>8}")
    rules = variant("brandubh").rules
    for n in sizes:
        moves = _brandubh_shuffle(n)
        game = Game(rules)
        for m in moves:
            game.play(m)
        clock = time.process_time
        t0 = clock()
        record = game_to_otn(game)
        t_write = clock() - t0
        t0 = clock()
        game_from_otn(record)
        t_read = clock() - t0
        t0 = clock()
        reply = json.loads(webapi.handle("new", json.dumps({"board": "bench", "variant": "brandubh", "moves": moves})))
        t_new = clock() - t0
        assert reply.get("cursor") == n, reply.get("error")
        t0 = clock()
        reply = json.loads(webapi.handle("import", json.dumps({"board": "bench", "otn": record})))
        t_import = clock() - t0
        assert reply.get("cursor") == n, reply.get("error")
        t0 = clock()
        webapi.handle("export", json.dumps({"board": "bench"}))
        t_export = clock() - t0
        print(f"{n:>7} {t_read:14.3f} {t_write:12.3f} {t_new:11.3f} {t_import:8.3f} {t_export:8.3f}")


def bench_ours_on(python: pathlib.Path, runs: int, seconds: float) -> dict[str, float]:
    """The fetlar-like figures of this package run by another interpreter (pyhnefatafl's)."""
    out = subprocess.run([str(python), str(HERE / "bench_engine.py"), "--fetlar-json", str(runs), str(seconds)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="0.3 s per measurement instead of 1 s")
    parser.add_argument("--no-pyhnefatafl", action="store_true", help="skip the comparison")
    parser.add_argument("--long", action="store_true", help="also time long games (1,000 to 10,000 plies)")
    parser.add_argument("--fetlar-json", nargs=2, metavar=("RUNS", "SECONDS"),
                        help=argparse.SUPPRESS)  # used by the run under pyhnefatafl's interpreter
    args = parser.parse_args(argv)
    if args.fetlar_json:
        print(json.dumps(bench_ours(FETLAR_LIKE, int(args.fetlar_json[0]), float(args.fetlar_json[1]))))
        return
    runs, seconds = 5, (0.3 if args.quick else 1.0)
    print(f"tafl_rules engine, Python {sys.version.split()[0]}, median of {runs} runs of {seconds} CPU s each; "
          f"playouts uniform over all legal moves, cap {CAP} plies; load average {os.getloadavg()[0]:.1f}")
    head = (f"{'rules':44} {'gen/s':>8} {'legal_moves()/s':>15} {'inner plies/s':>13} {'public plies/s':>14} "
            f"{'(wall)':>8} {'list plies/s':>12} {'mean game':>9}")
    print(head)
    ours = {}
    for name, rules in RULESETS.items():
        r = bench_ours(rules, runs, seconds)
        ours[name] = r
        print(f"{name:44} {r['gen']:8.0f} {r['api_gen']:15.0f} {r['plies']:13.0f} {r['public']:14.0f} "
              f"{r['public_wall']:8.0f} {r['list']:12.0f} {r['length']:9.1f}")
    mine = ours["Fetlar-like 11x11 (= pyhnefatafl's rules)"]
    theirs = None if args.no_pyhnefatafl else bench_pyhnefatafl(runs, seconds)
    if theirs is not None:
        python = pyhnefatafl_python()
        assert python is not None
        same = bench_ours_on(python, runs, seconds)  # the same interpreter as pyhnefatafl's
        r = same
        print(f"{'Fetlar-like, this package on Python 3.11':44} {r['gen']:8.0f} {r['api_gen']:15.0f} "
              f"{r['plies']:13.0f} {r['public']:14.0f} {r['public_wall']:8.0f} {r['list']:12.0f} {r['length']:9.1f}")
        print(f"{'pyhnefatafl 0.3.2 (Python 3.11, same rules)':44} {theirs['gen']:8.0f} {'-':>15} {'-':>13} "
              f"{theirs['plies']:14.0f} {theirs['wall']:8.0f} {theirs['plies']:12.0f} {theirs['length']:9.1f}")
        for label, ours in (("Python 3.12 against 3.11", mine), ("both on Python 3.11", same)):
            print(f"same rules, ours / pyhnefatafl ({label}): generations {ours['gen'] / theirs['gen']:.1f}x, "
                  f"public-API plies {ours['public'] / theirs['plies']:.1f}x (target >= 3x), "
                  f"public-API plies with every move listed as an object {ours['list'] / theirs['plies']:.1f}x, "
                  f"inner plies {ours['plies'] / theirs['plies']:.1f}x")
    elif not args.no_pyhnefatafl:
        print("pyhnefatafl: no Python 3.11 to run it with; skipped")
    print(f"Fetlar-like public-API plies/s: {mine['public']:.0f} per CPU second (target >= 20,000)")
    if args.long:
        bench_long_games()


if __name__ == "__main__":
    main()
