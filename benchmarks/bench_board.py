"""Time from navigation to a board that accepts moves, in headless Chromium, on the built site.

Cold: a fresh browser context each run (empty HTTP cache, no service worker). Warm: a reload in
a context that has loaded the page once, at once; and, where the site has a service worker, a
reload once that worker has kept the page and its runtime (the second visit of a reader).
Also: click-to-highlight latency. Prints medians of N runs, with the machine's load average.

With ``--against DIR``: a second built site (say, a build of an earlier commit, made with
``git worktree add`` and ``make site``) measured in the same run, run for run in turn with this
one, so that both see the same load; its figures are printed beside.

With ``--ai 1,2,3``: the computer player's move time in the browser worker (wall clock
from request to reply), at each level, on the positions that ``bench_ai.py`` uses for
CPython (plies 0, 3, 6, ... of a level-1 self-play game of each of its variants), so the
two medians compare; ``--ai-positions`` sets how many positions per variant. ``people`` among
the levels times the people-like player the same way; its first move, which fetches and reads
its model, is reported on its own.

With ``--network 10:40,1.6:150``: a first visit (a fresh browser profile) of ``--network-page`` (a
variant page) through Chromium's network emulation (CDP ``Network.emulateNetworkConditions``) at
each download speed (Mbit/s) and latency (ms), with Lighthouse's upload speeds (10 Mbit/s on the
fast profile, 0.75 Mbit/s on a slow one): the time to a board that accepts moves, beside the bytes
of the responses that arrived before then (as Chromium counts them: body as sent, plus headers), the
bytes the server had written by then (more, by what sat in the sockets' buffers), the files still on
their way, any file sent twice and the encodings used. ``--network-runs`` sets the runs per profile.

With ``--people-network 10:40,1.6:150``: the people-like player's first move on the network page,
the page loaded at full speed in a fresh profile and then the network emulated as above: the
seconds from asking for the move (which fetches the model, by its digest, from ``_models/``) to the
answer, beside the bytes of the model as the server sends it.

With ``--long 1000,2000,5000``: long games. For each length, a share link of that many moves
(a legal shuffle on the lewis-1 page) is opened in a fresh context, timed from navigation until
the board accepts moves with the whole move list drawn; then the same game as a saved game
(local storage, no link), timed from reload to the same point; then one more move, timed from
the click to the move list showing it. Medians of ``--long-runs``.

    .venv/bin/python benchmarks/bench_board.py [--runs 5] [--page index.html] [--site DIR] [--against DIR]
                                               [--network 10:40,1.6:150] [--ai 1,2,3,4,5] [--long 1000,5000]
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from playwright.sync_api import TimeoutError as PlaywrightTimeout, sync_playwright  # noqa: E402

from tafl_sphinx import serve  # noqa: E402
from tafl_sphinx.serve import serve_in_thread  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))  # bench_ai puts the project root on the path itself
from bench_ai import LARGE, VARIANTS, positions  # noqa: E402

from tafl_rules import Game  # noqa: E402

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
READY = '.tafl-board[data-ready="true"]'
READY_OR_FAILED = '.tafl-board[data-ready="true"], .tafl-board[data-ready="error"]'


LONGTASK_PROBE = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longtasks.push(entry.duration);
}).observe({ type: "longtask", buffered: true });
"""


def longest_main_thread_task(page) -> float:
    """Milliseconds of the longest main-thread task seen so far (0 if none reached the 50 ms threshold)."""
    return page.evaluate("() => Math.max(0, ...window.__longtasks)")


def load_average() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def time_to_ready(page, url: str) -> float:
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(READY, timeout=120_000)
    return time.perf_counter() - start


def time_to_picture(page, url: str) -> float:
    """Seconds from navigation to the board's picture (drawn at build time) being on screen."""
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_selector(".tafl-board .tafl-frame", state="visible", timeout=120_000)
    return time.perf_counter() - start


def long_line(variant_id: str, plies: int) -> list[str]:
    """A legal line of ``plies`` moves that never ends the game: a four-move shuffle, repeated."""
    game = Game(variant_id)
    a = next(m for m in game.legal_moves() if not m.captures)
    game.play(str(a))
    d = next(m for m in game.legal_moves() if not m.captures)
    cycle = [str(a), str(d), f"{a.to_square}-{a.from_square}", f"{d.to_square}-{d.from_square}"]
    return (cycle * (plies // 4 + 1))[:plies]


# Clicks the piece and its target in the page, and resolves when the move list shows the move
# (timed in the page, so the automation's own round trips are not counted).
ONE_MORE_MOVE = """([source, target, count]) => new Promise((resolve) => {
    const board = document.querySelector('.tafl-board');
    const start = performance.now();
    const observer = new MutationObserver(() => {
      if (board.querySelectorAll('.tafl-moves button').length === count) { observer.disconnect(); resolve(performance.now() - start); }
    });
    observer.observe(board, { subtree: true, childList: true });
    board.querySelector(`[data-square="${source}"]`).click();
    board.querySelector(`[data-square="${target}"]`).click();
})"""

LIST_DRAWN = "n => document.querySelector('.tafl-board').dataset.ready === 'true' && document.querySelectorAll('.tafl-moves button').length === n"


def long_game_times(browser, base: str, plies: int) -> tuple[float, float, float, float]:
    """(share link -> ready on a first visit, the same on a later visit, saved game -> ready,
    one more move) in seconds, for a game of ``plies`` moves. A first visit fetches and compiles
    Pyodide (an empty browser cache); a later one finds it in the cache."""
    line = long_line("lewis-1", max(plies, 4))[:plies] if plies else long_line("lewis-1", 4)
    url = f"{base}/docs/variants/lewis-1.html"
    if plies:  # 0 moves: the page alone, the baseline the longer games add to
        url += f"?board=0&variant=lewis-1&moves={','.join(line)}"
    context = browser.new_context()
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(LIST_DRAWN, arg=plies, timeout=600_000, polling=50)
    from_link = time.perf_counter() - start
    start = time.perf_counter()
    page.reload()  # the address no longer holds the link: this is the saved game
    page.wait_for_function(LIST_DRAWN, arg=plies, timeout=600_000, polling=50)
    from_storage = time.perf_counter() - start
    start = time.perf_counter()
    page.goto(url)  # the link again, the site's files now in the browser's cache
    page.wait_for_function(LIST_DRAWN, arg=plies, timeout=600_000, polling=50)
    from_link_again = time.perf_counter() - start
    source, target = line[plies % 4].split("-")
    one_move = page.evaluate(ONE_MORE_MOVE, [source, target, plies + 1]) / 1000
    context.close()
    return from_link, from_link_again, from_storage, one_move


def click_to_highlight(page, square: str) -> float:
    """Milliseconds from a click on ``square`` to its highlighted targets, measured in the page."""
    return page.evaluate(
        """(square) => new Promise((resolve) => {
            const board = document.querySelector('.tafl-board');
            const start = performance.now();
            const observer = new MutationObserver(() => {
              if (board.querySelector('.tafl-target')) { observer.disconnect(); resolve(performance.now() - start); }
            });
            observer.observe(board, { subtree: true, attributes: true, childList: true });
            board.querySelector(`[data-square="${square}"]`).click();
        })""",
        square,
    )


def ai_move_times(page, cases, level: int | str) -> list[float]:
    """Seconds for the worker's computer player to answer in each (variant, position, turn)."""
    times = []
    for variant, position, turn in cases:
        times.append(page.evaluate(
            """async ([variant, position, turn, level]) => {
                const w = window.tafl.worker;
                await w.request("new", { board: "bench", variant, position, turn });
                const start = performance.now();
                await w.request("ai_move", { board: "bench", level, seed: 0 });
                return (performance.now() - start) / 1000;
            }""",
            [variant, position, turn, level],
        ))
    return times


CONTROLLED = "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null"


# ---------------------------------------------------------------- a first visit on a phone's network

# Lighthouse's profiles: desktop 10 Mbit/s (upload as fast), 40 ms; mobile "slow 4G" 1.6 Mbit/s, 0.75 up, 150 ms
UPLOAD_MBIT = {10.0: 10.0, 1.6: 0.75}
NETWORK_TIMEOUT_S = 600
KEPT_TIMEOUT_S = 120


def people_first_move(playwright, site: Path, page_path: str, mbit: float, latency_ms: float) -> tuple[float, int]:
    """Seconds for a ready board's first people-like move through the network emulation (a fresh
    profile: the model is fetched), and the bytes of the model as the server sends it (brotli).
    (The worker's own requests are not the page's: Chromium does not report them to the page.)"""
    server = serve.make_server(str(site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(profile, executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(f"http://127.0.0.1:{server.server_port}/{page_path}")
        page.wait_for_selector(READY, timeout=NETWORK_TIMEOUT_S * 1000)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": latency_ms,
            "downloadThroughput": mbit * 1e6 / 8, "uploadThroughput": UPLOAD_MBIT.get(mbit, mbit) * 1e6 / 8,
        })
        start = time.perf_counter()
        page.evaluate("""async () => (await window.tafl.boards[0].request("ai_move", { level: "people", seed: 1 })).played""")
        seconds = time.perf_counter() - start
        context.close()
    server.shutdown()
    model = next((site / "_models").glob("people-model-*.json"))
    sent = model.with_name(model.name + ".br")  # what the server sends a browser that takes brotli
    return seconds, (sent if sent.exists() else model).stat().st_size


def network_first_visit(playwright, site: Path, page_path: str, mbit: float, latency_ms: float, start: str = "") -> dict:
    """One first visit (a fresh profile) of ``page_path`` through Chromium's network emulation
    (``start``: force the worker's way of starting, as ``?tafl-start=`` does)."""
    log = serve.Sent()
    server = serve.make_server(str(site), handler=log.handler())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    upload = UPLOAD_MBIT.get(mbit, mbit)
    with tempfile.TemporaryDirectory(prefix="bench-profile-") as profile:
        context = playwright.chromium.launch_persistent_context(profile, executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = context.pages[0] if context.pages else context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": latency_ms,
            "downloadThroughput": mbit * 1e6 / 8, "uploadThroughput": upload * 1e6 / 8,
        })
        finished, started = [], {}
        page.on("request", lambda r: started.setdefault(id(r), r.url))
        page.on("requestfinished", lambda r: finished.append(r))
        url = f"http://127.0.0.1:{server.server_port}/{page_path}" + (f"?tafl-start={start}" if start else "")
        log.start = time.perf_counter()
        page.goto(url, wait_until="commit", timeout=NETWORK_TIMEOUT_S * 1000)
        failed = ""
        try:
            page.wait_for_selector(READY_OR_FAILED, timeout=max(1, NETWORK_TIMEOUT_S - (time.perf_counter() - log.start)) * 1000)
            ready = time.perf_counter() - log.start
            if page.locator(READY).count() == 0:  # the board gave up: its words say why
                failed = f"failed after {ready:.1f} s: {page.locator('.tafl-board-status').first.text_content()}"
                ready = None
        except PlaywrightTimeout:
            ready = None  # not ready within the time allowed: the bytes are those that had arrived by then
            failed = f"not ready after {NETWORK_TIMEOUT_S} s"
        written = log.written()
        started_by = page.evaluate("() => { const w = window.tafl?.boards[0]?.worker; return w?.startedBy "
                                   "? `${w.startedBy} (wasm at ${((w.wasmRate || 0) / 1e6).toFixed(1)} MB/s decoded)` : ''; }") if ready else ""
        done = list(finished)
        arrived = 0
        for request in done:
            sizes = request.sizes()
            arrived += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        done_urls = {r.url for r in done}
        in_flight = sorted({u.rsplit("/", 1)[-1].split("?")[0] for u in started.values() if u not in done_urls and not u.startswith("data:")})
        kept = None
        says_kept = page.locator('meta[name="tafl-runtime"]').count() > 0  # (an older build never says so)
        if ready and says_kept:  # then the page keeps itself for offline use (the service worker): how long, and what it sent
            try:
                page.wait_for_selector(".tafl-kept", timeout=KEPT_TIMEOUT_S * 1000)
                kept = time.perf_counter() - log.start - ready
            except PlaywrightTimeout:
                pass
        after = log.written() - written
        later = later_start = None
        if kept is not None:  # a later visit, once the service worker holds the snapshot too (fetched in the background)
            try:
                page.wait_for_function("() => (document.documentElement.dataset.taflStarts || '').includes('snapshot')",
                                       timeout=KEPT_TIMEOUT_S * 1000)
                began = time.perf_counter()
                page.reload(wait_until="commit")
                page.wait_for_selector(READY, timeout=NETWORK_TIMEOUT_S * 1000)
                later = time.perf_counter() - began
                later_start = page.evaluate("() => window.tafl.boards[0].worker.startedBy")
            except PlaywrightTimeout:
                pass
        with log.lock:
            encodings = collections.Counter(r["encoding"] or "none" for r in log.responses if r["status"] == 200 and r["bytes"] > 50_000)
        context.close()
    server.shutdown()
    server.server_close()
    return {"ready": ready, "failed": failed, "arrived": arrived, "written": written, "in_flight": in_flight,
            "twice": log.sent_twice(), "encodings": dict(encodings), "upload": upload, "start": started_by,
            "kept": kept, "after": after, "later": later, "later_start": later_start}


def network_report(results: dict, page_path: str) -> None:
    print(f"first visit of {page_path} (fresh profile) through Chromium's network emulation:")
    for (mbit, latency), runs in results.items():
        ready = [r["ready"] if r["ready"] is not None else float("inf") for r in runs]
        for r in runs:
            if r["failed"]:
                print(f"  {mbit:g} Mbit/s, {latency:g} ms: the board {r['failed']}")
        arrived = [r["arrived"] / 1e6 for r in runs]
        written = [r["written"] / 1e6 for r in runs]
        print(f"  {mbit:g} Mbit/s down ({runs[0]['upload']:g} up), {latency:g} ms: board ready, median {statistics.median(ready):.1f} s "
              f"(runs: {', '.join(f'{v:.1f}' for v in ready)}; inf: never ready); bytes arrived before ready (or before it gave up) {statistics.median(arrived):.2f} MB "
              f"(runs: {', '.join(f'{v:.2f}' for v in arrived)}); the server had written {statistics.median(written):.2f} MB")
        last = runs[-1]
        kept = [f"{r['kept']:.1f}" if r["kept"] is not None else "never" for r in runs]
        meanwhile = ", ".join(f"{r['after'] / 1e6:.2f}" for r in runs)
        print(f"    started from: {', '.join(r['start'] or '?' for r in runs)}; large responses by encoding: {last['encodings']}; "
              f"still on their way at ready: {', '.join(last['in_flight']) or 'none'}")
        print(f"    ready -> 'Kept on this device': {', '.join(kept)} s (within {KEPT_TIMEOUT_S} s), the server having written "
              f"{meanwhile} MB more by then; "
              f"sent twice in the whole visit: {', '.join(last['twice']) or 'none'}")
        later = [f"{r['later']:.1f} s ({r['later_start']})" if r["later"] is not None else "not measured" for r in runs]
        print(f"    a later visit (a reload once the service worker holds the snapshot too): {', '.join(later)}")


class Figures:
    """The start-up figures of one site, run by run."""

    def __init__(self, name: str, url: str, service_worker: bool) -> None:
        self.name, self.url, self.service_worker = name, url, service_worker
        self.cold, self.warm, self.kept, self.clicks, self.longtasks, self.pictures = [], [], [], [], [], []

    def run(self, browser, square: str) -> None:
        context = browser.new_context()
        context.add_init_script(LONGTASK_PROBE)
        page = context.new_page()
        first = browser.new_context()  # its own empty cache, so `cold` below stays cold
        self.pictures.append(time_to_picture(first.new_page(), self.url))
        first.close()
        self.cold.append(time_to_ready(page, self.url))
        self.clicks.append(click_to_highlight(page, square))
        self.longtasks.append(longest_main_thread_task(page))
        self.warm.append(time_to_ready(page, self.url))
        if self.service_worker:  # an older build has none
            page.wait_for_function(CONTROLLED, timeout=120_000)
            self.kept.append(time_to_ready(page, self.url))
        context.close()

    def report(self) -> None:
        def runs(values, unit="s", digits=2):
            return ", ".join(f"{v:.{digits}f}" for v in values)

        print(f"{self.name}: {self.url}")
        print(f"  navigation -> board picture on screen: median {statistics.median(self.pictures):.2f} s  (runs: {runs(self.pictures)})")
        print(f"  navigation -> board ready, cold: median {statistics.median(self.cold):.2f} s  (runs: {runs(self.cold)})")
        print(f"  navigation -> board ready, warm: median {statistics.median(self.warm):.2f} s  (runs: {runs(self.warm)})")
        if self.kept:
            print(f"  navigation -> board ready, warm from the service worker: median {statistics.median(self.kept):.2f} s  "
                  f"(runs: {runs(self.kept)})")
        print(f"  click -> highlighted targets:    median {statistics.median(self.clicks):.1f} ms (runs: {runs(self.clicks, digits=1)})")
        print(f"  longest main-thread task, navigation to ready and a click: median {statistics.median(self.longtasks):.0f} ms, "
              f"max {max(self.longtasks):.0f} ms (0 = none over 50 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--page", default="index.html")
    parser.add_argument("--square", default="d1")
    parser.add_argument("--ai", default="", help="also time the computer player at these levels, e.g. 1,2,3,4,5")
    parser.add_argument("--ai-positions", type=int, default=10, help="positions per variant for --ai (default 10)")
    parser.add_argument("--network", default="", help="first visits through network emulation, MBIT:LATENCY_MS pairs, e.g. 10:40,1.6:150")
    parser.add_argument("--network-page", default="docs/variants/brandubh.html")
    parser.add_argument("--network-runs", type=int, default=1)
    parser.add_argument("--network-start", default="", choices=["", "snapshot", "fresh"],
                        help="force the rules worker's way of starting in the network runs (default: its own choice)")
    parser.add_argument("--people-network", default="", help="the people-like player's first move (its model fetched) "
                        "through network emulation, MBIT:LATENCY_MS pairs, e.g. 10:40,1.6:150")
    parser.add_argument("--long", default="", help="also time long games of these many moves, e.g. 1000,2000,5000")
    parser.add_argument("--long-runs", type=int, default=3)
    parser.add_argument("--site", default=str(ROOT / "_build" / "html"), help="the built site (default _build/html)")
    parser.add_argument("--against", help="a second built site, measured in turn with the first in the same run")
    parser.add_argument("--ai-json", help="write the --ai times per level and board size as JSON "
                                          "(docs/data/level-times-browser.json is the file the level menu reads)")
    args = parser.parse_args()
    site = Path(args.site)
    sites = [site] + ([Path(args.against)] if args.against else [])
    for folder in sites:
        if not (folder / args.page.split("?")[0]).is_file():  # (a query may follow: ?tafl-start=fresh)
            sys.exit(f"{folder / args.page} is missing: run `make site` first")
    servers = [serve_in_thread(str(folder)) for folder in sites]
    server = servers[0]
    url = f"http://127.0.0.1:{server.server_port}/{args.page}"
    figures = [Figures(name, f"http://127.0.0.1:{s.server_port}/{args.page}", (folder / "tafl-sw.js").is_file())
               for name, s, folder in zip([f"this build ({site})", f"against ({args.against})"], servers, sites)]
    load_before = load_average()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for _ in range(args.runs):
            for each in figures:
                each.run(browser, args.square)
        load_after = load_average()
        network = {}
        for pair in filter(None, args.network.split(",")):
            mbit, latency = (float(x) for x in pair.split(":"))
            network[(mbit, latency)] = [network_first_visit(playwright, site, args.network_page, mbit, latency, args.network_start)
                                        for _ in range(args.network_runs)]
        load_network = load_average()
        people_network = {}
        for pair in filter(None, args.people_network.split(",")):
            mbit, latency = (float(x) for x in pair.split(":"))
            people_network[(mbit, latency)] = [people_first_move(playwright, site, args.network_page, mbit, latency)
                                               for _ in range(args.network_runs)]
        long_times = {}
        for plies in [0] + [int(x) for x in args.long.split(",") if x] if args.long else []:
            long_times[plies] = [long_game_times(browser, f"http://127.0.0.1:{server.server_port}", plies)
                                 for _ in range(args.long_runs)]
        ai_times = {}
        first_people = None
        if args.ai:
            context = browser.new_context()
            page = context.new_page()
            time_to_ready(page, url)
            cases = [(vid, pos, turn) for vid in VARIANTS for pos, turn in positions(vid, args.ai_positions)]
            for level in (x if x == "people" else int(x) for x in args.ai.split(",")):
                if level == "people":  # its first move fetches and reads the model: timed on its own
                    first_people = ai_move_times(page, cases[:1], level)[0]
                ai_times[level] = ai_move_times(page, cases, level)
            context.close()
        browser.close()
    for each in servers:
        each.shutdown()
    print(f"page: {args.page}, runs: {args.runs}; 1-minute load average {load_before} before the start-up runs, {load_after} after")
    for each in figures if args.runs else []:
        each.report()
    if network:
        print(f"1-minute load average {load_network} after the network runs")
        network_report(network, args.network_page)
    for (mbit, latency), runs in people_network.items():
        print(f"people-like player's first move on {args.network_page} at {mbit:g} Mbit/s, {latency:g} ms: median "
              f"{statistics.median(r[0] for r in runs):.2f} s over {len(runs)} run(s); the model as sent: "
              f"{statistics.median(r[1] for r in runs) / 1e6:.2f} MB")
    if long_times:
        print(f"long games on lewis-1, medians of {args.long_runs} (seconds): share link -> ready on a first visit "
              "(empty cache) and on a later one, saved game -> ready, one more move")
    for plies, runs in long_times.items():
        link, again, stored, move = (statistics.median(r[i] for r in runs) for i in range(4))
        print(f"  {plies:>6} moves: {link:.2f} s, {again:.2f} s, {stored:.2f} s, {move:.3f} s"
              + ("  (the page alone, no link)" if not plies else ""))
    if ai_times:
        print(f"computer move in the browser worker, {len(cases)} positions ({', '.join(VARIANTS)}), wall seconds:")
    large = [Game(vid).size in LARGE for vid, _p, _t in cases] if ai_times else []
    if first_people is not None:
        print(f"  people: its first move (fetching and reading the model) {first_people:.3f} s; every move after it below")
    for level, times in ai_times.items():
        big = [t for t, is_large in zip(times, large) if is_large]
        print(f"  level {level}: median {statistics.median(times):.3f} s, max {max(times):.3f} s; "
              f"11x11 and 19x19: median {statistics.median(big):.3f} s, max {max(big):.3f} s")
    sizes = [Game(vid).size for vid, _p, _t in cases] if ai_times else []
    for size in sorted(set(sizes)):
        print(f"  on {size}x{size}: " + "; ".join(
            f"level {level} median {statistics.median(t for t, n in zip(times, sizes) if n == size):.2f} s, "
            f"max {max(t for t, n in zip(times, sizes) if n == size):.2f} s" for level, times in ai_times.items()))
    if ai_times and args.ai_json:
        write_level_times(args.ai_json, cases, ai_times)


def write_level_times(path: str, cases, ai_times) -> None:
    """Per level: median and max seconds over all positions and over the 11x11 and 19x19 ones,
    and for each board size (``by_size``: the board's level menu shows its own size's median)."""
    import datetime
    import json
    import subprocess

    large = [Game(vid).size in LARGE for vid, _p, _t in cases]
    levels = {}
    for level, times in ai_times.items():
        big = [t for t, is_large in zip(times, large) if is_large]
        levels[str(level)] = {"median": round(statistics.median(times), 3), "max": round(max(times), 3),
                              "large_median": round(statistics.median(big), 3), "large_max": round(max(big), 3)}
    sizes = [Game(vid).size for vid, _p, _t in cases]
    by_size = {str(size): {str(level): {"median": round(statistics.median(t for t, n in zip(times, sizes) if n == size), 3),
                                        "max": round(max(t for t, n in zip(times, sizes) if n == size), 3),
                                        "positions": sizes.count(size)}
                           for level, times in ai_times.items()}
               for size in sorted(set(sizes))}
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    data = {"provenance": {"benchmark": "benchmarks/bench_board.py --ai", "positions": len(cases),
                           "variants": list(VARIANTS), "runtime": "Pyodide in the board's Web Worker, headless Chromium",
                           "commit": commit or None,
                           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")},
            "levels": levels, "by_size": by_size}
    Path(path).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
