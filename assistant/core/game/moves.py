"""How an event moves the game from one state to the next: `apply(table, state, event)` and the facts it reports.

Trusts the event: `assistant/core/game/checks.py` says what looks against the rules, and the table decides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assistant.core.cards.card import CardType, Tag
from assistant.core.cards.wording import destroyed_only, save_of
from assistant.core.game import events
from assistant.core.game.acting import beginning_skipped, silenced, stable_card_with, triggers_silenced
from assistant.core.game.chain import (
    Link,
    PileCard,
    Trigger,
    TriggerKind,
    answers_animal,
    counter_drawers,
    enters_a_stable,
    first_with,
    in_play,
    is_neigh,
    movement_link,
    resolve_top,
    takes_stopped,
)
from assistant.core.game.declared import DECLARED
from assistant.core.game.duties import aimed_duties, draw_duties, loss_duties, movement_duties, play_duties
from assistant.core.game.events import Event, EventError, Gathered, Phase, Source
from assistant.core.game.facts import (
    AnimalAnswered,
    BabyToNursery,
    BackInDeck,
    BeginningSkipped,
    CardTravelled,
    DeckRanOut,
    Fact,
    GoesBackNow,
    HerdBonusIgnored,
    InstantResolved,
    InstantsBannedNow,
    LinkAdded,
    LinkResolved,
    MandatoryRemain,
    MayDraw,
    NeighHadNoEffect,
    OverHandLimit,
    PhaseBegan,
    PhaseSkipped,
    PileAnswered,
    PileOpenAgain,
    PileOpened,
    PileStopped,
    PlayResolved,
    SavedToHand,
    StartSkipped,
    TableKeeps,
    TallyChanged,
    TriggersLost,
    TurnBegan,
    TurnEndsNow,
    TurnSkipped,
)
from assistant.core.game.judge import barred, eligible, goals_of, judge, reshuffle
from assistant.core.game.state import Borrowed, Draft, GameState, skipped_by
from assistant.core.game.table import Table
from assistant.core.game.tally import first_to_goal

# Events that leave the Instant pile open; any other event first lets the pile resolve (nobody answered).
_KEEPS_PILE = (events.Respond, events.Resolve, events.SetHand, events.SetDeck, events.SetGoal, events.CannotWin)


def prepare(table: Table, state: GameState, event: Event) -> GameState:
    """The state the event will meet: an open pile nobody answered resolves first."""
    if state.pile and not isinstance(event, _KEEPS_PILE):
        draft = Draft.of(state)
        _close_pile(table, draft, [])
        return draft.freeze(state)
    return state


def apply(table: Table, state: GameState, event: Event) -> tuple[GameState, tuple[Fact, ...]]:
    """The state after the event, and the facts to announce. Trusts the event (see `check`)."""
    handler = _APPLY.get(type(event))
    if handler is None:
        raise EventError(f"{type(event).__name__} is not an event")
    d = Draft.of(state)
    facts: list[Fact] = []
    before = table.tally(state)
    barred_before = barred(table.cards, state.stables, state.cannot_win)
    goals_before = goals_of(table.cards, state.stables, state.goal, state.goals)
    winner_before = first_to_goal(eligible(before, barred_before), goals_before, state.current)
    if d.pile and not isinstance(event, _KEEPS_PILE):
        _close_pile(table, d, facts)
    doing = d.chain[0] if d.chain else None  # the effect being done as the event comes (an unanswered pile closed)
    handler(table, d, event, facts)
    _flush(table, d, facts)
    _note_borrowed(table, doing, d, event)
    _note_done(doing, d, event)
    after = table.tally_of(d.stables)
    if after != before:
        facts.append(TallyChanged(before, after))
    judge(table, state, d, before, after, winner_before, facts)
    return d.freeze(state), tuple(facts)


#: The action each event records (`GameState.done`): the defined actions (`DEFINED_ACTIONS`) and a card put back
#: into the deck or returned to a hand, each named as the tag of a card whose effect does it (`Tag.TO_DECK`...), in
#: the order a card's text puts them (a draw last: Sadistic Ritual sacrifices, then draws).
ACTION_OF: dict[type[Event], str] = {
    events.Sacrifice: "sacrifice",
    events.Destroy: "destroy",
    events.Steal: "steal",
    events.Discard: "discard",
    events.ToDeck: "to_deck",
    events.ReturnToHand: "return_to_hand",
    events.Draw: "draw",
}


def _note_done(doing: Link | None, d: Draft, event: Event) -> None:
    """The actions done, and the cards taken into a Stable (`landed`), while one link is the chain's first:
    forgotten once another link is first (or none)."""
    first = d.chain[0] if d.chain else None
    if first is None or first != doing:
        d.done, d.selected = (), ()
        return
    action = ACTION_OF.get(type(event))
    if action is not None and action not in d.done:
        d.done = d.done + (action,)
    d.selected = d.selected + landed(event)


def _note_borrowed(table: Table, doing: Link | None, d: Draft, event: Event) -> None:
    """A Unicorn card stolen or moved while the effect being done is a card's that gives it back when its owner's
    turn ends (Unicorn Lasso, Unicorn Cuckold): kept in `borrowed` until that turn ends."""
    giver = first_with(table.cards, doing, Tag.GIVES_BACK_AT_END) if doing else None
    if giver is None or not isinstance(event, (events.Steal, events.Move)):
        return
    holder = event.player if isinstance(event, events.Steal) else event.into
    if event.card in d.stables[holder]:
        d.borrowed = d.borrowed + (Borrowed(giver.card, giver.owner, event.card, event.owner, holder),)


def landed(event: Event) -> tuple[tuple[str, int], ...]:
    """The cards an event takes from one Stable into another, each with the seat whose Stable it goes to: a card
    stolen, moved, or each of two swapped (`GameState.selected`)."""
    match event:
        case events.Steal(card=card, player=player):
            return ((card, player),)
        case events.Move(card=card, into=into):
            return ((card, into),)
        case events.Swap(card=card, owner=owner, other_card=other_card, other_owner=other_owner):
            return ((card, other_owner), (other_card, owner))
    return ()


def acted_on(event: Event) -> tuple[tuple[str, int], ...]:
    """The cards in a Stable an event acts on, each with the seat whose Stable holds it: destroyed, sacrificed,
    stolen, moved, swapped, returned to a hand, put in the discard pile, sent to the Nursery or into the deck."""
    match event:
        case (
            events.Destroy()
            | events.Steal()
            | events.Move()
            | events.ReturnToHand()
            | events.ToDiscard()
            | events.ToNursery()
        ):
            return ((event.card, event.owner),)
        case events.Sacrifice(card=card, player=player):
            return ((card, player),)
        case events.Swap(card=card, owner=owner, other_card=other_card, other_owner=other_owner):
            return ((card, owner), (other_card, other_owner))
        case events.ToDeck(card=card, owner=owner) if card is not None and owner is not None:
            return ((card, owner),)
    return ()


def _close_pile(table: Table, d: Draft, facts: list[Fact]) -> None:
    while d.pile:
        _step_pile(table, d, facts)
        _flush(table, d, facts)


def _step_pile(table: Table, d: Draft, facts: list[Fact]) -> None:
    stables = tuple(d.stables)
    step = resolve_top(d.pile, table.cards, lambda below: table.neigh_shield(stables, below))
    d.pile = step.pile
    if step.resolved is not None:
        played = step.resolved
        card = table.cards.get(played.card)
        if enters_a_stable(card):
            into = played.player if played.into is None else played.into
            _enter(table, d, played.card, into)
        else:
            # "immediately takes effect and is then discarded" (000): a Magic card stays in play while its effect is
            # done, so Reset Button does not shuffle itself into the deck; resolving its link discards it (`in_play`)
            if not in_play(card):
                _to_discard(table, d, played.card, played.player, facts)
            if card is not None and card.type is CardType.MAGIC:
                d.effects.append(Trigger(played.card, played.player, TriggerKind.MAGIC))
        facts.append(PlayResolved(played))
        if card is not None and card.type is CardType.INSTANT:
            # an Instant that answered an effect or the start of a turn: its effect comes first, before what it
            # answered (Unicorn Net before the destroying it saves from)
            d.chain = ((Trigger(played.card, played.player, TriggerKind.INSTANT),),) + d.chain
            facts.append(LinkAdded(d.chain[0], 1))
    elif step.stopper is not None and step.shield is not None:  # a Neigh on a card it cannot stop
        _to_discard(table, d, step.stopper.card, step.stopper.player, facts)
        facts.append(NeighHadNoEffect(step.stopper, d.pile[-1], step.shield))
    elif step.stopper is not None and step.stopped is not None:
        stopper, stopped = step.stopper, step.stopped
        counter = table.cards.get(stopper.card)
        taken = takes_stopped(counter, table.cards.get(stopped.card))
        _to_discard(table, d, stopper.card, stopper.player, facts)
        if taken:  # "if the stopped card was of that counter's variation, the player who stopped it takes it"
            _to_hand(table, d, stopped.card, stopper.player, facts)
        else:
            _to_discard(table, d, stopped.card, stopped.player, facts)
        facts.append(PileStopped(stopper, stopped, not d.pile, taken))
        drawers = counter_drawers(counter, stopper, stopped, table.cards)
        if drawers:  # the draws are the counter's effect: a link, so a draw said now is not the turn's own draw
            d.effects.append(Trigger(stopper.card, stopper.player, TriggerKind.INSTANT))
            facts.append(MayDraw(stopper, drawers))
    elif step.instant is not None:
        instant = step.instant
        _to_discard(table, d, instant.card, instant.player, facts)
        d.effects.append(Trigger(instant.card, instant.player, TriggerKind.INSTANT))
        if answers_animal(table.cards.get(instant.card)) and d.pile:
            facts.append(AnimalAnswered(instant, d.pile[-1]))
        else:
            facts.append(InstantResolved(instant))
    if d.pile and (step.stopper is not None or step.instant is not None):
        facts.append(PileOpenAgain(d.pile[-1]))


def _flush(table: Table, d: Draft, facts: list[Fact]) -> None:
    """Turn what moved in one moment into one link of the chain. A card whose triggered effects are silenced
    in the Stable it entered or left (Blinding Light, Dragon's Blessing) adds nothing."""
    entered = [(c, seat) for c, seat in d.entered if not triggers_silenced(table.cards, d.stables[seat], c)]
    left = [(c, seat) for c, seat in d.left if not triggers_silenced(table.cards, d.stables[seat], c)]
    duties = movement_duties(table, tuple(d.stables), d.entered, d.left)
    for card_id, seat in d.entered:  # a rule the table keeps itself (Nanny Cam): said as the card arrives
        if table.card_of(card_id).has(Tag.TABLE_KEEPS) and not silenced(table.cards, d.stables[seat], card_id):
            facts.append(TableKeeps(card_id, seat))
    link = movement_link(entered, left, table.cards, d.gone) + tuple(d.effects) + tuple(duties)
    d.entered.clear()
    d.left.clear()
    d.gone.clear()
    d.effects.clear()
    if link:
        d.chain = d.chain + (link,)
        facts.append(LinkAdded(link, len(d.chain)))


def _enter(table: Table, d: Draft, card_id: str, into: int) -> None:
    d.stables[into] = d.stables[into] + (card_id,)
    d.entered.append((card_id, into))


def _leave(table: Table, d: Draft, card_id: str, owner: int) -> None:
    stable = d.stables[owner]
    if card_id in stable:
        index = stable.index(card_id)
        d.stables[owner] = stable[:index] + stable[index + 1 :]
        d.left.append((card_id, owner))


def _to_discard(table: Table, d: Draft, card_id: str | None, owner: int, facts: list[Fact]) -> None:
    card = table.cards.get(card_id) if card_id else None
    if card is not None and card.type is CardType.BABY:  # "never added to ... the discard pile" (000)
        d.nursery = d.nursery + (card.id,)
        facts.append(BabyToNursery(card.id, owner))
    else:
        d.discard = d.discard + (card_id,)


def _to_hand(table: Table, d: Draft, card_id: str, player: int, facts: list[Fact]) -> None:
    card = table.cards.get(card_id)
    if card is not None and card.type is CardType.BABY:  # "never added to ... a player's hand" (000)
        d.nursery = d.nursery + (card_id,)
        facts.append(BabyToNursery(card_id, player))
    else:
        _hand(table, d, player, 1)


def _hand(table: Table, d: Draft, player: int, change: int) -> None:
    hand = d.hands[player]
    if hand is not None:
        d.hands[player] = max(0, hand + change)


def _from_deck(table: Table, d: Draft, count: int, facts: list[Fact]) -> None:
    if count <= 0 or d.deck is None:  # a count not known is never run out from a guess: the table says so
        return
    had = d.deck
    d.deck = max(0, d.deck - count)
    if had > 0 and d.deck == 0:
        d.deck_out = True
        facts.append(DeckRanOut())


def _from_discard(table: Table, d: Draft, card_id: str) -> None:
    for wanted in (card_id, None):  # the named card, or else one the table never named
        if wanted in d.discard:
            index = len(d.discard) - 1 - d.discard[::-1].index(wanted)
            d.discard = d.discard[:index] + d.discard[index + 1 :]
            return


def _set_phase(table: Table, d: Draft, phase: Phase, facts: list[Fact]) -> None:
    if d.phase is Phase.BEGINNING and phase is not Phase.BEGINNING:
        _lose_optional(table, d, facts)
    d.phase = phase
    d.turn_ends = None  # the turn went on: an effect that would have ended it was not used
    facts.append(PhaseBegan(d.current, phase))
    if phase is Phase.END:
        hand = d.hands[d.current]
        limit = table.limit_for(tuple(d.stables), d.current).limit
        if hand is not None and hand > limit:
            facts.append(OverHandLimit(d.current, hand, limit))


def _to_phase(table: Table, d: Draft, phase: Phase, facts: list[Fact]) -> None:
    """Into a phase, or past it to the next one this turn keeps: a phase a card's effect skipped never begins
    (Special Delivery: after the Draw phase, the End of turn phase)."""
    while phase is not Phase.END and skipped_by(d.skipped, phase) is not None:
        phase = phase.after
    _set_phase(table, d, phase, facts)


def _skip(table: Table, d: Draft, phase: Phase, card: str, facts: list[Fact]) -> None:
    """A phase of this turn is skipped, by a card's effect ("" when the table said so)."""
    d.skipped = d.skipped + ((phase, card),)
    facts.append(PhaseSkipped(d.current, card, phase))


def _advance(table: Table, d: Draft, phase: Phase, facts: list[Fact]) -> None:
    while d.phase < phase:
        _set_phase(table, d, d.phase.after, facts)


def _lose_optional(table: Table, d: Draft, facts: list[Fact]) -> None:
    """ "If you move to your Draw phase without triggering an optional triggered effect, you can no longer
    trigger that effect this turn" (000); mandatory ones "you must still do" (002)."""
    lost: list[Trigger] = []
    chain: list[Link] = []
    for link in d.chain:
        kept = tuple(t for t in link if not t.kind.is_optional_at_beginning)
        lost.extend(t for t in link if t.kind.is_optional_at_beginning)
        if kept:
            chain.append(kept)
    if lost:
        d.chain = tuple(chain)
        d.lost = d.lost + tuple(t.card for t in lost)
        said = tuple(t for t in lost if not (t.kind is TriggerKind.HERD and table.passive_bonus(t.card)))
        if said:  # a passive Herd Bonus ("Your Alpacas cannot be destroyed") is no choice: nothing is lost
            facts.append(TriggersLost(said))
    remaining = tuple(t for link in d.chain for t in link if t.kind is TriggerKind.BEGIN)
    if remaining:
        facts.append(MandatoryRemain(remaining))


def _new_turn(table: Table, d: Draft, facts: list[Fact], to: int | None = None) -> None:
    if d.phase is Phase.BEGINNING:
        _lose_optional(table, d, facts)
    seats = len(d.stables)
    ending = d.current
    facts += [GoesBackNow(b.card, b.owner, b.unicorn, b.home, b.holder) for b in still_borrowed(table, d, ending)]
    d.borrowed = ()
    for card_id in [c for c in d.stables[ending] if (card := table.cards.get(c)) and card.has(Tag.TRAVELS)]:
        # "when your turn ends, pass it to the player on your left" (the 1st Edition Puppicorn)
        into = (ending + 1) % seats
        if into != ending:
            _leave(table, d, card_id, ending)
            _enter(table, d, card_id, into)
            facts.append(CardTravelled(card_id, ending, into))
    d.turn += 1
    following = (ending + 1) % seats if to is None else to
    skips = list(d.skips)
    for _ in range(seats if to is None else 0):  # "that player misses their next turn"
        if following not in skips:
            break
        skips.remove(following)
        facts.append(TurnSkipped(following))
        following = (following + 1) % seats
    d.skips = tuple(skips)
    d.current = following
    d.phase = Phase.BEGINNING
    d.drew = False
    d.actions = 0
    d.lost = ()
    d.instant_ban = None
    d.turn_ends = None
    d.skipped = ()
    facts.append(TurnBegan(d.current, d.turn))
    skipper = beginning_skipped(table.cards, d.stables[d.current])
    if skipper:
        facts.append(BeginningSkipped(d.current, skipper))
    link = table.begin_link(d.stables[d.current], d.current)
    d.granted = table.extra_plays(link)
    d.opened = tuple(t.card for t in link if t.kind.is_beginning)
    ram = first_with(table.cards, link, Tag.BANS_INSTANTS)
    if ram is not None:  # "no one can play an Instant card until that turn is over" (Unstoppable Ram)
        d.instant_ban = ram.card
        facts.append(InstantsBannedNow(ram.card, d.current))
    if link:
        d.chain = d.chain + (link,)
        facts.append(LinkAdded(link, len(d.chain)))
    for variation in (t.card for t in link if t.kind is TriggerKind.HERD):
        for seat in range(seats):  # "you are not affected by the Herd Bonuses of other players" (Un Herd Of)
            proof = (
                stable_card_with(table.cards, tuple(d.stables), seat, Tag.HERD_BONUS_PROOF)
                if seat != d.current
                else None
            )
            if proof:
                facts.append(HerdBonusIgnored(seat, proof, variation))


def still_borrowed(table: Table, s: GameState | Draft, seat: int) -> list[Borrowed]:
    """The Unicorn cards taken for a seat's turn that are still where they were taken (`GameState.borrowed`): each
    goes back when the turn ends ("When your turn ends, that Unicorn goes back where it came from", Unicorn Lasso).
    One no longer there (destroyed, moved on) has nothing to go back; a card whose triggered effects are silenced
    (Blinding Light) gives nothing back."""
    stables = s.stables
    return [
        b
        for b in s.borrowed
        if b.owner == seat
        and b.unicorn in stables[b.holder]
        and not (b.card in stables[seat] and triggers_silenced(table.cards, stables[seat], b.card))
    ]


def _only_optional_waiting(table: Table, d: Draft) -> bool:
    return all(t.kind.is_optional_at_beginning for link in d.chain for t in link)


def _apply_play(table: Table, d: Draft, e: events.Play, facts: list[Fact]) -> None:
    card = table.card_of(e.card)
    by_effect = table.playing_effect(d.chain) is not None
    _take_from(table, d, e.source, e.card, e.player, facts)
    d.effects += play_duties(table, tuple(d.stables), e.player, e.card)
    # a card that a card's effect plays at once (Dragon Kiss) is that effect's play, not the turn's
    if not by_effect and e.player == d.current and card.type is not CardType.INSTANT:
        if d.phase < Phase.ACTION and _only_optional_waiting(table, d):
            _advance(table, d, Phase.ACTION, facts)
        d.actions += 1
    into = (e.player if e.into is None else e.into) if enters_a_stable(card) else None
    d.pile = (PileCard(e.player, e.card, into, e.targets),)
    facts.append(PileOpened(d.pile[0]))


def _apply_respond(table: Table, d: Draft, e: events.Respond, facts: list[Fact]) -> None:
    _hand(table, d, e.player, -1)
    if not d.pile and not is_neigh(table.cards.get(e.card)):
        # an Instant that answers an effect or the start of a turn, not a card on the pile: it opens the pile
        # itself (a Neigh may answer it) and, once resolved, its effect is done first
        d.pile = (PileCard(e.player, e.card),)
        facts.append(PileOpened(d.pile[0]))
        return
    if not d.pile:  # a Neigh with nothing to answer (the check says so): the Instant is simply spent
        _to_discard(table, d, e.card, e.player, facts)
        return
    answered = d.pile[-1]
    d.pile = d.pile + (PileCard(e.player, e.card),)
    facts.append(PileAnswered(d.pile[-1], answered))


def _apply_resolve(table: Table, d: Draft, e: events.Resolve, facts: list[Fact]) -> None:
    if d.pile:
        _step_pile(table, d, facts)
    elif d.chain:
        link = d.chain[0]
        d.chain = d.chain[1:]
        for trigger in link:  # a Magic card's effect is done: "Send the Magic Card to the Discard Pile after use" (001)
            if trigger.kind is TriggerKind.MAGIC and in_play(table.cards.get(trigger.card)):
                _to_discard(table, d, trigger.card, trigger.owner, facts)
        facts.append(LinkResolved(link, d.chain[0] if d.chain else None))
        ender = first_with(table.cards, link, Tag.ENDS_TURN)
        if ender is not None and ender.owner == d.current and ender.card not in d.lost:
            # "If you do, your turn ends at once" (Rhinocorn): the table says whether the effect was used
            d.turn_ends = ender.card
            facts.append(TurnEndsNow(d.current, ender.card))
        skipper = first_with(table.cards, link, Tag.SKIPS_DRAW)
        if skipper is not None and skipper.owner == d.current and skipper.card not in d.lost and d.phase < Phase.ACTION:
            _skip(table, d, Phase.DRAW, skipper.card, facts)  # "If you do, you skip your Draw phase" (Llamabot-3000)
        flare = first_with(table.cards, link, Tag.SKIPS_START)
        if flare is not None and d.phase < Phase.ACTION:  # Flare Gun: no beginning-of-turn effects, no draw
            d.chain = tuple(kept for link in d.chain if (kept := tuple(t for t in link if not t.kind.is_beginning)))
            d.granted = d.opened = ()
            d.phase = Phase.ACTION
            facts += [StartSkipped(d.current, flare.card), PhaseBegan(d.current, Phase.ACTION)]


def _take_from(table: Table, d: Draft, source: Source, card_id: str, player: int, facts: list[Fact]) -> None:
    """A card leaves where it was: a hand, the deck, the discard pile or the Nursery."""
    if source is Source.HAND:
        _hand(table, d, player, -1)
    elif source is Source.DECK:
        _from_deck(table, d, 1, facts)
    elif source is Source.DISCARD:
        _from_discard(table, d, card_id)
    elif card_id in d.nursery:
        index = d.nursery.index(card_id)
        d.nursery = d.nursery[:index] + d.nursery[index + 1 :]


def _apply_bring(table: Table, d: Draft, e: events.Bring, facts: list[Fact]) -> None:
    _take_from(table, d, e.source, e.card, e.player, facts)
    _enter(table, d, e.card, e.into)
    # "you may bring a Baby Unicorn from the Nursery straight into your Stable. Should you do so, skip your Action
    # phase" (Special Delivery): the Baby brought while its effect is being done, as the turn begins
    skipper = first_with(table.cards, d.chain[0], Tag.SKIPS_ACTION) if d.chain else None
    if skipper is not None and e.source is Source.NURSERY and skipper.owner == e.into == d.current:
        if d.phase < Phase.ACTION and skipped_by(d.skipped, Phase.ACTION) is None:
            _skip(table, d, Phase.ACTION, skipper.card, facts)


def _aimed(
    table: Table,
    d: Draft,
    e: events.Steal | events.Destroy | events.ReturnToHand | events.ToDiscard | events.Move | events.Swap,
) -> None:
    """The duties of the cards an effect aims at, before they move (Static-Charged Alpaca)."""
    stables = tuple(d.stables)
    d.effects += aimed_duties(table, stables, e.card, e.owner, e.player)
    if isinstance(e, events.Swap):
        d.effects += aimed_duties(table, stables, e.other_card, e.other_owner, e.player)


def _apply_steal(table: Table, d: Draft, e: events.Steal, facts: list[Fact]) -> None:
    _aimed(table, d, e)
    _leave(table, d, e.card, e.owner)
    _enter(table, d, e.card, e.player)


def _apply_destroy(table: Table, d: Draft, e: events.Destroy, facts: list[Fact]) -> None:
    _aimed(table, d, e)
    _leave(table, d, e.card, e.owner)
    _gone(table, d, e.card, e.owner, facts)
    d.effects += loss_duties(table, tuple(d.stables), e.card, e.owner, e.player)


def _apply_sacrifice(table: Table, d: Draft, e: events.Sacrifice, facts: list[Fact]) -> None:
    _leave(table, d, e.card, e.player)
    _gone(table, d, e.card, e.player, facts, sacrificed=True)
    d.effects += loss_duties(table, tuple(d.stables), e.card, e.player, None)


def _gone(table: Table, d: Draft, card_id: str, owner: int, facts: list[Fact], sacrificed: bool = False) -> None:
    """A card sacrificed or destroyed: to the discard pile, or, while an Instant that saves it is the effect being
    done, to that Instant's player's hand (Unicorn Net: "that card comes to your hand"). Its leave effect is set off
    the way its text says (`d.gone`): a sacrifice sets off no leave effect of "If this card is destroyed"."""
    card = table.cards.get(card_id)
    if not (sacrificed and card is not None and destroyed_only(card.text)):
        d.gone.append((card_id, owner))
    saver = first_with(table.cards, d.chain[0], Tag.SAVES_CARD) if d.chain else None
    if card is not None and card.type is CardType.BABY:
        _to_discard(table, d, card_id, owner, facts)
    elif saver is not None:
        _to_hand(table, d, card_id, saver.owner, facts)
        facts.append(SavedToHand(card_id, saver.owner, saver.card))
    elif (
        card is not None
        and card.has(Tag.BACK_TO_HAND)
        and not triggers_silenced(table.cards, d.stables[owner], card_id)
    ):
        # "Should this card be sacrificed or destroyed, it goes back to your hand" (the Flying Unicorns): mandatory
        # (002: "if the effect is mandatory, you must still do it"), so the tracker moves it, and the hand follows
        _to_hand(table, d, card_id, owner, facts)
        facts.append(SavedToHand(card_id, owner, card_id))
    else:
        _to_discard(table, d, card_id, owner, facts)


def _apply_save(table: Table, d: Draft, e: events.Save, facts: list[Fact]) -> None:
    """The saved card stays; its owner pays as the saving card says: discards from hand, or the card sacrificed."""
    save = save_of(table.card_of(e.other_card).text)
    if save is not None and save.discards:
        _hand(table, d, e.player, -save.discards)
        d.discard = d.discard + (None,) * save.discards
        return
    _apply_sacrifice(table, d, events.Sacrifice(e.player, e.other_card), facts)


def _apply_discard(table: Table, d: Draft, e: events.Discard, facts: list[Fact]) -> None:
    """One card, named or not; a number of cards not named; or the whole hand: its cards, when the hand's size is
    known, go on the discard pile unnamed, and the hand is empty either way (a hand of unknown size adds nothing
    the pile can count)."""
    if e.whole:
        d.discard = d.discard + (None,) * (d.hands[e.player] or 0)
        d.hands[e.player] = 0
        return
    _hand(table, d, e.player, -e.count)
    if e.card is not None:
        _to_discard(table, d, e.card, e.player, facts)
    else:
        d.discard = d.discard + (None,) * e.count


def _apply_return(table: Table, d: Draft, e: events.ReturnToHand, facts: list[Fact]) -> None:
    _aimed(table, d, e)
    _leave(table, d, e.card, e.owner)
    _to_hand(table, d, e.card, e.owner, facts)


def _apply_to_discard(table: Table, d: Draft, e: events.ToDiscard, facts: list[Fact]) -> None:
    """Neither destroyed nor sacrificed: only a leave effect its text says of any leaving follows."""
    _aimed(table, d, e)
    _leave(table, d, e.card, e.owner)
    _to_discard(table, d, e.card, e.owner, facts)


def _apply_draw(table: Table, d: Draft, e: events.Draw, facts: list[Fact]) -> None:
    _hand(table, d, e.player, e.count)
    _from_deck(table, d, e.count, facts)
    d.effects += draw_duties(table, tuple(d.stables), e.player)
    if e.player != d.current or not _only_optional_waiting(table, d):
        return  # another player's draw, or a draw an effect in the chain asked for
    if d.phase is Phase.BEGINNING:
        _set_phase(table, d, Phase.DRAW, facts)
    if d.phase is Phase.DRAW:
        d.drew = True
        owed = table.phase_owed(d.opened, d.skipped)
        if owed is not None:  # Sticky Situation: the Draw phase kept, so the Action phase is the one given up
            _skip(table, d, Phase.ACTION, owed, facts)
        _to_phase(table, d, Phase.ACTION, facts)
    elif d.phase is Phase.ACTION and not d.chain:
        extras = len(table.extra_play_cards(d.granted, d.lost))
        if d.actions == 0:  # "Play a card ... OR DRAW an additional card" (000): the draw is the whole Action, and
            d.actions = 1 + extras  # an extra-play card (Double Dutch: "play 2 cards") gives plays, never a draw
        elif d.actions > extras:  # a draw after every play (warned): one more action
            d.actions += 1


def _apply_take(table: Table, d: Draft, e: events.Take, facts: list[Fact]) -> None:
    if e.source is not Source.HAND:  # a card taken from one's own hand stays there: nothing moves
        _take_from(table, d, e.source, e.card, e.player, facts)
    _to_hand(table, d, e.card, e.player, facts)


def _apply_swap(table: Table, d: Draft, e: events.Swap, facts: list[Fact]) -> None:
    _aimed(table, d, e)
    _leave(table, d, e.card, e.owner)
    _leave(table, d, e.other_card, e.other_owner)
    _enter(table, d, e.card, e.other_owner)
    _enter(table, d, e.other_card, e.owner)


def _apply_swap_hands(table: Table, d: Draft, e: events.SwapHands, facts: list[Fact]) -> None:
    d.hands[e.player], d.hands[e.other] = d.hands[e.other], d.hands[e.player]


def _apply_move(table: Table, d: Draft, e: events.Move, facts: list[Fact]) -> None:
    _aimed(table, d, e)
    _leave(table, d, e.card, e.owner)
    _enter(table, d, e.card, e.into)


def _apply_nursery(table: Table, d: Draft, e: events.ToNursery, facts: list[Fact]) -> None:
    _leave(table, d, e.card, e.owner)
    d.nursery = d.nursery + (e.card,)


def _apply_next(table: Table, d: Draft, e: events.NextPhase, facts: list[Fact]) -> None:
    if d.phase is Phase.END:
        _new_turn(table, d, facts)
    else:  # a phase a card's effect skipped is passed by (Llamabot-3000: from the Beginning to the Action phase)
        _to_phase(table, d, d.phase.after, facts)


def _apply_skip_phase(table: Table, d: Draft, e: events.SkipPhase, facts: list[Fact]) -> None:
    """`skip draw`, `skip action`: the phase is skipped this turn, for the card that says so (the phase Sticky
    Situation's owner gives up) or on the table's word. With nothing waiting, the turn goes past it at once when it
    is the phase being played or the next one (a Draw phase skipped from the Beginning of Turn phase)."""
    card = skipped_by(d.skipped, e.phase)
    if card is None:
        _skip(table, d, e.phase, _skipping_card(table, d, e.phase), facts)
    else:  # (said again: the fact tells the move)
        facts.append(PhaseSkipped(d.current, card, e.phase))
    if not d.chain and (d.phase is e.phase or (d.phase is Phase.BEGINNING and e.phase is Phase.DRAW)):
        _to_phase(table, d, d.phase.after, facts)


#: The tag of a card whose beginning-of-turn effect, used, skips a phase.
_SKIPS = {Phase.DRAW: Tag.SKIPS_DRAW, Phase.ACTION: Tag.SKIPS_ACTION}


def _skipping_card(table: Table, d: Draft, phase: Phase) -> str:
    """The card a phase skipped this turn is skipped for: the one its owner gives up a phase to (Sticky
    Situation), else one whose beginning-of-turn effect skips it, else "" (the table's word)."""
    owed = table.phase_owed(d.opened, d.skipped)
    if owed is not None:
        return owed
    return next((c for c in d.opened if (card := table.cards.get(c)) and card.has(_SKIPS[phase])), "")


def _apply_end_turn(table: Table, d: Draft, e: events.EndTurn, facts: list[Fact]) -> None:
    _new_turn(table, d, facts, e.to)


def _apply_set_deck(table: Table, d: Draft, e: events.SetDeck, facts: list[Fact]) -> None:
    had = d.deck
    d.deck = e.count
    if e.count == 0 and had != 0:
        d.deck_out = True
        facts.append(DeckRanOut())


def _apply_deck_empty(table: Table, d: Draft, e: events.DeckEmpty, facts: list[Fact]) -> None:
    d.deck = 0
    d.deck_out = True
    facts.append(DeckRanOut())


def _apply_reshuffle(table: Table, d: Draft, e: events.Reshuffle, facts: list[Fact]) -> None:
    d.deck_out = False
    reshuffle(table, d, facts)


def _apply_to_deck(table: Table, d: Draft, e: events.ToDeck, facts: list[Fact]) -> None:
    """A hand, a Stable or one card back into the deck: the deck grows by what went in (a Baby goes back to the
    Nursery instead, "never added to ... the deck"); a hand whose size was not known leaves the deck's count not
    known until the table says it (`deck N`)."""
    count: int | None = 0
    if e.what is Gathered.HAND:
        count = d.hands[e.player]
        d.hands[e.player] = 0
    elif e.what is Gathered.STABLE:
        for card_id in d.stables[e.player]:
            _leave(table, d, card_id, e.player)
            count = _into_deck(table, d, card_id, e.player, count, facts)
    elif e.owner is None:  # one card from the player's hand
        _hand(table, d, e.player, -1)
        count = 1
    elif e.card is not None:
        _leave(table, d, e.card, e.owner)
        count = _into_deck(table, d, e.card, e.owner, count, facts)
    d.deck = None if count is None or d.deck is None else d.deck + count
    if d.deck:
        d.deck_out = False
    facts.append(BackInDeck(count, d.deck))


def _into_deck(table: Table, d: Draft, card_id: str, owner: int, count: int | None, facts: list[Fact]) -> int | None:
    """One card from a Stable into the deck (a Baby to the Nursery, `_to_hand` says so): the count plus it."""
    card = table.cards.get(card_id)
    baby = card is not None and card.type is CardType.BABY
    if baby:
        _to_hand(table, d, card_id, owner, facts)
    return None if count is None else count + (not baby)


# Packed (fmt: skip): each event and its handler, read as a table.
_APPLY: dict[type[Event], Callable[[Table, Draft, Any, list[Fact]], None]] = {
    events.Play: _apply_play, events.Respond: _apply_respond, events.Resolve: _apply_resolve,
    events.Bring: _apply_bring, events.Steal: _apply_steal, events.Destroy: _apply_destroy,
    events.Sacrifice: _apply_sacrifice, events.Discard: _apply_discard, events.ReturnToHand: _apply_return,
    events.Draw: _apply_draw, events.Take: _apply_take, events.Swap: _apply_swap,
    events.SwapHands: _apply_swap_hands, events.Move: _apply_move, events.ToNursery: _apply_nursery,
    events.NextPhase: _apply_next, events.EndTurn: _apply_end_turn, events.SkipPhase: _apply_skip_phase,
    events.SetDeck: _apply_set_deck, events.DeckEmpty: _apply_deck_empty, events.Reshuffle: _apply_reshuffle,
    events.ToDeck: _apply_to_deck, events.Save: _apply_save, events.ToDiscard: _apply_to_discard, **DECLARED,
}  # fmt: skip
