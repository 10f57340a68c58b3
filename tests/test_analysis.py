"""Analysis (`adjudicator.analysis`, `fluxx-judge analyse`): positions with known answers,
each winning line replayed through the engine to prove it wins, the Surprises that
stop it, the win handed to another player, chance, and the search's bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.analysis import analyse, analyse_scenario, position_key
from adjudicator.events import Event
from adjudicator.replay import replay_line, start_engine
from adjudicator.scenario import load_scenario
from fluxx_judge.cli import main

DATA = Path(__file__).parent / "data" / "analysis"


def report(name: str, **kw):
    return analyse_scenario(load_scenario(str(DATA / name)), **kw)


def wins_when_replayed(tmp: Path, name: str, line: list[dict]) -> str | None:
    """Play the line from the file's position: who has won at the end."""
    text = (DATA / name).read_text(encoding="utf-8")
    text += "events:\n" + "".join(f"  - {json.dumps(e)}\n" for e in line)
    (tmp / name).write_text(text, encoding="utf-8")
    sc = load_scenario(str(tmp / name))
    verdict = replay_line(sc, [], sc.events, None)
    assert not verdict.faults and all(s.status != "rejected" for s in verdict.steps), verdict.summary()
    return verdict.engine.state.winner


def test_a_win_in_one(tmp_path):
    r = report("win-in-one.yaml")
    assert r.can_win and r.exhausted and r.player == "Ann"
    assert r.line == [{"play": "The Toaster"}]
    assert r.stopped_by == [] and r.gives_win_to == []
    assert wins_when_replayed(tmp_path, "win-in-one.yaml", r.line) == "Ann"


def test_a_win_in_two_under_play_2_in_either_order(tmp_path):
    r = report("win-in-two.yaml")
    assert r.can_win and r.exhausted
    assert sorted(e["play"] for e in r.line) == ["Cookies", "Milk"]
    assert wins_when_replayed(tmp_path, "win-in-two.yaml", r.line) == "Ann"
    # either order reaches one position: the transposition table holds it once
    sc = load_scenario(str(DATA / "win-in-two.yaml"))
    keys = []
    for first, second in (("Milk", "Cookies"), ("Cookies", "Milk")):
        engine, _ = start_engine(sc)
        assert engine.submit(Event("play", engine.cat.resolve(first).key)).status == "done"
        after_one = analyse(engine)
        assert after_one.can_win and after_one.line == [{"play": second}]
        keys.append(position_key(engine.state))
        # from there the other order is one play from the win, and the engine's table is left as it was
        assert engine.state.winner is None and engine.pending is None
    assert keys[0] != position_key(start_engine(sc)[0].state)
    e1, _ = start_engine(sc)
    e2, _ = start_engine(sc)
    for engine, order in ((e1, ("Milk", "Dreams")), (e2, ("Dreams", "Milk"))):
        for card in order:
            engine.submit(Event("play", engine.cat.resolve(card).key))
    assert position_key(e1.state) == position_key(e2.state)


def test_no_win_at_all():
    r = report("no-win.yaml")
    assert not r.can_win and r.exhausted and r.line == [] and not r.wins_by_chance
    assert r.positions >= 3          # each of the three plays was tried


def test_a_win_that_canceled_plans_could_stop():
    r = report("canceled-plans.yaml")
    assert r.can_win and r.line == [{"play": "Milk & Cookies"}]
    assert [s.to_json() for s in r.stopped_by] == [{"by": "Cal", "card": "Canceled Plans", "at": 1,
                                                    "against": "Milk & Cookies"}]


def test_only_the_surprises_the_engine_accepts_are_named_four_players():
    r = report("four-players-surprises.yaml")
    assert r.can_win and r.line == [{"play": "Money"}]
    # Veto! (a New Rule), Stop That! (an Action) and Canceled Plans (a Goal) cannot answer a Keeper
    assert [(s.by, s.card, s.at) for s in r.stopped_by] == [("Ben", "That's Mine", 1)]
    assert r.unseen == {"Cal": 1}


def test_a_line_that_hands_the_win_to_another_player():
    r = report("gives-win.yaml")
    assert not r.can_win and r.exhausted
    assert r.gives_win_to == ["Ben"]


def test_a_win_that_depends_on_chance_is_not_a_sure_win(tmp_path):
    r = report("chance.yaml")
    assert not r.can_win and r.wins_by_chance and r.exhausted
    sure = report("chance-sure.yaml")
    assert sure.can_win and sure.line == [{"play": "Random Tax"}, {"random": "Cookies"}, {"play": "Cookies"}]
    assert wins_when_replayed(tmp_path, "chance-sure.yaml", sure.line) == "Ann"


def test_a_deal_is_searched_in_every_way_the_dealer_may_make_it(tmp_path):
    r = report("deal.yaml")
    assert r.can_win and r.exhausted and not r.incomplete
    assert r.line[0] == {"play": "Everybody Gets 1"} and r.line[2] == {"play": "Cookies"}
    assert r.line[1]["choose"]["Ann"] == ["Cookies"]
    assert wins_when_replayed(tmp_path, "deal.yaml", r.line) == "Ann"


def test_the_bounds_cut_the_search_honestly():
    r = report("win-in-two.yaml", positions=1)
    assert not r.exhausted and r.cut == "positions" and r.positions == 1
    r = report("win-in-two.yaml", seconds=1e-9)
    assert not r.exhausted and r.cut == "time"


def test_lines_longer_than_the_depth_bound_are_cut_honestly(monkeypatch):
    import adjudicator.turn_search as turn_search

    monkeypatch.setattr(turn_search, "MAX_DEPTH", 1)
    r = report("win-in-two.yaml")          # the win needs two plays: beyond a one-event bound
    assert not r.can_win and not r.exhausted and r.cut == "depth"
    assert "cut off by lines longer than 1 events" in r.text()
    assert report("win-in-one.yaml").exhausted


def test_after_a_chosen_step(tmp_path):
    text = (DATA / "win-in-two.yaml").read_text(encoding="utf-8") + "events:\n  - play: Dreams\n"
    path = tmp_path / "after.yaml"
    path.write_text(text, encoding="utf-8")
    sc = load_scenario(str(path))
    assert analyse_scenario(sc, after=0).can_win
    later = analyse_scenario(sc)              # Dreams used one of the two plays
    assert not later.can_win and later.exhausted


def test_the_command_prints_the_report_as_json(capsys):
    assert main(["analyse", str(DATA / "canceled-plans.yaml"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"can_win", "line", "exhausted", "stopped_by", "gives_win_to", "positions", "seconds"} <= set(out)
    assert out["can_win"] is True and out["line"] == [{"play": "Milk & Cookies"}]
    assert out["stopped_by"] == [{"by": "Cal", "card": "Canceled Plans", "at": 1, "against": "Milk & Cookies"}]
    assert main(["analyse", str(DATA / "no-win.yaml")]) == 0
    assert "Ann cannot win this turn." in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--after", "5"], "--after 5: the scenario has 0 event(s)"),
    (["--positions", "0"], "--positions must be a whole number of at least 1 (not 0)"),
    (["--positions", "-3"], "--positions must be a whole number of at least 1 (not -3)"),
    (["--seconds", "nan"], "--seconds must be a finite number above 0 (not nan)"),
    (["--seconds", "inf"], "--seconds must be a finite number above 0 (not inf)"),
    (["--seconds", "-1"], "--seconds must be a finite number above 0 (not -1.0)"),
    (["--seconds", "0"], "--seconds must be a finite number above 0 (not 0.0)"),
])
def test_the_command_refuses_bad_bounds(capsys, argv, message):
    assert main(["analyse", str(DATA / "no-win.yaml"), *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("bounds", [{"seconds": float("nan")}, {"seconds": float("inf")}, {"seconds": -0.5},
                                    {"positions": 0}, {"positions": 2.5}])
def test_unbounded_searches_are_refused_by_the_functions_too(bounds):
    sc = load_scenario(str(DATA / "no-win.yaml"))
    with pytest.raises(ValueError, match="must be"):
        analyse_scenario(sc, **bounds)
    with pytest.raises(ValueError, match="must be"):
        analyse(start_engine(sc)[0], **bounds)


def test_the_engine_is_left_as_it_was_even_while_a_decision_waits():
    sc = load_scenario(str(DATA / "deal.yaml"))
    engine, _ = start_engine(sc)
    engine.submit(Event("play", engine.cat.resolve("Everybody Gets 1").key))
    state, pending, answers = engine.state, engine.pending, list(engine.pending.answers)
    before = state.compact()
    r = analyse(engine)                       # Ann's deal is the first step of the line
    assert r.can_win and "Ann" in r.line[0]["choose"] and r.line[1] == {"play": "Cookies"}
    assert engine.state is state and engine.pending is pending and pending.answers == answers
    assert state.compact() == before


# -- dispute-like positions: 3 to 5 players, 5 to 9 cards in hand, Play 3 or Play All,
#    free actions from rules and Keepers, each with a forced win in 3 events ----------

@pytest.mark.parametrize("name, first", [
    ("dispute-star-captain.yaml", None),           # 4 players, Play 3, 8 cards; The Captain's power
    ("dispute-play-all-steal.yaml", "Steal a Keeper"),   # 3 players, Play All, 8 cards; Recycling, Goal Mill
    ("dispute-pirate-plunder.yaml", None),         # 5 players, Play 3, 9 cards; Plunder
])
def test_a_forced_win_in_three_is_found_at_the_default_bounds(tmp_path, name, first):
    r = report(name)
    assert r.can_win and r.exhausted and len(r.line) == 3, r.text()
    assert r.exhaustive_depth == 2                 # no win in fewer events: this line is a shortest one
    assert r.positions < 2_000
    if first:
        assert r.line[0] == {"play": first}
    assert wins_when_replayed(tmp_path, name, r.line) == "Ann"


def test_a_position_without_a_win_is_answered_for_the_whole_turn_and_depth_by_depth(capsys):
    whole = report("dispute-no-win.yaml")        # 4 players, Play All, 7 cards, Swap Plays for Draws
    assert not whole.can_win and whole.exhausted and not whole.cut
    assert "Ann cannot win this turn." in whole.text()
    cut = report("dispute-no-win.yaml", positions=150)
    assert not cut.can_win and not cut.exhausted and cut.cut == "positions" and cut.positions == 150
    n = cut.exhaustive_depth
    assert 2 <= n < whole.exhaustive_depth
    assert f"Ann has no win within {n} events (the search went no deeper)." in cut.text()
    assert main(["analyse", str(DATA / "dispute-no-win.yaml"), "--positions", "150", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exhaustive_depth"] == n and out["exhausted"] is False and out["cut"] == "positions"
    assert out["can_win"] is False and out["line"] == []


def test_depth_by_depth_progress_is_told():
    seen = []
    r = analyse_scenario(load_scenario(str(DATA / "dispute-no-win.yaml")), progress=seen.append)
    depths = [p.exhaustive_depth for p in seen]
    assert depths == list(range(1, len(depths) + 1)) and len(depths) >= 3
    assert all(p.searching and not p.can_win for p in seen)
    assert "Searching: Ann has no win within 2 events so far" in seen[1].text()
    assert r.exhaustive_depth > depths[-1] and not r.searching


def test_a_search_is_cancelled_when_the_caller_says_so():
    calls = []

    def cancelled() -> bool:
        calls.append(1)
        return len(calls) > 50

    r = analyse_scenario(load_scenario(str(DATA / "dispute-no-win.yaml")), cancelled=cancelled)
    assert r.cut == "cancelled" and not r.exhausted and r.positions < 50


def test_an_engine_fault_on_one_step_leaves_that_branch_unsearched_and_says_so(monkeypatch):
    from adjudicator.mechanics.keepers import Keeper

    original = Keeper.on_placed

    def faulty(self, e, card, owner):
        # (a fault in a card's mechanic, as Dreams comes into play: the mechanics stay
        # interpreted in the compiled build too, so this reaches both)
        if e.state.defs[card].name == "Dreams":
            raise RuntimeError("a bug in the engine")
        return original(self, e, card, owner)

    monkeypatch.setattr(Keeper, "on_placed", faulty)
    r = report("win-in-two.yaml")
    assert r.can_win and sorted(e["play"] for e in r.line) == ["Cookies", "Milk"]
    assert not r.exhausted and any("a bug in the engine" in note for note in r.incomplete)
    assert "Not every answer was searched for: a step the engine failed on" in r.text()
