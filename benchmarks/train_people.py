"""Train the people-like player's move model on the Copenhagen corpus, and report its agreement.

Run: ``python benchmarks/train_people.py -j 2`` (about half an hour on two cores): reads the
1,752 games of ``tests/data/copenhagen-aagenielsen.csv``, sets a fifth of them aside (split by
game, seeded), works out the features (:mod:`tafl_rules.ai.features`) of every legal move in
every position of the others, fits one weight per feature by maximum likelihood (the chance the
model gives the move the person played, a softmax over the legal moves, with a small L2 penalty;
L-BFGS), and writes the model with its provenance where ``--model-out`` says (``--model-out
package``: ``tafl_rules/ai/people-model.json``, the model the player plays; without it no model
is written).

It then measures, on the held-out games only, how often the person's move is the model's first
choice (top-1) and among its first three (top-3), by side and by phase of the game; and, on one
position drawn from each held-out game, how often the search's levels play the person's move
beside the model on the same positions (``--add-levels 6`` adds a level made after the model was
trained to the committed report, on the same positions, without training again). The report goes
to ``docs/data/move-model.json`` (``--report`` prints it again). ``--average A.json B.json`` makes one
model of several fitted ones (the mean of their scores), chooses its temperatures on the same
validation fifth and measures it the same way. Ties between equally scored moves count as a share: a move tied
first with two others counts a third.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import math
import multiprocessing
import pathlib
import pickle
import random
import subprocess
import sys
import time
from typing import Any

import numpy as np
import scipy.optimize
import scipy.sparse

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tafl_rules import Game, variant  # noqa: E402
from tafl_rules.ai import LEVELS, analyse  # noqa: E402
from tafl_rules.ai.features import NAMES, PATTERN3_BASE, PATTERN5_BASE, move_features  # noqa: E402
from tafl_rules.ai.people import MODEL_PATH, model_from_data  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "copenhagen-aagenielsen.csv"
REPORT = ROOT / "docs" / "data" / "move-model.json"
STEPS = ROOT / "docs" / "data" / "move-model-steps.json"
DIGEST_PATH = MODEL_PATH.with_name("people_digest.py")
DIGEST_MODULE = ('''"""The sha256 of ``people-model.json``, written with the model by ``benchmarks/train_people.py``
(the board's worker fetches the model by it: :func:`tafl_rules.ai.people.browser_model_name`)."""

MODEL_DIGEST = "{}"
''')
SPLIT_SEED = 2026
HELD_OUT = 5          # one game in five is held out
MIN_PATTERN = 20      # a pattern code seen fewer times in training gets no weight of its own
L2 = 1e-4
L2_HIDDEN = 1e-4  # the penalty on a hidden layer's weights (--hidden)
INIT_SCALE = 0.05  # a hidden layer starts from weights drawn with this spread, seeded
TOL = 1e-6  # the fit stops when an iteration lowers the mean loss a move by less than this
PHASES = ((0, 20, "plies 1-20"), (20, 60, "plies 21-60"), (60, 10**6, "plies 61 on"))
SOURCE = ("1,752 Copenhagen Hnefatafl games played by people on aagenielsen.dk, as collected in the test data "
          "of the hnefatafl-copenhagen project (David Lawrence Campbell; tests/copenhagen.csv, commit cff8baab "
          "of 2025-06-25)")


def rules():
    # the site let people repeat positions; the replay must not stop there
    return variant("copenhagen").rules.replace(repetition="ignore")


def corpus() -> list[list[str]]:
    games = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        moves = []
        for token in line.split(",")[0].split():
            if token == "timeout":
                break
            moves.append(token.split("x")[0])
        games.append(moves)
    return games


def split(n: int) -> set[int]:
    """The held-out games: a seeded fifth, by game."""
    order = list(range(n))
    random.Random(SPLIT_SEED).shuffle(order)
    return set(order[: n // HELD_OUT])


def extract(task: tuple[int, list[str]]) -> list[tuple[int, int, int, np.ndarray, np.ndarray, int]]:
    """(game, ply, side, feature ids, features per move, index of the person's move) for every
    position of one game."""
    number, moves = task
    r = rules()
    mf = move_features(r)
    game = Game(r)
    out = []
    for ply, text in enumerate(moves):
        if game.outcome is not None:
            break
        pos = game.engine
        side = pos.side
        packed, rows = mf.of_position(pos)
        game.play(text)
        last = pos.stack[-1]
        chosen = next(i for i, m in enumerate(packed) if m >> 11 == last.frm and (m >> 2) & 511 == last.to)
        out.append((number, ply, side, np.fromiter((f for row in rows for f in row), dtype=np.int64),
                    np.fromiter((len(row) for row in rows), dtype=np.int32), chosen))
    return out


#: a person's move is *tactical* when it takes, wins, blocks or opens a road of the king, threatens a
#: capture or saves a man; every other move is *quiet*
TACTICAL = ("takes 1", "takes 2+", "wins", "roads after=1", "roads after=2+", "roads before>0 and after=0",
            "threatens a capture after", "threatens two captures after", "saves a man")


def remap(ids: np.ndarray, vocab: dict[int, int], dropped: np.ndarray | None = None) -> np.ndarray:
    """Feature ids as columns of the weight vector: the named features keep their index (those of
    ``dropped`` go to the last column, held at zero), a ring or diamond pattern gets its column
    from ``vocab``, the rarer ones the last column."""
    zero = len(NAMES) + len(vocab)
    out = ids.copy()
    big = ids >= len(NAMES)
    codes = np.array(sorted(vocab), dtype=np.int64)
    cols = np.array([vocab[c] for c in codes], dtype=np.int64)
    where = np.searchsorted(codes, ids[big]).clip(0, max(len(codes) - 1, 0))
    found = codes[where] == ids[big] if len(codes) else np.zeros(int(big.sum()), bool)
    out[big] = np.where(found, cols[where] if len(codes) else zero, zero)
    if dropped is not None:
        small = ~big
        out[small] = np.where(dropped[ids[small]], zero, ids[small])
    return out


class Batch:
    """Positions as flat arrays, for the softmax over each position's legal moves."""

    l2 = L2  # the penalty on the weights when fitting to this batch

    def __init__(self, data: list, vocab: dict[int, int], dropped: np.ndarray | None = None) -> None:
        self.nmoves = np.array([len(d[4]) for d in data])
        self.start = np.concatenate([[0], np.cumsum(self.nmoves)[:-1]]).astype(np.int64)
        self.rows = int(self.nmoves.sum())
        ids = np.concatenate([d[3] for d in data])
        self.row_of = np.repeat(np.arange(self.rows), np.concatenate([d[4] for d in data]))
        self.pos_of = np.repeat(np.arange(len(data)), self.nmoves)
        self.chosen = self.start + np.array([d[5] for d in data])
        self.side = np.array([d[2] for d in data])
        self.ply = np.array([d[1] for d in data])
        tactical = np.zeros(len(NAMES) + 1, bool)
        for side in ("attackers", "defenders"):
            tactical[[NAMES.index(f"{side}:{fact}") for fact in TACTICAL]] = True
        small = ids < len(NAMES)
        row_tactical = np.zeros(self.rows, bool)
        row_tactical[self.row_of[small][tactical[ids[small]]]] = True
        self.quiet = ~row_tactical[self.chosen]
        self.ids = remap(ids, vocab, dropped)

    def scores(self, w: "np.ndarray | Net") -> np.ndarray:
        if isinstance(w, Net):
            return w.scores(self)
        return np.bincount(self.row_of, weights=w[self.ids], minlength=self.rows)

    def matrix(self, columns: int) -> scipy.sparse.csr_matrix:
        """The moves' features as a sparse matrix, a row per move (made once)."""
        if getattr(self, "_matrix", None) is None:
            self._matrix = scipy.sparse.csr_matrix((np.ones(len(self.ids)), (self.row_of, self.ids)),
                                                   shape=(self.rows, columns))
        return self._matrix

    def loss(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        s = self.scores(w)
        top = np.maximum.reduceat(s, self.start)
        e = np.exp(s - top[self.pos_of])
        z = np.add.reduceat(e, self.start)
        n = len(self.start)
        value = -(s[self.chosen] - top - np.log(z)).sum() / n + 0.5 * self.l2 * (w @ w)
        p = e / z[self.pos_of]
        p[self.chosen] -= 1
        grad = np.bincount(self.ids, weights=p[self.row_of], minlength=len(w))
        grad[-1] = 0.0  # the rarer patterns share a column held at zero: the player gives them no weight
        return value, grad / n + self.l2 * w

    def nats(self, w: np.ndarray, temperature: float = 1.0) -> np.ndarray:
        """Per position, minus the log of the chance the model at ``temperature`` gives the person's move."""
        s = self.scores(w) / temperature
        top = np.maximum.reduceat(s, self.start)
        z = np.add.reduceat(np.exp(s - top[self.pos_of]), self.start)
        return -(s[self.chosen] - top - np.log(z))

    def agreement(self, w: np.ndarray, k: int) -> np.ndarray:
        """Per position, the chance that the person's move is among the model's first ``k``."""
        s = self.scores(w)
        mine = s[self.chosen][self.pos_of]
        above = np.add.reduceat((s > mine).astype(float), self.start)
        tied = np.add.reduceat((s == mine).astype(float), self.start)
        return np.clip((k - above) / tied, 0.0, 1.0)


class Net:
    """A move model with a hidden layer: a move's score is ``x @ w`` plus, for each unit, ``v`` times
    the unit's value ``max(0, x @ W + b)`` (``x`` the move's features, one column each, as ``w``'s)."""

    def __init__(self, w: np.ndarray, W: np.ndarray, b: np.ndarray, v: np.ndarray) -> None:
        self.w, self.W, self.b, self.v = w, W, b, v

    @classmethod
    def unpack(cls, x: np.ndarray, columns: int, units: int) -> "Net":
        W = x[columns:columns + columns * units].reshape(columns, units)
        return cls(x[:columns], W, x[columns * (units + 1):columns * (units + 1) + units], x[columns * (units + 1) + units:])

    def scores(self, batch: Batch) -> np.ndarray:
        X = batch.matrix(len(self.w))
        return X @ self.w + np.maximum(X @ self.W + self.b, 0.0) @ self.v


def fit_net(batch: Batch, columns: int, units: int, l2_hidden: float = L2_HIDDEN, seed: int = SPLIT_SEED,
            iters: int = 400) -> tuple["Net", float, int]:
    """Fit a :class:`Net` by maximum likelihood (L-BFGS), the hidden weights drawn from ``seed`` to start."""
    X = batch.matrix(columns)
    XT = X.T.tocsr()
    n = len(batch.start)
    rng = np.random.default_rng(seed)
    x0 = np.concatenate([np.zeros(columns), rng.normal(0.0, INIT_SCALE, columns * units), np.zeros(units),
                         rng.normal(0.0, INIT_SCALE, units)])
    unseen = np.bincount(batch.ids, minlength=columns) == 0
    unseen[-1] = True  # the rarer patterns' column stays at zero
    x0[columns:columns * (units + 1)].reshape(columns, units)[unseen] = 0.0  # a feature never seen weighs nothing

    def loss(x: np.ndarray) -> tuple[float, np.ndarray]:
        net = Net.unpack(x, columns, units)
        A = X @ net.W + net.b
        R = np.maximum(A, 0.0)
        s = X @ net.w + R @ net.v
        top = np.maximum.reduceat(s, batch.start)
        e = np.exp(s - top[batch.pos_of])
        z = np.add.reduceat(e, batch.start)
        value = (-(s[batch.chosen] - top - np.log(z)).sum() / n + 0.5 * batch.l2 * (net.w @ net.w)
                 + 0.5 * l2_hidden * (x[columns:columns * (units + 1)] @ x[columns:columns * (units + 1)] + net.v @ net.v))
        p = e / z[batch.pos_of]
        p[batch.chosen] -= 1
        p /= n
        dA = (A > 0) * (p[:, None] * net.v[None, :])
        gw = XT @ p + batch.l2 * net.w
        gW = XT @ dA + l2_hidden * net.W
        gw[-1] = 0.0
        gW[-1] = 0.0
        return value, np.concatenate([gw, gW.ravel(), dA.sum(0), R.T @ p + l2_hidden * net.v])

    res = scipy.optimize.minimize(loss, x0, jac=True, method="L-BFGS-B",
                                  options={"maxiter": iters, "ftol": 1e-10, "gtol": 1e-7})
    return Net.unpack(res.x, columns, units), float(res.fun), int(res.nit)


def lbfgs(f, x: np.ndarray, iters: int = 400, memory: int = 10, tol: float = 1e-8) -> tuple[np.ndarray, float, int]:
    fx, gx = f(x)
    S: list[np.ndarray] = []
    Y: list[np.ndarray] = []
    for it in range(iters):
        q = gx.copy()
        alphas = []
        for s, y in reversed(list(zip(S, Y))):
            a = (s @ q) / (y @ s)
            alphas.append(a)
            q -= a * y
        if S:
            q *= (S[-1] @ Y[-1]) / (Y[-1] @ Y[-1])
        for (s, y), a in zip(zip(S, Y), reversed(alphas)):
            q += s * (a - (y @ q) / (y @ s))
        d = -q
        step = 1.0
        while True:
            xn = x + step * d
            fn, gn = f(xn)
            if fn <= fx + 1e-4 * step * (gx @ d) or step < 1e-10:
                break
            step *= 0.5
        s, y = xn - x, gn - gx
        if y @ s > 1e-12:
            S.append(s)
            Y.append(y)
            if len(S) > memory:
                S.pop(0)
                Y.pop(0)
        done = abs(fx - fn) < tol
        x, fx, gx = xn, fn, gn
        if done:
            return x, fx, it + 1
    return x, fx, iters


def best_temperature(nats_at) -> float:
    """The temperature (0.25 to 4) at which the mean of ``nats_at(t)`` is least (golden section on its log)."""
    lo, hi = np.log(0.25), np.log(4.0)
    g = (np.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = nats_at(np.exp(a)), nats_at(np.exp(b))
    for _ in range(30):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = nats_at(np.exp(a))
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = nats_at(np.exp(b))
    return round(float(np.exp((lo + hi) / 2)), 2)


def temperatures(batch: Batch, w: np.ndarray) -> dict[str, float]:
    """Each side's temperature, chosen by the likelihood of the person's moves on ``batch``."""
    out = {}
    for side, name in ((0, "attackers"), (1, "defenders")):
        sel = batch.side == side
        out[name] = best_temperature(lambda t: float(batch.nats(w, t)[sel].mean()))
    return out


def breakdown(batch: Batch, w: np.ndarray, temps: dict[str, float] | None = None) -> dict[str, Any]:
    t1, t3 = batch.agreement(w, 1), batch.agreement(w, 3)
    out: dict[str, Any] = {"positions": len(t1), "top1": round(float(t1.mean()), 4), "top3": round(float(t3.mean()), 4)}
    for side, name in ((0, "attackers"), (1, "defenders")):
        sel = batch.side == side
        out[name] = {"positions": int(sel.sum()), "top1": round(float(t1[sel].mean()), 4),
                     "top3": round(float(t3[sel].mean()), 4)}
    for side, name in ((0, "attackers"), (1, "defenders")):
        sel = batch.side == side
        n1 = batch.nats(w)[sel].mean()
        out[name]["nats"] = round(float(n1), 4)
        if temps:
            out[name]["nats_at_temperature"] = round(float(batch.nats(w, temps[name])[sel].mean()), 4)
    for quiet, name in ((True, "quiet"), (False, "tactical")):
        sel = batch.quiet == quiet
        out[name] = {"positions": int(sel.sum()), "top1": round(float(t1[sel].mean()), 4),
                     "top3": round(float(t3[sel].mean()), 4)}
        for side, side_name in ((0, "attackers"), (1, "defenders")):
            both = sel & (batch.side == side)
            out[name][side_name] = {"positions": int(both.sum()), "top1": round(float(t1[both].mean()), 4)}
    for lo, hi, name in PHASES:
        sel = (batch.ply >= lo) & (batch.ply < hi)
        out[name] = {"positions": int(sel.sum()), "top1": round(float(t1[sel].mean()), 4),
                     "top3": round(float(t3[sel].mean()), 4)}
    return out


def level_positions(games: list[list[str]], held: list[int]) -> list[tuple[Game, str]]:
    """One position drawn from each held-out game (seeded), with the move the person played there."""
    rng = random.Random(SPLIT_SEED + 1)
    r = rules()
    picks = []
    for number in held:
        moves = games[number]
        if len(moves) < 2:
            continue
        ply = rng.randrange(len(moves))
        game = Game(r)
        for text in moves[:ply]:
            game.play(text)
        if game.outcome is None:
            picks.append((game, moves[ply]))
    return picks


def level_agreement(picks: list[tuple[Game, str]], level: int) -> float:
    """How often ``level`` plays the person's move on ``picks``."""
    return round(sum(str(analyse(game, level, 0, time_cap=math.inf).move) == person
                     for game, person in picks) / len(picks), 4)


def levels_agreement(games: list[list[str]], held: list[int], model: dict[str, Any], levels: list[int]) -> dict[str, Any]:
    """The search's levels and the model (as written, scored as the player scores it) on one
    position drawn from each held-out game."""
    picks = level_positions(games, held)
    mf = move_features(rules())
    scorer = model_from_data(model)
    out: dict[str, Any] = {"positions": len(picks)}
    for level in levels:
        out[f"level {level}"] = level_agreement(picks, level)
    agree = 0.0
    for game, person in picks:
        packed, rows = mf.of_position(game.engine)
        names = game.engine.g.names
        scores = [scorer.score(row) for row in rows]
        best = max(scores)
        firsts = [m for m, s in zip(packed, scores) if s == best]
        agree += sum(f"{names[m >> 11]}-{names[(m >> 2) & 511]}" == person for m in firsts) / len(firsts)
    out["model"] = round(agree / len(picks), 4)
    return out


def add_levels(levels: list[int], report_path: pathlib.Path) -> int:
    """Add levels made after the model was trained to its report, on the same positions."""
    report = json.loads(report_path.read_text(encoding="utf-8"))
    games = corpus()
    picks = level_positions(games, sorted(split(len(games))))
    if len(picks) != report["levels"]["positions"]:
        raise SystemExit(f"{report_path}: {report['levels']['positions']} positions in the report, {len(picks)} drawn now")
    started = time.monotonic()
    for level in levels:
        report["levels"][f"level {level}"] = level_agreement(picks, level)
        report["provenance"].setdefault("levels_added", {})[str(level)] = {
            "command": f"python benchmarks/train_people.py --add-levels {' '.join(map(str, levels))}",
            "commit": git_commit(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
            "seconds": round(time.monotonic() - started, 1)}
    model = report["levels"].pop("model")
    report["levels"]["model"] = model  # the model's line stays last
    report_path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report["levels"], indent=1))
    return 0


def validation_games(training: list[int]) -> set[int]:
    """The training games that choose the temperatures: a seeded fifth of them."""
    order = list(training)
    random.Random(SPLIT_SEED + 2).shuffle(order)
    return set(order[: len(order) // HELD_OUT])


def extract_all(games: list[list[str]], workers: int, cache: str | None) -> list:
    """Every position of ``games`` with its features (:func:`extract`), read from ``cache`` when it
    holds the same games (a pickle; written there otherwise)."""
    if cache and pathlib.Path(cache).exists():
        with open(cache, "rb") as fh:
            stored = pickle.load(fh)
        if stored["games"] == len(games) and stored["names"] == NAMES:
            return stored["data"]
    tasks = list(enumerate(games))
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            parts = pool.map(extract, tasks, chunksize=8)
    else:
        parts = [extract(t) for t in tasks]
    data = [pos for part in parts for pos in part]
    if cache:
        with open(cache, "wb") as fh:
            pickle.dump({"games": len(games), "names": NAMES, "data": data}, fh, protocol=pickle.HIGHEST_PROTOCOL)
    return data


def pattern_vocab(train: list, diamonds: bool = True) -> dict[int, int]:
    """A column for each ring (and diamond) pattern seen at least MIN_PATTERN times among the
    training positions' moves."""
    ids = np.concatenate([d[3] for d in train])
    big = ids[ids >= len(NAMES)]
    if not diamonds:
        big = big[big < PATTERN5_BASE]
    codes, counts = np.unique(big, return_counts=True)
    kept = codes[counts >= MIN_PATTERN].tolist()
    return {int(code): len(NAMES) + i for i, code in enumerate(kept)}


def dropped_features(parts: list[str]) -> np.ndarray | None:
    """The named features whose name contains one of ``parts`` (an ablation: they get no weight)."""
    if not parts:
        return None
    return np.array([any(part in name for part in parts) for name in NAMES] + [False])


def evaluate(path: str, cache: str | None, workers: int, report_out: str, limit: int | None = None) -> dict[str, Any]:
    """Measure a model file (say, an earlier one) on the training and the held-out games of the split
    (of the first ``limit`` games only, where given: a smoke run's)."""
    model = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    games = corpus()[:limit] if limit else corpus()
    held = split(len(corpus()))
    data = extract_all(games, workers, cache)
    vocab, scored = columns_of(model)
    report = {"model": path, "model_provenance": model.get("provenance", {}),
              "training": breakdown(Batch([d for d in data if d[0] not in held], vocab), scored),
              "held_out": breakdown(Batch([d for d in data if d[0] in held], vocab), scored)}
    pathlib.Path(report_out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report["held_out"], indent=1))
    return report


def columns_of(model: dict[str, Any]) -> tuple[dict[int, int], "np.ndarray | Net"]:
    """A stored model as columns: a column for each pattern code it weighs (in its weights or its hidden
    layer), and its weights over them (a :class:`Net` where it has a hidden layer)."""
    layer = model.get("hidden") or {}
    codes = sorted({base + int(c) for part in (model, layer) for key, base in (("rings", PATTERN3_BASE), ("diamonds", PATTERN5_BASE))
                    for c in part.get(key, {})})
    vocab = {code: len(NAMES) + i for i, code in enumerate(codes)}
    w = np.zeros(len(NAMES) + len(vocab) + 1)
    for name, x in model["weights"].items():
        w[NAMES.index(name)] = x
    for key, base in (("rings", PATTERN3_BASE), ("diamonds", PATTERN5_BASE)):
        for c, x in model.get(key, {}).items():
            w[vocab[base + int(c)]] = x
    return vocab, (net_of(layer, w, vocab) if layer else w)


def averaged(models: list[dict[str, Any]]) -> dict[str, Any]:
    """One model whose score is the mean of ``models``' scores (an ensemble): their weights averaged,
    their hidden units side by side, each unit's out-weight divided by their number.

    >>> a = {"weights": {"x": 1.0}, "hidden": {"weights": {"x": [2.0]}, "bias": [0.5], "out": [1.0]}}
    >>> b = {"weights": {"y": 3.0}}
    >>> averaged([a, b])["weights"], averaged([a, b])["hidden"]
    ({'x': 0.5, 'y': 1.5}, {'weights': {'x': [2.0]}, 'rings': {}, 'diamonds': {}, 'bias': [0.5], 'out': [0.5]})
    """
    n = len(models)
    layers = [m.get("hidden") or {"bias": [], "out": []} for m in models]
    out: dict[str, Any] = {}
    for key in ("weights", "rings", "diamonds"):
        names = sorted(set().union(*(m.get(key, {}) for m in models)))
        out[key] = {k: round(math.fsum(m.get(key, {}).get(k, 0.0) for m in models) / n, 6) for k in names}
    layer: dict[str, Any] = {}
    for key in ("weights", "rings", "diamonds"):
        names = sorted(set().union(*(lay.get(key, {}) for lay in layers)))
        layer[key] = {k: [x for lay in layers for x in lay.get(key, {}).get(k) or [0.0] * len(lay["out"])] for k in names}
    layer["bias"] = [x for lay in layers for x in lay["bias"]]
    layer["out"] = [round(x / n, 6) for lay in layers for x in lay["out"]]
    if layer["out"]:
        out["hidden"] = layer
    return out


def average(paths: list[str], args: argparse.Namespace, command: str) -> int:
    """``--average``: the mean of fitted models (each fitted on the same four fifths of the training
    games), its temperatures chosen on the validation fifth, measured as a fitted model is."""
    started = time.monotonic()
    members = [json.loads(pathlib.Path(path).read_text(encoding="utf-8")) for path in paths]
    splits = {(m["provenance"].get("games"), m["provenance"].get("validation_games")) for m in members}
    if len(splits) != 1 or None in next(iter(splits)):
        raise SystemExit("--average: the models were not all fitted on the same games (their provenance differs)")
    games = corpus()[: args.games] if args.games else corpus()
    held = split(len(corpus()))
    data = extract_all(games, args.workers, args.cache)
    train = [d for d in data if d[0] not in held]
    inner = validation_games(sorted({d[0] for d in train}))
    model = averaged(members)
    if args.hidden_decimals is not None and "hidden" in model:
        model["hidden"] = rounded_layer(model["hidden"], args.hidden_decimals)
    vocab, scored = columns_of(model)
    temps = temperatures(Batch([d for d in train if d[0] in inner], vocab), scored)
    provenance = {"command": command, "commit": git_commit(),
                  "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
                  "averages": [m["provenance"] for m in members], "corpus": SOURCE, "games": len(games),
                  "held_out_games": len([g for g in range(len(games)) if g in held]),
                  **{key: members[0]["provenance"][key] for key in ("split", "training_positions", "held_out_positions")},
                  "hidden_units": len(model.get("hidden", {}).get("out", [])),
                  "temperatures": temps,
                  "temperatures_chosen_by": members[0]["provenance"]["temperatures_chosen_by"],
                  "validation_games": len(inner)}
    return finish(model, provenance, Batch([d for d in train if d[0] not in inner], vocab),
                  Batch([d for d in data if d[0] in held], vocab), scored, temps, games, held, args, command, started)


def finish(model: dict[str, Any], provenance: dict[str, Any], training: Batch, held_out: Batch, scored: "np.ndarray | Net",
           temps: dict[str, float], games: list[list[str]], held: set[int], args: argparse.Namespace, command: str,
           started: float) -> int:
    """Write the model where ``--model-out`` says and its report (agreement on the training and the
    held-out games, and beside the search's levels), add the report to the steps with ``--step``."""
    model["provenance"] = provenance
    write_model(model, args.model_out)
    report = {"provenance": provenance, "training": breakdown(training, scored, temps),
              "held_out": breakdown(held_out, scored, temps),
              "levels": levels_agreement(games, sorted(g for g in held if g < len(games)), model, args.levels)}
    report["provenance"]["seconds"] = round(time.monotonic() - started, 1)
    pathlib.Path(args.report_out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if args.step:
        record_step(args.step, report, command)
    print(json.dumps(report, indent=1))
    return 0


def rounded_layer(layer: dict[str, Any], decimals: int) -> dict[str, Any]:
    """A hidden layer with its feature weights stored to ``decimals`` places, a feature whose every
    weight rounds to nothing left out (the file the browser fetches shrinks; the model measured is
    the one stored).

    >>> rounded_layer({"weights": {"a": [0.12345, -0.0004], "b": [0.0004, 0.0]}, "bias": [0.5], "out": [1.0]}, 3)["weights"]
    {'a': [0.123, 0.0]}
    """
    out = dict(layer)
    for key in ("weights", "rings", "diamonds"):
        columns = {k: [round(x, decimals) + 0.0 for x in column] for k, column in layer.get(key, {}).items()}
        out[key] = {k: column for k, column in columns.items() if any(column)}
    return out


def write_model(model: dict[str, Any], where: str | None) -> None:
    """Write ``model`` where ``--model-out`` says ('package': the player's own, with its digest); nowhere without it."""
    if not where:
        return
    out = MODEL_PATH if where == "package" else pathlib.Path(where)
    text = json.dumps(model, separators=(",", ":"), sort_keys=True) + "\n"
    out.write_text(text, encoding="utf-8")
    if where == "package":  # the digest the board's worker fetches the model by (not in its wheel)
        DIGEST_PATH.write_text(DIGEST_MODULE.format(hashlib.sha256(text.encode("utf-8")).hexdigest()), encoding="utf-8")


def net_of(layer: dict[str, Any], w: np.ndarray, vocab: dict[int, int]) -> Net:
    """A stored hidden layer (and the linear weights ``w``) as a :class:`Net` over ``vocab``'s columns."""
    units = len(layer["out"])
    W = np.zeros((len(w), units))
    for name, column in layer.get("weights", {}).items():
        W[NAMES.index(name)] = column
    for key, base in (("rings", PATTERN3_BASE), ("diamonds", PATTERN5_BASE)):
        for code, column in layer.get(key, {}).items():
            W[vocab[base + int(code)]] = column
    return Net(w, W, np.array(layer["bias"], float), np.array(layer["out"], float))


def stored(w: np.ndarray, vocab: dict[int, int]) -> dict[str, Any]:
    """Weights by column as a model file stores them: named features by name, patterns by code."""
    return {"weights": {NAMES[i]: round(float(w[i]), 6) for i in range(len(NAMES)) if abs(w[i]) > 1e-9},
            "rings": {str(code - PATTERN3_BASE): round(float(w[j]), 6) for code, j in vocab.items()
                      if code < PATTERN5_BASE and abs(w[j]) > 1e-9},
            "diamonds": {str(code - PATTERN5_BASE): round(float(w[j]), 6) for code, j in vocab.items()
                         if code >= PATTERN5_BASE and abs(w[j]) > 1e-9}}


def stored_layer(net: Net, vocab: dict[int, int]) -> dict[str, Any]:
    """A :class:`Net`'s hidden layer as a model file stores it (a column of unit weights per feature)."""
    def column(i: int) -> list[float]:
        return [round(float(x), 6) for x in net.W[i]]
    keep = [i for i in range(len(net.W) - 1) if np.abs(net.W[i]).max() > 1e-9]
    return {"weights": {NAMES[i]: column(i) for i in keep if i < len(NAMES)},
            "rings": {str(code - PATTERN3_BASE): column(j) for code, j in vocab.items() if code < PATTERN5_BASE and j in keep},
            "diamonds": {str(code - PATTERN5_BASE): column(j) for code, j in vocab.items()
                         if code >= PATTERN5_BASE and j in keep},
            "bias": [round(float(x), 6) for x in net.b], "out": [round(float(x), 6) for x in net.v]}


def record_step(words: str, report: dict[str, Any], command: str) -> None:
    """Add a run's figures to the table of what was tried (each step on the same held-out games)."""
    data = json.loads(STEPS.read_text(encoding="utf-8")) if STEPS.exists() else {
        "about": "What was tried to raise the move model's agreement with people's moves, each step measured on the "
                 "same 350 held-out games (train_people.py's split), in the order tried.", "steps": []}
    data["steps"].append({"what": words, "command": command, "commit": git_commit(),
                          "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
                          "training": report["training"], "held_out": report["held_out"]})
    STEPS.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def git_commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--workers", "-j", type=int, default=1)
    p.add_argument("--games", type=int, help="use only the first N games (a smoke run)")
    p.add_argument("--model-out", help="where to write the model ('package': the player's own, "
                   f"{MODEL_PATH.relative_to(ROOT)}); without it no model is written")
    p.add_argument("--levels", type=int, nargs="*", default=list(LEVELS),
                   help="the AI's levels measured beside the model (default: all)")
    p.add_argument("--report-out", default=str(REPORT))
    p.add_argument("--cache", help="a file that keeps the extracted features between runs (a pickle)")
    p.add_argument("--drop", nargs="*", default=[], metavar="WORDS",
                   help="leave out the features whose names contain these words (an ablation)")
    p.add_argument("--hidden", type=int, default=0, metavar="UNITS",
                   help="give the model a hidden layer of this many units (combinations of features); 0: none")
    p.add_argument("--l2", type=float, default=L2, help=f"the penalty on the weights (default {L2})")
    p.add_argument("--l2-hidden", type=float, default=L2_HIDDEN,
                   help=f"the penalty on the hidden layer's weights (default {L2_HIDDEN})")
    p.add_argument("--iterations", type=int, default=400, help="at most this many L-BFGS steps (the hidden layer's fit)")
    p.add_argument("--no-diamonds", action="store_true", help="leave out the diamond patterns (an ablation)")
    p.add_argument("--evaluate", metavar="MODEL", help="measure a model file on the same split (train nothing)")
    p.add_argument("--average", nargs="+", metavar="MODEL",
                   help="the player's model as the mean of these fitted models' scores (an ensemble), its temperatures "
                        "chosen on the validation fifth; measured and written as a fitted model is (train nothing)")
    p.add_argument("--hidden-decimals", type=int, metavar="N",
                   help="with --average: store the hidden layer's weights to N decimal places (a smaller file for the "
                        "browser), the model measured as stored")
    p.add_argument("--step", metavar="WORDS", help="add this run's figures to the table of steps tried "
                   f"({STEPS.relative_to(ROOT)}), described in WORDS")
    p.add_argument("--no-temperatures", action="store_true",
                   help="choose no temperatures (both 1); by default each side's is chosen by the likelihood of the "
                        "person's moves on a fifth of the training games, the model fitted on the rest")
    p.add_argument("--report", action="store_true", help="print the committed report; train nothing")
    p.add_argument("--add-levels", nargs="+", type=int, metavar="LEVEL",
                   help="measure these levels on the committed report's positions and add them to it; train nothing")
    args = p.parse_args(argv)
    if args.add_levels:
        return add_levels(args.add_levels, pathlib.Path(args.report_out))
    if args.report:
        print(json.dumps(json.loads(pathlib.Path(args.report_out).read_text(encoding="utf-8")), indent=1))
        return 0
    command = " ".join(["python benchmarks/train_people.py", *(sys.argv[1:] if argv is None else argv)])
    if args.average:
        return average(args.average, args, command)
    if args.evaluate:
        evaluated = evaluate(args.evaluate, args.cache, args.workers, args.report_out, args.games)
        if args.step:
            record_step(args.step, evaluated, command)
        return 0
    started = time.monotonic()
    games = corpus()[: args.games] if args.games else corpus()
    held = split(len(corpus()))
    data = extract_all(games, args.workers, args.cache)
    train = [d for d in data if d[0] not in held]
    test = [d for d in data if d[0] in held]
    vocab = pattern_vocab(train, diamonds=not args.no_diamonds)
    dropped = dropped_features(args.drop)
    temps = {"attackers": 1.0, "defenders": 1.0}
    inner: set[int] = set()
    if not args.no_temperatures:  # the weights are fitted on four fifths of the training games, the
        inner = validation_games(sorted({d[0] for d in train}))  # temperatures chosen on the other fifth
        train, validation = [d for d in train if d[0] not in inner], [d for d in train if d[0] in inner]
    btr, bte = Batch(train, vocab, dropped), Batch(test, vocab, dropped)
    btr.l2 = args.l2
    columns = len(NAMES) + len(vocab) + 1  # the last: the rarer patterns, held at zero
    fitted: np.ndarray | Net
    if args.hidden:
        fitted, loss, iterations = fit_net(btr, columns, args.hidden, args.l2_hidden, iters=args.iterations)
        w = fitted.w
    else:
        w, loss, iterations = lbfgs(btr.loss, np.zeros(columns), tol=TOL)
        fitted = w
    if inner:
        temps = temperatures(Batch(validation, vocab, dropped), fitted)
    model = stored(w, vocab)
    if args.hidden:
        model["hidden"] = stored_layer(fitted, vocab)
    provenance = {"command": command,
                  "commit": git_commit(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
                  "corpus": SOURCE, "games": len(games), "held_out_games": len([g for g in range(len(games)) if g in held]),
                  "split": f"random.Random({SPLIT_SEED}).shuffle of the game numbers; the first fifth held out",
                  "training_positions": len(train), "held_out_positions": len(test),
                  "features": len(NAMES), "patterns": len(vocab), "min_pattern_count": MIN_PATTERN, "l2": args.l2,
                  "hidden_units": args.hidden, **({"l2_hidden": args.l2_hidden, "max_iterations": args.iterations, "init": f"normal(0, {INIT_SCALE}), "
                                                   f"numpy.random.default_rng({SPLIT_SEED})"} if args.hidden else {}),
                  "iterations": iterations, "training_loss": round(loss, 5), "temperatures": temps,
                  "temperatures_chosen_by": "the likelihood of the person's moves in a seeded fifth of the training "
                                            "games (random.Random(2028)), set aside from the fitting of the weights",
                  "validation_games": len(inner),
                  "seconds": round(time.monotonic() - started, 1)}
    return finish(model, provenance, btr, bte, fitted, temps, games, held, args, command, started)


if __name__ == "__main__":
    sys.exit(main())
