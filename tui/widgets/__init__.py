"""The app's widgets: dialogs, the card picker, the zone and player lists of the Table
screen, type-ahead suggesters and rendering helpers. Screens import them from here."""

from tui.widgets.card_picker import CardPicker
from tui.widgets.dialogs import (ChoiceModal, ConfirmModal, DealModal, OpenModal, PickManyModal, PromptModal,
                                 UnsavedModal)
from tui.widgets.render import TYPE_STYLES, card_label, error_text, highlighted, ruling_summary
from tui.widgets.suggesters import CardSuggester, EventSuggester, PathSuggester
from tui.widgets.zones import PlayerList, ZoneList

__all__ = ["CardPicker", "CardSuggester", "ChoiceModal", "ConfirmModal", "DealModal", "EventSuggester", "OpenModal", "PathSuggester",
           "PickManyModal", "PlayerList", "PromptModal", "TYPE_STYLES", "UnsavedModal", "ZoneList", "card_label",
           "error_text", "highlighted", "ruling_summary"]
