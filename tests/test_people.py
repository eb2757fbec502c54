"""The people-like player: its features, its safety net, its styles and its place in the lab."""

from __future__ import annotations

import json

import pytest

from tafl_rules import Game, variant
from tafl_rules.ai.features import INDEX, NAMES, move_features
from tafl_rules.ai.people import MODEL_PATH, NEUTRAL, STYLE, Style, load_model, parse_style, people_move, style_name
from tafl_rules.balance import Config, play_game

SEEDS = range(12)


def features_of(game: Game, move: str) -> set[str]:
    moves, rows = move_features(game.rules).of_position(game.engine)
    names = game.engine.g.names
    for m, row in zip(moves, rows):
        if f"{names[m >> 11]}-{names[(m >> 2) & 511]}" == move:
            return {NAMES[f] for f in row if f < len(NAMES)}
    raise AssertionError(f"{move} is not listed")


def test_every_legal_move_gets_features_and_the_position_is_unchanged():
    game = Game("copenhagen")
    for text in ["h1-h3", "f4-i4", "g1-i1", "g5-g3", "h3-i3"]:
        game.play(text)
    before = (game.position(), game.turn, game.hash, len(game.engine.stack), dict(game.engine.seen))
    moves, rows = move_features(game.rules).of_position(game.engine)
    assert sorted(moves) == sorted(game.engine.moves())
    assert all(rows) and len(rows) == len(moves)
    assert (game.position(), game.turn, game.hash, len(game.engine.stack), dict(game.engine.seen)) == before


def test_features_say_what_a_move_does():
    # brandubh (rank 1 first): the king on d1 sees the corner g1 along the edge; b1 is blocked
    game = Game("brandubh", position="/1t1K3/7/4t2/7/7/7/7/", turn="defenders")
    assert "defenders:wins" in features_of(game, "d1-g1") and "defenders:wins" not in features_of(game, "d1-e1")
    # the attackers to move: e3-e1 closes the road to g1, b1-b2 opens a second one to a1
    game = Game("brandubh", position="/1t1K3/7/4t2/7/7/7/7/", turn="attackers")
    assert "attackers:roads before>0 and after=0" in features_of(game, "e3-e1")
    assert "attackers:roads after=2+" in features_of(game, "b1-b2")
    assert "attackers:roads after=1" in features_of(game, "e3-e2")
    # a capture: an attacker stopping on c3 closes d3 against e3
    game = Game("brandubh", position="/7/7/3Tt2/7/2t4/7/3K3/", turn="attackers")
    assert "attackers:takes 1" in features_of(game, "c5-c3")


def test_the_player_takes_a_win_when_there_is_one():
    game = Game("brandubh", position="/1K5/7/7/7/7/1t3t1/7/", turn="defenders")
    for seed in SEEDS:
        assert str(people_move(game, STYLE, seed)) in {"b1-a1", "b1-g1"}


def test_the_player_gives_the_king_two_roads_when_it_can():
    # from d4 the king reaches d1, d7, a4 and g4, each in sight of two corners
    game = Game("brandubh", position="/7/7/1t5/3K3/7/5t1/7/", turn="defenders")
    forks = {"d4-d1", "d4-d7", "d4-a4", "d4-g4"}
    for seed in SEEDS:
        assert str(people_move(game, STYLE, seed)) in forks


def test_the_attackers_close_the_kings_one_road():
    # the king on d1 sees g1 along the edge: only an attacker stopping on e1 or f1 keeps him in
    game = Game("brandubh", position="/1t1K3/7/7/7/4t2/6t/7/", turn="attackers")
    for seed in SEEDS:
        assert str(people_move(game, STYLE, seed)) in {"e5-e1"}


def test_the_defenders_keep_the_king_out_of_a_capture():
    # tawlbwrdd (king taken by two): on e6 beside an attacker on d6, the king is taken if an
    # attacker reaches f6; every defender move but the king's leaves him there
    rules = variant("tawlbwrdd-cyningstan").rules
    game = Game(rules, position="/11/1T9/11/11/11/3tK6/11/11/11/11/5t5/", turn="defenders")
    taken = {"own king open to capture after"}
    for seed in SEEDS:
        move = str(people_move(game, STYLE, seed))
        assert not {f.split(":", 1)[1] for f in features_of(game, move)} & taken, move


def test_same_position_style_and_seed_same_move():
    game = Game("tawlbwrdd-bell")
    for _ in range(6):
        game.play(people_move(game, Style(0.5, 2.0), 7))
    first = [str(people_move(game, Style(0.5, 2.0), s)) for s in SEEDS]
    again = [str(people_move(game.copy(), Style(0.5, 2.0), s)) for s in SEEDS]
    assert first == again
    assert len(set(first)) > 1  # the seed does pick among moves


def test_the_player_plays_every_variant_of_the_catalogue():
    from tafl_rules.catalogue import variants

    for v in variants():
        game = Game(v.id)
        for ply in range(4):
            if game.outcome is not None:
                break
            move = people_move(game, STYLE, ply)
            assert move in game.legal_moves(), (v.id, str(move))
            game.play(move)
        assert game.ply > 0, v.id


def test_styles_have_names_the_lab_can_read_back():
    assert style_name(NEUTRAL) == "people" and style_name(STYLE) == "people(ta=0.99,td=1.06)"
    assert parse_style("people(ta=0.5,td=2)") == Style(0.5, 2.0)
    assert parse_style(style_name(Style(0.7, 1.5))) == Style(0.7, 1.5)
    for bad, words in [("people(tx=1)", "is not ta= or td="), ("people(ta=0)", "a number above 0"),
                       ("people[ta=1]", "in brackets"), ("random", "starts with 'people'"),
                       ("people(ta=nan)", "a number above 0")]:
        with pytest.raises(ValueError, match=words.replace("(", r"\(").replace("[", r"\[")):
            parse_style(bad)


def test_the_lab_plays_people_like_players_by_name():
    config = Config("brandubh", (), "people(td=2)", "people", 40)
    assert config.key == "brandubh|a:people(td=2)/d:people|cap40"
    assert Config.from_dict(config.to_dict()) == config
    one, two = play_game(config, 3), play_game(config, 3)
    assert one == two and one["plies"] <= 40
    with pytest.raises(ValueError, match="in brackets"):
        Config("brandubh", (), "people{td=2}", 1, 40)


def test_the_model_file_names_only_known_features_and_says_how_it_was_made():
    data = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    assert set(data["weights"]) <= set(INDEX)
    prov = data["provenance"]
    assert prov["command"].startswith("python benchmarks/train_people.py")
    assert prov["held_out_games"] * 5 >= prov["games"] - 5 and prov["training_positions"] > 50_000
    model = load_model()
    assert model.weights[INDEX["attackers:takes 1"]] > 0 and model.weights[INDEX["defenders:own king open to capture after"]] < 0


def test_people_give_up_more_often_in_a_lost_position_than_at_the_start():
    from tafl_rules.ai.giveup import give_up_chance, load_giveup, position_facts, NAMES as FACTS

    start = Game("copenhagen")
    # the attackers to move, the king on c1 sees a1 and, past the men he left, k1: he escapes next move
    lost = Game("copenhagen", position="/2K8/11/11/11/11/11/11/5t5/4ttt4/5t5/11/", turn="attackers")
    facts = {FACTS[i] for i in position_facts(lost.engine)}
    assert {"attackers to move:king roads 2+", "attackers to move:enemy men lost over 5/8"} <= facts
    assert give_up_chance(lost.engine) > 3 * give_up_chance(start.engine)
    assert load_giveup().provenance["command"].startswith("python benchmarks/train_giveup.py")


def test_the_lab_counts_a_people_like_players_games_as_peoples_are(tmp_path):
    from tafl_rules import balance

    config = Config("brandubh", (), "people", "people", 60)
    games = [play_game(config, seed) for seed in range(4)]
    for g in games:
        a, d = g["gave_up"]
        assert balance.check_record(g) is None and 0 < a + d <= 1 + 1e-6
        won = {"attackers": a, "defenders": d}.get(g["winner"])
        assert g["winner"] is None or won > 0  # the side that won on the board keeps a share of it
    counted = balance.summarise(games)["counted_as_people"]
    assert abs(counted["attackers"] + counted["defenders"] + counted["draws"] - 4) < 0.02
    assert counted["low"] <= counted["share"] <= counted["high"]
    path = tmp_path / "run.json"
    balance.write_json(balance.run([config], range(4), workers=1, progress=False), str(path))
    assert sorted(balance.results_games(str(path)).values(), key=lambda g: g["seed"]) == [
        {**g, "kind": str(g["kind"])} for g in games]
    assert "chances" in balance.check_record({**games[0], "gave_up": [0.7, 0.6]})
    assert balance.summarise([play_game(Config("brandubh", (), 1, 1, 20), 0)]).get("counted_as_people") is None


def test_every_move_gets_its_place_in_the_evaluation_and_its_reach():
    # brandubh: the king on d1 wins on g1; no other move comes near that in the evaluation
    game = Game("brandubh", position="/1t1K3/7/4t2/7/7/7/7/", turn="defenders")
    win, slow = features_of(game, "d1-g1"), features_of(game, "d1-e1")
    assert {"defenders:evaluation rank 1", "defenders:evaluation below the best by 0"} <= win
    assert "defenders:evaluation below the best by over 1000" in slow and "defenders:evaluation rank 1" not in slow
    # the king from d1 to e1: he reaches e2-e3 and f1-g1 (and back to d1), where he had seven squares
    assert {"defenders:moved man's reach after 3-5", "defenders:moved man's reach changes -5 to -2"} <= slow
    moves, rows = move_features(game.rules).of_position(game.engine)
    for row in rows:  # one of each band for every move
        names = [NAMES[f] for f in row if f < len(NAMES)]
        for fact in ("evaluation below the best by", "evaluation rank", "moved man's reach after",
                     "moved man's reach changes", "other side's reach changes"):
            assert sum(name.startswith(f"defenders:{fact} ") for name in names) == 1, fact


def test_a_hidden_layer_adds_what_its_active_units_say():
    from tafl_rules.ai.people import Model, model_from_data

    takes, lands = INDEX["attackers:takes 1"], INDEX["attackers:lands on edge"]
    data = {"weights": {"attackers:takes 1": 1.0},
            "hidden": {"weights": {"attackers:takes 1": [2.0, -1.0], "attackers:lands on edge": [-3.0, 1.0]},
                       "bias": [0.5, 0.0], "out": [1.5, 4.0]}}
    model = model_from_data(data)
    assert model.score([takes]) == 1.0 + 1.5 * 2.5          # the first unit only: 2 + 0.5
    assert model.score([takes, lands]) == 1.0               # 2 - 3 + 0.5 < 0 and -1 + 1 = 0: neither counts
    assert model.score([lands]) == 4.0                      # the second unit: 1
    assert Model({takes: 1.0}, {}).score([takes, lands]) == 1.0  # a model without one: the weights' sum
    broken = json.loads(json.dumps(data))
    broken["hidden"]["weights"]["attackers:takes 1"] = [2.0]
    with pytest.raises(ValueError, match="the hidden layer has 2 units, 'attackers:takes 1' weighs 1"):
        model_from_data(broken)
    broken = json.loads(json.dumps(data))
    broken["hidden"]["weights"]["attackers:flies"] = [0.0, 0.0]
    with pytest.raises(ValueError, match="a feature this package does not have: 'attackers:flies'"):
        model_from_data(broken)


def test_the_slower_facts_are_left_out_only_where_the_model_does_not_weigh_them():
    from tafl_rules.ai.features import JUDGED
    from tafl_rules.ai.people import load_model, model_from_data, people_scores

    game = Game("copenhagen")
    for move in ("h1-h3", "f4-c4", "a4-a2"):
        game.play(move)
    features = move_features(game.rules)
    moves, rows = features.of_position(game.engine)
    quick_moves, quick_rows = features.of_position(game.engine, judged=False)
    assert quick_moves == moves and all(rows) and all(any(f in JUDGED for f in row) for row in rows)
    assert quick_rows == [[f for f in row if f not in JUDGED] for row in rows]
    assert load_model().judged  # the package's model weighs them, so the player asks for them
    _, scores, seen = people_scores(game.engine)
    assert seen == rows
    quick = model_from_data({"weights": {"defenders:takes 1": 1.0}})
    assert not quick.judged and not any(f in JUDGED for row in people_scores(game.engine, quick)[2] for f in row)
    rank = model_from_data({"weights": {"defenders:evaluation rank 1": 1.0}})
    assert rank.judged and max(people_scores(game.engine, rank)[1]) == 1.0
