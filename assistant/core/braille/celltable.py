"""Unicode braille cells and a built-in uncontracted (UEB grade 1) table, standard library only.

liblouis does the real translation work (`assistant/braille/translate.py`); this table is what still works when
liblouis is missing, what six-key entry uses to echo a cell as its letter, and what the words module uses to say
how cells read. It covers letters, digits, the capital, number and grade-1 signs and common punctuation.
"""

from __future__ import annotations

from collections.abc import Iterable

#: The first code point of the Unicode braille block: the blank cell, which stands for a space.
BLANK = "\u2800"
#: Dot 6: the next letter is a capital.
CAPITAL_SIGN = "\u2820"
#: Dots 3 4 5 6: the letters a to j that follow are digits.
NUMBER_SIGN = "\u283c"
#: Dots 5 6: the next cell is read uncontracted (grade 1).
GRADE1_SIGN = "\u2830"

# A table (fmt: skip): the alphabet in rows, as braille charts print it, not one letter a line.
_LETTER_DOTS = {
    "a": "1", "b": "12", "c": "14", "d": "145", "e": "15", "f": "124", "g": "1245", "h": "125", "i": "24",
    "j": "245", "k": "13", "l": "123", "m": "134", "n": "1345", "o": "135", "p": "1234", "q": "12345",
    "r": "1235", "s": "234", "t": "2345", "u": "136", "v": "1236", "w": "2456", "x": "1346", "y": "13456",
    "z": "1356",
}  # fmt: skip
_PUNCTUATION_DOTS = {",": "2", ".": "256", "'": "3", "-": "36", "!": "235", "?": "236", ";": "23", ":": "25"}
_DIGIT_LETTERS = "jabcdefghi"  # 0 is written as j, 1 as a, ... 9 as i, after the number sign


def cell(dots: Iterable[int]) -> str:
    """The Unicode braille cell with these dots raised (1 to 8); no dots gives the blank cell."""
    value = 0
    for dot in dots:
        if not 1 <= dot <= 8:
            raise ValueError(f"there is no braille dot {dot}")
        value |= 1 << (dot - 1)
    return chr(0x2800 + value)


def dots_of(braille_cell: str) -> tuple[int, ...]:
    """The raised dots of a Unicode braille cell, in order: "⠃" → (1, 2)."""
    if not is_cell(braille_cell):
        raise ValueError(f"{braille_cell!r} is not a braille cell")
    value = ord(braille_cell) - 0x2800
    return tuple(dot for dot in range(1, 9) if value & (1 << (dot - 1)))


def is_cell(character: str) -> bool:
    """True for one character of the Unicode braille block (U+2800 to U+28FF)."""
    return len(character) == 1 and "\u2800" <= character <= "\u28ff"


def has_cells(text: str) -> bool:
    """True when the text holds at least one braille cell other than the blank."""
    return any(is_cell(ch) and ch != BLANK for ch in text)


_LETTER_CELLS = {letter: cell(int(d) for d in dots) for letter, dots in _LETTER_DOTS.items()}
_PUNCTUATION_CELLS = {mark: cell(int(d) for d in dots) for mark, dots in _PUNCTUATION_DOTS.items()}
_CELL_LETTERS = {c: letter for letter, c in _LETTER_CELLS.items()}
_CELL_PUNCTUATION = {c: mark for mark, c in _PUNCTUATION_CELLS.items()}


def letter_of(braille_cell: str) -> str | None:
    """The letter a cell stands for in grade 1, or None: "⠗" → "r"."""
    return _CELL_LETTERS.get(braille_cell)


def to_cells(text: str) -> str:
    """Uncontracted braille of a text, lower-cased: letters, digits (with the number sign), spaces, punctuation.

    Capitals are not marked: labels and look-ups ignore case. Characters the table does not know are left out.
    """
    out: list[str] = []
    in_number = False
    for ch in text.casefold():
        if ch.isdigit() and ch.isascii():
            if not in_number:
                out.append(NUMBER_SIGN)
                in_number = True
            out.append(_LETTER_CELLS[_DIGIT_LETTERS[int(ch)]])
            continue
        if ch in _LETTER_CELLS:
            if in_number and ch in _DIGIT_LETTERS:
                out.append(GRADE1_SIGN)  # so "2a" is not read as "21"
            out.append(_LETTER_CELLS[ch])
        elif ch.isspace():
            out.append(BLANK)
        elif ch in _PUNCTUATION_CELLS:
            out.append(_PUNCTUATION_CELLS[ch])
        in_number = False
    return "".join(out)


def from_cells(cells: str) -> str:
    """Read cells as uncontracted braille; a cell the table does not know is kept as it is.

    The blank cell and ordinary spaces become spaces; letters and characters other than cells pass through.
    """
    out: list[str] = []
    in_number = False
    capital = False
    for ch in cells:
        if ch == BLANK or ch.isspace():
            out.append(" ")
            in_number = capital = False
        elif ch == NUMBER_SIGN:
            in_number = True
        elif ch == CAPITAL_SIGN:
            capital = True
        elif ch == GRADE1_SIGN:
            in_number = False
        elif ch in _CELL_LETTERS:
            letter = _CELL_LETTERS[ch]
            if in_number and letter in _DIGIT_LETTERS:
                out.append(str(_DIGIT_LETTERS.index(letter)))
                continue
            out.append(letter.upper() if capital else letter)
            in_number = capital = False
        elif ch in _CELL_PUNCTUATION:
            out.append(_CELL_PUNCTUATION[ch])
            in_number = capital = False
        else:
            out.append(ch)
            in_number = capital = False
    return "".join(out)


def cell_key(cells: str) -> str:
    """Cells folded for matching: no spaces, no capital or grade-1 signs at the start of a word.

    Those signs are what typists most often leave out, and leaving them out changes nothing a card name needs.
    Contractions that use the same cells inside a word are kept.
    """
    out: list[str] = []
    word_start = True
    for ch in cells:
        if ch == BLANK or ch.isspace():
            word_start = True
            continue
        if word_start and ch in (CAPITAL_SIGN, GRADE1_SIGN):
            continue
        word_start = False
        out.append(ch)
    return "".join(out)


def count_cells(text: str) -> int:
    """How many cells a text takes in uncontracted braille (spaces included)."""
    return len(to_cells(text))
