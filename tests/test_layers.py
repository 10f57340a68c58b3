"""The packages stand in layers, each importing only those below it: `adjudicator`
(the engine) nothing of ours; `scenarios` (the library, data) nothing above the
engine; `rulings` (the corpus, its search and the full knowledge graph) the engine and
the library; `tui` (the app) all of those; `fluxx_judge` (the command line, which
starts the app) everything. Checked on the source of every package, so a lazy import
inside a function counts as much as one at the top of a module, and the import graph
of the packages has no cycle. The layers are every package the wheel ships, so a new
package cannot stand outside them."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO

LAYERS = ["adjudicator", "scenarios", "rulings", "tui", "fluxx_judge"]     # bottom first
ABOVE = {p: set(LAYERS[i + 1:]) for i, p in enumerate(LAYERS)}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, top-level package) of every import in a file, and every call of
    `__import__` or `importlib.import_module` (which hide an import from a reader)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module.split(".")[0]))
        elif isinstance(node, ast.Call):
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
            if name in ("__import__", "import_module"):
                out.append((node.lineno, "<dynamic import>"))
    return out


@pytest.mark.parametrize("package", sorted(ABOVE))
def test_a_lower_package_imports_nothing_above_it(package):
    wrong = [f"{path.relative_to(REPO)}:{line} imports {target}"
             for path in sorted((REPO / package).rglob("*.py"))
             for line, target in imports_of(path)
             if target in ABOVE[package] or target == "<dynamic import>"]
    assert wrong == [], "\n".join(wrong)


def test_the_layers_are_every_package():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert sorted(LAYERS) == sorted(config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"])


def test_the_check_itself_sees_lazy_and_dynamic_imports(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def f():\n    from rulings.corpus import one_line\n    return __import__('tui')\n")
    assert imports_of(f) == [(2, "rulings"), (3, "<dynamic import>")] or \
        sorted(imports_of(f)) == [(2, "rulings"), (3, "<dynamic import>")]


def test_the_packages_import_one_another_without_a_cycle():
    import networkx as nx

    graph = nx.DiGraph()
    for package in LAYERS:
        graph.add_node(package)
        for path in sorted((REPO / package).rglob("*.py")):
            for _, target in imports_of(path):
                if target in LAYERS and target != package:
                    graph.add_edge(package, target)
    cycles = list(nx.simple_cycles(graph))
    assert cycles == [], f"packages importing each other: {cycles}"
