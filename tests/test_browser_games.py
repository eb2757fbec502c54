"""No game lost, whatever the tabs or the record: each tab keeps its own game, a game changed in
another tab is never dropped without a word, every game of a page can be listed and opened, a
game's own start travels with it, and share links are as strict as the record reader.

Headless Chromium on the real site; tabs are pages of one browser context (one localStorage, one
lock manager, a sessionStorage each), as tabs of one browser window are."""

from __future__ import annotations

import json

import pytest

from tafl_rules import Game, game_to_otn

from boards import READY, click_move, status
from boards import open_board as open_page

pytestmark = pytest.mark.browser

def moves_shown(board) -> list[str]:
    return [m.split("x")[0] for m in board.locator(".tafl-moves button").all_text_contents()]


def wait_moves(board, count: int) -> None:
    board.page.wait_for_function("([b, n]) => b.querySelectorAll('.tafl-moves button').length === n"
                                 " && b.dataset.ready === 'true'", arg=[board.element_handle(), count], timeout=60_000)


def play(board, *moves: str) -> None:
    for move in moves:
        before = board.locator(".tafl-moves button").count()
        click_move(board, move)
        wait_moves(board, before + 1)


def games_listed(board) -> list[str]:
    return board.locator(".tafl-games-list li").all_text_contents()


@pytest.fixture
def tabs(browser, site_url):
    context = browser.new_context()
    yield context
    context.close()


# --- two tabs on one page (player review, finding 1) --------------------------------------------

def test_two_tabs_on_one_page_keep_their_own_games_over_a_reload(tabs, site_url):
    url = f"{site_url}/docs/variants/lewis-1.html"
    a = open_page(tabs.new_page(), url)
    play(a, "e2-e3")
    tab_b = tabs.new_page()
    b = open_page(tab_b, url)
    assert moves_shown(b) == ["e2-e3"], "a second tab opens the newest game..."
    assert "this tab plays a copy of it" in status(b), "...as a copy, since the first tab has it on its board"
    play(a, "f9-h9")
    play(b, "f3-h3")
    a.page.reload()
    a = a.page.locator(".tafl-board").first
    a.page.wait_for_selector(READY, timeout=90_000)
    assert moves_shown(a) == ["e2-e3", "f9-h9"], "tab a's own game, not the other tab's"
    tab_b.reload()
    b = tab_b.locator(".tafl-board").first
    tab_b.wait_for_selector(READY, timeout=90_000)
    assert moves_shown(b) == ["e2-e3", "f3-h3"]
    # Each tab lists both games; the other tab's is marked open there.
    a.locator(".tafl-games-list li").nth(1).wait_for()
    listed = games_listed(a)
    assert any("2 moves" in item and "(on the board)" in item for item in listed), listed
    assert any("2 moves" in item and "open in another tab" in item for item in listed), listed


def test_a_game_from_the_list_opens_and_the_one_it_replaces_is_kept(tabs, site_url):
    url = f"{site_url}/docs/variants/lewis-1.html"
    a = open_page(tabs.new_page(), url)
    play(a, "e2-e3")
    a.locator(".tafl-restart").click()  # a new game; the old one stays in the list
    wait_moves(a, 0)
    play(a, "b7-b8")
    entry = a.locator(".tafl-games-list li", has_text="1 move").filter(has=a.page.locator(".tafl-game-open"))
    assert entry.count() == 1, games_listed(a)
    entry.locator(".tafl-game-open").click()
    a.page.wait_for_function("() => document.querySelector('.tafl-moves button')?.textContent.startsWith('e2-e3')")
    assert moves_shown(a) == ["e2-e3"]
    assert any(": 1 move, last e2-e3" in item and "(on the board)" in item for item in games_listed(a))
    assert any(": 1 move, last b7-b8" in item and "Forget" in item for item in games_listed(a)), games_listed(a)
    # A reload keeps the game this tab opened last.
    a.page.reload()
    a = a.page.locator(".tafl-board").first
    a.page.wait_for_selector(READY, timeout=90_000)
    assert moves_shown(a) == ["e2-e3"]


def test_a_game_changed_in_another_tab_is_not_dropped_silently(tabs, site_url):
    """A browser without locks (or storage changed by hand) can have two tabs write one game: the
    tab whose game was changed says so, and offers both versions."""
    url = f"{site_url}/docs/variants/lewis-1.html"
    tab_a = tabs.new_page()
    a = open_page(tab_a, url)
    play(a, "e2-e3")
    tab_b = tabs.new_page()
    open_page(tab_b, url)
    # tab b writes tab a's own game, as a tab of a browser without Web Locks would
    tab_b.evaluate("""() => {
        const key = Object.keys(localStorage).find(k => k.includes(':g:') && JSON.parse(localStorage[k]).moves.length === 1
            && JSON.parse(localStorage[k]).moves[0] === 'e2-e3');
        const record = JSON.parse(localStorage[key]);
        record.moves = ['e2-e3', 'f9-h9', 'j5-j3'];
        record.cursor = 3;
        localStorage.setItem(key, JSON.stringify(record));
    }""")
    notice = a.locator(".tafl-changed-elsewhere")
    notice.wait_for(timeout=10_000)
    assert "This game was changed in another tab" in notice.text_content()
    assert moves_shown(a) == ["e2-e3"], "the game on the board is untouched until the reader chooses"
    notice.locator("button", has_text="Keep this one").click()
    tab_a.wait_for_function("() => document.querySelector('.tafl-board-status').textContent.includes('kept as a game of its own')")
    listed = games_listed(a)
    assert any(": 3 moves, last j5-j3" in item for item in listed), listed  # the other tab's version is kept too
    tab_a.locator(".tafl-games-list li", has_text="3 moves").locator(".tafl-game-open").click()
    wait_moves(a, 3)


# --- a game's own start travels with it (fuzz review, defect 1) --------------------------------

OWN_START = """[rules:dim:7 surf:n tfr:i ks:c aforh: afors:t start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]
[position:/7/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]

1. d7-e7 d5-f5
"""


def test_an_imported_game_with_its_own_start_comes_back_after_a_reload_and_from_its_share_link(tabs, browser, site_url):
    page = tabs.new_page()
    board = open_page(page, f"{site_url}/docs/variants/brandubh.html")
    board.locator(".tafl-record summary").click()
    board.locator(".tafl-otn").fill(OWN_START)
    board.locator(".tafl-import").click()
    wait_moves(board, 2)
    assert board.locator('[data-square="d1"]').get_attribute("aria-label").startswith("d1, empty")
    # it is not called this page's variant: it did not start as Brandubh does
    assert "the rules of Brandubh, from the start position of an imported game record" in board.locator(".tafl-other-variant").text_content()
    page.reload()
    board = page.locator(".tafl-board").first
    page.wait_for_selector(READY, timeout=90_000)
    assert moves_shown(board) == ["d7-e7", "d5-f5"]
    assert board.locator('[data-square="d1"]').get_attribute("aria-label").startswith("d1, empty"), "the same game, not another"
    board.locator(".tafl-share").click()
    link = board.locator(".tafl-share-link").input_value()
    assert "position=" in link
    fresh = browser.new_context()
    try:
        other = fresh.new_page()
        shared = open_page(other, link)
        assert moves_shown(shared) == ["d7-e7", "d5-f5"]
        assert shared.locator('[data-square="d1"]').get_attribute("aria-label").startswith("d1, empty")
        assert "refused" not in status(shared)
    finally:
        fresh.close()


def test_an_imported_game_whose_defenders_moved_first_comes_back_after_a_reload(tabs, site_url):
    game = Game("brandubh", turn="defenders")
    game.play("d3-a3")
    page = tabs.new_page()
    board = open_page(page, f"{site_url}/docs/variants/brandubh.html")
    board.locator(".tafl-record summary").click()
    board.locator(".tafl-otn").fill(game_to_otn(game))
    board.locator(".tafl-import").click()
    wait_moves(board, 1)
    page.reload()
    board = page.locator(".tafl-board").first
    page.wait_for_selector(READY, timeout=90_000)
    assert moves_shown(board) == ["d3-a3"]
    assert "could not be restored" not in status(board)
    assert board.locator(".tafl-moves-head span").all_text_contents()[1] == "Defenders"


# --- share links as strict as the record reader (player review, finding 6; fuzz, defect 4) -------

@pytest.mark.parametrize("moves, words", [
    ("e2-e4xe5", "move 1 (e2-e4xe5) cannot be replayed: it says it captures e5, the rules capture nothing"),
    ("e2-e4,f9-h9,e4-e2x,k4-k3", "move 3 (e4-e2x) is not written like d1-d4"),
])
def test_a_share_link_claiming_a_false_capture_or_holding_a_malformed_move_is_refused_by_name(tabs, site_url, moves, words):
    board = open_page(tabs.new_page(), f"{site_url}/docs/variants/lewis-1.html?board=0&variant=lewis-1&moves={moves}")
    text = status(board)
    assert text.startswith("The share link was refused") and words in text, text
    assert moves_shown(board) == []


def test_an_unknown_variant_in_a_share_link_links_the_list_of_reconstructions(tabs, site_url):
    page = tabs.new_page()
    board = open_page(page, f"{site_url}/docs/variants/lewis-1.html?board=0&variant=nosuch&moves=e2-e4")
    text = status(board)
    assert text == ("The share link was refused: no variant 'nosuch' (see the list of reconstructions). "
                    "The board shows the start of the game instead."), text
    link = board.locator(".tafl-board-status a")
    assert link.get_attribute("href") == "index.html"
    link.click()
    page.wait_for_url(f"{site_url}/docs/variants/index.html")


def test_a_saved_game_survives_the_move_to_one_game_per_tab(tabs, site_url):
    """A game saved by the build before (one slot per board) is on the board, and in the list."""
    page = tabs.new_page()
    # stored before the page's own scripts run: a board that had started first would keep its tab's
    # fresh game, and save it as the page went, whatever the old slot held
    page.add_init_script("""localStorage.setItem('tafl:' + location.pathname + ':0', JSON.stringify(
        { version: 2, variant: 'lewis-1', toggles: {}, rules: '', position: '', moves: ['e2-e3', 'f9-h9'], cursor: 2,
          human: 'both', ai: 3 }))""")
    page.goto(f"{site_url}/docs/variants/lewis-1.html")
    board = page.locator(".tafl-board").first
    page.wait_for_selector(READY, timeout=90_000)
    assert moves_shown(board) == ["e2-e3", "f9-h9"]
    keys = page.evaluate("() => Object.keys(localStorage)")
    assert not any(k.endswith(":0") for k in keys), keys
    assert json.loads(page.evaluate("() => localStorage[Object.keys(localStorage).find(k => k.includes(':g:'))]"))["moves"] == ["e2-e3", "f9-h9"]
