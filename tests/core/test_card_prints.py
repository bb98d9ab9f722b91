"""Card prints and confidence: the 1st Edition as printed, print variants, how sure each text is, STEAL versus move.

Each card test names the public transcriptions its text was checked against (the same ones the card's `sources`
field and its deck's notes name):

- FIRST: a first print card list in an open-source JavaScript version of the game (the Kickstarter wording).
- TRUE_MISKIN: trueMiskin/unstable-unicorns on GitHub (C#), which implements the 1st Edition second print.
- RUST: an open-source Rust version of the game with second print card descriptions.
- WIKI: the Unstable Games fan wiki, page "UU Game Terminology - Blinding Effect".
- LEILA: LeilaOmar/UnstableUnicorns on GitHub, basedeck.c.
- LATER_NSFW: a second open-source JavaScript version of the game, with the later NSFW wording (STEAL).
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

from assistant.core import words
from assistant.core.cardfile import CardDataError, parse_deck
from assistant.core.cards import Card, Confidence, Tag, split_other_print
from assistant.core.sheet import match_sheet, parse_sheet, render_import, settled_variant
from assistant.session import Session
from assistant.storage.decks import deck_files, load_card_set, load_deck

SECOND_PRINT = "1st Edition second print"


def card(deck_id: str, card_id: str) -> Card:
    found = {c.id: c for c in load_deck(deck_id).cards}
    return found[card_id]


def says(text: str, *phrases: str) -> bool:
    folded = " ".join(text.lower().split())
    return all(phrase.lower() in folded for phrase in phrases)


def tags_follow_steal_wording(text: str, tags: frozenset[Tag]) -> bool:
    """A text that says steal (other than "cannot steal") is tagged steal; a text that only moves is not."""
    steals = bool(re.search(r"(?<!cannot )\bsteal", text, re.IGNORECASE))
    return steals == (Tag.STEAL in tags)


# --- item 1: the eight 1st Edition cards that carried the 2nd Edition effect ---------------------------------------


def test_seductive_unicorn_first_print_moves_without_a_discard_and_gives_it_back():
    # sources: FIRST (may move a Unicorn, which goes back); second print: TRUE_MISKIN and RUST (STEAL, goes back)
    seductive = card("uu-1st", "seductive-unicorn")
    assert says(seductive.text, "you may move a Unicorn card", "goes back")
    assert "discard" not in seductive.text.lower()
    assert not seductive.has(Tag.STEAL) and not seductive.has(Tag.DISCARD)
    assert tags_follow_steal_wording(seductive.text, seductive.tags)
    assert seductive.confidence is Confidence.SINGLE_SOURCE
    (second,) = seductive.print_variants
    assert second.print == SECOND_PRINT and second.confidence is Confidence.CONFIRMED
    assert says(second.text, "you must steal a Unicorn card", "goes back")
    assert second.tags is not None and Tag.STEAL in second.tags
    assert tags_follow_steal_wording(second.text, second.tags)


def test_unicorn_phoenix_first_print_discards_on_entering_and_comes_back_with_a_card_in_hand():
    # sources: FIRST and RUST
    phoenix = card("uu-1st", "unicorn-phoenix")
    assert says(
        phoenix.text,
        "enters your Stable, you must discard a card",
        "comes straight back",
        "card in your hand to discard",
    )
    assert phoenix.has(Tag.ENTER_TRIGGER) and phoenix.has(Tag.DISCARD)
    assert phoenix.confidence is Confidence.CONFIRMED and len(phoenix.sources) == 2


def test_mermaid_unicorn_may_return_a_card_from_any_stable_yours_included():
    # sources: FIRST and TRUE_MISKIN
    mermaid = card("uu-1st", "mermaid-unicorn")
    assert says(mermaid.text, "you may", "any player's Stable, yours included", "hand")
    assert "another player" not in mermaid.text
    assert mermaid.has(Tag.RETURN_TO_HAND) and mermaid.confidence is Confidence.CONFIRMED


def test_blinding_light_keeps_unicorns_their_type_and_the_second_print_stops_only_triggered_effects():
    # sources: FIRST (effects cannot be used); second print: TRUE_MISKIN and WIKI (triggered effects only)
    light = card("uu-1st", "blinding-light")
    assert says(light.text, "none of the effects", "keep their type")
    assert "count as Basic" not in light.text
    assert light.confidence is Confidence.SINGLE_SOURCE
    (second,) = light.print_variants
    assert second.print == SECOND_PRINT and second.confidence is Confidence.CONFIRMED
    assert says(second.text, "triggered effects", "continuous effects still work")
    assert second.marks == ("triggered",)


@pytest.mark.parametrize("card_id", ["chainsaw-unicorn", "targeted-destruction"])
def test_chainsaw_and_targeted_destruction_sacrifice_or_destroy_an_upgrade_or_a_downgrade(card_id):
    # sources: FIRST, with TRUE_MISKIN (Chainsaw Unicorn) and RUST (Targeted Destruction)
    chosen = card("uu-1st", card_id)
    assert says(chosen.text, "an Upgrade or Downgrade card in any Stable", "Sacrifice it", "destroy it")
    assert chosen.has(Tag.SACRIFICE) and chosen.has(Tag.DESTROY)
    assert chosen.confidence is Confidence.CONFIRMED


def test_llamacorn_first_edition_also_shuffles_the_discard_pile_into_the_deck():
    # sources: FIRST and TRUE_MISKIN
    llamacorn = card("uu-1st", "llamacorn")
    assert says(llamacorn.text, "must discard a card", "the discard pile is shuffled into the deck")
    assert card("uu-2nd", "llamacorn").text != llamacorn.text, "the 2nd Edition card does not shuffle"


def test_magical_kittencorn_cannot_be_destroyed_or_affected_by_magic_cards():
    # sources: FIRST only, so the text says it is from a single source
    kitten = card("uu-1st", "magical-kittencorn")
    assert says(kitten.text, "Magic cards can neither destroy it nor affect it")
    assert kitten.has(Tag.MAGIC_PROOF) and kitten.confidence is Confidence.SINGLE_SOURCE


# --- item 1, the smaller points --------------------------------------------------------------------------------------


def test_queen_bee_first_print_only_stops_the_other_players_playing_basics():
    # sources: FIRST and TRUE_MISKIN (its rule stops the other players playing Basic Unicorns)
    queen = card("uu-1st", "queen-bee-unicorn")
    assert says(queen.text, "the other players cannot play Basic Unicorn cards")
    assert queen.has(Tag.STOPS_OTHERS_BASICS) and not queen.has(Tag.BASICS_ONLY_HERE)
    (second,) = queen.print_variants  # TRUE_MISKIN's text: no Basic Unicorn enters another player's Stable
    assert says(second.text, "any other player's Stable", "brought in by an effect") and second.marks == ("enter",)
    assert Tag.BASICS_ONLY_HERE in second.tags


@pytest.mark.parametrize("card_id", ["americorn", "back-kick", "blatant-thievery", "annoying-flying-unicorn"])
def test_the_first_print_says_any_player(card_id):
    # sources: FIRST and TRUE_MISKIN
    chosen = card("uu-1st", card_id)
    assert "any player" in chosen.text and "another player" not in chosen.text
    assert chosen.confidence is Confidence.CONFIRMED and len(chosen.sources) == 2


def test_the_first_edition_deck_follows_one_print_and_says_which():
    # sources: FIRST for every first print text; LEILA for Puppicorn's end-of-turn move
    deck = load_deck("uu-1st")
    assert "follows the first print, the Kickstarter one" in deck.info.notes
    assert says(card("uu-1st", "puppicorn").text, "when your turn ends", "player on your left")
    for card_id in ("rainbow-mane", "extra-tail"):
        assert says(card("uu-1st", card_id).text, "You can play this card only while your own Stable holds a Basic")
    assert "triggering" not in card("uu-1st", "unicorn-shrinkray").text, "the trigger clause came with a later print"
    (puppy_second,) = card("uu-1st", "puppicorn").print_variants
    assert says(puppy_second.text, "whenever a player begins a turn")
    assert deck.info.edition == "1st Edition (Kickstarter)"


# --- item 3: print variants that decide rules ------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", ["naked-narwhal", "free-candy-unicorn", "horny-flying-unicorn"])
def test_nsfw_expansion_cards_that_move_are_not_tagged_steal_and_their_later_print_steals(card_id):
    # sources: FIRST (the earlier print moves the Unicorn); LATER_NSFW and the NSFW base deck (STEAL)
    moved = card("uu-nsfw-expansion", card_id)
    assert "move" in moved.text and not moved.has(Tag.STEAL)
    assert tags_follow_steal_wording(moved.text, moved.tags)
    (later,) = moved.print_variants
    assert later.tags is not None and Tag.STEAL in later.tags and "steal" in later.text
    assert later.marks == ("steal",)
    base = card("uu-nsfw", card_id)
    assert base.has(Tag.STEAL) and tags_follow_steal_wording(base.text, base.tags)


def test_the_bitchiest_unicorn_carries_the_other_decks_print():
    base, expansion = card("uu-nsfw", "the-bitchiest-unicorn"), card("uu-nsfw-expansion", "the-bitchiest-unicorn")
    (base_other,) = base.print_variants
    (expansion_other,) = expansion.print_variants
    assert base_other.text == expansion.text and expansion_other.text == base.text
    assert base_other.print == "NSFW expansion print" and expansion_other.print == "NSFW base game print"


def test_dragon_protection_says_it_follows_an_older_print_from_a_single_source():
    protection = card("uu-dragons", "dragon-protection")
    assert protection.print == "older print" and protection.confidence is Confidence.SINGLE_SOURCE


def test_neigh_thank_you_keeps_its_first_print_where_both_players_must_draw():
    # sources: FIRST ("each of you" draws)
    thanks = card("uu-rainbow-apocalypse", "neigh-thank-you")
    (first,) = thanks.print_variants
    assert says(first.text, "both of you draw a card") and first.confidence is Confidence.SINGLE_SOURCE


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


def test_llamas_texts_are_single_source_dalai_llama_gives_one_player_a_card_and_copies_are_placeholders():
    # source: the hobby version named in the Llamas card facts ("you draw three and an opponent draws one")
    deck = load_deck("llamas")
    assert deck.info.confidence is Confidence.SINGLE_SOURCE and not deck.info.copies_known
    assert all(c.confidence is not Confidence.CONFIRMED for c in deck.cards)
    dalai = card("llamas", "dalai-llama")
    assert says(dalai.text, "draw 3 cards", "choose one other player, who draws 1 card")
    assert "each other player" not in dalai.text
    assert card("llamas", "no-probllama").confidence is Confidence.UNVERIFIED


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
    assert "Copies in the deck: not known" in reply.lines
    confirmed = Session(load_card_set("uu-2nd")).handle("rainbow aura")
    assert "check the card" not in confirmed.speech


def test_an_unverified_text_says_no_source_confirms_it():
    reply = Session(load_card_set("llamas")).handle("no probllama")
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
    assert words.OTHER_PRINT_HINT in first.speech and "From a single source" in first.speech
    other = session.handle("other print")
    assert "Unicorn cards' triggered effects never happen" in other.speech


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
    assert words.print_settled("Seductive Unicorn", SECOND_PRINT).startswith("Seductive Unicorn: your sheet is the")


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


def test_the_card_command_prints_the_other_print_and_unknown_copies(tmp_path):
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
    assert "Copies in the deck: not known" in llama.stdout.splitlines()
    assert llama.stdout.splitlines()[-1] == "From a single source: check the card."


@pytest.mark.parametrize(
    ("deck", "card_id"), [("uu-adventures", "unicorn-net"), ("uu-nsfw-expansion", "polyamorous-unicorn")]
)
def test_a_card_that_takes_or_trades_without_stealing_is_not_tagged_steal(deck, card_id):
    """Unicorn Net sends a card about to be discarded to your hand; Polyamorous Unicorn trades itself for a Unicorn
    (a swap): neither text says STEAL, so Paladin Unicorn's "cannot steal" does not stop them."""
    assert not card(deck, card_id).has(Tag.STEAL)
