"""Reading and writing the text of data files: one bounded TOML and JSON reader whose errors carry their line,
and one writer of TOML values.

Every TOML or JSON text the app reads (shipped decks and maps, the owner's imports, settings, each line of a
save) goes through `load_toml` or `load_json`: a text larger than its limit, or nested deeper than `MAX_DEPTH`,
is refused before the standard library's recursive parsers see it (600 nested arrays made them raise
RecursionError), and a syntax error becomes a `DataTextError` with its line. Every TOML value the app writes
goes through `toml_value`, which round-trips any text (a voice name with U+E0001 comes back the same).
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

#: The deepest nesting of arrays and tables accepted; the shipped files nest 3 deep.
MAX_DEPTH = 32
#: The largest data file read, in characters (the largest shipped deck is about 60 000).
MAX_CHARACTERS = 2_000_000


class DataTextError(ValueError):
    """A data text that cannot be read, with the line (from 1) where the problem is."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


def load_toml(text: str, limit: int = MAX_CHARACTERS) -> dict[str, Any]:
    """The TOML document, bounded in size and depth; `DataTextError` saying the line otherwise."""
    _check_bounds(text, limit)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        reason = re.sub(r" \(at line \d+, column \d+\)", "", str(exc))
        line = int(match.group(1)) if match else text.count("\n", 0, len(text.rstrip("\n"))) + 1  # at the end
        raise DataTextError(line, f"not valid TOML: {reason}") from None
    except ValueError:  # int() refuses a whole number of more than 4,300 digits
        raise DataTextError(_long_number_line(text), _LONG_NUMBER) from None
    except RecursionError:  # pragma: no cover - the depth check comes first; kept as the last guard
        raise DataTextError(1, f"nested more than {MAX_DEPTH} deep") from None


def load_json(text: str, limit: int = MAX_CHARACTERS) -> Any:
    """The JSON value, bounded in size and depth; `DataTextError` saying the line otherwise."""
    _check_bounds(text, limit)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataTextError(exc.lineno, f"not valid JSON: {exc.msg}") from None
    except ValueError:  # int() refuses a whole number of more than 4,300 digits
        raise DataTextError(_long_number_line(text), _LONG_NUMBER) from None
    except RecursionError as exc:  # pragma: no cover - the depth check comes first; kept as the last guard
        raise DataTextError(1, f"not readable: {exc}") from None


_LONG_NUMBER = "a number has too many digits"


def _long_number_line(text: str) -> int:
    """The line of the first run of digits too long for int(), or 1."""
    found = re.search(r"[0-9_]{4300,}", text)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def _check_bounds(text: str, limit: int) -> None:
    if len(text) > limit:
        raise DataTextError(1, f"longer than {limit} characters")
    depth, line = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise DataTextError(line, f"nested more than {MAX_DEPTH} deep")


_TOKENS = re.compile(r'[\[\]{}\n"\'#]')


def nesting_depth(text: str) -> tuple[int, int]:
    """The deepest nesting of brackets and braces outside strings and comments, and the line where it is.

    A quick scan, not a parser: it only has to bound what the parser will be given.
    """
    depth = deepest = 0
    line = deepest_line = 1
    index, end = 0, len(text)
    while index < end:
        found = _TOKENS.search(text, index)
        if found is None:
            break
        char, index = found.group(), found.end()
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest, deepest_line = depth, line
        elif char in "]}":
            depth = max(depth - 1, 0)
        elif char == "#":
            newline = text.find("\n", index)
            index = end if newline < 0 else newline
        else:  # a string: skip to its closing quote (escapes only in double-quoted strings)
            close = _string_end(text, index, char)
            line += text.count("\n", index, close)
            index = close
    return deepest, deepest_line


def _string_end(text: str, start: int, quote: str) -> int:
    """The index just after the string that starts at `start` (after its opening quote)."""
    index = start
    while True:
        found = text.find(quote, index)
        if found < 0:
            return len(text)
        before = found
        while quote == '"' and before > start and text[before - 1] == "\\":
            before -= 1
        if (found - before) % 2:  # an escaped quote: the string goes on
            index = found + 1
            continue
        return found + 1


def toml_string(text: str) -> str:
    """A TOML basic string holding exactly `text` (a lone surrogate, which TOML cannot hold, becomes U+FFFD)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char.isprintable() and not "\ud800" <= char <= "\udfff":
            out.append(char)
        elif "\ud800" <= char <= "\udfff":
            out.append("\ufffd")
        else:
            code = ord(char)
            out.append(f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
    return '"' + "".join(out) + '"'


def toml_value(value: bool | int | str | list[str] | tuple[str, ...]) -> str:
    """A TOML value: a boolean, a whole number, a string, or a list of strings."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    return "[" + ", ".join(toml_string(item) for item in value) + "]"
