"""``conf.py`` of a small project that uses the extension (installed with the project, no sys.path line)
and reads this repository's data: its stored texts, balance results and transcriptions, each through
the extension's own configuration value (tafl_sphinx.roots)."""

from __future__ import annotations

from pathlib import Path

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

