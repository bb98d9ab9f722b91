"""Speech: the app's own voice, which never makes the app wait.

The entry points:

- `make_speaker(settings) -> SpeechService`: the service with the backends the settings allow, tried in order
  (speech-dispatcher, pyttsx3, espeak-ng, silent), earcons and the private (headphones) player;
- `service.say(text, priority)`, `service.speak(Utterance.of_reply(reply))` (a reply, whole),
  `service.interrupt(text)`, `service.stop()`, `service.repeat()`,
  `service.back()`, `service.forward()`, `service.muted = True`, `service.earcon(name)`;
- `speech_route(settings)`: how the app speaks: through the screen reader (when one runs, or `speech =
  screen-reader`), with its own voice, or not at all ("off");
- `service.new_input()`: a line typed or a card scanned, so what still waits is stale (`docs/speech.md`);
- a transcript (`settings.transcript`, `--transcript FILE`): every utterance appended to a file with its time;
- `ReplySpeaker` (`assistant/speech/replies.py`): speaks the session's replies and handles the speech keys.

Third-party modules (pyttsx3, speechd) are imported only when a backend is opened, in the worker thread.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from assistant.core.speech.settings import SpeechSettings
from assistant.core.speech.utterance import Priority, Utterance
from assistant.core.words.voice import (
    SPEECH_SET_SILENT,
    TABLE_INSTEAD_OWN_VOICE,
    TABLE_INSTEAD_PRINTED,
    TABLE_INSTEAD_READER,
    TABLE_NO_ENGINE,
    TABLE_NO_MIXER,
    screen_reader_speaks,
    table_voice_missing,
    transcript_failed,
)
from assistant.speech.backends import (
    Backend,
    EspeakBackend,
    Pyttsx3Backend,
    SilentBackend,
    SpeechError,
    WavBackend,
)
from assistant.speech.dispatcher import SpeechdBackend
from assistant.speech.player import Player
from assistant.speech.service import SpeechService
from assistant.speech.transcript import Transcript

__all__ = [
    "Priority",
    "Utterance",
    "SpeechService",
    "SpeechError",
    "make_speaker",
    "make_backends",
    "speech_route",
]

#: The ways of speaking (`speech_route`).
SCREEN_READER, OWN_VOICE, OFF = "screen-reader", "own-voice", "off"

#: How long `make_speaker` waits for the worker to choose its backend (opening pyttsx3 takes about 50 ms).
READY_TIMEOUT = 5.0


def make_backends(
    settings: SpeechSettings,
    *,
    wav_only: bool = False,
    platform: str = sys.platform,
    route: str = OWN_VOICE,
    reader: str = "",
    reader_backend: Callable[[], Backend] | None = None,
) -> tuple[list[Backend], Backend | None]:
    """The backends to try, in order, and a WAV backend for private reading when the main one cannot do it.

    `wav_only` leaves out speech-dispatcher (it cannot write files: `say --to`). `platform` chooses the player
    and pyttsx3's driver. With `route` "screen-reader" the screen reader comes first (speech-dispatcher on Linux,
    which Orca speaks through; on Windows and macOS `reader_backend`, by default accessible_output2's), and when
    it cannot be reached the app stays quiet if a screen reader (`reader`) was found talking, else speaks with
    its own voice.
    """
    player = Player.choose(settings.player, settings.device, platform)[0]
    private_player = (
        Player.choose(settings.player, settings.private_device, platform)[0] if settings.private_device else None
    )
    voice: dict[str, Any] = dict(rate=settings.rate, voice=settings.voice, volume=settings.volume, pitch=settings.pitch)
    makers: dict[str, Callable[[], Backend]] = {
        "speechd": lambda: SpeechdBackend(**voice),
        "pyttsx3": lambda: _faster(Pyttsx3Backend(player, private_player, **voice, platform=platform), settings),
        "espeak-ng": lambda: _faster(EspeakBackend(player, private_player, **voice), settings),
    }
    if settings.backend == "silent":  # silence chosen in the file: through a screen reader neither
        return [SilentBackend(SPEECH_SET_SILENT)], None
    own = _own_voice(settings.backend, platform)
    if wav_only:
        own = [n for n in own if n != "speechd"] or ["pyttsx3", "espeak-ng"]
    elif route == SCREEN_READER:
        first = reader_backend or _screen_reader_backend(platform)
        # Never the own voice over a screen reader that is talking; "speechd" was the screen reader already.
        own = [n for n in own if n != "speechd"]
        fallback = [SilentBackend(sentence=screen_reader_speaks(reader))] if reader else [makers[n]() for n in own]
        return [first(), *fallback], _private_backend(private_player, player, voice, platform)
    backends = [makers[name]() for name in own]
    private = _private_backend(private_player, player, voice, platform) if "speechd" in own else None
    return backends, private


def _own_voice(backend: str, platform: str) -> list[str]:
    """The own voice's engines, in order: speech-dispatcher exists on Linux only."""
    if backend != "auto":
        return [backend]
    return ["speechd", "pyttsx3", "espeak-ng"] if platform not in ("win32", "darwin") else ["pyttsx3", "espeak-ng"]


def _screen_reader_backend(platform: str) -> Callable[[], Backend]:
    """Speaking through the screen reader: speech-dispatcher on Linux, accessible_output2 elsewhere."""
    if platform in ("win32", "darwin"):
        from assistant.speech.readers import ScreenReaderBackend

        return ScreenReaderBackend
    return lambda: SpeechdBackend(own=False)  # the reader's own voice, rate and volume: none of ours is set


def _private_backend(
    private_player: Player | None, player: Player | None, voice: dict[str, Any], platform: str
) -> Backend | None:
    """Private reading beside a backend that cannot reach the headphones: pyttsx3 to the headphones player."""
    if private_player is None or player is None:
        return None
    return Pyttsx3Backend(private_player, private_player, **voice, platform=platform)


def make_speaker(
    settings: SpeechSettings | None = None,
    *,
    on_notice=None,
    wav_only: bool = False,
    backends: list[Backend] | None = None,
    earcon_folder: Path | None = None,
    transcript: str = "",
    platform: str = sys.platform,
    route: tuple[str, str] | None = None,
    reader_backend: Callable[[], Backend] | None = None,
    beside: bool = False,
) -> SpeechService:
    """The speech service for these settings, its backend chosen (see `service.notices[0]` for the sentence).

    `backends` replaces the automatic choice (the tests pass one that records, `tests/recording_backend.py`);
    `earcon_folder` is where the earcon files are written once (the app passes its data directory; by default a
    folder in the system's temporary directory); `transcript` a file to append every utterance to (else the
    settings' one). `platform` chooses the player, the engines and the screen reader's library; `route` is
    `speech_route`'s answer (worked out here when None); `reader_backend` stands for accessible_output2's screen
    reader (tests); `beside`: a table voice beside the `backends` given (the plain mode beside her screen reader,
    which reads the printed lines), as the settings allow.
    """
    settings = settings or SpeechSettings()
    private = None
    two_voices = beside and settings.table_voice and not wav_only
    reader_first = False
    auto = backends is None
    way = OFF
    if backends is None:
        way, reader = route or speech_route(settings, platform=platform)
        backends, private = make_backends(
            settings, wav_only=wav_only, platform=platform, route=way, reader=reader, reader_backend=reader_backend
        )
        two_voices = settings.table_voice and way != OFF and not wav_only
        reader_first = way == SCREEN_READER  # the first backend is her screen reader
    two_voices = two_voices and settings.backend != "silent"  # silence chosen: no voice at all, nor a notice
    earcons = None
    if settings.earcons and not wav_only:
        earcons = _earcon_channel(settings, earcon_folder, platform)
    writer, failure = open_transcript(transcript or settings.transcript)
    table = _table_voice(settings, platform, earcons) if two_voices else None
    service = SpeechService(
        backends,
        private_backend=private,
        earcons=earcons,
        on_notice=on_notice,
        transcript=writer,
        table=table,
        at_pause=settings.others_at_pause,  # (one voice only: a table voice that speaks takes the moves)
    )
    service.ready.wait(READY_TIMEOUT)
    if two_voices and (table is None or not table.speaks):  # said once, with what she gets instead
        reason = TABLE_NO_MIXER if table is None else TABLE_NO_ENGINE
        through_reader = reader_first and service.backend is backends[0]
        instead = TABLE_INSTEAD_READER if through_reader else TABLE_INSTEAD_OWN_VOICE
        service.report(table_voice_missing(reason, TABLE_INSTEAD_PRINTED if beside else instead))
    if failure:
        service.report(failure)
    if auto:  # a setting that cannot be honoured as it is, said after the engine chosen; the device's changes
        player, note = Player.choose(settings.player, settings.device, platform)
        if note and way != OFF:
            service.report(note)
        if player is not None and player.mixer is not None:
            tell_device_changes(service, player.mixer)
    return service


def tell_device_changes(service: SpeechService, mixer: Any) -> None:
    """The sound device lost or back (`mixer.DeviceChange`), told by the service once each: said aloud too by a
    voice that does not play through that device (speech-dispatcher), and its return by her own voice."""
    from assistant.core.words.outage import SOUND_BACK, sound_lost

    def told(change: Any) -> None:
        backend = service.backend
        through_it = isinstance(backend, WavBackend) and backend.player is not None and backend.player.mixer is mixer
        if change.lost is None:
            service.report(SOUND_BACK, change=True, spoken=True)
        else:
            service.report(sound_lost(change.lost), change=True, spoken=not through_it)

    mixer.listeners.append(told)


def _table_voice(settings: SpeechSettings, platform: str, earcons: Any) -> SpeechService | None:
    """The second voice, for other hands' moves, beside whatever says her own replies (her screen reader or the
    app's own voice): a WAV engine at the table voice's own rate, in another voice than hers, played through a
    player that is heard at the same time as the first voice (the app's mixer, or player programs the system mixes;
    speech-dispatcher and a screen reader say one message at a time). None where no such player exists (only
    Windows' winsound, which plays one sound at a time): then one voice carries every hand."""
    player = Player.choose(settings.player, settings.device, platform)[0]
    if player is None or not player.mixes:
        return None
    table_settings = replace(
        settings,
        rate=settings.table_rate,
        volume=settings.table_volume,
        pitch=settings.table_pitch,
        voice=settings.table_voice_name,
        others_faster=0,
    )
    backends, _ = make_backends(table_settings, wav_only=True, platform=platform)
    for backend in backends:
        if isinstance(backend, (Pyttsx3Backend, EspeakBackend)) and not settings.table_voice_name:
            backend.apart_from = settings.voice  # another voice than hers (`espeak_apart`, `voice_apart`)
        if isinstance(backend, Pyttsx3Backend):
            backend.own_process = True  # an engine of its own: hers keeps her settings (`engine_process.py`)
    table = SpeechService(backends, earcons=earcons)
    table.ready.wait(READY_TIMEOUT)
    return table


def _faster(backend: WavBackend, settings: SpeechSettings) -> WavBackend:
    """A WAV backend that says other players' moves `others_faster` steps faster than the player's own replies."""
    backend.others_faster = settings.others_faster
    return backend


def open_transcript(path: str) -> tuple[Transcript | None, str]:
    """The transcript writer for `path` (None when empty), or None and the sentence saying why it cannot be."""
    if not path:
        return None, ""
    try:
        return Transcript(path), ""
    except OSError as exc:
        return None, transcript_failed(path, exc.strerror or str(exc))


def _earcon_channel(settings: SpeechSettings, folder: Path | None, platform: str = sys.platform):
    """The earcon channel, or None when no player is installed or the sounds cannot be written (then they are
    spoken)."""
    import tempfile

    from assistant.speech.earcons import EarconChannel, write_earcons

    user = getattr(os, "getuid", lambda: 0)()  # one folder per user: another user's files may not be readable
    folder = folder or Path(tempfile.gettempdir()) / f"table-assistant-earcons-{user}"

    player = Player.choose(settings.player, settings.device, platform)[0]
    if player is None:
        return None
    private = Player.choose(settings.player, settings.private_device, platform)[0] if settings.private_device else None
    try:
        files = write_earcons(folder, settings.volume)
    except OSError:
        return None
    return EarconChannel(player, files, private)


def speech_route(
    settings: SpeechSettings,
    no_speech: bool = False,
    *,
    platform: str = sys.platform,
    find_reader: Callable[[], str] | None = None,
) -> tuple[str, str]:
    """How the app speaks, and the screen reader found running ("" when none was looked for or found):
    "screen-reader", "own-voice" or "off". `speech = auto` speaks through a screen reader that is running, else
    with the own voice; "on" is the older name of "own-voice". `find_reader` stands for the search (tests)."""
    if no_speech or settings.speech == OFF:
        return OFF, ""
    if settings.speech in (OWN_VOICE, "on"):
        return OWN_VOICE, ""
    if find_reader is None:
        from assistant.speech.screenreader import screen_reader_running

        reader = screen_reader_running(platform=platform)
    else:
        reader = find_reader()
    if settings.speech == SCREEN_READER:
        return SCREEN_READER, reader  # asked for: tried even when none was seen (then the own voice is the fallback)
    return (SCREEN_READER, reader) if reader else (OWN_VOICE, "")
