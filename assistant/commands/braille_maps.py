"""Write `braille_map/<deck>.toml` for every shipped deck: `python -m assistant.commands.braille_maps [--check]`.

A tool for whoever changes a deck file, not a sub-command of `table-assistant`: it loads the shipped decks from
storage and lets `assistant.braille.generate` plan each map (see there for the order decks are made in).
With `--check`, nothing is written: the exit status is 1 when a committed map differs from what would be written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from assistant.core.cards.card import Deck
from assistant.core.cards.cardfile import CardDataError
from assistant.core.words.entry import braille_map_skipped, braille_map_stale, braille_map_written


def shipped_decks(folder: Path | None = None) -> tuple[list[Deck], list[str]]:
    """Every deck in card_texts/ (or `folder`) that loads, and the errors of those that do not."""
    from assistant.storage.decks import load_deck_file
    from assistant.storage.paths import card_texts_dir

    decks, errors = [], []
    for path in sorted((folder or card_texts_dir()).glob("*.toml")):
        try:
            decks.append(load_deck_file(path))
        except CardDataError as exc:
            errors.append(braille_map_skipped(path.name, str(exc)))
    return decks, errors


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) every shipped deck's map; 0 when all is well."""
    from assistant.braille.generate import plan_maps
    from assistant.storage.paths import braille_map_dir

    parser = argparse.ArgumentParser(
        prog="python -m assistant.commands.braille_maps", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a map is out of date")
    args = parser.parse_args(argv)
    decks, load_errors = shipped_decks()
    plan = plan_maps(decks, braille_map_dir())
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
            print(braille_map_stale(name), file=sys.stderr)
        return 1 if stale or plan.errors else 0
    for name in stale:
        print(braille_map_written(name))
    return 1 if plan.errors else 0


if __name__ == "__main__":
    sys.exit(main())
