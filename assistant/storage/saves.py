"""Saved games on disk: the setup and an append-only log of events, each line on disk before it is announced.

A save is a text file in the data directory's `games/` folder, one record per line:

    {"format":"table-assistant game","setup":{...},"version":1}<TAB>crc
    {"n":1,"r":{"e":"draw","player":0,"count":1}}<TAB>crc
    {"n":2,"r":{"e":"undo"}}<TAB>crc

Each line ends with the CRC-32 of its JSON text in hexadecimal, so a line damaged on disk is caught even when it
still reads as JSON. `append` writes a line, flushes it and fsyncs the file. Reading keeps every whole, intact
line; a damaged or cut-off line is set aside — the original file is kept beside the save, and the save is
rewritten without the damaged lines — and the player is told. `games/last` names the save to continue.
"""

from __future__ import annotations

import datetime
import json
import os
import secrets
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from assistant.core.datatext import load_json
from assistant.core.words.errors import (
    NO_FORMAT_VERSION,
    NO_SETUP,
    NOT_A_SAVE,
    SAVE_EMPTY,
    SETUP_DAMAGED,
    save_from_newer_version,
)
from assistant.storage.files import fsync_folder, keep_copy, write_atomically
from assistant.storage.paths import user_data_dir

FORMAT = "table-assistant game"
VERSION = 1
POINTER = "last"
SUFFIX = ".jsonl"


def games_dir() -> Path:
    """Where saves live."""
    return user_data_dir() / "games"


def encode_line(body: dict) -> bytes:
    """One record as a line: compact JSON, a tab, its CRC-32."""
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    data = text.encode("utf-8")
    return data + b"\t" + f"{zlib.crc32(data):08x}".encode("ascii") + b"\n"


def decode_line(line: bytes) -> dict | None:
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


class GameLog:
    """An open save, appended to one record at a time."""

    def __init__(self, path: Path, next_number: int):
        self.path = path
        self._number = next_number
        self._file = open(path, "ab", buffering=0)  # unbuffered: each write goes straight to the OS

    def append(self, record: dict) -> None:
        """Write one record and fsync it: when this returns, the record survives a crash or power cut."""
        self._file.write(encode_line({"n": self._number, "r": record}))
        os.fsync(self._file.fileno())
        self._number += 1

    def close(self) -> None:
        """Close the file (appends after this fail)."""
        self._file.close()


@dataclass
class SavedGame:
    """A save read back: its setup, its whole records, and the lines that could not be read."""

    path: Path
    setup: dict | None
    records: list[tuple[int, dict]] = field(default_factory=list)
    """(line number, record) for every intact line after the setup."""
    damaged: list[int] = field(default_factory=list)
    """Line numbers (from 1) of damaged or cut-off lines."""
    lines: list[bytes] = field(default_factory=list)
    """Every line as read, without its newline (index = line number - 1)."""
    problem: str = ""
    """Why the setup cannot be read, when it cannot ("it is empty", "line 1, the setup, is damaged")."""

    @property
    def name(self) -> str:
        """The save's file name, for messages."""
        return self.path.name

    def set_aside(self, bad: list[int]) -> str:
        """Keep the original file beside the save, rewrite the save without the `bad` lines; return the
        kept file's name."""
        kept = keep_copy(self.path)
        drop = set(bad)
        good = [line for number, line in enumerate(self.lines, start=1) if number not in drop]
        write_atomically(self.path, b"".join(line + b"\n" for line in good))
        self.lines = good
        self.records = [(n, r) for n, r in self.records if n not in drop]
        self.damaged = []
        return kept.name

    def open_log(self) -> GameLog:
        """Continue appending to this save (records are numbered on from the lines kept)."""
        return GameLog(self.path, len(self.lines))


def read_save(path: Path) -> SavedGame:
    """Read a save, keeping every intact line and noting damaged ones; `OSError` when it cannot be read."""
    raw = path.read_bytes()
    parts = raw.split(b"\n")
    complete = parts[:-1]
    tail = parts[-1]
    lines = complete + ([tail] if tail else [])
    saved = SavedGame(path, None, lines=lines)
    for number, line in enumerate(lines, start=1):
        cut_off = number == len(lines) and bool(tail)
        body = None if cut_off else decode_line(line.removesuffix(b"\r"))  # a copy with Windows line ends reads
        if number == 1:
            saved.problem = _setup_problem(body)
            if saved.problem:
                saved.damaged.append(number)
            else:
                assert body is not None
                saved.setup = body["setup"]
            continue
        if body is None or set(body) != {"n", "r"} or not isinstance(body["r"], dict):
            saved.damaged.append(number)
            continue
        saved.records.append((number, body["r"]))
    if not raw.strip():
        saved.problem = SAVE_EMPTY
    return saved


def _setup_problem(body: dict | None) -> str:
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

    def __init__(self, folder: Path | None = None):
        self.folder = folder if folder is not None else games_dir()

    def create(self, setup: dict) -> GameLog:
        """A new save holding the setup, durable on disk, and named as the last game."""
        self.folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = self.folder / f"game-{stamp}-{secrets.token_hex(2)}{SUFFIX}"
        with open(path, "xb") as out:
            out.write(encode_line({"format": FORMAT, "version": VERSION, "setup": setup}))
            out.flush()
            os.fsync(out.fileno())
        fsync_folder(self.folder)
        self._point_to(path)
        return GameLog(path, 1)

    def _point_to(self, path: Path) -> None:
        write_atomically(self.folder / POINTER, path.name + "\n")

    def last_path(self) -> Path | None:
        """The save to continue: the one `games/last` names, or else the newest."""
        pointer = self.folder / POINTER
        try:
            name = pointer.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            name = ""
        if name and "/" not in name and "\\" not in name and (self.folder / name).is_file():
            return self.folder / name
        saves = [p for p in self.folder.glob(f"game-*{SUFFIX}") if ".damaged-" not in p.name]
        return max(saves, key=lambda p: p.stat().st_mtime) if saves else None

    def load_last(self) -> SavedGame | None:
        """The last game, read back, or None when there is none."""
        if not self.folder.is_dir():
            return None
        path = self.last_path()
        return read_save(path) if path is not None else None
