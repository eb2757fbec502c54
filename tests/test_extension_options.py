"""The site's own parts are a project's choice: a project that names ``tafl_sphinx`` alone gets its
boards and pages, and none of this site's service worker, app manifest and icons, update script,
redirect page or quotation report; with ``tafl_offline = True`` (and the boards' runtime) and
``tafl_sphinx.site`` it gets them all. Tiny projects built with sphinx.testing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tiny_project import ROOT, build, conf

#: What this site adds beside the boards: the app (tafl_offline) and its furniture (tafl_sphinx.site).
APP = ("tafl-sw.js", "manifest.webmanifest", "_static/tafl-app.mjs", "_static/tafl-icon-192.png",
       "_static/tafl-icon-512.png", "_static/tafl-icon-maskable-512.png")
FURNITURE = ("docs/index.html", "_quotations.json")  # the home page's old address, the quotation report
PAGE = "# Tiny\n\n```{tafl-board} brandubh\n```\n"


def _project(folder: Path, extensions: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "conf.py").write_text(conf(extensions), encoding="utf-8")
    (folder / "index.md").write_text(PAGE, encoding="utf-8")
    return folder


def _present(out: Path) -> set[str]:
    return {name for name in (*APP, *FURNITURE, "_static/tafl-sw.js") if (out / name).exists()}


def test_a_project_that_names_the_extension_alone_gets_none_of_the_sites_own_files(make_app, tmp_path):
    result = build(make_app, _project(tmp_path, ["tafl_sphinx"]))
    assert result.returncode == 0, result.stderr
    assert 'data-variant="brandubh"' in (result.out / "index.html").read_text(encoding="utf-8")
    assert _present(result.out) == set()  # not even the service worker's template from the static folder
    html = (result.out / "index.html").read_text(encoding="utf-8")
    assert 'rel="manifest"' not in html and "tafl-app.mjs" not in html


def test_the_offline_switch_alone_makes_no_app_of_a_site_without_the_boards_runtime(make_app, tmp_path):
    result = build(make_app, _project(tmp_path, ["tafl_sphinx", "tafl_sphinx.site"]), tafl_offline=True)
    assert result.returncode == 0, result.stderr
    assert _present(result.out) == set(FURNITURE)  # the furniture, but no service worker with nothing to keep


@pytest.mark.slow
def test_a_project_that_asks_for_the_app_and_the_furniture_gets_them(make_app, tmp_path):
    """With the runtime (this checkout's Pyodide and wheel; the compressed copies' cache shared
    with the site's build), ``tafl_offline`` and ``tafl_sphinx.site``: every file of both."""
    project = _project(tmp_path, ["tafl_sphinx", "tafl_sphinx.site"])
    result = build(make_app, project, tafl_offline=True, tafl_runtime=True,
                   tafl_pyodide_dir=str(ROOT / "node_modules" / "pyodide"), tafl_wheel_dir=str(ROOT / "dist"),
                   tafl_compress_cache=str(ROOT / "_build" / ".tafl-compressed"))
    assert result.returncode == 0, result.stderr
    assert _present(result.out) == {*APP, *FURNITURE}  # the template is written out at the root, not kept
    html = (result.out / "index.html").read_text(encoding="utf-8")
    assert 'rel="manifest"' in html and "tafl-app.mjs" in html
