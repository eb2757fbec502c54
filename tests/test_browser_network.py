"""A first visit that fits a phone, in headless Chromium with the real runtime: each runtime file
is sent once and compressed, the snapshot start fetches no standard library, a slow connection
starts Python from the smaller library, the board shows its loading and keeps a move made on its
picture meanwhile, the page keeps itself for offline use moments after its board is ready (and
comes back offline with no error in the console), and the whole site can be kept at once.

Each test serves the built site with its own recording server (``tafl_sphinx.serve.Sent``): what
it sent is what is checked. Throttled timings are the benchmark's (``bench_board.py --network``),
not asserted here."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tafl_rules import Game
from tafl_sphinx import serve

pytestmark = pytest.mark.browser

READY = '.tafl-board[data-ready="true"]'
PREFIX = "/tawlbwrdd/"
BRANDUBH = "docs/variants/brandubh.html"
RUNTIME = ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide.mjs", "pyodide-lock.json", "tafl-snapshot.bin",
           "tafl-stdlib.zip", "tafl_rules-", "tafl-worker.mjs")


class Site:
    """The built site on a recording server, under a sub-path as a static host would have it."""

    def __init__(self, directory: Path) -> None:
        self.sent = serve.Sent()
        self.server = serve.make_server(str(directory), prefix=PREFIX, handler=self.sent.handler())
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_port}{PREFIX}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def runtime_sent(self, since: float = 0.0) -> list[dict]:
        with self.sent.lock:
            return [r for r in self.sent.responses if r["at"] >= since and any(name in r["path"] for name in RUNTIME)]


@pytest.fixture
def site(site_dir):
    served = Site(site_dir)
    yield served
    served.stop()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


def console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    return errors


def throttle(context, page, mbit: float, latency_ms: float) -> None:
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                  "downloadThroughput": mbit * 1e6 / 8, "uploadThroughput": mbit * 1e6 / 8})


def file_name(response: dict) -> str:
    return response["path"].rsplit("/", 1)[-1].split("?")[0]


def started(context, site, start: str, requested: list[str] | None = None) -> tuple:
    """A page of brandubh whose worker was made to start ``start``, once ready; and its console's errors.
    ``requested`` gathers the addresses the page and its rules worker ask for (not its service worker's)."""
    page = context.new_page()
    errors = console_errors(page)
    if requested is not None:
        page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{site.base}{BRANDUBH}?tafl-start={start}")
    page.wait_for_selector(READY, timeout=120_000)
    assert page.evaluate("window.tafl.boards[0].worker.startedBy") == start
    return page, errors


def test_a_first_visit_sends_each_runtime_file_once_compressed_and_no_library_beside_the_snapshot(context, site):
    requested: list[str] = []
    page, errors = started(context, site, "snapshot", requested)
    before_ready = site.runtime_sent()
    # the library is the service worker's to fetch, in the background once the board is ready (and
    # the server may see that before the test sees the board ready): the page and its rules worker never ask
    names = [file_name({"path": url}) for url in requested]
    assert "tafl-stdlib.zip" not in names and "python_stdlib.zip" not in names, names
    assert "tafl-snapshot.bin" in names, names
    assert not any(name.startswith("tafl_rules-") for name in names), "the snapshot holds the package: no wheel"
    large = {file_name(r): r["encoding"] for r in before_ready if r["status"] == 200}
    assert large["pyodide.asm.wasm"] == "br" and large["tafl-snapshot.bin"] == "br", large
    # the page keeps itself for offline use, and the rest of the runtime comes in the background
    page.wait_for_selector(".tafl-kept", timeout=60_000)
    page.wait_for_function("() => document.documentElement.dataset.taflOffline !== undefined")
    page.wait_for_timeout(1000)
    assert site.sent.sent_twice() == [], "no file is sent whole twice"
    kept = len(site.sent.responses)
    # a later visit takes the whole runtime from the service worker's cache
    page.reload()
    page.wait_for_selector(READY, timeout=90_000)
    with site.sent.lock:
        again = [r["path"] for r in site.sent.responses[kept:] if any(n in r["path"] for n in RUNTIME) and r["status"] == 200]
    assert again == [], again
    assert errors == []


def test_a_fresh_start_fetches_no_snapshot_and_its_library_serves_the_computer_and_the_people_like_player(context, site):
    page, errors = started(context, site, "fresh")
    names = [file_name(r) for r in site.runtime_sent()]
    assert "tafl-stdlib.zip" in names and "python_stdlib.zip" not in names, names
    replies = page.evaluate("""async () => {
        const board = window.tafl.boards[0];
        const out = [];
        for (const level of [1, 3, "people"]) {
            await board.request("new", { variant: "tawlbwrdd-cyningstan" });
            out.push((await board.request("ai_move", { level, seed: 0 })).played);
        }
        out.push((await board.request("export", {})).otn.length > 0);
        return out;
    }""")
    assert len(replies) == 4 and all(replies), replies
    assert errors == []


def test_on_a_slow_connection_python_starts_from_the_library_not_the_snapshot(context, site):
    page = context.new_page()
    throttle(context, page, 1.6, 150)
    page.goto(f"{site.base}{BRANDUBH}", wait_until="commit")
    page.wait_for_function("() => window.tafl?.boards[0]?.worker.progress?.start", timeout=120_000, polling=100)
    assert page.evaluate("window.tafl.boards[0].worker.progress.start") == "fresh"


def test_while_the_runtime_loads_the_board_says_how_far_it_has_come(context, site):
    page = context.new_page()
    throttle(context, page, 8, 40)
    page.add_init_script("""
        window.__said = [];
        new MutationObserver(() => {
            const status = document.querySelector('.tafl-board-status');
            if (status && window.__said.at(-1) !== status.textContent) window.__said.push(status.textContent);
        }).observe(document, { subtree: true, childList: true, characterData: true });
    """)
    # not the load event: throttled beside the other worker's browser, it passed goto's 30 s once
    page.goto(f"{site.base}{BRANDUBH}?tafl-start=snapshot", wait_until="commit")
    page.wait_for_selector(READY, timeout=120_000)
    said = page.evaluate("window.__said")
    import re
    percents = [int(m.group(1)) for text in said if (m := re.search(r"Loading the rules engine… \((\d+) %\)", text))]
    assert len(set(percents)) >= 3 and percents == sorted(percents), said
    assert any("starting Python" in text for text in said), said


def hold_the_webassembly(context) -> list:
    """Keep the runtime's WebAssembly from arriving until the test lets it (``route.continue_()``)."""
    held: list = []
    context.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    return held


def tap_on_picture(page, move: str) -> None:
    board = page.locator(".tafl-board").first
    files = "abcdefg"
    for square in move.split("-"):
        col, rank = files.index(square[0]), int(square[1:])
        board.locator(".tafl-grid.tafl-static > span").nth((7 - rank) * 7 + col).click()


def test_a_move_made_on_the_picture_while_the_rules_load_is_kept_and_played_once_they_are_ready(context, site):
    move = str(Game("brandubh").legal_moves()[0])
    held = hold_the_webassembly(context)
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.base}{BRANDUBH}?tafl-start=snapshot")
    page.wait_for_function("() => window.tafl?.boards?.length === 1")
    tap_on_picture(page, move)
    page.wait_for_function("m => document.querySelector('.tafl-board-status').textContent.includes(`Your move ${m} is kept`)",
                           arg=move, timeout=30_000)
    assert page.locator(".tafl-static .tafl-last").count() == 2
    while not held:
        page.wait_for_timeout(100)
    held[0].continue_()
    page.wait_for_selector(READY, timeout=90_000)
    page.wait_for_function("() => document.querySelectorAll('.tafl-board .tafl-moves button').length >= 1")
    assert page.locator(".tafl-board .tafl-moves button").first.text_content() == move
    assert errors == []


def test_a_move_the_rules_refuse_made_while_they_load_is_refused_in_words(context, site):
    move = "d1-e2"  # an attacker, diagonally onto an empty square
    assert move not in {str(m) for m in Game("brandubh").legal_moves()}
    held = hold_the_webassembly(context)
    page = context.new_page()
    page.goto(f"{site.base}{BRANDUBH}?tafl-start=snapshot")
    page.wait_for_function("() => window.tafl?.boards?.length === 1")
    tap_on_picture(page, move)
    page.wait_for_function("m => document.querySelector('.tafl-board-status').textContent.includes(`Your move ${m} is kept`)",
                           arg=move, timeout=30_000)
    while not held:
        page.wait_for_timeout(100)
    held[0].continue_()
    page.wait_for_selector(READY, timeout=90_000)
    page.wait_for_function("m => document.querySelector('.tafl-board-status').textContent.includes(`Your move ${m} was not played`)",
                           arg=move, timeout=30_000)
    assert page.locator(".tafl-board .tafl-moves button").count() == 0


def test_the_page_keeps_itself_moments_after_its_board_is_ready_and_reloads_offline_with_no_error(context, site):
    page = context.new_page()
    errors = console_errors(page)
    page.goto(f"{site.base}docs/variants/lewis-1.html")
    page.wait_for_selector(READY, timeout=90_000)
    page.wait_for_selector(".tafl-kept", timeout=30_000)  # (about a second: bench_board.py measures it)
    assert "Kept on this device" in page.locator(".tafl-kept").text_content()
    site.stop()  # offline: every request fails
    page.reload()
    page.wait_for_selector(READY, timeout=90_000)
    assert page.locator("h1").first.text_content().startswith("Lewis")
    page.wait_for_timeout(1500)
    assert errors == [], "review N13: an offline reload of a kept page logs no failed request"


def test_the_whole_site_is_kept_at_once_with_progress_and_a_ready_offline_sign(context, site):
    page = context.new_page()
    page.goto(f"{site.base}docs/offline.html")
    status = page.locator("#tafl-keep-all-status")
    page.wait_for_function("() => !document.querySelector('#tafl-keep-all').disabled", timeout=60_000)
    page.evaluate("""() => {
        window.__said = [];
        const status = document.querySelector('#tafl-keep-all-status');
        new MutationObserver(() => window.__said.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
    }""")
    page.locator("#tafl-keep-all").click()
    page.wait_for_selector("#tafl-keep-all-status.tafl-ready-offline", timeout=180_000)
    assert status.text_content().startswith("Ready offline: all")
    assert any("Keeping the whole site on this device:" in text and " of " in text for text in page.evaluate("window.__said"))
    site.stop()
    page.goto(f"{site.base}docs/glossary.html")  # never opened, kept with the whole site
    assert page.locator("h1").first.text_content().startswith("Glossary")
    page.goto(f"{site.base}docs/variants/fetlar.html")  # a board never opened plays offline
    page.wait_for_selector(READY, timeout=90_000)
