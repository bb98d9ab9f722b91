"""Every card of a kind the tracker follows, in every shipped deck, found by its wording: it carries the tag the rule
acts on, or it is named here as left to the table with the reason.

The kinds: an extra play or another turn (Double Dutch, Change of Luck), a card that plays another card at once
(Dragon Kiss), a hand or a card put back into the deck (Shake Up), and a duty each time something happens (Barbed
Wire: "whenever", "each time", "every time").
"""

from __future__ import annotations

import re

import pytest

from assistant.core.cards.card import Card, CardType, Tag
from assistant.storage.decks import deck_files, load_deck

SHIPPED = sorted(deck_files())

EXTRA = re.compile(r"\bplay (2|two) cards\b|\ba second card\b|\bone extra card\b|\banother turn\b|\bextra turn\b", re.I)
PLAYS = re.compile(r"\bplay (it|that card|them) (at once|right away|immediately)\b|\bplayed again\b", re.I)
TO_DECK = re.compile(r"\b(back )?in(to)? the deck\b", re.I)
WHENEVER = re.compile(r"\b(whenever|each time|every time)\b", re.I)
#: The tags of the duties a card in a Stable lays on its owner each time something happens, each saying when
#: (`assistant/core/game/duties.py` adds each to the chain when it happens).
DUTY_TAGS = (
    Tag.EACH_UNICORN_MOVES,
    Tag.EACH_CARD_ENTERS,
    Tag.EACH_UNICORN_LOST,
    Tag.EACH_DRAW,
    Tag.EACH_UNICORN_DESTROYED,
    Tag.EACH_CARD_DESTROYED,
    Tag.EACH_DESTROY,
    Tag.EACH_LLAMA_PLAYED,
    Tag.EACH_MAGIC_PLAYED,
    Tag.EACH_AIMED_AT,
)

#: Cards whose wording looks like a kind the tracker follows, and why the table follows them instead.
LEFT_TO_THE_TABLE = {
    "llamacorn": "its reshuffle is the discard pile only (`reshuffles`); no hand or Stable goes into the deck",
    "mystical-vortex": "its reshuffle is the discard pile only (`reshuffles`)",
    "reset-button": "its reshuffle is the discard pile only (`reshuffles`)",
    "rainbow-shitstorm": "the hands are discarded first (`discard`), then the discard pile is reshuffled",
    "baby-llama": "a Baby's way back to the Nursery is the Nursery rule, not a duty",
    "baby-alpaca": "a Baby's way back to the Nursery is the Nursery rule, not a duty",
    "baby-goat": "a Baby's way back to the Nursery is the Nursery rule, not a duty",
    "baby-ram": "a Baby's way back to the Nursery is the Nursery rule, not a duty",
    "black-knight-unicorn": "a save before a card is destroyed, not a duty: offered, recorded with `save`",
    "hentaicorn": "a save before a card is destroyed, not a duty: offered, recorded with `save`",
    "unicorn-survival-kit": "a save before a card goes, not a duty: offered, recorded with `save`",
    "unicorn-phoenix": "its return on leaving is its leave effect (`leave_trigger`), a link of the chain already",
    "unicorn-phoenix-ra": "its 1st Edition print's return on leaving is its leave effect (`leave_trigger`)",
    "fishing-rod": "an Instant answering a steal: its catch is recorded as its player's own `steal`",
    "puppicorn": "its walk from Stable to Stable each turn (second print: whenever a turn begins) is recorded as "
    "`move`",
}


def cards_of(deck_id: str) -> list[Card]:
    return list(load_deck(deck_id).cards)


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_every_extra_play_or_turn_card_carries_its_tag_and_a_play_counts_from_the_turn_s_beginning(deck_id):
    """Double Dutch: "if this card is in your Stable at the beginning of your turn, you may play 2 cards"; Change of
    Luck: "take another turn". An extra play always comes from the beginning of a turn (a beginning-of-turn tag),
    and another turn is never tagged as another play."""
    wrong = []
    for card in cards_of(deck_id):
        if not EXTRA.search(card.text) or card.id in LEFT_TO_THE_TABLE:
            continue
        turn = bool(re.search(r"another turn|extra turn", card.text, re.I))
        if turn and not (card.has(Tag.EXTRA_TURN) and not card.has(Tag.EXTRA_ACTION)):
            wrong.append((card.id, "another turn"))
        if not turn and not card.has(Tag.EXTRA_ACTION):
            wrong.append((card.id, "another play"))
        if card.has(Tag.EXTRA_ACTION) and not card.tags & {Tag.BEGIN_TURN_OPTIONAL, Tag.BEGIN_TURN_TRIGGER}:
            wrong.append((card.id, "an extra play not from the beginning of a turn"))
    assert wrong == []


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_every_card_that_plays_a_card_at_once_carries_plays_card(deck_id):
    """Dragon Kiss: "look through the deck for a Magic card and play it at once"."""
    missing = [c.id for c in cards_of(deck_id) if PLAYS.search(c.text) and not c.has(Tag.PLAYS_CARD)]
    assert missing == []


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_every_card_that_puts_cards_back_into_the_deck_is_tracked_or_named(deck_id):
    """Shake Up: "this card, every card in your hand and the whole discard pile" go back into the deck. A card only
    searched for in the deck ("look through the deck ... shuffle the deck") puts nothing back."""
    missing = []
    for card in cards_of(deck_id):
        if not TO_DECK.search(card.text) or card.id in LEFT_TO_THE_TABLE:
            continue
        searched_only = card.has(Tag.SEARCH_DECK) and not re.search(
            r"\b(put|shuffled?) (it|this card|a card)\b.{0,40}"
            r"\bdeck\b|\bback in",
            card.text,
            re.I,
        )
        if not searched_only and not card.has(Tag.TO_DECK):
            missing.append(card.id)
    assert missing == []


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_every_whenever_duty_carries_a_duty_tag_or_is_named(deck_id):
    """Barbed Wire: a Unicorn card coming into or going out of its Stable costs its owner a discard. Every card
    whose text says "whenever", "each time" or "every time" carries the tag of its moment (`DUTY_TAGS`) or is left
    to the table with a reason."""
    missing = []
    for card in cards_of(deck_id):
        prints = [(card.text, card.tags)] + [(v.text, v.tags or card.tags) for v in card.print_variants]
        for text, tags in prints:
            if WHENEVER.search(text) and not set(DUTY_TAGS) & tags and card.id not in LEFT_TO_THE_TABLE:
                missing.append(card.id)
    assert missing == []


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_every_instant_that_answers_an_effect_is_followed_or_named(deck_id):
    """An Instant that stops no card answers an effect, a play or the start of a turn (Unicorn Net, Flare Gun,
    Surprise Emu Attack): it carries the tag of what it does, or is left to the table with a reason."""
    answers = {Tag.ANSWERS_ANIMAL, Tag.SAVES_CARD, Tag.SKIPS_START}
    missing = [
        c.id
        for c in cards_of(deck_id)
        if c.type is CardType.INSTANT
        and not c.has(Tag.NEIGH)
        and not c.tags & answers
        and c.id not in LEFT_TO_THE_TABLE
    ]
    assert missing == []


def test_the_data_tests_find_what_they_look_for():
    """Each wording finds the card the issue names, so a test above cannot pass on an empty search."""
    by_id = {c.id: c for deck_id in SHIPPED for c in cards_of(deck_id)}
    assert EXTRA.search(by_id["unicorn-dungeon"].text) and EXTRA.search(by_id["change-of-luck"].text)
    assert PLAYS.search(by_id["dragon-kiss"].text) and TO_DECK.search(by_id["shake-up"].text)
    assert WHENEVER.search(by_id["barbed-wire"].text)
    assert by_id["change-of-luck"].has(Tag.EXTRA_TURN) and not by_id["change-of-luck"].has(Tag.EXTRA_ACTION)
    assert set(LEFT_TO_THE_TABLE) <= set(by_id), "every card named is a shipped card"
