"""What the browser tests do with a live board: open it, read its status line, click a move."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"
#: A phone as the browser tests hold one (the width the issues measure at).
PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
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


def axe_violations(browser, site_url, paths, scheme, width) -> dict:
    """What axe-core finds on each of ``paths`` in colour ``scheme`` at ``width`` (a phone under 500
    px), once every board of a page accepts moves: ``{path: [(rule, impact, first targets)]}``."""
    phone = width < 500
    context = browser.new_context(color_scheme=scheme, **(PHONE if phone else {"viewport": {"width": width, "height": 900}}))
    page = context.new_page()
    found = {}
    try:
        for path in paths:
            page.goto(f"{site_url}/{path}")
            page.wait_for_function("() => [...document.querySelectorAll('div.tafl-board')].every(b => b.dataset.ready === 'true')",
                                   timeout=90_000)
            assert page.evaluate("() => document.documentElement.dataset.theme") == scheme
            page.add_script_tag(path=str(AXE))
            result = page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
            if result["violations"]:
                found[path] = [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in result["violations"]]
    finally:
        context.close()
    return found
