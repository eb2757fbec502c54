"""Mutation testing of the rules package: ``make mutants`` (not part of ``make test``).

mutmut (pinned in pyproject.toml's ``mutation`` extra) makes every small mutant of a
module (``<`` for ``<=``, ``and`` for ``or``, a number off by one, an argument dropped,
a string changed...) and runs, for each one, the tests that call the function it is
in; a mutant the tests still pass is a bug they would let through. Each of the five
modules is run in its own scratch folder (``_build/mutants/<module>``) with its own
fast selection of tests, so that a mutant is judged by the tests written for its
module, in seconds rather than by the whole suite.

Usage::

    python tests/mutation/run.py [MODULE ...]            # run (resumes: finished mutants are kept)
    python tests/mutation/run.py --fresh MODULE          # forget earlier results and start again
    python tests/mutation/run.py --recheck MODULE        # run the module's survivors (and untested) again
    python tests/mutation/run.py --report                # only write the report again
    python tests/mutation/run.py engine:tafl_rules/engine/capture.py   # some files of a module only

The report, ``tests/mutation/report.md``, counts the mutants made, killed and survived
per module, with every survivor named, shown and either argued equivalent (the
arguments are kept in ``tests/mutation/equivalent.toml``, by mutant) or marked open. What was
run and found, in words, is kept per module in ``tests/mutation/notes.toml`` and shown under the
module's heading.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
WORK = ROOT / "_build" / "mutants"  # (not build/: the Makefile empties that for each wheel)
REPORT = HERE / "report.md"
RESULTS = HERE / "results.json"
EQUIVALENT = HERE / "equivalent.toml"
#: survivors that change behaviour but that no test can see while mutmut runs it (a warning's
#: stacklevel: mutmut's trampoline is one frame more), with the test that checks them outside it
UNTESTABLE = HERE / "untestable.toml"
NOTES = HERE / "notes.toml"  # module -> what was run and found, in words (Markdown), shown under its heading

@dataclass
class Module:
    name: str
    mutate: list[str]
    tests: list[str]
    deselect: list[str] = field(default_factory=list)
    keyword: str = ""  # a pytest -k expression narrowing the tests further


#: The engine's and the modes' mutants are judged without the random-rules AI check and with the
#: conformance test's random games of the catalogued rules only (not its grid of one rule changed
#: per variant): a survivor runs every test that covers it, and those two make up four fifths of
#: the time (46 s of the selection's run against 9 s). What they alone would kill is killed by a
#: targeted test instead (test_engine_edges.py, test_modes.py).
_ENGINE_LEAN = "not under_random_rules and not (random_games_keep and not catalogued)"


_ENGINE_TESTS = ["test_engine_rules.py", "test_engine_edges.py", "test_mode_pins.py", "test_scenarios.py", "test_engine_basic.py", "test_conformance.py",
                 "test_modes.py", "test_perft.py", "test_corpus.py"]
MODULES = [
    Module("engine", ["tafl_rules/engine/*"], _ENGINE_TESTS, keyword=_ENGINE_LEAN),
    Module("modes", ["tafl_rules/modes/*"], _ENGINE_TESTS, keyword=_ENGINE_LEAN),
    Module("otn", ["tafl_rules/otn.py"], ["test_otn.py", "test_otn_interop.py", "test_otn_words.py", "test_bad_input.py",
                                          "test_doctests.py", "test_corpus.py"],
           deselect=["tests/test_otn.py::test_real_copenhagen_games_as_otn_records"]),
    Module("webapi", ["tafl_rules/webapi.py"], ["test_webapi.py", "test_webapi_words.py", "test_protocol.py", "test_bad_input.py",
                                                "test_start_positions.py", "test_doctests.py"]),
    Module("game", ["tafl_rules/game.py"], ["test_game_words.py", "test_engine_basic.py", "test_engine_rules.py",
                                            "test_scenarios.py", "test_perft.py",
                                            "test_conformance.py", "test_otn.py", "test_webapi.py",
                                            "test_start_positions.py", "test_bad_input.py", "test_doctests.py"],
           deselect=["tests/test_otn.py::test_real_copenhagen_games_as_otn_records"], keyword=_ENGINE_LEAN),
]
BY_NAME = {m.name: m for m in MODULES}

STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
          36: "timeout", -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", None: "not checked",
          -11: "crashed", -9: "crashed"}


#: Appended to the scratch copy's conftest.py: the tests of a mutant run fastest first (by the
#: times mutmut measured), so that a killed mutant costs its quickest killing test, not the first
#: in file order.
_FASTEST_FIRST = """

def pytest_collection_modifyitems(session, config, items):
    import json, pathlib
    stats = pathlib.Path("mutmut-stats.json")
    if stats.exists():
        duration = json.loads(stats.read_text()).get("duration_by_test", {})
        items.sort(key=lambda item: duration.get(item.nodeid, 1e9))
"""


#: The hand-made survivors of the code review of 2026-11-27 (its section 3), and the tests that now
#: fail on each (each was applied by hand and the test run; see the commits that added them).
REVIEW_SURVIVORS = [
    ("E8", "engine/movement.py `sandwiched`: the armed king no longer one of an attacker's two enemies",
     "test_engine_rules.py::test_the_armed_king_is_one_of_the_two_enemies_of_an_attacker; test_conformance.py "
     "(the sandwich reference)"),
    ("M1", "modes/king.py `_Two.taken`: `b >= 0` made `b > 0` (no king taken against a1)",
     "test_engine_rules.py::test_the_king_is_taken_against_each_corner[b1-c3-c1-a1], [a2-c3-a3-a1]"),
    ("O1", "otn.py: the linnaeus king's K left out of `cenhe`",
     "test_otn_interop.py::test_the_strong_centre_king_reads_as_linnaeus_and_writes_k_in_cenhe"),
    ("O3", "otn.py: the reader drops `corner` from king_capture_against",
     "test_otn_interop.py::test_every_variant_writes_its_golden_rules_string[copenhagen] and the K-in-corh cases"),
    ("O4", "otn.py: a resignation that ends the record refused",
     "test_otn_interop.py::test_a_record_ending_in_a_resignation_reads_and_replays"),
    ("O5", "otn.py: a tuichi win not annotated `--`", "test_otn_interop.py::test_a_tuichi_win_is_written_as_an_escape"),
    ("W1", "webapi.py: the king taken on a1 not reported", "test_webapi.py::test_the_king_taken_on_the_first_square_is_reported"),
    ("W2", "webapi.py: replaying the redo line's next move cuts its tail",
     "test_webapi.py::test_replaying_the_next_move_of_the_redo_line_keeps_the_rest_of_it"),
    ("W3", "webapi.py: a share link naming one of two captures accepted",
     "test_webapi.py::test_a_move_that_names_only_some_of_its_captures_is_refused"),
]


def _config(module: Module) -> str:
    tests = [f"tests/{t}" for t in module.tests if (ROOT / "tests" / t).exists()]
    args = ["-p", "no:cacheprovider", "-p", "no:xdist", "-m", "not slow and not browser", "--hypothesis-seed=0"]
    for nodeid in module.deselect:
        args += ["--deselect", nodeid]
    if module.keyword:
        args += ["-k", module.keyword]
    return "\n".join([
        "[tool.mutmut]",
        'source_paths = ["tafl_rules"]',
        f"only_mutate = {json.dumps(module.mutate)}",
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
        f"pytest_add_cli_args = {json.dumps(args)}",
        "use_git_change_detection = false",
        # the worker's API is tested against the board's scripts (the protocol's JSDoc, the share link)
        'also_copy = ["_static"]',
        # a mutant whose tests use 8 times their measured CPU time (the default is 30 times) is a
        # loop that never ends, as every such mutant so far was ('pieces = low' in a bit loop);
        # at 30 times each one held a core for minutes
        "timeout_multiplier = 4.0",
        "",
    ])


def _sync(module: Module, fresh: bool) -> Path:
    """The module's scratch folder, holding today's package and tests."""
    work = WORK / module.name
    if fresh and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    for name in ("tafl_rules", "tests", "_static"):
        if (work / name).exists():
            shutil.rmtree(work / name)
    shutil.copytree(ROOT / "_static", work / "_static", ignore=shutil.ignore_patterns("pyodide", "*.whl"))
    shutil.copytree(ROOT / "tafl_rules", work / "tafl_rules", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copytree(ROOT / "tests", work / "tests", ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "mutation"))
    with open(work / "tests" / "conftest.py", "a") as conftest:  # the scratch copy only
        conftest.write(_FASTEST_FIRST)
    (work / "pyproject.toml").write_text(_config(module))
    return work


def _mutmut(work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=work, env=env, text=True,
                          capture_output=True)


def _metas(module: Module) -> list[Path]:
    return sorted((WORK / module.name / "mutants").rglob("*.py.meta"))


def _results(module: Module) -> dict[str, str]:
    """Mutant name -> status, read from mutmut's own files."""
    out: dict[str, str] = {}
    for meta in _metas(module):
        data = json.loads(meta.read_text())
        for name, code in data.get("exit_code_by_key", {}).items():
            out[name] = STATUS.get(code, f"exit {code}")
    return out


def _diff(module: Module, name: str) -> str:
    shown = _mutmut(WORK / module.name, "show", name).stdout
    lines = [line for line in shown.splitlines() if line[:1] in "+-" and not line.startswith(("---", "+++"))]
    return "\n".join(lines)


def run(module: Module, *, fresh: bool, recheck: bool) -> dict[str, float]:
    work = _sync(module, fresh)
    names: list[str] = []
    if recheck:
        names = [n for n, s in _results(module).items() if s in ("survived", "no tests")]
        if not names:
            return {"seconds": 0.0}
    started = time.monotonic()
    load = os.getloadavg()[0]
    result = subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(os.cpu_count() or 2),
                             *names], cwd=work, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"), text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        sys.exit(f"mutmut run failed for {module.name} (exit {result.returncode}):\n{result.stderr[-3000:]}")
    return {"seconds": round(seconds, 1), "load_at_start": load, "load_at_end": os.getloadavg()[0]}


def _timings() -> dict[str, dict[str, float]]:
    if RESULTS.exists():
        return dict(json.loads(RESULTS.read_text()).get("runs", {}))
    return {}


def report(runs: dict[str, dict[str, float]]) -> None:
    equivalent: dict[str, str] = tomllib.loads(EQUIVALENT.read_text()) if EQUIVALENT.exists() else {}
    untestable: dict[str, str] = tomllib.loads(UNTESTABLE.read_text()) if UNTESTABLE.exists() else {}
    notes: dict[str, str] = tomllib.loads(NOTES.read_text()) if NOTES.exists() else {}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                            capture_output=True).stdout.strip()
    rows, sections, summary = [], [], {}
    for module in MODULES:
        results = _results(module)
        if not results:
            continue
        counts: dict[str, int] = {}
        for status in results.values():
            counts[status] = counts.get(status, 0) + 1
        made = len(results)
        killed = counts.get("killed", 0) + counts.get("timeout", 0)
        survivors = sorted((n for n, s in results.items() if s == "survived"), key=_natural)
        argued = [n for n in survivors if n in equivalent]
        unseen = [n for n in survivors if n in untestable and n not in equivalent]
        untested = sorted((n for n, s in results.items() if s == "no tests"), key=_natural)
        checked = made - counts.get("not checked", 0)  # the share is of the mutants run so far
        score = killed / checked if checked else 0.0
        scored = (killed + len(argued)) / checked if checked else 0.0
        summary[module.name] = {"made": made, "killed": killed, "survived": len(survivors), "argued": len(argued),
                                "untestable_under_mutmut": len(unseen),
                                "no_tests": len(untested), "not_checked": counts.get("not checked", 0),
                                "other": made - killed - len(survivors) - len(untested) - counts.get("not checked", 0),
                                "killed_share": round(score, 4), "killed_or_argued_share": round(scored, 4)}
        run_time = runs.get(module.name, {})
        files = [str(m.relative_to(WORK / module.name / "mutants")).removesuffix(".meta") for m in _metas(module)]
        unchecked = counts.get("not checked", 0)
        rows.append(f"| {module.name} | {made} | {killed} | {len(survivors)} | {len(argued)} | {len(unseen)} | {len(untested)} | "
                    f"{unchecked} | {score:.1%} | {scored:.1%} | {run_time.get('seconds', '')} |")
        section = [f"### {module.name}", "", f"Files: {', '.join(files)}.", "",
                   f"Tests: {', '.join(module.tests)}" + (f" (with -k \"{module.keyword}\")" if module.keyword else "") + ".", ""]
        if module.name in notes:
            section += [notes[module.name].strip(), ""]
        if not survivors and not untested:
            section.append("Every mutant was killed.")
        for name in survivors:
            reason = equivalent.get(name)
            unseen_reason = untestable.get(name)
            said = (f"equivalent: {' '.join(reason.split())}" if reason else
                    f"not testable under mutmut: {' '.join(unseen_reason.split())}" if unseen_reason else "**open**")
            section += [f"- `{name}`: " + said, "",
                        "  ```diff", *("  " + line for line in _diff(module, name).splitlines()), "  ```", ""]
        for name in untested:
            section.append(f"- `{name}`: no test calls this function")
        sections.append("\n".join(section))
    lines = [
        "# Mutation score of the rules package",
        "",
        f"Written by `make mutants` (`tests/mutation/run.py`, mutmut) at commit {commit}, "
        f"{datetime.now(timezone.utc):%Y-%m-%d}. A mutant is *killed* when a test fails on it (a time-out "
        "counts as killed); a *survivor* is one the tests pass. Every survivor is listed below with its diff: "
        "either argued equivalent (it cannot change what the module does; the argument is in "
        "`tests/mutation/equivalent.toml`), not testable under mutmut (it changes which line a warning names, "
        "and mutmut's trampoline is one frame more; `tests/mutation/untestable.toml` names the test that checks it "
        "outside mutmut), or **open**, a gap in the tests.",
        "",
        "## The code review's survivors",
        "",
        "| id | mutant | now failed by |",
        "| --- | --- | --- |",
        *(f"| {i} | {what} | {by} |" for i, what, by in REVIEW_SURVIVORS),
        "",
        "## mutmut's mutants",
        "",
        "| module | mutants | killed | survived | of them argued equivalent | of them not testable under mutmut | "
        "no test | not yet run | killed (of those run) | killed or argued | run (s) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *rows,
        "",
        *sections,
    ]
    REPORT.write_text("\n".join(lines) + "\n")
    RESULTS.write_text(json.dumps({"commit": commit, "modules": summary, "runs": runs}, indent=1) + "\n")


def _natural(name: str) -> tuple[str, int]:
    stem, _, number = name.rpartition("_")
    return (stem, int(number) if number.isdigit() else 0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help=f"modules to run ({', '.join(BY_NAME)}); all when none is named")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results of these modules")
    parser.add_argument("--recheck", action="store_true", help="run only the survivors again")
    parser.add_argument("--report", action="store_true", help="write the report from the results so far")
    args = parser.parse_args(argv)
    only: dict[str, list[str]] = {}
    for i, name in enumerate(args.modules):  # "engine:tafl_rules/engine/capture.py": some files of a module
        module, _, files = name.partition(":")
        if files:
            only[module] = files.split(",")
            args.modules[i] = module
    for module, files in only.items():
        if module in BY_NAME:
            BY_NAME[module].mutate = files
    unknown = [name for name in args.modules if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown module {unknown[0]!r}: the modules are {', '.join(BY_NAME)}")
    runs = _timings()
    if not args.report:
        for name in args.modules or list(BY_NAME):
            print(f"mutants of {name} ...", flush=True)
            runs[name] = run(BY_NAME[name], fresh=args.fresh, recheck=args.recheck)
            print(f"  {runs[name]['seconds']} s", flush=True)
    report(runs)
    print(REPORT.relative_to(ROOT))
    print(json.dumps(json.loads(RESULTS.read_text())["modules"], indent=1))


if __name__ == "__main__":
    main()
