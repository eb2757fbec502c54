"""The apparatus of the source pages, drawn from the stored texts and the catalogue.

Directives
    ``parallel-text``      two stored texts side by side, unit by unit, with a note per unit
    ``stored-texts``       the list of stored copies with their provenance (edition, where seen, licence)
    ``source-passages``    for the given sources, every catalogue passage and the rule points it supports
"""

from __future__ import annotations

import re
from collections import defaultdict

from docutils.parsers.rst import directives

from .content import MarkdownDirective, RULE_NAMES, all_variants, md_escape, rich_md, rule_label, toggle_label
from .texts import GRADES, library

#: How the witness of a copy is named under a parallel column.
GRADE_WORDS = {"verified": "", "second-hand": "second-hand", "unverified": "unverified"}


def _italics(text: str) -> str:
    """A stored text as MyST: its ``_word_`` italics kept, everything else literal."""
    parts = re.split(r"(_[^_\n]+_)", text)
    return "".join(f"*{md_escape(p[1:-1])}*" if p.startswith("_") and p.endswith("_") and len(p) > 2 else md_escape(p)
                   for p in parts)


def _caption(witness, unit) -> str:
    where = f" ({md_escape(unit.where)})" if unit.where else ""
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
    """

    has_content = True
    option_spec = {"left": directives.unchanged_required, "right": directives.unchanged_required,
                   "rows": directives.unchanged, "left-title": directives.unchanged,
                   "right-title": directives.unchanged, "lang-left": directives.unchanged,
                   "lang-right": directives.unchanged}

    def markdown(self) -> str:
        lib = library()
        by_name = {w.name: w for w in lib.witnesses}

        def copies(option: str):
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
        notes = {}
        for line in self.content:
            label, sep, text = line.partition(":")
            if sep and text.strip():
                notes.setdefault(label.strip(), []).append(text.strip())
            elif line.strip() and notes:
                notes[list(notes)[-1]].append(line.strip())

        def column(witnesses, label: str, lang: str) -> list[str]:
            out = []
            for w in witnesses:
                unit = w.unit(label) if label else None
                if unit is None:
                    continue
                cls = f" tafl-lang-{lang}" if lang else ""
                out += [f":::{{container}} tafl-parallel-text{cls}", "", _italics(unit.text), "", ":::", "",
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
            for title, witnesses, label, lang in ((titles[0], left, left_label, self.options.get("lang-left", "")),
                                                  (titles[1], right, right_label, self.options.get("lang-right", ""))):
                lines += ["::::{grid-item}", ""]
                if title:
                    lines += [f"<small>**{md_escape(title)}**</small>", ""]
                lines += [*column(witnesses, label, lang), "::::", ""]
            lines += [":::::", ""]
            for label in (left_label, right_label):
                for note in notes.pop(label, []):
                    lines += [rich_md(note), ""]
        return "\n".join(lines)


class StoredTexts(MarkdownDirective):
    """Every stored copy: what it is, where it was seen, its licence and how many quotations it backs."""

    def markdown(self) -> str:
        lib = library()
        lines = []
        for key in sorted(lib.keys):
            for w in lib.of(key):
                grade = {"verified": "a copy of the source itself", "second-hand": "the source as another work quotes it",
                         "unverified": "a copy that cannot be tied to its original"}[w.grade]
                extent = "the whole passage" if w.extent == "full" else "only the words quoted on this site"
                lines += [f"**{{cite:t}}`{key}`** — {md_escape(w.copy)}", "",
                          f"- Standing: {grade}" + (f" ({{cite:t}}`{w.via}`)" if w.via else "") + f"; holds {extent}.",
                          f"- Seen: {md_escape(w.seen)}", f"- Licence: {md_escape(w.licence)}",
                          f"- Parts: {', '.join(md_escape(u.label) for u in w.units)}", ""]
        return "\n".join(lines)


def catalogue_passages():
    """Every passage of the catalogue: (variant, where it is used, provenance)."""
    for v in all_variants():
        for field, prov in v.provenance.items():
            yield v, ("rule", field), prov
        for toggle in v.toggles.values():
            for value, reading in toggle.readings.items():
                yield v, ("toggle", toggle.name, value), reading.provenance


class SourcePassages(MarkdownDirective):
    """For the given bibliography keys: each passage the catalogue quotes, and every rule point it supports."""

    required_arguments = 1
    optional_arguments = 10

    def markdown(self) -> str:
        keys = set(self.arguments)
        grouped: dict[tuple[str, str, str], list[str]] = defaultdict(list)
        for v, use, prov in catalogue_passages():
            if prov.source not in keys or prov.passage is None:
                continue
            if use[0] == "rule":
                link = f"{{ref}}`{md_escape(RULE_NAMES.get(use[1], use[1]))} <{rule_label(v.id, use[1])}>`"
            else:
                link = f"{{ref}}`reading {md_escape(use[1])}={md_escape(use[2])} <{toggle_label(v.id, use[1], use[2])}>`"
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


def setup_apparatus(app) -> None:
    app.add_directive("parallel-text", ParallelText)
    app.add_directive("stored-texts", StoredTexts)
    app.add_directive("source-passages", SourcePassages)
