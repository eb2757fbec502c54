"""The proven path: a real Sphinx page, a module worker running Pyodide and tafl_rules, a real click."""

from __future__ import annotations

import pytest

import tafl_rules
from tafl_rules.game import Game

pytestmark = pytest.mark.browser


def _open_home(page, site_url):
    page.goto(f"{site_url}/index.html")
    board = page.locator(".tafl-board").first
    page.wait_for_selector('.tafl-board[data-ready="true"]', timeout=60_000)
    return board


def _highlighted(board) -> list[str]:
    return sorted(board.locator(".tafl-target").evaluate_all("els => els.map(e => e.dataset.square)"))


def test_clicked_piece_shows_the_targets_python_computes(page, site_url):
    board = _open_home(page, site_url)
    expected = Game(tafl_rules.Rules()).legal_targets()
    assert expected["d1"], "the start position must give d1 a move"
    board.locator('[data-square="d1"]').click()
    assert _highlighted(board) == sorted(expected["d1"])
    assert "selected" in board.locator('[data-square="d1"]').get_attribute("aria-label")


def test_every_square_names_its_coordinate_and_piece(page, site_url):
    board = _open_home(page, site_url)
    assert board.locator(".tafl-square").count() == 121
    assert board.locator('[data-square="d1"]').get_attribute("aria-label").startswith("d1, attacker")
    assert board.locator('[data-square="f6"]').get_attribute("aria-label").startswith("f6, king")
    assert board.locator('[data-square="a1"]').get_attribute("aria-label").startswith("a1, empty")


def test_a_move_by_clicking_changes_the_turn(page, site_url):
    board = _open_home(page, site_url)
    board.locator(".tafl-human").select_option("both")  # the computer off: the turn passes to the defenders
    board.locator('[data-square="d1"]').click()
    board.locator('[data-square="d3"]').click()
    status = board.locator(".tafl-board-status")
    page.wait_for_function("() => document.querySelector('.tafl-board-status').textContent.includes('defenders to move')")
    assert "d1-d3" in status.text_content()
    assert board.locator('[data-square="d3"]').get_attribute("aria-label").startswith("d3, attacker")
    assert board.locator(".tafl-moves button").all_text_contents() == ["d1-d3"]


def test_worker_failure_is_shown_in_words(page, site_url):
    page.context.route("**/pyodide/pyodide.mjs", lambda route: route.abort())
    page.goto(f"{site_url}/index.html")
    page.wait_for_selector('.tafl-board[data-ready="error"]', timeout=60_000)
    text = page.locator(".tafl-board-status").text_content()
    assert "could not start" in text
    assert board_squares_absent_or_static(page)
    # The aborted request is expected to be reported in the console; nothing else.
    page.watch.console_errors = [e for e in page.watch.console_errors if "ERR_FAILED" not in e]


def board_squares_absent_or_static(page) -> bool:
    """A failed board never accepts moves: no square is offered as a legal target."""
    return page.locator(".tafl-target").count() == 0


def test_without_the_snapshot_python_starts_the_slow_way(page, site_url):
    page.context.route("**/pyodide/tafl-snapshot.bin", lambda route: route.abort())
    board = _open_home(page, site_url)
    board.locator('[data-square="d1"]').click()
    assert _highlighted(board) == sorted(Game(tafl_rules.Rules()).legal_targets()["d1"])
    page.watch.console_errors = [e for e in page.watch.console_errors if "ERR_FAILED" not in e]


def test_the_snapshot_is_made_from_the_served_wheel(site_dir):
    pyodide = site_dir / "_static" / "pyodide"
    snapshot = pyodide / "tafl-snapshot.bin"
    wheel = next(pyodide.glob("tafl_rules-*.whl"))
    assert snapshot.stat().st_size > 1_000_000
    assert snapshot.stat().st_mtime >= wheel.stat().st_mtime
