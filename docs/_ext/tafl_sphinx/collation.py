"""An apparatus of variants: where the stored copies of one text differ, word by word.

Directive
    ``variant-apparatus``   for the named stored copies (``sources/texts`` file names, the first is the
                            base text), every unit two or more of them give, and each place where a
                            copy reads otherwise than the base, as ``lemma ] reading (copy)``

The collation is computed from the stored copies, never typed: a change to a copy changes the
apparatus. Words are compared as written; punctuation attached to a word counts, so that a slip of
transcription (``posit`` for ``possit``) shows as the variant it is.
"""

from __future__ import annotations

import difflib

from docutils.parsers.rst import directives
from sphinx.application import Sphinx

from .texts import library
from .util import MarkdownDirective, md_escape

OMITTED = "om."


def _words(text: str) -> list[str]:
    """A unit's words, without the remarks a transcriber added in brackets or braces.

    >>> _words("Alla få occupera [First portion is in Swedish.] et mutare")
    ['Alla', 'få', 'occupera', 'et', 'mutare']
    >>> _words("sc. in a alfa {I couldn't import the right sign for alfa} et 3 […]")
    ['sc.', 'in', 'a', 'alfa', 'et', '3', '[…]']
    """
    out, depth = [], 0
    for word in text.split():
        if (word.startswith("[") and not word.startswith("[…")) or word.startswith("{"):
            depth += 1
        if depth == 0:
            out.append(word)
        if word.endswith(("]", "}")) and depth:
            depth -= 1
    return out


def variants(base: str, other: str) -> list[tuple[str, str]]:
    """(lemma, reading) for each place where ``other`` differs from ``base``; an absent side is "om.".

    >>> variants("Sveci N:r 9 cum rege et eorum loca", "Sueci N:r. 9 cum et eorum loca")
    [('Sveci N:r', 'Sueci N:r.'), ('rege', 'om.')]

    A copy that breaks off (``[…]`` at its end) is compared only as far as it goes, whichever it is:

    >>> variants("Licitum est loca dissita occupare per lineam", "Lichtum est loca dissita oc […]")
    [('Licitum', 'Lichtum'), ('occupare per lineam', '(breaks off)')]
    >>> variants("suntque 16 in 4 phalangib […]", "suntque 16 in 4 phalangibus disponendis.")
    [('(breaks off)', 'phalangibus disponendis.')]
    """
    a, b = _words(base), _words(other)
    out = []
    if a and a[-1] == "[…]" and not (b and b[-1] == "[…]"):  # the base breaks off: the other goes on
        return [(lemma, reading) for reading, lemma in variants(" ".join(b), " ".join(a))]
    if b and b[-1] == "[…]":
        b = b[:-1]
        rest = a[len(b):]
        a = a[:len(b)]
        if a and b and a[-1] != b[-1] and a[-1].startswith(b[-1]):
            rest, a, b = [a[-1], *rest], a[:-1], b[:-1]
        tail = [(" ".join(rest), "(breaks off)")] if rest else []
        return variants(" ".join(a), " ".join(b)) + tail
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op != "equal":
            out.append((" ".join(a[i1:i2]) or OMITTED, " ".join(b[j1:j2]) or OMITTED))
    return out


def case_only(lemma: str, reading: str) -> bool:
    """Whether a variant differs from its lemma only in the case of its letters (``A`` against ``a``).

    >>> case_only("A ad C", "a ad c"), case_only("Raichi,", "Raihi,"), case_only("rege", "om.")
    (True, False, False)
    """
    return lemma != reading and lemma.lower() == reading.lower()


class VariantApparatus(MarkdownDirective):
    """For each unit shared by the copies: the base text's reading, then every variant with its copy."""

    required_arguments = 2
    optional_arguments = 8
    option_spec = {"sigla": directives.unchanged_required, "units": directives.unchanged}

    def markdown(self) -> str:
        lib = library(self.folders.texts)
        by_name = {w.name: w for w in lib.witnesses}
        missing = [n for n in self.arguments if n not in by_name]
        if missing:
            raise ValueError(f"no stored text {missing[0]!r}")
        witnesses = [by_name[n] for n in self.arguments]
        sigla = [s.strip() for s in self.options["sigla"].split(";")]
        if len(sigla) != len(witnesses):
            raise ValueError(f"give one siglum for each of the {len(witnesses)} copies, separated by ';'")
        wanted = [u.strip() for u in self.options.get("units", "").split(";") if u.strip()]
        labels = wanted or list(dict.fromkeys(u.label for w in witnesses for u in w.units))
        lines = ["| Place | Reading | Variants |", "| --- | --- | --- |"]
        for label in labels:
            have = [(s, unit) for s, w in zip(sigla, witnesses) if (unit := w.unit(label)) is not None]
            if len(have) < 2:
                continue
            (base_siglum, base), rest = have[0], have[1:]
            entries = []
            for siglum, unit in rest:
                found = variants(base.text, unit.text)
                cased = [pair for pair in found if case_only(*pair)]
                entries += [f"*{md_escape(lemma)}* {base_siglum} \\] *{md_escape(reading)}* {siglum}"
                            for lemma, reading in found if (lemma, reading) not in cased]
                if cased:  # letters naming squares, capital in one copy and small in another: one entry
                    entries.append(f"*{md_escape(', '.join(a for a, _ in cased))}* {base_siglum} \\] "
                                   f"*{md_escape(', '.join(b for _, b in cased))}* {siglum} (case only)")
                if not found:
                    entries.append(f"{siglum} agrees")
            text = md_escape(" ".join(_words(base.text)))
            lines.append(f"| {md_escape(label)} | {text} ({base_siglum}) | {'; '.join(entries)} |")
        if len(lines) == 2:
            raise ValueError("the copies share no unit")
        return "\n".join(lines + [""])


def setup_collation(app: Sphinx) -> None:
    app.add_directive("variant-apparatus", VariantApparatus)
