"""`table-assistant labels DECK`: printable QR stickers and braille labels for a deck.

The command loads the deck and its braille abbreviations from storage and hands them to the two adapters that
draw them: `assistant.scanner.stickers` (the QR sticker sheet) and `assistant.braille.embossing` (the helper's text
file and the embosser's .brf file).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from assistant.commands.helptext import described
from assistant.core.braille.abbreviations import Abbreviation
from assistant.core.cards.card import Deck
from assistant.core.words.entry import BRAILLE_TEXT_FILE, BRF_FILE, braille_labels_written
from assistant.core.words.errors import could_not_write
from assistant.core.words.scans import (
    LABELS_NEED_AN_OUTPUT,
    STICKERS_NEED_PILLOW,
    sticker_sheet_kind,
    sticker_sheet_written,
)


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser(
        "labels",
        help="write QR stickers or braille labels for a deck",
        **described(
            description=(
                "Write what makes a deck readable at the table: a sheet of QR stickers to print (PDF or PNG), every "
                "braille abbreviation as Unicode braille text for a helper, or a braille-ready file for an embosser."
            ),
            examples=[
                ("table-assistant labels uu-2nd --out stickers.pdf", "a sheet of QR stickers, one per copy of a card"),
                ("table-assistant labels llamas --brf labels.brf", "the braille labels of Llamas Unleashed to emboss"),
            ],
        ),
    )
    parser.add_argument("deck_id", metavar="DECK", help="the deck's id, as `deck list` shows it")
    parser.add_argument("--out", type=Path, help="a sheet of QR stickers, FILE.pdf or FILE.png")
    parser.add_argument("--unique", action="store_true", help="one sticker per card instead of one per copy")
    parser.add_argument("--braille", type=Path, metavar="FILE", help="every abbreviation as Unicode braille text")
    parser.add_argument("--brf", type=Path, metavar="FILE.brf", help="a braille-ready file for an embosser")


def run(args: argparse.Namespace) -> int:
    """Write whichever outputs were asked for."""
    from assistant.braille.maps import deck_abbreviations
    from assistant.storage.decks import load_deck
    from assistant.storage.paths import braille_map_dir

    if not (args.out or args.braille or args.brf):
        print(LABELS_NEED_AN_OUTPUT)
        return 2
    deck = load_deck(args.deck_id)
    abbreviations = deck_abbreviations(deck, braille_map_dir())
    status = 0
    if args.out:
        labels = {card_id: entry.text for card_id, entry in abbreviations.items()}
        status |= write_sheet(deck, labels, args.out, unique=args.unique)
    if args.braille or args.brf:
        status |= write_braille_labels(deck, abbreviations, text_path=args.braille, brf_path=args.brf)
    return status


def write_sheet(deck: Deck, abbreviations: dict[str, str], path: Path, unique: bool = False) -> int:
    """Write a deck's sheet of QR stickers as a PDF (all pages) or PNG files (one per page); the exit status.
    `abbreviations`: card id → the braille abbreviation printed under its code."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".pdf", ".png"):
        print(sticker_sheet_kind(str(path)), file=sys.stderr)
        return 2
    try:
        import PIL  # noqa: F401  (Pillow: a dependency, absent only from a hand-made environment)
        import qrcode  # noqa: F401
    except ImportError:
        print(STICKERS_NEED_PILLOW, file=sys.stderr)
        return 2
    from assistant.scanner.stickers import DPI, page_paths, sheet_pages, sheet_version, sticker_size_mm

    pages, stickers = sheet_pages(deck, abbreviations, unique)
    try:
        if suffix == ".pdf":
            pages[0].save(path, "PDF", resolution=DPI, save_all=True, append_images=pages[1:])
            written = [path]
        else:
            written = page_paths(path, len(pages))
            for page, target in zip(pages, written):
                page.save(target, "PNG", dpi=(DPI, DPI))
    except OSError as exc:
        print(could_not_write(str(path), exc.strerror or str(exc)), file=sys.stderr)
        return 2
    width, height = sticker_size_mm(sheet_version(stickers))
    print(sticker_sheet_written(len(stickers), len(pages), [str(p) for p in written], width, height))
    return 0


def write_braille_labels(
    deck: Deck, abbreviations: dict[str, Abbreviation], text_path: Path | None, brf_path: Path | None
) -> int:
    """Write the helper's text file and/or the embosser's .brf file for a deck; 0 on success, 2 on failure."""
    from assistant.braille.embossing import brf_lines, deck_labels, render_brf, render_text
    from assistant.braille.translate import Translator

    labels = deck_labels(deck, abbreviations, Translator())
    outputs = []
    if text_path:
        outputs.append((text_path, render_text(deck, labels), BRAILLE_TEXT_FILE, "utf-8"))
    if brf_path:
        outputs.append((brf_path, render_brf(brf_lines(labels)), BRF_FILE, "ascii"))
    status = 0
    for path, content, kind, encoding in outputs:
        try:
            path.write_text(content, encoding=encoding, newline="")
        except OSError as exc:
            print(could_not_write(str(path), exc.strerror or str(exc)), file=sys.stderr)
            status = 2
            continue
        print(braille_labels_written(len(labels), str(path), kind))
    return status
