"""A voice measured in its sound: its median pitch and its rate, so two voices can be told apart by numbers.

Benchmark support, not shipped in the app (`benchmarks/table_hands.py` uses it on the sound each route played; its
test, `tests/test_benchmarks_voice_measure.py`, on espeak-ng's rendered WAVs):

- `median_pitch(samples, rate)`: the median fundamental frequency (Hz) over the voiced frames, by autocorrelation
  (40 ms frames every 10 ms; a frame is voiced when it is loud, at least `VOICED_LOUDNESS` of the sound's loudest
  frames, and its normalised autocorrelation peaks at `VOICED_CORRELATION` or more between 60 and 500 Hz; the
  shortest lag within 10 % of the highest peak is taken, so a period's double is never taken for it);
- `sound_seconds(samples, rate)`: the seconds from the first loud frame to the last (the silence a synthesiser
  pads a sentence with left out);
- `measure_voice(sounds)`: both over many sentences (their text and their sound): the median pitch of every
  voiced frame, and the words per minute of their words over their seconds of sound.
"""

from __future__ import annotations

import statistics
import wave
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FRAME_S, HOP_S = 0.040, 0.010
LOWEST_HZ, HIGHEST_HZ = 60.0, 500.0
#: A voiced frame: its loudness (RMS) at least this share of the sound's loud frames (their 95th percentile)...
VOICED_LOUDNESS = 0.15
#: ... and its normalised autocorrelation at the period this high or more.
VOICED_CORRELATION = 0.6
#: Of the peaks in range, the shortest lag within this share of the highest (a period, never its double).
NEAR_BEST = 0.9


@dataclass(frozen=True)
class VoiceMeasure:
    """A voice as measured in the sound of its sentences."""

    pitch_hz: float | None
    """The median fundamental frequency of every voiced frame (None: no voiced frame)."""
    words_per_minute: float | None
    """Words said per minute of sound (None: no sound)."""
    sentences: int
    """How many sentences were measured."""
    seconds: float
    """Their seconds of sound."""


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    """A 16-bit WAV file's samples (mono: stereo's channels averaged) as floats from -1 to 1, and its rate. A WAV
    written to a pipe (espeak-ng --stdout: its length fields unknown) is read to its end."""
    with wave.open(str(path), "rb") as sound:
        channels, width, rate = sound.getnchannels(), sound.getsampwidth(), sound.getframerate()
        raw = sound.readframes(sound.getnframes())
    if width != 2:
        raise ValueError(f"{path}: {8 * width}-bit samples, 16-bit expected")
    samples = np.frombuffer(raw[: len(raw) - len(raw) % (2 * channels)], dtype="<i2").astype(np.float64) / 32768
    if channels > 1:
        samples = samples.reshape(-1, channels).mean(axis=1)
    return samples, rate


def _frames(samples: np.ndarray, rate: int) -> tuple[np.ndarray, np.ndarray]:
    """The frames (one a row) and the loudness (RMS) of each."""
    size, hop = int(FRAME_S * rate), int(HOP_S * rate)
    if len(samples) < size:
        return np.zeros((0, size)), np.zeros(0)
    count = 1 + (len(samples) - size) // hop
    index = np.arange(size)[None, :] + hop * np.arange(count)[:, None]
    frames = samples[index]
    return frames, np.sqrt((frames**2).mean(axis=1))


def _loud(loudness: np.ndarray) -> np.ndarray:
    """Which frames are loud: at least `VOICED_LOUDNESS` of the loud frames' level (their 95th percentile)."""
    if not len(loudness) or float(loudness.max()) == 0.0:
        return np.zeros(len(loudness), dtype=bool)
    return loudness >= VOICED_LOUDNESS * float(np.percentile(loudness, 95))


def frame_pitches(samples: np.ndarray, rate: int) -> list[float]:
    """The fundamental frequency (Hz) of each voiced frame, in order."""
    frames, loudness = _frames(samples, rate)
    low, high = int(rate / HIGHEST_HZ), int(rate / LOWEST_HZ)
    size = frames.shape[1] if frames.ndim == 2 else 0
    if size <= high + 1:
        return []
    pitches = []
    for frame in frames[_loud(loudness)]:
        frame = frame - frame.mean()
        spectrum = np.fft.rfft(frame, 2 * size)
        raw = np.fft.irfft(spectrum * np.conj(spectrum))[:size]
        energy = np.concatenate(([0.0], np.cumsum(frame**2)))
        lags = np.arange(low, high + 1)
        # normalised: each lag's product over the energies of the two parts it multiplies
        norm = np.sqrt(energy[size - lags] * (energy[size] - energy[lags]))
        correlation = np.where(norm > 0, raw[lags] / np.where(norm > 0, norm, 1.0), 0.0)
        inner = correlation[1:-1]
        peaks = 1 + np.flatnonzero((inner >= correlation[:-2]) & (inner >= correlation[2:]))
        if not len(peaks):
            continue
        best = float(correlation[peaks].max())
        if best < VOICED_CORRELATION:
            continue
        first = int(peaks[np.argmax(correlation[peaks] >= NEAR_BEST * best)])
        # the peak's place between samples (a parabola through it and its neighbours)
        a, b, c = correlation[first - 1], correlation[first], correlation[first + 1]
        shift = 0.5 * (a - c) / (a - 2 * b + c) if a - 2 * b + c != 0 else 0.0
        pitches.append(rate / (lags[first] + shift))
    return pitches


def median_pitch(samples: np.ndarray, rate: int) -> float | None:
    """The median fundamental frequency (Hz) of the voiced frames; None when no frame is voiced."""
    pitches = frame_pitches(samples, rate)
    return float(statistics.median(pitches)) if pitches else None


def sound_seconds(samples: np.ndarray, rate: int) -> float:
    """Seconds from the first loud frame to the last (0 when there is none)."""
    _, loudness = _frames(samples, rate)
    loud = np.flatnonzero(_loud(loudness))
    if not len(loud):
        return 0.0
    return float((loud[-1] - loud[0]) * HOP_S + FRAME_S)


def words(text: str) -> int:
    """The words of a sentence as said: its runs of letters or digits."""
    return sum(1 for word in text.split() if any(ch.isalnum() for ch in word))


def measure_voice(sounds: Iterable[tuple[str, Path]]) -> VoiceMeasure:
    """A voice over its sentences (each its text and its sound's WAV file): the median pitch over all their voiced
    frames, and their words over their seconds of sound. A file that cannot be read is left out."""
    pitches: list[float] = []
    said, seconds, count = 0, 0.0, 0
    for text, path in sounds:
        try:
            samples, rate = read_wav(path)
        except (OSError, EOFError, ValueError, wave.Error):
            continue
        length = sound_seconds(samples, rate)
        if length <= 0:
            continue
        pitches += frame_pitches(samples, rate)
        said += words(text)
        seconds += length
        count += 1
    return VoiceMeasure(
        pitch_hz=round(float(statistics.median(pitches)), 1) if pitches else None,
        words_per_minute=round(60 * said / seconds, 1) if seconds else None,
        sentences=count,
        seconds=round(seconds, 2),
    )
