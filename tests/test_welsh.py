"""The site in Welsh (issue 40): the second tree of pages at /cy/, its catalogues, and the links
between the two trees (tafl_sphinx.language).

The built site is the one ``make site`` made (Welsh tree first, then English), read as it is when
it was built from scratch and nothing has changed since (as in CI); otherwise both trees are built
here, with warnings as errors, and without the board's runtime, which these tests do not run."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urljoin

import pytest
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from docutils import nodes

from conftest import ROOT, SITE, _built_from_scratch_and_current
from tafl_sphinx.language import LANGUAGES, page_text

LOCALE = ROOT / "locale" / "cy" / "LC_MESSAGES"
VARIANT_PAGES = sorted(f"docs/variants/{p.stem}" for p in (ROOT / "docs" / "variants").glob("*.md") if p.stem != "index")
#: The pages translated whole (issue 40, point 3), the variant pages with their toggles.
TRANSLATED = ["index", "docs/playing", "docs/glossary", "docs/offline", "docs/not-kept", "docs/variants/index", *VARIANT_PAGES]
#: Sections of a page left in English for now (none: the variant pages' toggles are translated).
ENGLISH_SECTIONS: set[str] = set()


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    if _built_from_scratch_and_current(SITE) and (SITE / "cy" / "index.html").is_file():
        return SITE
    out = tmp_path_factory.mktemp("bilingual")
    for extra, target in ((["-D", "language=cy"], out / "cy"), ([], out)):
        result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                                 "-D", "tafl_runtime=0", *extra, str(ROOT), str(target)], capture_output=True, text=True)
        assert result.returncode == 0, f"sphinx -W {' '.join(extra)} failed:\n{result.stderr}"
        assert "WARNING" not in result.stderr, result.stderr
    return out


def pages(tree: Path) -> list[Path]:
    return sorted(p for p in tree.rglob("*.html") if "cy" not in p.relative_to(tree).parts[:1] or tree.name == "cy")


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def page_paths(site: Path) -> list[str]:
    """Every page of the English tree that Sphinx wrote (not the redirect of an old address)."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                  if p.relative_to(site).parts[0] != "cy" and 'hreflang="x-default"' in p.read_text(encoding="utf-8"))


def test_every_page_is_in_both_trees_with_its_language_and_links_both_ways(site):
    paths = page_paths(site)
    assert len(paths) > 50 and "docs/variants/lewis-1.html" in paths
    for path in paths:
        for code, here in (("en", site / path), ("cy", site / "cy" / path)):
            assert here.is_file(), f"{path} has no {code} page"
            html = soup(here)
            assert html.html["lang"] == code, (path, code)
            links = {link["hreflang"]: urljoin(f"http://x/{'' if code == 'en' else 'cy/'}{path}", link["href"])
                     for link in html.find_all("link", rel="alternate", hreflang=True)}
            assert links == {"en": f"http://x/{path}", "cy": f"http://x/cy/{path}", "x-default": f"http://x/{path}"}, (path, code)
            switch = html.select("nav.tafl-language a[hreflang]")
            other = "cy" if code == "en" else "en"
            assert [(a["hreflang"], urljoin(f"http://x/{'' if code == 'en' else 'cy/'}{path}", a["href"])) for a in switch] == \
                [(other, links[other])], f"the language switch of {code}/{path} leads to the same page in the other language"


def test_the_welsh_tree_runs_the_english_trees_runtime_and_holds_no_copy_of_it(site):
    welsh = site / "cy"
    assert not (welsh / "_static" / "pyodide").exists() and not (welsh / "manifest.webmanifest").exists()
    assert not list(welsh.rglob("tafl-snapshot.bin")) and not (welsh / "tafl-sw.js").exists()
    html = soup(welsh / "docs" / "variants" / "lewis-1.html")
    base = "http://x/cy/docs/variants/lewis-1.html"
    scripts = {Path(urljoin(base, s["src"].split("?")[0])).name: urljoin(base, s["src"]) for s in html.find_all("script", src=True)}
    for name in ("tafl-board.mjs", "tafl-app.mjs", "tafl-language.js"):
        assert scripts[name].startswith(f"http://x/_static/{name}"), scripts[name]
    assert scripts["documentation_options.js"].startswith("http://x/cy/_static/"), "the tree's own Sphinx files stay its own"
    boot = html.find("script", attrs={"data-worker": True})
    assert urljoin(base, boot["data-worker"]) == "http://x/_static/tafl-worker.mjs"
    assert urljoin(base, html.find("link", rel="manifest")["href"]) == "http://x/manifest.webmanifest"


def test_the_makefile_builds_every_language_of_conf_py():
    conf: dict[str, object] = {}
    exec(compile((ROOT / "conf.py").read_text(), "conf.py", "exec"), conf)
    languages = list(conf["tafl_languages"])  # type: ignore[call-overload]
    assert languages[0] == conf["language"] == "en"
    made = re.search(r"^TRANSLATIONS := (.*)$", (ROOT / "Makefile").read_text(), re.M)
    assert made and made.group(1).split() == languages[1:]


def catalogue(docname: str):
    with (LOCALE / f"{docname}.po").open("rb") as handle:
        return read_po(handle)


@pytest.mark.parametrize("docname", TRANSLATED)
def test_every_message_of_a_translated_page_has_its_welsh_marked_for_review(docname):
    messages = [m for m in catalogue(docname) if m.id]
    assert messages
    assert [m.id for m in messages if not m.string] == [], f"{docname}.po: messages without Welsh"
    assert [m.id for m in messages if not m.fuzzy] == [], f"{docname}.po: entries no Welsh speaker has checked must be fuzzy"


WORDS = re.compile(r"\{[a-z:-]+\}`[^`]*`|<[^>]+>|`[^`]*`")


def has_words(text: str) -> bool:
    """Whether a message has words to translate once its roles, markup and code are left out."""
    return bool(re.search(r"[A-Za-z]{2}", WORDS.sub("", text)))


def untranslated(site: Path, docname: str) -> list[str]:
    """The messages the Welsh build of ``docname`` left in English (Sphinx marks each translatable
    node ``translated``), but for those the catalogue keeps as they are (a Welsh headword, a name)
    and those with no words (a citation alone), and the sections left in English for now."""
    doctree = pickle.loads((site / "cy" / ".doctrees" / f"{docname}.doctree").read_bytes())
    kept = {m.id for m in catalogue(docname) if m.id and m.string == m.id}
    left = []
    for node in doctree.findall(lambda n: isinstance(n, nodes.Element) and "translated" in n):
        if node["translated"]:
            continue
        if any(isinstance(a, nodes.section) and set(a["ids"]) & ENGLISH_SECTIONS for a in _ancestors(node)):
            continue
        text = " ".join(node.rawsource.split())
        if text in kept or not has_words(text):
            continue
        left.append(text)
    return left


def _ancestors(node: nodes.Node):
    while node.parent is not None:
        node = node.parent
        yield node


@pytest.mark.parametrize("docname", TRANSLATED)
def test_no_message_is_left_in_english_on_a_translated_page(site, docname):
    assert untranslated(site, docname) == []


def test_a_page_left_in_english_says_so_in_welsh_and_a_translated_one_says_it_awaits_review(site):
    def note(path: str) -> str:
        found = soup(site / "cy" / path).select_one("article p.tafl-translation-note")
        return found.get_text(" ", strip=True) if found else ""
    assert note("docs/playing.html").startswith("Mae'r cyfieithiad hwn yn aros am adolygiad gan siaradwr Cymraeg")
    assert "locale/cy/LC_MESSAGES/docs/playing.po" in note("docs/playing.html")
    assert note("docs/variants/lewis-1.html").startswith("Mae'r cyfieithiad hwn yn aros am adolygiad gan siaradwr Cymraeg")
    assert note("docs/fairest.html") == "Saesneg yw iaith y dudalen hon am y tro."
    assert note("sources/ap-ifan.html").startswith("Mae sylwebaeth y dudalen hon yn Saesneg o hyd")
    assert not soup(site / "docs" / "playing.html").select("p.tafl-translation-note"), "English pages carry no note"


#: Words the theme shows on every page, which the Welsh tree must show in Welsh.
THEME_LABELS = ["Skip to main content", "Back to top", "Color mode", "System Settings", "Toggle primary sidebar",
                "Toggle secondary sidebar", "Search the site…", "Contents", "By the Tawlbwrdd project", "previous page",
                "next page", "Skip to the board", "Pages under The sources"]


def test_the_welsh_pages_show_the_themes_labels_in_welsh(site):
    for path in ("docs/variants/lewis-1.html", "docs/playing.html"):
        for tree, expect_english in ((site, True), (site / "cy", False)):
            html = (tree / path).read_text(encoding="utf-8")
            shown = [label for label in THEME_LABELS if label in html]
            if expect_english:
                assert "Skip to main content" in shown and "Toggle primary sidebar" in shown, "the labels checked are the theme's own"
            else:
                assert shown == [], f"cy/{path} shows {shown}"
    welsh = soup(site / "cy" / "docs" / "variants" / "lewis-1.html")
    assert welsh.select_one("nav.tafl-language")["aria-label"] == "Iaith"
    assert welsh.find("input", placeholder=True)["placeholder"] == "Chwilio'r wefan…"


#: How a quotation not found in a copy of its source is marked (tafl_sphinx.quotes), in each language.
STATUS_LABELS = {"en": {"(second-hand)", "(unverified)"}, "cy": {"(ail-law)", "(heb ei wirio)"}}


def test_the_quotations_status_labels_on_the_welsh_variant_pages_are_welsh(site):
    shown = 0
    for docname in VARIANT_PAGES:
        english = [s.get_text() for s in soup(site / f"{docname}.html").select(".tafl-q .tafl-status")]
        welsh = [s.get_text() for s in soup(site / "cy" / f"{docname}.html").select(".tafl-q .tafl-status")]
        assert set(english) <= STATUS_LABELS["en"] and set(welsh) <= STATUS_LABELS["cy"], (docname, set(welsh))
        assert len(welsh) == len(english), docname
        shown += len(welsh)
    assert shown > 20, "the labels checked are there to be checked"


#: The words of a drawn figure's key and description (tafl_sphinx.figure_key, tafl_rules.svg) in English.
FIGURE_ENGLISH = ["Attacker", "Defender", "King", "Throne", "Corner square", "Camp (the attackers' start squares)",
                  "Outlined:", "Key to the figure", "Attackers (", "Defenders (", "King:", "Corner squares:", "Camps:",
                  "Marked:", ": start position"]


def figure_words(html: BeautifulSoup) -> list[str]:
    """The words of a page's drawn figures: their keys (and the key's name), descriptions, titles and captions."""
    words = []
    for figure in html.select("div.tafl-figure"):
        words += [li.get_text(" ", strip=True) for li in figure.select("ul.tafl-figure-key li")]
        words += [ul["aria-label"] for ul in figure.select("ul.tafl-figure-key")]
        words += [t.get_text() for t in figure.select("svg title, svg desc, .tafl-figure-caption")]
    return words


@pytest.mark.parametrize("docname", VARIANT_PAGES)
def test_the_figures_drawn_on_a_welsh_variant_page_are_keyed_and_described_in_welsh(site, docname):
    english = figure_words(soup(site / f"{docname}.html"))
    welsh = figure_words(soup(site / "cy" / f"{docname}.html"))
    assert "Attacker" in english and any(w.startswith("Attackers (") for w in english), "the words checked are the figure's"
    assert len(welsh) == len(english)
    left = [(w, e) for w in welsh for e in FIGURE_ENGLISH if e in w]
    assert left == [], f"cy/{docname}: {left[:3]}"
    assert "Ymosodwr" in welsh and "Allwedd y ffigur" in welsh


#: What the Welsh variant pages still show in English, by part of the page (a name of :data:`PARTS`),
#: with the number of English text runs it shows over all the variant pages: none is left. The
#: dropdown of rules about squares a game lacks and the self-play table are built by directives
#: whose cells Sphinx's i18n does not reach; they are said in Welsh by the directives themselves
#: (variant_pages.absent_rows_md, balance.BalanceRow, through locale/cy/LC_MESSAGES/sphinx.po).
STILL_ENGLISH: dict[str, tuple[str, int]] = {}
#: The parts of a variant page that were left in English, and how a text run is known to be in one.
PARTS = {
    "dropdown": lambda run: run.find_parent("details") is not None,
    "self-play": lambda run: run.find_parent("table") is not None and any(
        s.get("id") == "how-it-fared-in-self-play" for s in run.find_parents("section")),
}
#: English words a Welsh sentence may hold: the title of a work it names.
TITLES = ("Board and Table Games",)
_ENGLISH = re.compile(r"\b(the|and|of|is|are|may|with|who|which|when|wins?|by|over|on|Games|Draws|Plies|level)\b")
_LOCATOR = re.compile(r"^, .*:$")  # a citation's locator: the source's own heading, in its language


def english_runs(path: Path) -> tuple[dict[str, int], list[str]]:
    """The English text runs of a page's article, by the part of STILL_ENGLISH they are in, and
    those in no such part; quotations, links (names of pages and works) and locators left out."""
    html = soup(path)
    counts = {area: 0 for area in STILL_ENGLISH}
    other = []
    for run in html.select_one("article").find_all(string=True):
        text = " ".join(run.split())
        for title in TITLES:
            text = text.replace(title, "")
        if run.find_parent(["script", "style", "a"]) or run.find_parent(class_="tafl-q") or _LOCATOR.match(text) \
                or not _ENGLISH.search(text):
            continue
        area = next((area for area in STILL_ENGLISH if PARTS[area](run)), None)
        if area is None:
            other.append(text)
        else:
            counts[area] += 1
    return counts, other


def test_what_the_welsh_variant_pages_still_show_in_english_is_named_and_counted(site):
    total = {area: 0 for area in STILL_ENGLISH}
    for docname in VARIANT_PAGES:
        counts, other = english_runs(site / "cy" / f"{docname}.html")
        assert other == [], f"cy/{docname} shows English outside the parts named in STILL_ENGLISH: {other[:3]}"
        for area, count in counts.items():
            total[area] += count
    assert total == {area: count for area, (_, count) in STILL_ENGLISH.items()}


@pytest.mark.parametrize("docname", ["docs/variants/lewis-1", "docs/variants/brandubh"])
def test_the_parts_once_left_in_english_are_there_in_welsh_and_the_check_sees_their_english(site, docname):
    """The dropdown and the self-play table are on the Welsh page, as many rows as on the English
    one, with Welsh headings; and the English page's, read as a Welsh one, would fail the check."""
    for part, heading in (("details.sd-dropdown", "Rheol"), ("#how-it-fared-in-self-play table", "Gemau")):
        english, welsh = (soup(tree / f"{docname}.html").select_one(part) for tree in (site, site / "cy"))
        assert len(welsh.select("tr")) == len(english.select("tr")) > 1, (docname, part)
        assert heading in [th.get_text(strip=True) for th in welsh.select("th")], (docname, part)
    _, english = english_runs(site / f"{docname}.html")
    html = soup(site / f"{docname}.html")
    in_parts = {" ".join(run.split()) for run in html.select_one("article").find_all(string=True)
                if any(found(run) for found in PARTS.values())}
    assert {"Every rule point has a value, even where it cannot matter; these are they.", "Games", "Draws"} \
        <= in_parts & set(english)


def test_the_self_play_tables_welsh_headings_break_where_the_english_ones_can():
    """The Welsh headings of a variant page's self-play table (balance.TABLE_HEADINGS, said through
    sphinx.po) hold no word longer than the English headings' longest, a soft hyphen counting as a
    place to break: longer ones made the table 753 px wide in a 688 px column at 1280x800."""
    from tafl_sphinx.balance import TABLE_HEADINGS
    with (LOCALE / "sphinx.po").open("rb") as handle:
        welsh = {m.id: m.string for m in read_po(handle) if m.id in TABLE_HEADINGS}
    assert sorted(welsh) == sorted(TABLE_HEADINGS) and all(welsh.values())
    longest = max(len(word) for heading in TABLE_HEADINGS for word in heading.split())
    parts = {part for heading in TABLE_HEADINGS for part in re.split(r"[\s\u00ad]+", welsh[heading])}
    assert sorted(part for part in parts if len(part) > longest) == []

def _project_saying(root: Path, word: str) -> SimpleNamespace:
    """A build environment (as much of one as page_text reads) of a Welsh project at ``root`` whose
    page ``page`` translates "Brandubh" as ``word``."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalogue = Catalog(locale="cy", domain="page")
    catalogue.add("Brandubh", word)
    (root / "locale" / "cy" / "LC_MESSAGES").mkdir(parents=True)
    with (root / "locale" / "cy" / "LC_MESSAGES" / "page.mo").open("wb") as handle:
        write_mo(handle, catalogue)
    config = SimpleNamespace(language="cy", tafl_languages=LANGUAGES, locale_dirs=["locale"], gettext_compact=True)
    return SimpleNamespace(config=config, srcdir=str(root), docname="page")


def test_a_directives_words_are_translated_by_its_own_projects_catalogue_however_often_asked(tmp_path):
    """page_text answers from the catalogue of the project being built, not of one built before it
    in the same process (sphinx.locale.init's table of catalogues is keyed by domain alone)."""
    first, second = _project_saying(tmp_path / "a", "Brân-ddu"), _project_saying(tmp_path / "b", "Du'r frân")
    assert [page_text(first, "Brandubh") for _ in range(3)] == ["Brân-ddu"] * 3
    assert [page_text(second, "Brandubh") for _ in range(3)] == ["Du'r frân"] * 3
    assert page_text(second, "Tablut") == "Tablut"
