"""Every example in every module's docstrings runs, as python-chess runs its own.

A module's examples are its documentation of how to call it; one that no longer runs
is documentation that lies.
"""

import doctest
import importlib
import pkgutil

import pytest

import tafl_rules

MODULES = ["tafl_rules"] + sorted(m.name for m in pkgutil.walk_packages(tafl_rules.__path__, "tafl_rules.")
                                  if not m.name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_the_module_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_examples_cover_the_public_modules():
    counts = {name: doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS).attempted
              for name in MODULES}
    print(f"\n{sum(counts.values())} doctest examples: {counts}")
    for name in ("tafl_rules", "tafl_rules.game", "tafl_rules.otn", "tafl_rules.position", "tafl_rules.catalogue",
                 "tafl_rules.engine", "tafl_rules.ai", "tafl_rules.squares", "tafl_rules.outcome", "tafl_rules.rules",
                 "tafl_rules.errors", "tafl_rules.svg"):
        assert counts[name] > 0, name
