"""One card's page: everything the project knows about a card, in one place.

`card_page(name)` takes a printed name, an alias, an analogue (Wormhole, Shiny! and
Mystery Play reach the same page) or a nickname players use (potato, d3p2; the
shorthand of rulings/vocabulary.yaml) and gathers: the card's type, editions, aliases,
nicknames and analogues, its effect in our words, the mechanic behind it, every ruling about it
(built-in and imported), the library scenarios that show it, and the cards and rules it
meets in the interaction graph. The command line (`fluxx-judge card NAME [--json]`) and
the app's card screen both draw this page.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from rulings import corpus as corpus_mod


class UnknownCard(LookupError):
    """No card goes by this name; `suggestions` holds the nearest names."""

    def __init__(self, name: str, message: str, suggestions: list[str]):
        super().__init__(message)
        self.name = name
        self.suggestions = suggestions

    def __str__(self) -> str:
        return self.args[0]


@dataclass
class CardPage:
    name: str
    type: str
    editions: list[tuple[str, str]]          # (key, title)
    aliases: list[str]
    analogues: list[str]                     # other editions' versions (or the generic card)
    effect: str
    mechanic: str
    mechanic_summary: str
    certainty: str
    rulings: list[dict[str, Any]] = field(default_factory=list)     # id, summary, basis
    scenarios: list[dict[str, str]] = field(default_factory=list)   # id, title, why (path: for the app)
    meets: list[dict[str, str]] = field(default_factory=list)       # sentence, other, relation, ruling
    nicknames: list[str] = field(default_factory=list)              # what players call it

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type,
                "editions": [{"key": k, "title": t} for k, t in self.editions],
                "aliases": self.aliases, "nicknames": self.nicknames, "analogues": self.analogues,
                "effect": self.effect,
                "mechanic": {"name": self.mechanic, "summary": self.mechanic_summary},
                "certainty": self.certainty, "rulings": self.rulings,
                "scenarios": [{k: v for k, v in sc.items() if k != "path"} for sc in self.scenarios],
                "meets": self.meets}

    def lines(self) -> list[str]:
        """The page as plain text lines (the command line prints these)."""
        out = [f"{self.name}  ({self.type})"]
        out.append("editions: " + ", ".join(f"{t} [{k}]" for k, t in self.editions))
        if self.aliases:
            out.append("also called: " + ", ".join(self.aliases))
        if self.nicknames:
            out.append("players call it: " + ", ".join(self.nicknames))
        if self.analogues:
            out.append("analogues: " + ", ".join(self.analogues))
        out.append("")
        out.append("effect: " + self.effect + (" (partly modelled)" if self.certainty == "partial" else ""))
        out.append(f"mechanic: {self.mechanic}" + (f" - {self.mechanic_summary}" if self.mechanic_summary else ""))
        out.append("")
        out.append(f"rulings ({len(self.rulings)}):")
        for r in self.rulings:
            out.append(f"  - {r['id']} [{r['basis_text']}]: {r['summary']}")
            if r.get("applies_via"):
                out.append(f"      applies via: {r['applies_via']}")
        if not self.rulings:
            out.append("  no ruling is about this card yet")
        out.append(f"scenarios ({len(self.scenarios)}):")
        out.extend(f"  - {s['id']}: {s['title']}" for s in self.scenarios)
        if not self.scenarios:
            out.append("  no library scenario shows this card yet")
        out.append(f"meets ({len(self.meets)}):")
        out.extend(f"  - {m['sentence']}" + (f"  [{m['ruling']}]" if m["ruling"] else "") for m in self.meets)
        if not self.meets:
            out.append("  the interaction graph links it to nothing yet")
        return out


def _catalogue():
    from adjudicator.catalogue import default_catalogue

    return default_catalogue()


def _analogue_groups() -> list[tuple[str, ...]]:
    """Card groups of the reference rulings that list analogues (generic card first)."""
    return [r.cards for r in corpus_mod.load_corpus() if r.id.endswith("-analogues") and r.cards]


def _nicknames() -> dict[str, str]:
    """What players call a card -> its name (the shorthand of rulings/vocabulary.yaml:
    potato, hologram, d3p2); each names one card, so none is ambiguous."""
    from rulings.lexicon import norm, vocabulary

    return {norm(k): v for k, v in vocabulary().shorthand.items()}


def resolve(name: str):
    """The catalogue card `name` stands for: a printed name, an alias, an analogue
    listed by a reference ruling, or a players' nickname. Raises UnknownCard with
    suggestions."""
    from adjudicator.catalogue import UnknownName

    from rulings.lexicon import norm

    cat = _catalogue()
    card = cat.find(name)
    if card is None:
        for group in _analogue_groups():
            if norm(name) in {norm(n) for n in group[1:]}:
                card = cat.find(group[0])
                break
    if card is None:
        nickname = _nicknames().get(norm(name))
        card = cat.find(nickname) if nickname else None
    if card is not None:
        return card
    try:
        return cat.resolve(name)  # raises with the catalogue's own did-you-mean
    except UnknownName as exc:
        raise UnknownCard(name, str(exc), list(exc.candidates)) from None


@functools.lru_cache(maxsize=1)
def _scenario_texts() -> dict[str, str]:
    out = {}
    for ref in corpus_mod.scenario_refs():
        try:
            with open(ref.path, encoding="utf-8") as fh:
                out[ref.id] = fh.read().lower()
        except OSError:
            continue
    return out


def card_page(name: str) -> CardPage:
    from adjudicator.catalogue import EDITIONS

    from rulings.lexicon import norm, vocabulary

    card = resolve(name)
    impl = card.impl
    names = {norm(n) for n in (card.name, *card.aliases)}
    analogues: list[str] = []
    for group in _analogue_groups():
        if names & {norm(n) for n in group}:
            analogues.extend(n for n in group if norm(n) not in names and n not in analogues)
    every_name = names | {norm(n) for n in analogues}

    rulings: list[dict[str, Any]] = []
    seen: set[str] = set()
    declared = set(getattr(impl, "rulings", ()) or ())
    for r in corpus_mod.all_rulings():
        about = {norm(c) for c in (*r.cards, *r.cards_as_written)} & every_name
        if (about or r.id in declared) and r.id not in seen:
            seen.add(r.id)
            rulings.append({"id": r.id, "summary": r.one_line(), "basis": r.basis,
                            "basis_text": corpus_mod.BASIS_WORDS.get(r.basis, r.basis),
                            "imported": r.imported, "aliases": list(r.aliases),
                            "editions": list(r.stated_editions), "applies_via": r.applies_via or None})

    scenarios = []
    ids = {rid for r in rulings for rid in (r["id"], *r["aliases"])}
    texts = _scenario_texts()
    labels = sorted({card.name.lower(), *(a.lower() for a in card.aliases)}, key=len, reverse=True)
    for ref in corpus_mod.scenario_refs():
        cited = [c for c in ref.cites if c in ids]
        written = any(label in texts.get(ref.id, "") for label in labels)
        if cited or written:
            why = f"cites {', '.join(cited)}" if cited else "plays the card"
            scenarios.append({"id": ref.id, "title": ref.title, "why": why, "path": ref.path})

    meets = []
    try:
        from adjudicator.interactions import RELATIONS, neighbors
        from rulings.knowledge import full_graph

        for row in neighbors(_catalogue(), card.name, graph=full_graph(_catalogue())):
            if row.get("kind") in ("ruling", "scenario", "alias") or row["relation"] == "is_a":
                continue  # rulings, scenarios, aliases and the type have their own lines
            phrase = RELATIONS.get(row["relation"], row["relation"])
            other = row.get("name", "")
            sentence = f"{card.name} {phrase} {other}" if row["direction"] == "out" else f"{other} {phrase} {card.name}"
            meets.append({"sentence": sentence, "other": other, "kind": row.get("kind") or "",
                          "relation": row["relation"], "ruling": row.get("ruling") or ""})
    except Exception as exc:  # the graph is optional for the page; say why it is missing
        meets.append({"sentence": f"(the interaction graph could not answer: {exc})", "other": "",
                      "kind": "", "relation": "", "ruling": ""})

    summary = getattr(impl, "summary", "") or ""
    if not summary and impl.__doc__:
        summary = " ".join(impl.__doc__.split())
    return CardPage(
        name=card.name, type=card.type,
        editions=[(e, EDITIONS.get(e, e)) for e in card.editions],
        aliases=list(card.aliases), analogues=analogues, effect=card.effect,
        mechanic=card.mechanic, mechanic_summary=summary, certainty=card.certainty,
        rulings=rulings, scenarios=scenarios, meets=meets,
        nicknames=sorted(k for k, v in vocabulary().shorthand.items() if norm(v) in names))
