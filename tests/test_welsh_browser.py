"""The Welsh pages in headless Chromium (issue 40): a board of /cy/ plays on a phone with the English
tree's runtime, the language switch keeps the page and the game, a share link opens in either
language, and axe-core finds no violation on the Welsh pages in light and dark mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boards import click_move, open_board

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
AXE_PAGES = ["cy/index.html", "cy/docs/playing.html", "cy/docs/glossary.html", "cy/docs/variants/lewis-1.html",
             "cy/docs/offline.html", "cy/docs/fairest.html", "cy/sources/ap-ifan.html"]


def moves_shown(board) -> list[str]:
    return [m.split("x")[0] for m in board.locator(".tafl-moves button").all_text_contents()]


def play(board, move: str) -> None:
    before = board.locator(".tafl-moves button").count()
    click_move(board, move)
    board.page.wait_for_function("([b, n]) => b.querySelectorAll('.tafl-moves button').length === n && b.dataset.ready === 'true'",
                                 arg=[board.element_handle(), before + 1], timeout=60_000)


def test_a_welsh_variant_page_on_a_phone_plays_a_move_with_the_english_trees_runtime(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    worker_urls: list[str] = []
    page.on("worker", lambda worker: worker_urls.append(worker.url))
    failed: list[str] = []
    page.on("response", lambda response: failed.append(response.url) if response.status >= 400 else None)
    try:
        board = open_board(page, f"{site_url}/cy/docs/variants/lewis-1.html")
        assert page.evaluate("() => document.documentElement.lang") == "cy"
        play(board, "e2-e3")
        assert moves_shown(board) == ["e2-e3"]
        assert worker_urls and all(url.startswith(f"{site_url}/_static/tafl-worker.mjs") for url in worker_urls), worker_urls
        assert failed == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375, "the Welsh page fits a phone"
    finally:
        context.close()


def test_the_language_switch_keeps_the_page_and_the_game_both_ways(page, site_url):
    board = open_board(page, f"{site_url}/docs/variants/lewis-1.html#rules-in-plain-words")
    play(board, "e2-e3")
    page.click("nav.tafl-language a[hreflang='cy']")
    page.wait_for_url(f"{site_url}/cy/docs/variants/lewis-1.html#rules-in-plain-words")
    board = open_board(page, page.url)
    assert moves_shown(board) == ["e2-e3"], "the Welsh page opens the game played on the English one"
    play(board, "f9-h9")
    page.click("nav.tafl-language a[hreflang='en']")
    page.wait_for_url(f"{site_url}/docs/variants/lewis-1.html#rules-in-plain-words")
    board = open_board(page, page.url)
    assert moves_shown(board) == ["e2-e3", "f9-h9"], "and the English page the game played on the Welsh one"


def test_a_share_link_made_in_one_language_opens_in_the_other(browser, site_url):
    context = browser.new_context()
    try:
        english = context.new_page()
        board = open_board(english, f"{site_url}/docs/variants/lewis-1.html")
        play(board, "e2-e3")
        link = english.evaluate("() => window.tafl.boards[0].shareURL()")
        assert link.startswith(f"{site_url}/docs/variants/lewis-1.html?board=0&")
        query = link.split("?", 1)[1]
        welsh = browser.new_context().new_page()  # a reader who never opened the English page
        board = open_board(welsh, f"{site_url}/cy/docs/variants/lewis-1.html?{query}")
        assert moves_shown(board) == ["e2-e3"]
        welsh.context.close()
    finally:
        context.close()


@pytest.mark.parametrize("scheme, width", [("light", 1280), ("dark", 1280), ("light", 375), ("dark", 375)])
def test_axe_finds_no_violation_on_the_welsh_pages(browser, site_url, scheme, width):
    phone = width < 500
    context = browser.new_context(color_scheme=scheme, **(PHONE if phone else {"viewport": {"width": width, "height": 900}}))
    page = context.new_page()
    found = {}
    try:
        for path in AXE_PAGES[:4] if phone else AXE_PAGES:
            page.goto(f"{site_url}/{path}")
            if page.locator(".tafl-board").count():
                page.wait_for_selector('.tafl-board[data-ready="true"]', timeout=90_000)
            assert page.evaluate("() => document.documentElement.dataset.theme") == scheme
            page.add_script_tag(path=str(ROOT / "node_modules" / "axe-core" / "axe.min.js"))
            result = page.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
            if result["violations"]:
                found[path] = [(v["id"], v["impact"], [n["target"] for n in v["nodes"][:3]]) for v in result["violations"]]
    finally:
        context.close()
    assert found == {}, json.dumps(found, indent=1)
