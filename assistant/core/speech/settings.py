"""The player's settings as values: what each one means, reading them from TOML text and writing them back.

Pure (standard library only): the file itself is read, written and set aside by `assistant/storage/settings.py`.
Only the `[speech]` table exists so far, and its settings are read at the top of the file too; an unknown key or a
bad value is an error, as in every data file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from typing import Any

from assistant.core.datatext import load_toml, toml_value
from assistant.core.speech.placement import PLACEMENTS

#: "on" is the older name of "own-voice", still read.
SPEECH_MODES = ("auto", "screen-reader", "own-voice", "off", "on")
BACKENDS = ("auto", "speechd", "pyttsx3", "espeak-ng", "silent")
#: The players the app can use. Another name in the settings is not an error that sets the file aside: it is said at
#: start, with the player used instead (`assistant/speech/player.py` `Player.choose`).
PLAYERS = ("auto", "sounddevice", "aplay", "paplay", "pw-play", "afplay", "winsound")
#: Where the player across the table is heard (never in the middle, where her own voice is).
SIDES = ("left", "right")
#: The table voice's rate by default: about 1.75 times the default, some 280 words a minute, where two voices at
#: once were best followed by blind listeners (Guerreiro and Goncalves, ASSETS 2015; docs/speech.md).
TABLE_RATE = 69
VERBOSITY = ("brief", "normal", "coaching")
#: The settings turned like a dial, each 0 to 100 (`assistant/core/speech/tuning.py`): her voice's and the table
#: voice's rate, volume and pitch.
DIAL_SETTINGS = ("rate", "volume", "pitch", "table_rate", "table_volume", "table_pitch")
DIAL_LOWEST, DIAL_HIGHEST = 0, 100
#: The most seconds `scan_repeat` takes (an hour: a card lying longer is said once an hour).
MAX_SCAN_REPEAT = 3600


@dataclass(frozen=True)
class SpeechSettings:
    """How the app speaks. Rate and volume are 0–100 and mapped onto each engine's own range."""

    speech: str = "auto"
    """screen-reader (through the player's screen reader: speech-dispatcher on Linux, NVDA, JAWS or VoiceOver
    elsewhere), own-voice (the app's own voice, `backend`), off, or auto: through the screen reader when one is
    running, else the own voice."""
    backend: str = "auto"
    """The own voice: auto (speech-dispatcher, then pyttsx3, then espeak-ng, then silent), or one of them."""
    rate: int = 50
    """0 slowest, 50 the engine's normal rate, 100 fastest."""
    voice: str = ""
    """The engine's voice name (such as "en-gb"); empty for its default."""
    volume: int = 100
    """0 silent to 100 full."""
    pitch: int = 50
    """0 lowest, 50 the voice's own pitch, 100 highest (`pitch 40` or Control and Shift with Up or Down in the app,
    which write it here)."""
    earcons: bool = True
    """Short sounds for "code seen", "card read", "error", "your turn"; off, they are spoken instead."""
    player: str = "auto"
    """The program that plays sound files: auto (Linux: the first of aplay, paplay, pw-play found; macOS: afplay;
    Windows: winsound), or one of them."""
    device: str = ""
    """The output device for the table (empty for the system default), as the player names it."""
    private_device: str = ""
    """The headphones device for private reading (an ALSA name such as "plughw:1,0" for aplay, a sink name for
    paplay or pw-play); empty when there is none."""
    transcript: str = ""
    """A text file every utterance is appended to, with its time (`~` is the home folder); empty for none."""
    verbosity: str = "normal"
    """How much the game replies say at start: brief (facts only), normal, or coaching (also what to type)."""
    muted: bool = False
    """Start muted (F5 in the app, which writes it here)."""
    private: bool = False
    """Start with private reading on (F6 in the app, which writes it here)."""
    braille_display: bool = False
    """Show every reply on a refreshable braille display through BRLTTY (`--braille-display` turns it on too)."""
    braille_grade: int = 1
    """The display's braille: 1 uncontracted, 2 contracted English (needs liblouis)."""
    braille_six_key: bool = False
    """Letters typed on the display's keyboard are six-key entry (F D S J K L dots, Space ends a cell)."""
    placement: str = "seats"
    """Where other players' moves are heard: seats (each where that player sits, the next player in turn at your
    left), reversed (the next player at your right), or off (all in the middle: one speaker)."""
    me: str = ""
    """Your name in games: the others are placed around you, and `missed` says first the moves that took your cards;
    empty: the first player named."""
    others_faster: int = 10
    """How much faster other players' moves are said than your own replies, 0 to 50 steps of `rate` (10: at the
    default rate, 230 words a minute beside your 175, so a move waiting behind another waits less)."""
    table_voice: bool = True
    """Other players' moves in a second voice, heard at the same time as your own replies and never cut by your
    keys, beside your screen reader or the app's own voice, on every platform where two sounds can play at once;
    false: one voice, their moves said in turn after yours."""
    others_at_pause: bool = True
    """With one voice (no table voice): while you type, another player's move is heard at once as a short earcon at
    their seat, and its words at your first pause (no key for about 2 s), as a short digest of what you have not
    heard; a move that concerns you (a card of yours taken or asked about, your turn, a question to you, a win) is
    said at once. false: their words said in turn after yours, within about 10 s, while you keep typing."""
    table_rate: int = TABLE_RATE
    """The table voice's rate, 0-100 as `rate` (69: about 280 words a minute)."""
    table_volume: int = 100
    """The table voice's volume, 0-100 as `volume`."""
    table_pitch: int = 50
    """The table voice's pitch, 0-100 as `pitch` (50: its own voice's pitch, already another than yours)."""
    table_voice_name: str = ""
    """The table voice's engine voice; empty: another voice than yours, chosen by the app (espeak-ng's female
    variant of your voice; another installed voice with SAPI5 or on macOS)."""
    across: str = "right"
    """Where the player across the table is heard, left or right of the middle (your own voice is in the middle)."""
    camera: bool = True
    """Look for a webcam when the app starts (false: typed input only, and no word about a missing camera at every
    start; `--no-camera` does the same for one start)."""
    scan_repeat: int = 0
    """Seconds after which a card lying still before the camera is said again, 0 to 3600; 0: said once, until it
    leaves the view and comes back (the environment variable TABLE_ASSISTANT_SCAN_REPEAT, when set, wins for that
    run)."""


_CHOICES = {
    "speech": SPEECH_MODES,
    "backend": BACKENDS,
    "verbosity": VERBOSITY,
    "placement": PLACEMENTS,
    "across": SIDES,
}


def parse_settings(text: str) -> SpeechSettings:
    """Settings from the text of a settings file; ValueError saying what is wrong (tomllib's errors are
    ValueErrors too), a `SettingError` with the setting it names and its line for a setting that cannot be used."""
    data = load_toml(text)  # a DataTextError is a ValueError saying the line
    try:
        return _settings_from(data)
    except SettingError as exc:  # a value that is wrong is named with its line too, so the owner can find it
        raise SettingError(f"{exc} (line {_line_of_key(text, exc.key)})", exc.key) from None


class SettingError(ValueError):
    """A setting that cannot be used, with the setting it names as a value (`key`: "speech.rate", or "rate" at the
    top of the file), so its line is found without reading the sentence back."""

    def __init__(self, sentence: str, key: str) -> None:
        super().__init__(sentence)
        self.key = key


def _line_of_key(text: str, dotted: str) -> int:
    """The line where a `[table]` or `key =` of a settings file is (1 when it cannot be found)."""
    name = re.escape(dotted.rpartition(".")[2])
    pattern = re.compile(rf"^\s*(\[\s*{name}\s*\]|{name}\s*=)")
    return next((n for n, line in enumerate(text.splitlines(), start=1) if pattern.match(line)), 1)


def _settings_from(data: dict[str, Any]) -> SpeechSettings:
    """Settings from the parsed file; SettingError naming the setting that is wrong. A setting may be written under
    `[speech]` or at the top of the file, before any table (`camera = false` where a user writes it); the same one
    in both places is an error naming both."""
    table = data.get("speech", {})
    top = {key: value for key, value in data.items() if key != "speech" or not isinstance(value, dict)}
    if not isinstance(table, dict):
        table = {}  # `speech = "off"` at the top: the speech setting itself, not its table
    known = {f.name for f in fields(SpeechSettings)}
    unknown = sorted(set(top) - known)
    if unknown:
        raise SettingError(f"unknown setting {unknown[0]}", unknown[0])
    twice = sorted(set(top) & set(table))
    if twice:
        raise SettingError(f"{twice[0]} is set twice: at the top of the file and under [speech]", twice[0])
    defaults = SpeechSettings()
    values = {}
    for where, items in (("", top), ("speech.", table)):
        for key, value in items.items():
            if key not in known:
                raise SettingError(f"unknown setting {where}{key}", f"{where}{key}")
            _check(f"{where}{key}", value, getattr(defaults, key))
            values[key] = value
    return replace(defaults, **values)


def _check(name: str, value: Any, default: Any) -> None:
    """SettingError naming the setting (`speech.rate`, or `rate` at the top) when its value cannot be used."""
    key = name.rpartition(".")[2]
    if type(value) is not type(default):  # bool is an int subclass: compare exact types
        raise SettingError(f"{name} must be {type(default).__name__}", name)
    if key in _CHOICES and value not in _CHOICES[key]:
        raise SettingError(f"{name} must be one of {', '.join(_CHOICES[key])}", name)
    if key == "braille_grade" and value not in (1, 2):
        raise SettingError(f"{name} must be 1 or 2", name)
    if key in DIAL_SETTINGS and not DIAL_LOWEST <= value <= DIAL_HIGHEST:
        raise SettingError(f"{name} must be from 0 to 100", name)
    if key == "others_faster" and not 0 <= value <= 50:
        raise SettingError(f"{name} must be from 0 to 50", name)
    if key == "scan_repeat" and not 0 <= value <= MAX_SCAN_REPEAT:
        raise SettingError(f"{name} must be from 0 to {MAX_SCAN_REPEAT}", name)


def format_settings(settings: SpeechSettings) -> str:
    """The text of a settings file (simple `key = value` lines under `[speech]`)."""
    lines = ["# table-assistant settings. Delete this file to go back to the defaults.", "", "[speech]"]
    for f in fields(SpeechSettings):
        lines.append(f"{f.name} = {toml_value(getattr(settings, f.name))}")
    return "\n".join(lines) + "\n"
