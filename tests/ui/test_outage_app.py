"""The Textual app in a real terminal (tmux) while its sound device blocks (docs/robustness.md, "Outages"): ALSA's
default device a FIFO (`benchmarks/outage_rig.py`). Before, the app did not answer even its first key, and quit
waited as long as the device blocked."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from assistant.core.words.outage import SOUND_BACK, SoundLoss, sound_lost
from benchmarks.outage_rig import ROOT, SETTINGS, FifoDevice

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

GUARD = 30.0


class Terminal:
    """The app in a tmux session on a server of its own; `ended` is written when the app's process has ended."""

    def __init__(self, env: dict[str, str]) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="ta-out-"))  # short: a socket's path has a length limit
        self.tmux = ["tmux", "-S", str(self.folder / "socket")]
        self.name = f"ta-{uuid.uuid4().hex[:8]}"
        self.ended = self.folder / "ended"
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        line = f"env {exports} TERM=xterm-256color python -m assistant --no-camera; touch {self.ended}"
        subprocess.run([*self.tmux, "new-session", "-d", "-s", self.name, "-c", str(ROOT), "-x", "100", "-y", "30",
                        f"PATH={os.path.dirname(_python())}:$PATH sh -c '{line}'; sleep 60"], check=True)  # fmt: skip

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> str:
        done = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def wait_for(self, text: str) -> str:
        deadline = time.monotonic() + GUARD
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in " ".join(screen.split()):
                return screen
            time.sleep(0.1)  # (tmux and the app are real processes: the screen is polled)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")

    def wait_ended(self) -> bool:
        deadline = time.monotonic() + GUARD
        while time.monotonic() < deadline:
            if self.ended.exists():
                return True
            time.sleep(0.05)
        return False

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


def _python() -> str:
    import sys

    return sys.executable


@pytest.fixture
def app_on(tmp_path):
    pytest.importorskip("sounddevice", reason="sounddevice (PortAudio) is not installed")
    if not shutil.which("espeak-ng"):
        pytest.skip("espeak-ng is not installed")
    device = FifoDevice(tmp_path)
    home = tmp_path / "app-home"
    (home / "config").mkdir(parents=True)
    settings = SETTINGS.format(player="sounddevice", transcript=tmp_path / "transcript.txt")
    (home / "config" / "settings.toml").write_text(settings, encoding="utf-8")
    env = {"TABLE_ASSISTANT_HOME": str(home), "PYTHONPATH": str(ROOT), "HOME": str(device.home),
           "TABLE_ASSISTANT_SCREEN_READER": "off"}  # fmt: skip
    term = Terminal(env)
    yield term, device
    term.close()
    device.close()


def test_the_app_with_a_device_that_blocks_answers_her_keys_says_the_loss_and_return_and_quits(app_on):
    term, device = app_on  # nobody reads the device: opening it blocks
    term.wait_for("Table assistant")
    term.keys("rainbow aura", "Enter")
    term.wait_for("Type: Upgrade card")  # (before: not even the first key was answered)
    term.wait_for(sound_lost(SoundLoss.NOT_ANSWERING)[:60])
    term.keys("unicorn poison", "Enter")
    term.wait_for("Unicorn Poison")
    device.start_reader()
    term.wait_for(SOUND_BACK)
    device.stop_reader()  # and stopped again as she quits
    term.keys("rainbow aura", "Enter")
    term.wait_for("Rainbow Aura")
    term.keys("C-q")
    assert term.wait_ended(), term.screen()  # (before: quit waited as long as the device blocked)
    assert "pa_linux_alsa" not in term.screen()
