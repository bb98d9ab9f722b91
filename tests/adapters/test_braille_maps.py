"""The braille maps: every shipped map checked against its deck, the generator, and the file format's errors.

Like a dictionary test, each check walks every shipped deck and collects every error before failing.
"""

import pytest

from assistant.braille.generate import generation_order, plan_maps
from assistant.braille.maps import abbreviations_for, load_braille_map, map_path
from assistant.braille.translate import Grade, Translator
from assistant.commands.braille_maps import shipped_decks
from assistant.core.braille import celltable
from assistant.core.braille.abbreviations import MAX_CELLS, key_of
from assistant.core.braille.mapfile import BrailleMapError, parse_braille_map, render_braille_map
from assistant.core.cards.card import CardSet
from assistant.core.cards.cardfile import CardDataError, parse_deck
from assistant.core.words.entry import braille_map_damaged
from assistant.storage.decks import combine
from assistant.storage.paths import braille_map_dir

MAPS = braille_map_dir()

DECKS, _ = shipped_decks()  # a deck that does not load is reported by the card-file tests


def play_sets() -> list[tuple[str, CardSet]]:
    """Every base deck with each expansion that can be added to it, and with all of them at once."""
    out = []
    for base in (d for d in DECKS if d.info.kind == "base"):
        addons = [d for d in DECKS if d.info.adds_to(base.info)]
        for chosen in [[]] + [[a] for a in addons] + ([addons] if len(addons) > 1 else []):
            try:
                out.append(("+".join(d.id for d in [base, *chosen]), combine([base, *chosen])))
            except CardDataError:
                continue  # two decks define one id: the card files' problem, reported by their own tests
    return out


def test_there_are_shipped_decks_and_they_load():
    assert DECKS, "card_texts/ holds at least the default deck"
    assert "uu-2nd" in {d.id for d in DECKS}


def test_every_shipped_deck_has_a_valid_map_covering_every_card():
    problems = []
    for deck in DECKS:
        try:
            braille_map = load_braille_map(deck, MAPS)
        except BrailleMapError as exc:
            problems.append(str(exc))
            continue
        if braille_map is None:
            problems.append(f"{deck.id}: no map: run python -m assistant.commands.braille_maps")
            continue
        missing = {c.id for c in deck.cards} - set(braille_map.abbreviations)
        extra = set(braille_map.abbreviations) - {c.id for c in deck.cards}
        if missing or extra:
            problems.append(f"{deck.id}: cards without a label {sorted(missing)}, unknown cards {sorted(extra)}")
    assert problems == []


def test_every_map_file_belongs_to_a_shipped_deck():
    ids = {d.id for d in DECKS}
    strays = [p.name for p in MAPS.glob("*.toml") if p.stem not in ids]
    assert strays == []


def test_committed_maps_are_what_the_generator_writes():
    plan = plan_maps(DECKS, MAPS)
    assert plan.errors == []
    assert set(plan.texts) == {map_path(d.id, MAPS) for d in DECKS}
    stale = [p.name for p, text in plan.texts.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    assert stale == [], "run python -m assistant.commands.braille_maps"


def test_every_label_fits_on_a_card():
    too_long = []
    for deck in DECKS:
        for entry in load_braille_map(deck, MAPS).abbreviations.values():
            if celltable.count_cells(entry.text) > MAX_CELLS:
                too_long.append(f"{deck.id}: {entry.card_id}: {entry.text!r}")
    assert too_long == []


@pytest.mark.parametrize(("name", "card_set"), play_sets(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_key_is_unique_in_every_play_set(name, card_set):
    owners: dict[str, set[str]] = {}
    found = abbreviations_for(card_set, MAPS)
    assert found.notices == ()
    for card in card_set:
        entry = found.by_card[card.id]
        for text in entry.keys:
            owners.setdefault(key_of(text), set()).add(card.id)
    for card in card_set:  # a label must not be another card's name either
        if key_of(card.name) in owners:
            owners[key_of(card.name)].add(card.id)
    shared = {key: sorted(ids) for key, ids in owners.items() if len(ids) > 1}
    assert shared == {}


@pytest.mark.parametrize(("name", "card_set"), play_sets(), ids=lambda v: v if isinstance(v, str) else "")
def test_labels_stay_unique_in_braille_of_both_grades(name, card_set):
    translator = Translator()
    assert translator.has_liblouis, "the tests use the real liblouis tables"
    found = abbreviations_for(card_set, MAPS).by_card
    for grade in Grade:
        owners: dict[str, list[str]] = {}
        for card in card_set:
            cells = translator.to_cells(found[card.id].text, grade)
            owners.setdefault(celltable.cell_key(cells), []).append(card.id)
        assert {k: v for k, v in owners.items() if len(v) > 1} == {}, f"grade {int(grade)}"


def test_expansions_are_made_after_and_against_every_base_they_add_to():
    order = generation_order(DECKS)
    assert [d.id for d, _ in order] and len(order) == len(DECKS)
    for deck, avoided in order:
        if deck.info.kind == "expansion":
            bases = {d.id for d in DECKS if deck.info.adds_to(d.info)}
            assert bases <= {d.id for d in avoided}


# The format, on small decks written here

DECK = """
[deck]
id = "tiny"
title = "Tiny"
edition = "test"
game = "unstable-unicorns"
kind = "base"
vocabulary = "unicorn"
complete = true

[[cards]]
id = "rainbow-aura"
name = "Rainbow Aura"
type = "upgrade"
copies = 1
text = "Your Unicorns cannot be destroyed."

[[cards]]
id = "neigh"
name = "Neigh"
type = "instant"
copies = 3
text = "Stop a card from being played."
"""


def tiny():
    return parse_deck(DECK, "tiny.toml")


def test_a_rendered_map_parses_back_to_the_same_abbreviations():
    from assistant.core.braille.abbreviations import Override, assign

    deck = tiny()
    overrides = {"neigh": Override("no", ("nope",), 'short, and "no" is what players say')}
    made = assign(deck.cards, overrides=overrides)
    parsed = parse_braille_map(render_braille_map(deck, made, overrides), deck, "tiny.toml")
    assert parsed.abbreviations == made
    assert parsed.overrides == overrides
    assert made["neigh"].text == "no" and "nope" in made["neigh"].aliases


def test_every_problem_is_reported_with_file_and_line():
    text = "\n".join([
        "[map]",                                                        # 1
        'deck = "other"',                                               # 2
        "colour = 1",                                                   # 3
        "",                                                             # 4
        "[overrides]",                                                  # 5
        'neigh = { abbreviation = "no" }',                              # 6
        'ghost = { abbreviation = "boo", reason = "x" }',              # 7
        "",                                                             # 8
        "[abbreviations]",                                              # 9
        'neigh = { abbreviation = "ug rainbow aura" }',                 # 10
        'rainbow-aura = { abbreviation = "UG rainbow-aura", size = 2 }',  # 11
        'ghost = { abbreviation = "boo" }',                             # 12
    ])  # fmt: skip
    with pytest.raises(BrailleMapError) as caught:
        parse_braille_map(text, tiny(), "tiny.toml")
    lines = str(caught.value).splitlines()
    assert "tiny.toml:2: -: deck: 'other' should be 'tiny', the deck this file is for" in lines
    assert "tiny.toml:3: -: colour: unknown key" in lines
    assert "tiny.toml:6: neigh: reason: say why the rule's abbreviation will not do" in lines
    assert "tiny.toml:7: ghost: id: no card of the deck has this id" in lines
    differs = "'ug rainbow aura' differs from the override 'no': run the generator"
    assert f"tiny.toml:10: neigh: abbreviation: {differs}" in lines
    assert "tiny.toml:11: rainbow-aura: size: unknown key" in lines
    assert "tiny.toml:11: rainbow-aura: abbreviation: 'UG rainbow-aura' is also used for neigh" in lines
    assert "tiny.toml:12: ghost: id: no card of the deck has this id" in lines
    assert [int(line.split(":")[1]) for line in lines] == sorted(int(line.split(":")[1]) for line in lines)


def test_a_card_without_a_label_and_bad_toml_are_reported():
    with pytest.raises(BrailleMapError) as caught:
        parse_braille_map('[map]\ndeck = "tiny"\n[abbreviations]\nneigh = { abbreviation = "i neigh" }\n', tiny(), "t")
    assert "rainbow-aura: abbreviation: this card has none: run the generator" in str(caught.value)
    with pytest.raises(BrailleMapError) as caught:
        parse_braille_map('[map]\ndeck = "tiny"\n\n[abbreviations\n', tiny(), "t")
    assert str(caught.value).startswith("t:4: -: toml: not valid TOML")


def test_a_damaged_map_is_said_once_and_the_rule_takes_over(tmp_path):
    deck = tiny()
    (tmp_path / "tiny.toml").write_text('[map]\ndeck = "tiny"\n[abbreviations]\nneigh = 3\n')
    found = abbreviations_for(CardSet([deck]), folder=tmp_path)
    assert found.notices == (braille_map_damaged("Tiny"),)
    assert found.by_card["neigh"].text == "i neigh"
    assert found.by_card["rainbow-aura"].text == "ug rainbow aura"


def test_a_deck_without_a_map_gets_the_rule(tmp_path):
    found = abbreviations_for(CardSet([tiny()]), folder=tmp_path)
    assert found.notices == ()
    assert {e.text for e in found.by_card.values()} == {"i neigh", "ug rainbow aura"}


def test_generator_writes_then_checks_clean(tmp_path):
    deck = tiny()
    plan = plan_maps([deck], folder=tmp_path)
    [(path, text)] = plan.texts.items()
    path.write_text(text)
    assert load_braille_map(deck, tmp_path).abbreviations["neigh"].text == "i neigh"
    assert plan_maps([deck], folder=tmp_path).texts == {path: text}


def test_generator_keeps_overrides_and_reports_clashes(tmp_path):
    deck = tiny()
    (tmp_path / "tiny.toml").write_text(
        '[map]\ndeck = "tiny"\n[overrides]\nneigh = { abbreviation = "ug rainbow aura", reason = "test" }\n'
    )
    plan = plan_maps([deck], folder=tmp_path)
    assert plan.texts == {}
    assert any("neigh" in e and "rainbow-aura" in e for e in plan.errors)
    (tmp_path / "tiny.toml").write_text(
        '[map]\ndeck = "tiny"\n[overrides]\nneigh = { abbreviation = "nay", reason = "test" }\n'
    )
    plan = plan_maps([deck], folder=tmp_path)
    assert 'neigh = { abbreviation = "nay", reason = "test" }' in next(iter(plan.texts.values()))


def test_every_expansion_is_checked_in_some_play_set():
    names = [name.split("+") for name, _ in play_sets()]
    for expansion in (d for d in DECKS if d.info.kind == "expansion"):
        assert any(expansion.id in ids for ids in names), expansion.id
