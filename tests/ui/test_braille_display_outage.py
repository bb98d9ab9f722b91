"""The braille display after an outage, on a real BRLTTY (its TTY driver on a pseudo-terminal) stopped (SIGSTOP)
around the winning move: keys passed on at its return acknowledge no fact held there for `KEPT_KEYS_PAUSE`
(time from the test's own clock, standing still), and a line typed on the display, its Enter kept by the stopped
BRLTTY, is never replaced by the keyboard's line meanwhile: it is sent when the Enter arrives. Every wait is for a
state, bounded."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal

import pytest
from brltty_fixture import BRLTTY

from tests.ui.braille_app import BrailleApp, until
from tests.ui.test_braille_display_phones import at_the_end

pytest.importorskip("brlapi")
pytestmark = pytest.mark.skipif(BRLTTY is None, reason="BRLTTY is not installed")

NEW_GAME = "new game Ana Ben Cy babies red pink narwhal win 3"


async def bens_turn(pilot, app) -> None:
    """A new game typed on the keyboard, to Ben's turn (his Ginormous Unicorn wins it)."""
    for line in (NEW_GAME, "draw", "end turn", "draw"):
        await pilot.press(*line, "enter")
    await until(pilot, lambda: app.session.game.state.current == 1, "Ben's turn")


@contextlib.asynccontextmanager
async def away(pilot, braille: BrailleApp):
    """BRLTTY stopped (SIGSTOP) for the block, which ends once the app has taken it as away; then resumed, and
    answering again when this returns."""
    os.kill(braille.server.process.pid, signal.SIGSTOP)
    try:
        yield
        await until(pilot, lambda: braille.link.missed is not None, "the stopped BRLTTY taken as away")
    finally:
        os.kill(braille.server.process.pid, signal.SIGCONT)
    await until(pilot, lambda: braille.link.missed is None, "BRLTTY answers again")


async def bens_turn_held(pilot, braille: BrailleApp) -> None:
    """A new game typed on the keyboard, her turn ended: "Ben's turn." held on the display."""
    for line in (NEW_GAME, "draw", "end turn"):
        await pilot.press(*line, "enter")
    await until(pilot, lambda: braille.shown().startswith("ben's turn"), "Ben's turn held on the display")


async def win_while_stopped(pilot, braille: BrailleApp) -> None:
    """To Ben's turn, then his winning move typed on the keyboard while BRLTTY is stopped (taken as away), and BRLTTY
    resumed: back when this returns."""
    app = braille.app
    await bens_turn(pilot, app)
    async with away(pilot, braille):
        await pilot.press(*"play ginormous unicorn", "enter")
        await pilot.press(*"resolve", "enter")
        await until(pilot, lambda: app.session.game.state.outcome is not None, "the win")


def test_keys_passed_on_when_brltty_returns_acknowledge_no_held_win_for_half_a_second(braille_app):
    """Ben wins while BRLTTY is stopped; when it resumes the win is drawn and shown (BRLTTY answered after it).
    `tally` and Enter typed on the display at once (the clock standing still: within `KEPT_KEYS_PAUSE` of its
    return, as the keys it kept are passed on) are sent and answered, but the win stays held and is shown again;
    once the half second has passed, a line sent acknowledges it."""
    from assistant.braille.display import KEPT_KEYS_PAUSE

    async def scenario():
        app, link, shown, display_server = braille_app.app, braille_app.link, braille_app.shown, braille_app.server
        braille_app.stand_still()  # the display's clock (`KEPT_KEYS_PAUSE`), the test's own
        async with app.run_test(size=(100, 40)) as pilot:
            await win_while_stopped(pilot, braille_app)
            await until(pilot, lambda: shown().startswith("ben wins!"), "the win shown")
            await until(pilot, lambda: link.view.held.read, "BRLTTY answered after the win")
            answered = len(app.replies)
            display_server.type("tally")
            display_server.press("enter")
            await until(pilot, lambda: len(app.replies) > answered, "tally answered")
            assert "Ben wins!" not in link.acknowledged
            await until(pilot, lambda: shown().startswith("ben wins!"), "the win shown again")
            braille_app.advance(KEPT_KEYS_PAUSE)
            answered = len(app.replies)
            display_server.type("tally")
            display_server.press("enter")
            await until(pilot, lambda: len(app.replies) > answered, "tally answered again")
            assert "Ben wins!" in link.acknowledged

    asyncio.run(scenario())


def test_a_line_typed_on_the_display_whose_enter_a_stopped_brltty_kept_is_not_replaced_by_the_keyboards(braille_app):
    """`resolve` typed on the display (her winning move); BRLTTY stops before passing on her Enter; she types
    `tally` on the keyboard and sends it. The display's line was kept apart, not replaced: when BRLTTY resumes and
    passes on the Enter, `resolve` is sent, and the win recorded."""

    async def scenario():
        app, link, display_server = braille_app.app, braille_app.link, braille_app.server
        async with app.run_test(size=(100, 40)) as pilot:
            await bens_turn(pilot, app)
            await pilot.press(*"play ginormous unicorn", "enter")
            display_server.type("resolve")
            await until(pilot, lambda: link.view.input.text == "resolve", "resolve typed on the display")
            os.kill(display_server.process.pid, signal.SIGSTOP)
            try:
                display_server.press("enter")  # kept by the stopped BRLTTY
                answered = len(app.replies)
                await pilot.press(*"tally", "enter")
                await until(pilot, lambda: len(app.replies) > answered, "tally answered")
                assert app.session.game.state.outcome is None
                assert link.view.input.text == "resolve"  # kept apart, typed again
            finally:
                os.kill(display_server.process.pid, signal.SIGCONT)
            await until(pilot, lambda: app.session.game.state.outcome is not None, "resolve sent: the win")

    asyncio.run(scenario())


def test_after_an_outage_the_display_shows_the_current_turn_not_one_newer_moves_overtook(braille_app):
    """Her turn ends on the keyboard ("Ben's turn." held); BRLTTY stops; Ben's phone draws and ends his turn. When
    BRLTTY resumes, the first window is the present, "cy's turn.", never the overtaken "ben's turn." (which is no
    longer held); Ben's moves still wait, to be read whole."""
    from assistant.core.language.device import DeviceMove

    async def scenario():
        app, link, shown = braille_app.app, braille_app.link, braille_app.shown
        async with app.run_test(size=(100, 40)) as pilot:
            await bens_turn_held(pilot, braille_app)
            async with away(pilot, braille_app):
                for move in (DeviceMove("draw"), DeviceMove("end")):
                    app.run_worker(app.share.link.submit("Ben", move))
                await until(pilot, lambda: app.session.game.state.current == 2, "Cy's turn, from Ben's phone")
            await until(pilot, lambda: shown().startswith("cy's turn"), "the current turn first")
            assert not any(line.text.startswith("Ben's turn") for line in link.view.held)
            assert link.view.waiting  # Ben's moves, to be read whole

    asyncio.run(scenario())


def test_the_notice_that_the_display_is_back_is_never_pushed_away_unseen(braille_app):
    """Ben wins while BRLTTY is stopped; when it resumes the win is held first, the notice "The braille display is
    back…" under it. Once the half second has passed, `tally` typed on the keyboard acknowledges the win and its
    answer takes the display: the notice, never shown, waits unread (counted), and the next-unread key reads it."""
    from assistant.braille.display import KEPT_KEYS_PAUSE
    from assistant.core.braille.display import Key, Press

    async def scenario():
        app, link, shown = braille_app.app, braille_app.link, braille_app.shown
        braille_app.stand_still()  # the display's clock (`KEPT_KEYS_PAUSE`), the test's own
        async with app.run_test(size=(100, 40)) as pilot:
            await win_while_stopped(pilot, braille_app)
            await until(pilot, lambda: shown().startswith("ben wins!"), "the win shown first")
            await until(pilot, lambda: link.view.held.read, "BRLTTY answered after the win")
            braille_app.advance(KEPT_KEYS_PAUSE)
            answered = len(app.replies)
            await pilot.press(*"tally", "enter")
            await until(pilot, lambda: len(app.replies) > answered, "tally answered")
            assert "Ben wins!" in link.acknowledged
            notice = [
                line.startswith("The braille display is back") for move in link.view.waiting for line in move.lines
            ]
            assert any(notice), link.view.waiting
            with link.lock:
                link.press(Press(Key.NEXT_UNREAD))
            await until(pilot, lambda: shown().startswith("the braille display is back"), "the notice read")

    asyncio.run(scenario())


def test_f8_after_an_outage_never_says_the_held_win_twice_nor_the_moves_it_told_again(braille_app):
    """Her turn ends ("Ben's turn." held); BRLTTY stops; Ben's phone draws, plays his Ginormous Unicorn and wins.
    BRLTTY resumes: the win is held first. F8: every window read from there (pan right, on through the moves still
    waiting, to the end) says "ben wins" once, the digest's first; the moves it told no longer wait; the display's
    notices still do. (Before: the win held over the digest, the digest, then Ben's winning move again: three times
    in six windows.)"""
    from assistant.braille.display import KEPT_KEYS_PAUSE
    from assistant.core.language.device import DeviceMove

    async def scenario():
        app, link, shown = braille_app.app, braille_app.link, braille_app.shown
        braille_app.stand_still()  # the display's clock (`KEPT_KEYS_PAUSE`), the test's own
        async with app.run_test(size=(100, 40)) as pilot:
            await bens_turn_held(pilot, braille_app)
            async with away(pilot, braille_app):
                for move in (DeviceMove("draw"), DeviceMove("play", card="ginormous-unicorn"),
                             DeviceMove("resolve", on="ginormous-unicorn")):  # fmt: skip
                    app.run_worker(app.share.link.submit("Ben", move))
                    await pilot.pause(0.4)  # (a hand's pace)
                await until(pilot, lambda: app.session.game.state.outcome is not None, "Ben wins, from his phone")
            await until(pilot, lambda: shown().startswith("ben wins!"), "the win held first")
            braille_app.advance(KEPT_KEYS_PAUSE)  # (the display's keys move it again)
            answered = len(app.replies)
            await pilot.press("f8")
            await until(pilot, lambda: len(app.replies) > answered, "F8 answered")
            digest = app.replies[-1].lines[0].lower()
            await until(pilot, lambda: digest.startswith(shown()) or shown() == "ben wins!", "F8 drawn")
            windows = [shown()]
            for _ in range(30):  # (bounded: pan right to the last window of the last thing waiting)
                if not link.view.held and not link.view.waiting and at_the_end(link.view):
                    break
                previous = shown()
                braille_app.server.press("pan right")
                await until(pilot, lambda previous=previous: shown() != previous, "panned on")
                windows.append(shown())
            assert sum("ben wins" in window for window in windows) == 1, windows
            assert any(window.startswith("the braille display is back") for window in windows), windows
            assert windows[0] == digest and "ben drew a card." not in windows, windows  # (Ben's moves, told)

    asyncio.run(scenario())


def test_the_notice_that_the_display_stopped_is_not_left_waiting_behind_the_notice_that_it_is_back(braille_app):
    """BRLTTY stops mid-game ("The braille display stopped answering…" is shown on screen and waits on the display,
    which cannot show it); when it resumes she sees the present: "The braille display is back…" says it all, and
    the stopped notice is overtaken, not left waiting behind it (before: the next-unread key read the stale "stopped
    answering" after "is back"). Every window read from there, to the end of what waits, never says it stopped."""
    from assistant.core.words.entry import braille_display_lost

    async def scenario():
        app, link, shown, display_server = braille_app.app, braille_app.link, braille_app.shown, braille_app.server
        async with app.run_test(size=(100, 40)) as pilot:
            await bens_turn(pilot, app)
            async with away(pilot, braille_app):
                await pilot.press(*"tally", "enter")
            assert any(reply.lines[0] == braille_display_lost() for reply in app.replies)  # said on screen
            stale = [move for move in link.view.waiting if move.lines and move.lines[0] == braille_display_lost()]
            assert not stale, link.view.waiting
            # (BRLTTY draws what it is sent a moment after it answers again: the display's news, as it comes)
            await until(pilot, lambda: shown().startswith("the braille display is back"), "the return on the display")
            windows = [shown()]
            for _ in range(30):  # (bounded: on through everything held and waiting)
                if not link.view.held and not link.view.waiting:
                    break
                previous = shown()
                display_server.press("next unread")
                await until(pilot, lambda previous=previous: shown() != previous, "read on")
                windows.append(shown())
            assert not any("stopped answering" in window for window in windows), windows

    asyncio.run(scenario())
