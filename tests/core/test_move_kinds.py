"""The move kind is one enum (`MoveKind`) that every table of what a move means keys on: every kind of event maps to
one, and each table names every kind, so a new kind of event is decided in each place (a test fails until it is)."""

from __future__ import annotations

import pytest

from assistant.core.game import events
from assistant.core.game.about import DECISIVE, EVENT_MOVES, About, MoveKind, Topic
from assistant.core.words.kinds import KINDS


def _event_kinds() -> set[str]:
    """The `KIND` of every event class of the game's log, subclasses of subclasses too."""
    found: set[str] = set()
    todo = list(events.Event.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.KIND:
            found.add(cls.KIND)
    return found


def test_every_kind_of_event_maps_to_a_move_kind():
    kinds = _event_kinds()
    assert len(kinds) > 25  # (the walk found the events)
    assert kinds == set(EVENT_MOVES)
    assert all(isinstance(EVENT_MOVES[kind], MoveKind) for kind in kinds)
    # (the kinds no event records: an Instant told apart as a Neigh, a stop, an undo, a redo, merged moves)
    assert set(MoveKind) - set(EVENT_MOVES.values()) == {
        MoveKind.NEIGH,
        MoveKind.STOP,
        MoveKind.UNDO,
        MoveKind.REDO,
        MoveKind.MOVES,
    }


@pytest.mark.parametrize(
    ("name", "table"),
    [("DECISIVE", DECISIVE), ("KINDS", KINDS)],
)
def test_each_table_of_moves_names_every_kind(name, table):
    assert set(table) == set(MoveKind), f"{name} misses {set(MoveKind) - set(table)}"


def test_the_tables_agree_on_what_a_move_means():
    # A move that takes the listener's card sounds as lost, is decisive and is said with whose card it was.
    for kind in (MoveKind.DESTROY, MoveKind.STEAL):
        says = KINDS[kind]
        assert says.earcon == "lost-card" and DECISIVE[kind] and says.whose and says.takes_away and says.point
    # An Instant, Neigh or other, is answered: decisive, with its own earcon, said with what it answered.
    for kind in (MoveKind.NEIGH, MoveKind.INSTANT):
        assert DECISIVE[kind] and KINDS[kind].earcon == "neigh" and KINDS[kind].answers
    move = About(Topic.MOVE, "Ben drew a card.", (1,), "Ben", MoveKind.DRAW)
    assert not move.decisive and About(Topic.MOVE, "Ben played Yay.", (1,), "Ben", MoveKind.PLAY).decisive


def test_a_move_said_with_whose_card_it_took_took_it_from_a_stable_and_no_move_decides_nothing():
    from assistant.core.words.kinds import KindSays, kind_says

    for kind, says in KINDS.items():
        assert not says.whose or says.takes_away, kind  # "Ana's Rainbow Aura": it left Ana's Stable
        assert not (says.whose or says.answers) or says.did, kind  # said in a merged sentence
    assert kind_says(None) == KindSays(own=False)  # a fact that tells no move: no earcon, no words, no phone's own
