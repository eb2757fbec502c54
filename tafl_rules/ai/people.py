"""The people-like player: it moves as people were seen to move, with a safety net.

A *move model* learned from 1,752 Copenhagen games between people (``people-model.json``
beside this module, with its provenance; ``benchmarks/train_people.py`` makes it) gives
each legal move a score: the sum of the weights of its features
(:mod:`tafl_rules.ai.features`: what the move does in terms of the rules), plus, where the
model has them, a few *combinations* of features (a small hidden layer: each unit adds its
weights of the move's features, and counts only when that sum is above zero, so that one fact
can matter more, or less, when another holds). The player draws a move
with chance in proportion to ``exp(score / temperature)``, so that a low temperature
plays the moves people play most and a high one plays more varied moves. Because the
features name escape squares, hostile squares and captures rather than squares of one
board, the same model plays every set of rules in the catalogue.

The *safety net* keeps it from the blunders people seldom make: it takes a win when one
is there, and it never plays a move that lets the other side win at once (the king
escapes, or is taken), nor, for the attackers, one that lets the king reach a square
with two open roads, while another move avoids it.

A :class:`Style` holds the temperatures of the two sides (:data:`STYLE`: chosen, like the
weights, by how likely they make people's own moves; nothing is fitted to how games end).
Everything depends only on
the position, the style and the seed: the same move in CPython and in the browser's Python.

>>> from tafl_rules import Game
>>> game = Game("brandubh")
>>> move = people_move(game, STYLE, seed=1)
>>> move in game.legal_moves(), move == people_move(game, STYLE, seed=1)
(True, True)
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import pathlib
import random
import sys
from typing import Any, NamedTuple

from ..engine import ATTACKERS, Position
from ..game import Game, Move
from ..squares import iter_bits
from .features import INDEX, JUDGED, NAMES, PATTERN3_BASE, PATTERN5_BASE, move_features
from .people_digest import MODEL_DIGEST

__all__ = ["MODEL_PATH", "NAME", "NEUTRAL", "Model", "STYLE", "Style", "load_model", "model_from_data", "parse_style",
           "people_move", "people_scores", "style_name", "weighs_judged"]

MODEL_PATH = pathlib.Path(__file__).with_name("people-model.json")


class Model(NamedTuple):
    """A move model: a weight per feature (by index of :data:`~tafl_rules.ai.features.NAMES`
    or ring-pattern code), and where it came from; optionally a hidden layer of ``len(out)``
    units: ``hidden[f]`` the weights feature ``f`` gives each unit, ``bias`` each unit's own,
    ``out`` what an active unit adds to the score for each unit of its value. ``judged``: whether
    it weighs any of :data:`~tafl_rules.ai.features.JUDGED` (the slower features), so that
    the player asks for them (:func:`weighs_judged` tells, for a model made by hand)."""

    weights: dict[int, float]
    provenance: dict[str, Any]
    hidden: dict[int, tuple[float, ...]] = {}
    bias: tuple[float, ...] = ()
    out: tuple[float, ...] = ()
    judged: bool = True

    def score(self, row: list[int]) -> float:
        """The score of a move with the features ``row``: the sum of their weights, and of each
        hidden unit's value (its weights of ``row`` and its bias, summed, and counted only above
        zero) times its out-weight. Sums are exact (``math.fsum``), so the order of ``row``
        does not change a score.

        >>> Model({1: 0.5, 2: -1.0}, {}, {1: (1.0, -1.0)}, (0.25, 0.0), (2.0, 3.0)).score([2, 1])
        2.0
        """
        w = self.weights
        linear = math.fsum([w.get(f, 0.0) for f in row])
        if not self.out:
            return linear
        hidden = self.hidden
        units = map(math.fsum, zip(self.bias, *[hidden[f] for f in row if f in hidden]))
        return math.fsum([linear, *[v * a for v, a in zip(self.out, units) if a > 0]])


def load_model(path: str | pathlib.Path = MODEL_PATH) -> Model:
    """The move model stored at ``path`` (feature weights are stored by name, ring patterns
    by code, so a model outlives a renumbering of the features)."""
    return _load(str(path))


def browser_model_name(digest: str = MODEL_DIGEST) -> str:
    """The name the site serves the model under, in its ``_models`` folder (a new model is a new
    name): the wheel the boards load leaves the model out, and the board's worker fetches it, by its
    digest (:data:`~tafl_rules.ai.people_digest.MODEL_DIGEST`), only when a board chooses the
    people-like player."""
    return f"people-model-{digest[:16]}.json"


def _read_model(path: str) -> str:
    file = pathlib.Path(path)
    if not file.exists() and sys.platform == "emscripten" and file == MODEL_PATH:  # pragma: no cover - Pyodide only
        # the worker's own XMLHttpRequest, looked up now: pyodide.http, imported while the board's
        # snapshot is made under Node (which has none), would keep that it found none
        import js  # type: ignore[import-not-found]

        request = js.XMLHttpRequest.new()
        request.open("GET", str(js.URL.new(f"../_models/{browser_model_name()}", js.location.href)), False)
        request.send(None)
        if request.status != 200:
            raise OSError(f"the people-like player's model could not be fetched (HTTP {request.status})")
        text: str = str(request.responseText)
        if hashlib.sha256(text.encode("utf-8")).hexdigest() != MODEL_DIGEST:
            raise ValueError(f"the model fetched from _models/{browser_model_name()} is not the one this package names")
        return text
    return file.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=8)
def _load(path: str) -> Model:
    return model_from_data(json.loads(_read_model(path)), path)


def model_from_data(data: dict[str, Any], path: str = "the model") -> Model:
    """A move model from its stored form (a model file's JSON); ValueError names what is wrong."""
    weights: dict[int, float] = {}
    for name, w in data["weights"].items():
        if name not in INDEX:
            raise ValueError(f"{path}: the model weighs a feature this package does not have: {name!r}")
        weights[INDEX[name]] = float(w)
    for code, w in data.get("rings", {}).items():
        weights[PATTERN3_BASE + int(code)] = float(w)
    for code, w in data.get("diamonds", {}).items():
        weights[PATTERN5_BASE + int(code)] = float(w)
    layer = data.get("hidden")
    if not layer:
        return Model(weights, dict(data.get("provenance", {})), judged=weighs_judged(weights, {}))
    units = len(layer["out"])
    hidden: dict[int, tuple[float, ...]] = {}
    for key, prefix in (("weights", None), ("rings", PATTERN3_BASE), ("diamonds", PATTERN5_BASE)):
        for name, column in layer.get(key, {}).items():
            if len(column) != units:
                raise ValueError(f"{path}: the hidden layer has {units} units, {name!r} weighs {len(column)}")
            if prefix is None and name not in INDEX:
                raise ValueError(f"{path}: the model weighs a feature this package does not have: {name!r}")
            hidden[INDEX[name] if prefix is None else prefix + int(name)] = tuple(float(x) for x in column)
    bias = tuple(float(x) for x in layer["bias"])
    if len(bias) != units:
        raise ValueError(f"{path}: the hidden layer has {units} units and {len(bias)} biases")
    return Model(weights, dict(data.get("provenance", {})), hidden, bias, tuple(float(x) for x in layer["out"]),
                 weighs_judged(weights, hidden))


def weighs_judged(weights: dict[int, float], hidden: dict[int, tuple[float, ...]]) -> bool:
    """Whether a model with these weights gives any of the features of
    :data:`~tafl_rules.ai.features.JUDGED` a weight other than zero.

    >>> weighs_judged({INDEX["attackers:takes 1"]: 1.0}, {}), weighs_judged({INDEX["defenders:evaluation rank 1"]: 0.5}, {})
    (False, True)
    """
    return any(weights.get(f, 0.0) != 0.0 or any(hidden.get(f, ())) for f in JUDGED)


class Style(NamedTuple):
    """How hard each side picks its moves: the temperature of its draw (below 1 the model's
    favourites are drawn more often than the model expects of a person, above 1 less often)."""

    attackers_temperature: float = 1.0
    defenders_temperature: float = 1.0

    def temperature(self, side: int) -> float:
        return self.attackers_temperature if side == ATTACKERS else self.defenders_temperature


#: the style a player's name is read against: ``people`` alone is the model as it was fitted
NEUTRAL = Style()
#: The style the site's people-like player plays with: each side's temperature chosen, with the
#: model, by the likelihood of people's moves (``benchmarks/train_people.py``; never by results).
STYLE = Style(attackers_temperature=0.99, defenders_temperature=1.06)
#: the name of the people-like player in the balance lab and on the boards
NAME = "people"


def style_name(style: Style) -> str:
    """The player's name for a style: ``people`` for :data:`NEUTRAL` (both temperatures 1),
    otherwise ``people(...)`` with the temperatures that differ from it (``ta`` the
    attackers', ``td`` the defenders'). A name never changes its meaning: results files
    and share links keep it.

    >>> style_name(NEUTRAL._replace(attackers_temperature=0.5))
    'people(ta=0.5)'
    >>> parse_style(style_name(Style(0.5, 2.0))) == Style(0.5, 2.0)
    True
    """
    parts = [f"{key}={value:g}" for key, value, base in zip(("ta", "td"), style, NEUTRAL) if value != base]
    return NAME + (f"({','.join(parts)})" if parts else "")


def parse_style(name: str) -> Style:
    """The style a player's name stands for (see :func:`style_name`); ValueError names what
    is wrong.

    >>> parse_style("people(td=2)")
    Style(attackers_temperature=1.0, defenders_temperature=2.0)
    >>> parse_style("people(td=-1)")
    Traceback (most recent call last):
    ...
    ValueError: 'people(td=-1)': 'td=-1' is not a valid setting (a temperature is a number above 0)
    """
    if not isinstance(name, str) or not name.startswith(NAME):
        raise ValueError(f"a people-like player's name starts with {NAME!r}, got {name!r}")
    rest = name[len(NAME):]
    if not rest:
        return NEUTRAL
    if not (rest.startswith("(") and rest.endswith(")")):
        raise ValueError(f"{name!r}: the settings go in brackets, like people(ta=0.5,td=2)")
    temperatures = list(NEUTRAL)
    for part in filter(None, rest[1:-1].split(",")):
        key, eq, value = part.partition("=")
        if not eq or key not in ("ta", "td"):
            raise ValueError(f"{name!r}: {part!r} is not ta= or td= (the attackers' or the defenders' temperature)")
        try:
            t = float(value)
        except ValueError:
            t = math.nan
        if not 0 < t < math.inf:
            raise ValueError(f"{name!r}: {part!r} is not a valid setting (a temperature is a number above 0)")
        temperatures[key == "td"] = t
    return Style(*temperatures)


_WINS = (INDEX["attackers:wins"], INDEX["defenders:wins"])
#: the other side wins at once after such a move
_LOSES = ((INDEX["attackers:roads after=1"], INDEX["attackers:roads after=2+"]),
          (INDEX["defenders:own king open to capture after"],))
#: the other side can make an unstoppable threat after such a move
_RISKY = ((INDEX["attackers:king fork squares after>0"],), ())
#: such a move wins next move whatever the other side does, as good as a win
_FORK = ((), (INDEX["defenders:roads after=2+"],))


def people_scores(pos: Position, model: Model | None = None) -> tuple[list[int], list[float], list[list[int]]]:
    """The legal moves of ``pos`` (packed), the model's score of each, and the features of each."""
    model = model or load_model()
    moves, rows = move_features(pos.rules).of_position(pos, judged=model.judged)
    score = model.score
    return moves, [score(row) for row in rows], rows


def _draw(cands: list[int], scores: dict[int, float], temperature: float, rng: random.Random) -> int:
    top = max(scores[m] for m in cands)
    weights = [math.exp((scores[m] - top) / temperature) for m in cands]
    x = rng.random() * math.fsum(weights)
    for m, wt in zip(cands, weights):
        x -= wt
        if x <= 0:
            return m
    return cands[-1]


def _choose(game: Game, style: Style, rng: random.Random, model: Model) -> int:
    pos = game.engine
    side = pos.side
    moves, scores, rows = people_scores(pos, model)
    if not moves:
        raise ValueError(f"the {game.turn} have no legal move")
    score_of = dict(zip(moves, scores))
    has = [set(r) for r in rows]
    win = _WINS[side]
    winning = [m for m, f in zip(moves, has) if win in f]
    if winning:
        return max(winning, key=score_of.__getitem__)
    cands = [m for m, f in zip(moves, has) if not f.intersection(_LOSES[side])] or moves
    forks = [m for m, f in zip(moves, has) if m in cands and f.intersection(_FORK[side])]
    if forks:
        return max(forks, key=score_of.__getitem__)
    safer = [m for m, f in zip(moves, has) if m in cands and not f.intersection(_RISKY[side])]
    cands = safer or cands
    return _draw(cands, score_of, style.temperature(side), rng)


def people_move(game: Game, style: Style = STYLE, seed: int = 0, model: Model | None = None) -> Move:
    """The people-like player's move for the side to move in ``game`` (not changed): the
    same ``game`` position, ``style`` and ``seed`` always give the same move."""
    if game.outcome is not None:
        raise ValueError(f"the game is over ({game.outcome.reason})")
    rng = random.Random(f"people:{int(seed)}:{game.hash}:{game.ply}")
    m = _choose(game, style, rng, model or load_model())
    pos = game.engine
    frm, to, kind = m >> 11, (m >> 2) & 511, m & 3
    names = pos.g.names
    caps = pos.captures(frm, to, kind, pos.side)
    return Move(names[frm], names[to], [names[c] for c in iter_bits(caps)])


assert len(NAMES) == len(set(NAMES))
