"""Speech in the Textual app, driven with Pilot and heard through the recording backend."""

import asyncio
import threading
from types import SimpleNamespace

import pytest
from fake_speaker import Heard

from assistant.commands.say import reply_speaker
from assistant.core.scanning.aiming import Cue
from assistant.core.speech.settings import SpeechSettings
from assistant.core.speech.utterance import Priority
from assistant.core.words.cardtext import card_lines, describe_card
from assistant.core.words.voice import (
    SPEECH_MUTED,
    SPEECH_SET_SILENT,
    SPEECH_STOPPED,
    SPEECH_UNMUTED,
    player_failed,
    speech_silent,
)
from assistant.session import Session
from assistant.speech import SpeechService, make_speaker
from assistant.speech.backends import Pyttsx3Backend
from assistant.speech.player import Player
from assistant.speech.replies import ReplySpeaker
from assistant.speech.transcript import Transcript
from assistant.storage.decks import load_card_set
from assistant.storage.settings import save_settings
from assistant.ui.braille_input import BrailleInput
from benchmarks.speech import read_transcript
from tests.recording_backend import RecordingBackend


@pytest.fixture
def cards():
    return load_card_set()


@pytest.fixture
def speaking_app(make_app):
    """`speaking_app(backend)`: the app speaking through a speech service on `backend`, and the service."""

    def make(backend):
        service = SpeechService(backend)
        assert service.ready.wait(60)
        return make_app(ReplySpeaker(service)), service

    return make


def answer(app) -> str:
    return str(app.query_one("#answer").render())


def status(app) -> str:
    return str(app.query_one("#status").render())


def run(scenario):
    asyncio.run(scenario())


def test_typing_a_card_speaks_it(speaking_app, cards):
    backend = RecordingBackend()
    app, service = speaking_app(backend)

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press(*"rainbow aura", "enter")
            await pilot.pause()
            assert service.wait_idle(5)

    run(scenario)
    service.close()
    spoken = backend.records[-1]
    assert spoken.text == describe_card(cards.get("rainbow-aura"), cards.vocabulary)
    assert spoken.priority is Priority.MESSAGE and spoken.kind == "said"


def test_a_new_card_interrupts_the_one_being_read(speaking_app, cards):
    backend = RecordingBackend(hold=True)
    app, service = speaking_app(backend)

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press(*"rainbow aura", "enter")
            await pilot.pause()
            assert backend.wait_started(1)
            await pilot.press(*"yay", "enter")
            await pilot.pause()
            backend.release()
            assert service.wait_idle(5)

    run(scenario)
    service.close()
    kinds = [(r.kind, r.text.split(",")[0]) for r in backend.records]
    assert kinds == [("cancel", ""), ("cut", "Rainbow Aura"), ("said", "Yay")]


def test_speech_keys_repeat_step_back_stop_and_mute(speaking_app, cards):
    backend = RecordingBackend()
    app, service = speaking_app(backend)
    rainbow = describe_card(cards.get("rainbow-aura"), cards.vocabulary)
    yay = describe_card(cards.get("yay"), cards.vocabulary)
    yay_shown = "\n".join(card_lines(cards.get("yay"), cards.vocabulary))

    async def scenario():
        async with app.run_test() as pilot:
            for query in ("rainbow aura", "yay"):
                await pilot.press(*query, "enter")
                await pilot.pause()
                assert service.wait_idle(5)
            await pilot.press("f2")
            await pilot.pause()
            # What F2, F3 and F4 say goes under the cursor in the answer region (a braille display shows what is
            # said) and into the history; the answer itself is kept, and Page Up shows it again.
            assert answer(app) == yay and app.replies[-1].lines == tuple(yay_shown.splitlines())
            assert service.wait_idle(5)
            await pilot.press("f3")
            await pilot.pause()
            assert answer(app) == rainbow and rainbow not in status(app)
            assert service.wait_idle(5)
            await pilot.press("f4")
            await pilot.pause()
            assert answer(app) == yay
            assert service.wait_idle(5)
            await pilot.press("escape")
            await pilot.pause()
            assert status(app).endswith(SPEECH_STOPPED) and answer(app) == yay
            assert SPEECH_STOPPED in str(app.query_one("#history-text").render())
            await pilot.press("f5")
            await pilot.pause()
            assert status(app).endswith(SPEECH_MUTED) and service.muted
            await pilot.press(*"yay", "enter")
            await pilot.pause()
            await pilot.press("f5")
            await pilot.pause()
            assert not service.muted
            assert app.query_one("#prompt").value == ""  # no key typed a character into the input
            assert service.wait_idle(5)

    run(scenario)
    service.close()
    assert backend.said == [rainbow, yay, yay, rainbow, yay, SPEECH_UNMUTED]


def test_braille_echo_is_navigation_echo_and_notices_are_shown(speaking_app, cards):
    backend = RecordingBackend()
    app, service = speaking_app(backend)

    async def scenario():
        async with app.run_test() as pilot:
            app.post_message(BrailleInput.Echoed("r"))
            await pilot.pause()
            assert service.wait_idle(5)
            sender = threading.Thread(target=service.report, args=("The sound player aplay stopped.",))
            sender.start()  # as the speech worker would: from another thread
            sender.join()
            await pilot.pause()
            assert status(app).endswith("The sound player aplay stopped.")
            assert "The sound player aplay stopped." in str(app.query_one("#history-text").render())

    run(scenario)
    service.close()
    assert [(r.text, r.priority) for r in backend.records] == [("r", Priority.ECHO)]


def test_the_app_works_with_no_speech_engine(make_app, capfd):
    service = make_speaker(SpeechSettings(backend="silent", earcons=False))
    app = make_app(ReplySpeaker(service))

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press(*"yay", "enter")
            await pilot.pause()
            assert answer(app).startswith("Yay")
            await pilot.press("f2")
            await pilot.pause()

    run(scenario)
    service.close()
    assert len(service.notices) == 1


def test_the_app_builds_its_speaker_from_the_settings():
    args = SimpleNamespace(no_speech=True)
    assert reply_speaker(args) == (None, [])
    save_settings(SpeechSettings(speech="on", backend="silent"))
    speaker, notes = reply_speaker(SimpleNamespace(no_speech=False))
    try:
        assert notes == [speech_silent(SPEECH_SET_SILENT)]
    finally:
        speaker.close()
    save_settings(SpeechSettings(speech="off"))
    assert reply_speaker(SimpleNamespace(no_speech=False)) == (None, [])


def test_turns_errors_cards_and_aiming_cues_carry_their_earcons_with_their_words(cards, tmp_path):
    from assistant.speech.earcons import EarconChannel, write_earcons
    from assistant.speech.player import Player

    session = Session(cards)
    replies = [session.handle("new game Ana Ben"), session.handle("zzzz qqqq"), session.handle("rainbow aura")]
    assert [r.sound for r in replies] == ["your-turn", "error", ""]
    heard = {}
    for sounds in (True, False):
        backend = RecordingBackend()
        channel = EarconChannel(Player(("true",)), write_earcons(tmp_path)) if sounds else None
        service = SpeechService(backend, earcons=channel)
        speak = ReplySpeaker(service)
        for reply in replies:
            speak(reply)
            assert service.wait_idle(5)
        service.close()
        heard[sounds] = [(r.text, r.sound) for r in backend.records if r.kind == "said"]
    # With sounds on, each earcon is heard just before its own words (one record: queued together, in order).
    assert heard[True] == [(replies[0].speech, "your-turn"), (replies[1].speech, "error"),
                           (replies[2].speech, "card-read")]  # fmt: skip
    # With sounds off, the words carry the message: no "Error." before "No card called ...".
    assert heard[False] == [(reply.speech, "") for reply in replies]
    cue = session.card_desk.aiming(Cue.CLOSER)
    assert cue.sound == "code-seen" and cue.hint


def test_a_notice_does_not_make_the_reply_being_read_stale_but_a_typed_line_does(speaking_app, cards):
    from assistant.scanner.live import ScannerNotice
    from assistant.ui.messages import ScannerEvent

    backend = RecordingBackend(hold=True)
    app, service = speaking_app(backend)

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press(*"rainbow aura", "enter")
            await pilot.pause()
            assert backend.wait_started(1)
            app.post_message(ScannerEvent(ScannerNotice("The camera is slow.")))  # arrives on its own: not new input
            await pilot.pause()
            backend.release()  # the card text is read to its end, then the notice
            assert backend.wait_started(2)
            await pilot.press(*"yay", "enter")  # a typed line: the notice, important, is cut off too
            await pilot.pause()
            backend.release()  # (only the reply waits to be released: the notice was cut)
            assert service.wait_idle(5)
            await pilot.press(*"rainbow aura", "enter")
            await pilot.pause()
            assert backend.wait_started(4)
            await pilot.press(*"yay", "enter")  # a typed line: the card being read is cut off
            await pilot.pause()
            backend.release(2)
            assert service.wait_idle(5)

    run(scenario)
    service.close()
    kinds = [(r.kind, r.text.split(",")[0]) for r in backend.records if r.kind != "cancel"]
    assert kinds == [("said", "Rainbow Aura"), ("cut", "The camera is slow."), ("said", "Yay"),
                     ("cut", "Rainbow Aura"), ("said", "Yay")]  # fmt: skip


@pytest.mark.skipif(Player.find("aplay") is None, reason="aplay is not installed")
def test_a_sound_failure_is_shown_once_in_the_app_and_written_once_in_the_transcript(make_app, tmp_path):
    """Real aplay on a device that does not exist fails for every sentence; the player hears of it once."""
    path = tmp_path / "said.txt"
    player = Player.find("aplay", "no-such-device")
    service = SpeechService(Pyttsx3Backend(player), transcript=Transcript(path))
    assert service.ready.wait(60) and service.backend.name == "pyttsx3", service.notices
    app = make_app(ReplySpeaker(service))
    failed = player_failed("aplay", 1)

    async def scenario():
        async with app.run_test(size=(100, 40)) as pilot:
            for line in ("yay", "rainbow aura", "yay"):
                await pilot.press(*line, "enter")
                await pilot.pause()
                assert service.wait_idle(10)
            await pilot.pause()
            screen = "\n".join(str(app.query_one(f"#{name}").render()) for name in ("status", "history-text"))
            assert screen.count(failed) == 1, screen
            assert answer(app).startswith("Yay")  # the failure never takes the answer's place

    run(scenario)
    service.close()
    notices = [text for _, kind, text in read_transcript(path) if kind == "notice"]
    assert notices.count(failed) == 1, notices


class ControlRecorder(Heard):
    """A speaker that records the speech commands the app's keys send (`ReplySpeaker.control`)."""

    def __init__(self):
        self.commands = []
        self.replies = []
        super().__init__(self.replies.append)

    def control(self, command):
        self.commands.append(command)
        return f"did {command}"


@pytest.mark.parametrize(
    ("key", "command"),
    [("escape", "stop"), ("f2", "repeat"), ("f3", "back"), ("f4", "forward"), ("f5", "mute"), ("f6", "private")],
)
def test_each_speech_key_sends_its_own_command(make_app, key, command):
    """docs/speech.md: Escape stops, F2 repeats, F3 and F4 step back and forward, F5 mutes, F6 private reading."""
    speaker = ControlRecorder()

    async def scenario():
        app = make_app(speaker)
        async with app.run_test() as pilot:
            await pilot.press(key)
            await pilot.pause()
            assert speaker.commands == [command]
            shown = answer(app) if command in ("repeat", "back", "forward") else status(app)  # said: under the cursor
            assert shown.endswith(f"did {command}")
            assert app.query_one("#prompt").value == ""

    run(scenario)


def test_f5_and_f6_toggle_mute_and_private_reading_on_the_real_speaker(speaking_app):
    """Through the real reply speaker: F6 turns private reading on and off and leaves mute alone; F5 the other
    way round."""
    app, service = speaking_app(RecordingBackend())
    speaker = app.speak

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press("f6")
            await pilot.pause()
            assert (speaker.private, service.muted) == (True, False)
            await pilot.press("f5")
            await pilot.pause()
            assert (speaker.private, service.muted) == (True, True)
            await pilot.press("f6")
            await pilot.pause()
            assert (speaker.private, service.muted) == (False, True)
            await pilot.press("f5")
            await pilot.pause()
            assert (speaker.private, service.muted) == (False, False)

    run(scenario)
    service.close()
