"""Where fluxx-judge keeps its per-user files: the search index cache and imported rulings.

Both live under one directory chosen by the environment variable FLUXX_JUDGE_CACHE when
it is set (tests and CI point it at a temporary folder), otherwise under the platform's
user cache directory for the index and user data directory for imported rulings.
Nothing here ever writes inside the project checkout.
"""

from __future__ import annotations

from pathlib import Path

from adjudicator.userdirs import APP, ENV_CACHE, cache_dir, data_dir  # noqa: F401 (one place decides)


def index_root() -> Path:
    return cache_dir() / "index"


def imported_store_path() -> Path:
    return data_dir() / "imported-rulings.json"
