"""The one JSON writing of every benchmark's log and report: typed values by their names.

The app's values travel as types (a move's kind is `MoveKind`, a fact is an `About`), and a benchmark that writes
them to its log (a line a reply, its moves) or prints its figures as JSON writes them here: an enum by its name
(`MoveKind.END` as "END", read back with `MoveKind["END"]`), a dataclass as the object of its fields, a path as its
text, a set or a tuple as a list, a mapping's keys by the same rules. Anything else JSON cannot hold still raises
`TypeError`: a new kind of value is decided here, once, never by a `default=str` that would hide it.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any


def plain(value: Any) -> Any:
    """`value` as JSON holds it: enums by their names, dataclasses as their fields, paths as text, sets and tuples
    as lists, a mapping's keys likewise (then as text, as JSON keys are); everything else as it is."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {_key(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(item) for item in value), key=repr)
    if isinstance(value, PurePath):
        return str(value)
    return value  # (json says what it cannot hold)


def _key(key: Any) -> Any:
    key = plain(key)
    return key if isinstance(key, str | int | float | bool) or key is None else json.dumps(key)


def dumps(value: Any, **options: Any) -> str:
    """`json.dumps` of `plain(value)` (`options`: `json.dumps`'s own, as `indent`)."""
    return json.dumps(plain(value), **options)
