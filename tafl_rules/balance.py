"""The balance lab: many self-play games per reconstruction, to see which rules are fairest.

E. P. Jones, in his 1993 article "A Brief Look at Some Welsh Games" as posted to WELSH-L in 1994, asked for records of many games
under each variant of the rules, to learn "which rules make for the fairest game".
This module plays them: the AI of :mod:`tafl_rules.ai` against itself, at chosen
levels, one game per (configuration, seed).

* A :class:`Config` is a variant, its toggles, the level of each side and a ply cap
  (a game reaching the cap is a draw of kind ``"ply-cap"``).
* :func:`play_game` plays one game; it depends only on the configuration and the
  seed (node budgets, never the clock), so a game is the same wherever it runs.
* :func:`run` plays many: on all local cores by default, or on a Dask cluster given a
  scheduler address or a ``distributed.Client``. Finished games are appended to a
  work file (JSON lines) as they arrive; a run started again with the same work file
  skips them, so an interrupted run resumes (every line is checked first: a bad line
  is reported by number and its game played again). Results are keyed by
  (configuration, seed): a game retried after a lost worker is counted once. Ctrl-C
  stops local worker processes at once, keeping the finished games.
* :func:`summarise` gives, per configuration, each side's wins and the draws with 95%
  Wilson intervals, mean and median length, and how the games ended.

The ``results`` part of :func:`run`'s output depends only on the configurations and
seeds: the same seeds give byte-identical ``json.dumps(results)``.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import math
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Iterable, Mapping, TextIO

from ._version import __version__
from ._workers import run_tasks
from .ai import LEVELS, RETIRED_LEVELS, analyse
from .ai.giveup import adjudicate, give_up_chance
from .ai.people import Style, parse_style, people_move
from .catalogue import variant, variants
from .game import Game
from .outcome import Termination
from .rules import Rules

__all__ = ["Config", "ENDINGS", "JONES_REVERSED", "SITE_TOGGLES", "Terminated", "WorkFileError", "check_record",
           "play_game", "read_work", "run", "seeds_done", "signals_interrupt", "site_configs", "sign_test",
           "summarise", "wilson", "write_json"]

#: The rule points whose single changes the site compares (its main readings); confinement
#: is the third of the three points of Jones's hypothesis.
SITE_TOGGLES = ("first", "king_armed", "king_capture", "confinement", "escape", "throne", "sandwich")
#: Variants whose single-toggle changes the site compares.
SITE_BASES = ("tawlbwrdd-cyningstan", "jones-3")
#: Jones's hypothesis tested whole: his reading resolves all three ambiguities against the
#: king's side; this row resolves all three for it (the king's side moves first, the king
#: is armed, and the attackers must leave the whole side without a move).
JONES_REVERSED = ("jones-3", (("first", "defenders"), ("king_armed", "yes"), ("confinement", "side")))
Z95 = 1.959963984540054


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95% by default).

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test: the chance of a split of the decisive games at
    least as uneven as ``wins`` to ``losses`` if both players were equally strong
    (draws say nothing about which is stronger, so they are left out).

    >>> round(sign_test(15, 5), 4)
    0.0414
    >>> sign_test(3, 3)
    1.0
    """
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1)) / 2**n
    return min(1.0, 2 * float(tail))


@dataclasses.dataclass(frozen=True)
class Config:
    """What to play: a catalogue variant with toggles, each side's player (an AI level, or
    the name of a people-like player, :mod:`tafl_rules.ai.people`), a ply cap."""

    variant: str
    toggles: tuple[tuple[str, str], ...] = ()
    attackers_level: int | str = 1
    defenders_level: int | str = 1
    ply_cap: int = 300
    opening_plies: int = 0
    """Plies played at random (seeded) before the AI takes over: varied openings for
    levels whose search has no random element."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "toggles", tuple(sorted((str(k), str(v)) for k, v in dict(self.toggles).items())))

        for side, level in (("attackers", self.attackers_level), ("defenders", self.defenders_level)):
            if isinstance(level, str):
                parse_style(level)  # a people-like player's name; ValueError says what is wrong
            elif level not in LEVELS and level not in RETIRED_LEVELS:
                raise ValueError(f"{side}' level must be one of {', '.join(map(str, LEVELS))} or a people-like "
                                 f"player's name, got {level!r}")
        if not isinstance(self.ply_cap, int) or self.ply_cap < 1:
            raise ValueError(f"ply_cap must be a positive whole number, got {self.ply_cap!r}")
        if not isinstance(self.opening_plies, int) or self.opening_plies < 0:
            raise ValueError(f"opening_plies must be a whole number >= 0, got {self.opening_plies!r}")

    @property
    def key(self) -> str:
        """``variant?toggle=reading&...|a<level>d<level>|cap<plies>``: names the configuration
        (``|a:<player>/d:<player>|`` where a side is a people-like player)."""
        toggles = "&".join(f"{k}={v}" for k, v in self.toggles)
        la, ld = self.attackers_level, self.defenders_level
        sides = f"a:{la}/d:{ld}" if isinstance(la, str) or isinstance(ld, str) else f"a{la}d{ld}"
        return (f"{self.variant}{'?' + toggles if toggles else ''}"
                f"|{sides}|cap{self.ply_cap}"
                + (f"|open{self.opening_plies}" if self.opening_plies else ""))

    @property
    def counted_as_people(self) -> bool:
        """Whether the games are also counted as people's games are (a people-like player on a side:
        each game records, through :mod:`tafl_rules.ai.giveup`, the chance that each side wins it
        had the players given up as people do)."""
        return isinstance(self.attackers_level, str) or isinstance(self.defenders_level, str)

    def rules(self) -> Rules:

        return variant(self.variant, **dict(self.toggles)).rules

    def to_dict(self) -> dict[str, Any]:
        out = {"variant": self.variant, "toggles": dict(self.toggles), "attackers_level": self.attackers_level,
               "defenders_level": self.defenders_level, "ply_cap": self.ply_cap}
        if self.opening_plies:
            out["opening_plies"] = self.opening_plies
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Config":
        def player(value: Any) -> int | str:
            return value if isinstance(value, str) else int(value)

        return cls(data["variant"], tuple(dict(data.get("toggles") or {}).items()), player(data["attackers_level"]),
                   player(data["defenders_level"]), int(data["ply_cap"]), int(data.get("opening_plies", 0)))


def play_game(config: Config | Mapping[str, Any], seed: int, *, position: bool = False) -> dict[str, Any]:
    """Play one self-play game; returns ``{"key", "seed", "winner", "kind", "plies"}``
    (and, with ``position``, the final placement as an OTN position record).

    The AI of each side moves with ``analyse(game, level, seed)`` without a time cap: its
    node budget (never the clock) ends each search, so the game depends only on ``config``
    and ``seed``, on any machine.
    """

    if not isinstance(config, Config):
        config = Config.from_dict(config)
    game = Game(config.rules())
    levels = (config.attackers_level, config.defenders_level)
    if config.opening_plies:

        rng = random.Random(f"opening:{int(seed)}")
        while game.outcome is None and game.ply < min(config.opening_plies, config.ply_cap):
            game.play(rng.choice(sorted(game.legal_moves(), key=str)))
    players = [parse_style(level) if isinstance(level, str) else level for level in levels]
    counted = config.counted_as_people
    chances: list[tuple[int, float]] = []
    while game.outcome is None and game.ply < config.ply_cap:
        if counted:
            chances.append((game.engine.side, give_up_chance(game.engine)))
        player = players[0 if game.turn == "attackers" else 1]
        if isinstance(player, Style):
            game.play(people_move(game, player, seed))
        else:  # no clock: only the node budget ends a search
            game.play(analyse(game, player, seed, time_cap=math.inf).move)
    if game.outcome is None:
        winner, kind = None, PLY_CAP
        if counted:  # people give up at the last position too
            chances.append((game.engine.side, give_up_chance(game.engine)))
    else:
        winner, kind = game.outcome.winner, game.outcome.kind
    out: dict[str, Any] = {"key": config.key, "seed": int(seed), "winner": winner, "kind": kind, "plies": game.ply}
    if counted:
        out["gave_up"] = [round(x, 6) for x in adjudicate(chances, winner)]
    if position:
        out["position"] = game.position()
    return out


def _play_task(task: tuple[dict[str, Any], int]) -> dict[str, Any]:
    return play_game(task[0], task[1])


# ------------------------------------------------------------------ summaries

def summarise(games: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts, rates with 95% Wilson intervals, lengths and endings of a set of games."""
    games = list(games)
    n = len(games)
    out: dict[str, Any] = {"games": n}
    for name, who in (("attackers", "attackers"), ("defenders", "defenders"), ("draws", None)):
        k = sum(1 for g in games if g["winner"] == who)
        lo, hi = wilson(k, n)
        out[name] = {"count": k, "rate": round(k / n, 4) if n else 0.0, "low": round(lo, 4), "high": round(hi, 4)}
    lengths = sorted(g["plies"] for g in games)
    out["mean_plies"] = round(statistics.fmean(lengths), 2) if lengths else 0.0
    out["median_plies"] = statistics.median(lengths) if lengths else 0
    kinds: dict[str, int] = {}
    for g in games:
        kinds[g["kind"]] = kinds.get(g["kind"], 0) + 1
    out["endings"] = dict(sorted(kinds.items()))
    out["king_escaped"] = sum(kinds.get(k, 0) for k in (_T.ESCAPE, _T.TUICHI, _T.EDGE_FORT))
    out["king_captured"] = kinds.get(_T.KING_CAPTURED, 0)
    if games and all("gave_up" in g for g in games):
        out["counted_as_people"] = counted_as_people(games)
    return out


def counted_as_people(games: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The games counted as people's are: each side's expected wins had the players given up as
    people do (the sum of each game's chances), and the attackers' share of the decided ones with a
    95% Wilson interval on those expected counts."""
    games = list(games)
    a = math.fsum(g["gave_up"][0] for g in games)
    d = math.fsum(g["gave_up"][1] for g in games)
    lo, hi = wilson(a, a + d)
    return {"attackers": round(a, 2), "defenders": round(d, 2), "draws": round(len(games) - a - d, 2),
            "share": round(a / (a + d), 4) if a + d else 0.5, "low": round(lo, 4), "high": round(hi, 4)}


# ------------------------------------------------------------------ running

class _Progress:
    """A one-line progress bar with an ETA on stderr."""

    def __init__(self, total: int, done: int, enabled: bool, stream: Any = None) -> None:
        self.total, self.done, self.enabled = total, done, enabled
        self.start_done = done
        self.started = time.monotonic()
        self.stream = stream or sys.stderr

    def step(self) -> None:
        self.done += 1
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.started
        new = self.done - self.start_done
        rate = new / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        width = 30
        filled = int(width * self.done / self.total) if self.total else width
        eta = "--:--" if math.isnan(left) else f"{int(left // 60):02d}:{int(left % 60):02d}"
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games"
                          f"  {rate:.2f} games/s  ETA {eta} ")
        self.stream.flush()
        if self.done == self.total:
            self.stream.write("\n")


#: How a game can end (the engine's outcome kinds, and the lab's own ply cap), and who may win that way.
#: A game the lab stopped at its ply cap (not an ending of the rules: a draw here).
PLY_CAP = "ply-cap"
_T = Termination
#: Every ending a record may name (the rules' :class:`~tafl_rules.outcome.Termination` kinds
#: and the lab's ply cap), with the winners it allows.
ENDINGS: dict[str, tuple[str | None, ...]] = {
    _T.ESCAPE: ("defenders",), _T.TUICHI: ("defenders",), _T.EDGE_FORT: ("defenders",),
    _T.KING_CAPTURED: ("attackers",), _T.ENCIRCLEMENT: ("attackers",),
    _T.NO_MOVES: ("attackers", "defenders", None), _T.REPETITION: ("attackers", "defenders", None),
    _T.PLY_LIMIT: (None,), PLY_CAP: (None,),
}
_RECORD_FIELDS = {"key", "seed", "winner", "kind", "plies"}
#: a record may also say, for a game counted as people's are, each side's chance of winning it
_OPTIONAL_FIELDS = {"gave_up"}
_CAP = re.compile(r"\|cap([0-9]+)(?:\||$)")


class WorkFileError(ValueError):
    """The work file cannot be used: unreadable, unwritable, or two lines disagree about one game."""


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def check_record(rec: Any) -> str | None:
    """What is wrong with one work-file record (``None`` if nothing): the five fields
    ``key`` (a configuration's key), ``seed`` (a whole number), ``winner``
    (``"attackers"``, ``"defenders"`` or null), ``kind`` (one of :data:`ENDINGS`, and
    one that side can win by) and ``plies`` (a whole number from 0 to the key's cap;
    exactly the cap for ``"ply-cap"``).

    >>> check_record({"key": "brandubh|a1d1|cap80", "seed": 3, "winner": "defenders", "kind": "escape", "plies": 14})
    >>> check_record({"key": "brandubh|a1d1|cap80", "seed": 3, "winner": "martians", "kind": "escape", "plies": 14})
    "winner 'martians' is not attackers, defenders or null"
    """
    if not isinstance(rec, dict):
        return f"a record is a JSON object, not {type(rec).__name__}"
    missing = sorted(_RECORD_FIELDS - set(rec))
    if missing:
        return f"missing field{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
    extra = sorted(set(rec) - _RECORD_FIELDS - _OPTIONAL_FIELDS)
    if extra:
        return f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}"
    key, seed, winner, kind, plies = (rec[f] for f in ("key", "seed", "winner", "kind", "plies"))
    cap = _CAP.search(key) if isinstance(key, str) else None
    if cap is None:
        return f"key {key!r} does not name a configuration (variant|a<level>d<level>|cap<plies>)"
    if type(seed) is not int:
        return f"seed {seed!r} is not a whole number"
    if winner not in ("attackers", "defenders", None):
        return f"winner {winner!r} is not attackers, defenders or null"
    if not isinstance(kind, str) or kind not in ENDINGS:
        return f"kind {kind!r} is not one of {', '.join(ENDINGS)}"
    if winner not in ENDINGS[kind]:
        return f"a game ended by {kind} cannot have winner {winner!r}"
    if type(plies) is not int or not 0 <= plies <= int(cap.group(1)):
        return f"plies {plies!r} is not a whole number from 0 to the cap {cap.group(1)}"
    if kind == PLY_CAP and plies != int(cap.group(1)):
        return f"a ply-cap game has {cap.group(1)} plies, not {plies}"
    if "gave_up" in rec:
        got = rec["gave_up"]
        if (not isinstance(got, list) or len(got) != 2 or any(type(x) not in (int, float) or not 0 <= x <= 1 for x in got)
                or sum(got) > 1 + 1e-6):
            return f"gave_up {got!r} is not two chances (the attackers' and the defenders') adding up to 1 or less"
    return None


def read_work(path: str | None, report: Callable[[str], None] | None = None) -> dict[tuple[str, int], dict[str, Any]]:
    """The games recorded in a work file, keyed by (configuration key, seed).

    Every line is checked (:func:`check_record`); a bad line is reported through
    ``report`` with its line number and skipped, so its game is played again. A
    line cut short by an interruption (the last one, without its newline) is
    skipped the same way. Identical lines count once; two valid lines that disagree
    about one game raise :class:`WorkFileError` (the file is not trustworthy).
    """
    done: dict[tuple[str, int], dict[str, Any]] = {}
    if not path or not os.path.exists(path):
        return done
    if os.path.isdir(path):
        raise WorkFileError(f"the work file {path} is a directory")
    say = report or (lambda text: print(text, file=sys.stderr))
    where: dict[tuple[str, int], int] = {}
    bad = 0
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as error:
        raise WorkFileError(f"cannot read the work file {path}: {error.strerror or error}") from None
    lines = raw.split(b"\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        problem = None
        rec: Any = None
        try:
            rec = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
        except UnicodeDecodeError:
            problem = "not UTF-8 text"
        except ValueError as error:
            problem = "cut short (the run was interrupted while writing it)" if number == len(lines) else \
                f"not a JSON record ({error})"
        except RecursionError:
            problem = "not a JSON record (nested too deeply)"
        if problem is None:
            problem = check_record(rec)
        if problem is not None:
            bad += 1
            if bad <= 10:
                say(f"work file {path}, line {number}: {problem}; the line is ignored (any game it held is played again)")
            continue
        k = (rec["key"], rec["seed"])
        if k in done and done[k] != rec:
            raise WorkFileError(f"work file {path}: lines {where[k]} and {number} record different results for "
                                f"seed {k[1]} of {k[0]}; remove the wrong one")
        done.setdefault(k, rec)
        where.setdefault(k, number)
    if bad > 10:
        say(f"work file {path}: {bad - 10} more bad lines ignored")
    return done


def results_games(path: str) -> dict[tuple[str, int], dict[str, Any]]:
    """The games of a results file (written by :func:`write_json`), keyed like :func:`read_work`'s,
    each checked as a work-file record is (:class:`WorkFileError` names the first bad one). Identical
    records of one game count once; two that differ raise :class:`WorkFileError`, as in a work file."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh, parse_constant=_no_constant)
        rows = [(entry["key"], *game) for entry in data["results"] for game in entry["games"]]
        records = [{"key": key, "seed": seed, "winner": {"a": "attackers", "d": "defenders", "-": None}[w], "kind": kind,
                    "plies": plies, **({"gave_up": list(rest)} if rest else {})} for key, seed, w, kind, plies, *rest in rows]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise WorkFileError(f"cannot read {path} as a results file: {error}") from None
    except RecursionError:
        raise WorkFileError(f"cannot read {path} as a results file: its JSON is nested too deeply") from None
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for rec in records:
        problem = check_record(rec)
        if problem:
            raise WorkFileError(f"{path}: seed {rec['seed']!r} of {rec['key']!r}: {problem}")
        k = (rec["key"], rec["seed"])
        if out.setdefault(k, rec) != rec:
            raise WorkFileError(f"{path} records different results for seed {k[1]} of {k[0]}; remove the wrong one")
    return out


def reuse_games(work_file: str, results: Iterable[str], configs: Iterable[Config], seeds: Iterable[int]) -> dict[str, int]:
    """Copy into ``work_file`` the games that finished results files already hold for these
    configurations and seeds (a game depends only on its configuration and seed, so a game
    played by one run counts for another), unless the work file has them; returns how many
    each file gave. Two sources that disagree about a game raise :class:`WorkFileError`."""
    wanted = {(c.key, int(s)) for c in configs for s in seeds}
    have = read_work(work_file)
    given: dict[str, int] = {}
    new: dict[tuple[str, int], dict[str, Any]] = {}
    for path in results:
        count = 0
        for k, rec in results_games(path).items():
            if k not in wanted:
                continue
            known = have.get(k) or new.get(k)
            if known is not None:
                if known != rec:
                    raise WorkFileError(f"{path} disagrees with the work file or an earlier --reuse file about "
                                        f"seed {k[1]} of {k[0]}")
                continue
            new[k] = rec
            count += 1
        given[path] = count
    if new:
        with open_work_file(work_file) as fh:
            for rec in new.values():
                fh.write(json.dumps(rec, sort_keys=True) + "\n")
    return given


def seeds_done(configs: Iterable[Config], seeds: Iterable[int], work_file: str | None) -> list[int]:
    """The leading ``seeds``, up to the first gap, whose game the work file holds for every one of
    ``configs``: the part of a run stopped part-way that can be tabled without tilting it toward
    the configurations played first.

    >>> seeds_done([Config("brandubh", (), 1, 1, 80)], range(3), None)
    []
    """
    configs = list(configs)
    done = read_work(work_file) if work_file and os.path.exists(work_file) else {}
    whole = []
    for s in seeds:
        if not all((c.key, s) in done for c in configs):
            break
        whole.append(s)
    return whole


def _ends_with_newline(path: str) -> bool:
    with open(path, "rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


def open_work_file(path: str) -> TextIO:
    """Open a work file for appending (creating it), ending a line cut short; refuses with
    :class:`WorkFileError` a path that cannot be written."""
    try:
        torn = os.path.isfile(path) and os.path.getsize(path) > 0 and not _ends_with_newline(path)
        fh = open(path, "a", encoding="utf-8")
    except OSError as error:
        raise WorkFileError(f"cannot write the work file {path}: {error.strerror or error}") from None
    if torn:
        fh.write("\n")  # end a line cut short, so the next record starts on its own line
        fh.flush()
    return fh


def _reopen_if_replaced(fh: TextIO, path: str, done: dict[tuple[str, int], dict[str, Any]],
                       report: Callable[[str], None] | None) -> TextIO:
    """The open work file; or, if the file at ``path`` was replaced or removed during the run
    (a checkout, a stash, an editor), the file now there, reopened, with every finished game
    it lacks written to it again. Appending to the old file would lose those games silently."""
    try:
        if os.path.samestat(os.fstat(fh.fileno()), os.stat(path)):
            return fh
    except FileNotFoundError:
        pass
    fh.close()
    there = read_work(path, report)
    fh = open_work_file(path)
    lacking = [rec for key, rec in done.items() if key not in there]
    for rec in lacking:
        fh.write(json.dumps(rec, sort_keys=True) + "\n")
    fh.flush()
    say = report or (lambda text: print(text, file=sys.stderr))
    say(f"the work file {path} was replaced during the run: {len(lacking)} finished games it lacked "
        "were written to it again")
    return fh


def run(configs: Iterable[Config], seeds: Iterable[int], *, workers: int | None = None,
        scheduler: Any = None, work_file: str | None = None, progress: bool = False,
        on_game: Callable[[dict[str, Any]], None] | None = None, report: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play every configuration with every seed and return ``{"provenance", "results"}``.

    ``workers``: local processes (default: every core; 1 plays in this process).
    ``scheduler``: a Dask scheduler address (``"tcp://host:8786"``) or a
    ``distributed.Client``; then the games run on that cluster instead. ``work_file``:
    JSON-lines file of finished games, read first (resume; bad lines are reported
    through ``report`` and played again, see :func:`read_work`) and appended to; if the
    file is replaced during the run, the finished games it lacks are written to the new one.
    ``on_game`` is called with each newly finished game (tests use it). Games are dealt
    out seed by seed (every configuration's seed 0, then every configuration's seed 1, ...),
    so a run stopped part-way holds about as many games of each configuration.

    Nothing is played before every configuration is known to be valid and the work
    file and the scheduler are known to be usable. An interruption (Ctrl-C, or
    SIGTERM under :func:`signals_interrupt`) stops local worker processes at once;
    the games finished by then are in the work file.
    """
    configs = list(configs)
    seeds = [int(s) for s in seeds]
    keys = [c.key for c in configs]
    if len(set(keys)) != len(keys):
        raise ValueError("the same configuration is listed twice")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a whole number >= 1, got {workers!r}")
    for c in configs:
        c.rules()  # refuse an unknown variant, toggle or reading before playing anything
    done = read_work(work_file, report)
    wanted = {(c.key, s) for c in configs for s in seeds}
    done = {k: v for k, v in done.items() if k in wanted}
    # seed by seed, so that a run stopped part-way has about as many games of each configuration
    tasks = [(c.to_dict(), s) for s in seeds for c in configs if (c.key, s) not in done]
    commit = _git_commit()  # the code the games are played with (read before they are)
    resumed = len(done)
    client = _dask_client(scheduler) if scheduler is not None and tasks else None
    fh = None
    try:
        fh = open_work_file(work_file) if work_file else None
        bar = _Progress(len(wanted), len(done), progress)
        started = time.monotonic()

        def record(rec: dict[str, Any]) -> None:
            k = (rec["key"], rec["seed"])
            if k in done:  # a game retried after a lost worker: counted once
                return
            nonlocal fh
            if fh and work_file:
                fh = _reopen_if_replaced(fh, work_file, done, report)
            done[k] = rec
            if fh:
                fh.write(json.dumps(rec, sort_keys=True) + "\n")
                fh.flush()
            bar.step()
            if on_game:
                on_game(rec)

        if client is not None:
            _run_dask(tasks, client, record)
        elif (workers or os.cpu_count() or 1) <= 1 or len(tasks) <= 1:
            for task in tasks:
                record(_play_task(task))
        else:

            run_tasks(_play_task, tasks, workers or os.cpu_count() or 1, record)
    finally:
        if fh:
            fh.close()
        if client is not None and client is not scheduler:
            client.close()
    missing = wanted - set(done)
    if missing:
        raise RuntimeError(f"{len(missing)} games did not finish")
    data = _assemble(configs, seeds, done, time.monotonic() - started, workers, scheduler, commit)
    data["provenance"]["resumed"] = resumed  # games read back from the work file, not played by this run
    return data


class Terminated(KeyboardInterrupt):
    """SIGTERM (or SIGHUP) arrived: handled like Ctrl-C, so a run stops the same way."""


class signals_interrupt:
    """Within this block SIGTERM and SIGHUP raise :class:`Terminated` in the main thread,
    so that a run killed politely stops its workers and keeps its finished games, as
    with Ctrl-C. (SIGKILL cannot be caught; the workers then end themselves.)"""

    def __enter__(self) -> "signals_interrupt":

        def raise_terminated(signum: int, _frame: Any) -> None:
            raise Terminated(signal.Signals(signum).name)

        self.saved = {}
        for name in ("SIGTERM", "SIGHUP"):
            sig = getattr(signal, name, None)
            if sig is not None:
                try:
                    self.saved[sig] = signal.signal(sig, raise_terminated)
                except ValueError:  # not the main thread: leave the signals alone
                    pass
        return self

    def __exit__(self, *exc: object) -> None:

        for sig, handler in self.saved.items():
            signal.signal(sig, handler)


def _dask_client(scheduler: Any) -> Any:
    from distributed import Client  # noqa: PLC0415

    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler, timeout="10s")
    except (OSError, ValueError, TypeError) as error:
        raise ValueError(f"cannot reach the Dask scheduler {scheduler!r}: {error}") from None


def _run_dask(tasks: list[Any], client: Any, record: Callable[[dict[str, Any]], None]) -> None:
    from distributed import as_completed  # noqa: PLC0415

    futures = [client.submit(_play_task, t, key=f"tafl-game-{t[1]}-{Config.from_dict(t[0]).key}", pure=True)
               for t in tasks]
    try:
        for fut in as_completed(futures):
            record(fut.result())
    except BaseException:
        client.cancel(futures)  # interrupted: queued games are not played
        raise


def _assemble(configs: list[Config], seeds: list[int], done: Mapping[tuple[str, int], dict[str, Any]], seconds: float,
              workers: int | None, scheduler: Any, commit: str | None) -> dict[str, Any]:

    results = []
    for c in configs:
        games = [done[(c.key, s)] for s in seeds]
        v = variant(c.variant, **dict(c.toggles))
        entry = {"key": c.key, "config": c.to_dict(), "name": v.name, "seeds": [seeds[0], seeds[-1]] if seeds else [],
                 "summary": summarise(games),
                 "games": [[g["seed"], {"attackers": "a", "defenders": "d", None: "-"}[g["winner"]], g["kind"],
                            g["plies"], *g.get("gave_up", ())] for g in games]}
        results.append(entry)
    provenance = {
        "package": "tafl_rules", "version": __version__, "commit": commit,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "seeds": {"first": seeds[0], "last": seeds[-1], "count": len(seeds)} if seeds else {},
        "games": len(configs) * len(seeds), "seconds": round(seconds, 1),
        "runner": "dask" if scheduler is not None else f"local x{workers or os.cpu_count() or 1}",
        "python": sys.version.split()[0],
        "note": "Self-play of the tafl_rules AI (node budgets, seeded tie-breaks); the results part depends "
                "only on the configurations and seeds.",
    }
    return {"provenance": provenance, "results": results}


def _git_commit() -> str | None:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:

        out = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


_FLAT_LIST = re.compile(r'\[\n\s+((?:[-\w."]+,\n\s+)*[-\w."]+)\n\s+\]')


def write_json(data: Mapping[str, Any], path: str) -> None:
    """Write results as indented, key-sorted JSON (stable bytes for the same results),
    each game's ``[seed, winner, ending, plies]`` on one line."""
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)
    text = _FLAT_LIST.sub(lambda m: "[" + re.sub(r",\n\s+", ", ", m.group(1)) + "]", text) + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


# ------------------------------------------------------------------ site suite

def jones_configs(variant_id: str, level: int | str = 1, ply_cap: int = 300) -> list[Config]:
    """Jones's three points read the other way on ``variant_id``, each alone and then all
    three together (:data:`JONES_REVERSED`'s toggles): the king's side moves first, the king
    is armed, the attackers must leave the whole side without a move."""
    singles = [Config(variant_id, (change,), level, level, ply_cap) for change in JONES_REVERSED[1]]
    return singles + [Config(variant_id, JONES_REVERSED[1], level, level, ply_cap)]


def site_configs(level: int | str = 1, ply_cap: int = 300) -> list[Config]:
    """The site's comparison: every catalogue variant as it stands, each single change
    of :data:`SITE_TOGGLES` on :data:`SITE_BASES` (the main tawlbwrdd readings), and
    :data:`JONES_REVERSED`."""

    out = [Config(v.id, (), level, level, ply_cap) for v in variants()]
    for base in SITE_BASES:
        v = variant(base)
        for name in SITE_TOGGLES:
            toggle = v.toggles.get(name)
            if toggle is None:
                continue
            for reading in toggle.readings:
                if reading != toggle.default:
                    out.append(Config(base, ((name, reading),), level, level, ply_cap))
    out.append(Config(JONES_REVERSED[0], JONES_REVERSED[1], level, level, ply_cap))
    return out
