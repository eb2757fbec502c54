"""Long games cost linear work: OTN reading and writing, and the browser worker's requests.

A share link or a saved game carries every move, and most catalogue variants have no
repetition rule and no ply limit, so games of thousands of plies are honest input.
The work is counted, never timed (``benchmarks/bench_engine.py --long`` prints the seconds):

- Python function calls (what Python code does per move);
- bytes allocated, counted move by move (the peak of the memory traced since the engine's
  last make or unmake): what C code does per move, such as a copy of the move stack or of the
  repetition table, which is one call whatever its length;
- the O(n) ``Game.moves`` lists built.

The game is one whose positions never repeat (three attackers count through 5,832 distinct
placements while a defender steps back and forth), so the repetition table grows with it:
a per-move copy of that table would cost as much as a copy of the move stack.
"""

from __future__ import annotations

import json
import sys
import tracemalloc
from functools import lru_cache

import pytest

from tafl_rules import Game, Rules, game_from_otn, game_to_otn, rules_to_otn, webapi
from tafl_rules.engine import Position
from tafl_rules.game import Game as GameClass
from tafl_rules.position import format_position
from tafl_rules.squares import geometry

SIZE = 19
_NAMES = geometry(SIZE).names
#: The ranks (1, 3, 5) of the three counting attackers; each walks files a to r of its rank.
_RANKS = (0, 2, 4)
_SPAN = 18
#: Three attackers on a1, a3, a5, a defender on j16 and the king on the throne, j10: nothing can
#: be captured and the king never moves, so the game goes on for as long as the line does.
RULES = Rules(size=SIZE, start=format_position(sum(1 << r * SIZE for r in _RANKS), 1 << 15 * SIZE + 9,
                                               9 * SIZE + 9, SIZE))


@lru_cache(maxsize=None)
def line(plies: int) -> tuple[str, ...]:
    """``plies`` moves in which no position repeats: the attackers' placements follow a reflected
    count in base 18 (each move changes one digit by one: one attacker steps along its rank), and
    the defender steps j16-j17 and back."""
    out: list[str] = []
    digits = [0, 0, 0]
    steps = [1, 1, 1]
    while len(out) < plies:
        for i in range(3):
            nxt = digits[i] + steps[i]
            if 0 <= nxt < _SPAN:
                rank = _RANKS[i] * SIZE
                out.append(f"{_NAMES[rank + digits[i]]}-{_NAMES[rank + nxt]}")
                digits[i] = nxt
                break
            steps[i] = -steps[i]
        else:
            raise ValueError(f"the line has at most {2 * (_SPAN ** 3 - 1)} plies")
        out.append("j16-j17" if len(out) % 4 == 1 else "j17-j16")
    return tuple(out[:plies])


def ask(kind: str, **payload) -> dict:
    return json.loads(webapi.handle(kind, json.dumps({"board": "long", **payload})))


def every_operation(plies: int) -> None:
    """What the site does with a game of ``plies`` moves."""
    moves = list(line(plies))
    game = Game(RULES)
    for m in moves:
        game.play(m)
    assert len(game.engine.seen) == plies + 1  # no position repeats
    record = game_to_otn(game)
    again = game_from_otn(record)
    assert [str(m) for m in again.moves] == moves
    assert again.position() == game.position() and again.hash == game.hash
    state = ask("new", rules=rules_to_otn(RULES), moves=moves)
    assert state["cursor"] == plies and state["line"] == moves
    assert ask("goto", ply=plies // 2)["cursor"] == plies // 2
    assert ask("redo")["cursor"] == plies // 2 + 1
    assert game_from_otn(ask("export")["otn"]).ply == plies // 2 + 1
    state = ask("import", otn=record)
    assert state["cursor"] == plies and state["line"] == moves
    assert game_from_otn(ask("export")["otn"]).position() == game.position()
    assert ask("undo")["cursor"] == plies - 1


def count_calls(work, *args) -> int:
    """Python function calls made while ``work(*args)`` runs."""
    calls = 0

    def profile(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(profile)
    try:
        work(*args)
    finally:
        sys.setprofile(None)
    return calls


def count_bytes(monkeypatch, work, *args) -> int:
    """Bytes allocated while ``work(*args)`` runs, counted from one engine make or unmake to the
    next: the highest the traced memory rose above where it stood at the last one, summed. A
    temporary copy made at every move (freed before the next) counts at every move."""
    total = 0
    mark = 0

    def tally() -> None:
        nonlocal total, mark
        current, peak = tracemalloc.get_traced_memory()
        total += max(0, peak - mark)
        tracemalloc.reset_peak()
        mark = current

    make, unmake = Position.make, Position.unmake

    def counted_make(self, *a, **k):
        tally()
        return make(self, *a, **k)

    def counted_unmake(self):
        tally()
        return unmake(self)

    with monkeypatch.context() as patch:
        patch.setattr(Position, "make", counted_make)
        patch.setattr(Position, "unmake", counted_unmake)
        tracemalloc.start()
        try:
            mark = tracemalloc.get_traced_memory()[0]
            work(*args)
            tally()
        finally:
            tracemalloc.stop()
    return total


def test_the_line_never_repeats_a_position_and_never_ends():
    moves = line(2000)
    game = Game(RULES)
    for m in moves:
        game.play(m)
    assert game.outcome is None and len(game.engine.seen) == 2001


def test_a_four_thousand_move_game_round_trips_through_otn_and_the_worker_in_linear_work(monkeypatch):
    """1,000 and 4,000 plies: the record written, read, sent as a share link, imported, exported,
    stepped through. Four times the moves must cost about four times the work, give or take
    the fixed cost of each request (a quadratic path would make it sixteen times)."""
    built = []
    moves_property = GameClass.moves

    def listed(self):
        built.append(self.ply)
        return moves_property.fget(self)

    monkeypatch.setattr(GameClass, "moves", property(listed))
    small = count_calls(every_operation, 1000)
    small_lists = len(built)
    large = count_calls(every_operation, 4000)
    assert large < 4.4 * small, (small, large)
    # the O(n) list of moves is built a fixed number of times, not once per move
    assert len(built) - small_lists == small_lists <= 10, built
    small, large = (count_bytes(monkeypatch, every_operation, n) for n in (1000, 4000))
    assert large < 4.4 * small, (small, large)


def test_the_byte_count_sees_a_copy_made_in_c_at_every_move(monkeypatch):
    """The measure itself: a copy of the repetition table at every move (one call, O(n) work in
    C, invisible to a count of Python calls) makes the bytes grow with the square of the game."""
    def play(plies: int) -> None:
        game = Game(RULES)
        for m in line(plies):
            game.play(m)

    plain = [count_bytes(monkeypatch, play, n) for n in (500, 2000)]
    calls = [count_calls(play, n) for n in (500, 2000)]
    make = Position.make

    def copying_make(self, *a, **k):
        dict(self.seen)  # the regression: a per-move copy done in C
        return make(self, *a, **k)

    monkeypatch.setattr(Position, "make", copying_make)
    copying = [count_bytes(monkeypatch, play, n) for n in (500, 2000)]
    copying_calls = [count_calls(play, n) for n in (500, 2000)]
    assert plain[1] < 4.4 * plain[0] and copying[1] > 8 * copying[0], (plain, copying)
    assert copying_calls[1] < 4.4 * copying_calls[0], "a count of Python calls alone does not see it"
    assert calls[1] < 4.4 * calls[0]


@pytest.mark.parametrize("plies", [2, 7])
def test_short_games_too(plies):
    every_operation(plies)
