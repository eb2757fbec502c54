"""Directives and roles that turn the catalogue into pages.

Nothing about a layout or a rule is typed on a page: every figure, rule table,
toggle list and the Hywel Dda arithmetic is generated here from
``tafl_rules.catalogue`` (and drawn with ``tafl_rules.svg``). Each directive
builds its output as MyST text and parses it in place, so the generated pages
use the same citations (``{cite:t}``), cross-references and sphinx-design
components as the hand-written ones.

Directives
    ``variant-page <id>``       a whole page for one variant (title included)
    ``variant-figure <id>``     the variant's start layout as a static SVG
    ``variant-rules <id>``      the rules in plain words, with provenance
    ``variant-toggles <id>``    the toggles the variant offers, one anchor per reading
    ``variant-list``            cards for every variant, by family
    ``compare-figures <ids>``   figures side by side, differences marked, and a table
    ``rule-matrix``             rule points x variants, one tab per board size
    ``hywel-costing``           the Hywel Dda valuation turned into men, step by step
    ``api-modules <modules>``   autodoc for those of the listed modules that exist
    ``site-citation``           how to cite this site (BibTeX with the release)

Roles
    ``{variant}`id``` / ``{variant}`text <id>```             link to a variant's page
    ``{toggle}`id:name=value``` (or ``text <id:name=value>``) link to one reading of a toggle
                                                            (shown as ``id: name=value``)
    ``{rule}`id:field``` (or ``text <id:field>``)            link to one rule point's provenance
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
from collections import Counter
from pathlib import Path
from typing import Any, Iterable

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from tafl_rules.modes import POINTS

from .figure_key import key_html
from .texts import library

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[3]
VARIANT_DIR = "docs/variants"
#: The three figures the comparison page puts side by side (catalogue ids).
COMPARED = ("lewis-1", "lewis-2", "jones-3")
#: Each rule point as a reader names it (the rows of the rule tables and the matrix).
RULE_NAMES = {
    "size": "Board size",
    "start": "Pieces at the start",
    "first": "Who moves first",
    "king_speed": "How far the king moves",
    "man_speed": "How far the other pieces move",
    "throne": "Is the centre square special?",
    "throne_stop": "Who may stop on the empty throne",
    "throne_pass": "Who may pass over the empty throne",
    "king_reenter_throne": "May the king go back to the throne?",
    "corners": "Are the corners special?",
    "corner_stop": "Who may stop on a corner",
    "camps": "Are the attackers' starting squares special (camps)?",
    "camp_stop": "Who may stop on a camp square",
    "camp_pass": "Who may pass over a camp square",
    "shieldwall": "Can a row on the edge be taken at once?",
    "throne_hostile_to_attackers": "The throne takes the place of an enemy, against attackers",
    "throne_hostile_to_defenders": "The throne takes the place of an enemy, against defenders",
    "corners_hostile_to_attackers": "A corner takes the place of an enemy, against attackers",
    "corners_hostile_to_defenders": "A corner takes the place of an enemy, against defenders",
    "camps_hostile_to_attackers": "A camp takes the place of an enemy, against attackers",
    "camps_hostile_to_defenders": "A camp takes the place of an enemy, against defenders",
    "king_armed": "Does the king take part in captures?",
    "sandwich": "May a piece move in between two enemies?",
    "king_capture": "The king is taken by…",
    "king_capture_against": "Squares that count as an attacker around the king",
    "watch_king": "Robert ap Ifan's warning to the king",
    "escape": "The king escapes by reaching…",
    "tuichi": "Two open roads at once (tuichi)",
    "edge_fort": "Does an unbreakable fort on the edge win?",
    "encirclement": "Does surrounding every defender win?",
    "no_moves": "A side that cannot move",
    "repetition": "Repeated positions",
    "repetition_count": "How many repetitions count",
    "ply_limit": "Limit on the length of a game",
}
#: The catalogue's families as a reader names them (headings of the variant list).
FAMILY_NAMES = {"tawlbwrdd": "Tawlbwrdd", "tablut": "Tablut", "hnefatafl": "Hnefatafl", "brandubh": "Brandubh",
                "alea-evangelii": "Alea Evangelii", "tafl": "Other tafl rule sets"}
#: Squares a game may lack, and the rule points that only matter if it has them.
SPECIAL_SQUARES = {
    "throne": ("throne_stop", "throne_pass", "king_reenter_throne", "throne_hostile_to_attackers",
               "throne_hostile_to_defenders"),
    "corners": ("corner_stop", "corners_hostile_to_attackers", "corners_hostile_to_defenders"),
    "camps": ("camp_stop", "camp_pass", "camps_hostile_to_attackers", "camps_hostile_to_defenders"),
}
GROUPS = (
    ("Board and start", ("size", "start", "first")),
    ("Movement", ("king_speed", "man_speed", "throne", "throne_stop", "throne_pass", "king_reenter_throne",
                  "corners", "corner_stop", "camps", "camp_stop", "camp_pass")),
    ("Capture", ("shieldwall", "throne_hostile_to_attackers", "throne_hostile_to_defenders",
                 "corners_hostile_to_attackers", "corners_hostile_to_defenders", "camps_hostile_to_attackers",
                 "camps_hostile_to_defenders", "king_armed", "sandwich")),
    ("Capturing the king", ("king_capture", "king_capture_against", "watch_king")),
    ("End of the game", ("escape", "tuichi", "edge_fort", "encirclement", "no_moves", "repetition",
                         "repetition_count", "ply_limit")),
)


# --- catalogue access -----------------------------------------------------------

def catalogue():
    from tafl_rules import catalogue as cat

    return cat


def all_variants() -> list:
    return list(catalogue().variants())


def get_variant(vid: str, **toggles: str):
    return catalogue().variant(vid, **toggles)


def variant_docname(vid: str) -> str:
    return f"{VARIANT_DIR}/{vid}"


def _label(*parts: str) -> str:
    return "-".join(p.lower().replace("_", "-").replace("=", "-") for p in parts)


def rule_label(vid: str, field: str) -> str:
    return _label("rule", vid, field)


def toggle_label(vid: str, name: str, value: str | None = None) -> str:
    return _label("toggle", vid, name, *( [value] if value is not None else []))


def dependency_files() -> list[str]:
    """Files a generated page depends on: the catalogue data and code, the SVG renderer."""
    pkg = ROOT / "tafl_rules"
    files = sorted(str(p) for p in (pkg / "variants").glob("*.toml"))
    files += [str(pkg / name) for name in ("catalogue.py", "rules.py", "svg.py") if (pkg / name).exists()]
    return files + [__file__]


# --- words --------------------------------------------------------------------

@functools.cache
def field_docs() -> dict[str, str]:
    """The docstring of every :class:`Rules` field, read from its source (the rule it encodes)."""
    from tafl_rules import rules

    tree = ast.parse(inspect.getsource(rules.Rules))
    body = tree.body[0].body
    out: dict[str, str] = {}
    for node, following in zip(body, body[1:] + [None]):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            doc = ""
            if isinstance(following, ast.Expr) and isinstance(getattr(following, "value", None), ast.Constant):
                doc = " ".join(str(following.value.value).split())
            out[node.target.id] = doc
    return out


def _pieces(value: Iterable[str]) -> str:
    order = ("king", "defender", "attacker")
    names = [f"{p}s" if p != "king" else "the king" for p in order if p in set(value)]
    if not names:
        return "no piece"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _mode_words(field: str, value: Any, words: str) -> str | None:
    """The mode's own words (``"short"`` or ``"sentence"``, tafl_rules.modes) for a rule point's
    value; None where the field is no rule point or the value no mode of it."""
    point = POINTS.get(field)
    return getattr(point[value], words) if point is not None and value in point else None


def plain(field: str, value: Any, rules) -> str:
    """One rule point in plain words."""
    side = {"attackers": "The attackers", "defenders": "The defenders"}
    if field == "size":
        return f"A board of {value} by {value} squares."
    if field == "start":
        counts = Counter(ch for ch in value if ch in "tTK")
        return (f"{counts['t']} attackers, {counts['T']} defenders and {'the king' if counts['K'] else 'no king'}"
                " as in the figure.")
    if field == "first":
        return f"{side[value]} move first."
    if field in ("king_speed", "man_speed"):
        who = "The king" if field == "king_speed" else "Every other piece"
        return f"{who} moves any distance in a straight line, like a rook." if value == 0 else \
            f"{who} moves at most {value} square{'s' if value != 1 else ''} in a straight line."
    if field == "throne":
        return "The centre square is a special square (throne, konakis)." if value else \
            "The centre square is an ordinary square."
    if field in ("throne_stop", "corner_stop", "camp_stop", "throne_pass", "camp_pass"):
        place = {"throne": "the empty throne", "corner": "a corner", "camp": "a camp square"}[field.split("_")[0]]
        verb = "stop on" if field.endswith("stop") else "pass over"
        active = {"throne": rules.throne, "corner": rules.corners, "camp": rules.camps}[field.split("_")[0]]
        text = f"{_pieces(value).capitalize()} may {verb} {place}."
        return text if active else f"{text} (No effect: there is no such special square.)"
    if field == "king_reenter_throne":
        return "The king may return to the throne." if value else "Once he has left it, the king may not stop on the throne again."
    if field == "corners":
        return "The four corners are special squares." if value else "The corners are ordinary squares."
    if field == "camps":
        return "The attackers' starting squares are camps." if value else "There are no camps."
    m = re.fullmatch(r"(throne|corners|camps)_hostile_to_(attackers|defenders)", field)
    if m:
        place = {"throne": "The throne", "corners": "The corners", "camps": "The camps"}[m.group(1)]
        return f"{place} act{'s' if m.group(1) == 'throne' else ''} as an enemy piece against {m.group(2)}: {_mode_words(field, value, 'short')}."
    sentence = _mode_words(field, value, "sentence")
    if sentence is not None:
        return sentence
    if field == "king_capture_against":
        if not value:
            return "No special square stands in for an attacker around the king."
        squares = sorted(value)
        names = squares[0] if len(squares) == 1 else ", ".join(squares[:-1]) + " and " + squares[-1]
        return f"When the king is enclosed, the {names} count{'s' if len(squares) == 1 else ''} as a side."
    if field == "repetition_count":
        return f"Repetition means {value} occurrences of the same position."
    if field == "ply_limit":
        return "No move limit." if value == 0 else f"Drawn after {value} moves (plies)."
    return f"{field} = {value!r}"


#: Values a reader would not follow as the rules package spells them, in a few plain words (the
#: matrix); each rule mode's are its own (``short``, tafl_rules.modes).
SHORT_WORDS = {("first", "attackers"): "attackers", ("first", "defenders"): "king's side"}
_PIECE_WORDS = {"attacker": "attackers", "defender": "defenders", "king": "king",
                "throne": "throne", "corner": "corners", "camp": "camps", "edge": "edge"}


def short_value(field: str, value: Any) -> str:
    """A rule value in a few plain words, for the matrix."""
    if field == "start":
        counts = Counter(ch for ch in value if ch in "tTK")
        return f"{counts['t']}+{counts['T']}+{counts['K']}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, frozenset):
        return ", ".join(_PIECE_WORDS.get(v, v) for v in sorted(value)) or "none"
    if field in ("king_speed", "man_speed") and value == 0:
        return "any distance"
    if field == "ply_limit" and value == 0:
        return "none"
    if field == "size":
        return size_label(value)
    return _mode_words(field, value, "short") or SHORT_WORDS.get((field, value), str(value))


# --- markdown helpers ---------------------------------------------------------

def md_escape(text: str) -> str:
    """Text safe inside a MyST paragraph or table cell."""
    text = " ".join(str(text).split())
    for char, repl in (("\\", "\\\\"), ("|", "\\|"), ("<", "&lt;"), ("*", "\\*"), ("`", "\\`"), ("[", "\\["), ("]", "\\]")):
        text = text.replace(char, repl)
    return text


def cite(key: str, locator: str = "") -> str:
    """A textual citation with its locator: Author (year), locator."""
    text = f"{{cite:t}}`{key}`"
    return f"{text}, {md_escape(locator)}" if locator else text


_ROLE = re.compile(r"\{(?:q|variant|toggle|term|doc|rule|cite:t|cite:p)\}`[^`]*`")


def rich_md(text: str) -> str:
    """Catalogue prose as MyST: escaped, except its roles (``{q}`words <key: locator>``` and links)."""
    text = " ".join(str(text).split())
    out, last = [], 0
    for m in _ROLE.finditer(text):
        out += [_escape_inline(text[last:m.start()]), m.group(0)]
        last = m.end()
    out.append(_escape_inline(text[last:]))
    return "".join(out)


def _escape_inline(text: str) -> str:
    """Like :func:`md_escape`, but keeps the spaces at either end (text between roles)."""
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    return (" " if lead else "") + md_escape(text) + (" " if trail and text.strip() else "")


def quote_md(key: str, locator: str, passage: str) -> str:
    """A quotation as a ``{q}`` role, so that the build checks it and marks how it is known."""
    if "`" in passage or "<" in passage or ">" in passage or "|" in passage:
        return f"“{md_escape(passage)}”"
    return f"{{q}}`{' '.join(passage.split())} <{key}: {locator}>`"


def provenance_md(prov) -> str:
    if prov.passage is None:
        return f"{cite(prov.source, prov.locator)}: *{rich_md(prov.filler)}*"
    finding = library().check(prov.source, prov.locator, prov.passage)
    where = f" ({md_escape(finding.where)})" if finding.where and finding.where != prov.locator else ""
    via = "".join(f", as given by {{cite:t}}`{key}`" for key in finding.via)
    return f"{cite(prov.source, prov.locator)}{where}{via}: {quote_md(prov.source, prov.locator, prov.passage)}"


def svg_markup(rules, *, marks: Iterable[str] = (), title: str | None = None, position: str | None = None) -> str:
    from tafl_rules import svg

    markup = svg.render_svg(rules, position, marks=tuple(marks), title=title)
    # Scale down with the column (cards, phones); the viewBox keeps the drawing exact.
    markup = re.sub(r"<svg\b", '<svg style="max-width:100%;height:auto"', markup, count=1)
    return "\n".join(line for line in markup.splitlines() if line.strip())


def counts(rules) -> dict[str, int]:
    return {k: rules.start.count(ch) for k, ch in (("attacker", "t"), ("defender", "T"), ("king", "K"))}


def size_label(size: int) -> str:
    return f"{size}×{size}"


# --- page generators (pure functions: catalogue data in, MyST text out) ------

def figure_md(vid: str, *, marks: Iterable[str] = (), toggles: dict[str, str] | None = None, caption: str = "") -> str:
    opts = []
    if marks:
        opts.append(f":marks: {' '.join(marks)}")
    if toggles:
        opts.append(":toggles: " + " ".join(f"{k}={v}" for k, v in sorted(toggles.items())))
    if caption:
        opts.append(f":caption: {caption}")
    return "\n".join([f"```{{variant-figure}} {vid}", *opts, "```"])


def rules_md(v) -> str:
    """The variant's rules as tables by group: rule point, plain words, provenance, open points."""
    from tafl_rules.rules import FIELDS

    grouped = {f for _, fields in GROUPS for f in fields}
    others = tuple(f for f in FIELDS if f not in grouped)  # a field added to Rules later still shows
    absent = {f for square, fields in SPECIAL_SQUARES.items() if not getattr(v.rules, square) for f in fields}

    def row(field: str) -> str:
        value = getattr(v.rules, field)
        anchor = f"{{tafl-anchor}}`{rule_label(v.id, field)}`"
        words = md_escape(plain(field, value, v.rules))
        note = v.notes.get(field)
        if note:
            words += f" *Open point:* {rich_md(note)}"
        return f"| {anchor}{md_escape(RULE_NAMES.get(field, field))} | {words} | {provenance_md(v.provenance[field])} |"

    head = ["| Rule | In plain words | Source |", "| --- | --- | --- |"]
    out = []
    for group, fields in GROUPS + ((("Other rule points", others),) if others else ()):
        shown = [f for f in fields if f not in absent]
        if shown:
            out += [f"**{group}**", "", *head, *(row(f) for f in shown), ""]
    if absent:
        missing = [name for name in SPECIAL_SQUARES if not getattr(v.rules, name)]
        words = {"throne": "no special centre square", "corners": "no special corners", "camps": "no camps"}
        out += [f":::{{dropdown}} Rules about squares this game does not have ({', '.join(words[m] for m in missing)})",
                "", "Every rule point has a value, even where it cannot matter; these are they.", "", *head,
                *(row(f) for f in FIELDS if f in absent), "", ":::", ""]
    return "\n".join(out)


def _changes_md(v, name: str, value: str) -> str:
    """What a reading changes, in the plain words of the rule tables."""
    reading = v.toggles[name].readings[value]
    rules = get_variant(v.id, **{name: value}).rules
    moot = {f for square, fields in SPECIAL_SQUARES.items() if not getattr(rules, square) for f in fields}
    return " ".join(plain(field, getattr(rules, field), rules) for field in reading.changes if field not in moot)


def play_link(vid: str, toggles: dict[str, str]) -> str:
    """A share link for the page's board (the board script reads ``?board=0&variant=..&toggles=..``)."""
    pairs = ",".join(f"{k}:{v}" for k, v in sorted(toggles.items()))
    return f"?board=0&amp;variant={vid}&amp;toggles={pairs}#play"


def toggles_md(v) -> str:
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
                       f"{mark}: {md_escape(_changes_md(v, name, value))} {provenance_md(reading.provenance)}{stop}"
                       + (f" {rich_md(reading.note)}" if reading.note else "") + play)
        out.append("")
    return "\n".join(out)


def variant_page_md(v) -> str:
    """A whole variant page."""
    c = counts(v.rules)
    lines = [f"# {md_escape(v.name)}", "", f"{{tafl-anchor}}`{_label('variant', v.id)}`{md_escape(v.summary)}", ""]
    facts = [f"Identifier `{v.id}`", f"family: {FAMILY_NAMES.get(v.family, v.family)}", f"board {size_label(v.rules.size)}",
             f"{c['attacker']} attackers against {c['defender']} defenders and {'a king' if c['king'] else 'no king'}"]
    lines += ["; ".join(facts) + ".", ""]
    if v.correction_of:
        original = get_variant(v.correction_of)
        lines += [":::{important}", f"This is a **correction**, not what was printed: it corrects "
                  f"{{variant}}`{v.correction_of}`, which the catalogue keeps exactly as printed. "
                  f"The squares where the two differ are marked below.", ":::", ""]
    corrections = [w for w in all_variants() if w.correction_of == v.id]
    if corrections:
        lines += [":::{note}", "The printed figure is flagged in the catalogue; a corrected reading is kept "
                  "separately: " + ", ".join(f"{{variant}}`{w.id}`" for w in corrections) + ".", ":::", ""]
    lines += ["## Layout", ""]
    marks: list[str] = []
    if v.correction_of:
        marks = differing_squares([v.rules.start, original.rules.start], v.rules.size)
    figure = figure_md(v.id, marks=marks, caption=f"{v.name}: start position")
    if v.diagram:
        legend = ", ".join(f"`{ch}` {piece}" for ch, piece in v.diagram_legend.items())
        lines += ["::::{tab-set}", "", ":::{tab-item} Figure", "", figure, "", ":::", "",
                  ":::{tab-item} The diagram in its source's notation", "",
                  f"As the catalogue holds it ({legend}); the figure is drawn from this text.", "",
                  "```text", v.diagram, "```", "", ":::", "", "::::", ""]
    else:
        lines += [figure, ""]
    if v.layout_note:
        lines += [rich_md(v.layout_note), ""]
    if v.general_notes:
        lines += [":::{admonition} Notes", rich_md(v.general_notes), ":::", ""]
    lines += ["## Play", "", "The board plays this variant's own readings (listed under *Toggles* below); "
              "it needs JavaScript, and starts a Python engine in your browser.", "",
              f"```{{tafl-board}} {v.id}", "```", ""]
    lines += ["## Rules in plain words", "",
              "Every rule point with the passage it rests on, or the words *modern filler* and who proposed it. "
              "Each quotation is checked against a stored copy of its source when the site is built: "
              "unmarked, it was found in a copy of the source itself; *second-hand* means it is known only "
              "as another work quotes it, *unverified* that the copy cannot be tied to its original "
              "(see {doc}`/sources/texts`). “Open point” marks what the source leaves undecided.", "",
              rules_md(v)]
    lines += ["## Toggles", "", toggles_md(v)]
    lines += ["## How it fared in self-play", "",
              "This variant's row of the {doc}`balance laboratory </docs/fairest>` (the program against itself, "
              "not human play; the page explains how far the numbers can be trusted).", "",
              f"```{{balance-row}} {v.id}", "```", ""]
    if v.sources:
        lines += ["## Sources", "", *[f"- {cite(key)}" for key in v.sources], ""]
    lines += ["See also the {doc}`rule matrix </docs/matrix>` and the {doc}`comparison of the figures </docs/compare>`.", ""]
    return "\n".join(lines)


def position_map(position: str, size: int) -> dict[str, str]:
    """Square -> "t" / "T" / "K" for every occupied square of an OTN position record."""
    from tafl_rules.position import parse_position
    from tafl_rules.squares import iter_bits, square_name

    placement = parse_position(position, size)
    out = {square_name(i, size): "t" for i in iter_bits(placement.attackers)}
    out.update({square_name(i, size): "T" for i in iter_bits(placement.defenders)})
    if placement.king >= 0:
        out[square_name(placement.king, size)] = "K"
    return out


def differing_squares(positions: list[str], size: int) -> list[str]:
    """Squares whose content is not the same in every one of the positions."""
    maps = [position_map(p, size) for p in positions]
    squares = sorted(set().union(*maps), key=lambda s: (s[0], int(s[1:])))
    return [s for s in squares if len({m.get(s) for m in maps}) > 1]


def _coords(square: str) -> tuple[int, int]:
    return ord(square[0]) - ord("a"), int(square[1:]) - 1


def formation(rules, piece: str) -> str:
    """Attackers: each side's group counted rank by rank from its edge (e.g. ``5+1``, a T).
    Defenders: a cross (all on the king's rank and file) or how far they spread."""
    size = rules.size
    where = position_map(rules.start, size)
    if piece == "t":
        profiles = {}
        for side in "NESW":
            rows = Counter()
            for sq, p in where.items():
                f, r = _coords(sq)
                dist = {"S": r, "N": size - 1 - r, "W": f, "E": size - 1 - f}
                others = [d for s, d in dist.items() if s != side]
                if p == "t" and dist[side] < min(others):
                    rows[dist[side]] += 1
            profiles[side] = "+".join(str(rows[r]) for r in sorted(rows)) or "0"
        shapes = {"3+3": "2×3 block", "5+1": "T", "3+2+1": "hollow pentagon", "3+1": "T", "2+1": "T"}
        if len(set(profiles.values())) == 1:
            profile = profiles["S"]
            return f"{profile} on every side" + (f" ({shapes[profile]})" if profile in shapes else "")
        return "not the same on every side: " + ", ".join(f"{s} {p}" for s, p in profiles.items())
    king = next(sq for sq, p in where.items() if p == "K")
    kf, kr = _coords(king)
    defenders = [_coords(sq) for sq, p in where.items() if p == "T"]
    off = [d for d in defenders if d[0] != kf and d[1] != kr]
    reach = max((abs(f - kf) + abs(r - kr) for f, r in defenders), default=0)
    if not off:
        arms = Counter((f > kf) - (f < kf) + 2 * ((r > kr) - (r < kr)) for f, r in defenders)
        sizes = sorted(set(arms.values()))
        return f"cross, arms of {sizes[0]}" if len(sizes) == 1 else f"cross, arms of {'/'.join(map(str, sizes))}"
    if len(defenders) == 2 * reach * (reach + 1):
        return f"diamond (every square within {reach} steps of the king)"
    return f"{len(defenders) - len(off)} on the king's rank and file, {len(off)} off them"


def king_lines(rules) -> str:
    """For each direction from the king: squares to the edge, defenders in line, the first attacker."""
    size = rules.size
    where = position_map(rules.start, size)
    king = next(sq for sq, p in where.items() if p == "K")
    kf, kr = _coords(king)
    files = "abcdefghijklmnopqrstuvwxyz"
    lines = {}
    for name, (df, dr) in (("N", (0, 1)), ("E", (1, 0)), ("S", (0, -1)), ("W", (-1, 0))):
        f, r, steps, first, own = kf, kr, 0, None, 0
        while 0 <= f + df < size and 0 <= r + dr < size:
            f, r, steps = f + df, r + dr, steps + 1
            piece = where.get(f"{files[f]}{r + 1}")
            if first is None and piece == "t":
                first = steps
            elif first is None and piece == "T":
                own += 1
        lines[name] = (f"{steps} to the edge: {own} defender{'s' if own != 1 else ''}, "
                       + (f"first attacker at {first}" if first else "no attacker"))
    if len(set(lines.values())) == 1:
        return f"{lines['N']} (each way)"
    return "; ".join(f"{name} {text}" for name, text in lines.items())


def compare_md(ids: list[str]) -> str:
    """Figures side by side with the differing squares marked, and a table of the differences."""
    printed = [get_variant(i) for i in ids]
    size = printed[0].rules.size
    marks = differing_squares([v.rules.start for v in printed], size)
    corrections = sorted((w for w in all_variants() if w.correction_of in ids), key=lambda w: ids.index(w.correction_of))
    shown = printed + corrections
    lines = [f"::::{{grid}} 1 2 {min(3, len(shown))} {min(3, len(shown))}", ":gutter: 2", ""]
    for v in shown:
        if v.correction_of:
            own = differing_squares([v.rules.start, get_variant(v.correction_of).rules.start], size)
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


def short_name(v) -> str:
    """A variant's name without its parenthesis, for column heads."""
    return re.sub(r"\s*\([^)]*\)$", "", v.name)


#: The matrix's tabs, most asked-for first (the Welsh 11x11 boards), then the rest by size.
MATRIX_SIZE_ORDER = (11, 9, 7, 19)


def matrix_md(variants: list | None = None) -> str:
    """Rule points x variants, one tab per board size (11x11 first) plus one with every variant.

    Rows are the rule points in plain words; within a tab the tawlbwrdd family comes first."""
    variants = variants if variants is not None else all_variants()
    present = {v.rules.size for v in variants}
    sizes = [n for n in MATRIX_SIZE_ORDER if n in present] + sorted(present - set(MATRIX_SIZE_ORDER))
    families = list(catalogue().FAMILIES)
    from tafl_rules.rules import FIELDS

    def table(vs: list) -> list[str]:
        vs = sorted(vs, key=lambda v: (families.index(v.family), v.id))
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
                doubtful = prov.passage is not None and _status(prov) in ("second-hand", "unverified")
                text = md_escape(value) + ("†" if prov.is_filler else "") + ("‡" if doubtful else "")
                ref = f"{{rule}}`{text} <{v.id}:{field}>`"
                cells.append(f"**{ref}**" if value != common and len(set(values)) > 1 else ref)
            out.append(f"| {md_escape(RULE_NAMES.get(field, field))} | " + " | ".join(cells) + " |")
        return out

    lines = ['<style>.tafl-matrix table { display: block; overflow-x: auto; font-size: 0.85em; }'
             ' .tafl-matrix td, .tafl-matrix th, .tafl-matrix td *, .tafl-matrix th * { overflow-wrap: normal;'
             ' word-break: normal; hyphens: none; }'
             ' .tafl-matrix td, .tafl-matrix th {'
             ' min-width: 5.5em; }'
             ' .tafl-matrix td:first-child, .tafl-matrix th:first-child { min-width: 13em; position: sticky; left: 0;'
             ' z-index: 1; background: var(--pst-color-background); }'
             ' @media (max-width: 600px) { .tafl-matrix td:first-child, .tafl-matrix th:first-child {'
             ' min-width: 8em; } }</style>', "",
             "::::{tab-set}", ":class: tafl-matrix full-width", ""]
    for size in sizes:
        vs = [v for v in variants if v.rules.size == size]
        lines += [f":::{{tab-item}} {size_label(size)} ({len(vs)})", f":sync: size-{size}", "", *table(vs), "", ":::", ""]
    lines += [f":::{{tab-item}} All sizes ({len(variants)})", ":sync: size-all", "", *table(variants), "", ":::", "", "::::", ""]
    return "\n".join(lines)


def _status(prov) -> str | None:
    return library().check(prov.source, prov.locator, prov.passage).status


def costing_md() -> str:
    cat = catalogue()
    v = get_variant("hywel-dda-jones")
    cost = cat.hywel_dda_costing(v)
    data = v.costing
    lines = ["The valuation as the catalogue records it (amounts exactly as the source words them):", "",
             "| Part | Amount | Pence |", "| --- | --- | --- |"]
    for key, label, pence in (("total", "the king's tawlbwrdd", cost.total_pence),
                              ("white_forces", "the white forces", cost.white_pence),
                              ("king", "the king", cost.king_pence), ("each_man", "every man", cost.man_pence)):
        whole, rest = divmod(pence, 1)
        shown = f"{whole}" + (f" {rest.numerator}/{rest.denominator}" if rest else "")
        lines.append(f"| {label} | {md_escape(data[key])} | {shown}d |")
    lines += ["", "Step by step (computed by `tafl_rules.catalogue.hywel_dda_costing`, a score being twenty "
              "and a farthing a quarter of a penny):", ""]
    lines += [f"{n}. {md_escape(step)}" for n, step in enumerate(cost.steps, 1)]
    c = counts(v.rules)
    agree = c["attacker"] == cost.attackers and c["defender"] == cost.defenders
    lines += ["", f"The layout of {{variant}}`hywel-dda-jones` has {c['attacker']} attackers and {c['defender']} "
              f"defenders: {'the same numbers' if agree else 'NOT the numbers the costing implies'}.", "",
              f"Source of the sums: {provenance_md(cost.provenance)}.", ""]
    return "\n".join(lines)


def variant_list_md(variants: list | None = None) -> str:
    variants = variants if variants is not None else all_variants()
    order = list(catalogue().FAMILIES)
    lines = []
    for family in order:
        vs = [v for v in variants if v.family == family]
        if not vs:
            continue
        lines += [f"**{FAMILY_NAMES.get(family, family)}**", "", "::::{grid} 1 2 3 3", ":gutter: 2", ""]
        for v in vs:
            c = counts(v.rules)
            tag = " (correction)" if v.correction_of else ""
            lines += [f":::{{grid-item-card}} {md_escape(v.name)}{tag}", f":link: /{variant_docname(v.id)}",
                      ":link-type: doc", "", f"{size_label(v.rules.size)}, {c['attacker']} v {c['defender']}+{c['king']}. "
                      f"{md_escape(v.summary)}", ":::", ""]
        lines += ["::::", ""]
    return "\n".join(lines)


# --- nodes, directives and roles --------------------------------------------

class MarkdownDirective(SphinxDirective):
    """Base: generate MyST text and parse it where the directive stands."""

    match_titles = False

    def markdown(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        for path in dependency_files():
            self.env.note_dependency(path)
        try:
            text = self.markdown()
        except Exception as error:  # the catalogue's messages name what is wrong
            raise self.error(f"{self.name}: {error}")
        container = nodes.container()
        self.state.nested_parse(StringList(text.splitlines(), source=self.env.docname), 0, container,
                                match_titles=self.match_titles)
        return container.children


class VariantPage(MarkdownDirective):
    required_arguments = 1
    match_titles = True

    def markdown(self) -> str:
        return variant_page_md(get_variant(self.arguments[0]))


class VariantRules(MarkdownDirective):
    required_arguments = 1

    def markdown(self) -> str:
        return rules_md(get_variant(self.arguments[0]))


class VariantToggles(MarkdownDirective):
    required_arguments = 1

    def markdown(self) -> str:
        return toggles_md(get_variant(self.arguments[0]))


class VariantList(MarkdownDirective):
    def markdown(self) -> str:
        return variant_list_md()


class CompareFigures(MarkdownDirective):
    optional_arguments = 10

    def markdown(self) -> str:
        return compare_md(list(self.arguments) or list(COMPARED))


class RuleMatrix(MarkdownDirective):
    def markdown(self) -> str:
        return matrix_md()


class HywelCosting(MarkdownDirective):
    def markdown(self) -> str:
        return costing_md()


class ApiModules(MarkdownDirective):
    """``automodule`` for each listed module that can be imported (others are named as missing)."""

    optional_arguments = 20

    def markdown(self) -> str:
        import importlib

        out = []
        for name in self.arguments:
            try:
                importlib.import_module(name)
            except ImportError:
                logger.info("api-modules: %s is not importable; left out", name)
                continue
            out += ["```{eval-rst}", f".. automodule:: {name}", "   :members:", "   :show-inheritance:", "```", ""]
        return "\n".join(out)


class SiteCitation(MarkdownDirective):
    def markdown(self) -> str:
        config = self.config
        year = re.search(r"\d{4}", config.copyright or "")
        return "\n".join([
            "```bibtex",
            "@misc{tawlbwrdd-explorer,",
            f"  title = {{{config.project}}},",
            f"  author = {{{{{config.author}}}}},",
            f"  year = {{{year.group(0) if year else ''}}},",
            f"  note = {{Version {config.release}; rules package tafl\\_rules {config.release}}},",
            "}",
            "```",
        ])


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
        for path in dependency_files():
            self.env.note_dependency(path)
        vid = self.arguments[0]
        try:
            v = get_variant(vid, **self.options.get("toggles", {}))
            marks = self.options.get("marks", "").split()
            against = ""
            if "against" in self.options:  # outline the squares where it differs from another layout
                other = get_variant(self.options["against"].strip())
                marks += differing_squares([v.rules.start, other.rules.start], v.rules.size)
                against = other.name
            caption = self.options.get("caption", "")
            markup = svg_markup(v.rules, marks=marks, title=f"{caption or v.name} ({size_label(v.rules.size)})")
        except Exception as error:
            raise self.error(f"variant-figure {vid}: {error}")
        figure = nodes.container(classes=["tafl-figure"])
        figure["ids"].append(_label("figure", vid, self.env.new_serialno("tafl-figure").__str__()))
        figure += nodes.raw("", f'<div class="tafl-svg" data-variant="{vid}" data-marks="{" ".join(marks)}">'
                            f"{markup}</div>", format="html")
        figure += nodes.raw("", key_html(v.rules, marked=bool(marks), against=against),
                            format="html")
        if caption:
            figure += nodes.paragraph("", caption, classes=["tafl-figure-caption"])
        return [figure]


_EXPLICIT = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)


def _split(text: str) -> tuple[str | None, str]:
    m = _EXPLICIT.match(text)
    return (m.group(1), m.group(2).strip()) if m else (None, text.strip())


def _xref(env, text: str, reftype: str, target: str) -> addnodes.pending_xref:
    for path in dependency_files():  # the link text and its validity come from the catalogue
        env.note_dependency(path)
    node = addnodes.pending_xref("", nodes.inline(text, text, classes=["xref", "std", f"std-{reftype}"]),
                                 refdomain="std", reftype=reftype, reftarget=target, refexplicit=True,
                                 refwarn=True, refdoc=env.docname)
    return node


def _role_error(inliner, lineno: int, rawtext: str, message: str):
    msg = inliner.reporter.error(message, line=lineno)
    prb = inliner.problematic(rawtext, rawtext, msg)
    return [prb], [msg]


def variant_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    env = inliner.document.settings.env
    title, vid = _split(text)
    try:
        v = get_variant(vid)
    except Exception as error:
        return _role_error(inliner, lineno, rawtext, f"variant role: {error}")
    return [_xref(env, title or v.name, "doc", "/" + variant_docname(v.id))], []


def toggle_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    env = inliner.document.settings.env
    title, target = _split(text)
    m = re.fullmatch(r"([a-z0-9-]+):(\w+)=([\w-]+)", target)
    if not m:
        return _role_error(inliner, lineno, rawtext, f"toggle role: {target!r} is not of the form id:name=value")
    vid, toggle, value = m.groups()
    try:
        v = get_variant(vid, **{toggle: value})
    except Exception as error:
        return _role_error(inliner, lineno, rawtext, f"toggle role: {error}")
    base = get_variant(vid)
    label = title or f"{base.toggles[toggle].readings[value].label}, in {short_name(base)}"
    return [_xref(env, label, "ref", toggle_label(vid, toggle, value))], []


def rule_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    env = inliner.document.settings.env
    title, target = _split(text)
    vid, _, field = target.partition(":")
    from tafl_rules.rules import FIELDS

    try:
        v = get_variant(vid)
    except Exception as error:
        return _role_error(inliner, lineno, rawtext, f"rule role: {error}")
    if field not in FIELDS:
        return _role_error(inliner, lineno, rawtext, f"rule role: no rule point {field!r}")
    label = title or short_value(field, getattr(v.rules, field))
    return [_xref(env, label, "ref", rule_label(vid, field))], []


def anchor_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """An inline target that ``{ref}`` (with an explicit title) can link to."""
    label = nodes.fully_normalize_name(text)
    target = nodes.target("", "", ids=[nodes.make_id(label)], names=[label])
    inliner.document.note_explicit_target(target)
    return [target], []


# --- build checks ----------------------------------------------------------------

def check_variant_pages(app: Sphinx, env) -> None:
    """Every catalogue variant has its page, and every page names a variant (warnings fail -W builds)."""
    if VARIANT_DIR + "/index" not in env.found_docs:
        return  # a project without the variant pages (e.g. a small test project)
    try:
        ids = {v.id for v in all_variants()}
    except Exception as error:  # noqa: BLE001 - reported as a warning, which -W turns into a failure
        logger.warning("tafl_sphinx.content: the catalogue cannot be read: %s", error)
        return
    pages = {d.rsplit("/", 1)[1] for d in env.found_docs if d.startswith(VARIANT_DIR + "/")} - {"index"}
    for vid in sorted(ids - pages):
        logger.warning("variant %s has no page: add %s/%s.md containing a variant-page directive", vid, VARIANT_DIR, vid)
    for page in sorted(pages - ids):
        logger.warning("%s/%s.md is not a catalogue variant", VARIANT_DIR, page)


def exclude_caches(app: Sphinx, config) -> None:
    """Tool caches at the repository root are not pages (``**/.pytest_cache`` misses the root one)."""
    for pattern in (".pytest_cache", ".hypothesis", ".stamps"):
        if pattern not in config.exclude_patterns:
            config.exclude_patterns.append(pattern)


_FOOTNOTE_REF = re.compile(r"\s*\[(\d+)\]_")
_FOOTNOTE_DEF = re.compile(r"^(\s*)\.\. \[(\d+)\]\s+(.*)$")


def plain_footnotes(app, what, name, obj, options, lines: list[str]) -> None:
    """Numbered rST footnotes in docstrings (``[1]_`` / ``.. [1]``) as plain "(note 1)" text.

    MyST's ``eval-rst`` (which the Markdown API page needs for autodoc) does not resolve rST
    footnotes, so they would be build errors; the wording is kept, only the markup changes.
    """
    out: list[str] = []
    dedent_from: int | None = None
    for line in lines:
        if dedent_from is not None:
            if line.strip() and len(line) - len(line.lstrip()) > dedent_from:
                out.append(" " * dedent_from + line.strip())
                continue
            dedent_from = None
        m = _FOOTNOTE_DEF.match(line)
        if m:
            dedent_from = len(m.group(1))
            out.append(f"{m.group(1)}Note {m.group(2)}: {m.group(3)}")
            continue
        out.append(_FOOTNOTE_REF.sub(lambda r: f" (note {r.group(1)})", line))
    lines[:] = out


def setup_content(app: Sphinx) -> None:
    app.connect("config-inited", exclude_caches)
    if "autodoc-process-docstring" in app.events.events:
        app.connect("autodoc-process-docstring", plain_footnotes)
    for name, cls in (("variant-page", VariantPage), ("variant-figure", VariantFigure), ("variant-rules", VariantRules),
                      ("variant-toggles", VariantToggles), ("variant-list", VariantList),
                      ("compare-figures", CompareFigures), ("rule-matrix", RuleMatrix),
                      ("hywel-costing", HywelCosting), ("api-modules", ApiModules), ("site-citation", SiteCitation)):
        app.add_directive(name, cls)
    app.add_role("variant", variant_role)
    app.add_role("toggle", toggle_role)
    app.add_role("rule", rule_role)
    app.add_role("tafl-anchor", anchor_role)
    app.connect("env-check-consistency", check_variant_pages)
