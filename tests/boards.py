"""What the browser tests do with a live board: open it, read its status line, click a move."""

from __future__ import annotations

READY = '.tafl-board[data-ready="true"]'


def open_board(page, url, index=0, human="both"):
    """Go to ``url`` and return its board number ``index`` once a board of the page accepts moves.

    A board starts with the computer playing the side not to move; ``human`` (here "both" by
    default, the computer off, for tests that move both sides) is then chosen under *You play*
    (``None``: the board as a reader finds it)."""
    page.goto(url)
    page.wait_for_selector(READY, timeout=90_000)
    board = page.locator(".tafl-board").nth(index)
    if human and board.locator(".tafl-human").input_value() != human:
        board.locator(".tafl-human").select_option(human)
    return board


def status(board) -> str:
    return board.locator(".tafl-board-status").text_content()


def click_move(board, move: str) -> None:
    """Click the move's square, wait for its target to light up, and click that."""
    source, target = move.split("x")[0].split("-")
    board.locator(f'[data-square="{source}"]').click()
    board.locator(f'[data-square="{target}"].tafl-target').wait_for()
    board.locator(f'[data-square="{target}"]').click()
