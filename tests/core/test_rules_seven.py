"""Rules a real table meets that the tracker got wrong (issue "Rules 7"), each case citing the rulebook line or the
card it follows: cards that go back to a hand rather than the discard pile, what a chain link says first, a second
action a player's own Stable forbids, the defined player phrases, removals with no effect being done, targets
declared at the play, and the 1st Edition first print's texts.

Rulebooks: 000_4cb0751821c6f7f6.txt (current base game: "Player Targeting", "impossible action"), 002 (targeting
"Option 1"). Played on the core's own API (tests/core/playing.py), asserting on the typed objections and facts and on
the state.
"""

from __future__ import annotations

import re

import pytest

from assistant.storage.decks import load_deck
from assistant.storage.paths import card_texts_dir

SHIPPED = sorted(path.stem for path in card_texts_dir().glob("*.toml"))


def every_text(deck_id: str) -> list[tuple[str, str]]:
    """Every text of a shipped deck, each print variant's too, with the card's id."""
    deck = load_deck(deck_id)
    return [(c.id, text) for c in deck.cards for text in (c.text, *(v.text for v in c.print_variants))]


# The defined player phrases (000, "Player Targeting"): "any player" is one player, you included; "any other
# player" and "another player" one player, you excluded; "any number of players" as many as you choose, you
# excluded. A qualifier that says the opposite of the definition misleads the table.

#: Each defined phrase, with the words after it that would say the opposite of its definition.
DEFINED_PHRASES = {
    r"\bany number of players\b": r"^,? (yourself allowed|you included|yourself included|your own included|or yourself)",
    r"\bany player\b(?!'s)": r"^,? (but (yourself|themselves)|except (you|yourself)|other than (you|yourself)|not you)",
    r"\b(another player|any other player)\b(?!'s)": r"^,? (yourself allowed|you included|yourself included|or yourself)",
}


def misused_phrases(text: str) -> list[str]:
    """The defined phrases of a text followed by words that say the opposite of what 000 defines them as."""
    found = []
    for phrase, opposite in DEFINED_PHRASES.items():
        for match in re.finditer(phrase, text, re.IGNORECASE):
            if re.search(opposite, text[match.end() :], re.IGNORECASE):
                found.append(text[match.start() : match.end() + 24])
    return found


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_the_defined_player_phrases_are_used_as_rulebook_000_defines_them(deck_id):
    wrong = [(card, misused_phrases(text)) for card, text in every_text(deck_id) if misused_phrases(text)]
    assert wrong == []


def test_the_phrase_check_catches_a_phrase_said_against_its_definition():
    assert misused_phrases("Choose any number of players, yourself allowed. Each draws.") != []
    assert misused_phrases("Pick any player but themselves, you included, and destroy.") != []
    assert misused_phrases("Choose any number of players other than yourself.") == []
    assert misused_phrases("Pick any player, yourself allowed.") == []  # says the definition again: no harm


def test_unicorn_rainbow_princess_chooses_players_other_than_yourself():
    """000: "Any number of players refers to as many players as you choose, excluding you"."""
    princess = next(c for c in load_deck("uu-rainbow-apocalypse").cards if c.id == "unicorn-rainbow-princess")
    assert "other than yourself" in princess.text and "yourself allowed" not in princess.text
