"""Put the browser runtime beside the built pages: Pyodide from npm and the tafl_rules wheel.

Nothing here is committed or fetched from a CDN. Pyodide's runtime files are
copied from ``node_modules/pyodide`` (pinned in package-lock.json); the wheel
built by ``python -m build`` is registered in the served ``pyodide-lock.json``
with ``pyodide lockfile add-wheels`` so the worker can ``loadPackage("tafl_rules")``
and Pyodide checks its sha256.

Then Node makes, from that runtime (``snapshot.mjs``), the standard library a board needs as
bytecode (``tafl-stdlib.zip``, in place of Pyodide's whole library of sources) and a memory
snapshot with the wheel imported, for this build (``offline.build_id``). On a fast connection
the worker starts from the snapshot and skips Python's start-up and the wheel's loading; on a
slow one it fetches the smaller library and wheel and starts Python itself (``tafl-worker.mjs``
chooses). Last, if the project asks for it (``tafl_offline = True``), the site becomes an app
(``offline.finish_site``): a manifest, and a service worker that keeps the pages read and this
runtime for offline use (else the pages are only stamped with the build, ``offline.stamp_site``);
and every file is written pre-compressed beside itself (``compress.precompress``).

``tafl_runtime = False`` in ``conf.py`` skips both (the board scripts are still
copied): for small projects that test the directives and never run a board, where
the copy and the snapshot would be most of the build's time.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

from tafl_rules.ai import people

from . import compress, offline

logger = logging.getLogger(__name__)

RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
FULL_STDLIB = "python_stdlib.zip"   # read by snapshot.mjs, not served: tafl-stdlib.zip takes its place


def _copy_if_changed(source: Path, target: Path) -> None:
    if target.exists() and filecmp.cmp(source, target, shallow=True):
        return
    shutil.copy2(source, target)


def _pyodide_cli() -> list[str]:
    found = shutil.which("pyodide", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "pyodide_cli"]


def check_browser_wheel(wheel: Path) -> None:
    """Refuse a wheel for the browser that holds more than ``tafl_rules`` (the Sphinx extension is
    in the same distribution, and the Makefile builds the browser's wheel from the package alone)."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        listed = {line.strip() for name in names if name.endswith(".dist-info/top_level.txt")
                  for line in archive.read(name).decode().splitlines() if line.strip()}
    packages = {name.split("/", 1)[0] for name in names if not name.split("/", 1)[0].endswith(".dist-info")}
    extra = sorted((packages | listed) - {"tafl_rules"})
    if extra:
        raise ValueError(f"{wheel.name} is for the browser and must hold tafl_rules alone, not {', '.join(extra)}; "
                         "build it as the Makefile does (from a copy of tafl_rules and pyproject.toml)")


def install_runtime(outdir: Path, pyodide_dir: Path, wheel_dir: Path) -> tuple[Path, str]:
    """Copy Pyodide and the newest tafl_rules wheel into ``outdir/_static/pyodide`` and make the
    snapshot; return the lockfile and the build id."""
    missing = [name for name in (*RUNTIME_FILES, FULL_STDLIB, "pyodide-lock.json") if not (pyodide_dir / name).is_file()]
    if missing:
        raise FileNotFoundError(f"Pyodide runtime not found in {pyodide_dir} (missing {', '.join(missing)}); run `npm ci`")
    wheels = sorted(wheel_dir.glob("tafl_rules-*-py3-none-any.whl"), key=lambda p: p.stat().st_mtime)
    if not wheels:
        raise FileNotFoundError(f"no tafl_rules wheel in {wheel_dir}; run `python -m build --wheel --outdir {wheel_dir}`")
    check_browser_wheel(wheels[-1])
    target = outdir / "_static" / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        _copy_if_changed(pyodide_dir / name, target / name)
    (target / FULL_STDLIB).unlink(missing_ok=True)  # served by earlier builds
    for old in target.glob("tafl_rules-*.whl"):
        old.unlink()
    wheel = shutil.copy2(wheels[-1], target / wheels[-1].name)
    lockfile = target / "pyodide-lock.json"
    subprocess.run(
        [*_pyodide_cli(), "lockfile", "add-wheels", "--input", str(pyodide_dir / "pyodide-lock.json"),
         "--output", str(lockfile), "--base-path", str(target), str(wheel)],
        check=True, capture_output=True, text=True,
    )
    build = offline.build_id(outdir)
    make_snapshot(target, Path(wheel).name, pyodide_dir / FULL_STDLIB, build)
    return lockfile, build


SNAPSHOT = "tafl-snapshot.bin"
STDLIB = "tafl-stdlib.zip"


def make_snapshot(target: Path, wheel_name: str, full_stdlib: Path, build: str = "") -> Path:
    """Write ``target/tafl-stdlib.zip`` (the standard library a board needs, as bytecode, from
    ``full_stdlib``) and ``target/tafl-snapshot.bin`` (Pyodide with ``wheel_name`` imported, and
    ``tafl_rules.webapi.BUILD`` set to ``build``) with Node; return the snapshot."""
    if not all(c in "0123456789abcdef" for c in build):
        raise ValueError(f"a build id is hexadecimal, not {build!r}")
    node = shutil.which("node")
    if node is None:
        raise FileNotFoundError("node is needed to make the Pyodide snapshot (the same Node that runs npm)")
    output = target / SNAPSHOT
    output.unlink(missing_ok=True)
    (target / STDLIB).unlink(missing_ok=True)
    subprocess.run([node, str(Path(__file__).with_name("snapshot.mjs")), str(target), wheel_name, str(output),
                    str(target / STDLIB), str(full_stdlib), build, str(people.MODEL_PATH)],
                   check=True, capture_output=True, text=True, timeout=600)
    return output


def _on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html" or not app.config.tafl_runtime:
        return
    try:
        confdir = Path(app.confdir)
        _lockfile, build = install_runtime(Path(app.outdir), confdir / app.config.tafl_pyodide_dir,
                                           confdir / app.config.tafl_wheel_dir)
        if offline.is_app(app.config):
            offline.finish_site(Path(app.outdir), build, name=app.config.project,
                                short_name=app.config.html_title or app.config.project)
        else:
            offline.stamp_site(Path(app.outdir), build)
        compress.precompress(Path(app.outdir), confdir / app.config.tafl_compress_cache)
    except (OSError, subprocess.SubprocessError, ValueError) as error:
        detail = getattr(error, "stderr", "") or ""
        logger.warning(f"the board runtime was not installed: {error} {detail}".strip(), type="tafl", subtype="runtime")


def setup_runtime(app: Sphinx) -> None:
    # folders, relative to the folder of conf.py (as the other folders, tafl_sphinx.roots)
    app.add_config_value("tafl_pyodide_dir", "node_modules/pyodide", "env")
    app.add_config_value("tafl_wheel_dir", "dist", "env")
    app.add_config_value("tafl_runtime", True, "env", bool)
    # compressed copies kept between builds (compress.precompress), relative to the folder of conf.py
    app.add_config_value("tafl_compress_cache", "_build/.tafl-compressed", "env")
    # last of the build's end (Sphinx runs lower priorities first; the others' are 500): the fonts and
    # redirect pages written by the other handlers are then in the site the service worker keeps,
    # and compressed (review N13: the Welsh font's stylesheet, written after the service worker's
    # list, was missing offline, and its request failed in the console)
    app.connect("build-finished", _on_build_finished, priority=900)
    offline.setup_offline(app)
