"""Each rule point of the engine, on small hand-made positions (engine-level checks;
the scenario tests of the site exercise the same points through the catalogue)."""

import pytest

from tafl_rules import Game, IllegalMove, Rules, variant
from tafl_rules.squares import geometry
from tafl_rules.position import format_position

COPENHAGEN = variant("copenhagen").rules  # the catalogue's Copenhagen Hnefatafl
PLAIN = Rules(throne=False)  # the default start, no special squares at all


def pos(size=11, t="", T="", K=""):
    """An OTN position from lists of squares: t attackers, T defenders, K the king."""
    g = geometry(size)
    a = sum(1 << g.index[s] for s in t.split())
    d = sum(1 << g.index[s] for s in T.split())
    return format_position(a, d, g.index[K] if K else -1, size)


def game(rules=PLAIN, turn="attackers", **pieces):
    return Game(rules, position=pos(rules.size, **pieces), turn=turn)


# --- movement -------------------------------------------------------------


def test_king_speed_limit():
    g = game(PLAIN.replace(king_speed=1), turn="defenders", K="e5", t="a11")
    assert sorted(g.legal_targets()["e5"]) == ["d5", "e4", "e6", "f5"]
    with pytest.raises(IllegalMove, match="the king moves at most 1 square"):
        g.play("e5-e7")


def test_throne_pass_and_reentry():
    rules = Rules(throne_pass={"king", "defender"}, king_reenter_throne=False)
    g = game(rules, turn="attackers", t="a6 b1", T="k1", K="f2")
    assert "g6" not in g.legal_targets()["a6"]  # attackers may not pass the throne
    with pytest.raises(IllegalMove, match="an attacker may not pass over the throne"):
        g.play("a6-g6")
    g2 = game(rules, turn="defenders", t="a11", K="f2")
    with pytest.raises(IllegalMove, match="may not go back to the throne"):
        g2.play("f2-f6")
    g3 = game(Rules(), turn="defenders", t="a11", K="f2")
    g3.play("f2-f6")  # re-entry allowed by default
    assert g3.piece_at("f6") == "king"


def test_camp_rules():
    # Granquist, "Tafl" (1995): defenders pass over camps but may not land there; an attacker
    # that has left the camp may not go back; the king may not escape onto a camp square
    rules = Rules(camps=True, camp_stop=frozenset(), escape="edge-except-camps")
    g = Game(rules, position=pos(11, t="d1 a8", T="e4", K="j9"), turn="defenders")
    assert "e1" not in g.legal_targets()["e4"]  # e1 is a camp (an attackers' starting square)
    with pytest.raises(IllegalMove, match="may not stop on a camp square"):
        g.play("e4-e1")
    g.play("e4-e3")
    assert "e1" in g.legal_targets()["d1"]  # still in its camp: may move within it
    g.play("d1-d2")
    g.play("e3-e4")
    assert "d1" not in g.legal_targets()["d2"]  # left the camp: may not re-enter
    # "within it": not across the board to another camp (b6 and j6 are both camp squares)
    g3 = Game(rules, position=pos(11, t="b6", K="j9"), turn="attackers")
    assert "a6" in g3.legal_targets()["b6"] and "j6" not in g3.legal_targets()["b6"]
    g2 = Game(rules, position=pos(11, t="a11", K="f3"), turn="defenders")
    targets = g2.legal_targets()["f3"]
    assert "f1" not in targets and "f2" not in targets
    g2.play("f3-a3")
    assert g2.outcome.kind == "escape"


# --- capture ---------------------------------------------------------------


def test_custodial_several_at_once():
    g = game(t="c5 e7 e3 f5", T="d5 e6 e4", K="j10")
    assert sorted(g.play("f5-e5").captures) == ["d5", "e4", "e6"]


def test_no_row_capture_without_shieldwall():
    # Cyningstan's "Compact 37-piece Hnefatafl Game", rule 9: a row cannot be taken, even bracketed and fronted
    g = game(t="a1 e1 b2 c2", T="b1 c1", K="j10")
    assert g.play("e1-d1").captures == []


def test_shieldwall_on_plain_rules():
    rules = PLAIN.replace(shieldwall="copenhagen")
    g = game(rules, t="a1 e1 b2 c2", T="b1 c1", K="j10")
    assert g.play("e1-d1").captures == ["b1", "c1"]
    g = game(rules, t="e1 b2 c2", T="b1 c1", K="j10")  # no bracket at a1
    assert g.play("e1-d1").captures == []
    g = game(rules, t="a1 e1 b2", T="b1 c1", K="j10")  # c1 not fronted
    assert g.play("e1-d1").captures == []


def test_hostile_squares():
    rules = Rules(throne_hostile_to_defenders="empty", throne_hostile_to_attackers="always")
    g = game(rules, t="h4", T="f5", K="j10")
    assert g.play("h4-f4").captures == ["f5"]  # against the empty throne
    g = game(rules, turn="defenders", t="f5", T="h4", K="f6")
    assert g.play("h4-f4").captures == ["f5"]  # the king on the throne, armed
    g = game(rules.replace(king_armed="no"), turn="defenders", t="f5", T="h4", K="f6")
    assert g.play("h4-f4").captures == ["f5"]  # the throne is hostile to attackers always
    g = game(rules.replace(throne_hostile_to_attackers="never", king_armed="no"), turn="defenders",
             t="f5", T="h4", K="f6")
    assert g.play("h4-f4").captures == []


@pytest.mark.parametrize("armed, hammer, anvil", [
    ("yes", True, True), ("no", False, False), ("anvil", False, True), ("hammer", True, False)])
def test_armed_king(armed, hammer, anvil):
    rules = PLAIN.replace(king_armed=armed)
    g = game(rules, turn="defenders", t="c3", T="b3 k11", K="d5")
    assert bool(g.play("d5-d3").captures) is hammer
    g = game(rules, turn="defenders", t="c3", T="a3", K="d3")
    assert bool(g.play("a3-b3").captures) is anvil


def test_the_king_on_the_first_square_takes_part_like_anywhere():
    # a1 is square 0; the king stands there only where he cannot escape from it
    rules = PLAIN.replace(escape="none")
    g = game(rules, turn="defenders", t="a2 k11", T="c3", K="a1")
    assert g.play("c3-a3").captures == ["a2"]  # the attacker between a3 and the king


@pytest.mark.parametrize("sandwich, legal", [("safe", True), ("unless-capturing", False), ("forbidden", False)])
def test_moving_between_two_enemies(sandwich, legal):
    rules = PLAIN.replace(sandwich=sandwich)
    g = game(rules, t="c3 e3 a11", T="d6", K="j2", turn="defenders")
    if legal:
        assert g.play("d6-d3").captures == []
        assert g.piece_at("d3") == "defender"
    else:
        assert "d3" not in g.legal_targets()["d6"]
        with pytest.raises(IllegalMove, match="between two enemies"):
            g.play("d6-d3")


def test_moving_between_two_enemies_to_capture():
    rules = PLAIN.replace(sandwich="unless-capturing")
    g = game(rules, t="c3 e3", T="d6 f3", K="j2", turn="defenders")
    # d3 lies between c3 and e3; moving there captures e3 (against f3), so it is allowed
    assert g.play("d6-d3").captures == ["e3"]
    g = game(rules.replace(sandwich="forbidden"), t="c3 e3", T="d6 f3", K="j2", turn="defenders")
    # "may never do so": forbidden even though the move would take e3
    assert "d3" not in g.legal_targets()["d6"]
    with pytest.raises(IllegalMove, match="may not move between two enemies"):
        g.play("d6-d3")


@pytest.mark.parametrize("armed, legal", [("yes", False), ("anvil", False), ("no", True), ("hammer", True)])
def test_the_armed_king_is_one_of_the_two_enemies_of_an_attacker(armed, legal):
    # c6 lies between the defender b6 and the king d6: an enemy of the attacker only when
    # he takes part in captures as the static partner
    rules = PLAIN.replace(sandwich="unless-capturing", king_armed=armed)
    g = game(rules, t="c7 k1", T="b6 a11", K="d6")
    assert ("c6" in g.legal_targets()["c7"]) is legal
    if not legal:
        with pytest.raises(IllegalMove, match=r"between two enemies \(c6\)"):
            g.play("c7-c6")


# --- king capture -----------------------------------------------------------


@pytest.mark.parametrize("king, attacker, to, corner", [
    ("b1", "c3", "c1", "a1"), ("a2", "c3", "a3", "a1"), ("f1", "e3", "e1", "g1"), ("g2", "e3", "g3", "g1"),
    ("b7", "c5", "c7", "a7"), ("a6", "c5", "a5", "a7"), ("f7", "e5", "e7", "g7"), ("g6", "e5", "g5", "g7")])
def test_the_king_is_taken_against_each_corner(king, attacker, to, corner):
    # brandubh: taken between two, and the corners are hostile to him; a1 is square 0
    g = Game("brandubh", position=pos(7, t=f"{attacker} d6", T="d2", K=king), turn="attackers")
    g.play(f"{attacker}-{to}")
    assert g.outcome.kind == "king-captured"
    assert g.outcome.reason == f"king captured between {to} and the corner at {corner}"


def test_king_two_sided():
    g = game(t="d5 f4", K="e5", T="k11")
    g.play("f4-f5")
    assert g.outcome.winner == "attackers"
    assert g.outcome.reason == "king captured between f5 and d5"
    assert g.piece_at("e5") is None


def test_king_four_sided_and_throne():
    g = game(COPENHAGEN, t="e5 g5 h4", K="f5", T="b3")
    g.play("h4-f4")
    assert g.outcome.kind == "king-captured"
    assert g.outcome.reason == "king captured on f5 by the throne, g5, f4, e5"
    # not on the edge under Copenhagen
    g = game(COPENHAGEN, t="e1 g1 h2", K="f1", T="b3")
    g.play("h2-f2")
    assert g.outcome is None
    # with the edge standing in ("Tawlbwrdd: 11 x 11 Tafl Rules", where the king escapes to a corner)
    rules = PLAIN.replace(king_capture="four", king_capture_against={"edge"}, corners=True, escape="corner")
    g = game(rules, t="e1 g1 h2", K="f1", T="b3")
    g.play("h2-f2")
    assert g.outcome.reason == "king captured on f1 by f2, g1, e1, the edge"


def test_king_linnaeus():
    rules = Rules(size=9, start="/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
                  king_capture="linnaeus")
    g = game(rules, t="d5 f5 e4 a6", K="e5", T="i9")
    g.play("a6-e6")
    assert g.outcome.reason == "king captured on e5 by e6, f5, e4, d5"  # four on the throne
    g = game(rules, t="d6 f6 a7", K="e6", T="i9")
    g.play("a7-e7")
    assert g.outcome.reason == "king captured on e6 by e7, f6, d6 and the throne"  # three beside it
    g = game(rules, t="d6 a7", K="e6", T="i9")
    g.play("a7-e7")
    assert g.outcome is None
    g = game(rules, t="b2 d3", K="c2", T="i9")
    g.play("d3-d2")
    assert g.outcome.reason == "king captured between d2 and b2"  # two elsewhere


def test_king_immobile():
    rules = PLAIN.replace(king_capture="immobile")
    g = game(rules, t="f5 e4 a5", K="e5", T="e6")
    g.play("a5-d5")
    assert g.outcome.kind == "king-captured"
    assert g.outcome.reason == "king captured on e5: he cannot move"


def test_king_never_taken():
    rules = PLAIN.replace(king_capture="none")
    g = game(rules, t="d5 f4", K="e5", T="k11")
    g.play("f4-f5")
    assert g.outcome is None


def test_watch_your_king():
    rules = PLAIN.replace(king_capture="four", watch_king=True)
    pieces = dict(t="c5 e5 a6", T="d4", K="d8")
    g = game(rules, turn="defenders", **pieces)
    g.play("d8-d5")  # between c5 and e5, warned
    assert g.outcome is None
    g.play("a6-d6")  # shut in: d4 is his own man
    assert g.outcome == ("attackers", "king taken on d5: he moved between two attackers and cannot get out",
                         "king-captured")
    # without the rule he is not taken (four-sided capture needs d4 to be an attacker)
    g = game(PLAIN.replace(king_capture="four"), turn="defenders", **pieces)
    g.play("d8-d5")
    g.play("a6-d6")
    assert g.outcome is None
    # a king put between two attackers by their moves (he did not move there) is not taken by it
    g = game(rules, turn="attackers", t="c5 e5 a6", T="d4", K="d5")
    g.play("a6-d6")
    assert g.outcome is None


# --- end of the game ------------------------------------------------------------


def test_escape_kinds():
    g = game(Rules(corners=True, escape="corner"), turn="defenders", t="a6", K="c1")
    g.play("c1-b1")
    assert g.outcome is None
    g.play("a6-a7")
    g.play("b1-a1")
    assert g.outcome == ("defenders", "king reached a1", "escape")


def test_tuichi_and_raichi():
    g = game(PLAIN, t="a11 b10", K="e5")
    assert g.announcements() == ["tuichi", "check"]  # open roads to e1, e11, a5, k5
    g = game(PLAIN, t="e1 e11 a5 k5", K="e5")
    assert g.announcements() == []
    g = game(PLAIN, t="e1 e11 a5", K="e5")
    assert g.announcements() == ["raichi", "check"]
    win = game(PLAIN.replace(tuichi="win"), turn="defenders", t="e1 a5 b10", K="f6")
    win.play("f6-e6")  # open roads from e6 to e11, a6 and k6
    assert win.outcome.kind == "tuichi"
    assert win.outcome.winner == "defenders"
    announce = game(PLAIN, turn="defenders", t="e1 a5 b10", K="f6")
    announce.play("f6-e6")
    assert announce.outcome is None and "tuichi" in announce.announcements()


def test_king_threatened_announcement():
    g = game(turn="defenders", t="d5 f3 a11", K="e5", T="k1")
    assert "king threatened" in g.announcements()  # f3-f5 would take him
    g = game(turn="defenders", t="d5 a11", K="e5", T="k1")
    assert "king threatened" not in g.announcements()


def test_no_moves():
    g = game(PLAIN, turn="attackers", t="a1", T="a2 b1 c3", K="j10")
    assert g.outcome == ("defenders", "attackers have no legal move", "no-moves")
    g = game(PLAIN.replace(no_moves="draw"), turn="attackers", t="a1", T="a2 b1 c3", K="j10")
    assert g.outcome.winner is None and g.outcome.kind == "no-moves"


def test_encirclement():
    ring = "d4 e4 d6 e6 c5 f5"
    g = game(COPENHAGEN, t=ring + " a10", T="d5", K="e5")
    g.play("a10-a9")  # any attackers' move: every defender is shut in
    assert g.outcome == ("attackers", "defenders encircled", "encirclement")
    g = game(COPENHAGEN, t="d4 e4 d6 e6 c5 a10", T="d5", K="e5")
    g.play("a10-a9")
    assert g.outcome is None  # f5 is open


def test_edge_fort():
    # rank 1: d1 T, e1 K, f1 empty, g1 T; rank 2: d2 e2 f2 T. g3-g1 closes the fort
    g = game(COPENHAGEN, turn="defenders", t="a5 k5 f7", T="d1 d2 e2 f2 g3", K="e1")
    assert g.outcome is None
    g.play("g3-g1")
    assert g.outcome == ("defenders", "edge fort", "edge-fort")
    # an open fort (f2 missing): the attackers can walk in
    g = game(COPENHAGEN, turn="defenders", t="a5 k5 f7", T="d1 d2 e2 g3", K="e1")
    g.play("g3-g1")
    assert g.outcome is None
    # the king must be able to move
    g = game(COPENHAGEN, turn="defenders", t="a5 k5 h7", T="d1 e2 f3", K="e1")
    g.play("f3-f1")
    assert g.outcome is None


def test_edge_fort_with_second_rank_guard():
    # d3 borders the fort (d2) and is guarded only by c3, which is not beside the fort:
    # c3 and d3 hold each other up (c3 on c2, d3 on c3), so the fort cannot be broken
    g = game(COPENHAGEN, turn="defenders", t="b11 j11 k5", T="a3 d3 c2 e2 c1 e1", K="d1")
    g.play("a3-c3")
    assert g.outcome == ("defenders", "edge fort", "edge-fort")
    g = game(COPENHAGEN, turn="defenders", t="b11 j11 k5", T="a4 d3 c2 e2 c1 e1", K="d1")
    g.play("a4-c4")  # c4 does not guard d3: attackers on c3 and e3 can take it
    assert g.outcome is None


def test_repetition_rules():
    def shuffle(rules):
        g = game(rules, t="a11 c1", T="k1", K="f6")
        for _ in range(2):
            for mv in ("a11-a10", "k1-k2", "a10-a11", "k2-k1"):
                if g.outcome is None:
                    g.play(mv)
        return g

    assert shuffle(PLAIN).outcome is None
    out = shuffle(PLAIN.replace(repetition="draw")).outcome
    assert out.kind == "repetition" and out.winner is None
    out = shuffle(PLAIN.replace(repetition="loss")).outcome
    assert out.reason == "threefold repetition by the defenders" and out.winner == "attackers"
    out = shuffle(PLAIN.replace(repetition="defenders-lose")).outcome
    assert out.winner == "attackers"


def test_ply_limit():
    g = game(PLAIN.replace(ply_limit=3), t="a11", T="k1", K="f6")
    for mv in ("a11-a10", "k1-k2", "a10-a9"):
        g.play(mv)
    assert g.outcome == (None, "ply limit", "ply-limit")


def test_undo_after_the_end_restores_play():
    g = game(t="d5 f4", K="e5", T="k11")
    g.play("f4-f5")
    g.undo()
    assert g.outcome is None and g.piece_at("e5") == "king" and g.turn == "attackers"


def test_king_in_jeopardy_only_where_two_can_take_him():
    rules = Rules(size=9, start="/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
                  king_capture="linnaeus", sandwich="forbidden")
    # beside the throne (e6 between d6 and f6) three are needed: he may go there
    g = game(rules, turn="defenders", t="d6 f6 a1", K="e8")
    assert "e6" in g.legal_targets()["e8"]
    # away from the throne two take him: c8 between b8 and d8 is forbidden
    g = game(rules, turn="defenders", t="b8 d8 a1", K="c6")
    assert "c8" not in g.legal_targets()["c6"]
    # under four-sided capture he may always go between two
    g = game(rules.replace(king_capture="four"), turn="defenders", t="b8 d8 a1", K="c6")
    assert "c8" in g.legal_targets()["c6"]
