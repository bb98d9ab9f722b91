"""The saved games' lock where there is no `fcntl` (Windows): `msvcrt.locking` on a byte past the process id.

Windows cannot run here, so each window is a real process in which `fcntl` cannot be imported and `msvcrt` is a
stand-in that does what Windows' `locking` does, a byte-range lock that another process cannot take and that goes
with the process, made with the kernel's own byte-range lock. What is tested is the app's side: which lock it
takes, where, and what the second window reads and says.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STAND_IN = '''"""msvcrt as far as the app uses it: locking(fd, mode, nbytes) from the file's position."""
import fcntl
import os

LK_UNLCK, LK_LOCK, LK_NBLCK = 0, 1, 2


def locking(fd, mode, nbytes):
    start = os.lseek(fd, 0, os.SEEK_CUR)
    if mode == LK_NBLCK:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, nbytes, start, os.SEEK_SET)
    elif mode == LK_UNLCK:
        fcntl.lockf(fd, fcntl.LOCK_UN, nbytes, start, os.SEEK_SET)
    else:
        raise ValueError(mode)
'''

WINDOW = """import sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
import msvcrt  # the stand-in, which locks with the kernel's byte-range locks
sys.modules["fcntl"] = None  # as on Windows: there is no fcntl
from assistant.storage.lock import claim, check_writable
holder = claim(Path(sys.argv[1]))
print(holder, flush=True)
if holder is not None:
    try:
        check_writable(Path(sys.argv[1]))
    except OSError as exc:
        print(exc.strerror, flush=True)
sys.stdin.read()  # the window stays open until the test closes it
"""


def window(folder: Path, stand_in: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", WINDOW, str(folder), str(stand_in)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_without_fcntl_the_second_window_finds_the_games_held_and_a_closed_window_lets_go(tmp_path):
    from assistant.core.words.storage import games_held_by
    from assistant.storage.lock import LOCK_NAME, WINDOWS_LOCK_OFFSET

    stand_in = tmp_path / "stand-in"
    stand_in.mkdir()
    (stand_in / "msvcrt.py").write_text(STAND_IN, encoding="utf-8")
    games = tmp_path / "games"
    first = window(games, stand_in)
    second = None
    try:
        assert first.stdout is not None and first.stdout.readline().strip() == "None", first.stderr  # it holds them
        assert (games / LOCK_NAME).read_text(encoding="ascii").strip() == str(first.pid)
        assert WINDOWS_LOCK_OFFSET > len(str(first.pid)) + 1  # the locked byte leaves the id readable
        second = window(games, stand_in)
        assert second.stdout is not None
        assert second.stdout.readline().strip() == str(first.pid)  # refused, told who holds them
        assert second.stdout.readline().strip() == games_held_by(first.pid)
    finally:
        for process in (first, second):
            if process is not None:
                process.communicate("", timeout=60)
    third = window(games, stand_in)  # the first window closed: its lock went with it
    try:
        assert third.stdout is not None and third.stdout.readline().strip() == "None"
    finally:
        third.communicate("", timeout=60)
