"""Every reproducer of the fuzz review, pinned: bad input gets a documented error type
that names what was wrong, and changes nothing. (The property tests of test_fuzz.py
try many more inputs of each kind.)"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

import pytest

import tafl_rules as T
from fuzzing import snapshot
from tafl_rules import Game, IllegalMove, NotationError, Rules, RulesError, otn, svg, webapi
from tafl_sphinx.serve import serve_in_thread


def ask(kind, payload):
    return json.loads(webapi.handle(kind, payload if isinstance(payload, str) else json.dumps(payload)))


# --- webapi.handle answers every request, never raises ---------------------------------

def test_a_toggle_named_id_is_a_sentence_not_a_traceback():
    ask("new", {"board": "keep", "variant": "brandubh", "moves": ["d7-e7"]})
    before = ask("state", {"board": "keep"})
    reply = ask("new", {"board": "keep", "variant": "brandubh", "toggles": {"id": "x"}})
    assert reply == {"error": "toggles: brandubh has no toggle 'id'; valid: " + reply["error"].split("valid: ")[1]}
    # what the share link ?variant=brandubh&toggles=id:x sends on board 0
    reply = ask("new", {"board": "0", "variant": "brandubh", "toggles": {"id": "x"}})
    assert reply["error"].startswith("toggles: brandubh has no toggle 'id'") and "Traceback" not in reply["error"]
    assert ask("state", {"board": "keep"}) == before
    with pytest.raises(RulesError, match="no toggle 'id'"):
        T.variant("brandubh", id="x")


@pytest.mark.parametrize("payload", ["[" * 100000 + "]" * 100000, "{" * 50000, '{"a": ' * 3000 + "1" + "}" * 3000])
def test_deeply_nested_json_is_refused_in_words(payload):
    reply = ask("new", payload)
    assert "nested too deeply" in reply["error"] or "not JSON" in reply["error"]


@pytest.mark.parametrize("kind, payload, words", [
    (5, "{}", "request type must be text"),
    (["new"], "{}", "request type must be text"),
    ("new", 5, "payload must be JSON text"),
    ("new", "[1, 2]", "payload must be a JSON object"),
    ("new", "not json", "payload is not JSON"),
    ("new", '{"board": ["x"]}', "board id"),
    ("new", '{"board": "main\\n"}', "board id"),
    ("new", '{"variant": 7}', "catalogue id"),
    ("new", '{"variant": "brandubh", "toggles": ["first"]}', "toggles"),
    ("new", '{"variant": "brandubh", "toggles": {"first": 1}}', "toggles"),
    ("new", '{"variant": "brandubh", "moves": "d7-e7"}', "moves"),
    ("new", '{"variant": "brandubh", "cursor": true}', "cursor"),
    ("new", '{"variant": "brandubh", "cursor": 99}', "outside the game"),
    ("new", '{"variant": "brandubh", "position": 7}', "position"),
    ("new", '{"variant": "brandubh", "turn": "white"}', "turn"),
    ("new", '{"variant": "brandubh", "position": "/3t3/"}', "expected 7 ranks"),
    ("play", '{"board": "keep", "move": 5}', "move must be text"),
    ("play", '{"board": "keep", "move": "d1d4"}', "is not a move"),
    ("goto", '{"board": "keep", "ply": "1"}', "ply must be a whole number"),
    ("explain", '{"board": "keep", "square": "z9"}', "square must be named"),
    ("import", '{"board": "keep", "otn": 5}', "paste an OTN game record"),
    ("ai_move", '{"board": "keep", "level": true}', "level must be one of 1, 2, 3, 4, 5, 6 or 'people', got True"),
    ("frobnicate", "{}", "unknown request type"),
])
def test_wrong_types_get_an_error_reply_and_change_nothing(kind, payload, words):
    ask("new", {"board": "keep", "variant": "brandubh", "moves": ["d7-e7", "d5-e5"]})
    before = ask("state", {"board": "keep"})
    reply = json.loads(webapi.handle(kind, payload))
    assert words in reply["error"], reply
    assert ask("state", {"board": "keep"}) == before


# --- Rules(...), variant(...): RulesError naming the field ------------------------------

def test_the_start_check_is_linear_in_the_record():
    # the old check backtracked exponentially on long digit runs (26 digits: 3 s, 60: years)
    for digits in (26, 60, 4000):
        with pytest.raises(RulesError, match="start"):
            Rules(size=7, start="/".join(["1" * digits + "x"] * 7))


@pytest.mark.parametrize("call, field", [
    (lambda: Rules(start=8), "start"),
    (lambda: Rules(start=b"/7/"), "start"),
    (lambda: Rules(throne_stop=[["king"]]), "throne_stop"),
    (lambda: Rules(king_capture_against=[{}]), "king_capture_against"),
    (lambda: Rules(first=["attackers"]), "first"),
    (lambda: Rules(size="11"), "size"),
    (lambda: Rules.from_dict(5), "rules"),
    (lambda: Rules.from_dict({5: "x"}), "rules"),
    (lambda: Rules().replace(escape={"edge"}), "escape"),
    (lambda: T.variant({"a": 1}), "variant"),
    (lambda: T.variant(None), "variant"),
    (lambda: T.variant("lewis-1", first=["x"]), "toggles"),
    (lambda: T.variant("brandubh", id="x"), "toggles"),
])
def test_wrong_typed_arguments_raise_rules_error_naming_the_field(call, field):
    with pytest.raises(RulesError) as caught:
        call()
    assert caught.value.field == field


# --- parsers: NotationError, with the offset --------------------------------------------

BRANDUBH_7 = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/"


@pytest.mark.parametrize("call, offset", [
    (lambda: Game("brandubh", position=BRANDUBH_7 + "\u00b2tt\u00b3/"), 29),
    (lambda: Game("brandubh", position=BRANDUBH_7 + "9" * 5000 + "/"), 29),
    (lambda: Game("brandubh", position=BRANDUBH_7 + "\u0663t3/"), 29),
    (lambda: T.parse_rules("dim:" + "9" * 5000 + " start:/"), 4),
    (lambda: T.parse_rules("dim:7 x-ply_limit:" + "9" * 5000 + " start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"), 18),
    (lambda: T.game_from_otn("[variant:brandubh]\n" + "9" * 5000 + ". d7-e7\n"), 19),
    (lambda: T.game_from_otn("[variant:brandubh]\n\u0661. d7-e7\n"), 19),
    (lambda: otn.parse_move("e\u00b2-e5"), 0),
])
def test_odd_digits_and_huge_numbers_are_notation_errors_with_the_offset(call, offset):
    with pytest.raises(NotationError) as caught:
        call()
    assert caught.value.offset == offset
    assert len(str(caught.value)) < 200  # the message does not echo 5,000 digits


def test_an_unbounded_move_is_not_echoed_back():
    game = Game("brandubh")
    before = snapshot(game)
    with pytest.raises(NotationError) as caught:
        game.play("a" * 10**6)
    assert len(str(caught.value)) < 200
    assert snapshot(game) == before


# --- the OTN writer never writes what its reader refuses --------------------------------

@pytest.mark.parametrize("tags", [
    {"position": "x"}, {"turn": "defenders"}, {"turn": "x"}, {"turn ": "x"}, {" rules": "x"},
    {"a": "1", " a": "2"}, {"a\u2028": "1"}, {"": "x"}, {"event": "a\nb"}, {"event": "a]"}, {"event": 5},
])
def test_tags_the_reader_would_refuse_or_change_are_refused_when_writing(tags):
    game = Game("brandubh")
    game.play("d7-e7")
    with pytest.raises(ValueError, match="tag"):
        T.game_to_otn(game, tags=tags)


def test_comments_outside_the_game_are_refused_not_dropped():
    game = Game("brandubh")
    game.play("d7-e7")
    for ply in (-1, 1, 7):
        with pytest.raises(ValueError, match=f"comment on ply {ply}"):
            T.game_to_otn(game, comments={ply: "x"})
    record = T.game_to_otn(game, tags={"event": " spaced ", "site": "Caerdydd, Cymru"}, comments={0: "first"})
    read = otn.read_game(record)
    assert read.tags["event"] == " spaced " and read.comments == {0: "first"}


# --- SVG: always well-formed XML ---------------------------------------------------------

@pytest.mark.parametrize("title", ["\x01", "\x00", "\x1b", "\ufffe", "\ud800", "a\ud800b", "</title><script>", "]]>"])
def test_svg_titles_with_control_characters_give_well_formed_xml(title):
    out = svg.render_svg(T.variant("brandubh").rules, title=title)
    root = ET.fromstring(out)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.find(f"{ns}title") is not None and root.find(f".//{ns}script") is None
    out.encode("utf-8")  # no lone surrogate left


def test_svg_refuses_a_title_that_is_not_text():
    with pytest.raises(TypeError, match="title must be text"):
        svg.render_svg(T.variant("brandubh").rules, title=5)


def test_the_dev_server_answers_a_nul_in_the_path_with_404(tmp_path):
    (tmp_path / "index.html").write_text("<p>ok</p>")
    server = serve_in_thread(str(tmp_path))
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        for path in ("/%00", "/docs/%00", "/index.html%00"):
            with pytest.raises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(base + path, timeout=10)
            assert caught.value.code == 404
        assert urllib.request.urlopen(base + "/index.html", timeout=10).read() == b"<p>ok</p>"
    finally:
        server.shutdown()


# --- found in the audit of this issue -----------------------------------------------------

@pytest.mark.parametrize("payload, words", [
    ({"variant": "brandubh", "toggles": []}, "toggles must be name: value pairs"),
    ({"variant": "brandubh", "toggles": {"king_armed": "y" * 100_000}}, "at most 64"),
    ({"variant": "a" * 100_000}, "catalogue id"),
    ({"variant": "brandubh", "turn": 5}, "turn must be"),
    ({"variant": "brandubh", "turn": ["attackers"]}, "turn must be"),
    ({"variant": "brandubh", "position": 0}, "position must be"),
    ({"rules": 5}, "OTN rules string"),
])
def test_wrong_types_are_refused_even_when_python_would_call_them_empty(payload, words):
    ask("new", {"board": "keep", "variant": "brandubh", "moves": ["d7-e7"]})
    before = ask("state", {"board": "keep"})
    reply = ask("new", {"board": "keep", **payload})
    assert words in reply["error"] and len(reply["error"]) < 300, reply
    assert ask("state", {"board": "keep"}) == before


def test_the_page_s_empty_fields_mean_the_usual_start():
    # the board sends "" for a field it leaves to the rules (no rules string, the usual start)
    reply = ask("new", {"board": "empty", "variant": "brandubh", "toggles": {}, "rules": "", "position": "",
                        "turn": "", "moves": []})
    assert reply["turn"] == "attackers" and reply["cursor"] == 0
    assert reply["ranks"] == ask("new", {"board": "empty", "variant": "brandubh"})["ranks"]


def test_a_number_too_long_for_python_is_refused_in_words():
    reply = ask("goto", '{"board": "keep", "ply": ' + "9" * 5000 + "}")
    assert reply == {"error": "the payload holds a number with too many digits"}


def test_explain_says_why_without_playing_anything():
    ask("new", {"board": "why", "variant": "brandubh"})
    before = ask("state", {"board": "why"})
    assert ask("explain", {"board": "why", "square": "a1"}) == {"error": "there is no piece on a1", "illegal": True}
    assert ask("explain", {"board": "why", "square": "d4"})["error"] == "it is the attackers' turn (d4 holds a king)"
    assert ask("explain", {"board": "why", "square": "d5"}) == {
        "error": "it is the attackers' turn (d5 holds a defender)", "illegal": True}
    assert ask("explain", {"board": "why", "square": "d7"}) == {"reason": "d7 can move"}
    assert ask("explain", {"board": "why", "square": "s19"})["error"] == "s19 is off the 7x7 board"
    assert ask("state", {"board": "why"}) == before
    game = Game("brandubh", position="/1t5/7/7/3K3/7/7/7/", turn="attackers")
    assert game.why_stuck("b1") is None
    stuck = Game(Rules(size=7, start="/tT5/T6/7/3K3/7/7/6t/"), turn="attackers")  # a1 shut in, g7 free
    assert stuck.why_stuck("a1") == "the attacker on a1 has no legal move"


@pytest.mark.parametrize("text, offset, words", [
    ("e5-=E8XE9/F8", 3, "'=E8' is not a square name"),
    ("a1-a2xzz", 6, "'zz' is not a square name"),
    ("  a1-a20", 5, "'a20' is not a square name"),
    ("\u017f1-s2", 0, "is not a square name"),  # the long s is not an s
    ("a1-\u212a2", 3, "is not a square name"),  # nor the Kelvin sign a k
    ("d1d4", 0, "is not a move"),
])
def test_move_text_is_read_as_square_names_only(text, offset, words):
    with pytest.raises(NotationError, match=words) as caught:
        T.Move.parse(text)
    assert caught.value.offset == offset
    game = Game("copenhagen")
    before = snapshot(game)
    with pytest.raises(NotationError):
        game.play(text)
    assert snapshot(game) == before


@pytest.mark.parametrize("call, error, words", [
    (lambda: otn.format_move("e5-e8", captures=["zz"]), ValueError, "not a square name"),
    (lambda: otn.format_move("e5-e8", piece="Q"), ValueError, "piece must be"),
    (lambda: otn.format_move("e5-e8", captures=["e9", "f8"], separator="|"), ValueError, "separator"),
    (lambda: otn.format_move("e5-e8", info="!"), ValueError, "info must be"),
    (lambda: otn.format_move(T.Move("e5", "e8]")), ValueError, "not a square name"),
    (lambda: otn.format_move(5), TypeError, "needs a MoveRecord"),
    (lambda: otn.format_move("a99-a98"), NotationError, "a99 is not a square name"),
])
def test_the_move_writer_never_writes_what_its_reader_refuses(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.browser
def test_the_share_link_with_a_toggle_named_id_shows_a_sentence_in_the_browser(page, site_url):
    """The fuzz review's link: the page said "internal error: Traceback ..."; now the board
    refuses the link in words and starts the game instead."""
    page.goto(f"{site_url}/docs/variants/brandubh.html?board=0&variant=brandubh&toggles=id:x")
    board = page.locator(".tafl-board").first
    page.wait_for_selector('.tafl-board[data-ready="true"]', timeout=90_000)
    text = board.inner_text()
    assert "The share link was refused: toggles: brandubh has no toggle 'id'" in text
    assert "Traceback" not in page.content() and "internal error" not in text
    assert board.locator(".tafl-turn").text_content() == "Attackers to move"
