"""The pure braille core: the built-in grade-1 table, the abbreviation rule, six-key entry."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.core.braille import celltable
from assistant.core.braille.abbreviations import (
    MAX_CELLS,
    AbbreviationClash,
    Override,
    assign,
    is_too_long,
    keys_in_use,
    long_form,
    short_form,
)
from assistant.core.braille.sixkey import EntryMode, SixKeyEntry
from assistant.core.cards.card import Card, CardType, Vocabulary
from assistant.core.words.entry import (
    NO_LETTERS,
    NOTHING_TYPED,
    SIXKEY_DOTS_CLEARED,
    SIXKEY_NOTHING_TO_DELETE,
    cell_echo,
    query_problem,
    query_too_long,
    sixkey_echo,
    spoken_query,
)


def card(name: str, card_type: str, card_id: str | None = None) -> Card:
    from assistant.core.cards.card import slugify

    return Card(card_id or slugify(name), name, CardType(card_type), 1, "Text.", "test")


# The built-in table


def test_cells_from_dots_and_back():
    assert celltable.cell([1, 2]) == "⠃"
    assert celltable.cell([]) == celltable.BLANK
    assert celltable.dots_of("⠗") == (1, 2, 3, 5)
    with pytest.raises(ValueError):
        celltable.cell([9])
    with pytest.raises(ValueError):
        celltable.dots_of("r")


def test_grade1_letters_digits_and_spaces():
    assert celltable.to_cells("ug rainbow") == "⠥⠛⠀⠗⠁⠊⠝⠃⠕⠺"
    assert celltable.to_cells("Two 4 1a") == "⠞⠺⠕⠀⠼⠙⠀⠼⠁⠰⠁"
    assert celltable.from_cells("⠞⠺⠕⠀⠼⠙⠀⠼⠁⠰⠁") == "two 4 1a"
    assert celltable.from_cells("⠠⠊⠀⠝⠑⠊⠛⠓") == "I neigh"


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 ", max_size=30))
def test_grade1_round_trip(text):
    folded = " ".join(text.split())
    assert celltable.from_cells(celltable.to_cells(folded)) == folded


def test_cell_key_drops_spaces_and_word_initial_signs_only():
    assert celltable.cell_key("⠰⠃⠀⠗⠫") == "⠃⠗⠫"
    assert celltable.cell_key("⠠⠠⠥⠛ ⠗") == "⠥⠛⠗"
    assert celltable.cell_key("⠙⠠⠝") == "⠙⠠⠝"  # a dot-6 contraction inside a word stays


def test_unknown_cells_are_kept_when_reading():
    assert celltable.from_cells("⠭⠿") == "x⠿"
    assert celltable.has_cells("abc ⠁")
    assert not celltable.has_cells("abc" + celltable.BLANK)


# The abbreviation rule


@pytest.mark.parametrize(
    ("name", "card_type", "expected"),
    [
        ("Baby Unicorn (Red)", "baby", "b red"),
        ("Basic Unicorn (Indigo)", "basic", "indigo"),
        ("Narwhal", "basic", "narwhal"),
        ("Rainbow Unicorn", "magical", "m rainbow"),
        ("Magical Kittencorn", "magical", "m kittencorn"),
        ("Two-For-One", "magic", "action twoforone"),
        ("Unicorn Swap", "magic", "action swap"),
        ("Rainbow Aura", "upgrade", "ug rainbow aura"),
        ("Broken Stable", "downgrade", "dg broken stable"),
        ("Neigh", "instant", "i neigh"),
        ("Stabby the Unicorn", "magical", "m stabby"),
    ],
)
def test_rule_follows_the_braille_deck_convention(name, card_type, expected):
    assert short_form(card(name, card_type)) == expected


def test_rule_uses_the_deck_vocabulary():
    assert short_form(card("Magical Llamacorn Animal", "magical"), Vocabulary.ANIMAL) == "m llamacorn"
    assert short_form(card("Dalai Llama", "magical"), Vocabulary.ANIMAL) == "m dalai llama"


def test_too_long_labels_lose_their_first_words_then_letters():
    label = short_form(card("Extremely Destructive Unicorn", "magical"))
    assert label == "m destructive"
    assert celltable.count_cells(label) <= MAX_CELLS
    single = short_form(card("Supercalifragilisticexpialidocious", "magic"))
    assert single.startswith("action supercal") and not is_too_long(single)


def test_clashing_cards_step_back_to_longer_forms():
    cards = [card("Flying Unicorn", "magical"), card("Magical Flying", "magical")]
    result = assign(cards)
    labels = {entry.text for entry in result.values()}
    assert len(labels) == 2


def test_a_clash_the_rule_cannot_solve_names_the_cards_and_an_override_solves_it():
    cards = [card("Apocalypse", "magic", "apocalypse"), card("Apocalypse!", "magic", "the-apocalypse")]
    with pytest.raises(AbbreviationClash) as caught:
        assign(cards)
    assert "apocalypse, the-apocalypse" in str(caught.value)
    fixed = assign(cards, overrides={"the-apocalypse": Override("action the end", reason="clash")})
    assert fixed["the-apocalypse"].text == "action the end"
    assert fixed["apocalypse"].text == "action apocalypse"


def test_a_label_equal_to_another_cards_name_steps_back_and_only_it():
    result = assign([card("Unicorn Swap", "magic"), card("Action Swap", "upgrade")])
    assert result["unicorn-swap"].text == "action unicorn swap"
    assert result["action-swap"].text == "ug action swap"


def test_labels_avoid_keys_of_decks_played_alongside():
    base = assign([card("Rainbow Unicorn", "magical")])
    assert base["rainbow-unicorn"].text == "m rainbow"
    taken = keys_in_use(base.values())
    expansion = assign([card("Rainbow Unicorns", "magical")], taken=taken)
    assert expansion["rainbow-unicorns"].text == "m rainbow unicorns"
    with pytest.raises(AbbreviationClash):
        assign([card("Rainbow Unicorn", "magical", "rainbow-unicorn-2")], taken=taken)


def test_long_form_is_an_alias_and_override_aliases_are_kept():
    result = assign(
        [card("Rainbow Unicorn", "magical")],
        overrides={"rainbow-unicorn": Override(aliases=("rainbow horse",), reason="house name")},
    )
    entry = result["rainbow-unicorn"]
    assert entry.text == "m rainbow"
    assert entry.aliases == ("m rainbow unicorn", "rainbow horse")
    assert long_form(card("Baby Unicorn (Red)", "baby")) == "b unicorn red"


def test_an_override_alias_taken_by_another_card_is_refused():
    cards = [card("Rainbow Unicorn", "magical"), card("Rainbow Aura", "upgrade")]
    with pytest.raises(AbbreviationClash):
        assign(cards, overrides={"rainbow-unicorn": Override(aliases=("ug rainbow aura",), reason="x")})


# Six-key entry


def test_chord_keys_within_the_window_make_one_cell():
    entry = SixKeyEntry(EntryMode.CHORD, window=0.1)
    assert sixkey_echo(entry.press("f", 0.0).echo) == ""
    assert sixkey_echo(entry.press("d", 0.05).echo) == ""
    assert entry.deadline == pytest.approx(0.1)
    assert sixkey_echo(entry.tick(0.2).echo) == "b"
    assert entry.text == "⠃"


def test_a_key_after_the_window_starts_a_new_cell():
    entry = SixKeyEntry(EntryMode.CHORD, window=0.1)
    entry.press("f", 0.0)
    outcome = entry.press("f", 0.5)
    assert sixkey_echo(outcome.echo) == "a"
    assert sixkey_echo(entry.flush().echo) == "a"
    assert entry.text == "⠁⠁"


def test_the_same_key_twice_in_a_chord_is_two_cells():
    entry = SixKeyEntry(EntryMode.CHORD, window=1.0)
    entry.press("j", 0.0)
    assert sixkey_echo(entry.press("j", 0.01).echo) == cell_echo("⠈")
    entry.flush()
    assert entry.text == "⠈⠈"


def test_dots_then_space_mode_one_handed():
    entry = SixKeyEntry(EntryMode.DOTS_THEN_SPACE)
    for key, at in (("f", 0), ("d", 5), ("s", 9), ("k", 30)):  # slow is fine: only Space finishes the cell
        assert sixkey_echo(entry.press(key, at).echo) == ""
    assert sixkey_echo(entry.press("space", 31).echo) == "r"
    assert sixkey_echo(entry.press("space", 32).echo) == "space"
    assert entry.text == "⠗ "


def test_backspace_clears_dots_then_deletes_cells():
    entry = SixKeyEntry(EntryMode.DOTS_THEN_SPACE)
    entry.press("f", 0)
    entry.press("space", 1)
    entry.press("d", 2)
    assert sixkey_echo(entry.press("backspace", 3).echo) == SIXKEY_DOTS_CLEARED
    assert sixkey_echo(entry.press("backspace", 4).echo) == "a deleted"
    assert sixkey_echo(entry.press("backspace", 5).echo) == SIXKEY_NOTHING_TO_DELETE
    assert entry.text == ""


def test_chord_backspace_deletes_the_last_cell_and_drops_a_pending_chord():
    entry = SixKeyEntry(EntryMode.CHORD, window=0.1)
    entry.press("f", 0.0)
    entry.press("f", 1.0)  # the first chord closes: "a"; a second one starts
    outcome = entry.press("backspace", 1.01)
    assert sixkey_echo(outcome.echo) == "a deleted"
    assert entry.text == "" and not entry.pending


def test_other_keys_are_not_ours_and_enter_flushes():
    entry = SixKeyEntry(EntryMode.CHORD, window=0.1)
    assert not entry.press("2", 0.0).handled
    entry.press("s", 0.0)
    entry.press("l", 0.0)
    outcome = entry.press("enter", 0.01)
    assert not outcome.handled and sixkey_echo(outcome.echo) == "dots 3 6" and outcome.text == "⠤"


def test_dots_seven_and_eight():
    entry = SixKeyEntry(EntryMode.DOTS_THEN_SPACE)
    entry.press("a", 0)
    entry.press("semicolon", 0)
    entry.press("space", 0)
    assert entry.text == celltable.cell([7, 8])


def test_the_window_must_be_positive():
    with pytest.raises(ValueError):
        SixKeyEntry(EntryMode.CHORD, window=0)


@given(st.lists(st.sampled_from(["f", "d", "s", "j", "k", "l", "space", "backspace"]), max_size=40))
def test_entry_text_is_always_cells_and_spaces(keys):
    entry = SixKeyEntry(EntryMode.DOTS_THEN_SPACE)
    for i, key in enumerate(keys):
        entry.press(key, float(i))
    entry.flush()
    assert all(celltable.is_cell(ch) or ch == " " for ch in entry.text)
    assert not entry.pending


# Sentences


def test_bad_queries_get_clear_messages():
    assert query_problem("") == NOTHING_TYPED
    assert query_problem("   ") == NOTHING_TYPED
    assert query_problem("x" * 10_000) == query_too_long(10_000)
    assert query_problem("\x00\x01\x1b[31m") == NO_LETTERS
    assert query_problem("!!!") == NO_LETTERS
    assert query_problem("⠭⠟") == ""
    assert query_problem("ug rainbow") == ""


def test_a_braille_query_is_named_by_its_reading():
    assert spoken_query("⠭⠟⠵") == "xqz, typed in braille"
    assert spoken_query("⠿⠿") == "that braille"
    assert spoken_query("rainbo") == "rainbo"
