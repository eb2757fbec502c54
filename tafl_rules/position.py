"""OTN position records: ``/3ttttt3/5t5/.../``, rank 1 first.

A record lists the ranks from rank 1 (the board's bottom edge, where ``a1`` is) up
to the last, each from the ``a`` file rightwards, as the OpenTafl notation
specification and OpenTafl itself read them (OpenTafl's ``PositionSerializer`` puts
the record's first rank at ``y = 0``, which its square names call rank 1). So a
record looks upside down beside a diagram drawn with rank 1 at the bottom; for the
usual layouts, which are the same both ways up, the text is the same.

``t`` is an attacker, ``T`` a defender, ``K`` the king, a number a run of empty
squares. The slashes at both ends are optional when parsing and always written when
formatting. OTN's other piece letters (``k``, an attacking king; ``c``/``n`` and
``C``/``N``, the commanders and knights of berserk tafl) are refused by name.

This is the only reader and writer of position records in the package: rules
validation, the catalogue, OTN game records and the engine all use it.

>>> p = parse_position("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", 7)
>>> p.king, p.attackers.bit_count(), p.defenders.bit_count()
(24, 8, 4)
>>> format_position(*p, 7)
'/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/'
>>> parse_position("/t6/7/7/3K3/7/7/7/", 7).attackers == 1  # an attacker on a1
True
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import NotationError
from .messages import message, verbatim

_DIGITS = "0123456789"
_UNSUPPORTED = {
    "k": message("'k' is an attacking king in OTN, which is not supported (the king is 'K')"),
    **{ch: message("{char} (a commander or knight of OTN's berserk tafl) is not supported", char=verbatim(repr(ch)))
       for ch in "cCnN"},
}


def _too_long(rank: int, size: int) -> str:
    return message("rank {rank} has more than {size} squares", rank=rank + 1, size=size)


class Placement(NamedTuple):
    """Bitboards of a position: attackers, defenders (not the king) and the king's square (-1: none)."""

    attackers: int
    defenders: int
    king: int


def parse_position(text: str, size: int) -> Placement:
    """Read an OTN position record for a ``size`` x ``size`` board.

    Raises :class:`~tafl_rules.errors.NotationError` naming the rank and the offset of
    the first bad character.
    """
    if not isinstance(text, str):
        raise NotationError(message("a position record must be text, got {kind}", kind=verbatim(type(text).__name__)), "", 0)
    body = text.strip()
    start = 0
    if body.startswith("/"):
        start = 1
    end = len(body)
    if body.endswith("/") and end > start:
        end -= 1
    rows = body[start:end].split("/") if end > start else []
    if len(rows) != size:
        raise NotationError(message("expected {size} ranks separated by '/', got {count}", size=size, count=len(rows)), text, 0)
    attackers = defenders = 0
    king = -1
    offset = text.find(body) + start
    for rank, row in enumerate(rows):
        file = 0
        i = 0
        while i < len(row):
            ch = row[i]
            if ch in _DIGITS:
                j = i
                while j < len(row) and row[j] in _DIGITS:
                    j += 1
                if j - i > 2:  # no board has 100 squares in a rank (and int() refuses huge runs)
                    raise NotationError(_too_long(rank, size), text, offset + i)
                run = int(row[i:j])
                if run == 0:
                    raise NotationError(message("rank {rank}: an empty run of 0 squares", rank=rank + 1), text, offset + i)
                file += run
                i = j
                if file > size:
                    raise NotationError(_too_long(rank, size), text, offset + i - 1)
                continue
            if ch in _UNSUPPORTED:
                raise NotationError(_UNSUPPORTED[ch], text, offset + i)
            if file >= size:
                raise NotationError(_too_long(rank, size), text, offset + i)
            if ch not in "tTK":
                raise NotationError(message("rank {rank}: {char} is not t, T, K or a digit", rank=rank + 1, char=verbatim(repr(ch))),
                                    text, offset + i)
            bit = 1 << (rank * size + file)
            if ch == "t":
                attackers |= bit
            elif ch == "T":
                defenders |= bit
            else:
                if king >= 0:
                    raise NotationError(message("there is more than one king"), text, offset + i)
                king = rank * size + file
            file += 1
            i += 1
        if file != size:
            raise NotationError(message("rank {rank} has {count} squares, not {size}", rank=rank + 1, count=file, size=size),
                                text, offset + len(row))
        offset += len(row) + 1
    return Placement(attackers, defenders, king)


def format_position(attackers: int, defenders: int, king: int, size: int) -> str:
    """The OTN position record of a placement (``king`` is a square index or -1), rank 1 first."""
    out = []
    for rank in range(size):
        row = []
        empty = 0
        for file in range(size):
            i = rank * size + file
            if attackers >> i & 1:
                ch = "t"
            elif defenders >> i & 1:
                ch = "T"
            elif i == king:
                ch = "K"
            else:
                empty += 1
                continue
            if empty:
                row.append(str(empty))
                empty = 0
            row.append(ch)
        if empty:
            row.append(str(empty))
        out.append("".join(row))
    return "/" + "/".join(out) + "/"


__all__ = ["Placement", "format_position", "parse_position"]
