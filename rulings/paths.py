"""Where fluxx-judge keeps its per-user files: the search index cache and imported rulings.

Both live under one directory chosen by the environment variable FLUXX_JUDGE_CACHE when
it is set (tests and CI point it at a temporary folder), otherwise under the platform's
user cache directory for the index and user data directory for imported rulings.
Nothing here ever writes inside the project checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "fluxx-judge"
ENV_CACHE = "FLUXX_JUDGE_CACHE"


def cache_dir() -> Path:
    """Directory for rebuildable files (the search index)."""
    override = os.environ.get(ENV_CACHE)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP))


def data_dir() -> Path:
    """Directory for the user's own data (imported rulings)."""
    override = os.environ.get(ENV_CACHE)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP))


def index_root() -> Path:
    return cache_dir() / "index"


def imported_store_path() -> Path:
    return data_dir() / "imported-rulings.json"
