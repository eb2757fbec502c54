"""The rule matrix: every rule point of every variant, one tab per board size.

Directive
    ``rule-matrix``   rule points x variants; each cell links to the point's provenance on the
                      variant's page, a value unlike the others of its row is set in bold, † marks
                      modern filler and ‡ a passage known only second-hand or unverified
"""

from __future__ import annotations

from collections import Counter

from sphinx.application import Sphinx

from tafl_rules import catalogue
from tafl_rules.catalogue import Provenance, Variant
from tafl_rules.rules import FIELDS

from .roots import Roots
from .texts import library
from .util import MarkdownDirective, md_escape
from .words import GROUPS, RULE_NAMES, short_name, short_value, size_label

#: The matrix's tabs, most asked-for first (the Welsh 11x11 boards), then the rest by size.
MATRIX_SIZE_ORDER = (11, 9, 7, 19)
#: The matrix's own style: a table that scrolls sideways with its first column kept in view, and on a
#: wide screen the width of the text and its margin (what the theme's ``full-width`` class gives;
#: that class is not used, because the theme's script then looks for a secondary sidebar this page
#: does not have, and fails).
_STYLE = ('<style>.tafl-matrix { position: relative; z-index: 2; }'
          ' @media (min-width: 992px) { .tafl-matrix { max-width: 136%; width: 136%; } }'
          ' .tafl-matrix table { display: block; overflow-x: auto; font-size: 0.85em; }'
          ' .tafl-matrix td, .tafl-matrix th, .tafl-matrix td *, .tafl-matrix th * { overflow-wrap: normal;'
          ' word-break: normal; hyphens: none; }'
          ' .tafl-matrix td, .tafl-matrix th {'
          ' min-width: 5.5em; }'
          ' .tafl-matrix td:first-child, .tafl-matrix th:first-child { min-width: 13em; position: sticky; left: 0;'
          ' z-index: 1; background: var(--pst-color-background); }'
          ' @media (max-width: 600px) { .tafl-matrix td:first-child, .tafl-matrix th:first-child {'
          ' min-width: 8em; } }</style>')


def _doubtful(folders: Roots, prov: Provenance) -> bool:
    """Whether a rule point rests on a passage known only second-hand or from an unverified copy."""
    if prov.passage is None:
        return False
    return library(folders.texts).check(prov.source, prov.locator, prov.passage).status in ("second-hand", "unverified")


def _table(folders: Roots, variants: list[Variant]) -> list[str]:
    families = list(catalogue.FAMILIES)
    vs = sorted(variants, key=lambda v: (families.index(v.family), v.id))
    head = "| Rule | " + " | ".join(f"{{variant}}`{md_escape(short_name(v))} <{v.id}>`" for v in vs) + " |"
    out = [head, "|" + " --- |" * (len(vs) + 1)]
    group_of = {fields[0]: group for group, fields in GROUPS}
    for field in FIELDS:
        if field in group_of:
            out.append(f"| **{group_of[field]}** |" + " |" * len(vs))
        values = [short_value(field, getattr(v.rules, field)) for v in vs]
        common = Counter(values).most_common(1)[0][0]
        cells = []
        for v, value in zip(vs, values):
            prov = v.provenance[field]
            text = md_escape(value) + ("†" if prov.is_filler else "") + ("‡" if _doubtful(folders, prov) else "")
            ref = f"{{rule}}`{text} <{v.id}:{field}>`"
            cells.append(f"**{ref}**" if value != common and len(set(values)) > 1 else ref)
        out.append(f"| {md_escape(RULE_NAMES.get(field, field))} | " + " | ".join(cells) + " |")
    return out


def matrix_md(folders: Roots, variants: list[Variant] | None = None) -> str:
    """Rule points x variants, one tab per board size (11x11 first) plus one with every variant.

    Rows are the rule points in plain words; within a tab the tawlbwrdd family comes first."""
    variants = variants if variants is not None else catalogue.variants()
    present = {v.rules.size for v in variants}
    sizes = [n for n in MATRIX_SIZE_ORDER if n in present] + sorted(present - set(MATRIX_SIZE_ORDER))
    lines = [_STYLE, "", "::::{tab-set}", ":class: tafl-matrix", ""]
    for size in sizes:
        vs = [v for v in variants if v.rules.size == size]
        lines += [f":::{{tab-item}} {size_label(size)} ({len(vs)})", f":sync: size-{size}", "", *_table(folders, vs), "", ":::", ""]
    lines += [f":::{{tab-item}} All sizes ({len(variants)})", ":sync: size-all", "", *_table(folders, variants), "", ":::", "",
              "::::", ""]
    return "\n".join(lines)


class RuleMatrix(MarkdownDirective):
    def markdown(self) -> str:
        return matrix_md(self.folders)


def setup_matrix(app: Sphinx) -> None:
    app.add_directive("rule-matrix", RuleMatrix)
