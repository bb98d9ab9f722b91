"""The card-text loader: broken files give every problem with its file and line."""

import textwrap

import pytest

from assistant.core.cards.card import CardType, Vocabulary
from assistant.core.cards.cardfile import CardDataError, parse_deck

HEADER = """\
[deck]
id = "test"
title = "Test deck"
edition = "test"
game = "unstable-unicorns"
kind = "base"
vocabulary = "unicorn"
complete = true
"""


def deck(cards: str) -> str:
    return HEADER + "\n" + textwrap.dedent(cards)


def problems(text: str) -> list[str]:
    with pytest.raises(CardDataError) as caught:
        parse_deck(text, "t.toml")
    return str(caught.value).splitlines()


GOOD = """\
[[cards]]
id = "rainbow-aura"
name = "Rainbow Aura"
type = "upgrade"
copies = 1
text = "Your Unicorns cannot be destroyed."
tags = ["continuous", "protects"]
"""


def test_a_good_deck_loads_with_its_fields():
    loaded = parse_deck(deck(GOOD), "t.toml")
    (card,) = loaded.cards
    assert loaded.info.vocabulary is Vocabulary.UNICORN
    assert card.type is CardType.UPGRADE
    assert card.tags == {"continuous", "protects"}
    assert card.deck == "test"


def test_unknown_key_names_its_line():
    text = deck(GOOD.replace("copies = 1\n", 'copies = 1\ncolour = "red"\n'))
    assert problems(text) == ["t.toml:15: rainbow-aura: colour: unknown key"]


def test_duplicate_id_points_at_the_second_and_the_first():
    text = deck(GOOD + "\n" + GOOD.replace("Rainbow Aura", "Other"))
    assert problems(text) == ["t.toml:19: rainbow-aura: id: duplicate id (first at line 11)"]


def test_bad_type_and_empty_text_and_bad_copies_are_all_reported():
    text = deck(
        GOOD.replace('"upgrade"', '"upgrad"')
        .replace("copies = 1", "copies = 0")
        .replace('"Your Unicorns cannot be destroyed."', '"   "')
    )
    assert problems(text) == [
        "t.toml:13: rainbow-aura: type: 'upgrad' is not a card type "
        "(baby, basic, magical, upgrade, downgrade, magic, instant)",
        "t.toml:14: rainbow-aura: copies: 0 is not a positive whole number",
        "t.toml:15: rainbow-aura: text: is empty",
    ]


def test_missing_text_unknown_tag_and_bad_deck_metadata():
    text = deck(
        GOOD.replace('text = "Your Unicorns cannot be destroyed."\n', "").replace('"protects"', '"protect"')
    ).replace('kind = "base"', 'kind = "bass"')
    assert problems(text) == [
        "t.toml:6: deck: kind: 'bass' is not one of base, expansion, import",
        "t.toml:10: rainbow-aura: text: missing",
        "t.toml:15: rainbow-aura: tags: unknown tag 'protect'",
    ]


def test_a_retired_tag_loads_and_is_left_out_and_no_shipped_card_has_one():
    """`skip_phase` was read by nothing (each card with it has a tag of its own for what it skips): it is out of the
    format, the shipped decks and `Tag`; a deck file written with it still loads, without it."""
    import tomllib
    from pathlib import Path

    from assistant.core.cards.card import Tag
    from assistant.core.cards.cardfile import RETIRED_TAGS

    (card,) = parse_deck(deck(GOOD.replace('"protects"', '"protects", "skip_phase"')), "t.toml").cards
    assert card.tags == {"continuous", "protects"}
    assert not RETIRED_TAGS & {tag.value for tag in Tag}
    shipped = sorted((Path(__file__).parents[2] / "card_texts").glob("*.toml"))
    assert shipped
    for path in shipped:
        cards = tomllib.loads(path.read_text(encoding="utf-8")).get("cards", [])
        assert not [c["id"] for c in cards if RETIRED_TAGS & set(c.get("tags", []))], path.name


def test_bad_toml_gives_its_line():
    text = deck(GOOD.replace('name = "Rainbow Aura"', 'name = "Rainbow Aura'))
    (message,) = problems(text)
    assert message.startswith("t.toml:12: -: toml: not valid TOML")


def test_copies_must_be_a_whole_number_not_text_or_boolean():
    text = deck(
        GOOD.replace("copies = 1", 'copies = "three"')
        + "\n"
        + GOOD.replace("rainbow-aura", "b").replace("copies = 1", "copies = true")
    )
    assert problems(text) == [
        "t.toml:14: rainbow-aura: copies: 'three' is not a positive whole number",
        "t.toml:22: b: copies: True is not a positive whole number",
    ]


def test_variation_only_for_llamas():
    text = deck(GOOD.replace("copies = 1", 'copies = 1\nvariation = "llama"'))
    assert problems(text) == ["t.toml:15: rainbow-aura: variation: only Llamas Unleashed cards have a variation"]


def test_a_multiline_text_does_not_shift_line_numbers():
    multiline = GOOD.replace('"Your Unicorns cannot be destroyed."', '"""Line one.\nLine two."""')
    text = deck(multiline + "\n" + GOOD.replace("upgrade", "upgrayedd").replace("rainbow-aura", "x"))
    assert problems(text)[0].startswith("t.toml:22: x: type:")


LLAMAS_HEADER = HEADER.replace('game = "unstable-unicorns"', 'game = "llamas-unleashed"').replace(
    'vocabulary = "unicorn"', 'vocabulary = "animal"'
)
LLAMA = """
[[cards]]
id = "basic-llama"
name = "Basic Llama"
type = "basic"
copies = 1
text = "A Basic Animal, a Llama."
variation = "llama"
"""


def test_a_herd_bonus_tagged_passive_is_read_and_a_bad_tag_is_a_load_error():
    bonus = '[herd_bonus]\nalpaca = "Your Alpacas cannot be destroyed."\nllama = "Steal an Animal card."\n'
    good = parse_deck(LLAMAS_HEADER + bonus + 'passive = ["alpaca"]\n' + LLAMA, "t.toml")
    assert good.info.passive_bonus == ("alpaca",)
    assert parse_deck(LLAMAS_HEADER + bonus + LLAMA, "t.toml").info.passive_bonus == ()
    found = problems(LLAMAS_HEADER + bonus + 'passive = ["unicorn", "goat"]\n' + LLAMA)
    assert any("passive: unknown variation 'unicorn'" in line for line in found), found
    assert any("passive: goat has no Herd Bonus text" in line for line in found), found
    assert any("must be a list" in line for line in problems(LLAMAS_HEADER + bonus + 'passive = "alpaca"\n' + LLAMA))
