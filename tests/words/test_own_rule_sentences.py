"""The sentences of the cards with a rule of their own and of the moves a real table makes
(tests/core/test_own_rules.py checks them as typed values): each fact, objection and event, phrased by the words on
a game of its deck, in both vocabularies (Stable and Unicorn, Field and Animal)."""

from __future__ import annotations

from functools import cache

import pytest

from assistant.core.game import events as ev
from assistant.core.game.facts import CardTravelled, Fact, InstantsBannedNow, TurnSkipped, WinBarred
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    CannotEnter,
    HeldIn,
    InstantsBanned,
    NameBanned,
    NeedsAllVariations,
    NeedsVariation,
    Objection,
    VariationKeptOut,
)
from assistant.core.game.setup import Setup
from assistant.core.words.gameplay import describe_fact
from assistant.core.words.kinds import describe_event
from assistant.core.words.rulings import describe_objection
from assistant.storage.decks import load_card_set

DECKS = {
    "uu-1st": ("uu-1st", "uu-first", ()),
    "uu-2nd": ("uu-2nd", "uu-current", ()),
    "llamas": ("llamas", "llamas", ("llamas-farmed",)),
}


@cache
def game(deck: str) -> Game:
    """A new game of Ana, Ben and Cy on the deck."""
    base, profile, addons = DECKS[deck]
    return Game.new(Setup(("Ana", "Ben", "Cy"), profile, base=base, addons=addons), load_card_set(base, list(addons)))


@pytest.mark.parametrize(
    "deck, fact, sentence",
    [
        (
            "llamas",
            WinBarred(0, 7, "hunger-strike"),
            "Ana has 7 Animals but cannot win while Hunger Strike is in Ana's Field.",
        ),
        ("llamas", WinBarred(1, 7, ""), "Ben has 7 Animals but cannot win: the table said so."),
        ("uu-2nd", WinBarred(1, 7, ""), "Ben has 7 Unicorns but cannot win: the table said so."),
        ("uu-1st", CardTravelled("puppicorn", 0, 1), "Ana's turn is over: Puppicorn passes into Ben's Stable."),
        ("llamas", TurnSkipped(1), "Ben misses this turn."),
        (
            "llamas",
            InstantsBannedNow("unstoppable-ram", 1),
            "Unstoppable Ram: no one may play an Instant card until this turn is over.",
        ),
        ("uu-2nd", InstantsBannedNow("", 0), "No one may play an Instant card until this turn is over."),
    ],
)
def test_each_fact_is_one_sentence(deck, fact: Fact, sentence):
    played = game(deck)
    assert describe_fact(played.table, fact, played.state) == sentence


@pytest.mark.parametrize(
    "deck, objection, sentence",
    [
        (
            "llamas",
            NeedsAllVariations("embrace-diversity", 0, ("alpaca", "ram")),
            "Embrace Diversity can only enter a Field that holds an Animal of each variation, and Ana's Field has no "
            "Alpaca or Ram.",
        ),
        (
            "llamas",
            NeedsVariation(0, "no-probllama", "llama"),
            "Ana can play No Probllama only while Ana's Field holds a Llama card.",
        ),
        (
            "llamas",
            InstantsBanned(0, "spit-happens", "unstoppable-ram"),
            "No one may play an Instant card until this turn is over: Unstoppable Ram says so.",
        ),
        (
            "uu-2nd",
            InstantsBanned(0, "neigh", ""),
            "No one may play an Instant card until this turn is over: the table said so.",
        ),
        (
            "llamas",
            NameBanned(0, "bahama-llama", "llamaphobia"),
            "Ana cannot play a card with Llama in its name while Llamaphobia is in Ana's Field.",
        ),
        (
            "llamas",
            VariationKeptOut("basic-goat", 0, "bridge-troll-on-duty", "goat"),
            "Basic Goat cannot enter Ana's Field: it holds Bridge Troll On Duty, which keeps Goat Animal cards out.",
        ),
        (
            "llamas",
            HeldIn("basic-alpaca", 0, "velcro-barrier", "alpaca"),
            "Basic Alpaca cannot leave Ana's Field for another player's: Velcro Barrier there holds Alpaca Animal "
            "cards in.",
        ),
        (
            "llamas",
            CannotEnter("baby-goat", 0, "no-kidding", 0),
            "Baby Goat cannot enter Ana's Field: Ana's Field holds No Kidding, and Baby Animals cannot go there.",
        ),
    ],
)
def test_each_objection_is_one_sentence(deck, objection: Objection, sentence):
    assert describe_objection(game(deck).table, objection) == sentence


@pytest.mark.parametrize(
    "deck, event, sentence",
    [
        ("llamas", ev.SetGoal(5, 0), "Ana now needs 5 Animals to win"),
        ("uu-2nd", ev.SetGoal(5, 0), "Ana now needs 5 Unicorns to win"),
        ("llamas", ev.SetGoal(6), "6 Animals now win"),
        ("uu-2nd", ev.CannotWin(1), "Ben cannot win for now"),
        ("llamas", ev.CannotWin(1, barred=False), "Ben can win again"),
        ("llamas", ev.SkipTurn(2), "Cy will miss their next turn"),
        ("uu-2nd", ev.SkipTurn(2), "Cy will miss their next turn"),
        ("llamas", ev.GiveCard(0, 1), "Ana gave a card from their hand to Ben"),
        ("uu-2nd", ev.GiveCard(1, 0, "yay"), "Ben gave Yay from their hand to Ana"),
        ("llamas", ev.BanInstants(), "No one may play an Instant card until this turn is over"),
    ],
)
def test_each_move_of_the_table_is_said(deck, event, sentence):
    played = game(deck)
    assert describe_event(played.table, event, played.state) == sentence
