"""The board first, the computer answering, and a phone's view of the boards and figures (issue 36,
sections 2 and 4; the player review's N1, N5-N11): headless Chromium on the real site.

Each of these failed before the change it checks: the live board 1.4 to 3.7 phone screens down
under a static figure of itself, the computer off until a side was chosen, the sandbox jumping as
it started, the theme's "Back to top" button over the status line, the last move of a 19x19 game
out of its box's view, figure coordinates at 6.4 to 10.7 px on a phone, the side to move said
twice, the figure tabs wrapping, the matrix page's script error."""

from __future__ import annotations

import random

import pytest

from tafl_rules import Game, catalogue

from boards import READY, status

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SCREEN = 740
ALL_READY = "() => [...document.querySelectorAll('div.tafl-board')].every(b => b.dataset.ready === 'true')"


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def place(page) -> dict:
    """Where the first board's grid and the first board figure start on the page, in px from its top."""
    return page.evaluate("""() => {
        const top = (e) => e ? e.getBoundingClientRect().top + scrollY : null;
        const grid = document.querySelector('div.tafl-board .tafl-grid');
        const link = [...document.querySelectorAll('a[href="#board"]')].find(a => a.offsetParent);
        return {grid: top(grid), gridBottom: grid && grid.getBoundingClientRect().bottom + scrollY,
                figure: top(document.querySelector('svg.tafl-svg-board')), link: top(link)};
    }""")


# --- N1: the live board on a phone's first screen, before any figure of it ----------------------

def test_on_a_phone_every_variant_pages_first_board_is_the_live_one_and_on_the_first_screen(phone, site_url):
    phone.route("**/tafl-worker.mjs*", lambda route: route.abort())  # the board's place, not its engine
    late, figure_first = {}, []
    for vid in catalogue.variant_ids():
        phone.goto(f"{site_url}/docs/variants/{vid}.html")
        at = place(phone)
        if at["grid"] is None or at["grid"] + 150 >= SCREEN:
            late[vid] = at["grid"]
        if at["figure"] is not None and at["figure"] < at["grid"]:
            figure_first.append(vid)
    assert not late, f"the board's grid starts too far down (px): {late}"
    assert not figure_first, f"a static figure of the start comes before the board: {figure_first}"


@pytest.mark.parametrize("path", ["index.html", "docs/compare.html", "docs/sandbox.html"])
def test_on_a_phone_every_other_page_with_a_board_shows_it_or_a_play_link_first(phone, site_url, path):
    phone.route("**/tafl-worker.mjs*", lambda route: route.abort())
    phone.goto(f"{site_url}/{path}")
    at = place(phone)
    on_screen = at["grid"] + 100 < SCREEN or (at["link"] is not None and at["link"] < SCREEN)
    assert on_screen, at
    assert at["figure"] is None or at["figure"] > at["grid"], "a static figure comes before the live board"


# --- the computer answers a newcomer's first move -----------------------------------------------

def tap_move(page, board, move: str) -> None:
    source, target = move.split("x")[0].split("-")
    board.locator(f'[data-square="{source}"]').tap()
    board.locator(f'[data-square="{target}"].tafl-target').wait_for()
    board.locator(f'[data-square="{target}"]').tap()


def test_a_newcomers_first_move_gets_the_computers_answer(phone, site_url):
    phone.goto(f"{site_url}/docs/variants/brandubh.html")
    phone.wait_for_selector(READY, timeout=90_000)
    board = phone.locator(".tafl-board").first
    assert board.locator(".tafl-human").input_value() == "attackers"
    assert board.locator(".tafl-ai").input_value() == "3"
    assert status(board) == "Your move (the attackers); the computer plays the defenders (level 3)."
    tap_move(phone, board, "d2-e2")
    phone.wait_for_function("() => document.querySelectorAll('.tafl-moves button').length === 2", timeout=60_000)
    assert status(board).startswith("You played d2-e2. The computer played ")
    assert status(board).endswith("Your move (the attackers).")


def test_both_sides_is_one_choice_away_and_a_saved_game_and_a_shared_link_keep_what_they_had(browser, site_url):
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{site_url}/docs/variants/brandubh.html")
        page.wait_for_selector(READY, timeout=90_000)
        board = page.locator(".tafl-board").first
        board.locator(".tafl-human").select_option("both")
        board.locator('[data-square="d2"]').click()
        board.locator('[data-square="e2"]').click()
        page.wait_for_function("() => document.querySelectorAll('.tafl-moves button').length === 1")
        page.wait_for_timeout(500)
        assert board.locator(".tafl-moves button").count() == 1, "nothing answers a reader playing both sides"
        page.reload()
        page.wait_for_selector(READY, timeout=90_000)
        assert board.locator(".tafl-human").input_value() == "both", "the saved game keeps its menus"
        assert board.locator(".tafl-moves button").count() == 1
        # a shared game with the defenders to move opens as shared: nothing is played on it
        shared = context.new_page()
        shared.goto(f"{site_url}/docs/variants/lewis-1.html?board=0&variant=lewis-1&moves=e2-e4")
        shared.wait_for_selector(READY, timeout=90_000)
        shared.wait_for_timeout(800)
        other = shared.locator(".tafl-board").first
        assert other.locator(".tafl-moves button").count() == 1
        assert other.locator(".tafl-human").input_value() == "defenders"
        assert status(other) == "Your move (the defenders); the computer plays the attackers (level 3)."
    finally:
        context.close()


# --- no layout shift over 0.1 (N5 and every page with a board) -----------------------------------

CLS_OBSERVER = """
window.__cls = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls.push([e.startTime, e.value]); })
  .observe({ type: 'layout-shift', buffered: true });
"""
CLS = """() => { let best = 0, now = 0, first = -1, last = -1;
    for (const [t, v] of window.__cls) {
        if (first < 0 || t - last > 1000 || t - first > 5000) { now = 0; first = t; }
        now += v; last = t; best = Math.max(best, now);
    }
    return best; }"""


@pytest.mark.parametrize("view", ["phone", "desktop"])
@pytest.mark.parametrize("path", ["index.html", "docs/compare.html", "docs/sandbox.html", "docs/variants/brandubh.html",
                                  "docs/variants/alea-evangelii.html"])
def test_a_page_with_a_board_does_not_shift_as_it_starts(browser, site_url, path, view):
    context = browser.new_context(**(PHONE if view == "phone" else DESKTOP))
    context.add_init_script(CLS_OBSERVER)
    page = context.new_page()
    try:
        page.goto(f"{site_url}/{path}")
        page.wait_for_function(ALL_READY, timeout=90_000)
        if path == "docs/sandbox.html":
            page.wait_for_selector(".tafl-sandbox-live", timeout=30_000)
        page.wait_for_timeout(1200)
        shift = page.evaluate(CLS)
    finally:
        context.close()
    assert shift < 0.1, f"cumulative layout shift {shift:.3f}"


# --- N6: the theme's "Back to top" button never covers the board ---------------------------------

def test_the_back_to_top_button_stays_off_the_board_and_its_result_line(phone, site_url):
    phone.goto(f"{site_url}/docs/variants/alea-evangelii.html")
    phone.wait_for_selector(READY, timeout=90_000)
    line = phone.locator(".tafl-board-status").first
    # put the status line where the button appears (90% down the screen), then scroll up a little,
    # which is what makes the theme show it
    line_top = line.evaluate("e => e.getBoundingClientRect().top + scrollY")
    phone.evaluate(f"window.scrollTo(0, {line_top - 0.9 * SCREEN + 30})")
    phone.wait_for_timeout(300)
    phone.mouse.wheel(0, -20)
    phone.wait_for_timeout(400)
    button = phone.locator("#pst-back-to-top")
    assert button.count() == 1, "the theme's button is on the page"
    if button.is_visible():
        a, b = button.bounding_box(), line.bounding_box()
        overlap = a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]
        assert not overlap, (a, b)
    # away from the board, the theme's button works as before
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    phone.wait_for_timeout(300)
    phone.mouse.wheel(0, -40)
    phone.wait_for_timeout(400)
    assert button.is_visible()


# --- N7: the last move of a 19x19 game in view --------------------------------------------------

def line_to_the_far_file(seed: int = 3) -> list[str]:
    """A short legal game on alea-evangelii whose last move goes to the r or s file."""
    rng = random.Random(seed)
    for _ in range(200):
        game, line = Game("alea-evangelii"), []
        for _ in range(12):
            far = [m for m in game.legal_moves() if str(m).split("-")[1][0] in "rs"]
            if far and len(line) >= 2:
                game.play(str(far[0]))
                return line + [str(far[0])]
            move = str(rng.choice(game.legal_moves()))
            game.play(move)
            line.append(move)
    raise AssertionError("no such line")


def visible_in_box(page, square: str) -> bool:
    return page.evaluate("""(name) => {
        const box = document.querySelector('.tafl-scroll').getBoundingClientRect();
        const at = document.querySelector(`[data-square="${name}"]`).getBoundingClientRect();
        return at.left >= box.left - 1 && at.right <= box.right + 1;
    }""", square)


def test_on_a_phone_the_last_move_of_a_19x19_game_is_scrolled_into_view(phone, site_url):
    line = line_to_the_far_file()
    phone.goto(f"{site_url}/docs/variants/alea-evangelii.html?board=0&moves={','.join(line)}")
    phone.wait_for_selector(READY, timeout=90_000)
    assert phone.evaluate("() => document.querySelector('.tafl-scroll').scrollWidth > document.querySelector('.tafl-scroll').clientWidth")
    target = line[-1].split("x")[0].split("-")[1]
    assert visible_in_box(phone, target), f"{target}, where the last move went, is out of the box's view"
    # stepping back in the move list brings that move into view in turn
    phone.locator(".tafl-moves button").nth(0).click()
    phone.wait_for_function("() => document.querySelector('.tafl-moves [aria-current]')?.dataset.ply === '1'")
    assert visible_in_box(phone, line[0].split("x")[0].split("-")[1])


# --- N8: figure text at 11 px or more on a phone -------------------------------------------------

@pytest.mark.parametrize("path", ["docs/compare.html", "docs/variants/alea-evangelii.html", "docs/variants/lewis-1.html",
                                  "sources/linnaeus.html", "sources/lewis.html"])
def test_on_a_phone_no_board_figure_has_text_under_11_px(phone, site_url, path):
    phone.route("**/tafl-worker.mjs*", lambda route: route.abort())
    phone.goto(f"{site_url}/{path}")
    sizes = phone.evaluate("""() => [...document.querySelectorAll('.bd-article svg text')].map(t => {
        const m = t.getScreenCTM();
        return m ? parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b) : 99; })""")
    assert sizes, "the page has figures with text"
    assert min(sizes) >= 10.95, f"{sum(s < 10.95 for s in sizes)} texts under 11 px, the smallest {min(sizes):.1f} px"
    assert phone.evaluate("() => document.documentElement.scrollWidth") == 375, "a figure widened the page"


# --- N9, N10, N11 -------------------------------------------------------------------------------

def test_the_side_to_move_is_said_once(page, site_url):
    page.goto(f"{site_url}/docs/variants/brandubh.html")
    page.wait_for_selector(READY, timeout=90_000)
    board = page.locator(".tafl-board").first
    shown = board.evaluate("""b => [...b.querySelectorAll('p')].filter(p => {
        const r = p.getBoundingClientRect();
        return r.width > 2 && r.height > 2 && /to move|Your move/i.test(p.textContent); }).map(p => p.textContent)""")
    assert len(shown) == 1, shown
    assert board.locator(".tafl-turn").text_content() == "Attackers to move", "screen readers still meet it first"


def test_the_figure_tabs_of_a_variant_page_sit_on_one_line_on_a_phone(phone, site_url):
    phone.route("**/tafl-worker.mjs*", lambda route: route.abort())
    phone.goto(f"{site_url}/docs/variants/lewis-1.html")
    tops = phone.locator(".sd-tab-set > label").evaluate_all("ls => ls.map(l => Math.round(l.getBoundingClientRect().top))")
    assert len(tops) == 2 and abs(tops[0] - tops[1]) < 8, tops


def test_the_rule_matrix_runs_the_themes_script_without_an_error(page, site_url):
    page.goto(f"{site_url}/docs/matrix.html")
    page.wait_for_load_state("load")
    page.evaluate("window.scrollTo(0, 600)")
    page.wait_for_timeout(500)
    width = page.locator(".tafl-matrix").first.evaluate("e => e.getBoundingClientRect().width")
    article = page.locator(".bd-article").first.evaluate("e => e.getBoundingClientRect().width")
    assert width > article, "on a wide screen the matrix still takes the margin's width too"
    # the page fixture fails the test on any page error (it was "Cannot read properties of null")
