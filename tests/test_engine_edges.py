"""The engine at its edges: a king on the first square (a1, square 0), a position without a
king (as after his capture), a finished game, and the engine's smaller public pieces.

Square 0 and "no king" (``k == -1``) sit one step apart, so a rule that tests ``k >= 0`` is
easily written ``k > 0``; these positions are where such a slip shows. The mutation run
(``make mutants``) found each of them unwatched.
"""

import sys
import warnings

import pytest

from tafl_rules import Game, Rules
from tafl_rules.engine import ATTACKER, ATTACKERS, DEFENDER, DEFENDERS, KING, Position, pack, tables, unpack
from tafl_rules.engine.endings import announcements, king_threatened
from tafl_rules.engine.movement import sandwiched
from tafl_rules.squares import geometry

from test_engine_rules import pos

G7 = geometry(7)


def sq(name, g=G7):
    return g.index[name]


def bits(names, g=G7):
    return sum(1 << g.index[s] for s in names.split())


def position(rules, t="", T="", K="", side=ATTACKERS):
    g = geometry(rules.size)
    return Position(rules, bits(t, g), bits(T, g), g.index[K] if K else -1, side)


#: a 7x7 board where the king cannot escape, so he may stand on a1 with the game going on
NOWHERE = Rules(size=7, start="/7/7/7/3K3/7/7/7/", escape="none", throne=False)


# --- the king on a1 ----------------------------------------------------------


def test_the_king_on_a1_moves_from_there():
    p = position(NOWHERE, K="a1", t="g7", side=DEFENDERS)
    assert p.king_targets() == bits("a2 a3 a4 a5 a6 a7 b1 c1 d1 e1 f1 g1")
    assert len(p.moves()) == 12 and {unpack(m)[0] for m in p.moves()} == {sq("a1")}


def test_the_king_on_a1_is_seen_threatened():
    # taken on four sides, the board's edges counting: an attacker on b1, another able to reach a2
    p = position(NOWHERE.replace(king_capture="four", king_capture_against=frozenset({"edge"})),
                 K="a1", t="b1 g2", side=DEFENDERS)
    assert king_threatened(p)
    assert announcements(p) == ["king threatened"]


def test_the_armed_king_on_a1_is_one_of_the_two_enemies_of_an_attacker():
    rules = NOWHERE.replace(sandwich="forbidden")
    p = position(rules, K="a1", T="c1", t="b7 g7")
    assert sandwiched(p, sq("b1"), ATTACKERS, p.a, p.d, p.k)
    game = Game(rules, position=pos(7, K="a1", T="c1", t="b7 g7"), turn="attackers")
    assert "b1" not in game.legal_targets()["b7"]


def test_an_unarmed_king_on_a1_is_not():
    rules = NOWHERE.replace(sandwich="forbidden", king_armed="no")
    game = Game(rules, position=pos(7, K="a1", T="c1", t="b7 g7"), turn="attackers")
    assert "b1" in game.legal_targets()["b7"]


# --- no king on the board -----------------------------------------------------


def test_a_position_without_a_king():
    p = position(NOWHERE, T="d4", t="d2 g7", side=ATTACKERS)
    assert p.k == -1
    assert p.king_targets() == 0
    assert not king_threatened(p)
    assert announcements(p) == []
    assert p.occupied() == bits("d4 d2 g7")
    assert p.kind_at(sq("a1")) == -1
    assert len(p.moves()) == 8 + 12


def test_without_a_king_no_square_is_taken_for_him():
    # the sandwich rule's enemies of an attacker include the armed king: with none on the
    # board, an empty a1 is no enemy, and the attacker may stop on b1 beside it
    p = position(NOWHERE.replace(sandwich="forbidden"), T="c1 d4", t="b7 g7")
    assert not sandwiched(p, sq("b1"), ATTACKERS, p.a, p.d, p.k)
    assert pack(sq("b7"), sq("b1"), ATTACKER) in p.moves()


def test_after_the_king_is_taken_nothing_is_announced():
    p = position(NOWHERE, K="d4", T="", t="c4 e2 g7", side=ATTACKERS)
    p.make(sq("e2"), sq("e4"), ATTACKER)
    assert p.k == -1 and p.outcome is not None and p.outcome.winner == "attackers"
    assert p.king_targets() == 0
    assert not king_threatened(p)
    assert announcements(p) == []


def test_a_finished_game_announces_nothing_even_with_roads_open():
    rules = Rules(size=7, start="/7/7/7/3K3/7/7/7/", throne=False)  # escape to the edge
    p = position(rules, K="d4", t="a7", side=DEFENDERS)
    assert announcements(p) == ["tuichi", "check"]
    p.make(sq("d4"), sq("d1"), KING)
    assert p.outcome is not None and p.outcome.winner == "defenders"
    assert announcements(p) == []


# --- the smaller pieces -------------------------------------------------------


def test_a_move_packs_and_unpacks():
    for frm, to, kind in ((0, 0, ATTACKER), (120, 1, DEFENDER), (511, 510, KING), (3, 300, KING)):
        assert unpack(pack(frm, to, kind)) == (frm, to, kind)
    assert pack(1, 2, KING) == 1 << 11 | 2 << 2 | KING


def test_occupied_and_hostile_squares():
    rules = Rules(size=7, start="/7/7/7/3K3/7/7/7/", throne_hostile_to_defenders="empty",
                  throne_hostile_to_attackers="always")
    p = position(rules, K="d4", T="c4", t="a1")
    assert p.occupied() == bits("d4 c4 a1")
    centre = 1 << sq("d4")
    assert p.hostile(ATTACKERS, p.occupied()) == centre  # always
    assert p.hostile(DEFENDERS, p.occupied()) == 0  # only while empty
    assert p.hostile(DEFENDERS, 0) == centre


def test_the_start_is_the_position_before_the_first_move():
    p = position(NOWHERE, K="d4", T="c3", t="a1 g7")
    assert p.start() == (bits("a1 g7"), bits("c3"), sq("d4"), ATTACKERS)
    p.make(sq("a1"), sq("a2"), ATTACKER)
    p.make(sq("c3"), sq("c2"), DEFENDER)
    p.make(sq("g7"), sq("g6"), ATTACKER)
    assert p.start() == (bits("a1 g7"), bits("c3"), sq("d4"), ATTACKERS)


def test_captures_of_a_king_move_follow_the_kings_arming():
    # an attacker on c2 between the king's target c3 and a defender on c1
    for armed, expected in (("yes", bits("c2")), ("no", 0), ("anvil", 0), ("hammer", bits("c2"))):
        p = position(NOWHERE.replace(king_armed=armed), K="d3", T="c1", t="c2 g7", side=DEFENDERS)
        assert p.captures(sq("d3"), sq("c3"), KING, DEFENDERS) == expected, armed
    p = position(NOWHERE.replace(king_armed="no"), K="d3", T="c1 e3", t="c2 g7", side=DEFENDERS)
    assert p.captures(sq("e3"), sq("c3"), DEFENDER, DEFENDERS) == bits("c2")


def test_push_is_deprecated_with_its_replacement_named_at_the_callers_line():
    p = position(NOWHERE, K="d4", t="a1")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        p.push(sq("a1"), sq("a2"), ATTACKER)
    (warning,) = caught
    assert warning.category is DeprecationWarning
    assert str(warning.message) == "Position.push is deprecated; use Position.step"
    if "mutmut" not in sys.modules:  # under mutation testing its trampoline is one frame more
        assert warning.filename == __file__
    assert p.a == bits("a2")


@pytest.mark.parametrize("square, name", [("d4", "throne"), ("a1", "corner"), ("d1", "camp"), ("b2", "square")])
def test_what_the_rules_make_of_a_square(square, name):
    rules = Rules(size=7, start="/3t3/7/7/t2K2t/7/7/3t3/", corners=True, camps=True)
    assert tables(rules).special_name(sq(square)) == name


def test_the_king_on_a1_is_an_anvil_and_an_empty_a1_is_not():
    # a defender reaching c1 takes the attacker on b1 against the armed king on a1...
    p = position(NOWHERE, K="a1", T="c7", t="b1 g7", side=DEFENDERS)
    assert p.captures(sq("c7"), sq("c1"), DEFENDER, DEFENDERS) == bits("b1")
    # ...but with no king on the board, nothing stands on a1 to take it against
    p = position(NOWHERE, T="c7", t="b1 g7", side=DEFENDERS)
    assert p.make(sq("c7"), sq("c1"), DEFENDER) == 0
    assert p.a == bits("b1 g7")


def test_the_king_on_a1_is_counted_among_the_pieces():
    p = position(NOWHERE, K="a1", t="g7")
    assert p.occupied() == bits("a1 g7")


def test_the_outcome_when_the_side_to_move_has_no_move():
    p = position(NOWHERE, K="d4", t="g7")
    assert p.no_moves_outcome().winner == "defenders"  # the attackers to move, and they lose
    assert position(NOWHERE.replace(no_moves="draw"), K="d4", t="g7").no_moves_outcome().winner is None


# --- the sandwich rule judges the board after the move --------------------------

#: camps at d1, a4, g4 and d7 (the attackers' starting squares), hostile to attackers while empty
CAMPS = Rules(size=7, start="/3t3/7/7/t2K2t/7/7/3t3/", camps=True, camps_hostile_to_attackers="empty",
              sandwich="forbidden", escape="none")


def test_a_man_leaving_a_camp_one_step_leaves_it_empty_behind_him():
    # d1-e1: the camp d1 is empty once he has left it, so e1 lies between it and the defender on f1
    p = position(CAMPS, K="d4", T="f1", t="d1 g7")
    assert p.targets(sq("d1"), ATTACKER) >> sq("e1") & 1
    targets = p.sandwich_filter(sq("d1"), ATTACKER, ATTACKERS, p.targets(sq("d1"), ATTACKER))
    assert not targets >> sq("e1") & 1
    assert targets >> sq("d2") & 1


def test_an_occupied_camp_is_no_enemy():
    # e5-e1 ends beside the camp d1, where another attacker stands: not an enemy then
    p = position(CAMPS, K="d4", T="f1", t="d1 e5")
    targets = p.sandwich_filter(sq("e5"), ATTACKER, ATTACKERS, p.targets(sq("e5"), ATTACKER))
    assert targets >> sq("e1") & 1


def test_a_man_leaving_the_throne_one_step_leaves_it_empty_behind_him():
    rules = Rules(size=7, start="/7/7/7/3K3/7/7/7/", throne_stop=frozenset({"king", "defender"}),
                  throne_hostile_to_defenders="empty", sandwich="forbidden", escape="none")
    p = position(rules, K="a7", T="d4", t="f4 g1", side=DEFENDERS)
    assert p.targets(sq("d4"), DEFENDER) >> sq("e4") & 1
    targets = p.sandwich_filter(sq("d4"), DEFENDER, DEFENDERS, p.targets(sq("d4"), DEFENDER))
    assert not targets >> sq("e4") & 1
    assert targets >> sq("d5") & 1


def test_an_unarmed_king_may_not_stop_between_two_attackers_even_where_a_man_would_capture():
    # c3 lies between the attackers on b3 and d3; a defender on e3 would make d3 a capture for
    # an armed king (so his move would be allowed "unless capturing"), not for an unarmed one
    for armed, allowed in (("yes", True), ("no", False)):
        rules = NOWHERE.replace(sandwich="unless-capturing", king_armed=armed)
        p = position(rules, K="c6", T="e3", t="b3 d3 g7", side=DEFENDERS)
        assert p.targets(sq("c6"), KING) >> sq("c3") & 1
        targets = p.sandwich_filter(sq("c6"), KING, DEFENDERS, p.targets(sq("c6"), KING))
        assert bool(targets >> sq("c3") & 1) is allowed, armed


def test_a_man_may_stop_beside_an_empty_camp_only_if_no_enemy_faces_it():
    # c5-c1 ends between the defender on b1 and the empty camp d1, hostile to attackers
    p = position(CAMPS, K="d4", T="b1", t="c5 g7")
    assert p.targets(sq("c5"), ATTACKER) >> sq("c1") & 1
    targets = p.sandwich_filter(sq("c5"), ATTACKER, ATTACKERS, p.targets(sq("c5"), ATTACKER))
    assert not targets >> sq("c1") & 1


def test_a_man_beside_the_throne_held_by_another_defender_is_safe():
    rules = Rules(size=7, start="/7/7/7/3K3/7/7/7/", throne_stop=frozenset({"king", "defender"}),
                  throne_hostile_to_defenders="empty", sandwich="forbidden", escape="none")
    p = position(rules, K="a7", T="d4 e7", t="f4 g1", side=DEFENDERS)
    targets = p.sandwich_filter(sq("e7"), DEFENDER, DEFENDERS, p.targets(sq("e7"), DEFENDER))
    assert targets >> sq("e4") & 1


def test_the_king_may_stop_where_no_attacker_flanks_him():
    p = position(NOWHERE.replace(sandwich="forbidden"), K="c6", T="e3", t="g7", side=DEFENDERS)
    found = p.targets(sq("c6"), KING)
    assert p.sandwich_filter(sq("c6"), KING, DEFENDERS, found) == found


def test_the_last_file_has_no_neighbour_beyond_it():
    # g2 is on the last file: the square after it in numbering (a3) is on the next rank, no neighbour
    p = position(NOWHERE.replace(sandwich="forbidden"), K="d4", T="f2 a3", t="g7")
    found = p.targets(sq("g7"), ATTACKER)
    assert found >> sq("g2") & 1
    assert p.sandwich_filter(sq("g7"), ATTACKER, ATTACKERS, found) >> sq("g2") & 1
    assert not sandwiched(p, sq("g2"), ATTACKERS, p.a, p.d, p.k)


def test_the_tables_join_every_special_square_a_kind_is_barred_from():
    rules = Rules(size=7, start="/3t3/7/7/t2K2t/7/7/3t3/", corners=True, camps=True,
                  throne_stop=frozenset({"king"}), throne_pass=frozenset({"king"}), corner_stop=frozenset({"king"}),
                  camp_stop=frozenset(), camp_pass=frozenset({"king"}),
                  throne_hostile_to_attackers="always", throne_hostile_to_defenders="empty",
                  corners_hostile_to_attackers="always", camps_hostile_to_attackers="empty",
                  camps_hostile_to_defenders="always")
    t = tables(rules)
    throne, corners, camps = bits("d4"), bits("a1 g1 a7 g7"), bits("d1 a4 g4 d7")
    assert (t.throne, t.corners, t.camps) == (throne, corners, camps)
    assert t.nostop[ATTACKER] == t.nostop[DEFENDER] == throne | corners | camps
    assert t.nopass[ATTACKER] == t.nopass[DEFENDER] == throne | camps
    assert (t.nostop[KING], t.nopass[KING]) == (camps, 0)
    assert t.nopass_t == [G7.transpose(m) for m in t.nopass]
    assert t.hostile_always == [throne | corners, camps]  # [to attackers, to defenders]
    assert t.hostile_empty == [camps, throne]
    # a man may not pass the throne along a file either (the transposed table)
    p = position(rules, K="b6", T="d6", t="d2 f2")
    assert not p.targets(sq("d6"), DEFENDER) & bits("d4 d3 d2")


def test_a_piece_stops_short_of_the_king_on_a1():
    p = position(NOWHERE, K="a1", t="d1 g7")
    assert p.t.simple[ATTACKER]  # the table lookup, which reads the rank from the occupancy
    assert {unpack(m)[1] for m in p.moves() if unpack(m)[0] == sq("d1")} == {sq(s) for s in "b1 c1 e1 f1 g1 d2 d3 d4 d5 d6 d7".split()}
    p = position(NOWHERE, T="e5", t="d1 g7")  # no king: a1 is empty
    assert sq("a1") in {unpack(m)[1] for m in p.moves() if unpack(m)[0] == sq("d1")}


def test_undoing_a_move_restores_the_count_of_each_position_seen():
    # d4-d5, g7-g6, d5-d4, g6-g7 and again: the start comes back, counted once more each time
    p = position(NOWHERE, K="d4", t="g7", side=DEFENDERS)
    moves = [(sq("d4"), sq("d5"), KING), (sq("g7"), sq("g6"), ATTACKER), (sq("d5"), sq("d4"), KING),
             (sq("g6"), sq("g7"), ATTACKER)] * 2
    counts = []
    for move in moves:
        counts.append(dict(p.seen))
        p.make(*move)
    assert p.seen[p.hash] == 3
    while counts:
        p.unmake()
        assert p.seen == counts.pop()


def test_the_hashes_are_stable_across_runs_and_versions():
    # the AI draws its random choices from the position's hash (seeded play repeats, and the
    # balance lab's committed runs can be repeated), so the Zobrist keys are a fixed table
    from tafl_rules import variant

    game = Game(variant("brandubh").rules)
    assert game.hash == 2983295589422303397
    game.play("d1-b1")
    assert game.hash == 4802282886094922139
    assert Game(variant("copenhagen").rules).hash == 11813973917738649575
    # and for rules whose tables are new to this process (the catalogue's are built, and cached,
    # on import, and kept): the keys come from the board's size alone
    tables.cache_clear()  # (a mutation run's worker inherits the tables its parent built)
    fresh = NOWHERE.replace(ply_limit=7777)
    p = position(fresh, K="d4", t="a1", side=DEFENDERS)
    assert p.hash == 1554316988938357601
    p.make(sq("d4"), sq("d5"), KING)
    assert p.hash == 16566610163948131481
    nine = Rules(size=9, start="/9/9/9/9/4K4/9/9/9/9/", escape="none", ply_limit=7777)
    assert position(nine, K="e5", t="a1").hash == 17531313085898890112
    eleven = Rules(size=11, start="/11/11/11/11/11/5K5/11/11/11/11/11/", escape="none", ply_limit=7777)
    assert position(eleven, K="f6", t="a1", side=DEFENDERS).hash == 8186912017880235999


@pytest.mark.parametrize("change", [{}, {"encirclement": True}, {"edge_fort": True, "escape": "corner", "corners": True}, {"tuichi": "win"},
                                    {"repetition": "draw"}, {"ply_limit": 40}])
def test_the_rarer_endings_are_judged_even_in_the_searchs_fast_moves(change):
    rules = Rules(**change)
    assert tables(rules).rare_endings is bool(set(change) - {"escape", "corners"})


def test_a_fast_move_reaching_the_ply_limit_ends_the_game():
    p = position(NOWHERE.replace(ply_limit=2, repetition="draw"), K="d4", t="g7")
    p.make(sq("g7"), sq("g6"), ATTACKER, fast=True)
    assert p.outcome is None
    p.make(sq("d4"), sq("d5"), KING, fast=True)
    assert p.outcome is not None and p.outcome.winner is None


def test_the_warning_alone_lets_the_king_fall():
    assert tables(Rules(king_capture="none", watch_king=True)).king_can_fall
    assert not tables(Rules(king_capture="none")).king_can_fall
    assert tables(Rules()).king_can_fall


def test_a_fast_move_leaves_a_side_without_moves_to_be_found_later():
    # g2-a2 shuts the king in on a1 (not taken: nobody faces b1 or a2 across him)
    p = position(NOWHERE.replace(ply_limit=40), K="a1", t="b1 g2")
    p.make(sq("g2"), sq("a2"), ATTACKER, fast=True)
    assert p.outcome is None  # as documented: the caller finds it when it generates moves
    assert p.settle().winner == "attackers"
    p = position(NOWHERE.replace(ply_limit=40), K="a1", t="b1 g2")
    p.make(sq("g2"), sq("a2"), ATTACKER)
    assert p.outcome.winner == "attackers"


def test_a_fast_move_reaching_the_ply_limit_with_no_move_left_is_a_loss_not_a_draw():
    p = position(NOWHERE.replace(ply_limit=1), K="a1", t="b1 g2")
    p.make(sq("g2"), sq("a2"), ATTACKER, fast=True)
    assert p.outcome.winner == "attackers"


def test_after_the_king_is_taken_the_hash_and_occupancy_lose_him():
    p = position(NOWHERE, K="d4", t="c4 e2 g7")
    p.make(sq("e2"), sq("e4"), ATTACKER)
    assert p.k == -1
    assert p.hash == p._compute_hash()
    assert p.occt == G7.transpose(p.occupied())
    p.unmake()
    assert (p.k, p.hash, p.occt) == (sq("d4"), p._compute_hash(), G7.transpose(p.occupied()))


def test_an_ordinary_step_reports_no_reason():
    p = position(NOWHERE, K="d4", t="g7")
    assert p.step(sq("g7"), sq("g6"), ATTACKER) == (0, None)


def test_a_defenders_move_beside_their_king_never_takes_him():
    # the king stands between b3 and d3 by his own move (safe); a defender then joins him
    p = position(NOWHERE, K="c3", T="c6", t="b3 d3 g7", side=DEFENDERS)
    p.make(sq("c6"), sq("c4"), DEFENDER)
    assert p.k == sq("c3") and p.outcome is None
    # a defender's move that ends across the king from an attacker is no capture of him either
    p = position(NOWHERE, K="c3", T="c6", t="c2 g7", side=DEFENDERS)
    p.make(sq("c6"), sq("c4"), DEFENDER)
    assert p.k == sq("c3") and p.outcome is None


#: the throne hostile to defenders while empty, and a defender may stand on it
THRONE_EMPTY_HOSTILE = Rules(size=7, start="/7/7/7/3K3/7/7/7/", throne_stop=frozenset({"king", "defender"}),
                             throne_hostile_to_defenders="empty", escape="none")


def test_the_king_is_taken_against_the_empty_throne_only():
    p = position(THRONE_EMPTY_HOSTILE, K="c4", t="b7 g7")
    p.make(sq("b7"), sq("b4"), ATTACKER)
    assert p.k == -1  # between b4 and the empty throne d4
    p = position(THRONE_EMPTY_HOSTILE, K="d5", T="d4", t="d7 g1")
    p.make(sq("d7"), sq("d6"), ATTACKER)
    assert p.k == sq("d5")  # the throne holds a defender: no enemy


def test_a_slide_stops_short_of_the_king_on_a1_and_runs_on_where_there_is_none():
    assert position(NOWHERE, K="a1", t="d1").targets(sq("d1"), ATTACKER) == bits("b1 c1 e1 f1 g1 d2 d3 d4 d5 d6 d7")
    assert position(NOWHERE, T="g7", t="d1").targets(sq("d1"), ATTACKER) == bits("a1 b1 c1 e1 f1 g1 d2 d3 d4 d5 d6 d7")


#: defenders may stop on the throne but not pass it; attackers may do neither
THRONE_STOP_NOT_PASS = Rules(size=7, start="/7/7/7/3K3/7/7/7/", throne_stop=frozenset({"king", "defender"}),
                             throne_pass=frozenset({"king"}), escape="none")


def test_a_square_one_may_stop_on_but_not_pass_ends_the_slide_there():
    p = position(THRONE_STOP_NOT_PASS, K="a7", T="d1", t="g7")
    assert p.targets(sq("d1"), DEFENDER) == bits("a1 b1 c1 e1 f1 g1 d2 d3 d4")
    p = position(THRONE_STOP_NOT_PASS, K="a7", T="d1", t="d3 g7")
    assert p.targets(sq("d1"), DEFENDER) == bits("a1 b1 c1 e1 f1 g1 d2")  # d3 stands in the way
    p = position(THRONE_STOP_NOT_PASS, K="a7", t="d1 g7")
    assert p.targets(sq("d1"), ATTACKER) == bits("a1 b1 c1 e1 f1 g1 d2 d3")  # neither stop nor pass


def test_an_occupied_camp_is_no_anvil_for_the_king():
    # the king reaching b1 has the attacker on c1 between him and the camp d1, where another
    # attacker stands: no capture (the camp is hostile to attackers only while empty)
    p = position(CAMPS, K="b5", t="c1 d1 g7", side=DEFENDERS)
    assert p.captures(sq("b5"), sq("b1"), KING, DEFENDERS) == 0
    p = position(CAMPS, K="b5", t="c1 g7", side=DEFENDERS)
    assert p.captures(sq("b5"), sq("b1"), KING, DEFENDERS) == bits("c1")


def test_a_king_limited_to_one_square_still_stops_at_a_piece():
    p = position(NOWHERE.replace(king_speed=1), K="d4", T="d5", t="g7", side=DEFENDERS)
    assert p.king_targets() == bits("c4 e4 d3")


def test_a_new_position_knows_the_king_on_a1_down_the_file_too():
    p = position(NOWHERE, K="a1", t="a4 g7")
    assert p.rules is NOWHERE
    assert p.targets(sq("a4"), ATTACKER) & bits("a1 a2 a3") == bits("a2 a3")
    assert p.occt == G7.transpose(p.occupied())
    p = position(NOWHERE, T="g1", t="a4 g7")
    assert p.targets(sq("a4"), ATTACKER) & bits("a1 a2 a3") == bits("a1 a2 a3")


def test_the_king_on_a1_is_in_the_hash():
    p = position(NOWHERE, K="b1", t="g7", side=DEFENDERS)
    p.make(sq("b1"), sq("a1"), KING)
    assert p.hash == p._compute_hash()


def test_every_square_hostile_while_empty_is_counted_for_the_same_side():
    rules = Rules(size=7, start="/3t3/7/7/t2K2t/7/7/3t3/", camps=True, throne_hostile_to_attackers="empty",
                  camps_hostile_to_attackers="empty")
    assert tables(rules).hostile_empty[ATTACKERS] == bits("d4 d1 a4 g4 d7")
