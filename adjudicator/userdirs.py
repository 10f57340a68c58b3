"""Where fluxx-judge keeps per-user files: rebuildable caches (the parsed card
catalogue, the search index) and the user's own data (imported rulings).

Both live under the folder the environment variable FLUXX_JUDGE_CACHE names when it is
set (tests and CI point it at a temporary folder), otherwise under the platform's user
cache and user data folders. Nothing here ever writes inside the project checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "fluxx-judge"
ENV_CACHE = "FLUXX_JUDGE_CACHE"


def cache_dir() -> Path:
    """Folder for rebuildable files."""
    override = os.environ.get(ENV_CACHE)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP))


def data_dir() -> Path:
    """Folder for the user's own data."""
    override = os.environ.get(ENV_CACHE)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP))
