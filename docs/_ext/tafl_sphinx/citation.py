"""How to cite the site.

Directive
    ``site-citation``   a BibTeX entry for the site, with its release (``conf.py``'s ``release``)
"""

from __future__ import annotations

import re

from sphinx.application import Sphinx

from .util import MarkdownDirective


class SiteCitation(MarkdownDirective):
    def markdown(self) -> str:
        config = self.config
        year = re.search(r"\d{4}", config.copyright or "")
        return "\n".join([
            "```bibtex",
            "@misc{tawlbwrdd-explorer,",
            f"  title = {{{config.project}}},",
            f"  author = {{{{{config.author}}}}},",
            f"  year = {{{year.group(0) if year else ''}}},",
            f"  note = {{Version {config.release}; rules package tafl\\_rules {config.release}}},",
            "}",
            "```",
        ])


def setup_citation(app: Sphinx) -> None:
    app.add_directive("site-citation", SiteCitation)
