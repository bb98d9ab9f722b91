"""Rules a real table meets that the tracker got wrong (issue "Rules 6"), each case citing the rulebook line or the
card it follows: the Draw phase's draw before a turn ends, moves out of turn and after the win, a play a card in the
player's own Stable forbids, optional beginning-of-turn draws, the Action phase's play or draw under an extra play,
removals that are neither a destroy nor a sacrifice, and what a chain link says it does.

Rulebooks: 000_4cb0751821c6f7f6.txt (current base game), 002 (the rule of "then"). Played on the core's own API
(tests/core/playing.py), asserting on the typed objections and facts and on the state; a phone's move goes through
the session, as at the table.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from assistant.core.cards.card import CardType
from assistant.core.cards.wording import UnicornAction, needed_action, then_join
from assistant.core.game.acting import is_basic
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import (
    Bring,
    Destroy,
    Draw,
    EndTurn,
    Gathered,
    Move,
    Phase,
    Play,
    Resolve,
    ReturnToHand,
    Sacrifice,
    Steal,
    Swap,
    ToDeck,
    ToDiscard,
    UseEffect,
)
from assistant.core.game.facts import TriggersLost
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    ActionUsed,
    EffectForbidden,
    ExtraIsAPlay,
    FirstNotDone,
    GameIsOver,
    NotDrawn,
    NothingToUse,
    NotInStable,
    NotYourTurn,
)
from assistant.core.language.device import DeviceMove
from assistant.core.words.announce import describe_link_doing
from assistant.core.words.cardtext import LEAVING, card_gist, only_chooses
from assistant.session import Session
from assistant.storage.decks import load_card_set
from tests.core.playing import ANA, BEN, CY, RED_PINK, bring, game, moves, table, warned

# The Draw phase's draw, and moves out of turn or after the win.


@pytest.mark.parametrize("base", ["uu-2nd", "uu-1st", "llamas"])
def test_a_turn_ended_before_the_draw_phase_draw_is_warned_in_every_edition(base):
    """000 "Draw phase: DRAW 1 card" (the Llamas and 1st Edition rulebooks have the same phase): a turn ended in
    the Beginning of Turn or Draw phase, with no draw, is warned; after the draw it is not."""
    g = game(base)
    assert warned(g, EndTurn()) == (NotDrawn(ANA),)
    assert g.state.current == BEN
    moves(g, Draw(BEN), EndTurn())


def test_a_turn_that_a_card_ends_at_once_owes_no_draw():
    """Rhinocorn: "If you do, your turn ends at once": used before the Draw phase, the turn ends with no draw."""
    g = table()
    bring(g, "rhinocorn")
    moves(g, EndTurn(), Draw(BEN), EndTurn(), Resolve())
    assert g.state.turn_ends == "rhinocorn"
    moves(g, EndTurn())


def test_a_draw_out_of_turn_is_warned():
    """000: each player draws in their own turn; only an effect (a link in the chain) lets another player draw."""
    g = table()
    assert g.check(Draw(BEN)) == (NotYourTurn(BEN, ANA),)
    moves(g, Play(ANA, "basic-unicorn-red", ANA), Resolve())
    assert g.check(Draw(BEN)) == (NotYourTurn(BEN, ANA),)


def test_any_move_after_the_win_is_warned():
    g = game(babies=RED_PINK, drawn=True, goal=3)
    bring(g, "basic-unicorn-red")
    bring(g, "basic-unicorn-blue")
    assert g.state.outcome is not None
    for event in (Draw(ANA), Draw(BEN), EndTurn(), Bring(ANA, "basic-unicorn-red", BEN)):
        assert GameIsOver() in g.check(event)


def test_a_phones_draw_out_of_turn_is_warned_like_any_warned_move():
    session = Session(load_card_set("uu-2nd"))
    session.handle("new game Ana Ben babies red pink")
    session.handle("draw")
    warned_move = session.phone_desk.device_move("Ben", DeviceMove("draw"))
    assert warned_move.status == "warning" and warned_move.question is not None
    assert len(session.game.log) == 1, "nothing recorded before the phone answers"
    assert session.phone_desk.device_answer("Ben", warned_move.question, True).status == "recorded"
    assert session.game.log[-1] == Draw(BEN)


def test_a_phones_move_after_the_win_is_warned_like_any_warned_move():
    session = Session(load_card_set("uu-2nd"))
    for line in ("new game Ana Ben babies red pink win 3", "draw", "bring basic red into Ana", "bring basic blue"):
        session.handle(line)
    assert session.game.state.outcome is not None
    for player, move in (("Ben", DeviceMove("draw")), ("Ana", DeviceMove("play", card="yay"))):
        outcome = session.phone_desk.device_move(player, move)
        assert outcome.status == "warning" and GameIsOver() in session.lobby.talk.objections


# A play the player's own Stable forbids.


def test_a_play_whose_effect_must_destroy_is_warned_under_divine_peace():
    """000: "If you have a card in your hand that requires you to perform an impossible action, you may not play
    it." Divine Peace (Legends): "the effects of your cards cannot destroy any card": Unicorn Poison must destroy."""
    g = table("uu-2nd", ("uu-legends",))
    bring(g, "basic-unicorn-red", into=BEN)
    assert g.check(Play(ANA, "unicorn-poison")) == ()
    bring(g, "divine-peace")
    forbidden = EffectForbidden(ANA, "unicorn-poison", "divine-peace", UnicornAction.DESTROY)
    assert g.check(Play(ANA, "unicorn-poison")) == (forbidden,)
    assert g.check(Play(ANA, "unicorn-poison")) != ()
    # Divine Peace in Ben's Stable forbids Ben, not Ana
    g2 = table("uu-2nd", ("uu-legends",))
    bring(g2, "basic-unicorn-red", into=BEN)
    bring(g2, "divine-peace", into=BEN)
    assert g2.check(Play(ANA, "unicorn-poison")) == ()


def test_a_unicorn_that_must_steal_as_it_enters_is_warned_where_stealing_is_forbidden():
    """Paladin Unicorn (Legends): "you cannot steal cards from other players' Stables"; Naked Narwhal (NSFW): as it
    enters, its owner must steal a Basic Unicorn card."""
    g = table("uu-nsfw", ("uu-legends",))
    basic = next(c.id for c in g.table.cards if is_basic(g.table.cards, (c.id,), c.id))
    bring(g, basic, into=BEN)
    assert g.check(Play(ANA, "naked-narwhal", ANA)) == ()
    bring(g, "paladin-unicorn")
    moves(g, Resolve())  # its own effect as it entered ("you may destroy"), let go
    forbidden = EffectForbidden(ANA, "naked-narwhal", "paladin-unicorn", UnicornAction.STEAL)
    assert g.check(Play(ANA, "naked-narwhal", ANA)) == (forbidden,)


def test_the_action_a_played_card_must_do_is_read_from_its_wording():
    cards = load_card_set("uu-2nd", ["uu-legends", "uu-nsfw-expansion"])
    assert needed_action(cards.by_id["unicorn-poison"].text) is UnicornAction.DESTROY
    assert needed_action(cards.by_id["targeted-destruction"].text) is None  # destroy, or else sacrifice
    assert needed_action(cards.by_id["divine-peace"].text) is None


# The Action phase's play or draw under an extra play.


def double_dutch_turn() -> Game:
    """Ana's turn begins with Double Dutch in her Stable ("you may play 2 cards"), its effect used, her Draw phase's
    draw done: her Action phase."""
    g = game(babies=RED_PINK, drawn=True)
    moves(g, Play(ANA, "double-dutch", ANA), Resolve(), EndTurn(), Draw(BEN), EndTurn(), Resolve(), Draw(ANA))
    assert g.table.allowed_actions(g.state) == 2 and g.state.phase is Phase.ACTION
    return g


def test_a_draw_as_the_action_is_the_whole_action_under_double_dutch():
    """000: "Play a card from your hand or DRAW an additional card"; Double Dutch gives a second play, not a play
    after the Action phase's draw."""
    g = double_dutch_turn()
    moves(g, Draw(ANA))
    assert g.check(Play(ANA, "basic-unicorn-red", ANA)) == (ActionUsed(ANA, 2),)


def test_double_dutch_still_gives_two_plays_and_no_draw_after_one():
    g = double_dutch_turn()
    moves(g, Play(ANA, "basic-unicorn-red", ANA), Resolve())
    assert g.check(Draw(ANA)) == (ExtraIsAPlay(ANA, "double-dutch"),)
    moves(g, Play(ANA, "basic-unicorn-blue", ANA), Resolve())
    assert g.check(Play(ANA, "basic-unicorn-yellow", ANA)) == (ActionUsed(ANA, 2),)


# Optional beginning-of-turn draws.


def speed_turn(base: str, card: str) -> Game:
    """Ana's turn begins with a Basic Unicorn and a card whose optional effect draws an extra card in her Stable,
    hands counted."""
    babies = tuple(c.id for c in load_card_set(base) if c.type is CardType.BABY)[:2]
    g = game(base, babies=babies, hands=True, drawn=True)
    basic = next(c.id for c in g.table.cards if is_basic(g.table.cards, (c.id,), c.id))
    bring(g, basic)
    bring(g, card)
    moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert g.state.chain == ((Trigger(card, ANA, TriggerKind.BEGIN_OPTIONAL),),)
    return g


@pytest.mark.parametrize(("base", "card"), [("uu-nsfw", "unicorn-speed"), ("uu-1st", "extra-tail")])
def test_an_optional_extra_draw_is_its_own_move_and_counted_in_the_hand(base, card):
    """Unicorn Speed (NSFW), Extra Tail (1st Edition): "at the beginning of your turn, you may draw an extra card".
    `use` it, draw, resolve: the Draw phase's draw is still owed and the Action phase's draw still free."""
    g = speed_turn(base, card)
    hand = g.state.players[ANA].hand
    found = moves(g, UseEffect(ANA, card), Draw(ANA))
    assert g.state.phase is Phase.BEGINNING and not g.state.drew
    assert not any(isinstance(f, TriggersLost) for f in found)
    moves(g, Resolve(), Draw(ANA))  # the Draw phase's draw
    assert g.state.phase is Phase.ACTION and g.state.drew
    moves(g, Draw(ANA))  # the Action phase's draw is not warned
    assert g.state.players[ANA].hand == hand + 3


def test_a_draw_without_use_is_still_the_draw_phase_draw_and_lets_the_effect_go():
    """000: "If you move to your Draw phase without triggering an optional triggered effect, you can no longer
    trigger that effect this turn"."""
    g = speed_turn("uu-nsfw", "unicorn-speed")
    found = moves(g, Draw(ANA))
    assert g.state.phase is Phase.ACTION and any(isinstance(f, TriggersLost) for f in found)
    assert g.check(UseEffect(ANA, "unicorn-speed")) == (NothingToUse(ANA, "unicorn-speed"),)


def test_use_names_a_waiting_optional_effect_of_the_player():
    g = speed_turn("uu-nsfw", "unicorn-speed")
    assert g.check(UseEffect(BEN, "unicorn-speed")) == (NothingToUse(BEN, "unicorn-speed"),)
    assert g.check(UseEffect(ANA, "yay")) == (NothingToUse(ANA, "yay"),)


# Removals that are neither a destroy nor a sacrifice.


def leave_links(g: Game) -> list[Trigger]:
    return [t for link in g.state.chain for t in link if t.kind is TriggerKind.LEAVE]


@pytest.mark.parametrize(
    "removal",
    [
        Steal(ANA, "stabby-the-unicorn", BEN),
        Move(ANA, "stabby-the-unicorn", BEN, CY),
        ReturnToHand(ANA, "stabby-the-unicorn", BEN),
        ToDeck(ANA, Gathered.CARD, "stabby-the-unicorn", BEN),
        ToDiscard(ANA, "stabby-the-unicorn", BEN),
        Swap(ANA, "stabby-the-unicorn", BEN, "basic-unicorn-red", ANA),
    ],
    ids=["steal", "move", "return", "deck", "discard", "swap"],
)
def test_a_removal_that_is_neither_destroy_nor_sacrifice_sets_off_no_destroy_effect(removal):
    """Stabby the Unicorn: "Should this card be sacrificed or destroyed, you may destroy a Unicorn card": stolen,
    moved, swapped, returned to a hand or the deck, or sent to the discard pile (Unicorn Shrinkray) it is neither,
    so nothing of it joins the chain; destroyed, its effect does."""
    g = game(players=("Ana", "Ben", "Cy"), babies=(*RED_PINK, "baby-narwhal"), drawn=True)
    bring(g, "stabby-the-unicorn", into=BEN)
    bring(g, "basic-unicorn-red")
    g.push(removal)
    assert "stabby-the-unicorn" not in g.state.players[BEN].stable
    assert leave_links(g) == []
    g.pop()
    g.push(Destroy(ANA, "stabby-the-unicorn", BEN))
    assert leave_links(g) == [Trigger("stabby-the-unicorn", BEN, TriggerKind.LEAVE)]


def test_a_leave_effect_of_any_leaving_still_follows_a_steal():
    """Seductive Unicorn (1st Edition): "If this card leaves your Stable, that Unicorn goes back": a steal sets it
    off."""
    g = table("uu-1st")
    bring(g, "seductive-unicorn", into=BEN)
    moves(g, Resolve())
    g.push(Steal(ANA, "seductive-unicorn", BEN))
    assert leave_links(g) == [Trigger("seductive-unicorn", BEN, TriggerKind.LEAVE)]


def test_a_card_sent_to_the_discard_pile_from_a_stable():
    """Unicorn Shrinkray (1st Edition): "Every Unicorn card in that player's Stable goes to the discard pile"; a
    Baby goes back to the Nursery (000: never in the discard pile)."""
    g = table("uu-1st")
    bring(g, "basic-unicorn-red", into=BEN)
    moves(g, ToDiscard(ANA, "basic-unicorn-red", BEN))
    assert g.state.discard[-1] == "basic-unicorn-red" and "basic-unicorn-red" not in g.state.players[BEN].stable
    baby = g.state.players[BEN].stable[0]
    moves(g, ToDiscard(ANA, baby, BEN))
    assert baby in g.state.nursery and baby not in g.state.discard
    assert g.check(ToDiscard(ANA, "basic-unicorn-red", BEN)) == (NotInStable("basic-unicorn-red", BEN),)


# What a chain link says it does.

#: Every shipped deck, each with a base game it is played with.
EVERY_DECK = (
    ("uu-2nd", ("uu-adventures", "uu-dragons", "uu-legends", "uu-nsfw-expansion", "uu-rainbow-apocalypse")),
    ("uu-1st", ()),
    ("uu-nsfw", ()),
    ("llamas", ("llamas-farmed",)),
)


@pytest.mark.parametrize(
    ("base", "card", "says"),
    [
        ("uu-2nd", "targeted-destruction", "destroy an Upgrade card in another player's Stable, or sacrifice"),
        ("uu-1st", "unicorn-shrinkray", "goes to the discard pile"),
        ("uu-2nd", "back-kick", "its owner must discard a card"),
        ("uu-2nd", "unfair-bargain", "swap your whole hands"),
    ],
)
def test_a_chain_link_says_the_effects_action_and_its_target(base, card, says):
    """Targeted Destruction was said as only "Choose one.", Unicorn Shrinkray as only "Choose any player.", and Back
    Kick without its owner's discard."""
    g = table(base)
    bring(g, "rainbow-aura", into=BEN)  # something for Targeted Destruction to destroy
    moves(g, Play(ANA, card), Resolve())
    said = describe_link_doing(g.table, g.state.chain[0])
    assert says in said, said
    assert not said.endswith(("Choose one", "Choose any player", "Choose another player"))


def test_no_cards_summary_only_chooses():
    """Every shipped card and print, in every way it is said in the chain (entering, leaving, a turn begun, played):
    never a sentence that only chooses a player or a card."""
    bare = []
    for base, addons in EVERY_DECK:
        for shipped in load_card_set(base, list(addons)):
            prints = [shipped, *(dataclasses.replace(shipped, text=v.text) for v in shipped.print_variants)]
            for card, about in itertools.product(prints, ("", "enters", LEAVING, "beginning of your turn")):
                gist = card_gist(card, about).removesuffix(", and more")
                if only_chooses(gist) and ": " not in gist:  # a choice, then what befalls the one chosen
                    bare.append((base, card.id, about, gist))
    assert bare == []


# The texts say what the card says.


def test_no_neigh_text_adds_a_rule_its_card_does_not_print():
    """That a Neigh may itself be answered is a rule of the game (000), printed on no Neigh card (Neigh Scoundrel,
    Neigh Bitch and the others said it)."""
    added = [
        (base, card.id)
        for base, addons in EVERY_DECK
        for card in load_card_set(base, list(addons))
        if "answered with another Neigh" in card.text
    ]
    assert added == []


# A second action joined by "then".


def test_the_second_action_joined_by_then_is_warned_until_the_first_is_done():
    """002: "you may only perform the second action if you successfully perform the first". Two-For-One: sacrifice a
    card in your Stable, then destroy 2 cards."""
    g = table()
    bring(g, "rainbow-aura")
    bring(g, "basic-unicorn-red", into=BEN)
    bring(g, "basic-unicorn-blue", into=BEN)
    moves(g, Play(ANA, "two-for-one"), Resolve())
    assert g.check(Destroy(ANA, "basic-unicorn-red", BEN)) == (
        FirstNotDone(ANA, "two-for-one", "sacrifice", "destroy"),
    )
    moves(g, Sacrifice(ANA, "rainbow-aura"), Destroy(ANA, "basic-unicorn-red", BEN))
    moves(g, Destroy(ANA, "basic-unicorn-blue", BEN))


def test_the_first_action_done_is_forgotten_with_its_link():
    """Sadistic Ritual (2nd Edition): "you must sacrifice one of your Unicorn cards, then draw a card": the turn
    after one whose ritual was done, its draw waits for a sacrifice again."""
    g = table()
    bring(g, "sadistic-ritual")
    bring(g, "basic-unicorn-red")
    bring(g, "basic-unicorn-blue")
    moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert g.check(Draw(ANA)) == (FirstNotDone(ANA, "sadistic-ritual", "sacrifice", "draw"),)
    moves(g, Sacrifice(ANA, "basic-unicorn-red"), Draw(ANA), Resolve(), Draw(ANA), EndTurn(), Draw(BEN), EndTurn())
    assert g.check(Draw(ANA)) == (FirstNotDone(ANA, "sadistic-ritual", "sacrifice", "draw"),)


def test_a_then_join_is_read_from_the_cards_text():
    cards = load_card_set("uu-2nd")
    assert then_join(cards.by_id["two-for-one"].text) == ("sacrifice", "destroy")
    assert then_join(cards.by_id["sadistic-ritual"].text) == ("sacrifice", "draw")
    assert then_join(cards.by_id["unicorn-oracle"].text) is None  # then puts the others back: no defined action


@pytest.mark.parametrize(
    ("line", "event"),
    [
        ("Ana use unicorn speed", UseEffect(ANA, "unicorn-speed")),
        ("return single unicorn from Ben to the deck", ToDeck(ANA, Gathered.CARD, "single-unicorn", BEN)),
        ("return single unicorn from Ben to the discard pile", ToDiscard(ANA, "single-unicorn", BEN)),
        ("return single unicorn from Ben to hand", ReturnToHand(ANA, "single-unicorn", BEN)),
    ],
)
def test_the_lines_that_say_a_use_and_a_removal(line, event):
    session = Session(load_card_set("uu-nsfw"))
    session.handle("new game Ana Ben")
    session.handle("draw")
    session.game.push(Bring(ANA, "single-unicorn", BEN))
    session.handle(line)
    if session.game.log[-1] != event:
        session.handle("yes")  # a move the tracker warns about (no effect waits): recorded on yes
    assert session.game.log[-1] == event
