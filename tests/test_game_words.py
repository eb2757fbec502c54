"""``tafl_rules.Game`` word for word: why a move is refused, why a piece cannot move, how a move
is misspelt, and the board as text, each compared whole.

A player reads these words on the board (``explain`` and a refused move show them as they come),
so each refusal is pinned to the rule that made it. Asked for by the mutation run of
``tafl_rules.game`` (``tests/mutation/report.md``), which found them matched only in part.
"""

from __future__ import annotations

import contextlib
import random
import sys
import warnings

import pytest

import tafl_rules
from tafl_rules import Game, IllegalMove, NotationError
from tafl_rules.game import Move, _a, _only, _the, _the_kind
from tafl_rules.pieces import KING
from tafl_rules.position import format_position
from tafl_rules.squares import square_index

BRANDUBH = tafl_rules.variant("brandubh").rules
GRANQUIST = tafl_rules.variant("tafl-granquist").rules




def game_of(rules, attackers: str, defenders: str, king: str, turn: str) -> Game:
    size = rules.size
    a = sum(1 << square_index(s, size) for s in attackers.split())
    d = sum(1 << square_index(s, size) for s in defenders.split())
    return Game(rules, position=format_position(a, d, square_index(king, size) if king else -1, size), turn=turn)


def listed_of(game: Game) -> dict[str, Move]:
    return {str(m): m for m in game.legal_moves()}


@pytest.mark.parametrize("rules, attackers, defenders, king, turn, move, words", [
    (BRANDUBH, "a4", "", "b6", "attackers", "a4-a4", "a move must leave its square (a4-a4)"),
    (BRANDUBH, "a4", "", "b6", "attackers", "a4-b5", "a4-b5 is not along a rank or a file"),
    (BRANDUBH, "a4", "b4", "b6", "attackers", "a4-b4", "b4 is occupied"),
    # the nearest piece in the way is named, whichever way the move goes
    (BRANDUBH, "g4", "e4 c4", "b6", "attackers", "g4-a4", "e4 is in the way"),
    (BRANDUBH, "a4", "c4 e4", "b6", "attackers", "a4-g4", "c4 is in the way"),
    (BRANDUBH, "d7", "d5 d3", "b6", "attackers", "d7-d1", "d5 is in the way"),
    (BRANDUBH, "c4 f1", "a4", "d6", "defenders", "a4-e4", "c4 is in the way"),  # an attacker in a defender's way
    (BRANDUBH.replace(throne_pass=frozenset({"king"})), "a4", "", "b6", "attackers", "a4-g4",
     "an attacker may not pass over the throne (d4)"),
    (BRANDUBH.replace(throne_pass=frozenset({"king", "attacker"})), "f1", "a4", "b6", "defenders", "a4-g4",
     "a defender may not pass over the throne (d4)"),
    (BRANDUBH, "d1", "", "b6", "attackers", "d1-d4", "only the king may stop on the throne"),
    (BRANDUBH.replace(throne_stop=frozenset({"king", "defender"})), "d1", "", "b6", "attackers", "d1-d4",
     "only the king and defenders may stop on the throne"),
    (BRANDUBH.replace(throne_stop=frozenset()), "f1", "", "d6", "defenders", "d6-d4", "no piece may stop on the throne"),
    (BRANDUBH.replace(king_reenter_throne=False), "b1", "", "d6", "defenders", "d6-d4",
     "the king may not go back to the throne once he has left it"),
    (BRANDUBH, "a2", "", "d6", "attackers", "a2-a1", "only the king may stop on a corner"),
    (BRANDUBH.replace(man_speed=1), "a2", "", "d6", "attackers", "a2-a4", "an attacker moves at most 1 square"),
    (BRANDUBH.replace(man_speed=2), "a2", "", "d6", "attackers", "a2-a5", "an attacker moves at most 2 squares"),
    (BRANDUBH.replace(man_speed=2), "f1", "b2", "d6", "defenders", "b2-b6", "a defender moves at most 2 squares"),
    (BRANDUBH.replace(king_speed=1), "a2", "", "d6", "defenders", "d6-f6", "the king moves at most 1 square"),
    (BRANDUBH.replace(king_speed=2), "a2", "", "d6", "defenders", "d6-g6", "the king moves at most 2 squares"),
    (GRANQUIST, "a1", "c2", "g7", "defenders", "c2-e2",
     "a defender may not stop on a camp square (e2) once outside the camps"),
    (GRANQUIST, "a1", "c2", "g7", "attackers", "a1-d1",
     "an attacker may not stop on a camp square (d1) once outside the camps"),
    (BRANDUBH, "a2", "", "d6", "defenders", "a2-a3", "it is the defenders' turn (a2 holds an attacker)"),
    (BRANDUBH, "a2", "b3", "d6", "attackers", "b3-b4", "it is the attackers' turn (b3 holds a defender)"),
    (BRANDUBH, "a2", "", "d6", "attackers", "d6-d7", "it is the attackers' turn (d6 holds a king)"),
    (BRANDUBH, "a2", "", "d6", "attackers", "c3-c4", "there is no piece on c3"),
])
def test_a_refused_move_says_which_rule_refused_it_and_changes_nothing(rules, attackers, defenders, king, turn, move,
                                                                      words):
    game = game_of(rules, attackers, defenders, king, turn)
    before = (game.position(), game.turn, game.ply)
    with pytest.raises(IllegalMove) as refusal:
        game.play(move)
    assert str(refusal.value) == words
    assert (game.position(), game.turn, game.ply) == before


def test_the_game_over_refuses_every_move_and_says_how_it_ended():
    game = game_of(BRANDUBH, "a2", "", "b7", "defenders")
    game.play("b7-a7")  # the king reaches the corner a7
    reason = game.outcome.reason
    with pytest.raises(IllegalMove) as refusal:
        game.play("a2-a3")
    assert str(refusal.value) == f"the game is over ({reason})"
    assert game.why_stuck("a2") == f"the game is over ({reason})"


def test_why_a_piece_cannot_be_picked_up():
    game = Game("brandubh")
    assert game.why_stuck("d1") is None and game.why_stuck("a4") is None
    assert game.why_stuck("a1") == "there is no piece on a1"
    assert game.why_stuck("d3") == "it is the attackers' turn (d3 holds a defender)"
    assert game.why_stuck("d4") == "it is the attackers' turn (d4 holds a king)"
    game.play("a4-a2")
    assert game.why_stuck("d4") == "the king on d4 has no legal move"
    assert game.why_stuck("a2") == "it is the defenders' turn (a2 holds an attacker)"
    hemmed = game_of(BRANDUBH, "c1 b2 d2 c3", "c2", "g4", "defenders")
    assert hemmed.why_stuck("c2") == "the defender on c2 has no legal move"
    hemmed = game_of(BRANDUBH, "b3 b2 f6", "a3 c3 b4 a2 c2 b1", "g4", "attackers")
    assert hemmed.why_stuck("b3") == "the attacker on b3 has no legal move" and hemmed.why_stuck("b2") == (
        "the attacker on b2 has no legal move") and hemmed.why_stuck("f6") is None
    # the sandwich rule's refusals count: a king whose only moves go in between two attackers
    forbidden = BRANDUBH.replace(sandwich="forbidden", king_capture="two")
    boxed = game_of(forbidden, "a2 c2 a3 c3 a4 c4", "b1 b5", "b3", "defenders")
    assert boxed.engine.targets(square_index("b3", 7), KING) != 0  # b2 and b4, each between two attackers
    assert boxed.legal_targets().get("b3", []) == [] and boxed.why_stuck("b3") == "the king on b3 has no legal move"
    with pytest.raises(NotationError):
        game.why_stuck("z99")


@pytest.mark.parametrize("kinds, words", [
    ((), "no piece"), (("king",), "only the king"), (("defender",), "only defenders"), (("attacker",), "only attackers"),
    (("defender", "king"), "only the king and defenders"), (("attacker", "king"), "only the king and attackers"),
    (("attacker", "defender"), "only defenders and attackers"),
    (("attacker", "defender", "king"), "only the king and defenders and attackers"),
])
def test_who_may_stop_on_a_square_is_said_in_order(kinds, words):
    assert _only(kinds) == words and _only(frozenset(kinds)) == words


def test_pieces_are_named_with_their_article():
    assert [_a(n) for n in ("attacker", "defender", "king")] == ["an attacker", "a defender", "a king"]
    assert [_the(n) for n in ("attacker", "defender", "king")] == ["an attacker", "a defender", "the king"]
    assert [_the_kind(n) for n in ("attacker", "defender", "king")] == ["the attacker", "the defender", "the king"]


@pytest.mark.parametrize("text, words, offset", [
    ("z9-a1", "'z9' is not a square name (a file letter a-s and a rank 1-19, like e5)", 0),
    ("a1-b99", "'b99' is not a square name (a file letter a-s and a rank 1-19, like e5)", 3),
    ("  a1-b99", "'b99' is not a square name (a file letter a-s and a rank 1-19, like e5)", 5),
    ("d1-d" + "9" * 39, f"'d{'9' * 39}' is not a square name (a file letter a-s and a rank 1-19, like e5)", 3),
    ("d1-d" + "9" * 40, f"'d{'9' * 39}...' is not a square name (a file letter a-s and a rank 1-19, like e5)", 3),
    ("d1-d" + "9" * 50, f"'d{'9' * 39}...' is not a square name (a file letter a-s and a rank 1-19, like e5)", 3),
    ("hello", "'hello' is not a move (expected a form like d1-d4 or d1-d4xd5)", 0),
    ("  hello", "'  hello' is not a move (expected a form like d1-d4 or d1-d4xd5)", 2),
    ("h" * 40, f"'{'h' * 40}' is not a move (expected a form like d1-d4 or d1-d4xd5)", 0),
    ("h" * 41, f"'{'h' * 40}...' is not a move (expected a form like d1-d4 or d1-d4xd5)", 0),
    ("", "'' is not a move (expected a form like d1-d4 or d1-d4xd5)", 0),
])
def test_a_misspelt_move_is_refused_at_the_part_that_is_wrong(text, words, offset):
    with pytest.raises(NotationError) as error:
        Move.parse(text)
    assert (error.value.message, error.value.text, error.value.offset) == (words, text, offset)


def test_a_move_is_read_in_either_case_with_its_captures():
    move = Move.parse(" D1-D4XD5xE4 ")
    assert (move.from_square, move.to_square, move.captures, str(move), move.otn()) == (
        "d1", "d4", ["d5", "e4"], "d1-d4", "d1-d4xd5xe4")
    assert Move.parse("a1-a2").captures == []
    with pytest.raises(NotationError) as error:
        Move.parse(5)
    assert (error.value.message, error.value.text, error.value.offset) == ("expected a move such as d1-d4, got int", "", 0)
    with pytest.raises(NotationError) as error:
        Game("brandubh").play([])
    assert (error.value.message, error.value.text, error.value.offset) == ("expected a move such as d1-d4, got list", "", 0)


def test_legal_moves_hold_exactly_the_legal_moves():
    game = Game("brandubh")
    legal = game.legal_moves()
    assert "a4-a2" in legal and Move.parse("a4-a2") in legal and legal[0] in legal
    assert "a4-a1" not in legal  # a corner
    assert "b4-a2" not in legal and "d1-a2" not in legal  # a target of another piece, from a square that moves
    assert "a4-b5" not in legal and "d4-d5" not in legal  # not along a line; the other side's piece
    assert "nonsense" not in legal and 5 not in legal and None not in legal
    assert Move("z9", "a1") not in legal and Move("a4", "z9") not in legal
    assert Move(None, "a2") not in legal and Move("a4", None) not in legal
    assert repr(game.legal_moves()).startswith("<LegalMoves: d1-b1, d1-c1, d1-e1, d1-f1, d2-a2, d2-b2, ")
    game.play("a4-a2")
    assert repr(game.legal_moves()).startswith("<LegalMoves: ") and "a4-a2" not in game.legal_moves()


def test_the_board_as_text_marks_the_special_squares():
    game = Game("brandubh")
    assert str(game) == "\n".join([
        " 7 + . . t . . +",
        " 6 . . . t . . .",
        " 5 . . . T . . .",
        " 4 t t T K T t t",
        " 3 . . . T . . .",
        " 2 . . . t . . .",
        " 1 + . . t . . +",
        "   a b c d e f g"])
    game = game_of(GRANQUIST, "a1", "c2", "g7", "attackers")
    assert str(game) == "\n".join([
        " 9 . . . , , , . . .",
        " 8 . . . . , . . . .",
        " 7 . . . . . . K . .",
        " 6 , . . . . . . . ,",
        " 5 , , . . + . . , ,",
        " 4 , . . . . . . . ,",
        " 3 . . . . . . . . .",
        " 2 . . T . , . . . .",
        " 1 t . . , , , . . .",
        "   a b c d e f g h i"])
    big = Game("copenhagen")
    assert str(big).splitlines()[0] == "11 + . . t t t t t . . +" and str(big).splitlines()[-1].startswith("   a b")
    assert repr(game) == f"Game(position={game.position()!r}, turn='attackers')"


def test_the_kings_square_is_named_or_none():
    assert Game("brandubh").king_square() == "d4"
    game = game_of(BRANDUBH.replace(king_capture="two"), "b5 d7", "", "c5", "attackers")
    game.play("d7-d5")
    assert game.outcome.kind == "king-captured" and game.king_square() is None


@contextlib.contextmanager
def deprecated(words: str):
    """The block warns once, a DeprecationWarning with these words, naming the caller's line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    (warning,) = caught
    assert warning.category is DeprecationWarning and str(warning.message) == words
    if "mutmut" not in sys.modules:  # (under mutation testing its trampoline is one frame more)
        assert warning.filename == __file__


def test_deprecated_names_warn_and_still_do_what_they_did():
    game = Game("brandubh")
    with deprecated("Game.push() is deprecated; use Game.play()"):
        assert str(game.push("a4-a2")) == "a4-a2"
    with deprecated("Game.pop() is deprecated; use Game.undo()"):
        assert str(game.pop()) == "a4-a2" and game.ply == 0
    with deprecated("Move.uci() is deprecated; use str(move)"):
        assert Move("a4", "a2").uci() == "a4-a2"
    with deprecated("Game.target_bits() is deprecated; use game.engine.move_targets(game.engine.side)"):
        bits = game.target_bits()
    pos = game.engine
    assert bits == [(s, found) for s, _k, found in pos.move_targets(pos.side)]
    with deprecated("Game.play_fast() is deprecated; use game.engine.make(frm, to, kind)"):
        assert game.play_fast(square_index("a4", 7), square_index("a2", 7)) == 0
    assert game.turn == "defenders" and game.moves[-1] == Move("a4", "a2")
    over = game_of(BRANDUBH, "a2", "", "b7", "defenders")
    over.play("b7-a7")
    with deprecated("Game.target_bits() is deprecated; use game.engine.move_targets(game.engine.side)"):
        assert over.target_bits() == []


def test_a_random_playout_plays_legal_moves_and_leaves_the_game_as_play_would():
    for seed in range(4):
        game = Game("brandubh")
        plies = game.random_playout(40, random.Random(seed))
        assert plies == game.ply == len(game.moves) <= 40
        again = Game("brandubh")
        for move in game.moves:
            again.play(str(move))
        assert (again.position(), again.turn, again.outcome) == (game.position(), game.turn, game.outcome)
        assert plies == 40 or game.outcome is not None
    # seeded: the same moves every time (pinned here for seed 3)
    game = Game("brandubh")
    assert game.random_playout(6, random.Random(3)) == 6
    assert [str(m) for m in game.moves] == ["b4-b2", "e4-e7", "d6-c6", "d3-f3", "f4-f5", "e7-e1"]
    assert Game("brandubh").random_playout(0, random.Random(3)) == 0
    # uniform over the whole list: over many first moves every one of the 40 is drawn
    rng = random.Random(0)
    firsts = set()
    for _ in range(600):
        game = Game("brandubh")
        game.random_playout(1, rng)
        firsts.add(str(game.moves[0]))
    assert firsts == {str(m) for m in Game("brandubh").legal_moves()}


def test_perft_counts_sequences_and_none_after_the_end():
    game = Game("brandubh")
    assert game.perft(0) == 1 and game.perft(1) == 40 == game.count_legal_moves()
    assert game.perft(2) == sum(1 for _ in _pairs(game))
    over = game_of(BRANDUBH, "a2", "", "b7", "defenders")
    over.play("b7-a7")
    assert [over.perft(depth) for depth in (0, 1, 2)] == [0, 0, 0] and over.count_legal_moves() == 0


def _pairs(game: Game):
    for first in list(game.legal_moves()):
        game.play(first)
        yield from ((first, second) for second in list(game.legal_moves()))
        game.undo()


def test_a_game_needs_rules_or_a_variant():
    with pytest.raises(TypeError) as error:
        Game(5)
    assert str(error.value) == "Game() needs a Rules record or a variant id, got int"


# the king may stand on a1 (square 0) where he cannot escape and a1 is no corner
NOWHERE = tafl_rules.Rules(size=7, start="/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", escape="none", king_capture="four",
                           king_capture_against=frozenset({"edge"}))


def test_the_first_square_is_a_square_like_any_other():
    game = game_of(NOWHERE, "c1 b3", "a3", "a1", "defenders")
    assert game.king_square() == "a1" and game.pieces("king") == ["a1"]
    assert "a1-a2" in game.legal_moves() and "a1-b1" in game.legal_moves()
    assert game.legal_targets()["a1"] == ["a2", "b1"]
    game.play("a3-a2")
    assert "b3-b1" in game.legal_moves() and "c1-b1" in game.legal_moves()  # moves to a1's neighbour
    rules = NOWHERE.replace(king_capture="two")
    game = game_of(rules, "a2 b3", "c3", "a1", "attackers")
    assert "a2-a3" in game.legal_moves() and "b3-b1" in game.legal_moves()
    assert game.pieces("attacker") == ["a2", "b3"] and game.pieces("defender") == ["c3"]


def test_pieces_of_a_kind_and_of_no_kind():
    game = Game("brandubh")
    assert game.pieces("king") == ["d4"] and len(game.pieces("attacker")) == 8 and len(game.pieces("defender")) == 4
    with pytest.raises(ValueError) as error:
        game.pieces("queen")
    assert str(error.value) == "unknown piece kind 'queen'; kinds are attacker, defender, king"
    taken = game_of(BRANDUBH.replace(king_capture="two"), "b5 d7", "", "c5", "attackers")
    taken.play("d7-d5")
    assert taken.pieces("king") == [] and taken.king_square() is None


def test_the_legal_targets_are_listed_file_by_file():
    game = Game("brandubh")
    assert list(game.legal_targets()) == ["a4", "b4", "d1", "d2", "d6", "d7", "f4", "g4"]
    assert game.legal_targets()["d2"] == ["a2", "b2", "c2", "e2", "f2", "g2"]
    game.play("a4-a2")
    assert list(game.legal_targets()) == ["c4", "d3", "d5", "e4"]


def test_a_move_read_off_the_list_is_checked_again_once_the_game_moved_on():
    game = Game("brandubh")
    listed = listed_of(game)
    copy = game.copy()
    game.play(listed["a4-a2"])
    for stale in ("a4-a3", "b4-b1"):  # a4 is empty; it is the defenders' turn
        with pytest.raises(IllegalMove):
            game.play(listed[stale])
    game.play("d3-b3")
    with pytest.raises(IllegalMove, match="there is no piece on a4"):
        game.play(listed["a4-a3"])
    with pytest.raises(IllegalMove, match="b3 is in the way"):  # the defender d3-b3 now stands in b4-b1's way
        game.play(listed["b4-b1"])
    # the king moved: his listed move from d4 is checked against where he stands
    king = Game("brandubh", position="/7/7/3t3/1t1K2t/7/7/7/", turn="defenders")
    listed = listed_of(king)
    king.play(listed["d4-d6"])
    king.play("b4-b5")
    with pytest.raises(IllegalMove, match="there is no piece on d4"):
        king.play(listed["d4-d5"])
    # another game's list: the copy never played a4-a2, so it is refused there only once it is illegal
    copy.play("a4-a3")
    copy.play("d3-c3")
    with pytest.raises(IllegalMove, match="there is no piece on a4"):
        copy.play(listed_of(Game("brandubh"))["a4-a2"])
    # a move made by hand plays as its listed twin does
    fresh = Game("brandubh")
    assert fresh.play(Move("a4", "a2")) == Move("a4", "a2") and fresh.ply == 1


def test_a_finished_game_lists_nothing_and_finds_nothing_in_its_list():
    over = game_of(BRANDUBH, "a2", "", "b7", "defenders")
    listed = over.legal_moves()
    assert "b7-b6" in listed
    over.play("b7-a7")
    assert len(over.legal_moves()) == 0 and list(over.legal_moves()) == [] and "a2-a3" not in over.legal_moves()
    assert over.legal_targets() == {} and "b7-b6" in listed  # the old list still lists its own position
    with pytest.raises(IllegalMove):
        over.play(listed[0])


def test_the_list_reads_like_a_tuple():
    moves = Game("brandubh").legal_moves()
    everything = list(moves)
    assert len(moves) == 40 and [moves[i] for i in range(40)] == everything
    assert [moves[i] for i in range(-40, 0)] == everything and moves[-1] == everything[-1] == Move("d7", "f7")
    assert moves[3:7] == everything[3:7] and moves[::-9] == everything[::-9] and moves[:] == everything
    for bad in (40, -41, 400):
        with pytest.raises(IndexError) as error:
            moves[bad]
        assert str(error.value) == "legal move index out of range"
    with pytest.raises(TypeError) as error:
        moves["1"]
    assert str(error.value) == "legal move indices must be integers or slices, not str"
    # a list of one piece's moves beside a1: the move to a1 is the lowest bit
    game = game_of(NOWHERE, "b1", "c3", "g7", "attackers")
    assert sorted(str(m) for m in game.legal_moves()) == sorted(f"b1-{t}" for t in game.legal_targets()["b1"])
    assert "b1-a1" in [str(m) for m in game.legal_moves()] and game.legal_moves()[0] == Move("b1", "a1")


def test_moves_are_equal_by_their_squares():
    assert Move("a1", "a2") == Move("a1", "a2", ["b2"]) and Move("a1", "a2") != Move("a1", "a3")
    assert Move("a1", "a2") != Move("b1", "a2") and Move("a1", "a2") == "a1-a2" != Move("a1", "a3")
    assert Move(["a4"], "a2") not in Game("brandubh").legal_moves()  # an unhashable square name


def test_undo_with_nothing_to_undo():
    with pytest.raises(IndexError) as error:
        Game("brandubh").undo()
    assert str(error.value) == "there is no move to undo"


def test_why_a_piece_is_stuck_is_said_in_the_pages_language():
    from tafl_rules.messages import translate

    game = Game("brandubh")
    for square_name, english in (("a1", "there is no piece on a1"), ("d3", "it is the attackers' turn (d3 holds a defender)")):
        said = game.why_stuck(square_name)
        assert said == english and translate(said, "cy") != english  # a message, not its English alone
    over = game_of(BRANDUBH, "a2", "", "b7", "defenders")
    over.play("b7-a7")
    assert translate(over.why_stuck("a2"), "cy") != over.why_stuck("a2")


def test_a_piece_that_may_move_only_where_the_sandwich_rule_allows():
    forbidden = BRANDUBH.replace(sandwich="forbidden")
    game = game_of(forbidden, "a2 c2 f6", "b5", "g4", "defenders")
    assert game.why_stuck("b5") is None and game.why_stuck("g4") is None
    # the man on b5 may go anywhere but b2, in between a2 and c2
    assert "b2" not in game.legal_targets()["b5"] and "b3" in game.legal_targets()["b5"]


def test_a_random_playout_runs_its_default_length_when_nothing_ends_the_game():
    endless = NOWHERE.replace(king_capture="none", no_moves="loss")
    game = Game(endless)
    plies = game.random_playout(rng=random.Random(0))
    assert game.outcome is None and plies == game.ply == 500


def test_a_random_playout_draws_each_move_by_its_place_in_the_list():
    # uniform over the whole legal list: the draw is the move at that index, the move to a1 (the
    # lowest square) included
    for seed in range(12):
        game = game_of(NOWHERE, "b1 e5", "c3", "g7", "attackers")
        moves = game.legal_moves()
        expected = moves[random.Random(seed).randrange(len(moves))]
        assert game.random_playout(1, random.Random(seed)) == 1 and game.moves == [expected]


def test_a_random_playout_from_a_side_left_without_a_move_plays_nothing_and_judges_it():
    from tafl_rules.outcome import Termination
    from tafl_rules.pieces import DEFENDER

    game = game_of(BRANDUBH, "a2", "a3 c2", "g4", "defenders")
    game.engine.make(square_index("c2", 7), square_index("b2", 7), DEFENDER, True)  # fast: a2 is shut in, not yet judged
    assert game.outcome is None
    assert game.random_playout(5, random.Random(0)) == 0
    assert game.outcome.kind == Termination.NO_MOVES and game.outcome.winner == "defenders"


def test_a_square_name_off_this_board_or_off_every_board():
    game = Game("brandubh")
    with pytest.raises(IllegalMove, match="^s19 is off the 7x7 board$"):
        game.why_stuck("s19")
    with pytest.raises(NotationError, match="^'t20' is not a square name"):
        game.why_stuck("t20")
    with pytest.raises(NotationError, match="^a square name must be text, got list"):
        game.play(Move(["a4"], "a2"))
    assert game.why_stuck("A1") == "there is no piece on a1" and game.ply == 0


def test_membership_by_name_needs_both_names_to_be_squares_of_this_board():
    game = game_of(NOWHERE, "b1 e5", "c3", "g7", "attackers")
    moves = game.legal_moves()
    assert "b1-b2" in moves and Move("z9", "b2") not in moves  # b1 is square 1
    game = game_of(NOWHERE, "e1", "c3", "g7", "attackers")
    assert "e1-b1" in game.legal_moves() and Move("e1", "z9") not in game.legal_moves()
    game = game_of(NOWHERE, "a1", "c3", "g7", "attackers")
    assert "a1-a2" in game.legal_moves() and Move("a1", "a2") in game.legal_moves()  # from square 0
    game = game_of(NOWHERE, "b1", "c3", "g7", "attackers")
    assert "b1-a1" in game.legal_moves()  # to square 0


def test_a_king_may_go_where_two_attackers_cannot_take_him():
    # Linnaeus's king is taken beside the throne by three, so the sandwich rule lets him in
    # between an attacker and the hostile empty throne there, where a man may not go
    rules = BRANDUBH.replace(sandwich="forbidden", throne_hostile_to_defenders="always")
    game = game_of(rules, "b4 f1", "c6 b5 d5 c3", "c5", "defenders")
    assert game.legal_targets()["c5"] == ["c4"] and game.why_stuck("c5") is None


def test_a_list_from_a_game_under_other_rules_is_checked_again():
    slow = Game(BRANDUBH.replace(man_speed=1), position=Game("brandubh").position(), turn="attackers")
    listed = listed_of(Game("brandubh"))
    with pytest.raises(IllegalMove, match="^an attacker moves at most 1 square$"):
        slow.play(listed["a4-a2"])
    assert slow.ply == 0


def test_a_listed_move_is_checked_again_when_the_board_came_back_only_in_part():
    # four plies after the list was made the side to move is the same again, and one side's men
    # stand where they stood: the list is not current for the other side's changed men
    game = Game("brandubh")
    listed = listed_of(game)
    for move in ("a4-a2", "d3-b3", "a2-a3", "b3-d3"):  # the defenders back where they were
        game.play(move)
    with pytest.raises(IllegalMove, match="^there is no piece on a4$"):
        game.play(listed["a4-a2"])
    game = Game("brandubh")
    listed = listed_of(game)
    for move in ("a4-a2", "d3-b3", "a2-a4", "b3-b2"):  # the attackers back, a defender on b2
        game.play(move)
    with pytest.raises(IllegalMove, match="^b2 is in the way$"):
        game.play(listed["b4-b1"])


def test_a_listed_move_is_refused_once_a_repetition_ended_the_game():
    rules = BRANDUBH.replace(repetition="draw", repetition_count=2)
    game = Game(rules)
    listed = listed_of(game)
    for move in ("a4-a2", "d3-b3", "a2-a4", "b3-d3"):  # the start again: a twofold repetition
        game.play(move)
    assert game.outcome is not None and game.outcome.kind == "repetition"
    with pytest.raises(IllegalMove, match="^the game is over"):
        game.play(listed["a4-a3"])
    assert game.ply == 4


def test_a_listed_move_is_checked_again_when_only_the_king_or_the_turn_changed():
    # every man where he stood, the same side to move, the king moved on to c4: a4-c4, listed at the
    # start, now goes onto the king
    game = game_of(BRANDUBH, "a4 f7", "e2", "b6", "attackers")
    listed = listed_of(game)
    for move in ("a4-a2", "b6-b4", "a2-a4", "b4-c4"):
        game.play(move)
    assert game.turn == "attackers" and game.king_square() == "c4"
    with pytest.raises(IllegalMove, match="^c4 is occupied$"):
        game.play(listed["a4-c4"])
    # the same men and king, the other side to move: an attackers' move listed then is refused now
    game = game_of(BRANDUBH, "a4 f7", "e2", "b6", "attackers")
    listed = listed_of(game)
    for move in ("a4-c4", "b6-b7", "c4-b4", "b7-b6", "b4-a4"):  # three moves along the rank, two of the king
        game.play(move)
    assert game.turn == "defenders" and game.position() == game_of(BRANDUBH, "a4 f7", "e2", "b6",
                                                                    "attackers").position()
    with pytest.raises(IllegalMove, match="^it is the defenders' turn \\(a4 holds an attacker\\)$"):
        game.play(listed["a4-a2"])
