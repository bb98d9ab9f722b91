"""Load deck files from disk and combine them into a card set."""

from __future__ import annotations

import re
from pathlib import Path

from assistant.core.cards.card import Card, CardSet, CardType, Deck
from assistant.core.cards.cardfile import CardDataError, Problem, parse_deck
from assistant.core.cards.learning import CardNotLearned, NewCard, forgotten_deck_text, learned_deck_text
from assistant.core.words.cardtext import cannot_add_to, no_such_deck
from assistant.core.words.errors import also_defined_in, cannot_be_read, import_set_aside, import_shadows_shipped
from assistant.core.words.scans import CARD_REFUSED, LEARNT_BY_NAME, import_full
from assistant.core.words.storage import import_not_applied, import_unknown_base, import_wrong_kind
from assistant.storage.files import read_bounded, set_aside, write_atomically
from assistant.storage.paths import card_texts_dir, imported_decks_dir

DEFAULT_DECK = "uu-2nd"
#: The end of a learnt overlay's id: `uu-2nd-learned` holds the cards scanned at the table for `uu-2nd`.
LEARNED = "-learned"
#: The largest deck file read: the reader's own limit is 2,000,000 characters (`assistant.core.datatext`).
MAX_DECK_BYTES = 8_000_000


def load_deck_file(path: Path) -> Deck:
    """Read and validate one deck file; raise `CardDataError` with every problem."""
    try:
        text = read_bounded(path, MAX_DECK_BYTES).decode("utf-8")  # a pipe or a link to a device: refused, not read
    except (OSError, UnicodeDecodeError) as exc:
        raise CardDataError([Problem(str(path), 1, "-", "file", cannot_be_read(str(exc)))]) from None
    return parse_deck(text, str(path))


#: Sentences about the owner's files met while loading decks (a damaged import set aside, an import named like a
#: shipped deck), said once by whoever shows the player something next (`take_notices`).
_NOTICES: list[str] = []


def take_notices() -> list[str]:
    """The sentences gathered while loading decks since the last call, each once."""
    said = list(dict.fromkeys(_NOTICES))
    _NOTICES.clear()
    return said


def deck_files() -> dict[str, Path]:
    """Every installed deck file by deck id: the shipped ones, then the owner's imports (named by file stem). An
    import cannot replace a shipped deck: one named like it is left out, and said."""
    found: dict[str, Path] = {}
    for folder in (card_texts_dir(), imported_decks_dir()):
        if folder.is_dir():
            for path in sorted(folder.glob("*.toml")):
                if path.stem in found:
                    _NOTICES.append(import_shadows_shipped(path.name))
                    continue
                found[path.stem] = path
    return found


class DeckChoiceError(LookupError):
    """A deck asked for that cannot be had: none installed with that id, or an add-on that does not add to the base
    chosen. Its message, for the player, names what there is."""


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
    """The installed deck with this id; `DeckChoiceError` (a `LookupError`) naming the installed ids when there is
    none."""
    files = deck_files()
    if deck_id not in files:
        raise DeckChoiceError(no_such_deck(deck_id, list(files)))
    return load_deck_file(files[deck_id])


def combine(decks: list[Deck]) -> CardSet:
    """One card set from a base deck and its add-ons; an id in two files is an error naming both, with lines."""
    owner: dict[str, Deck] = {}
    problems: list[Problem] = []
    for deck in decks:
        for card in deck.cards:
            first = owner.get(card.id)
            if first is not None:
                where = f"{first.path}:{_id_line(first.path, card.id)}"
                problems.append(Problem(deck.path, _id_line(deck.path, card.id), card.id, "id", also_defined_in(where)))
            else:
                owner[card.id] = deck
    if problems:
        raise CardDataError(problems)
    return CardSet(list(decks))


def _id_line(path: str, card_id: str) -> int:
    """The line of a deck file where a card id is given (1 when it cannot be found)."""
    try:
        lines = read_bounded(path, MAX_DECK_BYTES).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 1
    wanted = re.compile(rf"""^\s*id\s*=\s*["']{re.escape(card_id)}["']""")
    return next((number for number, line in enumerate(lines, start=1) if wanted.match(line)), 1)


def imports_for(deck_ids: set[str]) -> list[Deck]:
    """The owner's imported sheets that override or extend these decks. A damaged one is set aside (kept whole
    under another name) and said, with its file and line; the others and the shipped decks go on."""
    folder = imported_decks_dir()
    shipped = _shipped_ids()
    decks = []
    # the learnt overlays last: a card's words taken from a scan (after a yes) win over the sheet's
    paths = sorted(folder.glob("*.toml"), key=lambda p: (p.stem.endswith(LEARNED), p.name)) if folder.is_dir() else []
    for path in paths:
        try:
            deck = load_deck_file(path)
        except CardDataError as exc:
            aside = set_aside(path)
            first = exc.problems[0]
            _NOTICES.append(import_set_aside(path.name, first.line, first.message, aside.name))
            continue
        if path.stem in shipped or deck.id in shipped:
            _NOTICES.append(import_shadows_shipped(path.name))
        elif deck.info.kind != "import":  # a hand-edited file: never silently left out
            _NOTICES.append(import_not_applied(path.name, import_wrong_kind(deck.info.kind)))
        elif deck.info.base not in shipped:
            _NOTICES.append(import_not_applied(path.name, import_unknown_base(deck.info.base)))
        elif deck.info.base in deck_ids:
            decks.append(deck)
    return decks


def _shipped_ids() -> set[str]:
    folder = card_texts_dir()
    return {path.stem for path in folder.glob("*.toml")} if folder.is_dir() else set()


def load_card_set(base: str = DEFAULT_DECK, addons: list[str] | tuple[str, ...] = ()) -> CardSet:
    """Load a base deck plus add-ons as one card set, with the owner's imported sheets for them applied last.

    An imported sheet's cards replace the shipped cards with the same id and add the others. Choosing an import
    itself as the deck plays its base deck with that import.
    """
    chosen = load_deck(base)
    imports: list[Deck] = []
    if chosen.info.kind == "import":
        imports, chosen = [chosen], load_deck(chosen.info.base)
    decks = [chosen]
    for addon_id in dict.fromkeys(addons):
        addon = load_deck(addon_id)
        if addon.info.kind == "import" and addon.info.base == chosen.id:
            continue  # an overlay of the base, applied below (saves of earlier versions list it as an add-on)
        if not addon.info.adds_to(chosen.info):
            raise DeckChoiceError(cannot_add_to(addon.info, chosen.info))
        decks.append(addon)
    card_set = combine(decks)
    if not imports:
        imports = imports_for({deck.id for deck in decks})
    return CardSet(decks + imports) if imports else card_set


def save_import(deck_id: str, text: str) -> Path:
    """Write an imported deck file atomically: a re-import replaces the old one whole or not at all."""
    return write_atomically(imported_decks_dir() / f"{deck_id}.toml", text)


def learn_card(base_id: str, new: NewCard, card_type: CardType) -> Path:
    """Add a card read from a scanned full text to the owner's learnt overlay of a base deck (`BASE-learned`,
    made when there is none, applied after the reference sheet's import); checked like any import before it is
    written. Returns where it was saved; ValueError with the reason, in words, when the import cannot take it."""
    base = load_deck(base_id)
    if base.info.kind == "import":
        base = load_deck(base.info.base)
    deck_id = f"{base.id}{LEARNED}"
    path = imported_decks_dir() / f"{deck_id}.toml"
    existing = load_deck_file(path) if path.is_file() else None
    try:
        text = learned_deck_text(new, card_type, base, existing, deck_id, unscanned=LEARNT_BY_NAME)
    except CardNotLearned as exc:  # the reason in words, for the player
        raise ValueError(import_full(exc.limit) if exc.limit else exc.reason or CARD_REFUSED) from None
    parse_deck(text, path.name)  # what is saved loads: a CardDataError here is ours, not the owner's
    return save_import(deck_id, text)


def learned_overlays() -> list[Deck]:
    """The owner's learnt overlays (cards scanned at the table), each a deck file; a damaged one is left out."""
    folder = imported_decks_dir()
    decks = []
    for path in sorted(folder.glob(f"*{LEARNED}.toml")) if folder.is_dir() else []:
        try:
            decks.append(load_deck_file(path))
        except CardDataError:
            continue  # said where decks are loaded for play (set aside, with its line)
    return decks


def forget_card(name: str) -> tuple[Card, Path] | None:
    """Remove a learnt card (by name) from its overlay, so the deck's own words apply again; the card and the
    overlay's file, or None when no overlay has it. An overlay left empty is removed."""
    for overlay in learned_overlays():
        base = load_deck(overlay.info.base)
        gone, text = forgotten_deck_text(overlay, base, name)
        if gone is None:
            continue
        path = Path(overlay.path)
        if text:
            parse_deck(text, path.name)  # what is saved loads
            write_atomically(path, text)
        else:
            path.unlink()
        return gone, path
    return None
