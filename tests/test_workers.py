"""The lab's worker processes under interrupts that land at any moment (real processes, real signals)."""

from __future__ import annotations

import pathlib
import signal
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def sigint_as_in_a_terminal():
    """Run in the child before it starts: SIGINT at its default, as for a terminal's foreground
    job, even when the tests run in a background job (whose shell starts them with SIGINT
    ignored, which a child inherits)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

# Workers that send back large results keep the main process reading a message most of the time,
# so an interrupt often lands between two reads of one message.
SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
from tafl_rules._workers import run_tasks

def big(n):
    return b"x" * 20_000_000

def got(payload):
    print("got", flush=True)

try:
    run_tasks(big, range(10_000), 2, got)
except KeyboardInterrupt:
    sys.exit(130)
"""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="signal masks are POSIX")
def test_an_interrupt_in_the_middle_of_a_result_never_hangs_the_run(tmp_path):
    script = tmp_path / "big.py"
    script.write_text(SCRIPT)
    for trial in range(8):
        proc = subprocess.Popen([sys.executable, str(script), str(ROOT)], stdout=subprocess.PIPE, text=True,
                                preexec_fn=sigint_as_in_a_terminal)
        for _ in range(3):
            assert proc.stdout.readline() == "got\n"
        time.sleep(0.006 * trial)  # spread the moment the signal lands
        proc.send_signal(signal.SIGINT)
        try:
            proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail(f"trial {trial}: the run hung after Ctrl-C (a message was cut in half)")
        assert proc.returncode == 130
