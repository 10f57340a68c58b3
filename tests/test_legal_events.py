"""The legal-events list, judged cheaply, against the definition it stands for.

`Engine.legal_events` judges plays, free actions and turn ends by the checks made
before anything happens, and works out a next player's plays on one trial end of the
turn. Its definition is simpler and slower: every candidate event carried out in full
on a copy (an `exhaustive` engine, which also tries a next player's play in full after
the trial end of the turn), kept when the rules accept it. The two must agree at every
step of random play over every edition, every table size and Solo, Surprises and
decisions included.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine import Engine, is_compiled
from adjudicator.events import Event
from tests.conftest import examples
from tests.test_property_play import DECKS, SEATS, answer_for, answer_pending, random_position


def by_trial(engine: Engine) -> list[Event]:
    """The definition: each candidate carried out in full on a copy of the table."""
    out = []
    engine.exhaustive = True
    try:
        for ev in engine.candidate_events():
            result = engine.try_event(ev)
            if result is not None and result.status != "rejected":
                out.append(ev)
    finally:
        engine.exhaustive = False
    return out


def play_comparing(engine: Engine, rng: random.Random, steps: int) -> int:
    """Random play, comparing the two listings before every event; returns how many
    listings were compared."""
    compared = 0
    for _ in range(steps):
        if engine.pending is not None:
            answer_pending(engine, rng)
            continue
        before = engine.state.compact()
        legal = engine.legal_events()
        assert engine.state.compact() == before, "listing the legal events changed the table"
        assert legal == by_trial(engine), f"listings differ at {engine.state.compact()}"
        compared += 1
        if not legal:
            break
        surprises = [e for e in legal if e.verb == "surprise"]
        event = rng.choice(surprises) if surprises and rng.random() < 0.6 else rng.choice(legal)
        assert engine.submit(event).status != "rejected"
    return compared


@pytest.mark.parametrize("deck", list(DECKS))
def test_cheap_listing_matches_trials_on_every_deck_and_table_size(deck):
    compared = 0
    for seats in SEATS:
        engine = random_position(7_000 + seats, deck, seats)
        compared += play_comparing(engine, random.Random(seats * 31), 30)
    assert compared >= 6 * 5, "too few positions compared to mean anything"


@settings(max_examples=examples(15))
@given(seed=st.integers(0, 10**9), deck=st.sampled_from([None, *DECKS]), seats=st.sampled_from(SEATS))
def test_cheap_listing_matches_trials_from_random_positions(seed, deck, seats):
    engine = random_position(seed, deck, None if deck is None else seats)
    play_comparing(engine, random.Random(seed), 30)


def test_a_next_players_play_is_judged_after_the_turn_ends():
    """When the active player has nothing left to do, the next player's plays are the
    legal ones (they end the turn first), and they agree with full trials."""
    for seed in range(40):
        engine = random_position(seed, "base", 3)
        rng = random.Random(seed)
        for _ in range(60):
            if engine.pending is not None:
                answer_pending(engine, rng)
                continue
            legal = engine.legal_events()
            later = [e for e in legal if e.verb == "play" and e.by != engine.state.active_player]
            if later:
                assert legal == by_trial(engine)
                return
            if not legal:
                break
            engine.submit(rng.choice(legal))
    pytest.fail("no position in 40 games offered the next player's plays")


@pytest.mark.parametrize("deck,seats", [("base", 2), ("base", 4), ("everything", 3), ("star", 5), ("base+creeper-pack", 3)])
def test_an_end_of_turn_kept_from_the_listing_gives_what_ending_it_again_gives(deck, seats, monkeypatch):
    """The listing ends the turn on a trial table to judge the next player's plays;
    when that play is then made, its run takes that table instead of ending the turn
    again. Two engines play the same events, one listing first (and so reusing) and
    one never listing: every result and every table must be the same."""
    reused = []
    original = Engine._end_turn_for

    def counting(self, player, ev):
        reused.append(self._reusable is not None and self._reusable.player == player)
        return original(self, player, ev)

    monkeypatch.setattr(Engine, "_end_turn_for", counting)
    for seed in range(6):
        lister, plain = random_position(900 + seed, deck, seats), random_position(900 + seed, deck, seats)
        rng = random.Random(seed)
        for _ in range(120):
            if lister.pending is not None:
                if lister.pending.decision.chance:
                    a, b = lister.answer_by_chance(), plain.answer_by_chance()
                else:
                    answer = answer_for(lister, rng)
                    a, b = lister.submit(Event("choose", answer=answer)), plain.submit(Event("choose", answer=answer))
            else:
                legal = lister.legal_events()
                if not legal:
                    break
                event = rng.choice(legal)
                a, b = lister.submit(event), plain.submit(event)
            assert (a.status, [(e.text, e.cites) for e in a.entries], a.turn_over) == \
                   (b.status, [(e.text, e.cites) for e in b.entries], b.turn_over)
            assert lister.state.compact() == plain.state.compact()
            assert (lister.state.rng.s, lister.state.serial, lister.state.history) == \
                   (plain.state.rng.s, plain.state.serial, plain.state.history)
    # (other decks often ask at a turn's start: Talk Like a Pirate, Death; and the compiled
    # build calls _end_turn_for directly, past the patch, so only the results are compared there)
    if deck == "base" and not is_compiled():
        assert any(reused), "no kept end of turn was ever used"


def test_a_table_frozen_inside_a_frozen_one_keeps_its_own_figures():
    """The listing judges the next player's plays on a trial end of the turn, frozen
    inside the frozen table: each table's figures are its own, and the outer table's
    are there again afterwards."""
    checked = 0
    for seed in range(30):
        engine = random_position(seed, "base", 3)
        table = engine.state
        if engine.pending is not None or table.game_over or engine.core.plays_left() == 0:
            continue
        trial = table.clone()
        trial.played += engine.core.plays_left()           # the trial table's plays are used up
        engine.state = trial
        used_up = (engine.core.plays_left(), engine.core.turn_duty(trial.active_player))
        engine.state = table
        unfrozen = (engine.core.plays_left(), engine.core.turn_duty(table.active_player))
        with engine.core.table_frozen():
            assert (engine.core.plays_left(), engine.core.turn_duty(table.active_player)) == unfrozen
            engine.state = trial
            with engine.core.table_frozen():
                assert engine.figures._frozen is not None and engine.figures._frozen[0] is trial
                assert (engine.core.plays_left(), engine.core.turn_duty(trial.active_player)) == used_up
            engine.state = table
            assert engine.figures._frozen is not None and engine.figures._frozen[0] is table and engine.figures._frozen[1]
            assert (engine.core.plays_left(), engine.core.turn_duty(table.active_player)) == unfrozen
        assert engine.figures._frozen is None
        checked += unfrozen[0] != used_up[0]
    assert checked >= 10


@pytest.mark.parametrize("deck", ["base", "everything"])
def test_plays_judged_together_are_judged_as_one_by_one(deck):
    """`_play_refusals` works out once what does not depend on the card: for every
    player, cards in hand or not, Creepers and Surprises among them, the refusals are
    those of each card judged alone."""
    for seed in range(12):
        engine = random_position(500 + seed, deck, 3)
        rng = random.Random(seed)
        for _ in range(rng.randint(0, 8)):          # somewhere into a game
            if engine.pending is not None:
                answer_pending(engine, rng)
                continue
            legal = engine.legal_events()
            if not legal:
                break
            engine.submit(rng.choice(legal))
        st = engine.state
        cards = [st.defs[c] for zone in st.all_zones().values() for c in zone]
        rng.shuffle(cards)
        for player in st.players:
            together = engine.core._play_refusals(player, cards)
            alone = [engine.core._play_refusals(player, [d])[0] for d in cards]
            assert [r and (r.reason, r.cites) for r in together] == [r and (r.reason, r.cites) for r in alone]


@pytest.mark.patches_engine("Core._play_refusal")
def test_a_play_the_listing_allowed_on_this_table_is_not_judged_again(monkeypatch):
    """The listing's judgement of a play is used again when that play is then made from
    the very table it judged; a play it did not list, or one made from another table,
    is judged as usual (3 and 4 players, every edition)."""
    from adjudicator.core import Core

    judged: list[str] = []
    real = Core._play_refusal

    def counting(self, player, d):
        judged.append(d.key)
        return real(self, player, d)

    monkeypatch.setattr(Core, "_play_refusal", counting)
    reused = 0
    for seed, seats in ((21, 3), (22, 4), (23, 4)):
        engine = random_position(seed, "everything", seats)
        rng = random.Random(seed)
        for _ in range(60):
            if engine.state.game_over:
                break
            if engine.pending is not None:
                answer_pending(engine, rng)
                continue
            table = engine.state
            legal = engine.legal_events()
            plays = [ev for ev in legal if ev.verb == "play" and ev.by == table.active_player]
            if plays and rng.random() < 0.5:
                # a play not listed (a card the player lacks) is still refused, after a listing
                absent = next((c for c in engine.cat.cards.values() if c.type == "keeper"
                               and all(table.defs[k].key != c.key for k in table.hands[table.active_player])), None)
                if absent is not None:
                    del judged[:]
                    assert engine.try_event(Event("play", absent.key, by=table.active_player)).status == "rejected"
                    assert judged == [absent.key]
            if not legal:
                break
            ev = rng.choice(legal)
            del judged[:]
            assert engine.submit(ev).status != "rejected"
            if ev in plays and engine.state is not table:
                reused += not judged
        # another table, alike but not the one judged: judged again
        if engine.pending is None and not engine.state.game_over:
            legal = [ev for ev in engine.legal_events() if ev.verb == "play" and ev.by == engine.state.active_player]
            if legal:
                engine.state = engine.state.clone()
                del judged[:]
                engine.try_event(legal[0])
                assert judged == [legal[0].key]
    assert reused > 10
