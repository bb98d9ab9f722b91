"""Sentences of the app's table screen: the status line, the region headings, the one-key answers and the keys.

The screen is read top to bottom, one fact a line: the status line (whose turn, the phase, what may be done now),
the answer, the pile and the chain, the Stables and the history. The game's own sentences (`words.position`) say what
is in each region; these add only what the screen itself needs.
"""

from __future__ import annotations

from collections.abc import Sequence

from assistant.core.cards.card import Vocabulary
from assistant.core.game.history import Game
from assistant.core.game.state import GameState
from assistant.core.game.table import PromptKind, Table
from assistant.core.words.announce import end_turn_now, give_up_a_phase, neigh_name
from assistant.core.words.gameplay import describe_outcome, end_with, pile_card_name, player_name, turn_and_phase
from assistant.core.words.position import describe_chain, describe_pile_cards, describe_stable

__all__ = [
    "NO_GAME_STATUS",
    "SIX_KEY_MODES",
    "PILE_HEADING",
    "HISTORY_HEADING",
    "NO_GAME_TABLE",
    "PILE_EMPTY",
    "QUIT_HINT",
    "ONE_KEY_COACHING",
    "ONE_KEY_INSTANTS",
    "NO_REPLY_YET",
    "REGION_NAMES",
    "region_names",
    "stables_heading",
    "SCREEN_KEYS",
    "status_line",
    "may_do",
    "pile_lines",
    "stable_lines",
    "table_regions",
    "region_echo",
    "one_key_coaching",
    "one_key_line",
    "no_player_number",
    "no_choice_number",
    "LIST_CLOSED",
    "QUESTION_WAITING_KEY",
    "no_card_for_key",
    "held_fact",
    "PLAIN_GREETING",
    "app_heading",
]

NO_GAME_STATUS = "No game yet. Type new game and the players' names, or a card name."
#: The six-key braille mode on the status line, by `assistant.core.braille.sixkey.EntryMode` value.
SIX_KEY_MODES = {"chord": "Six-key braille: chord.", "space": "Six-key braille: dots then Space."}
PILE_HEADING = "Pile and chain:"
HISTORY_HEADING = "Earlier answers, newest first:"
NO_GAME_TABLE = "No game: nothing on the table."
PILE_EMPTY = "The pile is empty."
QUIT_HINT = "Press Control Q to quit."
ONE_KEY_COACHING = "Keys: 0, no Neigh; a player's number, that player Neighs; s and a number, a Super Neigh."
ONE_KEY_INSTANTS = "Keys: 0, no Instant; a player's number, then the number of the Instant that player plays."
NO_REPLY_YET = "Type a card name and press Enter. Type help for help."

#: The regions the cursor keys move through, top to bottom, as the help and the echo name them (Unstable
#: Unicorns; `region_names` gives them in another game's words).
REGION_NAMES = ("Status line", "Input line", "Answer", "Pile and chain", "Stables", "History")


def region_names(vocabulary: Vocabulary = Vocabulary.UNICORN) -> tuple[str, ...]:
    """The regions' names in the game's words: the Stables are "Fields" in Llamas Unleashed."""
    return tuple(f"{vocabulary.area}s" if name == "Stables" else name for name in REGION_NAMES)


def stables_heading(vocabulary: Vocabulary = Vocabulary.UNICORN) -> str:
    """The heading of the Stables region with no game: "Stables:" or "Fields:"."""
    return f"{vocabulary.area}s:"


#: The app's keys, added to the help in the app.
SCREEN_KEYS = (
    "Keys of this screen:",
    "Up and Down arrows move the cursor through the status line, the input line, the answer, the pile and chain, "
    "the Stables and the history; typing goes back to the input line.",
    "While a card waits on the pile and the input line is empty: 0 resolves it with no Neigh; "
    "a player's number, 1 to 9, says that player Neighs; s then a player's number says that player plays "
    "a Super Neigh. In a deck with no card named Neigh (Llamas Unleashed), a player's number asks which Instant "
    "that player plays, and the Instant's number, 1 to 9, answers.",
    "Escape stops speech. F2 repeats, F3 and F4 step back and forward through what was said, F5 mutes, "
    "F6 private reading, F7 changes how much is said.",
    "Control B turns six-key braille on and off. Control Q quits.",
)


def status_line(table: Table, state: GameState) -> str:
    """Turn, player, phase, and what they may do now, in a few words."""
    if state.outcome is not None:
        return describe_outcome(table, state.outcome, state)
    head = turn_and_phase(table, state)
    doing = may_do(table, state)
    return f"{head} {doing}" if doing else head


def may_do(table: Table, state: GameState) -> str:
    """What the table may do now, in a few words, with the one-key answers while a card waits."""
    prompt = table.prompt(state)
    current = player_name(table, prompt.player)
    neigh = neigh_name(table)
    match prompt.kind:
        case PromptKind.ANSWER:
            question = end_with(f"Any {neigh} for {pile_card_name(table, prompt.pile_top())}", "?")
            if table.neigh_card is None:
                return f"{question} 0 resolves, a player's number then the Instant's number plays one."
            return f"{question} 0 resolves, a player's number {neigh}s."
        case PromptKind.RESOLVE:
            return "The pile resolves: say resolve."
        case PromptKind.OPTIONAL:
            return "Optional effects: use them and resolve, or draw."
        case PromptKind.BEGINNING:
            return "Beginning of turn effects, then resolve."
        case PromptKind.CHAIN:
            return "Do the next link of the chain, then resolve."
        case PromptKind.DRAW:
            return f"{current} draws."
        case PromptKind.SKIP_DRAW:
            return f"{current} skips the Draw phase."
        case PromptKind.GIVE_UP:
            return give_up_a_phase(current)
        case PromptKind.ACTION:
            return f"{current} plays a card or draws."
        case PromptKind.DISCARD:
            return f"{current} discards down to the hand limit."
        case PromptKind.END_TURN | PromptKind.NEXT_TURN:
            return "End the turn."
        case PromptKind.TURN_ENDS:
            return end_turn_now(current)
    return ""


def pile_lines(table: Table, state: GameState) -> list[str]:
    """The pile from the top down (the order it resolves in) and the effect chain, first link first."""
    lines = [PILE_HEADING]
    lines.append(f"Pile, top first: {describe_pile_cards(table, state)}." if state.pile else PILE_EMPTY)
    lines += describe_chain(table, state)
    return lines


def stable_lines(table: Table, state: GameState) -> list[str]:
    """Each player's Stable with their count, under a heading with the number to win, in the game's words
    ("Fields, 7 Animals to win:")."""
    vocabulary = table.profile.vocabulary
    return [
        f"{vocabulary.area}s, {state.goal} {vocabulary.creature}s to win:",
        *(describe_stable(table, state, s) for s in range(len(state.players))),
    ]


def table_regions(game: Game | None, vocabulary: Vocabulary = Vocabulary.UNICORN) -> tuple[str, list[str], list[str]]:
    """The status line, the pile-and-chain lines and the Stable lines of a game, or of no game (its Stables
    headed in the words of the cards in play, `vocabulary`)."""
    if game is None:
        return NO_GAME_STATUS, [PILE_HEADING, NO_GAME_TABLE], [stables_heading(vocabulary), NO_GAME_TABLE]
    return status_line(game.table, game.state), pile_lines(game.table, game.state), stable_lines(game.table, game.state)


def region_echo(name: str, lines: Sequence[str]) -> str:
    """What is said when the cursor moves to a region: its heading once, then what it holds ("Pile and chain:
    The pile is empty.", "Fields, 7 Animals to win: Ana's Field: ..."); the region's name first when its first
    line is not its heading."""
    lines = [line for line in lines if line.strip()]
    if not lines:
        return name
    if lines[0].casefold().startswith(name.casefold()):
        heading, content = lines[0].rstrip(":"), lines[1:]
    else:
        heading, content = name, lines
    return f"{heading}: {' '.join(content)}" if content else heading


def one_key_coaching(table: Table) -> str:
    """The one-key answers, said to learners with each question of the pile: a Neigh, or which Instant."""
    return ONE_KEY_COACHING if table.neigh_card is not None else ONE_KEY_INSTANTS


def one_key_line(player: str, super_neigh: bool = False) -> str:
    """The ordinary line a one-key Neigh sends ("neigh Ben", "super neigh Ben")."""
    return f"{'super neigh' if super_neigh else 'neigh'} {player}"


def no_player_number(number: int, count: int) -> str:
    """A one-key answer's number names no player."""
    return f"No player number {number}: the players are numbered 1 to {count}."


def no_choice_number(number: int, count: int) -> str:
    """A digit pressed while numbered choices wait that is none of them (said at once, not typed)."""
    return f"No choice {number}: the choices are 1 to {count}."


#: Escape pressed while numbered choices wait: the list is closed, so the next digit is not taken as a choice.
LIST_CLOSED = "List closed."


#: A digit pressed while a yes-or-no question waits: the digit is not typed.
QUESTION_WAITING_KEY = "A question is waiting: say y or n."


def no_card_for_key(key: str) -> str:
    """A one-key answer pressed with no card on the pile to answer: it is not typed either."""
    return f"No card on the pile: {key} answers a card being played."


def held_fact(fact: str) -> str:
    """The decisive fact held on the status line until the next one."""
    return f"Last: {fact}"


PLAIN_GREETING = "Table assistant, plain mode. Type help for the commands, quit to leave."


def app_heading(deck: str) -> str:
    """Said and shown first when the app opens: its name, how to get help and to quit, and the deck chosen
    (`deck_chosen`)."""
    return f"Table assistant. F1 for help, Control Q quits. {deck}"
