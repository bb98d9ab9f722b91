"""Sentences about the files in the app's home: a full disk, a second copy of the app holding the saved games,
a file that is not a regular file or is too large, a save whose records are out of order."""

from __future__ import annotations

from assistant.core.text import clean_untrusted

__all__ = [
    "DISK_FULL",
    "NOT_A_REGULAR_FILE",
    "POINTER_DAMAGED",
    "pointer_set_aside",
    "file_too_large",
    "games_held_by",
    "games_held_notice",
    "games_lock_unusable",
    "save_set_aside",
    "script_too_large",
    "games_lock_notice",
    "records_out_of_order",
    "save_out_of_order",
    "save_unwritable",
    "import_not_saved",
    "crash_not_logged",
    "import_not_applied",
    "import_wrong_kind",
    "import_unknown_base",
    "expansion_alone",
    "NOT_UTF8_SKIPPED",
]

#: A line of a reference sheet holding a byte that is not UTF-8: that line alone is left out.
NOT_UTF8_SKIPPED = "is not UTF-8 text; this line was not imported"

#: Why a record was not written when the disk has no room (said inside "Could not save the game (...)").
DISK_FULL = "the disk is full"

#: Why a file in the home folder was not read: a pipe, a device, a folder.
NOT_A_REGULAR_FILE = "it is not a regular file"


#: Why `games/last` names no saved game: what it holds is not a file's name (NUL bytes after a power cut).
POINTER_DAMAGED = "it does not hold a saved game's name"


def file_too_large(limit: int) -> str:
    """Why a file was not read: it is larger than the app reads (`limit` in bytes)."""
    if limit >= 1_000_000:
        return f"it is larger than {limit // 1_000_000} MB"
    return f"it is larger than {limit:,} bytes"


def games_held_by(pid: int) -> str:
    """Why nothing is recorded in this copy of the app: another one holds the saved games."""
    who = f", process {pid}," if pid > 0 else ""
    return f"another table-assistant{who} holds the saved games"


def save_set_aside(name: str, reason: str, kept: str) -> str:
    """Said at start: a file among the saves (or the one `games/last` names) that is no game (empty, a pipe, a
    device, a link) was moved out of the way (`kept`: its new name; the same name when it could not be moved)."""
    said = f"The saved game {clean_untrusted(name, 80)} was not used: {clean_untrusted(reason, 80)}."
    if kept != name:
        said += f" It was set aside as {clean_untrusted(kept, 100)}."
    return said


def pointer_set_aside(reason: str, kept: str) -> str:
    """Said at start (and by `state`): `games/last`, which names the game to continue, is damaged; it was moved out
    of the way (`kept`: its new name; "last" when it was not moved) and the newest saved game is taken instead."""
    said = f"The file games/last, which names the game to continue, was not used: {clean_untrusted(reason, 80)}."
    if kept != "last":
        said += f" It was set aside as {clean_untrusted(kept, 100)}."
    return f"{said} The newest saved game, if there is one, is continued instead."


def script_too_large(path: str, limit: int) -> str:
    """A `--script` file (or a device such as /dev/zero) larger than a script can be."""
    return (
        f"Cannot read the script {clean_untrusted(path, 80)}: it is larger than {limit // 1_000_000} MB, more "
        "than any game's lines. Nothing was played."
    )


def games_lock_unusable(reason: str) -> str:
    """Why nothing is recorded in this copy of the app: the lock on the saved games could not be taken, so another
    copy may be writing them unseen (the lock fails closed)."""
    return f"the lock on the saved games (games/lock) cannot be taken: {clean_untrusted(reason, 100)}"


def games_lock_notice(reason: str) -> str:
    """Said at start when the saved games' lock could not be taken: this copy only reads them."""
    return (
        f"Note: {games_lock_unusable(reason)}. This window can read the saved game but records nothing; "
        "remove or repair games/lock in the data folder to play here."
    )


def games_held_notice(pid: int) -> str:
    """Said at start when another copy of the app holds the saved games: this one only reads them."""
    return (
        f"Note: {games_held_by(pid)}. This window can read the saved game but records nothing; "
        "close the other one to play here."
    )


def records_out_of_order(line: int, expected: int, found: int) -> str:
    """A save whose record numbers skip or repeat: the game is kept up to the record before `line`."""
    if found < expected:
        what = f"line {line} repeats record {found}"
    elif found == expected + 1:
        what = f"record {expected} is missing before line {line}"
    else:
        what = f"records {expected} to {found - 1} are missing before line {line}"
    return f"{what}; the game is kept up to record {expected - 1}"


def save_out_of_order(save: str, problem: str) -> str:
    """Said at resume when a save's record numbers repeat or skip (`problem` from `records_out_of_order`)."""
    return f"In the saved game {clean_untrusted(save, 80)}, {problem}."


def save_unwritable(save: str, reason: str) -> str:
    """A save that was read but cannot be written to (a read-only home, another copy of the app holding it)."""
    said = f"The saved game {clean_untrusted(save, 80)} was read, but it cannot be continued here"
    return f"{said}: {clean_untrusted(reason, 160)}. Nothing was changed in it."


def import_not_saved(deck_id: str, reason: str) -> str:
    """`deck import` read and checked the sheet, but the deck file could not be written (a read-only or full home)."""
    said = f"The import {clean_untrusted(deck_id, 60)} could not be saved: {clean_untrusted(reason, 160)}."
    return f"{said} Nothing changed."


def crash_not_logged(kind: str, message: str, reason: str) -> str:
    """The last guard of the command line when even its details could not be written down."""
    said = f"Something went wrong: {clean_untrusted(kind, 60)}: {clean_untrusted(message, 200)}."
    return f"{said} Its details could not be written down ({clean_untrusted(reason, 120)})."


def import_not_applied(file: str, reason: str) -> str:
    """An import deck file that is read but not used, and why."""
    return f"The deck file {clean_untrusted(file, 80)} was not used: {reason}."


def import_wrong_kind(kind: str) -> str:
    """Why an import is not used: its `kind` is not "import"."""
    said = f'its kind is "{clean_untrusted(kind, 40)}"' if kind else "it gives no kind"
    return f'{said}; a file in your decks folder must say kind = "import"'


def import_unknown_base(base: str) -> str:
    """Why an import is not used: its `base` names no shipped deck."""
    if not base:
        return "it names no base deck"
    return f"its base deck {clean_untrusted(base, 60)} is not installed"


def expansion_alone(deck_id: str, title: str, base: str) -> str:
    """A game asked for on an expansion deck alone: it needs its base deck."""
    said = f"{clean_untrusted(deck_id, 60)} is an expansion ({clean_untrusted(title, 80)}): play it with its base deck"
    if not base:
        return f"{said}."
    return f"{said}, for example deck {clean_untrusted(base, 60)} addon {clean_untrusted(deck_id, 60)}."
