"""Small text diagrams for the scenario tests.

A diagram is drawn the way a reader draws a board: rank numbers down the left,
rank 1 at the bottom, file letters along the bottom::

    7 . . . . . . .
    6 . . . . . . .
    5 . . t . . . .
    4 . . T + . . .
    3 . . . . . . .
    2 . . . . . . .
    1 . . . . . . .
      a b c d e f g

``t`` is an attacker, ``T`` a defender, ``K`` the king, ``.`` an empty square
and ``+`` an empty square that the rules make special (the throne at the
centre, or a corner); ``+`` is checked against the geometry but is otherwise
the same as ``.``.

:func:`to_otn` turns a diagram into an OTN position record (rank 1 first, as
OTN lists them); :func:`game` builds a :class:`tafl_rules.Game` on it; :func:`pieces`
and :func:`assert_board` compare a game's board with a diagram square by square
(through the public ``piece_at`` only, so they do not depend on the exact
spelling of ``game.position()``).
"""

from __future__ import annotations

import re
import string

from tafl_rules import Game, Rules

PIECE_OF = {"t": "attacker", "T": "defender", "K": "king"}
CHAR_OF = {piece: char for char, piece in PIECE_OF.items()}
_ROW = re.compile(r"^(\d+)\s+(.*)$")


class DiagramError(ValueError):
    """A test diagram is malformed (a bug in the test, not in the engine)."""


def parse(diagram: str) -> tuple[int, dict[str, str]]:
    """Return ``(size, {square: piece})`` for a diagram."""
    ranks: list[tuple[int, list[str]]] = []
    files: list[str] | None = None
    for line in diagram.strip("\n").splitlines():
        text = line.strip()
        if not text:
            continue
        match = _ROW.match(text)
        if match:
            ranks.append((int(match.group(1)), match.group(2).split()))
        else:
            files = text.split()
    size = len(ranks)
    if size < 7 or size % 2 == 0:
        raise DiagramError(f"a diagram needs an odd number (7 or more) of ranks, got {size}")
    letters = list(string.ascii_lowercase[:size])
    if files != letters:
        raise DiagramError(f"file letters should be {' '.join(letters)}, got {files}")
    board: dict[str, str] = {}
    for row, (number, cells) in enumerate(ranks):
        if number != size - row:
            raise DiagramError(f"rank numbers must run {size}..1 from the top; found {number} at row {row + 1}")
        if len(cells) != size:
            raise DiagramError(f"rank {number} has {len(cells)} squares, not {size}")
        for letter, cell in zip(letters, cells):
            square = f"{letter}{number}"
            if cell in PIECE_OF:
                board[square] = PIECE_OF[cell]
            elif cell == "+":
                if square not in special_squares(size):
                    raise DiagramError(f"'+' marks the throne or a corner; {square} is neither")
            elif cell != ".":
                raise DiagramError(f"unknown mark {cell!r} on {square}")
    if sum(1 for piece in board.values() if piece == "king") > 1:
        raise DiagramError("more than one king")
    return size, board


def special_squares(size: int) -> set[str]:
    """The centre and the four corners of a board of this size."""
    last = string.ascii_lowercase[size - 1]
    centre = f"{string.ascii_lowercase[size // 2]}{size // 2 + 1}"
    return {centre, "a1", f"a{size}", f"{last}1", f"{last}{size}"}


def to_otn(diagram: str) -> str:
    """The OTN position record of a diagram: ``/``-separated ranks, rank 1 first."""
    size, board = parse(diagram)
    rows = []
    for number in range(1, size + 1):
        row, run = "", 0
        for letter in string.ascii_lowercase[:size]:
            piece = board.get(f"{letter}{number}")
            if piece is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += CHAR_OF[piece]
        if run:
            row += str(run)
        rows.append(row)
    return "/" + "/".join(rows) + "/"


def rules(diagram: str, **fields):
    """``Rules`` whose board size and start position come from the diagram."""
    size, _ = parse(diagram)
    return Rules(size=size, start=to_otn(diagram), **fields)


def game(diagram: str, turn: str = "attackers", **fields):
    """A game on the diagram with the given rule fields, ``turn`` to move.

    ``first`` is set to ``turn`` unless the test passes ``first`` itself, and
    ``turn`` is also passed to ``Game`` (both ways of saying who moves).
    """
    fields.setdefault("first", turn)
    return Game(rules(diagram, **fields), turn=turn)


def squares(size: int) -> list[str]:
    return [f"{letter}{number}" for number in range(1, size + 1) for letter in string.ascii_lowercase[:size]]


def pieces(game) -> dict[str, str]:
    """Every occupied square of a game, read through ``game.piece_at``."""
    board = {}
    for square in squares(game.size):
        piece = game.piece_at(square)
        if piece is not None:
            board[square] = piece
    return board


def draw(board: dict[str, str], size: int) -> str:
    """A diagram (in the format :func:`parse` reads) of a ``{square: piece}`` board."""
    lines = []
    for number in range(size, 0, -1):
        cells = [CHAR_OF.get(board.get(f"{letter}{number}", ""), ".") for letter in string.ascii_lowercase[:size]]
        lines.append(f"{number:>2} " + " ".join(cells))
    lines.append("   " + " ".join(string.ascii_lowercase[:size]))
    return "\n".join(lines)


def assert_board(game, diagram: str) -> None:
    """Fail, showing both boards, unless the game's board is the diagram."""
    size, expected = parse(diagram)
    assert game.size == size, f"board size {game.size}, diagram size {size}"
    actual = pieces(game)
    if actual != expected:
        raise AssertionError("board differs from the diagram\nexpected:\n" + draw(expected, size)
                             + "\nactual:\n" + draw(actual, size))
