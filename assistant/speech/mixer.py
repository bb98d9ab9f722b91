"""One sound output for the whole app, mixed in this process: both voices and the earcons play at once through a
single kept stream, each sound panned as it was rendered, each stopped at once.

Why (docs/speech.md, "The table's voice"): a player program per sentence cost a process start before every sentence
of a move, and Windows' `winsound` plays one sound at a time in a process, so a second voice could not exist there.
The mixer adds the samples of every sound playing now, a block at a time, and writes the block to one output stream
that stays open (`PortAudioSink`: sounddevice, PortAudio's portable stream, with wheels carrying PortAudio for
Windows and macOS; Debian's libportaudio2 on Linux). The system mixes that stream with the screen reader's own
speech, as it mixes any two programs.

Pacing: the mixer writes at most `LEAD_S` ahead of its clock. A sound card would make the writes wait by itself; a
device that takes samples as fast as they come (ALSA's null device, which the tests capture through) would
otherwise take a whole sentence in a millisecond. A sound counts as ended when its last sample is due to be heard
(its place in the stream, on the same clock), so the speech worker holds its sentence as long as it is heard.

A sound is a `Playing` (`player.py`): `poll`, `wait` and `kill`, as a player process is; killing it takes it out
of the mix at the next block (`BLOCK_S`), and what was already written (at most `LEAD_S`) plays out.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import subprocess
import sys
import threading
import time
import wave
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

#: The stream's rate: espeak-ng's and the earcons' own, so most sounds are mixed without resampling.
RATE = 22050
#: Samples a block holds: 20 ms.
BLOCK = RATE // 50
#: How far ahead of the clock the mixer may have written (what a cut still lets play, at most).
LEAD_S = 0.06
#: What `Playing.returncode` says of a sound that played to its end, was killed, or could not be played.
ENDED, KILLED, FAILED = 0, -9, 1


class PlayedHere:
    """A sound played in this process (the mixer's, or one `winsound` plays), waited on as a player's process is:
    `returncode` set, then `_done`, once it ended; `NAME` is what a wait that timed out names."""

    NAME = "sound"
    returncode: int | None
    _done: threading.Event

    def poll(self) -> int | None:
        """The return code, or None while it plays."""
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait until it was heard to its end, killed or failed; the return code (`KILLED` when it was stopped)."""
        if not self._done.wait(timeout):
            raise subprocess.TimeoutExpired(self.NAME, timeout or 0)
        return self.returncode if self.returncode is not None else KILLED


class Sink(Protocol):
    """Where mixed blocks go: a stream of 16-bit stereo samples at `RATE`."""

    def open(self) -> None:
        """Open the stream; OSError (or the library's own error) when it cannot be opened."""

    def write(self, block: Any) -> None:
        """Write a block (a numpy array of int16, shape (frames, 2))."""

    def close(self) -> None:
        """Close the stream."""


class PortAudioSink:
    """sounddevice's output stream (PortAudio), kept open: `device` as the settings name it ("" for the default)."""

    def __init__(self, device: str = "") -> None:
        self.device = device
        self._stream: Any = None

    def open(self) -> None:
        with quiet_native_output():
            import sounddevice

            stream = sounddevice.OutputStream(
                samplerate=RATE, channels=2, dtype="int16", device=self.device or None, latency="low"
            )
            stream.start()
        self._stream = stream

    def write(self, block: Any) -> None:
        self._stream.write(block)

    def close(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            try:
                stream.stop()
                stream.close()
            except Exception:  # a device gone away: nothing more to close
                pass


def portaudio_available(device: str = "") -> bool:
    """Whether sounddevice imports (PortAudio found) and has an output device of that name (any, when "")."""
    try:
        with quiet_native_output():
            import sounddevice

            sounddevice.query_devices(device or None, kind="output")
    except Exception:  # ImportError, OSError (no PortAudio library), ValueError (no such device)
        return False
    return True


_silenced: list[Any] = []


@contextlib.contextmanager
def quiet_native_output() -> Iterator[None]:
    """Native libraries print to the process's own stderr, the terminal the app draws on: PortAudio's start looks at
    every sound device, and alsa-lib and JACK say what they did not find ("Unknown PCM cards.pcm.rear"), and alsa-lib
    later says each underrun. alsa-lib is given a handler that says nothing (Linux), and while PortAudio starts or
    opens a stream, stderr is sent to the null device."""
    if sys.platform.startswith("linux") and not _silenced:
        with contextlib.suppress(OSError, AttributeError, TypeError):
            library = ctypes.util.find_library("asound")
            if library:
                handler = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                           ctypes.c_char_p)(lambda *args: None)  # fmt: skip
                ctypes.CDLL(library).snd_lib_error_set_handler(handler)
                _silenced.append(handler)  # kept alive: alsa-lib calls it for as long as the process runs
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


@dataclass(eq=False)
class MixedSound(PlayedHere):
    """One sound in the mix, held by the caller as a `Playing`."""

    NAME = "mixer"

    samples: Any
    """float32 array, shape (frames, 2), 1.0 full scale."""
    label: str = ""
    returncode: int | None = None
    began: float | None = None
    """The mixer's clock when its first samples were written to the stream (None until then)."""
    position: int = 0
    _done: threading.Event = field(default_factory=threading.Event)
    _mixer: Mixer | None = None

    def kill(self) -> None:
        """Take it out of the mix now."""
        if self._mixer is not None:
            self._mixer.end(self, KILLED)

    def _finish(self, code: int) -> None:
        if self.returncode is None:
            self.returncode = code
        self._done.set()


class Mixer:
    """Mixes every sound playing into one kept stream from a thread of its own; `play` returns at once."""

    def __init__(
        self,
        sink: Sink,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.sink = sink
        self.clock, self.sleep = clock, sleep
        self.failure = ""
        """Why the stream could not be opened ("" while it could)."""
        self._cond = threading.Condition()
        self._sounds: list[MixedSound] = []
        self._ending: list[tuple[float, MixedSound]] = []
        """Sounds whose last sample is written, with the moment it is heard."""
        self._opened = False
        self._closing = False
        self._thread: threading.Thread | None = None
        self._start = 0.0
        self._written = 0
        """Samples written since `_start`, the clock's moment the stream last began to be fed."""

    def play(self, samples: Any, label: str = "") -> MixedSound:
        """Add a sound (float32, shape (frames, 2)) to the mix; it begins with the next block."""
        sound = MixedSound(samples, label, _mixer=self)
        with self._cond:
            if self._closing or self.failure:
                sound._finish(FAILED)
                return sound
            self._sounds.append(sound)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="mixer", daemon=True)
                self._thread.start()
            self._cond.notify_all()
        return sound

    def play_file(self, path: Path | str, label: str = "") -> MixedSound:
        """Add a WAV file to the mix (mono in the middle, stereo as it is; another rate resampled); OSError when it
        cannot be read."""
        return self.play(read_samples(Path(path)), label)

    def end(self, sound: MixedSound, code: int) -> None:
        """Take a sound out of the mix (killed), or out of those waiting to be heard."""
        with self._cond:
            if sound in self._sounds:
                self._sounds.remove(sound)
            self._ending = [(at, s) for at, s in self._ending if s is not sound]
            sound._finish(code)
            self._cond.notify_all()

    @property
    def busy(self) -> bool:
        """A sound is playing or still to be heard."""
        with self._cond:
            return bool(self._sounds or self._ending)

    def close(self) -> None:
        """End every sound and the thread, and close the stream."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        with self._cond:
            for sound in [*self._sounds, *(s for _, s in self._ending)]:
                sound._finish(KILLED)
            self._sounds, self._ending = [], []
        self.sink.close()

    def _run(self) -> None:
        import numpy as np

        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closing or self._sounds or self._ending)
                if self._closing:
                    return
                now = self.clock()
                self._heard(now)
                if not (self._sounds or self._ending) or not self._open_locked():
                    continue
                # (only sounds still to be heard: a block of silence, paced as any, until they are)
                if not self._written or self._start + self._written / RATE < now:  # idle meanwhile: a new start
                    self._start, self._written = now, 0
                block = np.zeros((BLOCK, 2), dtype=np.float32)
                for sound in list(self._sounds):
                    piece = sound.samples[sound.position : sound.position + BLOCK]
                    block[: len(piece)] += piece
                    if sound.began is None:
                        sound.began = now
                    sound.position += len(piece)
                    if sound.position >= len(sound.samples):
                        self._sounds.remove(sound)
                        at = self._start + (self._written + len(piece)) / RATE
                        self._ending.append((at, sound))
                self._written += BLOCK
                ahead = self._start + self._written / RATE - now - LEAD_S
            try:
                self.sink.write(np.clip(block * 32768, -32768, 32767).astype(np.int16))  # (16-bit samples exact)
            except Exception as exc:  # the device went away: every sound fails, said once by its player
                self._fail(f"{exc.__class__.__name__}: {exc}")
                continue
            if ahead > 0:
                self.sleep(ahead)

    def _heard(self, now: float) -> None:
        """Finish the sounds whose last sample is heard by `now` (under the lock)."""
        due = [(at, s) for at, s in self._ending if at <= now]
        for _, sound in due:
            sound._finish(ENDED)
        if due:
            self._ending = [(at, s) for at, s in self._ending if at > now]
            self._cond.notify_all()

    def _open_locked(self) -> bool:
        if self._opened:
            return True
        try:
            self.sink.open()
        except Exception as exc:  # OSError, PortAudioError: no device here
            self._fail_locked(f"{exc.__class__.__name__}: {exc}")
            return False
        self._opened = True
        return True

    def _fail(self, reason: str) -> None:
        with self._cond:
            self._fail_locked(reason)

    def _fail_locked(self, reason: str) -> None:
        self.failure = reason
        for sound in [*self._sounds, *(s for _, s in self._ending)]:
            sound._finish(FAILED)
        self._sounds, self._ending = [], []
        self._cond.notify_all()


def read_samples(path: Path) -> Any:
    """A 16-bit WAV file's samples as float32 stereo at `RATE` (mono heard in the middle); OSError when it cannot be
    read."""
    import numpy as np

    try:
        with wave.open(str(path), "rb") as sound:
            params = sound.getparams()
            raw = sound.readframes(params.nframes)
    except (EOFError, wave.Error) as exc:
        raise OSError(f"{path.name}: {exc}") from None
    if params.sampwidth != 2 or params.nchannels not in (1, 2):
        raise OSError(f"{path.name}: not 16-bit mono or stereo")
    samples = np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768
    samples = samples.reshape(-1, params.nchannels)
    if params.nchannels == 1:
        samples = np.repeat(samples, 2, axis=1)
    if params.framerate != RATE and len(samples):
        count = round(len(samples) * RATE / params.framerate)
        where = np.linspace(0, len(samples) - 1, count)
        samples = np.stack([np.interp(where, np.arange(len(samples)), samples[:, c]) for c in (0, 1)], axis=1)
    return samples.astype(np.float32)


_shared: dict[str, Mixer] = {}
_shared_lock = threading.Lock()


def shared_mixer(device: str = "") -> Mixer:
    """The one mixer of this process for a device: every voice and earcon on it plays in one stream."""
    with _shared_lock:
        mixer = _shared.get(device)
        if mixer is None or mixer.failure:
            mixer = _shared[device] = Mixer(PortAudioSink(device))
        return mixer
