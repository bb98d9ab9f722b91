"""The sentences of the table rules: cards back into the deck, an Instant that answers an effect, the duty of a card
each time something happens, and the Neigh question of a deck whose Neigh card has a longer name."""

from __future__ import annotations

import pytest

from assistant.core.game.chain import PileCard, Trigger, TriggerKind
from assistant.core.game.events import Gathered, Play, Source, ToDeck
from assistant.core.game.facts import BackInDeck, SavedToHand, StartSkipped
from assistant.core.game.history import Game
from assistant.core.game.setup import Setup
from assistant.core.game.table import Prompt, PromptKind
from assistant.core.words.announce import phrase_prompt
from assistant.core.words.cardtext import card_gist
from assistant.core.words.gameplay import describe_fact, describe_trigger
from assistant.core.words.kinds import describe_event
from assistant.core.words.verbosity import Verbosity
from assistant.storage.decks import load_card_set


def game(deck: str, *addons: str) -> Game:
    return Game.new(Setup(("Ana", "Ben"), "uu-current"), load_card_set(deck, list(addons)))


@pytest.mark.parametrize(
    "fact, sentence",
    [
        (BackInDeck(5, 8), "5 cards went back into the deck, which now has 8."),
        (BackInDeck(None, None), "The deck's size is not known now: say deck and the number of cards in it."),
        (
            SavedToHand("basic-unicorn-red", 1, "unicorn-net"),
            "Unicorn Net: Basic Unicorn (Red) goes to Ben's hand, not the discard pile.",
        ),
        (
            StartSkipped(1, "flare-gun"),
            "Flare Gun: Ben skips the Beginning of Turn phase and the Draw phase, and the Action phase begins.",
        ),
    ],
)
def test_each_table_rule_fact_is_one_sentence(fact, sentence):
    g = game("uu-2nd", "uu-adventures")
    assert describe_fact(g.table, fact, g.state) == sentence


def test_the_new_events_and_the_duty_are_said():
    g = game("uu-2nd", "uu-dragons")
    said = describe_event(g.table, ToDeck(0, Gathered.HAND), g.state)
    assert said == "Ana's hand went back into the deck"
    said = describe_event(g.table, ToDeck(0, Gathered.CARD, "basic-unicorn-red", 1), g.state)
    assert said == "Basic Unicorn (Red) went from Ben's Stable back into the deck"
    assert describe_event(g.table, Play(0, "unicorn-poison", None, Source.DECK), g.state) == (
        "Ana played Unicorn Poison from the deck"
    )
    assert describe_trigger(g.table, Trigger("barbed-wire", 1, TriggerKind.DUTY)) == "Barbed Wire in Ben's Stable"


def test_a_neigh_card_with_a_longer_name_is_asked_for_as_a_neigh():
    """The NSFW deck's Neigh is "The Safeword Is Neigh": the question is "Any Neigh for ...", and the verb said is
    neigh."""
    g = Game.new(Setup(("Ana", "Ben"), "uu-nsfw"), load_card_set("uu-nsfw"))
    top = PileCard(0, "unicorn-dungeon", 0)
    said = phrase_prompt(g.table, Prompt(PromptKind.ANSWER, 0, top=top), Verbosity.COACHING)
    assert said == "Any Neigh for Ana's Unicorn Dungeon? Say neigh and a name, or resolve."


def test_a_gist_says_and_more_only_when_something_is_left_out():
    """Barbed Wire's one sentence is said whole, with no "and more"; so is Reset Button's, its reshuffle
    included; Unicorn Swap's steal is cut, so it is "more"."""
    cards = load_card_set("uu-2nd")
    wire, reset, swap = cards.get("barbed-wire"), cards.get("reset-button"), cards.get("unicorn-swap")
    assert wire is not None and reset is not None and swap is not None
    assert card_gist(wire) == wire.text.rstrip(".")
    assert card_gist(reset) == reset.text.rstrip(".") and card_gist(reset).endswith("shuffled into the deck")
    assert card_gist(swap).endswith(", and more") and "steal" not in card_gist(swap)
