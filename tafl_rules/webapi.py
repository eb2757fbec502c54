"""The JSON interface the browser worker calls: ``handle(type, payload_json) -> reply_json``.

Every rule question is answered here, by the engine; the page only draws the
state it is sent. A state carries the whole legal-move map of the position, so
highlighting a piece's targets needs no further round trip.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from . import __version__
from .errors import IllegalMove, NotationError, RulesError

_games: dict[str, Any] = {}
_HANDLERS: dict[str, Callable[[dict], dict]] = {}


def _handler(name: str):
    def register(function):
        _HANDLERS[name] = function
        return function
    return register


def handle(kind: str, payload_json: str = "{}") -> str:
    """Answer one request. Bad requests and illegal moves come back as ``{"error": reason}``."""
    try:
        payload = json.loads(payload_json) if payload_json else {}
        if not isinstance(payload, dict):
            raise ValueError("the payload must be a JSON object")
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise ValueError(f"unknown request type {kind!r}; known: {', '.join(sorted(_HANDLERS))}")
        reply = handler(payload)
    except IllegalMove as error:
        reply = {"error": str(error), "illegal": True}
    except (NotationError, RulesError, ValueError, KeyError) as error:
        reply = {"error": str(error).strip("'\"")}
    return json.dumps(reply)


def _game(payload: dict):
    board = str(payload.get("board", "main"))
    if board not in _games:
        raise ValueError(f"no game on board {board!r}; send 'new' first")
    return _games[board]


def _new_game(payload: dict):
    from .game import Game

    variant_id = payload.get("variant") or ""
    toggles = payload.get("toggles") or {}
    if not isinstance(toggles, dict):
        raise ValueError("toggles must be an object of name: value")
    if variant_id:
        from .catalogue import variant

        rules = variant(variant_id, **toggles).rules
    else:
        if toggles:
            raise ValueError("toggles need a variant")
        from .rules import Rules

        rules = Rules()
    game = Game(rules, position=payload.get("position") or None, turn=payload.get("turn") or None)
    for number, text in enumerate(payload.get("moves") or [], 1):
        try:
            game.play(text)
        except IllegalMove as error:
            raise ValueError(f"move {number} ({text}) cannot be replayed: {error}") from None
    return game


def special_squares(rules) -> dict[str, Any]:
    """Squares the board draws distinctly: the throne (centre), the corners, the camps
    (the attackers' starting squares), each only when the rules make it special."""
    from .game import Game

    size = rules.size
    files = "abcdefghijklmnopqrs"[:size]
    middle = size // 2
    start = Game(rules)
    return {
        "throne": f"{files[middle]}{middle + 1}" if rules.throne else None,
        "corners": [f"{f}{r}" for f in (files[0], files[-1]) for r in (1, size)] if rules.corners else [],
        "camps": sorted(f"{f}{r}" for f in files for r in range(1, size + 1)
                        if start.piece_at(f"{f}{r}") == "attacker") if rules.camps else [],
    }


def state(game) -> dict[str, Any]:
    size = game.size
    files = "abcdefghijklmnopqrs"[:size]
    symbol = {"attacker": "t", "defender": "T", "king": "K", None: "."}
    ranks = ["".join(symbol[game.piece_at(f"{f}{r}")] for f in files) for r in range(size, 0, -1)]
    outcome = game.outcome
    return {
        "size": size,
        "ranks": ranks,
        "turn": game.turn,
        "legal": game.legal_targets() if outcome is None else {},
        "moves": [_move_text(move) for move in game.moves],
        "outcome": None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason, "kind": outcome.kind},
        "announcements": list(game.announcements()) if outcome is None else [],
        "special": special_squares(game.rules),
        "position": game.position(),
    }


def _move_text(move) -> str:
    return str(move) + "".join(f"x{square}" for square in move.captures)


@_handler("hello")
def _hello(payload: dict) -> dict:
    return {"version": __version__}


@_handler("new")
def _new(payload: dict) -> dict:
    game = _new_game(payload)
    _games[str(payload.get("board", "main"))] = game
    return state(game)


@_handler("state")
def _state(payload: dict) -> dict:
    return state(_game(payload))


@_handler("play")
def _play(payload: dict) -> dict:
    game = _game(payload)
    move = game.play(str(payload.get("move", "")))
    reply = state(game)
    reply["played"] = _move_text(move)
    return reply


@_handler("undo")
def _undo(payload: dict) -> dict:
    game = _game(payload)
    if not game.moves:
        raise ValueError("there is no move to undo")
    game.undo()
    return state(game)
