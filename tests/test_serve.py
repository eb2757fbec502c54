"""The built site's pre-compressed copies (``tafl_sphinx.compress``) and how ``make serve``
(``tafl_sphinx.serve``) answers with them: by ``Accept-Encoding``, with ``Content-Encoding`` and
``Vary``, never a stale copy, and with caching headers that keep an address naming its build."""

from __future__ import annotations

import gzip
import os
import time
import urllib.request
from pathlib import Path

import brotli
import pytest

from tafl_sphinx import compress
from tafl_sphinx.serve import IMMUTABLE, accepted_encodings, serve_in_thread

PAGE = ("<!doctype html><title>t</title>" + "<p>tawlbwrdd, the Welsh tafl game</p>" * 200).encode()


@pytest.fixture
def site(tmp_path) -> Path:
    root = tmp_path / "html"
    (root / "_static" / "pyodide").mkdir(parents=True)
    (root / "index.html").write_bytes(PAGE)
    (root / "_static" / "board.mjs").write_bytes(b"export const a = 1;\n" * 100)
    (root / "_static" / "icon.png").write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(4000))
    (root / "_static" / "pyodide" / "tafl-snapshot.bin").write_bytes(bytes(200_000) + b"end")
    (root / "_static" / "pyodide" / "tafl-stdlib.zip").write_bytes(b"PK" + b"def f(): pass\n" * 400)
    (root / "_static" / "pyodide" / "other.zip").write_bytes(b"PK" + os.urandom(3000))
    (root / "tiny.js").write_bytes(b"x")
    return root


@pytest.fixture
def base(site, tmp_path):
    """The site, compressed as a build leaves it, on ``make serve``'s server."""
    compress.precompress(site, tmp_path / "cache")
    server = serve_in_thread(str(site))
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def get(url: str, encoding: str | None, method: str = "GET", headers: dict[str, str] | None = None):
    request = urllib.request.Request(url, method=method, headers={**({"Accept-Encoding": encoding} if encoding is not None else {}),
                                                                  **(headers or {})})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_the_build_writes_brotli_and_gzip_beside_what_compresses_and_nothing_beside_the_rest(site, tmp_path):
    count = compress.precompress(site, tmp_path / "cache")
    assert count == 4  # the page, the script, the snapshot, the stored library (not the PNG, other zips, tiny files)
    assert brotli.decompress((site / "index.html.br").read_bytes()) == PAGE
    assert gzip.decompress((site / "index.html.gz").read_bytes()) == PAGE
    assert (site / "_static" / "pyodide" / "tafl-stdlib.zip.br").is_file()
    for untouched in ("_static/icon.png", "_static/pyodide/other.zip", "tiny.js"):
        assert not (site / f"{untouched}.br").exists() and not (site / f"{untouched}.gz").exists(), untouched


def test_a_second_build_takes_unchanged_files_from_the_cache_and_drops_copies_of_removed_files(site, tmp_path, monkeypatch):
    compress.precompress(site, tmp_path / "cache")
    hours_ago = time.time() - 2 * 3600
    for entry in (tmp_path / "cache").iterdir():
        os.utime(entry, (hours_ago, hours_ago))
    made = []
    real = compress._compressed
    monkeypatch.setattr(compress, "_compressed", lambda data, encoding: made.append(encoding) or real(data, encoding))
    (site / "tiny.js").unlink()
    (site / "_static" / "board.mjs").unlink()
    (site / "index.html").write_bytes(PAGE + b"<p>changed</p>")
    compress.precompress(site, tmp_path / "cache")
    assert sorted(made) == ["br", "gzip"], "only the changed page was compressed again"
    assert not (site / "_static" / "board.mjs.br").exists() and not (site / "_static" / "board.mjs.gz").exists()
    assert brotli.decompress((site / "index.html.br").read_bytes()).endswith(b"changed</p>")
    assert len(list((tmp_path / "cache").iterdir())) == 6, "the cache keeps what this build used, and drops what none has for an hour"


@pytest.mark.parametrize("header, accepted", [
    ("gzip, deflate, br, zstd", {"gzip", "deflate", "br", "zstd"}),
    ("br;q=0, gzip;q=0.5", {"gzip"}),
    ("GZIP", {"gzip"}),
    ("", set()),
    (None, set()),
    ("br;q=nonsense", set()),
])
def test_accept_encoding_is_read_with_its_weights(header, accepted):
    assert accepted_encodings(header) == accepted


def test_the_server_sends_the_copy_the_browser_accepts_with_its_headers(site, base):
    status, headers, body = get(f"{base}/", "gzip, deflate, br, zstd")
    assert (status, headers["Content-Encoding"], headers["Vary"]) == (200, "br", "Accept-Encoding")
    assert headers["Content-Type"].startswith("text/html") and int(headers["Content-Length"]) == len(body)
    assert brotli.decompress(body) == PAGE
    status, headers, body = get(f"{base}/index.html", "gzip")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == PAGE
    status, headers, body = get(f"{base}/index.html", "br;q=0, gzip;q=0")
    assert "Content-Encoding" not in headers and body == PAGE and headers["Vary"] == "Accept-Encoding"
    status, headers, body = get(f"{base}/_static/icon.png", "br")
    assert "Content-Encoding" not in headers and "Vary" not in headers
    status, headers, body = get(f"{base}/index.html", "br", method="HEAD")
    assert headers["Content-Encoding"] == "br" and body == b""
    # a page changed after the build compressed it: the stale copy is not sent
    later = time.time() + 5
    os.utime(site / "index.html", (later, later))
    status, headers, body = get(f"{base}/index.html", "br")
    assert "Content-Encoding" not in headers and body == PAGE


def test_an_address_naming_its_build_is_kept_a_year_and_any_other_is_checked_each_time(base):
    _status, headers, _body = get(f"{base}/_static/pyodide/tafl-snapshot.bin?build=0123abcd", "br")
    assert headers["Cache-Control"] == IMMUTABLE and headers["Content-Encoding"] == "br"
    _status, headers, _body = get(f"{base}/_static/pyodide/tafl-snapshot.bin", "br")
    assert headers["Cache-Control"] == "no-cache"
    status, headers, _body = get(f"{base}/index.html", "br")
    status, _headers, body = get(f"{base}/index.html", "br", headers={"If-Modified-Since": headers["Last-Modified"]})
    assert status == 304 and body == b""
    status, headers, _body = get(f"{base}/no-such.html?build=0123abcd", "br")
    assert status == 404 and headers["Cache-Control"] == "no-cache"
