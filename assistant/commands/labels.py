"""`table-assistant labels DECK`: printable QR stickers and braille labels for a deck."""

from __future__ import annotations

from pathlib import Path


def add_parser(subparsers) -> None:
    """Register the sub-command."""
    parser = subparsers.add_parser("labels", help="write QR stickers or braille labels for a deck")
    parser.add_argument("deck_id", metavar="DECK")
    parser.add_argument("--out", type=Path, help="a sheet of QR stickers, FILE.pdf or FILE.png")
    parser.add_argument("--unique", action="store_true", help="one sticker per card instead of one per copy")
    parser.add_argument("--braille", type=Path, metavar="FILE", help="every abbreviation as Unicode braille text")
    parser.add_argument("--brf", type=Path, metavar="FILE.brf", help="a braille-ready file for an embosser")


def run(args) -> int:
    """Write whichever outputs were asked for."""
    if not (args.out or args.braille or args.brf):
        print("Say what to write: --out FILE.pdf or FILE.png for QR stickers, --braille FILE or --brf FILE.brf.")
        return 2
    status = 0
    if args.out:
        from assistant.scanner.labels import write_sheet

        status |= write_sheet(args.deck_id, args.out, unique=args.unique)
    if args.braille or args.brf:
        from assistant.braille.labels import write_braille_labels

        status |= write_braille_labels(args.deck_id, text_path=args.braille, brf_path=args.brf)
    return status
