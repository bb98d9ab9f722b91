"""The table voice on the path the app picks with no screen reader: pyttsx3, measured in the rendered sound.

pyttsx3 keeps one engine per driver in a process, so her voice and the table voice made through it were one engine,
and the table voice's settings changed hers (both about 210 Hz). Each must sound as it is set, whatever the other is.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from assistant.core.speech.settings import SpeechSettings
from assistant.speech import make_speaker
from assistant.speech.backends import Pyttsx3Backend
from assistant.speech.mixer import read_samples
from tests.adapters.test_table_voice import _pitch

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pyttsx3") is None, reason="pyttsx3 is not installed")

TEXT = "Ben played Basic Unicorn (Red). Cy drew a card. Dee ended the turn."


def _heard(backend, path: Path) -> tuple[float, float]:
    """The median pitch (Hz) and the length (seconds) of `TEXT` as the backend renders it."""
    backend.render(TEXT, path)
    return _pitch(path), len(read_samples(path)) / 22050


def _settings(table_voice: bool) -> SpeechSettings:
    # "pyttsx3" is what `auto` picks with no speech-dispatcher answering (`make_backends`): the default set-up
    return SpeechSettings(speech="own-voice", backend="pyttsx3", table_voice=table_voice, earcons=False)


def test_her_voice_and_the_table_voice_through_pyttsx3_are_two_voices_apart(tmp_path):
    service = make_speaker(_settings(table_voice=True))
    try:
        assert isinstance(service.backend, Pyttsx3Backend) and service.table is not None
        assert isinstance(service.table.backend, Pyttsx3Backend)
        her_pitch, her_length = _heard(service.backend, tmp_path / "hers.wav")
        table_pitch, table_length = _heard(service.table.backend, tmp_path / "table.wav")
        again = _heard(service.backend, tmp_path / "hers-again.wav")
    finally:
        service.close()
    assert table_pitch >= 1.3 * her_pitch or table_pitch <= 0.77 * her_pitch  # another voice (measured 208 / 102 Hz)
    assert her_length >= 1.3 * table_length  # at its own faster rate (measured 4.65 / 2.70 s)
    assert again == pytest.approx((her_pitch, her_length), rel=0.05)  # the table voice's renders left hers alone


def test_her_sentence_sounds_the_same_before_and_after_a_table_voice_opens(tmp_path):
    hers = make_speaker(_settings(table_voice=False))
    try:
        before = _heard(hers.backend, tmp_path / "before.wav")
        beside = make_speaker(_settings(table_voice=True))  # another speaker in the same process, its table voice too
        try:
            assert beside.table is not None
            table_pitch, _ = _heard(beside.table.backend, tmp_path / "table.wav")
            after = _heard(hers.backend, tmp_path / "after.wav")
        finally:
            beside.close()
    finally:
        hers.close()
    assert after == pytest.approx(before, rel=0.05)
    assert table_pitch >= 1.3 * before[0] or table_pitch <= 0.77 * before[0]  # and hers was never the table's
