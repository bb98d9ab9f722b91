"""How much is said, and the listening commands: brief, normal and coaching replies to the same game; a chain
link read once with what it does; repeat, stop, history; undo restating what changed; a mistyped command's hint."""

from __future__ import annotations

import pytest

from assistant.commands.app import table_session
from assistant.core.language.reply import Control
from assistant.core.words.cardtext import card_gist
from assistant.core.words.verbosity import Verbosity
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.talking import asks

CARDS = load_card_set("uu-2nd")
TURN = ["new game Ana Ben Cy babies red pink orange", "draw", "play basic blue", "resolve"]


def session(level: Verbosity = Verbosity.NORMAL) -> Session:
    return table_session(CARDS, verbosity=level)


def replies(level: Verbosity, lines: list[str]) -> list[str]:
    s = session(level)
    return [s.handle(line).speech for line in lines]


def test_brief_says_the_facts_alone():
    said = replies(Verbosity.BRIEF, TURN)
    assert said[2] == "Basic Unicorn (Blue). Neigh?"  # the turn's own player goes without saying; the colour tells
    # this Basic Unicorn from the deck's others
    assert said[1] == "Ana drew a card."  # the phase is on the status line
    assert said[3] == "Ana 2 Unicorns."  # the outcome alone: the card was named when it was played


def test_normal_says_what_the_table_waits_for_but_not_what_to_type():
    said = replies(Verbosity.NORMAL, TURN)
    assert said[2] == "Ana played Basic Unicorn (Blue). Neigh?"  # the card was just named: not again
    assert said[3] == "Ana has 2 Unicorns."  # the outcome: the card was named when it was played
    assert not any("say " in s.lower().replace("ana says", "") for s in said[1:]), said


def test_coaching_says_what_to_type():
    said = replies(Verbosity.COACHING, TURN)
    assert "say draw" in said[0]
    assert "Say neigh and a name, or resolve." in said[2]
    assert said[3].endswith("Say end turn when the turn is over.")


@pytest.mark.parametrize("level", list(Verbosity))
def test_every_level_carries_the_count_as_a_short_decisive_fact(level):
    """A game reply's decisive fact is the short count at every level: what is folded into the next reply when a
    key cuts this one."""
    s = session(level)
    for line in TURN[:-1]:
        s.handle(line)
    reply = s.handle("resolve")
    assert reply.decisive == "Ana 2 Unicorns."


HERD_GAME = ["new game Ana Ben babies alpaca llama win 4", "draw", "play basic alpaca", "resolve", "end turn",
             "draw", "play basic llama", "resolve", "end turn", "draw", "play basic alpaca", "resolve", "end turn",
             "draw", "end turn", "draw", "play basic alpaca", "resolve"]  # fmt: skip


@pytest.mark.parametrize("level", list(Verbosity))
def test_a_herd_bonus_turn_leads_with_the_duty_and_a_win_says_its_count_once(level):
    """The turn says the Herd Bonus offered in its own sentence; normal and coaching add what it does. The win
    names the count, so the winner's count is not said again after it."""
    s = table_session(load_card_set("llamas"), verbosity=level)
    said = [s.handle(line) for line in HERD_GAME]
    turn, win = said[14], said[-1]
    assert turn.decisive == "Ana's turn: may use the Alpaca Herd Bonus."
    herd = "Alpaca Herd Bonus: Your Alpacas cannot be destroyed."
    assert (herd in turn.speech) is (level is not Verbosity.BRIEF)
    # one sentence with the turn, so the decisive fact is heard within it
    assert turn.speech.startswith(turn.decisive if level is Verbosity.BRIEF else f"Turn 5, {turn.decisive}")
    assert win.speech.startswith("Ana wins with 4 Animals! The game is over.")
    assert "Ana has 4" not in win.speech and "Ana: 4" not in win.speech


def test_a_chain_link_is_read_once_with_what_its_card_does():
    """Unicorn Poison: "DESTROY a Unicorn card" (our text: destroy a Unicorn card in another player's Stable)."""
    s = session()
    for line in ["new game Ana Ben babies red pink", "draw", "play unicorn poison"]:
        s.handle(line)
    said = s.handle("resolve").speech
    assert said.count("Unicorn Poison, played by Ana") == 1, said
    assert "which does this: Destroy a Unicorn card" in said
    coached = session(Verbosity.COACHING)
    for line in ["new game Ana Ben babies red pink", "draw", "play unicorn poison"]:
        coached.handle(line)
    said = coached.handle("resolve").speech
    assert said.count("Unicorn Poison, played by Ana") == 1 and "Do it, then say resolve." in said


@pytest.mark.parametrize("level", list(Verbosity))
def test_a_step_done_while_a_link_waits_does_not_read_the_link_again(level):
    s = session(level)
    for line in ["new game Ana Ben babies red pink", "draw", "play basic blue", "resolve", "end turn", "draw",
                 "play unicorn poison", "resolve"]:  # fmt: skip
        s.handle(line)
    assert len(s.game.state.chain) == 1
    said = s.handle("destroy basic blue").speech
    assert "Basic Unicorn (Blue)" in said and "Unicorn Poison" not in said, said
    assert ("Say resolve when it is done." in said) is (level is Verbosity.COACHING)
    assert "Unicorn Poison, played by Ben" in s.handle("chain").speech  # read again when asked


def test_an_entering_unicorns_link_says_its_effect_not_its_trigger():
    s = session()
    for line in ["new game Ana Ben babies red pink", "draw", "play rainbow unicorn"]:
        s.handle(line)
    said = s.handle("resolve").speech
    assert "which does this: you may" in said and "When this card enters" not in said


def test_verbosity_cycles_and_is_said():
    s = session(Verbosity.BRIEF)
    assert s.handle("verbosity").speech.startswith("Verbosity normal")
    assert s.handle("verbosity").speech.startswith("Verbosity coaching")
    assert s.handle("verbosity brief").speech.startswith("Verbosity brief") and s.verbosity is Verbosity.BRIEF
    s.handle("new game Ana Ben babies red pink")
    assert s.handle("draw").speech == "Ana drew a card."  # the game started after it says less too
    wrong = s.handle("verbosity loud")
    assert wrong.important and "verbosity brief" in wrong.speech and s.verbosity is Verbosity.BRIEF


def test_repeat_stop_and_history_leave_the_game_alone():
    s = session()
    first = s.handle("yay")
    again = s.handle("repeat")
    assert again.lines == first.lines and again.control is Control.REPEAT
    stop = s.handle("stop")
    assert stop.control is Control.STOP and stop.lines == () and stop.speech == ""
    s.handle("new game Ana Ben babies red pink")
    history = s.handle("history")
    assert history.lines[0] == "The last 2 answers, oldest first:"
    assert first.lines[0] in history.lines and history.lines[-1].startswith("Turn 1: Ana goes first")
    assert s.handle("repeat").lines[0].startswith("New game")  # history itself is not an answer to repeat
    assert len(s.game.log) == 0


def test_repeat_with_nothing_said_yet():
    assert session().handle("repeat").speech == "Nothing has been said yet."


def test_a_question_stays_open_through_repeat():
    s = session()
    s.handle("new game Ana Ben babies red pink")
    warned = s.handle("play yay")  # in the Beginning of turn phase: warned
    assert asks(warned)
    s.handle("repeat")
    assert s.handle("yes").speech.startswith("Ana played Yay")


def test_undo_says_what_changed_and_a_win_taken_back():
    s = session()
    for line in ["new game Ana Ben babies red pink win 2", "draw", "play basic blue"]:
        s.handle(line)
    assert "wins" in s.handle("resolve").speech
    undone = s.handle("undo").lines
    assert undone[1] == "Win taken back."
    assert undone[0] == "Undone: Ana's Basic Unicorn (Blue) is back on the pile."  # the position, not the event
    assert undone[2] == "Ana has 1 Unicorn."
    assert s.game.state.outcome is None
    redone = s.handle("redo").lines
    assert "Ana has 2 Unicorns." in redone and any("wins" in line for line in redone)


def test_the_babies_named_at_new_game_are_confirmed():
    said = session().handle("new game Ana Ben babies red narwhal").lines
    assert "In the Stables: Ana has Baby Unicorn (Red) and Ben has Baby Narwhal." in said


@pytest.mark.parametrize(
    ("line", "meant"),
    [("destory baby red", "destroy baby red"), ("plya yay", "play yay"), ("undp 2", "undo 2")],
)
def test_a_mistyped_command_gets_the_command_it_resembles(line, meant):
    s = session()
    s.handle("new game Ana Ben babies red pink")
    reply = s.handle(line)
    assert reply.lines[-1] == f"If you meant the command, type: {meant}."
    assert len(s.game.log) == 0


def test_a_card_name_is_not_taken_for_a_mistyped_command():
    reply = session().handle("rainbw aura")
    assert reply.card is not None or reply.choices
    assert "If you meant the command" not in reply.speech


def test_the_settings_file_chooses_the_starting_level(tmp_path, monkeypatch):
    import argparse

    from assistant.commands.app import make_session
    from assistant.core.speech.settings import parse_settings
    from assistant.storage.settings import save_settings, settings_path

    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(tmp_path))
    save_settings(parse_settings('[speech]\nverbosity = "brief"\n'), settings_path())
    args = argparse.Namespace(deck=None, addon=[], verbosity=None)
    assert make_session(args).verbosity is Verbosity.BRIEF
    args.verbosity = "coaching"  # the command line's word wins
    assert make_session(args).verbosity is Verbosity.COACHING
    with pytest.raises(ValueError, match="verbosity must be one of"):
        parse_settings('[speech]\nverbosity = "loud"\n')


def test_plain_mode_offers_the_saved_game_and_handles_stop_and_repeat(tmp_path):
    import io

    from assistant.storage.saves import GameStore
    from assistant.ui.plain import run_plain

    store = GameStore(tmp_path)
    first = Session(CARDS, store=store)
    for line in ["new game Ana Ben babies red pink", "draw"]:
        first.handle(line)
    s = Session(CARDS, store=store)
    offer = s.offer_resume()
    assert offer.lines == ("The game of Ana and Ben is saved. Say yes to continue it, or start with any command.",)

    class Speaker:
        def __init__(self):
            self.said, self.controls = [], []

        def __call__(self, reply):
            self.said.append(reply.speech)

        def control(self, command):
            self.controls.append(command)

    speaker, out = Speaker(), io.StringIO()
    run_plain(s, ["yes\n", "stop\n", "repeat\n", "quit\n", "draw\n"], out, speaker, first=offer, prompt="> ")
    printed = out.getvalue()
    assert printed.startswith("Table assistant, plain mode.") and speaker.said[0].startswith("Table assistant")
    assert printed.count("Continuing the game of Ana and Ben, 1 event.") == 2  # the answer, then repeat
    assert speaker.controls == ["stop"] and printed.count("> ") == 4 and len(s.game.log) == 1


@pytest.mark.parametrize(
    ("answer", "first_line"),
    [
        ("resume", "Continuing the game of Ana and Ben, 1 event."),
        ("yes", "Continuing the game of Ana and Ben, 1 event."),
        ("no", "The saved game stays saved: say resume to continue it later."),
        ("new game Cy Dee", "New game: Cy and Dee, clockwise."),
    ],
)
def test_the_offer_of_the_saved_game_is_answered_without_not_recorded(tmp_path, answer, first_line):
    """The offer says "or start with any command": a command is no refusal of a warned event."""
    from assistant.storage.saves import GameStore

    store = GameStore(tmp_path)
    first = Session(CARDS, store=store)
    for line in ["new game Ana Ben babies red pink", "draw"]:
        first.handle(line)
    s = Session(CARDS, store=store)
    assert s.offer_resume() is not None
    reply = s.handle(answer)
    assert reply.lines[0].startswith(first_line), reply.lines
    assert "Not recorded." not in reply.speech


def test_a_command_typed_in_braille_cells_is_run_as_the_command():
    from assistant.core.braille.celltable import to_cells

    s = session()
    s.handle("new game Ana Ben babies red pink")
    reply = s.handle(to_cells("draw"))
    assert reply.lines[0] == "Ana drew a card." and len(s.game.log) == 1
    assert s.handle(to_cells("undo")).lines[0] == "Undone: the card Ana drew is back on the deck."
    looked_up = s.handle(to_cells("yay"))  # a card's name in cells is still a look-up
    assert looked_up.card is not None and looked_up.card.id == "yay"


@pytest.mark.parametrize(
    "deck, card_id, gist",
    [
        # a first clause of two words is no gist: whole clauses are kept while they fit
        ("uu-2nd", "reset-button", "Every player, you included, must sacrifice all their Upgrade and Downgrade cards"),
        # both openings left out, so what is said is what the card lets you do
        ("uu-1st", "extremely-fertile-unicorn", "you may discard one card; if you do, a Baby Unicorn"),
        ("uu-1st", "double-dutch", "you may play 2 cards this turn instead of 1"),
        # an Instant's opening that names its effect after a colon: the effect, not the sentence after it
        ("llamas", "surprise-emu-attack", "destroy one Animal card in that player's Field"),
    ],
)
def test_a_chain_link_says_what_its_card_does_in_whole_clauses(deck, card_id, gist):
    card = next(c for c in load_card_set(deck) if c.id == card_id)
    said = card_gist(card)
    assert said.startswith(gist)
    whole = said.replace("; ", ". ").lower() in card.text.lower()  # the card's sentences, nothing left out
    assert whole or said.endswith(", and more") and len(said.split()) <= 24


def test_a_cost_in_a_gist_keeps_what_it_buys():
    """Shark With a Horn, 2nd Edition: sacrifice it, then destroy a Unicorn card; the cost alone misleads."""
    card = next(c for c in load_card_set("uu-2nd") if c.id == "shark-with-a-horn")
    assert card_gist(card, "enters") == (
        "you may sacrifice this card, then destroy one Unicorn card in another player's Stable"
    )


@pytest.mark.parametrize("deck", ["uu-1st", "uu-2nd", "llamas"])
def test_and_more_is_said_only_when_something_was_left_out(deck):
    for card in load_card_set(deck):
        said = card_gist(card)
        if said.endswith(", and more"):
            assert not card.text.rstrip(". ").endswith(said.removesuffix(", and more")), card.id


def test_a_brief_play_keeps_the_colour_where_it_tells_cards_apart():
    from assistant.core.words.gameplay import short_card_name

    said = replies(Verbosity.BRIEF, ["new game Ana Ben babies red pink", "draw", "play basic indigo"])
    assert said[2] == "Basic Unicorn (Indigo). Neigh?"  # not "Basic Unicorn.": the deck has Basics of seven colours
    # a name whose bracket tells it from no other card in play is said without it
    assert short_card_name("Basic Unicorn (Indigo)", ["Basic Unicorn (Indigo)", "Neigh"]) == "Basic Unicorn"
