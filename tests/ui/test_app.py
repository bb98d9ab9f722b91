"""The Textual app, driven with Pilot as a player would drive it."""

import asyncio

from fake_speaker import Heard


def test_typing_a_card_name_shows_and_speaks_its_full_text(make_app):
    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append))
        async with app.run_test() as pilot:
            await pilot.press(*"rainbow aura", "enter")
            await pilot.pause()
            answer = str(app.query_one("#answer").render())
            assert answer.splitlines()[0] == "Rainbow Aura"
            assert app.session.cards.get("rainbow-aura").text in answer

    asyncio.run(scenario())
    assert spoken and spoken[-1].card.id == "rainbow-aura"


def test_ambiguous_name_then_digit_picks_a_candidate(make_app):
    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append))
        async with app.run_test() as pilot:
            await pilot.press(*"rainbow", "enter")
            await pilot.pause()
            assert "Type a number to choose" in spoken[-1].speech
            await pilot.press("1", "enter")
            await pilot.pause()
            assert spoken[-1].card is not None

    asyncio.run(scenario())


def test_markup_in_input_is_shown_literally(make_app):
    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append))
        async with app.run_test() as pilot:
            await pilot.press(*"[bold]x[/bold]", "enter")
            await pilot.pause()
            assert "[bold]x[/bold]" in str(app.query_one("#answer").render())

    asyncio.run(scenario())


def test_a_camera_message_that_arrives_as_the_app_closes_is_let_go(make_app):
    """The camera thread may post a message just before it is stopped; handled once the app's widgets are gone,
    it is let go rather than raising (a traceback at quit)."""
    from assistant.scanner.live import SourceBack
    from assistant.ui.messages import ScannerEvent

    spoken = []
    app = make_app(Heard(spoken.append))

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.pause()
        heard = len(spoken)
        app.on_scanner_event(ScannerEvent(SourceBack()))
        assert len(spoken) == heard

    asyncio.run(scenario())


def test_what_the_app_made_to_start_is_left_out_of_full_collections_while_it_runs(make_app):
    """A full garbage collection over everything the app made to start held its event loop up to 43 ms at a reply:
    once the screen is drawn that is frozen (`gc.freeze`), a game's own objects still collected; unfrozen at exit.
    Before that, what the first look-up would build is built (`CardDesk.prepare`), with the rest."""
    import gc

    app = make_app(Heard())
    frozen = []

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.pause()
            frozen.append(gc.get_freeze_count())
            assert app.session.resolver._cells is not None  # the first look-up's index, built before any key
            await pilot.press(*"new game ana ben", "enter")
            await pilot.pause()
            gc.collect()
            frozen.append(gc.get_freeze_count())

    gc.unfreeze()
    asyncio.run(scenario())
    assert frozen[0] > 10_000 and frozen[1] <= frozen[0]  # the game's objects are not frozen with them
    assert gc.get_freeze_count() == 0
