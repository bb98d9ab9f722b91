"""A damaged `games/last` (the NUL bytes a power cut can leave, any bytes at all, a pipe) never stops a start: the
app, `--plain` and `--resume` set it aside, say so, and continue the newest save; `state` names it, and an empty or
special save, as start-up does. (A `last` of NUL bytes used to end every start with "ValueError: embedded null
byte", exit 70, until the player found and deleted the file; `state` said only "There is no saved game to
continue.")"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.core.words.errors import SAVE_EMPTY
from assistant.core.words.gameplay import NO_SAVED_GAME
from assistant.core.words.storage import NOT_A_REGULAR_FILE, POINTER_DAMAGED, pointer_set_aside, save_set_aside

ROOT = Path(__file__).resolve().parents[2]
#: What a damaged `games/last` may hold, and why it is said to name no game.
DAMAGE = {
    "nul": (b"\0" * 4096, POINTER_DAMAGED),
    "bytes": (bytes(range(256)) * 4, POINTER_DAMAGED),
    "escape": (b"game\x1b[2J.jsonl\n", POINTER_DAMAGED),
    "path": (b"../../etc/passwd\n", POINTER_DAMAGED),
    "empty": (b"", SAVE_EMPTY),
    "large": (b"game-" * 2000, "it is larger than 4,096 bytes"),
    "fifo": (None, NOT_A_REGULAR_FILE),
}


def run(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "assistant", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)  # fmt: skip


def _game_with_damaged_last(home: Path, kind: str) -> Path:
    """A real game of Ana and Ben, then its `games/last` damaged; the folder of saves."""
    assert run(home, "--plain", "--no-speech", stdin="new game Ana Ben\ndraw\n").returncode == 0
    folder = home / "data" / "games"
    last = folder / "last"
    last.unlink()
    data, _ = DAMAGE[kind]
    if data is None:
        os.mkfifo(last)
    else:
        last.write_bytes(data)
    return folder


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_a_damaged_last_is_set_aside_said_and_the_newest_game_continued(tmp_path, kind):
    folder = _game_with_damaged_last(tmp_path / "home", kind)
    done = run(tmp_path / "home", "--plain", "--no-speech", stdin="yes\ntally\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    (kept,) = folder.glob("last.damaged-*")
    assert pointer_set_aside(DAMAGE[kind][1], kept.name) in done.stdout.splitlines()
    assert "Continuing the game of Ana and Ben" in done.stdout
    assert "\x1b" not in done.stdout


@pytest.mark.parametrize("kind", ["nul", "fifo"])
def test_resume_and_the_app_start_with_a_damaged_last(tmp_path, kind):
    home = tmp_path / "home"
    _game_with_damaged_last(home, kind)
    resumed = run(home, "--plain", "--no-speech", "--resume", stdin="tally\n")
    assert resumed.returncode == 0 and "Continuing the game of Ana and Ben" in resumed.stdout, resumed.stderr
    _game_with_damaged_last(tmp_path / "other", kind)
    app = run(tmp_path / "other", "--no-speech")  # the app's start, up to the terminal it needs
    assert app.returncode == 0 and "Traceback" not in app.stderr, app.stderr[-2000:]
    assert list((tmp_path / "other" / "data" / "games").glob("last.damaged-*"))


def test_state_names_a_damaged_last_a_fifo_and_an_empty_save_as_start_up_does(tmp_path):
    home = tmp_path / "home"
    folder = _game_with_damaged_last(home, "nul")
    fifo, empty = folder / "game-29990101-000000-ffff.jsonl", folder / "game-29990101-000001-eeee.jsonl"
    os.mkfifo(fifo)
    empty.write_bytes(b"")
    done = run(home, "state")
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    assert said[:3] == [
        pointer_set_aside(POINTER_DAMAGED, "last"),
        save_set_aside(fifo.name, NOT_A_REGULAR_FILE, fifo.name),
        save_set_aside(empty.name, SAVE_EMPTY, empty.name),
    ]
    assert fifo.exists() and empty.exists() and (folder / "last").exists()  # `state` only reads
    for game in folder.glob("game-2*.jsonl"):
        if game not in (fifo, empty):
            game.unlink()
    (folder / "last").write_text(fifo.name + "\n")  # only the pipe is named: no game at all
    done = run(home, "state")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        save_set_aside(fifo.name, NOT_A_REGULAR_FILE, fifo.name),
        save_set_aside(empty.name, SAVE_EMPTY, empty.name),
        NO_SAVED_GAME,
    ]
