"""A real BRLTTY for the braille display's tests: its TTY braille driver draws a display of a chosen width on a
pseudo-terminal of its own, with BrlAPI on a port of its own; the test reads the display's cells from the
pseudo-terminal and types on its keys by writing there. Stopped by its pid."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

#: What the TTY driver's keys send (xterm's keypad sequences, as curses reads them); the commands BRLTTY 6.5 reports
#: for them through BrlAPI were found by trying: the arrows FWINLT, FWINRT, LNUP, LNDN; F3 INFO; Page Up and Down
#: PRDIFLN and NXDIFLN; Home and End TOP and BOT; Delete ATTRDN; Return and Backspace come as symbols, letters as
#: Latin-1.
KEYS = {
    "pan left": b"\x1bOD",
    "pan right": b"\x1bOC",
    "line up": b"\x1bOA",
    "line down": b"\x1bOB",
    "where": b"\x1bOR",  # F3, BRLTTY's INFO
    "help": b"\x1bOP",  # F1, BRLTTY's HELP
    "region next": b"\x1b[6~",  # Page Down: BRLTTY's next different line
    "region previous": b"\x1b[5~",  # Page Up
    "top": b"\x1bOH",  # Home
    "bottom": b"\x1bOF",  # End
    "next unread": b"\x1b[3~",  # Delete: BRLTTY's ATTRDN
    "enter": b"\r",
    "backspace": b"\x7f",
}

BRLTTY = shutil.which("brltty") or ("/usr/sbin/brltty" if Path("/usr/sbin/brltty").exists() else None)
_DRAWN = re.compile("[\u2800-\u28ff]+")


#: The lock files of the ports this process has claimed, kept open (so locked) until it ends.
_CLAIMED: dict[int, IO[bytes]] = {}


def free_offset() -> int:
    """A BrlAPI port offset (port 4101 + offset) nothing listens on, claimed for this process until it ends: a lock
    file per port, so that another test process or a benchmark beside it never takes the same port in the second
    its BRLTTY takes to listen, nor while one is started again there."""
    for offset in range(50 + os.getpid() % 400, 900):
        if offset in _CLAIMED:
            continue
        claim = open(Path(tempfile.gettempdir()) / f"table-assistant-brlapi-{4101 + offset}.lock", "ab")
        try:
            fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            claim.close()
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", 4101 + offset))
            except OSError:
                claim.close()
                continue
        _CLAIMED[offset] = claim
        return offset
    raise RuntimeError("no free BrlAPI port")


def _listening(port: int) -> bool:
    """Whether a socket listens on `port` (read from the kernel's table, so that looking never makes a connection:
    BRLTTY accepts its first connections late, and a crowd of probes that went away is none of its clients')."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[1].rsplit(":", 1)[1] == f"{port:04X}" and fields[3] == "0A":  # 0A: LISTEN
                return True
    return False


#: How many times a BRLTTY that ends while it starts is started, in all.
STARTS = 3

#: The bound on a wait for what BRLTTY or the app must do (BRLTTY listening and drawing, the app finding it, a frame
#: shown): every wait ends as soon as it is done, so this only marks a failure. It holds on a machine loaded far past
#: its cores (a BRLTTY started after the app was found in more than 30 s at load 20 to 47 on 2 cores).
SLOW = 300.0

#: Every BRLTTY of this process not stopped yet (`stop`), for what a failed wait reports (`states`).
_RUNNING: list[Brltty] = []


def states() -> str:
    """How each BRLTTY of this process stands (running or ended, listening or not) with its log's end: what a wait
    that failed reports beside what it waited for."""
    lines = []
    for server in _RUNNING:
        code = server.process.poll()
        port = 4101 + server.offset
        lines.append(
            f"BRLTTY pid {server.process.pid} on port {port}: {'running' if code is None else f'ended ({code})'}, "
            f"{'listening' if _listening(port) else 'not listening'}; its log ends "
            f"{Path(server._log.name).read_text(errors='replace')[-300:]!r}"
        )
    return "\n".join(lines)


class Brltty:
    """One BRLTTY with a TTY display of `width` cells; `host` for BRLAPI_HOST, `auth` for BRLAPI_AUTH; `offset`:
    the BrlAPI port's (a free one unless given)."""

    def __init__(self, folder: Path, width: int = 40, offset: int | None = None):
        assert BRLTTY is not None
        self.width = width
        self.master, self.slave = pty.openpty()  # the slave kept open: reading the master of a closed one fails
        self.offset = offset if offset is not None else free_offset()  # a given one: BRLTTY started again there
        self.host = f"127.0.0.1:{self.offset}"
        self.auth = "none"
        folder.mkdir(parents=True, exist_ok=True)
        self.output = bytearray()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._log = open(folder / "brltty.log", "w")  # closed by stop()
        self._rows_before = 0
        self._folder = folder
        self.process = self._spawn(folder)
        _RUNNING.append(self)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            self._wait_for_server()
        except RuntimeError:
            self.stop()
            raise

    def _spawn(self, folder: Path) -> subprocess.Popen[bytes]:
        env = {**os.environ, "TERM": "xterm"}
        return subprocess.Popen(
            [
                BRLTTY, "-n", "-e", "-q", "-b", "tt", "-d", os.ttyname(self.slave), "-B",
                f"columns={self.width},term=xterm", "-x", "no", "-A", f"auth=none,host={self.host}",
                "-P", str(folder / "pid"), "-W", str(folder), "-U", str(folder),
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._log, env=env,
        )  # fmt: skip

    def start_again(self, folder: Path) -> None:
        """Start BRLTTY again, on the same pseudo-terminal (the same display) and the same port, once the one
        before has ended (killed); returns at once, while it starts (`wait_for_server` waits for it)."""
        assert self.process.poll() is not None
        folder.mkdir(parents=True, exist_ok=True)
        self._rows_before = self.drawn()
        self._folder = folder
        self.process = self._spawn(folder)

    def wait_for_server(self) -> None:
        """Until BrlAPI listens and the braille driver has drawn a row since it was started again."""
        self._wait_for_server(self._rows_before)

    def _read(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                with self._lock:
                    self.output.extend(data)

    def _wait_for_server(self, rows_before: int = 0) -> None:
        """Until BrlAPI listens and the braille driver has drawn a row after the first `rows_before` (its first,
        before which the size is 0)."""
        deadline = time.monotonic() + SLOW  # only a failure's bound: a busy machine starts BRLTTY slowly
        starts = 1
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if starts == STARTS:
                    break
                starts += 1  # BRLTTY 6.5 itself ends at start now and then, with or without a client
                self.process = self._spawn(self._folder)  # ("malloc(): invalid size"): started again, as a
                continue  # service manager would; the app's part (finding it again) is what the tests judge
            if _listening(4101 + self.offset) and self.drawn() > rows_before:
                return
            time.sleep(0.05)  # (the BRLTTY process starting, polled)
        self._log.flush()
        log = Path(self._log.name).read_text(errors="replace")[-400:]
        raise RuntimeError(f"BRLTTY did not start its BrlAPI server and its display (it ended: {log!r})")

    def cells(self) -> str:
        """The cells the display shows now: the last full row of braille the driver drew, without the cursor
        (dots 7 and 8, read by `cursor`)."""
        return "".join(chr(0x2800 | (ord(cell) - 0x2800) & 0x3F) for cell in self.raw_cells())

    def raw_cells(self) -> str:
        """The last full row of braille the driver drew, the cursor's dots 7 and 8 included."""
        with self._lock:
            text = self.output.decode("utf-8", errors="replace")
        rows = [row for row in _DRAWN.findall(text) if len(row) == self.width]
        return rows[-1] if rows else ""

    def cursor(self) -> int | None:
        """The cell the cursor is on (from 0), or None when it is off: the cell with dots 7 and 8 (the text the
        app writes has only six-dot cells)."""
        found = [index for index, cell in enumerate(self.raw_cells()) if (ord(cell) - 0x2800) & 0xC0 == 0xC0]
        return found[0] if found else None

    def drawn(self) -> int:
        """How many rows of cells the driver has drawn so far (a new one appears with each change)."""
        with self._lock:
            text = self.output.decode("utf-8", errors="replace")
        return sum(1 for row in _DRAWN.findall(text) if len(row) == self.width)

    def press(self, key: str) -> None:
        """Press one of the display's keys (`KEYS`)."""
        os.write(self.master, KEYS[key])

    def type(self, text: str) -> None:
        """Type on the display's keyboard, one key at a time."""
        for character in text:
            os.write(self.master, character.encode("latin-1"))

    def wait_for(self, condition: Callable[[str], bool], timeout: float = SLOW) -> str:
        """Wait until the cells shown meet `condition`; the cells (AssertionError with them after `timeout`)."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.cells()
            if condition(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"the display shows {shown!r}")
            time.sleep(0.02)  # (what the BRLTTY process shows, polled)

    def stop(self) -> None:
        """Stop BRLTTY by its pid, and close the pseudo-terminal (once; a second call does nothing)."""
        if self._stop.is_set():
            return
        _RUNNING.remove(self)
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._stop.set()
        self._reader.join(timeout=1)
        os.close(self.master)
        os.close(self.slave)
        self._log.close()


async def all_shown(pilot: Any, server: Brltty, link: Any, timeout: float = SLOW) -> None:
    """Wait (letting the app run: `pilot`) until BRLTTY has answered after the last frame the app wrote to its display
    (`DisplayLink.shown`, the app's own signal that BRLTTY has shown it: a fact in it is read) and the display's cells
    are that frame's, with no frame written since: whatever the app does once the display has shown what it wrote
    is done. `timeout` only marks a failure."""
    deadline = time.monotonic() + timeout
    while True:
        frame, cells = link.written
        if link.shown >= frame and server.cells() == cells.ljust(server.width, "\u2800"):
            await pilot.pause()  # (a message the answer posted is handled: a frame it draws is written)
            if link.written[0] == frame:
                return
        if time.monotonic() > deadline:
            raise AssertionError(f"frame {frame} never shown: BRLTTY answered after {link.shown}\n{states()}")
        await pilot.pause(0.02)
