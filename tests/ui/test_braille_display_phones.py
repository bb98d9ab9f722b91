"""Phones acting while a deaf-blind player reads a real BRLTTY display (its TTY driver on a pseudo-terminal): other
hands' moves wait behind what is being read, never replacing it with no key pressed; the last status cell counts
them; the display's own keys (pan right at the end of the answer, the next-unread key) read each one, whole and in
order, attributed first. A held fact is never acknowledged while BRLTTY is away. Every wait is for a state, bounded;
moves come 0.4 s apart as a table's hands do, and nothing is timed."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest
from brltty_fixture import BRLTTY, Brltty

from assistant.braille.translate import Translator
from assistant.core.braille import celltable
from assistant.core.braille.display import Region
from assistant.core.language.device import DeviceMove
from assistant.core.language.reply import NOTICE
from tests.ui.braille_app import reading, until

pytest.importorskip("brlapi")
pytestmark = pytest.mark.skipif(BRLTTY is None, reason="BRLTTY is not installed")

TRANSLATOR = Translator()
NEW_GAME = "new game Ana Ben Cy babies red pink narwhal win 3"
#: Three bursts of four phone moves, each with the start of what it must read as on the display: a turn's end its
#: point first (who, then the new turn), the attribution after it.
BURSTS = [
    [
        ("Ana", DeviceMove("draw"), "ana drew a card."),
        ("Ana", DeviceMove("play", card="rainbow-aura"), "ana played rainbow aura."),
        ("Ben", DeviceMove("neigh", on="rainbow-aura"), "ben played neigh."),
        ("Cy", DeviceMove("resolve", on="rainbow-aura"), "cy, from a phone: ben's neigh resolves"),
    ],
    [
        ("Ana", DeviceMove("end"), "ana: ben's turn. ana, from a phone:"),
        ("Ben", DeviceMove("draw"), "ben drew a card."),
        ("Ben", DeviceMove("discard"), "ben discarded a card."),
        ("Ben", DeviceMove("end"), "ben: cy's turn. ben, from a phone:"),
    ],
    [
        ("Cy", DeviceMove("draw"), "cy drew a card."),
        ("Cy", DeviceMove("discard"), "cy discarded a card."),
        ("Ana", DeviceMove("discard"), "ana discarded a card."),
        ("Cy", DeviceMove("end"), "cy: ana's turn. cy, from a phone:"),
    ],
]


def written_rows(link) -> list[str]:
    """Every row the app writes to the display from now on, read back to print (status cells left out)."""
    rows: list[str] = []
    write = link.display.write

    def recording(cells: str, cursor: int | None = None, frame: int = 0) -> None:
        rows.append(reading(cells, link.view.status_cells))
        write(cells, cursor, frame)

    link.display.write = recording
    return rows


async def new_game_on_the_display(server, pilot, shown) -> None:
    """The new game typed on the display's keyboard, and waited for until the display shows it."""
    server.type(NEW_GAME)
    server.press("enter")
    await until(pilot, lambda: shown().startswith("new game: ana"), "the new game on the display")


async def ben_wins_unread(pilot, app, away) -> None:
    """Ben's turn; then BRLTTY goes (`await away()`: killed or stopped), Ben plays his winning Unicorn and `tally` is
    typed and answered while nobody can read the win."""
    for line in (NEW_GAME, "draw", "end turn", "draw"):
        await pilot.press(*line, "enter")
    await until(pilot, lambda: app.session.game.state.current == 1, "Ben's turn")
    await away()
    await pilot.press(*"play ginormous unicorn", "enter")
    await pilot.press(*"resolve", "enter")
    await until(pilot, lambda: app.session.game.state.outcome is not None, "the win")
    answered = len(app.replies)
    await pilot.press(*"tally", "enter")
    await until(pilot, lambda: len(app.replies) > answered, "tally answered")


def at_the_end(view) -> bool:
    """The display shows the last window of the answer's last line."""
    last = len(view.regions[Region.ANSWER]) - 1
    return view.line == last and view.window + 1 == len(view.windows(view.lines[last]))


def test_phone_moves_wait_unread_are_counted_and_are_read_whole_in_order_with_the_displays_keys(
    display_server, make_app
):
    async def scenario():
        app = make_app(None, "--braille-display", "--no-speech")
        link = app.braille
        assert link is not None
        status = link.view.status_cells
        shown = lambda: reading(display_server.cells(), status)  # noqa: E731
        async with app.run_test(size=(100, 40)) as pilot:
            await new_game_on_the_display(display_server, pilot, shown)
            for burst, key in zip(BURSTS, ("next unread", "pan right", "next unread"), strict=True):
                before = shown()
                rows = written_rows(link)
                moves = len(app.session.game.log)
                for player, move, _start in burst:  # a hand every 0.4 s, the reader pressing nothing
                    app.run_worker(app.share.link.submit(player, move))
                    await pilot.pause(0.4)
                await until(pilot, lambda moves=moves: len(app.session.game.log) == moves + 4, "recorded")
                assert shown() == before  # what was being read is still there: nothing replaced it
                assert all(row == before for row in rows), rows  # never, not for a moment
                await until(pilot, lambda: display_server.cells()[3] == celltable.to_cells("d"), "4 unread")
                read = []
                for _ in burst:
                    previous = shown()
                    if key == "pan right":  # pan to the end of the answer shown, then on
                        while not at_the_end(link.view):
                            display_server.press("pan right")
                            await until(pilot, lambda previous=previous: shown() != previous, "panned")
                            previous = shown()
                    display_server.press(key)
                    await until(pilot, lambda previous=previous: shown() != previous, f"{key} reads the next move")
                    read.append(shown())
                starts = [start for _player, _move, start in burst]
                assert all(start.startswith(window) for start, window in zip(starts, read, strict=True)), read
                assert display_server.cells()[3] == celltable.BLANK  # nothing unread
                del link.display.write  # the recording wrapper goes: the next burst records afresh

    asyncio.run(scenario())


def test_a_win_held_while_brltty_is_away_is_not_acknowledged_by_typing_and_is_shown_when_it_is_back(
    tmp_path, monkeypatch, make_app
):
    server = Brltty(tmp_path / "first")
    monkeypatch.setenv("BRLAPI_HOST", server.host)
    monkeypatch.setenv("BRLAPI_AUTH", server.auth)

    async def scenario():
        nonlocal server
        app = make_app(None, "--braille-display", "--no-speech")
        link = app.braille
        assert link is not None

        async def killed() -> None:
            os.kill(server.process.pid, signal.SIGKILL)
            server.process.wait()
            await until(pilot, lambda: link.missed is not None, "the loss noticed")

        async with app.run_test(size=(100, 40)) as pilot:
            await ben_wins_unread(pilot, app, killed)
            assert "Ben wins!" not in link.acknowledged and [fact.text for fact in link.view.held][-1:] == ["Ben wins!"]
            server.stop()
            server = Brltty(tmp_path / "second", offset=server.offset)
            await until(pilot, lambda: link.missed is None, "the display taken back")
            await until(pilot, lambda: reading(server.cells(), 4).startswith("ben wins!"), "the win on the display")

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_notice_that_answers_no_key_waits_unread_like_a_phones_move(display_server, make_app):
    """The camera lost, the display back: a notice answers no key of the reader's, so it never replaces what is
    being read; it waits, counted, and the next-unread key reads it."""
    from assistant.core.language.reply import Reply

    async def scenario():
        app = make_app(None, "--braille-display", "--no-speech")
        link = app.braille
        assert link is not None
        status = link.view.status_cells
        shown = lambda: reading(display_server.cells(), status)  # noqa: E731
        async with app.run_test(size=(100, 40)) as pilot:
            await new_game_on_the_display(display_server, pilot, shown)
            before = shown()
            app.show(Reply.of("The camera was unplugged: type card names instead.").coming(NOTICE))
            await until(pilot, lambda: display_server.cells()[3] == celltable.to_cells("a"), "1 unread")
            assert shown() == before  # what was being read is still there
            display_server.press("next unread")
            await until(pilot, lambda: shown() != before, "the next-unread key reads the notice")
            assert shown().startswith("the camera was unplugged")

    asyncio.run(scenario())


def test_a_win_drawn_on_a_stopped_brltty_is_not_read_by_a_line_sent_and_is_first_when_it_resumes(
    display_server, make_app
):
    """BRLTTY stopped (SIGSTOP) while she types her winning move and `tally` on the keyboard: the win written to it
    was never shown, so `tally` does not acknowledge it; the stop is noticed (no answer to the round trip after a
    write) and when BRLTTY resumes the win is what the display shows."""

    async def scenario():
        app = make_app(None, "--braille-display", "--no-speech")
        link = app.braille
        assert link is not None

        async def stopped() -> None:
            os.kill(display_server.process.pid, signal.SIGSTOP)

        async with app.run_test(size=(100, 40)) as pilot:
            try:
                await ben_wins_unread(pilot, app, stopped)
                assert "Ben wins!" not in link.acknowledged
                await until(pilot, lambda: link.missed is not None, "the stopped BRLTTY taken as away")
            finally:
                os.kill(display_server.process.pid, signal.SIGCONT)
            await until(pilot, lambda: link.missed is None, "BRLTTY answers again")
            await until(pilot, lambda: reading(display_server.cells(), 4).startswith("ben wins!"), "the win shown")
            assert "Ben wins!" not in link.acknowledged
            said = [line for reply in app.replies for line in reply.lines if line.startswith("The braille display")]
            assert said and not any("never reached" in line for line in said)  # a stopped BRLTTY keeps every key

    asyncio.run(scenario())


@pytest.mark.parametrize("keys", [(*"share devices", "enter"), ("f9",), ("f10",)], ids=["share line", "F9", "F10"])
def test_the_hosts_own_share_line_is_answered_on_the_display_at_once_while_moves_wait(display_server, make_app, keys):
    """`share devices` typed, or F9 or F10 pressed, while a phone's move waits unread: its answer is on the display at
    once, never queued behind the other hands' moves."""

    async def scenario():
        app = make_app(None, "--braille-display", "--no-speech")
        link = app.braille
        assert link is not None
        status = link.view.status_cells
        shown = lambda: reading(display_server.cells(), status)  # noqa: E731
        async with app.run_test(size=(100, 40)) as pilot:
            await new_game_on_the_display(display_server, pilot, shown)
            app.run_worker(app.share.link.submit("Ana", DeviceMove("draw")))
            await until(pilot, lambda: display_server.cells()[3] == celltable.to_cells("a"), "1 unread")
            answered = len(app.replies)
            await pilot.press(*keys)
            await until(pilot, lambda: len(app.replies) > answered, "the share line answered")
            first = app.replies[-1].lines[0].lower()
            await until(pilot, lambda: shown() != "" and first.startswith(shown()), "the answer on the display")
            assert display_server.cells()[3] == celltable.to_cells("a")  # the move still waits, counted

    asyncio.run(scenario())


def test_f8_shows_the_digest_of_what_other_hands_did_first_never_a_fact_held_before_it(display_server, make_app):
    async def scenario():
        app = make_app(None, "--braille-display", "--no-speech")
        link = app.braille
        assert link is not None
        status = link.view.status_cells
        shown = lambda: reading(display_server.cells(), status)  # noqa: E731
        async with app.run_test(size=(100, 40)) as pilot:
            await new_game_on_the_display(display_server, pilot, shown)
            for line in ("draw", "end turn"):
                await pilot.press(*line, "enter")
            await until(pilot, lambda: "ben's turn" in shown(), "her turn's end held on the display")
            for player, move in (("Ben", DeviceMove("draw")), ("Ben", DeviceMove("end"))):
                app.run_worker(app.share.link.submit(player, move))
            await until(pilot, lambda: app.session.game.state.current == 2, "Cy's turn, from Ben's phone")
            answered = len(app.replies)
            await pilot.press("f8")
            await until(pilot, lambda: len(app.replies) > answered, "F8 answered")
            digest = app.replies[-1]
            first, decisive = digest.lines[0].lower(), digest.decisive.lower()  # (its newest decisive fact: Cy's turn)
            await until(pilot, lambda: shown() != "" and (first.startswith(shown()) or shown() == decisive),
                        "the digest first")  # fmt: skip
            assert "ben's turn" not in shown()  # never the out-of-date turn held before it

    asyncio.run(scenario())
