"""Keys typed on the braille display while the app is still starting are kept: the display is taken as the
process's first step (`connect_early`), and BRLTTY keeps every key typed on it from then on until the app reads
it; before, it was taken only once the session and the decks were ready, and BRLTTY took the keys typed until then
itself (1.6 to 2.9 s of them). A real BRLTTY and the real command; the keys are typed at a point of the start-up
the process shows (its lock on the saved games, taken after the display and before the session), never after a
sleep."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from brltty_fixture import BRLTTY, SLOW, Brltty

pytest.importorskip("brlapi")
pytestmark = pytest.mark.skipif(BRLTTY is None, reason="BRLTTY is not installed")

ROOT = Path(__file__).resolve().parents[2]
#: A bound on waits that only lost keys or a hang would reach (never a measure of speed), on a machine loaded far
#: past its cores too (it was 30 s).
HANG = SLOW


def test_keys_typed_on_the_display_while_the_app_starts_are_kept_in_order(tmp_path):
    server = Brltty(tmp_path / "brltty")
    home = tmp_path / "home"
    env = {**os.environ, "BRLAPI_HOST": server.host, "BRLAPI_AUTH": server.auth, "TABLE_ASSISTANT_HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant", "--plain", "--braille-display", "--no-speech"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env,
    )  # fmt: skip
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(process.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        lock = home / "data" / "games" / "lock"
        deadline = time.monotonic() + HANG
        while not (lock.exists() and lock.read_text(errors="replace").strip() == str(process.pid)):
            assert process.poll() is None and time.monotonic() < deadline, "the process never took its games"
            time.sleep(0.002)  # (the app's process starting, polled)
        # The process is starting: its session, decks and first answer are still to come. Type on the display.
        server.type("new game Ana Ben")
        server.press("enter")
        server.type("tally")
        server.press("enter")
        deadline = time.monotonic() + HANG
        while not any(line.startswith("Unicorns: ") or "No game" in line for line in lines):
            assert time.monotonic() < deadline, f"the keys typed never arrived: {lines}"
            time.sleep(0.01)  # (the app's process answering, polled)
        assert any(line.startswith("New game: Ana and Ben") for line in lines), lines
        assert any(line.startswith("Unicorns: Ana 0, Ben 0") for line in lines), lines  # in order, none lost
    finally:
        process.stdin.close()
        process.wait(timeout=HANG)
        server.stop()
