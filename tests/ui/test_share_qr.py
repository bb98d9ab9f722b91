"""Joining from any terminal: the QR code shown alone (F10) fits 80 x 24 and reads back; a terminal too small for it
is said; a new join code is shown and never said (nor printed to plain mode's screen reader) until she asks (the
80 x 24 terminal itself, in tmux: tests/ui/test_tmux.py)."""

from __future__ import annotations

import asyncio
import re
import time
from io import StringIO
from typing import Any

import pytest

from assistant.core.words.share import (
    CODE_READY,
    QR_BACK,
    QR_ONLY_IN_APP,
    QR_PUT_AWAY,
    QR_SHOWN,
    code_shown,
    qr_too_small,
)
from assistant.session import Session
from assistant.share import state as share_state
from assistant.share.guards import CODE_LIFETIME, JoinCode
from assistant.speech import SpeechService
from assistant.speech.replies import ReplySpeaker
from assistant.storage.decks import load_card_set
from assistant.ui.plain import run_plain
from assistant.ui.share_link import qr_text
from tests.fake_speaker import Heard
from tests.qr_reading import read_qr
from tests.recording_backend import RecordingBackend

PATIENCE = 60
SHARED = re.compile(r"shared at http://127\.0\.0\.1:\d+/\. The join code is (?P<code>[0-9 ]+)\.")


def text(app: Any, widget_id: str) -> str:
    return str(app.query_one(f"#{widget_id}").render())


async def shared(app: Any, pilot: Any) -> Any:
    """The app's server, once the worker that starts it as the app opens has started it."""
    for _ in range(400):
        if app.share.link.server is not None:
            return app.share.link.server
        await pilot.pause(0.05)
    raise AssertionError("the table was never shared")


class Clock:
    """The join codes' time, moved by hand."""

    now = 1000.0

    def __call__(self) -> float:
        return self.now


def codes_on_a_clock(monkeypatch: Any) -> Clock:
    """The server's join codes made on the test's clock, their age looked at every 20 ms."""
    clock = Clock()
    monkeypatch.setattr(share_state, "JoinCode", lambda _clock: JoinCode(clock))
    monkeypatch.setattr(share_state, "CODE_CHECK_S", 0.02)
    return clock


def test_f10_shows_the_qr_code_whole_on_80_by_24_and_a_line_typed_brings_the_table_back(make_app):
    heard: list[str] = []
    app = make_app(Heard(lambda reply: heard.append(reply.speech)), "--share", "127.0.0.1:0")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            server = await shared(app, pilot)
            await pilot.press("f10")
            await pilot.pause()
            assert heard[-1] == QR_SHOWN
            region = app.query_one("#share")
            lines = text(app, "share").splitlines()
            assert lines[-1] == QR_BACK and region.region.bottom <= 24 and region.region.right <= 80
            assert read_qr(lines[:-1]) == [server.join_url()]
            assert not app.query_one("#answer").region  # the table's regions are hidden while it is shown
            assert app.cursor_position.y == app.query_one("#prompt").region.y  # the cursor on the one text left
            await pilot.press("f10")  # F10 again: the table back
            await pilot.pause()
            assert heard[-1] == QR_PUT_AWAY and app.query_one("#answer").region and "▀" not in text(app, "share")
            await pilot.press("f10")
            await pilot.pause()
            await pilot.press(*"help", "enter")  # a line typed: the table back too, with the line's answer
            await pilot.pause()
            assert app.query_one("#answer").region and "▀" not in text(app, "share")
            assert text(app, "answer").startswith("Help") and app.cursor_position.y == app.query_one("#answer").region.y

    asyncio.run(asyncio.wait_for(scenario(), PATIENCE))


def test_a_terminal_too_small_for_the_qr_code_is_said_and_the_table_stays(make_app):
    heard: list[str] = []
    app = make_app(Heard(lambda reply: heard.append(reply.speech)), "--share", "127.0.0.1:0")

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            server = await shared(app, pilot)
            rows = len(qr_text(server.join_url()).splitlines())
            await pilot.press("f10")
            await pilot.pause()
            await pilot.resize_terminal(80, rows)  # made smaller while it is shown: the table comes back
            await pilot.pause()
            too_small = qr_too_small(len(qr_text(server.join_url()).splitlines()[0]), rows + 2, 80, rows)
            assert heard[-1] == too_small and text(app, "answer") == too_small
            assert app.query_one("#answer").region
            await pilot.press("f10")  # and F10 in it says so again, drawing nothing
            await pilot.pause()
            assert heard[-2:] == [too_small, too_small] and "▀" not in text(app, "share")

    asyncio.run(asyncio.wait_for(scenario(), PATIENCE))


#: Each route that says again what was said or shown, as keys pressed after a new join code was made: none says it.
ROUTES = {
    "made": [],
    "repeat": [*"repeat", "enter"],
    "history": [*"history", "enter"],
    "missed": [*"missed", "enter"],
    "f8": ["f8"],
    "f2": ["f2"],
    "f3": [*"yay", "enter", "f3"],
    "f4": [*"yay", "enter", "f3", "f3", "f4"],
    "page up": ["pageup"],
    "the answer region (Down, Up)": ["down", "up"],
    "the history region (Down to it)": [*"yay", "enter", "down", "down", "down"],
}


@pytest.mark.parametrize("route", list(ROUTES))
def test_a_join_code_grown_old_is_shown_and_never_said_by_any_route_until_she_asks(make_app, monkeypatch, route):
    """The new code is on the screen (the answer and the share region) and never in the speech transcript: not when
    made, not by `repeat`, `history`, `missed`, F2, F3, F4, F8, Page Up or the cursor moved to the answer region or
    to the history region (its line there, the reply's reader lines: `Part.PRIVATE`); F9 (`share`) says it when she
    asks."""
    clock = codes_on_a_clock(monkeypatch)
    backend = RecordingBackend()
    service = SpeechService(backend)
    assert service.ready.wait(60)
    app = make_app(ReplySpeaker(service), "--share", "127.0.0.1:0")

    async def scenario() -> tuple[str, list[str]]:
        async with app.run_test(size=(110, 40)) as pilot:
            server = await shared(app, pilot)
            old = server.current_code()
            clock.now += CODE_LIFETIME
            for _ in range(500):  # the server's next look at the code's age
                if server.current_code() != old and code_shown(server.current_code()) in text(app, "answer"):
                    break
                await pilot.pause(0.02)
            new = server.current_code()
            assert new != old and text(app, "answer") == code_shown(new) and " ".join(new) in text(app, "share")
            assert service.wait_idle(10)
            assert backend.said[-1] == CODE_READY  # that it is ready, not the code
            for key in ROUTES[route]:
                await pilot.press(key)
                await pilot.pause()
                assert service.wait_idle(10)
            unasked = list(backend.said)
            await pilot.press("f9")  # she asks: said
            await pilot.pause()
            assert service.wait_idle(10)
            return new, unasked

    new, unasked = asyncio.run(asyncio.wait_for(scenario(), PATIENCE))
    service.close()
    assert not [said for said in unasked if " ".join(new) in said or new in said], unasked
    assert " ".join(new) in backend.said[-1]


def test_the_join_code_she_asks_for_is_said_into_her_private_channel_where_private_reading_is_on(make_app):
    """F6 on, F9 says the address and the code into the private channel (her headphones), as a card read is; F6
    off, aloud."""
    backend = RecordingBackend()
    service = SpeechService(backend)
    assert service.ready.wait(60)
    app = make_app(ReplySpeaker(service), "--share", "127.0.0.1:0")

    async def scenario() -> str:
        async with app.run_test(size=(110, 40)) as pilot:
            server = await shared(app, pilot)
            assert service.wait_idle(10)
            for key in ("f6", "f9", "f6", "f9"):  # private reading on, the code; off, the code again
                await pilot.press(key)
                await pilot.pause()
                assert service.wait_idle(10)
            return str(server.current_code())

    code = asyncio.run(asyncio.wait_for(scenario(), PATIENCE))
    service.close()
    asked = [r for r in backend.records if r.kind == "said" and " ".join(code) in r.text]
    assert [r.private for r in asked][-2:] == [True, False], asked


def test_a_join_code_grown_old_is_never_printed_in_plain_mode_until_she_asks(monkeypatch):
    """Plain mode's lines go to her screen reader: a new code is said to be ready, never printed nor said, through
    `repeat` and `history` too; `share` says it."""
    clock = codes_on_a_clock(monkeypatch)
    session = Session(load_card_set())
    out = StringIO()
    heard: list[str] = []

    def lines() -> Any:
        yield "share 127.0.0.1:0"
        clock.now += CODE_LIFETIME
        for _ in range(500):  # the server's thread tells the plain mode at its next look at the code's age
            if CODE_READY in heard:
                break
            time.sleep(0.02)  # (the server's own thread, polled)
        yield "repeat"
        yield "history"
        yield "share"
        yield "quit"

    assert run_plain(session, lines(), out, Heard(lambda reply: heard.append(reply.speech))) == 0
    printed = out.getvalue().splitlines()
    codes = [found["code"] for found in map(SHARED.search, printed) if found is not None]
    assert len(codes) == 2 and codes[0] != codes[1]  # `share` says the new code
    before_asked = printed[: printed.index(next(line for line in printed if codes[1] in line))]
    assert not [line for line in before_asked if codes[1] in line or codes[1].replace(" ", "") in line]
    assert not [said for said in heard[:-1] if codes[1] in said or codes[1].replace(" ", "") in said]
    assert CODE_READY in before_asked and CODE_READY in heard  # that it is ready, printed and said


def test_plain_mode_says_the_qr_code_is_the_apps_and_draws_no_blocks():
    session = Session(load_card_set())
    out = StringIO()
    heard: list[str] = []
    lines = ["share 127.0.0.1:0", "share qr", "share off", "quit"]
    assert run_plain(session, lines, out, Heard(lambda reply: heard.append(reply.speech))) == 0
    assert QR_ONLY_IN_APP in out.getvalue().splitlines() and QR_ONLY_IN_APP in heard
    assert not set(out.getvalue()) & set("█▀▄")
