"""OTN as other programs read it: fixed strings and records, not round trips of our own writer
through our own reader (which cannot see a change made to both at once).

- Every catalogue variant's rules string, held to a committed golden string that OpenTafl read
  as the same rules (``tests/data/otn-rules-golden.toml``, with its provenance).
- OpenTafl rules strings with the king's letter in ``corh``, ``cenh``/``cenhe`` and ``aforh``.
- Records ending in a resignation (``---``) and in a tuichi win (``--``).
- A game with its own start position or first side, written by this package and read the way
  OpenTafl's own loader reads a record (``GameSerializer.loadGameRecord``: the board and the
  side to move from the ``[rules:...]`` tag alone; ``RulesSerializer``: ``key:value`` pairs
  split at spaces, unknown keys ignored; ``MoveSerializer``: each move must match its pattern,
  so ``.....`` is refused), then replayed move for move.
"""

from __future__ import annotations

import random
import re
import tomllib
import warnings
from pathlib import Path

import pytest

import tafl_rules
from tafl_rules import Game, NotationError, Rules, otn
from tafl_rules.position import format_position, parse_position

GOLDEN = tomllib.loads((Path(__file__).parent / "data" / "otn-rules-golden.toml").read_text())
BRANDUB = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"


@pytest.mark.parametrize("vid", sorted(GOLDEN))
def test_every_variant_writes_its_golden_rules_string(vid):
    v = tafl_rules.variant(vid)
    golden = GOLDEN[vid]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", otn.OTNLossWarning)
        assert otn.rules_to_otn(v, strict=True) == golden["plain"]
    assert otn.otn_losses(v) == golden["lost"]
    assert otn.rules_to_otn(v) == golden["full"]
    assert otn.parse_rules(golden["full"]) == v.rules
    # the plain string read back loses only the named points (some of those, such as a re-entry of the
    # throne that OpenTafl reads otherwise than this package, read back the same here)
    plain = otn.parse_rules(golden["plain"])
    assert {f for f in v.rules.to_dict() if getattr(plain, f) != getattr(v.rules, f)} <= set(golden["lost"])


def test_the_golden_file_covers_the_catalogue():
    assert sorted(GOLDEN) == sorted(v.id for v in tafl_rules.variants())


# OpenTafl's strong king (ks:y, the default) counts a square whose hostility list holds "K" as a side.
@pytest.mark.parametrize("keys, against", [
    ("esc:c corh:TK", {"throne", "corner"}),          # cenhe's default holds K
    ("esc:c corh:TK cenhe:tT", {"corner"}),
    ("esc:c corh:T cenh:tK cenhe:", {"throne"}),
    ("esc:c corh:T cenhe:T", set()),
    ("esc:e cor: cenhe:TK afor:d1,d2,a4,b4,f4,g4,d6,d7, aforh:TK", {"throne", "camp"}),
    ("esc:e cor: cenhe:T afor:d1,d2,a4,b4,f4,g4,d6,d7, aforh:K", {"camp"}),
])
def test_the_king_letter_in_a_hostility_list_makes_the_square_a_side(keys, against):
    rules = otn.parse_rules(f"dim:7 {keys} start:{BRANDUB}")
    assert rules.king_capture == "four"
    assert rules.king_capture_against == frozenset(against)


@pytest.mark.parametrize("defenders", ["never", "empty", "always"])
def test_the_strong_centre_king_reads_as_linnaeus_and_writes_k_in_cenhe(defenders):
    assert otn.parse_rules(f"dim:7 ks:c cenh: start:{BRANDUB}").king_capture == "linnaeus"
    # OpenTafl takes this king beside the throne by three: the empty throne must be hostile to him,
    # whether or not it is hostile to the defenders' men
    rules = Rules(size=7, start=BRANDUB, king_capture="linnaeus", throne_hostile_to_defenders=defenders)
    text = otn.rules_to_otn(rules)
    cenhe = re.search(r" cenhe:(\S*)", text)
    assert cenhe is None or "K" in cenhe.group(1), text  # absent: the default, every piece
    assert otn.parse_rules(text) == rules


RECORD = f"""[event:a test]
[rules:dim:7 ks:n cenh: cenhe: start:{BRANDUB}]

1. d2-c2 d3-f3
2. a4-a3 ---
"""


def test_a_record_ending_in_a_resignation_reads_and_replays():
    record = otn.read_game(RECORD)
    assert [m.resign for m in record.moves] == [False, False, False, True]
    game = record.to_game()
    assert [str(m) for m in game.moves] == ["d2-c2", "d3-f3", "a4-a3"]
    assert game.outcome is None  # a resignation is not a rule of the game: the record says it, the rules do not
    first_half = RECORD.replace("2. a4-a3 ---", "2. ---")
    assert [str(m) for m in otn.game_from_otn(first_half).moves] == ["d2-c2", "d3-f3"]


@pytest.mark.parametrize("text, message", [
    (RECORD + "3. a3-a2\n", "turn 3 follows a resignation"),
    (RECORD.replace("2. a4-a3 ---", "2. --- a4-a3"), "a move follows the resignation"),
])
def test_nothing_follows_a_resignation(text, message):
    with pytest.raises(NotationError, match=message):
        otn.read_game(text)


def test_a_tuichi_win_is_written_as_an_escape():
    game = Game(Rules(size=7, start="/t6/7/7/3K3/7/7/7/", throne=False, tuichi="win"), turn="defenders")
    game.play("d4-c4")
    assert game.outcome.kind == "tuichi"
    text = otn.game_to_otn(game)
    assert "\n1. Kd4-c4--\n" in text and "[result:-1]" in text
    assert otn.game_from_otn(text).outcome == game.outcome


# ----------------------------------------------------------------- a game's own start, as OpenTafl reads it

_OT_MOVE = re.compile(r"([tcnkTCNK]?)([a-s][0-9]{1,2})([\^=\-]{1,2})([a-s][0-9]{1,2})"
                      r"((x([tcnkTCNK]?)([a-s][0-9]{1,2}))(/([tcnkTCNK]?)([a-s][0-9]{1,2}))?"
                      r"(/([tcnkTCNK]?)([a-s][0-9]{1,2}))?(/([tcnkTCNK]?)([a-s][0-9]{1,2}))?)?([+|\-]{1,3})?")


def opentafl_reading(text: str) -> tuple[dict[str, str], list[str]]:
    """The rules map and the moves OpenTafl's loader takes from a record (its GameSerializer,
    RulesSerializer and MoveSerializer, as read in jslater89/OpenTafl): tags are read up to the
    first "1." outside a tag; the rules are the ``rules`` tag split at spaces into ``key:value``;
    each line from "N. " on holds moves separated by spaces, each matching the move pattern."""
    tags: dict[str, str] = {}
    i = 0
    while i < len(text):
        if text.startswith("1.", i):
            break
        if text[i] == "[":
            colon, close = text.index(":", i), text.index("]", i)
            tags[text[i + 1:colon]] = text[colon + 1:close]
            i = close
        i += 1
    rules = {}
    for part in tags["rules"].split(" "):
        key, _, value = part.partition(":")
        rules[key] = value.split(":")[0]
    moves = []
    number = 1
    for line in text[i:].splitlines():
        if not line.startswith(f"{number}. "):
            continue
        for token in line[len(f"{number}. "):].strip().split(" "):
            match = _OT_MOVE.fullmatch(token)
            assert match, f"OpenTafl refuses the move record {token!r}"
            moves.append(f"{match.group(2)}-{match.group(4)}")
        number += 1
    return rules, moves


def _own_start_game(vid: str, seed: int) -> Game:
    """A game of ``vid`` that begins from the position after a few random plies, with the side to move
    there, and goes on for some random plies."""
    rng = random.Random(f"{vid}:{seed}")
    game = Game(vid)
    for _ in range(rng.randrange(5, 20)):
        if game.outcome is not None:
            break
        game.play(rng.choice(game.legal_moves()))
    own = Game(vid, position=game.position(), turn=game.turn)
    for _ in range(60):
        if own.outcome is not None:
            break
        own.play(rng.choice(own.legal_moves()))
    return own


@pytest.mark.parametrize("vid", ["brandubh", "copenhagen", "lewis-2", "tablut-smith"])
@pytest.mark.parametrize("seed", range(3))
def test_a_game_with_its_own_start_opens_in_opentafl_at_that_start(vid, seed):
    game = _own_start_game(vid, seed)
    a, d, k, side = game.engine.start()
    first = Game(vid, position=format_position(a, d, k, game.size), turn=("attackers", "defenders")[side])
    text = otn.game_to_otn(game)
    # the OTN specification's order: the rules tag is the last tag; no tag OpenTafl does not read carries the start
    header = text.split("\n\n")[0].splitlines()
    assert header[-1].startswith("[rules:") and not any(line.startswith(("[position:", "[turn:")) for line in header)
    rules, moves = opentafl_reading(text)
    assert rules["start"] == first.position()
    assert rules.get("atkf", "y") == ("y" if first.turn == "attackers" else "n")
    # replayed on OpenTafl's reading of the rules (the x- keys, which it ignores, left out)
    plain = " ".join(part for part in text.split("[rules:")[1].split("]")[0].split(" ") if not part.startswith("x-"))
    replay = Game(otn.parse_rules(plain))
    assert replay.position() == first.position() and replay.turn == first.turn
    for move, played in zip(moves, game.moves, strict=True):
        assert replay.play(move).captures == played.captures
    assert replay.position() == game.position()
    # and this package reads the catalogue's rules back, with the game's own start
    record = otn.read_game(text)
    assert record.rules == tafl_rules.variant(vid).rules
    assert (record.position or record.rules.start, record.first_side()) == (first.position(), first.turn)


def test_a_game_that_starts_as_its_rules_do_writes_no_x_start():
    game = Game("brandubh")
    game.play("d2-c2")
    text = otn.game_to_otn(game)
    assert "x-start" not in text and "x-first" not in text
    assert f"[rules:{otn.rules_to_otn(game.rules)}]" in text


def test_the_rules_own_start_and_first_side_read_from_x_start_and_x_first():
    own = "/3t3/3t3/3T3/tt1KTtt/3T3/3t3/3t3/"
    text = f"dim:7 ks:n cenh: cenhe: atkf:n x-first:attackers x-start:{BRANDUB} start:{own}"
    rules = otn.parse_rules(text)
    assert rules.start == BRANDUB and rules.first == "attackers"
    record = otn.read_game(f"[rules:{text}]\n\n1. Kd4-c4\n")
    assert (record.position, record.turn, [str(m.move) for m in record.moves]) == (own, "defenders", ["d4-c4"])
    with pytest.raises(NotationError, match="two different starts"):
        otn.read_game(f"[rules:{text}]\n[position:{BRANDUB.replace('ttTKTtt', 'tTK1Ttt')}]\n\n1. Kd4-c4\n")


def test_a_malformed_game_start_beside_x_start_is_refused_where_it_is_written():
    """With x-start giving the rules' own start, start: (the game's) is still a position record: a
    malformed one is named in the rules string, and in a record at its place in the record's text."""
    own = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t/"  # rank 7 is short
    text = f"dim:7 ks:n x-start:{BRANDUB} start:{own}"
    with pytest.raises(NotationError) as info:
        otn.parse_rules(text)
    assert (info.value.message, info.value.text, info.value.offset) == (
        "start: rank 7 has 4 squares, not 7", text, text.index(own) + len(own) - 1)
    record = f"[event:x]\n[rules:{text}]\n"
    with pytest.raises(NotationError) as info:
        otn.read_game(record)
    assert (info.value.message, info.value.text, info.value.offset) == (
        "rules: start: rank 7 has 4 squares, not 7", record, record.index(own) + len(own) - 1)


def test_camps_are_the_rules_own_start_squares_when_the_game_began_elsewhere():
    rules = tafl_rules.variant("tafl-granquist").rules
    assert rules.camps
    start = parse_position(rules.start, rules.size)
    moved = format_position(start.attackers & ~(1 << 3) | 1 << 12, start.defenders, start.king, rules.size)  # d1 to d2
    game = Game(rules, position=moved, turn=rules.first)
    text = otn.game_to_otn(game)
    assert otn.read_game(text).rules == rules
    assert "afor:d1,e1,f1,e2," in text  # the camps as the rules define them, not the game's start


@pytest.mark.parametrize("position, problem", [
    ("/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/", "there is no king"),
    ("/3K3/3t3/3T3/ttTtTtt/3T3/3t3/3t3/", "an attacker stands on the throne d4"),
    ("/K6/1t5/7/7/7/7/7/", "the king already stands on an escape square"),
    ("/7/7/7/3K3/7/7/7/", "the attackers have no piece"),
])
def test_a_record_whose_start_no_game_can_have_is_refused(position, problem):
    rules = tafl_rules.variant("brandubh").rules
    text = f"[rules:{otn.rules_to_otn(rules).rsplit(' start:', 1)[0]} x-start:{rules.start} start:{position}]\n"
    with pytest.raises(NotationError, match=f"start position: {problem}"):
        otn.read_game(text)


def test_a_game_the_attackers_open_under_rules_whose_defenders_go_first():
    """The rules string of such a game leaves atkf out (the specification's y: attackers first), which
    OpenTafl reads; x-first keeps the rules' own first side for this package."""
    rules = Rules(size=7, start=BRANDUB, first="defenders")
    game = Game(rules, turn="attackers")
    game.play("d1-c1")
    text = otn.game_to_otn(game)
    keys, _ = opentafl_reading(text)
    assert "atkf" not in keys and keys["x-first"] == "defenders"
    record = otn.read_game(text)
    assert (record.rules, record.first_side(), record.to_game().moves) == (rules, "attackers", ["d1-c1"])


@pytest.mark.parametrize("change, key", [
    ({"throne_hostile_to_defenders": "always"}, "ks:c cenh:tTK"),  # the linnaeus king: K with the defenders'
    ({"king_capture": "two", "throne_hostile_to_defenders": "always"}, "ks:n cenh:tTK"),
    ({"king_capture": "two", "corners_hostile_to_attackers": "never", "corners_hostile_to_defenders": "always"},
     "ks:n corh:TK"),
])
def test_a_king_not_taken_by_four_is_hostile_where_his_defenders_are(change, key):
    """Where four do not take the king, the squares hostile to the defenders are hostile to him too
    (K beside T in plain OTN, no x- key needed)."""
    rules = tafl_rules.variant("brandubh").rules.replace(**change)
    assert otn.rules_to_otn(rules, strict=True) == f"dim:7 surf:n tfr:i {key} aforh: afors:t start:{BRANDUB}"
    assert otn.otn_losses(rules) == [] and otn.parse_rules(otn.rules_to_otn(rules)) == rules


CAMPS = "afor:d1,d2,a4,b4,f4,g4,d6,d7,"


@pytest.mark.parametrize("change, keys", [
    ({"king_capture": "four", "king_capture_against": frozenset(), "throne_hostile_to_defenders": "always"},
     "corh:tT cenh:tT cenhe:tT aforh:"),  # taken by four on open ground only: no K anywhere
    ({"throne_hostile_to_attackers": "empty"}, "ks:c cenh: aforh:"),  # t in cenhe (its default)
    ({"camps": True, "camps_hostile_to_attackers": "always"}, f"ks:c {CAMPS} aforh:t"),
    ({"king_capture": "four", "king_capture_against": frozenset(), "camps": True,
      "camps_hostile_to_defenders": "always"}, f"{CAMPS} corh:tT cenhe:tT aforh:T"),
    ({"king_capture": "four", "king_capture_against": frozenset({"camp"}), "camps": True},
     f"{CAMPS} corh:tT cenhe:tT aforh:K"),
    ({"king_capture": "two", "camps": True, "camps_hostile_to_attackers": "never",
      "camps_hostile_to_defenders": "always"}, f"ks:n {CAMPS}"),  # aforh left at its default, TCNK: T and K
    ({"king_capture": "two", "camps": True, "camps_hostile_to_attackers": "always",
      "camps_hostile_to_defenders": "always"}, f"ks:n {CAMPS} aforh:tTK"),  # hostile to both sides and so to him
])
def test_each_side_s_letter_in_the_hostility_lists(change, keys):
    """t, T and K each written where that side (or the king taken by four) meets a hostile square,
    in plain OTN, with nothing lost."""
    rules = tafl_rules.variant("brandubh").rules.replace(**change)
    assert otn.rules_to_otn(rules, strict=True) == f"dim:7 surf:n tfr:i {keys} afors:t start:{BRANDUB}"
    assert otn.otn_losses(rules) == [] and otn.parse_rules(otn.rules_to_otn(rules)) == rules


@pytest.mark.parametrize("change, keys", [
    ({"camps": True, "camp_pass": frozenset()}, f"{CAMPS} aforh: aforp: afors:t"),
    ({"corner_stop": frozenset({"king", "defender"})}, "aforh: cors:TK afors:t"),
    ({"throne_stop": frozenset({"king", "defender"})}, "aforh: cens:TK afors:t"),
])
def test_who_may_stop_on_or_pass_a_square_is_plain_otn(change, keys):
    rules = tafl_rules.variant("brandubh").rules.replace(**change)
    assert otn.rules_to_otn(rules, strict=True) == f"dim:7 surf:n tfr:i ks:c {keys} start:{BRANDUB}"
    assert otn.otn_losses(rules) == []
