"""Figures of the balance lab in running prose: the ``lab-*`` roles read the committed results."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tiny_project import build, conf

from test_site_build import build_tiny

ROOT = Path(__file__).resolve().parents[1]

from tafl_sphinx.lab_figures import LabFigureError, figure


def _entry(variant, level, attackers, defenders, capped, toggles=None):
    return {"config": {"variant": variant, "attackers_level": level, "defenders_level": level,
                       "toggles": toggles or {}},
            "summary": {"games": attackers + defenders + capped, "attackers": {"count": attackers},
                        "defenders": {"count": defenders}, "draws": {"count": capped},
                        "endings": {"ply-cap": capped} if capped else {}}}


ENTRIES = [_entry("lewis-1", 3, 1, 9, 8), _entry("lewis-1", 1, 400, 500, 100),
           _entry("jones-3", 3, 0, 16, 4, {"first": "defenders", "king_armed": "yes"}),
           _entry("jones-3", 3, 3, 7, 8)]


@pytest.mark.parametrize("role, text", [("lab-games", "18"), ("lab-capped", "8"), ("lab-decided", "1 of the 10"),
                                        ("lab-pct", "10%"), ("lab-share", "10%, interval 2% to 40%"),
                                        ("lab-interval", "2% to 40%")])
def test_each_role_prints_its_figure_of_the_named_configuration(role, text):
    assert figure(role, "lewis-1@3", ENTRIES) == text


def test_toggles_pick_their_own_line_in_any_order_and_none_picks_the_variant_as_it_stands():
    assert figure("lab-decided", "jones-3?king_armed=yes&first=defenders@3", ENTRIES) == "0 of the 16"
    assert figure("lab-decided", "jones-3@3", ENTRIES) == "3 of the 10"
    assert figure("lab-games", "lewis-1@1", ENTRIES) == "1,000"


@pytest.mark.parametrize("target, words", [("lewis-1", "not of the form"), ("lewis-1@2", "names 0"),
                                           ("jones-3?king_armed=yes@3", "names 0"), ("Lewis 1@3", "not of the form")])
def test_a_target_naming_no_single_result_is_refused_by_name(target, words):
    with pytest.raises(LabFigureError, match=words) as caught:
        figure("lab-share", target, ENTRIES)
    assert repr(target) in str(caught.value)


def test_a_tiny_project_prints_the_committed_figure_and_refuses_a_bad_target(make_app, tmp_path):
    data = json.loads((ROOT / "docs" / "data" / "balance.json").read_text())
    entry = next(e for e in data["results"] if e["config"]["variant"] == "lewis-1" and not e["config"].get("toggles")
                 and e["config"]["attackers_level"] == e["config"]["defenders_level"] == 1)
    result, out = build_tiny(make_app, tmp_path, "# Tiny\n\nThe attackers won {lab-decided}`lewis-1@1` decided games.\n")
    assert result.returncode == 0, result.stderr
    decided = entry["summary"]["attackers"]["count"] + entry["summary"]["defenders"]["count"]
    assert f"won {entry['summary']['attackers']['count']:,} of the {decided:,} decided" in (out / "index.html").read_text()

    (tmp_path / "bad").mkdir()
    result, _ = build_tiny(make_app, tmp_path / "bad", "# Tiny\n\n{lab-share}`lewis-1@7`\n")
    assert result.returncode != 0 and "lab-share role" in result.stderr and "lewis-1@7" in result.stderr


def test_an_incremental_build_reads_the_page_again_only_when_a_results_file_comes_or_goes(make_app, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "balance-level3.json").write_bytes((ROOT / "docs" / "data" / "balance-level3.json").read_bytes())
    (tmp_path / "conf.py").write_text(conf(["myst_parser", "tafl_sphinx"], data=data))
    (tmp_path / "index.md").write_text("# Tiny\n\n{lab-games}`lewis-1@3` games.\n\n```{toctree}\nother\n```\n")
    (tmp_path / "other.md").write_text("# Other\n\nNo figures here.\n")

    def again() -> str:
        result = build(make_app, tmp_path)
        assert result.returncode == 0, result.stdout + result.stderr
        return re.search(r"updating environment: .*", result.stdout).group(0)

    assert "2 added" in again()
    assert "0 added, 0 changed, 0 removed" in again()
    (data / "balance-people-level1.json").write_bytes((ROOT / "docs" / "data" / "balance-people-level1.json").read_bytes())
    assert "0 added, 1 changed, 0 removed" in again()
    assert "0 added, 0 changed, 0 removed" in again()
    (data / "balance-people-level1.json").unlink()
    assert "0 added, 1 changed, 0 removed" in again()
