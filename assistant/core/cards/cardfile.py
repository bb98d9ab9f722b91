"""The card-text format: parse and validate one deck file (`card_texts/*.toml`).

Validation collects every problem before failing, so a deck maker sees the whole list at once, each as
`file:line: card-id: field: problem`. The format is documented in `docs/card-text-format.md`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from assistant.core.cards.card import (
    VARIATIONS,
    Card,
    CardType,
    Confidence,
    Deck,
    DeckInfo,
    PrintVariant,
    Tag,
    Vocabulary,
    normalize,
)
from assistant.core.datatext import DataTextError, load_toml
from assistant.core.text import clean_untrusted

# Packed (fmt: skip): a set of short words reads better as a block than one word a line.
DECK_KEYS = {
    "id", "title", "edition", "game", "kind", "vocabulary", "complete", "rules", "notes", "base", "bases",
    "confidence", "copies_known",
}  # fmt: skip
DECK_REQUIRED = {"id", "title", "edition", "game", "kind", "vocabulary", "complete"}
# Packed (fmt: skip): a set of short words reads better as a block than one word a line.
CARD_KEYS = {
    "id", "name", "type", "copies", "text", "tags", "variation", "abbreviation", "confidence", "print",
    "print_variants", "sources",
}  # fmt: skip
VARIANT_KEYS = {"print", "text", "tags", "confidence", "marks", "sources"}
VARIANT_REQUIRED = {"print", "text"}
CONFIDENCES = ", ".join(c.value for c in Confidence)

#: Records one problem: line, card id (or "deck"), field, message.
Report = Callable[[int, str, str, str], None]
CARD_REQUIRED = {"id", "name", "type", "copies", "text"}
#: The most copies of one card and the longest name or text a deck file may give (a reference sheet's own limits).
MAX_COPIES, MAX_CARD_TEXT = 99, 2000
GAMES = {"unstable-unicorns", "llamas-unleashed"}
KINDS = {"base", "expansion", "import"}
HERD_BONUS_KEYS = {"rule", "passive", *VARIATIONS}
#: Tags taken out of the format because nothing read them: a deck file written with one still loads, the tag left
#: out (`skip_phase`: each card that had it says which phase it skips, or that it ends the turn, by a tag of its own).
RETIRED_TAGS = frozenset({"skip_phase"})
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a card file."""

    path: str
    line: int
    card: str
    """The card id, or "deck" for the metadata, or "-" for the file as a whole."""
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.card}: {self.field}: {self.message}"


class CardDataError(ValueError):
    """A card file is broken; `problems` lists every problem found, in file order."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_\-.]+)\s*\]\]?")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")


def _line_index(text: str) -> tuple[dict[str, int], list[dict[str, int]], list[int], list[list[dict[str, int]]]]:
    """Where each key sits: deck keys, each card's keys, each `[[cards]]` header line (1-based), and the keys of
    each card's `[[cards.print_variants]]` tables (with the header line under the key "").

    tomllib gives no positions, and our format is flat, so a line scan is enough to point at the line.
    """
    deck: dict[str, int] = {}
    cards: list[dict[str, int]] = []
    headers: list[int] = []
    variants: list[list[dict[str, int]]] = []
    table = None
    in_multiline = False
    for number, line in enumerate(text.splitlines(), start=1):
        if in_multiline:
            if line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1:
                in_multiline = False
            continue
        header = _HEADER.match(line)
        if header:
            table = header.group(1)
            if table == "cards" and line.strip().startswith("[["):
                headers.append(number)
                cards.append({})
                variants.append([])
            elif table == "cards.print_variants" and variants:
                variants[-1].append({"": number})
            continue
        key = _KEY.match(line)
        if key:
            target: dict[str, int] | None = None
            if table == "deck":
                target = deck
            elif table == "cards" and cards:
                target = cards[-1]
            elif table == "cards.print_variants" and variants and variants[-1]:
                target = variants[-1][-1]
            if target is not None:
                target.setdefault(key.group(1), number)
            rest = line[key.end() :]
            if rest.count('"""') % 2 == 1 or rest.count("'''") % 2 == 1:
                in_multiline = True
    return deck, cards, headers, variants


def parse_deck(text: str, path: str = "<deck>") -> Deck:
    """Parse and validate a deck file's text; raise `CardDataError` listing every problem."""
    try:
        data = _shown_safely(load_toml(text))
    except DataTextError as exc:
        raise CardDataError([Problem(path, exc.line, "-", "toml", exc.message)]) from None

    deck_lines, card_lines, headers, variant_lines = _line_index(text)
    problems: list[Problem] = []

    def report(line: int, card: str, field: str, message: str) -> None:
        problems.append(Problem(path, line, card, field, message))

    for key in sorted(set(data) - {"deck", "cards", "herd_bonus"}):
        report(1, "-", key, "unknown top-level table or key (expected [deck], [[cards]] and [herd_bonus])")

    meta = data.get("deck")
    if not isinstance(meta, dict):
        report(1, "deck", "deck", "missing [deck] table")
        meta = {}
    info = _parse_info(meta, deck_lines, report)
    if "herd_bonus" in data:
        bonus = _parse_herd_bonus(data["herd_bonus"], info, text, report)
        info = replace(info, herd_bonus=bonus, passive_bonus=_parse_passive(data["herd_bonus"], bonus, text, report))

    cards_data = data.get("cards", [])
    # an owner's import may hold only the Herd Bonuses of their reference card
    if not isinstance(cards_data, list) or not (cards_data or (info.kind == "import" and info.herd_bonus)):
        report(1, "-", "cards", "no [[cards]] entries")
        cards_data = []
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for index, entry in enumerate(cards_data):
        lines = card_lines[index] if index < len(card_lines) else {}
        header = headers[index] if index < len(headers) else 1
        variants = variant_lines[index] if index < len(variant_lines) else []
        card = _parse_card(entry, lines, header, info, seen, report, variants)
        if card is not None:
            cards.append(card)

    if problems:
        problems.sort(key=lambda p: p.line)
        raise CardDataError(problems)
    return Deck(info=info, cards=tuple(cards), path=path)


def _shown_safely(value: Any) -> Any:
    """Every text of a deck file as it may be shown and spoken: an owner's import is a file anyone may edit, so a
    terminal escape, a control, format or bidi character in it becomes a space (`clean_untrusted`), wherever it
    is. Texts without one (every shipped deck's) are left exactly as they are."""
    if isinstance(value, str):
        return value if value.isprintable() else clean_untrusted(value, max(len(value), 1))
    if isinstance(value, list):
        return [_shown_safely(item) for item in value]
    if isinstance(value, dict):
        return {key: _shown_safely(item) for key, item in value.items()}
    return value


def _parse_info(meta: dict[str, Any], lines: dict[str, int], report: Report) -> DeckInfo:
    def at(key: str) -> int:
        return lines.get(key, 1)

    for key in sorted(set(meta) - DECK_KEYS):
        report(at(key), "deck", key, "unknown key")
    for key in sorted(DECK_REQUIRED - set(meta)):
        report(1, "deck", key, "missing")

    def text_field(key: str) -> str:
        value = meta.get(key, "")
        if not isinstance(value, str):
            report(at(key), "deck", key, "must be text")
            return ""
        if key in DECK_REQUIRED and key in meta and not value.strip():
            report(at(key), "deck", key, "is empty")
        return value.strip()

    deck_id = text_field("id")
    if deck_id and not ID_PATTERN.match(deck_id):
        report(at("id"), "deck", "id", f"{deck_id!r} must be lower-case letters, digits and dashes")
    game = text_field("game")
    if game and game not in GAMES:
        report(at("game"), "deck", "game", f"{game!r} is not one of {', '.join(sorted(GAMES))}")
    kind = text_field("kind")
    if kind and kind not in KINDS:
        report(at("kind"), "deck", "kind", f"{kind!r} is not one of {', '.join(sorted(KINDS))}")
    vocabulary_name = text_field("vocabulary")
    vocabulary = Vocabulary.UNICORN
    if vocabulary_name:
        try:
            vocabulary = Vocabulary(vocabulary_name)
        except ValueError:
            report(at("vocabulary"), "deck", "vocabulary", f"{vocabulary_name!r} is not unicorn or animal")
    bases = meta.get("bases", [])
    if not isinstance(bases, list) or not all(isinstance(b, str) and ID_PATTERN.match(b) for b in bases):
        report(at("bases"), "deck", "bases", "must be a list of deck ids")
        bases = []
    elif bases and kind != "expansion":
        report(at("bases"), "deck", "bases", "only an expansion names the base decks it adds to")
    complete = meta.get("complete", False)
    if not isinstance(complete, bool):
        report(at("complete"), "deck", "complete", "must be true or false")
        complete = False
    copies_known = meta.get("copies_known", True)
    if not isinstance(copies_known, bool):
        report(at("copies_known"), "deck", "copies_known", "must be true or false")
        copies_known = True
    # absent: confirmed, as an import holds the owner's own card texts; every shipped deck states it (a test)
    confidence = Confidence.CONFIRMED
    if "confidence" in meta:
        confidence = (
            _confidence(meta["confidence"], lambda message: report(at("confidence"), "deck", "confidence", message))
            or confidence
        )
    return DeckInfo(
        id=deck_id,
        title=text_field("title"),
        edition=text_field("edition"),
        game=game,
        kind=kind,
        vocabulary=vocabulary,
        complete=complete,
        rules=text_field("rules"),
        notes=text_field("notes"),
        base=text_field("base"),
        bases=tuple(bases),
        confidence=confidence,
        copies_known=copies_known,
    )


def _confidence(value: object, bad: Callable[[str], None]) -> Confidence | None:
    """A confidence value, or None after reporting what is wrong with it."""
    if isinstance(value, str) and value in {c.value for c in Confidence}:
        return Confidence(value)
    bad(f"{value!r} is not a confidence ({CONFIDENCES})")
    return None


def _parse_herd_bonus(table: object, info: DeckInfo, text: str, report: Report) -> tuple[tuple[str, str], ...]:
    """The `[herd_bonus]` table of a Llamas Unleashed deck: the rule, and each variation's bonus in our words."""
    line = next((n for n, row in enumerate(text.splitlines(), start=1) if row.strip() == "[herd_bonus]"), 1)
    if info.game and info.game != "llamas-unleashed":
        report(line, "deck", "herd_bonus", "only Llamas Unleashed has a Herd Bonus")
        return ()
    if not isinstance(table, dict):
        report(line, "deck", "herd_bonus", "must be a table")
        return ()
    entries = []
    for key, value in table.items():
        if key == "passive":  # (`_parse_passive`)
            continue
        if key not in HERD_BONUS_KEYS:
            report(line, "deck", "herd_bonus", f"unknown key {key!r} (expected rule, {', '.join(VARIATIONS)})")
        elif not isinstance(value, str) or not value.strip():
            report(line, "deck", "herd_bonus", f"{key}: must be a text that is not empty")
        else:
            entries.append((key, " ".join(value.split())))
    return tuple(entries)


def _parse_passive(table: object, bonus: tuple[tuple[str, str], ...], text: str, report: Report) -> tuple[str, ...]:
    """The `passive` list of a `[herd_bonus]` table: the variations whose Herd Bonus only protects ("Your Alpacas
    cannot be destroyed"), each one the table gives a text for. The rules read this tag, never the bonus's words."""
    if not isinstance(table, dict) or "passive" not in table:
        return ()
    line = next((n for n, row in enumerate(text.splitlines(), start=1) if row.strip().startswith("passive")), 1)
    value = table["passive"]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        report(line, "deck", "herd_bonus", "passive: must be a list of variations")
        return ()
    given = {key for key, _ in bonus}
    for item in value:
        if item not in VARIATIONS:
            report(
                line, "deck", "herd_bonus", f"passive: unknown variation {item!r} (expected {', '.join(VARIATIONS)})"
            )
        elif item not in given:
            report(line, "deck", "herd_bonus", f"passive: {item} has no Herd Bonus text in this table")
    return tuple(item for item in value if item in given)


#: Records one problem of a card: field, message.
Bad = Callable[[str, str], None]


def _parse_card(
    entry: object,
    lines: dict[str, int],
    header: int,
    info: DeckInfo,
    seen: dict[str, int],
    report: Report,
    variant_lines: list[dict[str, int]] | None = None,
) -> Card | None:
    if not isinstance(entry, dict):
        report(header, "-", "cards", "each [[cards]] entry must be a table")
        return None
    card_id: str = entry["id"] if isinstance(entry.get("id"), str) else ""
    label = card_id or f"card {len(seen) + 1}"

    def at(key: str) -> int:
        return lines.get(key, header)

    ok = True

    def bad(key: str, message: str) -> None:
        nonlocal ok
        ok = False
        report(at(key), label, key, message)

    for key in sorted(set(entry) - CARD_KEYS):
        bad(key, "unknown key")
    for key in sorted(CARD_REQUIRED - set(entry)):
        bad(key, "missing")
    _check_id(entry, seen, at("id"), bad)
    _check_texts(entry, bad)
    card_type = _card_type(entry, bad)
    copies = _copies(entry, bad)
    tags = _tags(entry, bad)
    variation = _variation(entry, info, bad)
    abbreviation = _abbreviation(entry, bad)
    confidence = info.confidence
    if "confidence" in entry:
        confidence = _confidence(entry["confidence"], lambda message: bad("confidence", message)) or confidence
    print_name, sources = _print_and_sources(entry, bad)
    variants: list[PrintVariant] = []
    raw_variants = entry.get("print_variants", [])
    if not isinstance(raw_variants, list):
        bad("print_variants", "must be [[cards.print_variants]] tables")
        raw_variants = []
    for number, raw in enumerate(raw_variants):
        where = (variant_lines or [])[number] if number < len(variant_lines or []) else {}
        variant = _parse_variant(raw, where, at("print_variants"), label, report)
        if variant is None:
            ok = False
        else:
            variants.append(variant)
    if not ok or card_type is None or copies is None:
        return None
    return Card(
        id=card_id,
        name=entry["name"].strip(),
        type=card_type,
        copies=copies,
        text=" ".join(entry["text"].split()),
        deck=info.id,
        tags=frozenset(Tag(tag) for tag in tags),
        variation=variation,
        abbreviation=" ".join(abbreviation.split()) if abbreviation else None,
        confidence=confidence,
        print=" ".join(print_name.split()),
        print_variants=tuple(variants),
        sources=tuple(" ".join(s.split()) for s in sources),
    )


def _check_id(entry: dict[str, Any], seen: dict[str, int], line: int, bad: Bad) -> None:
    """A card's id: its form, and no second card with it (the first one's line is kept in `seen`)."""
    if "id" not in entry:
        return
    if not isinstance(entry["id"], str) or not ID_PATTERN.match(entry["id"]):
        bad("id", f"{entry['id']!r} must be lower-case letters, digits and dashes")
    elif entry["id"] in seen:
        bad("id", f"duplicate id (first at line {seen[entry['id']]})")
    else:
        seen[entry["id"]] = line


def _check_texts(entry: dict[str, Any], bad: Bad) -> None:
    """A card's name and text: texts, not empty, not too long."""
    for key in ("name", "text"):
        if key in entry:
            value = entry[key]
            if not isinstance(value, str):
                bad(key, "must be text")
            elif not value.strip():
                bad(key, "is empty")
            elif len(value) > MAX_CARD_TEXT:  # a text is read out whole: never a megabyte of it
                bad(key, f"is longer than {MAX_CARD_TEXT:,} characters")


def _card_type(entry: dict[str, Any], bad: Bad) -> CardType | None:
    """A card's type, or None (reported when it is given and not a type)."""
    if "type" not in entry:
        return None
    try:
        return CardType(entry["type"])
    except ValueError:
        names = ", ".join(t.value for t in CardType)
        bad("type", f"{entry['type']!r} is not a card type ({names})")
        return None


def _copies(entry: dict[str, Any], bad: Bad) -> int | None:
    """How many copies of a card a deck holds, or None when it is missing or wrong (reported when wrong)."""
    copies = entry.get("copies")
    if "copies" in entry and (isinstance(copies, bool) or not isinstance(copies, int) or copies < 1):
        bad("copies", f"{copies!r} is not a positive whole number")
    elif isinstance(copies, int) and copies > MAX_COPIES:  # a hand-edited import: no deck holds a billion cards
        bad("copies", f"{copies} is more than {MAX_COPIES}")
    return copies if isinstance(copies, int) and not isinstance(copies, bool) else None


def _tags(entry: dict[str, Any], bad: Bad) -> list[str]:
    """A card's known tag names (each unknown one reported)."""
    tags = entry.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        bad("tags", "must be a list of tag names")
        return []
    known = {tag.value for tag in Tag}
    for tag in tags:
        if tag not in known and tag not in RETIRED_TAGS:
            bad("tags", f"unknown tag {tag!r}")
    return [tag for tag in tags if tag in known]


def _variation(entry: dict[str, Any], info: DeckInfo, bad: Bad) -> Any:
    """A Llamas card's variation as given (a wrong one reported: the card is then not made)."""
    variation = entry.get("variation")
    if variation is not None:
        parts = variation.split("+") if isinstance(variation, str) else [None]
        if not all(part in VARIATIONS for part in parts):
            bad("variation", f"{variation!r} is not {', '.join(VARIATIONS)} or a hybrid such as llama+alpaca")
        elif info.game and info.game != "llamas-unleashed":
            bad("variation", "only Llamas Unleashed cards have a variation")
    return variation


def _abbreviation(entry: dict[str, Any], bad: Bad) -> Any:
    """A card's own braille abbreviation as given (a wrong one reported: the card is then not made)."""
    abbreviation = entry.get("abbreviation")
    if abbreviation is not None and (not isinstance(abbreviation, str) or not normalize(abbreviation)):
        bad("abbreviation", "must be a text with letters or digits")
    return abbreviation


def _print_and_sources(entry: dict[str, Any], bad: Bad) -> tuple[str, list[str]]:
    """A card's printing's name and where its facts come from ("" and [] when wrong, reported)."""
    print_name = entry.get("print", "")
    if not isinstance(print_name, str) or ("print" in entry and not print_name.strip()):
        bad("print", "must be a text that is not empty")
        print_name = ""
    sources = entry.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(s, str) and s.strip() for s in sources):
        bad("sources", "must be a list of texts that are not empty")
        sources = []
    return print_name, sources


def _parse_variant(
    raw: object, lines: dict[str, int], fallback: int, label: str, report: Report
) -> PrintVariant | None:
    """One `[[cards.print_variants]]` table: another print's text, tags, confidence, sheet marks and sources."""
    header = lines.get("", fallback)
    if not isinstance(raw, dict):
        report(header, label, "print_variants", "each print variant must be a table")
        return None
    ok = True

    def bad(key: str, message: str) -> None:
        nonlocal ok
        ok = False
        report(lines.get(key, header), label, f"print_variants.{key}", message)

    for key in sorted(set(raw) - VARIANT_KEYS):
        bad(key, "unknown key")
    for key in sorted(VARIANT_REQUIRED - set(raw)):
        bad(key, "missing")
    for key in ("print", "text"):
        if key in raw and (not isinstance(raw[key], str) or not raw[key].strip()):
            bad(key, "must be a text that is not empty")
    tags = None
    if "tags" in raw:
        known = {tag.value for tag in Tag}
        if not isinstance(raw["tags"], list) or not all(isinstance(t, str) for t in raw["tags"]):
            bad("tags", "must be a list of tag names")
        else:
            for tag in raw["tags"]:
                if tag not in known and tag not in RETIRED_TAGS:
                    bad("tags", f"unknown tag {tag!r}")
            tags = frozenset(Tag(tag) for tag in raw["tags"] if tag in known)
    confidence = Confidence.CONFIRMED
    if "confidence" in raw:
        confidence = _confidence(raw["confidence"], lambda message: bad("confidence", message)) or confidence
    marks = raw.get("marks", [])
    if not isinstance(marks, list) or not all(isinstance(m, str) and m.strip() for m in marks):
        bad("marks", "must be a list of texts that are not empty")
        marks = []
    sources = raw.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(s, str) and s.strip() for s in sources):
        bad("sources", "must be a list of texts that are not empty")
        sources = []
    if not ok:
        return None
    return PrintVariant(
        print=" ".join(raw["print"].split()),
        text=" ".join(raw["text"].split()),
        tags=tags,
        confidence=confidence,
        marks=tuple(" ".join(m.lower().split()) for m in marks),
        sources=tuple(" ".join(s.split()) for s in sources),
    )
