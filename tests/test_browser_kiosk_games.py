"""Games that do not pile up and can be told apart, share links at their edges, and a kiosk a museum
can leave running (issue 36, section 3; the player review's N2, N3, N12, N14, N15): headless
Chromium on the real site. Each of these failed before the change it checks."""

from __future__ import annotations

import json
import re
import time

import pytest

from tafl_rules import Game, game_to_otn

from boards import READY, open_board, status

pytestmark = pytest.mark.browser

BRANDUBH = "docs/variants/brandubh.html"


def entries(board) -> list[str]:
    return board.locator(".tafl-games-list li").all_text_contents()


def saved_keys(page) -> list[str]:
    return page.evaluate("() => Object.keys(localStorage).filter(k => k.includes(':g:'))")


def wait_moves(board, count: int) -> None:
    board.page.wait_for_function("([b, n]) => b.querySelectorAll('.tafl-moves button').length === n"
                                 " && b.dataset.ready === 'true' && !b.hasAttribute('aria-busy')",
                                 arg=[board.element_handle(), count], timeout=60_000)


def click(board, move: str) -> None:
    source, target = move.split("-")
    board.locator(f'[data-square="{source}"]').click()
    board.locator(f'[data-square="{target}"].tafl-target').wait_for()
    board.locator(f'[data-square="{target}"]').click()


# --- N2: the home board's games are its own ------------------------------------------------------

def test_the_home_boards_games_are_named_by_the_board_not_as_imports(page, site_url):
    board = open_board(page, f"{site_url}/index.html", human=None)
    click(board, "a4-a1" if board.evaluate("b => 'a4' in window.tafl.boards[0].state.legal") else "d1-d3")
    wait_moves(board, 2)
    board.locator(".tafl-restart").click()
    wait_moves(board, 0)
    listed = entries(board)
    assert len(listed) == 2, listed
    assert all(item.startswith("The home page's board (ap Ifan's setup): ") for item in listed), listed
    assert not any("imported" in item for item in listed), listed


# --- N3 and N15: named apart, at most ten, forget all ---------------------------------------------

def test_saved_games_are_told_apart_capped_at_ten_and_forgotten_all_at_once(page, site_url):
    page.goto(f"{site_url}/{BRANDUBH}")
    page.wait_for_selector(READY, timeout=90_000)
    # twelve games saved earlier on this page, oldest first
    page.evaluate("""() => { for (let i = 0; i < 12; i++) localStorage.setItem(`tafl:${location.pathname}:0:g:old${i}`,
        JSON.stringify({ version: 3, variant: 'brandubh', toggles: {}, moves: ['d2-e2'], cursor: 1, human: 'both', ai: 3,
                         name: 'Brandubh', saved: Date.now() - (20 - i) * 60000 })); }""")
    page.reload()
    board = page.locator(".tafl-board").first
    page.wait_for_selector(READY, timeout=90_000)
    click(board, "d2-c2")  # a move (and the computer's answer) saves this tab's game, and the oldest go
    wait_moves(board, 2)
    page.wait_for_function("() => document.querySelectorAll('.tafl-games-list li').length === 10", timeout=10_000)
    keys = saved_keys(page)
    assert len(keys) == 10, keys
    assert not any(k.endswith((":g:old0", ":g:old1", ":g:old2")) for k in keys), "the oldest are forgotten first"
    listed = entries(board)
    assert listed[0].startswith("Brandubh: 2 moves, last ") and "; you the attackers against level 3; just now" in listed[0], listed[0]
    assert re.fullmatch(r"Brandubh: 1 move, last d2-e2; you both sides; \d+ min agoForget", listed[1]), listed[1]
    board.locator(".tafl-games-forget-all").click()
    question = board.locator(".tafl-forget-all")
    assert question.locator("p").text_content() == "Forget 9 games for good? The game on the board stays."
    question.locator(".tafl-forget-all-yes").click()
    page.wait_for_function("() => Object.keys(localStorage).filter(k => k.includes(':g:')).length === 1")
    assert status(board) == "9 games forgotten."
    assert board.locator(".tafl-moves button").count() == 2


def test_a_copy_opened_in_a_second_tab_is_marked_as_a_copy(browser, site_url):
    context = browser.new_context()
    try:
        first = open_board(context.new_page(), f"{site_url}/{BRANDUBH}", human=None)
        click(first, "d2-e2")
        wait_moves(first, 2)
        second = open_board(context.new_page(), f"{site_url}/{BRANDUBH}", human=None)
        assert "copy" in status(second)
        click(second, "b4-b2")
        wait_moves(second, 4)
        second.page.wait_for_function("() => document.querySelectorAll('.tafl-games-list li').length === 2")
        listed = entries(second)
        assert listed[0].startswith("Brandubh (a copy): 4 moves") and listed[0].endswith("(on the board)"), listed
        assert listed[1].startswith("Brandubh: 2 moves") and "(open in another tab)" in listed[1], listed
    finally:
        context.close()


# --- N12: no possessive after a parenthesis -----------------------------------------------------

def test_a_record_with_its_own_start_is_named_without_a_possessive_after_a_parenthesis(page, site_url):
    game = Game("lewis-1", position="/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/4tttt3/")
    game.play(str(game.legal_moves()[0]))
    board = open_board(page, f"{site_url}/docs/variants/lewis-1.html")
    board.locator(".tafl-record summary").click()
    board.locator(".tafl-otn").fill(game_to_otn(game))
    board.locator(".tafl-import").click()
    page.wait_for_selector(".tafl-other-variant")
    line = board.locator(".tafl-other-variant").text_content()
    assert ")'s" not in line, line
    assert line.startswith("This board now plays the rules of Lewis's Figure 1 (as printed by Jones), from the start "
                           "position of an imported game record, not this page's variant."), line


# --- N14: share links at their edges ------------------------------------------------------------

def test_a_share_link_for_a_board_the_page_lacks_or_with_an_empty_move_is_said(page, site_url):
    board = open_board(page, f"{site_url}/{BRANDUBH}?board=1&variant=brandubh&moves=d2-e2&utm_source=x", human=None)
    assert status(board) == 'The share link is for board "1", and this page has only one board (number 0): the link was not opened.'
    assert page.evaluate("location.search") == "?utm_source=x"
    board = open_board(page, f"{site_url}/{BRANDUBH}?board=0&moves=,,,", human=None)
    assert status(board).startswith("The share link was refused: its moves field has no move 1 (two commas in a row")
    board = open_board(page, f"{site_url}/{BRANDUBH}?board=0&moves=d2-e2,%20d5-c5", human=None)
    wait_moves(board, 2)


# --- a kiosk ------------------------------------------------------------------------------------

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}


def test_a_kiosk_left_alone_sets_its_board_out_again_at_the_top_and_keeps_one_game(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}/{BRANDUBH}?kiosk=0.1")  # six seconds without a touch
        page.wait_for_selector(READY, timeout=90_000)
        board = page.locator(".tafl-board").first
        for _ in range(2):  # two games, each with a move and the computer's answer
            click(board, "d2-e2")
            wait_moves(board, 2)
            board.locator(".tafl-restart").click()
            wait_moves(board, 0)
        click(board, "d2-e2")
        wait_moves(board, 2)
        assert board.locator(".tafl-games").is_hidden(), "a kiosk lists no games"
        assert len(saved_keys(page)) == 1
        page.evaluate("window.scrollTo(0, 900)")
        started = time.monotonic()
        page.wait_for_function("() => scrollY === 0 && window.tafl.boards[0].state.line.length === 0", timeout=30_000)
        assert time.monotonic() - started > 4, "it waited for the kiosk to be left alone"
        assert status(board) == "Your move (the attackers); the computer plays the defenders (level 3)."
        assert [json.loads(v)["moves"] for v in page.evaluate(
            "() => Object.entries(localStorage).filter(([k]) => k.includes(':g:')).map(([, v]) => v)")] == [[]]
        # another page of the site goes back to the kiosk's page when it is left alone
        page.goto(f"{site_url}/docs/glossary.html")
        page.wait_for_url(f"**/{BRANDUBH}?kiosk=0.1", timeout=30_000)
        page.wait_for_selector(READY, timeout=90_000)
        # ?kiosk=off ends it
        page.goto(f"{site_url}/{BRANDUBH}?kiosk=off")
        page.wait_for_selector(READY, timeout=90_000)
        assert page.evaluate("() => localStorage.getItem('tafl:kiosk')") is None
        assert page.locator(".tafl-board").first.evaluate("b => !window.tafl.boards[0].kiosk")
    finally:
        context.close()
