"""F8 in the Textual app (Pilot): what other hands did since the player's last move, shown and said, as the line
`missed` says it."""

from __future__ import annotations

import asyncio

from assistant.core.language.device import DeviceMove
from assistant.core.words.pace import DIGEST_GOES_ON, DIGEST_HEADING, DIGEST_WORDS, MORE_MISSED, NOTHING_MISSED
from tests.fake_speaker import Heard
from tests.ui.on_screen import text


def test_f8_says_what_other_hands_did_since_her_last_move(make_app):
    said: list[str] = []
    app = make_app(Heard(lambda reply: said.append(reply.speech)))

    async def scenario() -> None:
        async with app.run_test(size=(110, 50)) as pilot:
            await pilot.press(*"new game Ana Ben Cy babies red pink orange", "enter")
            await pilot.press(*"draw", "enter", *"end turn", "enter")
            await pilot.pause()
            await pilot.press("f8")
            await pilot.pause()
            assert text(app, "answer") == NOTHING_MISSED
            app.session.phone_desk.device_move("Ben", DeviceMove("draw"))
            app.session.phone_desk.device_move("Ben", DeviceMove("play", card="basic-unicorn-blue"))
            await pilot.press("f8")
            await pilot.pause()
            digest = "Since your last move: Ben drew a card and played Basic Unicorn (Blue)."
            assert text(app, "answer") == digest
            assert said[-1] == digest

    asyncio.run(scenario())


def test_f8_says_a_long_digest_in_parts_the_rest_on_the_next_f8(make_app):
    said: list[str] = []
    app = make_app(Heard(lambda reply: said.append(reply.speech)))

    async def scenario() -> None:
        async with app.run_test(size=(110, 50)) as pilot:
            await pilot.press(*"new game Ana Ben Cy babies red pink orange", "enter")
            await pilot.press(*"draw", "enter", *"end turn", "enter")
            await pilot.pause()
            for player in ("Ben", "Cy"):
                for move in ("draw", "play", "resolve", "end"):
                    card = "basic-unicorn-blue" if move == "play" else None
                    assert app.session.phone_desk.device_move(player, DeviceMove(move, card=card)).status == "recorded"
            await pilot.press("f8")
            await pilot.pause()
            first = said[-1]
            assert first.startswith(f"{DIGEST_HEADING} Ana's turn.") and first.endswith(MORE_MISSED), first
            assert len(first.split()) <= DIGEST_WORDS
            assert text(app, "answer").splitlines()[-1] == MORE_MISSED  # a sentence a line (a braille display's too)
            await pilot.press("f8")
            await pilot.pause()
            assert said[-1].startswith(DIGEST_GOES_ON) and "Cy" in said[-1], said[-1]

    asyncio.run(scenario())
