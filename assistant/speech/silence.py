"""The silence after a rendered sentence, cut to a short pause before the sentence is played; and a rendered
sentence made softer (`soften`).

espeak-ng (and pyttsx3 through it) writes about 0.3 s of silence after every sentence. Played as it is, that
silence holds back the next sentence, and at table pace the reply to the key after a turn change.
"""

from __future__ import annotations

import array
import contextlib
import sys
import wave
from pathlib import Path

#: Below this (of 32767) a 16-bit sample counts as silence; and the silence kept after the last sound, seconds.
SILENCE_LEVEL, PAUSE_KEPT = 300, 0.08


def _samples(path: Path) -> tuple[wave._wave_params, bytes, array.array[int]] | None:
    """A rendered sentence's WAV parameters, its frames and its 16-bit samples (in this machine's byte order); None
    for a file of another sample format, or one that cannot be read."""
    try:
        with wave.open(str(path), "rb") as sound:
            params = sound.getparams()
            if params.sampwidth != 2 or params.comptype != "NONE":
                return None
            frames = sound.readframes(params.nframes)
    except (OSError, EOFError, wave.Error):
        return None
    samples = array.array("h", frames[: len(frames) - len(frames) % 2])
    if sys.byteorder == "big":
        samples.byteswap()
    return params, frames, samples


def trim_silent_end(path: Path) -> None:
    """Cut the silence an engine leaves after a sentence (espeak-ng: about 0.3 s) down to a short pause, so the
    next sentence, or the reply to the next key, is not held back by a quiet player. Files of another sample
    format, or that cannot be read, are left as they are."""
    read = _samples(path)
    if read is None:
        return
    params, frames, samples = read
    end, step = len(samples), 256
    while end > 0:  # whole blocks of silence first (min and max run in C: the worker holds the interpreter briefly)
        block = samples[max(0, end - step) : end]
        if max(block) >= SILENCE_LEVEL or min(block) <= -SILENCE_LEVEL:
            break
        end -= len(block)
    while end > 0 and -SILENCE_LEVEL < samples[end - 1] < SILENCE_LEVEL:
        end -= 1
    keep = min(len(samples), end + int(PAUSE_KEPT * params.framerate) * params.nchannels)
    keep -= keep % params.nchannels
    if keep >= len(samples) or end == 0:
        return  # nothing to cut, or nothing but silence (left as it is)
    with contextlib.suppress(OSError, wave.Error), wave.open(str(path), "wb") as sound:
        sound.setparams(params)
        sound.writeframes(frames[: keep * 2])


def soften(path: Path, volume: int) -> None:
    """Scale a rendered 16-bit sentence to `volume` (0 to 100) of its loudness: pyttsx3's espeak-ng driver takes a
    volume and writes its files at full volume all the same (measured). Other files are left as they are."""
    read = _samples(path) if volume < 100 else None
    if read is None:
        return
    params, _, samples = read
    factor = max(volume, 0) / 100
    softer = array.array("h", [int(sample * factor) for sample in samples])
    if sys.byteorder == "big":
        softer.byteswap()
    with contextlib.suppress(OSError, wave.Error), wave.open(str(path), "wb") as sound:
        sound.setparams(params)
        sound.writeframes(softer.tobytes())
