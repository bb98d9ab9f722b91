"""The host's decisions are hers: a save "instead" of a card of a player at the laptop (no phone: the host), offered
by another player's phone move, is asked of her on the laptop; while the laptop asks her something else, it waits
behind that question and is asked once it is answered, never on the moving phone (where the mover would decide
for her). On the session, as the app and the plain mode both use it."""

from __future__ import annotations

import pytest

from assistant.core.game.events import Bring, Destroy, Save
from assistant.core.game.history import Phone
from assistant.core.language.device import DeviceMove
from assistant.core.language.table_view import phone_view
from assistant.core.words.gameplay import NOT_RECORDED
from assistant.core.words.share import host_asked, move_already_waits, phone_asks, phone_name, save_waits
from assistant.phone_desk import SPOKEN_EVERY
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.talking import asks

CARDS = load_card_set()
QUESTION = "Ana may save Basic Unicorn (Red) by sacrificing Black Knight Unicorn instead. Save it?"
#: Black Knight Unicorn and a Basic Unicorn in Ana's Stable; Ben's turn, his Unicorn Poison resolved.
BEFORE = (
    "new game Ana Ben Cy babies red pink orange",
    "bring black knight unicorn into Ana",
    "bring basic red into Ana",
    "draw",
    "end turn",
    "Ben draw",
    "Ben play unicorn poison",
    "resolve",
)
DESTROY = DeviceMove("destroy", card="basic-unicorn-red", target="Ana", phoned=("Ben",))


def bens_destroy_while_ana_is_asked(her_question: str) -> tuple[Session, int]:
    """Ana (the host, no phone) has a question open on the laptop when Ben's phone destroys her Basic Unicorn: the
    session, and the log's length before the destroy."""
    session = Session(CARDS)
    for line in BEFORE:
        session.handle(line)
    assert asks(session.handle(her_question))
    return session, len(session.game.log)


def test_a_save_of_the_hosts_card_waits_behind_her_question_and_is_never_asked_on_the_moving_phone():
    """Before, Ben's phone was asked whether to save Ana's card ("warning", with the save's buttons), and Ana heard
    only "Ben's phone is asked whether to save it.": Ben decided for her."""
    session, before = bens_destroy_while_ana_is_asked("play yay")
    hers = session.pending
    outcome = session.phone_desk.device_move("Ben", DESTROY)
    assert outcome.status == "asked" and outcome.question is None
    assert outcome.lines == (host_asked("Ana", saving=True, later=True),)
    assert outcome.reply.lines == (save_waits("Ana", "Ben"),) and outcome.reply.important
    assert session.phone_desk.devices.question_of("Ben") is None  # nothing for Ben's phone to answer
    assert session.pending is hers and len(session.game.log) == before  # her question stays; nothing recorded


@pytest.mark.parametrize("save", ["yes", "no"])
def test_the_waiting_save_is_asked_of_her_once_her_question_is_answered_and_records_bens_move(save):
    session, before = bens_destroy_while_ana_is_asked("play yay")
    session.phone_desk.device_move("Ben", DESTROY)
    reply = session.handle("no")  # her own question first: declined, nothing recorded
    assert reply.lines[0] == NOT_RECORDED and reply.lines[1].startswith(QUESTION + " Say yes")
    assert asks(reply) and len(session.game.log) == before
    session.handle(save)
    game = session.game
    made = Save(0, "basic-unicorn-red", "black-knight-unicorn") if save == "yes" else Destroy(1, "basic-unicorn-red", 0)
    assert game.log[before:] == [made] and game.phone_of(game.log[-1]) == Phone(1)  # Ben's move, from his phone


def test_a_save_that_waited_while_her_answer_recorded_a_move_is_checked_again_and_asked_of_her():
    """Her answer records a move first (her choice of the Basic Unicorn brought into Cy's Stable): Ben's destroy is
    checked against the table as it is now, and its save, still possible, is asked of her after her move is said."""
    session = Session(CARDS)
    for line in BEFORE:
        session.handle(line)
    session.handle("bring basic into Cy")  # five Basic Unicorns: which one? (a choice open on the laptop)
    before = len(session.game.log)
    assert session.phone_desk.device_move("Ben", DESTROY).status == "asked"
    reply = session.handle("2")
    assert session.game.log[before:] == [Bring(1, "basic-unicorn-blue", 2)]
    assert reply.lines[-1].startswith(QUESTION) and asks(reply)
    session.handle("no")
    assert session.game.log[before + 1 :] == [Destroy(1, "basic-unicorn-red", 0)]
    assert session.game.phone_of(session.game.log[-1]) == Phone(1)


def bens_destroy_asked_of_her() -> tuple[Session, int]:
    """Ben's phone destroys Ana's Basic Unicorn while the laptop asks nothing: the save is asked of her there. The
    session, and the log's length before the destroy."""
    session = Session(CARDS)
    for line in BEFORE:
        session.handle(line)
    before = len(session.game.log)
    outcome = session.phone_desk.device_move("Ben", DESTROY)
    assert outcome.status == "asked" and asks(outcome.reply)
    assert outcome.reply.lines[0].startswith(QUESTION)
    return session, before


@pytest.mark.parametrize("save", ["yes", "no"])
def test_a_command_typed_while_she_decides_keeps_bens_move_waiting_and_asks_again_after_its_reply(save):
    """Before, `stable Ana` typed to look before deciding began "Not recorded." and Ben's destroy was gone: neither
    made nor still waiting, while his phone still said she was asked. A command that is not her answer now leaves his
    move waiting: its reply, then the question again; only her answer settles it."""
    session, before = bens_destroy_asked_of_her()
    reply = session.handle("stable Ana")
    assert NOT_RECORDED not in reply.lines
    assert "Black Knight Unicorn" in reply.lines[0]  # the Stable first: what she asked for
    assert reply.lines[-1].startswith(QUESTION) and asks(reply)
    assert len(session.game.log) == before
    reply = session.handle("turn")  # again: still waiting
    assert reply.lines[-1].startswith(QUESTION) and asks(reply) and len(session.game.log) == before
    session.handle(save)
    game = session.game
    made = Save(0, "basic-unicorn-red", "black-knight-unicorn") if save == "yes" else Destroy(1, "basic-unicorn-red", 0)
    assert game.log[before:] == [made] and game.phone_of(game.log[-1]) == Phone(1)


def test_a_move_she_records_while_she_decides_leaves_bens_move_waiting_checked_again_after_it():
    """A game command of her own recorded first: Ben's destroy is checked against the table as it is then, and its
    save, still possible, asked of her again after her move is said."""
    session, before = bens_destroy_asked_of_her()
    reply = session.handle("bring basic yellow into Cy")
    assert NOT_RECORDED not in reply.lines
    assert session.game.log[before:] == [Bring(1, "basic-unicorn-yellow", 2)]
    assert reply.lines[-1].startswith(QUESTION) and asks(reply)
    session.handle("no")
    assert session.game.log[before + 1 :] == [Destroy(1, "basic-unicorn-red", 0)]
    assert session.game.phone_of(session.game.log[-1]) == Phone(1)


def test_missed_says_that_bens_move_waits_on_her_answer():
    """`missed` said only "Ben drew a card." while his destroy waited on her: it now says where the move stands, and
    the question stays open."""
    session, before = bens_destroy_asked_of_her()
    reply = session.handle("missed")
    assert any(line.startswith(QUESTION) for line in reply.lines), reply.lines
    assert asks(reply) or session.pending is not None
    session.handle("yes")
    assert session.game.log[before:] == [Save(0, "basic-unicorn-red", "black-knight-unicorn")]


def test_the_movers_undo_takes_back_his_waiting_move_and_the_question_is_closed():
    """Ben takes his destroy back from his phone while she decides: nothing of his is undone (his draw stays), the
    question closes, and a yes after it records nothing."""
    session, before = bens_destroy_asked_of_her()
    outcome = session.phone_desk.device_move("Ben", DeviceMove("undo", phoned=("Ben",)))
    assert outcome.status == "recorded" or outcome.status == "withdrawn"
    assert len(session.game.log) == before and session.pending is None
    assert session.handle("yes").lines != () and len(session.game.log) == before


def test_bens_phone_view_says_where_his_waiting_move_stands_until_she_answers():
    """His phone's view says his move waits on her answer while it does (asked now, or once her question is answered),
    through her commands that pass it over, and nothing once she has answered."""
    session, before = bens_destroy_while_ana_is_asked("play yay")
    devices = session.phone_desk.devices
    session.phone_desk.device_move("Ben", DESTROY)
    assert devices.waits_of("Ben") == [host_asked("Ana", saving=True, later=True)] and devices.waits_of("Cy") == []
    session.handle("no")  # her own question: the save is asked now
    assert devices.waits_of("Ben") == [host_asked("Ana", saving=True)]
    session.handle("stable Ana")
    view = phone_view(session.game, "Ben", 1, [], None, devices.waits_of("Ben"))
    assert view["game"] is not None and view["game"]["waits"] == [host_asked("Ana", saving=True)]
    session.handle("yes")
    assert devices.waits_of("Ben") == [] and len(session.game.log) == before + 1


def test_a_move_tapped_again_while_one_of_its_phone_waits_on_her_is_refused_on_the_phone_and_not_said():
    """12 taps of a destroy gave 1 question and 11 "Dee's move waits …" lines in her speech, then one more after each
    of her later commands. One move a phone waits on her at a time: the others are refused on that phone alone."""
    session, before = bens_destroy_while_ana_is_asked("play yay")
    first = session.phone_desk.device_move("Ben", DESTROY)
    assert first.reply.lines == (save_waits("Ana", "Ben"),)
    for _ in range(11):
        again = session.phone_desk.device_move("Ben", DESTROY)
        assert (again.status, again.lines, again.reply) == ("refused", (move_already_waits("Ana"),), None)
    assert len(session.phone_desk.devices.host_saves) == 1
    session.handle("no")  # her own question: then his one move is asked, once
    assert session.handle("yes").lines != () and session.game.log[before:] == [
        Save(0, "basic-unicorn-red", "black-knight-unicorn")
    ]
    assert session.handle("turn").lines[-1].startswith("Turn")  # nothing more asked after her commands


def test_a_warned_move_tapped_again_is_asked_again_on_its_phone_and_said_once_on_the_laptop():
    """Out-of-turn moves put "Ben's phone is asked whether to record it anyway." into her speech at each tap (15 lines
    in 6 s). Said once while his phone's question stays open; asked afresh on his phone each time."""
    session = Session(CARDS)
    session.handle("new game Ana Ben Cy")
    session.handle("draw")
    said = [session.phone_desk.device_move("Ben", DeviceMove("draw")) for _ in range(15)]
    assert all(outcome.status == "warning" for outcome in said)
    assert [outcome.reply.lines for outcome in said if outcome.reply is not None] == [(phone_asks(phone_name("Ben")),)]
    ids = {outcome.question for outcome in said}
    assert len(ids) == 15 and session.phone_desk.devices.question_of("Ben")["id"] == said[-1].question


def test_a_flooding_phone_puts_at_most_one_line_that_records_nothing_in_her_speech_each_3_seconds():
    """A let-in phone tapping out-of-turn moves of different kinds (each a new warning) and a discard between them
    put "Ben's phone is asked whether to record it anyway." into her speech 4 times in its first second (measured on
    `benchmarks.share_attacks`'s flooding phone). The lines that record nothing are said at most once each 3 s of
    the desk's clock, the rest shown; at most one line of his phones is said each 3 s (the words of the moves
    recorded meanwhile wait, merged: `tests/core/test_phone_spoken_every.py`)."""
    now = [0.0]
    session = Session(CARDS)
    session.phone_desk.clock = lambda: now[0]
    session.handle("new game Ana Ben Cy")
    session.handle("draw")
    spoken: list[tuple[float, str, str]] = []
    for tap in range(60):  # a tap each tenth of a second for 6 s
        verb = ("draw", "discard", "resolve")[tap % 3]
        outcome = session.phone_desk.device_move("Ben", DeviceMove(verb))
        if outcome.reply is not None and outcome.reply.speech:
            spoken.append((now[0], outcome.status, outcome.reply.speech))
        if outcome.status == "warning":
            assert outcome.reply is None or outcome.reply.lines == (phone_asks(phone_name("Ben")),)  # shown still
        now[0] = round(now[0] + 0.1, 1)
    unrecorded = [at for at, status, _ in spoken if status != "recorded"]
    assert unrecorded and all(b - a >= SPOKEN_EVERY for a, b in zip(unrecorded, unrecorded[1:]))
    discards = sum(1 for event in session.game.log if type(event).__name__ == "Discard")
    times = [at for at, _, _ in spoken]
    assert discards == 20 and all(b - a >= SPOKEN_EVERY for a, b in zip(times, times[1:]))  # one line in 3 s
