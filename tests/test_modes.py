"""Rule modes (tafl_rules.modes): each mode of each rule point in one place.

- the ``Literal`` names that type the ``Rules`` fields are the modes' names, so ``mypy`` knows
  every mode and rejects a misspelt one (``tests/test_typing.py`` shows it);
- every mode has its words for readers and the site's rule tables show them;
- a new mode is one definition plus its reading in the catalogue: a way of taking the king
  defined here alone is played through the engine, the AI, OTN, the browser worker's API and
  the words of the site;
- the AI's quick estimate that the king can be taken next move never says "no" where the
  engine's exact test says "yes", over random positions of every variant and reading.
"""

from __future__ import annotations

import contextlib
import json
import random
import typing

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tafl_rules
from tafl_rules import PositionError, Game, Rules, RulesError, catalogue, otn, webapi
from tafl_rules.ai import analyse
from tafl_rules.ai.evaluate import Evaluator, evaluator
from tafl_rules.engine.endings import king_threatened
from tafl_rules.engine.state import Position
from tafl_rules.howto import how_to_play
from tafl_rules.modes import KING_CAPTURE, NAME_TYPES, POINTS, KingCapture
from tafl_rules.position import format_position
from tafl_rules.rules import CHOICES
from test_properties import rules_strategy

# --------------------------------------------------------------------------- one home, typed

def test_the_literal_names_are_the_modes_names():
    hints = typing.get_type_hints(Rules)
    for field, point in POINTS.items():
        if field in NAME_TYPES:
            assert typing.get_args(NAME_TYPES[field]) == point.names(), field
            assert hints[field] == NAME_TYPES[field], field
            assert CHOICES[field] == point.names()
        else:
            assert point.names() == (False, True) and hints[field] is bool, field


def test_every_mode_has_its_words_and_the_site_shows_them():
    from tafl_sphinx import words

    rules = Rules()
    for field, point in POINTS.items():
        for mode in point:
            assert mode.sentence, (field, mode)
            if field in NAME_TYPES:
                assert mode.short and words.short_value(field, mode.value) == mode.short, (field, mode)
            if "_hostile_" not in field:
                assert words.plain(field, mode.value, rules) == mode.sentence, (field, mode)


# --------------------------------------------------------------------------- a mode of the test's own

class TakenByThree(KingCapture):
    """The king is taken when attackers stand on three of his four sides (never between two alone)."""

    value = "three"
    short = "three sides"
    sentence = "The king is taken when attackers stand on three of his four sides."
    howto = "by standing attackers on three sides of the king"

    def taken(self, pos: Position, to: int, occ: int) -> str | None:
        g = pos.t.g
        around = [n for n in g.neighbours[pos.k] if pos.a >> n & 1]
        if len(around) >= 3:
            return f"king captured on {g.names[pos.k]} by {', '.join(g.names[n] for n in around)}"
        return None

    def exposed(self, ev: Evaluator, a: int, d: int, k: int, king_targets: int) -> bool:
        occ = a | d | 1 << k
        around = ev.neighbours[k]
        return sum(1 for x in around if a >> x & 1) >= 2 and any(
            not occ >> x & 1 and ev.reaches(x, a, occ) for x in around)

    def pressure(self, ev: Evaluator, a: int, d: int, k: int, king_targets: int) -> float:
        return ev.w_sides[min(1 + sum(1 for x in ev.neighbours[k] if a >> x & 1), 4)]


#: Cyningstan's 11x11 board: the king on e6, attackers on d6, f2 and e11, a defender on b2.
SCENE = format_position(sum(1 << s for s in (5 * 11 + 3, 1 * 11 + 5, 10 * 11 + 4)), 1 << 11 + 1, 5 * 11 + 4, 11)


@contextlib.contextmanager
def mode_of_three() -> typing.Iterator[KingCapture]:
    """The mode registered, and its reading offered by the catalogue's Cyningstan tawlbwrdd; the
    browser worker's boards made meanwhile (whose rules name the mode) go with it."""
    mode = KING_CAPTURE.add(TakenByThree())
    files = catalogue._data_files()
    shared = dict(files["_toggles"])
    shared["king_capture"] = {**shared["king_capture"], "readings": {**shared["king_capture"]["readings"], "three": {
        "label": "Three attackers around him", "changes": {"king_capture": "three", "king_capture_against": []},
        "source": "jones1993", "locator": "test", "filler": "modern filler: a mode of the test's own"}}}
    board = dict(files["tawlbwrdd-cyningstan"])
    board["toggles"] = {**board["toggles"], "king_capture": [*board["toggles"]["king_capture"], "three"]}
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(catalogue, "_data_files", lambda: {**files, "_toggles": shared, "tawlbwrdd-cyningstan": board})
        monkeypatch.setattr(webapi, "_sessions", dict(webapi._sessions))
        catalogue._catalogue.cache_clear()
        try:
            yield mode
        finally:
            KING_CAPTURE.remove("three")
    catalogue._catalogue.cache_clear()


@pytest.fixture
def three():
    with mode_of_three() as mode:
        yield mode


def test_a_new_way_of_taking_the_king_is_one_definition_and_its_reading(three):
    rules = tafl_rules.variant("tawlbwrdd-cyningstan", king_capture="three").rules
    assert rules.king_capture == "three" and "three" in CHOICES["king_capture"]
    # the engine: two opposite attackers do not take him (as "two" would); a third does
    game = Game(rules, position=SCENE, turn="attackers")
    game.play("f2-f6")
    assert game.outcome is None
    assert "king threatened" in game.announcements()
    game.play("b2-b3")
    before = Game(rules, position=game.position(), turn="attackers")
    game.play("e11-e7")
    assert game.outcome.kind == "king-captured" and game.outcome.reason == "king captured on e6 by e7, f6, d6"
    # the AI sees it and takes him
    found = analyse(before, level=2, seed=0)
    assert str(found.move) == "e11-e7" and found.score > 90_000
    # OTN keeps it (an extension key: no OTN letter is this mode) and the site's words are its own
    text = otn.rules_to_otn(rules)
    assert "x-king_capture:three" in text and otn.parse_rules(text) == rules
    assert "king_capture" in otn.otn_losses(rules)
    assert ("Attackers win", "By standing attackers on three sides of the king; or by leaving the defenders "
            "without a move.") in how_to_play(rules)
    from tafl_sphinx import words
    assert words.plain("king_capture", "three", rules) == three.sentence
    # the browser worker's API plays the reading by name, as a share link would
    reply = json.loads(webapi.handle("new", json.dumps({
        "board": "three", "variant": "tawlbwrdd-cyningstan", "toggles": {"king_capture": "three"},
        "position": SCENE, "turn": "attackers", "moves": ["f2-f6", "b2-b3", "e11-e7"]})))
    assert reply["outcome"]["kind"] == "king-captured" and reply["applied"]["king_capture"] == "three"
    # and its estimate never misses a threat the engine sees
    assert_estimate_is_never_blind(rules, games=3, placements=60)


def test_the_boards_of_a_mode_go_with_it():
    """A board the browser worker made with a mode that is then removed would leave every later
    look at the worker's boards failing (tests/fuzzing.py compares them before and after each call)."""
    with mode_of_three():
        webapi.handle("new", json.dumps({"board": "three-gone", "variant": "tawlbwrdd-cyningstan",
                                         "toggles": {"king_capture": "three"}}))
    assert "three-gone" not in webapi._sessions
    for session in webapi._sessions.values():
        webapi.state(session)


def test_a_mode_must_not_take_a_name_twice_and_rules_refuse_an_unknown_one():
    with pytest.raises(ValueError, match="already has a mode 'two'"):
        KING_CAPTURE.add(type("Again", (TakenByThree,), {"value": "two"})())
    with pytest.raises(RulesError, match="'three' is not one of two, four, linnaeus, immobile, none"):
        Rules(king_capture="three")


# --------------------------------------------------------------------------- the AI's estimate

#: Ferdinand Lewis's first figure with ap Ifan's warning: the king on e5, attackers on d6, f6 and
#: a5, defenders on e4 and e7 (rank 1 first).
WARNED = "/11/11/11/4T6/t3K6/3t1t5/4T6/11/11/11/11/"


def test_the_estimate_sees_what_ap_ifans_warning_takes():
    rules = tafl_rules.variant("lewis-1", watch_king="on").rules
    game = Game(rules, position=WARNED, turn="defenders")
    game.play("e5-e6")  # in between d6 and f6, his only way out back down to e5
    pos = game.engine
    assert king_threatened(pos)
    assert evaluator(rules).king_exposed(pos.a, pos.d, pos.k, pos.king_targets())
    game.play("a5-e5")
    assert game.outcome.reason == "king taken on e6: he moved between two attackers and cannot get out"


def assert_estimate_is_never_blind(rules: Rules, games: int, placements: int, seed: int = 0) -> int:
    """Over seeded random games and random placements under ``rules``: wherever the engine says
    an attackers' move would take the king, the AI's estimate says so too. Returns the count of
    positions checked."""
    ev = evaluator(rules)
    checked = 0

    def check(game: Game) -> None:
        nonlocal checked
        pos = game.engine
        if pos.k < 0:
            return
        checked += 1
        if king_threatened(pos):
            assert ev.king_exposed(pos.a, pos.d, pos.k, pos.king_targets()), (game.position(), game.turn)

    rng = random.Random(seed)
    for _ in range(games):
        game = Game(rules)
        while game.outcome is None and game.ply < 60:
            check(game)
            game.play(rng.choice(game.legal_moves()))
    size = rules.size
    for number in range(placements):
        # a few men anywhere; every other time also a crowd around the king, where the captures are
        king = rng.randrange(size * size)
        squares = rng.sample(range(size * size), rng.randrange(2, 12))
        if number % 2:
            r, f = divmod(king, size)
            squares += [rr * size + ff for rr in range(max(0, r - 2), min(size, r + 3))
                        for ff in range(max(0, f - 2), min(size, f + 3)) if rng.random() < 0.45]
        a = d = 0
        for sq in set(squares) - {king}:
            if rng.random() < 0.6:
                a |= 1 << sq
            else:
                d |= 1 << sq
        try:
            game = Game(rules, position=format_position(a, d, king, size), turn=rng.choice(("attackers", "defenders")))
        except PositionError:  # a placement no game can reach (the king escaped, a man on the throne...)
            continue
        check(game)
        king = game.king_square()
        steps = game.legal_targets().get(king, []) if game.turn == "defenders" and game.outcome is None else []
        if steps:  # the king has just moved (what ap Ifan's warning looks at): the attackers' turn
            game.play(f"{king}-{rng.choice(steps)}")
            if game.outcome is None:
                check(game)
    return checked


def _readings():
    """(variant id, toggles) for every variant, each reading of each toggle, and - where a variant
    offers ap Ifan's warning - each reading with the warning on."""
    out = []
    for v in tafl_rules.variants():
        readings = [{}] + [{name: value} for name, toggle in v.toggles.items() for value in toggle.readings
                           if value != toggle.default]
        if "watch_king" in v.toggles:
            readings += [{**r, "watch_king": "on"} for r in readings if r and "watch_king" not in r]
        for toggles in readings:
            try:
                tafl_rules.variant(v.id, **toggles)
            except RulesError:  # two readings that set one field differently
                continue
            out.append((v.id, toggles))
    return out


@pytest.mark.parametrize("vid, toggles", _readings(), ids=lambda x: x if isinstance(x, str) else
                         ",".join(f"{k}={v}" for k, v in x.items()) or "default")
def test_the_ai_estimate_never_misses_a_threat_the_engine_sees(vid, toggles):
    rules = tafl_rules.variant(vid, **toggles).rules
    assert assert_estimate_is_never_blind(rules, games=1, placements=20, seed=len(vid)) > 20


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=rules_strategy(), seed=st.integers(0, 2**16))
def test_the_ai_estimate_never_misses_a_threat_under_random_rules(rules, seed):
    # the combinations no catalogue reading names: special squares the king may not use, camps and
    # corners standing in, shield walls with any capture rule, speed limits, the sandwich rule
    assert_estimate_is_never_blind(rules, games=1, placements=20, seed=seed) > 0

