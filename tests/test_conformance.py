"""Conformance over the whole catalogue: every variant under every reading of each of its toggles.

In the style of OpenSpiel's random simulation test: seeded random games, the engine's
invariants checked after every ply, then every move undone to the start and the whole state
compared (``fuzzing.snapshot``). No scenario names most of these combinations; this is what
covers them.

After every ply:

- the invariants of the property tests (one king at most, no square holding two pieces, the
  hash and the transposed occupancy as a fresh game from the same position computes them);
- the legal moves listed are as many as counted, and each move played captures what its
  listing said;
- the moved piece stands where its rules let it stop;
- every piece's targets are those of a square-by-square walk of the movement rules, less the
  moves the sandwich rule refuses (``references.reference_sandwich_refuses``), and every listed
  move captures the men a square-by-square reading of the capture rules takes
  (``references.reference_captures``); after an attackers' move the king is taken exactly when
  that reading of his capture rule says so (``references.reference_king_taken``);
- a finished game lists no move and refuses one; a game going on has a move (or it would be over).
"""

from __future__ import annotations

import random

import pytest

import tafl_rules
from fuzzing import snapshot
from tafl_rules import Game, IllegalMove, RulesError
from references import (board_of, reference_captures, reference_king_taken, reference_sandwich_refuses)
from tafl_rules.squares import geometry
from test_properties import assert_allowed_square, check_invariants, reference_targets

#: Games per reading and their longest length: enough to reach the middle game on every board,
#: few enough that the whole catalogue takes a few seconds.
GAMES = 2
PLIES = 60


def readings() -> list[tuple[str, str, str]]:
    """(variant id, toggle, reading) for every reading of every toggle of every variant, and
    (variant id, "", "") for each variant as catalogued."""
    out = []
    for v in tafl_rules.variants():
        out.append((v.id, "", ""))
        out += [(v.id, name, value) for name, toggle in v.toggles.items() for value in toggle.readings
                if value != toggle.default]
    return out


@pytest.mark.parametrize("vid, toggle, reading", readings(),
                         ids=lambda x: x or "as-catalogued")
def test_random_games_keep_the_invariants_and_undo_to_the_start(vid, toggle, reading):
    try:
        rules = tafl_rules.variant(vid, **({toggle: reading} if toggle else {})).rules
    except RulesError as error:  # a reading may not combine with the variant's other points
        pytest.fail(f"{vid}: {toggle}={reading} is offered but refused: {error}")
    for seed in range(GAMES):
        rng = random.Random(f"{vid}:{toggle}:{reading}:{seed}")
        game = Game(rules)
        start = snapshot(game)
        pos = game.engine
        left_throne = pos.left
        while game.ply < PLIES:
            check_invariants(game)
            if game.outcome is not None:
                assert len(game.legal_moves()) == 0 and game.legal_targets() == {}
                with pytest.raises(IllegalMove, match="the game is over"):
                    game.play("a1-a2")
                break
            moves = game.legal_moves()
            assert len(moves) == game.count_legal_moves() > 0
            check_against_references(game, moves, left_throne)
            move = rng.choice(moves)
            kind = game.piece_at(move.from_square)
            played = game.play(move)
            assert played == move and played.captures == move.captures
            assert game.piece_at(played.to_square) == kind or game.outcome.kind == "king-captured"
            check_king_taken(game, played)
            assert_allowed_square(rules, kind, played.from_square, played.to_square, left_throne)
            left_throne = pos.left
        while game.ply:
            game.undo()
        assert snapshot(game) == start


def check_against_references(game, moves, left_throne):
    """Every piece's targets and every move's captures, against the square-by-square readings."""
    rules = game.rules
    g = geometry(rules.size)
    board = board_of(game)
    expected = {}
    for square in sorted(s for s, kind in board.items() if (kind == "attacker") == (game.turn == "attackers")):
        name = g.names[square]
        found = {t for t in reference_targets(game, name, left_throne)
                 if not reference_sandwich_refuses(rules, board, square, g.index[t])}
        if found:
            expected[name] = found
    assert {frm: set(to) for frm, to in game.legal_targets().items()} == expected
    for move in moves:
        assert {g.index[c] for c in move.captures} == reference_captures(
            rules, board, g.index[move.from_square], g.index[move.to_square]), move


def check_king_taken(game, played):
    """After an attackers' move: the king is taken exactly when his capture rule says so."""
    rules = game.rules
    if game.turn != "defenders" or rules.king_capture not in ("two", "four", "linnaeus"):
        return
    g = geometry(rules.size)
    game.undo()
    board = board_of(game)
    game.play(played)
    for c in played.captures:
        del board[g.index[c]]
    board[g.index[played.to_square]] = board.pop(g.index[played.from_square])
    taken = game.outcome is not None and game.outcome.kind == "king-captured"
    if reference_king_taken(rules, board, g.index[played.to_square]):
        assert taken, f"{played}: the king should be taken"
    elif not rules.watch_king:
        assert not taken, f"{played}: the king is taken ({game.outcome.reason})"
