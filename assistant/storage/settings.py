"""The player's settings: `settings.toml` in the configuration directory, read with tomllib, written by hand (the
settings as values are `assistant/core/speech/settings.py`: the same thing, in the pure core).

Only the `[speech]` table exists so far. A file that cannot be read, or holds an unknown key or a bad value, is
set aside as `settings.toml.damaged-<date and time>` and the defaults are used; the caller gets one sentence to
show and speak. A byte-order mark (Windows Notepad writes one) is read past. Writing never loses the old file: the
new text goes to a temporary file that replaces it. `remember` writes one change made in the app (F5, F6, F7).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from assistant.core.speech.settings import SpeechSettings, format_settings, parse_settings
from assistant.core.words.voice import settings_damaged
from assistant.storage.files import decode_text, read_bounded, set_aside, write_atomically
from assistant.storage.paths import user_config_dir

__all__ = ["SpeechSettings", "settings_path", "load_settings", "save_settings", "remember"]

#: The largest settings file read: a full one is under 1 KB.
MAX_SETTINGS_BYTES = 1_000_000


def settings_path() -> Path:
    """Where the settings file lives."""
    return user_config_dir() / "settings.toml"


def load_settings(path: Path | None = None) -> tuple[SpeechSettings, str]:
    """The saved settings, and a sentence for the player when the file was damaged and set aside (else "").

    A missing file gives the defaults and no sentence.
    """
    path = path or settings_path()
    try:
        raw = read_bounded(path, MAX_SETTINGS_BYTES)  # a pipe or a link to a device is refused, not waited on
    except FileNotFoundError:
        return SpeechSettings(), ""
    except OSError as exc:
        return SpeechSettings(), _set_aside(path, exc.strerror or str(exc))
    try:
        return parse_settings(decode_text(raw, "utf-8-sig")), ""
    except ValueError as exc:  # a byte that is not UTF-8 (with its line), or a bad setting
        return SpeechSettings(), _set_aside(path, str(exc))


def _set_aside(path: Path, reason: str) -> str:
    return settings_damaged(reason, set_aside(path).name)


def save_settings(settings: SpeechSettings, path: Path | None = None) -> Path:
    """Write the settings file (through a temporary file, so a crash never leaves half a file); return its path."""
    return write_atomically(path or settings_path(), format_settings(settings))


def remember(changes: dict[str, Any], path: Path | None = None) -> Path:
    """Write changed settings (`{"verbosity": "brief"}`, `{"muted": True}`) into the settings file, keeping the
    others as they are in it; return its path. A damaged file was set aside when the app started: the defaults are
    kept."""
    path = path or settings_path()
    settings, _ = load_settings(path)
    return save_settings(replace(settings, **changes), path)
