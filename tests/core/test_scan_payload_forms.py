"""Scanned payloads read as a player means them: a card's own words without its name, a type line or a bracketed
type around the name, a card of an installed deck that is not in play, a card learnt by its name alone."""

from argparse import Namespace

import pytest

from assistant.commands.app import make_session
from assistant.core.cards.card import normalize
from assistant.core.scanning.payloads import PayloadKind, label_payload, long_label_payload, resolve_payload
from assistant.storage.decks import load_all_decks, load_card_set
from tests.core.talking import asks


@pytest.fixture(scope="module")
def cards():
    return load_card_set()


@pytest.fixture(scope="module")
def installed():
    return tuple(load_all_decks()[0])


def session(deck: str = "uu-2nd"):
    return make_session(Namespace(deck=deck, addon=[]))


def test_a_cards_own_words_without_its_name_are_that_card(cards):
    aura = cards.find_exact("Rainbow Aura")
    meaning = resolve_payload(aura.text, cards)
    assert meaning.card is aura and meaning.kind is PayloadKind.TEXT and not meaning.new_card_text


def test_in_a_llamas_game_a_cards_words_are_read_as_that_card_never_offered_as_a_new_one():
    llamas = session("llamas")
    card = next(c for c in llamas.cards if len(c.text.split()) > 8 and c.name.startswith("Baby"))
    reply = llamas.card_desk.scanned(card.text)
    assert reply.card is not None and reply.card.id == card.id and not asks(reply)
    assert "does not have" not in reply.speech and "differ" not in reply.speech


@pytest.mark.parametrize(
    "form", ["Rainbow Aura. {text}", "Upgrade: Rainbow Aura. {text}", "Rainbow Aura: Upgrade. {text}"]
)
def test_the_decks_own_words_after_the_name_and_a_type_line_are_the_card_and_never_said_to_differ(cards, form):
    aura = cards.find_exact("Rainbow Aura")
    payload = form.format(text=aura.text)
    meaning = resolve_payload(payload, cards)
    assert meaning.card is aura and normalize(meaning.told) == normalize(aura.text)
    reply = session().card_desk.scanned(payload)
    assert reply.card is not None and reply.card.id == aura.id and "differ" not in reply.speech


def test_other_words_after_a_cards_name_are_still_said_to_differ(cards):
    reply = session().card_desk.scanned("Rainbow Aura. While this card is in your Stable, nothing at all happens.")
    assert "its words differ from the deck's" in reply.speech and "nothing at all happens" in reply.speech


def test_a_type_in_brackets_after_the_name_is_the_type_not_part_of_the_name(cards):
    meaning = resolve_payload("Fuzzy Hat (Upgrade): Your Unicorns feel warm and cosy all game.", cards)
    assert meaning.new_card is not None
    assert (meaning.new_card.name, meaning.new_card.type.value) == ("Fuzzy Hat", "upgrade")
    # a print's variation in brackets is part of a name, as the decks write it
    assert resolve_payload("Basic Unicorn (Red)", cards).card.name == "Basic Unicorn (Red)"


def test_an_offer_says_the_cards_words_without_the_type_they_open_with():
    reply = session("llamas").card_desk.scanned("Hay Fever: Magic card. Skip your next Draw phase and draw two cards.")
    assert asks(reply) and "Hay Fever, Magic card." in reply.speech
    assert "It says: Skip your next Draw phase" in reply.speech and "It says: Magic card" not in reply.speech


def test_a_label_of_an_installed_deck_not_in_play_names_its_card_and_deck(cards, installed):
    first = next(d for d in installed if d.id == "uu-1st")
    card = next(c for c in first.cards if cards.find_exact(c.name) is None)
    for payload in (label_payload(first.id, card.id), long_label_payload(first.id, card.id)):
        meaning = resolve_payload(payload, cards, installed=installed)
        assert meaning.card is None and meaning.elsewhere == (first.info.title, card.name)
        said = session().card_desk.scanned(payload).speech
        assert said == f"{card.name} is a card of {first.info.title}, which is not in play.", said
        assert first.id not in said and card.id not in said


def test_a_name_of_a_card_of_another_installed_deck_is_offered_with_the_deck_it_comes_from(cards, installed):
    first = next(d for d in installed if d.id == "uu-1st")
    card = next(
        c for c in first.cards if cards.find_exact(c.name) is None and len(c.name.split()) >= 2 and c.name.isascii()
    )
    reply = session().card_desk.scanned(card.name)
    assert reply.speech.startswith(f"{card.name} is a card of {first.info.title}, which is not in play.")


def test_a_card_learnt_by_its_name_alone_is_completed_by_a_code_with_its_words():
    llamas = session("llamas")
    llamas.card_desk.scanned("Wool Gathering")
    assert "is now in your deck" in llamas.handle("action").speech
    words = "Draw two cards, then discard one card from your hand."
    offer = llamas.card_desk.scanned(f"Wool Gathering: {words}")
    assert asks(offer) and "was learnt by its name alone" in offer.speech and "differ" not in offer.speech
    said = llamas.handle("yes")
    assert said.speech.startswith("Wool Gathering now has the scanned words.")
    assert llamas.cards.find_exact("Wool Gathering").text == words


def test_a_card_in_play_is_answered_without_reading_the_installed_decks(installed):
    """Reading every deck file takes a tenth of a second or more on the app's event loop: only a payload not in
    play waits for it."""
    reads = []

    def read_installed():
        reads.append(1)
        return installed

    scanning = session()
    scanning.installed = read_installed
    aura = scanning.cards.find_exact("Rainbow Aura")
    for payload in (label_payload("uu-2nd", aura.id), aura.name, f"Rainbow Aura. {aura.text}"):
        assert scanning.card_desk.scanned(payload).card.id == aura.id
    assert reads == []
    first = next(d for d in installed if d.id == "uu-1st")
    card = next(c for c in first.cards if scanning.cards.find_exact(c.name) is None)
    assert first.info.title in scanning.card_desk.scanned(label_payload(first.id, card.id)).speech
    assert reads
