"""The package ships ``py.typed``, so its annotations are a contract: ``mypy --strict`` passes.

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
def test_mypy_strict_passes_on_the_package(tmp_path):
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-color-output", "--cache-dir", str(tmp_path),
                             "tafl_rules"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found")
