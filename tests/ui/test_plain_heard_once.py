"""The plain mode beside what she types and what her screen reader reads: each other hand's move heard once, and
never printed into the line she has begun.

A phone's line printed while she typed joined her half-typed line ("turnCy played Neigh."): at a real terminal (a
pseudo-terminal, readline reading it) it is printed after her Enter, after her own reply. Beside her screen reader,
which reads every printed line, the table voice said each other hand's move while her reader read the same line
(82.7 s of a game both at once): while the table voice says them they are not printed; with no table voice, or
speech muted, they are, for her reader alone."""

from __future__ import annotations

import os
import re
from io import StringIO

import pytest

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.language.reply import PHONES
from assistant.session import Reply, Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameStore
from assistant.ui import plain
from assistant.ui.plain import run_plain
from benchmarks.outage_rig import ROOT, PtyApp
from tests.fake_speaker import Heard
from tests.ui.plain_share import FakeShare, bens_phone_let_in
from tests.ui.test_plain_line_editing import reading, shows
from tests.ui.test_share_app import _request

#: What a terminal draws for the sequences the plain mode and readline write: a control sequence (drawn as nothing
#: here, but for "erase to the end of the line"), a carriage return, a backspace.
CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r|\x08|\n|[^\x1b\r\x08\n]")

MOVE = "Ben played Neigh."


def screen_lines(output: str) -> list[str]:
    """The lines a terminal shows for `output` (the raw bytes the program wrote, decoded): each character written at
    the cursor, a carriage return back to the line's start, a backspace one to the left, ESC [ K erasing to the end
    of the line, a line feed a new line; other control sequences draw nothing."""
    lines, line, column = [], "", 0
    for token in CONTROL.findall(output):
        if token == "\n":
            lines.append(line)
            line, column = "", 0
        elif token == "\r":
            column = 0
        elif token == "\x08":
            column = max(0, column - 1)
        elif token == "\x1b[K":
            line = line[:column]
        elif len(token) == 1:
            line = line[:column].ljust(column) + token + line[column + 1 :]
            column += 1
    return [*lines, line]


def test_a_phones_move_while_she_types_is_printed_after_her_enter_never_into_her_line(private_home):
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(private_home), "PYTHONPATH": str(ROOT), "TERM": "xterm"}
    env.pop("TABLE_ASSISTANT_SCREEN_READER", None)
    terminal = PtyApp(["--plain", "--no-camera", "--no-speech"], env)
    try:  # (each wait is for what the program shows; its timeout only bounds a failure)
        port, cookie, csrf = bens_phone_let_in(terminal, "Rainbow Aura")
        terminal.send(b"tur")  # her line begun, not sent
        shows(terminal, "> tur")
        neigh = {"key": "key-neigh-ben", "verb": "neigh", "on": "rainbow-aura"}
        status, body, _ = _request(port, "POST", "/api/move", neigh, cookie, csrf)
        assert status == 200 and body["status"] == "recorded", body  # (shown on the laptop before it answered)
        terminal.send(b"n\r")  # she goes on typing, and sends her line
        shows(terminal, "Turn 1, Ana's")  # her reply
        shows(terminal, MOVE)
        reading(terminal)  # (all printed: readline reads the next line, so `quit` is not echoed into what it prints)
    finally:
        ended = terminal.quit(timeout=60)  # also after a failure: the program ends, and the test with it
        terminal.close()  # (what it printed read to its end)
    with terminal._changed:
        written = b"".join(piece for _, piece in terminal.pieces).decode("utf-8", errors="replace")
    assert ended is not None and terminal.process.returncode == 0, written
    lines = screen_lines(written)
    tail = repr(written[-900:])
    typed = [n for n, line in enumerate(lines) if line.startswith("> tur")]
    assert typed and lines[typed[-1]] == "> turn", tail  # her line as she typed it, nothing joined to it
    moved = [n for n, line in enumerate(lines) if MOVE in line]
    assert [lines[n] for n in moved] == [MOVE], tail  # on a line of its own, once
    assert moved[0] > typed[-1] + 1, tail  # after her Enter, and after her reply's first line


class TableVoice(Heard):
    """A speaker with a table voice (`ReplySpeaker.table_voice`), which says other hands' moves while `on`."""

    on = True

    @property
    def table_voice(self) -> bool:
        return self.on


@pytest.fixture
def session(tmp_path, monkeypatch) -> Session:
    monkeypatch.setattr(plain, "ThreadedShare", FakeShare)
    FakeShare.shows.clear()
    return Session(load_card_set(), store=GameStore(tmp_path))


@pytest.mark.parametrize("table_voice", [True, False])
def test_beside_her_screen_reader_a_move_the_table_voice_says_is_not_printed_for_her_reader_too(session, table_voice):
    out = StringIO()
    said: list[str] = []
    speaker = TableVoice(lambda reply: said.append(reply.speech))
    speaker.on = table_voice
    move = "Cy, from a phone: drew a card."

    def lines():
        yield "new game Ana Ben Cy Dee babies red pink orange yellow"
        FakeShare.shows[0](Reply.of(move).coming(PHONES))
        yield "tally"

    assert run_plain(session, lines(), out, speaker, reader=True, share="") == 0
    printed = out.getvalue().splitlines()
    assert move in said  # heard: in the table voice, or in turn with hers (no table voice)
    assert (move in printed) is not table_voice  # and her reader reads it only when the table voice does not say it
    assert any(line.startswith("Unicorns:") for line in printed)  # her own replies printed, as ever


def test_with_no_screen_reader_every_move_is_printed_as_before(session):
    out = StringIO()
    speaker = TableVoice(lambda reply: None)
    move = "Cy, from a phone: drew a card."

    def lines():
        yield "new game Ana Ben Cy Dee babies red pink orange yellow"
        FakeShare.shows[0](Reply.of(move).coming(PHONES))
        assert out.getvalue().splitlines()[-1] == move  # at once, between her lines
        yield "tally"

    assert run_plain(session, lines(), out, speaker, share="") == 0


def test_a_move_that_waited_while_she_typed_is_printed_after_her_reply(session, monkeypatch):
    """Held while her line was begun (readline's buffer), printed after her Enter and her reply, never before it."""
    typed = {"now": ""}
    monkeypatch.setattr(plain, "_typed", lambda: typed["now"])
    out = StringIO()
    move = "Cy, from a phone: drew a card."
    tally: list[Reply] = []
    handle = session.handle
    monkeypatch.setattr(session, "handle", lambda line: tally.append(handle(line)) or tally[-1])

    def lines():
        yield "new game Ana Ben Cy Dee babies red pink orange yellow"
        plain.PROMPTED.waiting("> ")  # at the prompt, "tal" typed
        typed["now"] = "tal"
        FakeShare.shows[0](Reply.of(move).coming(PHONES))
        assert move not in out.getvalue()  # not into her line
        typed["now"] = ""
        plain.PROMPTED.answered()
        yield "tally"

    assert run_plain(session, lines(), out, share="") == 0
    printed = out.getvalue().splitlines()
    assert printed[-len(tally[-1].reader_lines) - 1 :] == [*tally[-1].reader_lines, move]  # her reply, then the move


def test_beside_her_reader_a_move_closing_the_question_it_is_reading_stops_her_reader(session):
    """Her `pile` asks the table's question; a phone's move closes it before her next key, while her reader may still
    be reading it: her reader is told to stop, once, before the move is said. A move after a reply that asks nothing,
    or after she typed again, stops nothing (her Enter stopped her reader already)."""
    out = StringIO()
    heard: list[str] = []  # what the table voice said, and each stop of her reader, in order
    speaker = TableVoice(lambda reply: heard.append(reply.speech))
    neigh = Reply.of(MOVE).telling([About(Topic.MOVE, (1,), "Ben", MoveKind.PLAY, card="Neigh", at=4)])

    def lines():
        yield from ("new game Ana Ben Cy babies red pink orange", "draw", "play rainbow aura", "pile")
        FakeShare.shows[0](neigh.coming(PHONES))
        assert heard[-2:] == ["(her reader stopped)", MOVE], heard  # stopped, then the move said
        yield "tally"  # (asks nothing)
        FakeShare.shows[0](neigh.coming(PHONES))

    def stop_reader() -> None:
        heard.append("(her reader stopped)")

    assert run_plain(session, lines(), out, speaker, reader=True, share="", stop_reader=stop_reader) == 0
    assert heard.count("(her reader stopped)") == 1 and heard.count(MOVE) == 2, heard
