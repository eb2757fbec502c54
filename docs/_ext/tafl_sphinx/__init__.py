"""Sphinx extension of the tawlbwrdd site: boards, figures and pages drawn from ``tafl_rules``.

Everything about a rule or a layout comes from the package's catalogue; the
extension only turns it into nodes, and registers the board's static assets.
"""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx

__version__ = "0.1.0"


def setup(app: Sphinx) -> dict[str, Any]:
    from . import board, runtime, theme

    board.setup_board(app)
    runtime.setup_runtime(app)
    theme.setup_theme(app)
    import importlib

    for name in ("bibstyle", "content", "quotes", "apparatus", "fonts", "balance"):  # optional parts, each with its own setup_<name>(app)
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            continue
        getattr(module, f"setup_{name}")(app)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
