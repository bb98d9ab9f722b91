"""A save "instead" asked of the card's owner on their own phone is a question another player's move waits on: it
never lapses while that move waits (the move is checked again against the table when the owner answers), the owner's
phone answers it before any move of its own, and only the owner's answer or the mover's undo settles it. On the
session, as the app and the plain mode both use it."""

from __future__ import annotations

from assistant.core.game.events import Bring, Destroy, Save
from assistant.core.game.history import Phone
from assistant.core.language.device import DeviceMove
from assistant.core.words.share import move_withdrawn, phone_asks, phone_name, save_first, waiting_move_withdrawn
from assistant.session import Session
from assistant.storage.decks import load_card_set

CARDS = load_card_set()
#: Black Knight Unicorn and a Basic Unicorn in Cy's Stable; Ben's turn, his Unicorn Poison resolved.
BEFORE = (
    "new game Ana Ben Cy babies red pink orange",
    "bring black knight unicorn into Cy",
    "bring basic red into Cy",
    "draw",
    "end turn",
    "Ben draw",
    "Ben play unicorn poison",
    "resolve",
)
DESTROY = DeviceMove("destroy", card="basic-unicorn-red", target="Cy", phoned=("Ben", "Cy"))
SAVED = Save(2, "basic-unicorn-red", "black-knight-unicorn")
DESTROYED = Destroy(1, "basic-unicorn-red", 2)


def cy_asked_to_save() -> tuple[Session, int, str]:
    """Ben's phone destroys Cy's Basic Unicorn: the save is asked on Cy's phone. The session, the log's length before
    the destroy, and the question's id."""
    session = Session(CARDS)
    for line in BEFORE:
        session.handle(line)
    before = len(session.game.log)
    outcome = session.phone_desk.device_move("Ben", DESTROY)
    assert outcome.status == "asked"
    question = session.phone_desk.devices.question_of("Cy")
    assert question is not None
    return session, before, question["id"]


def test_a_save_asked_on_the_owners_phone_stays_asked_when_the_table_changes_and_her_yes_saves():
    """Before, a move recorded at the laptop meanwhile made Cy's question lapse: her answer was "stale" and Ben's
    destroy was neither made nor waiting."""
    session, before, question = cy_asked_to_save()
    session.handle("bring basic yellow into Ana")
    assert session.game.log[before:] == [Bring(1, "basic-unicorn-yellow", 0)]  # (in Ben's turn: his)
    assert session.phone_desk.devices.question_of("Cy") is not None  # still asked on her phone
    answered = session.phone_desk.device_answer("Cy", question, True, phoned=("Ben", "Cy"))
    assert answered.status == "recorded"
    assert session.game.log[before + 1 :] == [SAVED] and session.game.phone_of(session.game.log[-1]) == Phone(1)


def test_the_owners_no_after_the_table_changed_records_the_move_checked_again():
    session, before, question = cy_asked_to_save()
    session.handle("bring basic yellow into Ana")
    answered = session.phone_desk.device_answer("Cy", question, False, phoned=("Ben", "Cy"))
    assert answered.status == "recorded"
    assert session.game.log[before + 1 :] == [DESTROYED] and session.game.phone_of(session.game.log[-1]) == Phone(1)


def test_the_owners_phone_answers_the_save_before_a_move_of_its_own():
    """Before, a move of Cy's replaced her phone's open question, and Ben's destroy was gone."""
    session, before, question = cy_asked_to_save()
    refused = session.phone_desk.device_move("Cy", DeviceMove("draw"))
    assert (refused.status, refused.lines) == ("refused", (save_first("Ben"),))
    assert len(session.game.log) == before and session.phone_desk.devices.question_of("Cy") is not None
    assert session.phone_desk.device_answer("Cy", question, True, phoned=("Ben", "Cy")).status == "recorded"
    assert session.game.log[before:] == [SAVED]


def test_the_movers_view_says_his_move_waits_on_her_phone_and_his_undo_takes_it_back():
    session, before, question = cy_asked_to_save()
    devices = session.phone_desk.devices
    assert devices.waits_of("Ben") == [phone_asks(phone_name("Cy"), saving=True)]
    withdrawn = session.phone_desk.device_move("Ben", DeviceMove("undo", phoned=("Ben", "Cy")))
    assert (withdrawn.status, withdrawn.lines) == ("withdrawn", (move_withdrawn("Cy"),))
    assert withdrawn.reply.lines == (waiting_move_withdrawn("Ben", "Cy"),)
    assert len(session.game.log) == before and devices.question_of("Cy") is None and devices.waits_of("Ben") == []
    late = session.phone_desk.device_answer("Cy", question, True, phoned=("Ben", "Cy"))
    assert late.status == "stale" and len(session.game.log) == before
