"""Mechanics reach the engine through one narrow typed interface
(`adjudicator.mechanics.api.RulesCore`): every hook's engine argument is used only
for what that interface declares, and the rules core fits it (mypy checks that part
wherever the core hands itself to a hook)."""

from __future__ import annotations

import ast
from pathlib import Path

from adjudicator.core import Core
from adjudicator.mechanics.api import RulesCore

MECHANICS = Path(__file__).resolve().parent.parent / "adjudicator" / "mechanics"


def _declared() -> set[str]:
    names = set(getattr(RulesCore, "__annotations__", {}))
    names |= {n for n in vars(RulesCore) if not n.startswith("_")}
    return names


def _engine_uses(path: Path) -> list[tuple[int, int, str]]:
    """(line, column, attribute) for every attribute read off a hook's engine
    argument (the parameter after `self` of a method, conventionally `e`)."""
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = fn.args.args
        engine = [a.arg for a in args[:2] if a.arg in ("e", "core", "engine")]
        if not engine:
            continue
        for node in ast.walk(fn):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in engine):
                found.append((node.lineno, node.col_offset, node.attr))
    return found


def test_mechanics_use_only_the_declared_interface():
    declared = _declared()
    stray = [f"{path.name}:{line}:{col}: e.{attr}" for path in sorted(MECHANICS.glob("*.py"))
             for line, col, attr in _engine_uses(path) if attr not in declared]
    assert not stray, "mechanics reach past RulesCore (declare it there, or use what is declared):\n" + "\n".join(stray)


def test_the_check_sees_what_the_mechanics_use():
    # guards the test above against finding nothing: the common calls are seen
    used = {attr for path in MECHANICS.glob("*.py") for _, _, attr in _engine_uses(path)}
    assert {"state", "say", "choose", "name", "atomic"} <= used


def test_the_rules_core_provides_everything_declared():
    from adjudicator.catalogue import default_catalogue
    from adjudicator.state import State

    core = Core(default_catalogue(), State(defs=[], players=["Ann"], hands={"Ann": []}, keepers={"Ann": []}))
    missing = [n for n in _declared() if not hasattr(core, n)]
    assert not missing


def test_every_hook_a_mechanic_overrides_is_annotated_as_its_base_declares():
    """mypy checks a hook's body against `RulesCore` only when the hook says what it
    receives: each override of an annotated hook carries the same annotations."""
    import inspect

    from adjudicator.mechanics import load_all
    from adjudicator.mechanics.base import REGISTRY

    load_all()
    bare = []
    for impl in REGISTRY.values():
        for cls in type(impl).__mro__[:-1]:
            for name, fn in vars(cls).items():
                if name.startswith("__") or not inspect.isfunction(fn) or fn.__module__.endswith(".composed"):
                    continue
                base = next((getattr(k, name) for k in cls.__mro__[1:] if name in vars(k)), None)
                if base is not None and getattr(base, "__annotations__", None) and not fn.__annotations__:
                    bare.append(f"{cls.__module__}.{cls.__name__}.{name}")
    assert not bare, "hooks without the annotations of the hook they override: " + ", ".join(sorted(set(bare)))
