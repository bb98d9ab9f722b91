"""Smaller guards that fail closed: a saved games' lock that cannot be taken makes the copy read-only with the
reason; `say --to` on a full disk or with a text too long says why and leaves no file; a special or empty save
is named and set aside; `--script` reads with a limit; a learnt card's id comes from its cleaned name."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from argparse import Namespace
from pathlib import Path

import pytest

from assistant.commands.app import make_session
from assistant.core.words.storage import NOT_A_REGULAR_FILE

ROOT = Path(__file__).resolve().parents[2]


def run(home: Path, *args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "assistant", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=timeout)  # fmt: skip


def saves(home: Path) -> list[Path]:
    folder = home / "data" / "games"
    return sorted(folder.glob("game-*.jsonl")) if folder.is_dir() else []


def test_a_lock_that_cannot_be_taken_makes_the_copy_read_only_with_the_reason(tmp_path):
    from assistant.core.words.storage import games_lock_notice

    home = tmp_path / "home"
    (home / "data" / "games" / "lock").mkdir(parents=True)  # opening it fails: before, the copy wrote anyway
    done = run(home, "--plain", "--no-speech", stdin="new game Ana Ben\ndraw\n")
    assert done.returncode == 0, done.stderr
    assert games_lock_notice("Is a directory") in done.stdout
    assert "not recorded" in done.stdout.lower() and "Ana drew" not in done.stdout
    assert saves(home) == []


def _mounted_tmpfs(folder: Path, size: str) -> bool:
    if shutil.which("mount") is None or os.geteuid() != 0:
        return False
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    return done.returncode == 0


@pytest.mark.parametrize("backend", ["espeak-ng", "pyttsx3"])
def test_say_to_a_full_disk_says_so_and_leaves_no_file(tmp_path, backend):
    disk = tmp_path / "disk"
    if not _mounted_tmpfs(disk, "64k"):
        pytest.skip("no tmpfs can be mounted here")
    try:
        (disk / "fill").write_bytes(b"\0" * 56 * 1024)
        wav = disk / "speech.wav"
        done = run(tmp_path / "home", "say", "a sentence long enough to fill the little room left on this disk",
                   "--backend", backend, "--to", str(wav))  # fmt: skip
        if "not installed" in done.stderr or "cannot" in done.stderr and "No space" not in done.stderr:
            pytest.skip(f"{backend} is not usable here: {done.stderr.strip()}")
        assert done.returncode == 1, done.stdout
        assert done.stderr.strip() == f"Could not write {wav}: No space left on device. Nothing was written."
        assert done.stdout == "" and "Traceback" not in done.stderr
        assert sorted(path.name for path in disk.iterdir()) == ["fill"]  # no WAV, whole or cut, no temporary file
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def test_say_refuses_a_text_too_long_instead_of_cutting_it(tmp_path):
    SAY_MOST = 20_000  # (assistant.commands.say.SAY_MOST)

    wav = tmp_path / "long.wav"
    text = "The unicorn enters the stable. " * (SAY_MOST // 31 + 2)
    done = run(tmp_path / "home", "say", text, "--to", str(wav))
    assert done.returncode == 1 and not wav.exists()
    assert f"that text is {len(text):,} characters; say takes at most {SAY_MOST:,}" in done.stderr


def test_a_fifo_or_an_emptied_save_named_by_last_is_named_and_set_aside(tmp_path):
    home = tmp_path / "home"
    assert run(home, "--plain", "--no-speech", stdin="new game Ana Ben\ndraw\n").returncode == 0
    folder = home / "data" / "games"
    (good,) = saves(home)
    fifo = folder / "game-29990101-000000-ffff.jsonl"
    os.mkfifo(fifo)
    (folder / "last").write_text(fifo.name + "\n")
    done = run(home, "--plain", "--no-speech", stdin="yes\n", timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"The saved game {fifo.name} was not used: {NOT_A_REGULAR_FILE}. It was set aside as" in done.stdout
    assert not fifo.exists() and list(folder.glob(f"{fifo.name}.damaged-*"))
    assert "Continuing the game of Ana and Ben" in done.stdout  # the real last game, offered and continued
    good.write_bytes(b"")  # emptied while `last` names it
    (folder / "last").write_text(good.name + "\n")
    done = run(home, "--plain", "--no-speech", stdin="")
    assert f"The saved game {good.name} was not used: it is empty. It was set aside as" in done.stdout
    assert not good.exists() and list(folder.glob(f"{good.name}.damaged-*"))


@pytest.mark.parametrize("source", ["/dev/zero", "big"])
def test_a_script_is_read_with_a_limit(tmp_path, source):
    MAX_SCRIPT_BYTES = 4_000_000  # (assistant.commands.app.MAX_SCRIPT_BYTES)

    if source == "big":
        # In a folder of its own with a short name: the message shows a path up to 80 characters whole, and
        # pytest's folders grow longer with each run it numbers (pytest-999, then pytest-1000).
        folder = Path(tempfile.mkdtemp(prefix="script-"))
        source = str(folder / "big.txt")
        Path(source).write_text("draw\n" * (MAX_SCRIPT_BYTES // 5 + 1))
    try:
        done = run(tmp_path / "home", "--script", source, timeout=60)
    finally:
        if source != "/dev/zero":
            shutil.rmtree(Path(source).parent)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"Cannot read the script {source}: it is larger than 4 MB, more than any game's lines. Nothing was played."
    )
    assert "MemoryError" not in done.stderr


def test_a_learnt_card_scanned_again_with_an_escape_in_its_name_is_the_same_card(private_home):
    session = make_session(Namespace(deck="uu-2nd", addon=[]))
    session.card_desk.scanned("Glitter Pony: Magic card. Draw two cards.")
    session.handle("yes")
    again = session.card_desk.scanned("\x1b[31mGlit\x1b[0mter Pony\u200b: Magic card. Draw three cards.")
    assert "This code names Glitter Pony" in again.speech and "\x1b" not in again.speech
    session.handle("yes")
    fresh = make_session(Namespace(deck="uu-2nd", addon=[]))
    ponies = [card for card in fresh.cards if "Pony" in card.name]
    assert [(card.id, card.name) for card in ponies] == [("glitter-pony", "Glitter Pony")]
    first = make_session(Namespace(deck="uu-2nd", addon=[]))
    offered = first.card_desk.scanned("\x1b[1mSparkle Mare\x07: Magic card. Draw a card.")
    assert "Sparkle Mare" in offered.speech
    first.handle("yes")
    assert make_session(Namespace(deck="uu-2nd", addon=[])).cards.get("sparkle-mare") is not None
