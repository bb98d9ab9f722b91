"""The app's mixer (assistant/speech/mixer.py): every sound in one kept stream, mixed and panned in this process.

The mixing, the pacing and the cuts on a recording sink and an injected clock (a sound card cannot exist here); the
real path through PortAudio into ALSA's file plugin in a process of its own, as the app plays it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import wave
from pathlib import Path

import numpy as np
import pytest
from speech_fixtures import alsa_capture  # noqa: F401 - fixtures

from assistant.core.words.outage import SoundLoss
from assistant.speech.mixer import (
    BLOCK,
    ENDED,
    FAILED,
    KILLED,
    LEAD_S,
    RATE,
    WRITE_TIMEOUT,
    DeviceChange,
    Mixer,
    read_samples,
)

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    """Seconds that pass only when the mixer sleeps (it paces itself by them), or when a test moves them on."""

    def __init__(self) -> None:
        self.now = 100.0
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds


class Recorded:
    """A sink that keeps every block, with the clock's moment it was written."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.blocks: list[tuple[float, np.ndarray]] = []
        self.opened = 0

    def open(self) -> None:
        self.opened += 1

    def write(self, block: np.ndarray) -> None:
        self.blocks.append((self.clock(), block.copy()))

    def close(self) -> None:
        pass

    def stream(self) -> np.ndarray:
        return np.concatenate([block for _, block in self.blocks]) if self.blocks else np.zeros((0, 2), np.int16)


def tone(seconds: float, left: float, right: float) -> np.ndarray:
    frames = int(seconds * RATE)
    return np.stack([np.full(frames, left, np.float32), np.full(frames, right, np.float32)], axis=1)


@pytest.fixture
def mixing():
    clock = Clock()
    sink = Recorded(clock)
    mixer = Mixer(sink, clock=clock, sleep=clock.sleep)
    yield mixer, sink, clock
    mixer.close()


def test_two_sounds_at_once_are_added_in_one_stream_each_keeping_its_side():
    clock = Clock()
    sink = Recorded(clock)
    gate = threading.Semaphore(0)

    def sleep(seconds: float) -> None:  # (the clock goes on only when the test lets it: both sounds are in first)
        gate.acquire()
        clock.sleep(seconds)

    mixer = Mixer(sink, clock=clock, sleep=sleep)
    try:
        hers = mixer.play(tone(0.2, 0.25, 0.25))  # her reply, in the middle
        table = mixer.play(tone(0.1, 0.0, 0.5))  # another hand's move, at its player's right
        gate.release(1000)
        assert hers.wait(5) == ENDED and table.wait(5) == ENDED
    finally:
        gate.release(1000)
        mixer.close()
    stream = sink.stream().astype(np.float32) / 32768
    over = stream[:, 1] > 0.7
    assert over.any()
    start = int(np.argmax(over))  # the block the move began in (at most the lead's blocks after hers)
    assert start <= 4 * BLOCK
    both = stream[start : start + int(0.1 * RATE)]
    assert np.allclose(both[:, 0], 0.25, atol=1e-3) and np.allclose(both[:, 1], 0.75, atol=1e-3)
    after = stream[start + int(0.1 * RATE) : int(0.2 * RATE)]
    assert np.allclose(after, 0.25, atol=1e-3)  # the move ended: her words alone
    assert sink.opened == 1  # one stream, kept: no device opened per sound


def test_the_mixer_writes_no_further_ahead_than_its_lead_and_a_sound_ends_when_it_is_heard(mixing):
    mixer, sink, clock = mixing
    began = clock()
    sound = mixer.play(tone(1.0, 0.1, 0.1))
    assert sound.wait(5) == ENDED
    assert clock() - began >= 1.0  # ended when its last sample was due, not when it was written
    written = 0
    for moment, block in sink.blocks:
        written += len(block)
        assert written / RATE - (moment - began) <= LEAD_S + 2 * BLOCK / RATE
    assert sound.began is not None and sound.began - began < 2 * BLOCK / RATE


def test_a_killed_sound_leaves_the_mix_at_the_next_block_and_the_other_plays_on():
    clock = Clock()
    sink = Recorded(clock)
    gate = threading.Semaphore(0)

    def sleep(seconds: float) -> None:  # the mixer waits here until the test lets the clock go on
        gate.acquire()
        clock.sleep(seconds)

    mixer = Mixer(sink, clock=clock, sleep=sleep)
    try:
        table = mixer.play(tone(2.0, 0.0, 0.5))
        hers = mixer.play(tone(0.5, 0.25, 0.0))
        for _ in range(5):
            gate.release()
        while len(sink.blocks) < 8:
            threading.Event().wait(0.001)  # (the mixer's thread, polled)
        table.kill()  # her key's silence, or the next sentence: the move is cut
        killed_at = len(sink.stream())
        for _ in range(200):
            gate.release()
        assert table.wait(1) == KILLED and hers.wait(5) == ENDED
    finally:
        for _ in range(200):
            gate.release()
        mixer.close()
    stream = sink.stream().astype(np.float32) / 32768
    later = stream[killed_at + 2 * BLOCK : int(0.5 * RATE) - BLOCK]
    assert len(later) and np.allclose(later[:, 1], 0.0, atol=1e-3) and np.allclose(later[:, 0], 0.25, atol=1e-3)
    assert np.allclose(stream[: killed_at - BLOCK, 1], 0.5, atol=1e-3)  # until then, the move was heard


def test_a_sound_the_device_cannot_take_fails_and_the_mixer_says_why():
    class Gone(Recorded):
        def open(self) -> None:
            raise OSError("no sound device")

    clock = Clock()
    mixer = Mixer(Gone(clock), clock=clock, sleep=clock.sleep)
    try:
        assert mixer.play(tone(0.1, 0.1, 0.1)).wait(5) == 1
        assert "no sound device" in mixer.failure
        assert mixer.play(tone(0.1, 0.1, 0.1)).wait(1) == 1  # failed at once, never waiting on a device
    finally:
        mixer.close()


class Hangs(Recorded):
    """A sink whose writes stop returning once `frames` frames were written (the device took the stream and stopped
    taking sound: a FIFO whose reader is stopped) until `resume` is set. It can make a fresh one (`FreshSink`), kept
    in `made`, which takes sound at once, as a fresh stream to a hung device does for a moment."""

    def __init__(self, clock: Clock, frames: int) -> None:
        super().__init__(clock)
        self.frames = frames
        self.hung, self.resume = threading.Event(), threading.Event()
        self.made: list[Recorded] = []

    def write(self, block: np.ndarray) -> None:
        if sum(len(each) for _, each in self.blocks) >= self.frames:
            self.hung.set()
            self.resume.wait()
        super().write(block)

    def fresh(self) -> Recorded:
        self.made.append(Recorded(self.clock))
        return self.made[-1]


class Told:
    """A mixer's listener: each change, waited for by count."""

    def __init__(self) -> None:
        self.changes: list[DeviceChange] = []
        self.cond = threading.Condition()

    def __call__(self, change: DeviceChange) -> None:
        with self.cond:
            self.changes.append(change)
            self.cond.notify_all()

    def wait(self, count: int) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: len(self.changes) >= count, 20)


def test_a_write_that_never_returns_is_waited_on_and_no_fresh_stream_is_opened_in_its_place():
    """docs/robustness.md: a write that never returns is waited on, not given up as an open is. The device took the
    stream and stopped taking sound; a fresh stream to it would take sound into its buffers for a moment, and the
    device be said back while it is not (the benchmark's "app: stopped" said the return twice)."""
    clock = Clock()
    sink, told = Hangs(clock, 5 * BLOCK), Told()
    mixer = Mixer(sink, clock=clock, sleep=clock.sleep, retry=(0.0, 0.01), watch_every=0.002)
    mixer.listeners.append(told)
    try:
        playing = mixer.play(tone(3.0, 0.1, 0.1))
        assert sink.hung.wait(20)  # the mixer's thread is inside the write now
        clock.advance(WRITE_TIMEOUT)
        assert told.wait(1)  # (the watchdog tells the loss in the same step as it would give the call up)
        assert told.changes == [DeviceChange(SoundLoss.NOT_ANSWERING)]
        assert sink.made == [] and mixer.stuck == 0  # waited on: no fresh stream opened in its place
        assert playing.wait(20) == FAILED
        assert mixer.play(tone(0.1, 0.1, 0.1)).wait(0) == FAILED  # still lost while the write hangs
        written = len(sink.blocks)
        sink.resume.set()  # the device takes sound again: the write returns, which is the device back
        assert told.wait(2) and told.changes == [DeviceChange(SoundLoss.NOT_ANSWERING), DeviceChange(None)]
        assert mixer.play(tone(0.2, 0.1, 0.1)).wait(20) == ENDED
        assert len(sink.blocks) > written and sink.made == [] and sink.opened == 1  # on the stream kept
    finally:
        sink.resume.set()
        mixer.close()


def test_a_wav_file_of_another_rate_or_mono_is_read_as_stereo_at_the_mixers_rate(tmp_path):
    path = tmp_path / "mono.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(44100)
        out.writeframes(np.full(44100, 8192, "<i2").tobytes())
    samples = read_samples(path)
    assert samples.shape == (RATE, 2) and np.allclose(samples, 0.25, atol=1e-3)
    (tmp_path / "broken.wav").write_bytes(b"RIFF")
    with pytest.raises(OSError):
        read_samples(tmp_path / "broken.wav")


PLAYS_TWO = """
import json, sys, time
from assistant.speech.soundfile import place_wav
from assistant.speech.player import Player
player = Player.find("sounddevice")
assert player is not None and player.name == "sounddevice", "PortAudio has no output device"
place_wav(sys.argv[2], 0.8)  # another hand's move at the right
start = time.monotonic()
hers = player.start(sys.argv[1])
time.sleep(0.3)  # (her words play on the real device while the move's start)
table = player.start(sys.argv[2])
codes = hers.wait(30), table.wait(30)
print(json.dumps({"codes": codes, "seconds": time.monotonic() - start}))
"""


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
def test_her_words_and_a_move_at_once_reach_the_sound_device_in_one_stream_through_portaudio(
    alsa_capture,  # noqa: F811 - a fixture
    tmp_path,
):
    pytest.importorskip("sounddevice", reason="sounddevice (PortAudio) is not installed")
    paths = []
    said = (("hers", "Rainbow Aura, Upgrade card. Your Unicorns cannot be destroyed."), ("move", "Ben drew."))
    for name, text in said:
        paths.append(tmp_path / f"{name}.wav")
        subprocess.run(["espeak-ng", "-w", str(paths[-1]), text], check=True)
    hers_s, move_s = (len(read_samples(p)) / RATE for p in paths)
    env = {**alsa_capture.env, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PLAYS_TWO, *map(str, paths)], env=env, capture_output=True, text=True, timeout=60
    )
    if "PortAudio has no output device" in done.stderr or "OSError" in done.stderr:
        pytest.skip(f"PortAudio cannot open ALSA here: {done.stderr[-200:]}")
    assert done.returncode == 0, done.stderr
    ran = json.loads(done.stdout)
    assert ran["codes"] == [0, 0]
    assert ran["seconds"] >= hers_s - 0.1  # played in real time, as a sound card takes it
    plays = [p for p in alsa_capture.plays() if p.stat().st_size]
    assert len(plays) == 1  # one stream for both voices
    stream = np.frombuffer(plays[0].read_bytes(), "<i2").reshape(-1, 2).astype(np.float32) / 32768
    level = lambda part: np.sqrt(np.mean(part**2, axis=0))  # noqa: E731
    assert level(stream[: int(0.25 * RATE)])[0] > 0.01  # her words, from the middle: the left has them
    move = stream[int(0.35 * RATE) : int((0.3 + move_s - 0.05) * RATE)]
    left, right = level(move)
    assert right > 1.3 * left  # the move heard at the right, over her words
    assert len(stream) >= int((hers_s - 0.1) * RATE)
    assert os.environ.get("HOME") != alsa_capture.env["HOME"]  # (the test's own process never touched the device)


NATIVE_PRINTS = """
import os
from assistant.speech.mixer import portaudio_available, quiet_native_output
with quiet_native_output():
    os.write(2, b"ALSA lib pcm.c: Unknown PCM cards.pcm.rear\\n")  # as a native library prints, on fd 2
portaudio_available()
os.write(2, b"after\\n")
"""


def test_what_native_sound_libraries_print_never_reaches_the_terminal_the_app_draws_on():
    done = subprocess.run(
        [sys.executable, "-c", NATIVE_PRINTS], env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == b"after\n"  # stderr is the app's own again afterwards
