"""The voice measure of the benchmarks (`benchmarks/voice_measure.py`) on real rendered sound: espeak-ng's WAVs of
voices known to differ measure apart, the same voice measures alike, and a tone of known pitch measures as it is."""

from __future__ import annotations

import math
import shutil
import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest

from benchmarks.voice_measure import measure_voice, median_pitch, read_wav, sound_seconds

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")

SENTENCES = (
    "Ben played Neigh. Cy ended the turn and drew a card.",
    "Dee has two Unicorns in her Stable, and the pile is empty.",
    "Ana played Basic Unicorn (Red), and Ben's Neigh resolves.",
)


def render(folder: Path, name: str, text: str, *options: str, stdout: bool = False) -> Path:
    """espeak-ng's WAV of `text`: written to a file, or to a pipe as a screen reader's stand-in streams it."""
    path = folder / f"{name}.wav"
    if stdout:
        path.write_bytes(subprocess.run(["espeak-ng", *options, "--stdout", text], capture_output=True).stdout)
    else:
        subprocess.run(["espeak-ng", *options, "-w", str(path), text], check=True)
    return path


def voice(folder: Path, name: str, *options: str, stdout: bool = False) -> list[tuple[str, Path]]:
    return [(text, render(folder, f"{name}-{n}", text, *options, stdout=stdout)) for n, text in enumerate(SENTENCES)]


def test_two_voices_known_to_differ_measure_apart_and_the_same_voice_alike(tmp_path):
    hers = measure_voice(voice(tmp_path, "hers", "-v", "en"))
    again = measure_voice(voice(tmp_path, "again", "-v", "en", stdout=True))  # (a pipe's WAV: lengths unknown)
    table = measure_voice(voice(tmp_path, "table", "-v", "en+f3", "-s", "260"))
    assert hers.sentences == again.sentences == table.sentences == 3
    assert hers.pitch_hz and again.pitch_hz and table.pitch_hz and hers.words_per_minute and table.words_per_minute
    assert again.words_per_minute
    # espeak-ng's English voice is low (about 100 Hz), its female variant f3 about twice as high
    assert 70 <= hers.pitch_hz <= 150
    assert table.pitch_hz / hers.pitch_hz >= 1.5
    assert 0.9 <= again.pitch_hz / hers.pitch_hz <= 1.1
    # 260 words a minute against espeak-ng's 175: measured at least 1.3 times as fast; the same voice alike
    assert table.words_per_minute / hers.words_per_minute >= 1.3
    assert 0.9 <= again.words_per_minute / hers.words_per_minute <= 1.1


def test_a_faster_rate_of_the_same_voice_measures_faster_at_the_same_pitch(tmp_path):
    slow = measure_voice(voice(tmp_path, "slow", "-s", "150"))
    fast = measure_voice(voice(tmp_path, "fast", "-s", "300"))
    assert slow.pitch_hz and fast.pitch_hz and slow.words_per_minute and fast.words_per_minute
    assert 1.6 <= fast.words_per_minute / slow.words_per_minute <= 2.4
    assert 0.85 <= fast.pitch_hz / slow.pitch_hz <= 1.15


def test_a_tone_measures_its_own_pitch_and_length(tmp_path):
    rate = 22050
    time = np.arange(int(1.5 * rate)) / rate
    for hz in (95.0, 180.0, 310.0):
        tone = 0.4 * np.sin(2 * math.pi * hz * time)
        silence = np.zeros(rate // 2)
        samples = np.concatenate([silence, tone, silence])
        path = tmp_path / f"{hz}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(2)  # (stereo, as the app's mixer writes: read as mono)
            out.setsampwidth(2)
            out.setframerate(rate)
            pairs = np.repeat((samples * 32767).astype("<i2"), 2)
            out.writeframes(pairs.tobytes())
        read, read_rate = read_wav(path)
        assert read_rate == rate
        assert median_pitch(read, read_rate) == pytest.approx(hz, rel=0.01)
        assert sound_seconds(read, read_rate) == pytest.approx(1.5, abs=0.1)
    assert median_pitch(np.zeros(rate), rate) is None


def test_a_short_sentence_and_a_long_one_of_one_voice_measure_the_same_rate(tmp_path):
    """The rate counts each sentence's own words: four words in 1 s and fifteen in 4.5 s are one speed."""
    short = "Cy ended the turn."
    long = "Dee has two Unicorns in her Stable, Ben has three, and the pile is empty again."
    one = measure_voice([(short, render(tmp_path, "short", short))])
    other = measure_voice([(long, render(tmp_path, "long", long))])
    assert one.words_per_minute and other.words_per_minute
    assert 0.85 <= one.words_per_minute / other.words_per_minute <= 1.15
