"""Shared fixtures: the built site, a loopback server for it, and headless Chromium.

The browser tests use the real site (built by ``make test`` before pytest runs, or
here if it is missing), the real Pyodide runtime from npm and Debian's chromium.
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

# make_app and SphinxTestApp: the tests that build a tiny project build it in this process
pytest_plugins = ("sphinx.testing.fixtures",)

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="session")
def site_dir() -> Path:
    SITE.parent.mkdir(exist_ok=True)
    with open(SITE.parent / ".site-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # pytest-xdist's workers: one builds, the others wait for it
        if not (SITE / "_static" / "pyodide" / "pyodide-lock.json").is_file():
            subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(ROOT), str(SITE)], check=True)
    return SITE


def _built_from_scratch_and_current(site: Path) -> bool:
    """Whether ``make site`` built ``site`` into an empty folder (it leaves the mark
    ``<site>.from-scratch``) and, by the Makefile's own reckoning, nothing has changed since."""
    if not site.with_name(site.name + ".from-scratch").is_file():
        return False
    try:
        question = subprocess.run(["make", "-q", str((site / ".stamp").relative_to(ROOT))], cwd=ROOT, capture_output=True)
    except OSError:  # no make: build here
        return False
    return question.returncode == 0


@pytest.fixture(scope="session")
def fresh_build(tmp_path_factory) -> Path:
    """A full HTML build of the site from scratch, with warnings as errors, made once per run
    for the tests that read the built pages (test_content) and the runtime beside them
    (test_site_build). The browser tests use ``site_dir``: the build ``make test`` made.

    When that build was itself made into an empty folder (a fresh clone, or after ``make clean``)
    and no source has changed since, it is the same thing, and it is read instead of built again."""
    if _built_from_scratch_and_current(SITE):
        return SITE
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(ROOT), str(out)],
                            capture_output=True, text=True)
    assert result.returncode == 0, f"sphinx -W failed:\n{result.stdout}\n{result.stderr}"
    assert "WARNING" not in result.stderr and "ERROR" not in result.stderr, result.stderr
    return out


@pytest.fixture(scope="session")
def site_url(site_dir):
    from tafl_sphinx.serve import serve_in_thread

    server = serve_in_thread(str(site_dir))
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    try:  # a declared test dependency: missing, the browser tests fail rather than skip unseen
        import playwright.sync_api as playwright_api
    except ImportError as error:
        pytest.fail(f"Playwright is needed for the browser tests (pip install -e '.[test]'): {error}")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Debian's chromium is needed at {CHROMIUM}: apt-get install -y chromium")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


class PageWatch:
    """Console errors and any request that leaves 127.0.0.1, recorded for the test to check."""

    def __init__(self, page):
        self.page = page
        self.console_errors: list[str] = []
        self.foreign_requests: list[str] = []
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.console_errors.append(f"page error: {error}"))
        page.on("request", self._on_request)

    def _on_console(self, message) -> None:
        if message.type == "error":
            self.console_errors.append(message.text)

    def _on_request(self, request) -> None:
        host = urlparse(request.url).hostname
        if request.url.startswith(("data:", "blob:")):
            return
        if host != "127.0.0.1":
            self.foreign_requests.append(request.url)


@pytest.fixture
def page(browser, site_url):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(30_000)
    watch = PageWatch(page)
    page.watch = watch
    yield page
    context.close()
    assert watch.foreign_requests == [], f"requests left 127.0.0.1: {watch.foreign_requests}"
    assert watch.console_errors == [], f"console errors: {watch.console_errors}"
