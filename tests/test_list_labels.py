"""The list entries of the dialogs (tui/widgets/list_labels.py) measure themselves as
Textual does: the same height as Textual's own `Content` at every width and setting of
wrapping and overflow, for every library title and for awkward text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text
from textual.content import Content

from tests.conftest import examples
from tui.app import library_scenarios
from tui.widgets.list_labels import ListLabel, list_option

SETTINGS = [{}, {"text_overflow": "ellipsis"}, {"text_overflow": "clip"}, {"text_wrap": "nowrap"},
            {"text_wrap": "nowrap", "text_overflow": "ellipsis"}, {"line_pad": 1}, {"line_pad": 2, "text_wrap": "nowrap"}]


def heights(text: str, widths) -> list[tuple]:
    """(setting, width, ours, Textual's) wherever they differ; each asked twice, so the
    remembered answer is checked too."""
    ours = ListLabel(Content(text))
    wrong = []
    for rules in SETTINGS:
        for width in widths:
            if width - 2 * rules.get("line_pad", 0) < 1:
                continue        # no room at all: Textual's own measure fails on some settings
            for _ in range(2):
                theirs = Content(text).get_height(rules, width)
                mine = ours.get_height(rules, width)
                if mine != theirs:
                    wrong.append((rules, width, mine, theirs))
    return wrong


@pytest.mark.slow(2)
def test_every_library_title_measures_as_textual_measures_it():
    titles = [title for _, title in library_scenarios()]
    assert len(titles) > 100
    for title in titles:
        assert heights(title, (5, 24, 40, 66, 68, 100)) == [], title


@pytest.mark.parametrize("text", ["", " ", "x", "a b", "word " * 30, "   lead and trail   ", "tab\there",
                                  "two\nlines", "wide \u4e2d\u6587\u5b57 text " * 6, "caf\u00e9 " * 20,
                                  "averyveryverylongwordwithoutanyspace" * 3, "[bold]not markup[/]", "\x1b[31mred"])
def test_awkward_text_measures_as_textual_measures_it(text):
    assert heights(text, range(1, 60, 2)) == []


@settings(max_examples=examples(100), deadline=None)
@given(st.text(st.sampled_from("ab \u4e2d\u00e9-\t\n"), max_size=80), st.integers(1, 40))
def test_any_text_measures_as_textual_measures_it(text, width):
    assert heights(text, [width]) == []


def test_a_label_is_shown_as_typed():
    option = list_option("[bold]x[/] \\y", id="a")
    assert str(option.prompt) == "[bold]x[/] \\y" and option.id == "a" and not option.disabled
    heading = list_option(Text("Group", style="bold underline"), disabled=True)
    assert heading.disabled and heading.prompt.content.spans   # the Text's style is kept


@pytest.mark.parametrize("label", ["plain", "[bold]x[/] \\y", "caf\u00e9 \u4e2d", "tab\there", "bell\x07", "cr\rlf\n", ""])
def test_a_label_becomes_what_textual_makes_of_its_text(label):
    made = list_option(label).prompt.content
    textual = Content.from_rich_text(Text(label))
    assert (made.plain, made.spans) == (textual.plain, textual.spans)
