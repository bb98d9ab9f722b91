"""Pandamonium and Horse Shit (000's base deck, NSFW): "all your Unicorns count as Pandas instead of Unicorns ...
Cards that affect Unicorn cards have no effect on your Pandas". Every effect whose wording acts on a Unicorn card
in a Stable (destroy, steal, move, sacrifice, return to a hand, send to the Nursery, shuffle into the deck; read by
`cards.wording.unicorn_actions`) is warned while it is being done on a Unicorn in such a Stable, and only there.
Checked on the typed core (`checks.check`), card by card over every shipped deck."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from assistant.core.cards.card import CardType, Tag
from assistant.core.cards.wording import UnicornAction, unicorn_actions
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.checks import check
from assistant.core.game.events import (
    Destroy,
    Discard,
    Event,
    Gathered,
    Move,
    ReturnToHand,
    Sacrifice,
    Steal,
    ToDeck,
    ToNursery,
)
from assistant.core.game.objections import NotAUnicornHere
from assistant.core.game.state import PlayerState
from assistant.storage.decks import deck_files
from tests.core.playing import ANA, BEN, bring, declined, game, moves, table
from tests.core.test_card_rules import EXPANSION_BASE, deck_cards, every_print

#: Ana's effect on the Unicorn card `card` in Ben's Stable (her own, for a sacrifice), as the event that does it.
EVENTS: dict[UnicornAction, object] = {
    UnicornAction.DESTROY: lambda card: Destroy(0, card, 1),
    UnicornAction.STEAL: lambda card: Steal(0, card, 1),
    UnicornAction.MOVE: lambda card: Move(0, card, 1, 0),
    UnicornAction.SACRIFICE: lambda card: Sacrifice(0, card),
    UnicornAction.RETURN: lambda card: ReturnToHand(0, card, 1),
    UnicornAction.NURSERY: lambda card: ToNursery(0, card, 1),
    UnicornAction.DECK: lambda card: ToDeck(0, Gathered.CARD, card, 1),
}


def effects_on_unicorns() -> list[tuple[str, str, UnicornAction, bool]]:
    """Every card of every shipped deck whose wording acts on a Unicorn card in a Stable, with each action, and
    whether it is its leave effect's."""
    return [
        (deck_id, card.id, action, leaving)
        for deck_id in sorted(deck_files())
        for card in deck_cards(deck_id)
        for leaving in (False, True)
        for action in sorted(unicorn_actions(card.text, leaving), key=lambda a: a.value)
    ]


def pandas_check(
    deck_id: str, card_id: str, action: UnicornAction, leaving: bool, masked: bool
) -> list[NotAUnicornHere]:
    """The card's effect being done (the chain's first link: its leave effect with `leaving`) acts on a Baby Unicorn
    in a Stable that holds, with `masked`, the deck's card that makes Unicorns Pandas; what the check finds."""
    base = deck_id if deck_id in ("uu-1st", "uu-2nd", "uu-nsfw", "llamas") else EXPANSION_BASE.get(deck_id, "uu-2nd")
    played = game(base, *(() if base == deck_id else (deck_id,)))
    cards = played.table.cards
    mask = next(card.id for card in cards if card.has(Tag.NOT_A_UNICORN_EFFECT))
    baby = next(card.id for card in cards if card.type is CardType.BABY)
    stable = (baby, mask) if masked else (baby,)
    kind = TriggerKind.MAGIC if cards.get(card_id).type is CardType.MAGIC else TriggerKind.ENTER
    kind = TriggerKind.LEAVE if leaving else kind
    state = replace(
        played.state, players=(PlayerState(stable), PlayerState(stable)), chain=((Trigger(card_id, 0, kind),),)
    )
    event: Event = EVENTS[action](baby)
    return [o for o in check(played.table, state, event) if isinstance(o, NotAUnicornHere)]


@pytest.mark.parametrize("deck_id, card_id, action, leaving", effects_on_unicorns())
def test_an_effect_on_unicorn_cards_is_warned_on_a_panda_and_only_there(deck_id, card_id, action, leaving):
    found = pandas_check(deck_id, card_id, action, leaving, masked=True)
    assert [(o.effect, o.action) for o in found] == [(card_id, action)]
    assert pandas_check(deck_id, card_id, action, leaving, masked=False) == []


def test_a_card_is_read_by_the_effect_being_done():
    """Berserkercorn (Legends) destroys as it enters and sacrifices as it leaves: while it enters, a sacrifice is
    not its effect on Unicorn cards, and while it leaves, a destroy is not."""
    assert pandas_check("uu-legends", "berserkercorn", UnicornAction.DESTROY, leaving=False, masked=True)
    assert pandas_check("uu-legends", "berserkercorn", UnicornAction.SACRIFICE, leaving=True, masked=True)
    assert not pandas_check("uu-legends", "berserkercorn", UnicornAction.SACRIFICE, leaving=False, masked=True)
    assert not pandas_check("uu-legends", "berserkercorn", UnicornAction.DESTROY, leaving=True, masked=True)


def test_the_wording_is_read_for_each_way_a_card_acts_on_a_unicorn_card():
    """Each form of wording the decks print: the sweep above covers these cards with these actions."""
    found = {(card_id, action) for _, card_id, action, _ in effects_on_unicorns()}
    expected = {
        ("unicorn-poison", UnicornAction.DESTROY),  # "Destroy a Unicorn card in another player's Stable"
        ("unicorn-swap", UnicornAction.MOVE),  # "Give one of your Unicorn cards to another player by moving it"
        ("unicorn-swap", UnicornAction.STEAL),  # "then steal one of their Unicorn cards"
        ("unicorn-cuckold", UnicornAction.MOVE),  # "give one of your Unicorn cards to another player, moving it"
        ("sadistic-ritual", UnicornAction.SACRIFICE),  # "you must sacrifice one of your Unicorn cards"
        ("unicorn-flatulence", UnicornAction.RETURN),  # "take a Unicorn card from your Stable back into your hand"
        ("safe-sex", UnicornAction.NURSERY),  # "send one Baby Unicorn card in their Stable back to the Nursery"
        ("dragon-skies", UnicornAction.DECK),  # "take a Unicorn card from your Stable, shuffle it into the deck"
        ("seductive-unicorn", UnicornAction.STEAL),
        ("naked-narwhal", UnicornAction.STEAL),  # "steal a Basic Unicorn card"
        ("baby-trap", UnicornAction.STEAL),  # "Steal a Baby Unicorn card"
        ("fire-and-brimstone", UnicornAction.SACRIFICE),  # "Sacrifice all of your own Unicorn cards"
        ("unicorns-of-the-apocalypse", UnicornAction.SACRIFICE),  # "Sacrifice 4 Unicorn cards"
    }
    assert expected <= found


#: Where a Unicorn card an effect names is not in a Stable (a hand, the discard pile, the Nursery), or a rule that
#: only protects ("cannot destroy"): Pandamonium's Pandas are not what it acts on.
NOT_IN_A_STABLE = re.compile(r"from (the discard pile|your hand|the Nursery|it)\b|cannot|can neither", re.IGNORECASE)
#: A sentence that names an action and a Unicorn card.
NAMES_ONE = re.compile(
    r"\b(destroy|steal|move|sacrifice|return|take|send|give|put|bring|shuffle|swap)\b[^.]*\bUnicorns? cards?\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("deck_id", sorted(deck_files()))
def test_every_sentence_acting_on_a_unicorn_card_in_a_stable_is_read(deck_id):
    """Both ways round the sweep: every sentence of every print that names an action and a Unicorn card is read
    as an effect on a Unicorn card in a Stable, or says the card is elsewhere or only protected."""
    unread = [
        (card.id, sentence)
        for card in every_print(deck_id)
        for sentence in re.split(r"(?<=[.!?])\s+", card.text)
        if NAMES_ONE.search(sentence)
        and not (unicorn_actions(sentence) or unicorn_actions(sentence, leaving=True))
        and not NOT_IN_A_STABLE.search(sentence)
    ]
    assert unread == []


def test_a_unicorn_stealing_from_a_stable_with_pandamonium_is_warned():
    """Seductive Unicorn (2nd Edition) entering: "you may steal a Unicorn card"; Ben's Stable holds Pandamonium,
    so his Basic Unicorn is a Panda and the steal is warned, with what it would do; without Pandamonium it is
    not."""
    g = table()
    bring(g, "basic-unicorn-red", into=BEN)
    bring(g, "seductive-unicorn")
    moves(g, Discard(ANA))  # "discard a card, then steal": the steal may follow
    stealing = Steal(0, "basic-unicorn-red", BEN)
    assert g.check(stealing) == ()
    bring(g, "pandamonium", into=BEN)
    assert declined(g, stealing) == (
        NotAUnicornHere("basic-unicorn-red", 1, "pandamonium", "seductive-unicorn", UnicornAction.STEAL),
    )
    moves(g, Sacrifice(BEN, "pandamonium"), stealing)
