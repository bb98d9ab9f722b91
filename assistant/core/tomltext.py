"""The one TOML writer and the one bounded reader of TOML and JSON text from the player's own files.

Pure (standard library only). Reading a file, writing it safely and setting a damaged one aside is
`assistant/storage/files.py`.

- `toml_string` / `toml_value` write a value as TOML text that reads back as the same value, every character
  included (a control or format character, a private-use tag such as U+E0001, a lone surrogate is escaped).
- `load_toml` / `load_json` refuse text that is too large or nested too deeply *before* parsing (tomllib and
  json recurse, so a file nested a few thousand deep would otherwise end the app), and turn every parse error
  into a `DataFileError` naming the file and the line.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

#: The deepest nesting of arrays and tables (or JSON arrays and objects) accepted; our files need 3 at most.
MAX_DEPTH = 32
#: The largest TOML file read, in characters (a full imported deck is about 100 KB).
MAX_TOML_CHARS = 2_000_000


class DataFileError(ValueError):
    """A data file that cannot be read: its name, the line (from 1) and what is wrong."""

    def __init__(self, path: str, line: int, message: str):
        self.path = path
        self.line = line
        self.message = message
        super().__init__(f"{path}:{line}: {message}")


# Strings and comments, so brackets inside them are not counted as nesting.
_SKIP = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')
_BRACKETS = re.compile(r"[\[\]{}]")


def too_deep(text: str, limit: int = MAX_DEPTH) -> int:
    """The line (from 1) where nesting of brackets and braces first goes deeper than `limit`; 0 when it never does.

    Strings and comments are skipped; a quote this rough scan misreads can only make it count fewer brackets
    than tomllib and json see, or more inside a string, which at worst refuses a file nobody writes by hand."""
    if text.count("[") + text.count("{") <= limit:
        return 0  # cannot be too deep: the common case costs two counts
    stripped = _SKIP.sub(lambda m: "\n" * m.group().count("\n"), text)
    depth = 0
    for match in _BRACKETS.finditer(stripped):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                return stripped.count("\n", 0, match.start()) + 1
        elif depth:
            depth -= 1
    return 0


def _check_bounds(text: str, path: str, max_chars: int, limit: int) -> None:
    if len(text) > max_chars:
        raise DataFileError(path, 1, f"is too large ({len(text):,} characters; at most {max_chars:,} are read)")
    line = too_deep(text, limit)
    if line:
        raise DataFileError(path, line, f"is nested too deeply (more than {limit} levels)")


def load_toml(
    text: str, path: str = "<toml>", max_chars: int = MAX_TOML_CHARS, limit: int = MAX_DEPTH
) -> dict[str, Any]:
    """TOML text as a dict; `DataFileError` with the file and line when it is too large, too deep or not TOML."""
    _check_bounds(text, path, max_chars, limit)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        line = int(match.group(1)) if match else text.count("\n") + 1 if "end of document" in str(exc) else 1
        raise DataFileError(path, line, f"not valid TOML ({exc})") from None
    except RecursionError:  # dotted keys can nest without brackets: still never a traceback
        raise DataFileError(path, 1, f"is nested too deeply (more than {limit} levels)") from None


def load_json(text: str, path: str = "<json>", line: int = 1, max_chars: int = 1_000_000) -> Any:
    """JSON text (one line of a save, say) as data; `DataFileError` naming `path` and `line` when it is too
    large, too deep or not JSON."""
    _check_bounds(text, path, max_chars, MAX_DEPTH)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise DataFileError(path, line, f"not valid JSON ({exc})") from None


def line_of(exc: BaseException) -> int:
    """The line a parse error names ("... (at line 3, column 1)"), or 1."""
    if isinstance(exc, DataFileError):
        return exc.line
    match = re.search(r"line (\d+)", str(exc))
    return int(match.group(1)) if match else 1


_SAFE = re.compile(r'[^"\\\x00-\x1f\x7f-\x9f\ud800-\udfff]')


def toml_string(text: str) -> str:
    """A TOML basic string that reads back as exactly `text`.

    Printable characters are written as they are; quotes, backslashes, controls, format characters,
    private-use and unassigned characters and lone surrogates are escaped as \\uXXXX or \\UXXXXXXXX (the
    eight-digit form above U+FFFF: a four-digit escape there would read back as two characters). A lone
    surrogate cannot be stored in TOML at all, so it is written as U+FFFD.
    """
    out = ['"']
    for char in text:
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF:
            out.append("\\uFFFD")
        elif char in '"\\':
            out.append("\\" + char)
        elif char.isprintable() and _SAFE.match(char):
            out.append(char)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04X}")
        else:
            out.append(f"\\U{code:08X}")
    out.append('"')
    return "".join(out)


def toml_value(value: object) -> str:
    """A bool, int, float, string or list of them as TOML text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
