"""Braille labels for deck makers: `table-assistant labels DECK --braille FILE [--brf FILE.brf]`.

The text file is for the sighted helper: one line per card with the label in Unicode braille, the same label in
print, the card's name, its copies and where its labels are in the .brf file. The .brf file is for an embosser:
North American ASCII braille, one label per physical copy and per line, in the same order, 25 lines to a page.
Labels are uncontracted (grade 1): an abbreviation is not a word, and contractions would make it harder to read.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from assistant.braille.maps import load_braille_map, rule_abbreviations
from assistant.braille.translate import Grade, Translator
from assistant.core import words
from assistant.core.cards import Card, Deck
from assistant.storage.decks import load_deck

#: A braille-ready page: 40 cells by 25 lines, the common embosser default.
BRF_WIDTH = 40
BRF_LINES = 25


@dataclass(frozen=True)
class Label:
    """One card's label."""

    card: Card
    text: str
    """The abbreviation in print."""
    cells: str
    """The abbreviation in Unicode braille."""
    brf: str
    """The abbreviation in North American ASCII braille, as a .brf file holds it."""


def deck_labels(deck: Deck, translator: Translator | None = None) -> list[Label]:
    """Every card's label, in deck order; a deck without a map gets the rule's abbreviations."""
    translator = translator or Translator()
    braille_map = load_braille_map(deck)
    abbreviations = braille_map.abbreviations if braille_map else rule_abbreviations(deck)
    labels = []
    for card in deck.cards:
        text = abbreviations[card.id].text
        cells = translator.to_cells(text, Grade.UNCONTRACTED) or ""
        labels.append(Label(card, text, cells, translator.to_brf(cells).rstrip()))
    return labels


def label_lines(label: Label) -> list[str]:
    """One copy's label as .brf lines: a label longer than a line is wrapped onto the next."""
    return [label.brf[i : i + BRF_WIDTH] for i in range(0, max(len(label.brf), 1), BRF_WIDTH)]


def brf_lines(labels: list[Label]) -> list[str]:
    """The embosser's lines: each label once per physical copy."""
    return [line for label in labels for _ in range(label.card.copies) for line in label_lines(label)]


def render_brf(lines: list[str]) -> str:
    """Lines as a braille-ready file: CR LF line ends, a form feed between pages."""
    pages = [lines[i : i + BRF_LINES] for i in range(0, len(lines), BRF_LINES)] or [[]]
    return "\f".join("".join(f"{line}\r\n" for line in page) for page in pages)


def render_text(deck: Deck, labels: list[Label]) -> str:
    """The helper's sheet: which label goes on which card, and where it is in the .brf file."""
    out = [
        f"Braille labels of {deck.info.title} ({deck.id}): {len(labels)} cards, {deck.total_copies} copies.",
        "Each line: the label in braille, the same in print, the card, its copies, where it is in the .brf file.",
        "",
    ]
    line = 0
    for label in labels:
        page, row = divmod(line, BRF_LINES)
        copies = f"{label.card.copies} {'copy' if label.card.copies == 1 else 'copies'}"
        out.append(f"{label.cells}\t{label.text}\t{label.card.name}\t{copies}\tpage {page + 1} line {row + 1}")
        line += len(label_lines(label)) * label.card.copies
    return "\n".join(out) + "\n"


def write_braille_labels(deck_id: str, text_path: Path | None, brf_path: Path | None) -> int:
    """Write the helper's text file and/or the embosser's .brf file for a deck; 0 on success, 2 on failure."""
    deck = load_deck(deck_id)
    translator = Translator()
    labels = deck_labels(deck, translator)
    outputs = []
    if text_path:
        outputs.append((text_path, render_text(deck, labels), "Unicode braille text", "utf-8"))
    if brf_path:
        outputs.append((brf_path, render_brf(brf_lines(labels)), "braille-ready file", "ascii"))
    status = 0
    for path, content, kind, encoding in outputs:
        try:
            path.write_text(content, encoding=encoding, newline="")
        except OSError as exc:
            print(f"Could not write {path}: {exc.strerror or exc}.", file=sys.stderr)
            status = 2
            continue
        print(words.braille_labels_written(len(labels), str(path), kind))
    return status
