"""The decisive fact a reply carries (`Reply.decisive`): the front ends hold it on the status line and a braille
display and say it again when a key cuts it, so it must be set on the replies that make one, and only on them."""

from __future__ import annotations

from tests.core.talking import asks
from tests.core.test_game_scenarios import start, to_action


def test_a_win_is_the_decisive_fact_of_the_reply_that_makes_it():
    t = start(extra="win 3")
    to_action(t)
    turns = ("end turn", "draw") * 3
    for line in ("play basic red", "resolve", *turns, "play rainbow unicorn"):
        assert "wins" not in t.handle(line).decisive, line
    waits = t.handle("resolve").decisive  # the win waits for the chain: that is decisive too, but not a win
    assert "wins" not in waits and waits.startswith("Ana has 3 Unicorns, enough to win once the chain is resolved.")
    said = t.handle("resolve")
    assert t.game.state.outcome is not None
    assert said.decisive == "Ana wins!"  # under a second; the count is in the reply


def test_a_turn_that_begins_and_a_count_are_decisive_and_an_ordinary_step_is_not():
    t = start()
    to_action(t)
    assert t.handle("play basic red").decisive == ""
    assert t.handle("resolve").decisive == "Ana 2 Unicorns."  # a count: decisive, short
    said = t.handle("end turn")
    assert said.decisive == "Ben's turn." and said.decisive in said.speech  # short: said again within a key's time


def test_a_warning_carries_its_short_reason_and_question_as_the_decisive_fact():
    t = start()
    said = t.handle("Ben play basic red")
    assert asks(said) and said.decisive == "Ana's turn, not Ben's. Record anyway?"  # why and what, in one breath
    assert said.speech == f"{said.decisive} It is Ana's turn, not Ben's. Say yes or no."  # then why, in full


def test_a_beginning_of_turn_duty_is_part_of_the_turn_that_begins():
    t = start("Ana Ben", "red pink")
    lines = ("draw", "play claw machine", "resolve", "end turn", "draw", "play sadistic ritual into Ana", "resolve")
    for line in lines:
        t.handle(line)
    said = t.handle("end turn")
    assert said.decisive == "Ana's turn: must do Sadistic Ritual; may use Claw Machine."
    # the turn leads its reply, in one sentence with its duties, so the decisive fact is heard within it
    assert said.speech.startswith("Turn 3, Ana's turn: must do Sadistic Ritual; may use Claw Machine.")


def test_a_herd_bonus_is_decisive():
    from tests.core.test_game_scenarios import _llamas, say, tracker

    t = tracker(_llamas())
    say(t, "new game Ana Ben babies llama goat")
    say(t, "draw", "play llama", "resolve", "end turn", "draw", "end turn", "draw", "play llamapaca", "resolve")
    say(t, "end turn", "draw")
    assert t.handle("end turn").decisive == "Ana's turn: may use the Llama Herd Bonus."


def test_a_card_an_effect_moves_is_decisive_with_the_counts_first_in_the_reply():
    t = start()
    to_action(t)
    t.handle("play basic red")
    assert t.handle("resolve").decisive == "Ana 2 Unicorns."  # a card played into its own Stable: its count
    said = t.handle("sacrifice basic red")
    assert said.decisive == "Ana 1 Unicorn."  # the count: what the move did, short enough to hear between keys
    assert said.speech.startswith("Ana 1 Unicorn. Ana sacrificed Basic Unicorn (Red).")  # the fact first


def test_numbered_cards_to_choose_from_are_a_question_waiting():
    t = start()
    to_action(t)
    said = t.handle("play rainbow")
    assert said.choices and said.decisive == said.speech and said.decisive.endswith("Type a number to choose.")


def test_the_counts_come_before_the_card_in_a_resolve():
    t = start()
    to_action(t)
    t.handle("play basic red")
    said = t.handle("resolve")
    assert said.speech.startswith("Ana has 2 Unicorns.") and said.decisive == "Ana 2 Unicorns."


def test_a_warning_says_its_reason_and_question_in_one_short_breath():
    t = start("Ana Ben", "red pink")
    to_action(t)
    for line in ("play ginormous unicorn", "resolve", "end turn", "draw", "play basic blue"):
        t.handle(line)
    said = t.handle("neigh Ana")
    assert asks(said) and said.decisive == "Ana can't Neigh: Ginormous Unicorn. Record anyway?"
    assert len(said.decisive.split()) <= 7  # about a second of speech: heard before the answer at table pace


def test_an_undo_says_the_state_as_it_now_is_first_as_its_decisive_fact():
    t = start(extra="win 3")
    to_action(t)
    t.handle("play basic red")
    t.handle("resolve")
    said = t.handle("undo")
    assert said.settles and said.decisive == "Ana has 1 Unicorn."
    assert said.speech.startswith("Ana has 1 Unicorn. Undone:")


def test_a_chain_duty_and_its_end_are_decisive():
    t = start()
    to_action(t)
    t.handle("play unicorn poison")
    said = t.handle("resolve")
    assert said.decisive == "Destroy a Unicorn."  # its deed, in a second: the full text is in the reply
    t.handle("destroy baby pink in Ben")
    assert t.handle("resolve").decisive.endswith("Chain resolved.")


def test_cards_that_play_alike_are_not_asked_about_and_the_others_are_asked_once_each():
    from assistant.commands.app import table_session
    from assistant.storage.decks import load_card_set

    session = table_session(load_card_set("llamas", ["llamas-farmed"]))
    session.handle("new game Ana Ben Cy Dee babies alpaca llama goat ram")
    session.handle("draw")
    said = session.handle("play basic alpaca")  # the base game's Basic Alpaca and the add-on's: no question
    assert not said.choices and said.speech.startswith("Ana played Basic Alpaca.")
    session.handle("resolve")
    session.handle("end turn")
    session.handle("draw")
    asked = session.handle("play basic")
    assert [card.name for card in asked.choices] == ["Basic Ram", "Basic Goat", "Basic Llama"]  # each kind once


def test_advice_on_having_a_herd_bonus_read_is_given_once_a_game():
    from assistant.commands.app import table_session
    from assistant.storage.decks import load_card_set

    session = table_session(load_card_set("llamas", ["llamas-farmed"]))
    session.handle("new game Ana Ben babies ram llama")
    for line in ("draw", "bring basic ram into Ana", "bring basic ram into Ana", "end turn"):
        session.handle(line)
    session.handle("draw")
    offered = [session.handle("end turn").speech]
    for _ in range(2):
        session.handle("draw")
        session.handle("end turn")
        session.handle("draw")
        offered.append(session.handle("end turn").speech)
    assert all("Ram Herd Bonus" in said for said in offered)
    assert ["import the sheet" in said for said in offered] == [True, False, False]
