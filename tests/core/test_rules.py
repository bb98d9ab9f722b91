"""The rule profiles (assistant/core/rules.toml): the shipped file validates, each profile says what its rulebook
says, and a broken file is refused with every problem listed."""

from __future__ import annotations

import pytest

from assistant.core.cards.card import Vocabulary
from assistant.core.game.rules import (
    DeckOut,
    RulesDataError,
    UnknownProfileError,
    load_rules,
    parse_deck_out,
    parse_rules,
)
from assistant.storage.decks import load_all_decks

RULES = load_rules()


def goals(profile_id: str) -> dict[int, int]:
    profile = RULES.profile(profile_id)
    return {players: profile.goal(players) for players in range(2, 9)}


def test_there_is_one_profile_per_rulebook():
    """rulebooks/README.md: "Where two disagree, each is its own rule profile"."""
    assert {p.id: p.rulebook[:3] for p in RULES.profiles.values()} == {
        "uu-current": "000",
        "uu-first": "001",
        "uu-five": "002",
        "uu-nsfw": "003",
        "llamas": "004",
    }


def test_current_rules():
    """000_4cb0751821c6f7f6.txt "2 – 5 Players: 7 Unicorns to win", "6-8 Players: 6 Unicorns to win", "The hand limit is
    7 cards"; deck runs out: "the player with the most Unicorns wins"."""
    assert goals("uu-current") == {2: 7, 3: 7, 4: 7, 5: 7, 6: 6, 7: 6, 8: 6}
    profile = RULES.profile("uu-current")
    assert profile.hand_limit == 7 and profile.deck_out == (DeckOut.MOST_WINS,)
    assert profile.vocabulary is Vocabulary.UNICORN and profile.herd_bonus == 0


def test_first_edition_rules():
    """001_773a78f0d12bc5b5.txt "2 players - Seven Unicorns to Win", "6-8 players - Six Unicorns to Win"; "If you're a
    stickler, the game ends" / "If you're a rule-breaker, you can reshuffle"."""
    assert goals("uu-first") == {2: 7, 3: 7, 4: 7, 5: 7, 6: 6, 7: 6, 8: 6}
    assert RULES.profile("uu-first").deck_out == (DeckOut.NO_WINNER, DeckOut.RESHUFFLE)
    assert parse_deck_out("stickler") is DeckOut.NO_WINNER
    assert parse_deck_out("rule-breaker") is DeckOut.RESHUFFLE
    assert parse_deck_out("rule breaker") is DeckOut.RESHUFFLE
    assert parse_deck_out("flip the table") is None


def test_five_unicorn_rules():
    """002_7339423e33071b03.txt "The first person to successfully collect 5 Unicorns in their Stable wins!"; "shuffle
    the discard pile and turn it face-down to form the new deck"."""
    assert set(goals("uu-five").values()) == {5}
    assert RULES.profile("uu-five").deck_out == (DeckOut.RESHUFFLE,)


def test_two_player_variant():
    """002_7339423e33071b03.txt "Remove these cards from the deck": Seductive Unicorn, Rainbow Unicorn, Ginormous
    Unicorn, Double Dutch, Yay!, Tourist Trap, Slowdown; "take out two Neigh cards and hand one to each player"."""
    assert RULES.two_player_removed == (
        "seductive-unicorn", "rainbow-unicorn", "ginormous-unicorn", "double-dutch", "yay", "tourist-trap", "slowdown",
    )  # fmt: skip
    assert RULES.two_player_neigh_each
    assert RULES.profile("uu-five").two_player and RULES.profile("uu-current").two_player
    assert not RULES.profile("uu-nsfw").two_player and not RULES.profile("llamas").two_player


def test_nsfw_rules():
    """003_3ad7ba4e8376142a.txt "2*–5 Players: 7 Unicorns to win", "6–8 Players: 6 Unicorns to win"."""
    assert goals("uu-nsfw") == goals("uu-current")
    assert RULES.profile("uu-nsfw").deck_out == (DeckOut.MOST_WINS,)


def test_llamas_rules():
    """004_898b8e00f3d39962.txt "Field instead of Stable"; "7 Animals to win (6 with 6–8)"; "Having 3 or more Animal
    cards of the same variation in your Field at the beginning of your turn"."""
    profile = RULES.profile("llamas")
    assert profile.vocabulary is Vocabulary.ANIMAL
    assert profile.vocabulary.area == "Field" and profile.vocabulary.creature == "Animal"
    assert goals("llamas") == goals("uu-current")
    assert profile.herd_bonus == 3
    assert profile.game == "llamas-unleashed"


def test_hand_limit_table_holds_numbers_the_tags_do_not_give():
    """000_4cb0751821c6f7f6.txt "The hand limit is 7 cards (unless otherwise stated)": cards that state otherwise."""
    assert RULES.hand_limits["tiny-hooves"].set == 3
    assert RULES.hand_limits["unicorn-of-famine"].everyone
    assert RULES.hand_limits["extradimensional-saddlebag"].add == 3


def test_unknown_profile_names_the_known_ones():
    with pytest.raises(UnknownProfileError) as caught:
        RULES.profile("uu-ninth")
    assert "uu-current" in str(caught.value) and "llamas" in str(caught.value)


def test_default_profile_follows_the_deck_then_the_game():
    assert RULES.default_profile("uu-five", "unstable-unicorns").id == "uu-five"
    assert RULES.default_profile("", "llamas-unleashed").id == "llamas"
    assert RULES.default_profile("no-such-rules", "unstable-unicorns").id == "uu-current"


def test_every_shipped_deck_names_a_known_profile_of_its_own_game():
    decks, errors = load_all_decks()
    assert decks, "at least the default deck is shipped"
    problems = []
    for deck in decks:
        rules = deck.info.rules
        if deck.info.kind != "base":
            continue
        if rules and rules not in RULES.profiles:
            problems.append(f"{deck.id}: rules {rules!r} is not a profile")
        elif rules and RULES.profiles[rules].game != deck.info.game:
            problems.append(f"{deck.id}: rules {rules!r} are for {RULES.profiles[rules].game}")
    assert problems == []


def test_a_broken_rules_file_lists_every_problem():
    text = """
top = 1
[[profile]]
id = "Bad Id"
title = "x"
rulebook = "x"
game = "chess"
vocabulary = "dragon"
to_win = { "2-5" = 7, "5-9" = 6 }
hand_limit = 0
deck_out = ["flip"]
two_player = "maybe"
colour = "red"

[[profile]]
id = "ok"

[hand_limits]
some-card = { grow = 2 }
"""
    with pytest.raises(RulesDataError) as caught:
        parse_rules(text, "rules.toml")
    message = str(caught.value)
    for expected in (
        "top: unknown top-level key",
        "colour: unknown key",
        "id: must be lower-case",
        "to_win: '5-9' is outside 2 to 8 players",
        "hand_limit: must be a positive whole number",
        "deck_out: 'flip' is not one of",
        "two_player: must be true or false",
        "ok: title: missing",
        "some-card: unknown key 'grow'",
    ):
        assert expected in message, expected
    assert all(line.startswith("rules.toml: ") for line in caught.value.problems)


def test_a_top_level_table_given_as_something_else_is_one_problem_each():
    text = 'two_player = 1\nhand_limits = [2]\nvariation_overrides = "x"\n'
    with pytest.raises(RulesDataError) as caught:
        parse_rules(text, "rules.toml")
    assert caught.value.problems == [
        "rules.toml: -: profile: no [[profile]] entries",
        "rules.toml: two_player: two_player: must be a table",
        "rules.toml: hand_limits: hand_limits: must be a table",
        "rules.toml: variation_overrides: variation_overrides: must be a table",
    ]


def test_overlapping_or_missing_player_counts_are_refused():
    base = (
        'title="t"\nrulebook="r"\ngame="unstable-unicorns"\nvocabulary="unicorn"\nhand_limit=7\n'
        'deck_out=["most-wins"]\ntwo_player=false\n'
    )
    with pytest.raises(RulesDataError, match="5 players is in two ranges"):
        parse_rules(f'[[profile]]\nid="a"\n{base}to_win = {{ "2-5" = 7, "5-8" = 6 }}\n')
    with pytest.raises(RulesDataError, match="no number for 7, 8 players"):
        parse_rules(f'[[profile]]\nid="a"\n{base}to_win = {{ "2-6" = 7 }}\n')
    with pytest.raises(RulesDataError, match="not valid TOML"):
        parse_rules("[[profile]\n")
