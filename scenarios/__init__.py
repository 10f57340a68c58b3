"""The built-in scenario library: one YAML dispute per file, shipped as package data."""

from importlib import resources
from pathlib import Path


def library_path() -> Path:
    """The folder holding the built-in scenarios (inside the installed package)."""
    return Path(str(resources.files("scenarios")))
