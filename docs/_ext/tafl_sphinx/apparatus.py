"""The apparatus of the source pages, drawn from the stored texts and the catalogue.

Directives
    ``parallel-text``      two stored texts side by side, unit by unit, with a note per unit
    ``stored-texts``       the list of stored copies with their provenance (edition, where seen, licence)
    ``source-passages``    for the given sources, every catalogue passage and the rule points it supports
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from tafl_rules import catalogue
from tafl_rules.catalogue import Provenance, Variant

from .roots import Roots
from . import bib
from .bibstyle import ByCitationName
from .layouts import position_map
from .links import rule_label, toggle_label
from .quotes import ITALICS
from .texts import Unit, Witness, library
from .util import MarkdownDirective, escape_inline, md_escape
from .words import RULE_NAMES

#: How the witness of a copy is named under a parallel column.
GRADE_WORDS = {"verified": "", "second-hand": "second-hand", "unverified": "unverified"}


def _italics(text: str) -> str:
    """A stored text as MyST: its ``_word_`` italics kept, everything else literal."""
    parts = ITALICS.split(" ".join(text.split()))
    out = "".join(f"*{md_escape(p.replace('_', ' '))}*" if i % 2 else escape_inline(p) for i, p in enumerate(parts))
    return re.sub(r"^(\d+)\.", r"\1\\.", out)  # "1. Arx regia" is a numbered law, not a list


def _sic(text: str, corrections: dict[str, str]) -> str:
    """MyST of a stored text with its evident misreadings marked: ``hai`` becomes ``hai [sic: rhai]``."""
    if not corrections:
        return _italics(text)
    words = re.compile(r"(?<![\w(])(" + "|".join(map(re.escape, corrections)) + r")(?![\w)])")
    out, last = [], 0
    for m in words.finditer(text):
        chunk = text[last:m.end()]
        out += [(" " if chunk[:1].isspace() else "") + _italics(chunk),
                f" \\[*sic*: {md_escape(corrections[m.group(1)])}\\]"]
        last = m.end()
    rest = text[last:]
    if rest.strip():
        out.append((" " if rest[:1].isspace() else "") + _italics(rest))
    return "".join(out)


def _caption(witness: Witness, unit: Unit) -> str:
    where = f" ({md_escape(unit.where)})" if unit.where and not unit.label.startswith(unit.where) else ""
    via = f", as given by {{cite:t}}`{witness.via}`" if witness.via else ""
    grade = GRADE_WORDS[witness.grade]
    return f"{{cite:t}}`{witness.key}`, {md_escape(unit.label)}{where}{via}" + (f" ({grade})" if grade else "")


def _pairs(spec: str) -> list[tuple[str, str]]:
    out = []
    for item in spec.split(";"):
        if item.strip():
            left, _, right = item.partition("=")
            out.append((left.strip(), (right or left).strip()))
    return out


class ParallelText(MarkdownDirective):
    """Two stored texts unit by unit: left and right columns, then the note for that unit.

    ``:left:`` and ``:right:`` name stored copies (file names in ``sources/texts``, several
    separated by spaces: each unit is shown from every copy that has it). ``:rows:`` pairs
    labels (``left = right; …``); by default every left unit with the same label on the right,
    then the units only the right has. The content gives notes, one per line: ``label: text``.
    ``:sic-left:`` marks evident misreadings of the left text (``hai = rhai; lie = lle``) as
    ``hai [sic: rhai]`` without touching the stored copy.
    """

    has_content = True
    option_spec = {"left": directives.unchanged_required, "right": directives.unchanged_required,
                   "rows": directives.unchanged, "left-title": directives.unchanged,
                   "right-title": directives.unchanged, "lang-left": directives.unchanged,
                   "lang-right": directives.unchanged, "sic-left": directives.unchanged}

    def markdown(self) -> str:
        lib = library(self.folders.texts)
        by_name = {w.name: w for w in lib.witnesses}

        def copies(option: str) -> list[Witness]:
            names = self.options[option].split()
            missing = [n for n in names if n not in by_name]
            if missing:
                raise ValueError(f"no stored text {missing[0]!r}; have {', '.join(sorted(by_name))}")
            return [by_name[n] for n in names]

        left, right = copies("left"), copies("right")
        if "rows" in self.options:
            rows = _pairs(self.options["rows"])
        else:
            labels = list(dict.fromkeys(u.label for w in left for u in w.units))
            rows = [(label, label) for label in labels]
            rows += [("", u.label) for w in right for u in w.units if not any(u.label == r for _, r in rows)]
            rows = list(dict.fromkeys(rows))
        notes: dict[str, list[str]] = {}
        for line in self.content:
            label, sep, text = line.partition(":")
            if sep and text.strip():
                notes.setdefault(label.strip(), []).append(text.strip())
            elif line.strip() and notes:
                notes[list(notes)[-1]].append(line.strip())

        sic = dict(pair for pair in _pairs(self.options.get("sic-left", "")) if pair[0] != pair[1])

        def column(witnesses: list[Witness], label: str, lang: str, corrections: dict[str, str]) -> list[str]:
            out = []
            for w in witnesses:
                unit = w.unit(label) if label else None
                if unit is None:
                    continue
                cls = f" tafl-lang-{lang}" if lang else ""
                out += [f":::{{container}} tafl-parallel-text{cls}", "", _sic(unit.text, corrections), "", ":::", "",
                        f"<small>{_caption(w, unit)}</small>", ""]
            return out or ["*(not in this text)*", ""]

        used = {label for pair in rows for label in pair}
        unknown = sorted(set(notes) - used)
        if unknown:
            raise ValueError(f"note for {unknown[0]!r}, which is not a row")
        lines = []
        titles = (self.options.get("left-title", ""), self.options.get("right-title", ""))
        for left_label, right_label in rows:
            lines += [":::::{grid} 1 1 2 2", ":gutter: 2", ":class-container: tafl-parallel", ""]
            for title, witnesses, label, lang, corr in (
                    (titles[0], left, left_label, self.options.get("lang-left", ""), sic),
                    (titles[1], right, right_label, self.options.get("lang-right", ""), {})):
                lines += ["::::{grid-item}", ""]
                if title:
                    lines += [f"<small>**{md_escape(title)}**</small>", ""]
                lines += [*column(witnesses, label, lang, corr), "::::", ""]
            lines += [":::::", ""]
            for label in (left_label, right_label):
                for note in notes.pop(label, []):
                    lines += [note, ""]
        return "\n".join(lines)


def _links(text: str) -> str:
    """Plain text with its web addresses as links, set in code so that no "---" turns into a dash."""
    out, last = [], 0
    for m in re.finditer(r"https?://\S+", text):
        url = m.group(0).rstrip(",;.")
        while url.endswith(")") and url.count("(") < url.count(")"):
            url = url[:-1]
        out += [escape_inline(text[last:m.start()]), f"[`{url}`]({url})"]
        last = m.start() + len(url)
    out.append(escape_inline(text[last:]))
    return "".join(out)


def _bib_order(folders: Roots) -> dict[str, tuple[str, str, str]]:
    """Each bibliography key's place in the bibliography (by the name it is cited by, then year)."""
    return {key: ByCitationName().sorting_key(entry) for key, entry in bib.entries(folders.bibfiles).items()}


class StoredTexts(MarkdownDirective):
    """Every stored copy: what it is, where it was read, its licence, in the bibliography's order."""

    def markdown(self) -> str:
        lib = library(self.folders.texts)
        order = _bib_order(self.folders)
        lines = [":::{container} tafl-provenance", ""]
        for key in sorted(lib.keys, key=lambda k: (order.get(k, (k,)), k)):
            for w in lib.of(key):
                grade = {"verified": "a copy of the source itself", "second-hand": "the source as another work quotes it",
                         "unverified": "a copy that cannot be tied to its original"}[w.grade]
                extent = "the whole passage" if w.extent == "full" else "only the words quoted on this site"
                lines += [f"**{{cite:t}}`{key}`** — {md_escape(w.copy)}", "",
                          f"- What it is: {grade}" + (f" ({{cite:t}}`{w.via}`)" if w.via else "") + f"; it holds {extent}.",
                          f"- Where it was read: {_links(w.seen)}", f"- Licence: {md_escape(w.licence)}",
                          f"- Places quoted from it: {'; '.join(md_escape(u.label) for u in w.units)}", ""]
        return "\n".join(lines + [":::", ""])


def catalogue_passages() -> Iterator[tuple[Variant, tuple[str, ...], Provenance]]:
    """Every passage of the catalogue: (variant, where it is used, provenance)."""
    for v in catalogue.variants():
        for field, prov in v.provenance.items():
            yield v, ("rule", field), prov
        for toggle in v.toggles.values():
            for value, reading in toggle.readings.items():
                yield v, ("toggle", toggle.name, value), reading.provenance


class SourcePassages(MarkdownDirective):
    """For the given bibliography keys: each passage the catalogue quotes, and every rule point it supports."""

    required_arguments = 1
    optional_arguments = 10
    option_spec = {"locators": directives.unchanged}

    def markdown(self) -> str:
        keys = set(self.arguments)
        wanted = [x.strip() for x in self.options.get("locators", "").split(";") if x.strip()]
        grouped: dict[tuple[str, str, str], list[str]] = defaultdict(list)
        for v, use, prov in catalogue_passages():
            if prov.source not in keys or prov.passage is None:
                continue
            if wanted and not any(prov.locator.startswith(w) for w in wanted):
                continue
            if use[0] == "rule":
                link = f"{{ref}}`{md_escape(RULE_NAMES.get(use[1], use[1]))} <{rule_label(v.id, use[1])}>`"
            else:
                reading = v.toggles[use[1]].readings[use[2]]
                link = f"{{ref}}`reading ‘{md_escape(reading.label)}’ <{toggle_label(v.id, use[1], use[2])}>`"
            entry = f"{{variant}}`{v.id}`: {link}"
            bucket = grouped[(prov.source, prov.locator, " ".join(prov.passage.split()))]
            if entry not in bucket:
                bucket.append(entry)
        if not grouped:
            raise ValueError(f"the catalogue quotes none of {', '.join(sorted(keys))}")
        lines = []
        for (key, locator, passage), uses in sorted(grouped.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
            lines += [f"- {{cite:t}}`{key}`, {md_escape(locator)}: {{q}}`{passage} <{key}: {locator}>`",
                      "", "  " + "; ".join(uses) + ".", ""]
        return "\n".join(lines)


def setup_apparatus(app: Sphinx) -> None:
    app.add_directive("parallel-text", ParallelText)
    app.add_directive("stored-texts", StoredTexts)
    app.add_directive("source-passages", SourcePassages)
    app.add_directive("tablut-cut", TablutCut)


# --- the lettered board of Linnaeus's tablut, redrawn -------------------------------------------

#: Letters of Smith's laws placed on the 9x9 board (a1 bottom left), with how sure the placing is:
#: "fixed" follows from the laws and the key, "derived" follows once a fixed letter is placed,
#: "one of two" has a mirror placing that fits the laws as well, "illustrative" is not fixed at all.
CUT_LETTERS = {
    "a": ("d6", "fixed"), "A": ("f6", "fixed"),
    "e": ("c7", "derived"),
    "b": ("d7", "one of two"), "i": ("b7", "one of two"), "m": ("a7", "one of two"),
    "f": ("c8", "one of two"), "g": ("c9", "one of two"),
    "c": ("d8", "illustrative"), "n": ("a8", "illustrative"),
}
CUT_STYLE = {"fixed": ("#111", "none"), "derived": ("#111", "none"), "one of two": ("#7a3b00", "4 3"),
             "illustrative": ("#7a3b00", "1 3")}


def tablut_cut_svg() -> str:
    """The board of Smith's laws, redrawn: castle 1, Swedes' squares 2 and 3, Muscovites' squares shaded,
    and the letters the laws use, each drawn as sure as the laws make it."""
    v = catalogue.variant("tablut-linnaeus")
    where = position_map(v.rules.start, 9)
    cell, pad = 44, 22
    size = 9 * cell + 2 * pad
    king = next(sq for sq, p in where.items() if p == "K")
    kf, kr = ord(king[0]) - 97, int(king[1:]) - 1

    def xy(square: str) -> tuple[int, int]:
        f, r = ord(square[0]) - 97, int(square[1:]) - 1
        return pad + f * cell, pad + (8 - r) * cell

    height = size + 96  # the board, the caption and the key to how sure each letter is
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {height}" role="img" '
           f'aria-labelledby="tablut-cut-title" style="max-width:100%;height:auto" class="tafl-cut">',
           '<title id="tablut-cut-title">Tablut board redrawn from the laws and key of Smith 1811 (not a copy of the '
           'woodcut): solid letters are fixed by the laws, dashed ones could be the other way round, dotted ones '
           'marked ? are placed only for illustration</title>',
           f'<rect x="0" y="0" width="{size}" height="{height}" fill="#fffdf7"/>']
    for f in range(9):
        for r in range(9):
            sq = f"{chr(97 + f)}{r + 1}"
            x, y = xy(sq)
            fill = "#d9c6a0" if where.get(sq) == "t" else "#fffdf7"
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#555" stroke-width="1"/>')
            label = ""
            if sq == king:
                label = "1"
            elif where.get(sq) == "T":
                label = "2" if abs(f - kf) + abs(r - kr) == 1 else "3"
            if label:
                out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 6}" text-anchor="middle" font-size="18" '
                           f'font-family="Georgia, serif" fill="#111">{label}</text>')
    for letter, (sq, how) in CUT_LETTERS.items():
        x, y = xy(sq)
        colour, dash = CUT_STYLE[how]
        out.append(f'<circle cx="{x + cell / 2}" cy="{y + cell / 2}" r="15" fill="none" stroke="{colour}" '
                   f'stroke-width="1.5" stroke-dasharray="{dash}"/>')
        mark = "?" if how == "illustrative" else ""
        out.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 6}" text-anchor="middle" font-size="18" '
                   f'font-style="italic" font-family="Georgia, serif" fill="{colour}">{letter}{mark}</text>')
    for f in range(9):
        out.append(f'<text x="{pad + f * cell + cell / 2}" y="{pad + 9 * cell + 16}" text-anchor="middle" '
                   f'font-size="11" fill="#555">{chr(97 + f)}</text>')
        out.append(f'<text x="{pad / 2}" y="{pad + (8 - f) * cell + cell / 2 + 4}" text-anchor="middle" '
                   f'font-size="11" fill="#555">{f + 1}</text>')
    out.append(f'<text x="{size / 2}" y="{size + 18}" text-anchor="middle" font-size="12" fill="#333">'
               'A redrawing from the laws and the key, not the woodcut of 1811</text>')
    key = (("fixed", "a", "placed by the laws (the whole may be turned or mirrored)"),
           ("one of two", "b", "one of two placings that fit the laws"),
           ("illustrative", "c?", "not fixed by the laws: placed for illustration"))
    for row, (how, letter, words) in enumerate(key):
        colour, dash = CUT_STYLE[how]
        cy = size + 40 + row * 22
        out.append(f'<circle cx="{pad + 10}" cy="{cy}" r="9" fill="none" stroke="{colour}" stroke-width="1.5" '
                   f'stroke-dasharray="{dash}"/>')
        out.append(f'<text x="{pad + 10}" y="{cy + 4}" text-anchor="middle" font-size="11" font-style="italic" '
                   f'font-family="Georgia, serif" fill="{colour}">{letter}</text>')
        out.append(f'<text x="{pad + 26}" y="{cy + 5}" font-size="14" fill="#333">{words}</text>')
    out.append("</svg>")
    return "\n".join(out)


class TablutCut(MarkdownDirective):
    """The lettered board of Smith's laws, redrawn, with a key saying how sure each letter is."""

    def markdown(self) -> str:
        groups: dict[str, list[str]] = {}
        for letter, (sq, how) in CUT_LETTERS.items():
            groups.setdefault(how, []).append(f"*{letter}* {sq}")
        return "\n".join([
            "```{raw} html", f'<div class="tafl-cut-figure">{tablut_cut_svg()}</div>', "```", "",
            "Squares are named a1 (bottom left) to i9. Shaded: the sixteen Muscovites' squares; 1, 2 and 3: "
            "the castle and the Swedes' squares, as the key numbers them. How sure each letter is:", "",
            f"- **Fixed by the laws** (solid): {', '.join(groups['fixed'])}. Law 11 puts *a*, *A* and 3 round a "
            "square 2, so *a* and *A* are the two squares beside it; which of the four squares 2 the cut "
            "letters, and which side *a* is on, is not known, so the whole lettering may be turned or mirrored.",
            f"- **Following from them** (solid): {', '.join(groups['derived'])}: law 1 makes *a* to *e* a diagonal "
            "step, and law 5 needs two free roads of two squares each from *e* to the edge.",
            f"- **One of two placings** (dashed): {', '.join(groups['one of two'])}. Laws 2, 3 and 5 need *b*, "
            "*e*, *i*, *m* in a line to the edge and *e*, *f*, *g* in another; which road is which could be "
            "the other way round.",
            f"- **Not fixed at all** (dotted, marked ?): {', '.join(groups['illustrative'])}, placed only so that "
            "laws 1 and 7 can be followed: they need *a* and *c*, and *c* and *n*, in straight lines.",
            "- The key's 4 marks {q}`some of them <linnaeus1811: key, Fig. 3>` of the Muscovites' squares; "
            "which ones is not known, so none is numbered here.", ""])
