"""Planning `braille_map/<deck>.toml` for every shipped deck; `python -m assistant.commands.braille_maps [--check]`
writes or checks them (`assistant/commands/braille_maps.py`).

Each map is made by the rule (`assistant/core/braille/abbreviations.py`) from the deck's card file and the hand-written
`[overrides]` already in the map. Decks that can be played together must not share a key, so they are made in
order, each one avoiding the keys of those before it: per game, the base decks (each on its own, since base decks
are not combined), then the expansions, each avoiding every base deck it can be added to and the expansions
before it that share one of those bases.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from assistant.core.braille.abbreviations import (
    Abbreviation,
    AbbreviationClash,
    Override,
    assign,
    is_too_long,
    keys_in_use,
)
from assistant.core.braille.mapfile import BrailleMapError, parse_overrides, render_braille_map
from assistant.core.cards.card import Deck, normalize
from assistant.core.words.entry import abbreviation_too_long, abbreviations_clash, overrides_damaged


@dataclass
class Plan:
    """What the generator would write, and what stands in its way."""

    texts: dict[Path, str] = field(default_factory=dict)
    """Map file → its new text."""
    errors: list[str] = field(default_factory=list)
    """Clashes, damaged files: the maps concerned are not written."""
    warnings: list[str] = field(default_factory=list)
    """Labels longer than a card allows: each wants an override."""


def generation_order(decks: list[Deck]) -> list[tuple[Deck, list[Deck]]]:
    """Each deck with the decks whose keys it must avoid, in the order they are made."""
    order: list[tuple[Deck, list[Deck]]] = []
    for game in sorted({deck.info.game for deck in decks}):
        of_game = [deck for deck in decks if deck.info.game == game]
        bases = sorted((d for d in of_game if d.info.kind == "base"), key=lambda d: d.id)
        others = sorted((d for d in of_game if d.info.kind != "base"), key=lambda d: d.id)
        order += [(base, []) for base in bases]
        for index, deck in enumerate(others):
            mine = [base for base in bases if deck.info.adds_to(base.info)] or bases
            # expansions played on a common base deck can be on the table together
            before = [d for d in others[:index] if any(d.info.adds_to(base.info) for base in mine)]
            order.append((deck, mine + before))
    return order


def plan_maps(decks: list[Deck], folder: Path) -> Plan:
    """The text of every deck's map in the maps' `folder`, made from the rule and the overrides in the existing
    files."""
    plan = Plan()
    made: dict[str, dict[str, Abbreviation]] = {}
    for deck, avoid in generation_order(decks):
        path = folder / f"{deck.id}.toml"
        overrides: dict[str, Override] = {}
        if path.exists():
            try:
                overrides = parse_overrides(path.read_text(encoding="utf-8"), deck, str(path))
            except BrailleMapError as exc:
                plan.errors.append(overrides_damaged(path.name, str(exc)))
                continue
        taken: dict[str, str] = {}
        for other in avoid:
            taken.update(keys_in_use(made.get(other.id, {}).values()))
            for card in other.cards:
                taken.setdefault(normalize(card.name), card.id)
        try:
            abbreviations = assign(deck.cards, deck.info.vocabulary, overrides, taken)
        except AbbreviationClash as exc:
            plan.errors.append(abbreviations_clash(deck.id, path.name, str(exc)))
            continue
        made[deck.id] = abbreviations
        for entry in abbreviations.values():
            if is_too_long(entry.text):
                plan.warnings.append(abbreviation_too_long(deck.id, entry.card_id, entry.text))
        plan.texts[path] = render_braille_map(deck, abbreviations, overrides)
    return plan
