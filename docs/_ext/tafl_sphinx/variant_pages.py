"""The variant pages: one page per catalogue variant, its rules in plain words with their sources,
its toggles, and the list of every variant.

Directives
    ``variant-page <id>``       a whole page for one variant (title included)
    ``variant-rules <id>``      the rules in plain words, with provenance
    ``variant-toggles <id>``    the toggles the variant offers, one anchor per reading
    ``variant-list``            cards for every variant, by family
    ``hywel-costing``           the Hywel Dda valuation turned into men, step by step

The page generators are pure functions: catalogue data in, MyST text out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.locale import _
from sphinx.util import logging

from tafl_rules import catalogue
from tafl_rules.catalogue import Provenance, Variant
from tafl_rules.rules import FIELDS

from .roots import Roots
from .figures import figure_md
from .language import page_text
from .layouts import differing_squares
from .links import VARIANT_DIR, label, rule_label, toggle_label, variant_docname
from .texts import library
from .util import MarkdownDirective, cite, md_escape, quote_md, rich_md
from .words import FAMILY_NAMES, GROUPS, NO_EFFECT, RULE_NAMES, SPECIAL_SQUARES, plain, size_label

logger = logging.getLogger(__name__)


def provenance_md(folders: Roots, prov: Provenance, say: Callable[[str], str] = str) -> str:
    """Where a rule point comes from: the quotation checked against its stored source, or the filler's words.
    ``say``: the words of the build's language for the locator and the filler (a quotation stays as
    its source gives it), where the page's catalogue does not reach (:func:`absent_rows_md`)."""
    locator = say(prov.locator)
    if prov.passage is None:
        return f"{cite(prov.source, locator)}: *{rich_md(say(prov.filler or ''))}*"
    finding = library(folders.texts).check(prov.source, prov.locator, prov.passage)
    where = f" ({md_escape(finding.where)})" if finding.where and finding.where != prov.locator else ""
    via = "".join(f", {say('as given by')} {{cite:t}}`{key}`" for key in finding.via)
    return f"{cite(prov.source, locator)}{where}{via}: {quote_md(prov.source, prov.locator, prov.passage)}"


def rules_md(folders: Roots, v: Variant) -> str:
    """The variant's rules as tables by group: rule point, plain words, provenance, open points."""
    grouped = {f for _group, fields in GROUPS for f in fields}
    others = tuple(f for f in FIELDS if f not in grouped)  # a field added to Rules later still shows
    absent = {f for square, fields in SPECIAL_SQUARES.items() if not getattr(v.rules, square) for f in fields}
    out = []
    for group, fields in GROUPS + ((("Other rule points", others),) if others else ()):
        shown = [f for f in fields if f not in absent]
        if shown:
            out += [f"**{group}**", "", *_table_md(folders, v, shown), ""]
    if absent:
        missing = [name for name in SPECIAL_SQUARES if not getattr(v.rules, name)]
        words = {"throne": "no special centre square", "corners": "no special corners", "camps": "no camps"}
        out += [f":::{{dropdown}} Rules about squares this game does not have ({', '.join(words[m] for m in missing)})",
                "", absent_rows_md(folders, v, [f for f in FIELDS if f in absent]), ":::", ""]
    return "\n".join(out)


def _table_md(folders: Roots, v: Variant, fields: list[str], say: Callable[[str], str] = str) -> list[str]:
    """The lines of a rule table of ``fields``: rule point, plain words, provenance (``say``: as
    :func:`provenance_md`'s, for every cell but the quotations)."""
    def row(field: str) -> str:
        anchor = f"{{tafl-anchor}}`{rule_label(v.id, field)}`"
        words = plain(field, getattr(v.rules, field), v.rules)
        if words.endswith(f" {NO_EFFECT}"):
            words = f"{say(words[: -len(NO_EFFECT) - 1])} {say(NO_EFFECT)}"
        else:
            words = say(words)
        words = md_escape(words)
        note = v.notes.get(field)
        if note:
            words += f" *{say('Open point:')}* {rich_md(note)}"
        name = md_escape(say(RULE_NAMES.get(field, field)))
        return f"| {anchor}{name} | {words} | {provenance_md(folders, v.provenance[field], say)} |"

    head = [f"| {say('Rule')} | {say('In plain words')} | {say('Source')} |", "| --- | --- | --- |"]
    return [*head, *(row(f) for f in fields)]


def absent_rows_md(folders: Roots, v: Variant, fields: list[str]) -> str:
    """The rule points about squares the variant lacks: a table folded in a dropdown, whose cells
    Sphinx's own i18n never reaches (sphinx-design's dropdown gives the table no place in the page),
    so they are said here in the build's language, through the site's own catalogue
    (``locale/<code>/LC_MESSAGES/sphinx.po``; as they are in the first language)."""
    def say(text: str) -> str:
        return str(_(text)) if text else text

    # (the line above the table is a message of the page, which Sphinx's i18n translates)
    return "\n".join(["Every rule point has a value, even where it cannot matter; these are they.", "",
                      *_table_md(folders, v, fields, say), ""])


def _changes_md(v: Variant, name: str, value: str) -> str:
    """What a reading changes, in the plain words of the rule tables."""
    reading = v.toggles[name].readings[value]
    rules = catalogue.variant(v.id, **{name: value}).rules
    moot = {f for square, fields in SPECIAL_SQUARES.items() if not getattr(rules, square) for f in fields}
    return " ".join(plain(field, getattr(rules, field), rules) for field in reading.changes if field not in moot)


#: The second tab of a layout with a source diagram: short enough to sit beside "Figure" on a phone.
DIAGRAM_TAB = "Source's diagram"


def play_link(vid: str, toggles: dict[str, str]) -> str:
    """A share link for the page's board (the board script reads ``?board=0&variant=..&toggles=..``).

    >>> play_link("lewis-1", {"escape": "corner"})
    '?board=0&amp;variant=lewis-1&amp;toggles=escape:corner#play'
    """
    pairs = ",".join(f"{k}:{v}" for k, v in sorted(toggles.items()))
    return f"?board=0&amp;variant={vid}&amp;toggles={pairs}#play"


def toggles_md(folders: Roots, v: Variant) -> str:
    """Each toggle of the variant, each reading with what it changes, its source and a link that plays it."""
    if not v.toggles:
        return "This variant offers no toggles: its sources leave no named point open that the catalogue models.\n"
    out = ["Each toggle is one of the points the sources leave open. The first reading listed is the one "
           "this variant uses; every other reading is the same variant with only that point changed, and "
           "its *Play this reading* link restarts the board above under it. The {doc}`rules sandbox "
           "</docs/sandbox>` combines any readings.", ""]
    for name, toggle in v.toggles.items():
        out += [f"### {md_escape(toggle.label)}", ""]
        if toggle.question:
            out += [rich_md(toggle.question), ""]
        ordered = [toggle.default] + [r for r in toggle.readings if r != toggle.default]
        for value in ordered:
            reading = toggle.readings[value]
            mark = " (this variant's reading)" if value == toggle.default else ""
            play = "" if value == toggle.default else (
                f' <a class="tafl-play-reading" href="{play_link(v.id, {name: value})}">Play this reading</a>')
            stop = "" if (reading.provenance.passage or "").rstrip().endswith((".", "?", "!")) else "."
            out.append(f"- {{tafl-anchor}}`{toggle_label(v.id, name, value)}`**{md_escape(reading.label)}**"
                       f"{mark}: {md_escape(_changes_md(v, name, value))} {provenance_md(folders, reading.provenance)}{stop}"
                       + (f" {rich_md(reading.note)}" if reading.note else "") + play)
        out.append("")
    return "\n".join(out)


def variant_page_md(folders: Roots, v: Variant, name: str = "") -> str:
    """A whole variant page: its name and summary, then the playable board (so that on a phone the
    live board, not a picture of it, is the first board on the screen), then the layout as a
    figure and the rest. ``name``: the variant's name in the page's language, for the figure's
    caption (the page's messages are translated after it is parsed)."""
    c = v.counts()
    lines = [f"# {md_escape(v.name)}", "", f"{{tafl-anchor}}`{label('variant', v.id)}`{md_escape(v.summary)}", ""]
    lines += ["## Play", "", f"```{{tafl-board}} {v.id}", "```", "",
              "The board plays this variant's own readings (listed under *Toggles* below); it needs JavaScript, "
              "and starts a Python engine in your browser.", ""]
    lines += ["## Layout", ""]
    facts = [f"Identifier `{v.id}`", f"family: {FAMILY_NAMES.get(v.family, v.family)}", f"board {size_label(v.rules.size)}",
             f"{c['attacker']} attackers against {c['defender']} defenders and {'a king' if c['king'] else 'no king'}"]
    lines += ["; ".join(facts) + ".", ""]
    if v.correction_of:
        lines += [":::{important}", f"This is a **correction**, not what was printed: it corrects "
                  f"{{variant}}`{v.correction_of}`, which the catalogue keeps exactly as printed. "
                  f"The squares where the two differ are marked below.", ":::", ""]
    corrections = [w for w in catalogue.variants() if w.correction_of == v.id]
    if corrections:
        lines += [":::{note}", "The printed figure is flagged in the catalogue; a corrected reading is kept "
                  "separately: " + ", ".join(f"{{variant}}`{w.id}`" for w in corrections) + ".", ":::", ""]
    marks: list[str] = []
    if v.correction_of:
        original = catalogue.variant(v.correction_of)
        marks = differing_squares([v.rules.start, original.rules.start], v.rules.size)
    figure = figure_md(v.id, marks=marks, caption=str(_("%s: start position")) % (name or v.name))
    if v.diagram:
        legend = ", ".join(f"`{ch}` {piece}" for ch, piece in v.diagram_legend.items())
        lines += ["::::{tab-set}", "", ":::{tab-item} Figure", "", figure, "", ":::", "",
                  f":::{{tab-item}} {DIAGRAM_TAB}", "",
                  f"As the catalogue holds it ({legend}); the figure is drawn from this text.", "",
                  "```text", v.diagram, "```", "", ":::", "", "::::", ""]
    else:
        lines += [figure, ""]
    if v.layout_note:
        lines += [rich_md(v.layout_note), ""]
    if v.general_notes:
        lines += [":::{admonition} Notes", rich_md(v.general_notes), ":::", ""]
    lines += ["## Rules in plain words", "",
              "Every rule point with the passage it rests on, or the words *modern filler* and who proposed it. "
              "Each quotation is checked against a stored copy of its source when the site is built: "
              "unmarked, it was found in a copy of the source itself; *second-hand* means it is known only "
              "as another work quotes it, *unverified* that the copy cannot be tied to its original "
              "(see {doc}`/sources/texts`). “Open point” marks what the source leaves undecided.", "",
              rules_md(folders, v)]
    lines += ["## Toggles", "", toggles_md(folders, v)]
    lines += ["## How it fared in self-play", "",
              "This variant's row of the {doc}`balance laboratory </docs/fairest>` (the program against itself, "
              "not human play; the page explains how far the numbers can be trusted).", "",
              f"```{{balance-row}} {v.id}", "```", ""]
    if v.sources:
        lines += ["## Sources", "", *[f"- {cite(key)}" for key in v.sources], ""]
    lines += ["See also the {doc}`rule matrix </docs/matrix>` and the {doc}`comparison of the figures </docs/compare>`.", ""]
    return "\n".join(lines)


def variant_list_md(variants: list[Variant] | None = None) -> str:
    """Cards for the variants, by family (every variant of the catalogue by default)."""
    variants = variants if variants is not None else catalogue.variants()
    lines = []
    for family in catalogue.FAMILIES:
        vs = [v for v in variants if v.family == family]
        if not vs:
            continue
        lines += [f"**{FAMILY_NAMES.get(family, family)}**", "", "::::{grid} 1 2 3 3", ":gutter: 2", ""]
        for v in vs:
            c = v.counts()
            tag = " (correction)" if v.correction_of else ""
            lines += [f":::{{grid-item-card}} {md_escape(v.name)}{tag}", f":link: /{variant_docname(v.id)}",
                      ":link-type: doc", "", f"{size_label(v.rules.size)}, {c['attacker']} v {c['defender']}+{c['king']}. "
                      f"{md_escape(v.summary)}", ":::", ""]
        lines += ["::::", ""]
    return "\n".join(lines)


def costing_md(folders: Roots) -> str:
    """The Hywel Dda valuation (hywel-dda-jones) turned into men, step by step, beside its layout."""
    v = catalogue.variant("hywel-dda-jones")
    cost = catalogue.hywel_dda_costing(v)
    data = v.costing or {}
    lines = ["The valuation as the catalogue records it (amounts exactly as the source words them):", "",
             "| Part | Amount | Pence |", "| --- | --- | --- |"]
    for key, name, pence in (("total", "the king's tawlbwrdd", cost.total_pence),
                             ("white_forces", "the white forces", cost.white_pence),
                             ("king", "the king", cost.king_pence), ("each_man", "every man", cost.man_pence)):
        whole, rest = divmod(pence, 1)
        shown = f"{whole}" + (f" {rest.numerator}/{rest.denominator}" if rest else "")
        lines.append(f"| {name} | {md_escape(data[key])} | {shown}d |")
    lines += ["", "Step by step (computed by `tafl_rules.catalogue.hywel_dda_costing`, a score being twenty "
              "and a farthing a quarter of a penny):", ""]
    lines += [f"{n}. {md_escape(step)}" for n, step in enumerate(cost.steps, 1)]
    c = v.counts()
    agree = c["attacker"] == cost.attackers and c["defender"] == cost.defenders
    lines += ["", f"The layout of {{variant}}`hywel-dda-jones` has {c['attacker']} attackers and {c['defender']} "
              f"defenders: {'the same numbers' if agree else 'NOT the numbers the costing implies'}.", "",
              f"Source of the sums: {provenance_md(folders, cost.provenance)}.", ""]
    return "\n".join(lines)


class VariantPage(MarkdownDirective):
    required_arguments = 1
    match_titles = True

    def markdown(self) -> str:
        v = catalogue.variant(self.arguments[0])
        name = re.sub(r"\\(.)", r"\1", page_text(self.env, md_escape(v.name)))  # the caption is plain text
        return variant_page_md(self.folders, v, name)


class VariantRules(MarkdownDirective):
    required_arguments = 1

    def markdown(self) -> str:
        return rules_md(self.folders, catalogue.variant(self.arguments[0]))


class VariantToggles(MarkdownDirective):
    required_arguments = 1

    def markdown(self) -> str:
        return toggles_md(self.folders, catalogue.variant(self.arguments[0]))


class VariantList(MarkdownDirective):
    def markdown(self) -> str:
        return variant_list_md()


class HywelCosting(MarkdownDirective):
    def markdown(self) -> str:
        return costing_md(self.folders)


def check_variant_pages(app: Sphinx | None, env: BuildEnvironment) -> None:
    """Every catalogue variant has its page, and every page names a variant (warnings fail -W builds)."""
    if VARIANT_DIR + "/index" not in env.found_docs:
        return  # a project without the variant pages (e.g. a small test project)
    try:
        ids = set(catalogue.variant_ids())
    except Exception as error:  # noqa: BLE001 - reported as a warning, which -W turns into a failure
        logger.warning("tafl_sphinx.content: the catalogue cannot be read: %s", error)
        return
    pages = {d.rsplit("/", 1)[1] for d in env.found_docs if d.startswith(VARIANT_DIR + "/")} - {"index"}
    for vid in sorted(ids - pages):
        logger.warning("variant %s has no page: add %s/%s.md containing a variant-page directive", vid, VARIANT_DIR, vid)
    for page in sorted(pages - ids):
        logger.warning("%s/%s.md is not a catalogue variant", VARIANT_DIR, page)


def setup_variant_pages(app: Sphinx) -> None:
    for name, directive in (("variant-page", VariantPage), ("variant-rules", VariantRules),
                            ("variant-toggles", VariantToggles), ("variant-list", VariantList),
                            ("hywel-costing", HywelCosting)):
        app.add_directive(name, directive)
    app.connect("env-check-consistency", check_variant_pages)
