"""The pages drawn from the catalogue: every figure, rule table, toggle list, link and the Hywel Dda
arithmetic is generated from ``tafl_rules.catalogue`` (and drawn with ``tafl_rules.svg``), never
typed on a page. Each directive builds MyST text and parses it in place (:mod:`tafl_sphinx.util`).

==========================  ==============================================================
module                      what it makes
==========================  ==============================================================
:mod:`.variant_pages`       ``variant-page``, ``variant-rules``, ``variant-toggles``,
                            ``variant-list``, ``hywel-costing``
:mod:`.figures`             ``variant-figure``, ``compare-figures``
:mod:`.matrix`              ``rule-matrix``
:mod:`.links`               the roles ``{variant}``, ``{toggle}``, ``{rule}``, ``{tafl-anchor}``
:mod:`.apidoc`              ``api-modules`` (and plain footnotes in the API's docstrings)
:mod:`.citation`            ``site-citation``
==========================  ==============================================================

They share the rule points' words (:mod:`.words`) and the layouts' reading (:mod:`.layouts`).
"""

from __future__ import annotations

from sphinx.application import Sphinx

from .apidoc import setup_apidoc
from .citation import setup_citation
from .figures import setup_figures
from .links import setup_links
from .matrix import setup_matrix
from .variant_pages import setup_variant_pages


def setup_content(app: Sphinx) -> None:
    for setup_part in (setup_apidoc, setup_variant_pages, setup_figures, setup_matrix, setup_citation, setup_links):
        setup_part(app)
