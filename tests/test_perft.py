"""perft: the number of legal move sequences of depth 1-3 from each start position.

Where the counts come from (``tests/data/perft-reference.md``): the Copenhagen counts
116, 6,788 and 806,344 are those pyhnefatafl 0.3.2, another engine, counts from the same
start (``python benchmarks/perft_reference.py`` prints both side by side). The other
starts have no outside source; they are pinned from this engine and recounted at depth 1
and 2 by the tests' own square-by-square walkers. The rules are built here from
:class:`Rules` (the catalogue adds its variant ids elsewhere). A change in any of these
numbers means the move generator, a capture rule or an ending changed. Run
``pytest tests/test_perft.py -s`` to see them printed.
"""

from pathlib import Path

import pytest

from tafl_rules import Game, Rules, variant
from test_properties import reference_targets

COPENHAGEN = variant("copenhagen").rules  # the catalogue's Copenhagen Hnefatafl
TABLUT = Rules(
    size=9, start="/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    king_capture="linnaeus", throne_hostile_to_attackers="empty", throne_hostile_to_defenders="empty",
)
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

PERFT = {
    "default 11x11 (Rules())": (Rules(), [128, 12992, 1669528]),
    "copenhagen": (COPENHAGEN, [116, 6788, 806344]),  # = pyhnefatafl 0.3.2 (tests/data/perft-reference.md)
    "tablut 9x9": (TABLUT, [80, 4400, 353200]),
    "brandubh 7x7": (BRANDUBH, [40, 960, 39512]),
    "granquist 9x9 (depth 1-2)": (GRANQUIST_9, [56, 4392]),
}


@pytest.mark.parametrize("name", list(PERFT))
def test_perft(name):
    rules, expected = PERFT[name]
    counts = [Game(rules).perft(depth) for depth in range(1, len(expected) + 1)]
    print(f"\nperft {name}: {counts}")
    assert counts == expected


def test_the_copenhagen_counts_are_the_other_engines():
    """The pinned Copenhagen counts are the ones recorded from pyhnefatafl in tests/data."""
    text = (Path(__file__).parent / "data" / "perft-reference.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| pyhnefatafl"))
    counts = [int(cell.replace(",", "")) for cell in row.split("|")[3:6]]
    assert counts == PERFT["copenhagen"][1]


def test_perft_depth_1_is_the_legal_move_count():
    for rules, expected in PERFT.values():
        game = Game(rules)
        assert len(game.legal_moves()) == expected[0]


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
