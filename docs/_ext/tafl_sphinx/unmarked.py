"""No words in quotation marks escape the quotation check.

A quotation on the site is written ``{q}`words <key: locator>``` (or as a ``quotation`` block) so that
:mod:`tafl_sphinx.quotes` finds it in a stored copy of its source. This check reads every page as
built, wherever its text came from (the page itself, the notes of a ``parallel-text`` block, a note of
the catalogue drawn onto a variant page), and warns of any run of four words or more set in
quotation marks that is not such a checked quotation, nor the title of a work in the bibliography.
Under ``-W`` the warning stops the build.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from . import bib, roots
from .texts import normalize

logger = logging.getLogger(__name__)

QUOTED = re.compile(r"[\"“]([^\"“”]+)[\"”]")
#: Nodes whose text is not prose a reader takes for a quotation: code, raw HTML, the checked quotations,
#: and the list of stored copies, whose descriptions repeat words of the copies they describe.
_SKIP_CLASSES = {"tafl-q", "tafl-quotation", "tafl-parallel-text", "tafl-provenance"}
#: The pages that present the sources: the source pages, the generated variant pages (the catalogue's
#: notes), the glossary, the comparison, the bibliography and the home page.
CHECKED_PAGES = ("sources/", "docs/variants/", "docs/glossary", "docs/compare", "docs/bibliography", "docs/cite",
                 "index")


def titles() -> frozenset[str]:
    """The bibliography's titles, which may stand in quotation marks."""
    return _titles(roots.current().bibfiles)


@functools.cache
def _titles(files: tuple[Path, ...]) -> frozenset[str]:
    return frozenset(normalize(bib.plain_text(e.fields.get("title", ""))).lower() for e in bib.entries().values())


def unmarked(text: str) -> list[str]:
    """The runs of four words or more in quotation marks that are not a title.

    >>> unmarked('Murray has "those who lie in wait" and the title "A Brief Look at Some Welsh Games".')
    ['those who lie in wait']
    """
    out = []
    for m in QUOTED.finditer(text):
        inner = " ".join(m.group(1).split())
        if len(inner.split()) >= 4 and normalize(inner).strip(" .,").lower() not in titles():
            out.append(inner)
    return out


def _skipped(node: nodes.Node) -> bool:
    while node is not None:
        if isinstance(node, (nodes.literal, nodes.literal_block, nodes.raw, nodes.citation, nodes.comment)):
            return True
        if _SKIP_CLASSES & set(getattr(node, "get", lambda *_: [])("classes", [])):
            return True
        node = node.parent
    return False


def check_doctree(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if not docname.startswith(CHECKED_PAGES):
        return
    for paragraph in doctree.findall(nodes.TextElement):
        if isinstance(paragraph, (nodes.literal, nodes.literal_block, nodes.raw)) or _skipped(paragraph):
            continue
        parts = [t.astext() for t in paragraph.children if isinstance(t, nodes.Text)]
        for words in unmarked(" ".join(parts)):
            logger.warning(f"words in quotation marks that the quotation check cannot see: “{words[:80]}”; write "
                           "{q}`words <key: locator>` for a quotation, or drop the quotation marks",
                           location=paragraph, type="tafl", subtype="unmarked-quotation")


def setup_unmarked(app: Sphinx) -> None:
    app.connect("doctree-resolved", check_doctree)
