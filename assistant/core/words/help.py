"""The help, for a listener: a short help first (how to get more, how to quit, the few commands of a turn, the
topics), then one topic at a time (`help keys`, `help turn`, ...), each under about 45 seconds of speech; `help
commands` is the whole command table (`assistant.core.language.verbs.help_lines`).

The examples name cards of the deck in play: the caller passes the names to use (`Examples`), so a Llamas
Unleashed game never hears of a Rainbow Aura.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "HELP_TOPICS",
    "INSTANT_WORD",
    "Examples",
    "short_help",
    "topic_help",
    "unknown_topic",
]

#: The topics `help TOPIC` answers, in the order the short help names them ("commands": the whole table).
HELP_TOPICS = ("keys", "turn", "neigh", "questions", "undo", "scanning", "braille", "settings", "commands")


#: What answers a card in a deck with no card named Neigh.
INSTANT_WORD = "Instant"


@dataclass(frozen=True)
class Examples:
    """The names the help's examples use, from the deck in play, as typed (lower case)."""

    card: str = "rainbow aura"
    """A card to look up and play."""
    creature: str = "basic red"
    """A creature card (a Basic Unicorn, a Basic Animal)."""
    players: tuple[str, ...] = ("Ana", "Ben")
    """Two players' names (the game's, else examples)."""
    neigh: str = "Neigh"
    """What answers a card: the deck's Neigh, else `INSTANT_WORD`."""
    area: str = "Stable"


def short_help(ex: Examples, keys: bool = True) -> list[str]:
    """The help said first: at most about 30 seconds (75 words). `keys`: the front end has the full-screen app's
    keys (F1, Escape, one-key answers); the plain mode has none, and its help names lines to type instead."""
    first, second = ex.players[0], ex.players[1]
    if not keys:
        return [
            "Help: type help. quit ends the plain mode.",
            f"Type a card name to hear it, for example {ex.card}.",
            f"A turn: draw, play {ex.card}, resolve for no {ex.neigh}, end turn. undo takes back the last.",
            f"new game {first} {second} starts a game.",
            "stop stops speech; repeat says the last answer again.",
            f"More: help and a topic: {', '.join(HELP_TOPICS[:-1])}, or commands for all of them.",
        ]
    return [
        "Help: F1 or help. Control Q quits.",
        f"Type a card name to hear it, for example {ex.card}.",
        f"A turn: draw, play {ex.card}, 0 for no {ex.neigh}, end turn. undo takes back the last.",
        f"new game {first} {second} starts a game.",
        "Escape stops speech; F2 repeats.",
        f"More: help and a topic: {', '.join(HELP_TOPICS[:-1])}, or commands for all of them.",
    ]


def topic_help(topic: str, ex: Examples, keys: bool = True) -> list[str] | None:
    """One topic, under about 45 seconds (110 words); None for a topic there is none of. `keys`: as `short_help`
    (without them, the topics that name keys name the lines to type)."""
    if not keys:
        plain = _plain_topic(topic, ex)
        if plain is not None:
            return plain
    first, second = ex.players[0], ex.players[1]
    match topic:
        case "keys":
            return [
                "Keys.",
                f"While a card waits on the pile and the input line is empty: 0, no {ex.neigh}; a player's number, "
                f"that player answers; s then a number, a Super Neigh.",
                "While a yes or no question waits: y or n, one key.",
                "Escape stops speech. F2 repeats. F3 and F4 step back and forward through what was said. F5 mutes. "
                "F6 private reading. F7 says more or less. F8 says what other hands did since your last move. "
                "F9 shares the table with phones, or says its address again.",
                "Up and Down move through the screen's regions. Control B: six-key braille. Control Q quits.",
            ]
        case "turn":
            return [
                "A turn.",
                f"Say draw. Then play a card, for example play {ex.card}, or draw again.",
                f"Each card played waits on the pile for an answer: with no {ex.neigh}, say resolve"
                f"{', or press 0' if keys else ''}.",
                "Then end turn. The next turn begins, with its beginning of turn effects said.",
                f"A card an effect moves: bring {ex.creature} into {first}, destroy {ex.creature} from {second}, "
                "sacrifice, steal, return, discard.",
                f"turn, {ex.area.lower()} and a name, and tally say where the game is.",
            ]
        case "neigh" if ex.neigh == INSTANT_WORD:
            return [
                "Answering a card with an Instant.",
                f"While a card waits on the pile, press {second}'s number, then the number of the Instant {second} "
                f"plays (help instants says each Instant's number); or type {second} play and the card.",
                "resolve, or 0, resolves the top of the pile. Each card is said as it resolves.",
            ]
        case "neigh":
            return [
                f"Answering a card with {ex.neigh}.",
                f"While a card waits on the pile, say neigh {second}, or press {second}'s number: {second} plays "
                f"{ex.neigh}, and it waits in turn.",
                "super neigh and a name, or s then the number, for a Super Neigh.",
                "resolve, or 0, resolves the top of the pile. Each card is said as it resolves.",
            ]
        case "questions":
            return [
                "Questions.",
                "Something against the rules is asked first: record it anyway? Say y or n.",
                "Several cards close to a name are read with numbers: type the number.",
                "Any other command answers no. Digits typed while a question waits are not typed: you hear why.",
            ]
        case "undo":
            return [
                "Undo.",
                "undo takes back the last event and says where the game is again, with the counts.",
                "undo 3 takes back three; undo all, everything. redo puts back what undo took.",
                "Every event is saved as it is said: a game goes on after the app closes; say resume.",
            ]
        case "scanning":
            return [
                "Scanning.",
                "Hold a card's QR sticker up to the camera: its name and text are said, as if typed.",
                "play with no card name then plays the card just read.",
                "Cues say closer, further, left or right until the code is read.",
            ]
        case "braille":
            return [
                "Braille.",
                "Type a card's braille abbreviation, as on its label, or its name in braille cells.",
                "Control B turns six-key braille entry on: chord, dots then Space, then off.",
                "The cursor is on the newest answer for a braille display; Page Up and Page Down read it line by "
                "line, Up and Down move through the regions.",
            ]
        case "settings":
            return [
                "Settings.",
                "verbosity brief, normal or coaching, or F7: how much each reply says.",
                "F5 mutes and unmutes. F6: private reading in headphones.",
                "The voice, rate and volume are set in settings.toml, in your configuration folder, under speech.",
            ]
    return None


def _plain_topic(topic: str, ex: Examples) -> list[str] | None:
    """The topics that name the app's keys, as the plain mode says them (lines to type); None for the others, which
    are the same in both."""
    second = ex.players[1]
    match topic:
        case "keys":
            return [
                "Keys.",
                "The plain mode has no keys of its own: every command is a line, typed then Enter.",
                f"While a card waits on the pile: resolve, no {ex.neigh}; neigh and a name, that player answers; "
                "super neigh and a name, a Super Neigh.",
                "While a yes or no question waits: yes or no.",
                "stop stops speech, repeat says the last answer again, history the earlier ones. quit ends.",
            ]
        case "neigh" if ex.neigh == INSTANT_WORD:
            return [
                "Answering a card with an Instant.",
                f"While a card waits on the pile, type {second} play and the Instant {second} plays.",
                "resolve resolves the top of the pile. Each card is said as it resolves.",
            ]
        case "neigh":
            return [
                f"Answering a card with {ex.neigh}.",
                f"While a card waits on the pile, say neigh {second}: {second} plays {ex.neigh}, and it waits in turn.",
                "super neigh and a name for a Super Neigh.",
                "resolve resolves the top of the pile. Each card is said as it resolves.",
            ]
        case "questions":
            return [
                "Questions.",
                "Something against the rules is asked first: record it anyway? Say yes or no.",
                "Several cards close to a name are read with numbers: type the number.",
                "Any other command answers no.",
            ]
        case "scanning":
            return [
                "Scanning.",
                "The plain mode does not watch the camera: the app does, or the scan command with its camera option.",
                "Here, type the card's name or its braille abbreviation; play with no card name then plays the card "
                "just read.",
            ]
        case "braille":
            return [
                "Braille.",
                "Type a card's braille abbreviation, as on its label, or its name in braille cells.",
                "With a braille display (the braille-display option), every answer is shown on it too, and a line "
                "typed on its keys is answered like one typed here.",
            ]
        case "settings":
            return [
                "Settings.",
                "verbosity brief, normal or coaching: how much each reply says.",
                "The voice, rate and volume are set in settings.toml, in your configuration folder, under speech.",
            ]
    return None


def instants_help(names: list[str]) -> list[str]:
    """`help instants`: the game's Instants, each with the number that chooses it all game (its place in the deck's
    list of Instants), said once so a player can keep it in mind; the number never changes with the pile."""
    if not names:
        return ["This deck has no Instant card."]
    numbered = ", ".join(f"{n} {name}" for n, name in enumerate(names, start=1))
    return [
        f"The Instants, by number: {numbered}.",
        "When an Instant answers a card, its number chooses it: the numbers stay the same all game.",
    ]


def unknown_topic() -> str:
    """`help` with a topic there is no help on (the words typed are not said back: they are untrusted)."""
    return f"No help on that. Topics: {', '.join(HELP_TOPICS)}, instants."
