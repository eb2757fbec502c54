"""The package ships ``py.typed``, so its annotations are a contract: ``mypy --strict`` passes, and
refuses a program that misspells a rule mode. The Sphinx extension (``docs/_ext/tafl_sphinx``, also
with ``py.typed``) is checked in the same run, to the same level.

The settings are in ``pyproject.toml`` (``[tool.mypy]``: strict, with the one untyped
dependency, Dask's ``distributed``, named). The cache goes to a temporary folder so the
check starts from nothing and leaves nothing in the checkout.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_mypy_strict_passes_on_the_package_and_the_extension_and_rejects_a_misspelt_rule_mode(tmp_path):
    # the Rules fields are typed with the rule modes' names (tafl_rules.modes): a program that
    # misspells one is refused, in the same run that checks the package
    probe = tmp_path / "probe.py"
    probe.write_text("from tafl_rules import Rules\n\nRules(king_capture='linaeus')\nRules(escape='corner')\n",
                     encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-color-output", "--cache-dir",
                             str(tmp_path / "cache"), "tafl_rules", "docs/_ext/tafl_sphinx", str(probe)],
                            cwd=ROOT, capture_output=True, text=True)
    lines = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(lines) == 1 and lines[0].startswith(f"{probe}:3: error") and "linaeus" in lines[0], result.stdout
    assert "Found 1 error in 1 file (checked" in result.stdout, result.stdout  # the package and the extension: none
    checked = int(result.stdout.rsplit("(checked ", 1)[1].split()[0])
    assert checked > len(list((ROOT / "tafl_rules").rglob("*.py"))) + 20, result.stdout  # the extension's modules too
