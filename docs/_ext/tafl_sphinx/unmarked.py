"""No words in quotation marks escape the quotation check, on any page.

A quotation on a page is best written ``{q}`words <key: locator>``` (or as a ``quotation`` block), so
that :mod:`tafl_sphinx.quotes` finds it at its locator in a stored copy of its source and says how it is
known. This check reads every page as built, wherever its text came from (the page itself, the notes of
a ``parallel-text`` block or of the bibliography, a note of the catalogue drawn onto a variant page, the
descriptions of the stored copies, a docstring on the API page, a table drawn from data), and looks at
every run of words in quotation marks: double or single, straight or curly, of any length. A run passes
when it

- is a checked quotation (``{q}``, ``quotation``) or the site's own rendering of foreign words
  (``{gloss}`words```), which quotes no one;
- names something: the title of a work in the bibliography or of a part of a source as a stored copy
  labels it, a name the catalogue gives a rule point, a toggle, a reading or a variant, or a label the
  page sets out itself (a heading, a table header, words in bold or italics);
- or is found word for word in a stored copy (``sources/texts``): it is then recorded with the page's
  quotations, with the status of the copy it was found in.

Anything else is a warning, an error under ``-W``: one changed word in a quotation stops the build.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging

from tafl_rules import catalogue
from tafl_rules.messages import LANGUAGES, translate

from . import bib, roots
from .quotes import found_anywhere, shown
from .roots import Roots
from .texts import library, normalize

logger = logging.getLogger(__name__)

#: A run in quotation marks: double (straight or curly) or single curly; a single straight one only where
#: no letter stands before its opening mark or after its closing one (so that no apostrophe is taken for it);
#: the second mark of an empty pair ("") opens nothing.
QUOTED = re.compile(r"(?<!\")[\"“]([^\"“”]+)[\"”]|‘(.+?)’(?!\w)|(?<![\w'])'([^'\n]+?)'(?![\w'])")
#: Nodes whose text is checked elsewhere or is not prose: code, raw HTML, mathematics, signatures, and the
#: entries of a resolved table of contents (other pages' titles, each checked on its own page).
_SKIP_NODES = (nodes.literal, nodes.literal_block, nodes.raw, nodes.comment, nodes.math, nodes.math_block,
               nodes.doctest_block, addnodes.desc_signature, addnodes.compact_paragraph)
#: The checked quotations and glosses, and the text units of a parallel text (stored copies shown as they are).
_SKIP_CLASSES = {"tafl-q", "tafl-quotation", "tafl-gloss", "tafl-parallel-text"}


def runs(text: str) -> list[str]:
    """The runs of words in quotation marks in ``text``.

    >>> runs('Murray has "those who lie in wait", ‘the king’s men’ and the \\'cut\\'; Walker’s and Jones\\' rules.')
    ['those who lie in wait', 'the king’s men', 'cut']
    >>> runs('the start ("" when it is the rules\\' own) and the side ("" when it is the first)')
    []
    """
    return [" ".join(next(g for g in m.groups() if g is not None).split()) for m in QUOTED.finditer(text)]


def _key(text: str) -> str:
    return normalize(text).strip(" .,;:?!'\"").lower()


def titles(folders: Roots) -> frozenset[str]:
    """What may stand in quotation marks as a name: the titles, authors and publishers of the
    bibliography's works, the quoted
    names of the parts of the stored copies, the catalogue's names (with the names quoted in them), and
    the fields of the data the pages are drawn from, with the titles of the works that data cites."""
    here = folders
    return _titles(here.bibfiles, here.texts, here.data)


def _data_names(folder: Path) -> list[str]:
    """The field names of the JSON files in ``folder``, and every ``title`` they give."""
    out: list[str] = []

    def walk(x: object) -> None:
        if isinstance(x, dict):
            out.extend(str(k) for k in x)
            if isinstance(x.get("title"), str):
                out.append(x["title"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        walk(json.loads(path.read_text(encoding="utf-8")))
    return out


@functools.cache
def _titles(files: tuple[Path, ...], texts: Path, data: Path) -> frozenset[str]:
    from .words import RULE_NAMES

    names = [bib.plain_text(e.fields.get(f, "")) for e in bib.entries(files).values() for f in ("title", "howpublished")]
    names += [bib.plain_text(" ".join(p.last_names + p.first_names)) for e in bib.entries(files).values()
              for people in e.persons.values() for p in people]
    names += [m.group(1) for w in library(texts).witnesses for u in w.units if (m := re.search(r"'(.+)'", u.label))]
    names += list(RULE_NAMES.values()) + _data_names(data)
    for v in catalogue.variants():
        names.append(v.name)
        for t in v.toggles.values():
            names += [t.label, *(r.label for r in t.readings.values())]
    names += [translate(name, lang) for name in list(names) for lang in LANGUAGES]  # as a translation names them
    names += [run for name in list(names) for run in runs(name)]
    return frozenset(_key(name) for name in names) - {""}


def labels(doctree: nodes.document) -> frozenset[str]:
    """The labels a page sets out itself (headings, table headers, captions, terms, words in bold or
    italics): a run in quotation marks that repeats one names it, and quotes no one.

    >>> from docutils.core import publish_doctree
    >>> sorted(labels(publish_doctree("Title\\n=====\\n\\n*Open point:* the rest")))
    ['open point', 'title']
    """
    kinds = (nodes.title, nodes.rubric, nodes.caption, nodes.term, nodes.field_name, nodes.strong, nodes.emphasis)
    out = {_key(node.astext()) for node in doctree.findall(lambda n: isinstance(n, kinds))}
    for head in doctree.findall(nodes.thead):
        out.update(_key(entry.astext()) for entry in head.findall(nodes.entry))
    return frozenset(out - {""})


def _skipped(node: nodes.Node | None) -> bool:
    while node is not None:
        if isinstance(node, _SKIP_NODES):
            return True
        if isinstance(node, nodes.Element) and _SKIP_CLASSES & set(node.get("classes", [])):
            return True
        node = node.parent
    return False


def _text(node: nodes.Element) -> str:
    """A block's own words, read through its inline markup; checked quotations, glosses and code left out."""
    out = []
    for child in node.children:
        if isinstance(child, nodes.Text):
            out.append(child.astext())
        elif isinstance(child, nodes.Inline) and isinstance(child, nodes.Element):
            out.append(" " if _skipped(child) else _text(child))
    return "".join(out)


def blocks(doctree: nodes.Node) -> list[nodes.TextElement]:
    """The blocks of a page whose quotation marks are checked: every block of text but those checked
    elsewhere (code, checked quotations, glosses, parallel texts) and those a translation puts in place of
    the page's own (Sphinx marks them ``translated``): the English build checks that paragraph's English,
    and in the translation the marks stand round the translator's renderings, which no stored copy holds.
    A {q} in a translated paragraph is still checked, as every {q} is.

    >>> from docutils import nodes
    >>> page = nodes.section("", nodes.paragraph("", "he wrote “watch your king”"),
    ...                      nodes.paragraph("", "ysgrifennodd “gwyliwch eich brenin”", translated=True),
    ...                      nodes.paragraph("", "", nodes.emphasis("", "an inline node")))
    >>> [b.astext() for b in blocks(page)]
    ['he wrote “watch your king”', 'an inline node']
    """
    return [block for block in doctree.findall(nodes.TextElement)
            if not isinstance(block, nodes.Inline) and not _skipped(block) and not block.get("translated")]


def page_titles(titles_by_page: dict[str, nodes.title]) -> frozenset[str]:
    """The site's page titles and the runs in quotation marks in them: a link or a card that shows another
    page's title repeats words checked on that page (in a translation, the translated title).

    >>> from docutils import nodes
    >>> sorted(page_titles({"v": nodes.title("", 'Tawlbwrdd "Lewis diamond" (aagenielsen.dk)')}))
    ['lewis diamond', 'tawlbwrdd "lewis diamond" (aagenielsen.dk)']
    """
    out = set()
    for title in titles_by_page.values():
        out.add(_key(title.astext()))
        out.update(_key(run) for run in runs(title.astext()))
    return frozenset(out - {""})


def check_doctree(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    shown(app.env).pop(docname, None)
    named = titles(roots.of(app.config)) | labels(doctree) | page_titles(app.env.titles)
    for block in blocks(doctree):  # an inline node is read as part of the block it stands in
        for run in runs(_text(block)):
            if not re.search(r"[^\W\d_]", run) or _key(run) in named:
                continue
            if found_anywhere(app.env, docname, run).status is None:
                logger.warning(f"words in quotation marks that are in no stored copy: “{run[:80]}”; write "
                               "{q}`words <key: locator>` for a quotation (stored in sources/texts), {gloss}`words` "
                               "for the site's own rendering, or drop the quotation marks",
                               location=block, type="tafl", subtype="unmarked-quotation")


def setup_unmarked(app: Sphinx) -> None:
    app.connect("doctree-resolved", check_doctree)
