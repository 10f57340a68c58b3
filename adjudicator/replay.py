"""Replaying a scenario: feed its events to the engine, check every expectation, and
produce a verdict that explains each step and cites the rulings behind it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from adjudicator.catalogue import Catalogue
from adjudicator.decisions import Decision
from adjudicator.engine import Engine, Entry, StepResult, cites_of
from adjudicator.errors import InputError, ScenarioFault
from adjudicator.scenario import Expectation, Scenario, build_state, load_scenario


@dataclass
class Step:
    number: int                       # 1-based event number (0: the set-up)
    label: str                        # the event as written
    status: str                       # done | waiting | rejected | fault | setup
    entries: list[Entry]
    table: dict[str, Any]
    reason: str = ""
    ruling: str | None = None
    decision: Decision | None = None
    note: str = ""
    failures: list[str] = field(default_factory=list)
    line: int | None = None
    turn_over: bool = False

    @property
    def cites(self) -> list[str]:
        return cites_of(self.entries)

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.number, "event": self.label, "status": self.status, "line": self.line,
            "explanation": [{"text": e.text, "cites": list(e.cites)} for e in self.entries],
            "cites": self.cites, "reason": self.reason or None, "ruling": self.ruling,
            "pending": self.decision.to_json() if self.decision else None,
            "note": self.note or None, "failures": self.failures, "table": self.table,
        }


@dataclass
class Verdict:
    scenario: Scenario
    steps: list[Step]
    failures: list[str]
    engine: Engine | None
    error: InputError | None = None

    @property
    def passed(self) -> bool:
        return not self.failures and self.error is None

    @property
    def cites(self) -> list[str]:
        return cites_of(e for s in self.steps for e in s.entries)

    def summary(self) -> str:
        """One or two plain sentences: how the dispute ends."""
        if self.error:
            return f"The scenario could not be read: {self.error}"
        e = self.engine
        st = e.state
        parts = []
        if st.winner:
            parts.append(f"{st.winner} wins.")
        elif st.everyone_loses:
            parts.append("The game ends and everyone loses.")
        else:
            parts.append(f"Nobody has won; it is {st.active_player}'s turn.")
        if e.pending is not None:
            parts.append(f"The engine is waiting: {e.pending.decision.describe()}.")
        rejected = [s for s in self.steps if s.status == "rejected"]
        for s in rejected:
            parts.append(f"Step {s.number} ({s.label}) was refused: {s.reason}" +
                         (f" [{s.ruling}]" if s.ruling else "") + ".")
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.scenario.id if self.scenario else None, "title": self.scenario.title if self.scenario else None,
            "passed": self.passed, "failures": self.failures + ([str(self.error)] if self.error else []),
            "verdict": self.summary(), "cites": self.cites, "steps": [s.to_json() for s in self.steps],
        }


def start_engine(sc: Scenario, seed: int = 0) -> tuple[Engine, Step]:
    """The engine at the scenario's position, and the set-up step that explains it."""
    state = build_state(sc, seed)
    engine = Engine(sc.catalogue, state)
    engine.entries = []
    st = engine.state
    st.two_player = len(st.players) == 2
    st.secrets = {c: p for p in st.players for c in st.hands[p] if st.defs[c].type == "secret"}
    for p in st.eliminated:
        st.waiting[p] = []
    if sc.deal:
        _deal(engine)
    else:
        if sc.position["drawn"] is None:
            st.drawn = engine.draw_total(st.active_player)
        else:
            st.drawn = sc.position["drawn"]
    _say_copies(engine)
    setup = Step(0, "set-up", "setup", list(engine.entries), st.compact())
    engine.entries = []
    return engine, setup


def _say_copies(engine: Engine) -> None:
    """The set-up names every title the table holds more than once (decks combined)."""
    st = engine.state
    counts = Counter(st.defs[c].name for c in st.every_card() if st.defs[c].type not in ("unknown", "basic"))
    many = [f"{name} ({n})" for name, n in counts.items() if n > 1]
    if many:
        engine.say(f"More than one copy of {', '.join(many)} is on the table, as when decks are combined: each copy "
                   "is a card of its own.", "combining-fluxx-versions")


def _deal(engine: Engine) -> None:
    st = engine.state
    st.phase = "start"            # no turn has begun: nobody owes the Draw rule yet
    order = engine.seat_order(start=st.active_player)
    for _ in range(3):
        for p in order:
            if not st.draw_pile and not engine.reshuffle():
                break
            st.hands[p].append(st.draw_pile.pop(0))
    engine.say(f"The Basic Rules go in the middle, and each player is dealt 3 cards one at a time from {st.active_player}; "
               "there is no Goal yet, so nobody can win until one is played.",
               "rule-setup-deal-three", "rule-game-starts-without-goal")
    if st.solo:
        engine.say("Solo Fluxx: the New Rules form their own Rules deck beside the Basic Rules, everything else is the "
                   "main deck, and the three cards come from the main deck.", "rule-solo-setup")
    for p in order:
        creepers = [c for c in st.hands[p] if st.defs[c].type == "creeper"]
        if creepers:
            for c in creepers:
                st.hands[p].remove(c)
                engine.place_in_front(p, c)
            engine.say(f"{p} was dealt {engine.names(creepers)}: first-round Creepers go on the table and are replaced.",
                       "rule-first-round-creepers")
            engine.draw(p, len(creepers), why="replacing first-round Creepers")
    st.turn_number = 0
    engine.start_turn(st.active_player)


def _multiset(cards) -> Counter:
    return Counter(cards)


def _fmt(counter_or_list) -> str:
    items = sorted(counter_or_list.elements()) if isinstance(counter_or_list, Counter) else list(counter_or_list)
    return "[" + ", ".join(items) + "]"


def check_expectation(engine: Engine, exp: Expectation, result: StepResult | None, cited: list[str]) -> list[str]:
    st = engine.state
    fails: list[str] = []
    v = exp.values
    if "winner" in v and st.winner != v["winner"]:
        fails.append(f"winner: expected {v['winner'] or 'none'}, got {st.winner or 'none'}")
    if "everyone_loses" in v and st.everyone_loses != v["everyone_loses"]:
        fails.append(f"everyone_loses: expected {v['everyone_loses']}, got {st.everyone_loses}")
    if "game_over" in v and st.game_over != v["game_over"]:
        fails.append(f"game_over: expected {v['game_over']}, got {st.game_over}")
    if "turn" in v and st.active_player != v["turn"]:
        fails.append(f"turn: expected {v['turn']}, got {st.active_player}")
    if "turn_over" in v:
        got = bool(result and result.turn_over)
        if got != v["turn_over"]:
            fails.append(f"turn_over: expected {v['turn_over']}, got {got}")
    if "plays_left" in v:
        want = v["plays_left"]
        got = engine.plays_left_label() if want == "all" else engine.plays_left()
        if got != want:
            fails.append(f"plays_left: expected {want}, got {engine.plays_left_label()}")
    if "draws_owed" in v and engine.draws_owed() != v["draws_owed"]:
        fails.append(f"draws_owed: expected {v['draws_owed']}, got {engine.draws_owed()}")
    if "pending" in v:
        d = engine.pending.decision if engine.pending else None
        want = v["pending"]
        if d is None:
            fails.append(f"pending: expected a decision {want}, but the engine is not waiting")
        else:
            kind = "random" if d.chance else d.kind
            if "by" in want and d.by != want["by"] or "choice" in want and kind != want["choice"]:
                fails.append(f"pending: expected {want}, got {{by: {d.by}, choice: {kind}}}")
    if "rejected" in v:
        want = v["rejected"]
        status = result.status if result else None
        if want is False:
            if status == "rejected":
                fails.append(f"rejected: expected the event to stand, but it was refused: {result.reason}")
        elif status != "rejected":
            fails.append(f"rejected: expected the event to be refused ({want}), but it was allowed")
        elif isinstance(want, str) and want != result.ruling and want not in result.cites:
            fails.append(f"rejected: expected the refusal to cite {want}, got {result.ruling or 'no ruling'}"
                         f" ({result.reason})")
    if "cites" in v:
        missing = [c for c in v["cites"] if c not in cited]
        if missing:
            fails.append(f"cites: expected the explanation to cite {', '.join(missing)}; it cites {', '.join(cited) or 'nothing'}")
    if "zones" in v:
        zones = st.all_zones()
        for zname, spec in v["zones"].items():
            actual = [st.defs[c].name for c in zones.get(zname, [])]
            got = _multiset(actual)
            if "exactly" in spec:
                want = _multiset(c.name for c in spec["exactly"])
                if got != want:
                    fails.append(f"{zname}: expected {_fmt(want)}, got {_fmt(got)}")
            for c in spec.get("has", []):
                if c.name not in got:
                    fails.append(f"{zname}: expected it to have {c.name}, got {_fmt(got)}")
            for c in spec.get("lacks", []):
                if c.name in got:
                    fails.append(f"{zname}: expected it to lack {c.name}, got {_fmt(got)}")
            if "size" in spec and len(actual) != spec["size"]:
                fails.append(f"{zname}: expected size {spec['size']}, got {len(actual)}")
            if "top" in spec:
                top = actual[0] if actual else None
                if top != spec["top"].name:
                    fails.append(f"{zname}: expected top card {spec['top'].name}, got {top or 'nothing'}")
    return fails


def replay(sc: Scenario, seed: int = 0) -> Verdict:
    try:
        engine, setup = start_engine(sc, seed)
    except InputError as exc:
        return Verdict(sc, [], [], None, error=exc)
    steps = [setup]
    failures: list[str] = []
    cited: list[str] = list(setup.cites)
    events = sc.events
    for i, sev in enumerate(events, 1):
        ev = sev.event
        label = ev.describe()
        try:
            result = engine.submit(ev)
            entries = list(result.entries)
            # a draw of chance no `random:` event answers is left to the seeded generator, unless a
            # Surprise comes next: it answers the play before its effect, so before the draw
            while (engine.pending is not None and engine.pending.decision.chance
                   and not _answers_next(events, i)):
                more = engine.answer_by_chance()
                entries += more.entries
                if result.status == "rejected":   # a refused Surprise: the play it meant to answer goes on
                    result = StepResult(result.event, "rejected", entries, result.reason, result.ruling)
                    continue
                result = StepResult(more.event, more.status, entries, more.reason, more.ruling, more.decision,
                                    result.turn_over or more.turn_over)
        except ScenarioFault as fault:
            step = Step(i, label, "fault", [Entry(f"Scenario error: {fault}")], engine.state.compact(), line=ev.line,
                        note=ev.note)
            msg = f"event {i} ({label}, line {ev.line}): {fault}"
            step.failures.append(msg)
            failures.append(msg)
            steps.append(step)
            break
        step = Step(i, label, result.status, result.entries, engine.state.compact(), result.reason, result.ruling,
                    result.decision, ev.note, line=ev.line, turn_over=result.turn_over)
        for c in step.cites:
            if c not in cited:
                cited.append(c)
        expected_rejection = sev.expect is not None and sev.expect.values.get("rejected") not in (None, False)
        if result.status == "rejected" and not expected_rejection:
            step.failures.append(f"event {i} ({label}, line {ev.line}) was refused: {result.reason}"
                                 + (f" [{result.ruling}]" if result.ruling else ""))
        if sev.expect is not None:
            for f in check_expectation(engine, sev.expect, result, cited):
                step.failures.append(f"event {i} ({label}, line {ev.line}): {f}")
        failures.extend(step.failures)
        steps.append(step)
    if sc.expect is not None and not any(s.status == "fault" for s in steps):
        for f in check_expectation(engine, sc.expect, _last_result(steps), cited):
            failures.append(f"final expect (line {sc.expect.line}): {f}")
    return Verdict(sc, steps, failures, engine)


def _last_result(steps: list[Step]) -> StepResult | None:
    for s in reversed(steps):
        if s.number > 0:
            return StepResult(None, s.status, s.entries, s.reason, s.ruling, s.decision, turn_over=s.turn_over)
    return None


def _answers_next(events, i: int) -> bool:
    return i < len(events) and events[i].event.verb in ("random", "choose", "surprise")


def replay_file(path: str, catalogue: Catalogue | None = None, seed: int = 0) -> Verdict:
    try:
        sc = load_scenario(path, catalogue)
    except InputError as exc:
        return Verdict(None, [], [], None, error=exc)
    return replay(sc, seed)
