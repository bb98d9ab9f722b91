"""Where things live on disk: shipped data inside the package, user data in the platform's directories.

An installed wheel carries the decks and braille maps as `assistant/data/card_texts` and `assistant/data/braille_map`
(the build maps the repository's top-level folders in); they are found with `importlib.resources`. A source
checkout (an editable install, the tests) has no such folder and reads the top-level folders themselves.
`TABLE_ASSISTANT_HOME` moves every user directory under one folder (tests use it).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def shipped_dir(name: str) -> Path:
    """A folder of shipped data (`card_texts`, `braille_map`): the one inside the installed package, else the
    source checkout's top-level folder of that name."""
    packaged = resources.files("assistant") / "data" / name
    # A package installed on disk is a real folder (pathlib.Path); one imported from a zip is not, and ours never is.
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    return PROJECT_ROOT / name


def card_texts_dir() -> Path:
    """The shipped deck files (`card_texts/`)."""
    return Path(os.environ.get("TABLE_ASSISTANT_CARD_TEXTS", shipped_dir("card_texts")))


def braille_map_dir() -> Path:
    """The shipped abbreviation files (`braille_map/`)."""
    return shipped_dir("braille_map")


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
