"""Every card's own rule played: which cards of the shipped decks have a rule of their own, where each is played, and
the positions the scenarios (tests/core/own_rule_scenarios.py) build.

A card has a rule of its own when the tracker does something for it, read from its deck file by what the engine
reads: a tag the game engine reads (`engine_tags`, found in the engine's own source, `assistant/core/game/`), its
type (a Magic card's effect is a link of the chain; an Instant answers), its wording read by the same functions of
`cards.wording` the engine calls, its variation and the rules data's tables by card id (`FIELD_KINDS`: the herd's
variations, the cards the 2-player variant removes). The deck files are the one per-card table: nothing here lists
cards. Each print of a card (its text, and its tags where they differ) is a place of its own (`shipped_places`). The
positions are built on the core's own API from the card's data (its deck on its base, its type, its variation, the
cards of the set that carry the tags it needs beside it). The cards whose rule is not followed or not played are
named, with the reason, in docs/game.md ("Cards left to the table", `left_to_the_table`);
tests/core/test_every_own_rule.py holds the two to each other, and `python -m benchmarks.own_rules` counts them.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import assistant
from assistant.core.cards.card import Card, CardSet, CardType, Deck, Tag
from assistant.core.cards.wording import costs, needed_target, save_of, then_join
from assistant.core.game.chain import Trigger
from assistant.core.game.events import (
    Bring,
    Draw,
    EndTurn,
    Event,
    Play,
    Resolve,
    Sacrifice,
    UseEffect,
)
from assistant.core.game.facts import (
    Fact,
    LinkAdded,
)
from assistant.core.game.history import Game
from assistant.core.game.rules import load_rules
from assistant.core.game.setup import Setup
from assistant.storage.decks import DEFAULT_DECK, combine, deck_files, load_deck

ANA, BEN = 0, 1


ENGINE = Path(assistant.__path__[0]) / "core" / "game"


DOCS = Path(assistant.__path__[0]).parent / "docs" / "game.md"


#: The kinds of rule a card's type gives it, beside its tags.
TYPE_KINDS = {CardType.MAGIC: "magic", CardType.INSTANT: "instant"}


RULES = load_rules()


@functools.cache
def engine_tags() -> frozenset[Tag]:
    """The tags the game engine reads (`Tag.NAME` in any module of `assistant/core/game/`)."""
    found: set[Tag] = set()
    for module in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Tag":
                if node.attr in Tag.__members__:
                    found.add(Tag[node.attr])
    return frozenset(found)


#: The kinds of rule the engine reads from a card's other fields: its wording, read by the same functions of
#: `cards.wording` the engine calls, its variation, and the rules data's tables by card id.
FIELD_KINDS: dict[str, Callable[[Card], bool]] = {
    "saves": lambda card: save_of(card.text) is not None,
    "needs_target": lambda card: needed_target(card.text) is not None,
    "costs": lambda card: bool(costs(card.text, card.type)) and needed_target(card.text) is None,
    "then": lambda card: then_join(card.text) is not None,
    "variation": lambda card: card.id in RULES.variation_overrides or "+" in (card.variation or ""),
    "two_player": lambda card: card.id in RULES.two_player_removed,
}


def rule_kinds(card: Card) -> tuple[str, ...]:
    """The kinds of rule of its own a card has (its type's, its fields', its engine tags), in a fixed order; () for
    none."""
    kinds = [TYPE_KINDS[card.type]] if card.type in TYPE_KINDS else []
    kinds += [kind for kind, has in FIELD_KINDS.items() if has(card)]
    return (*kinds, *(tag.value for tag in sorted(card.tags & engine_tags())))


@functools.cache
def shipped(deck_id: str) -> Deck:
    """A shipped deck, read once."""
    return load_deck(deck_id)


@functools.cache
def base_of(deck_id: str) -> str:
    """The base deck a deck is played on: itself, or an expansion's first base."""
    info = shipped(deck_id).info
    if info.kind == "base":
        return deck_id
    bases = [d for d in deck_files() if info.adds_to(shipped(d).info)]
    return DEFAULT_DECK if DEFAULT_DECK in bases else bases[0]


@dataclass(frozen=True)
class Place:
    """One print of one card of a shipped deck (`print` None for the deck's own text), and the card set it is
    played with: its deck, or its deck on its base, with this print's card in place of the shipped one."""

    deck: str
    card: Card
    print: str | None = None

    @property
    def base(self) -> str:
        return base_of(self.deck)

    @property
    def addons(self) -> tuple[str, ...]:
        return () if self.base == self.deck else (self.deck,)

    @property
    def cards(self) -> CardSet:
        return card_set(self.deck, self.card if self.print else None)

    @property
    def name(self) -> str:
        """How the card is named: its name, with the print when it is another print's."""
        return f"{self.card.name}, {self.print}" if self.print else self.card.name


def prints(card: Card) -> Iterator[tuple[str | None, Card]]:
    """The card as shipped, then as each other print says it (its text, and its tags where they differ)."""
    yield None, card
    for variant in card.print_variants:
        yield variant.print, replace(card, text=variant.text, tags=variant.tags or card.tags, print_variants=())


def shipped_places() -> Iterator[Place]:
    """Every print of every card of every shipped deck, deck by deck."""
    for deck_id in deck_files():
        for card in shipped(deck_id).cards:
            for print_name, printed in prints(card):
                yield Place(deck_id, printed, print_name)


# --- positions --------------------------------------------------------------------------------------------------------


@functools.cache
def card_set(deck_id: str, printed: Card | None = None) -> CardSet:
    """A deck's card set (on its base), from the shipped files alone, with `printed` in place of its card."""
    decks = [shipped(base_of(deck_id))] + ([shipped(deck_id)] if base_of(deck_id) != deck_id else [])
    if printed is not None:
        decks = [replace(d, cards=tuple(printed if c.id == printed.id else c for c in d.cards)) for d in decks]
    return combine(decks)


@functools.cache
def holder_decks(tag: Tag) -> tuple[str, ...]:
    """The shipped decks holding a card with this tag."""
    return tuple(d for d in deck_files() if any(c.has(tag) for c in shipped(d).cards))


def holder(cards: CardSet, tag: Tag) -> str:
    """A card of the set carrying the tag."""
    return next(c.id for c in cards if c.has(tag))


def with_tag(place: Place, tag: Tag) -> CardSet:
    """The card's set, with a deck holding a card that carries the tag added when the set has none (the rule of a
    card such as Llama Bomb meets Divine Peace only in a set made for the test: no box holds both)."""
    cards = place.cards
    if any(c.has(tag) for c in cards):
        return cards
    return CardSet([*cards.decks, shipped(holder_decks(tag)[0])])


def new_game(
    place: Place, cards: CardSet | None = None, rules: str | None = None, babies: bool = True, two_player: bool = False
) -> Game:
    """Ana and Ben with the card's set (or `cards`) under its rules (or `rules`), each with a Baby (unless not
    `babies`), Ana in her Action phase (her Draw phase's draw taken); with the 2-player variant when `two_player`."""
    cards = cards or place.cards
    rules = rules or cards.decks[0].info.rules
    chosen = tuple(c.id for c in cards if c.type is CardType.BABY)[:2] if babies else ()
    chosen = chosen if len(chosen) == 2 else ()
    setup = Setup(("Ana", "Ben"), rules, base=place.base, addons=place.addons, babies=chosen, two_player=two_player)
    played = Game.new(setup, cards)
    played.push(Draw(ANA))
    return played


def record(played: Game, *events: Event) -> tuple[Fact, ...]:
    """Events recorded as the table says them, whatever the core finds against them; every step's facts."""
    facts: list[Fact] = []
    for event in events:
        facts += played.push(event).facts
    return tuple(facts)


def settle(played: Game) -> tuple[Fact, ...]:
    """Resolve whatever waits on the pile and in the chain; the facts."""
    facts: list[Fact] = []
    while played.state.pile or played.state.chain:
        facts += played.push(Resolve()).facts
    return tuple(facts)


def triggers(facts: tuple[Fact, ...]) -> list[Trigger]:
    return [t for fact in facts if isinstance(fact, LinkAdded) for t in fact.link]


def put(played: Game, card: str, into: int = ANA) -> tuple[Fact, ...]:
    """A card brought straight into a Stable by the player whose turn it is (as an effect would), the pile and the
    chain then settled; the step's facts."""
    facts = record(played, Bring(played.state.current, card, into))
    assert card in played.state.players[into].stable
    settle(played)
    return facts


def by(found: tuple[object, ...], kind: type, card_id: str) -> bool:
    """True when one of the objections or facts found is of that kind and names the card (as any of its fields)."""
    return any(isinstance(x, kind) and card_id in vars(x).values() for x in found)


def entering(place: Place) -> Event:
    """The card played by Ana, into her own Stable when it is a card that stays."""
    stays = place.card.type not in (CardType.MAGIC, CardType.INSTANT)
    return Play(ANA, place.card.id, ANA if stays else None)


def basic_of(cards: CardSet, variation: str | None = None) -> str:
    """A Basic card of the set (of that variation, for a Llamas counter)."""
    found = (c for c in cards if c.type is CardType.BASIC)
    return next(c.id for c in found if variation is None or variation in (c.variation or "").split("+"))


def baby(cards: CardSet) -> str:
    return of_type(cards, CardType.BABY)


def of_type(cards: CardSet, kind: CardType, but: tuple[Tag, ...] = ()) -> str:
    """A card of that type in the set, carrying none of `but`."""
    return next(c.id for c in cards if c.type is kind and not any(c.has(t) for t in but))


def of_variation(variation: str) -> Callable[[CardSet], str]:
    return functools.partial(basic_of, variation=variation)


def a_magic(cards: CardSet) -> str:
    return of_type(cards, CardType.MAGIC, but=(Tag.SHUFFLES_ITSELF,))


def an_entering_unicorn(cards: CardSet) -> str:
    return next(c.id for c in cards if c.type is CardType.MAGICAL and c.has(Tag.ENTER_TRIGGER))


def a_dragon(cards: CardSet) -> str:
    return next(c.id for c in cards if c.type is CardType.MAGIC and "dragon" in c.name.lower())


def answered_by(played: Game) -> str:
    """The set's plain Neigh, or its first counter: what a player answers with."""
    return played.table.neigh_card or next(c.id for c in played.table.cards if c.has(Tag.NEIGH))


def to_anas_next_turn(played: Game) -> tuple[Fact, ...]:
    """Ana ends her turn, Ben plays his, Ana's next turn begins; the facts of that beginning."""
    settle(played)
    record(played, EndTurn(), Draw(BEN))
    settle(played)
    return record(played, EndTurn())


def at_its_turn(place: Place, babies: bool = True) -> Game:
    """The card in Ana's Stable when her next turn begins, its beginning-of-turn link resolved (its effect used)."""
    played = new_game(place, babies=babies)
    put(played, place.card.id)
    to_anas_next_turn(played)
    settle(played)
    return played


def a_magic_played(played: Game, place: Place) -> tuple[Event, ...]:
    return (Play(ANA, a_magic(played.table.cards)), Resolve())


def effect(played: Game, place: Place) -> None:
    """The card's effect made the chain's first link: a Magic card played and resolved; a card whose duty comes
    when a Magic card is played put in and one played; a card that acts as it enters brought in; one that acts at
    the beginning of its owner's turn put in and that turn begun (the effect used, when it is optional); else one
    that acts as it leaves put in and sacrificed."""
    card = place.card
    if card.type is CardType.MAGIC:
        record(played, Play(ANA, card.id), Resolve())
    elif card.has(Tag.EACH_MAGIC_PLAYED):
        put(played, card.id)
        record(played, *a_magic_played(played, place))
    elif card.has(Tag.ENTER_TRIGGER):
        record(played, Bring(ANA, card.id, ANA))
    elif card.has(Tag.BEGIN_TURN_TRIGGER) or card.has(Tag.BEGIN_TURN_OPTIONAL):
        put(played, card.id)
        to_anas_next_turn(played)
        if card.has(Tag.BEGIN_TURN_OPTIONAL):
            record(played, UseEffect(ANA, card.id))
    else:
        put(played, card.id)
        record(played, Sacrifice(ANA, card.id))
    assert played.state.chain and any(t.card == card.id for t in played.state.chain[0]), "no link of its own"


# --- the cards left to the table, as docs/game.md names them ----------------------------------------------------------


LEFT = re.compile(r"^- (?P<name>.+?) \(`(?P<deck>[a-z0-9-]+)`, `(?P<kind>[a-z_]+)`\): (?P<reason>.+)$")


def left_to_the_table(doc: str | None = None) -> dict[tuple[str, str, str], str]:
    """docs/game.md's "Cards left to the table": (deck, card name, kind) to the reason (a line and the indented lines
    that follow it)."""
    text = doc if doc is not None else DOCS.read_text(encoding="utf-8")
    section = text.split("## Cards left to the table", 1)[1].split("\n## ", 1)[0]
    found: dict[tuple[str, str, str], str] = {}
    key = None
    for line in section.splitlines():
        if (match := LEFT.match(line)) is not None:
            key = (match["deck"], match["name"], match["kind"])
            found[key] = match["reason"]
        elif key is not None and line.startswith("  "):
            found[key] += " " + line.strip()
        else:
            key = None
    return found
