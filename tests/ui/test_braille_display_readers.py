"""The deaf-blind game of `test_braille_display_play.py` played by two other readers, to the win with no key lost
(a real BRLTTY; every wait is for a state, bounded): one who reads only the first window of each reply and types
the next command at once on the display (held facts are never acknowledged on purpose: the line sent does it), and
one who types on the computer's keyboard and reads the display."""

from __future__ import annotations

import asyncio

import pytest
from brltty_fixture import BRLTTY

from assistant.core.game import events as ev
from tests.ui.braille_app import reading, until

pytest.importorskip("brlapi")
pytestmark = pytest.mark.skipif(BRLTTY is None, reason="BRLTTY is not installed")

#: The game to the win, each command with the start of the first window it must bring (a held fact first).
GAME = [
    ("new game Ana Ben Cy babies red pink narwhal win 3", "new game: ana, ben and cy"),
    ("draw", "ana drew a card."),
    ("end turn", "ben's turn."),
    ("draw", "ben drew a card."),
    ("play ginormous unicorn", "ben played ginormous unicorn."),
    ("resolve", "ben wins!"),  # the held win first: short, the count in the answer
]
#: The facts held on the way: the turn, acknowledged by the next command sent; the win, held at the end.
TURN, WIN = "Ben's turn.", "Ben wins!"


def recording(app) -> list[str]:
    """Every line the session is given, in order (the real session, its lines kept)."""
    lines: list[str] = []
    handle = app.session.handle

    def kept(line: str):
        lines.append(line)
        return handle(line)

    app.session.handle = kept
    return lines


def the_win(app) -> None:
    game = app.session.game
    assert game is not None and game.state.outcome is not None
    plays = [event for event in game.log if isinstance(event, ev.Play)]
    assert [(event.player, event.card) for event in plays] == [(1, "ginormous-unicorn")]


@pytest.mark.parametrize("display_server", [40, 20], indirect=True)
def test_a_reader_of_the_first_window_only_types_on_and_loses_no_key(braille_app):
    async def scenario():
        app, link, display_server = braille_app.app, braille_app.link, braille_app.server
        status = link.view.status_cells
        given = recording(app)
        async with app.run_test() as pilot:
            for number, (line, first) in enumerate(GAME, start=1):
                display_server.type(line)  # at once, whatever is held
                await until(pilot, lambda line=line: link.view.input.text == line, f"{line!r} typed whole")
                display_server.press("enter")
                await until(pilot, lambda number=number: len(given) == number, f"{line!r} sent")
                await until(
                    pilot,
                    lambda first=first: first.startswith(reading(display_server.cells(), status)[:12]),
                    f"the first window after {line!r}: {reading(display_server.cells(), status)!r}",
                )
        assert given == [line for line, _first in GAME]  # every key typed arrived: 0 lost
        assert link.acknowledged == [TURN]  # acknowledged by the line typed over it, when sent
        assert [fact.text for fact in link.view.held] == [WIN]  # the win stays until the player goes on
        the_win(app)

    asyncio.run(scenario())


@pytest.mark.parametrize("display_server", [40], indirect=True)
def test_a_player_typing_on_the_computer_keyboard_reads_the_display_and_loses_no_key(braille_app):
    async def scenario():
        app, link, display_server = braille_app.app, braille_app.link, braille_app.server
        status = link.view.status_cells
        given = recording(app)
        async with app.run_test() as pilot:
            for line, first in GAME:
                count = len(given)
                await pilot.press(*line, "enter")
                await until(pilot, lambda count=count: len(given) > count, f"{line!r} sent")
                await until(
                    pilot,
                    lambda first=first: first.startswith(reading(display_server.cells(), status)[:12]),
                    f"the display after {line!r}",
                )
        assert given == [line for line, _first in GAME]
        assert not any("No card called" in text for reply in app.replies for text in reply.lines)
        assert link.acknowledged == [TURN]  # the keyboard's line sent acknowledged it: the display never froze
        assert [fact.text for fact in link.view.held] == [WIN]
        the_win(app)

    asyncio.run(scenario())


@pytest.mark.parametrize("display_server", [12, 14, 20], indirect=True)
def test_on_a_small_display_a_warnings_first_window_is_its_question_and_the_question_is_marked(braille_app):
    """At 12 to 20 cells the first window holds two or three words: a warning's begins with its question, "record?",
    then whose move it is about (before: "ana has not", no question in it); the one status cell is the question
    mark while it is open."""
    from assistant.core.braille.display import QUESTION_CELL

    async def scenario():
        app, link, shown, display_server = braille_app.app, braille_app.link, braille_app.shown, braille_app.server
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"new game Ana Ben Cy babies red pink narwhal", "enter")
            await until(pilot, lambda: app.session.game is not None, "the game")
            await pilot.press(*"end turn", "enter")  # Ana has not drawn: a warning, its question open
            await until(pilot, lambda: app.session.pending is not None, "the warning asked")
            held = link.view.held[0].text.lower()
            await until(pilot, lambda: shown() != "" and held.startswith(shown()), "the warning on the display")
            assert shown().startswith("record? ana"), shown()  # (before: "ana has not")
            assert display_server.cells()[0] == QUESTION_CELL  # the open question marked

    asyncio.run(scenario())


@pytest.mark.parametrize("display_server", [12, 14, 20], indirect=True)
def test_on_a_small_display_a_save_offered_and_a_which_card_question_lead_with_who_asks(braille_app):
    """At 12 to 20 cells the first window holds two or three words: a save offered begins "ben: save" (before: "ben
    may save", no question in it), a "which card" question "ana: which" (before: "which card is", for nobody); the
    numbered cards are in the fact held (nothing to choose from is lost), and the one status cell marks the open
    question (a number sign for the numbered choice)."""
    from assistant.core.braille.display import CHOICE_CELL, QUESTION_CELL

    async def scenario():
        app, link, shown, display_server = braille_app.app, braille_app.link, braille_app.shown, braille_app.server

        async def asked(line: str, first: str, mark: str) -> str:
            await pilot.press(*line, "enter")
            await until(pilot, lambda: app.session.pending is not None, f"{line!r} asks")
            held = link.view.held[0].text.lower()
            await until(pilot, lambda: shown() != "" and held.startswith(shown()), f"{line!r} on the display")
            assert shown().startswith(first), shown()
            assert display_server.cells()[0] == mark  # the open question marked
            return held

        async with app.run_test(size=(100, 40)) as pilot:
            for line in ("new game Ana Ben Cy babies red pink narwhal", "bring black knight unicorn into Ben",
                         "bring basic red into Ben", "draw", "play unicorn poison", "resolve"):  # fmt: skip
                await pilot.press(*line, "enter")
            await until(pilot, lambda: len(app.session.game.log) >= 5, "Unicorn Poison resolved")
            held = await asked("destroy basic red from Ben", "ben: save", QUESTION_CELL)  # (before: "ben may save")
            assert "black knight unicorn" in held and "say yes" in held
            await pilot.press(*"no", "enter")
            await until(pilot, lambda: app.session.pending is None, "the save refused")
            held = await asked("play rainbow", "ana: which", CHOICE_CELL)  # (before: "which card is")
            assert "1 baby unicorn (rainbow)" in held and "4 rainbow lasso" in held

    asyncio.run(scenario())


class WaitingPhone:
    """The server's side of a phone that waits to be let in (`JoinDecision`): only whether it still waits."""

    def __init__(self) -> None:
        self.answer: bool | None = None

    def waits(self) -> bool:
        return self.answer is None

    def decide(self, allow: bool) -> bool:
        self.answer = allow
        return True

    def code(self) -> str:
        return "123456"


@pytest.mark.parametrize("display_server", [12, 14, 20], indirect=True)
def test_on_a_small_display_a_join_questions_first_window_says_for_whom(braille_app):
    """A second phone asks to record for Ben: at 12 to 20 cells its first window begins "ben: new" (before: "a new
    phone", for nobody), and the one status cell marks a question open."""
    from assistant.core.braille.display import QUESTION_CELL
    from assistant.core.language.device import DeviceJoined

    async def scenario():
        app, link, shown, display_server = braille_app.app, braille_app.link, braille_app.shown, braille_app.server
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"new game Ana Ben Cy babies red pink narwhal", "enter")
            await until(pilot, lambda: shown().startswith("new game"), "the game on the display")
            app.run_worker(app.share.link.submit("Ben", DeviceJoined(2, WaitingPhone())))
            await until(pilot, lambda: "asks to record for Ben" in " ".join(app.replies[-1].lines), "asked")
            await until(pilot, lambda: link.view.waiting, "the question waits behind the answer read")
            display_server.press("next unread")
            await until(pilot, lambda: not shown().startswith("new game"), "the question on the display")
            assert shown().startswith("ben: new"), shown()
            assert display_server.cells()[0] == QUESTION_CELL  # the open question marked

    asyncio.run(scenario())
