"""The plain mode beside her screen reader: her key's own reply is the first thing printed after her Enter, so it
is what her reader reads first. A phone's move shown while her line is answered (from her Enter until her reply is
printed) is printed after her reply, in the order the moves came; nothing is lost. A real reader reads all new
output in order, and her next Enter cancels it: a move printed just before her reply stood ahead of it and her
reply went unheard ("Dee played Basic Llama." printed, then her `stable Ben` answer never read)."""

from __future__ import annotations

from io import StringIO

import pytest

from assistant.core.language.reply import PHONES
from assistant.session import Reply, Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameStore
from assistant.ui import plain
from assistant.ui.plain import run_plain
from tests.ui.plain_share import FakeShare

MOVES = ("Dee, from a phone: played Basic Unicorn (Red).", "Cy, from a phone: drew a card.")


@pytest.fixture
def session(tmp_path, monkeypatch) -> Session:
    monkeypatch.setattr(plain, "ThreadedShare", FakeShare)
    FakeShare.shows.clear()
    return Session(load_card_set(), store=GameStore(tmp_path))


def test_a_phones_move_shown_while_her_line_is_answered_is_printed_after_her_reply(session, monkeypatch):
    handle = session.handle
    answers: list[Reply] = []

    def handled(line: str) -> Reply:
        if line == "tally":  # the moves came after her Enter, before her reply was printed
            for move in MOVES:
                FakeShare.shows[0](Reply.of(move).coming(PHONES))
        answers.append(handle(line))
        return answers[-1]

    monkeypatch.setattr(session, "handle", handled)
    out = StringIO()
    game = "new game Ana Ben Cy Dee babies red pink orange yellow"
    assert run_plain(session, iter([game, "tally"]), out, share="") == 0
    tail = [*answers[-1].reader_lines, *MOVES]
    assert out.getvalue().splitlines()[-len(tail) :] == tail  # her reply first, then the moves in their order


def test_a_phones_move_shown_between_her_lines_is_printed_at_once(session):
    out = StringIO()

    def lines():
        yield "new game Ana Ben Cy Dee babies red pink orange yellow"
        FakeShare.shows[0](Reply.of(MOVES[0]).coming(PHONES))
        assert out.getvalue().splitlines()[-1] == MOVES[0]  # never held while she is not answered
        yield "tally"

    assert run_plain(session, lines(), out, share="") == 0
