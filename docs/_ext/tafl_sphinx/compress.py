"""The built site's files written pre-compressed, for ``make serve`` and for any static host.

Beside each file a browser would receive compressed (pages, scripts, styles, data, the Pyodide
runtime and its snapshot) the build writes ``NAME.br`` (brotli) and ``NAME.gz`` (gzip), when they
are smaller than the file. ``tafl_sphinx.serve`` answers with one of them by the request's
``Accept-Encoding``; a static host does the same with its own setting (the README says how).
Files that are compressed already (PNG, WOFF2, zip archives, wheels) are left as they are.

Brotli at its best quality takes about 30 s for Pyodide's 9.6 MB WebAssembly on this project's
machine, so every result is kept in a cache folder beside the output folder, under the digest of
the file it was made from: a later build compresses only the files that changed. The one large
file that changes with every build (the snapshot, 31 MB of memory) is compressed at a lower
quality (``LARGE_QUALITY``), a few seconds instead of a minute and a half, for 13 % more bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import brotli  # type: ignore[import-untyped]  # (the brotli package ships no annotations)

#: The suffixes worth compressing (text, WebAssembly, the snapshot's memory).
COMPRESSIBLE = frozenset({".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".xml", ".webmanifest",
                          ".wasm", ".bin", ".map", ".ttf", ".otf", ".eot", ".ico", ".zip"})
#: Archives stored without compression (the browser's standard library) compress well; other zips do not.
STORED_ARCHIVES = ("tafl-stdlib.zip",)
ENCODINGS = {"br": ".br", "gzip": ".gz"}
SMALLEST = 512               # bytes: smaller files gain nothing worth a second request header
QUALITY = 11                 # brotli's best
LARGE = 16_000_000           # bytes: a file this large and new to the cache...
LARGE_QUALITY = 9            # ...is compressed at this quality (see the module's docstring)
GRACE_S = 3600               # a cached copy no build has used for this long is dropped


def wanted(path: Path) -> bool:
    """Whether the browser should get ``path`` compressed."""
    if path.suffix not in COMPRESSIBLE or path.name.startswith("."):
        return False
    if path.suffix == ".zip" and path.name not in STORED_ARCHIVES:
        return False
    return path.stat().st_size >= SMALLEST


def _site_files(outdir: Path) -> Iterator[Path]:
    for path in outdir.rglob("*"):
        rel = path.relative_to(outdir).parts
        if path.is_file() and not any(part.startswith(".") for part in rel) and wanted(path):
            yield path


def _compressed(data: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    quality = LARGE_QUALITY if len(data) >= LARGE else QUALITY
    return bytes(brotli.compress(data, quality=quality))


def _write(path: Path, cache: Path) -> list[str]:
    """Write ``path``'s compressed copies (from the cache when it has them); the cache entries used."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    used = []
    for encoding, suffix in ENCODINGS.items():
        target = path.with_name(path.name + suffix)
        kept = cache / f"{digest}{suffix}"
        used.append(kept.name)
        if kept.is_file():
            os.utime(kept)  # in use: not dropped for an hour
        else:
            packed = _compressed(data, encoding)
            temporary = kept.with_name(f"{kept.name}.{os.getpid()}.{threading.get_ident()}.part")
            temporary.write_bytes(packed)
            temporary.replace(kept)
        if kept.stat().st_size >= len(data):  # no smaller: the file is served as it is
            target.unlink(missing_ok=True)
            continue
        shutil.copyfile(kept, target)
        stat = path.stat()
        os.utime(target, (stat.st_atime, stat.st_mtime))  # as nginx's gzip_static asks: the file's own time
    return used


def default_cache(outdir: Path) -> Path:
    return outdir.parent / f".{outdir.name}-compressed"


def precompress(outdir: Path, cache: Path | None = None) -> int:
    """Write ``.br`` and ``.gz`` beside every compressible file of the site in ``outdir``, drop the
    copies of files no longer there; returns how many files were compressed."""
    cache = cache or default_cache(outdir)
    cache.mkdir(parents=True, exist_ok=True)
    for stale in [p for suffix in ENCODINGS.values() for p in outdir.rglob(f"*{suffix}")]:
        if not stale.with_name(stale.name[: -len(stale.suffix)]).is_file():
            stale.unlink()
    files = sorted(_site_files(outdir), key=lambda p: -p.stat().st_size)  # the longest first, in parallel
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        used = {name for names in pool.map(lambda p: _write(p, cache), files) for name in names}
    # what earlier builds needed and this one does not, once an hour old (a build running beside
    # this one, a test's, may be using it)
    for old in cache.iterdir():
        if old.name not in used and time.time() - old.stat().st_mtime > GRACE_S:
            old.unlink(missing_ok=True)
    return len(files)
