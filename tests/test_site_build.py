"""The real site builds with -W (warnings are errors), and the extension works in a tiny project."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tiny_project import FOLDERS, Built, build, conf

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def full_build(fresh_build) -> Path:
    return fresh_build


def test_site_builds_with_warnings_as_errors(full_build):
    assert (full_build / "index.html").is_file()


def test_runtime_is_beside_the_pages_and_registers_the_wheel(full_build):
    pyodide = full_build / "_static" / "pyodide"
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "tafl-stdlib.zip", "tafl-snapshot.bin"):
        assert (pyodide / name).is_file(), name
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    entry = lock["packages"]["tafl-rules"] if "tafl-rules" in lock["packages"] else lock["packages"]["tafl_rules"]
    wheel = pyodide / entry["file_name"]
    assert wheel.is_file()
    import hashlib
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"]
    assert "tafl_rules" in entry["imports"]


def test_board_container_and_module_script_on_the_page(full_build):
    html = (full_build / "index.html").read_text()
    assert 'class="tafl-board"' in html
    assert 'data-ready="false"' in html
    assert 'type="module"' in html and "tafl-board.mjs" in html
    assert "cdn" not in html.lower()


def build_tiny(make_app, tmp_path: Path, page: str) -> tuple[Built, Path]:
    """Build a one-page project that uses the extension; return the result and the output folder."""
    (tmp_path / "conf.py").write_text(conf(["myst_parser", "tafl_sphinx"]))
    (tmp_path / "index.md").write_text(page)
    result = build(make_app, tmp_path)
    return result, result.out


def test_tiny_project_with_the_directive(make_app, tmp_path):
    result, out = build_tiny(make_app, tmp_path, "# Tiny\n\n```{tafl-board}\n:human: attackers\n:moves: d1-d3 f3-e3\n```\n")
    assert result.returncode == 0, result.stderr
    html = (out / "index.html").read_text()
    assert 'data-human="attackers"' in html
    assert 'data-moves="d1-d3 f3-e3"' in html
    assert (out / "_static" / "tafl-board.mjs").is_file()
    assert (out / "_static" / "tafl-worker.mjs").is_file()
    assert not (out / "_static" / "pyodide").exists()  # tafl_runtime = False: no runtime copied


def test_bad_directive_option_is_an_error(make_app, tmp_path):
    result, _ = build_tiny(make_app, tmp_path, "# Tiny\n\n```{tafl-board}\n:human: robots\n```\n")
    assert result.returncode != 0
    assert "robots" in result.stderr


def test_unknown_variant_in_the_board_directive_is_a_build_error_naming_it(make_app, tmp_path):
    result, _ = build_tiny(make_app, tmp_path, "# Tiny\n\n```{tafl-board} lewis-9\n```\n")
    assert result.returncode != 0
    assert "lewis-9" in result.stderr


def test_fairest_page_and_reconstruction_pages_show_every_committed_level(full_build):
    data = ROOT / "docs" / "data"
    level2 = json.loads((data / "balance-level2.json").read_text())["results"]
    # the levels' cross-checks, on the sub-pages of the fairest page
    fairest = "".join((full_build / "docs" / f"{name}.html").read_text()
                      for name in ("fairest-levels", "fairest-levels-jones", "fairest-level3", "fairest-ladder",
                                   "fairest-levels-people"))
    assert 'id="balance-chart"' in fairest and 'id="balance-chart-2"' in fairest
    assert fairest.count(", level 2") >= len(level2)  # one table line per level-2 configuration
    # one entry per configuration, however many runs hold it (the page shows each once)
    level3 = list({e["key"]: e for path in sorted(data.glob("balance-level3*.json"))
                   for e in json.loads(path.read_text())["results"]}.values())
    plain3 = [e for e in level3 if not e["config"].get("toggles")]
    assert plain3 and fairest.count(", level 3") == len(plain3)  # the level-3 table shows the variants as they stand
    assert fairest.count("His reading (the variant as it stands)") == 2  # Jones's points on his two layouts
    verdicts = re.search(r"<table[^>]*>(?:(?!</table>).)*Apart from.*?</table>", fairest, re.S).group(0)
    assert verdicts.count("<tr") == 1 + len(plain3)  # the verdict table: one row per level-3 reconstruction
    assert fairest.count("Level 3: attackers") == 2 * (len(level3) > len(plain3))
    for path in sorted(data.glob("balance*.json")):  # a results file made part-way says so where it is listed
        prov = json.loads(path.read_text())["provenance"]
        if prov.get("partial"):
            assert f"{path.name}</span></code>: {prov['games']} games, seeds {prov['seeds']['first']} to " \
                   f"{prov['seeds']['last']} (part-way: {prov['partial']})" in fairest, path.name
    page = (full_build / "docs" / "variants" / "tawlbwrdd-cyningstan.html").read_text()
    row = next(e for e in level2 if e["key"].startswith("tawlbwrdd-cyningstan|"))
    attackers = row["summary"]["attackers"]
    assert ", level 2" in page
    assert f"{round(100 * attackers['rate'])}% ({round(100 * attackers['low'])}%" in page


def test_the_home_page_is_the_site_root_and_its_old_address_sends_readers_there(full_build):
    home = (full_build / "index.html").read_text()
    assert 'class="tafl-board"' in home and "sphinx-book-theme" in home
    old = (full_build / "docs" / "index.html").read_text()
    assert 'http-equiv="refresh" content="0; url=../index.html"' in old


def test_the_navigation_fold_buttons_have_names(full_build):
    page = (full_build / "docs" / "variants" / "lewis-1.html").read_text()
    assert "</a><details><summary>" not in page and '</a><details open="open"><summary>' not in page
    assert '<summary aria-label="Pages under The reconstructions">' in page
    # the section of the page being read (its link is marked "current") too
    index = (full_build / "sources" / "index.html").read_text()
    assert '<summary aria-label="Pages under The sources">' in index
    assert "</a><details open=\"open\"><summary>" not in index


def test_the_dev_server_serves_under_a_sub_path_and_answers_404_with_the_sites_page(site_dir):
    import urllib.error
    import urllib.request

    from tafl_sphinx.serve import serve_in_thread

    server = serve_in_thread(str(site_dir), prefix="/tawlbwrdd/")
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        with urllib.request.urlopen(f"{base}/tawlbwrdd") as reply:  # redirected to the folder
            assert reply.url.endswith("/tawlbwrdd/") and b'class="tafl-board' in reply.read()
        for missing in ("/", "/tawlbwrdd/docs/nope.html", "/tawlbwrdd/%00"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(f"{base}{missing}")
            assert refused.value.code == 404
            assert b"Page not found" in refused.value.read()
    finally:
        server.shutdown()


def test_the_sites_theme_gives_margin_notes_and_sidenotes_for_annotations(make_app, tmp_path):
    """The reason sphinx-book-theme was chosen over furo and pydata-sphinx-theme (neither has a
    ``margin`` directive or sidenotes): a tiny project with the site's theme settings has both."""
    import runpy

    site = runpy.run_path(str(ROOT / "conf.py"))
    (tmp_path / "conf.py").write_text(
        "extensions = ['myst_parser']\n"
        f"html_theme = {site['html_theme']!r}\n"
        f"html_theme_options = {{'use_sidenotes': {site['html_theme_options']['use_sidenotes']!r}}}\n")
    (tmp_path / "index.md").write_text("# T\n\nA law.[^n]\n\n```{margin}\nA note beside it.\n```\n\n[^n]: Its gloss.\n")
    result = build(make_app, tmp_path)
    assert result.returncode == 0, result.stderr
    html = (result.out / "index.html").read_text()
    assert '<aside class="margin sidebar">' in html
    assert '<span class="sidenote">' in html and "Its gloss." in html


def test_each_boards_level_menu_gives_the_times_measured_on_its_own_board_size(full_build):
    import html as html_module

    from tafl_sphinx.balance import level_times_by_size, typical_time

    from tafl_rules.ai import LEVELS

    measured = level_times_by_size(FOLDERS)
    assert {7, 9, 11, 19} <= set(measured), "docs/data/level-times-browser.json: every board size of the benchmark"
    notes = {}
    for vid, size in (("brandubh", 7), ("copenhagen", 11), ("alea-evangelii", 19)):
        page = (full_build / "docs" / "variants" / f"{vid}.html").read_text()
        menu = json.loads(html_module.unescape(re.search(r'data-levels="([^"]*)"', page).group(1)))
        notes[size] = {n: note for n, _name, note in menu if n in LEVELS}
        assert notes[size] == {n: typical_time(FOLDERS, n, size) for n in LEVELS}, vid
    assert notes[19] != notes[7]  # a 19x19 board's menu is not the small board's


def _prose_words(page_html: str) -> int:
    """Words of a page's article as read, without its tables, charts and code blocks."""
    article = re.search(r"<article.*?</article>", page_html, re.S).group(0)
    prose = re.sub(r"<script.*?</script>|<style.*?</style>|<svg.*?</svg>|<table.*?</table>|<pre.*?</pre>", " ",
                   article, flags=re.S)
    return len(re.sub(r"<[^>]+>", " ", prose).split())


def test_the_fairest_pages_sub_pages_each_stay_under_3000_words(full_build):
    # issue 28: method, cross-checks, provenance and commands on sub-pages of their own, each under
    # 3,000 words as built (the words the directives write included, the tables of figures not)
    pages = sorted((full_build / "docs").glob("fairest-*.html"))
    assert len(pages) >= 7
    counts = {p.stem: _prose_words(p.read_text()) for p in pages}
    assert all(n < 3000 for n in counts.values()), counts
    assert _prose_words((full_build / "docs" / "fairest.html").read_text()) < 600
