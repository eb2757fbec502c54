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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from tafl_sphinx import bibstyle, collation, quotes, unmarked, woodcut  # noqa: E402

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
    (tmp_path / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'docs' / '_ext')!r})\nsys.path.insert(0, {str(ROOT)!r})\n"
        "extensions = ['myst_parser', 'sphinx_design', 'sphinxcontrib.bibtex', 'tafl_sphinx']\n"
        "tafl_runtime = False\n"
        f"bibtex_bibfiles = [{str(ROOT / 'docs' / 'references.bib')!r}]\n")
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


@pytest.mark.parametrize("module", [bibstyle, collation, quotes, unmarked, woodcut])
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
