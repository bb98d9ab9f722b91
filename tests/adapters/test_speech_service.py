"""The speech service with the recording backend: what is said, in which order, and what gets cut off.

The recording backend holds each utterance until the test releases it, so "while it is busy" needs no timing.
"""

import time
from dataclasses import replace

import pytest

from assistant.core.game.about import MoveKind, Topic
from assistant.core.game.segment import Segment, Verbatim
from assistant.core.speech.settings import SpeechSettings
from assistant.core.speech.utterance import Utterance
from assistant.core.words.voice import (
    EARCON_WORDS,
    NOTHING_SAID_YET,
    PRIVATE_NO_DEVICE,
    PRIVATE_OFF,
    SPEECH_SET_SILENT,
    history_heading,
    private_on,
    speech_backend_chosen,
)
from assistant.speech import Priority, SpeechService, make_speaker
from assistant.speech.backends import Backend, BackendUnavailable, SilentBackend
from assistant.speech.earcons import EarconChannel, write_earcons
from assistant.speech.player import Player
from assistant.speech.replies import ReplySpeaker
from tests.facts import fact
from tests.recording_backend import RecordingBackend


@pytest.fixture
def held():
    """A service whose recording backend holds every utterance until released."""
    backend = RecordingBackend(hold=True)
    service = SpeechService(backend)
    assert service.ready.wait(60)
    yield service, backend
    service.close()


def finish(service, backend, count=10):
    backend.release(count)
    assert service.wait_idle(5)


def test_the_backend_is_reported_once(held):
    service, _ = held
    assert service.notices == [speech_backend_chosen("recording")]


def test_messages_are_said_in_order_and_say_returns_while_the_worker_is_busy(held):
    service, backend = held
    service.say("one")
    assert backend.wait_started(1)
    service.say("two")  # the worker is held inside "one": say only queues
    service.say("three")
    finish(service, backend)
    assert backend.said == ["one", "two", "three"]
    assert [r.priority for r in backend.records] == [Priority.MESSAGE] * 3


def test_interrupt_drops_the_queue_and_cuts_the_current(held):
    service, backend = held
    service.say("old card")
    assert backend.wait_started(1)
    service.say("Waiting message. Its details.")
    service.say("you cannot do that", Priority.IMPORTANT)
    service.interrupt("next card")
    finish(service, backend)
    kinds = [(r.kind, r.text) for r in backend.records]
    assert kinds == [("cancel", ""), ("cut", "old card"), ("said", "next card")]  # its own reply first


def test_echo_latest_wins_and_hint_dropped_when_busy(held):
    service, backend = held
    service.say("a card")
    assert backend.wait_started(1)
    for letter in "abc":
        service.say(letter, Priority.ECHO)
    assert service.say("code seen", Priority.HINT) is False
    finish(service, backend)
    assert backend.said == ["a card", "c"]
    assert backend.records[-1].priority is Priority.ECHO


def test_stop_silences_everything(held):
    service, backend = held
    service.say("card")
    assert backend.wait_started(1)
    service.say("error", Priority.IMPORTANT)
    service.stop()
    assert service.wait_idle(5)
    assert [(r.kind, r.text) for r in backend.records] == [("cancel", ""), ("cut", "card")]


def test_repeat_and_history():
    backend = RecordingBackend()
    service = SpeechService(backend)
    try:
        for text in ("one", "two", "three"):
            service.say(text)
        assert service.wait_idle(5)
        steps = [service.repeat, service.back, service.back, service.back, service.forward]
        answers = []
        for step in steps:
            answers.append(step())
            assert service.wait_idle(5)
        assert answers == ["three", "two", "one", "", "two"]
        assert service.history == ["one", "two", "three"]
        assert backend.said == ["one", "two", "three", "three", "two", "one", "two"]
    finally:
        service.close()


def test_mute_says_nothing_but_remembers(held):
    service, backend = held
    service.muted = True
    service.say("hidden", Priority.IMPORTANT)
    assert service.wait_idle(5)
    assert backend.said == []
    service.muted = False
    service.repeat()
    finish(service, backend)
    assert backend.said == ["hidden"]


def test_earcons_are_spoken_when_sounds_are_off(held):
    service, backend = held
    assert not service.sounds_on
    service.earcon("your-turn")
    finish(service, backend)
    assert backend.records[-1].text == EARCON_WORDS["your-turn"]
    assert backend.records[-1].priority is Priority.IMPORTANT
    with pytest.raises(ValueError):
        service.earcon("no such sound")


class Broken(Backend):
    name = "broken"

    def open(self):
        raise BackendUnavailable("broken cannot speak: no engine.")


class Crashing(Backend):
    name = "crashing"

    def open(self):
        raise RuntimeError("a library bug")


def test_the_first_backend_that_opens_is_chosen():
    recorder = RecordingBackend()
    service = SpeechService([Broken(), Crashing(), recorder])
    try:
        assert service.ready.wait(60)
        assert service.backend is recorder
        assert service.notices == [speech_backend_chosen("recording")]
    finally:
        service.close()


def test_no_backend_runs_silently_with_one_written_notice(capfd):
    service = SpeechService([Broken(), Crashing()])
    try:
        assert service.ready.wait(60)
        assert isinstance(service.backend, SilentBackend)
        for n in range(3):
            service.say(f"card {n}")
        service.earcon("error")
        assert service.wait_idle(5)
        assert len(service.notices) == 1
        assert service.notices[0].startswith("Speech is off: no speech engine works here.")
        assert "no engine" in service.notices[0]
    finally:
        service.close()
    assert capfd.readouterr() == ("", "")


def test_silent_setting_chooses_silence():
    service = make_speaker(SpeechSettings(backend="silent", earcons=False))
    try:
        assert service.backend.name == "silent"
        assert SPEECH_SET_SILENT in service.notices[0]
    finally:
        service.close()


class Failing(RecordingBackend):
    def speak(self, utterance, wanted, more=None, finished=None, began=None):
        raise ValueError("engine exploded")


def test_an_engine_failing_while_speaking_is_reported_once_and_the_worker_goes_on(capfd):
    service = SpeechService(Failing())
    try:
        service.say("one")
        service.say("two")
        assert service.wait_idle(5)
        assert len(service.notices) == 2 and "engine exploded" in service.notices[1]
        assert service.history == ["one", "two"]
    finally:
        service.close()
    assert capfd.readouterr() == ("", "")


def test_private_utterances_never_reach_a_backend_without_a_headphones_device():
    backend = RecordingBackend(private=False)
    service = SpeechService(backend)
    try:
        service.say("your hand: Rainbow Aura", private=True)
        service.say("table message")
        assert service.wait_idle(5)
        assert backend.said == ["table message"]
    finally:
        service.close()


def test_private_utterances_go_to_the_private_backend():
    table, headphones = RecordingBackend(private=False), RecordingBackend()
    service = SpeechService(table, private_backend=headphones)
    try:
        service.say("your hand: Rainbow Aura", private=True)
        service.say("table message")
        assert service.wait_idle(5)
        assert table.said == ["table message"]
        assert headphones.said == ["your hand: Rainbow Aura"] and headphones.records[0].private
    finally:
        service.close()


class FakeReply:
    def __init__(self, speech, important=False, card=None, hint=False, sound=""):
        self.lines, self.speech, self.important, self.card, self.hint = (speech,), speech, important, card, hint
        self.sound = sound
        self.pending, self.facts, self.tells, self.settles, self.hand = None, (), (), False, ""
        self.segments, self.private = (Segment(Verbatim(speech)),), False


@pytest.fixture
def held_with_sounds(tmp_path):
    """A held recording service whose earcons are on (the recording backend notes each one with its words)."""
    backend = RecordingBackend(hold=True)
    channel = EarconChannel(Player(("true",)), write_earcons(tmp_path / "earcons"))
    service = SpeechService(backend, earcons=channel)
    assert service.ready.wait(60)
    yield service, backend
    service.close()


def test_at_table_pace_each_key_cuts_the_reply_before_and_its_own_is_said(held_with_sounds):
    service, backend = held_with_sounds
    speaker = ReplySpeaker(service)
    speaker(FakeReply("Ana drew a card. Action phase. Say play and a card."))
    assert backend.wait_started(1)
    speaker(FakeReply("Ana played Basic Unicorn (Blue). Any Neigh? Say neigh and a name, or resolve."))
    assert backend.wait_started(2)  # the draw was cut off at once: the player has moved on
    speaker(FakeReply("Basic Unicorn (Blue) is played: it enters Ana's Stable. Ana has 2 Unicorns."))
    assert backend.wait_started(3)
    speaker(FakeReply("Turn 5: Ben's turn. Ben draws a card: say draw.", important=True, sound="your-turn"))
    assert backend.wait_started(4)
    speaker(FakeReply("Ben drew a card. Action phase."))  # the turn change is cut too: the key is answered now
    assert backend.wait_started(5)
    speaker(FakeReply("Ben played Yay.", card="yay"))
    speaker(FakeReply("Ben played Neigh.", card="neigh"))  # "Ben played Yay" never started: dropped
    finish(service, backend)
    said = [(r.kind, r.text, r.sound) for r in backend.records if r.kind != "cancel"]
    assert said == [
        ("cut", "Ana drew a card. Action phase. Say play and a card.", ""),
        ("cut", "Ana played Basic Unicorn (Blue). Any Neigh? Say neigh and a name, or resolve.", ""),
        ("cut", "Basic Unicorn (Blue) is played: it enters Ana's Stable. Ana has 2 Unicorns.", ""),
        ("cut", "Turn 5: Ben's turn. Ben draws a card: say draw.", "your-turn"),
        ("cut", "Ben drew a card. Action phase.", ""),
        ("said", "Ben played Neigh.", "card-read"),
    ]
    assert "Ben drew a card. Action phase." in service.history  # cut, still there in full to step back to


def test_replies_waiting_when_the_next_key_comes_are_dropped_and_its_own_said_at_once(held_with_sounds):
    service, backend = held_with_sounds
    speaker = ReplySpeaker(service)
    speaker(FakeReply("Rainbow Aura, Upgrade card. A long text.", card="rainbow-aura"))
    assert backend.wait_started(1)
    speaker.notice(FakeReply("Ana played Slowdown. Any Neigh?"))  # a notice, not a typed line
    speaker.notice(FakeReply("That card is not in play. Type stable to hear it.", important=True, sound="error"))
    speaker(FakeReply("Ben's Stable: 2 Unicorns."))
    finish(service, backend)
    said = [(r.kind, r.text, r.sound) for r in backend.records if r.kind != "cancel"]
    assert said == [
        ("cut", "Rainbow Aura, Upgrade card. A long text.", "card-read"),
        ("said", "Ben's Stable: 2 Unicorns.", ""),  # the key's own reply, not the answers to the keys before it
    ]
    assert "Not in play." not in service.history and "That card is not in play. Type stable to hear it." in (
        service.history)  # fmt: skip


def test_replies_from_other_hands_are_said_in_turn_folding_a_cut_fact(held_with_sounds):
    service, backend = held_with_sounds
    speaker = ReplySpeaker(service)
    speaker(FakeReply("Ana played Basic Unicorn (Blue). Neigh? Say neigh and a name."))
    assert backend.wait_started(1)
    cy = FakeReply("Cy played Neigh. Cy: 1 Unicorn.")
    cy.facts = (fact(Topic.COUNT, "Cy: 1 Unicorn.", 2, player="Cy"),)
    ben = FakeReply("Ben played Neigh.")  # its move: kept, short, when the next comes
    ben.tells = (fact(Topic.MOVE, "Ben played Neigh.", 1, player="Ben", move=MoveKind.NEIGH, card="Neigh", at=4),)
    speaker.other(ben)
    speaker.other(cy)
    speaker.other(FakeReply("Dee played Super Neigh."))
    finish(service, backend)
    said = [(r.kind, r.text) for r in backend.records if r.kind != "cancel"]
    assert said == [
        ("said", "Ana played Basic Unicorn (Blue). Neigh? Say neigh and a name."),  # (her own reply: all of it)
        ("said", "Ben played Neigh. Cy: 1 Unicorn. Dee played Super Neigh."),  # in order, one reply behind at most
    ]


def test_hints_play_their_cue_at_once_and_their_words_only_when_idle(held_with_sounds):
    service, backend = held_with_sounds
    speaker = ReplySpeaker(service)
    speaker(FakeReply("Rainbow Aura, Upgrade card.", card="rainbow-aura"))
    assert backend.wait_started(1)
    speaker(FakeReply("Move the card closer.", hint=True, sound="code-seen"))  # dropped: busy
    speaker.echo("r")
    finish(service, backend)
    assert [(r.text, r.priority) for r in backend.records] == [
        ("Rainbow Aura, Upgrade card.", Priority.MESSAGE), ("r", Priority.ECHO)]  # fmt: skip
    for _ in range(500):  # the cue's own thread notes it once its player started (a guard, not a timing)
        if service.earcons.played:
            break
        time.sleep(0.01)  # (the earcon's player thread, polled)
    assert service.earcons.played == ["code-seen"]


def test_the_history_command_reads_back_the_last_things_said():
    backend = RecordingBackend()
    service = SpeechService(backend)
    speaker = ReplySpeaker(service)
    try:
        for text in ("one", "two", "three"):
            service.say(text)
        assert service.wait_idle(5)
        shown = speaker.control("history")
        assert shown.splitlines() == [history_heading(3), "three", "two", "one"]
        assert service.wait_idle(5)
        assert backend.said[-4:] == shown.splitlines()
        assert service.history == ["one", "two", "three"]  # reading back adds nothing
    finally:
        service.close()
    empty = SpeechService(RecordingBackend())
    try:
        assert ReplySpeaker(empty).control("history") == NOTHING_SAID_YET
    finally:
        empty.close()


def test_notices_before_the_app_is_ready_are_delivered_once_when_it_attaches():
    service = SpeechService(Failing())
    try:
        assert service.take_notices() == [speech_backend_chosen("recording")]
        service.say("one")
        assert service.wait_idle(5)
        assert service.failure and "engine exploded" in service.failure
        shown = []
        service.attach(shown.append)
        service.attach(shown.append)
        assert shown == [service.failure]  # once, though attached twice
    finally:
        service.close()


def test_reply_speaker_private_reading():
    backend = RecordingBackend()
    service = SpeechService(backend)
    speaker = ReplySpeaker(service, private_device="headphones")
    assert service.ready.wait(60)
    try:
        assert speaker.control("private") == private_on("headphones")
        assert service.wait_idle(5)  # said to the end: no line typed meanwhile
        speaker(FakeReply("Yay, Upgrade card.", card="yay"))
        assert service.wait_idle(5)
        speaker(FakeReply("Ben's turn.", important=True))
        assert service.wait_idle(5)
        assert speaker.control("private") == PRIVATE_OFF
        assert service.wait_idle(5)
    finally:
        service.close()
    private = {r.text: r.private for r in backend.records if r.kind == "said"}
    assert private == {private_on("headphones"): False, "Yay, Upgrade card.": True, "Ben's turn.": False,
                       PRIVATE_OFF: False}  # fmt: skip


def test_reply_speaker_private_reading_without_a_device_warns():
    service = SpeechService(RecordingBackend(private=False))
    try:
        assert ReplySpeaker(service).control("private") == PRIVATE_NO_DEVICE
    finally:
        service.close()


def test_automatic_backends_are_tried_in_order():
    from assistant.speech import make_backends

    backends, private = make_backends(SpeechSettings())
    assert [b.name for b in backends] == ["speechd", "pyttsx3", "espeak-ng"]
    assert private is None  # no headphones device set
    wav_only, _ = make_backends(SpeechSettings(), wav_only=True)
    assert [b.name for b in wav_only] == ["pyttsx3", "espeak-ng"]
    assert [b.name for b in make_backends(SpeechSettings(backend="espeak-ng"))[0]] == ["espeak-ng"]


def test_speech_dispatcher_is_skipped_when_its_socket_does_not_answer(tmp_path):
    import socket

    from assistant.speech.dispatcher import SpeechdBackend

    missing = SpeechdBackend(environ={"SPEECHD_ADDRESS": f"unix_socket:{tmp_path / 'none.sock'}"})
    with pytest.raises(BackendUnavailable, match="its socket does not answer"):
        missing.open()
    path = tmp_path / "speechd.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        server.listen(1)
        answering = SpeechdBackend(environ={"XDG_RUNTIME_DIR": str(tmp_path), "SPEECHD_ADDRESS": f"unix_socket:{path}"})
        try:
            import speechd  # noqa: F401
        except ImportError:
            with pytest.raises(BackendUnavailable, match="python3-speechd is not installed"):
                answering.open()


class _SlowTranscript:
    """A transcript that, writing one of the lines of `meanwhile`, first runs what that line is given: the worker's
    moves that may come between two of the app's steps on a busy machine, made certain."""

    failure = ""

    def __init__(self, meanwhile):
        self.meanwhile, self.lines = meanwhile, []

    def write(self, kind, text, marks=()):
        if text in self.meanwhile:
            self.meanwhile[text]()
        self.lines.append(text)

    def close(self):
        pass


class _MoreBackend(RecordingBackend):
    """A held recording backend that notes, as each utterance ends, whether it was let go on to its next sentence."""

    def __init__(self):
        super().__init__(hold=True)
        self.more = {}

    def speak(self, utterance, wanted, more=lambda: True, finished=lambda index: None, began=lambda i, s: None):
        super().speak(utterance, wanted, more, finished, began)
        self.more[utterance.text] = more()


def test_a_cut_decided_for_one_utterance_never_reaches_the_next_one():
    # the cut is marked on the utterance being said in the same step the queue decides it: had the old one ended
    # and the worker taken the new one before the mark, the new reply was cut off (a speech key) or stopped after
    # its first sentence (a move from another hand)
    backend = _MoreBackend()
    transcript = _SlowTranscript(
        {
            "Ben's turn. Ben drew a card.": lambda: (backend.release(1), backend.wait_started(2)),
            "Speech on.": lambda: (backend.release(1), backend.wait_started(4)),
        }
    )
    service = SpeechService(backend, transcript=transcript)
    assert service.ready.wait(60)
    try:
        service.say("Ana played Basic Unicorn (Red). Neigh?")
        assert backend.wait_started(1)
        service.speak(Utterance("Ben's turn. Ben drew a card.", other=True))
        assert backend.wait_started(2)
        finish(service, backend)
        assert backend.more["Ben's turn. Ben drew a card."] is True  # said in full, not trimmed
        backend.hold_again()
        service.say("Cy played Neigh.")
        assert backend.wait_started(3)
        service.interrupt("Speech on.")
        assert backend.wait_started(4)
        finish(service, backend)
        assert ("said", "Speech on.") in [(r.kind, r.text) for r in backend.records]  # not cut off
    finally:
        service.close()


def test_another_hands_move_that_matters_comes_with_its_earcon_and_her_own_words_without(held_with_sounds):
    from assistant.core.speech.placement import Seating

    service, backend = held_with_sounds
    speaker = ReplySpeaker(service, me="ben")
    speaker.players = lambda: ("Ana", "Ben", "Cy")
    played = FakeReply("Ana played Yay. Neigh?")
    played.tells = (fact(Topic.MOVE, "Ana played Yay.", 0, player="Ana", move=MoveKind.PLAY, card="Yay", at=3),)
    speaker.other(played)
    assert backend.wait_started(1)
    assert service.seating == Seating(3, listener=1)  # Ben listens: Ana sits at his right
    taken = FakeReply("Cy destroyed Yay.")
    taken.tells = (
        fact(
            Topic.MOVE, "Cy destroyed Yay.", 2, player="Cy", move=MoveKind.DESTROY, card="Yay", owner=1, whose="", at=4
        ),
    )
    speaker.other(taken)
    own = FakeReply("Ben drew a card.")
    own.tells = (fact(Topic.MOVE, "Ben drew a card.", 1, player="Ben", move=MoveKind.DRAW, at=5),)
    speaker(own)
    finish(service, backend)
    sounds = [(r.text, r.sound) for r in backend.records if r.kind != "cancel"]
    assert sounds[0] == ("Ana played Yay. Neigh?", "pile")
    assert sounds[1] == ("Ben drew a card.", "")  # his own words: no move earcon
    assert sounds[2][0].endswith("Cy destroyed Yay.") and sounds[2][1] == "lost-card"  # after his own reply


def test_a_second_voice_says_other_hands_moves_while_her_own_reply_is_said_and_her_keys_never_cut_it():
    """With a table voice, another hand's move is said at once beside her own reply (neither waits for the other),
    her next key cuts only her own reply, and the move is in the history to step back to; silence and mute reach
    both voices."""
    own, hands = RecordingBackend(hold=True), RecordingBackend(hold=True)
    table = SpeechService(hands)
    service = SpeechService(own, table=table)
    try:
        assert service.ready.wait(60) and table.ready.wait(60)
        speaker = ReplySpeaker(service)
        speaker(FakeReply("Unicorns: Ana 1, Ben 0, Cy 0. 3 to win."))
        assert own.wait_started(1)
        ben = (fact(Topic.MOVE, "Ben played Neigh.", 1, player="Ben", move=MoveKind.NEIGH, card="Neigh"),)
        service.speak(Utterance("Ben, from a phone: played Neigh.", Priority.IMPORTANT, tells=ben, other=True))
        assert hands.wait_started(1)  # at once: her reply is still being said
        speaker(FakeReply("The pile: Ana's Basic Unicorn (Red), Ben's Neigh."))  # her next key
        assert own.wait_started(2)
        assert own.started == [
            "Unicorns: Ana 1, Ben 0, Cy 0. 3 to win.",
            "The pile: Ana's Basic Unicorn (Red), Ben's Neigh.",
        ]
        assert service.busy and table.busy
        hands.release()
        own.release()
        assert service.wait_idle(10)
        assert [(r.kind, r.text) for r in hands.records if r.kind != "cancel"] == [
            ("said", "Ben, from a phone: played Neigh.")  # never cut by her key
        ]
        assert "Ben, from a phone: played Neigh." in service.history
        service.muted = True
        assert table.muted
        service.muted = False
        service.speak(Utterance("Cy, from a phone: drew a card.", other=True))
        assert hands.wait_started(2)
        service.stop()  # silence: both voices
        assert table.wait_idle(10) and hands.records[-1].kind == "cut"
    finally:
        service.close()
    assert not table._worker.thread.is_alive()  # closed with the first voice


def test_without_a_second_voice_that_speaks_other_hands_moves_wait_their_turn_in_the_one_voice():
    own = RecordingBackend(hold=True)
    table = SpeechService([])  # no engine: silent
    service = SpeechService(own, table=table)
    try:
        assert service.ready.wait(60) and table.ready.wait(60) and not table.speaks
        service.say("Unicorns: Ana 1, Ben 0.")
        assert own.wait_started(1)
        service.speak(Utterance("Ben, from a phone: drew a card.", other=True))
        own.release(2)
        assert service.wait_idle(10)
        assert own.said == ["Unicorns: Ana 1, Ben 0.", "Ben, from a phone: drew a card."]
    finally:
        service.close()


def test_make_speaker_gives_a_second_voice_for_other_hands_wherever_two_sounds_can_play_at_once(monkeypatch):
    """Beside her screen reader and on every platform, other hands' moves have a voice of their own wherever a player
    that mixes exists (the app's mixer, or player programs the system mixes); not where Windows' winsound is all
    there is, nor when she turns it off."""
    import assistant.speech.mixer as mixer

    settings = SpeechSettings(speech="on", backend="espeak-ng", earcons=False)
    own_voice, reader = ("own-voice", ""), ("screen-reader", "")
    monkeypatch.setattr(mixer, "portaudio_available", lambda device="": True)  # a sound device PortAudio opens
    made = {
        "linux": make_speaker(settings, route=own_voice, platform="linux"),
        "reader": make_speaker(settings, route=reader, platform="linux", reader_backend=RecordingBackend),
        "windows": make_speaker(settings, route=own_voice, platform="win32"),
        "windows reader": make_speaker(settings, route=reader, platform="win32", reader_backend=RecordingBackend),
        "off": make_speaker(replace(settings, table_voice=False), route=own_voice, platform="linux"),
    }
    monkeypatch.setattr(mixer, "portaudio_available", lambda device="": False)  # no PortAudio: winsound alone
    made["winsound"] = make_speaker(settings, route=own_voice, platform="win32")
    try:
        for name in ("linux", "reader", "windows", "windows reader"):
            table = made[name].table
            assert table is not None and table.backend.name == "espeak-ng", name
        assert made["reader"].backend.name == made["windows reader"].backend.name == "recording"  # her reader
        assert made["off"].table is None and made["winsound"].table is None
    finally:
        for service in made.values():
            service.close()


def test_where_one_sound_plays_at_a_time_an_earcon_waits_for_the_words_being_said(tmp_path):
    """Windows' winsound plays one sound at a time in a process: an earcon over the words would cut them off, so it
    waits for them; with a player of its own (Linux, macOS) it plays at once, over them."""
    files = write_earcons(tmp_path / "earcons")
    for winsound, at_once in ((object(), False), (None, True)):
        backend = RecordingBackend(hold=True)
        channel = EarconChannel(Player(() if winsound else ("true",), winsound=winsound), files)
        service = SpeechService(backend, earcons=channel)
        try:
            assert service.ready.wait(60)
            service.say("Ana's Stable: Basic Unicorn (Red), Rainbow Aura and Yay.")
            assert backend.wait_started(1)
            service.earcon("code-seen")  # a card's code seen while the words are said
            if at_once:
                deadline = time.monotonic() + 10
                while not channel.played and time.monotonic() < deadline:
                    time.sleep(0.01)  # (the earcon's player thread, polled)
                assert channel.played == ["code-seen"]
                continue
            assert channel.played == [] and backend.started == [
                "Ana's Stable: Basic Unicorn (Red), Rainbow Aura and Yay."
            ]
            backend.release(2)
            assert service.wait_idle(10)
            assert [(r.kind, r.text, r.sound) for r in backend.records] == [
                ("said", "Ana's Stable: Basic Unicorn (Red), Rainbow Aura and Yay.", ""),
                ("said", "", "code-seen"),  # after the words, whole
            ]
        finally:
            backend.release(5)
            service.close()


class BeganLate(RecordingBackend):
    """Says each sentence at once, and tells it begun only after `before_began(index)` ran (the app's thread may
    act between an engine's last check that the utterance is wanted and its telling a sentence begun)."""

    def __init__(self) -> None:
        super().__init__()
        self.sentences: list[str] = []
        self.before_began = lambda index: None

    def speak(self, utterance, wanted, more=lambda: True, finished=lambda index: None, began=lambda i, s: None):
        self.started.append(utterance.text)
        for index, sentence in enumerate(utterance.split()):
            if not wanted() or (index > 0 and not more()):
                return
            self.before_began(index)
            began(index, 0.1)
            if not wanted():
                return
            self.sentences.append(sentence)
            finished(index)


def test_a_sentence_told_begun_after_she_silenced_her_reply_brings_back_none_of_its_rest():
    """Her reply is silenced (`stop`) just before the engine tells its second sentence begun, at her pause: the
    queue would have her reply give way there to the words held to her pause, its rest after them; nothing of a
    turn already cut is taken from the engine, so its rest is never said after the silence."""
    from assistant.core.speech.placement import Seating

    now = [0.0]
    backend = BeganLate()
    service = SpeechService(backend, clock=lambda: now[0], at_pause=True)
    drew = fact(Topic.MOVE, "Ben drew a card.", 1, player="Ben", move=MoveKind.DRAW, at=3)

    def silenced_at_her_pause(index: int) -> None:
        if index == 1:
            now[0] = 2.5  # no key for 2 s
            service.stop()

    backend.before_began = silenced_at_her_pause
    try:
        assert service.ready.wait(60)
        service.seating = Seating(4, listener=0)
        service.new_input()
        service.speak(Utterance("Ben drew a card.", other=True, hand=1, tells=(drew,)))  # held: she is typing
        now[0] = 1.5
        service.say("Ana 2 Unicorns. Rainbow Aura. Neigh.")
        assert service.wait_idle(30)
    finally:
        service.close()
    assert backend.sentences[0] == "Ana 2 Unicorns.", backend.sentences
    assert "Rainbow Aura." not in backend.sentences and "Neigh." not in backend.sentences, backend.sentences


def test_in_one_voice_a_move_held_to_her_pause_still_closes_the_question_her_reply_has_yet_to_say():
    """One voice at her pause: she typed `turn`, whose reply ends "Any Neigh for Ben's Neigh?"; while its first
    sentence is said, Ben resolves that Neigh from his phone. The resolve does not concern her, so its words are held
    to her pause, but it closed the question all the same: her reply ends before it, and the resolve is said at her
    pause (before, her reply went on to ask the closed question, issue 107)."""
    from assistant.core.speech.placement import Seating
    from tests.core.test_speech_stale_question import turn_asked

    asked, resolved = turn_asked()
    now = [0.0]
    backend = BeganLate()
    service = SpeechService(backend, clock=lambda: now[0], at_pause=True)
    held: list[bool] = []

    def phone_resolves(index: int) -> None:
        if index == 1 and not held:
            now[0] = 0.5  # she typed half a second ago: still typing
            service.speak(replace(Utterance.of_reply(resolved), other=True))
            held.append(bool(service._worker.queue.held))

    backend.before_began = phone_resolves
    try:
        assert service.ready.wait(60)
        service.seating = Seating(3, listener=0)
        service.new_input()
        service.speak(Utterance.of_reply(asked))
        deadline = time.monotonic() + 30
        while not held and time.monotonic() < deadline:
            time.sleep(0.01)  # (the worker's thread reaches her reply's second sentence)
        assert held == [True]  # held to her pause, not said in turn
        now[0] = 5.0  # her pause
        assert service.wait_idle(30)
    finally:
        service.close()
    said = " ".join(backend.sentences)
    assert "Any Neigh for Ben's Neigh?" not in said, backend.sentences
    assert said.startswith("Turn 1, Ana's Action phase.") and "Ben's Neigh stopped" in said, backend.sentences
