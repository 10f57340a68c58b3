"""The help screen: what each screen is for and every key, all reachable without a mouse."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

HELP = """\
# fluxx-judge

Settle a Fluxx dispute: rebuild the table, replay the plays, read the verdict and the
rulings behind it. Everything works from the keyboard.

## Everywhere

| key | does |
| --- | --- |
| F1 or ? | this help |
| F2 / F3 / F4 / F5 | Table / Replay / Rulings / Cards screens |
| Ctrl+P | command palette: cards, rulings, scenarios, commands |
| Ctrl+O / Ctrl+S / Ctrl+N | open / save / new scenario |
| Tab, Shift+Tab | next / previous panel |
| Esc | close a dialog or a ruling |
| Ctrl+Q | quit |

## Table (F2): rebuild the position

Players panel: **n** add, **r** rename, **t** make it their turn, **e** knocked out
or back in, **d** remove, **[ ]** move up or down the seats.
`drawn` and `played` are this turn's counts (leave `drawn` empty: the draw is done).

Each zone (rules, goals, piles, each player's hand and table): **a** add a card (type
a name; aliases and typos are found; `?` is an unknown card; `Milk x2` adds two),
**d** remove, **m** move to another zone, **[ ]** reorder (piles are top first),
**+ -** copies. The problems panel lists why the position could not occur; Enter on a
problem jumps to the card. Saving writes the whole file or nothing, and leaves an
unchanged file untouched.

## Replay (F3): step through the dispute

**← →** step back and forward, **Home End** first and last step, Up/Down in the step
list. The table shows what changed (**+new**, ~~gone~~); the explanation cites its
rulings: Enter on one opens it. **a** adds an event chosen from what the rules allow
now (or the answers to a pending decision; or type any event and let the engine judge
it). On an earlier step, **a** or **b** branches a *what if* line; the scenario's own
line is kept: **l** switches lines, **k** keeps the current line as the scenario's,
**x** drops the last event.

## Rulings (F4): search

Type to search (card names, words; `card:` `topic:` `edition:` `kind:` filter). The
facet menus filter too; **Ctrl+R** clears them. **Ctrl+Y** takes the "did you mean".
Down or Enter moves to the results; Enter opens a ruling. In a ruling, Enter follows
a link: its cards, related rulings, graph neighbours, and the scenarios that
demonstrate it (opened in Replay). Esc goes back.

## Cards (F5): how two cards meet

Type two cards (Enter in the second, or **Ctrl+G**, explains); **Ctrl+T** swaps them.
Enter on a ruling opens it.
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
