"""Static SVG pictures of a tafl position.

:func:`render_svg` draws a board as one self-contained, accessible ``<svg>``
element: no scripts, no external styles or fonts, ``role="img"`` with a
``<title>`` and a ``<desc>`` listing every piece, so a screen reader can read the
position. The output depends only on the arguments (byte-identical for the same
input), so pages can be rebuilt without spurious changes.

The root is ``<svg class="tafl-svg-board">`` (not ``tafl-board``, which the site's
interactive board script claims). Every element carries a class (``board``, ``grid``, ``throne``, ``corner``,
``camp``, ``highlight``, ``mark``, ``piece attacker``, ``piece defender``,
``piece king``, ``coord``) as well as inline colours, so a site may restyle it.

>>> from tafl_rules import variant
>>> picture = render_svg(variant("brandubh").rules, title="Brandubh", marks="d4")
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="tafl-svg-board"')
True
>>> picture.count('class="piece attacker"'), picture.count('class="mark"')
(8, 1)
"""

from __future__ import annotations

import json
import re
import zlib
from typing import Callable, Iterable

from .catalogue import Variant
from .engine import tables
from .position import parse_position
from .rules import Rules
from .squares import FILES, iter_bits, square_index, square_name

#: Colours used inline (a site can override them through the classes).
COLOURS = {
    "board": "#ecd9b0",
    "grid": "#6b5536",
    "throne": "#b8895a",
    "corner": "#b8895a",
    "camp": "#d9a09a",
    "highlight": "#f3dc5c",
    "mark": "#c0262d",
    "attacker": "#2b2b2b",
    "attacker_edge": "#000000",
    "defender": "#fbfbf7",
    "defender_edge": "#2b2b2b",
    "king_mark": "#2b2b2b",
    "coord": "#4a3b26",
}


#: The coordinates' text size, as a share of a square.
COORD_FONT = 0.5


def _num(x: float) -> str:
    """A coordinate as short, stable text (at most two decimals)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _esc(text: str) -> str:
    """Text as XML character data: markup escaped, characters XML forbids replaced by U+FFFD."""
    text = _NOT_XML.sub("\ufffd", text)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _squares(value: Iterable[str] | str, size: int, what: str) -> list[int]:
    """Square indices of ``value`` (names, or one string of names separated by spaces or commas)."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    out = []
    for name in value:
        if not isinstance(name, str):
            raise ValueError(f"{what}: expected square names such as 'e5', got {name!r}")
        index = square_index(name.strip().lower(), size)
        if index < 0:
            shown = name if len(name) <= 20 else name[:20] + "..."
            raise ValueError(f"{what}: {shown!r} is not a square of the {size}x{size} board")
        if index not in out:
            out.append(index)
    return out


def render_svg(rules: Rules | Variant, position: str | None = None, *, marks: Iterable[str] | str = (),
               highlight: Iterable[str] | str = (), flipped: bool = False, coordinates: bool = True,
               title: str | None = None, square_px: int = 32, svg_id: str | None = None,
               say: Callable[[str], str] = str) -> str:
    """An SVG picture of ``position`` (an OTN position record; default ``rules.start``).

    Special squares are drawn when the rules make them special: the throne (centre,
    when ``rules.throne``), the four corners (when ``rules.corners``) and the camps
    (the attackers' start squares in ``rules.start``, when ``rules.camps``).
    Attackers are dark discs, defenders light discs, the king a light disc with a
    cross. ``highlight`` squares are tinted (e.g. the last move); ``marks`` squares
    are outlined on top of the pieces (e.g. where two layouts differ). ``flipped``
    turns the board half round (a1 at the top right). ``coordinates`` labels the
    files a, b, ... below and the ranks 1, 2, ... on the left.

    Raises :class:`~tafl_rules.errors.NotationError` for a bad position record,
    ``ValueError`` for a square name that is not on the board (or a bad ``square_px``
    or ``svg_id``) and ``TypeError`` for rules or a title of the wrong type. Any text
    is safe in ``title``: markup is escaped and characters XML forbids are replaced.

    The ``<title>`` and ``<desc>`` get ids derived from the input (stable across
    builds); pass ``svg_id`` to choose the prefix when the same picture appears
    twice on one page. ``say`` gives the ``<desc>``'s words (its headings, "none" and the
    sentence on a turned board) in the reader's language; the square names are as they are.
    """
    if isinstance(rules, Variant):
        rules = rules.rules
    if not isinstance(rules, Rules):
        raise TypeError(f"render_svg needs a Rules record or a variant, got {type(rules).__name__}")
    if not isinstance(square_px, int) or isinstance(square_px, bool) or not 8 <= square_px <= 256:
        raise ValueError(f"square_px must be a whole number from 8 to 256, got {square_px!r}")
    size = rules.size
    record = rules.start if position is None else position
    placement = parse_position(record, size)
    marked = _squares(marks, size, "marks")
    lit = _squares(highlight, size, "highlight")

    sp = square_px
    margin = round(sp * 0.7) if coordinates else 0
    pad = max(2, sp // 8)
    left, top = pad + margin, pad
    board_px = sp * size
    width = left + board_px + pad
    height = top + board_px + margin + pad

    def origin(index: int) -> tuple[int, int]:
        rank, file = divmod(index, size)
        col = size - 1 - file if flipped else file
        row = rank if flipped else size - 1 - rank
        return left + col * sp, top + row * sp

    attackers = list(iter_bits(placement.attackers))
    defenders = list(iter_bits(placement.defenders))
    king = placement.king
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be text, got {type(title).__name__}")
    if title is None:
        title = (f"Tafl position on a {size}x{size} board: {len(attackers)} attackers, "
                 f"{len(defenders)} defenders" + (" and the king" if king >= 0 else ", no king"))
    title = _NOT_XML.sub("\ufffd", title)
    t = tables(rules)
    specials = [(kind, list(iter_bits(mask))) for kind, mask in
                (("throne", t.throne), ("corner", t.corners), ("camp", t.camps)) if mask]

    def names(indices: Iterable[int]) -> str:
        listed = [square_name(i, size) for i in sorted(indices, key=lambda i: (i % size, i // size))]
        return ", ".join(listed) if listed else say("none")

    desc = [f"{say('Attackers')} ({len(attackers)}): {names(attackers)}.",
            f"{say('Defenders')} ({len(defenders)}): {names(defenders)}.",
            f"{say('King')}: {square_name(king, size) if king >= 0 else say('none')}."]
    for kind, squares in specials:
        label = {"throne": "Throne", "corner": "Corner squares", "camp": "Camps"}[kind]
        desc.append(f"{say(label)}: {names(squares)}.")
    if lit:
        desc.append(f"{say('Highlighted')}: {names(lit)}.")
    if marked:
        desc.append(f"{say('Marked')}: {names(marked)}.")
    if flipped:
        desc.append(say("Seen from the top: a1 is at the top right."))

    key = json.dumps([rules.to_dict(), record, marked, lit, flipped, coordinates, title, sp],
                     sort_keys=True).encode()
    uid = f"tafl-{zlib.crc32(key):08x}" if svg_id is None else svg_id
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_.:-]*", uid):
        raise ValueError(f"svg_id must be a letter followed by letters, digits, '_', '.', ':' or '-', got {uid!r}")
    c = COLOURS
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tafl-svg-board" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="{uid}-title {uid}-desc">',
        f'<title id="{uid}-title">{_esc(title)}</title>',
        f'<desc id="{uid}-desc">{_esc(" ".join(desc))}</desc>',
        f'<rect class="board" x="{left}" y="{top}" width="{board_px}" height="{board_px}" fill="{c["board"]}"/>',
    ]
    for kind, squares in specials:
        for i in squares:
            x, y = origin(i)
            out.append(f'<rect class="{kind}" x="{x}" y="{y}" width="{sp}" height="{sp}" fill="{c[kind]}"/>')
            if kind in ("throne", "corner"):  # a saltire marks the king's squares
                a, b = sp * 0.2, sp * 0.8
                out.append(f'<path class="{kind}-mark" d="M{_num(x + a)} {_num(y + a)}L{_num(x + b)} {_num(y + b)}'
                           f'M{_num(x + b)} {_num(y + a)}L{_num(x + a)} {_num(y + b)}" stroke="{c["grid"]}" '
                           f'stroke-width="{_num(max(1.0, sp / 24))}" stroke-opacity="0.55" fill="none"/>')
    for i in lit:
        x, y = origin(i)
        out.append(f'<rect class="highlight" x="{x}" y="{y}" width="{sp}" height="{sp}" '
                   f'fill="{c["highlight"]}" fill-opacity="0.7"/>')
    grid = []
    for k in range(size + 1):
        grid.append(f"M{left + k * sp} {top}V{top + board_px}")
        grid.append(f"M{left} {top + k * sp}H{left + board_px}")
    out.append(f'<path class="grid" d="{"".join(grid)}" stroke="{c["grid"]}" stroke-width="1" fill="none"/>')

    radius = _num(sp * 0.38)
    stroke = _num(max(1.0, sp / 20))
    for kind, squares in (("attacker", attackers), ("defender", defenders), ("king", [king] if king >= 0 else [])):
        fill = c["attacker"] if kind == "attacker" else c["defender"]
        edge = c["attacker_edge"] if kind == "attacker" else c["defender_edge"]
        for i in squares:
            x, y = origin(i)
            cx, cy = _num(x + sp / 2), _num(y + sp / 2)
            out.append(f'<circle class="piece {kind}" cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}" '
                       f'stroke="{edge}" stroke-width="{stroke}"/>')
            if kind == "king":
                arm = sp * 0.22
                mx, my = x + sp / 2, y + sp / 2
                out.append(f'<path class="king-mark" d="M{_num(mx - arm)} {_num(my)}H{_num(mx + arm)}'
                           f'M{_num(mx)} {_num(my - arm)}V{_num(my + arm)}" stroke="{c["king_mark"]}" '
                           f'stroke-width="{_num(max(1.5, sp / 10))}" stroke-linecap="round" fill="none"/>')
    for i in marked:
        x, y = origin(i)
        w = max(2, sp // 12)
        out.append(f'<rect class="mark" x="{_num(x + w / 2)}" y="{_num(y + w / 2)}" width="{sp - w}" '
                   f'height="{sp - w}" fill="none" stroke="{c["mark"]}" stroke-width="{w}"/>')
    if coordinates:
        # Half a square: a figure drawn at 32 px a square keeps its coordinates at 11 px or more
        # while it is scaled down to 69% (an 11x11 figure in a phone's column).
        font = _num(sp * COORD_FONT)
        for col in range(size):
            file = size - 1 - col if flipped else col
            tx = _num(left + col * sp + sp / 2)
            ty = _num(top + board_px + margin * 0.7)
            out.append(f'<text class="coord" x="{tx}" y="{ty}" font-family="sans-serif" font-size="{font}" '
                       f'text-anchor="middle" fill="{c["coord"]}">{FILES[file]}</text>')
        for row in range(size):
            rank = row if flipped else size - 1 - row
            tx = _num(left - margin * 0.45)
            ty = _num(top + row * sp + sp / 2 + sp * 0.18)
            out.append(f'<text class="coord" x="{tx}" y="{ty}" font-family="sans-serif" font-size="{font}" '
                       f'text-anchor="middle" fill="{c["coord"]}">{rank + 1}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["COLOURS", "COORD_FONT", "render_svg"]
