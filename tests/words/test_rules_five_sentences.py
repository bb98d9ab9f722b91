"""The sentences of the rules in tests/core/test_rules_five.py, on typed values: a card whose effect ends the turn
at once, and a Magic card with nothing to act on."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assistant.core.cards.wording import Need, UnicornAction
from assistant.core.game.events import Phase, Save, SkipPhase
from assistant.core.game.facts import CardMustGo, HerdBonusIgnored, PhaseSkipped, TurnEndsNow
from assistant.core.game.objections import (
    CannotSave,
    ExtraIsAPlay,
    Impossible,
    Indestructible,
    NotAUnicornHere,
    PhaseIsSkipped,
)
from assistant.core.words.announce import describe_prompt
from assistant.core.words.gameplay import describe_fact, save_offered
from assistant.core.words.kinds import describe_event
from assistant.core.words.rulings import describe_objection, short_objection
from assistant.core.words.screen import may_do
from assistant.core.words.verbosity import Verbosity
from tests.core.playing import game as nsfw_game
from tests.words.test_own_rule_sentences import game


def test_a_card_that_ends_the_turn_is_said_and_the_turn_end_is_asked():
    played = game("uu-2nd")
    table, state = played.table, replace(played.state, turn_ends="rhinocorn")
    fact = describe_fact(table, TurnEndsNow(0, "rhinocorn"), state)
    assert fact == "Rhinocorn: once its effect is used, Ana's turn ends at once."
    assert describe_prompt(table, state, Verbosity.NORMAL) == "End Ana's turn now?"
    assert describe_prompt(table, state) == (
        "End Ana's turn now? Say yes or end turn; if the effect was not used, say draw."
    )
    assert may_do(table, state) == "End Ana's turn now?"


@pytest.mark.parametrize(
    "need, sentence",
    [
        (
            Need.OTHERS_UNICORN,
            "Unicorn Poison needs a Unicorn card it can destroy in another player's Stable, and there is none: a card "
            "that asks for the impossible may not be played.",
        ),
        (
            Need.UNICORN_IN_DISCARD,
            "Unicorn Poison needs a Unicorn card in the discard pile, and there is none: a card that asks for the "
            "impossible may not be played.",
        ),
    ],
)
def test_an_impossible_play_says_what_is_missing(need, sentence):
    played = game("uu-2nd")
    assert describe_objection(played.table, Impossible(0, "unicorn-poison", need)) == sentence


def test_every_need_is_said():
    played = game("uu-2nd")
    said = {describe_objection(played.table, Impossible(0, "kiss-of-life", need)) for need in Need}
    assert len(said) == len(Need)


def test_a_draw_for_an_extra_play_and_a_panda_destroyed_are_each_one_sentence():
    table = game("uu-2nd").table
    assert describe_objection(table, ExtraIsAPlay(0, "double-dutch")) == (
        "Ana already played; Double Dutch gives one more card to play, not a draw."
    )
    poison = NotAUnicornHere("basic-unicorn-red", 1, "pandamonium", "unicorn-poison", UnicornAction.DESTROY)
    assert describe_objection(table, poison) == (
        "Basic Unicorn (Red) is no Unicorn while Pandamonium is in Ben's Stable, so Unicorn Poison cannot destroy it."
    )
    ritual = NotAUnicornHere("basic-unicorn-red", 0, "pandamonium", "sadistic-ritual", UnicornAction.SACRIFICE)
    assert describe_objection(table, ritual) == (
        "Basic Unicorn (Red) is no Unicorn while Pandamonium is in Ana's Stable, so Sadistic Ritual cannot make its "
        "owner sacrifice it."
    )


def test_a_blanket_with_an_empty_hand_and_a_herd_bonus_ignored_are_each_one_sentence():
    played = game("llamas")
    table, state = played.table, played.state
    said = describe_fact(table, CardMustGo(0, "scratchy-wool-blanket", empty_hand=True), state)
    assert said == "Ana's hand is empty: sacrifice Scratchy Wool Blanket."
    said = describe_fact(table, HerdBonusIgnored(1, "un-herd-of", "llama"), state)
    assert said == "Un Herd Of: the Llama Herd Bonus does not affect Ben."


def test_a_save_offered_recorded_and_refused_is_each_one_sentence():
    played = game("uu-2nd")
    table, state = played.table, played.state
    knight = Save(1, "basic-unicorn-red", "black-knight-unicorn")
    assert save_offered(table, knight, destroyed=True) == (
        "Ben may save Basic Unicorn (Red) by sacrificing Black Knight Unicorn instead. Save it? Say yes, or no to let "
        "it be destroyed."
    )
    phoenix = Save(1, "unicorn-phoenix", "unicorn-phoenix")
    assert describe_event(table, phoenix, state) == "Ben saved Unicorn Phoenix by discarding 1 card instead"
    assert describe_objection(table, CannotSave(1, "basic-unicorn-red", "rainbow-aura")) == (
        "Rainbow Aura in Ben's Stable cannot save Basic Unicorn (Red) now, as its text says."
    )


def test_puppicorn_sacrificed_is_said_as_a_sacrifice():
    table = game("uu-1st").table
    assert short_objection(table, Indestructible("puppicorn", sacrificed=True)) == "Puppicorn can't be sacrificed."
    assert short_objection(table, Indestructible("puppicorn")) == "Puppicorn can't be destroyed."


def test_a_draw_phase_skipped_is_said_asked_and_warned():
    played = game("llamas")
    table, state = played.table, replace(played.state, skipped=((Phase.DRAW, "llamabot-3000"),))
    fact = PhaseSkipped(0, "llamabot-3000", Phase.DRAW)
    assert describe_fact(table, fact, state) == "Llamabot-3000: Ana skips the Draw phase."
    assert describe_prompt(table, state) == "Ana skips the Draw phase: say skip."
    assert may_do(table, state) == "Ana skips the Draw phase."
    assert describe_objection(table, PhaseIsSkipped(0, "llamabot-3000", Phase.DRAW)) == (
        "Llamabot-3000's effect skipped Ana's Draw phase, so there is no Draw phase draw."
    )


def test_an_action_phase_skipped_and_a_phase_to_give_up_are_said_asked_and_warned():
    """Special Delivery's Action phase skipped; Sticky Situation's phase to give up, asked at every level (coaching
    says how); a phase skipped on the table's word names no card; `skip action` said as the skip, once."""
    played = nsfw_game("uu-nsfw")
    table, state = played.table, played.state
    assert describe_fact(table, PhaseSkipped(0, "sticky-situation", Phase.ACTION), state) == (
        "Sticky Situation: Ana skips the Action phase."
    )
    assert describe_fact(table, PhaseSkipped(0, "", Phase.ACTION), state) == "Ana skips the Action phase."
    assert describe_objection(table, PhaseIsSkipped(0, "sticky-situation", Phase.ACTION)) == (
        "Sticky Situation's effect skipped Ana's Action phase, so there is no play or draw in the Action phase."
    )
    assert describe_objection(table, PhaseIsSkipped(0, "", Phase.DRAW)) == (
        "The table skipped Ana's Draw phase, so there is no Draw phase draw."
    )
    owed = replace(state, opened=("sticky-situation",))
    question = "Which phase does Ana give up this turn, the Draw or the Action phase?"
    assert describe_prompt(table, owed, Verbosity.BRIEF) == question
    assert describe_prompt(table, owed) == f"{question} Say skip draw or skip action."
    assert may_do(table, owed) == question
    assert describe_event(table, SkipPhase(Phase.ACTION), state) == "Ana skips this turn's Action phase"
