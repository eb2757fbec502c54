"""The comparison page in headless Chromium: the three printed figures (and their corrections) are
drawn, the squares where they differ are outlined, and the page reads the same with JavaScript off."""

from __future__ import annotations

from pathlib import Path

import pytest

from tafl_rules import catalogue

ROOT = Path(__file__).resolve().parents[1]

from tafl_sphinx import figures, layouts

pytestmark = pytest.mark.browser


def _expected_marks() -> list[str]:
    starts = [catalogue.variant(v).rules.start for v in figures.COMPARED]
    return layouts.differing_squares(starts, catalogue.variant(figures.COMPARED[0]).rules.size)


def _figure(page, vid: str):
    return page.locator(f'.tafl-svg[data-variant="{vid}"]').first


def test_the_three_figures_and_their_difference_marks_are_drawn(page, site_url):
    page.goto(f"{site_url}/docs/compare.html")
    marks = _expected_marks()
    assert marks
    for vid in figures.COMPARED:
        figure = _figure(page, vid)
        svg = figure.locator("svg")
        assert svg.count() == 1, vid
        box = svg.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100, (vid, box)
        v = catalogue.variant(vid)
        pieces = svg.locator(".piece").count()
        assert pieces == sum(v.counts().values()), vid
        drawn = svg.locator("rect.mark")
        assert drawn.count() == len(marks), vid
        first = drawn.first.bounding_box()
        assert first and first["width"] > 5, "the marks are visible"
        desc = svg.locator("desc").text_content()
        assert "Marked: " in desc and all(square in desc for square in marks), desc
    # A corrected reading is drawn after what was printed, marked where it departs from it.
    for correction in (v for v in catalogue.variants() if v.correction_of in figures.COMPARED):
        own = layouts.differing_squares([correction.rules.start, catalogue.variant(correction.correction_of).rules.start],
                                        correction.rules.size)
        assert _figure(page, correction.id).locator("svg rect.mark").count() == len(own)
    table = page.locator("table").filter(has_text="Attacker formation")
    assert table.count() == 1
    assert table.locator("tbody tr").count() == len(figures.COMPARED) + sum(
        1 for v in catalogue.variants() if v.correction_of in figures.COMPARED)


def test_the_figures_need_no_javascript(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{site_url}/docs/compare.html")
        for vid in figures.COMPARED:
            assert _figure(page, vid).locator("svg rect.mark").count() == len(_expected_marks())
        # A variant page: the static layout is there even though the playable board cannot start.
        page.goto(f"{site_url}/docs/variants/lewis-1.html")
        assert page.locator(".tafl-svg svg .piece").count() == 37
    finally:
        context.close()


def test_a_variant_page_board_starts_with_that_variant(page, site_url):
    page.goto(f"{site_url}/docs/variants/tablut-linnaeus.html")
    board = page.locator(".tafl-board").first
    page.wait_for_selector('.tafl-board[data-ready="true"]', timeout=60_000)
    assert board.get_attribute("data-variant") == "tablut-linnaeus"
    assert board.locator(".tafl-square").count() == 81


def test_play_this_reading_restarts_the_board_under_that_reading(page, site_url):
    page.goto(f"{site_url}/docs/variants/lewis-1.html")
    page.wait_for_selector('.tafl-board[data-ready="true"]', timeout=60_000)
    status = page.locator(".tafl-board-status")
    assert "Your move (the attackers)" in status.text_content()
    page.locator('a.tafl-play-reading[href*="toggles=first:defenders"]').click()
    page.wait_for_url("**toggles=first:defenders**")
    page.wait_for_selector('.tafl-board[data-ready="true"]', timeout=60_000)
    # the reader plays the side that now moves first, and nothing is played for them
    page.wait_for_function(
        "() => document.querySelector('.tafl-board-status').textContent.includes('Your move (the defenders)')")
