"""The site's content: it builds with -W, every variant and source has its page, every citation and
internal link resolves, and the generated pages say what the catalogue says.

One full HTML build is shared with tests/test_site_build.py (conftest's ``fresh_build``); one offline ``linkcheck`` run checks
Sphinx's own collection of links.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from tiny_project import FOLDERS, Built, build, conf

from tafl_rules import catalogue
from tafl_rules.rules import FIELDS

ROOT = Path(__file__).resolve().parents[1]

from tafl_sphinx import apidoc, figures, layouts, links, util, variant_pages, words

SOURCE_PAGES = {
    "hywel-dda": ["hywel-dda-jones"],
    "ap-ifan": ["lewis-1", "lewis-2", "jones-3", "tawlbwrdd-cyningstan", "tawlbwrdd-bell"],
    "linnaeus": ["tablut-linnaeus", "tablut-smith"],
    "lewis": ["lewis-1", "lewis-2"],
    "jones": ["jones-3", "hywel-dda-jones"],
    "cyningstan": ["tawlbwrdd-cyningstan", "tawlbwrdd-cyningstan-9"],
    "eleven": ["tawlbwrdd-corner"],
    "granquist": ["tafl-granquist"],
    "bell": ["tawlbwrdd-bell"],
    "parlett": [],
    "encyclopedia": ["tawlbwrdd-bell"],
}


def _plain_text(parts: list[str]) -> str:
    text = " ".join("".join(parts).split())
    for fancy, plain in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"')):
        text = text.replace(fancy, plain)
    return text


class Page(HTMLParser):
    """Links, ids, text and a few element counts of one built page."""

    def __init__(self, path: Path) -> None:
        super().__init__(convert_charrefs=True)
        self.path = path
        self.hrefs: list[str] = []
        self.ids: set[str] = set()
        self.text_parts: list[str] = []
        self.prose_parts: list[str] = []
        self.tags: list[tuple[str, dict[str, str]]] = []
        self._skip = 0
        self._code = 0
        self.feed(path.read_text(encoding="utf-8"))

    def handle_starttag(self, tag, attrs):
        attrs = {k: v or "" for k, v in attrs}
        self.tags.append((tag, attrs))
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "name" in attrs:
            self.ids.add(attrs["name"])
        if tag == "a" and "href" in attrs:
            self.hrefs.append(attrs["href"])
        if tag in ("script", "style"):
            self._skip += 1
        if tag in ("code", "pre", "svg"):
            self._code += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1
        if tag in ("code", "pre", "svg"):
            self._code -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text_parts.append(data)
            if not self._code:
                self.prose_parts.append(data)

    @property
    def text(self) -> str:
        """The visible text, with typographic quotes and dashes made plain again."""
        return _plain_text(self.text_parts)

    @property
    def prose(self) -> str:
        """The visible text outside code, preformatted blocks and figures."""
        return _plain_text(self.prose_parts)

    def count(self, tag: str, cls: str) -> int:
        return sum(1 for t, a in self.tags if t == tag and cls in a.get("class", "").split())


@pytest.fixture(scope="module")
def site(fresh_build) -> Path:
    return fresh_build  # the one full build of the run (conftest), runtime and all


@pytest.fixture(scope="module")
def pages(site) -> dict[str, Page]:
    return {str(p.relative_to(site)): Page(p) for p in site.rglob("*.html")
            if "_static" not in p.parts and "_modules" not in p.parts}


# --- the build -----------------------------------------------------------------

def test_site_builds_clean_with_warnings_as_errors(site):
    assert (site / "index.html").is_file()


def test_home_page_keeps_one_board_and_leads_to_read_compare_play(pages):
    home = pages["index.html"]
    assert home.count("div", "tafl-board") == 1
    targets = {h.split("#")[0] for h in home.hrefs}
    for needed in ("sources/index.html", "docs/compare.html", "docs/variants/index.html"):
        assert needed in targets, needed


# --- variant pages ---------------------------------------------------------------

def test_every_variant_has_a_committed_stub_and_no_stub_is_orphaned():
    ids = set(catalogue.variant_ids())
    stubs = {p.stem for p in (ROOT / "docs" / "variants").glob("*.md")} - {"index"}
    assert stubs == ids, f"missing: {sorted(ids - stubs)}, extra: {sorted(stubs - ids)}"
    for vid in ids:
        text = (ROOT / "docs" / "variants" / f"{vid}.md").read_text()
        assert text.strip() == f"```{{variant-page}} {vid}\n```", vid


@pytest.mark.parametrize("vid", catalogue.variant_ids())
def test_variant_page_is_generated_from_the_catalogue(pages, vid):
    v = catalogue.variant(vid)
    page = pages[f"docs/variants/{vid}.html"]
    assert v.name in page.text
    figures = [a for t, a in page.tags if t == "svg"]
    assert figures and all("tafl-board" not in a.get("class", "").split() for a in figures), \
        "a static figure must not carry the interactive board's class"
    boards = [a for t, a in page.tags if t == "div" and "tafl-board" in a.get("class", "").split()]
    assert [b["data-variant"] for b in boards] == [vid]
    for field in FIELDS:  # every rule point has its anchor, so the matrix can link to it
        assert links.rule_label(vid, field) in page.ids, field
    for name, toggle in v.toggles.items():
        for value in toggle.readings:
            assert links.toggle_label(vid, name, value) in page.ids, (name, value)
    for field, prov in v.provenance.items():
        if prov.passage:
            passage = re.sub(r"\b_(\w+)_\b", r"\1", " ".join(prov.passage.split()))  # _x_ is italics
            assert passage[:40] in page.text, (field, prov.passage)
    if v.correction_of:
        assert "correction" in page.text and catalogue.variant(v.correction_of).name in page.text


def test_plain_words_cover_every_value_of_every_choice():
    from tafl_rules.rules import CHOICES, Rules

    rules = Rules()
    for field, values in CHOICES.items():
        for value in values:
            said = words.plain(field, value, rules)
            assert said and not said.startswith(field), (field, value)


# --- source pages ----------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(SOURCE_PAGES))
def test_source_page_exists_cites_quotes_and_lists_open_points(pages, name):
    page = pages[f"sources/{name}.html"]
    cites = [h for h in page.hrefs if "bibliography.html#" in h]
    assert cites, "a source page must cite"
    if name not in ("parlett", "bell"):  # Parlett is not quoted at all; Bell only through others, inline
        assert any(t == "blockquote" for t, _ in page.tags), "quotations are set as block quotes"
    assert any(t == "ol" for t, _ in page.tags), "the open points are a visible list"
    linked = {m.group(1) for h in page.hrefs if (m := re.search(r"variants/([a-z0-9-]+)\.html", h))}
    assert set(SOURCE_PAGES[name]) <= linked, sorted(set(SOURCE_PAGES[name]) - linked)


def test_unverified_points_are_marked_on_their_pages(pages):
    lewis = pages["sources/lewis.html"].text
    assert "1943" in lewis and "Neither date has been checked here" in lewis
    hywel = pages["sources/hywel-dda.html"].text
    assert "p.191" in hywel and "unverified" in hywel
    assert "gwrheill (?)" in pages["docs/glossary.html"].text


# --- the quotations, and words a reader cannot follow ---------------------------------

#: Words of the project's workings that must not reach a public page (the issue's list, and the
#: ways the stored texts once said where they were read).
JARGON = [r"\bseeds? 00[0-4]\b", r"\bseed documents?\b", r"\bresearch/", r"texts-found", r"quotes\.md",
          r"sources-notes", r"layouts-elsewhere", r"references-starter", r"catalogue helper", r"engine brief",
          r"search-tool", r"search excerpts?", r"project's research", r"project's copy",
          r"documents? (?:this project|it) was built from", r"\bDLP\b", r"\.\./shared", r"/work/"]
#: The rules package's names for rule points and readings: fine in the API pages, not in a page a reader
#: of the sources reads (source pages, variant pages, matrix, comparison, glossary, bibliography).
ENGINE_WORDS = [r"\b(?:first|king_armed|king_capture|sandwich|throne|escape|watch_king|confinement|king_reenter|"
                r"konakis_pass|tuichi)=[\w-]+",
                r"\b(?:throne_stop|throne_pass|king_speed|man_speed|king_reenter_throne|corner_stop|camp_stop|camp_pass|"
                r"(?:throne|corners|camps)_hostile_to_\w+|king_capture_against|watch_king|edge_fort|no_moves|"
                r"repetition_count|ply_limit)\b"]


OWN_PAGES = sorted((ROOT / "sources").glob("*.md")) + [ROOT / "docs" / f"{n}.md" for n in (
    "glossary", "compare", "matrix", "cite", "bibliography")]


def _reader_page(name: str) -> bool:
    return name.startswith(("sources/", "docs/variants/")) or name in (
        "index.html", "docs/matrix.html", "docs/compare.html", "docs/glossary.html", "docs/bibliography.html",
        "docs/cite.html")


def test_no_internal_jargon_and_no_bibliography_key_on_any_built_page(pages):
    keys = {k for k in _bib_keys() if re.search(r"[\d-]", k)}
    ids = set(catalogue.variant_ids())
    found = []
    for name, page in pages.items():
        text = page.prose if _reader_page(name) else page.text
        patterns = JARGON + (ENGINE_WORDS if _reader_page(name) else [])
        for pattern in patterns:
            for m in re.finditer(pattern, text):
                found.append(f"{name}: {text[max(0, m.start() - 40):m.end() + 40]!r}")
        tokens = set(re.findall(r"(?<![\w/#.-])[a-z][a-z0-9]*(?:-[a-z0-9]+)*\d*(?![\w/-])", text))
        for token in tokens & keys:
            found.append(f"{name}: bibliography key {token!r} in the text")
        if _reader_page(name):
            for token in tokens & {i for i in ids if "-" in i}:
                found.append(f"{name}: variant identifier {token!r} in the text (link it by name)")
    assert not found, "\n".join(found[:20])


def test_the_jargon_test_sees_what_it_should():
    text = ("as seed 000 says (research/texts-found.md 4a), per the catalogue helper; seen in a search excerpt, "
            "as recorded by the project's research; see the toggle king_capture=linnaeus and throne_stop")
    assert sum(bool(re.search(p, text)) for p in JARGON) == 6
    assert sum(bool(re.search(p, text)) for p in ENGINE_WORDS) == 2


def test_web_addresses_keep_their_hyphens(pages):
    """Typographic dashes must not eat a "---" in an address (the WELSH-L posting's, for one)."""
    for name in ("sources/texts.html", "docs/bibliography.html"):
        text = pages[name].text
        assert "Gwyddbwyll-Rules---at-last" in text, name
        assert "Gwyddbwyll-Rules—at-last" not in text and "Gwyddbwyll-Rules–at-last" not in text, name


def test_every_quotation_on_the_pages_is_found_in_a_stored_copy(site, capsys):
    import json

    records = json.loads((site / "_quotations.json").read_text(encoding="utf-8"))
    missing = [r for r in records if r["status"] is None]
    assert not missing, missing[:5]
    pages_with = {r["page"] for r in records}
    assert {f"sources/{n}" for n in SOURCE_PAGES} - {"sources/parlett"} <= pages_with
    counts = {s: sum(r["status"] == s for r in records) for s in ("verified", "second-hand", "unverified")}
    with capsys.disabled():
        print(f"\nquotations checked on the built pages: {len(records)} "
              + ", ".join(f"{k}: {v}" for k, v in counts.items()))
    assert len(records) > 400


def _unmarked_quotations(text: str, titles: set[str]) -> list[str]:
    """Double-quoted runs of four words or more that are not checked quotations or titles."""
    # blocks whose text is checked (quotations) or drawn (figures); a parallel text's notes are read
    text = re.sub(r"^(```|~~~)\{(quotation|variant-figure|tablut-cut)\}.*?^\1\s*$", " ", text,
                  flags=re.S | re.M)
    text = re.sub(r"(?m)^(```|~~~).*$", " ", text)  # the fences of the blocks left, whose notes are read
    text = re.sub(r"\{[a-z:]+\}`[^`]*`", " ", text)  # roles: {q}, {cite:t}, {toggle} ...
    text = re.sub(r"`[^`]*`", " ", text)
    found = []
    for m in re.finditer(r"[\"“]([^\"“”\n]+(?:\n[^\"“”\n]+)?)[\"”]", text):
        inner = " ".join(m.group(1).split())
        if len(inner.split()) >= 4 and inner.strip(" .,").lower() not in titles:
            found.append(inner)
    return found


def test_no_page_carries_an_unchecked_quotation_or_a_typed_status():
    from pybtex.database import parse_file

    titles = {" ".join(e.fields.get("title", "").replace("{", "").replace("}", "").split()).lower()
              for e in parse_file(str(ROOT / "docs" / "references.bib")).entries.values()}
    problems = []
    for path in OWN_PAGES:
        text = path.read_text(encoding="utf-8")
        problems += [f"{path.name}: unchecked quotation “{q}”" for q in _unmarked_quotations(text, titles)]
        for m in re.finditer(r"\((?:verified|second-hand|unverified)[,)]|, (?:verified|second-hand|unverified)\)", text):
            problems.append(f"{path.name}: typed status {text[max(0, m.start() - 40):m.end()]!r}")
    assert not problems, "\n".join(problems[:20])


def test_the_quotation_scanner_reads_the_notes_of_a_parallel_text():
    block = '```{parallel-text}\n:left: a\n:right: b\n\nsentence 1: hence Murray\'s "those who lie in wait" here.\n```\n'
    assert _unmarked_quotations(block, set()) == ["those who lie in wait"]


def test_in_text_citations_name_one_bibliography_entry(pages):
    """Where the bibliography tells two works apart by a letter ("Walker n.d.a"), no citation omits it."""
    labels = re.findall(r"\[([^\]]+? (?:n\.d\.|\d{4})[a-z])\]", pages["docs/bibliography.html"].text)
    lettered = {label[:-1] for label in labels}
    assert {"Walker n.d.", "Digital Ludeme Project n.d.", "Nielsen n.d."} <= lettered, sorted(lettered)
    bare = []
    for name, page in pages.items():
        for base in lettered:
            bare += [f"{name}: {base}" for _ in re.finditer(re.escape(base) + r"(?![a-z])", page.prose)]
    assert not bare, bare[:10]


def test_the_bibliography_is_downloadable_and_dates_every_web_source(site, pages):
    from pybtex.database import parse_file

    downloads = list((site / "_downloads").rglob("references.bib"))
    assert downloads and downloads[0].read_text(encoding="utf-8") == (ROOT / "docs" / "references.bib").read_text(encoding="utf-8")
    entries = parse_file(str(ROOT / "docs" / "references.bib")).entries
    undated = [k for k, e in entries.items() if "url" in e.fields and "urldate" not in e.fields]
    assert not undated, undated
    assert "seen by 2026-" in pages["docs/bibliography.html"].text


def test_the_witness_tables_are_drawn_from_the_catalogue(pages):
    page = pages["sources/witnesses.html"]
    md = (ROOT / "sources" / "witnesses.md").read_text(encoding="utf-8")
    assert "|" not in md, "the tables are generated, not typed"
    for name in ("Bell", "Lewis", "Jones", "Cyningstan", "Nielsen", "Ludii", "OpenTafl"):
        assert name in page.text
    assert "(1993)" in page.text and "Pieces at the start" in page.text


def test_the_linnaeus_page_shows_the_transcribed_woodcut_and_links_the_scan(pages):
    page = pages["sources/linnaeus.html"]
    assert page.count("svg", "tafl-woodcut") == 1
    assert any(h.endswith("36059-h/images/i_055.jpg") for h in page.hrefs)
    assert any(h.endswith("36059-h/images/i_056.jpg") for h in page.hrefs)
    assert "Transcription of the woodcut on vol. II, p. 55 of the 1811 edition" in page.text
    assert "has not been seen" not in page.text.split("Transcription of the woodcut")[0]


def test_the_crux_of_law_9_rests_on_a_transcription_of_a_printed_edition(pages):
    """The Latin of law 9 is shown from Walker's transcription of the 1889 edition, with its pages, and the
    page says so; the apparatus collates it (siglum C) with the other transcriptions."""
    page = pages["sources/linnaeus.html"]
    prose = page.prose
    assert "The crux rests here on Walker's transcription of the 1889 edition (C)" in prose
    assert "law 9 (1889 edition, vol. 2, pp. 147-148), as given by Walker" in prose
    assert "est occisus et ejici debet, item Rex. (C)" in prose and "possit, C ] posit, J" in prose
    assert "which edition they belong to is not known" not in page.text


def test_every_board_figure_carries_a_drawn_key(pages):
    figures = 0
    for name, page in pages.items():
        n = page.count("div", "tafl-figure")
        if not n:
            continue
        figures += n
        assert page.count("ul", "tafl-figure-key") == n, name
        words = ("Ymosodwr", "Amddiffynnwr", "Brenin") if name.startswith("cy/") else ("Attacker", "Defender", "King")
        assert all(word in page.prose for word in words), name
    assert figures > 20
    lewis = pages["sources/lewis.html"].prose
    assert "Outlined: where it differs from Lewis's Figure 2" in lewis


def test_nielsens_measured_balances_stand_beside_the_witness_tables(pages):
    text = pages["sources/witnesses.html"].text
    for setup, balance in (("T diamond", "-1.73"), ("T cross", "-1.61"), ("Bell diamond", "-1.83"),
                           ("Lewis diamond", "+1.51"), ("Lewis cross", "-1.06")):
        assert f"Tawlbwrdd {setup}, game balance {balance}" in text


def test_the_quotation_scanner_finds_a_bare_quotation():
    assert _unmarked_quotations('He said "one two three four" and {q}`five six seven eight <k: l>`.', set()) == \
        ["one two three four"]
    assert _unmarked_quotations('"A Brief Look at Some Welsh Games"', {"a brief look at some welsh games"}) == []


def test_hywel_dda_arithmetic_is_computed_not_typed(pages):
    cost = catalogue.hywel_dda_costing()
    text = pages["sources/hywel-dda.html"].text
    for step in cost.steps:
        assert " ".join(step.split()) in text, step
    assert (cost.attackers, cost.defenders) == (16, 8)
    page_md = (ROOT / "sources" / "hywel-dda.md").read_text()
    assert "240 / 15" not in page_md, "the arithmetic must come from the catalogue, not the page"


# --- citations and links -----------------------------------------------------------

def _bib_keys() -> set[str]:
    from pybtex.database import parse_file

    return set(parse_file(str(ROOT / "docs" / "references.bib")).entries.keys())


def test_every_cite_key_in_the_pages_and_the_catalogue_is_in_the_bib():
    keys = _bib_keys()
    used = set()
    for path in list((ROOT / "sources").glob("*.md")) + list((ROOT / "docs").rglob("*.md")):
        used |= set(re.findall(r"\{cite:[tp]\}`([^`]+)`", path.read_text()))
    for v in catalogue.variants():
        used |= set(v.sources) | {p.source for p in v.provenance.values()}
        used |= {r.source for t in v.toggles.values() for r in t.readings.values()}
    assert used and used <= keys, sorted(used - keys)


def test_every_citation_link_lands_on_a_bibliography_entry(pages):
    bib = pages["docs/bibliography.html"]
    count = 0
    for name, page in pages.items():
        for href in page.hrefs:
            if "bibliography.html#" in href:
                count += 1
                assert href.split("#", 1)[1] in bib.ids, (name, href)
    assert count > 100


def test_no_internal_link_is_broken(site, pages):
    checked = 0
    for name, page in pages.items():
        for href in page.hrefs:
            parsed = urlparse(href)
            if parsed.scheme or href.startswith(("mailto:", "//")):
                continue
            target = (site / name).parent / unquote(parsed.path) if parsed.path else site / name
            target = target.resolve()
            if not target.exists() and target.relative_to(site.resolve()).parts[0] in ("cy",) and not (site / "cy").is_dir():
                continue  # the Welsh tree, not built here (test_welsh checks the links between the two trees)
            assert target.exists(), f"{name}: {href} -> missing file"
            if parsed.fragment and target.suffix == ".html":
                ids = pages[str(target.relative_to(site.resolve()))].ids if str(target.relative_to(site.resolve())) in pages \
                    else Page(target).ids
                assert unquote(parsed.fragment) in ids, f"{name}: {href} -> no such anchor"
            checked += 1
    assert checked > 500


def test_sphinx_linkcheck_offline_finds_no_broken_local_link(site, tmp_path):
    # from a copy of the HTML build's doctrees: nothing changed, so no page is read again
    shutil.copytree(site / ".doctrees", tmp_path / "doctrees")
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-N", "-b", "linkcheck", "-D", r"linkcheck_ignore=^https?://.*",
         "-d", str(tmp_path / "doctrees"), str(ROOT), str(tmp_path)], capture_output=True, text=True)
    assert "updating environment: 0 added, 0 changed, 0 removed" in result.stdout, result.stdout
    report = (tmp_path / "output.txt").read_text() if (tmp_path / "output.txt").exists() else ""
    assert result.returncode == 0, result.stdout + result.stderr + report
    assert "broken" not in report


# --- compare and matrix ----------------------------------------------------------

def test_compare_page_draws_the_three_figures_and_marks_their_differences(pages):
    page = pages["docs/compare.html"]
    drawn = [a["data-variant"] for t, a in page.tags if t == "div" and "tafl-svg" in a.get("class", "").split()]
    for vid in figures.COMPARED:
        assert vid in drawn
    corrections = [v.id for v in catalogue.variants() if v.correction_of in figures.COMPARED]
    assert set(corrections) <= set(drawn)
    sizes = catalogue.variant(figures.COMPARED[0]).rules.size
    expected = layouts.differing_squares([catalogue.variant(v).rules.start for v in figures.COMPARED], sizes)
    assert expected, "the three printed figures do differ"
    marks = [a.get("data-marks", "").split() for t, a in page.tags
             if t == "div" and a.get("data-variant") in figures.COMPARED and "tafl-svg" in a.get("class", "").split()]
    assert all(m == expected for m in marks)
    assert page.count("rect", "mark") >= len(expected) * len(figures.COMPARED)
    assert "Attacker formation" in page.text and "Defender formation" in page.text


def test_differences_and_formations_are_computed():
    l1, l2, j3 = (catalogue.variant(v).rules for v in figures.COMPARED)
    assert layouts.formation(l1, "t") == "3+3 on every side (2×3 block)"
    assert layouts.formation(l1, "T") == "cross, arms of 3"
    assert layouts.formation(j3, "T").startswith("diamond")
    assert "not the same on every side" in layouts.formation(l2, "t")
    assert layouts.differing_squares([l1.start, l1.start], l1.size) == []
    assert "f6" not in layouts.differing_squares([l1.start, l2.start, j3.start], l1.size)
    assert layouts.king_lines(l1) == "5 to the edge: 3 defenders, first attacker at 4 (each way)"
    assert layouts.king_lines(j3) == "5 to the edge: 2 defenders, first attacker at 4 (each way)"


def test_rule_matrix_has_a_tab_per_board_size_and_every_variant(pages):
    page = pages["docs/matrix.html"]
    sizes = sorted({v.rules.size for v in catalogue.variants()})
    for size in sizes:
        assert f"{size}×{size}" in page.text
    labels = re.findall(r"(\d+)×\1 \(\d+\)", page.text)
    assert labels[0] == "11", "the matrix opens on the Welsh 11x11 boards"
    for field in FIELDS:  # rows are named in plain words, not by the engine's field names
        assert words.RULE_NAMES[field] in page.text
    assert "king_capture_against" not in page.text and "camps_hostile_to_defenders" not in page.text
    for raw in ("linnaeus", "unless-capturing", "edge-except-camps", "defenders-lose", "copenhagen"):
        assert raw not in page.prose, f"the rules package's value {raw!r} shown as a cell"
    assert "4 on the throne, 3 beside it, else 2" in page.text and "‡" in page.text
    linked = {m.group(1) for h in page.hrefs if (m := re.search(r"variants/([a-z0-9-]+)\.html", h))}
    assert linked - {"index"} == set(catalogue.variant_ids())
    rule_links = [h for h in page.hrefs if "#rule-" in h]
    # every cell of the "all sizes" tab plus the per-size tabs
    assert len(rule_links) == 2 * len(FIELDS) * len(catalogue.variant_ids())


# --- the extension in a small project -----------------------------------------------

def _tiny(make_app, tmp_path: Path, body: str) -> Built:
    (tmp_path / "conf.py").write_text(conf(['myst_parser', 'sphinx_design', 'sphinxcontrib.bibtex', 'tafl_sphinx'],
                                           bibliography=True))
    (tmp_path / "index.md").write_text(body)
    return build(make_app, tmp_path)


def test_an_unknown_variant_or_toggle_is_a_build_error_naming_it(make_app, tmp_path):
    result = _tiny(make_app, tmp_path, "# T\n\nSee {variant}`lewis-9`.\n")
    assert result.returncode != 0 and "lewis-9" in result.stderr
    result = _tiny(make_app, tmp_path, "# T\n\nSee {toggle}`lewis-1:escape=moon`.\n")
    assert result.returncode != 0 and "moon" in result.stderr


def test_a_figure_in_a_small_project(make_app, tmp_path):
    result = _tiny(make_app, tmp_path, "# T\n\n```{variant-figure} brandubh\n:marks: d4\n```\n")
    assert result.returncode == 0, result.stderr
    html = (result.out / "index.html").read_text()
    assert "<svg" in html and 'class="mark"' in html and 'data-marks="d4"' in html


def test_a_missing_or_stray_variant_page_is_reported(caplog):
    import logging
    from types import SimpleNamespace

    ids = catalogue.variant_ids()
    docs = {f"docs/variants/{vid}" for vid in ids[1:]} | {"docs/variants/index", "docs/variants/lewis-9"}
    with caplog.at_level(logging.WARNING):
        variant_pages.check_variant_pages(None, SimpleNamespace(found_docs=docs))
    text = caplog.text
    assert f"variant {ids[0]} has no page" in text
    assert "lewis-9.md is not a catalogue variant" in text
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        variant_pages.check_variant_pages(None, SimpleNamespace(found_docs={f"docs/variants/{v}" for v in ids} | {"docs/variants/index"}))
    assert "has no page" not in caplog.text and "not a catalogue variant" not in caplog.text


def test_markdown_escaping_keeps_quotations_literal():
    assert util.md_escape("a | b <c> *d* `e` [f]") == "a \\| b &lt;c> \\*d\\* \\`e\\` \\[f\\]"
    assert util.md_escape("two\n   lines") == "two lines"


def test_the_rule_groups_cover_every_rule_point_once():
    grouped = [f for _, fields in words.GROUPS for f in fields]
    assert sorted(grouped) == sorted(FIELDS) and len(grouped) == len(set(grouped))


def test_no_page_types_a_layout_or_a_rule_table_by_hand():
    """Layouts and rule values come from the catalogue: no ASCII board rows, OTN records or
    rule-by-rule tables in the hand-written pages."""
    board_row = re.compile(r"^\s*\|(?:[_0X#tTK.]\|){5,}\s*$", re.M)
    otn = re.compile(r"/(?:[tTK\d]+/){4,}")
    others = {"sandbox.md"}  # pages of other parts of the project
    for path in list((ROOT / "sources").glob("*.md")) + list((ROOT / "docs").rglob("*.md")):
        if path.name in others or path.name.startswith("fairest"):
            continue
        text = path.read_text()
        assert not board_row.search(text), f"{path}: a hand-typed diagram"
        assert not otn.search(text), f"{path}: a hand-typed OTN position"
        assert "| king_capture |" not in text and "| `king_capture` |" not in text, f"{path}: a hand-typed rule table"


def test_docstring_footnotes_become_plain_notes():
    lines = ["``ka`` (``a`` anvil only [1]_)", "", ".. [1] Not in the written", "   specification.", "after"]
    apidoc.plain_footnotes(None, "module", "m", None, {}, lines)
    assert lines == ["``ka`` (``a`` anvil only (note 1))", "", "Note 1: Not in the written", "specification.", "after"]


def _coverage(piece: str, fragments: list[str]) -> list[tuple[str, float]]:
    """Each sentence of a stored passage with the share of its letters that quotations cover.

    Quotations are found in the passage as a whole, so that one running over two sentences covers both."""
    from tafl_sphinx.texts import normalize

    plain = normalize(piece)
    covered = [False] * len(plain)
    for f in fragments:
        if len(f) < 4:
            continue
        at = plain.find(f)
        while at >= 0:
            covered[at:at + len(f)] = [True] * len(f)
            at = plain.find(f, at + 1)
    out, start = [], 0
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9(“\"‘])", piece.strip()):
        words = normalize(sentence)
        if len(words) < 4:
            continue
        at = plain.find(words, start)
        start = max(start, at + len(words)) if at >= 0 else start
        span = covered[at:at + len(words)] if at >= 0 else []
        letters = [c for c, ch in zip(span, words) if not ch.isspace()]
        bare = words.rstrip(".,;: ")
        whole = any(bare in f for f in fragments)
        out.append((sentence, 1.0 if whole else sum(letters) / max(1, len(letters))))
    return out


def test_the_coverage_counts_only_what_a_quotation_takes_in():
    sentence = "The king is taken by four men around him on the board."
    assert _coverage(sentence, ["The king is taken by four men around him"])[0][1] > 0.5
    assert _coverage(sentence, ["the board"])[0][1] < 0.5
    assert _coverage(sentence, ["so that The king is taken by four men around him on the board and more"])[0][1] == 1.0
    two = "He came late. The king is taken by four men around him."
    first, second = _coverage(two, ["came late. The king is taken by four"])
    assert first[1] > 0.5 and 0 < second[1] < 1


def test_copyrighted_texts_are_stored_only_as_the_sentences_the_site_quotes(site):
    """A stored copy of a text in copyright keeps only sentences the site quotes most of; no sentence is exempt.

    A sentence counts as used only when the quotations found in it cover more than half of it; a figure
    counts as used when a variant of the catalogue reproduces it (its diagram is the figure, or its
    provenance names that figure)."""
    import json

    from tafl_sphinx.texts import fragments, library

    quoted: dict[str, list[str]] = {}
    for record in json.loads((site / "_quotations.json").read_text(encoding="utf-8")):
        quoted.setdefault(record["key"], []).extend(fragments(record["text"]))
    figures = set()
    for v in catalogue.variants():
        for p in list(v.provenance.values()) + [r.provenance for t in v.toggles.values() for r in t.readings.values()]:
            if p.passage:
                quoted.setdefault(p.source, []).extend(fragments(p.passage))
            if p.locator.startswith("Figure"):
                figures.add((p.source, p.locator))
    drawn = [[row.strip() for row in v.diagram.splitlines() if row.strip().startswith("|")] for v in catalogue.variants()]
    idle = []
    checked = 0
    for w in library(FOLDERS.texts).witnesses:
        if w.extent != "excerpts" or "copyright" not in w.licence.lower():
            continue
        for unit in w.units:
            rows = [row.strip() for row in unit.text.splitlines() if row.strip().startswith("|")]
            if (w.key, unit.label) in figures or (rows and rows in drawn):
                continue  # the figure itself is reproduced on a variant page
            for piece in unit.text.split("[…]"):
                for sentence, share in _coverage(piece, quoted.get(w.key, [])):
                    checked += 1
                    if share <= 0.5:
                        idle.append(f"{w.name} § {unit.label}: {sentence[:70]!r}")
    assert checked > 100
    assert not idle, "\n".join(idle[:10])


# --- the apparatus of the source pages ------------------------------------------------

def test_timeline_links_every_entry_to_a_page_and_marks_what_is_unchecked(pages):
    page = pages["sources/timeline.html"]
    md = (ROOT / "sources" / "timeline.md").read_text(encoding="utf-8")
    entries = [line for line in md.splitlines() if line.startswith("- **")]
    assert len(entries) >= 20
    for line in entries:
        assert re.search(r"\{doc\}`[^`]+`|\{variant\}`[^`]+`", line), f"not linked to a page: {line[:60]}"
    for year in ("1587", "1732", "1811", "1841", "1909", "1941", "1943", "1952", "1969", "1993", "1995", "2012"):
        assert year in page.text, year
    assert page.text.count("unchecked") >= 3
    linked = {h.split("#")[0] for h in page.hrefs}
    for name in ("hywel-dda", "ap-ifan", "linnaeus", "lewis", "jones"):
        assert f"{name}.html" in linked, name


def test_the_redrawn_tablut_board_follows_the_laws():
    """Every letter Smith's laws use is on the redrawing, where the laws put it (a1 is bottom left)."""
    from tafl_sphinx.apparatus import CUT_LETTERS, tablut_cut_svg
    from tafl_sphinx.texts import library

    smith = next(w for w in library(FOLDERS.texts).witnesses if w.name == "smith1811-tablut")
    used = {m for u in smith.units for m in re.findall(r"(?<!\w)_([a-zA-Z])_(?!\w)", u.text)}
    assert used == set(CUT_LETTERS), sorted(used ^ set(CUT_LETTERS))
    sq = {letter: (ord(s[0]) - 97, int(s[1:]) - 1) for letter, (s, _) in CUT_LETTERS.items()}
    castle = (4, 4)
    twos = [(4, 3), (4, 5), (3, 4), (5, 4)]
    taken = {castle, *twos, (4, 2), (4, 6), (2, 4), (6, 4)}
    start = catalogue.variant("tablut-linnaeus").rules.start
    muscovites = {(f, r) for (f, r) in ((f, r) for f in range(9) for r in range(9))
                  if layouts.position_map(start, 9).get(f"{chr(97 + f)}{r + 1}") == "t"}
    for letter, xy in sq.items():  # "The vacant squares, distinguished by letters"
        assert xy not in taken | muscovites, letter

    def line(*points) -> bool:  # consecutive squares along one rank or file
        steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(points, points[1:])}
        return len(steps) == 1 and next(iter(steps)) in {(0, 1), (0, -1), (1, 0), (-1, 0)}

    def edge(p) -> bool:
        return 0 in p or 8 in p

    # law 11: the king on a square 2 is taken by enemies on a, A and 3 (the castle his fourth side)
    def sides(t):  # the squares beside a square 2 other than the castle and the 3 beyond it
        return {(t[0] + dx, t[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))} - {castle, (2 * t[0] - 4, 2 * t[1] - 4)}

    assert any({sq["a"], sq["A"]} == sides(t) for t in twos)
    # law 1: a to c in a right line, a to e corner-wise
    assert sq["a"][0] == sq["c"][0] or sq["a"][1] == sq["c"][1]
    assert abs(sq["a"][0] - sq["e"][0]) == 1 and abs(sq["a"][1] - sq["e"][1]) == 1
    # laws 2-3: b, e, i, m a road to the edge; law 5: from e by f, g and by i, m
    assert line(sq["b"], sq["e"], sq["i"], sq["m"]) and edge(sq["m"])
    assert line(sq["e"], sq["f"], sq["g"]) and edge(sq["g"])
    # law 7: c to n in a right line
    assert sq["c"][0] == sq["n"][0] or sq["c"][1] == sq["n"][1]
    svg = tablut_cut_svg()
    for letter in CUT_LETTERS:
        assert f">{letter}<" in svg or f">{letter}?<" in svg, letter
    assert "not fixed by the laws" in svg and "one of two placings" in svg, "the figure carries its own key"


def test_the_full_texts_stand_on_their_pages(pages):
    from tafl_sphinx.texts import library

    by_name = {w.name: w for w in library(FOLDERS.texts).witnesses}
    linnaeus = pages["sources/linnaeus.html"].text
    for unit in by_name["smith1811-tablut"].units:  # Smith's key and all twelve laws, whole
        plain = re.sub(r"_(\w+)_", r"\1", " ".join(unit.text.split()))
        assert plain[:60] in linnaeus and plain[-40:] in linnaeus, unit.label
    ap_ifan = pages["sources/ap-ifan.html"].text
    for name in ("apifan1587-lewis", "murray1952-dlp", "murray1952-cyningstan"):
        for unit in by_name[name].units:  # the Welsh and both versions of Murray's English, sentence by sentence
            if "sentence" not in unit.label:
                continue
            assert " ".join(unit.text.split())[:40] in ap_ifan, (name, unit.label)
    assert "hai [sic: rhai] hyny" in ap_ifan and "lie [sic: lle] kanolig" in ap_ifan
    hywel = pages["sources/hywel-dda.html"].text
    assert "Ef a dely tavlbvrd o ascvrn moruyl" in hywel and "a throw-board from the king" in hywel


def test_each_source_page_lists_the_rule_points_that_rest_on_its_passages(pages):
    from tafl_sphinx.apparatus import catalogue_passages

    for page_name, keys in (("linnaeus", {"linnaeus1811", "linnaeus1732", "salmi2013"}),
                            ("granquist", {"granquist1995"}), ("cyningstan", {"cyningstan-compact"})):
        page = pages[f"sources/{page_name}.html"]
        expected = {(v.id, use) for v, use, prov in catalogue_passages() if prov.source in keys and prov.passage}
        anchors = {h.split("#", 1)[1] for h in page.hrefs if "variants/" in h and "#" in h}
        for vid, use in expected:
            label = links.rule_label(vid, use[1]) if use[0] == "rule" else links.toggle_label(vid, use[1], use[2])
            assert label in anchors, (page_name, vid, use)


def test_every_page_links_the_middle_welsh_font(site, pages):
    font = site / "_static" / "tafl-fonts"
    assert (font / "gentium-plus-latin-ext-400-normal.woff2").stat().st_size > 1000
    assert "SIL Open Font License" in (font / "LICENSE").read_text(encoding="utf-8")
    css = (font / "tafl-welsh.css").read_text(encoding="utf-8")
    assert "unicode-range: U+1EFA-1EFF" in css and '--pst-font-family-base: "Tafl Middle Welsh"' in css
    for name, page in pages.items():
        if any(t == "meta" and a.get("http-equiv") == "refresh" for t, a in page.tags):
            continue  # an old address that sends the reader on at once
        links = [a.get("href", "") for t, a in page.tags if t == "link"]
        assert any(h.split("?")[0].endswith("tafl-fonts/tafl-welsh.css") for h in links), name
    assert sum("\u1efd" in page.text for page in pages.values()) >= 3


@pytest.mark.parametrize("path", ["sources/hywel-dda.html", "docs/glossary.html", "genindex.html"])
def test_the_middle_welsh_letter_is_drawn_from_the_shipped_font(browser, site_url, path):
    """In headless Chromium every ỽ on the page is set in the font the site serves, loaded from the site."""
    page = browser.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{site_url}/{path}")
    found = page.evaluate("""async () => {
        const loaded = await document.fonts.load('16px "Tafl Middle Welsh"', '\u1efd');
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const families = [];
        while (walker.nextNode()) {
            const node = walker.currentNode;
            if (node.textContent.includes('\u1efd') && node.parentElement.closest('script, style') === null)
                families.push(getComputedStyle(node.parentElement).fontFamily);
        }
        return {loaded: loaded.map(f => f.status), families};
    }""")
    page.close()
    assert found["loaded"] == ["loaded"], found
    assert found["families"] and all(f.startswith('"Tafl Middle Welsh"') for f in found["families"]), found
    assert any(u.startswith(site_url) and u.endswith(".woff2") for u in requests), requests


def test_citations_in_parentheses_are_not_double_bracketed(pages):
    """A citation inside parentheses reads "(Lewis 1941)", never "(Lewis (1941))"."""
    double = re.compile(r"\([^()]*\([^()]*\b(?:1[0-9]{3}|20[0-9]{2}|n\.d\.)[a-z]?\)\)")
    assert double.search("as Murray says (Murray (1952), p. 63)") is None  # the pattern needs the two at the end
    assert double.search("(Lewis (1941))")
    found = [f"{name}: {m.group(0)[:80]}" for name, page in pages.items() if _reader_page(name)
             for m in double.finditer(page.prose)]
    assert not found, "\n".join(found[:10])


def test_a_correction_is_drawn_beside_the_print_with_its_changes_outlined(pages):
    for page_name, printed, corrected in (("lewis", "lewis-2", "lewis-2-corrected"), ("jones", "jones-3", "jones-3-corrected")):
        page = pages[f"sources/{page_name}.html"]
        a, b = (catalogue.variant(v).rules for v in (printed, corrected))
        expected = layouts.differing_squares([a.start, b.start], a.size)
        assert expected
        marks = [attrs.get("data-marks", "").split() for tag, attrs in page.tags
                 if tag == "div" and attrs.get("data-variant") == corrected]
        assert expected in marks, (page_name, marks)
