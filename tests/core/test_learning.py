"""Reading a card from a scanned full text, and its type from its words or the braille prefix (rulebook 004)."""

from __future__ import annotations

from argparse import Namespace

import pytest

from assistant.commands.app import make_session
from assistant.core.cards.card import CardType
from assistant.core.cards.learning import NewCard, read_card_text, type_from_prefix
from assistant.session import Session
from tests.core.talking import asks


def test_a_name_and_text_on_one_line():
    card = read_card_text("Dalai Llama: Magical Animal. When this enters your Field, one opponent draws a card.")
    # the type line the words open with gives the type and is not kept in the card's words
    assert card == NewCard("Dalai Llama", "When this enters your Field, one opponent draws a card.", CardType.MAGICAL)


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
    offer = session.card_desk.scanned(
        "Llama Llama Duck: Magic card. Every player gives one card from their hand to the left."
    )
    assert asks(offer) and "A card this deck does not have: Llama Llama Duck, Magic card." in offer.speech
    said = session.handle("yes")
    assert "Llama Llama Duck is now in your deck, as a Magic card." in said.speech
    card = session.handle("llama llama duck").card
    assert card is not None and card.type is CardType.MAGIC and "gives one card" in card.text
    fresh = llamas_session()  # saved: a new start has it too
    assert fresh.cards.find_exact("Llama Llama Duck") is not None
    assert len(fresh.cards.base.cards) == before, "the shipped deck file is not changed"


def test_a_card_whose_words_do_not_give_its_type_takes_the_braille_prefix_typed():
    session = llamas_session()
    offer = session.card_desk.scanned("Wool Gathering: draw two cards, then discard one.")
    assert asks(offer) and "type its braille prefix" in offer.speech
    said = session.handle("ug")
    assert "Wool Gathering is now in your deck, as an Upgrade card." in said.speech
    assert session.cards.find_exact("Wool Gathering").type is CardType.UPGRADE


def test_no_adds_nothing():
    session = llamas_session()
    session.card_desk.scanned("Hay Fever: Magic card. Skip your next Draw phase.")
    assert session.handle("no").speech == "Not recorded."
    assert session.cards.find_exact("Hay Fever") is None


def test_a_scanned_name_one_letter_off_a_deck_card_is_read_out_and_never_learnt():
    """An import reads a typo of a card's name as that card; a scan does not: a code is no sheet the owner wrote,
    so a name one letter off neither replaces the card's words nor becomes a second card."""
    session = llamas_session()
    before = {card.id for card in session.cards}
    offer = session.card_desk.scanned(
        "Magical Alpacacorx: Magical Animal. Every player draws two cards and discards one."
    )
    assert not asks(offer) and offer.speech.startswith("This code's name, Magical Alpacacorx, is close to Magical")
    session.handle("yes")
    card = session.cards.find_exact("Magical Alpacacorn")
    assert card is not None and "draws two cards and discards one" not in card.text
    assert session.cards.find_exact("Magical Alpacacorx") is None and {c.id for c in session.cards} == before


def test_a_name_with_no_letters_is_refused_with_the_import_rule_and_nothing_is_saved():
    from assistant.storage.paths import imported_decks_dir

    session = llamas_session()
    session.card_desk.scanned("??? : Magic card. Every player draws two cards now.")
    said = session.handle("yes")
    assert said.speech == '??? could not be added to your deck: "???" has no letters or digits for a card id.'
    assert not (imported_decks_dir() / "llamas-sheet.toml").exists()


def test_a_learnt_overlay_holding_the_most_cards_a_sheet_may_give_takes_no_more(tmp_path):
    from assistant.cli import main
    from assistant.core.cards.sheet import MAX_ROWS
    from assistant.storage.paths import imported_decks_dir

    sheet = tmp_path / "sheet.csv"
    sheet.write_text("name,type,text\n" + "".join(f"Card {n:03d},magic,Draw {n} cards.\n" for n in range(MAX_ROWS)))
    assert main(["deck", "import", str(sheet), "--base", "llamas", "--deck", "llamas-learned"]) == 0
    saved = imported_decks_dir() / "llamas-learned.toml"
    held = saved.read_text()
    session = llamas_session()
    session.card_desk.scanned("Wool Gathering: Magic card. Draw two cards, then discard one.")
    said = session.handle("yes")
    assert said.speech == (
        f"Wool Gathering could not be added to your deck: your deck's import already holds {MAX_ROWS} cards, "
        "the most it may hold."
    )
    assert saved.read_text() == held and session.cards.find_exact("Wool Gathering") is None


# Payloads as a player means them: a type line or prefix around the name, braille prefixes, dashes, a name alone.

WOOL = "Draw two cards, then discard one."


@pytest.mark.parametrize(
    "payload, card_type",
    [
        (f"MAGIC CARD / Wool Gathering / {WOOL}", CardType.MAGIC),  # a type line before the name
        (f"Wool Gathering / Magic / {WOOL}", CardType.MAGIC),  # a type line after it
        (f"action Wool Gathering: {WOOL}", CardType.MAGIC),  # the braille label's prefix on the name
        (f"UPGRADE CARD - Wool Gathering - {WOOL}", CardType.UPGRADE),  # dashes, a type prefix
        (f"Wool Gathering - {WOOL}", None),  # a dash, nothing says the type
        (f"Wool Gathering\nMagic card\n{WOOL}", CardType.MAGIC),  # one part a line
    ],
)
def test_each_form_of_a_card_text_the_deck_lacks_is_offered_by_its_name(payload, card_type):
    session = llamas_session()
    offer = session.card_desk.scanned(payload)
    kind = {CardType.MAGIC: "Magic card", CardType.UPGRADE: "Upgrade card", None: ""}[card_type]
    named = f"A card this deck does not have: Wool Gathering{', ' + kind if kind else ''}. It says: {WOOL}"
    assert asks(offer) and named in offer.speech
    said = session.handle("yes" if card_type is not None else "action")
    assert "Wool Gathering is now in your deck" in said.speech
    card = session.cards.find_exact("Wool Gathering")
    assert card is not None and card.text == WOOL and card.type is (card_type or CardType.MAGIC)


@pytest.mark.parametrize("payload", ["Wool Gathering", "Upgrade: Wool Gathering"])
def test_a_name_alone_of_a_card_the_deck_lacks_is_offered(payload):
    session = llamas_session()
    offer = session.card_desk.scanned(payload)
    assert asks(offer) and "A card this deck does not have: Wool Gathering" in offer.speech
    assert "It says" not in offer.speech
    said = session.handle("ug" if payload == "Wool Gathering" else "yes")
    assert "Wool Gathering is now in your deck, as an Upgrade card." in said.speech
    assert session.cards.find_exact("Wool Gathering").type is CardType.UPGRADE


@pytest.mark.parametrize(
    "payload, spoken",
    [
        ("Upgrade: Rainbow Aura", True),  # a type prefix before a card of the deck: that card
        ("Rainbow Aura / Upgrade", True),
        ("ug rainbow aura", True),  # the sticker's braille abbreviation as the payload
        ("ug rnbw aura", True),  # contracted: through the braille resolver
        ("Rainbow Awra", True),  # a typo of the deck's card
        ("UPGRADE CARD - Rainbow Aura - Unicorns in your Stable cannot be destroyed.", False),
        ("action Rainbow Aura: Unicorns in your Stable cannot be destroyed.", False),
    ],
)
def test_a_payload_naming_a_card_of_the_deck_in_any_form_is_that_card_and_never_offered(payload, spoken):
    session = make_session(Namespace(deck="uu-2nd", addon=[]))
    reply = session.card_desk.scanned(payload)
    assert reply.card is not None and reply.card.id == "rainbow-aura"
    assert not asks(reply) or "type replace words" in reply.speech  # its words taken only deliberately
    assert "does not have" not in reply.speech and "Unknown code" not in reply.speech
    assert reply.speech.startswith("Rainbow Aura, Upgrade card.") is spoken  # a text is read out as it is


@pytest.mark.parametrize("payload", ["hello", "B-1134", "Draw two cards then discard one", "x7 q9 zz"])
def test_what_does_not_read_as_a_card_is_not_offered(payload):
    reply = llamas_session().card_desk.scanned(payload)
    assert not asks(reply) and "does not have" not in reply.speech
