"""The `share` commands in any form a line may take, in both front ends: after a player's name, after a separator,
a port of thousands of digits, a name holding terminal escapes. Each is carried out or refused with a sentence, the
session goes on, and nothing but text reaches the terminal. (`Ana share`, `share; off` and `Ben share remove` ended
the plain mode with exit 70 and the app with a traceback; a 4,301-digit port ended the session; `share remove NAME`
echoed a clear-screen and an OSC 52 clipboard write.) And a phone's move refused for a full disk is said on the
laptop too, in both front ends, not only on the phone."""

from __future__ import annotations

import asyncio
import errno
import os
import threading
from io import StringIO

from assistant.core.language.device import DeviceMove
from assistant.core.words.errors import save_failed
from assistant.core.words.share import NO_DEVICES, SHARE_ADDRESS_FORM, SHARE_STOPPED, from_phone, no_device_for
from assistant.core.words.storage import DISK_FULL
from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameStore
from assistant.ui.plain import run_plain
from assistant.ui.share_link import ThreadedShare
from tests.fake_speaker import Heard

PATIENCE = 60
#: A clear-screen and an OSC 52 clipboard write around a name.
HOSTILE = "\x1b[2J\x1b]52;c;aGVsbG8=\x07Zed\x9b31m"
LONG_PORT = "share 127.0.0.1:" + "9" * 4301


def test_share_lines_in_any_form_are_answered_in_the_plain_mode(cli):
    lines = [
        "new game Ana Ben Cy babies red pink orange",
        "Ana share 127.0.0.1:0",
        "share; devices",
        "Ben share remove",
        f"share remove {HOSTILE}",
        "share; off",
        LONG_PORT,
        "Ana tally",
    ]
    done = cli("--plain", "--no-speech", stdin="\n".join(lines) + "\n", timeout=PATIENCE * 2)
    out = done.stdout.splitlines()
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    assert any(line.startswith("The table is shared at http://127.0.0.1:") for line in out)
    assert NO_DEVICES in out and no_device_for("Ben") in out and no_device_for("Zed") in out
    assert SHARE_STOPPED in out and SHARE_ADDRESS_FORM in out
    assert out[-1].startswith("Unicorns: Ana")  # the tally: the session went on to the end of its input
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout and "\x9b" not in done.stdout


def test_a_port_of_thousands_of_digits_on_the_command_line_is_refused_with_a_sentence(cli):
    done = cli("--plain", "--no-speech", "--share", LONG_PORT.removeprefix("share "), stdin="tally\n")
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    assert SHARE_ADDRESS_FORM in done.stdout.splitlines()


def test_share_lines_in_any_form_are_answered_in_the_app(make_app):
    heard: list[str] = []
    app = make_app(Heard(lambda reply: heard.append(reply.speech)))

    def answer() -> str:
        return str(app.query_one("#answer").render())

    async def scenario() -> None:
        async with app.run_test(size=(110, 70)) as pilot:

            async def typed(line: str) -> None:
                app.query_one("#prompt").value = line  # set whole: a 4,316-character line key by key is slow
                await pilot.press("enter")
                await pilot.pause()

            await typed("new game Ana Ben Cy babies red pink orange")
            await typed("Ana share 127.0.0.1:0")
            for _ in range(400):  # the server starts in a worker
                if app.share.link.server is not None:
                    break
                await pilot.pause(0.05)
            assert app.share.link.server is not None
            for line, said in [
                ("share; devices", NO_DEVICES),
                ("Ben share remove", no_device_for("Ben")),
                (f"share remove {HOSTILE}", no_device_for("Zed")),
                ("share; off", SHARE_STOPPED),
                (LONG_PORT, SHARE_ADDRESS_FORM),
            ]:
                await typed(line)
                for _ in range(400):  # each share command is answered by a worker
                    if answer() == said:
                        break
                    await pilot.pause(0.05)
                assert answer() == said, line
            await typed("Ana tally")
            assert answer().startswith("Unicorns: Ana")
            assert not any("\x1b" in text or "\x07" in text for text in heard)

    asyncio.run(asyncio.wait_for(scenario(), PATIENCE * 3))


def _full_disk(fd: int, data: bytes) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


#: What the laptop shows of a phone's move refused for a full disk.
CY_NOT_SAVED = [from_phone("Cy", save_failed(DISK_FULL))]


def test_a_phones_move_refused_for_a_full_disk_is_said_by_the_plain_mode(tmp_path):
    session = Session(load_card_set(), store=GameStore(tmp_path))
    out = StringIO()

    def lines():
        yield "new game Ana Ben Cy babies red pink orange"
        session.lobby.talk.log._write = _full_disk  # the disk fills
        shared = ThreadedShare(session, threading.RLock(), lambda reply: print(*reply.lines, sep="\n", file=out))
        outcome = asyncio.run(shared._submit("Cy", DeviceMove("discard")))  # as the server hands it a phone's move
        assert (outcome.status, outcome.lines) == ("refused", (save_failed(DISK_FULL),))
        yield "tally"

    assert run_plain(session, lines(), out) == 0
    printed = out.getvalue().splitlines()
    assert CY_NOT_SAVED[0] in printed
    assert len(session.game.log) == 0


def test_a_phones_move_refused_for_a_full_disk_is_said_by_the_app(make_app):
    heard: list[str] = []
    app = make_app(Heard(lambda reply: heard.append(reply.speech)))

    async def scenario() -> None:
        async with app.run_test(size=(110, 70)) as pilot:
            await pilot.press(*"new game Ana Ben Cy babies red pink orange", "enter")
            await pilot.pause()
            app.session.lobby.talk.log._write = _full_disk  # the disk fills
            outcome = await app.share.link.submit("Cy", DeviceMove("discard"))  # as the server hands it a phone's move
            await pilot.pause()
            assert outcome.status == "refused"
            assert str(app.query_one("#answer").render()).splitlines() == CY_NOT_SAVED
            assert heard[-1] == " ".join(CY_NOT_SAVED)

    asyncio.run(asyncio.wait_for(scenario(), PATIENCE))
