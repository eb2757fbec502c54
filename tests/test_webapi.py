"""The worker's JSON interface: what the board is sent, and what it may not send."""

from __future__ import annotations

import doctest
import json

import pytest

from tafl_rules import Game, howto, variant, variants, webapi


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
    ({"variant": "copenhagen", "moves": ["d1-d3", "<img>"]}, "moves"),
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
    assert ask("play", "m", move="d1-d3")["last_move"] == {"from": "d1", "to": "d3", "captures": []}


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
