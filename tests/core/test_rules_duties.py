"""Duties that cannot be skipped, hands discarded by count, and reminders from the game's state (issue 103).

A mandatory beginning-of-turn effect (Sadistic Ritual) of which nothing was done is warned at a bare `resolve`
(rulebook 002: "If the effect is mandatory, you must still do it"): the table may still insist, and until it does the
effect stays in the chain.

Played on the core's own API (tests/core/playing.py), asserting on the typed objections; the lines through the
session (tests/core/talking.py) where the line itself is the subject.
"""

from __future__ import annotations

import pytest

from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import (
    Bring,
    Discard,
    Draw,
    EndTurn,
    Move,
    NextPhase,
    Phase,
    Play,
    Resolve,
    Sacrifice,
    SetHand,
    UseEffect,
    event_from_dict,
)
from assistant.core.game.facts import GoesBackNow
from assistant.core.game.moves import ACTION_OF
from assistant.core.game.objections import EmptyHand, HandTooShort, MandatoryFirst, MandatoryNotDone, NotGivenBack
from assistant.core.language.verbs import parse_command
from assistant.core.words.kinds import describe_event
from assistant.core.words.rulings import describe_objection
from tests.core import playing as play
from tests.core import talking as talk

ANA, BEN = play.ANA, play.BEN
RITUAL = MandatoryNotDone(ANA, "sadistic-ritual", ("sacrifice", "draw"))


def _ritual_due() -> play.Game:
    """Ana's turn begins with Sadistic Ritual and a Unicorn card in her Stable."""
    g = play.table()
    play.bring(g, "sadistic-ritual")
    play.bring(g, "basic-unicorn-red")
    play.moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert [t.card for link in g.state.chain for t in link] == ["sadistic-ritual"]
    return g


def test_a_bare_resolve_of_a_mandatory_effect_left_undone_is_warned_and_it_stays_in_the_chain():
    """002: "If the effect is mandatory, you must still do it": nothing sacrificed or drawn, the resolve is warned;
    declined, the effect is still waiting."""
    g = _ritual_due()
    assert play.declined(g, Resolve()) == (RITUAL,)
    assert g.state.chain == ((Trigger("sadistic-ritual", ANA, TriggerKind.BEGIN),),)


def test_the_table_may_insist_that_the_mandatory_effect_resolve():
    g = _ritual_due()
    assert play.warned(g, Resolve()) == (RITUAL,)
    assert not g.state.chain


def test_a_mandatory_effect_done_resolves_without_a_word():
    g = _ritual_due()
    play.moves(g, Sacrifice(ANA, "basic-unicorn-red"), Draw(ANA), Resolve())
    assert not g.state.chain


def test_a_mandatory_effect_with_nothing_it_can_act_on_is_not_warned():
    """Sadistic Ritual: "With no Unicorn card to sacrifice, you do not draw": with none in Ana's Stable the effect has
    nothing to do, and the resolve is not warned; Dragon's Curse ("you must discard a card") with an empty hand the
    same; with a hand the table has not counted, it is."""
    g = play.game(drawn=True)  # no Baby Unicorns: no Unicorn card in either Stable
    play.bring(g, "sadistic-ritual")
    play.moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert g.state.chain and g.check(Resolve()) == ()
    play.bring(g, "basic-unicorn-red")
    assert g.check(Resolve()) == (RITUAL,)
    curse = play.table("uu-2nd", ("uu-dragons",))
    play.bring(curse, "dragon-s-curse")
    play.moves(curse, EndTurn(), Draw(BEN), EndTurn())
    assert curse.check(Resolve()) == (MandatoryNotDone(ANA, "dragon-s-curse", ("discard",)),)
    play.moves(curse, SetHand(ANA, 0))
    assert curse.check(Resolve()) == ()


def test_an_effect_with_nothing_for_its_player_to_do_is_not_warned():
    """Unstoppable Ram's effect is the tracker's own (no one may play an Instant): nothing is asked of its player."""
    g = play.table("llamas")
    play.bring(g, "unstoppable-ram")
    play.moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert g.state.chain and g.check(Resolve()) == ()


def test_a_mandatory_duty_each_time_is_held_to_the_same_rule_and_an_optional_one_is_not():
    """Barbed Wire ("you must discard a card whenever a Unicorn card comes into your Stable"): its duty resolved
    with no discard is warned; Llamaste's ("you may draw a card") is not."""
    g = play.game(babies=play.RED_PINK)
    play.moves(g, Bring(ANA, "barbed-wire", BEN), Draw(ANA), EndTurn(), Draw(BEN), Play(BEN, "basic-unicorn-red", BEN))
    play.moves(g, Resolve())
    assert g.state.chain == ((Trigger("barbed-wire", BEN, TriggerKind.DUTY),),)
    assert play.declined(g, Resolve()) == (MandatoryNotDone(BEN, "barbed-wire", ("discard",)),)
    play.moves(g, Discard(BEN), Resolve())
    llamas = play.game("llamas", babies=play.LLAMA_ALPACA, drawn=True)
    play.bring(llamas, "llamaste")
    llama = next(
        c.id for c in llamas.table.cards if c.variation == "llama" and c.type.is_creature and c.id != "baby-llama"
    )
    play.moves(llamas, Play(ANA, llama, ANA), Resolve())
    assert any(t.card == "llamaste" for link in llamas.state.chain for t in link)
    assert llamas.check(Resolve()) == ()


def test_the_line_resolve_asks_before_letting_a_mandatory_effect_go():
    """The issue's case: a bare `resolve` said "Sadistic Ritual resolved." though nothing was done."""
    session = talk.table()
    talk.bring(session, "sadistic-ritual")
    talk.bring(session, "basic-unicorn-red")
    for line in ("end turn", "draw", "end turn"):
        session.handle(line)
    reply = session.handle("resolve")
    assert talk.asks(reply)
    assert talk.objections(session) == (RITUAL,)
    session.handle("no")
    assert session.game.state.chain


def test_the_warning_says_what_is_still_to_do():
    g = play.table()
    said = describe_objection(g.table, RITUAL)
    assert said == (
        "Sadistic Ritual's effect is mandatory, and nothing was sacrificed or drawn yet: it stays in the chain until "
        "it is done."
    )


# B. `discard N` and `discard hand` (Unicorn of Pestilence, Hoofin' It, Woolly Rammoth).


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("discard 3", Discard(ANA, count=3)),
        ("discard 3 cards", Discard(ANA, count=3)),
        ("discard three cards from hand", Discard(ANA, count=3)),
        ("Ben discard 3", Discard(BEN, count=3)),
        ("discard hand", Discard(ANA, whole=True)),
        ("discard my whole hand", Discard(ANA, whole=True)),
        ("Ben discard hand", Discard(BEN, whole=True)),
        ("discard", Discard(ANA)),
        ("discard 1", Discard(ANA)),
    ],
)
def test_a_number_of_cards_or_the_whole_hand_is_read(line, event):
    assert parse_command(line, ("Ana", "Ben")).verb == "discard"
    session = talk.table()
    session.handle(line)
    assert session.lobby.talk is not None and session.game.log[-1] == event


@pytest.mark.parametrize("line", ["discard 0", "discard -2", "discard 2.5", "discard 1000", "discard 999"])
def test_a_number_that_is_no_number_of_cards_gets_the_reason(line):
    reply = talk.table().handle(line)
    assert "No card called" not in reply.speech
    assert reply.speech.startswith("Say how many cards are discarded, from 1 to 500")


def test_hands_of_unknown_size_are_recorded_without_a_warning():
    g = play.table()
    assert g.state.players[BEN].hand is None
    play.moves(g, Discard(BEN, count=3), Discard(BEN, whole=True))
    assert g.state.players[BEN].hand == 0
    assert g.state.discard[-3:] == (None, None, None)


def test_a_known_hand_loses_what_it_discards():
    g = play.game(hands=True, drawn=True)
    held = g.state.players[ANA].hand
    assert held is not None and held > 3
    discard = g.state.discard
    play.moves(g, Discard(ANA, count=3))
    assert g.state.players[ANA].hand == held - 3 and g.state.discard == discard + (None,) * 3
    play.moves(g, Discard(ANA, whole=True))
    assert g.state.players[ANA].hand == 0 and len(g.state.discard) == len(discard) + held


def test_a_known_hand_too_short_is_warned():
    g = play.game(hands=True, drawn=True)
    held = g.state.players[BEN].hand
    assert play.declined(g, Discard(BEN, count=held + 1)) == (HandTooShort(BEN, held + 1, held),)
    play.moves(g, Discard(BEN, whole=True))
    assert play.declined(g, Discard(BEN, whole=True)) == (EmptyHand(BEN),)
    assert play.declined(g, Discard(BEN, count=2)) == (EmptyHand(BEN),)


def test_a_discard_of_several_is_said_and_saved():
    g = play.table()
    assert describe_event(g.table, Discard(BEN, count=3), g.state) == "Ben discarded 3 cards"
    assert describe_event(g.table, Discard(BEN, whole=True), g.state) == "Ben discarded every card in hand"
    assert describe_objection(g.table, HandTooShort(BEN, 3, 2)) == "Ben holds only 2 cards: there are not 3 to discard."
    for event in (Discard(BEN, count=3), Discard(BEN, whole=True), Discard(BEN, "yay")):
        assert event_from_dict(event.to_dict(), 2, {"yay"}) == event
    assert Discard(BEN).to_dict() == {"e": "discard", "player": BEN, "card": None}, "a save as it always was"


# D. Reminders from the game's state: the Unicorn Unicorn Lasso took goes back when the turn ends, said before it
# ends, and only while it is still where it was taken.

LASSO = NotGivenBack(ANA, "unicorn-lasso", "basic-unicorn-red", BEN, ANA)


def _lassoed() -> play.Game:
    """Ana's turn began with Unicorn Lasso; she moved Ben's Basic Unicorn (Red) into her Stable with it and drew."""
    g = play.table("uu-1st")
    play.bring(g, "unicorn-lasso")
    play.bring(g, "basic-unicorn-red", into=BEN)
    play.moves(g, EndTurn(), Draw(BEN), EndTurn())
    play.moves(g, UseEffect(ANA, "unicorn-lasso"), Move(ANA, "basic-unicorn-red", BEN, ANA), Resolve(), Draw(ANA))
    assert "basic-unicorn-red" in g.state.players[ANA].stable
    return g


def test_the_turn_does_not_end_without_a_word_while_the_lassoed_unicorn_is_kept():
    """Unicorn Lasso (1st Edition): "When your turn ends, that Unicorn goes back where it came from": said before the
    turn ends, as a warning the table may still insist on."""
    g = _lassoed()
    assert play.declined(g, EndTurn()) == (LASSO,)
    play.moves(g, Move(ANA, "basic-unicorn-red", ANA, BEN))
    facts = play.moves(g, EndTurn())
    assert not any(isinstance(f, GoesBackNow) for f in facts), "it went back: nothing more to say"


def test_going_on_from_the_end_phase_is_ending_the_turn_too():
    g = _lassoed()
    play.moves(g, NextPhase())
    assert g.state.phase is Phase.END
    assert play.declined(g, NextPhase()) == (LASSO,)


def test_a_lassoed_unicorn_no_longer_there_is_never_said_to_go_back():
    """The issue's case: the Unicorn the Lasso took was destroyed; the tracker knows it is in the discard pile."""
    g = _lassoed()
    play.moves(g, Sacrifice(ANA, "basic-unicorn-red"))
    assert "basic-unicorn-red" in g.state.discard
    facts = play.moves(g, EndTurn())
    assert not any(isinstance(f, GoesBackNow) for f in facts)


def test_the_table_may_end_the_turn_all_the_same_and_hears_which_unicorn_goes_back():
    g = _lassoed()
    assert g.check(EndTurn()) == (LASSO,)
    gone = [f for f in g.push(EndTurn()).facts if isinstance(f, GoesBackNow)]
    assert gone == [GoesBackNow("unicorn-lasso", ANA, "basic-unicorn-red", BEN, ANA)]
    assert not g.state.borrowed, "forgotten as the turn ends"


def test_a_lasso_that_took_nothing_reminds_of_nothing():
    g = play.table("uu-1st")
    play.bring(g, "unicorn-lasso")
    play.moves(g, EndTurn(), Draw(BEN), EndTurn(), UseEffect(ANA, "unicorn-lasso"), Resolve(), Draw(ANA))
    assert not any(isinstance(f, GoesBackNow) for f in play.moves(g, EndTurn()))


def test_the_reminder_is_said_before_the_next_turn_is_announced():
    """Said when `end turn` is asked, not after "Ben's turn."."""
    session = talk.table("uu-1st")
    talk.bring(session, "unicorn-lasso")
    talk.bring(session, "basic-unicorn-red", "Ben")
    for line in ("end turn", "draw", "end turn", "use unicorn lasso", "move basic unicorn red from Ben to Ana"):
        session.handle(line)
    session.handle("resolve")
    session.handle("draw")
    reply = session.handle("end turn")
    assert talk.asks(reply) and talk.objections(session) == (LASSO,)
    assert session.game.state.current == ANA
    said = describe_objection(session.game.table, LASSO)
    assert said == (
        "Basic Unicorn (Red), which Unicorn Lasso took, is still in Ana's Stable: it goes back to Ben's Stable before "
        "Ana's turn ends; say move."
    )
    assert said in reply.speech


def test_every_action_that_counts_as_doing_an_effect_has_its_words():
    """`ACTION_OF` names the actions; the warning says each (a new one without words fails here, not at a table)."""
    g = play.table()
    actions = tuple(dict.fromkeys(ACTION_OF.values()))
    said = describe_objection(g.table, MandatoryNotDone(ANA, "sadistic-ritual", actions))
    assert said.startswith("Sadistic Ritual's effect is mandatory, and nothing was sacrificed or destroyed or stolen")


def _ritual_and_bardicorn(unicorns: tuple[str, ...] = ()) -> play.Game:
    """Ana's turn begins with Sadistic Ritual (mandatory: sacrifice one of her Unicorn cards) and Charming Bardicorn
    (optional: move it into another player's Stable) in one link; no Baby Unicorns, and `unicorns` beside them."""
    g = play.game("uu-2nd", "uu-legends", drawn=True)
    for card in ("sadistic-ritual", "charming-bardicorn", *unicorns):
        play.bring(g, card)
    play.moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert [[t.card for t in link] for link in g.state.chain] == [["sadistic-ritual", "charming-bardicorn"]]
    return g


def test_an_optional_effect_taking_the_one_card_a_mandatory_effect_of_its_link_needs_is_warned():
    """000, "Order of Resolution": "You must select targets for mandatory effects before selecting targets for
    optional effects". Charming Bardicorn moved away was the only Unicorn card Sadistic Ritual could sacrifice, and
    nothing was said; with another Unicorn card there, it may go."""
    g = _ritual_and_bardicorn()
    moved = Move(ANA, "charming-bardicorn", ANA, BEN)
    assert MandatoryFirst("charming-bardicorn", ANA, "sadistic-ritual") in g.check(moved)
    g = _ritual_and_bardicorn(("basic-unicorn-red",))
    assert not any(isinstance(o, MandatoryFirst) for o in g.check(moved))
    assert not any(isinstance(o, MandatoryFirst) for o in g.check(Sacrifice(ANA, "charming-bardicorn")))  # doing it


def test_the_warning_says_which_mandatory_effect_needs_the_card():
    g = _ritual_and_bardicorn()
    said = describe_objection(g.table, MandatoryFirst("charming-bardicorn", ANA, "sadistic-ritual"))
    assert said.startswith("Sadistic Ritual's effect is mandatory and needs Charming Bardicorn in Ana's Stable")
