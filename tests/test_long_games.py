"""Long games cost linear work: OTN reading and writing, and the browser worker's requests.

A share link or a saved game carries every move, and most catalogue variants have no
repetition rule and no ply limit, so games of thousands of plies are honest input.
The work is counted (Python function calls, and the O(n) ``Game.moves`` lists built),
never timed: ``benchmarks/bench_engine.py --long`` prints the seconds.
"""

from __future__ import annotations

import json
import sys

import pytest

from tafl_rules import Game, game_from_otn, game_to_otn, webapi
from tafl_rules.game import Game as GameClass

CYCLE = ["d7-e7", "d5-e5", "e7-d7", "e5-d5"]  # brandubh: one attacker and one defender shuffle


def shuffle(plies: int) -> list[str]:
    return [CYCLE[i % 4] for i in range(plies)]


def ask(kind: str, **payload) -> dict:
    return json.loads(webapi.handle(kind, json.dumps({"board": "long", **payload})))


def every_operation(plies: int) -> None:
    """What the site does with a game of ``plies`` moves."""
    moves = shuffle(plies)
    game = Game("brandubh")
    for m in moves:
        game.play(m)
    record = game_to_otn(game)
    again = game_from_otn(record)
    assert [str(m) for m in again.moves] == moves
    assert again.position() == game.position() and again.hash == game.hash
    state = ask("new", variant="brandubh", moves=moves)
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


def test_a_ten_thousand_move_game_round_trips_through_otn_and_the_worker_in_linear_work(monkeypatch):
    """1,000 and 10,000 plies: a 10,000-move record written, read, sent as a share link, imported,
    exported, stepped through; the work is counted in Python calls."""
    built = []
    moves_property = GameClass.moves

    def counted(self):
        built.append(self.ply)
        return moves_property.fget(self)

    monkeypatch.setattr(GameClass, "moves", property(counted))
    small = count_calls(every_operation, 1000)
    small_lists = len(built)
    large = count_calls(every_operation, 10_000)
    # ten times the moves: ten times the calls, give or take the fixed cost of each request
    # (a quadratic path would make it a hundred times)
    assert large < 11 * small, (small, large)
    # the O(n) list of moves is built a fixed number of times, not once per move
    assert len(built) - small_lists == small_lists <= 10, built


@pytest.mark.parametrize("plies", [2, 7])
def test_short_games_too(plies):
    every_operation(plies)
