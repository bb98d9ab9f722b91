"""`table-assistant card QUERY`: print a card's full text (`QUERY, other print`: its other print). The card itself,
as a value, is `assistant/core/cards/card.py`: the same thing, in the command line's layer.

The query may be a name or part of one, an abbreviation (with typos), or Unicode braille cells: it goes through
the same resolver as the app (`assistant/braille/resolver.py`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from assistant.commands.helptext import described
from assistant.core.text import terminal_json
from assistant.core.words.cardtext import (
    card_lines,
    card_title,
    describe_resolution,
    print_variant_lines,
    search_results,
)
from assistant.storage.decks import DEFAULT_DECK, load_card_set

if TYPE_CHECKING:
    from assistant.core.cards.card import CardSet


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser(
        "card",
        help="look up a card by name, id or abbreviation",
        **described(
            description=(
                "Print a card's full text. The query is a name or part of one, a card's id, its braille abbreviation "
                "(typos allowed) or Unicode braille cells, read as the app reads them; several matches are listed."
            ),
            examples=[
                ("table-assistant card rainbow aura", "the full text of Rainbow Aura"),
                ("table-assistant card ragu", "a braille abbreviation: Basic Unicorn (Orange)"),
                ("table-assistant card --search discard", "every card whose name, text or tags mention discarding"),
                ("table-assistant card --deck llamas --json baby llama", "a Llamas Unleashed card, as JSON"),
            ],
        ),
    )
    parser.add_argument("query", nargs="+", help="what to look up")
    parser.add_argument("--json", action="store_true", help="print the match and the candidates as JSON")
    parser.add_argument(
        "--search", action="store_true", help="list the cards whose name, text or tags mention the words, best first"
    )
    parser.add_argument("--deck", dest="card_deck", metavar="ID", help="the base deck (default: uu-2nd)")


def run(args: argparse.Namespace) -> int:
    """Resolve the query; exit 1 with the closest names when nothing matches."""
    from assistant.commands.app import braille_resolver
    from assistant.core.cards.card import split_other_print

    cards = load_card_set(args.card_deck or args.deck or DEFAULT_DECK, args.addon)
    query, other_print = split_other_print(" ".join(args.query))
    if args.search:
        return _search(cards, query, args.json)
    resolver = braille_resolver(cards)
    resolution = resolver.resolve(query)
    while notice := resolver.take_notice():
        print(notice, file=sys.stderr)
    if args.json:
        data = resolution.to_dict()
        entry = resolver.abbreviation(resolution.match) if resolution.match else None
        data["abbreviation"] = entry.text if entry else None
        print(terminal_json(data))
    elif resolution.match is not None and other_print:  # "card seductive unicorn, other print"
        print("\n".join(print_variant_lines(resolution.match, cards.vocabulary)))
    elif resolution.match is not None:
        match = resolution.match
        print("\n".join(card_lines(match, cards.vocabulary, cards.copies_known(match))))
    else:
        print(describe_resolution(resolution, cards.vocabulary))
    return 0 if resolution.match is not None else 1


def _search(cards: CardSet, query: str, as_json: bool) -> int:
    """Print the cards that mention the words; exit 1 when none does."""
    from assistant.core.cards.search import search_cards

    found = search_cards(cards, query)
    if as_json:
        results = [{**f.card.to_dict(), "score": f.score} for f in found]
        print(terminal_json({"query": query, "results": results}))
    else:
        print(search_results(query, [f.card for f in found]))
        for number, hit in enumerate(found, start=1):
            print(f"{number}. {card_title(hit.card, cards.vocabulary)} {hit.card.text}")
    return 0 if found else 1
