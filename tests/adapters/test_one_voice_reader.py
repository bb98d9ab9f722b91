"""One voice through a screen reader that queues what it is given (NVDA, VoiceOver): her reply is handed to it whole,
the table's question and all ("Any Neigh for Ben's Neigh?"). When a phone's move closes that question while the
reader may still be saying it, the reader is silenced, and what else of ours it was handed after her reply (other
hands' words said in turn, or at her pause) is handed to it again without the question: never lost, never said twice
(issue 107). The real speech service and the real `ScreenReaderBackend`, with an accessible_output2 output standing
for the reader (NVDA and VoiceOver cannot run here) and the worker on the test's clock."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

import pytest

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Channel, Segment, Verbatim
from assistant.core.language.reply import Origin
from assistant.core.speech.utterance import reader_may_take, reader_seconds
from assistant.speech import SpeechService
from assistant.speech.readers import ScreenReaderBackend
from assistant.speech.replies import ReplySpeaker
from tests.core.test_speech_stale_question import turn_asked

QUESTION = "Any Neigh"
PLAYERS = ("Ana", "Ben", "Cy")


class Reader:
    """An accessible_output2 output standing for NVDA: it keeps, in order, each text it is handed and each silence."""

    name = "NVDA"

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []
        self.changed = threading.Condition()

    def is_active(self) -> bool:
        return True

    def is_system_output(self) -> bool:
        return False

    def speak(self, text: str, interrupt: bool = False) -> None:
        with self.changed:
            self.events.append(("speak", text))
            self.changed.notify_all()

    def silence(self) -> None:
        with self.changed:
            self.events.append(("silence", ""))
            self.changed.notify_all()

    def wait_for(self, done: Callable[[list[tuple[str, str]]], bool], timeout: float = 30.0) -> bool:
        """Wait until `done(events)` (the worker hands and silences on its own thread)."""
        with self.changed:
            return self.changed.wait_for(lambda: done(self.events), timeout)

    def handed(self) -> list[str]:
        return [text for kind, text in self.events if kind == "speak"]

    def wait_handed(self, count: int) -> bool:
        """Wait until `count` texts were handed."""
        return self.wait_for(lambda events: sum(kind == "speak" for kind, _ in events) >= count)


class DrewReply:
    """A phone's reply that records a draw (or, `moves` False, tells no move: a phone joining)."""

    def __init__(self, seat: int, moves: bool = True) -> None:
        name = PLAYERS[seat]
        speech = f"{name} drew a card." if moves else f"{name}'s phone joined."
        self.lines, self.speech, self.important, self.card = (speech,), speech, False, None
        self.hint, self.sound, self.private = False, "", False
        self.pending, self.facts, self.settles, self.hand = None, (), False, name
        self.segments = (Segment(Verbatim(speech)),)
        self.tells = (About(Topic.MOVE, (seat,), name, MoveKind.DRAW, at=seat),) if moves else ()
        self.origin = Origin.other_hand(name)


class OneVoice:
    """One voice (no table voice) through the reader's stand-in, on the test's clock; other hands' words held while
    the reader says them until the test lets them end (`release`)."""

    def __init__(self, *, at_pause: bool) -> None:
        self.now = [100.0]
        self.reader = Reader()
        self.gate = threading.Semaphore(0)
        self.held: list[float] = []  # each hold's seconds, as it begins
        self.said = [0.0]  # the reader's clock: it moves by each hold the test let end (the reader said it)
        backend = ScreenReaderBackend(lambda: [self.reader], hold=self._hold, clock=lambda: self.said[0])
        self.service = SpeechService(backend, clock=lambda: self.now[0], at_pause=at_pause)
        self.speaker = ReplySpeaker(self.service)
        self.speaker.players = lambda: PLAYERS
        assert self.service.ready.wait(30)

    def _hold(self, seconds: float, wanted: Callable[[], bool]) -> None:
        self.held.append(seconds)
        while wanted():
            if self.gate.acquire(timeout=0.01):  # (else re-checks `wanted`: a cut ends the hold)
                self.said[0] += seconds
                return

    def wait_worker(self, done: Callable[[], bool]) -> None:
        """Wait until `done()`, 30 s at most (the speech worker's thread, polled)."""
        deadline = time.monotonic() + 30
        while not done() and time.monotonic() < deadline:
            time.sleep(0.005)

    def key_then_all(self, reply: object) -> tuple[list[tuple[str, str]], str]:
        """Her key (`reply`) now, then everything let end (`finish`): the reader's events from the key on, and the
        texts it was handed in them, joined."""
        start = len(self.reader.events)
        self.speaker(reply)
        self.finish()
        after = self.reader.events[start:]
        return after, " ".join(text for kind, text in after if kind == "speak")

    def finish(self) -> None:
        """Let every hold end, her pause come, and everything be handed."""
        self.now[0] += 10.0
        self.gate.release(20)
        assert self.service.wait_idle(30)

    def close(self) -> None:
        self.gate.release(20)
        self.service.close()


@pytest.fixture(params=[True, False], ids=["at-her-pause", "in-turn"])
def one_voice(request):
    voice = OneVoice(at_pause=request.param)
    yield voice
    voice.close()


def _after(events: list[tuple[str, str]], start: int) -> list[tuple[str, str]]:
    return events[start:]


def test_a_question_a_phones_move_closed_is_never_said_after_it_by_her_reader(one_voice):
    """She typed `turn`; its reply ends "Any Neigh for Ben's Neigh?"; a second later Ben resolves the Neigh from his
    phone (held to her pause while she types, or said in turn): her reader is silenced, and never handed the question
    again."""
    asked, resolved = turn_asked()
    one_voice.speaker(asked)
    assert one_voice.reader.wait_handed(1)  # her reply, whole, question and all
    assert QUESTION in one_voice.reader.handed()[0]
    start = len(one_voice.reader.events)
    one_voice.now[0] += 1.0
    one_voice.speaker.other(resolved.coming(Origin.other_hand("Ben")))
    one_voice.finish()
    after = _after(one_voice.reader.events, start)
    assert after[:1] == [("silence", "")], after
    handed = [text for kind, text in after if kind == "speak"]
    assert not any(QUESTION in text for text in handed), handed
    assert sum(text.count("Ben's Neigh") for text in handed) == 1, handed  # the move itself, once


def test_a_phones_move_whose_words_wait_silences_her_reader_asking_the_question_it_closed(one_voice):
    """A phone's move within 3 s of its player's last line is recorded and shown at once, its words said later, merged
    (`phone_desk.SPOKEN_EVERY`): the question it closed is not said meanwhile."""
    asked, resolved = turn_asked()
    one_voice.speaker(asked)
    assert one_voice.reader.wait_handed(1)
    start = len(one_voice.reader.events)
    one_voice.now[0] += 1.0
    screen = tuple(dataclasses.replace(segment, channel=Channel.SCREEN) for segment in resolved.segments)
    waits = dataclasses.replace(resolved, segments=screen).coming(Origin.other_hand("Ben"))
    assert not waits.speech and waits.tells  # (its words wait: a move recorded all the same)
    one_voice.speaker.other(waits)
    one_voice.finish()
    assert _after(one_voice.reader.events, start) == [("silence", "")]


def test_other_hands_words_handed_after_her_reply_are_handed_again_once_when_its_question_is_closed(one_voice):
    """Cy drew a card from his phone; she typed `turn` while the reader said it: Cy's words were cut, and are handed
    after her reply (at once in turn, at her pause else), behind its question. Ben's resolve closes the question
    while the reader may still be saying it: the silence that stops the question stops Cy's words too, so they are
    handed again, once, after it."""
    asked, resolved = turn_asked()
    one_voice.speaker.other(DrewReply(2))
    assert one_voice.reader.wait_handed(1)
    one_voice.now[0] += 0.5
    one_voice.speaker(asked)  # her key: the reader silenced, her reply handed whole
    assert one_voice.reader.wait_handed(2) and QUESTION in one_voice.reader.handed()[1]
    one_voice.now[0] += 2.0  # her pause
    assert one_voice.reader.wait_handed(3) and "Cy drew a card" in one_voice.reader.handed()[2]
    start = len(one_voice.reader.events)
    one_voice.now[0] += 0.5
    assert one_voice.now[0] < 100.5 + reader_may_take(asked.speech)  # the reader may still be asking the question
    one_voice.speaker.other(resolved.coming(Origin.other_hand("Ben")))
    one_voice.finish()
    after = _after(one_voice.reader.events, start)
    assert after[:1] == [("silence", "")], after
    handed = [text for kind, text in after if kind == "speak"]
    assert sum(text.count("Cy drew a card") for text in handed) == 1, handed  # handed again: not lost, not twice
    assert sum(text.count("Ben's Neigh") for text in handed) == 1, handed
    assert not any(QUESTION in text for text in handed), handed
    assert ("silence", "") not in after[1:], after  # silenced once


@pytest.mark.parametrize("case", ["asks-nothing", "records-no-move", "long-said"])
def test_a_move_that_closes_nothing_her_reader_may_say_never_silences_it(one_voice, case):
    """A phone's move when her reply asked nothing, a phone's message that records no move, or a move long after the
    reader could still be saying the question (`reader_may_take`): the reader goes on."""
    asked, resolved = turn_asked()
    if case == "asks-nothing":
        mine = DrewReply(0)
        mine.tells, mine.hand = (), ""
        one_voice.speaker(mine)
    else:
        one_voice.speaker(asked)
    assert one_voice.reader.wait_handed(1)
    start = len(one_voice.reader.events)
    one_voice.now[0] += reader_may_take(asked.speech) + 0.1 if case == "long-said" else 1.0
    move = DrewReply(1, moves=False) if case == "records-no-move" else resolved.coming(Origin.other_hand("Ben"))
    one_voice.speaker.other(move)
    one_voice.finish()
    after = _after(one_voice.reader.events, start)
    assert ("silence", "") not in after, after
    if case != "records-no-move":
        assert "Ben's Neigh" in one_voice.reader.handed()[-1], after  # the move, after what the reader said


def test_a_digest_her_key_cut_is_handed_again_from_the_sentence_her_reader_had_not_yet_said():
    """At her pause the reader is handed the digest of two phones' draws, a sentence held for as long as the reader
    takes to say it; her key comes while it says the second: the reader is silenced, and after her reply it is handed
    only what it had not said. Before, the reader told nothing of its progress, so each key sent the digest back to
    its first sentence: at the end of a game of a key every 1.2 s, a 40-second digest was begun again and again, and
    what came after its first sentences was never said."""
    voice = OneVoice(at_pause=True)
    try:
        mine = DrewReply(0)
        mine.tells, mine.hand = (), ""
        voice.speaker(mine)  # her key
        for seat in (1, 2):
            voice.now[0] += 0.3
            voice.speaker.other(DrewReply(seat))  # held to her pause
        assert voice.reader.wait_handed(1)
        voice.now[0] += 3.0  # her pause: the digest
        assert voice.reader.wait_handed(2)
        digest = voice.reader.handed()[1]
        assert digest.startswith("Ben drew a card.") and "Cy drew a card." in digest, digest
        voice.gate.release(2)  # the reader said her reply, then the digest's first sentence
        queue = voice.service._worker.queue
        voice.wait_worker(lambda: queue.played >= 1)
        assert queue.played == 1
        after, handed = voice.key_then_all(mine)  # her next key, while it says the second
    finally:
        voice.close()
    assert after[:1] == [("silence", "")], after
    assert "Ben drew" not in handed and handed.count("Cy drew a card.") == 1, after


def test_a_move_handed_behind_her_reply_is_heard_only_once_her_reader_has_said_her_reply_before_it():
    """In turn, a phone's draw comes while her reader says her reply: it is handed behind it, and held first for what
    the reader has still to say of her reply, then for its own sentence. Her next key then silences the reader and
    the draw, not yet said, is handed again. Before, its hold counted its own sentence alone, from when it was handed:
    it was counted heard while the reader still said her reply, and the key that silenced the reader lost it (a turn's
    end in a Unicorns game through the NVDA stand-in, two in six)."""
    voice = OneVoice(at_pause=False)
    try:
        mine = DrewReply(0)
        mine.tells, mine.hand = (), ""
        voice.speaker(mine)  # her key
        assert voice.reader.wait_handed(1)
        voice.now[0] += 0.3
        voice.speaker.other(DrewReply(1))  # Ben's draw, in turn
        assert voice.reader.wait_handed(2)
        voice.gate.release()  # one hold ends: her reply's rest (now), or the draw's own sentence (before)
        queue = voice.service._worker.queue
        voice.wait_worker(lambda: len(voice.held) >= 2 or queue.played >= 1)
        assert voice.held[0] == pytest.approx(reader_seconds(voice.reader.handed()[0])), voice.held  # her reply
        assert queue.played == 0  # the draw is not yet heard
        after, handed = voice.key_then_all(mine)  # her next key, while the reader says the draw
    finally:
        voice.close()
    assert after[:1] == [("silence", "")], after
    assert handed.count("Ben drew a card.") == 1, after
