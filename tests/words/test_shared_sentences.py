"""The sentences made once and shared by several callers (their wording is also checked in the game tests)."""

from __future__ import annotations

from assistant.core.words.errors import cannot_be_read, could_not_write
from assistant.core.words.gameplay import chain_link_added, turn_began


def test_the_turn_sentence_at_both_lengths():
    assert turn_began(5, "Ben") == "Turn 5: Ben's turn."
    assert turn_began(5, "Ben", brief=True) == "Ben's turn."


def test_a_link_added_to_the_chain_first_or_later():
    assert chain_link_added(1, "Claw Machine, may do") == "Effect chain: Claw Machine, may do."
    assert chain_link_added(2, "Claw Machine, may do") == "Added to the chain, in place 2: Claw Machine, may do."


def test_file_sentences_shared_by_the_commands_and_the_adapters():
    assert could_not_write("sheet.pdf", "Permission denied") == "Could not write sheet.pdf: Permission denied."
    assert cannot_be_read("Is a directory") == "cannot be read (Is a directory)"


def test_a_move_in_the_words_of_its_own_players_phone():
    from assistant.core.game.events import Bring, Destroy, Draw, EndTurn, Play, Source
    from assistant.core.words.kinds import own_move
    from assistant.session import Session
    from assistant.storage.decks import load_card_set

    session = Session(load_card_set())
    session.handle("new game Ana Ben babies red pink")
    table = session.game.table
    assert own_move(table, Draw(1)) == "You drew a card."
    assert own_move(table, Draw(1, 2)) == "You drew 2 cards."
    assert own_move(table, Play(0, "yay", into=1)) == "You played Yay into Ben's Stable."
    assert own_move(table, Play(0, "yay", into=0)) == "You played Yay."
    assert own_move(table, Destroy(1, "basic-unicorn-red", 1)) == "You destroyed Basic Unicorn (Red) in your Stable."
    assert own_move(table, Bring(0, "basic-unicorn-red", 1, Source.DISCARD)).startswith(
        "You brought Basic Unicorn (Red) into Ben's Stable from "
    )
    assert own_move(table, EndTurn(), 0) == "You ended your turn."  # (a turn ended: whose turn it was)
    assert own_move(table, EndTurn()) == ""  # no seat: no one's move
