"""Sentences for what cannot be done: commands not understood, unknown players, damaged or unwritable saves."""

from __future__ import annotations

from assistant.core.cards.card import Card
from assistant.core.game.about import WhichCard, WhichInstant
from assistant.core.text import clean_untrusted, name_list
from assistant.core.words.cardtext import choice_name, numbered_names
from assistant.core.words.entry import spoken_query

__all__ = [
    "stray_digits",
    "line_numbers",
    "save_damaged",
    "save_unusable",
    "save_failed",
    "unknown_player",
    "ambiguous_player",
    "whose_stable",
    "choose_card_for",
    "which_card",
    "no_card_for",
    "script_unreadable",
    "save_damaged_unrepaired",
    "NAME_MISSING",
    "VERBOSITY_LEVELS",
    "TAKE_FROM_WHERE",
    "SHUFFLE_WHAT",
    "SKIP_WHICH",
    "SWAP_HANDS_NAMES",
    "GIVE_TO_WHOM",
    "HAND_NAME_NUMBER",
    "discard_how_many",
    "NEW_GAME_OVER_GAME",
    "DECKS_AT_START",
    "NAMES_NEEDED",
    "DECK_OUT_CHOICES",
    "NOTHING_WAITING",
    "say_which_card",
    "say_a_number",
    "swap_with",
    "move_where",
    "new_game_not_understood",
    "reserved_name",
    "no_neigh_card",
    "which_instant",
    "instant_asked",
    "no_instant_card",
    "who_plays",
    "cannot_start",
    "baby_unclear",
    "not_utf8_line",
    "save_unreadable",
    "rules_for_another_game",
    "goal_out_of_range",
    "event_refused",
    "command_hint",
    "import_set_aside",
    "import_shadows_shipped",
    "card_file_damaged",
    "card_file_skipped",
    "something_went_wrong",
    "cannot_be_read",
    "also_defined_in",
    "could_not_write",
    "SAVE_EMPTY",
    "SETUP_DAMAGED",
    "NOT_A_SAVE",
    "NO_FORMAT_VERSION",
    "NO_SETUP",
    "save_from_newer_version",
]


def line_numbers(numbers: list[int]) -> str:
    """ "line 3", "lines 3 and 7", "lines 3, 7 and 9 and 2 more"."""
    said = [str(n) for n in numbers[:5]]
    more = f" and {len(numbers) - 5} more" if len(numbers) > 5 else ""
    return f"{'line' if len(numbers) == 1 else 'lines'} {name_list(said)}{more}"


def save_damaged(save: str, lines: list[int], where: str) -> str:
    """Said when damaged lines of a save were set aside; everything else was kept."""
    save, where = clean_untrusted(save, 80), clean_untrusted(where, 80)
    return f"The saved game {save} was damaged at {line_numbers(lines)}: set aside in {where}; the rest was kept."


def save_unusable(save: str, problem: str) -> str:
    """A save whose setup cannot be read: it is kept as it is, and a new game can start."""
    problem = clean_untrusted(problem, 160).rstrip(".")
    said = f"The saved game {clean_untrusted(save, 80)} cannot be continued: {problem}."
    return f"{said} The file is kept as it is. Say new game to start another."


def save_failed(reason: str) -> str:
    """Said when an event could not be written to disk: it is not recorded."""
    return f"Could not save the game ({reason}), so that was not recorded. Try again."


def unknown_player(phrase: str, names: tuple[str, ...]) -> str:
    """A name that is not a player's."""
    return f"No player called {clean_untrusted(phrase, 40)}. The players are {name_list(list(names))}."


def ambiguous_player(phrase: str, names: list[str]) -> str:
    """A short name that fits several players."""
    return f"{clean_untrusted(phrase, 40)} could be {name_list(names)}. Say the whole name."


def whose_stable(card: str) -> str:
    """A card found in no Stable, or in several, when no owner was said."""
    return f"Whose {card}? Add from and a name."


def choose_card_for(asked: WhichCard) -> str:
    """Candidates for a card named in a command, from what it asks (`which_card`: those of the same name named by
    what differs)."""
    return f"Which card is {spoken_query(asked.query)}? {numbered_names(asked.offered)} Type a number to choose."


def which_card(player: str, query: str, candidates: list[Card], titles: dict[str, str] | None = None) -> WhichCard:
    """What `choose_card_for` asks, as values (`About.asked`): who is asked, the phrase, the same numbered cards named
    as offered (`choice_name`); a narrow braille display words it who first ("Ana: which card is rainbow? 4 matches:
    ...", `words.worded.words_for`)."""
    return WhichCard(player, query, tuple(choice_name(card, candidates, titles) for card in candidates))


def no_card_for(query: str) -> str:
    """A card named in a command that matches nothing."""
    return f"No card called {spoken_query(query)}. Check the spelling or try the abbreviation."


def script_unreadable(path: str, exc: Exception) -> str:
    """Said when a --script file cannot be read."""
    reason = getattr(exc, "strerror", None) or exc.__class__.__name__
    return f"Cannot read the script {clean_untrusted(path, 80)}: {reason}."


def save_damaged_unrepaired(save: str, lines: list[int]) -> str:
    """Said by a read-only look at a save with damaged lines."""
    return (
        f"The saved game {clean_untrusted(save, 80)} is damaged at {line_numbers(lines)}; the rest can be read. "
        "Continue the game to set the damaged part aside."
    )


NAME_MISSING = "A player's name is missing."
VERBOSITY_LEVELS = "Say verbosity brief, verbosity normal or verbosity coaching, or verbosity alone for the next."
TAKE_FROM_WHERE = "Say where from: take, a card, then from deck or from discard."
SHUFFLE_WHAT = (
    "Say what goes back into the deck: shuffle hand into deck, shuffle stable into deck, shuffle discard into deck, "
    "shuffle a card from hand into deck, or shuffle and a card's name into deck."
)
SKIP_WHICH = "Say skip alone for the current phase, or skip draw or skip action for that phase of this turn."
SWAP_HANDS_NAMES = "Say swap hands and two names, for example swap hands Ana Ben."
GIVE_TO_WHOM = "Say who gets the card, for example give a card to Ben, or Ana give a card to Ben."
HAND_NAME_NUMBER = "Say hand, a name and a number, for example hand Ana 5."
NEW_GAME_OVER_GAME = "A game is in progress; it stays saved. Start a new one? Say yes or no."
DECKS_AT_START = "Other decks can only be chosen when the app starts, with --deck and --addon."
NAMES_NEEDED = "Say the players' names in clockwise order, for example new game Ana Ben Cy."
DECK_OUT_CHOICES = "When the deck runs out: say stickler, rule-breaker, most-wins, no-winner or reshuffle."
NOTHING_WAITING = "Nothing is waiting to resolve."


def discard_how_many(most: int) -> str:
    """`discard` with a number that is no number of cards (0, -2, 2.5, more than `most`)."""
    return (
        f"Say how many cards are discarded, from 1 to {most}, or hand for the whole hand: for example discard 3, "
        "or discard hand."
    )


def say_which_card(example: str) -> str:
    """A command that needs a card but has none."""
    return f"Say which card, for example: {example}."


def say_a_number(verb: str, example: int) -> str:
    """A command that needs a number."""
    return f"Say {verb} and a number, for example {verb} {example}."


def swap_with(example: str) -> str:
    """A swap without its second card."""
    return f"Say swap, a card, with, and the other card, for example {example}."


def move_where(example: str) -> str:
    """A move without its destination."""
    return f"Say where to, for example {example}."


def new_game_not_understood(word: str) -> str:
    """A word of a new game line that is neither a name nor an option."""
    return f"I did not understand {clean_untrusted(word, 40)} in the new game line. Say help for the options."


def reserved_name(name: str) -> str:
    """A player's name that is a command word."""
    return f"{clean_untrusted(name, 40)} cannot be a player's name: it is a command word. Choose another."


def no_neigh_card(super_neigh: bool) -> str:
    """A Neigh command with a deck that has no such card."""
    return f"This deck has no {'Super Neigh' if super_neigh else 'Neigh'} card."


def which_instant(asked: WhichInstant) -> str:
    """Asked when a Neigh is said in a deck with no card named Neigh: which of the deck's Instants was played, each
    by its number for the whole game (`help instants`), from what it asks (`instant_asked`)."""
    items = ", ".join(f"{n} {name}" for n, name in asked.offered)
    return f"Which Instant does {asked.player} play? {items}. Type a number to choose."


def instant_asked(player: str, instants: list[tuple[int, Card]]) -> WhichInstant:
    """What `which_instant` asks, as values (`About.asked`): who is asked and the Instants by their numbers; a narrow
    braille display words it who first ("Ben: which Instant? ...", `words.worded.words_for`)."""
    return WhichInstant(player, tuple((n, card.name) for n, card in instants))


def no_instant_card() -> str:
    """A Neigh said in a deck that has no Instant card at all."""
    return "This deck has no Instant card."


def who_plays(said: str, card: str = "it") -> str:
    """A Neigh without the name of who plays it."""
    return f"Who plays {card}? Say {said} and a name, for example {said} Ben."


def cannot_start(problems: str) -> str:
    """A new game whose setup cannot start."""
    return f"Cannot start that game: {problems}."


def baby_unclear(phrase: str, names: list[str]) -> str:
    """A Baby in a new game line that fits none or several Babies."""
    fits = name_list(names) if names else "no Baby"
    return f"Baby {clean_untrusted(phrase, 40)} could be {fits}. Say it so it fits one Baby."


def not_utf8_line(line: int) -> str:
    """Why a file the owner gave cannot be read: a byte on this line is not UTF-8 (so they can find it)."""
    return f"line {line} is not UTF-8 text"


def save_unreadable(reason: str) -> str:
    """The save cannot be read or reopened from disk."""
    return f"The saved game could not be read ({reason})."


def rules_for_another_game(deck_title: str) -> str:
    """Rules chosen for the other game than the deck's."""
    return f"Note: these rules are for another game than the deck {deck_title}."


def goal_out_of_range(highest: int) -> str:
    """A number to win that no game could use."""
    return f"The number to win must be from 1 to {highest}."


def event_refused(problem: str) -> str:
    """An event that could not be saved as it stands (a number far too large)."""
    return f"That cannot be recorded: {problem}."


def command_hint(line: str) -> str:
    """Said after "no card called" when the line starts like a command, mistyped: the line put right."""
    return f"If you meant the command, type: {clean_untrusted(line, 60)}."


def import_set_aside(name: str, line: int, problem: str, kept_as: str) -> str:
    """An imported deck that cannot be read: set aside, and the shipped decks are used."""
    name, kept_as = clean_untrusted(name, 80), clean_untrusted(kept_as, 100)
    return (
        f"Your imported deck {name} is damaged at line {line} ({clean_untrusted(problem, 120).rstrip('.')}), so it "
        f"is not used: it is kept as {kept_as}. Import your reference sheet again to replace it."
    )


def import_shadows_shipped(name: str) -> str:
    """An imported deck file named like a shipped deck: the shipped one is kept."""
    return (
        f"Your imported deck {clean_untrusted(name, 80)} has the name of a deck that comes with the app, so it is "
        "not used. Import the sheet again: imports are named after their base deck, such as uu-2nd-sheet."
    )


def card_file_damaged(problems: str) -> str:
    """A card file that does not load stops the command: every problem, one a line."""
    return f"A card file is damaged:\n{problems}"


def card_file_skipped(problems: str) -> str:
    """A card file that does not load is left out of a listing."""
    return f"A card file is damaged and was skipped:\n{problems}"


def something_went_wrong(kind: str, message: str, where: str) -> str:
    """The last guard of the command line: an error nobody foresaw, and where its details were written."""
    return f"Something went wrong: {kind}: {message}. Details were saved to {where}."


def cannot_be_read(reason: str) -> str:
    """A file problem: the file could not be read at all."""
    return f"cannot be read ({reason})"


def also_defined_in(where: str) -> str:
    """A card file problem: the same card id is given in another file too."""
    return f"also defined in {where}"


def could_not_write(path: str, reason: str) -> str:
    """A file the player asked for could not be written."""
    return f"Could not write {clean_untrusted(path, 120)}: {reason}."


#: Why a saved game cannot be continued (said with `save_unusable`).
SAVE_EMPTY = "it is empty"
SETUP_DAMAGED = "line 1, the setup, is damaged"
NOT_A_SAVE = "line 1 is not the start of a saved game"
NO_FORMAT_VERSION = "line 1 has no format version"
NO_SETUP = "line 1 has no setup"


def save_from_newer_version(version: int, reads: int) -> str:
    """Why a save cannot be continued: a later version of the app wrote it."""
    return f"it was written by a newer version of the app (format {version}; this one reads {reads})"


def stray_digits(digits: str) -> str:
    """Said before the command a line held after digits typed by mistake ("0end turn")."""
    return f"The {digits} before the command was left out."
