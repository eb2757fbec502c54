"""Figures of start layouts, drawn from the catalogue at build time (readable without JavaScript).

Directives
    ``variant-figure <id>``     the variant's start layout as a static SVG, with its colour key
    ``compare-figures <ids>``   figures side by side, differences marked, and a table of formations
"""

from __future__ import annotations

from collections.abc import Iterable

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.locale import _
from sphinx.util.docutils import SphinxDirective

from tafl_rules import catalogue

from .figure_key import key_html
from .layouts import differing_squares, formation, king_lines, svg_markup
from .links import label
from .util import MarkdownDirective, catalogue_files, md_escape
from .words import size_label

#: The three figures the comparison page puts side by side (catalogue ids).
COMPARED = ("lewis-1", "lewis-2", "jones-3")


def figure_md(vid: str, *, marks: Iterable[str] = (), toggles: dict[str, str] | None = None, caption: str = "") -> str:
    """A ``variant-figure`` directive as MyST."""
    opts = []
    if marks:
        opts.append(f":marks: {' '.join(marks)}")
    if toggles:
        opts.append(":toggles: " + " ".join(f"{k}={v}" for k, v in sorted(toggles.items())))
    if caption:
        opts.append(f":caption: {caption}")
    return "\n".join([f"```{{variant-figure}} {vid}", *opts, "```"])


def _figure_toggles(argument: str) -> dict[str, str]:
    pairs = {}
    for item in argument.replace(",", " ").split():
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"toggle {item!r} is not of the form name=value")
        pairs[name] = value
    return pairs


class VariantFigure(SphinxDirective):
    """The start layout of a variant as a static SVG (readable without JavaScript).

    ``:marks:`` outlines the squares named; ``:against: <variant>`` outlines those where the
    layout differs from another variant's (a correction against the figure as printed)."""

    required_arguments = 1
    option_spec = {"marks": directives.unchanged, "toggles": _figure_toggles, "caption": directives.unchanged,
                   "against": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        for path in catalogue_files():
            self.env.note_dependency(path)
        vid = self.arguments[0]
        try:
            v = catalogue.variant(vid, **self.options.get("toggles", {}))
            marks = self.options.get("marks", "").split()
            against = ""
            if "against" in self.options:  # outline the squares where it differs from another layout
                other = catalogue.variant(self.options["against"].strip())
                marks += differing_squares([v.rules.start, other.rules.start], v.rules.size)
                against = other.name
            caption = self.options.get("caption", "")
            markup = svg_markup(v.rules, marks=marks, title=f"{caption or v.name} ({size_label(v.rules.size)})",
                                say=lambda text: str(_(text)))
        except Exception as error:
            raise self.error(f"variant-figure {vid}: {error}") from error
        figure = nodes.container(classes=["tafl-figure"])
        figure["ids"].append(label("figure", vid, str(self.env.new_serialno("tafl-figure"))))
        figure += nodes.raw("", f'<div class="tafl-svg" data-variant="{vid}" data-marks="{" ".join(marks)}">'
                            f"{markup}</div>", format="html")
        figure += nodes.raw("", key_html(v.rules, marked=bool(marks), against=against),
                            format="html")
        if caption:
            figure += nodes.paragraph("", caption, classes=["tafl-figure-caption"])
        return [figure]


def compare_md(ids: list[str]) -> str:
    """Figures side by side with the differing squares marked, and a table of the differences."""
    printed = [catalogue.variant(i) for i in ids]
    size = printed[0].rules.size
    marks = differing_squares([v.rules.start for v in printed], size)
    corrections = sorted((w for w in catalogue.variants() if w.correction_of in ids),
                         key=lambda w: ids.index(w.correction_of or ""))
    shown = printed + corrections
    lines = [f"::::{{grid}} 1 2 {min(3, len(shown))} {min(3, len(shown))}", ":gutter: 2", ""]
    for v in shown:
        if v.correction_of:
            own = differing_squares([v.rules.start, catalogue.variant(v.correction_of).rules.start], size)
            note = f"Correction of {{variant}}`{v.correction_of}`; marked: where it departs from the printed figure."
        else:
            own = marks
            note = "As printed; marked: squares where the three printed figures disagree."
        lines += [f":::{{grid-item-card}} {md_escape(v.name)}", ":class-card: tafl-compare-card", "",
                  figure_md(v.id, marks=own), "", note,
                  f"{{variant}}`Read and play <{v.id}>`", ":::", ""]
    lines += ["::::", ""]
    lines += ["Key: dark discs are attackers, light discs defenders, the light disc with a cross the king; "
              "an outlined square is a marked one.", ""]
    lines += [f"Marked squares ({len(marks)}): " + ", ".join(f"`{s}`" for s in marks) + ".", ""]
    lines += ["| Figure | Attacker formation | Defender formation | From the king to the edge, in each line |",
              "| --- | --- | --- | --- |"]
    for v in shown:
        lines.append(f"| {{variant}}`{v.id}` | {formation(v.rules, 't')} | {formation(v.rules, 'T')} | {king_lines(v.rules)} |")
    lines.append("")
    return "\n".join(lines)


class CompareFigures(MarkdownDirective):
    optional_arguments = 10

    def markdown(self) -> str:
        return compare_md(list(self.arguments) or list(COMPARED))


def setup_figures(app: Sphinx) -> None:
    app.add_directive("variant-figure", VariantFigure)
    app.add_directive("compare-figures", CompareFigures)
