"""The phones word what a reply recorded, undid or redid themselves, from its values (`Reply.recorded`,
`words.recorded`): the same typed steps as the laptop's lines, never how to say a move, a phone's move attributed to
its player on the other phones and not on its own."""

from __future__ import annotations

from assistant.core.language.device import DeviceMove
from assistant.core.words.recorded import last_moves, mover_first, recorded_lines
from tests.core.test_device_moves import game_after


def test_a_phones_turn_end_is_worded_from_its_values_attributed_on_the_other_phones_only():
    session = game_after(["draw", "end turn", "draw"])
    outcome = session.phone_desk.device_move("Ben", DeviceMove("end"))
    table, reply = session.game.table, outcome.reply
    assert [(one.by, one.ended_turn, one.back) for one in reply.recorded] == [("Ben", True, "")]
    assert recorded_lines(table, reply.recorded) == ("Ben ended the turn. Turn 3: Cy's turn.",)
    assert recorded_lines(table, reply.recorded, attributed=False) == ("Turn 3: Cy's turn.",)
    assert mover_first(table, reply.recorded) == ("Ben", "Turn 3: Cy's turn.")
    assert outcome.lines == ("Turn 3: Cy's turn.",)  # what Ben's own phone is answered
    assert reply.lines == ("Ben, from a phone: ended the turn. Turn 3: Cy's turn.",)  # the laptop's own words


def test_the_phones_words_of_a_move_skip_the_notes_the_laptop_adds_after():
    """A note the laptop adds after a reply's lines ("From Ana's phone 2.") is the laptop's: the phones' words of the
    reply, made from its steps, never carry it."""
    session = game_after([])
    reply = session.handle("draw").after("From Ana's phone 2.")
    lines = recorded_lines(session.game.table, reply.recorded)
    assert lines == ("Ana drew a card.", "Action phase.") and "From Ana's phone 2." in reply.lines


def test_an_undos_words_on_the_phones_are_made_from_the_steps_it_took_back():
    session = game_after(["draw"])
    reply = session.handle("undo")
    (one,) = reply.recorded
    assert one.back == "undo" and len(one.steps) == 1
    lines = recorded_lines(session.game.table, reply.recorded)
    assert lines[0].startswith("Undone: the card Ana drew"), lines
    (kept,) = [move for move in last_moves(reply.facts, reply.tells, lines, at=0) if move.kind == "undo"][:1]
    assert kept.text == lines[0] and kept.back == (len(session.game.log) + 1,)
