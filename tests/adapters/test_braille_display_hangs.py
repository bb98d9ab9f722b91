"""BrlAPI that never hangs the app and comes back: a port that accepts and never answers, and a frozen BRLTTY, are
given up after the connect timeout with the reason said; a BRLTTY killed mid-game and started again on the same
port is taken back, showing what came while it was gone; BrlAPI's environment values with bytes that are not
UTF-8 or with escapes never end the app nor reach the terminal raw (a real BRLTTY throughout)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from brltty_fixture import BRLTTY, SLOW, Brltty, all_shown, free_offset

from assistant.braille.translate import Translator
from assistant.core.braille import celltable

brlapi = pytest.importorskip("brlapi")
pytestmark = pytest.mark.skipif(BRLTTY is None, reason="BRLTTY is not installed")

ROOT = Path(__file__).resolve().parents[2]
TRANSLATOR = Translator()
#: A bound on waits that only a hang would reach (never a measure of speed): one that holds on a machine loaded far
#: past its cores (a BRLTTY started after the app was found in more than 30 s at load 20 to 47 on 2 cores).
HANG = SLOW


def reading(cells: str) -> str:
    return (TRANSLATOR.from_cells(cells[4:].rstrip(celltable.BLANK)) or "").replace("\u2019", "'")


@pytest.fixture
def silent_port():
    """A port that accepts connections (the kernel's backlog) and never answers a byte."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 4101 + free_offset()))
    listener.listen(8)
    yield f"127.0.0.1:{listener.getsockname()[1] - 4101}"
    listener.close()


def test_a_port_that_accepts_and_never_answers_is_given_up_with_the_reason(silent_port, monkeypatch):
    from assistant.braille.display import DisplayUnavailable, open_display

    monkeypatch.setenv("BRLAPI_HOST", silent_port)
    monkeypatch.setenv("BRLAPI_AUTH", "none")
    started = time.monotonic()
    with pytest.raises(DisplayUnavailable) as caught:
        open_display(timeout=0.5)
    assert time.monotonic() - started < HANG  # given up, never hung
    assert caught.value.args[0] == silent_port
    assert "did not answer within 0.5 seconds" in caught.value.reason


def test_a_frozen_brltty_is_given_up_at_start_and_the_app_says_why(tmp_path, monkeypatch):
    server = Brltty(tmp_path / "brltty")
    monkeypatch.setenv("BRLAPI_HOST", server.host)
    monkeypatch.setenv("BRLAPI_AUTH", server.auth)
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "assistant", "--plain", "--braille-display", "--no-speech"],
            input="card yay\n", capture_output=True, text=True, timeout=HANG, cwd=ROOT, env=dict(os.environ),
        )  # fmt: skip
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
        server.stop()
    assert done.returncode == 0, done.stderr
    assert f"No braille display at {server.host}: it did not answer within 2 seconds" in done.stdout
    assert "Yay" in done.stdout  # the app went on


def test_brltty_killed_and_started_again_mid_game_is_taken_back(tmp_path, monkeypatch, make_app):
    from assistant.braille.display import KEPT_KEYS_PAUSE

    server = Brltty(tmp_path / "first")
    monkeypatch.setenv("BRLAPI_HOST", server.host)
    monkeypatch.setenv("BRLAPI_AUTH", server.auth)
    offset = server.offset

    async def until(pilot, condition, what: str) -> None:
        deadline = time.monotonic() + HANG
        while not condition():
            assert time.monotonic() < deadline, what
            await pilot.pause(0.02)

    async def scenario():
        nonlocal server
        app = make_app(None, "--braille-display", "--no-speech")
        link = app.braille
        assert link is not None
        now = [1000.0]  # the display's clock (`KEPT_KEYS_PAUSE`), the test's own
        link.display.clock = lambda: now[0]
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*"new game Ana Ben Cy babies red pink narwhal", "enter")
            await until(pilot, lambda: reading(server.cells()).startswith("new game"), "the display shows it")
            os.kill(server.process.pid, signal.SIGKILL)
            server.process.wait()
            await until(pilot, lambda: link.missed is not None, "the loss noticed")
            assert any("stopped answering" in line for line in app.replies[-1].lines)
            await pilot.press(*"draw", "enter")
            await pilot.press(*"end turn", "enter")  # Ben's turn: a fact held, while the display is gone
            await until(pilot, lambda: app.session.game.state.current == 1, "the turn ended")
            server.stop()
            server = Brltty(tmp_path / "second", offset=offset)  # BRLTTY started again on the same port
            await until(pilot, lambda: link.missed is None, "the display taken back")
            said = app.replies[-1].lines
            assert said[0].startswith("The braille display is back. 3 answers came while it was away"), said
            assert said[0].endswith("Keys typed on it while it was away never reached the app: type them again.")
            await until(pilot, lambda: reading(server.cells()).startswith("ben's turn"), "the fact held meanwhile")
            now[0] += KEPT_KEYS_PAUSE  # (a line sent sooner acknowledges nothing: nobody could read it yet)
            await pilot.press("d")  # new input acknowledges it, and is typed
            await pilot.press(*"raw")
            await until(pilot, lambda: reading(server.cells()) == "draw", "typing followed on the new display")
            await pilot.press("enter")
            await until(pilot, lambda: reading(server.cells()).startswith("ben drew a card"), "the reply")

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


@pytest.mark.parametrize(
    "host",
    [b"127.0.0.1:\xff\xfe", b"\x1b]2;pwned\x07\x1b[31mhost:9", b"\xc3", b"::::", b"host:" + b"9" * 400],
)
def test_brlapi_values_that_are_not_utf8_or_hold_escapes_never_end_the_app(host):
    env = {key.encode(): value.encode("utf-8", "surrogateescape") for key, value in os.environ.items()}
    env[b"BRLAPI_HOST"] = host
    env[b"BRLAPI_AUTH"] = b"\xff\x1b[2Jnone"
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "--plain", "--braille-display", "--no-speech"],
        input=b"card yay\n", capture_output=True, timeout=HANG, cwd=ROOT, env=env,
    )  # fmt: skip
    out = done.stdout.decode("utf-8", "replace")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert "No braille display" in out and "Yay" in out
    assert b"\x1b" not in done.stdout and b"\x1b" not in done.stderr and b"\x07" not in done.stdout


async def _found_and_used(app, start) -> Brltty:
    """The display, not there when the app starts, is found once `start()` (run while the app runs) gives the BRLTTY:
    said once, drawn, and its keys answered (bounded waits). The BRLTTY."""
    link = app.braille
    assert link is not None and link.missed is not None  # looked for from the start
    async with app.run_test(size=(100, 40)) as pilot:

        async def until(condition, what: str) -> None:
            deadline = time.monotonic() + HANG
            while not condition():
                assert time.monotonic() < deadline, what
                await pilot.pause(0.05)

        await until(lambda: link.display.looks > 0, "the app looking")  # (its first try begun)
        server = await asyncio.to_thread(start)  # (BRLTTY's own signal waited for: listening, its display drawn)
        await until(lambda: link.missed is None, "the display found")  # the app's own signal
        looks = link.display.looks
        await until(lambda: reading(server.cells()).startswith("the braille display answered"), "drawn and said")
        server.type("tally")
        await until(lambda: link.view.input.text == "tally", "typed on the display")
        answered = len(app.replies)
        server.press("enter")
        await until(lambda: len(app.replies) > answered, "the line typed on the display answered")
        # Nothing more is said, looked at once every thread of the display is past where it would say more: the
        # looker's thread read the keys typed since (it looks no more), and BRLTTY answered after every frame written.
        await all_shown(pilot, server, link, HANG)
        assert link.display.looks == looks
    from assistant.core.words.entry import braille_display_found

    said = [line for reply in app.replies for line in reply.lines]
    assert said.count(braille_display_found()) == 1
    return server


def test_a_brltty_frozen_at_start_is_taken_back_when_it_resumes(tmp_path, monkeypatch, make_app):
    server = Brltty(tmp_path / "brltty")
    monkeypatch.setenv("BRLAPI_HOST", server.host)
    monkeypatch.setenv("BRLAPI_AUTH", server.auth)
    os.kill(server.process.pid, signal.SIGSTOP)

    def resume() -> Brltty:
        os.kill(server.process.pid, signal.SIGCONT)
        return server

    try:
        app = make_app(None, "--braille-display", "--no-speech")  # given up after 2 s, said
        assert "it did not answer within 2 seconds" in app.heading
        asyncio.run(_found_and_used(app, resume))
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
        server.stop()


def test_a_brltty_started_after_the_app_is_found(tmp_path, monkeypatch, make_app):
    offset = free_offset()
    monkeypatch.setenv("BRLAPI_HOST", f"127.0.0.1:{offset}")
    monkeypatch.setenv("BRLAPI_AUTH", "none")
    started: list[Brltty] = []

    def start() -> Brltty:
        started.append(Brltty(tmp_path / "brltty", offset=offset))  # where the app looks
        return started[0]

    app = make_app(None, "--braille-display", "--no-speech")
    assert app.heading.count("No braille display answered") == 1
    try:
        asyncio.run(_found_and_used(app, start))
    finally:
        for server in started:
            server.stop()


def test_keys_typed_on_a_restarted_brltty_are_the_apps_from_its_first_frame_and_none_after_is_lost(
    tmp_path, monkeypatch
):
    """BRLTTY killed and started again on the same display (pseudo-terminal) and port while a key is typed on the
    display every 40 milliseconds from the moment it starts: the keys the app gets are every key typed from some
    moment on, in order (none lost after the first it gets), and that moment is no later than its first frame on
    the new BRLTTY. The keys before it are BRLTTY's own: BRLTTY 6.5 reads the display from about half a second
    after it starts, while its BrlAPI server accepts its first connection a full second after it starts (its first
    wait for connections begins before its socket is made); the app, trying every tenth of a second, is already
    waiting then, and is the first it accepts."""
    import queue
    import threading

    from assistant.braille.display import open_display

    server = Brltty(tmp_path / "brltty")
    monkeypatch.setenv("BRLAPI_HOST", server.host)
    monkeypatch.setenv("BRLAPI_AUTH", server.auth)
    display = None
    try:
        display = open_display()
        keys: queue.Queue[object] = queue.Queue()
        events: queue.Queue[str] = queue.Queue()
        back_cells = celltable.to_cells("back")

        def back() -> None:
            assert display is not None
            display.write(back_cells)  # the app's first frame on the new BRLTTY
            events.put("back")

        display.listen(keys.put, lambda: events.put("lost"), back)
        display.write(celltable.to_cells("before"))
        server.wait_for(lambda shown: shown.startswith(celltable.to_cells("before")), HANG)
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
        assert events.get(timeout=HANG) == "lost"
        typed: list[str] = []
        after_frame: list[int] = []  # how many keys had been typed when the app's frame was first seen
        enough = threading.Event()

        def typist() -> None:
            letters = "abcdefghijklmnopqrstuvwxyz"
            deadline = time.monotonic() + HANG  # (a failure only: the app's frame comes when the new BRLTTY takes it)
            rows = server.drawn()
            while server.drawn() == rows and not enough.is_set():  # BRLTTY starting: the display still dead
                time.sleep(0.005)  # (the BRLTTY process starting, polled)
            while not enough.is_set():
                if not after_frame and server.cells().startswith(back_cells):
                    after_frame.append(len(typed))
                if (after_frame and len(typed) - after_frame[0] >= 20) or time.monotonic() > deadline:
                    return
                typed.append(letters[len(typed) % len(letters)])
                server.type(typed[-1])
                time.sleep(0.04)  # a fast typist (25 keys a second), as fast as BRLTTY reads them

        typing = threading.Thread(target=typist, daemon=True)
        typing.start()
        server.start_again(tmp_path / "again")
        typing.join(timeout=HANG)
        enough.set()
        assert after_frame, "the app's frame never appeared on the new BRLTTY"
        got: list[str] = []
        deadline = time.monotonic() + HANG  # BRLTTY reads a key every 40 ms or so: the last comes well after
        while not (len(got) >= len(typed) - after_frame[0] and got[-5:] == typed[-5:]) and time.monotonic() < deadline:
            try:
                got.append(keys.get(timeout=0.5).value)  # type: ignore[attr-defined]
            except queue.Empty:
                continue
        assert got == typed[len(typed) - len(got) :], ("".join(typed), "".join(got))  # from a moment on, all in order
        assert len(got) >= len(typed) - after_frame[0], (len(typed), after_frame, got)
    finally:
        if display is not None:
            display.close()
        server.stop()


def test_a_connection_refused_the_display_is_closed_not_left_on_the_server():
    """Looked for every tenth of a second while BRLTTY is away, each connection made and then refused its display
    (TTY mode refused, a server still starting) was left open on the server, one more each time."""
    pytest.importorskip("brlapi")
    from assistant.braille.display import DisplayUnavailable, open_display

    class Refused:
        closed = False

        def enterTtyModeWithPath(self) -> None:  # (BrlAPI's names)
            raise OSError("the display is not to be had")

        def closeConnection(self) -> None:
            self.closed = True

    made: list[Refused] = []
    with pytest.raises(DisplayUnavailable):
        open_display(connect=lambda: made.append(Refused()) or made[-1], timeout=SLOW)
    assert len(made) == 1 and made[0].closed
