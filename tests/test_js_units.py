"""The board script under ``node --test``: what a board shows, saved games, share links, the kiosk,
and a board's game and drawing (tafl-board-game.mjs, tafl-board-view.mjs) without a browser.

The tests themselves are in tests/js/*.test.mjs; they import the modules of ``_static/`` as the
page does, with stand-ins for the browser's storages and lock manager, a happy-dom page (npm,
pinned in package.json) and a fake rules worker (tests/js/harness.mjs) that passes each request
to ``tafl_rules.webapi`` in this Python.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_node_unit_tests_of_the_board_script_pass():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (it also makes the site's Pyodide snapshot)")
    files = sorted(str(p) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert files, "no tests in tests/js"
    env = {**os.environ, "TAFL_PYTHON": sys.executable}
    result = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True, timeout=180, env=env)
    summary = [line for line in result.stdout.splitlines() if line.startswith(("# pass", "# fail"))]
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert summary and summary[-1] == "# fail 0" and int(summary[0].split()[-1]) >= 20, summary
