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

from assistant.core.tomltext import DataFileError, load_json
from assistant.storage.files import fsync_dir, set_aside, write_atomic
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
    data = text.encode("utf-8", "backslashreplace")  # a lone surrogate becomes a JSON escape, never a crash
    return data + b"\t" + f"{zlib.crc32(data):08x}".encode("ascii") + b"\n"


#: The longest line of a save read, in bytes: a real record is under 200.
MAX_LINE_BYTES = 100_000


def decode_line(line: bytes) -> dict | None:
    """A line's record, or None when the line is damaged (bad CRC, not JSON, too long or too deep, not a table).

    A line ending in CR (a save copied through a program that writes CRLF line ends) is read as if it did not."""
    line = line.removesuffix(b"\r")
    data, tab, crc = line.rpartition(b"\t")
    if not tab or len(crc) != 8 or len(data) > MAX_LINE_BYTES:
        return None
    try:
        if int(crc, 16) != zlib.crc32(data):
            return None
        body = load_json(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, DataFileError):
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
    """Why the save cannot be continued at all (its setup line is missing, damaged or of an unknown version),
    naming the file and the line; empty when it can."""

    def set_aside(self, bad: list[int]) -> str:
        """Keep the original file beside the save, rewrite the save without the `bad` lines; return the
        kept file's name."""
        kept = set_aside(self.path, SUFFIX, keep_copy=True)
        if kept == self.path:
            raise OSError(f"cannot keep a copy of {self.path.name}")
        drop = set(bad)
        good = [line.removesuffix(b"\r") for number, line in enumerate(self.lines, start=1) if number not in drop]
        write_atomic(self.path, b"".join(line + b"\n" for line in good))
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
    if not lines:
        saved.problem = f"{path.name}:1: the file is empty"
    for number, line in enumerate(lines, start=1):
        cut_off = number == len(lines) and bool(tail)
        body = None if cut_off else decode_line(line)
        if number == 1:
            if body is None or body.get("format") != FORMAT or not isinstance(body.get("setup"), dict):
                saved.damaged.append(number)
                saved.problem = f"{path.name}:1: the first line is not a game's setup (the file is damaged)"
            elif body.get("version") != VERSION:
                saved.problem = (
                    f"{path.name}:1: it was saved in format version {str(body.get('version'))[:20]}, "
                    f"and this app reads version {VERSION}"
                )
            else:
                saved.setup = body["setup"]
            continue
        if body is None or set(body) != {"n", "r"} or not isinstance(body["r"], dict):
            saved.damaged.append(number)
            continue
        saved.records.append((number, body["r"]))
    return saved


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
        fsync_dir(self.folder)
        self._point_to(path)
        return GameLog(path, 1)

    def _point_to(self, path: Path) -> None:
        write_atomic(self.folder / POINTER, path.name + "\n")

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
