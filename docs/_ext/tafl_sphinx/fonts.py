"""Middle Welsh letters (ỽ in "taỽlbord", the Welsh ll and v forms, U+1EFA-U+1EFF) on every page.

Common fonts lack them, so a browser draws an empty box. Gentium Plus (SIL, Open Font
License) has them: its Latin Extended files come from the pinned npm package
``@fontsource/gentium-plus`` (``tafl_fonts_dir``, :mod:`tafl_sphinx.roots`; ``None`` leaves the
font out) and are served beside the pages. A transform wraps each
such letter in ``<span class="tafl-mw">``, and the face is put first in the theme's font stacks,
limited by ``unicode-range`` to these letters, so that generated pages (the index, search
results) draw them too.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

from . import roots

logger = logging.getLogger(__name__)

FILES = ("gentium-plus-latin-ext-400-normal.woff2", "gentium-plus-latin-ext-400-italic.woff2")
MIDDLE_WELSH = re.compile("([\u1efa-\u1eff]+)")
CSS = """/* Middle Welsh letters (U+1EFA-1EFF) in Gentium Plus, SIL Open Font License 1.1 (LICENSE beside this file). */
@font-face { font-family: "Tafl Middle Welsh"; font-style: normal; font-weight: 400; font-display: swap;
  src: url(gentium-plus-latin-ext-400-normal.woff2) format("woff2"); unicode-range: U+1EFA-1EFF; }
@font-face { font-family: "Tafl Middle Welsh"; font-style: italic; font-weight: 400; font-display: swap;
  src: url(gentium-plus-latin-ext-400-italic.woff2) format("woff2"); unicode-range: U+1EFA-1EFF; }
.tafl-mw { font-family: "Tafl Middle Welsh", serif; }
/* Everywhere else too (generated indexes, the search page, headings, code): the face covers only these
   letters (unicode-range), so every other letter falls through to the theme's own fonts. */
html:root {
  --pst-font-family-base: "Tafl Middle Welsh", var(--pst-font-family-base-system);
  --pst-font-family-heading: "Tafl Middle Welsh", var(--pst-font-family-base-system);
  --pst-font-family-monospace: "Tafl Middle Welsh", var(--pst-font-family-monospace-system);
}
"""


class MiddleWelshLetters(SphinxTransform):
    """Wrap each run of Middle Welsh letters in an inline node of class ``tafl-mw``."""

    default_priority = 800

    def apply(self, **kwargs: Any) -> None:
        for text in list(self.document.findall(nodes.Text)):
            parent = text.parent
            if parent is None or not MIDDLE_WELSH.search(text) or isinstance(
                    parent, (nodes.literal_block, nodes.literal, nodes.raw, nodes.FixedTextElement)):
                continue
            pieces = []
            for i, part in enumerate(MIDDLE_WELSH.split(str(text))):
                if not part:
                    continue
                pieces.append(nodes.inline(part, part, classes=["tafl-mw"]) if i % 2 else nodes.Text(part))
            parent.replace(text, pieces)


def _install(app: Sphinx, exception: BaseException | None) -> None:
    package = roots.of(app.config).fonts
    if exception is not None or app.builder.format != "html" or package is None:
        return
    target = Path(app.outdir) / "_static" / "tafl-fonts"
    missing = [name for name in FILES if not (package / "files" / name).is_file()]
    if missing:
        logger.warning(f"Middle Welsh font missing ({', '.join(missing)} in {package}, tafl_fonts_dir); run `npm ci`",
                       type="tafl", subtype="font")
        return
    target.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copy2(package / "files" / name, target / name)
    shutil.copy2(package / "LICENSE", target / "LICENSE")
    (target / "tafl-welsh.css").write_text(CSS, encoding="utf-8")


def _add_css(app: Sphinx) -> None:
    if roots.of(app.config).fonts is not None:  # no font, no style that would ask for it
        app.add_css_file("tafl-fonts/tafl-welsh.css")


def setup_fonts(app: Sphinx) -> None:
    app.add_transform(MiddleWelshLetters)
    app.connect("builder-inited", _add_css, priority=400)  # before the other extensions' styles, as it was
    app.connect("build-finished", _install)
