"""End to end: the real app in a real terminal (tmux), typed at and read back as a person would."""

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """A tmux session running one command, 100x30."""

    def __init__(self, command: list[str], env: dict[str, str]):
        self.name = f"ta-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        line = f"env {exports} TERM=xterm-256color {' '.join(command)}"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "100", "-y", "30", line], check=True)

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> str:
        result = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return result.stdout

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def terminal(private_home):
    started = []

    def start(*args: str) -> Terminal:
        script = Path(sys.executable).parent / "table-assistant"
        term = Terminal([str(script), *args], {"TABLE_ASSISTANT_HOME": str(private_home)})
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


def test_the_app_opens_and_shows_a_typed_card(terminal):
    term = terminal("--no-speech")
    term.wait_for("Table assistant")
    term.keys("rainbow aura", "Enter")
    screen = term.wait_for("Type: Upgrade card")
    assert "Rainbow Aura" in screen
    assert "Traceback" not in screen
    term.keys("C-q")


def test_plain_mode_in_a_terminal(terminal):
    term = terminal("--plain", "--no-speech")
    term.wait_for("plain mode")
    term.keys("rainbow aura", "Enter")
    term.wait_for("Type: Upgrade card")
    term.keys("zzzz", "Enter")
    term.wait_for("No card called zzzz")
