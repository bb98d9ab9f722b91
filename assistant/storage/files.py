"""The ways the app touches a user file: writing one so that a crash never leaves half of it, setting a damaged
one aside so that the rest of the app goes on (the original is kept, under a name that says when), and reading
one's bytes as text, naming the line of a byte that is not UTF-8."""

from __future__ import annotations

import datetime
import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from assistant.core.words.errors import not_utf8_line
from assistant.core.words.storage import DISK_FULL, NOT_A_REGULAR_FILE, file_too_large

#: The most a file of the home folder may hold before it is refused unread (a save of 10,000 events is ~1 MB).
MAX_FILE_BYTES = 64_000_000


class FileRefused(OSError):
    """A file that is not read: not a regular file, or too large. Its text is only the reason, in words."""

    def __str__(self) -> str:
        return self.strerror or super().__str__()


def read_bounded(path: Path | str, limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's bytes, at most `limit` of them; `OSError` (its `strerror` says why) for a pipe, a device
    or a folder (opened without waiting, so a FIFO never hangs the app) and for a larger file."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(errno.EINVAL, NOT_A_REGULAR_FILE)
        if info.st_size > limit:
            raise FileRefused(errno.EFBIG, file_too_large(limit))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while it was read
            raise FileRefused(errno.EFBIG, file_too_large(limit))
        return b"".join(chunks)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes, write: Callable[[int, bytes], int] = os.write) -> None:
    """Write every byte of `data` or raise: a write that stops short (a full disk takes what fits and says so only
    on the next write) is carried on until it is whole or fails; a full disk is `OSError` saying "the disk is
    full"."""
    view = memoryview(data)
    try:
        while view:
            done = write(fd, bytes(view))
            if done <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            view = view[done:]
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
            raise OSError(exc.errno, DISK_FULL) from None
        raise


def decode_text(raw: bytes, encoding: str = "utf-8") -> str:
    """A file's bytes as text; ValueError naming the line of the first byte that is not UTF-8, so the owner can
    find it."""
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise ValueError(not_utf8_line(raw.count(b"\n", 0, exc.start) + 1)) from None


def decode_lines(raw: bytes) -> tuple[str, list[int]]:
    """A sheet's bytes as UTF-8 text (a byte-order mark allowed), line by line: a line holding a byte that is not
    UTF-8 is left empty and its number returned, so one stray byte costs that line, not the whole file."""
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError:
        pass
    lines, bad = [], []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        try:
            lines.append(line.decode("utf-8-sig" if number == 1 else "utf-8"))
        except UnicodeDecodeError:
            lines.append("")
            bad.append(number)
    return "\n".join(lines), bad


def write_atomically(path: Path, data: str | bytes) -> Path:
    """Write the whole file or nothing: a temporary file beside it, flushed and fsynced, then renamed over it (the
    folder is fsynced too, so the new name survives a power cut). Returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    fsync_folder(path.parent)
    return path


def fsync_folder(folder: Path) -> None:
    """Make a new or renamed file's name durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def aside_name(path: Path) -> Path:
    """Where a damaged file is kept: `settings.toml.damaged-20261123-084501` beside it (never read as data); a
    second one in the same second is `...-084501-2`, so no kept file is ever replaced."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 2
    while aside.exists():
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
        number += 1
    return aside


def set_aside(path: Path) -> Path:
    """Move a damaged file out of the way, keeping it whole; returns where it went (the path itself when it
    cannot be moved, as in a read-only folder: then it is simply not used)."""
    aside = aside_name(path)
    try:
        path.rename(aside)
    except OSError:
        return path
    return aside


def keep_copy(path: Path) -> Path:
    """Keep a copy of a file about to be repaired in place (a save whose damaged lines are dropped)."""
    copy = aside_name(path)
    copy.write_bytes(path.read_bytes())
    return copy
