"""One writer per home: the app and the plain mode hold a lock on the saved games while they run.

Two copies of the app writing one save would interleave their records (one undoes what the other then builds
on) and the game read back would match neither. The first copy takes an exclusive `flock` on `games/lock` and
writes its process id into it; a second copy finds the lock taken, reads who holds it, and records nothing: every
save write in it raises `OSError` naming that process, which the game says as "not recorded". The kernel lets go
of the lock when the process ends, even by `kill -9`, so a stale lock never blocks anyone. On Windows, which has no
`fcntl`, the lock is `msvcrt.locking` on one byte past the process id (a byte range Windows locks against every
other process, let go when the process ends); the id itself stays readable.

The lock fails closed: a lock file that cannot be opened or locked (a folder or a file it may not open in its
place, a file system without locks) makes this copy read-only too, with the reason, since another copy may be
writing unseen. Only a games folder that cannot even be made leaves writing to say why on each write.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from assistant.core.words.storage import games_held_by, games_lock_unusable

#: The errors of a lock another process holds (`flock`: EWOULDBLOCK; `msvcrt.locking`: EACCES or EDEADLOCK).
_TAKEN = {errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES, getattr(errno, "EDEADLOCK", errno.EDEADLK)}
#: The lock file's name in the games folder (never a save: saves are `game-*.jsonl`).
LOCK_NAME = "lock"

_held: dict[Path, int] = {}
"""Folders whose lock this process holds, with the lock file's descriptor (kept open while the process runs)."""
_refused: dict[Path, int | str] = {}
"""Folders this process may not write: the id of the process that held the lock when this one asked (0 when it
could not be read), or why the lock could not be taken."""


def _key(folder: Path) -> Path:
    return Path(os.path.abspath(folder))


def claim(folder: Path) -> int | str | None:
    """Hold the lock of `folder` for as long as this process runs. None: this process may write (it holds the
    lock, or there is no lock to take: no `fcntl`, or a games folder that cannot be made, where each write says
    why); else the id of the process that holds it, or why the lock could not be taken (the lock fails closed),
    and every write to the folder's saves is refused from now on."""
    key = _key(folder)
    if key in _held:
        return None
    if key in _refused:
        return _refused[key]
    lock = _locker()
    if lock is None:  # pragma: no cover - neither fcntl nor msvcrt
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # no games folder at all: every write fails and says why
    try:
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(folder / LOCK_NAME, flags, 0o644)
    except OSError as exc:
        _refused[key] = exc.strerror or str(exc)
        return _refused[key]
    try:
        lock(fd)
    except OSError as exc:
        taken = exc.errno in _TAKEN
        refused: int | str = _read_pid(fd) if taken else (exc.strerror or str(exc))
        os.close(fd)
        _refused[key] = refused
        return refused
    try:
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    except OSError:
        pass  # the id is only for the message; the lock itself is held
    _held[key] = fd
    return None


#: Where the Windows lock's byte is: past any process id, so the id stays readable to the process refused.
WINDOWS_LOCK_OFFSET = 64


def _locker() -> Callable[[int], None] | None:
    """The function that takes the exclusive lock of an open file without waiting (`OSError` when another process
    holds it): `flock` where `fcntl` exists, `msvcrt.locking` on Windows; None with neither."""
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]
    if fcntl is not None:
        return lambda fd: fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        import msvcrt
    except ImportError:
        return None

    def lock_byte(fd: int) -> None:
        os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]

    return lock_byte


def _read_pid(fd: int) -> int:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 32).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return 0
    return int(text) if text.isdigit() and len(text) < 12 else 0


def check_writable(folder: Path) -> None:
    """Raise `OSError` (EBUSY, naming the process, or why the lock could not be taken) when this process may not
    write `folder`'s saves; nothing otherwise."""
    holder = _refused.get(_key(folder))
    if isinstance(holder, str):
        raise OSError(errno.EBUSY, games_lock_unusable(holder))
    if holder is not None:
        raise OSError(errno.EBUSY, games_held_by(holder))
