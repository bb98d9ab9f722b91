"""Card prints and confidence: the 1st Edition as printed, print variants, how sure each text is, STEAL versus move.

Each card test checks the public transcriptions its text was checked against, as named in the card's `sources`
(and in its deck's notes):

- FIRST: a first print card list in an open-source JavaScript version of the game (the Kickstarter wording).
- KEDARV: kedarv/unstable on GitHub, a copy of the fan wiki's card pages with the first and the second print.
- MUSO: musomaddie/Unstable-Unicorns-Online on GitHub, a card table with the first print wording.
- TRUE_MISKIN: trueMiskin/unstable-unicorns on GitHub (C#), which implements the 1st Edition second print.
- RUST: an open-source Rust version of the game with second print card descriptions.
- UDB: unicornsdatabase.com (saved in BOILER-R00M/unstable on GitHub), the latest print of each card.
- WIKI: the Unstable Games fan wiki, page "UU Game Terminology - Blinding Effect".
- LEILA: LeilaOmar/UnstableUnicorns on GitHub, basedeck.c.
- LATER_NSFW: Harrmalik/online-unstable-unicorn on GitHub, with the later NSFW wording (STEAL).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import tomllib

import pytest

from assistant.core.cards.card import Card, CardSet, Confidence, PrintVariant, Tag, split_other_print
from assistant.core.cards.cardfile import CardDataError, parse_deck
from assistant.core.cards.sheet import match_sheet, parse_sheet, render_import, settled_variant
from assistant.core.game.events import Move, Steal
from assistant.core.game.objections import CannotSteal
from assistant.core.words.cardtext import OTHER_PRINT_HINT, print_settled
from assistant.session import Session
from assistant.storage.decks import deck_files, load_card_set, load_deck
from tests.core.playing import ANA, BEN, bring, declined, game

SECOND_PRINT = "1st Edition second print"
FIRST = "an open-source JavaScript version of the game"
KEDARV = "kedarv/unstable"
MUSO = "musomaddie/Unstable-Unicorns-Online"
TRUE_MISKIN = "trueMiskin/unstable-unicorns"
RUST = "an open-source Rust version of the game"
UDB = "unicornsdatabase.com"
WIKI = "the Unstable Games fan wiki"
LEILA = "LeilaOmar/UnstableUnicorns"
LATER_NSFW = "Harrmalik/online-unstable-unicorn"


def card(deck_id: str, card_id: str) -> Card:
    found = {c.id: c for c in load_deck(deck_id).cards}
    return found[card_id]


def says(text: str, *phrases: str) -> bool:
    folded = " ".join(text.lower().split())
    return all(phrase.lower() in folded for phrase in phrases)


def checked(text: Card | PrintVariant, *names: str) -> bool:
    """The text names exactly these sources, and is confirmed when two or more agree."""
    found = sorted(names.index(n) for s in text.sources for n in names if n in s)
    confirmed = text.confidence is (Confidence.CONFIRMED if len(names) >= 2 else Confidence.SINGLE_SOURCE)
    return found == list(range(len(names))) and len(text.sources) == len(names) and confirmed


def source_name(source: str) -> str:
    """The part of a source that its deck's notes must name: owner/repository, a site, or its first words."""
    found = re.search(r"[\w.-]+/[\w.-]+|[\w-]+\.com", source)
    return found.group(0) if found else " ".join(source.split(",")[0].split()[:7])


def tags_follow_steal_wording(text: str, tags: frozenset[Tag]) -> bool:
    """A text that says steal (other than "cannot steal") is tagged steal; a text that only moves is not."""
    steals = bool(re.search(r"(?<!cannot )\bsteal", text, re.IGNORECASE))
    return steals == (Tag.STEAL in tags)


# --- item 1: the eight 1st Edition cards that carried the 2nd Edition effect ---------------------------------------


def test_seductive_unicorn_first_print_moves_without_a_discard_and_gives_it_back():
    # first print: FIRST, KEDARV and MUSO (may move a Unicorn, which goes back); second print: TRUE_MISKIN, KEDARV, UDB
    seductive = card("uu-1st", "seductive-unicorn")
    assert says(seductive.text, "you may move a Unicorn card", "goes back")
    assert "discard" not in seductive.text.lower()
    assert not seductive.has(Tag.STEAL) and not seductive.has(Tag.DISCARD)
    assert tags_follow_steal_wording(seductive.text, seductive.tags)
    assert checked(seductive, FIRST, KEDARV, MUSO)
    (second,) = seductive.print_variants
    assert second.print == SECOND_PRINT and checked(second, TRUE_MISKIN, KEDARV, UDB)
    assert says(second.text, "you must steal a Unicorn card", "goes back")
    assert second.tags is not None and Tag.STEAL in second.tags
    assert tags_follow_steal_wording(second.text, second.tags)


def test_unicorn_phoenix_first_print_is_destroyed_with_no_card_to_discard_and_the_second_print_is_its_other():
    """The first print (KEDARV): it comes back each time, and it is destroyed when you cannot discard; the second
    print (KEDARV, RUST) comes back only while you hold a card. The deck follows the first print."""
    phoenix = card("uu-1st", "unicorn-phoenix")
    assert says(phoenix.text, "enters your Stable, you must discard a card", "comes straight back")
    assert says(phoenix.text, "no card to discard, this card is destroyed")
    assert "card in your hand to discard" not in phoenix.text
    assert phoenix.has(Tag.ENTER_TRIGGER) and phoenix.has(Tag.DISCARD)
    assert checked(phoenix, KEDARV)
    (second,) = phoenix.print_variants
    assert second.print == SECOND_PRINT and checked(second, KEDARV, RUST)
    assert says(second.text, "only while you have a card in your hand to discard")
    reprint = card("uu-rainbow-apocalypse", "unicorn-phoenix-ra")
    (older,) = reprint.print_variants
    assert older.text == phoenix.text and older.print == "1st Edition first print"


def test_mermaid_unicorn_may_return_a_card_from_any_stable_yours_included():
    mermaid = card("uu-1st", "mermaid-unicorn")
    assert says(mermaid.text, "you may", "any player's Stable, yours included", "hand")
    assert "another player" not in mermaid.text
    assert mermaid.has(Tag.RETURN_TO_HAND) and checked(mermaid, FIRST, KEDARV, MUSO)


def test_blinding_light_keeps_unicorns_their_type_and_the_second_print_stops_only_triggered_effects():
    # first print: FIRST and KEDARV (effects cannot be used); second print: TRUE_MISKIN, KEDARV, WIKI (triggered only)
    light = card("uu-1st", "blinding-light")
    assert says(light.text, "none of the effects", "keep their type")
    assert "count as Basic" not in light.text
    assert checked(light, FIRST, KEDARV)
    (second,) = light.print_variants
    assert second.print == SECOND_PRINT and checked(second, TRUE_MISKIN, KEDARV, WIKI)
    assert says(second.text, "triggered effects", "continuous effects still work")
    assert second.marks == ("triggered",)


@pytest.mark.parametrize(("card_id", "sources"), [("chainsaw-unicorn", ()), ("targeted-destruction", (RUST,))])
def test_chainsaw_and_targeted_destruction_sacrifice_or_destroy_an_upgrade_or_a_downgrade(card_id, sources):
    chosen = card("uu-1st", card_id)
    assert says(chosen.text, "an Upgrade or Downgrade card in any Stable", "Sacrifice it", "destroy it")
    assert chosen.has(Tag.SACRIFICE) and chosen.has(Tag.DESTROY)
    assert checked(chosen, FIRST, KEDARV, *sources)


def test_llamacorn_first_edition_also_shuffles_the_discard_pile_into_the_deck():
    llamacorn = card("uu-1st", "llamacorn")
    assert says(llamacorn.text, "must discard a card", "the discard pile is shuffled into the deck")
    assert card("uu-2nd", "llamacorn").text != llamacorn.text, "the 2nd Edition card does not shuffle"
    assert checked(llamacorn, FIRST, KEDARV)


def test_magical_kittencorn_cannot_be_destroyed_or_affected_by_magic_cards():
    kitten = card("uu-1st", "magical-kittencorn")
    assert says(kitten.text, "Magic cards can neither destroy it nor affect it")
    assert kitten.has(Tag.MAGIC_PROOF) and checked(kitten, FIRST, KEDARV, MUSO)


# --- item 1, the smaller points --------------------------------------------------------------------------------------


def test_queen_bee_first_print_only_stops_the_other_players_playing_basics():
    queen = card("uu-1st", "queen-bee-unicorn")
    assert says(queen.text, "the other players cannot play Basic Unicorn cards")
    assert queen.has(Tag.STOPS_OTHERS_BASICS) and not queen.has(Tag.BASICS_ONLY_HERE)
    assert checked(queen, FIRST, KEDARV, MUSO)
    (second,) = queen.print_variants  # no Basic Unicorn enters another player's Stable
    assert says(second.text, "any other player's Stable", "brought in by an effect") and second.marks == ("enter",)
    assert Tag.BASICS_ONLY_HERE in second.tags and checked(second, TRUE_MISKIN, KEDARV, UDB)


@pytest.mark.parametrize("card_id", ["americorn", "back-kick", "blatant-thievery", "annoying-flying-unicorn"])
def test_the_first_print_says_any_player(card_id):
    chosen = card("uu-1st", card_id)
    assert "any player" in chosen.text and "another player" not in chosen.text
    assert checked(chosen, FIRST, KEDARV, TRUE_MISKIN)


def test_the_first_edition_deck_follows_one_print_and_says_which():
    deck = load_deck("uu-1st")
    assert "follows the first print, the Kickstarter one" in deck.info.notes
    assert deck.info.edition == "1st Edition (Kickstarter)"
    puppy = card("uu-1st", "puppicorn")  # FIRST, KEDARV and LEILA: it moves on at the end of its owner's turn
    assert says(puppy.text, "when your turn ends", "player on your left") and checked(puppy, FIRST, KEDARV, LEILA)
    (puppy_second,) = puppy.print_variants
    assert says(puppy_second.text, "whenever a player begins a turn")
    assert checked(puppy_second, TRUE_MISKIN, KEDARV, UDB)


@pytest.mark.parametrize("card_id", ["rainbow-mane", "extra-tail"])
def test_rainbow_mane_and_extra_tail_first_print_ask_for_a_basic_in_your_own_stable_to_play_them(card_id):
    chosen = card("uu-1st", card_id)
    assert says(chosen.text, "You can play this card only while your own Stable holds a Basic")
    assert checked(chosen, FIRST, KEDARV)
    (second,) = chosen.print_variants  # KEDARV and UDB: whichever Stable it enters must hold a Basic Unicorn
    assert second.print == SECOND_PRINT and says(second.text, "Only a Stable that already holds a Basic Unicorn card")
    assert second.marks == ("in that stable",) and checked(second, KEDARV, UDB)


def test_unicorn_shrinkray_first_print_does_not_say_the_effects_are_skipped():
    shrink = card("uu-1st", "unicorn-shrinkray")
    assert "trigger" not in shrink.text and "set off" not in shrink.text, "that clause came with the second print"
    assert says(shrink.text, "goes to the discard pile", "replaced by a Baby Unicorn")
    assert checked(shrink, FIRST, KEDARV)
    (second,) = shrink.print_variants
    assert says(second.text, "none of its effects set off") and second.marks == ("without triggering",)
    assert checked(second, TRUE_MISKIN, KEDARV, UDB)


def test_double_dutch_first_print_lets_you_play_two_cards():
    dutch = card("uu-1st", "double-dutch")
    assert says(dutch.text, "you may play 2 cards") and checked(dutch, FIRST, KEDARV, MUSO)


@pytest.mark.parametrize("card_id", ["alluring-narwhal", "unicorn-lasso"])
def test_alluring_narwhal_and_unicorn_lasso_first_print_move_from_any_stable_and_the_second_print_steals(card_id):
    chosen = card("uu-1st", card_id)
    assert says(chosen.text, "you may", "any player's Stable") and "steal" not in chosen.text.lower()
    assert not chosen.has(Tag.STEAL) and checked(chosen, FIRST, KEDARV, MUSO)
    (second,) = chosen.print_variants
    assert second.tags is not None and Tag.STEAL in second.tags and "steal" in second.text
    assert second.marks == ("steal",) and checked(second, TRUE_MISKIN, KEDARV, UDB)


def test_unicorn_swap_first_print_trades_without_stealing():
    swap = card("uu-1st", "unicorn-swap")
    assert says(swap.text, "exchange them", "any player's Stable") and "steal" not in swap.text.lower()
    assert swap.has(Tag.SWAP) and not swap.has(Tag.STEAL) and checked(swap, FIRST, KEDARV, MUSO)
    (second,) = swap.print_variants
    assert second.tags is not None and {Tag.SWAP, Tag.STEAL} <= second.tags and second.marks == ("steal",)


def test_shark_with_a_horn_first_print_destroys_first_then_sacrifices_itself():
    shark = card("uu-1st", "shark-with-a-horn")
    assert shark.text.index("destroy") < shark.text.index("sacrifice") and checked(shark, FIRST, KEDARV, MUSO)
    (second,) = shark.print_variants
    assert second.text.index("sacrifice") < second.text.index("destroy")
    assert second.marks == ("sacrifice this card if you do",) and checked(second, TRUE_MISKIN, KEDARV, UDB)
    assert settled_variant(shark, "On entering, you may SACRIFICE this card. If you do, DESTROY a Unicorn.")
    assert settled_variant(shark, "On entering, you may DESTROY a Unicorn. If you do, SACRIFICE this card.") is None


def test_tiny_stable_first_print_is_a_limit_of_five_and_the_second_print_sacrifices():
    tiny = card("uu-1st", "tiny-stable")
    assert says(tiny.text, "no more than 5 Unicorns") and "sacrifice" not in tiny.text.lower()
    assert tiny.has(Tag.AT_MOST_FIVE) and not tiny.has(Tag.SACRIFICE) and checked(tiny, FIRST, MUSO)
    (second,) = tiny.print_variants
    assert says(second.text, "must sacrifice a Unicorn card") and second.tags is not None
    assert Tag.SACRIFICE in second.tags and checked(second, TRUE_MISKIN, UDB)
    assert "Tiny Stable" in load_deck("uu-1st").info.notes, "the notes say what the tracker does past five"


def test_every_source_a_card_or_print_names_is_named_in_its_deck_notes():
    missing = []
    for deck_id in deck_files():
        deck = load_deck(deck_id)
        for chosen in deck.cards:
            for source in (*chosen.sources, *(s for v in chosen.print_variants for s in v.sources)):
                if source_name(source) not in deck.info.notes:
                    missing.append((deck_id, chosen.id, source_name(source)))
    assert missing == []


@pytest.mark.parametrize(
    ("card_id", "phrases"),
    [("good-deal", ("then discard",)), ("back-kick", ("then they must discard",)),
     ("neigh", ("any player, you included",)), ("super-neigh", ("any player, you included", "cannot be Neighed"))],
)  # fmt: skip
def test_the_first_prints_then_and_any_player_are_confirmed_by_two_first_print_lists(card_id, phrases):
    """Before, these first print variants were unverified ("other lists, not checked here"): kedarv/unstable's first
    print column and musomaddie's table both give them."""
    (first,) = card("uu-1st", card_id).print_variants
    assert first.print == "1st Edition first print, other lists" and says(first.text, *phrases)
    assert checked(first, KEDARV, MUSO)


def test_a_first_edition_text_from_two_sources_is_confirmed_and_from_one_is_single_source():
    for chosen in load_deck("uu-1st").cards:
        for text in (chosen, *chosen.print_variants):
            if text.sources:
                expected = Confidence.CONFIRMED if len(text.sources) >= 2 else Confidence.SINGLE_SOURCE
                assert text.confidence is expected, (chosen.id, text.sources)


# --- item 3: print variants that decide rules ------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", ["naked-narwhal", "free-candy-unicorn", "horny-flying-unicorn"])
def test_nsfw_expansion_cards_that_move_are_not_tagged_steal_and_their_later_print_steals(card_id):
    # earlier print: FIRST and MUSO (the Unicorn is moved); later print: UDB and LATER_NSFW (STEAL)
    moved = card("uu-nsfw-expansion", card_id)
    assert "move" in moved.text and not moved.has(Tag.STEAL)
    assert tags_follow_steal_wording(moved.text, moved.tags) and checked(moved, FIRST, MUSO)
    (later,) = moved.print_variants
    assert later.tags is not None and Tag.STEAL in later.tags and "steal" in later.text
    assert later.marks == ("steal",) and checked(later, UDB, LATER_NSFW)
    base = card("uu-nsfw", card_id)
    assert base.has(Tag.STEAL) and tags_follow_steal_wording(base.text, base.tags)


@pytest.mark.parametrize("card_id", ["naked-narwhal", "free-candy-unicorn", "horny-flying-unicorn"])
def test_paladin_unicorn_lets_the_earlier_print_move_and_warns_the_later_print_steal(card_id):
    """Paladin Unicorn: "you cannot steal cards from other players' Stables". At the table, the earlier print's
    effect is recorded as a move and passes; the later print's is a steal and is warned. Fishing Rod answers a
    steal only, so the search for steal cards finds the later print's tag and not the earlier one's."""
    g = game("uu-2nd", "uu-nsfw-expansion", "uu-legends", drawn=True)
    bring(g, "paladin-unicorn")
    bring(g, "basic-unicorn-red", into=BEN)
    moved = card("uu-nsfw-expansion", card_id)
    (later,) = moved.print_variants
    assert "move" in moved.text and not moved.has(Tag.STEAL)
    assert "steal" in later.text and later.tags is not None and Tag.STEAL in later.tags
    assert g.check(Move(ANA, "basic-unicorn-red", BEN, ANA)) == (), "the earlier print moves: Paladin allows it"
    steal = declined(g, Steal(ANA, "basic-unicorn-red", BEN))
    assert steal == (CannotSteal(0, "paladin-unicorn"),), "the later print steals: Paladin warns"


def test_the_bitchiest_unicorn_carries_the_other_decks_print():
    base, expansion = card("uu-nsfw", "the-bitchiest-unicorn"), card("uu-nsfw-expansion", "the-bitchiest-unicorn")
    (base_other,) = base.print_variants
    (expansion_other,) = expansion.print_variants
    assert base_other.text == expansion.text and expansion_other.text == base.text
    assert base_other.print == "NSFW expansion print" and expansion_other.print == "NSFW base game print"
    assert says(base.text, "cannot enter a Stable that has no Basic Unicorn") and checked(base, UDB, LATER_NSFW)
    assert says(expansion.text, "To play this card, you need a Basic Unicorn card in your own Stable")
    assert checked(expansion, FIRST, MUSO) and checked(base_other, FIRST, MUSO)
    assert base_other.marks == ("in order to play",) and expansion_other.marks == ("only enter a stable",)
    assert settled_variant(base, "You must have a Basic Unicorn in your Stable in order to play this card.")
    assert settled_variant(expansion, "This card can only enter a Stable holding a Basic Unicorn card.")


def test_dragon_protection_follows_the_later_print_and_keeps_the_older_one_each_from_a_single_source():
    protection = card("uu-dragons", "dragon-protection")
    assert says(protection.text, "triggered effects of cards belonging to other players") and checked(protection, UDB)
    (older,) = protection.print_variants
    assert older.print == "older print" and says(older.text, "the effects of other players' Unicorn cards")
    assert older.marks == ("unicorn card effects",) and checked(older, MUSO)


def test_neigh_thank_you_keeps_its_first_print_where_both_players_must_draw():
    thanks = card("uu-rainbow-apocalypse", "neigh-thank-you")
    assert says(thanks.text, "you and that player may each draw a card") and checked(thanks, MUSO)
    (first,) = thanks.print_variants
    assert says(first.text, "both of you draw a card") and checked(first, UDB)


@pytest.mark.parametrize(("card_id", "phrase"), [("llamacorn-ra", "shuffle"), ("unicorn-phoenix-ra", "enters")])
def test_rainbow_apocalypse_reprints_may_be_the_first_edition_text_at_low_confidence(card_id, phrase):
    reprint = card("uu-rainbow-apocalypse", card_id)
    (older,) = reprint.print_variants
    assert older.confidence is Confidence.UNVERIFIED and phrase in older.text


def test_every_shipped_card_and_print_tags_steal_exactly_when_it_says_steal():
    wrong = []
    for deck_id in deck_files():
        for chosen in load_deck(deck_id).cards:
            if re.search(r"\bmove\b.*\binto yours\b", chosen.text) and chosen.has(Tag.STEAL):
                wrong.append(chosen.id)
            if re.search(r"(?<!cannot )\bsteal", chosen.text, re.IGNORECASE) and not chosen.has(Tag.STEAL):
                wrong.append(chosen.id)
            for variant in chosen.print_variants:
                tags = variant.tags if variant.tags is not None else chosen.tags
                if not tags_follow_steal_wording(variant.text, tags):
                    wrong.append(f"{chosen.id} ({variant.print})")
    assert wrong == []


# --- item 4: Llamas Unleashed ----------------------------------------------------------------------------------------


def test_llamas_texts_and_copies_are_single_source_and_dalai_llama_lets_each_other_player_draw():
    # the whole list, texts and copy counts come from one source (the Llamas card facts)
    for deck_id in ("llamas", "llamas-farmed"):
        deck = load_deck(deck_id)
        assert deck.info.confidence is Confidence.SINGLE_SOURCE and deck.info.copies_known, deck_id
        assert all(c.confidence is Confidence.SINGLE_SOURCE for c in deck.cards), deck_id
    dalai = card("llamas", "dalai-llama")
    assert says(dalai.text, "draw 3 cards", "every other player may then draw a card")
    assert "choose one other player" not in dalai.text


# --- confidence: validated on load over every shipped deck -----------------------------------------------------------

HEADER = """\
[deck]
id = "test"
title = "Test deck"
edition = "test"
game = "unstable-unicorns"
kind = "base"
vocabulary = "unicorn"
complete = true
confidence = "{confidence}"
"""

CARD = """\
[[cards]]
id = "rainbow-aura"
name = "Rainbow Aura"
type = "upgrade"
copies = 1
text = "Your Unicorns cannot be destroyed."
"""


def problems(text: str) -> list[str]:
    with pytest.raises(CardDataError) as caught:
        parse_deck(text, "t.toml")
    return str(caught.value).splitlines()


def test_every_shipped_deck_states_its_confidence_and_every_value_is_known():
    for deck_id, path in deck_files().items():
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        assert raw["deck"].get("confidence") in {c.value for c in Confidence}, deck_id
        for entry in raw["cards"]:
            assert entry.get("confidence", raw["deck"]["confidence"]) in {c.value for c in Confidence}


def test_an_unknown_confidence_is_an_error_on_its_line_for_the_deck_a_card_and_a_print():
    text = HEADER.format(confidence="sure") + "\n" + CARD + 'confidence = "probably"\n'
    text += textwrap.dedent("""
        [[cards.print_variants]]
        print = "older print"
        text = "Your Unicorns cannot be destroyed or sacrificed."
        confidence = "maybe"
        colour = "red"
        """)
    assert problems(text) == [
        "t.toml:9: deck: confidence: 'sure' is not a confidence (confirmed, single-source, unverified)",
        "t.toml:17: rainbow-aura: confidence: 'probably' is not a confidence (confirmed, single-source, unverified)",
        "t.toml:22: rainbow-aura: print_variants.confidence: 'maybe' is not a confidence "
        "(confirmed, single-source, unverified)",
        "t.toml:23: rainbow-aura: print_variants.colour: unknown key",
    ]


def test_a_print_variant_needs_its_print_and_text_and_known_tags():
    text = HEADER.format(confidence="confirmed") + "\n" + CARD
    text += textwrap.dedent("""
        [[cards.print_variants]]
        tags = ["steals"]
        marks = []
        """)
    assert problems(text) == [
        "t.toml:18: rainbow-aura: print_variants.print: missing",
        "t.toml:18: rainbow-aura: print_variants.text: missing",
        "t.toml:19: rainbow-aura: print_variants.tags: unknown tag 'steals'",
    ]


def test_a_card_overrides_the_decks_confidence_and_names_its_sources():
    text = HEADER.format(confidence="single-source") + "\n" + CARD
    text += 'confidence = "confirmed"\nsources = ["a card list", "a second card list"]\n\n' + CARD.replace(
        "rainbow-aura", "rainbow-aura-2"
    )
    first, second = parse_deck(text, "t.toml").cards
    assert first.confidence is Confidence.CONFIRMED and first.sources == ("a card list", "a second card list")
    assert second.confidence is Confidence.SINGLE_SOURCE


# --- looking a card up: the confidence sentence and the other print --------------------------------------------------


def test_a_single_source_card_says_so_when_looked_up_on_screen_and_aloud():
    session = Session(load_card_set("llamas"))
    reply = session.handle("dalai llama")
    assert reply.speech.endswith("From a single source: check the card.")
    assert "From a single source: check the card." in reply.lines
    assert "Copies in the deck: 1" in reply.lines
    confirmed = Session(load_card_set("uu-2nd")).handle("rainbow aura")
    assert "check the card" not in confirmed.speech


def test_placeholder_copies_are_said_to_be_unknown():
    deck = parse_deck(HEADER.format(confidence="single-source") + "copies_known = false\n\n" + CARD, "t.toml")
    reply = Session(CardSet([deck])).handle("rainbow aura")
    assert "Copies in the deck: not known" in reply.lines


def test_an_unverified_text_says_no_source_confirms_it():
    card_text = CARD + 'confidence = "unverified"\n'
    deck = parse_deck(HEADER.format(confidence="single-source") + "\n" + card_text, "t.toml")
    reply = Session(CardSet([deck])).handle("rainbow aura")
    assert "Not confirmed by any source: check the card." in reply.speech


@pytest.mark.parametrize(
    "line", ["card seductive unicorn, other print", "seductive unicorn, other print", "Seductive Unicorn other print."]
)
def test_the_player_asks_for_a_cards_other_print(line):
    session = Session(load_card_set("uu-1st"))
    reply = session.handle(line)
    assert reply.speech.startswith("Seductive Unicorn, Magical Unicorn. In the 1st Edition second print:")
    assert "you must steal a Unicorn card" in reply.speech
    assert any(row.startswith("1st Edition second print: ") for row in reply.lines)
    assert reply.card is not None and reply.card.id == "seductive-unicorn"


def test_a_card_read_first_mentions_its_other_print_and_other_print_alone_reads_it():
    session = Session(load_card_set("uu-1st"))
    first = session.handle("blinding light")
    assert OTHER_PRINT_HINT in first.speech and "check the card" not in first.speech, "confirmed by two"
    other = session.handle("other print")
    assert "Unicorn cards' triggered effects never happen" in other.speech
    dragons = Session(load_card_set("uu-2nd", ["uu-dragons"]))
    protection = dragons.handle("dragon protection")
    assert OTHER_PRINT_HINT in protection.speech and "From a single source" in protection.speech
    older = dragons.handle("other print")
    assert "In the older print:" in older.speech and "From a single source" in older.speech


def test_a_card_with_no_other_print_says_so():
    reply = Session(load_card_set("uu-2nd")).handle("card rainbow aura, other print")
    assert reply.speech == "Rainbow Aura: no other print is known to read differently."


def test_other_print_is_split_from_the_query_only_at_its_end():
    assert split_other_print("seductive unicorn, other print") == ("seductive unicorn", True)
    assert split_other_print("other print") == ("", True)
    assert split_other_print("print shop") == ("print shop", False)


# --- an import settles the print --------------------------------------------------------------------------------------

#: Sheets typed by an owner (short paraphrases standing in for their printed wording, not the real card text).
SECOND_PRINT_SHEET = (
    "name,type,text\nSeductive Unicorn,magical,On entering: STEAL a Unicorn; it returns when this leaves.\n"
)
FIRST_PRINT_SHEET = (
    "name,type,text\nSeductive Unicorn,magical,On entering you may move a Unicorn to yours; it returns.\n"
)


def test_a_sheet_matching_a_print_variant_makes_that_print_the_cards_text_and_tags():
    base = load_deck("uu-1st")
    rows, _ = parse_sheet(SECOND_PRINT_SHEET, "sheet.csv")
    result = match_sheet(rows, base, "uu-1st-sheet")
    (imported,) = result.cards
    variant = card("uu-1st", "seductive-unicorn").print_variants[0]
    assert imported.text == variant.text and imported.has(Tag.STEAL) and imported.print == SECOND_PRINT
    assert [(line, c.id, name) for line, c, name in result.settled] == [(2, "seductive-unicorn", SECOND_PRINT)]
    saved = parse_deck(render_import(result, base, "uu-1st-sheet", "sheet.csv"), "uu-1st-sheet.toml")
    assert saved.cards[0].print == SECOND_PRINT and saved.cards[0].has(Tag.STEAL)
    (own,) = saved.cards[0].print_variants  # the deck's first print is now the other print
    assert own.print == "1st Edition (Kickstarter)" and own.text == card("uu-1st", "seductive-unicorn").text
    assert own.tags is not None and Tag.STEAL not in own.tags
    assert print_settled("Seductive Unicorn", SECOND_PRINT).startswith("Seductive Unicorn: your sheet is the")


def test_a_sheet_of_the_decks_own_print_keeps_the_sheet_text_and_the_decks_tags():
    base = load_deck("uu-1st")
    rows, _ = parse_sheet(FIRST_PRINT_SHEET, "sheet.csv")
    result = match_sheet(rows, base, "uu-1st-sheet")
    (imported,) = result.cards
    assert imported.text == rows[0].text and not imported.has(Tag.STEAL) and imported.print == ""
    assert result.settled == []
    assert imported.print_variants == card("uu-1st", "seductive-unicorn").print_variants, "the other print stays"


def test_marks_are_whole_folded_words():
    seductive = card("uu-1st", "seductive-unicorn")
    assert settled_variant(seductive, "you STEAL, a Unicorn") is not None
    assert settled_variant(seductive, "a stealthy move") is None


def test_the_import_command_reports_the_settled_print(tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(SECOND_PRINT_SHEET, encoding="utf-8")
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "assistant", "deck", "import", str(sheet), "--base", "uu-1st"]
    result = subprocess.run([*command, "--json"], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["settled"] == [{"line": 2, "card": "seductive-unicorn", "print": SECOND_PRINT}]
    spoken = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert "Seductive Unicorn: your sheet is the 1st Edition second print; that text is used." in spoken.stdout


def test_the_card_command_prints_the_other_print_and_the_copies(tmp_path):
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "assistant", "card"]
    other = subprocess.run(
        [*command, "--deck", "uu-1st", "seductive", "unicorn,", "other", "print"],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert other.returncode == 0, other.stderr
    assert other.stdout.splitlines()[2].startswith("1st Edition second print: When this card enters your Stable")
    llama = subprocess.run([*command, "--deck", "llamas", "dalai llama"], capture_output=True, text=True, env=env,
                           timeout=60)  # fmt: skip
    assert "Copies in the deck: 1" in llama.stdout.splitlines()
    assert llama.stdout.splitlines()[-1] == "From a single source: check the card."


@pytest.mark.parametrize(
    ("deck", "card_id"), [("uu-adventures", "unicorn-net"), ("uu-nsfw-expansion", "polyamorous-unicorn")]
)
def test_a_card_that_takes_or_trades_without_stealing_is_not_tagged_steal(deck, card_id):
    """Unicorn Net sends a card about to be discarded to your hand; Polyamorous Unicorn trades itself for a Unicorn
    (a swap): neither text says STEAL, so Paladin Unicorn's "cannot steal" does not stop them."""
    assert not card(deck, card_id).has(Tag.STEAL)


def test_the_nsfw_expansion_polyamorous_unicorn_has_its_later_print_that_steals():
    """The later print (LATER_NSFW) moves the card away and then steals a Unicorn: its other print, tagged steal."""
    (later,) = card("uu-nsfw-expansion", "polyamorous-unicorn").print_variants
    assert later.print == "later print" and later.tags is not None and Tag.STEAL in later.tags
    assert says(later.text, "you may move it into another player's Stable", "steal")
    assert checked(later, UDB, LATER_NSFW)


def test_the_2nd_edition_annoying_flying_unicorn_lets_you_pick_any_player():
    """KEDARV: "you may choose any player" (both prints), not only another player."""
    annoying = card("uu-2nd", "annoying-flying-unicorn")
    assert says(annoying.text, "any player") and "another player" not in annoying.text


def test_the_first_edition_says_the_standard_opening_at_the_beginning_of_a_turn():
    """docs/card-text-format.md: the standard openings stay as they are, so "If this card is in your Stable at the
    beginning of your turn" opens every such 1st Edition text (Double Dutch, Extremely Fertile Unicorn, Rainbow
    Mane, Extra Tail)."""
    texts = [c.text for c in load_deck("uu-1st").cards]
    texts += [v.text for c in load_deck("uu-1st").cards for v in c.print_variants]
    assert [t for t in texts if "At the beginning of your turn, if this card" in t] == []


#: Owners' sheets in short paraphrase (not the printed wording): the second print's and the first print's.
SETTLING = [
    ("alluring-narwhal", "On entering you may STEAL an Upgrade.", "On entering you may move an Upgrade to yours."),
    ("unicorn-lasso", "At the start of your turn you may STEAL a Unicorn.", "You may move a Unicorn to yours."),
    ("unicorn-swap", "Move one of yours away, then STEAL one back.", "Trade one of your Unicorns for another."),
    ("tiny-stable", "Over five Unicorns: SACRIFICE one.", "Five Unicorns at most."),
    ("unicorn-shrinkray", "Discard their Unicorns without triggering them.", "Replace their Unicorns with babies."),
    ("rainbow-mane", "Enters only if there is a Basic in that Stable.", "Needs a Basic in your Stable to play."),
]


@pytest.mark.parametrize(("card_id", "second", "first"), SETTLING)
def test_an_owners_sheet_settles_the_first_edition_print(card_id, second, first):
    chosen = card("uu-1st", card_id)
    assert settled_variant(chosen, second) is chosen.print_variants[0]
    assert settled_variant(chosen, first) is None
