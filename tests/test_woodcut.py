"""The transcription of the 1811 woodcut of the tablut board, tested against the laws that refer to it.

The laws name squares of "the cut" by letter and number; every letter a law names must stand
where the law needs it, in every quarter of the cut. The key's squares (the castle, the Swedes'
2 and 3, the Muscovites' embroidered squares) must be the start position of the catalogue's tablut.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tafl_rules import catalogue

ROOT = Path(__file__).resolve().parents[1]

from tafl_sphinx import layouts, woodcut
from tafl_sphinx.texts import library
from tiny_project import FOLDERS

CUT = woodcut.the_cut(FOLDERS)
QUARTERS = [CUT.quarter(lower=lower, roman=roman) for lower in (True, False) for roman in (True, False)]


def xy(square: str) -> tuple[int, int]:
    return ord(square[0]) - 97, int(square[1:]) - 1


def in_line(*squares: str) -> bool:
    """Consecutive squares, one step apart along one rank or file."""
    points = [xy(s) for s in squares]
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(points, points[1:])}
    return len(steps) == 1 and next(iter(steps)) in {(0, 1), (0, -1), (1, 0), (-1, 0)}


def on_edge(square: str) -> bool:
    return bool({0, 8} & set(xy(square)))


def neighbours(square: str) -> set[str]:
    f, r = xy(square)
    return {f"{chr(97 + f + df)}{r + 1 + dr}" for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= f + df < 9 and 0 <= r + dr < 9}


def letters_the_laws_name() -> set[str]:
    smith = next(w for w in library(FOLDERS.texts).witnesses if w.name == "smith1811-tablut")
    return {m for u in smith.units for m in re.findall(r"(?<!\w)_([a-zA-Z])_(?!\w)", u.text)}


def test_every_letter_the_laws_name_is_in_the_cut():
    named = letters_the_laws_name()
    assert named == {"a", "A", "b", "c", "e", "f", "g", "i", "m", "n"}
    for quarter in QUARTERS:
        lower = next(iter(quarter)).islower()
        wanted = {x.lower() if lower else x.upper() for x in named}
        assert wanted <= set(quarter), sorted(wanted - set(quarter))


@pytest.mark.parametrize("quarter", range(4))
def test_the_lettered_laws_hold_in_every_quarter(quarter):
    q = {x.lower(): sq for x, sq in QUARTERS[quarter].items()}
    # law 1: a to c in a right line; a to e corner-wise
    assert xy(q["a"])[0] == xy(q["c"])[0] or xy(q["a"])[1] == xy(q["c"])[1]
    assert {abs(xy(q["a"])[i] - xy(q["e"])[i]) for i in (0, 1)} == {1}
    # laws 2-3: from b to m over e and i, a road to the edge
    assert in_line(q["b"], q["e"], q["i"], q["m"]) and on_edge(q["m"])
    # law 5: from e two roads, by f and g and by i and m
    assert in_line(q["e"], q["f"], q["g"]) and on_edge(q["g"])
    assert in_line(q["e"], q["i"], q["m"])
    # law 7: from c to n in a right line, over vacant (lettered) squares
    assert xy(q["c"])[0] == xy(q["n"])[0] or xy(q["c"])[1] == xy(q["n"])[1]


def test_laws_10_and_11_find_their_numbered_squares():
    castle, = CUT.where("@")
    twos, threes = CUT.where("2"), CUT.where("3")
    assert set(twos) == neighbours(castle)  # law 10: four squares 2 round the castle
    for two in twos:
        (cf, cr), (tf, tr) = xy(castle), xy(two)
        beyond = f"{chr(97 + 2 * tf - cf)}{2 * tr - cr + 1}"
        assert beyond in threes  # law 10: "number 3 next to it"
        # law 11: the king on a 2 is taken by enemies on a, A and 3, the castle his fourth side
        sides = {CUT.rows[8 - xy(s)[1]][xy(s)[0]].letter for s in neighbours(two) - {castle, beyond}}
        assert sides in ({"a", "A"}, {"a"}, {"A"}), (two, sides)
    # Smith's "a, A" fits the 2s above and below the castle; the Latin's "a a" the one on the left
    # (roman a above it, italic a below), and the one on the right stands between two As
    kinds = sorted(frozenset(CUT.rows[8 - xy(s)[1]][xy(s)[0]].letter
                             for s in neighbours(t) - {castle} if CUT.rows[8 - xy(s)[1]][xy(s)[0]].letter)
                   for t in twos)
    assert kinds.count(frozenset({"a", "A"})) == 2 and kinds.count(frozenset({"a"})) == 1 == kinds.count(frozenset({"A"}))


def test_the_key_squares_are_the_catalogue_start_position():
    start = layouts.position_map(catalogue.variant("tablut-linnaeus").rules.start, 9)
    assert set(CUT.where("#")) | set(CUT.where("+")) == {s for s, p in start.items() if p == "t"}
    assert set(CUT.where("2")) | set(CUT.where("3")) == {s for s, p in start.items() if p == "T"}
    assert CUT.where("@") == [s for s, p in start.items() if p == "K"]
    # "The vacant squares, distinguished by letters": every other square is lettered
    assert all(c.letter for c in CUT.cells if c.square not in start)
    # "(some of them marked 4 in the cut,)": some, not all
    fours = [c for c in CUT.cells if c.four]
    assert 0 < len(fours) < 16


def test_the_redrawing_from_the_laws_differs_from_the_cut_where_the_laws_leave_a_choice():
    from tafl_sphinx.apparatus import CUT_LETTERS

    placed = {x: sq for x, (sq, _) in CUT_LETTERS.items()}
    differ = woodcut.differences_from(FOLDERS, placed)
    fixed = {x for x, (_, how) in CUT_LETTERS.items() if how in ("fixed", "derived")}
    assert not fixed & set(differ), "what the laws fix, the cut confirms"
    assert {"b", "f", "g", "i", "m"} <= set(differ)


def test_a_malformed_transcription_is_a_clear_error(tmp_path):
    good = woodcut.cut_file(FOLDERS).read_text(encoding="utf-8")
    bad = tmp_path / "cut.toml"
    bad.write_text(good.replace('"g  f  e  d  3  D  E  F  G",', '"g  f  e  d  3  D  E  F  J",', 1), encoding="utf-8")
    with pytest.raises(woodcut.CutError, match=r"row 3, cell 9: 'J'"):
        woodcut.parse_cut(bad)
    bad.write_text(good.replace('"l  k  i  h  +4 H  I  K  L",', '"l  k  i  h  +4 H  I  K",', 1), encoding="utf-8")
    with pytest.raises(woodcut.CutError, match=r"row 2 has 8 cells"):
        woodcut.parse_cut(bad)


def test_the_drawing_carries_every_cell_and_its_own_description():
    svg = woodcut.woodcut_svg(FOLDERS)
    for cell in CUT.cells:
        if cell.letter:
            assert f">{cell.letter}</text>" in svg
    assert svg.count(">4</text>") == sum(c.four for c in CUT.cells)
    assert "row 1: o (roman), n (roman), m (roman), ornament (foliage) with 4" in svg
