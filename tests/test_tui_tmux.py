"""End to end: the installed `fluxx-judge` in a real 80x24 terminal (tmux). A dispute is
built from nothing with the keyboard (Ben's hand unseen), its question written with
the kind of answer it wants, replayed from the menus, answered first, and saved; no
YAML is typed."""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from adjudicator.scenario import load_scenario

REPO = Path(__file__).resolve().parent.parent
EXE = REPO / ".venv" / "bin" / "fluxx-judge"

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed; this test drives the app in a real terminal with it")


def tmux(session: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """A tmux command for `session`, which has a tmux server of its own (a socket named after
    it, `-L`), started from this test's environment: the tester's own tmux server, its
    sessions and the folders its environment names are never touched, and no test's
    session ends while another's starts on the same server (a server whose last session
    ends exits, and a session started on it at that moment is lost)."""
    return subprocess.run(["tmux", "-L", session, *args], capture_output=True, text=True, check=check)


def close(session: str) -> None:
    """End the session's own server (no other) and remove the socket it leaves behind."""
    tmux(session, "kill-server", check=False)
    socket = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}" / session
    try:
        if stat.S_ISSOCK(socket.lstat().st_mode):
            socket.unlink()
    except OSError:
        pass


def screen(session: str) -> str:
    return tmux(session, "capture-pane", "-p", "-t", session, check=False).stdout


# How often the screen is read while waiting for it to change: the test waits for what it
# expects to see rather than for fixed times, so that it is as quick as the app.
POLL = 0.05


def wait_for(session: str, *texts: str, timeout: float = 30.0) -> str:
    end = time.monotonic() + timeout
    shown = ""
    while time.monotonic() < end:
        shown = screen(session)
        if all(t in shown for t in texts):
            return shown
        time.sleep(POLL)
    raise AssertionError(f"never saw {texts!r} on the screen; it showed:\n{shown}")


def wait_gone(session: str, text: str, timeout: float = 30.0) -> str:
    """Wait until `text` has left the screen (a dialog has closed): keys sent while a
    dialog is still closing would land on the widget below it."""
    end = time.monotonic() + timeout
    shown = ""
    while time.monotonic() < end:
        shown = screen(session)
        if text not in shown:
            return shown
        time.sleep(POLL)
    raise AssertionError(f"{text!r} stayed on the screen; it showed:\n{shown}")


@pytest.mark.slow(16)
def test_a_dispute_built_replayed_answered_and_saved_in_a_real_terminal(tmp_path):
    """Issue 27's Star Fluxx dispute, from a blank table, by keys at 80x24: Ann uses The
    Captain's power to take Ben's Scientist and Ben, whose hand nobody can see, answers
    with It's A Trap!. Keys go as fast as tmux sends them where the app holds them for a
    dialog on its way ("n Enter"); "captain" at a Star Fluxx table is The Captain; the
    unseen hand may be revealed only as Star Fluxx's Surprise; the answer is of the kind
    asked (may he?), with the ruling behind it."""
    if not EXE.exists():
        pytest.skip(f"{EXE} is not installed (`make run` or `make test` installs it)")
    session = f"fluxx-judge-test-{uuid.uuid4().hex[:10]}"
    folder = tmp_path / "My Documents"
    command = (f"env FLUXX_JUDGE_CACHE={shlex.quote(str(tmp_path / 'cache'))} "
               f"FLUXX_JUDGE_SCENARIOS={shlex.quote(str(folder))} TERM=xterm-256color {shlex.quote(str(EXE))}")
    tmux(session, "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)

    # Keys reach the app in the order they are sent, and Textual handles what they cause in
    # that order too (the card picker's matches for the typed name before its Enter): each
    # step waits only for the screen it needs before sending the next keys.
    def keys(*names: str) -> None:
        tmux(session, "send-keys", "-t", session, *names)

    def text(words: str) -> None:
        tmux(session, "send-keys", "-t", session, "-l", words)

    def card(zone: str, *names: str) -> None:
        keys("C-g")
        wait_for(session, "Go to...", "Enter: go")
        text(zone)
        keys("Enter")
        wait_gone(session, "Enter: go")
        for name in names:
            wait_for(session, "a Add card")           # the zone has the keyboard (its keys in the footer)
            keys("a")
            wait_for(session, "Add a card to", "Type to search")
            text(name)
            wait_for(session, name)                 # typed in the picker
            keys("Enter")
            wait_gone(session, "Add a card to")      # the dialog has closed
            wait_for(session, "Go to zone")          # back on the Table screen

    try:
        wait_for(session, "F2 Table", "F5 Cards")
        start = time.monotonic()
        keys("C-n")                                   # before the Table screen was ever shown
        wait_for(session, "no players yet")
        keys("n", "Enter", "n", "Enter")              # typed ahead of each name dialog: Ann, then Ben
        wait_for(session, "Ben's table")
        card("ben table", "scientist")
        card("ann table", "captain", "robot")         # a Star Fluxx table now: The Captain
        card("ben hand", "? x3")
        card("draw", "? x10")
        keys("C-w")
        wait_for(session, "The question in dispute")
        text("May Ben spring It's A Trap! on The Captain's power?")
        keys("Enter")
        wait_for(session, "What does the question ask?")  # then what kind of answer it wants
        text("legal")
        keys("Enter")
        wait_gone(session, "What does the question ask?")
        wait_for(session, "Problems: none", "The Captain")
        assert "Captain's Hat" not in screen(session)

        keys("F3")                                    # replay: the menu offers only what is legal
        wait_for(session, "step 0 of 0")
        keys("a")
        wait_for(session, "Ann uses The Captain")
        text("captain")
        keys("Enter")
        wait_for(session, "Step 1 of 1")
        keys("a")
        shown = wait_for(session, "Ben reveals a Surprise that cancels a free action")
        assert "Stop That" not in shown and "Skullduggery" not in shown
        text("trap")
        keys("Enter")
        wait_for(session, "Ben must decide")
        keys("a")
        wait_for(session, "The Robot")
        text("robot")
        keys("Enter")
        shown = wait_for(session, "Q: May Ben spring It's A Trap!", "Answer: Yes: Ben may play the Surprise It's A Trap!",
                         "Rulings cited", "rule-surprise-two-functions")
        took = time.monotonic() - start
        assert shown.index("Q: May Ben") < shown.index("Answer:")
        assert took < 90, f"the dispute took {took:.0f} s to build and answer"

        keys("C-s")                                   # a new scenario: Save asks where, in the user's folder
        shown = wait_for(session, "Save the scenario as", str(folder)[:20])
        keys("Enter")
        wait_for(session, "Saved to")
        saved = folder / "new-dispute.yaml"
        sc = load_scenario(str(saved))
        assert sc.question.startswith("May Ben spring") and sc.ask is not None and sc.ask.kind == "legal"
        assert [c.card.key for c in sc.position.hands["Ben"]] == ["?"] * 3
        assert [c.card.name for c in sc.position.keepers["Ann"]] == ["The Captain", "The Robot"]
        assert [e.event.verb for e in sc.events] == ["use", "surprise"] and sc.position.deck_editions == ("star",)
        from adjudicator.replay import replay

        answer = replay(sc).answer
        assert answer is not None and answer.kind == "legal" and answer.text.startswith("Yes: Ben may play")
        assert "stop-that-vs-free-action" in [r.to_json()["id"] for r in answer.rulings]
        keys("C-s")                                   # saving again is confirmed too
        wait_for(session, "already")
    finally:
        close(session)


def processes_with(marker: str) -> list[int]:
    """The processes whose environment holds `marker` (the app started for one test)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.slow(5)
def test_unsaved_work_is_kept_when_the_terminal_goes_and_told_of_at_the_next_start(tmp_path):
    # Run by `make` (as `make run` runs it), the app may get no signal at all when its
    # terminal goes: Textual then spun at full speed for ever, reading end-of-file, and
    # the scenario was lost. The app must end and keep what was not saved. (A hangup,
    # what an app run straight in the terminal gets, is tests/test_rescue.py's.)
    if not EXE.exists():
        pytest.skip(f"{EXE} is not installed (`make run` or `make test` installs it)")
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    cache = tmp_path / "cache"
    marker = f"FLUXX_JUDGE_CACHE={cache}"
    command = f"env {shlex.quote(marker)} TERM=xterm-256color {shlex.quote(str(EXE))}"
    (tmp_path / "Makefile").write_text(f"run:\n\t{command}\n", encoding="utf-8")
    command = f"make -s -f {shlex.quote(str(tmp_path / 'Makefile'))} run"
    session = f"fluxx-judge-test-{uuid.uuid4().hex[:10]}"
    tmux(session, "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    try:
        wait_for(session, "F2 Table")
        tmux(session, "send-keys", "-t", session, "F2")
        wait_for(session, "no players yet")
        tmux(session, "send-keys", "-t", session, "n")
        wait_for(session, "Name of the new player")
        tmux(session, "send-keys", "-t", session, "-l", "Quentin")
        tmux(session, "send-keys", "-t", session, "Enter")
        wait_for(session, "Quentin's table")
        assert processes_with(marker)
    finally:
        close(session)
    end = time.monotonic() + 15
    while processes_with(marker) and time.monotonic() < end:
        time.sleep(0.1)
    left = processes_with(marker)
    for pid in left:                                   # never leave one spinning behind
        subprocess.run(["kill", "-9", str(pid)], capture_output=True)
    assert not left, "the app went on running without its terminal"
    kept = list((cache / "rescued").glob("*.yaml"))
    assert len(kept) == 1 and "Quentin" in kept[0].read_text(encoding="utf-8")

    session = f"fluxx-judge-test-{uuid.uuid4().hex[:10]}"
    command = f"env {shlex.quote(marker)} TERM=xterm-256color {shlex.quote(str(EXE))}"
    tmux(session, "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    try:
        wait_for(session, "Unsaved work kept", "Ctrl+O and the path")
    finally:
        close(session)
