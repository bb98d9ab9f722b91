"""A command's card name is taken whole (an exact name with full stops or commas is that card, and an exact name
keeps its small words); a Llamas Unleashed game says nothing of Neighs and no "a Animal"; a reshuffle says the
deck it makes; at deck-out the draw that emptied the deck is said before the winner."""

from __future__ import annotations

from assistant.commands.app import table_session
from assistant.core.game.facts import LimitReached, Reshuffled
from assistant.core.game.objections import CannotBeNeighed, NothingToAnswer
from assistant.core.language.parser import keep_card_names
from assistant.core.words.gameplay import describe_fact
from assistant.core.words.rulings import describe_objection, short_objection
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.talking import asks


def start(base: str, addons: list[str], babies: str) -> Session:
    session = table_session(load_card_set(base, addons))
    session.handle(f"new game Ana Ben babies {babies}")
    session.handle("draw")
    return session


def test_an_exact_name_with_full_stops_is_that_card():
    """The G.O.A.T. was split on its full stops and recorded as Basic Goat, with no question asked."""
    session = start("llamas", ["llamas-farmed"], "llama alpaca")
    reply = session.handle("play The G.O.A.T.")
    assert session.game.state.pile[0].card == "the-g-o-a-t", reply.speech
    session.handle("undo")
    session.handle("bring the g.o.a.t. into Ben")
    assert "the-g-o-a-t" in session.game.state.players[1].stable


def test_names_with_full_stops_and_commas_are_each_their_own_card():
    session = start("uu-2nd", ["uu-rainbow-apocalypse", "uu-nsfw-expansion"], "red pink")
    session.handle("play Fuck. Marry. Kill")
    assert session.game.state.pile[0].card == "fuck-marry-kill"
    assert keep_card_names("Ben play Neigh, Thank You", session.game.table.cards) == "Ben play neigh-thank-you"


def test_exact_names_keep_their_small_words():
    """ "Stabby the Unicorn", "Unicorn of War", "Raze The Stables" are exact names, not numbered lists."""
    session = start("uu-2nd", ["uu-rainbow-apocalypse", "uu-legends"], "red pink")
    for line, card_id in (
        ("bring unicorn of war into Ana", "unicorn-of-war"),
        ("bring stabby the unicorn into Ana", "stabby-the-unicorn"),
    ):
        reply = session.handle(line)
        assert card_id in session.game.state.players[0].stable, reply.speech
    reply = session.handle("play raze the stables")
    if asks(reply):  # the chain waits: recorded anyway
        reply = session.handle("yes")
    assert session.game.state.pile and session.game.state.pile[0].card == "raze-the-stables", reply.speech


def test_a_llamas_game_never_says_neighed_or_a_animal():
    session = start("llamas", ["llamas-farmed"], "llama alpaca")
    table, state = session.game.table, session.game.state
    said = [
        describe_objection(table, NothingToAnswer(1, "spit-happens")),
        describe_objection(table, CannotBeNeighed(0, "basic-llama", "no-probllama")),
        short_objection(table, CannotBeNeighed(0, "basic-llama", "no-probllama")),
        describe_fact(table, LimitReached(0, "crowded-field", 6, 5), state),
    ]
    assert all("Neigh" not in line and "a Animal" not in line for line in said), said
    assert said[3] == "Ana has 6 Animals with Crowded Field, more than 5: sacrifice an Animal card."


def test_a_reshuffle_says_the_deck_it_makes():
    """`reshuffle` with 2 cards in the discard pile and the deck not empty: the deck holds both and what was left."""
    session = table_session(load_card_set("uu-2nd"))
    session.handle("new game Ana Ben babies red pink rules uu-five")
    session.handle("discard")
    session.handle("Ben discard")
    left = session.game.state.deck
    reply = session.handle("reshuffle")
    step = session.lobby.talk.step
    assert Reshuffled(2, left + 2) in step.facts
    assert f"The deck now holds {left + 2} cards" in reply.speech


def test_at_deck_out_the_draw_that_emptied_the_deck_comes_before_the_winner():
    session = table_session(load_card_set("uu-2nd"))
    session.handle("new game Ana Ben babies red pink")
    session.handle("bring basic red into Ana")
    session.handle("deck 1")
    said = session.handle("draw").speech
    assert said.index("Ana drew a card") < said.index("Ana wins"), said
    assert "Action phase" not in said
