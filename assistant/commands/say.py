"""`table-assistant say TEXT [--to FILE.wav]`: speak a text, or write it as a WAV file with the same engine.

It uses the backend and voice settings of the app (`settings.toml`), but not its screen-reader check: asking for
speech on the command line is asking for it. Nothing but one sentence is ever written to the terminal.
"""

from __future__ import annotations

import argparse
import sys
import wave
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.core.speech.settings import BACKENDS, SpeechSettings
from assistant.core.text import clean_untrusted
from assistant.core.words.errors import could_not_write
from assistant.core.words.voice import (
    SPEECH_OFF_TRANSCRIPT,
    STARTED_MUTED,
    TEXT_EMPTY,
    say_failed,
    wav_written,
)

if TYPE_CHECKING:
    from assistant.speech.replies import ReplySpeaker


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser("say", help="speak a text, or write it as a WAV file (--to)")
    parser.add_argument("text", nargs="+", help="what to say")
    parser.add_argument("--to", metavar="FILE.wav", help="write the speech to this WAV file instead of playing it")
    parser.add_argument(
        "--backend", choices=BACKENDS, help="the speech engine (default: the settings file's, normally auto)"
    )


def run(args: argparse.Namespace) -> int:
    """Speak or render; exit 1 when nothing could be said or written."""
    from assistant.speech import SpeechError, make_speaker
    from assistant.storage.settings import load_settings

    settings, notice = load_settings()
    if notice:
        print(notice, file=sys.stderr)
    if args.backend:
        settings = replace(settings, backend=args.backend)
    text = clean_untrusted(" ".join(args.text), 5000)
    if not text:
        print(say_failed(TEXT_EMPTY), file=sys.stderr)
        return 1
    if args.to and not _writable(Path(args.to)):
        return 1
    service = make_speaker(replace(settings, earcons=False), wav_only=bool(args.to))
    try:
        if args.to:
            path = Path(args.to)
            try:
                service.render_to(text, path)
            except SpeechError as exc:
                print(say_failed(str(exc)), file=sys.stderr)
                return 1
            with wave.open(str(path), "rb") as sound:
                seconds = sound.getnframes() / sound.getframerate()
            print(wav_written(str(path), seconds))
            return 0
        if service.backend.name == "silent":
            print(say_failed(service.notices[0]), file=sys.stderr)
            return 1
        service.say(text)
        service.wait_idle(timeout=max(30.0, len(text) / 5))
        problems = service.notices[1:]  # the first notice only names the backend
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    finally:
        service.close()


def _writable(path: Path) -> bool:
    """Whether the WAV file can be written, said at once when not (a missing folder, a read-only one): the speech
    engine is never left to fail on it in its own thread and be blamed for the time it took."""
    existed = path.exists()
    try:
        with open(path, "ab"):
            pass
    except OSError as exc:
        print(could_not_write(str(path), exc.strerror or str(exc)), file=sys.stderr)
        return False
    if not existed:
        path.unlink(missing_ok=True)
    return True


def reply_speaker(
    args: argparse.Namespace, *, silent: bool = False, settings: SpeechSettings | None = None
) -> tuple[ReplySpeaker | None, list[str]]:
    """The app's speaker of replies (`ReplySpeaker`), or None when it should not speak; and the sentences to write
    once: a damaged settings file, why speech is off, the backend chosen. `settings` already read are used as
    they are (whoever read them says what was wrong with the file); None reads the file.

    Through the screen reader when one is running (`speech = auto`) or asked for (`speech = screen-reader`); off
    with `--no-speech`, with `speech = off`, and when `silent` (nobody listens: piped input). With a transcript
    (`--transcript FILE` or the setting) there is a speaker even then: a silent one, so every utterance still
    reaches the file.
    """
    from assistant.speech import OFF, make_speaker, speech_route
    from assistant.speech.backends import SilentBackend
    from assistant.speech.replies import ReplySpeaker
    from assistant.storage.paths import user_data_dir
    from assistant.storage.settings import load_settings

    notice = ""
    if settings is None:
        settings, notice = load_settings()
    notes = [notice] if notice else []
    transcript = getattr(args, "transcript", None) or settings.transcript
    route = speech_route(settings, getattr(args, "no_speech", False))
    wanted = route[0] != OFF
    if silent and not transcript:
        return None, []  # a script: nobody listens, and nothing is written but its answers
    if silent or not wanted:
        if not transcript:
            return None, notes
        silence = SilentBackend(sentence=SPEECH_OFF_TRANSCRIPT)
        service = make_speaker(replace(settings, earcons=False), backends=[silence], transcript=transcript)
        # The first notice says speech is off (written in the transcript); only later ones are shown (the
        # transcript cannot be written).
        return ReplySpeaker(service), notes + service.take_notices()[1:]
    service = make_speaker(settings, earcon_folder=user_data_dir() / "earcons", transcript=transcript, route=route)
    speaker = ReplySpeaker(service, settings.private_device)
    service.muted, speaker.private = settings.muted, settings.private  # as F5 and F6 left them last time
    speaker.on_change = _remember
    return speaker, notes + service.take_notices() + ([STARTED_MUTED] if settings.muted else [])


def _remember(**setting: object) -> None:
    """A speech key's change (F5 mute, F6 private reading) is the next start's too."""
    from assistant.storage.settings import remember

    try:
        remember(setting)
    except OSError:
        pass  # a settings folder that cannot be written: the change holds for this run
