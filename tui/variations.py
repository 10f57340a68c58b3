"""What-if lines kept in the scenario itself, as format 1.1's `variations:`.

The main line is the scenario's `events`; each variation is
`{after: N, title: TEXT, events: [...], expect: {...}, variations: [...]}`, branching
after event N of the line that holds it. The Replay screen shows every line flat, as
a `Line` with all of its events from the set-up, and edits them through this module,
so that branches are part of the document: saved with it, counted as unsaved
changes, reopened as branches. A line is addressed by its `path`: () for the main
line, (i,) for the scenario's i-th variation, (i, j) for the j-th variation of that.
No Textual here.

>>> doc = {"events": [{"play": "Milk"}, {"play": "Bread"}]}
>>> path = branch(doc, (), 1)
>>> set_events(doc, path, [{"play": "Milk"}, {"play": "Sleep"}])
>>> doc["variations"]
[{'after': 1, 'title': 'what if 1', 'events': [{'play': 'Sleep'}]}]
>>> [(l.name, len(l.events), l.base) for l in lines(doc)]
[('the scenario', 2, 0), ('what if 1', 2, 1)]
>>> promote(doc, path)
()
>>> [e["play"] for e in doc["events"]], doc["variations"][0]["events"]
(['Milk', 'Sleep'], [{'play': 'Bread'}])
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

MAIN = "the scenario"


@dataclass
class Line:
    """One line of play, flat: every event from the set-up on."""

    name: str
    events: list[dict[str, Any]]
    base: int = 0                       # events shared with the line it branches from
    path: tuple[int, ...] = ()

    @property
    def original(self) -> bool:
        return self.path == ()


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _children(holder: dict[str, Any]) -> list[dict[str, Any]]:
    return [v for v in _list(holder.get("variations")) if isinstance(v, dict)]


def _after(var: dict[str, Any]) -> int:
    after = var.get("after")
    return after if isinstance(after, int) and not isinstance(after, bool) and after >= 0 else 0


def holder(doc: dict[str, Any], path: tuple[int, ...]) -> dict[str, Any]:
    """The mapping holding the line's own events: the document or a variation."""
    node = doc
    for i in path:
        node = _children(node)[i]
    return node


def lines(doc: dict[str, Any]) -> list[Line]:
    """Every line: the main line, then each variation depth first."""
    out = [Line(MAIN, copy.deepcopy(_list(doc.get("events"))))]

    def walk(node: dict[str, Any], prefix: list, base: int, path: tuple[int, ...]) -> None:
        for i, var in enumerate(_children(node)):
            after = min(_after(var), len(prefix) - base)
            start = prefix[:base + after]
            own = copy.deepcopy(_list(var.get("events")))
            named = var.get("title")
            title = named if isinstance(named, str) and named.strip() else f"what if {len(out)}"
            out.append(Line(title, start + own, len(start), path + (i,)))
            walk(var, start + own, len(start), path + (i,))

    walk(doc, out[0].events, 0, ())
    return out


def find(doc: dict[str, Any], path: tuple[int, ...]) -> Line:
    return next(line for line in lines(doc) if line.path == path)


def branch(doc: dict[str, Any], path: tuple[int, ...], step: int) -> tuple[int, ...]:
    """Start a new what-if after `step` events of the line at `path`; returns its path.
    A branch before a variation's own events starts from the line it came from."""
    line = find(doc, path)
    while line.path and step <= line.base:
        line = find(doc, line.path[:-1])
    node = holder(doc, line.path)
    n = len(lines(doc))
    node.setdefault("variations", [])
    node["variations"].append({"after": step - line.base, "title": f"what if {n}", "events": []})
    return line.path + (len(node["variations"]) - 1,)


def set_events(doc: dict[str, Any], path: tuple[int, ...], events: list[dict[str, Any]]) -> None:
    """Store the full events of the line at `path` (the shared start is not stored twice)."""
    node = holder(doc, path)
    own = copy.deepcopy(events[find(doc, path).base:] if path else events)
    if own or path:
        node["events"] = own
    else:
        node.pop("events", None)


def drop_blocked(doc: dict[str, Any], path: tuple[int, ...]) -> str | None:
    """Why the last event of this line cannot be dropped (None: it can)."""
    line = find(doc, path)
    own = len(line.events) - line.base
    if own <= 0:
        return "no event of this line to drop"
    for var in _children(holder(doc, path)):
        if _after(var) >= own:
            return (f"the what-if line '{var.get('title') or 'what if'}' branches after this event; "
                    "switch to it (l) and keep or drop it first")
    return None


def remove(doc: dict[str, Any], path: tuple[int, ...]) -> None:
    """Delete a what-if line (and the lines branching from it)."""
    if not path:
        raise ValueError("the scenario's own line cannot be removed")
    parent = holder(doc, path[:-1])
    del parent["variations"][path[-1]]
    if not parent["variations"]:
        parent.pop("variations")


def promote(doc: dict[str, Any], path: tuple[int, ...]) -> tuple[int, ...]:
    """Make the line at `path` the scenario's own line (its events become `events`); the
    line it replaced is kept as a variation, so nothing is lost. Returns () ."""
    while path:
        path = _promote_once(doc, path)
    return path


def _promote_once(doc: dict[str, Any], path: tuple[int, ...]) -> tuple[int, ...]:
    parent = holder(doc, path[:-1])
    kids = _children(parent)
    var = kids[path[-1]]
    at = _after(var)
    events = _list(parent.get("events"))
    old_tail = events[at:]
    demoted: dict[str, Any] = {"after": at, "title": "the line before" if not path[:-1] else
                               str(parent.get("title") or "the line before"), "events": copy.deepcopy(old_tail)}
    if "expect" in parent:
        demoted["expect"] = parent.pop("expect")
    later = [dict(k, after=_after(k) - at) for k in kids if k is not var and _after(k) > at]
    if later:
        demoted["variations"] = later
    new_events = events[:at] + _list(var.get("events"))
    if new_events or path[:-1]:
        parent["events"] = new_events
    if "expect" in var:
        parent["expect"] = var["expect"]
    own_kids = [dict(k, after=_after(k) + at) for k in _children(var)]
    kept = [k for k in kids if k is not var and _after(k) <= at]
    if path[:-1] and var.get("title"):
        demoted["title"], parent["title"] = str(parent.get("title") or "the line before"), var["title"]
    parent["variations"] = kept + ([demoted] if old_tail else []) + own_kids
    if not parent["variations"]:
        parent.pop("variations")
    return path[:-1]


def pruned(doc: dict[str, Any]) -> dict[str, Any]:
    """A copy without what-if lines that hold no event (made, never played)."""
    out = copy.deepcopy(doc)

    def prune(node: dict[str, Any]) -> None:
        kept = []
        for var in _children(node):
            prune(var)
            if _list(var.get("events")) or var.get("variations"):
                kept.append(var)
        if kept:
            node["variations"] = kept
        else:
            node.pop("variations", None)

    if isinstance(out, dict):
        prune(out)
    return out


def scenario_for(doc: dict[str, Any], line: Line) -> dict[str, Any]:
    """The plain scenario to replay for `line`: its events, its own expectations."""
    variant = {k: copy.deepcopy(v) for k, v in doc.items() if k not in ("variations", "events", "expect")}
    if line.events:
        variant["events"] = copy.deepcopy(line.events)
    expect = holder(doc, line.path).get("expect")
    if expect is not None:
        variant["expect"] = copy.deepcopy(expect)
    return variant
