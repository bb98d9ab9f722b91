"""The deck owner's reference sheet: read it, match it against a base deck, and make an import deck of it.

A braille deck comes with a reference sheet holding every card's full printed text. The owner types or exports
it as CSV or TSV (`name,type,text[,copies,abbreviation]`, with or without that header row) or as plain text
(`Name: text`, one card a line), and `table-assistant deck import` turns it into a deck file that overrides the
shipped texts of the cards it names and adds the cards the shipped deck lacks. A bad line is reported with its
number and the rest still imports. The sheet is the owner's own data: it stays in their data directory.
"""

from __future__ import annotations

import csv
import difflib
import io
from dataclasses import dataclass, field

from assistant.core.cards.card import VARIATIONS, Card, Deck, PrintVariant, normalize, slugify
from assistant.core.cards.wording import read_type_line, variation_from_name, wording_tags
from assistant.core.datatext import toml_string
from assistant.core.text import clean_untrusted

#: The columns of a CSV or TSV sheet, in order when there is no header row.
COLUMNS = ("name", "type", "text", "copies", "abbreviation")
#: How alike a sheet name and a card name must be (difflib ratio of the folded names) to match despite typos.
MATCH_CUTOFF = 0.85
#: The longest card text kept from a sheet, in characters (the longest printed card text is far shorter).
MAX_TEXT = 2000
#: The most card lines read from one sheet (the largest deck has 90 cards), so an import stays quick to load.
MAX_ROWS = 500
#: The most copies of one card a sheet may give.
MAX_COPIES = 99


@dataclass(frozen=True)
class SheetRow:
    """One card line of a sheet, as typed."""

    line: int
    name: str
    text: str
    type: str = ""
    copies: str = ""
    abbreviation: str = ""


@dataclass(frozen=True)
class SheetProblem:
    """A line of the sheet that could not be used, or was used with a correction."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class ImportResult:
    """What an import made of a sheet: the cards, and everything the owner should hear about."""

    cards: list[Card] = field(default_factory=list)
    matched: list[tuple[int, str, Card]] = field(default_factory=list)
    """(line, the name as typed, the base card it matched) for every card that overrides a shipped one."""
    added: list[Card] = field(default_factory=list)
    """Cards the base deck does not have."""
    problems: list[SheetProblem] = field(default_factory=list)
    """Lines not imported, and corrections made (a typo in a name, a type that disagrees)."""
    herd_bonus: list[tuple[str, str]] = field(default_factory=list)
    """(variation, what its Herd Bonus does) for each Herd Bonus line of a Llamas Unleashed sheet."""
    settled: list[tuple[int, Card, str]] = field(default_factory=list)
    """(line, the imported card, the print) for every card whose sheet text matched one of its print variants."""
    imported: set[int] = field(default_factory=set)
    """The lines that became a card of the import."""


def parse_sheet(text: str, filename: str = "") -> tuple[list[SheetRow], list[SheetProblem]]:
    """The card lines of a sheet and the lines that could not be read; CSV, TSV or plain text by name and content."""
    text = text.lstrip("\ufeff")
    lines = text.splitlines()
    first = next((line for line in lines if line.strip() and not is_comment(line)), "")
    lower = filename.lower()
    if lower.endswith(".tsv") or (not lower.endswith(".csv") and "\t" in first):
        return _parse_table(text, "\t")
    if lower.endswith(".csv") or _looks_like_csv(first):
        return _parse_table(text, ",")
    return _parse_plain(lines)


def is_comment(line: str) -> bool:
    """A comment line of a sheet: `#` alone, or `#` then a space, at the start of the line (spaces before it
    allowed). A `#` followed by anything else is part of a card's name (#Studlife), in every format."""
    stripped = line.strip()
    return stripped == "#" or stripped.startswith(("# ", "#\t"))


def _looks_like_csv(line: str) -> bool:
    row = next(csv.reader([line]), [])
    return len(row) >= 3 and (row[0].strip().lower() == "name" or read_type_line(row[1])[2])


def _parse_table(text: str, delimiter: str) -> tuple[list[SheetRow], list[SheetProblem]]:
    rows: list[SheetRow] = []
    problems: list[SheetProblem] = []
    lines = text.splitlines(keepends=True)
    columns: tuple[str, ...] = COLUMNS
    offset = 0  # lines before the reader's text: after a quote never closed, reading starts again below it
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    last = 0
    while True:
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            problems.append(SheetProblem(offset + reader.line_num, f"cannot be read as a table ({exc})"))
            break
        start, line = offset + last + 1, offset + reader.line_num
        last = reader.line_num
        if line > start and any("\n" in cell for cell in record):  # a quote left open swallowed the lines below
            problems.append(
                SheetProblem(
                    start,
                    "a quote opened on this line is not closed on it; the line was not "
                    "imported, and the lines below it were read on their own",
                )
            )
            offset, last = start, 0
            reader = csv.reader(io.StringIO("".join(lines[start:])), delimiter=delimiter)
            continue
        cells = [cell.strip() for cell in record]
        if not any(cells) or is_comment(lines[start - 1] if start <= len(lines) else ""):
            continue
        if not rows and not problems and cells[0].lower() == "name":
            columns = tuple(clean_untrusted(cell, 60).lower() for cell in cells)  # as the owner sees them
            unknown = [c for c in columns if c not in COLUMNS]
            missing = [c for c in ("name", "text") if c not in columns]
            if unknown or missing:
                what = f"unknown columns {', '.join(unknown)}" if unknown else f"no {' or '.join(missing)} column"
                return [], [SheetProblem(line, f"the header has {what}; the columns are {', '.join(COLUMNS)}")]
            continue
        if len(rows) >= MAX_ROWS:
            problems.append(SheetProblem(line, f"more than {MAX_ROWS} cards: this line and the rest were not read"))
            break
        if len(cells) > len(columns):
            problems.append(SheetProblem(line, f"{len(cells)} columns, expected at most {len(columns)}"))
            continue
        values = dict(zip(columns, cells))
        if not values.get("name") or not values.get("text"):
            problems.append(SheetProblem(line, "a card needs a name and a text"))
            continue
        rows.append(
            SheetRow(
                line,
                values["name"],
                values["text"],
                values.get("type", ""),
                values.get("copies", ""),
                values.get("abbreviation", ""),
            )
        )
    return rows, problems


def _parse_plain(lines: list[str]) -> tuple[list[SheetRow], list[SheetProblem]]:
    rows: list[SheetRow] = []
    problems: list[SheetProblem] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or is_comment(line):
            continue
        if len(rows) >= MAX_ROWS:
            problems.append(SheetProblem(number, f"more than {MAX_ROWS} cards: this line and the rest were not read"))
            break
        name, colon, body = line.partition(":")
        if not colon or not name.strip() or not body.strip():
            problems.append(SheetProblem(number, "expected a card as Name: text"))
            continue
        rows.append(SheetRow(number, name.strip(), body.strip()))
    return rows, problems


def matching_card(name: str, base: Deck) -> Card | None:
    """The base deck's card a sheet's name stands for: the same name, or one close enough to be a typo of it."""
    return _matching(name, _by_name(base))


def _by_name(base: Deck) -> dict[str, Card]:
    """The base deck's cards by their normalized names, for `_matching`."""
    return {normalize(card.name): card for card in base.cards}


def _matching(name: str, by_name: dict[str, Card]) -> Card | None:
    card = by_name.get(normalize(name))
    if card is None:
        close = difflib.get_close_matches(normalize(name), list(by_name), n=1, cutoff=MATCH_CUTOFF)
        card = by_name[close[0]] if close else None
    return card


def match_sheet(rows: list[SheetRow], base: Deck, deck_id: str) -> ImportResult:
    """Match each row to a card of the base deck (typos allowed) and make the import's cards.

    A matched row keeps the base card's id, tags and variation, so the tracker still knows what the card does; its
    text (and copies and type, when given) come from the sheet. A row that matches nothing becomes a new card when
    it says its type, and is reported otherwise. A card named twice keeps its first line.
    """
    result = ImportResult()
    used: dict[str, int] = {}
    by_name = _by_name(base)  # once for the sheet, not once a line
    for row in rows:
        variation = herd_bonus_variation(row.name, row.type)
        if variation is not None:
            _add_herd_bonus(row, variation, base, result)
            continue
        card = _matching(row.name, by_name)
        if card is not None and normalize(card.name) != normalize(row.name):
            result.problems.append(SheetProblem(row.line, f"{_said(row.name)} was read as {_said(card.name)}"))
        made = _make_card(row, card, deck_id, result.problems, base.info.edition, base.info.game)
        if made is None:
            continue
        if made.id in used:
            result.problems.append(
                SheetProblem(
                    row.line, f"{_said(made.name)} is already on line {used[made.id]}; this line was not imported"
                )
            )
            continue
        used[made.id] = row.line
        result.imported.add(row.line)
        if made.print and card is not None and card.print_variants:
            result.settled.append((row.line, made, made.print))
        result.cards.append(made)
        if card is not None:
            result.matched.append((row.line, row.name, card))
        else:
            result.added.append(made)
    return result


def herd_bonus_variation(name: str, type_line: str = "") -> str | None:
    """The variation a Herd Bonus line of a sheet is about, or None when the line is a card: the name "Llama Herd
    Bonus" or "Herd Bonus Llama" (plain text, `Goat Herd Bonus: text`), or the type "Herd Bonus" with the
    variation as its name (a CSV or TSV row)."""
    folded = normalize(name)
    if normalize(type_line) == "herdbonus" and folded.rstrip("s") in VARIATIONS:
        return folded.rstrip("s")
    for variation in VARIATIONS:
        if folded in (f"{variation}herdbonus", f"herdbonus{variation}", f"{variation}sherdbonus"):
            return variation
    return None


def _add_herd_bonus(row: SheetRow, variation: str, base: Deck, result: ImportResult) -> None:
    """Keep a Herd Bonus line of the sheet (Llamas Unleashed only; a second one for a variation is reported)."""
    if base.info.game != "llamas-unleashed":
        result.problems.append(SheetProblem(row.line, "only Llamas Unleashed has Herd Bonuses; this line was not "
                                            "imported"))  # fmt: skip
    elif any(known == variation for known, _ in result.herd_bonus):
        result.problems.append(SheetProblem(row.line, f"the {variation.capitalize()} Herd Bonus is already given; "
                                            "this line was not imported"))  # fmt: skip
    else:
        result.herd_bonus.append((variation, clean_untrusted(row.text, limit=MAX_TEXT)))
        result.imported.add(row.line)


def _make_card(
    row: SheetRow,
    card: Card | None,
    deck_id: str,
    problems: list[SheetProblem],
    edition: str = "",
    game: str = "",
) -> Card | None:
    card_type, variation, understood = read_type_line(row.type) if row.type else (None, None, True)
    if row.type and not understood:
        problems.append(SheetProblem(row.line, f"{_said(row.type)} is not a card type; this line was not imported"))
        return None
    copies = card.copies if card is not None else 1
    if row.copies:
        number = parse_copies(row.copies)
        if number is None:
            problems.append(
                SheetProblem(
                    row.line,
                    f"copies {_said(row.copies)} is not a number from 1 to {MAX_COPIES}; this line was not imported",
                )
            )
            return None
        copies = number
    text = clean_untrusted(row.text, limit=MAX_TEXT)
    abbreviation = clean_untrusted(row.abbreviation, limit=40) or None
    if card is None:
        if card_type is None:
            problems.append(
                SheetProblem(
                    row.line,
                    f"{_said(row.name)} matches no card of the deck; give its type "
                    "(a CSV or TSV sheet) to add it as a new card",
                )
            )
            return None
        slug = slugify(row.name)
        if not slug:
            problems.append(SheetProblem(row.line, f"{_said(row.name)} has no letters or digits for a card id"))
            return None
        name = clean_untrusted(row.name, limit=100)
        # a card the deck lacks is read as a shipped card is checked: tags from its wording, the variation from its
        # type line ("Magical Goat card") or else its name (Gin-Rammy is a Ram)
        if game == "llamas-unleashed" and card_type.is_creature:
            variation = variation or variation_from_name(name)
        else:  # an Instant is of no variation: the one a counter takes is read from its text
            variation = None
        tags = wording_tags(text, card_type)
        return Card(slug, name, card_type, copies, text, deck_id, tags, variation, abbreviation)
    if card_type is not None and card_type is not card.type:
        problems.append(
            SheetProblem(
                row.line,
                f"{card.name} is a {card.type.value} card in the deck, not {row.type}: the deck's type is kept",
            )
        )
    variant = settled_variant(card, row.text)
    if variant is not None:  # the sheet is that print: its text (in our words) and the tags the tracker acts on
        tags = variant.tags if variant.tags is not None else card.tags
        # the deck's own print becomes the other print, so "other print" still reads it
        own = PrintVariant(card.print or edition, card.text, card.tags, card.confidence, sources=card.sources)
        others = tuple(v for v in card.print_variants if v is not variant)
        return Card(
            card.id,
            card.name,
            card.type,
            copies,
            variant.text,
            deck_id,
            tags,
            card.variation,
            abbreviation,
            print=variant.print,
            print_variants=(own, *others),
        )
    return Card(
        card.id,
        card.name,
        card.type,
        copies,
        text,
        deck_id,
        card.tags,
        card.variation,
        abbreviation,
        print_variants=card.print_variants,
    )


def settled_variant(card: Card, sheet_text: str) -> PrintVariant | None:
    """The print variant of the card whose marks all appear in the sheet's text, or None (the card's own print).

    Marks are a few words only that print's wording holds, such as "move" where the other print says STEAL;
    they are compared as folded words, so case, punctuation and line breaks on the sheet do not matter.
    """
    folded = f" {' '.join(_words(sheet_text))} "
    for variant in card.print_variants:
        if variant.marks and all(f" {' '.join(_words(mark))} " in folded for mark in variant.marks):
            return variant
    return None


def _words(text: str) -> list[str]:
    """The folded words of a text: lower case, accents off, letters and digits only."""
    return [word for word in (normalize(part) for part in text.split()) if word]


def render_import(result: ImportResult, base: Deck, deck_id: str, source: str) -> str:
    """The import as a deck file in the card-text format (checked by `parse_deck` before it is written)."""
    info = base.info
    out = [
        "# An owner's reference sheet, imported by table-assistant deck import. Import the sheet again to change it.",
        "[deck]",
        f"id = {toml_string(deck_id)}",
        f"title = {toml_string(info.title + ', from your reference sheet')}",
        f"edition = {toml_string(info.edition)}",
        f"game = {toml_string(info.game)}",
        'kind = "import"',
        f"vocabulary = {toml_string(info.vocabulary.value)}",
        f"complete = {'true' if info.complete else 'false'}",
        f"base = {toml_string(info.id)}",
        "notes = "
        + toml_string(f"Imported from {source}: {len(result.matched)} cards of the deck, {len(result.added)} added."),
    ]
    if result.herd_bonus:  # the owner's own Herd Bonus texts, read out in place of the deck's
        out += ["", "[herd_bonus]"]
        out += [f"{variation} = {toml_string(text)}" for variation, text in result.herd_bonus]
    for card in result.cards:
        out += [
            "",
            "[[cards]]",
            f"id = {toml_string(card.id)}",
            f"name = {toml_string(card.name)}",
            f"type = {toml_string(card.type.value)}",
            f"copies = {card.copies}",
            f"text = {toml_string(card.text)}",
        ]
        if card.tags:
            out.append(f"tags = [{', '.join(toml_string(tag) for tag in sorted(card.tags))}]")
        if card.variation:
            out.append(f"variation = {toml_string(card.variation)}")
        if card.abbreviation:
            out.append(f"abbreviation = {toml_string(card.abbreviation)}")
        if card.print:
            out.append(f"print = {toml_string(card.print)}")
        for variant in card.print_variants:
            out += [
                "",
                "[[cards.print_variants]]",
                f"print = {toml_string(variant.print)}",
                f"text = {toml_string(variant.text)}",
            ]
            if variant.tags is not None:
                out.append(f"tags = [{', '.join(toml_string(tag) for tag in sorted(variant.tags))}]")
            out.append(f"confidence = {toml_string(variant.confidence.value)}")
            if variant.marks:
                out.append(f"marks = [{', '.join(toml_string(mark) for mark in variant.marks)}]")
            if variant.sources:
                out.append(f"sources = [{', '.join(toml_string(source) for source in variant.sources)}]")
    return "\n".join(out) + "\n"


def parse_copies(typed: str) -> int | None:
    """A number of copies from 1 to `MAX_COPIES` in ASCII digits, or None (never int() on 5,000 digits)."""
    typed = typed.strip()
    if not (typed.isascii() and typed.isdigit()) or len(typed) > 2 or not 1 <= int(typed) <= MAX_COPIES:
        return None
    return int(typed)


def _said(typed: str) -> str:
    """Something the owner typed, quoted and cleaned for a message."""
    return f'"{clean_untrusted(typed, 60)}"'
