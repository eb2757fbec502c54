"""The board's and the rules engine's words in Welsh (issue 40, phase 2): every message of the board's
script (``t("...")`` and ``plural(n, "...", "...")`` in ``_static/*.mjs``), of the engine (``message``,
``_`` and the refusals of ``tafl_rules``), of the rule modes (their "how to play" phrases) and of the
board drawn at build time (``tafl_sphinx.board``) has a Welsh entry, marked fuzzy, in the one
catalogue ``tafl_rules/locale/cy.po``, with the same {names} in it; and the engine answers in Welsh
when asked, in English as before when not."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tafl_rules import Game, webapi
from tafl_rules.ai import LEVELS
from tafl_rules.howto import _AGAINST, _PIECE_NAMES, how_to_play
from tafl_rules.messages import Message, catalogue, message, translate
from tafl_rules.modes import POINTS
from tafl_rules.otn import _UNSUPPORTED

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "tafl_rules" / "locale" / "cy.po"
STATIC = ROOT / "_static"
#: The Python modules whose words a board shows (the rest of the package speaks to programmers).
ENGINE_FILES = ["tafl_rules/messages.py", "tafl_rules/webapi.py", "tafl_rules/game.py", "tafl_rules/howto.py", "tafl_rules/engine/endings.py",
                "tafl_rules/modes/endings.py", "tafl_rules/modes/king.py", "docs/_ext/tafl_sphinx/board.py",
                # a record or rules string refused (OTN's notation errors, impossible rules, a start no game can have)
                "tafl_rules/otn.py", "tafl_rules/rules.py", "tafl_rules/errors.py", "tafl_rules/position.py",
                # a variant, toggle or reading the catalogue does not have (a share link's, a request's)
                "tafl_rules/catalogue.py"]
_STRING = r'"((?:[^"\\]|\\.)*)"'
_CALL = re.compile(rf"\b(?:t|failure)\(\s*{_STRING}")  # (failure: the worker's words for the page to say)
_PLURAL = re.compile(rf"\bplural\([^,()]+(?:\([^()]*\))?[^,()]*,\s*{_STRING},\s*{_STRING}\)")


def js_messages() -> dict[str, set[str]]:
    """Every message of the board's modules: {English: the files it is in}."""
    found: dict[str, set[str]] = {}
    for path in sorted(STATIC.glob("*.mjs")):
        text = path.read_text(encoding="utf-8")
        for match in _CALL.finditer(text):
            found.setdefault(json.loads(f'"{match.group(1)}"'), set()).add(path.name)
        for match in _PLURAL.finditer(text):
            for group in (1, 2):
                found.setdefault(json.loads(f'"{match.group(group)}"'), set()).add(path.name)
    return found


def test_every_word_of_the_board_script_is_a_literal_message():
    """`t` and `plural` take literal English, so that the walk above finds every message: a `t(` with
    anything else is the words module's own lookup."""
    for path in sorted(STATIC.glob("*.mjs")):
        text = re.sub(r"function (t|plural|failure)\(", "", path.read_text(encoding="utf-8"))
        calls = re.findall(r"(?<![\w.])(?:t|failure)\((?!\s*\")([^,)]*)", text)
        # (the words module's own: plural's, and the worker's failures, each a literal failure call in tafl-worker.mjs)
        allowed = {"one", "many", "payload.words.text"} if path.name == "tafl-board-words.mjs" else set()
        assert set(calls) <= allowed, f"{path.name}: t() of {set(calls) - allowed}"
        assert len(re.findall(r"(?<![\w.])plural\(", text)) == len(_PLURAL.findall(text)), f"{path.name}: a plural() not of literals"


def _literal_calls(tree: ast.AST, names: set[str]) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                out.add(first.value)
    return out


def engine_messages() -> set[str]:
    """Every message the engine and the build-time board say: literal ``message``/``_`` templates and
    refusals, the rule modes' phrases, the names the engine puts into them, and the level menu's names."""
    found: set[str] = set()
    for name in ENGINE_FILES:
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        found |= _literal_calls(tree, {"message", "_", "_message"})
        found |= _literal_calls(tree, {"BadRequest", "IllegalMove", "UnknownVariant"})
    for point in POINTS.values():
        for mode in point:
            for attribute in ("howto", "taking", "phrase", "refusal"):
                words = getattr(mode, attribute, None)
                if words:
                    found.add(words)
    found |= set(_AGAINST.values()) | set(_PIECE_NAMES.values())
    found |= {"the throne", "a corner", "the corners", "the camps", "attackers", "defenders"}
    found |= {spec.name for spec in LEVELS.values()}
    found |= set(_UNSUPPORTED.values())  # what an OTN rule tafl_rules cannot play is (otn._unsupported)
    return found


def catalogue_words() -> set[str]:
    """The words the rules sandbox shows as the catalogue sends them (``catalogueWords``): every
    variant's name, its toggles' and their readings' labels."""
    from tafl_rules.catalogue import variants
    found = set()
    for entry in variants():
        found.add(entry.name)
        for toggle in entry.toggles.values():
            found.add(toggle.label)
            found |= {reading.label for reading in toggle.readings.values()}
    return found


def welsh() -> dict[str, object]:
    with CATALOGUE.open("rb") as handle:
        return {m.id: m for m in read_po(handle) if m.id}


def _names(text: str) -> set[str]:
    return set(re.findall(r"\{(\w*)[^}]*\}", text))


@pytest.mark.parametrize("origin", ["board script", "engine", "catalogue"])
def test_every_message_has_its_welsh_marked_for_review_with_the_same_names(origin):
    wanted = {"board script": lambda: set(js_messages()), "engine": engine_messages, "catalogue": catalogue_words}[origin]()
    entries = welsh()
    missing = sorted(text for text in wanted if text not in entries or not entries[text].string)
    assert missing == [], f"{len(missing)} messages of the {origin} have no Welsh in {CATALOGUE.name}"
    for text in wanted:
        entry = entries[text]
        assert entry.fuzzy, f"not yet checked by a Welsh speaker, so fuzzy: {text!r}"
        assert _names(entry.string) == _names(text), f"the Welsh of {text!r} puts in other values: {entry.string!r}"


def test_the_catalogue_holds_no_message_nothing_says():
    said = set(js_messages()) | engine_messages() | catalogue_words()
    assert sorted(set(welsh()) - said) == []


def test_the_engines_reader_reads_the_catalogue_as_babel_does():
    entries = welsh()
    assert catalogue("cy") == {text: entry.string for text, entry in entries.items() if entry.string}


def ask(kind: str, **payload) -> dict:
    return json.loads(webapi.handle(kind, json.dumps(payload)))


def test_the_engine_answers_in_welsh_when_asked_and_in_english_as_before_when_not():
    english = ask("new", board="w", variant="brandubh")
    assert english["howto"][0][0] == "Moving" and english["howto"][0][1].startswith("The attackers move first.")
    cy = ask("new", board="w", variant="brandubh", lang="cy")
    assert [h for h, _ in cy["howto"]] == [translate(h, "cy") for h, _ in english["howto"]] != [h for h, _ in english["howto"]]
    assert {key: value for key, value in cy.items() if key != "howto"} == \
        {key: value for key, value in english.items() if key != "howto"}
    refused = ask("play", board="w", move="d1-d1", lang="cy")
    assert refused["illegal"] and refused["error"] != ask("play", board="w", move="d1-d1")["error"]
    assert "d1" in refused["error"]
    assert ask("undo", board="w", lang="cy")["error"] == translate("there is no move to undo", "cy")
    assert "lang" in ask("state", board="w", lang="xx")["error"]


def test_an_ending_is_said_in_welsh_and_the_english_is_unchanged():
    game = Game("brandubh")
    reason = message("king captured on {square} by {sides}", square="d4", sides=["d3", message("the throne")])
    assert reason == "king captured on d4 by d3, the throne"
    assert translate(reason, "cy") == "daliwyd y brenin ar d4 gan d3, yr orsedd"
    assert game.why_stuck("a1") == "there is no piece on a1"
    assert translate(game.why_stuck("a1"), "cy") == "nid oes darn ar a1"


def test_how_to_play_in_welsh_for_every_variant_leaves_no_english_phrase():
    from tafl_rules.catalogue import variants
    english_words = set(engine_messages())
    for entry in variants():
        for heading, text in how_to_play(entry.rules, "cy"):
            for phrase in english_words:
                if len(phrase) > 12 and not _names(phrase):
                    assert phrase not in text, (entry.id, phrase, text)


def test_a_message_survives_pickling_as_the_labs_workers_send_it():
    import pickle
    reason = message("{fold} repetition", fold=message("threefold"))
    again = pickle.loads(pickle.dumps(reason))
    assert isinstance(again, Message) and again == reason and translate(again, "cy") == translate(reason, "cy")


#: Records the board's import refuses, each with the English it is refused in (as before issue 40's
#: Welsh: English callers get the same text).
REFUSED_RECORDS = {
    "[rules:dim:8 start:/8/8/8/8/8/8/8/8/]\n": "size: the board must have an odd side from 7 to 19, got 8",
    "[rules:dim:7 x-throne:maybe start:/3t3/7/7/3K3/7/7/7/]\n":
        "rules: x-throne: expected true or false, got 'maybe' (at offset 22)",
    "[rules:dim:7 start:/7/7/7/7/7/7/7/]\n": "start position: there is no king (at offset 19)",
    "[rules:dim:7 ks:m start:/3t3/7/7/3K3/7/7/7/]\n":
        "rules: ks: ks:m (the middleweight king) is not supported by tafl_rules (at offset 16)",
    "[rules:dim:7 start:/3t3/7/7/3K3/7/7/7/]\n1. d7-d7 ": "turn 1 (attackers): d7-d7 is illegal: there is no piece on d7 (at offset 43)",
    "[rules:dim:7 start:/3t3/7/7/3K3/7/7/7/]\n1. d7-d6 d4-e4 d6-d5\n": "turn 1 has more than two moves (at offset 55)",
    "[rules:dim:7 start:/3t3/7/7/3K3/7/7/7/]\n1. d7-z9\n": "move 'd7-z9': expected the ending square (a letter a-s and a rank number, like e5) (at offset 46)",
    "[variant:nosuch]\n": "the record has no rules string and 'nosuch' is not a variant of the catalogue (at offset 0)",
    # start positions refused by the position reader (tafl_rules.position)
    "[rules:dim:7 start:/3t3/7/7/3K3/7/7/K6/]\n": "rules: start: there is more than one king (at offset 36)",
    "[rules:dim:7 start:/3t3/7/7/3K3/7/7/6x/]\n": "rules: start: rank 7: 'x' is not t, T, K or a digit (at offset 37)",
    "[rules:dim:7 start:/3t3/7/7/3K3/7/7/]\n": "rules: start: expected 7 ranks separated by '/', got 6 (at offset 19)",
    "[rules:dim:7 start:/3t3/7/7/3K3/7/7/8/]\n": "rules: start: rank 7 has more than 7 squares (at offset 36)",
    "[rules:dim:7 start:/3t3/7/7/3K3/7/7/3n3/]\n":
        "rules: start: 'n' (a commander or knight of OTN's berserk tafl) is not supported (at offset 37)",
}


@pytest.mark.parametrize("record", sorted(REFUSED_RECORDS))
def test_a_refused_record_is_refused_in_welsh_and_in_the_same_english_as_before(record):
    english = ask("import", board="otn", otn=record)["error"]
    assert english == REFUSED_RECORDS[record]
    cy = ask("import", board="otn", otn=record, lang="cy")["error"]
    assert cy != english
    english_words = {text for text in engine_messages() if len(text) > 12 and not _names(text)}
    english_words |= {part.strip(" :") for text in engine_messages() for part in re.split(r"\{\w*[^}]*\}", text)
                      if len(part.strip(" :")) > 12}
    assert [words for words in english_words if words in cy] == [], cy
    assert re.search(r"\(yn safle \d+\)$", cy) or "(at offset" not in english, cy


def test_an_impossible_rules_record_is_refused_in_welsh_naming_the_rule_point_as_the_code_does():
    from tafl_rules.errors import RulesError
    from tafl_rules.rules import Rules
    base = Game("brandubh").rules.to_dict()
    for change, english in (({"throne": "yes"}, "throne: expected true or false, got 'yes'"),
                            ({"king_speed": 99}, "king_speed: expected a whole number from 0 to 18, got 99"),
                            ({"throne_stop": ["queen"]}, "throne_stop: unknown piece 'queen'; pieces are attacker, defender, king")):
        with pytest.raises(RulesError) as refused:
            Rules(**{**base, **change})
        assert str(refused.value) == english
        welsh_text = translate(refused.value.args[0], "cy")
        field = next(iter(change))
        assert welsh_text.startswith(f"{field}: ") and welsh_text != english, welsh_text


#: Rules no rule mode can play (a mode's ``check``) and toggles the catalogue does not have, each
#: with the English it is refused in (as before issue 40's Welsh).
REFUSED_CHANGES = [
    ({"escape": "corner", "corners": False}, "escape: corner escape needs corners = true"),
    ({"escape": "corner", "corner_stop": []}, "corner_stop: the king must be allowed to stop on a corner when he escapes there"),
    ({"escape": "edge-except-camps", "camps": False}, "escape: edge-except-camps needs camps = true"),
    ({"escape": "edge", "edge_fort": True}, "edge_fort: an edge fort is pointless when reaching the edge already wins"),
    ({"king_capture": "linnaeus", "throne": False},
     "king_capture: the linnaeus capture is defined around the throne; it needs throne = true"),
    ({"king_capture": "none", "no_moves": "draw"}, "no_moves: with king_capture = none the attackers can only win by "
     "leaving the defenders without a move, so no_moves must be loss"),
]
REFUSED_POSITIONS = {
    "/3t3/7/7/3K3/7/7/K6/": "there is more than one king (at offset 17)",
    "/3t3/7/7/3K3/7/7/6x/": "rank 7: 'x' is not t, T, K or a digit (at offset 18)",
    "/3t3/7/7/3K3/7/7/": "expected 7 ranks separated by '/', got 6 (at offset 0)",
    "/3t3/7/7/3K3/7/7/8/": "rank 7 has more than 7 squares (at offset 17)",
    "/3t3/7/7/3K3/7/7/6/": "rank 7 has 6 squares, not 7 (at offset 18)",
    "/3t3/7/7/3K3/7/7/t0t5/": "rank 7: an empty run of 0 squares (at offset 18)",
    "/3t3/7/7/3K3/7/7/3k3/": "'k' is an attacking king in OTN, which is not supported (the king is 'K') (at offset 18)",
    "/3t3/7/7/3K3/7/7/3C3/": "'C' (a commander or knight of OTN's berserk tafl) is not supported (at offset 18)",
}
REFUSED_TOGGLES = [
    (("brandubh", {"escape": "nosuch"}), "toggles: brandubh: escape='nosuch' is not a reading; valid: corner-hostile, edge"),
    (("brandubh", {"nosuch": "x"}), "toggles: brandubh has no toggle 'nosuch'; valid: king_capture, king_armed, escape"),
    (("alea-evangelii", {"confinement": "king", "king_capture": "two"}),
     "toggles: alea-evangelii: confinement=king and king_capture=two set king_capture differently; choose one"),
]


def _refused_in_welsh(refusal, english: str, field: str = "") -> None:
    assert str(refusal) == english
    welsh_text = translate(refusal.args[0], "cy")
    assert welsh_text.startswith(f"{field}: " if field else "") and welsh_text != english, welsh_text
    problem = english.partition(": ")[2] if field else english
    # no run of English words is left (names the code reads, which stay as they are, apart)
    parts = [part.strip() for part in re.split(r"[:;,]\s|\b\w+ = \w+|\S+=\S+|'[^']*'", problem)]
    assert [part for part in parts if " " in part and len(part) > 12 and part in welsh_text] == [], welsh_text


def test_rules_no_mode_can_play_and_toggles_the_catalogue_lacks_are_refused_in_welsh_and_the_same_english():
    from tafl_rules.catalogue import variant
    from tafl_rules.errors import RulesError
    from tafl_rules.rules import Rules
    base = Game("brandubh").rules.to_dict()
    for change, english in REFUSED_CHANGES:
        with pytest.raises(RulesError) as refused:
            Rules(**{**base, **change})
        _refused_in_welsh(refused.value, english, english.partition(":")[0])
    for (vid, toggles), english in REFUSED_TOGGLES:
        with pytest.raises(RulesError) as refused:
            variant(vid, **toggles)
        _refused_in_welsh(refused.value, english, "toggles")
    from tafl_rules.errors import NotationError
    from tafl_rules.position import parse_position
    for record, english in REFUSED_POSITIONS.items():
        with pytest.raises(NotationError) as refused:
            parse_position(record, 7)
        _refused_in_welsh(refused.value, english)
