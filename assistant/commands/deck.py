"""`table-assistant deck list|show|import`: what decks are installed, what they hold, and the owner's own sheet."""

from __future__ import annotations

import argparse
import errno
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.commands.helptext import described
from assistant.core.text import clean_untrusted, terminal_json
from assistant.core.words.cardtext import (
    card_lines,
    card_tags,
    describe_deck,
    herd_bonuses_imported,
    import_bad_id,
    import_failed,
    import_written,
    print_settled,
    sheet_too_large,
    sheet_unreadable,
)
from assistant.core.words.errors import card_file_skipped, could_not_write, not_utf8_line
from assistant.core.words.learned import NOTHING_LEARNED, card_forgotten, learned_card, learned_heading, not_learned
from assistant.core.words.storage import NOT_UTF8_SKIPPED, import_not_saved
from assistant.storage.decks import load_all_decks, load_deck

if TYPE_CHECKING:
    from assistant.core.cards.card import Deck


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser(
        "deck",
        help="list decks, show a deck",
        **described(
            description=(
                "The decks installed, every card of one, and your own: import the reference sheet of your deck, list "
                "or forget the cards learnt from scanned codes."
            ),
            examples=[
                ("table-assistant deck list", "the decks installed, base decks and expansions"),
                ("table-assistant deck show uu-2nd", "every card of Unstable Unicorns, second edition"),
            ],
        ),
    )
    actions = parser.add_subparsers(
        dest="deck_action", metavar="ACTION", required=True, help="list, show, import, learned or forget"
    )
    listing = actions.add_parser(
        "list",
        help="list the installed decks",
        **described(
            description="List the decks installed: the shipped ones, and those you imported.",
            examples=[("table-assistant deck list --json", "the list as JSON")],
        ),
    )
    listing.add_argument("--json", action="store_true", help="the decks as JSON")
    show = actions.add_parser(
        "show",
        help="every card of a deck with all its fields",
        **described(
            description="Print every card of a deck with all its fields: name, type, copies, text, tags, abbreviation.",
            examples=[("table-assistant deck show llamas", "every card of Llamas Unleashed")],
        ),
    )
    show.add_argument("deck_id", metavar="ID", help="the deck's id, as `deck list` shows it")
    show.add_argument("--json", action="store_true", help="the cards as JSON")
    sheet = actions.add_parser(
        "import",
        help="import the reference sheet of your deck (CSV, TSV or Name: text lines)",
        **described(
            description=(
                'Import the reference sheet of your own printing (CSV, TSV, or one "Name: text" line a card): each '
                "line is matched to a card of the base deck, and the cards it adds or changes are used from then on."
            ),
            examples=[
                ("table-assistant deck import my-sheet.csv", "a sheet for the default deck, uu-2nd"),
                ("table-assistant deck import --base llamas sheet.txt", "a sheet for Llamas Unleashed"),
            ],
        ),
    )
    sheet.add_argument("file", type=Path, metavar="FILE", help="the sheet: CSV, TSV or Name: text lines")
    sheet.add_argument("--base", dest="import_base", metavar="ID", help="the deck the sheet is for (default: uu-2nd)")
    sheet.add_argument("--deck", dest="import_id", metavar="ID", help="the imported deck's id (default: BASE-sheet)")
    sheet.add_argument("--json", action="store_true", help="what was imported, as JSON")
    actions.add_parser(
        "learned",
        help="list the cards learnt from scanned codes, with their words",
        **described(
            description="List the cards the app learnt from scanned codes that hold a card's text, with their words.",
            examples=[("table-assistant deck learned", "every card learnt, by deck")],
        ),
    )
    forget = actions.add_parser(
        "forget",
        help="remove a card learnt from a scanned code (the deck's words again)",
        **described(
            description="Forget a card learnt from a scanned code: the deck's own words are used for it again.",
            examples=[("table-assistant deck forget rainbow aura", "Rainbow Aura's words from the deck again")],
        ),
    )
    forget.add_argument("name", nargs="+", metavar="NAME", help="the card's name")


def run(args: argparse.Namespace) -> int:
    """List, show or import decks."""
    if args.deck_action == "import":
        return import_sheet(args)
    if args.deck_action in ("learned", "forget"):
        return _learned(args)
    if args.deck_action == "list":
        decks, errors = load_all_decks()
        if args.json:
            print(terminal_json([_deck_dict(d, with_cards=False) for d in decks]))
        else:
            for deck in decks:
                print(f"{deck.id}: {describe_deck(deck)}")
        for error in errors:
            print(card_file_skipped(str(error)), file=sys.stderr)
        return 0 if not errors else 2
    deck = load_deck(args.deck_id)
    if args.json:
        print(terminal_json(_deck_dict(deck, with_cards=True)))
    else:
        print(describe_deck(deck))
        for card in deck.cards:
            print()
            print(f"{card.id}: " + "\n".join(card_lines(card, deck.info.vocabulary, deck.info.copies_known)))
            if card.tags:
                print(card_tags(list(card.tags)))
    return 0


def _learned(args: argparse.Namespace) -> int:
    """`deck learned` lists the learnt overlays; `deck forget NAME` removes one card from them."""
    from assistant.storage.decks import forget_card, learned_overlays

    if args.deck_action == "forget":
        name = " ".join(args.name)
        try:
            gone = forget_card(name)
        except OSError as exc:
            print(could_not_write(name, exc.strerror or str(exc)), file=sys.stderr)
            return 1
        if gone is None:
            print(not_learned(name), file=sys.stderr)
            return 1
        print(card_forgotten(gone[0].name, str(gone[1])))
        return 0
    overlays = [deck for deck in learned_overlays() if deck.cards]
    if not overlays:
        print(NOTHING_LEARNED)
    for deck in overlays:
        print(learned_heading(len(deck.cards), load_deck(deck.info.base).info.title, deck.path))
        for card in deck.cards:
            print(learned_card(card.name, card.text))
    return 0


def _deck_dict(deck: Deck, with_cards: bool) -> dict[str, Any]:
    info = deck.info
    out: dict[str, Any] = {
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


#: The largest sheet read, in bytes: a full deck's sheet is well under 100 KB.
MAX_SHEET_BYTES = 2_000_000


def import_sheet(args: argparse.Namespace) -> int:
    """Read a reference sheet, match it against its deck, and save it as an import deck; 0 when saved."""
    from assistant.core.cards.cardfile import ID_PATTERN, parse_deck
    from assistant.core.cards.sheet import SheetProblem, match_sheet, parse_sheet, render_import
    from assistant.storage.decks import DEFAULT_DECK, deck_files, save_import
    from assistant.storage.files import FileRefused, decode_lines, read_bounded
    from assistant.storage.paths import card_texts_dir

    base = load_deck(args.import_base or args.deck or DEFAULT_DECK)
    deck_id = args.import_id or f"{base.id}-sheet"
    shipped = deck_files().get(deck_id)
    if not ID_PATTERN.match(deck_id) or (shipped is not None and shipped.parent == card_texts_dir()):
        print(import_bad_id(deck_id), file=sys.stderr)
        return 2
    try:  # a pipe, a device or a folder is refused before anything is read from it
        raw = read_bounded(args.file, MAX_SHEET_BYTES)
        text, not_utf8 = decode_lines(raw)  # a byte that is not UTF-8 costs its line, which is named
        if not_utf8 and not text.strip():  # no line is UTF-8 (a UTF-16 file): the file is not a sheet
            raise ValueError(not_utf8_line(not_utf8[0]))
    except FileRefused as exc:
        too_large = exc.errno == errno.EFBIG
        reason = ValueError(sheet_too_large(MAX_SHEET_BYTES // 1_000_000)) if too_large else exc
        print(sheet_unreadable(str(args.file), reason), file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(sheet_unreadable(str(args.file), exc), file=sys.stderr)
        return 2
    rows, problems = parse_sheet(text, args.file.name)
    problems += [SheetProblem(line, NOT_UTF8_SKIPPED) for line in not_utf8]
    result = match_sheet(rows, base, deck_id)
    result.problems = sorted(problems + result.problems, key=lambda p: p.line)
    path = None
    if result.cards or result.herd_bonus:
        deck_text = render_import(result, base, deck_id, args.file.name)
        parse_deck(deck_text, f"{deck_id}.toml")  # what is saved loads: a CardDataError here is ours, not the owner's
        try:
            path = save_import(deck_id, deck_text)
        except OSError as exc:  # a read-only or full home: said, with what failed
            print(import_not_saved(deck_id, exc.strerror or str(exc)), file=sys.stderr)
            return 1
    if args.json:
        print(
            terminal_json(
                {
                    "deck": deck_id,
                    "base": base.id,
                    "path": str(path) if path else None,
                    "matched": [{"line": line, "name": typed, "card": card.id} for line, typed, card in result.matched],
                    "added": [card.id for card in result.added],
                    "settled": [{"line": line, "card": card.id, "print": name} for line, card, name in result.settled],
                    "herd_bonus": [variation for variation, _ in result.herd_bonus],
                    "problems": [{"line": p.line, "message": p.message} for p in result.problems],
                }
            )
        )
    else:
        if path is None:
            print(import_failed(len(result.problems)))
        else:
            print(
                import_written(base.info.title, len(result.matched), len(result.added), len(result.problems), str(path))
            )
        for _line, card, print_name in result.settled:
            print(print_settled(card.name, print_name))
        if result.herd_bonus:
            print(herd_bonuses_imported([variation for variation, _ in result.herd_bonus]))
        for problem in result.problems:
            print(f"{clean_untrusted(args.file.name, 80)}: {problem}")
    return 0 if path is not None else 1
