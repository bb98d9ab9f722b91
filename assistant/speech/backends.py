"""The engines that turn an utterance into sound, all with one interface, used only by the speech worker thread.

- `SpeechdBackend` (in `dispatcher.py`): speech-dispatcher, when its socket answers (the player's own
  screen-reader voice and rate);
- `Pyttsx3Backend`: pyttsx3 renders each sentence to a WAV file, a `Player` child process plays it;
- `EspeakBackend`: the espeak-ng program renders the WAV (or, with no player, speaks straight to the device);
- `SilentBackend`: says nothing (the service writes one notice).

The tests' backend, which records what it is asked to say, is `tests/recording_backend.py`.

`open()` prepares a backend in the worker thread and raises `BackendUnavailable` with a reason when it cannot work
here; `speak()` blocks the worker until the utterance is said or cut off, sentence by sentence, going on to the
next sentence only while `more()` says so (a decisive fact said again ends with its sentence); `cancel()` may be
called from any thread and cuts off at once. A backend that `plays_sounds` plays the utterance's earcon itself,
just before its words (the WAV backends put it at the start of the first sentence's file, so there is no gap);
for the others the service plays it first. Third-party modules are imported inside `open()`.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import tempfile
import threading
import wave
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.core.speech.queue import scale
from assistant.core.speech.utterance import Utterance
from assistant.core.words.outage import Piece, missing_fix, sounds_by_themselves_failed
from assistant.core.words.voice import (
    ENGINE_EMPTY_SOUND,
    ENGINE_NOT_INSTALLED,
    ENGINE_UNFINISHED,
    NO_PLAYER,
    engine_stopped,
    engine_unavailable,
    player_failed,
    player_missing,
    speech_backend_chosen,
    speech_cannot_render,
    speech_silent,
    voice_unknown,
)
from assistant.speech.player import Player, Playing, end_process, start_quietly, system_of
from assistant.speech.silence import soften, trim_silent_end
from assistant.speech.soundfile import as_wav, place_wav

#: Seconds a render may take before it counts as failed (a sentence renders in about 10 ms).
RENDER_TIMEOUT = 10.0
#: How much lower an engine program rendering a sentence ahead runs (added to the app's own niceness): the next
#: sentence has the whole of the one playing to be ready, while the app draws the reply on the same cores.
AHEAD_NICENESS = 10


def ignore_finished(index: int) -> None:
    """A backend's `finished` when no one listens: a sentence's end is not told (the speech-dispatcher backend
    shares these defaults)."""


def ignore_began(index: int, seconds: float) -> None:
    """A backend's `began` when no one listens."""


def always() -> bool:
    """A backend's `more` when no one asks it to stop: every sentence is wanted."""
    return True


class BackendUnavailable(Exception):
    """This backend cannot work on this machine; the message says why, in words for the player."""


class SpeechError(Exception):
    """Saying or rendering one utterance failed; the message says why."""


class Backend:
    """What the speech service needs from an engine. The default methods do nothing."""

    name = "backend"
    can_render = False
    """Whether `render()` writes WAV files (for `table-assistant say --to`)."""

    on_notice: Callable[[str], None] = staticmethod(lambda text: None)
    """Set by the service: where a backend sends a sentence for the player (a player that failed)."""
    on_outage: Callable[[str, bool], None] = staticmethod(lambda sentence, back: None)
    """Set by the service: told once when an engine that is a daemon is lost mid-game (back False) and once when it
    answers again (True), with the sentence to say (speech-dispatcher's, `dispatcher.py`)."""

    plays_sounds = False
    """Whether `speak()` plays the utterance's earcon (`Utterance.sound`) itself, from `sounds`."""
    queues_itself = False
    """Whether `speak()` hands the words to something with a queue of its own (a screen reader) and returns before
    they are said: then a stop or a new input cancels it even when the service is idle."""
    sounds: dict[str, Path] = {}
    """The earcon files, set by the service when sounds are on."""

    def open(self) -> None:
        """Prepare the engine (in the worker thread); BackendUnavailable when it cannot work here."""

    def describe(self) -> str:
        """The sentence reporting this backend once it is chosen."""
        return speech_backend_chosen(self.name)

    def can_speak_privately(self) -> bool:
        """Whether private utterances can go to a separate (headphones) device."""
        return False

    def retune(self, dial: str, value: int) -> bool:
        """Turn a dial ("rate", "volume", "pitch"; 0 to 100) for what is said next (any thread); whether this engine
        honours it (a screen reader keeps its own rate)."""
        return False

    def speak(
        self,
        utterance: Utterance,
        wanted: Callable[[], bool],
        more: Callable[[], bool] = always,
        finished: Callable[[int], None] = ignore_finished,
        began: Callable[[int, float], None] = ignore_began,
    ) -> None:
        """Say the utterance, returning when it was said or cut off; stop at once when `wanted()` is False, and
        before a next sentence when `more()` is False. `finished(index)`: the sentence of that index (of
        `Utterance.split`) was played to its end (a backend that cannot tell never calls it); `began(index,
        seconds)`: it begins to play now and lasts that long (a backend that renders tells it just before its
        sound starts; one that cannot tell never calls it)."""

    def cancel(self) -> None:
        """Cut off what is being said (any thread)."""

    def render(self, text: str, path: Path, *, ahead: bool = False) -> None:
        """Write the text as a WAV file (only when `can_render`); `ahead`: while an earlier sentence plays, so
        there is time to spare and an engine in a process of its own runs at a lower priority."""
        raise SpeechError(speech_cannot_render(self.name))

    def close(self) -> None:
        """Free the engine and temporary files."""


class SilentBackend(Backend):
    """Says nothing: no engine works here, or the player chose silence. Everything is still shown on screen."""

    name = "silent"

    def __init__(self, reason: str = "", sentence: str = "") -> None:
        self.reason = reason
        self.sentence = sentence
        """What to say instead of "no speech engine works" (speech is off on purpose)."""

    def describe(self) -> str:
        """One written notice: why the app is silent."""
        return self.sentence or speech_silent(self.reason)

    def retune(self, dial: str, value: int) -> bool:
        """Nothing is said: the setting is kept for when it is (no engine keeps one of its own)."""
        return True


class WavBackend(Backend):
    """Renders each sentence to a WAV file and plays it in a child process, rendering the next sentence while
    the one before plays, so a long card text starts as soon as its first sentence is ready."""

    can_render = True
    plays_sounds = True

    def __init__(self, player: Player | None, private_player: Player | None = None) -> None:
        self.player = player
        self.private_player = private_player
        self._lock = threading.Lock()
        self._process: Playing | None = None
        """The player playing now."""
        self._render_process: subprocess.Popen | None = None
        """An engine program rendering the next sentence meanwhile (espeak-ng)."""
        self._folder: Path | None = None
        self._remove_folder: weakref.finalize[..., Any] | None = None
        """Removes the folder: at `close`, or at the process's end when the app closed while the speech worker was
        still warming the engine up (the worker then never gets to `close`)."""
        self._wanted: Callable[[], bool] = lambda: True
        """Whether the utterance being said is still wanted (set by `speak`, read by engines that render in a
        process of their own, so a cancel that came just before that process was registered still stops it)."""
        self._count = 0
        self._reported: set[str] = set()
        self.started_hook: Callable[[], None] | None = None
        """Called right after a player process started (the benchmark times it)."""
        self.starting_hook: Callable[[str], None] | None = None
        """Called just before a player process is started, with its label as in `played` (the benchmark tells
        which sound is which by it: whatever reaches the device after it and before the next is that player's,
        even a player cut off before it was listed in `played`)."""
        self.played: list[str] = []
        """What each player process started with, in order: a sentence (after "[earcon] " when the earcon is in
        the same file), or "[earcon]" alone. One entry per player process, so per opening of the sound device."""
        self.rate = 50
        """0 slowest, 50 the engine's normal rate, 100 fastest (the engines' own constructors set it)."""
        self.volume = 100
        """0 silent to 100 full (the engines' own constructors set it)."""
        self.pitch = 50
        """0 lowest, 50 the voice's own pitch, 100 highest."""
        self.others_faster = 0
        """How many steps of `rate` faster another hand's words are said (`SpeechSettings.others_faster`)."""
        self._other = False
        """The utterance being rendered tells of another hand's move (`Utterance.other`)."""
        self.apart_from: str | None = None
        """The table voice: speak in another voice than this one (her own voice's setting, "" for the engine's
        default), unless a voice of its own is set; None: the voice as set."""

    def _rate(self) -> int:
        """The rate to render at now: faster for another hand's words when the player asked for that."""
        return min(self.rate + self.others_faster, 100) if self._other else self.rate

    def retune(self, dial: str, value: int) -> bool:
        """The next sentence rendered at the new rate, volume or pitch (each render reads them)."""
        setattr(self, dial, value)
        return True

    def describe(self) -> str:
        """ "Speech: pyttsx3, played with aplay." """
        return speech_backend_chosen(self.name, self.player.name if self.player else "")

    def can_speak_privately(self) -> bool:
        """Private utterances go to the headphones player when one is set."""
        return self.private_player is not None

    def speak(
        self,
        utterance: Utterance,
        wanted: Callable[[], bool],
        more: Callable[[], bool] = always,
        finished: Callable[[int], None] = ignore_finished,
        began: Callable[[int, float], None] = ignore_began,
    ) -> None:
        """Render and play sentence by sentence, the earcon at the start of the sentence it goes with
        (`Utterance.sound_at`: the turn's with the turn's end, else the first); stop as soon as the utterance is no
        longer wanted, and before a next sentence once `more()` is False; `finished` hears of each sentence played to
        its end."""
        player = self.private_player if utterance.private else self.player
        pieces = utterance.split()
        sound = self.sounds.get(utterance.sound) if utterance.sound else None
        if player is None:
            self._speak_directly(pieces, wanted)
            return
        if not pieces:
            if (
                sound is not None
                and wanted()
                and (process := self._start(player, sound, wanted, f"[{utterance.sound}]"))
            ):
                self._wait(process, player)
            return
        self._wanted, self._other = wanted, utterance.other
        ready: Path | None = self._render_piece(pieces[0], ahead=False)
        at = min(utterance.sound_at(), len(pieces) - 1)
        try:
            for index in range(len(pieces)):
                if not wanted() or ready is None or (index > 0 and not more()):
                    return
                prefix = ""
                if index == at and sound is not None:
                    if _prepend(sound, ready):
                        prefix = f"[{utterance.sound}] "
                    elif (process := self._start(player, sound, wanted, f"[{utterance.sound}]")) is not None:
                        self._wait(process, player)  # not the same sample format (another voice): the earcon first
                if index < len(utterance.places) and utterance.places[index]:
                    place_wav(ready, utterance.places[index])  # (the earcon too, where that player sits)
                # told as it starts, before the player: once the mixer plays, a move arriving must find it begun
                # (the mixer plays on while this thread may wait for the interpreter; a move told of no sentence
                # begun would wait behind the whole of it)
                began(index, wav_seconds(ready))
                process = self._start(player, ready, wanted, prefix + pieces[index])
                if process is None:
                    return
                going_on = index + 1 < len(pieces) and more()
                upcoming = self._render_piece(pieces[index + 1], ahead=True) if going_on else None
                self._wait(process, player)
                if process.returncode == 0 and wanted():
                    finished(index)
                _remove(ready)
                ready = upcoming
        finally:
            _remove(ready)
            self._wanted, self._other = always, False  # `render` for `say --to` is always wanted

    def _speak_directly(self, pieces: list[str], wanted: Callable[[], bool]) -> None:
        """No player: engines that can reach the sound device themselves override this."""

    def _render_piece(self, text: str, *, ahead: bool) -> Path:
        self._count += 1
        path = self._temporary_folder() / f"utterance-{self._count % 8}.wav"
        self.render(text, path, ahead=ahead)
        trim_silent_end(path)
        return path

    def _start(self, player: Player, path: Path, wanted: Callable[[], bool], label: str) -> Playing | None:
        """Start the player; None when it cannot start (reported once) or the utterance was cut off meanwhile."""
        if self.starting_hook is not None:
            self.starting_hook(label)
        try:
            process = player.start(path)
        except OSError as exc:
            self._report(player.name, player_missing(player.name, exc.strerror or str(exc)))
            return None
        if self.started_hook is not None:
            self.started_hook()
        if self._register(process, wanted) is None:
            return None
        self.played.append(label)  # killed at once above, it never opened the device: not a play
        return process

    def _register(self, process: Playing, wanted: Callable[[], bool]) -> Playing | None:
        # A cancel first changes what `wanted` answers, then kills `self._process` under this lock: either it
        # finds this process registered, or this check sees the change. Nothing is left playing either way.
        with self._lock:
            if wanted():
                self._process = process
                return process
            end_process(process)
        process.wait()  # reaped outside the lock: a cancel from the app's thread never waits on it
        return None

    def _wait(self, process: Playing, player: Player) -> None:
        status = process.wait()
        with self._lock:
            self._process = None
        if status > 0 and not player.reports_itself:  # a negative status is our own kill; the mixer tells its own
            self._report(f"{player.name} failed", player_failed(player.name, status))

    def _report(self, key: str, sentence: str) -> None:
        if key not in self._reported:  # once per problem, not once per utterance
            self._reported.add(key)
            self.on_notice(sentence)

    def cancel(self) -> None:
        """Kill the player and any engine program now."""
        with self._lock:
            end_process(self._process)
            end_process(self._render_process)

    def _temporary_folder(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="table-assistant-speech-"))
            self._remove_folder = weakref.finalize(self, shutil.rmtree, self._folder, ignore_errors=True)
        return self._folder

    def close(self) -> None:
        """Kill any player and remove the temporary files."""
        self.cancel()
        if self._remove_folder is not None:
            self._remove_folder()
            self._folder = self._remove_folder = None


def _prepend(sound: Path, speech: Path) -> bool:
    """Rewrite the WAV file `speech` with the samples of `sound` first; False (nothing changed) when their
    formats differ or a file cannot be read."""
    try:
        with wave.open(str(sound), "rb") as first, wave.open(str(speech), "rb") as second:
            if first.getparams()[:3] != second.getparams()[:3]:  # channels, sample width, rate
                return False
            params = second.getparams()
            frames = first.readframes(first.getnframes()) + second.readframes(second.getnframes())
        with wave.open(str(speech), "wb") as joined:
            joined.setparams(params)
            joined.writeframes(frames)
        return True
    except (OSError, EOFError, wave.Error):
        return False


def _remove(path: Path | None) -> None:
    if path is not None:
        with contextlib.suppress(OSError):
            path.unlink()


#: pyttsx3's driver for each platform (`sys.platform`): the system's own voices on Windows and macOS.
PYTTSX3_DRIVERS = {"win32": "sapi5", "darwin": "nsss"}


class Pyttsx3Engine:
    """One pyttsx3 engine writing WAV files, with settings of its own: used by `Pyttsx3Backend` in the app's
    process, and by `engine_process.py` in a process of its own. pyttsx3 keeps one engine per driver in a process
    (`pyttsx3.init(driver)` hands back the same object) and its espeak-ng driver keeps the voice, the rate and the
    callback in the library's global state, so two voices in one process would be one voice: a second engine of a
    driver always runs in a child process."""

    def __init__(
        self, driver: str, *, rate: int, voice: str, volume: int, apart_from: str | None, pitch: int = 50
    ) -> None:
        self.driver = driver
        self.rate, self.voice, self.volume, self.apart_from = rate, voice, volume, apart_from
        self.pitch = pitch
        self.notices: list[str] = []
        """Sentences for the player (a voice that is not installed)."""
        self._engine: Any = None
        self._engine_rate = rate
        self._finished = threading.Event()

    def open(self) -> None:
        """Create the engine and apply rate, voice and volume; BackendUnavailable when pyttsx3 cannot work here."""
        try:
            import importlib

            import pyttsx3

            if self.driver == "espeak":
                # The driver prints "Audio saved to ..." after every file, noise on the app's screen or in the plain
                # mode's output: its module-level print is replaced by a silent one.
                driver: Any = importlib.import_module("pyttsx3.drivers.espeak")
                driver.print = lambda *args, **kwargs: None
            engine = pyttsx3.Engine(self.driver)  # not `init`, which hands back the process's cached engine
        except Exception as exc:  # ImportError, OSError (no libespeak-ng), RuntimeError: all mean "not here"
            raise BackendUnavailable(engine_unavailable("pyttsx3", str(exc))) from None
        engine.connect("finished-utterance", self._on_finished)
        engine.setProperty("rate", int(scale(self.rate, 80, 175, 450)))
        self._engine_rate = self.rate
        engine.setProperty("volume", self.volume / 100)
        self._set_pitch(engine, self.pitch)
        voice = self.voice
        if not voice and self.apart_from is not None:
            voice = self._voice_apart(engine)
        if voice:
            try:
                engine.setProperty("voice", voice)
            except (ValueError, KeyError, RuntimeError):
                self.notices.append(voice_unknown(voice))
        self._engine = engine

    def _voice_apart(self, engine: Any) -> str:
        """Another voice than hers (`apart_from`): espeak-ng's other variant of it; with SAPI5 or NSSpeechSynthesizer
        another installed voice, of another gender where one is listed."""
        apart_from = self.apart_from or ""
        if self.driver == "espeak":
            return espeak_apart(apart_from)
        try:
            voices = [(str(v.id), str(getattr(v, "gender", "") or "")) for v in engine.getProperty("voices")]
            current = apart_from or str(engine.getProperty("voice"))
        except Exception:  # a driver that cannot list its voices: the default voice, faster
            return ""
        return voice_apart(voices, current)

    def _on_finished(self, name=None, completed=True) -> None:
        self._finished.set()  # called on espeak's own thread: only an event is touched

    def _set_pitch(self, engine: Any, pitch: int) -> None:
        """The voice's pitch, 0 to 100 (50 its own), where the driver has one (SAPI5 has none, and prints so)."""
        if self.driver != "sapi5":
            engine.setProperty("pitch", pitch)
        self.pitch = pitch

    def render(self, text: str, path: Path, rate: int, volume: int | None = None, pitch: int | None = None) -> None:
        """Write `text` to `path` at `rate` (and `volume`, `pitch`, when given) and wait for the finished-utterance
        event (runAndWait alone can return before the file exists). An empty file is rendered once more: that was
        seen once, on a second utterance."""
        if pitch is not None and pitch != self.pitch:
            self._set_pitch(self._engine, pitch)
        if volume is not None and volume != self.volume:
            self.volume = volume
            self._engine.setProperty("volume", volume / 100)
        if rate != self._engine_rate:
            self._engine_rate = rate
            self._engine.setProperty("rate", int(scale(rate, 80, 175, 450)))
        for _attempt in range(2):
            self._finished.clear()
            self._engine.save_to_file(text, str(path))
            self._engine.runAndWait()
            if not self._finished.wait(RENDER_TIMEOUT):
                raise SpeechError(engine_unavailable("pyttsx3", ENGINE_UNFINISHED))
            if as_wav(path) > 0:  # NSSpeechSynthesizer writes AIFF whatever the name: made WAV here
                if self.driver == "espeak":  # (its driver writes every file at full volume; SAPI5's is set)
                    soften(path, self.volume)
                return
        raise SpeechError(engine_unavailable("pyttsx3", ENGINE_EMPTY_SOUND))


#: The backend holding each driver's engine in the app's process (`Pyttsx3Engine`): any other renders in a child.
_IN_PROCESS: weakref.WeakValueDictionary[str, Pyttsx3Backend] = weakref.WeakValueDictionary()
_IN_PROCESS_LOCK = threading.Lock()


class Pyttsx3Backend(WavBackend):
    """pyttsx3 used only to write WAV files, from the worker thread, with the platform's driver: espeak-ng on
    Linux, SAPI5 on Windows, NSSpeechSynthesizer on macOS (chosen at run time, `PYTTSX3_DRIVERS`).

    Its own playback blocks on a shell `aplay` call and cannot be stopped, so it is never
    used: the platform's `Player` plays the files. The engine is created once and kept warm; the rate is never
    read back from it. The first backend of a driver to open holds the engine in this process; another one (the
    table voice, the headphones' voice), and this one once a dial turns, renders with an engine of its own in a
    child process (`engine_process.py`), so no voice's settings ever change another's. `own_process` sends it
    there from the start.
    """

    name = "pyttsx3"

    def __init__(self, player: Player | None, private_player: Player | None = None, *, rate: int = 50, voice: str = "",
                 volume: int = 100, pitch: int = 50, platform: str = sys.platform) -> None:  # fmt: skip
        super().__init__(player, private_player)
        self.rate, self.voice, self.volume, self.pitch = rate, voice, volume, pitch
        self.driver = PYTTSX3_DRIVERS.get(platform, "espeak")
        self.own_process = False
        """Render in a child process even when no other backend holds this driver's engine here."""
        self._retuned = False
        """A dial was turned since the engine was opened (`retune`): a new one opens in a child before the next
        sentence."""
        self._engine: Pyttsx3Engine | None = None
        self._child: subprocess.Popen[bytes] | None = None

    def describe(self) -> str:
        """ "Speech: pyttsx3 with SAPI5, played with winsound." """
        engine = self.name if self.driver == "espeak" else f"{self.name}-{self.driver}"
        return speech_backend_chosen(engine, self.player.name if self.player else "")

    def open(self) -> None:
        """Create the engine (here, or in a child process when another backend holds this driver's), apply rate,
        voice and volume, and render one word to warm it up."""
        if self.player is None:
            raise BackendUnavailable(f"{NO_PLAYER} {missing_fix(Piece.SOUND_PLAYER, system_of())}")
        with _IN_PROCESS_LOCK:
            here = not self.own_process and _IN_PROCESS.get(self.driver) is None
            if here:
                _IN_PROCESS[self.driver] = self
        if here:
            engine = Pyttsx3Engine(
                self.driver,
                rate=self.rate,
                voice=self.voice,
                volume=self.volume,
                apart_from=self.apart_from,
                pitch=self.pitch,
            )
            try:
                engine.open()
            except BackendUnavailable:
                self._let_go()
                raise
            for notice in engine.notices:
                self.on_notice(notice)
            self._engine = engine
        else:
            self._start_child()
        try:
            self.render("Ready.", self._temporary_folder() / "warm-up.wav")
        except SpeechError as exc:
            raise BackendUnavailable(str(exc)) from None

    def _start_child(self) -> None:
        import json

        settings = dict(driver=self.driver, rate=self.rate, voice=self.voice, volume=self.volume, pitch=self.pitch)
        settings["apart_from"] = self.apart_from  # type: ignore[assignment]
        try:
            self._child = subprocess.Popen(
                [sys.executable, "-m", "assistant.speech.engine_process", json.dumps(settings)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                close_fds=True,
                start_new_session=True,
            )
        except OSError as exc:
            raise BackendUnavailable(engine_unavailable("pyttsx3", exc.strerror or str(exc))) from None

    def retune(self, dial: str, value: int) -> bool:
        """A dial turned: the next sentence is rendered by an engine opened with it in a new child process. The
        engine in the app's process keeps the dials it opened with: pyttsx3's espeak-ng driver keeps them in the
        library's state, shared by every engine of the process, where a dial set after it has spoken was missed in
        few of the renders, even by an engine made again (measured); an engine opened in a process that has not
        spoken takes them always. SAPI5 has no pitch."""
        super().retune(dial, value)
        self._retuned = True
        return not (dial == "pitch" and self.driver == "sapi5")

    def _end_child(self) -> None:
        if self._child is not None:
            end_process(self._child)
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                self._child.wait(RENDER_TIMEOUT)
            self._child = None

    def render(self, text: str, path: Path, *, ahead: bool = False) -> None:
        """Write `text` to `path`, in this process or through the child's engine."""
        if self._retuned:  # (the engine in this process, if any, is let go: its driver stays held here)
            self._retuned, self._engine = False, None
            self._end_child()
            try:
                self._start_child()
            except BackendUnavailable as exc:
                raise SpeechError(str(exc)) from None
        if self._engine is not None:
            self._engine.render(text, path, self._rate(), self.volume, self.pitch)
            return
        self._render_in_child(text, path)

    def _render_in_child(self, text: str, path: Path) -> None:
        import json

        child = self._child
        if child is None or child.stdin is None or child.stdout is None:
            raise SpeechError(engine_unavailable("pyttsx3", ENGINE_UNFINISHED))
        watchdog = threading.Timer(max(RENDER_TIMEOUT, len(text) / 250), end_process, [child])
        watchdog.start()
        try:
            asked = dict(text=text, path=str(path), rate=self._rate(), volume=self.volume, pitch=self.pitch)
            child.stdin.write((json.dumps(asked) + "\n").encode())
            child.stdin.flush()
            answer = json.loads(child.stdout.readline() or b"{}")
        except (OSError, ValueError):
            answer = {}
        finally:
            watchdog.cancel()
        for notice in answer.get("notices", []):
            self._report(notice, notice)
        if "done" not in answer:
            raise SpeechError(answer.get("error") or engine_unavailable("pyttsx3", ENGINE_UNFINISHED))

    def _let_go(self) -> None:
        with _IN_PROCESS_LOCK:
            if _IN_PROCESS.get(self.driver) is self:
                del _IN_PROCESS[self.driver]

    def close(self) -> None:
        """Free this driver's engine for another backend, end the child process and remove the files."""
        self._let_go()
        self._end_child()
        super().close()


class EspeakBackend(WavBackend):
    """The espeak-ng program: renders a WAV for the player, or with no player speaks to the device itself (the
    espeak-ng process is then what gets killed)."""

    name = "espeak-ng"

    def __init__(self, player: Player | None, private_player: Player | None = None, *, rate: int = 50,
                 voice: str = "", volume: int = 100, pitch: int = 50) -> None:  # fmt: skip
        super().__init__(player, private_player)
        self.rate, self.voice, self.volume, self.pitch = rate, voice, volume, pitch
        self.program = ""

    def open(self) -> None:
        """Find the program."""
        self.program = shutil.which("espeak-ng") or shutil.which("espeak") or ""
        if not self.program:
            raise BackendUnavailable(engine_unavailable("espeak-ng", ENGINE_NOT_INSTALLED))

    def _options(self) -> list[str]:
        # espeak-ng's own scales: 80 to 450 words a minute (175 normal), amplitude 0 to 200 (100 normal), pitch 0 to
        # 99 (50 normal)
        options = ["-s", str(int(scale(self._rate(), 80, 175, 450))), "-a", str(self.volume)]
        options += ["-p", str(min(self.pitch, 99))]
        voice = self.voice or (espeak_apart(self.apart_from) if self.apart_from is not None else "")
        return options + (["-v", voice] if voice else [])

    def render(self, text: str, path: Path, *, ahead: bool = False) -> None:
        """Write `text` to `path` (the text goes in on stdin, so a text starting with "-" is not an option); a
        sentence rendered ahead at a lower priority (`start_quietly`)."""
        try:
            process = start_quietly(
                [self.program, *self._options(), "-w", str(path)],
                stdin=subprocess.PIPE,
                nicer_by=AHEAD_NICENESS if ahead else 0,
            )
        except OSError as exc:
            raise SpeechError(engine_unavailable("espeak-ng", exc.strerror or str(exc))) from None
        with self._lock:  # as in `_register`: a cancel either finds this process or has already changed `_wanted`
            if not self._wanted():
                end_process(process)
            self._render_process = process
        try:
            process.communicate(text.encode("utf-8"), timeout=max(RENDER_TIMEOUT, len(text) / 250))
        except subprocess.TimeoutExpired:
            end_process(process)
            process.wait()
        except OSError:
            process.wait()  # killed by a cancel while its input was being written
        with self._lock:
            self._render_process = None
        if process.returncode != 0 or _frames(path) == 0:
            if process.returncode < 0:
                return  # cut off by a cancel: nothing is played, since the utterance is no longer wanted
            raise SpeechError(engine_unavailable("espeak-ng", engine_stopped(process.returncode)))

    def _speak_directly(self, pieces: list[str], wanted: Callable[[], bool]) -> None:
        """No player program: espeak-ng plays each sentence on the default device itself."""
        for piece in pieces:
            if not wanted():
                return
            try:
                process = start_quietly([self.program, *self._options()], stdin=subprocess.PIPE, errors=True)
            except OSError as exc:
                self._report("espeak-ng", player_missing("espeak-ng", exc.strerror or str(exc)))
                return
            if self._register(process, wanted) is None:
                return
            complaint = b""
            with contextlib.suppress(OSError):  # a killed process has closed its stdin
                complaint = process.communicate(piece.encode("utf-8"))[1] or b""
            with self._lock:
                self._process = None
            if process.returncode > 0 or (process.returncode == 0 and b"error" in complaint.lower()):
                # no sound device it can reach (it still exits 0, saying "error: ..."): said once, never claimed
                self._report("espeak-ng by itself", sounds_by_themselves_failed("espeak-ng"))
                return

    def describe(self) -> str:
        """ "Speech: espeak-ng, played with aplay." or straight to the sound device."""
        return speech_backend_chosen(self.name, self.player.name if self.player else "espeak-ng")


def espeak_apart(voice: str) -> str:
    """An espeak-ng voice that is not `voice`: the same language in a variant of the other gender ("" or "en" gives
    "en+f3", "en-gb+f2" gives "en-gb+m3")."""
    language, _, variant = (voice or "en").partition("+")
    return f"{language}+{'m3' if variant.startswith('f') else 'f3'}"


def voice_apart(voices: list[tuple[str, str]], current: str) -> str:
    """Of an engine's voices (id and gender, as pyttsx3 lists them), one that is not `current`: of another gender
    than it where the genders are known, else the first other; "" when there is no other."""
    others = [(vid, gender) for vid, gender in voices if vid != current]
    genders = {vid: gender.lower() for vid, gender in voices}
    mine = genders.get(current, "")
    differing = [vid for vid, gender in others if mine and gender and gender.lower() != mine]
    return (differing or [vid for vid, _ in others] or [""])[0]


def wav_seconds(path: Path) -> float:
    """How long a WAV file plays; 0 when it cannot be read."""
    try:
        with wave.open(str(path), "rb") as reader:
            return reader.getnframes() / float(reader.getframerate() or 1)
    except (OSError, EOFError, wave.Error):
        return 0.0


def _frames(path: Path) -> int:
    try:
        with wave.open(str(path), "rb") as sound:
            return sound.getnframes()
    except (OSError, EOFError, wave.Error):
        return 0
