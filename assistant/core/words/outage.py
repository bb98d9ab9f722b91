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


def player_not_installed(player: str, instead: str) -> str:
    """The `player` setting names a program that is not here: what plays instead ("" when nothing can)."""
    name = clean_untrusted(player, 40)
    if not instead:
        return f"{name} is not installed, and no other sound player is: speech is silent."
    return f"{name} is not installed: playing with {instead}."


def player_unknown(player: str, known: tuple[str, ...], instead: str) -> str:
    """The `player` setting names a program the app cannot play with (installed, but not one it knows)."""
    playing = f"playing with {instead}" if instead else "no other sound player is installed: speech is silent"
    return f"{clean_untrusted(player, 40)} is not a sound player the app can use ({', '.join(known)}): {playing}."


def portaudio_missing(instead: str) -> str:
    """PortAudio is not installed, so the app's own mixer is off: what plays instead, and the fix."""
    where = f"sounds are played by {instead}, one program a sound" if instead else "no sound player is installed"
    return (
        f"PortAudio is not installed, so the app's own mixer is off: {where}. To fix: sudo apt install libportaudio2."
    )


def sounds_by_themselves_failed(engine: str) -> str:
    """An engine playing to the sound device by itself (no player) could not reach it."""
    return (
        f"{clean_untrusted(engine, 40)} could not play to the sound device, and no sound player is installed: "
        "speech is silent. Everything is still written on screen."
    )
