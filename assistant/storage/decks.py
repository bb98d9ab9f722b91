"""Load deck files from disk and combine them into a card set."""

from __future__ import annotations

from pathlib import Path

from assistant.core.cardfile import CardDataError, Problem, parse_deck
from assistant.core.cards import CardSet, Deck
from assistant.storage.paths import card_texts_dir, imported_decks_dir

DEFAULT_DECK = "uu-2nd"


def load_deck_file(path: Path) -> Deck:
    """Read and validate one deck file; raise `CardDataError` with every problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardDataError([Problem(str(path), 1, "-", "file", f"cannot be read ({exc})")]) from None
    return parse_deck(text, str(path))


def deck_files() -> dict[str, Path]:
    """Every installed deck file by deck id: shipped ones, then the user's imports (named by file stem)."""
    found: dict[str, Path] = {}
    for folder in (card_texts_dir(), imported_decks_dir()):
        if folder.is_dir():
            for path in sorted(folder.glob("*.toml")):
                found[path.stem] = path
    return found


def load_all_decks() -> tuple[list[Deck], list[CardDataError]]:
    """Every installed deck that loads, and the errors of those that do not."""
    decks, errors = [], []
    for path in deck_files().values():
        try:
            decks.append(load_deck_file(path))
        except CardDataError as exc:
            errors.append(exc)
    return decks, errors


def load_deck(deck_id: str) -> Deck:
    """The installed deck with this id; `LookupError` naming the installed ids when there is none."""
    files = deck_files()
    if deck_id not in files:
        raise LookupError(f"No deck called {deck_id!r}. Installed decks: {', '.join(sorted(files)) or 'none'}.")
    return load_deck_file(files[deck_id])


def combine(decks: list[Deck]) -> CardSet:
    """One card set from a base deck and its add-ons; an id in two files is an error naming both."""
    owner: dict[str, Deck] = {}
    problems: list[Problem] = []
    for deck in decks:
        for card in deck.cards:
            first = owner.get(card.id)
            if first is not None:
                problems.append(Problem(deck.path, 1, card.id, "id", f"also defined in {first.path}"))
            else:
                owner[card.id] = deck
    if problems:
        raise CardDataError(problems)
    return CardSet(list(decks))


def load_card_set(base: str = DEFAULT_DECK, addons: list[str] | tuple[str, ...] = ()) -> CardSet:
    """Load a base deck plus add-ons, applying the owner's imports for them, as one card set."""
    decks = [load_deck(base)] + [load_deck(addon) for addon in addons]
    return combine(decks)
