"""The help, for a listener: a short help first (how to get more, how to quit, the few commands of a turn, the
topics), then one topic at a time (`help keys`, `help turn`, ...), each under about 45 seconds of speech; `help
commands` is the command table (`assistant.core.language.verbs.help_rows`) in parts of under 30 seconds each.

The examples name cards of the deck in play: the caller passes the names to use (`Examples`), so a Llamas
Unleashed game never hears of a Rainbow Aura.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assistant.core.game.rules import MIN_PLAYERS, DeckOut, Profile
from assistant.core.text import name_list
from assistant.core.words.position import deck_out_words

__all__ = [
    "HELP_TOPICS",
    "INSTANT_WORD",
    "Examples",
    "LOOKING_UP",
    "PART_WORDS",
    "command_parts",
    "offered_topics",
    "commands_index",
    "commands_part",
    "instants_help",
    "no_such_part",
    "short_help",
    "topic_help",
    "unknown_topic",
    "win_help",
]

#: The topics `help TOPIC` answers, in the order the short help names them ("commands": the command table's parts;
#: "instants": the game's Instants). "neigh" is offered only where a card is named Neigh (`offered_topics`).
HELP_TOPICS = (
    "win", "keys", "turn", "neigh", "instants", "questions", "undo", "scanning", "braille", "settings", "share",
    "commands",
)  # fmt: skip


#: The most words in one part of `help commands`: under 30 seconds at espeak-ng's default 175 words a minute, which
#: the settings' default `rate = 50` gives it (87 words), with room for the pauses of punctuation and the letters
#: of a symbol (each part is rendered with espeak-ng in tests/adapters/test_help_spoken.py).
PART_WORDS = 60
#: The first section of `help commands`: looking cards up (`cardtext.HELP_LINES`).
LOOKING_UP = "Looking up cards"

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


def offered_topics(ex: Examples | None = None) -> tuple[str, ...]:
    """The topics the help names for the deck in play: every one of `HELP_TOPICS`, but "neigh" only in a deck with
    a card named Neigh (in Llamas Unleashed the Instants answer a card by their numbers: `help instants` says
    them). With no deck known (`ex` None), the topics of every deck."""
    if ex is None or ex.neigh == INSTANT_WORD:
        return tuple(topic for topic in HELP_TOPICS if topic != "neigh")
    return HELP_TOPICS


def _more(ex: Examples) -> str:
    """The short help's last line: the topics, "commands" last."""
    return f"More: help and a topic: {', '.join(offered_topics(ex)[:-1])}, or commands for all of them."


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
            _more(ex),
        ]
    return [
        "Help: F1 or help. Control Q quits.",
        f"Type a card name to hear it, for example {ex.card}.",
        f"A turn: draw, play {ex.card}, 0 for no {ex.neigh}, end turn. undo takes back the last.",
        f"new game {first} {second} starts a game.",
        "Escape stops speech; F2 repeats.",
        _more(ex),
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
            answers = (
                "a player's number, then the number of the Instant that player plays (help instants)"
                if ex.neigh == INSTANT_WORD
                else "a player's number, that player answers; s then a number, a Super Neigh"
            )
            return [
                "Keys.",
                f"While a card waits on the pile and the input line is empty: 0, no {ex.neigh}; {answers}.",
                "While a yes or no question waits: y or n, one key.",
                "Escape stops speech. F2 repeats. F3 and F4 step back and forward through what was said. F5 mutes. "
                "F6 private reading. F7 says more or less. F8 says what other hands did since your last move. "
                "F9 shares the table with phones, or says its address again. F10, its QR code.",
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
        case "share":
            return share_help(first, keys)
    return None


def share_help(player: str, keys: bool = True) -> list[str]:
    """`help share`: every form of the `share` command, and the keys where the app has them (`keys`)."""
    start = "share, or F9" if keys else "share"
    qr = " share qr, or F10: its QR code." if keys else ""
    return [
        "Sharing with phones.",
        f"{start}: share it, or hear its address and code. share 127.0.0.1:8123: on that address.{qr}",
        "A joining phone shows a short name, like blue 7, said in the question. yes or no answers; or share "
        f"allow {player}, share refuse {player}, or blue 7 when two ask as {player}; alone, the longest waiting; "
        "share refuse all, every one.",
        f"share devices: the phones. share remove {player}: all {player}'s phones; share remove {player} 2, "
        "one; share remove blue 7, that phone. A new code is shown, not said.",
        f"share off stops. {player} share allow, refuse or remove: the same for {player}.",
    ]


def _plain_topic(topic: str, ex: Examples) -> list[str] | None:
    """The topics that name the app's keys, as the plain mode says them (lines to type); None for the others, which
    are the same in both."""
    second = ex.players[1]
    match topic:
        case "keys":
            answers = (
                "a player's name, play and the Instant, that player answers"
                if ex.neigh == INSTANT_WORD
                else "neigh and a name, that player answers; super neigh and a name, a Super Neigh"
            )
            return [
                "Keys.",
                "The plain mode has no keys of its own: every command is a line, typed then Enter.",
                f"While a card waits on the pile: resolve, no {ex.neigh}; {answers}.",
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


def win_help(profile: Profile, goal: int | None = None, deck_out: DeckOut | None = None) -> list[str]:
    """`help win`, `how do I win`: the goal of the rules in play, by the number of players as the rulebook gives it;
    with a game, its own number (`goal`: the players' count, or a number the table set) and its rule for a deck
    that runs out (`deck_out`; the rules' first otherwise)."""
    vocabulary = profile.vocabulary
    spans: list[list[int]] = []  # [fewest players, most players, number to win]
    for players, number in enumerate(profile.to_win, start=MIN_PLAYERS):
        if spans and spans[-1][2] == number:
            spans[-1][1] = players
        else:
            spans.append([players, players, number])
    (low, high, number), *others = spans
    first = f"{number} {vocabulary.creature}s in your {vocabulary.area} with {low} to {high} players"
    counts = name_list([first, *(f"{n} with {a} to {b}" for a, b, n in others)])
    rule = deck_out_words(deck_out or profile.deck_out[0], vocabulary)
    lines = [f"How to win, {profile.title}: be the first to have {counts}."]
    if goal is not None:
        lines.append(f"This game: {goal} {vocabulary.creature}s to win.")
    return [*lines, f"The deck: {rule}."]


def instants_help(names: list[str], numbered: bool = True, keys: bool = True) -> list[str]:
    """`help instants`: the game's Instants, each with the number that chooses it all game (its place in the deck's
    list of Instants), said once so a player can keep it in mind; the number never changes with the pile. Not
    `numbered` in a deck with a Neigh card: there a number typed while a card waits is a player's (that player
    Neighs), so the Instants are named, each with the words that play it (and the keys, with `keys`)."""
    if not names:
        return ["This deck has no Instant card."]
    if not numbered:
        number, s_number = (", or that player's number,", ", or s then the number,") if keys else ("", "")
        return [
            f"The Instants: {name_list(names)}.",
            f"While a card waits on the pile, neigh and a name{number} plays a Neigh for them; super neigh and a "
            f"name{s_number} a Super Neigh. Any other Instant: the player's name, play and the card.",
        ]
    by_number = ", ".join(f"{n} {name}" for n, name in enumerate(names, start=1))
    how = (
        "press the player's number, then the Instant's number; or type the player's name, play and the Instant."
        if keys
        else "type the player's name, play and the Instant."
    )
    return [
        f"The Instants, by number: {by_number}.",
        "When an Instant answers a card, its number chooses it: the numbers stay the same all game.",
        f"While a card waits on the pile, {how}",
    ]


def command_parts(sections: Sequence[tuple[str, Sequence[str]]]) -> list[tuple[str, tuple[str, ...]]]:
    """The command table in parts a listener can finish: each section's lines (its title, its lines) packed in
    order, at most `PART_WORDS` words a part (a longer line is a part of its own); a part never spans two
    sections."""
    parts: list[tuple[str, tuple[str, ...]]] = []
    for title, lines in sections:
        part: list[str] = []
        for line in lines:
            if part and len(" ".join([*part, line]).split()) > PART_WORDS:
                parts.append((title, tuple(part)))
                part = []
            part.append(line)
        if part:
            parts.append((title, tuple(part)))
    return parts


def commands_index(parts: Sequence[tuple[str, tuple[str, ...]]]) -> list[str]:
    """`help commands`: how many parts there are and which section each is of (one span a section)."""
    spans: list[list[int]] = []  # [first part, last part], one a section
    titles: list[str] = []
    for number, (title, _) in enumerate(parts, start=1):
        if titles and titles[-1] == title:
            spans[-1][1] = number
        else:
            spans.append([number, number])
            titles.append(title)
    said = "; ".join(
        f"{first}: {title.lower()}" if first == last else f"{first} to {last}: {title.lower()}"
        for (first, last), title in zip(spans, titles, strict=True)
    )
    return [
        f"The commands, in {len(parts)} parts of under half a minute: help commands and a number says one.",
        f"{said}.",
        "help commands all: every command at once.",
    ]


def commands_part(parts: Sequence[tuple[str, tuple[str, ...]]], number: int) -> list[str]:
    """`help commands 3`: that part, under a heading with its number and section."""
    title, lines = parts[number - 1]
    return [f"Commands {number} of {len(parts)}: {title.lower()}.", *lines]


def no_such_part(count: int) -> str:
    """`help commands` with a number (or word) that is no part's."""
    return f"The commands are in parts 1 to {count}: help commands and one of those numbers, or all."


def unknown_topic(ex: Examples | None = None) -> str:
    """`help` with a topic there is no help on (the words typed are not said back: they are untrusted): the topics
    offered for the deck in play (`ex`; with none, those of every deck)."""
    return f"No help on that. Topics: {', '.join(offered_topics(ex))}."
