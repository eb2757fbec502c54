"""The messages between a board and its rules worker are written down twice, once per language:
as TypedDicts in ``tafl_rules/webapi.py`` and as JSDoc typedefs in ``_static/tafl-protocol.mjs``.
These tests check that the two agree key by key and type by type, that the TypedDicts describe
what ``webapi`` really sends, and that the board's scripts read no key the shapes do not have."""

from __future__ import annotations

import json
import re
import types
import typing
from pathlib import Path

import pytest

from tafl_rules import Game, webapi

ROOT = Path(__file__).resolve().parents[1]
PROTOCOL = ROOT / "_static" / "tafl-protocol.mjs"
SHAPES = ["LastMove", "OutcomeState", "Special", "Captured", "BoardState", "BoardNotes", "SearchInfo", "PlayedMove",
          "ErrorReply"]


def jsdoc_typedefs(text: str) -> dict[str, dict[str, tuple[str, bool]]]:
    """{typedef name: {property: (type, optional)}} from the JSDoc comments of a module."""
    found = {}
    for block in re.findall(r"/\*\*(.*?)\*/", text, re.S):
        name = re.search(r"@typedef\s+\{Object\}\s+(\w+)", block)
        if not name:
            continue
        props = {}
        for kind, prop in re.findall(r"@property\s+\{([^}]+)\}\s+(\[?\w+\]?)", block):
            optional = prop.startswith("[")
            props[prop.strip("[]")] = (kind.replace(" ", ""), optional)
        found[name.group(1)] = props
    return found


def js_type(annotation) -> str:
    """A Python annotation as the JSDoc type that says the same of its JSON."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return "|".join(js_type(a) for a in args)
    if annotation is type(None):
        return "null"
    if annotation is str:
        return "string"
    if annotation is bool:
        return "boolean"
    if annotation is int:
        return "number"
    if origin is list and typing.get_origin(args[0]) is tuple:
        return "Array<Array<string>>" if set(typing.get_args(args[0])) == {str} else "Array<Array<*>>"
    if origin is list:
        return f"{js_type(args[0])}[]"
    if origin is dict:
        return f"Object<string,{js_type(args[1])}>"
    if isinstance(annotation, type) and typing.is_typeddict(annotation):
        return annotation.__name__
    raise AssertionError(f"no JSDoc type for {annotation!r}")


def typed_dict(name: str):
    return getattr(webapi, name)


@pytest.mark.parametrize("name", SHAPES)
def test_the_jsdoc_typedef_and_the_typeddict_agree(name):
    typedefs = jsdoc_typedefs(PROTOCOL.read_text())
    assert name in typedefs, f"no @typedef {name} in {PROTOCOL.name}"
    cls = typed_dict(name)
    hints = typing.get_type_hints(cls)
    python = {key: (js_type(hint), key in cls.__optional_keys__) for key, hint in hints.items()}
    assert typedefs[name] == python


@pytest.mark.parametrize("name, parts", [("NewReply", ("BoardState", "BoardNotes")), ("PlayReply", ("BoardState", "PlayedMove"))])
def test_the_replies_are_a_board_state_and_what_each_adds(name, parts):
    combined = re.search(rf"@typedef\s+\{{(\w+)\s*&\s*(\w+)\}}\s+{name}\b", PROTOCOL.read_text())
    assert combined and combined.groups() == parts
    assert typing.get_type_hints(getattr(webapi, name)) == {**typing.get_type_hints(getattr(webapi, parts[0])),
                                                             **typing.get_type_hints(getattr(webapi, parts[1]))}


def _check(value, annotation, where: str) -> None:
    """``value`` (decoded JSON) has the shape ``annotation`` says."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        errors = []
        for option in args:
            try:
                _check(value, option, where)
                return
            except AssertionError as error:
                errors.append(str(error))
        raise AssertionError(f"{where}: {value!r} is none of {args}: {errors}")
    if annotation is type(None):
        assert value is None, where
    elif isinstance(annotation, type) and typing.is_typeddict(annotation):
        hints = typing.get_type_hints(annotation)
        assert isinstance(value, dict), where
        assert set(value) >= annotation.__required_keys__ and set(value) <= set(hints), \
            f"{where}: keys {sorted(value)} against {sorted(hints)}"
        for key, item in value.items():
            _check(item, hints[key], f"{where}.{key}")
    elif origin is list:
        assert isinstance(value, list), where
        for i, item in enumerate(value):
            _check(item, args[0], f"{where}[{i}]")
    elif origin is tuple:
        assert isinstance(value, list) and len(value) == len(args), where
        for i, (item, arg) in enumerate(zip(value, args)):
            _check(item, arg, f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), where
        for key, item in value.items():
            _check(item, args[1], f"{where}[{key!r}]")
    else:
        assert type(value) is annotation, f"{where}: {value!r} is not {annotation.__name__}"


def ask(kind, **payload):
    return json.loads(webapi.handle(kind, json.dumps({"board": "protocol", **payload})))


def test_what_webapi_sends_has_the_shapes_written_down():
    _check(ask("new", variant="tafl-granquist"), webapi.NewReply, "new (camps)")
    _check(ask("new", variant="copenhagen"), webapi.NewReply, "new")
    _check(ask("play", move="d1-d3"), webapi.PlayReply, "play")
    _check(ask("ai_move", level=1), webapi.PlayReply, "ai_move")
    _check(ask("undo"), webapi.BoardState, "undo")
    game = Game("brandubh", position="/7/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", turn="defenders")
    game.play("d5-f5")
    from tafl_rules import game_to_otn
    _check(ask("import", otn=game_to_otn(game)), webapi.NewReply, "import")
    _check(ask("play", move="e2-e4"), webapi.ErrorReply, "refused move")
    _check(ask("new", variant="nosuch"), webapi.ErrorReply, "unknown variant")


def test_the_board_scripts_read_only_keys_the_shapes_have():
    hints = {**typing.get_type_hints(webapi.BoardState), **typing.get_type_hints(webapi.BoardNotes)}
    read = set()
    for path in (ROOT / "_static").glob("tafl-*.mjs"):
        text = path.read_text()
        read |= set(re.findall(r"\b(?:state|s)\.(\w+)", text))
        for names in re.findall(r"const \{([^}]*)\} = (?:this\.)?state\b", text):
            read |= {n.split(":")[0].strip() for n in names.split(",")}
    assert read, "the scripts read no state"
    unknown = read - set(hints)
    assert unknown == set(), f"the board scripts read keys no shape has: {sorted(unknown)}"


def test_the_board_script_names_squares_with_the_packages_file_letters():
    """The board script draws square names itself (``FILES`` in tafl-board-model.mjs): the same letters
    as the package's one list, ``tafl_rules.squares.FILES``."""
    from tafl_rules.squares import FILES
    model = (ROOT / "_static" / "tafl-board-model.mjs").read_text()
    assert re.search(r'export const FILES = "([a-z]+)";', model).group(1) == FILES
