"""The site as an app, in headless Chromium with its real service worker: a page read once comes back,
board and game included, with the server gone; a page never read says it is not kept yet; a new
build replaces an old one without mixing them; the manifest installs an app that opens on the
home page. Every test here serves the site under a sub-path (/tawlbwrdd/), as a static host would.

"Offline" here is the site's own server shut down: every request the browser sends fails."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
READY = '.tafl-board[data-ready="true"]'
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
PREFIX = "/tawlbwrdd/"


def serve(directory: Path):
    from tafl_sphinx.serve import serve_in_thread

    server = serve_in_thread(str(directory), prefix=PREFIX)
    return server, f"http://127.0.0.1:{server.server_port}{PREFIX}"


def stop(server) -> None:
    server.shutdown()
    server.server_close()


def moves_shown(page) -> list[str]:
    return page.locator(".tafl-board .tafl-moves button").all_text_contents()


def click_move(page, move: str, count: int) -> None:
    source, target = move.split("-")
    board = page.locator(".tafl-board").first
    board.locator(".tafl-human").select_option("both")  # these tests move both sides (a board starts against the computer)
    board.locator(f'[data-square="{source}"]').click()
    board.locator(f'[data-square="{target}"].tafl-target').wait_for()
    board.locator(f'[data-square="{target}"]').click()
    page.wait_for_function("n => document.querySelectorAll('.tafl-board .tafl-moves button').length === n", arg=count)


def worker_build(page) -> str:
    """The build the page's rules worker runs (its snapshot's tafl_rules.webapi.BUILD)."""
    return page.evaluate("async () => (await window.tafl.boards[0].request('hello', {})).build")


def page_build(page) -> str:
    return page.evaluate("() => document.querySelector('meta[name=\"tafl-build\"]').content")


@pytest.fixture
def app_context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


def test_a_page_read_once_reloads_with_a_playable_board_and_its_game_when_offline(app_context, site_dir):
    server, base = serve(site_dir)
    page = app_context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{base}docs/variants/lewis-1.html")
        page.wait_for_selector(READY, timeout=90_000)
        click_move(page, "e2-e4", 1)
        page.wait_for_function(CONTROLLED, timeout=120_000)  # the worker took over once it kept the runtime
    finally:
        stop(server)
    page.reload()
    page.wait_for_selector(READY, timeout=90_000)
    assert page.locator("h1").first.text_content().startswith("Lewis")
    assert moves_shown(page) == ["e2-e4"], "the game came back with the page"
    game = __import__("tafl_rules").Game("lewis-1")
    game.play("e2-e4")
    reply = str(next(m for m in game.legal_moves() if not m.captures))
    click_move(page, reply, 2)  # the board plays offline
    # a share link to this page opens offline too (the page is kept without its query)
    page.goto(f"{base}docs/variants/lewis-1.html?board=0&variant=lewis-1&moves=e2-e4")
    page.wait_for_selector(READY, timeout=90_000)
    assert moves_shown(page) == ["e2-e4"]
    # the home page (where the installed app opens) was kept with the first page read
    page.goto(base)
    page.wait_for_selector(READY, timeout=90_000)
    assert page.locator("h1").first.text_content().startswith("Tawlbwrdd")
    assert errors == []


def test_a_page_never_read_says_offline_that_it_is_not_kept_yet_in_the_sites_style(app_context, site_dir):
    server, base = serve(site_dir)
    page = app_context.new_page()
    try:
        page.goto(f"{base}docs/variants/brandubh.html")
        page.wait_for_selector(READY, timeout=90_000)
        page.wait_for_function(CONTROLLED, timeout=120_000)
    finally:
        stop(server)
    page.goto(f"{base}docs/glossary.html")
    assert page.url == f"{base}docs/glossary.html", "the address stays the one asked for (a reload tries it again)"
    assert page.locator("h1").first.text_content().startswith("Not kept for offline reading yet")
    assert "The page at /tawlbwrdd/docs/glossary.html" in page.locator("article").text_content()
    # in the site's style: the theme's stylesheet and layout are there, from the kept files
    assert page.evaluate("() => getComputedStyle(document.querySelector('.bd-sidebar-primary')).display") != "inline"
    assert page.evaluate("() => [...document.styleSheets].some(s => (s.href || '').includes('tafl-site.css'))")
    # it lists the pages kept, which open
    page.wait_for_function("() => document.querySelectorAll('#tafl-stored-pages a').length >= 2")
    kept = page.locator("#tafl-stored-pages a").evaluate_all("as => as.map(a => [a.textContent, a.href])")
    titles = [title for title, _ in kept]
    assert any(title.startswith("Brandubh") for title in titles), titles
    assert any(title.startswith("Tawlbwrdd") for title in titles), titles  # the home page
    assert not any(title.startswith("Not kept") for title in titles), titles  # not this page itself
    page.locator("#tafl-stored-pages a", has_text="Brandubh").first.click()
    page.wait_for_selector(READY, timeout=90_000)
    assert page.url == f"{base}docs/variants/brandubh.html"


def test_the_manifest_opens_the_home_page_with_icons_drawn_from_the_board(app_context, site_dir):
    server, base = serve(site_dir)
    page = app_context.new_page()
    try:
        page.goto(base)
        href = page.evaluate("() => document.querySelector('link[rel=manifest]').href")
        assert href == f"{base}manifest.webmanifest"
        response = page.request.get(href)
        assert response.headers["content-type"] == "application/manifest+json"
        manifest = response.json()
        assert manifest["display"] == "standalone"
        assert manifest["start_url"] == "./index.html" and manifest["scope"] == "./"  # relative: any sub-path
        sizes = set()
        for icon in manifest["icons"]:
            png = page.request.get(f"{base}{icon['src']}").body()
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", png[16:24])
            assert f"{width}x{height}" == icon["sizes"]
            sizes.add((width, icon.get("purpose", "any")))
        assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    finally:
        stop(server)
    # the icon is the home page's board at its start: the build draws it from the same state
    from tafl_sphinx import offline
    assert offline.draw_icon(192) == (site_dir / "_static" / "tafl-icon-192.png").read_bytes()
    ranks = offline._board_ranks()
    assert sum(r.count("t") for r in ranks) == 24 and sum(r.count("K") for r in ranks) == 1


def test_a_worker_never_runs_a_snapshot_of_another_build(browser, site_url):
    """A page whose build is not the snapshot's (the site changed while it was open) says to reload."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()

    def older_page(route):
        body = route.fetch().text()
        route.fulfill(body=re.sub(r'(data-tafl-build="|<meta name="tafl-build" content=")[0-9a-f]+', r"\g<1>0123456789abcdef", body),
                      content_type="text/html")

    try:
        page.route("**/docs/variants/brandubh.html", older_page)
        page.goto(f"{site_url}/docs/variants/brandubh.html")
        page.wait_for_selector('.tafl-board[data-ready="error"]', timeout=60_000)
        status = page.locator(".tafl-board-status").text_content()
        assert "the site was updated while this page was open" in status.lower() and "reload the page" in status, status
        assert page.locator(".tafl-reload").is_visible()
        assert page.locator(".tafl-target").count() == 0
    finally:
        context.close()


def make_new_build(site: Path) -> str:
    """Build 2 from build 1, by the build's own last steps after a real change: the board's style
    and a page's text change, then the runtime is installed, its snapshot made for the new build,
    and the pages stamped and the service worker written (what ``build-finished`` does)."""
    from tafl_sphinx import offline, runtime

    with open(site / "_static" / "tafl-board.css", "a") as css:
        css.write("\n.tafl-board { outline: 0 solid transparent; }  /* build 2 */\n")
    glossary = site / "docs" / "glossary.html"
    glossary.write_text(glossary.read_text().replace("<h1>", "<h1>Build 2: ", 1))
    _lock, build = runtime.install_runtime(site, ROOT / "node_modules" / "pyodide", ROOT / "dist")
    offline.finish_site(site, build, name="Tawlbwrdd: a reconstruction explorer", short_name="Tawlbwrdd")
    return build


@pytest.mark.slow
def test_a_new_build_replaces_an_old_one_without_mixing_and_the_open_tab_keeps_its_game(app_context, site_dir, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(site_dir, site, ignore=shutil.ignore_patterns(".*"))
    server, base = serve(site)
    try:
        page = app_context.new_page()
        page.goto(f"{base}docs/variants/lewis-1.html")
        page.wait_for_selector(READY, timeout=90_000)
        click_move(page, "e2-e4", 1)
        page.wait_for_function(CONTROLLED, timeout=120_000)
        old = page_build(page)
        assert worker_build(page) == old

        new = make_new_build(site)
        assert new != old

        # The open tab learns that an update is waiting, and offers to reload.
        page.evaluate("() => navigator.serviceWorker.getRegistration().then(r => r.update())")
        bar = page.locator(".tafl-update")
        bar.wait_for(timeout=180_000)  # the new worker keeps the new runtime first
        assert "A new version of this site is ready" in bar.text_content()
        # Until then the tab stays on its build: its pages come from the old build's cache...
        other = app_context.new_page()
        other.goto(f"{base}docs/variants/lewis-1.html")
        other.wait_for_selector(READY, timeout=90_000)
        assert page_build(other) == old and worker_build(other) == old
        # ...and a page of the new build (never read, so it comes from the network) runs the new
        # build's snapshot, never the old one the worker keeps.
        other.goto(f"{base}docs/glossary.html")
        assert other.locator("h1").first.text_content().startswith("Build 2")
        other.goto(f"{base}docs/variants/brandubh.html")
        other.wait_for_selector(READY, timeout=90_000)
        assert page_build(other) == new and worker_build(other) == new
        other.goto(base)  # the home page, kept by the old worker: a page of the old build, left open
        other.wait_for_selector(READY, timeout=90_000)
        assert page_build(other) == old

        with page.expect_navigation(timeout=60_000):
            page.locator(".tafl-update-reload").click()
        page.wait_for_selector(READY, timeout=90_000)
        assert page_build(page) == new
        # the other tab, still of the old build, is told too
        other.locator(".tafl-update", has_text="in use in another tab").wait_for(timeout=30_000)
        other.close()
        assert worker_build(page) == new
        assert moves_shown(page) == ["e2-e4"], "the game survived the update"
        caches = page.evaluate("() => caches.keys()")
        assert f"tafl-runtime-{new}" in caches and not any(old in name for name in caches), caches
    finally:
        stop(server)
