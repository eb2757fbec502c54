"""The engine's core: start position, legal moves, custodial capture, undo, errors."""

import random

import pytest

from fuzzing import snapshot
from tafl_rules import Game, IllegalMove, Move, NotationError, Rules, RulesError, game_from_otn, game_to_otn, variant
from tafl_rules.squares import Geometry, geometry, parse_square, square_name
from tafl_rules.position import format_position, parse_position

START = Rules().start


def test_square_names_round_trip():
    for size in (7, 11, 19):
        g = geometry(size)
        assert square_name(0, size) == "a1"
        assert square_name(size * size - 1, size) == f"{'abcdefghijklmnopqrs'[size - 1]}{size}"
        for i in range(size * size):
            assert parse_square(g.names[i], size) == i
    with pytest.raises(NotationError, match="off the 11x11 board"):
        parse_square("l1", 11)
    with pytest.raises(NotationError, match="not a square name"):
        parse_square("l\u00b9", 11)


def test_position_round_trip():
    place = parse_position(START, 11)
    assert place.attackers.bit_count() == 24
    assert place.defenders.bit_count() == 12
    assert place.king == 60
    assert format_position(*place, 11) == START


def test_start_position_and_turn():
    game = Game(Rules())
    assert game.position() == START
    assert game.turn == "attackers"
    assert game.piece_at("f6") == "king"
    assert game.piece_at("d1") == "attacker"
    assert game.piece_at("f5") == "defender"
    assert game.piece_at("a1") is None
    assert game.outcome is None


def test_slider_targets_stop_before_pieces():
    game = Game(Rules())
    targets = game.legal_targets()
    assert targets["d1"] == ["a1", "b1", "c1", "d2", "d3", "d4", "d5"]
    assert targets["e1"] == ["e2", "e3", "e4", "e5"]
    assert game.legal_targets()["f2"] == ["a2", "b2", "c2", "d2", "e2", "g2", "h2", "i2", "j2", "k2"]


def test_legal_moves_match_targets():
    game = Game(Rules())
    moves = game.legal_moves()
    total = sum(len(v) for v in game.legal_targets().values())
    assert len(moves) == total == game.count_legal_moves()
    assert all(isinstance(m, Move) for m in moves)
    assert Move("d1", "d4") in moves


def test_custodial_capture_and_undo():
    pos = "/11/11/t2Tt6/11/11/5K5/11/11/11/11/11/"
    game = Game(Rules(), position=pos, turn="attackers")
    before = (game.position(), game.hash, game.turn)
    move = game.play("a3-c3")
    assert move.captures == ["d3"]
    assert game.piece_at("d3") is None
    assert game.turn == "defenders"
    undone = game.undo()
    assert str(undone) == "a3-c3"
    assert (game.position(), game.hash, game.turn) == before


def test_illegal_moves_say_why_and_change_nothing():
    game = Game(Rules())
    game.play("d1-d3")
    game.play("f4-c4")  # a game with history: nothing of it may change either
    before = snapshot(game)
    cases = {
        "f5-f4": "it is the attackers' turn",
        "h1-h6": "h6 is occupied",
        "h1-h7": "h6 is in the way",
        "h1-e2": "not along a rank or a file",
        "e3-e4": "there is no piece on e3",
        "l1-l2": "l1 is off the 11x11 board",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMove, match=reason):
            game.play(text)
        assert snapshot(game) == before
    # text that is not written like a move is a notation error, not an illegal move
    for text, reason in {"z1-z2": "not a square name", "d1d4": "is not a move", "d1-d4x": "is not a move",
                         "d1-d4xz5": "'z5' is not a square name"}.items():
        with pytest.raises(NotationError, match=reason):
            game.play(text)
        assert snapshot(game) == before


def test_only_the_king_stops_on_the_throne():
    # a defender passes over the empty throne but may not stop on it; the king may
    rules = Rules(corners=True, escape="corner")  # the king on f1 has not escaped
    game = Game(rules, position="/5K5/11/11/11/11/T10/11/11/11/10t/11/", turn="defenders")
    with pytest.raises(IllegalMove, match="only the king may stop on the throne"):
        game.play("a6-f6")
    targets = game.legal_targets()
    assert "g6" in targets["a6"] and "f6" not in targets["a6"]
    assert "f6" in targets["f1"]
    game.play("f1-f6")
    assert game.piece_at("f6") == "king"


def test_hash_is_stable_and_incremental():
    game = Game(Rules())
    h0 = game.hash
    for mv in ("d1-d3", "f4-c4", "h1-h3", "c4-c2"):
        game.play(mv)
    fresh = Game(Rules(), position=game.position(), turn=game.turn)
    assert fresh.hash == game.hash
    for _ in range(4):
        game.undo()
    assert game.hash == h0 == Game(Rules()).hash


def test_an_unknown_variant_id_is_a_rules_error():
    with pytest.raises(RulesError, match="no variant 'copenhagan'"):
        Game("copenhagan")


def test_game_over_refuses_moves():
    # king one step from the edge under edge escape
    game = Game(Rules(), position="/t10/11/11/11/11/11/11/11/11/5K5/11/", turn="defenders")
    move = game.play("f10-f11")
    assert game.outcome.winner == "defenders"
    assert game.outcome.kind == "escape"
    assert game.outcome.reason == "king reached f11"
    assert move.to_square == "f11"
    with pytest.raises(IllegalMove, match="the game is over"):
        game.play("a1-a2")
    game.undo()
    assert game.outcome is None


def test_table_and_ray_slides_agree():
    rng = random.Random(5)
    for size in (7, 11, 13):
        tables = geometry(size)
        rays = Geometry.__new__(Geometry)
        rays.__dict__.update(tables.__dict__)
        rays.use_tables = False
        for _ in range(300):
            occ = rng.getrandbits(size * size) & rng.getrandbits(size * size)
            occ_t = tables.transpose(occ)
            sq = rng.randrange(size * size)
            assert tables.slide(sq, occ, occ_t) == rays.slide(sq, occ, occ_t)


def test_big_board_moves():
    rules = Rules(size=19, start="/" + "/".join(["t18"] + ["19"] * 8 + ["9K9"] + ["19"] * 9) + "/")
    game = Game(rules)
    assert game.count_legal_moves() == 36
    game.play("a1-a19")
    assert game.piece_at("a19") == "attacker"
    assert game.legal_targets()["j10"][:2] == ["a10", "b10"]


def test_otn_glue_round_trip():
    game = Game(Rules())
    game.random_playout(30, random.Random(7))
    again = game_from_otn(game_to_otn(game))
    assert again.position() == game.position()
    assert again.turn == game.turn
    assert [str(m) for m in again.moves] == [str(m) for m in game.moves]


def test_copy_is_independent():
    game = Game(Rules())
    game.play("d1-d3")
    other = game.copy()
    other.play("f4-c4")
    assert len(game.moves) == 1 and len(other.moves) == 2
    assert game.turn == "defenders" and other.turn == "attackers"
    other.undo()
    assert other.position() == game.position() and other.hash == game.hash


def test_move_text_equality_and_hash():
    move = Move("d1", "d4", ["d5"])
    assert move == "d1-d4" and move == Move("d1", "d4")
    assert "d1-d4" in {move} and move in {"d1-d4"}
    assert move.otn() == "d1-d4xd5" and str(move) == "d1-d4"
    assert Move.parse("D1-D4xD5").captures == ["d5"]
    with pytest.raises(NotationError, match="is not a move"):
        Move.parse("d1-d4x")


def test_game_from_a_variant_object():
    brandubh = variant("brandubh")
    assert Game(brandubh).rules == brandubh.rules == Game("brandubh").rules
    for other in (42, None.__class__, type("Variant", (), {"rules": brandubh.rules})()):
        with pytest.raises(TypeError, match="needs a Rules record or a variant id"):
            Game(other)


def test_bad_positions_and_turns_are_refused():
    with pytest.raises(NotationError, match="expected 11 ranks"):
        Game(Rules(), position="/3t3/")
    with pytest.raises(ValueError, match="turn must be"):
        Game(Rules(), turn="white")


def test_the_engine_int_interface_matches_the_named_one():
    game = Game(Rules())
    pos = game.engine
    names = geometry(11).names
    by_name = {names[f]: sorted(names[i] for i in range(121) if t >> i & 1) for f, _kind, t in pos.move_targets(pos.side)}
    assert by_name == {k: sorted(v) for k, v in game.legal_targets().items()}
    h = game.hash
    d1, d4 = geometry(11).index["d1"], geometry(11).index["d4"]
    caps = pos.make(d1, d4, pos.kind_at(d1))
    assert caps == 0 and game.piece_at("d4") == "attacker" and game.turn == "defenders"
    assert str(game.undo()) == "d1-d4" and game.hash == h


def test_the_aliases_added_for_speed_are_deprecated_and_still_work():
    """One meaning per name: Game.push/pop, Move.uci, Game.target_bits/play_fast and the engine's
    Position.push (now Position.step) warn, and do what they did."""
    game = Game(Rules())
    index = geometry(11).index
    with pytest.warns(DeprecationWarning, match="use game.engine.move_targets"):
        listed = game.target_bits()
    assert listed == [(f, t) for f, _kind, t in game.engine.move_targets(game.engine.side)]
    with pytest.warns(DeprecationWarning, match="use game.engine.make"):
        assert game.play_fast(index["d1"], index["d4"]) == 0
    with pytest.warns(DeprecationWarning, match=r"use Game.undo\(\)"):
        assert str(game.pop()) == "d1-d4"
    with pytest.warns(DeprecationWarning, match=r"use Game.play\(\)"):
        played = game.push("d1-d4")
    with pytest.warns(DeprecationWarning, match=r"use str\(move\)"):
        assert played.uci() == "d1-d4"
    pos = game.engine
    frm, kind, targets = pos.move_targets(pos.side)[0]
    with pytest.warns(DeprecationWarning, match="use Position.step"):
        pos.push(frm, (targets & -targets).bit_length() - 1, kind)
    assert len(game.moves) == 2
    pos.unmake()
    assert game.moves == ["d1-d4"]


def test_a_move_is_immutable():
    move = Game("brandubh").legal_moves()[0]
    for name, value in (("from_square", "a1"), ("to_square", "a2"), ("captures", ["a3"])):
        with pytest.raises(AttributeError):
            setattr(move, name, value)
    move.captures.append("g7")  # a copy: the move keeps its own
    assert move.captures == [] and hash(move) == hash(str(move))


def test_zobrist_hash_is_stable_across_runs_and_versions():
    # fixed keys (random.Random seeded by the board size): the same number in CPython 3.11-3.14 and Pyodide
    assert Game(Rules()).hash == 17950760007912422539


def test_peek_is_the_last_move_with_its_captures():
    game = Game(Rules(), position="/11/11/t2Tt6/11/11/5K5/11/11/11/11/11/", turn="attackers")
    assert game.peek() is None
    game.play("a3-c3")
    assert game.peek().otn() == "a3-c3xd3" == game.moves[-1].otn()
    game.undo()
    assert game.peek() is None


def test_asking_for_announcements_changes_nothing_on_either_side_s_turn():
    # the threat test tries the attackers' moves even on the defenders' turn, and takes them back:
    # here i1-i5 would take the king on h5 against g5
    record = "/8t2/11/11/11/6tK3/11/11/11/11/11/11/"
    for turn in ("defenders", "attackers"):
        game = Game(Rules(), position=record, turn=turn)
        before = snapshot(game)
        assert "king threatened" in game.announcements()
        assert snapshot(game) == before and game.turn == turn
        safe = Game(Rules(), position=record.replace("/8t2/", "/11/"), turn=turn)
        assert "king threatened" not in safe.announcements()


def test_a_playout_stopped_by_its_cap_is_judged_as_play_would_judge_it():
    """fuzz review, defect 5: the cap used to stop the playout before the generation that finds a
    side without moves, leaving a game with no legal move that was not over, and a record that
    read back with another outcome. c1-b1 boxes in the attackers' only man on a1."""
    rules = Rules(size=7, start="/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", throne=False)
    start = Game(rules, position="/t1T4/T6/7/3K3/7/7/7/", turn="defenders")
    capped = start.copy()
    assert capped.random_playout(1, random.Random(31)) == 1 and str(capped.moves[0]) == "c1-b1"
    played = start.copy()
    played.play("c1-b1")
    assert capped.outcome == played.outcome == ("defenders", "attackers have no legal move", "no-moves")
    assert capped.is_over() and len(capped.legal_moves()) == 0
    assert game_from_otn(game_to_otn(capped)).outcome == capped.outcome


@pytest.mark.parametrize("vid", ["copenhagen", "brandubh", "tablut-linnaeus", "tafl-granquist"])
def test_a_seeded_playout_is_the_same_game_played_move_by_move(vid):
    """random_playout makes its moves with the engine's own make (fast); the same moves played one
    by one through Game.play leave the same full state after every length of playout."""
    for plies in (0, 1, 7, 40, 300):
        fast = Game(vid)
        fast.random_playout(plies, random.Random(plies))
        slow = Game(vid)
        for move in fast.moves:
            slow.play(str(move))
        assert snapshot(slow) == snapshot(fast)

