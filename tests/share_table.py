"""A shared table for the tests of the phone page: the blind player's laptop (`table-assistant --plain --share
127.0.0.1:PORT` in a real process, what it says read from its output) and the players' phones (pages in Debian's
chromium, driven by Playwright). Everything talks to 127.0.0.1 only; every wait is on what the page or the laptop
shows, bounded in time, never a sleep."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.core.words.share import TAG_COLOURS

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
#: Debian's chromium as root in a container: no sandbox, no GPU, nothing fetched from outside (no name resolves
#: but the loopback address, so no request can leave this computer).
CHROMIUM_ARGS = [
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: How long a wait on the laptop or a page may take before the test fails (a busy 2-core machine is slow).
PATIENCE = 60.0
SHARED = re.compile(r"shared at (?P<address>http://127\.0\.0\.1:\d+)/?\. The join code is (?P<code>[0-9 ]+)\.")


def free_port() -> int:
    """A port free on 127.0.0.1 now (the laptop is started on it at once)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Laptop:
    """The blind player's laptop: the plain mode sharing the table on loopback, typed to line by line; `said` is
    every line it printed (and would have spoken), in order."""

    def __init__(self, home: Path, preexec: Callable[[], object] | None = None) -> None:
        """`preexec`: run in the laptop's process before it starts (a limit set on it)."""
        env = dict(os.environ, TABLE_ASSISTANT_HOME=str(home), PYTHONUNBUFFERED="1")
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "assistant", "--plain", "--no-speech", "--share", f"127.0.0.1:{self.port}"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=env,
            cwd=ROOT,
            preexec_fn=preexec,
        )
        self.said: list[str] = []
        self.errors: list[str] = []
        self._changed = threading.Condition()
        threading.Thread(target=self._read, args=(self.process.stdout, self.said), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self.errors), daemon=True).start()
        line = self.wait_for(lambda text: SHARED.search(text) is not None)
        found = SHARED.search(line)
        assert found is not None
        self.address = found["address"]
        self.code = found["code"].replace(" ", "")

    def _read(self, stream: Any, into: list[str]) -> None:
        for line in stream:
            with self._changed:
                into.append(line.rstrip("\n"))
                self._changed.notify_all()

    def type(self, line: str) -> None:
        """The blind player types a line and presses Enter."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def mark(self) -> int:
        """Where the laptop's output is now: `wait_for(..., after=mark)` looks only at what it says from here."""
        with self._changed:
            return len(self.said)

    def wait_for(self, wanted: Any, after: int = 0) -> str:
        """The first line said from `after` on that is `wanted` (a string: the line, or a function of the line),
        waiting for it up to PATIENCE seconds."""
        test = wanted if callable(wanted) else (lambda text: text == wanted)
        deadline = time.monotonic() + PATIENCE
        with self._changed:
            while True:
                for line in self.said[after:]:
                    if test(line):
                        return line
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise AssertionError(
                        f"the laptop never said {wanted!r}; it said:\n"
                        + "\n".join(self.said[after:])
                        + "\n"
                        + "\n".join(self.errors)
                    )
                self._changed.wait(min(left, 1.0))

    def close(self) -> None:
        """`quit`, then the process ends by itself (or is ended)."""
        if self.process.poll() is None:
            try:
                self.type("quit")
                self.process.stdin.close()  # type: ignore[union-attr]
                self.process.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def game_json(home: Path) -> dict[str, Any]:
    """`table-assistant state --json` of the last game in `home`, without the save's own path."""
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(home))
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "state", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    data.pop("save", None)
    return data


def typed_game_json(lines: list[str], home: Path) -> dict[str, Any]:
    """The same game typed: the lines played as a script (`--script`) in a home of its own, then its JSON."""
    home.mkdir(parents=True, exist_ok=True)
    script = home / "typed.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(home))
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "--script", str(script), "--no-speech"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return game_json(home)


def untag(text: Any) -> Any:
    """Text (or each text of a list or tuple) without the phones' short names ("blue 7"): ": the one showing blue
    7" in the host's question, "This phone is blue 7. " on a waiting phone, " (blue 7)" in `share devices`; for
    tests that check the rest of a sentence (the short names are chosen at random)."""
    if isinstance(text, (list, tuple)):
        return type(text)(untag(item) for item in text)
    if not isinstance(text, str):
        return text
    colour = "(?:" + "|".join(TAG_COLOURS) + ") [2-9]"
    text = re.sub(f": the one showing {colour}", "", text)
    text = re.sub(f"This phone is {colour}\\. ", "", text)
    return re.sub(f" \\({colour}\\)", "", text)
