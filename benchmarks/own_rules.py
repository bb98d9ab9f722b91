"""Every card's own rule played: per shipped deck, how many cards with a rule of their own have it played and
followed at a table (every kind of rule of every print of the card), by the scenarios of
tests/core/own_rule_scenarios.py that tests/core/test_every_own_rule.py runs. Goal 100 %.

Run as `.venv/bin/python -m benchmarks.own_rules` from the repository's root (`--json` for the raw figures,
`--smoke` for one deck). Each
card not played is listed with the reason docs/game.md ("Cards left to the table") gives; exits 1 when a card is
neither played nor named there.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field

from benchmarks import logs
from tests.core.own_rule_plays import left_to_the_table, rule_kinds, shipped_places
from tests.core.own_rule_scenarios import plays

SMOKE_DECK = "uu-dragons"


@dataclass
class DeckCount:
    """One deck's count: its cards with a rule of their own, those played, and each card not played with its kinds
    and the docs' reason for each (None for a kind not named there)."""

    with_a_rule: int = 0
    played: int = 0
    not_played: dict[str, dict[str, str | None]] = field(default_factory=dict)


def count(decks: tuple[str, ...] | None = None) -> dict[str, DeckCount]:
    """Per deck (every shipped deck, or those named), by playing every kind of rule of every print of every card."""
    left = left_to_the_table()
    cards: dict[tuple[str, str], dict[str, str | None]] = {}
    for place in shipped_places():
        if decks is not None and place.deck not in decks:
            continue
        for kind in rule_kinds(place.card):
            missed = cards.setdefault((place.deck, place.card.name), {})
            if not plays(place, kind):
                missed[kind] = left.get((place.deck, place.name, kind))
    counted: dict[str, DeckCount] = defaultdict(DeckCount)
    for (deck, name), missed in cards.items():
        counted[deck].with_a_rule += 1
        if missed:
            counted[deck].not_played[name] = missed
        else:
            counted[deck].played += 1
    return dict(counted)


def report(decks: dict[str, DeckCount]) -> None:
    """Each deck's count, each card not played with the docs' reason, and the whole count."""
    for deck, row in sorted(decks.items()):
        print(f"{deck}: {row.played} of {row.with_a_rule} cards with a rule of their own played")
        for name, missed in row.not_played.items():
            for kind, reason in missed.items():
                print(f"  {name} ({kind}): {reason or 'NOT NAMED in docs/game.md'}")
    played = sum(row.played for row in decks.values())
    total = sum(row.with_a_rule for row in decks.values())
    print(f"all decks: {played} of {total} ({100 * played / total:.1f} %)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--smoke", action="store_true", help=f"one deck ({SMOKE_DECK}); exit 0 once it has figures")
    args = parser.parse_args(argv)
    decks = count((SMOKE_DECK,) if args.smoke else None)
    if args.json:
        print(logs.dumps(decks, indent=2, sort_keys=True))
    else:
        report(decks)
    reasons = [reason for row in decks.values() for missed in row.not_played.values() for reason in missed.values()]
    return 0 if args.smoke or None not in reasons else 1


if __name__ == "__main__":
    sys.exit(main())
