"""Replay the 1,752 real Copenhagen games of tests/data/copenhagen-aagenielsen.csv.

Every move must be legal with exactly the recorded captures; where the engine ends a
game (king captured, escape, edge fort, encirclement, no legal move) it must be on the
record's last move and with the recorded winner. Records that play on through a
threefold repetition (which Copenhagen counts as a loss for the defenders) are listed
in REPETITIONS: the engine stops them there, and the test replays the rest of the game
with repetition ignored so that the remaining moves are still checked.
"""

import collections
import csv
import pathlib

import pytest

from tafl_rules import Game, variant

DATA = pathlib.Path(__file__).parent / "data" / "copenhagen-aagenielsen.csv"

COPENHAGEN = variant("copenhagen").rules  # the catalogue's Copenhagen Hnefatafl

RESULT = {"attackers": "Black", "defenders": "White", None: "Draw"}

#: record line -> (ply at which the repetition ends the game under Copenhagen rules, reason)
REPETITIONS = {
    298: (49, "threefold repetition (a loss for the defenders)"),
    443: (22, "threefold repetition by the defenders"),
    509: (65, "threefold repetition (a loss for the defenders)"),
    513: (37, "threefold repetition (a loss for the defenders)"),
    550: (32, "threefold repetition by the defenders"),
    697: (95, "threefold repetition (a loss for the defenders)"),
    827: (31, "threefold repetition (a loss for the defenders)"),
    898: (50, "threefold repetition by the defenders"),
    907: (29, "threefold repetition (a loss for the defenders)"),
    978: (118, "threefold repetition by the defenders"),
    1542: (35, "threefold repetition (a loss for the defenders)"),
}


#: how the engine ends the records (the rest end by resignation, time or agreement)
ENDINGS = {"escape": 235, "edge-fort": 48, "king-captured": 45, "encirclement": 24, "no-moves": 20,
           "not decided by the rules": 1380}


def _records():
    with DATA.open(newline="") as fh:
        for number, row in enumerate(csv.reader(fh), 1):
            yield number, row[0].split(), row[3]


def replay(number, tokens):
    """Replay one record; returns (game, repetition or None). Fails the test on a bad move."""
    game = Game(COPENHAGEN)
    repetition = None
    for ply, token in enumerate(tokens):
        if token == "timeout":
            break
        if game.outcome is not None:
            assert game.outcome.kind == "repetition" and repetition is None, (
                f"record {number}: the game ended at ply {ply} ({game.outcome.reason}) "
                f"but the record goes on with {token}")
            repetition = (ply, game.outcome.reason)
            rest = Game(COPENHAGEN.replace(repetition="ignore"))
            for move in game.moves:
                rest.play(str(move))
            game = rest
        move_text, *captured = token.split("x")
        move = game.play(move_text)
        assert set(move.captures) == set(captured), (
            f"record {number}, ply {ply + 1} {token}: the engine captures {move.captures}")
    return game, repetition


def test_corpus_has_every_game():
    assert sum(1 for _ in _records()) == 1752


def test_every_recorded_game_replays_with_its_captures():
    kinds = collections.Counter()
    repetitions = {}
    for number, tokens, result in _records():
        game, repetition = replay(number, tokens)
        if repetition:
            repetitions[number] = repetition
        if game.outcome is not None:
            assert RESULT[game.outcome.winner] == result, (
                f"record {number}: the engine says {game.outcome}, the site {result}")
            kinds[game.outcome.kind] += 1
        else:
            kinds["not decided by the rules"] += 1
    print("\ncorpus endings:", dict(kinds))
    print("records playing on through a threefold repetition:", repetitions)
    assert repetitions == REPETITIONS
    # the endings the rules decide, each agreeing with the site's recorded winner (pinned)
    assert dict(kinds) == ENDINGS


@pytest.mark.parametrize("number, ply, token, plain", [
    (8, 42, "f4-k4xk3xk2", []),                    # a corner (k1) as the far bracket
    (1127, 155, "h10-h11xg11xg11xj11", ["g11"]),   # the king (i11) in the row is not taken
    (289, 32, "g10-g11xf11xe11xd11", []),          # a row of three
])
def test_shieldwall_captures_from_the_corpus(number, ply, token, plain):
    tokens = next(t for n, t, _r in _records() if n == number)
    assert tokens[ply - 1] == token
    game, _ = replay(number, tokens[: ply - 1])
    before = Game(COPENHAGEN.replace(shieldwall="none"), position=game.position(), turn=game.turn)
    move_text, *captured = token.split("x")
    assert set(game.play(move_text).captures) == set(captured)
    assert before.play(move_text).captures == plain
