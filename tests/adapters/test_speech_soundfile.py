"""Sound files by their content: the AIFF that macOS's speech synthesizer writes under a ".wav" name is read and
made WAV; a WAV is left alone; anything else counts as no sound, never an exception."""

from __future__ import annotations

import math
import struct
import warnings
import wave
from pathlib import Path

import pytest

from assistant.speech.soundfile import Sound, SoundFileError, as_wav, read_aiff, sound_kind

RATE = 22050


def tone(count: int, rate: int = RATE) -> list[int]:
    """16-bit samples of a 440 Hz tone."""
    return [int(9000 * math.sin(2 * math.pi * 440 * i / rate)) for i in range(count)]


def extended(value: float) -> bytes:
    """`value` as an 80-bit IEEE 754 extended number, as AIFF writes its sample rate."""
    mantissa, exponent = math.frexp(value)  # value = mantissa * 2 ** exponent, 0.5 <= mantissa < 1
    return struct.pack(">HQ", exponent - 1 + 16383, int(mantissa * 2**64))


def aiff(samples: list[int], rate: int = RATE, channels: int = 1, comptype: bytes | None = None) -> bytes:
    """A real AIFF file (AIFF-C with `comptype`) of 16-bit samples, chunk by chunk as the format has them: "FORM",
    a COMM chunk with the sample rate as an 80-bit number, an SSND chunk, big-endian samples ("sowt": little)."""
    order = "<" if comptype == b"sowt" else ">"
    data = struct.pack(f"{order}{len(samples)}h", *samples)
    frames = len(samples) // channels
    common = struct.pack(">hIh", channels, frames, 16) + extended(rate)
    if comptype is not None:
        name = b"\x0enot compressed\x00"  # a Pascal string, padded to an even length
        common += comptype + name
    chunks = b"COMM" + struct.pack(">I", len(common)) + common
    if comptype is not None:
        chunks = b"FVER" + struct.pack(">II", 4, 0xA2805140) + chunks  # AIFF-C's version chunk
    sound = struct.pack(">II", 0, 0) + data
    chunks += b"SSND" + struct.pack(">I", len(sound)) + sound
    return b"FORM" + struct.pack(">I", 4 + len(chunks)) + (b"AIFC" if comptype is not None else b"AIFF") + chunks


def wav_frames(path: Path) -> tuple[tuple[int, int, int], bytes]:
    with wave.open(str(path), "rb") as sound:
        return (sound.getnchannels(), sound.getsampwidth(), sound.getframerate()), sound.readframes(sound.getnframes())


def little(samples: list[int]) -> bytes:
    return struct.pack(f"<{len(samples)}h", *samples)


@pytest.mark.parametrize("comptype", [None, b"NONE", b"sowt"])
def test_an_aiff_named_wav_is_made_a_wav_with_the_same_samples(tmp_path, comptype):
    samples = tone(2205)
    path = tmp_path / "utterance-1.wav"
    path.write_bytes(aiff(samples, comptype=comptype))
    assert sound_kind(path) == "aiff"
    assert as_wav(path) == 2205
    assert sound_kind(path) == "wav"
    assert wav_frames(path) == ((1, 2, RATE), little(samples))
    assert as_wav(path) == 2205  # a WAV: read, left as it is


def test_stereo_and_an_odd_rate_are_kept(tmp_path):
    samples = tone(2000, 44100)
    path = tmp_path / "stereo.wav"
    path.write_bytes(aiff(samples, rate=44100, channels=2))
    assert as_wav(path) == 1000
    assert wav_frames(path) == ((2, 2, 44100), little(samples))


def test_the_standard_librarys_own_aiff_writer_agrees(tmp_path):
    """Where Python still has `aifc` (up to 3.12), a file it writes is read the same."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        aifc = pytest.importorskip("aifc")
    samples = tone(1234)
    path = tmp_path / "from-aifc.wav"
    with aifc.open(str(path), "wb") as out:  # an .aiff of its own: AIFF, not AIFF-C
        out.aiff()
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f">{len(samples)}h", *samples))
    assert as_wav(path) == 1234
    assert wav_frames(path) == ((1, 2, RATE), little(samples))


def test_what_is_neither_counts_as_no_sound_and_is_left_alone(tmp_path):
    for name, data in {
        "empty.wav": b"",
        "text.wav": b"Audio saved to somewhere\n",
        "cut.wav": aiff(tone(100))[:30],  # the header cut inside the COMM chunk
        "compressed.wav": aiff(tone(100), comptype=b"ima4"),
    }.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert as_wav(path) == 0, name
        assert path.read_bytes() == data, name
    assert as_wav(tmp_path / "missing.wav") == 0


def test_an_aiff_with_fewer_samples_than_its_header_says_keeps_those_it_has():
    whole = aiff(tone(500))
    sound = read_aiff(whole[:-100])  # 50 frames short
    assert isinstance(sound, Sound) and sound.count == 450
    with pytest.raises(SoundFileError):
        read_aiff(b"RIFF\x00\x00\x00\x00WAVE")
