"""Sphinx extension of the tawlbwrdd site: boards, figures and pages drawn from ``tafl_rules``.

Everything about a rule or a layout comes from the package's catalogue; the
extension only turns it into nodes, and registers the board's static assets.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

__version__ = "0.1.0"


def setup(app: Sphinx) -> dict[str, Any]:
    from . import board, runtime

    board.setup_board(app)
    runtime.setup_runtime(app)
    try:
        from . import content
    except ImportError:
        content = None
    if content is not None:
        content.setup_content(app)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
