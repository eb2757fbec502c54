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

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "tafl_rules" / "locale" / "cy.po"
STATIC = ROOT / "_static"
#: The Python modules whose words a board shows (the rest of the package speaks to programmers).
ENGINE_FILES = ["tafl_rules/messages.py", "tafl_rules/webapi.py", "tafl_rules/game.py", "tafl_rules/howto.py", "tafl_rules/engine/endings.py",
                "tafl_rules/modes/endings.py", "tafl_rules/modes/king.py", "docs/_ext/tafl_sphinx/board.py"]
_STRING = r'"((?:[^"\\]|\\.)*)"'
_CALL = re.compile(rf"\bt\(\s*{_STRING}")
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
        text = re.sub(r"function (t|plural)\(", "", path.read_text(encoding="utf-8"))
        calls = re.findall(r"(?<![\w.])t\((?!\s*\")([^,)]*)", text)
        allowed = {"one", "many"} if path.name == "tafl-board-words.mjs" else set()
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
        found |= _literal_calls(tree, {"message", "_"})
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
    return found


def welsh() -> dict[str, object]:
    with CATALOGUE.open("rb") as handle:
        return {m.id: m for m in read_po(handle) if m.id}


def _names(text: str) -> set[str]:
    return set(re.findall(r"\{(\w*)[^}]*\}", text))


@pytest.mark.parametrize("origin", ["board script", "engine"])
def test_every_message_has_its_welsh_marked_for_review_with_the_same_names(origin):
    wanted = set(js_messages()) if origin == "board script" else engine_messages()
    entries = welsh()
    missing = sorted(text for text in wanted if text not in entries or not entries[text].string)
    assert missing == [], f"{len(missing)} messages of the {origin} have no Welsh in {CATALOGUE.name}"
    for text in wanted:
        entry = entries[text]
        assert entry.fuzzy, f"not yet checked by a Welsh speaker, so fuzzy: {text!r}"
        assert _names(entry.string) == _names(text), f"the Welsh of {text!r} puts in other values: {entry.string!r}"


def test_the_catalogue_holds_no_message_nothing_says():
    said = set(js_messages()) | engine_messages()
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
