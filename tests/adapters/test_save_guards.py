"""Saves that never lose an announced event: a full disk (a write that stops short, then fails), record numbers
that repeat or skip, `undo all` past any bound, and a second copy of the app on the same home."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.core.words.errors import save_failed
from assistant.core.words.storage import DISK_FULL, games_held_by, games_held_notice
from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameStore, decode_line, encode_line, read_save

CARDS = load_card_set("uu-2nd")
ROOT = Path(__file__).resolve().parents[2]


class FullDisk:
    """`os.write` on a disk with `room` bytes left: a write takes what fits and returns that count (as Linux does
    when a disk fills mid-write), the next one fails with ENOSPC. `room` can be raised: space freed."""

    def __init__(self, room: int):
        self.room = room

    def __call__(self, fd: int, data: bytes) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        part = data[: self.room]
        done = os.write(fd, part)
        self.room -= done
        return done


def session(folder: Path, disk: FullDisk | None = None) -> Session:
    store = GameStore(folder, write=disk) if disk is not None else GameStore(folder)
    return Session(CARDS, store=store, load_cards=load_card_set)


def test_a_disk_filling_mid_line_announces_nothing_it_did_not_keep_and_the_cut_line_is_gone(tmp_path):
    disk = FullDisk(10_000)
    play = session(tmp_path, disk)
    assert play.handle("new game Ana Ben babies red pink").important
    save = GameStore(tmp_path).last_path()
    assert save is not None
    announced = refused = 0
    for number in range(400):  # far more than fits
        reply = play.handle(f"hand Ana {number % 7 + 1}")
        if reply.lines[0].startswith("Ana holds"):
            announced += 1
        else:
            assert reply.lines == (save_failed(DISK_FULL),)  # said at once, in those words
            refused += 1
    assert announced > 10 and refused > 10 and disk.room == 0
    # the save holds exactly the announced events, every line whole: nothing to set aside
    saved = read_save(save)
    assert saved.damaged == [] and not saved.order and len(saved.records) == announced
    assert save.read_bytes().endswith(b"\n")
    # space freed: the next event follows the last whole one, and the game reads back with no complaint
    disk.room = 1_000_000
    assert play.handle("hand Ben 9").lines[0] == "Ben holds 9 cards."
    again = session(tmp_path)
    reply = again.resume_game()
    assert reply.lines[0].startswith("Continuing"), reply.lines
    assert len(again.game.log) == announced + 1 and len(read_save(save).records) == announced + 1


def test_a_write_that_fails_after_cutting_a_line_is_cut_back_before_the_next(tmp_path, monkeypatch):
    """Even when cutting the line away fails at once, the next write cuts it first."""
    disk = FullDisk(100_000)
    play = session(tmp_path, disk)
    play.handle("new game Ana Ben babies red pink")
    save = GameStore(tmp_path).last_path()
    play.handle("hand Ana 3")
    size = save.stat().st_size
    disk.room = 7  # a few bytes of the next line fit, then the disk is full
    real_truncate = os.ftruncate
    monkeypatch.setattr(os, "ftruncate", lambda fd, n: (_ for _ in ()).throw(OSError(errno.EIO, "I/O error")))
    assert play.handle("hand Ana 4").lines == (save_failed(DISK_FULL),)
    assert save.stat().st_size == size + 7  # the cut line is still there
    monkeypatch.setattr(os, "ftruncate", real_truncate)
    disk.room = 1_000_000
    assert play.handle("hand Ana 5").lines[0] == "Ana holds 5 cards."
    saved = read_save(save)
    assert saved.damaged == [] and len(saved.records) == 2


def test_a_new_game_on_a_full_disk_leaves_no_empty_save_and_the_last_game_stays_the_last(tmp_path):
    first = session(tmp_path)
    first.handle("new game Ana Ben babies red pink")
    first.handle("draw")
    before = sorted(p.name for p in tmp_path.iterdir())
    full = session(tmp_path, FullDisk(20))
    reply = full.handle("new game Cy Dee babies red pink")
    assert reply.lines == (save_failed(DISK_FULL),) and full.game is None
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert session(tmp_path).resume_game().lines[0].startswith("Continuing the game of Ana and Ben")


def test_an_empty_save_is_never_taken_for_a_game(tmp_path):
    first = session(tmp_path)
    first.handle("new game Ana Ben babies red pink")
    first.handle("draw")
    empty = tmp_path / "game-29990101-000000-abcd.jsonl"  # the newest, and named as the last
    empty.write_bytes(b"")
    (tmp_path / "last").write_text(empty.name + "\n")
    fresh = session(tmp_path)
    assert fresh.resume_game().lines[0].startswith("Continuing the game of Ana and Ben")
    assert len(fresh.game.log) == 1


def _mounted_tmpfs(folder: Path, size: str) -> bool:
    if shutil.which("mount") is None or os.geteuid() != 0:
        return False
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    return done.returncode == 0


def test_a_real_full_disk_in_the_plain_mode_loses_no_announced_event(tmp_path):
    """A 64 KB tmpfs as the home, filled to a few KB; the real command draws until the disk is full, then after
    space is freed, resumes and draws again."""
    home = tmp_path / "home"
    if not _mounted_tmpfs(home, "64k"):
        pytest.skip("cannot mount a tmpfs here (the write-wrapper tests above cover the same code)")
    try:
        (home / "data" / "games").mkdir(parents=True)
        filler = home / "filler"
        with open(filler, "wb", buffering=0) as out:  # fill the disk, then leave about 6 KB
            try:
                while True:
                    out.write(b"x" * 4096)
            except OSError:
                pass
        os.truncate(filler, filler.stat().st_size - 6 * 4096)
        env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
        lines = b"new game Ana Ben babies red pink\n" + b"".join(b"hand Ana %d\n" % (n % 7 + 1) for n in range(600))
        run = subprocess.run([sys.executable, "-m", "assistant", "--plain", "--no-speech"], input=lines, env=env,
                             capture_output=True, cwd=ROOT, timeout=300)  # fmt: skip
        out = run.stdout.decode()
        assert run.returncode == 0 and b"Traceback" not in run.stderr
        announced = out.count("Ana holds")
        assert announced > 5 and save_failed(DISK_FULL) in out
        filler.unlink()
        state = subprocess.run([sys.executable, "-m", "assistant", "state", "--json"], env=env, capture_output=True,
                               cwd=ROOT, timeout=120)  # fmt: skip
        assert len(json.loads(state.stdout)["events"]) == announced
        more = subprocess.run([sys.executable, "-m", "assistant", "--plain", "--no-speech", "--resume"],
                              input=b"hand Ben 2\n", env=env, capture_output=True, cwd=ROOT, timeout=120)  # fmt: skip
        assert b"damaged" not in more.stdout and b"Ben holds 2 cards." in more.stdout
        state = subprocess.run([sys.executable, "-m", "assistant", "state", "--json"], env=env, capture_output=True,
                               cwd=ROOT, timeout=120)  # fmt: skip
        assert len(json.loads(state.stdout)["events"]) == announced + 1
    finally:
        subprocess.run(["umount", str(home)], capture_output=True)


# Record numbers.


def _played(folder: Path, draws: int = 5) -> Path:
    play = session(folder)
    play.handle("new game Ana Ben babies red pink")
    for number in range(draws):
        assert play.handle(f"hand Ana {number + 1}").lines[0].startswith("Ana holds")
    path = GameStore(folder).last_path()
    assert path is not None
    return path


def test_a_duplicated_line_is_named_and_the_game_kept_up_to_the_record_before_it(tmp_path):
    path = _played(tmp_path)
    lines = path.read_bytes().split(b"\n")[:-1]
    lines.insert(4, lines[3])  # record 3 twice: lines 4 and 5
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    assert reply.lines[0] == f"In the saved game {path.name}, line 5 repeats record 3; the game is kept up to record 3."
    assert "damaged at lines 5, 6 and 7" in reply.lines[1]
    assert len(fresh.game.log) == 3
    fresh.handle("hand Ben 2")  # the repaired save goes on, numbered on
    again = session(tmp_path)
    assert again.resume_game().lines[0].startswith("Continuing") and len(again.game.log) == 4


def test_a_deleted_line_is_named_with_the_missing_record_and_nothing_after_it_is_replayed(tmp_path):
    path = _played(tmp_path)
    lines = path.read_bytes().split(b"\n")[:-1]
    del lines[2]  # record 2
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    saved = read_save(path)
    assert saved.order == "record 2 is missing before line 3; the game is kept up to record 1"
    assert saved.damaged == [3, 4, 5]
    fresh = session(tmp_path)
    fresh.resume_game()
    assert len(fresh.game.log) == 1


def test_a_line_damaged_on_disk_still_takes_its_number(tmp_path):
    """A record damaged on disk (its CRC wrong) is set aside alone: the records after it follow on its number."""
    path = _played(tmp_path)
    data = path.read_bytes()
    lines = data.split(b"\n")[:-1]
    lines[2] = lines[2].replace(b'"count":2', b'"count":3')
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    saved = read_save(path)
    assert saved.damaged == [3] and not saved.order and len(saved.records) == 4


def test_undo_all_of_more_events_than_any_bound_is_read_back(tmp_path):
    """`undo all` is one record of however many events there are; the reader takes what the writer wrote."""
    play = session(tmp_path)
    play.handle("new game Ana Ben babies red pink")
    path = GameStore(tmp_path).last_path()
    count = 10_050
    draw = play.game.log  # empty; the records are written straight, as 10,050 played draws would have been
    assert draw == []
    with open(path, "ab") as out:
        for number in range(1, count + 1):
            out.write(encode_line({"n": number, "r": {"e": "draw", "player": 0, "count": 1}}))
    long = session(tmp_path)
    long.resume_game()
    assert len(long.game.log) == count
    assert long.handle("undo all").important and long.game.log == []
    assert decode_line(path.read_bytes().split(b"\n")[-2]) == {"n": count + 1, "r": {"e": "undo", "n": count}}
    again = session(tmp_path)
    reply = again.resume_game()
    assert reply.lines[0].startswith("Continuing"), reply.lines[0]
    assert again.game.log == [] and len(again.game.undone) == count
    assert again.handle("redo all").important and len(again.game.log) == count
    third = session(tmp_path)
    third.resume_game()
    assert len(third.game.log) == count


# One writer per home.


def _start(home: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
    pipe = subprocess.PIPE
    return subprocess.Popen([sys.executable, "-m", "assistant", "--plain", "--no-speech", *args], env=env, cwd=ROOT,
                            stdin=pipe, stdout=pipe, stderr=pipe, text=True)  # fmt: skip


def _say(proc: subprocess.Popen[str], line: str, expect: str, timeout: float = 60) -> str:
    """Type a line and read the answer's lines until one contains `expect`."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = proc.stdout.readline()
        if not got:
            break
        seen.append(got)
        if expect in got:
            return "".join(seen)
    raise AssertionError(f"{expect!r} never came; got {seen!r}")


def test_a_second_copy_on_the_same_home_cannot_damage_the_game(tmp_path):
    home = tmp_path / "home"
    first = _start(home)
    try:
        _say(first, "new game Ana Ben babies red pink", "Turn 1")
        _say(first, "draw", "Ana drew a card.")
        second = subprocess.run(
            [sys.executable, "-m", "assistant", "--plain", "--no-speech"],
            input="yes\nundo all\ndraw\nnew game Cy Dee\nyes\n",
            env={**os.environ, "TABLE_ASSISTANT_HOME": str(home)},
            capture_output=True, text=True, cwd=ROOT, timeout=120,
        )  # fmt: skip
        out = second.stdout
        assert second.returncode == 0 and "Traceback" not in second.stderr
        assert games_held_notice(first.pid) in out  # it says which process holds the game
        refused = save_failed(games_held_by(first.pid))
        assert out.count(refused) == 3, out  # undo all, draw and new game: none recorded
        _say(first, "draw", "Ana drew a card.")
        first.stdin.close()
        first.wait(timeout=60)
    finally:
        first.kill()
    state = subprocess.run([sys.executable, "-m", "assistant", "state", "--json"], capture_output=True, text=True,
                           env={**os.environ, "TABLE_ASSISTANT_HOME": str(home)}, cwd=ROOT, timeout=60)  # fmt: skip
    events = json.loads(state.stdout)["events"]
    assert len(events) == 2  # the first window's two draws, nothing of the second's
    third = subprocess.run([sys.executable, "-m", "assistant", "--plain", "--no-speech", "--resume"],
                           input="hand Ben 3\n", env={**os.environ, "TABLE_ASSISTANT_HOME": str(home)},
                           capture_output=True, text=True, cwd=ROOT, timeout=60)  # fmt: skip
    assert "holds the saved games" not in third.stdout, third.stdout  # the lock let go with the first window
    assert "Ben holds 3 cards." in third.stdout


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from(["duplicate", "delete", "swap"]),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=1, max_value=8),
)
def test_a_repeated_missing_or_moved_record_keeps_exactly_the_records_before_it(tmp_path_factory, change, i, j):
    """Whatever record is repeated, removed or moved, the game read back is the records before it, in order, and
    the change is named: never a record replayed twice or out of place."""
    folder = tmp_path_factory.mktemp("save")
    store = GameStore(folder)
    log = store.create({"players": ["Ana", "Ben"]})
    records = [{"e": "hand", "player": 0, "count": n} for n in range(1, 9)]
    for record in records:
        log.append(record)
    log.close()
    path = store.last_path()
    lines = path.read_bytes().split(b"\n")[:-1]
    if change == "duplicate":
        lines.insert(i + 1, lines[i])
    elif change == "delete":
        del lines[i]
    elif i != j:
        lines[i], lines[j] = lines[j], lines[i]
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    saved = read_save(path)
    kept = [record for _, record in saved.records]
    assert kept == records[: len(kept)]
    if change == "swap" and i == j or change == "delete" and i == len(records):
        # nothing moved; or the last record removed, which reads as a shorter save (a kill before it was written)
        assert not saved.order and saved.damaged == [] and len(kept) == len(records) - (change == "delete")
        return
    good = {"duplicate": i, "delete": i - 1, "swap": min(i, j) - 1}[change]  # records before the change
    assert len(kept) == good and saved.order
    first_bad = good + 2  # its line: the setup and the good records come first
    assert saved.damaged == list(range(first_bad, len(lines) + 1))
