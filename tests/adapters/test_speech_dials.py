"""Her voice's and the table voice's rate, volume and pitch turned while the app runs (`rate 70`, `table pitch 80`),
measured in the sound each engine renders after the turn: shorter, softer, higher, as asked, and the other voice
left as it was."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

from assistant.core.speech.settings import SpeechSettings
from assistant.speech import make_speaker
from assistant.speech.backends import EspeakBackend
from assistant.speech.mixer import read_samples
from assistant.speech.replies import ReplySpeaker
from tests.adapters.test_table_voice import _pitch

TEXT = "Ben played Basic Unicorn (Red). Cy drew a card."


def heard(backend, path: Path) -> tuple[float, float, float]:
    """The length (seconds), loudness (RMS) and median pitch (Hz) of `TEXT` as the backend renders it now."""
    backend.render(TEXT, path)
    samples = read_samples(path)[:, 0]
    return len(samples) / 22050, float(np.sqrt(np.mean(samples**2))), _pitch(path)


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
def test_the_espeak_ng_voice_is_heard_at_each_dial_turned(tmp_path):
    backend = EspeakBackend(None)
    backend.open()
    length, loudness, pitch = heard(backend, tmp_path / "before.wav")
    assert backend.retune("rate", 90) and backend.retune("volume", 30) and backend.retune("pitch", 90)
    after = heard(backend, tmp_path / "after.wav")
    assert after[0] < 0.7 * length and after[1] < 0.5 * loudness and after[2] > 1.2 * pitch


@pytest.mark.skipif(importlib.util.find_spec("pyttsx3") is None, reason="pyttsx3 is not installed")
def test_pyttsx3_her_voice_and_the_table_voice_turn_apart(tmp_path):
    settings = SpeechSettings(speech="own-voice", backend="pyttsx3", table_voice=True, earcons=False)
    service = make_speaker(settings)
    try:
        assert service.table is not None
        speaker = ReplySpeaker(service)
        hers, table = heard(service.backend, tmp_path / "hers.wav"), heard(service.table.backend, tmp_path / "t.wav")
        assert speaker.retune("rate", 80) and speaker.retune("pitch", 85)  # in this process
        assert speaker.retune("table_volume", 30) and speaker.retune("table_pitch", 10)  # in its own process
        hers_after = heard(service.backend, tmp_path / "hers-after.wav")
        table_after = heard(service.table.backend, tmp_path / "t-after.wav")
    finally:
        service.close()
    assert hers_after[0] < 0.8 * hers[0] and hers_after[2] > 1.2 * hers[2]
    assert hers_after[1] == pytest.approx(hers[1], rel=0.2)  # her volume as it was
    assert table_after[1] < 0.5 * table[1] and table_after[2] < 0.9 * table[2]
    assert table_after[0] == pytest.approx(table[0], rel=0.1)  # the table voice's rate as it was
