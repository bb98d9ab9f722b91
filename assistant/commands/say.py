"""`table-assistant say TEXT [--to FILE.wav]`: speak a text, or write it as a WAV file with the same engine.

It uses the backend and voice settings of the app (`settings.toml`), but not its screen-reader check: asking for
speech on the command line is asking for it. Nothing but one sentence is ever written to the terminal.
"""

from __future__ import annotations

import argparse
import errno
import os
import shutil
import sys
import tempfile
import wave
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.commands.helptext import described
from assistant.core.speech.settings import BACKENDS, SpeechSettings
from assistant.core.text import clean_untrusted
from assistant.core.words.errors import could_not_write
from assistant.core.words.voice import (
    NOTHING_WRITTEN,
    SPEECH_OFF_TRANSCRIPT,
    STARTED_MUTED,
    TEXT_EMPTY,
    WAV_CUT_SHORT,
    about_app,
    plain_left_to,
    say_failed,
    text_too_long_to_say,
    wav_written,
)

if TYPE_CHECKING:
    from assistant.speech.replies import ReplySpeaker
    from assistant.speech.service import SpeechService

#: The longest text `say` speaks or writes (about 20 minutes of speech; the espeak library behind pyttsx3 crashes
#: on texts of some 25,000 characters); a longer one is refused with its length, never cut.
SAY_MOST = 20_000
#: Less free space than this after a WAV was made: the disk filled while it was written (an engine may write a
#: WAV cut short that still reads as whole, and say nothing), so it is not kept, and the reason is said.
FULL_DISK_BYTES = 16 * 1024


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser(
        "say",
        help="speak a text, or write it as a WAV file (--to)",
        **described(
            description=(
                "Speak a text with the app's voice and settings, or write it as a WAV file: a way to try the speech."
            ),
            examples=[
                ("table-assistant say Ana played Rainbow Aura", "said aloud"),
                ("table-assistant say --to turn.wav Your turn, Ben", "written to turn.wav"),
            ],
        ),
    )
    parser.add_argument("text", nargs="+", help="what to say")
    parser.add_argument("--to", metavar="FILE.wav", help="write the speech to this WAV file instead of playing it")
    parser.add_argument(
        "--backend", choices=BACKENDS, help="the speech engine (default: the settings file's, normally auto)"
    )


def run(args: argparse.Namespace) -> int:
    """Speak or render; exit 1 when nothing could be said or written."""
    from assistant.speech import make_speaker
    from assistant.storage.settings import load_settings

    settings, notice = load_settings()
    if notice:
        print(notice, file=sys.stderr)
    if args.backend:
        settings = replace(settings, backend=args.backend)
    text = clean_untrusted(" ".join(args.text), SAY_MOST + 1)
    if not text:
        print(say_failed(TEXT_EMPTY), file=sys.stderr)
        return 1
    if len(text) > SAY_MOST:  # never cut in silence: said, and nothing is said or written
        print(say_failed(text_too_long_to_say(len(" ".join(args.text)), SAY_MOST)), file=sys.stderr)
        return 1
    if args.to and not _writable(Path(args.to)):
        return 1
    service = make_speaker(replace(settings, earcons=False), wav_only=bool(args.to))
    try:
        if args.to:
            return _render(service, text, Path(args.to))
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


def _render(service: SpeechService, text: str, path: Path) -> int:
    """Render the speech in a temporary folder of the system's, check it is whole, then copy it beside `path` and put
    it in place: a full disk fails at the copy, at once (an engine left to write to it fails in its own thread, and
    is waited for to its bound), and neither that nor an engine that stops early leaves a file (or the old one
    changed); each is said, never reported as written."""
    from assistant.speech import SpeechError

    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    ignored: list[str] = []
    hook = sys.unraisablehook  # an engine's error in its own callback is printed by Python: kept, never shown
    sys.unraisablehook = lambda failure: ignored.append(str(failure.exc_value))
    try:
        with tempfile.TemporaryDirectory(prefix="table-assistant-say-") as folder:
            rendered = Path(folder) / "speech.wav"
            try:
                service.render_to(text, rendered, timeout=max(30.0, len(text) / 50))
            except SpeechError as exc:
                print(_why_not_written(path, rendered, str(exc)), file=sys.stderr)
                return 1
            seconds = _whole_wav_seconds(rendered)
            if seconds is None or _disk_full(rendered) or ignored:
                print(_why_not_written(path, rendered, ""), file=sys.stderr)
                return 1
            try:
                shutil.copyfile(rendered, partial)
                os.replace(partial, path)
            except OSError as exc:
                print(f"{could_not_write(str(path), exc.strerror or str(exc))} {NOTHING_WRITTEN}", file=sys.stderr)
                return 1
    finally:
        sys.unraisablehook = hook
        partial.unlink(missing_ok=True)
    print(wav_written(str(path), seconds))
    return 0


def _whole_wav_seconds(path: Path) -> float | None:
    """The WAV file's length in seconds when it holds every frame its header says (and some); None when it is
    empty, cut short (a disk that filled while it was written) or no WAV at all."""
    try:
        with wave.open(str(path), "rb") as sound:
            frames, size = sound.getnframes(), sound.getsampwidth() * sound.getnchannels()
            if frames <= 0 or frames > 0x7FFF0000 // max(size, 1):
                return None
            if len(sound.readframes(frames)) != frames * size:
                return None
            return frames / sound.getframerate()
    except (OSError, EOFError, wave.Error):
        return None


def _why_not_written(path: Path, rendered: Path, engine: str) -> str:
    """Why `say --to` wrote nothing to `path`: the disk's own reason when the one it was `rendered` on is full, else
    the engine's (or that the file came out cut short)."""
    if _disk_full(rendered):
        return could_not_write(str(path), os.strerror(errno.ENOSPC)) + " " + NOTHING_WRITTEN
    return say_failed(engine or WAV_CUT_SHORT)


def _disk_full(path: Path) -> bool:
    """The disk `path` is on has (next to) no room left."""
    try:
        room = os.statvfs(path.parent)
    except (OSError, AttributeError):  # (no statvfs on Windows)
        return False
    return room.f_bavail * room.f_frsize < FULL_DISK_BYTES


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
    args: argparse.Namespace,
    *,
    silent: bool = False,
    settings: SpeechSettings | None = None,
    reader: str = "",
) -> tuple[ReplySpeaker | None, list[str]]:
    """The app's speaker of replies (`ReplySpeaker`), or None when it should not speak; and the sentences to write
    once: a damaged settings file, why speech is off, the backend chosen. `settings` already read are used as
    they are (whoever read them says what was wrong with the file); None reads the file.

    Through the screen reader when one is running (`speech = auto`) or asked for (`speech = screen-reader`); off
    with `--no-speech`, with `speech = off`, and when `silent` (nobody listens: piped input). With a transcript
    (`--transcript FILE` or the setting) there is a speaker even then: a silent one, so every utterance still
    reaches the file. `reader`: the screen reader that says the words (the plain mode beside one): the earcons and
    the table voice (other hands' moves, as the app has them beside her reader) are played, nothing else (neither
    when `earcons = false` and `table_voice = false`), and the transcript says what the screen says, that the
    reader speaks (`plain_left_to`).
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
    silent = silent or (bool(reader) and not settings.earcons and not settings.table_voice)  # nothing to play
    if silent and not transcript:
        return None, []  # a script: nobody listens, and nothing is written but its answers
    if silent or not wanted:
        if not transcript:
            return None, notes
        silence = SilentBackend(sentence=plain_left_to(reader) if reader else SPEECH_OFF_TRANSCRIPT)
        service = make_speaker(replace(settings, earcons=False), backends=[silence], transcript=transcript)
        # The first notice says speech is off (written in the transcript); only later ones are shown (the
        # transcript cannot be written).
        return ReplySpeaker(service), notes + service.take_notices()[1:]
    if reader:  # the backend's sentence, written in the transcript, is the one the plain mode prints itself
        silence = SilentBackend(sentence=plain_left_to(reader))
        # Other hands' moves in the table voice beside the reader, as the app has them (`make_speaker`'s `beside`).
        service = make_speaker(
            settings, backends=[silence], earcon_folder=user_data_dir() / "earcons", transcript=transcript, beside=True
        )
        skip = 1  # the silent backend's sentence: the plain mode prints it itself
    else:
        service = make_speaker(settings, earcon_folder=user_data_dir() / "earcons", transcript=transcript, route=route)
        skip = 0
    speaker = ReplySpeaker(
        service, settings.private_device, placement=settings.placement, me=settings.me, across=settings.across
    )
    service.muted, speaker.private = settings.muted, settings.private  # as F5 and F6 left them last time
    speaker.on_change = _remember
    # (the engine's name is left out: the first words are the app's; `about` names it)
    taken = service.take_notices(naming=False)[skip:]
    return speaker, notes + taken + ([STARTED_MUTED] if settings.muted else [])


def retuner(speaker: object | None) -> Callable[[SpeechSettings, str], bool]:
    """What carries out a voice's dial turned in the app (`Session.retune`): the setting written for the next start,
    and applied to the voices of `speaker` (a `ReplySpeaker`; none, or one with no voices, a test's: speech is off,
    and the setting is kept)."""
    turn: Callable[[str, int], bool] | None = getattr(speaker, "retune", None)

    def retune(settings: SpeechSettings, name: str) -> bool:
        value = getattr(settings, name)
        _remember(**{name: value})
        return turn is None or turn(name, value)

    return retune


def describer(speaker: object | None) -> Callable[[], list[str]]:
    """`about` (`Session.about`): the app's version and the engines `speaker`'s voices speak with (a `ReplySpeaker`;
    none: speech is off)."""
    from assistant import __version__

    def about() -> list[str]:
        service = getattr(speaker, "service", None)
        table = getattr(service, "table", None)
        return about_app(__version__, getattr(service, "described", ""), getattr(table, "described", ""))

    return about


def _remember(**setting: object) -> None:
    """A speech key's change (F5 mute, F6 private reading) is the next start's too."""
    from assistant.storage.settings import remember

    try:
        remember(setting)
    except OSError:
        pass  # a settings folder that cannot be written: the change holds for this run
