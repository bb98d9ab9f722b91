"""From a parsed command to the event it records: one builder per event verb (the verb table, `verbs.py`, says
which), given the command's card phrases resolved to cards and the current state.

`CommandError` when a player is unknown or a needed owner cannot be worked out. Nothing here checks the rules:
that is `Table.check`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from assistant.core.cards.card import Card, CardType, normalize
from assistant.core.game import events
from assistant.core.game.chain import enters_a_stable
from assistant.core.game.events import Event, Gathered, Phase, Source
from assistant.core.game.state import GameState
from assistant.core.game.table import Table
from assistant.core.language.parser import MAX_GOAL, SOURCES, Command, CommandError
from assistant.core.text import clean_untrusted
from assistant.core.words.errors import (
    NAME_MISSING,
    ambiguous_player,
    goal_out_of_range,
    no_neigh_card,
    unknown_player,
    who_plays,
    whose_stable,
)


def find_player(phrase: str, names: tuple[str, ...]) -> int:
    """The seat of the player a phrase names: the whole name, or a start only one name has (case ignored).

    The phrase is cleaned first, so "neigh ESC[2JBen" still finds Ben."""
    phrase = clean_untrusted(phrase, 60)
    key = normalize(phrase)
    if not key:
        raise CommandError(NAME_MISSING)
    exact = [seat for seat, name in enumerate(names) if normalize(name) == key]
    if exact:
        return exact[0]
    starts = [seat for seat, name in enumerate(names) if normalize(name).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise CommandError(ambiguous_player(phrase, [names[s] for s in starts]))
    raise CommandError(unknown_player(phrase, names))


def find_baby(cards: Iterable[Card], phrase: str, prefer: str | None = None) -> list[Card]:
    """Baby cards whose name or id contains the phrase ("red" → Baby Unicorn (Red)); when several fit and only one
    is of the deck `prefer` names (the base deck), that one ("red" with the Dragons added: not Baby Dragoncorn)."""
    found = _babies(cards, phrase)
    preferred = [c for c in found if c.deck == prefer]
    return preferred if len(found) > 1 and len(preferred) == 1 else found


def _babies(cards: Iterable[Card], phrase: str) -> list[Card]:
    key = normalize(phrase)
    babies = [c for c in cards if c.type is CardType.BABY]
    exact = [c for c in babies if normalize(c.name) == key or normalize(c.id) == key]
    if exact:
        return exact
    typed = [w for w in re.split(r"\W+", phrase.lower()) if w and w != "baby"]
    found = [c for c in babies if all(w in c.name.lower() or w in c.id for w in typed)] if typed else []
    # "narwhal" fits Baby Narwhal exactly, not the Unicorns: prefer names whose last word is the phrase.
    tight = [c for c in found if normalize(c.name.split()[-1]) == key]
    return tight or found


def cards_with_words(cards: Iterable[Card], phrase: str) -> list[Card]:
    """Cards whose name has a word starting with each word typed ("basic red" → Basic Unicorn (Red))."""
    typed = [w for w in (normalize(w) for w in phrase.split()) if w]
    if not typed:
        return []
    return [card for card in cards if all(any(n.startswith(w) for n in _name_words(card.name)) for w in typed)]


@functools.lru_cache(maxsize=2048)
def _name_words(name: str) -> tuple[str, ...]:
    """A card name's words, folded ("Basic Unicorn (Red)" → basic, unicorn, red); remembered per name."""
    return tuple(word for word in (normalize(w) for w in re.split(r"[\s()\-]+", name)) if word)


def owners_of(state: GameState, card_id: str, exclude: int | None = None) -> list[int]:
    """Seats whose Stable holds the card, leaving out `exclude`."""
    return [seat for seat, p in enumerate(state.players) if card_id in p.stable and seat != exclude]


@dataclass(frozen=True)
class Context:
    """What a builder works from: the command, its cards resolved, the table and the state."""

    command: Command
    cards: dict[str, Card]
    """Each card phrase of the command, resolved."""
    table: Table
    state: GameState

    @property
    def actor(self) -> int:
        """The player the command acts for: the one named first ("Ben draw"), else the current player."""
        if self.command.actor:
            return find_player(self.command.actor, self.table.setup.players)
        return self.state.current

    def card(self, phrase: str | None = None) -> Card:
        """The card a phrase was resolved to (the command's first card phrase by default)."""
        return self.cards[phrase if phrase is not None else self.command.card or ""]

    def player(self, phrase: str | None, default: int) -> int:
        """The seat a player phrase names, or the default when none was said."""
        return default if phrase is None else find_player(phrase, self.table.setup.players)

    def holder(self, phrase: str | None, card_id: str, exclude: int | None) -> int:
        """Whose Stable holds the card: the player named, else the only other Stable that holds it."""
        if phrase is not None:
            return find_player(phrase, self.table.setup.players)
        seats = owners_of(self.state, card_id, exclude)
        if len(seats) == 1:
            return seats[0]
        if not seats and exclude is not None and card_id in self.state.players[exclude].stable:
            return exclude
        raise CommandError(whose_stable(self.table.card_of(card_id).name))


def build_neigh(c: Context) -> Event:
    """neigh NAME / super neigh NAME: that player answers the top of the pile (the card just read, if an Instant)."""
    command = c.command
    if command.card is not None:
        card_id: str | None = c.card().id
    else:
        card_id = c.table.super_neigh_card if command.verb == "super-neigh" else c.table.neigh_card
    if card_id is None:
        raise CommandError(no_neigh_card(command.verb == "super-neigh"))
    who = c.player(command.target, c.actor if command.actor else -1)
    if who < 0:
        raise CommandError(who_plays(command.verb.replace("-", " ")))
    return events.Respond(who, card_id)


def build_play(c: Context) -> Event:
    """play CARD [into NAME] [from deck|discard] [targeting NAME and NAME]: an Instant answers the pile; Unicorns,
    Upgrades and Downgrades go into a Stable; a card's effect may play a card from the deck or the discard pile
    (Dragon Kiss); the players its effect aims at, when declared, go with the play (`CommandError` naming the
    players for a name that is no player's)."""
    card = c.card()
    source = SOURCES.get(c.command.word or "hand", Source.HAND)
    if card.type is CardType.INSTANT and source is Source.HAND:
        return events.Respond(c.actor, card.id)  # it answers the pile's top card, or else the effect being done
    into = c.player(c.command.target, c.actor) if enters_a_stable(card) else None
    aimed = tuple(dict.fromkeys(c.player(phrase, c.actor) for phrase in c.command.aims))  # each seat once
    return events.Play(c.actor, card.id, into, source, aimed)


def build_bring(c: Context) -> Event:
    """bring CARD [into NAME] [from SOURCE]: straight into a Stable, not played (a Baby from the Nursery)."""
    card = c.card()
    source = SOURCES.get(c.command.word or "hand", Source.HAND)
    if card.type is CardType.BABY and c.command.word is None:
        source = Source.NURSERY
    return events.Bring(c.actor, card.id, c.player(c.command.target, c.actor), source)


def build_baby(c: Context) -> Event:
    """baby NAME BABY: a Baby from the Nursery into that player's Stable."""
    into = c.player(c.command.target, c.actor)
    return events.Bring(into, c.card().id, into, Source.NURSERY)


def build_nursery(c: Context) -> Event:
    """nursery BABY [from NAME]: a Baby back to the Nursery."""
    card_id = c.card().id
    return events.ToNursery(c.actor, card_id, c.holder(c.command.target, card_id, None))


def build_steal(c: Context) -> Event:
    """steal CARD [from NAME]."""
    card_id = c.card().id
    return events.Steal(c.actor, card_id, c.holder(c.command.target, card_id, c.actor))


def build_destroy(c: Context) -> Event:
    """destroy CARD [from NAME]."""
    card_id = c.card().id
    return events.Destroy(c.actor, card_id, c.holder(c.command.target, card_id, c.actor))


def build_sacrifice(c: Context) -> Event:
    """sacrifice CARD: from the actor's own Stable."""
    return events.Sacrifice(c.actor, c.card().id)


def build_use(c: Context) -> Event:
    """use CARD: an optional beginning-of-turn effect of a card in the actor's Stable."""
    return events.UseEffect(c.actor, c.card().id)


def build_save(c: Context) -> Event:
    """save CARD [from NAME] with CARD: the owner of the card saves it with a card of their Stable."""
    card_id = c.card().id
    return events.Save(c.holder(c.command.target, card_id, None), card_id, c.card(c.command.other_card).id)


def build_return(c: Context) -> Event:
    """return CARD [from NAME]: back to its owner's hand; return CARD [from NAME] to the deck: into the deck."""
    card_id = c.card().id
    owner = c.holder(c.command.target, card_id, None)
    if c.command.word == "deck":
        return events.ToDeck(c.actor, Gathered.CARD, card_id, owner)
    if c.command.word == "discard":
        return events.ToDiscard(c.actor, card_id, owner)
    return events.ReturnToHand(c.actor, card_id, owner)


def build_discard(c: Context) -> Event:
    """discard [CARD | N | hand]: one card from hand, named or not; a number of cards, not named; the whole hand."""
    if c.command.word == "hand":
        return events.Discard(c.actor, whole=True)
    if c.command.number is not None:
        return events.Discard(c.actor, count=c.command.number)
    return events.Discard(c.actor, c.card().id if c.command.card else None)


def build_draw(c: Context) -> Event:
    """draw [N]."""
    return events.Draw(c.actor, 1 if c.command.number is None else c.command.number)


def build_take(c: Context) -> Event:
    """take CARD from deck|discard."""
    return events.Take(c.actor, c.card().id, SOURCES[c.command.word or "deck"])


def build_swap(c: Context) -> Event:
    """swap CARD [from NAME] with CARD [from NAME]: two cards in two Stables change places."""
    first, second = c.card().id, c.card(c.command.other_card).id
    owner = c.holder(c.command.target, first, None)
    return events.Swap(c.actor, first, owner, second, c.holder(c.command.other, second, owner))


def build_swap_hands(c: Context) -> Event:
    """swap hands NAME [NAME]: with one name, the actor and that player."""
    if c.command.other is None:
        return events.SwapHands(c.actor, c.player(c.command.target, c.actor))
    return events.SwapHands(c.player(c.command.target, c.actor), c.player(c.command.other, c.actor))


def build_move(c: Context) -> Event:
    """move CARD [from NAME] to NAME."""
    card_id = c.card().id
    return events.Move(c.actor, card_id, c.holder(c.command.target, card_id, None), c.player(c.command.other, c.actor))


def build_next(c: Context) -> Event:
    """next: resolve what waits, or else the next phase."""
    return events.Resolve() if c.state.pile or c.state.chain else events.NextPhase()


def build_resolve(c: Context) -> Event:
    """resolve: the top of the pile, or the first link of the chain."""
    return events.Resolve()


def build_skip(c: Context) -> Event:
    """skip: the current phase is skipped; skip draw, skip action: that phase of this turn (a card's effect)."""
    return events.NextPhase(skip=True) if c.command.word is None else events.SkipPhase(Phase(c.command.word))


def build_end_turn(c: Context) -> Event:
    """end turn [NAME]."""
    target = c.command.target
    return events.EndTurn(None if target is None else find_player(target, c.table.setup.players))


def build_hand(c: Context) -> Event:
    """hand NAME N: the table reports a hand size."""
    return events.SetHand(c.player(c.command.target, c.actor), c.command.number or 0)


def build_deck(c: Context) -> Event:
    """deck N: the table reports the deck's size (0: it ran out)."""
    return events.DeckEmpty() if c.command.number == 0 else events.SetDeck(c.command.number or 0)


def build_deck_empty(c: Context) -> Event:
    """deck empty: the deck ran out."""
    return events.DeckEmpty()


def build_reshuffle(c: Context) -> Event:
    """reshuffle: the discard pile becomes the deck."""
    return events.Reshuffle()


def build_shuffle(c: Context) -> Event:
    """shuffle hand|stable|discard into deck, shuffle a card from hand into deck, shuffle CARD into deck: back
    into the deck (the discard pile: a reshuffle)."""
    word = c.command.word
    if word == "discard":
        return events.Reshuffle()
    if word in ("hand", "stable"):
        return events.ToDeck(c.player(c.command.target, c.actor), Gathered(word))
    if word == "hand-card":
        return events.ToDeck(c.actor, Gathered.CARD)
    card_id = c.card().id
    return events.ToDeck(c.actor, Gathered.CARD, card_id, c.holder(c.command.target, card_id, None))


def build_win(c: Context) -> Event:
    """win N: the number to win; with a player named (win N Ana, Ana win N), that player's own number."""
    number = c.command.number or 0
    if not 1 <= number <= MAX_GOAL:
        raise CommandError(goal_out_of_range(MAX_GOAL))
    named = c.command.target or c.command.actor
    return events.SetGoal(number, None if named is None else find_player(named, c.table.setup.players))


def build_miss(c: Context) -> Event:
    """Ben misses next turn, miss turn Ben: that player's next turn passes them by."""
    return events.SkipTurn(c.player(c.command.target, c.actor))


def build_cannot_win(c: Context) -> Event:
    """Ana cannot win, cannot win Ana: the table says a card keeps her from winning."""
    return events.CannotWin(c.player(c.command.target, c.actor))


def build_can_win(c: Context) -> Event:
    """Ana can win: what kept her from winning is gone."""
    return events.CannotWin(c.player(c.command.target, c.actor), barred=False)


def build_give(c: Context) -> Event:
    """give [CARD] to NAME: a card passes from the actor's hand to that player's."""
    card_id = c.card().id if c.command.card else None
    return events.GiveCard(c.actor, find_player(c.command.target or "", c.table.setup.players), card_id)


def build_ban(c: Context) -> Event:
    """no instants this turn: nobody may play an Instant until the end of the turn."""
    return events.BanInstants()
