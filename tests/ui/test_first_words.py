"""The first words, printed, spoken and in the transcript, are the welcome and how to get help (issue 106, item 1):
the speech engine and its player are named only on request (`about`) or when something is missing. And a notice
that comes while the plain mode waits at its prompt is never printed after the `> ` (item 6). Run at a real
terminal (a pseudo-terminal), as a person runs the plain mode, with its own voice playing into a captured device."""

from __future__ import annotations

import os
import shutil

import pytest

from assistant.core.words.screen import PLAIN_GREETING
from assistant.core.words.voice import player_failed
from benchmarks import outage_rig
from benchmarks.capture import AlsaCapture
from benchmarks.outage_rig import ROOT, PtyApp
from benchmarks.speech import read_transcript
from tests.ui.test_plain_line_editing import reading, shows

pytestmark = pytest.mark.skipif(not (shutil.which("espeak-ng") and shutil.which("aplay")), reason="no espeak-ng")

#: The outage runs' plain-mode settings, on a sound device of the test's.
SETTINGS = outage_rig.SETTINGS + 'device = "{device}"\n'


def plain_at_a_terminal(tmp_path, device: str = "") -> tuple[PtyApp, object]:
    capture = AlsaCapture(tmp_path / "capture")
    home = tmp_path / "app-home"
    (home / "config").mkdir(parents=True)
    transcript = tmp_path / "transcript.txt"
    (home / "config" / "settings.toml").write_text(
        SETTINGS.format(player="aplay", transcript=transcript, device=device)
    )
    env = {**os.environ, **capture.env, "TABLE_ASSISTANT_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env |= {"TERM": "xterm", "TABLE_ASSISTANT_SCREEN_READER": "off"}
    env.pop("SPEECHD_ADDRESS", None)
    return PtyApp(["--plain", "--no-camera"], env), transcript


def test_the_welcome_comes_first_and_the_engine_is_named_on_request(tmp_path):
    terminal, transcript = plain_at_a_terminal(tmp_path)
    try:
        shows(terminal, "> ")
        reading(terminal)
        terminal.type("about")
        shows(terminal, "Speech: espeak-ng, played with aplay.")
    finally:
        terminal.quit(timeout=60)
        terminal.close()
    printed = terminal.text()
    before = printed.split("about\n")[0]
    assert before.splitlines()[0] == PLAIN_GREETING
    assert "Speech:" not in before and "espeak" not in before, before
    lines = read_transcript(transcript)
    assert lines[0][2].startswith(PLAIN_GREETING)
    assert not any("Speech: espeak-ng" in text for _, kind, text in lines if kind == "notice")


def test_a_notice_at_the_prompt_is_printed_on_a_line_of_its_own_and_the_prompt_again(tmp_path):
    terminal, _ = plain_at_a_terminal(tmp_path, device="no-such-device")  # aplay stops with an error
    failed = player_failed("aplay", 1)
    try:
        shows(terminal, "> ")
        reading(terminal)
        shows(terminal, failed)
        terminal.type("tally")
        shows(terminal, "No game")
    finally:
        terminal.quit(timeout=60)
        terminal.close()
    printed = terminal.text()
    assert f"> {failed}" not in printed, printed
    after = printed.split(failed, 1)[1]
    assert after.lstrip("\x1b[K").startswith("\n> "), printed  # the prompt again, under the notice


def test_the_apps_first_notes_leave_the_engine_to_about(private_home):
    """What the app writes under its title at the start (`reply_speaker`'s notes): never the engine that speaks;
    `about` names it, her voice's and the table voice's."""
    from assistant.cli import build_parser
    from assistant.commands.say import describer, reply_speaker
    from assistant.core.speech.settings import SpeechSettings

    settings = SpeechSettings(speech="own-voice", backend="espeak-ng", earcons=False, table_voice=False)
    speaker, notes = reply_speaker(build_parser().parse_args(["--no-camera"]), settings=settings)
    assert speaker is not None
    try:
        named = speaker.service.described
        assert named.startswith("Speech: espeak-ng") and named not in notes, notes
        assert named in describer(speaker)()
    finally:
        speaker.close()
