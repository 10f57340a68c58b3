"""The shared safe writer: through symlinks, never over a folder, device or FIFO, clear
one-line errors, no temporary file left behind, stale ones cleared by the next save."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys

import pytest

from adjudicator import atomic_io
from adjudicator.atomic_io import WriteError, temp_files_of, write_atomic
from adjudicator.errors import FluxxJudgeError
from tests.conftest import REPO


def leftovers(folder) -> list[str]:
    return sorted(n for n in os.listdir(folder) if n.endswith(atomic_io.TMP_SUFFIX))


def test_writes_text_and_bytes_and_returns_the_real_path(tmp_path):
    target = tmp_path / "a.yaml"
    assert write_atomic(target, "één\n") == target
    assert target.read_bytes() == "één\n".encode("utf-8")
    assert write_atomic(str(target), b"\x00\xff") == target
    assert target.read_bytes() == b"\x00\xff"
    assert leftovers(tmp_path) == []


def test_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "a.yaml"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomic(target, "new")
    assert (os.stat(target).st_mode & 0o777) == 0o640


def test_writes_through_a_symlink_to_the_real_file(tmp_path):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    real = real_dir / "scenario.yaml"
    real.write_text("old")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    assert write_atomic(link, "new") == real
    assert link.is_symlink() and real.read_text() == "new"
    assert leftovers(tmp_path) == [] and leftovers(real_dir) == []


def test_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.yaml"
    link.symlink_to(tmp_path / "made.yaml")
    write_atomic(link, "x")
    assert link.is_symlink() and (tmp_path / "made.yaml").read_text() == "x"


def test_symlink_loop_is_a_clear_error(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(WriteError):
        write_atomic(a, "x")
    assert leftovers(tmp_path) == []


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and text
    return text


def test_folder_is_refused(tmp_path):
    with pytest.raises(WriteError) as info:
        write_atomic(tmp_path, "x")
    assert "is a folder" in one_line(info.value)
    assert isinstance(info.value, FluxxJudgeError) and isinstance(info.value, OSError)


def test_missing_folder_is_refused(tmp_path):
    with pytest.raises(WriteError) as info:
        write_atomic(tmp_path / "nope" / "x.yaml", "x")
    assert "does not exist" in one_line(info.value)
    assert not (tmp_path / "nope").exists()


def test_a_file_used_as_a_folder_is_refused(tmp_path):
    (tmp_path / "plain").write_text("keep")
    with pytest.raises(WriteError) as info:
        write_atomic(tmp_path / "plain" / "x.yaml", "x")
    assert "not a folder" in one_line(info.value)
    assert (tmp_path / "plain").read_text() == "keep"


def test_fifo_is_never_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(WriteError) as info:
        write_atomic(fifo, "x")
    assert "FIFO" in one_line(info.value)
    assert (tmp_path / "pipe").is_fifo()
    assert leftovers(tmp_path) == []


def test_device_is_never_replaced_even_through_a_symlink(tmp_path):
    link = tmp_path / "null.yaml"
    link.symlink_to("/dev/null")
    with pytest.raises(WriteError) as info:
        write_atomic(link, "x")
    assert "device" in one_line(info.value)
    assert os.path.exists("/dev/null") and link.is_symlink()


def test_permission_problem_is_a_clear_error(tmp_path, monkeypatch):
    real_open = os.open

    def denied(path, flags, *rest):
        if str(path).endswith(atomic_io.TMP_SUFFIX):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *rest)

    monkeypatch.setattr(atomic_io.os, "open", denied)
    with pytest.raises(WriteError) as info:
        write_atomic(tmp_path / "x.yaml", "x")
    assert "permission denied" in one_line(info.value)


def test_a_failure_midway_removes_the_temp_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    target = tmp_path / "a.yaml"
    target.write_text("before")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic_io.os, "fsync", full)
    with pytest.raises(WriteError) as info:
        write_atomic(target, "after")
    assert "no space" in one_line(info.value)
    assert target.read_text() == "before"
    assert leftovers(tmp_path) == []


def test_an_interrupt_midway_removes_the_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "a.yaml"
    target.write_text("before")

    def interrupted(*a):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic_io.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, "after")
    assert target.read_text() == "before" and leftovers(tmp_path) == []


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_temp_files_of_a_killed_save_are_cleared_next_time(tmp_path):
    target = tmp_path / "a.yaml"
    target.write_text("before")
    pid = dead_pid()
    stale = tmp_path / f".a.yaml.{pid}.deadbeef{atomic_io.TMP_SUFFIX}"
    stale.write_bytes(b"x" * 1000)
    live = tmp_path / f".a.yaml.{os.getppid()}.cafe0000{atomic_io.TMP_SUFFIX}"
    live.write_bytes(b"someone saving right now")
    other = tmp_path / f".b.yaml.{pid}.deadbeef{atomic_io.TMP_SUFFIX}"
    other.write_bytes(b"another file's business")
    unrelated = tmp_path / ".a.yaml.notes"
    unrelated.write_text("mine")
    write_atomic(target, "after")
    assert not stale.exists()
    assert live.exists() and other.exists() and unrelated.exists()
    assert temp_files_of(target) == [live]


KILLER = """
import sys
from adjudicator.atomic_io import write_atomic
import adjudicator.atomic_io as m, os, time
real_fsync = os.fsync
def slow(fd):
    print("writing", flush=True)
    time.sleep(60)
m.os.fsync = slow
write_atomic(sys.argv[1], "after" * 1000)
"""


def test_a_save_killed_midway_keeps_the_old_file_and_the_next_save_clears_its_temp(tmp_path):
    target = tmp_path / "a.yaml"
    target.write_text("before")
    proc = subprocess.Popen([sys.executable, "-c", KILLER, str(target)], cwd=REPO,
                            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout.readline().strip() == b"writing"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert target.read_text() == "before"
    assert len(leftovers(tmp_path)) == 1
    write_atomic(target, "next")
    assert target.read_text() == "next" and leftovers(tmp_path) == []


def test_non_utf8_file_name_is_written_and_reported_printably(tmp_path):
    name = os.fsdecode(b"caf\xe9\x1b[2J.yaml")
    target = tmp_path / name
    write_atomic(target, "x")
    assert target.read_text() == "x"
    with pytest.raises(WriteError) as info:
        write_atomic(tmp_path / name / "inner.yaml", "x")
    text = one_line(info.value)
    assert "\x1b" not in text
    text.encode("utf-8")  # printable on any UTF-8 terminal: no lone surrogates
