"""Braille labels for deck makers, as `table-assistant labels DECK --braille FILE [--brf FILE.brf]` writes them
(`assistant/commands/labels.py`).

The text file is for the sighted helper: one line per card with the label in Unicode braille, the same label in
print, the card's name, its copies and where its labels are in the .brf file. The .brf file is for an embosser:
North American ASCII braille, one label per physical copy and per line, in the same order, 25 lines to a page.
Labels are uncontracted (grade 1): an abbreviation is not a word, and contractions would make it harder to read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from assistant.braille.translate import Grade, Translator
from assistant.core.braille.abbreviations import Abbreviation
from assistant.core.cards.card import Card, Deck
from assistant.core.words.entry import BRAILLE_LABEL_COLUMNS, braille_labels_heading

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


def deck_labels(
    deck: Deck, abbreviations: Mapping[str, Abbreviation], translator: Translator | None = None
) -> list[Label]:
    """Every card's label, in deck order, from the deck's abbreviations (`maps.deck_abbreviations`)."""
    translator = translator or Translator()
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
        braille_labels_heading(deck.info.title, deck.id, len(labels), deck.total_copies),
        BRAILLE_LABEL_COLUMNS,
        "",
    ]
    line = 0
    for label in labels:
        page, row = divmod(line, BRF_LINES)
        copies = f"{label.card.copies} {'copy' if label.card.copies == 1 else 'copies'}"
        out.append(f"{label.cells}\t{label.text}\t{label.card.name}\t{copies}\tpage {page + 1} line {row + 1}")
        line += len(label_lines(label)) * label.card.copies
    return "\n".join(out) + "\n"
