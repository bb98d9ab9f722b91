"""Real sound for the speech tests: ALSA's file plugin as the sound card, and a real speech-dispatcher.

`alsa_capture` gives an `AlsaCapture` (benchmarks/capture.py): programs started with its home play into
numbered files instead of a sound card. `speech_dispatcher` starts a real speech-dispatcher for one test, with
HOME and XDG_RUNTIME_DIR in the test's folder, its espeak-ng module playing through ALSA into that capture, and
stops it by its pid afterwards. A test is skipped (with the reason) only when the program is not installed; where
it is installed (the set-up installs it), a daemon that does not start fails the test.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks.capture import AlsaCapture
from benchmarks.outage_rig import launch_speechd, stop_speechd


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
    again there: a daemon restarted), its sound into `capture` (`benchmarks.outage_rig.launch_speechd`); skipped
    when it is not installed, failed when it is and does not start."""
    if shutil.which("speech-dispatcher") is None:
        pytest.skip("speech-dispatcher is not installed (Debian: speech-dispatcher speech-dispatcher-espeak-ng)")
    try:
        return launch_speechd(folder, capture)
    except RuntimeError as exc:
        pytest.fail(str(exc))


def speechd_client() -> None:
    """Skipped when the daemon's client library (Debian's python3-speechd) is not importable."""
    try:
        import speechd  # noqa: F401
    except ImportError:
        pytest.skip("python3-speechd is not importable (scripts/setup.sh links it into the environment)")


@pytest.fixture
def speech_dispatcher(tmp_path, alsa_capture):
    """A real speech-dispatcher for one test, stopped by its pid afterwards."""
    speechd_client()
    process, socket, env = start_speechd(tmp_path, alsa_capture)
    try:
        yield Dispatcher(socket, {**env, "SPEECHD_ADDRESS": f"unix_socket:{socket}"}, alsa_capture, process.pid)
    finally:
        stop_speechd(process, socket)
