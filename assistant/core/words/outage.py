"""Sentences about her output channels failing and coming back: the sound device, speech-dispatcher, a setting
that cannot be honoured (docs/robustness.md, "Outages"), and a missing piece with the fix this user can apply here.
Each loss is said once, each return once, in plain words: never a library's own error text."""

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
    "Piece",
    "missing_fix",
    "portaudio_missing",
    "liblouis_missing",
    "brlapi_missing",
    "braille_grade2_unavailable",
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


class Piece(Enum):
    """A piece of the computer the app uses when it is there, said with its fix when it is not (`missing_fix`)."""

    PORTAUDIO = "PortAudio"
    """The app's own mixer's library (sounddevice's wheels carry it on Windows and macOS)."""
    LIBLOUIS = "liblouis"
    """Contracted braille, with its Python module (not on the package index: from the system)."""
    BRLAPI = "BrlAPI"
    """BRLTTY's client library: a braille display of the app's own (Linux)."""
    SPEECHD = "speech-dispatcher's Python module"
    """Speaking through the screen reader's speech server (Linux)."""
    SOUND_PLAYER = "a sound player"
    """aplay, paplay or pw-play, where neither the app's mixer nor the engine plays."""


#: The Debian and Ubuntu packages that bring each piece (what `scripts/setup.sh` installs).
_DEBIAN_PACKAGES = {
    Piece.PORTAUDIO: "libportaudio2",
    Piece.LIBLOUIS: "liblouis20 liblouis-data python3-louis",
    Piece.BRLAPI: "brltty python3-brlapi",
    Piece.SPEECHD: "python3-speechd",
    Piece.SOUND_PLAYER: "alsa-utils",
}

#: What a user of Windows or macOS can do for each piece: never an `apt` command.
_ELSEWHERE = {
    Piece.PORTAUDIO: "install the app again: its sounddevice package brings PortAudio with it on {system}.",
    Piece.LIBLOUIS: "there is no fix on {system} yet: the app cannot install liblouis's Python module there.",
    Piece.BRLAPI: "on {system} your screen reader shows the app on your braille display, without BrlAPI.",
    Piece.SPEECHD: "on {system} the app speaks through your screen reader without it.",
    Piece.SOUND_PLAYER: "on {system} the app plays with the system's own player, which is always there.",
}

_SYSTEM_NAMES = {System.WINDOWS: "Windows", System.MACOS: "macOS"}


def missing_fix(piece: Piece, system: System) -> str:
    """What this user can do on this computer to install `piece` (docs/platforms.md): the `apt` command as root or
    with sudo, the administrator to ask without sudo, the package manager on another Linux, and on Windows and macOS
    their own way (never a command that cannot work there). One sentence, "To fix it..."."""
    packages = _DEBIAN_PACKAGES[piece]
    several = " " in packages
    if system is System.DEBIAN_ROOT:
        return f"To fix it: apt install {packages}."
    if system is System.DEBIAN_SUDO:
        return f"To fix it: sudo apt install {packages}."
    if system is System.DEBIAN_USER:
        return f"To fix it, ask the computer's administrator to install the package{'s' if several else ''} {packages}."
    if system is System.LINUX:
        return f"To fix it, install {piece.value} with your system's package manager."
    return "To fix it, " + _ELSEWHERE[piece].format(system=_SYSTEM_NAMES[system])


def portaudio_missing(instead: str, system: System = System.DEBIAN_SUDO) -> str:
    """PortAudio is not installed, so the app's own mixer is off: what plays instead (winsound: Windows, one sound
    at a time; another program; nothing), and the fix this user can apply on this computer."""
    if instead == "winsound":
        how = "Windows plays one sound at a time"
    else:
        how = f"{instead} plays each sound on its own" if instead else "no sound player is installed"
    return f"PortAudio is not installed, so the app's own mixer is off: {how}. {missing_fix(Piece.PORTAUDIO, system)}"


def liblouis_missing(system: System) -> str:
    """A braille abbreviation typed with liblouis not installed: what still works, and the fix."""
    return (
        "Contracted braille needs liblouis, which is not installed. Uncontracted braille and letters still work. "
        + missing_fix(Piece.LIBLOUIS, system)
    )


def braille_grade2_unavailable(system: System) -> str:
    """Contracted braille chosen for the display with liblouis not installed: what it shows instead, and the fix."""
    return "Contracted braille needs liblouis, so the braille display shows uncontracted braille. " + missing_fix(
        Piece.LIBLOUIS, system
    )


def brlapi_missing(system: System) -> str:
    """A braille display chosen with BrlAPI not installed: the app goes on without it; the fix."""
    return (
        "The braille display needs BrlAPI, BRLTTY's client library, which is not installed. The app goes on "
        "without the display. " + missing_fix(Piece.BRLAPI, system)
    )


def sounds_by_themselves_failed(engine: str) -> str:
    """An engine playing to the sound device by itself (no player) could not reach it."""
    return (
        f"{clean_untrusted(engine, 40)} could not play to the sound device, and no sound player is installed: "
        "speech is silent. Everything is still written on screen."
    )
