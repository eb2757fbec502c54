"""Fuzz every public entry point and print how each input was answered.

Run: ``python benchmarks/fuzz_counts.py [--examples N]`` (default 2,000 inputs per entry
point). The inputs and the contract checked for each are in ``tests/fuzzing.py`` (the
suite's property tests, ``tests/test_fuzz.py``, run a few of them): only documented
error types, a refused input changes nothing, and what is accepted reads back. A
"breach" is any other exception or a broken contract; the first of each kind is shown.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from fuzzing import INPUTS, run  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--examples", type=int, default=2000, help="inputs per entry point (default 2,000)")
    parser.add_argument("--only", action="append", default=[], help="run only this entry point (repeatable)")
    args = parser.parse_args(argv)
    print(f"{'entry point':30} {'inputs':>7} {'accepted':>9}  errors by type; breaches")
    breaches_total = 0
    for name in sorted(INPUTS):
        if args.only and name not in args.only:
            continue
        counts: collections.Counter[str] = collections.Counter()
        breaches: dict[str, str] = {}

        @settings(max_examples=args.examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(case=INPUTS[name])
        def fuzz(case):
            try:
                counts[run(name, case)] += 1
            except Exception as error:  # noqa: BLE001 - counted, not raised
                kind = f"{type(error).__name__}: {str(error)[:80]}"
                counts["BREACH"] += 1
                breaches.setdefault(type(error).__name__, f"{kind} <- {case!r:.200}")

        started = time.perf_counter()
        fuzz()
        total = sum(counts.values())
        errors = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k not in ("accepted", "BREACH"))
        print(f"{name:30} {total:7d} {counts['accepted']:9d}  {errors}; breaches {counts['BREACH']}"
              f"  ({time.perf_counter() - started:.0f} s)")
        for detail in breaches.values():
            print(f"    {detail}")
        breaches_total += counts["BREACH"]
    return 1 if breaches_total else 0


if __name__ == "__main__":
    raise SystemExit(main())
