"""Playing a sound file in a child process that can be killed at once, and that never writes to the terminal.

The player is a separate program so "stop, here is the next card" is a kill, not a wait for a library to finish;
its output goes to DEVNULL because a stray error line from it would overwrite a line of the Textual screen. A player
that is missing or fails is reported by the caller in words, never as a traceback.

Which program, is chosen at run time for the platform: aplay, paplay or pw-play on Linux; afplay on macOS; on
Windows "winsound", a Python child process playing the file with the standard library's `winsound` (killing the
process stops the sound, as with the others).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

#: The players looked for, in order, when the setting is "auto", by platform (`sys.platform`; Linux and the other
#: Unix systems under "").
PLAYER_NAMES = {"": ("aplay", "paplay", "pw-play"), "darwin": ("afplay",), "win32": ("winsound",)}

#: The Windows player: the file is played synchronously, so the process lives exactly as long as the sound.
WINSOUND_PROGRAM = (
    "import sys, winsound; winsound.PlaySound(sys.argv[1], winsound.SND_FILENAME | winsound.SND_NODEFAULT)"
)


def player_names(platform: str = sys.platform) -> tuple[str, ...]:
    """The players tried, in order, on `platform`."""
    return PLAYER_NAMES.get(platform, PLAYER_NAMES[""])


def player_command(name: str, device: str = "") -> list[str]:
    """The command line (without the file) that plays a WAV file on `device` (the default device when empty;
    afplay and winsound play on the system's default device only)."""
    if name == "winsound":
        return [sys.executable, "-c", WINSOUND_PROGRAM]
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
    """A command that plays one WAV file given as its last argument."""

    command: tuple[str, ...]
    """The program and its options, the file left out."""

    @property
    def name(self) -> str:
        """The program's name, for the sentences the player hears."""
        return "winsound" if WINSOUND_PROGRAM in self.command else Path(self.command[0]).name

    @classmethod
    def find(cls, name: str = "auto", device: str = "", platform: str = sys.platform) -> Player | None:
        """The named player (or the first of the platform's players that is installed), or None."""
        for candidate in player_names(platform) if name == "auto" else (name,):
            if _installed(candidate, platform):
                return cls(tuple(player_command(candidate, device)))
        return None

    def start(self, path: Path | str) -> subprocess.Popen[bytes]:
        """Start playing `path`; OSError when the program cannot be started (missing, not executable)."""
        return start_quietly([*self.command, str(path)])


def _installed(name: str, platform: str) -> bool:
    if name == "winsound":  # part of Python on Windows, nowhere else
        return platform == "win32"
    return shutil.which(name) is not None


def start_quietly(command: list[str], stdin: int | IO[bytes] = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """Start a child process whose output can never reach the terminal."""
    return subprocess.Popen(
        command,
        stdin=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
        start_new_session=True,  # Ctrl+C in the terminal is the app's to handle, not the player's
    )


def end_process(process: subprocess.Popen[bytes] | None) -> None:
    """Kill a child process if it still runs (a finished one is left alone)."""
    if process is not None and process.poll() is None:
        try:
            process.kill()
        except OSError:
            pass  # it ended between the poll and the kill
