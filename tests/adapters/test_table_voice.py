"""The table's voice beside her own: other hands' moves in a voice she can tell apart, never in her screen reader's
queue, and carried by her one voice when she turns the second off."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Channel, Segment, Verbatim
from assistant.core.language.reply import Origin
from assistant.core.speech.settings import TABLE_RATE, SpeechSettings
from assistant.core.speech.utterance import READER_WORDS_PER_SECOND, Utterance
from assistant.speech import SpeechService
from assistant.speech.backends import EspeakBackend, espeak_apart, voice_apart
from assistant.speech.mixer import read_samples
from assistant.speech.readers import ScreenReaderBackend
from assistant.speech.replies import ReplySpeaker
from benchmarks.voice_measure import median_pitch, read_wav
from tests.facts import fact
from tests.recording_backend import RecordingBackend


class ReaderBackend(RecordingBackend):
    """Stands for her screen reader: it queues what it is given and returns at once."""

    name = "NVDA"
    queues_itself = True


class PhoneReply:
    def __init__(self, speech: str, seat: int, hand: str) -> None:
        name = ("Ana", "Ben", "Cy", "Dee")[seat]
        self.lines, self.speech, self.important, self.card = (speech,), speech, False, None
        self.hint, self.sound = False, ""
        self.pending, self.facts, self.settles, self.hand = None, (), False, hand
        self.segments = (Segment(Verbatim(speech)),)
        self.tells = (About(Topic.MOVE, (seat,), name, MoveKind.DRAW, at=seat),)


class OwnReply(PhoneReply):
    def __init__(self, speech: str) -> None:
        super().__init__(speech, 0, "")
        self.tells = ()


def test_with_the_table_voice_other_hands_moves_never_enter_her_screen_readers_queue():
    reader, table_backend = ReaderBackend(), RecordingBackend(hold=True)
    table = SpeechService(table_backend)
    service = SpeechService(reader, table=table)
    speaker = ReplySpeaker(service)
    speaker.players = lambda: ("Ana", "Ben", "Cy", "Dee")
    try:
        assert service.ready.wait(10) and table.ready.wait(10)
        speaker(OwnReply("Ana's Stable: Rainbow Aura."))
        assert reader.wait_started(1)
        for seat, name in ((1, "Ben"), (2, "Cy"), (3, "Dee")):
            speaker.other(PhoneReply(f"{name} drew a card.", seat, name))
        speaker(OwnReply("Pile: empty."))
        assert table_backend.wait_started(1)
        table_backend.hold = False
        table_backend.release(10)
        assert service.wait_idle(10)
    finally:
        service.close()
    assert reader.said == ["Ana's Stable: Rainbow Aura.", "Pile: empty."]  # hers alone
    heard = " ".join(table_backend.said)
    assert all(f"{name} drew a card." in heard for name in ("Ben", "Cy", "Dee"))  # every hand, in the table voice


def test_a_phones_move_whose_words_wait_is_never_said_by_the_table_voice_folded_into_anothers():
    """A phone's move within 3 s of its player's last line is shown and its words wait for the desk's merged line
    (`phone_desk.SPOKEN_EVERY`): its reply says nothing, but still tells its move as a value. Before, the table voice
    queued it while busy and folded its move into the next hand's words ("Ben drew a card. Dee drew a card."): said
    before, and beside, the desk's line."""
    table_backend = RecordingBackend(hold=True)
    table = SpeechService(table_backend)
    service = SpeechService(ReaderBackend(), table=table)
    speaker = ReplySpeaker(service)
    speaker.players = lambda: ("Ana", "Ben", "Cy", "Dee")
    muted = PhoneReply("Ben drew a card.", 1, "Ben")
    muted.speech, muted.segments = "", (Segment(Verbatim("Ben drew a card."), muted.tells, channel=Channel.SCREEN),)
    try:
        assert service.ready.wait(10) and table.ready.wait(10)
        speaker.other(PhoneReply("Cy drew a card.", 2, "Cy"))
        assert table_backend.wait_started(1)  # the table voice is busy
        speaker.other(muted)
        speaker.other(PhoneReply("Dee drew a card.", 3, "Dee"))
        table_backend.hold = False
        table_backend.release(10)
        assert service.wait_idle(10)
    finally:
        service.close()
    heard = " ".join(table_backend.said)
    assert "Cy drew a card." in heard and "Dee drew a card." in heard and "Ben" not in heard, heard


def test_the_table_voice_is_another_voice_than_hers_by_default():
    assert espeak_apart("") == "en+f3" and espeak_apart("en-gb") == "en-gb+f3" and espeak_apart("en+f2") == "en+m3"
    voices = [("david", "male"), ("zira", "female"), ("mark", "male")]
    assert voice_apart(voices, "david") == "zira"  # SAPI5: another gender where one is listed
    assert voice_apart([("a", ""), ("b", "")], "a") == "b" and voice_apart([("a", "")], "a") == ""
    assert SpeechSettings().table_rate == TABLE_RATE == 69  # about 280 words a minute (docs/speech.md)


def _pitch(path: Path) -> float:
    """The median pitch (Hz) of a speech file's voiced frames, 0.0 when none is voiced: the benchmarks' one measure
    (`benchmarks.voice_measure`), whose loudness is the file's own, so a soft voice is measured too."""
    return median_pitch(*read_wav(path)) or 0.0


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
def test_rendered_the_table_voice_sounds_apart_from_hers_and_faster(tmp_path):
    """Real renders: the same sentence in her voice and in the table's, measured."""
    text = "Ben played Basic Unicorn (Red). Cy drew a card."
    hers = EspeakBackend(None)
    table = EspeakBackend(None, rate=TABLE_RATE)
    table.apart_from = ""
    for backend in (hers, table):
        backend.open()
    hers.render(text, tmp_path / "hers.wav")
    table.render(text, tmp_path / "table.wav")
    hers_s, table_s = (len(read_samples(tmp_path / f"{n}.wav")) for n in ("hers", "table"))
    assert table_s < 0.8 * hers_s  # at its own, faster rate
    assert _pitch(tmp_path / "table.wav") > 1.4 * _pitch(tmp_path / "hers.wav")  # another voice: far higher
    assert subprocess.run(["espeak-ng", "--voices=en"], capture_output=True, text=True).returncode == 0


class Output:
    """An accessible_output2 output standing for NVDA: it keeps what it is given."""

    name = "NVDA"

    def __init__(self) -> None:
        self.spoken: list[str] = []

    def is_active(self) -> bool:
        return True

    def is_system_output(self) -> bool:
        return False

    def speak(self, text: str, interrupt: bool = False) -> None:
        self.spoken.append(text)

    def silence(self) -> None:
        pass


def test_with_one_voice_her_screen_reader_is_handed_other_hands_moves_one_at_a_time_merged_a_player_a_sentence():
    output, gate, held, said = Output(), threading.Semaphore(0), [], [0.0]

    def hold(seconds: float, wanted) -> None:  # the reader saying it: until the test lets it end
        held.append(seconds)
        while wanted():
            if gate.acquire(timeout=0.01):
                said[0] += seconds  # the reader's clock
                return

    backend = ScreenReaderBackend(lambda: [output], hold=hold, clock=lambda: said[0])
    service = SpeechService(backend)  # no table voice: one voice
    speaker = ReplySpeaker(service)
    speaker.players = lambda: ("Ana", "Ben", "Cy", "Dee")
    try:
        assert service.ready.wait(10)
        speaker.other(PhoneReply("Ben drew a card.", 1, "Ben"))
        while not held:
            threading.Event().wait(0.005)  # (the speech worker thread, polled)
        for seat, name in ((2, "Cy"), (3, "Dee"), (2, "Cy")):
            speaker.other(PhoneReply(f"{name} drew a card.", seat, name))
        assert output.spoken == ["Ben drew a card."]  # the others wait here, not in her reader's queue
        gate.release()
        while len(held) < 2:
            threading.Event().wait(0.005)  # (the speech worker thread, polled)
        assert len(output.spoken) == 2
        merged = output.spoken[1]
        assert merged.count("Cy") == 1 and "Dee drew a card." in merged  # a player a sentence, every move in it
        gate.release(2)  # (held a sentence at a time)
        assert service.wait_idle(10)
    finally:
        gate.release(5)
        service.close()
    assert held[0] == pytest.approx(4 / READER_WORDS_PER_SECOND)  # as long as a reader takes to say four words
    assert len(held) == 3  # then the merged words, a sentence at a time


class SpeechdClient:
    """speech-dispatcher's client as the backend uses it: a message is queued and its end comes later (the real
    daemon's timing is in tests/adapters/test_speech_sound.py; here the clock is the test's)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.callbacks: list = []

    def speak(self, text: str, callback=None, event_types=None):
        self.sent.append(text)
        self.callbacks.append(callback)
        return ("225", "OK MESSAGE QUEUED", (str(len(self.sent)),))

    def cancel(self) -> None:
        pass


class Callbacks:
    END, CANCEL = "end", "cancel"


class Looked(threading.Condition):
    """The condition a speech-dispatcher backend waits on for a message's end, which tells when the waiting worker
    has looked at its wait again after the last wake-up: a wrong wake is seen as it happens, with no time allowed
    for it (on a busy machine, a set time could pass before the worker even woke)."""

    def __init__(self) -> None:
        super().__init__()
        self.waits = 0
        self.woken_at = 0

    def wait(self, timeout: float | None = None) -> bool:
        self.waits += 1
        return super().wait(timeout)

    def notify_all(self) -> None:
        self.woken_at = self.waits
        super().notify_all()

    def looked_again(self, went_on: Callable[[], bool], bound: float = 60.0) -> bool:
        """Until the worker waits again after the last wake-up (under the lock: it checked, and did not go on), or
        `went_on()` (it did go on); the bound is a failure's only."""
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline:
            with self:
                if self.waits > self.woken_at or went_on():
                    return True
            threading.Event().wait(0.005)  # (the worker thread, polled)
        return False


def _reader_service(now: list[float]) -> tuple[SpeechService, SpeechdClient]:
    from types import SimpleNamespace

    from assistant.speech.dispatcher import SpeechdBackend

    backend, client = SpeechdBackend(), SpeechdClient()
    backend.open = lambda: None  # type: ignore[method-assign]  # (connected: the client stands for the socket)
    backend._client, backend._module = client, SimpleNamespace(CallbackType=Callbacks)
    service = SpeechService(backend, clock=lambda: now[0])
    assert service.ready.wait(10)
    return service, client


@pytest.mark.parametrize(("cut_after", "folded"), [(0.3, True), (0.8, False)])
def test_through_speech_dispatcher_a_fact_cut_in_its_last_words_is_heard_not_folded_into_every_reply(cut_after, folded):
    """speech-dispatcher tells a message's end, not its length: a key 1.2 s after "Ana 2 Unicorns." (a reader says
    it in about a second) used to count it unheard, so it was folded before every later reply and her own words were
    never reached (24 of 93 keys in the benchmark)."""
    now = [100.0]
    service, client = _reader_service(now)
    waiting = service.backend._ends._changed = Looked()  # where the worker waits for a message's end
    count = fact(Topic.COUNT, "Ana 2 Unicorns.", 0, player="Ana")
    try:
        service.speak(Utterance("Ana 2 Unicorns.", facts=(count,)))
        while not waiting.waits:  # sent, and told as begun at 100 s (a clock moved sooner started it later)
            threading.Event().wait(0.005)  # (the speech worker thread, polled)
        now[0] += cut_after  # her next key comes then
        service.new_input()
        service.say("Pile: empty.")
        while len(client.sent) < 2:
            threading.Event().wait(0.005)  # (the speech worker thread, polled)
    finally:
        service.close()
    assert (client.sent[1] == "Ana 2 Unicorns.") is folded  # folded only when cut well before its end


def test_beside_a_screen_reader_the_app_cannot_reach_the_table_voice_still_says_other_hands_moves():
    """Her reader talks and cannot be reached: the app leaves her replies to it (silent), and the table's voice,
    which is heard beside a reader anyway, still carries the other hands."""
    from assistant.speech.backends import SilentBackend

    table_backend = RecordingBackend()
    service = SpeechService(SilentBackend(sentence="Orca speaks."), table=SpeechService(table_backend))
    speaker = ReplySpeaker(service)
    speaker.players = lambda: ("Ana", "Ben")
    try:
        assert service.ready.wait(10) and service.table is not None and service.table.ready.wait(10)
        speaker.other(PhoneReply("Ben drew a card.", 1, "Ben"))
        assert service.wait_idle(10)
    finally:
        service.close()
    assert table_backend.said == ["Ben drew a card."]


def test_her_key_never_waits_for_speech_dispatcher_while_it_is_slow_to_take_a_message():
    """A SPEAK the daemon was slow to answer held the connection, and her next key's cancel waited behind it (3 s
    in the benchmark's Llamas game, the app's screen frozen meanwhile). The worker now tells the daemon itself."""
    now = [100.0]
    service, client = _reader_service(now)
    answer, asked = threading.Event(), threading.Event()
    speak = client.speak

    def slow(text: str, callback=None, event_types=None):
        asked.set()
        answer.wait(10)  # the daemon, busy
        return speak(text, callback, event_types)

    client.speak = slow  # type: ignore[method-assign]
    try:
        service.say("Turn 4, Dee's Action phase. On the pile: Dee's Basic Llama.")
        assert asked.wait(10)
        key = threading.Thread(target=service.new_input)
        key.start()
        key.join(5)  # (a bound on a failure only)
        assert not key.is_alive()  # her key went through while the daemon still held the message
        answer.set()
        service.say("Ben's Field: nothing.")
        while client.sent[-1:] != ["Ben's Field: nothing."]:
            threading.Event().wait(0.005)  # (the speech worker thread, polled)
    finally:
        answer.set()
        service.close()
    assert client.sent == ["Turn 4, Dee's Action phase.", "Ben's Field: nothing."]  # the cut one's rest never sent


def test_a_cut_messages_late_cancel_from_speech_dispatcher_never_ends_the_next_messages_wait():
    """A message cut by her key is cancelled; its CANCEL event can come after the next message was sent. It ended
    that message's wait at once, so its next sentence was sent while the first still played: speech-dispatcher
    queued it, and her screen reader fell a sentence behind for the rest of the game (the benchmark)."""
    now = [100.0]
    service, client = _reader_service(now)
    changed = service.backend._ends._changed = Looked()  # where the worker waits for a message's end
    try:
        service.say("Turn 1, Ana's Action phase. On the pile: Ana's Basic Unicorn (Red).")
        while not client.sent:
            threading.Event().wait(0.005)  # (the speech worker thread, polled)
        service.new_input()  # her key: the first is cut
        service.say("Ben's Stable: nothing. 0 Unicorns.")
        while client.sent[-1] != "Ben's Stable: nothing.":
            threading.Event().wait(0.005)  # (the speech worker thread, polled)
        client.callbacks[0]("cancel")  # the first message's CANCEL, late: it wakes the worker
        assert changed.looked_again(went_on=lambda: client.sent[-1] != "Ben's Stable: nothing."), "never woke"
        assert client.sent[-1] == "Ben's Stable: nothing."  # it looked, and still waits for its own end
        client.callbacks[-1]("end")  # its own END
        while client.sent[-1] != "0 Unicorns.":
            threading.Event().wait(0.005)  # (the speech worker thread, polled)
    finally:
        service.close()


class SentenceBackend(RecordingBackend):
    """Her voice, sentence by sentence as the engines play (`began`, `finished`, `more` before each next one): each
    sentence waits for a release, so a test decides when it ends; `sentences` are those begun, in order."""

    def __init__(self) -> None:
        super().__init__(hold=True)
        self.sentences: list[str] = []

    def speak(self, utterance, wanted, more=lambda: True, finished=lambda index: None, began=lambda i, s: None):
        with self._changed:
            self.started.append(utterance.text)
            self._changed.notify_all()
        for index, sentence in enumerate(utterance.split()):
            if not wanted() or (index > 0 and not more()):
                break
            with self._changed:
                self.sentences.append(sentence)
                self._changed.notify_all()
            began(index, 1.0)
            while wanted() and not self._permits.acquire(timeout=0.05):
                pass  # (re-checks `wanted`: a cancel makes it False)
            if wanted():
                finished(index)

    def wait_sentences(self, count: int, timeout: float = 30.0) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: len(self.sentences) >= count, timeout)


def test_with_the_table_voice_her_reply_never_asks_a_question_a_move_at_the_table_closed():
    """She typed `turn` just before Ben resolved Ben's Neigh from his phone: her reply went on to ask "Any Neigh for
    Ben's Neigh?" after that Neigh had resolved (the move went only to the table voice's queue). The real service,
    two voices, the replies of a real session."""
    from tests.core.test_speech_stale_question import turn_asked

    asked, resolved = turn_asked()
    hers, table_backend = SentenceBackend(), RecordingBackend()
    table = SpeechService(table_backend)
    service = SpeechService(hers, table=table)
    speaker = ReplySpeaker(service)
    speaker.players = lambda: ("Ana", "Ben")
    try:
        assert service.ready.wait(60) and table.ready.wait(60)
        speaker(asked)
        assert hers.wait_sentences(1)  # her first sentence is being said when Ben's resolve is recorded
        speaker.other(resolved.coming(Origin.other_hand("Ben")))
        assert table_backend.wait_started(1)
        for _ in range(len(asked.speech.split())):  # every sentence she is let say, each released in turn
            hers.release()
        assert service.wait_idle(30)
    finally:
        service.close()
    heard = " ".join(hers.sentences)
    assert heard.startswith("Turn") and "Any Neigh" not in heard, hers.sentences


def test_a_screen_reader_that_queues_her_reply_is_silenced_when_a_move_at_the_table_closes_its_question():
    """NVDA and VoiceOver are handed her reply whole and say it at their own pace: her `turn` ("... Any Neigh for
    Ben's Neigh? ...") went to the reader, Ben's resolve from his phone to the table voice, and nothing stopped the
    reader from asking the question after it was answered. Now the reader is silenced while it may still be saying
    the reply (`reader_may_take`, on the service's clock); later, or for a reply that asks nothing, it is not."""
    from assistant.core.speech.utterance import reader_may_take
    from tests.core.test_speech_stale_question import turn_asked

    asked, resolved = turn_asked()
    now = [100.0]
    for later, silenced in ((0.0, True), (reader_may_take(asked.speech) + 0.1, False)):
        reader, table_backend = ReaderBackend(), RecordingBackend()
        table = SpeechService(table_backend)
        service = SpeechService(reader, table=table, clock=lambda: now[0])
        speaker = ReplySpeaker(service)
        speaker.players = lambda: ("Ana", "Ben")
        try:
            assert service.ready.wait(60) and table.ready.wait(60)
            speaker(asked)
            assert service.wait_idle(30) and reader.said == [asked.speech]  # handed whole to her reader
            handed = len(reader.records)
            now[0] += later
            speaker.other(resolved.coming(Origin.other_hand("Ben")))
            assert table_backend.wait_started(1)
            kinds = [record.kind for record in reader.records[handed:]]
        finally:
            service.close()
        assert (kinds == ["cancel"]) is silenced, kinds


def test_through_speech_dispatcher_her_reader_never_asks_a_question_a_move_at_the_table_closed(tmp_path):
    """Her screen reader's route on Linux: her `turn` reply said through a real speech-dispatcher, sentence by
    sentence, its module taking as long as its sound (`benchmarks.capture.ReaderStandIn`); Ben's resolve from his
    phone, said by the table voice, arrives once her reader has begun: "Any Neigh for Ben's Neigh?" is never begun."""
    import os

    from speech_fixtures import speechd_client

    from assistant.speech.dispatcher import SpeechdBackend
    from benchmarks.capture import AlsaCapture, ReaderStandIn
    from benchmarks.outage_rig import short_path
    from tests.core.test_speech_stale_question import turn_asked

    speechd_client()
    for program in ("speech-dispatcher", "aplay", "espeak-ng"):
        if shutil.which(program) is None:
            pytest.skip(f"{program} is not installed")
    asked, resolved = turn_asked()
    folder = short_path(tmp_path)
    reader = ReaderStandIn(AlsaCapture(tmp_path / "capture"), folder / "reader")
    table_backend = RecordingBackend()
    table = SpeechService(table_backend)
    service = SpeechService([SpeechdBackend(own=False, environ={**os.environ, **reader.environ})], table=table)
    speaker = ReplySpeaker(service)
    speaker.players = lambda: ("Ana", "Ben")
    try:
        assert service.ready.wait(60) and table.ready.wait(60) and service.backend.name == "speechd"
        speaker(asked)
        deadline = time.monotonic() + 120  # (the module's own record of what it began; this only bounds a failure)
        while not reader.said():
            assert time.monotonic() < deadline, "her reader never began"
            time.sleep(0.02)
        speaker.other(resolved.coming(Origin.other_hand("Ben")))
        assert table_backend.wait_started(1)
        assert service.wait_idle(120)
        said = [message["text"] for message in reader.said()]  # (read through the short path, before it goes)
    finally:
        service.close()
        reader.close()
        folder.unlink(missing_ok=True)
    assert said and said[0].startswith("Turn") and not any("Any Neigh" in text for text in said), said
