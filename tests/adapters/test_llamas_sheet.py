"""The owner's reference sheet of the whole Llamas Unleashed base deck (tests/fixtures/llamas_reference_sheet.csv,
typed as an owner would: name, type line, text, copies and braille label) carries the game alone: imported as a new
deck that shares no card with a shipped one, every card gets the type, variation and tags the tracker acts on from
its wording, and the whole game of tests/ui/test_llamas_game.py plays to the same win on it."""

from __future__ import annotations

import dataclasses
import io
import json
import tomllib
from pathlib import Path

from llamas_game import ANA_FIELD, BEN_FIELD, assert_the_game_was_said, game_lines, true_deck_count

from assistant.commands.app import table_session
from assistant.core.cards.card import CardSet, CardType, Deck, Tag
from assistant.core.cards.cardfile import parse_deck
from assistant.core.cards.sheet import match_sheet, parse_sheet, render_import
from assistant.core.cards.wording import taken_variation
from assistant.storage.decks import load_deck
from assistant.ui.plain import run_plain
from tests.core.test_card_wording import EXACT_TAGS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SHEET = FIXTURES / "llamas_reference_sheet.csv"
#: Every tag the game tracker acts on (`assistant/core/game`); the others only describe a card for search.
ACTED_ON = EXACT_TAGS | {Tag.EXTRA_ACTION, Tag.COUNTS_AS_TWO, Tag.NOT_A_UNICORN_EFFECT}
#: What the wording rules cannot read from the sheet: nothing now that "you may play a second card" is read as an
#: extra play (`extra_action`).
KNOWN_DIFFERENCES: dict[str, list[str]] = {}


def imported_deck() -> Deck:
    """The sheet matched against an empty Llamas base, so every card is new, written and loaded as a deck file."""
    rows, problems = parse_sheet(SHEET.read_text(encoding="utf-8"), SHEET.name)
    assert problems == []
    base = dataclasses.replace(load_deck("llamas"), cards=())
    result = match_sheet(rows, base, "our-llamas")
    assert result.problems == [] and result.matched == [] and len(result.added) == 77
    assert [variation for variation, _ in result.herd_bonus] == ["alpaca"]
    return parse_deck(render_import(result, base, "our-llamas", SHEET.name), "our-llamas.toml")


def test_the_sheet_is_the_whole_base_deck_in_an_owners_words():
    rows, _ = parse_sheet(SHEET.read_text(encoding="utf-8"), SHEET.name)
    cards = [row for row in rows if row.type != "Herd Bonus"]
    assert len(cards) == 77 and sum(int(row.copies) for row in cards) == 127
    assert {row.type for row in rows} >= {"Magical Llama card", "Instant", "Baby Alpaca card", "Upgrade card"}
    assert "#Studlife" in [row.name for row in cards]


def test_every_imported_card_gets_the_type_variation_and_tags_the_tracker_acts_on():
    shipped = {card.id: card for card in load_deck("llamas").cards}
    imported = {card.id: card for card in imported_deck().cards}
    assert set(imported) == set(shipped), "every card named as the shipped deck names it"
    differences = {}
    for card_id, card in shipped.items():
        mine = imported[card_id]
        assert (mine.name, mine.type, mine.copies) == (card.name, card.type, card.copies)
        assert mine.variation == card.variation, card_id
        assert mine.abbreviation == shipped_label(card_id), "the sheet's label is the card's"
        lost = sorted((card.tags ^ mine.tags) & ACTED_ON)
        if lost:
            differences[card_id] = lost
    assert differences == KNOWN_DIFFERENCES
    # an imported counter, as a shipped one, is of no variation: the one it takes is read from its text
    takers = {
        c.name: taken_variation(c.text) for c in imported.values() if c.has(Tag.TAKES_STOPPED) and not c.variation
    }
    assert takers == {"Spit Happens": "llama", "Alpaca Your Bags": "alpaca", "Baaa'd Move!": "ram",
                      "Don't Kid Yourself!": "goat"}  # fmt: skip
    assert imported["surprise-emu-attack"].has(Tag.ANSWERS_ANIMAL)
    assert imported["legal-ramifications"].has(Tag.SILENCES_UNICORNS)
    assert imported["henry-the-huarizo"].variation == "llama+alpaca"
    assert [c.name for c in imported.values() if c.type is CardType.BABY] == [
        "Baby Llama", "Baby Alpaca", "Baby Goat", "Baby Ram"]  # fmt: skip


def shipped_label(card_id: str) -> str:
    """The shipped braille label of a base card."""
    labels = tomllib.loads((FIXTURES.parents[1] / "braille_map" / "llamas.toml").read_text(encoding="utf-8"))
    return labels["abbreviations"][card_id]["abbreviation"]


def test_the_game_replayed_on_the_imported_deck_ends_the_same():
    """The same script on the imported deck and the shipped pack; the new game line names no deck, so the shipped
    base deck is never loaded: the same counters, Herd Bonuses, deck count and win."""
    cards = CardSet([imported_deck(), load_deck("llamas-farmed")])
    first, *rest = game_lines()
    assert first.startswith("new game Ana Ben Cy Dee deck llamas addon llamas-farmed ")
    script = [first.replace("deck llamas addon llamas-farmed ", ""), *rest]
    session = table_session(cards)
    out = io.StringIO()
    run_plain(session, io.StringIO("\n".join(script) + "\n"), out)
    lines = out.getvalue().splitlines()
    assert session.cards.get("basic-llama").deck == "our-llamas", "the sheet's cards, not the shipped deck's"
    assert f"7 Animals to win. The deck holds about {true_deck_count()} cards after the deal." in lines
    assert_the_game_was_said(lines, " Your reference sheet says so. It may be used with 3 or more Alpacas.")
    state = session.game.state
    assert state.outcome is not None and state.outcome.winner == 0
    assert [list(stable) for stable in state.stables][:2] == [ANA_FIELD, BEN_FIELD]
    assert state.deck == 124


def test_deck_import_takes_the_sheet_for_the_shipped_deck_card_for_card(cli, tmp_path):
    """The command an owner runs: every line of the sheet matches its card, nothing is reported."""
    result = cli("deck", "import", str(SHEET), "--base", "llamas", "--json", home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["matched"]) == 77 and report["added"] == [] and report["problems"] == []
    assert report["herd_bonus"] == ["alpaca"]
