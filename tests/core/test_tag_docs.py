"""A tag's meaning is written once, as its member of `Tag` (`assistant/core/cards/card.py`), and the docs that say
what tags mean or which cards carry them are made from, or checked against, that one copy and the deck files: the
table of docs/card-text-format.md is `tags_table()`, and docs/game.md's table of what the tracker checks per card
names every checked tag and every shipped card that carries it."""

from __future__ import annotations

import enum
import inspect
import re
from pathlib import Path

import pytest

from assistant.core.cards.card import Tag, tags_table
from assistant.core.cards.wording import CHECKED_WORDING
from assistant.storage.decks import deck_files, load_deck

DOCS = Path(__file__).resolve().parents[2] / "docs"
END_OF_TABLE = "<!-- end of the tag table -->"
CHECKED_TAGS = frozenset(tag for _, tag in CHECKED_WORDING)


def table_in(doc: str) -> str:
    """The table of tags of docs/card-text-format.md's text: from its head to the marker after it."""
    return doc[doc.index("| tag | meaning |") : doc.index(END_OF_TABLE)]


def test_the_docs_table_of_tags_is_made_from_the_tags_meanings():
    doc = (DOCS / "card-text-format.md").read_text(encoding="utf-8")
    assert table_in(doc) == tags_table(), "regenerate: python -m assistant.core.cards.card"


def test_a_meaning_changed_in_one_place_only_is_caught(monkeypatch):
    """Changed in the doc alone, or in the code alone, the two tables differ."""
    doc = (DOCS / "card-text-format.md").read_text(encoding="utf-8")
    said = f"| `begin_turn_optional` | {Tag.BEGIN_TURN_OPTIONAL.meaning} |"
    assert said in doc
    edited = doc.replace(said, said.replace("may choose to do", "may do"))
    assert table_in(edited) != tags_table()
    monkeypatch.setattr(Tag.BEGIN_TURN_OPTIONAL, "meaning", "Has an effect the owner may do.")
    assert table_in(doc) != tags_table()


def test_every_tag_has_one_row_and_a_meaning_that_fits_its_cell():
    """A sentence or more, on one line, with no `|` to split the Markdown row."""
    rows = tags_table().splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == [f"| `{tag.value}`" for tag in Tag]
    unfit = [tag.value for tag in Tag if "|" in tag.meaning or "\n" in tag.meaning or not tag.meaning.endswith(".")]
    assert unfit == []


def test_a_tag_written_without_a_meaning_fails_on_import():
    """A member given no meaning is refused as the class is made: the table cannot lack a row's meaning."""
    source = "from __future__ import annotations\n" + inspect.getsource(Tag) + '    NEW_RULE = "new_rule"\n'
    with pytest.raises(ValueError, match="new_rule"):
        exec(source, {"enum": enum})  # the class's own source, with one member added
    exec(source.replace('"new_rule"\n', '"new_rule", "Does something new."\n'), {"enum": enum})


def per_card_rows() -> list[tuple[frozenset[str], str]]:
    """docs/game.md's table of what the tracker checks per card: each row's tags and its cell of cards."""
    game = (DOCS / "game.md").read_text(encoding="utf-8")
    section = game[game.index("## What the tracker checks per card") : game.index("**Where the table's word wins.**")]
    known = {tag.value for tag in Tag}
    rows = []
    for line in section.splitlines():
        if line.startswith("| `"):
            first, cards = line.strip("|").split(" | ")[:2]
            rows.append((frozenset(re.findall(r"`(\w+)`", first)) & known, cards))
    return rows


def test_the_game_doc_names_every_checked_tag():
    named = set().union(*(tags for tags, _ in per_card_rows()))
    assert sorted(tag.value for tag in CHECKED_TAGS if tag.value not in named) == []


def named_in(name: str, cells: list[str]) -> bool:
    """The card is named in one of the cells, or a cell speaks for it: "every Flying Unicorn", "and more"."""
    for cell in cells:
        every = re.findall(r"\bevery ([A-Z][\w ]*?[a-z])\b(?= \(|,|$)", cell)
        if name in cell or "and more" in cell or any(kind in name for kind in every):
            return True
    return False


@pytest.mark.parametrize("deck_id", sorted(deck_files()))
def test_the_game_doc_names_every_shipped_card_carrying_a_tag_it_lists(deck_id):
    """The column "cards (every shipped one)" is the deck files' tags, so it is checked against them: a card given
    a tag (in any of its prints) is named in a row of that tag (Flea-Ridden Barn and No Probllama were not)."""
    rows = per_card_rows()
    missing = []
    for card in load_deck(deck_id).cards:
        tags = card.tags.union(*(variant.tags or frozenset() for variant in card.print_variants))
        for tag in sorted(tags):
            cells = [cards for row_tags, cards in rows if tag.value in row_tags]
            if cells and not named_in(card.name, cells):
                missing.append(f"{card.name}: {tag.value}")
    assert missing == []
