"""Dispute-like positions for the analysis benchmark, made from a seed: 3 to 5 players,
5 to 9 known cards in the active player's hand, a Play rule (2, 3, 4, All or All But 1)
and often a Draw rule, free actions (rules such as Goal Mill or Plunder, Keepers with
powers such as The Captain or the Teleporter), Keepers in front of every player, a Goal
or two, other hands mostly unseen with now and then a Surprise, a draw pile of unseen
cards and a few cards in the discard pile.

Each position is a scenario file's text; the loader judges it like any file, and a
seed whose table could never occur (a player would already have won) is passed over.
`positions(n)` gives the first n that load.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Iterator

from adjudicator.catalogue import default_catalogue
from adjudicator.errors import InputError, ScenarioFault

PLAYERS = ["Ann", "Ben", "Cal", "Dee", "Eve"]
# the decks dealt from, and the free-action rules each may put in play
DECKS = {
    "base": (("base",), ["Goal Mill", "Recycling", "Swap Plays for Draws", "Get On With It!", "Mystery Play"]),
    "star": (("star",), ["Get On With It!", "Mystery Play"]),
    "pirate": (("pirate",), ["Plunder", "Swap Plays for Draws"]),
}
PLAY_RULES = ["Play 2", "Play 3", "Play 4", "Play All", "Play All But 1"]


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _names(cards: list[str]) -> str:
    return "[" + ", ".join(_quote(c) for c in cards) + "]"


def scenario_text(seed: int) -> str:
    """The scenario file of the position made from `seed`."""
    rng = random.Random(seed)
    deck_name = rng.choice(sorted(DECKS))
    editions, free_rules = DECKS[deck_name]
    cat = default_catalogue()
    cards = [c for c in cat if set(editions) & set(c.editions) and c.type != "basic"]
    by_type: dict[str, list[str]] = {}
    for c in cards:
        by_type.setdefault(c.type, []).append(c.name)
    for names in by_type.values():
        rng.shuffle(names)
    players = PLAYERS[: rng.randint(3, 5)]
    rules = [rng.choice([r for r in PLAY_RULES if r in by_type["rule"]])]
    if rng.random() < 0.6:
        rules.append(rng.choice([r for r in by_type["rule"] if r.startswith("Draw ")]))
    rules += rng.sample([r for r in free_rules if r in by_type["rule"]], rng.randint(1, 2))
    keepers = by_type["keeper"]
    goals = by_type["goal"]
    in_play_goals = [goals.pop()]
    tables = {p: [keepers.pop() for _ in range(rng.randint(0 if p != players[0] else 1, 3))] for p in players}
    powers = [k for k in keepers if cat.resolve(k).impl.free_action]
    if powers and rng.random() < 0.7:      # a Keeper with a power in front of the player
        power = rng.choice(powers)
        keepers.remove(power)
        tables[players[0]].append(power)
    hand_size = rng.randint(5, 9)
    pool = ([keepers.pop() for _ in range(3)] + [goals.pop() for _ in range(2)]
            + rng.sample(by_type["action"], 3) + rng.sample([r for r in by_type["rule"] if r not in rules], 2))
    rng.shuffle(pool)
    hand = pool[:hand_size]
    surprises = by_type.get("surprise", [])
    lines = ["format: 1", f"id: dispute-{seed}", f"title: A dispute-like position made from seed {seed}",
             "table:", f"  editions: [{', '.join(editions)}]", f"  players: {_names(players)}",
             f"  turn: {players[0]}", f"  rules: {_names(rules)}", f"  goals: {_names(in_play_goals)}",
             "  hands:", f"    {players[0]}: {_names(hand)}"]
    for p in players[1:]:
        other = ["? x" + str(rng.randint(1, 4))]
        if surprises and rng.random() < 0.3:
            other.insert(0, rng.choice(surprises))
        lines.append(f"    {p}: [{', '.join(_quote(c) for c in other)}]")
    lines.append("  keepers:")
    lines += [f"    {p}: {_names(k)}" for p, k in tables.items() if k]
    lines.append('  draw_pile: ["? x20"]')
    lines.append(f"  discard: {_names(rng.sample(by_type['action'], 2))}")
    return "\n".join(lines) + "\n"


def positions(n: int, start: int = 0) -> Iterator[tuple[int, str]]:
    """The first `n` seeds from `start` whose position loads, with their file's text."""
    from adjudicator.scenario import load_scenario

    made = 0
    seed = start
    with tempfile.TemporaryDirectory() as tmp:
        while made < n:
            text = scenario_text(seed)
            path = Path(tmp) / f"dispute-{seed}.yaml"
            path.write_text(text, encoding="utf-8")
            try:
                load_scenario(str(path))
            except (InputError, ScenarioFault):
                seed += 1
                continue
            yield seed, text
            made += 1
            seed += 1


if __name__ == "__main__":
    for seed, text in positions(3):
        print(text)
