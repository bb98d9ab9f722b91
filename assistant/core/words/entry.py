"""Sentences of braille look-up and six-key entry (assistant/braille, assistant/core/braille/sixkey.py)."""

from __future__ import annotations

from collections.abc import Iterable

from assistant.core.braille import celltable
from assistant.core.braille.sixkey import Echo, Heard
from assistant.core.text import clean_untrusted

__all__ = [
    "MAX_QUERY",
    "NOTHING_TYPED",
    "NO_LETTERS",
    "SIXKEY_SPACE",
    "SIXKEY_DOTS_CLEARED",
    "SIXKEY_NOTHING_TO_DELETE",
    "SIXKEY_CHORD_ON",
    "SIXKEY_SPACE_ON",
    "SIXKEY_OFF",
    "query_too_long",
    "query_problem",
    "spoken_query",
    "cell_echo",
    "cell_deleted",
    "sixkey_echo",
    "braille_map_damaged",
    "braille_labels_written",
    "BRAILLE_TEXT_FILE",
    "BRF_FILE",
    "braille_labels_heading",
    "BRAILLE_LABEL_COLUMNS",
    "braille_map_written",
    "braille_map_stale",
    "braille_map_skipped",
    "overrides_damaged",
    "abbreviations_clash",
    "abbreviation_too_long",
    "no_braille_display",
    "braille_display_lost",
    "braille_display_back",
    "braille_display_found",
    "QUIT_ON_KEYBOARD",
    "braille_no_answer_in_time",
    "DISPLAY_KEYS",
]

#: Longer queries are refused with a message: no card name comes close to this length.
MAX_QUERY = 100
NOTHING_TYPED = "Nothing typed. Type a card name or its braille abbreviation."
NO_LETTERS = "That had no letters, digits or braille cells in it. Type a card name or its braille abbreviation."
SIXKEY_SPACE = "space"
SIXKEY_DOTS_CLEARED = "dots cleared"
SIXKEY_NOTHING_TO_DELETE = "nothing to delete"
SIXKEY_CHORD_ON = "Six-key entry: F D S J K L are dots 1 to 6, pressed together for each cell."
SIXKEY_SPACE_ON = "Six-key entry: press the dots of a cell with F D S J K L, then Space."
SIXKEY_OFF = "Six-key entry off: keys type letters again."


def query_too_long(length: int) -> str:
    """Said when a query is far longer than any card name."""
    return f"That is {length} characters, too long for a card name. Type a card name or its braille abbreviation."


def query_problem(query: str) -> str:
    """The message for a query that cannot be looked up at all, or an empty string when it can."""
    stripped = query.replace(celltable.BLANK, " ").strip()  # the blank braille cell is a space
    if not stripped:
        return NOTHING_TYPED
    if len(stripped) > MAX_QUERY:
        return query_too_long(len(stripped))
    text = clean_untrusted(stripped, MAX_QUERY)
    if not any(ch.isalnum() or celltable.has_cells(ch) for ch in text):
        return NO_LETTERS
    return ""


def spoken_query(query: str) -> str:
    """How to name a query in a sentence: as typed, or for braille cells, how they read in uncontracted braille."""
    if not celltable.has_cells(query):
        return clean_untrusted(query, 60)
    reading = clean_untrusted(celltable.from_cells(query), 60)
    if celltable.has_cells(reading) or not reading.strip():
        return "that braille"  # cells with no uncontracted reading: spelling braille patterns aloud helps no one
    return f"{reading}, typed in braille"


def cell_echo(cell: str) -> str:
    """What to say when a six-key cell is finished: its letter, a sign's name, or its dots."""
    letter = celltable.letter_of(cell)
    if letter:
        return letter
    names = {
        celltable.NUMBER_SIGN: "number sign",
        celltable.CAPITAL_SIGN: "capital sign",
        celltable.GRADE1_SIGN: "grade 1 sign",
        " ": "space",
    }
    if cell in names:
        return names[cell]
    return "dots " + " ".join(str(dot) for dot in celltable.dots_of(cell))


def cell_deleted(cell: str) -> str:
    """What to say when Backspace removes a cell."""
    return f"{cell_echo(cell)} deleted"


def sixkey_echo(echoes: Iterable[Echo]) -> str:
    """What six-key entry says after a key, in order ("a", "a deleted", "space"); "" for nothing."""
    said = {
        Heard.SPACE: SIXKEY_SPACE,
        Heard.DOTS_CLEARED: SIXKEY_DOTS_CLEARED,
        Heard.NOTHING_TO_DELETE: SIXKEY_NOTHING_TO_DELETE,
    }
    words = []
    for echo in echoes:
        if echo.heard is Heard.CELL:
            words.append(cell_echo(echo.cell))
        elif echo.heard is Heard.DELETED:
            words.append(cell_deleted(echo.cell))
        else:
            words.append(said[echo.heard])
    return " ".join(words)


def braille_map_damaged(title: str) -> str:
    """Said once when a deck's abbreviation file cannot be used."""
    return f"The braille abbreviations of {title} are damaged, so abbreviations made by the rule are used instead."


def braille_labels_written(count: int, path: str, kind: str) -> str:
    """Printed after writing braille labels."""
    return f"Wrote {count} braille labels to {clean_untrusted(path, 200)} ({kind})."


#: The kinds of braille label file, as `braille_labels_written` names them.
BRAILLE_TEXT_FILE = "Unicode braille text"
BRF_FILE = "braille-ready file"


def braille_labels_heading(title: str, deck_id: str, cards: int, copies: int) -> str:
    """The first line of the helper's braille label file."""
    return f"Braille labels of {title} ({deck_id}): {cards} cards, {copies} copies."


BRAILLE_LABEL_COLUMNS = (
    "Each line: the label in braille, the same in print, the card, its copies, where it is in the .brf file."
)


def braille_map_written(name: str) -> str:
    """The braille map generator wrote a map."""
    return f"wrote braille_map/{name}"


def braille_map_stale(name: str) -> str:
    """The braille map generator's check: a map no longer matches its deck."""
    return f"{name} is out of date: run python -m assistant.commands.braille_maps"


def braille_map_skipped(name: str, problems: str) -> str:
    """The braille map generator left out a deck file that does not load."""
    return f"{name} was skipped, it does not load:\n{problems}"


def overrides_damaged(name: str, problems: str) -> str:
    """A braille map's hand-made overrides do not load."""
    return f"{name}: its [overrides] are damaged, fix them first:\n{problems}"


def abbreviations_clash(deck_id: str, name: str, problems: str) -> str:
    """Two cards of a deck got the same abbreviation."""
    return f"{deck_id}: abbreviations clash, add overrides to {name}:\n{problems}"


def abbreviation_too_long(deck_id: str, card_id: str, text: str) -> str:
    """An abbreviation too long to fit on a card's label."""
    return f"{deck_id}: {card_id}: {text!r} is too long for a card: override it"


def no_braille_display(where: str, reason: str = "") -> str:
    """Said once at start when the braille display was chosen but no BRLTTY answered (`reason`: why it was
    given up, when known); it is looked for until one does (`braille_display_found`)."""
    then = "The app goes on, and shows everything on the display when BRLTTY answers."
    if reason:
        return f"No braille display at {where}: {reason} {then}"
    return f"No braille display answered at {where}: is BRLTTY running? {then}"


#: `quit` typed on the braille display in the plain mode, which reads its lines from the keyboard.
QUIT_ON_KEYBOARD = "The plain mode ends from the keyboard: type quit there, or press Control D."


def braille_no_answer_in_time(seconds: float) -> str:
    """Why a BRLTTY that accepts the connection was given up: it did not answer in time (frozen, or not BRLTTY)."""
    return f"it did not answer within {seconds:g} seconds (BRLTTY may be frozen, or that port is not BRLTTY)."


def braille_display_lost() -> str:
    """Said once when BRLTTY stops answering while the app runs."""
    return (
        "The braille display stopped answering. The app goes on without it, and shows everything on it again when "
        "BRLTTY answers."
    )


def braille_display_found() -> str:
    """Said once when a BRLTTY that did not answer at start (not running yet, or frozen) answers."""
    return "The braille display answered: it shows the game from now on, and the line keys read the earlier answers."


def braille_display_back(missed: int, keys_gone: bool = False) -> str:
    """Said when BRLTTY answers again: the display is back, and how many answers came while it was gone (the
    history on the display holds them); `keys_gone`: BRLTTY was started anew, so keys typed on the display while
    it was gone reached nothing (a line typed on the keyboard meanwhile was answered as always)."""
    said = "The braille display is back."
    if missed:
        answers = "1 answer" if missed == 1 else f"{missed} answers"
        said += f" {answers} came while it was away: the line keys read them in the history."
    if keys_gone:
        said += " Keys typed on it while it was away never reached the app: type them again."
    return said


#: The braille display's help key (BRLTTY's HELP command): its keys, one line each, to pan through.
DISPLAY_KEYS = (
    "Braille display keys: pan left and right read a line on.",
    "Previous and next line move through the answer, the pile and chain, the Stables and the earlier answers.",
    "Previous and next region jump to the start of each; top and bottom go to the first and the last line.",
    "A routing key on a card's name shows the card's text. The information key says whose turn it is.",
    "Type a command on the display's keyboard and press Enter.",
    "A held fact stays until you send a line or press a key that moves the display.",
    "Moves from phones wait, counted in the last status cell: pan right at the end of the answer, or press the "
    "next-unread key, to read the next. A win waiting is read first, marked with an exclamation mark.",
)
