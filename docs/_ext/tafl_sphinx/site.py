"""The tawlbwrdd site's own furniture, which a project opts into: ``extensions = ["tafl_sphinx",
"tafl_sphinx.site"]`` (this site's ``conf.py`` does).

- The theme's fixes (:mod:`tafl_sphinx.theme`): the page at the home page's old address, the
  404 page that finds the site's root, the navigation's named fold buttons and the "skip to the
  board" link of this site's template.
- The report of the quotations checked, ``_quotations.json`` (:mod:`tafl_sphinx.quotes`), which
  this site's tests read.

A project that uses ``tafl_sphinx`` for its boards, figures and pages gets none of these.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

from . import __version__, quotes, theme


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("tafl_sphinx")
    theme.setup_theme(app)
    quotes.setup_quotation_report(app)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
