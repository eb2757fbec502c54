"""Tables of witnesses: for each modern reconstruction, what each source states on each rule point.

Directive
    ``witness-table``   one table per reconstruction named in the content, one line each::

                            Writer / Rule set: key key@locator-prefix …

                        Consecutive lines with the same writer share a heading. A row per rule point
                        gives what the works listed state on it, in their words (a checked quotation)
                        and, where the catalogue gives one, the site's summary of them, with the work,
                        its date and the place; a point none of them addresses says "not stated".

The cells are the statements of the catalogue's provenance (:class:`tafl_rules.catalogue.Statement`):
a rule's own passage, the ``also`` statements beside it, and the passage of each reading of a toggle,
which speaks to that toggle's point and to no other. The rules the engine plays are never printed
here: a setting that a source does not state (a default, or a field with no effect under its rules)
has no statement, so it is "not stated". A statement belongs to the works it was written in, or, if
it ``reports`` another work's rules (Walker's account of Bell), to that work: a line names a work by
its bibliography key, and by ``key@prefix`` only the statements at locators that begin with the
prefix (``aagenielsen-forum@Hagbard``: Hagbard's posts in that thread).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from sphinx.application import Sphinx

from tafl_rules import catalogue
from tafl_rules.catalogue import Statement, Variant

from .roots import Roots
from . import bib
from .util import MarkdownDirective, md_escape, quote_md
from .words import RULE_NAMES, SPECIAL_SQUARES

#: The rule points of the tables, in order: the point, its name, and the rules fields it covers.
POINTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("size", RULE_NAMES["size"], ("size",)),
    ("start", RULE_NAMES["start"], ("start",)),
    ("first", RULE_NAMES["first"], ("first",)),
    ("movement", "How the pieces move", ("man_speed", "king_speed")),
    ("throne", "The centre square (throne)", ("throne", *SPECIAL_SQUARES["throne"])),
    ("corners", "The corner squares", ("corners", *SPECIAL_SQUARES["corners"])),
    ("camps", "The attackers' starting squares (camps)", ("camps", *SPECIAL_SQUARES["camps"])),
    ("shieldwall", "How pieces are taken (and whether a row can be)", ("shieldwall",)),
    ("sandwich", RULE_NAMES["sandwich"], ("sandwich",)),
    ("king_armed", RULE_NAMES["king_armed"], ("king_armed",)),
    ("king_capture", "How the king is taken", ("king_capture", "king_capture_against")),
    ("watch_king", RULE_NAMES["watch_king"], ("watch_king",)),
    ("escape", RULE_NAMES["escape"], ("escape",)),
    ("tuichi", RULE_NAMES["tuichi"], ("tuichi",)),
    ("edge_fort", RULE_NAMES["edge_fort"], ("edge_fort",)),
    ("encirclement", RULE_NAMES["encirclement"], ("encirclement",)),
    ("no_moves", RULE_NAMES["no_moves"], ("no_moves",)),
    ("repetition", RULE_NAMES["repetition"], ("repetition", "repetition_count")),
    ("ply_limit", RULE_NAMES["ply_limit"], ("ply_limit",)),
)
_POINT_OF = {field: point for point, _, fields in POINTS for field in fields}
NOT_STATED = "not stated"


@dataclasses.dataclass
class Witnessed:
    """One statement on one rule point, and where the catalogue uses it."""

    point: str
    statement: Statement
    used_in: list[str] = dataclasses.field(default_factory=list)

    @property
    def work(self) -> str:
        """The work whose rules it gives: the one it reports, else the one it is written in."""
        return self.statement.reports or self.statement.source


def point_of_toggle(v: Variant, name: str) -> str:
    """The rule point a toggle is about: its own name if that is a rules field, else that of the first field
    its readings change.

    >>> point_of_toggle(catalogue.variant("copenhagen"), "escape")
    'escape'
    >>> point_of_toggle(catalogue.variant("tablut-linnaeus"), "king_reenter")
    'throne'
    """
    if name in _POINT_OF:
        return _POINT_OF[name]
    first = next(iter(next(iter(v.toggles[name].readings.values())).changes))
    return _POINT_OF[first]


def statements() -> Iterator[tuple[Witnessed, str]]:
    """Every statement of the catalogue with its point, and a link to where it is used."""
    for v in catalogue.variants():
        for field, prov in v.provenance.items():
            for st in prov.statements:
                yield Witnessed(_POINT_OF[field], st), f"{{variant}}`{v.id}`"
        for toggle in v.toggles.values():
            for value, reading in toggle.readings.items():
                for st in reading.provenance.statements:
                    yield (Witnessed(point_of_toggle(v, toggle.name), st),
                           f"{{variant}}`{v.id}`, reading {{toggle}}`‘{md_escape(reading.label)}’ <{v.id}:{toggle.name}={value}>`")


def _selected(w: Witnessed, selectors: list[tuple[str, str]]) -> bool:
    return any(w.work == key and w.statement.locator.startswith(prefix) for key, prefix in selectors)


def witness_rows(selectors: list[tuple[str, str]]) -> dict[str, list[Witnessed]]:
    """Rule point -> the statements of the selected works on it, each once, with every use."""
    rows: dict[str, dict[tuple[str, ...], Witnessed]] = {point: {} for point, _, _ in POINTS}
    for w, use in statements():
        if not _selected(w, selectors):
            continue
        st = w.statement
        key = (st.source, st.locator, " ".join(st.passage.split()))
        held = rows[w.point].setdefault(key, w)
        if st.says and not held.statement.says:  # the summary, wherever the catalogue gives it
            held.statement = st
        if use not in held.used_in:
            held.used_in.append(use)
    return {point: list(found.values()) for point, found in rows.items()}


def parse_selectors(text: str) -> list[tuple[str, str]]:
    """``key`` and ``key@prefix`` as (key, locator prefix); an underscore in a prefix stands for a space.

    >>> parse_selectors("ludii@Tablut aagenielsen-forum@Hagbard,_24 jones1993")
    [('ludii', 'Tablut'), ('aagenielsen-forum', 'Hagbard, 24'), ('jones1993', '')]
    """
    out = []
    for item in text.split():
        key, _, prefix = item.partition("@")
        out.append((key, prefix.replace("_", " ")))
    return out


def bib_dates(folders: Roots) -> dict[str, str]:
    """Each bibliography entry's date as the bibliography gives it."""
    return {key: bib.plain_text(e.fields.get("year", "n.d.")) for key, e in bib.entries(folders.bibfiles).items()}


def _cell(w: Witnessed) -> str:
    st = w.statement
    words = quote_md(st.source, st.locator, st.passage)
    return f"{md_escape(st.says)}: {words}" if st.says else words


class WitnessTable(MarkdownDirective):
    """One table per reconstruction: every rule point, what its sources state on it, or that none does."""

    has_content = True
    match_titles = True

    def markdown(self) -> str:
        dates = bib_dates(self.folders)
        lines: list[str] = []
        writer_now = None
        for line in self.content:
            if not line.strip():
                continue
            heading, sep, keys = line.partition(":")
            writer, _, rule_set = heading.partition(" / ")
            if not sep or not keys.split() or not rule_set.strip():
                raise ValueError(f"write one rule set a line, 'Writer / Rule set: key key@prefix …', got {line!r}")
            selectors = parse_selectors(keys)
            unknown = sorted(k for k, _ in selectors if k not in dates)
            if unknown:
                raise ValueError(f"{writer.strip()}: no bibliography entry {unknown[0]!r}")
            if writer.strip() != writer_now:
                writer_now = writer.strip()
                lines += [f"### {md_escape(writer_now)}", ""]
            lines += [f"#### {md_escape(rule_set.strip())}", ""]
            rows = witness_rows(selectors)
            if not any(rows.values()):
                raise ValueError(f"{writer_now} / {rule_set.strip()}: the catalogue quotes none of {keys.strip()}")
            lines += ["| Rule point | What the source states | Source and place | Used in |", "| --- | --- | --- | --- |"]
            for point, name, _ in POINTS:
                found = rows[point]
                if not found:
                    lines.append(f"| {md_escape(name)} | *{NOT_STATED}* | | |")
                for n, w in enumerate(found):
                    st = w.statement
                    via = f"{{cite:t}}`{st.source}`, {md_escape(st.locator)}"  # the citation carries the date
                    lines.append(f"| {md_escape(name) if n == 0 else ''} | {_cell(w)} | {via} | {'; '.join(w.used_in)} |")
            lines.append("")
        return "\n".join(lines)


def setup_witnesses(app: Sphinx) -> None:
    app.add_directive("witness-table", WitnessTable)
