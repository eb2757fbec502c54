"""The worker's API, word for word: every refusal a page can meet, whole, in English and in Welsh.

The board shows a refusal's words as they come (``{"error": ...}``), so a refusal that names the
wrong field, drops the value it is about, or comes back in the wrong language is a fault a
reader meets. Each case here is one request and the whole reply it gets; they were asked for by
the mutation run of ``tafl_rules.webapi`` (``tests/mutation/report.md``), which found the
suite matching most refusals only in part.
"""

from __future__ import annotations

import json

import pytest

import tafl_rules
from tafl_rules import webapi
from tafl_rules.howto import how_to_play
from tafl_rules.messages import translate

@pytest.fixture(autouse=True)
def fresh_boards():
    """Each test starts with no board (a mutation run's worker inherits the boards of the run that
    measured the tests, and an import's fallback reads the board's game before it)."""
    kept = dict(webapi._sessions)
    webapi._sessions.clear()
    yield
    webapi._sessions.clear()
    webapi._sessions.update(kept)


KNOWN = "ai_move, catalogue, explain, export, goto, hello, import, new, play, redo, state, undo"


def raw(kind, payload="{}"):
    return json.loads(webapi.handle(kind, payload))


def ask(kind: str, board: str = "w", **payload):
    return raw(kind, json.dumps({"board": board, **payload}))


@pytest.mark.parametrize("kind, payload, error", [
    (5, "{}", "the request type must be text"),
    ("new", 5, "the payload must be JSON text"),
    ("new", "[" * 100_000, "the payload is nested too deeply"),
    ("new", '{"a": ' + "1" * 5000 + "}", "the payload holds a number with too many digits"),
    ("new", "{bad", "the payload is not JSON: Expecting property name enclosed in double quotes: line 1 column 2 "
                    "(char 1)"),
    ("new", "[]", "the payload must be a JSON object"),
    ("nonsense", "{}", f"unknown request type 'nonsense'; known: {KNOWN}"),
    ("x" * 40, "{}", f"unknown request type '{'x' * 40}'; known: {KNOWN}"),
    ("y" * 41, "{}", f"unknown request type '{'y' * 40}...'; known: {KNOWN}"),
    ("new", '{"lang": "fr"}', "lang must be one of en, cy, got 'fr'"),
    ("new", json.dumps({"lang": "x" * 22}), f"lang must be one of en, cy, got '{'x' * 22}'"),
    ("new", json.dumps({"lang": "x" * 23}), f"lang must be one of en, cy, got '{'x' * 23}..."),
    ("new", '{"lang": 7}', "lang must be one of en, cy, got 7"),
    ("state", '{"board": "no such"}', "the board id must be letters, digits, '-' or '_'"),
    ("state", '{"board": "zz"}', "no game on board 'zz'; send 'new' first"),
    ("new", '{"variant": 5}', "the variant must be a catalogue id (lower-case letters, digits and '-')"),
    ("new", '{"variant": "Brandubh"}', "the variant must be a catalogue id (lower-case letters, digits and '-')"),
    ("new", '{"variant": "brandubh", "toggles": ["x"]}',
     "toggles must be name: value pairs of letters, digits, '-' and '_' (at most 64 each)"),
    ("new", '{"toggles": {"a": "b"}}', "toggles need a variant"),
    ("new", '{"variant": "brandubh", "moves": "a4-a2"}',
     "moves must be a list of moves written like d1-d4 (captures like d1-d4xd5/e4)"),
    ("new", '{"variant": "brandubh", "moves": ["a4-a2", 5]}', "move 2 is not text but int"),
    ("new", '{"variant": "brandubh", "moves": [null]}', "move 1 is not text but NoneType"),
    ("new", '{"variant": "brandubh", "moves": ["a4-a2", "b7-b5", "nonsense"]}',
     "move 3 (nonsense) is not written like d1-d4 (captures like d1-d4xd5/e4)"),
    ("new", json.dumps({"variant": "brandubh", "moves": ["q" * 30]}),
     f"move 1 ({'q' * 24}...) is not written like d1-d4 (captures like d1-d4xd5/e4)"),
    ("new", json.dumps({"variant": "brandubh", "moves": ["a4-a2"] * 10_001}),
     "the game has 10,001 moves; a board keeps at most 10,000"),
    ("new", '{"variant": "brandubh", "moves": ["d1-d4"]}', "move 1 (d1-d4) cannot be replayed: d4 is occupied"),
    ("new", '{"variant": "brandubh", "moves": ["a4-a2xa1/b2"]}',
     "move 1 (a4-a2xa1/b2) cannot be replayed: it says it captures a1, b2, the rules capture nothing"),
    ("new", '{"variant": "brandubh", "rules": 5}', "the rules must be an OTN rules string"),
    ("new", json.dumps({"variant": "brandubh", "rules": tafl_rules.rules_to_otn(tafl_rules.Rules())}),
     "send either a variant or an OTN rules string, not both"),
    ("new", '{"variant": "brandubh", "position": 5}', "the position must be an OTN position record"),
    ("new", '{"variant": "brandubh", "turn": "white"}', "turn must be attackers or defenders"),
    ("new", '{"variant": "brandubh", "turn": 1}', "turn must be attackers or defenders"),
    ("new", '{"variant": "brandubh", "cursor": "1"}', "the cursor must be a whole number"),
    ("new", '{"variant": "brandubh", "cursor": true}', "the cursor must be a whole number"),
    ("new", '{"variant": "brandubh", "cursor": 2}', "ply 2 is outside the game (0 to 0)"),
    ("new", '{"variant": "brandubh", "moves": ["a4-a2"], "cursor": -1}', "ply -1 is outside the game (0 to 1)"),
    ("import", '{"otn": "  "}', "paste an OTN game record first"),
    ("import", '{"otn": 5}', "paste an OTN game record first"),
])
def test_a_bad_request_is_refused_in_so_many_words(kind, payload, error):
    assert raw(kind, payload) == {"error": error}


def test_an_unknown_variant_is_named_and_flagged():
    assert ask("new", variant="nope") == {"error": "no variant 'nope'", "unknown_variant": True}


def test_refusals_of_a_game_going_on_name_what_was_wrong():
    ask("new", variant="brandubh")
    for kind, payload, error in [
        ("play", {"move": 5}, "the move must be text such as d1-d4"),
        ("explain", {"square": "d44x"}, "the square must be named like d4"),
        ("explain", {"square": 4}, "the square must be named like d4"),
        ("undo", {}, "there is no move to undo"),
        ("redo", {}, "there is no move to redo"),
        ("goto", {"ply": "1"}, "ply must be a whole number"),
        ("goto", {"ply": False}, "ply must be a whole number"),
        ("goto", {"ply": 1}, "ply 1 is outside the game (0 to 0)"),
        ("ai_move", {"seed": "1"}, "seed must be a whole number"),
        ("ai_move", {"seed": True}, "seed must be a whole number"),
        ("ai_move", {"level": 99}, "level must be one of 1, 2, 3, 4, 5, 6 or 'people', got 99"),
        ("ai_move", {"level": True}, "level must be one of 1, 2, 3, 4, 5, 6 or 'people', got True"),
    ]:
        assert ask(kind, **payload) == {"error": error}, (kind, payload)
    assert ask("explain", square="d1") == {"reason": "d1 can move"}
    assert ask("explain", square="d4") == {"error": "it is the attackers' turn (d4 holds a king)", "illegal": True}


def test_a_request_in_welsh_is_refused_in_welsh_and_one_in_english_in_english():
    english = "no game on board 'zz'; send 'new' first"
    welsh = translate(webapi.message("no game on board {board}; send 'new' first", board="'zz'"), "cy")
    assert welsh != english
    assert ask("undo", board="zz", lang="cy") == {"error": welsh}
    assert ask("undo", board="zz", lang="en") == {"error": english}
    assert ask("undo", board="zz", lang="") == {"error": english}
    assert ask("undo", board="zz") == {"error": english}
    # a refusal whose words are not one message (an exception with two arguments) is said as it is
    ask("new", variant="brandubh")
    assert ask("play", move="d1-d9", lang="cy")["error"] == translate(
        json.loads(webapi.handle("play", json.dumps({"board": "w", "move": "d1-d9"})))["error"], "cy")
    reply = ask("undo", lang="cy")
    assert reply == {"error": translate("there is no move to undo", "cy")} and reply["error"] != "there is no move to undo"


def test_a_new_game_in_welsh_says_how_to_play_in_welsh():
    def howto(rules, lang=""):
        return [list(pair) for pair in how_to_play(rules, lang)]

    welsh, english = ask("new", variant="brandubh", lang="cy"), ask("new", variant="brandubh")
    brandubh = tafl_rules.variant("brandubh").rules
    assert welsh["howto"] == howto(brandubh, "cy") != english["howto"] == howto(brandubh)
    assert english["variant_name"] == english["rules_name"] == "Brandubh"
    toggled = ask("new", variant="lewis-1", toggles={"watch_king": "on"})
    assert toggled["variant_name"] == toggled["rules_name"] == tafl_rules.variant("lewis-1").name
    assert toggled["howto"] == howto(tafl_rules.variant("lewis-1", watch_king="on").rules) != howto(
        tafl_rules.variant("lewis-1").rules)
    # rules sent as OTN: named after the one catalogue variant whose rules they are, if there is one
    plain = ask("new", rules=tafl_rules.rules_to_otn(tafl_rules.Rules(throne=False)))
    assert (plain["variant"], plain["variant_name"], plain["rules_name"]) == ("", "", "Tawlbwrdd (Cyningstan, 11x11)")
    plain = ask("new", rules=tafl_rules.rules_to_otn(tafl_rules.Rules(throne=False, sandwich="forbidden")))
    assert (plain["variant"], plain["variant_name"], plain["rules_name"]) == ("", "", "")


def test_an_unexpected_failure_is_one_sentence_in_the_requests_language():
    def boom(payload):
        raise KeyError("deep inside")

    assert webapi._handler("boom")(boom) is boom and webapi._HANDLERS["boom"] is boom
    try:
        english = "the rules engine could not answer this request (KeyError: 'deep inside')"
        assert raw("boom") == {"error": english}
        welsh = raw("boom", '{"lang": "cy"}')["error"]
        assert welsh == translate(webapi.message("the rules engine could not answer this request ({kind}: {error})",
                                                 kind="KeyError", error="'deep inside'"), "cy") != english
    finally:
        del webapi._HANDLERS["boom"]


def test_an_empty_or_missing_payload_is_an_empty_request():
    assert raw("hello", "") == raw("hello") == {"version": tafl_rules.__version__, "build": webapi.BUILD}
    assert json.loads(webapi.handle("new"))["variant"] == "" and "main" in webapi._sessions
    assert raw("new", '{"variant": null, "toggles": null, "moves": null}')["variant"] == ""


def test_the_special_squares_are_listed_file_by_file():
    special = ask("new", variant="tafl-granquist")["special"]
    assert special == {"throne": "e5", "corners": [], "camps": ["a4", "a5", "a6", "b5", "d1", "d9", "e1", "e2", "e8",
                                                                 "e9", "f1", "f9", "h5", "i4", "i5", "i6"]}
    assert ask("new", variant="copenhagen")["special"] == {"throne": "f6", "corners": ["a1", "a11", "k1", "k11"],
                                                           "camps": []}
    # by rank as a number within a file: f2 before f10
    camps = webapi.special_squares(tafl_rules.variant("copenhagen").rules.replace(camps=True))["camps"]
    assert [c for c in camps if c[0] == "f"] == ["f1", "f2", "f10", "f11"]


def test_a_king_standing_on_the_first_square_is_not_reported_taken():
    rules = tafl_rules.Rules(size=7, start="/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", escape="none",
                             king_capture="four", king_capture_against={"edge"})
    state = ask("new", rules=tafl_rules.rules_to_otn(rules), position="/K1t4/t6/7/6T/7/7/7/", turn="attackers")
    state = ask("play", move="a2-a3")
    assert state["outcome"] is None and state["last_move"] == {"from": "a2", "to": "a3", "captures": [],
                                                               "king_taken": None}


def test_an_import_finds_its_variant_by_tag_by_the_board_before_or_by_its_rules():
    ask("new", variant="lewis-1", toggles={"watch_king": "on"})
    otn = ask("export")["otn"]
    # the tags name the variant (by its name, in any case) and the reading
    assert ask("import", otn=otn)["variant"] == "lewis-1"
    renamed = otn.replace("[variant:lewis-1]", f"[variant:{tafl_rules.variant('lewis-1').name.upper()}]")
    assert renamed != otn
    reply = ask("import", board="other", otn=renamed)
    assert (reply["variant"], reply["toggles"]) == ("lewis-1", {"watch_king": "on"})
    untagged = "\n".join(line for line in otn.splitlines() if not line.startswith(("[variant:", "[toggles:")))
    # without tags: the board's own variant before the import, when its rules are these
    reply = ask("import", otn=untagged)
    assert (reply["variant"], reply["toggles"]) == ("lewis-1", {"watch_king": "on"})
    # on a fresh board, no variant has exactly these rules with the reading on: none is named
    reply = ask("import", board="fresh", otn=untagged)
    assert (reply["variant"], reply["toggles"]) == ("", {})
    # a board that held another variant: the rules find the one variant that has them
    ask("new", board="elsewhere", variant="copenhagen")
    ask("new", board="b2", variant="brandubh")
    brandubh = "\n".join(line for line in ask("export", board="b2")["otn"].splitlines()
                         if not line.startswith("[variant:"))
    reply = ask("import", board="elsewhere", otn=brandubh)
    assert (reply["variant"], reply["toggles"], reply["rules_name"]) == ("brandubh", {}, "Brandubh")


def test_a_game_that_ends_says_who_won_and_why_in_the_requests_language():
    position = "/1t5/7/7/7/7/7/1K1t3/"  # the king on b7 beside the corner a7
    state = ask("new", board="end", variant="brandubh", position=position, turn="defenders")
    assert state["outcome"] is None and state["announcements"] == ["raichi", "check", "king threatened"]
    state = ask("play", board="end", move="b7-a7")
    assert (state["outcome"], state["announcements"], state["legal"]) == (
        {"winner": "defenders", "reason": "king reached a7", "kind": "escape"}, [], {})
    ask("new", board="end", variant="brandubh", position=position, turn="defenders", lang="cy")
    state = ask("play", board="end", move="b7-a7", lang="cy")
    assert state["outcome"] == {"winner": "defenders", "kind": "escape",
                                "reason": translate(webapi.message("king reached {square}", square="a7"), "cy")}
    assert state["outcome"]["reason"] != "king reached a7"


def test_a_replayed_move_that_cannot_be_played_says_why_in_welsh_too():
    reply = ask("new", variant="brandubh", moves=["d1-d2"], lang="cy")
    inner = translate(webapi.message("{square} is occupied", square="d2"), "cy")
    assert inner != "d2 is occupied" and reply["error"].endswith(": " + inner)
    assert ask("new", variant="brandubh", moves=["d1-d2"]) == {
        "error": "move 1 (d1-d2) cannot be replayed: d2 is occupied"}


def test_a_replayed_move_names_every_capture_the_rules_make():
    rules = tafl_rules.Rules(throne=False)
    position = "/11/11/4t6/4T6/2tT1t5/4T6/4t6/11/11/9K1/11/"  # t c5 e7 e3 f5, T d5 e6 e4, K j10
    payload = {"rules": tafl_rules.rules_to_otn(rules), "position": position, "turn": "attackers"}
    assert ask("new", **payload, moves=["f5-e5xd5"]) == {
        "error": "move 1 (f5-e5xd5) cannot be replayed: it says it captures d5, the rules capture d5, e4, e6"}


def test_the_kings_square_may_be_named_among_a_moves_captures_or_not():
    rules = tafl_rules.Rules(size=7, start="/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", escape="none", king_capture="four",
                             king_capture_against=frozenset({"edge"}))
    payload = {"rules": tafl_rules.rules_to_otn(rules), "position": "/K1t4/t6/7/6T/7/7/7/", "turn": "attackers"}
    for move in ("c1-b1", "c1-b1xa1"):
        state = ask("new", **payload, moves=[move])
        assert state["outcome"]["kind"] == "king-captured" and state["last_move"]["king_taken"] == "a1", move


def test_an_imported_game_can_be_undone_and_redone_move_by_move():
    ask("new", variant="brandubh", moves=["a4-a2", "d3-b3", "g4-g2"])
    otn = ask("export")["otn"]
    state = ask("import", board="imported", otn=otn)
    assert state["line"] == ["a4-a2", "d3-b3", "g4-g2"] and state["cursor"] == 3
    state = ask("undo", board="imported")
    assert state["line"] == ["a4-a2", "d3-b3", "g4-g2"] and state["cursor"] == 2
    state = ask("redo", board="imported")
    assert state["cursor"] == 3 and state["last_move"]["to"] == "g2"


def test_the_computers_search_is_not_cut_short_by_the_heartbeat():
    ask("new", board="search", variant="brandubh")
    reply = ask("ai_move", board="search", level=3)
    assert reply["search"]["stopped_by"] == "nodes" and reply["search"]["depth"] >= 2


def test_a_request_without_a_board_plays_on_the_main_board():
    webapi._sessions.pop("main", None)
    raw("new", json.dumps({"variant": "brandubh"}))
    assert "main" in webapi._sessions and webapi._sessions["main"].variant_id == "brandubh"
    assert raw("state", json.dumps({"board": "main"}))["variant"] == "brandubh"


def test_an_import_reads_every_reading_its_toggles_tag_names():
    ask("new", board="two-toggles", variant="lewis-1", toggles={"watch_king": "on", "king_armed": "no"})
    otn = ask("export", board="two-toggles")["otn"]
    assert "watch_king:on" in otn and "king_armed:no" in otn
    reply = ask("import", board="fresh-two-toggles", otn=otn)
    assert (reply["variant"], reply["toggles"]) == ("lewis-1", {"watch_king": "on", "king_armed": "no"})
    renamed = otn.replace("[variant:lewis-1]", f"[variant:{tafl_rules.variant('lewis-1').name.upper()}]")
    reply = ask("import", board="fresh-renamed", otn=renamed)
    assert (reply["variant"], reply["toggles"]) == ("lewis-1", {"watch_king": "on", "king_armed": "no"})
