"""perft: the number of legal move sequences of each depth from each start position.

The reference counts are data (``tests/data/perft/*.perft``, one rule set a file, the format
in ``tests/data/README.md``): the rules as an OTN rules string, the count at each depth and
where each count comes from - another program's count recorded here (pyhnefatafl's, by
``python benchmarks/perft_reference.py``; ``tests/data/perft-reference.md``), a count
reported second-hand (OpenTafl's, in the project's code review), or a count pinned from this
engine, recounted at depth 1 and 2 by the tests' own square-by-square walkers. Depth 1-3 is
counted for every file and depth 4 for brandubh (a slow test). A change in any of these
numbers means the move generator, a capture rule or an ending changed. Run
``pytest tests/test_perft.py -s`` to see them printed.
"""

import re
from pathlib import Path

import pytest

from tafl_rules import Game, Rules, parse_rules, variant
from test_properties import reference_targets

DATA = Path(__file__).parent / "data" / "perft"
#: How sure a count is: another program's, run here and recorded; reported by a project document
#: from a run not stored here; stated without a record; or this engine's own.
STATUSES = ("first-hand", "second-hand", "stated", "pinned")

COPENHAGEN = variant("copenhagen").rules  # the catalogue's Copenhagen Hnefatafl
BRANDUBH = Rules(
    size=7, start="/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", corners=True, escape="corner",
    corners_hostile_to_attackers="always", corners_hostile_to_defenders="always",
    throne_hostile_to_attackers="empty", throne_hostile_to_defenders="empty",
)

#: Granquist's "Tafl" (1995) on the tablut board: camps, Konakis rules, unarmed king,
#: no moving into jeopardy except to capture, the defenders ("Blue") first
GRANQUIST_9 = Rules(
    size=9, start="/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/", first="defenders",
    camps=True, camp_stop=frozenset(), throne_stop={"king"}, throne_pass={"defender", "king"},
    king_reenter_throne=False, camps_hostile_to_defenders="empty", throne_hostile_to_defenders="empty",
    king_armed="no", sandwich="unless-capturing", king_capture="four", king_capture_against={"throne", "camp"},
    escape="edge-except-camps", tuichi="win",
)


def read_perft(path: Path) -> dict:
    """One ``.perft`` file: its id, rules, variant (if any), counts by depth and sources by depth."""
    record: dict = {"variant": None, "counts": {}, "sources": {}}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key in ("id", "variant"):
            record[key] = value
        elif key == "rules":
            record["rules"] = parse_rules(value)
        elif key == "perft":
            depth, count = value.split()
            record["counts"][int(depth)] = int(count)
        elif key == "source":
            m = re.fullmatch(r"(\d)(?:-(\d))? ([a-z-]+): (.+)", value)
            assert m and m.group(3) in STATUSES, f"{path.name}:{number}: {line}"
            for depth in range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1):
                record["sources"].setdefault(depth, []).append((m.group(3), m.group(4)))
        else:
            raise AssertionError(f"{path.name}:{number}: unknown key {key!r}")
    return record


RECORDS = {path.stem: read_perft(path) for path in sorted(DATA.glob("*.perft"))}


def test_every_count_names_its_source_and_the_rules_are_the_catalogues():
    assert {"copenhagen", "tablut-linnaeus", "brandubh", "tawlbwrdd-cyningstan", "tawlbwrdd-bell"} <= set(RECORDS)
    for name, record in RECORDS.items():
        assert record["id"] == name and record["counts"]
        assert set(record["sources"]) == set(record["counts"]), name
        if record["variant"]:
            assert record["rules"] == variant(record["variant"]).rules, name


@pytest.mark.parametrize("name", list(RECORDS))
def test_perft_to_depth_3(name):
    record = RECORDS[name]
    expected = [count for depth, count in sorted(record["counts"].items()) if depth <= 3]
    counts = [Game(record["rules"]).perft(depth) for depth in range(1, len(expected) + 1)]
    print(f"\nperft {name}: {counts}")
    assert counts == expected


@pytest.mark.slow
def test_perft_depth_4_of_brandubh():
    assert Game(RECORDS["brandubh"]["rules"]).perft(4) == RECORDS["brandubh"]["counts"][4] == 1_007_392


def test_the_copenhagen_counts_are_the_other_engines():
    """The Copenhagen counts recorded from pyhnefatafl in tests/data/perft-reference.md are the data file's."""
    text = (Path(__file__).parent / "data" / "perft-reference.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| pyhnefatafl"))
    cells = [cell.strip().replace(",", "") for cell in row.split("|")[3:-1]]
    counts = {depth: int(cell) for depth, cell in enumerate(cells, 1) if cell.isdigit()}
    assert counts == RECORDS["copenhagen"]["counts"]


def test_perft_depth_1_is_the_legal_move_count():
    for record in RECORDS.values():
        assert len(Game(record["rules"]).legal_moves()) == record["counts"][1]


def test_perft_2_equals_sum_over_replies():
    game = Game(BRANDUBH)
    total = 0
    for move in game.legal_moves():
        game.play(move)
        total += len(game.legal_moves())
        game.undo()
    assert total == game.perft(2) == 960


def test_perft_leaves_the_game_unchanged():
    game = Game(COPENHAGEN)
    before = (game.position(), game.hash, game.turn)
    game.perft(2)
    assert (game.position(), game.hash, game.turn) == before


def test_speed_limit_changes_perft():
    # the king's men hem him in at the start, so the counts only change for the attackers' men
    slow = Game(BRANDUBH.replace(man_speed=1)).perft(1)
    assert slow == 16  # every attacker may only step one square sideways, two ways


def test_perft_2_against_the_reference_walk():
    """Depth 2 recounted with the square-by-square reference of the property tests
    (movement only, so on a rule set where no move in the first two plies captures)."""
    rules = GRANQUIST_9.replace(sandwich="safe")
    game = Game(rules)
    total = 0
    for move in game.legal_moves():
        assert not move.captures
        game.play(move)
        side = game.pieces("attacker") if game.turn == "attackers" else game.pieces("defender") + game.pieces("king")
        king_left = game.piece_at("e5") != "king"
        total += sum(len(reference_targets(game, sq, king_left)) for sq in side)
        game.undo()
    assert total == game.perft(2)
