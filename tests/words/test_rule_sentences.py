"""The sentences of the rulings and the facts that the rule tests (tests/core/test_card_rules.py,
tests/core/test_game_scenarios.py) check as typed values: each objection and fact, phrased by the words on a game of
its deck, is the sentence the player hears. A reworded sentence fails here, never in a rule test."""

from __future__ import annotations

from functools import cache

import pytest

from assistant.core.game.events import Reshuffle
from assistant.core.game.facts import BeginningSkipped, CardMustGo, Fact, LimitReached, Reshuffled, WinBarred
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    ActionUsed,
    BabyNotInHand,
    CannotBeAnswered,
    CannotBeNeighed,
    CannotDestroy,
    CannotEnter,
    CannotNeigh,
    CannotPlay,
    CannotSteal,
    ChainOpen,
    DestroyOwn,
    Guarded,
    HandOverLimit,
    Indestructible,
    MagicCannotAffect,
    MagicCannotDestroy,
    NeedsBasic,
    NoReshuffle,
    NothingToAnswer,
    NotInNursery,
    NotYourTurn,
    Objection,
    OthersCannotPlay,
    OwnCard,
    Protected,
    RemovedCard,
    TriggerCannotDestroy,
    VariationKeptOut,
)
from assistant.core.game.setup import Setup
from assistant.core.words.gameplay import describe_event, describe_fact
from assistant.core.words.rulings import CONFIRM_QUESTION, confirm_question, describe_objection
from assistant.storage.decks import load_card_set

#: Each deck's base, rule profile and add-ons: the 2nd Edition with the expansions whose cards the rules name.
DECKS = {
    "uu-2nd": ("uu-2nd", "uu-current", ("uu-legends", "uu-adventures", "uu-rainbow-apocalypse", "uu-dragons")),
    "uu-1st": ("uu-1st", "uu-first", ()),
    "uu-nsfw": ("uu-nsfw", "uu-nsfw", ()),
    "llamas": ("llamas", "llamas", ()),
}


@cache
def game(deck: str) -> Game:
    """A new game of Ana, Ben and Cy on the deck."""
    base, profile, addons = DECKS[deck]
    return Game.new(Setup(("Ana", "Ben", "Cy"), profile, base=base, addons=addons), load_card_set(base, list(addons)))


@pytest.mark.parametrize(
    "deck, objection, sentence",
    [
        # Slowdown, Ginormous Unicorn: "you cannot play Neigh cards"; the 1st Edition: "Instant cards".
        (
            "uu-2nd",
            CannotNeigh(0, "neigh", "slowdown"),
            "Ana cannot play Neigh cards while Slowdown is in Ana's Stable.",
        ),
        (
            "uu-2nd",
            CannotNeigh(2, "neigh", "ginormous-unicorn"),
            "Cy cannot play Neigh cards while Ginormous Unicorn is in Cy's Stable.",
        ),
        (
            "uu-1st",
            CannotPlay(0, "neigh", "slowdown"),
            "Ana cannot play Instant cards while Slowdown is in Ana's Stable.",
        ),
        # Broken Stable, Limp Horn, Giant Horned Cock, Total Stud Unicorn, Tranquilizer: a kind of card forbidden.
        (
            "uu-2nd",
            CannotPlay(0, "rainbow-aura", "broken-stable"),
            "Ana cannot play Upgrade cards while Broken Stable is in Ana's Stable.",
        ),
        (
            "uu-nsfw",
            CannotPlay(0, "unicorn-chastity-belt", "limp-horn"),
            "Ana cannot play Upgrade cards while Limp Horn is in Ana's Stable.",
        ),
        (
            "uu-nsfw",
            CannotPlay(0, "unicorn-hangover", "giant-horned-cock"),
            "Ana cannot play Magic cards while Giant Horned Cock is in Ana's Stable.",
        ),
        (
            "uu-nsfw",
            CannotPlay(0, "vanillacorn", "total-stud-unicorn"),
            "Ana cannot play Basic Unicorns while Total Stud Unicorn is in Ana's Stable.",
        ),
        (
            "llamas",
            CannotPlay(0, "spit-happens", "tranquilizer"),
            "Ana cannot play Instant cards while Tranquilizer is in Ana's Field.",
        ),
        # Queen Bee Unicorn, both prints; Eunuchorn.
        (
            "uu-2nd",
            CannotEnter("basic-unicorn-red", 1, "queen-bee-unicorn", 0),
            "Basic Unicorn (Red) cannot enter Ben's Stable: Ana's Stable holds Queen Bee Unicorn, and Basic Unicorns "
            "cannot go there.",
        ),
        (
            "uu-1st",
            OthersCannotPlay(1, "basic-unicorn-blue", "queen-bee-unicorn", 0),
            "Ben cannot play Basic Unicorns while Queen Bee Unicorn is in Ana's Stable.",
        ),
        (
            "uu-nsfw",
            CannotEnter("tasty-baby-unicorn", 1, "eunuchorn", 0),
            "Tasty Baby Unicorn cannot enter Ben's Stable: Ana's Stable holds Eunuchorn, and Baby Unicorns cannot go "
            "there.",
        ),
        # Paladin Unicorn, Divine Peace, Puppicorn, Rainbow Aura.
        (
            "uu-2nd",
            CannotSteal(0, "paladin-unicorn"),
            "Ana cannot steal cards while Paladin Unicorn is in Ana's Stable.",
        ),
        (
            "uu-2nd",
            CannotDestroy(0, "divine-peace"),
            "Ana's cards cannot destroy any card while Divine Peace is in Ana's Stable.",
        ),
        ("uu-1st", Indestructible("puppicorn"), "Puppicorn cannot be destroyed or sacrificed: its own text says so."),
        (
            "uu-2nd",
            Protected("basic-unicorn-blue", "rainbow-aura", 0),
            "Ana's Stable holds Rainbow Aura, which protects cards there.",
        ),
        (
            "uu-2nd",
            Protected("basic-unicorn-red", "rainbow-aura", 1),
            "Ben's Stable holds Rainbow Aura, which protects cards there.",
        ),
        # Magical Kittencorn (both prints), The Tiniest Unicorn, Dragon Protection, Dragon Slayer Unicorn.
        (
            "uu-2nd",
            MagicCannotDestroy("magical-kittencorn", "unicorn-poison"),
            "Magical Kittencorn cannot be destroyed by a Magic card, and Unicorn Poison is one.",
        ),
        (
            "uu-1st",
            MagicCannotAffect("magical-kittencorn", "unicorn-swap"),
            "Magic cards cannot affect Magical Kittencorn, and Unicorn Swap is one.",
        ),
        (
            "uu-2nd",
            TriggerCannotDestroy("the-tiniest-unicorn", "shark-with-a-horn"),
            "The Tiniest Unicorn cannot be destroyed by a triggered effect, and the effect of Shark With a Horn is "
            "one.",
        ),
        (
            "uu-2nd",
            Guarded("basic-unicorn-red", 1, "dragon-protection", "shark-with-a-horn"),
            "Dragon Protection in Ben's Stable keeps the effect of Shark With a Horn away from Basic Unicorn (Red).",
        ),
        (
            "uu-2nd",
            Guarded("dragon-slayer-unicorn", 1, "dragon-slayer-unicorn", "dragon-s-breath"),
            "Dragon Slayer Unicorn in Ben's Stable keeps the effect of Dragon's Breath away from Dragon Slayer "
            "Unicorn.",
        ),
        # The Bitchiest Unicorn and the cards that need a Basic Unicorn; Velcro Barrier.
        (
            "uu-nsfw",
            NeedsBasic("the-bitchiest-unicorn", 0),
            "The Bitchiest Unicorn can only enter a Stable that holds a Basic Unicorn, and Ana's Stable holds none.",
        ),
        (
            "llamas",
            VariationKeptOut("magical-llamacorn", 0, "velcro-barrier", "llama"),
            "Magical Llamacorn cannot enter Ana's Field: it holds Velcro Barrier, which keeps Llama Animal cards out.",
        ),
        (
            "llamas",
            VariationKeptOut("adorable-alpaca", 0, "velcro-barrier", "alpaca"),
            "Adorable Alpaca cannot enter Ana's Field: it holds Velcro Barrier, which keeps Alpaca Animal cards out.",
        ),
        # Neigh Means Neigh, Super Neigh, Yay; an Instant on one's own card, or on nothing.
        ("uu-nsfw", CannotBeAnswered(1, "neigh-means-neigh"), "Neigh Means Neigh cannot be answered."),
        ("uu-2nd", CannotBeAnswered(1, "super-neigh"), "Super Neigh cannot be answered."),
        (
            "uu-1st",
            CannotBeNeighed(0, "basic-unicorn-red", "yay"),
            "Ana's cards cannot be Neighed while Yay is in Ana's Stable.",
        ),
        (
            "uu-2nd",
            OwnCard(0, "rainbow-aura"),
            "The top card, Rainbow Aura, is Ana's own: Instants answer another player.",
        ),
        (
            "uu-2nd",
            NothingToAnswer(1, "neigh"),
            "No card is being played, so there is nothing to answer. A card brought directly into a Stable cannot be "
            "Neighed.",
        ),
        # The turn, the hand limit, Babies, destroying, the deck.
        ("uu-2nd", ChainOpen(), "Effects in the chain must resolve first: say resolve when each is done."),
        ("uu-2nd", ActionUsed(0, 1), "Ana has already played a card or drawn in this Action phase."),
        ("uu-2nd", NotYourTurn(1, 0), "It is Ana's turn, not Ben's."),
        ("uu-2nd", HandOverLimit(0, 9, 7), "Ana holds 9 cards, over the hand limit of 7: discard 2 first."),
        ("uu-2nd", NotInNursery("baby-unicorn-red"), "Baby Unicorn (Red) is not in the Nursery."),
        (
            "uu-2nd",
            BabyNotInHand(0, "baby-unicorn-red"),
            "Baby Unicorn (Red) is a Baby: Babies only enter a Stable from the Nursery and are never in a hand, the "
            "deck or the discard pile.",
        ),
        (
            "uu-2nd",
            DestroyOwn(0, "basic-unicorn-red"),
            "Destroying is for another player's Stable; from your own it is a sacrifice.",
        ),
        ("uu-2nd", NoReshuffle(), "These rules do not shuffle the discard pile into a new deck."),
        (
            "uu-2nd",
            RemovedCard("ginormous-unicorn"),
            "Ginormous Unicorn was taken out of the deck for the 2-player game.",
        ),
    ],
)
def test_each_objection_a_rule_test_checks_is_said_in_one_sentence(deck, objection: Objection, sentence):
    assert describe_objection(game(deck).table, objection) == sentence


def test_the_warning_asks_with_every_reason_in_order():
    question = confirm_question(game("uu-2nd").table, (NotYourTurn(1, 0), ChainOpen()))
    assert question == (
        "That looks against the rules. It is Ana's turn, not Ben's. Effects in the chain must resolve first: say "
        f"resolve when each is done. {CONFIRM_QUESTION}"
    )


@pytest.mark.parametrize(
    "deck, fact, sentence",
    [
        # The Black Spot, Broken Sundial, Tiny Stable, Unicorn Flatulence, Hex, Extremely Small Backpack.
        (
            "uu-2nd",
            WinBarred(0, 3, "the-black-spot"),
            "Ana has 3 Unicorns but cannot win while The Black Spot is in Ana's Stable with a Basic Unicorn there.",
        ),
        (
            "uu-2nd",
            BeginningSkipped(0, "broken-sundial"),
            "Ana skips the Beginning of Turn phase while Broken Sundial is in Ana's Stable.",
        ),
        (
            "uu-2nd",
            LimitReached(0, "tiny-stable", 6, 5),
            "Ana has 6 Unicorns with Tiny Stable, more than 5: sacrifice a Unicorn card.",
        ),
        (
            "uu-2nd",
            LimitReached(1, "tiny-stable", 6, 5),
            "Ben has 6 Unicorns with Tiny Stable, more than 5: sacrifice a Unicorn card.",
        ),
        (
            "uu-nsfw",
            CardMustGo(0, "unicorn-flatulence", empty_hand=False),
            "Ana has no Unicorn card in Ana's Stable: sacrifice Unicorn Flatulence.",
        ),
        (
            "uu-2nd",
            CardMustGo(0, "hex", empty_hand=True),
            "Ana's hand is empty: Hex must move into another player's Stable.",
        ),
        (
            "uu-2nd",
            CardMustGo(0, "extremely-small-backpack", empty_hand=True),
            "Ana's hand is empty: Extremely Small Backpack must move into another player's Stable.",
        ),
        ("uu-1st", Reshuffled(12), "Shuffle the discard pile to make a new deck: 12 cards."),
    ],
)
def test_each_fact_a_rule_test_checks_is_said_in_one_sentence(deck, fact: Fact, sentence):
    played = game(deck)
    assert describe_fact(played.table, fact, played.state) == sentence


def test_a_reshuffle_is_said_as_the_discard_pile_made_a_new_deck():
    """Llamacorn and Rainbow Shitstorm make the reshuffle their own; the event says what the table did."""
    played = game("uu-1st")
    assert describe_event(played.table, Reshuffle(), played.state) == "The discard pile was shuffled into a new deck"
