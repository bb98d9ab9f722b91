"""Card texts that keep what the rules act on: "then" where the first action can fail (rulebooks 002 and 000 teach
it with Sadistic Ritual: with no Unicorn card to sacrifice, you may not draw), whom a card lets choose, what it
protects from, how sure a text is, and that an Instant is of no variation. Every text a licensed public card list
gives the print of is checked against that print's joins in `test_print_joins.py`; these are the cases said
outright."""

from __future__ import annotations

import re

import pytest

from assistant.core.cards.card import CardType, Confidence
from assistant.storage.decks import deck_files, load_deck


def card(deck_id: str, card_id: str):
    return next(c for c in load_deck(deck_id).cards if c.id == card_id)


@pytest.mark.parametrize("deck_id", ["uu-1st", "uu-2nd"])
def test_sadistic_ritual_draws_only_after_a_sacrifice(deck_id):
    text = card(deck_id, "sadistic-ritual").text
    assert re.search(r"sacrifice [^.]*, then draw a card", text), text
    assert "you do not draw" in text


def test_no_butts_about_it_draws_only_after_a_destroy():
    text = card("llamas", "no-butts-about-it").text
    assert "only then draw" in text and "no draw" in text


def test_unicorn_rainbow_princess_lets_any_player_be_chosen():
    text = card("uu-rainbow-apocalypse", "unicorn-rainbow-princess").text
    assert "other players" not in text and "any number of players" in text


def test_the_kids_are_alright_protects_from_everything_not_only_card_effects():
    text = card("llamas-farmed", "the-kids-are-alright").text
    assert "card effect" not in text and "cannot be sacrificed, destroyed or stolen" in text


def test_a_card_whose_only_source_is_garbled_is_not_confirmed():
    """Unexpected Miracle Unicorn (NSFW base): the only full source's wording is garbled (the deck's notes say so)."""
    assert card("uu-nsfw", "unexpected-miracle-unicorn").confidence is not Confidence.CONFIRMED


@pytest.mark.parametrize("deck_id", sorted(deck_files()))
def test_no_instant_is_of_a_variation(deck_id):
    """An Instant is no Animal: a Llamas counter's text says which variation it takes, and it carries none."""
    assert [c.id for c in load_deck(deck_id).cards if c.type is CardType.INSTANT and c.variation] == []


#: The Rainbow Apocalypse Magic cards that sacrifice, destroy and then search the deck for a named card.
APOCALYPSE = (
    "fire-and-brimstone", "heavenly-smite", "llamapocalypse", "overpopulation", "storm-of-cuteness",
    "ultimate-destruction", "zombie-apocalypse",
)  # fmt: skip


@pytest.mark.parametrize("card_id", APOCALYPSE)
def test_the_apocalypse_search_does_not_depend_on_the_destroy(card_id):
    """The print searches the deck whatever the destroy did: a "then" there would make the search depend on it
    (002: "you may only perform the second action if you successfully perform the first"). The "then" between the
    sacrifice and the destroy stays."""
    text = card("uu-rainbow-apocalypse", card_id).text
    first, search = re.split(r"(?<=\.) ", text, maxsplit=1)
    assert ", then destroy" in first
    assert search.startswith("Whether or not that destroyed anything, go through the deck"), search


def test_alignment_change_steals_only_after_the_discards_and_must():
    """Alignment Change (Legends): discard 2 cards, then steal: the steal depends on the discards and is no
    choice ("may" would make it one)."""
    text = card("uu-legends", "alignment-change").text
    assert re.search(r"Discard 2 cards, and then steal one Unicorn card", text) and "may" not in text
