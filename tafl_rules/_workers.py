"""Local worker processes for the balance lab that stop when the run stops.

:func:`run_tasks` hands tasks one at a time to a few worker processes and gives each
result back as it arrives. It is built for long runs that a person interrupts:

* The workers ignore SIGINT. Ctrl-C in a terminal reaches the whole process group,
  and only the main process decides what happens: the results already sent are
  taken, then every worker is terminated (and killed if it lingers), so no queued
  task is played after the interrupt and no worker is left behind.
* A worker dies with its parent: on Linux the kernel sends it SIGKILL when the main
  process dies (``PR_SET_PDEATHSIG``), and everywhere a watchdog thread ends it
  within half a second of finding itself orphaned. So SIGKILL of the main process
  leaves no worker running and holding the terminal's pipes open.
* Workers are forked from a single-threaded caller and started by a fork server
  otherwise: a fork copies only the forking thread, and a lock another thread held at
  that moment stays held in the child for good. The fork server ends with the main
  process and its workers with it.
* A worker that dies while playing (killed from outside, out of memory) is replaced
  and its task given to another worker once; a task that kills two workers is an
  error.

Tasks and results must be picklable; ``func`` must be importable by the workers.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.connection import wait
from typing import Any, Callable, Iterable

__all__ = ["WorkerError", "run_tasks"]


class WorkerError(RuntimeError):
    """A task raised in a worker, or kept killing its workers."""


def _die_with_parent(parent: int) -> None:
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: SIGKILL when the parent dies
        except (OSError, AttributeError):
            pass
    # Forked by the main process, a worker is orphaned when its parent changes. Started by a
    # fork server, it is the server's child (and dies with it, which ends with the main
    # process), so it also looks for the main process itself.
    forked_by = os.getppid()

    def orphaned() -> bool:
        if os.getppid() != forked_by:
            return True
        if forked_by != parent:
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                return True
            except PermissionError:
                pass
        return False

    if orphaned():  # the parent died before the line above took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if orphaned():
                os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _worker_main(conn: Any, parent: int, func: Callable[[Any], Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides when the run stops
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply = ("ok", func(task))
        except Exception as error:  # noqa: BLE001 - sent back and raised in the main process
            reply = ("error", f"{type(error).__name__}: {error}")
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


class _signals_held:
    """Hold SIGINT, SIGTERM and SIGHUP back for the length of one read from a worker.

    A signal that lands between the two reads of one message (its length, then its
    body) leaves the pipe misaligned, and the drain after the interrupt would then
    wait forever for a body that never comes. Held back, the signal is handled as
    soon as the whole message is in.
    """

    old: set[Any] | None = None

    def __enter__(self) -> None:
        if hasattr(signal, "pthread_sigmask"):
            held = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)}
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, held)

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def _context() -> Any:
    # fork starts a worker fastest; with other threads about, a fork server (see the module's notes)
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork" if threading.active_count() == 1 else "forkserver")
    return multiprocessing.get_context()


class _Worker:
    def __init__(self, ctx: Any, func: Callable[[Any], Any]) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, os.getpid(), func), daemon=True,
                                name="tafl-lab-worker")
        self.proc.start()
        child.close()
        self.task: Any = None

    def give(self, task: Any) -> None:
        self.task = task
        self.conn.send(task)

    def stop(self, now: bool) -> None:
        if self.proc.is_alive():
            if now:
                self.proc.terminate()
            else:
                try:
                    self.conn.send(None)
                except OSError:
                    self.proc.terminate()

    def reap(self, timeout: float) -> None:
        self.proc.join(timeout)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(1.0)
        self.conn.close()


def run_tasks(func: Callable[[Any], Any], tasks: Iterable[Any], workers: int,
              on_result: Callable[[Any], None]) -> None:
    """Run ``func(task)`` for every task in ``workers`` processes, calling ``on_result``
    in this process with each result as it arrives (in no fixed order).

    On any exception here (``KeyboardInterrupt`` included) the results already sent
    back are handed to ``on_result`` first, then every worker is stopped at once and
    the exception goes on. Raises :class:`WorkerError` if a task raised in a worker.
    """
    queue = list(tasks)
    queue.reverse()  # pop() from the end gives the tasks in order
    if not queue:
        return
    ctx = _context()
    pool: list[_Worker] = []
    deaths: dict[int, int] = {}
    clean = False

    def feed(w: _Worker) -> None:
        w.task = None
        if queue:
            w.give(queue.pop())

    def take(w: _Worker) -> None:
        with _signals_held():
            status, payload = w.conn.recv()
        task = w.task
        w.task = None
        if status == "error":
            raise WorkerError(f"{payload} (task {task!r})")
        on_result(payload)

    try:
        for _ in range(max(1, min(workers, len(queue)))):
            pool.append(_Worker(ctx, func))
        for w in pool:
            feed(w)
        while True:
            busy = [w for w in pool if w.task is not None]
            if not busy:
                break
            ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy]))
            for w in busy:
                if w.conn in ready or w.conn.poll():
                    try:
                        take(w)
                    except (EOFError, OSError):
                        pass  # died while sending: handled as a death below
                    else:
                        feed(w)
                        continue
                if w.proc.sentinel in ready or not w.proc.is_alive():
                    task = w.task
                    key = id(task)
                    deaths[key] = deaths.get(key, 0) + 1
                    code = w.proc.exitcode
                    w.reap(0.1)
                    pool.remove(w)
                    if deaths[key] >= 2:
                        raise WorkerError(f"task {task!r} killed two worker processes (last exit code {code})")
                    fresh = _Worker(ctx, func)
                    pool.append(fresh)
                    fresh.give(task)
        clean = True
    except BaseException:
        for w in pool:  # keep what finished before the interrupt
            try:
                while w.task is not None and w.conn.poll():
                    take(w)
            except BaseException:  # noqa: BLE001 - a second interrupt or a dead pipe: stop draining
                break
        raise
    finally:
        for w in pool:
            w.stop(now=not clean)
        for w in pool:
            w.reap(5.0 if clean else 1.0)
