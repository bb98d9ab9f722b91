"""Where things live on disk: shipped data beside the package, user data in the platform's directories.

`TABLE_ASSISTANT_HOME` moves every user directory under one folder (tests use it).
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def card_texts_dir() -> Path:
    """The shipped deck files (`card_texts/`)."""
    return Path(os.environ.get("TABLE_ASSISTANT_CARD_TEXTS", PROJECT_ROOT / "card_texts"))


def braille_map_dir() -> Path:
    """The shipped abbreviation files (`braille_map/`)."""
    return PROJECT_ROOT / "braille_map"


def _user_dir(kind: str) -> Path:
    home = os.environ.get("TABLE_ASSISTANT_HOME")
    if home:
        return Path(home) / kind
    import platformdirs

    finder = {"data": platformdirs.user_data_dir, "config": platformdirs.user_config_dir}[kind]
    return Path(finder("table-assistant", appauthor=False))


def user_data_dir() -> Path:
    """The player's data directory (imported decks, saved games)."""
    return _user_dir("data")


def user_config_dir() -> Path:
    """The player's configuration directory (settings)."""
    return _user_dir("config")


def imported_decks_dir() -> Path:
    """Where imported reference sheets are written as deck files."""
    return user_data_dir() / "decks"
