"""Fuzz inputs and checks for every public entry point (used by test_fuzz.py and by
benchmarks/fuzz_counts.py, which runs many more examples and prints the counts).

Each ``check_*`` function takes one generated input, calls the entry point, asserts the
contract (only documented error types; nothing changed by an input that was refused;
what is accepted round-trips) and returns a label for the counts: ``"accepted"`` or the
name of the documented error raised. Any other exception, or a broken contract, fails.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any, Callable

from hypothesis import strategies as st

import tafl_rules
from tafl_rules import Game, IllegalMove, Move, NotationError, Rules, RulesError, otn, svg, webapi
from tafl_rules.position import format_position, parse_position
from tafl_rules.rules import FIELDS
from tafl_rules.squares import parse_square, square_name

VARIANTS = tafl_rules.variants()
RULES_SEEDS = [otn.rules_to_otn(v.rules) for v in VARIANTS] + [
    "dim:11 atkf:n sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "dim:7 ks:n cenhe: cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
]
POSITION_SEEDS = [v.rules.start for v in VARIANTS]
MOVE_SEEDS = ["e5-e8", "e5-e8xe9", "Ke5-e1-", "Ke1-a1--", "a3-e3+", "e3-e4++", "---", "d1-d4xd5xe4",
              "e5-e8xe9/f8", "s19-a1", "Ne6^=e8xce7/ne9/f8/d8"]

#: Fragments an attacker of a parser would try: the OTN alphabet, digits other programs
#: and scripts use, control and invisible characters, markup, and very long runs.
FRAGMENTS = [
    "/", ":", " ", "\n", "[", "]", "|", "-", "x", "+", "++", "--", ".", ",", "^", "=", "t", "T", "k", "K",
    "c", "n", "C", "N", "0", "1", "7", "9", "11", "19", "20", "99", "-1", "a1", "s19", "e5", "dim:", "start:",
    "x-", "x-ply_limit:", "x-sandwich:", "[rules:", "[position:", "[turn:", "[variant:", "1.", ".....",
    "\u00b2", "\u00b3", "\u0663", "\uff13", "\x00", "\x01", "\x1b", "\ufffe", "\ud800", "\u2028", "\u202e",
    "<script>", "</title>", "&amp;", "\"", "'", "9" * 5000, "1" * 26, "/" * 200, "\u00e9", "\U0001f600",
]


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """A seed string with a few random edits: insert a fragment, delete, duplicate or swap a slice,
    change case, or cut it short."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(0, 4))):
        n = len(text)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 12)))
        edit = draw(st.sampled_from(["insert", "delete", "duplicate", "case", "cut", "replace"]))
        if edit == "insert":
            text = text[:i] + draw(st.sampled_from(FRAGMENTS)) + text[i:]
        elif edit == "delete":
            text = text[:i] + text[j:]
        elif edit == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif edit == "case":
            text = text[:i] + text[i:j].swapcase() + text[j:]
        elif edit == "cut":
            text = text[:i]
        else:
            text = text[:i] + draw(st.sampled_from(FRAGMENTS)) + text[j:]
    return text


def hostile_text() -> st.SearchStrategy[str]:
    """Any text: made of fragments, or arbitrary characters (lone surrogates included)."""
    return st.one_of(
        st.lists(st.sampled_from(FRAGMENTS), max_size=8).map("".join),
        st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=30),
    )


def not_text() -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), st.integers(), st.floats(allow_nan=True), st.booleans(), st.binary(max_size=8),
                     st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def _label(error: BaseException) -> str:
    return type(error).__name__


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a game holds: placement, turn, history with captures, hash, outcome,
    repetition counts and the engine's undo stack."""
    pos = game.engine
    return (game.position(), game.turn, game.ply, [m.otn() for m in game.moves], game.hash, game.outcome,
            dict(pos.seen), list(pos.stack), pos.left)


# ----------------------------------------------------------------------------- checks

def check_parse_rules(text: str) -> str:
    try:
        rules = otn.parse_rules(text)
    except (NotationError, RulesError) as error:
        return _label(error)
    assert otn.parse_rules(otn.rules_to_otn(rules)) == rules
    return "accepted"


def check_game_record(text: str) -> str:
    try:
        game = otn.game_from_otn(text)
    except (NotationError, RulesError) as error:
        return _label(error)
    again = otn.game_from_otn(otn.game_to_otn(game))
    assert (again.position(), again.turn, [m.otn() for m in again.moves]) == \
        (game.position(), game.turn, [m.otn() for m in game.moves])
    return "accepted"


def check_parse_move(text: str, size: int | None) -> str:
    try:
        record = otn.parse_move(text, size=size)
    except NotationError as error:
        return _label(error)
    assert otn.parse_move(otn.format_move(record), size=size) == record
    return "accepted"


def check_parse_position(text: Any, size: int) -> str:
    try:
        placement = parse_position(text, size)
    except NotationError as error:
        assert 0 <= error.offset <= max(len(error.text), 0), (error.offset, len(error.text))
        return _label(error)
    assert parse_position(format_position(*placement, size), size) == placement
    return "accepted"


def check_parse_square(name: Any, size: int) -> str:
    try:
        index = parse_square(name, size)
    except NotationError as error:
        return _label(error)
    assert square_name(index, size) == name.lower()
    return "accepted"


def check_move_parse(text: Any) -> str:
    try:
        move = Move.parse(text)
    except NotationError as error:
        return _label(error)
    assert Move.parse(move.otn()) == move and Move.parse(move.otn()).captures == move.captures
    return "accepted"


def check_format_move(move: Any, piece: Any, info: Any, captures: Any, separator: Any) -> str:
    """The move-record writer never writes what its reader refuses."""
    try:
        text = otn.format_move(move, piece=piece, info=info, captures=captures, separator=separator)
    except (NotationError, ValueError, TypeError) as error:
        return _label(error)
    record = otn.parse_move(text)
    if isinstance(move, str):
        move = otn.parse_move(move)
    if not record.resign:
        assert record.move == (move.move if isinstance(move, otn.MoveRecord) else str(move))
    return "accepted"


def check_game_rules(arg: Any) -> str:
    try:
        game = Game(arg)
    except (RulesError, TypeError) as error:
        return _label(error)
    assert game.ply == 0 and game.position() == format_position(*parse_position(game.rules.start, game.size),
                                                                  game.size)
    return "accepted"


def check_game_setup(vid: str, position: Any, turn: Any) -> str:
    try:
        game = Game(vid, position=position, turn=turn)
    except (NotationError, ValueError) as error:  # ValueError: a turn that is not a side
        return _label(error)
    game.legal_moves()
    game.legal_targets()
    game.announcements()
    again = otn.game_from_otn(otn.game_to_otn(game))
    assert again.position() == game.position() and again.turn == game.turn
    return "accepted"


def check_play(game: Game, move: Any) -> str:
    before = snapshot(game)
    try:
        played = game.play(move)
    except (IllegalMove, NotationError) as error:
        assert snapshot(game) == before, "a refused move changed the game"
        return _label(error)
    assert game.moves[-1] == played
    game.undo()
    assert snapshot(game) == before, "undo did not restore the game"
    return "accepted"


def check_rules(fields: dict[str, Any]) -> str:
    try:
        rules = Rules(**fields)
    except RulesError as error:
        return _label(error)
    assert Rules.from_dict(rules.to_dict()) == rules
    return "accepted"


def check_rules_from_dict(data: Any) -> str:
    try:
        rules = Rules.from_dict(data)
    except RulesError as error:
        return _label(error)
    assert rules.replace() == rules
    return "accepted"


def check_variant(vid: Any, toggles: dict[str, Any]) -> str:
    try:
        chosen = tafl_rules.variant(vid, **toggles)
    except RulesError as error:
        return _label(error)
    assert chosen.id == vid
    return "accepted"


def _sessions() -> dict[str, Any]:
    return {board: json.dumps(webapi.state(session), sort_keys=True) for board, session in webapi._sessions.items()}


def check_webapi(kind: Any, payload: Any) -> str:
    """``handle`` always answers JSON; a refused request changes no session."""
    if not webapi._sessions:
        webapi.handle("new", json.dumps({"board": "fuzz", "variant": "brandubh", "moves": ["d7-e7", "d5-e5"]}))
    before = _sessions()
    reply_text = webapi.handle(kind, payload)
    reply = json.loads(reply_text)
    assert isinstance(reply, dict)
    if "error" in reply:
        assert isinstance(reply["error"], str) and "could not answer" not in reply["error"], reply["error"]
        assert _sessions() == before, "a refused request changed a session"
        return "error"
    return "accepted"


def check_svg(rules: Rules, position: Any, marks: Any, highlight: Any, title: Any, svg_id: Any) -> str:
    try:
        out = svg.render_svg(rules, position, marks=marks, highlight=highlight, title=title, svg_id=svg_id)
    except (NotationError, ValueError, TypeError) as error:
        return _label(error)
    root = ET.fromstring(out)  # well-formed XML, or ParseError
    assert root.tag.endswith("svg") and not root.findall(".//{http://www.w3.org/2000/svg}script")
    return "accepted"


def check_write_record(game: Game, tags: Any, comments: Any) -> str:
    before = snapshot(game)
    try:
        text = otn.game_to_otn(game, tags=tags, comments=comments)
    except ValueError as error:
        assert snapshot(game) == before, "a refused record changed the game"
        return _label(error)
    assert snapshot(game) == before, "writing a record changed the game"
    record = otn.read_game(text)
    for key, value in tags.items():
        assert record.tags[key] == value
    assert record.comments == {ply: c for ply, c in comments.items() if c}
    return "accepted"


# ----------------------------------------------------------------------------- inputs

def _game_seeds() -> list[str]:
    out = []
    for number, v in enumerate(VARIANTS[:6]):
        game = Game(v.rules)
        game.random_playout(12, random.Random(number))
        out.append(otn.game_to_otn(game, tags={"event": "fuzz"}, comments={0: "first", 1: "a | b"}))
    return out


GAME_SEEDS = _game_seeds()
_VIDS = [v.id for v in VARIANTS]
_FIELD_VALUES = st.one_of(st.sampled_from(["king", "attacker", "edge", "corner", "yes", "none", "two", "draw", "ignore"]),
                          st.integers(-3, 30), st.booleans(), not_text(),
                          st.frozensets(st.sampled_from(["king", "attacker", "defender", "throne", "x"])),
                          st.lists(st.one_of(st.text(max_size=3), st.lists(st.text(max_size=2), max_size=1)), max_size=2),
                          mutated(POSITION_SEEDS))
_JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8),
                               st.sampled_from(["copenhagen", "brandubh", "d7-e7", "d1-d4", "main", "fuzz", "id"])),
                     lambda children: st.one_of(st.lists(children, max_size=4),
                                                st.dictionaries(st.sampled_from(
                                                    ["board", "variant", "toggles", "moves", "cursor", "position", "turn",
                                                     "move", "square", "ply", "otn", "level", "seed", "id", "first"]),
                                                    children, max_size=5)), max_leaves=12)


def _payload(value: Any) -> str:
    return json.dumps(value)


_KINDS = ["new", "play", "state", "undo", "redo", "goto", "explain", "export", "import", "catalogue", "hello"]
#: Requests the board really sends (kind, JSON text); their texts are also mutated.
REQUESTS = [(kind, json.dumps(payload)) for kind, payload in (
    ("new", {"board": "fuzz", "variant": "brandubh", "moves": ["d7-e7", "d5-e5"], "cursor": 1}),
    ("new", {"board": "fuzz", "variant": "copenhagen", "toggles": {"first": "attackers"}}),
    ("play", {"board": "fuzz", "move": "e7-e6"}), ("play", {"board": "fuzz", "move": "d1-d2"}),
    ("explain", {"board": "fuzz", "square": "d3"}), ("goto", {"board": "fuzz", "ply": 1}),
    ("undo", {"board": "fuzz"}), ("redo", {"board": "fuzz"}), ("state", {"board": "fuzz"}),
    ("export", {"board": "fuzz"}), ("new", {"board": "other", "variant": "tablut-linnaeus"}),
    ("import", {"board": "fuzz", "otn": GAME_SEEDS[0]}), ("hello", {}),
)]
REQUEST_SEEDS = [payload for _kind, payload in REQUESTS]


INPUTS: dict[str, st.SearchStrategy[tuple[Any, ...]]] = {
    "parse_rules": st.tuples(st.one_of(mutated(RULES_SEEDS), hostile_text(), not_text())),
    "game_from_otn": st.tuples(st.one_of(mutated(GAME_SEEDS), hostile_text())),
    "parse_move": st.tuples(st.one_of(mutated(MOVE_SEEDS), hostile_text(), not_text()),
                            st.sampled_from([None, 7, 11, 19])),
    "Game(position, turn)": st.tuples(st.sampled_from(_VIDS), st.one_of(st.none(), mutated(POSITION_SEEDS), not_text()),
                                      st.one_of(st.sampled_from([None, "attackers", "defenders", "white"]), not_text())),
    "Game.play": st.tuples(st.sampled_from(_VIDS), st.integers(0, 30),
                           st.one_of(st.tuples(st.just("legal"), st.integers(0, 10_000)),
                                     st.tuples(st.just("listed"), st.integers(0, 10_000)),
                                     mutated(MOVE_SEEDS), hostile_text(), not_text(),
                                     st.builds(Move, st.one_of(st.sampled_from(["a1", "d1", "e5", "z9", "", "A1", "k11"]),
                                                               not_text()),
                                               st.one_of(st.sampled_from(["a2", "d4", "e9", "a99", "s19", "d1"]),
                                                         not_text())))),
    "Rules(**fields)": st.tuples(st.dictionaries(st.sampled_from(FIELDS), _FIELD_VALUES, max_size=3)),
    "Rules.from_dict": st.tuples(st.one_of(not_text(), st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.integers(),
                                                                                  st.text(max_size=4)),
                                                                        _FIELD_VALUES, max_size=3))),
    "variant(id, **toggles)": st.tuples(st.one_of(st.sampled_from(_VIDS), hostile_text(), not_text()),
                                        st.dictionaries(st.sampled_from(["id", "first", "king_armed", "escape", "throne",
                                                                         "x", "king_capture", "confinement"]),
                                                        st.one_of(st.sampled_from(["yes", "no", "corner", "defenders",
                                                                                   "four", "x"]), not_text()),
                                                        max_size=2)),
    "webapi.handle": st.one_of(
        st.sampled_from(REQUESTS),
        st.tuples(st.sampled_from(_KINDS), mutated(REQUEST_SEEDS)),
        st.tuples(st.one_of(st.sampled_from(_KINDS), hostile_text(), not_text()),
                  st.one_of(_JSON.map(_payload), hostile_text(), not_text(),
                            st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
                            st.just("[" * 100000 + "]" * 100000),
                            st.just('{"variant": "brandubh", "toggles": {"id": "x"}}')))),
    "render_svg": st.tuples(st.sampled_from([v.rules for v in VARIANTS]), st.one_of(st.none(), mutated(POSITION_SEEDS),
                                                                                    not_text()),
                            st.one_of(st.just(()), hostile_text(), st.lists(st.one_of(st.sampled_from(["a1", "e5", "k11"]),
                                                                                       hostile_text()), max_size=3)),
                            st.one_of(st.just(()), hostile_text()),
                            st.one_of(st.none(), hostile_text(), not_text()),
                            st.one_of(st.none(), st.sampled_from(["b1", "x-y"]), hostile_text())),
    "parse_position": st.tuples(st.one_of(mutated(POSITION_SEEDS), hostile_text(), not_text()),
                                st.sampled_from([7, 9, 11, 13, 19])),
    "parse_square": st.tuples(st.one_of(st.sampled_from(["a1", "E5", "s19", "k11", "l1", "a0", "a20"]),
                                        hostile_text(), not_text()), st.sampled_from([7, 11, 19])),
    "Move.parse": st.tuples(st.one_of(mutated(MOVE_SEEDS), hostile_text(), not_text())),
    "format_move": st.tuples(
        st.one_of(mutated(MOVE_SEEDS), st.builds(Move, st.sampled_from(["a1", "d1", "z9", "", "A1", "k11", "a20"]),
                                                  st.sampled_from(["a2", "d4", "e9", "a99", "s19"])),
                  st.builds(otn.MoveRecord, st.sampled_from(["a1", "e5", "x"]), st.sampled_from(["a2", "e8", ""])),
                  not_text()),
        st.one_of(st.none(), st.sampled_from(["", "t", "T", "K", "k", "c", "KK"]), hostile_text()),
        st.one_of(st.none(), st.sampled_from(["", "+", "++", "-", "--", "---", "x"]), hostile_text()),
        st.one_of(st.none(), st.lists(st.one_of(st.sampled_from(["e9", "f8", "a0", "t19", "E5"]), hostile_text()),
                                      max_size=3)),
        st.sampled_from(["/", "x", "", "//", "|", "\n"])),
    "Game(rules)": st.tuples(st.one_of(st.sampled_from(_VIDS), st.sampled_from(VARIANTS),
                                       st.sampled_from([v.rules for v in VARIANTS]), hostile_text(), not_text())),
    "game_to_otn(tags, comments)": st.tuples(
        st.integers(0, 8),
        st.dictionaries(st.one_of(st.sampled_from(["event", "site", "variant", "rules", "turn", "position", "a"]),
                                  hostile_text()), st.one_of(st.sampled_from(["", "x", "attackers"]), hostile_text()),
                        max_size=3),
        st.dictionaries(st.integers(-2, 10), st.one_of(st.sampled_from(["", "nice", "a | b"]), hostile_text()),
                        max_size=3)),
}


def run(name: str, args: tuple[Any, ...]) -> str:
    """Call the check of entry point ``name`` on one generated input."""
    if name == "Game.play":
        vid, plies, move = args
        game = Game(vid)
        game.random_playout(plies, random.Random(plies))
        if isinstance(move, tuple):  # a legal move of the position: as text, or as listed
            listed = game.legal_moves()
            if not listed:
                return "game over"
            move = listed[move[1] % len(listed)]
            move = str(move) if args[2][0] == "legal" else move
        return check_play(game, move)
    if name == "game_to_otn(tags, comments)":
        plies, tags, comments = args
        game = Game("brandubh")
        game.random_playout(plies, random.Random(plies))
        return check_write_record(game, tags, comments)
    if name == "variant(id, **toggles)":
        return check_variant(args[0], args[1])
    return CHECKS[name](*args)


CHECKS: dict[str, Callable[..., str]] = {
    "parse_rules": check_parse_rules, "game_from_otn": check_game_record, "parse_move": check_parse_move,
    "Game(position, turn)": check_game_setup, "Game.play": check_play, "Rules(**fields)": check_rules,
    "Rules.from_dict": check_rules_from_dict, "variant(id, **toggles)": check_variant,
    "parse_position": check_parse_position, "parse_square": check_parse_square, "Move.parse": check_move_parse,
    "format_move": check_format_move, "Game(rules)": check_game_rules,
    "webapi.handle": check_webapi, "render_svg": check_svg, "game_to_otn(tags, comments)": check_write_record,
}
__all__ = ["CHECKS", "INPUTS", "hostile_text", "mutated", "not_text", "run", "snapshot"]
