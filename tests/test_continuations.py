"""Decisions resume the event where it paused, and give what a fresh run would.

An event that needs seven answers is carried out once: each answer goes back into the
run at the decision it paused on. Where a run cannot go on (the pool retired it, a
copy of the pending decision is answered, a trial answers it), the engine carries the
event out again from its snapshot with every answer so far, which must give the same
table and the same explanation.
"""

from __future__ import annotations

import dataclasses
import gc
import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from adjudicator import continuations, strictyaml
from adjudicator.engine import Engine
from adjudicator.events import Event
from adjudicator.replay import replay, start_engine
from adjudicator.scenario import parse_scenario
from benchmarks.bench_decisions import scenario

REPO = Path(__file__).resolve().parent.parent


def _engine(over: int) -> Engine:
    sc = parse_scenario(strictyaml.parse(scenario(over), "t.yaml"), "t.yaml")
    return start_engine(sc)[0]


def _carried_out(monkeypatch) -> list[str]:
    runs: list[str] = []
    original = Engine._dispatch

    def counting(self, ev):
        runs.append(ev.describe())
        return original(self, ev)

    monkeypatch.setattr(Engine, "_dispatch", counting)
    return runs


@pytest.mark.patches_engine("Engine._dispatch")
def test_seven_answers_carry_the_event_out_once(monkeypatch):
    runs = _carried_out(monkeypatch)
    engine = _engine(7)
    result = engine.submit(Event("play", "Hand Limit 1"))
    answers = 0
    while result.status == "waiting":
        d = result.decision
        result = engine.submit(Event("choose", answer=[engine.state.name(d.options[0])]))
        answers += 1
    assert result.status == "done" and answers == 7
    assert runs == ["play: Hand Limit 1"]
    assert all(len(engine.state.hands[p]) <= 1 for p in engine.state.players)


def _play_through(engine: Engine) -> list[str]:
    result = engine.submit(Event("play", "Hand Limit 1"))
    texts = [e.text for e in result.entries]
    while result.status == "waiting":
        result = engine.submit(Event("choose", answer=[engine.state.name(result.decision.options[-1])]))
        texts += [e.text for e in result.entries]
    return texts


@pytest.mark.patches_engine("Engine._dispatch")
def test_a_retired_run_is_carried_out_again_with_the_same_outcome(monkeypatch):
    runs = _carried_out(monkeypatch)
    resumed = _engine(7)
    resumed_texts = _play_through(resumed)
    assert len(runs) == 1
    monkeypatch.setattr(continuations, "LIMIT", 0)       # every pause is retired at once
    again = _engine(7)
    again_texts = _play_through(again)
    assert len(runs) == 1 + 8                            # the event, then once more for each of 7 answers
    assert resumed.state.compact() == again.state.compact()
    assert resumed_texts == again_texts


@pytest.mark.slow(3)
def test_library_scenarios_give_the_same_verdict_without_resuming(monkeypatch):
    """Every library scenario that answers a decision, replayed with every pause retired
    (each answer re-running its event), gives byte for byte what it gives resuming."""
    from fluxx_judge import cli

    paths = [p for p in sorted((REPO / "scenarios").rglob("*.yaml"))
             if "choose:" in (text := p.read_text()) or "random:" in text]
    assert len(paths) > 100

    def verdicts() -> list[str]:
        out = []
        for path in paths:
            buf = io.StringIO()
            with redirect_stdout(buf):
                try:
                    cli.main(["replay", "--json", str(path)])
                except SystemExit:
                    pass
            out.append(buf.getvalue())
        return out

    resuming = verdicts()
    monkeypatch.setattr(continuations, "LIMIT", 0)
    assert verdicts() == resuming


def test_a_copy_of_a_pending_decision_leaves_the_paused_run_alone():
    """An analysis steps from copies of a pending decision, trying other answers: the
    original run still goes on from its own pause, and each copy re-runs."""
    engine = _engine(7)
    first = engine.submit(Event("play", "Hand Limit 1"))
    waiting, table = engine.pending, engine.state
    before = json.dumps(table.compact())
    for option in first.decision.options:
        engine.state, engine.pending = table, dataclasses.replace(waiting, answers=list(waiting.answers))
        assert engine.submit(Event("choose", answer=[engine.state.name(option)])).status == "waiting"
    assert json.dumps(table.compact()) == before, "a copy's answer changed the paused table"
    engine.state, engine.pending = table, waiting
    assert waiting.live is not None and waiting.live.run.paused
    result = engine.submit(Event("choose", answer=[engine.state.name(first.decision.options[0])]))
    assert result.status == "waiting" and result.decision.by == "Cal"


def test_trying_an_answer_changes_nothing():
    engine = _engine(7)
    first = engine.submit(Event("play", "Hand Limit 1"))
    waiting, table = engine.pending, engine.state
    before = json.dumps(table.compact())
    tried = engine.try_event(Event("choose", answer=[engine.state.name(first.decision.options[1])]))
    assert tried is not None and tried.status == "waiting"
    assert engine.pending is waiting and engine.state is table and json.dumps(table.compact()) == before
    result = engine.submit(Event("choose", answer=[engine.state.name(first.decision.options[0])]))
    assert result.status == "waiting"
    assert engine.state.discard and engine.state.name(engine.state.discard[0]) == engine.state.name(first.decision.options[0])


def _engines_alive() -> int:
    """Engines the process holds, counted by the collector (a compiled Engine takes no
    weak reference)."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Engine))


def test_paused_runs_are_bounded_and_abandoned_engines_are_freed():
    before = _engines_alive()
    for _ in range(continuations.LIMIT + 40):
        engine = _engine(1)
        assert engine.submit(Event("play", "Hand Limit 1")).status == "waiting"
        del engine
    live = [r for r in continuations._pool.paused if (run := r()) is not None and run.paused]
    assert len(live) <= continuations.LIMIT
    assert _engines_alive() - before <= continuations.LIMIT, "engines whose runs were retired should be collectable"


def test_a_retired_run_leaves_the_engine_under_way_untouched():
    """Retiring unwinds a paused stack (its `finally` blocks run); whatever engine is
    busy at that moment must be left as it was."""
    engine = _engine(7)
    engine.submit(Event("play", "Hand Limit 1"))
    waiting = engine.pending
    fields = engine._context()
    waiting.live.run.retire()
    assert engine._context() == fields
    # the answer now re-runs the event from its snapshot, to the same place
    result = engine.submit(Event("choose", answer=[engine.state.name(waiting.decision.options[0])]))
    assert result.status == "waiting" and result.decision.by == "Cal"


@pytest.mark.parametrize("over", [1, 3])
def test_replay_with_decisions_passes(over):
    sc = parse_scenario(strictyaml.parse(scenario(over), "t.yaml"), "t.yaml")
    verdict = replay(sc)
    assert [s.status for s in verdict.steps[1:]] == ["waiting"] * over + ["done"]


def test_runs_paused_in_other_threads_are_answered_and_retired_safely():
    """The app replays in worker threads. A run belongs to its thread: answered from
    another thread the event is carried out again there, and each thread's pool
    retires only its own runs (a greenlet cannot switch across threads)."""
    import threading

    engines, ready, stop, errors = [], threading.Semaphore(0), threading.Event(), []

    def paused_in_a_thread():
        try:
            engine = _engine(1)
            assert engine.submit(Event("play", "Hand Limit 1")).status == "waiting"
            engines.append(engine)
        except BaseException as exc:    # reported below, not lost in the thread
            errors.append(exc)
        finally:
            ready.release()
        stop.wait(30)

    threads = [threading.Thread(target=paused_in_a_thread, daemon=True) for _ in range(continuations.LIMIT + 6)]
    for t in threads:
        t.start()
    for _ in threads:
        ready.acquire()
    outcome: list = []

    def here():
        try:
            mine = _engine(1)
            outcome.append(mine.submit(Event("play", "Hand Limit 1")).status)
            theirs = engines[0]
            answer = [theirs.state.name(theirs.pending.decision.options[0])]
            outcome.append(theirs.submit(Event("choose", answer=answer)).status)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=here, daemon=True)
    worker.start()
    worker.join(20)
    stop.set()
    assert not errors, errors
    assert not worker.is_alive(), "answering across threads hung"
    assert outcome == ["waiting", "done"]


def test_runners_are_reused_and_hold_nothing_of_a_run_that_ended():
    """A run that ends hands its runner back for the next one (starting a greenlet
    costs far more than switching to a waiting one); the idle runner keeps no reference
    to the run's engine, its result or what it raised."""
    class Boom(Exception):
        pass

    def fail(engine):
        raise Boom(engine)

    before = _engines_alive()
    engine = _engine(1)
    run = continuations.Continuation(lambda e: e)
    assert run.start(engine) is engine and run.done and not run.paused
    runner = continuations._pool.idle[-1]
    with pytest.raises(Boom):
        continuations.Continuation(fail).start(engine)
    assert continuations._pool.idle[-1] is runner, "the runner was not reused"
    del engine, run
    assert _engines_alive() == before, "an idle runner kept the engine of its last run alive"
    paused = continuations.Continuation(lambda: continuations.Pause.wait("more?") + 1)
    assert isinstance(paused.start(), continuations.Pause) and paused.paused
    assert paused.resume(1) == 2 and paused.done


def test_a_paused_run_dropped_unanswered_lets_its_runner_go():
    """A paused run nobody keeps (a copy of its decision was answered instead, its
    engine dropped) is collected, its stack unwound: no frame of the paused stack may
    hold its own runner, which the collector cannot see there."""
    import greenlet

    def greenlets() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, greenlet.greenlet))

    unwound = []

    def body():
        try:
            continuations.Pause.wait("which?")
        finally:
            unwound.append(continuations.retiring())

    before = greenlets()
    for _ in range(10):
        run = continuations.Continuation(body)
        assert isinstance(run.start(), continuations.Pause)
        del run
    assert greenlets() <= before
    assert unwound == [True] * 10
