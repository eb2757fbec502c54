"""The game: the public face of the engine, in square names and :class:`Move` objects.

A :class:`Game` holds an engine :class:`~tafl_rules.engine.state.Position` (ints
only: bitboards, square indices, make and unmake) and adds what a person or a
program using the package needs: square names, :class:`Move` objects with their
captures, refusals that say why in words, the history of moves, and undo.

>>> game = Game("brandubh")
>>> game.turn, len(game.legal_moves())
('attackers', 40)
>>> game.play("d7-e7")
Move('d7-e7')
>>> game.play("d5-d6")
Traceback (most recent call last):
...
tafl_rules.errors.IllegalMove: d6 is occupied
"""

from __future__ import annotations

import random as _random
import re
import warnings
from collections.abc import Iterator, Sequence
from typing import Iterable, Union, overload

from . import catalogue
from .engine import ATTACKER, ATTACKERS, DEFENDERS, KIND_NAMES, KING, SIDE_NAMES, Position, Snapshot
from .engine.capture import captures
from .engine.movement import Targets
from .errors import IllegalMove, NotationError
from .messages import Message, message, the_place
from .outcome import Outcome
from .position import format_position, parse_position
from .rules import Rules
from .squares import SQUARE_PATTERN, iter_bits, parse_square, square_index


# ASCII only: under IGNORECASE alone the long s and the Kelvin sign would pass for s and k
_MOVE_TEXT = re.compile(rf"({SQUARE_PATTERN})-({SQUARE_PATTERN})((?:x{SQUARE_PATTERN})*)", re.ASCII | re.IGNORECASE)
_MOVE_SHAPE = re.compile(r"[^x\-\s]+-[^x\-\s]+(?:x[^x\-\s]+)*", re.ASCII | re.IGNORECASE)
_SQUARE_TEXT = re.compile(SQUARE_PATTERN, re.ASCII | re.IGNORECASE)


class Move:
    """A move from one square to another, ``"d1-d4"``; ``captures`` lists the squares it
    empties. A move listed by :meth:`Game.legal_moves` works its captures out when they
    are first asked for, so nothing pays for captures it does not read.

    A move is immutable: its squares and captures are read-only. It equals another with
    the same squares, and its ``"d1-d4"`` text (so it is hashed like that text).

    >>> Move("d1", "d4", ["d5"]) == "d1-d4", Move.parse("d1-d4xd5").captures
    (True, ['d5'])
    >>> Move("d1", "d4").to_square = "d5"
    Traceback (most recent call last):
    ...
    AttributeError: property 'to_square' of 'Move' object has no setter
    """

    __slots__ = ("_from", "_to", "_captures", "_source", "_code")

    def __init__(self, from_square: str, to_square: str, captures: Iterable[str] | None = None) -> None:
        self._from = from_square
        self._to = to_square
        self._captures: tuple[str, ...] | None = tuple(captures) if captures is not None else ()
        self._source: _Listing | None = None
        self._code = 0

    @property
    def from_square(self) -> str:
        """The square the piece leaves, ``"d1"``."""
        return self._from

    @property
    def to_square(self) -> str:
        """The square the piece moves to, ``"d4"``."""
        return self._to

    @property
    def captures(self) -> list[str]:
        """The squares of the men this move captures (``[]`` if none; a new list each time)."""
        caps = self._captures
        if caps is None:
            source = self._source
            assert source is not None  # a move without its captures always has its listing
            caps = self._captures = source.capture_names(self._code)
        return list(caps)

    @classmethod
    def parse(cls, text: str) -> "Move":
        """``"d1-d4"`` or ``"d1-d4xd5xe4"`` (either case; the listed captures are kept but
        not trusted).

        Raises :class:`~tafl_rules.errors.NotationError` if ``text`` is not written like a
        move of square names (a file letter a-s and a rank 1-19).
        """
        if not isinstance(text, str):
            raise NotationError(f"expected a move such as d1-d4, got {type(text).__name__}", "", 0)
        body = text.strip()
        start = text.find(body) if body else 0
        m = _MOVE_TEXT.fullmatch(body)
        if m:
            captures = m.group(3)[1:].lower().split("x") if m.group(3) else []
            return cls(m.group(1).lower(), m.group(2).lower(), captures)
        shape = _MOVE_SHAPE.fullmatch(body)
        if shape:  # written like a move: say which part is not a square name
            for part in re.finditer(r"[^x\-]+", body, re.ASCII | re.IGNORECASE):
                if not _SQUARE_TEXT.fullmatch(part.group()):
                    shown = part.group() if len(part.group()) <= 40 else part.group()[:40] + "..."
                    raise NotationError(f"{shown!r} is not a square name (a file letter a-s and a rank 1-19, "
                                        "like e5)", text, start + part.start())
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise NotationError(f"{shown!r} is not a move (expected a form like d1-d4 or d1-d4xd5)", text, start)

    def uci(self) -> str:
        """Deprecated: ``str(move)`` (a tafl move is not a UCI move)."""
        warnings.warn("Move.uci() is deprecated; use str(move)", DeprecationWarning, stacklevel=2)
        return str(self)

    def __str__(self) -> str:
        return f"{self._from}-{self._to}"

    def otn(self) -> str:
        """The move with its captures, ``"d1-d4xd5"``."""
        return str(self) + "".join("x" + c for c in self.captures)

    def __repr__(self) -> str:
        return f"Move({self.otn()!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return str(self) == other
        if isinstance(other, Move):
            return self._from == other._from and self._to == other._to
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))  # equal to its "d1-d4" text, so hashed like it


class _Listing:
    """The position a :class:`LegalMoves` was listed in (its placement, side to move and
    whether the king has left the throne): enough to work out a listed move's captures
    later, and to recognise that a listed move is still legal when it is played."""

    __slots__ = ("pos", "a", "d", "k", "side", "left", "names")

    def __init__(self, pos: Position, names: list[str]) -> None:
        self.pos = pos
        self.a = pos.a
        self.d = pos.d
        self.k = pos.k
        self.side = pos.side
        self.left = pos.left
        self.names = names

    def current(self, pos: Position) -> bool:
        """Whether ``pos`` is still in the position listed (so a listed move is legal)."""
        return (pos is self.pos and pos.outcome is None and pos.a == self.a and pos.d == self.d
                and pos.k == self.k and pos.side == self.side and pos.left == self.left)

    def capture_names(self, code: int) -> tuple[str, ...]:
        caps = captures(self.pos.t, self.a, self.d, self.k, code >> 11, (code >> 2) & 511, code & 3, self.side)
        names = self.names
        return tuple(names[c] for c in iter_bits(caps))


class LegalMoves(Sequence[Move]):
    """The legal moves of one position: a read-only sequence of :class:`Move`, like a
    tuple, made one move at a time as they are read (``len()``, indexing, ``in`` and
    iteration need no :class:`Move` for the moves not looked at). It keeps listing the
    position it was made in after the game moves on.
    """

    __slots__ = ("_listing", "_targets", "_len")

    def __init__(self, listing: _Listing, targets: list[Targets]) -> None:
        self._listing = listing
        self._targets = targets
        self._len = -1

    def __len__(self) -> int:
        n = self._len
        if n < 0:
            n = 0
            for _s, _k, found in self._targets:
                n += found.bit_count()
            self._len = n
        return n

    def _move(self, frm: int, to: int, kind: int) -> Move:
        names = self._listing.names
        move = Move.__new__(Move)
        move._from = names[frm]
        move._to = names[to]
        move._captures = None
        move._source = self._listing
        move._code = frm << 11 | to << 2 | kind
        return move

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not isinstance(index, int):
            raise TypeError(f"legal move indices must be integers or slices, not {type(index).__name__}")
        if index < 0:
            index += len(self)
            if index < 0:
                raise IndexError("legal move index out of range")
        for frm, kind, found in self._targets:
            count = found.bit_count()
            if index < count:
                while index:
                    found &= found - 1
                    index -= 1
                return self._move(frm, (found & -found).bit_length() - 1, kind)
            index -= count
        raise IndexError("legal move index out of range")

    def __iter__(self) -> Iterator[Move]:
        move = self._move
        for frm, kind, found in self._targets:
            while found:
                low = found & -found
                found ^= low
                yield move(frm, low.bit_length() - 1, kind)

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except NotationError:
                return False
        if not isinstance(move, Move):
            return False
        index = self._listing.pos.g.index
        if not isinstance(move._from, str) or not isinstance(move._to, str):
            return False
        frm = index.get(move._from, -1)
        to = index.get(move._to, -1)
        return frm >= 0 and to >= 0 and any(sq == frm and found >> to & 1 for sq, _k, found in self._targets)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, LegalMoves)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compared by content, like a list

    def __repr__(self) -> str:
        return f"<LegalMoves: {', '.join(str(m) for m in self)}>"


RulesLike = Union[Rules, str, catalogue.Variant]


def _resolve_rules(rules_or_variant: RulesLike | None) -> Rules:
    if rules_or_variant is None:
        return Rules()
    if isinstance(rules_or_variant, Rules):
        return rules_or_variant
    if isinstance(rules_or_variant, str):
        return catalogue.variant(rules_or_variant).rules
    if isinstance(rules_or_variant, catalogue.Variant):
        return rules_or_variant.rules
    raise TypeError(f"Game() needs a Rules record or a variant id, got {type(rules_or_variant).__name__}")


class Game:
    """A game of tafl under ``rules`` (a :class:`Rules`, a variant or a variant id;
    default ``Rules()``).

    ``position`` is an OTN position record (default: the rules' start) and ``turn``
    the side to move (default: ``rules.first``). A malformed position raises
    :class:`~tafl_rules.errors.NotationError`; one (the rules' start included) that no
    game under these rules could start from (no king, no attacker, a piece where it may
    not stand, the king already escaped) :class:`~tafl_rules.errors.PositionError`; a bad
    turn ``ValueError``, an unknown variant id :class:`~tafl_rules.errors.RulesError` and
    anything that is not rules ``TypeError``.
    """

    def __init__(self, rules_or_variant: RulesLike | None = None, *, position: str | None = None,
                 turn: str | None = None) -> None:
        rules = _resolve_rules(rules_or_variant)
        self.rules = rules
        self.size = rules.size
        place = parse_position(rules.start if position is None else position, rules.size)
        rules.check_position(place)
        side = rules.first if turn is None else turn
        if side not in SIDE_NAMES:
            raise ValueError(f"turn must be 'attackers' or 'defenders', got {side!r}")
        self._pos = Position(rules, place.attackers, place.defenders, place.king, SIDE_NAMES.index(side))
        self._names = self._pos.g.names
        self._index = self._pos.g.index

    @property
    def engine(self) -> Position:
        """The engine's :class:`~tafl_rules.engine.state.Position` behind this game (ints only).

        Code that plays on it directly (a search) must take back every move it makes."""
        return self._pos

    # ------------------------------------------------------------------ state

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, with their captures (a new list each time)."""
        move_of = self._move_of
        return [move_of(entry) for entry in self._pos.stack]

    def _move_of(self, entry: Snapshot) -> Move:
        names = self._names
        return Move(names[entry.frm], names[entry.to], [names[c] for c in iter_bits(entry.captures)])

    def peek(self) -> Move | None:
        """The last move played, with its captures (None before the first); the cost does not
        grow with the game, unlike ``game.moves[-1]``."""
        stack = self._pos.stack
        return self._move_of(stack[-1]) if stack else None

    @property
    def ply(self) -> int:
        """Number of moves played."""
        return len(self._pos.stack)

    @property
    def hash(self) -> int:
        """Zobrist hash of the placement and the side to move (stable across runs)."""
        return self._pos.hash

    @property
    def turn(self) -> str:
        """The side to move: ``"attackers"`` or ``"defenders"``."""
        return SIDE_NAMES[self._pos.side]

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (an :class:`~tafl_rules.outcome.Outcome`), or None while it goes on."""
        return self._pos.outcome

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._pos.outcome is not None

    def position(self) -> str:
        """The OTN position record of the current placement."""
        pos = self._pos
        return format_position(pos.a, pos.d, pos.k, self.size)

    def piece_at(self, square: str) -> str | None:
        """``"attacker"``, ``"defender"``, ``"king"`` or None for an empty square."""
        kind = self._pos.kind_at(self._square(square))
        return KIND_NAMES[kind] if kind >= 0 else None

    def king_square(self) -> str | None:
        """The king's square, or None once he is captured (or in a position without him)."""
        k = self._pos.k
        return self._names[k] if k >= 0 else None

    def pieces(self, kind: str) -> list[str]:
        """Squares of every piece of a kind (``"attacker"``, ``"defender"``, ``"king"``)."""
        pos = self._pos
        if kind == "attacker":
            bb = pos.a
        elif kind == "defender":
            bb = pos.d
        elif kind == "king":
            bb = 1 << pos.k if pos.k >= 0 else 0
        else:
            raise ValueError(f"unknown piece kind {kind!r}; kinds are attacker, defender, king")
        return [self._names[i] for i in iter_bits(bb)]

    def copy(self) -> "Game":
        """An independent copy (history included)."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other.size = self.size
        other._pos = self._pos.copy()
        other._names = self._names
        other._index = self._index
        return other

    def _square(self, name: str) -> int:
        index = self._index.get(name) if isinstance(name, str) else None
        if index is not None:
            return index
        try:
            return parse_square(name, self.size)
        except NotationError as error:
            if isinstance(name, str) and square_index(name[:1].lower() + name[1:], 19) >= 0:
                # the name of a square of a larger board: a move there is not allowed here
                raise IllegalMove(error.message) from None
            raise

    # -------------------------------------------------------------- movement

    def legal_targets(self) -> dict[str, list[str]]:
        """From-square -> its target squares (sorted by file, then rank), for the side to move."""
        pos = self._pos
        if pos.outcome is not None:
            return {}
        names = self._names
        size = self.size

        def key(i: int) -> tuple[int, int]:
            return (i % size, i // size)

        out = {}
        for sq, _kind, found in sorted(pos.move_targets(pos.side), key=lambda x: key(x[0])):
            out[names[sq]] = [names[i] for i in sorted(iter_bits(found), key=key)]
        return out

    def legal_moves(self) -> LegalMoves:
        """Every legal move of the side to move, as a read-only sequence of :class:`Move`
        (empty once the game is over). Each move knows its captures when asked."""
        pos = self._pos
        if pos.outcome is not None:
            return LegalMoves(_Listing(pos, self._names), [])
        return LegalMoves(_Listing(pos, self._names), pos.move_targets(pos.side))

    def target_bits(self) -> list[tuple[int, int]]:
        """Deprecated: ``(from, targets)`` with square indices and target bitboards. The
        engine's :meth:`Position.move_targets <tafl_rules.engine.state.Position.move_targets>`
        on :attr:`engine` is the int interface."""
        warnings.warn("Game.target_bits() is deprecated; use game.engine.move_targets(game.engine.side)",
                      DeprecationWarning, stacklevel=2)
        pos = self._pos
        if pos.outcome is not None:
            return []
        return [(sq, found) for sq, _kind, found in pos.move_targets(pos.side)]

    def play_fast(self, frm: int, to: int) -> int:
        """Deprecated: play a move given by square indices without checking it; returns the
        bitboard of captured men. Use :meth:`Position.make <tafl_rules.engine.state.Position.make>`
        on :attr:`engine`."""
        warnings.warn("Game.play_fast() is deprecated; use game.engine.make(frm, to, kind)",
                      DeprecationWarning, stacklevel=2)
        pos = self._pos
        return pos.make(frm, to, pos.kind_at(frm))

    def count_legal_moves(self) -> int:
        """How many legal moves the side to move has."""
        pos = self._pos
        if pos.outcome is not None:
            return 0
        return sum(found.bit_count() for _s, _k, found in pos.move_targets(pos.side))

    # ------------------------------------------------------------- public play

    def play(self, move: Union[str, Move]) -> Move:
        """Play a move (``"d1-d4"`` or a :class:`Move`); returns it with its captures.

        Raises :class:`~tafl_rules.errors.IllegalMove` saying why if the move is not
        legal, and :class:`~tafl_rules.errors.NotationError` if it is not written like
        a move; either way the game is left unchanged.
        """
        pos = self._pos
        names = self._names
        if isinstance(move, Move):
            source = move._source
            code = move._code
            frm, to = code >> 11, (code >> 2) & 511
            if (source is not None and source.current(pos) and names[frm] == move._from
                    and names[to] == move._to):  # listed by legal_moves() in this position: legal
                caps = pos.make(frm, to, code & 3)
            else:
                frm = self._square(move._from)
                to = self._square(move._to)
                caps = pos.make(frm, to, self._check(frm, to))
        elif isinstance(move, str):
            parsed = Move.parse(move)
            frm = self._square(parsed._from)
            to = self._square(parsed._to)
            caps = pos.make(frm, to, self._check(frm, to))
        else:
            raise NotationError(f"expected a move such as d1-d4, got {type(move).__name__}", "", 0)
        played = Move.__new__(Move)
        played._from = names[frm]
        played._to = names[to]
        played._captures = tuple(names[c] for c in iter_bits(caps)) if caps else ()
        played._source = None
        played._code = 0
        return played

    def push(self, move: Union[str, Move]) -> Move:
        """Deprecated: :meth:`play` (python-chess's ``push`` is its *unchecked* move; here
        every move a :class:`Game` plays is checked)."""
        warnings.warn("Game.push() is deprecated; use Game.play()", DeprecationWarning, stacklevel=2)
        return self.play(move)

    def undo(self) -> Move:
        """Take back the last move, restoring the exact previous state; returns it."""
        if not self._pos.stack:
            raise IndexError("there is no move to undo")
        return self._move_of(self._pos.unmake())

    def pop(self) -> Move:
        """Deprecated: :meth:`undo`."""
        warnings.warn("Game.pop() is deprecated; use Game.undo()", DeprecationWarning, stacklevel=2)
        return self.undo()

    def why_stuck(self, square: str) -> str | None:
        """Why the piece on ``square`` cannot move now, in words (the game is over, the square
        is empty or holds the other side's piece, or the piece has no legal move); None if
        it has a legal move. A bad square name raises as :meth:`play` does."""
        frm = self._square(square)
        try:
            kind = self._mover(frm)
        except IllegalMove as refusal:
            said = refusal.args[0] if len(refusal.args) == 1 else None
            return said if isinstance(said, str) else str(refusal)
        pos = self._pos
        found = pos.targets(frm, kind)
        if found and pos.t.sandwich_filters:
            found = pos.sandwich_filter(frm, kind, pos.side, found)
        return None if found else message("{piece} on {square} has no legal move", piece=_the_kind(KIND_NAMES[kind]),
                                          square=self._names[frm])

    def _mover(self, frm: int) -> int:
        """The kind of the piece on ``frm`` if the side to move may move it; else IllegalMove saying why."""
        pos = self._pos
        names = self._names
        if pos.outcome is not None:
            raise IllegalMove(message("the game is over ({reason})", reason=pos.outcome.reason))
        kind = pos.kind_at(frm)
        if kind < 0:
            raise IllegalMove(message("there is no piece on {square}", square=names[frm]))
        side = ATTACKERS if kind == ATTACKER else DEFENDERS
        if side != pos.side:
            holds = message("{square} holds {piece}", square=names[frm], piece=_a(KIND_NAMES[kind]))
            raise IllegalMove(message("it is the attackers' turn ({holds})", holds=holds) if SIDE_NAMES[pos.side] == "attackers"
                              else message("it is the defenders' turn ({holds})", holds=holds))
        return kind

    def _check(self, frm: int, to: int) -> int:
        """The kind of the moving piece if ``frm``-``to`` is legal; else IllegalMove saying why."""
        pos = self._pos
        names = self._names
        kind = self._mover(frm)
        side = pos.side
        if pos.targets(frm, kind) >> to & 1:
            if pos.t.sandwich_filters and not pos.sandwich_filter(frm, kind, side, 1 << to):
                raise IllegalMove(message(pos.t.sandwich.refusal, square=names[to]))
            return kind
        raise IllegalMove(self._why_not(frm, to, kind))

    def _why_not(self, frm: int, to: int, kind: int) -> Message:
        pos = self._pos
        t = pos.t
        g = pos.g
        names = self._names
        piece = KIND_NAMES[kind]
        if frm == to:
            return message("a move must leave its square ({move})", move=f"{names[frm]}-{names[to]}")
        if not g.lines[frm] >> to & 1:
            return message("{move} is not along a rank or a file", move=f"{names[frm]}-{names[to]}")
        if pos.kind_at(to) >= 0:
            return message("{square} is occupied", square=names[to])
        between = g.between(frm, to)
        for s in sorted(iter_bits(between), key=lambda s: abs(s - frm)):
            if pos.kind_at(s) >= 0:
                return message("{square} is in the way", square=names[s])
            if t.nopass[kind] >> s & 1:
                return message("{piece} may not pass over {place} ({square})", piece=_the(piece),
                               place=the_place(t.special_name(s)), square=names[s])
        special = t.special_name(to)
        if special == "throne":
            if kind == KING and not t.king_reenter and pos.left:
                return message("the king may not go back to the throne once he has left it")
            return message("{pieces} may stop on the throne", pieces=_only(self.rules.throne_stop))
        if special == "corner":
            return message("{pieces} may stop on a corner", pieces=_only(self.rules.corner_stop))
        if special == "camp":
            return message("{piece} may not stop on a camp square ({square}) once outside the camps", piece=_the(piece),
                           square=names[to])
        speed = self.rules.king_speed if kind == KING else self.rules.man_speed
        if speed:
            return (message("{piece} moves at most 1 square", piece=_the(piece)) if speed == 1
                    else message("{piece} moves at most {speed} squares", piece=_the(piece), speed=speed))
        return message("{move} is not a legal move", move=f"{names[frm]}-{names[to]}")

    # ----------------------------------------------------------- announcements

    def announcements(self) -> list[str]:
        """What the defenders would announce now (for the UI): ``"tuichi"`` (two open roads
        to escape squares), ``"raichi"`` (one open road; also reported as ``"check"``),
        and ``"king threatened"`` if an attacker could capture the king with its next move."""
        return self._pos.announcements()

    # --------------------------------------------------------------- display

    def __str__(self) -> str:
        pos = self._pos
        t = pos.t
        size = self.size
        lines = []
        for rank in range(size - 1, -1, -1):
            cells = []
            for file in range(size):
                i = rank * size + file
                kind = pos.kind_at(i)
                if kind >= 0:
                    ch = "tTK"[kind]
                elif (t.throne | t.corners) >> i & 1:
                    ch = "+"
                elif t.camps >> i & 1:
                    ch = ","
                else:
                    ch = "."
                cells.append(ch)
            lines.append(f"{rank + 1:>2} " + " ".join(cells))
        lines.append("   " + " ".join(self._names[f][0] for f in range(size)))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Game(position={self.position()!r}, turn={self.turn!r})"

    # ------------------------------------------------------------- fast paths

    def perft(self, depth: int) -> int:
        """Number of legal move sequences of length ``depth`` from here (a finished game
        has none)."""
        return _perft(self._pos, depth)

    def random_playout(self, max_plies: int = 500, rng: _random.Random | None = None) -> int:
        """Play uniformly random legal moves (uniform over the whole legal list) until the
        game ends or ``max_plies`` are played; returns the number of plies played.
        The moves are kept: :meth:`undo` takes them back one by one. Each is made by the
        engine's own :meth:`Position.make <tafl_rules.engine.state.Position.make>`, and a
        game stopped by ``max_plies`` is judged once more, so that it is in the state
        :meth:`play` would have left (a side left without a move has lost or drawn)."""
        rng = rng or _random.Random()
        pos = self._pos
        move_targets = pos.move_targets
        make = pos.make
        randrange = rng.randrange
        plies = 0
        while pos.outcome is None and plies < max_plies:
            gen: list[Targets] = move_targets(pos.side)
            total = 0
            for _s, _k, found in gen:
                total += found.bit_count()
            if not total:
                break
            pick = randrange(total)
            for frm, kind, found in gen:
                c = found.bit_count()
                if pick < c:
                    while pick:
                        found &= found - 1
                        pick -= 1
                    to = (found & -found).bit_length() - 1
                    break
                pick -= c
            make(frm, to, kind, True)  # fast: a side left without moves is found by the next generation
            plies += 1
        pos.settle()  # the last fast make's position (a side without moves), as play() would judge it
        return plies


def _perft(pos: Position, depth: int) -> int:
    if pos.outcome is not None:
        return 0
    if depth <= 0:
        return 1
    gen = pos.move_targets(pos.side)
    if depth == 1:
        return sum(found.bit_count() for _f, _k, found in gen)
    total = 0
    for frm, kind, found in gen:
        while found:
            low = found & -found
            found ^= low
            pos.make(frm, low.bit_length() - 1, kind)
            total += _perft(pos, depth - 1)
            pos.unmake()
    return total


def _a(noun: str) -> Message:
    """"an attacker", "a defender", "a king" (as messages, :mod:`tafl_rules.messages`)."""
    return {"attacker": message("an attacker"), "defender": message("a defender")}.get(noun) or message("a king")


def _the(noun: str) -> Message:
    return message("the king") if noun == "king" else _a(noun)


def _the_kind(noun: str) -> Message:
    """"the attacker", "the defender", "the king"."""
    return {"attacker": message("the attacker"), "defender": message("the defender")}.get(noun) or message("the king")


def _only(kinds: Iterable[str]) -> Message:
    order = [k for k in ("king", "defender", "attacker") if k in kinds]
    if not order:
        return message("no piece")
    if order == ["king"]:
        return message("only the king")
    plural = {"king": message("the king"), "defender": message("defenders"), "attacker": message("attackers")}
    if len(order) == 1:
        return message("only {pieces}", pieces=plural[order[0]])
    if len(order) == 2:
        return message("only {first} and {second}", first=plural[order[0]], second=plural[order[1]])
    return message("only {first} and {second} and {third}", first=plural[order[0]], second=plural[order[1]],
                   third=plural[order[2]])


__all__ = ["Game", "LegalMoves", "Move"]
