"""Card texts are written in our own words, but the words the rules act on stay: a card tagged as sacrificing,
destroying or discarding says so in those words, and an optional effect at the beginning of a turn says "may"
where a mandatory one does not. A rewording that loses one of them changes what the player hears the card do."""

import dataclasses
import re

import pytest

from assistant.core.cards.card import Card, CardType, Tag
from assistant.core.cards.wording import (
    read_type_line,
    taken_variation,
    variation_from_name,
    wording_tags,
)
from assistant.storage.decks import load_deck
from assistant.storage.paths import card_texts_dir
from tests.core.test_card_rules import CHECKED_TAGS

SHIPPED = sorted(path.stem for path in card_texts_dir().glob("*.toml"))
#: The tags `wording_tags` gives exactly as the shipped decks carry them (checked on every shipped card below).
EXACT_TAGS = CHECKED_TAGS | {
    Tag.NEIGH,
    Tag.SUPER_NEIGH,
    Tag.ENTER_TRIGGER,
    Tag.LEAVE_TRIGGER,
    Tag.HAND_LIMIT_CHANGE,
    Tag.BEGIN_TURN_TRIGGER,
    Tag.BEGIN_TURN_OPTIONAL,
    Tag.TAKES_STOPPED,
    Tag.BOTH_DRAW,
    Tag.DRAWS_IF_INSTANT,
    Tag.ANSWERS_ANIMAL,
    Tag.MUST_DESTROY,
    Tag.MUST_STEAL,
}

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


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_the_wording_rules_give_every_shipped_card_its_tags(deck_id):
    """The rules an imported card's tags come from (`wording_tags`) give every shipped card exactly the tags the
    tracker acts on that they cover; a Llamas Animal's name never says a wrong variation (where it says none, as
    in "Owlpaca" or "Ignoramus", an import takes the variation from the card's type line)."""
    wrong = []
    for card in load_deck(deck_id).cards:
        derived = wording_tags(card.text, card.type) & EXACT_TAGS
        if derived != card.tags & EXACT_TAGS:
            wrong.append((card.id, sorted(derived ^ (card.tags & EXACT_TAGS))))
        named = variation_from_name(card.name)
        if card.type.is_creature and card.variation and named is not None and named not in card.variation.split("+"):
            wrong.append((card.id, card.variation))
    assert wrong == []


def test_the_wording_rules_read_a_printed_counter_a_type_line_and_a_name():
    counter = "Play this card when any other player tries to play a card. Stop that card from being played."
    assert wording_tags(counter, CardType.INSTANT) >= {Tag.NEIGH}
    assert Tag.SUPER_NEIGH not in wording_tags(counter, CardType.INSTANT)
    assert wording_tags(counter + " This card cannot be stopped.", CardType.INSTANT) >= {
        Tag.NEIGH, Tag.SUPER_NEIGH, Tag.CANNOT_BE_NEIGHED
    }  # fmt: skip
    assert Tag.NEIGH not in wording_tags(counter, CardType.MAGIC)  # only an Instant answers a card
    assert Tag.DESTROY not in wording_tags("Your Alpacas cannot be destroyed.", CardType.UPGRADE)
    assert wording_tags("A baby.", CardType.BABY) == {Tag.NURSERY}
    assert read_type_line("Magical Goat card") == (CardType.MAGICAL, "goat", True)
    assert read_type_line("Baby Llamas") == (CardType.BABY, "llama", True)
    assert read_type_line("Llama / Alpaca Basic Animal") == (CardType.BASIC, "llama+alpaca", True)
    assert read_type_line("Wizard card")[2] is False
    assert [variation_from_name(n) for n in ("Drama Llama", "Gin-Rammy", "Goaticorn", "Henry the Huarizo")] == [
        "llama", "ram", "goat", None
    ]  # fmt: skip


def test_the_wording_rules_read_what_a_llamas_counter_does_and_a_card_that_leaves():
    taker = (
        "Play this card when another player tries to play a card. That card is stopped, has no effect and goes to "
        "the discard pile. If it is a Goat card, it goes into your hand instead."
    )
    assert wording_tags(taker, CardType.INSTANT) >= {Tag.NEIGH, Tag.TAKES_STOPPED}
    assert taken_variation(taker) == "goat" and taken_variation("Stop that card.") is None
    emu = "Play this card right after another player has played an Animal card: destroy one Animal card."
    assert Tag.ANSWERS_ANIMAL in wording_tags(emu, CardType.INSTANT)
    assert Tag.ANSWERS_ANIMAL not in wording_tags(emu, CardType.MAGIC), "only an Instant answers as it is played"
    kept = "If this card would be sacrificed or destroyed, you may discard a card instead."
    assert Tag.LEAVE_TRIGGER not in wording_tags(kept, CardType.MAGICAL), "a save is no effect of leaving"
    assert Tag.LEAVE_TRIGGER in wording_tags("If this card is destroyed, draw a card.", CardType.MAGICAL)
