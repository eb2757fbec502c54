"""The JSON interface the browser worker calls: ``handle(type, payload_json) -> reply_json``.

Every rule question is answered here, by the engine; the page only draws the
state it is sent. A state carries the whole legal-move map of the position, so
highlighting a piece's targets needs no further round trip.

Each board on a page has a :class:`Session`: its rules, the line of moves played
(including moves undone, which ``redo`` replays) and a cursor into that line.
Anything a page sends - including what it read from a share link or local
storage - is checked here before it touches a game; a refused request leaves the
session as it was.

The shapes of the replies the board reads are written down once here, as
``TypedDict`` classes (:class:`BoardState` and the ones it holds), and once for the
page, as JSDoc typedefs in ``_static/tafl-protocol.mjs``; a test checks that the two
agree key by key and type by type.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, TypedDict, Union

from ._version import __version__
from .ai import DEFAULT_LEVEL, LEVELS, analyse
from .ai.people import NAME as PEOPLE, STYLE as PEOPLE_STYLE, people_move
from .catalogue import variant, variants
from .engine import tables
from .errors import IllegalMove, NotationError, RulesError
from .game import Game, Move
from .howto import announced_terms, how_to_play
from .messages import LANGUAGES, message, translate
from .otn import format_move, game_to_otn, parse_move, parse_rules, read_game, rules_to_otn
from .position import format_position
from .rules import Rules
from .squares import SQUARE_PATTERN, iter_bits

_ID = re.compile(r"(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*", re.ASCII)
_TOKEN = re.compile(r"[A-Za-z0-9_.+-]{1,64}", re.ASCII)
_SQUARE = re.compile(SQUARE_PATTERN)
_MOVE = re.compile(rf"{SQUARE_PATTERN}-{SQUARE_PATTERN}(?:x{SQUARE_PATTERN}(?:[/x]{SQUARE_PATTERN})*)?")
Handler = Callable[[dict[str, Any]], dict[str, Any]]
_HANDLERS: dict[str, Handler] = {}
_sessions: dict[str, "Session"] = {}
#: The language of the request being answered (its ``lang``; "" for English): the words of its reply,
#: a refusal's reason, an ending's and the "how to play" box's, are in it (:mod:`tafl_rules.messages`).
_lang = ""

#: The most moves a board keeps in one game, and so the most a request, a share link, a saved
#: game or an imported record may carry (a longer one is refused by name; 10,000 moves open in
#: about 0.1 s in CPython, a few times that in the browser's Pyodide). The share-link reader
#: (``_static/tafl-board-store.mjs``) says so before it asks; a test holds its copy to this one.
MAX_MOVES = 10_000

#: The site build this copy of the package was loaded for. The site's Pyodide snapshot sets it
#: (``docs/_ext/tafl_sphinx/snapshot.mjs``), so that a page can tell a snapshot of its own build
#: from one left by another; empty in CPython and in a Python started without the snapshot.
BUILD = ""


class BadRequest(ValueError):
    """A request the board should not have sent (or a share link that was tampered with)."""


class UnknownVariant(BadRequest):
    """A variant id that is not in the catalogue (the reply says so, so the page can link its list)."""


# ---------------------------------------------------------------- the shapes of the replies

LastMove = TypedDict("LastMove", {"from": str, "to": str, "captures": list[str], "king_taken": Union[str, None]})
LastMove.__doc__ = """The last move as the board draws it; ``king_taken`` is the king's square when this move took him."""


class OutcomeState(TypedDict):
    """How the game ended: ``winner`` is None for a draw; ``kind`` an :class:`~tafl_rules.outcome.Termination` value."""

    winner: Union[str, None]
    reason: str
    kind: str


class Special(TypedDict):
    """Squares the board draws distinctly."""

    throne: Union[str, None]
    corners: list[str]
    camps: list[str]


class Captured(TypedDict):
    """Pieces each side has taken so far (the king is not counted)."""

    attackers: int
    defenders: int


class BoardState(TypedDict):
    """What every game-changing request answers: the whole state a board draws.

    ``ranks`` run from the top rank down (OTN position records run the other way);
    ``start_position`` is the OTN position the game started from, or "" for the rules' own
    start; ``start_turn`` the side that moved first, or "" when that is the rules' own first
    side (so both are "" for a game as the rules set it out); ``line`` every move of the line as
    records with their captures (those after ``cursor`` were undone and can be redone).
    """

    variant: str
    toggles: dict[str, str]
    applied: dict[str, str]
    size: int
    ranks: list[str]
    turn: str
    start_position: str
    start_turn: str
    legal: dict[str, list[str]]
    line: list[str]
    cursor: int
    last_move: Union[LastMove, None]
    captured: Captured
    outcome: Union[OutcomeState, None]
    announcements: list[str]
    special: Special
    rules_otn: str


class BoardNotes(TypedDict):
    """What ``new`` and ``import`` add: how to play these rules, the announcement words they use,
    the variant's name, and ``rules_name``, the catalogue variant whose rules these are (also when
    the game starts from another position), or ""."""

    howto: list[tuple[str, str]]
    terms: list[str]
    variant_name: str
    rules_name: str


class NewReply(BoardState, BoardNotes):
    """The reply to ``new`` and ``import``."""


class SearchInfo(TypedDict):
    """How the computer's search went: ``stopped_by`` "time" when its time cap ended it."""

    depth: int
    nodes: int
    stopped_by: str


class _SearchField(TypedDict, total=False):
    search: SearchInfo


class PlayedMove(_SearchField):
    """What ``play`` and ``ai_move`` add to the state: the move as an OTN record (and, for the
    computer's move, how its search went)."""

    played: str


class PlayReply(BoardState, PlayedMove):
    """The reply to ``play`` and ``ai_move``."""


class _ErrorFlags(TypedDict, total=False):
    illegal: bool
    unknown_variant: bool


class ErrorReply(_ErrorFlags):
    """A refused request: ``illegal`` for a move the rules refuse, ``unknown_variant`` for an id
    the catalogue does not have."""

    error: str


def _handler(name: str) -> Callable[[Handler], Handler]:
    def register(function: Handler) -> Handler:
        _HANDLERS[name] = function
        return function
    return register


def handle(kind: str, payload_json: str = "{}") -> str:
    """Answer one request; never raises. Bad requests and illegal moves come back as
    ``{"error": reason}`` (with ``"illegal": true`` for a move the rules refuse), and
    a refused request leaves every session as it was. A request with ``"lang": "cy"`` is
    answered in Welsh (its refusals, endings and "how to play" words)."""
    global _lang
    _lang = ""
    reply: Any
    try:
        reply = _answer(kind, payload_json)
    except IllegalMove as error:
        reply = {"error": _reason(error), "illegal": True}
    except UnknownVariant as error:
        reply = {"error": _reason(error), "unknown_variant": True}
    except (NotationError, RulesError, ValueError) as error:
        reply = {"error": _reason(error)}
    except Exception as error:  # noqa: BLE001 - the contract: always a reply, never a traceback
        reply = {"error": translate(message("the rules engine could not answer this request ({kind}: {error})",
                                            kind=type(error).__name__, error=str(error)), _lang)}
    return json.dumps(reply)


def _reason(error: Exception) -> str:
    """An error's words in the request's language (the English of ``str(error)`` as it is)."""
    said = error.args[0] if len(error.args) == 1 and isinstance(error.args[0], str) else None
    return str(error) if not _lang or said is None else translate(said, _lang)


def _language(payload: dict[str, Any]) -> str:
    lang = payload.get("lang", "")
    if lang in ("", "en") or lang in LANGUAGES:
        return "" if lang == "en" else str(lang)
    raise BadRequest(message("lang must be one of {known}, got {lang}", known=", ".join(("en",) + LANGUAGES),
                             lang=_shown(repr(lang))))


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
        raise BadRequest(message("the payload is not JSON: {error}", error=str(error))) from None
    if not isinstance(payload, dict):
        raise BadRequest("the payload must be a JSON object")
    global _lang
    _lang = _language(payload)
    handler = _HANDLERS.get(kind)
    if handler is None:
        shown = kind if len(kind) <= 40 else kind[:40] + "..."
        raise BadRequest(message("unknown request type {kind}; known: {known}", kind=repr(shown), known=", ".join(sorted(_HANDLERS))))
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
        attackers, defenders, king, first_side_index = game.engine.start()
        self._start_counts = {"attacker": attackers.bit_count(), "defender": defenders.bit_count()}
        start = format_position(attackers, defenders, king, game.size)
        #: the position the game started from ("" when it is the rules' own start) and the side that moved first
        self.start_position = "" if start == Game(rules).position() else start
        first_side = ("attackers", "defenders")[first_side_index]
        self.start_turn = "" if first_side == rules.first else first_side
        self.rules_otn = rules_to_otn(rules)

    def starts_as_the_rules_do(self) -> bool:
        """Whether the game started from the rules' own position, with the rules' own first side."""
        return not self.start_position and not self.start_turn

    @property
    def cursor(self) -> int:
        return self.game.ply

    def play(self, text: str) -> Move:
        if self.cursor >= MAX_MOVES:
            raise BadRequest(message("a board keeps games of at most {most:,} moves", most=MAX_MOVES))
        move = self.game.play(text)
        cursor = self.cursor
        self.records.append(format_move(move))
        if self.line[cursor - 1:cursor] != [str(move)]:  # a new move cuts off the redo tail
            del self.line[cursor - 1:]
            self.line.append(str(move))
        return move

    def goto(self, ply: int) -> None:
        if not 0 <= ply <= len(self.line):
            raise BadRequest(message("ply {ply} is outside the game (0 to {last})", ply=ply, last=len(self.line)))
        while self.cursor > ply:
            self.game.undo()
            self.records.pop()
        while self.cursor < ply:
            self.records.append(format_move(self.game.play(self.line[self.cursor])))

    def captured(self) -> Captured:
        """Pieces each side has taken so far (kings are not counted)."""
        pos = self.game.engine
        return {"attackers": self._start_counts["defender"] - pos.d.bit_count(),
                "defenders": self._start_counts["attacker"] - pos.a.bit_count()}


def _session(payload: dict[str, Any]) -> Session:
    board = _board_id(payload)
    if board not in _sessions:
        raise BadRequest(message("no game on board {board}; send 'new' first", board=repr(board)))
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


def _shown(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _checked_moves(moves: Any) -> list[str]:
    """The moves of a ``new`` request, each checked for its form; a bad entry is named by its
    number and its text."""
    if moves is None:
        return []
    if not isinstance(moves, list):
        raise BadRequest("moves must be a list of moves written like d1-d4 (captures like d1-d4xd5/e4)")
    if len(moves) > MAX_MOVES:
        raise BadRequest(message("the game has {count:,} moves; a board keeps at most {most:,}", count=len(moves), most=MAX_MOVES))
    for number, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise BadRequest(message("move {number} is not text but {kind}", number=number, kind=type(move).__name__))
        if not _MOVE.fullmatch(move):
            raise BadRequest(message("move {number} ({move}) is not written like d1-d4 (captures like d1-d4xd5/e4)",
                                     number=number, move=_shown(move)))
    return moves


def _replay(session: Session, number: int, text: str) -> None:
    """Play move ``number`` of a request; captures it names must be the ones the rules make
    (the king's square may be named or not, as in an OTN record)."""
    king = session.game.king_square()
    try:
        move = session.play(text.split("x")[0])
    except (IllegalMove, NotationError) as error:
        raise BadRequest(message("move {number} ({move}) cannot be replayed: {error}", number=number, move=text,
                                 error=error.args[0] if len(error.args) == 1 else str(error))) from None
    if "x" not in text:
        return
    written, made = set(parse_move(text).captures), set(move.captures)
    if (written ^ made) - {king}:
        raise BadRequest(message("move {number} ({move}) cannot be replayed: it says it captures {written}, the rules capture {made}",
                                 number=number, move=text, written=", ".join(sorted(written)),
                                 made=", ".join(sorted(made)) or message("nothing")))


def _rules_for(variant_id: str, toggles: dict[str, str]) -> tuple[Rules, dict[str, str]]:
    """The rules, and the reading in force for each of the variant's toggles."""
    if variant_id:
        if variant_id not in _variant_ids():
            raise UnknownVariant(message("no variant {variant}", variant=repr(variant_id)))
        chosen = variant(variant_id, **toggles)
        return chosen.rules, dict(chosen.applied)
    return Rules(), {}


def _variant_ids() -> set[str]:
    return {v.id for v in variants()}


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
    for number, text in enumerate(_checked_moves(payload.get("moves")), 1):
        _replay(session, number, text)
    cursor = payload.get("cursor")
    if cursor is not None:
        if not isinstance(cursor, int) or isinstance(cursor, bool):
            raise BadRequest("the cursor must be a whole number")
        session.goto(cursor)
    return session


def special_squares(rules: Rules) -> Special:
    """Squares the board draws distinctly, as the engine's tables define them for these rules."""
    t = tables(rules)
    names = t.g.names

    def squares(mask: int) -> list[str]:
        return sorted((names[i] for i in iter_bits(mask)), key=lambda n: (n[0], int(n[1:])))

    return {"throne": squares(t.throne)[0] if t.throne else None, "corners": squares(t.corners),
            "camps": squares(t.camps)}


def _last_move(game: Game) -> LastMove | None:
    """The last move as the board draws it: ``{"from": "d1", "to": "d4", "captures": ["d5"],
    "king_taken": None}``, with the king's square in ``king_taken`` when the move took him."""
    move = game.peek()
    if move is None:
        return None
    pos = game.engine
    before = pos.stack[-1].king
    king_taken = pos.g.names[before] if before >= 0 and pos.k < 0 else None
    return {"from": move.from_square, "to": move.to_square, "captures": list(move.captures), "king_taken": king_taken}


def _rules_name(rules: Rules) -> str:
    """The name of the one catalogue variant whose own rules these are, else ""."""
    found = [v.name for v in variants() if v.rules == rules]
    return found[0] if len(found) == 1 else ""


def board_notes(session: Session) -> BoardNotes:
    """What the box beside a board shows for these rules: how to play, which announcement words
    (``raichi``, ``tuichi``) the rules use (see :mod:`tafl_rules.howto`), the variant's name, and the
    name of the catalogue variant whose rules these are."""
    chosen = variant(session.variant_id, **session.toggles) if session.variant_id else None
    return {"howto": how_to_play(session.rules, _lang), "terms": announced_terms(session.rules, chosen),
            "variant_name": chosen.name if chosen else "",
            "rules_name": chosen.name if chosen else _rules_name(session.rules)}


def state(session: Session) -> BoardState:
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
        "start_position": session.start_position,
        "start_turn": session.start_turn,
        "legal": game.legal_targets() if outcome is None else {},
        "line": records + session.line[len(records):],
        "cursor": len(records),
        "last_move": _last_move(game),
        "captured": session.captured(),
        "outcome": None if outcome is None else {"winner": outcome.winner, "reason": translate(outcome.reason, _lang),
                                                 "kind": str(outcome.kind)},
        "announcements": list(game.announcements()) if outcome is None else [],
        "special": special_squares(session.rules),
        "rules_otn": session.rules_otn,
    }


@_handler("hello")
def _hello(payload: dict[str, Any]) -> dict[str, Any]:
    return {"version": __version__, "build": BUILD}


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


def _new_reply(session: Session) -> dict[str, Any]:
    return {**state(session), **board_notes(session)}


@_handler("new")
def _new(payload: dict[str, Any]) -> dict[str, Any]:
    session = _new_session(payload)
    _sessions[_board_id(payload)] = session
    return _new_reply(session)


@_handler("state")
def _state(payload: dict[str, Any]) -> dict[str, Any]:
    return dict(state(_session(payload)))


@_handler("play")
def _play(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    text = payload.get("move", "")
    if not isinstance(text, str):
        raise BadRequest("the move must be text such as d1-d4")
    move = session.play(text)
    return {**state(session), "played": format_move(move)}


@_handler("explain")
def _explain(payload: dict[str, Any]) -> dict[str, Any]:
    """Why the piece on a square cannot be picked up now (for a click on it)."""
    session = _session(payload)
    square = payload.get("square")
    if not isinstance(square, str) or not _SQUARE.fullmatch(square):
        raise BadRequest("the square must be named like d4")
    reason = session.game.why_stuck(square)
    if reason is None:
        return {"reason": translate(message("{square} can move", square=square), _lang)}
    raise IllegalMove(reason)


@_handler("undo")
def _undo(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    if session.cursor == 0:
        raise BadRequest("there is no move to undo")
    session.goto(session.cursor - 1)
    return dict(state(session))


@_handler("redo")
def _redo(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    if session.cursor >= len(session.line):
        raise BadRequest("there is no move to redo")
    session.goto(session.cursor + 1)
    return dict(state(session))


@_handler("goto")
def _goto(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    ply = payload.get("ply")
    if not isinstance(ply, int) or isinstance(ply, bool):
        raise BadRequest("ply must be a whole number")
    session.goto(ply)
    return dict(state(session))


@_handler("export")
def _export(payload: dict[str, Any]) -> dict[str, Any]:
    session = _session(payload)
    tags = {"variant": session.variant_id} if session.variant_id else {}
    if session.toggles:
        tags["toggles"] = ",".join(f"{name}:{value}" for name, value in session.toggles.items())
    return {"otn": game_to_otn(session.game, tags=tags)}


@_handler("import")
def _import(payload: dict[str, Any]) -> dict[str, Any]:
    """Replace the board's game by an OTN game record; a bad record changes nothing."""
    board = _board_id(payload)
    text = payload.get("otn")
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("paste an OTN game record first")
    record = read_game(text)
    if len(record.moves) > MAX_MOVES:
        raise BadRequest(message("the record has {count:,} moves; a board keeps at most {most:,}", count=len(record.moves), most=MAX_MOVES))
    game = record.to_game()
    variant_id, toggles = _catalogue_choice(game.rules, record.tags, _sessions.get(board))
    session = Session(variant_id, toggles, game.rules, game)
    if not session.starts_as_the_rules_do():  # the record's own start: saved and shared with its rules
        session = Session("", {}, game.rules, game)
    else:
        session.applied = dict(variant(variant_id, **toggles).applied) if variant_id else {}
    _sessions[board] = session
    return _new_reply(session)


def _catalogue_choice(rules: Rules, tags: dict[str, str], previous: Session | None) -> tuple[str, dict[str, str]]:
    """The catalogue variant (and toggle readings) whose rules an imported record has, or ("", {}):
    the record's ``variant`` and ``toggles`` tags, then the board's variant before the import,
    then the one variant of the catalogue with exactly these rules."""
    named = tags.get("variant", "").strip().lower()
    for v in variants():
        if named in (v.id, v.name.lower()):
            try:
                toggles = dict(pair.split(":", 1) for pair in tags.get("toggles", "").split(",") if ":" in pair)
                if variant(v.id, **toggles).rules == rules:
                    return v.id, toggles
            except (RulesError, ValueError):
                pass
    if previous is not None and previous.variant_id and previous.rules == rules:
        return previous.variant_id, previous.toggles
    found = [v.id for v in variants() if v.rules == rules]
    return (found[0], {}) if len(found) == 1 else ("", {})


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
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BadRequest("seed must be a whole number")
    if level == PEOPLE:  # the people-like player draws its move: no search to report
        played = session.play(str(people_move(session.game.copy(), PEOPLE_STYLE, seed + session.cursor)))
        return {**state(session), "played": format_move(played)}
    if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
        raise BadRequest(message("level must be one of {levels} or {people}, got {level}", levels=", ".join(map(str, LEVELS)),
                                 people=repr(PEOPLE), level=repr(level)))
    result = analyse(session.game.copy(), level=level, seed=seed + session.cursor, stop=_progress)
    played = session.play(str(result.move))
    # "time": the time cap ended the search, so this move may differ on a faster machine
    return {**state(session), "played": format_move(played),
            "search": {"depth": result.depth, "nodes": result.nodes, "stopped_by": result.stopped_by}}
