"""Moves the table declares rather than plays: how many cards a hand holds, how many win (for everyone or for one
player), a player who cannot win, a player who misses their next turn, a card passed from hand to hand, a ban
of Instants until the end of the turn, and an optional beginning-of-turn effect used. `moves.apply` runs them with
the other handlers (`DECLARED`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assistant.core.game import events
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.events import Event
from assistant.core.game.facts import Fact, InstantsBannedNow
from assistant.core.game.state import Draft
from assistant.core.game.table import Table


def _hand(d: Draft, player: int, change: int) -> None:
    """A known hand grows or shrinks; an unknown one stays unknown."""
    hand = d.hands[player]
    if hand is not None:
        d.hands[player] = max(0, hand + change)


def _apply_set_hand(table: Table, d: Draft, e: events.SetHand, facts: list[Fact]) -> None:
    d.hands[e.player] = e.count


def _apply_set_goal(table: Table, d: Draft, e: events.SetGoal, facts: list[Fact]) -> None:
    if e.player is None:
        d.goal = e.count
        return
    goals = list(d.goals) + [None] * (len(d.stables) - len(d.goals))
    goals[e.player] = e.count
    d.goals = tuple(goals)


def _apply_cannot_win(table: Table, d: Draft, e: events.CannotWin, facts: list[Fact]) -> None:
    others = tuple(seat for seat in d.cannot_win if seat != e.player)
    d.cannot_win = tuple(sorted(others + (e.player,))) if e.barred else others


def _apply_skip_turn(table: Table, d: Draft, e: events.SkipTurn, facts: list[Fact]) -> None:
    d.skips = d.skips + (e.player,)


def _apply_give(table: Table, d: Draft, e: events.GiveCard, facts: list[Fact]) -> None:
    _hand(d, e.player, -1)
    _hand(d, e.to, 1)


def _apply_ban(table: Table, d: Draft, e: events.BanInstants, facts: list[Fact]) -> None:
    d.instant_ban = ""
    facts.append(InstantsBannedNow("", d.current))


def _apply_use(table: Table, d: Draft, e: events.UseEffect, facts: list[Fact]) -> None:
    """The optional beginning-of-turn effect is being done: its link waits as a mandatory one (`resolve` when it is
    done), so a draw meanwhile is the effect's extra card, not the Draw phase's, and moving to the Draw phase no
    longer loses it."""
    used = using(d.chain, e.player, e.card)
    if used is None:
        return
    index, trigger = used
    link = d.chain[index]
    at = link.index(trigger)
    done = Trigger(trigger.card, trigger.owner, TriggerKind.BEGIN)
    d.chain = d.chain[:index] + (link[:at] + (done,) + link[at + 1 :],) + d.chain[index + 1 :]


def using(chain: tuple[tuple[Trigger, ...], ...], player: int, card: str) -> tuple[int, Trigger] | None:
    """The optional beginning-of-turn effect of this card and player waiting in the chain, with its link's index;
    None when there is none to use."""
    for index, link in enumerate(chain):
        for trigger in link:
            if trigger.card == card and trigger.owner == player and trigger.kind is TriggerKind.BEGIN_OPTIONAL:
                return index, trigger
    return None


DECLARED: dict[type[Event], Callable[[Table, Draft, Any, list[Fact]], None]] = {
    events.SetHand: _apply_set_hand,
    events.SetGoal: _apply_set_goal,
    events.CannotWin: _apply_cannot_win,
    events.SkipTurn: _apply_skip_turn,
    events.GiveCard: _apply_give,
    events.BanInstants: _apply_ban,
    events.UseEffect: _apply_use,
}
