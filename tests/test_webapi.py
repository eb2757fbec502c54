"""The worker's JSON interface: what the board is sent, and what it may not send."""

from __future__ import annotations

import doctest
import json
import random

import pytest

import tafl_rules
from tafl_rules import Game, game_to_otn, howto, variant, variants, webapi


def ask(kind: str, board: str = "t", **payload):
    return json.loads(webapi.handle(kind, json.dumps({"board": board, **payload})))


def test_new_game_state_carries_the_legal_map_of_the_engine():
    state = ask("new", variant="copenhagen")
    assert state["turn"] == "attackers"
    assert state["legal"] == Game(variant("copenhagen").rules).legal_targets()
    assert state["special"]["throne"] == "f6"
    assert state["special"]["corners"] == ["a1", "a11", "k1", "k11"]
    assert state["rules_otn"].startswith("dim:11")
    assert state["ranks"][5] == "tt.TTKTT.tt"


def test_camps_are_the_attackers_start_squares_when_the_rules_have_camps():
    state = ask("new", variant="tafl-granquist")
    assert "e1" in state["special"]["camps"] and len(state["special"]["camps"]) == 16


def test_play_undo_redo_and_a_new_move_cuts_the_redo_tail():
    ask("new", variant="copenhagen")
    assert ask("play", move="d1-d3")["line"] == ["d1-d3"]
    ask("play", move="e5-e2")
    state = ask("undo")
    assert state["cursor"] == 1 and state["line"] == ["d1-d3", "e5-e2"]
    assert ask("redo")["cursor"] == 2
    assert ask("goto", ply=0)["cursor"] == 0
    state = ask("play", move="h1-h3")
    assert state["line"] == ["h1-h3"] and state["cursor"] == 1


def test_replaying_the_next_move_of_the_redo_line_keeps_the_rest_of_it():
    ask("new", variant="copenhagen", moves=["d1-d3", "e5-e2", "g1-g3", "f4-c4"])
    ask("goto", ply=1)
    state = ask("play", move="e5-e2")  # the move the line holds next: the rest stays to be redone
    assert state["line"] == ["d1-d3", "e5-e2", "g1-g3", "f4-c4"] and state["cursor"] == 2
    assert ask("redo")["line"][:3] == ["d1-d3", "e5-e2", "g1-g3"]
    state = ask("play", move="f4-f3")  # another move than the line's: the rest is cut off
    assert state["line"] == ["d1-d3", "e5-e2", "g1-g3", "f4-f3"] and state["cursor"] == 4


def test_the_king_taken_on_the_first_square_is_reported():
    # a1 is square 0; the king stands there only where he cannot escape
    rules = tafl_rules.Rules(size=7, start="/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", escape="none",
                             king_capture="four", king_capture_against={"edge"})
    state = ask("new", rules=tafl_rules.rules_to_otn(rules), position="/K1t4/t6/7/6T/7/7/7/", turn="attackers")
    assert state["outcome"] is None
    state = ask("play", move="c1-b1")
    assert state["outcome"]["kind"] == "king-captured"
    assert state["last_move"] == {"from": "c1", "to": "b1", "captures": [], "king_taken": "a1"}


def test_a_move_that_names_only_some_of_its_captures_is_refused():
    rules = tafl_rules.Rules(throne=False)
    position = "/11/11/4t6/4T6/2tT1t5/4T6/4t6/11/11/9K1/11/"  # t c5 e7 e3 f5, T d5 e6 e4, K j10
    payload = {"rules": tafl_rules.rules_to_otn(rules), "position": position, "turn": "attackers"}
    assert ask("new", **payload, moves=["f5-e5xd5/e4/e6"])["captured"] == {"attackers": 3, "defenders": 0}
    for named in ("f5-e5xd5", "f5-e5xd5/e4", "f5-e5xd5/e4/e6/c5"):
        reply = ask("new", **payload, moves=[named])
        assert "cannot be replayed: it says it captures" in reply["error"], named


def test_captures_are_listed_and_counted():
    ask("new", variant="copenhagen", moves=["d1-d3", "e5-e2", "g1-g3", "f4-c4"])
    state = ask("play", move="g3-e3")
    assert state["played"] == "g3-e3xe2"
    assert state["captured"] == {"attackers": 1, "defenders": 0}


def test_an_illegal_move_says_why_and_changes_nothing():
    ask("new", variant="copenhagen", moves=["d1-d3", "e5-e2", "g1-g3"])
    ask("undo")  # a redo tail, which a refused move must not cut
    before = ask("state")
    reply = ask("play", move="e2-e3")
    assert reply["illegal"] is True and "attackers' turn" in reply["error"]
    reply = ask("play", move="d3-d10")
    assert reply["illegal"] is True and "d6 is in the way" in reply["error"]
    assert ask("state") == before  # placement, line, cursor, turn, captures: the whole state


def test_explain_names_why_a_piece_cannot_be_picked_up():
    ask("new", variant="copenhagen")
    assert "attackers' turn" in ask("explain", square="e5")["error"]
    assert ask("explain", square="a4")["reason"] == "a4 can move"


@pytest.mark.parametrize("payload, words", [
    ({"variant": "<script>alert(1)</script>"}, "catalogue id"),
    ({"variant": "copenhagen", "toggles": {"first": "<b>x</b>"}}, "toggles"),
    ({"variant": "copenhagen", "moves": ["d1-d3", "<img>"]}, "move 2 (<img>) is not written like d1-d4"),
    ({"variant": "copenhagen", "moves": ["d1-d9"]}, "move 1"),
    ({"variant": "no-such-variant"}, "no-such-variant"),
    ({"variant": "copenhagen", "toggles": {"nonsense": "x"}}, "nonsense"),
])
def test_bad_new_requests_are_refused_with_the_field_named(payload, words):
    ask("new", board="keep", variant="brandubh")
    reply = ask("new", board="keep", **payload)
    assert "error" in reply and words in reply["error"]
    assert ask("state", board="keep")["variant"] == "brandubh"


def test_export_then_import_round_trips_and_a_bad_record_keeps_the_game():
    ask("new", variant="copenhagen", moves=["d1-d3", "e5-e2"])
    record = ask("export")["otn"]
    assert "d1-d3" in record
    bad = ask("import", otn=record.replace("e5-e2", "e5-e9"))
    assert "error" in bad
    assert ask("state")["line"] == ["d1-d3", "e5-e2"]
    ask("new", variant="copenhagen")
    assert ask("import", otn=record)["line"] == ["d1-d3", "e5-e2"]


def test_unknown_request_type_is_named():
    assert "frobnicate" in json.loads(webapi.handle("frobnicate", "{}"))["error"]



def test_a_game_can_be_reopened_from_its_otn_rules_string():
    brandubh = ask("new", "r", variant="brandubh", moves=["d2-e2"])
    again = ask("new", "r2", rules=brandubh["rules_otn"], moves=["d2-e2"])
    assert again["ranks"] == brandubh["ranks"] and again["variant"] == ""
    assert "size" in ask("new", "r3", rules="dim:4")["error"]
    assert "either a variant or" in ask("new", "r3", variant="brandubh", rules=brandubh["rules_otn"])["error"]


def test_new_games_carry_how_to_play_and_the_announcement_words_their_rules_use():
    tablut = ask("new", "h", variant="tablut-linnaeus")
    assert tablut["terms"] == ["raichi", "tuichi"]
    assert dict(tablut["howto"])["Defenders win"].startswith("By bringing the king to any edge square")
    assert ask("new", "h", variant="tawlbwrdd-cyningstan")["terms"] == []
    assert ask("new", "h", variant="tafl-granquist", toggles={"tuichi": "win"})["terms"] == ["raichi", "tuichi"]


def test_moves_come_back_as_squares_as_well_as_records():
    ask("new", "m")
    assert ask("play", "m", move="d1-d3")["last_move"] == {"from": "d1", "to": "d3", "captures": [], "king_taken": None}


def test_the_search_calls_the_heartbeat():
    beats = []
    webapi.set_heartbeat(lambda: beats.append(1))
    try:
        ask("new", "hb")
        reply = ask("ai_move", "hb", level=3)
    finally:
        webapi.set_heartbeat(None)
    assert "error" not in reply and beats


def test_how_to_play_doctest_and_every_variant_gets_both_goals():
    assert doctest.testmod(howto).failed == 0
    for v in variants():
        lines = dict(howto.how_to_play(v.rules))
        assert lines["Defenders win"] and lines["Attackers win"] and lines["Taking"], v.id
        assert "never" not in lines["Defenders win"].lower()[:6], v.id


# --- the start of a game travels with it (fuzz review, defect 1) -----------------------------

def test_the_state_carries_the_start_position_and_the_side_that_moved_first():
    state = ask("new", "s", variant="brandubh", moves=["d2-e2"])
    assert state["start_position"] == "" and state["start_turn"] == ""  # the rules' own start and first side
    own = "/7/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    state = ask("new", "s", variant="brandubh", position=own, turn="defenders", moves=["d5-f5"])
    assert state["start_position"] == own and state["start_turn"] == "defenders"
    assert ask("new", "s", variant="brandubh", turn="attackers")["start_turn"] == ""  # named, but the rules' own
    assert state["turn"] == "attackers"  # the side to move now is another thing


def test_an_imported_game_with_its_own_start_is_rebuilt_exactly_from_what_the_state_carries():
    ask("new", "i", variant="brandubh")
    game = Game("brandubh", position="/7/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
    game.play("d7-e7")
    game.play("d5-f5")
    imported = ask("import", "i", otn=game_to_otn(game))
    # the page's variant is not claimed for a game that did not start as the variant does
    assert imported["variant"] == "" and imported["start_position"] == "/7/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    assert imported["rules_name"] == "Brandubh"  # but its rules are named
    again = ask("new", "i2", rules=imported["rules_otn"], position=imported["start_position"],
                turn=imported["start_turn"], moves=imported["line"])
    assert again["ranks"] == imported["ranks"] and again["ranks"][-1] == "......."


def test_an_imported_game_whose_defenders_moved_first_is_rebuilt():
    game = Game("brandubh", turn="defenders")
    game.play("d3-a3")
    imported = ask("import", "t", otn=game_to_otn(game))
    assert imported["start_turn"] == "defenders" and imported["variant"] == ""
    again = ask("new", "t2", rules=imported["rules_otn"], turn=imported["start_turn"], moves=imported["line"])
    assert "error" not in again and again["ranks"] == imported["ranks"]


def test_an_import_whose_rules_are_a_catalogue_variants_is_named_as_that_variant():
    ask("new", "n", variant="lewis-1")
    game = Game("brandubh")
    game.play(str(game.legal_moves()[0]))
    imported = ask("import", "n", otn=game_to_otn(game))  # game_to_otn writes no variant tag here
    assert imported["variant"] == "brandubh" and imported["variant_name"] == "Brandubh"


def test_an_exported_game_with_toggles_comes_back_as_the_same_variant_and_readings():
    ask("new", "x", variant="brandubh", toggles={"king_armed": "no"}, moves=["d2-e2"])
    record = ask("export", "x")["otn"]
    ask("new", "x", variant="lewis-1")
    imported = ask("import", "x", otn=record)
    assert imported["variant"] == "brandubh" and imported["toggles"] == {"king_armed": "no"}


# --- share links as strict as the record reader (player review, finding 6; fuzz, defect 4) -----

def test_a_move_claiming_a_capture_the_rules_do_not_make_is_refused():
    reply = ask("new", "c", variant="lewis-1", moves=["e2-e4xe5"])
    assert reply["error"] == "move 1 (e2-e4xe5) cannot be replayed: it says it captures e5, the rules capture nothing"
    reply = ask("new", "c", variant="brandubh", moves=["d7-e7xa1/b2", "d5-f5xg7"])
    assert "move 1 (d7-e7xa1/b2) cannot be replayed" in reply["error"]


def test_recorded_captures_that_are_made_are_accepted():
    ask("new", "k", variant="copenhagen", moves=["d1-d3", "e5-e2", "g1-g3", "f4-c4"])
    played = ask("play", "k", move="g3-e3")["line"]
    assert played[-1] == "g3-e3xe2"
    assert ask("new", "k2", variant="copenhagen", moves=played)["captured"] == {"attackers": 1, "defenders": 0}


def test_a_malformed_move_is_named_by_its_number_and_text():
    reply = ask("new", "m", variant="lewis-1", moves=["e2-e4", "f9-h9", "e4-e2x", "k4-k3"])
    assert reply["error"] == "move 3 (e4-e2x) is not written like d1-d4 (captures like d1-d4xd5/e4)"
    long = "e2-" + "e" * 100
    assert "e2-eeeeeeeeeeeeeeeeeeeee..." in ask("new", "m", variant="lewis-1", moves=[long])["error"]


def test_an_unknown_variant_is_said_briefly_and_flagged():
    reply = ask("new", "u", variant="nosuch")
    assert reply == {"error": "no variant 'nosuch'", "unknown_variant": True}


def _line_taking_the_king(variant_id: str) -> tuple[list[str], str]:
    """Random games until one ends with the king taken: its moves and the king's last square."""
    rng = random.Random(1)
    for _ in range(500):
        game, line = Game(variant_id), []
        while not game.is_over() and len(line) < 120:
            king = game.king_square()
            move = rng.choice(game.legal_moves())
            game.play(str(move))
            line.append(str(move))
        if game.is_over() and game.king_square() is None:
            return line, king
    raise AssertionError("no game ended with the king taken")


def test_the_move_that_takes_the_king_names_his_square():
    line, king = _line_taking_the_king("brandubh")
    state = ask("new", "kt", variant="brandubh", moves=line)
    assert state["last_move"]["king_taken"] == king and "K" not in "".join(state["ranks"])
    assert ask("new", "kt", variant="brandubh", moves=line[:-1])["last_move"]["king_taken"] is None


def test_hello_names_the_build_the_snapshot_was_made_for():
    assert ask("hello") == {"version": tafl_rules.__version__, "build": ""}  # CPython: no snapshot, no build


def test_the_people_like_player_answers_as_the_lab_plays_it():
    from tafl_rules.ai.people import STYLE, people_move

    ask("new", "pp", variant="tawlbwrdd-cyningstan", moves=["a4-a2"])
    reply = ask("ai_move", "pp", level="people", seed=7)
    game = Game("tawlbwrdd-cyningstan")
    game.play("a4-a2")
    expected = people_move(game, STYLE, 7 + 1)  # the seed goes on with the game's ply, as for the levels
    assert reply["played"].split("x")[0] == str(expected) and "search" not in reply
    assert reply["cursor"] == 2


def test_an_unknown_player_is_refused_by_name_and_the_game_is_unchanged():
    ask("new", "pq", variant="brandubh")
    reply = ask("ai_move", "pq", level="peeple")
    assert "got 'peeple'" in reply["error"] and "'people'" in reply["error"] and "level must be one of" in reply["error"]
    assert ask("ai_move", "pq", level=True)["error"].startswith("level must be one of")
    assert ask("goto", "pq", ply=0)["cursor"] == 0 and ask("goto", "pq", ply=0)["line"] == []
