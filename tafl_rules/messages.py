"""The words the rules engine says (refusals, results, how to play), in the reader's language.

Every sentence is written in English where it is made, as a :class:`Message`: a ``str`` holding the
English text, which also remembers its template and the values put into it. English callers see a
plain string, exactly as before. :func:`translate` rebuilds a message from the template of another
language's catalogue, translating the values too (a value may be a message itself).

The catalogues are gettext PO files in ``tafl_rules/locale/<lang>.po``, one per language, shipped
in the wheel; they hold the board script's words as well (the site embeds them in each page of that
language as JSON, ``tafl_sphinx.language``), so that a translator corrects one file. An entry no
Welsh speaker has checked is marked ``fuzzy``, and is used all the same.

>>> text = message("{square} is occupied", square="d4")
>>> text, text == "d4 is occupied"
('d4 is occupied', True)
>>> translate(text, "cy")
"mae d4 wedi'i feddiannu"
>>> translate("a text no catalogue holds", "cy")
'a text no catalogue holds'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

#: The languages the engine speaks besides English (each has ``locale/<code>.po``).
LANGUAGES = ("cy",)


class Message(str):
    """English text that remembers the template it was made from and the values put into it."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: dict[str, Any]) -> Message:
        self = super().__new__(cls, template.format(**_listed(params, str)) if params else template)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (the lab's workers) as what it was made from
        return (Message, (self.template, self.params))


class Verbatim(str):
    """Text a message puts in as it is, in every language: a name the code reads (a rule point, an
    OTN key, a list of the values allowed), which a catalogue entry of the same spelling must not
    turn into words.

    >>> translate(message("{field}: {problem}", field=verbatim("throne"), problem=message("the throne")), "cy")
    'throne: yr orsedd'
    """


def verbatim(text: str) -> Verbatim:
    """``text``, put into a message as it is in every language (:class:`Verbatim`)."""
    return Verbatim(text)


def _listed(params: dict[str, Any], say: Any) -> dict[str, Any]:
    """The values as said: a list or tuple of words is said item by item and joined with ", "."""
    return {name: ", ".join(say(item) for item in value) if isinstance(value, (list, tuple)) else say(value)
            if isinstance(value, str) else value for name, value in params.items()}


def message(template: str, **params: Any) -> Message:
    """The English sentence ``template.format(**params)``, translatable by :func:`translate`; a value
    that is a list or tuple of words is put in as they are, joined with ", "."""
    return Message(template, params)


def translate(text: str, lang: str) -> str:
    """``text`` in ``lang`` ("" or "en": as it is). A message is rebuilt from the catalogue's
    template with its values translated; a plain string is looked up whole; what the catalogue
    lacks stays English (a test holds the catalogue complete)."""
    if lang in ("", "en") or isinstance(text, Verbatim):
        return str(text)
    words = catalogue(lang)
    tidy = _ORTHOGRAPHY.get(lang, str)
    if isinstance(text, Message):
        template = words.get(text.template) or text.template
        return tidy(template.format(**_listed(text.params, lambda value: translate(value, lang))))
    return tidy(words.get(text) or str(text))


def _welsh(text: str) -> str:
    """Welsh writes the article "y"/"yr" as "'r" after a word ending in a vowel ("a'r orsedd",
    "chwarae'r amddiffynwyr"), also where a message puts a value after such a word.

    >>> _welsh("y corneli a yr orsedd; drwy adael yr ymosodwyr; ar y bwrdd")
    "y corneli a'r orsedd; drwy adael yr ymosodwyr; ar y bwrdd"
    """
    return _ARTICLE.sub(r"\1'r ", text)


_ARTICLE = re.compile(r"(?<![\w'])((?:\w*[aeiouwyâêîôûŵŷ])) yr? (?=\w)", re.IGNORECASE)
#: Rules of writing a language applies where words meet (after the values are put in).
_ORTHOGRAPHY: dict[str, Callable[[str], str]] = {"cy": _welsh}


def translator(lang: str) -> Callable[..., str]:
    """A gettext-style ``_(text, **params)`` for one language: the English when ``lang`` is English."""
    def _(template: str, **params: Any) -> str:
        return translate(message(template, **params), lang)
    return _


@cache
def catalogue(lang: str) -> dict[str, str]:
    """``{english: translation}`` of ``locale/<lang>.po`` (entries with no translation left out)."""
    if lang not in LANGUAGES:
        return {}
    text = resources.files(__package__).joinpath("locale", f"{lang}.po").read_text(encoding="utf-8")
    return {english: translated for english, translated in read_po(text) if english and translated}


_ESCAPE = re.compile(r'\\(.)')
_ESCAPED = {"n": "\n", "t": "\t"}


def _unquote(quoted: str) -> str:
    return _ESCAPE.sub(lambda found: _ESCAPED.get(found.group(1), found.group(1)), quoted[1:-1])


_FIELD = re.compile(r'^(msgid|msgstr|msgctxt|msgid_plural)\s+(".*")\s*$|^(".*")\s*$')


def read_po(text: str) -> list[tuple[str, str]]:
    """(msgid, msgstr) pairs of a PO file's entries (comments, flags and obsolete entries skipped).

    >>> read_po('#, fuzzy\\nmsgid "Undo"\\nmsgstr "Dadwneud"\\n\\nmsgid ""\\n"two "\\n"lines"\\nmsgstr "dwy linell"\\n')
    [('Undo', 'Dadwneud'), ('two lines', 'dwy linell')]
    """
    pairs: list[tuple[str, str]] = []
    fields: dict[str, str] = {}
    current = ""

    def flush() -> None:
        if "msgid" in fields:
            pairs.append((fields["msgid"], fields.get("msgstr", "")))
        fields.clear()

    for line in text.splitlines():
        found = _FIELD.match(line.strip())
        if not found:
            if not line.strip():
                flush()
            continue
        keyword, quoted, more = found.groups()
        if keyword:
            if keyword == "msgid" and "msgid" in fields:
                flush()
            current = keyword
            fields[current] = _unquote(quoted)
        elif current:
            fields[current] += _unquote(more)
    flush()
    return pairs


def the_place(kind: str) -> Message:
    """"the throne", "the corner", "the camp" or "the square" (a square's kind as the engine's tables
    name it), as one message, so that a language may put its own article and mutation on it."""
    return {"throne": message("the throne"), "corner": message("the corner"),
            "camp": message("the camp")}.get(kind) or message("the square")
