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

from ._version import __version__
from .ai import DEFAULT_LEVEL, LEVELS, analyse
from .catalogue import variant, variants
from .engine import tables
from .errors import IllegalMove, NotationError, RulesError
from .game import Game, Move
from .howto import announced_terms, how_to_play
from .otn import format_move, game_from_otn, game_to_otn, parse_rules, rules_to_otn
from .rules import Rules
from .squares import SQUARE_PATTERN, iter_bits

_ID = re.compile(r"(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*", re.ASCII)
_TOKEN = re.compile(r"[A-Za-z0-9_.+-]{1,64}", re.ASCII)
_SQUARE = re.compile(SQUARE_PATTERN)
_MOVE = re.compile(rf"{SQUARE_PATTERN}-{SQUARE_PATTERN}(?:x{SQUARE_PATTERN}(?:[/x]{SQUARE_PATTERN})*)?")
Handler = Callable[[dict[str, Any]], dict[str, Any]]
_HANDLERS: dict[str, Handler] = {}
_sessions: dict[str, "Session"] = {}


class BadRequest(ValueError):
    """A request the board should not have sent (or a share link that was tampered with)."""


def _handler(name: str) -> Callable[[Handler], Handler]:
    def register(function: Handler) -> Handler:
        _HANDLERS[name] = function
        return function
    return register


def handle(kind: str, payload_json: str = "{}") -> str:
    """Answer one request; never raises. Bad requests and illegal moves come back as
    ``{"error": reason}`` (with ``"illegal": true`` for a move the rules refuse), and
    a refused request leaves every session as it was."""
    try:
        reply = _answer(kind, payload_json)
    except IllegalMove as error:
        reply = {"error": str(error), "illegal": True}
    except (NotationError, RulesError, ValueError) as error:
        reply = {"error": str(error)}
    except Exception as error:  # noqa: BLE001 - the contract: always a reply, never a traceback
        reply = {"error": f"the rules engine could not answer this request ({type(error).__name__}: {error})"}
    return json.dumps(reply)


def _answer(kind: str, payload_json: str) -> dict[str, Any]:
    if not isinstance(kind, str):
        raise BadRequest("the request type must be text")
    if not isinstance(payload_json, str):
        raise BadRequest("the payload must be JSON text")
    try:
        payload = json.loads(payload_json) if payload_json else {}
    except RecursionError:
        raise BadRequest("the payload is nested too deeply") from None
    except ValueError as error:
        if "integer string conversion" in str(error):  # Python's limit of 4,300 digits
            raise BadRequest("the payload holds a number with too many digits") from None
        raise BadRequest(f"the payload is not JSON: {error}") from None
    if not isinstance(payload, dict):
        raise BadRequest("the payload must be a JSON object")
    handler = _HANDLERS.get(kind)
    if handler is None:
        shown = kind if len(kind) <= 40 else kind[:40] + "..."
        raise BadRequest(f"unknown request type {shown!r}; known: {', '.join(sorted(_HANDLERS))}")
    return handler(payload)


class Session:
    """One board's game: the rules, the line of moves and the cursor into it.

    ``line`` holds every move of the line as ``"d1-d4"`` (the moves after the cursor
    were undone and can be redone); ``records`` the OTN record (with captures) of each
    move played so far. Playing, undoing and redoing one move costs the same however
    long the game is.
    """

    def __init__(self, variant_id: str, toggles: dict[str, str], rules: Rules, game: Game) -> None:
        self.variant_id = variant_id
        self.toggles = toggles
        self.applied: dict[str, str] = {}
        self.rules = rules
        self.game = game
        played = game.moves
        self.line: list[str] = [str(move) for move in played]
        self.records: list[str] = [format_move(move) for move in played]
        attackers, defenders = game.engine.start_counts()
        self._start_counts = {"attacker": attackers, "defender": defenders}
        self.rules_otn = rules_to_otn(rules)

    @property
    def cursor(self) -> int:
        return self.game.ply

    def play(self, text: str) -> Move:
        move = self.game.play(text)
        cursor = self.cursor
        self.records.append(format_move(move))
        if self.line[cursor - 1:cursor] != [str(move)]:  # a new move cuts off the redo tail
            del self.line[cursor - 1:]
            self.line.append(str(move))
        return move

    def goto(self, ply: int) -> None:
        if not 0 <= ply <= len(self.line):
            raise BadRequest(f"ply {ply} is outside the game (0 to {len(self.line)})")
        while self.cursor > ply:
            self.game.undo()
            self.records.pop()
        while self.cursor < ply:
            self.records.append(format_move(self.game.play(self.line[self.cursor])))

    def captured(self) -> dict[str, int]:
        """Pieces each side has taken so far (kings are not counted)."""
        pos = self.game.engine
        return {"attackers": self._start_counts["defender"] - pos.d.bit_count(),
                "defenders": self._start_counts["attacker"] - pos.a.bit_count()}


def _session(payload: dict[str, Any]) -> Session:
    board = _board_id(payload)
    if board not in _sessions:
        raise BadRequest(f"no game on board {board!r}; send 'new' first")
    return _sessions[board]


def _board_id(payload: dict[str, Any]) -> str:
    board = payload.get("board", "main")
    if not isinstance(board, str) or not _TOKEN.fullmatch(board):
        raise BadRequest("the board id must be letters, digits, '-' or '_'")
    return board


def _checked_choice(payload: dict[str, Any]) -> tuple[str, dict[str, str]]:
    variant_id = payload.get("variant", "")
    if variant_id is None:
        variant_id = ""
    if not isinstance(variant_id, str) or (variant_id and not _ID.fullmatch(variant_id)):
        raise BadRequest("the variant must be a catalogue id (lower-case letters, digits and '-')")
    toggles = payload.get("toggles")
    if toggles is None:
        toggles = {}
    if not isinstance(toggles, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and _TOKEN.fullmatch(k) and _TOKEN.fullmatch(v)
            for k, v in toggles.items()):
        raise BadRequest("toggles must be name: value pairs of letters, digits, '-' and '_' (at most 64 each)")
    if toggles and not variant_id:
        raise BadRequest("toggles need a variant")
    return variant_id, toggles


def _checked_moves(moves: Any) -> list[str]:
    if moves is None:
        return []
    if not isinstance(moves, list) or not all(isinstance(m, str) and _MOVE.fullmatch(m) for m in moves):
        raise BadRequest("moves must be a list of moves written like d1-d4 (captures like d1-d4xd5/e4)")
    return [m.split("x")[0] for m in moves]


def _rules_for(variant_id: str, toggles: dict[str, str]) -> tuple[Rules, dict[str, str]]:
    """The rules, and the reading in force for each of the variant's toggles."""
    if variant_id:
        chosen = variant(variant_id, **toggles)
        return chosen.rules, dict(chosen.applied)
    return Rules(), {}


def _rules_from_otn(payload: dict[str, Any], variant_id: str) -> tuple[Rules, dict[str, str]]:
    """Rules sent as an OTN rules string (a game saved or shared after an import)."""
    text = payload["rules"]
    if not isinstance(text, str):
        raise BadRequest("the rules must be an OTN rules string")
    if variant_id:
        raise BadRequest("send either a variant or an OTN rules string, not both")
    return parse_rules(text), {}


def _new_session(payload: dict[str, Any]) -> Session:
    variant_id, toggles = _checked_choice(payload)
    # the page sends "" for a field it leaves to the rules (no rules string, the usual start)
    rules, applied = (_rules_from_otn(payload, variant_id) if payload.get("rules") not in (None, "")
                      else _rules_for(variant_id, toggles))
    position = payload.get("position")
    turn = payload.get("turn")
    if position is not None and not isinstance(position, str):
        raise BadRequest("the position must be an OTN position record")
    if turn is not None and (not isinstance(turn, str) or turn not in ("", "attackers", "defenders")):
        raise BadRequest("turn must be attackers or defenders")
    position, turn = position or None, turn or None
    game = Game(rules, position=position, turn=turn)
    session = Session(variant_id, toggles, rules, game)
    session.applied = applied
    moves = _checked_moves(payload.get("moves"))
    for number, text in enumerate(moves, 1):
        try:
            session.play(text)
        except (IllegalMove, NotationError) as error:
            raise BadRequest(f"move {number} ({text}) cannot be replayed: {error}") from None
    cursor = payload.get("cursor")
    if cursor is not None:
        if not isinstance(cursor, int) or isinstance(cursor, bool):
            raise BadRequest("the cursor must be a whole number")
        session.goto(cursor)
    return session


def special_squares(rules: Rules) -> dict[str, Any]:
    """Squares the board draws distinctly, as the engine's tables define them for these rules."""
    t = tables(rules)
    names = t.g.names

    def squares(mask: int) -> list[str]:
        return sorted((names[i] for i in iter_bits(mask)), key=lambda n: (n[0], int(n[1:])))

    return {"throne": squares(t.throne)[0] if t.throne else None, "corners": squares(t.corners),
            "camps": squares(t.camps)}


def _move_parts(move: Move) -> dict[str, Any]:
    """A move as the board draws it: ``{"from": "d1", "to": "d4", "captures": ["d5"]}``."""
    return {"from": move.from_square, "to": move.to_square, "captures": list(move.captures)}


def board_notes(session: Session) -> dict[str, Any]:
    """What the box beside a board shows for these rules: how to play, which announcement words
    ("raichi", "tuichi") the rules use (see :mod:`tafl_rules.howto`), and the variant's name."""
    chosen = variant(session.variant_id, **session.toggles) if session.variant_id else None
    return {"howto": how_to_play(session.rules), "terms": announced_terms(session.rules, chosen),
            "variant_name": chosen.name if chosen else ""}


def state(session: Session) -> dict[str, Any]:
    game = session.game
    pos = game.engine
    size = game.size
    symbol = "tTK"
    ranks = ["".join(symbol[kind] if (kind := pos.kind_at(rank * size + file)) >= 0 else "."
                     for file in range(size)) for rank in range(size - 1, -1, -1)]
    outcome = game.outcome
    records = session.records
    return {
        "variant": session.variant_id,
        "toggles": session.toggles,
        "applied": session.applied,
        "size": size,
        "ranks": ranks,
        "turn": game.turn,
        "legal": game.legal_targets() if outcome is None else {},
        "line": records + session.line[len(records):],
        "cursor": len(records),
        "last": records[-1] if records else None,
        "last_move": _move_parts(last) if (last := game.peek()) is not None else None,
        "captured": session.captured(),
        "outcome": None if outcome is None else {"winner": outcome.winner, "reason": outcome.reason,
                                                 "kind": str(outcome.kind)},
        "announcements": list(game.announcements()) if outcome is None else [],
        "special": special_squares(session.rules),
        "rules_otn": session.rules_otn,
    }


@_handler("hello")
def _hello(payload: dict[str, Any]) -> dict[str, Any]:
    return {"version": __version__}


@_handler("catalogue")
def _catalogue(payload: dict[str, Any]) -> dict[str, Any]:
    """Every variant with its toggles, for the rules sandbox."""
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
def _new(payload: dict[str, Any]) -> dict[str, Any]:
    session = _new_session(payload)
    _sessions[_board_id(payload)] = session
    return {**state(session), **board_notes(session)}


@_handler("state")
def _state(payload: dict[str, Any]) -> dict[str, Any]:
    return state(_session(payload))


@_handler("play")
def _play(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    text = payload.get("move", "")
    if not isinstance(text, str):
        raise BadRequest("the move must be text such as d1-d4")
    move = session.play(text)
    reply = state(session)
    reply["played"] = format_move(move)
    return reply


@_handler("explain")
def _explain(payload: dict[str, Any]) -> dict[str, Any]:
    """Why the piece on a square cannot be picked up now (for a click on it)."""
    session = _session(payload)
    square = payload.get("square")
    if not isinstance(square, str) or not _SQUARE.fullmatch(square):
        raise BadRequest("the square must be named like d4")
    reason = session.game.why_stuck(square)
    if reason is None:
        return {"reason": f"{square} can move"}
    raise IllegalMove(reason)


@_handler("undo")
def _undo(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    if session.cursor == 0:
        raise BadRequest("there is no move to undo")
    session.goto(session.cursor - 1)
    return state(session)


@_handler("redo")
def _redo(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    if session.cursor >= len(session.line):
        raise BadRequest("there is no move to redo")
    session.goto(session.cursor + 1)
    return state(session)


@_handler("goto")
def _goto(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    ply = payload.get("ply")
    if not isinstance(ply, int) or isinstance(ply, bool):
        raise BadRequest("ply must be a whole number")
    session.goto(ply)
    return state(session)


@_handler("export")
def _export(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    tags = {"variant": session.variant_id} if session.variant_id else {}
    return {"otn": game_to_otn(session.game, tags=tags)}


@_handler("import")
def _import(payload: dict[str, Any]) -> dict[str, Any]:
    """Replace the board's game by an OTN game record; a bad record changes nothing."""
    board = _board_id(payload)
    text = payload.get("otn")
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("paste an OTN game record first")
    game = game_from_otn(text)
    previous = _sessions.get(board)
    variant_id = previous.variant_id if previous and previous.rules == game.rules else ""
    toggles = previous.toggles if previous and variant_id else {}
    session = Session(variant_id, toggles, game.rules, game)
    _sessions[board] = session
    return {**state(session), **board_notes(session)}


_heartbeat: Callable[[], Any] | None = None


def set_heartbeat(callback: Callable[[], Any] | None) -> None:
    """Have long requests (the computer's search) call ``callback`` now and then, so the page
    can tell a busy worker from a dead one. The callback's answer is ignored."""
    global _heartbeat
    _heartbeat = callback


def _progress() -> bool:
    if _heartbeat is not None:
        _heartbeat()
    return False


@_handler("ai_move")
def _ai_move(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    if session.game.outcome is not None:
        raise IllegalMove("the game is over")
    level = payload.get("level", DEFAULT_LEVEL)
    seed = payload.get("seed", 0)
    if not isinstance(level, int) or not isinstance(seed, int) or isinstance(level, bool) or isinstance(seed, bool):
        raise BadRequest("level and seed must be whole numbers")
    if level not in LEVELS:
        raise BadRequest(f"level must be one of {', '.join(map(str, LEVELS))}")
    result = analyse(session.game.copy(), level=level, seed=seed + session.cursor, stop=_progress)
    played = session.play(str(result.move))
    reply = state(session)
    reply["played"] = format_move(played)
    # "time": the time cap ended the search, so this move may differ on a faster machine
    reply["search"] = {"depth": result.depth, "nodes": result.nodes, "stopped_by": result.stopped_by}
    return reply
