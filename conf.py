"""Sphinx configuration. The source directory is the repository root; pages live in docs/ and sources/.

The extension, ``tafl_sphinx`` (docs/_ext/tafl_sphinx), is installed with the project (``pip install -e .``,
which ``make`` runs); it reads the project's data from folders whose defaults fit this layout
(``tafl_data_dir``, ``tafl_texts_dir``, ``tafl_sources_data_dir``, ``tafl_fonts_dir``: tafl_sphinx.roots).
"""

import tafl_rules

project = "Tawlbwrdd: a reconstruction explorer"
author = "the Tawlbwrdd project"
copyright = "2026, the Tawlbwrdd project"
release = tafl_rules.__version__

root_doc = "index"
extensions = [
    "myst_parser",
    "sphinx_design",
    "sphinxcontrib.bibtex",
    "sphinx.ext.autodoc",
    "tafl_sphinx",
    "tafl_sphinx.site",  # this site's own furniture: its theme's fixes and redirects, the quotation report
]
tafl_offline = True  # the site as an app kept for offline use: service worker, manifest, update offer
source_suffix = {".md": "markdown"}
exclude_patterns = [
    "_build", ".venv", "node_modules", "dist", "build", "tafl_rules", "tests", "benchmarks",
    ".*", "README.md", "_templates", "**/.pytest_cache", "**/__pycache__", "*.egg-info", "locale",
]
myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline", "attrs_block"]
myst_heading_anchors = 3
bibtex_bibfiles = ["docs/references.bib"]
bibtex_default_style = "tafl"  # docs/_ext/tafl_sphinx/bibstyle.py: author-year labels
bibtex_reference_style = "author_year_round"


def _round_brackets():
    from sphinxcontrib.bibtex.style.referencing import BracketStyle

    return BracketStyle(left="(", right=")")


def _register_round_author_year() -> None:
    """Citations read "Jones 1993" in the text and "(Jones, 1993)" in parentheses, so that a textual
    citation inside the site's own brackets never doubles them (sphinxcontrib-bibtex's plugin hook)."""
    import dataclasses

    from sphinxcontrib.bibtex.style.referencing import BracketStyle

    from sphinxcontrib.bibtex.plugin import register_plugin
    from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

    @dataclasses.dataclass
    class RoundAuthorYearReferenceStyle(AuthorYearReferenceStyle):
        bracket_parenthetical: "BracketStyle" = dataclasses.field(default_factory=_round_brackets)
        bracket_textual: "BracketStyle" = dataclasses.field(default_factory=lambda: BracketStyle(left="", right=""))
        bracket_author: "BracketStyle" = dataclasses.field(default_factory=_round_brackets)
        bracket_label: "BracketStyle" = dataclasses.field(default_factory=_round_brackets)
        bracket_year: "BracketStyle" = dataclasses.field(default_factory=_round_brackets)

    register_plugin("sphinxcontrib.bibtex.style.referencing", "author_year_round", RoundAuthorYearReferenceStyle)


_register_round_author_year()

# sphinx-book-theme (on pydata-sphinx-theme): margin notes and sidenotes for the annotated sources,
# light and dark modes, a print stylesheet, and a layout that fits a phone.
html_theme = "sphinx_book_theme"
html_title = "Tawlbwrdd"
templates_path = ["_templates"]
html_sidebars = {"**": ["tafl-brand.html", "sbt-sidebar-nav.html"]}
html_static_path: list[str] = []  # the tafl_sphinx extension registers the board's assets (_static) itself
html_theme_options = {
    "logo": {"text": "Tawlbwrdd"},
    "home_page_in_toc": True,
    "use_sidenotes": True,
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "search_bar_text": "Search the site…",
    "navbar_persistent": [],  # pydata-sphinx-theme 0.20 would add a second search box in a header bar
    "article_header_end": ["tafl-language.html", "article-header-buttons.html"],  # the language switch first
}

html_context = {"default_mode": "auto"}

# The site in English and in Welsh (tafl_sphinx.language): English at the root of the output, Welsh
# built from the same sources with Sphinx's own internationalisation into _build/html/cy
# (`sphinx-build -D language=cy`, the Makefile). The catalogues are locale/cy/LC_MESSAGES/<page>.po,
# one per page; an entry not yet checked by a Welsh speaker is marked fuzzy, and used all the same.
language = "en"
tafl_languages = {"en": "English", "cy": "Cymraeg"}
locale_dirs = ["locale/"]
gettext_compact = False
gettext_allow_fuzzy_translations = True
gettext_uuid = False
gettext_last_translator = "the Tawlbwrdd project"  # follow the reader's system; the header's button switches

autodoc_member_order = "bysource"
# names the rule modes (tafl_rules.modes, a layer below the engine and the AI) take for type checking only
autodoc_type_aliases = {"Position": "tafl_rules.engine.state.Position", "Tables": "tafl_rules.engine.tables.Tables",
                        "Evaluator": "tafl_rules.ai.evaluate.Evaluator", "Rules": "tafl_rules.rules.Rules"}
nitpicky = False
html_favicon = "_static/favicon.svg"
