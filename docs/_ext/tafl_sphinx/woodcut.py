"""The lettered woodcut of Linnaeus's tablut board (Smith's edition, 1811), drawn from its transcription.

The transcription is data, ``sources/data/smith1811-tablut-cut.toml``: one string per
printed row, a cell per square (a letter, a numbered hatched square, an ornament, with
the numeral 4 where it can be read). This module reads it, names each cell's square
(a1 bottom left, as everywhere on the site), draws the cut in its own layout, and says
where the redrawing made from the laws alone differs from it.

Directive
    ``tablut-woodcut``   the drawing, its caption, links to the public scan, and the notes of the transcription
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
from html import escape
from pathlib import Path

from sphinx.application import Sphinx

from .roots import Roots
from .apparatus import CUT_LETTERS
from .util import MarkdownDirective, md_escape, rich_md

#: The transcription's file in the project's ``tafl_sources_data_dir`` (:mod:`tafl_sphinx.roots`).
CUT_FILE_NAME = "smith1811-tablut-cut.toml"
SIZE = 9
_CELL = re.compile(r"^(?:(?P<letter>[a-ik-oA-IK-O])|(?P<number>[23])|(?P<ornament>[#+@])(?P<four>4)?)$")
ORNAMENT_WORDS = {"#": "ornament (foliage)", "+": "ornament (crossed sprays)", "@": "ornament (the castle)"}


class CutError(ValueError):
    """The transcription of the cut is malformed; the message names the file and the row."""


@dataclasses.dataclass(frozen=True)
class Cell:
    square: str
    text: str
    style: str  # "roman" or "italic" for letters, else ""

    @property
    def letter(self) -> str:
        return self.text if self.text.isalpha() else ""

    @property
    def number(self) -> str:
        return self.text if self.text in ("2", "3") else ""

    @property
    def ornament(self) -> str:
        return self.text[0] if self.text[0] in ORNAMENT_WORDS else ""

    @property
    def four(self) -> bool:
        return bool(self.ornament) and self.text.endswith("4")

    def words(self) -> str:
        """The cell as a reader would describe it."""
        if self.letter:
            return f"{self.letter} ({self.style})"
        if self.number:
            return f"{self.number} (hatched)"
        return ORNAMENT_WORDS[self.ornament] + (" with 4" if self.four else "")


@dataclasses.dataclass(frozen=True)
class Cut:
    rows: tuple[tuple[Cell, ...], ...]
    source: dict[str, str]
    notes: dict[str, str]

    @property
    def cells(self) -> list[Cell]:
        return [cell for row in self.rows for cell in row]

    def where(self, text: str) -> list[str]:
        """Every square that holds ``text`` (a letter, a numeral, or an ornament sign)."""
        return [c.square for c in self.cells if c.text == text or (len(text) == 1 and c.ornament == text)]

    def quarter(self, lower: bool, roman: bool) -> dict[str, str]:
        """Letter -> square in one quarter: lower case (left) or capitals (right), roman (top) or italic (bottom)."""
        return {c.letter: c.square for c in self.cells
                if c.letter and c.letter.islower() == lower and (c.style == "roman") == roman}


def square(row: int, col: int) -> str:
    """The square of the printed row (0 = top) and column (0 = left): a1 is bottom left."""
    return f"{chr(97 + col)}{SIZE - row}"


def cut_file(folders: Roots) -> Path:
    """The transcription, in the project's ``tafl_sources_data_dir``."""
    return folders.sources_data / CUT_FILE_NAME


def parse_cut(path: Path) -> Cut:
    """The cut as the transcription at ``path`` (the project's: :func:`cut_file`) gives it."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CutError(f"{path}: no transcription of the cut there (tafl_sources_data_dir names its folder)") from None
    except tomllib.TOMLDecodeError as error:
        raise CutError(f"{path.name}: {error}") from None
    rows, styles = data.get("cut", {}).get("rows", []), data.get("cut", {}).get("letter_style", [])
    if len(rows) != SIZE or len(styles) != SIZE:
        raise CutError(f"{path.name}: [cut] needs {SIZE} rows and {SIZE} letter styles, got {len(rows)} and {len(styles)}")
    out = []
    for r, (line, style) in enumerate(zip(rows, styles)):
        tokens = line.split()
        if len(tokens) != SIZE:
            raise CutError(f"{path.name}: row {r + 1} has {len(tokens)} cells, not {SIZE}: {line!r}")
        row = []
        for c, token in enumerate(tokens):
            m = _CELL.match(token)
            if not m:
                raise CutError(f"{path.name}: row {r + 1}, cell {c + 1}: {token!r} is not a letter, 2, 3, #, + or @ "
                               "(with 4 after an ornament)")
            if m.group("letter") and style not in ("roman", "italic"):
                raise CutError(f"{path.name}: row {r + 1} has letters but its letter style is {style!r}")
            row.append(Cell(square(r, c), token, style if m.group("letter") else ""))
        out.append(tuple(row))
    return Cut(tuple(out), dict(data.get("source", {})), dict(data.get("notes", {})))


def the_cut(folders: Roots) -> Cut:
    """The project's transcription of the cut, read once."""
    return _read_cut(cut_file(folders))


@functools.cache
def _read_cut(path: Path) -> Cut:
    return parse_cut(path)


# --- drawing -------------------------------------------------------------------------

_CELL_PX, _PAD = 48, 16
INK, PAPER = "#1d1a16", "#fffdf7"


def _ornament(kind: str, x: float, y: float) -> str:
    """A schematic ornament: the cut's engraving is not copied, only what kind of ornament stands there."""
    s = _CELL_PX
    if kind == "+":
        return (f'<path d="M{x + 8},{y + s - 8} Q{x + s / 2},{y + s / 2 - 6} {x + s - 8},{y + 8} '
                f'M{x + 8},{y + 8} Q{x + s / 2},{y + s / 2 + 6} {x + s - 8},{y + s - 8}" fill="none" stroke="{INK}" '
                f'stroke-width="1.6"/>')
    if kind == "@":
        c = s / 2
        return (f'<path d="M{x + 6},{y + 6} L{x + s - 6},{y + s - 6} M{x + s - 6},{y + 6} L{x + 6},{y + s - 6}" '
                f'stroke="{INK}" stroke-width="1.4"/>'
                f'<path d="M{x + c},{y + 12} L{x + s - 12},{y + c} L{x + c},{y + s - 12} L{x + 12},{y + c} Z" '
                f'fill="none" stroke="{INK}" stroke-width="1.4"/>')
    return (f'<path d="M{x + 10},{y + s - 8} C{x + 8},{y + 20} {x + 24},{y + 10} {x + 30},{y + 18} '
            f'C{x + 36},{y + 26} {x + 26},{y + 32} {x + 22},{y + 26} M{x + 18},{y + s - 10} '
            f'C{x + 26},{y + 30} {x + 40},{y + 34} {x + s - 8},{y + 12}" fill="none" stroke="{INK}" '
            f'stroke-width="1.5"/>')


def woodcut_svg(folders: Roots, cut: Cut | None = None) -> str:
    """The cut in its own layout: letters in their type, hatched 2 and 3, ornaments, and the 4s that can be read."""
    cut = cut or the_cut(folders)
    size = SIZE * _CELL_PX + 2 * _PAD
    desc = "; ".join(f"row {r + 1}: " + ", ".join(c.words() for c in row) for r, row in enumerate(cut.rows))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" role="img" '
           'aria-labelledby="tablut-woodcut-title tablut-woodcut-desc" class="tafl-cut tafl-woodcut" '
           'style="max-width:100%;height:auto">',
           '<title id="tablut-woodcut-title">The lettered woodcut of the tablut board, Smith 1811, vol. II, p. 55: '
           'a transcription drawn from the project\'s data</title>',
           f'<desc id="tablut-woodcut-desc">Read row by row from the top of the cut: {escape(desc)}</desc>',
           '<defs><pattern id="tafl-hatch" width="6" height="6" patternUnits="userSpaceOnUse">'
           f'<path d="M0,6 L6,0 M0,0 L6,6" stroke="{INK}" stroke-width="0.6" opacity="0.55"/></pattern></defs>',
           f'<rect x="0" y="0" width="{size}" height="{size}" fill="{PAPER}"/>']
    for r, row in enumerate(cut.rows):
        for c, cell in enumerate(row):
            x, y = _PAD + c * _CELL_PX, _PAD + r * _CELL_PX
            out.append(f'<rect x="{x}" y="{y}" width="{_CELL_PX}" height="{_CELL_PX}" fill="{PAPER}" stroke="{INK}" '
                       'stroke-width="1.2"/>')
            mid_x, mid_y = x + _CELL_PX / 2, y + _CELL_PX / 2
            if cell.number:
                out.append(f'<rect x="{x}" y="{y}" width="{_CELL_PX}" height="{_CELL_PX}" fill="url(#tafl-hatch)"/>')
                out.append(f'<text x="{mid_x}" y="{mid_y + 7}" text-anchor="middle" font-size="20" font-style="italic" '
                           f'font-family="Georgia, serif" fill="{INK}">{cell.number}</text>')
            elif cell.ornament:
                out.append(_ornament(cell.ornament, x, y))
                if cell.four:
                    out.append(f'<text x="{mid_x}" y="{mid_y + 6}" text-anchor="middle" font-size="15" '
                               f'font-style="italic" font-family="Georgia, serif" fill="{INK}" '
                               f'stroke="{PAPER}" stroke-width="3" paint-order="stroke">4</text>')
            else:
                italic = ' font-style="italic"' if cell.style == "italic" else ""
                out.append(f'<text x="{mid_x}" y="{mid_y + 7}" text-anchor="middle" font-size="21"{italic} '
                           f'font-family="\'Gentium Plus\', Georgia, serif" fill="{INK}">{cell.letter}</text>')
    out.append(f'<rect x="{_PAD}" y="{_PAD}" width="{SIZE * _CELL_PX}" height="{SIZE * _CELL_PX}" fill="none" '
               f'stroke="{INK}" stroke-width="3"/>')
    out.append("</svg>")
    return "\n".join(out)


def differences_from(folders: Roots, letters: dict[str, str], cut: Cut | None = None) -> list[str]:
    """Letters that a placing (letter -> square) puts elsewhere than the cut's upper-left quarter."""
    quarter = (cut or the_cut(folders)).quarter(lower=True, roman=True)
    return sorted(x for x, sq in letters.items() if x.islower() and quarter.get(x) != sq)


class TablutWoodcut(MarkdownDirective):
    """The transcribed cut: drawing, caption with the scan's links, and the transcription's notes."""

    def markdown(self) -> str:
        cut = the_cut(self.folders)
        src = cut.source
        fours = [c.square for c in cut.cells if c.four]
        return "\n".join([
            "```{raw} html", f'<figure class="tafl-cut-figure">{woodcut_svg(self.folders, cut)}</figure>', "```", "",
            f"*Transcription of the woodcut on {md_escape(src['place'])} of the 1811 edition* ({{cite:t}}`linnaeus1811`): "
            "every letter, numeral and ornament as read in the scan, in the cut's own layout, from the project's "
            "data; the ornaments are drawn schematically. The scan itself: "
            f"[Project Gutenberg eBook 36059]({src['edition_page']}), HTML edition, "
            f"[image i_055.jpg]({src['scan']}) (the board, p. 55) and [image i_056.jpg]({src['pieces_scan']}) "
            f"(the three pieces, {md_escape(src['pieces_place'].removeprefix('vol. II, '))}).", "",
            f"- **Letters.** {md_escape(cut.notes['letters'])}",
            "- **Numbers.** The squares 2 and 3 are cross-hatched, four of each round the centre; "
            f"{md_escape(cut.notes['castle'])}",
            f"- **The numeral 4** can be read on {len(fours)} of the sixteen ornamented squares "
            f"({', '.join(fours)}; a1 is bottom left). {rich_md(cut.notes['numerals'])}",
            f"- **Against the redrawing from the laws** (below): the cut confirms every letter the laws fix, "
            f"and in its upper left quarter puts {', '.join(f'*{x}*' for x in self._differ())} on other squares "
            "than the redrawing chose where the laws left two placings or none.", ""])

    def _differ(self) -> list[str]:
        return differences_from(self.folders, {x: sq for x, (sq, _) in CUT_LETTERS.items()})


def setup_woodcut(app: Sphinx) -> None:
    app.add_directive("tablut-woodcut", TablutWoodcut)
