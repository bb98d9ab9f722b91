"""A whole game played on a braille display alone: a real BRLTTY draws a TTY braille display on a pseudo-terminal,
the app runs with `--braille-display --no-speech`, and the test types only on the display's keys and reads only
the display's cells (read back to print with liblouis, as a braille reader reads them). The plain mode shows each
answer on the display too."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from brltty_fixture import BRLTTY, SLOW, Brltty, all_shown

from assistant.braille.translate import Translator
from assistant.core.braille import celltable
from assistant.ui.braille_display import NARROW_CELLS

pytest.importorskip("brlapi")
pytestmark = pytest.mark.skipif(BRLTTY is None, reason="BRLTTY is not installed")

TRANSLATOR = Translator()
NEW_GAME = "new game Ana Ben Cy babies red pink narwhal win 3"
TURN_2 = "Turn 2: Ben's turn."
HELD_TURN_2 = "Ben's turn."  # the turn's decisive fact, held on the display (the number is in the status cells)
WIN = "Ben wins!"
CARD_END = "you cannot play neigh cards."
#: Seconds to wait for what the display or the app must do before the test calls it lost: every wait ends as soon
#: as the display or the app has done it, so this only bounds a failure (a busy machine takes longer, never fails).
TIMEOUT = SLOW


def reading(cells: str, status_cells: int) -> str:
    """What a window of cells reads as in print (lower case, as the display writes it; status cells left out)."""
    text = TRANSLATOR.from_cells(cells[status_cells:].rstrip(celltable.BLANK)) or ""
    return text.replace("\u2019", "'")


class Player:
    """A deaf-blind player at the display: types on its keys, reads its cells, waits while the app answers."""

    def __init__(self, server: Brltty, pilot, status_cells: int):
        self.server = server
        self.pilot = pilot
        self.status_cells = status_cells

    def read(self) -> str:
        return reading(self.server.cells(), self.status_cells)

    async def until(self, condition, timeout: float = TIMEOUT) -> str:
        """Wait (letting the app run) until what the display reads meets `condition` (the timeout is only for a
        display that never does: however busy the machine, the test goes on as soon as it does)."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.read()
            if condition(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"the display reads {text!r}")
            await self.pilot.pause(0.02)

    async def shows(self, expected: str) -> str:
        """Wait until the display's window is the start of `expected` (lower case), and return it."""
        wanted = expected.lower()
        return await self.until(
            lambda text: len(text) >= min(8, len(wanted)) and (wanted.startswith(text) or text.startswith(wanted))
        )

    async def command(self, line: str) -> None:
        """Type a line on the display's keyboard and press Enter."""
        self.server.type(line)
        await self.until(lambda text: line.lower().endswith(text[-6:]) if text else False)
        self.server.press("enter")

    async def key(self, name: str) -> str:
        """Press a key that moves the display (a line or a region on), and wait until it has moved: what it reads."""
        before = self.read()
        self.server.press(name)
        return await self.until(lambda text: text != before)

    async def pan_to(self, stop: str, limit: int = 30) -> list[str]:
        """Pan right until the display reads `stop`; every window read."""
        windows = [self.read()]
        for _ in range(limit):
            self.server.press("pan right")
            windows.append(await self.until(lambda text, seen=windows[-1]: text != seen))
            if windows[-1] == stop:
                return windows
        raise AssertionError(f"panning never reached {stop!r}: {windows}")

    async def held(self, fact: str, link) -> None:
        """A decisive fact is shown first and stays through panning and waiting, until a key acknowledges it."""
        wanted = fact.lower()
        first = await self.shows(wanted)
        windows = [first]
        while len("".join(windows).replace(" ", "")) < len(wanted.replace(" ", "")):
            self.server.press("pan right")
            windows.append(await self.until(lambda text, seen=windows[-1]: text != seen))
        assert "".join(windows).replace(" ", "") == wanted.replace(" ", "")
        await all_shown(self.pilot, self.server, link, TIMEOUT)  # read, and whatever the app does then done
        assert self.read() == windows[-1]  # still there
        for _ in windows[1:]:
            self.server.press("pan left")
        await self.until(lambda text: text == first)
        assert link.acknowledged[-1:] != [fact]
        self.server.press("enter")  # the acknowledging key
        deadline = time.monotonic() + TIMEOUT
        while link.acknowledged[-1:] != [fact]:
            assert time.monotonic() < deadline, "the held fact was never acknowledged"
            await self.pilot.pause(0.02)


@pytest.mark.parametrize("display_server", [40, 20], indirect=True)
def test_a_whole_game_on_the_braille_display_with_no_speech(display_server, make_app):
    asyncio.run(_whole_game(display_server, make_app))


async def _whole_game(display_server, make_app):
    app = make_app(None, "--braille-display", "--no-speech")
    assert app.braille is not None
    link = app.braille
    status_cells = link.view.status_cells
    assert status_cells == (4 if display_server.width == 40 else 1)  # 1: the unread count alone
    async with app.run_test() as pilot:
        player = Player(display_server, pilot, status_cells)
        await player.command(NEW_GAME)
        await player.shows("New game: Ana, Ben and Cy, clockwise.")
        # The status cells: Ana's turn (a), the Beginning of turn phase (b), no question.
        if status_cells == 4:
            await player.until(lambda _text: display_server.cells()[:2] == celltable.to_cells("ab"))
        for _ in range(3):  # the rest of the answer, line by line
            shown = await player.key("line down")
        assert shown and "turn 1: ana goes first.".startswith(shown)
        await player.command("draw")
        await player.shows("Ana drew a card.")
        await player.command("end turn")
        await player.held(HELD_TURN_2, link)
        await player.command("draw")
        await player.shows("Ben drew a card.")
        # Whose turn and what phase, by the display's own key.
        display_server.press("where")
        await player.shows("Turn 2, Ben's Action phase.")
        display_server.press("help")  # the display's keys, on the display
        await player.shows("Braille display keys: pan left and right read a line on.")
        # A card's full text, panned to its end.
        await player.command("ginormous unicorn")
        await player.shows("Ginormous Unicorn")
        for _ in range(3):
            await player.key("line down")
        await player.until(lambda text: text.startswith("this card counts"))
        windows = await player.pan_to("pile and chain:")
        after = windows.index("pile and chain:")  # panning on past a line's end goes on to the next line
        assert "".join(windows[:after]).replace(" ", "").endswith(CARD_END.replace(" ", ""))
        assert len(windows[:after]) >= 2
        # The Stables, by the line keys: the next regions after the answer.
        await player.key("region next")
        await player.until(lambda text: text.startswith("stables"))
        await player.key("line down")
        await player.until(lambda text: text.startswith("ana"))
        await player.command("draw")
        await player.shows("Ben drew a card.")
        await player.command("play ginormous unicorn")
        narrow = app.braille.view.text_width <= NARROW_CELLS  # (a small display: the question first)
        await player.shows(
            "Record? Ben already played or drew." if narrow else "Ben already played or drew. Record anyway?"
        )
        question = app.session.pending
        assert question is not None
        fact = app.replies[-1].decisive
        assert fact.endswith("Record anyway?") and app.replies[-1].speech.startswith(f"{fact} Ben has already")
        if status_cells == 4:
            assert display_server.cells()[2] == celltable.cell([2, 3, 6])  # the question mark
        held = link.view.held[0].text if narrow else fact  # (its words for a small display)
        await player.held(held, link)
        await player.command("yes")
        await player.shows("Ben played Ginormous Unicorn.")
        await player.command("resolve")
        await player.held(WIN, link)
        # the answer: the win again only for the count the held fact left out
        await player.shows("Ben wins with 3 Unicorns! The game is over.")
    assert link.acknowledged == [HELD_TURN_2, held, WIN]
    game = app.session.game
    assert game is not None and game.state.outcome is not None


def starts(text: str, cells: str, status: int) -> bool:
    """The display's window is the start of `text` (all of it when it fits)."""
    shown = reading(cells, status)
    return len(shown) >= min(5, len(text)) and text.lower().startswith(shown)


@pytest.mark.parametrize("width", [40, 14, 80])
def test_the_plain_mode_shows_each_answer_on_the_display(tmp_path, width):
    server = Brltty(tmp_path / "brltty", width=width)
    env = {**os.environ, "BRLAPI_HOST": server.host, "BRLAPI_AUTH": server.auth}
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant", "--plain", "--braille-display", "--no-speech"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdin is not None
        process.stdin.write(f"{NEW_GAME}\ndraw\n")
        process.stdin.flush()
        status = 4 if width >= 40 else 1
        server.wait_for(lambda cells: starts("Ana drew a card.", cells, status), timeout=TIMEOUT)
        server.type("end turn")  # typed on the display: answered like a line, printed and shown
        server.press("enter")
        server.wait_for(lambda cells: starts(HELD_TURN_2, cells, status), timeout=TIMEOUT)
        server.press("enter")  # acknowledged: the display reads on from the fact it held
        server.wait_for(lambda cells: not starts(HELD_TURN_2, cells, status), timeout=TIMEOUT)
        process.stdin.write("draw\n")
        process.stdin.flush()
        server.wait_for(lambda cells: starts("Ben drew a card.", cells, status), timeout=TIMEOUT)
        out, err = process.communicate(input="", timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
        server.stop()
    assert process.returncode == 0, err
    lines = out.splitlines()
    assert TURN_2 in lines
    assert lines.index(TURN_2) < lines.index("Ben drew a card.")
    assert "Traceback" not in err


def test_no_brltty_is_said_once_at_start(make_app, monkeypatch):
    from brltty_fixture import free_offset

    monkeypatch.setenv("BRLAPI_HOST", f"127.0.0.1:{free_offset()}")
    app = make_app(None, "--braille-display", "--no-speech")
    assert app.braille is not None and app.braille.missed is not None  # looked for until one answers
    assert app.heading.count("No braille display answered at 127.0.0.1:") == 1


@pytest.mark.parametrize("display_server", [40], indirect=True)
def test_speech_and_contracted_braille_say_the_same_at_the_same_time(display_server, make_app):
    """With speech on and grade 2 chosen, each reply heard is the reply on the display, in contracted braille."""
    from fake_speaker import Heard

    from assistant.braille.translate import Grade

    heard = []
    app = make_app(Heard(heard.append), "--braille-display", "--braille-grade", "2")
    link = app.braille
    assert link is not None

    def shown() -> str:
        return display_server.cells()[link.view.status_cells :].rstrip(celltable.BLANK)

    async def scenario() -> None:
        async with app.run_test() as pilot:
            player = Player(display_server, pilot, link.view.status_cells)
            for line in (NEW_GAME, "draw", "tally"):
                count = len(heard)
                display_server.type(line)
                display_server.press("enter")
                deadline = time.monotonic() + TIMEOUT
                while len(heard) == count:
                    assert time.monotonic() < deadline, "nothing was said"
                    await pilot.pause(0.02)
                first = heard[-1].lines[0]
                contracted = TRANSLATOR.to_cells(first, Grade.CONTRACTED) or ""
                assert contracted != TRANSLATOR.to_cells(first, Grade.UNCONTRACTED)
                await player.until(lambda _text, cells=contracted: bool(shown()) and cells.startswith(shown()))

    asyncio.run(scenario())


@pytest.mark.parametrize("display_server", [20], indirect=True)
def test_the_settings_choose_the_display_without_the_flag(display_server, make_app):
    from assistant.core.speech.settings import SpeechSettings, parse_settings
    from assistant.storage.settings import save_settings

    with pytest.raises(ValueError, match="braille_grade must be 1 or 2"):
        parse_settings("[speech]\nbraille_grade = 3\n")
    save_settings(SpeechSettings(braille_display=True, braille_six_key=True))
    app = make_app(None, "--no-speech")
    link = app.braille
    assert link is not None and link.view.width == 20 and link.view.input.six_key is not None

    async def scenario() -> None:
        async with app.run_test() as pilot:
            player = Player(display_server, pilot, link.view.status_cells)
            display_server.type("fj ")  # dots 1 4, then Space: the cell c
            await player.until(lambda text: text == "c")
            display_server.press("backspace")
            display_server.type("fsjk fk dj fdjk fdk ")  # n e i g h, a cell at a time
            await player.until(lambda text: text == "neigh")
            display_server.press("enter")
            deadline = time.monotonic() + TIMEOUT
            while app.replies[-1].card is None:
                assert time.monotonic() < deadline, "the cells typed were never sent"
                await pilot.pause(0.02)
            assert app.replies[-1].card.name == "Neigh"
            await player.until(lambda text: text == "neigh")  # the answer: the card's name first
            display_server.press("line down")
            await player.until(lambda text: text.startswith("type: instant"))

    asyncio.run(scenario())


@pytest.mark.parametrize("display_server", [40], indirect=True)
def test_a_routing_key_on_a_card_name_shows_its_text(display_server, make_app):
    """A routing key (which the TTY driver lacks) arrives as the reader thread posts it: a `DisplayPressed`."""
    from assistant.core.braille.display import Key, Press
    from assistant.ui.messages import DisplayPressed

    app = make_app(None, "--braille-display", "--no-speech")
    link = app.braille
    assert link is not None

    async def scenario() -> None:
        async with app.run_test() as pilot:
            player = Player(display_server, pilot, link.view.status_cells)
            await player.command("new game Ana Ben Cy babies red pink narwhal")
            await player.shows("New game")
            display_server.press("region next")  # the pile and chain
            display_server.press("region next")  # the Stables
            display_server.press("line down")
            await player.until(lambda text: text.startswith("ana") and "baby unicorn (red)" in text)
            name = TRANSLATOR.to_cells("baby unicorn (red)")
            assert name is not None
            first = display_server.cells().index(name)
            app.post_message(DisplayPressed(Press(Key.ROUTE, first + 2)))
            await player.until(lambda text: text == "baby unicorn (red)")
            assert app.replies[-1].card is not None and app.replies[-1].card.name == "Baby Unicorn (Red)"

    asyncio.run(scenario())


def test_the_plain_mode_says_once_that_no_brltty_answered(cli, monkeypatch):
    from brltty_fixture import free_offset

    host = f"127.0.0.1:{free_offset()}"
    monkeypatch.setenv("BRLAPI_HOST", host)
    result = cli("--plain", "--braille-display", stdin="tally\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(f"No braille display answered at {host}") == 1
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("display_server", [20], indirect=True)
def test_brltty_stopping_is_said_once_and_the_app_goes_on(display_server, make_app):
    from assistant.core.words.entry import braille_display_lost

    app = make_app(None, "--braille-display", "--no-speech")
    link = app.braille
    assert link is not None

    async def scenario() -> None:
        async with app.run_test() as pilot:
            display_server.stop()
            deadline = time.monotonic() + TIMEOUT
            while link.missed is None:  # (looked for again from then on: tests/adapters/test_braille_display_hangs.py)
                assert time.monotonic() < deadline, "the display's loss was never noticed"
                await pilot.pause(0.05)
            await pilot.press(*"tally", "enter")
            deadline = time.monotonic() + TIMEOUT
            while app.replies[-1].lines == (braille_display_lost(),):  # until the line typed is answered
                assert time.monotonic() < deadline, "the line typed was never answered"
                await pilot.pause(0.02)

    asyncio.run(scenario())
    said = [line for reply in app.replies for line in reply.lines]
    assert said.count(braille_display_lost()) == 1
    assert said[-1] != braille_display_lost()  # typed lines are still answered


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_real_app_in_a_terminal_plays_from_the_display(tmp_path, private_home):
    """The app as a player starts it, in a real terminal (tmux), with BRLTTY's display: what is typed on the
    display is answered on the screen and on the display, and nothing of BrlAPI reaches the screen."""
    from test_tmux import Terminal

    server = Brltty(tmp_path / "brltty", width=40)
    env = {
        "TABLE_ASSISTANT_HOME": str(private_home),
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        "BRLAPI_HOST": server.host,
        "BRLAPI_AUTH": server.auth,
    }
    term = Terminal([sys.executable, "-m", "assistant", "--braille-display", "--no-speech", "--no-camera"], env)
    try:
        term.wait_for("Table assistant")
        server.wait_for(lambda cells: reading(cells, 4).startswith("table assistant"), timeout=TIMEOUT)
        server.type(NEW_GAME)
        server.press("enter")
        term.wait_for("New game: Ana, Ben and Cy, clockwise.")
        server.wait_for(lambda cells: reading(cells, 4).startswith("new game: ana, ben and cy"), timeout=TIMEOUT)
        server.type("draw")  # the Draw phase's draw, before the turn may end
        server.press("enter")
        term.wait_for("Ana drew a card.")
        server.type("end turn")
        server.press("enter")
        term.wait_for(TURN_2)
        server.wait_for(lambda cells: reading(cells, 4) == HELD_TURN_2.lower(), timeout=TIMEOUT)
        screen = term.screen()
        assert "Traceback" not in screen and "brlapi" not in screen.lower()
    finally:
        term.close()
        server.stop()
