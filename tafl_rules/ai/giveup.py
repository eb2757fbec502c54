"""When people give up: a model of the chance that the side to move resigns (or lets the game go).

Most games between people do not end on the board. Of the 1,714 decided games of the Copenhagen
corpus, 372 were ended by the rules; in the rest the loser resigned, left the game or let the
clock run out, nearly always with the move (1,330 of 1,342 times). A program playing itself
never does, so its share of wins counts something else than people's. This model says, for a
position, how likely the side to move is to give up there; :func:`adjudicate` carries it along a
game, so that a game of the player can be counted as people's games are.

The model is stated in terms of the rules, like the move model (:mod:`tafl_rules.ai.features`):
yes/no facts about the position from the side to move's point of view (men lost by each side,
as a share of the men the rules start them with; whether the king has a road to an escape square
now, or squares he can reach from which he would have one; whether the attackers' ring round the
king is closed; how many attackers stand beside him; how many moves the side has; how long the
game has gone on). Each fact has a weight for each side, and the chance of giving up is the
logistic function of their sum. ``giveup-model.json`` beside this module holds the weights and
where they came from (``benchmarks/train_giveup.py`` fits them on the training games of the
move model's split and judges them on its held-out games).

>>> from tafl_rules import Game
>>> game = Game("copenhagen")
>>> 0 < give_up_chance(game.engine) < 0.01
True
"""

from __future__ import annotations

import functools
import json
import math
import pathlib
from typing import Any, NamedTuple

from ..engine import ATTACKERS, DEFENDERS, Position, tables
from ..engine.endings import king_threatened
from ..rules import Rules
from .features import king_region

__all__ = ["GIVEUP_PATH", "GiveUpModel", "NAMES", "INDEX", "adjudicate", "give_up_chance", "load_giveup", "position_facts"]

GIVEUP_PATH = pathlib.Path(__file__).with_name("giveup-model.json")
_SIDES = ("attackers", "defenders")
_LOST = ("none", "up to 1/8", "up to 1/4", "up to 3/8", "up to 1/2", "up to 5/8", "over 5/8")


def _facts() -> list[str]:
    facts = ["bias"]
    facts += [f"own men lost {x}" for x in _LOST] + [f"enemy men lost {x}" for x in _LOST]
    facts += [f"lost share minus enemy's {x}" for x in ("below -1/4", "-1/4 to -1/8", "-1/8 to 0", "0",
                                                        "0 to 1/8", "1/8 to 1/4", "above 1/4")]
    facts += [f"king roads {x}" for x in ("0", "1", "2+")]
    facts += [f"king road squares {x}" for x in ("0", "1", "2", "3+")]
    facts += [f"escapes in king's region {x}" for x in ("0", "1", "2", "3", "4+")]
    facts += [f"king's region {x} of the board" for x in ("up to 1/10", "up to 1/4", "up to 1/2", "over 1/2")]
    facts += [f"attackers beside the king {n}" for n in range(5)]
    facts += ["king open to capture"]
    facts += [f"moves {x}" for x in ("up to 5", "6-15", "16-30", "31-60", "over 60")]
    facts += [f"plies {x}" for x in ("under 20", "20-39", "40-59", "60-79", "80-119", "120 on")]
    return [f"{side} to move:{fact}" for side in _SIDES for fact in facts]


NAMES: list[str] = _facts()
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
_PER_SIDE = len(NAMES) // 2


def _bucket(x: float, edges: tuple[float, ...]) -> int:
    """The index of the first edge ``x`` does not exceed (the last bucket past every edge)."""
    for i, edge in enumerate(edges):
        if x <= edge:
            return i
    return len(edges)


class _Board:
    """What the facts need of a rules record, worked out once."""

    def __init__(self, rules: Rules) -> None:
        t = tables(rules)
        self.t, self.g = t, t.g
        self.escape = t.escape
        self.start_men = (rules.start.count("t"), rules.start.count("T"))
        self.can_take_king = t.king_mode.takeable
        self.index = [{name.split(":", 1)[1]: i + side * _PER_SIDE for i, name in enumerate(NAMES[:_PER_SIDE])}
                      for side in (ATTACKERS, DEFENDERS)]


@functools.lru_cache(maxsize=32)
def _board(rules: Rules) -> _Board:
    return _Board(rules)


def position_facts(pos: Position) -> list[int]:
    """The facts of ``pos`` for the side to move, as indices into :data:`NAMES` (the position is
    unchanged)."""
    b = _board(pos.rules)
    side = pos.side
    ix = b.index[side]
    out = [ix["bias"]]
    start_a, start_d = b.start_men
    lost_a = 1 - pos.a.bit_count() / start_a if start_a else 0.0
    lost_d = 1 - pos.d.bit_count() / start_d if start_d else 0.0
    own, enemy = (lost_a, lost_d) if side == ATTACKERS else (lost_d, lost_a)
    edges = (0.0, 1 / 8, 1 / 4, 3 / 8, 1 / 2, 5 / 8)
    out.append(ix[f"own men lost {_LOST[_bucket(own, edges)]}"])
    out.append(ix[f"enemy men lost {_LOST[_bucket(enemy, edges)]}"])
    d = own - enemy
    words = ("below -1/4" if d < -0.25 else "-1/4 to -1/8" if d < -0.125 else "-1/8 to 0" if d < -1e-9
             else "0" if d <= 1e-9 else "0 to 1/8" if d <= 0.125 else "1/8 to 1/4" if d <= 0.25 else "above 1/4")
    out.append(ix[f"lost share minus enemy's {words}"])
    k = pos.k
    moves = sum(found.bit_count() for _frm, _kind, found in pos.move_targets(side))
    if k >= 0:
        g = b.g
        esc = b.escape
        kt = pos.king_targets()
        roads = (kt & esc).bit_count()
        out.append(ix["king roads " + ("0" if roads == 0 else "1" if roads == 1 else "2+")])
        occ = pos.a | pos.d
        occt = pos.occt ^ g.tbit[k]
        squares = 0
        bb = kt & ~esc
        while bb and squares < 3:
            low = bb & -bb
            bb ^= low
            if g.slide(low.bit_length() - 1, occ, occt) & esc:
                squares += 1
        out.append(ix["king road squares " + ("3+" if squares >= 3 else str(squares))])
        region = king_region(g, pos.a, k)
        inside = (region & esc).bit_count()
        out.append(ix["escapes in king's region " + ("4+" if inside >= 4 else str(inside))])
        share = region.bit_count() / g.n
        out.append(ix[f"king's region {('up to 1/10', 'up to 1/4', 'up to 1/2', 'over 1/2')[_bucket(share, (0.1, 0.25, 0.5))]} of the board"])
        beside = 0
        for nb in (k + g.size, k - g.size, k + 1 if (k + 1) % g.size else -1, k - 1 if k % g.size else -1):
            if 0 <= nb < g.n and pos.a >> nb & 1:
                beside += 1
        out.append(ix[f"attackers beside the king {beside}"])
        if b.can_take_king and king_threatened(pos):
            out.append(ix["king open to capture"])
    out.append(ix["moves " + ("up to 5", "6-15", "16-30", "31-60", "over 60")[_bucket(moves, (5, 15, 30, 60))]])
    out.append(ix["plies " + ("under 20", "20-39", "40-59", "60-79", "80-119", "120 on")[_bucket(len(pos.stack), (19, 39, 59, 79, 119))]])
    return out


class GiveUpModel(NamedTuple):
    """A weight per fact (by index of :data:`NAMES`), and where they came from."""

    weights: tuple[float, ...]
    provenance: dict[str, Any]


def load_giveup(path: str | pathlib.Path = GIVEUP_PATH) -> GiveUpModel:
    """The give-up model stored at ``path`` (weights by fact name; a name this package does not
    know is an error)."""
    return _load(str(path))


@functools.lru_cache(maxsize=4)
def _load(path: str) -> GiveUpModel:
    data = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    weights = [0.0] * len(NAMES)
    for name, w in data["weights"].items():
        if name not in INDEX:
            raise ValueError(f"{path}: the give-up model weighs a fact this package does not have: {name!r}")
        weights[INDEX[name]] = float(w)
    return GiveUpModel(tuple(weights), dict(data.get("provenance", {})))


def give_up_chance(pos: Position, model: GiveUpModel | None = None) -> float:
    """The chance that the side to move gives up in ``pos`` (0 once the game is over)."""
    if pos.outcome is not None:
        return 0.0
    w = (model or load_giveup()).weights
    z = math.fsum(w[i] for i in position_facts(pos))
    return 1 / (1 + math.exp(-z)) if z > -700 else 0.0


def adjudicate(chances: list[tuple[int, float]], winner: str | None) -> tuple[float, float]:
    """The chance that each side wins a game counted as people's games are: ``chances`` are, ply
    by ply, the side to move and its chance of giving up there; ``winner`` the side that won on
    the board (None: no winner). Returns the attackers' and the defenders' chance of winning.

    >>> adjudicate([(0, 0.0), (1, 0.5)], "defenders")  # the defenders give up half the time
    (0.5, 0.5)
    >>> adjudicate([], None)
    (0.0, 0.0)
    """
    playing = 1.0
    won = [0.0, 0.0]
    for side, chance in chances:
        won[1 - side] += playing * chance
        playing *= 1 - chance
    if winner == "attackers":
        won[0] += playing
    elif winner == "defenders":
        won[1] += playing
    return won[0], won[1]
