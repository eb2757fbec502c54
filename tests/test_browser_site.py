"""The site as readers meet it: the front door, a deployment under a sub-path, the 404 page, no
sideways scrolling on a phone, tap targets, and axe-core in light and dark mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boards import axe_violations

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
READY = '.tafl-board[data-ready="true"]'
PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
AXE_PAGES = ["index.html", "sources/ap-ifan.html", "docs/variants/lewis-1.html", "docs/compare.html",
             "docs/sandbox.html", "docs/matrix.html", "docs/fairest.html"]


@pytest.fixture(scope="module")
def subpath_url(site_dir):
    """The built site served as a static host would serve it under https://example.org/tawlbwrdd/."""
    from tafl_sphinx.serve import serve_in_thread

    server = serve_in_thread(str(site_dir), prefix="/tawlbwrdd/")
    yield f"http://127.0.0.1:{server.server_port}/tawlbwrdd/"
    server.shutdown()


def built_pages(site_dir: Path) -> list[str]:
    return sorted(str(p.relative_to(site_dir)) for p in site_dir.rglob("*.html")
                  if not {"_static", "_sources", "_modules"} & set(p.parts)
                  and 'http-equiv="refresh"' not in p.read_text(errors="replace")[:2000])  # moved-page notes


def ready_boards(page) -> None:
    page.wait_for_function("() => [...document.querySelectorAll('div.tafl-board')].every(b => b.dataset.ready === 'true')",
                           timeout=90_000)


# --- the front door ---------------------------------------------------------------------------

def test_the_address_make_serve_prints_opens_the_home_page(page, site_url):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site_url}/")
    assert page.locator("h1").first.text_content().startswith("Tawlbwrdd")
    assert page.locator(".tafl-board .tafl-static, .tafl-board .tafl-grid").count() >= 1
    # One glance: what it is, what is known and not, where to start, and the board, all on the
    # first screen of a desktop browser.
    tops = page.evaluate("""() => {
        const article = document.querySelector('article');
        const find = (words) => [...article.querySelectorAll('p, strong')].find(e => e.textContent.startsWith(words));
        const top = (e) => e ? e.getBoundingClientRect().top : null;
        return { lead: top(find('Tawlbwrdd is the Welsh')), known: top(find('What is known')), unknown: top(find('What is not')),
                 start: top(find('Where to start')), board: top(article.querySelector('.tafl-board .tafl-frame')) };
    }""")
    assert all(top is not None and top < 900 for top in tops.values()), tops
    links = page.locator(".tafl-start-here a").evaluate_all("as => as.map(a => a.textContent)")
    for words in ("Read the sources", "Compare the reconstructions", "Play them"):
        assert words in links, links


def test_under_a_sub_path_every_part_loads_relative_to_the_page_and_a_move_plays(page, subpath_url):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(subpath_url)
    page.wait_for_selector(READY, timeout=90_000)
    board = page.locator(".tafl-board").first
    board.locator('[data-square="d1"]').click()
    board.locator('[data-square="d3"]').click()
    page.wait_for_function("() => document.querySelectorAll('.tafl-moves button').length === 1")
    assert all("/tawlbwrdd/" in url for url in requests if url.startswith("http")), \
        [url for url in requests if "/tawlbwrdd/" not in url]
    for part in ("tafl-worker.mjs", "pyodide.asm.wasm", "tafl-snapshot.bin", "tafl-site.css"):
        assert any(part in url for url in requests), part
    # every link on the page stays inside the site
    hrefs = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
    assert all(h.startswith(subpath_url) for h in hrefs if h.startswith("http://127.0.0.1")), hrefs


def test_a_missing_page_gets_the_sites_404_page_in_its_style_at_any_depth(page, subpath_url):
    response = page.goto(f"{subpath_url}docs/variants/no-such-page.html")
    assert response.status == 404
    assert page.locator("h1").first.text_content().startswith("Page not found")
    # the theme's stylesheet loaded (its layout is there) and the links lead into the site
    assert page.evaluate("() => getComputedStyle(document.querySelector('.bd-sidebar-primary')).display") != "inline"
    home = page.locator("article a", has_text="home page").first.evaluate("a => a.href")
    assert home == f"{subpath_url}index.html"
    page.watch.console_errors = [e for e in page.watch.console_errors if "404" not in e]


def test_the_old_home_address_leads_to_the_home_page(page, site_url):
    page.goto(f"{site_url}/docs/index.html")
    page.wait_for_url(f"{site_url}/index.html")


# --- phones ---------------------------------------------------------------------------------

def test_no_built_page_scrolls_sideways_on_a_phone(browser, site_url, site_dir):
    context = browser.new_context(**PHONE)
    context.route("**/tafl-worker.mjs*", lambda route: route.abort())  # the board's picture has the same size
    page = context.new_page()
    wide = {}
    try:
        for name in built_pages(site_dir):
            page.goto(f"{site_url}/{name}", wait_until="load")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > 375:
                wide[name] = width
            cut = page.evaluate(STICKING_OUT)
            if cut:
                wide[name] = cut
    finally:
        context.close()
    assert wide == {}, wide


# Elements reaching past the right edge of the screen, other than inside a box that scrolls or
# clips them within the screen (a page that hides its overflow would cut them off, not scroll).
STICKING_OUT = """() => {
    const edge = document.documentElement.clientWidth + 1;
    const out = [];
    for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.right <= edge || getComputedStyle(e).visibility === 'hidden') continue;
        let box = e.parentElement, held = false;
        while (box && box !== document.body) {
            if (getComputedStyle(box).overflowX !== 'visible' && box.getBoundingClientRect().right <= edge) { held = true; break; }
            box = box.parentElement;
        }
        if (!held) out.push(`${e.tagName.toLowerCase()}.${e.classList[0] || ''} reaches ${Math.round(r.right)} px`);
    }
    return out.slice(0, 3);
}"""


@pytest.mark.parametrize("path", ["docs/sandbox.html", "docs/variants/alea-evangelii.html", "docs/compare.html"])
def test_live_boards_fit_a_phone_and_every_square_and_control_is_big_enough_to_tap(browser, site_url, path):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}/{path}")
        ready_boards(page)
        if "sandbox" in path:
            page.wait_for_selector(".tafl-sandbox-toggles select")
        assert page.evaluate("() => document.documentElement.scrollWidth") == 375
        assert page.evaluate(STICKING_OUT) == []
        small = page.evaluate("""() => [...document.querySelectorAll(
              '.tafl-board button, .tafl-board select, .tafl-board summary, .tafl-sandbox select')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.className || e.tagName, e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 24 || r.height < 24)
            .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
        assert small == [], small
        # A board wider than the phone (19x19 at 24 px a square) scrolls in its own box, and says so.
        wide = "alea" in path
        hint = page.locator(".tafl-scroll-hint").first
        assert hint.is_visible() == wide
        if wide:
            assert "swipe it sideways" in hint.text_content()
            box = page.locator(".tafl-scroll").first
            assert box.evaluate("b => b.scrollWidth > b.clientWidth")
            box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
            page.locator('.tafl-board [data-square="s1"]').first.click()  # the far side can be reached
    finally:
        context.close()


def test_wide_tables_scroll_in_their_own_box_on_a_phone(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}/docs/fairest-levels.html")
        boxes = page.evaluate("""() => [...document.querySelectorAll('article table')].map(t => {
            const box = t.closest('.pst-scrollable-table-container');
            return [Boolean(box), box ? box.scrollWidth > box.clientWidth : false, box ? getComputedStyle(box).overflowX : ''];
        })""")
        assert boxes and all(has_box for has_box, _, _ in boxes)
        assert any(scrolls for _, scrolls, _ in boxes), "some table is wider than a phone and scrolls in its box"
        assert all(overflow == "auto" for _, _, overflow in boxes)
        assert page.evaluate("() => document.documentElement.scrollWidth") == 375
    finally:
        context.close()


def test_the_level_chart_keeps_a_legible_size_on_a_phone_and_scrolls_in_its_own_box(browser, site_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{site_url}/docs/fairest-level3.html")
        chart = page.evaluate("""() => {
            const box = document.querySelector('.balance-level-chart-box');
            const svg = box.querySelector('svg');
            return {svg: svg.getBoundingClientRect().width, box: box.clientWidth, scroll: box.scrollWidth,
                    focusable: box.tabIndex === 0, name: box.getAttribute('aria-label')};
        }""")
        assert chart["svg"] >= 560 and chart["scroll"] > chart["box"], chart  # not shrunk to the phone's width
        assert chart["focusable"] and chart["name"], chart  # the keyboard can scroll it; it is named
        assert page.evaluate("() => document.documentElement.scrollWidth") == 375
    finally:
        context.close()


FAIREST_PAGES = ["docs/fairest.html", "docs/fairest-player.html", "docs/fairest-error.html", "docs/fairest-runs.html",
                 "docs/fairest-levels.html",
                 "docs/fairest-levels-jones.html", "docs/fairest-level3.html", "docs/fairest-ladder.html",
                 "docs/fairest-levels-people.html"]
#: the smallest size, in CSS px, at which any chart's text is drawn on the page
SMALLEST_CHART_TEXT = """() => Math.min(99, ...[...document.querySelectorAll('article svg text')].filter(t => {
        const box = t.getBoundingClientRect(); return box.width > 0 && box.height > 0;
    }).map(t => {
        const svg = t.closest('svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return parseFloat(getComputedStyle(t).fontSize) * scale;
    }))"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 375])
def test_every_chart_of_the_fairest_pages_is_legible(browser, site_url, width, scheme):
    phone = width < 500
    context = browser.new_context(color_scheme=scheme, **(PHONE if phone else {"viewport": {"width": width, "height": 900}}))
    page = context.new_page()
    try:
        for path in FAIREST_PAGES:
            page.goto(f"{site_url}/{path}")
            assert page.evaluate(SMALLEST_CHART_TEXT) >= 11, path
            assert page.evaluate("() => document.documentElement.scrollWidth") == width, path
            # the charts' ink follows the page's mode: their text is never the colour of the page behind it
            colours = page.evaluate("""() => [...document.querySelectorAll('article svg text')].slice(0, 3).map(
                t => [getComputedStyle(t).fill, getComputedStyle(t).color, getComputedStyle(document.body).backgroundColor])""")
            assert all(colour != background for _fill, colour, background in colours), (path, colours)
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 375, "height": 740}])
def test_the_fairest_page_gives_its_answer_and_its_chart_on_the_first_screen(browser, site_url, viewport):
    phone = viewport["width"] < 500
    context = browser.new_context(**(PHONE if phone else {"viewport": viewport}))
    page = context.new_page()
    try:
        page.goto(f"{site_url}/docs/fairest.html")
        first = page.evaluate("""() => {
            const article = document.querySelector('article');
            const answer = [...article.querySelectorAll('p')].slice(0, 2);
            const chart = [...article.querySelectorAll('.people-chart-wide, .people-chart-narrow')]
                .find(box => getComputedStyle(box).display !== 'none');
            const words = answer.map(p => p.innerText).join(' ').split(/\\s+/).filter(Boolean).length;
            return {answerBottom: Math.max(...answer.map(p => p.getBoundingClientRect().bottom)), words,
                    chartTop: chart.getBoundingClientRect().top, chartBottom: chart.getBoundingClientRect().bottom,
                    names: [...chart.querySelectorAll('text')].map(t => t.textContent).join(' ')};
        }""")
        assert first["words"] <= 150, first
        assert first["answerBottom"] <= viewport["height"], first
        # the chart: whole on a desktop's first screen, begun on a phone's (its rows scroll on)
        assert first["chartTop"] < viewport["height"] - (0 if not phone else 150), first
        if not phone:
            assert first["chartBottom"] <= viewport["height"], first
        assert "Lewis's Figure 1" in first["names"] and "lewis-1" not in first["names"], first
    finally:
        context.close()


# --- axe-core, light and dark ----------------------------------------------------------------

@pytest.mark.parametrize("scheme, width", [("light", 1280), ("dark", 1280), ("light", 375), ("dark", 375)])
def test_axe_finds_no_violation_of_any_impact(browser, site_url, scheme, width):
    paths = AXE_PAGES[:3] + AXE_PAGES[4:5] if width < 500 else AXE_PAGES  # on a phone: home, source, variant, sandbox
    found = axe_violations(browser, site_url, paths, scheme, width)
    assert found == {}, json.dumps(found, indent=1)


# --- print ------------------------------------------------------------------------------------

def test_printing_a_variant_page_keeps_the_text_and_board_drops_the_controls_and_is_light(page, site_url):
    page.emulate_media(color_scheme="dark")
    page.goto(f"{site_url}/docs/variants/lewis-1.html")
    ready_boards(page)
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    page.emulate_media(media="print", color_scheme="dark")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'light'")  # paper is white
    shown = page.evaluate("""() => Object.fromEntries(['.bd-sidebar-primary', '.bd-header-article', '.tafl-controls',
        '.tafl-players', '.tafl-moves', '.tafl-grid', '#jb-print-docs-body h1'].map(s => {
          const e = document.querySelector(s);
          return [s, !!e && e.offsetParent !== null && getComputedStyle(e).display !== 'none'];
        }))""")
    assert shown == {".bd-sidebar-primary": False, ".bd-header-article": False, ".tafl-controls": False,
                     ".tafl-players": False, ".tafl-moves": False, ".tafl-grid": True, "#jb-print-docs-body h1": True}, shown
    assert page.pdf(format="A4")[:4] == b"%PDF"
    page.emulate_media(media="screen", color_scheme="dark")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
