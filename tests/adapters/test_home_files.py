"""Files in the home folder that are not what they seem (a pipe, a link to a device, a huge file), a home that
cannot be written, and the last guard's crash log."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant import cli
from assistant.core.words.errors import something_went_wrong
from assistant.core.words.storage import NOT_A_REGULAR_FILE, crash_not_logged, import_not_saved, save_unwritable
from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.files import FileRefused, read_bounded
from assistant.storage.saves import GameLog, GameStore

ROOT = Path(__file__).resolve().parents[2]
SHEET = "name,text,type,copies\nYay,Nobody can Neigh the cards you play while this is in your Stable.,Upgrade,2\n"


def test_a_pipe_a_device_and_a_large_file_are_refused_without_waiting(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(FileRefused, match=NOT_A_REGULAR_FILE):
        read_bounded(fifo)  # opened without waiting for a writer: no hang
    with pytest.raises(FileRefused, match=NOT_A_REGULAR_FILE):
        read_bounded("/dev/zero")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 2000)
    with pytest.raises(FileRefused, match="larger than 1,000 bytes"):
        read_bounded(big, 1000)
    assert read_bounded(big, 2000) == b"x" * 2000


def _home_with_traps(home: Path) -> None:
    """Every file the app reads at start, as a pipe or a link to /dev/zero."""
    games, decks, config = home / "data" / "games", home / "data" / "decks", home / "config"
    for folder in (games, decks, config):
        folder.mkdir(parents=True)
    os.mkfifo(games / "last")
    os.mkfifo(games / "game-20260101-000000-aaaa.jsonl")
    (games / "game-20260101-000001-bbbb.jsonl").symlink_to("/dev/zero")
    os.mkfifo(config / "settings.toml")
    os.mkfifo(decks / "uu-2nd-sheet.toml")
    (decks / "other-sheet.toml").symlink_to("/dev/zero")


@pytest.mark.parametrize("args", [["--plain", "--no-speech"], ["card", "yay"]])
def test_pipes_and_device_links_in_the_home_never_hang_start_up(tmp_path, args):
    home = tmp_path / "home"
    _home_with_traps(home)
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "assistant", *args], input=b"card yay\n", env=env, cwd=ROOT,
                          capture_output=True, timeout=60)  # fmt: skip
    out = done.stdout.decode() + done.stderr.decode()
    assert done.returncode == 0, out
    assert "Yay" in done.stdout.decode() and "Traceback" not in out
    assert NOT_A_REGULAR_FILE in out  # the settings file or an import: said, with why


@pytest.mark.parametrize("source", ["/dev/zero", "fifo"])
def test_deck_import_refuses_a_device_or_a_pipe_before_reading(tmp_path, source, capsys):
    if source == "fifo":
        source = str(tmp_path / "fifo")
        os.mkfifo(source)
    assert cli.main(["deck", "import", source]) == 2
    err = capsys.readouterr().err
    assert NOT_A_REGULAR_FILE in err and "Traceback" not in err


def test_deck_import_on_an_unwritable_home_says_what_failed_and_names_no_crash_log(tmp_path, capsys, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(blocker / "home"))  # every write under it fails
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(SHEET)
    assert cli.main(["deck", "import", str(sheet)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(import_not_saved("uu-2nd-sheet", "Not a directory")), err
    assert "crash.log" not in err


def test_a_full_disk_during_deck_import_is_said(tmp_path, capsys, monkeypatch):
    from assistant.storage import decks

    def full(deck_id, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(decks, "save_import", full)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(SHEET)
    assert cli.main(["deck", "import", str(sheet)]) == 1
    assert import_not_saved("uu-2nd-sheet", "No space left on device") in capsys.readouterr().err


@pytest.mark.parametrize("error", [RuntimeError("boom"), IndexError("list index out of range"), KeyError("x")])
def test_an_internal_error_is_logged_and_said_with_where(private_home, capsys, monkeypatch, error):
    """An IndexError or KeyError is a fault of ours like any other (not a card the player named): logged, 70."""
    from assistant.commands import card

    def broken(args):
        raise error

    monkeypatch.setattr(card, "run", broken)
    assert cli.main(["card", "yay"]) == 70
    log = private_home / "data" / "crash.log"
    assert log.is_file() and type(error).__name__ in log.read_text()
    assert capsys.readouterr().err.strip() == something_went_wrong(type(error).__name__, str(error), str(log))


def test_the_crash_log_is_named_only_when_it_was_written(tmp_path, capsys, monkeypatch):
    from assistant.commands import card

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(blocker / "home"))

    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.setattr(card, "run", broken)
    assert cli.main(["card", "yay"]) == 70
    err = capsys.readouterr().err.strip()
    assert err == crash_not_logged("RuntimeError", "boom", "Not a directory") and "crash.log" not in err


def test_resuming_where_only_writing_fails_says_the_save_was_read_and_what_failed(tmp_path, monkeypatch):
    cards = load_card_set("uu-2nd")
    play = Session(cards, store=GameStore(tmp_path), load_cards=load_card_set)
    play.handle("new game Ana Ben babies red pink")
    play.handle("draw")
    name = GameStore(tmp_path).last_path().name

    def read_only(self, *args, **kwargs):
        raise PermissionError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(GameLog, "__init__", read_only)
    fresh = Session(cards, store=GameStore(tmp_path), load_cards=load_card_set)
    assert fresh.resume_game().lines == (save_unwritable(name, "Read-only file system"),)
