"""Instants as cards at the table: a Llamas-like game in the plain line mode with counters of the three kinds and
Surprise Emu Attack, and the one-key answers offering a deck's Instants in the app (the deck is the tests' own,
tests/fixtures/llamas_instants.toml)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from fake_speaker import Heard

from assistant.commands.app import table_session
from assistant.core.cards.card import CardSet
from assistant.core.cards.cardfile import parse_deck
from assistant.core.game import events as ev
from assistant.core.language.reply import Choice
from assistant.core.words.audience import Audience
from assistant.core.words.screen import ONE_KEY_INSTANTS
from assistant.core.words.worded import words_for
from assistant.storage.decks import load_card_set
from assistant.ui.one_key import one_key_answer
from assistant.ui.plain import run_plain

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "llamas_instants.toml"


def llamas() -> CardSet:
    return CardSet([parse_deck(FIXTURE.read_text(encoding="utf-8"), str(FIXTURE))])


SCRIPT = """new game Ana Ben Cy babies llama goat ram hands
draw
play henry
Cy plays alpaca your bags
resolve
end turn
draw
play basic goat
Ana plays goatsundheit
resolve
Ben draw
Ana draw
resolve
end turn
draw
play basic goat
Ana plays spit happens
Ben plays llama stop you right there
resolve
resolve
resolve
end turn
draw
play basic llama
Cy plays surprise emu attack
resolve
resolve
Cy destroy baby llama from Ana
resolve
hands
stable
deck
"""


def test_plain_mode_plays_a_llamas_game_with_each_kind_of_instant():
    session = table_session(llamas())
    out = io.StringIO()
    run_plain(session, io.StringIO(SCRIPT), out)
    lines = out.getvalue().splitlines()
    said = "\n".join(lines)
    # Alpaca Your Bags stops the hybrid Henry (a Llama and an Alpaca) and Cy takes it.
    assert (
        "Cy's Alpaca Your Bags resolves and stops Ana's Henry the Huarizo. It is an Alpaca, so Cy takes it into their "
        "hand; Alpaca Your Bags goes to the discard pile." in lines
    )
    # Goatsundheit: both may draw, in a link of the chain.
    assert "Goatsundheit lets Ana and Ben each draw a card." in lines
    assert "Ben drew a card." in lines and "Ana drew a card." in lines
    # Llama Stop You Right There stops an Instant: its player may draw.
    stops = "Ben's Llama Stop You Right There resolves and stops Ana's Spit Happens. Both go to the discard pile."
    assert stops in lines
    assert "Llama Stop You Right There stopped an Instant, so Ben may draw, as the card says." in lines
    # Surprise Emu Attack: the Animal still comes in; the destroy is recorded by the table.
    assert (
        "Cy's Surprise Emu Attack resolves: Cy destroys an Animal card in Ana's Field; say destroy and the card. "
        "Ana's Basic Llama still resolves." in lines
    )
    assert "Cy destroyed Baby Llama in Ana's Field." in lines
    assert "Baby Llama goes back to the Nursery, as Babies always do." in lines
    assert "Ana's Field: Basic Llama. 1 Animal." in lines
    assert "Cards in hand: Ana 4, Ben 5, Cy 4." in lines
    assert lines[-1] == "The deck holds about 6 cards; when it runs out, the most Animals wins."
    assert "Against the rules" not in said and "no Neigh card" not in said


def test_the_one_key_answer_to_which_instant_is_the_digit_alone():
    session = table_session(llamas())
    for line in ("new game Ana Ben Cy", "draw", "play basic llama"):
        session.handle(line)
    assert one_key_answer(session, "2", "") == "neigh Ben"
    session.handle("neigh Ben")
    assert isinstance(session.pending, Choice)
    assert one_key_answer(session, "1", "") == "1"
    assert one_key_answer(session, "9", "") == "", "no such Instant: said at once, not typed"
    assert one_key_answer(session, "0", "") == "", "0 is never a choice"
    assert one_key_answer(session, "1", "1") is None, "a number being typed: Enter sends it"


def test_the_one_key_answers_offer_a_decks_instants_in_the_app(make_app):
    """The app as `table-assistant --deck llamas --addon llamas-farmed` opens it, keys only."""
    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append), "--deck", "llamas", "--addon", "llamas-farmed", "--verbosity", "coaching")
        async with app.run_test(size=(110, 40)) as pilot:
            for line in ("new game Ana Ben Cy babies llama goat ram", "draw", "play gin rammy"):
                await pilot.press(*line, "enter")
            await pilot.pause()
            assert spoken[-1].speech.endswith(ONE_KEY_INSTANTS)
            assert "0 resolves, a player's number then the Instant's number plays one." in str(
                app.query_one("#status").render()
            )
            await pilot.press("2")  # Ben answers: which Instant?
            await pilot.pause()
            assert spoken[-1].speech.startswith("Which Instant does Ben play? 1 Alpaca Your Bags, 2 Baaa'd Move!")
            await pilot.press("6")  # Goatsundheit, at once
            await pilot.pause()
            assert app.session.game.log[-1] == ev.Respond(1, "goatsundheit")
            assert spoken[-1].speech.startswith("Ben played Goatsundheit.")
            assert app.query_one("#prompt").value == ""
            await pilot.press("0")
            await pilot.pause()
            assert app.session.game.state.pile == ()
            assert "Goatsundheit lets Ben and Ana each draw a card." in spoken[-1].speech

    asyncio.run(scenario())


def test_unstable_unicorns_keep_the_neigh_keys(make_app):
    session = table_session(load_card_set("uu-2nd"))
    for line in ("new game Ana Ben", "draw", "play basic red"):
        session.handle(line)
    assert one_key_answer(session, "2", "") == "neigh Ben"
    assert one_key_answer(session, "2", "s") == "super neigh Ben"
    assert one_key_answer(session, "0", "") == "resolve"
    session.handle("neigh Ben")
    assert session.pending is None and session.game.log[-1] == ev.Respond(1, "neigh")


def test_a_digit_that_cannot_be_a_choice_is_said_at_once_and_escape_closes_the_list(make_app):
    spoken = []

    async def scenario():
        app = make_app(Heard(spoken.append), "--deck", "llamas", "--addon", "llamas-farmed")
        async with app.run_test(size=(110, 40)) as pilot:
            for line in ("new game Ana Ben Cy babies llama goat ram", "draw", "play gin rammy"):
                await pilot.press(*line, "enter")
            await pilot.press("2")  # Ben answers: which Instant? (seven of them)
            await pilot.pause()
            assert isinstance(app.session.pending, Choice)
            count = len(app.session.pending.cards)
            await pilot.press("9")
            await pilot.pause()
            assert spoken[-1].speech == f"No choice 9: the choices are 1 to {count}." and spoken[-1].important
            assert app.query_one("#prompt").value == ""  # not typed
            await pilot.press("escape")  # the list is closed: the next digit is a one-key answer again
            await pilot.pause()
            assert app.session.pending is None and "List closed." in str(app.query_one("#status").render())
            await pilot.press("0")
            await pilot.pause()
            assert app.session.game.state.pile == ()  # 0 resolved the card: nobody played an Instant

    asyncio.run(scenario())


def test_which_instant_on_a_small_braille_display_leads_with_who_is_asked():
    """`neigh Ben` in the Llamas deck asks which Instant: on a display of 20 cells or fewer its words lead with who is
    asked ("Ben: which Instant?"), the numbered Instants all there; spoken as before."""
    session = table_session(llamas())
    for line in ("new game Ana Ben Cy", "draw", "play basic llama"):
        session.handle(line)
    asked = session.handle("neigh Ben")
    (fact,) = asked.facts
    assert words_for(fact, Audience.TABLE).startswith("Which Instant does Ben play? 1 Spit Happens")
    narrow = words_for(fact, Audience.NARROW)
    assert narrow.startswith("Ben: which Instant? 1 Spit Happens") and narrow.endswith("to choose.")
    assert narrow.count(",") == words_for(fact, Audience.TABLE).count(",")  # (every Instant offered)
