"""Real sound for the speech tests: ALSA's file plugin as the sound card, and a real speech-dispatcher.

`alsa_capture` gives an `AlsaCapture` (benchmarks/capture.py): programs started with its home play into
numbered files instead of a sound card. `speech_dispatcher` starts a real speech-dispatcher for one test, with
HOME and XDG_RUNTIME_DIR in the test's folder, its espeak-ng module playing through ALSA into that capture, and
stops it by its pid afterwards. A test is skipped (with the reason) only when the program is not installed or
truly cannot start here.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from assistant.speech.dispatcher import socket_answers
from benchmarks.capture import AlsaCapture

CONFIG = """LogLevel 2
LogDir "{log}"
AudioOutputMethod "alsa"
AudioALSADevice "default"
AddModule "espeak-ng" "sd_espeak-ng" "{module}"
DefaultModule espeak-ng
"""
MODULE_CONFIG = "/etc/speech-dispatcher/modules/espeak-ng.conf"


@pytest.fixture
def alsa_capture(tmp_path) -> AlsaCapture:
    """A capture folder; skipped when aplay is not installed."""
    if not shutil.which("aplay"):
        pytest.skip("aplay (alsa-utils) is not installed")
    return AlsaCapture(tmp_path / "capture")


@dataclass
class Dispatcher:
    """A running speech-dispatcher: its socket, the environment that reaches it, and where its sound goes."""

    socket: Path
    environ: dict[str, str]
    capture: AlsaCapture
    pid: int


def start_speechd(folder: Path, capture: AlsaCapture) -> tuple[subprocess.Popen[bytes], Path, dict[str, str]]:
    """A real speech-dispatcher with its runtime, configuration and logs in `folder` (the same socket when started
    again there: a daemon restarted), its sound into `capture`; skipped when it cannot start here."""
    program = shutil.which("speech-dispatcher")
    if program is None:
        pytest.skip("speech-dispatcher is not installed (Debian: speech-dispatcher speech-dispatcher-espeak-ng)")
    runtime, config, log = folder / "run", folder / "speechd-config", folder / "speechd-log"
    for each in (runtime, config, log):
        each.mkdir(mode=0o700, exist_ok=True)
    module = MODULE_CONFIG if Path(MODULE_CONFIG).exists() else ""
    (config / "speechd.conf").write_text(CONFIG.format(log=log, module=module), encoding="utf-8")
    socket = runtime / "speech-dispatcher" / "speechd.sock"
    env = {**os.environ, "HOME": str(capture.home), "XDG_RUNTIME_DIR": str(runtime)}
    env.pop("SPEECHD_ADDRESS", None)
    process = subprocess.Popen(
        [program, "-s", "-t", "0", "-C", str(config), "-S", str(socket), "-P", str(runtime / "speechd.pid")],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while not socket_answers(socket) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)  # (the speech-dispatcher daemon starting, polled)
    if not socket_answers(socket):
        stop_speechd(process)
        logs = " ".join(p.read_text(errors="replace")[-300:] for p in log.glob("*.log"))
        pytest.skip(f"speech-dispatcher did not start here (status {process.poll()}): {logs}")
    return process, socket, env


def stop_speechd(process: subprocess.Popen[bytes]) -> None:
    """Stop a daemon `start_speechd` started, by its pid (its own session: the daemon and its module)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def speech_dispatcher(tmp_path, alsa_capture):
    """A real speech-dispatcher for one test, stopped by its pid afterwards."""
    try:
        import speechd  # noqa: F401
    except ImportError:
        pytest.skip("python3-speechd is not importable (scripts/setup.sh links it into the environment)")
    if shutil.which("speech-dispatcher") is None:
        pytest.skip("speech-dispatcher is not installed (Debian: speech-dispatcher speech-dispatcher-espeak-ng)")
    process, socket, env = start_speechd(tmp_path, alsa_capture)
    try:
        yield Dispatcher(socket, {**env, "SPEECHD_ADDRESS": f"unix_socket:{socket}"}, alsa_capture, process.pid)
    finally:
        stop_speechd(process)
