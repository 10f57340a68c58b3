"""The unsaved scenario is kept when the terminal goes (tui/rescue.py): by a hangup, a
request to stop, or a terminal that simply stops being one; the next start tells of it."""

from __future__ import annotations

import os
import signal
import time

import pytest
import yaml

from tui.rescue import TerminalWatch, announce, keep
from tui.session import Session


def changed_session(path: str | None = None) -> Session:
    session = Session()
    session.path = path
    session.doc["table"]["players"] = ["Ann", "Ben"]
    session.doc["table"]["hands"] = {"Ann": ["Milk"]}
    return session


def test_only_unsaved_work_is_kept_and_never_over_anything(tmp_path):
    assert keep(Session(), tmp_path) is None                   # nothing made: nothing written
    assert list(tmp_path.iterdir()) == []
    first = keep(changed_session("/somewhere/My dispute.yaml"), tmp_path)
    second = keep(changed_session("/somewhere/My dispute.yaml"), tmp_path)
    assert first is not None and second is not None and first != second
    assert first.name.startswith("My-dispute-") and first.suffix == ".yaml"
    for path in (first, second):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert doc["table"]["players"] == ["Ann", "Ben"] and doc["table"]["hands"] == {"Ann": ["Milk"]}


def test_the_next_start_tells_of_each_kept_scenario_once(tmp_path):
    assert announce(tmp_path) == []
    kept = keep(changed_session(), tmp_path)
    assert announce(tmp_path) == [kept]
    assert announce(tmp_path) == []                             # told once
    later = keep(changed_session(), tmp_path)
    assert announce(tmp_path) == [later]


def test_a_terminal_that_stops_being_one_is_noticed(tmp_path, monkeypatch):
    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path))
    master, slave = os.openpty()
    codes: list[int] = []
    watch = TerminalWatch(changed_session, fd=slave, exit=codes.append)
    watch.INTERVAL = 0.05
    watch.start()
    try:
        time.sleep(0.2)
        assert codes == []                                      # still a terminal: nothing happens
        os.close(master)                                        # the terminal goes away
        end = time.monotonic() + 5
        while not codes and time.monotonic() < end:
            time.sleep(0.02)
        assert codes == [129]
        assert watch.kept is not None and watch.kept.parent == tmp_path / "rescued"
        assert "Ann" in watch.kept.read_text(encoding="utf-8")
    finally:
        watch.stop()
        os.close(slave)


def test_a_hangup_keeps_the_work_and_puts_the_handlers_back_after(tmp_path, monkeypatch):
    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path))
    before = signal.getsignal(signal.SIGHUP), signal.getsignal(signal.SIGTERM)
    codes: list[int] = []
    watch = TerminalWatch(changed_session, fd=None, exit=codes.append).start()
    try:
        os.kill(os.getpid(), signal.SIGHUP)
        os.kill(os.getpid(), signal.SIGTERM)                   # a second signal: already handled
        time.sleep(0.05)
        assert codes == [128 + signal.SIGHUP]
        assert watch.kept is not None and len(list((tmp_path / "rescued").glob("*.yaml"))) == 1
    finally:
        watch.stop()
    assert (signal.getsignal(signal.SIGHUP), signal.getsignal(signal.SIGTERM)) == before


def test_nothing_unsaved_means_nothing_kept_but_the_app_still_ends(tmp_path, monkeypatch):
    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path))
    codes: list[int] = []
    watch = TerminalWatch(Session, fd=None, exit=codes.append).start()
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)
    finally:
        watch.stop()
    assert codes == [128 + signal.SIGTERM] and watch.kept is None
    assert not (tmp_path / "rescued").exists()


def _keep_at_once(folder, barrier, n, rounds, results) -> None:
    """One of several apps losing their terminal together: the same second, the same name."""
    for r in range(rounds):
        session = changed_session("/somewhere/Dispute.yaml")
        session.doc["table"]["players"] = [f"Player{n}x{r}", "Ben"]
        barrier.wait()
        kept = keep(session, folder)
        results.put((n, r, str(kept) if kept else None))


def test_apps_killed_together_each_keep_their_own_work(tmp_path, monkeypatch):
    import multiprocessing

    monkeypatch.setattr(time, "strftime", lambda fmt, *a: "2024-01-01-000000")   # one stamp for all, as in one second
    ctx = multiprocessing.get_context("fork")
    apps, rounds = 6, 4
    barrier, results = ctx.Barrier(apps), ctx.Queue()
    procs = [ctx.Process(target=_keep_at_once, args=(tmp_path, barrier, n, rounds, results)) for n in range(apps)]
    for p in procs:
        p.start()
    kept = [results.get(timeout=60) for _ in range(apps * rounds)]
    for p in procs:
        p.join(60)
    assert all(path for _, _, path in kept)
    assert len({path for _, _, path in kept}) == apps * rounds              # a name each, never shared
    files = sorted(tmp_path.glob("*.yaml"))
    assert len(files) == apps * rounds
    for n, r, path in kept:                                                 # each holds its own app's work
        assert yaml.safe_load(open(path, encoding="utf-8"))["table"]["players"][0] == f"Player{n}x{r}"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]    # no temporary file left


def test_a_new_file_never_replaces_anything(tmp_path):
    from adjudicator.atomic_io import write_new

    taken = tmp_path / "a.yaml"
    taken.write_text("mine")
    link = tmp_path / "l.yaml"
    link.symlink_to(tmp_path / "elsewhere.yaml")
    for name in (taken, link, tmp_path):
        with pytest.raises(FileExistsError):
            write_new(name, "new")
    assert taken.read_text() == "mine" and not (tmp_path / "elsewhere.yaml").exists()
    assert write_new(tmp_path / "b.yaml", "new").read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.yaml", "l.yaml"]
