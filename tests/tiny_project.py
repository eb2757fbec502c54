"""``conf.py`` of a small project that uses the extension (installed with the project, no sys.path line)
and reads this repository's data: its stored texts, balance results and transcriptions, each through
the extension's own configuration value (tafl_sphinx.roots)."""

from __future__ import annotations

import dataclasses
from io import StringIO
from pathlib import Path
from typing import Any, Callable

from sphinx.errors import SphinxError
from sphinx.testing.util import SphinxTestApp
from sphinx.util.console import strip_colors

from tafl_sphinx import roots

ROOT = Path(__file__).resolve().parents[1]
#: This repository's folders, for the tests that call the extension's functions outside a build
#: (a build reads them from conf.py).
FOLDERS = roots.for_project(ROOT)


def conf(extensions: list[str], *, bibliography: bool = False, data: Path | None = None) -> str:
    """The text of conf.py: ``extensions``, no board runtime (these builds never run a board), no
    Middle Welsh font, and this repository's folders (``data``: another balance results folder)."""
    lines = [f"extensions = {extensions!r}",
             "tafl_runtime = False",  # no Pyodide copy or snapshot
             "tafl_fonts_dir = None",
             f"tafl_texts_dir = {str(ROOT / 'sources' / 'texts')!r}",
             f"tafl_sources_data_dir = {str(ROOT / 'sources' / 'data')!r}",
             f"tafl_data_dir = {str(data or ROOT / 'docs' / 'data')!r}"]
    if bibliography:
        lines.append(f"bibtex_bibfiles = [{str(ROOT / 'docs' / 'references.bib')!r}]")
    return "\n".join(lines) + "\n"


@dataclasses.dataclass(frozen=True)
class Built:
    """A build made in this process with ``sphinx.testing`` (the ``make_app`` fixture, or
    :class:`~sphinx.testing.util.SphinxTestApp`), reported as ``sphinx -W`` would: a warning or an
    error fails it (``returncode`` 1), ``stderr`` holds them and ``stdout`` the build's log."""

    returncode: int
    stdout: str
    stderr: str
    out: Path


def build(make_app: Callable[..., SphinxTestApp], srcdir: Path, **confoverrides: object) -> Built:
    """Build the project in ``srcdir`` (its ``conf.py`` and pages) as HTML into ``srcdir/_b/html``,
    reusing the environment a build before left there (``sphinx -W`` without ``-E``)."""
    app = make_app("html", srcdir=srcdir, builddir=srcdir / "_b", confoverrides=confoverrides or None)
    try:
        app.build()
    except SphinxError as error:  # an extension's error that stops the build
        app.warning.write(f"{type(error).__name__}: {error}\n")
    finally:
        app.cleanup()  # docutils' registries, for the next build of the same test
    warnings = strip_colors(app.warning.getvalue())
    return Built(1 if warnings else 0, strip_colors(app.status.getvalue()), warnings, Path(app.outdir))


def build_alone(srcdir: Path, **confoverrides: object) -> Built:
    """:func:`build` with a :class:`SphinxTestApp` of its own, cleaned up at once (for a fixture
    that outlives one test, which ``make_app`` cannot serve)."""
    apps: list[SphinxTestApp] = []

    def make(*args: Any, **kwargs: Any) -> SphinxTestApp:
        apps.append(SphinxTestApp(*args, status=StringIO(), warning=StringIO(), **kwargs))
        return apps[-1]

    try:
        return build(make, srcdir, **confoverrides)
    finally:
        for app in apps:
            app.cleanup()
