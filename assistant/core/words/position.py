"""Sentences that describe where a game stands: the position, the pile, the chain, Stables, the tally, the log."""

from __future__ import annotations

from collections import Counter

from assistant.core.cards.card import CardType, Vocabulary
from assistant.core.game.about import About, Counted, Topic, WinTakenBack
from assistant.core.game.history import Game, Step
from assistant.core.game.rules import DeckOut
from assistant.core.game.segment import Segment, UndoRedo, Verbatim
from assistant.core.game.state import GameState
from assistant.core.game.table import Table
from assistant.core.text import cards_count, name_list
from assistant.core.words.announce import describe_prompt, waiting_of, waiting_said
from assistant.core.words.audience import Audience
from assistant.core.words.gameplay import (
    area_of,
    creatures,
    describe_link,
    describe_outcome,
    end_with,
    game_card_name,
    pile_card_name,
    player_name,
    turn_and_phase,
)
from assistant.core.words.kinds import describe_event, undone_words
from assistant.core.words.share import phone_name
from assistant.core.words.verbosity import Verbosity
from assistant.core.words.worded import lines_of, words_for

__all__ = [
    "describe_position",
    "describe_pile_cards",
    "describe_pile",
    "pile_said",
    "turn_said",
    "describe_chain",
    "describe_stable",
    "describe_tally",
    "describe_herd",
    "describe_turn",
    "describe_hands",
    "describe_draw_pile",
    "deck_out_words",
    "describe_discard",
    "describe_nursery",
    "describe_rules",
    "describe_log",
    "DECK_COUNT_GUESS",
    "DECK_COUNT_UNKNOWN",
    "game_started",
    "game_resumed",
    "describe_players",
    "undone_many",
    "what_changed",
    "changed_facts",
]

#: Said when an undo takes a win back (a decisive fact: the win said before no longer holds).


def describe_position(table: Table, state: GameState) -> str:
    """Where the game stands: turn, player, phase, and what waits."""
    if state.outcome is not None:
        return describe_outcome(table, state.outcome, state, over_first=True)
    sentence = turn_and_phase(table, state)
    if state.pile:
        sentence += f" On the pile: {describe_pile_cards(table, state)}."
    if state.chain:
        sentence += f" Chain: {len(state.chain)} {'link' if len(state.chain) == 1 else 'links'}."
    return sentence


def describe_pile_cards(table: Table, state: GameState) -> str:
    """The pile from the top down."""
    return name_list([pile_card_name(table, c) for c in reversed(state.pile)])


def describe_pile(table: Table, state: GameState, level: Verbosity = Verbosity.COACHING) -> str:
    """The Instant pile, top first, and what may be done (how to say it only when `level` coaches: a phone's page
    says it with its buttons), as one line (`pile_said`)."""
    return lines_of(pile_said(table, state, level), Audience.TABLE)[0]


def pile_said(table: Table, state: GameState, level: Verbosity = Verbosity.COACHING, at: int = 0) -> list[Segment]:
    """The Instant pile, top first, then what the table waits for now on the same line, typed as its question
    (`asking`)."""
    if not state.pile:
        return [Segment(Verbatim("The pile is empty: no card is being played."))]
    pile = end_with(f"The pile, from the top: {describe_pile_cards(table, state)}")
    return [Segment(Verbatim(pile)), *asking(table, state, level, at)]


def asking(table: Table, state: GameState, level: Verbosity, at: int) -> list[Segment]:
    """What the table waits for now (`describe_prompt`'s words), typed: a segment on the line before that tells the
    question (`Topic.QUESTION`, what waits as a value, `Waiting`) asked at `at` in the game's log, open only until
    the next move, so speech never says it once another move closed it (`SpeechQueue.closed_by`); none when the
    level says nothing of it."""
    waiting = waiting_of(table.prompt(state), level)
    prompt = waiting_said(table, waiting)
    question = About(Topic.QUESTION, at=at, source=waiting, table=table)
    return [Segment(question, (question,), joined=True)] if prompt else []


def describe_chain(table: Table, state: GameState) -> list[str]:
    """The effect chain, first link first."""
    if not state.chain:
        return ["The chain is empty."]
    links = "1 link" if len(state.chain) == 1 else f"{len(state.chain)} links"
    lines = [f"The chain has {links}, first to resolve first."]
    lines += [f"{n}: {describe_link(table, link)}." for n, link in enumerate(state.chain, start=1)]
    return lines


def describe_stable(table: Table, state: GameState, seat: int) -> str:
    """What is in one player's Stable, and how many Unicorns it counts."""
    stable = state.players[seat].stable
    counts = table.tally(state)
    names = name_list([game_card_name(table, c) for c in stable]) if stable else "nothing"
    return f"{end_with(f'{area_of(table, seat)}: {names}')} {creatures(table, counts[seat])}."


def describe_tally(table: Table, state: GameState) -> str:
    """Every player's count and the number to win."""
    counts = table.tally(state)
    parts = ", ".join(f"{player_name(table, s)} {n}" for s, n in enumerate(counts))
    return f"{table.profile.vocabulary.creature}s: {parts}. {state.goal} to win."


def describe_herd(table: Table, state: GameState, seat: int) -> str:
    """Animals per variation in a Field (Llamas Unleashed), or "" for other games."""
    if not table.profile.herd_bonus:
        return ""
    counts = table.herd(state, seat)
    if not counts:
        return ""
    parts = ", ".join(f"{n} {v.capitalize()}{'' if n == 1 else 's'}" for v, n in sorted(counts.items()))
    return f"{player_name(table, seat)}'s herd: {parts}."


def describe_turn(table: Table, state: GameState, level: Verbosity = Verbosity.COACHING) -> str:
    """Whose turn and which phase, with what the player may do (how to say it only when `level` coaches), as one
    line (`turn_said`)."""
    return lines_of(turn_said(table, state, level), Audience.TABLE)[0]


def turn_said(table: Table, state: GameState, level: Verbosity = Verbosity.COACHING, at: int = 0) -> list[Segment]:
    """Whose turn and which phase, then what the table waits for now on the same line, typed as its question
    (`asking`)."""
    return [Segment(Verbatim(describe_position(table, state))), *asking(table, state, level, at)]


def describe_hands(table: Table, state: GameState) -> str:
    """Hand sizes the tracker knows."""
    parts = [f"{player_name(table, s)} {'unknown' if p.hand is None else p.hand}" for s, p in enumerate(state.players)]
    return f"Cards in hand: {', '.join(parts)}."


def deck_out_words(rule: DeckOut, vocabulary: Vocabulary) -> str:
    """What happens when the deck runs out, "when it runs out, ...", in the game's words."""
    return {
        DeckOut.MOST_WINS: f"when it runs out, the most {vocabulary.creature}s wins",
        DeckOut.NO_WINNER: "when it runs out, the game ends with no winner",
        DeckOut.RESHUFFLE: "when it runs out, the discard pile is shuffled into a new deck",
    }[rule]


def describe_draw_pile(table: Table, state: GameState) -> str:
    """Cards left in the deck."""
    rule = deck_out_words(table.deck_out_rule, table.profile.vocabulary)
    if state.deck is None:
        return f"{DECK_COUNT_UNKNOWN} {rule[0].upper()}{rule[1:]}."
    return f"The deck holds about {cards_count(state.deck)}; {rule}."


def describe_discard(table: Table, state: GameState) -> str:
    """The discard pile, newest first."""
    if not state.discard:
        return "The discard pile is empty."
    names = [game_card_name(table, c) for c in reversed(state.discard)]
    return end_with(f"The discard pile, {cards_count(len(names))}, newest first: {name_list(names)}")


def describe_nursery(table: Table, state: GameState) -> str:
    """The Babies in the Nursery."""
    if not state.nursery:
        return "The Nursery is empty."
    counts = Counter(state.nursery)  # Llamas Unleashed has several copies of each Baby: each said once, counted
    names = [
        game_card_name(table, c) if n == 1 else f"{n} copies of {game_card_name(table, c)}" for c, n in counts.items()
    ]
    return f"The Nursery: {name_list(names)}."


def describe_rules(table: Table, state: GameState) -> str:
    """The rule profile in play."""
    p = table.profile
    variant = " 2-player variant." if table.setup.two_player else ""
    return (
        f"Rules: {p.title}. {creatures(table, state.goal)} to win. Hand limit {p.hand_limit}. "
        f"{describe_draw_pile(table, state)}{variant}"
    )


def describe_log(table: Table, game: Game, count: int = 5) -> list[str]:
    """The last few events, oldest first; each recorded from a phone says which ("from Ben's phone")."""
    if not game.log:
        return ["No events yet."]
    start = max(0, len(game.log) - count)
    lines = []
    for n in range(start, len(game.log)):
        phone = game.phone_of(game.log[n])
        made = f", from {phone_name(table.setup.players[phone.seat], phone.number)}" if phone is not None else ""
        lines.append(f"{n + 1}: {describe_event(table, game.log[n], game.state_before(n))}{made}.")
    return lines


DECK_COUNT_GUESS = "This deck's card list is incomplete, so the deck count is a guess: say deck and a number to set it."
DECK_COUNT_UNKNOWN = (
    "This deck's copy counts are not known, so the tracker does not count the deck: say deck empty when it runs "
    "out, or deck and a number to count from there."
)


def game_started(table: Table, state: GameState, level: Verbosity = Verbosity.COACHING) -> list[str]:
    """Said when a new game starts."""
    setup = table.setup
    players = name_list(list(setup.players))
    lines = [
        f"New game: {players}, clockwise. Rules: {table.profile.title}.",
        f"{creatures(table, state.goal)} to win."
        + ("" if state.deck is None else f" The deck holds about {cards_count(state.deck)} after the deal."),
    ]
    if setup.two_player:
        removed = name_list([game_card_name(table, c) for c in sorted(table.removed)])
        neigh = " Each player is handed a Neigh before the deal." if table.rules.two_player_neigh_each else ""
        lines.append(f"2-player variant: take out {removed}.{neigh}")
        if table.removed_elsewhere:  # said once, not an error: the table simply has none of these
            others = name_list([card_id.replace("-", " ").title() for card_id in table.removed_elsewhere])
            verb = "is" if len(table.removed_elsewhere) == 1 else "are"
            lines.append(f"The rulebook also lists {others}, which {verb} not in this deck.")
    if state.deck is None:
        lines.append(DECK_COUNT_UNKNOWN)
    elif not table.cards.base.info.complete:
        lines.append(DECK_COUNT_GUESS)
    babies = [c for c in table.cards if c.type is CardType.BABY]
    if not setup.babies and babies:
        example = f"baby {setup.players[0]} {babies[0].name.split()[-1].strip('()').lower()}"
        lines.append(
            f"Each player puts a Baby from the Nursery in their {table.profile.vocabulary.area}: say baby, a name "
            f"and the Baby, for example {example}."
        )
    elif setup.babies:
        placed = [f"{name} has {game_card_name(table, baby)}" for name, baby in zip(setup.players, setup.babies)]
        lines.append(f"In the {table.profile.vocabulary.area}s: {name_list(placed)}.")
    else:
        lines.append(
            f"This deck's card list names no Baby cards yet, so Babies cannot be placed by name. Import your "
            f"reference sheet to add them: table-assistant deck import FILE --base {table.cards.base.id}."
        )
    lines.append(
        f"Turn 1: {player_name(table, state.current)} goes first. {describe_prompt(table, state, level)}".strip()
    )
    return lines


def game_resumed(table: Table, game: Game) -> str:
    """Said when a saved game is continued."""
    players = name_list(list(table.setup.players))
    events = "1 event" if len(game.log) == 1 else f"{len(game.log)} events"
    return f"Continuing the game of {players}, {events}. {describe_turn(table, game.state)}"


def describe_players(table: Table) -> str:
    """The players in seating order."""
    return f"Players, clockwise: {name_list(list(table.setup.players))}."


def undone_many(table: Table, steps: list[Step], redo: bool = False, audience: Audience = Audience.TABLE) -> list[str]:
    """Said after an undo or a redo, outcome first: for an undo, the position it gives back ("Undone: Dee's Basic
    Unicorn (Purple) is back on the pile."), for a redo what was done again; then the counts now and where the
    game is, in an audience's words (`Audience.OTHER_PHONE`, `Audience.PHONE_MOVE`: never how to say a move)."""
    start, end = steps[0].before, steps[-1].after
    return [undone_words(UndoRedo(table, tuple(steps), redo), audience), *what_changed(table, start, end),
            describe_position(table, end)]  # fmt: skip


def what_changed(table: Table, start: GameState, end: GameState) -> list[str]:
    """The counts that an undo or redo changed, and a win taken back."""
    return [words_for(fact, Audience.TABLE) for fact in changed_facts(table, start, end)]


def changed_facts(table: Table, start: GameState, end: GameState) -> list[About]:
    """The states an undo or redo changed, typed: a win taken back, then the counts that changed, in one sentence."""
    facts = []
    if start.outcome is not None and end.outcome is None:
        facts.append(About(Topic.WIN, source=WinTakenBack()))
    before, after = table.tally(start), table.tally(end)
    seats = tuple(seat for seat in range(len(after)) if before[seat] != after[seat])
    if seats:
        names = tuple(player_name(table, seat) for seat in seats)
        counts = Counted(names, tuple(after[seat] for seat in seats), table.profile.vocabulary.creature, has=True)
        facts.append(About(Topic.COUNT, seats, names[0], source=counts, table=table))
    return facts
