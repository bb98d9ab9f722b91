"""One small scenario per kind of rule a card of a shipped deck may have (`SCENARIOS`, keyed by the kind:
tests/core/own_rule_plays.py says which cards have which), grouped by what the kind does. Each plays any card of its
kind in a position made from the card's data and fails with an `AssertionError` naming what was not followed: an
objection not raised or not naming the card, an effect not in the chain, a protection not honoured, a duty not laid,
a count not changed. `plays` says whether a card's rule of a kind is played and followed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from assistant.core.cards.card import VARIATIONS, CardSet, CardType, Tag
from assistant.core.cards.wording import (
    Need,
    costs,
    leave_effect,
    needed_target,
    needed_variation,
    save_of,
    taken_variation,
    then_join,
)
from assistant.core.game.acting import save_for
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import (
    Bring,
    Destroy,
    Discard,
    Draw,
    EndTurn,
    Event,
    Move,
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
    RemovedCard,
    TriggerCannotDestroy,
    VariationKeptOut,
)
from assistant.core.game.rules import DeckOut
from tests.core.own_rule_plays import (
    ANA,
    BEN,
    RULES,
    Place,
    a_dragon,
    a_magic,
    a_magic_played,
    an_entering_unicorn,
    answered_by,
    at_its_turn,
    baby,
    basic_of,
    by,
    effect,
    entering,
    holder,
    holder_decks,
    new_game,
    of_type,
    of_variation,
    put,
    record,
    settle,
    shipped,
    to_anas_next_turn,
    triggers,
    with_tag,
)

Scenario = Callable[[Place], None]


# --- effects in the chain: enter, leave and beginning-of-turn effects, Magic and Instant cards, counters --------------


def enters(place: Place) -> None:
    """`enter_trigger`: brought into a Stable, its effect is a link of the chain, its owner's; stolen from there
    into another Stable, it enters that one, and its effect is the new owner's link."""
    played = new_game(place)
    facts = record(played, Bring(ANA, place.card.id, ANA))
    assert Trigger(place.card.id, ANA, TriggerKind.ENTER) in triggers(facts), "no enter link"
    settle(played)
    facts = record(played, Steal(BEN, place.card.id, ANA))
    assert Trigger(place.card.id, BEN, TriggerKind.ENTER) in triggers(facts), "no enter link, stolen"


def leaves(place: Place) -> None:
    """`leave_trigger`: its leave effect is a link when it leaves its Stable the way its leave clause says, sacrificed,
    destroyed, or any way ("leaves": stolen too), and only then; a card that goes back to the hand instead goes
    there."""
    for way, leaving in WAYS_TO_LEAVE.items():
        played = new_game(place)
        put(played, place.card.id)
        facts = record(played, leaving(place.card.id))
        linked = Trigger(place.card.id, ANA, TriggerKind.LEAVE) in triggers(facts)
        if place.card.has(Tag.BACK_TO_HAND) and way != "stolen":
            assert place.card.id not in played.state.discard and not linked, "went to the discard pile"
        else:
            assert linked == said_to_leave(place.card.text, way), f"{way}: a leave link {linked}"


#: Each way a card leaves its owner's (Ana's) Stable, as the word its leave clause says it with.
WAYS_TO_LEAVE: dict[str, Callable[[str], Event]] = {
    "sacrificed": lambda card: Sacrifice(ANA, card),
    "destroyed": lambda card: Destroy(BEN, card, ANA),
    "stolen": lambda card: Steal(BEN, card, ANA),
}


def said_to_leave(text: str, way: str) -> bool:
    """Whether a card's leave clause (the opening of its leave sentence, `leave_effect`) names that way of leaving,
    or any ("leaves")."""
    sentences = re.split(r"(?<=[.!?])\s+", text)
    found = leave_effect(sentences)
    assert found is not None, "no leave clause"
    sentence = sentences[found[0]]
    opening = sentence[: len(sentence) - len(found[1])] or sentence
    return bool(re.search(rf"\bleaves?\b|\b{way}\b", opening, re.IGNORECASE))


def begins(kind: TriggerKind) -> Scenario:
    """`begin_turn_trigger`, `begin_turn_optional`: in its owner's Stable, its effect joins the link of their next
    turn's beginning, mandatory (`TriggerKind.BEGIN`) or optional as tagged."""

    def scenario(place: Place) -> None:
        played = new_game(place)
        put(played, place.card.id)
        assert Trigger(place.card.id, ANA, kind) in triggers(to_anas_next_turn(played)), "no such beginning link"

    return scenario


def magic(place: Place) -> None:
    """A Magic card: played and not answered, its effect is a link; once done, the card is in the discard pile."""
    played = new_game(place)
    facts = record(played, Play(ANA, place.card.id), Resolve())
    assert Trigger(place.card.id, ANA, TriggerKind.MAGIC) in triggers(facts), "no Magic link"
    settle(played)
    assert place.card.id in played.state.discard, "not in the discard pile"


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
    assert place.card.id in played.state.discard, "the counter is not in the discard pile"


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


def takes_stopped(place: Place) -> None:
    """`takes_stopped`: stopping an Animal of the variation it names, its player takes it; of another, not."""
    counter(took)(place)
    variation = taken_variation(place.card.text)
    played = new_game(place)
    other = next(c.id for c in played.table.cards if c.type is CardType.BASIC and variation not in (c.variation or ""))
    record(played, Play(ANA, other, ANA), Respond(BEN, place.card.id))
    assert not took(settle(played), place), "took an Animal of another variation"


def both_drew(facts: tuple[Fact, ...], place: Place) -> bool:
    return any(isinstance(f, MayDraw) and set(f.players) == {ANA, BEN} for f in facts)


def answered(facts: tuple[Fact, ...], place: Place) -> bool:
    return any(isinstance(f, AnimalAnswered) and f.instant.card == place.card.id for f in facts)


def draws_if_instant(place: Place) -> None:
    """`draws_if_instant`: stopping an Instant, its player may draw."""
    played, neigh = neighing(place)
    record(played, neigh, Respond(ANA, place.card.id))
    assert any(isinstance(f, MayDraw) and f.players == (ANA,) for f in settle(played)), "no draw"


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


def plays_card(place: Place) -> None:
    """`plays_card`: while its effect is done, the card it plays is not warned as a second play."""
    played = new_game(place)
    basic = basic_of(played.table.cards)
    record(played, Play(ANA, basic, ANA))
    settle(played)
    effect(played, place)
    found = played.check(Play(ANA, basic, ANA, Source.DECK))
    assert not any(isinstance(x, ActionUsed | ChainOpen) for x in found), f"warned: {found}"


def shuffles_itself(place: Place) -> None:
    """`shuffles_itself`: resolved, it is in the discard pile while its effect is done."""
    played = new_game(place)
    record(played, Play(ANA, place.card.id), Resolve())
    assert played.state.chain and place.card.id in played.state.discard, "not in the discard pile"


def reshuffles(place: Place) -> None:
    """`reshuffles`: while its effect is done, a reshuffle is not warned, though the rules have none."""
    game = place.cards.decks[0].info.game
    rules = next(p.id for p in RULES.profiles.values() if p.game == game and DeckOut.RESHUFFLE not in p.deck_out)
    played = new_game(place, rules=rules)
    assert any(isinstance(x, NoReshuffle) for x in played.check(Reshuffle())), "the rules reshuffle anyway"
    effect(played, place)
    assert not any(isinstance(x, NoReshuffle) for x in played.check(Reshuffle())), "the reshuffle is warned"


def then(place: Place) -> None:
    """`then` (its wording, `then_join`): while its effect is done, its second action before its first is warned,
    and not once the first is done."""
    played = new_game(place)
    basic = basic_of(played.table.cards)
    put(played, basic)
    put(played, basic, into=BEN)
    effect(played, place)
    joined = then_join(place.card.text)
    assert joined is not None, "no two actions joined"
    first, second = joined
    assert by(played.check(ACTIONS[second](basic)), FirstNotDone, place.card.id), "the second action came first"
    record(played, ACTIONS[first](basic))
    assert not any(isinstance(x, FirstNotDone) for x in played.check(ACTIONS[second](basic))), "still warned"


#: Ana's action of a name `then_join` gives, on a card of Ben's (her own, for a sacrifice).
ACTIONS: dict[str, Callable[[str], Event]] = {
    "draw": lambda card: Draw(ANA),
    "discard": lambda card: Discard(ANA),
    "sacrifice": lambda card: Sacrifice(ANA, card),
    "destroy": lambda card: Destroy(ANA, card, BEN),
    "steal": lambda card: Steal(ANA, card, BEN),
}


# --- duties each time something happens -------------------------------------------------------------------------------


Moment = Callable[[Game, Place], tuple[Event, ...]]


def a_duty(moment: Moment, not_moment: Moment) -> Scenario:
    """An `each_...` duty: in Ana's Stable, when its moment comes (the events `moment` gives), its duty joins the
    chain; at a moment like it that its text does not name (`not_moment`), it does not."""

    def scenario(place: Place) -> None:
        for when, laid in ((moment, True), (not_moment, False)):
            played = new_game(place)
            put(played, place.card.id)
            facts = record(played, *when(played, place))
            duty = Trigger(place.card.id, ANA, TriggerKind.DUTY) in triggers(facts)
            assert duty == laid, f"{when.__name__}: a duty {duty}"

    return scenario


def a_unicorn_comes(played: Game, place: Place) -> tuple[Event, ...]:
    return (Bring(ANA, basic_of(played.table.cards), ANA),)


def an_upgrade_comes(played: Game, place: Place) -> tuple[Event, ...]:
    return (Bring(ANA, of_type(played.table.cards, CardType.UPGRADE), ANA),)


def a_card_comes_to_ben(played: Game, place: Place) -> tuple[Event, ...]:
    return (Bring(ANA, basic_of(played.table.cards), BEN),)


def bens_destroys_a_unicorn(played: Game, place: Place) -> tuple[Event, ...]:
    basic = basic_of(played.table.cards)
    put(played, basic)
    return (Destroy(BEN, basic, ANA),)


def ben_steals_a_unicorn(played: Game, place: Place) -> tuple[Event, ...]:
    basic = basic_of(played.table.cards)
    put(played, basic)
    return (Steal(BEN, basic, ANA),)


def ana_sacrifices_a_unicorn(played: Game, place: Place) -> tuple[Event, ...]:
    basic = basic_of(played.table.cards)
    put(played, basic)
    return (Sacrifice(ANA, basic),)


def ana_destroys_a_unicorn(played: Game, place: Place) -> tuple[Event, ...]:
    basic = basic_of(played.table.cards)
    put(played, basic, into=BEN)
    return (Destroy(ANA, basic, BEN),)


def ana_draws(played: Game, place: Place) -> tuple[Event, ...]:
    return (Draw(ANA),)


def ben_draws(played: Game, place: Place) -> tuple[Event, ...]:
    return (Draw(BEN),)


def a_llama_played(played: Game, place: Place) -> tuple[Event, ...]:
    return (Play(ANA, basic_of(played.table.cards, "llama"), ANA),)


def a_goat_played(played: Game, place: Place) -> tuple[Event, ...]:
    return (Play(ANA, basic_of(played.table.cards, "goat"), ANA),)


def a_basic_played(played: Game, place: Place) -> tuple[Event, ...]:
    return (Play(ANA, basic_of(played.table.cards), ANA),)


def ben_steals_it(played: Game, place: Place) -> tuple[Event, ...]:
    return (Steal(BEN, place.card.id, ANA),)


def ana_moves_it(played: Game, place: Place) -> tuple[Event, ...]:
    return (Move(ANA, place.card.id, ANA, BEN),)


# --- what a player may not play or do ---------------------------------------------------------------------------------


def neighing(place: Place) -> tuple[Game, Event]:
    """Ana plays a Basic; Ben's Neigh against it, not yet recorded."""
    played = new_game(place)
    record(played, Play(ANA, basic_of(played.table.cards), ANA))
    return played, Respond(BEN, answered_by(played))


def cannot_be_neighed(place: Place) -> None:
    """`cannot_be_neighed`: an Instant that cannot be answered (a Neigh on it is warned); a card in the Stable that
    keeps its owner's plays from being Neighed (a Neigh on one is warned, on another player's not)."""
    if place.card.type is CardType.INSTANT:
        played, _ = neighing(place)
        record(played, Respond(BEN, place.card.id))
        assert by(played.check(Respond(ANA, answered_by(played))), CannotBeAnswered, place.card.id), "answered"
        return
    played = new_game(place)
    put(played, place.card.id)
    record(played, Play(ANA, basic_of(played.table.cards), ANA))
    assert any(isinstance(x, CannotBeNeighed) for x in played.check(Respond(BEN, answered_by(played))))
    played = new_game(place)
    put(played, place.card.id)
    record(played, Play(BEN, basic_of(played.table.cards), BEN))  # another player's play may be Neighed
    assert not any(isinstance(x, CannotBeNeighed) for x in played.check(Respond(ANA, answered_by(played))))


def stops_answers(kind: type) -> Scenario:
    """`stops_neighs`, `stops_instants`: in Ben's Stable, Ben answering Ana's play is warned."""

    def scenario(place: Place) -> None:
        played = new_game(place)
        put(played, place.card.id, into=BEN)
        record(played, Play(ANA, basic_of(played.table.cards), ANA))
        assert by(played.check(Respond(BEN, answered_by(played))), kind, place.card.id), "Ben may answer"

    return scenario


def stops_playing(kind: CardType) -> Scenario:
    """`stops_upgrades`, `stops_magic`, `stops_basics`: its owner playing such a card is warned, another player
    not."""

    def scenario(place: Place) -> None:
        played = new_game(place)
        put(played, place.card.id)
        other = of_type(played.table.cards, kind, but=(Tag.NEEDS_BASIC, Tag.NEEDS_VARIATION))
        event = Play(ANA, other, None if kind is CardType.MAGIC else ANA)
        assert by(played.check(event), CannotPlay, place.card.id), "the play is not warned"
        bens = Play(BEN, other, None if kind is CardType.MAGIC else BEN)
        assert not by(played.check(bens), CannotPlay, place.card.id), "another player's play is warned"

    return scenario


def others_basics(place: Place) -> None:
    """`stops_others_basics`: in Ana's Stable, Ben playing a Basic is warned."""
    played = new_game(place)
    put(played, place.card.id)
    assert by(played.check(Play(BEN, basic_of(played.table.cards), BEN)), OthersCannotPlay, place.card.id)


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


def forbidden_effect(tag: Tag) -> Scenario:
    """`must_destroy`, `must_steal`: played under its player's own card that forbids the action, it is warned."""

    def scenario(place: Place) -> None:
        cards = with_tag(place, tag)
        played = new_game(place, cards)
        blocker = holder(cards, tag)
        put(played, blocker)
        assert by(played.check(entering(place)), EffectForbidden, blocker), "not forbidden"

    return scenario


def bans_instants(place: Place) -> None:
    """`bans_instants`: from the beginning of its owner's turn, an Instant played is warned."""
    played = at_its_turn(place)
    record(played, Draw(ANA), Play(ANA, basic_of(played.table.cards), ANA))
    assert by(played.check(Respond(BEN, answered_by(played))), InstantsBanned, place.card.id), "not banned"


def needs(kind: type, supply: Callable[[Game, Place], None]) -> Scenario:
    """`needs_basic`, `needs_variation`, `needs_all_variations`: played into a Stable or Field with nothing but
    itself, it is warned; with what it needs there (`supply`), it is not."""

    def scenario(place: Place) -> None:
        played = new_game(place, babies=False)
        assert by(played.check(entering(place)), kind, place.card.id), "played without what it needs"
        supply(played, place)
        assert not any(isinstance(x, kind) for x in played.check(entering(place))), "warned with what it needs"

    return scenario


def a_basic_in_anas(played: Game, place: Place) -> None:
    put(played, basic_of(played.table.cards))


def its_variation_in_anas(played: Game, place: Place) -> None:
    put(played, basic_of(played.table.cards, needed_variation(place.card.text)))


def every_variation_in_anas(played: Game, place: Place) -> None:
    for each in VARIATIONS:
        put(played, basic_of(played.table.cards, each))


def needs_target(place: Place) -> None:
    """`needs_target` (its wording, `needed_target`): played with nothing there to act on, it is warned; with what
    it needs there (`TARGETS`), it is not."""
    played = new_game(place, babies=False)
    assert by(played.check(entering(place)), Impossible, place.card.id), "played with nothing to act on"
    need = needed_target(place.card.text)
    assert need is not None
    TARGETS[need](played)
    found = played.check(entering(place))
    assert not any(isinstance(x, Impossible) for x in found), f"warned with {need.value} there: {found}"


def put_for_ben(kind: CardType) -> Callable[[Game], None]:
    """A card of that type put into Ben's Stable."""

    def target(played: Game) -> None:
        put(played, of_type(played.table.cards, kind), into=BEN)

    return target


def unicorn_in_discard(played: Game) -> None:
    basic = basic_of(played.table.cards)
    put(played, basic, into=BEN)
    record(played, Destroy(ANA, basic, BEN))


#: Where what a card needs to act on is put, for each need the wording reads: a `Need` added without a row fails.
TARGETS: dict[Need, Callable[[Game], None]] = {
    Need.OTHERS_UNICORN: put_for_ben(CardType.BASIC),
    Need.OTHERS_UNICORN_TO_TAKE: put_for_ben(CardType.BASIC),
    Need.OTHERS_BASIC: put_for_ben(CardType.BASIC),
    Need.OTHERS_BABY: put_for_ben(CardType.BABY),
    Need.UPGRADE_THERE_OR_DOWNGRADE_HERE: put_for_ben(CardType.UPGRADE),
    Need.ANY_UPGRADE_OR_DOWNGRADE: put_for_ben(CardType.UPGRADE),
    Need.UNICORN_IN_DISCARD: unicorn_in_discard,
}


def pays(place: Place) -> None:
    """`costs` (its wording, `costs`): played with no card to pay its cost with (Stables empty, the hand only the
    card played), it is warned; with the cards each cost acts on there, it is not."""
    played = new_game(place, babies=False)
    record(played, SetHand(ANA, 1))
    assert by(played.check(entering(place)), ActionImpossible, place.card.id), "played without paying"
    for cost in costs(place.card.text, place.card.type):
        paid = cost_card(played.table.cards, cost.kind)
        if cost.action == "discard":
            record(played, SetHand(ANA, cost.count + 1))
        for _ in range(cost.count if cost.action != "discard" else 0):
            put(played, paid, into=ANA if cost.action == "sacrifice" else BEN)
    found = played.check(entering(place))
    assert not any(isinstance(x, ActionImpossible) for x in found), f"warned with its costs there: {found}"


def cost_card(cards: CardSet, kind: str) -> str:
    """A card a cost of that kind acts on ("" any card, "unicorn", "baby", "basic", or a variation)."""
    if kind == "baby":
        return baby(cards)
    return basic_of(cards, kind if kind in VARIATIONS else None)


# --- what may not come into a Stable ----------------------------------------------------------------------------------


def kept_out(entering: Callable[[CardSet], str], where: int, kind: type, elsewhere: int | None) -> Scenario:
    """A card that keeps others out of a Stable (`no_basics_here`, `basics_only_here`, `no_babies` ...): in Ana's
    Stable, the card `entering` finds brought into the Stable at `where` (Ana's or Ben's) is warned, and brought into
    the one at `elsewhere` (when the card keeps it out of one Stable only) it is not."""

    def scenario(place: Place) -> None:
        played = new_game(place, babies=False)
        put(played, place.card.id)
        card = entering(played.table.cards)
        source = Source.NURSERY if is_baby(played, card) else Source.HAND
        assert by(played.check(Bring(ANA, card, where, source)), kind, place.card.id), "it came in"
        if elsewhere is not None:
            assert not by(played.check(Bring(ANA, card, elsewhere, source)), kind, place.card.id), "kept out there"

    return scenario


def is_baby(played: Game, card_id: str) -> bool:
    return played.table.card_of(card_id).type is CardType.BABY


# --- what keeps a card where it is ------------------------------------------------------------------------------------


Target = Callable[[CardSet, Place], str]


def guards(event: Callable[[Game, str], Event], kind: type, target: Target, guarded: bool = True) -> Scenario:
    """A protection in Ana's Stable (or the card itself): the move `event` makes on the card `target` finds there
    is warned, naming the card (not warned, when not `guarded`: a move the protection does not reach)."""

    def scenario(place: Place) -> None:
        played = new_game(place, babies=False)
        put(played, place.card.id)
        aimed = target(played.table.cards, place)
        if aimed != place.card.id:
            put(played, aimed)
        found = played.check(event(played, aimed))
        assert by(found, kind, place.card.id) == guarded, f"guarded {not guarded}: {found}"

    return scenario


def spreads_upgrades(place: Place) -> None:
    """`upgrades_everywhere`: beside it, an Upgrade protects every player's Stable as its own (Rainbow Aura in Ben's
    Stable keeps Ana's Unicorns from being destroyed); without it, Ben's only."""
    played = new_game(place, babies=False)
    cards = played.table.cards
    aura = next(c.id for c in cards if c.type is CardType.UPGRADE and c.has(Tag.PROTECTS_UNICORNS))
    put(played, aura, into=BEN)
    basic = basic_of(cards)
    put(played, basic)
    assert not by(played.check(Destroy(BEN, basic, ANA)), Protected, aura), "guarded beyond its Stable without it"
    put(played, place.card.id, into=BEN)
    assert by(played.check(Destroy(BEN, basic, ANA)), Protected, aura), "not guarded"


def both(*scenarios: Scenario) -> Scenario:
    """Each scenario played in turn: a rule and the limit of its reach."""

    def scenario(place: Place) -> None:
        for each in scenarios:
            each(place)

    return scenario


def an_upgrade(cards: CardSet, place: Place) -> str:
    return of_type(cards, CardType.UPGRADE, but=(Tag.NEEDS_BASIC,))


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


Aimed = Callable[[Game, str], Event]


def while_done(source: Callable[[CardSet], str], move: Aimed) -> Aimed:
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


def back_to_hand(place: Place) -> None:
    """`back_to_hand`: destroyed, it goes back to its owner's hand, not the discard pile; beside a card that silences
    its Unicorns' triggered effects (Blinding Light), to the discard pile."""
    played = new_game(place)
    put(played, place.card.id)
    facts = record(played, Destroy(BEN, place.card.id, ANA))
    assert SavedToHand(place.card.id, ANA, place.card.id) in facts, "not back in the hand"
    assert place.card.id not in played.state.discard
    cards = with_tag(place, Tag.SILENCES_UNICORNS)
    played = new_game(place, cards)
    put(played, holder(cards, Tag.SILENCES_UNICORNS))
    put(played, place.card.id)
    assert not any(isinstance(f, SavedToHand) for f in record(played, Destroy(BEN, place.card.id, ANA))), "silenced"
    assert place.card.id in played.state.discard, "not in the discard pile, silenced"


def saves(place: Place) -> None:
    """`saves` (its wording, `save_of`): a card of Ben's about to be destroyed (the card itself, or a Basic beside
    it) is offered to be saved by it, about to be sacrificed only when its text says so, and the save keeps it in
    Ben's Stable."""
    played = new_game(place, babies=False)
    put(played, place.card.id, into=BEN)
    save = save_of(place.card.text)
    target = place.card.id if save is not None and save.itself else basic_of(played.table.cards)
    if target != place.card.id:
        put(played, target, into=BEN)
    assert save_for(played.table.cards, played.state, target, BEN, sacrificed=False) == place.card.id, "no save offered"
    from_sacrifice = save_for(played.table.cards, played.state, target, BEN, sacrificed=True) == place.card.id
    assert save is not None and from_sacrifice == save.from_sacrifice, f"a save from a sacrifice: {from_sacrifice}"
    record(played, Save(BEN, target, place.card.id))
    assert target in played.state.players[BEN].stable, "not saved"


# --- what silences other cards ----------------------------------------------------------------------------------------


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
    found = played.check(Respond(BEN, answered_by(played)))
    assert not any(isinstance(x, CannotNeigh | CannotPlay) for x in found), f"still stopped: {found}"


def silences_downgrades(place: Place) -> None:
    """`silences_downgrades`: a Downgrade beside it forbids nothing."""
    cards = with_tag(place, Tag.STOPS_UPGRADES)
    played = new_game(place, cards)
    put(played, next(c.id for c in cards if c.has(Tag.STOPS_UPGRADES) and c.type is CardType.DOWNGRADE))
    put(played, place.card.id)
    upgrade = of_type(played.table.cards, CardType.UPGRADE, but=(Tag.NEEDS_BASIC,))
    assert not any(isinstance(x, CannotPlay) for x in played.check(Play(ANA, upgrade, ANA))), "still forbidden"


def skips_beginning(place: Place) -> None:
    """`skips_beginning`: its owner's beginning-of-turn effects do not join the chain."""
    played = new_game(place)
    put(played, next(c.id for c in played.table.cards if c.has(Tag.BEGIN_TURN_TRIGGER)))
    put(played, place.card.id)
    facts = to_anas_next_turn(played)
    assert BeginningSkipped(ANA, place.card.id) in facts and not played.state.chain, "the beginning was not skipped"


# --- the turn ---------------------------------------------------------------------------------------------------------


def skips_draw(place: Place) -> None:
    """`skips_draw`: once its beginning-of-turn effect is done, the Draw phase's draw is warned; an optional effect
    let go (a draw instead of resolving it) skips nothing."""
    played = at_its_turn(place)
    assert by(played.check(Draw(ANA)), PhaseIsSkipped, place.card.id), "the draw is not warned"
    if place.card.has(Tag.BEGIN_TURN_OPTIONAL):
        played = new_game(place)
        put(played, place.card.id)
        to_anas_next_turn(played)
        assert not any(isinstance(x, PhaseIsSkipped) for x in played.check(Draw(ANA))), "skipped, the effect let go"


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
    """`extra_action`: on a turn that begins with it in its owner's Stable, a second play is not warned, a third
    is."""
    played = at_its_turn(place)
    basic = basic_of(played.table.cards)
    record(played, Draw(ANA), Play(ANA, basic, ANA))
    settle(played)
    assert not any(isinstance(x, ActionUsed) for x in played.check(Play(ANA, basic, ANA))), "no second play"
    record(played, Play(ANA, basic, ANA))
    settle(played)
    assert any(isinstance(x, ActionUsed) for x in played.check(Play(ANA, basic, ANA))), "a third play"


def travels(place: Place) -> None:
    """`travels`: when its owner's turn ends it passes into the next player's Stable."""
    played = new_game(place)
    put(played, place.card.id)
    assert CardTravelled(place.card.id, ANA, BEN) in record(played, EndTurn()), "it stayed"


def gives_back(place: Place) -> None:
    """`gives_back_at_end`: a Unicorn taken (or given, Unicorn Cuckold) while its effect is done, as its text says
    (stolen, or moved), is said to go back when its owner's turn ends."""
    played = new_game(place)
    basic = basic_of(played.table.cards)
    put(played, basic, into=BEN)
    put(played, basic)
    effect(played, place)
    record(played, taking(place.card.text, basic))
    settle(played)
    if played.state.phase is not Phase.ACTION:
        record(played, Draw(ANA))
    back = [fact for fact in record(played, EndTurn()) if isinstance(fact, GoesBackNow)]
    assert [(fact.card, fact.owner, fact.unicorn) for fact in back] == [(place.card.id, ANA, basic)], "none goes back"


def taking(text: str, card_id: str) -> Event:
    """Ana's move of a Unicorn card its text says: given to Ben ("give one of your"), moved from Ben's Stable into
    hers, or stolen from it."""
    if re.search(r"\bgive one of your\b", text, re.IGNORECASE):
        return Move(ANA, card_id, ANA, BEN)
    if re.search(r"\bmove a Unicorn card\b", text, re.IGNORECASE):
        return Move(ANA, card_id, BEN, ANA)
    return Steal(ANA, card_id, BEN)


# --- counts, limits and wins, and the cards the 2-player variant takes out --------------------------------------------


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


def herd_bonus_proof(place: Place) -> None:
    """`herd_bonus_proof`: another player's Herd Bonus offered at the start of their turn is said not to affect its
    owner."""
    played = new_game(place)
    put(played, place.card.id)
    variation = next(v for v in ("alpaca", "llama", "goat", "ram"))
    for _ in range(played.table.profile.herd_bonus):
        put(played, basic_of(played.table.cards, variation), into=BEN)
    assert any(by((f,), HerdBonusIgnored, place.card.id) for f in record(played, EndTurn())), "not said"


def at_most_five(place: Place) -> None:
    """`at_most_five`: past 5 Unicorns in its Stable (not at 5), the tracker says to sacrifice one."""
    played = new_game(place, babies=False)
    put(played, place.card.id)
    basic = basic_of(played.table.cards)
    five = [fact for _ in range(5) for fact in record(played, Bring(ANA, basic, ANA))]
    assert not any(isinstance(f, LimitReached) for f in five), "a limit at 5"
    assert any(by((f,), LimitReached, place.card.id) for f in record(played, Bring(ANA, basic, ANA))), "no limit"


Before = Callable[[Game], tuple[Event, ...]]


def must_go(before: Before, fine: Before) -> Scenario:
    """`gone_without_unicorns`, `gone_on_empty_hand`, `moves_on_empty_hand`: arriving where its condition holds
    (no Unicorn; an empty hand: the events `before` gives), the tracker says it must go; where it does not hold
    (`fine`), it stays."""

    def scenario(place: Place) -> None:
        for events, goes in ((before, True), (fine, False)):
            played = new_game(place, babies=False)
            record(played, *events(played))
            facts = record(played, Bring(ANA, place.card.id, ANA))
            assert any(by((f,), CardMustGo, place.card.id) for f in facts) == goes, f"{events.__name__}: goes {goes}"

    return scenario


def no_unicorn(played: Game) -> tuple[Event, ...]:
    return ()


def a_unicorn(played: Game) -> tuple[Event, ...]:
    return (Bring(ANA, basic_of(played.table.cards), ANA),)


def empty_hand(played: Game) -> tuple[Event, ...]:
    return (SetHand(ANA, 0),)


def cards_in_hand(played: Game) -> tuple[Event, ...]:
    return (SetHand(ANA, 3),)


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
    """`goal_minus_two`: its owner wins with 2 fewer than the number, and not with 3 fewer."""
    played = new_game(place, babies=False)
    record(played, SetGoal(4))
    put(played, place.card.id)
    basic = basic_of(played.table.cards)
    record(played, Bring(ANA, basic, ANA))
    assert played.state.outcome is None, "a win with 1 of 4"
    record(played, Bring(ANA, basic, ANA))
    assert played.state.outcome is not None and played.state.outcome.winner == ANA, "no win with 2 of 4"


def removed_for_two(place: Place) -> None:
    """`two_player` (the rules data's `[two_player] remove`): in a game with the 2-player variant, playing it is
    warned as a card taken out of the deck; without the variant, it is not."""
    for variant in (True, False):
        played = new_game(place, two_player=variant)
        found = played.check(entering(place))
        assert (RemovedCard(place.card.id) in found) == variant, f"2-player variant {variant}: {found}"


# --- every kind, and whether a card plays it --------------------------------------------------------------------------


#: Each kind of rule (a tag's value, `magic`, `instant`, or a kind read from a card's other fields) and its scenario.
SCENARIOS: dict[str, Scenario] = {
    # effects in the chain
    "magic": magic,
    "instant": instant,
    Tag.NEIGH.value: stops,
    Tag.ENTER_TRIGGER.value: enters,
    Tag.LEAVE_TRIGGER.value: leaves,
    Tag.BEGIN_TURN_TRIGGER.value: begins(TriggerKind.BEGIN),
    Tag.BEGIN_TURN_OPTIONAL.value: begins(TriggerKind.BEGIN_OPTIONAL),
    Tag.TAKES_STOPPED.value: takes_stopped,
    Tag.BOTH_DRAW.value: counter(both_drew),
    Tag.ANSWERS_ANIMAL.value: counter(answered),
    Tag.DRAWS_IF_INSTANT.value: draws_if_instant,
    Tag.SAVES_CARD.value: saves_card,
    Tag.SKIPS_START.value: skips_start,
    Tag.PLAYS_CARD.value: plays_card,
    Tag.SHUFFLES_ITSELF.value: shuffles_itself,
    Tag.RESHUFFLES.value: reshuffles,
    "then": then,
    # duties each time something happens
    Tag.EACH_UNICORN_MOVES.value: a_duty(a_unicorn_comes, an_upgrade_comes),
    Tag.EACH_CARD_ENTERS.value: a_duty(a_unicorn_comes, a_card_comes_to_ben),
    Tag.EACH_UNICORN_LOST.value: a_duty(bens_destroys_a_unicorn, ben_steals_a_unicorn),
    Tag.EACH_UNICORN_DESTROYED.value: a_duty(bens_destroys_a_unicorn, ana_sacrifices_a_unicorn),
    Tag.EACH_CARD_DESTROYED.value: a_duty(bens_destroys_a_unicorn, ana_sacrifices_a_unicorn),
    Tag.EACH_DESTROY.value: a_duty(ana_destroys_a_unicorn, bens_destroys_a_unicorn),
    Tag.EACH_DRAW.value: a_duty(ana_draws, ben_draws),
    Tag.EACH_LLAMA_PLAYED.value: a_duty(a_llama_played, a_goat_played),
    Tag.EACH_MAGIC_PLAYED.value: a_duty(a_magic_played, a_basic_played),
    Tag.EACH_AIMED_AT.value: a_duty(ben_steals_it, ana_moves_it),
    # what a player may not play or do
    Tag.CANNOT_BE_NEIGHED.value: cannot_be_neighed,
    Tag.SUPER_NEIGH.value: cannot_be_neighed,
    Tag.STOPS_NEIGHS.value: stops_answers(CannotNeigh),
    Tag.STOPS_INSTANTS.value: stops_answers(CannotPlay),
    Tag.STOPS_UPGRADES.value: stops_playing(CardType.UPGRADE),
    Tag.STOPS_MAGIC.value: stops_playing(CardType.MAGIC),
    Tag.STOPS_BASICS.value: stops_playing(CardType.BASIC),
    Tag.STOPS_OTHERS_BASICS.value: others_basics,
    Tag.STOPS_STEALING.value: stops_own(steal_bens, CannotSteal),
    Tag.STOPS_DESTROYING.value: stops_own(destroy_bens, CannotDestroy),
    Tag.STOPS_LLAMA_NAMES.value: stops_llama_names,
    Tag.MUST_DESTROY.value: forbidden_effect(Tag.STOPS_DESTROYING),
    Tag.MUST_STEAL.value: forbidden_effect(Tag.STOPS_STEALING),
    Tag.BANS_INSTANTS.value: bans_instants,
    Tag.NEEDS_BASIC.value: needs(NeedsBasic, a_basic_in_anas),
    Tag.NEEDS_VARIATION.value: needs(NeedsVariation, its_variation_in_anas),
    Tag.NEEDS_ALL_VARIATIONS.value: needs(NeedsAllVariations, every_variation_in_anas),
    "needs_target": needs_target,
    "costs": pays,
    # what may not come into a Stable
    Tag.BASICS_ONLY_HERE.value: kept_out(basic_of, BEN, CannotEnter, elsewhere=ANA),
    Tag.NO_BASICS_HERE.value: kept_out(basic_of, ANA, CannotEnter, elsewhere=BEN),
    Tag.NO_BABIES.value: kept_out(baby, BEN, CannotEnter, elsewhere=None),
    Tag.NO_BABIES_HERE.value: kept_out(baby, ANA, CannotEnter, elsewhere=BEN),
    Tag.NO_LLAMAS_HERE.value: kept_out(of_variation("llama"), ANA, VariationKeptOut, elsewhere=BEN),
    Tag.NO_ALPACAS_HERE.value: kept_out(of_variation("alpaca"), ANA, VariationKeptOut, elsewhere=BEN),
    Tag.NO_GOATS_HERE.value: kept_out(of_variation("goat"), ANA, VariationKeptOut, elsewhere=BEN),
    Tag.NO_RAMS_HERE.value: kept_out(of_variation("ram"), ANA, VariationKeptOut, elsewhere=BEN),
    # what keeps a card where it is
    Tag.PROTECTS_UNICORNS.value: both(
        guards(bens_destroy, Protected, a_basic), guards(bens_destroy, Protected, an_upgrade, guarded=False)
    ),
    Tag.UPGRADES_EVERYWHERE.value: spreads_upgrades,
    Tag.PROTECTS_BABIES.value: both(
        guards(bens_destroy, Protected, a_baby), guards(bens_destroy, Protected, a_basic, guarded=False)
    ),
    Tag.INDESTRUCTIBLE.value: guards(bens_destroy, Indestructible, itself),
    Tag.MAGIC_PROOF.value: both(
        guards(while_done(a_magic, bens_destroy), MagicCannotDestroy, itself),
        guards(while_done(an_entering_unicorn, bens_destroy), MagicCannotDestroy, itself, guarded=False),
    ),
    Tag.MAGIC_UNTOUCHABLE.value: both(
        guards(while_done(a_magic, bens_steal), MagicCannotAffect, itself),
        guards(while_done(an_entering_unicorn, bens_steal), MagicCannotAffect, itself, guarded=False),
    ),
    Tag.TRIGGER_PROOF.value: both(
        guards(while_done(an_entering_unicorn, bens_destroy), TriggerCannotDestroy, itself),
        guards(while_done(a_magic, bens_destroy), TriggerCannotDestroy, itself, guarded=False),
    ),
    Tag.OTHERS_TRIGGER_PROOF.value: both(
        guards(while_done(an_entering_unicorn, bens_destroy), Guarded, a_basic),
        guards(while_done(a_magic, bens_destroy), Guarded, a_basic, guarded=False),
    ),
    Tag.UNICORN_EFFECT_PROOF.value: both(
        guards(while_done(an_entering_unicorn, bens_destroy), Guarded, a_basic),
        guards(while_done(a_magic, bens_destroy), Guarded, a_basic, guarded=False),
    ),
    Tag.DRAGON_PROOF.value: both(
        guards(while_done(a_dragon, bens_destroy), Guarded, a_basic),
        guards(while_done(a_magic, bens_destroy), Guarded, a_basic, guarded=False),
    ),
    Tag.BACK_TO_HAND.value: back_to_hand,
    "saves": saves,
    # what silences other cards
    Tag.SILENCES_UNICORNS.value: silences_unicorns,
    Tag.UNICORNS_EFFECTLESS.value: unicorns_effectless,
    Tag.SILENCES_DOWNGRADES.value: silences_downgrades,
    Tag.SKIPS_BEGINNING.value: skips_beginning,
    # the turn
    Tag.SKIPS_DRAW.value: skips_draw,
    Tag.ENDS_TURN.value: ends_turn,
    Tag.SKIPS_ACTION.value: skips_action,
    Tag.GIVES_UP_PHASE.value: gives_up_phase,
    Tag.EXTRA_ACTION.value: extra_action,
    Tag.TRAVELS.value: travels,
    Tag.GIVES_BACK_AT_END.value: gives_back,
    # counts, limits and wins, and the cards the 2-player variant takes out
    Tag.HAND_LIMIT_CHANGE.value: hand_limit,
    Tag.COUNTS_AS_TWO.value: counts_as_two,
    Tag.NOT_A_UNICORN_EFFECT.value: no_unicorns,
    Tag.MAKES_BASIC.value: makes_basic,
    "variation": variation,
    "two_player": removed_for_two,
    Tag.HERD_BONUS_PROOF.value: herd_bonus_proof,
    Tag.AT_MOST_FIVE.value: at_most_five,
    Tag.GONE_WITHOUT_UNICORNS.value: must_go(no_unicorn, a_unicorn),
    Tag.GONE_ON_EMPTY_HAND.value: must_go(empty_hand, cards_in_hand),
    Tag.MOVES_ON_EMPTY_HAND.value: must_go(empty_hand, cards_in_hand),
    Tag.NO_WIN.value: no_win,
    Tag.NO_WIN_WITH_BASICS.value: no_win,
    Tag.GOAL_MINUS_TWO.value: goal_minus_two,
}


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
