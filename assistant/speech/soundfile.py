"""Sound files told by their content, not their name: WAV, and the AIFF or AIFF-C that macOS's speech synthesizer
writes whatever the file is called (pyttsx3's NSSpeechSynthesizer driver saves AIFF to the path it is given, a
".wav" included). `as_wav` rewrites such a file as WAV in place, so what reads WAV (the players, the earcon joined
to the first sentence, the trimming of the silence at its end) works on it too.

Standard library only: the `aifc` module is gone from Python 3.13, so the AIFF header is read here. Uncompressed
samples are read (AIFF's big-endian PCM, AIFF-C's "NONE", "twos" and "sowt", 8 to 32 bits) and 32-bit float
("fl32", made 16-bit); any other compression counts as no sound.
"""

from __future__ import annotations

import array
import contextlib
import struct
import sys
import wave
from dataclasses import dataclass
from pathlib import Path

#: AIFF-C compression types of plain samples: big-endian ("NONE", "twos") and little-endian ("sowt").
_BIG_ENDIAN = (b"NONE", b"twos")
_LITTLE_ENDIAN = (b"sowt",)
_FLOAT = (b"fl32", b"FL32")


class SoundFileError(ValueError):
    """A sound file that is not a WAV or AIFF file this module can read (the reason says what was wrong)."""


@dataclass(frozen=True)
class Sound:
    """Samples as a WAV file holds them: little-endian, signed (unsigned for 8 bits), channels interleaved."""

    channels: int
    width: int
    """Bytes per sample."""
    rate: int
    """Frames a second."""
    frames: bytes

    @property
    def count(self) -> int:
        """How many frames."""
        return len(self.frames) // (self.channels * self.width) if self.channels and self.width else 0


def sound_kind(path: Path) -> str:
    """ "wav", "aiff" (AIFF or AIFF-C) or "" for anything else, by the file's first bytes."""
    try:
        with open(path, "rb") as file:
            head = file.read(12)
    except OSError:
        return ""
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if head[:4] == b"FORM" and head[8:12] in (b"AIFF", b"AIFC"):
        return "aiff"
    return ""


def read_aiff(data: bytes) -> Sound:
    """The samples of an AIFF or AIFF-C file's bytes, as WAV holds them; `SoundFileError` when they cannot be."""
    if len(data) < 12 or data[:4] != b"FORM" or data[8:12] not in (b"AIFF", b"AIFC"):
        raise SoundFileError("not an AIFF file")
    compressed = data[8:12] == b"AIFC"
    common: tuple[int, int, int, float, bytes] | None = None
    samples: bytes | None = None
    at = 12
    while at + 8 <= len(data):
        kind, size = data[at : at + 4], struct.unpack(">I", data[at + 4 : at + 8])[0]
        body = data[at + 8 : at + 8 + size]
        if kind == b"COMM":
            if len(body) < 18 or (compressed and len(body) < 22):
                raise SoundFileError("a short COMM chunk")
            channels, frames, bits = struct.unpack(">hIh", body[:8])
            comptype = body[18:22] if compressed else b"NONE"
            common = (channels, frames, bits, _extended(body[8:18]), comptype)
        elif kind == b"SSND":
            if len(body) < 8:
                raise SoundFileError("a short SSND chunk")
            offset = struct.unpack(">I", body[:4])[0]
            samples = body[8 + offset :]
        at += 8 + size + (size & 1)  # chunks are padded to an even length
    if common is None or samples is None:
        raise SoundFileError("no COMM or no SSND chunk")
    channels, frames, bits, rate, comptype = common
    if channels < 1 or not 1 <= bits <= 32 or not 0 < rate < 1e7:
        raise SoundFileError(f"{channels} channels of {bits} bits at {rate} Hz")
    if comptype in _FLOAT:
        return Sound(channels, 2, round(rate), _float_to_16(samples[: frames * channels * 4]))
    width = (bits + 7) // 8
    frame_bytes = channels * width
    samples = samples[: frames * frame_bytes]  # the frames the header counts (a file cut short: those it has)
    samples = samples[: len(samples) - len(samples) % frame_bytes]
    if comptype in _BIG_ENDIAN:
        samples = _swapped(samples, width)
    elif comptype not in _LITTLE_ENDIAN:
        raise SoundFileError(f"compressed samples ({comptype.decode('latin-1')!r})")
    if width == 1:  # AIFF's 8-bit samples are signed, WAV's unsigned
        samples = bytes((b + 128) & 0xFF for b in samples)
    return Sound(channels, width, round(rate), samples)


def as_wav(path: Path) -> int:
    """Make `path` a WAV file if it is an AIFF one (rewritten in place), and return how many frames of sound it
    holds: 0 when it holds none, or is neither WAV nor a readable AIFF (left as it is)."""
    kind = sound_kind(path)
    if kind == "aiff":
        try:
            sound = read_aiff(path.read_bytes())
        except (OSError, SoundFileError):
            return 0
        try:
            write_wav(path, sound)
        except (OSError, wave.Error):
            return 0
        return sound.count
    if kind == "wav":
        try:
            with wave.open(str(path), "rb") as read:
                return read.getnframes()
        except (OSError, EOFError, wave.Error):
            return 0
    return 0


def write_wav(path: Path, sound: Sound) -> None:
    """Write `sound` as a WAV file at `path` (replacing it)."""
    with contextlib.closing(wave.open(str(path), "wb")) as out:
        out.setnchannels(sound.channels)
        out.setsampwidth(sound.width)
        out.setframerate(sound.rate)
        out.writeframes(sound.frames)


def _extended(raw: bytes) -> float:
    """An 80-bit IEEE 754 extended number (AIFF's sample rate)."""
    exponent, mantissa = struct.unpack(">HQ", raw)
    sign = -1.0 if exponent & 0x8000 else 1.0
    exponent &= 0x7FFF
    if exponent == 0 and mantissa == 0:
        return 0.0
    if exponent == 0x7FFF:
        return float("nan")
    return float(sign * mantissa * 2.0 ** (exponent - 16383 - 63))


def _swapped(samples: bytes, width: int) -> bytes:
    """Samples of `width` bytes with their byte order reversed (big-endian to little-endian)."""
    if width == 1:
        return samples
    out = bytearray(len(samples))
    for byte in range(width):
        out[byte::width] = samples[width - 1 - byte :: width]
    return bytes(out)


def _float_to_16(samples: bytes) -> bytes:
    """Big-endian 32-bit float samples as little-endian 16-bit ones."""
    values = array.array("f", samples[: len(samples) - len(samples) % 4])
    if sys.byteorder == "little":
        values.byteswap()
    out = array.array("h", (max(-32768, min(32767, round(v * 32767))) for v in values))
    if sys.byteorder == "big":
        out.byteswap()
    return out.tobytes()


def place_wav(path: Path, place: float) -> None:
    """Rewrite a mono 16-bit WAV file as stereo heard at `place`, -1 (left) to +1 (right): the near side at full
    level, the far side lowered in step (at +0.8 the left keeps a fifth); another format is left as it is."""
    import numpy as np

    try:
        with wave.open(str(path), "rb") as sound:
            params = sound.getparams()
            if params.nchannels != 1 or params.sampwidth != 2:
                return
            mono = np.frombuffer(sound.readframes(params.nframes), dtype="<i2").astype(np.float32)
        stereo = np.empty((mono.size, 2), dtype="<i2")
        stereo[:, 0] = mono * min(1.0, 1.0 - place)
        stereo[:, 1] = mono * min(1.0, 1.0 + place)
        with wave.open(str(path), "wb") as placed:
            placed.setnchannels(2)
            placed.setsampwidth(2)
            placed.setframerate(params.framerate)
            placed.writeframes(stereo.tobytes())
    except (OSError, EOFError, wave.Error):
        return  # heard in the middle rather than not at all
