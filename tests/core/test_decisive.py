"""The decisive fact a reply carries (`Reply.decisive`): the front ends hold it on the status line and a braille
display and say it again when a key cuts it, so it must be set on the replies that make one, and only on them."""

from __future__ import annotations

from tests.core.test_game_scenarios import start, to_action


def test_a_win_is_the_decisive_fact_of_the_reply_that_makes_it():
    t = start(extra="win 3")
    to_action(t)
    for line in ("play basic red", "resolve", "end turn", "end turn", "end turn", "draw", "play rainbow unicorn"):
        assert "wins" not in t.handle(line).decisive, line
    assert t.handle("resolve").decisive == ""  # the win waits for the chain
    said = t.handle("resolve")
    assert t.game.state.outcome is not None
    assert said.decisive.startswith("Ana wins with 3 Unicorns!")


def test_a_turn_that_begins_is_decisive_and_an_ordinary_step_is_not():
    t = start()
    to_action(t)
    assert t.handle("play basic red").decisive == ""
    assert t.handle("resolve").decisive == ""
    assert t.handle("end turn").decisive == "Turn 2: Ben's turn."


def test_a_warning_carries_its_question_as_the_decisive_fact():
    t = start()
    said = t.handle("Ben play basic red")
    assert said.confirm and said.decisive == said.speech and said.decisive.endswith("Say yes or no.")
