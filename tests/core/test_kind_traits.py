"""Each trait of a kind of move (its row of `words.kinds.KINDS`) as a player meets it: a return to the discard pile
said, counted and undone as a return to the hand is, since both are the one `return` verb moving a card out of a
Stable by an effect. Before, `ToDiscard` was in neither the effects nor the undo's list: its count was said in the
long form and its undo as "... went from Ben's Stable to the discard pile, taken back."."""

from __future__ import annotations

import pytest
from talking import asks, bring, table

from assistant.core.game import events
from assistant.core.game.about import MoveKind
from assistant.core.words.audience import Audience
from assistant.core.words.kinds import KINDS, describe_event, kind_of, own_move
from assistant.core.words.worded import words_for


def _returned(where: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Ben's Basic Unicorn (Red) returned `where` by Ana: the move's lines, its decisive facts, the undo's lines."""
    session = table()
    bring(session, "basic-unicorn-red", "Ben")
    reply = session.handle(f"return basic red {where}")
    if asks(reply):
        reply = session.handle("yes")
    done = reply.lines, tuple(words_for(fact, Audience.TABLE) for fact in reply.facts)
    return (*done, session.handle("undo").lines)


def test_a_return_to_the_discard_pile_is_counted_and_undone_as_a_return_to_the_hand():
    hand_lines, hand_facts, hand_undo = _returned("to hand")
    pile_lines, pile_facts, pile_undo = _returned("to the discard pile")
    assert hand_undo[0] == "Undone: Basic Unicorn (Red) is back in Ben's Stable."
    assert pile_undo == hand_undo  # the same position given back, said the same way
    assert hand_facts == pile_facts == ("Ben 1 Unicorn.",)
    # the count first, in the same short form, then the move
    assert hand_lines[0] == pile_lines[0] == "Ben 1 Unicorn."
    assert pile_lines[1] == "Basic Unicorn (Red) went from Ben's Stable to the discard pile."


@pytest.mark.parametrize("kind", [MoveKind.RETURN, MoveKind.TO_DISCARD, MoveKind.STEAL, MoveKind.MOVE])
def test_a_card_taken_from_a_stable_is_undone_as_back_in_that_stable(kind):
    session = table()
    bring(session, "basic-unicorn-red", "Ben")
    line = {
        MoveKind.RETURN: "return basic red to hand",
        MoveKind.TO_DISCARD: "return basic red to the discard pile",
        MoveKind.STEAL: "steal basic red",
        MoveKind.MOVE: "move basic red from Ben to Ana",
    }[kind]
    reply = session.handle(line)
    if asks(reply):
        reply = session.handle("yes")
    assert kind_of(session.game.log[-1]) is KINDS[kind], reply.lines
    assert session.handle("undo").lines[0] == "Undone: Basic Unicorn (Red) is back in Ben's Stable."


def test_each_kind_is_worded_once_for_the_table_and_its_own_players_phone():
    """One function a kind words both: the table's words name the player where its own phone says "You"."""
    session = table()
    game = session.game
    for event, table_words, own_words in (
        (events.Draw(0, 2), "Ana drew 2 cards", "You drew 2 cards."),
        (events.Play(0, "yay", into=1), "Ana played Yay into Ben's Stable", "You played Yay into Ben's Stable."),
        (events.ToDiscard(0, "basic-unicorn-red", 0), "Basic Unicorn (Red) went from Ana's Stable to the discard pile",
         "You put Basic Unicorn (Red) from your Stable on the discard pile."),
        (events.SkipTurn(0), "Ana will miss their next turn", "You will miss your next turn."),
        (events.GiveCard(0, 1), "Ana gave a card from their hand to Ben", "You gave a card from your hand to Ben."),
    ):  # fmt: skip
        assert describe_event(game.table, event, game.state) == table_words
        assert own_move(game.table, event) == own_words
