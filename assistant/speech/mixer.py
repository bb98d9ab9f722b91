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

from assistant.core.words.outage import SoundLoss

#: The stream's rate: espeak-ng's and the earcons' own, so most sounds are mixed without resampling.
RATE = 22050
#: Samples a block holds: 20 ms.
BLOCK = RATE // 50
#: How far ahead of the clock the mixer may have written (what a cut still lets play, at most).
LEAD_S = 0.06
#: What `Playing.returncode` says of a sound that played to its end, was killed, or could not be played.
ENDED, KILLED, FAILED = 0, -9, 1
#: Seconds a call to the device may take before the device counts as lost: opening (a sound server or a Bluetooth
#: headset may take a moment), writing a block (a working device takes one within its latency).
OPEN_TIMEOUT, WRITE_TIMEOUT = 2.0, 1.0
#: Seconds between tries to open a device that was lost, growing to the last (the device back within this much).
RETRY_S = (0.25, 0.5, 1.0, 2.0)
#: How often the watchdog looks at the call under way, seconds.
WATCH_S = 0.05
#: How long closing waits for the mixer's thread, then for the stream's close, before abandoning them.
CLOSE_WAIT = 0.2
#: Opens of the device given up while they had not returned (each on a thread of its own, left to return when it
#: does), at most: a fresh stream is opened in place of each, so a device that comes back while an open of it never
#: returns (a sound server restarted while the old one hangs) is used again. At most this many threads are left
#: waiting (about 70 s of tries, each `OPEN_TIMEOUT` plus the first of `RETRY_S` after the last, so a device back
#: is found within about 2.5 s); then the mixer waits on the last call, whose return is the device back.
MAX_STUCK = 32


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
    """Where mixed blocks go: a stream of 16-bit stereo samples at `RATE`. Any call may block for as long as the
    device does (a hung sound server, a FIFO nobody reads): the mixer makes them outside its lock and watches them."""

    def open(self) -> None:
        """Open the stream; OSError (or the library's own error) when it cannot be opened."""

    def write(self, block: Any) -> None:
        """Write a block (a numpy array of int16, shape (frames, 2))."""

    def close(self) -> None:
        """Close the stream."""


class FreshSink(Sink, Protocol):
    """A sink that can make another of its kind: a stream of its own, opened while a call to this one never
    returns (`Mixer`: the stuck call is given up and the fresh sink opened in its place)."""

    def fresh(self) -> Sink:
        """Another sink to the same device, not opened."""


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

    def fresh(self) -> PortAudioSink:
        """A stream of its own to the same device (PortAudio opens one while another thread's open is stuck)."""
        return PortAudioSink(self.device)

    def close(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            try:
                stream.abort()  # (not `stop`, which waits for what was written to be played: a stuck device never)
                stream.close()
            except Exception:  # a device gone away: nothing more to close
                pass

    @staticmethod
    def abandon() -> None:
        """A call to the stream never returned: sounddevice's exit handler would close every stream as the process
        ends and wait on this one for as long as the device blocks (quit would hang), so it is taken off."""
        import atexit

        module = sys.modules.get("sounddevice")
        handler = getattr(module, "_exit_handler", None)
        if handler is not None:
            atexit.unregister(handler)


def portaudio_available(device: str = "") -> bool:
    """Whether sounddevice imports (PortAudio found) and has an output device of that name (any, when "")."""
    try:
        with quiet_native_output():
            import sounddevice

            sounddevice.query_devices(device or None, kind="output")
    except Exception:  # ImportError, OSError (no PortAudio library), ValueError (no such device)
        return False
    return True


def portaudio_installed() -> bool:
    """Whether the PortAudio library itself is here (sounddevice imports), whatever its devices."""
    try:
        with quiet_native_output():
            import sounddevice  # noqa: F401
    except Exception:  # ImportError, OSError: no PortAudio library
        return False
    return True


_silenced: list[Any] = []
_quiet_lock = threading.Lock()
_quiet: list[int] = []
"""While any thread is inside `quiet_native_output`: the saved stderr and how many are inside."""


@contextlib.contextmanager
def quiet_native_output() -> Iterator[None]:
    """Native libraries print to the process's own stderr, the terminal the app draws on: PortAudio's start looks at
    every sound device, and alsa-lib and JACK say what they did not find ("Unknown PCM cards.pcm.rear"), and alsa-lib
    later says each underrun. alsa-lib is given a handler that says nothing (Linux), and while PortAudio starts or
    opens a stream, stderr is sent to the null device. Threads may be inside at once (an open that blocks for as long
    as the device does, and a device looked up meanwhile): the first in sends stderr away, the last out brings it
    back, and no thread ever waits for another. The app's own stderr is kept from native text for its whole run
    too (`assistant.ui.terminal.native_output_to_log`)."""
    if sys.platform.startswith("linux") and not _silenced:
        with contextlib.suppress(OSError, AttributeError, TypeError):
            library = ctypes.util.find_library("asound")
            if library:
                handler = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                           ctypes.c_char_p)(lambda *args: None)  # fmt: skip
                ctypes.CDLL(library).snd_lib_error_set_handler(handler)
                _silenced.append(handler)  # kept alive: alsa-lib calls it for as long as the process runs
    with _quiet_lock:
        if not _quiet:
            try:
                saved = os.dup(2)
                with open(os.devnull, "wb") as null:
                    os.dup2(null.fileno(), 2)
            except OSError:
                saved = -1
            _quiet[:] = [saved, 0]
        _quiet[1] += 1
    try:
        yield
    finally:
        with _quiet_lock:
            _quiet[1] -= 1
            if not _quiet[1]:
                saved = _quiet[0]
                _quiet.clear()
                if saved >= 0:
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


@dataclass(frozen=True)
class DeviceChange:
    """The device was lost (`lost` is how) or is back (`lost` None): told once per change to the mixer's
    listeners."""

    lost: SoundLoss | None


class Mixer:
    """Mixes every sound playing into one kept stream from a thread of its own; `play` returns at once.

    No call to the device (open, write, close) is made under the mixer's lock, so a device that blocks never holds
    up a key: killing a sound, or adding one, takes the lock for microseconds. A watchdog thread gives a call up
    after `OPEN_TIMEOUT` or `WRITE_TIMEOUT` (the device counts as lost: every sound fails at once, and until it is
    back each new one fails at once too). A device that failed is opened again in the background, `RETRY_S` apart;
    a call that blocked and then returns is the device back. An open that does not return is given up when the sink
    can make a fresh one (`FreshSink`): the open is left on its thread, and a new thread opens the fresh sink, again
    and again while the device does not answer (`MAX_STUCK` opens left at most), so a device that comes back while
    the open never returns is used again. A write that does not return is waited on: the device took the stream and
    stopped taking sound, and a fresh stream to a device that hangs would open and take sound into its buffers
    for a moment, then block again (the device said back while it is not: a FIFO whose reader is stopped takes
    0.7 s). Each change is told once to `listeners`."""

    def __init__(
        self,
        sink: Sink,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        retry: tuple[float, ...] = RETRY_S,
        watch_every: float = WATCH_S,
    ) -> None:
        self.sink = sink
        self.clock, self.sleep = clock, sleep
        self.retry, self.watch_every = retry, watch_every
        self.failure = ""
        """Why the device is lost now, for a log or a test ("" while it works): a library's own words, never said."""
        self.lost: SoundLoss | None = None
        """How the device was lost, while it is (None while it works)."""
        self.listeners: list[Callable[[DeviceChange], None]] = []
        """Told of each loss and each return, once, on the mixer's or the watchdog's thread: they must only note
        or post it."""
        self.abandoned = False
        """Closed while a call to the device had not returned: the stream was left to the process's end."""
        self.stuck = 0
        """Opens of the device given up for a fresh sink that have not returned yet (`MAX_STUCK` at most)."""
        self.watched = 0
        """How many times the watchdog has looked at the call under way (each look decides, under the lock)."""
        self._generation = 0
        """The mixer's thread now: a thread whose call was given up (an older number) leaves everything to it."""
        self._cond = threading.Condition()
        self._sounds: list[MixedSound] = []
        self._ending: list[tuple[float, MixedSound]] = []
        """Sounds whose last sample is written, with the moment it is heard."""
        self._opened = False
        self._closing = False
        self._calling: tuple[str, float] | None = None
        """The device call under way and the clock's moment it began (the watchdog's to time)."""
        self._tries = 0
        """Tries to open the device since it was lost."""
        self._changes: list[DeviceChange] = []
        """Changes to tell, outside the lock."""
        self._thread: threading.Thread | None = None
        self._watchdog: threading.Thread | None = None
        self._start = 0.0
        self._written = 0
        """Samples written since `_start`, the clock's moment the stream last began to be fed."""

    def play(self, samples: Any, label: str = "") -> MixedSound:
        """Add a sound (float32, shape (frames, 2)) to the mix; it begins with the next block. While the device is
        lost it fails at once (its player says nothing more: the loss was said)."""
        sound = MixedSound(samples, label, _mixer=self)
        with self._cond:
            if self._closing or self.lost is not None:
                sound._finish(FAILED)
                return sound
            self._sounds.append(sound)
            self._start_threads_locked()
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

    def close(self, wait: float = CLOSE_WAIT) -> None:
        """End every sound and the threads, and close the stream; never longer than about `wait` twice, whatever
        the device does: a call to it that has not returned by then is abandoned (`abandoned`)."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
            thread, watchdog = self._thread, self._watchdog
            for sound in [*self._sounds, *(s for _, s in self._ending)]:
                sound._finish(KILLED)
            self._sounds, self._ending = [], []
        for each in (thread, watchdog):
            if each is not None and each is not threading.current_thread():
                each.join(timeout=wait)
        if thread is not None and thread.is_alive():  # stuck in a call to the device
            self._abandon()
            return
        closer = threading.Thread(target=self.sink.close, name="mixer-close", daemon=True)
        closer.start()
        closer.join(timeout=wait)
        if closer.is_alive():
            self._abandon()

    def _abandon(self) -> None:
        self.abandoned = True
        abandon = getattr(self.sink, "abandon", None)
        if abandon is not None:
            abandon()

    def _start_threads_locked(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, args=(self._generation,), name="mixer", daemon=True)
            self._thread.start()
            self._watchdog = threading.Thread(target=self._watch, name="mixer-watchdog", daemon=True)
            self._watchdog.start()

    def _run(self, generation: int) -> None:
        import numpy as np

        while True:
            with self._cond:
                if generation != self._generation:  # its call was given up: a fresh thread plays now
                    return
                if self.lost is not None and not self._closing and self._calling is None:
                    self._cond.wait(self.retry[min(max(self._tries - 1, 0), len(self.retry) - 1)])  # (close wakes it)
                    retry = not self._closing
                else:
                    self._cond.wait_for(lambda: self._closing or self._sounds or self._ending or self.lost)
                    retry = False
                if self._closing:
                    return
                self._heard(self.clock())
                idle = not (self._sounds or self._ending)
                must_open = not self._opened and (retry or not idle)
            if must_open:
                self._tell()
                if not self._call("open", generation):
                    continue
            if idle or self.lost is not None:
                self._tell()
                continue
            with self._cond:
                if self._closing:
                    return
                now = self.clock()
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
            samples = np.clip(block * 32768, -32768, 32767).astype(np.int16)  # (16-bit samples exact)
            if self._call("write", generation, samples) and ahead > 0:
                self.sleep(ahead)

    def _call(self, what: str, generation: int, *args: Any) -> bool:
        """Make a call to the device (`what`: "open" or "write", with `args`) outside the lock, timed by the
        watchdog; whether it worked. A call that fails loses the device (its stream closed, to be opened again); one
        that works after a loss brings it back. A call given up meanwhile for a fresh sink (`_give_up_locked`)
        leaves the mixer alone: its own sink is closed, and its thread ends."""
        with self._cond:
            if generation != self._generation:
                return False
            sink = self.sink
            self._calling = (what, self.clock())
        error: Exception | None = None
        try:
            getattr(sink, what)(*args)
        except Exception as exc:  # OSError, PortAudioError: no device, or it went away
            error = exc
        with self._cond:
            given_up = generation != self._generation
            if given_up:
                self.stuck -= 1
            else:
                self._calling = None
        if given_up:
            with contextlib.suppress(Exception):
                sink.close()  # (its stream, opened or not: the fresh sink plays)
            return False
        with self._cond:
            if self._closing:
                return False
            if error is None:
                self._opened = self._opened or what == "open"
                if self.lost is not None:
                    self._back_locked()
            else:
                self._opened = False
                self._lose_locked(
                    SoundLoss.CANNOT_OPEN if what == "open" else SoundLoss.WENT_AWAY,
                    f"{error.__class__.__name__}: {error}",
                )
                self._tries += 1
        self._tell()
        if error is not None and what == "write":
            sink.close()  # (opened again by the next try)
        return error is None

    def _watch(self) -> None:
        """Give up a device call that takes too long: the device is lost (its sounds fail now); the call going on
        is left to return when it does, which brings the device back."""
        while True:
            with self._cond:
                if self._closing:
                    return
                calling = self._calling
                if calling is not None:
                    what, since = calling
                    if self.clock() - since >= (OPEN_TIMEOUT if what == "open" else WRITE_TIMEOUT):
                        if self.lost is None:
                            self._lose_locked(SoundLoss.NOT_ANSWERING, f"the sound device's {what} did not return")
                        if what == "open":
                            self._give_up_locked()
                self.watched += 1
                self._cond.wait(self.watch_every)
            self._tell()

    def _give_up_locked(self) -> None:
        """The open under way has not returned in time: when the sink can make a fresh one and fewer than
        `MAX_STUCK` opens are left waiting, it is given up (left on its thread, to return when it does) and a new
        thread opens a fresh sink after the first pause of `retry` (the call given up already waited its timeout);
        else the mixer waits on it (its return is the device back). sounddevice's exit handler, which would wait on
        the stream left, is taken off."""
        fresh = getattr(self.sink, "fresh", None)
        if fresh is None or self.stuck >= MAX_STUCK or self._closing:
            return
        abandon = getattr(self.sink, "abandon", None)
        if abandon is not None:
            abandon()
        self.stuck += 1
        self._generation += 1
        self.sink, self._opened, self._calling = fresh(), False, None
        self._thread = threading.Thread(target=self._run, args=(self._generation,), name="mixer", daemon=True)
        self._thread.start()

    def _lose_locked(self, loss: SoundLoss, reason: str) -> None:
        self.failure = reason
        if self.lost is None:
            self.lost = loss
            self._tries = 0
            self._changes.append(DeviceChange(loss))
        for sound in [*self._sounds, *(s for _, s in self._ending)]:
            sound._finish(FAILED)
        self._sounds, self._ending = [], []
        self._cond.notify_all()

    def _back_locked(self) -> None:
        self.lost, self.failure, self._tries = None, "", 0
        self._written = 0
        self._changes.append(DeviceChange(None))
        self._cond.notify_all()

    def _tell(self) -> None:
        with self._cond:
            changes, self._changes = self._changes, []
            listeners = list(self.listeners)
        for change in changes:
            for listener in listeners:
                with contextlib.suppress(Exception):  # a listener that fails never stops the sound
                    listener(change)

    def _heard(self, now: float) -> None:
        """Finish the sounds whose last sample is heard by `now` (under the lock)."""
        due = [(at, s) for at, s in self._ending if at <= now]
        for _, sound in due:
            sound._finish(ENDED)
        if due:
            self._ending = [(at, s) for at, s in self._ending if at > now]
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
    """The one mixer of this process for a device: every voice and earcon on it plays in one stream. It is kept for
    the whole run: a device lost is opened again by the mixer itself."""
    with _shared_lock:
        mixer = _shared.get(device)
        if mixer is None or mixer._closing:
            mixer = _shared[device] = Mixer(PortAudioSink(device))
        return mixer


def close_shared_mixers() -> None:
    """Close every shared mixer (the app's quit): bounded, whatever the devices do."""
    with _shared_lock:
        mixers = list(_shared.values())
        _shared.clear()
    for mixer in mixers:
        mixer.close()
