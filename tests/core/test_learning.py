"""Reading a card from a scanned full text, and its type from its words or the braille prefix (rulebook 004)."""

from __future__ import annotations

from argparse import Namespace

import pytest

from assistant.commands.app import make_session
from assistant.core.cards import CardType
from assistant.core.learning import NewCard, read_card_text, type_from_prefix
from assistant.session import Session


def test_a_name_and_text_on_one_line():
    card = read_card_text("Dalai Llama: Magical Animal. When this enters your Field, one opponent draws a card.")
    assert card == NewCard("Dalai Llama", "Magical Animal. When this enters your Field, one opponent draws a card.",
                           CardType.MAGICAL)  # fmt: skip


def test_a_name_on_its_own_line():
    card = read_card_text("Shearing Time\nMagic card. Each player discards a card.")
    assert card is not None and card.name == "Shearing Time" and card.type is CardType.MAGIC


def test_the_type_is_unknown_when_the_words_do_not_say_it():
    card = read_card_text("Llama Drama: everyone passes a card to the left.")
    assert card is not None and card.type is None


@pytest.mark.parametrize("text", ["", "just words with no name", "x" * 200 + ": text", "Name:   "])
def test_no_card_without_a_name_and_a_text(text):
    assert read_card_text(text) is None


@pytest.mark.parametrize(
    "typed, card_type",
    [("b", CardType.BABY), ("I", CardType.INSTANT), ("m", CardType.MAGICAL), ("action", CardType.MAGIC),
     ("ug", CardType.UPGRADE), ("dg drama", CardType.DOWNGRADE), ("basic", CardType.BASIC),
     ("magic", CardType.MAGIC), ("zz", None), ("", None)],
)  # fmt: skip
def test_the_braille_prefix_gives_the_type(typed, card_type):
    assert type_from_prefix(typed) is card_type


def llamas_session() -> Session:
    """The app's own session on the incomplete Llamas deck, learning into the test's own data folder."""
    return make_session(Namespace(deck="llamas", addon=[]))


def test_a_scanned_card_text_not_in_the_deck_is_offered_and_confirmed_becomes_a_card():
    """Rulebook 004: the braille deck's QR codes give each card's full text. Scanning a card the shipped list
    lacks offers to add it; yes imports it (the same rules as deck import), and the next look-up finds it."""
    session = llamas_session()
    before = len(session.cards.base.cards)
    offer = session.scanned("Llama Llama Duck: Magic card. Every player gives one card from their hand to the left.")
    assert offer.confirm and "A card this deck does not have: Llama Llama Duck, Magic card." in offer.speech
    said = session.handle("yes")
    assert "Llama Llama Duck is now in your deck, as a Magic card." in said.speech
    card = session.handle("llama llama duck").card
    assert card is not None and card.type is CardType.MAGIC and "gives one card" in card.text
    fresh = llamas_session()  # saved: a new start has it too
    assert fresh.cards.find_exact("Llama Llama Duck") is not None
    assert len(fresh.cards.base.cards) == before, "the shipped deck file is not changed"


def test_a_card_whose_words_do_not_give_its_type_takes_the_braille_prefix_typed():
    session = llamas_session()
    offer = session.scanned("Wool Gathering: draw two cards, then discard one.")
    assert offer.confirm and "type its braille prefix" in offer.speech
    said = session.handle("ug")
    assert "Wool Gathering is now in your deck, as an Upgrade card." in said.speech
    assert session.cards.find_exact("Wool Gathering").type is CardType.UPGRADE


def test_no_adds_nothing():
    session = llamas_session()
    session.scanned("Hay Fever: Magic card. Skip your next Draw phase.")
    assert session.handle("no").speech == "Not recorded."
    assert session.cards.find_exact("Hay Fever") is None
