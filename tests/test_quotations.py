"""Every quotation is found, word for word, in a stored copy of the source it cites, at the locator it gives.

The stored copies are in ``sources/texts`` (see ``docs/_ext/tafl_sphinx/texts.py``). The status
of a quotation (verified, second-hand, unverified) is computed from the copy it is found in,
never typed. Quotations on the pages are checked while the site builds (a quotation not found is
a build error; ``tests/test_content.py`` reads the build's report); here the catalogue's
passages, the stored copies themselves, and the check's own behaviour.
"""

from __future__ import annotations

import collections
import re
from pathlib import Path

import pytest

from tafl_rules import catalogue

ROOT = Path(__file__).resolve().parents[1]

from tafl_sphinx.texts import GRADES, Library, TextError, fragments, normalize, parse_witness

LIBRARY = Library(ROOT / "sources" / "texts")
BIB = set(re.findall(r"@\w+\{([^,\s]+),", (ROOT / "docs" / "references.bib").read_text(encoding="utf-8")))


def catalogue_passages():
    """(variant or toggle file, where, statement) for every passage of the catalogue, each once: a rule's
    own, the ``also`` statements beside it, and each reading's."""
    seen = set()
    for v in catalogue.variants():
        entries = [(f"{v.id} rule {f}", s) for f, p in v.provenance.items() for s in p.statements]
        entries += [(f"{v.id} toggle {t.name}={value}", s)
                    for t in v.toggles.values() for value, r in t.readings.items() for s in r.provenance.statements]
        for where, p in entries:
            key = (p.source, p.locator, p.passage)
            if key not in seen:
                seen.add(key)
                yield where, p


def raw_passages():
    """Every ``passage`` written in the data files (the count the issue reports: each occurrence)."""
    for path in sorted((Path(catalogue.__file__).parent / "variants").glob("*.toml")):
        yield from ((path.name, m.group(1)) for m in re.finditer(r'^passage = "(.*)"$', path.read_text(encoding="utf-8"), re.M))


def test_every_catalogue_passage_is_found_at_its_locator():
    problems, status = [], collections.Counter()
    for where, p in catalogue_passages():
        finding = LIBRARY.check(p.source, p.locator, p.passage)
        status[finding.status] += 1
        if finding.status is None:
            problems.append(f"{where}: {finding.problem}")
    assert not problems, "\n".join(problems[:10])
    assert sum(status.values()) > 150


def test_count_of_passages_by_status(capsys):
    """Prints the counts (every occurrence in the data files, as the catalogue writes them)."""
    counts = collections.Counter()
    by_source: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    data = catalogue._data_files()
    for name, d in data.items():
        def walk(x):
            if isinstance(x, dict):
                if "passage" in x:
                    s = LIBRARY.check(x["source"], x["locator"], x["passage"]).status
                    counts[s] += 1
                    by_source[x["source"]][s] += 1
                for value in x.values():
                    walk(value)
            elif isinstance(x, list):  # the ``also`` statements of a rule point
                for value in x:
                    walk(value)
        walk(d)
    assert sum(counts.values()) == sum(1 for _ in raw_passages())
    assert counts[None] == 0
    with capsys.disabled():
        print(f"\ncatalogue passages: {sum(counts.values())} "
              + ", ".join(f"{s}: {counts[s]}" for s in GRADES))


def test_a_quotation_changed_by_one_word_is_not_found():
    finding = LIBRARY.check("linnaeus1811", "law 9", "except the king, who is not subject to this misfortune")
    assert finding.status is None and "not found" in finding.problem


def test_a_quotation_at_the_wrong_locator_is_refused_and_located():
    finding = LIBRARY.check("linnaeus1811", "law 10", "except the king, who is not liable to this misfortune")
    assert finding.status is None and "law 9" in finding.problem


def test_a_quotation_of_another_source_is_refused_and_named():
    # Walker's forum post, cited to his 2011 leaflets as it once was
    finding = LIBRARY.check("aagenielsen-forum", "Hagbard, 24 June 2015", "Bell shows the board without a central square marking")
    assert finding.status is None and "cyningstan, 30 June 2015" in finding.problem
    finding = LIBRARY.check("jones1993", "para. 'The rules described'", "Can you move a piece to be between two opponents")
    assert finding.status is None and "another source: hrjones1994" in finding.problem


def test_a_locator_that_names_nothing_is_refused():
    finding = LIBRARY.check("jones1993", "para. 'The rules described for this game are as follows' (note 4)", "All pieces")
    assert finding.status is None and "names nothing" in finding.problem


def test_ellipses_and_bracketed_insertions_split_a_quotation_into_pieces_in_order():
    assert fragments("confin[ing] him so … moving") == ["confin", "him so", "moving"]
    ok = LIBRARY.check("jones1993", "para. 'The rules described'", "wins by \"confin[ing] him so that he has no power of moving.\"")
    assert ok.status == "verified"
    backwards = LIBRARY.check("linnaeus1811", "law 10", "he becomes their prisoner … he may move away by the fourth")
    assert backwards.status is None


def test_status_is_the_best_grade_of_a_copy_it_is_found_in():
    assert LIBRARY.check("linnaeus1811", "law 9", "except the king").status == "verified"
    assert LIBRARY.check("linnaeus1732", "law 9", "item Rex").status == "second-hand"
    assert LIBRARY.check("murray1952", "p. 63", "there is no harm").status == "second-hand"
    assert LIBRARY.check("brandubh-rules", "'On the 7x7 board'", "just like the throne").status == "unverified"
    # found in version A (the Digital Ludeme Project) and version B (Cyningstan): both named
    both = LIBRARY.check("murray1952", "p. 63", "twenty-four lie in wait to capture him")
    assert set(both.via) == {"dlp832", "cyningstan-apifan"}
    only_a = LIBRARY.check("murray1952", "p. 63", "you can catch him")
    assert only_a.via == ("dlp832",)


def test_where_a_quotation_stands_in_the_printed_book_comes_from_the_stored_copy():
    assert LIBRARY.check("linnaeus1811", "law 10", "he becomes their prisoner").where == "vol. II, p. 58"
    assert LIBRARY.check("linnaeus1811", "laws 9-10", "misfortune").where == "vol. II, p. 57; vol. II, p. 58"


def test_a_printed_page_in_a_locator_is_checked_against_the_stored_copy():
    """A locator may name the printed page (``preface, p. iii``): it holds only where the stored copy
    records the unit on that page, so a page number cannot be typed on a page without a copy behind it."""
    assert LIBRARY.check("wadeevans1909", "preface, p. iii", "the oldest and best of its class").status == "verified"
    assert LIBRARY.check("linnaeus1811", "law 9, p. 57", "except the king").status == "verified"
    wrong = LIBRARY.check("wadeevans1909", "preface, p. iv", "the oldest and best of its class")
    assert wrong.status is None and "do not put 'preface' on p. iv" in wrong.problem and "p. iii" in wrong.problem
    # a unit whose printed page was not read takes no page at all
    unread = LIBRARY.check("wadeevans1909", "the judge of the court, p. 262", "a throw-board from the king")
    assert unread.status is None and "djvu/262" in unread.problem
    assert LIBRARY.check("linnaeus1811", "law 9, p. 5", "except the king").status is None


def test_stored_copies_are_well_formed_and_cite_known_works():
    assert len(LIBRARY.witnesses) >= 40
    for w in LIBRARY.witnesses:
        assert w.key in BIB, f"{w.name}: {w.key} is not in the bibliography"
        assert not w.via or w.via in BIB, f"{w.name}: via {w.via} is not in the bibliography"
        assert w.grade in GRADES and w.licence and w.seen and w.copy
        for unit in w.units:
            assert "research/" not in unit.text and "seed 0" not in unit.text


def test_a_malformed_copy_is_refused_by_name(tmp_path):
    bad = tmp_path / "x.txt"
    bad.write_text('+++\nkey = "x"\ngrade = "probable"\ncopy = "c"\nseen = "s"\nlicence = "l"\nextent = "full"\n+++\n\n§ a\ntext\n')
    with pytest.raises(TextError, match="grade 'probable'"):
        parse_witness(bad)
    bad.write_text('+++\nkey = "x"\ngrade = "second-hand"\ncopy = "c"\nseen = "s"\nlicence = "l"\nextent = "full"\n+++\n\n§ a\ntext\n')
    with pytest.raises(TextError, match="via"):
        parse_witness(bad)
    bad.write_text('+++\nkey = "x"\ngrade = "verified"\ncopy = "c"\nseen = "s"\nlicence = "l"\nextent = "full"\n+++\n\n'
                   "§ para. 'Once upon'\nIt was a dark night.\n")
    with pytest.raises(TextError, match="opening words"):
        parse_witness(bad)


def test_public_domain_texts_are_stored_whole_and_modern_ones_only_as_excerpts():
    smith = next(w for w in LIBRARY.witnesses if w.name == "smith1811-tablut")
    assert smith.extent == "full" and [u.label for u in smith.units if u.label.startswith("law ")] == \
        [f"law {n}" for n in range(1, 13)]
    for name in ("jones1993-welsh-l", "tawlbwrdd-wiki", "elevenrules", "cyningstan-compact", "granquist1995",
                 "copenhagen-rules", "fetlar-rules"):
        assert next(w for w in LIBRARY.witnesses if w.name == name).extent == "excerpts", name


def test_normalizing_keeps_letters_and_drops_only_typography():
    assert normalize("“taỽlbord”  _a_\u00a0to *c*") == '"taỽlbord" a to c'
