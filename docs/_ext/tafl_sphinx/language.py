"""The site in more than one language: one tree of pages per language, and the ways between them.

The first language of ``tafl_languages`` (English) is built at the root of the output, as ever.
Each other one is the same sources built again with Sphinx's own internationalisation
(``sphinx-build -D language=cy . _build/html/cy``, the catalogues in ``locale/<code>/LC_MESSAGES``)
into a folder named after its code. This module gives every page of every tree:

- ``<link rel="alternate" hreflang>`` to the same page in each language, and ``x-default`` to the
  first language's page: the board script keys a page's saved games by that address, so a page
  and its translation share their games;
- a language switch (``_templates/tafl-language.html``) to the same page in the other languages;
  ``tafl-language.js`` carries the address's query and fragment across (a share link, a section);
- in a translation's tree, one line under the title saying how far the page is translated, and the
  board's and the rules engine's words in that language (``tafl_rules/locale/<code>.po``, the one
  catalogue of both) as JSON in ``<script type="application/json" id="tafl-messages">``, which the
  board script reads (``tafl-board-words.mjs``); its rules worker is asked for its words in that
  language with each request (``lang``).

A translation's tree runs the boards of the first language's tree: its pages take the board's
scripts and styles, the Pyodide runtime, the manifest and the service worker from there (the
addresses of :data:`SHARED`, one folder up), so that the site holds one runtime and one memory
snapshot. Its own build therefore installs no runtime (``tafl_runtime`` is off there), and the
first language's build, made after the translations, stamps every page of the output with its
build and version (:func:`tafl_sphinx.offline.finish_site` walks the whole output folder).
"""

from __future__ import annotations

import functools
import gettext
import html
import json
import os
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment
from sphinx.locale import _
from sphinx.util.i18n import CatalogRepository, docname_to_domain

from tafl_rules.messages import catalogue as board_catalogue
from tafl_rules.messages import translate

from . import offline

#: The languages of the site, the first at the root of the output, each other in a folder named
#: after its code; each with its name in its own words (what the switch shows).
LANGUAGES = {"en": "English", "cy": "Cymraeg"}

#: Addresses (relative to a tree's root) that only the first language's tree holds.
SHARED = ("_static/tafl-", "_static/pyodide/", offline.MANIFEST, offline.SERVICE_WORKER)

#: Catalogues of a theme's own words (sphinx-book-theme's), which a project's locale folder may add to.
THEME_CATALOGUES = ("booktheme",)


def first_language(config: Config) -> str:
    return str(next(iter(config.tafl_languages)))


def is_translation(config: Config) -> bool:
    """Whether this build is a translation's tree (in a folder of the first language's)."""
    return bool(config.language) and config.language != first_language(config)


def tree_prefix(config: Config, code: str) -> str:
    """Where language ``code``'s tree is, from the root of the output: ``""`` or ``"cy/"``."""
    return "" if code == first_language(config) else f"{code}/"


def language_links(config: Config, target_uri: str) -> list[dict[str, Any]]:
    """The page at ``target_uri`` (relative to its tree's root) in every language: its code, name
    and address relative to the page itself (absolute when ``html_baseurl`` is set).

    >>> from types import SimpleNamespace
    >>> config = SimpleNamespace(tafl_languages=LANGUAGES, language="cy", tafl_root_baseurl="")
    >>> [(link["code"], link["href"]) for link in language_links(config, "docs/playing.html")]
    [('en', '../../docs/playing.html'), ('cy', 'playing.html')]
    """
    here = config.language or first_language(config)
    up = "../" * target_uri.count("/")
    to_root = up + ("../" if here != first_language(config) else "")
    links = []
    for code, name in config.tafl_languages.items():
        if config.tafl_root_baseurl:
            href = posixpath.join(config.tafl_root_baseurl, tree_prefix(config, code) + target_uri)
        elif code == here:
            href = posixpath.basename(target_uri) or "./"
        else:
            href = to_root + tree_prefix(config, code) + target_uri
        links.append({"code": code, "name": name, "href": href, "current": code == here})
    return links


def messages_tag(language: str) -> str:
    """The board's words in ``language`` for the board script, as JSON in the page ("" for none)."""
    words = board_catalogue(language)
    if not words:
        return ""
    text = json.dumps(words, ensure_ascii=False, sort_keys=True, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="tafl-messages">{text}</script>'


def page_text(env: BuildEnvironment, text: str) -> str:
    """``text`` as the page being read translates it (its catalogue, which Sphinx's own i18n reads for
    the page's messages): for words a directive puts where no message is, such as a figure's
    caption, that repeat a message of the page (a variant's name). The first language: ``text``."""
    if not is_translation(env.config):
        return text
    domain = docname_to_domain(env.docname, env.config.gettext_compact)
    locale_dirs = tuple(str(Path(env.srcdir) / d) for d in env.config.locale_dirs)
    catalogue = page_catalogue(locale_dirs, env.config.language, domain)
    return catalogue.gettext(text) if catalogue else text


@functools.lru_cache(maxsize=None)
def page_catalogue(locale_dirs: tuple[str, ...], language: str, domain: str) -> gettext.NullTranslations | None:
    """The compiled catalogue ``domain`` of ``language`` in the first of ``locale_dirs`` that has it,
    falling back on the others (as Sphinx reads a page's), read once for all the page's words; None:
    no catalogue. Not :func:`sphinx.locale.init`, whose one table of catalogues, keyed by domain
    alone, would answer a second project's page from the first one's and grow at every call."""
    catalogue = None
    for directory in locale_dirs:
        path = gettext.find(domain, directory, [language])
        if path is None:
            continue
        with open(path, "rb") as handle:
            found = gettext.GNUTranslations(handle)
        if catalogue is None:
            catalogue = found
        else:
            catalogue.add_fallback(found)
    return catalogue


def data_words(config: Config, text: str) -> str:
    """A name the rules package holds as data (a variant's, a toggle's, a reading's) in the build's
    language, from the board's catalogue (``tafl_rules/locale/<code>.po``), which the rules sandbox
    says them from too; as it is in the first language."""
    return translate(text, config.language) if is_translation(config) else text


def hreflang_tags(links: list[dict[str, Any]]) -> str:
    tags = [f'<link rel="alternate" hreflang="{link["code"]}" href="{html.escape(link["href"])}">' for link in links]
    return "".join(tags) + f'<link rel="alternate" hreflang="x-default" href="{html.escape(links[0]["href"])}">'


# ---------------------------------------------------------------- a translation's tree

def _from_first_tree(context: dict[str, Any], *, app: bool) -> None:
    """Make the page's addresses of :data:`SHARED` files point into the first language's tree,
    one folder up: those written with ``pathto`` and the page's script and style tags."""
    pathto: Callable[..., str] = context["pathto"]
    up = "../"

    def shared_pathto(uri: str, resource: bool = False, *args: Any, **kwargs: Any) -> str:
        address = pathto(uri, resource, *args, **kwargs)
        return up + address if resource and uri.startswith(SHARED) else address

    def shared_tag(tag: Callable[[Any], str], attribute: str) -> Callable[[Any], str]:
        def render(asset: Any) -> str:
            text = tag(asset)
            name = os.fspath(getattr(asset, "filename", asset) or "")
            return text.replace(f' {attribute}="', f' {attribute}="{up}', 1) if name.startswith(SHARED) else text
        return render

    context["pathto"] = shared_pathto
    context["js_tag"] = shared_tag(context["js_tag"], "src")
    context["css_tag"] = shared_tag(context["css_tag"], "href")
    # what offline.py adds to a page of a tree with its own runtime, pointing at the first tree's
    context["metatags"] = context.get("metatags", "") + offline.head_tags(shared_pathto, app=app)


def catalogue_state(locale_dir: Path, language: str, docname: str) -> tuple[int, int]:
    """(messages, translated) of page ``docname``'s catalogue ((0, 0): no catalogue)."""
    from babel.messages.pofile import read_po

    po = locale_dir / language / "LC_MESSAGES" / f"{docname}.po"
    if not po.is_file():
        return 0, 0
    with po.open("rb") as handle:
        messages = [message for message in read_po(handle) if message.id]
    return len(messages), sum(1 for message in messages if message.string)


def translation_note(app: Sphinx, docname: str) -> str:
    """The line a translation's page carries under its title: how far the page is translated, and
    where corrections go."""
    locale_dir = Path(app.confdir) / app.config.locale_dirs[0]
    catalogue = f"{app.config.locale_dirs[0].rstrip('/')}/{app.config.language}/LC_MESSAGES/{docname}.po"
    messages, translated = catalogue_state(locale_dir, app.config.language, docname)
    if translated and translated == messages:
        return _("This translation awaits review by a Welsh speaker: please send corrections as "
                 "changes to %s in the site's source.") % catalogue
    if translated:
        return _("Part of this page is still in English, and its translation awaits review by a Welsh "
                 "speaker: please send corrections as changes to %s in the site's source.") % catalogue
    if docname.startswith("sources/"):
        return _("The commentary on this page is still in English; its Welsh texts are as the sources give them.")
    return _("This page is in English for now.")


def _add_translation_note(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    if app.builder.format != "html" or not is_translation(app.config):
        return
    section = doctree.next_node(nodes.section)
    if section is None or not section.children or not isinstance(section[0], nodes.title):
        return
    note = nodes.paragraph("", translation_note(app, docname), classes=["tafl-translation-note"])
    section.insert(1, note)


# ---------------------------------------------------------------- events

def _page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                  doctree: nodes.document | None) -> None:
    if app.builder.format != "html":
        return
    if is_translation(app.config):
        _from_first_tree(context, app=bool(app.config.tafl_offline))  # the first tree's app, if it is one
        context["metatags"] = context.get("metatags", "") + messages_tag(app.config.language)
    links = language_links(app.config, app.builder.get_target_uri(pagename))
    context["tafl_languages"] = links
    context["metatags"] = context.get("metatags", "") + hreflang_tags(links)


def _set_up_tree(app: Sphinx, config: Config) -> None:
    config.tafl_root_baseurl = config.html_baseurl
    if not is_translation(config):
        return
    config.tafl_runtime = False  # the first language's tree holds the runtime (SHARED)
    if config.html_baseurl:
        config.html_baseurl = posixpath.join(config.html_baseurl, tree_prefix(config, config.language))
    options = dict(config.html_theme_options)
    if "search_bar_text" in options:
        options["search_bar_text"] = str(_(options["search_bar_text"]))
    config.html_theme_options = options
    config.author = str(_(config.author))
    config.copyright = str(_(config.copyright))
    # a theme's own catalogue, with the project's words for it first (compiled as Sphinx compiles its own)
    repository = CatalogRepository(app.srcdir, config.locale_dirs, config.language, config.source_encoding)
    for catalogue in repository.catalogs:
        if catalogue.domain in THEME_CATALOGUES:
            if catalogue.is_outdated():
                catalogue.write_mo(config.language, config.gettext_allow_fuzzy_translations)
            app.add_message_catalog(catalogue.domain, os.path.dirname(os.path.dirname(catalogue.base_dir)))


def _add_scripts(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    app.add_js_file("tafl-language.js", defer="defer")
    if is_translation(app.config) and app.config.tafl_offline:  # (its runtime is the first tree's)
        app.add_js_file(offline.APP_SCRIPT, type="module")  # the first tree's, as offline.py adds it there


def setup_language(app: Sphinx) -> None:
    app.add_config_value("tafl_languages", LANGUAGES, "html", dict)
    app.add_config_value("tafl_root_baseurl", "", "html", str)
    app.connect("config-inited", _set_up_tree)
    app.connect("builder-inited", _add_scripts)
    app.connect("doctree-resolved", _add_translation_note)
    app.connect("html-page-context", _page_context, priority=100)  # before the board's and the app's tags
