"""Rulings, Cards and palette pilot tests: search as you type, did-you-mean and facets,
stale results dropped, a ruling and its links, a demonstrating scenario opened in Replay,
two cards explained, the command palette."""

from __future__ import annotations

import threading

import pytest

from rulings.corpus import load_corpus, scenarios_citing
from test_tui_support import _private_cache, until  # noqa: F401 (an autouse fixture)
from tui.app import FluxxJudgeApp
from tui.screens.interactions import NOT_YET, InteractionsScreen
from tui.screens.replay import ReplayScreen
from tui.screens.rulings import RulingScreen, RulingsScreen


async def rulings_ready(pilot) -> RulingsScreen:
    await until(pilot, lambda: isinstance(pilot.app.screen, RulingsScreen) and pilot.app.screen.corpus is not None)
    return pilot.app.screen


def hit_ids(screen) -> list[str]:
    return [o.id for o in screen.query_one("#hits").options]


def a_demonstrated_ruling() -> tuple[str, str]:
    """A ruling some library scenario cites, and words from its question to find it by."""
    preferred = "play-all-vs-turn-end"
    corpus = load_corpus()
    rid = preferred if scenarios_citing(preferred) else next(
        (r.id for r in corpus if scenarios_citing(r.id)), None)
    if rid is None:
        pytest.skip("no library scenario cites a ruling yet")
    words = "play all turn end" if rid == preferred else " ".join(corpus.get(rid).title.split()[:5])
    return rid, words


async def test_search_open_a_ruling_and_jump_to_a_scenario_that_demonstrates_it():
    rid, words = a_demonstrated_ruling()
    app = FluxxJudgeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await rulings_ready(pilot)
        assert len(hit_ids(screen)) == len(load_corpus())          # the whole corpus to browse
        await pilot.press(*words)
        await until(pilot, lambda: screen.last_result is not None and screen.last_result.query == words)
        assert rid in hit_ids(screen)[:5]
        assert any("**" in h.highlight for h in screen.last_result.hits)   # matched words are marked
        assert "found" in str(screen.query_one("#search-status").render())
        await pilot.press("enter")                                   # from the query to the results
        hits = screen.query_one("#hits")
        assert app.focused is hits
        hits.highlighted = hit_ids(screen).index(rid)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RulingScreen))
        ruling = app.screen
        links = ruling.query_one("#ruling-links")
        await until(pilot, lambda: any((o.id or "").startswith("sc:") for o in links.options))
        text = str(ruling.query_one("#ruling-text").render())
        assert rid in text and "Q:" in text and "A:" in text
        ids = [o.id or "" for o in links.options]
        prompts = " ".join(str(o.prompt) for o in links.options)
        assert any(i.startswith("card:") for i in ids) or "no card named" in prompts
        first = next(i for i, o in enumerate(links.options) if (o.id or "").startswith("sc:"))
        links.highlighted = first
        path = links.options[first].id[3:]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.verdict is not None)
        assert app.session.path == path and app.current_mode == "replay"
        assert rid in app.session.doc.get("cites", [])


async def test_did_you_mean_facets_and_stale_results(monkeypatch):
    app = FluxxJudgeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await rulings_ready(pilot)
        await pilot.press(*"surprize")
        await until(pilot, lambda: screen.suggestion is not None)
        button = screen.query_one("#did-you-mean")
        assert button.display and "surprise" in str(button.label)
        await pilot.press("ctrl+y")
        assert screen.query_one("#query").value == "surprise"
        await until(pilot, lambda: screen.last_result is not None and screen.last_result.query == "surprise")
        assert hit_ids(screen)
        screen.query_one("#f-kind").value = "judgement"
        await until(pilot, lambda: screen.last_result.filters.get("kind") == ["judgement"])
        corpus = load_corpus()
        assert hit_ids(screen) and all(corpus.get(i).kind == "judgement" for i in hit_ids(screen))
        await pilot.press("ctrl+r")
        await until(pilot, lambda: not screen.last_result.filters)

        # a slow search that ends after a newer one is dropped
        import rulings.search as search_mod

        real = search_mod.search
        gate = threading.Event()

        def slow_or_fast(query, limit=10, filters=None):
            if query == "slow":
                gate.wait(5)
            return real(query, limit=limit, filters=filters)

        monkeypatch.setattr(search_mod, "search", slow_or_fast)
        box = screen.query_one("#query")
        box.value = "slow"
        await pilot.pause(0.3)                                     # the slow one is under way
        box.value = "veto"
        await until(pilot, lambda: screen.last_result.query == "veto")
        fresh = hit_ids(screen)
        gate.set()
        await pilot.pause(0.3)
        assert screen.last_result.query == "veto" and hit_ids(screen) == fresh


async def test_two_cards_meet_in_the_interaction_graph():
    app = FluxxJudgeApp(start_mode="interactions")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, InteractionsScreen))
        screen = app.screen
        await pilot.press(*"play all", "enter")
        screen.query_one("#card-b").value = "get on with it"
        await pilot.press("enter")
        status = screen.query_one("#pair-status")
        await until(pilot, lambda: "Looking" not in str(status.render()) and str(status.render()).strip())
        paths = screen.query_one("#pair-paths")
        if NOT_YET.capitalize() in str(status.render()):
            pytest.skip("the interaction graph does not explain pairs in this build")
        assert "way" in str(status.render()) and paths.option_count
        assert "Play All" in str(screen.query_one("#pair-cards").render())
        rulings = [o.id for o in paths.options if (o.id or "").startswith("r:")]
        assert rulings
        paths.highlighted = next(i for i, o in enumerate(paths.options) if o.id == rulings[0])
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RulingScreen))
        assert app.screen.rid == rulings[0][2:].partition("#")[0]


async def test_the_command_palette_finds_rulings_cards_and_scenarios():
    app = FluxxJudgeApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await rulings_ready(pilot)
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen.query("CommandInput"))
        app.screen.query_one("CommandInput").value = "surprise-too-late"
        await until(pilot, lambda: app.screen.query("CommandList") and app.screen.query_one("CommandList").option_count)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RulingScreen))
        assert app.screen.rid == "surprise-too-late"


@pytest.mark.slow(7)
async def test_card_page_from_a_ruling_and_from_the_palette():
    """A ruling's card name opens the card's page; the palette's "card page" entry
    reaches the same page by an alias; a ruling listed there opens it."""
    from tui.screens.card import CardScreen

    app = FluxxJudgeApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await rulings_ready(pilot)
        app.open_ruling("turn-end-inside-d3p2")
        await until(pilot, lambda: isinstance(app.screen, RulingScreen) and app.screen.data)
        links = app.screen.query_one("#ruling-links")
        card_at = next(i for i, o in enumerate(links.options) if (o.id or "") == "card:Time Portal")
        links.highlighted = card_at
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, CardScreen) and app.screen.page is not None)
        page = app.screen.page
        assert page.name == "Time Portal" and "turn-end-inside-d3p2" in {r["id"] for r in page.rulings}
        text = str(app.screen.query_one("#card-text").render())
        assert "Star Fluxx" in text and "Mechanic" in text
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, RulingScreen))

        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen.query("CommandInput"))
        app.screen.query_one("CommandInput").value = "card page wormhole"

        def page_option() -> int | None:
            if not app.screen.query("CommandList"):
                return None
            options = app.screen.query_one("CommandList").options
            return next((i for i, o in enumerate(options) if "card page Wormhole" in str(o.prompt)), None)

        await until(pilot, lambda: page_option() is not None)
        app.screen.query_one("CommandList").highlighted = page_option()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, CardScreen) and app.screen.page is not None)
        assert app.screen.page.name == "Mystery Play" and "Wormhole" in app.screen.page.aliases
        links = app.screen.query_one("#card-links")
        first = next(i for i, o in enumerate(links.options) if (o.id or "").startswith("rel:"))
        rid = links.options[first].id[4:]
        links.highlighted = first
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RulingScreen) and app.screen.rid == rid)
