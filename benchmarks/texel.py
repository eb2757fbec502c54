"""Texel tuning: fit the evaluation's weights to the results of human Copenhagen games.

Run: ``python benchmarks/texel.py`` (``--quick`` for the first 300 games; ``--out FILE``).

The positions are those of the human games in ``tests/data/copenhagen-aagenielsen.csv``
(every position before a move of a decided game), each labelled with the game's
recorded result: 1 if the attackers won, 0 if the defenders won, one half for a
draw; unfinished records are left out. The evaluation of :mod:`tafl_rules.ai.evaluate`
is a weighted sum of counts (:class:`~tafl_rules.ai.evaluate.Weights`), so the chance
that the attackers win a position is modelled as ``1 / (1 + exp(-score / T))``.

* A fifth of the games (record numbers divisible by 5) is **held out**: none of
  its positions is used to fit anything, and the fit is reported on it.
* Of the rest, record numbers ending in 1 or 6 are a validation part that stops
  the tuning when it no longer helps (early stopping).
* First ``T`` is fitted with the hand-set weights (``HAND_SET``); then the weights are
  tuned from them to minimise the mean squared error (the Texel method), ``T`` fixed,
  by Levenberg-Marquardt steps (few parameters, so each step solves for all of them).
  Rounded, they are ``TUNED_WEIGHTS`` in :mod:`tafl_rules.ai.evaluate` (a level may
  play with them; levels 1 and 2 keep the hand-set ones, levels 3-5 play with
  ``PLAY_WEIGHTS``); the report gives their fit too.

The games serve only as positions with results: no move of them is stored, and
nothing here is an opening book. The output reports, on the held-out games, the
mean squared error, the log loss and how often the favoured side won, for a
constant guess, the hand-set weights, the tuned ones and the ones the AI plays with.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import math
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tafl_rules import Game, variant  # noqa: E402
from tafl_rules.ai.evaluate import HAND_SET, TUNED_WEIGHTS, Evaluator, Weights  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "copenhagen-aagenielsen.csv"
RESULT = {"Black": 1.0, "White": 0.0, "Draw": 0.5}


def part(number: int) -> str:
    """Which part a record (numbered from 1) belongs to: ``held-out``, ``validation`` or ``training``."""
    if number % 5 == 0:
        return "held-out"
    if number % 5 == 1:
        return "validation"
    return "training"


def positions(limit: int | None = None):
    """``(record number, features, result)`` for every position before a move of every
    decided record (the engine's repetition rule is switched off so that records that
    play on through a repeated position keep all their positions)."""
    rules = variant("copenhagen").rules.replace(repetition="ignore")
    with CORPUS.open(newline="") as fh:
        for number, row in enumerate(csv.reader(fh), 1):
            if limit and number > limit:
                break
            if row[3] not in RESULT:
                continue
            game = Game(rules)
            pos = game.engine
            ev = Evaluator(rules)
            for token in row[0].split():
                if token == "timeout" or game.outcome is not None:
                    break
                yield number, ev.features(pos.a, pos.d, pos.k, pos.side, pos.king_targets()), RESULT[row[3]]
                game.play(token.split("x")[0])


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def scores(rows, weights) -> list[float]:
    return [sum(w * f for w, f in zip(weights, feats) if f) for _n, feats, _y in rows]


def metrics(rows, weights, t: float) -> dict:
    """Mean squared error, log loss and the share of decided games the evaluation favoured right."""
    se = ll = 0.0
    right = decided = 0
    for s, (_n, _f, y) in zip(scores(rows, weights), rows):
        p = min(1 - 1e-9, max(1e-9, _sigmoid(s / t)))
        se += (p - y) ** 2
        ll -= y * math.log(p) + (1 - y) * math.log(1 - p)
        if y != 0.5 and s != 0:
            decided += 1
            right += (s > 0) == (y == 1.0)
    n = len(rows)
    return {"positions": n, "mse": round(se / n, 5), "log_loss": round(ll / n, 5),
            "favoured_side_won": round(right / decided, 4) if decided else None}


def constant_metrics(rows, p: float) -> dict:
    n = len(rows)
    return {"positions": n, "mse": round(sum((p - y) ** 2 for *_x, y in rows) / n, 5),
            "log_loss": round(-sum(y * math.log(p) + (1 - y) * math.log(1 - p) for *_x, y in rows) / n, 5),
            "favoured_side_won": None}


def fit_scale(rows, weights) -> float:
    """The ``T`` that minimises the mean squared error (golden-section search on log T)."""
    raw = scores(rows, weights)
    ys = [y for *_x, y in rows]

    def mse(log_t: float) -> float:
        t = math.exp(log_t)
        return sum((_sigmoid(s / t) - y) ** 2 for s, y in zip(raw, ys))

    lo, hi = math.log(10), math.log(1e5)
    g = (math.sqrt(5) - 1) / 2
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    for _ in range(60):
        if mse(c) < mse(d):
            hi = d
        else:
            lo = c
        c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    return round(math.exp((lo + hi) / 2), 1)


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """Solve ``m x = v`` (Gaussian elimination with partial pivoting; m is small)."""
    n = len(v)
    rows = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(rows[r][c]))
        rows[c], rows[pivot] = rows[pivot], rows[c]
        if abs(rows[c][c]) < 1e-300:
            continue
        for r in range(c + 1, n):
            f = rows[r][c] / rows[c][c]
            if f:
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[c])]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        if abs(rows[c][c]) < 1e-300:
            continue
        x[c] = (rows[c][n] - sum(rows[c][j] * x[j] for j in range(c + 1, n))) / rows[c][c]
    return x


def tune(train, valid, start, t: float, steps: int = 60, patience: int = 5, say=print, support: float = 0.01,
         ridge: float = 1e-4, fixed_names: frozenset = frozenset()) -> tuple[list[float], int]:
    """Levenberg-Marquardt on the training part's mean squared error plus a small ridge
    penalty (``ridge`` times the squared change of each weight, measured as the change of
    the score over one standard deviation of its count, in units of ``T``); each step
    keeps the weights the validation part likes best so far, and the tuning stops when
    that has not improved for ``patience`` steps. A weight whose count is non-zero in
    fewer than ``support`` of the training positions keeps its current value (too few
    examples to fit it), and so does every weight named in ``fixed_names``."""
    n_w = len(start)
    n = len(train)
    active = [j for j in range(n_w) if Weights._fields[j] not in fixed_names
              and sum(1 for _n, f, _y in train if f[j]) >= support * n]
    spread = []
    for j in active:
        vals = [f[j] for _n, f, _y in train]
        mean = sum(vals) / n
        spread.append(math.sqrt(sum((v - mean) ** 2 for v in vals) / n))
    prior = [float(start[j]) for j in active]
    penalty = [ridge * (sd / t) ** 2 for sd in spread]
    fixed = [j for j in range(n_w) if j not in active]
    rows = []
    for _n, f, y in train:
        base = sum(start[j] * f[j] for j in fixed if f[j])
        rows.append(([(i, f[j]) for i, j in enumerate(active) if f[j]], base, y))
    u = list(prior)
    lam = 1e-3

    def full(u_):
        w = list(start)
        for i, j in enumerate(active):
            w[j] = u_[i]
        return w

    def train_mse(u_):
        err = sum((_sigmoid((base + sum(u_[i] * x for i, x in xs)) / t) - y) ** 2 for xs, base, y in rows) / n
        return err + sum(c * (a - b) ** 2 for c, a, b in zip(penalty, u_, prior))

    best = (metrics(valid, full(u), t)["mse"], list(u), 0)
    current = train_mse(u)
    for step in range(1, steps + 1):
        k = len(active)
        h = [[0.0] * k for _ in range(k)]
        g = [0.0] * k
        for xs, base, y in rows:
            p = _sigmoid((base + sum(u[i] * x for i, x in xs)) / t)
            dp = p * (1 - p) / t
            r = p - y
            for i, xi in xs:
                ji = dp * xi
                g[i] += r * ji
                hi = h[i]
                for j, xj in xs:
                    hi[j] += ji * dp * xj
        for i in range(k):  # the mean over positions, and the ridge term
            g[i] = g[i] / n + penalty[i] * (u[i] - prior[i])
            h[i] = [x / n for x in h[i]]
            h[i][i] += penalty[i]
        while True:
            damped = [[h[i][j] + (lam * h[i][i] if i == j else 0.0) for j in range(k)] for i in range(k)]
            delta = _solve(damped, [-x for x in g])
            trial = [a + b for a, b in zip(u, delta)]
            err = train_mse(trial)
            if err < current:
                u, current, lam = trial, err, max(lam / 3, 1e-9)
                break
            lam *= 4
            if lam > 1e6:
                break
        verr = metrics(valid, full(u), t)["mse"]
        if verr < best[0] - 1e-7:
            best = (verr, list(u), step)
        say(f"  step {step}: training mse {current:.5f}, validation mse {verr:.5f} (best {best[0]:.5f} at step {best[2]})")
        if step - best[2] >= patience or lam > 1e6:
            break
    return full(best[1]), best[2]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="only the first 300 records, 10 steps")
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--out", help="write the fit and the tuned weights as JSON")
    p.add_argument("--fix", action="append", default=[], metavar="NAME=VALUE",
                   help="hold a weight at a value (repeatable), e.g. one that the human games cannot teach")
    args = p.parse_args(argv)
    started = time.monotonic()
    rows = {"training": [], "validation": [], "held-out": []}
    games = {"training": set(), "validation": set(), "held-out": set()}
    for number, feats, y in positions(300 if args.quick else None):
        rows[part(number)].append((number, feats, y))
        games[part(number)].add(number)
    print("positions (games): " + ", ".join(f"{k} {len(v):,} ({len(games[k])})" for k, v in rows.items()))
    start = list(HAND_SET)
    fixed = {}
    for text in args.fix:
        name, _, value = text.partition("=")
        if name not in Weights._fields:
            p.error(f"--fix {text}: no weight named {name!r}")
        fixed[name] = int(value)
        start[Weights._fields.index(name)] = int(value)
    t = fit_scale(rows["training"], start)
    print(f"scale T fitted on the training part with the hand-set weights: {t}")
    tuned, epoch = tune(rows["training"], rows["validation"], start, t, 10 if args.quick else args.steps,
                        fixed_names=frozenset(fixed))
    mean = sum(y for *_x, y in rows["training"]) / len(rows["training"])
    report = {}
    for name in ("training", "held-out"):
        report[name] = {"constant": constant_metrics(rows[name], mean), "hand-set": metrics(rows[name], start, t),
                        "tuned": metrics(rows[name], tuned, t), "rounded": metrics(rows[name], list(TUNED_WEIGHTS), t)}
    print(f"{'':<10} {'':<10} {'mse':>8} {'log loss':>9} {'favoured side won':>18}")
    for name, rep in report.items():
        for what, m in rep.items():
            fav = "" if m["favoured_side_won"] is None else f"{m['favoured_side_won']:.1%}"
            print(f"{name:<10} {what:<10} {m['mse']:>8.5f} {m['log_loss']:>9.5f} {fav:>18}")
    print("weights (hand-set -> tuned; TUNED_WEIGHTS):")
    for name, a, b, c in zip(Weights._fields, start, tuned, TUNED_WEIGHTS):
        print(f"  {name:<16} {a:>7} -> {b:>9.1f}; {c:>7}")
    print("as a Weights record: Weights(" + ", ".join(f"{n}={round(b)}" for n, b in zip(Weights._fields, tuned)) + ")")
    if args.out:
        data = {"provenance": {"command": "python benchmarks/texel.py " + " ".join(sys.argv[1:] if argv is None else argv),
                               "corpus": "tests/data/copenhagen-aagenielsen.csv", "records": sum(map(len, games.values())),
                               "split": "held-out: record number divisible by 5; validation: ending in 1 or 6; "
                                        "training: the rest",
                               "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                               "seconds": round(time.monotonic() - started, 1), "quick": args.quick,
                               "fixed": fixed},
                "scale": t, "best_step": epoch, "fit": report,
                "weights": {"hand-set": dict(zip(Weights._fields, start)), "TUNED_WEIGHTS": TUNED_WEIGHTS._asdict(),
                            "tuned": {k: round(v, 2) for k, v in zip(Weights._fields, tuned)}}}
        pathlib.Path(args.out).write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
