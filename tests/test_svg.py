"""Static SVG boards (tafl_rules.svg.render_svg)."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tafl_rules.errors import NotationError
from tafl_rules.rules import Rules
from tafl_rules.svg import render_svg

NS = {"s": "http://www.w3.org/2000/svg"}
BRANDUB = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
ROOT = Path(__file__).resolve().parents[1]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_well_formed_and_accessible():
    svg = render_svg(Rules())
    root = parse(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("role") == "img"
    assert root.get("class") == "tafl-svg-board"  # "tafl-board" is the interactive board's class
    children = list(root)
    assert children[0].tag.endswith("title") and children[1].tag.endswith("desc")
    ids = root.get("aria-labelledby").split()
    assert ids == [children[0].get("id"), children[1].get("id")]
    assert "11x11" in children[0].text and "24 attackers" in children[0].text
    desc = children[1].text
    assert "King: f6." in desc and "Attackers (24):" in desc and "Defenders (12):" in desc
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert "<script" not in svg and "href" not in svg  # self-contained


def test_piece_counts_default_and_custom_position():
    root = parse(render_svg(Rules()))
    assert len(by_class(root, "attacker")) == 24
    assert len(by_class(root, "defender")) == 12
    assert len([e for e in by_class(root, "king") if e.tag.endswith("circle")]) == 1
    assert len(by_class(root, "king-mark")) == 1
    root = parse(render_svg(Rules(), "/tT9/11/11/11/11/5t5/11/11/11/11/11/"))
    assert len(by_class(root, "attacker")) == 2 and len(by_class(root, "defender")) == 1
    assert not by_class(root, "king") and "no king" in root.find("s:title", NS).text


def test_special_squares_follow_the_rules():
    plain = parse(render_svg(Rules(throne=False)))
    assert not by_class(plain, "throne") and not by_class(plain, "corner") and not by_class(plain, "camp")
    root = parse(render_svg(Rules(corners=True, camps=True)))
    assert len([e for e in by_class(root, "throne") if e.tag.endswith("rect")]) == 1
    assert len([e for e in by_class(root, "corner") if e.tag.endswith("rect")]) == 4
    assert len(by_class(root, "camp")) == 24  # the attackers' start squares
    assert len(by_class(root, "throne-mark")) == 1 and len(by_class(root, "corner-mark")) == 4


def test_camps_come_from_the_start_not_the_position_drawn():
    rules = Rules(size=7, start=BRANDUB, camps=True)
    root = parse(render_svg(rules, "/7/7/7/3K3/7/7/7/"))
    assert len(by_class(root, "camp")) == 8 and not by_class(root, "attacker")


def square_xy(root: ET.Element, cls: str) -> tuple[float, float]:
    (e,) = by_class(root, cls)
    return float(e.get("x")), float(e.get("y"))


def test_throne_in_the_middle_and_corners_at_the_corners():
    root = parse(render_svg(Rules(corners=True), square_px=20))
    board = by_class(root, "board")[0]
    bx, by, side = float(board.get("x")), float(board.get("y")), float(board.get("width"))
    throne = [e for e in by_class(root, "throne") if e.tag.endswith("rect")][0]
    assert (float(throne.get("x")), float(throne.get("y"))) == (bx + 5 * 20, by + 5 * 20)
    corners = {(float(e.get("x")), float(e.get("y"))) for e in by_class(root, "corner") if e.tag.endswith("rect")}
    assert corners == {(bx, by), (bx + side - 20, by), (bx, by + side - 20), (bx + side - 20, by + side - 20)}


def test_marks_and_highlights():
    root = parse(render_svg(Rules(), marks=["e5", "f6", "e5"], highlight="a4, k8"))
    assert len(by_class(root, "mark")) == 2
    assert len(by_class(root, "highlight")) == 2
    desc = root.find("s:desc", NS).text
    assert "Marked: e5, f6." in desc and "Highlighted: a4, k8." in desc
    # marks are drawn after (on top of) the pieces
    classes = [e.get("class") for e in root]
    assert classes.index("mark") > max(i for i, c in enumerate(classes) if c and c.startswith("piece"))


def test_flipped_turns_the_board_half_round():
    rules = Rules(size=7, start="/t6/7/7/3K3/7/7/7/", throne=False)
    normal = parse(render_svg(rules, square_px=10, coordinates=False))
    flipped = parse(render_svg(rules, square_px=10, coordinates=False, flipped=True))
    (a,) = by_class(normal, "attacker")
    (b,) = by_class(flipped, "attacker")
    assert float(a.get("cx")) < 20 and float(a.get("cy")) > 60   # a1 bottom left
    assert float(b.get("cx")) > 60 and float(b.get("cy")) < 20   # a1 top right
    king_n = by_class(normal, "king")[0]
    king_f = by_class(flipped, "king")[0]
    assert (king_n.get("cx"), king_n.get("cy")) == (king_f.get("cx"), king_f.get("cy"))
    files = [t.text for t in by_class(parse(render_svg(rules, flipped=True)), "coord")][:7]
    assert files == list("gfedcba")


def test_the_description_is_in_the_words_it_is_given():
    """``say`` gives the description's words (a Welsh page's); the square names stay as they are."""
    welsh = {"Attackers": "Ymosodwyr", "Defenders": "Amddiffynwyr", "King": "Brenin", "none": "dim",
             "Corner squares": "Sgwariau cornel", "Marked": "Wedi'u marcio",
             "Seen from the top: a1 is at the top right.": "Gwelir o'r pen arall: mae a1 ar y dde uchaf."}
    rules = Rules(size=7, start="/t6/7/7/7/7/7/7/", throne=False, corners=True)
    desc = parse(render_svg(rules, marks="d4", flipped=True, say=lambda text: welsh.get(text, text)))[1].text
    assert desc == ("Ymosodwyr (1): a1. Amddiffynwyr (0): dim. Brenin: dim. Sgwariau cornel: a1, a7, g1, g7. "
                    "Wedi'u marcio: d4. Gwelir o'r pen arall: mae a1 ar y dde uchaf.")
    assert parse(render_svg(rules))[1].text.startswith("Attackers (1): a1. Defenders (0): none. King: none.")


def test_coordinates_on_and_off():
    texts = [t.text for t in by_class(parse(render_svg(Rules())), "coord")]
    assert texts[:11] == list("abcdefghijk")
    assert texts[11:] == [str(n) for n in range(11, 0, -1)]
    assert not by_class(parse(render_svg(Rules(), coordinates=False)), "coord")


def test_square_size_scales_the_picture():
    small = parse(render_svg(Rules(), square_px=16, coordinates=False))
    large = parse(render_svg(Rules(), square_px=48, coordinates=False))
    assert int(large.get("width")) - 2 * 6 == 3 * (int(small.get("width")) - 2 * 2)


def test_every_board_size():
    for size, start in ((7, BRANDUB), (19, "/" + "19/" * 9 + "9K9/" + "19/" * 9)):
        root = parse(render_svg(Rules(size=size, start=start)))
        assert len(by_class(root, "coord")) == 2 * size


def test_title_is_escaped_and_deterministic():
    svg = render_svg(Rules(), title='A & B <"board">')
    assert parse(svg).find("s:title", NS).text == 'A & B <"board">'
    assert render_svg(Rules(), title='A & B <"board">') == svg
    assert render_svg(Rules(), title="other") != svg
    ids = {parse(render_svg(Rules(), marks=m)).get("aria-labelledby") for m in ("", "e5", "e6")}
    assert len(ids) == 3  # different pictures get different ids


def test_byte_identical_across_processes():
    code = ("import sys; from tafl_rules import Rules; from tafl_rules.svg import render_svg;"
            "sys.stdout.write(render_svg(Rules(corners=True, camps=True, throne_stop={'king', 'defender'}),"
            " marks=['e5']))")
    outputs = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        outputs.add(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                                   cwd=ROOT, check=True).stdout)
    assert len(outputs) == 1


@pytest.mark.parametrize("kwargs, error, words", [
    ({"marks": ["z9"]}, ValueError, "marks: 'z9' is not a square of the 11x11 board"),
    ({"highlight": ["l1"]}, ValueError, "highlight: 'l1'"),
    ({"marks": [5]}, ValueError, "expected square names"),
    ({"square_px": 2}, ValueError, "square_px"),
    ({"position": "/11/11/"}, NotationError, "expected 11 ranks"),
])
def test_bad_input_is_named(kwargs, error, words):
    with pytest.raises(error, match=words):
        render_svg(Rules(), **kwargs)


def test_chosen_id_prefix():
    root = parse(render_svg(Rules(), svg_id="fig-3"))
    assert root.get("aria-labelledby") == "fig-3-title fig-3-desc"
    assert root.find("s:title", NS).get("id") == "fig-3-title"
    with pytest.raises(ValueError, match="svg_id"):
        render_svg(Rules(), svg_id='x" onload="alert(1)')
