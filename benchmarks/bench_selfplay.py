"""`make bench`'s self-play figures: `benchmarks.selfplay` for 2 players on the 5.0
deck and for 4 players on every deck, a few seconds of process CPU time each."""

from __future__ import annotations

from benchmarks.selfplay import run as selfplay


def run() -> dict:
    out: dict = {}
    for players, deck, seconds in ((2, "base", 10.0), (4, "all", 10.0)):
        r = selfplay(players, deck, seconds)
        tag = f"selfplay_{players}p_{deck}"
        for k in ("plays_per_s", "turns_per_s", "turns_with_legal_per_s", "events_per_s", "games", "errors"):
            out[f"{tag}_{k}"] = r[k]
    return out
