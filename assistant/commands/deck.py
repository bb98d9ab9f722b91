"""`table-assistant deck list|show`: what decks are installed and what they hold."""

from __future__ import annotations

import json
import sys

from assistant.core import words
from assistant.storage.decks import load_all_decks, load_deck


def add_parser(subparsers) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser("deck", help="list decks, show a deck")
    actions = parser.add_subparsers(dest="deck_action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="list the installed decks")
    listing.add_argument("--json", action="store_true")
    show = actions.add_parser("show", help="every card of a deck with all its fields")
    show.add_argument("deck_id", metavar="ID")
    show.add_argument("--json", action="store_true")


def run(args) -> int:
    """List or show decks."""
    if args.deck_action == "list":
        decks, errors = load_all_decks()
        if args.json:
            print(json.dumps([_deck_dict(d, with_cards=False) for d in decks], ensure_ascii=False, indent=2))
        else:
            for deck in decks:
                print(f"{deck.id}: {words.describe_deck(deck)}")
        for error in errors:
            print(f"A card file is damaged and was skipped:\n{error}", file=sys.stderr)
        return 0 if not errors else 2
    deck = load_deck(args.deck_id)
    if args.json:
        print(json.dumps(_deck_dict(deck, with_cards=True), ensure_ascii=False, indent=2))
    else:
        print(words.describe_deck(deck))
        for card in deck.cards:
            print()
            print(f"{card.id}: " + "\n".join(words.card_lines(card, deck.info.vocabulary)))
            if card.tags:
                print("Tags: " + ", ".join(sorted(card.tags)))
    return 0


def _deck_dict(deck, with_cards: bool) -> dict:
    info = deck.info
    out = {
        "id": info.id,
        "title": info.title,
        "edition": info.edition,
        "game": info.game,
        "kind": info.kind,
        "vocabulary": info.vocabulary.value,
        "complete": info.complete,
        "rules": info.rules,
        "notes": info.notes,
        "unique_cards": len(deck.cards),
        "copies": deck.total_copies,
    }
    if with_cards:
        out["cards"] = [card.to_dict() for card in deck.cards]
    return out
