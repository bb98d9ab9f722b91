"""Every shipped deck: it loads, its composition is the printed deck's, the tags the tracker acts on are right,
its texts can be spoken, and base decks combine with the expansions that go with them."""

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from assistant.core.cards.card import VARIATIONS, CardSet, CardType
from assistant.core.cards.cardfile import CardDataError, parse_deck
from assistant.core.cards.wording import taken_variation
from assistant.core.game.rules import load_rules
from assistant.core.words.cardtext import deck_chosen
from assistant.storage.decks import combine, deck_files, load_card_set, load_deck, load_deck_file
from assistant.storage.paths import card_texts_dir

SHIPPED = sorted(path.stem for path in card_texts_dir().glob("*.toml"))
CLASSIC = {"baby": 13, "basic": 22, "magical": 30, "magic": 25, "upgrade": 14, "downgrade": 8, "instant": 15}

#: Copies of each type in each base deck, and unique cards and copies of each expansion (card facts of each deck).
COMPOSITION = {
    "uu-2nd": CLASSIC,
    "llamas": {"baby": 12, "basic": 24, "magical": 30, "magic": 25, "upgrade": 15, "downgrade": 8, "instant": 13},
    "uu-1st": CLASSIC,
    "uu-nsfw": {"baby": 13, "basic": 21, "magical": 31, "magic": 25, "upgrade": 15, "downgrade": 7, "instant": 15},
}
SIZES = {
    "uu-2nd": (84, 127),
    "uu-1st": (84, 127),
    "uu-nsfw": (90, 127),
    "uu-rainbow-apocalypse": (37, 53),
    "uu-dragons": (31, 54),
    "uu-legends": (34, 54),
    "uu-adventures": (38, 54),
    "uu-nsfw-expansion": (33, 52),
    "llamas": (77, 127),
    "llamas-farmed": (35, 54),
}

#: Tags the tracker acts on, per deck: (card id, tag) pairs that must hold.
KNOWN_TAGS = {
    "uu-2nd": [
        ("ginormous-unicorn", "counts_as_two"),
        ("ginormous-unicorn", "stops_neighs"),
        ("pandamonium", "not_a_unicorn_effect"),
        ("slowdown", "stops_neighs"),
        ("yay", "cannot_be_neighed"),
        ("super-neigh", "super_neigh"),
        ("super-neigh", "cannot_be_neighed"),
        ("neigh", "neigh"),
        ("double-dutch", "extra_action"),
        ("rainbow-aura", "protects_unicorns"),
    ],
    "uu-1st": [
        ("ginormous-unicorn", "counts_as_two"),
        ("pandamonium", "not_a_unicorn_effect"),
        ("slowdown", "stops_instants"),
        ("yay", "cannot_be_neighed"),
        ("super-neigh", "super_neigh"),
    ],
    "uu-nsfw": [
        ("unicorn-butt-plug", "hand_limit_change"),
        ("uncut-unicorn", "hand_limit_change"),
        ("giant-horned-cock", "counts_as_two"),
        ("total-stud-unicorn", "counts_as_two"),
        ("horse-shit", "not_a_unicorn_effect"),
    ],
    "uu-nsfw-expansion": [("unicorn-butt-plug", "hand_limit_change")],
    "uu-rainbow-apocalypse": [("tiny-hooves", "hand_limit_change"), ("unicorn-of-famine", "hand_limit_change")],
    "uu-legends": [("extradimensional-saddlebag", "hand_limit_change")],
    "llamas": [
        ("tranquilizer", "stops_instants"),
        ("flea-ridden-barn", "stops_upgrades"),
        ("velcro-barrier", "no_llamas_here"),
        ("velcro-barrier", "no_alpacas_here"),
        ("legal-ramifications", "silences_unicorns"),
        ("prehistoric-llamadon", "hand_limit_change"),
        ("spit-happens", "takes_stopped"),
        ("surprise-emu-attack", "answers_animal"),
    ],
    "llamas-farmed": [
        ("fannypaca", "hand_limit_change"),
        ("crowded-field", "at_most_five"),
        ("goatsundheit", "both_draw"),
        ("llama-stop-you-right-there", "neigh"),
    ],
}


def test_every_card_texts_file_is_shipped_and_loads():
    assert {"uu-2nd", "uu-1st", "uu-nsfw", "llamas"} <= set(SHIPPED)
    assert set(SIZES) == set(SHIPPED)
    for deck_id in SHIPPED:
        assert load_deck(deck_id).id == deck_id
        # every shipped deck says how well its texts are checked (values are validated by the loader)
        raw = tomllib.loads((card_texts_dir() / f"{deck_id}.toml").read_text(encoding="utf-8"))
        assert "confidence" in raw["deck"], deck_id


@pytest.mark.parametrize("deck_id", sorted(SIZES))
def test_unique_cards_and_copies_match_the_printed_deck(deck_id):
    deck = load_deck(deck_id)
    assert (len(deck.cards), deck.total_copies) == SIZES[deck_id]


@pytest.mark.parametrize("deck_id", sorted(COMPOSITION))
def test_base_deck_type_composition(deck_id):
    deck = load_deck(deck_id)
    copies = Counter()
    for card in deck.cards:
        copies[card.type.value] += card.copies
    assert dict(copies) == COMPOSITION[deck_id]


@pytest.mark.parametrize("deck_id", sorted(KNOWN_TAGS))
def test_tags_the_tracker_acts_on(deck_id):
    deck = load_deck(deck_id)
    cards = {card.id: card for card in deck.cards}
    missing = [(card, tag) for card, tag in KNOWN_TAGS[deck_id] if card not in cards or tag not in cards[card].tags]
    assert missing == []


def test_every_counts_as_two_card_is_a_unicorn_and_every_masquerade_card_a_downgrade():
    for deck_id in SHIPPED:
        for card in load_deck(deck_id).cards:
            if card.has("counts_as_two"):
                assert card.type.is_creature, card.id
            if card.has("not_a_unicorn_effect"):
                assert card.type is CardType.DOWNGRADE, card.id
            if card.has("super_neigh"):
                assert card.tags >= {"neigh", "cannot_be_neighed"}, card.id
            assert not (card.has("begin_turn_trigger") and card.has("begin_turn_optional")), card.id


def test_cards_the_rules_name_exist_with_the_tags_they_need():
    rules = load_rules()
    every = {card.id: card for deck_id in SHIPPED for card in load_deck(deck_id).cards}
    for card_id in rules.hand_limits:
        if card_id in every:
            assert every[card_id].has("hand_limit_change"), card_id
    assert {"tiny-hooves", "unicorn-butt-plug", "uncut-unicorn"} <= set(every)
    classic = {card.id for deck_id in ("uu-1st", "uu-2nd") for card in load_deck(deck_id).cards}
    # rulebook 002 also removes Tourist Trap, a card of no deck we know of; the variant skips cards not in play
    assert set(rules.two_player_removed) - {"tourist-trap"} <= classic


_UNSPEAKABLE = re.compile(r"[&/*<>{}\[\]|#@~^\\_=+]|[\U0001F300-\U0001FAFF]")


def test_every_text_is_ready_to_be_spoken():
    problems = []
    for deck_id in SHIPPED:
        for card in load_deck(deck_id).cards:
            if _UNSPEAKABLE.search(card.text):
                problems.append(f"{deck_id}: {card.id}: {_UNSPEAKABLE.search(card.text).group()!r}")
            if not card.text.rstrip().endswith((".", "!", "?")):
                problems.append(f"{deck_id}: {card.id}: the text does not end a sentence")
    assert problems == []


def test_texts_use_their_decks_vocabulary():
    for deck_id in SHIPPED:
        deck = load_deck(deck_id)
        if deck.info.game == "llamas-unleashed":
            for card in deck.cards:
                assert not re.search(r"\b(Stable|Unicorn|Neigh)s?\b", card.text), card.id
        else:
            assert not any(re.search(r"\bField\b", card.text) for card in deck.cards), deck_id


def test_llamas_is_complete_with_variations_and_herd_bonus():
    deck = load_deck("llamas")
    assert deck.info.complete is True and deck.info.copies_known is True
    assert "deck import" in deck.info.notes
    for deck_id in ("llamas", "llamas-farmed"):
        for card in load_deck(deck_id).cards:
            if card.type.is_creature:
                assert card.variation and all(part in VARIATIONS for part in card.variation.split("+")), card.id
            elif card.type is CardType.INSTANT and card.has("takes_stopped"):
                # an Instant is of no variation ("an Instant is a Llama card" was said): its text names what it takes
                assert card.variation is None and taken_variation(card.text) in VARIATIONS, card.id
            else:
                assert card.variation is None, card.id
    assert {key for key, _ in deck.info.herd_bonus} == {"rule", *VARIATIONS}


INCOMPLETE = """\
[deck]
id = "llamas-partial"
title = "Partial Llamas"
edition = "test"
game = "llamas-unleashed"
kind = "base"
vocabulary = "animal"
complete = false

[[cards]]
id = "llamaste"
name = "Llamaste"
type = "upgrade"
copies = 1
text = "Each time any player plays a Llama Animal card, you may draw a card."
"""


def test_choosing_an_incomplete_deck_says_so_and_points_to_the_import():
    sentence = deck_chosen(CardSet([parse_deck(INCOMPLETE, "partial.toml")]))
    assert "This card list is incomplete." in sentence
    assert "table-assistant deck import FILE --base llamas-partial" in sentence
    assert "incomplete" not in deck_chosen(load_card_set("uu-2nd"))
    assert "incomplete" not in deck_chosen(load_card_set("llamas", ["llamas-farmed"]))


def test_every_base_deck_combines_with_all_the_expansions_it_takes():
    decks = {deck_id: load_deck(deck_id) for deck_id in SHIPPED}
    for base in (d for d in decks.values() if d.info.kind == "base"):
        addons = [d for d in decks.values() if d.info.adds_to(base.info)]
        card_set = combine([base, *addons])
        assert len(card_set) == len(base.cards) + sum(len(a.cards) for a in addons), base.id
    assert {d.id for d in decks.values() if d.info.adds_to(decks["uu-2nd"].info)} == set(SIZES) - {
        "uu-2nd",
        "uu-1st",
        "uu-nsfw",
        "llamas",
        "llamas-farmed",
    }
    assert {d.id for d in decks.values() if d.info.adds_to(decks["llamas"].info)} == {"llamas-farmed"}
    assert not decks["uu-nsfw-expansion"].info.adds_to(decks["uu-nsfw"].info)


def test_a_base_plus_add_ons_is_one_card_set():
    cards = load_card_set("uu-2nd", ["uu-dragons", "uu-legends"])
    assert [d.id for d in cards.decks] == ["uu-2nd", "uu-dragons", "uu-legends"]
    assert len(cards) == 84 + 31 + 34


def test_an_add_on_that_does_not_go_with_the_base_is_refused_by_name():
    with pytest.raises(LookupError) as caught:
        load_card_set("uu-nsfw", ["uu-nsfw-expansion"])
    assert "cannot be added to Unstable Unicorns NSFW base game" in str(caught.value)
    with pytest.raises(LookupError) as caught:
        load_card_set("uu-2nd", ["uu-1st"])
    assert "is not an expansion" in str(caught.value)


def test_an_id_in_two_files_is_an_error_naming_both_files_and_lines(tmp_path):
    header = (
        '[deck]\nid = "{id}"\ntitle = "T"\nedition = "e"\ngame = "unstable-unicorns"\nkind = "{kind}"\n'
        'vocabulary = "unicorn"\ncomplete = true\n'
    )
    card = '\n[[cards]]\nid = "{card}"\nname = "{card}"\ntype = "magic"\ncopies = 1\ntext = "Does a thing."\n'
    base = tmp_path / "b.toml"
    base.write_text(header.format(id="b", kind="base") + card.format(card="one") + card.format(card="two"))
    addon = tmp_path / "x.toml"
    addon.write_text(header.format(id="x", kind="expansion") + card.format(card="two"))
    with pytest.raises(CardDataError) as caught:
        combine([load_deck_file(base), load_deck_file(addon)])
    assert str(caught.value) == f"{addon}:11: two: id: also defined in {base}:18"


def test_shipped_and_installed_decks_are_listed_by_id():
    assert set(SHIPPED) <= set(deck_files())
    assert all(isinstance(path, Path) for path in deck_files().values())
