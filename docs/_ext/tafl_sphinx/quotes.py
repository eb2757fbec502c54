"""Quotations on pages: each one checked against the stored copy of its source while the site builds.

Role ``{q}`words <key: locator>``` sets the words in quotation marks and, unless the
quotation is found in a copy of the source itself, says how it is known
("second-hand", "unverified"). Directive ``quotation`` does the same for a block,
with the attribution below it::

    ```{quotation} linnaeus1811: law 9
    9. If any one man gets between two squares occupied by his enemies, ...
    ```

The status is computed by :mod:`tafl_sphinx.texts`; a quotation that is not found
at its locator is a build warning (an error under ``-W``). Every quotation checked is
written to ``_quotations.json`` in the output, for the tests and for counting.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst.states import Inliner
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.locale import _
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import tafl_rules

from . import roots
from .texts import Finding, library
from .util import RoleResult, md_escape

logger = logging.getLogger(__name__)

_TARGET = re.compile(r"^(?P<text>.*?)\s*<(?P<key>[A-Za-z0-9_-]+):\s*(?P<locator>[^<>]+)>$", re.S)
#: ``_words_`` in a stored text (Project Gutenberg's and the WELSH-L posting's italics); ``_next_to_`` too.
ITALICS = re.compile(r"(?<!\w)_(.+?)_(?!\w)")
#: Words shown after a quotation that is not found in a copy of the source itself (in the page's
#: language: ``locale/<code>/LC_MESSAGES/sphinx.po``).
STATUS_NOTE = {"second-hand": "second-hand", "unverified": "unverified"}


def status_note(status: str | None) -> str:
    """The words shown after a quotation of this status, in the language of the build ("" when the
    quotation was found in a copy of the source itself)."""
    note = STATUS_NOTE.get(status or "", "")
    return str(_(note)) if note else ""


def data_file(docname: str) -> str | None:
    """The catalogue's data file that a generated variant page is drawn from, if it is one.

    >>> data_file("docs/variants/tablut-smith")
    'tafl_rules/variants/tablut-smith.toml'
    >>> data_file("sources/linnaeus") is None
    True
    """
    m = re.fullmatch(r"docs/variants/([a-z0-9-]+)", docname)
    return f"tafl_rules/variants/{m.group(1)}.toml" if m else None


def _line_of(path: Path, text: str) -> str:
    """The line of a data file where a quotation stands ("?" if its first words are not found there)."""
    words = " ".join(text.split()[:6])
    try:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if words and words in " ".join(line.split()):
                return str(number)
    except OSError:
        pass
    return "?"


def check(env: BuildEnvironment, key: str, locator: str, text: str, *, origin: str, location: Any) -> Finding:
    """Check one quotation and record it for the build's report.

    A quotation that is not found is a warning at its place; on a variant page, whose text is drawn
    from the catalogue, the place named is the data file a maintainer edits, not the generated page."""
    finding = library(roots.of(env.config).texts).check(key, locator, text)
    if finding.status is None:
        message = f"quotation not verified: {finding.problem}: {text[:80]!r}"
        data = data_file(env.docname)
        if data:
            message += f" (in the catalogue's data file {data}, from which the page {env.docname}.md is generated)"
            path = Path(tafl_rules.__file__).parent.parent / data
            location = f"{path}:{_line_of(path, text)}"
        logger.warning(message, location=location, type="tafl", subtype="quotation")
    records = quotations(env).setdefault(env.docname, [])
    records.append({"origin": origin, "key": key, "locator": locator, "text": text, "status": finding.status,
                    "witnesses": [w.name for w in finding.witnesses], "where": finding.where})
    return finding


def attribution_md(key: str, locator: str, finding: Finding) -> str:
    """"Author Year, locator (where), as given by …", with the status when it is not *verified*."""
    where = f" ({finding.where})" if finding.where and finding.where != locator else ""
    text = f"{{cite:t}}`{key}`, {md_escape(locator)}{where}"
    if finding.via:
        text += ", as given by " + " and ".join(f"{{cite:t}}`{via}`" for via in finding.via)
    note = status_note(finding.status)
    return text + (f" ({note})" if note else "")


def q_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
           options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> RoleResult:
    env: BuildEnvironment = inliner.document.settings.env
    m = _TARGET.match(text)
    if not m:
        msg = inliner.reporter.error(f"q role: write {{q}}`words <key: locator>`, got {text!r}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    words, key, locator = m.group("text"), m.group("key"), m.group("locator").strip()
    finding = check(env, key, locator, words, origin="page", location=(env.docname, lineno))
    node = nodes.inline(classes=["tafl-q", f"tafl-q-{finding.status or 'missing'}"])
    node += nodes.Text("“")
    for i, part in enumerate(ITALICS.split(" ".join(words.split()))):  # _word_: italics in the source
        if i % 2:
            node += nodes.emphasis(part.replace("_", " "), part.replace("_", " "))
        elif part:
            node += nodes.Text(part)
    node += nodes.Text("”")
    note = status_note(finding.status)
    if note:
        node += nodes.Text(" ")
        node += nodes.inline("", f"({note})", classes=["tafl-status"])
    return [node], []


def gloss_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
               options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> RoleResult:
    """``{gloss}`likewise the king```: the site's own words in single quotation marks, most often its
    rendering of foreign words. It quotes no one, so the quotation check leaves it alone. ``**word**``
    inside it is set in bold, ``*word*`` in italics (to show the word a reading turns on)."""
    node = nodes.inline(classes=["tafl-gloss"])
    node += nodes.Text("‘")
    for i, part in enumerate(re.split(r"(\*\*[^*]+\*\*|\*[^*]+\*)", " ".join(text.split()))):
        if i % 2 and part.startswith("**"):
            node += nodes.strong(part[2:-2], part[2:-2])
        elif i % 2:
            node += nodes.emphasis(part[1:-1], part[1:-1])
        elif part:
            node += nodes.Text(part)
    node += nodes.Text("’")
    return [node], []


class Quotation(SphinxDirective):
    """A block quotation with its attribution, checked against the stored text."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {"lang": lambda x: x.strip(), "note": lambda x: x.strip()}

    def run(self) -> list[nodes.Node]:
        key, sep, locator = self.arguments[0].partition(":")
        if not sep or not locator.strip():
            raise self.error("quotation: the argument is 'key: locator'")
        text = "\n".join(self.content)
        finding = check(self.env, key.strip(), locator.strip(), text, origin="page", location=self.get_location())
        quote = nodes.block_quote(classes=["tafl-quotation"])
        if "lang" in self.options:
            quote["classes"].append(f"tafl-lang-{self.options['lang']}")
        self.state.nested_parse(self.content, self.content_offset, quote)
        attribution = "— " + attribution_md(key.strip(), locator.strip(), finding)
        if self.options.get("note"):
            attribution += ". " + self.options["note"]
        holder = nodes.container(classes=["tafl-attribution"])
        self.state.nested_parse(StringList([attribution]), self.content_offset, holder)
        quote += holder.children
        return [quote]


def quotations(env: BuildEnvironment) -> dict[str, list[dict[str, Any]]]:
    """The quotations checked, by page: kept on the build environment, so that an incremental build
    keeps those of the pages it does not read again."""
    records: dict[str, list[dict[str, Any]]] = env.__dict__.setdefault("tafl_quotations", {})
    return records


def shown(env: BuildEnvironment) -> dict[str, list[dict[str, Any]]]:
    """The quotations found in text a page shows but does not write (notes of the bibliography, descriptions
    of the stored copies, docstrings), by page: checked when a page is written, so kept apart from those
    checked when it is read."""
    records: dict[str, list[dict[str, Any]]] = env.__dict__.setdefault("tafl_shown_quotations", {})
    return records


def found_anywhere(env: BuildEnvironment, docname: str, text: str) -> Finding:
    """Look words a page shows up in every stored copy, and record them with the page's quotations."""
    finding = library(roots.of(env.config).texts).find(text)
    shown(env).setdefault(docname, []).append({
        "origin": "shown", "key": ", ".join(dict.fromkeys(w.key for w in finding.witnesses)), "locator": "",
        "text": text, "status": finding.status, "witnesses": [w.name for w in finding.witnesses],
        "where": finding.where})
    return finding


def _init(app: Sphinx, env: BuildEnvironment, docnames: set[str]) -> None:
    for docname in docnames:
        quotations(env).pop(docname, None)


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    quotations(env).pop(docname, None)
    shown(env).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    quotations(env).update({d: q for d, q in quotations(other).items() if d in docnames})


def _write_report(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    report = Path(app.outdir, "_quotations.json")
    pages = {d: list(rs) for d, rs in quotations(app.env).items()}
    checked_now = shown(app.env)
    if report.exists():  # a page not written again this time keeps what was found on it when it was
        for old in json.loads(report.read_text(encoding="utf-8")):
            if old.get("origin") == "shown" and old["page"] not in checked_now and old["page"] in app.env.found_docs:
                pages.setdefault(old["page"], []).append({k: v for k, v in old.items() if k != "page"})
    for docname, rs in checked_now.items():
        pages.setdefault(docname, []).extend(rs)
    records = [dict(r, page=docname) for docname, rs in sorted(pages.items()) for r in rs]
    report.write_text(json.dumps(records, ensure_ascii=False, indent=0), encoding="utf-8")


def setup_quotes(app: Sphinx) -> None:
    app.add_role("q", q_role)
    app.add_role("gloss", gloss_role)
    app.add_directive("quotation", Quotation)
    app.connect("env-before-read-docs", _init)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)


def setup_quotation_report(app: Sphinx) -> None:
    """Write ``_quotations.json`` at the end of a build (the site's opt-in part, :mod:`tafl_sphinx.site`)."""
    app.connect("build-finished", _write_report)
