"""Reading a card from a scanned full text, and its type from its words or the braille prefix (rulebook 004)."""

from __future__ import annotations

import pytest

from assistant.core.cards import CardType
from assistant.core.learning import NewCard, read_card_text, type_from_prefix


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
