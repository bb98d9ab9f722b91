"""The braille abbreviation rule: how a card's name becomes the short text embossed on it.

It follows the convention of the braille Llamas Unleashed deck: "Basic" is dropped from Basic cards, and a prefix
says the type — `b` Baby, `m` Magical, `action` Magic, `ug` Upgrade, `dg` Downgrade, `i` Instant (printed as a
capital I; look-ups ignore case). The rest of the rule (see docs/braille.md) keeps labels short enough for a card:

1. the words of the name, lower case, punctuation inside a word removed ("Two-For-One" → "twoforone");
2. without the word the prefix already says ("baby", "basic", "magical"), the creature word ("unicorn",
   "animal") and small filler words ("the", "of", "a", "with"...), unless nothing would be left;
3. while the label is longer than `MAX_CELLS` braille cells, its first word is dropped (English names end in
   the word that says what the thing is: "Blatant Thievery" → "thievery"); a single word left too long is cut,
   and a label cut down to the creature word alone is not used;
4. where two cards of a deck, or of the decks that can be played together, end up alike (case, spaces and
   punctuation ignored), each of them steps back: first to step 3 with the creature word kept, then to the
   whole name of step 1;
5. an override written by hand wins over all of this; what the rule cannot make unique, or short enough,
   needs one.

The whole name of step 1 is kept as an alias when it differs and no other card uses it, so a player who types
it is understood too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from assistant.core.braille import celltable
from assistant.core.cards.card import Card, CardType, Vocabulary, normalize

#: The type prefixes of the braille deck's convention.
TYPE_PREFIXES: dict[CardType, str] = {
    CardType.BABY: "b",
    CardType.BASIC: "",
    CardType.MAGICAL: "m",
    CardType.MAGIC: "action",
    CardType.UPGRADE: "ug",
    CardType.DOWNGRADE: "dg",
    CardType.INSTANT: "i",
}
#: The words a type prefix already says, left out of the rest of the label.
TYPE_WORDS: dict[CardType, frozenset[str]] = {
    CardType.BABY: frozenset({"baby", "babies"}),
    CardType.BASIC: frozenset({"basic"}),
    CardType.MAGICAL: frozenset({"magical"}),
}
#: Words that tell cards apart too little to be worth embossing.
FILLER_WORDS = frozenset({"a", "an", "the", "of", "on", "with", "and", "for", "in", "to", "at", "by", "is"})
#: The most cells a label may take: two lines of ten cells fit across a playing card.
MAX_CELLS = 20
#: A single word is never cut shorter than this.
CUT_TO = 4


@dataclass(frozen=True)
class Abbreviation:
    """What is embossed on one card, and what else a player may type for it."""

    card_id: str
    text: str
    """The label: "ug rainbow aura"."""
    aliases: tuple[str, ...] = ()
    """Other forms understood for this card (the long form, hand-written extras)."""

    @property
    def keys(self) -> tuple[str, ...]:
        """The label and every alias."""
        return (self.text, *self.aliases)


@dataclass(frozen=True)
class Override:
    """A hand-written exception to the rule for one card."""

    abbreviation: str = ""
    """Replaces the rule's label when not empty."""
    aliases: tuple[str, ...] = ()
    """Added to the aliases."""
    reason: str = ""
    """Why the rule's label would not do (kept in the file for the next deck maker)."""


class AbbreviationClash(ValueError):
    """Two cards would share a label; `clashes` maps each shared key to the card ids."""

    def __init__(self, clashes: dict[str, list[str]]):
        self.clashes = clashes
        lines = [f"{', '.join(ids)} would all be {key!r}: add an override" for key, ids in clashes.items()]
        super().__init__("\n".join(lines))


def name_words(name: str) -> list[str]:
    """A name's words in lower case, accents and punctuation inside words removed: "Dragon's Fire" → dragons fire."""
    folded = unicodedata.normalize("NFKD", name).casefold()
    pieces = (re.sub(r"[^a-z0-9]", "", token) for token in re.split(r"[\s()\[\],/&]+", folded))
    return [piece for piece in pieces if piece]


def long_form(card: Card) -> str:
    """Step 1 of the rule, with the prefix: "Baby Unicorn (Red)" → "b unicorn red"."""
    return _join(TYPE_PREFIXES[card.type], _untyped_words(card))


def _untyped_words(card: Card) -> list[str]:
    """The name's words without the one the type prefix says ("baby", "basic", "magical")."""
    all_words = name_words(card.name)
    return [w for w in all_words if w not in TYPE_WORDS.get(card.type, ())] or all_words


def short_form(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """Steps 1 to 3 of the rule: the label a card gets when nothing else in its deck looks like it."""
    return label_choices(card, vocabulary)[0]


def label_choices(card: Card, vocabulary: Vocabulary = Vocabulary.UNICORN) -> list[str]:
    """The labels step 4 tries for a card, in order: short, short with the creature word, the whole name."""
    prefix = TYPE_PREFIXES[card.type]
    creature = {vocabulary.creature.casefold(), vocabulary.creature.casefold() + "s"}
    words = _untyped_words(card)
    kept = [w for w in words if w not in creature and w not in FILLER_WORDS]
    with_creature = [w for w in words if w not in FILLER_WORDS] or words
    choices = [_fit(prefix, kept or with_creature), _fit(prefix, with_creature), long_form(card)]
    # A label cut down to the creature word alone ("m unicorn") says nothing about the card.
    useful = [c for c in choices if set(c.split()[1 if prefix else 0 :]) - creature] or choices
    return list(dict.fromkeys(useful))


def is_too_long(text: str) -> bool:
    """True when a label takes more than `MAX_CELLS` cells of uncontracted braille."""
    return celltable.count_cells(text) > MAX_CELLS


def _fit(prefix: str, words: Sequence[str]) -> str:
    words = list(words)
    while len(words) > 1 and is_too_long(_join(prefix, words)):
        words.pop(0)
    label = _join(prefix, words)
    while is_too_long(label) and len(words[0]) > CUT_TO:
        words[0] = words[0][:-1]
        label = _join(prefix, words)
    return label


def key_of(text: str) -> str:
    """How labels are compared: case, spaces and punctuation ignored."""
    return normalize(text)


def assign(
    cards: Sequence[Card],
    vocabulary: Vocabulary = Vocabulary.UNICORN,
    overrides: Mapping[str, Override] | None = None,
    taken: Mapping[str, str] | None = None,
) -> dict[str, Abbreviation]:
    """Give every card of a deck its label by the rule (steps 1 to 5), in card order.

    `taken` maps the keys of decks this one can be played with to their card ids: a label equal to one of them
    is a clash too. Raises `AbbreviationClash` when the rule and the overrides cannot make every label unique.
    """
    overrides = overrides or {}
    taken = dict(taken or {})
    # A card's name and id are keys a player may type, so another card's label must not equal them.
    for card in cards:
        for text in (card.name, card.id):
            taken.setdefault(key_of(text), card.id)

    choices: dict[str, list[str]] = {}
    for card in cards:
        override = overrides.get(card.id)
        if override and override.abbreviation:
            choices[card.id] = [override.abbreviation]
        else:
            choices[card.id] = label_choices(card, vocabulary)
    step = {card.id: 0 for card in cards}

    def chosen() -> dict[str, str]:
        return {card_id: options[step[card_id]] for card_id, options in choices.items()}

    while True:
        labels = chosen()
        clashes = _clashes(labels, taken)
        # Only a card whose own label clashes steps back; a name it clashes with cannot change.
        movable = {
            card_id
            for key, ids in clashes.items()
            for card_id in ids
            if card_id in labels and key_of(labels[card_id]) == key and step[card_id] + 1 < len(choices[card_id])
        }
        if not clashes or not movable:
            break
        for card_id in movable:
            step[card_id] += 1
    if clashes:
        raise AbbreviationClash(clashes)

    used = {key_of(text): card_id for card_id, text in labels.items()}
    result: dict[str, Abbreviation] = {}
    for card in cards:
        text = labels[card.id]
        override = overrides.get(card.id)
        extra = list(override.aliases) if override else []
        aliases: list[str] = []
        for alias in [long_form(card), *extra]:
            key = key_of(alias)
            owner = used.get(key) or taken.get(key)
            if alias in extra and owner not in (None, card.id):
                raise AbbreviationClash({key: [card.id, owner]})
            if key and owner in (None, card.id) and key != key_of(text) and alias not in aliases:
                aliases.append(alias)
                used[key] = card.id
        result[card.id] = Abbreviation(card.id, text, tuple(aliases))
    return result


def keys_in_use(abbreviations: Iterable[Abbreviation]) -> dict[str, str]:
    """Every key (label and aliases) of some abbreviations, mapped to its card id."""
    return {key_of(key): entry.card_id for entry in abbreviations for key in entry.keys}


def _clashes(chosen: Mapping[str, str], taken: Mapping[str, str]) -> dict[str, list[str]]:
    owners: dict[str, list[str]] = {}
    for card_id, text in chosen.items():
        owners.setdefault(key_of(text), []).append(card_id)
    out = {}
    for key, ids in owners.items():
        other = taken.get(key)
        if other is not None and other not in ids:
            ids = [*ids, other]
        if len(ids) > 1:
            out[key] = ids
    return out


def _join(prefix: str, words: Sequence[str]) -> str:
    return " ".join([prefix, *words] if prefix else words)
