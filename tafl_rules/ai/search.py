"""The AI opponent: alpha-beta with iterative deepening under any set of rules.

Negamax alpha-beta search, deepened one ply at a time, with a transposition table on
the engine's Zobrist hash, move ordering (the table's move, likely captures, the
king's roads, killer moves, history) and the rule-reading evaluation of
:mod:`tafl_rules.ai.evaluate`. The search plays on the game's engine
:class:`~tafl_rules.engine.state.Position` (ints, make and unmake) and takes every
move back, so the game is unchanged when it returns.

Levels 1-6 (:data:`LEVELS`) differ in depth, in a *node* budget, in the search and in the
evaluation's weights. Levels 1 and 2 search every move to a fixed depth with the hand-set
weights; levels 3-6 search with a null window after the first move, reduce and prune late
quiet moves, try a null move where they stand well, and play with
:data:`~tafl_rules.ai.evaluate.PLAY_WEIGHTS` (which add the corner terms, worth nothing for a
corner the king is far from). The budget, not the clock, ends the search, so the same
position, level and seed always give the same move, in CPython and in the browser worker alike;
a time cap is only a safety net against a pathological position or a slow machine (levels 5
and 6 stop at 2.8 s, so that the browser never waits more than 3 s for a move; the balance lab
plays without it). At levels 3-6 an iteration cut short by the budget still counts once it has
found a move better than the last complete iteration's choice (that move is searched first), so
every extra node a level is given can change its move. ``seed`` breaks ties between equal moves and, at levels 1 and 2, picks among moves
scored within a small margin of the best (weaker, more varied play). Earlier levels whose
committed games must still replay remain as :data:`RETIRED_LEVELS`.

>>> from tafl_rules import Game
>>> from tafl_rules.ai import choose_move
>>> g = Game("brandubh")
>>> choose_move(g, level=1, seed=0) == choose_move(g, level=1, seed=0)
True
"""

from __future__ import annotations

import operator
import random
import time
from typing import Callable, Iterable, Iterator, NamedTuple

from ..engine import ATTACKERS, DEFENDERS, KING, Position
from ..game import Game, Move
from ..outcome import Outcome
from ..squares import iter_bits
from .evaluate import CORNERS_TIED, HAND_SET, PLAY_WEIGHTS, Weights, evaluator

__all__ = ["LEVELS", "DEFAULT_LEVEL", "RETIRED_LEVELS", "Level", "SearchResult", "analyse", "choose_move", "level_spec"]

WIN = 100_000
_INF = 10**9


#: the board squares (11x11) up to which a scaled level's node budget is its own
BUDGET_SQUARES = 121


class Level(NamedTuple):
    """How hard a level thinks: deepest iteration, node budget, tie margin (in
    evaluation units: moves within it of the best are picked at random), time cap (s),
    whether the search prunes (null windows, late-move reductions, null moves), and the
    evaluation's weights."""

    depth: int
    nodes: int
    margin: int
    time_cap: float
    label: str
    prune: bool = False
    weights: Weights = HAND_SET
    scaled: bool = False
    """Whether the node budget shrinks on boards of more than 121 squares (see :meth:`budget`)."""

    def budget(self, size: int) -> int:
        """The node budget on a ``size`` x ``size`` board. A scaled level searches ``nodes`` on
        boards up to 11x11 and ``nodes * 121 // size**2`` on bigger ones, where each node costs
        more (more moves to make and to order), so that a move takes about as long there.

        >>> LEVELS[6].budget(11), LEVELS[6].budget(19), LEVELS[3].budget(19)
        (60000, 20110, 7000)
        """
        if not self.scaled or size * size <= BUDGET_SQUARES:
            return self.nodes
        return self.nodes * BUDGET_SQUARES // (size * size)

    @property
    def name(self) -> str:
        """The level's one-word name (the label before its colon), as the board's menu shows it."""
        return self.label.split(":")[0]


LEVELS: dict[int, Level] = {
    1: Level(1, 2_000, 60, 2.0, "beginner: one ply, varied"),
    2: Level(2, 5_000, 15, 3.0, "casual: two plies, about 5,000 nodes"),
    3: Level(8, 7_000, 0, 3.0, "default: up to eight plies, about 7,000 nodes", prune=True, weights=PLAY_WEIGHTS),
    4: Level(10, 18_000, 0, 6.0, "strong: up to ten plies, about 18,000 nodes", prune=True, weights=PLAY_WEIGHTS,
             scaled=True),
    5: Level(12, 40_000, 0, 2.8, "expert: up to twelve plies, about 40,000 nodes", prune=True, weights=PLAY_WEIGHTS,
             scaled=True),
    6: Level(14, 60_000, 0, 2.8, "strongest: up to fourteen plies, about 60,000 nodes", prune=True,
             weights=PLAY_WEIGHTS, scaled=True),
}
DEFAULT_LEVEL = 3

#: Levels 3-5 as they were until 2026-11-24 (hand-set weights without the corner terms,
#: no pruning), and level 3 as it was from then until 2026-11-26 (203: the corner terms
#: without the far-corner ones), kept under these numbers so that the games played with them
#: (the first calibration runs and tournament, the match that measures the new level 5
#: against the old, the calibration run that showed the corners tying the attackers' men
#: down) still replay from their seeds. :func:`analyse` and the balance lab accept them;
#: the board's menu shows only :data:`LEVELS`.
RETIRED_LEVELS: dict[int, Level] = {
    103: Level(4, 7_000, 0, 3.0, "former default (level 3 until 2026-11-24)"),
    104: Level(6, 40_000, 0, 20.0, "former strong (level 4 until 2026-11-24)"),
    105: Level(10, 240_000, 0, 60.0, "former strongest (level 5 until 2026-11-24)"),
    203: Level(8, 7_000, 0, 3.0, "level 3 of 24-26 November 2026", prune=True, weights=CORNERS_TIED),
}


def level_spec(level: int) -> Level:
    """The :class:`Level` numbered ``level`` (1-6, or a retired one); ValueError if none."""
    spec = None
    if isinstance(level, int) and not isinstance(level, bool):
        spec = LEVELS.get(level) or RETIRED_LEVELS.get(level)
    if spec is None:
        raise ValueError(f"level must be one of {', '.join(map(str, LEVELS))}, got {level!r}")
    return spec


class SearchResult(NamedTuple):
    move: Move
    score: int
    """For the side to move; above ``WIN - 1000`` a forced win was found."""
    depth: int
    """Deepest iteration completed."""
    nodes: int
    seconds: float
    stopped_by: str = "depth"
    """What ended the search: ``"depth"`` (every iteration done, or a forced result found),
    ``"nodes"`` (the level's node budget), ``"time"`` (the time cap: the move then depends on
    the machine's speed and may differ elsewhere), or ``"caller"`` (``stop`` returned true)."""


class _Stop(Exception):
    """The node budget, the time cap or the caller's ``stop`` ended the search (``args[0]`` says which)."""


_EXACT, _LOWER, _UPPER = 0, 1, 2
_NULL_MIN_DEPTH = 3  # a null move is tried from this depth on
_NULL_R = 2          # and searched this many plies shallower (beside the move it skips)
_first = operator.itemgetter(0)
#: late-move pruning: at remaining depth d (index), a pruning search stops after this many
#: moves once only quiet ones are left (0: no pruning at that depth)
_LATE_MOVES = (1 << 30, 12, 24)


class _Search:
    def __init__(self, game: Game, level: Level, rng: random.Random, stop: Callable[[], bool] | None,
                 time_cap: float) -> None:
        self.pos: Position = game.engine
        self.base_ply = len(self.pos.stack)
        self.ev = evaluator(game.rules, level.weights)
        self.level = level
        self.rng = rng
        self.stop = stop
        self.deadline = time.perf_counter() + time_cap
        self.nodes = 0
        self.budget = level.budget(game.size)
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.killers: list[list[int]] = [[0, 0] for _ in range(64)]
        self.history: dict[int, int] = {}
        self.partial: list[tuple[int, int]] = []  # the running iteration's (score, move) improvements
        self.flanks = self.ev.flanks
        self.king_flanks = self.ev.king_mode.flanked
        self.prune = level.prune
        self.esc = self.pos.t.escape
        self.extend_until = 0  # no road extensions beyond this ply (set per iteration: twice its depth)
        self.quiet_from = 3  # moves after the first three (table move, captures, killers) may be reduced

    # --- helpers --------------------------------------------------------
    def _terminal(self, outcome: Outcome, ply: int) -> int:
        if outcome.winner is None:
            return 0
        mover_won = outcome.winner == ("attackers" if self.pos.side == ATTACKERS else "defenders")
        return WIN - ply if mover_won else -(WIN - ply)

    def _evaluate(self) -> int:
        pos = self.pos
        side = pos.side
        s = self.ev.attackers_score(pos.a, pos.d, pos.k, side, pos.king_targets())
        return s if side == ATTACKERS else -s

    def _capture_squares(self) -> int:
        """Empty squares where a man of the side to move would close a capture."""
        pos = self.pos
        a, d, k, side = pos.a, pos.d, pos.k, pos.side
        kbit = 1 << k if k >= 0 else 0
        occ = a | d | kbit
        if side == ATTACKERS:
            victims, anvils = d, a | pos.hostile(DEFENDERS, occ)
        else:
            victims = a
            anvils = d | pos.hostile(ATTACKERS, occ)
            if pos.t.king_anvil:
                anvils |= kbit
        out = 0
        flanks = self.flanks
        if side == ATTACKERS and k >= 0:
            if self.king_flanks:
                victims |= kbit
            else:  # enclosing captures: every empty square beside the king
                for s in self.ev.neighbours[k]:
                    if not occ >> s & 1:
                        out |= 1 << s
        while victims:
            low = victims & -victims
            victims ^= low
            for s, o in flanks[low.bit_length() - 1]:
                if anvils >> o & 1 and not occ >> s & 1:
                    out |= 1 << s
        return out

    def _order(self, moves: list[int], tt_move: int, ply: int) -> list[int]:
        caps = self._capture_squares()
        pos = self.pos
        side = pos.side
        hist = self.history
        killers = self.killers[ply] if ply < 64 else [0, 0]
        esc = pos.t.escape
        kt = pos.king_targets()
        keyed = []
        for m in moves:
            to = (m >> 2) & 511
            if m == tt_move:
                key = 1 << 40
            else:
                key = hist.get(m, 0)
                if caps >> to & 1:
                    key += 1 << 30
                if m in killers:
                    key += 1 << 28
                if side == DEFENDERS:
                    if m & 3 == KING and esc >> to & 1:
                        key += 1 << 35
                elif kt >> to & 1:
                    key += 1 << 26  # an attacker cutting the king's roads
            keyed.append((key, m))
        keyed.sort(key=lambda x: -x[0])  # stable: equal keys keep the shuffled order
        return [m for _k, m in keyed]

    def _staged(self, tt_move: int, ply: int, found: list[tuple[int, int, int]]) -> Iterator[int]:
        """The moves of the side to move, best guesses first and generated in stages, so a
        node cut off by its first moves never sorts the rest: the table's move, then
        captures (and the king's winning moves), then the killer moves, then the rest by
        history (attackers' moves onto the king's squares first)."""
        pos = self.pos
        side = pos.side
        done = set()
        if tt_move:
            frm, to, kind = tt_move >> 11, (tt_move >> 2) & 511, tt_move & 3
            for f, k, tg in found:
                if f == frm and k == kind:
                    if tg >> to & 1:
                        done.add(tt_move)
                        self.stage = 0
                        yield tt_move
                    break
        caps = self._capture_squares()
        esc = pos.t.escape
        for frm, kind, tg in found:
            good = tg & caps
            if kind == KING:
                good |= tg & esc
            base = frm << 11 | kind
            while good:
                low = good & -good
                good ^= low
                m = base | (low.bit_length() - 1) << 2
                if m not in done:
                    done.add(m)
                    self.stage = 0
                    yield m
        if ply < 64:
            for m in self.killers[ply]:
                if m and m not in done:
                    frm, to, kind = m >> 11, (m >> 2) & 511, m & 3
                    for f, k, tg in found:
                        if f == frm and k == kind:
                            if tg >> to & 1:
                                done.add(m)
                                self.stage = 0
                                yield m
                            break
        hist = self.history
        kt = pos.king_targets() if side == ATTACKERS else 0
        rest = []
        for frm, kind, tg in found:
            base = frm << 11 | kind
            while tg:
                low = tg & -tg
                tg ^= low
                to = low.bit_length() - 1
                m = base | to << 2
                if m not in done:
                    rest.append((hist.get(m, 0) + (1 << 26 if kt >> to & 1 else 0), m))
        rest.sort(key=_first, reverse=True)
        for key, m in rest:
            # the stage is set at every move: the searches below this node set it too
            self.stage = 4 if key < 1 << 26 else 3  # 4: quiet, nothing but history speaks for the move
            yield m

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.budget:
            raise _Stop("nodes")
        if not self.nodes & 255:
            if self.stop is not None and self.stop():
                raise _Stop("caller")
            if time.perf_counter() > self.deadline:
                raise _Stop("time")

    # --- search ---------------------------------------------------------
    def negamax(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool = True) -> int:
        """Principal-variation search: the first move with the full window, the others with
        a null window (searched again if they beat it); late quiet moves one or two plies
        shallower first (late-move reductions); and a null move (passing) where the side to
        move already stands above ``beta``."""
        self._tick()
        pos = self.pos
        outcome = pos.outcome
        if outcome is not None:
            return self._terminal(outcome, ply)
        if depth <= 0:
            return self._evaluate()
        key = pos.hash
        entry = self.tt.get(key)
        tt_move = 0
        if entry is not None:
            edepth, flag, escore, tt_move = entry
            if edepth >= depth:
                if flag == _EXACT:
                    return escore
                if flag == _LOWER and escore >= beta:
                    return escore
                if flag == _UPPER and escore <= alpha:
                    return escore
        pv = beta - alpha > 1
        prune = self.prune
        if prune and null_ok and not pv and depth >= _NULL_MIN_DEPTH and abs(beta) < WIN - 1000 and self._evaluate() >= beta:
            pos.pass_turn()
            try:
                score = -self.negamax(depth - 1 - _NULL_R, -beta, -beta + 1, ply + 1, False)
            finally:
                pos.pass_turn()
            if score >= beta:
                return score
        ordered: Iterable[int]
        if prune:
            found = pos.move_targets(pos.side)
            if not found:
                return self._terminal(pos.no_moves_outcome(), ply)
            ordered = self._staged(tt_move, ply, found)
        else:  # the plain search of levels 1 and 2 (and the retired 103-105): every move generated and sorted at once
            moves = pos.moves()
            if not moves:
                return self._terminal(pos.no_moves_outcome(), ply)
            ordered = self._order(moves, tt_move, ply)
        quiet_from = self.quiet_from
        killers = self.killers[ply] if ply < 64 else (0, 0)
        best = -_INF
        best_move = 0
        a0 = alpha
        make = pos.make
        negamax = self.negamax
        threats = self.esc and pos.side == DEFENDERS and ply < self.extend_until
        late = _LATE_MOVES[depth] if prune and depth < len(_LATE_MOVES) and not pv else 1 << 30
        for i, m in enumerate(ordered):
            if i >= late and self.stage == 4 and best > -_INF:
                break  # late-move pruning: near the leaves, quiet moves after the first few are not searched
            make(m >> 11, (m >> 2) & 511, m & 3, True)
            try:
                # a king's move or a capture that opens the king a road must be answered: look one ply further
                child = depth - 1
                if threats and pos.outcome is None and pos.k >= 0 and pos.king_targets() & self.esc:
                    child = depth
                if i == 0 or not prune:
                    score = -negamax(child, -beta, -alpha, ply + 1)
                else:
                    r = 0
                    if child == depth - 1 and depth >= 3 and i >= quiet_from and m not in killers and not self.tactical(m):
                        r = 1 if i < 3 * quiet_from else 2
                    score = -negamax(child - r, -alpha - 1, -alpha, ply + 1)
                    if r and score > alpha:
                        score = -negamax(child, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -negamax(child, -beta, -alpha, ply + 1)
            finally:
                pos.unmake()
            if score > best:
                best = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if ply < 64 and m != self.killers[ply][0]:
                            self.killers[ply][1] = self.killers[ply][0]
                            self.killers[ply][0] = m
                        self.history[m] = self.history.get(m, 0) + depth * depth
                        break
        flag = _UPPER if best <= a0 else (_LOWER if best >= beta else _EXACT)
        self.tt[key] = (depth, flag, best, best_move)
        return best

    def tactical(self, m: int) -> bool:
        """Whether a move just made must not be searched shallower: it captured, ended the
        game, moved the king, or left the king an open road or a threat."""
        pos = self.pos
        if pos.outcome is not None or m & 3 == KING or pos.stack[-1].captures:
            return True
        return False

    def root(self, depth: int, moves: list[int], margin: int) -> list[tuple[int, int]]:
        """Scores of the root moves that come within ``margin`` of the best (best first).
        Pruning levels (margin 0) search every move after the first with a null window
        first, and again with an open one only if it beats the best so far."""
        self.extend_until = 2 * depth if self.prune else 0
        scored = self.partial = []
        best = -_INF
        pos = self.pos
        null_window = self.prune and margin == 0
        for m in moves:
            alpha = best - margin if best > -_INF else -_INF
            pos.make(m >> 11, (m >> 2) & 511, m & 3, True)
            try:
                if null_window and best > -_INF:
                    score = -self.negamax(depth - 1, -alpha - 1, -alpha, 1)
                    if score > alpha:
                        score = -self.negamax(depth - 1, -_INF, -alpha, 1)
                else:
                    score = -self.negamax(depth - 1, -_INF, -alpha, 1)
            finally:
                pos.unmake()
            if score > alpha:
                scored.append((score, m))
                best = max(best, score)
        return [(s, m) for s, m in sorted(scored, key=lambda x: -x[0]) if s >= best - margin]


def analyse(game: Game, level: int = DEFAULT_LEVEL, seed: int = 0,
            stop: Callable[[], bool] | None = None, time_cap: float | None = None) -> SearchResult:
    """Search the position of ``game`` (left unchanged) and return the move chosen with
    its score, the depth completed and the nodes searched. See :func:`choose_move`."""
    spec = level_spec(level)
    if game.outcome is not None:
        raise ValueError(f"the game is over ({game.outcome.reason})")
    started = time.perf_counter()
    rng = random.Random(f"{int(seed)}:{game.hash}:{game.ply}")
    search = _Search(game, spec, rng, stop, spec.time_cap if time_cap is None else time_cap)
    pos = search.pos
    moves = pos.moves()
    if not moves:
        raise ValueError(f"the {game.turn} have no legal move")
    rng.shuffle(moves)
    chosen = moves[0]
    score = 0
    done = 0
    stopped_by = "depth"
    try:
        for depth in range(1, spec.depth + 1):
            if len(moves) == 1:
                break
            ranked = search.root(depth, moves, spec.margin)
            # the next iteration searches the best moves first
            firsts = [m for _s, m in ranked]
            seen = set(firsts)
            moves = firsts + [m for m in moves if m not in seen]
            pick = ranked[0] if spec.margin == 0 else ranked[rng.randrange(len(ranked))]
            score, chosen = pick
            done = depth
            if abs(score) > WIN - 1000:
                break
    except _Stop as stop_reason:
        stopped_by = stop_reason.args[0]
        while len(pos.stack) > search.base_ply:  # take back the moves of the stopped search
            pos.unmake()
        if spec.margin == 0 and search.partial:
            # moves[0], the last choice, was searched first at the new depth; a move listed
            # after it beat it at that depth (with no margin each entry beats the one before)
            score, chosen = search.partial[-1]
        elif done == 0:  # not even one ply finished: fall back to the ordering's first move
            chosen = search._order(moves, 0, 0)[0]
    return SearchResult(_to_move(pos, chosen), score, done, search.nodes, time.perf_counter() - started, stopped_by)


def _to_move(pos: Position, m: int) -> Move:
    """The public :class:`Move` (with its captures) for a packed move in the current position."""
    frm, to, kind = m >> 11, (m >> 2) & 511, m & 3
    names = pos.g.names
    caps = pos.captures(frm, to, kind, pos.side)
    return Move(names[frm], names[to], [names[c] for c in iter_bits(caps)])


def choose_move(game: Game, level: int = DEFAULT_LEVEL, seed: int = 0,
                stop: Callable[[], bool] | None = None) -> Move:
    """The AI's move for the side to move in ``game`` (the game is not changed).

    ``level`` is 1 (weakest) to 6 (strongest, see :data:`LEVELS`); the default, 3,
    answers in well under a second in CPython. The same position, level and ``seed``
    give the same move, unless the level's time cap ends the search on a slow or busy
    machine (:func:`analyse` says so in ``stopped_by``; the balance lab plays without a cap). ``stop`` is an optional callable polled during the search:
    when it returns true the search ends and the best move found so far is returned.
    """
    return analyse(game, level, seed, stop).move
