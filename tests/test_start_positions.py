"""Start positions no game can have, and games longer than a board keeps, refused by name on every
path a game comes in by: ``Game`` itself, the web API's ``new`` (which share links and saved games
go through), an OTN rules string's ``start:``, and an imported record."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

import tafl_rules
from tafl_rules import Game, PositionError, otn, webapi
from tafl_rules.position import format_position, parse_position

ROOT = Path(__file__).resolve().parents[1]
BRANDUBH = tafl_rules.variant("brandubh").rules  # corners, throne for the king alone
COPENHAGEN = tafl_rules.variant("copenhagen").rules

#: (rules, position, problem, words of the message)
IMPOSSIBLE = [
    (BRANDUBH, "/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/", "no-king", "there is no king"),
    (BRANDUBH, "/7/7/2T4/3K3/7/7/7/", "no-attackers", "the attackers have no piece"),
    (BRANDUBH, "/3K3/3t3/3T3/ttTtTtt/3T3/3t3/3t3/", "forbidden-square",
     "an attacker stands on the throne d4, where only the king may stop"),
    (BRANDUBH, "/3K3/3t3/3T3/ttTTTtt/3T3/3t3/3t3/", "forbidden-square",
     "a defender stands on the throne d4, where only the king may stop"),
    (COPENHAGEN, "/t10/11/11/11/11/5K5/11/11/11/11/11/", "forbidden-square",
     "an attacker stands on the corner a1, where only the king may stop"),
    (COPENHAGEN, "/K10/11/11/11/11/11/11/11/11/11/3t7/", "king-escaped",
     "the king already stands on an escape square (a1)"),
    (tafl_rules.variant("lewis-1").rules, "/11/11/11/11/11/11/11/11/11/11/3t1K5/", "king-escaped",
     "the king already stands on an escape square (f11)"),
]


@pytest.mark.parametrize("rules, position, problem, words", IMPOSSIBLE)
def test_a_game_cannot_start_where_no_game_can_be(rules, position, problem, words):
    with pytest.raises(PositionError, match=re.escape(words)) as info:
        Game(rules, position=position)
    assert info.value.problem == problem


def test_a_camp_may_hold_its_attackers_but_no_defender():
    rules = tafl_rules.variant("tafl-granquist").rules  # the attackers' start squares are camps
    start = parse_position(rules.start, rules.size)
    d1, f2 = 1 << 3, 1 << 14
    Game(rules, position=format_position(start.attackers & ~d1 | f2, start.defenders, start.king, rules.size))
    with pytest.raises(PositionError, match="a defender stands on the camp d1"):
        Game(rules, position=format_position(start.attackers & ~d1, start.defenders | d1, start.king, rules.size))


def test_a_piece_on_its_own_start_square_may_never_have_moved():
    # the king starts on the throne though he may not stop there again: a position with him still there is fine
    rules = BRANDUBH.replace(throne_stop=frozenset())
    Game(rules)
    Game(rules, position="/3t3/3t3/3T3/ttTK1tt/3T3/3t3/3t3/")


def ask(kind: str, **payload):
    return json.loads(webapi.handle(kind, json.dumps({"board": "start", **payload})))


@pytest.mark.parametrize("rules, position, problem, words", IMPOSSIBLE)
def test_the_web_api_refuses_it_by_name_and_keeps_the_game(rules, position, problem, words):
    ask("new", variant="brandubh", moves=["d2-c2"])
    before = ask("state")
    # a share link or a saved game: rules and a start position
    reply = ask("new", rules=otn.rules_to_otn(rules), position=position, turn="attackers")
    assert words in reply["error"]
    if problem != "forbidden-square":  # (the rules' own start squares are where their pieces start)
        # a rules string whose own start is impossible
        assert words in ask("new", rules=otn.rules_to_otn(rules.replace(start=position)))["error"]
    # an imported record of a game that began there
    plain = otn.rules_to_otn(rules).rsplit(" start:", 1)[0]
    record = f"[rules:{plain} x-start:{rules.start} start:{position}]\n"
    assert f"start position: {words}" in ask("import", otn=record)["error"]
    assert ask("state") == before


def test_a_catalogue_variant_and_a_bad_position_are_refused_too():
    reply = ask("new", variant="copenhagen", position="/t10/11/11/11/11/5K5/11/11/11/11/11/")
    assert reply["error"] == "an attacker stands on the corner a1, where only the king may stop"


# ----------------------------------------------------------------- the length of a game


def test_a_request_with_more_moves_than_a_board_keeps_is_refused_by_its_count():
    moves = ["d2-c2", "d3-e3", "c2-d2", "e3-d3"] * (webapi.MAX_MOVES // 4 + 1)
    reply = ask("new", variant="brandubh", toggles={}, moves=moves[:webapi.MAX_MOVES + 1])
    assert reply["error"] == f"the game has {webapi.MAX_MOVES + 1:,} moves; a board keeps at most {webapi.MAX_MOVES:,}"


def test_the_limit_holds_for_play_and_import(monkeypatch):
    monkeypatch.setattr(webapi, "MAX_MOVES", 4)
    assert ask("new", variant="brandubh", moves=["d2-c2", "d3-e3", "c2-d2", "e3-d3"])["cursor"] == 4
    state = ask("state")
    reply = ask("play", move="d2-c2")
    assert reply["error"] == "a board keeps games of at most 4 moves"
    assert ask("state") == state
    game = Game("brandubh")
    for move in ["d2-c2", "d3-e3", "c2-d2", "e3-d3", "d2-c2"]:
        game.play(move)
    assert ask("import", otn=otn.game_to_otn(game))["error"] == "the record has 5 moves; a board keeps at most 4"


def test_the_share_link_reader_knows_the_same_limit():
    """The board's share-link reader refuses a longer link before it asks the worker; its number is
    this module's."""
    store = (ROOT / "_static" / "tafl-board-store.mjs").read_text()
    assert re.search(r"export const MAX_MOVES = (\d+);", store).group(1) == str(webapi.MAX_MOVES)
    script = ("import('./_static/tafl-board-store.mjs').then(({readShareLink, MAX_MOVES}) => {"
              " const link = (n) => '?board=0&variant=brandubh&moves=' + Array(n).fill('d2-c2').join(',');"
              " const page = {variant: 'brandubh', toggles: {}, position: ''};"
              " console.log(JSON.stringify([readShareLink(link(MAX_MOVES), 0, page).choice.moves.length,"
              " String(readShareLink(link(MAX_MOVES + 1), 0, page).error)])); })")
    out = subprocess.run(["node", "-e", script], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [webapi.MAX_MOVES,
                               f"Error: it holds {webapi.MAX_MOVES + 1} moves; a board keeps at most {webapi.MAX_MOVES}"]
