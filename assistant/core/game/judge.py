"""Who wins after an event: each player against their own number to win, the players who cannot win, the limits
that bite and the cards that must go (said, and a limit's sacrifice joined to the chain), and the deck-out rule.
`moves.apply` calls `judge` once an event's moves are done."""

from __future__ import annotations

from assistant.core.cards.card import CardSet, Tag
from assistant.core.game.acting import is_basic, must_go, stable_card_with, stable_limit
from assistant.core.game.chain import Trigger, TriggerKind
from assistant.core.game.facts import (
    CardMustGo,
    Fact,
    GameOver,
    LimitReached,
    LinkAdded,
    Reshuffled,
    TallyChanged,
    WinBarred,
    WinWaits,
)
from assistant.core.game.rules import DeckOut
from assistant.core.game.state import Draft, GameState
from assistant.core.game.table import Table
from assistant.core.game.tally import Ending, Outcome, first_to_goal, most_unicorns


def judge(
    table: Table,
    state: GameState,
    d: Draft,
    before: tuple[int, ...],
    after: tuple[int, ...],
    winner_before: int | None,
    facts: list[Fact],
) -> None:
    """After an event's moves: the limits that bite (a link of the chain), the cards that must go, the wins a card
    or the table bars, then the winner or the deck-out rule."""
    barred_before = barred(table.cards, state.stables, state.cannot_win)
    goals_before = goals_of(table.cards, state.stables, state.goal, state.goals)
    stables = tuple(d.stables)
    goals = goals_of(table.cards, stables, d.goal, d.goals)
    hands, hands_before = tuple(d.hands), tuple(p.hand for p in state.players)
    for seat, (was, now) in enumerate(zip(before, after)):
        # A limit a card in a Stable sets is said when it bites: the count goes over it, or the card arrives
        # (Tiny Stable entering a Stable of 6 Unicorns); not again on every event while it stays over. Its
        # sacrifice is a triggered effect ("if you ever have more than 5"): a link of the chain, so nobody wins
        # before it is done (000: "no player can win until the effect chain is resolved").
        limit = stable_limit(table.cards, stables, seat)
        had = stable_limit(table.cards, state.stables, seat)
        if limit is not None and now > limit[1] and (now > was or had is None or was <= had[1]):
            facts.append(LimitReached(seat, limit[0], now, limit[1]))
            d.chain = d.chain + ((Trigger(limit[0], seat, TriggerKind.DUTY),),)
            facts.append(LinkAdded(d.chain[-1], len(d.chain)))
        going = must_go(table.cards, stables, hands, seat)
        if going and going != must_go(table.cards, state.stables, hands_before, seat):
            card = table.card_of(going)
            empty_hand = card.has(Tag.MOVES_ON_EMPTY_HAND) or card.has(Tag.GONE_ON_EMPTY_HAND)
            facts.append(CardMustGo(seat, going, empty_hand))
        blocker = win_barred(table.cards, stables, seat, d.cannot_win)
        reached = now >= goals[seat] and (now > was or seat not in barred_before or was < goals_before[seat])
        if blocker is not None and reached:
            facts.append(WinBarred(seat, now, blocker))
    _judge(table, d, eligible(after, barred(table.cards, stables, d.cannot_win)), goals, winner_before, facts)


def eligible(counts: tuple[int, ...], seats_barred: frozenset[int]) -> tuple[int, ...]:
    """The counts toward winning: 0 for a player in `seats_barred`, one a card keeps from winning (The Black Spot;
    `barred`)."""
    return tuple(0 if seat in seats_barred else n for seat, n in enumerate(counts)) if seats_barred else counts


def win_barred(
    cards: CardSet, stables: tuple[tuple[str, ...], ...], player: int, cannot_win: tuple[int, ...] = ()
) -> str | None:
    """What keeps a player from winning now, or None: a card in their Stable (The Black Spot: "you cannot win
    the game as long as there is a Basic Unicorn card in your Stable"; Hunger Strike: not while it is in your
    Field), or "" when the table said the player cannot win (`cannot_win`)."""
    blocker = stable_card_with(cards, stables, player, Tag.NO_WIN)
    if blocker is not None:
        return blocker
    blocker = stable_card_with(cards, stables, player, Tag.NO_WIN_WITH_BASICS)
    if blocker is not None:
        if any(is_basic(cards, stables[player], i) for i in stables[player]):
            return blocker
    return "" if player in cannot_win else None


def barred(cards: CardSet, stables: tuple[tuple[str, ...], ...], cannot_win: tuple[int, ...] = ()) -> frozenset[int]:
    """The seats that cannot win with these Stables (and those the table said cannot win)."""
    return frozenset(seat for seat in range(len(stables)) if win_barred(cards, stables, seat, cannot_win) is not None)


def goal_of(
    cards: CardSet, stables: tuple[tuple[str, ...], ...], goal: int, goals: tuple[int | None, ...], player: int
) -> int:
    """The number a player needs to win: their own number (`win 5 Ana`) or the table's, less 2 while their
    Field holds a card that lowers it (Embrace Diversity: "can win with 2 fewer"), never below 1."""
    own = goals[player] if player < len(goals) else None
    own = goal if own is None else own
    lowered = stable_card_with(cards, stables, player, Tag.GOAL_MINUS_TWO)
    return max(1, own - 2) if lowered else own


def goals_of(
    cards: CardSet, stables: tuple[tuple[str, ...], ...], goal: int, goals: tuple[int | None, ...]
) -> tuple[int, ...]:
    """Each player's number to win (`goal_of`)."""
    return tuple(goal_of(cards, stables, goal, goals, seat) for seat in range(len(stables)))


def _judge(
    table: Table,
    d: Draft,
    counts: tuple[int, ...],
    goals: tuple[int, ...],
    winner_before: int | None,
    facts: list[Fact],
) -> None:
    """Declare a winner once the pile and chain are empty (each player against their own number); apply the
    deck-out rule."""
    if d.outcome is not None:
        return
    quiet = not d.pile and not d.chain
    winner = first_to_goal(counts, goals, d.current)
    if winner is not None:
        if quiet:
            d.outcome = Outcome(Ending.GOAL, winner)
            facts.append(GameOver(d.outcome))
        elif winner_before is None or any(isinstance(f, TallyChanged) for f in facts):
            facts.append(WinWaits(winner, counts[winner]))
        return
    if not d.deck_out:
        return
    rule = table.deck_out_rule
    if rule is DeckOut.RESHUFFLE:
        d.deck_out = False
        reshuffle(table, d, facts)
    elif quiet:
        d.deck_out = False
        d.outcome = (
            most_unicorns(tuple(d.stables), table.cards, barred(table.cards, tuple(d.stables), d.cannot_win))
            if rule is DeckOut.MOST_WINS
            else Outcome(Ending.NO_WINNER)
        )
        facts.append(GameOver(d.outcome))


def reshuffle(table: Table, d: Draft, facts: list[Fact]) -> None:
    """The discard pile goes into the deck (whatever is left in it stays: the deck says how many in all)."""
    count = len(d.discard)
    left = d.deck
    d.deck = (left or 0) + count
    d.discard = ()
    facts.append(Reshuffled(count, d.deck if left else None))
