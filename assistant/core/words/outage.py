"""Sentences about her output channels failing and coming back: the sound device, speech-dispatcher, and a setting
that cannot be honoured (docs/robustness.md, "Outages"). Each loss is said once, each return once, in plain words:
never a library's own error text."""

from __future__ import annotations

from enum import Enum

from assistant.core.text import clean_untrusted

__all__ = [
    "SoundLoss",
    "sound_lost",
    "SOUND_BACK",
    "reader_lost",
    "reader_back",
    "player_not_installed",
    "player_unknown",
    "System",
    "portaudio_missing",
    "sounds_by_themselves_failed",
]


class SoundLoss(Enum):
    """How the sound device was lost."""

    NOT_ANSWERING = "not answering"
    """A call to it (opening the stream, writing to it) did not return in time: a hung sound server, a stopped
    device."""
    CANNOT_OPEN = "cannot open"
    """Opening it failed: no such device, or it went away."""
    WENT_AWAY = "went away"
    """Writing to it failed mid-game."""


_LOSS_WORDS = {
    SoundLoss.NOT_ANSWERING: "The sound device stopped answering",
    SoundLoss.CANNOT_OPEN: "The sound device cannot be opened",
    SoundLoss.WENT_AWAY: "The sound device went away",
}


def sound_lost(loss: SoundLoss) -> str:
    """The sound device lost (said once): what still works, and that it comes back by itself."""
    return (
        f"{_LOSS_WORDS[loss]}: no sound for now. Everything is still written on screen; "
        "sound comes back by itself when the device does."
    )


SOUND_BACK = "Sound is back."


def reader_lost(reader: str) -> str:
    """The screen reader's speech server (speech-dispatcher) stopped answering mid-game (said once)."""
    return (
        f"{clean_untrusted(reader, 40)} stopped answering: the app's speech is off for now. Everything is still "
        "written on screen; speech comes back by itself when it does."
    )


def reader_back(reader: str) -> str:
    """The screen reader's speech server answers again."""
    return f"{clean_untrusted(reader, 40)} is back: speech is on again."


class System(Enum):
    """The computer a fix is said for: what its user can do to install a missing piece (never a command that cannot
    work there: `apt` on Windows, `sudo` for a user who has none)."""

    DEBIAN_ROOT = "debian, as root"
    """Debian or Ubuntu, the app run as root: `apt install` works."""
    DEBIAN_SUDO = "debian, with sudo"
    """Debian or Ubuntu, a user who may use sudo (in the sudo or admin group)."""
    DEBIAN_USER = "debian, no sudo"
    """Debian or Ubuntu, a user who cannot install packages: the computer's administrator can."""
    LINUX = "another linux"
    """Another Linux, with a package manager of its own."""
    WINDOWS = "windows"
    MACOS = "macos"


def _setting_value(value: str) -> str:
    """A setting's value as said: an empty one (or one of spaces) said as such."""
    return clean_untrusted(value, 40) if value.strip() else "The player setting is empty"


def player_not_installed(player: str, instead: str) -> str:
    """The `player` setting names a program that is not here: what plays instead ("" when nothing can); an empty
    setting is said as empty."""
    name = _setting_value(player)
    if not player.strip():
        return f"{name}: playing with {instead}." if instead else f"{name}, and no sound player is installed."
    if not instead:
        return f"{name} is not installed, and no other sound player is: speech is silent."
    return f"{name} is not installed: playing with {instead}."


def player_unknown(player: str, known: tuple[str, ...], instead: str) -> str:
    """The `player` setting names a program the app cannot play with (installed, but not one it knows)."""
    playing = f"playing with {instead}" if instead else "no other sound player is installed: speech is silent"
    return f"{clean_untrusted(player, 40)} is not a sound player the app can use ({', '.join(known)}): {playing}."


#: How to install PortAudio, for each computer: a command its user can run, or whom to ask.
_PORTAUDIO_FIX = {
    System.DEBIAN_ROOT: "To fix it: apt install libportaudio2.",
    System.DEBIAN_SUDO: "To fix it: sudo apt install libportaudio2.",
    System.DEBIAN_USER: "To fix it, ask the computer's administrator to install the package libportaudio2.",
    System.LINUX: "To fix it, install PortAudio with your system's package manager.",
    System.WINDOWS: "To fix it, install the app again: its sounddevice package brings PortAudio with it on Windows.",
    System.MACOS: "To fix it, install the app again: its sounddevice package brings PortAudio with it on macOS.",
}


def portaudio_missing(instead: str, system: System = System.DEBIAN_SUDO) -> str:
    """PortAudio is not installed, so the app's own mixer is off: what plays instead (winsound: Windows, one sound
    at a time; another program; nothing), and the fix this user can apply on this computer."""
    if instead == "winsound":
        how = "Windows plays one sound at a time"
    else:
        how = f"{instead} plays each sound on its own" if instead else "no sound player is installed"
    return f"PortAudio is not installed, so the app's own mixer is off: {how}. {_PORTAUDIO_FIX[system]}"


def sounds_by_themselves_failed(engine: str) -> str:
    """An engine playing to the sound device by itself (no player) could not reach it."""
    return (
        f"{clean_untrusted(engine, 40)} could not play to the sound device, and no sound player is installed: "
        "speech is silent. Everything is still written on screen."
    )
