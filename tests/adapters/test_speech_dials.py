"""Her voice's and the table voice's rate, volume and pitch turned while the app runs (`rate 70`, `table pitch 80`),
measured in the sound each engine renders after the turn: shorter, softer, higher, as asked, and the other voice
left as it was."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable
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


def heard(render: Callable[[str, Path], None], path: Path) -> tuple[float, float, float]:
    """The length (seconds), loudness (RMS) and median pitch (Hz) of `TEXT` as `render` writes it now."""
    render(TEXT, path)
    samples = read_samples(path)[:, 0]
    return len(samples) / 22050, float(np.sqrt(np.mean(samples**2))), _pitch(path)


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
def test_the_espeak_ng_voice_is_heard_at_each_dial_turned(tmp_path):
    backend = EspeakBackend(None)
    backend.open()
    length, loudness, pitch = heard(backend.render, tmp_path / "before.wav")
    assert backend.retune("rate", 90) and backend.retune("volume", 30) and backend.retune("pitch", 90)
    after = heard(backend.render, tmp_path / "after.wav")
    assert after[0] < 0.7 * length and after[1] < 0.5 * loudness and after[2] > 1.2 * pitch


@pytest.mark.skipif(importlib.util.find_spec("pyttsx3") is None, reason="pyttsx3 is not installed")
def test_pyttsx3_her_voice_and_the_table_voice_turn_apart(tmp_path):
    """Each voice rendered by its speech worker, as the player hears it: hers in the app's process until a dial
    turns, then in a process of its own; the table voice in its own process throughout."""
    settings = SpeechSettings(speech="own-voice", backend="pyttsx3", table_voice=True, earcons=False)
    service = make_speaker(settings)
    try:
        assert service.table is not None
        speaker = ReplySpeaker(service)
        hers = heard(service.render_to, tmp_path / "hers.wav")
        table = heard(service.table.render_to, tmp_path / "t.wav")
        assert speaker.retune("rate", 80) and speaker.retune("pitch", 85)
        assert speaker.retune("table_volume", 30) and speaker.retune("table_pitch", 10)
        hers_after = heard(service.render_to, tmp_path / "hers-after.wav")
        table_after = heard(service.table.render_to, tmp_path / "t-after.wav")
    finally:
        service.close()
    assert hers_after[0] < 0.8 * hers[0] and hers_after[2] > 1.2 * hers[2]
    assert hers_after[1] == pytest.approx(hers[1], rel=0.2)  # her volume as it was
    assert table_after[1] < 0.5 * table[1] and 0 < table_after[2] < 0.9 * table[2]  # (soft, and still measured)
    assert table_after[0] == pytest.approx(table[0], rel=0.1)  # the table voice's rate as it was


def test_speech_dispatcher_sets_a_turned_dial_before_the_next_sentence_and_a_screen_readers_voice_keeps_its_own():
    import threading
    from types import SimpleNamespace

    from assistant.speech import SpeechService
    from assistant.speech.dispatcher import SpeechdBackend
    from tests.adapters.test_table_voice import Callbacks, SpeechdClient

    class Dialled(SpeechdClient):
        def __init__(self) -> None:
            super().__init__()
            self.calls: list[tuple[str, int]] = []

        def set_rate(self, value: int) -> None:
            self.calls.append(("rate", value))

        def set_pitch(self, value: int) -> None:
            self.calls.append(("pitch", value))

        def speak(self, text, callback=None, event_types=None):
            self.calls.append(("speak", 0))
            return super().speak(text, callback, event_types)

    backend, client = SpeechdBackend(), Dialled()
    backend.open = lambda: None  # type: ignore[method-assign]  # (connected: the client stands for the socket)
    backend._client, backend._module = client, SimpleNamespace(CallbackType=Callbacks)
    service = SpeechService(backend)
    try:
        assert service.ready.wait(10)
        assert backend.retune("rate", 80) and backend.retune("pitch", 25)
        service.say("Rate 80.")
        for _ in range(2000):  # (the speech worker thread, polled; bounded)
            if client.sent:
                break
            threading.Event().wait(0.005)
    finally:
        service.close()
    assert sorted(client.calls[:2]) == [("pitch", -50), ("rate", 60)] and client.calls[2] == ("speak", 0)
    assert not SpeechdBackend(own=False).retune("rate", 80)  # her screen reader's rate is her own
