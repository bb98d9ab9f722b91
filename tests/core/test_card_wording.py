"""Card texts are written in our own words, but the words the rules act on stay: a card tagged as sacrificing,
destroying or discarding says so in those words, and an optional effect at the beginning of a turn says "may"
where a mandatory one does not. A rewording that loses one of them changes what the player hears the card do."""

import dataclasses
import re

import pytest

from assistant.core.cards.card import Card, Tag
from assistant.storage.decks import load_deck
from assistant.storage.paths import card_texts_dir

SHIPPED = sorted(path.stem for path in card_texts_dir().glob("*.toml"))

#: Tags whose defined game term must be spoken in the card's text (any form: destroy, destroyed, sacrificing...).
TERMS = {Tag.SACRIFICE: r"\bsacrific", Tag.DESTROY: r"\bdestroy", Tag.DISCARD: r"\bdiscard"}

_BEGIN_TURN = "at the beginning of your turn"


def term_problems(card: Card) -> list[str]:
    """The tagged game terms the card's text never says."""
    return [tag.value for tag, pattern in TERMS.items() if card.has(tag) and not re.search(pattern, card.text, re.I)]


def turn_problems(card: Card) -> list[str]:
    """An optional beginning-of-turn effect that never says "may", or a mandatory one that opens with "may"."""
    after = card.text.split(_BEGIN_TURN, 1)[1] if _BEGIN_TURN in card.text else card.text
    if card.has(Tag.BEGIN_TURN_OPTIONAL) and not re.search(r"\bmay\b", card.text):
        return ["optional, but the text never says may"]
    if card.has(Tag.BEGIN_TURN_TRIGGER) and re.match(r"\W*(you|that player) may\b", after):
        return ["mandatory, but the text says may"]
    return []


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_a_tagged_game_term_is_said_in_the_text(deck_id):
    missing = [(card.id, term_problems(card)) for card in load_deck(deck_id).cards if term_problems(card)]
    assert missing == []


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_optional_and_mandatory_turn_effects_say_so(deck_id):
    wrong = [(card.id, turn_problems(card)) for card in load_deck(deck_id).cards if turn_problems(card)]
    assert wrong == []


def test_the_checks_catch_a_lost_term_a_lost_may_and_a_wrong_may():
    cards = {card.id: card for card in load_deck("uu-legends").cards}
    divine, hex_card = cards["divine-unicorn"], cards["hex"]
    assert term_problems(divine) == [] and turn_problems(divine) == [] and turn_problems(hex_card) == []
    lost = dataclasses.replace(divine, text=divine.text.replace("sacrifice", "give up").replace("you may", "you"))
    assert term_problems(lost) == ["sacrifice"]
    assert turn_problems(lost) == ["optional, but the text never says may"]
    made_optional = dataclasses.replace(hex_card, text=hex_card.text.replace("you must skip", "you may skip"))
    assert turn_problems(made_optional) == ["mandatory, but the text says may"]
