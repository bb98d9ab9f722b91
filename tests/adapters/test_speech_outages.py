"""Outages of the sound device (docs/robustness.md, "Outages"): no device call holds a key, a device that blocks or
fails is told lost once and back once, and quit never waits on it.

The mixer's rules on sinks that block or fail as a test says, with an injected clock (the watchdog's time); the real
path, the plain mode at a terminal of its own playing through PortAudio into ALSA's `file` plugin writing into a
FIFO (`benchmarks/outage_rig.py`): nobody reading it (opening blocks), its reader stopped mid-game (writes block),
killed and started again (the device gone and back).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from speech_fixtures import alsa_capture  # noqa: F401 - fixtures
from test_speech_mixer import Clock, Told

from assistant.core.speech.settings import parse_settings
from assistant.core.words.outage import (
    SOUND_BACK,
    SoundLoss,
    player_not_installed,
    player_unknown,
    portaudio_missing,
    sound_lost,
    sounds_by_themselves_failed,
)
from assistant.speech import tell_device_changes
from assistant.speech.mixer import ENDED, FAILED, KILLED, OPEN_TIMEOUT, RATE, WRITE_TIMEOUT, DeviceChange, Mixer
from assistant.speech.player import KNOWN, Player, system_of
from assistant.speech.service import SpeechService
from benchmarks.outage_rig import ROOT, FifoDevice, plain_app
from tests.recording_backend import RecordingBackend

#: A guard for what must happen (an event awaited), never a timing: generous, for a loaded machine.
GUARD = 20.0


class Device:
    """A sink whose open and writes block while their gate is shut, or fail while `failing` says so."""

    def __init__(self) -> None:
        self.open_gate, self.write_gate = threading.Event(), threading.Event()
        self.open_gate.set()
        self.write_gate.set()
        self.opening, self.writing_blocked = threading.Event(), threading.Event()
        self.failing_opens = 0
        self.failing_writes = 0
        self.opened = self.closed = self.written = 0
        self.block_at: int | None = None
        """The write gate shuts itself once this many frames were written (the reader stopped mid-sound)."""
        self.abandoned = False

    def open(self) -> None:
        self.opening.set()
        self.open_gate.wait()
        if self.failing_opens:
            self.failing_opens -= 1
            raise OSError("no such device")
        self.opened += 1

    def write(self, block: np.ndarray) -> None:
        if self.block_at is not None and self.written >= self.block_at:
            self.block_at = None
            self.write_gate.clear()
        if not self.write_gate.is_set():
            self.writing_blocked.set()
            self.write_gate.wait()
        if self.failing_writes:
            self.failing_writes -= 1
            raise OSError("Input/output error")
        self.written += len(block)

    def close(self) -> None:
        self.closed += 1

    def abandon(self) -> None:
        self.abandoned = True


def tone(seconds: float) -> np.ndarray:
    return np.full((int(seconds * RATE), 2), 0.1, np.float32)


def returns(call) -> bool:
    """Whether `call` returns (in a thread of its own: a call that blocks fails the test, not the run)."""
    done = threading.Event()

    def run() -> None:
        call()
        done.set()

    threading.Thread(target=run, daemon=True).start()
    return done.wait(GUARD)


@pytest.fixture
def rig():
    clock, device, told = Clock(), Device(), Told()
    mixer = Mixer(device, clock=clock, sleep=clock.sleep, retry=(0.0, 0.01), watch_every=0.002)
    mixer.listeners.append(told)
    yield mixer, device, clock, told
    device.open_gate.set()
    device.write_gate.set()
    mixer.close()


def test_a_device_that_blocks_as_it_opens_never_holds_a_key_and_is_told_lost_then_back_once(rig):
    mixer, device, clock, told = rig
    device.open_gate.clear()  # a hung sound server: opening the stream does not return
    first = mixer.play(tone(1.0))
    assert device.opening.wait(GUARD)  # the mixer's thread is inside the open now

    def key() -> None:  # her key: what is said cut off, the next reply's sound queued, cut again
        first.kill()
        mixer.play(tone(0.5)).kill()

    assert returns(key)  # (before: the mixer held its lock through the open, and every key waited on it)
    waiting = mixer.play(tone(0.5))
    clock.advance(OPEN_TIMEOUT)  # the open is given up
    assert told.wait(1) and told.changes == [DeviceChange(SoundLoss.NOT_ANSWERING)]
    assert waiting.wait(GUARD) == FAILED  # its sound fails now, not when the device answers
    assert mixer.play(tone(0.5)).wait(0) == FAILED  # while it is lost, at once
    device.open_gate.set()  # the device answers: the open that was under way is the device back
    assert told.wait(2) and told.changes == [DeviceChange(SoundLoss.NOT_ANSWERING), DeviceChange(None)]
    assert mixer.play(tone(0.2)).wait(GUARD) == ENDED
    assert device.opened == 1 and first.returncode == KILLED


def test_a_device_that_blocks_mid_game_is_lost_back_lost_again_and_quit_never_waits_on_it(rig):
    mixer, device, clock, told = rig
    device.block_at = 10 * RATE // 50  # a few blocks heard, then the reader stops: a write does not return
    playing = mixer.play(tone(3.0))
    assert device.writing_blocked.wait(GUARD)
    assert returns(playing.kill)  # her key cuts it at once
    clock.advance(WRITE_TIMEOUT)
    assert told.wait(1) and told.changes == [DeviceChange(SoundLoss.NOT_ANSWERING)]
    device.write_gate.set()
    assert told.wait(2)
    assert mixer.play(tone(0.2)).wait(GUARD) == ENDED  # sound back, in the stream kept open
    device.writing_blocked.clear()
    device.block_at = device.written + 5 * RATE // 50
    again = mixer.play(tone(3.0))
    assert device.writing_blocked.wait(GUARD)
    clock.advance(WRITE_TIMEOUT)
    assert told.wait(3) and told.changes[2] == DeviceChange(SoundLoss.NOT_ANSWERING)  # a second outage: told again
    assert again.wait(GUARD) == FAILED
    assert returns(lambda: mixer.close(wait=0.05))  # quit while the write is stuck: bounded
    assert mixer.abandoned and device.abandoned  # the stream left to the process's end, never waited on


def test_a_device_that_cannot_be_opened_is_tried_again_and_used_when_it_returns(rig):
    mixer, device, clock, told = rig
    device.failing_opens = 3  # no device, three tries running; then it is plugged in
    assert mixer.play(tone(0.2)).wait(GUARD) == FAILED
    assert told.wait(2)  # (retried in the background: nothing played meanwhile)
    assert told.changes == [DeviceChange(SoundLoss.CANNOT_OPEN), DeviceChange(None)]
    assert mixer.play(tone(0.2)).wait(GUARD) == ENDED  # (before: the mixer kept its failure for the session)


def test_a_device_that_goes_away_mid_game_is_closed_opened_again_and_used(rig):
    mixer, device, clock, told = rig
    assert mixer.play(tone(0.1)).wait(GUARD) == ENDED
    device.failing_writes = 1  # the reader killed: a write fails
    assert mixer.play(tone(0.5)).wait(GUARD) == FAILED
    assert told.wait(2) and told.changes == [DeviceChange(SoundLoss.WENT_AWAY), DeviceChange(None)]
    assert device.closed >= 1 and device.opened == 2
    assert mixer.play(tone(0.1)).wait(GUARD) == ENDED


class Renewable(Device):
    """A `Device` that can make a fresh one (`FreshSink`), as PortAudio opens another stream to the same device: each
    fresh one kept in `made` (shared), blocking as it opens when `blocking` says so (the device still away)."""

    def __init__(self, made: list[Renewable] | None = None, blocking: bool = False) -> None:
        super().__init__()
        self.made = made if made is not None else []
        self.blocking = blocking
        if blocking:
            self.open_gate.clear()

    def fresh(self) -> Renewable:
        device = Renewable(self.made, self.blocking)
        self.made.append(device)
        return device


@pytest.fixture
def renewing():
    clock, device, told = Clock(), Renewable(), Told()
    mixer = Mixer(device, clock=clock, sleep=clock.sleep, retry=(0.0, 0.01), watch_every=0.002)
    mixer.listeners.append(told)
    yield mixer, device, clock, told
    for each in (device, *device.made):
        each.open_gate.set()
        each.write_gate.set()
    mixer.close()


def test_a_device_that_comes_back_while_its_open_never_returns_is_opened_afresh_and_used(renewing):
    """The open does not return (a hung sound server, restarted meanwhile: the old call stays stuck); the device is
    back at once for a fresh stream: the stuck call is given up, a fresh sink opened on a thread of its own, sound
    back and said once (before: silent until the stuck call returned, here never)."""
    mixer, device, clock, told = renewing
    device.open_gate.clear()
    mixer.play(tone(1.0))
    assert device.opening.wait(GUARD)
    clock.advance(OPEN_TIMEOUT)
    assert told.wait(2), told.changes
    assert told.changes == [DeviceChange(SoundLoss.NOT_ANSWERING), DeviceChange(None)]
    (fresh,) = device.made
    assert mixer.play(tone(0.2)).wait(GUARD) == ENDED and fresh.written > 0 and device.opened == 0
    assert mixer.stuck == 1
    device.open_gate.set()  # the stuck call returns at last: its stream is closed, and nothing more is told
    assert returns(lambda: _until(lambda: mixer.stuck == 0))
    assert device.opened == 1 and device.closed == 1 and len(told.changes) == 2
    assert mixer.play(tone(0.2)).wait(GUARD) == ENDED and device.written == 0


def test_fresh_opens_that_block_too_are_given_up_at_most_max_stuck_times_then_the_last_is_waited_on(renewing):
    """The device stays away: each fresh open blocks as well, and is given up in turn; no more than `MAX_STUCK`
    calls are ever left waiting (a thread each), then the mixer waits on the last; when the device answers, the
    last call is the device back, told once."""
    from assistant.speech.mixer import MAX_STUCK

    mixer, device, clock, told = renewing
    device.blocking = True
    device.open_gate.clear()
    mixer.play(tone(1.0))
    opening = device
    for _ in range(MAX_STUCK + 3):
        assert opening.opening.wait(GUARD)
        clock.advance(OPEN_TIMEOUT)
        if len(device.made) == MAX_STUCK:
            break
        assert returns(lambda opening=opening: _until(lambda: len(device.made) > 0 and device.made[-1] is not opening))
        opening = device.made[-1]
    assert opening.opening.wait(GUARD)
    clock.advance(OPEN_TIMEOUT * 3)
    assert returns(lambda: _until(lambda: mixer.stuck == MAX_STUCK))
    looked = mixer.watched
    assert returns(lambda: _until(lambda: mixer.watched >= looked + 2))  # the watchdog looked again: nothing more
    assert len(device.made) == MAX_STUCK and mixer.stuck == MAX_STUCK
    assert told.changes == [DeviceChange(SoundLoss.NOT_ANSWERING)]
    opening.open_gate.set()  # the device answers the call waited on
    assert told.wait(2) and told.changes[1] == DeviceChange(None)
    assert mixer.play(tone(0.2)).wait(GUARD) == ENDED and opening.written > 0


def _until(condition) -> None:
    while not condition():
        threading.Event().wait(0.002)


# The real path: the plain mode at a terminal, PortAudio, ALSA's file plugin, a FIFO.

LOST_BLOCKING = sound_lost(SoundLoss.NOT_ANSWERING)
LOST_GONE = sound_lost(SoundLoss.WENT_AWAY)
REPLY = "Type: Upgrade card"


@pytest.fixture
def device(tmp_path):
    pytest.importorskip("sounddevice", reason="sounddevice (PortAudio) is not installed")
    if not shutil.which("espeak-ng"):
        pytest.skip("espeak-ng is not installed")
    fifo = FifoDevice(tmp_path)
    yield fifo
    fifo.close()


@pytest.fixture
def at_terminal(tmp_path, device):
    started = []

    def start():
        app, transcript = plain_app(tmp_path, device)
        started.append(app)
        assert app.wait_for("plain mode", timeout=GUARD * 3) is not None, app.text()
        return app, transcript

    yield start
    for app in started:
        app.close()


def answer_lines(app, count: int, start: int) -> None:
    """Type `count` card names; each one's reply shows (a guard: before, the app stopped answering)."""
    for n in range(start, start + count):
        app.type("rainbow aura")
        assert app.wait_for(REPLY, count=n + 1, timeout=GUARD) is not None, f"line {n + 1} unanswered:\n{app.text()}"


def test_plain_mode_with_a_device_nobody_reads_answers_every_line_says_it_once_and_sound_comes_back(
    at_terminal, device
):
    app, transcript = at_terminal()  # nobody reads the device: opening it blocks
    answer_lines(app, 5, 0)
    assert app.wait_for(LOST_BLOCKING, timeout=GUARD) is not None, app.text()
    answer_lines(app, 3, 5)
    device.start_reader()  # the device answers
    assert app.wait_for(SOUND_BACK, timeout=GUARD) is not None, app.text()
    answer_lines(app, 2, 8)
    assert device.wait_heard(GUARD)  # her replies heard again
    assert app.quit(GUARD) is not None
    text = app.text()
    assert text.count(LOST_BLOCKING) == 1 and text.count(SOUND_BACK) == 1
    assert "plain mode" in text and "Speech: espeak-ng" not in text  # the engine: on request
    said = transcript.read_text(encoding="utf-8")
    assert said.count("Rainbow Aura, Upgrade card") == 10  # nothing missing from the transcript


def test_plain_mode_with_a_device_whose_open_never_returns_answers_every_key_and_quits_within_2_s(at_terminal, device):
    """Nobody ever reads the device: PortAudio's open of it never returns (a thread stuck for good, not a long
    call). Every line is answered, the loss said once and never a return, and quit ends the process within 2 s."""
    app, transcript = at_terminal()
    answer_lines(app, 4, 0)
    assert app.wait_for(LOST_BLOCKING, timeout=GUARD) is not None, app.text()
    answer_lines(app, 3, 4)  # (the open still under way, for ever)
    took = app.quit(GUARD)
    assert took is not None and took < 2.0, (took, app.text())
    text = app.text()
    assert text.count(LOST_BLOCKING) == 1 and SOUND_BACK not in text
    assert transcript.read_text(encoding="utf-8").count("Rainbow Aura, Upgrade card") == 7
    assert device.bytes_heard() == 0


def test_plain_mode_with_a_device_that_comes_back_anew_while_its_open_never_returns_plays_again_within_5_s(
    at_terminal, device
):
    """Nobody reads the device: PortAudio's open of it never returns. The device comes back as a new one (a sound
    server restarted while the old one hangs: a new FIFO at its path, read; the stuck open stays stuck for good):
    "Sound is back." once, within 5 s of its return, and her next replies are heard; quit within 2 s (before: silent
    for the session, the mixer waiting on the stuck open)."""
    app, transcript = at_terminal()
    answer_lines(app, 2, 0)
    assert app.wait_for(LOST_BLOCKING, timeout=GUARD) is not None, app.text()
    returned = time.monotonic()
    device.come_back_anew()
    shown = app.wait_for(SOUND_BACK, timeout=GUARD)
    assert shown is not None, app.text()
    assert shown - returned < 5.0, shown - returned
    answer_lines(app, 2, 2)
    assert device.wait_heard(GUARD)  # her replies heard again
    took = app.quit(GUARD)
    assert took is not None and took < 2.0, (took, app.text())
    text = app.text()
    assert text.count(LOST_BLOCKING) == 1 and text.count(SOUND_BACK) == 1
    assert transcript.read_text(encoding="utf-8").count("Rainbow Aura, Upgrade card") == 4


def test_plain_mode_with_a_device_that_stops_mid_game_goes_on_and_quits_while_it_is_stopped(at_terminal, device):
    device.start_reader()
    app, transcript = at_terminal()
    answer_lines(app, 2, 0)
    device.stop_reader()  # the sound card stops taking sound: the stream's writes block
    answer_lines(app, 4, 2)
    assert app.wait_for(LOST_BLOCKING, timeout=GUARD) is not None, app.text()
    device.resume_reader()
    answer_lines(app, 1, 6)
    assert app.wait_for(SOUND_BACK, timeout=GUARD) is not None, app.text()
    device.stop_reader()  # stopped again, and she quits meanwhile
    answer_lines(app, 1, 7)
    # (quit once its words have reached the stuck write: the app says the device lost again, not after a set time)
    assert app.wait_for(LOST_BLOCKING, count=2, timeout=GUARD) is not None, app.text()
    assert app.quit(GUARD) is not None, app.text()  # (before: quit waited as long as the device blocked)
    text = app.text()
    assert text.count(SOUND_BACK) == 1 and "Expression" not in text
    assert transcript.read_text(encoding="utf-8").count("Rainbow Aura, Upgrade card") == 8


def test_plain_mode_with_a_device_that_disappears_and_returns_plays_on_it_again_with_no_native_text(
    at_terminal, device
):
    device.start_reader()
    app, _ = at_terminal()
    answer_lines(app, 1, 0)
    # Taken away once sound reaches it, not after a set time: on a busy machine that could end before the first
    # sound, and a device gone before its first open blocks that open ("stopped answering").
    assert device.wait_heard(GUARD)
    device.kill_reader()  # the device disappears mid-sentence: the next write fails
    answer_lines(app, 3, 1)
    assert app.wait_for(LOST_GONE, timeout=GUARD) is not None, app.text()
    device.start_reader()  # and returns
    assert app.wait_for(SOUND_BACK, timeout=GUARD) is not None, app.text()
    answer_lines(app, 2, 4)
    assert device.wait_heard(GUARD)  # (before: 0 bytes for the rest of the session)
    assert app.quit(GUARD) is not None
    text = app.text()
    assert text.count(LOST_GONE) == 1 and text.count(SOUND_BACK) == 1
    assert "pa_linux_alsa" not in text and "Expression" not in text  # PortAudio's own text never reaches her


# Settings that cannot be honoured, said with what plays instead; native text kept off her terminal.

SPEAKER = """
import json, sys
if sys.argv[1] == "no-portaudio":
    sys.modules["sounddevice"] = None  # PortAudio's library missing: the import fails, as without libportaudio2
from assistant.core.speech.settings import SpeechSettings
from assistant.speech import make_speaker
settings = SpeechSettings(speech="own-voice", backend="espeak-ng", player=sys.argv[2], earcons=False, table_voice=False)
service = make_speaker(settings)
service.say("Rainbow Aura.")
service.wait_idle(30)
print(json.dumps(service.take_notices()))
service.close()
"""


def speaker_notices(home, *args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", SPEAKER, *args], env={**os.environ, "HOME": str(home), "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.skipif(shutil.which("paplay") is not None, reason="paplay is installed here")
def test_a_player_setting_naming_a_player_not_installed_is_said_with_what_plays_instead(alsa_capture):  # noqa: F811
    pytest.importorskip("sounddevice", reason="sounddevice (PortAudio) is not installed")
    notices = speaker_notices(alsa_capture.home, "as-is", "paplay")
    assert player_not_installed("paplay", "sounddevice") in notices, notices
    assert alsa_capture.wait_plays(1, GUARD)  # and it plays (before: espeak-ng by itself, the setting dropped)


@pytest.mark.skipif(shutil.which("mpv") is not None, reason="mpv is installed here")
def test_a_player_the_app_does_not_know_is_said_by_name_and_never_sets_the_settings_aside(alsa_capture):  # noqa: F811
    pytest.importorskip("sounddevice", reason="sounddevice (PortAudio) is not installed")
    settings = parse_settings('[speech]\nplayer = "mpv"\nrate = 70\n')
    assert (settings.player, settings.rate) == ("mpv", 70)  # (before: the whole file set aside as damaged)
    notices = speaker_notices(alsa_capture.home, "as-is", "mpv")
    assert player_not_installed("mpv", "sounddevice") in notices, notices
    assert alsa_capture.wait_plays(1, GUARD)


def test_portaudio_missing_is_said_with_the_fix_and_not_in_the_words_used_when_it_is_there(alsa_capture):  # noqa: F811
    notices = speaker_notices(alsa_capture.home, "no-portaudio", "auto")
    assert portaudio_missing("aplay", system_of()) in notices, notices  # the fix for this computer and this user
    assert "libportaudio2" in portaudio_missing("aplay", system_of())
    assert alsa_capture.wait_plays(1, GUARD)  # played with aplay meanwhile


ALONE = """
import sys
from assistant.core.speech.utterance import Utterance
from assistant.speech.backends import EspeakBackend
backend = EspeakBackend(None)
told = []
backend.on_notice = told.append
backend.open()
backend.speak(Utterance("Rainbow Aura."), lambda: True)
backend.speak(Utterance("Unicorn Poison."), lambda: True)
print(repr(told))
"""


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
def test_espeak_ng_playing_by_itself_with_no_device_says_so_once_rather_than_claim_to_speak(tmp_path):
    (tmp_path / ".asoundrc").write_text("pcm.!default { type hw card 9 }\n", encoding="utf-8")  # no such card
    done = subprocess.run(
        [sys.executable, "-c", ALONE], env={**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr([sounds_by_themselves_failed("espeak-ng")])  # once, for both sentences


NATIVE = """
import os, sys
from pathlib import Path
from assistant.ui.terminal import native_output_to_log
with native_output_to_log(Path(sys.argv[1])):
    os.write(2, b"Expression 'res' failed in 'src/hostapi/alsa/pa_linux_alsa.c', line: 3502\\n")  # as C code does
    print("the app's own line", file=sys.stderr, flush=True)
    print("drawn", file=sys.__stderr__, flush=True)  # (Textual draws on it)
os.write(2, b"after\\n")
"""


def test_native_libraries_text_goes_to_a_log_for_the_apps_whole_run_and_the_apps_own_lines_still_show(tmp_path):
    log = tmp_path / "data" / "native-output.log"
    done = subprocess.run(
        [sys.executable, "-c", NATIVE, str(log)], env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == b"the app's own line\ndrawn\nafter\n"
    assert b"pa_linux_alsa" in log.read_bytes()


def test_a_program_named_as_the_player_that_the_app_cannot_drive_is_said_and_another_plays():
    chosen, note = Player.choose("sh")  # installed everywhere, and no sound player
    assert chosen is None or chosen.name in KNOWN
    assert note == player_unknown("sh", KNOWN, chosen.name if chosen else "")


def test_a_device_lost_is_told_once_to_the_speech_service_and_said_by_a_voice_that_does_not_play_through_it(rig):
    mixer, device, clock, told = rig
    voice = RecordingBackend()  # her own voice elsewhere (speech-dispatcher): it can say the loss
    notices: list[str] = []
    service = SpeechService(voice, on_notice=notices.append)
    try:
        tell_device_changes(service, mixer)
        device.failing_opens = 2
        assert mixer.play(tone(0.1)).wait(GUARD) == FAILED
        # (the test's listener may hear the return before the service's: wait for the voice's second sentence)
        assert told.wait(2) and voice.wait_started(2, GUARD) and service.wait_idle(GUARD)
        lost = sound_lost(SoundLoss.CANNOT_OPEN)
        assert notices == [service.notices[0], lost, SOUND_BACK]  # after the engine chosen: once each
        assert voice.said == [lost, SOUND_BACK]
    finally:
        service.close()
