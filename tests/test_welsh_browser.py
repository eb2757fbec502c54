"""The Welsh pages in headless Chromium (issue 40): a board of /cy/ plays on a phone with the English
tree's runtime, the language switch keeps the page and the game, a share link opens in either
language, and axe-core finds no violation on the Welsh pages in light and dark mode."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from boards import axe_violations, click_move, open_board, status

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
    found = axe_violations(browser, site_url, AXE_PAGES[:4] if width < 500 else AXE_PAGES, scheme, width)
    assert found == {}, json.dumps(found, indent=1)


#: English words a board says (none of them a Welsh word): one of them in a Welsh board's text, names
#: or menus is a message the Welsh catalogue did not give.
ENGLISH = re.compile(r"\b(the|move|moves|attackers?|defenders?|king|computer|your|you|game|games|level|board|undo|redo|"
                     r"restart|share|link|forget|record|thinking|played|taken|key|how|play|rules|loading|engine|last|"
                     r"empty|and|turn|piece|square|throne|corner|wins?|won|lost|stop|export|import|retry)\b", re.I)


def board_words(board) -> str:
    """Everything the board says: its text, its controls' and squares' names, its menus' choices."""
    return board.evaluate("""b => [b.innerText, ...[...b.querySelectorAll('[aria-label]')].map(n => n.getAttribute('aria-label')),
        ...[...b.querySelectorAll('option')].map(o => o.textContent)].join('\\n')""")


def test_a_game_on_a_welsh_page_at_phone_width_says_nothing_in_english(browser, site_url):
    """Brandubh on /cy/ at 375x740: the reader plays the attackers against the computer (the board as
    a reader finds it), asks about a piece that may not move (the engine's refusal), and plays three
    moves; every word the board shows on the way, and its picture before the engine is ready, is Welsh."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        url = f"{site_url}/cy/docs/variants/brandubh.html"
        picture = page.request.get(url).text()
        static = BeautifulSoup(picture, "html.parser").select_one("div.tafl-board")
        before = " ".join([static.get_text(" ")] + [n["aria-label"] for n in static.select("[aria-label]")
                                                    if n.get("role") != "region"])
        assert not ENGLISH.search(before), before
        board = open_board(page, url, human=None)
        said = [status(board)]
        board.locator('[data-square="d5"]').click()  # a defender, on the attackers' turn
        page.wait_for_function("b => b.querySelector('.tafl-board-status').textContent.includes('d5')", arg=board.element_handle())
        said.append(status(board))
        for number in range(1, 4):
            move = page.evaluate("""() => { const s = window.tafl.boards[0].state;
                const from = Object.keys(s.legal).sort().find(q => s.legal[q].length); return `${from}-${s.legal[from][0]}`; }""")
            click_move(board, move)
            said.append(status(board))
            page.wait_for_function("""([b, n]) => { const g = window.tafl.boards[0];
                return g.state.line.length >= n && !g.thinking && b.dataset.ready === 'true'; }""",
                                   arg=[board.element_handle(), 2 * number], timeout=90_000)
            said.append(status(board))
        assert "Chwaraeodd y cyfrifiadur" in said[-1], said
        words = "\n".join(said) + "\n" + board_words(board).replace("Brandubh", "")
        assert not ENGLISH.search(words), ENGLISH.findall(words)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    finally:
        context.close()


def test_a_welsh_page_read_once_comes_back_offline_and_one_never_read_says_so_in_welsh(browser, site_dir):
    """The service worker keeps the Welsh pages a reader opened (with the Welsh tree's own files), and
    answers a Welsh page never opened, offline, with the Welsh page that says it is not kept yet."""
    from tafl_sphinx.serve import serve_in_thread

    server = serve_in_thread(str(site_dir), prefix="/tawlbwrdd/")
    base = f"http://127.0.0.1:{server.server_port}/tawlbwrdd/"
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        board = open_board(page, f"{base}cy/docs/variants/brandubh.html")
        play(board, "d2-c2")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=120_000)
        kept = """async () => {
            const cache = await caches.open(`tafl-site-${document.querySelector('meta[name="tafl-version"]').content}`);
            return Boolean(await cache.match(new URL("../not-kept.html", location.href).href)); }"""
        for _ in range(60):
            if page.evaluate(kept):
                break
            page.wait_for_timeout(500)
        assert page.evaluate(kept), "the Welsh page for a page not kept yet was kept with the first Welsh page"
    finally:
        server.shutdown()
        server.server_close()
    try:
        page.reload()
        board = open_board(page, page.url)
        assert page.evaluate("() => document.documentElement.lang") == "cy"
        assert moves_shown(board) == ["d2-c2"], "the game came back with the Welsh page, offline"
        assert board.locator(".tafl-undo").text_content() == "Dadwneud"
        page.goto(f"{base}cy/docs/glossary.html")
        assert page.url == f"{base}cy/docs/glossary.html"
        assert page.evaluate("() => document.documentElement.lang") == "cy"
        assert page.locator("h1").first.text_content().startswith("Heb ei chadw i'w darllen all-lein eto")
        assert "Y dudalen yn /tawlbwrdd/cy/docs/glossary.html" in page.locator("article").text_content()
        assert page.locator("#tafl-try-again").text_content() == "Ceisio eto"
    finally:
        context.close()


def test_a_kiosk_on_a_welsh_page_sets_its_board_out_again_and_speaks_welsh(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        board = open_board(page, f"{site_url}/cy/docs/variants/brandubh.html?kiosk=0.1", human=None)
        click_move(board, "d2-e2")
        page.wait_for_function("() => window.tafl.boards[0].state.line.length === 2 && !window.tafl.boards[0].thinking",
                               timeout=90_000)
        assert board.locator(".tafl-games").is_hidden(), "a kiosk lists no games"
        page.wait_for_function("() => window.tafl.boards[0].state.line.length === 0", timeout=30_000)
        assert status(board) == "Eich symudiad chi (yr ymosodwyr); mae'r cyfrifiadur yn chwarae'r amddiffynwyr (lefel 3)."
        page.goto(f"{site_url}/cy/docs/glossary.html")  # another page goes back to the kiosk's page
        page.wait_for_url("**/cy/docs/variants/brandubh.html?kiosk=0.1", timeout=30_000)
        page.goto(f"{site_url}/cy/docs/variants/brandubh.html?kiosk=off")
        page.wait_for_selector('.tafl-board[data-ready="true"]', timeout=90_000)
    finally:
        context.close()


def test_a_worker_that_cannot_start_says_so_in_welsh_on_a_welsh_page(page, site_url):
    """The worker's own failures (tafl-worker.mjs: it has no page to read the catalogue from) reach
    the board as messages, which the page says in its language; the English page as before."""
    page.context.route("**/pyodide/pyodide.mjs", lambda route: route.abort())
    for path, said, not_said in (("cy/index.html", "Ni allai Python gychwyn", "could not start"),
                                 ("index.html", "Python could not start", "Ni allai")):
        page.goto(f"{site_url}/{path}")
        page.wait_for_selector('.tafl-board[data-ready="error"]', timeout=60_000)
        text = page.locator(".tafl-board-status").text_content()
        assert said in text and not_said not in text, text


def test_the_welsh_rules_sandbox_names_the_layouts_toggles_and_readings_in_welsh(page, site_url):
    """The sandbox's menus come from the catalogue through the worker; on /cy/ the board script says
    each name from the page's catalogue (catalogueWords), and a reading chosen still restarts the board."""
    from tafl_rules.catalogue import variants
    from tafl_rules.messages import catalogue
    english = {v.name for v in variants()} | {t.label for v in variants() for t in v.toggles.values()} | \
        {r.label for v in variants() for t in v.toggles.values() for r in t.readings.values()}
    english -= {words for words in english if catalogue("cy").get(words) == words}  # a name Welsh keeps (Brandubh)
    open_board(page, f"{site_url}/cy/docs/sandbox.html")
    page.wait_for_selector(".tafl-sandbox-live .tafl-sandbox-toggles select")
    page.locator(".tafl-sandbox-variant").select_option("lewis-1")
    page.wait_for_selector("select[data-toggle='king_armed']")
    shown = page.evaluate("""() => [...document.querySelectorAll('.tafl-sandbox-form label, .tafl-sandbox-form option')]
                                  .map((e) => e.textContent.trim().replace(/:$/, ''))""")
    assert len(shown) > 20 and "Arfog: mae'r brenin yn cipio fel unrhyw ŵr" in shown
    assert [words for words in shown if words in english] == []
    before = page.locator(".tafl-sandbox-otn").text_content()
    page.locator("select[data-toggle='king_armed']").select_option("yes")
    page.wait_for_function("b => document.querySelector('.tafl-sandbox-otn').textContent !== b", arg=before)
