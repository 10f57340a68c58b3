"""The command line under attack: generated hostile files of every class
(tests/hostile_files.py) through `fluxx-judge check` and `fluxx-judge replay` as
subprocesses. Each must exit 0 or 1, print no traceback and no escape byte, and end
(a generous timeout only guards against a hang; speed is measured in benchmarks/).

Under the ci profile the files come from a fixed seed; under `make fuzz` from a fresh
one (printed, so a failure can be reproduced with FLUXX_FUZZ_SEED) with ten variants
per family, and every file is also replayed in its own process.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys

import pytest

from tests.conftest import REPO, fuzzing
from tests.hostile_files import hostile_files
from tests.test_library import FILES

HANG_GUARD = 600        # seconds; never reached unless something hangs
FORBIDDEN = (b"\x1b", "\x9b".encode(), b"\x07", b"Traceback")


def fluxx(*args: str, env: dict | None = None, timeout: int = HANG_GUARD) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fluxx_judge", *args], cwd=REPO, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=timeout, env={**os.environ, **(env or {})})


def assert_clean(proc: subprocess.CompletedProcess, allowed=(0, 1)) -> None:
    out = proc.stdout + proc.stderr
    for bad in FORBIDDEN:
        assert bad not in out, f"{bad!r} reached the terminal:\n{out[-2000:]!r}"
    assert proc.returncode in allowed, (proc.returncode, out[-2000:])


@pytest.fixture(scope="module")
def hostile_dir(tmp_path_factory):
    seed = int(os.environ.get("FLUXX_FUZZ_SEED", "0")) or (int.from_bytes(os.urandom(4)) if fuzzing() else 1)
    print(f"hostile files from seed {seed} (FLUXX_FUZZ_SEED={seed} reproduces them)")
    rng = random.Random(seed)
    library = [open(p, encoding="utf-8").read() for p in rng.sample(FILES, 40 if fuzzing() else 3)]
    folder = tmp_path_factory.mktemp("hostile")
    for name, data in hostile_files(rng, per_family=10 if fuzzing() else 1, library_texts=library,
                                    full_size=fuzzing()):
        (folder / name).write_bytes(data)
    fifo = folder / "pipe.yaml"
    os.mkfifo(fifo)
    return folder


def files_in(folder) -> list[str]:
    return sorted(str(p) for p in folder.iterdir() if p.is_file() and not p.is_fifo())


def test_check_survives_every_hostile_file(hostile_dir):
    files = files_in(hostile_dir)
    proc = fluxx("check", *files, str(hostile_dir / "pipe.yaml"), "/dev/zero")
    assert_clean(proc, allowed=(1,))
    lines = proc.stdout.decode().splitlines()
    assert lines[-1].endswith(f"{len(files) + 2} failed") or " passed, " in lines[-1]
    assert sum(1 for line in lines if line.startswith(("PASS", "FAIL"))) == len(files) + 2
    longest = max(lines, key=len)
    assert len(longest) < 600, f"a message of {len(longest):,} characters: {longest[:300]}..."
    if fuzzing():   # JSON escapes control characters by construction; checked when fuzzing
        assert_clean(fluxx("check", "--json", str(hostile_dir)), allowed=(1,))


REPLAY_DRIVER = """
import sys
from fluxx_judge.cli import main
for path in sys.argv[2:]:
    for extra in ([], ["--json"])[: int(sys.argv[1])]:
        code = main(["replay", *extra, path])
        assert code in (0, 1), (path, code)
"""


def test_replay_survives_every_hostile_file(hostile_dir):
    """Every file through the replay command's code in one child process (quick), and
    a sample (all of them under fuzz) through `fluxx-judge replay` itself."""
    files = files_in(hostile_dir) + [str(hostile_dir / "pipe.yaml"), "/dev/zero"]
    proc = subprocess.run([sys.executable, "-c", REPLAY_DRIVER, "2" if fuzzing() else "1", *files], cwd=REPO, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=HANG_GUARD)
    assert_clean(proc, allowed=(0,))
    # (test_escapes_in_a_title_are_shown_escaped runs `replay` on a file that loads)
    sample = files if fuzzing() else [f for f in files if f.endswith(("pipe.yaml", "bare_number_answer-0.yaml"))]
    for path in sample:
        assert_clean(fluxx("replay", path))


def test_escapes_in_a_title_are_shown_escaped(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text('format: 1\ntitle: "Who wins?\\e]0;owned\\a\\e[2J"\ntable:\n  players: [Ann, Ben]\n',
                    encoding="utf-8")
    proc = fluxx("replay", str(path))
    assert_clean(proc, allowed=(0,))
    assert b"Who wins?\\x1b]0;owned\\x07\\x1b[2J" in proc.stdout


def test_a_terminal_that_is_not_utf8_gets_escapes_not_a_traceback(tmp_path, monkeypatch):
    path = tmp_path / "t.yaml"
    path.write_text("format: 1\ntitle: Zoë’s “Time Portal”…\ntable:\n  players: [Zoë, Ben]\n", encoding="utf-8")
    proc = fluxx("replay", str(path), env={"PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"})
    assert_clean(proc)
    assert b"Zo\\xeb" in proc.stdout
    from fluxx_judge.cli import main

    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    monkeypatch.setattr(sys, "stderr", sys.stdout)
    assert main(["ruling", "zoë’s-ruling"]) != 0
    sys.stdout.flush()
    assert raw.getvalue().isascii() and b"zo\\xeb\\u2019s-ruling" in raw.getvalue()


@pytest.mark.parametrize("where", ["folder", "missing", "file-as-folder"])
def test_graph_export_into_a_bad_place_is_one_clear_line(tmp_path, capsys, where):
    from fluxx_judge.cli import main

    (tmp_path / "plain").write_text("keep")
    target = {"folder": tmp_path, "missing": tmp_path / "no" / "g.graphml",
              "file-as-folder": tmp_path / "plain" / "g.graphml"}[where]
    assert main(["graph", "export", "-o", str(target)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("fluxx-judge: ")
    assert {"folder": "is a folder", "missing": "does not exist", "file-as-folder": "not a folder"}[where] in err
    assert (tmp_path / "plain").read_text() == "keep"


def test_ingest_a_file_whose_name_is_not_utf8(tmp_path, capsys):
    from fluxx_judge.cli import main

    name = os.fsdecode(b"faq-caf\xe9.txt")
    (tmp_path / name).write_text("Q: Can I?\nA: Yes \x1b]0;owned\x07 you \x9b2J can\u202e.\n", encoding="utf-8")
    assert main(["ingest", str(tmp_path / name)]) == 0
    out = capsys.readouterr()
    assert "faq-caf\\xe9.txt: 1 question(s), 1 answered" in out.out
    # 'owned' stems to 'own', a word many built-in rulings use: ask among the imported ones
    assert main(["search", "owned", "--kind", "imported", "--json"]) == 0
    found = capsys.readouterr().out
    hits = json.loads(found)                  # the escapes keep JSON output valid JSON
    [rid] = [h["id"] for h in hits["hits"] if h["id"].startswith("imported-")]
    assert main(["ruling", rid]) == 0
    plain = capsys.readouterr().out
    assert "Yes \\x1b]0;owned\\x07 you \\u009b2J can\\u202e." in plain
    for bad in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert bad not in out.out + out.err + plain + found
    assert "\x9b2J" in json.dumps(hits, ensure_ascii=False)
