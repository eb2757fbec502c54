"""The ``tafl-board`` directive: a container the board script turns into a playable game.

Without JavaScript the container shows the variant's static figure, so the page
stays readable; with it, ``tafl-board.mjs`` starts (once per page) the module
worker that holds Pyodide and ``tafl_rules``.
"""

from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

STATIC_DIR = Path(__file__).resolve().parents[3] / "_static"
SIDES = ("attackers", "defenders", "both")


class board_node(nodes.General, nodes.Element):
    """A board container; its attributes become ``data-`` attributes."""


def _side(argument: str) -> str:
    return directives.choice(argument, SIDES)


def _toggles(argument: str) -> str:
    """``name=value`` pairs separated by spaces or commas, checked against the catalogue later."""
    pairs = {}
    for item in argument.replace(",", " ").split():
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            raise ValueError(f"toggle {item!r} is not of the form name=value")
        pairs[name] = value
    return json.dumps(pairs, sort_keys=True)


class BoardDirective(SphinxDirective):
    """``.. tafl-board:: <variant id>`` with options ``toggles``, ``position``, ``moves``,
    ``human`` (attackers / defenders / both) and ``ai`` (a level, or none)."""

    required_arguments = 0
    optional_arguments = 1
    option_spec = {
        "toggles": _toggles,
        "position": directives.unchanged,
        "moves": directives.unchanged,
        "human": _side,
        "ai": directives.unchanged,
        "label": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        variant_id = self.arguments[0] if self.arguments else ""
        toggles = json.loads(self.options.get("toggles", "{}"))
        label = self.options.get("label", "")
        if variant_id:
            try:
                label = label or _variant_name(variant_id, toggles)
            except ValueError as error:  # RulesError: the catalogue's own message names what is wrong
                raise self.error(f"tafl-board {variant_id}: {error}")
        node = board_node()
        node["variant"] = variant_id
        node["toggles"] = json.dumps(toggles, sort_keys=True)
        node["position"] = self.options.get("position", "")
        node["moves"] = " ".join(self.options.get("moves", "").split())
        node["human"] = self.options.get("human", "both")
        node["ai"] = self.options.get("ai", "none")
        node["label"] = label or "Tafl board"
        self.set_source_info(node)
        return [node]


class sandbox_node(nodes.General, nodes.Element):
    """The rules sandbox: a panel of layout and toggle choices around one board."""


class SandboxDirective(BoardDirective):
    """``.. tafl-sandbox:: [variant id]``: a board whose layout and every toggle the reader chooses;
    the page shows the chosen rules as an OTN string."""

    def run(self) -> list[nodes.Node]:
        sandbox = sandbox_node()
        self.set_source_info(sandbox)
        sandbox += super().run()
        return [sandbox]


def visit_sandbox_html(self, node: sandbox_node) -> None:
    self.body.append(self.starttag(node, "div", "", CLASS="tafl-sandbox"))
    self.body.append('<div class="tafl-sandbox-panel"><p>The layout and toggle choices appear here once the '
                     'rules engine has loaded (this needs JavaScript).</p></div>')


def depart_sandbox_html(self, node: sandbox_node) -> None:
    self.body.append("</div>\n")


def _variant_name(variant_id: str, toggles: dict[str, str]) -> str:
    from tafl_rules import variant

    return variant(variant_id, **toggles).name


def _levels_json() -> str:
    """The AI's levels as the board's menu shows them: ``[[1, "beginner"], ...]``."""
    from tafl_rules.ai import LEVELS

    return json.dumps([[n, spec.name] for n, spec in LEVELS.items()])


def visit_board_html(self, node: board_node) -> None:
    attrs = {
        "class": "tafl-board",
        "role": "region",
        "aria-label": f"Playable board: {node['label']}",
        "data-variant": node["variant"],
        "data-toggles": node["toggles"],
        "data-position": node["position"],
        "data-moves": node["moves"],
        "data-human": node["human"],
        "data-ai": node["ai"],
        "data-levels": _levels_json(),
        "data-ready": "false",
    }
    self.body.append(self.starttag(node, "div", "", **attrs))
    self.body.append(
        '<p class="tafl-board-status" role="status" aria-live="polite">'
        "Loading the board (this needs JavaScript)…</p>"
    )


def depart_board_html(self, node: board_node) -> None:
    self.body.append("</div>\n")


def skip(self, node: nodes.Node) -> None:
    raise nodes.SkipNode


def add_static_assets(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    static = str(STATIC_DIR)
    if static not in app.config.html_static_path:
        app.config.html_static_path.append(static)
    app.add_css_file("tafl-site.css")


def add_board_assets(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Only pages with a board load the board's assets; ``tafl-boot.js`` (not deferred) starts
    the rules worker while the rest of the page is still being parsed."""
    if doctree is None or doctree.next_node(board_node) is None:
        return
    app.add_css_file("tafl-board.css")
    app.add_js_file("tafl-boot.js", priority=100)
    app.add_js_file("tafl-board.mjs", type="module")


def setup_board(app: Sphinx) -> None:
    app.add_node(board_node, html=(visit_board_html, depart_board_html),
                 latex=(skip, None), text=(skip, None), man=(skip, None), texinfo=(skip, None))
    app.add_node(sandbox_node, html=(visit_sandbox_html, depart_sandbox_html),
                 latex=(skip, None), text=(skip, None), man=(skip, None), texinfo=(skip, None))
    app.add_directive("tafl-board", BoardDirective)
    app.add_directive("tafl-sandbox", SandboxDirective)
    app.connect("builder-inited", add_static_assets)
    app.connect("html-page-context", add_board_assets)
