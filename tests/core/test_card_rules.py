"""Every "cannot" card is checked the same way, from where its text says it acts, in every shipped deck.

Each case cites the card's text (in our own words, in card_texts/) and plays the forbidden move at the table:
the tracker warns, and the table can still record it. A data test checks that every card whose text says such a
"cannot" carries the tag the tracker acts on, so a reworded text cannot silently turn a rule off.
"""

from __future__ import annotations

import re

import pytest

from assistant.commands.app import table_session
from assistant.core.cards import CardType, Tag
from assistant.session import Session
from assistant.storage.decks import deck_files, load_card_set


def table(base: str = "uu-2nd", addons: tuple[str, ...] = (), players: str = "Ana Ben") -> Session:
    cards = load_card_set(base, list(addons))
    session = table_session(cards)
    babies = [c for c in cards if c.type is CardType.BABY][:2]
    line = f"new game {players}" + (f" babies {babies[0].id} {babies[1].id}" if len(babies) == 2 else "")
    assert session.handle(line).important
    session.handle("draw")
    return session


def bring(session: Session, card_id: str, into: str = "Ana") -> None:
    """Put a card straight into a Stable (as a card's effect would), confirming any warning."""
    name = session.game.table.cards.get(card_id).name
    reply = session.handle(f"bring {name} into {into}")
    if reply.confirm:
        reply = session.handle("yes")
    assert card_id in session.game.state.players[0 if into == "Ana" else 1].stable, reply.speech


def warning(session: Session, line: str) -> str:
    reply = session.handle(line)
    assert reply.confirm, f"{line!r} was not warned: {reply.speech}"
    session.handle("no")
    return reply.speech


@pytest.mark.parametrize(
    "base, addons, card_id, line, said",
    [
        # Slowdown, Ginormous Unicorn: "While this card is in your Stable, you cannot play Neigh cards."
        ("uu-2nd", (), "slowdown", None, "cannot play Neigh cards while Slowdown"),
        ("uu-2nd", (), "ginormous-unicorn", None, "cannot play Neigh cards while Ginormous Unicorn"),
        ("uu-1st", (), "slowdown", None, "cannot play Neigh cards while Slowdown"),
        # Broken Stable (and the NSFW base's Limp Horn): "you cannot play Upgrade cards".
        ("uu-2nd", (), "broken-stable", "play rainbow aura", "cannot play Upgrade cards while Broken Stable"),
        ("uu-1st", (), "broken-stable", "play rainbow aura", "cannot play Upgrade cards while Broken Stable"),
        ("uu-nsfw", (), "limp-horn", "play unicorn chastity belt", "cannot play Upgrade cards while Limp Horn"),
        # NSFW base: one card forbids Magic cards, another Basic Unicorn cards, while in its owner's Stable.
        ("uu-nsfw", (), "giant-horned-cock", "play unicorn hangover", "cannot play Magic cards while"),
        ("uu-nsfw", (), "total-stud-unicorn", "play vanillacorn", "cannot play Basic Unicorns while"),
        # Queen Bee Unicorn: "Basic Unicorn cards cannot enter any Stable except yours" (Ana's; Ben plays one).
        ("uu-2nd", (), "queen-bee-unicorn", "Ben play basic red", "Ana's Stable holds Queen Bee Unicorn"),
        # Eunuchorn (NSFW base): "Baby Unicorn cards cannot enter any player's Stable".
        ("uu-nsfw", (), "eunuchorn", "bring tasty baby unicorn into Ben", "Eunuchorn"),
        # Extreme Adventurer Unicorn (Adventures): "Basic Unicorn cards cannot enter your Stable".
        ("uu-2nd", ("uu-adventures",), "extreme-adventurer-unicorn", "play basic red", "Extreme Adventurer"),
        # Paladin Unicorn (Unicorns of Legend): "you cannot steal cards from other players' Stables".
        ("uu-2nd", ("uu-legends",), "paladin-unicorn", "steal basic red from Ben", "cannot steal cards while"),
        # Puppicorn (1st Edition): "This card cannot be sacrificed or destroyed".
        ("uu-1st", (), "puppicorn", "sacrifice puppicorn", "cannot be destroyed or sacrificed"),
    ],
)
def test_a_cannot_card_in_the_stable_warns_the_forbidden_move(base, addons, card_id, line, said):
    session = table(base, addons)
    bring(session, card_id)
    if "basic red from Ben" in (line or ""):
        bring(session, "basic-unicorn-red", into="Ben")
    if line is None:  # a Neigh by the Stable's owner against Ben's card
        session.handle("end turn")
        session.handle("draw")
        session.handle("play basic red")
        line = "neigh Ana"
    assert said in warning(session, line)


def test_the_same_cannot_card_in_hand_forbids_nothing():
    """Slowdown acts only from the Stable (000: Upgrade and Downgrade cards are active only in a Stable)."""
    session = table()
    session.handle("end turn")
    session.handle("draw")
    assert not session.handle("play basic red").confirm
    assert not session.handle("neigh Ana").confirm


def test_queen_bee_lets_basics_into_its_owners_stable():
    session = table()
    bring(session, "queen-bee-unicorn")
    assert not session.handle("play basic red").confirm


def test_magical_kittencorn_cannot_be_destroyed_by_a_magic_card():
    """Magical Kittencorn: "Magic cards cannot destroy this card". Destroying it while a Magic card's effect is
    being done (the chain's first link) is warned; destroying it otherwise is not this card's concern."""
    session = table()
    bring(session, "magical-kittencorn", into="Ben")
    session.handle("play unicorn poison")
    session.handle("resolve")  # the Magic card resolves: its effect is the next link
    assert "cannot be destroyed by a Magic card, and Unicorn Poison is one" in warning(
        session, "destroy magical kittencorn from Ben"
    )


def test_tiny_stable_says_when_its_limit_bites():
    """Tiny Stable: "If you ever have more than 5 Unicorns in your Stable, you must sacrifice a Unicorn card"."""
    session = table()
    bring(session, "tiny-stable")
    for colour in ("red", "blue", "green", "yellow"):
        reply = session.handle(f"bring basic {colour} into Ana")
        assert "more than 5" not in reply.speech
    reply = session.handle("bring basic purple into Ana")
    assert "Ana has 6 Unicorns with Tiny Stable, more than 5: sacrifice a Unicorn card." in reply.speech


#: What a card's text says, and the tag the tracker needs for it.
TEXT_TAGS = [
    (r"you cannot play (Neigh|Instant) cards", Tag.STOPS_NEIGHS),
    (r"you cannot play Upgrade cards", Tag.STOPS_UPGRADES),
    (r"you cannot play Magic cards", Tag.STOPS_MAGIC),
    (r"you cannot play Basic Unicorn cards", Tag.STOPS_BASICS),
    (r"Basic Unicorn cards cannot enter any Stable except yours", Tag.BASICS_ONLY_HERE),
    (r"Basic Unicorn cards cannot enter your Stable", Tag.NO_BASICS_HERE),
    (r"Baby Unicorn cards cannot enter any", Tag.NO_BABIES),
    (r"Magic cards cannot destroy this card", Tag.MAGIC_PROOF),
    (r"cannot be sacrificed or destroyed", Tag.INDESTRUCTIBLE),
    (r"more than 5 Unicorns", Tag.AT_MOST_FIVE),
    (r"you cannot steal", Tag.STOPS_STEALING),
]


@pytest.mark.parametrize("deck_id", sorted(deck_files()))
def test_every_cannot_text_carries_its_tag(deck_id):
    cards = load_card_set(deck_id) if deck_id in ("uu-1st", "uu-2nd", "uu-nsfw", "llamas") else None
    if cards is None:
        cards = load_card_set("uu-2nd", [deck_id])
    missing = [
        (card.id, tag.value)
        for card in cards
        if card.deck == deck_id
        for pattern, tag in TEXT_TAGS
        if re.search(pattern, card.text, re.IGNORECASE) and not card.has(tag)
    ]
    assert missing == []
