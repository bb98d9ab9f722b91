"""One protection rule (issue 103): what keeps a card from being destroyed, sacrificed, stolen or moved is written once
(`assistant/core/game/protection.py`) and every check consults it: the destroy and the sacrifice, the play whose
effect would have nothing it may act on (000: "If you have a card in your hand that requires you to perform an
impossible action, you may not play it") and the target declared at the play (002, targeting "Option 1").

Played on the core's own API (tests/core/playing.py), asserting on the typed objections.
"""

from __future__ import annotations

import pytest

from assistant.core.cards.card import CardSet, Tag
from assistant.core.cards.wording import Need
from assistant.core.game.events import Destroy, Play, Resolve, Sacrifice
from assistant.core.game.history import Game
from assistant.core.game.objections import Impossible, Indestructible, Objection, TargetUnfit
from assistant.storage.decks import load_card_set
from tests.core import playing as play

CY = play.CY
ADDONS = ("uu-dragons", "uu-legends", "uu-rainbow-apocalypse")

#: The cards whose effect must destroy a Unicorn card in another player's Stable as they are played: two Magic
#: cards (one with the word Dragon in its name) and one that does it as it enters (a triggered effect).
KILLERS = ("unicorn-poison", "dragon-s-breath", "berserkercorn")

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


def first_edition() -> CardSet:
    return load_card_set("uu-1st", list(ADDONS))


CARDS = first_edition()
SHIELDS = sorted(c.id for c in CARDS if any(c.has(tag) for tag in SHIELD_TAGS))


def at_table(cards: CardSet, shield: str, players: tuple[str, ...]) -> Game:
    """Ana in her Action phase; Ben's Stable holds the shield (and a Basic Unicorn beside it, when the shield is no
    Unicorn card itself); with three players, Cy holds a Basic Unicorn no card protects."""
    g = play.game("uu-1st", *ADDONS, cards=cards, players=players, hands=True, drawn=True)
    play.bring(g, shield, play.BEN)
    if not cards.by_id[shield].type.is_creature:
        play.bring(g, "basic-unicorn-red", play.BEN)
    if len(players) == 3:
        play.bring(g, "basic-unicorn-blue", CY)
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


@pytest.mark.parametrize("killer", KILLERS)
@pytest.mark.parametrize("shield", SHIELDS)
def test_the_target_check_and_the_destroy_check_agree_on_every_protection(killer, shield):
    """Whatever the protection, Ben is a fit target for a card that must destroy exactly when its destroy that follows
    in Ben's Stable is not warned: one rule answers both."""
    destroyable = destroyable_at_ben(at_table(CARDS, shield, ("Ana", "Ben", "Cy")), killer)
    g = at_table(CARDS, shield, ("Ana", "Ben", "Cy"))
    unfit = [o for o in g.check(Play(play.ANA, killer, target=play.BEN)) if isinstance(o, TargetUnfit)]
    assert bool(unfit) is not destroyable, (shield, killer, destroyable, unfit)


@pytest.mark.parametrize("killer", KILLERS)
@pytest.mark.parametrize("shield", SHIELDS)
def test_the_impossible_play_and_the_destroy_check_agree_on_every_protection(killer, shield):
    """With Ben's Stable the only one holding Unicorns, the play is warned as impossible exactly when the destroy that
    would follow is warned for every one of them."""
    destroyable = destroyable_at_ben(at_table(CARDS, shield, ("Ana", "Ben")), killer)
    g = at_table(CARDS, shield, ("Ana", "Ben"))
    impossible = [o for o in g.check(Play(play.ANA, killer)) if isinstance(o, Impossible)]
    assert bool(impossible) is not destroyable, (shield, killer, destroyable, impossible)


def test_dragons_breath_aimed_at_a_stable_behind_dragon_slayer_unicorn_is_warned():
    """Dragon Slayer Unicorn: cards with the word Dragon in their name cannot destroy its Stable's Unicorns."""
    g = at_table(CARDS, "dragon-slayer-unicorn", ("Ana", "Ben", "Cy"))
    play.bring(g, "basic-unicorn-red", play.BEN)
    found = g.check(Play(play.ANA, "dragon-s-breath", target=play.BEN))
    assert found == (TargetUnfit(play.ANA, "dragon-s-breath", play.BEN, Need.OTHERS_UNICORN),)
    assert g.check(Play(play.ANA, "dragon-s-breath", target=CY)) == ()
    assert g.check(Play(play.ANA, "unicorn-poison", target=play.BEN)) == ()  # no Dragon in its name


def test_dragons_breath_with_every_unicorn_behind_dragon_slayer_unicorn_is_impossible():
    g = at_table(CARDS, "dragon-slayer-unicorn", ("Ana", "Ben"))
    assert g.check(Play(play.ANA, "dragon-s-breath")) == (Impossible(play.ANA, "dragon-s-breath", Need.OTHERS_UNICORN),)


def test_unicorn_poison_with_puppicorn_the_only_unicorn_is_impossible_and_puppicorn_no_target():
    """1st Edition Puppicorn: nothing can sacrifice or destroy it."""
    g = at_table(CARDS, "puppicorn", ("Ana", "Ben"))
    assert g.check(Play(play.ANA, "unicorn-poison")) == (Impossible(play.ANA, "unicorn-poison", Need.OTHERS_UNICORN),)
    g = at_table(CARDS, "puppicorn", ("Ana", "Ben", "Cy"))
    aimed = g.check(Play(play.ANA, "unicorn-poison", target=play.BEN))
    assert aimed == (TargetUnfit(play.ANA, "unicorn-poison", play.BEN, Need.OTHERS_UNICORN),)


def test_puppicorn_sacrificed_or_destroyed_is_still_warned_by_the_same_rule():
    g = at_table(CARDS, "puppicorn", ("Ana", "Ben"))
    found: tuple[Objection, ...] = g.check(Destroy(play.ANA, "puppicorn", play.BEN))
    assert Indestructible("puppicorn") in found
    assert Indestructible("puppicorn", sacrificed=True) in g.check(Sacrifice(play.BEN, "puppicorn"))
