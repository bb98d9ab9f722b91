"""`table-assistant card QUERY`: print a card's full text."""

from __future__ import annotations

import json

from assistant.core import words
from assistant.core.lookup import resolve_name
from assistant.storage.decks import DEFAULT_DECK, load_card_set


def add_parser(subparsers) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser("card", help="look up a card by name, id or abbreviation")
    parser.add_argument("query", nargs="+", help="what to look up")
    parser.add_argument("--json", action="store_true", help="print the match and the candidates as JSON")
    parser.set_defaults(card_deck=None)


def run(args) -> int:
    """Resolve the query; exit 1 with the closest names when nothing matches."""
    cards = load_card_set(args.deck or DEFAULT_DECK, args.addon)
    query = " ".join(args.query)
    resolution = resolve_name(cards, query)
    if args.json:
        print(json.dumps(resolution.to_dict(), ensure_ascii=False, indent=2))
    elif resolution.match is not None:
        print("\n".join(words.card_lines(resolution.match, cards.vocabulary)))
    else:
        print(words.describe_resolution(resolution, cards.vocabulary))
    return 0 if resolution.match is not None else 1
