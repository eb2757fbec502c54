"""The witness tables show only what the sources state: every cell is a statement of the catalogue's
provenance, found in a stored copy of its source, under the person or body whose rules it gives.

The tables are the ``witness-table`` directive of ``sources/witnesses.md``; these tests read the same
lines the page does and the rows the directive builds from them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tafl_rules import catalogue
from tafl_rules.errors import RulesError

ROOT = Path(__file__).resolve().parents[1]

from tafl_sphinx.texts import Library
from tafl_sphinx.witnesses import POINTS, parse_selectors, witness_rows

LIBRARY = Library(ROOT / "sources" / "texts")


def page_tables() -> dict[str, list[tuple[str, str]]]:
    """'Writer / Rule set' -> selectors, as sources/witnesses.md lists them."""
    text = (ROOT / "sources" / "witnesses.md").read_text(encoding="utf-8")
    block = re.search(r"```\{witness-table\}\n(.*?)```", text, re.S).group(1)
    out = {}
    for line in block.splitlines():
        if line.strip():
            heading, _, keys = line.partition(":")
            out[heading.strip()] = parse_selectors(keys)
    return out


TABLES = page_tables()


def rows(writer_prefix: str) -> dict[str, list]:
    name = next(n for n in TABLES if n.startswith(writer_prefix))
    return witness_rows(TABLES[name])


def catalogue_statements() -> set[tuple[str, str, str]]:
    found = set()
    for v in catalogue.variants():
        for prov in v.provenance.values():
            found |= {(s.source, s.locator, s.passage) for s in prov.statements}
        for toggle in v.toggles.values():
            for reading in toggle.readings.values():
                found |= {(s.source, s.locator, s.passage) for s in reading.provenance.statements}
    return found


def test_every_cell_is_a_statement_of_the_catalogue_found_in_a_stored_copy():
    known = catalogue_statements()
    cells = 0
    for name, selectors in TABLES.items():
        for point, found in witness_rows(selectors).items():
            for w in found:
                st = w.statement
                assert (st.source, st.locator, st.passage) in known, (name, point, st)
                finding = LIBRARY.check(st.source, st.locator, st.passage)
                assert finding.status is not None, (name, point, finding.problem)
                assert w.used_in, (name, point, st)
                cells += 1
    assert cells > 100


def test_every_rule_set_states_something_and_leaves_the_rest_not_stated():
    for name, selectors in TABLES.items():
        found = witness_rows(selectors)
        assert set(found) == {p for p, _, _ in POINTS}
        assert any(found.values()), f"{name}: no statement"


def test_a_source_without_special_squares_is_not_credited_with_a_throne_rule():
    """Cyningstan and Hagbard say there is no special square: the centre-square row gives that, and
    nothing about who may stop on a throne (the old table printed the engine's inert 'king')."""
    for writer in ("Damian Walker (Cyningstan) / Tawlbwrdd, the compact", "Hagbard"):
        centre = rows(writer)["throne"]
        assert centre, writer
        for w in centre:
            words = (w.statement.passage + " " + w.statement.says).lower()
            assert "no special" in words or "no mention" in words, (writer, w.statement)


def test_a_passage_speaks_only_to_the_point_it_is_about():
    """Copenhagen's rule 10 (as Walker sums it up) is about the corners as the king's goal, not the edge
    fort or hostile corners, though the toggle reading it backs changes those too."""
    walker = rows("Damian Walker (Cyningstan) / Copenhagen")
    rule_10 = [p for p, found in walker.items() for w in found if w.statement.locator == "rule 10"]
    assert set(rule_10) <= {"escape", "encirclement"}, rule_10
    assert not rows("Aage Nielsen, Adam Bartley")["edge_fort"] or all(
        w.statement.locator == "'Short overview'" for w in rows("Aage Nielsen, Adam Bartley")["edge_fort"])


def test_bells_rules_are_bells_with_the_kings_exception():
    bell = rows("R. C. Bell")
    sandwich = bell["sandwich"]
    assert sandwich and all("only the king" in w.statement.says for w in sandwich)
    assert any(w.statement.locator == "cyningstan, 30 June 2015" for w in bell["throne"])
    # Walker's own rule (any piece may rest between two) is in his BrainKing table, not Bell's
    assert any("any piece" in w.statement.says for w in rows("Damian Walker (Cyningstan) / Tawlbwrdd following")["sandwich"])


def test_each_post_is_its_writers():
    hagbard = rows("Hagbard")
    posts = {w.statement.locator for found in hagbard.values() for w in found}
    assert posts and all(p.startswith("Hagbard") for p in posts)
    everyone = [w for sel in TABLES.values() for found in witness_rows(sel).values() for w in found]
    walker_post = [w for w in everyone if w.statement.locator.startswith("cyningstan, 30 June 2015")]
    assert walker_post and all(w.work == "bell1979" for w in walker_post)


def test_ludii_tawlbwrdd_and_tablut_have_tables_of_their_own():
    for prefix in ("Digital Ludeme Project (Ludii) / Tawlbwrdd, ruleset Cyningstan",
                   "Digital Ludeme Project (Ludii) / Tablut, ruleset Linnaeus"):
        found = rows(prefix)
        assert sum(1 for f in found.values() if f) >= 5, prefix
        assert all(w.statement.source == "ludii" for f in found.values() for w in f)


def test_a_summary_needs_a_passage():
    with pytest.raises(RulesError, match="describe a passage"):
        catalogue.Provenance("cyningstan-compact", "rule 1", filler="modern filler: proposed by x", says="no throne")
    with pytest.raises(RulesError, match="verbatim passage"):
        catalogue.Provenance.from_dict({"source": "x", "locator": "y", "passage": "z",
                                        "also": [{"source": "ludii", "locator": "l"}]}, "test")
