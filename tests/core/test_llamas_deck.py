"""The shipped Llamas Unleashed decks hold every printed card: the base game (`llamas`) and the Farmed and Dangerous
expansion pack (`llamas-farmed`), loaded the way the app loads them, against the card facts in
`tests/fixtures/llamas_facts.toml` (name, type, variation, copies and set of each card; no card wording)."""

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from assistant.commands.app import braille_resolver
from assistant.core.cards.card import CardType, Tag, normalize
from assistant.core.cards.wording import taken_variation
from assistant.storage.decks import load_card_set, load_deck
from assistant.storage.paths import braille_map_dir

FACTS = tomllib.loads((Path(__file__).resolve().parents[1] / "fixtures" / "llamas_facts.toml").read_text("utf-8"))
#: The deck file that holds each set's cards.
DECK_OF_SET = {"base": "llamas", "farmed_and_dangerous": "llamas-farmed"}


def facts_of(set_name: str) -> list[dict]:
    return [card for card in FACTS["cards"] if card["set"] == set_name]


@pytest.fixture(scope="module")
def both():
    """The base game with the pack added, as `--deck llamas --addon llamas-farmed` plays it."""
    return load_card_set("llamas", ["llamas-farmed"])


@pytest.mark.parametrize("set_name", sorted(DECK_OF_SET))
def test_every_card_of_the_set_is_in_its_deck_file_with_its_facts(set_name):
    deck = load_deck(DECK_OF_SET[set_name])
    shipped = {card.name: card for card in deck.cards}
    assert len(shipped) == len(deck.cards), "a name twice in one file"
    expected = {fact["name"]: fact for fact in facts_of(set_name)}
    assert sorted(shipped) == sorted(expected)
    wrong = [
        (name, field, fact.get(field), got)
        for name, fact in expected.items()
        for field, got in (
            ("type", shipped[name].type.value),
            # an Instant is of no variation: the facts' variation of a counter is the one its text takes
            ("variation", shipped[name].variation or taken_variation(shipped[name].text)),
            ("copies", shipped[name].copies),
        )
        if fact.get(field) != got
    ]
    assert wrong == []


@pytest.mark.parametrize("set_name", sorted(DECK_OF_SET))
def test_totals_per_type_are_the_printed_sets(set_name):
    deck = load_deck(DECK_OF_SET[set_name])
    totals = dict(FACTS["totals"][set_name])
    assert (len(deck.cards), deck.total_copies) == (totals.pop("cards"), totals.pop("copies"))
    copies = Counter()
    for card in deck.cards:
        copies[card.type.value] += card.copies
    assert dict(copies) == totals


def test_the_pack_adds_to_the_llamas_base_game_only(both):
    base, pack = load_deck("llamas"), load_deck("llamas-farmed")
    assert pack.info.kind == "expansion" and pack.info.adds_to(base.info)
    assert not pack.info.adds_to(load_deck("uu-2nd").info)
    assert len(both) == len(FACTS["cards"]) == 112
    assert sum(card.copies for card in both) == 127 + 54
    # the pack's own Basic Animals share the base game's names but not its ids
    assert {card.deck for card in both if card.name == "Basic Llama"} == {"llamas", "llamas-farmed"}


def test_both_files_are_complete_single_source_with_known_copies():
    for deck_id in DECK_OF_SET.values():
        info = load_deck(deck_id).info
        assert info.complete and info.copies_known, deck_id
        assert info.confidence.value == "single-source", deck_id
        assert all(card.confidence.value == "single-source" for card in load_deck(deck_id).cards), deck_id


def test_every_animal_has_its_variation_and_babies_belong_to_the_nursery(both):
    for card in both:
        if card.type.is_creature:
            assert card.variation, card.id
        if card.type is CardType.BABY:
            assert card.has(Tag.NURSERY), card.id
    assert load_card_set("llamas").get("henry-the-huarizo").variation == "llama+alpaca"


def test_the_instants_carry_what_they_do(both):
    by_name = {card.name: card for card in both if card.type is CardType.INSTANT}
    takers = {
        "Spit Happens": "llama",
        "Alpaca Your Bags": "alpaca",
        "Baaa'd Move!": "ram",
        "Don't Kid Yourself!": "goat",
    }
    for name, variation in takers.items():
        card = by_name[name]
        assert card.tags == {Tag.NEIGH, Tag.TAKES_STOPPED} and taken_variation(card.text) == variation, name
        assert card.variation is None, f"{name} is an Instant, of no variation"
    assert by_name["Goatsundheit"].tags == {Tag.NEIGH, Tag.BOTH_DRAW}
    assert by_name["Llama Stop You Right There"].tags == {Tag.NEIGH, Tag.DRAW, Tag.DRAWS_IF_INSTANT}
    emu = by_name["Surprise Emu Attack"]
    assert emu.tags == {Tag.ANSWERS_ANIMAL, Tag.DESTROY} and emu.variation is None
    others = [card for card in both if card.type is not CardType.INSTANT and not card.type.is_creature]
    assert all(card.variation is None for card in others)


def test_the_texts_say_what_the_cards_do(both):
    """Texts once shipped wrong, each checked against what the card does."""
    text = {card.id: card.text for card in both}
    assert "every other player may then draw" in text["dalai-llama"]
    assert "must sacrifice" in text["prehistoric-llamadon"] and both.get("prehistoric-llamadon").has(Tag.SACRIFICE)
    assert "returns to your hand" in text["alpacacopter"] and both.get("alpacacopter").has(Tag.RETURN_TO_HAND)
    assert "enters your Field, you may draw 2 cards" in text["fannypaca"]
    assert both.get("fannypaca").tags >= {Tag.ENTER_TRIGGER, Tag.DRAW, Tag.HAND_LIMIT_CHANGE}
    assert " may " not in text["woolly-rammoth"]
    assert "cannot be moved into another player's Field" in text["velcro-barrier"]
    assert text["henry-the-huarizo"].endswith("It has no other effect.")
    assert "documented" not in " ".join(text.values())


def test_the_herd_bonus_table_says_what_is_known():
    bonus = dict(load_deck("llamas").info.herd_bonus)
    assert "cannot be destroyed" in bonus["alpaca"] and "sacrificed" in bonus["alpaca"]
    for variation in ("llama", "goat"):
        assert "reference card" in bonus[variation], variation
    assert bonus["ram"].startswith("Probably destroys an Animal card: this is only implied")


@pytest.mark.parametrize(
    "query, card_id",
    [
        ("m gin rammy", "gin-rammy"),
        ("m gin-rammy", "gin-rammy"),
        ("gin-rammy", "gin-rammy"),
        ("gin rammy", "gin-rammy"),
        ("m alpacacorn", "magical-alpacacorn"),
        ("m magical alpacacorn", "magical-alpacacorn"),
        ("dg ramifications", "legal-ramifications"),
        ("dg legal ramifications", "legal-ramifications"),
        ("dg flea-ridden barn", "flea-ridden-barn"),
        ("dg flea ridden barn", "flea-ridden-barn"),
        ("i spit happens", "spit-happens"),
        ("b llama", "baby-llama"),
        ("llama", "basic-llama"),
        ("llama fd", "basic-llama-fd"),
        ("action adoption", "animal-adoption"),
        ("ug fannypaca", "fannypaca"),
    ],
)
def test_braille_labels_and_their_long_forms_find_the_card(both, query, card_id):
    result = braille_resolver(both).resolve(query)
    assert result.match is not None and result.match.id == card_id, query


def test_every_label_and_alias_of_base_and_pack_finds_its_own_card(both):
    resolver = braille_resolver(both)
    wrong = []
    for deck_id in DECK_OF_SET.values():
        entries = tomllib.loads((braille_map_dir() / f"{deck_id}.toml").read_text("utf-8"))["abbreviations"]
        for card_id, entry in entries.items():
            for key in (entry["abbreviation"], *entry.get("aliases", [])):
                match = resolver.resolve(key).match
                if match is None or match.id != card_id:
                    wrong.append((key, card_id))
    assert wrong == []
    # only the pack's own Basic Animals share a name with a base card
    names = Counter(normalize(card.name) for card in both)
    assert {name for name, n in names.items() if n > 1} == {"basicllama", "basicalpaca", "basicgoat", "basicram"}
