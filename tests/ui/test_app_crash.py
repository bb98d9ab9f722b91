"""An exception no handler caught (a fault of ours) ends the app without a traceback on the terminal: kept for the
command line's last guard, which writes the crash log and says one sentence, exit status 70."""

from __future__ import annotations

import asyncio

import pytest

from tests.fake_speaker import Heard


class Fault(RuntimeError):
    """A fault of the app's own."""


def test_an_exception_no_handler_caught_is_kept_for_the_last_guard_and_the_app_exits_70(make_app, capfd):
    app = make_app(Heard())

    def broken(line: str) -> None:
        raise Fault("a fault of ours " + "x" * 10_000)

    async def scenario() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            app.session.handle = broken
            await pilot.press(*"draw", "enter")
            await pilot.pause()

    with pytest.raises(Fault):  # (Pilot raises it at the end of the test, as Textual does)
        asyncio.run(scenario())
    assert isinstance(app.crashed, Fault) and app.return_code == 70
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "x" * 100 not in out + err
