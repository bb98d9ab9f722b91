"""One protection rule (issue 103): what keeps a card from being destroyed, sacrificed, stolen or moved is written once
(`assistant/core/game/protection.py`) and every check consults it: the destroy and the sacrifice, the play whose
effect would have nothing it may act on (000: "If you have a card in your hand that requires you to perform an
impossible action, you may not play it") and the target declared at the play (002, targeting "Option 1"); and the
same rulebook line read as a rule of a card's costs: a sacrifice, discard or destroy its effect requires with fewer
cards there than it acts on; several targets declared at one play, each checked by the same rule; and one card
chosen twice by one link of the chain (000, "Order of Resolution").

Played on the core's own API (tests/core/playing.py), asserting on the typed objections.
"""

from __future__ import annotations

import pytest

from assistant.commands.app import table_session
from assistant.core.cards.card import CardSet, CardType, Tag
from assistant.core.cards.wording import Cost, Need, costs
from assistant.core.game.events import (
    Destroy,
    EventError,
    Move,
    Play,
    Resolve,
    Sacrifice,
    SetHand,
    Steal,
    event_from_dict,
)
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    ActionImpossible,
    Impossible,
    Indestructible,
    Objection,
    Protected,
    SelectedTwice,
    TargetUnfit,
)
from assistant.core.language.verbs import parse_command
from assistant.core.words.rulings import describe_objection
from assistant.session import Session
from assistant.storage.decks import load_card_set, load_deck
from tests.core import playing as play

CY = play.CY
ADDONS = ("uu-dragons", "uu-legends", "uu-rainbow-apocalypse")

#: Each card set played, with the cards in it whose effect must destroy a Unicorn card in another player's Stable as
#: they are played: Magic cards (one with the word Dragon in its name) and one that does it as it enters (a triggered
#: effect).
SETS = {
    "uu-1st": (ADDONS, ("unicorn-poison", "dragon-s-breath", "berserkercorn")),
    "uu-2nd": (ADDONS, ("unicorn-poison", "dragon-s-breath", "berserkercorn")),
    "uu-nsfw": ((), ("horrifying-impaling",)),
}

#: Every tag by which a card keeps its own Stable's Unicorns, or itself, from being destroyed.
SHIELD_TAGS = (
    Tag.PROTECTS,
    Tag.PROTECTS_UNICORNS,
    Tag.INDESTRUCTIBLE,
    Tag.MAGIC_PROOF,
    Tag.TRIGGER_PROOF,
    Tag.DRAGON_PROOF,
    Tag.OTHERS_TRIGGER_PROOF,
    Tag.UNICORN_EFFECT_PROOF,
    Tag.NOT_A_UNICORN_EFFECT,
)

SETS_CARDS = {base: load_card_set(base, list(addons)) for base, (addons, _) in SETS.items()}
CARDS = SETS_CARDS["uu-1st"]
#: Every card of every set played that protects, with each card that must destroy.
CASES = [
    (base, shield, killer)
    for base, (_, killers) in SETS.items()
    for shield in sorted(c.id for c in SETS_CARDS[base] if any(c.has(tag) for tag in SHIELD_TAGS))
    for killer in killers
]


def at_table(cards: CardSet, shield: str, players: tuple[str, ...]) -> Game:
    """Ana in her Action phase; Ben's Stable holds the shield (and a Basic Unicorn beside it, when the shield is no
    Unicorn card itself); with three players, Cy holds a Basic Unicorn no card protects."""
    base = cards.decks[0].info.id
    g = play.game(base, cards=cards, players=players, hands=True, drawn=True)
    first, second = [c.id for c in cards if c.type is CardType.BASIC and c.deck == base][:2]
    play.bring(g, shield, play.BEN)
    if not cards.by_id[shield].type.is_creature:
        play.bring(g, first, play.BEN)
    if len(players) == 3:
        play.bring(g, second, CY)
    return g


def destroyable_at_ben(g: Game, killer: str) -> bool:
    """True when, the killer played and its effect being done, some Unicorn card in Ben's Stable may be destroyed
    with nothing objected: what the destroy check says."""
    g.push(Play(play.ANA, killer))
    g.push(Resolve())
    assert g.state.chain, "the killer's effect waits in the chain"
    stable = g.state.players[play.BEN].stable
    unicorns = [c for c in stable if g.table.card_of(c).type.is_creature]
    return any(g.check(Destroy(play.ANA, c, play.BEN)) == () for c in unicorns)


@pytest.mark.parametrize("base, shield, killer", CASES)
def test_the_target_check_and_the_destroy_check_agree_on_every_protection(base, shield, killer):
    """Whatever the protection, Ben is a fit target for a card that must destroy exactly when its destroy that follows
    in Ben's Stable is not warned: one rule answers both."""
    destroyable = destroyable_at_ben(at_table(SETS_CARDS[base], shield, ("Ana", "Ben", "Cy")), killer)
    g = at_table(SETS_CARDS[base], shield, ("Ana", "Ben", "Cy"))
    unfit = [o for o in g.check(Play(play.ANA, killer, targets=(play.BEN,))) if isinstance(o, TargetUnfit)]
    assert bool(unfit) is not destroyable, (shield, killer, destroyable, unfit)


@pytest.mark.parametrize("base, shield, killer", CASES)
def test_the_impossible_play_and_the_destroy_check_agree_on_every_protection(base, shield, killer):
    """With Ben's Stable the only one holding Unicorns, the play is warned as impossible exactly when the destroy that
    would follow is warned for every one of them."""
    destroyable = destroyable_at_ben(at_table(SETS_CARDS[base], shield, ("Ana", "Ben")), killer)
    g = at_table(SETS_CARDS[base], shield, ("Ana", "Ben"))
    impossible = [o for o in g.check(Play(play.ANA, killer)) if isinstance(o, Impossible)]
    assert bool(impossible) is not destroyable, (shield, killer, destroyable, impossible)


def test_dragons_breath_aimed_at_a_stable_behind_dragon_slayer_unicorn_is_warned():
    """Dragon Slayer Unicorn: cards with the word Dragon in their name cannot destroy its Stable's Unicorns."""
    g = at_table(CARDS, "dragon-slayer-unicorn", ("Ana", "Ben", "Cy"))
    play.bring(g, "basic-unicorn-red", play.BEN)
    found = g.check(Play(play.ANA, "dragon-s-breath", targets=(play.BEN,)))
    assert found == (TargetUnfit(play.ANA, "dragon-s-breath", play.BEN, Need.OTHERS_UNICORN),)
    assert g.check(Play(play.ANA, "dragon-s-breath", targets=(CY,))) == ()
    assert g.check(Play(play.ANA, "unicorn-poison", targets=(play.BEN,))) == ()  # no Dragon in its name


def test_dragons_breath_with_every_unicorn_behind_dragon_slayer_unicorn_is_impossible():
    g = at_table(CARDS, "dragon-slayer-unicorn", ("Ana", "Ben"))
    assert g.check(Play(play.ANA, "dragon-s-breath")) == (Impossible(play.ANA, "dragon-s-breath", Need.OTHERS_UNICORN),)


def test_unicorn_poison_with_puppicorn_the_only_unicorn_is_impossible_and_puppicorn_no_target():
    """1st Edition Puppicorn: nothing can sacrifice or destroy it."""
    g = at_table(CARDS, "puppicorn", ("Ana", "Ben"))
    assert g.check(Play(play.ANA, "unicorn-poison")) == (Impossible(play.ANA, "unicorn-poison", Need.OTHERS_UNICORN),)
    g = at_table(CARDS, "puppicorn", ("Ana", "Ben", "Cy"))
    aimed = g.check(Play(play.ANA, "unicorn-poison", targets=(play.BEN,)))
    assert aimed == (TargetUnfit(play.ANA, "unicorn-poison", play.BEN, Need.OTHERS_UNICORN),)


def test_cupcakes_for_everyone_spreads_rainbow_aura_to_every_stable_in_every_check():
    """With Cupcakes For Everyone and Rainbow Aura in Ben's Stable, Unicorn Poison and a destroy in another Stable went
    through unwarned (the card was left to the table). The one protection rule now knows it: Cy's Unicorn is kept
    from the destroy, and Unicorn Poison with no Unicorn left to destroy, aimed at Cy or not, is impossible."""
    cards = load_card_set("uu-2nd", ["uu-rainbow-apocalypse"])
    g = at_table(cards, "rainbow-aura", ("Ana", "Ben", "Cy"))
    cys = g.state.players[CY].stable[-1]
    assert Protected(cys, "rainbow-aura", CY) not in g.check(Destroy(play.ANA, cys, CY))  # Ben's Stable only
    play.bring(g, "cupcakes-for-everyone", play.BEN)
    assert Protected(cys, "rainbow-aura", CY) in g.check(Destroy(play.ANA, cys, CY))
    impossible = Impossible(play.ANA, "unicorn-poison", Need.OTHERS_UNICORN)
    assert impossible in g.check(Play(play.ANA, "unicorn-poison"))  # every Unicorn kept: none left to destroy
    assert impossible in g.check(Play(play.ANA, "unicorn-poison", targets=(CY,)))


def test_puppicorn_sacrificed_or_destroyed_is_still_warned_by_the_same_rule():
    g = at_table(CARDS, "puppicorn", ("Ana", "Ben"))
    found: tuple[Objection, ...] = g.check(Destroy(play.ANA, "puppicorn", play.BEN))
    assert Indestructible("puppicorn") in found
    assert Indestructible("puppicorn", sacrificed=True) in g.check(Sacrifice(play.BEN, "puppicorn"))


# Impossible actions as a rule of the card's costs (issue 103, item 2; 000: "If you have a card in your hand that
# requires you to perform an impossible action, you may not play it").


@pytest.mark.parametrize(
    "base, card_id, expected",
    [
        ("uu-2nd", "two-for-one", (Cost("sacrifice", 1), Cost("destroy", 2))),
        ("uu-legends", "necromancy", (Cost("sacrifice", 1, "unicorn"),)),
        ("uu-rainbow-apocalypse", "unicorns-of-the-apocalypse", (Cost("sacrifice", 4, "unicorn"),)),
        ("uu-adventures", "the-great-baby-heist", (Cost("discard", 2),)),
        ("uu-legends", "alignment-change", (Cost("discard", 2),)),
        ("uu-nsfw", "make-it-rain", (Cost("discard", 2),)),
        ("llamas", "spitting-fire", (Cost("discard", 1),)),
        ("llamas-farmed", "compound-l", (Cost("sacrifice", 1, "baby"),)),
        ("llamas", "llamakaze", (Cost("sacrifice", 1, "llama"), Cost("destroy", 2, one_player=True))),
        ("uu-2nd", "unicorn-poison", (Cost("destroy", 1, "unicorn"),)),
        # a way out, a choice, a number chosen, "all", every player, a draw first: no cost
        ("uu-1st", "unicorn-phoenix", ()),
        ("uu-2nd", "targeted-destruction", ()),
        ("uu-rainbow-apocalypse", "plague-of-death", ()),
        ("uu-rainbow-apocalypse", "zombie-apocalypse", ()),
        ("uu-legends", "fireball", ()),
        ("uu-legends", "prismatic-bray", ()),
        ("uu-1st", "good-deal", ()),
        ("uu-1st", "change-of-luck", ()),
        ("llamas", "no-butts-about-it", ()),
    ],
)
def test_a_cards_costs_are_read_from_its_wording(base, card_id, expected):
    card = next(c for c in load_deck(base).cards if c.id == card_id)
    assert costs(card.text, card.type) == expected


def test_two_for_one_with_its_players_stable_empty_is_impossible_naming_the_sacrifice():
    g = play.game("uu-2nd", players=("Ana", "Ben"), hands=True, drawn=True)
    play.bring(g, "basic-unicorn-red", play.BEN)
    play.bring(g, "basic-unicorn-blue", play.BEN)
    found = g.check(Play(play.ANA, "two-for-one"))
    assert found == (ActionImpossible(play.ANA, "two-for-one", Cost("sacrifice", 1), 0),)
    said = describe_objection(g.table, found[0])
    assert said == (
        "Two-For-One must sacrifice a card in Ana's Stable, and there is none it can: a card that asks for the "
        "impossible may not be played."
    )
    play.warned(g, Play(play.ANA, "two-for-one"))  # a warning: the table may still record it
    assert g.state.pile[0].card == "two-for-one"
    g.pop()
    play.bring(g, "claw-machine", play.ANA)
    assert g.check(Play(play.ANA, "two-for-one")) == ()


def test_two_for_one_counts_the_cards_it_may_destroy_by_the_protection_rule():
    """Two-For-One destroys 2 cards in other players' Stables: Ben's two Unicorns behind Rainbow Aura leave only the
    Aura itself to destroy."""
    g = play.game("uu-2nd", players=("Ana", "Ben"), hands=True, drawn=True)
    play.bring(g, "basic-unicorn-yellow", play.ANA)
    play.bring(g, "rainbow-aura", play.BEN)
    play.bring(g, "basic-unicorn-red", play.BEN)
    play.bring(g, "basic-unicorn-blue", play.BEN)
    found = g.check(Play(play.ANA, "two-for-one"))
    assert found == (ActionImpossible(play.ANA, "two-for-one", Cost("destroy", 2), 1),)
    assert describe_objection(g.table, found[0]) == (
        "Two-For-One must destroy 2 cards in other players' Stables, and there is only 1 it can: a card that asks "
        "for the impossible may not be played."
    )
    play.bring(g, "claw-machine", play.BEN)
    assert g.check(Play(play.ANA, "two-for-one")) == ()


def test_puppicorn_is_no_card_to_sacrifice_for_necromancy():
    cards = load_card_set("uu-1st", ["uu-legends"])
    g = play.game("uu-1st", "uu-legends", cards=cards, players=("Ana", "Ben"), hands=True, drawn=True)
    play.bring(g, "puppicorn", play.ANA)
    found = g.check(Play(play.ANA, "necromancy"))
    assert found == (ActionImpossible(play.ANA, "necromancy", Cost("sacrifice", 1, "unicorn"), 0),)
    assert "must sacrifice a Unicorn card in Ana's Stable, and there is none it can" in describe_objection(
        g.table, found[0]
    )


def test_a_discard_the_hand_cannot_pay_is_warned_when_the_hand_is_known():
    cards = load_card_set("uu-2nd", ["uu-adventures"])
    g = play.game("uu-2nd", "uu-adventures", cards=cards, players=("Ana", "Ben"), hands=True, drawn=True)
    g.push(SetHand(play.ANA, 2))  # the Heist and one other card
    found = g.check(Play(play.ANA, "the-great-baby-heist"))
    assert found == (ActionImpossible(play.ANA, "the-great-baby-heist", Cost("discard", 2), 1),)
    assert describe_objection(g.table, found[0]) == (
        "The Great Baby Heist must discard 2 cards from Ana's hand, and there is only 1 it can: a card that asks "
        "for the impossible may not be played."
    )
    g.push(SetHand(play.ANA, 3))
    assert g.check(Play(play.ANA, "the-great-baby-heist")) == ()
    unknown = play.game("uu-2nd", "uu-adventures", cards=cards, players=("Ana", "Ben"), drawn=True)
    assert unknown.state.players[play.ANA].hand is None  # a hand not counted is never too small from a guess
    assert unknown.check(Play(play.ANA, "the-great-baby-heist")) == ()


def test_llamakaze_needs_two_cards_in_one_other_field():
    g = play.game("llamas", players=("Ana", "Ben", "Cy"), hands=True, drawn=True)
    play.bring(g, "basic-llama", play.ANA)
    play.bring(g, "basic-alpaca", play.BEN)
    play.bring(g, "basic-goat", CY)
    found = g.check(Play(play.ANA, "llamakaze"))
    assert found == (ActionImpossible(play.ANA, "llamakaze", Cost("destroy", 2, one_player=True), 1),)
    assert "must destroy 2 cards in one other player's Field, and there is only 1 it can" in describe_objection(
        g.table, found[0]
    )
    play.bring(g, "basic-ram", CY)
    assert g.check(Play(play.ANA, "llamakaze")) == ()


# Several declared targets (issue 103, item 3; 002, targeting "Option 1: declare which player(s) you are targeting").

FOUR = ("Ana", "Ben", "Cy", "Dee")
DEE = 3


@pytest.mark.parametrize(
    "line, card, aims",
    [
        ("play prismatic bray targeting Ben and Cy", "prismatic bray", ("Ben", "Cy")),
        ("play prismatic bray targeting Ben, Cy and Dee", "prismatic bray", ("Ben", "Cy", "Dee")),
        ("play unicorn poison targeting Ben", "unicorn poison", ("Ben",)),
        ("play unicorn poison target Mary Ann and Ben", "unicorn poison", ("Mary Ann", "Ben")),
        ("play unicorn poison targeting Zed", "unicorn poison", ("Zed",)),
    ],
)
def test_a_play_reads_every_declared_target(line, card, aims):
    command = parse_command(line, ("Ana", "Ben", "Cy", "Dee", "Mary Ann"))
    assert command is not None and command.card == card and command.aims == aims


def four_players() -> Session:
    session = table_session(load_card_set("uu-2nd", ["uu-legends"]))
    assert session.handle("new game Ana Ben Cy Dee").important
    session.handle("draw")
    return session


def test_prismatic_bray_targeting_two_players_is_recorded_with_both_and_said():
    session = four_players()
    said = session.handle("play prismatic bray targeting Ben and Cy")
    assert session.game.log[-1] == Play(play.ANA, "prismatic-bray", targets=(play.BEN, CY)), said.speech
    assert "Ana played Prismatic Bray, targeting Ben and Cy." in said.speech


def test_three_targets_said_with_commas_each_seat_once():
    session = four_players()
    said = session.handle("play prismatic bray targeting Ben, Cy and Dee and Ben")
    assert session.game.log[-1] == Play(play.ANA, "prismatic-bray", targets=(play.BEN, CY, DEE)), said.speech
    assert "targeting Ben, Cy and Dee." in said.speech


@pytest.mark.parametrize("line", ["play unicorn poison targeting Zed", "play prismatic bray targeting Ben and Zed"])
def test_a_target_that_is_no_player_gets_the_players_never_no_card_called(line):
    session = four_players()
    before = len(session.game.log)
    said = session.handle(line)
    assert "No player called Zed. The players are Ana, Ben, Cy and Dee." in said.speech
    assert "No card called" not in said.speech
    assert len(session.game.log) == before


def test_each_declared_target_is_checked_by_the_same_target_rule():
    """Unicorn Poison aimed at Ben (his Unicorn behind Rainbow Aura), Cy (a Unicorn it may destroy) and Dee (an
    empty Stable): Ben and Dee are each warned, Cy is not."""
    g = play.game("uu-2nd", players=FOUR, hands=True, drawn=True)
    play.bring(g, "rainbow-aura", play.BEN)
    play.bring(g, "basic-unicorn-red", play.BEN)
    play.bring(g, "basic-unicorn-blue", CY)
    found = g.check(Play(play.ANA, "unicorn-poison", targets=(play.BEN, CY, DEE)))
    assert found == (
        TargetUnfit(play.ANA, "unicorn-poison", play.BEN, Need.OTHERS_UNICORN),
        TargetUnfit(play.ANA, "unicorn-poison", DEE, Need.OTHERS_UNICORN),
    )


def test_several_targets_are_saved_as_a_list_and_one_as_before():
    several = Play(play.ANA, "prismatic-bray", targets=(play.BEN, CY))
    assert several.to_dict()["target"] == [play.BEN, CY]
    assert event_from_dict(several.to_dict(), 3, {"prismatic-bray"}) == several
    one = Play(play.ANA, "unicorn-poison", targets=(play.BEN,))
    assert one.to_dict()["target"] == play.BEN  # as every save with a target was written: older copies read it
    assert event_from_dict(one.to_dict(), 3, {"unicorn-poison"}) == one
    with pytest.raises(EventError):
        event_from_dict({**several.to_dict(), "target": [play.BEN, 7]}, 3, {"prismatic-bray"})
    with pytest.raises(EventError):
        event_from_dict({**several.to_dict(), "target": [True]}, 3, {"prismatic-bray"})


# One link, one card once (issue 103, item 4; 000, "Order of Resolution": "If multiple triggered effects require a
# target, the same card may not be selected twice in the same link").


def swapping() -> Game:
    """Ana, Ben and Cy; Ana's Basic Unicorn (Red), Ben's (Blue); Ana's Unicorn Swap played and resolved: its effect,
    "move one of your Unicorn cards into another player's Stable, then steal one of theirs", is the link being done."""
    g = play.game("uu-2nd", players=("Ana", "Ben", "Cy"), hands=True, drawn=True)
    play.bring(g, "basic-unicorn-red", play.ANA)
    play.bring(g, "basic-unicorn-blue", play.BEN)
    play.moves(g, Play(play.ANA, "unicorn-swap"), Resolve())
    assert g.state.chain
    return g


def test_a_card_chosen_twice_in_one_link_is_warned():
    g = swapping()
    play.moves(g, Move(play.ANA, "basic-unicorn-red", play.ANA, play.BEN))
    found = g.check(Steal(play.ANA, "basic-unicorn-red", play.BEN))
    assert found == (SelectedTwice("basic-unicorn-red", play.BEN, "unicorn-swap"),)
    assert describe_objection(g.table, found[0]) == (
        "Basic Unicorn (Red) was already chosen by this link of the chain, Unicorn Swap's: the same card may not be "
        "chosen twice in one link."
    )
    assert g.check(Steal(play.ANA, "basic-unicorn-blue", play.BEN)) == ()  # another card is free to choose
    play.warned(g, Steal(play.ANA, "basic-unicorn-red", play.BEN))  # a warning: the table may still record it
    assert "basic-unicorn-red" in g.state.players[play.ANA].stable


def test_another_copy_of_the_card_may_still_be_chosen():
    """Ben already held a Basic Unicorn (Red): after Ana's moves in, either copy may be the one stolen."""
    g = swapping()
    play.bring(g, "basic-unicorn-red", play.BEN)
    play.moves(g, Move(play.ANA, "basic-unicorn-red", play.ANA, play.BEN))
    assert g.check(Steal(play.ANA, "basic-unicorn-red", play.BEN)) == ()


def test_the_next_link_may_choose_the_card_again_and_undo_forgets_the_choice():
    g = swapping()
    play.moves(g, Move(play.ANA, "basic-unicorn-red", play.ANA, play.BEN))
    assert g.state.selected == (("basic-unicorn-red", play.BEN),)
    g.pop()
    assert g.state.selected == ()
    play.moves(g, Move(play.ANA, "basic-unicorn-red", play.ANA, play.BEN), Steal(play.ANA, "basic-unicorn-blue", 1))
    play.moves(g, Resolve())
    assert g.state.selected == ()
    assert not any(isinstance(o, SelectedTwice) for o in g.check(Steal(CY, "basic-unicorn-red", play.BEN)))
