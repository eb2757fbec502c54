"""Start layouts read as a reader compares them: which squares differ, the shape of each side's
formation, the king's lines to the edge; and the layout drawn as a static SVG.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable

from tafl_rules import svg
from tafl_rules.position import parse_position
from tafl_rules.rules import Rules
from tafl_rules.squares import FILES, iter_bits, square_name


#: The smallest coordinate text a figure may be scaled down to, in CSS px.
MIN_TEXT_PX = 11
#: The squares of a figure, in px before it is scaled.
SQUARE_PX = 32


def svg_markup(rules: Rules, *, marks: Iterable[str] = (), title: str | None = None, position: str | None = None,
               say: Callable[[str], str] = str) -> str:
    """The layout (or ``position``) as an SVG that scales down with its column, ``marks`` outlined,
    but never so far that its coordinates fall under 11 px: a figure wider than that (19x19 on a
    phone) scrolls sideways in its box (``.tafl-svg``) instead. ``say``: the words of its ``<desc>``
    in the page's language (:func:`tafl_rules.svg.render_svg`)."""
    markup = svg.render_svg(rules, position, marks=tuple(marks), title=title, square_px=SQUARE_PX, say=say)
    box = re.search(r'viewBox="0 0 ([\d.]+) ', markup)
    if box is None:
        raise ValueError("tafl_rules.svg drew a figure without a viewBox")
    width = float(box[1])
    narrowest = math.ceil(width * MIN_TEXT_PX / (SQUARE_PX * svg.COORD_FONT))
    # Scale down with the column (cards, phones); the viewBox keeps the drawing exact.
    markup = re.sub(r"<svg\b", f'<svg style="max-width:100%;min-width:{narrowest}px;height:auto"', markup, count=1)
    return "\n".join(line for line in markup.splitlines() if line.strip())


def position_map(position: str, size: int) -> dict[str, str]:
    """Square -> "t" / "T" / "K" for every occupied square of an OTN position record.

    >>> position_map("/3/1K1/3/", 3)
    {'b2': 'K'}
    """
    placement = parse_position(position, size)
    out = {square_name(i, size): "t" for i in iter_bits(placement.attackers)}
    out.update({square_name(i, size): "T" for i in iter_bits(placement.defenders)})
    if placement.king >= 0:
        out[square_name(placement.king, size)] = "K"
    return out


def differing_squares(positions: list[str], size: int) -> list[str]:
    """Squares whose content is not the same in every one of the positions.

    >>> differing_squares(["/3/1K1/3/", "/3/2K/3/"], 3)
    ['b2', 'c2']
    """
    maps = [position_map(p, size) for p in positions]
    squares = sorted(set().union(*maps), key=lambda s: (s[0], int(s[1:])))
    return [s for s in squares if len({m.get(s) for m in maps}) > 1]


def _coords(square: str) -> tuple[int, int]:
    return FILES.index(square[0]), int(square[1:]) - 1


def formation(rules: Rules, piece: str) -> str:
    """Attackers: each side's group counted rank by rank from its edge (e.g. ``5+1``, a T).
    Defenders: a cross (all on the king's rank and file) or how far they spread."""
    size = rules.size
    where = position_map(rules.start, size)
    if piece == "t":
        profiles = {}
        for side in "NESW":
            rows: Counter[int] = Counter()
            for sq, p in where.items():
                f, r = _coords(sq)
                dist = {"S": r, "N": size - 1 - r, "W": f, "E": size - 1 - f}
                others = [d for s, d in dist.items() if s != side]
                if p == "t" and dist[side] < min(others):
                    rows[dist[side]] += 1
            profiles[side] = "+".join(str(rows[r]) for r in sorted(rows)) or "0"
        shapes = {"3+3": "2×3 block", "5+1": "T", "3+2+1": "hollow pentagon", "3+1": "T", "2+1": "T"}
        if len(set(profiles.values())) == 1:
            profile = profiles["S"]
            return f"{profile} on every side" + (f" ({shapes[profile]})" if profile in shapes else "")
        return "not the same on every side: " + ", ".join(f"{s} {p}" for s, p in profiles.items())
    king = next(sq for sq, p in where.items() if p == "K")
    kf, kr = _coords(king)
    defenders = [_coords(sq) for sq, p in where.items() if p == "T"]
    off = [d for d in defenders if d[0] != kf and d[1] != kr]
    reach = max((abs(f - kf) + abs(r - kr) for f, r in defenders), default=0)
    if not off:
        arms = Counter((f > kf) - (f < kf) + 2 * ((r > kr) - (r < kr)) for f, r in defenders)
        sizes = sorted(set(arms.values()))
        return f"cross, arms of {sizes[0]}" if len(sizes) == 1 else f"cross, arms of {'/'.join(map(str, sizes))}"
    if len(defenders) == 2 * reach * (reach + 1):
        return f"diamond (every square within {reach} steps of the king)"
    return f"{len(defenders) - len(off)} on the king's rank and file, {len(off)} off them"


def king_lines(rules: Rules) -> str:
    """For each direction from the king: squares to the edge, defenders in line, the first attacker."""
    size = rules.size
    where = position_map(rules.start, size)
    king = next(sq for sq, p in where.items() if p == "K")
    kf, kr = _coords(king)
    lines = {}
    for name, (df, dr) in (("N", (0, 1)), ("E", (1, 0)), ("S", (0, -1)), ("W", (-1, 0))):
        f, r, steps, own = kf, kr, 0, 0
        first: int | None = None
        while 0 <= f + df < size and 0 <= r + dr < size:
            f, r, steps = f + df, r + dr, steps + 1
            piece = where.get(f"{FILES[f]}{r + 1}")
            if first is None and piece == "t":
                first = steps
            elif first is None and piece == "T":
                own += 1
        lines[name] = (f"{steps} to the edge: {own} defender{'s' if own != 1 else ''}, "
                       + (f"first attacker at {first}" if first else "no attacker"))
    if len(set(lines.values())) == 1:
        return f"{lines['N']} (each way)"
    return "; ".join(f"{name} {text}" for name, text in lines.items())
