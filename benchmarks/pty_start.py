"""The app started in a pseudo-terminal as a player would start it, for the benchmarks that time or drive it.

`app_env` is the environment those benchmarks give the app (its sound to an ALSA capture's home, its own settings
folder, no screen reader, no speech-dispatcher address); `write_settings` writes the settings file in that folder;
`start` opens the pseudo-terminal and starts the command on it; `drain` reads the app's screen so it never blocks on
a full terminal.
"""

from __future__ import annotations

import os
import pty
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_settings(home: Path, **chosen: object) -> None:
    """The app's settings file in `home` (its `TABLE_ASSISTANT_HOME`): speech on, no earcons (each sound is a
    sentence), played with aplay, and `chosen` over them (the backend, a transcript, the verbosity...)."""
    from assistant.core.speech.settings import SpeechSettings
    from assistant.storage.settings import save_settings

    previous = os.environ.get("TABLE_ASSISTANT_HOME")
    os.environ["TABLE_ASSISTANT_HOME"] = str(home)
    try:
        fields: dict[str, object] = {"speech": "on", "earcons": False, "player": "aplay", **chosen}
        save_settings(SpeechSettings(**fields))  # type: ignore[arg-type]
    finally:
        if previous is None:
            os.environ.pop("TABLE_ASSISTANT_HOME", None)
        else:
            os.environ["TABLE_ASSISTANT_HOME"] = previous


def app_env(sound_home: Path, home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment for the app: `sound_home` as HOME (an ALSA capture's `.asoundrc`), `home` as
    its settings folder, a colour terminal, no screen reader, no speech-dispatcher address; `extra` over them."""
    env = {**os.environ, "HOME": str(sound_home), "TABLE_ASSISTANT_HOME": str(home), "TERM": "xterm-256color",
           "TABLE_ASSISTANT_SCREEN_READER": "none"}  # fmt: skip
    env.pop("SPEECHD_ADDRESS", None)
    env.update(extra or {})
    return env


def start(command: Sequence[str], env: Mapping[str, str]) -> tuple[int, subprocess.Popen[bytes], float]:
    """Start `command` (in the project's folder, a session of its own) on a new pseudo-terminal. Returns the
    terminal's leader side (for keys and the screen; the caller closes it), the process, and the
    `time.perf_counter()` moment just before the process was started."""
    leader, follower = pty.openpty()
    began = time.perf_counter()
    process = subprocess.Popen(list(command), stdin=follower, stdout=follower, stderr=follower, env=dict(env),
                               start_new_session=True, cwd=ROOT)  # fmt: skip
    os.close(follower)
    return leader, process, began


def drain(
    fd: int,
    drawn: threading.Event | None = None,
    when: bytes = b"Pile and chain",
    output: Callable[[bytes], None] | None = None,
) -> None:
    """Read the screen until the terminal closes: unread but for `when` (sets `drawn` once a chunk holds it, e.g.
    the region heading that says the Textual app is drawn), or each chunk handed to `output`."""
    try:
        while chunk := os.read(fd, 65536):
            if drawn is not None and when in chunk:
                drawn.set()
            if output is not None:
                output(chunk)
    except OSError:
        pass


def drain_in_background(fd: int, drawn: threading.Event | None = None, when: bytes = b"Pile and chain",
                        output: Callable[[bytes], None] | None = None) -> threading.Thread:  # fmt: skip
    """`drain` in a started daemon thread."""
    reader = threading.Thread(target=drain, args=(fd, drawn, when, output), daemon=True)
    reader.start()
    return reader
