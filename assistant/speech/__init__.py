"""Speech: the app's own voice, which never makes the app wait.

The entry points:

- `make_speaker(settings) -> SpeechService`: the service with the backends the settings allow, tried in order
  (speech-dispatcher, pyttsx3, espeak-ng, silent), earcons and the private (headphones) player;
- `service.say(text, priority)`, `service.interrupt(text)`, `service.stop()`, `service.repeat()`,
  `service.back()`, `service.forward()`, `service.muted = True`, `service.earcon(name)`;
- `speech_wanted(settings)`: whether the app should speak at all (off when a screen reader talks), and why not;
- `service.new_input()`: a line typed or a card scanned, so what still waits is stale (`docs/speech.md`);
- a transcript (`settings.transcript`, `--transcript FILE`): every utterance appended to a file with its time;
- `ReplySpeaker` (`assistant/speech/replies.py`): speaks the session's replies and handles the speech keys.

Third-party modules (pyttsx3, speechd) are imported only when a backend is opened, in the worker thread.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.core.speech.queue import Priority, Utterance
from assistant.core.speech.settings import SpeechSettings
from assistant.core.words.voice import SPEECH_SET_SILENT, screen_reader_speaks, transcript_failed
from assistant.speech.backends import (
    Backend,
    EspeakBackend,
    Pyttsx3Backend,
    RecordingBackend,
    SilentBackend,
    SpeechdBackend,
    SpeechError,
)
from assistant.speech.player import Player
from assistant.speech.service import SpeechService
from assistant.speech.transcript import Transcript

__all__ = [
    "Priority",
    "Utterance",
    "SpeechService",
    "SpeechError",
    "RecordingBackend",
    "make_speaker",
    "make_backends",
    "speech_wanted",
]

#: How long `make_speaker` waits for the worker to choose its backend (opening pyttsx3 takes about 50 ms).
READY_TIMEOUT = 5.0


def make_backends(settings: SpeechSettings, *, wav_only: bool = False) -> tuple[list[Backend], Backend | None]:
    """The backends to try, in order, and a WAV backend for private reading when the main one cannot do it.

    `wav_only` leaves out speech-dispatcher (it cannot write files: `say --to`).
    """
    player = Player.find(settings.player, settings.device)
    private_player = Player.find(settings.player, settings.private_device) if settings.private_device else None
    voice: dict[str, Any] = dict(rate=settings.rate, voice=settings.voice, volume=settings.volume)
    makers: dict[str, Callable[[], Backend]] = {
        "speechd": lambda: SpeechdBackend(**voice),
        "pyttsx3": lambda: Pyttsx3Backend(player, private_player, **voice),
        "espeak-ng": lambda: EspeakBackend(player, private_player, **voice),
    }
    if settings.backend == "silent":
        return [SilentBackend(SPEECH_SET_SILENT)], None
    names = list(makers) if settings.backend == "auto" else [settings.backend]
    if wav_only:
        names = [n for n in names if n != "speechd"] or ["pyttsx3", "espeak-ng"]
    backends = [makers[name]() for name in names]
    private = None
    if private_player is not None and "speechd" in names:
        private = Pyttsx3Backend(private_player, private_player, **voice) if player else None
    return backends, private


def make_speaker(
    settings: SpeechSettings | None = None,
    *,
    on_notice=None,
    wav_only: bool = False,
    backends: list[Backend] | None = None,
    earcon_folder: Path | None = None,
    transcript: str = "",
) -> SpeechService:
    """The speech service for these settings, its backend chosen (see `service.notices[0]` for the sentence).

    `backends` replaces the automatic choice (tests pass a `RecordingBackend`); `earcon_folder` is where the
    earcon files are written once (the app passes its data directory; by default a folder in the system's
    temporary directory); `transcript` a file to append every utterance to (else the settings' one).
    """
    settings = settings or SpeechSettings()
    private = None
    if backends is None:
        backends, private = make_backends(settings, wav_only=wav_only)
    earcons = None
    if settings.earcons and not wav_only:
        earcons = _earcon_channel(settings, earcon_folder)
    writer, failure = open_transcript(transcript or settings.transcript)
    service = SpeechService(backends, private_backend=private, earcons=earcons, on_notice=on_notice, transcript=writer)
    service.ready.wait(READY_TIMEOUT)
    if failure:
        service.report(failure)
    return service


def open_transcript(path: str) -> tuple[Transcript | None, str]:
    """The transcript writer for `path` (None when empty), or None and the sentence saying why it cannot be."""
    if not path:
        return None, ""
    try:
        return Transcript(path), ""
    except OSError as exc:
        return None, transcript_failed(path, exc.strerror or str(exc))


def _earcon_channel(settings: SpeechSettings, folder: Path | None):
    """The earcon channel, or None when no player is installed or the sounds cannot be written (then they are
    spoken)."""
    import tempfile

    from assistant.speech.earcons import EarconChannel, write_earcons

    user = getattr(os, "getuid", lambda: 0)()  # one folder per user: another user's files may not be readable
    folder = folder or Path(tempfile.gettempdir()) / f"table-assistant-earcons-{user}"

    player = Player.find(settings.player, settings.device)
    if player is None:
        return None
    private = Player.find(settings.player, settings.private_device) if settings.private_device else None
    try:
        files = write_earcons(folder, settings.volume)
    except OSError:
        return None
    return EarconChannel(player, files, private)


def speech_wanted(settings: SpeechSettings, no_speech: bool = False) -> tuple[bool, str]:
    """Whether the app should speak, and when not, the sentence saying why (empty when the player asked)."""
    if no_speech or settings.speech == "off":
        return False, ""
    if settings.speech == "auto":
        from assistant.speech.screenreader import screen_reader_running

        reader = screen_reader_running()
        if reader:
            return False, screen_reader_speaks(reader)
    return True, ""
