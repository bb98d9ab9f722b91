"""The help as a listener hears it: each part of `help commands`, and its index, rendered by espeak-ng at the
rate the default settings give it (`WORDS_PER_MINUTE`), is over in under 30 seconds."""

from __future__ import annotations

import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from assistant.session import Session
from assistant.storage.decks import load_card_set

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")

#: The rate the help's length is measured at, in words a minute: espeak-ng's own default, which the settings'
#: default `rate = 50` gives it (`speech/backends.py`, `scale`); `help.PART_WORDS` is sized for it.
WORDS_PER_MINUTE = 175


def spoken_seconds(text: str, folder: Path) -> float:
    """How long espeak-ng takes to say `text` at the default rate (the WAV file's length)."""
    path = folder / "said.wav"
    subprocess.run(["espeak-ng", "-s", str(WORDS_PER_MINUTE), "-w", str(path), text], check=True, timeout=60)
    with wave.open(str(path)) as sound:
        return sound.getnframes() / sound.getframerate()


@pytest.mark.parametrize("deck", ["uu-2nd", "llamas"])
def test_every_part_of_help_commands_is_said_in_under_half_a_minute(deck, tmp_path):
    session = Session(load_card_set(deck))
    index = session.handle("help commands")
    count = int(index.lines[0].split()[3])
    lengths = {"index": spoken_seconds(index.speech, tmp_path)}
    for number in range(1, count + 1):
        lengths[str(number)] = spoken_seconds(session.handle(f"help commands {number}").speech, tmp_path)
    assert max(lengths.values()) < 30, lengths
    assert spoken_seconds(session.handle("help commands all").speech, tmp_path) > 120  # what it was, whole
