"""The lock files agree with pyproject.toml and with each other, so `make` installs
exactly what was tested: uv.lock records the requirements it was resolved from, and
requirements.lock (what `make` installs, uv or pip) pins the same versions with hashes.
A dependency changed in pyproject.toml without `make lock` fails here."""

from __future__ import annotations

import re
import tomllib

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from tests.conftest import REPO

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
LOCK = tomllib.loads((REPO / "uv.lock").read_text(encoding="utf-8"))
PINNED = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def _spec(text: str) -> str:
    """A version specifier in one spelling, whatever the order of its clauses."""
    return ",".join(sorted(str(s) for s in SpecifierSet(text)))


def _declared() -> set[tuple[str, str, str]]:
    """(name, specifier, extra) of every requirement pyproject.toml declares."""
    out = set()
    groups = {"": PROJECT["project"]["dependencies"], **PROJECT["project"]["optional-dependencies"]}
    for extra, reqs in groups.items():
        for text in reqs:
            req = Requirement(text)
            out.add((canonicalize_name(req.name), _spec(str(req.specifier)), extra))
    return out


def _locked_from() -> set[tuple[str, str, str]]:
    """The same, as uv.lock recorded them when it was resolved."""
    project = next(p for p in LOCK["package"] if p["name"] == PROJECT["project"]["name"])
    out = set()
    for item in project["metadata"]["requires-dist"]:
        marker = item.get("marker", "")
        extra = re.fullmatch(r"extra == '([^']+)'", marker)
        assert marker == "" or extra, f"unexpected marker {marker!r} in uv.lock"
        out.add((canonicalize_name(item["name"]), _spec(item.get("specifier", "")), extra.group(1) if extra else ""))
    return out


def _requirements_lock() -> dict[str, set[str]]:
    """name -> versions pinned in requirements.lock (a name may differ by Python version)."""
    pins: dict[str, set[str]] = {}
    text = (REPO / "requirements.lock").read_text(encoding="utf-8")
    for entry in re.split(r"\n(?=\S)", text):
        if not entry.strip() or entry.startswith("#"):
            continue
        match = PINNED.match(entry)
        assert match, f"requirements.lock: not an exact pin: {entry.splitlines()[0]!r}"
        assert "--hash=sha256:" in entry, f"requirements.lock: {match.group(1)} has no hash"
        pins.setdefault(canonicalize_name(match.group(1)), set()).add(match.group(2))
    return pins


def test_uv_lock_was_resolved_from_this_pyproject():
    declared, locked = _declared(), _locked_from()
    assert declared == locked, (
        "pyproject.toml and uv.lock disagree; run `make lock` and commit both lock files.\n"
        f"only in pyproject.toml: {sorted(declared - locked)}\nonly in uv.lock: {sorted(locked - declared)}")


def test_requirements_lock_pins_what_uv_lock_pins():
    locked = {}
    for package in LOCK["package"]:
        if package["name"] != PROJECT["project"]["name"]:
            locked.setdefault(canonicalize_name(package["name"]), set()).add(package["version"])
    pinned = _requirements_lock()
    assert pinned, "requirements.lock is empty"
    for name, versions in pinned.items():
        assert versions <= locked.get(name, set()), f"{name} {versions} in requirements.lock, {locked.get(name)} in uv.lock"
    # everything the project and its tests need on Linux is pinned (Windows-only packages aside)
    wanted = {name for name, _, _ in _declared()}
    assert wanted <= set(pinned), f"not in requirements.lock: {sorted(wanted - set(pinned))}"


def test_every_requirement_installed_is_the_pinned_one():
    """The running environment is the lock's: what `make` built is what the lock says."""
    from importlib import metadata

    pinned = _requirements_lock()
    for name in {name for name, _, _ in _declared()}:
        have = metadata.version(name)
        assert have in pinned[name], f"{name} {have} is installed, requirements.lock pins {sorted(pinned[name])}"
