"""The bibliography's entry style: author-year labels, and every detail a historian checks.

pybtex's ``unsrt`` family drops what a source list of this kind needs: a journal
volume without pages, the editor and translator of a book that has an author,
an issue number, an edition written "2nd", the date a web page was seen. This
style prints them, labels each entry "Author Year" (the form the citations in the
text use) and sorts by author, year and title. Registered as the pybtex
formatting style ``tafl`` (``bibtex_default_style = "tafl"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from importlib.metadata import entry_points
from typing import Any

from pybtex.database import Entry
from pybtex.plugin import PluginGroupNotFound, register_plugin
from pybtex.richtext import Text
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.formatting.unsrt import dashify
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting import BaseSortingStyle
from pybtex.style.formatting import toplevel
from pybtex.style.template import field, first_of, join, optional, optional_field, sentence, tag, words
from sphinx.application import Sphinx

from .bib import plain_text

#: A node of pybtex's formatting templates (pybtex has no annotations).
Template = Any

pages = field("pages", apply_func=dashify)
year = first_of[optional[words[optional_field("month"), field("year")]], "n.d."]


def _ordinal(text: str) -> str:
    if not text.isdigit():
        return text
    n = int(text)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _who(entry: Entry) -> str:
    """The name an entry is cited and sorted by: its authors' (or editors') surnames, else its title."""
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    if not people:
        return plain_text(entry.fields.get("title", entry.key))
    names = [plain_text(" ".join(p.prelast_names + p.last_names)) for p in people]
    # as sphinxcontrib-bibtex's in-text citations name them: "Nielsen et al." for three authors or more,
    # "Nielsen and others" where the entry itself says "and others"
    return names[0] if len(names) == 1 else names[0] + (" and " + names[1] if len(names) == 2 else " et al.")


class AuthorYearLabels(BaseLabelStyle):
    """Labels as the citations read: "Lewis 1941", "Wiktionary n.d."; a letter separates equal ones."""

    def format_labels(self, sorted_entries: Iterable[Entry]) -> Iterator[str]:
        labels = [plain_text(f"{_who(entry)} {entry.fields.get('year', 'n.d.')}") for entry in sorted_entries]
        seen: dict[str, int] = {}
        for label in labels:
            seen[label] = seen.get(label, 0) + 1
        count: dict[str, int] = {}
        for label in labels:
            if seen[label] > 1:
                count[label] = count.get(label, 0) + 1
                yield f"{label}{'abcdefghijklmnopqrstuvwxyz'[count[label] - 1]}"
            else:
                yield label


class ByCitationName(BaseSortingStyle):
    """Entries in the order of their labels: by the name they are cited by, then year, then title."""

    def sorting_key(self, entry: Entry) -> tuple[str, str, str]:
        return (_who(entry).lower().lstrip("[“\"'"), entry.fields.get("year", ""), entry.fields.get("title", "").lower())


class Style(UnsrtStyle):
    default_label_style = "tafl-author-year"
    default_sorting_style = "tafl-by-name"

    def format_title(self, e: Entry, which_field: str, as_sentence: bool = True) -> Template:
        title = field(which_field)  # titles keep their own capitals (Welsh, Latin, proper names)
        return sentence[title] if as_sentence else title

    def format_edition(self, e: Entry) -> Template:
        return optional[words[field("edition", apply_func=lambda x: _ordinal(str(x))), "edition"]]

    def format_contributors(self, e: Entry) -> Template:
        """Editor and translator of a work that has an author ("edited by …; translated by …")."""
        parts = []
        if "author" in e.persons and "editor" in e.persons:
            parts.append(words["Edited by", self.format_names("editor", as_sentence=False)])
        if "translator" in e.fields:
            parts.append(words["translated by" if parts else "Translated by", field("translator")])
        return sentence(sep="; ")[*parts] if parts else optional[""]

    def format_web_refs(self, e: Entry) -> Template:
        """The address and the date by which the copy cited was seen (the day it was stored, or re-read)."""
        url = field("url", raw=True)
        if "url" not in e.fields:
            return optional[sentence[words["Seen by", field("urldate")]]]
        return optional[sentence[words["URL:", url, optional[join["(seen by ", field("urldate"), ")"]]]]]

    def _who(self, e: Entry) -> Template:
        if "author" in e.persons:
            return sentence[self.format_names("author", as_sentence=False)]
        if "editor" in e.persons:
            return self.format_editor(e)
        return optional[""]

    def get_article_template(self, e: Entry) -> Template:
        volume = optional[words["vol.", field("volume")]]
        number = optional[words["no.", field("number")]]
        return toplevel[
            self._who(e),
            sentence[self.format_title(e, "title", as_sentence=False)],
            sentence(sep=", ")[tag("em")[field("journal")], volume, number, optional[words["pp.", pages]], year],
            optional[sentence[field("note")]],
            self.format_web_refs(e),
            optional[sentence[self.format_doi(e)]],
        ]

    def get_book_template(self, e: Entry) -> Template:
        return toplevel[
            self._who(e),
            sentence[self.format_btitle(e, "title", as_sentence=False)],
            self.format_contributors(e),
            optional[sentence[words["vol.", field("volume")]]],
            sentence(sep=", ")[optional_field("publisher"), optional_field("address"), self.format_edition(e), year],
            optional[sentence[words["pp.", pages]]],
            optional[sentence[field("note")]],
            self.format_web_refs(e),
        ]

    def get_incollection_template(self, e: Entry) -> Template:
        return toplevel[
            self._who(e),
            sentence[self.format_title(e, "title", as_sentence=False)],
            sentence[words["In", tag("em")[field("booktitle")]]],
            sentence(sep=", ")[optional_field("publisher"), optional_field("address"), year],
            optional[sentence[words["pp.", pages]]],
            optional[sentence[field("note")]],
            self.format_web_refs(e),
        ]

    def get_misc_template(self, e: Entry) -> Template:
        return toplevel[
            self._who(e),
            self.format_contributors(e),
            sentence[self.format_title(e, "title", as_sentence=False)],
            sentence(sep=", ")[optional_field("howpublished"), year],
            optional[sentence[field("note")]],
            self.format_web_refs(e),
        ]


def setup_bibstyle(app: Sphinx) -> None:
    """Register the style with pybtex (``bibtex_default_style = \"tafl\"`` in conf.py)."""
    register()
    _cite_with_the_labels_letter()


def year_as_labelled(entry: Entry, label: str) -> str:
    """The year a citation prints: the entry's year, with the letter its label adds ("n.d.a", "2005b").

    >>> from pybtex.database import Entry
    >>> year_as_labelled(Entry("misc", fields={"title": "T"}), "Walker n.d.b")
    'n.d.b'
    >>> year_as_labelled(Entry("misc", fields={"year": "1941"}), "Lewis 1941")
    '1941'
    """
    plain = plain_text(entry.fields.get("year", "n.d."))
    m = re.search(re.escape(plain) + r"([a-z])$", label)
    return plain + (m.group(1) if m else "")


def _cite_with_the_labels_letter() -> None:
    """In-text citations name one entry: "Walker n.d.b", as the bibliography labels it, never a bare "Walker n.d."

    sphinxcontrib-bibtex's author-year styles print the year field alone; its ``year`` template node
    is replaced by one that adds the letter the label style gave the entry."""
    from sphinxcontrib.bibtex.style.referencing import basic_author_year, extra_year
    from sphinxcontrib.bibtex.style.template import node

    @node  # type: ignore[untyped-decorator]  # sphinxcontrib-bibtex's template decorator has no annotations
    def labelled_year(children: list[Any], data: dict[str, Any]) -> Text:
        assert not children
        return Text(year_as_labelled(data["entry"], data["formatted_entry"].label))

    # the styles' own modules import ``year`` from the template module and do not re-export it
    basic_author_year.year = labelled_year  # type: ignore[attr-defined]
    extra_year.year = labelled_year  # type: ignore[attr-defined]


def register() -> None:
    _hold_installed_plugins()
    register_plugin("pybtex.style.labels", "tafl-author-year", AuthorYearLabels, force=True)
    register_plugin("pybtex.style.sorting", "tafl-by-name", ByCitationName, force=True)
    register_plugin("pybtex.style.formatting", "tafl", Style, force=True)


def _hold_installed_plugins() -> None:
    """Register pybtex's installed plugins as runtime ones, which it looks up first.

    Otherwise each lookup (several for every citation sphinxcontrib-bibtex resolves) reads the
    entry points of every installed distribution again: most of the time of a linkcheck run."""
    for entry_point in entry_points():
        if not entry_point.group.startswith("pybtex."):
            continue
        try:
            register_plugin(entry_point.group, entry_point.name, entry_point.load(), force=True)
        except (PluginGroupNotFound, ImportError, ValueError):
            continue  # a group pybtex does not know, or a plugin that cannot load: looked up as before
