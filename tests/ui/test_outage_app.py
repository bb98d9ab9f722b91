"""The Textual app in a real terminal (tmux) while its sound device blocks (docs/robustness.md, "Outages"): ALSA's
default device a FIFO (`benchmarks/outage_rig.py`). Before, the app did not answer even its first key, and quit
waited as long as the device blocked."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from assistant.core.words.outage import SOUND_BACK, SoundLoss, sound_lost
from benchmarks.outage_rig import FifoDevice, TmuxApp, textual_app

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

GUARD = 30.0


@pytest.fixture
def app_on(tmp_path):
    pytest.importorskip("sounddevice", reason="sounddevice (PortAudio) is not installed")
    if not shutil.which("espeak-ng"):
        pytest.skip("espeak-ng is not installed")
    device = FifoDevice(tmp_path)
    term, transcript = textual_app(tmp_path, device)
    yield term, device, transcript
    term.close()
    device.close()


def said(transcript: Path, sentence: str, count: int) -> bool:
    """Whether the transcript came to hold `sentence` `count` times (polled: the app is a real process)."""
    deadline = time.monotonic() + GUARD
    while time.monotonic() < deadline:
        if transcript.exists() and transcript.read_text(encoding="utf-8").count(sentence) >= count:
            return True
        time.sleep(0.05)
    return False


def shown(term: TmuxApp, text: str) -> None:
    assert term.wait_for(text, GUARD) is not None, f"{text!r} never appeared; the screen was:\n{term.screen()}"


def test_the_app_with_a_device_that_blocks_answers_her_keys_says_the_loss_and_return_and_quits(app_on):
    term, device, transcript = app_on  # nobody reads the device: opening it blocks
    shown(term, "Table assistant")
    term.keys("rainbow aura", "Enter")
    shown(term, "Type: Upgrade card")  # (before: not even the first key was answered)
    shown(term, sound_lost(SoundLoss.NOT_ANSWERING)[:60])
    term.keys("unicorn poison", "Enter")
    shown(term, "Unicorn Poison")
    device.start_reader()
    shown(term, SOUND_BACK)
    device.stop_reader()  # and stopped again as she quits
    term.keys("rainbow aura", "Enter")
    shown(term, "Rainbow Aura")
    assert said(transcript, sound_lost(SoundLoss.NOT_ANSWERING), 2)  # its words stuck in the stream's write
    term.keys("C-q")
    assert term.wait_ended(GUARD) is not None, term.screen()  # (before: quit waited as long as the device blocked)
    assert "pa_linux_alsa" not in term.screen()
