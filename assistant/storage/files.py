"""The one way the app writes a file safely and sets a damaged one aside.

`write_atomic` writes a temporary file in the same folder, fsyncs it, renames it over the old one and fsyncs the
folder: after a crash the file is the old one whole or the new one whole. `set_aside` keeps a damaged file
beside where it was, as `<name>.damaged-<date and time><suffix>`, so nothing the player had is lost.
`read_user_text` reads a player's file with a size limit, so a huge file is refused rather than read.
"""

from __future__ import annotations

import datetime
import os
import shutil
import tempfile
from pathlib import Path

#: The largest user file read at all, in bytes (settings, imported decks); larger ones are set aside.
MAX_FILE_BYTES = 2_000_000


def fsync_dir(folder: Path) -> None:
    """Make a new or renamed file's name durable (a no-op where directories cannot be opened)."""
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


def write_atomic(path: Path, data: str | bytes) -> Path:
    """Write `data` to `path` whole or not at all (temporary file, fsync, rename, fsync of the folder)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
    return path


def aside_name(path: Path, suffix: str = "") -> Path:
    """Where a damaged `path` is kept: `<name>.damaged-<date and time><suffix>` beside it (never an existing file)."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    stem = path.stem if suffix else path.name
    kept = path.with_name(f"{stem}.damaged-{stamp}{suffix}")
    number = 1
    while kept.exists():
        number += 1
        kept = path.with_name(f"{stem}.damaged-{stamp}-{number}{suffix}")
    return kept


def set_aside(path: Path, suffix: str = "", *, keep_copy: bool = False) -> Path:
    """Keep a damaged file as `aside_name(path, suffix)`; return where it is now.

    `keep_copy` copies it (the caller then rewrites `path` with what could be read); otherwise it is moved, so
    the app starts afresh. When it cannot be moved or copied (a read-only folder), it stays where it is and its
    own path is returned.
    """
    kept = aside_name(path, suffix)
    try:
        if keep_copy:
            shutil.copy2(path, kept)
        else:
            path.rename(kept)
    except OSError:
        return path
    fsync_dir(path.parent)
    return kept


def read_user_text(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """A player's text file, as UTF-8 (a leading byte-order mark dropped); `OSError` when it cannot be read,
    `ValueError` (with a message fit to say) when it is too large or not UTF-8."""
    with path.open("rb") as handle:
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise ValueError(f"is too large (more than {max_bytes:,} bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ValueError(f"line {line}: is not UTF-8 text") from None
    return text.removeprefix("\ufeff")
