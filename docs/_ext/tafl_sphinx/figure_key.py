"""The drawn key of a board figure: each kind of piece and square the figure shows, drawn as the figure draws it.

A ``variant-figure`` is an SVG whose ``<desc>`` lists every piece for a screen reader; a sighted reader
needs the key beside the picture. The swatches use the colours and shapes of :mod:`tafl_rules.svg`, and
only the special squares the rules make special are keyed, so the key cannot name a square the figure
does not draw.

>>> from tafl_rules import variant
>>> html = key_html(variant("brandubh").rules, marked=True, against="Copenhagen")
>>> [label for label in ("Attacker", "Defender", "King", "Throne", "Corner square", "differs") if label in html]
['Attacker', 'Defender', 'King', 'Throne', 'Corner square', 'differs']
>>> "Camp" in html
False
"""

from __future__ import annotations

from html import escape

from sphinx.locale import _

from tafl_rules.engine import tables
from tafl_rules.rules import Rules
from tafl_rules.svg import COLOURS

SWATCH = 22  # px, about the size of a square of a figure on a phone


def _swatch(inner: str, fill: str = COLOURS["board"]) -> str:
    s = SWATCH
    return (f'<svg width="{s}" height="{s}" viewBox="0 0 {s} {s}" aria-hidden="true" focusable="false" '
            f'style="flex:none;vertical-align:middle"><rect x="0.5" y="0.5" width="{s - 1}" height="{s - 1}" '
            f'fill="{fill}" stroke="{COLOURS["grid"]}" stroke-width="1"/>{inner}</svg>')


def _disc(kind: str) -> str:
    c, half = COLOURS, SWATCH / 2
    fill = c["attacker"] if kind == "attacker" else c["defender"]
    edge = c["attacker_edge"] if kind == "attacker" else c["defender_edge"]
    out = f'<circle cx="{half}" cy="{half}" r="{SWATCH * 0.38:.2f}" fill="{fill}" stroke="{edge}" stroke-width="1.2"/>'
    if kind == "king":
        arm = SWATCH * 0.22
        out += (f'<path d="M{half - arm:.2f} {half}H{half + arm:.2f}M{half} {half - arm:.2f}V{half + arm:.2f}" '
                f'stroke="{c["king_mark"]}" stroke-width="2.2" stroke-linecap="round" fill="none"/>')
    return out


def _saltire() -> str:
    a, b = SWATCH * 0.2, SWATCH * 0.8
    return (f'<path d="M{a:.1f} {a:.1f}L{b:.1f} {b:.1f}M{b:.1f} {a:.1f}L{a:.1f} {b:.1f}" stroke="{COLOURS["grid"]}" '
            f'stroke-width="1" stroke-opacity="0.55" fill="none"/>')


def _outline() -> str:
    w = 2
    return (f'<rect x="{w}" y="{w}" width="{SWATCH - 2 * w}" height="{SWATCH - 2 * w}" fill="none" '
            f'stroke="{COLOURS["mark"]}" stroke-width="{w}"/>')


def key_items(rules: Rules, *, marked: bool = False, against: str = "") -> list[tuple[str, str]]:
    """(swatch SVG, words) for each thing the figure of ``rules`` draws, in the build's language
    (``locale/<code>/LC_MESSAGES/sphinx.po``); ``against`` names the layout the outlined squares are
    compared with."""
    t = tables(rules)
    items = [(_swatch(_disc("attacker")), _("Attacker")), (_swatch(_disc("defender")), _("Defender")),
             (_swatch(_disc("king")), _("King"))]
    if t.throne:
        items.append((_swatch(_saltire(), COLOURS["throne"]), _("Throne")))
    if t.corners:
        items.append((_swatch(_saltire(), COLOURS["corner"]), _("Corner square")))
    if t.camps:
        items.append((_swatch("", COLOURS["camp"]), _("Camp (the attackers' start squares)")))
    if marked:
        words = str(_("Outlined: where it differs from %s")) % against if against else _("Outlined: a square the text names")
        items.append((_swatch(_outline()), words))
    return [(swatch, str(words)) for swatch, words in items]


def key_html(rules: Rules, *, marked: bool = False, against: str = "") -> str:
    """The key as a list under the figure; its words follow the page's ink (light and dark)."""
    cells = "".join(f'<li style="display:flex;align-items:center;gap:.35em">{swatch}<span>{escape(words)}</span></li>'
                    for swatch, words in key_items(rules, marked=marked, against=against))
    return (f'<ul class="tafl-figure-key" aria-label="{escape(str(_("Key to the figure")))}" style="display:flex;flex-wrap:wrap;'
            f'gap:.25em 1em;list-style:none;padding:0;margin:.35em 0 0;font-size:.9em">{cells}</ul>')
