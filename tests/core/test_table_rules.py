"""The rules a table meets every game, on the typed core's own API (`Game.check`, `Game.push`): the objections
`check` finds, the facts `apply` reports, the state. No text front end: each move is the event a line would build
(the lines are tested in tests/core/test_game_commands.py, the sentences in tests/words). Each test cites the card
or the rulebook line it follows.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from assistant.core.cards.cardfile import parse_deck
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import (
    Bring,
    Destroy,
    Draw,
    EndTurn,
    Gathered,
    Phase,
    Play,
    Reshuffle,
    Resolve,
    Respond,
    SetDeck,
    Source,
    ToDeck,
)
from assistant.core.game.facts import BackInDeck, LinkAdded, SavedToHand, StartSkipped, TriggersLost
from assistant.core.game.objections import ActionUsed, ChainOpen, NothingToAnswer
from assistant.storage.decks import load_card_set
from tests.core.playing import ANA, BEN, CY, RED_PINK, game, moves, warned

SHIPPED = Path(__file__).resolve().parents[2] / "card_texts"


def test_an_extra_play_counts_from_the_beginning_of_the_turn_after_it_arrives():
    """Unicorn Dungeon: "if this card is in your Stable at the beginning of your turn, you may play 2 cards"."""
    g = game("uu-nsfw")
    moves(g, Draw(ANA), Play(ANA, "unicorn-dungeon", ANA), Resolve())
    assert g.state.granted == () and g.table.allowed_actions(g.state) == 1
    assert warned(g, Play(ANA, "wasted-white-unicorn", ANA)) == (ActionUsed(0, 1),)
    moves(g, EndTurn(), Draw(BEN), EndTurn())
    assert g.state.granted == ("unicorn-dungeon",)
    moves(g, Resolve(), Draw(ANA))
    assert g.table.allowed_actions(g.state) == 2


def test_a_declined_may_still_warns_a_second_card():
    """000: "If you move to your Draw phase without triggering an optional triggered effect, you can no longer
    trigger that effect this turn"."""
    g = game("uu-nsfw")
    moves(g, Bring(ANA, "unicorn-dungeon", ANA), Draw(ANA), EndTurn(), Draw(BEN), EndTurn(), Draw(ANA))
    assert g.state.lost == ("unicorn-dungeon",) and g.table.allowed_actions(g.state) == 1


def test_another_turn_is_not_another_play():
    """Change of Luck: "take another turn" (tag extra_turn, not extra_action)."""
    g = game(babies=RED_PINK)
    moves(g, Draw(ANA), Play(ANA, "change-of-luck"), Resolve(), Resolve())
    assert warned(g, Play(ANA, "basic-unicorn-red", ANA)) == (ActionUsed(0, 1),)


def test_a_card_played_by_a_card_s_effect_is_not_warned_nor_the_turn_s_play():
    """Dragon Kiss: "look through the deck for a Magic card and play it at once"."""
    g = game("uu-2nd", "uu-dragons", babies=RED_PINK)
    moves(g, Draw(ANA), Play(ANA, "dragon-kiss"), Resolve())
    deck, actions = g.state.deck, g.state.actions
    moves(g, Play(ANA, "unicorn-poison", None, Source.DECK))
    assert g.state.deck == deck - 1 and g.state.actions == actions
    # once the effect is done, a play is the turn's again
    g2 = game("uu-2nd", "uu-dragons", babies=RED_PINK)
    moves(g2, Draw(ANA), Play(ANA, "dragon-kiss"))
    assert ChainOpen() not in g2.check(Play(ANA, "unicorn-poison", None, Source.DECK))


def test_a_hand_put_back_into_the_deck_is_counted():
    """Shake Up: this card, every card in your hand and the whole discard pile go back into the deck; draw 5."""
    g = game(babies=RED_PINK, hands=True)
    moves(g, SetDeck(2), Draw(ANA), Play(ANA, "shake-up"), Resolve(), Reshuffle())
    assert g.state.deck == 2 and g.state.players[ANA].hand == 5
    assert BackInDeck(5, 7) in moves(g, ToDeck(ANA, Gathered.HAND))
    moves(g, Draw(ANA, 5))
    assert g.state.deck == 2 and g.state.players[ANA].hand == 5 and g.state.outcome is None


def test_cards_back_into_the_deck_outside_such_an_effect_are_recorded_and_a_baby_goes_to_the_nursery():
    """Like every removal, not warned for want of an effect being done (docs/commands.md, "Removals")."""
    g = game(babies=RED_PINK)
    moves(g, ToDeck(ANA, Gathered.STABLE))
    assert g.state.players[ANA].stable == () and "baby-unicorn-red" in g.state.nursery


def test_a_whenever_duty_joins_the_chain_each_time():
    """Barbed Wire: a Unicorn card coming into or going out of its Stable costs its owner a discard."""
    g = game(babies=RED_PINK)
    moves(g, Bring(ANA, "barbed-wire", BEN), Draw(ANA), EndTurn(), Draw(BEN), Play(BEN, "basic-unicorn-red", BEN))
    duty = Trigger("barbed-wire", 1, TriggerKind.DUTY)
    assert LinkAdded((duty,), 1) in moves(g, Resolve()) and g.state.chain == ((duty,),)
    assert warned(g, Play(BEN, "basic-unicorn-blue", BEN)) == (ChainOpen(),)


def test_an_instant_answers_the_effect_being_done_and_saves_the_card():
    """Unicorn Net: when a card is about to be sacrificed or destroyed, that card comes to your hand."""
    g = game("uu-2nd", "uu-adventures", players=("Ana", "Ben", "Cy"), babies=(*RED_PINK, "baby-narwhal"), hands=True)
    moves(g, Bring(ANA, "basic-unicorn-red", BEN), Draw(ANA), Play(ANA, "unicorn-poison"), Resolve())
    moves(g, Respond(BEN, "unicorn-net"))
    assert g.state.pile[0].card == "unicorn-net"
    moves(g, Resolve())
    assert g.state.chain[0] == (Trigger("unicorn-net", 1, TriggerKind.INSTANT),)
    hand = g.state.players[BEN].hand
    assert SavedToHand("basic-unicorn-red", 1, "unicorn-net") in moves(g, Destroy(ANA, "basic-unicorn-red", BEN))
    assert g.state.players[BEN].hand == hand + 1 and "basic-unicorn-red" not in g.state.discard


def test_an_instant_answers_the_start_of_a_turn():
    """Flare Gun: when another player's turn begins, they skip the Beginning of Turn and Draw phases."""
    g = game("uu-2nd", "uu-adventures", players=("Ana", "Ben", "Cy"), babies=(*RED_PINK, "baby-narwhal"))
    moves(g, Draw(ANA), EndTurn(), Respond(CY, "flare-gun"), Resolve())
    assert StartSkipped(1, "flare-gun") in moves(g, Resolve())
    assert g.state.phase is Phase.ACTION and g.state.chain == ()


def test_a_neigh_with_nothing_on_the_pile_is_still_nothing_to_answer():
    g = game(babies=RED_PINK)
    moves(g, Draw(ANA))
    assert warned(g, Respond(BEN, "neigh")) == (NothingToAnswer(1, "neigh"),)


def test_a_passive_herd_bonus_is_never_lost():
    """004: the Alpaca Herd Bonus ("Your Alpacas cannot be destroyed") holds; letting the Draw begin loses nothing."""
    g = game("llamas")
    moves(g, Bring(ANA, "basic-alpaca", ANA), Bring(ANA, "adorable-alpaca", ANA), Resolve())
    moves(g, Bring(ANA, "alpacacopter", ANA), Resolve(), Draw(ANA), EndTurn(), Draw(BEN), EndTurn())
    assert any(x.kind is TriggerKind.HERD for link in g.state.chain for x in link), "the bonus is offered"
    assert not any(isinstance(f, TriggersLost) for f in moves(g, Draw(ANA)))


def test_a_baby_back_from_a_stable_goes_to_the_nursery_and_is_never_counted_into_the_deck():
    """Rulebook: Baby Unicorns are never added to a hand or the deck; one that would go there goes back to the
    Nursery. A Stable shuffled into the deck adds its other cards to the deck's count, not its Baby."""
    g = game(babies=RED_PINK)
    moves(g, SetDeck(40), Bring(ANA, "basic-unicorn-red", ANA))
    found = g.check(ToDeck(ANA, Gathered.STABLE))
    step = g.push(ToDeck(ANA, Gathered.STABLE))
    assert not found and g.state.players[ANA].stable == () and "baby-unicorn-red" in g.state.nursery
    assert BackInDeck(1, 41) in step.facts and g.state.deck == 41  # the Basic Unicorn alone
    moves(g, ToDeck(ANA, Gathered.CARD, "baby-unicorn-pink", BEN))
    assert "baby-unicorn-pink" in g.state.nursery and g.state.deck == 41


def _herd_lost(base: str, addons: tuple[str, ...], variation: str) -> bool:
    """Ana's Herd Bonus of a variation (3 of its Animals brought in) left unused when her Draw phase begins: whether
    it is said lost (`TriggersLost`)."""
    g = game(base, *addons)
    cards = g.table.cards
    herd = [c.id for c in cards if c.variation == variation and c.type.value in ("basic", "magical")][:3]
    for card in herd:
        g.push(Bring(ANA, card, ANA))
        while g.state.chain or g.state.pile:  # whatever its effect, done
            g.push(Resolve())
    moves(g, Draw(ANA), EndTurn(), Draw(BEN), EndTurn())
    offered = [x for link in g.state.chain for x in link if x.kind is TriggerKind.HERD and x.card == variation]
    assert offered, f"{base}: the {variation} Herd Bonus is not offered"
    lost = [t for f in g.push(Draw(ANA)).facts if isinstance(f, TriggersLost) for t in f.triggers]
    return any(t.kind is TriggerKind.HERD and t.card == variation for t in lost)


def test_every_shipped_herd_bonus_is_kept_or_lost_as_its_deck_tags_it():
    """The rules read a deck's `passive` tag (`[herd_bonus]`), never the bonus's words: over every shipped deck with
    Herd Bonus texts, each variation's bonus is lost at the Draw phase exactly when it is not tagged passive."""
    checked = 0
    for path in sorted(SHIPPED.glob("*.toml")):
        info = parse_deck(path.read_text(encoding="utf-8"), str(path)).info
        if not info.herd_bonus:
            continue
        base, addons = (path.stem, ()) if info.kind == "base" else (info.bases[0], (path.stem,))
        for variation, _ in info.herd_bonus:
            if variation == "rule":
                continue
            lost = _herd_lost(base, addons, variation)
            assert lost is (variation not in info.passive_bonus), (path.stem, variation)
            checked += 1
    assert checked >= 4  # llama, alpaca, goat, ram


def test_a_bonus_is_passive_by_its_tag_not_by_its_words():
    cards = load_card_set("llamas", [])
    llamas = cards.decks[0]
    worded = replace(llamas.info, herd_bonus=(("llama", "Your Llamas cannot be stolen."),), passive_bonus=())
    tagged = replace(llamas.info, herd_bonus=(("llama", "Draw a card."),), passive_bonus=("llama",))
    assert not replace(cards, decks=(replace(llamas, info=worded),)).passive_bonus("llama")
    assert replace(cards, decks=(replace(llamas, info=tagged),)).passive_bonus("llama")
