"""The braille map format: one TOML file per deck (`braille_map/<deck>.toml`), parsed, validated and written.

A map holds the deck's hand-written `[overrides]` and the `[abbreviations]` the generator wrote from the rule
(`assistant/core/braille/abbreviations.py`) and those overrides. Validation collects every problem before failing,
each as
`file:line: card-id: field: problem`, like the card files. The format is described in docs/braille.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from assistant.core.braille.abbreviations import Abbreviation, Override, key_of
from assistant.core.cards.card import Deck
from assistant.core.cards.cardfile import CardDataError, Problem
from assistant.core.datatext import DataTextError, load_toml, toml_string

TOP_KEYS = {"map", "overrides", "abbreviations"}
MAP_KEYS = {"deck"}
OVERRIDE_KEYS = {"abbreviation", "aliases", "reason"}
ENTRY_KEYS = {"abbreviation", "aliases"}


class BrailleMapError(CardDataError):
    """A braille map file is broken; `problems` lists every problem found, in file order."""


@dataclass(frozen=True)
class BrailleMap:
    """One deck's abbreviations and the overrides they were made with."""

    deck: str
    abbreviations: dict[str, Abbreviation] = field(default_factory=dict)
    """Card id → what is embossed on it and the aliases, in deck order."""
    overrides: dict[str, Override] = field(default_factory=dict)
    """Card id → the hand-written exception to the rule."""
    path: str = ""


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_\-]+)\s*\]")
_KEY = re.compile(r"""^\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_\-]+))\s*=""")


def _line_index(text: str) -> dict[tuple[str, str], int]:
    """(table, key) → line number (1-based); the format is flat, so a line scan finds every key."""
    where: dict[tuple[str, str], int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = header.group(1)
            where.setdefault(("", table), number)
            continue
        key = _KEY.match(line)
        if key:
            where.setdefault((table, next(g for g in key.groups() if g is not None)), number)
    return where


Report = Callable[[str, str, str, str, str], None]
"""Notes one problem of a map: its table, its key, the card, the field, what is wrong."""


def _read(text: str, path: str) -> tuple[dict[str, Any], list[Problem], Report]:
    """The TOML data, the list problems go to, and `report(table, key, card, field, message)` adding one."""
    try:
        data = load_toml(text)
    except DataTextError as exc:
        raise BrailleMapError([Problem(path, exc.line, "-", "toml", exc.message)]) from None
    where = _line_index(text)
    problems: list[Problem] = []

    def report(table: str, key: str, card: str, field_name: str, message: str) -> None:
        line = where.get((table, key)) or where.get(("", table)) or 1
        problems.append(Problem(path, line, card, field_name, message))

    return data, problems, report


def parse_braille_map(text: str, deck: Deck, path: str = "<braille map>") -> BrailleMap:
    """Parse and validate a deck's map against the deck; raise `BrailleMapError` listing every problem."""
    data, problems, report = _read(text, path)

    for key in sorted(set(data) - TOP_KEYS):
        report("", key, "-", key, "unknown table (expected [map], [overrides] and [abbreviations])")
    meta = data.get("map")
    if not isinstance(meta, dict):
        report("", "map", "-", "map", "missing [map] table")
        meta = {}
    for key in sorted(set(meta) - MAP_KEYS):
        report("map", key, "-", key, "unknown key")
    if meta.get("deck") != deck.id and "map" in data:
        report("map", "deck", "-", "deck", f"{meta.get('deck')!r} should be {deck.id!r}, the deck this file is for")

    card_ids = {card.id for card in deck.cards}
    overrides = _parse_overrides(data.get("overrides", {}), card_ids, report)
    abbreviations = _parse_entries(data.get("abbreviations"), deck, card_ids, report)

    for card_id, override in overrides.items():
        entry = abbreviations.get(card_id)
        if entry is None:
            continue
        if override.abbreviation and override.abbreviation != entry.text:
            message = f"{entry.text!r} differs from the override {override.abbreviation!r}: run the generator"
            report("abbreviations", card_id, card_id, "abbreviation", message)
        for alias in override.aliases:
            if alias not in entry.aliases:
                report(
                    "abbreviations",
                    card_id,
                    card_id,
                    "aliases",
                    f"the override's alias {alias!r} is missing: run the generator",
                )

    if problems:
        problems.sort(key=lambda p: p.line)
        raise BrailleMapError(problems)
    return BrailleMap(deck.id, abbreviations, overrides, path)


def parse_overrides(text: str, deck: Deck, path: str = "<braille map>") -> dict[str, Override]:
    """Only the hand-written `[overrides]` of a map (what the generator starts from); `BrailleMapError` if broken."""
    data, problems, report = _read(text, path)
    overrides = _parse_overrides(data.get("overrides", {}), {card.id for card in deck.cards}, report)
    if problems:
        raise BrailleMapError(problems)
    return overrides


def _text_list(value: object) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
        return tuple(v.strip() for v in value)
    return None


def _card_entries(
    table: dict[str, object], section: str, card_ids: set[str], keys: set[str], shape: tuple[str, str], report: Report
) -> Iterator[tuple[str, dict[str, Any], Callable[[str, str], None]]]:
    """Each entry of table `section` (keyed by card id) that names a card of the deck and is a table, with its unknown
    keys reported, and `bad(field, message)` reporting a problem of it. An entry naming no card, or one that is not a
    table (reported under `shape`'s field, with its example), is reported and passed over."""
    for card_id, value in table.items():

        def bad(field_name: str, message: str, card_id: str = card_id) -> None:
            report(section, card_id, card_id, field_name, message)

        if card_id not in card_ids:
            bad("id", "no card of the deck has this id")
            continue
        if not isinstance(value, dict):
            bad(shape[0], f"must be a table such as {shape[1]}")
            continue
        for key in sorted(set(value) - keys):
            bad(key, "unknown key")
        yield card_id, value, bad


def _parse_overrides(table: object, card_ids: set[str], report: Report) -> dict[str, Override]:
    if not isinstance(table, dict):
        report("", "overrides", "-", "overrides", "must be a table of card ids")
        return {}
    out: dict[str, Override] = {}
    shape = ("override", '{ abbreviation = "...", reason = "..." }')
    for card_id, value, bad in _card_entries(table, "overrides", card_ids, OVERRIDE_KEYS, shape, report):
        abbreviation = value.get("abbreviation", "")
        if not isinstance(abbreviation, str) or ("abbreviation" in value and not key_of(abbreviation)):
            bad("abbreviation", "must be text with letters or digits")
            abbreviation = ""
        aliases = _text_list(value.get("aliases", []))
        if aliases is None:
            bad("aliases", "must be a list of texts")
            aliases = ()
        reason = value.get("reason", "")
        if not isinstance(reason, str) or not reason.strip():
            bad("reason", "say why the rule's abbreviation will not do")
        if not abbreviation and not aliases:
            bad("override", "gives neither an abbreviation nor aliases")
        out[card_id] = Override(abbreviation.strip(), aliases, reason.strip() if isinstance(reason, str) else "")
    return out


def _parse_entries(table: object, deck: Deck, card_ids: set[str], report: Report) -> dict[str, Abbreviation]:
    if not isinstance(table, dict):
        report("", "abbreviations", "-", "abbreviations", "missing [abbreviations] table of card ids")
        return {}
    owners: dict[str, str] = {}
    out: dict[str, Abbreviation] = {}
    shape = ("abbreviation", '{ abbreviation = "ug rainbow aura" }')
    for card_id, value, bad in _card_entries(table, "abbreviations", card_ids, ENTRY_KEYS, shape, report):
        text = value.get("abbreviation")
        if not isinstance(text, str) or not key_of(text):
            bad("abbreviation", "missing, or has no letters or digits")
            continue
        aliases = _text_list(value.get("aliases", []))
        if aliases is None:
            bad("aliases", "must be a list of texts")
            continue
        for form in (text, *aliases):
            key = key_of(form)
            first = owners.setdefault(key, card_id)
            if first != card_id:
                bad("abbreviation" if form == text else "aliases", f"{form!r} is also used for {first}")
        out[card_id] = Abbreviation(card_id, text.strip(), aliases)
    for card in deck.cards:
        if card.id not in table:
            report("", "abbreviations", card.id, "abbreviation", "this card has none: run the generator")
    return out


def render_braille_map(deck: Deck, abbreviations: Mapping[str, Abbreviation], overrides: Mapping[str, Override]) -> str:
    """The text of a deck's map file, in deck order; what the generator writes and the tests compare."""
    lines = [
        f"# Braille abbreviations of {deck.info.title} (deck {deck.id}).",
        f"# Written by `python -m assistant.commands.braille_maps` from card_texts/{deck.id}.toml"
        " and [overrides] below.",
        "# Edit [overrides] by hand, then run the generator: it rewrites [abbreviations]. See docs/braille.md.",
        "",
        "[map]",
        f"deck = {toml_string(deck.id)}",
        "",
        "[overrides]",
    ]
    for card in deck.cards:
        override = overrides.get(card.id)
        if override is None:
            continue
        parts = []
        if override.abbreviation:
            parts.append(f"abbreviation = {toml_string(override.abbreviation)}")
        if override.aliases:
            parts.append(f"aliases = [{', '.join(toml_string(a) for a in override.aliases)}]")
        parts.append(f"reason = {toml_string(override.reason)}")
        lines.append(f"{card.id} = {{ {', '.join(parts)} }}")
    lines += ["", "[abbreviations]"]
    for card in deck.cards:
        entry = abbreviations[card.id]
        parts = [f"abbreviation = {toml_string(entry.text)}"]
        if entry.aliases:
            parts.append(f"aliases = [{', '.join(toml_string(a) for a in entry.aliases)}]")
        lines.append(f"{card.id} = {{ {', '.join(parts)} }}")
    return "\n".join(lines) + "\n"
