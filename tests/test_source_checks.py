"""The quotation checks see every place a page can put words in quotation marks, and say where to mend them.

Each test builds a tiny Sphinx project with the site's extension and one page, and shows that the
build stops (under -W) on a changed word in a parallel-text note, on words in quotation marks that are
not a checked quotation, and that a quotation on a generated variant page is reported at its data file.
"""

from __future__ import annotations

import doctest
import re
import sys
from pathlib import Path

import pytest

from tiny_project import FOLDERS, Built, build, build_alone, conf

ROOT = Path(__file__).resolve().parents[1]

from tafl_sphinx import (apidoc, bib, bibstyle, collation, figure_key, layouts, links, quotes, roots, texts, unmarked,
                         util, variant_pages, woodcut, words)

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


def tiny(make_app, tmp_path: Path, pages: dict[str, str]) -> Built:
    (tmp_path / "conf.py").write_text(conf(['myst_parser', 'sphinx_design', 'sphinxcontrib.bibtex', 'tafl_sphinx'],
                                           bibliography=True))
    for name, body in pages.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(body, encoding="utf-8")
    return build(make_app, tmp_path)


def test_a_parallel_text_note_with_its_quotation_right_builds(make_app, tmp_path):
    note = "Smith: {q}`except the king <linnaeus1811: law 9>`; the Latin {q}`item Rex <linnaeus1732: law 9>`."
    result = tiny(make_app, tmp_path, {"index.md": PARALLEL.format(note=note)})
    assert result.returncode == 0, result.stderr


def test_a_changed_word_in_a_parallel_text_note_stops_the_build(make_app, tmp_path):
    note = "Smith: {q}`except the queen <linnaeus1811: law 9>`."
    result = tiny(make_app, tmp_path, {"index.md": PARALLEL.format(note=note)})
    assert result.returncode != 0
    assert "quotation not verified" in result.stderr and "except the queen" in result.stderr


def test_words_in_quotation_marks_in_a_parallel_text_note_stop_the_build(make_app, tmp_path):
    note = 'the attackers, hence Murray\'s "those who lie in wait".'
    result = tiny(make_app, tmp_path, {"index.md": PARALLEL.format(note=note)})
    assert result.returncode != 0
    assert "in no stored copy" in result.stderr and "those who lie in wait" in result.stderr


def test_words_in_quotation_marks_anywhere_on_a_page_stop_the_build_but_a_title_does_not(make_app, tmp_path):
    result = tiny(make_app, tmp_path, {"index.md": '# T\n\nJones wrote "A Brief Look at Some Welsh Games".\n'})
    assert result.returncode == 0, result.stderr
    result = tiny(make_app, tmp_path, {"index.md": '# T\n\n- a list item says "the king is taken by two".\n'})
    assert result.returncode != 0 and "the king is taken by two" in result.stderr


def test_a_quotation_on_a_variant_page_is_reported_at_its_data_file(make_app, tmp_path):
    body = "# V\n\nNote: {q}`is not liable to this calamity <linnaeus1811: law 9>`.\n"
    index = "# T\n\n```{toctree}\ndocs/variants/tablut-smith\n```\n\n```{bibliography}\n```\n"
    result = tiny(make_app, tmp_path, {"index.md": index, "docs/variants/tablut-smith.md": body})
    assert result.returncode != 0
    assert "tafl_rules/variants/tablut-smith.toml" in result.stderr
    assert "docs/variants/tablut-smith.md is generated" in result.stderr


@pytest.mark.parametrize("module", [apidoc, bib, bibstyle, collation, figure_key, layouts, links, quotes, roots, texts,
                                    unmarked, util, variant_pages, woodcut, words])
def test_the_extension_examples_run(module):
    result = doctest.testmod(module)
    assert result.failed == 0


def test_the_apparatus_follows_the_stored_copies():
    from tafl_sphinx.texts import library

    by_name = {w.name: w for w in library(FOLDERS.texts).witnesses}
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

    lib = library(FOLDERS.texts)
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


# --- every place a page can quote a source -------------------------------------------------------

#: Each place a quotation can stand, with its words right and with one word changed (the marker the
#: build's warning must name). The places: the prose of a page ({q}, a block quotation, words in double
#: or single curly quotation marks, a run of fewer than four words), a page of the fairest-game series,
#: a note of the bibliography, the description of a stored copy on the stored-texts page, and a
#: docstring on the API page.
PLACES = {
    "q role": ("{q}`except the king <linnaeus1811: law 9>`", "{q}`except the queen <linnaeus1811: law 9>`", "except the queen"),
    "quotation block": ("```{quotation} linnaeus1811: law 8\nThe Swedes and the Muscovites take it by turns to move.\n```",
                        "```{quotation} linnaeus1811: law 8\nThe Swedes and the Muscovites take it by turns to walk.\n```",
                        "take it by turns to walk"),
    "double quotation marks": ('Murray: "twenty-four lie in wait to capture him".',
                               'Murray: "twenty-four lie in wait to seize him".', "lie in wait to seize him"),
    "single curly quotation marks": ("Murray: ‘you can catch him’.", "Murray: ‘you can snatch him’.", "you can snatch him"),
    "a run of two words": ("The Latin: “item Rex”.", "The Latin: “idem Rex”.", "idem Rex"),
}
SHOWN = {  # places whose text a page shows but does not write in MyST
    "fairest page": ("seventeen",), "bibliography note": ("taken from Cyningstan",),
    "stored-texts page": ("given by Cyningstan",), "API docstring": ("forced to answer",),
}
FAIREST = 'Jones: "These totals imply that towlbwrdd is played with a king and {n} men against sixteen men."\n'
EXTRA_BIB = ("@misc{{extra-note, author={{Tester}}, title={{A test entry}}, year={{2026}},\n"
             "  note={{Its tawlbwrdd uses ``the Bell layout {how} Cyningstan''}}}}\n")
QUOTED_MOD = '"""OpenTafl\'s notes say "the player forced to {verb} loses"."""\n'


def _quote_project(root: Path, bad: bool) -> Built:
    """A project with every place holding a quotation, each right or each with one word changed."""
    import shutil

    texts = root / "texts"
    shutil.copytree(ROOT / "sources" / "texts", texts)
    header = texts / "opentafl.txt"
    header.write_text(header.read_text(encoding="utf-8").replace(
        'copy = "OpenTafl\'s README.txt,',
        f'copy = "OpenTafl\'s README.txt (\\"using the Bell layout {"given by" if bad else "given at"} Cyningstan\\"),'),
        encoding="utf-8")
    (root / "extra.bib").write_text(EXTRA_BIB.format(how="taken from" if bad else "given at"), encoding="utf-8")
    (root / "quotedmod.py").write_text(QUOTED_MOD.format(verb="answer" if bad else "respond"), encoding="utf-8")
    sys.modules.pop("quotedmod", None)  # this project's own module (the builds share one process)
    lines = conf(['myst_parser', 'sphinx_design', 'sphinxcontrib.bibtex', 'sphinx.ext.autodoc', 'tafl_sphinx'],
                 bibliography=True).replace(repr(str(ROOT / "sources" / "texts")), repr(str(texts)))
    lines += ("bibtex_bibfiles.append('extra.bib')\nbibtex_default_style = 'tafl'\n"
              "import sys, os\nsys.path.insert(0, os.path.abspath('.'))\n")
    (root / "conf.py").write_text(lines, encoding="utf-8")
    prose = "\n\n".join(bad_md if bad else good for good, bad_md, _ in PLACES.values())
    pages = {
        "index.md": "# T\n\n```{toctree}\npage\ndocs/fairest\ntexts\napi\n```\n\n" + prose
                    + "\n\nA citation: {cite:t}`extra-note`.\n\n```{bibliography}\n:filter: cited\n```\n",
        "page.md": "# P\n\nNothing quoted.\n",
        "docs/fairest.md": "# F\n\n" + FAIREST.format(n="seventeen" if bad else "eight"),
        "texts.md": "# S\n\n```{stored-texts}\n```\n",
        "api.md": "# A\n\n```{api-modules} quotedmod\n```\n",
    }
    for name, body in pages.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body, encoding="utf-8")
    return build_alone(root)


@pytest.fixture(scope="module")
def quoted_builds(tmp_path_factory):
    return (_quote_project(tmp_path_factory.mktemp("right"), bad=False),
            _quote_project(tmp_path_factory.mktemp("wrong"), bad=True))


def test_every_place_with_its_quotation_right_builds(quoted_builds):
    right, _ = quoted_builds
    assert right.returncode == 0, right.stderr[-3000:]


@pytest.mark.parametrize("place", [*PLACES, *SHOWN])
def test_one_changed_word_in_a_quotation_stops_the_build(quoted_builds, place):
    _, wrong = quoted_builds
    marker = PLACES[place][2] if place in PLACES else SHOWN[place][0]
    assert wrong.returncode != 0
    named = [line for line in wrong.stderr.splitlines() if marker in line]
    assert named, f"{place}: no warning names {marker!r}\n{wrong.stderr[-3000:]}"


def test_the_latin_apparatus_collates_the_1913_edition():
    """F (the 1913 edition as the BrainKing poster gives it) against C (1889) and J: etiam Rex, in 3, and a
    with a Greek letter (the poster's braced remark left out)."""
    from tafl_sphinx.texts import library

    by_name = {w.name: w for w in library(FOLDERS.texts).witnesses}
    c, f, j = (by_name[n] for n in ("linnaeus1732-cyningstan", "linnaeus1732-brainking", "linnaeus1732-jocari"))
    assert ("item", "etiam") in collation.variants(c.unit("law 9").text, f.unit("law 9").text)
    assert ("2", "3") in collation.variants(c.unit("law 10").text, f.unit("law 10").text)
    assert collation.variants(f.unit("law 11").text, j.unit("law 11").text) == [("alfa", "a")]
    assert collation.variants(f.unit("law 13").text, j.unit("law 13").text) == [("(breaks off)", "phalangibus disponendis.")]


def test_the_court_justice_is_given_from_wade_evans_manuscript_with_his_references():
    from tafl_sphinx.texts import library

    lib = library(FOLDERS.texts)
    harley = next(w for w in lib.witnesses if w.name == "rhyddiaith-harl4353")
    assert harley.unit("6r").text.startswith("NY dyry ygnat llys")
    assert harley.unit("6r").text.endswith("O|r gỽrthỽynepa neb barn yr ygnat")  # the line he calls V 6 a 25
    assert lib.check("wadeevans1909", "the judge of the court, notes", "V 6 a 25").status == "verified"
    english = lib.check("wadeevans1909", "the judge of the court, from V 6 a 25",
                        "If any one opposes the judgment of the judge of a court")
    assert english.status == "verified" and "djvu/261" in english.where


def _url(text: str) -> str:
    text = re.sub(r"^https?://(www\.)?", "", text.strip().rstrip("/"))
    return re.sub(r"[&?](view=print|sid=[0-9a-f]+)", "", text)


def test_every_source_the_fairest_pages_cite_is_in_the_bibliography():
    import json

    from pybtex.database import parse_file

    urls = {_url(e.fields["url"]) for e in parse_file(str(ROOT / "docs" / "references.bib")).entries.values()
            if "url" in e.fields}
    results = json.loads((ROOT / "docs" / "data" / "human-results.json").read_text(encoding="utf-8"))["results"]
    cited = {_url(r["source"]["url"]): r["source"]["title"] for r in results if r.get("source", {}).get("url")}
    missing = sorted(f"{title} ({url})" for url, title in cited.items() if url not in urls)
    assert not missing, missing
