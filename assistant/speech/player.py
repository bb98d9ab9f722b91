"""Playing a sound file in a child process that can be killed at once, and that never writes to the terminal.

The player is a separate program (aplay, paplay or pw-play) so "stop, here is the next card" is a kill, not a wait
for a library to finish; its output goes to DEVNULL because a stray error line from it would overwrite a line of
the Textual screen. A player that is missing or fails is reported by the caller in words, never as a traceback.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: The players looked for, in order, when the setting is "auto".
PLAYER_NAMES = ("aplay", "paplay", "pw-play")


def player_command(name: str, device: str = "") -> list[str]:
    """The command line (without the file) that plays a WAV file on `device` (the default device when empty)."""
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
        return Path(self.command[0]).name

    @classmethod
    def find(cls, name: str = "auto", device: str = "") -> Player | None:
        """The named player (or the first of aplay, paplay, pw-play that is installed), or None."""
        for candidate in PLAYER_NAMES if name == "auto" else (name,):
            if shutil.which(candidate):
                return cls(tuple(player_command(candidate, device)))
        return None

    def start(self, path: Path | str) -> subprocess.Popen:
        """Start playing `path`; OSError when the program cannot be started (missing, not executable)."""
        return start_quietly([*self.command, str(path)])


def start_quietly(command: list[str], stdin=subprocess.DEVNULL) -> subprocess.Popen:
    """Start a child process whose output can never reach the terminal."""
    return subprocess.Popen(
        command,
        stdin=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
        start_new_session=True,  # Ctrl+C in the terminal is the app's to handle, not the player's
    )


def end_process(process: subprocess.Popen | None) -> None:
    """Kill a child process if it still runs (a finished one is left alone)."""
    if process is not None and process.poll() is None:
        try:
            process.kill()
        except OSError:
            pass  # it ended between the poll and the kill
