"""No key is eaten: a one-key answer never costs the first letter of a command typed after it, a fact held on the
braille display never costs a key (the key that acknowledges it is typed too), the display follows the computer
keyboard's typing with its cursor at the typing point, and the display is written once per command (a real BRLTTY
for the display)."""

from __future__ import annotations

import asyncio
import time
from argparse import Namespace

import pytest

from assistant.commands.app import make_session
from assistant.core.braille import celltable


@pytest.mark.parametrize(
    "key, typed, sent",
    [
        ("n", "ew game Cy Dee", "new game Cy Dee"),  # the command the player was typing
        ("n", "eigh Ben", "neigh Ben"),
        ("n", "end turn", "end turn"),  # a command of its own: the key was the answer
        ("y", "draw", "draw"),
        ("y", "ay", "yay"),  # a card's exact name
        ("n", "", ""),
        ("", "ew game", "ew game"),  # no key answered just before
    ],
)
def test_the_key_that_answered_is_put_back_when_it_began_the_command(private_home, key, typed, sent):
    from assistant.ui.one_key import line_after_answer

    session = make_session(Namespace(deck="uu-2nd", addon=[]))
    session.handle("new game Ana Ben Cy")
    assert line_after_answer(session, key, typed) == sent


def test_a_command_typed_at_the_resume_offer_keeps_its_first_letter(make_app):
    async def start():
        app = make_app(None)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"new game Ana Ben", "enter")
            await pilot.pause()
            assert app.session.game is not None

    async def come_back():
        app = make_app(None)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert "Say yes to continue it" in app.heading
            await pilot.press(*"new game Cy Dee", "enter")
            await pilot.pause()
            assert app.session.game is not None and app.session.game.setup.players == ("Cy", "Dee")
            assert not any("No card called" in line for reply in app.replies for line in reply.lines)

    asyncio.run(start())
    asyncio.run(come_back())


def test_a_command_typed_at_a_yes_or_no_question_keeps_its_first_letter(make_app):
    async def scenario():
        app = make_app(None)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"new game Ana Ben babies red pink", "enter")
            await pilot.press(*"Ben play yay", "enter")
            await pilot.pause()
            assert app.session.pending is not None  # "Record it anyway?"
            await pilot.press(*"new game Cy Dee", "enter")  # n answers no at once; the rest is still the command
            await pilot.pause()
            assert app.session.game.setup.players == ("Cy", "Dee")
            said = [line for reply in app.replies[-2:] for line in reply.lines]
            assert "Not recorded." in said and not any("No card called" in line for line in said), said

    asyncio.run(scenario())


def test_quit_typed_on_the_keyboard_ends_the_app(make_app):
    async def scenario():
        app = make_app(None)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"quit", "enter")
            await pilot.pause()
            assert not any("No card called quit" in line for reply in app.replies for line in reply.lines)
        return app

    app = asyncio.run(scenario())
    assert app.return_code == 0  # exited (None while it runs)


# The braille display (a real BRLTTY).

brlapi = pytest.importorskip("brlapi")
from brltty_fixture import BRLTTY  # noqa: E402

from tests.ui.test_braille_display_phones import reading, written_rows  # noqa: E402

needs_brltty = pytest.mark.skipif(BRLTTY is None, reason="BRLTTY is not installed")


async def until(pilot, condition, what: str, timeout: float = 60.0) -> None:
    """Let the app run until `condition()` holds (bounded: an AssertionError naming `what` after `timeout`)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        await pilot.pause(0.02)


@needs_brltty
def test_a_line_sent_from_the_keyboard_acknowledges_a_held_fact_and_the_display_follows_its_typing(
    display_server, make_app
):
    async def scenario():
        app = make_app(None, "--braille-display", "--no-speech")
        link = app.braille
        assert link is not None
        written = written_rows(link)
        shown = lambda: reading(display_server.cells(), link.view.status_cells)  # noqa: E731
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"new game Ana Ben Cy babies red pink narwhal", "enter")
            await pilot.press(*"draw", "enter")
            await pilot.press(*"end turn", "enter")
            await until(pilot, lambda: shown().startswith("ben's turn"), "the turn is held on the display")
            assert link.view.held and display_server.cells()[2] == celltable.cell([2, 3, 5])  # the held mark
            await pilot.press("d")  # typed on the keyboard: shown over the fact, which it does not acknowledge
            await until(pilot, lambda: shown() == "d", "the display follows the keyboard's typing")
            await pilot.press(*"raw")
            await until(pilot, lambda: shown() == "draw", "the display follows the keyboard's typing")
            assert display_server.cursor() == 4 + 4  # the cursor (dots 7 and 8) at the typing point, after "draw"
            assert link.acknowledged == [] and link.view.held  # no character acknowledged it
            written.clear()
            await pilot.press("enter")  # the line sent acknowledges it
            await until(pilot, lambda: shown().startswith("ben drew a card"), "the reply on the display")
            assert link.acknowledged == ["Ben's turn."]
            assert app.session.game.log[-1].__class__.__name__ == "Draw"
            assert written and all(window.startswith("ben drew a card") for window in written), written
            # typed on the display: the old answer is never written between Enter and the reply
            display_server.type("tally")
            await until(pilot, lambda: shown() == "tally", "typed on the display")
            written.clear()
            display_server.press("enter")
            await until(pilot, lambda: not shown().startswith("ben drew") and shown() != "tally", "the reply")
            assert all(not window.startswith("ben drew") and window != "tally" for window in written), written

    asyncio.run(scenario())


@needs_brltty
def test_quit_typed_on_the_display_ends_the_app(display_server, make_app):
    async def scenario():
        app = make_app(None, "--braille-display", "--no-speech")
        async with app.run_test(size=(100, 40)) as pilot:
            display_server.type("quit")
            await until(pilot, lambda: app.braille.view.input.text == "quit", "typed on the display")
            display_server.press("enter")
            await until(pilot, lambda: app.return_code is not None, "the app ends")
        return app

    app = asyncio.run(scenario())
    assert app.return_code == 0
    assert not any("No card called" in line for reply in app.replies for line in reply.lines)
