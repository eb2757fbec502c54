"""Serve a built site on loopback as a static host would: the MIME types module workers and
WebAssembly need, the site's own ``404.html`` for a missing address, and optionally the whole
site under a sub-path (as on ``https://example.org/tawlbwrdd/``).

Each file goes out pre-compressed when the build wrote a copy the browser accepts
(``tafl_sphinx.compress``: ``NAME.br``, else ``NAME.gz``, by ``Accept-Encoding``), with
``Content-Encoding`` and ``Vary: Accept-Encoding``. An address that names its build (``?build=``:
the rules worker and the snapshot) never changes, so it may be kept a year (``immutable``); any
other is checked with the server each time it is used (``no-cache``, with ``Last-Modified``).

``python -m tafl_sphinx.serve [--host 127.0.0.1] [--port 8000] [--prefix /tawlbwrdd/] DIR``
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import http.server
import os
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from .compress import ENCODINGS

IMMUTABLE = "public, max-age=31536000, immutable"


def accepted_encodings(header: str | None) -> set[str]:
    """The content codings an ``Accept-Encoding`` header accepts (``q=0`` refuses one)."""
    accepted: set[str] = set()
    for item in (header or "").split(","):
        name, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name and quality > 0:
            accepted.add(name.strip().lower())
    return accepted


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".whl": "application/zip",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
    }

    def __init__(self, *args: Any, directory: str, prefix: str = "/", **kwargs: Any) -> None:
        self.prefix = prefix
        self.varies = False  # a pre-compressed copy exists: the answer depends on Accept-Encoding
        self._status = 200
        super().__init__(*args, directory=directory, **kwargs)

    def send_head(self):  # type: ignore[no-untyped-def]
        # a NUL in the path cannot name a file: answer 404 instead of dropping the connection
        if "\x00" in urllib.parse.unquote(self.path):
            self.send_error(404, "File not found")
            return None
        path = self._file_asked_for()
        if path is not None:
            encoded = self._send_encoded(path)
            if encoded is not False:
                return encoded
        return super().send_head()

    def _file_asked_for(self) -> str | None:
        """The file the request names (a folder's index.html), or None (a folder to redirect, or nothing)."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not urllib.parse.urlsplit(self.path).path.endswith("/"):
                return None
            path = os.path.join(path, "index.html")
        return path if os.path.isfile(path) else None

    def _send_encoded(self, path: str):  # type: ignore[no-untyped-def]
        """Answer with the pre-compressed copy of ``path`` the client accepts; False when there is none."""
        # (a copy older than its file is stale: the file was written again after the build compressed it)
        modified = os.stat(path).st_mtime
        copies = {encoding: path + suffix for encoding, suffix in ENCODINGS.items()
                  if os.path.isfile(path + suffix) and os.stat(path + suffix).st_mtime >= modified}
        if not copies:
            return False
        self.varies = True
        accepted = accepted_encodings(self.headers.get("Accept-Encoding"))
        encoding = next((e for e in ENCODINGS if e in copies and e in accepted), None)
        if encoding is None:
            return False
        stat = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since and not self.headers.get("If-None-Match"):
            try:
                if int(stat.st_mtime) <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(304)
                    self.end_headers()
                    return None
            except (TypeError, ValueError, OverflowError, IndexError):
                pass
        body = open(copies[encoding], "rb")  # noqa: SIM115 (closed by the caller, as send_head's file)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(os.fstat(body.fileno()).st_size))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return body

    def end_headers(self) -> None:
        query = urllib.parse.urlsplit(self.path).query
        immutable = "build" in urllib.parse.parse_qs(query) and self._status == 200
        self.send_header("Cache-Control", IMMUTABLE if immutable else "no-cache")
        if self.varies:
            self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def send_response(self, code: int, message: str | None = None) -> None:
        self._status = code
        super().send_response(code, message)

    def _within_prefix(self) -> bool:
        """Strip the sub-path from the request; answer a redirect or a 404 for an address outside it."""
        self.varies = False  # (one handler answers every request of a kept-alive connection)
        self._status = 200
        if self.prefix == "/":
            return True
        path = self.path.split("?", 1)[0]
        if path == self.prefix.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.end_headers()
            return False
        if not self.path.startswith(self.prefix):
            self.send_error(404, "File not found")
            return False
        self.path = "/" + self.path[len(self.prefix):]
        return True

    def do_GET(self) -> None:
        if self._within_prefix():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._within_prefix():
            super().do_HEAD()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # quiet unless asked
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


class Sent:
    """What a server wrote, response by response (the board benchmark and the network tests read it):
    ``responses`` holds ``{"at", "path", "status", "encoding", "bytes"}``, ``at`` in seconds from
    ``start`` and ``bytes`` as written to the socket, headers included."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.responses: list[dict[str, Any]] = []
        self.start = time.perf_counter()

    def handler(self) -> type[Handler]:
        """A :class:`Handler` that records here what it writes."""
        sent = self

        class Recording(Handler):
            def setup(self) -> None:
                super().setup()
                self.wfile = _Counting(self.wfile, self)  # type: ignore[assignment]  # (it writes through to the socket file)

            def send_response(self, code: int, message: str | None = None) -> None:
                self._sent = {"at": time.perf_counter() - sent.start, "path": self.path, "status": code, "encoding": "", "bytes": 0}
                with sent.lock:
                    sent.responses.append(self._sent)
                super().send_response(code, message)

            def send_header(self, keyword: str, value: str) -> None:
                if keyword.lower() == "content-encoding" and hasattr(self, "_sent"):
                    self._sent["encoding"] = value
                super().send_header(keyword, value)

        return Recording

    def written(self) -> int:
        with self.lock:
            return sum(r["bytes"] for r in self.responses)

    def sent_twice(self) -> list[str]:
        """The files sent whole (200) more than once, as ``name xN``."""
        with self.lock:
            counts: dict[str, int] = {}
            for r in self.responses:
                if r["status"] == 200:
                    counts[r["path"]] = counts.get(r["path"], 0) + 1
        return sorted(f"{path.rsplit('/', 1)[-1]} x{n}" for path, n in counts.items() if n > 1)


class _Counting:
    """A handler's output, counted into the response it is writing."""

    def __init__(self, raw: Any, handler: Any) -> None:
        self.raw, self.handler = raw, handler

    def write(self, data: bytes) -> int:
        if hasattr(self.handler, "_sent"):
            self.handler._sent["bytes"] += len(data)
        return int(self.raw.write(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class Server(http.server.ThreadingHTTPServer):
    verbose = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A reader who leaves a page while a file is still on its way is not an error."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def _normal_prefix(prefix: str) -> str:
    return "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"


def make_server(directory: str, host: str = "127.0.0.1", port: int = 0, verbose: bool = False, prefix: str = "/",
                handler: type[Handler] = Handler) -> Server:
    """A ThreadingHTTPServer for ``directory`` (under ``prefix``); port 0 picks a free one (``server.server_port``).
    ``handler``: a subclass of :class:`Handler` (the benchmark's counts the bytes it sends)."""
    server = Server((host, port), functools.partial(handler, directory=directory, prefix=_normal_prefix(prefix)))
    server.verbose = verbose
    return server


def serve_in_thread(directory: str, host: str = "127.0.0.1", prefix: str = "/") -> Server:
    server = make_server(directory, host, prefix=prefix)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefix", default="/", help="serve the site under this sub-path, e.g. /tawlbwrdd/")
    args = parser.parse_args(argv)
    prefix = _normal_prefix(args.prefix)
    server = make_server(args.directory, args.host, args.port, verbose=True, prefix=prefix)
    print(f"serving {args.directory} on http://{args.host}:{server.server_port}{prefix}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
