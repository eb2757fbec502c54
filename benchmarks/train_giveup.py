"""Fit the give-up model (:mod:`tafl_rules.ai.giveup`) on the Copenhagen corpus, and judge it on held-out games.

Run: ``python benchmarks/train_giveup.py`` (about a minute): replays the 1,752 games of
``tests/data/copenhagen-aagenielsen.csv`` under the catalogue's Copenhagen rules and, for every
position where a player was to move, records the position's facts and whether that player gave
up there: the last position of a game the rules did not end, whose loser was to move, is a
*give-up* (a resignation, a game left, or the clock let run out: the records do not tell the first
two apart); every other position is one where the player moved on. Games that ended in a draw,
were left unfinished, or whose loser had just moved, give no give-up. The split is the move
model's (``benchmarks/train_people.py``: the same 350 games held out); the weights are fitted on
the training games by maximum likelihood (logistic, a small L2 penalty, L-BFGS).

On the held-out games it reports a calibration table (positions grouped by the chance the model
gives, each group's mean chance beside the share that gave up), the area under the ROC curve
(how often a give-up position gets a higher chance than a position played on), and, per game,
how many give-ups the model expects (the sum of its chances over the positions played) beside how
many there were, for each side. The report
goes to ``docs/data/giveup-model.json``; the model goes where ``--model-out`` says (``package``:
``tafl_rules/ai/giveup-model.json``, the one the balance lab uses; without it, nowhere).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import pathlib
import sys
import time
from typing import Any

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from tafl_rules import Game  # noqa: E402
from tafl_rules.ai.giveup import GIVEUP_PATH, NAMES, position_facts  # noqa: E402
from train_people import CORPUS, SOURCE, git_commit, lbfgs, rules, split  # noqa: E402

REPORT = ROOT / "docs" / "data" / "giveup-model.json"
L2 = 1e-3
#: the calibration table's groups: the model's chance of giving up, up to each edge
BINS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


def positions(number: int, row: list[str]) -> tuple[list[tuple[int, int, list[int], int]], str]:
    """(game, side to move, facts, gave up) for every position where a player was to move, and how
    the game ended: ``rules``, ``gave up``, ``draw`` or ``unfinished`` (or ``censored``: the loser
    had just moved)."""
    tokens = row[0].split()
    winner = {"Black": "attackers", "White": "defenders"}.get(row[3])
    game = Game(rules())
    out = []
    for token in tokens:
        if token == "timeout" or game.outcome is not None:
            break
        out.append((number, game.engine.side, position_facts(game.engine), 0))
        game.play(token.split("x")[0])
    if game.outcome is not None:
        return out, "rules"
    if winner is None:
        return out, "draw" if row[3] == "Draw" else "unfinished"
    if game.turn == winner:  # the loser had just moved: when he gave up is not known
        return out, "censored"
    out.append((number, game.engine.side, position_facts(game.engine), 1))
    return out, "gave up"


def design(rows: list[tuple[int, int, list[int], int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ids = np.concatenate([np.array(r[2], dtype=np.int64) for r in rows])
    pos_of = np.repeat(np.arange(len(rows)), [len(r[2]) for r in rows])
    y = np.array([r[3] for r in rows], dtype=float)
    return ids, pos_of, y


def fit(rows: list[tuple[int, int, list[int], int]]) -> tuple[np.ndarray, float, int]:
    ids, pos_of, y = design(rows)
    n = len(rows)
    penalised = np.array([not name.endswith(":bias") for name in NAMES], dtype=float)  # the two biases are free

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = np.bincount(pos_of, weights=w[ids], minlength=n)
        p = 1 / (1 + np.exp(-z))
        value = -np.sum(y * np.log(p + 1e-300) + (1 - y) * np.log(1 - p + 1e-300)) / n + 0.5 * L2 * ((penalised * w) @ w)
        grad = np.bincount(ids, weights=(p - y)[pos_of], minlength=len(w)) / n + L2 * penalised * w
        return value, grad

    return lbfgs(loss, np.zeros(len(NAMES)), iters=500, tol=1e-10)


def chances(rows: list[tuple[int, int, list[int], int]], w: np.ndarray) -> np.ndarray:
    ids, pos_of, _y = design(rows)
    return 1 / (1 + np.exp(-np.bincount(pos_of, weights=w[ids], minlength=len(rows))))


def auc(p: np.ndarray, y: np.ndarray) -> float:
    """The chance that a give-up position gets a higher chance than a position played on (ties half)."""
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    sorted_p = p[order]
    i = 0
    while i < len(p):  # mean ranks of ties
        j = i
        while j + 1 < len(p) and sorted_p[j + 1] == sorted_p[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    pos, neg = y == 1, y == 0
    return float((ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * neg.sum()))


def judge(rows: list[tuple[int, int, list[int], int]], endings: dict[int, str], w: np.ndarray) -> dict[str, Any]:
    p = chances(rows, w)
    y = np.array([r[3] for r in rows], dtype=float)
    table = []
    lo = 0.0
    for hi in BINS:
        sel = (p > lo) & (p <= hi) if lo else (p <= hi)
        if sel.any():
            table.append({"from": lo, "to": hi, "positions": int(sel.sum()), "gave_up": int(y[sel].sum()),
                          "mean_chance": round(float(p[sel].mean()), 5), "share": round(float(y[sel].mean()), 5)})
        lo = hi
    side = np.array([r[1] for r in rows])
    by_side = {name: {"gave_up": int(y[side == i].sum()), "expected": round(float(p[side == i].sum()), 1)}
               for i, name in enumerate(("attackers", "defenders"))}
    return {"positions": len(rows), "gave_up": int(y.sum()), "expected": round(float(p.sum()), 1), "by_side": by_side,
            "auc": round(auc(p, y), 4), "brier": round(float(np.mean((p - y) ** 2)), 6),
            "log_loss": round(float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), 5),
            "calibration": table,
            "decided_games": sum(1 for how in endings.values() if how in ("rules", "gave up")),
            "decided_games_given_up": sum(1 for how in endings.values() if how == "gave up")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, help="use only the first N games (a smoke run)")
    p.add_argument("--model-out", help="where to write the model ('package': the balance lab's own, "
                   f"{GIVEUP_PATH.relative_to(ROOT)}); without it no model is written")
    p.add_argument("--report-out", default=str(REPORT))
    args = p.parse_args(argv)
    started = time.monotonic()
    with CORPUS.open(newline="", encoding="utf-8") as fh:
        records = list(csv.reader(fh))
    held = split(len(records))
    records = records[: args.games] if args.games else records
    rows: list[tuple[int, int, list[int], int]] = []
    endings: dict[int, str] = {}
    for number, row in enumerate(records):
        got, endings[number] = positions(number, row)
        rows += got
    train = [r for r in rows if r[0] not in held]
    test = [r for r in rows if r[0] in held]
    w, loss, iterations = fit(train)
    model = {"weights": {name: round(float(x), 6) for name, x in zip(NAMES, w) if abs(x) > 1e-9}}
    counts = {how: sum(1 for g, e in endings.items() if e == how and g in held) for how in sorted(set(endings.values()))}
    provenance = {"command": " ".join(["python benchmarks/train_giveup.py", *(sys.argv[1:] if argv is None else argv)]),
                  "commit": git_commit(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
                  "corpus": SOURCE, "games": len(records),
                  "split": "the move model's: random.Random(2026).shuffle of the game numbers; the first fifth held out",
                  "training_positions": len(train), "held_out_positions": len(test),
                  "held_out_endings": counts,
                  "endings": {how: sum(1 for e in endings.values() if e == how) for how in sorted(set(endings.values()))},
                  "facts": len(NAMES), "l2": L2, "iterations": iterations,
                  "training_loss": round(loss, 6), "seconds": round(time.monotonic() - started, 1)}
    model["provenance"] = provenance
    if args.model_out:
        out = GIVEUP_PATH if args.model_out == "package" else pathlib.Path(args.model_out)
        out.write_text(json.dumps(model, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    train_endings = {g: e for g, e in endings.items() if g not in held}
    test_endings = {g: e for g, e in endings.items() if g in held}
    report = {"provenance": provenance, "training": judge(train, train_endings, w), "held_out": judge(test, test_endings, w)}
    pathlib.Path(args.report_out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
