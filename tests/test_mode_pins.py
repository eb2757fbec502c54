"""The rule modes' own code, pinned where the rest of the suite only samples it.

Two kinds of test, both asked for by the mutation run of ``tafl_rules.modes``
(``tests/mutation/report.md``):

- **Words and outcomes, whole.** The endings' outcomes (repetition, no move, tuichi, ap Ifan's
  warning) and the modes' refusals are compared with the exact words a player reads, so a
  changed count, side or phrase fails.
- **Pins of what no reference states.** The AI's estimates (can the king be taken next move, how
  much pressure the attackers put on him, which squares guard and seal a corner) and the edge
  fort, encirclement and shield-wall judgements, computed over seeded placements of every
  catalogue variant, are compared with the values recorded in ``tests/data/mode-pins.json``.
  These are characterisation tests: the estimates are heuristics with no right answer beyond
  the property ``test_modes.py`` checks (never "no" where the engine says "yes"), and the
  endings were checked against OpenTafl by the engine review. What the pins catch is a change
  nobody meant. A change meant on purpose records the pins again with
  ``python tests/test_mode_pins.py --write`` and says why in its commit.

The modes' methods are called directly and the evaluator is built afresh (``Evaluator``, not the
cached ``evaluator``), so that what is measured is the code as it runs now.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import tafl_rules
from tafl_rules import Rules
from tafl_rules.ai.evaluate import Evaluator
from tafl_rules.engine.state import Position
from tafl_rules.engine.tables import tables
from tafl_rules.modes import (ESCAPE, KING_CAPTURE, NO_MOVES, REPETITION, SHIELDWALL, TUICHI, WATCH_KING, Hostility,
                              KingArmed, Mode, NoMoves, RulePoint, Sandwich, mode)
from tafl_rules.modes.endings import EDGE_FORT, ENCIRCLEMENT, edge_fort, encircled
from tafl_rules.outcome import Termination
from tafl_rules.pieces import ATTACKERS, DEFENDERS
from tafl_rules.squares import square_index

PINS = Path(__file__).parent / "data" / "mode-pins.json"


# --------------------------------------------------------------------------- words and outcomes

def said(outcome):
    return None if outcome is None else (outcome.winner, str(outcome.reason), outcome.kind)


@pytest.mark.parametrize("value, mover, count, expected", [
    ("draw", ATTACKERS, 2, (None, "twofold repetition")),
    ("draw", DEFENDERS, 3, (None, "threefold repetition")),
    ("draw", ATTACKERS, 4, (None, "fourfold repetition")),
    ("draw", DEFENDERS, 5, (None, "fivefold repetition")),
    ("draw", ATTACKERS, 6, (None, "6-fold repetition")),
    ("loss", ATTACKERS, 3, ("defenders", "threefold repetition by the attackers")),
    ("loss", DEFENDERS, 2, ("attackers", "twofold repetition by the defenders")),
    ("loss", DEFENDERS, 7, ("attackers", "7-fold repetition by the defenders")),
    ("defenders-lose", DEFENDERS, 3, ("attackers", "threefold repetition by the defenders")),
    ("defenders-lose", ATTACKERS, 4, ("attackers", "fourfold repetition (a loss for the defenders)")),
])
def test_a_repetition_ends_with_its_count_and_the_side_that_lost(value, mover, count, expected):
    assert said(REPETITION[value].outcome(mover, count)) == (*expected, Termination.REPETITION)


def test_repeated_positions_ignored_end_nothing():
    assert REPETITION["ignore"].outcome(ATTACKERS, 3) is None and not REPETITION["ignore"].ends
    assert all(REPETITION[v].ends for v in ("draw", "loss", "defenders-lose"))


def test_a_side_without_a_move_loses_or_draws_as_the_rules_say():
    assert said(NO_MOVES["loss"].outcome(ATTACKERS)) == ("defenders", "attackers have no legal move", Termination.NO_MOVES)
    assert said(NO_MOVES["loss"].outcome(DEFENDERS)) == ("attackers", "defenders have no legal move", Termination.NO_MOVES)
    assert said(NO_MOVES["draw"].outcome(DEFENDERS)) == (None, "defenders have no legal move", Termination.NO_MOVES)
    assert said(NO_MOVES["draw"].outcome(ATTACKERS)) == (None, "attackers have no legal move", Termination.NO_MOVES)


@pytest.mark.parametrize("field, value, rules, expected", [
    ("king_capture", "linnaeus", {"throne": False},
     ("king_capture", "the linnaeus capture is defined around the throne; it needs throne = true")),
    ("king_capture", "linnaeus", {"throne": True}, None),
    ("king_capture", "none", {"no_moves": "draw"},
     ("no_moves", "with king_capture = none the attackers can only win by leaving the defenders without a move, "
                  "so no_moves must be loss")),
    ("king_capture", "none", {"no_moves": "loss"}, None),
    ("escape", "corner", {"corners": False, "corner_stop": "king"}, ("escape", "corner escape needs corners = true")),
    ("escape", "corner", {"corners": True, "corner_stop": "none"},
     ("corner_stop", "the king must be allowed to stop on a corner when he escapes there")),
    ("escape", "corner", {"corners": True, "corner_stop": "king"}, None),
    ("escape", "edge-except-camps", {"camps": False}, ("escape", "edge-except-camps needs camps = true")),
    ("escape", "edge-except-camps", {"camps": True}, None),
    ("edge_fort", True, {"escape": "edge"},
     ("edge_fort", "an edge fort is pointless when reaching the edge already wins")),
    ("edge_fort", True, {"escape": "corner"}, None),
])
def test_a_mode_names_the_field_and_the_reason_it_cannot_be_played(field, value, rules, expected):
    assert mode(field, value).check(SimpleNamespace(**rules)) == expected


def test_modes_configured_by_keyword_keep_what_they_were_given():
    armed = KingArmed("x", anvil=True, hammer=False, otn="q", short="s", sentence="t", taking="u")
    assert vars(armed) == dict(value="x", anvil=True, hammer=False, otn="q", short="s", sentence="t", taking="u")
    assert vars(KingArmed("y", anvil=False, hammer=True, otn="r", short="", sentence="", taking="")) == dict(
        value="y", anvil=False, hammer=True, otn="r", short="", sentence="", taking="")
    assert vars(Hostility("h", when_empty=True, when_occupied=False, short="w")) == dict(
        value="h", when_empty=True, when_occupied=False, short="w", sentence="w")
    assert vars(Hostility("i", when_empty=False, when_occupied=True, short="v"))["when_occupied"] is True
    assert vars(Sandwich("s", filters=True, capturing_allowed=False, refusal="r {square}", short="o",
                         sentence="p")) == dict(value="s", filters=True, capturing_allowed=False,
                                                refusal="r {square}", short="o", sentence="p")
    assert vars(Sandwich("t", filters=False, capturing_allowed=True, refusal="", short="", sentence=""))[
        "capturing_allowed"] is True
    assert vars(NoMoves("n", stuck_loses=True, short="a", sentence="b", phrase="c {side}")) == dict(
        value="n", stuck_loses=True, short="a", sentence="b", phrase="c {side}")
    assert NoMoves("m", stuck_loses=False, short="", sentence="", phrase="").stuck_loses is False


def test_a_rule_point_keeps_its_modes_in_order_and_names_what_it_lacks():
    first, second = Hostility("one", when_empty=False, when_occupied=False, short=""), \
        Hostility("two", when_empty=True, when_occupied=True, short="")
    point = RulePoint("field", (first, second))
    assert point.field == "field" and point.names() == ("one", "two") and list(point) == [first, second]
    assert point["two"] is second and "one" in point and "three" not in point and [] not in point
    assert repr(point) == "RulePoint('field', 'one', 'two')"
    assert repr(first) == "<Hostility 'one'>" and repr(REPETITION["draw"]) == "<_RepetitionDraws 'draw'>"
    for missing in ("three", []):
        with pytest.raises(KeyError) as error:
            point[missing]
        assert error.value.args == (f"field has no mode {missing!r}",)
    with pytest.raises(ValueError, match="^field already has a mode 'one'$"):
        point.add(Hostility("one", when_empty=False, when_occupied=False, short=""))
    point.remove("one")
    assert point.names() == ("two",)
    assert mode("escape", "edge") is ESCAPE["edge"] and mode("tuichi", "win") is TUICHI["win"]
    with pytest.raises(KeyError):
        mode("escape", "nowhere")


def test_only_the_endings_that_judge_are_asked():
    assert [m.ends for m in (*TUICHI, *EDGE_FORT, *ENCIRCLEMENT)] == [False, True, False, True, False, True]
    assert [m.after for m in ENCIRCLEMENT] == [ATTACKERS, ATTACKERS] and EDGE_FORT[True].after == DEFENDERS


# a 7x7 board with edge escape, and one with corner escape
EDGE_RULES = tafl_rules.variant("brandubh").rules.replace(escape="edge", corners=False, corner_stop=frozenset(),
                                                            throne_hostile_to_attackers="never",
                                                            corners_hostile_to_attackers="never",
                                                            corners_hostile_to_defenders="never")
CORNER_RULES = tafl_rules.variant("brandubh").rules


def square(name: str, size: int = 7) -> int:
    return square_index(name, size)


def test_tuichi_names_every_open_road_and_is_won_by_the_defenders():
    win = TUICHI["win"]
    # the king on c3 of an empty 7x7 board: roads to a3, c1, c7 and g3
    pos = Position(EDGE_RULES, 0, 0, square("c3"), ATTACKERS)
    assert said(win.judge(pos)) == ("defenders", "tuichi: the king has open roads to c1, a3, g3 and c7", Termination.TUICHI)
    # two roads shut: two left
    pos = Position(EDGE_RULES, 1 << square("b3") | 1 << square("c2"), 0, square("c3"), ATTACKERS)
    assert said(win.judge(pos)) == ("defenders", "tuichi: the king has open roads to g3 and c7", Termination.TUICHI)
    pos = Position(EDGE_RULES, 1 << square("b3") | 1 << square("c2") | 1 << square("c6"), 0, square("c3"), ATTACKERS)
    assert win.judge(pos) is None  # one road only
    assert win.judge(Position(EDGE_RULES, 1 << square("b3"), 0, -1, ATTACKERS)) is None  # no king
    # on a1 (square 0) of a board that escapes at the corners: roads to a7 and g1
    pos = Position(CORNER_RULES, 0, 0, 0, ATTACKERS)
    assert said(win.judge(pos)) == ("defenders", "tuichi: the king has open roads to g1 and a7", Termination.TUICHI)
    assert TUICHI["announce"].judge(pos) is None


WARNED_RULES = tafl_rules.variant("lewis-1", watch_king="on").rules


@pytest.mark.parametrize("attackers, defenders, king, move, closing, taken", [
    # between d6 and f6 after his own move e5-e6, shut in by a5-e5
    ("d6 f6 a5", "e4 e7", "e5", "e5-e6", "a5-e5", True),
    # between e5 and e7 on the file after d6-e6, shut in by a6-d6
    ("e5 e7 a6", "f6", "d6", "d6-e6", "a6-d6", True),
    # between two attackers but free to go back: not taken
    ("d6 f6 k1", "e4 e7", "e5", "e5-e6", "k1-k2", False),
    # shut in, but an attacker and a defender on each line: not between two
    ("d6 a5", "e7 f6", "e3", "e3-e6", "a5-e5", False),
    # between two and shut in, but his side's last move was another man's
    ("d6 f6 a5", "e7 c1", "e6", "c1-c2", "a5-e5", False),
    # on the a-file: k5 (the last square of the rank below) does not flank a6
    ("k5 b6 c5", "a7", "a5", "a5-a6", "c5-a5", False),
    # on the k-file: a7 (the first square of the rank above) does not flank k6
    ("j6 a7 i5", "k7", "k5", "k5-k6", "i5-k5", False),
    # on the first rank: nothing below b1 flanks him
    ("c2 k3", "", "b3", "b3-b1", "k3-k4", False),
    # one file from each side edge, and one rank from the top and the bottom: flanked there too
    ("a6 c6 d5", "b7", "b5", "b5-b6", "d5-b5", True),
    ("i6 k6 h5", "j7", "j5", "j5-j6", "h5-j5", True),
    ("e1 e3 a2", "f2", "d2", "d2-e2", "a2-d2", True),
    ("e9 e11 a10", "f10", "d10", "d10-e10", "a10-d10", True),
    # shut in with an attacker on one side of him only, on the rank and on the file
    ("f6 a5", "d6 e7", "e5", "e5-e6", "a5-e5", False),
    ("e7 a6", "e5 f6", "d6", "d6-e6", "a6-d6", False),
])
def test_ap_ifans_warning_takes_a_king_shut_in_where_he_moved_between_two(attackers, defenders, king, move,
                                                                         closing, taken):
    size = WARNED_RULES.size
    a = sum(1 << square(s, size) for s in attackers.split())
    d = sum(1 << square(s, size) for s in defenders.split())
    pos = Position(WARNED_RULES, a, d, square(king, size), DEFENDERS)
    for played in (move, closing):
        frm, to = (square(s, size) for s in played.split("-"))
        assert any(m >> 11 == frm and m >> 2 & 511 == to for m in pos.moves()), played
        pos.make(frm, to, pos.kind_at(frm))
    where = move.split("-")[1]
    # a king the warning took is gone from the board (pos.k is -1), and the outcome gives why
    reason = WATCH_KING[True].taken(pos) if pos.k >= 0 else str(pos.outcome.reason)
    assert reason == (f"king taken on {where}: he moved between two attackers and cannot get out" if taken else None)
    assert WATCH_KING[False].taken(pos) is None


# --------------------------------------------------------------------------- pins

def _placements(rules, rng: random.Random, count: int):
    """Seeded placements, in turn: a few men anywhere; crowds around the king; the king on the
    edge among his men, sometimes with a run of them along the edge (where the edge fort is
    judged); his men and he inside a ring of attackers, whole or with a gap (encirclement); a row
    of men along an edge, fronted and bracketed or not (the shield wall); a crowd of attackers
    around a king on or beside the edge (ap Ifan's warning at the board's end)."""
    size = rules.size
    n = size * size
    edge = [s for s in range(n) if s // size in (0, size - 1) or s % size in (0, size - 1)]
    rim = [s for s in range(n) if min(s // size, s % size, size - 1 - s // size, size - 1 - s % size) <= 1]
    for number in range(count):
        kind = number % 6
        if kind in (3, 4):
            yield (_ring if kind == 3 else _wall)(size, rng) + (number % 2,)
            continue
        king = rng.choice(edge) if kind == 2 else rng.choice(rim) if kind == 5 else rng.randrange(n)
        r, f = divmod(king, size)
        near = [rr * size + ff for rr in range(max(0, r - 2), min(size, r + 3))
                for ff in range(max(0, f - 2), min(size, f + 3)) if rr * size + ff != king]
        a = d = 0
        if kind == 0:
            for s in rng.sample(range(n), rng.randrange(2, 14)):
                if s != king:
                    a, d = (a | 1 << s, d) if rng.random() < 0.6 else (a, d | 1 << s)
        elif kind in (1, 5):
            share = 0.65 if kind == 1 else 0.8
            for s in near:
                if rng.random() < 0.5:
                    a, d = (a | 1 << s, d) if rng.random() < share else (a, d | 1 << s)
        else:
            for s in near:
                if rng.random() < 0.55:
                    d |= 1 << s
            if rng.random() < 0.5:  # a run of his men along the edge from him
                step = 1 if r in (0, size - 1) else size
                for direction in (step, -step):
                    s = king + direction
                    for _ in range(rng.randrange(0, 5)):
                        if 0 <= s < n and s in edge and abs(s % size - f) <= 4:
                            d |= 1 << s
                        s += direction
            for s in rng.sample(range(n), rng.randrange(0, 6)):
                if s != king and not (d >> s & 1) and s not in near[:3]:
                    a |= 1 << s
        yield a, d, king, number % 2


def _ring(size: int, rng: random.Random) -> tuple[int, int, int]:
    top, left = rng.randrange(1, size - 2), rng.randrange(1, size - 2)
    bottom, right = rng.randrange(top, min(size - 1, top + 3)), rng.randrange(left, min(size - 1, left + 3))
    inside = [r * size + f for r in range(top, bottom + 1) for f in range(left, right + 1)]
    ring = [r * size + f for r in range(top - 1, bottom + 2) for f in range(left - 1, right + 2)
            if (r * size + f) not in inside and (top <= r <= bottom or left <= f <= right)]
    if rng.random() < 0.3:
        ring.remove(rng.choice(ring))
    king = rng.choice(inside)
    d = sum(1 << s for s in inside if s != king and rng.random() < 0.5)
    return sum(1 << s for s in ring), d, king


def _wall(size: int, rng: random.Random) -> tuple[int, int, int]:
    """A row of men along an edge (sometimes from the corner itself, sometimes two rows either side
    of one square, where the mover arrives between them), fronted and bracketed or not."""
    edge = rng.randrange(4)

    def at(along: int, depth: int) -> int:
        return [depth * size + along, (size - 1 - depth) * size + along, along * size + depth,
                along * size + size - 1 - depth][edge]

    length = rng.randrange(2, 5)
    first = 0 if rng.random() < 0.2 else rng.randrange(1, size - 1 - length)
    spots = list(range(first, first + length))
    gap = None
    if rng.random() < 0.3 and first + 2 * length + 1 < size:
        gap = first + length
        spots += range(gap + 1, gap + 1 + length)
    row = [at(p, 0) for p in spots]
    fronts = [at(p, 1) for p in spots if rng.random() < 0.85]
    ends = [at(p, 0) for p in (spots[0] - 1, spots[-1] + 1) if 0 <= p < size and rng.random() < 0.8]
    if gap is not None:
        ends.append(at(gap, 0))
    men, others = sum(1 << s for s in row), sum(1 << s for s in fronts + ends)
    king = rng.choice(row) if rng.random() < 0.3 else rng.choice([s for s in range(size * size)
                                                                   if not (men | others) >> s & 1])
    men &= ~(1 << king)
    return (men, others, king) if rng.random() < 0.5 else (others, men, king)


def _forts(size: int, rng: random.Random, count: int) -> list[tuple[int, int, int, int]]:
    """The king on an edge square with his men around him in the three ranks nearest that edge,
    and a few attackers: forts whole and broken, with runs of men along the edge."""
    out = []
    for number in range(count):
        edge = number % 4
        along = rng.randrange(size)

        def at(x: int, depth: int) -> int:
            return [depth * size + x, (size - 1 - depth) * size + x, x * size + depth, x * size + size - 1 - depth][edge]

        king = at(along, 0)
        a = d = 0
        for depth in range(3):
            for x in range(max(0, along - 4), min(size, along + 5)):
                s = at(x, depth)
                if s == king:
                    continue
                roll = rng.random()
                if roll < 0.5 - 0.1 * depth:
                    d |= 1 << s
                elif roll > 0.93 - 0.05 * depth:
                    a |= 1 << s
        out.append((a, d, king, number % 2))
    return out


def _rule_sets() -> dict[str, tuple[Rules, int]]:
    """The rules pinned, by name, each with its number of placements: every catalogue variant as
    catalogued, every other reading of each of its toggles, and three rule sets no reading names
    (the king taken by four against every kind of square with shield walls; Copenhagen with the
    corners and the edge standing in and men allowed on the corners; Granquist's camps on the
    edge with shield walls)."""
    out = {v.id: (v.rules, 400) for v in tafl_rules.variants()}
    for v in tafl_rules.variants():
        for name, toggle in v.toggles.items():
            for value in toggle.readings:
                if value != toggle.default:
                    out[f"{v.id} {name}={value}"] = (tafl_rules.variant(v.id, **{name: value}).rules, 60)
    brandubh, copenhagen = tafl_rules.variant("brandubh").rules, tafl_rules.variant("copenhagen").rules
    out["four against all, shield walls"] = (brandubh.replace(
        king_capture="four", king_capture_against=frozenset({"throne", "corner", "camp", "edge"}), camps=True,
        shieldwall="copenhagen"), 400)
    out["copenhagen against corners and edge"] = (copenhagen.replace(
        king_capture_against=frozenset({"throne", "corner", "edge"}), corner_stop=frozenset({"king", "defender", "attacker"})), 400)
    out["granquist with shield walls"] = (tafl_rules.variant("tafl-granquist").rules.replace(shieldwall="copenhagen"), 400)
    return out


RULE_SETS = _rule_sets()


def _values(name: str) -> dict[str, list]:
    """Everything pinned for one rule set, by what computed it."""
    rules, count = RULE_SETS[name]
    t = tables(rules)
    g = t.g
    ev = Evaluator(rules)
    size = rules.size
    out: dict[str, list] = {name: [] for name in ("escape", "exposed", "pressure", "warning", "taken", "endings",
                                                  "shieldwall")}
    for m in ESCAPE:
        out["escape"].append((m.value, m.squares(g, t.camps), m.guards(g), m.seals(g)))
    wall = SHIELDWALL["copenhagen"]
    placements = list(_placements(rules, random.Random(name), count))
    if t.takes_rows:  # where shield walls can break an edge fort: forts of every shape
        placements += _forts(size, random.Random(name + " forts"), 600)
    for a, d, k, side in placements:
        pos = Position(rules, a, d, k, side)
        kt = pos.king_targets()
        occ = a | d | 1 << k
        out["exposed"].append([m.exposed(ev, a, d, k, kt) for m in KING_CAPTURE])
        out["pressure"].append([round(m.pressure(ev, a, d, k, kt), 6) for m in KING_CAPTURE])
        out["warning"].append([m.exposed(ev, a, d, k, kt) for m in WATCH_KING])
        out["taken"].append([[m.taken(pos, to, occ) for m in KING_CAPTURE if m.takeable]
                             for to in g.neighbours[k] if a >> to & 1])
        out["endings"].append((edge_fort(pos), encircled(pos), said(TUICHI["win"].judge(pos)),
                               said(EDGE_FORT[True].judge(pos)), said(ENCIRCLEMENT[True].judge(pos))))
        for to in (s for s in range(size * size) if g.edge >> s & 1):
            if a >> to & 1:
                out["shieldwall"].append((to, wall.captures(t, k, to, ATTACKERS, a, d, occ)))
            elif d >> to & 1:
                out["shieldwall"].append((to, wall.captures(t, k, to, DEFENDERS, d | 1 << k, a, occ)))
    return out


def _pins(name: str) -> dict[str, str]:
    return {what: hashlib.sha256(json.dumps(values, default=str).encode()).hexdigest()[:16]
            for what, values in _values(name).items()}


@pytest.mark.parametrize("name", RULE_SETS)
def test_the_estimates_and_endings_are_what_they_were_pinned_to(name):
    assert _pins(name) == json.loads(PINS.read_text())[name]


def test_every_rule_set_is_pinned():
    assert sorted(json.loads(PINS.read_text())) == sorted(RULE_SETS)


def test_the_pins_see_each_outcome_they_pin():
    # the placements reach every answer at least once over the catalogue, so a pin is not of one constant value
    seen = {"fort": 0, "encircled": 0, "tuichi": 0, "exposed": 0, "not exposed": 0, "taken": 0, "wall": 0, "warned": 0}
    for vid in ("copenhagen", "brandubh", "lewis-1", "tablut-linnaeus"):
        values = _values(vid)
        for fort, ring, tuichi, _, _ in values["endings"]:
            seen["fort"] += fort
            seen["encircled"] += ring
            seen["tuichi"] += tuichi is not None
        for row in values["exposed"]:
            seen["exposed"] += sum(row)
            seen["not exposed"] += len(row) - sum(row)
        seen["taken"] += sum(1 for row in values["taken"] for takes in row for t in takes if t)
        seen["wall"] += sum(1 for _, caps in values["shieldwall"] if caps)
        seen["warned"] += sum(row[1] for row in values["warning"])
    assert all(count >= 3 for count in seen.values()), seen


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    PINS.write_text(json.dumps({name: _pins(name) for name in RULE_SETS}, indent=1, sort_keys=True) + "\n")
    print(PINS)


# --------------------------------------------------------------------------- corners of the estimate

def squares_of(names: str, size: int) -> int:
    return sum(1 << square(s, size) for s in names.split())


@pytest.mark.parametrize("size, guards, seals", [
    (7, "a2 b1 b2 a6 b7 b6 f1 g2 f2 g6 f7 f6", ["a3 b2 c1", "e1 f2 g3", "a5 b6 c7", "e7 f6 g5"]),
    (5, "a2 b1 b2 a4 b5 b4 d1 e2 d2 e4 d5 d4", ["a3 b2 c1", "c1 d2 e3", "a3 b4 c5", "c5 d4 e3"]),
])
def test_the_squares_that_guard_and_seal_each_corner(size, guards, seals):
    from tafl_rules.squares import geometry

    g = geometry(size)
    corner = ESCAPE["corner"]
    assert corner.guards(g) == squares_of(guards, size)
    assert sorted(corner.seals(g)) == sorted(squares_of(s, size) for s in seals)
    assert corner.squares(g, 0) == squares_of(" ".join(f"{f}{r}" for f in "a" + "abcdefg"[size - 1]
                                                        for r in (1, size)), size)
    assert ESCAPE["edge"].guards(g) == ESCAPE["none"].guards(g) == 0 and ESCAPE["edge"].seals(g) == ()


def test_no_corner_of_a_four_square_board_can_be_sealed():
    from tafl_rules.squares import geometry

    assert ESCAPE["corner"].seals(geometry(4)) == ()


def test_the_linnaeus_estimate_looks_past_no_king():
    # the king on d3 beside the empty throne d4, attackers on c3 and e3: d2 is his one open side,
    # and the attacker on d6 cannot reach it through him
    rules = tafl_rules.variant("brandubh").rules
    ev = Evaluator(rules)
    a = squares_of("c3 e3 d6", 7)
    pos = Position(rules, a, 0, square("d3", 7), ATTACKERS)
    assert KING_CAPTURE["linnaeus"].exposed(ev, a, 0, pos.k, pos.king_targets()) is False
    a |= squares_of("a2", 7)  # one that can
    assert KING_CAPTURE["linnaeus"].exposed(ev, a, 0, pos.k, pos.king_targets()) is True


def test_the_estimate_sees_an_attacker_close_a_camp_from_within_it():
    # Granquist: camps are sides against the king, and attackers may not stop on a camp square once
    # outside; the king on b4 between the camp squares a4 and b5 and attackers on c4 and b3 is
    # taken by an attacker stepping to a4 from within its camp (a6, past the empty a5)
    rules = tafl_rules.variant("tafl-granquist").rules
    ev = Evaluator(rules)
    k = square("b4", 9)
    a = squares_of("c4 b3", 9)
    assert KING_CAPTURE["four"].exposed(ev, a, 0, k, 0) is False
    assert KING_CAPTURE["four"].exposed(ev, a | squares_of("a6", 9), 0, k, 0) is True
    assert KING_CAPTURE["four"].exposed(ev, a | squares_of("h4", 9), 0, k, 0) is False  # outside the camps


def test_where_the_king_is_in_jeopardy_between_two_attackers():
    from tafl_rules.squares import geometry

    g = geometry(7)
    assert KING_CAPTURE["two"].jeopardy(g) == g.full
    # by Linnaeus's rule two take him only away from the throne and the squares beside it
    assert KING_CAPTURE["linnaeus"].jeopardy(g) == g.full & ~squares_of("d4 c4 e4 d3 d5", 7)
    assert [KING_CAPTURE[m].jeopardy(g) for m in ("four", "immobile", "none")] == [0, 0, 0]


def test_rules_without_shield_walls_take_no_row():
    t = tables(tafl_rules.variant("brandubh").rules)
    a, d = squares_of("b1 c1", 7), squares_of("b2 c2 a1 d1", 7)
    assert SHIELDWALL["none"].captures(t, square("d4", 7), square("d1", 7), DEFENDERS, d, a, a | d) == 0
    assert not SHIELDWALL["none"].takes_rows and SHIELDWALL["copenhagen"].takes_rows


def test_the_warnings_estimate_does_not_wrap_round_the_board():
    # the king on k6 (the last file) with attackers on j6 and on a7, the square after k6 in the
    # numbering: a7 does not flank him, so only an attacker opposite one could shut him in
    rules = tafl_rules.variant("lewis-1", watch_king="on").rules
    ev = Evaluator(rules)
    a, d = squares_of("j6 a7 h5", 11), squares_of("k7", 11)
    pos = Position(rules, a, d, square("k6", 11), ATTACKERS)
    assert WATCH_KING[True].exposed(ev, a, d, pos.k, pos.king_targets()) is False
    # with an attacker on k7 instead, one arriving on k5 would flank and shut him in
    a, d = a | squares_of("k7", 11), 0
    pos = Position(rules, a, d, square("k6", 11), ATTACKERS)
    assert WATCH_KING[True].exposed(ev, a, d, pos.k, pos.king_targets()) is True


def test_a_king_on_the_first_square_belongs_to_the_row_he_stands_in():
    # hand-made rules where the king may stand on the corner a1 without escaping: with his men on
    # b1 and c1 and all three fronted by attackers, the row runs on past a1 to the board's end and
    # nothing brackets it, so an attacker arriving on d1 takes nothing; with a1 unfronted, the
    # row stops at a1, a corner hostile to his men, and b1 and c1 are taken
    from tafl_rules import Game
    from tafl_rules.position import format_position

    rules = tafl_rules.variant("brandubh").rules.replace(escape="none", king_capture="four", shieldwall="copenhagen",
                                                         corners_hostile_to_defenders="always")
    for fronts, taken in (("a2 b2 c2", []), ("b2 c2", ["b1", "c1"])):
        a = squares_of(fronts + " d3 g5", 7)
        game = Game(rules, position=format_position(a, squares_of("b1 c1", 7), 0, 7), turn="attackers")
        assert game.play("d3-d1").captures == taken, fronts


def test_a_man_on_the_empty_hostile_throne_is_not_hostile_ground_while_he_stands_there():
    # hand-made rules: defenders may stop on the throne, which is hostile to them only while empty;
    # the fort of the king on f7 is held through the defender standing on the throne d4
    rules = tafl_rules.variant("brandubh").rules.replace(shieldwall="copenhagen", king_capture="four",
                                                         throne_stop=frozenset({"king", "defender"}),
                                                         throne_hostile_to_defenders="empty")
    defenders = squares_of("d4 c5 d5 a6 b6 e6 g6 c7 d7 e7 g7", 7)
    pos = Position(rules, squares_of("b7", 7), defenders, square("f7", 7), DEFENDERS)
    assert edge_fort(pos) is True
    assert edge_fort(Position(rules, squares_of("b7", 7), defenders & ~squares_of("d4", 7), square("f7", 7),
                              DEFENDERS)) is False
