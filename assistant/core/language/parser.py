"""The game's command language, word by word: the `Command` a line becomes and the parser of each verb's words.

Parsing is pure and in two steps, like a chess move read from text: `assistant.core.language.verbs.parse_command` finds
the verb and hands the rest of the line to that verb's parser here, which splits it into a `Command` (the card
and player phrases as typed), knowing only the players' names; then, once the card phrases are resolved to cards
(by the app's resolver, so abbreviations work), the verb's builder (`assistant.core.language.builders`) makes the event.
Neither step checks the rules: that is `Table.check`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from assistant.core.cards.card import Card, normalize
from assistant.core.game.events import MAX_COUNT, Source
from assistant.core.language.verb_names import VerbName
from assistant.core.words.errors import (
    GIVE_TO_WHOM,
    HAND_NAME_NUMBER,
    SHUFFLE_WHAT,
    SKIP_WHICH,
    SWAP_HANDS_NAMES,
    TAKE_FROM_WHERE,
    VERBOSITY_LEVELS,
    discard_how_many,
    goal_out_of_range,
    move_where,
    new_game_not_understood,
    reserved_name,
    say_a_number,
    swap_with,
)


def keep_card_names(text: str, cards: Iterable[Card]) -> str:
    """The line with every card's exact name that holds punctuation ("The G.O.A.T.", "Neigh, Thank You", "Fuck.
    Marry. Kill") replaced by the card's id, so the name is taken whole before the line is split on its full stops
    and commas (and never read as another card's)."""
    for card in sorted(cards, key=lambda c: -len(c.name)):
        if re.search(r"[.,;:!?]", card.name) and card.name.lower() in text.lower():
            pattern = r"(?<![\w-])" + re.escape(card.name) + r"(?![\w-])"
            text = re.sub(pattern, card.id, text, flags=re.IGNORECASE)
    return text


class CommandError(ValueError):
    """A command that cannot be understood; the message says what was wrong, ready to be spoken."""


@dataclass(frozen=True)
class Command:
    """A parsed line, with card and player phrases not yet resolved."""

    verb: VerbName
    actor: str | None = None
    """A player's name said before the verb ("Ben draw")."""
    card: str | None = None
    """The card phrase, as typed."""
    other_card: str | None = None
    """A second card phrase (swap)."""
    target: str | None = None
    """The player phrase after into, to, from, of..."""
    other: str | None = None
    """A second player phrase."""
    aims: tuple[str, ...] = ()
    """play: the player phrases its card's effect aims at (`targeting Ben`, `targeting Ben, Cy and Dee`)."""
    number: int | None = None
    word: str | None = None
    """A keyword argument: a source ("deck"), a query's subject, "all"."""
    names: tuple[str, ...] = ()
    """new game: the players' names."""
    asking: bool = False
    """The words ask a question rather than record an event ("hand" alone asks for the hand sizes)."""
    options: dict[str, Any] = field(default_factory=dict)
    """new game: first, rules, win, two-player, babies, deck-out, hands."""
    rest: str = ""
    """The line after the verb as typed, its dots and colons kept (`share 127.0.0.1:8123`, `help keys`)."""
    said: str = ""
    """The verb's own words, lower case, as typed ("table faster"): which of a verb's phrases was said."""

    @property
    def card_phrases(self) -> tuple[str, ...]:
        """The card phrases to resolve, in order."""
        return tuple(p for p in (self.card, self.other_card) if p)


# Packed (fmt: skip): a set of short words reads better as a block than one word a line.
#: Words that cannot be a player's name: they would be read as part of a command.
RESERVED = {
    "into", "in", "to", "from", "of", "with", "and", "for", "by", "the", "first", "rules", "win", "two", "babies",
    "hands", "hand", "deck", "discard", "nursery", "all", "me", "player", "variant", "out", "yes", "no",
}  # fmt: skip
# A table (fmt: skip): number words and their values in one row, not one a line.
_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "a": 1, "an": 1,
}  # fmt: skip
SOURCES = {
    "hand": Source.HAND,
    "deck": Source.DECK,
    "discard": Source.DISCARD,
    "discards": Source.DISCARD,
    "nursery": Source.NURSERY,
}
_FILLER = {"the", "a", "an", "pile", "card", "cards", "please", "his", "her", "their", "my"}


#: The highest number to win the table may set.
MAX_GOAL = 50


def parse_number(word: str) -> int | None:
    """A whole number from ASCII digits or a word ("3", "three"), or None (never "²" or "①", which int() refuses)."""
    word = word.lower()
    if word.isascii() and word.isdigit() and len(word) <= 3:
        return int(word)
    return _NUMBERS.get(word)


def is_player(word: str, names: tuple[str, ...]) -> bool:
    """True when the word is a player's whole name."""
    key = normalize(word)
    return bool(key) and any(normalize(name) == key for name in names)


def _words(tokens: list[str]) -> str:
    return " ".join(tokens).strip()


def _strip_filler(tokens: list[str]) -> list[str]:
    while tokens and tokens[0].lower() in _FILLER:
        tokens = tokens[1:]
    return tokens


def _split_last(tokens: list[str], lower: list[str], keywords: set[str]) -> tuple[list[str], list[str] | None]:
    """Split at the last keyword: (before, after), or (all, None) when there is none."""
    for index in range(len(lower) - 1, -1, -1):
        if lower[index] in keywords:
            return tokens[:index], tokens[index + 1 :]
    return tokens, None


def _card_phrase(tokens: list[str]) -> str | None:
    """The card phrase, or None when no card was named (then the card just read is meant, if any)."""
    return _words(_strip_filler(tokens)) or None


#: Examples the parsers' own messages give.
SWAP_EXAMPLE = "swap rainbow aura from Ana with slowdown from Ben"
MOVE_EXAMPLE = "move slowdown from Ana to Ben"


#: The words before the player a card goes to.
_INTO = {"into", "in", "to", "for", "on"}


#: The words before the player a played card's effect aims at (002, targeting "Option 1": declared at the play).
_TARGETING = {"targeting", "targetting", "target"}


def parse_card_into(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """play CARD [into NAME] [targeting NAME [and NAME]], bring CARD [into NAME] [from SOURCE], or with "from SOURCE"
    before "into NAME"."""
    word: str | None = None
    aimed: tuple[str, ...] = ()
    before, after = _split_last(tokens, lower, _TARGETING)
    if verb == "play" and after:
        aimed, tokens, lower = _player_phrases(after, names), before, lower[: len(before)]
    before, after = _split_last(tokens, lower, {"from"})
    if after is not None and len(after) >= 1 and after[-1].lower() in SOURCES:
        word = after[-1].lower()
        tokens, lower = before, [t.lower() for t in before]
    elif after:  # "bring ginormous unicorn from discard into Ana": the source ends where "into" begins
        source, into = _split_last(after, [a.lower() for a in after], _INTO)
        if into is not None and source and source[-1].lower() in SOURCES:
            word = source[-1].lower()
            tokens = before + after[len(source) :]
            lower = [t.lower() for t in tokens]
    before, after = _split_last(tokens, lower, _INTO)
    target = None
    said_into = after is not None and tokens[len(before)].lower() == "into"
    if after and (_looks_like_player(after, names) or (said_into and len(after) <= 2)):
        target = _words(after)  # "into" always names a player; "in", "to", "on" may be part of a card's name
        tokens = before
    return Command(verb, card=_card_phrase(tokens), target=target, aims=aimed, word=word)


def _player_phrases(tokens: list[str], names: tuple[str, ...]) -> tuple[str, ...]:
    """The player phrases of a list ("Ben and Cy", "Ben, Cy and Dee": the commas are gone from the tokens): at each
    place the longest run of up to 3 words that names a player, else one word alone (a name that is no player's,
    for the builder to say so with the players' names)."""
    words = [t for t in tokens if t.lower() != "and"]
    phrases: list[str] = []
    while words:
        size = next((n for n in (3, 2) if len(words) >= n and _names_one(words[:n], names)), 1)
        phrases.append(_words(words[:size]))
        words = words[size:]
    return tuple(phrases)


def _names_one(tokens: list[str], names: tuple[str, ...]) -> bool:
    """True when the words are one player's whole name (Mary Ann)."""
    return normalize(_words(tokens)) in {normalize(n) for n in names}


def _looks_like_player(tokens: list[str], names: tuple[str, ...]) -> bool:
    """A player phrase: one word, or a whole name; when no game is known, any single word."""
    phrase = _words(tokens)
    if not names:
        return len(tokens) == 1
    key = normalize(phrase)
    return any(normalize(n) == key or normalize(n).startswith(key) for n in names) and len(tokens) <= 3


def _card_in_stable(tokens: list[str], lower: list[str], names: tuple[str, ...]) -> tuple[str | None, str | None]:
    """CARD [from|of|in|to NAME]: the card phrase and the player phrase, if any."""
    before, after = _split_last(tokens, lower, {"from", "of", "in", "to"})
    if after and (_looks_like_player(after, names) or (tokens[len(before)].lower() == "from" and len(after) <= 2)):
        return _card_phrase(before), _words(after)  # "from" always names a player; "of" and "in" may be in a name
    return _card_phrase(tokens), None


def parse_card_from(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """steal, destroy, nursery: CARD [from|of|in NAME]."""
    card, target = _card_in_stable(tokens, lower, names)
    return Command(verb, card=card, target=target)


def parse_sacrifice(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """sacrifice CARD: always from one's own Stable ("Ben sacrifice CARD" for another player)."""
    return Command(verb, card=_card_phrase(tokens))


def parse_return(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """return CARD [from NAME] [to hand], return CARD [from NAME] to the deck (shuffled into it) or to the discard
    pile."""
    place = next((word for word in ("deck", "discard") if word in lower[-2:] and len(lower) > 2), None)
    if place is not None:
        while tokens and tokens[-1].lower() in ("deck", "discard", "pile", "the", "to", "into", "in", "back"):
            tokens = tokens[:-1]
        lower = [t.lower() for t in tokens]
        card, target = _card_in_stable(tokens, lower, names)
        return Command(verb, card=card, target=target, word=place)
    if lower[-2:] in (["to", "hand"], ["the", "hand"]) or lower[-1:] == ["hand"]:  # "return X to the hand"
        while tokens and tokens[-1].lower() in ("hand", "the", "to"):
            tokens = tokens[:-1]
        lower = [t.lower() for t in tokens]
    card, target = _card_in_stable(tokens, lower, names)
    return Command(verb, card=card, target=target)


def parse_baby(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """baby NAME BABY, or baby BABY [to|into NAME]; "baby NAME" alone names no Baby (the card just read, if any)."""
    if tokens and is_player(tokens[0], names):
        return Command(verb, card=_card_phrase(tokens[1:]), target=tokens[0])
    command = parse_card_into(verb, tokens, lower, names)
    return Command(verb, card=command.card, target=command.target)


def parse_neigh(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """neigh NAME, super neigh NAME (or "Ben neigh")."""
    tokens = [t for t in tokens if t.lower() not in ("by", "from")]
    return Command(verb, target=_words(tokens) or None)


def parse_count(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """draw [N], discard [N | CARD], undo [N | all], redo [N | all]."""
    if not tokens:
        return Command(verb)
    if len(tokens) == 1 and lower[0] == "all" and verb in ("undo", "redo"):
        return Command(verb, word="all")
    if verb == "discard":
        return _parse_discard(tokens, lower)
    number = parse_number(tokens[0]) if tokens else None
    if number is not None and (len(tokens) == 1 or lower[1:] in (["card"], ["cards"])):
        return Command(verb, number=number)
    raise CommandError(say_a_number(verb, 2))


#: The words around a hand or a number of cards discarded ("discard my whole hand", "discard 3 cards from hand").
_HAND_WORDS = _FILLER | {"whole", "entire", "your", "all", "of", "in", "from"}


def _parse_discard(tokens: list[str], lower: list[str]) -> Command:
    """discard [N | hand | CARD]: a number of cards (never read as a card's name: a number that cannot be one is
    refused with the reason), the whole hand, or one card, named or not."""
    rest = [word for word in lower[1:] if word not in _HAND_WORDS and word != "hand"]
    if [word for word in lower if word not in _HAND_WORDS] == ["hand"]:
        return Command("discard", word="hand")
    number = parse_number(tokens[0])
    if number is not None and not rest:
        if not 0 < number <= MAX_COUNT:
            raise CommandError(discard_how_many(MAX_COUNT))
        return Command("discard", number=number)
    if _NUMERIC.fullmatch(tokens[0]):  # "-2", "1000", "2.5": a number, just not one of cards
        raise CommandError(discard_how_many(MAX_COUNT))
    return Command("discard", card=_card_phrase(tokens))


_NUMERIC = re.compile(r"[+-]?[\d.,]+")


def parse_take(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """take CARD from deck|discard (searching the deck or the discard pile)."""
    word = None
    if lower and lower[0] in SOURCES and len(tokens) > 1:  # "take deck rainbow aura"
        word, tokens = lower[0], tokens[1:]
        if tokens and tokens[0].lower() == "for":
            tokens = tokens[1:]
    else:
        before, after = _split_last(tokens, lower, {"from", "in", "out"})
        if after is not None:
            rest = [a.lower() for a in after if a.lower() not in _FILLER]
            if rest and rest[0] in SOURCES:
                word, tokens = rest[0], before
    if word not in ("deck", "discard", "discards"):
        raise CommandError(TAKE_FROM_WHERE)
    return Command(verb, card=_card_phrase(tokens), word="discard" if word == "discards" else word)


#: What `shuffle ... into deck` puts back, by its words.
_GATHERED = {"hand": "hand", "stable": "stable", "field": "stable", "discard": "discard", "discards": "discard"}


def parse_shuffle(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """shuffle hand|stable|discard [pile] into deck, shuffle a card from hand into deck, shuffle CARD [from NAME]
    into deck (the words "into deck" may be left out)."""
    while lower and lower[-1] in ("deck", "the", "into", "in", "to", "back"):
        tokens, lower = tokens[:-1], lower[:-1]
    words = [w for w in lower if w not in ("the", "my", "his", "her", "their", "whole", "pile", "all", "of")]
    people = [t for t in tokens if is_player(t, names)]
    rest = [w for w in words if not is_player(w, names)]
    if len(rest) == 1 and rest[0] in _GATHERED:
        return Command(verb, word=_GATHERED[rest[0]], target=people[0] if people else None)
    if rest[-2:] == ["from", "hand"] and all(w in ("a", "one", "card", "from", "hand") for w in rest):
        return Command(verb, word="hand-card")
    if not rest:
        raise CommandError(SHUFFLE_WHAT)
    card, target = _card_in_stable(tokens, lower, names)
    if card is None:
        raise CommandError(SHUFFLE_WHAT)
    return Command(verb, card=card, target=target, word="card")


def parse_swap(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """swap CARD [from NAME] with CARD [from NAME]."""
    if "with" not in lower:
        raise CommandError(swap_with(SWAP_EXAMPLE))
    index = lower.index("with")
    card, target = _card_in_stable(tokens[:index], lower[:index], names)
    other_card, other = _card_in_stable(tokens[index + 1 :], lower[index + 1 :], names)
    return Command(verb, card=card, target=target, other_card=other_card, other=other)


def parse_swap_hands(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """swap hands NAME [and|with] NAME (or "Ana swap hands with Ben")."""
    people = [t for t in tokens if t.lower() not in ("and", "with")]
    if not 1 <= len(people) <= 2:
        raise CommandError(SWAP_HANDS_NAMES)
    return Command(verb, target=people[0], other=people[1] if len(people) == 2 else None)


def parse_move(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """move CARD [from NAME] to NAME."""
    before, after = _split_last(tokens, lower, {"to", "into"})
    if after is None or not after:
        raise CommandError(move_where(MOVE_EXAMPLE))
    card, target = _card_in_stable(before, [b.lower() for b in before], names)
    return Command(verb, card=card, target=target, other=_words(after))


def parse_hand(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """hand NAME N (report), hands N (everyone), hand / hands (ask)."""
    numbers = [parse_number(t) for t in tokens]
    people = [t for t, n in zip(tokens, numbers) if n is None and t.lower() not in ("has", "holds", "cards", "card")]
    number = next((n for n in numbers if n is not None), None)
    if number is None:
        return Command(verb, target=_words(people) or None, asking=True)
    if verb == "hands":
        raise CommandError(HAND_NAME_NUMBER)
    return Command(verb, target=_words(people) or None, number=number)


def parse_deck(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """deck N (report), deck (ask)."""
    number = parse_number(tokens[0]) if tokens else None
    if number is None:
        return Command(verb, asking=True)
    return Command(verb, number=number)


def parse_win(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """win N: the number of Unicorns to win; win N NAME (or NAME win N): that player's own number."""
    numbers = [parse_number(t) for t in tokens if parse_number(t) is not None]
    if not numbers:
        raise CommandError(say_a_number("win", 6))
    people = [t for t in tokens if parse_number(t) is None and t.lower() not in ("for", "with")]
    return Command(verb, number=numbers[0], target=_words(people) or None)


#: Words around a player's name that say nothing more: "Ben misses their next turn", "cannot win for now".
_AROUND_A_NAME = {"a", "the", "their", "his", "her", "next", "turn", "for", "now", "again", "this", "game"}


def parse_player(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """miss turn NAME, cannot win NAME, can win NAME (or the name first): the player named, if any."""
    people = [t for t in tokens if t.lower() not in _AROUND_A_NAME]
    return Command(verb, target=_words(people) or None)


#: Words that name no card in "give a card to Ben", "give one from hand to Ben".
_ANY_CARD = {"a", "an", "one", "card", "from", "hand", "my", "their", "his", "her"}


def parse_give(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """give [CARD] to NAME, give NAME [CARD]: a card from one hand to another, named or not."""
    if "to" in lower:
        at = len(lower) - 1 - lower[::-1].index("to")
        target, said = tokens[at + 1 :], tokens[:at]
    elif tokens and is_player(tokens[0], names):
        target, said = tokens[:1], tokens[1:]
    else:
        raise CommandError(GIVE_TO_WHOM)
    if not target:
        raise CommandError(GIVE_TO_WHOM)
    card = None if all(t.lower() in _ANY_CARD for t in said) else _words(said)
    return Command(verb, card=card, target=_words(target))


def parse_query(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """stable [NAME], card CARD, nursery [BABY from NAME], and the plain queries."""
    tokens = [t for t in tokens if t.lower() not in ("is", "of", "for")]
    if verb == "card":  # "the" kept: a name may begin with it (The G.O.A.T.); the look-up tries it both ways
        return Command(verb, card=_words(tokens) or None)
    tokens = [t for t in tokens if t.lower() != "the"]
    if verb == "stable":
        return Command(verb, target=_words(tokens) or None)
    return Command(verb)


def parse_nursery(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    if not tokens:
        return Command(verb, asking=True)
    return parse_card_from(verb, tokens, lower, names)


def parse_nothing(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """A verb that takes no words after it (resolve, next, tally...): the rest of the line is ignored."""
    return Command(verb)


def parse_skip(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """skip [draw | action] [phase]: with no word, the current phase; with one, that phase of this turn."""
    words = [w for w in lower if w not in ("the", "my", "phase", "this", "turn's", "turns")]
    if not words:
        return Command(verb)
    if words != ["draw"] and words != ["action"]:
        raise CommandError(SKIP_WHICH)
    return Command(verb, word=words[0])


def parse_level(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """verbosity [brief | normal | coaching]: with no word, the next level."""
    if not lower:
        return Command(verb)
    if lower[0] not in ("brief", "normal", "coaching"):
        raise CommandError(VERBOSITY_LEVELS)
    return Command(verb, word=lower[0])


#: The words that turn a voice's dial (`tune`): the dial each names, and the way a step goes (0: set to the
#: number said, or said as it is). "table" before one of them turns the table voice's.
DIAL_WORDS = {
    "rate": ("rate", 0), "volume": ("volume", 0), "pitch": ("pitch", 0),
    "faster": ("rate", 1), "slower": ("rate", -1), "louder": ("volume", 1), "softer": ("volume", -1),
    "quieter": ("volume", -1), "higher": ("pitch", 1), "lower": ("pitch", -1),
}  # fmt: skip
#: The words naming whose voice a dial is (`rate table 80` as `table rate 80`, `rate mine 60`).
VOICE_WORDS = {"table": "table", "table's": "table", "tables": "table", "my": "own", "mine": "own", "own": "own"}
#: The longest run of digits read as a dial's value: a longer one is out of range all the same.
_DIAL_DIGITS = 6


def parse_tuning(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """rate [table | mine] [N], faster...: `word` the voice named ("table", "own"), `number` the value, and the
    first word that is neither in `options["bad"]` (a voice there is none of, or a value that is no number)."""
    voice, number, bad = None, None, ""
    for token, low in zip(tokens, lower, strict=True):
        value = parse_number(low) if len(low.lstrip("+-")) <= _DIAL_DIGITS else None
        if value is None and re.fullmatch(rf"[+-]?\d{{1,{_DIAL_DIGITS}}}", low):
            value = int(low)
        if value is not None and number is None:
            number = value
        elif low in VOICE_WORDS and voice is None:
            voice = VOICE_WORDS[low]
        elif not bad:
            bad = token
    return Command(verb, word=voice, number=number, options={"bad": bad} if bad else {})


def parse_end(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """end turn [to NAME]: NAME takes the next turn (a card gave them another turn)."""
    people = [t for t in tokens if t.lower() not in ("to", "for", "then", "next", "turn")]
    return Command(verb, target=_words(people) or None)


def parse_new_game(verb: VerbName, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """new game NAME NAME ... [first NAME] [rules ID] [win N] [two player] [babies B B ...] [deck out WORD] [hands]."""
    players: list[str] = []
    options: dict[str, Any] = {}
    index = 0
    lower = [t.lower() for t in tokens]
    while index < len(tokens) and lower[index] not in _OPTION_WORDS:
        if lower[index] not in ("with", "and", "players", "for"):
            players.append(tokens[index])
        index += 1
    while index < len(tokens):
        word = lower[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if word == "first" and following:
            options["first"] = following
            index += 2
        elif word == "rules" and following:
            options["rules"] = following.lower()
            index += 2
        elif word == "win" or (word == "to" and index + 1 < len(tokens) and lower[index + 1] == "win"):
            index += 1 if word == "win" else 2
            number = parse_number(tokens[index]) if index < len(tokens) else None
            if number is None:
                raise CommandError(say_a_number("win", 6))
            if not 1 <= number <= MAX_GOAL:
                raise CommandError(goal_out_of_range(MAX_GOAL))
            options["win"] = number
            index += 1
        elif word in ("two", "2", "2-player", "two-player", "variant"):
            options["two_player"] = True
            index += 1
            while index < len(tokens) and lower[index] in ("player", "players", "variant"):
                index += 1
        elif word == "babies":
            index += 1
            babies = []
            while index < len(tokens) and lower[index] not in _OPTION_WORDS:
                babies.append(tokens[index])
                index += 1
            options["babies"] = babies
        elif word == "deck" and index + 2 < len(tokens) and lower[index + 1] == "out":
            options["deck_out"] = lower[index + 2]
            index += 3
        elif word in ("stickler", "rule-breaker", "rulebreaker"):
            options["deck_out"] = word
            index += 1
        elif word == "hands":
            options["hands"] = True
            index += 1
        elif word in ("deck", "addon", "with-addon") and following:
            options.setdefault("decks" if word == "deck" else "addons", []).append(following.lower())
            index += 2
        else:
            raise CommandError(new_game_not_understood(tokens[index]))
    for name in players:
        if name.lower() in RESERVED or parse_number(name) is not None:
            raise CommandError(reserved_name(name))
    return Command(verb, names=tuple(players), options=options)


# Packed (fmt: skip): a set of short words reads better as a block than one word a line.
_OPTION_WORDS = {
    "first", "rules", "win", "to", "two", "2", "2-player", "two-player", "variant", "babies", "deck", "stickler",
    "rule-breaker", "rulebreaker", "hands", "addon",
}  # fmt: skip
