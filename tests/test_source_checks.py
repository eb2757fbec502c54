"""The quotation checks see every place a page can put words in quotation marks, and say where to mend them.

Each test builds a tiny Sphinx project with the site's extension and one page, and shows that the
build stops (under -W) on a changed word in a parallel-text note, on words in quotation marks that are
not a checked quotation, and that a quotation on a generated variant page is reported at its data file.
"""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

from tiny_project import conf

ROOT = Path(__file__).resolve().parents[1]

from tafl_sphinx import (apidoc, bib, bibstyle, collation, figure_key, layouts, links, quotes, roots, unmarked, util,
                         variant_pages, woodcut, words)

PARALLEL = """# T

```{{parallel-text}}
:left: smith1811-tablut
:right: linnaeus1732-jocari
:rows: law 9

law 9: {note}
```

```{{bibliography}}
```
"""


def tiny(tmp_path: Path, pages: dict[str, str]) -> subprocess.CompletedProcess:
    (tmp_path / "conf.py").write_text(conf(['myst_parser', 'sphinx_design', 'sphinxcontrib.bibtex', 'tafl_sphinx'],
                                           bibliography=True))
    for name, body in pages.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(body, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(tmp_path),
                           str(tmp_path / "_b")], capture_output=True, text=True)


def test_a_parallel_text_note_with_its_quotation_right_builds(tmp_path):
    note = "Smith: {q}`except the king <linnaeus1811: law 9>`; the Latin {q}`item Rex <linnaeus1732: law 9>`."
    result = tiny(tmp_path, {"index.md": PARALLEL.format(note=note)})
    assert result.returncode == 0, result.stderr


def test_a_changed_word_in_a_parallel_text_note_stops_the_build(tmp_path):
    note = "Smith: {q}`except the queen <linnaeus1811: law 9>`."
    result = tiny(tmp_path, {"index.md": PARALLEL.format(note=note)})
    assert result.returncode != 0
    assert "quotation not verified" in result.stderr and "except the queen" in result.stderr


def test_words_in_quotation_marks_in_a_parallel_text_note_stop_the_build(tmp_path):
    note = 'the attackers, hence Murray\'s "those who lie in wait".'
    result = tiny(tmp_path, {"index.md": PARALLEL.format(note=note)})
    assert result.returncode != 0
    assert "quotation check cannot see" in result.stderr and "those who lie in wait" in result.stderr


def test_words_in_quotation_marks_anywhere_on_a_page_stop_the_build_but_a_title_does_not(tmp_path):
    result = tiny(tmp_path, {"index.md": '# T\n\nJones wrote "A Brief Look at Some Welsh Games".\n'})
    assert result.returncode == 0, result.stderr
    result = tiny(tmp_path, {"index.md": '# T\n\n- a list item says "the king is taken by two".\n'})
    assert result.returncode != 0 and "the king is taken by two" in result.stderr


def test_a_quotation_on_a_variant_page_is_reported_at_its_data_file(tmp_path):
    body = "# V\n\nNote: {q}`is not liable to this calamity <linnaeus1811: law 9>`.\n"
    index = "# T\n\n```{toctree}\ndocs/variants/tablut-smith\n```\n\n```{bibliography}\n```\n"
    result = tiny(tmp_path, {"index.md": index, "docs/variants/tablut-smith.md": body})
    assert result.returncode != 0
    assert "tafl_rules/variants/tablut-smith.toml" in result.stderr
    assert "docs/variants/tablut-smith.md is generated" in result.stderr


@pytest.mark.parametrize("module", [apidoc, bib, bibstyle, collation, figure_key, layouts, links, quotes, roots, unmarked,
                                    util, variant_pages, woodcut, words])
def test_the_extension_examples_run(module):
    result = doctest.testmod(module)
    assert result.failed == 0


def test_the_apparatus_follows_the_stored_copies():
    from tafl_sphinx.texts import library

    by_name = {w.name: w for w in library().witnesses}
    salmi, dlp = by_name["linnaeus1732-salmi"], by_name["linnaeus1732-dlp"]
    found = collation.variants(salmi.unit("key, 2 et 3").text, dlp.unit("key, 2 et 3").text)
    assert ("rege", "om.") in found
    found = collation.variants(salmi.unit("key, 0").text, dlp.unit("key, 0").text)
    assert ("etiam", "item") in found
    jocari = by_name["linnaeus1732-jocari"]
    assert ("Raichi,", "Raihi,") in collation.variants(jocari.unit("law 6").text, dlp.unit("law 6").text)


def test_law_9_is_found_in_walkers_transcription_of_the_1889_edition():
    """The crux rests on a copy of a printed edition named with its pages; Walker's own words naming it are stored."""
    from tafl_sphinx.texts import library

    lib = library()
    walker = next(w for w in lib.witnesses if w.name == "linnaeus1732-cyningstan")
    assert walker.grade == "second-hand" and walker.via == "cyningstan-tablut-latin"
    assert {u.where for u in walker.units} == {"1889 edition, vol. 2, pp. 147-148"}
    assert [u.label for u in walker.units if u.label.startswith("law ")] == [f"law {n}" for n in range(1, 11)]
    found = lib.check("linnaeus1732", "law 9", "est occisus et ejici debet, item Rex.")
    assert walker in found.witnesses and found.where == "1889 edition, vol. 2, pp. 147-148"
    named = lib.check("cyningstan-tablut-latin", "introduction",
                      "transcribed from the 1889 edition of Carl von Linnés Ungdomsskrifter, volume 2, pp. 147-148.")
    assert named.status == "verified"
    jocari = next(w for w in lib.witnesses if w.name == "linnaeus1732-jocari")
    assert collation.variants(walker.unit("law 9").text, jocari.unit("law 9").text) == [("possit,", "posit,")]
