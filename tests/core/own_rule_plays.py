"""Every card's own rule played: which cards of the shipped decks have a rule of their own, and one small scenario
per kind of rule that plays any card of that kind at a table and checks the rule is followed.

A card has a rule of its own when the tracker does something for it: it carries a tag the game engine reads
(`ENGINE_TAGS`, found in the engine's own source, `assistant/core/game/`: a tag named there changes what is
checked, applied or counted), or it is a Magic card (its effect is a link of the chain when it resolves) or an
Instant (it answers the pile or an effect). The deck files' tags are the one per-card table; nothing here lists
cards. `SCENARIOS` maps each kind (a tag's value, or `magic`, `instant`) to the function that plays it: it builds
the position from the card's own data (its deck, its type, its variation, the cards of the set that carry the tags
it needs beside it) on the core's own API (tests/core/playing.py) and fails with an `AssertionError` when the rule
is not followed. The cards whose rule is not followed or not played are named, with the reason, in docs/game.md
("Cards left to the table"); tests/core/test_every_own_rule.py holds the two to each other, and
`python -m benchmarks.own_rules` counts them.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import assistant
from assistant.core.cards.card import VARIATIONS, Card, CardSet, CardType, Deck, Tag
from assistant.core.cards.wording import costs, needed_target, save_of, taken_variation, then_join
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import (
    Bring,
    Destroy,
    Discard,
    Draw,
    EndTurn,
    Event,
    Phase,
    Play,
    Reshuffle,
    Resolve,
    Respond,
    Sacrifice,
    Save,
    SetGoal,
    SetHand,
    SkipPhase,
    Source,
    Steal,
    UseEffect,
)
from assistant.core.game.facts import (
    AnimalAnswered,
    BeginningSkipped,
    CardMustGo,
    CardTravelled,
    Fact,
    GoesBackNow,
    HerdBonusIgnored,
    LimitReached,
    LinkAdded,
    MayDraw,
    PileStopped,
    SavedToHand,
    StartSkipped,
    TurnEndsNow,
    WinBarred,
)
from assistant.core.game.history import Game
from assistant.core.game.objections import (
    ActionImpossible,
    ActionUsed,
    CannotBeAnswered,
    CannotBeNeighed,
    CannotDestroy,
    CannotEnter,
    CannotNeigh,
    CannotPlay,
    CannotSteal,
    ChainOpen,
    EffectForbidden,
    FirstNotDone,
    Guarded,
    Impossible,
    Indestructible,
    InstantsBanned,
    MagicCannotAffect,
    MagicCannotDestroy,
    NameBanned,
    NeedsAllVariations,
    NeedsBasic,
    NeedsVariation,
    NoReshuffle,
    NotInstant,
    OthersCannotPlay,
    PhaseIsSkipped,
    Protected,
    TriggerCannotDestroy,
    VariationKeptOut,
)
from assistant.core.game.rules import DeckOut, load_rules
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
    """The card as shipped, then as each other print that has tags of its own says it."""
    yield None, card
    for variant in card.print_variants:
        if variant.tags is not None:
            yield variant.print, replace(card, text=variant.text, tags=variant.tags, print_variants=())


def shipped_places() -> Iterator[Place]:
    """Every print of every card of every shipped deck, deck by deck."""
    for deck_id in deck_files():
        for card in shipped(deck_id).cards:
            for print_name, printed in prints(card):
                yield Place(deck_id, printed, print_name)


# --- positions -------------------------------------------------------------------------------------------------


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


def new_game(place: Place, cards: CardSet | None = None, rules: str | None = None, babies: bool = True) -> Game:
    """Ana and Ben with the card's set (or `cards`) under its rules (or `rules`), each with a Baby (unless not
    `babies`), Ana in her Action phase (her Draw phase's draw taken)."""
    cards = cards or place.cards
    rules = rules or cards.decks[0].info.rules
    chosen = tuple(c.id for c in cards if c.type is CardType.BABY)[:2] if babies else ()
    chosen = chosen if len(chosen) == 2 else ()
    setup = Setup(("Ana", "Ben"), rules, base=place.base, addons=place.addons, babies=chosen)
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
    """A card brought straight into a Stable (as an effect would), the chain then settled; the step's facts."""
    facts = record(played, Bring(played.state.current, card, into))
    assert card in played.state.players[into].stable
    settle(played)
    return facts


def basic_of(cards: CardSet, variation: str | None = None) -> str:
    """A Basic card of the set (of that variation, for a Llamas counter)."""
    found = (c for c in cards if c.type is CardType.BASIC)
    return next(c.id for c in found if variation is None or variation in (c.variation or "").split("+"))


def to_anas_next_turn(played: Game) -> tuple[Fact, ...]:
    """Ana ends her turn, Ben plays his, Ana's next turn begins; the facts of that beginning."""
    settle(played)
    record(played, EndTurn(), Draw(BEN))
    settle(played)
    return record(played, EndTurn())


# --- scenarios ---------------------------------------------------------------------------------------------------

Scenario = Callable[[Place], None]


def enters(place: Place) -> None:
    """`enter_trigger`: brought into a Stable, its effect is a link of the chain."""
    played = new_game(place)
    assert Trigger(place.card.id, ANA, TriggerKind.ENTER) in triggers(record(played, Bring(ANA, place.card.id, ANA))), (
        "no enter link"
    )


def leaves(place: Place) -> None:
    """`leave_trigger`: sacrificed, its leave effect is a link (a card that goes back to the hand instead: there)."""
    played = new_game(place)
    put(played, place.card.id)
    facts = record(played, Sacrifice(ANA, place.card.id))
    if place.card.has(Tag.BACK_TO_HAND):
        assert place.card.id not in played.state.discard, "went to the discard pile"
    else:
        assert Trigger(place.card.id, ANA, TriggerKind.LEAVE) in triggers(facts), "no leave link"


def begins(kind: TriggerKind) -> Scenario:
    """`begin_turn_trigger`, `begin_turn_optional`: in its owner's Stable, its effect joins the link of their next
    turn's beginning, mandatory (`TriggerKind.BEGIN`) or optional as tagged."""

    def scenario(place: Place) -> None:
        played = new_game(place)
        put(played, place.card.id)
        assert Trigger(place.card.id, ANA, kind) in triggers(to_anas_next_turn(played)), "no such beginning link"

    return scenario


def magic(place: Place) -> None:
    """A Magic card: played and not answered, its effect is a link."""
    played = new_game(place)
    facts = record(played, Play(ANA, place.card.id), Resolve())
    assert Trigger(place.card.id, ANA, TriggerKind.MAGIC) in triggers(facts), "no Magic link"


def instant(place: Place) -> None:
    """An Instant: a counter stops the card it answers (`stops`); any other answers the card played and its own
    effect is a link."""
    if place.card.has(Tag.NEIGH):
        stops(place)
        return
    played, answer = answering(place)
    assert any(t.card == place.card.id for t in triggers(record(played, answer, Resolve()))), "no Instant link"


def answering(place: Place) -> tuple[Game, Event]:
    """Ana plays a Basic; Ben's answer with the card, not yet recorded, and taken as an Instant (no `NotInstant`)."""
    played = new_game(place)
    record(played, Play(ANA, basic_of(played.table.cards), ANA))
    answer = Respond(BEN, place.card.id)
    assert not any(isinstance(x, NotInstant) for x in played.check(answer)), "not an Instant"
    return played, answer


def stops(place: Place) -> None:
    """`neigh`: a counter answering the card played stops it: the card does not come in."""
    played, answer = answering(place)
    basic = played.state.pile[0].card
    facts = record(played, answer) + settle(played)
    stopped = [f for f in facts if isinstance(f, PileStopped) and f.stopped.card == basic]
    assert stopped and stopped[0].stopper.card == place.card.id, "it stopped nothing"
    assert basic not in played.state.players[ANA].stable, "the card answered came in"


def by(found: tuple[object, ...], kind: type, card_id: str) -> bool:
    """True when one of the objections or facts found is of that kind and names the card (as any of its fields)."""
    return any(isinstance(x, kind) and card_id in vars(x).values() for x in found)


def entering(place: Place) -> Event:
    """The card played by Ana, into her own Stable when it is a card that stays."""
    stays = place.card.type not in (CardType.MAGIC, CardType.INSTANT)
    return Play(ANA, place.card.id, ANA if stays else None)


def forbidden_effect(tag: Tag) -> Scenario:
    """`must_destroy`, `must_steal`: played under its player's own card that forbids the action, it is warned."""

    def scenario(place: Place) -> None:
        cards = with_tag(place, tag)
        played = new_game(place, cards)
        blocker = holder(cards, tag)
        put(played, blocker)
        assert by(played.check(entering(place)), EffectForbidden, blocker), "not forbidden"

    return scenario


def back_to_hand(place: Place) -> None:
    """`back_to_hand`: destroyed, it goes back to its owner's hand, not the discard pile."""
    played = new_game(place)
    put(played, place.card.id)
    facts = record(played, Destroy(BEN, place.card.id, ANA))
    assert SavedToHand(place.card.id, ANA, place.card.id) in facts, "not back in the hand"
    assert place.card.id not in played.state.discard


def reshuffles(place: Place) -> None:
    """`reshuffles`: while its effect is done, a reshuffle is not warned, though the rules have none."""
    game = place.cards.decks[0].info.game
    rules = next(p.id for p in RULES.profiles.values() if p.game == game and DeckOut.RESHUFFLE not in p.deck_out)
    played = new_game(place, rules=rules)
    assert any(isinstance(x, NoReshuffle) for x in played.check(Reshuffle())), "the rules reshuffle anyway"
    effect(played, place)
    assert not any(isinstance(x, NoReshuffle) for x in played.check(Reshuffle())), "the reshuffle is warned"


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


def hand_limit(place: Place) -> None:
    """`hand_limit_change`: in its Stable, its owner's hand limit is the one the rules data gives the card (set to a
    number, or moved by one), and every player's when it says so."""
    played = new_game(place)
    before = played.table.hand_limit(played.state, BEN).limit
    put(played, place.card.id)
    change = RULES.hand_limits.get(place.card.id)
    assert change is not None, "the rules data has no number for it"
    expected = change.set if change.set is not None else before + change.add
    assert played.table.hand_limit(played.state, ANA).limit == expected, "the hand limit did not change"
    assert played.table.hand_limit(played.state, BEN).limit == (expected if change.everyone else before)


def counts_as_two(place: Place) -> None:
    """`counts_as_two`: it adds 2 to its owner's count."""
    played = new_game(place)
    before = played.table.tally(played.state)[ANA]
    put(played, place.card.id)
    assert played.table.tally(played.state)[ANA] == before + 2, "it does not count 2"


def no_unicorns(place: Place) -> None:
    """`not_a_unicorn_effect`: the Unicorns in its Stable count 0."""
    played = new_game(place)
    put(played, basic_of(played.table.cards))
    put(played, place.card.id)
    assert played.table.tally(played.state)[ANA] == 0, "they still count"


def makes_basic(place: Place) -> None:
    """`makes_basic`: a card that counts 2 counts 1 in its Stable."""
    cards = with_tag(place, Tag.COUNTS_AS_TWO)
    played = new_game(place, cards)
    big = holder(cards, Tag.COUNTS_AS_TWO)
    put(played, place.card.id)
    before = played.table.tally(played.state)[ANA]
    put(played, big)
    assert played.table.tally(played.state)[ANA] == before + 1, "it still counts 2"


def of_type(cards: CardSet, kind: CardType, but: tuple[Tag, ...] = ()) -> str:
    """A card of that type in the set, carrying none of `but`."""
    return next(c.id for c in cards if c.type is kind and not any(c.has(t) for t in but))


def answered_by(played: Game, player: int) -> str:
    """The set's plain Neigh, or its first counter: what a player answers with."""
    return played.table.neigh_card or next(c.id for c in played.table.cards if c.has(Tag.NEIGH))


def neighing(place: Place) -> tuple[Game, Event]:
    """Ana plays a Basic; Ben's Neigh against it, not yet recorded."""
    played = new_game(place)
    record(played, Play(ANA, basic_of(played.table.cards), ANA))
    return played, Respond(BEN, answered_by(played, BEN))


def cannot_be_neighed(place: Place) -> None:
    """`cannot_be_neighed`: an Instant that cannot be answered (a Neigh on it is warned); a card in the Stable that
    keeps its owner's plays from being Neighed (a Neigh on one is warned)."""
    if place.card.type is CardType.INSTANT:
        played, _ = neighing(place)
        record(played, Respond(BEN, place.card.id))
        assert by(played.check(Respond(ANA, answered_by(played, ANA))), CannotBeAnswered, place.card.id), "answered"
        return
    played = new_game(place)
    put(played, place.card.id)
    record(played, Play(ANA, basic_of(played.table.cards), ANA))
    assert any(isinstance(x, CannotBeNeighed) for x in played.check(Respond(BEN, answered_by(played, BEN))))


def stops_answers(kind: type) -> Scenario:
    """`stops_neighs`, `stops_instants`: in Ben's Stable, Ben answering Ana's play is warned."""

    def scenario(place: Place) -> None:
        played = new_game(place)
        put(played, place.card.id, into=BEN)
        record(played, Play(ANA, basic_of(played.table.cards), ANA))
        assert by(played.check(Respond(BEN, answered_by(played, BEN))), kind, place.card.id), "Ben may answer"

    return scenario


def stops_playing(kind: CardType) -> Scenario:
    """`stops_upgrades`, `stops_magic`, `stops_basics`: its owner playing such a card is warned."""

    def scenario(place: Place) -> None:
        played = new_game(place)
        put(played, place.card.id)
        other = of_type(played.table.cards, kind, but=(Tag.NEEDS_BASIC, Tag.NEEDS_VARIATION))
        event = Play(ANA, other, None if kind is CardType.MAGIC else ANA)
        assert by(played.check(event), CannotPlay, place.card.id), "the play is not warned"

    return scenario


def kept_out(entering: Callable[[CardSet], str], where: int, kind: type) -> Scenario:
    """A card that keeps others out of a Stable (`no_basics_here`, `basics_only_here`, `no_babies` ...): in Ana's
    Stable, the card `entering` finds brought into the Stable at `where` (Ana's or Ben's) is warned."""

    def scenario(place: Place) -> None:
        played = new_game(place, babies=False)
        put(played, place.card.id)
        event = Bring(ANA, entering(played.table.cards), where, Source.NURSERY if kind is CannotEnter else Source.HAND)
        if not is_baby(played, event.card):
            event = Bring(ANA, event.card, where)
        assert by(played.check(event), kind, place.card.id), "it came in"

    return scenario


def is_baby(played: Game, card_id: str) -> bool:
    return played.table.card_of(card_id).type is CardType.BABY


def baby(cards: CardSet) -> str:
    return of_type(cards, CardType.BABY)


def of_variation(variation: str) -> Callable[[CardSet], str]:
    return functools.partial(basic_of, variation=variation)


def others_basics(place: Place) -> None:
    """`stops_others_basics`: in Ana's Stable, Ben playing a Basic is warned."""
    played = new_game(place)
    put(played, place.card.id)
    assert by(played.check(Play(BEN, basic_of(played.table.cards), BEN)), OthersCannotPlay, place.card.id)


def needs(kind: type) -> Scenario:
    """`needs_basic`, `needs_variation`, `needs_all_variations`: played into a Stable or Field with nothing but
    itself, it is warned."""

    def scenario(place: Place) -> None:
        played = new_game(place, babies=False)
        assert by(played.check(entering(place)), kind, place.card.id), "played without what it needs"

    return scenario


def guards(event: Callable[[Game, str], Event], kind: type, target: Callable[[CardSet, Place], str]) -> Scenario:
    """A protection in Ana's Stable (or the card itself): the move `event` makes on the card `target` finds there
    is warned, naming the card."""

    def scenario(place: Place) -> None:
        played = new_game(place, babies=False)
        put(played, place.card.id)
        aimed = target(played.table.cards, place)
        if aimed != place.card.id:
            put(played, aimed)
        found = played.check(event(played, aimed))
        assert by(found, kind, place.card.id), f"not guarded: {found}"

    return scenario


def itself(cards: CardSet, place: Place) -> str:
    return place.card.id


def a_basic(cards: CardSet, place: Place) -> str:
    return basic_of(cards)


def a_baby(cards: CardSet, place: Place) -> str:
    return baby(cards)


def bens_destroy(played: Game, card_id: str) -> Event:
    return Destroy(BEN, card_id, ANA)


def bens_steal(played: Game, card_id: str) -> Event:
    return Steal(BEN, card_id, ANA)


Move = Callable[[Game, str], Event]


def while_done(source: Callable[[CardSet], str], move: Move) -> Move:
    """Ben's move on Ana's card while the effect of Ben's card `source` finds is the chain's first link (a Magic
    card played and resolved, else a card brought into Ben's Stable)."""

    def event(played: Game, card_id: str) -> Event:
        record(played, EndTurn(), Draw(BEN))
        settle(played)
        record(played, Draw(BEN))
        chosen = played.table.card_of(source(played.table.cards))
        if chosen.type is CardType.MAGIC:
            record(played, Play(BEN, chosen.id), Resolve())
        else:
            record(played, Bring(BEN, chosen.id, BEN))
        assert played.state.chain, "no effect being done"
        return move(played, card_id)

    return event


def a_magic(cards: CardSet) -> str:
    return of_type(cards, CardType.MAGIC, but=(Tag.SHUFFLES_ITSELF,))


def an_entering_unicorn(cards: CardSet) -> str:
    return next(c.id for c in cards if c.type is CardType.MAGICAL and c.has(Tag.ENTER_TRIGGER))


def a_dragon(cards: CardSet) -> str:
    return next(c.id for c in cards if c.type is CardType.MAGIC and "dragon" in c.name.lower())


def at_its_turn(place: Place, babies: bool = True) -> Game:
    """The card in Ana's Stable when her next turn begins, its beginning-of-turn link resolved (its effect used)."""
    played = new_game(place, babies=babies)
    put(played, place.card.id)
    to_anas_next_turn(played)
    settle(played)
    return played


def skips_draw(place: Place) -> None:
    """`skips_draw`: once its beginning-of-turn effect is done, the Draw phase's draw is warned."""
    played = at_its_turn(place)
    assert by(played.check(Draw(ANA)), PhaseIsSkipped, place.card.id), "the draw is not warned"


def ends_turn(place: Place) -> None:
    """`ends_turn`: once its beginning-of-turn effect is done, the tracker asks to end the turn now."""
    played = new_game(place)
    put(played, place.card.id)
    to_anas_next_turn(played)
    assert TurnEndsNow(ANA, place.card.id) in settle(played), "the turn does not end"


def skips_action(place: Place) -> None:
    """`skips_action`: a Baby brought from the Nursery while its effect is done skips the Action phase: a play is
    warned."""
    played = new_game(place, babies=False)
    put(played, place.card.id)
    to_anas_next_turn(played)
    record(played, Bring(ANA, baby(played.table.cards), ANA, Source.NURSERY))
    settle(played)
    record(played, Draw(ANA))
    assert by(played.check(Play(ANA, basic_of(played.table.cards), ANA)), PhaseIsSkipped, place.card.id)


def gives_up_phase(place: Place) -> None:
    """`gives_up_phase`: its owner gives up the Action phase (`skip action`): a play is then warned."""
    played = at_its_turn(place)
    record(played, SkipPhase(Phase.ACTION), Draw(ANA))
    assert by(played.check(Play(ANA, basic_of(played.table.cards), ANA)), PhaseIsSkipped, place.card.id)


def extra_action(place: Place) -> None:
    """`extra_action`: on a turn that begins with it in its owner's Stable, a second play is not warned."""
    played = at_its_turn(place)
    basic = basic_of(played.table.cards)
    record(played, Draw(ANA), Play(ANA, basic, ANA))
    settle(played)
    assert not any(isinstance(x, ActionUsed) for x in played.check(Play(ANA, basic, ANA))), "no second play"


def travels(place: Place) -> None:
    """`travels`: when its owner's turn ends it passes into the next player's Stable."""
    played = new_game(place)
    put(played, place.card.id)
    assert CardTravelled(place.card.id, ANA, BEN) in record(played, EndTurn()), "it stayed"


def gives_back(place: Place) -> None:
    """`gives_back_at_end`: on a turn whose beginning-of-turn effect was used, the turn's end says the Unicorn goes
    back."""
    played = at_its_turn(place)
    record(played, Draw(ANA))
    assert GoesBackNow(place.card.id, ANA) in record(played, EndTurn()), "nothing goes back"


def at_most_five(place: Place) -> None:
    """`at_most_five`: past 5 Unicorns in its Stable, the tracker says to sacrifice one."""
    played = new_game(place, babies=False)
    put(played, place.card.id)
    basic = basic_of(played.table.cards)
    facts = [fact for _ in range(6) for fact in record(played, Bring(ANA, basic, ANA))]
    assert any(by((f,), LimitReached, place.card.id) for f in facts), "no limit"


def must_go(before: Callable[[Game], tuple[Event, ...]]) -> Scenario:
    """`gone_without_unicorns`, `gone_on_empty_hand`, `moves_on_empty_hand`: arriving where its condition holds
    (no Unicorn; an empty hand), the tracker says it must go."""

    def scenario(place: Place) -> None:
        played = new_game(place, babies=False)
        record(played, *before(played))
        facts = record(played, Bring(ANA, place.card.id, ANA))
        assert any(by((f,), CardMustGo, place.card.id) for f in facts), "it stays"

    return scenario


def no_unicorn(played: Game) -> tuple[Event, ...]:
    return ()


def empty_hand(played: Game) -> tuple[Event, ...]:
    return (SetHand(ANA, 0),)


def no_win(place: Place) -> None:
    """`no_win`, `no_win_with_basics`: reaching the number with Basics beside it, its owner does not win."""
    played = new_game(place, babies=False)
    record(played, SetGoal(2))
    put(played, place.card.id)
    basic = basic_of(played.table.cards)
    facts = record(played, Bring(ANA, basic, ANA), Bring(ANA, basic, ANA))
    assert any(by((f,), WinBarred, place.card.id) for f in facts), "no bar"
    assert played.state.outcome is None


def goal_minus_two(place: Place) -> None:
    """`goal_minus_two`: its owner wins with 2 fewer than the number."""
    played = new_game(place, babies=False)
    record(played, SetGoal(4))
    put(played, place.card.id)
    basic = basic_of(played.table.cards)
    record(played, Bring(ANA, basic, ANA), Bring(ANA, basic, ANA))
    assert played.state.outcome is not None and played.state.outcome.winner == ANA, "no win with 2 of 4"


def bans_instants(place: Place) -> None:
    """`bans_instants`: from the beginning of its owner's turn, an Instant played is warned."""
    played = at_its_turn(place)
    record(played, Draw(ANA), Play(ANA, basic_of(played.table.cards), ANA))
    assert by(played.check(Respond(BEN, answered_by(played, BEN))), InstantsBanned, place.card.id), "not banned"


def shuffles_itself(place: Place) -> None:
    """`shuffles_itself`: resolved, it is in the discard pile while its effect is done."""
    played = new_game(place)
    record(played, Play(ANA, place.card.id), Resolve())
    assert played.state.chain and place.card.id in played.state.discard, "not in the discard pile"


def skips_beginning(place: Place) -> None:
    """`skips_beginning`: its owner's beginning-of-turn effects do not join the chain."""
    played = new_game(place)
    put(played, next(c.id for c in played.table.cards if c.has(Tag.BEGIN_TURN_TRIGGER)))
    put(played, place.card.id)
    facts = to_anas_next_turn(played)
    assert BeginningSkipped(ANA, place.card.id) in facts and not played.state.chain, "the beginning was not skipped"


def silences_unicorns(place: Place) -> None:
    """`silences_unicorns`: a Unicorn entering its Stable adds no effect to the chain."""
    played = new_game(place)
    put(played, place.card.id)
    entering = an_entering_unicorn(played.table.cards)
    assert not triggers(record(played, Bring(ANA, entering, ANA))), "the Unicorn's effect came"


def unicorns_effectless(place: Place) -> None:
    """`unicorns_effectless`: a Unicorn in its Stable that would stop its owner's Neighs stops nothing."""
    cards = with_tag(place, Tag.STOPS_NEIGHS)
    if not any(c.has(Tag.STOPS_NEIGHS) and c.type.is_creature for c in cards):
        cards = CardSet([*cards.decks, *(shipped(d) for d in holder_decks(Tag.STOPS_NEIGHS))])
    stopper = next(c.id for c in cards if c.has(Tag.STOPS_NEIGHS) and c.type.is_creature)
    played = new_game(place, cards)
    put(played, stopper, into=BEN)
    put(played, place.card.id, into=BEN)
    record(played, Play(ANA, basic_of(played.table.cards), ANA))
    found = played.check(Respond(BEN, answered_by(played, BEN)))
    assert not any(isinstance(x, CannotNeigh | CannotPlay) for x in found), f"still stopped: {found}"


def silences_downgrades(place: Place) -> None:
    """`silences_downgrades`: a Downgrade beside it forbids nothing."""
    cards = with_tag(place, Tag.STOPS_UPGRADES)
    played = new_game(place, cards)
    put(played, next(c.id for c in cards if c.has(Tag.STOPS_UPGRADES) and c.type is CardType.DOWNGRADE))
    put(played, place.card.id)
    upgrade = of_type(played.table.cards, CardType.UPGRADE, but=(Tag.NEEDS_BASIC,))
    assert not any(isinstance(x, CannotPlay) for x in played.check(Play(ANA, upgrade, ANA))), "still forbidden"


def plays_card(place: Place) -> None:
    """`plays_card`: while its effect is done, the card it plays is not warned as a second play."""
    played = new_game(place)
    basic = basic_of(played.table.cards)
    record(played, Play(ANA, basic, ANA))
    settle(played)
    effect(played, place)
    found = played.check(Play(ANA, basic, ANA, Source.DECK))
    assert not any(isinstance(x, ActionUsed | ChainOpen) for x in found), f"warned: {found}"


def saves_card(place: Place) -> None:
    """`saves_card`: answering an effect, a card destroyed while its own effect is done goes to its player's hand."""
    played = new_game(place)
    basic = basic_of(played.table.cards)
    put(played, basic, into=BEN)
    record(played, Play(ANA, a_magic(played.table.cards)), Resolve(), Respond(BEN, place.card.id), Resolve())
    facts = record(played, Destroy(ANA, basic, BEN))
    assert SavedToHand(basic, BEN, place.card.id) in facts, "not saved"


def skips_start(place: Place) -> None:
    """`skips_start`: answering the start of another player's turn, that player skips to the Action phase."""
    played = new_game(place)
    record(played, EndTurn(), Respond(ANA, place.card.id))
    assert any(by((f,), StartSkipped, place.card.id) for f in settle(played)), "the start was not skipped"


def counter(check: Callable[[tuple[Fact, ...], Place], bool]) -> Scenario:
    """A Llamas counter (`takes_stopped`, `both_draw`, `answers_animal`): Ben answers Ana's Animal of the
    variation it names with it; `check` reads the facts."""

    def scenario(place: Place) -> None:
        played = new_game(place)
        animal = basic_of(played.table.cards, taken_variation(place.card.text))
        record(played, Play(ANA, animal, ANA), Respond(BEN, place.card.id))
        assert check(settle(played), place), "the counter did not do its part"

    return scenario


def took(facts: tuple[Fact, ...], place: Place) -> bool:
    return any(isinstance(f, PileStopped) and f.taken for f in facts)


def both_drew(facts: tuple[Fact, ...], place: Place) -> bool:
    return any(isinstance(f, MayDraw) and set(f.players) == {ANA, BEN} for f in facts)


def answered(facts: tuple[Fact, ...], place: Place) -> bool:
    return any(isinstance(f, AnimalAnswered) and f.instant.card == place.card.id for f in facts)


def draws_if_instant(place: Place) -> None:
    """`draws_if_instant`: stopping an Instant, its player may draw."""
    played, neigh = neighing(place)
    record(played, neigh, Respond(ANA, place.card.id))
    assert any(isinstance(f, MayDraw) and f.players == (ANA,) for f in settle(played)), "no draw"


def a_duty(moment: Callable[[Game, Place], tuple[Event, ...]], owner: int = ANA) -> Scenario:
    """An `each_...` duty: in its owner's Stable, when its moment comes (the events `moment` gives), its duty joins
    the chain."""

    def scenario(place: Place) -> None:
        played = new_game(place)
        put(played, place.card.id, into=owner)
        facts = record(played, *moment(played, place))
        assert Trigger(place.card.id, owner, TriggerKind.DUTY) in triggers(facts), "no duty"

    return scenario


def a_unicorn_comes(played: Game, place: Place) -> tuple[Event, ...]:
    return (Bring(ANA, basic_of(played.table.cards), ANA),)


def bens_destroys_a_unicorn(played: Game, place: Place) -> tuple[Event, ...]:
    basic = basic_of(played.table.cards)
    put(played, basic)
    return (Destroy(BEN, basic, ANA),)


def ana_destroys_a_unicorn(played: Game, place: Place) -> tuple[Event, ...]:
    basic = basic_of(played.table.cards)
    put(played, basic, into=BEN)
    return (Destroy(ANA, basic, BEN),)


def ana_draws(played: Game, place: Place) -> tuple[Event, ...]:
    return (Draw(ANA),)


def a_llama_played(played: Game, place: Place) -> tuple[Event, ...]:
    return (Play(ANA, basic_of(played.table.cards, "llama"), ANA),)


def a_magic_played(played: Game, place: Place) -> tuple[Event, ...]:
    return (Play(ANA, a_magic(played.table.cards)), Resolve())


def ben_steals_it(played: Game, place: Place) -> tuple[Event, ...]:
    return (Steal(BEN, place.card.id, ANA),)


def stops_own(move: Callable[[Game], Event], kind: type) -> Scenario:
    """`stops_stealing`, `stops_destroying`: in Ana's Stable, Ana's steal or destroy is warned."""

    def scenario(place: Place) -> None:
        played = new_game(place)
        put(played, place.card.id)
        assert by(played.check(move(played)), kind, place.card.id), "not forbidden"

    return scenario


def steal_bens(played: Game) -> Event:
    basic = basic_of(played.table.cards)
    put(played, basic, into=BEN)
    return Steal(ANA, basic, BEN)


def destroy_bens(played: Game) -> Event:
    basic = basic_of(played.table.cards)
    put(played, basic, into=BEN)
    return Destroy(ANA, basic, BEN)


def stops_llama_names(place: Place) -> None:
    """`stops_llama_names`: its owner playing a card with the word Llama in its name is warned."""
    played = new_game(place)
    put(played, place.card.id)
    named = next(c for c in played.table.cards if "llama" in c.name.lower().split() and c.type is not CardType.BABY)
    event = Play(ANA, named.id, ANA if named.type.is_creature or named.type.is_stable else None)
    assert by(played.check(event), NameBanned, place.card.id), "not banned"


def herd_bonus_proof(place: Place) -> None:
    """`herd_bonus_proof`: another player's Herd Bonus offered at the start of their turn is said not to affect its
    owner."""
    played = new_game(place)
    put(played, place.card.id)
    variation = next(v for v in ("alpaca", "llama", "goat", "ram"))
    for _ in range(played.table.profile.herd_bonus):
        put(played, basic_of(played.table.cards, variation), into=BEN)
    assert any(by((f,), HerdBonusIgnored, place.card.id) for f in record(played, EndTurn())), "not said"


def saves(place: Place) -> None:
    """`saves` (its wording, `save_of`): a card of Ben's about to be destroyed (the card itself, or a Basic beside
    it) is offered to be saved by it, and the save keeps it in Ben's Stable."""
    played = new_game(place, babies=False)
    put(played, place.card.id, into=BEN)
    save = save_of(place.card.text)
    target = place.card.id if save is not None and save.itself else basic_of(played.table.cards)
    if target != place.card.id:
        put(played, target, into=BEN)
    assert played.table.save_for(played.state, target, BEN, sacrificed=False) == place.card.id, "no save offered"
    record(played, Save(BEN, target, place.card.id))
    assert target in played.state.players[BEN].stable, "not saved"


def needs_target(place: Place) -> None:
    """`needs_target` (its wording, `needed_target`): played with nothing there to act on, it is warned."""
    played = new_game(place, babies=False)
    assert by(played.check(entering(place)), Impossible, place.card.id), "played with nothing to act on"


def pays(place: Place) -> None:
    """`costs` (its wording, `costs`): played with no card to pay its cost with (Stables empty, the hand only the
    card played), it is warned."""
    played = new_game(place, babies=False)
    record(played, SetHand(ANA, 1))
    assert by(played.check(entering(place)), ActionImpossible, place.card.id), "played without paying"


def then(place: Place) -> None:
    """`then` (its wording, `then_join`): while its effect is done, its second action before its first is warned."""
    played = new_game(place)
    basic = basic_of(played.table.cards)
    put(played, basic)
    put(played, basic, into=BEN)
    effect(played, place)
    joined = then_join(place.card.text)
    assert joined is not None, "no two actions joined"
    second = joined[1]
    assert by(played.check(ACTIONS[second](basic)), FirstNotDone, place.card.id), "the second action came first"


#: Ana's action of a name `then_join` gives, on a card of Ben's (her own, for a sacrifice).
ACTIONS: dict[str, Callable[[str], Event]] = {
    "draw": lambda card: Draw(ANA),
    "discard": lambda card: Discard(ANA),
    "sacrifice": lambda card: Sacrifice(ANA, card),
    "destroy": lambda card: Destroy(ANA, card, BEN),
    "steal": lambda card: Steal(ANA, card, BEN),
}


def variation(place: Place) -> None:
    """`variation` (its variation, the rules data's `variation_overrides`): a hybrid counts in its Field's herd as
    each of its variations; a card that overrides makes every Animal there count as the variation it names."""
    played = new_game(place, babies=False)
    put(played, place.card.id)
    override = RULES.variation_overrides.get(place.card.id)
    if override is None:
        herd = played.table.herd(played.state, ANA)
        variations = (place.card.variation or "").split("+")
        assert len(herd) > 1 and all(herd.get(v) == 1 for v in variations), f"one card counts as {herd}"
        return
    others = [v for v in VARIATIONS if v != override]
    for other in others:
        put(played, basic_of(played.table.cards, other))
    animals = len(others) + (1 if place.card.type.is_creature else 0)
    assert played.table.herd(played.state, ANA) == {override: animals}, "the Animals keep their variations"


SCENARIOS: dict[str, Scenario] = {
    "saves": saves,
    "needs_target": needs_target,
    "costs": pays,
    "then": then,
    "variation": variation,
    Tag.ENTER_TRIGGER.value: enters,
    Tag.LEAVE_TRIGGER.value: leaves,
    Tag.BEGIN_TURN_TRIGGER.value: begins(TriggerKind.BEGIN),
    Tag.BEGIN_TURN_OPTIONAL.value: begins(TriggerKind.BEGIN_OPTIONAL),
    "magic": magic,
    "instant": instant,
    Tag.NEIGH.value: stops,
    Tag.MUST_DESTROY.value: forbidden_effect(Tag.STOPS_DESTROYING),
    Tag.MUST_STEAL.value: forbidden_effect(Tag.STOPS_STEALING),
    Tag.BACK_TO_HAND.value: back_to_hand,
    Tag.RESHUFFLES.value: reshuffles,
    Tag.HAND_LIMIT_CHANGE.value: hand_limit,
    Tag.COUNTS_AS_TWO.value: counts_as_two,
    Tag.NOT_A_UNICORN_EFFECT.value: no_unicorns,
    Tag.MAKES_BASIC.value: makes_basic,
    Tag.CANNOT_BE_NEIGHED.value: cannot_be_neighed,
    Tag.SUPER_NEIGH.value: cannot_be_neighed,
    Tag.STOPS_NEIGHS.value: stops_answers(CannotNeigh),
    Tag.STOPS_INSTANTS.value: stops_answers(CannotPlay),
    Tag.STOPS_UPGRADES.value: stops_playing(CardType.UPGRADE),
    Tag.STOPS_MAGIC.value: stops_playing(CardType.MAGIC),
    Tag.STOPS_BASICS.value: stops_playing(CardType.BASIC),
    Tag.STOPS_OTHERS_BASICS.value: others_basics,
    Tag.BASICS_ONLY_HERE.value: kept_out(basic_of, BEN, CannotEnter),
    Tag.NO_BASICS_HERE.value: kept_out(basic_of, ANA, CannotEnter),
    Tag.NO_BABIES.value: kept_out(baby, BEN, CannotEnter),
    Tag.NO_BABIES_HERE.value: kept_out(baby, ANA, CannotEnter),
    Tag.NO_LLAMAS_HERE.value: kept_out(of_variation("llama"), ANA, VariationKeptOut),
    Tag.NO_ALPACAS_HERE.value: kept_out(of_variation("alpaca"), ANA, VariationKeptOut),
    Tag.NO_GOATS_HERE.value: kept_out(of_variation("goat"), ANA, VariationKeptOut),
    Tag.NO_RAMS_HERE.value: kept_out(of_variation("ram"), ANA, VariationKeptOut),
    Tag.NEEDS_BASIC.value: needs(NeedsBasic),
    Tag.NEEDS_VARIATION.value: needs(NeedsVariation),
    Tag.NEEDS_ALL_VARIATIONS.value: needs(NeedsAllVariations),
    Tag.PROTECTS_UNICORNS.value: guards(bens_destroy, Protected, a_basic),
    Tag.PROTECTS_BABIES.value: guards(bens_destroy, Protected, a_baby),
    Tag.INDESTRUCTIBLE.value: guards(bens_destroy, Indestructible, itself),
    Tag.MAGIC_PROOF.value: guards(while_done(a_magic, bens_destroy), MagicCannotDestroy, itself),
    Tag.MAGIC_UNTOUCHABLE.value: guards(while_done(a_magic, bens_steal), MagicCannotAffect, itself),
    Tag.TRIGGER_PROOF.value: guards(while_done(an_entering_unicorn, bens_destroy), TriggerCannotDestroy, itself),
    Tag.OTHERS_TRIGGER_PROOF.value: guards(while_done(an_entering_unicorn, bens_destroy), Guarded, a_basic),
    Tag.UNICORN_EFFECT_PROOF.value: guards(while_done(an_entering_unicorn, bens_destroy), Guarded, a_basic),
    Tag.DRAGON_PROOF.value: guards(while_done(a_dragon, bens_destroy), Guarded, a_basic),
    Tag.SKIPS_DRAW.value: skips_draw,
    Tag.ENDS_TURN.value: ends_turn,
    Tag.SKIPS_ACTION.value: skips_action,
    Tag.GIVES_UP_PHASE.value: gives_up_phase,
    Tag.EXTRA_ACTION.value: extra_action,
    Tag.TRAVELS.value: travels,
    Tag.GIVES_BACK_AT_END.value: gives_back,
    Tag.AT_MOST_FIVE.value: at_most_five,
    Tag.GONE_WITHOUT_UNICORNS.value: must_go(no_unicorn),
    Tag.GONE_ON_EMPTY_HAND.value: must_go(empty_hand),
    Tag.MOVES_ON_EMPTY_HAND.value: must_go(empty_hand),
    Tag.NO_WIN.value: no_win,
    Tag.NO_WIN_WITH_BASICS.value: no_win,
    Tag.GOAL_MINUS_TWO.value: goal_minus_two,
    Tag.BANS_INSTANTS.value: bans_instants,
    Tag.SHUFFLES_ITSELF.value: shuffles_itself,
    Tag.SKIPS_BEGINNING.value: skips_beginning,
    Tag.SILENCES_UNICORNS.value: silences_unicorns,
    Tag.UNICORNS_EFFECTLESS.value: unicorns_effectless,
    Tag.SILENCES_DOWNGRADES.value: silences_downgrades,
    Tag.PLAYS_CARD.value: plays_card,
    Tag.SAVES_CARD.value: saves_card,
    Tag.SKIPS_START.value: skips_start,
    Tag.TAKES_STOPPED.value: counter(took),
    Tag.BOTH_DRAW.value: counter(both_drew),
    Tag.ANSWERS_ANIMAL.value: counter(answered),
    Tag.DRAWS_IF_INSTANT.value: draws_if_instant,
    Tag.EACH_UNICORN_MOVES.value: a_duty(a_unicorn_comes),
    Tag.EACH_CARD_ENTERS.value: a_duty(a_unicorn_comes),
    Tag.EACH_UNICORN_LOST.value: a_duty(bens_destroys_a_unicorn),
    Tag.EACH_UNICORN_DESTROYED.value: a_duty(bens_destroys_a_unicorn),
    Tag.EACH_CARD_DESTROYED.value: a_duty(bens_destroys_a_unicorn),
    Tag.EACH_DESTROY.value: a_duty(ana_destroys_a_unicorn),
    Tag.EACH_DRAW.value: a_duty(ana_draws),
    Tag.EACH_LLAMA_PLAYED.value: a_duty(a_llama_played),
    Tag.EACH_MAGIC_PLAYED.value: a_duty(a_magic_played),
    Tag.EACH_AIMED_AT.value: a_duty(ben_steals_it),
    Tag.STOPS_STEALING.value: stops_own(steal_bens, CannotSteal),
    Tag.STOPS_DESTROYING.value: stops_own(destroy_bens, CannotDestroy),
    Tag.STOPS_LLAMA_NAMES.value: stops_llama_names,
    Tag.HERD_BONUS_PROOF.value: herd_bonus_proof,
}


# --- the cards left to the table, as docs/game.md names them --------------------------------------------------

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


def plays(place: Place, kind: str) -> bool:
    """True when the kind's scenario exists and the card's rule is followed in it."""
    scenario = SCENARIOS.get(kind)
    if scenario is None:
        return False
    try:
        scenario(place)
    except AssertionError:
        return False
    return True
