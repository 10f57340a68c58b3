"""`make bench`'s comparison with the engine's previous commit: which commit that is, and
the engine exported from it (benchmarks/bench_previous.py), on a repository of its own."""

from __future__ import annotations

import subprocess

import pytest

from benchmarks import bench_previous


def _git(repo, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=repo,
                          capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def repo(tmp_path, monkeypatch):
    _git(tmp_path, "init", "-q")
    commits = []
    for path, text in (("adjudicator/engine.py", "v1"), ("adjudicator/engine.py", "v2"), ("docs/x.md", "d")):
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text(text)
        _git(tmp_path, "add", "-A")
        _git(tmp_path, "commit", "-q", "-m", text)
        commits.append(_git(tmp_path, "rev-parse", "HEAD"))
    monkeypatch.setattr(bench_previous, "REPO", tmp_path)
    monkeypatch.delenv("FLUXX_BENCH_PREVIOUS", raising=False)
    return tmp_path, commits


def test_the_previous_engine_is_the_one_before_its_newest_change(repo):
    folder, (first, second, third) = repo
    commit, why = bench_previous.previous_commit()
    assert commit == first and second[:10] in why          # a later commit of the docs alone changes nothing
    bench_previous._export(commit, folder / "out")
    assert (folder / "out" / "adjudicator" / "engine.py").read_text() == "v1"
    assert not (folder / "out" / "docs").exists()


def test_uncommitted_changes_compare_with_head_and_a_named_commit_wins(repo, monkeypatch):
    folder, (first, second, third) = repo
    (folder / "adjudicator" / "engine.py").write_text("v3, not committed")
    assert bench_previous.previous_commit()[0] == third
    monkeypatch.setenv("FLUXX_BENCH_PREVIOUS", first[:8])
    assert bench_previous.previous_commit() == (first, "named by FLUXX_BENCH_PREVIOUS")


def test_outside_a_git_checkout_it_says_it_was_skipped(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(bench_previous, "REPO", tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert bench_previous.run() == {"previous_skipped": "no git checkout"}
    assert "skipped: no previous engine" in capsys.readouterr().out
