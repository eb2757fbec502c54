"""Command line: ``python -m tafl_rules <command> ...``.

A small argparse dispatcher: each command is a function ``_cmd_<name>(args)`` and a
``_add_<name>(subparsers)`` that declares its options; add a command by adding both
and listing it in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import Any, Callable

from . import balance
from .catalogue import variant_ids
from .errors import RulesError


def _add_balance(sub: Any) -> None:
    p = sub.add_parser("balance", help="self-play games per variant and toggle; win rates with 95%% intervals",
                       description="Play the AI against itself under chosen variants and toggles and write the "
                                   "results (with their provenance) as JSON.")
    p.add_argument("--variant", "-v", action="append", default=[],
                   help="catalogue variant id (repeatable; 'all' for every variant)")
    p.add_argument("--toggle", "-t", action="append", default=[], metavar="NAME=READING",
                   help="toggle applied to every --variant (repeatable)")
    p.add_argument("--site", action="store_true",
                   help="the site's suite: every variant, and each single toggle change of the main tawlbwrdd readings")
    p.add_argument("--skip", action="append", default=[], metavar="VARIANT",
                   help="leave out this variant (repeatable; with --site or --variant all)")
    p.add_argument("--only", action="append", default=[], metavar="VARIANT",
                   help="keep only this variant (repeatable; with --site)")
    p.add_argument("--jones", metavar="VARIANT",
                   help="play Jones's three points read the other way on VARIANT, each alone and all together")
    p.add_argument("--level", type=_player, default=1,
                   help="AI level of both sides, or 'people' (the people-like player; 'people(ta=0.5,td=2)' sets "
                        "its temperatures) (default 1)")
    p.add_argument("--attackers-level", type=_player, help="the attackers' level or player (default --level)")
    p.add_argument("--defenders-level", type=_player, help="the defenders' level or player (default --level)")
    p.add_argument("--games", "-n", type=int, default=20, help="games per configuration (default 20)")
    p.add_argument("--seed", type=int, default=0, help="first seed; game i uses seed + i (default 0)")
    p.add_argument("--ply-cap", type=int, default=300, help="a game reaching this many plies is a draw (default 300)")
    p.add_argument("--workers", "-j", type=int, default=None, help="local processes (default: every core)")
    p.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://127.0.0.1:8786 (runs the games there)")
    p.add_argument("--out", "-o", default="balance.json", help="output JSON (default balance.json)")
    p.add_argument("--work-file", help="JSON-lines file of finished games, for resuming (default: OUT.work.jsonl)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--reuse", action="append", default=[], metavar="RESULTS",
                   help="a results file of another run whose games of these configurations and seeds count as "
                        "played (repeatable): a run can extend some configurations of a finished run to more seeds")
    p.add_argument("--so-far", action="store_true",
                   help="play nothing: write the results of the seeds whose every game the work file holds "
                        "(a run stopped part-way); the work file is kept, and the command without --so-far resumes")


def _player(text: str) -> int | str:
    """A level's number, or a people-like player's name (checked when the configuration is made)."""
    return int(text) if text.strip().lstrip("-").isdigit() else text.strip()


def _writable(path: str, what: str) -> str | None:
    """Why ``path`` cannot be written as a file (None if it can): checked before any game is played."""
    if os.path.isdir(path):
        return f"{what} {path} is a directory"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        if os.path.exists(folder):
            return f"{what} {path}: {folder} is a file, not a folder"
        return f"{what} {path}: the folder {folder} does not exist"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return f"{what} {path} cannot be written (permission denied)"
    return None


def _cmd_balance(args: argparse.Namespace) -> int:
    def refuse(text: str) -> int:
        print(f"error: {text}", file=sys.stderr)
        return 2

    if args.games < 1:
        return refuse("--games must be at least 1")
    if args.workers is not None and args.workers < 1:
        return refuse(f"--workers must be at least 1, got {args.workers}")
    if args.ply_cap < 1:
        return refuse(f"--ply-cap must be at least 1, got {args.ply_cap}")
    if args.site and (args.toggle or args.variant or args.attackers_level is not None
                      or args.defenders_level is not None):
        return refuse("--site plays its own suite at --level: it takes no --variant, --toggle, "
                      "--attackers-level or --defenders-level (use --only and --skip to choose variants)")
    if args.jones and (args.site or args.toggle or args.variant):
        return refuse("--jones plays its own four configurations: it takes no --site, --variant or --toggle")
    if args.only and not args.site:
        return refuse("--only goes with --site (name the variants with --variant instead)")
    la = args.level if args.attackers_level is None else args.attackers_level
    ld = args.level if args.defenders_level is None else args.defenders_level
    work = args.work_file or args.out + ".work.jsonl"
    for path, what in ((args.out, "--out"), (work, "--work-file")):
        problem = _writable(path, what)
        if problem:
            return refuse(problem)
    if os.path.abspath(work) == os.path.abspath(args.out):
        return refuse("--work-file and --out name the same file")
    try:
        if args.site:
            configs = balance.site_configs(args.level, args.ply_cap)
        elif args.jones:
            configs = balance.jones_configs(args.jones, args.level, args.ply_cap)
        else:
            toggles: dict[str, str] = {}
            for text in args.toggle:
                if "=" not in text:
                    return refuse(f"--toggle {text!r}: expected NAME=READING")
                name, _, reading = (part.strip() for part in text.partition("="))
                if name in toggles and toggles[name] != reading:
                    return refuse(f"--toggle {name} is given twice ({toggles[name]} and {reading})")
                toggles[name] = reading
            ids = args.variant or ["tawlbwrdd-cyningstan"]
            if "all" in ids:

                ids = variant_ids()
            configs = [balance.Config(v, tuple(toggles.items()), la, ld, args.ply_cap) for v in dict.fromkeys(ids)]
        configs = [c for c in configs if c.variant not in args.skip and (not args.only or c.variant in args.only)]
        if not configs:
            return refuse("no configuration left to play")
        seeds = range(args.seed, args.seed + args.games)
        reused = balance.reuse_games(work, args.reuse, configs, seeds) if args.reuse else {}
        if args.so_far:
            whole = balance.seeds_done(configs, seeds, work)
            if not whole:
                return refuse(f"{work} holds no seed with a game of every configuration yet")
            data = balance.run(configs, whole, workers=1, work_file=work)
            data["provenance"]["seconds"] = None  # nothing was played here: the games' time is not known
            data["provenance"]["runner"] = "none (tabled from the work file)"
            data["provenance"]["partial"] = f"seeds {whole[0]} to {whole[-1]} of the {args.games} planned"
            data["provenance"]["command"] = args.typed
            if reused:
                data["provenance"]["reused"] = {os.path.basename(path): n for path, n in reused.items()}
            balance.write_json(data, args.out)
            _print_table(data)
            print(f"wrote {args.out} (part-way: {data['provenance']['partial']}); {work} kept")
            return 0
        with balance.signals_interrupt():
            data = balance.run(configs, seeds, workers=args.workers,
                               scheduler=args.scheduler, work_file=work, progress=not args.no_progress)
            if reused:
                data["provenance"]["reused"] = {os.path.basename(path): n for path, n in reused.items()}
            data["provenance"]["command"] = args.typed
            balance.write_json(data, args.out)
    except (RulesError, ValueError) as error:
        return refuse(str(error))
    except OSError as error:
        return refuse(f"{error.strerror or error}: {error.filename or args.out}; finished games are kept in {work}")
    except KeyboardInterrupt as stop:
        name = "terminated" if isinstance(stop, balance.Terminated) else "interrupted"
        print(f"\n{name}; finished games are kept in {work}: run the same command again to resume",
              file=sys.stderr)
        return 143 if isinstance(stop, balance.Terminated) else 130
    os.remove(work)
    _print_table(data)
    print(f"wrote {args.out}")
    return 0


def _rate_cell(part: Any) -> str:
    return f"{part['rate']:.0%} [{part['low']:.0%}-{part['high']:.0%}]"


def _print_table(data: Any) -> None:
    """Per configuration: win and draw rates with 95% Wilson intervals, game length, king's fate."""
    print(f"{'configuration':<58} {'games':>5}  {'attackers':>18}  {'defenders':>18}  {'draws':>18}  "
          f"{'mean plies':>10}  {'median':>6}  {'escaped':>7}  {'taken':>5}")
    for entry in data["results"]:
        s = entry["summary"]
        print(f"{entry['key']:<58} {s['games']:>5}  {_rate_cell(s['attackers']):>18}  {_rate_cell(s['defenders']):>18}  "
              f"{_rate_cell(s['draws']):>18}  {s['mean_plies']:>10.1f}  {s['median_plies']:>6g}  "
              f"{s['king_escaped']:>7}  {s['king_captured']:>5}")


COMMANDS = ("balance",)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tafl_rules", description="tafl_rules command line")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        globals()[f"_add_{name}"](sub)
    args = parser.parse_args(argv)
    #: the command as typed, recorded in the results it writes
    args.typed = "python -m tafl_rules " + shlex.join(sys.argv[1:] if argv is None else argv)
    if not args.command:
        parser.print_help()
        return 2
    command: Callable[[argparse.Namespace], int] = globals()[f"_cmd_{args.command}"]
    return command(args)


if __name__ == "__main__":
    sys.exit(main())
