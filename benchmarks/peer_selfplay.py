"""Random self-play on the peer simulator (fluxx_sim), driven from outside it.

Run by `benchmarks.bench_peer` with the peer's own Python (the one that has numpy),
from the peer's folder, as a script: it imports nothing of this project. It only calls
the peer's public pieces (its `Game`, the base deck list and the observation encoder
that gives the legal moves), the way the peer's own scripts drive a game.

It reads commands on standard input, one a line, and answers each with one JSON line:

- `play SECONDS`: play random games from fresh deals (2 players, base deck) until
  SECONDS of process CPU time have gone by in this command, then report the totals
  for this command alone;
- `quit`.

At each step the legal moves are listed with the peer's encoder (the action mask of
`observe_hot_encoded`, which is how its agents see them) and one is picked at random.
As in `benchmarks.selfplay`, step time is the peer's time to carry out the moves
(`Game.step`), legal time its time to list them, both in process CPU time; a game ends
at a win or after 3,000 moves. A play is a card played from the hand for the turn.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

MAX_EVENTS = 3_000


def _load():
    sys.path.insert(0, os.getcwd())
    import numpy as np
    from src.agents import agent_utils
    from src.game.cards import card_lists
    from src.game.FluxxEnums import GameConfig, GamePhaseType
    from src.game.Game import Game
    return np, agent_utils, card_lists.base_deck, GameConfig, GamePhaseType, Game


class _Seat:
    """What the peer's encoder reads of an agent: its seat."""

    def __init__(self, player_number: int) -> None:
        self.player_number = player_number


def main() -> int:
    np, agent_utils, deck, GameConfig, GamePhaseType, Game = _load()
    config = GameConfig(2, deck)
    play_phase = GamePhaseType.PLAY_CARD_FOR_TURN
    clock = time.process_time
    seed = 1

    def play_game(totals: dict) -> None:
        game = Game(2, list(deck), disable_game_messages=True, seed=np.random.SeedSequence(seed))
        game.reset()
        rng = random.Random(seed ^ 0xB0A7)
        seats = [_Seat(0), _Seat(1)]
        first_turn = game.turn_count
        events = 0
        while game.winner is None and events < MAX_EVENTS:
            t0 = clock()
            phase = game.check_current_phase()
            mask = agent_utils.observe_hot_encoded(seats[phase.acting_player], game.get_game_state(),
                                                   config)["action_mask"]
            legal = np.flatnonzero(mask)
            t1 = clock()
            if len(legal) == 0:
                break
            index = int(legal[rng.randrange(len(legal))])
            move = "no_free_action" if index == len(deck) else deck[index]
            game.step(move)
            t2 = clock()
            if phase.type == play_phase:
                totals["plays"] += 1
            totals["legal_time"] += t1 - t0
            totals["step_time"] += t2 - t1
            events += 1
        totals["events"] += events
        totals["turns"] += game.turn_count - first_turn
        totals["games"] += 1

    keys = ("plays", "events", "turns", "games", "errors", "step_time", "legal_time")
    play_game(dict.fromkeys(keys, 0.0))       # warm-up, untimed
    seed += 1
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            break
        seconds = float(words[1])
        totals = dict.fromkeys(keys, 0.0)
        errors: list[str] = []
        start = clock()
        while clock() - start < seconds:
            try:
                play_game(totals)
            except Exception as exc:  # counted and reported, never hidden
                totals["errors"] += 1
                if len(errors) < 3:
                    errors.append(f"game {seed}: {type(exc).__name__}: {exc}")
            seed += 1
        totals["error_samples"] = errors
        print(json.dumps(totals), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
