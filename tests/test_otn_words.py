"""OTN refusals word for word, where the mutation run of ``tafl_rules.otn`` found them unpinned
(``tests/mutation/report.md``): a move off the board, re-entry keys, a berserk piece, and an
illegal move in a record said in the reader's language."""

from __future__ import annotations

import pytest

import tafl_rules
from tafl_rules import Game, IllegalMove, NotationError, otn
from tafl_rules.messages import translate

BRANDUBH = otn.rules_to_otn(tafl_rules.variant("brandubh").rules)


@pytest.mark.parametrize("text, words, offset", [
    ("d1-d9", "move 'd1-d9': d9 is not a square of the 7x7 board", 3),
    ("h1-d1", "move 'h1-d1': h1 is not a square of the 7x7 board", 0),
    ("cd1-d4", "move 'cd1-d4': 'c' (a commander or knight of berserk tafl) is not supported", 0),
    ("Nd1-d4", "move 'Nd1-d4': 'N' (a commander or knight of berserk tafl) is not supported", 0),
])
def test_a_move_record_that_cannot_be_read_on_this_board(text, words, offset):
    with pytest.raises(NotationError) as error:
        otn.parse_move(text, size=7)
    assert (error.value.message, error.value.offset) == (words, offset)
    assert otn.parse_move("Td3-b3", size=7).piece == "T"


@pytest.mark.parametrize("key", ["corre", "aforre", "dforre"])
def test_every_piece_may_come_back_to_a_corner_or_a_fortress_and_nothing_less_is_read(key):
    for letters in ("tTK", "tcnkTCNK", "KTt"):
        assert otn.parse_rules(BRANDUBH.replace(" start:", f" {key}:{letters} start:")) == tafl_rules.variant(
            "brandubh").rules
    for letters in ("tT", "TK", "t", ""):
        with pytest.raises(NotationError, match=f"^{key}: re-entry restrictions on corners and fortresses are not "
                                                f"supported"):
            otn.parse_rules(BRANDUBH.replace(" start:", f" {key}:{letters} start:"))


def test_an_illegal_move_in_a_record_says_why_in_the_readers_language():
    game = Game("brandubh")
    game.play("a4-a2")
    record = otn.read_game(otn.game_to_otn(game).replace("a4-a2", "a4-a1"))
    with pytest.raises(NotationError) as error:
        record.to_game()
    with pytest.raises(IllegalMove) as refusal:
        Game("brandubh").play("a4-a1")
    english = str(refusal.value)
    assert english == "only the king may stop on a corner" and english in str(error.value)
    welsh = translate(refusal.value.args[0], "cy")
    assert welsh != english and welsh in translate(error.value.args[0], "cy")
