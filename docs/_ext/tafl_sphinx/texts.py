"""The stored texts behind the quotations, and the check that finds every quotation in them.

Every quotation on the site (on a page, or a passage of the catalogue) names its
source (a bibliography key) and a locator. ``sources/texts/`` holds the copies of
the sources that the project has seen, one file per copy ("witness")::

    +++
    key = "linnaeus1811"        # the source this is a copy of (bibliography key)
    grade = "verified"          # verified: a copy of the source itself
                                # second-hand: the source as another work quotes it (``via``)
                                # unverified: a copy that cannot be tied to its original
    via = "dlp832"              # second-hand only: the work that quotes it
    copy = "Project Gutenberg eBook 36059 ..."    # what the copy is
    seen = "https://..."        # where it was read
    licence = "Public domain"
    extent = "full"             # full, or excerpts (copyrighted texts: only the words quoted)
    +++

    § law 9 @ vol. II, p. 57
    9. If any one man gets between two squares ...

A unit starts at ``§ label`` (``@`` gives where it stands in the printed book).
A locator names a unit by its label (``law 9``), a run of them (``laws 9-11``),
a group (``key`` names ``key, Fig. 1``, ``key, Fig. 2`` …),
a paragraph by its opening words (``para. 'Taking the pieces'``, matched against the
unit's label, so that a copy that keeps only a later sentence of it still names it), or the
``whole text``. ``[…]`` in a stored excerpt marks words not copied. A locator may end with
the printed page (``preface, p. iii``): it then names its units only if the stored copy puts them
on that page (their ``@``), so a page number on a page is checked like the words it cites.

The status of a quotation is computed, never typed: *verified* when it is found,
at its locator, in a copy of the source itself; *second-hand* when only in the
source as another work quotes it; *unverified* when only in a copy that cannot be
tied to its original. Ellipses and bracketed insertions split a quotation into
pieces, which must appear in order.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
import unicodedata
from pathlib import Path


#: Grades from best to worst; a quotation's status is the best grade of a copy it is found in.
GRADES = ("verified", "second-hand", "unverified")
_HEADER_KEYS = {"key", "grade", "via", "copy", "seen", "licence", "extent", "note", "language"}
_SPLIT = re.compile(r"\s*(?:\.\.\.|…|\[[^\]]*\])\s*")
_RANGE = re.compile(r"^(?P<noun>[a-z]+?)s? (?P<first>\d+)[a-z]?\s*[-–]\s*(?P<last>\d+)[a-z]?$", re.I)
_PARA = re.compile(r"^para\.\s+'(?P<opening>.+)'$")
#: A locator that ends with the printed page, ``preface, p. iii`` or ``notes, pp. 12-13``.
_PAGED = re.compile(r"^(?P<rest>.+?),\s*(?P<page>pp?\.\s*[0-9ivxlc]+(?:\s*[-–]\s*[0-9ivxlc]+)?)$", re.I)


class TextError(ValueError):
    """A stored text is malformed, or a locator names nothing in it."""


def normalize(text: str) -> str:
    """Text as the check compares it: typographic quotes made plain, emphasis marks and spacing dropped."""
    text = unicodedata.normalize("NFC", text)
    for fancy, plain in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("\u00a0", " ")):
        text = text.replace(fancy, plain)
    text = re.sub(r"[_*]", "", text)
    return " ".join(text.split())


def on_page(where: str, page: str) -> bool:
    """Whether a unit's place in the printed book (its ``@``) is the page a locator gives.

    >>> on_page("p. viii (Wikisource page scan djvu/13)", "p. viii")
    True
    >>> on_page("p. viii (Wikisource page scan djvu/13)", "p. vii")
    False
    >>> on_page("Wikisource page scan djvu/262", "p. 262")
    False
    """
    want = " ".join(page.replace("–", "-").split()).lower()
    return re.search(rf"(?<![\w.]){re.escape(want)}(?![\w-])", " ".join(where.replace("–", "-").split()).lower()) is not None


def fragments(quotation: str) -> list[str]:
    """The pieces of a quotation between its ellipses and bracketed insertions."""
    return [piece for piece in (normalize(p) for p in _SPLIT.split(quotation)) if piece]


@dataclasses.dataclass(frozen=True)
class Unit:
    label: str
    where: str
    text: str

    @functools.cached_property
    def plain(self) -> str:
        return normalize(self.text)


@dataclasses.dataclass(frozen=True)
class Witness:
    """One stored copy of one source."""

    name: str
    key: str
    grade: str
    copy: str
    seen: str
    licence: str
    extent: str
    units: tuple[Unit, ...]
    via: str = ""
    note: str = ""
    language: str = ""

    def unit(self, label: str) -> Unit | None:
        want = normalize(label).lower()
        return next((u for u in self.units if normalize(u.label).lower() == want), None)

    def locate(self, locator: str) -> list[Unit] | None:
        """The units a locator names in this copy, or ``None`` if it names none."""
        locator = " ".join(locator.split())
        if locator.lower() == "whole text":
            return list(self.units)
        exact = self.unit(locator)
        if exact is not None:
            return [exact]
        paged = _PAGED.match(locator)
        if paged:  # "preface, p. iii": the units of "preface", if the stored copy has them on p. iii
            units = self.locate(paged.group("rest"))
            return units if units and all(on_page(u.where, paged.group("page")) for u in units) else None
        prefix = normalize(locator).lower() + ", "
        grouped = [u for u in self.units if normalize(u.label).lower().startswith(prefix)]
        if grouped:  # "key" names "key, Fig. 1", "key, Fig. 2", ...
            return grouped
        m = _PARA.match(locator)
        if m:  # by the paragraph's opening words, as its label gives them (its text may begin with […])
            opening = normalize(m.group("opening")).lower()
            found = [u for u in self.units if (p := _PARA.match(u.label))
                     and normalize(p.group("opening")).lower().startswith(opening)]
            return found or None
        m = _RANGE.match(locator)
        if m and int(m.group("first")) < int(m.group("last")):
            noun = m.group("noun")
            ranged = [self.unit(f"{noun} {n}") for n in range(int(m.group("first")), int(m.group("last")) + 1)]
            whole = [u for u in ranged if u is not None]
            return whole if len(whole) == len(ranged) else None
        return None


def parse_witness(path: Path) -> Witness:
    raw = path.read_text(encoding="utf-8")
    m = re.match(r"\+\+\+\n(.*?)\n\+\+\+\n(.*)\Z", raw, re.S)
    if not m:
        raise TextError(f"{path.name}: a stored text starts with a +++ header")
    try:
        head = tomllib.loads(m.group(1))
    except tomllib.TOMLDecodeError as error:
        raise TextError(f"{path.name}: header: {error}") from None
    unknown = sorted(set(head) - _HEADER_KEYS)
    if unknown:
        raise TextError(f"{path.name}: unknown header key {unknown[0]!r}")
    for needed in ("key", "grade", "copy", "seen", "licence", "extent"):
        if not head.get(needed):
            raise TextError(f"{path.name}: the header needs {needed!r}")
    if head["grade"] not in GRADES:
        raise TextError(f"{path.name}: grade {head['grade']!r} is not one of {', '.join(GRADES)}")
    if (head["grade"] == "second-hand") != bool(head.get("via")):
        raise TextError(f"{path.name}: a second-hand copy names the work it is quoted in (via), and only it")
    if head["extent"] not in ("full", "excerpts"):
        raise TextError(f"{path.name}: extent is 'full' or 'excerpts'")
    units: list[Unit] = []
    for block in re.split(r"^§ ", m.group(2), flags=re.M)[1:]:
        header, _, body = block.partition("\n")
        label, _, where = header.partition(" @ ")
        if not body.strip():
            raise TextError(f"{path.name}: unit {label!r} is empty")
        units.append(Unit(label.strip(), where.strip(), body.strip()))
    if not units:
        raise TextError(f"{path.name}: no units (each starts with a line '§ label')")
    labels = [normalize(u.label).lower() for u in units]
    if len(set(labels)) != len(labels):
        raise TextError(f"{path.name}: a unit label is used twice")
    for unit in units:  # a paragraph begins with its opening words, unless they were not copied ([…])
        p = _PARA.match(unit.label)
        if p and not unit.plain.startswith((normalize(p.group("opening")), "[…]")):
            raise TextError(f"{path.name}: unit {unit.label!r} does not begin with its opening words")
    return Witness(name=path.stem, key=head["key"], grade=head["grade"], copy=head["copy"], seen=head["seen"],
                   licence=head["licence"], extent=head["extent"], units=tuple(units), via=head.get("via", ""),
                   note=head.get("note", ""), language=head.get("language", ""))


@dataclasses.dataclass(frozen=True)
class Finding:
    """Where a quotation was found, and the status that follows (``None``: not found, see ``problem``)."""

    status: str | None
    witnesses: tuple[Witness, ...] = ()
    units: tuple[Unit, ...] = ()
    problem: str = ""

    @property
    def where(self) -> str:
        """Where the quotation stands in the printed source, as the stored copy records it."""
        places = []
        for unit in self.units:
            if unit.where and unit.where not in places:
                places.append(unit.where)
        return "; ".join(places)

    @property
    def via(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(w.via for w in self.witnesses if w.via))


def _in_order(pieces: list[str], haystack: str) -> bool:
    start = 0
    for piece in pieces:
        at = haystack.find(piece, start)
        if at < 0:
            return False
        start = at + len(piece)
    return True


class Library:
    """Every stored text, and the quotation check."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.witnesses = tuple(parse_witness(p) for p in sorted(folder.glob("*.txt")))

    def of(self, key: str) -> list[Witness]:
        return [w for w in self.witnesses if w.key == key]

    @property
    def keys(self) -> set[str]:
        return {w.key for w in self.witnesses}

    def check(self, key: str, locator: str, quotation: str) -> Finding:
        """Find ``quotation`` at ``locator`` in the stored copies of ``key``."""
        pieces = fragments(quotation)
        if not pieces:
            return Finding(None, problem="the quotation is empty")
        copies = self.of(key)
        if not copies:
            return Finding(None, problem=f"no stored copy of {key!r} in {self.folder}")
        found: list[tuple[Witness, list[Unit]]] = []
        located = False
        for witness in copies:
            units = witness.locate(locator)
            if units is None:
                continue
            located = True
            if _in_order(pieces, " ¶ ".join(u.plain for u in units)):
                found.append((witness, units))
        if found:
            best = min(GRADES.index(w.grade) for w, _ in found)
            chosen = [(w, u) for w, u in found if GRADES.index(w.grade) == best]
            return Finding(GRADES[best], tuple(w for w, _ in chosen), tuple(dict.fromkeys(u for _, us in chosen for u in us)))
        paged = _PAGED.match(" ".join(locator.split()))
        if not located and paged and any(w.locate(paged.group("rest")) for w in copies):
            places = sorted({u.where or "no page recorded" for w in copies for u in w.locate(paged.group("rest")) or []})
            return Finding(None, problem=f"the stored copies of {key!r} do not put {paged.group('rest')!r} on "
                                         f"{paged.group('page')} (they have it at: {'; '.join(places)})")
        if not located:
            labels = sorted({u.label for w in copies for u in w.units})
            return Finding(None, problem=f"locator {locator!r} names nothing in the stored copies of {key!r} "
                                         f"(units: {', '.join(labels[:12])}{' …' if len(labels) > 12 else ''})")
        elsewhere = self.search(quotation)
        same = [f"{w.name} § {u.label}" for w, u in elsewhere if w.key == key]
        other = [f"{w.key} ({w.name} § {u.label})" for w, u in elsewhere if w.key != key]
        if same:
            hint = f"; it is in the same source at {', '.join(same)}"
        elif other:
            hint = f"; it is found in another source: {', '.join(other)}"
        else:
            hint = "; it is not found in any stored text"
        return Finding(None, problem=f"not found at {locator!r} in the stored copies of {key!r}{hint}")

    def find(self, quotation: str) -> Finding:
        """Where ``quotation`` is found, in any stored copy of any source: for words a page shows without
        naming their source (a note of the bibliography, a docstring), which must still be in a copy."""
        found = self.search(quotation) or self.search(quotation, fold_case=True)
        if not found:
            return Finding(None, problem="it is not found in any stored text")
        best = min(GRADES.index(w.grade) for w, _ in found)
        chosen = [(w, u) for w, u in found if GRADES.index(w.grade) == best]
        return Finding(GRADES[best], tuple(dict.fromkeys(w for w, _ in chosen)), tuple(dict.fromkeys(u for _, u in chosen)))

    def search(self, quotation: str, *, fold_case: bool = False) -> list[tuple[Witness, Unit]]:
        """Every unit of every stored text that holds the whole quotation (``fold_case``: in any case, for
        words that open a sentence where the source has them inside one)."""
        pieces = fragments(quotation)
        if fold_case:
            pieces = [p.lower() for p in pieces]
            return [(w, u) for w in self.witnesses for u in w.units if pieces and _in_order(pieces, u.plain.lower())]
        return [(w, u) for w in self.witnesses for u in w.units if pieces and _in_order(pieces, u.plain)]


def library(folder: Path) -> Library:
    """The stored texts in ``folder`` (the project's: ``roots.of(config).texts``), read once per folder."""
    return _library(folder)


@functools.cache
def _library(folder: Path) -> Library:
    return Library(folder)
