"""The test harness itself: without Playwright (a declared test dependency) the browser tests
fail, never skip, so that ``make test`` cannot stay green with none of them run."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_a_browser_test_fails_when_playwright_is_missing(tmp_path):
    (tmp_path / "conftest.py").write_text(textwrap.dedent(f"""
        import importlib.util
        import sys
        sys.modules["playwright"] = None  # the import of playwright.sync_api now fails
        spec = importlib.util.spec_from_file_location("suite_conftest", {str(TESTS / "conftest.py")!r})
        suite = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(suite)
        browser = suite.browser  # the suite's own fixture
        """), encoding="utf-8")
    (tmp_path / "test_probe.py").write_text("def test_probe(browser):\n    pass\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                             str(tmp_path / "test_probe.py")], cwd=tmp_path, capture_output=True, text=True)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "1 error" in out and "skipped" not in out, out
    assert "Playwright is needed for the browser tests" in out, out
