"""The AI opponent: legal, deterministic, stoppable, sees what is one move away, and the
higher level beats the lower."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tafl_rules
from fuzzing import snapshot
from tafl_rules import Game
from tafl_rules.ai import DEFAULT_LEVEL, LEVELS, Level, analyse, choose_move
from tafl_rules.ai.evaluate import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights, evaluator
from tafl_rules.position import format_position


@pytest.mark.parametrize("vid", [v.id for v in tafl_rules.variants()])
def test_every_variant_gets_a_legal_move_and_the_game_is_unchanged(vid):
    # the search plays on the game's own engine position and takes every move back: the whole
    # state must come back (repetition counts, the undo stack, the king's having left the throne)
    game = Game(vid)
    game.play(choose_move(game, level=1, seed=3))  # a move by each side
    before = snapshot(game)
    move = choose_move(game, level=2, seed=3)
    assert snapshot(game) == before
    legal = {str(m): m for m in game.legal_moves()}
    assert str(move) in legal
    assert move.captures == legal[str(move)].captures


def test_same_seed_same_move_and_seeds_vary_at_level_one():
    game = Game("tawlbwrdd-cyningstan")
    for _ in range(4):
        game.play(choose_move(game, level=1, seed=11))
    # the node budget, not the clock, must end these searches (a loaded machine may hit the time cap)
    first, again = (analyse(game, 3, 5, time_cap=math.inf) for _ in range(2))
    assert str(first.move) == str(again.move) and first.stopped_by != "time"
    assert str(choose_move(game, level=1, seed=5)) == str(choose_move(game, level=1, seed=5))
    picks = {str(choose_move(game, level=1, seed=s)) for s in range(12)}
    assert len(picks) > 1  # the seeded margin picks among near-equal moves


def test_determinism_does_not_depend_on_the_clock():
    game = Game("tablut-linnaeus")
    first = analyse(game, level=3, seed=1)
    slow = analyse(game, level=3, seed=1, stop=lambda: (time.sleep(0.0005), False)[1])
    assert (str(first.move), first.score, first.depth, first.nodes) == (str(slow.move), slow.score, slow.depth, slow.nodes)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_king_takes_an_open_road(level):
    # defenders to move; the king on e5 has an open file to e1 (an edge square)
    game = Game("tawlbwrdd-cyningstan", position="/11/1t9/11/11/11/4K6/11/11/3t7/11/11/", turn="defenders")
    move = choose_move(game, level=level, seed=0)
    game.play(move)
    assert game.outcome is not None and game.outcome.winner == "defenders", (move, str(game))


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_attackers_take_the_king_when_they_can(level):
    # king taken by two: attacker on d6, king e6, an attacker can close f6 from f2
    game = Game("tawlbwrdd-cyningstan", position="/t10/5t5/11/11/11/3tK6/11/11/11/11/11/", turn="attackers")
    move = choose_move(game, level=level, seed=0)
    game.play(move)
    assert game.outcome is not None and game.outcome.kind == "king-captured", (move, str(game))


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_attackers_block_a_single_road(level):
    # the king on e6, hemmed by his own men on c6, g6 and e8, sees the edge only down the e file;
    # the attacker on a3 can close it on e3 (and nothing can take the king)
    game = Game("tawlbwrdd-cyningstan", position="/11/11/t10/11/11/2T1K1T4/11/4T6/11/11/11/", turn="attackers")
    before = [sq for sq in Game(game.rules, position=game.position(), turn="defenders").legal_targets()["e6"]
              if sq[1:] in ("1", "11") or sq[0] in "ak"]
    assert before == ["e1"]
    move = choose_move(game, level=level, seed=0)
    game.play(move)
    king = game.legal_targets()["e6"]
    assert not [sq for sq in king if sq[1:] in ("1", "11") or sq[0] in "ak"], (move, str(game))


def test_stop_returns_a_legal_move_at_once():
    game = Game("alea-evangelii")
    game.play(choose_move(game, level=1, seed=0))
    before = snapshot(game)
    result = analyse(game, level=5, seed=0, stop=lambda: True)
    assert str(result.move) in {str(m) for m in game.legal_moves()}
    assert result.nodes <= 300  # polled every 256 nodes
    assert snapshot(game) == before  # the moves of the search cut short were all taken back


def test_bad_level_and_finished_game_are_refused():
    game = Game("brandubh")
    with pytest.raises(ValueError, match="level must be one of"):
        choose_move(game, level=9)
    over = Game("tawlbwrdd-cyningstan", position="/11/1t9/11/11/11/4K6/11/11/3t7/11/11/", turn="defenders")
    over.play("e6-e11")
    with pytest.raises(ValueError, match="the game is over"):
        choose_move(over)


def test_default_level_is_held_to_its_node_budget():
    # the budget is what keeps the board's reply under a second; the seconds themselves are
    # measured by benchmarks/bench_ai.py and bench_board.py, not asserted here
    game = Game("tawlbwrdd-cyningstan")
    for _ in range(6):
        result = analyse(game, level=DEFAULT_LEVEL, seed=0, time_cap=600.0)
        assert result.stopped_by in ("nodes", "depth")  # the budget (or the depth), never the clock
        assert result.depth >= 2  # a real search, not the fallback move
        game.play(result.move)


def test_evaluation_reads_the_rules():
    edge = evaluator(Game("tawlbwrdd-cyningstan").rules)
    corner = evaluator(Game(tafl_rules.variant("tawlbwrdd-cyningstan", escape="corner").rules).rules)
    size = 11
    e6 = 5 * size + 4
    a6 = 5 * size
    assert edge.dist[a6] == 0 and corner.dist[a6] == 5  # a6 is an edge square, five steps from a corner
    assert edge.dist[e6] == 4 and corner.dist[e6] == 9
    assert edge.guard == 0 and corner.guard.bit_count() == 12
    four_rules = tafl_rules.variant("tawlbwrdd-cyningstan", king_capture="four").rules
    four = evaluator(four_rules)

    def exposed(ev, rules, a, k):  # the estimate, given where the king can move in that position
        king_targets = Game(rules, position=format_position(a, 0, k, size), turn="attackers").engine.king_targets()
        return ev.king_exposed(a, 0, k, king_targets)

    a = sum(1 << s for s in (e6 - 1, e6 + 1, e6 - size))  # three attackers around a king on e6
    assert exposed(four, four_rules, a, e6) is False  # the fourth side, e7, no attacker can reach
    a2 = a | 1 << (10 * size + 4)  # an attacker on e11 sees e7 down the file
    assert exposed(four, four_rules, a2, e6) is True
    two = evaluator(Game("tawlbwrdd-cyningstan").rules)
    assert exposed(two, Game("tawlbwrdd-cyningstan").rules, 1 << (e6 - 1) | 1 << (10 * size + 5), e6) is True  # d6 + f11


@pytest.mark.parametrize("vid", ["copenhagen", "tablut-linnaeus", "tawlbwrdd-cyningstan", "hywel-dda-jones",
                                 "tafl-granquist", "brandubh", "alea-evangelii"])
def test_the_score_is_its_counts_times_the_weights(vid):
    # what the Texel tuning relies on: the evaluation is linear in its weights
    rules = Game(vid).rules
    ev = evaluator(rules)
    doubled = evaluator(rules, Weights(*(2 * w for w in DEFAULT_WEIGHTS)))
    tuned = evaluator(rules, TUNED_WEIGHTS)
    seen = 0
    for seed in range(3):
        game = Game(vid)
        while game.outcome is None and game.ply < 60:
            p = game.engine
            state = (p.a, p.d, p.k, p.side, p.king_targets())
            counts = ev.features(*state)
            assert len(counts) == len(Weights._fields)
            for weights, evx in ((DEFAULT_WEIGHTS, ev), (TUNED_WEIGHTS, tuned)):
                assert abs(sum(c * w for c, w in zip(counts, weights)) - evx.attackers_score(*state)) <= 1
            assert abs(doubled.attackers_score(*state) - 2 * ev.attackers_score(*state)) <= 2
            seen += any(counts[2:])  # some position where more than material counts
            game.play(choose_move(game, level=1, seed=seed))
    assert seen


def _region_by_walking(ev, k, passable):
    """region_of the slow way: a breadth-first walk over neighbouring squares."""
    seen, todo = {k}, [k]
    while todo:
        sq = todo.pop()
        for nb in ev.neighbours[sq]:
            if nb not in seen and passable >> nb & 1:
                seen.add(nb)
                todo.append(nb)
    return sum(1 << x for x in seen)


@pytest.mark.parametrize("vid", ["brandubh", "copenhagen", "alea-evangelii"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_kings_area_is_what_a_walk_over_neighbours_reaches(vid, data):
    ev = evaluator(Game(vid).rules)
    n = ev.size * ev.size
    k = data.draw(st.integers(0, n - 1))
    passable = data.draw(st.integers(0, (1 << n) - 1)) | data.draw(st.integers(0, (1 << n) - 1))
    assert ev.region_of(k, passable) == _region_by_walking(ev, k, passable)


def test_the_fence_terms_see_a_king_walled_in():
    # copenhagen: a king on f6 inside a closed ring of attackers reaches no corner
    ev = evaluator(Game("copenhagen").rules)
    size = 11
    ring = {(r, f) for r in range(3, 8) for f in range(3, 8) if r in (3, 7) or f in (3, 7)}
    a = sum(1 << (r * size + f) for r, f in ring)
    king = 5 * size + 5
    area = ev.region_of(king, ev.full & ~a)
    assert area.bit_count() == 9 and not area & ev.escape
    assert ev.region_of(king, ev.full).bit_count() == size * size


def test_a_corner_far_from_the_king_is_worth_nothing_to_the_attackers():
    """PLAY_WEIGHTS count a closed corner (three men two steps from it) only while the king is
    within FAR_FROM_CORNER steps of it; CORNERS_TIED, the weights of the retired level 203, always."""
    from tafl_rules.ai.evaluate import CORNERS_TIED, FAR_FROM_CORNER, PLAY_WEIGHTS
    from tafl_rules.engine import ATTACKERS
    from tafl_rules.position import format_position

    rules = Game("copenhagen").rules
    play, tied = evaluator(rules, PLAY_WEIGHTS), evaluator(rules, CORNERS_TIED)
    a1_closed = sum(1 << (r * 11 + f) for r, f in ((2, 0), (1, 1), (0, 2)))  # a3, b2, c1
    a = a1_closed | 1 << (10 * 11 + 5)  # and one more attacker on f11
    d = 1 << (5 * 11 + 9)  # a defender on j6
    far_away = {"k9": 8 * 11 + 10, "d4": 3 * 11 + 3}  # 18 and 6 steps from a1
    gaps = {}
    for name, king in far_away.items():
        kt = Game(rules, position=format_position(a, d, king, 11)).engine.king_targets()
        gaps[name] = tied.attackers_score(a, d, king, ATTACKERS, kt) - play.attackers_score(a, d, king, ATTACKERS, kt)
    assert play.corner_steps[0][far_away["k9"]] > FAR_FROM_CORNER >= play.corner_steps[0][far_away["d4"]]
    assert gaps == {"k9": -(3 * PLAY_WEIGHTS.seal_far + PLAY_WEIGHTS.closed_far), "d4": 0}
    assert gaps["k9"] == 3 * 150 + 400


def _roads_by_scanning(ev, king_targets, occ):
    """next_roads written the slow way: walk each ray until a piece or an escape square."""
    forks = near = 0
    for sq in range(ev.size * ev.size):
        if not king_targets >> sq & 1 or ev.escape >> sq & 1:
            continue
        roads = 0
        for ray in ev.rays[sq]:
            for x in ray:
                if occ >> x & 1:
                    break
                if ev.escape >> x & 1:
                    roads += 1
                    break
        forks += roads >= 2
        near += roads == 1
    return forks, near


@pytest.mark.parametrize("vid", ["tawlbwrdd-cyningstan", "copenhagen", "tafl-granquist", "brandubh"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_precomputed_roads_match_a_scan_along_the_rays(vid, data):
    ev = evaluator(Game(vid).rules)
    n = ev.size * ev.size
    occ = data.draw(st.integers(0, (1 << n) - 1).map(lambda x: x & data.draw(st.integers(0, (1 << n) - 1))))
    king_targets = data.draw(st.integers(0, (1 << n) - 1)) & ~occ
    assert ev.next_roads(king_targets, occ) == _roads_by_scanning(ev, king_targets, occ)


def _play(vid, levels, seed, cap=150):
    game = Game(vid)
    while game.outcome is None and game.ply < cap:
        level = levels[0] if game.turn == "attackers" else levels[1]
        game.play(choose_move(game, level, seed))
    return game.outcome.winner if game.outcome else None


def test_level_three_beats_level_one_on_brandubh_both_sides():
    wins = 0
    for seed in range(2):
        wins += _play("brandubh", (3, 1), seed) == "attackers"
        wins += _play("brandubh", (1, 3), seed) == "defenders"
    assert wins >= 3


def _score_after(game, move, depth, monkeypatch):
    """The mover's exact alpha-beta score of ``move`` searched ``depth`` plies deep in all."""
    after = Game("brandubh", position=game.position(), turn=game.turn)
    after.play(move)
    monkeypatch.setitem(LEVELS, 98, Level(depth - 1, 10**8, 0, 600.0, "exact: no budget", prune=False))
    return -analyse(after, 98, 0).score


def test_an_iteration_cut_short_by_the_budget_still_improves_the_move(monkeypatch):
    # budgets that end the search part-way through an iteration: where the cut search's move
    # differs from the last complete iteration's, it scores better at the cut iteration's depth
    game = Game("brandubh")
    differing = 0
    for budget in range(3_000, 9_001, 500):
        monkeypatch.setitem(LEVELS, 99, Level(10, budget, 0, 600.0, "test: a budget", prune=False))
        cut = analyse(game, 99, 0)
        assert cut.nodes == budget  # the budget, not the depth, ended it
        monkeypatch.setitem(LEVELS, 97, Level(cut.depth, 10**8, 0, 600.0, "test: the last complete depth", prune=False))
        complete = analyse(game, 97, 0)
        if str(cut.move) != str(complete.move):
            differing += 1
            deeper = cut.depth + 1
            assert _score_after(game, cut.move, deeper, monkeypatch) >= _score_after(game, complete.move, deeper,
                                                                                    monkeypatch)
    assert differing  # some budget shows it


def test_the_search_says_what_stopped_it(monkeypatch):
    game = Game("copenhagen")
    assert analyse(game, level=3, seed=0, time_cap=math.inf).stopped_by == "nodes"
    assert analyse(game, level=3, seed=0, time_cap=0.0).stopped_by == "time"  # not reproducible: it says so
    assert analyse(game, level=3, seed=0, stop=lambda: True).stopped_by == "caller"
    monkeypatch.setitem(LEVELS, 96, Level(1, 10**8, 0, 600.0, "test: one ply"))
    assert analyse(game, level=96, seed=0).stopped_by == "depth"


def test_a_pass_is_taken_back_exactly():
    game = Game("tablut-linnaeus")
    pos = game.engine
    before = (pos.a, pos.d, pos.k, pos.side, pos.hash, dict(pos.seen), len(pos.stack))
    pos.pass_turn()
    assert pos.side != before[3] and pos.hash != before[4]
    pos.pass_turn()
    assert (pos.a, pos.d, pos.k, pos.side, pos.hash, dict(pos.seen), len(pos.stack)) == before


def test_pruning_searches_deeper_on_the_same_budget(monkeypatch):
    # null windows, reductions and null moves spend the same nodes on a deeper search
    positions = [Game("tawlbwrdd-cyningstan"), Game("copenhagen"), Game("tablut-linnaeus")]
    for game in positions[:]:
        g = Game(game.rules)
        for seed in range(6):
            g.play(choose_move(g, level=1, seed=seed))
        positions.append(g)
    monkeypatch.setitem(LEVELS, 95, Level(12, 20_000, 0, math.inf, "test: pruned", prune=True))
    monkeypatch.setitem(LEVELS, 94, Level(12, 20_000, 0, math.inf, "test: not pruned"))
    pruned = sum(analyse(g, 95, 0).depth for g in positions)
    plain = sum(analyse(g, 94, 0).depth for g in positions)
    assert pruned > plain


def test_the_board_worker_is_told_when_the_clock_cut_a_search():
    import json

    from tafl_rules import webapi

    webapi.handle("new", json.dumps({"board": "ai-test", "variant": "brandubh"}))
    reply = json.loads(webapi.handle("ai_move", json.dumps({"board": "ai-test", "level": 2, "seed": 0})))
    assert reply["search"]["stopped_by"] in ("depth", "nodes", "time") and reply["played"]  # "time" on a busy machine
    assert reply["search"]["nodes"] > 0
    assert "error" in json.loads(webapi.handle("ai_move", json.dumps({"board": "ai-test", "level": 9})))
