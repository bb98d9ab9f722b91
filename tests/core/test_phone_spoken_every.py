"""At most one line a player's phones put into her speech each `SPOKEN_EVERY` seconds, moves recorded included: the
words of a move that comes within them wait, merged with the player's other moves, and are said as one line once
they are up (`PhoneDesk.say_held`, on the front ends' timer); nothing is lost (every move shown at once and kept for
`missed`), and a question to her, a win and a turn that begins are never delayed. On the session, with the desk's
clock injected."""

from __future__ import annotations

import re

from assistant.core.game.about import Topic
from assistant.core.language.device import DeviceMove
from assistant.core.language.reply import Reply
from assistant.phone_desk import SPOKEN_EVERY
from assistant.session import Session
from assistant.storage.decks import load_card_set

CARDS = load_card_set()


class Clock:
    """The desk's time, moved by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def table() -> tuple[Session, Clock]:
    """A game of Ana, Ben and Cy in Ana's turn (she drew), the desk on a clock of the test's own."""
    session = Session(CARDS)
    clock = Clock()
    session.phone_desk.clock = clock
    session.handle("new game Ana Ben Cy babies red pink orange")
    session.handle("draw")
    return session, clock


def moves_told(reply: Reply) -> int:
    """How many moves a reply's speech tells (a merged sentence tells each of its parts)."""
    spoken = [segment for segment in reply.segments if segment.channel.spoken]
    return sum(len(fact.parts) or 1 for segment in spoken for fact in segment.about if fact.topic is Topic.MOVE)


def due(session: Session, clock: Clock) -> Reply | None:
    """What the front ends' timer says now, when the desk has held words due (None: nothing due)."""
    waiting = session.phone_desk.next_due()
    if waiting is None or waiting[1] > 0:
        return None
    return session.phone_desk.say_held(waiting[0]).reply


def test_a_phone_whose_moves_are_all_recorded_says_at_most_one_line_each_3_seconds_and_every_move_in_them():
    """Ben's phone discards every half second for 6 s, each recorded. Before, each move was said at once: 12 lines
    in 6 s, 6 in any 3 s. Now one line each 3 s, the moves that came meanwhile merged into it, every one told; the
    first said at once (no wait for a move after a quiet table), and a move 3 s after the last line too."""
    session, clock = table()
    spoken: list[tuple[float, Reply]] = []
    for _ in range(12):
        outcome = session.phone_desk.device_move("Ben", DeviceMove("discard"))
        assert outcome.status == "recorded" and outcome.reply.lines  # shown at once, every one
        if outcome.reply.speech:
            spoken.append((clock.now, outcome.reply))
        clock.now += 0.5
        held = due(session, clock)
        if held is not None:
            assert not held.lines  # said only: each was shown in its time
            spoken.append((clock.now, held))
    clock.now += SPOKEN_EVERY
    held = due(session, clock)
    if held is not None:
        spoken.append((clock.now, held))
    assert session.phone_desk.next_due() is None  # nothing left waiting
    times = [at for at, _ in spoken]
    assert times[0] == 100.0  # the first move said at once
    assert all(b - a >= SPOKEN_EVERY for a, b in zip(times, times[1:]))
    assert sum(moves_told(reply) for _, reply in spoken) == 12  # every move told, merged
    assert any(re.fullmatch(r"Ben discarded [2-9] cards\.", reply.speech) for _, reply in spoken)  # merged, counted
    clock.now += SPOKEN_EVERY
    later = session.phone_desk.device_move("Ben", DeviceMove("discard"))
    assert later.reply.speech.startswith("Ben discarded a card")  # 3 s after the last line: at once


def test_moves_whose_words_wait_are_kept_for_missed_and_history_at_once():
    """Nothing is lost while the words wait: `missed` tells every move, and `history` shows each."""
    session, clock = table()
    for _ in range(3):
        session.phone_desk.device_move("Ben", DeviceMove("discard"))
        clock.now += 0.2
    assert session.phone_desk.next_due() is not None  # two moves' words wait
    news = session.handle("missed")
    assert news.speech.endswith("Ben discarded 3 cards.")  # the same move in a row: once, with a count
    assert session.handle("history").lines.count("Ben discarded a card.") == 3


def test_a_turn_that_begins_is_never_delayed_and_says_the_held_moves_first():
    """Ana's phone discards, then ends her turn half a second later: the turn is said at once (never held), with the
    discard's words that waited said first in the same line; nothing waits after it."""
    session, clock = table()
    first = session.phone_desk.device_move("Ana", DeviceMove("discard"))
    assert first.reply.speech
    clock.now += 0.5
    second = session.phone_desk.device_move("Ana", DeviceMove("discard"))
    assert second.status == "recorded" and not second.reply.speech
    clock.now += 0.5
    ended = session.phone_desk.device_move("Ana", DeviceMove("end"))
    assert ended.reply.speech.startswith("Ana discarded a card.")  # what waited, first
    assert "Ben's turn" in ended.reply.speech and session.phone_desk.next_due() is None


def test_a_joining_phone_is_said_once_a_player_each_3_seconds_and_its_question_always():
    """Phones asking to join as Ben one after another: the first is her question (said); the next, told beside it,
    is said; the one after within 3 s is shown, not said (a device asking many times a second floods nothing)."""
    from assistant.core.language.device import DeviceJoined

    class Waits:
        def waits(self) -> bool:
            return True

        def decide(self, allow: bool) -> bool:
            return True

        def code(self) -> str:
            return "123456"

    session, clock = table()
    asked = session.phone_desk.device_joined("Ben", DeviceJoined(1, Waits(), "blue 7"))
    assert asked.reply.pending is not None and asked.reply.speech
    clock.now += SPOKEN_EVERY
    told = session.phone_desk.device_joined("Ben", DeviceJoined(2, Waits(), "red 3"))
    assert told.reply.speech
    clock.now += 0.5
    shown = session.phone_desk.device_joined("Ben", DeviceJoined(3, Waits(), "green 4"))
    assert shown.reply.lines and not shown.reply.speech


def test_words_that_waited_of_a_game_left_are_never_said_in_the_next():
    """Ben's move's words wait; the host starts a new game before they are due: they are never said (the move was
    shown in its game), and nothing waits."""
    session, clock = table()
    session.phone_desk.device_move("Ben", DeviceMove("discard"))
    clock.now += 0.5
    session.phone_desk.device_move("Ben", DeviceMove("discard"))
    assert session.phone_desk.next_due() is not None
    session.handle("new game Ana Ben Cy babies red pink orange")
    session.handle("yes")  # (the game in progress stays saved)
    clock.now += SPOKEN_EVERY
    assert session.phone_desk.say_held("Ben").reply is None and session.phone_desk.next_due() is None


def test_the_words_of_a_move_undone_while_they_waited_are_never_said():
    """Ben's phone discards twice half a second apart: the second's words wait. Ana undoes that discard at the
    laptop before they are due: they are never said (before, "Ben discarded a card." came after "Undone: ..."),
    while a waiting move that still stands is said."""
    session, clock = table()
    session.phone_desk.device_move("Ben", DeviceMove("discard"))
    clock.now += 0.5
    held = session.phone_desk.device_move("Ben", DeviceMove("discard"))
    assert held.status == "recorded" and not held.reply.speech
    undone = session.handle("undo")
    assert undone.speech.startswith("Undone")
    clock.now += SPOKEN_EVERY
    assert due(session, clock) is None and session.phone_desk.next_due() is None
    clock.now += 0.5
    session.phone_desk.device_move("Ben", DeviceMove("discard"))  # said at once: 3.5 s after the last line
    clock.now += 0.5
    session.phone_desk.device_move("Ben", DeviceMove("discard"))
    session.handle("undo")
    session.handle("redo")  # put back: it stands again
    clock.now += SPOKEN_EVERY
    again = due(session, clock)
    assert again is not None and moves_told(again) == 1 and again.speech.startswith("Ben discarded a card")
