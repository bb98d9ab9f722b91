"""What the live scanner reports (`live.LiveScanner`): plain values, so the app's camera thread, the `scan --camera`
command and the scanner's own process (`live_process`, which sends them through a pipe) all take them as they are."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.core.scanning.aiming import Cue


@dataclass(frozen=True)
class CodeAnnounced:
    """A code was read steadily enough to announce (payload untrusted)."""

    payload: str
    frame: int


@dataclass(frozen=True)
class CueGiven:
    """An aiming cue to say."""

    cue: Cue


@dataclass(frozen=True)
class SourceLost:
    """The source stopped giving frames (or could not be opened); `sentence` says so."""

    sentence: str


@dataclass(frozen=True)
class SourceBack:
    """The source gives frames again after being lost."""


@dataclass(frozen=True)
class ScannerNotice:
    """Something to tell the player once (a missing decoder library)."""

    sentence: str


#: Everything the live scanner reports; the app's camera thread posts each one to the app as it is.
LiveEvent = CodeAnnounced | CueGiven | SourceLost | SourceBack | ScannerNotice
