"""The examples in the engine's docstrings run (python-chess keeps its own the same way).

The docstrings are read from each module's source file and run in the loaded module's
namespace, so the examples run on the compiled engine too (`make test-compiled`),
whose functions `doctest`'s finder does not see into."""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

import pytest

import adjudicator.answer_space
import adjudicator.state
import adjudicator.systems


def _docstrings(source: Path) -> list[tuple[str, str, int]]:
    """(name, docstring, line) for the module and every class and function in it."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    out = []
    for node in [tree, *ast.walk(tree)]:
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc and node.body:
                first = node.body[0]
                out.append((getattr(node, "name", "<module>"), doc, first.lineno))
    return out


@pytest.mark.parametrize("module", [adjudicator.state, adjudicator.systems, adjudicator.answer_space],
                         ids=lambda m: m.__name__)
def test_the_examples_in_the_docstrings_run(module):
    source = Path(module.__file__).parent / (module.__name__.rpartition(".")[2] + ".py")
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for name, doc, line in _docstrings(source):
        test = parser.get_doctest(doc, dict(vars(module)), f"{module.__name__}.{name}", str(source), line)
        if test.examples:
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0
