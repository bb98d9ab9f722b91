"""Sentences about a game in progress (assistant/core/game.py, chain.py, tally.py, commands.py, tracker.py).

Made from events, facts and state, in the rule profile's words (Stable or Field, Unicorn or Animal).
"""

from __future__ import annotations

from assistant.core import events as ev
from assistant.core import game as gm
from assistant.core.cards import CardType
from assistant.core.chain import Link, PileCard, Trigger, TriggerKind
from assistant.core.tally import Ending, name_letters
from assistant.core.words.text import cards_count, name_list

NO_GAME = (
    "No game is being tracked. Start one with: new game, then the players' names, for example new game Ana Ben Cy."
)
NOTHING_TO_CONFIRM = "There is nothing to confirm."
NOT_RECORDED = "Not recorded."
NOTHING_TO_UNDO = "There is nothing to undo."
NOTHING_TO_REDO = "There is nothing to redo."
NOTHING_TO_ANSWER = (
    "No card is being played, so there is nothing to answer. A card brought directly into a Stable cannot be Neighed."
)
NO_SAVED_GAME = "There is no saved game to continue."
CONFIRM_QUESTION = "Record it anyway? Say yes or no."
GAME_HELP_LINES = (
    "new game Ana Ben Cy: start a game; add first Ben, rules uu-five, win 6, two player, babies red pink blue, hands.",
    "baby Ana red: a Baby from the Nursery into Ana's Stable.",
    "play rainbow aura, play slowdown into Ben: play a card; then neigh Ben, super neigh Cy, or resolve.",
    "draw, draw 2, discard, discard neigh, bring CARD, steal CARD from Ben, destroy CARD, sacrifice CARD.",
    "return CARD, take CARD from deck or discard, swap CARD with CARD, swap hands Ana Ben, move CARD to Ben.",
    "next: the next phase, or the next thing to resolve. resolve: the top of the pile or the next link. end turn.",
    "turn, tally, stable Ana, pile, chain, hands, deck, discards, nursery, log, rules, card NAME.",
    "hand Ana 5, deck 40, deck empty, reshuffle, win 6. undo, undo 3, redo. yes or no after a warning.",
)


def player_name(table: gm.Table, seat: int) -> str:
    """A player's name."""
    return table.setup.players[seat]


def game_card_name(table: gm.Table, card_id: str | None) -> str:
    """A card's printed name, or "a card" when the table did not name it."""
    if card_id is None:
        return "a card"
    card = table.cards.get(card_id)
    return card.name if card is not None else card_id


def area_of(table: gm.Table, seat: int) -> str:
    """ "Ana's Stable" or "Ana's Field"."""
    return f"{player_name(table, seat)}'s {table.profile.vocabulary.area}"


def creatures(table: gm.Table, count: int) -> str:
    """ "1 Unicorn", "3 Unicorns", "2 Animals"."""
    word = table.profile.vocabulary.creature
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


PHASE_NAMES = {
    ev.Phase.BEGINNING: "Beginning of turn phase",
    ev.Phase.DRAW: "Draw phase",
    ev.Phase.ACTION: "Action phase",
    ev.Phase.END: "End of turn phase",
}
SOURCE_NAMES = {
    ev.Source.HAND: "hand",
    ev.Source.DECK: "the deck",
    ev.Source.DISCARD: "the discard pile",
    ev.Source.NURSERY: "the Nursery",
}


def describe_event(table: gm.Table, event: ev.Event, before: gm.GameState) -> str:
    """What an event did, in the past tense, without a full stop: "Ana played Rainbow Aura"."""
    name = lambda seat: player_name(table, seat)  # noqa: E731
    card = lambda card_id: game_card_name(table, card_id)  # noqa: E731
    if isinstance(event, ev.Play):
        into = "" if event.into in (None, event.player) else f" into {area_of(table, event.into)}"
        return f"{name(event.player)} played {card(event.card)}{into}"
    if isinstance(event, ev.Respond):
        return f"{name(event.player)} played {card(event.card)}"
    if isinstance(event, ev.Resolve):
        if before.pile:
            top = before.pile[-1]
            return f"{card(top.card)} by {name(top.player)} resolved"
        if before.chain:
            return f"{link_names(table, before.chain[0])} resolved"
        return "Nothing resolved"
    if isinstance(event, ev.Bring):
        source = "" if event.source is ev.Source.HAND else f" from {SOURCE_NAMES[event.source]}"
        return f"{name(event.player)} brought {card(event.card)} into {area_of(table, event.into)}{source}"
    if isinstance(event, ev.Steal):
        return f"{name(event.player)} stole {card(event.card)} from {area_of(table, event.owner)}"
    if isinstance(event, ev.Destroy):
        return f"{name(event.player)} destroyed {card(event.card)} in {area_of(table, event.owner)}"
    if isinstance(event, ev.Sacrifice):
        return f"{name(event.player)} sacrificed {card(event.card)}"
    if isinstance(event, ev.Discard):
        return f"{name(event.player)} discarded {card(event.card)}"
    if isinstance(event, ev.ReturnToHand):
        return f"{card(event.card)} went from {area_of(table, event.owner)} back to {name(event.owner)}'s hand"
    if isinstance(event, ev.Draw):
        return f"{name(event.player)} drew {'a card' if event.count == 1 else cards_count(event.count)}"
    if isinstance(event, ev.Take):
        return f"{name(event.player)} took {card(event.card)} from {SOURCE_NAMES[event.source]} and showed it"
    if isinstance(event, ev.Swap):
        return (
            f"{card(event.card)} in {area_of(table, event.owner)} and {card(event.other_card)} in "
            f"{area_of(table, event.other_owner)} changed places"
        )
    if isinstance(event, ev.SwapHands):
        return f"{name(event.player)} and {name(event.other)} swapped hands"
    if isinstance(event, ev.Move):
        return f"{card(event.card)} moved from {area_of(table, event.owner)} to {area_of(table, event.into)}"
    if isinstance(event, ev.ToNursery):
        return f"{card(event.card)} went from {area_of(table, event.owner)} back to the Nursery"
    if isinstance(event, ev.NextPhase):
        skipped = "skipped" if event.skip else "ended"
        return f"{name(before.current)}'s {PHASE_NAMES[before.phase]} {skipped}"
    if isinstance(event, ev.EndTurn):
        to = "" if event.to is None else f", and {name(event.to)} takes the next turn"
        return f"{name(before.current)}'s turn ended{to}"
    if isinstance(event, ev.SetHand):
        return f"{name(event.player)} holds {cards_count(event.count)}"
    if isinstance(event, ev.SetDeck):
        return f"The deck holds {cards_count(event.count)}"
    if isinstance(event, ev.DeckEmpty):
        return "The deck ran out"
    if isinstance(event, ev.Reshuffle):
        return "The discard pile was shuffled into a new deck"
    if isinstance(event, ev.SetGoal):
        return f"{creatures(table, event.count)} now win"
    return type(event).__name__  # pragma: no cover - every event kind is described above


def describe_trigger(table: gm.Table, trigger: Trigger) -> str:
    """One effect in the chain: "Claw Machine, may do", "Rainbow Unicorn entering Ana's Stable"."""
    card = game_card_name(table, trigger.card)
    if trigger.kind is TriggerKind.BEGIN:
        return f"{card}, must do"
    if trigger.kind is TriggerKind.BEGIN_OPTIONAL:
        return f"{card}, may do"
    if trigger.kind is TriggerKind.HERD:
        return f"the {trigger.card.capitalize()} Herd Bonus, may do"
    if trigger.kind is TriggerKind.ENTER:
        return f"{card} entering {area_of(table, trigger.owner)}"
    if trigger.kind is TriggerKind.LEAVE:
        return f"{card} leaving {area_of(table, trigger.owner)}"
    return f"the effect of {card}, played by {player_name(table, trigger.owner)}"


def describe_link(table: gm.Table, link: Link) -> str:
    """A link of the chain: its effects, joined."""
    return name_list([describe_trigger(table, t) for t in link])


def link_names(table: gm.Table, link: Link) -> str:
    """A link by its cards' names alone: "Sadistic Ritual and Claw Machine"."""
    names = [
        f"the {t.card.capitalize()} Herd Bonus" if t.kind is TriggerKind.HERD else game_card_name(table, t.card)
        for t in link
    ]
    return name_list(list(dict.fromkeys(names)))


def _pile_card(table: gm.Table, card: PileCard) -> str:
    return f"{player_name(table, card.player)}'s {game_card_name(table, card.card)}"


def describe_fact(table: gm.Table, fact: gm.Fact, state: gm.GameState) -> str:
    """One sentence for one fact, or "" when the event's own sentence already says it."""
    if isinstance(fact, gm.PileStopped):
        stopper = _pile_card(table, fact.stopper)
        stopped = _pile_card(table, fact.stopped)
        if fact.played:
            return f"{stopper} resolves: {stopped} is Neighed and goes to the discard pile."
        return f"{stopper} resolves and stops {stopped}. Both go to the discard pile."
    if isinstance(fact, gm.PileOpenAgain):
        return f"The pile is open again: {_pile_card(table, fact.top)} is on top."
    if isinstance(fact, gm.InstantResolved):
        return f"{_pile_card(table, fact.card)} resolves."
    if isinstance(fact, gm.PlayResolved):
        played = fact.card
        card = table.cards.get(played.card)
        name = game_card_name(table, played.card)
        if played.into is not None:
            return f"{name} is played: it enters {area_of(table, played.into)}."
        if card is not None and card.type is CardType.MAGIC:
            return f"{name} is played: it takes effect, then goes to the discard pile."
        return f"{name} is played and goes to the discard pile."
    if isinstance(fact, gm.BabyToNursery):
        return f"{game_card_name(table, fact.card)} goes back to the Nursery, as Babies always do."
    if isinstance(fact, gm.LinkAdded):
        if fact.position == 1:
            return f"Effect chain: {describe_link(table, fact.link)}."
        return f"Added to the chain, in place {fact.position}: {describe_link(table, fact.link)}."
    if isinstance(fact, gm.LinkResolved):
        return "The chain is resolved." if fact.next is None else ""
    if isinstance(fact, gm.TriggersLost):
        lost = name_list([game_card_name(table, t.card) if t.kind is not TriggerKind.HERD
                          else f"the {t.card.capitalize()} Herd Bonus" for t in fact.triggers])  # fmt: skip
        return f"Optional effects not used are lost for this turn: {lost}."
    if isinstance(fact, gm.MandatoryRemain):
        must = name_list([game_card_name(table, t.card) for t in fact.triggers])
        return f"Mandatory, so still to do: {must}."
    if isinstance(fact, gm.TurnBegan):
        return f"Turn {fact.turn}: {player_name(table, fact.player)}'s turn."
    if isinstance(fact, gm.PhaseBegan):
        return f"{PHASE_NAMES[fact.phase]}."
    if isinstance(fact, gm.OverHandLimit):
        excess = fact.hand - fact.limit
        return (
            f"{player_name(table, fact.player)} holds {cards_count(fact.hand)}, over the hand limit of {fact.limit}: "
            f"discard {excess}."
        )
    if isinstance(fact, gm.DeckRanOut):
        return "The deck is empty."
    if isinstance(fact, gm.Reshuffled):
        return f"Shuffle the discard pile to make a new deck: {cards_count(fact.count)}."
    if isinstance(fact, gm.TallyChanged):
        changed = [seat for seat, (a, b) in enumerate(zip(fact.before, fact.after)) if a != b]
        return " ".join(f"{player_name(table, seat)} has {creatures(table, fact.after[seat])}." for seat in changed)
    if isinstance(fact, gm.WinWaits):
        waiting = "pile and chain are" if state.pile and state.chain else "pile is" if state.pile else "chain is"
        return (
            f"{player_name(table, fact.player)} has {creatures(table, fact.count)}, enough to win once the "
            f"{waiting} resolved."
        )
    if isinstance(fact, gm.GameOver):
        return describe_outcome(table, fact.outcome, state)
    return ""


def describe_outcome(table: gm.Table, outcome, state: gm.GameState) -> str:
    """The end of the game."""
    counts = table.tally(state)
    if outcome.ending is Ending.GOAL:
        winner = outcome.winner
        return f"{player_name(table, winner)} wins with {creatures(table, counts[winner])}! The game is over."
    if outcome.ending is Ending.NO_WINNER:
        return "The deck ran out and by these rules nobody wins. The game is over."
    tied = name_list([player_name(table, seat) for seat in outcome.tied])
    most = creatures(table, max(counts))
    if outcome.ending is Ending.MOST:
        return f"The deck ran out. {player_name(table, outcome.winner)} wins with the most, {most}. The game is over."
    letters = {seat: name_letters(state.stables[seat], table.cards) for seat in outcome.tied}
    if outcome.ending is Ending.LETTERS:
        spread = ", ".join(f"{player_name(table, s)} {letters[s]}" for s in outcome.tied)
        return (
            f"The deck ran out. {tied} tie with {most}. Letters in the names of their "
            f"{table.profile.vocabulary.creature} cards: {spread}. {player_name(table, outcome.winner)} wins. "
            "The game is over."
        )
    return (
        f"The deck ran out. {tied} tie with {most} and with {letters[outcome.tied[0]]} letters in their names: "
        "everyone loses. The game is over."
    )


def describe_objection(table: gm.Table, objection: gm.Objection) -> str:
    """Why an event looks against the rules, in one sentence."""
    o = objection
    rule = gm.Rule
    name = lambda seat: player_name(table, seat)  # noqa: E731
    card = game_card_name(table, o.card) if o.card else ""
    other = game_card_name(table, o.other) if o.other else ""
    sentences = {
        rule.GAME_OVER: lambda: "The game is over.",
        rule.NOT_YOUR_TURN: lambda: f"It is {name(o.owner)}'s turn, not {name(o.player)}'s.",
        rule.NOT_DRAWN: lambda: f"{name(o.player)} has not drawn in the Draw phase yet.",
        rule.ACTION_USED: lambda: f"{name(o.player)} has already played a card or drawn in this Action phase.",
        rule.ACTION_OVER: lambda: f"{name(o.player)}'s Action phase is over.",
        rule.CHAIN_OPEN: lambda: "Effects in the chain must resolve first: say resolve when each is done.",
        rule.INSTANT_NOT_PLAYED: lambda: f"{card} is an Instant card: it answers another player's card.",
        rule.BABY_NOT_IN_HAND: lambda: (
            f"{card} is a Baby: Babies only enter a {table.profile.vocabulary.area} from the Nursery and are never "
            "in a hand, the deck or the discard pile."
        ),
        rule.NOT_A_BABY: lambda: f"{card} is not a Baby.",
        rule.NOT_FOR_STABLE: lambda: f"{card} does not go into a {table.profile.vocabulary.area}.",
        rule.REMOVED_CARD: lambda: f"{card} was taken out of the deck for the 2-player game.",
        rule.NO_COPIES_LEFT: lambda: (
            f"The deck has {'only 1 copy' if o.number == 1 else f'{o.number} copies'} of {card}, "
            "and the tracker already sees them all."
        ),
        rule.EMPTY_HAND: lambda: f"{name(o.player)} has no cards in hand.",
        rule.NOTHING_TO_ANSWER: lambda: NOTHING_TO_ANSWER,
        rule.NOT_INSTANT: lambda: f"{card} is not an Instant card.",
        rule.CANNOT_BE_ANSWERED: lambda: f"{card} cannot be answered.",
        rule.OWN_CARD: lambda: f"The top card, {card}, is {name(o.player)}'s own: Instants answer another player.",
        rule.CANNOT_NEIGH: lambda: (
            f"{name(o.player)} cannot play Neigh cards while {other} is in {area_of(table, o.player)}."
        ),
        rule.CANNOT_BE_NEIGHED: lambda: (
            f"{name(o.player)}'s cards cannot be Neighed while {other} is in {area_of(table, o.player)}."
        ),
        rule.NOT_IN_STABLE: lambda: f"{card} is not in {area_of(table, o.owner)}.",
        rule.STEAL_OWN: lambda: f"Stealing takes a card from another player's {table.profile.vocabulary.area}.",
        rule.DESTROY_OWN: lambda: (
            f"Destroying is for another player's {table.profile.vocabulary.area}; from your own it is a sacrifice."
        ),
        rule.PROTECTED: lambda: f"{area_of(table, o.owner)} holds {other}, which protects cards there.",
        rule.NOT_IN_DISCARD: lambda: f"{card} is not in the discard pile.",
        rule.NOT_IN_NURSERY: lambda: f"{card} is not in the Nursery.",
        rule.DECK_EMPTY: lambda: f"The deck has only {cards_count(o.number)}." if o.number else "The deck is empty.",
        rule.HAND_OVER_LIMIT: lambda: (
            f"{name(o.player)} holds {cards_count(o.number)}, over the hand limit of {o.limit}: "
            f"discard {o.number - o.limit} first."
        ),
        rule.NO_RESHUFFLE: lambda: "These rules do not shuffle the discard pile into a new deck.",
        rule.NOTHING_TO_RESOLVE: lambda: "Nothing is waiting to resolve.",
    }
    return sentences[o.rule]()


def confirm_question(table: gm.Table, objections) -> str:
    """Asked before recording an event that looks against the rules."""
    reasons = " ".join(describe_objection(table, o) for o in objections)
    return f"That looks against the rules. {reasons} {CONFIRM_QUESTION}"


def describe_prompt(table: gm.Table, state: gm.GameState) -> str:
    """What the table may do now: answer the pile, resolve the chain, or the phase's choices."""
    if state.outcome is not None:
        return "Say undo to go back, or new game to play again."
    current = player_name(table, state.current)
    if state.pile:
        top = state.pile[-1]
        card = table.cards.get(top.card)
        if card is not None and (card.has("super_neigh") or card.has("cannot_be_neighed")):
            return f"{game_card_name(table, top.card)} cannot be answered: say resolve."
        neigh = game_card_name(table, table.neigh_card) if table.neigh_card else "Instant"
        return f"Any {neigh} for {_pile_card(table, top)}? Say {neigh.lower()} and a name, or resolve."
    if state.chain:
        link = state.chain[0]
        if all(t.kind.is_optional_at_beginning for t in link):
            return "Use them and say resolve, or say draw to let them go."
        if all(t.kind in _BEGIN_KINDS for t in link):
            return "Do them, then say resolve."
        return f"Next in the chain: {describe_link(table, link)}. Do it, then say resolve."
    if state.phase is ev.Phase.BEGINNING:
        return f"{current} draws a card: say draw."
    if state.phase is ev.Phase.DRAW:
        return f"{current} draws a card: say draw."
    if state.phase is ev.Phase.ACTION:
        if state.actions >= table.allowed_actions(state):
            return "Say end turn when the turn is over."
        return f"{current} plays a card or draws one more: say play and a card, or draw. Then end turn."
    limit = table.hand_limit(state, state.current)
    hand = state.players[state.current].hand
    unknown = name_list([game_card_name(table, c) for c in limit.unknown])
    extra = f" {unknown} changes the hand limit: check the card." if limit.unknown else ""
    if hand is not None and hand > limit.limit:
        excess = hand - limit.limit
        return f"{current} discards {excess}, down to the hand limit of {limit.limit}.{extra} Then say next."
    return f"The hand limit is {limit.limit}.{extra} Say next for the next turn."


_BEGIN_KINDS = (TriggerKind.BEGIN, TriggerKind.BEGIN_OPTIONAL, TriggerKind.HERD)


def describe_begin_effects(table: gm.Table, link: Link) -> str:
    """The beginning-of-turn effects, mandatory ones first."""
    must = [game_card_name(table, t.card) for t in link if t.kind is TriggerKind.BEGIN]
    may = [game_card_name(table, t.card) for t in link if t.kind is TriggerKind.BEGIN_OPTIONAL]
    herd = [t.card for t in link if t.kind is TriggerKind.HERD]
    parts = []
    if must:
        parts.append(f"must do {name_list(must)}")
    if may:
        parts.append(f"may do {name_list(may)}, lost once the Draw phase begins")
    sentence = f"Beginning of turn effects: {'; '.join(parts)}." if parts else ""
    known = dict(table.cards.base.info.herd_bonus)  # what the deck file knows of each bonus
    for variation in herd:
        kind = variation.capitalize()
        sentence += f" Herd Bonus: {table.profile.herd_bonus} or more {kind}s, so the {kind} Herd Bonus may be used."
        if known.get(variation):
            sentence += f" It does this: {known[variation]}"
    return sentence.strip()


def announce_step(table: gm.Table, step: gm.Step) -> list[str]:
    """Everything to say after an event was recorded: the event, what followed, and what the table may do now."""
    lines: list[str] = []
    if not isinstance(step.event, (ev.Resolve, ev.NextPhase, ev.EndTurn)):
        lines.append(describe_event(table, step.event, step.before) + ".")
    phases = [f for f in step.facts if isinstance(f, gm.PhaseBegan)]
    for fact in step.facts:
        if isinstance(fact, gm.PhaseBegan) and fact is not phases[-1]:
            continue  # "draw" at the start of a turn passes the Draw phase: say only where the turn is now
        if isinstance(fact, gm.LinkAdded) and any(t.kind in _BEGIN_KINDS for t in fact.link):
            sentence = describe_begin_effects(table, fact.link)
        elif (
            isinstance(fact, gm.PhaseBegan)
            and fact.phase is ev.Phase.END
            and any(isinstance(f, gm.OverHandLimit) for f in step.facts)
        ):
            sentence = f"{PHASE_NAMES[fact.phase]}."
        else:
            sentence = describe_fact(table, fact, step.after)
        if sentence:
            lines.append(sentence)
    if isinstance(step.event, ev.Resolve) and not any(
        isinstance(f, (gm.PlayResolved, gm.PileStopped, gm.InstantResolved, gm.LinkResolved)) for f in step.facts
    ):
        lines.append("Nothing was waiting to resolve.")
    if isinstance(step.event, ev.Resolve) and any(isinstance(f, gm.LinkResolved) for f in step.facts):
        lines.insert(0, describe_event(table, step.event, step.before) + ".")
    if step.after.outcome is None or not any(isinstance(f, gm.GameOver) for f in step.facts):
        lines.append(describe_prompt(table, step.after))
    return lines


def is_important_step(step: gm.Step) -> bool:
    """Turn changes and the end of the game are never dropped by speech."""
    return any(isinstance(f, (gm.TurnBegan, gm.GameOver, gm.WinWaits, gm.DeckRanOut)) for f in step.facts)
