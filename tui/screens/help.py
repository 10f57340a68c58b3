"""The help screen: what each screen is for and every key, all reachable without a mouse."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

HELP = """\
# fluxx-judge

Settle a Fluxx dispute: rebuild the table (hidden hands and all), replay the plays,
read the answer to your question and the rulings behind it. Everything works from the
keyboard; a walkthrough is in docs/walkthrough.md.

## Everywhere

| key | does |
| --- | --- |
| F1 or ? | this help |
| F2 / F3 / F4 / F5 | Table / Replay / Rulings / Cards screens (named in the top bar) |
| Ctrl+P | command palette: cards, rulings, scenarios, commands |
| Ctrl+O / Ctrl+N | open (your own files first, then the library) / new scenario |
| F10 | the menu: every screen and command (on a phone: the top bar's Menu, Open, Save) |
| Ctrl+S / F6 | save / save as (every save is confirmed; nothing is overwritten without asking) |
| Tab, Shift+Tab | next / previous panel (the one with the keyboard has a heavy border) |
| Esc | close a dialog or a ruling |
| Ctrl+Q | quit (asks first about unsaved changes, what-if lines included) |

## Table (F2): rebuild the position

**Ctrl+G** goes to any zone by typing part of its name; **Ctrl+W** writes the question
in dispute. Players panel: **n** add, **r** rename, **t** make it their turn, **e**
knocked out or back in, **d** remove, **[ ]** move up or down the seats. `drawn` and
`played` are this turn's counts (leave `drawn` empty: the draw is done).

Each zone (rules, goals, piles, each player's hand and table): **a** add a card (type
a name; aliases and typos are found; `?` is a card nobody can see, `? x3` three of
them; `Milk x2` adds two), **d** remove, **m** move to another zone, **[ ]** reorder
(piles are top first), **+ -** copies. The problems panel lists, from the engine's own
checks, why the position could not occur; Enter on a problem jumps to the card.
**Ctrl+K** declares a card the catalogue lacks: name it, say what kind it is and what it
works like (a catalogue card, or a plain Keeper or Creeper, or a Goal needing Keepers);
it is then offered like any other card and saved in the scenario's `cards:`.

## Replay (F3): the answer, then step by step

The top panel holds the question, its answer, the lines that decide it and their
rulings. **q** writes the question and what it asks (whether the step is allowed, who
wins, whether the turn is over, where a card ends up, what a player must do, who may
still answer with a Surprise; or let the verdict pick), **d** marks the selected step
as the disputed one. The answer answers that first, from the engine's own state.
**← →** step back and forward, **Home End** first and last step; **t** shows the table
or the explanation on a narrow terminal. **a** adds an event chosen from what the rules
allow now (type to narrow the list): plays, Surprises, free actions, the answers to a
pending decision, and reveals of unseen cards grouped by what the rules allow; or type
any event, in the menu's words or the file's syntax. On an earlier step, **a** or **b**
branches a *what if* line, saved with the scenario: **l** switches lines, **k** makes
the current line the scenario's own (the old one is kept as a what-if), **x** drops the
last event, **Delete** removes a what-if line. **n** opens the Analysis panel: from
the selected step, can the player whose turn it is still win this turn, by which line,
which Surprises in visible hands could stop it, and does some line hand the win to
someone else (the search runs in the background and says when it was cut short).
**s** copies the scenario as a share string (one line, `fj1.…`) to the clipboard:
`fluxx-judge open LINE` (or any command that takes a scenario file) opens it.

## Rulings (F4): search

Type to search (card names, words; `card:` `topic:` `edition:` `kind:` filter). The
facet menus filter too; **Ctrl+R** clears them. **Ctrl+Y** takes the "did you mean".
Down or Enter moves to the results; Enter opens a ruling. In a ruling, Enter follows
a link: its cards, related rulings, graph neighbours, and the scenarios that
demonstrate it (opened in Replay). Esc goes back.

## Cards (F5): how two cards meet

Type two cards (Enter in the second, or **Ctrl+G**, explains); **Ctrl+T** swaps them.
They meet through the interaction graph, a ruling about both, or a library scenario
that involves both. Enter on a ruling opens it.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,q,question_mark", "close", "Close")]

    def __init__(self, mode: str = "") -> None:
        super().__init__(classes="dialog")
        self.mode = mode

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog-box", id="help-box"):
            yield Markdown(HELP)
            yield Static("Esc closes this help.", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#help-box").focus()

    def action_close(self) -> None:
        self.dismiss(None)
