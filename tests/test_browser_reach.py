"""The board within reach: the front door on a phone, the keyboard's way to the board, the rule
matrix on a phone, and the picture drawn at build time matching the live board square by square.
Headless Chromium on the real site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

READY = '.tafl-board[data-ready="true"]'
PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


# --- the front door on a phone (player review, finding 4) ---------------------------------------

@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_first_screen_says_what_it_is_where_to_start_and_jumps_to_the_board(browser, site_url, scheme):
    context = browser.new_context(color_scheme=scheme, **PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}/index.html")
        boxes = page.evaluate("""() => {
            const article = document.querySelector('article');
            const box = (e) => e ? e.getBoundingClientRect() : null;
            const starts = [...article.querySelectorAll('p, strong')].find(e => e.textContent.startsWith('Where to start'));
            const links = [...document.querySelectorAll('.tafl-start-here li a')].filter(a => !a.closest('li').previousElementSibling || true);
            return { lead: box([...article.querySelectorAll('p')].find(p => p.textContent.startsWith('Tawlbwrdd is the Welsh'))),
                     start: box(starts), firstLinks: [...document.querySelectorAll('.tafl-start-here li')].map(li => box(li.querySelector('a'))),
                     play: box(document.querySelector('a.tafl-play-link[href="#board"]')),
                     board: box(document.querySelector('#board .tafl-frame')) };
        }""")
        for name in ("lead", "start", "play"):
            assert boxes[name] and boxes[name]["bottom"] <= 740, (name, boxes[name])
        assert len(boxes["firstLinks"]) == 3 and all(b["bottom"] <= 740 for b in boxes["firstLinks"]), boxes["firstLinks"]
        assert boxes["board"]["top"] < 2 * 740, boxes["board"]  # the board itself within the first two screens
        page.locator('a.tafl-play-link').click()
        page.wait_for_function("() => { const r = document.querySelector('#board .tafl-frame').getBoundingClientRect();"
                               " return r.top >= -1 && r.top < innerHeight; }")
    finally:
        context.close()


# --- the keyboard's way to the board (player review, finding 5) ---------------------------------

def tabs_to_the_board(page) -> int:
    """Presses of Tab from the top of the page until a square of the board has the focus; a link
    "Skip to the board" met on the way is followed (Enter)."""
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    for presses in range(1, 80):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => [document.activeElement.dataset.square || '', document.activeElement.textContent.trim()]")
        if focused[0]:
            return presses
        if focused[1] == "Skip to the board":
            page.keyboard.press("Enter")
    return 999


@pytest.mark.parametrize("path", ["docs/variants/lewis-1.html", "index.html", "docs/sandbox.html", "docs/compare.html"])
def test_the_keyboard_reaches_the_board_in_three_tabs(page, site_url, path):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site_url}/{path}")
    page.wait_for_function("() => [...document.querySelectorAll('div.tafl-board')].every(b => b.dataset.ready === 'true')",
                           timeout=90_000)
    assert tabs_to_the_board(page) <= 3
    assert page.evaluate("() => document.activeElement.closest('.tafl-board') === document.querySelector('div.tafl-board')")


def test_every_page_with_a_board_has_the_skip_link_and_no_other_page_does(site_dir):
    for html in site_dir.rglob("*.html"):
        text = html.read_text(errors="replace")
        if 'http-equiv="refresh"' in text[:2000] or "_static" in html.parts:
            continue
        has_board = 'class="tafl-board' in text
        link = re.search(r'tafl-skip-board[^>]*><a href="#([\w-]+)">', text)  # "Skip to the board", or its Welsh
        assert bool(link) == has_board, html
        if link:
            target = re.search(rf'<div [^>]*\bid="{link.group(1)}"[^>]*>', text)
            assert target and 'class="tafl-board' in target.group(0), html


# --- the rule matrix on a phone (player review, finding 8) -------------------------------------

def test_the_rule_matrix_on_a_phone_keeps_its_header_row_and_rule_column_in_view(phone, site_url):
    phone.goto(f"{site_url}/docs/matrix.html")
    table = phone.locator(".tafl-matrix table").first
    table.scroll_into_view_if_needed()
    assert table.evaluate("t => t.scrollHeight > t.clientHeight && t.scrollWidth > t.clientWidth"), "it scrolls in its own box"
    head = table.locator("thead th").nth(2)
    corner = table.locator("thead th").first
    rule = table.locator("tbody tr").nth(12).locator("td").first
    top = table.evaluate("t => t.getBoundingClientRect().top")
    table.evaluate("t => { t.scrollTop = 400; t.scrollLeft = 600; }")
    phone.wait_for_timeout(100)
    assert abs(head.evaluate("e => e.getBoundingClientRect().top") - top) < 2, "the header row stays at the top of the box"
    assert abs(corner.evaluate("e => e.getBoundingClientRect().left") - table.evaluate("t => t.getBoundingClientRect().left")) < 2
    box = table.evaluate("t => t.getBoundingClientRect()")
    cell = rule.evaluate("e => e.getBoundingClientRect()")
    assert cell["left"] - box["left"] < 2, "the rule's name stays at the left of the box"
    # the variant a cell belongs to is named in view above it
    cell_x = table.locator("tbody tr").nth(12).locator("td").nth(3).evaluate("e => e.getBoundingClientRect().left")
    heads = table.locator("thead th").evaluate_all("hs => hs.map(h => [h.getBoundingClientRect().left, h.getBoundingClientRect().right, h.textContent])")
    assert any(left - 1 <= cell_x <= right and name.strip() for left, right, name in heads[1:]), heads
    assert phone.evaluate("() => document.documentElement.scrollWidth") == 375


# --- the picture drawn at build time is the live board (code review, section 6.1) ----------------

LIVE_ONLY = {"tafl-last", "tafl-target", "tafl-selected", "tafl-taken"}


@pytest.mark.parametrize("path", ["index.html", "docs/variants/tafl-granquist.html", "docs/variants/copenhagen.html",
                                  "docs/variants/alea-evangelii.html", "docs/compare.html"])
def test_the_build_time_picture_matches_the_live_board_square_by_square(browser, site_url, path):
    context = browser.new_context()
    page = context.new_page()
    try:
        page.route("**/tafl-worker.mjs*", lambda route: route.abort())  # first the picture alone
        page.goto(f"{site_url}/{path}")
        pictures = page.evaluate("""() => [...document.querySelectorAll('div.tafl-board')].map(b => ({
            squares: [...b.querySelectorAll('.tafl-static .tafl-square')].map(s => s.className),
            files: [...b.querySelectorAll('.tafl-files span')].map(s => s.textContent),
            ranks: [...b.querySelectorAll('.tafl-ranks span')].map(s => s.textContent) }))""")
        page.unroute("**/tafl-worker.mjs*")
        page.goto(f"{site_url}/{path}")
        page.wait_for_function("() => [...document.querySelectorAll('div.tafl-board')].every(b => b.dataset.ready === 'true')",
                               timeout=90_000)
        live = page.evaluate("""() => [...document.querySelectorAll('div.tafl-board')].map(b => ({
            squares: [...b.querySelectorAll('.tafl-grid .tafl-square')].map(s => [s.dataset.square, s.className]),
            files: [...b.querySelectorAll('.tafl-files span')].map(s => s.textContent),
            ranks: [...b.querySelectorAll('.tafl-ranks span')].map(s => s.textContent) }))""")
    finally:
        context.close()
    assert pictures and len(pictures) == len(live)
    for number, (picture, board) in enumerate(zip(pictures, live)):
        assert len(picture["squares"]) == len(board["squares"]) > 0, number
        for at, (static_class, (name, live_class)) in enumerate(zip(picture["squares"], board["squares"])):
            drawn = set(static_class.split())
            shown = set(live_class.split()) - LIVE_ONLY
            assert drawn == shown, f"board {number}, square {at} ({name}): picture {sorted(drawn)}, live {sorted(shown)}"
        assert picture["files"] == board["files"] and picture["ranks"] == board["ranks"], number
