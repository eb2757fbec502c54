"""The ``tafl-board`` directive: a board drawn at build time that the board script makes playable.

The page carries the board's first position as a picture (drawn from the same
``tafl_rules.webapi`` state the browser worker sends), its colour key and a short
"how to play" box generated from the rules; ``tafl-board.mjs`` then starts a
module worker (one per board) holding Pyodide and ``tafl_rules``, and turns the
picture into live squares in place. Without JavaScript the picture stays.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.writers.html5 import HTML5Translator

from tafl_rules import variant, webapi
from tafl_rules.ai import DEFAULT_LEVEL, LEVELS
from tafl_rules.ai.people import NAME as PEOPLE
from tafl_rules.messages import translator
from tafl_rules.squares import FILES

from . import roots
from .roots import Roots
from .balance import level_times_by_size, typical_time
from .util import STATIC_DIR
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
    ``human`` (attackers / defenders / both; by default the reader plays the side to move and the
    computer the other), ``ai`` (a level, or none: the default level), ``label`` (the board's
    accessible name, after "Playable board: ") and ``name`` (what the games list calls a game of
    the board's own rules; by default the variant's name, or the label)."""

    required_arguments = 0
    optional_arguments = 1
    option_spec = {
        "toggles": _toggles,
        "position": directives.unchanged,
        "moves": directives.unchanged,
        "human": _side,
        "ai": directives.unchanged,
        "label": directives.unchanged,
        "name": directives.unchanged,
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
        node["human"] = self.options.get("human", "")
        node["ai"] = self.options.get("ai", "none")
        node["label"] = label or "Tafl board"
        node["name"] = self.options.get("name", "") or node["label"]
        serial = self.env.new_serialno("tafl-board")
        node["ids"].append("board" if serial == 0 else f"board-{serial + 1}")  # "Skip to the board" goes to the first
        self.set_source_info(node)
        try:
            first_state(node)  # the moves and position must replay under these rules
        except ValueError as error:
            raise self.error(f"tafl-board {variant_id or '(default rules)'}: {error}")
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


def visit_sandbox_html(self: HTML5Translator, node: sandbox_node) -> None:
    self.body.append(self.starttag(node, "div", "", CLASS="tafl-sandbox"))


def depart_sandbox_html(self: HTML5Translator, node: sandbox_node) -> None:
    self.body.append("</div>\n")


def sandbox_panel_html(variant_id: str) -> str:
    """The sandbox's choices, first beside the board (under it on a phone), so that the board is on
    a phone's first screen; until the rules engine has loaded, a note that keeps their room (one
    row per toggle of the first layout), so that nothing moves when they appear."""
    toggles = len(variant(variant_id).toggles) if variant_id else 0
    return (f'<div class="tafl-sandbox-panel" style="--toggles: {toggles}"><p>The layout and toggle choices appear '
            'here once the rules engine has loaded (this needs JavaScript).</p></div>')


def _variant_name(variant_id: str, toggles: dict[str, str]) -> str:
    return variant(variant_id, **toggles).name


def level_notes(folders: Roots, size: int | None = None) -> dict[int, str]:
    """A short note shown after each level's name in the board's menu: its typical reply time
    in the board's worker on a board of ``size`` (``docs/data/level-times-browser.json``), else in
    the browser's Python over all boards (``docs/data/level-times.json``), or its time cap where it
    was not measured."""
    return {n: typical_time(folders, n, size) for n in LEVELS}


def level_menu(folders: Roots, size: int | None = None, lang: str = "") -> list[list[Any]]:
    """The AI's levels as the board's menu shows them: ``[[1, "beginner", note], ...]``, then the
    people-like player (``["people", name, note]``), which moves as people were seen to move;
    in the page's language (``lang``)."""
    _ = translator(lang)
    notes = level_notes(folders, size)
    return [[n, _(spec.name), _note(notes.get(n, ""), _)] for n, spec in LEVELS.items()] + \
        [[PEOPLE, _("plays as people do"), ""]]


def _note(note: str, _: Callable[..., str]) -> str:
    """A level's time note ("about 0.4 s", "under 0.1 s", "up to 3 s") in the page's language."""
    if note.startswith("about "):
        return _("about {time}", time=note.removeprefix("about "))
    if note.startswith("under "):
        return _("under {time}", time=note.removeprefix("under "))
    if note.startswith("up to "):
        return _("up to {time}", time=note.removeprefix("up to "))
    return note


def _levels_json(folders: Roots, size: int | None = None, lang: str = "") -> str:
    return json.dumps(level_menu(folders, size, lang))


def level_notes_by_size(folders: Roots, lang: str = "") -> dict[int, dict[int, str]]:
    """Each measured board size's menu notes (:func:`level_notes`), so that a board whose size
    changes (the sandbox's layout menu, an imported record) shows the times of its new size."""
    _ = translator(lang)
    return {size: {n: _note(note, _) for n, note in level_notes(folders, size).items()}
            for size in sorted(level_times_by_size(folders))}


def first_state(node: board_node, lang: str = "") -> dict[str, Any]:
    """The state the browser's worker will send for this board's first position (same code)."""
    payload = {"board": "build", "variant": node["variant"], "toggles": json.loads(node["toggles"]),
               "position": node["position"], "moves": node["moves"].split(), **({"lang": lang} if lang else {})}
    state: dict[str, Any] = json.loads(webapi.handle("new", json.dumps(payload)))
    if "error" in state:
        raise ValueError(state["error"])
    return state


PIECES = {"t": "attacker", "T": "defender", "K": "king"}


def key_items(special: dict[str, Any], lang: str = "") -> list[tuple[str, str]]:
    """(kind, words) of the colour key: the pieces, the special squares these rules have (the words
    the board script's key uses, in the page's language)."""
    _ = translator(lang)
    items = [("attacker", _("attacker")), ("defender", _("defender")), ("king", _("king"))]
    if special["throne"]:
        items.append(("throne", _("throne")))
    if special["corners"]:
        items.append(("corner", _("corner")))
    if special["camps"]:
        items.append(("camp", _("camp")))
    return items + [("last", _("last move")), ("taken", _("taken by the last move")),
                    ("target", _("where the picked-up piece can go"))]


def static_board_html(state: dict[str, Any], lang: str = "") -> str:
    """The board as a picture: the same frame, squares and classes the script draws, without buttons."""
    _ = translator(lang)
    size, ranks, special = state["size"], state["ranks"], state["special"]
    corners, camps = set(special["corners"]), set(special["camps"])
    counts = {kind: sum(row.count(ch) for row in ranks) for ch, kind in PIECES.items()}
    values = {"size": size, "attackers": counts["attacker"], "defenders": counts["defender"]}
    label = (_("The board, {size} by {size}: {attackers} attackers, {defenders} defenders and the king (a picture until "
               "the rules engine has loaded)", **values) if counts["king"]
             else _("The board, {size} by {size}: {attackers} attackers, {defenders} defenders (a picture until the rules "
                    "engine has loaded)", **values))
    squares = []
    for row, rank_text in enumerate(ranks):
        rank = size - row
        for col, ch in enumerate(rank_text):
            name = f"{FILES[col]}{rank}"
            classes = ["tafl-square"]
            if name == special["throne"]:
                classes.append("tafl-throne")
            if name in corners:
                classes.append("tafl-corner")
            if name in camps:
                classes.append("tafl-camp")
            if ch in PIECES:
                classes.append(f"tafl-{PIECES[ch]}")
            squares.append(f'<span class="{" ".join(classes)}"></span>')
    ranks_html = "".join(f"<span>{size - i}</span>" for i in range(size))
    files_html = "".join(f"<span>{f}</span>" for f in FILES[:size])
    return (f'<div class="tafl-scroll"><div class="tafl-frame"><div class="tafl-ranks" aria-hidden="true">{ranks_html}</div>'
            f'<div class="tafl-grid tafl-static" role="img" aria-label="{html.escape(label)}">{"".join(squares)}</div>'
            f'<span></span><div class="tafl-files" aria-hidden="true">{files_html}</div></div></div>')


def key_html(special: dict[str, Any], lang: str = "") -> str:
    items = "".join(f'<li><span class="tafl-swatch" data-kind="{kind}" aria-hidden="true"></span>{html.escape(words)}</li>'
                    for kind, words in key_items(special, lang))
    return f'<ul class="tafl-key" aria-label="{html.escape(translator(lang)("Key"))}">{items}</ul>'


def howto_html(lines: list[list[str]], lang: str = "") -> str:
    rows = "".join(f"<dt>{html.escape(h)}</dt><dd>{html.escape(t)}</dd>" for h, t in lines)
    summary = html.escape(translator(lang)("How to play these rules"))
    return f'<details class="tafl-howto" open=""><summary>{summary}</summary><dl>{rows}</dl></details>'


def visit_board_html(self: HTML5Translator, node: board_node) -> None:
    lang = "" if self.builder.config.language in (None, "", "en") else self.builder.config.language
    _ = translator(lang)
    state = first_state(node, lang)
    folders = roots.of(self.config)
    glossary = variants = ""
    if "docs/glossary" in self.builder.env.found_docs:
        glossary = self.builder.get_relative_uri(self.builder.current_docname, "docs/glossary")
    if "docs/variants/index" in self.builder.env.found_docs:
        variants = self.builder.get_relative_uri(self.builder.current_docname, "docs/variants/index")
    attrs = {
        "class": "tafl-board tafl-large" if state["size"] > 13 else "tafl-board",
        "role": "region",
        "aria-label": f"Playable board: {node['label']}",
        "data-variant": node["variant"],
        "data-toggles": node["toggles"],
        "data-position": node["position"],
        "data-moves": node["moves"],
        "data-human": node["human"],
        "data-ai": node["ai"],
        "data-name": node["name"],
        "data-levels": _levels_json(folders, state["size"], lang),
        "data-level-notes": json.dumps(level_notes_by_size(folders, lang)),
        "data-default-level": str(DEFAULT_LEVEL),
        "data-glossary": glossary,
        "data-variants": variants,
        "data-ready": "false",
        "style": f"--size: {state['size']}",
    }
    if not node["variant"]:  # the games list tells a game of this board's own rules by them
        attrs["data-rules-otn"] = state["rules_otn"]
    turn = _("Game over") if state["outcome"] else _("Attackers to move") if state["turn"] == "attackers" else _("Defenders to move")
    panel = sandbox_panel_html(node["variant"]) if isinstance(node.parent, sandbox_node) else ""
    self.body.append(self.starttag(node, "div", "", **attrs))
    self.body.append(
        f'<p class="tafl-turn">{html.escape(turn)}</p><div class="tafl-layout"><div class="tafl-main">'
        f'{static_board_html(state, lang)}<p class="tafl-board-status" role="status" aria-live="polite">'
        f'{html.escape(_("Loading the rules engine: the board becomes playable once it has loaded (this needs JavaScript)."))}'
        f'</p></div><div class="tafl-aside">{panel}{key_html(state["special"], lang)}{howto_html(state["howto"], lang)}'
        '</div></div>'
    )


def depart_board_html(self: HTML5Translator, node: board_node) -> None:
    self.body.append("</div>\n")


def skip(self: nodes.NodeVisitor, node: nodes.Node) -> None:
    raise nodes.SkipNode


def add_static_assets(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    static = str(STATIC_DIR)
    if static not in app.config.html_static_path:
        app.config.html_static_path.append(static)
    app.add_css_file("tafl-site.css")
    app.add_js_file("tafl-print.js", defer="defer")
    app.add_js_file("tafl-kiosk.mjs", type="module")  # every page: a kiosk goes back to its own page


def boot_script(worker_url: str) -> str:
    """``tafl-boot.js`` inline, first in the page's head (before the styles it would wait for), so
    the rules worker starts as soon as the page begins to arrive; the build is filled in when the
    build ends (offline.stamp_pages)."""
    code = (STATIC_DIR / "tafl-boot.js").read_text(encoding="utf-8")
    return f'<script data-worker="{html.escape(worker_url)}" data-tafl-build="">{code}</script>'


def add_board_assets(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                     doctree: nodes.document | None) -> None:
    """Only pages with a board load the board's assets, and start the rules worker at once."""
    if doctree is None or doctree.next_node(board_node) is None:
        return
    app.add_css_file("tafl-board.css")
    app.add_js_file("tafl-board.mjs", type="module")
    context["metatags"] = boot_script(context["pathto"]("_static/tafl-worker.mjs", 1)) + context.get("metatags", "")


def setup_board(app: Sphinx) -> None:
    app.add_node(board_node, html=(visit_board_html, depart_board_html),
                 latex=(skip, None), text=(skip, None), man=(skip, None), texinfo=(skip, None))
    app.add_node(sandbox_node, html=(visit_sandbox_html, depart_sandbox_html),
                 latex=(skip, None), text=(skip, None), man=(skip, None), texinfo=(skip, None))
    app.add_directive("tafl-board", BoardDirective)
    app.add_directive("tafl-sandbox", SandboxDirective)
    app.connect("builder-inited", add_static_assets)
    app.connect("html-page-context", add_board_assets)
