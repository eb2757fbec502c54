"""perft from the Copenhagen start by another engine, beside ours: the source of the reference counts.

pyhnefatafl 0.3.2 (GPL-3.0, imports as ``hnefatafl``; its ``Board`` plays 11x11 from the
Copenhagen start) counts the legal move sequences of depth 1-3 through its own public API
(``board.legal_moves``, ``push``, ``pop``), in its own venv (see ``bench_engine.py``). Ours
counts the same on the catalogue's Copenhagen rules and on the fetlar-like rules that match
pyhnefatafl's. The figures are copied into ``tests/data/perft-reference.md``, which
``tests/test_perft.py`` cites.

Run: ``python benchmarks/perft_reference.py`` (depth 3, about 10 s) or
``python benchmarks/perft_reference.py --depth 4`` (a few minutes: pyhnefatafl lists the moves
of 806,344 positions).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from bench_engine import COPENHAGEN, FETLAR_LIKE, pyhnefatafl_python

from tafl_rules import Game

DEPTH = 3

PYH_PERFT = r"""
import json, sys
import hnefatafl

def perft(board, depth):
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += 0 if board.is_game_over() else perft(board, depth - 1)
        board.pop()
    return total

board = hnefatafl.Board()
print(json.dumps([perft(board, d) for d in range(1, int(sys.argv[1]) + 1)]))
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=DEPTH, choices=range(1, 6), metavar="N",
                        help=f"count to this depth (default {DEPTH})")
    depth = parser.parse_args(argv).depth
    print(f"perft depth 1-{depth} from the Copenhagen start")
    for name, rules in (("tafl_rules, Copenhagen (catalogue)", COPENHAGEN),
                        ("tafl_rules, fetlar-like (= pyhnefatafl's rules)", FETLAR_LIKE)):
        game = Game(rules)
        print(f"  {name:50} {[game.perft(d) for d in range(1, depth + 1)]}", flush=True)
    python = pyhnefatafl_python()
    if python is None:
        print("  pyhnefatafl: no Python 3.11 to install it with (set PYHNEFATAFL_PYTHON)")
        sys.exit(1)
    out = subprocess.run([str(python), "-c", PYH_PERFT, str(depth)], check=True, capture_output=True, text=True)
    print(f"  {'pyhnefatafl 0.3.2, its Board':50} {json.loads(out.stdout)}")


if __name__ == "__main__":
    main()
