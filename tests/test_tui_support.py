"""Helpers shared by the app's pilot tests (this module holds no tests of its own)."""

from __future__ import annotations

import time

import pytest


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    """One rulings cache for all the app tests of the session, so the index is built once
    (this replaces the per-test cache of conftest.py in the modules that import it)."""
    cache = tmp_path_factory.getbasetemp() / "tui-cache"
    cache.mkdir(mode=0o700, exist_ok=True)      # the user's alone, or nothing in it is read
    monkeypatch.setenv("FLUXX_JUDGE_CACHE", str(cache))
    # where Save As proposes new files: never the tester's own documents folder
    monkeypatch.setenv("FLUXX_JUDGE_SCENARIOS", str(tmp_path_factory.getbasetemp() / "tui-documents"))


async def until(pilot, condition, timeout: float = 15.0) -> None:
    """Let the app run until `condition()` holds (workers finish, screens change)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("the app did not get there in time")
        await pilot.pause(0.02)
