"""Every device known to the table, in the core: a phone asking to join is asked about on the laptop, of the host
alone, one question at a time (never replacing the keyboard's question), and each move made on a phone is saved with
the phone, read back on resume (an old save without phones still loads), and named by `log` and `history` (and said
on the laptop when its player has two phones)."""

from __future__ import annotations

import itertools
import json

import pytest

from assistant.core.game.events import EventError, Resolve
from assistant.core.game.history import Phone, Record, read_record, record_to_dict
from assistant.core.language.device import DeviceJoined, DeviceMove
from assistant.core.language.reply import Question
from assistant.core.words.share import (
    code_shown,
    joined_from_phone,
    new_phone_asks,
    new_phone_waits,
    no_phone_waits,
    phone_asks,
    phone_kept_out,
    phone_let_in,
    recorded_from,
)
from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import FORMAT, GameStore, encode_line
from tests.core.talking import asks

CARDS = load_card_set()
NEW_GAME = "new game Ana Ben Cy babies red pink orange"


def saved_session(tmp_path, *lines: str) -> Session:
    session = Session(CARDS, store=GameStore(tmp_path / "games"))
    for line in [NEW_GAME, *lines]:
        session.handle(line)
    return session


def resumed(tmp_path) -> Session:
    session = Session(CARDS, store=GameStore(tmp_path / "games"))
    session.resume_game()
    return session


def test_a_phone_joining_is_said_on_the_laptop_and_kept_for_history(tmp_path):
    session = saved_session(tmp_path)
    outcome = session.phone_desk.device_joined("Ben", DeviceJoined(1))
    assert outcome.reply.lines == (joined_from_phone("Ben"),) == ("Ben joined from a phone.",)
    assert session.pending is None
    assert "Ben joined from a phone." in session.handle("history").lines


class Waiting:
    """A phone waiting to be let in, as the server keeps it: the answers it was given."""

    def __init__(self, waits: bool = True) -> None:
        self.decided: list[bool] = []
        self.still = waits

    def waits(self) -> bool:
        return self.still

    def decide(self, allow: bool) -> bool:
        if not self.still:
            return False
        self.decided.append(allow)
        self.still = False
        return True

    def code(self) -> str:
        return "123456"


def test_a_phone_is_asked_about_on_the_laptop_and_yes_or_no_decides(tmp_path):
    session = saved_session(tmp_path)
    ben, cy = Waiting(), Waiting()
    asked = session.phone_desk.device_joined("Ben", DeviceJoined(2, ben))
    assert asked.reply.lines == (new_phone_asks("Ben"),) and isinstance(session.pending, Question)
    assert ben.decided == []  # nothing decided before the host answers
    assert session.handle("yes").lines == (phone_let_in("Ben", 2),) == ("Ben's phone 2 joined the table.",)
    assert ben.decided == [True]
    session.phone_desk.device_joined("Cy", DeviceJoined(1, cy))
    assert session.handle("no").lines == (phone_kept_out("Cy"), code_shown("123456"))
    assert cy.decided == [False]


def test_no_phone_is_asked_about_another_phone(tmp_path):
    """Before, the player's own phones were asked too, and the first answer won."""
    session = saved_session(tmp_path)
    ben = Waiting()
    session.phone_desk.device_joined("Ben", DeviceJoined(2, ben))
    assert session.phone_desk.devices.question_of("Ben") is None
    assert session.phone_desk.device_answer("Ben", "any-question-id", True).status == "stale"
    assert ben.decided == []


def test_one_question_at_a_time_the_next_phone_asked_once_the_first_is_answered(tmp_path):
    session = saved_session(tmp_path)
    ana, ben = Waiting(), Waiting()
    session.phone_desk.device_joined("Ana", DeviceJoined(1, ana))
    told = session.phone_desk.device_joined("Ben", DeviceJoined(1, ben))
    assert told.reply.lines == (new_phone_waits("Ben"),) and told.reply.pending is None
    assert session.handle("yes").lines == (phone_let_in("Ana", 1), new_phone_asks("Ben"))
    assert (ana.decided, ben.decided) == ([True], [])
    assert session.handle("yes").lines == (phone_let_in("Ben", 1),)
    assert ben.decided == [True]


def test_a_second_phone_never_replaces_the_keyboards_question(tmp_path):
    session = saved_session(tmp_path, "draw", "play rainbow aura", "resolve")
    assert asks(session.handle("play yay"))
    keyboard = session.pending
    asked = session.phone_desk.device_joined("Ben", DeviceJoined(2, Waiting()))
    assert asked.reply.lines == (new_phone_waits("Ben"),) and asked.reply.pending is None
    assert session.pending is keyboard
    assert session.handle("yes").lines[0] == "Ana played Yay."


def test_a_late_answer_to_a_phone_that_no_longer_waits_says_so(tmp_path):
    session = saved_session(tmp_path)
    session.phone_desk.device_joined("Ben", DeviceJoined(2, Waiting(waits=False)))  # (taken off meanwhile)
    assert session.handle("yes").lines == (no_phone_waits("Ben"),)


def test_a_move_made_on_a_phone_is_saved_with_it_and_named_after_a_resume(tmp_path):
    session = saved_session(tmp_path, "draw")
    # in Ana's turn: warned, recorded on yes
    warned = session.phone_desk.device_move("Ben", DeviceMove("draw", device=2))
    assert warned.status == "warning" and warned.question is not None
    assert session.phone_desk.device_answer("Ben", warned.question, True, device=2).status == "recorded"
    assert session.game.phone_of(session.game.log[-1]) == Phone(1, 2)
    history = session.handle("history").lines
    assert (
        history[-2:]
        == ("Ben drew a card.", recorded_from("Ben's phone 2"))
        == ("Ben drew a card.", "From Ben's phone 2.")
    )
    save = next((tmp_path / "games").glob("game-*.jsonl")).read_text().splitlines()
    assert json.loads(save[-1].split("\t")[0])["r"]["phone"] == {"seat": 1, "n": 2}
    assert json.loads(save[-2].split("\t")[0])["r"].get("phone") is None  # typed on the laptop

    again = resumed(tmp_path)
    game = again.game
    assert game.log == session.game.log
    assert [game.phone_of(event) for event in game.log] == [None, Phone(1, 2)]
    log = again.handle("log").lines
    assert log[-1] == "2: Ben drew a card, from Ben's phone 2." and log[-2] == "1: Ana drew a card."


def test_a_phone_undoes_its_own_resolve_after_a_resume(tmp_path):
    """A resolve names no player: only the save's phone says it was Cy's, so Cy's phone may still take it back."""
    session = saved_session(tmp_path, "draw", "play rainbow aura")
    assert session.phone_desk.device_move("Cy", DeviceMove("resolve")).status == "recorded"
    again = resumed(tmp_path)
    assert again.game.log[-1] == Resolve()
    assert again.phone_desk.device_move("Ben", DeviceMove("undo")).status == "refused"
    undone = again.phone_desk.device_move("Cy", DeviceMove("undo"))
    assert undone.status == "recorded" and again.game.state.pile


def test_an_old_save_without_phones_still_loads(tmp_path):
    folder = tmp_path / "games"
    session = saved_session(tmp_path, "draw")
    setup = session.game.setup.to_dict()
    folder.joinpath("last").unlink()
    old = folder / "game-20240101-000000-0000.jsonl"
    records = [{"format": FORMAT, "version": 1, "setup": setup}, {"n": 1, "r": {"e": "draw", "player": 0, "count": 1}}]
    old.write_bytes(b"".join(encode_line(record) for record in records))
    folder.joinpath("last").write_text(old.name + "\n")
    again = resumed(tmp_path)
    assert len(again.game.log) == 1 and again.game.phone_of(again.game.log[0]) is None
    assert again.handle("log").lines == ("1: Ana drew a card.",)


@pytest.mark.parametrize(
    "phone", [{"seat": 3, "n": 1}, {"seat": 0, "n": 0}, {"seat": True, "n": 1}, {"seat": 0}, "Ben", None]
)
def test_a_phone_that_is_no_seat_and_number_is_a_damaged_record(tmp_path, phone):
    table = saved_session(tmp_path).game.table
    with pytest.raises(EventError, match="phone"):
        read_record({"e": "draw", "player": 0, "count": 1, "phone": phone}, table)
    record = read_record(record_to_dict(Record("event", Resolve(), phone=Phone(2, 3))), table)
    assert record == Record("event", Resolve(), phone=Phone(2, 3))


def test_a_move_from_one_of_two_phones_says_on_the_laptop_which_phone_made_it(tmp_path):
    """Before, the laptop never said which of Cy's phones moved (only `history` kept it)."""
    session = saved_session(tmp_path, "draw")
    ticks = itertools.count(0.0, 10.0)  # (taps 10 s apart: each said at once, `phone_desk.SPOKEN_EVERY`)
    session.phone_desk.clock = lambda: next(ticks)
    one = session.phone_desk.device_move("Ben", DeviceMove("discard", device=1))
    assert recorded_from("Ben's phone") not in one.reply.lines  # one phone: its player names it
    two = session.phone_desk.device_move("Ben", DeviceMove("discard", device=2, phones=2))
    assert two.reply.lines[-1] == recorded_from("Ben's phone 2") and "From Ben's phone 2." in two.reply.speech


def test_a_phones_warning_is_said_on_the_laptop_without_asking_anything(tmp_path):
    """Before, the laptop read a phone's warning ending "Say yes or no.", though only the phone could answer it: the
    host's yes went to whatever the keyboard had open (a phone asking to join)."""
    session = saved_session(tmp_path, "draw", "play rainbow aura", "resolve")
    session.phone_desk.device_joined("Cy", DeviceJoined(2, Waiting()))
    keyboard = session.pending
    # a second play in Ana's turn is warned
    warned = session.phone_desk.device_move("Ana", DeviceMove("play", card="yay"))
    assert warned.status == "warning"
    assert warned.reply.lines == (phone_asks("Ana's phone"),) == ("Ana's phone is asked whether to record it anyway.",)
    assert warned.reply.pending is None and session.pending is keyboard


def test_a_yes_to_a_phone_that_went_never_lets_in_one_that_came_after_it(tmp_path):
    session = saved_session(tmp_path)
    first, later = Waiting(), Waiting()
    session.phone_desk.device_joined("Ben", DeviceJoined(2, first))
    first.still = False  # taken off meanwhile (`share remove Ben`)
    # another phone asks as Ben: told, the question stays
    session.phone_desk.device_joined("Ben", DeviceJoined(2, later))
    # the later phone is asked about in its turn (its own question), never let in by the yes to the first
    assert session.handle("yes").lines == (no_phone_waits("Ben"), new_phone_asks("Ben"))
    assert later.decided == []


def test_a_join_question_passed_over_is_asked_again_once_then_stays_open_unsaid(tmp_path):
    """Before, while a phone waited, every reply to her typed lines ended with the join question again."""
    session = saved_session(tmp_path)
    ben = Waiting()
    session.phone_desk.device_joined("Ben", DeviceJoined(2, ben))
    first = session.handle("draw")  # passes the question over: asked again after the reply
    assert first.lines[-1] == new_phone_asks("Ben")
    for line in ("stable Ana", "hand"):
        assert new_phone_asks("Ben") not in session.handle(line).lines
    assert session.handle("yes").lines == (phone_let_in("Ben", 2),)  # still open: her yes answers it
    assert ben.decided == [True]
