"""The project's bibliography as the extension reads it: the files of sphinxcontrib-bibtex's
``bibtex_bibfiles``, and their LaTeX markup as plain text.
"""

from __future__ import annotations

import functools
from pathlib import Path

from pybtex.database import Entry, parse_file
from pybtex.richtext import Text


def plain_text(text: str) -> str:
    """LaTeX markup of a .bib field as plain text.

    >>> plain_text("Linn{\\\\'e}us"), plain_text("1--2")
    ('Linnéus', '1–2')
    """
    rendered: str = Text.from_latex(text).render_as("text")
    return rendered


def entries(files: tuple[Path, ...]) -> dict[str, Entry]:
    """Every entry of the bibliography files ``files`` (the project's: ``roots.of(config).bibfiles``), by key."""
    return _entries(tuple(files))


@functools.cache
def _entries(files: tuple[Path, ...]) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for path in files:
        out.update(parse_file(str(path)).entries)
    return out
