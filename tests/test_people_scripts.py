"""The people-like player's scripts run, on a few games, into a temporary folder, and leave the
package's model alone unless told to write it."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tafl_rules.ai.people import MODEL_PATH, model_from_data

ROOT = Path(__file__).resolve().parents[1]


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_train_people_trains_on_a_few_games_and_writes_only_where_it_is_told(tmp_path):
    before = digest(MODEL_PATH)
    model, report = tmp_path / "model.json", tmp_path / "report.json"
    done = run("train_people.py", "--games", "12", "--levels", "1", "--model-out", str(model),
               "--report-out", str(report))
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["held_out"]["positions"] > 0 and 0 <= data["held_out"]["top1"] <= 1
    assert json.loads(model.read_text(encoding="utf-8"))["provenance"]["games"] == 12
    # without --model-out nothing but the report is written
    again = run("train_people.py", "--games", "12", "--levels", "1", "--report-out", str(tmp_path / "r2.json"))
    assert again.returncode == 0, again.stderr[-3000:]
    assert digest(MODEL_PATH) == before and sorted(p.name for p in tmp_path.iterdir()) == ["model.json", "r2.json",
                                                                                           "report.json"]


def test_a_model_with_a_hidden_layer_is_written_read_by_the_package_and_measured_again_the_same(tmp_path):
    """--hidden fits a layer of feature combinations; the model written, read back by the package
    (tafl_rules.ai.people.model_from_data) and measured by --evaluate on the same games, gives the
    training run's figures (--evaluate once measured every game of the corpus whatever --games said)."""
    model, report, again = tmp_path / "model.json", tmp_path / "report.json", tmp_path / "again.json"
    done = run("train_people.py", "--games", "12", "--levels", "1", "--hidden", "2", "--iterations", "15",
               "--no-temperatures", "--model-out", str(model), "--report-out", str(report))
    assert done.returncode == 0, done.stderr[-3000:]
    stored = json.loads(model.read_text(encoding="utf-8"))
    assert len(stored["hidden"]["out"]) == 2 and any(any(column) for column in stored["hidden"]["weights"].values())
    assert model_from_data(stored).judged  # the evaluation's facts are among those it weighs
    measured = run("train_people.py", "--games", "12", "--evaluate", str(model), "--report-out", str(again))
    assert measured.returncode == 0, measured.stderr[-3000:]
    first, second = json.loads(report.read_text(encoding="utf-8")), json.loads(again.read_text(encoding="utf-8"))
    assert second["held_out"]["top1"] == first["held_out"]["top1"]
    for side in ("attackers", "defenders"):
        assert second["held_out"][side]["nats"] == pytest.approx(first["held_out"][side]["nats"], abs=1e-4)


def test_train_giveup_fits_on_a_few_games_and_judges_the_held_out_ones(tmp_path):
    from tafl_rules.ai.giveup import GIVEUP_PATH

    before = digest(GIVEUP_PATH)
    report = tmp_path / "report.json"
    done = run("train_giveup.py", "--games", "120", "--report-out", str(report))
    assert done.returncode == 0, done.stderr[-3000:]
    held = json.loads(report.read_text(encoding="utf-8"))["held_out"]
    assert held["gave_up"] > 0 and 0.5 < held["auc"] <= 1
    assert sum(row["positions"] for row in held["calibration"]) == held["positions"]
    assert digest(GIVEUP_PATH) == before and [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_people_calibration_plays_a_game_a_rule_set_and_fits_the_error_model(tmp_path):
    from tafl_rules.ai.people import STYLE, style_name

    out = tmp_path / "calibration.json"
    done = run("people_calibration.py", "--games", "1", "-j", "1", "--no-progress", "--out", str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["provenance"]["player"] == style_name(STYLE) and len(data["results"]) == 7  # rule sets
    assert len(data["rows"]) == 8 and all("counted" in r and "on_board" in r for r in data["rows"])
    assert data["summary"]["datasets"] == 8 and 0 <= data["summary"]["inside"] <= 8
    assert [p.name for p in tmp_path.iterdir()] == ["calibration.json"]  # the work file is gone
    assert "on the board only" in done.stdout


def test_average_writes_one_model_that_scores_a_move_as_the_mean_of_its_members(tmp_path):
    """--average makes an ensemble a model file the package reads: its hidden units are its members'
    side by side, and every move's score is the mean of theirs."""
    from tafl_rules import Game
    from tafl_rules.ai.people import load_model, people_scores

    paths = []
    for l2 in ("1e-3", "1e-2"):
        paths.append(tmp_path / f"m{l2}.json")
        done = run("train_people.py", "--games", "12", "--levels", "--hidden", "2", "--iterations", "10", "--l2-hidden", l2,
                   "--model-out", str(paths[-1]), "--report-out", str(tmp_path / f"r{l2}.json"))
        assert done.returncode == 0, done.stderr[-3000:]
    mean, report = tmp_path / "mean.json", tmp_path / "report.json"
    done = run("train_people.py", "--games", "12", "--levels", "--average", *map(str, paths), "--model-out", str(mean),
               "--report-out", str(report))
    assert done.returncode == 0, done.stderr[-3000:]
    one, two, both = (load_model(p) for p in (*paths, mean))
    assert len(both.out) == 4 and json.loads(report.read_text(encoding="utf-8"))["held_out"]["positions"] > 0
    game = Game("copenhagen")
    game.play("d1-d4")
    _moves, _scores, rows = people_scores(game.engine, both)
    assert {round(both.score(r), 5) for r in rows} != {round(one.score(r), 5) for r in rows}
    for row in rows:
        assert both.score(row) == pytest.approx((one.score(row) + two.score(row)) / 2, abs=1e-5)
    # --hidden-decimals stores the hidden layer shorter: every weight to that many places, none all nothing
    short = tmp_path / "short.json"
    done = run("train_people.py", "--games", "12", "--levels", "--average", *map(str, paths), "--hidden-decimals", "1",
               "--model-out", str(short), "--report-out", str(tmp_path / "short-report.json"))
    assert done.returncode == 0, done.stderr[-3000:]
    layer = json.loads(short.read_text(encoding="utf-8"))["hidden"]
    columns = [c for key in ("weights", "rings", "diamonds") for c in layer[key].values()]
    assert columns and all(x == round(x, 1) for c in columns for x in c) and all(any(c) for c in columns)
    assert len(columns) < sum(len(json.loads(mean.read_text(encoding="utf-8"))["hidden"][k]) for k in ("weights", "rings", "diamonds"))
    bad = tmp_path / "other.json"
    bad.write_text(json.dumps({**json.loads(paths[0].read_text()), "provenance": {"games": 30, "validation_games": 5}}))
    refused = run("train_people.py", "--games", "12", "--average", str(paths[0]), str(bad))
    assert refused.returncode != 0 and "not all fitted on the same games" in refused.stderr
