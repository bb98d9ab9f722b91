"""Write `braille_map/<deck>.toml` for every shipped deck: `python -m assistant.braille.generate [--check]`.

Each map is made by the rule (`assistant/core/abbreviations.py`) from the deck's card file and the hand-written
`[overrides]` already in the map. Decks that can be played together must not share a key, so they are made in
order, each one avoiding the keys of those before it: per game, the base decks (each on its own, since base decks
are not combined), then the expansions, each avoiding every base deck it can be added to and the expansions
before it that share
one of those bases.
With `--check`, nothing is written: the exit status is 1 when a committed map differs from what would be written.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from assistant.core.abbreviations import Abbreviation, AbbreviationClash, Override, assign, is_too_long, keys_in_use
from assistant.core.braillemap import BrailleMapError, parse_overrides, render_braille_map
from assistant.core.cardfile import CardDataError
from assistant.core.cards import Deck, normalize
from assistant.storage.decks import load_deck_file
from assistant.storage.paths import braille_map_dir, card_texts_dir


@dataclass
class Plan:
    """What the generator would write, and what stands in its way."""

    texts: dict[Path, str] = field(default_factory=dict)
    """Map file → its new text."""
    errors: list[str] = field(default_factory=list)
    """Clashes, damaged files: the maps concerned are not written."""
    warnings: list[str] = field(default_factory=list)
    """Labels longer than a card allows: each wants an override."""


def shipped_decks(folder: Path | None = None) -> tuple[list[Deck], list[str]]:
    """Every deck in card_texts/ that loads, and the errors of those that do not."""
    decks, errors = [], []
    for path in sorted((folder or card_texts_dir()).glob("*.toml")):
        try:
            decks.append(load_deck_file(path))
        except CardDataError as exc:
            errors.append(f"{path.name} was skipped, it does not load:\n{exc}")
    return decks, errors


def generation_order(decks: list[Deck]) -> list[tuple[Deck, list[Deck]]]:
    """Each deck with the decks whose keys it must avoid, in the order they are made."""
    order = []
    for game in sorted({deck.info.game for deck in decks}):
        of_game = [deck for deck in decks if deck.info.game == game]
        bases = sorted((d for d in of_game if d.info.kind == "base"), key=lambda d: d.id)
        others = sorted((d for d in of_game if d.info.kind != "base"), key=lambda d: d.id)
        order += [(base, []) for base in bases]
        for index, deck in enumerate(others):
            mine = [base for base in bases if deck.info.adds_to(base.info)] or bases
            # expansions played on a common base deck can be on the table together
            before = [d for d in others[:index] if any(d.info.adds_to(base.info) for base in mine)]
            order.append((deck, mine + before))
    return order


def plan_maps(decks: list[Deck], folder: Path | None = None) -> Plan:
    """The text of every deck's map, made from the rule and the overrides in the existing files."""
    folder = folder or braille_map_dir()
    plan = Plan()
    made: dict[str, dict[str, Abbreviation]] = {}
    for deck, avoid in generation_order(decks):
        path = folder / f"{deck.id}.toml"
        overrides: dict[str, Override] = {}
        if path.exists():
            try:
                overrides = parse_overrides(path.read_text(encoding="utf-8"), deck, str(path))
            except BrailleMapError as exc:
                plan.errors.append(f"{path.name}: its [overrides] are damaged, fix them first:\n{exc}")
                continue
        taken: dict[str, str] = {}
        for other in avoid:
            taken.update(keys_in_use(made.get(other.id, {}).values()))
            for card in other.cards:
                taken.setdefault(normalize(card.name), card.id)
        try:
            abbreviations = assign(deck.cards, deck.info.vocabulary, overrides, taken)
        except AbbreviationClash as exc:
            plan.errors.append(f"{deck.id}: abbreviations clash, add overrides to {path.name}:\n{exc}")
            continue
        made[deck.id] = abbreviations
        for entry in abbreviations.values():
            if is_too_long(entry.text):
                plan.warnings.append(f"{deck.id}: {entry.card_id}: {entry.text!r} is too long for a card: override it")
        plan.texts[path] = render_braille_map(deck, abbreviations, overrides)
    return plan


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) every shipped deck's map; 0 when all is well."""
    parser = argparse.ArgumentParser(prog="python -m assistant.braille.generate", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a map is out of date")
    args = parser.parse_args(argv)
    decks, load_errors = shipped_decks()
    plan = plan_maps(decks)
    for message in load_errors + plan.errors + plan.warnings:
        print(message, file=sys.stderr)
    stale = []
    for path, text in plan.texts.items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path.name)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if args.check:
        for name in stale:
            print(f"{name} is out of date: run python -m assistant.braille.generate", file=sys.stderr)
        return 1 if stale or plan.errors else 0
    for name in stale:
        print(f"wrote braille_map/{name}")
    return 1 if plan.errors else 0


if __name__ == "__main__":
    sys.exit(main())
