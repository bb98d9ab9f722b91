"""Saved games on disk: the setup and an append-only log of events, each line on disk before it is announced.

A save is a text file in the data directory's `games/` folder, one record per line:

    {"format":"table-assistant game","setup":{...},"version":1}<TAB>crc
    {"n":1,"r":{"e":"draw","player":0,"count":1}}<TAB>crc
    {"n":2,"r":{"e":"undo"}}<TAB>crc

Each line ends with the CRC-32 of its JSON text in hexadecimal, so a line damaged on disk is caught even when it
still reads as JSON. `append` writes a whole line (a write that stops short is carried on or fails), fsyncs the
file, and only then returns; a write that fails is cut away again before anything else is written, so a full
disk leaves the save as it was. Reading keeps every whole, intact line; a damaged or cut-off line is set aside —
the original file is kept beside the save, and the save is rewritten without the damaged lines, its records
numbered again — and the player is told. Record numbers are checked: a repeated or missing record ends the game
read back at the record before it (the rest is set aside, by line). `games/last` names the save to continue; an
empty save is never one. Only the process holding the games folder's lock (`assistant.storage.lock`) writes.
"""

from __future__ import annotations

import datetime
import json
import os
import secrets
import stat
import zlib
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.core.datatext import load_json
from assistant.core.words.errors import (
    NO_FORMAT_VERSION,
    NO_SETUP,
    NOT_A_SAVE,
    SAVE_EMPTY,
    SETUP_DAMAGED,
    save_from_newer_version,
)
from assistant.core.words.storage import (
    NOT_A_REGULAR_FILE,
    POINTER_DAMAGED,
    pointer_set_aside,
    records_out_of_order,
    save_set_aside,
)
from assistant.storage.files import (
    MAX_FILE_BYTES,
    fsync_folder,
    keep_copy,
    read_bounded,
    set_aside,
    write_all,
    write_atomically,
)
from assistant.storage.lock import check_writable
from assistant.storage.paths import user_data_dir

FORMAT = "table-assistant game"
#: 2: an event recorded from a phone carries which (`"phone": {"seat": 1, "n": 1}`); a version 1 save reads as
#: before, every event the laptop's.
VERSION = 2
POINTER = "last"
SUFFIX = ".jsonl"


def games_dir() -> Path:
    """Where saves live."""
    return user_data_dir() / "games"


def encode_line(body: dict[str, Any]) -> bytes:
    """One record as a line: compact JSON, a tab, its CRC-32."""
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    data = text.encode("utf-8")
    return data + b"\t" + f"{zlib.crc32(data):08x}".encode("ascii") + b"\n"


def decode_line(line: bytes) -> dict[str, Any] | None:
    """A line's record, or None when the line is damaged (bad CRC, not JSON, not a table)."""
    data, tab, crc = line.rpartition(b"\t")
    if not tab or len(crc) != 8:
        return None
    try:
        if int(crc, 16) != zlib.crc32(data):
            return None
        body = load_json(data.decode("utf-8"))  # bounded: a line nested 100,000 deep is damaged, not a crash
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


Write = Callable[[int, bytes], int]
"""How bytes reach a file (`os.write`; a test's full disk)."""


class GameLog:
    """An open save, appended to one record at a time."""

    def __init__(self, path: Path, next_number: int, write: Write = os.write):
        self.path = path
        self._number = next_number
        self._write = write
        self._file = open(path, "ab", buffering=0)  # unbuffered: each write goes straight to the OS
        self._end = os.fstat(self._file.fileno()).st_size
        """Where the last whole record ends: anything after it is a write that failed."""

    def append(self, record: dict[str, Any]) -> None:
        """Write one whole record and fsync it: when this returns, the record survives a crash or power cut.
        `OSError` when it cannot (a full disk: "the disk is full"; another copy of the app holding the games),
        and then the save is as it was before."""
        check_writable(self.path.parent)
        fd = self._file.fileno()
        if os.fstat(fd).st_size != self._end:  # a line a failed write cut off, and could not cut away then
            os.ftruncate(fd, self._end)
        line = encode_line({"n": self._number, "r": record})
        try:
            write_all(fd, line, self._write)
            os.fsync(fd)
        except OSError:
            with suppress(OSError):  # if even this fails, the next append cuts it away first
                os.ftruncate(fd, self._end)
                os.fsync(fd)
            raise
        self._end += len(line)
        self._number += 1

    def close(self) -> None:
        """Close the file (appends after this fail)."""
        self._file.close()


@dataclass
class SavedGame:
    """A save read back: its setup, its whole records, and the lines that could not be read."""

    path: Path
    setup: dict[str, Any] | None
    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(line number, record) for every intact line after the setup."""
    damaged: list[int] = field(default_factory=list)
    """Line numbers (from 1) of damaged or cut-off lines."""
    lines: list[bytes] = field(default_factory=list)
    """Every line as read, without its newline (index = line number - 1)."""
    problem: str = ""
    """Why the setup cannot be read, when it cannot ("it is empty", "line 1, the setup, is damaged")."""
    order: str = ""
    """When a record number repeats or skips: which line, and the record the game is kept up to; else ""."""

    @property
    def name(self) -> str:
        """The save's file name, for messages."""
        return self.path.name

    def set_aside(self, bad: list[int]) -> str:
        """Keep the original file beside the save, rewrite the save without the `bad` lines, its records numbered
        again from 1; return the kept file's name."""
        check_writable(self.path.parent)
        kept = keep_copy(self.path)
        drop = set(bad)
        good = [line for number, line in enumerate(self.lines, start=1) if number not in drop]
        records = [r for n, r in self.records if n not in drop]
        lines = good[:1] + [encode_line({"n": n, "r": r}).rstrip(b"\n") for n, r in enumerate(records, start=1)]
        write_atomically(self.path, b"".join(line + b"\n" for line in lines))
        self.lines = lines
        self.records = list(enumerate(records, start=2))
        self.damaged = []
        return kept.name

    def open_log(self, write: Write = os.write) -> GameLog:
        """Continue appending to this save (records are numbered on from the lines kept)."""
        return GameLog(self.path, len(self.lines), write)


def read_save(path: Path) -> SavedGame:
    """Read a save, keeping every intact line and noting damaged ones; `OSError` when it cannot be read."""
    raw = read_bounded(path, MAX_FILE_BYTES)  # a pipe or a link to a device is refused, not waited on
    parts = raw.split(b"\n")
    complete = parts[:-1]
    tail = parts[-1]
    lines = complete + ([tail] if tail else [])
    saved = SavedGame(path, None, lines=lines)
    # The next record's number, and how many damaged lines came since the last good record: each may have been a
    # record (a line damaged on disk) or not (a line added), so the next number may skip that many.
    expected, skipped = 1, 0
    for number, line in enumerate(lines, start=1):
        if saved.order:  # after a repeated or missing record nothing is replayed: it is set aside by line
            saved.damaged.append(number)
            continue
        cut_off = number == len(lines) and bool(tail)
        body = None if cut_off else decode_line(line.removesuffix(b"\r"))  # a copy with Windows line ends reads
        if number == 1:
            saved.problem = _setup_problem(body)
            if body is None or saved.problem:  # (a line that is no record is a problem: `_setup_problem`)
                saved.damaged.append(number)
            else:
                saved.setup = body["setup"]
            continue
        if body is None or set(body) != {"n", "r"} or not isinstance(body["r"], dict):
            saved.damaged.append(number)
            skipped += 1
            continue
        found = body["n"]
        if not isinstance(found, int) or isinstance(found, bool) or not expected <= found <= expected + skipped:
            saved.order = records_out_of_order(number, expected, found if isinstance(found, int) else 0)
            saved.damaged.append(number)
            continue
        expected, skipped = found + 1, 0
        saved.records.append((number, body["r"]))
    if not raw.strip():
        saved.problem = SAVE_EMPTY
    return saved


def _setup_problem(body: dict[str, Any] | None) -> str:
    """What is wrong with a save's first line, or "" when it is a setup this version reads."""
    if body is None:
        return SETUP_DAMAGED
    if body.get("format") != FORMAT:
        return NOT_A_SAVE
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return NO_FORMAT_VERSION
    if version > VERSION:
        return save_from_newer_version(version, VERSION)
    if not isinstance(body.get("setup"), dict):
        return NO_SETUP
    return ""


class GameStore:
    """The folder of saves: new games, and the last one to continue."""

    def __init__(self, folder: Path | None = None, write: Write = os.write):
        self.folder = folder if folder is not None else games_dir()
        self._write = write

    def create(self, setup: dict[str, Any]) -> GameLog:
        """A new save holding the setup, durable on disk, and named as the last game; `OSError` when it cannot
        be written whole (then no new save is left behind, and `games/last` names the one it named)."""
        check_writable(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = self.folder / f"game-{stamp}-{secrets.token_hex(2)}{SUFFIX}"
        first = encode_line({"format": FORMAT, "version": VERSION, "setup": setup})
        try:
            with open(path, "xb", buffering=0) as out:
                write_all(out.fileno(), first, self._write)
                os.fsync(out.fileno())
            fsync_folder(self.folder)
            self._point_to(path)
        except OSError:
            with suppress(OSError):
                path.unlink(missing_ok=True)
            raise
        return GameLog(path, 1, self._write)

    def _point_to(self, path: Path) -> None:
        write_atomically(self.folder / POINTER, path.name + "\n")

    def pointed(self) -> tuple[str, str]:
        """The save `games/last` names, and "": or "" and why `games/last` names none, when it is damaged (not a
        regular file, not UTF-8 text, not a file's name: the NUL bytes a power cut can leave); ("", "") when there
        is no `games/last`."""
        try:
            raw = read_bounded(self.folder / POINTER, 4096)
        except (FileNotFoundError, NotADirectoryError):
            return "", ""
        except OSError as exc:  # a pipe, a device, a folder, too large (`FileRefused`: its reason in words)
            return "", exc.strerror or str(exc)
        try:
            name = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            return "", POINTER_DAMAGED
        if not name:
            return "", SAVE_EMPTY
        if not name.isprintable() or len(name) > 255 or "/" in name or "\\" in name or name in (".", ".."):
            return "", POINTER_DAMAGED
        return name, ""

    def last_path(self) -> Path | None:
        """The save to continue: the one `games/last` names, or else the newest."""
        name, _ = self.pointed()
        if name and _a_save(self.folder / name):
            return self.folder / name
        saves = [p for p in self.folder.glob(f"game-*{SUFFIX}") if ".damaged-" not in p.name and _a_save(p)]
        return max(saves, key=lambda p: p.stat().st_mtime) if saves else None

    def unusable(self) -> list[tuple[Path, str]]:
        """Every file among the saves, and the one `games/last` names, that cannot be a game (empty, a pipe, a
        device, a link, a folder), and `games/last` itself when it is damaged: each with why."""
        try:
            names = {path.name for path in self.folder.glob(f"game-*{SUFFIX}")} if self.folder.is_dir() else set()
        except OSError:
            return []
        pointed, damaged = self.pointed()
        found = [(self.folder / POINTER, damaged)] if damaged else []
        for name in sorted(names | {pointed} - {""}):
            path = self.folder / name
            if ".damaged-" in name:
                continue
            try:
                info = path.lstat()
            except OSError:
                continue  # gone (a `last` naming a save that no longer exists falls back to the newest)
            if not (stat.S_ISREG(info.st_mode) and info.st_size > 0):
                found.append((path, SAVE_EMPTY if stat.S_ISREG(info.st_mode) else NOT_A_REGULAR_FILE))
        return found

    def unusable_said(self) -> list[str]:
        """What `unusable` found, each named with why, nothing moved (`table-assistant state` only reads)."""
        return [_named(path.name, reason, path.name) for path, reason in self.unusable()]

    def set_aside_unusable(self) -> list[str]:
        """What `unusable` found, set aside (renamed `NAME.damaged-…`, kept whole) and named with why, so that
        none is passed over in silence and none stops a start. Nothing is moved by a copy that may not write
        (`lock`)."""
        try:
            check_writable(self.folder)
        except OSError:
            return []
        return [_named(path.name, reason, set_aside(path).name) for path, reason in self.unusable()]

    def load_last(self) -> SavedGame | None:
        """The last game, read back, or None when there is none."""
        if not self.folder.is_dir():
            return None
        path = self.last_path()
        return read_save(path) if path is not None else None


def _named(name: str, reason: str, kept: str) -> str:
    """A file `unusable` found, named with why (and where it was kept, when it was moved)."""
    return pointer_set_aside(reason, kept) if name == POINTER else save_set_aside(name, reason, kept)


def _a_save(path: Path) -> bool:
    """A file that may hold a game: a regular file with something in it (an empty save, left by a disk that
    filled as a game started, is never taken for one)."""
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:
        return False
