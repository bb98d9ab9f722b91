"""Outages for real: a sound device that blocks, stops or disappears, and the app at a terminal of its own.

`FifoDevice(folder)` writes a home folder whose `.asoundrc` makes ALSA's default device a `file` PCM writing into a
FIFO (docs/robustness.md, "Outages"): nobody reading it makes opening the device block; stopping the reader
(SIGSTOP) makes writes block mid-game; killing it makes writes fail, and a new reader is the device back. Whatever
the reader took is the sound that reached the device.

`TmuxApp` (`textual_app`) runs the Textual app in tmux, its quit timed by a marker file its shell writes.

`PtyApp(args, env)` runs `python -m assistant ARGS` on a pseudo-terminal (stdin, stdout and stderr), as at her
terminal: the plain mode speaks only there, and the Textual app (`textual_pty_app`, on a terminal of 100 by 30) draws
there. Lines are typed with `type`; what the terminal showed is `text`, with the moment each piece arrived, so a
reply's delay after its key can be read (for the Textual app, the moment its words were drawn); `quit` types `quit`
(or the keys given) and times the process's end.

Test and benchmark support (tests/adapters/test_speech_outages.py, the plain mode at a terminal in
tests/ui/test_plain_screen_reader.py and tests/ui/test_plain_line_editing.py, benchmarks/outages.py), not shipped in
the app.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import pty
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import uuid
from pathlib import Path

from benchmarks.capture import AlsaCapture

ROOT = Path(__file__).resolve().parents[1]

ASOUNDRC_FIFO = """pcm.!default {{
    type file
    slave.pcm "null"
    file "{path}"
    format "raw"
}}
"""

#: The plain mode's settings for the outage runs: its own voice (espeak-ng) through the app's mixer.
SETTINGS = """[speech]
speech = "own-voice"
backend = "espeak-ng"
player = "{player}"
earcons = false
table_voice = false
transcript = "{transcript}"
"""


class FifoDevice:
    """ALSA's default device as a FIFO, and the reader that plays the sound card (started, stopped, killed)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.home = folder / "alsa-home"
        self.home.mkdir(parents=True, exist_ok=True)
        self.fifo = folder / "device"
        os.mkfifo(self.fifo)
        (self.home / ".asoundrc").write_text(ASOUNDRC_FIFO.format(path=self.fifo), encoding="utf-8")
        self.reader: subprocess.Popen[bytes] | None = None
        self.heard: list[Path] = []
        """What each reader took, in order."""
        self.old_readers: list[subprocess.Popen[bytes]] = []
        """Readers of a FIFO replaced (`come_back_anew`), to be killed at `close`."""

    def start_reader(self) -> None:
        """A sound card takes what is written (a new one each time: the device back)."""
        out = self.folder / f"heard-{len(self.heard)}"
        self.heard.append(out)
        with open(out, "wb") as sink:
            # The FIFO opened for reading and writing (`<>`): a reader of a FIFO alone ends at the first moment no
            # writer holds it, and PortAudio opens ALSA's device, closes it and opens it again while a stream opens,
            # so a plain `cat FIFO` ended in that gap (1 run in about 20, more under load) and the app's second
            # open waited for ever on a device that had come back. A sound card stays there between two opens.
            self.reader = subprocess.Popen(
                ["sh", "-c", 'exec cat <> "$0"', str(self.fifo)], stdout=sink, start_new_session=True
            )

    def come_back_anew(self) -> None:
        """The device comes back as a new one while a call to the old one never returns (a sound server restarted
        while the old one hangs): the FIFO is unlinked (a call stuck on it stays stuck: nobody can read it now) and a
        new one at the same path is read. A stopped reader of the old one is left stopped (killed at `close`)."""
        if self.reader is not None:
            self.old_readers.append(self.reader)
            self.reader = None
        self.fifo.unlink()
        os.mkfifo(self.fifo)
        self.start_reader()

    def stop_reader(self) -> None:
        """The device stops taking sound (a hung sound server): writes block once the pipe is full."""
        assert self.reader is not None
        os.kill(self.reader.pid, signal.SIGSTOP)

    def resume_reader(self) -> None:
        assert self.reader is not None
        os.kill(self.reader.pid, signal.SIGCONT)

    def kill_reader(self) -> None:
        """The device disappears: writes fail."""
        if self.reader is not None:
            os.kill(self.reader.pid, signal.SIGKILL)
            self.reader.wait()
            self.reader = None

    def bytes_heard(self, reader: int = -1) -> int:
        """Bytes one reader took (the last by default)."""
        try:
            return self.heard[reader].stat().st_size
        except (IndexError, OSError):
            return 0

    def wait_heard(self, timeout: float) -> bool:
        """Until the last reader has taken sound (the app's stream open, its words reaching the device), polled;
        False after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while self.bytes_heard() == 0:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def env(self) -> dict[str, str]:
        """What a program needs to play into this device (its HOME holds the `.asoundrc`)."""
        return {"HOME": str(self.home)}

    def close(self) -> None:
        self.kill_reader()
        for reader in self.old_readers:
            os.kill(reader.pid, signal.SIGKILL)
            reader.wait()
        self.old_readers.clear()


def core_seconds(pid: int) -> tuple[float, float, float]:
    """A process's seconds on a core and waiting for one (runnable, not running) so far, summed over its threads
    now (`/proc/PID/task/*/schedstat`: a thread that ended is no longer counted), and its main thread's seconds on
    a core."""
    on = waiting = main = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            ran, waited, _ = stat.read_text().split()
        except (OSError, ValueError):  # (the thread ended meanwhile)
            continue
        on, waiting = on + int(ran), waiting + int(waited)
        main += int(ran) if stat.parent.name == str(pid) else 0
    return on / 1e9, waiting / 1e9, main / 1e9


def completed_at(pieces: list[tuple[float, bytes]], text: str, count: int) -> float | None:
    """When the piece arrived (of `pieces`, each with its moment) that made `text` show `count` times; None while it
    has not."""
    joined, wanted, end = b"".join(piece for _, piece in pieces), text.encode(), 0
    for _ in range(count):
        found = joined.find(wanted, end)
        if found < 0:
            return None
        end = found + len(wanted)
    for moment, piece in pieces:
        end -= len(piece)
        if end <= 0:
            return moment
    return None  # (never reached: the text ends within the pieces)


class PtyApp:
    """The app on a pseudo-terminal of its own; what it showed, with when."""

    def __init__(self, args: list[str], env: dict[str, str], size: tuple[int, int] | None = None) -> None:
        master, slave = pty.openpty()
        if size is not None:  # (columns, rows): a full-screen app draws for the terminal's size
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.master = master
        self.process = subprocess.Popen(
            [sys.executable, "-m", "assistant", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=ROOT,
            start_new_session=True,
        )
        os.close(slave)
        self.pieces: list[tuple[float, bytes]] = []
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, name="pty-reader", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the app ended: the terminal's other side is gone
                data = b""
            at = time.monotonic()  # (as it arrived: not after waiting for the lock a reader may hold)
            with self._changed:
                self.pieces.append((at, data))
                self._changed.notify_all()
                if not data:
                    return

    def text(self) -> str:
        with self._changed:
            data = b"".join(piece for _, piece in self.pieces)
        return data.decode("utf-8", errors="replace").replace("\r", "")

    def type(self, line: str) -> float:
        """Type a line and Enter; the moment it was sent."""
        sent = time.monotonic()
        os.write(self.master, line.encode() + b"\r")
        return sent

    def send(self, keys: bytes) -> float:
        """Send keys as they are (no Enter); the moment they were sent."""
        sent = time.monotonic()
        os.write(self.master, keys)
        return sent

    def wait_for(self, text: str, count: int = 1, timeout: float = 60.0) -> float | None:
        """The moment `text` had shown `count` times (waiting for it): when the piece that completed it arrived,
        not a later one read with it; None when it never did."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                moment = completed_at(self.pieces, text, count)
                if moment is not None:
                    return moment
                left = deadline - time.monotonic()
                if left <= 0 or (self.pieces and self.pieces[-1][1] == b""):
                    return None
                self._changed.wait(left)

    def quit(self, timeout: float = 30.0, keys: bytes = b"") -> float | None:
        """Type `quit` (or send `keys`: Control Q is b"\\x11"); seconds until the process ended, or None when it had
        not within `timeout`."""
        sent = self.type("quit") if not keys else time.monotonic()
        if keys:
            os.write(self.master, keys)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        return time.monotonic() - sent

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self._thread.join(5)
        os.close(self.master)


def plain_app(folder: Path, device: FifoDevice, player: str = "sounddevice") -> tuple[PtyApp, Path]:
    """The plain mode at a terminal, its own voice playing into `device`; and its transcript's path."""
    home = folder / "app-home"
    (home / "config").mkdir(parents=True, exist_ok=True)
    transcript = folder / "transcript.txt"
    settings = SETTINGS.format(player=player, transcript=transcript)
    (home / "config" / "settings.toml").write_text(settings, encoding="utf-8")
    env = {
        **os.environ,
        **device.env(),
        "TABLE_ASSISTANT_HOME": str(home),
        "PYTHONPATH": str(ROOT),
        "TERM": "xterm",
        "TABLE_ASSISTANT_SCREEN_READER": "off",
    }
    env.pop("SPEECHD_ADDRESS", None)
    return PtyApp(["--plain", "--no-camera"], env), transcript


def textual_pty_app(folder: Path, device: FifoDevice) -> tuple[PtyApp, Path]:
    """The Textual app at a terminal of its own (100 by 30), its own voice playing into `device`; and its
    transcript's path."""
    home = folder / "app-home"
    (home / "config").mkdir(parents=True, exist_ok=True)
    transcript = folder / "transcript.txt"
    settings = SETTINGS.format(player="sounddevice", transcript=transcript)
    (home / "config" / "settings.toml").write_text(settings, encoding="utf-8")
    env = {
        **os.environ,
        **device.env(),
        "TABLE_ASSISTANT_HOME": str(home),
        "PYTHONPATH": str(ROOT),
        "TERM": "xterm-256color",
        "TABLE_ASSISTANT_SCREEN_READER": "off",
    }
    env.pop("SPEECHD_ADDRESS", None)
    return PtyApp(["--no-camera"], env, size=(100, 30)), transcript


class TmuxApp:
    """The Textual app in a tmux session on a server of its own (`tmux` installed); `ended` is written the moment the
    app's process has ended, so a quit can be timed."""

    def __init__(self, env: dict[str, str]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="ta-out-"))  # short: a socket's path has a length limit
        self.tmux = ["tmux", "-S", str(self.folder / "socket")]
        self.name = f"ta-{uuid.uuid4().hex[:8]}"
        self.ended = self.folder / "ended"
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        line = f"env {exports} TERM=xterm-256color {sys.executable} -m assistant --no-camera; touch {self.ended}"
        subprocess.run([*self.tmux, "new-session", "-d", "-s", self.name, "-c", str(ROOT), "-x", "100", "-y", "30",
                        f"sh -c '{line}'; sleep 60"], check=True)  # fmt: skip

    def keys(self, *keys: str) -> float:
        """Send keys; the moment they were sent."""
        sent = time.monotonic()
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)
        return sent

    def screen(self) -> str:
        done = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def wait_for(self, text: str, timeout: float = 30.0) -> str | None:
        """The screen once `text` shows on it (its lines joined, so a wrapped sentence is found), or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in " ".join(screen.split()):
                return screen
            time.sleep(0.05)  # (tmux and the app are real processes: the screen is polled)
        return None

    def wait_ended(self, timeout: float = 30.0) -> float | None:
        """The moment the app's process ended (the marker's time), or None when it had not within `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.ended.exists():
                return time.monotonic()
            time.sleep(0.01)
        return None

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def textual_app(folder: Path, device: FifoDevice) -> tuple[TmuxApp, Path]:
    """The Textual app in tmux, its own voice playing into `device`; and its transcript's path."""
    home = folder / "app-home"
    (home / "config").mkdir(parents=True, exist_ok=True)
    transcript = folder / "transcript.txt"
    settings = SETTINGS.format(player="sounddevice", transcript=transcript)
    (home / "config" / "settings.toml").write_text(settings, encoding="utf-8")
    env = {"TABLE_ASSISTANT_HOME": str(home), "PYTHONPATH": str(ROOT), "HOME": str(device.home),
           "TABLE_ASSISTANT_SCREEN_READER": "off"}  # fmt: skip
    return TmuxApp(env), transcript


SPEECHD_CONFIG = """LogLevel 2
LogDir "{log}"
AudioOutputMethod "alsa"
AudioALSADevice "default"
AddModule "espeak-ng" "sd_espeak-ng" "{module}"
DefaultModule espeak-ng
"""
SPEECHD_MODULE_CONFIG = "/etc/speech-dispatcher/modules/espeak-ng.conf"
#: How long a daemon may take to answer on its socket before it is taken as not starting: only a failure's bound (the
#: wait ends as soon as it answers), one that holds on a machine loaded far past its cores (it was 10 s).
SPEECHD_START_BOUND = 300.0


def launch_speechd(folder: Path, capture: AlsaCapture) -> tuple[subprocess.Popen[bytes], Path, dict[str, str]]:
    """A real speech-dispatcher with its runtime, configuration and logs in `folder` (the same socket when started
    again there: a daemon restarted), its sound into `capture`; RuntimeError, with why, when it does not start."""
    from assistant.speech.dispatcher import socket_answers

    program = shutil.which("speech-dispatcher")
    if program is None:
        raise RuntimeError("speech-dispatcher is not installed")
    runtime, config, log = folder / "run", folder / "speechd-config", folder / "speechd-log"
    for each in (runtime, config, log):
        each.mkdir(mode=0o700, exist_ok=True)
    module = SPEECHD_MODULE_CONFIG if Path(SPEECHD_MODULE_CONFIG).exists() else ""
    (config / "speechd.conf").write_text(SPEECHD_CONFIG.format(log=log, module=module), encoding="utf-8")
    socket = short_path(runtime) / "speech-dispatcher" / "speechd.sock"
    env = {**os.environ, "HOME": str(capture.home), "XDG_RUNTIME_DIR": str(runtime)}
    env.pop("SPEECHD_ADDRESS", None)
    process = subprocess.Popen(
        [program, "-s", "-t", "0", "-C", str(config), "-S", str(socket), "-P", str(runtime / "speechd.pid")],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + SPEECHD_START_BOUND
    while not socket_answers(socket) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)  # (the speech-dispatcher daemon starting, polled)
    if not socket_answers(socket):
        stop_speechd(process)
        logs = " ".join(p.read_text(errors="replace")[-300:] for p in log.glob("*.log"))
        raise RuntimeError(f"speech-dispatcher did not start here (status {process.poll()}): {logs}")
    return process, socket, env


def short_path(folder: Path) -> Path:
    """A short path to `folder` for a socket in it (a link in the temporary folder, named by the folder: the same
    for the same folder): a Unix socket's path may have at most 107 characters, and a test's folder can take most
    of them (pytest's thousandth numbered folder under a worker's). `stop_speechd` removes the link."""
    digest = hashlib.sha256(str(folder).encode()).hexdigest()[:12]
    link = Path(tempfile.gettempdir()) / f"speechd-{digest}"
    if not (link.is_symlink() and link.readlink() == folder):
        link.unlink(missing_ok=True)
        link.symlink_to(folder, target_is_directory=True)
    return link


def stop_speechd(process: subprocess.Popen[bytes], socket: Path | None = None) -> None:
    """Stop a daemon `launch_speechd` started, by its pid (its own session: the daemon and its module); given its
    `socket`, for good (the short path to it removed: `short_path`)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    if socket is not None and socket.parent.parent.is_symlink():
        socket.parent.parent.unlink()
