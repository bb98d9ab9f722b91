"""Importing the deck owner's reference sheet: CSV, TSV and plain text, typos and bad lines, and what it changes."""

import dataclasses
import hashlib
import json

import pytest

from assistant.core.cards.card import CardType
from assistant.core.cards.cardfile import parse_deck
from assistant.core.cards.sheet import match_sheet, parse_sheet, render_import
from assistant.storage.decks import load_card_set, load_deck
from assistant.storage.paths import card_texts_dir, imported_decks_dir


def shipped_fingerprint() -> str:
    digest = hashlib.sha256()
    for path in sorted(card_texts_dir().glob("*.toml")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def shipped(card_id: str):
    return next(card for card in load_deck("uu-2nd").cards if card.id == card_id)


CSV = """\
name,type,text,copies,abbreviation
Rainbow Aura,upgrade,Our table's own words for the aura.,,ug aura
Rainbw Unicorn,magical,Typed with a typo in the name.
Glitter Storm,magic,A card the shipped deck does not have.,2
Bad Card,wizard,Not a type.
Neigh,instant,Stops a card.,zero
Rainbow Aura,upgrade,The same card again.
"""


def test_csv_sheet_matches_names_with_typos_adds_new_cards_and_reports_bad_lines():
    rows, problems = parse_sheet(CSV, "sheet.csv")
    assert problems == []
    result = match_sheet(rows, load_deck("uu-2nd"), "uu-2nd-sheet")
    assert [(line, card.id) for line, _, card in result.matched] == [(2, "rainbow-aura"), (3, "rainbow-unicorn")]
    assert [card.id for card in result.added] == ["glitter-storm"]
    assert result.added[0].copies == 2 and result.added[0].type is CardType.MAGIC
    assert [str(p) for p in result.problems] == [
        'line 3: "Rainbw Unicorn" was read as "Rainbow Unicorn"',
        'line 5: "wizard" is not a card type; this line was not imported',
        'line 6: copies "zero" is not a number from 1 to 99; this line was not imported',
        'line 7: "Rainbow Aura" is already on line 2; this line was not imported',
    ]
    aura = result.cards[0]
    assert aura.text == "Our table's own words for the aura." and aura.abbreviation == "ug aura"
    assert aura.tags == shipped("rainbow-aura").tags, "the tracker still knows what the card does"


def test_tsv_without_a_header_and_plain_text_sheets():
    tsv = "Rainbow Aura\tupgrade\tTab separated text.\nYay\tupgrade\tAnother.\n"
    rows, problems = parse_sheet(tsv, "sheet.tsv")
    assert problems == [] and [r.name for r in rows] == ["Rainbow Aura", "Yay"]
    plain = "# my sheet\nRainbow Aura: Plain words.\n\nnot a card line\nUnknown Thing: no type given\nYay: Fun.\n"
    rows, problems = parse_sheet(plain, "sheet.txt")
    assert [str(p) for p in problems] == ["line 4: expected a card as Name: text"]
    result = match_sheet(rows, load_deck("uu-2nd"), "x")
    assert [card.id for card in result.cards] == ["rainbow-aura", "yay"]
    assert [str(p) for p in result.problems] == [
        'line 5: "Unknown Thing" matches no card of the deck; '
        "give its type (a CSV or TSV sheet) to add it as a new card"
    ]


def test_a_header_with_unknown_columns_is_one_clear_problem():
    rows, problems = parse_sheet("name,colour,text\nA,red,b\n", "s.csv")
    assert rows == [] and [str(p) for p in problems] == [
        "line 1: the header has unknown columns colour; the columns are name, type, text, copies, abbreviation"
    ]


def test_hostile_text_in_a_sheet_is_cleaned():
    rows, _ = parse_sheet("Yay: \x1b[31mred\x1b[0m text\x07 here.\n", "s.txt")
    (card,) = match_sheet(rows, load_deck("uu-2nd"), "x").cards
    assert card.text == "red text here."


def test_import_command_writes_a_deck_that_overrides_and_extends_and_leaves_shipped_files_alone(cli, tmp_path):
    before = shipped_fingerprint()
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(CSV, encoding="utf-8")
    result = cli("deck", "import", str(sheet), "--json", home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["deck"] == "uu-2nd-sheet" and report["added"] == ["glitter-storm"]
    assert [p["line"] for p in report["problems"]] == [3, 5, 6, 7]
    looked_up = cli("card", "ug aura", "--json", home=tmp_path / "home")
    match = json.loads(looked_up.stdout)["match"]
    assert match["id"] == "rainbow-aura" and match["text"] == "Our table's own words for the aura."
    new = json.loads(cli("card", "glitter storm", "--json", home=tmp_path / "home").stdout)["match"]
    assert new["copies"] == 2 and new["deck"] == "uu-2nd-sheet"
    assert "Traceback" not in result.stderr + looked_up.stderr
    assert shipped_fingerprint() == before


def test_reimporting_replaces_the_previous_import_whole(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(tmp_path / "home"))
    first, second = tmp_path / "one.csv", tmp_path / "two.txt"
    first.write_text(CSV, encoding="utf-8")
    second.write_text("Yay: Only this card now.\n", encoding="utf-8")
    assert cli("deck", "import", str(first), home=tmp_path / "home").returncode == 0
    result = cli("deck", "import", str(second), home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Imported 1 card for Unstable Unicorns, 2nd Edition base game: 1 replace")
    cards = load_card_set("uu-2nd")
    assert cards.get("yay").text == "Only this card now."
    assert cards.get("glitter-storm") is None
    assert cards.get("rainbow-aura") == shipped("rainbow-aura"), "the first import's override is gone"
    assert [p.name for p in imported_decks_dir().iterdir()] == ["uu-2nd-sheet.toml"], "no temporary file is left"


def test_a_sheet_with_nothing_usable_imports_nothing_and_exits_1(cli, tmp_path):
    sheet = tmp_path / "junk.txt"
    sheet.write_text("just some words\nmore words\n", encoding="utf-8")
    result = cli("deck", "import", str(sheet), home=tmp_path / "home")
    assert result.returncode == 1
    assert result.stdout.splitlines()[0].startswith("Nothing was imported")
    assert "junk.txt: line 1: expected a card as Name: text" in result.stdout
    assert not (tmp_path / "home" / "data" / "decks").exists()


@pytest.mark.parametrize("content", [b"\xff\xfe\x00bad", None])
def test_an_unreadable_or_missing_sheet_is_a_message(cli, tmp_path, content):
    sheet = tmp_path / "sheet.csv"
    if content is not None:
        sheet.write_bytes(content)
    result = cli("deck", "import", str(sheet), home=tmp_path / "home")
    assert result.returncode == 2
    assert result.stderr.startswith(f"The sheet {sheet} cannot be read") and "Traceback" not in result.stderr


def test_an_import_cannot_take_a_shipped_decks_id(cli, tmp_path):
    sheet = tmp_path / "s.txt"
    sheet.write_text("Yay: x.\n", encoding="utf-8")
    result = cli("deck", "import", str(sheet), "--deck", "uu-1st", home=tmp_path / "home")
    assert result.returncode == 2 and "not the id of a shipped deck" in result.stderr


def test_llamas_import_extends_the_incomplete_deck_and_the_app_says_so(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(tmp_path / "home"))
    sheet = tmp_path / "llamas.csv"
    sheet.write_text("name,type,text\nSome Unknown Llama,magical,It does a llama thing.\n", encoding="utf-8")
    result = cli("deck", "import", str(sheet), "--base", "llamas", home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    plain = cli("--plain", "--deck", "llamas", home=tmp_path / "home")
    assert plain.stdout.splitlines()[1] == "Deck: Llamas Unleashed base game. 1 card from your reference sheet."
    cards = load_card_set("llamas")
    assert cards.get("some-unknown-llama").text == "It does a llama thing."
    assert len(cards) == len(load_deck("llamas").cards) + 1


LLAMAS_SHEET = """\
name,type,text,copies
# a comment: a hash then a space
#Studlife,Upgrade card,"If this card is in your Field at the beginning of your turn, you may bring a Baby in.",1
Grumpy Goat,Basic Goat card,A goat with no effect.,3
Baby Ram,Baby Ram,A baby ram.,1
No Way,Instant,Play this card when any other player tries to play a card. Stop that card from being played.,2
Goat,Herd Bonus,"Each other player discards a card.",
"""


def test_an_imported_card_gets_its_type_variation_and_tags_from_its_wording():
    rows, problems = parse_sheet(LLAMAS_SHEET, "sheet.csv")
    assert problems == [] and [row.line for row in rows] == [3, 4, 5, 6, 7]
    base = dataclasses.replace(load_deck("llamas"), cards=())  # a deck the app does not ship: every card is new
    result = match_sheet(rows, base, "llamas-sheet")
    made = {card.name: card for card in result.added}
    assert result.problems == [] and set(made) == {"#Studlife", "Grumpy Goat", "Baby Ram", "No Way"}
    studlife, goat, baby, counter = made["#Studlife"], made["Grumpy Goat"], made["Baby Ram"], made["No Way"]
    assert (studlife.type, studlife.variation, studlife.tags) == (CardType.UPGRADE, None, {"begin_turn_optional"})
    assert (goat.type, goat.variation, goat.tags, goat.copies) == (CardType.BASIC, "goat", frozenset(), 3)
    assert (baby.type, baby.variation, baby.tags) == (CardType.BABY, "ram", {"nursery"})
    assert (counter.type, counter.variation, counter.tags) == (CardType.INSTANT, None, {"neigh"})
    assert result.herd_bonus == [("goat", "Each other player discards a card.")]
    text = render_import(result, base, "llamas-sheet", "sheet.csv")
    deck = parse_deck(text, "llamas-sheet.toml")  # what is written loads, with the owner's Herd Bonus
    assert dict(deck.info.herd_bonus) == {"goat": "Each other player discards a card."}
    assert {card.id: card.tags for card in deck.cards} == {card.id: card.tags for card in result.cards}


def test_a_hash_starts_a_comment_only_alone_or_before_a_space_and_a_line_left_out_is_reported():
    plain = "# my sheet\n#\n#Studlife: A card with a hash.\nGin-Rammy: Our own words.\n"
    rows, problems = parse_sheet(plain, "sheet.txt")
    assert problems == [] and [(row.line, row.name) for row in rows] == [(3, "#Studlife"), (4, "Gin-Rammy")]
    result = match_sheet(rows, dataclasses.replace(load_deck("llamas"), cards=()), "llamas-sheet")
    assert [str(p) for p in result.problems] == [
        'line 3: "#Studlife" matches no card of the deck; give its type (a CSV or TSV sheet) to add it as a new card',
        'line 4: "Gin-Rammy" matches no card of the deck; give its type (a CSV or TSV sheet) to add it as a new card',
    ]
    tsv = "#Studlife\tmagical llama\tA card with a hash.\n# a comment\tx\ty\n"
    rows, problems = parse_sheet(tsv, "sheet.tsv")
    assert problems == [] and [row.name for row in rows] == ["#Studlife"]


def test_herd_bonus_lines_belong_to_llamas_only():
    rows, _ = parse_sheet("Llama Herd Bonus: Draw a card.\n", "sheet.txt")
    assert match_sheet(rows, load_deck("llamas"), "llamas-sheet").herd_bonus == [("llama", "Draw a card.")]
    refused = match_sheet(rows, load_deck("uu-2nd"), "uu-2nd-sheet")
    assert refused.herd_bonus == [] and "only Llamas Unleashed has Herd Bonuses" in str(refused.problems[0])


def test_a_name_with_an_accent_gets_the_id_the_shipped_deck_gives_it():
    rows, _ = parse_sheet("name,type,text\nLlama Piñata,Upgrade card,A card with an accent.\n", "s.csv")
    (card,) = match_sheet(rows, dataclasses.replace(load_deck("llamas"), cards=()), "llamas-sheet").added
    assert card.id == "llama-pinata"
