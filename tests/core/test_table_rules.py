"""The rules a table meets every game, on the typed core: the objections `check` finds, the facts `apply` reports,
the state. Each test cites the card or the rulebook line it follows (their sentences are in tests/words).
"""

from __future__ import annotations

from assistant.commands.app import table_session
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import Gathered, Phase, Play, Respond, Source, ToDeck
from assistant.core.game.facts import BackInDeck, LinkAdded, SavedToHand, StartSkipped, TriggersLost
from assistant.core.game.objections import ActionUsed, ChainOpen, NothingPutsBack, NothingToAnswer
from assistant.core.words.verbosity import Verbosity
from assistant.session import Session
from assistant.storage.decks import load_card_set


def session(base: str = "uu-2nd", *addons: str) -> Session:
    return table_session(load_card_set(base, list(addons)), load_cards=load_card_set, verbosity=Verbosity.COACHING)


def say(t: Session, *lines: str) -> None:
    for line in lines:
        reply = t.handle(line)
        assert not reply.confirm, f"{line!r} was warned: {reply.speech}"


def warned(t: Session, line: str) -> tuple:
    reply = t.handle(line)
    assert reply.confirm, f"{line!r} was not warned"
    assert t.lobby.talk is not None
    found = t.lobby.talk.objections
    t.handle("yes")
    return found


def facts(t: Session) -> tuple:
    assert t.lobby.talk is not None and t.lobby.talk.step is not None
    return t.lobby.talk.step.facts


def test_an_extra_play_counts_from_the_beginning_of_the_turn_after_it_arrives():
    """Unicorn Dungeon: "if this card is in your Stable at the beginning of your turn, you may play 2 cards"."""
    t = session("uu-nsfw")
    say(t, "new game Ana Ben", "draw", "play unicorn dungeon", "resolve")
    assert t.game.state.granted == () and t.game.table.allowed_actions(t.game.state) == 1
    assert warned(t, "play wasted white unicorn") == (ActionUsed(0, 1),)
    say(t, "end turn", "end turn")
    assert t.game.state.granted == ("unicorn-dungeon",)
    say(t, "resolve", "draw")
    assert t.game.table.allowed_actions(t.game.state) == 2


def test_a_declined_may_still_warns_a_second_card():
    """000: "If you move to your Draw phase without triggering an optional triggered effect, you can no longer
    trigger that effect this turn"."""
    t = session("uu-nsfw")
    say(t, "new game Ana Ben", "bring unicorn dungeon into Ana", "end turn", "end turn", "draw")
    assert t.game.state.lost == ("unicorn-dungeon",) and t.game.table.allowed_actions(t.game.state) == 1


def test_another_turn_is_not_another_play():
    """Change of Luck: "take another turn" (tag extra_turn, not extra_action)."""
    t = session()
    say(t, "new game Ana Ben babies red pink", "draw", "play change of luck", "resolve", "resolve")
    assert warned(t, "play basic red") == (ActionUsed(0, 1),)


def test_a_card_played_by_a_card_s_effect_is_not_warned_nor_the_turn_s_play():
    """Dragon Kiss: "look through the deck for a Magic card and play it at once"."""
    t = session("uu-2nd", "uu-dragons")
    say(t, "new game Ana Ben babies red pink", "draw", "play dragon kiss", "resolve")
    deck, actions = t.game.state.deck, t.game.state.actions
    say(t, "play unicorn poison from deck")
    assert t.game.log[-1] == Play(0, "unicorn-poison", None, Source.DECK)
    assert t.game.state.deck == deck - 1 and t.game.state.actions == actions
    # once the effect is done, a play is the turn's again
    t2 = session("uu-2nd", "uu-dragons")
    say(t2, "new game Ana Ben babies red pink", "draw", "play dragon kiss")
    assert ChainOpen() not in t2.game.check(Play(0, "unicorn-poison", None, Source.DECK))


def test_a_hand_put_back_into_the_deck_is_counted():
    """Shake Up: this card, every card in your hand and the whole discard pile go back into the deck, then draw 5."""
    t = session()
    say(t, "new game Ana Ben babies red pink hands", "deck 2", "draw", "play shake up", "resolve", "reshuffle")
    assert t.game.state.deck == 2 and t.game.state.players[0].hand == 5
    say(t, "shuffle hand into deck")
    assert t.game.log[-1] == ToDeck(0, Gathered.HAND)
    assert BackInDeck(5, 7) in facts(t)
    say(t, "draw 5")
    assert t.game.state.deck == 2 and t.game.state.players[0].hand == 5 and t.game.state.outcome is None


def test_cards_back_into_the_deck_outside_such_an_effect_are_warned_and_a_baby_goes_to_the_nursery():
    t = session()
    say(t, "new game Ana Ben babies red pink")
    assert warned(t, "shuffle stable into deck") == (NothingPutsBack(),)
    assert t.game.state.players[0].stable == () and "baby-unicorn-red" in t.game.state.nursery


def test_a_whenever_duty_joins_the_chain_each_time():
    """Barbed Wire: a Unicorn card coming into or going out of its Stable costs its owner a discard."""
    t = session()
    say(t, "new game Ana Ben babies red pink", "bring barbed wire into Ben", "end turn", "draw", "play basic red")
    say(t, "resolve")
    duty = Trigger("barbed-wire", 1, TriggerKind.DUTY)
    assert LinkAdded((duty,), 1) in facts(t) and t.game.state.chain == ((duty,),)
    assert warned(t, "play basic blue") == (ChainOpen(),)


def test_an_instant_answers_the_effect_being_done_and_saves_the_card():
    """Unicorn Net: when a card is about to be sacrificed or destroyed, that card comes to your hand."""
    t = session("uu-2nd", "uu-adventures")
    say(t, "new game Ana Ben Cy babies red pink narwhal hands", "bring basic red into Ben", "draw")
    say(t, "play unicorn poison", "resolve", "Ben play unicorn net")
    assert t.game.log[-1] == Respond(1, "unicorn-net") and t.game.state.pile[0].card == "unicorn-net"
    say(t, "resolve")
    assert t.game.state.chain[0] == (Trigger("unicorn-net", 1, TriggerKind.INSTANT),)
    hand = t.game.state.players[1].hand
    say(t, "destroy basic red")
    assert SavedToHand("basic-unicorn-red", 1, "unicorn-net") in facts(t)
    assert t.game.state.players[1].hand == hand + 1 and "basic-unicorn-red" not in t.game.state.discard


def test_an_instant_answers_the_start_of_a_turn():
    """Flare Gun: when another player's turn begins, they skip the Beginning of Turn and Draw phases."""
    t = session("uu-2nd", "uu-adventures")
    say(t, "new game Ana Ben Cy babies red pink narwhal", "end turn", "Cy play flare gun", "resolve", "resolve")
    assert StartSkipped(1, "flare-gun") in facts(t)
    assert t.game.state.phase is Phase.ACTION and t.game.state.chain == ()


def test_a_neigh_with_nothing_on_the_pile_is_still_nothing_to_answer():
    t = session()
    say(t, "new game Ana Ben babies red pink", "draw")
    assert warned(t, "Ben play neigh") == (NothingToAnswer(1, "neigh"),)


def test_a_passive_herd_bonus_is_never_lost():
    """004: the Alpaca Herd Bonus ("Your Alpacas cannot be destroyed") holds; letting the Draw begin loses nothing."""
    t = session("llamas")
    say(t, "new game Ana Ben", "bring basic alpaca into Ana", "bring adorable alpaca into Ana", "resolve")
    say(t, "bring alpacacopter into Ana", "resolve", "end turn", "end turn")
    assert any(x.kind is TriggerKind.HERD for link in t.game.state.chain for x in link), "the bonus is offered"
    say(t, "draw")
    assert not any(isinstance(f, TriggersLost) for f in facts(t))


def test_a_baby_back_from_a_stable_goes_to_the_nursery_and_is_never_counted_into_the_deck():
    """Rulebook: Baby Unicorns are never added to a hand or the deck; one that would go there goes back to the
    Nursery. A Stable shuffled into the deck adds its other cards to the deck's count, not its Baby."""
    t = session()
    say(t, "new game Ana Ben babies red pink", "deck 40", "bring basic red into Ana")
    warned(t, "shuffle stable into deck")
    assert t.game.state.players[0].stable == () and "baby-unicorn-red" in t.game.state.nursery
    assert BackInDeck(1, 41) in facts(t) and t.game.state.deck == 41  # the Basic Unicorn alone
    warned(t, "shuffle baby pink from Ben into deck")
    assert "baby-unicorn-pink" in t.game.state.nursery and t.game.state.deck == 41
