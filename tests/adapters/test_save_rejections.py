"""Every way a line of a save can be refused while the save is read and replayed (docs/game.md, "Saves"), and what
continuing then does: the game is recovered from every line that can be read, the original file is kept beside the
save, the save is rewritten without the refused lines, and the player is told which lines — never a traceback.

Where a line is refused:
- reading the file (`assistant/storage/saves.py`, `read_save`): cut off, a CRC that does not match, not UTF-8, not
  JSON, JSON nested past the reader's bound, not a table, not exactly a record number and a record;
- reading the record (`assistant/core/game/history.py`, `read_record`, and `events.event_from_dict`): `EventError`
  for an unknown kind, an unknown or missing field, a field of the wrong type, a seat, card, count or source that
  is not in the game, an undo or redo count out of range;
- replaying it (`replay`): `NothingToUndoError` for an undo or redo of more events than there are, and
  `EventError` from the engine itself.
A setup line that cannot be used is different: nothing can be replayed without it, so the save is left exactly as
it is, the player is told why, and a new game can start.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.core.game import events as ev
from assistant.core.game.events import EventError
from assistant.core.game.history import read_record
from assistant.core.game.setup import Setup
from assistant.core.game.table import Table
from assistant.core.words.errors import save_damaged, save_damaged_unrepaired, save_unusable
from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import FORMAT, VERSION, GameStore, decode_line, encode_line, read_save

CARDS = load_card_set("uu-2nd")
PLAYED = ["new game Ana Ben babies red pink", "draw", "hand Ben 4", "deck 40"]
#: The events of `PLAYED`, in the order they are saved (lines 2, 3 and 4).
EVENTS = [ev.Draw(0, 1), ev.SetHand(1, 4), ev.SetDeck(40)]


def session(folder: Path) -> Session:
    return Session(CARDS, store=GameStore(folder), load_cards=load_card_set)


def played(folder: Path):
    """A save of two players and three events; its path, and the state the game reached."""
    s = session(folder)
    for line in PLAYED:
        s.handle(line)
    assert s.game.log == EVENTS
    return GameStore(folder).last_path(), s.game.state


def record_line(record: object, number: int = 9) -> bytes:
    """A record as `GameLog.append` writes it (whole, with a correct CRC), without its newline."""
    return encode_line({"n": number, "r": record})[:-1]


def crc_line(text: bytes) -> bytes:
    """Any bytes with their correct CRC: the line is intact on disk, so only what it says can be refused."""
    return text + b"\t" + f"{zlib.crc32(text):08x}".encode("ascii")


def insert(path: Path, line_number: int, line: bytes) -> bytes:
    """Put `line` into the save as line `line_number` (from 1), numbering the records as a writer that wrote it
    would have; return the whole file as it now is."""
    lines = path.read_bytes().split(b"\n")[:-1]
    lines.insert(line_number - 1, line)
    data = b"".join(x + b"\n" for x in renumbered(lines))
    path.write_bytes(data)
    return data


def renumbered(lines: list[bytes]) -> list[bytes]:
    """The save's lines with its whole records numbered 1, 2, 3... (a damaged line keeps its bytes)."""
    out, number = lines[:1], 1
    for line in lines[1:]:
        body = decode_line(line)
        if body is not None and set(body) == {"n", "r"}:
            line, number = encode_line({"n": number, "r": body["r"]})[:-1], number + 1
        out.append(line)
    return out


def kept_copies(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if ".damaged-" in p.name]


def assert_recovered(folder: Path, path: Path, damaged: bytes, bad: list[int], expected_state) -> Session:
    """Continuing the damaged save: every other event kept, the original kept beside it, the player told where."""
    fresh = session(folder)
    reply = fresh.resume_game()
    (kept,) = kept_copies(folder)
    assert reply.important
    assert reply.lines[0] == save_damaged(path.name, bad, kept.name), reply.lines
    assert fresh.game.log == EVENTS and fresh.game.undone == []
    assert fresh.game.state == expected_state
    assert kept.read_bytes() == damaged, "the original, damaged lines and all, is kept"
    remaining = [line for n, line in enumerate(damaged.split(b"\n")[:-1], start=1) if n not in bad]
    expected = renumbered(remaining)  # the records numbered again, so that the next one follows on
    assert path.read_bytes() == b"".join(line + b"\n" for line in expected), "the save without the refused lines"
    saved = read_save(path)
    assert saved.damaged == [] and [r for _, r in saved.records] == [e.to_dict() for e in EVENTS]
    # The repaired save goes on: a next event is appended, and a third start continues without any complaint.
    fresh.handle("Ben draw")
    fresh.handle("yes")  # a draw in Ana's turn is warned: recorded on yes
    third = session(folder)
    again = third.resume_game()
    assert len(again.lines) == 1 and again.lines[0].startswith(reply.lines[1].split(",")[0])
    assert third.game.log == [*EVENTS, ev.Draw(1, 1)]
    assert len(kept_copies(folder)) == 1
    return fresh


# Lines the file reader refuses (saves.read_save).

FILE_DAMAGE = {
    "a CRC that does not match": record_line({"e": "draw", "player": 1}).replace(b'"player":1', b'"player":0'),
    "no CRC": b'{"n":9,"r":{"e":"draw","player":1,"count":1}}',
    "a short CRC": crc_line(b'{"n":9,"r":{"e":"draw","player":1,"count":1}}')[:-2],
    "a CRC that is not hexadecimal": b'{"n":9,"r":{"e":"resolve"}}\tzzzzzzzz',
    "an empty line": b"",
    "not UTF-8": crc_line(b'{"n":9,"r":{"e":"draw","player":1,"count":1,"x":"\xff\xfe"}}'),
    "not JSON": crc_line(b'{"n":9,"r":{"e":"draw",'),
    "JSON nested past the reader's bound": crc_line(b"[" * 100_000 + b"]" * 100_000),
    "JSON that is not a table": crc_line(b'[{"e":"draw","player":1}]'),
    "a table without its record": crc_line(b'{"n":9}'),
    "a table without its record number": crc_line(b'{"r":{"e":"draw","player":1,"count":1}}'),
    "a table with more than a record": crc_line(b'{"n":9,"r":{"e":"resolve"},"x":1}'),
    "a record that is not a table": crc_line(b'{"n":9,"r":["draw",1]}'),
    "a record that is text": crc_line(b'{"n":9,"r":"draw"}'),
}


@pytest.mark.parametrize("line", FILE_DAMAGE.values(), ids=FILE_DAMAGE.keys())
def test_a_line_the_file_reader_refuses_is_set_aside(tmp_path, line):
    path, state = played(tmp_path)
    damaged = insert(path, 3, line)
    assert read_save(path).damaged == [3]
    assert_recovered(tmp_path, path, damaged, [3], state)


def test_a_cut_off_last_line_is_set_aside(tmp_path):
    """A crash in the middle of a write: the last line has no newline (and so, in fact, no CRC)."""
    path, state = played(tmp_path)
    damaged = path.read_bytes() + record_line({"e": "draw", "player": 1, "count": 1})
    path.write_bytes(damaged)
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    (kept,) = kept_copies(tmp_path)
    assert reply.lines[0] == save_damaged(path.name, [5], kept.name)
    assert fresh.game.log == EVENTS and fresh.game.state == state and kept.read_bytes() == damaged


# Records that read_record and event_from_dict refuse with EventError (the line itself is intact).

RECORD_DAMAGE = {
    "an unknown event kind": {"e": "fly", "player": 0},
    "no event kind": {"player": 0, "count": 1},
    "an event kind that is not text": {"e": 7, "player": 0},
    "an unknown field": {"e": "draw", "player": 0, "count": 1, "colour": "red"},
    "a missing field": {"e": "steal", "player": 0, "card": "yay"},
    "a seat that is text": {"e": "draw", "player": "1", "count": 1},
    "a seat that is true or false": {"e": "draw", "player": True, "count": 1},
    "a seat that is a fraction": {"e": "draw", "player": 1.0, "count": 1},
    "a seat one past the last": {"e": "draw", "player": 2, "count": 1},
    "a seat below the first": {"e": "draw", "player": -1, "count": 1},
    "an owner one past the last": {"e": "steal", "player": 0, "card": "yay", "owner": 2},
    "a Stable one past the last": {"e": "bring", "player": 0, "card": "yay", "into": 2},
    "a next player one past the last": {"e": "end-turn", "to": 2},
    "no Stable where one is needed": {"e": "bring", "player": 0, "card": "yay", "into": None},
    "a card not in the game": {"e": "play", "player": 0, "card": "no-such-card"},
    "a card that is not text": {"e": "play", "player": 0, "card": 5},
    "no card where one is needed": {"e": "sacrifice", "player": 0, "card": None},
    "a count that is text": {"e": "draw", "player": 0, "count": "2"},
    "a count that is true or false": {"e": "hand", "player": 0, "count": False},
    "a count below 0": {"e": "deck", "count": -1},
    "a count past any deck": {"e": "draw", "player": 0, "count": ev.MAX_COUNT + 1},
    "an unknown source": {"e": "take", "player": 0, "card": "yay", "source": "pocket"},
    "a source that is a list": {"e": "take", "player": 0, "card": "yay", "source": ["deck"]},
    "a skip that is not true or false": {"e": "next", "skip": "yes"},
    "a phase skipped that no card skips": {"e": "skip-phase", "phase": "end"},
    "an undo of no events": {"e": "undo", "n": 0},
    "an undo of fewer than no events": {"e": "undo", "n": -1},
    "an undo count that is text": {"e": "undo", "n": "2"},
    "an undo count that is true": {"e": "undo", "n": True},
    "an undo count that is a fraction": {"e": "undo", "n": 1.5},
    "an undo with a field of its own": {"e": "undo", "n": 1, "all": True},
}


@pytest.mark.parametrize("record", RECORD_DAMAGE.values(), ids=RECORD_DAMAGE.keys())
def test_a_record_that_cannot_be_read_as_an_event_is_set_aside(tmp_path, record):
    path, state = played(tmp_path)
    with pytest.raises(EventError):
        read_record(record, Table.create(Setup(("Ana", "Ben"), "uu-current"), CARDS))  # refused before replay
    damaged = insert(path, 3, record_line(record))
    assert read_save(path).damaged == [], "the line is intact: it is what it says that is refused"
    assert_recovered(tmp_path, path, damaged, [3], state)


def test_a_seat_one_past_the_last_is_refused_for_every_seat_field(tmp_path):
    """The seat check is "from 0 to one less than the number of players": the first seat that does not exist is
    refused in every field that names a player, and the last seat that does is accepted."""
    from assistant.core.game.events import EVENT_TYPES, event_from_dict

    ids = CARDS.by_id
    examples = {
        "play": {"e": "play", "player": 0, "card": "yay", "into": 0},
        "steal": {"e": "steal", "player": 0, "card": "yay", "owner": 0},
        "swap": {"e": "swap", "player": 0, "card": "yay", "owner": 0, "other_card": "neigh", "other_owner": 0},
        "swap-hands": {"e": "swap-hands", "player": 0, "other": 0},
        "move": {"e": "move", "player": 0, "card": "yay", "owner": 0, "into": 0},
        "end-turn": {"e": "end-turn", "to": 0},
    }
    checked = set()
    for example in examples.values():
        for name in example:
            if name in ("player", "owner", "other_owner", "other", "into", "to"):
                assert event_from_dict({**example, name: 1}, 2, ids) is not None  # the last seat of 2
                with pytest.raises(EventError):
                    event_from_dict({**example, name: 2}, 2, ids)
                checked.add(name)
    assert checked == {"player", "owner", "other_owner", "other", "into", "to"}
    assert set(examples) <= set(EVENT_TYPES)


# Records read whole that cannot be replayed.


def test_an_undo_of_more_events_than_there_are_is_set_aside(tmp_path):
    path, state = played(tmp_path)
    damaged = insert(path, 5, record_line({"e": "undo", "n": 4}))  # after the 3 events: one too many
    assert_recovered(tmp_path, path, damaged, [5], state)


def test_a_redo_with_nothing_undone_is_set_aside(tmp_path):
    path, state = played(tmp_path)
    damaged = insert(path, 3, record_line({"e": "redo"}))
    assert_recovered(tmp_path, path, damaged, [3], state)


def test_a_redo_after_a_new_event_is_set_aside_since_the_new_event_dropped_what_was_undone(tmp_path):
    """Undo, then a new event, then redo: the new event has dropped what was undone (`Game.push`), so the redo
    has nothing to put back, on disk as in live play."""
    s = session(tmp_path)
    for line in ["new game Ana Ben babies red pink", "draw", "undo", "hand Ben 4", "deck 40"]:
        s.handle(line)
    assert s.handle("redo").lines and s.game.undone == []  # live: nothing to redo
    expected = s.game.state
    path = GameStore(tmp_path).last_path()
    damaged = insert(path, 5, record_line({"e": "redo"}))  # the redo, as if it had been written after "hand Ben 4"
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    (kept,) = kept_copies(tmp_path)
    assert reply.lines[0] == save_damaged(path.name, [5], kept.name)
    assert fresh.game.log == [ev.SetHand(1, 4), ev.SetDeck(40)] and fresh.game.undone == []
    assert fresh.game.state == expected and kept.read_bytes() == damaged


def test_an_event_the_engine_refuses_is_set_aside(tmp_path, monkeypatch):
    """`apply` raises `EventError` for what it cannot apply at all; a saved event it refuses is set aside like
    any other damaged line (no event read from a save reaches it today: the engine's own guard)."""
    import assistant.core.game.history as history

    path, state = played(tmp_path)
    refused = ev.SetDeck(41)
    damaged = insert(path, 3, record_line(refused.to_dict()))
    real_apply = history.apply

    def apply(table, before, event):
        if event == refused:
            raise EventError("the engine cannot apply this")
        return real_apply(table, before, event)

    monkeypatch.setattr(history, "apply", apply)
    assert_recovered(tmp_path, path, damaged, [3], state)


def test_several_refused_lines_of_different_kinds_are_set_aside_together(tmp_path):
    path, state = played(tmp_path)
    insert(path, 3, FILE_DAMAGE["a CRC that does not match"])
    insert(path, 5, record_line({"e": "draw", "player": 2, "count": 1}))
    damaged = insert(path, 7, record_line({"e": "undo", "n": 9}))
    assert_recovered(tmp_path, path, damaged, [3, 5, 7], state)


def test_a_read_only_look_names_the_refused_lines_and_changes_nothing(tmp_path):
    """`table-assistant state` reads the save without repairing it: it says where it is damaged, and the file and
    its folder stay exactly as they were."""
    path, state = played(tmp_path)
    insert(path, 3, FILE_DAMAGE["not JSON"])
    damaged = insert(path, 5, record_line({"e": "draw", "player": 2, "count": 1}))
    fresh = session(tmp_path)
    reply = fresh.lobby.resume(repair=False)
    assert reply.lines[0] == save_damaged_unrepaired(path.name, [3, 5])
    assert fresh.game.log == EVENTS and fresh.game.state == state
    assert path.read_bytes() == damaged and kept_copies(tmp_path) == []


# A setup line that cannot be used: the save is kept exactly as it is.


def setup_line(**changes) -> bytes:
    setup = {"players": ["Ana", "Ben"], "profile": "uu-current", "base": "uu-2nd", "babies": []}
    setup.update(changes)
    for key in [k for k, v in changes.items() if v is ...]:
        del setup[key]
    return encode_line({"format": FORMAT, "version": VERSION, "setup": setup})[:-1]


SETUP_DAMAGE = {
    "a flipped byte": setup_line().replace(b"Ana", b"Anb"),
    "no setup": encode_line({"format": FORMAT, "version": VERSION})[:-1],
    "a setup that is a list": encode_line({"format": FORMAT, "version": VERSION, "setup": []})[:-1],
    "an unknown setup field": setup_line(colour="red"),
    "no players": setup_line(players=...),
    "players that are text": setup_line(players="Ana Ben"),
    "a player name that is not text": setup_line(players=["Ana", 7]),
    "one player": setup_line(players=["Ana"]),
    "a name twice": setup_line(players=["Ana", "Ana"]),
    "a first player that is text": setup_line(first="Ben"),
    "a first player past the last": setup_line(first=2),
    "an unknown rules profile": setup_line(profile="chess"),
    "an unknown base deck": setup_line(base="no-such-deck"),
    "an unknown add-on": setup_line(addons=["no-such-deck"]),
    "an unknown Baby": setup_line(babies=["no-such-baby", "baby-unicorn-pink"]),
    "an unknown deck-out rule": setup_line(deck_out="sometimes"),
    "a goal that is text": setup_line(goal="seven"),
    "hands that are not true or false": setup_line(hands="yes"),
}


@pytest.mark.parametrize("first", SETUP_DAMAGE.values(), ids=SETUP_DAMAGE.keys())
def test_a_setup_that_cannot_be_used_leaves_the_save_as_it_is_and_says_so(tmp_path, first):
    path, _ = played(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[0] = first
    data = b"\n".join(lines)
    path.write_bytes(data)
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    head, tail = save_unusable(path.name, "PROBLEM").split("PROBLEM")
    assert reply.important and fresh.game is None
    assert reply.lines[0].startswith(head) and reply.lines[0].endswith(tail) and len(reply.lines[0]) > len(head + tail)
    assert path.read_bytes() == data and kept_copies(tmp_path) == []
    assert fresh.lobby.resume(repair=False).lines == reply.lines  # the read-only look says the same
    assert fresh.handle("new game Ana Ben babies red pink").important and fresh.game is not None


# Whatever a line holds, continuing answers in words.

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["draw", "undo", "redo", "yay", "hand", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["e", "n", "player", "count"]), inner),
    max_leaves=8,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=JSON)
def test_any_record_either_replays_or_is_set_aside_never_a_traceback(tmp_path_factory, record):
    folder = tmp_path_factory.mktemp("any")
    path, _ = played(folder)
    insert(path, 3, record_line(record) if isinstance(record, dict) else crc_line(json.dumps(record).encode()))
    fresh = session(folder)
    reply = fresh.resume_game()
    assert fresh.game is not None and reply.lines
    kept = kept_copies(folder)
    if kept:  # refused: set aside, said, and every other event kept
        assert reply.lines[0] == save_damaged(path.name, [3], kept[0].name) and fresh.game.log == EVENTS
    else:  # a record that is a real event, undo or redo: replayed like the others
        assert len(reply.lines) == 1 and read_save(path).damaged == []
