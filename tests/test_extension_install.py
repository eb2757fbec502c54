"""The Sphinx extension installs like any other: a wheel of the project carries it with its assets,
a project in a temporary folder names it in ``extensions`` (no sys.path line) and builds; and the
wheel the browser loads holds tafl_rules alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tafl_rules.ai import LEVELS

ROOT = Path(__file__).resolve().parents[1]
#: What a wheel of the project is built from (a copy, so that the build writes nothing in the checkout).
SOURCES = ("pyproject.toml", "README.md", "tafl_rules", "docs/_ext", "_static")

PAGE = """# Tiny

A board:

```{tafl-board} brandubh
:human: attackers
```

A figure:

```{variant-figure} tablut-linnaeus
:marks: e5
```

The levels:

```{ai-levels}
```
"""


@pytest.fixture(scope="module")
def project_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of the whole distribution (tafl_rules and tafl_sphinx), built from a copy of the sources."""
    work = tmp_path_factory.mktemp("wheel")
    copy = work / "src"
    copy.mkdir()
    archive = subprocess.run(["tar", "cf", "-", "--exclude=__pycache__", "--exclude=.mypy_cache", *SOURCES],
                             cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "xf", "-"], cwd=copy, input=archive, check=True)
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(work / "dist"), str(copy)],
                   capture_output=True, check=True)
    return next((work / "dist").glob("tafl_rules-*.whl"))


def test_the_extension_installs_and_builds_a_tiny_project_from_a_temporary_folder(project_wheel, tmp_path):
    site = tmp_path / "site-packages"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", str(site),
                    str(project_wheel)], check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(site)}  # the installed copy comes first, before the checkout's
    where = subprocess.run([sys.executable, "-c", "import tafl_sphinx, tafl_rules; print(tafl_sphinx.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where) == site / "tafl_sphinx" / "__init__.py"

    project = tmp_path / "project"
    project.mkdir()
    conf = 'extensions = ["tafl_sphinx"]\ntafl_runtime = False\ntafl_fonts_dir = None\n'
    assert "sys.path" not in conf
    (project / "conf.py").write_text(conf, encoding="utf-8")
    (project / "index.md").write_text(PAGE, encoding="utf-8")
    out = tmp_path / "html"
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(project), str(out)],
                            cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr

    html = (out / "index.html").read_text(encoding="utf-8")
    # the board container, drawn at build time from the rules package
    assert 'class="tafl-board"' in html and 'data-variant="brandubh"' in html and 'data-human="attackers"' in html
    assert html.count('class="tafl-square') == 49 and 'data-ready="false"' in html
    # the figure, with its key and the square marked
    assert 'data-variant="tablut-linnaeus" data-marks="e5"' in html and "<svg" in html and "tafl-figure-key" in html
    # the levels' table, with no measured times in this project (it has no docs/data): it does without
    for n, spec in LEVELS.items():
        assert f'<td class="text-right"><p>{n}</p></td>\n<td class="text-left"><p>{spec.name}' in html, n
    assert html.count("<p>not measured</p>") == len(LEVELS)

    # the assets the extension registers, from the installed package's own folder
    static = out / "_static"
    for name in ("tafl-site.css", "tafl-print.js", "tafl-board.css", "tafl-board.mjs", "tafl-worker.mjs",
                 "tafl-board-view.mjs", "tafl-protocol.mjs"):
        assert (static / name).read_bytes() == (ROOT / "_static" / name).read_bytes(), name
    for link in ("_static/tafl-site.css", "_static/tafl-board.css"):
        assert f'href="{link}' in html, link
    assert 'type="module" src="_static/tafl-board.mjs' in html and 'src="_static/tafl-print.js' in html
    assert 'data-worker="_static/tafl-worker.mjs"' in html  # the boot script, inline in the head
    assert "tafl-welsh.css" not in html and not (static / "tafl-fonts").exists()  # tafl_fonts_dir = None
    assert not (static / "pyodide").exists()  # tafl_runtime = False
    # the site's own furniture is opt-in (tafl_sphinx.site): no redirect page, no quotation report
    assert not (out / "docs" / "index.html").exists() and not (out / "_quotations.json").exists()


@pytest.mark.slow
def test_the_extension_installs_with_what_it_needs_into_a_fresh_environment(project_wheel, tmp_path):
    """``pip install tafl_rules[sphinx]`` in a new virtual environment (no package of this one's)
    brings everything ``tafl_sphinx`` imports and sets up: a tiny project then builds with that
    environment's own Python, and with ``tafl_sphinx.site`` gets the site's furniture too."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", f"{project_wheel}[sphinx]"],
                   cwd=tmp_path, env=env, check=True, capture_output=True)
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=json"], env=env, capture_output=True,
                            text=True, check=True).stdout
    installed = {p["name"].lower().replace("_", "-") for p in json.loads(listed)}
    assert {"sphinx", "myst-parser", "sphinx-design", "sphinxcontrib-bibtex", "matplotlib"} <= installed
    assert not {"pytest", "playwright", "sphinx-book-theme"} & installed  # nothing of the site's or the tests'
    for extensions, furnished in ((["tafl_sphinx"], False), (["tafl_sphinx", "tafl_sphinx.site"], True)):
        project = tmp_path / f"project-{furnished}"
        project.mkdir()
        (project / "conf.py").write_text(f"extensions = {extensions!r}\ntafl_runtime = False\ntafl_fonts_dir = None\n")
        (project / "index.md").write_text(PAGE, encoding="utf-8")
        out = tmp_path / f"html-{furnished}"
        result = subprocess.run([str(python), "-m", "sphinx", "-W", "-q", "-b", "html", str(project), str(out)],
                                cwd=tmp_path, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        assert 'data-variant="brandubh"' in (out / "index.html").read_text(encoding="utf-8")
        assert (out / "docs" / "index.html").exists() is furnished
        assert (out / "_quotations.json").exists() is furnished


def test_the_editable_install_imports_the_extension_from_the_checkout_with_no_path_set(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    found = subprocess.run([sys.executable, "-c", "import tafl_sphinx, tafl_sphinx.util as u; "
                            "print(tafl_sphinx.__file__); print(u.STATIC_DIR.resolve())"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True).stdout.split("\n")
    assert Path(found[0]) == ROOT / "docs" / "_ext" / "tafl_sphinx" / "__init__.py"
    assert Path(found[1]) == ROOT / "_static"  # the design card's _static, linked into the package


def test_the_project_wheel_carries_the_extension_and_its_assets(project_wheel):
    names = zipfile.ZipFile(project_wheel).namelist()
    assert "tafl_sphinx/__init__.py" in names and "tafl_sphinx/py.typed" in names and "tafl_sphinx/snapshot.mjs" in names
    assert {f"tafl_sphinx/static/{p.name}" for p in (ROOT / "_static").iterdir()} <= set(names)


def test_the_browser_wheel_holds_tafl_rules_alone(project_wheel, site_dir):
    from tafl_sphinx.runtime import check_browser_wheel

    built = sorted((ROOT / "dist").glob("tafl_rules-*.whl"))
    served = sorted((site_dir / "_static" / "pyodide").glob("tafl_rules-*.whl"))
    assert built and served
    for wheel in (built[-1], served[-1]):
        tops = {name.split("/", 1)[0] for name in zipfile.ZipFile(wheel).namelist()}
        assert {t for t in tops if not t.endswith(".dist-info")} == {"tafl_rules"}, wheel
        check_browser_wheel(wheel)
    lock = json.loads((site_dir / "_static" / "pyodide" / "pyodide-lock.json").read_text())
    entry = lock["packages"].get("tafl-rules") or lock["packages"]["tafl_rules"]
    assert entry["imports"] == ["tafl_rules"]
    # the whole distribution's wheel (what `python -m build` makes of the checkout) is refused for the browser
    with pytest.raises(ValueError, match="tafl_rules alone, not tafl_sphinx"):
        check_browser_wheel(project_wheel)
