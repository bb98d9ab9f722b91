"""The move kind is one enum (`MoveKind`) and everything a kind decides is its one row of `words.kinds.KINDS`: the
events it records, whether it is decisive, whether an effect moved a card by it, its words for each audience, the
words of its undo, its earcon. Every event class is recorded by exactly one row and every kind has its row, so a new
kind of event is decided in one place (a test fails until it is); each trait read here fails a test when reverted."""

from __future__ import annotations

import dataclasses

import pytest

from assistant.core.game import events
from assistant.core.game.about import MoveKind, Topic
from assistant.core.words.kinds import EVENT_MOVES, KINDS, Kind, kind_of, kind_says
from tests.facts import fact


def _event_classes() -> set[type[events.Event]]:
    """Every event class of the game's log, subclasses of subclasses too."""
    found: set[type[events.Event]] = set()
    todo = list(events.Event.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.KIND:
            found.add(cls)
    return found


def test_every_kind_has_its_row_and_every_event_class_exactly_one():
    assert set(KINDS) == set(MoveKind), f"KINDS misses {set(MoveKind) - set(KINDS)}"
    recorded = [cls for row in KINDS.values() for cls in row.events]
    assert len(recorded) == len(set(recorded)), "an event class in two rows"
    classes = _event_classes()
    assert len(classes) > 25  # (the walk found the events)
    assert set(recorded) == classes
    assert set(EVENT_MOVES) == {cls.KIND for cls in classes}
    # (the kinds no event records: an Instant told apart as a Neigh, a stop, an undo, a redo, merged moves)
    assert {kind for kind, row in KINDS.items() if not row.events} == {
        MoveKind.NEIGH,
        MoveKind.STOP,
        MoveKind.UNDO,
        MoveKind.REDO,
        MoveKind.MOVES,
    }


def test_a_row_that_forgets_a_deciding_trait_is_refused():
    """The traits that decide something have no default: a row without one is a `TypeError` where the table is
    built, so no kind of event falls silently to a default."""
    required = {field.name for field in dataclasses.fields(Kind) if field.default is dataclasses.MISSING}
    assert required == {"events", "said", "undone", "decisive", "effect"}
    with pytest.raises(TypeError):
        Kind((events.Draw,), None, decisive=False, effect=False)  # type: ignore[call-arg]  # (no `undone`)


def test_every_kind_an_event_records_has_its_words_and_its_undo():
    for kind, row in KINDS.items():
        if row.events or kind is MoveKind.NEIGH:
            assert row.said is not None and row.undone is not None, kind


def test_the_traits_agree_on_what_a_move_means():
    # A move that takes the listener's card sounds as lost, is decisive and is said with whose card it was.
    for kind in (MoveKind.DESTROY, MoveKind.STEAL):
        says = KINDS[kind]
        assert says.earcon == "lost-card" and says.decisive and says.whose and says.takes_away and says.point
    # An Instant, Neigh or other, is answered: decisive, with its own earcon, said with what it answered.
    for kind in (MoveKind.NEIGH, MoveKind.INSTANT):
        assert KINDS[kind].decisive and KINDS[kind].earcon == "neigh" and KINDS[kind].answers


def test_a_move_is_decisive_by_its_row_and_a_merged_one_when_one_of_its_moves_is():
    from assistant.core.words.kinds import is_decisive

    drew = fact(Topic.MOVE, "Ben drew a card.", 1, player="Ben", move=MoveKind.DRAW)
    played = fact(Topic.MOVE, "Ben played Yay.", 1, player="Ben", move=MoveKind.PLAY, card="Yay")
    assert not is_decisive(drew) and is_decisive(played)
    merged = fact(
        Topic.MOVE, "Ben drew a card and played Yay.", 1, player="Ben", move=MoveKind.MOVES, parts=(drew, played)
    )
    assert is_decisive(merged)
    assert not is_decisive(dataclasses.replace(merged, parts=(drew, drew)))
    assert is_decisive(fact(Topic.TURN, "Ben's turn.", 1, player="Ben"))  # every fact but a move


def test_the_effects_are_the_moves_of_a_card_into_or_out_of_a_stable():
    """Before, a return to the discard pile (`ToDiscard`, Unicorn Shrinkray) was left out of the effects."""
    effects = {kind for kind, row in KINDS.items() if row.effect}
    assert effects == {
        MoveKind.BRING,
        MoveKind.STEAL,
        MoveKind.DESTROY,
        MoveKind.SACRIFICE,
        MoveKind.RETURN,
        MoveKind.TO_DISCARD,
        MoveKind.SWAP,
        MoveKind.MOVE,
        MoveKind.NURSERY,
    }
    assert kind_of(events.ToDiscard(0, "yay", 1)).effect and kind_of(events.SwapHands(0, 1)).effect
    assert not kind_of(events.Draw(0)).effect


def test_a_move_said_with_whose_card_it_took_took_it_from_a_stable_and_no_move_decides_nothing():
    for kind, says in KINDS.items():
        assert not says.whose or says.takes_away, kind  # "Ana's Rainbow Aura": it left Ana's Stable
        assert not (says.whose or says.answers) or says.did, kind  # said in a merged sentence
    nothing = kind_says(None)
    assert (nothing.earcon, nothing.did, nothing.own, nothing.decisive, nothing.effect) == ("", "", False, False, False)
