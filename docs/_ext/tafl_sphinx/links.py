"""Links into the catalogue's pages: a variant, one reading of a toggle, one rule point's provenance.

Roles
    ``{variant}`id``` / ``{variant}`text <id>```             link to a variant's page
    ``{toggle}`id:name=value``` (or ``text <id:name=value>``) link to one reading of a toggle
                                                            (shown as the reading's label and the variant)
    ``{rule}`id:field``` (or ``text <id:field>``)            link to one rule point's provenance
    ``{tafl-anchor}`label```                                 an inline target for ``{ref}``

A link's text and whether its target exists come from the catalogue, so a misspelt id, toggle or
rule point is a build error that names it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from docutils import nodes
from docutils.parsers.rst.states import Inliner
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.locale import _

from tafl_rules import catalogue
from tafl_rules.rules import FIELDS

from .language import data_words
from .util import RoleResult, catalogue_files
from .words import short_name, short_value

#: The folder of the variant pages (one page per catalogue variant, named by its id).
VARIANT_DIR = "docs/variants"

def variant_docname(vid: str) -> str:
    """The page of a variant.

    >>> variant_docname("lewis-1")
    'docs/variants/lewis-1'
    """
    return f"{VARIANT_DIR}/{vid}"


def label(*parts: str) -> str:
    """A target name made of parts (lower case, words joined by hyphens).

    >>> label("toggle", "lewis-1", "king_capture", "two=four")
    'toggle-lewis-1-king-capture-two-four'
    """
    return "-".join(p.lower().replace("_", "-").replace("=", "-") for p in parts)


def rule_label(vid: str, field: str) -> str:
    """The target of one rule point on a variant's page."""
    return label("rule", vid, field)


def toggle_label(vid: str, name: str, value: str | None = None) -> str:
    """The target of a toggle (or one of its readings) on a variant's page."""
    return label("toggle", vid, name, *([value] if value is not None else []))


_EXPLICIT = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)


def _split(text: str) -> tuple[str | None, str]:
    m = _EXPLICIT.match(text)
    return (m.group(1), m.group(2).strip()) if m else (None, text.strip())


def _env(inliner: Inliner) -> BuildEnvironment:
    env: BuildEnvironment = inliner.document.settings.env
    return env


def _xref(env: BuildEnvironment, text: str, reftype: str, target: str) -> addnodes.pending_xref:
    for path in catalogue_files():  # the link text and its validity come from the catalogue
        env.note_dependency(path)
    return addnodes.pending_xref("", nodes.inline(text, text, classes=["xref", "std", f"std-{reftype}"]),
                                 refdomain="std", reftype=reftype, reftarget=target, refexplicit=True,
                                 refwarn=True, refdoc=env.docname)


def _role_error(inliner: Inliner, lineno: int, rawtext: str, message: str) -> RoleResult:
    msg = inliner.reporter.error(message, line=lineno)
    prb = inliner.problematic(rawtext, rawtext, msg)
    return [prb], [msg]


def variant_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                 options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> RoleResult:
    title, vid = _split(text)
    try:
        v = catalogue.variant(vid)
    except Exception as error:
        return _role_error(inliner, lineno, rawtext, f"variant role: {error}")
    env = _env(inliner)
    return [_xref(env, title or data_words(env.config, v.name), "doc", "/" + variant_docname(v.id))], []


def toggle_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> RoleResult:
    title, target = _split(text)
    m = re.fullmatch(r"([a-z0-9-]+):(\w+)=([\w-]+)", target)
    if not m:
        return _role_error(inliner, lineno, rawtext, f"toggle role: {target!r} is not of the form id:name=value")
    vid, toggle, value = m.groups()
    try:
        catalogue.variant(vid, **{toggle: value})
    except Exception as error:
        return _role_error(inliner, lineno, rawtext, f"toggle role: {error}")
    base = catalogue.variant(vid)
    env = _env(inliner)
    reading = base.toggles[toggle].readings[value].label
    if title is None:
        text = str(_("%(reading)s, in %(variant)s")) % {"reading": data_words(env.config, reading),
                                                        "variant": short_name(base)}
    elif title.strip("‘’") == reading:  # the reading's own label, quoted: in the page's language
        text = title.replace(reading, data_words(env.config, reading))
    else:
        text = title
    return [_xref(env, text, "ref", toggle_label(vid, toggle, value))], []


def rule_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
              options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> RoleResult:
    title, target = _split(text)
    vid, _sep, field = target.partition(":")
    try:
        v = catalogue.variant(vid)
    except Exception as error:
        return _role_error(inliner, lineno, rawtext, f"rule role: {error}")
    if field not in FIELDS:
        return _role_error(inliner, lineno, rawtext, f"rule role: no rule point {field!r}")
    text = title or short_value(field, getattr(v.rules, field))
    return [_xref(_env(inliner), text, "ref", rule_label(vid, field))], []


def anchor_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                options: dict[str, Any] | None = None, content: Sequence[str] = ()) -> RoleResult:
    """An inline target that ``{ref}`` (with an explicit title) can link to."""
    name = nodes.fully_normalize_name(text)
    target = nodes.target("", "", ids=[nodes.make_id(name)], names=[name])
    inliner.document.note_explicit_target(target)
    return [target], []


def setup_links(app: Sphinx) -> None:
    app.add_role("variant", variant_role)
    app.add_role("toggle", toggle_role)
    app.add_role("rule", rule_role)
    app.add_role("tafl-anchor", anchor_role)
