"""Small fixes on top of sphinx-book-theme, made where the theme builds its HTML.

- ``docs/index.html``, the home page's old address, sends the reader to the site's root.
- ``404.html`` (the page a server shows for a missing address, at any depth) finds the
  site's root before anything loads, so its styles and links work wherever it is served:
  from ``html_baseurl`` when that is set, else by asking, from the deepest folder of the
  address upwards, which one holds the site's stylesheet.
- The navigation's fold-out buttons (``<summary>``) get an accessible name: the
  theme leaves them with an icon only, which axe-core reports as ``summary-name``.
- A page with a playable board gets a second skip link, "Skip to the board"
  (``_templates/layout.html``), to the first board's anchor.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.locale import _

from .board import board_node

_FOLDED_SECTION = re.compile(
    r'(<a class="(?:current )?reference internal" href="[^"]*">(?P<title>(?:(?!</a>).)*)</a><details(?: open="open")?>)<summary>', re.S)


def name_the_fold_buttons(markup: str) -> str:
    """Give each ``<summary>`` after a section's link the name "Pages under <section title>"."""
    def named(match: re.Match[str]) -> str:
        title = html.unescape(re.sub(r"<[^>]+>", "", match["title"])).strip()
        return f'{match[1]}<summary aria-label="{html.escape(_("Pages under %s") % title)}">'
    return _FOLDED_SECTION.sub(named, markup)


class _NamedFolds:
    """The theme's ``generate_toctree_html``, with the fold buttons named."""

    def __init__(self, generate: Callable[..., object]) -> None:
        self.generate = generate

    def __call__(self, *args: Any, **kwargs: Any) -> str:
        return name_the_fold_buttons(str(self.generate(*args, **kwargs)))


def _wrap_toctree(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                  doctree: nodes.document | None) -> None:
    generate = context.get("generate_toctree_html")
    if generate is None or isinstance(generate, _NamedFolds):
        return
    context["generate_toctree_html"] = _NamedFolds(generate)


#: Old addresses of moved pages, and where they went (both relative to the site's root).
MOVED = {"docs/index.html": "index.html"}

_REDIRECT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Moved</title>
<meta http-equiv="refresh" content="0; url={target}"><link rel="canonical" href="{target}">
<link rel="icon" href="{favicon}">
</head><body><p>This page has moved to <a href="{target}">{target}</a>.</p></body></html>
"""


def write_redirects(app: Sphinx, exception: Exception | None) -> None:
    """A small page at each old address, with a link relative to itself (so it works under any sub-path)."""
    if exception is not None or app.builder.format != "html":
        return
    for old, new in MOVED.items():
        if old.removesuffix(".html") in app.env.found_docs:
            continue  # a real page has taken the old address
        path = Path(app.outdir) / old
        depth = old.count("/")
        target = "../" * depth + new
        path.parent.mkdir(parents=True, exist_ok=True)
        favicon = "../" * depth + "_static/favicon.svg"
        path.write_text(_REDIRECT.format(target=html.escape(target), favicon=html.escape(favicon)))


_FIND_ROOT = """<script>
(function () {
  var root = %s;
  if (!root) {
    var parts = location.pathname.split("/");
    parts.pop();
    while (!root) {
      var candidate = parts.join("/") + "/", xhr = new XMLHttpRequest();
      try { xhr.open("HEAD", candidate + "_static/tafl-site.css", false); xhr.send(); } catch (e) { /* not here */ }
      if (xhr.status === 200 || parts.length <= 1) root = xhr.status === 200 ? candidate : "/";
      parts.pop();
    }
  }
  document.write('<base href="' + root.replace(/[^A-Za-z0-9_.~\\/%%:-]/g, "") + '">');
})();
</script>
"""


def _not_found_page_base(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                         doctree: nodes.document | None) -> None:
    if pagename != "404":
        return
    configured = urlparse(app.config.html_baseurl or "").path
    if configured and not configured.endswith("/"):
        configured += "/"
    context["metatags"] = _FIND_ROOT % json.dumps(configured) + context.get("metatags", "")


def _board_anchor(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                  doctree: nodes.document | None) -> None:
    board = doctree.next_node(board_node) if doctree is not None else None
    context["tafl_board_anchor"] = board["ids"][0] if board is not None and board["ids"] else ""


def setup_theme(app: Sphinx) -> None:
    app.connect("html-page-context", _wrap_toctree, priority=900)
    app.connect("html-page-context", _not_found_page_base)
    app.connect("html-page-context", _board_anchor)
    app.connect("build-finished", write_redirects)
