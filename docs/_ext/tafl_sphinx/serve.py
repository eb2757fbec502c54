"""Serve a built site on loopback with the MIME types module workers and WebAssembly need.

``python -m tafl_sphinx.serve [--host 127.0.0.1] [--port 8000] DIR``
"""

from __future__ import annotations

import argparse
import functools
import http.server
import threading
import urllib.parse


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".whl": "application/zip",
        ".json": "application/json",
    }

    def send_head(self):  # type: ignore[no-untyped-def]
        # a NUL in the path cannot name a file: answer 404 instead of dropping the connection
        if "\x00" in urllib.parse.unquote(self.path):
            self.send_error(404, "File not found")
            return None
        return super().send_head()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # quiet unless asked
        if self.server.verbose:
            super().log_message(format, *args)


def make_server(directory: str, host: str = "127.0.0.1", port: int = 0, verbose: bool = False):
    """A ThreadingHTTPServer for ``directory``; port 0 picks a free one (``server.server_port``)."""
    server = http.server.ThreadingHTTPServer((host, port), functools.partial(Handler, directory=directory))
    server.verbose = verbose
    return server


def serve_in_thread(directory: str, host: str = "127.0.0.1"):
    server = make_server(directory, host)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    server = make_server(args.directory, args.host, args.port, verbose=True)
    print(f"serving {args.directory} on http://{args.host}:{server.server_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
