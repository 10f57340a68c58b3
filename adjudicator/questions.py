"""The question a scenario asks (format 1.1, item 4; 1.2, item 5): its text in the
players' words, and what kind of answer is wanted.

`question: TEXT` leaves the kind to the verdict; `question: {text: TEXT, ask: KIND}`
names it. The kinds:

    legal          may the disputed event be made?
    winner         does anyone win, who, and if nobody, what stops each player who meets a Goal?
    turn           is the turn over, and whose turn is it?
    {where: CARD}  where does that card end up?
    {must: PLAYER} what must that player do now?
    respond        who may still answer with a Surprise, and with what?

`read_question` reads the `question:` node strictly (a bad kind is refused at its file,
line and column with the kinds allowed); `Ask.data()` gives back the plain data a file
or the app's document holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from adjudicator.strictyaml import Node, check_keys, clip

LEGAL, WINNER, TURN, WHERE, MUST, RESPOND = "legal", "winner", "turn", "where", "must", "respond"
KINDS = (LEGAL, WINNER, TURN, WHERE, MUST, RESPOND)
PLAIN_KINDS = (LEGAL, WINNER, TURN, RESPOND)          # written as a word; `where` and `must` as a mapping
QUESTION_KEYS = ["text", "ask"]
ALLOWED_WORDS = "legal, winner, turn, respond, {where: CARD} or {must: PLAYER}"

# what each kind asks, in a player's words (the app's menu, the docs)
ASKS = {
    LEGAL: "may the disputed event be made?",
    WINNER: "does anyone win, and if not, what stops them?",
    TURN: "is the turn over, and whose turn is it?",
    WHERE: "where does a card end up?",
    MUST: "what must a player do now?",
    RESPOND: "who may still answer with a Surprise?",
}


@dataclass(frozen=True)
class Ask:
    """The kind of answer a question wants: `kind`, and the card (`where`, by its
    printed name) or the player (`must`) it is about."""

    kind: str
    card: str | None = None
    player: str | None = None

    def data(self) -> str | dict[str, str]:
        """The `ask:` value as a file writes it."""
        if self.kind == WHERE:
            return {WHERE: self.card or ""}
        if self.kind == MUST:
            return {MUST: self.player or ""}
        return self.kind

    def words(self) -> str:
        """What the question asks, in a player's words."""
        if self.kind == WHERE:
            return f"where does {self.card} end up?"
        if self.kind == MUST:
            return f"what must {self.player} do now?"
        return ASKS[self.kind]


def read_question(node: Node, card: Callable[[Node], str], player: Callable[[Node], str]) -> tuple[str, Ask | None]:
    """The question's text and the kind it asks (None: a plain string, the verdict picks
    the kind). `card` and `player` read a card or player name node (refusing unknown
    ones at their place) and return the printed name."""
    if not node.is_map():
        return node.as_str("question").strip(), None
    fields = check_keys(node, QUESTION_KEYS, "the question", required=("text",))
    text = fields["text"].as_str("the question's text").strip()
    if not text:
        raise fields["text"].error("the question's text is empty; write the dispute in the players' words")
    return text, (read_ask(fields["ask"], card, player) if "ask" in fields else None)


def read_ask(node: Node, card: Callable[[Node], str], player: Callable[[Node], str]) -> Ask:
    """One `ask:` value: a kind's word, or `{where: CARD}` / `{must: PLAYER}`."""
    if node.is_map():
        fields = node.as_map("ask")
        if len(fields) != 1:
            raise node.error(f"ask names one kind of answer; it holds {len(fields)} keys (one of {ALLOWED_WORDS})")
        (key, value), = fields.items()
        if key == WHERE:
            return Ask(WHERE, card=card(value))
        if key == MUST:
            return Ask(MUST, player=player(value))
        hint = (f"; write it as `ask: {key}`" if key in PLAIN_KINDS else "")
        raise node.key_nodes[key].error(f"unknown kind of answer {clip(key)!r} (one of {ALLOWED_WORDS}){hint}")
    word = node.as_str("ask")
    if word in PLAIN_KINDS:
        return Ask(word)
    if word in (WHERE, MUST):
        example = "{where: Milk}" if word == WHERE else "{must: Ann}"
        raise node.error(f"`{word}` names what it asks about: write it as `ask: {example}`")
    raise node.error(f"unknown kind of answer {clip(word)!r} (one of {ALLOWED_WORDS})")


def question_data(text: str, ask: Ask | None) -> Any:
    """The `question:` value as a file writes it: the text alone, or text and kind."""
    return text if ask is None else {"text": text, "ask": ask.data()}


def plain_question(value: Any) -> tuple[str, Any]:
    """The text and the `ask:` data of a `question:` value as plain data (the app's
    open document): ("", None) when there is none or it is not a question."""
    if isinstance(value, str):
        return value, None
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return value["text"], value.get("ask")
    return "", None


def ask_words(data: Any) -> str:
    """What an `ask:` value (plain data) asks, in a player's words ("" when unreadable)."""
    if isinstance(data, str) and data in ASKS and data in PLAIN_KINDS:
        return ASKS[data]
    if isinstance(data, dict) and len(data) == 1:
        (key, value), = data.items()
        if key == WHERE:
            return f"where does {value} end up?"
        if key == MUST:
            return f"what must {value} do now?"
    return ""
