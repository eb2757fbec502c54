"""Sphinx configuration. The source directory is the repository root; pages live in docs/ and sources/."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
sys.path.insert(0, str(ROOT))

import tafl_rules  # noqa: E402

project = "Tawlbwrdd: a reconstruction explorer"
author = "the Tawlbwrdd project"
copyright = "2026, the Tawlbwrdd project"
release = tafl_rules.__version__

root_doc = "docs/index"
extensions = [
    "myst_parser",
    "sphinx_design",
    "sphinxcontrib.bibtex",
    "sphinx.ext.autodoc",
    "tafl_sphinx",
]
source_suffix = {".md": "markdown"}
exclude_patterns = [
    "_build", ".venv", "node_modules", "dist", "build", "tafl_rules", "tests", "benchmarks",
    ".*", "README.md", "**/.pytest_cache", "**/__pycache__", "*.egg-info",
]
myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline", "attrs_block"]
myst_heading_anchors = 3
bibtex_bibfiles = ["docs/references.bib"]
bibtex_default_style = "alpha"
bibtex_reference_style = "author_year_round"


def _round_brackets():
    from sphinxcontrib.bibtex.style.referencing import BracketStyle

    return BracketStyle(left="(", right=")")


def _register_round_author_year() -> None:
    """Citations read "Jones (1993)" rather than "Jones [1993]" (sphinxcontrib-bibtex's documented plugin hook)."""
    import dataclasses

    from sphinxcontrib.bibtex.plugin import register_plugin
    from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

    @dataclasses.dataclass
    class RoundAuthorYearReferenceStyle(AuthorYearReferenceStyle):
        bracket_parenthetical: "BracketStyle" = dataclasses.field(default_factory=_round_brackets)
        bracket_textual: "BracketStyle" = dataclasses.field(default_factory=_round_brackets)
        bracket_author: "BracketStyle" = dataclasses.field(default_factory=_round_brackets)
        bracket_label: "BracketStyle" = dataclasses.field(default_factory=_round_brackets)
        bracket_year: "BracketStyle" = dataclasses.field(default_factory=_round_brackets)

    register_plugin("sphinxcontrib.bibtex.style.referencing", "author_year_round", RoundAuthorYearReferenceStyle)


_register_round_author_year()

html_theme = "alabaster"
html_title = "Tawlbwrdd"
html_static_path: list[str] = []  # the tafl_sphinx extension registers _static itself
html_theme_options = {"description": "tawlbwrdd and its relatives, source by source"}

autodoc_member_order = "bysource"
nitpicky = False
html_favicon = "_static/favicon.svg"
