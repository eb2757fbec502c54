"""The API page: autodoc for the rules package's modules, with their docstrings made fit for MyST.

Directive
    ``api-modules <modules>``   ``automodule`` for each listed module that can be imported
"""

from __future__ import annotations

import importlib
import re
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from .util import MarkdownDirective

logger = logging.getLogger(__name__)


class ApiModules(MarkdownDirective):
    """``automodule`` for each listed module that can be imported (others are named as missing)."""

    optional_arguments = 20

    def markdown(self) -> str:
        out = []
        for name in self.arguments:
            try:
                importlib.import_module(name)
            except ImportError:
                logger.info("api-modules: %s is not importable; left out", name)
                continue
            out += ["```{eval-rst}", f".. automodule:: {name}", "   :members:", "   :show-inheritance:", "```", ""]
        return "\n".join(out)


_FOOTNOTE_REF = re.compile(r"\s*\[(\d+)\]_")
_FOOTNOTE_DEF = re.compile(r"^(\s*)\.\. \[(\d+)\]\s+(.*)$")


def plain_footnotes(app: Sphinx | None, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Numbered rST footnotes in docstrings (``[1]_`` / ``.. [1]``) as plain "(note 1)" text.

    MyST's ``eval-rst`` (which the Markdown API page needs for autodoc) does not resolve rST
    footnotes, so they would be build errors; the wording is kept, only the markup changes.

    >>> lines = ["Two kings [1]_.", "", ".. [1] As in Bell,", "   who says so."]
    >>> plain_footnotes(None, "module", "m", None, None, lines)
    >>> lines
    ['Two kings (note 1).', '', 'Note 1: As in Bell,', 'who says so.']
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


def setup_apidoc(app: Sphinx) -> None:
    app.add_directive("api-modules", ApiModules)
    if "autodoc-process-docstring" in app.events.events:
        app.connect("autodoc-process-docstring", plain_footnotes)
