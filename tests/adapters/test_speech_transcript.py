"""The transcript: every utterance appended to a file with its time, priority and marks, from the service, the
settings and the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from assistant.core.speech.settings import SpeechSettings, parse_settings
from assistant.core.speech.utterance import Priority
from assistant.core.words.voice import EARCON_WORDS, SPEECH_OFF_TRANSCRIPT, speech_backend_chosen, speech_silent
from assistant.speech import SpeechService, make_speaker
from assistant.speech.backends import SilentBackend
from assistant.speech.transcript import Transcript
from benchmarks.speech import read_transcript
from tests.recording_backend import RecordingBackend

ROOT = Path(__file__).resolve().parents[2]


def test_every_utterance_is_a_line_with_its_time_priority_marks_and_cleaned_text(tmp_path):
    path = tmp_path / "said.txt"
    service = SpeechService(RecordingBackend(), transcript=Transcript(path))
    try:
        assert service.ready.wait(60)
        service.say("Turn 5: Ben's turn.\nBen draws.", Priority.IMPORTANT)
        service.say("Yay, Instant card.\x1b[31m", private=True)
        assert service.wait_idle(5)
        service.repeat()
        assert service.wait_idle(5)
        service.earcon("code-seen")  # sounds are off: said in words, a hint (said, or dropped when busy)
        assert service.wait_idle(5)
        service.muted = True
        service.say("hidden")
    finally:
        service.close()
    lines = read_transcript(path)
    assert [(kind, text) for _, kind, text in lines] == [  # (the engine's name never: `about` says it)
        ("important", "Turn 5: Ben's turn. Ben draws."),  # one line, control characters gone
        ("message private", "Yay, Instant card."),
        ("message private repeat", "Yay, Instant card."),
        ("hint", EARCON_WORDS["code-seen"]),  # written even when dropped: the transcript has all given
        ("message muted", "hidden"),
    ]
    times = [datetime.fromisoformat(stamp) for stamp, _, _ in lines]
    assert times == sorted(times) and all(t.tzinfo is not None for t in times)


def test_a_silent_service_still_writes_and_marks_each_line_and_a_second_run_appends(tmp_path):
    path = tmp_path / "said.txt"
    for text in ("first game", "second game"):
        service = SpeechService(SilentBackend(), transcript=Transcript(path))
        assert service.ready.wait(60)
        service.say(text)
        service.close()
    said = [(kind, text) for _, kind, text in read_transcript(path) if kind != "notice"]
    assert said == [("message silent", "first game"), ("message silent", "second game")]


def test_a_sound_failure_is_a_notice_line_once(tmp_path):
    class Failing(RecordingBackend):
        def speak(self, utterance, wanted, more=None, finished=None, began=None):
            raise ValueError("no sound card")

    path = tmp_path / "said.txt"
    service = SpeechService(Failing(), transcript=Transcript(path))
    try:
        for n in range(3):
            service.say(f"card {n}")
        assert service.wait_idle(5)
    finally:
        service.close()
    notices = [text for _, kind, text in read_transcript(path) if kind == "notice"]
    assert notices == [service.failure] and "no sound card" in service.failure  # (the engine is not named)


def test_the_setting_names_the_file_and_a_bad_path_is_said(tmp_path):
    settings = parse_settings(f'[speech]\ntranscript = "{tmp_path / "t.txt"}"\n')
    assert settings.transcript == str(tmp_path / "t.txt")
    service = make_speaker(SpeechSettings(backend="silent", earcons=False, transcript=settings.transcript))
    service.say("Yay.")
    service.close()
    assert read_transcript(tmp_path / "t.txt")[0][2] == "Yay."  # the first words said, then why it is silent
    missing = tmp_path / "no such folder" / "t.txt"
    service = make_speaker(SpeechSettings(backend="silent", earcons=False), transcript=str(missing))
    service.say("Yay.")
    service.close()
    assert service.notices[-1].startswith(f"The transcript {missing} cannot be written (No such file or directory)")
    assert not missing.parent.exists()


def test_transcript_flag_in_the_plain_mode_writes_every_reply_without_a_terminal(tmp_path):
    path = tmp_path / "said.txt"
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(tmp_path / "home")}
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "--plain", "--transcript", str(path)],
        input="new game Ana Ben\ndraw\nzzzz qqqq\n", capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0 and result.stderr == ""
    lines = read_transcript(path)
    assert lines[1][1:] == ("notice", SPEECH_OFF_TRANSCRIPT)  # after the greeting, the first words
    said = [lines[0], *lines[2:]]
    kinds = [kind for _, kind, _ in said]  # the greeting, then the three answers
    assert kinds == ["message silent", "important silent", "message silent", "important silent"]
    for _, _, text in said:
        assert text.split(".")[0] in result.stdout


def test_the_transcript_starts_with_the_first_words_said_and_never_names_a_working_engine(tmp_path):
    """Issue 106: the transcript started with "Speech: pyttsx3 with espeak-ng, played with aplay.", 1.4 s before the
    welcome. Its first line is now the first thing said; a notice made before it (a sound that failed) comes right
    after it; the engine is named only by `about`, and silence (something missing) is written, after the welcome."""
    path = tmp_path / "said.txt"
    service = SpeechService(RecordingBackend(), transcript=Transcript(path))
    assert service.ready.wait(60)
    service.report("The transcript stands for a notice made at the start.")
    service.say("Table assistant. Type help for the commands.")
    service.close()
    lines = [(kind, text) for _, kind, text in read_transcript(path)]
    assert lines == [
        ("message", "Table assistant. Type help for the commands."),
        ("notice", "The transcript stands for a notice made at the start."),
    ]
    assert service.described == speech_backend_chosen("recording")  # kept for `about`
    assert service.take_notices(naming=False) == ["The transcript stands for a notice made at the start."]

    silent = tmp_path / "silent.txt"
    service = SpeechService(SilentBackend("no engine"), transcript=Transcript(silent))
    assert service.ready.wait(60)
    service.say("Welcome.")
    service.close()
    assert [(kind, text) for _, kind, text in read_transcript(silent)] == [
        ("message silent", "Welcome."),
        ("notice", speech_silent("no engine")),
    ]
