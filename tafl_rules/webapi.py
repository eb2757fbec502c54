"""The JSON interface the browser worker calls: ``handle(type, payload_json) -> reply_json``.

Every rule question is answered here, by the engine; the page only draws the
state it is sent. A state carries the whole legal-move map of the position, so
highlighting a piece's targets needs no further round trip.

Each board on a page has a :class:`Session`: its rules, the line of moves played
(including moves undone, which ``redo`` replays) and a cursor into that line.
Anything a page sends - including what it read from a share link or local
storage - is checked here before it touches a game; a refused request leaves the
session as it was.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from . import __version__
from .errors import IllegalMove, NotationError, RulesError

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_TOKEN = re.compile(r"^[A-Za-z0-9_.+-]+$")
_SQUARE = r"[a-s](?:1[0-9]|[1-9])"
_MOVE = re.compile(rf"^{_SQUARE}-{_SQUARE}(?:x{_SQUARE}(?:[/x]{_SQUARE})*)?$")
_HANDLERS: dict[str, Callable[[dict], dict]] = {}
_sessions: dict[str, "Session"] = {}


class BadRequest(ValueError):
    """A request the board should not have sent (or a share link that was tampered with)."""


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
            raise BadRequest("the payload must be a JSON object")
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise BadRequest(f"unknown request type {kind!r}; known: {', '.join(sorted(_HANDLERS))}")
        reply = handler(payload)
    except IllegalMove as error:
        reply = {"error": str(error), "illegal": True}
    except (NotationError, RulesError, ValueError) as error:
        reply = {"error": str(error)}
    return json.dumps(reply)


class Session:
    """One board's game: the rules, the line of moves and the cursor into it."""

    def __init__(self, variant_id: str, toggles: dict[str, str], rules, game) -> None:
        self.variant_id = variant_id
        self.toggles = toggles
        self.applied: dict[str, str] = {}
        self.rules = rules
        self.game = game
        self.line: list[str] = [str(move) for move in game.moves]
        start = game.copy()
        while start.moves:
            start.undo()
        self._start_counts = {kind: len(start.pieces(kind)) for kind in ("attacker", "defender")}
        self.rules_otn = rules.to_otn()

    @property
    def cursor(self) -> int:
        return len(self.game.moves)

    def play(self, text: str):
        move = self.game.play(text)
        if self.line[self.cursor - 1:self.cursor] != [str(move)]:  # a new move cuts off the redo tail
            del self.line[self.cursor - 1:]
            self.line.append(str(move))
        return move

    def goto(self, ply: int) -> None:
        if not 0 <= ply <= len(self.line):
            raise BadRequest(f"ply {ply} is outside the game (0 to {len(self.line)})")
        while self.cursor > ply:
            self.game.undo()
        while self.cursor < ply:
            self.game.play(self.line[self.cursor])

    def captured(self) -> dict[str, int]:
        """Pieces each side has taken so far (kings are not counted)."""
        lost = {kind: self._start_counts[kind] - len(self.game.pieces(kind)) for kind in self._start_counts}
        return {"attackers": lost["defender"], "defenders": lost["attacker"]}


def _session(payload: dict) -> Session:
    board = _board_id(payload)
    if board not in _sessions:
        raise BadRequest(f"no game on board {board!r}; send 'new' first")
    return _sessions[board]


def _board_id(payload: dict) -> str:
    board = payload.get("board", "main")
    if not isinstance(board, str) or not _TOKEN.match(board):
        raise BadRequest("the board id must be letters, digits, '-' or '_'")
    return board


def _checked_choice(payload: dict) -> tuple[str, dict[str, str]]:
    variant_id = payload.get("variant") or ""
    if not isinstance(variant_id, str) or (variant_id and not _ID.match(variant_id)):
        raise BadRequest("the variant must be a catalogue id (lower-case letters, digits and '-')")
    toggles = payload.get("toggles") or {}
    if not isinstance(toggles, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and _TOKEN.match(k) and _TOKEN.match(v) for k, v in toggles.items()):
        raise BadRequest("toggles must be name: value pairs of letters, digits, '-' and '_'")
    if toggles and not variant_id:
        raise BadRequest("toggles need a variant")
    return variant_id, toggles


def _checked_moves(moves: Any) -> list[str]:
    if moves is None:
        return []
    if not isinstance(moves, list) or not all(isinstance(m, str) and _MOVE.match(m) for m in moves):
        raise BadRequest("moves must be a list of moves written like d1-d4 (captures like d1-d4xd5/e4)")
    return [m.split("x")[0] for m in moves]


def _rules_for(variant_id: str, toggles: dict[str, str]):
    """The rules, and the reading in force for each of the variant's toggles."""
    if variant_id:
        from .catalogue import variant

        chosen = variant(variant_id, **toggles)
        return chosen.rules, dict(chosen.applied)
    from .rules import Rules

    return Rules(), {}


def _new_session(payload: dict) -> Session:
    from .game import Game

    variant_id, toggles = _checked_choice(payload)
    rules, applied = _rules_for(variant_id, toggles)
    position = payload.get("position") or None
    turn = payload.get("turn") or None
    if position is not None and not isinstance(position, str):
        raise BadRequest("the position must be an OTN position record")
    if turn not in (None, "attackers", "defenders"):
        raise BadRequest("turn must be attackers or defenders")
    game = Game(rules, position=position, turn=turn)
    session = Session(variant_id, toggles, rules, game)
    session.applied = applied
    moves = _checked_moves(payload.get("moves"))
    for number, text in enumerate(moves, 1):
        try:
            session.play(text)
        except IllegalMove as error:
            raise BadRequest(f"move {number} ({text}) cannot be replayed: {error}") from None
    cursor = payload.get("cursor")
    if cursor is not None:
        if not isinstance(cursor, int) or isinstance(cursor, bool):
            raise BadRequest("the cursor must be a whole number")
        session.goto(cursor)
    return session


def special_squares(rules) -> dict[str, Any]:
    """Squares the board draws distinctly, as the engine's tables define them for these rules."""
    from ._tables import tables
    from .board import iter_bits

    t = tables(rules)
    names = t.g.names

    def squares(mask: int) -> list[str]:
        return sorted((names[i] for i in iter_bits(mask)), key=lambda n: (n[0], int(n[1:])))

    return {"throne": squares(t.throne)[0] if t.throne else None, "corners": squares(t.corners), "camps": squares(t.camps)}


def _move_text(move) -> str:
    """The OTN move record: ``d1-d4``, with captures ``d1-d4xd5/e4``."""
    from .otn import format_move

    return format_move(move)


def state(session: Session) -> dict[str, Any]:
    game = session.game
    size = game.size
    files = "abcdefghijklmnopqrs"[:size]
    symbol = {"attacker": "t", "defender": "T", "king": "K", None: "."}
    ranks = ["".join(symbol[game.piece_at(f"{f}{r}")] for f in files) for r in range(size, 0, -1)]
    outcome = game.outcome
    played = game.moves
    line = [_move_text(move) for move in played] + session.line[len(played):]
    return {
        "variant": session.variant_id,
        "toggles": session.toggles,
        "applied": session.applied,
        "size": size,
        "ranks": ranks,
        "turn": game.turn,
        "legal": game.legal_targets() if outcome is None else {},
        "line": line,
        "cursor": len(played),
        "last": _move_text(played[-1]) if played else None,
        "captured": session.captured(),
        "outcome": None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason, "kind": outcome.kind},
        "announcements": list(game.announcements()) if outcome is None else [],
        "special": special_squares(session.rules),
        "rules_otn": session.rules_otn,
    }


@_handler("hello")
def _hello(payload: dict) -> dict:
    return {"version": __version__}


@_handler("catalogue")
def _catalogue(payload: dict) -> dict:
    """Every variant with its toggles, for the rules sandbox."""
    from .catalogue import variants

    return {"variants": [
        {
            "id": v.id, "name": v.name, "size": v.rules.size, "family": v.family,
            "toggles": [
                {"name": t.name, "label": t.label, "default": t.default,
                 "readings": [{"value": value, "label": reading.label} for value, reading in t.readings.items()]}
                for t in v.toggles.values()
            ],
        }
        for v in variants()
    ]}


@_handler("new")
def _new(payload: dict) -> dict:
    session = _new_session(payload)
    _sessions[_board_id(payload)] = session
    return state(session)


@_handler("state")
def _state(payload: dict) -> dict:
    return state(_session(payload))


@_handler("play")
def _play(payload: dict) -> dict:
    session = _session(payload)
    text = payload.get("move", "")
    if not isinstance(text, str):
        raise BadRequest("the move must be text such as d1-d4")
    move = session.play(text)
    reply = state(session)
    reply["played"] = _move_text(move)
    return reply


@_handler("explain")
def _explain(payload: dict) -> dict:
    """Why the piece on a square cannot be picked up now (for a click on it)."""
    session = _session(payload)
    square = payload.get("square")
    if not isinstance(square, str) or not _MOVE.match(f"{square}-{square}"):
        raise BadRequest("the square must be named like d4")
    game = session.game
    if game.outcome is not None:
        raise IllegalMove(f"the game is over: {game.outcome.reason}")
    if game.legal_targets().get(square):
        return {"reason": f"{square} can move"}
    try:
        game.play(f"{square}-{square}")
    except IllegalMove as error:
        if game.piece_at(square) is None or "turn" in str(error):
            raise
    raise IllegalMove(f"the {game.piece_at(square)} on {square} has no legal move")


@_handler("undo")
def _undo(payload: dict) -> dict:
    session = _session(payload)
    if session.cursor == 0:
        raise BadRequest("there is no move to undo")
    session.goto(session.cursor - 1)
    return state(session)


@_handler("redo")
def _redo(payload: dict) -> dict:
    session = _session(payload)
    if session.cursor >= len(session.line):
        raise BadRequest("there is no move to redo")
    session.goto(session.cursor + 1)
    return state(session)


@_handler("goto")
def _goto(payload: dict) -> dict:
    session = _session(payload)
    ply = payload.get("ply")
    if not isinstance(ply, int) or isinstance(ply, bool):
        raise BadRequest("ply must be a whole number")
    session.goto(ply)
    return state(session)


@_handler("export")
def _export(payload: dict) -> dict:
    from .otn import game_to_otn

    session = _session(payload)
    tags = {"variant": session.variant_id} if session.variant_id else {}
    return {"otn": game_to_otn(session.game, tags=tags)}


@_handler("import")
def _import(payload: dict) -> dict:
    """Replace the board's game by an OTN game record; a bad record changes nothing."""
    from .otn import game_from_otn

    board = _board_id(payload)
    text = payload.get("otn")
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("paste an OTN game record first")
    game = game_from_otn(text)
    previous = _sessions.get(board)
    variant_id = previous.variant_id if previous and previous.rules == game.rules else ""
    toggles = previous.toggles if variant_id else {}
    session = Session(variant_id, toggles, game.rules, game)
    _sessions[board] = session
    return state(session)


@_handler("ai_move")
def _ai_move(payload: dict) -> dict:
    from .ai import choose_move

    session = _session(payload)
    if session.game.outcome is not None:
        raise IllegalMove("the game is over")
    level = payload.get("level", 3)
    seed = payload.get("seed", 0)
    if not isinstance(level, int) or not isinstance(seed, int):
        raise BadRequest("level and seed must be whole numbers")
    move = choose_move(session.game.copy(), level=level, seed=seed + session.cursor)
    session.play(str(move))
    reply = state(session)
    reply["played"] = _move_text(session.game.moves[-1])
    return reply
