"""Sphinx extension of the tawlbwrdd site: boards, figures and pages drawn from ``tafl_rules``.

Everything about a rule or a layout comes from the package's catalogue; the
extension only turns it into nodes, and registers the board's static assets.
It is installed with the project (``pip install -e .``) and used as any Sphinx
extension: ``extensions = ["tafl_sphinx"]``. It reads the project's own files
from folders named by configuration values (:mod:`tafl_sphinx.roots`).
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from . import apparatus, balance, bibstyle, board, collation, content, fairest, fonts, jones_points, lab_figures, language, level_verdicts, quotes, roots, runtime, theme, unmarked, witnesses, woodcut

__version__ = "0.1.0"

#: Extensions whose markup the generated pages are written in (MyST, sphinx-design's grids and tabs).
NEEDS = ("myst_parser", "sphinx_design")

# Each part registers its own nodes, directives, roles and assets.
PARTS = (board.setup_board, runtime.setup_runtime, theme.setup_theme, bibstyle.setup_bibstyle,
         content.setup_content, quotes.setup_quotes, apparatus.setup_apparatus, fonts.setup_fonts,
         balance.setup_balance, jones_points.setup_jones_points, lab_figures.setup_lab_figures,
         level_verdicts.setup_level_verdicts, woodcut.setup_woodcut, fairest.setup_fairest,
         collation.setup_collation, unmarked.setup_unmarked, witnesses.setup_witnesses, language.setup_language)


def setup(app: Sphinx) -> dict[str, Any]:
    for name in NEEDS:
        app.setup_extension(name)
    roots.setup_roots(app)
    for setup_part in PARTS:
        setup_part(app)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
