"""Card texts join their actions as the print does (docs/card-text-format.md, "then between two actions").

A "then" of the print is a "then" in ours, an "if you do" is "if you do" (or "should you do so"), each leads to the
same defined action (draw, discard, sacrifice, destroy, steal, or none), and ours makes no action depend on another
where the print does not. `tests/fixtures/print_joins.json` holds only these facts about the prints (which joins
each card uses, and where they were read), made by `scripts/print_joins.py`, whose `joins` reads the print and our
texts alike.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from assistant.core.cards.card import Card
from assistant.storage.decks import deck_files, load_deck

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("print_joins", ROOT / "scripts" / "print_joins.py")
assert _spec is not None and _spec.loader is not None
print_joins = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(print_joins)
joins = print_joins.joins

PRINTED: dict[str, dict[str, dict]] = json.loads(print_joins.FIXTURE.read_text(encoding="utf-8"))["decks"]


def texts(card: Card) -> list[tuple[str, str]]:
    """The card's text and each other print's text, keyed as the fixture keys them."""
    return [(card.id, card.text)] + [(f"{card.id} ({v.print})", v.text) for v in card.print_variants]


def printed(fact: dict) -> Counter:
    """The joins the print has, counted."""
    return Counter(tuple(join) for join in fact["joins"])


@pytest.mark.parametrize("deck_id", sorted(PRINTED))
def test_each_text_joins_its_actions_as_the_print_does(deck_id):
    """Counted, not ordered: a text may say the same chain in another order."""
    wrong = {}
    for card in load_deck(deck_id).cards:
        for called, text in texts(card):
            fact = PRINTED[deck_id].get(called)
            if fact is not None and Counter(joins(text)) != printed(fact):
                wrong[called] = {"print": fact["joins"], "ours": joins(text)}
    assert wrong == {}


def test_the_reader_finds_each_join_and_the_action_that_depends_on_it():
    then, if_you_do = print_joins.THEN, print_joins.IF_YOU_DO
    assert joins("You may discard a card, then steal a Unicorn card.") == [(then, "steal")]
    assert joins("You may sacrifice this card. If you do, take another turn.") == [(if_you_do, "")]
    assert joins("You may discard 2 cards. Should you do so, each other player draws a card.") == [(if_you_do, "draw")]
    assert joins("Draw 2 cards and discard 3 cards. Then, once this turn is over, take another turn.") == [(then, "")]
    assert joins("Draw 2 cards, then discard 3 cards. When this turn is over, take another turn.") == [
        (then, "discard")
    ]
    assert joins("Look through the deck. Then shuffle it. Discard a card.") == [(then, "")], "the sentence ends it"
    assert joins("Skip your Draw phase. Then put the discard pile in the deck.") == [(then, "")]
    assert joins('Search for a "Then Draw Unicorn" card and play it.') == [], "a quoted name joins nothing"
    assert joins("You may discard a card to steal a Unicorn card. In exchange, draw a card.") == []


def test_the_fixture_holds_facts_about_shipped_cards_only():
    """Every key names a shipped card or print; every join is one of the two with a defined action or none; no
    entry holds anything else (never printed wording)."""
    keys = {deck: {called for card in load_deck(deck).cards for called, _ in texts(card)} for deck in deck_files()}
    allowed = {print_joins.THEN, print_joins.IF_YOU_DO}
    actions = {*print_joins.ACTIONS, ""}
    for deck, cards in PRINTED.items():
        assert set(cards) <= keys[deck], sorted(set(cards) - keys[deck])
        for fact in cards.values():
            assert set(fact) == {"joins", "sources"} and set(fact["sources"]) <= set(print_joins.SOURCES), fact
            assert {join for join, _ in printed(fact)} <= allowed and {a for _, a in printed(fact)} <= actions, fact
    assert sum(len(cards) for cards in PRINTED.values()) >= 350, "the three licensed sources give 352 cards and prints"
