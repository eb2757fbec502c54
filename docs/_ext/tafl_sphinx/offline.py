"""The site as an app: a service worker that keeps it for reading and playing offline, a web app
manifest with icons drawn from the board, and build ids that keep one build from mixing with another.

The app is a project's choice, ``tafl_offline = True`` in its ``conf.py`` (off by default; it needs
the boards' runtime, ``tafl_runtime``). Without it a site is served with neither the service worker
(nor its template) nor ``tafl-app.mjs``; its pages still carry the build ids, which the boards' worker reads.

Two ids name a build (both short sha256 digests):

- the **build** covers what the boards run: the Pyodide runtime, the ``tafl_rules`` wheel and the
  board's scripts. The Pyodide snapshot is made for it (``tafl_rules.webapi.BUILD``), each page
  names it (``<meta name="tafl-build">``, also passed to the rules worker), and the worker runs no
  snapshot made for another build;
- the **version** covers everything else that is served (pages, styles, the search index).

The service worker (``tafl-sw.js`` at the site's root, from the template ``_static/tafl-sw.js``)
carries both. It keeps the runtime in a cache named after the build and the pages a reader opened
(with the files every page uses) in a cache named after the version, serves a page of another
build or version only from the network, and waits, once a new build is published, until the
reader accepts it (``_static/tafl-app.mjs`` offers the reload).

Chosen over Workbox (npm ``workbox-build``), which would add 323 packages (77 MB) to the
build for a 17 KB worker, and whose runtime caches are not kept per build: the rules above
(a cache per build, a page of another build never served from it) would be custom code either way.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

from .util import STATIC_DIR

TEMPLATE = STATIC_DIR / "tafl-sw.js"
SERVICE_WORKER = "tafl-sw.js"
APP_SCRIPT = "tafl-app.mjs"            # registers the service worker, offers an update
MANIFEST = "manifest.webmanifest"
START_PAGE = "index.html"
OFFLINE_PAGE = "docs/offline.html"      # reading and playing offline: keep the whole site
NOT_KEPT_PAGE = "docs/not-kept.html"    # stands in, offline, for a page not kept yet
ICON_SIZES = (192, 512)
# the board's half-diagonal within the safe circle: sqrt(2) / 2 / (1 + 2 m) <= 0.4 gives m >= 0.384
MASKABLE_MARGIN = 0.4
THEME_COLOUR = "#4a3b2a"   # the board's edge (tafl-site.css --tafl-board-edge)
BACKGROUND = "#f7f2e8"      # the panels' colour (--tafl-panel)
WOOD, LINE, ATTACKER, DEFENDER, KING = "#e3cc9f", "#8c7352", "#2b2118", "#f6f1e7", "#f2c94c"

#: Made at the end of each build from the runtime (runtime.make_snapshot): addressed with ``?build=``.
MADE_FOR_THE_BUILD = ("tafl-snapshot.bin", "tafl-stdlib.zip")
COMPRESSED = (".br", ".gz")   # compress.ENCODINGS' copies

_BUILD_META = re.compile(r'(<meta name="tafl-build" content=")[0-9a-f]*(")')
_VERSION_META = re.compile(r'(<meta name="tafl-version" content=")[0-9a-f]*(")')
_BUILD_ATTR = re.compile(r'(data-tafl-build=")[0-9a-f]*(")')
_RUNTIME_META = re.compile(r'(<meta name="tafl-runtime" content=")[^"]*(")')


def head_tags(pathto: Any, *, app: bool = True) -> str:
    """The tags every page's head gets: the build, version and runtime's sizes (filled in when the
    build ends), and with ``app`` (``tafl_offline``) the manifest and the colour of the app's title bar."""
    stamps = '<meta name="tafl-build" content=""><meta name="tafl-version" content=""><meta name="tafl-runtime" content="">'
    if not app:
        return stamps
    return (stamps + f'<link rel="manifest" href="{html.escape(pathto(MANIFEST, 1))}">'
            f'<meta name="theme-color" content="{THEME_COLOUR}">'
            f'<link rel="apple-touch-icon" href="{html.escape(pathto("_static/tafl-icon-192.png", 1))}">')


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(hashlib.sha256(part).digest())
    return h.hexdigest()[:16]


def _served(path: Path) -> bool:
    """A file of the site (not a compressed copy of one, which is the same file to a browser)."""
    return path.is_file() and not (path.suffix in COMPRESSED and path.with_suffix("").is_file())


def _files(outdir: Path) -> list[Path]:
    return sorted(p for p in outdir.rglob("*") if _served(p) and not any(part.startswith(".") for part in p.relative_to(outdir).parts))


def _runtime(outdir: Path) -> list[Path]:
    return [p for p in sorted((outdir / "_static" / "pyodide").glob("*")) if _served(p)]


def build_id(outdir: Path) -> str:
    """The build: the served Pyodide runtime with its lockfile and wheel, and the board's scripts
    (not what is made from them: the snapshot, the standard library)."""
    static = outdir / "_static"
    runtime = [p for p in _runtime(outdir) if p.name not in MADE_FOR_THE_BUILD]
    scripts = sorted(p for p in static.glob("tafl-*") if _served(p) and p.name != SERVICE_WORKER)
    return _digest(*(p.relative_to(outdir).as_posix().encode() + b"\0" + p.read_bytes() for p in runtime + scripts))


def _unstamped(text: str) -> str:
    for pattern in (_BUILD_META, _VERSION_META, _BUILD_ATTR, _RUNTIME_META):
        text = pattern.sub(r"\1\2", text)
    return text


def site_version(outdir: Path, build: str) -> str:
    """The version: the build and every other file served (pages read without their stamps)."""
    parts = [build.encode()]
    for path in _files(outdir):
        rel = path.relative_to(outdir).as_posix()
        if rel.startswith("_static/pyodide/") or rel in (SERVICE_WORKER, f"_static/{SERVICE_WORKER}"):
            continue
        data = path.read_bytes()
        if path.suffix == ".html":
            data = _unstamped(data.decode("utf-8", "replace")).encode()
        parts.append(rel.encode() + b"\0" + data)
    return _digest(*parts)


def runtime_sizes(outdir: Path) -> dict[str, int]:
    """The size of each runtime file a board's start fetches (as the browser decodes it), by name:
    the board counts its loading against them (``tafl-worker-client.mjs``)."""
    return {p.name: p.stat().st_size for p in _runtime(outdir) if p.suffix in (".wasm", ".bin", ".zip", ".whl")}


def stamp_pages(outdir: Path, build: str, version: str) -> int:
    """Write the build, version and runtime's sizes into every page (all of them, also those an
    incremental build kept)."""
    count = 0
    runtime = html.escape(json.dumps({"sizes": runtime_sizes(outdir)}, sort_keys=True, separators=(",", ":")))
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        stamped = _BUILD_ATTR.sub(rf"\g<1>{build}\2", _VERSION_META.sub(rf"\g<1>{version}\2", _BUILD_META.sub(rf"\g<1>{build}\2", text)))
        stamped = _RUNTIME_META.sub(lambda m: f"{m.group(1)}{runtime}{m.group(2)}", stamped)
        if stamped != text:
            page.write_text(stamped, encoding="utf-8")
            count += 1
    return count


def _integrity(path: Path) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()


def runtime_files(outdir: Path, build: str) -> list[list[str]]:
    """[address relative to the site's root, subresource integrity] of what a board runs (either way
    it starts: ``runtime_starts``)."""
    static = outdir / "_static"
    out = [[f"_static/tafl-worker.mjs?build={build}", _integrity(static / "tafl-worker.mjs")]]
    for path in _runtime(outdir):
        query = f"?build={build}" if path.name in MADE_FOR_THE_BUILD else ""
        out.append([f"_static/pyodide/{path.name}{query}", _integrity(path)])
    return out


def runtime_starts(outdir: Path, build: str) -> dict[str, list[str]]:
    """The runtime files each way of starting a board needs (``tafl-worker.mjs``), by address."""
    common = [f"_static/tafl-worker.mjs?build={build}"] + [
        f"_static/pyodide/{name}" for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")]
    wheels = [f"_static/pyodide/{p.name}" for p in _runtime(outdir) if p.suffix == ".whl"]
    return {"snapshot": common + [f"_static/pyodide/tafl-snapshot.bin?build={build}"],
            "fresh": common + [f"_static/pyodide/tafl-stdlib.zip?build={build}"] + wheels}


def site_pages(outdir: Path) -> tuple[list[str], list[str]]:
    """What "keep the whole site" keeps beside the shell: the pages (every page stamped with the
    version), and every other file outside ``_static`` (downloads, the search index, the small
    pages that redirect an old address)."""
    pages: list[str] = []
    files: list[str] = []
    trees = translation_trees(outdir)
    for path in _files(outdir):
        rel = path.relative_to(outdir).as_posix()
        if rel.startswith(("_static/", "_sources/")) or rel in (SERVICE_WORKER, "objects.inv"):
            continue
        tree = next((tree for tree in trees if rel.startswith(tree)), "")
        inner = rel[len(tree):]
        if tree and (inner.startswith(("_sources/", "_models/")) or inner == "objects.inv"  # the worker reads the first tree's model
                     or inner.startswith("_static/") and not _page_static(path, inner.removeprefix("_static/"))):
            continue
        stamped = path.suffix == ".html" and _VERSION_META.search(path.read_text(encoding="utf-8", errors="replace"))
        (pages if stamped else files).append(rel)
    return pages, files


def _page_static(path: Path, rel: str) -> bool:
    """Whether a file of a tree's ``_static`` (``rel`` within it) is one pages use: not the runtime, the
    theme's translations, source maps, nor the rules worker (kept with the runtime)."""
    return (_served(path) and not rel.startswith(("pyodide/", "locales/")) and path.suffix not in (".map", ".html", ".txt")
            and rel not in ("tafl-worker.mjs", SERVICE_WORKER))


def translation_trees(outdir: Path) -> list[str]:
    """The folders of the other languages' trees ("cy/"): each has its own page that stands in,
    offline, for a page of that language not kept yet (tafl_sphinx.language)."""
    return sorted(f"{path.relative_to(outdir).parts[0]}/" for path in outdir.glob(f"*/{NOT_KEPT_PAGE}"))


def shell_files(outdir: Path) -> list[str]:
    """The files pages use (styles, scripts, fonts, icons, the search index), kept with the first page."""
    static = outdir / "_static"
    keep = [f"_static/{path.relative_to(static).as_posix()}" for path in sorted(static.rglob("*"))
            if _page_static(path, path.relative_to(static).as_posix())]
    return keep + [f for f in ("searchindex.js", MANIFEST) if (outdir / f).is_file()]


def write_service_worker(outdir: Path, build: str, version: str) -> Path:
    """``tafl-sw.js`` at the site's root (its scope is the whole site, also under a sub-path)."""
    pages, files = site_pages(outdir)
    config = {"build": build, "version": version, "runtime": runtime_files(outdir, build),
              "starts": runtime_starts(outdir, build), "shell": shell_files(outdir), "pages": pages, "files": files,
              "start": START_PAGE, "offline": OFFLINE_PAGE, "notKept": NOT_KEPT_PAGE, "trees": translation_trees(outdir)}
    text = TEMPLATE.read_text(encoding="utf-8")
    marker = "const SITE = {};"
    if marker not in text:
        raise ValueError(f"{TEMPLATE} has no line {marker!r} to fill in")
    text = text.replace(marker, f"const SITE = {json.dumps(config, indent=1)};", 1)
    target = outdir / SERVICE_WORKER
    target.write_text(text, encoding="utf-8")
    (outdir / "_static" / SERVICE_WORKER).unlink(missing_ok=True)  # the template, copied with _static
    return target


# ---------------------------------------------------------------- the manifest and its icons

def _board_ranks() -> list[str]:
    """The home page's board at its start: the same state the page draws (tafl_rules.webapi)."""
    from tafl_rules import webapi

    state = json.loads(webapi.handle("new", json.dumps({"board": "icon"})))
    return list(state["ranks"])


def draw_icon(size: int, *, maskable: bool = False) -> bytes:
    """A PNG of the home page's board at its start (drawn from the catalogue's layout), ``size`` pixels
    square; ``maskable`` keeps the whole board, corners and frame, inside the circle of 40 % of the
    icon's width about its centre that every icon mask shows (the maskable icon's safe zone)."""
    import io

    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, Rectangle

    ranks = _board_ranks()
    n = len(ranks)
    margin = MASKABLE_MARGIN if maskable else 0.03
    figure = Figure(figsize=(1, 1), dpi=size)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(-margin * n, n + margin * n)
    axes.set_ylim(-margin * n, n + margin * n)
    axes.set_aspect("equal")
    axes.axis("off")
    figure.patch.set_facecolor(BACKGROUND if maskable else THEME_COLOUR)
    points = 72  # line widths are in points: a fraction of the icon's width times 72 (it is one inch)
    axes.add_patch(Rectangle((0, 0), n, n, facecolor=WOOD, edgecolor=THEME_COLOUR, linewidth=0.012 * points))
    for i in range(1, n):
        axes.plot([i, i], [0, n], color=LINE, linewidth=0.004 * points)
        axes.plot([0, n], [i, i], color=LINE, linewidth=0.004 * points)
    style = {"t": (ATTACKER, ATTACKER, 0.36), "T": (DEFENDER, ATTACKER, 0.36), "K": (KING, ATTACKER, 0.42)}
    for row, rank in enumerate(ranks):
        for col, piece in enumerate(rank):
            if piece in style:
                face, edge, radius = style[piece]
                axes.add_patch(Circle((col + 0.5, n - row - 0.5), radius, facecolor=face, edgecolor=edge, linewidth=0.005 * points))
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=size, facecolor=figure.get_facecolor())
    return out.getvalue()


def write_manifest(outdir: Path, name: str, short_name: str, description: str) -> Path:
    """``manifest.webmanifest`` at the root: installed, the site opens on its home page, offline too."""
    static = outdir / "_static"
    icons = []
    for size in ICON_SIZES:
        (static / f"tafl-icon-{size}.png").write_bytes(draw_icon(size))
        icons.append({"src": f"_static/tafl-icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png"})
    (static / "tafl-icon-maskable-512.png").write_bytes(draw_icon(512, maskable=True))
    icons.append({"src": "_static/tafl-icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"})
    manifest = {
        "name": name, "short_name": short_name, "description": description,
        "id": f"./{START_PAGE}", "start_url": f"./{START_PAGE}", "scope": "./", "display": "standalone",
        "background_color": BACKGROUND, "theme_color": THEME_COLOUR, "icons": icons,
    }
    target = outdir / MANIFEST
    target.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return target


def stamp_site(outdir: Path, build: str) -> str:
    """After the runtime and its snapshot are in place, for a site that is not an app: the version
    and the stamps in every page (the boards' worker runs no snapshot of another build). Returns the version."""
    version = site_version(outdir, build)
    stamp_pages(outdir, build, version)
    return version


def finish_site(outdir: Path, build: str, *, name: str, short_name: str) -> str:
    """After the runtime and its snapshot are in place: the manifest and icons, then the version,
    the stamps in every page and the service worker. Returns the version."""
    write_manifest(outdir, name, short_name,
                   "Play and compare the reconstructions of tawlbwrdd, the Welsh tafl game, offline too.")
    version = site_version(outdir, build)
    stamp_pages(outdir, build, version)
    write_service_worker(outdir, build, version)
    return version


def _head(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None) -> None:
    if app.config.tafl_runtime:
        context["metatags"] = context.get("metatags", "") + head_tags(context["pathto"], app=app.config.tafl_offline)


def is_app(config: Any) -> bool:
    """Whether the site becomes an app kept for offline use: ``tafl_offline``, with the boards' runtime."""
    return bool(config.tafl_offline and config.tafl_runtime)


def _add_app_script(app: Sphinx) -> None:
    if app.builder.format == "html" and is_app(app.config):
        app.add_js_file(APP_SCRIPT, type="module")


def _drop_app_files(app: Sphinx, exception: Exception | None) -> None:
    """A site that is not an app serves neither the service worker's template nor the script that
    registers it (both are in the extension's static folder, which Sphinx copies whole)."""
    if exception is None and app.builder.format == "html" and not is_app(app.config):
        for name in (SERVICE_WORKER, APP_SCRIPT):
            (Path(app.outdir) / "_static" / name).unlink(missing_ok=True)


def setup_offline(app: Sphinx) -> None:
    # The site as an app (the service worker, the manifest and its icons, the script that offers an
    # update): a site's own choice, off unless its conf.py says ``tafl_offline = True``.
    app.add_config_value("tafl_offline", False, "html", bool)
    app.connect("builder-inited", _add_app_script)
    app.connect("html-page-context", _head)
    # before the runtime's handler (900), which makes the build id of the scripts served
    app.connect("build-finished", _drop_app_files, priority=800)
