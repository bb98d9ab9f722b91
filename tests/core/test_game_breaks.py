"""Behaviour of the typed game core that a one-line change once broke without any test noticing: a push forgetting
the events undone, a Stable's limit biting without being important, and simultaneous winners counted from seat 0.

Each test is about values (`Game`, `Step`, facts, `Outcome`), not sentences, so rewording the game's English never
touches it.
"""

from __future__ import annotations

import pytest

from assistant.core.game import events as ev
from assistant.core.game.facts import GameOver, LimitReached, LinkAdded, TallyChanged
from assistant.core.game.history import Game, NothingToUndoError, Step
from assistant.core.game.setup import Setup
from assistant.core.game.tally import Ending, Outcome, first_to_goal
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.talking import asks

CARDS = load_card_set("uu-2nd")
ANA, BEN, CY = 0, 1, 2
CARD_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")


def game(*names: str) -> Game:
    return Game.new(Setup(names or ("Ana", "Ben", "Cy"), "uu-current"), CARDS)


def unicorns(g: Game, seat: int, count: int) -> None:
    """Put `count` Basic Unicorns straight into a Stable (as a card's effect would)."""
    colours = ("red", "blue", "green", "yellow", "purple", "orange", "indigo")
    for colour in colours[:count]:
        g.push(ev.Bring(seat, f"basic-unicorn-{colour}", seat))


# Game.push forgets what was undone: a new event is a new line of play, and redo has nothing left to put back.


def test_a_new_event_after_undo_leaves_nothing_to_redo():
    g = game()
    first, second = ev.Draw(ANA, 1), ev.SetHand(BEN, 4)
    g.push(first)
    g.pop()
    assert g.undone == [first]
    g.push(second)
    assert g.undone == [], "a push after an undo forgets the undone event"
    assert g.log == [second]
    with pytest.raises(NothingToUndoError):
        g.redo()
    with pytest.raises(NothingToUndoError):
        g.redo_many(1)
    assert g.log == [second] and g.state.players[BEN].hand == 4


def test_undo_then_redo_still_puts_back_the_same_events():
    """The other side of the rule: without a new event in between, redo gives back exactly what undo took."""
    g = game()
    events = [ev.Draw(ANA, 1), ev.SetHand(BEN, 4), ev.SetDeck(30)]
    for event in events:
        g.push(event)
    end = g.state
    g.undo(2)
    assert g.undone == [events[2], events[1]]
    g.redo_many(2)
    assert g.log == events and g.undone == [] and g.state == end


def test_to_dict_has_no_undone_events_after_a_new_event():
    """What `state --json` and a resumed save show: a push after an undo leaves "undone" empty."""
    g = game()
    g.push(ev.Draw(ANA, 1))
    g.pop()
    g.push(ev.SetDeck(20))
    assert g.to_dict()["undone"] == []


# A Stable's limit biting (Tiny Stable: more than 5 Unicorns) is a fact speech never drops.


def test_the_step_where_tiny_stable_bites_is_important():
    g = game()
    g.push(ev.Bring(ANA, "tiny-stable", ANA))
    unicorns(g, ANA, 5)  # 5 is the limit, not over it
    step = g.push(ev.Bring(ANA, "basic-unicorn-orange", ANA))
    limit = LimitReached(ANA, "tiny-stable", 6, 5)
    assert limit in step.facts
    # Nothing else in this step is important on its own (no turn change, no winner): the limit must be.
    assert [type(f) for f in step.facts] == [TallyChanged, LimitReached, LinkAdded]
    assert step.important


def test_a_limit_reached_alone_makes_a_step_important_and_a_tally_change_alone_does_not():
    g = game()
    state = g.state
    event = ev.Bring(ANA, "basic-unicorn-red", ANA)
    assert Step(event, state, state, (LimitReached(ANA, "tiny-stable", 6, 5),)).important
    assert not Step(event, state, state, (TallyChanged((5, 0, 0), (6, 0, 0)),)).important


def test_the_reply_to_the_event_where_the_limit_bites_is_important():
    """Through the session: the reply carrying that step is marked important, so speech never drops it."""
    session = Session(CARDS)
    session.handle("new game Ana Ben Cy")

    def bring(card_id: str):
        reply = session.handle(f"bring {card_id} into Ana")
        return session.handle("yes") if asks(reply) else reply  # a warning confirmed: the event is recorded

    replies = [bring(card_id) for card_id in ("tiny-stable", *(f"basic-unicorn-{c}" for c in CARD_COLOURS))]
    assert len(session.game.log) == 7 and session.game.table.tally(session.game.state)[ANA] == 6
    assert [r.important for r in replies] == [False] * 6 + [True]


# Several players reaching the goal at once: the current player wins first, then the next clockwise.


@pytest.mark.parametrize(
    ("counts", "current", "winner"),
    [
        ((7, 7, 7), BEN, BEN),  # everyone: the current player
        ((7, 0, 7), BEN, CY),  # not the current player: the next clockwise
        ((7, 0, 0), BEN, ANA),  # clockwise goes round past the last seat
        ((0, 7, 7), CY, CY),
        ((7, 7, 0), CY, ANA),
        ((7, 7, 7, 7), 3, 3),
        ((6, 6, 6), BEN, None),
    ],
)
def test_first_to_goal_starts_from_the_current_player(counts, current, winner):
    assert first_to_goal(counts, 7, current) == winner


@pytest.mark.parametrize(("stables", "winner"), [((ANA, CY), CY), ((ANA, BEN), BEN), ((ANA, BEN, CY), BEN)])
def test_when_a_lower_goal_makes_several_players_win_at_once_the_current_player_or_the_next_clockwise_wins(
    stables, winner
):
    """Rulebook 000, "HOW TO WIN": "The first person with the required number of Unicorns in their Stable wins";
    reached by several at once (the table lowering the number to win), the turn's player is first, and then
    play goes clockwise."""
    g = game()
    for seat in stables:
        unicorns(g, seat, 2)
    g.push(ev.EndTurn())
    assert g.state.current == BEN and g.state.outcome is None
    step = g.push(ev.SetGoal(2))
    outcome = Outcome(Ending.GOAL, winner)
    assert g.state.outcome == outcome
    assert GameOver(outcome) in step.facts and step.important
