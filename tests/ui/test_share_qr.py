"""Joining from any terminal: the QR code shown alone (F10) fits 80 x 24 and reads back; a terminal too small for it
is said; a new join code is said as well as shown, in the app and in plain mode (the 80 x 24 terminal itself, in
tmux: tests/ui/test_tmux.py)."""

from __future__ import annotations

import asyncio
import re
import time
from io import StringIO
from typing import Any

from assistant.core.words.share import QR_BACK, QR_ONLY_IN_APP, QR_PUT_AWAY, QR_SHOWN, code_renewed, qr_too_small
from assistant.session import Session
from assistant.share import server as share_server
from assistant.share.guards import CODE_LIFETIME, JoinCode
from assistant.storage.decks import load_card_set
from assistant.ui.plain import run_plain
from assistant.ui.share_link import qr_text
from tests.fake_speaker import Heard
from tests.qr_reading import read_qr

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
    monkeypatch.setattr(share_server, "JoinCode", lambda _clock: JoinCode(clock))
    monkeypatch.setattr(share_server, "CODE_CHECK_S", 0.02)
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


def test_a_join_code_grown_old_is_said_and_shown_in_the_app(make_app, monkeypatch):
    clock = codes_on_a_clock(monkeypatch)
    heard: list[str] = []
    app = make_app(Heard(lambda reply: heard.append(reply.speech)), "--share", "127.0.0.1:0")

    async def scenario() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            server = await shared(app, pilot)
            old = server.current_code()
            clock.now += CODE_LIFETIME
            for _ in range(500):  # the server's next look at the code's age
                if heard[-1].startswith(code_renewed("")[:-1]):
                    break
                await pilot.pause(0.02)
            new = server.current_code()
            assert new != old and heard[-1] == code_renewed(new) and text(app, "answer") == code_renewed(new)
            assert " ".join(new) in text(app, "share") and " ".join(old) not in text(app, "share")

    asyncio.run(asyncio.wait_for(scenario(), PATIENCE))


def test_a_join_code_grown_old_is_said_in_plain_mode_and_share_says_it_again(monkeypatch):
    clock = codes_on_a_clock(monkeypatch)
    session = Session(load_card_set())
    out = StringIO()
    heard: list[str] = []

    def lines() -> Any:
        yield "share 127.0.0.1:0"
        clock.now += CODE_LIFETIME
        for _ in range(500):  # the server's thread tells the plain mode at its next look at the code's age
            if any(said.startswith(code_renewed("")[:-1]) for said in heard):
                break
            time.sleep(0.02)  # (the server's own thread, polled)
        yield "share"
        yield "quit"

    assert run_plain(session, lines(), out, Heard(lambda reply: heard.append(reply.speech))) == 0
    printed = out.getvalue().splitlines()
    codes = [found["code"] for found in map(SHARED.search, printed) if found is not None]
    assert len(codes) == 2 and codes[0] != codes[1]  # `share` says the new code
    assert printed[-2] == code_renewed(codes[1].replace(" ", "")) and printed[-2] in heard  # said before it, unasked


def test_plain_mode_says_the_qr_code_is_the_apps_and_draws_no_blocks():
    session = Session(load_card_set())
    out = StringIO()
    heard: list[str] = []
    lines = ["share 127.0.0.1:0", "share qr", "share off", "quit"]
    assert run_plain(session, lines, out, Heard(lambda reply: heard.append(reply.speech))) == 0
    assert QR_ONLY_IN_APP in out.getvalue().splitlines() and QR_ONLY_IN_APP in heard
    assert not set(out.getvalue()) & set("█▀▄")
