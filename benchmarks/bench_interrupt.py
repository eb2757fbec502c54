"""How fast the balance lab stops: real runs with two worker processes, real signals.

Run: ``python benchmarks/bench_interrupt.py`` (``--trials N``; Linux, reads /proc).

Each trial starts ``python -m tafl_rules balance -v brandubh -n 3000 --ply-cap 200 -j 2``
in its own process group, waits a random 1.5-3.5 s, sends a signal (SIGINT to the
group as a terminal's Ctrl-C does, SIGTERM or SIGKILL to the main process) and
reports the seconds until the main process exited, how many worker processes were
still running 1 s later, and whether the work file grew after the exit.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _children(pid: int) -> list[int]:
    out = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def _running(pid: int) -> bool:
    try:
        return (pathlib.Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def trial(how: str, delay: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "tafl_rules", "balance", "-v", "brandubh", "-n", "3000", "--ply-cap", "200",
               "-j", "2", "--no-progress", "-o", os.path.join(tmp, "x.json")]
        proc = subprocess.Popen(cmd, cwd=tmp, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        time.sleep(delay)
        workers = _children(proc.pid)
        t0 = time.monotonic()
        if how == "SIGINT-group":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, getattr(signal, how))
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return {"how": how, "seconds": None, "left": None, "grew": None}
        seconds = time.monotonic() - t0
        work = pathlib.Path(tmp, "x.json.work.jsonl")
        size = work.stat().st_size
        time.sleep(1.0)
        return {"how": how, "seconds": seconds, "workers": len(workers), "left": sum(map(_running, workers)),
                "grew": work.stat().st_size != size, "exit": proc.returncode}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trials", type=int, default=20, help="SIGINT trials (SIGTERM and SIGKILL get a quarter each)")
    args = p.parse_args(argv)
    rng = random.Random(0)
    plan = [("SIGINT-group", args.trials), ("SIGTERM", max(1, args.trials // 4)), ("SIGKILL", max(1, args.trials // 4))]
    for how, n in plan:
        rows = [trial(how, rng.uniform(1.5, 3.5)) for _ in range(n)]
        done = [r["seconds"] for r in rows if r["seconds"] is not None]
        print(f"{how:<13} {n} trials: hung {n - len(done)}; exit after median {statistics.median(done):.2f} s, "
              f"max {max(done):.2f} s; workers still running 1 s later: {sum(r['left'] or 0 for r in rows)} of "
              f"{sum(r.get('workers', 0) for r in rows)}; work file grew after exit: {sum(bool(r['grew']) for r in rows)}; "
              f"exit codes {sorted({r.get('exit') for r in rows})}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
