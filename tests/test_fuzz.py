"""Property tests over every public entry point, from the fuzz review: whatever comes in,
only the documented errors come out, a refused input changes nothing, and what is
accepted reads back (the inputs and checks are in fuzzing.py; benchmarks/fuzz_counts.py
runs many more of them and prints how each was answered).

The reviewed reproducers are pinned one by one in test_bad_input.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from fuzzing import INPUTS, run


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_only_documented_errors_and_nothing_changed(name):
    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(args=INPUTS[name])
    def check(args):
        run(name, args)

    check()
