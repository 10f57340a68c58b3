"""Decisions and their answers: asking for a choice, taking the answer given (or
pausing the event until one comes), and reading an answer as players write it
("Milk", a list, a mapping for a deal) into the engine's terms."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adjudicator.continuations import Continuation, Pause
from adjudicator.decisions import ORDER, Answer, BadAnswer, Decision, NeedDecision
from adjudicator.log import NamingTable
from adjudicator.mechanics.base import ACTION, DANGER
from adjudicator.names import normalize
from adjudicator.names import split_copy

# what becomes of the cards picked, and of the others, for kinds that always mean the same
_FATES = {"discard": ("is discarded", "stays in hand"), "discard_keepers": ("is discarded", "stays in play")}


class Decisions:
    """A part of the rules core (`adjudicator.core.Core`): decisions and their answers,
    used by the mechanics through `choose` and `chance`. It holds the answers given to
    the run under way and whether that run may pause for one."""

    def __init__(self, core: NamingTable) -> None:
        self.core = core
        self.answers: list[Answer] = []          # the answers given to the run under way
        self.next_answer = 0
        self.probing = False                     # a trial run: take some legal answer instead of asking
        self.pause_blocked = 0                   # inside a check that wants a decision raised, not waited on
        self.cont: Continuation | None = None    # the run under way (a decision pauses it)
        self.peeked = False                      # the run looked ahead for an answer not given yet
        self.defaulted = False                   # a trial took a default answer
        # False: a run that needs an answer nobody has given yet ends there instead of
        # pausing, and answering carries the event out again from its start (an engine
        # that never goes on from a paused run, as a search answering copies of each
        # decision does not, so that none is ever left paused: `adjudicator.turn_search`)
        self.pauses = True

    def choose(self, kind: str, by: str, prompt: str, options: list[Any], *,
               count: int | None = None, minimum: int | None = None, chance: bool = False,
               cites: tuple[str, ...] = (), fate: tuple[str, str] | None = None,
               recipients: tuple[str, ...] = ()) -> Any:
        """Ask for a decision. Card options are copy ids; the answer comes back in the
        same terms (a copy id, a list of them, a player name, True/False, a number, or
        for `deal` a mapping of player -> list of copy ids: a deal names its `recipients`,
        the players who may be given cards)."""
        is_card = kind in ("discard", "discard_keepers", "card", "cards") or (chance and options and isinstance(options[0], int))
        names = [self.core.name(o) for o in options] if is_card else [str(o) for o in options]   # ("Milk #2")
        if kind in ("discard", "discard_keepers") and count is not None and count >= len(options):
            return list(options)                      # no choice: everything goes
        if kind in ("card", "player") and len(options) == 1:
            return options[0]                         # a choice with one option is taken
        if chance and len(options) == 1:
            return options[0]
        decision = Decision(kind, by, prompt, list(options), count=count,
                            minimum=count if minimum is None and count is not None and kind != "cards" else (minimum or 0),
                            chance=chance, option_names=names, cites=tuple(cites), fate=fate or _FATES.get(kind),
                            recipients=tuple(recipients))
        answer = self._take_answer(decision)
        while answer is None:
            if self.probing:
                self.defaulted = True
                return self._default_answer(decision)
            if self.pause_blocked or not self.pauses or self.cont is None or not self.cont.here():
                raise NeedDecision(decision)
            Pause.wait(decision)                # the run stops here; an answer brings it back
            answer = self._take_answer(decision)
        return self._interpret(decision, answer)

    @staticmethod
    def _default_answer(decision: Decision) -> Any:
        """Some legal answer, for a trial run that only asks whether an event is refused."""
        opts = decision.options
        if decision.kind in ("discard", "discard_keepers"):
            return opts[:decision.count]
        if decision.kind == "cards":
            return opts[:decision.minimum]
        if decision.kind in ("yes_no", "table"):
            return False
        if decision.kind == "deal":
            return {decision.by: list(opts)}
        return opts[0] if opts else None

    def order(self, by: str, labels: list[str], cites: tuple[str, ...] = (), kept: tuple[str, ...] = ()) -> list[str]:
        """The order in which `by` sees to several duties of one moment (format 1.2,
        item 3), asked as a decision of kind `order`: an answer naming exactly these
        duties (`choose: [FIRST, SECOND]`) gives the order; any other answer is left for
        the decision after this one and the order given is taken, as it is for a file
        that does not answer (a replay answers a pending order by default: `ORDER`)."""
        decision = Decision(ORDER, by, f"{by} picks the order of {', '.join(labels)}", list(labels),
                            count=len(labels), minimum=len(labels), option_names=list(labels), cites=cites,
                            kept=kept)
        while True:
            if self.next_answer < len(self.answers):
                chosen = self._as_order(self.answers[self.next_answer], labels)
                if chosen is not None:
                    self.next_answer += 1
                    return chosen
                return list(labels)         # an answer for what comes next, not an order
            if self.probing or self.pause_blocked or not self.pauses or self.cont is None or not self.cont.here():
                return list(labels)
            Pause.wait(decision)

    @staticmethod
    def _as_order(answer: Answer, labels: list[str]) -> list[str] | None:
        """`answer` as an order of `labels`, or None if it is not one."""
        if answer.verb != "choose" or not isinstance(answer.value, list) or len(answer.value) != len(labels):
            return None
        wanted = {normalize(label): label for label in labels}
        given = [wanted.get(normalize(v)) if isinstance(v, str) else None for v in answer.value]
        if None in given or len(set(given)) != len(labels):
            return None
        return [g for g in given if g is not None]

    def chance(self, by: str, prompt: str, options: list[Any]) -> Any:
        """A draw of chance ("a random card from Ben's hand")."""
        if not options:
            return None
        pick = self.choose("card", by, prompt, options, chance=True)
        self.effect_shown()
        return pick

    def effect_shown(self) -> None:
        """The Action (or free action) being carried out has just made an outcome of
        chance known to the table (a card taken at random and seen, cards from the pile
        dealt out to the players): a Surprise against it is now too late."""
        st = self.core.state
        st.windows = [replace(w, shown=True) if w.kind == "use" or (w.kind == "play" and w.card in st.resolving
                      and w.card_type in (ACTION, DANGER)) else w for w in st.windows]

    def next_answer_is_mapping(self) -> bool:
        """Whether the next scripted answer is a `choose:` mapping (a `deal` answer), for
        a deal that chance makes unless the table says how it fell."""
        if self.next_answer >= len(self.answers):
            # what the run does next depends on an answer not given yet: when it comes,
            # the event is carried out again from its start rather than gone on with
            self.peeked = True
            return False
        answer = self.answers[self.next_answer]
        return answer.verb == "choose" and isinstance(answer.value, dict)

    def _take_answer(self, decision: Decision) -> Answer | None:
        if self.next_answer >= len(self.answers):
            return None
        answer = self.answers[self.next_answer]
        if answer.verb == "random" and not decision.chance:
            raise BadAnswer(f"a `random:` answer ({answer.value!r}) was given where {decision.describe()}")
        self.next_answer += 1
        return answer

    def _match_card(self, decision: Decision, value: Any, pool: list[int], written: bool = False) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value in pool and not written:
            return value                              # an answer the engine itself produced
        if not isinstance(value, str):
            raise BadAnswer(f"{value!r} is not a card name; {decision.describe()} (options: {', '.join(decision.option_names)})")
        st = self.core.state
        title, number = split_copy(value)
        key = normalize(title)
        try:
            wanted = self.core.cat.resolve(title).key if title.strip() != "?" else "?"
        except Exception:
            wanted = None
        if number is not None and wanted is not None:
            # one copy among several (format 1.2, item 1)
            copy = st.copy_of(wanted, number)
            if copy in pool:
                return copy
            raise BadAnswer(f"{value!r} is not one of the options: {decision.describe()} "
                            f"(options: {', '.join(decision.option_names) or 'none'})", forbidden=True)
        for c in pool:
            d = st.defs[c]
            if d.key == wanted or normalize(d.name) == key:
                return c
        raise BadAnswer(f"{value!r} is not one of the options: {decision.describe()} "
                        f"(options: {', '.join(decision.option_names) or 'none'})", forbidden=True)

    def _interpret(self, decision: Decision, answer: Answer) -> Any:
        value = answer.value
        kind = decision.kind
        if decision.chance or kind == "card":
            if decision.options and not isinstance(decision.options[0], int):
                return self._match_player(decision, value)
            return self._match_card(decision, value, decision.options, answer.written)
        if kind in ("discard", "discard_keepers", "cards"):
            values = value if isinstance(value, list) else [value]
            pool = list(decision.options)
            picked = []
            for v in values:
                c = self._match_card(decision, v, pool, answer.written)
                pool.remove(c)
                picked.append(c)
            if kind == "cards":
                if decision.count is not None and len(picked) > decision.count:
                    raise BadAnswer(f"at most {decision.count} cards may be picked; {decision.describe()}",
                                    forbidden=True)
                if len(picked) < decision.minimum:
                    raise BadAnswer(f"at least {decision.minimum} cards must be picked; {decision.describe()}",
                                    forbidden=True)
            elif decision.count is not None and len(picked) != decision.count:
                raise BadAnswer(f"exactly {decision.count} cards must be given up, not {len(picked)}; "
                                f"{decision.describe()}", forbidden=True)
            return picked
        if kind == "player":
            return self._match_player(decision, value)
        if kind in ("yes_no", "table"):
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("yes", "no", "true", "false", "y", "n"):
                return value.strip().lower() in ("yes", "true", "y")
            raise BadAnswer(f"answer yes or no, not {value!r}; {decision.describe()}")
        if kind == "number":
            if isinstance(value, int) and not isinstance(value, bool) and value in decision.options:
                return value
            raise BadAnswer(f"{value!r} is not an allowed number ({decision.options}); {decision.describe()}",
                            forbidden=isinstance(value, int) and not isinstance(value, bool))
        if kind == "deal":
            return self._interpret_deal(decision, value, answer.written)
        raise BadAnswer(f"cannot answer a {kind} decision")  # pragma: no cover

    def _match_player(self, decision: Decision, value: Any) -> str:
        if isinstance(value, str):
            for p in decision.options:
                if normalize(p) == normalize(value):
                    return p
        raise BadAnswer(f"{value!r} is not one of the players that can be chosen: {decision.describe()} "
                        f"(options: {', '.join(map(str, decision.options))})", forbidden=isinstance(value, str))

    def _interpret_deal(self, decision: Decision, value: Any, written: bool = False) -> dict[str, list[int]]:
        if not isinstance(value, dict):
            raise BadAnswer(f"a deal is answered with a mapping of player to cards; {decision.describe()}")
        pool = list(decision.options)
        out: dict[str, list[int]] = {}
        for who, cards in value.items():
            player = self._match_player(Decision("player", decision.by, decision.prompt, self.core.state.players), who)
            out[player] = []
            for v in (cards if isinstance(cards, list) else [cards]):
                c = self._match_card(decision, v, pool, written)
                pool.remove(c)
                out[player].append(c)
        if pool:
            raise BadAnswer(f"the deal leaves {self.core.names(pool)} undealt; {decision.describe()}", forbidden=True)
        return out
