"""The linter: ruff's pyflakes checks (``F``: undefined names, unused imports and variables, f-strings
with nothing to fill in) find nothing in the package, the Sphinx extension or the benchmarks.

A script that nothing imports, such as a benchmark, can carry a name that no longer exists for months
(``benchmarks/train_people.py`` did: ``NameError: mf`` after a refactor); the linter reads every file.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("tafl_rules", "docs/_ext", "benchmarks")


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "F",
                           "--output-format", "concise", *args], cwd=ROOT, capture_output=True, text=True)


def test_the_linter_finds_nothing_in_the_package_the_extension_and_the_benchmarks():
    result = ruff(*CHECKED)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_linter_finds_an_undefined_name(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    return mf.of_position(None)\n", encoding="utf-8")
    result = ruff(str(probe))
    assert result.returncode == 1 and "F821 Undefined name `mf`" in result.stdout, result.stdout
