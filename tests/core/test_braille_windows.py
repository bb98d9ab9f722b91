"""No window break on a braille display cuts a word that fits a window: over every card text of every shipped deck
and every reply of two whole games (Unstable Unicorns with phones' moves, the Llamas game of
tests/fixtures/llamas_game.txt), at 12, 14, 20, 40 and 80 cells, in grade 1 and (with liblouis) grade 2. A word
longer than a window is cut at the window's end, the only place it can be."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from llamas_game import game_lines

from assistant.commands.app import table_session
from assistant.core.braille import celltable
from assistant.core.braille.display import BrailleView
from assistant.core.braille.held import Line
from assistant.core.language.device import DeviceMove
from assistant.core.words.cardtext import card_lines
from assistant.core.words.entry import DISPLAY_KEYS
from assistant.storage.decks import combine, load_all_decks, load_card_set
from assistant.ui.braille_display import status_cells_for

WIDTHS = (12, 14, 20, 40, 80)
PHONE_GAME: list[tuple[str, DeviceMove] | str] = [
    "new game Ana Ben Cy babies red pink narwhal win 3",
    ("Ana", DeviceMove("draw")),
    ("Ana", DeviceMove("play", card="rainbow-aura")),
    ("Ben", DeviceMove("neigh", on="rainbow-aura")),
    ("Cy", DeviceMove("resolve", on="rainbow-aura")),
    ("Ana", DeviceMove("end")),
    "draw",
    "play ginormous unicorn",
    "resolve",
    "end turn",
    ("Cy", DeviceMove("draw")),
    ("Cy", DeviceMove("end")),
    "tally",
    "missed",
    "history",
    "help",
    "whose turn",
    "status",
]


def card_texts() -> Iterator[str]:
    decks, _errors = load_all_decks()
    for deck in decks:
        cards = combine([deck])
        for card in cards:
            yield from card_lines(card, cards.vocabulary, cards.copies_known(card))


def reply_texts() -> Iterator[str]:
    session = table_session(load_card_set("uu-2nd"))
    for step in PHONE_GAME:
        if isinstance(step, str):
            reply = session.handle(step)
        else:
            reply = session.phone_desk.device_move(*step).reply
        if reply is not None:
            yield from reply.lines
    llamas = table_session(load_card_set("llamas"))
    for line in game_lines():
        yield from llamas.handle(line).lines
    yield from DISPLAY_KEYS


def translations() -> list[tuple[str, Callable[[str], str]]]:
    from assistant.braille.translate import Grade, Translator

    translator = Translator()
    found: list[tuple[str, Callable[[str], str]]] = [("grade 1", celltable.to_cells)]
    if translator.has_liblouis:
        found.append(("grade 2", lambda text: translator.to_cells(text, Grade(2)) or ""))
    return found


def cut_words(view: BrailleView, line: Line) -> list[str]:
    """The words a break of the line's windows cuts that would fit a window whole."""
    cells, width = line.cells, view.text_width
    cut = []
    for start in view.windows(line)[1:]:
        if cells[start - 1] == celltable.BLANK or cells[start] == celltable.BLANK:
            continue  # a break between words
        first = cells.rfind(celltable.BLANK, 0, start) + 1
        after = cells.find(celltable.BLANK, start)
        word = cells[first : after if after >= 0 else len(cells)]
        if len(word) <= width:
            cut.append(celltable.from_cells(word))
    return cut


@pytest.mark.parametrize("width", WIDTHS)
def test_no_window_break_cuts_a_word_that_fits_a_window(width):
    texts = sorted({text for text in (*card_texts(), *reply_texts()) if text.strip()})
    assert len(texts) > 800  # every card's lines and two games' replies
    problems = []
    for grade, translate in translations():
        view = BrailleView(width, translate, status_cells=status_cells_for(width, None))
        for text in texts:
            line = view.make_line(text)
            problems.extend(f"{grade}: {word!r} in {text!r}" for word in cut_words(view, line))
    assert problems == []


def test_a_word_longer_than_a_window_is_cut_at_the_windows_end():
    view = BrailleView(12, status_cells=1)
    line = view.make_line("a supercalifragilisticexpialidocious unicorn")
    assert view.windows(line) == [0, 11, 22, 33]  # "ous unicorn" last
