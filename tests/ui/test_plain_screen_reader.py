# ruff: noqa: F811 - the fixtures imported from speech_fixtures are used as test arguments
"""The plain mode beside a screen reader: Orca, Speakup, NVDA and VoiceOver read new terminal output themselves, so
the plain mode prints its answers and leaves the speaking to them (the `speech = auto` rule of the app: through the
screen reader when one runs), instead of saying every answer a second time. Run at a real terminal (a
pseudo-terminal), with a real speech-dispatcher that would carry the speech to the screen reader."""

from __future__ import annotations

import argparse
import os
import wave
from pathlib import Path

import numpy as np
from speech_fixtures import alsa_capture, speech_dispatcher  # noqa: F401 - fixtures

from assistant.commands.app import plain_reader
from assistant.core.speech.settings import SpeechSettings
from assistant.core.words.voice import SPEECH_OFF_TRANSCRIPT, plain_left_to
from benchmarks.outage_rig import PtyApp

ROOT = Path(__file__).resolve().parents[2]
#: Ben's Neigh from his phone, as the laptop prints it.
MOVE_PRINTED = "Ben played Neigh."


def options(*args: str) -> argparse.Namespace:
    from assistant.cli import build_parser

    return build_parser().parse_args(["--plain", *args])


def test_the_plain_mode_leaves_speech_to_a_screen_reader_that_runs_and_to_none_other():
    def orca() -> str:
        return "Orca"

    def nobody() -> str:
        return ""

    assert plain_reader(options(), SpeechSettings(), find_reader=orca) == "Orca"  # speech = auto
    assert plain_reader(options(), SpeechSettings(speech="screen-reader"), find_reader=orca) == "Orca"
    assert plain_reader(options(), SpeechSettings(), find_reader=nobody) == ""  # the own voice speaks
    assert plain_reader(options(), SpeechSettings(speech="own-voice"), find_reader=orca) == ""  # asked for
    assert plain_reader(options("--no-speech"), SpeechSettings(), find_reader=orca) == ""
    assert plain_reader(options(), SpeechSettings(speech="screen-reader"), find_reader=nobody) == ""


def test_beside_a_screen_reader_the_transcript_says_the_reader_speaks_with_earcons_or_without(private_home):
    """Before, the transcript's first line said "Speech is off: no speech engine works here." (or that speech was
    off, with `earcons = false`) while the screen said the screen reader reads the answers."""
    from assistant.commands.say import reply_speaker

    for earcons in (True, False):
        path = private_home / f"transcript-{earcons}.txt"
        speaker, notes = reply_speaker(options("--transcript", str(path)), settings=SpeechSettings(earcons=earcons),
                                       reader="Orca")  # fmt: skip
        assert speaker is not None and notes == []
        speaker.close()
        written = path.read_text(encoding="utf-8")
        assert plain_left_to("Orca") in written, written
        assert "no speech engine works here" not in written and SPEECH_OFF_TRANSCRIPT not in written


def test_at_a_terminal_with_a_screen_reader_the_plain_mode_prints_plays_its_earcons_and_does_not_speak(
    speech_dispatcher, private_home
):
    """The words are the screen reader's; the sounds play either way (the user guide): the card's earcon is heard,
    and nothing else of the plain mode's reaches a sound device."""
    env = {
        **speech_dispatcher.environ,  # the speech-dispatcher the screen reader speaks through
        "TABLE_ASSISTANT_HOME": str(private_home),
        "TABLE_ASSISTANT_SCREEN_READER": "Orca",
        "PYTHONPATH": str(ROOT),
        "TERM": "xterm",
    }
    capture = speech_dispatcher.capture
    transcript = private_home / "transcript.txt"
    terminal = PtyApp(["--plain", "--no-camera", "--transcript", str(transcript)], env)
    try:  # (each timeout only bounds a failure)
        assert terminal.wait_for("> ", timeout=120) is not None, terminal.text()
        terminal.type("rainbow aura")
        assert terminal.wait_for("Type: Upgrade card", timeout=120) is not None, terminal.text()
        capture.wait_plays(1, timeout=60)  # the card's earcon
        ended = terminal.quit(timeout=60)
    finally:
        terminal.close()  # (what it printed read to its end)
    printed = terminal.text()
    assert ended is not None and terminal.process.returncode == 0, printed
    assert plain_left_to("Orca").replace("\n", " ") in " ".join(printed.split("\n"))
    assert "Rainbow Aura" in printed and "Traceback" not in printed
    written = transcript.read_text(encoding="utf-8")  # the transcript says what the screen says: the reader speaks
    assert plain_left_to("Orca") in written and "no speech engine" not in written and "Rainbow Aura" in written
    # Whatever speech-dispatcher was sent would have been played by now (it plays a message as soon as it has it,
    # into files that the capture lists): every play is the start of one of the earcons, none is speech.
    earcons = [earcon_samples(path) for path in (private_home / "data" / "earcons").glob("*.wav")]
    played = capture.audio_bytes()
    assert played and earcons
    # (played by a player program, mono as written; by the app's mixer, in its stereo stream: each sample twice)
    earcons += [np.repeat(np.frombuffer(e, "<i2"), 2).astype("<i2").tobytes() for e in earcons]
    assert all(sound and any(earcon.startswith(sound[:4096]) for earcon in earcons) for sound in played)


def earcon_samples(path: Path) -> bytes:
    with wave.open(str(path), "rb") as sound:
        return sound.readframes(sound.getnframes())


def test_a_question_her_reader_is_reading_is_stopped_when_a_phones_move_closes_it(tmp_path, private_home):
    """Issue 107: her `pile` was printed ("The pile, from the top: ... Any Instant for Cy's Basic Goat? ..."), her
    reader began reading it, and Cy's phone resolved the pile 0.6 s later: her reader said the question 2.4 s after
    it was answered. Now the plain mode tells her reader to stop (speech-dispatcher's cancel of every client, as Orca
    speaks through it) when a phone's move closes the question before her next key: the question is never begun, and
    the move is printed for her reader after the stop. Her reader here is a real speech-dispatcher whose module takes
    as long as its sound (`benchmarks.capture.ReaderStandIn`), given the printed line as her reader is."""
    import shutil
    import threading
    import time

    import pytest
    from speech_fixtures import speechd_client

    from benchmarks.capture import AlsaCapture, ReaderStandIn
    from benchmarks.outage_rig import short_path
    from benchmarks.pty_start import write_settings
    from tests.ui.plain_share import bens_phone_let_in
    from tests.ui.test_plain_line_editing import shows
    from tests.ui.test_share_app import _request

    speechd_client()
    for program in ("speech-dispatcher", "aplay", "espeak-ng"):
        if shutil.which(program) is None:
            pytest.skip(f"{program} is not installed")
    import speechd

    capture = AlsaCapture(tmp_path / "capture")
    folder = short_path(tmp_path)
    reader = ReaderStandIn(capture, folder / "reader")
    write_settings(private_home, speech="screen-reader", earcons=False, table_voice=False)
    env = {**os.environ, **reader.environ, "HOME": str(capture.home), "TABLE_ASSISTANT_HOME": str(private_home),
           "TABLE_ASSISTANT_SCREEN_READER": "Orca", "PYTHONPATH": str(ROOT), "TERM": "xterm"}  # fmt: skip
    terminal = PtyApp(["--plain", "--no-camera"], env)
    client = speechd.SSIPClient("her-reader", socket_path=str(reader.socket), autospawn=False)
    ended: list[str] = []
    done = threading.Event()
    said: list[str] = []
    try:  # (each wait is for what the program shows or the daemon tells; its timeout only bounds a failure)
        port, cookie, csrf = bens_phone_let_in(terminal, "Neigh?")
        terminal.type("pile")
        shows(terminal, "Any Neigh for Ana's Rainbow Aura?")
        printed = next(line for line in terminal.text().splitlines() if line.startswith("The pile, from the top"))

        def told(kind: str, **_: object) -> None:
            ended.append(kind)
            done.set()

        events = (speechd.CallbackType.END, speechd.CallbackType.CANCEL)
        client.speak(printed, callback=told, event_types=events)  # her reader reads the line printed
        deadline = time.monotonic() + 120  # (the module's own record of what it began; this only bounds a failure)
        while not reader.said() and not done.is_set():
            assert time.monotonic() < deadline, "her reader never began"
            time.sleep(0.02)
        assert not done.is_set(), (ended, reader.said())  # its first sentence is being said
        neigh = {"key": "key-neigh-ben", "verb": "neigh", "on": "rainbow-aura"}
        status, body, _ = _request(port, "POST", "/api/move", neigh, cookie, csrf)
        assert status == 200 and body["status"] == "recorded", body  # (shown on the laptop before it answered)
        assert done.wait(120), reader.said()  # her reader's message ends: cut, or said whole
        shows(terminal, MOVE_PRINTED)  # printed for her reader (no table voice), after the stop
    finally:
        client.close()
        terminal.quit(timeout=60)
        terminal.close()
        reader.close()
        said = [message["text"] for message in reader.said()]  # (read through the short path, before it goes)
        folder.unlink(missing_ok=True)
    assert ended == ["cancel"], (ended, said)
    assert said and not any("Any Neigh" in text for text in said), said  # the question never begun
