"""Find direct edits of the table's zones in the engine's source (used by
tests/test_card_moves.py): every card must move through the primitives of
`adjudicator/moving.py`, which keep conservation and fire the hooks.

A zone is `<x>.hands[...]`, `<x>.keepers[...]`, an attribute named like a card zone
of the State (`rules`, `goals`, `draw_pile`, `discard`...) or a temporary hand's
`cards`, and any local name bound to one of those (`hand = st.hands[p]`). An edit is
a mutating method call on a zone (append, remove, insert, pop...), an assignment or
augmented assignment to a zone or to an item or slice of it, a `del` of one, and an
assignment to (or mutation of) the `hands`, `keepers` or `temp_hands` containers.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

# attributes of State (and TempHand) that are card zones
ZONE_ATTRS = frozenset({"rules", "meta_rules", "goals", "draw_pile", "discard", "removed", "resolving", "rules_pile",
                        "scored", "cards"})
# containers of zones: State.hands and State.keepers (player -> zone), State.temp_hands
CONTAINERS = frozenset({"hands", "keepers", "temp_hands", "attachments",
                        # the cards under a card, and the cards face down or face-out
                        "under", "face_down", "face_out", "lasting",
                        # the other facts the kept figures read (State.figures is reset by the
                        # State's methods that change them)
                        "players", "eliminated", "claims", "active", "started_empty"})
MUTATORS = frozenset({"append", "remove", "insert", "pop", "extend", "clear", "sort", "reverse", "__setitem__",
                      "__delitem__", "__iadd__", "popitem", "update", "setdefault"})
# `cards` is a zone of a temporary hand (`frame.cards`, `st.temp_hands[-1].cards`), but
# not of an object's own (the catalogue's cards by key, a hint list)
NOT_CARD_ZONES = frozenset({"self", "cat", "catalogue", "self.cat", "e.cat", "core.cat", "engine.cat"})


@dataclass(frozen=True)
class Edit:
    path: str
    line: int
    function: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} (in {self.function}): {self.text}"


def _is_zone(node: ast.AST, aliases: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in aliases
    if isinstance(node, ast.Attribute):
        return node.attr in ZONE_ATTRS and (node.attr != "cards" or ast.unparse(node.value) not in NOT_CARD_ZONES)
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Attribute) and node.value.attr in ("hands", "keepers")
    return False


def _is_container(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in CONTAINERS


def _targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, (ast.Tuple, ast.List)):
        return [t for e in node.elts for t in _targets(e)]
    if isinstance(node, ast.Starred):
        return _targets(node.value)
    return [node]


def _edited(target: ast.AST, aliases: set[str]) -> bool:
    """Whether assigning to (or deleting) `target` edits a zone. Rebinding a local
    name is no edit (it stops being an alias)."""
    if isinstance(target, ast.Name):
        return False
    if _is_zone(target, aliases) or _is_container(target):
        return True
    if isinstance(target, ast.Subscript):
        return _is_zone(target.value, aliases) or _is_container(target.value)
    return False


class _Finder(ast.NodeVisitor):
    def __init__(self, path: str, source: str):
        self.path = path
        self.source = source
        self.edits: list[Edit] = []
        self.scope: list[tuple[str, set[str]]] = [("<module>", set())]

    def _add(self, node: ast.AST) -> None:
        text = ast.get_source_segment(self.source, node) or ast.unparse(node)
        name = ".".join(s for s, _ in self.scope[1:]) or "<module>"
        self.edits.append(Edit(self.path, getattr(node, "lineno", 0), name, text.splitlines()[0]))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append((node.name, set()))
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _function

    @property
    def aliases(self) -> set[str]:
        return self.scope[-1][1]

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(_edited(target, self.aliases) for t in node.targets for target in _targets(t)):
            self._add(node)
        # a local name bound to a zone is the zone; bound to anything else, it is not
        for t in node.targets:
            if isinstance(t, ast.Name):
                if _is_zone(node.value, self.aliases):
                    self.aliases.add(t.id)
                else:
                    self.aliases.discard(t.id)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            if node.target.id in self.aliases:
                self._add(node)
        elif _edited(node.target, self.aliases):
            self._add(node)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None and _edited(node.target, self.aliases):
            self._add(node)
        if isinstance(node.target, ast.Name) and node.value is not None:
            if _is_zone(node.value, self.aliases):
                self.aliases.add(node.target.id)
            else:
                self.aliases.discard(node.target.id)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        if any(_edited(target, self.aliases) for t in node.targets for target in _targets(t)):
            self._add(node)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in MUTATORS and (
                _is_zone(f.value, self.aliases) or _is_container(f.value)):
            self._add(node)
        elif isinstance(f, ast.Attribute) and f.attr == "shuffle" and any(_is_zone(a, self.aliases) for a in node.args):
            self._add(node)          # a shuffle in place reorders the zone
        self.generic_visit(node)


def zone_edits_in(source: str, path: str = "<source>") -> list[Edit]:
    """The direct zone edits in Python source text."""
    finder = _Finder(path, source)
    finder.visit(ast.parse(source, path))
    return finder.edits


def zone_edits(path: Path, root: Path) -> list[Edit]:
    """The direct zone edits in the file `path` (named relative to `root`)."""
    return zone_edits_in(path.read_text(encoding="utf-8"), path.relative_to(root).as_posix())
