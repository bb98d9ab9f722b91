"""The one card resolver of the command line, the plain mode and the app.

It takes what a player typed — an abbreviation, a whole or partial name, with typos, in letters or in Unicode
braille cells (uncontracted or contracted) — and returns the card, or a short ranked list of candidates.

How it scores (0 to 100, see docs/braille.md):
- every card has keys: its abbreviation, aliases, name and id, folded like `normalize` (no case, spaces or
  punctuation); an exact key is 100;
- a query is compared with every key by optimal string alignment (typos: insertion, deletion, substitution,
  transposition), and where it is the start or a part of a key, by how much of the key it covers;
- a type prefix first ("ug rainbow") lifts the cards of that type and compares the rest with their keys alone;
- braille cells are compared with every key translated to braille in advance (uncontracted and, with liblouis,
  contracted), and are also read back to text and resolved as text.
One card is answered when it alone has the key typed exactly, or is clearly ahead; otherwise up to five
candidates are read out with numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from assistant.braille.maps import CardSetAbbreviations
from assistant.braille.translate import Grade, Translator
from assistant.core.braille import celltable
from assistant.core.braille.abbreviations import TYPE_PREFIXES, TYPE_WORDS, Abbreviation, key_of, name_words
from assistant.core.cards.card import Card, CardSet, CardType
from assistant.core.cards.lookup import Candidate, Resolution
from assistant.core.text import clean_untrusted
from assistant.core.words.entry import MAX_QUERY, query_problem
from assistant.core.words.outage import System, liblouis_missing

#: A card is answered outright at this score or more when the next card is at least `MARGIN` behind.
SURE = 80.0
MARGIN = 10.0
#: A card is also answered at this score or more when no other card comes near enough to be read out.
SURE_ALONE = 70.0
#: Candidates read out: at most this many, scoring at least `FLOOR` and within `SPREAD` of the best.
MAX_CANDIDATES = 5
FLOOR = 50.0
SPREAD = 25.0
#: How much a type prefix lifts the cards of its type.
TYPE_BONUS = 8.0
#: Text read back from braille counts a little less than cells that match a key exactly.
BACK_TRANSLATION_PENALTY = 3.0
#: Typo matching needs this much of the key to go on.
MIN_FUZZY = 40.0
_PREFIX_TYPES = {prefix: card_type for card_type, prefix in TYPE_PREFIXES.items() if prefix}


@dataclass
class _Index:
    """Folded keys and which card each belongs to."""

    keys: list[str]
    owners: list[int]
    exact: dict[str, list[int]]

    @classmethod
    def build(cls, pairs: Iterable[tuple[str, int]]) -> _Index:
        keys: list[str] = []
        owners: list[int] = []
        exact: dict[str, list[int]] = {}
        for key, owner in pairs:
            if not key or owner in exact.get(key, ()):
                continue
            keys.append(key)
            owners.append(owner)
            exact.setdefault(key, []).append(owner)
        return cls(keys, owners, exact)


class BrailleResolver:
    """Resolves typed queries to cards of a card set (see the module docstring for how)."""

    def __init__(
        self,
        cards: CardSet,
        abbreviations: CardSetAbbreviations | dict[str, Abbreviation],
        translator: Translator | None = None,
        system: System = System.DEBIAN_SUDO,
    ):
        """`abbreviations`: every card's, as `maps.abbreviations_for` finds them in the maps' folder (its notices
        are said once through `take_notice`), or a plain mapping of card id to abbreviation; `system`: the computer
        a missing liblouis's fix is said for."""
        self.cards = cards
        self._notices: list[str] = []
        if isinstance(abbreviations, CardSetAbbreviations):
            self._notices.extend(abbreviations.notices)
            abbreviations = abbreviations.by_card
        self.abbreviations = abbreviations
        self.translator = translator or Translator()
        self._said_liblouis_missing = False
        self._system = system
        self._cards: list[Card] = list(cards)
        self._texts: list[list[str]] = [self._key_texts(card) for card in self._cards]
        self._text = _Index.build((key_of(text), i) for i, texts in enumerate(self._texts) for text in texts)
        self._of_type: dict[CardType, set[int]] = {}
        for i, card in enumerate(self._cards):
            self._of_type.setdefault(card.type, set()).add(i)
        self._spaced_names = [" ".join(name_words(card.name)) for card in self._cards]
        self._body = _Index.build((key, i) for i, card in enumerate(self._cards) for key in self._body_keys(card))
        self._cells: _Index | None = None  # braille keys, built at the first braille query

    def take_notice(self) -> str:
        """A one-time message for the player (a damaged map, contracted braille without liblouis), or ""."""
        return self._notices.pop(0) if self._notices else ""

    def abbreviation(self, card: Card) -> Abbreviation | None:
        """A card's abbreviation."""
        return self.abbreviations.get(card.id)

    def resolve(self, query: str) -> Resolution:
        """The card meant by `query`, or candidates to choose from, or nothing; never raises on bad input."""
        if query_problem(query):
            return Resolution(query, None, ())
        text = clean_untrusted(query, MAX_QUERY)
        if celltable.has_cells(text):
            scores = self._score_braille(text)
        else:
            scores = self._score_text(text)
        return self._decide(query, scores)

    def prepare(self) -> None:
        """Build now what the first look-up and the first braille look-up would: the matcher (imported at its
        first use) and the braille keys' index. Says nothing: the notice that liblouis is missing comes with a
        braille look-up the player makes."""
        self._match(self._cell_index(), "")

    def read_contracted(self, cells: str) -> str | None:
        """What a line of braille cells (blank cells and spaces between words) reads as in contracted braille
        ("⠢⠙⠀⠞⠥⠗⠝" is "end turn"), or None: a line that is not only cells, or no liblouis to read it."""
        line = cells.strip()
        if query_problem(line) or not all(celltable.is_cell(ch) or ch.isspace() for ch in line):
            return None
        reading = self.translator.from_cells(line, Grade.CONTRACTED)
        if reading is None:
            return None
        return reading.strip() or None

    # Text

    def _score_text(self, text: str) -> dict[int, float]:
        scores: dict[int, float] = {}
        folded = key_of(text)
        if not folded:
            return scores
        _merge(scores, self._match(self._text, folded))
        _merge(scores, self._match_words(text))
        first, _, rest = text.strip().casefold().partition(" ")
        hinted = _PREFIX_TYPES.get(first)
        body = key_of(rest)
        if hinted is not None and body:
            of_type = self._of_type.get(hinted, set())
            body_scores = self._match(self._body, body)
            # a body typed exactly stays below 100: another card's own label typed exactly wins ("m llamacorn" is
            # Manscaped Llamacorn's label, not Llamacorn's name behind the Magical prefix)
            _merge(scores, {i: min(s, 99.0) for i, s in body_scores.items() if i in of_type})
            for i in of_type:
                if i in scores and scores[i] < 100.0:
                    scores[i] = min(99.0, scores[i] + TYPE_BONUS)  # 100 stays for keys typed exactly
        return scores

    def _match(self, index: _Index, folded: str) -> dict[int, float]:
        """Scores of the cards whose keys look like `folded`: exact, typo-tolerant, and partial."""
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        scores: dict[int, float] = {}
        for owner in index.exact.get(folded, ()):
            scores[owner] = 100.0
        found = process.extract(
            folded, index.keys, scorer=OSA.normalized_similarity, limit=25, score_cutoff=MIN_FUZZY / 100
        )
        for _, similarity, position in found:
            _keep_best(scores, index.owners[position], similarity * 100)
        if len(folded) >= 3:
            for key, owner in zip(index.keys, index.owners):
                if folded in key and key != folded:
                    share = len(folded) / len(key)
                    _keep_best(scores, owner, (60.0 if key.startswith(folded) else 50.0) + 35.0 * share)
        return scores

    def _match_words(self, query: str) -> dict[int, float]:
        """Scores of the cards whose name holds the query's words as whole words ("aura" in Rainbow Aura)."""
        spaced = " ".join(name_words(query))
        scores: dict[int, float] = {}
        if len(spaced) < 3:
            return scores
        for owner, name in enumerate(self._spaced_names):
            if f" {spaced} " in f" {name} " and spaced != name:
                _keep_best(scores, owner, 70.0 + 25.0 * len(spaced) / len(name))
        return scores

    # Braille

    def _score_braille(self, text: str) -> dict[int, float]:
        if not self.translator.has_liblouis and not self._said_liblouis_missing:
            self._said_liblouis_missing = True
            self._notices.append(liblouis_missing(self._system))
        cells = "".join(ch if celltable.is_cell(ch) else celltable.to_cells(ch) for ch in text)
        scores = self._match(self._cell_index(), celltable.cell_key(cells))
        for reading in self._readings(text):
            read_scores = self._score_text(reading)
            _merge(scores, {i: s - BACK_TRANSLATION_PENALTY for i, s in read_scores.items()})
        return scores

    def _readings(self, text: str) -> list[str]:
        """The query as text, its braille runs read back in each grade liblouis (or the built-in table) offers."""
        readings = []
        for grade in (Grade.CONTRACTED, Grade.UNCONTRACTED):
            pieces = []
            for run, is_braille in _runs(text):
                if not is_braille:
                    pieces.append(run)
                    continue
                read = self.translator.from_cells(run, grade)
                if read is None:
                    break
                pieces.append(read)
            else:
                reading = "".join(pieces)
                if reading.strip() and not celltable.has_cells(reading) and reading not in readings:
                    readings.append(reading)
        return readings

    def _cell_index(self) -> _Index:
        if self._cells is None:
            pairs = []
            for i, texts in enumerate(self._texts):
                for text in texts:
                    for grade in Grade:
                        cells = self.translator.to_cells(text, grade)
                        if cells:
                            pairs.append((celltable.cell_key(cells), i))
                    pairs.append((celltable.cell_key(celltable.to_cells(text)), i))
            self._cells = _Index.build(pairs)
        return self._cells

    # Keys and the decision

    def _key_texts(self, card: Card) -> list[str]:
        """What a player may type for a card, lower case: abbreviation, aliases, name, id."""
        entry = self.abbreviations.get(card.id)
        texts = list(entry.keys) if entry else []
        texts += [card.name, card.id.replace("-", " ")]
        return list(dict.fromkeys(t.casefold() for t in texts))

    def _body_keys(self, card: Card) -> list[str]:
        """The keys without the type prefix or type word, for queries that start with a prefix."""
        prefix = TYPE_PREFIXES[card.type]
        out = []
        entry = self.abbreviations.get(card.id)
        for text in entry.keys if entry else ():
            first, _, rest = text.casefold().partition(" ")
            out.append(key_of(rest) if prefix and first == prefix else key_of(text))
        out.append("".join(w for w in name_words(card.name) if w not in TYPE_WORDS.get(card.type, ())))
        return out

    def _decide(self, query: str, scores: dict[int, float]) -> Resolution:
        ranked = sorted(scores.items(), key=lambda item: (-item[1], self._cards[item[0]].name))
        if not ranked:
            return Resolution(query, None, ())
        best_score = ranked[0][1]
        second = ranked[1][1] if len(ranked) > 1 else 0.0
        exact_and_alone = best_score == 100.0 and second < 100.0
        only_one = best_score >= SURE_ALONE and second < FLOOR
        if exact_and_alone or only_one or (best_score >= SURE and best_score - second >= MARGIN):
            card = self._cards[ranked[0][0]]
            return Resolution(query, card, (Candidate(card, round(best_score, 1)),))
        kept = [(i, s) for i, s in ranked if s >= FLOOR and s >= best_score - SPREAD][:MAX_CANDIDATES]
        return Resolution(query, None, tuple(Candidate(self._cards[i], round(s, 1)) for i, s in kept))


def _keep_best(scores: dict[int, float], owner: int, score: float) -> None:
    if score > scores.get(owner, -1.0):
        scores[owner] = score


def _merge(scores: dict[int, float], more: dict[int, float]) -> None:
    for owner, score in more.items():
        _keep_best(scores, owner, score)


def _runs(text: str) -> list[tuple[str, bool]]:
    """The text cut into runs of braille cells (the blank cell included) and runs of other characters."""
    runs: list[tuple[str, bool]] = []
    for ch in text:
        is_braille = celltable.is_cell(ch) or (ch == " " and bool(runs) and runs[-1][1])
        if runs and runs[-1][1] == is_braille:
            runs[-1] = (runs[-1][0] + ch, is_braille)
        else:
            runs.append((ch, is_braille))
    return runs
