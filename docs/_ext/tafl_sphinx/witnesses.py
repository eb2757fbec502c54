"""A dated witness table for each modern reconstruction, drawn from the catalogue's provenance.

Directive
    ``witness-table``   one table per reconstruction named in the content (``Name: bibkey bibkey …``):
                        every rule point for which the catalogue quotes one of those works, the value the
                        catalogue takes from it (a variant's own rule, or a toggle's reading), the work
                        with its locator, and the work's date as the bibliography gives it

Nothing in the tables is typed: the values come from ``tafl_rules`` (the variants' rules and the
toggles' changes), the passages and locators from their provenance, the dates from
``docs/references.bib``.
"""

from __future__ import annotations

from collections import defaultdict

from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from . import bib
from .apparatus import catalogue_passages
from .util import MarkdownDirective, md_escape
from .words import RULE_NAMES, short_value

#: The rule points a reader compares first, in this order; the others follow alphabetically.
LEADING = ("size", "start", "first", "king_capture", "escape", "throne", "king_armed", "corners", "sandwich")


def bib_dates() -> dict[str, str]:
    """Each bibliography entry's date as the bibliography gives it."""
    return {key: bib.plain_text(e.fields.get("year", "n.d.")) for key, e in bib.entries().items()}


def witness_rows(keys: set[str]) -> dict[str, list[tuple[str, str, str, str]]]:
    """Rule point -> [(value, source, locator, variant or reading)] for every passage quoted from ``keys``."""
    rows: dict[str, list[tuple[str, str, str, str]]] = defaultdict(list)
    for v, use, prov in catalogue_passages():
        if prov.source not in keys or prov.passage is None:
            continue
        if use[0] == "rule":
            field = use[1]
            value = short_value(field, getattr(v.rules, field)) if field not in ("size", "start") else (
                f"{v.rules.size}×{v.rules.size}" if field == "size" else f"the layout of {{variant}}`{v.id}`")
            where = f"{{variant}}`{v.id}`"
        else:
            reading = v.toggles[use[1]].readings[use[2]]
            for field, val in reading.changes.items():
                val = frozenset(val) if isinstance(val, (list, tuple)) else val
                entry = (short_value(field, val), prov.source, prov.locator,
                         f"{{variant}}`{v.id}`, reading ‘{md_escape(reading.label)}’")
                if entry not in rows[field]:
                    rows[field].append(entry)
            continue
        entry = (value, prov.source, prov.locator, where)
        if entry not in rows[field]:
            rows[field].append(entry)
    return rows


class WitnessTable(MarkdownDirective):
    """One table per reconstruction: rule point, value, source and locator, date, where the catalogue uses it."""

    has_content = True
    option_spec = {"points": directives.unchanged}

    def markdown(self) -> str:
        dates = bib_dates()
        lines: list[str] = []
        for line in self.content:
            name, sep, keys = line.partition(":")
            if not sep or not keys.split():
                raise ValueError(f"write one reconstruction a line, 'Name: bibkey bibkey …', got {line!r}")
            unknown = sorted(k for k in keys.split() if k not in dates)
            if unknown:
                raise ValueError(f"{name.strip()}: no bibliography entry {unknown[0]!r}")
            rows = witness_rows(set(keys.split()))
            lines += [f"### {md_escape(name.strip())}", ""]
            if not rows:
                lines += ["The catalogue quotes none of these works for a rule point.", ""]
                continue
            lines += ["| Rule point | Value | Source (date), place | Used in |", "| --- | --- | --- | --- |"]
            order = sorted(rows, key=lambda f: (LEADING.index(f) if f in LEADING else len(LEADING), f))
            for field in order:
                for value, source, locator, where in rows[field]:
                    lines.append(f"| {md_escape(RULE_NAMES.get(field, field))} | {md_escape(value) if '{' not in value else value} "
                                 f"| {{cite:t}}`{source}` ({md_escape(dates[source])}), {md_escape(locator)} | {where} |")
            lines.append("")
        return "\n".join(lines)


def setup_witnesses(app: Sphinx) -> None:
    app.add_directive("witness-table", WitnessTable)
