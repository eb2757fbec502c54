"""Where the extension reads the project's own files: configuration values with defaults.

=========================  ==========================================  ===========================================
value                      default (from the folder of ``conf.py``)    what is read there
=========================  ==========================================  ===========================================
``tafl_data_dir``          ``docs/data``                               the balance lab's results (JSON files)
``tafl_texts_dir``         ``sources/texts``                           the stored copies behind the quotations
``tafl_sources_data_dir``  ``sources/data``                            transcriptions (Smith's tablut woodcut)
``tafl_fonts_dir``         ``node_modules/@fontsource/gentium-plus``   the Middle Welsh font (``None``: no font)
=========================  ==========================================  ===========================================

A relative value is read from the folder of ``conf.py`` (``app.confdir``), as Sphinx reads
``html_static_path``. A folder that is not there holds nothing: a small project without balance
results or stored texts still builds, and its tables say that there are no results yet. The
bibliography is sphinxcontrib-bibtex's own ``bibtex_bibfiles``; the board's runtime has its own
values (:mod:`tafl_sphinx.runtime`). The board's scripts and styles are the extension's own files
(:data:`tafl_sphinx.board.STATIC_DIR`), not the project's.

The folders are read once, when the build reads ``conf.py``, and kept with that build's
configuration (``tafl_roots``): a directive or a handler reads them with :func:`of` from the
configuration it has (``self.config``, ``app.config``), and passes them on to the functions that
read the project's files. Nothing is kept between builds, so two projects can be built in one
process (as ``sphinx.testing`` does). A script or a test that calls those functions outside a
build names the project's folders itself:

>>> roots = for_project(Path("/srv/site"))
>>> roots.texts.as_posix(), roots.bibfiles[0].name
('/srv/site/sources/texts', 'references.bib')
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config

#: Each folder's configuration value and its default, relative to the folder of ``conf.py``.
DEFAULTS: dict[str, str] = {
    "tafl_data_dir": "docs/data",
    "tafl_texts_dir": "sources/texts",
    "tafl_sources_data_dir": "sources/data",
    "tafl_fonts_dir": "node_modules/@fontsource/gentium-plus",
}


class FoldersUnknown(RuntimeError):
    """A configuration that no build of ``tafl_sphinx`` has read (so that it holds no folders)."""


@dataclasses.dataclass(frozen=True)
class Roots:
    """The folders of one project, as absolute paths."""

    data: Path
    texts: Path
    sources_data: Path
    fonts: Path | None
    bibfiles: tuple[Path, ...] = ()


def _resolve(confdir: Path, value: object, name: str) -> Path:
    if not isinstance(value, (str, Path)) or not str(value):
        raise TypeError(f"{name} is a folder (a path, relative to the folder of conf.py), not {value!r}")
    return (confdir / value).resolve()


def read(confdir: Path, config: Config) -> Roots:
    """The folders the configuration names, resolved against ``confdir``."""
    fonts = config.tafl_fonts_dir
    return Roots(data=_resolve(confdir, config.tafl_data_dir, "tafl_data_dir"),
                 texts=_resolve(confdir, config.tafl_texts_dir, "tafl_texts_dir"),
                 sources_data=_resolve(confdir, config.tafl_sources_data_dir, "tafl_sources_data_dir"),
                 fonts=None if fonts is None else _resolve(confdir, fonts, "tafl_fonts_dir"),
                 bibfiles=tuple(_resolve(confdir, f, "bibtex_bibfiles") for f in getattr(config, "bibtex_bibfiles", ())))


def for_project(confdir: Path, *, bibfiles: tuple[str, ...] = ("docs/references.bib",)) -> Roots:
    """The default folders of a project whose ``conf.py`` is in ``confdir`` (for scripts and tests)."""
    confdir = Path(confdir)
    return Roots(data=(confdir / DEFAULTS["tafl_data_dir"]).resolve(),
                 texts=(confdir / DEFAULTS["tafl_texts_dir"]).resolve(),
                 sources_data=(confdir / DEFAULTS["tafl_sources_data_dir"]).resolve(),
                 fonts=(confdir / DEFAULTS["tafl_fonts_dir"]).resolve(),
                 bibfiles=tuple((confdir / f).resolve() for f in bibfiles))


def of(config: Config) -> Roots:
    """The folders of the project whose configuration this is (read when its build read ``conf.py``)."""
    found = config.tafl_roots
    if not isinstance(found, Roots):
        raise FoldersUnknown("tafl_sphinx has not read the project's folders from this configuration: they are "
                             "read when a build reads conf.py (outside a build, use roots.for_project(folder))")
    return found


def _configure(app: Sphinx, config: Config) -> None:
    config.tafl_roots = read(Path(app.confdir), config)


def exclude_caches(app: Sphinx, config: Config) -> None:
    """Tool caches at the project's root are not pages (``**/.pytest_cache`` misses the root one)."""
    for pattern in (".pytest_cache", ".hypothesis", ".stamps"):
        if pattern not in config.exclude_patterns:
            config.exclude_patterns.append(pattern)


def setup_roots(app: Sphinx) -> None:
    for name, default in DEFAULTS.items():
        app.add_config_value(name, default, "env", types=frozenset({str, Path, type(None)}))
    # filled from the values above when conf.py is read (rebuild "": the values themselves decide that)
    app.add_config_value("tafl_roots", None, "", types=frozenset({Roots, type(None)}))
    app.connect("config-inited", _configure)
    app.connect("config-inited", exclude_caches)
