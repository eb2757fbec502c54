"""The playable board on every variant page, in headless Chromium with the real Pyodide worker.

Each variant's game is a chosen line (tests/scripted_games.py) played to its outcome by clicking.
The ``page`` fixture fails a test on any console error or any request that leaves 127.0.0.1.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tafl_rules
from tafl_rules.ai import LEVELS
from boards import READY, open_board, status
from scripted_games import scripted_line
from tiny_project import FOLDERS

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
VARIANT_IDS = [v.id for v in tafl_rules.variants()]
#: the share link and a reload are checked on one variant of each board size: what they carry
#: (the variant's id and the moves' square names) differs between variants only by the size
SHARE_CHECKED = {next(v for v in VARIANT_IDS if tafl_rules.variant(v).rules.size == size)
                 for size in {tafl_rules.variant(v).rules.size for v in VARIANT_IDS}}
def moves_shown(board) -> list[str]:
    return board.locator(".tafl-moves button").all_text_contents()


def cursor_shown(board) -> int:
    current = board.locator('.tafl-moves button[aria-current="step"]')
    return int(current.get_attribute("data-ply")) if current.count() else 0


def wait_for_moves(page, count: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('.tafl-board .tafl-moves button').length === n", arg=count)


def click_move(page, board, move: str, expected_count: int) -> None:
    source, target = move.split("-")
    board.locator(f'[data-square="{source}"]').click()
    assert board.locator(f'[data-square="{target}"]').get_attribute("class").find("tafl-target") >= 0, \
        f"{target} is not highlighted after clicking {source}"
    board.locator(f'[data-square="{target}"]').click()
    wait_for_moves(page, expected_count)


def keyboard_move(page, board, move: str, expected_count: int) -> None:
    """Make a move with the keyboard alone: arrows to the piece, Enter, arrows to the target, Enter."""
    board.locator('.tafl-square[tabindex="0"]').focus()
    for square in move.split("-"):
        current = page.evaluate("() => document.activeElement.dataset.square")
        dx = ord(square[0]) - ord(current[0])
        dy = int(square[1:]) - int(current[1:])
        for _ in range(abs(dx)):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        for _ in range(abs(dy)):
            page.keyboard.press("ArrowUp" if dy > 0 else "ArrowDown")
        assert page.evaluate("() => document.activeElement.dataset.square") == square
        page.keyboard.press("Enter")
    wait_for_moves(page, expected_count)


def _off_line_empty_square(variant_id: str, square: str) -> str:
    """An empty square on neither the rank nor the file of ``square``: never a legal target."""
    game = tafl_rules.Game(variant_id)
    files = "abcdefghijklmnopqrs"[:game.size]
    for file in files:
        for rank in range(1, game.size + 1):
            name = f"{file}{rank}"
            if file != square[0] and str(rank) != square[1:] and game.piece_at(name) is None:
                return name
    raise AssertionError("no empty square off the lines")


def _share_link_and_reload_keep(page, board, browser, variant_id: str, played: list[str]):
    """The board's share link opens the same moves in a new browser context; a reload keeps them.
    Returns the board of the reloaded page."""
    board.locator(".tafl-share").click()
    link = board.locator(".tafl-share-link").input_value()
    assert f"variant={variant_id}" in link
    other_context = browser.new_context()
    other = other_context.new_page()
    try:
        other.goto(link)
        other.wait_for_selector(READY, timeout=90_000)
        other_board = other.locator(".tafl-board").first
        assert [m.split("x")[0] for m in moves_shown(other_board)] == list(played)
    finally:
        other_context.close()

    # A reload keeps the game (local storage).
    page.reload()
    page.wait_for_selector(READY, timeout=90_000)
    board = page.locator(".tafl-board").first
    assert [m.split("x")[0] for m in moves_shown(board)] == list(played)
    return board


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_variant_page_board_plays_a_game_to_its_outcome(page, site_url, browser, variant_id):
    line, reason = scripted_line(variant_id)
    url = f"{site_url}/docs/variants/{variant_id}.html"
    board = open_board(page, url)
    size = tafl_rules.variant(variant_id).rules.size
    assert board.locator(".tafl-square").count() == size * size

    # An illegal attempt is refused with the engine's reason, and nothing is played.
    source = line[0].split("-")[0]
    board.locator(f'[data-square="{source}"]').click()
    board.locator(f'[data-square="{_off_line_empty_square(variant_id, source)}"]').click()
    page.wait_for_function("() => document.querySelector('.tafl-board-status').textContent.startsWith('Illegal move')")
    assert "is not along a rank or a file" in status(board), status(board)
    assert moves_shown(board) == []

    # Two moves by clicking, then undo and redo.
    click_move(page, board, line[0], 1)
    click_move(page, board, line[1], 2)
    board.locator(".tafl-undo").click()
    page.wait_for_function("() => document.querySelector('.tafl-moves [aria-current]')?.dataset.ply === '1'")
    assert board.locator(f'[data-square="{line[1].split("-")[1]}"]').get_attribute("aria-label").split(", ")[1] == "empty"
    board.locator(".tafl-redo").click()
    page.wait_for_function("() => document.querySelector('.tafl-moves [aria-current]')?.dataset.ply === '2'")

    # The keyboard alone makes the third move.
    keyboard_move(page, board, line[2], 3)

    # The share link restores the exact game in a new page, and a reload keeps it.
    if variant_id in SHARE_CHECKED:
        board = _share_link_and_reload_keep(page, board, browser, variant_id, line[:3])

    # The rest of the chosen line, by clicking, to the outcome.
    for number, move in enumerate(line[3:], 4):
        click_move(page, board, move, number)
    page.wait_for_function("() => document.querySelector('.tafl-turn').textContent === 'Game over'")
    assert reason in status(board)
    assert board.locator(".tafl-target").count() == 0


def test_drag_and_drop_makes_a_move(page, site_url):
    board = open_board(page, f"{site_url}/docs/variants/copenhagen.html")
    board.locator('[data-square="d1"]').drag_to(board.locator('[data-square="d3"]'))
    wait_for_moves(page, 1)
    assert moves_shown(board) == ["d1-d3"]


def test_flip_keeps_the_names_and_reverses_the_drawing(page, site_url):
    board = open_board(page, f"{site_url}/docs/variants/brandubh.html")
    first = board.locator(".tafl-square").first.get_attribute("data-square")
    board.locator(".tafl-flip").click()
    assert board.locator(".tafl-square").first.get_attribute("data-square") != first
    assert board.locator(".tafl-flip").get_attribute("aria-pressed") == "true"
    assert board.locator('[data-square="d4"]').get_attribute("aria-label").startswith("d4, king")


def test_step_through_the_move_list(page, site_url):
    board = open_board(page, f"{site_url}/docs/variants/copenhagen.html")
    click_move(page, board, "d1-d3", 1)
    click_move(page, board, "e5-e2", 2)
    board.locator('.tafl-moves button[data-ply="1"]').click()
    page.wait_for_function("() => document.querySelector('.tafl-moves [aria-current]')?.dataset.ply === '1'")
    assert board.locator('[data-square="e5"]').get_attribute("aria-label").startswith("e5, defender")
    board.locator('.tafl-moves button[data-ply="2"]').click()
    page.wait_for_function("() => document.querySelector('.tafl-moves [aria-current]')?.dataset.ply === '2'")
    assert board.locator('[data-square="e2"]').get_attribute("aria-label").startswith("e2, defender")


def test_export_and_import_an_otn_record(page, site_url):
    board = open_board(page, f"{site_url}/docs/variants/copenhagen.html")
    click_move(page, board, "d1-d3", 1)
    board.locator(".tafl-record summary").click()
    board.locator(".tafl-export").click()
    page.wait_for_function("() => document.querySelector('.tafl-otn').value.includes('d1-d3')")
    record = board.locator(".tafl-otn").input_value()
    # A bad record is refused with the reason, and the game is kept.
    board.locator(".tafl-otn").fill(record.replace("d1-d3", "d1-e9"))
    board.locator(".tafl-import").click()
    page.wait_for_function("() => document.querySelector('.tafl-board-status').textContent.includes('refused')")
    assert moves_shown(board) == ["d1-d3"]
    # A good record replaces the game.
    board.locator(".tafl-restart").click()
    wait_for_moves(page, 0)
    board.locator(".tafl-otn").fill(record)
    board.locator(".tafl-import").click()
    wait_for_moves(page, 1)
    assert moves_shown(board) == ["d1-d3"]


def test_a_crashed_worker_is_replaced_and_the_game_replayed(page, site_url):
    board = open_board(page, f"{site_url}/docs/variants/copenhagen.html")
    click_move(page, board, "d1-d3", 1)
    click_move(page, board, "e5-e2", 2)
    page.evaluate("() => { window.tafl.worker.worker.terminate(); window.tafl.worker.crashed('simulated crash'); }")
    page.wait_for_function("() => document.querySelector('.tafl-board-status').textContent.includes('replayed')")
    page.wait_for_selector(READY)
    assert moves_shown(board) == ["d1-d3", "e5-e2"]
    click_move(page, board, "h1-h3", 3)


def test_sandbox_restarts_under_the_chosen_toggle_and_shows_otn(page, site_url):
    open_board(page, f"{site_url}/docs/sandbox.html")
    page.wait_for_selector(".tafl-sandbox-toggles select")
    before = page.locator(".tafl-sandbox-otn").text_content()
    assert before.startswith("dim:11")
    menu_11 = page.locator(".tafl-ai option").all_text_contents()
    assert menu_11[:len(LEVELS)] == [_menu_words(n, 11) for n in LEVELS]
    select = page.locator('select[data-toggle="first"]')
    other = [v for v in select.locator("option").evaluate_all("os => os.map(o => o.value)") if v != select.input_value()][0]
    select.select_option(other)
    page.wait_for_function("b => document.querySelector('.tafl-sandbox-otn').textContent !== b", arg=before)
    assert page.locator(".tafl-turn").text_content().lower().startswith(other[:8].lower())
    page.locator(".tafl-sandbox-variant").select_option("brandubh")
    page.wait_for_function("() => document.querySelectorAll('.tafl-square').length === 49")
    assert page.locator(".tafl-sandbox-otn").text_content().startswith("dim:7")
    # the level menu now gives the times measured on 7x7 boards, not the page's 11x11 ones
    menu_7 = page.locator(".tafl-ai option").all_text_contents()
    assert menu_7[:len(LEVELS)] == [_menu_words(n, 7) for n in LEVELS] != menu_11[:len(LEVELS)]


def _menu_words(level: int, size: int) -> str:
    from tafl_sphinx.balance import typical_time
    return f"level {level} ({LEVELS[level].name}, {typical_time(FOLDERS, level, size)})"


@pytest.mark.parametrize("query", [
    "board=0&variant=%3Cscript%3Ealert(1)%3C/script%3E",
    "board=0&variant=copenhagen&toggles=first:%3Cimg%20src=x%20onerror=alert(1)%3E",
    "board=0&variant=copenhagen&moves=d1-d3,%3Cb%3Ebold%3C/b%3E",
    "board=0&variant=copenhagen&evil=%3Csvg%20onload=alert(1)%3E",
    "board=0&variant=no-such-variant",
    "board=0&variant=copenhagen&moves=d1-d9",
])
def test_a_tampered_share_link_never_becomes_html_and_leaves_a_working_board(page, site_url, query):
    page.goto(f"{site_url}/docs/variants/copenhagen.html?{query}")
    page.wait_for_selector(READY, timeout=90_000)
    text = page.locator(".tafl-board-status").text_content()
    if "evil=" in query:
        assert "refused" not in text  # a parameter the board does not use is ignored
    else:
        assert "share link was refused" in text, text
    html = page.evaluate("() => document.querySelector('.tafl-board').innerHTML")
    for marker in ("<script", "<img", "<b>", "<svg", "onerror", "onload"):
        assert marker not in html
    assert page.evaluate("() => document.querySelectorAll('.tafl-board script, .tafl-board img, .tafl-board b').length") == 0


@pytest.mark.parametrize("path", ["docs/variants/tafl-granquist.html", "docs/sandbox.html"])
def test_axe_finds_no_serious_or_critical_violation(page, site_url, path):
    open_board(page, f"{site_url}/{path}")
    page.add_script_tag(path=str(ROOT / "node_modules" / "axe-core" / "axe.min.js"))
    result = page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
    bad = [(v["id"], v["impact"], len(v["nodes"])) for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == [], json.dumps(bad)


def test_the_computer_answers_with_a_legal_move(page, site_url):
    board = open_board(page, f"{site_url}/docs/variants/brandubh.html")
    menu = board.locator(".tafl-ai option").all_text_contents()
    # each level with its typical time on this board's size from the benchmark
    # (docs/data/level-times-browser.json) or its time cap; then the people-like player
    assert len(menu) == len(LEVELS) + 1  # no "off": "You play: both sides" is the computer off
    for text, (n, spec) in zip(menu, LEVELS.items()):
        assert re.fullmatch(rf"level {n} \({spec.name}, (under 0\.1 s|about [\d.]+ s|up to {spec.time_cap:g} s)\)", text), text
    assert menu[-1].startswith("plays as people do")
    board.locator(".tafl-human").select_option("attackers")
    board.locator(".tafl-ai").select_option("1")
    first = scripted_line("brandubh")[0][0]
    board.locator(f'[data-square="{first.split("-")[0]}"]').click()
    board.locator(f'[data-square="{first.split("-")[1]}"]').click()
    # That the page answers input while the worker searches is checked where the search lasts
    # seconds (test_stop_thinking_ends_the_search_and_hands_the_move_back flips the board mid-search).
    wait_for_moves(page, 2)
    page.wait_for_function("() => document.querySelector('.tafl-turn').textContent === 'Attackers to move'")
    reply = moves_shown(board)[1]
    game = tafl_rules.Game("brandubh")
    game.play(first)
    assert reply.split("x")[0] in [str(m) for m in game.legal_moves()]


def test_several_boards_on_a_page_each_have_a_worker_and_keep_their_own_games(page, site_url):
    page.goto(f"{site_url}/docs/compare.html")
    page.wait_for_function("() => { const all = document.querySelectorAll('div.tafl-board');"
                           " return all.length >= 2 && document.querySelectorAll("
                           "'div.tafl-board[data-ready=\"true\"]').length === all.length; }", timeout=90_000)
    assert len(page.workers) == page.locator("div.tafl-board").count()  # one worker per board
    first, second = page.locator("div.tafl-board").nth(0), page.locator("div.tafl-board").nth(1)
    move = scripted_line("lewis-1")[0][0]
    first.locator(f'[data-square="{move.split("-")[0]}"]').click()
    first.locator(f'[data-square="{move.split("-")[1]}"]').click()
    page.wait_for_function("() => document.querySelectorAll('div.tafl-board')[0].querySelectorAll('.tafl-moves button').length === 1")
    assert moves_shown(second) == []
    assert second.locator(".tafl-turn").text_content() == "Attackers to move"


def test_stop_thinking_ends_the_search_and_hands_the_move_back(page, site_url):
    board = open_board(page, f"{site_url}/docs/variants/copenhagen.html")
    board.locator(".tafl-human").select_option("attackers")
    board.locator(".tafl-ai").select_option(str(max(LEVELS)))  # seconds of search on an 11x11 board
    first = scripted_line("copenhagen")[0][0]
    click_move(page, board, first, 1)
    page.wait_for_function("() => document.querySelector('.tafl-board').getAttribute('aria-busy') === 'true'")
    stop = board.locator(".tafl-stop")
    assert stop.is_visible()
    # the page answers input while the worker searches: the board flips at once
    board.locator(".tafl-flip").click()
    assert board.locator(".tafl-flip").get_attribute("aria-pressed") == "true"
    assert board.get_attribute("aria-busy") == "true"
    stop.click()
    page.wait_for_function("() => { const b = document.querySelector('.tafl-board');"
                           " return b.dataset.ready === 'true' && !b.hasAttribute('aria-busy'); }")
    assert not stop.is_visible()
    assert moves_shown(board) == [first]  # the reader's move is kept; the computer made none
    assert board.locator(".tafl-human").input_value() == "both"  # and it stays off until a side is chosen again
    assert "stopped" in status(board)
    game = tafl_rules.Game("copenhagen")
    game.play(first)
    reply = str(next(iter(game.legal_moves())))
    click_move(page, board, reply, 2)  # the reader may now move the defenders too


def test_the_move_lists_headings_fit_the_narrow_desktop_column(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    board = open_board(page, f"{site_url}/docs/variants/copenhagen.html")
    click_move(page, board, "d1-d3", 1)  # the headings show once there is a move
    widths = board.evaluate("""b => { const box = b.querySelector('.tafl-moves-box'), head = b.querySelector('.tafl-moves-head');
        return [box.clientWidth, head.scrollWidth, ...[...head.children].map(s => s.scrollWidth - s.clientWidth)]; }""")
    box, head, *overflow = widths
    assert head <= box and overflow == [0, 0, 0], widths  # "Defenders" is not cut off at the box's edge
