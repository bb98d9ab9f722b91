"""Tests written for the mutants a mutation run of the game engine left alive (docs/mutation.md).

Each asserts a behaviour of the typed core — `Game`, `Table`, records, states — at the edge the mutant moved: a
boundary (`<` for `<=`), a branch joined with the wrong `and`/`or`, a save record's exact form.
"""

from __future__ import annotations

import pytest

from assistant.core.game.events import Bring, Draw, EventError, Resolve, Source
from assistant.core.game.history import (
    MAX_UNDO,
    Game,
    NothingToUndoError,
    Record,
    read_record,
    record_to_dict,
    replay,
)
from assistant.core.game.setup import Setup
from assistant.storage.decks import load_card_set

CARDS = load_card_set("uu-2nd")


def new_game() -> Game:
    return Game.new(Setup(("Ana", "Ben"), "uu-current"), CARDS)


# --- history.py: save records -------------------------------------------------------------------------------


def test_undo_and_redo_lines_read_as_records_with_their_count():
    table = new_game().table
    assert read_record({"e": "undo"}, table) == Record("undo", count=1)
    assert read_record({"e": "redo"}, table) == Record("redo", count=1)
    assert read_record({"e": "undo", "n": 3}, table) == Record("undo", count=3)
    assert read_record({"e": "redo", "n": MAX_UNDO}, table) == Record("redo", count=MAX_UNDO)


def test_an_event_whose_line_has_only_its_name_is_an_event_not_an_undo():
    table = new_game().table
    assert read_record({"e": "resolve"}, table) == Record("event", Resolve())


@pytest.mark.parametrize("count", [0, -1, MAX_UNDO + 1, True, "2", 2.0])
def test_an_undo_count_out_of_range_or_not_a_whole_number_is_a_damaged_line_that_names_it(count):
    with pytest.raises(EventError, match=f"^{count!r} is not a number of events from 1 to {MAX_UNDO}$"):
        read_record({"e": "undo", "n": count}, new_game().table)


@pytest.mark.parametrize(
    ("record", "line"),
    [
        (Record("undo"), {"e": "undo"}),
        (Record("redo", count=2), {"e": "redo", "n": 2}),
        (Record("event", Draw(1, 2)), Draw(1, 2).to_dict()),
    ],
)
def test_a_record_is_written_in_its_shortest_form_and_reads_back_the_same(record, line):
    assert record_to_dict(record) == line
    assert read_record(line, new_game().table) == record


# --- history.py: undo and redo -------------------------------------------------------------------------------


def test_undo_and_redo_of_more_events_than_there_are_say_how_many_there_are_and_change_nothing():
    game = new_game()
    game.push(Draw(0, 1))
    game.push(Draw(1, 1))
    with pytest.raises(NothingToUndoError, match="^only 2 events to undo$"):
        game.undo(3)
    assert len(game.log) == 2
    assert len(replay(game, Record("undo", count=2))) == 2
    assert game.log == [] and game.state == game.initial
    with pytest.raises(NothingToUndoError, match="^only 2 events to redo$"):
        game.redo_many(3)
    assert replay(game, Record("redo", count=2)) and game.log == [Draw(0, 1), Draw(1, 1)]


def test_the_json_form_of_a_game_has_its_setup_rules_position_tally_events_and_what_was_undone():
    game = new_game()
    game.push(Bring(0, "basic-unicorn-red", 0, Source.HAND))
    game.push(Draw(1, 2))
    game.pop()
    data = game.to_dict()
    assert set(data) == {"setup", "rules", "state", "tally", "events", "undone"}
    assert data["setup"] == game.setup.to_dict() and data["state"] == game.state.to_dict()
    profile = game.table.profile
    assert data["rules"] == {"id": "uu-current", "title": profile.title, "rulebook": profile.rulebook}
    assert profile.title and profile.rulebook
    assert data["tally"] == [1, 0]
    assert data["events"] == [Bring(0, "basic-unicorn-red", 0, Source.HAND).to_dict()]
    assert data["undone"] == [Draw(1, 2).to_dict()]
