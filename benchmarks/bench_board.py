"""Time from navigation to a board that accepts moves, in headless Chromium, on the built site.

Cold: a fresh browser context each run (empty HTTP cache). Warm: a reload in a context
that has loaded the page once. Also: click-to-highlight latency. Prints medians of N runs.

With ``--ai 1,2,3``: the computer player's move time in the browser worker (wall clock
from request to reply), at each level, on the positions that ``bench_ai.py`` uses for
CPython (plies 0, 3, 6, ... of a level-1 self-play game of each of its variants), so the
two medians compare; ``--ai-positions`` sets how many positions per variant.

    .venv/bin/python benchmarks/bench_board.py [--runs 5] [--page index.html] [--ai 1,2,3,4,5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from playwright.sync_api import sync_playwright  # noqa: E402

from tafl_sphinx.serve import serve_in_thread  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))  # bench_ai puts the project root on the path itself
from bench_ai import VARIANTS, positions  # noqa: E402

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
READY = '.tafl-board[data-ready="true"]'


LONGTASK_PROBE = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longtasks.push(entry.duration);
}).observe({ type: "longtask", buffered: true });
"""


def longest_main_thread_task(page) -> float:
    """Milliseconds of the longest main-thread task seen so far (0 if none reached the 50 ms threshold)."""
    return page.evaluate("() => Math.max(0, ...window.__longtasks)")


def time_to_ready(page, url: str) -> float:
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(READY, timeout=120_000)
    return time.perf_counter() - start


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


def ai_move_times(page, cases, level: int) -> list[float]:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--page", default="index.html")
    parser.add_argument("--square", default="d1")
    parser.add_argument("--ai", default="", help="also time the computer player at these levels, e.g. 1,2,3,4,5")
    parser.add_argument("--ai-positions", type=int, default=10, help="positions per variant for --ai (default 10)")
    args = parser.parse_args()
    site = ROOT / "_build" / "html"
    if not (site / args.page).is_file():
        sys.exit(f"{site / args.page} is missing: run `make site` first")
    server = serve_in_thread(str(site))
    url = f"http://127.0.0.1:{server.server_port}/{args.page}"
    cold, warm, clicks, longtasks = [], [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for _ in range(args.runs):
            context = browser.new_context()
            context.add_init_script(LONGTASK_PROBE)
            page = context.new_page()
            cold.append(time_to_ready(page, url))
            clicks.append(click_to_highlight(page, args.square))
            longtasks.append(longest_main_thread_task(page))
            warm.append(time_to_ready(page, url))
            context.close()
        ai_times = {}
        if args.ai:
            context = browser.new_context()
            page = context.new_page()
            time_to_ready(page, url)
            cases = [(vid, pos, turn) for vid in VARIANTS for pos, turn in positions(vid, args.ai_positions)]
            for level in (int(x) for x in args.ai.split(",")):
                ai_times[level] = ai_move_times(page, cases, level)
            context.close()
        browser.close()
    server.shutdown()
    print(f"page: {args.page}, runs: {args.runs}")
    print(f"navigation -> board ready, cold: median {statistics.median(cold):.2f} s  (runs: {', '.join(f'{t:.2f}' for t in cold)})")
    print(f"navigation -> board ready, warm: median {statistics.median(warm):.2f} s  (runs: {', '.join(f'{t:.2f}' for t in warm)})")
    print(f"click -> highlighted targets:    median {statistics.median(clicks):.1f} ms (runs: {', '.join(f'{t:.1f}' for t in clicks)})")
    print(f"longest main-thread task, navigation to ready and a click: median {statistics.median(longtasks):.0f} ms, "
          f"max {max(longtasks):.0f} ms (0 = none over 50 ms)")
    if ai_times:
        print(f"computer move in the browser worker, {len(cases)} positions ({', '.join(VARIANTS)}), wall seconds:")
    for level, times in ai_times.items():
        print(f"  level {level}: median {statistics.median(times):.3f} s, max {max(times):.3f} s")


if __name__ == "__main__":
    main()
