"""End to end: the installed `fluxx-judge` in a real terminal (tmux), a search typed in,
the result read off the screen."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXE = REPO / ".venv" / "bin" / "fluxx-judge"

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed; this test drives the app in a real terminal with it")


def screen(session: str) -> str:
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout


def wait_for(session: str, *texts: str, timeout: float = 30.0) -> str:
    end = time.monotonic() + timeout
    shown = ""
    while time.monotonic() < end:
        shown = screen(session)
        if all(t in shown for t in texts):
            return shown
        time.sleep(0.1)
    raise AssertionError(f"never saw {texts!r} on the screen; it showed:\n{shown}")


def test_search_in_a_real_terminal(tmp_path):
    if not EXE.exists():
        pytest.skip(f"{EXE} is not installed (`make run` or `make test` installs it)")
    session = f"fluxx-judge-test-{uuid.uuid4().hex[:10]}"
    command = f"env FLUXX_JUDGE_CACHE={shlex.quote(str(tmp_path))} TERM=xterm-256color {shlex.quote(str(EXE))}"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command], check=True)
    try:
        wait_for(session, "Search the rulings", "rulings. Type to search")
        subprocess.run(["tmux", "send-keys", "-t", session, "-l", "play all turn end"], check=True)
        shown = wait_for(session, "rulings found", "play-all-vs-turn-end")
        assert "Play All is on the table" in shown            # the top hit's question
        subprocess.run(["tmux", "send-keys", "-t", session, "Enter"], check=True)    # to the results
        time.sleep(0.3)
        subprocess.run(["tmux", "send-keys", "-t", session, "Enter"], check=True)    # open the top hit
        wait_for(session, "Q: Play All is on the table", "Scenarios that demonstrate it")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
