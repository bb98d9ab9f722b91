"""Playing a sound file so that it can be stopped at once, and never writes to the terminal.

On Linux and macOS the player is a separate program, so "stop, here is the next card" is a kill, not a wait for a
library to finish; its output goes to DEVNULL because a stray error line from it would overwrite a line of the
Textual screen. On Windows the standard library's `winsound` plays the WAV file's bytes in this process
(`PlaySound` with `SND_MEMORY`, on a thread of its own), so no process is started per sentence; stopping it is
`PlaySound(None)`. Either way the caller holds a `Playing`: it waits on it, polls it and kills it alike. A player
that is missing or fails is reported by the caller in words, never as a traceback.

Which player, is chosen at run time for the platform: first the app's own mixer (`mixer.py`: every sound of the app
in one kept stream, mixed in this process, on every platform where PortAudio has an output device); else aplay,
paplay or pw-play on Linux; afplay on macOS; winsound on Windows.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

from assistant.core.words.outage import System, player_not_installed, player_unknown, portaudio_missing
from assistant.speech.mixer import KILLED, PlayedHere

#: The players looked for, in order, when the setting is "auto", by platform (`sys.platform`; Linux and the other
#: Unix systems under "").
PLAYER_NAMES = {
    "": ("sounddevice", "aplay", "paplay", "pw-play"),
    "darwin": ("sounddevice", "afplay"),
    "win32": ("sounddevice", "winsound"),
}
#: Every player the app can use, on some platform.
KNOWN = ("sounddevice", "aplay", "paplay", "pw-play", "afplay", "winsound")
#: The players that can play two sounds at once, so that a second voice is heard beside the first: the mixer, and the
#: programs whose processes the system mixes (PipeWire, PulseAudio, ALSA's dmix). Not winsound: one sound at a time.
MIXING = ("sounddevice", "aplay", "paplay", "pw-play", "afplay")

#: How often, and how many seconds apart, a stop is said to a sound `winsound` plays before its thread gives up.
STOP_TRIES, STOP_WAIT = 5, 0.05


class Playing(Protocol):
    """A sound being played: a player's child process (`subprocess.Popen`), or `WinsoundPlaying` in this process."""

    returncode: int | None
    """None while it plays; 0 when it played to its end; negative when it was killed; positive when it failed."""

    def poll(self) -> int | None:
        """The return code, or None while it plays."""

    def wait(self, timeout: float | None = None) -> int:
        """Wait for its end; the return code."""

    def kill(self) -> None:
        """Stop it now."""


class WinsoundPlaying(PlayedHere):
    """One WAV file played in this process by `winsound` (Windows): its bytes given to `PlaySound` with
    `SND_MEMORY` on a thread of its own (`PlaySound` plays from memory only synchronously), so the caller waits on
    it as on a player process, and `kill` stops it at once with `PlaySound(None)`. Windows plays one such sound at
    a time in a process: a new one cuts the one before off, as a new earcon does anyway."""

    NAME = "winsound"

    def __init__(self, data: bytes, winsound: Any) -> None:
        self.returncode = None
        self._winsound = winsound
        self._lock = threading.Lock()
        self._killed = False
        self._started = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._play, args=(data,), name="winsound", daemon=True)
        self._thread.start()

    def _play(self, data: bytes) -> None:
        with self._lock:  # killed before it began: never played
            self._started = not self._killed
        code = KILLED
        if self._started:
            try:
                self._winsound.PlaySound(data, self._winsound.SND_MEMORY | self._winsound.SND_NODEFAULT)
                code = 0
            except RuntimeError:  # no sound device, or a file winsound cannot play
                code = 1
        self.returncode = KILLED if self._killed else code
        self._done.set()

    def kill(self) -> None:
        """Stop the sound now (any sound `winsound` plays in this process)."""
        with self._lock:
            self._killed = True
            started = self._started
        # A stop that came between the thread's start and the sound's is said again, a few times at most.
        for _ in range(STOP_TRIES if started else 0):
            if self._done.is_set():
                return
            self._winsound.PlaySound(None, 0)
            if self._done.wait(STOP_WAIT):
                return


def player_names(platform: str = sys.platform) -> tuple[str, ...]:
    """The players tried, in order, on `platform`."""
    return PLAYER_NAMES.get(platform, PLAYER_NAMES[""])


def player_command(name: str, device: str = "") -> list[str]:
    """The command line (without the file) that plays a WAV file on `device` (the default device when empty;
    afplay and winsound play on the system's default device only)."""
    if name in ("winsound", "sounddevice"):
        return []  # played in this process (`WinsoundPlaying`, `mixer.MixedSound`)
    if name == "afplay":
        return ["afplay"]
    if name == "aplay":
        return ["aplay", "-q", *(["-D", device] if device else [])]
    if name == "paplay":
        return ["paplay", *([f"--device={device}"] if device else [])]
    if name == "pw-play":
        return ["pw-play", *(["--target", device] if device else [])]
    raise ValueError(f"unknown player {name}")


@dataclass(frozen=True)
class Player:
    """A command that plays one WAV file given as its last argument, or the `winsound` module that plays it in this
    process."""

    command: tuple[str, ...]
    """The program and its options, the file left out (empty for winsound)."""
    winsound: Any = None
    """The standard library's `winsound` (Windows), which plays the file in this process; None: a program does."""
    mixer: Any = None
    """The app's own mixer (`mixer.Mixer`), which plays the file in this process, mixed with every other sound."""

    @property
    def name(self) -> str:
        """The program's name, for the sentences the player hears."""
        if self.mixer is not None:
            return "sounddevice"
        return "winsound" if self.winsound is not None else Path(self.command[0]).name

    @property
    def mixes(self) -> bool:
        """Whether a second sound started meanwhile is heard with the first (`MIXING`)."""
        return self.name in MIXING

    @classmethod
    def find(cls, name: str = "auto", device: str = "", platform: str = sys.platform) -> Player | None:
        """The named player (or the first of the platform's players that is installed), or None."""
        for candidate in player_names(platform) if name == "auto" else (name,):
            if candidate not in KNOWN:
                continue  # a program the app cannot drive (`choose` says so)
            if candidate == "sounddevice":
                from assistant.speech.mixer import portaudio_available, shared_mixer

                if portaudio_available(device):
                    return cls((), mixer=shared_mixer(device))
            elif candidate == "winsound":
                module = _winsound(platform)
                if module is not None:
                    return cls((), module)
            elif shutil.which(candidate) is not None:
                return cls(tuple(player_command(candidate, device)))
        return None

    @classmethod
    def choose(cls, name: str = "auto", device: str = "", platform: str = sys.platform) -> tuple[Player | None, str]:
        """The player for the `player` setting, and a sentence when the setting cannot be honoured as it is: a
        named player that is not installed (the platform's first one plays instead, said with its name), or
        PortAudio missing where the app's own mixer would play (said with the fix); "" when all is as set."""
        chosen = cls.find(name, device, platform)
        if chosen is not None and (chosen.mixer is not None or name != "auto"):
            return chosen, ""
        if chosen is None and name != "auto":
            chosen = cls.find("auto", device, platform)
        instead = chosen.name if chosen is not None else ""
        if name in ("auto", "sounddevice") and "sounddevice" in player_names(platform):
            from assistant.speech.mixer import portaudio_installed

            if not portaudio_installed():
                return chosen, portaudio_missing(instead, system_of(platform))
        if name == "auto":
            return chosen, ""
        if name not in KNOWN and shutil.which(name) is not None:
            return chosen, player_unknown(name, KNOWN, instead)
        return chosen, player_not_installed(name, instead)

    @property
    def reports_itself(self) -> bool:
        """Whether what makes its sounds fail is said by the player's own channel (the mixer tells of the device
        lost and back, once each), so a sound that failed is not said again."""
        return self.mixer is not None

    def start(self, path: Path | str) -> Playing:
        """Start playing `path`; OSError when the program cannot be started (missing, not executable) or the file
        cannot be read."""
        if self.mixer is not None:
            sound: Playing = self.mixer.play_file(path)  # (`mixer.MixedSound`)
            return sound
        if self.winsound is not None:
            return WinsoundPlaying(Path(path).read_bytes(), self.winsound)
        return start_quietly([*self.command, str(path)])


#: The groups whose members may use sudo on Debian and Ubuntu.
SUDO_GROUPS = ("sudo", "admin")


def system_of(platform: str = sys.platform) -> System:
    """The computer a missing piece's fix is said for (`outage.System`): Windows, macOS, or Linux, on Debian or
    Ubuntu (apt) as root, as a user who may use sudo, or as one who may not."""
    if platform == "win32":
        return System.WINDOWS
    if platform == "darwin":
        return System.MACOS
    if shutil.which("apt-get") is None:
        return System.LINUX
    if getattr(os, "geteuid", lambda: -1)() == 0:
        return System.DEBIAN_ROOT
    return System.DEBIAN_SUDO if _in_groups(SUDO_GROUPS) else System.DEBIAN_USER


def _in_groups(names: tuple[str, ...]) -> bool:
    """Whether this user is in one of the groups named."""
    try:
        import grp

        return any(grp.getgrgid(gid).gr_name in names for gid in os.getgroups())
    except (ImportError, KeyError, OSError):
        return False


def _winsound(platform: str) -> Any:
    """The standard library's `winsound`: part of Python on Windows, nowhere else (None)."""
    if platform != "win32":
        return None
    try:
        import winsound
    except ImportError:
        return None
    return winsound


def start_quietly(
    command: list[str], stdin: int | IO[bytes] = subprocess.DEVNULL, *, nicer_by: int = 0, errors: bool = False
) -> subprocess.Popen[bytes]:
    """Start a child process whose output can never reach the terminal, in a process group of its own, so Ctrl+C
    in the terminal is the app's to handle, not the child's. A child with no `nicer_by` runs in a session of
    its own: where Linux gives each session an equal share of the cores (its "autogroup"), it does not share the
    app's. One with `nicer_by` stays in the app's session, that many steps nicer than the app, so that it yields
    the cores to the app (a niceness counts only within a session there); it is lowered before it reads its
    input. With `errors`, what it writes on stderr is kept for the caller (`communicate`) instead: never the
    terminal's either way."""
    process = subprocess.Popen(
        command,
        stdin=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE if errors else subprocess.DEVNULL,
        close_fds=True,
        start_new_session=not nicer_by,
        process_group=0 if nicer_by else None,
    )
    if nicer_by:
        with contextlib.suppress(OSError, AttributeError):  # not on Windows; or the child has already ended
            os.setpriority(os.PRIO_PROCESS, process.pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + nicer_by))
    return process


def end_process(process: Playing | subprocess.Popen[bytes] | None) -> None:
    """Kill a child process (or a sound played in this process) if it still runs (a finished one is left alone)."""
    if process is not None and process.poll() is None:
        try:
            process.kill()
        except OSError:
            pass  # it ended between the poll and the kill
