"""Scenario tests: one small diagram per rule point and per value of every rule field.

Each test draws a position (see ``tests/diagrams.py``: ``t`` attacker, ``T``
defender, ``K`` king, ``+`` an empty throne or corner), sets the rule fields
under test, plays a move or a few, and checks the captures, the outcome or the
refusal.  Each docstring cites the sentence it encodes:

* seed 000 - E. P. Jones, "A Brief Look at Some Welsh Games" (1993), WELSH-L 1994;
* seed 001 - the tawlbwrdd encyclopedia page;
* seed 002 - "Tawlbwrdd: 11 x 11 Tafl Rules";
* seed 003 - Cyningstan, "Compact 37-piece Hnefatafl Game" (rules numbered 1-11);
* seed 004 - S. Granquist, "Tafl" (1995, 1996);
* Smith law N - Linnaeus's tablut laws in J. E. Smith's 1811 translation, as
  copied in research/texts-found.md section 1c (seen directly there);
* ap Ifan (Murray) - Murray 1952's translation of Robert ap Ifan (1587), as
  quoted second-hand in research/quotes.md;
* "modern standard (Copenhagen)" - the published Copenhagen Hnefatafl rules;
* "our reading" - the rule text (rules.py docstring) leaves room; the test takes
  the most natural reading and the point is listed in the helper's report.

These tests were written from the rules text, not from the engine's code.
Boards are 7x7 (centre d4) or 9x9 (centre e5).
"""

from __future__ import annotations

import re

import pytest

import tafl_rules
from tafl_rules import IllegalMove, NotationError, Rules, RulesError
from tafl_rules.rules import CHOICES, FIELDS

from diagrams import assert_board, game, rules, to_otn

# --------------------------------------------------------------------------
# coverage bookkeeping: every field and every value must have a scenario
# --------------------------------------------------------------------------

COVERED: set[str] = set()


def covers(*points: str):
    """Record that a test exercises ``field`` or ``field=value``."""

    def mark(function):
        COVERED.update(points)
        return function

    return mark


def outcome_of(g):
    """``(winner, kind)`` of a finished game, or ``None``."""
    return None if g.outcome is None else (g.outcome.winner, g.outcome.kind)


def caps(move) -> list[str]:
    return sorted(move.captures)


# Illegal-move reasons: the engine's own words for each kind of refusal (tafl_rules.game),
# so that a refusal for another reason does not pass (e.g. "only the king may stop on the
# throne" is not a speed limit).
OCCUPIED = r"is occupied"
TURN = r"it is the (attackers|defenders)' turn"
OVER = r"the game is over"
DIAGONAL = r"is not along a rank or a file"
JUMP = r"is in the way|may not pass over the"
THRONE = r"throne"
CORNER = r"corner"
CAMP = r"camp"
SPEED = r"moves at most \d+ squares?"
SANDWICH = r"between two enemies"
NO_PIECE = r"there is no piece on"


# ==========================================================================
# 1. the rules record refuses bad values, naming the field
# ==========================================================================

BAD_FIELDS = [
    ("size", dict(size=8)),
    ("size", dict(size=5)),
    ("size", dict(size=21)),
    ("size", dict(size="11")),
    ("start", dict(start="/11/11/")),
    ("start", dict(start=Rules().start.replace("3ttttt3", "3ttxtt3", 1))),
    ("start", dict(start=Rules().start.replace("3ttttt3", "3tttttt3", 1))),
    ("start", dict(start=Rules().start.replace("5t5", "5K5", 1))),
    ("first", dict(first="white")),
    ("king_speed", dict(king_speed=-1)),
    ("man_speed", dict(man_speed=19)),
    ("king_speed", dict(king_speed=True)),
    ("throne", dict(throne="yes")),
    ("king_reenter_throne", dict(king_reenter_throne=0)),
    ("corners", dict(corners=1)),
    ("camps", dict(camps="true")),
    ("watch_king", dict(watch_king=None)),
    ("edge_fort", dict(edge_fort="no")),
    ("encirclement", dict(encirclement=1)),
    ("repetition_count", dict(repetition_count=1)),
    ("repetition_count", dict(repetition_count=11)),
    ("ply_limit", dict(ply_limit=-1)),
    ("king_capture_against", dict(king_capture_against="edge")),
    ("king_capture_against", dict(king_capture_against={"wall"})),
] + [(name, {name: "king"}) for name in ("throne_stop", "throne_pass", "corner_stop", "camp_stop", "camp_pass")] \
  + [(name, {name: {"queen"}}) for name in ("throne_stop", "throne_pass", "corner_stop", "camp_stop", "camp_pass")] \
  + [(name, {name: "bogus"}) for name in CHOICES]


@covers("size", "start")
@pytest.mark.parametrize("field,changes", BAD_FIELDS, ids=[f"{f}-{i}" for i, (f, _) in enumerate(BAD_FIELDS)])
def test_rules_error_names_the_field(field, changes):
    """rules.py: 'the message names the field' for every bad value."""
    with pytest.raises(RulesError) as info:
        Rules().replace(**changes)
    assert info.value.field == field
    assert str(info.value).startswith(field + ":")


IMPOSSIBLE = [
    ("escape", dict(escape="corner", corners=False)),
    ("escape", dict(escape="edge-except-camps", camps=False)),
    ("corner_stop", dict(corners=True, escape="corner", corner_stop={"defender"})),
    ("king_capture_against", dict(king_capture="four", king_capture_against={"camp"}, camps=False)),
    ("king_capture_against", dict(king_capture="four", king_capture_against={"corner"}, corners=False)),
    ("king_capture_against", dict(king_capture="four", king_capture_against={"throne"}, throne=False)),
    ("king_capture", dict(king_capture="linnaeus", throne=False)),
    ("edge_fort", dict(edge_fort=True, escape="edge")),
    ("no_moves", dict(king_capture="none", no_moves="draw")),
]


@pytest.mark.parametrize("field,changes", IMPOSSIBLE, ids=[f for f, _ in IMPOSSIBLE])
def test_rules_error_for_impossible_combinations(field, changes):
    """rules.py _check_combinations: each impossible pair is refused, naming the field at fault."""
    with pytest.raises(RulesError) as info:
        Rules().replace(**changes)
    assert info.value.field == field


def test_rules_error_for_unknown_rule_names():
    """rules.py: an unknown rule name is refused by name, in replace() and from_dict()."""
    with pytest.raises(RulesError) as info:
        Rules().replace(kings_speed=1)
    assert info.value.field == "kings_speed"
    with pytest.raises(RulesError) as info:
        Rules.from_dict({**Rules().to_dict(), "hostile_throne": "always"})
    assert info.value.field == "hostile_throne"


def test_rules_error_is_a_value_error_and_exported():
    """common brief: bad input is a precise ValueError, never a deep traceback."""
    assert issubclass(RulesError, ValueError)
    assert tafl_rules.RulesError is RulesError


# ==========================================================================
# 2. the game object: start, turn, moves, text
# ==========================================================================

OPEN_7 = """
  7 . . . . . . .
  6 . . . . . T .
  5 . . . . . . .
  4 . . . K . . .
  3 . . . . . . .
  2 . t . . . . .
  1 . . . . . . .
    a b c d e f g
"""


@covers("size", "start")
def test_game_starts_from_the_rules_start_position():
    """The start position of the rules record is the board of a new game."""
    g = game(OPEN_7)
    assert g.size == 7
    assert g.piece_at("b2") == "attacker"
    assert g.piece_at("f6") == "defender"
    assert g.piece_at("d4") == "king"
    assert g.piece_at("a1") is None
    assert_board(g, OPEN_7)
    assert list(g.moves) == []
    assert g.outcome is None


def test_game_position_argument_overrides_the_start():
    """API contract: Game(rules, position=...) starts from the given OTN position record."""
    other = """
      7 . . . . . . .
      6 . . . . . . .
      5 . . T . . . .
      4 . . . K . . .
      3 . . . . . . .
      2 . . . . . t .
      1 . . . . . . .
        a b c d e f g
    """
    g = tafl_rules.Game(rules(OPEN_7), position=to_otn(other))
    assert_board(g, other)
    # position() round-trips through Game(position=...)
    again = tafl_rules.Game(rules(OPEN_7), position=g.position())
    assert_board(again, other)


@covers("first=attackers", "first=defenders")
def test_first_side_to_move():
    """seed 003 rule 3: 'The attackers make the first move.' seed 004: 'The opening move goes to Blue.'"""
    assert tafl_rules.Game(rules(OPEN_7)).turn == "attackers"
    g = tafl_rules.Game(rules(OPEN_7, first="defenders"))
    assert g.turn == "defenders"
    with pytest.raises(IllegalMove, match=TURN):
        g.play("b2-b5")
    g.play("f6-f5")
    assert g.turn == "attackers"


def test_turn_argument_overrides_first():
    """API contract: Game(..., turn=...) sets the side to move."""
    g = tafl_rules.Game(rules(OPEN_7, first="attackers"), turn="defenders")
    assert g.turn == "defenders"


def test_moves_alternate_and_are_recorded():
    """Smith law 8: 'The Swedes and the Muscovites take it by turns to move.'"""
    g = game(OPEN_7)
    move = g.play("b2-b5")
    assert str(move) == "b2-b5"
    assert move.from_square == "b2" and move.to_square == "b5"
    assert move.captures == []
    assert g.turn == "defenders"
    g.play("f6-f5")
    assert g.turn == "attackers"
    assert [str(m) for m in g.moves] == ["b2-b5", "f6-f5"]


def test_play_accepts_a_move_object_and_lists_agree():
    """API contract: legal_moves() and legal_targets() describe the same moves; play() takes a Move."""
    g = game(OPEN_7)
    listed = {str(m) for m in g.legal_moves()}
    targets = g.legal_targets()
    from_targets = {f"{a}-{b}" for a, bs in targets.items() for b in bs}
    assert listed == from_targets
    for bs in targets.values():
        assert isinstance(bs, list) and len(set(bs)) == len(bs)
    move = next(m for m in g.legal_moves() if str(m) == "b2-b7")
    g.play(move)
    assert g.piece_at("b7") == "attacker"


def test_position_is_the_otn_record():
    """API contract: game.position() is the OTN position record (rank 1 first, t/T/K, digits)."""
    g = game(OPEN_7)
    assert g.position().strip("/") == to_otn(OPEN_7).strip("/")
    g.play("b2-b7")
    assert g.position().strip("/") == to_otn(OPEN_7.replace("2 . t", "2 . .").replace("7 . .", "7 . t", 1)).strip("/")


def test_text_diagram():
    """API contract: str(game) is a text diagram with one line per rank at least."""
    text = str(game(OPEN_7))
    assert isinstance(text, str) and len(text.splitlines()) >= 7


# ==========================================================================
# 3. movement
# ==========================================================================

@covers("man_speed")
def test_man_moves_like_a_rook():
    """seed 003 rule 4: 'a player may move a piece across the board by any number of spaces in a straight
    line, horizontally or vertically.' Smith law 7: 'It is allowable to move ever so far at once'."""
    g = game(OPEN_7)
    assert set(g.legal_targets()["b2"]) == {"b1", "b3", "b4", "b5", "b6", "b7", "a2", "c2", "d2", "e2", "f2", "g2"}


def test_no_diagonal_move():
    """Smith law 1: 'Any piece may move ... in a right line ...; but not corner-wise'. seed 004: 'There are no
    diagonal moves.'"""
    g = game(OPEN_7)
    with pytest.raises(IllegalMove, match=DIAGONAL):
        g.play("b2-c3")
    assert_board(g, OPEN_7)
    assert g.turn == "attackers"


BLOCKED_7 = """
  7 . . . . . . .
  6 . . . . . T .
  5 . . . . . . .
  4 . T . K . . .
  3 . . . . . . .
  2 . t . . . . .
  1 . . . . . . .
    a b c d e f g
"""


def test_no_jumping():
    """Smith law 2: 'It is not allowed to pass over the heads of any other pieces'. seed 003 rule 5: 'nor
    may it leap over a piece.'"""
    g = game(BLOCKED_7)
    with pytest.raises(IllegalMove, match=JUMP):
        g.play("b2-b6")
    assert set(g.legal_targets()["b2"]) == {"b1", "b3", "a2", "c2", "d2", "e2", "f2", "g2"}
    assert_board(g, BLOCKED_7)


def test_destination_occupied():
    """seed 003 rule 5: 'A piece may not land on another'; seed 004: 'the square moved to must be vacant.'"""
    g = game(BLOCKED_7)
    with pytest.raises(IllegalMove, match=OCCUPIED):
        g.play("b2-b4")
    assert_board(g, BLOCKED_7)


def test_not_your_turn_and_no_piece():
    """Smith law 8: turns alternate; a side moves only its own pieces, and only a piece that is there."""
    g = game(OPEN_7)
    with pytest.raises(IllegalMove, match=TURN):
        g.play("f6-f5")
    with pytest.raises(IllegalMove, match=NO_PIECE):
        g.play("c3-c5")
    with pytest.raises(IllegalMove, match="off the 7x7 board"):
        g.play("b2-b9")
    with pytest.raises(IllegalMove, match="must leave its square"):
        g.play("b2-b2")
    with pytest.raises(NotationError, match="'nonsense' is not a move"):
        g.play("nonsense")
    assert_board(g, OPEN_7)
    assert g.turn == "attackers" and list(g.moves) == []


@covers("king_speed")
def test_king_speed_one():
    """seed 001: 'a reconstruction ... only allows the king a single orthogonal move per turn'."""
    g = game(OPEN_7, turn="defenders", king_speed=1)
    assert set(g.legal_targets()["d4"]) == {"c4", "e4", "d3", "d5"}
    assert len(g.legal_targets()["f6"]) > 4  # men are not limited
    with pytest.raises(IllegalMove, match=SPEED):
        g.play("d4-d6")
    g.play("d4-d5")
    assert g.piece_at("d5") == "king"


def test_king_speed_two():
    """rules.py king_speed: 'Most squares the king may move in one turn'."""
    g = game(OPEN_7, turn="defenders", king_speed=2)
    assert set(g.legal_targets()["d4"]) == {"b4", "c4", "e4", "f4", "d2", "d3", "d5", "d6"}
    with pytest.raises(IllegalMove, match=SPEED):
        g.play("d4-d7")


def test_king_speed_zero_is_any_distance():
    """seed 003 rule 6: 'The king moves in the same way as the other pieces.'"""
    g = game(OPEN_7, turn="defenders")
    assert set(g.legal_targets()["d4"]) == {"a4", "b4", "c4", "e4", "f4", "g4", "d1", "d2", "d3", "d5", "d6", "d7"}


def test_man_speed_two():
    """rules.py man_speed: 'Most squares any other piece may move in one turn'; the king is not limited by it."""
    g = game(OPEN_7, man_speed=2)
    assert set(g.legal_targets()["b2"]) == {"b1", "b3", "b4", "a2", "c2", "d2"}
    with pytest.raises(IllegalMove, match=SPEED):
        g.play("b2-b5")
    g2 = game(OPEN_7, turn="defenders", man_speed=2)
    assert "d7" in g2.legal_targets()["d4"]


# ==========================================================================
# 4. the throne
# ==========================================================================

THRONE_7 = """
  7 . . . . . . .
  6 . . . . . . .
  5 . . . . . . .
  4 t . . + . . T
  3 . . . . . . .
  2 . . . . K . .
  1 . . . . . . .
    a b c d e f g
"""


@covers("throne=True", "throne_stop")
def test_only_the_king_stops_on_the_throne():
    """seed 004: 'Only the King may occupy the center square, or Konakis.' Smith: the royal castle, 'to which
    no other person can be admitted.'"""
    g = game(THRONE_7)
    assert "d4" not in g.legal_targets()["a4"]
    with pytest.raises(IllegalMove, match=THRONE):
        g.play("a4-d4")
    assert_board(g, THRONE_7)


@covers("throne_pass")
def test_any_piece_passes_over_the_empty_throne():
    """seed 004: 'Any piece may pass over the central square but may not land on it.'"""
    g = game(THRONE_7)
    assert {"b4", "c4", "e4", "f4"} <= set(g.legal_targets()["a4"])
    g.play("a4-f4")
    assert g.piece_at("f4") == "attacker"


def test_attackers_may_not_pass_the_throne():
    """seed 004: 'Reds may move to any open square, but they may not pass over any other piece or Konakis.'"""
    g = game(THRONE_7, throne_pass={"king", "defender"})
    assert set(g.legal_targets()["a4"]) & {"e4", "f4"} == set()
    with pytest.raises(IllegalMove, match=THRONE):
        g.play("a4-f4")
    g.play("a4-c4")
    g.play("g4-e4")
    g.play("c4-c5")
    g.play("e4-a4")  # a defender passes over the empty throne
    assert g.piece_at("a4") == "defender"


def test_throne_stop_for_defenders():
    """rules.py throne_stop: 'Pieces that may stop on the empty throne' - here defenders too, not attackers."""
    g = game(THRONE_7, turn="defenders", throne_stop={"king", "defender"})
    g.play("g4-d4")
    assert g.piece_at("d4") == "defender"
    with pytest.raises(IllegalMove, match=OCCUPIED):
        g.play("a4-d4")
    g2 = game(THRONE_7, throne_stop={"king", "defender"})
    with pytest.raises(IllegalMove, match=THRONE):
        g2.play("a4-d4")


def test_throne_closed_to_everyone():
    """rules.py throne_stop: an empty list - not even the king may stop on the empty throne once he has left."""
    g = game(REENTER_7, turn="defenders", throne_stop=set())
    g.play("d4-d5")
    g.play("a6-a7")
    with pytest.raises(IllegalMove, match=THRONE):
        g.play("d5-d4")


@covers("throne=False")
def test_no_throne_is_an_ordinary_square():
    """seed 003: 'It has no special squares on the board; the central "castle" ... offers no protection to
    him nor impedes the movement of any other piece.'"""
    g = game(THRONE_7, throne=False)
    assert "d4" in g.legal_targets()["a4"]
    g.play("a4-d4")
    assert g.piece_at("d4") == "attacker"


REENTER_7 = """
  7 . . . . . . .
  6 t . . . . . .
  5 . . . . . . .
  4 . . . K . . .
  3 . . . . . . .
  2 . . . . . . .
  1 . . . . . . t
    a b c d e f g
"""


@covers("king_reenter_throne=False")
def test_king_may_not_reenter_the_throne():
    """seed 004: 'Once the King has left the center square he can not re-enter it'."""
    g = game(REENTER_7, turn="defenders", king_reenter_throne=False)
    g.play("d4-d5")
    g.play("a6-a7")
    assert "d4" not in g.legal_targets()["d5"]
    with pytest.raises(IllegalMove, match=THRONE):
        g.play("d5-d4")
    # our reading: re-entering means stopping there; he may still pass over the empty throne
    g.play("d5-d3")
    assert g.piece_at("d3") == "king"


@covers("king_reenter_throne=True")
def test_king_may_reenter_the_throne():
    """rules.py king_reenter_throne = true: the king may stop on the throne again (seed 003 has no such limit)."""
    g = game(REENTER_7, turn="defenders", king_reenter_throne=True)
    g.play("d4-d5")
    g.play("a6-a7")
    g.play("d5-d4")
    assert g.piece_at("d4") == "king"


# ==========================================================================
# 5. corners
# ==========================================================================

CORNER_7 = """
  7 . . . . . . +
  6 . . . . . . T
  5 . . . . . . .
  4 . . . K . . .
  3 . . . . . . .
  2 . . . . . . .
  1 + . . t . . +
    a b c d e f g
"""


@covers("corners=True", "corner_stop")
def test_only_the_king_enters_a_corner():
    """seed 002: 'Only the King is allowed into the corner squares'."""
    g = game(CORNER_7, corners=True)
    assert "a1" not in g.legal_targets()["d1"]
    with pytest.raises(IllegalMove, match=CORNER):
        g.play("d1-a1")


@covers("corners=False")
def test_without_corners_any_piece_enters_a_corner():
    """seed 003: no special squares; a corner is an ordinary square."""
    g = game(CORNER_7, corners=False)
    g.play("d1-a1")
    assert g.piece_at("a1") == "attacker"


def test_corner_stop_for_attackers():
    """rules.py corner_stop: 'Pieces that may stop on a corner' - with attackers listed, an attacker may,
    a defender still may not."""
    g = game(CORNER_7, corners=True, corner_stop={"king", "attacker"})
    g.play("d1-a1")
    assert g.piece_at("a1") == "attacker"
    assert "g7" not in g.legal_targets()["g6"]
    with pytest.raises(IllegalMove, match=CORNER):
        g.play("g6-g7")


# ==========================================================================
# 6. camps (the attackers' starting squares)
# ==========================================================================

CAMP_7 = """
  7 . . . . . . .
  6 . . . . . . T
  5 . . K . . . .
  4 . . . + . . .
  3 . . . . . . .
  2 T . . t . . .
  1 . . t t t . .
    a b c d e f g
"""
# camps: c1 d1 e1 d2


@covers("camps=True", "camp_stop")
def test_attacker_that_left_its_camp_may_not_reenter():
    """seed 004: 'Once a Red has moved out of the Red Camp he may not re-enter it.'"""
    g = game(CAMP_7, camps=True, camp_stop=set())
    g.play("d2-d3")
    g.play("g6-g5")
    assert "d2" not in g.legal_targets()["d3"]
    with pytest.raises(IllegalMove, match=CAMP):
        g.play("d3-d2")


def test_attacker_may_return_to_a_camp_when_camp_stop_allows():
    """rules.py camp_stop: 'Pieces that may stop on a camp square when coming from outside the camps'."""
    g = game(CAMP_7, camps=True, camp_stop={"attacker"})
    g.play("d2-d3")
    g.play("g6-g5")
    g.play("d3-d2")
    assert g.piece_at("d2") == "attacker"


def test_attacker_may_move_within_its_camp():
    """seed 004: 'Red may move to any Red square while within the Red square'; rules.py: 'An attacker still
    in its camp may always move within it.'"""
    g = game(CAMP_7, camps=True, camp_stop=set())
    g.play("d2-f2")
    g.play("g6-g5")
    assert "d2" in g.legal_targets()["d1"]
    g.play("d1-d2")
    assert g.piece_at("d2") == "attacker"


def test_defender_may_not_stop_on_a_camp_but_may_pass_over():
    """seed 004: 'Blue pieces can pass over but may not land on Red Camp Squares.'"""
    g = game(CAMP_7, camps=True)
    g.play("d2-d3")
    with pytest.raises(IllegalMove, match=CAMP):
        g.play("a2-d2")
    assert "d2" not in g.legal_targets()["a2"]
    g.play("a2-g2")  # passes over the empty camp d2
    assert g.piece_at("g2") == "defender"


@covers("camp_pass")
def test_camp_pass_without_defenders():
    """rules.py camp_pass: 'Pieces that may pass over a camp square' - here not defenders."""
    g = game(CAMP_7, camps=True, camp_pass={"attacker", "king"})
    g.play("d2-d3")
    with pytest.raises(IllegalMove, match=CAMP):
        g.play("a2-g2")
    g.play("a2-c2")


@pytest.mark.parametrize("camp_pass,allowed", [({"attacker", "defender", "king"}, True),
                                                ({"defender", "king"}, False)])
def test_attacker_from_outside_passing_a_camp(camp_pass, allowed):
    """rules.py camp_pass: 'Pieces that may pass over a camp square' - an attacker that has left its camp
    (c1-c2) then crosses the empty camp d2 along rank 2."""
    g = game(CAMP_7, camps=True, camp_pass=camp_pass)
    for m in ("d2-d3", "g6-g5", "c1-c2", "g5-g6"):
        g.play(m)
    if allowed:
        g.play("c2-f2")
        assert g.piece_at("f2") == "attacker"
    else:
        with pytest.raises(IllegalMove, match=CAMP):
            g.play("c2-f2")
        g.play("c2-b2")


def test_king_stops_on_a_camp_only_when_listed():
    """seed 004: only Red may land on the Red camps; rules.py camp_stop lists who may."""
    moves = ["d2-g2", "c5-c2", "g2-g3"]
    g = game(CAMP_7, camps=True)
    for m in moves:
        g.play(m)
    with pytest.raises(IllegalMove, match=CAMP):
        g.play("c2-d2")
    g2 = game(CAMP_7, camps=True, camp_stop={"attacker", "king"})
    for m in moves:
        g2.play(m)
    g2.play("c2-d2")
    assert g2.piece_at("d2") == "king"


def test_camps_come_from_the_rules_start_not_the_position():
    """rules.py camps: 'The attackers' starting squares are camps' - the start of the rules record, even when
    the game begins from another position (here d2 is empty in the position but still a camp)."""
    position = to_otn("""
      7 . . . . . . .
      6 . . . . . . T
      5 . . K . . . .
      4 . . . + . . .
      3 . . . . . . .
      2 T . . . . . t
      1 . . t t t . .
        a b c d e f g
    """)
    g = tafl_rules.Game(rules(CAMP_7, camps=True), position=position, turn="defenders")
    with pytest.raises(IllegalMove, match=CAMP):
        g.play("a2-d2")
    g.play("a2-e2")  # passes over the camp d2
    assert g.piece_at("e2") == "defender"


@covers("camps=False")
def test_without_camps_the_start_squares_are_ordinary():
    """seed 003: no special squares - a defender may stop where an attacker started."""
    g = game(CAMP_7, camps=False)
    g.play("d2-d3")
    g.play("a2-d2")
    assert g.piece_at("d2") == "defender"


# ==========================================================================
# 7. custodial capture
# ==========================================================================

CAPTURE_7 = """
  7 t . . . . . .
  6 . . . . . K .
  5 . . . . . . .
  4 . . . + . . .
  3 . T t . . . .
  2 . . . . . . .
  1 . . . T . . .
    a b c d e f g
"""


def test_custodial_capture():
    """seed 003 rule 7: 'An enemy piece is captured by surrounding it on two opposite sides, horizontally or
    vertically. That piece is removed from the board.' Smith law 9: 'If any one man gets between two squares
    occupied by his enemies, he is killed and taken off'."""
    g = game(CAPTURE_7, turn="defenders")
    move = g.play("d1-d3")
    assert move.captures == ["c3"]
    assert g.piece_at("c3") is None
    assert g.outcome is None


CAPTURE_THREE_9 = """
  9 . . . . . . . . .
  8 . . . . . . . . t
  7 . . T . . . K . .
  6 . . . . . . . . .
  5 . . . . + . . . .
  4 . . . . . . . . .
  3 T t . t T . . . .
  2 . . t . . . . . .
  1 . . T . . . . . .
    a b c d e f g h i
"""


def test_three_captures_at_once():
    """seed 003 rule 8: 'It is possible to capture two or three pieces at once by so surrounding them.'"""
    g = game(CAPTURE_THREE_9, turn="defenders")
    move = g.play("c7-c3")
    assert caps(move) == ["b3", "c2", "d3"]
    assert_board(g, """
      9 . . . . . . . . .
      8 . . . . . . . . t
      7 . . . . . . K . .
      6 . . . . . . . . .
      5 . . . . + . . . .
      4 . . . . . . . . .
      3 T . T . T . . . .
      2 . . . . . . . . .
      1 . . T . . . . . .
        a b c d e f g h i
    """)


ROW_7 = """
  7 t . . . . . .
  6 . . . . . K .
  5 . . . . . . .
  4 . . . + . . .
  3 . t T T . . .
  2 . . . . . . .
  1 . . . . t . .
    a b c d e f g
"""


@covers("shieldwall=none", "shieldwall=copenhagen")
@pytest.mark.parametrize("shieldwall", ["none", "copenhagen"])
def test_no_capture_of_a_row_away_from_the_edge(shieldwall):
    """seed 003 rule 9: 'It is not possible to capture a row of pieces, however.' (Copenhagen's shield wall is
    only on the board's edge, so an inner row is safe under both values.)"""
    g = game(ROW_7, shieldwall=shieldwall)
    assert g.play("e1-e3").captures == []
    assert g.piece_at("c3") == g.piece_at("d3") == "defender"


def test_diagonal_neighbours_do_not_capture():
    """seed 003 rule 7: capture is 'horizontally or vertically' only - b4 and d6 flank c5 diagonally."""
    g = game("""
      7 t . . . . . .
      6 . . . . . t .
      5 . . T . . . .
      4 . t . + . . .
      3 . . . . . . .
      2 . . . . . K .
      1 . . . . . . .
        a b c d e f g
    """)
    assert g.play("f6-d6").captures == []
    assert g.piece_at("c5") == "defender"


def test_the_moving_piece_is_not_captured_by_its_own_move():
    """seed 002: 'A piece can safely move to a square between two of the opponent's pieces without being
    captured.' (sandwich = safe, the default)"""
    g = game("""
      7 . . . . . . .
      6 . K . . . . .
      5 . . T . . . .
      4 . . . + . . .
      3 . . . . . . .
      2 . t . t . . .
      1 . . . . . . .
        a b c d e f g
    """, turn="defenders")
    assert g.play("c5-c2").captures == []
    assert g.piece_at("c2") == "defender"


# ==========================================================================
# 8. the shield wall (Copenhagen)
# ==========================================================================

SHIELDWALL_7 = """
  7 . . . . . . .
  6 . K . . . . .
  5 . . . . . . .
  4 . . . + t . .
  3 . . . . . . .
  2 . . t t . . .
  1 . t T T . . .
    a b c d e f g
"""


@pytest.mark.parametrize("shieldwall,expected", [("copenhagen", ["c1", "d1"]), ("none", [])])
def test_shieldwall_on_the_edge(shieldwall, expected):
    """modern standard (Copenhagen): a row of two or more pieces along the edge, bracketed at both ends and
    fronted square for square, is taken at once. seed 003 rule 9 (shieldwall = none): no row captures."""
    g = game(SHIELDWALL_7, shieldwall=shieldwall)
    assert caps(g.play("e4-e1")) == expected


def test_shieldwall_on_a_side_edge():
    """modern standard (Copenhagen): the shield wall works along every edge, here the a-file."""
    g = game("""
      7 t . . . . . .
      6 . . . . . . .
      5 . . . . . K .
      4 T t . + . . .
      3 T t . . . . .
      2 t . . . . . .
      1 . . . . . . .
        a b c d e f g
    """, shieldwall="copenhagen")
    assert caps(g.play("a7-a5")) == ["a3", "a4"]


def test_shieldwall_not_fully_fronted():
    """modern standard (Copenhagen): every piece of the row must have an enemy in front of it."""
    g = game(SHIELDWALL_7.replace("2 . . t t . . .", "2 . . t . . . ."), shieldwall="copenhagen")
    assert g.play("e4-e1").captures == []


def test_shieldwall_bracketed_by_a_corner():
    """modern standard (Copenhagen): a corner square may stand in for the bracket at one end of the row."""
    g = game("""
      7 + . . . . . +
      6 . K . . . . .
      5 . . . . . . .
      4 . . . + . . .
      3 . . . t . . .
      2 . t t . . . .
      1 + T T . . . +
        a b c d e f g
    """, shieldwall="copenhagen", corners=True,
         corners_hostile_to_attackers="always", corners_hostile_to_defenders="always")
    assert caps(g.play("d3-d1")) == ["b1", "c1"]


def test_shieldwall_with_the_king_in_the_row():
    """modern standard (Copenhagen): if the king is part of the wall he is not captured, the other fronted
    pieces are."""
    g = game("""
      7 + . . . . . +
      6 . . . . . . .
      5 . . . . . . .
      4 . . . + . t .
      3 . . . . . . .
      2 . . t t t . .
      1 + t T K T . +
        a b c d e f g
    """, shieldwall="copenhagen", corners=True, escape="corner",
         king_capture="four", king_capture_against={"throne"})
    assert caps(g.play("f4-f1")) == ["c1", "e1"]
    assert g.piece_at("d1") == "king"
    assert g.outcome is None


def test_shieldwall_needs_a_flanking_move():
    """modern standard (Copenhagen, as Cyningstan's rule 7 states it): the capturing move must be the flanking
    move to an edge square - here the last fronting piece arrives (g2-d2): no wall is taken."""
    g = game("""
      7 . . . . . . .
      6 . K . . . . .
      5 . . . . . . .
      4 . . . + . . .
      3 . . . . . . .
      2 . . t . . . t
      1 . t T T t . .
        a b c d e f g
    """, shieldwall="copenhagen")
    assert g.play("g2-d2").captures == []


def test_shieldwall_with_the_king_as_bracket():
    """modern standard (Copenhagen): the king may take part in shield-wall captures - here as a bracket."""
    g = game("""
      7 + . . . . . +
      6 . . . . . . .
      5 . . . . . . .
      4 . . . + T . t
      3 . . . . . . .
      2 . . T T . . .
      1 + K t t . . +
        a b c d e f g
    """, turn="defenders", shieldwall="copenhagen", corners=True, escape="corner")
    assert caps(g.play("e4-e1")) == ["c1", "d1"]


def test_shieldwall_of_attackers():
    """modern standard (Copenhagen): the defenders take an attackers' wall the same way."""
    g = game("""
      7 . . . . . . .
      6 . K . . . . t
      5 . . . . . . .
      4 . . . + T . .
      3 . . . . . . .
      2 . . T T . . .
      1 . T t t . . .
        a b c d e f g
    """, turn="defenders", shieldwall="copenhagen")
    assert caps(g.play("e4-e1")) == ["c1", "d1"]


# ==========================================================================
# 9. hostile squares
# ==========================================================================

HOSTILITY = ("never", "empty", "always")

THRONE_HOSTILE_TO_ATTACKERS_7 = """
  7 . . . . . . .
  6 . . . . . T .
  5 . . . . . . .
  4 . . . + t . .
  3 . . . . . . .
  2 . K . . . . .
  1 . . . . . . t
    a b c d e f g
"""


@covers(*(f"throne_hostile_to_attackers={v}" for v in HOSTILITY))
@pytest.mark.parametrize("value,empty_throne,occupied_throne", [
    ("never", [], []), ("empty", ["e4"], []), ("always", ["e4"], ["e4"])])
def test_throne_hostile_to_attackers(value, empty_throne, occupied_throne):
    """modern standard (Copenhagen): the throne is hostile to attackers always. 'empty': only while nobody
    stands on it. The occupied case uses an unarmed king so only the throne itself can capture (our reading:
    'always' means whoever stands on it)."""
    g = game(THRONE_HOSTILE_TO_ATTACKERS_7, turn="defenders", throne_hostile_to_attackers=value)
    assert caps(g.play("f6-f4")) == empty_throne
    occupied = THRONE_HOSTILE_TO_ATTACKERS_7.replace("4 . . . + t", "4 . . . K t").replace("2 . K", "2 . .")
    g = game(occupied, turn="defenders", throne_hostile_to_attackers=value, king_armed="no")
    assert caps(g.play("f6-f4")) == occupied_throne


THRONE_HOSTILE_TO_DEFENDERS_7 = """
  7 . . . . . . .
  6 . . . . . t .
  5 . . . . . . .
  4 . . . + T . .
  3 . . . . . . .
  2 . K . . . . .
  1 t . . . . . .
    a b c d e f g
"""


@covers(*(f"throne_hostile_to_defenders={v}" for v in HOSTILITY))
@pytest.mark.parametrize("value,empty_throne,occupied_throne", [
    ("never", [], []), ("empty", ["e4"], []), ("always", ["e4"], ["e4"])])
def test_throne_hostile_to_defenders(value, empty_throne, occupied_throne):
    """Smith law 10: 'If one of his own people happens to be in this fourth square, and one of his enemies in
    number 3 next to it, the soldier thus enclosed between his king and the enemy is killed.' (= always);
    modern standard (Copenhagen): hostile to defenders only when empty (= empty)."""
    g = game(THRONE_HOSTILE_TO_DEFENDERS_7, throne_hostile_to_defenders=value)
    assert caps(g.play("f6-f4")) == empty_throne
    occupied = THRONE_HOSTILE_TO_DEFENDERS_7.replace("4 . . . + T", "4 . . . K T").replace("2 . K", "2 . .")
    g = game(occupied, throne_hostile_to_defenders=value)
    assert caps(g.play("f6-f4")) == occupied_throne


def test_no_throne_means_no_hostile_centre():
    """rules.py throne: 'If false it is an ordinary square and every throne_* field is ignored.'"""
    g = game(THRONE_HOSTILE_TO_DEFENDERS_7.replace("+", "."), throne=False,
             throne_hostile_to_defenders="always", throne_hostile_to_attackers="always")
    assert g.play("f6-f4").captures == []


CORNER_HOSTILE_7 = """
  7 . . . . . . +
  6 . . . . . . .
  5 . . . . . . .
  4 . . . K . . .
  3 . . . . . . .
  2 . . . . . . .
  1 + {victim} . . . {hammer} .
    a b c d e f g
"""


@covers(*(f"corners_hostile_to_attackers={v}" for v in ("never", "always")),
        *(f"corners_hostile_to_defenders={v}" for v in ("never", "always")))
@pytest.mark.parametrize("side", ["attackers", "defenders"])
@pytest.mark.parametrize("value", ["never", "always"])
def test_corners_hostile(side, value):
    """seed 002: 'A piece that is next to the corner square can be captured by a single opposing piece ... the
    corner square acts as the second capturing piece.'"""
    victim, hammer, mover = ("t", "T", "defenders") if side == "attackers" else ("T", "t", "attackers")
    diagram = CORNER_HOSTILE_7.format(victim=victim, hammer=hammer)
    g = game(diagram, turn=mover, corners=True, **{f"corners_hostile_to_{side}": value})
    assert caps(g.play("f1-c1")) == (["b1"] if value == "always" else [])


def test_corner_hostility_needs_corners():
    """our reading: with corners = false the corner squares are ordinary, whatever the hostility fields say."""
    diagram = CORNER_HOSTILE_7.format(victim="T", hammer="t").replace("+", ".")
    g = game(diagram, corners=False, corners_hostile_to_defenders="always")
    assert g.play("f1-c1").captures == []


CAMP_HOSTILE_TO_ATTACKERS_9 = """
  9 . . . . . . . . .
  8 . . . . . . . . .
  7 . . . . . . . . .
  6 . . . . . . . . .
  5 . . . . K . . . .
  4 T . . . . . . . .
  3 T . . . . . . . .
  2 . . . . t . . . .
  1 . . . t t t . . .
    a b c d e f g h i
"""
# camps: e2 d1 e1 f1


@covers(*(f"camps_hostile_to_attackers={v}" for v in HOSTILITY))
@pytest.mark.parametrize("value,empty_camp,occupied_camp", [
    ("never", [], []), ("empty", ["e3"], []), ("always", ["e3"], ["e2"])])
def test_camps_hostile_to_attackers(value, empty_camp, occupied_camp):
    """rules.py camps_hostile_to_attackers: when a camp acts as an enemy piece for capturing attackers. Empty
    camp: an attacker that stepped out of e2 is taken against it. Occupied camp (our reading of 'always'): an
    attacker on e2 is taken against e1 although an attacker stands there."""
    g = game(CAMP_HOSTILE_TO_ATTACKERS_9, camps=True, camps_hostile_to_attackers=value)
    g.play("e2-e3")
    assert caps(g.play("a4-e4")) == empty_camp
    g = game(CAMP_HOSTILE_TO_ATTACKERS_9, turn="defenders", camps=True, camps_hostile_to_attackers=value)
    assert caps(g.play("a3-e3")) == occupied_camp


CAMP_HOSTILE_TO_DEFENDERS_9 = """
  9 . . . . . . . . .
  8 . . . . . . . . .
  7 . . . . . . . . .
  6 . . . . . . . . .
  5 . . . . K . . . .
  4 . . . . . . . . .
  3 . . . . . . . . .
  2 t . . T t . . . T
  1 . . . t t t . . .
    a b c d e f g h i
"""
# camps: a2 d1 e1 f1 e2


@covers(*(f"camps_hostile_to_defenders={v}" for v in HOSTILITY))
@pytest.mark.parametrize("value,empty_camp,occupied_camp", [
    ("never", [], []), ("empty", ["d2"], []), ("always", ["d2"], ["d2"])])
def test_camps_hostile_to_defenders(value, empty_camp, occupied_camp):
    """seed 004: 'A Blue piece can be captured against a Red Camp Square.' Occupied camp (our reading of
    'always'): the camp is hostile even with a defender standing on it."""
    g = game(CAMP_HOSTILE_TO_DEFENDERS_9, camps=True, camps_hostile_to_defenders=value)
    for m in ("e2-e4", "i2-i3"):
        g.play(m)
    assert caps(g.play("a2-c2")) == empty_camp
    g = game(CAMP_HOSTILE_TO_DEFENDERS_9, camps=True, camps_hostile_to_defenders=value,
             camp_stop={"attacker", "defender"})
    for m in ("e2-e4", "i2-e2"):
        g.play(m)
    assert caps(g.play("a2-c2")) == occupied_camp


# ==========================================================================
# 10. the armed king
# ==========================================================================

KING_HAMMER_7 = """
  7 . . . . . . .
  6 . . . . . . .
  5 . . . . . . .
  4 . . . + . . .
  3 . . . . . . .
  2 . T t . . K .
  1 . . . . . . t
    a b c d e f g
"""
KING_ANVIL_7 = """
  7 . . . . . . .
  6 . . . . . . .
  5 . T . . . . .
  4 . . . + . . .
  3 . . . . . . .
  2 . . t K . . .
  1 . . . . . . t
    a b c d e f g
"""


@covers(*(f"king_armed={v}" for v in CHOICES["king_armed"]))
@pytest.mark.parametrize("value,as_hammer,as_anvil", [
    ("yes", ["c2"], ["c2"]), ("no", [], []), ("anvil", [], ["c2"]), ("hammer", ["c2"], [])])
def test_king_armed(value, as_hammer, as_anvil):
    """seed 002: 'The King is unarmed and cannot capture.' seed 004: 'The King can't participate in a capture.'
    seed 002: 'many versions have an armed King who can capture.' anvil / hammer: rules.py ('only as the
    static partner (anvil) or only as the moving piece (hammer)')."""
    g = game(KING_HAMMER_7, turn="defenders", king_armed=value)
    assert caps(g.play("f2-d2")) == as_hammer
    g = game(KING_ANVIL_7, turn="defenders", king_armed=value)
    assert caps(g.play("b5-b2")) == as_anvil


# ==========================================================================
# 11. moving between two enemies
# ==========================================================================

SANDWICH_7 = """
  7 . . . . . . .
  6 . K . . . . .
  5 . . T . . . .
  4 . . . + . . .
  3 . . . . . . .
  2 . t . t {e2} . .
  1 . . . . . . .
    a b c d e f g
"""


@covers("sandwich=safe", "sandwich=unless-capturing", "sandwich=forbidden")
@pytest.mark.parametrize("value,allowed", [("safe", True), ("unless-capturing", False), ("forbidden", False)])
def test_moving_between_two_enemies(value, allowed):
    """seed 002: 'A piece can safely move to a square between two of the opponent's pieces without being
    captured.' ap Ifan (Murray): 'If the other says gwrheill and goes between two, there is no harm.'
    seed 004: 'A piece may not move into jeopardy except to take another piece.'"""
    g = game(SANDWICH_7.format(e2="."), turn="defenders", sandwich=value)
    if allowed:
        assert g.play("c5-c2").captures == []
        assert g.piece_at("c2") == "defender"
    else:
        assert "c2" not in g.legal_targets()["c5"]
        with pytest.raises(IllegalMove, match=SANDWICH):
            g.play("c5-c2")
        assert g.piece_at("c5") == "defender" and g.turn == "defenders"


@pytest.mark.parametrize("value,allowed", [("safe", True), ("unless-capturing", True), ("forbidden", False)])
def test_moving_between_two_enemies_to_capture(value, allowed):
    """seed 004: 'A piece may not move into jeopardy except to take another piece.' - here the move takes d2."""
    g = game(SANDWICH_7.format(e2="T"), turn="defenders", sandwich=value)
    if allowed:
        assert g.play("c5-c2").captures == ["d2"]
    else:
        with pytest.raises(IllegalMove, match=SANDWICH):
            g.play("c5-c2")


@pytest.mark.parametrize("value,allowed", [("safe", True), ("unless-capturing", True), ("forbidden", False)])
def test_moving_between_two_enemies_capturing_elsewhere(value, allowed):
    """seed 004: 'A piece may not move into jeopardy except to take another piece.' c3 stays between b3 and d3
    but takes c4 (against c5): allowed unless the rule is 'forbidden'."""
    g = game("""
      7 . . . . . . .
      6 . K . . . . .
      5 . . T . . . .
      4 . . t + . . .
      3 . t . t . . .
      2 . . . . . . .
      1 . . T . . . .
        a b c d e f g
    """, turn="defenders", sandwich=value)
    if allowed:
        assert g.play("c1-c3").captures == ["c4"]
        assert g.piece_at("c3") == "defender"
    else:
        with pytest.raises(IllegalMove, match=SANDWICH):
            g.play("c1-c3")


KING_BETWEEN_7 = """
  7 . . . . . . .
  6 . . . . . T .
  5 . . K . . . .
  4 . . . + . . .
  3 . . . . . . .
  2 . t . t . . .
  1 . . . . . . .
    a b c d e f g
"""


@pytest.mark.parametrize("king_capture,allowed", [("two", False), ("four", True)])
def test_jeopardy_for_the_king(king_capture, allowed):
    """seed 004: 'A piece may not move into jeopardy' - our reading: the king is in jeopardy between two
    attackers only where two can take him (king_capture = two), not where four are needed."""
    g = game(KING_BETWEEN_7, turn="defenders", sandwich="forbidden", king_capture=king_capture)
    if allowed:
        g.play("c5-c2")
        assert g.piece_at("c2") == "king"
    else:
        with pytest.raises(IllegalMove, match=SANDWICH):
            g.play("c5-c2")


def test_sandwich_rule_binds_attackers_too():
    """seed 004: 'A piece may not move into jeopardy' - any piece, an attacker too."""
    g = game("""
      7 . . . . . . .
      6 . . . . . K .
      5 . . t . . . .
      4 . . . + . . .
      3 . . . . . . .
      2 . T . T . . .
      1 . . . . . . .
        a b c d e f g
    """, sandwich="forbidden")
    with pytest.raises(IllegalMove, match=SANDWICH):
        g.play("c5-c2")
    g.play("c5-c3")


# ==========================================================================
# 12. capturing the king
# ==========================================================================

KING_PAIR_7 = """
  7 . . . . . . .
  6 . . . . . T .
  5 . . . . . . .
  4 . . . + . . .
  3 . . . . . . .
  2 . t K . . t .
  1 . . . . . . .
    a b c d e f g
"""


@covers("king_capture=two")
def test_king_captured_by_two():
    """seed 003 rule 11 / seed 001: 'the king is captured exactly as other counters are captured, via double
    custodianship.'"""
    g = game(KING_PAIR_7, king_capture="two")
    g.play("f2-d2")
    assert outcome_of(g) == ("attackers", "king-captured")
    assert g.outcome.reason


def test_king_captured_by_two_vertically():
    """seed 003 rule 7 applies to the king 'horizontally or vertically'."""
    g = game("""
      7 . . . . . . .
      6 . . . . . T .
      5 . . . . . . .
      4 . . . + . . .
      3 . . t . . . .
      2 . . K . . . .
      1 t . . . . . .
        a b c d e f g
    """, king_capture="two")
    g.play("a1-c1")
    assert outcome_of(g) == ("attackers", "king-captured")


@pytest.mark.parametrize("value", ["four", "immobile", "none"])
def test_two_attackers_do_not_take_a_strong_king(value):
    """seed 004: 'capture the King by surrounding him on four sides'; seed 000: 'the king is taken if he cannot
    move at all'; none: never taken."""
    g = game(KING_PAIR_7, king_capture=value)
    g.play("f2-d2")
    assert g.outcome is None
    assert g.piece_at("c2") == "king"


KING_FOUR_7 = """
  7 . . . . . . .
  6 . . . . . T .
  5 . . . . . . .
  4 . . . + . . .
  3 . . t . . . .
  2 . t K t . . .
  1 t . . . . . .
    a b c d e f g
"""


@covers("king_capture=four", "king_capture=immobile")
@pytest.mark.parametrize("value", ["two", "four", "linnaeus", "immobile"])
def test_king_surrounded_on_four_sides(value):
    """seed 004: 'The object for the Red side is to capture the King by surrounding him on four sides.'
    Every rule that can take the king takes him here."""
    g = game(KING_FOUR_7, king_capture=value)
    g.play("a1-c1")
    assert outcome_of(g) == ("attackers", "king-captured")


@covers("king_capture=none")
def test_king_never_captured():
    """rules.py king_capture = none: 'never taken (the attackers can only win by leaving the defenders without
    a move)'."""
    g = game(KING_FOUR_7, king_capture="none")
    g.play("a1-c1")
    assert g.outcome is None
    assert g.piece_at("c2") == "king"
    assert g.turn == "defenders"


KING_EDGE_7 = """
  7 + . . . . . +
  6 . . . . . T .
  5 . . . . . . .
  4 . . . + . . .
  3 . . t . . . .
  2 . . . . . . .
  1 + t K t . . +
    a b c d e f g
"""


@covers("king_capture_against", "king_capture_against=edge")
@pytest.mark.parametrize("against,taken", [({"edge"}, True), (set(), False)])
def test_king_against_the_edge(against, taken):
    """seed 002: 'opposing pieces must surround him on all four sides or, if the King is at the edge of the
    board, on the 3 sides available.' seed 004: '... but not against the edge of the board.'"""
    g = game(KING_EDGE_7, corners=True, escape="corner", king_capture="four", king_capture_against=against)
    g.play("c3-c2")
    assert outcome_of(g) == (("attackers", "king-captured") if taken else None)


KING_BESIDE_THRONE_7 = """
  7 . . . t . . .
  6 . . . . . . .
  5 . . t K t . .
  4 . . . + . . .
  3 . . . . . . .
  2 . . . . . T .
  1 . . . . . . .
    a b c d e f g
"""


@covers("king_capture_against=throne")
@pytest.mark.parametrize("against,taken", [({"throne"}, True), (set(), False)])
def test_king_against_the_throne(against, taken):
    """seed 004: 'The King must be captured by bracketing on four sides, by three if against the center
    square'; 'he can be bracketed against it in a capture.'"""
    g = game(KING_BESIDE_THRONE_7, king_capture="four", king_capture_against=against)
    g.play("d7-d6")
    assert outcome_of(g) == (("attackers", "king-captured") if taken else None)


KING_BESIDE_CAMP_9 = """
  9 . . . . . . . . .
  8 . . . . . . . . .
  7 . . . . . . . T .
  6 . . . . . . . . .
  5 . . . . + . . . .
  4 . . . . . . . . t
  3 . . . t K t . . .
  2 . . . . t . . . .
  1 . . . t t t . . .
    a b c d e f g h i
"""


@covers("king_capture_against=camp")
@pytest.mark.parametrize("against,taken", [({"camp"}, True), (set(), False)])
def test_king_against_a_camp(against, taken):
    """seed 004: 'by three if against the center square or against a Red Camp Square.' The attacker on e2
    leaves, then three attackers and the empty camp e2 enclose the king."""
    g = game(KING_BESIDE_CAMP_9, camps=True, king_capture="four", king_capture_against=against)
    g.play("e2-a2")
    assert g.outcome is None
    g.play("h7-h6")
    g.play("i4-e4")
    assert outcome_of(g) == (("attackers", "king-captured") if taken else None)


KING_BESIDE_CORNER_7 = """
  7 + . . . . . +
  6 . . . . . T .
  5 . . . . . . .
  4 . . . + . . .
  3 . t . . . . .
  2 . . . . . . .
  1 + K t . . . +
    a b c d e f g
"""


@covers("king_capture_against=corner")
@pytest.mark.parametrize("against,taken", [({"edge", "corner"}, True), ({"edge"}, False)])
def test_king_against_a_corner(against, taken):
    """rules.py king_capture_against: 'corner' makes a corner square stand in for an attacker (with the edge
    as the fourth side, since every square beside a corner is on the edge)."""
    g = game(KING_BESIDE_CORNER_7, corners=True, escape="corner", king_capture="four", king_capture_against=against)
    g.play("b3-b2")
    assert outcome_of(g) == (("attackers", "king-captured") if taken else None)


KING_ON_THRONE_7 = """
  7 . . . . . . .
  6 . . . . . . .
  5 . . . {d5} . . .
  4 . . t K t . .
  3 . . . . . . .
  2 . . . . . T .
  1 . . . t . . .
    a b c d e f g
"""


@covers("king_capture=linnaeus")
def test_linnaeus_four_on_the_throne():
    """Smith law 10: 'If four of the enemy gain possession of the four squares marked 2, thus enclosing the
    king, he becomes their prisoner.'"""
    g = game(KING_ON_THRONE_7.format(d5="t"), king_capture="linnaeus")
    g.play("d1-d3")
    assert outcome_of(g) == ("attackers", "king-captured")


def test_linnaeus_three_on_the_throne_is_not_enough():
    """Smith law 10: 'If the king, being in his own square or castle, is encompassed on three sides by his
    enemies ..., he may move away by the fourth.'"""
    g = game(KING_ON_THRONE_7.format(d5="."), king_capture="linnaeus")
    g.play("d1-d3")
    assert g.outcome is None
    assert "d5" in g.legal_targets()["d4"]


def test_linnaeus_three_beside_the_throne():
    """Smith law 11: 'If the king be in 2, with an enemy in each of the adjoining squares, a, A and 3, he is
    likewise taken.' (the throne is the fourth side)"""
    g = game(KING_BESIDE_THRONE_7, king_capture="linnaeus")
    g.play("d7-d6")
    assert outcome_of(g) == ("attackers", "king-captured")


def test_linnaeus_two_beside_the_throne_is_not_enough():
    """Smith law 11 (three needed beside the castle); a pair on a line does not take him there."""
    g = game("""
      7 . . . . . . .
      6 . . . . . . .
      5 . . t K . . t
      4 . . . + . . .
      3 . . . . . . .
      2 . . . . . T .
      1 . . . . . . .
        a b c d e f g
    """, king_capture="linnaeus")
    g.play("g5-e5")
    assert g.outcome is None


def test_linnaeus_two_away_from_the_throne():
    """Linnaeus law 9 as read today ('... est occisus et ejici debet, item Rex', research/texts-found.md 1d/1e,
    second-hand): away from the throne the king is taken between two like a man."""
    g = game(KING_PAIR_7, king_capture="linnaeus")
    g.play("f2-d2")
    assert outcome_of(g) == ("attackers", "king-captured")


def test_immobile_king_shut_in_along_his_rank():
    """seed 000: 'the king is taken if he cannot move at all' - the last attacker arrives beside him on his rank."""
    g = game("""
      7 . . . . . . .
      6 . . . . . T .
      5 . . . . . . .
      4 . . . + . . .
      3 . . t . . . .
      2 . t K . . t .
      1 . . t . . . .
        a b c d e f g
    """, king_capture="immobile")
    g.play("f2-d2")
    assert outcome_of(g) == ("attackers", "king-captured")


@pytest.mark.parametrize("hostility,taken", [("empty", True), ("never", False)])
def test_king_two_against_a_hostile_throne(hostility, taken):
    """rules.py king_capture = two: 'like any man' - our reading: a square hostile to defenders (here the
    empty throne) is an anvil against the king as it is against his men."""
    g = game("""
      7 . . . . . . .
      6 t . . . . T .
      5 . . . K . . .
      4 . . . + . . .
      3 . . . . . . .
      2 . . . . . . .
      1 . . . . . . .
        a b c d e f g
    """, king_capture="two", throne_hostile_to_defenders=hostility)
    g.play("a6-d6")
    assert outcome_of(g) == (("attackers", "king-captured") if taken else None)


@pytest.mark.parametrize("value", ["two", "four", "linnaeus", "immobile"])
def test_king_may_walk_between_two_attackers(value):
    """seed 002: 'A piece can safely move to a square between two of the opponent's pieces without being
    captured.' - the king too, when watch_king is off."""
    g = game("""
      7 . . . . . . .
      6 . . . . . . .
      5 . . K . . . .
      4 . . . + . . .
      3 . . . . . . .
      2 . t . t . . .
      1 . . . . . . .
        a b c d e f g
    """, turn="defenders", king_capture=value)
    g.play("c5-c2")
    assert g.outcome is None
    assert g.piece_at("c2") == "king"


def test_four_on_the_throne():
    """seed 004: 'The King must be captured by bracketing on four sides' - on the throne as anywhere."""
    g = game(KING_ON_THRONE_7.format(d5="t"), king_capture="four", king_capture_against={"throne"})
    g.play("d1-d3")
    assert outcome_of(g) == ("attackers", "king-captured")


def test_immobile_king_on_the_edge():
    """seed 000 (Jones on ap Ifan): 'the king is taken if he cannot move at all' - three attackers and the
    edge leave him no move."""
    g = game(KING_EDGE_7, corners=True, escape="corner", king_capture="immobile")
    g.play("c3-c2")
    assert outcome_of(g) == ("attackers", "king-captured")


def test_immobile_king_with_a_way_out_is_not_taken():
    """seed 000: taken only 'if he cannot move at all' - three attackers, the fourth side open."""
    g = game("""
      7 . . . . . . .
      6 . . . . . T .
      5 . . t . . . .
      4 . . . + . . .
      3 . . . . . . .
      2 . t K t . . .
      1 . . . . . . .
        a b c d e f g
    """, king_capture="immobile")
    g.play("c5-c3")
    assert g.outcome is None


# ==========================================================================
# 13. "watch your king" (ap Ifan)
# ==========================================================================

WATCH_KING_9 = """
  9 . . . . . . . . .
  8 . . . . . . . . .
  7 . . . . . . . . .
  6 . . K . . . . . .
  5 . . . . + . . . .
  4 . . . . . . . t .
  3 . t . t . . . . .
  2 . . T . . . . . .
  1 . . . . . . . . .
    a b c d e f g h i
"""


@covers("watch_king=True", "watch_king=False")
@pytest.mark.parametrize("watch,taken", [(True, True), (False, False)])
def test_watch_your_king(watch, taken):
    """ap Ifan (Murray's translation as given by Cyningstan, research/quotes.md version B, second-hand): 'If the
    king himself comes between two of the attackers and if you say 'watch your king' before he moves into that
    place, and he is unable to escape, you catch him.'
    The king walks in between b3 and d3; h4-c4 shuts the way back; his own man blocks c2."""
    g = game(WATCH_KING_9, turn="defenders", king_capture="four", watch_king=watch)
    assert g.play("c6-c3").captures == []
    assert g.outcome is None
    g.play("h4-c4")
    assert outcome_of(g) == (("attackers", "king-captured") if taken else None)


def test_watch_your_king_only_when_he_moved_in():
    """rules.py watch_king: 'a king who moves between two attackers and then has no move out is taken' - our
    reading: when the attackers closed the pair round him, it is the ordinary capture rule (four) that counts."""
    g = game("""
      9 . . . . . . . . .
      8 . . . . . . . T .
      7 . . . . . . . . .
      6 . . . . . . . . .
      5 . . . t + . . . .
      4 . . . . . . . t .
      3 . t K . . . . . .
      2 . . T . . . . . .
      1 . . . . . . . . .
        a b c d e f g h i
    """, king_capture="four", watch_king=True)
    g.play("d5-d3")
    g.play("h8-h7")
    g.play("h4-c4")
    assert g.outcome is None


# ==========================================================================
# 14. escape
# ==========================================================================

ESCAPE_7 = """
  7 . . . . . . .
  6 . . . . . . .
  5 . . . . . . .
  4 . . . + . . .
  3 . . . . . . .
  2 . . K . . t .
  1 . . . . . . .
    a b c d e f g
"""


@covers("escape=edge")
def test_escape_to_any_edge_square():
    """seed 003 rule 10: 'The defending player wins the game by moving the king to any square on the edge of
    the board.' Smith law 4: 'If the king be able to accomplish this, the contest is at an end.'"""
    g = game(ESCAPE_7, turn="defenders", escape="edge")
    g.play("c2-a2")
    assert outcome_of(g) == ("defenders", "escape")
    assert "a2" in g.outcome.reason


@covers("escape=corner")
def test_escape_to_a_corner():
    """seed 002: 'The aim for the defending light coloured side is to get the King to a corner square'."""
    g = game(ESCAPE_7, turn="defenders", corners=True, escape="corner")
    g.play("c2-a2")
    assert g.outcome is None
    g.play("f2-f3")
    g.play("a2-a1")
    assert outcome_of(g) == ("defenders", "escape")
    assert "a1" in g.outcome.reason


@covers("escape=none")
def test_no_escape():
    """rules.py escape = none: reaching the edge or a corner wins nothing."""
    g = game(ESCAPE_7, turn="defenders", corners=True, escape="none")
    g.play("c2-a2")
    g.play("f2-f3")
    g.play("a2-a1")
    assert g.outcome is None


EDGE_EXCEPT_CAMPS_7 = """
  7 . . . . . . .
  6 . . . . . . .
  5 . . K . . . .
  4 . . . + . . .
  3 . . . . . . .
  2 . . . t . . .
  1 . . t t t . .
    a b c d e f g
"""


@covers("escape=edge-except-camps")
def test_escape_to_an_edge_square_that_is_not_a_camp():
    """seed 004: 'The object of Tafl is for the King to exit the board through unoccupied edge square except
    the Red Camp Squares.'"""
    g = game(EDGE_EXCEPT_CAMPS_7, camps=True, escape="edge-except-camps", camp_stop={"attacker", "king"})
    g.play("c1-a1")
    g.play("c5-c1")  # the king on an empty camp on the edge: no escape
    assert g.outcome is None
    g = game(EDGE_EXCEPT_CAMPS_7, turn="defenders", camps=True, escape="edge-except-camps")
    g.play("c5-a5")
    assert outcome_of(g) == ("defenders", "escape")


# ==========================================================================
# 15. raichi, tuichi, check, king threatened
# ==========================================================================

TUICHI_7 = """
  7 . . t . . . .
  6 . . . . . . .
  5 . . . . K . t
  4 . . . + . . .
  3 . . . . . . .
  2 . . . . . . .
  1 {a1} . {c1} . . . .
    a b c d e f g
"""


@covers("tuichi=win")
def test_tuichi_wins():
    """seed 004: 'If the King has a clear approach to two exit squares, which is unblockable, he announces,
    "Tuichi," and wins the game since the move can't be blocked in one play.' From c5 the king sees a5 and c1."""
    g = game(TUICHI_7.format(a1=".", c1="."), turn="defenders", tuichi="win")
    g.play("e5-c5")
    assert outcome_of(g) == ("defenders", "tuichi")


@covers("tuichi=announce")
def test_tuichi_announced():
    """Smith law 6: 'Whenever the person who moves the king perceives that a passage is free, he must call out
    raichi, and if there be two ways open, tuichu.' - announced, the game goes on."""
    g = game(TUICHI_7.format(a1=".", c1="."), turn="defenders", tuichi="announce")
    g.play("e5-c5")
    assert g.outcome is None
    assert "tuichi" in g.announcements()


def test_raichi_announced():
    """Smith law 6 / seed 004: 'If the King has a clear approach to any edge square, the Blue player announces,
    "Raichi," or check.' One way open (a5; c1 is held)."""
    g = game(TUICHI_7.format(a1=".", c1="t"), turn="defenders", tuichi="win")
    g.play("e5-c5")
    assert g.outcome is None
    announced = g.announcements()
    assert "raichi" in announced
    assert "tuichi" not in announced


def test_tuichi_towards_two_corners():
    """seed 004's tuichi ('a clear approach to two exit squares') in a corner game: from a4 the king sees a1
    and a7 - our reading: the exit squares are whatever the escape rule makes them."""
    g = game("""
      7 + . . . . . +
      6 . . . . . . .
      5 . . . . . . t
      4 . . K + . . .
      3 . . . . . . .
      2 . . . . . . .
      1 + . . . . . +
        a b c d e f g
    """, turn="defenders", corners=True, escape="corner", tuichi="win")
    g.play("c4-a4")
    assert outcome_of(g) == ("defenders", "tuichi")


def test_tuichi_opened_by_a_defender():
    """seed 004: 'If the King has a clear approach to two exit squares, which is unblockable, he announces,
    "Tuichi," and wins' - our reading: whichever defender's move opens the second road."""
    g = game("""
      7 . . t . . . .
      6 . . . . . . .
      5 . . K . . . t
      4 . . . + . . .
      3 . . T . . . .
      2 . . . . . . .
      1 . . . . . . .
        a b c d e f g
    """, turn="defenders", tuichi="win")
    g.play("c3-e3")  # opens c1; a5 was already open
    assert outcome_of(g) == ("defenders", "tuichi")


@pytest.mark.parametrize("escape,road", [("edge", True), ("edge-except-camps", False)])
def test_no_raichi_towards_a_camp(escape, road):
    """seed 004: the king exits 'through unoccupied edge square except the Red Camp Squares' - a road that
    ends on a camp (c1, emptied by c1-b1) is no road there; with plain edge escape it is one."""
    g = game("""
      7 . . t . . . .
      6 . . . . . . .
      5 t . K . . . t
      4 . . . + . . .
      3 . . . . . . .
      2 . . . . . . .
      1 . . t . . . .
        a b c d e f g
    """, camps=True, escape=escape, camp_stop={"attacker", "king"})
    g.play("c1-b1")
    assert ("raichi" in g.announcements()) == road
    assert "tuichi" not in g.announcements()


def test_check_announced():
    """seed 002: 'A good variation is that the King's player must say 'Check' if he can get the King to the
    edge of the board on his next turn.' - here a corner game: from c5 no corner is one move away; from c7
    the corner a7 is (b7 empty)."""
    g = game(TUICHI_7.format(a1=".", c1="t"), turn="defenders", corners=True, escape="corner")
    g.play("e5-c5")
    assert "check" not in g.announcements()  # no corner in reach this turn
    g.play("c7-d7")
    g.play("c5-c7")  # now a7 is one move away along rank 7
    assert "check" in g.announcements()


def test_no_announcement_without_a_way_out():
    """Smith law 6: nothing to call when no passage is free."""
    g = game(TUICHI_7.format(a1=".", c1="t").replace("5 . . . . K . t", "5 t . . . K . t"), turn="defenders")
    g.play("e5-c5")
    announced = g.announcements()
    assert "raichi" not in announced and "tuichi" not in announced


def test_king_threatened_announced():
    """ap Ifan (Murray): "if you say 'watch your king'" - the UI warns when the attackers can take the king
    with their next move (b2 stands beside him; f2-d2 would close the pair)."""
    g = game(KING_PAIR_7, king_capture="two")
    assert "king threatened" in g.announcements()
    g2 = game(KING_PAIR_7.replace("2 . t K . . t .", "2 . . K . . . .").replace("7 . . . . . . .", "7 t . . . . . ."),
              king_capture="two")  # the attackers far away
    assert "king threatened" not in g2.announcements()


@pytest.mark.parametrize("attackers,threatened", [("b2 d2 c3", True), ("b2 d2", False)])
def test_king_threatened_under_four(attackers, threatened):
    """seed 004: four sides take the king - with three around him and a fourth able to come (a1-c1), he is
    threatened; with two around him he is not."""
    board = {sq: "t" for sq in attackers.split()} | {"c2": "K", "f6": "T", "a1": "t"}
    lines = []
    for rank in range(7, 0, -1):
        lines.append(f"{rank} " + " ".join(board.get(f"{f}{rank}", ".") for f in "abcdefg"))
    g = game("\n".join(lines) + "\n  a b c d e f g", king_capture="four")
    assert ("king threatened" in g.announcements()) == threatened


# ==========================================================================
# 16. edge fort and encirclement (Copenhagen)
# ==========================================================================

EDGE_FORT_7 = """
  7 + t . . . t +
  6 . . . . . . .
  5 . . . . . . .
  4 . . . + . . .
  3 T . . T . . .
  2 . . T . T . .
  1 + . T K T . +
    a b c d e f g
"""


EDGE_FORT_SMALL_7 = """
  7 + t . . . t +
  6 . . . . . . .
  5 . . T . . . .
  4 . . . + . . .
  3 . . . . . . .
  2 . . . T . . .
  1 + T . K T . +
    a b c d e f g
"""


@covers("edge_fort=True", "edge_fort=False")
@pytest.mark.parametrize("fort", [True, False])
def test_edge_fort_small(fort):
    """modern standard (Copenhagen): edge fort - king d1 with the empty c1 inside, b1 c2 d2 e1 around; c5-c2
    closes it and no attacker can ever reach c1 or take a wall piece."""
    g = game(EDGE_FORT_SMALL_7, turn="defenders", corners=True, escape="corner", edge_fort=fort)
    g.play("c5-c2")
    assert outcome_of(g) == (("defenders", "edge-fort") if fort else None)


def test_no_edge_fort_while_it_can_be_broken():
    """modern standard (Copenhagen): the fort must be impossible to break - one piece short, it is not a fort."""
    g = game(EDGE_FORT_SMALL_7, turn="defenders", corners=True, escape="corner", edge_fort=True)
    g.play("c5-c4")
    assert g.outcome is None


@pytest.mark.parametrize("fort", [True, False])
def test_edge_fort(fort):
    """modern standard (Copenhagen): the defenders win when the king touches the edge, can move, and stands in
    a fort the attackers can never break. c3 closes the fort round d1/d2."""
    g = game(EDGE_FORT_7, turn="defenders", corners=True, escape="corner", edge_fort=fort)
    g.play("a3-c3")
    assert outcome_of(g) == (("defenders", "edge-fort") if fort else None)


def test_closed_but_breakable_fort_is_no_fort():
    """modern standard (Copenhagen): the fort must be impossible to break - without c3 the fort
    round d1/d2 is closed, but attackers on c3 and e3 would take d3, so it does not win yet."""
    g = game(EDGE_FORT_7, turn="defenders", corners=True, escape="corner", edge_fort=True)
    g.play("a3-a2")
    assert g.outcome is None


EDGE_FORT_BY_THE_CORNER_11 = """
 11 + . . . . . . . t . +
 10 . . . . . . . . . . .
  9 . . . . . . . . . . t
  8 . . . . . . . . . . .
  7 . . . . . . . . . . .
  6 . . . . . + . . . . .
  5 . . . . . . . . . . .
  4 . . . . . . . . . . .
  3 . . . . . . . . . . .
  2 . . . . . . . . . T .
  1 + . . . . . . T T K +
    a b c d e f g h i j k
"""


def test_an_edge_fort_beside_a_corner_is_closed_by_the_corner():
    """modern standard (Copenhagen): no attacker can ever stop on or pass the corner k1, so a fort
    that reaches it ends there: after i1-i2 the king on j1 with i1 and k1 is shut in by h1, i2 and
    j2, which no attacker can take, and the defenders win. (The fort must not be grown through
    the corner and on up the k file, where it would meet the attacker on k9.)"""
    fields = dict(turn="defenders", corners=True, escape="corner", edge_fort=True, shieldwall="copenhagen",
                  corners_hostile_to_attackers="always", corners_hostile_to_defenders="always")
    g = game(EDGE_FORT_BY_THE_CORNER_11, **fields)
    g.play("i1-i2")
    assert outcome_of(g) == ("defenders", "edge-fort")
    open_fort = game(EDGE_FORT_BY_THE_CORNER_11, **fields)
    open_fort.play("h1-h2")  # the fort now runs west along the first rank, open to the attackers
    assert open_fort.outcome is None


#: Found by an independent probe of the engine (issue 31): a fort whose wall a lone attacker can
#: still break against a hostile corner. Rank 1 first: h1 T, i1 K, j1 T, k1 the corner; h2 T,
#: k2 T; j3 T; i4 T; the one attacker on k8.
LONE_ATTACKER_FORT = "/7TKT1/7T2T/9T1/8T2/11/11/11/10t/11/11/11/"


def test_a_lone_attacker_that_can_still_break_the_wall_leaves_no_edge_fort():
    """modern standard (Copenhagen): the fort must be impossible to break. After i4-i3 the king on i1
    is walled in, but the one attacker left can play k8-k3 and take k2 against the hostile corner
    k1, opening the wall: no edge fort yet. A second attacker changes nothing in that."""
    g = tafl_rules.Game("copenhagen", position=LONE_ATTACKER_FORT, turn="defenders")
    g.play("i4-i3")
    assert g.outcome is None
    assert g.play("k8-k3").captures == ["k2"]
    two = tafl_rules.Game("copenhagen", position="/7TKT1/7T2T/9T1/8T2/11/11/11/10t/11/11/1t9/", turn="defenders")
    two.play("i4-i3")  # the same with a second attacker on b11
    assert two.outcome is None


ENCIRCLED_7 = """
  7 . . . . . . {g7}
  6 . t t t t t .
  5 . t . . . t .
  4 . t . K T t .
  3 . t . . . t .
  2 . t t . t t .
  1 . . . t . . .
    a b c d e f g
"""


@covers("encirclement=True", "encirclement=False")
@pytest.mark.parametrize("rule", [True, False])
def test_encirclement(rule):
    """modern standard (Copenhagen): the attackers win when an unbroken ring encloses the king and all remaining
    defenders. d1-d2 closes the ring."""
    g = game(ENCIRCLED_7.format(g7="."), encirclement=rule)
    assert g.play("d1-d2").captures == []
    assert outcome_of(g) == (("attackers", "encirclement") if rule else None)


def test_encirclement_by_a_diagonal_ring():
    """modern standard (Copenhagen; Cyningstan's wording: surrounded so that none of the king's forces can reach
    the board's edge) - our reading: pieces touching corner to corner close the ring, since no piece moves
    diagonally. a1-d1 closes the diamond."""
    g = game("""
      7 . . . t . . .
      6 . . t . t . .
      5 . t . . . t .
      4 t . T K . . t
      3 . t . . . t .
      2 . . t . t . .
      1 t . . . . . .
        a b c d e f g
    """, encirclement=True)
    assert g.play("a1-d1").captures == []
    assert outcome_of(g) == ("attackers", "encirclement")


def test_encirclement_needs_every_defender_inside():
    """modern standard (Copenhagen): the ring must hold the king and *all* remaining defenders."""
    g = game(ENCIRCLED_7.format(g7="T"), encirclement=True)
    g.play("d1-d2")
    assert g.outcome is None


# ==========================================================================
# 17. no legal move, repetition, ply limit
# ==========================================================================

NO_MOVES_7 = """
  7 + . . . . . +
  6 . . . . . . .
  5 . . . . . . .
  4 . . . + . . .
  3 . . . t . . .
  2 . . . . . . .
  1 + . t K t . +
    a b c d e f g
"""


@covers("no_moves=loss", "no_moves=draw")
@pytest.mark.parametrize("value,winner", [("loss", "attackers"), ("draw", None)])
def test_defenders_without_a_move(value, winner):
    """seed 000: the other player wins by 'confin[ing] him so that he has no power of moving' (read as the whole
    side); rules.py no_moves: 'A side with no legal move on its turn loses, or the game is drawn.'"""
    g = game(NO_MOVES_7, corners=True, escape="corner", king_capture="four", no_moves=value)
    g.play("d3-d2")
    assert outcome_of(g) == (winner, "no-moves")


def test_king_capture_none_wins_only_by_blocking():
    """rules.py king_capture = none: 'the attackers can only win by leaving the defenders without a move'."""
    g = game(NO_MOVES_7, corners=True, escape="corner", king_capture="none")
    g.play("d3-d2")
    assert outcome_of(g) == ("attackers", "no-moves")


def test_attackers_without_a_move_lose():
    """rules.py no_moves = loss applies to either side."""
    g = game("""
      7 . . . . . . .
      6 . . . . . . .
      5 . . . . . . .
      4 . . . + K . .
      3 . T . . . . .
      2 T . . . . . .
      1 t . . . . . .
        a b c d e f g
    """, turn="defenders", no_moves="loss")
    assert g.play("b3-b1").captures == []
    assert outcome_of(g) == ("defenders", "no-moves")


REPEAT_7 = """
  7 t . . . . . .
  6 . . . . . . .
  5 . . . . . . .
  4 . . . K . . .
  3 . . . . . . .
  2 . . . . . . .
  1 . . . . . . T
    a b c d e f g
"""
SHUFFLE_ATTACKERS_FIRST = ["a7-b7", "g1-f1", "b7-a7", "f1-g1"] * 3
SHUFFLE_DEFENDERS_FIRST = ["g1-f1", "a7-b7", "f1-g1", "b7-a7"] * 3


def play_plies(g, moves):
    for move in moves:
        g.play(move)


@covers("repetition=ignore")
def test_repetition_ignored():
    """rules.py repetition = ignore: a repeated position does nothing (seed 003 says nothing of repetition)."""
    g = game(REPEAT_7, repetition="ignore")
    play_plies(g, SHUFFLE_ATTACKERS_FIRST)
    assert g.outcome is None


@covers("repetition=draw", "repetition_count")
def test_threefold_repetition_draws():
    """rules.py repetition = draw: the third occurrence of a position (same side to move) is a draw. The start
    counts as the first occurrence; the third comes with ply 8."""
    g = game(REPEAT_7, repetition="draw")
    play_plies(g, SHUFFLE_ATTACKERS_FIRST[:7])
    assert g.outcome is None
    g.play(SHUFFLE_ATTACKERS_FIRST[7])
    assert outcome_of(g) == (None, "repetition")


def test_repetition_count_two():
    """rules.py repetition_count: 'How many occurrences of the same position ... count as repetition.'"""
    g = game(REPEAT_7, repetition="draw", repetition_count=2)
    play_plies(g, SHUFFLE_ATTACKERS_FIRST[:3])
    assert g.outcome is None
    g.play(SHUFFLE_ATTACKERS_FIRST[3])
    assert outcome_of(g) == (None, "repetition")


@covers("repetition=loss")
@pytest.mark.parametrize("first,shuffle,winner", [
    ("attackers", SHUFFLE_ATTACKERS_FIRST, "attackers"),   # ply 8 is the defenders' move
    ("defenders", SHUFFLE_DEFENDERS_FIRST, "defenders")])  # ply 8 is the attackers' move
def test_repetition_loses_for_the_side_that_makes_it(first, shuffle, winner):
    """rules.py repetition = loss: 'a loss for the side that made it'."""
    g = game(REPEAT_7, turn=first, repetition="loss")
    play_plies(g, shuffle[:8])
    assert outcome_of(g) == (winner, "repetition")


@covers("repetition=defenders-lose")
@pytest.mark.parametrize("first,shuffle", [("attackers", SHUFFLE_ATTACKERS_FIRST),
                                           ("defenders", SHUFFLE_DEFENDERS_FIRST)])
def test_repetition_loses_for_the_defenders(first, shuffle):
    """modern standard (Copenhagen): perpetual repetition is a loss for the defenders - whoever makes the third
    occurrence (rules.py: 'a loss for the defenders whoever made it')."""
    g = game(REPEAT_7, turn=first, repetition="defenders-lose")
    play_plies(g, shuffle[:8])
    assert outcome_of(g) == ("attackers", "repetition")


@covers("ply_limit")
def test_ply_limit():
    """rules.py ply_limit: 'Draw after this many plies'."""
    g = game(REPEAT_7, ply_limit=3)
    play_plies(g, SHUFFLE_ATTACKERS_FIRST[:2])
    assert g.outcome is None
    g.play(SHUFFLE_ATTACKERS_FIRST[2])
    assert outcome_of(g) == (None, "ply-limit")


def test_ply_limit_gives_way_to_a_decisive_last_move():
    """rules.py ply_limit is a draw for self-play; our reading: a king taken on the last allowed ply is taken."""
    g = game(KING_PAIR_7, king_capture="two", ply_limit=1)
    g.play("f2-d2")
    assert outcome_of(g) == ("attackers", "king-captured")


# ==========================================================================
# 18. the end of the game, and undo
# ==========================================================================

def test_game_goes_on_while_the_king_stands():
    """seed 004: 'No matter how many pieces are taken the game is not over until either the King is captured
    or leaves the board.' - the last defender falls, the king plays on."""
    g = game("""
      7 . . . . . . .
      6 . . . . . K .
      5 . . . . . . .
      4 . . . + . . .
      3 . t T . . . .
      2 . . . . . . .
      1 . . . t . . .
        a b c d e f g
    """)
    assert g.play("d1-d3").captures == ["c3"]
    assert g.outcome is None
    assert g.legal_targets()["f6"]


def test_no_move_after_the_game_is_over():
    """Smith law 12: 'Whenever the king is thus taken or imprisoned, the war is over'."""
    g = game(KING_PAIR_7, king_capture="two")
    g.play("f2-d2")
    assert g.legal_moves() == []
    assert not g.legal_targets()
    with pytest.raises(IllegalMove, match=OVER):
        g.play("f6-f5")


def test_undo_restores_a_capture():
    """API contract: 'game.undo() restores the exact previous state.'"""
    g = game(CAPTURE_7, turn="defenders")
    before = g.position()
    move = g.play("d1-d3")
    assert move.captures == ["c3"]
    undone = g.undo()
    assert str(undone) == "d1-d3"
    assert_board(g, CAPTURE_7)
    assert g.position() == before
    assert g.turn == "defenders"
    assert list(g.moves) == []
    assert g.play("d1-d3").captures == ["c3"]


def test_undo_restores_a_finished_game():
    """API contract: undoing the winning move reopens the game."""
    g = game(KING_PAIR_7, king_capture="two")
    g.play("f2-d2")
    assert g.outcome is not None
    g.undo()
    assert g.outcome is None
    assert_board(g, KING_PAIR_7)
    assert g.turn == "attackers"
    g.play("f2-e2")
    assert g.outcome is None


def test_undo_restores_repetition_counts():
    """API contract: after undo the position counts are those of the earlier state."""
    g = game(REPEAT_7, repetition="draw")
    play_plies(g, SHUFFLE_ATTACKERS_FIRST[:8])
    assert g.outcome is not None
    g.undo()
    assert g.outcome is None
    g.undo()
    g.play(SHUFFLE_ATTACKERS_FIRST[6])
    assert g.outcome is None
    g.play(SHUFFLE_ATTACKERS_FIRST[7])
    assert outcome_of(g) == (None, "repetition")


def test_undo_with_nothing_to_undo():
    """API contract: undo on a fresh game is an error, and the game is unchanged."""
    g = game(OPEN_7)
    with pytest.raises((IndexError, ValueError)):
        g.undo()
    assert_board(g, OPEN_7)


# ==========================================================================
# 19. the seeds' own rule sets (catalogue variants) on the same diagrams
# ==========================================================================

def variant_game(variant_id, diagram, turn, toggles):
    """A game on a scenario diagram under a catalogue variant's rules (size and start from the diagram)."""
    v = tafl_rules.variant(variant_id, **toggles)
    size = len([line for line in diagram.strip().splitlines() if line.strip()[:1].isdigit()])
    return tafl_rules.Game(v.rules.replace(size=size, start=to_otn(diagram)), turn=turn)


TAKEN = ("outcome", ("attackers", "king-captured"))
NOT_TAKEN = ("outcome", None)
KING_ALONE_7 = KING_FOUR_7.replace("6 . . . . . T .", "6 . . . . . . .")

SEED_CASES = [
    # seed 003 (Cyningstan): tawlbwrdd-cyningstan
    ("tawlbwrdd-cyningstan", {}, KING_PAIR_7, "attackers", ["f2-d2"], TAKEN,
     "seed 003 rule 11: 'The attacking player wins by capturing the king.' (two, like any piece)"),
    ("tawlbwrdd-cyningstan", {}, THRONE_7, "attackers", ["a4-d4"], ("captures", []),
     "seed 003: 'It has no special squares on the board'"),
    ("tawlbwrdd-cyningstan", {}, KING_HAMMER_7, "defenders", ["f2-d2"], ("captures", ["c2"]),
     "seed 003: the king is 'given the same powers and defence as every other piece'"),
    ("tawlbwrdd-cyningstan", {}, ESCAPE_7, "defenders", ["c2-a2"], ("outcome", ("defenders", "escape")),
     "seed 003 rule 10: 'moving the king to any square on the edge of the board'"),
    ("tawlbwrdd-cyningstan", {}, ROW_7, "attackers", ["e1-e3"], ("captures", []),
     "seed 003 rule 9: 'It is not possible to capture a row of pieces'"),
    # seed 002: tawlbwrdd-corner
    ("tawlbwrdd-corner", {}, KING_HAMMER_7, "defenders", ["f2-d2"], ("captures", []),
     "seed 002: 'The King is unarmed and cannot capture.'"),
    ("tawlbwrdd-corner", {}, KING_ANVIL_7, "defenders", ["b5-b2"], ("captures", []),
     "seed 002: 'The King is unarmed and cannot capture.'"),
    ("tawlbwrdd-corner", {}, CORNER_HOSTILE_7.format(victim="T", hammer="t"), "attackers", ["f1-c1"],
     ("captures", ["b1"]), "seed 002: 'the corner square acts as the second capturing piece.'"),
    ("tawlbwrdd-corner", {}, CORNER_7, "attackers", ["d1-a1"], ("illegal", CORNER),
     "seed 002: 'Only the King is allowed into the corner squares'"),
    ("tawlbwrdd-corner", {}, KING_EDGE_7, "attackers", ["c3-c2"], TAKEN,
     "seed 002: 'if the King is at the edge of the board, on the 3 sides available.'"),
    ("tawlbwrdd-corner", {}, KING_PAIR_7, "attackers", ["f2-d2"], NOT_TAKEN,
     "seed 002: 'opposing pieces must surround him on all four sides'"),
    ("tawlbwrdd-corner", {}, SANDWICH_7.format(e2="."), "defenders", ["c5-c2"], ("captures", []),
     "seed 002: 'A piece can safely move to a square between two of the opponent's pieces'"),
    ("tawlbwrdd-corner", {}, ESCAPE_7, "defenders", ["c2-a2"], ("outcome", None),
     "seed 002: the king must reach 'a corner square of the board'"),
    # seed 004: tafl-granquist
    ("tafl-granquist", {"tuichi": "announce"}, REENTER_7, "defenders", ["d4-d5", "a6-a7", "d5-d4"], ("illegal", THRONE),
     "seed 004: 'Once the King has left the center square he can not re-enter it'"),
    ("tafl-granquist", {}, THRONE_7, "attackers", ["a4-f4"], ("illegal", THRONE),
     "seed 004: 'Reds ... may not pass over any other piece or Konakis.'"),
    ("tafl-granquist", {"konakis_pass": "all"}, THRONE_7, "attackers", ["a4-f4"], ("captures", []),
     "seed 004: 'Any piece may pass over the central square but may not land on it.'"),
    ("tafl-granquist", {}, KING_HAMMER_7, "defenders", ["f2-d2"], ("captures", []),
     "seed 004: 'The King can't participate in a capture.'"),
    ("tafl-granquist", {}, SANDWICH_7.format(e2="."), "defenders", ["c5-c2"], ("illegal", SANDWICH),
     "seed 004: 'A piece may not move into jeopardy except to take another piece.'"),
    ("tafl-granquist", {}, SANDWICH_7.format(e2="T"), "defenders", ["c5-c2"], ("captures", ["d2"]),
     "seed 004: '... except to take another piece.'"),
    ("tafl-granquist", {"sandwich": "safe"}, SANDWICH_7.format(e2="."), "defenders", ["c5-c2"],
     ("captures", []), "seed 004: 'One variation ... allows a piece to move into position with two opponents'"),
    ("tafl-granquist", {}, TUICHI_7.format(a1=".", c1="."), "defenders", ["e5-c5"],
     ("outcome", ("defenders", "tuichi")), "seed 004: '\"Tuichi,\" and wins the game'"),
    ("tafl-granquist", {"tuichi": "announce"}, CAMP_7, "attackers", ["d2-d3", "g6-g5", "d3-d2"], ("illegal", CAMP),
     "seed 004: 'Once a Red has moved out of the Red Camp he may not re-enter it.'"),
    ("tafl-granquist", {}, CAMP_7, "attackers", ["d2-d3", "a2-d2"], ("illegal", CAMP),
     "seed 004: 'Blue pieces can pass over but may not land on Red Camp Squares.'"),
    ("tafl-granquist", {}, CAMP_7, "attackers", ["d2-d3", "a2-g2"], ("captures", []),
     "seed 004: 'Blue pieces can pass over ... Red Camp Squares.'"),
    ("tafl-granquist", {}, KING_BESIDE_THRONE_7, "attackers", ["d7-d6"], TAKEN,
     "seed 004: 'by three if against the center square'"),
    ("tafl-granquist", {"tuichi": "announce"}, KING_BESIDE_CAMP_9, "attackers", ["e2-a2", "h7-h6", "i4-e4"], TAKEN,
     "seed 004: '... or against a Red Camp Square.'"),
    # (seed 004's "... but not against the edge of the board" cannot be played under Granquist's own
    # rules: there a king on an edge square that is not a camp has escaped; test_king_against_the_edge
    # holds that reading)
    ("tafl-granquist", {"tuichi": "announce"}, CAMP_HOSTILE_TO_DEFENDERS_9, "attackers", ["e2-e4", "i2-i3", "a2-c2"],
     ("captures", ["d2"]), "seed 004: 'A Blue piece can be captured against a Red Camp Square.'"),
    # seed 000 (Jones): hywel-dda-jones
    ("hywel-dda-jones", {}, KING_PAIR_7, "attackers", ["f2-d2"], NOT_TAKEN,
     "seed 000: 'only the king must be enclosed' - 'enclosed by four of the opponent's men'"),
    ("hywel-dda-jones", {}, KING_FOUR_7, "attackers", ["a1-c1"], TAKEN,
     "seed 000: 'the king must be enclosed by four of the opponent's men'"),
    ("hywel-dda-jones", {}, KING_HAMMER_7, "defenders", ["f2-d2"], ("captures", []),
     "seed 000: 'the king cannot participate in captures'"),
    ("hywel-dda-jones", {"confinement": "side"}, KING_ALONE_7, "attackers", ["a1-c1"],
     ("outcome", ("attackers", "no-moves")),
     "seed 000: 'whether the player must have no legal move with any piece' (the other reading)"),
    # Smith 1811: tablut-smith
    ("tablut-smith", {}, KING_PAIR_7, "attackers", ["f2-d2"], NOT_TAKEN,
     "Smith law 9: '... he is killed and taken off, except the king, who is not liable to this misfortune.'"),
    ("tablut-smith", {}, KING_ON_THRONE_7.format(d5="t"), "attackers", ["d1-d3"], TAKEN,
     "Smith law 10: 'If four of the enemy gain possession of the four squares marked 2 ...'"),
    ("tablut-smith", {}, KING_ON_THRONE_7.format(d5="."), "attackers", ["d1-d3"], NOT_TAKEN,
     "Smith law 10: '... he may move away by the fourth.'"),
    ("tablut-smith", {}, KING_BESIDE_THRONE_7, "attackers", ["d7-d6"], TAKEN,
     "Smith law 11: 'If the king be in 2, with an enemy in each of the adjoining squares, a, A and 3'"),
    ("tablut-smith", {"throne": "hostile-always"},
     THRONE_HOSTILE_TO_DEFENDERS_7.replace("4 . . . + T", "4 . . . K T").replace("2 . K", "2 . ."), "attackers",
     ["f6-f4"], ("captures", ["e4"]),
     "Smith law 10: 'the soldier thus enclosed between his king and the enemy is killed.'"),
    # modern standard: copenhagen
    ("copenhagen", {}, SHIELDWALL_7, "attackers", ["e4-e1"], ("captures", ["c1", "d1"]),
     "modern standard (Copenhagen): the shield-wall capture"),
    ("copenhagen", {}, EDGE_FORT_SMALL_7, "defenders", ["c5-c2"], ("outcome", ("defenders", "edge-fort")),
     "modern standard (Copenhagen): the edge fort"),
    ("copenhagen", {}, ENCIRCLED_7.format(g7="."), "attackers", ["d1-d2"],
     ("outcome", ("attackers", "encirclement")), "modern standard (Copenhagen): encirclement"),
    ("copenhagen", {}, THRONE_HOSTILE_TO_DEFENDERS_7, "attackers", ["f6-f4"], ("captures", ["e4"]),
     "modern standard (Copenhagen): the throne is hostile to the defenders when empty"),
    ("copenhagen", {}, THRONE_HOSTILE_TO_DEFENDERS_7.replace("4 . . . + T", "4 . . . K T").replace("2 . K", "2 . ."),
     "attackers", ["f6-f4"], ("captures", []),
     "modern standard (Copenhagen): the throne is hostile to the defenders only when it is empty"),
    ("copenhagen", {}, KING_BESIDE_THRONE_7, "attackers", ["d7-d6"], TAKEN,
     "modern standard (Copenhagen): three sides and the throne"),
    ("copenhagen", {}, KING_EDGE_7, "attackers", ["c3-c2"], NOT_TAKEN,
     "modern standard (Copenhagen): the king cannot be captured on the board edge"),
    # Linnaeus as read today: tablut-linnaeus
    ("tablut-linnaeus", {}, KING_PAIR_7, "attackers", ["f2-d2"], TAKEN,
     "Linnaeus law 9 '... item Rex' (second-hand): the king too is taken between two away from the castle"),
    ("tablut-linnaeus", {}, KING_BESIDE_THRONE_7, "attackers", ["d7-d6"], TAKEN,
     "Linnaeus law 11 (Smith: 'If the king be in 2, with an enemy in each of the adjoining squares')"),
    ("tablut-linnaeus", {}, REENTER_7, "defenders", ["d4-d5", "a6-a7", "d5-d4"], ("illegal", THRONE),
     "seed 001: 'this also suggests that a king can not re-enter the throne or konakis once it has left.'"),
]


@pytest.mark.parametrize("variant_id,toggles,diagram,turn,moves,expected,citation", SEED_CASES,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(SEED_CASES)])
def test_seed_rule_sets(variant_id, toggles, diagram, turn, moves, expected, citation):
    """Each seed's sentence, played under the catalogue variant built from that seed (size and start taken
    from the diagram): a cross-check of the catalogue's data against the rule text."""
    g = variant_game(variant_id, diagram, turn, toggles)
    for move in moves[:-1]:
        g.play(move)
    what, value = expected
    if what == "illegal":
        with pytest.raises(IllegalMove, match=value):
            g.play(moves[-1])
        return
    move = g.play(moves[-1])
    if what == "captures":
        assert caps(move) == value, citation
    else:
        assert outcome_of(g) == value, citation


def test_seed_first_moves():
    """seed 003 rule 3: 'The attackers make the first move.' seed 004: 'The opening move goes to Blue.'"""
    assert tafl_rules.Game(tafl_rules.variant("tawlbwrdd-cyningstan").rules).turn == "attackers"
    assert tafl_rules.Game(tafl_rules.variant("tafl-granquist").rules).turn == "defenders"
    assert tafl_rules.Game(tafl_rules.variant("hywel-dda-jones").rules).turn == "attackers"


# ==========================================================================
# 20. every rule point has a scenario
# ==========================================================================

BOOLEAN_FIELDS = ("throne", "king_reenter_throne", "corners", "camps", "watch_king", "edge_fort", "encirclement")


def test_every_field_and_value_has_a_scenario():
    """The brief: 'a scenario test for every rule point and every value'."""
    missing = [name for name in FIELDS
               if name not in COVERED and not any(point.startswith(name + "=") for point in COVERED)]
    missing += [f"{name}={value}" for name, values in CHOICES.items() for value in values
                if f"{name}={value}" not in COVERED]
    missing += [f"{name}={value}" for name in BOOLEAN_FIELDS for value in (True, False)
                if f"{name}={value}" not in COVERED]
    assert missing == []
