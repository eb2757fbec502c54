"""What the extension's modules share: MyST text made safe, and the base of the directives that write it.

Most directives here build MyST text and parse it where they stand, so that a generated page uses
the same citations (``{cite:t}``), cross-references and sphinx-design components as a hand-written
one. :class:`MystDirective` parses such text in place; :class:`MarkdownDirective` is a directive
that is nothing but its text (a :meth:`~MarkdownDirective.markdown` method).
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

import tafl_rules

from . import roots
from .roots import Roots

#: What a role function returns: its nodes, and the messages of its errors.
RoleResult = tuple[list[nodes.Node], list[nodes.system_message]]

#: The board's scripts and styles, which the extension registers itself: the project's ``_static``
#: folder, linked into the package as ``static`` so that a wheel of the extension carries them.
STATIC_DIR = Path(__file__).resolve().parent / "static"


def pct(share: float) -> str:
    """A share as a whole percentage.

    >>> pct(0.456), pct(1), pct(0.004)
    ('46%', '100%', '0%')
    """
    return f"{round(100 * share)}%"


def md_escape(text: object) -> str:
    """Text safe inside a MyST paragraph or table cell: on one line, with MyST's own signs escaped.

    >>> md_escape("a | b <c> *d* `e` [f]")
    'a \\\\| b &lt;c> \\\\*d\\\\* \\\\`e\\\\` \\\\[f\\\\]'
    """
    text = " ".join(str(text).split())
    for char, repl in (("\\", "\\\\"), ("|", "\\|"), ("<", "&lt;"), ("*", "\\*"), ("`", "\\`"), ("[", "\\["), ("]", "\\]")):
        text = text.replace(char, repl)
    return text


def escape_inline(text: str) -> str:
    """Like :func:`md_escape`, but keeps one space at either end (text that stands between roles).

    >>> escape_inline("  see *this* "), escape_inline("   ")
    (' see \\\\*this\\\\* ', ' ')
    """
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    return (" " if lead else "") + md_escape(text) + (" " if trail and text.strip() else "")


def cite(key: str, locator: str = "") -> str:
    """A textual citation with its locator: Author (year), locator.

    >>> cite("jones1993", "point 3")
    '{cite:t}`jones1993`, point 3'
    """
    text = f"{{cite:t}}`{key}`"
    return f"{text}, {md_escape(locator)}" if locator else text


_ROLE = re.compile(r"\{(?:q|gloss|variant|toggle|term|doc|rule|cite:t|cite:p)\}`[^`]*`")


def rich_md(text: str) -> str:
    """Catalogue prose as MyST: escaped, except its roles (``{q}`words <key: locator>``` and links).

    >>> rich_md("The *king* of {variant}`lewis-1` [sic]")
    'The \\\\*king\\\\* of {variant}`lewis-1` \\\\[sic\\\\]'
    """
    text = " ".join(str(text).split())
    out, last = [], 0
    for m in _ROLE.finditer(text):
        out += [escape_inline(text[last:m.start()]), m.group(0)]
        last = m.end()
    out.append(escape_inline(text[last:]))
    return "".join(out)


def quote_md(key: str, locator: str, passage: str) -> str:
    """A quotation as a ``{q}`` role, so that the build checks it and marks how it is known (a passage
    with a sign the role cannot hold is set in quotation marks, unchecked).

    >>> quote_md("linnaeus1811", "law 9", "If any one man")
    '{q}`If any one man <linnaeus1811: law 9>`'
    """
    if "`" in passage or "<" in passage or ">" in passage or "|" in passage:
        return f"“{md_escape(passage)}”"
    return f"{{q}}`{' '.join(passage.split())} <{key}: {locator}>`"


def catalogue_files() -> list[str]:
    """The files a page drawn from the catalogue depends on: the catalogue's data and code, the SVG
    renderer, and the extension's own modules."""
    package = Path(tafl_rules.__file__).parent
    files = sorted(str(p) for p in (package / "variants").glob("*.toml"))
    files += [str(package / name) for name in ("catalogue.py", "rules.py", "svg.py")]
    return files + sorted(str(p) for p in Path(__file__).parent.glob("*.py"))


class MystDirective(SphinxDirective):
    """A directive that writes MyST text and parses it where it stands."""

    @property
    def folders(self) -> Roots:
        """The project's folders, from this build's configuration (:mod:`tafl_sphinx.roots`)."""
        return roots.of(self.config)

    def parse_md(self, text: str, *, match_titles: bool = False) -> list[nodes.Node]:
        """The nodes of ``text``, parsed as the page's own text (``match_titles``: headings allowed)."""
        container = nodes.container()
        self.state.nested_parse(StringList(text.splitlines(), source=self.env.docname), 0, container,
                                match_titles=match_titles)
        return container.children


class MarkdownDirective(MystDirective):
    """A directive that is nothing but the MyST text its :meth:`markdown` returns; the page is read
    again when the catalogue changes, and an error of the catalogue is the directive's error."""

    #: Whether the text may hold headings (a whole page does).
    match_titles = False

    def markdown(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        for path in catalogue_files():
            self.env.note_dependency(path)
        try:
            text = self.markdown()
        except Exception as error:  # the catalogue's messages name what is wrong
            raise self.error(f"{self.name}: {error}") from error
        return self.parse_md(text, match_titles=self.match_titles)
