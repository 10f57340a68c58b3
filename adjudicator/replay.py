"""Replaying a scenario: feed its events to the engine, check every expectation, and
produce a verdict that explains each step and cites the rulings behind it.

The verdict opens with the answer to the file's question (format 1.1, item 4): what
became of the disputed event and the explanation lines and rulings that decide it.
Each variation (item 5) is replayed as its own line from the point it branches, with
a verdict of its own, so that the app can open it as a branch and `check` can judge it.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Protocol

from adjudicator.catalogue import Catalogue
from adjudicator.decisions import ORDER, Decision
from adjudicator.dispute import ALLOWED, DisputeAnswer, Probe, RulingLine, dispute_answer, step_outcome
from adjudicator.engine import Engine, Entry, StepResult, cites_of
from adjudicator.errors import InputError, ScenarioFault
from adjudicator.events import Event
from adjudicator.scenario import Expectation, Scenario, ScenarioEvent, Variation, build_state, load_scenario

if TYPE_CHECKING:  # pragma: no cover
    from adjudicator.events import Event


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
    refusal: str = ""                 # a refusal no expectation asked for (a failure for `check` only)
    words: str = ""                   # the event in words ("Ann plays Milk")
    shared: bool = False              # a variation's step that the line it branches from made
    turn_number: int = 0              # the table's turn count after the step (a cancel can take it back)
    actor: str = ""                   # who makes the event (the player a decision waits for, for an answer)
    fault: ScenarioFault | None = None   # the misuse of the format that stopped the line here

    @property
    def outcome(self) -> str:
        """What the rulings cited here are cited for: a refused event, or one that stood."""
        return step_outcome(self)

    @property
    def cites(self) -> list[str]:
        return cites_of(self.entries)

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.number, "event": self.label, "words": self.words or None, "status": self.status,
            "line": self.line,
            "explanation": [{"text": e.text, "cites": list(e.cites), **({"kind": e.kind} if e.kind else {})}
                            for e in self.entries],
            "cites": self.cites, "reason": self.reason or None, "ruling": self.ruling,
            "pending": self.decision.to_json() if self.decision else None,
            "note": self.note or None, "failures": self.failures, "refusal": self.refusal or None,
            "shared": self.shared, "table": self.table,
        }


@dataclass
class Verdict:
    scenario: Scenario | None         # None: the file could not be read (`error` says why)
    steps: list[Step]
    failures: list[str]               # this line's: expectations that did not hold, refusals none expected, faults
    engine: Engine | None             # None only with an `error`
    error: InputError | None = None
    answer: DisputeAnswer | None = None
    variations: list["VariationVerdict"] = field(default_factory=list)

    @property
    def all_failures(self) -> list[str]:
        """This line's failures and every variation's, each named by its variation."""
        out = list(self.failures)
        for v in self.variations:
            out += [f"variation {v.name!r}: {f}" for f in v.verdict.all_failures]
        return out

    @property
    def passed(self) -> bool:
        """`check`'s judgement: the main line and every variation hold."""
        return not self.all_failures and self.error is None

    def variation(self, path: tuple[int, ...]) -> "VariationVerdict":
        """The verdict of the variation at `path` ((0,): the first of the main line)."""
        found = None
        children = self.variations
        for i in path:
            found = children[i]
            children = found.verdict.variations
        if found is None:
            raise KeyError("the empty path is the main line, not a variation")
        return found

    @property
    def faults(self) -> list[str]:
        """Misuses of the format (an answer with nothing to answer...): errors in any file."""
        out = [f for s in self.steps if s.status == "fault" for f in s.failures]
        for v in self.variations:
            out += [f"variation {v.name!r}: {f}" for f in v.verdict.faults]
        return out

    @property
    def has_expectations(self) -> bool:
        return self.scenario is not None and self.scenario.has_expectations

    @property
    def answered(self) -> bool:
        """`replay`'s judgement: the file could be read and replayed to its end, and its
        expectations (if it states any) hold. A refused event is an answer, not a
        failure, in a file that states no expectations."""
        return self.error is None and not self.faults and self.passed

    @property
    def cites(self) -> list[str]:
        return cites_of(e for s in self.steps for e in s.entries)

    def summary(self) -> str:
        """One or two plain sentences: how the dispute ends."""
        if self.error:
            return f"The scenario could not be read: {self.error}"
        e = self.engine
        assert e is not None          # a verdict without an error has replayed on an engine
        st = e.state
        parts = []
        if st.winner:
            parts.append(f"{st.winner} wins.")
        elif st.everyone_loses:
            parts.append("The game ends and everyone loses.")
        else:
            parts.append(f"Nobody has won; it is {st.active_player}'s turn.")
        d = e.pending.decision if e.pending is not None else None
        if d is not None:
            parts.append(f"The engine is waiting: {d.describe()}.")
        revealed = [(s.number, e.text) for s in self.steps if not s.shared and s.status != "rejected"
                    for e in s.entries if e.kind == "reveal"]
        if revealed:
            parts.append("Revealed from unseen hands: " + "; ".join(f"step {n}: {t.rstrip('.')}" for n, t in revealed)
                         + ".")
        rejected = [s for s in self.steps if s.status == "rejected" and not s.shared]
        for s in rejected:
            parts.append(f"Step {s.number} ({s.label}) was refused: {s.reason}" +
                         (f" [{s.ruling}]" if s.ruling else "") + ".")
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        sc = self.scenario
        return {
            "id": sc.id if sc else None, "title": sc.title if sc else None,
            "question": sc.question or None if sc else None,
            "declared": [{"name": d.card.name, "type": d.card.type, "like": d.like, "needs": d.needs or None}
                         for d in sc.declared] if sc else [],
            "answer": self.answer.to_json() if self.answer else None,
            "passed": self.passed, "has_expectations": self.has_expectations,
            "failures": self.all_failures + ([str(self.error)] if self.error else []),
            "verdict": self.summary(), "cites": self.cites, "steps": [s.to_json() for s in self.steps],
            "variations": [v.to_json() for v in self.variations],
        }


@dataclass
class VariationVerdict:
    """One variation replayed: its place in the tree, and the verdict of its line (the
    steps it shares with the line it branches from are marked `shared`)."""

    variation: Variation
    path: tuple[int, ...]             # index at each level: (0,) is the main line's first variation, (0, 1) its second
    base: int                         # events shared with the main line's start (its absolute branch point)
    events: list[ScenarioEvent]       # the whole line: shared events, then its own
    verdict: Verdict

    @property
    def name(self) -> str:
        return self.variation.title

    def to_json(self) -> dict[str, Any]:
        v = self.verdict
        return {"title": self.name, "path": list(self.path), "after": self.variation.after, "base": self.base,
                "line": self.variation.line, "passed": v.passed, "failures": v.all_failures, "verdict": v.summary(),
                "cites": v.cites, "steps": [s.to_json() for s in v.steps],
                "variations": [x.to_json() for x in v.variations]}


def start_engine(sc: Scenario, seed: int = 0) -> tuple[Engine, Step]:
    """The engine at the scenario's position, and the set-up step that explains it."""
    state = build_state(sc, seed)
    engine = Engine(sc.catalogue, state)
    engine.editions = sc.position.deck_editions
    engine.core.log.entries = []
    st = engine.state
    st.two_player = len(st.players) == 2
    st.secrets = {c: p for p in st.players for c in st.hands[p] if st.defs[c].type == "secret"}
    for p in st.eliminated:
        st.waiting[p] = []
    decision = None
    if sc.deal:
        # the deal is run like an event: a choice it raises (Death dealt to the first
        # player) waits for the file's first `choose:` like any other decision
        result = engine.submit(Event("deal"))
        decision, st = result.decision, engine.state
        engine.core.log.entries = []          # (a paused deal keeps its own list of lines)
        _say_copies(engine)
        _say_declared(engine, sc)
        entries = list(result.entries) + engine.core.log.entries
    else:
        if sc.position.drawn is None:
            st.drawn = engine.core.draw_total(st.active_player)
        else:
            st.drawn = sc.position.drawn
        _say_copies(engine)
        _say_declared(engine, sc)
        entries = list(engine.core.log.entries)
    if decision is not None:
        who = who_decides(engine, decision)
        if who is not None:
            entries.append(who)
    setup = Step(0, "set-up", "setup", entries, st.compact(), decision=decision, turn_number=st.turn_number)
    engine.core.log.entries = []
    return engine, setup


def _say_copies(engine: Engine) -> None:
    """The set-up names every title the table holds more than once (decks combined)."""
    st = engine.state
    counts = Counter(st.defs[c].name for c in st.every_card() if st.defs[c].type not in ("unknown", "basic"))
    many = [f"{name} ({n})" for name, n in counts.items() if n > 1]
    if many:
        engine.core.say(f"More than one copy of {', '.join(many)} is on the table, as when decks are combined: each copy "
                   "is a card of its own.", "combining-fluxx-versions")


def _say_declared(engine: Engine, sc: Scenario) -> None:
    """The set-up names the cards the file declares and what each works like (1.1, item 8)."""
    if sc.declared:
        engine.core.say("Cards this file declares (the catalogue lacks them): "
                   + "; ".join(d.words() for d in sc.declared) + ".")


def _multiset(cards: Iterable[str]) -> Counter[str]:
    return Counter(cards)


def _fmt(counter_or_list: Counter[str] | Iterable[str]) -> str:
    items = sorted(counter_or_list.elements()) if isinstance(counter_or_list, Counter) else list(counter_or_list)
    return "[" + ", ".join(items) + "]"


class Outcome(Protocol):
    """What an expectation checks of an event's result: the engine's StepResult, or the
    Step a replay recorded from it."""

    @property
    def status(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def ruling(self) -> str | None: ...
    @property
    def cites(self) -> list[str]: ...
    @property
    def turn_over(self) -> bool: ...


def check_expectation(engine: Engine, exp: Expectation, result: Outcome | None, cited: list[str]) -> list[str]:
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
        ended = bool(result and result.turn_over)
        if ended != v["turn_over"]:
            fails.append(f"turn_over: expected {v['turn_over']}, got {ended}")
    if "plays_left" in v:
        want = v["plays_left"]
        plays: int | str = engine.core.plays_left_label() if want == "all" else engine.core.plays_left()
        if plays != want:
            fails.append(f"plays_left: expected {want}, got {engine.core.plays_left_label()}")
    if "draws_owed" in v and engine.core.draws_owed() != v["draws_owed"]:
        fails.append(f"draws_owed: expected {v['draws_owed']}, got {engine.core.draws_owed()}")
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
        refused = result if result is not None and result.status == "rejected" else None
        if want is False:
            if refused is not None:
                fails.append(f"rejected: expected the event to stand, but it was refused: {refused.reason}")
        elif refused is None:
            fails.append(f"rejected: expected the event to be refused ({want}), but it was allowed")
        elif isinstance(want, str) and not _same_ruling(want, [c for c in (refused.ruling, *refused.cites) if c]):
            fails.append(f"rejected: expected the refusal to cite {want}, got {refused.ruling or 'no ruling'}"
                         f" ({refused.reason})")
    if "cites" in v:
        missing = [c for c in v["cites"] if not _same_ruling(c, cited)]
        if missing:
            fails.append(f"cites: expected the explanation to cite {', '.join(missing)}; it cites {', '.join(cited) or 'nothing'}")
    if "zones" in v:
        zones = st.all_zones()
        for zname, spec in v["zones"].items():
            actual = [st.defs[c].name for c in zones.get(zname, [])]
            held = _multiset(actual)
            if "exactly" in spec:
                want = _multiset(c.name for c in spec["exactly"])
                if held != want:
                    fails.append(f"{zname}: expected {_fmt(want)}, got {_fmt(held)}")
            for c in spec.get("has", []):
                if c.name not in held:
                    fails.append(f"{zname}: expected it to have {c.name}, got {_fmt(held)}")
            for c in spec.get("lacks", []):
                if c.name in held:
                    fails.append(f"{zname}: expected it to lack {c.name}, got {_fmt(held)}")
            if "size" in spec and len(actual) != spec["size"]:
                fails.append(f"{zname}: expected size {spec['size']}, got {len(actual)}")
            if "top" in spec:
                top = actual[0] if actual else None
                if top != spec["top"].name:
                    fails.append(f"{zname}: expected top card {spec['top'].name}, got {top or 'nothing'}")
    return fails


def replay(sc: Scenario, seed: int = 0) -> Verdict:
    """Replay the main line, answer the question, then replay every variation."""
    probe = Probe(sc)
    verdict = replay_line(sc, [], sc.events, sc.expect, seed, probe)
    if verdict.error is None:
        verdict.answer = dispute_answer(sc, verdict, probe)
        verdict.variations = replay_variations(sc, [], sc.events, sc.variations, (), seed)
    return verdict


def replay_variations(sc: Scenario, shared: list[ScenarioEvent], own: list[ScenarioEvent],
                      variations: list[Variation], path: tuple[int, ...], seed: int = 0) -> list[VariationVerdict]:
    """Each variation of a line (whose events are `shared` then `own`), replayed as its
    own line from the set-up, and its own variations after it."""
    out = []
    for n, var in enumerate(variations):
        base = shared + own[:var.after]
        verdict = replay_line(sc, base, var.events, var.expect, seed)
        if verdict.error is None:
            verdict.variations = replay_variations(sc, base, var.events, var.variations, path + (n,), seed)
        out.append(VariationVerdict(var, path + (n,), len(base), base + list(var.events), verdict))
    return out


def replay_line(sc: Scenario, shared: list[ScenarioEvent], own: list[ScenarioEvent],
                expect: Expectation | None, seed: int = 0, probe: Probe | None = None) -> Verdict:
    """Replay `shared` then `own` events from the set-up. Only the `own` events are
    judged: the shared ones belong to the line this one branches from. A `probe`
    reads the engine just before and after its event (`probe.at`; 0: the set-up)."""
    try:
        engine, setup = start_engine(sc, seed)
    except InputError as exc:
        return Verdict(sc, [], [], None, error=exc)
    setup.actor = engine.state.active_player
    # whose each turn was, by the table's turn count: an event may belong to a turn that
    # has since passed (a Surprise in the window of a turn-ending card)
    whose = {engine.state.turn_number: engine.state.active_player}
    if probe is not None and probe.at == 0:
        probe.before(engine)
        probe.after(engine, setup, engine.state.active_player, engine.state.turn_number, engine.state.turn_number,
                    None, None)
    steps = [setup]
    failures: list[str] = []
    cited: list[str] = list(setup.cites)
    events = list(shared) + list(own)
    for i, sev in enumerate(events, 1):
        ev = sev.event
        label = ev.describe()
        is_shared = i <= len(shared)
        pend = engine.pending.decision if engine.pending is not None else None
        actor = ev.by or (("chance" if pend.chance else pend.by) if pend is not None else engine.state.active_player)
        words = _words(ev, sc, actor)
        if ev.verb == "choose" and pend is not None and pend.fate:
            try:      # an answer told by what it does to each option, in the catalogue's names
                answer = ev.answer if isinstance(ev.answer, list) else [ev.answer]
                names = [sc.catalogue.resolve(a).name if isinstance(a, str) else a for a in answer]
                words = f"{actor}'s choice: {pend.outcome(names if isinstance(ev.answer, list) else names[0])}"
            except Exception:
                pass
        start_number = engine.state.turn_number
        probing = probe is not None and probe.at == i
        if probing:
            assert probe is not None
            probe.before(engine)
        try:
            result = engine.submit(ev)
            entries = list(result.entries)
            # a draw of chance no `random:` event answers is left to the seeded generator, unless a
            # Surprise comes next: it answers the play before its effect, so before the draw
            while (engine.pending is not None and engine.pending.decision is not None
                   and (engine.pending.decision.chance and not _answers_next(events, i)
                        or engine.pending.decision.kind == ORDER and not _chooses_next(events, i))):
                # a draw of chance the file leaves to the seeded generator; an order of duties
                # the file does not give, which takes the order offered (format 1.2, item 3)
                more = engine.answer_by_chance() if engine.pending.decision.chance else engine.answer_by_default()
                entries += more.entries
                if result.status == "rejected":   # a refused Surprise: the play it meant to answer goes on
                    result = StepResult(result.event, "rejected", entries, result.reason, result.ruling)
                    continue
                result = StepResult(more.event, more.status, entries, more.reason, more.ruling, more.decision,
                                    result.turn_over or more.turn_over)
        except ScenarioFault as fault:
            step = Step(i, label, "fault", [Entry(f"Scenario error: {fault}")], engine.state.compact(),
                        turn_number=engine.state.turn_number, line=ev.line,
                        note=ev.note, words=words, shared=is_shared, actor=actor, fault=fault)
            msg = f"event {i} ({label}, line {ev.line}): {fault}"
            if is_shared:
                msg = f"the line this one branches from stops at its {msg}"
            step.failures.append(msg)
            failures.append(msg)
            steps.append(step)
            break
        entries = list(result.entries)
        if result.status == "waiting" and result.decision is not None:
            who = who_decides(engine, result.decision)
            if who is not None:
                entries.append(who)
        # a refused event leaves the table as it was: its turn is over if it already was (1.1, item 7)
        turn_over = result.turn_over if result.status != "rejected" else engine.core.turn_over_since(start_number)
        step = Step(i, label, result.status, entries, engine.state.compact(), result.reason, result.ruling,
                    result.decision, ev.note, turn_number=engine.state.turn_number, line=ev.line,
                    turn_over=turn_over, words=words, shared=is_shared, actor=actor)
        whose.setdefault(engine.state.turn_number, engine.state.active_player)
        if probing:
            assert probe is not None
            event_turn = engine.core.windows.event_turn if result.status != "rejected" else start_number
            probe.after(engine, step, whose.get(event_turn, step.actor), event_turn, start_number, steps[-1], ev)
        for c in step.cites:
            if c not in cited:
                cited.append(c)
        steps.append(step)
        if is_shared:
            continue
        expected_rejection = sev.expect is not None and sev.expect.values.get("rejected") not in (None, False)
        if result.status == "rejected" and not expected_rejection:
            step.refusal = (f"event {i} ({label}, line {ev.line}) was refused: {result.reason}"
                            + (f" [{result.ruling}]" if result.ruling else ""))
            if sc.has_expectations:     # without expectations, a refusal is the answer (1.1, item 4)
                failures.append(step.refusal)
        if sev.expect is not None:
            for f in check_expectation(engine, sev.expect, step, cited):
                step.failures.append(f"event {i} ({label}, line {ev.line}): {f}")
        failures.extend(step.failures)
    if expect is not None and not any(s.status == "fault" for s in steps):
        for f in check_expectation(engine, expect, _last_result(steps), cited):
            failures.append(f"final expect (line {expect.line}): {f}")
    return Verdict(sc, steps, failures, engine)


def _words(ev: Event, sc: Scenario, actor: str) -> str:
    from adjudicator.moves import event_words

    try:
        return event_words(ev, sc.catalogue, actor)
    except Exception:  # words are a courtesy: the label is always there
        return ev.describe()


def who_decides(engine: Engine, decision: Decision) -> Entry | None:
    """The line that says who makes a choice the engine now waits for, citing the
    ruling that says so; where the official material is silent, it says that."""
    if decision.chance:
        return None
    by = decision.by
    if decision.kind == "table":
        return Entry(f"The people at the table judge this together: {decision.prompt}.")
    if decision.cites:
        return Entry(f"The choice is {by}'s.", tuple(decision.cites))
    st = engine.state
    # the card being carried out: the last one played or used, else the last in flight
    source = st.windows[-1].card if st.windows else (st.resolving[-1] if st.resolving else None)
    player = next((w.by for w in reversed(st.windows) if w.card == source), st.active_player)
    if source is not None and st.defs[source].type in ("action", "surprise") and by == player:
        return Entry(f"The choice is {by}'s, as the player carrying out {st.defs[source].name}: whoever plays an "
                     "Action does what it says.", ("rule-action-discard-after-use",))
    acting = source is not None and (st.windows and st.windows[-1].kind == "use"
                                     or st.defs[source].type in ("action", "surprise"))
    if source is None or not acting:
        played = f", who played {st.defs[source].name}" if source is not None and by == player else ""
        return Entry(f"The choice is {by}'s: the official material says nothing on who decides here; the engine "
                     f"asks {by}{played}.")
    whom = "the one carrying it out" if by == player else "each player it names"
    return Entry(f"The choice is {by}'s: the official material says nothing on who decides here beyond the text "
                 f"of {st.defs[source].name}, which gives the choice to {whom}.")


def _same_ruling(want: str, cited: list[str]) -> bool:
    """Whether `want` names one of the `cited` rulings, directly or as an alias of the
    same record (a scenario may cite a record under an alias)."""
    if want in cited:
        return True
    from adjudicator import citations

    record = citations.record_id(want)
    return any(citations.record_id(c) == record for c in cited)


def ruling_answer(ruling_id: str, outcome: str = ALLOWED) -> str:
    """The part of a ruling shown under a step it is cited at: its statement for the
    step's outcome (allowed or refused), or "" when no corpus is registered (see
    `adjudicator.citations`)."""
    from adjudicator import citations

    return citations.excerpt(ruling_id, outcome)


def _last_result(steps: list[Step]) -> Step | None:
    """The outcome of the last event replayed (None: no event yet)."""
    return next((s for s in reversed(steps) if s.number > 0), None)


def _chooses_next(events: list[ScenarioEvent], i: int) -> bool:
    return i < len(events) and events[i].event.verb == "choose"


def _answers_next(events: list[ScenarioEvent], i: int) -> bool:
    return i < len(events) and events[i].event.verb in ("random", "choose", "surprise")


def replay_file(path: str, catalogue: Catalogue | None = None, seed: int = 0) -> Verdict:
    try:
        sc = load_scenario(path, catalogue)
    except InputError as exc:
        return Verdict(None, [], [], None, error=exc)
    return replay(sc, seed)
