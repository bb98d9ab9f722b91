# ruff: noqa: F811 - the fixtures imported from speech_fixtures are used as test arguments
"""The plain mode beside her screen reader: the reader reads what is printed, and other hands' moves are said in the
table voice beside it, as the full-screen app has them (`reply_speaker`, `make_speaker`'s `beside`). Sound captured
through ALSA's file plugin; a table voice that cannot be made is said once, with what she gets instead."""

from __future__ import annotations

import argparse
import importlib.util
import shutil

import numpy as np
import pytest
from speech_fixtures import alsa_capture  # noqa: F401 - fixtures

from assistant.commands.say import reply_speaker
from assistant.core.speech.settings import SpeechSettings
from assistant.core.words.voice import TABLE_INSTEAD_PRINTED, TABLE_NO_MIXER, table_voice_missing
from tests.adapters.test_table_voice import PhoneReply, _pitch

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("pyttsx3") is None or not shutil.which("aplay"), reason="pyttsx3 or aplay missing"
)

MOVE = "Ben played Basic Unicorn (Red)."


def options(*args: str) -> argparse.Namespace:
    from assistant.cli import build_parser

    return build_parser().parse_args(["--plain", *args])


def _settings() -> SpeechSettings:
    return SpeechSettings(backend="pyttsx3", player="aplay", earcons=False)


def test_beside_her_screen_reader_the_plain_mode_says_a_phones_move_in_the_table_voice(
    alsa_capture, monkeypatch, tmp_path
):
    monkeypatch.setenv("HOME", str(alsa_capture.home))  # the players' sound goes into the capture
    transcript = tmp_path / "transcript.txt"
    speaker, notes = reply_speaker(options("--transcript", str(transcript)), settings=_settings(), reader="Orca")
    assert speaker is not None
    try:
        speaker.players = lambda: ("Ana", "Ben", "Cy", "Dee")
        speaker.other(PhoneReply(MOVE, 1, "Ben"))
        assert speaker.service.wait_idle(60)
        assert speaker.table_voice  # so the plain mode leaves the move unprinted: her reader never reads it too
        speaker.service.muted = True
        assert not speaker.table_voice  # muted: printed, for her reader
        speaker.service.muted = False
    finally:
        speaker.close()
    plays = [p for p in alsa_capture.plays() if p.stat().st_size > 4000]
    assert plays, f"nothing was heard: {notes}"
    samples = np.frombuffer(b"".join(p.read_bytes() for p in plays), "<i2").reshape(-1, 2)
    path = tmp_path / "heard.wav"
    import wave

    with wave.open(str(path), "wb") as out:
        out.setnchannels(2), out.setsampwidth(2), out.setframerate(22050)
        out.writeframes(samples.tobytes())
    assert _pitch(path) > 150  # the table voice (about 208 Hz), not the app's own (about 102 Hz)
    assert MOVE in transcript.read_text(encoding="utf-8")  # and written, as every utterance


def test_a_table_voice_that_cannot_be_made_is_said_once_with_what_she_gets_instead(monkeypatch, tmp_path):
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))  # no player program: nothing can play a second sound
    transcript = tmp_path / "transcript.txt"
    speaker, notes = reply_speaker(options("--transcript", str(transcript)), settings=_settings(), reader="Orca")
    assert speaker is not None
    try:
        speaker.other(PhoneReply(MOVE, 1, "Ben"))
        assert speaker.service.wait_idle(30)
        assert not speaker.table_voice  # none: the plain mode prints the moves, for her reader to read
    finally:
        speaker.close()
    missing = table_voice_missing(TABLE_NO_MIXER, TABLE_INSTEAD_PRINTED)
    assert notes.count(missing) == 1
    written = transcript.read_text(encoding="utf-8")
    assert written.count(missing) == 1 and MOVE in written  # nothing lost from the transcript
