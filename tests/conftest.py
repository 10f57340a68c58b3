"""Shared test helpers: paths to the repo, the shared source material, scenario builders."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """Tests never touch the user's real cache (the rulings index lives there)."""
    if "FLUXX_JUDGE_CACHE" not in os.environ:
        monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(tmp_path_factory.mktemp("cache")))


def write_scenario(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def run_scenario(tmp_path: Path, text: str):
    """Replay scenario text and require that it loads and every expectation holds."""
    from adjudicator.replay import replay_file

    verdict = replay_file(str(write_scenario(tmp_path, text)))
    assert verdict.error is None, str(verdict.error)
    assert verdict.all_failures == [], verdict.all_failures
    return verdict
