"""Saved games on disk (assistant/storage/saves.py): written before they are announced, continued exactly,
damaged parts set aside with the original kept — and a real process killed with SIGKILL loses nothing it said."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameLog, GameStore, decode_line, encode_line, read_save

CARDS = load_card_set("uu-2nd")
GAME = [
    "new game Ana Ben Cy babies red pink narwhal",
    "draw",
    "play rainbow aura",
    "neigh Ben",
    "neigh Cy",
    "resolve",
    "resolve",
    "end turn",
    "draw",
    "play ginormous unicorn",
    "resolve",
    "undo",
    "undo",
]


def session(folder: Path) -> Session:
    return Session(CARDS, store=GameStore(folder), load_cards=load_card_set)


def play(s: Session, lines) -> list:
    return [s.handle(line) for line in lines]


def test_a_line_carries_its_crc_and_damage_is_caught():
    line = encode_line({"n": 1, "r": {"e": "draw", "player": 0, "count": 1}})
    assert line.endswith(b"\n") and b"\t" in line
    assert decode_line(line[:-1]) == {"n": 1, "r": {"e": "draw", "player": 0, "count": 1}}
    flipped = line[:-1].replace(b'"count":1', b'"count":7')  # still JSON, but not what was written
    assert decode_line(flipped) is None
    assert decode_line(b"not json\t00000000") is None
    assert decode_line(b'{"n":1}') is None


def test_each_event_is_on_disk_when_it_is_announced(tmp_path):
    s = session(tmp_path)
    play(s, GAME[:3])
    path = GameStore(tmp_path).last_path()
    saved = read_save(path)
    assert saved.damaged == [] and saved.setup["players"] == ["Ana", "Ben", "Cy"]
    assert [r["e"] for _, r in saved.records] == ["draw", "play"]
    s.handle("neigh Ben")
    assert [r["e"] for _, r in read_save(path).records][-1] == "respond"


def test_resume_continues_exactly_with_undo_and_redo(tmp_path):
    s = session(tmp_path)
    play(s, GAME)
    before = s.game
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    assert reply.important and reply.lines[0].startswith("Continuing the game of Ana, Ben and Cy")
    after = fresh.game
    assert after.state == before.state
    assert after.log == before.log and after.undone == before.undone
    reply = fresh.handle("redo")
    assert "Redone: Ben played Ginormous Unicorn" in reply.speech
    # the resumed game appends to the same save: its redo is there too
    third = session(tmp_path)
    third.resume_game()
    assert third.game.state == fresh.game.state


def test_no_saved_game(tmp_path):
    reply = session(tmp_path).resume_game()
    assert reply.lines == ("There is no saved game to continue.",)


def test_a_cut_off_last_line_is_set_aside_and_every_complete_event_kept(tmp_path):
    s = session(tmp_path)
    play(s, GAME[:7])
    expected = s.game.state
    path = GameStore(tmp_path).last_path()
    original = path.read_bytes()
    path.write_bytes(original + b'{"n":7,"r":{"e":"end-tu')  # the write a crash cut short
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    assert reply.important
    assert f"The saved game {path.name} was damaged at line 8: set aside in" in reply.lines[0]
    assert reply.lines[0].endswith("the rest was kept.") and "6 events" in reply.lines[1]
    assert fresh.game.state == expected
    kept = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes() == original + b'{"n":7,"r":{"e":"end-tu'
    assert path.read_bytes() == original, "the save is back to its complete lines"
    fresh.handle("end turn")
    assert read_save(path).damaged == []
    assert session(tmp_path).resume_game().lines[0].startswith("Continuing")


def test_a_damaged_line_in_the_middle_is_set_aside_and_the_others_kept(tmp_path):
    s = session(tmp_path)
    play(s, ["new game Ana Ben babies red pink", "draw", "Ben draw", "yes", "Ana draw", "hand Ana 9"])
    path = GameStore(tmp_path).last_path()
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"player":1', b'"player":0')  # "Ben draw" damaged on disk
    path.write_bytes(b"\n".join(lines))
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    assert "was damaged at line 3: set aside in" in reply.lines[0]
    game = fresh.game
    assert [type(e).__name__ for e in game.log] == ["Draw", "Draw", "SetHand"]
    assert game.state.players[0].hand == 9


def test_a_record_naming_a_card_not_in_the_game_is_set_aside(tmp_path):
    s = session(tmp_path)
    play(s, ["new game Ana Ben babies red pink", "draw"])
    path = GameStore(tmp_path).last_path()
    log = GameLog(path, 2)
    log.append({"e": "play", "player": 0, "card": "no-such-card", "into": 0})
    log.append({"e": "undo"})
    log.append({"e": "undo"})  # one undo too many once the bad play is gone
    log.close()
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    assert "was damaged at lines 3 and 5: set aside in" in reply.lines[0]
    assert fresh.game.log == [] and len(fresh.game.undone) == 1


def test_a_damaged_setup_cannot_be_continued_and_the_file_is_left_alone(tmp_path):
    s = session(tmp_path)
    play(s, GAME[:2])
    path = GameStore(tmp_path).last_path()
    data = path.read_bytes()
    path.write_bytes(b"x" + data[1:])
    reply = session(tmp_path).resume_game()
    assert reply.important and "cannot be continued" in reply.speech
    assert path.read_bytes() == b"x" + data[1:]


def test_an_event_that_cannot_be_written_is_not_announced(tmp_path):
    """A full disk (Linux's /dev/full answers every write with ENOSPC) records nothing and says so."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    s = session(tmp_path)
    play(s, GAME[:2])
    s.lobby.talk.log = GameLog(Path("/dev/full"), 3)
    state = s.game.state
    reply = s.handle("play rainbow aura")
    assert reply.important and "Could not save the game" in reply.speech and "not recorded" in reply.speech
    assert s.game.state == state and len(s.game.log) == 1
    reply = s.handle("undo")
    assert "Could not save" in reply.speech and len(s.game.log) == 1


def test_new_game_becomes_the_last_game(tmp_path):
    s = session(tmp_path)
    s.handle("new game Ana Ben")
    first = GameStore(tmp_path).last_path()
    s.handle("new game Cy Dee")
    second = GameStore(tmp_path).last_path()
    assert first != second and first.exists()
    fresh = session(tmp_path)
    fresh.resume_game()
    assert fresh.game.setup.players == ("Cy", "Dee")


DRIVER = """
import json, sys
from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameStore
session = Session(load_card_set("uu-2nd"), store=GameStore())
for line in sys.stdin:
    reply = session.handle(line)
    print(json.dumps(list(reply.lines)), flush=True)
"""


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kill_after=st.integers(1, len(GAME) - 1))
def test_a_process_killed_with_sigkill_loses_nothing_it_announced(tmp_path, kill_after):
    """A real player's process is killed (SIGKILL) between two events, with the next one just sent: the resumed
    game holds every event whose answer was printed."""
    home = tmp_path / f"home-{kill_after}-{os.urandom(4).hex()}"
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(home))
    proc = subprocess.Popen(
        [sys.executable, "-c", DRIVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )
    announced = []
    try:
        for line in GAME[:kill_after]:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            announced.append(json.loads(proc.stdout.readline()))
        proc.stdin.write(GAME[kill_after] + "\n")  # in flight when the process dies
        proc.stdin.flush()
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "state", "--json"], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # Replay the announced lines in memory: the saved game is that game, or that game with the line in flight
    # applied too (it may have been recorded just before the kill; an "undo" in flight then shortens the log).
    reference = Session(CARDS)
    for line in GAME[:kill_after]:
        reference.handle(line)
    before = ([e.to_dict() for e in reference.game.log], reference.game.state.to_dict())
    reference.handle(GAME[kill_after])
    after = ([e.to_dict() for e in reference.game.log], reference.game.state.to_dict())
    assert (data["events"], data["state"]) in (before, after)


@pytest.mark.parametrize(
    ("command", "delay"),
    [("undo all", d) for d in (0.0, 0.002, 0.005, 0.01, 0.03)] + [("redo all", d) for d in (0.0, 0.005, 0.02)],
)
def test_a_killed_undo_all_resumes_before_it_or_after_it_never_between(tmp_path, command, delay):
    """`undo all` of 150 events is one record, and so is `redo all` of them: killed at any moment, the saved game
    is the whole game or the empty one, never a game half undone or half redone."""
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-c", DRIVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )
    hands = [f"hand {name} {n % 9}" for n in range(75) for name in ("Ana", "Ben")]
    lines = ["new game Ana Ben babies red pink", *hands, *(["undo all"] if command == "redo all" else [])]
    try:
        for line in lines:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            proc.stdout.readline()
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        time.sleep(delay)  # where in the undo the kill lands (not a synchronisation: every moment is allowed)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    result = subprocess.run(
        [sys.executable, "-m", "assistant", "state", "--json"], capture_output=True, text=True, env=env, timeout=60
    )
    data = json.loads(result.stdout)
    assert (len(data["events"]), len(data["undone"])) in ((150, 0), (0, 150))


def test_a_save_with_windows_line_ends_reads_whole(tmp_path):
    s = session(tmp_path)
    play(s, GAME[:7])
    expected = s.game.state
    path = GameStore(tmp_path).last_path()
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))  # copied through a Windows editor
    fresh = session(tmp_path)
    assert fresh.resume_game().lines[0].startswith("Continuing")
    assert fresh.game.state == expected


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"\n\n", "it is empty"),
        (b'{"format":"table-assist', "line 1, the setup, is damaged"),
        (bytes(range(256)) * 4, "line 1, the setup, is damaged"),
        (None, "line 1 is not the start of a saved game"),
        ({"format": "table-assistant game", "version": 99, "setup": {}}, "it was written by a newer version"),
        ({"format": "table-assistant game", "version": "1", "setup": {}}, "line 1 has no format version"),
    ],
)
def test_a_save_whose_setup_cannot_be_read_is_named_kept_and_does_not_block(tmp_path, content, problem):
    from assistant.storage.saves import encode_line

    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "game-20260101-000000-abcd.jsonl"
    if content is None:
        content = encode_line({"something": "else"})
    elif isinstance(content, dict):
        content = encode_line(content)
    path.write_bytes(content)
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    assert reply.important and fresh.game is None
    assert reply.lines[0].startswith(f"The saved game {path.name} cannot be continued: {problem}")
    assert reply.lines[0].endswith("The file is kept as it is. Say new game to start another.")
    assert path.read_bytes() == content
    assert fresh.handle("new game Ana Ben babies red pink").important and fresh.game is not None
    assert session(tmp_path).resume_game().lines[0].startswith("Continuing")  # the new game is the last one
