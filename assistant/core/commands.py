"""The game's command language: short, speakable lines such as "play rainbow aura into Ben" (docs/commands.md).

Parsing is pure and in two steps, like a chess move read from text: `parse_command` splits a line into a
`Command` (the verb, and the card and player phrases as typed), knowing only the players' names; then, once the
card phrases are resolved to cards (by whatever resolver the app uses, so abbreviations work), `build_event`
turns it into an `Event` for the current state. Neither step checks the rules: that is `Table.check`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from assistant.core import events as ev
from assistant.core import words
from assistant.core.cards import Card, CardType, normalize
from assistant.core.game import GameState, Table


class CommandError(ValueError):
    """A command that cannot be understood; the message says what was wrong, ready to be spoken."""


@dataclass(frozen=True)
class Command:
    """A parsed line, with card and player phrases not yet resolved."""

    verb: str
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
    number: int | None = None
    word: str | None = None
    """A keyword argument: a source ("deck"), a query's subject, "all"."""
    names: tuple[str, ...] = ()
    """new game: the players' names."""
    options: dict = field(default_factory=dict)
    """new game: first, rules, win, two-player, babies, deck-out, hands."""

    @property
    def card_phrases(self) -> tuple[str, ...]:
        """The card phrases to resolve, in order."""
        return tuple(p for p in (self.card, self.other_card) if p)


#: Verbs that record an event.
EVENT_VERBS = {
    "play", "neigh", "super-neigh", "resolve", "next", "skip", "end", "bring", "baby", "nursery", "steal", "destroy",
    "sacrifice", "discard", "return", "draw", "take", "swap", "swap-hands", "move", "hand", "hands", "deck",
    "deck-empty", "reshuffle", "win",
}  # fmt: skip
_SYNONYMS = {
    "plays": "play", "played": "play", "neighs": "neigh", "resolves": "resolve", "done": "resolve",
    "draws": "draw", "discards": "discard", "steals": "steal", "destroys": "destroy", "sacrifices": "sacrifice",
    "brings": "bring", "returns": "return", "takes": "take", "swaps": "swap", "moves": "move",
    "field": "stable", "stables": "stable", "fields": "stable", "score": "tally", "count": "tally",
    "history": "log", "confirm": "yes", "y": "yes", "ok": "yes", "cancel": "no", "n": "no", "whose": "turn",
    "status": "turn", "where": "turn", "read": "card", "what": "card", "answer": "play", "answers": "play",
}  # fmt: skip
#: Words that cannot be a player's name: they would be read as part of a command.
RESERVED = {
    "into", "in", "to", "from", "of", "with", "and", "for", "by", "the", "first", "rules", "win", "two", "babies",
    "hands", "hand", "deck", "discard", "nursery", "all", "me", "player", "variant", "out", "yes", "no",
}  # fmt: skip
_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "a": 1, "an": 1,
}  # fmt: skip
_SOURCES = {
    "hand": ev.Source.HAND, "deck": ev.Source.DECK, "discard": ev.Source.DISCARD, "discards": ev.Source.DISCARD,
    "nursery": ev.Source.NURSERY,
}  # fmt: skip
_FILLER = {"the", "a", "an", "pile", "card", "cards", "please", "his", "her", "their", "my"}


#: The highest number to win the table may set.
MAX_GOAL = 50


def parse_number(word: str) -> int | None:
    """A whole number from digits or a word ("3", "three"), or None."""
    word = word.lower()
    if word.isdigit() and len(word) <= 3:
        return int(word)
    return _NUMBERS.get(word)


def find_player(phrase: str, names: tuple[str, ...]) -> int:
    """The seat of the player a phrase names: the whole name, or a start only one name has (case ignored)."""
    key = normalize(phrase)
    if not key:
        raise CommandError(words.NAME_MISSING)
    exact = [seat for seat, name in enumerate(names) if normalize(name) == key]
    if exact:
        return exact[0]
    starts = [seat for seat, name in enumerate(names) if normalize(name).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise CommandError(words.ambiguous_player(phrase, [names[s] for s in starts]))
    raise CommandError(words.unknown_player(phrase, names))


def _is_player(word: str, names: tuple[str, ...]) -> bool:
    key = normalize(word)
    return bool(key) and any(normalize(name) == key for name in names)


def parse_command(text: str, names: tuple[str, ...] = ()) -> Command | None:
    """Split a line into a `Command`; None when it is not a game command (then it is a card look-up).

    `names` are the players of the game in progress, so "Ben draw" and "neigh Ben" are understood.
    `CommandError` when the verb is a command's but the rest cannot be read.
    """
    tokens = re.findall(r"[^\s,;:.!?]+", text.strip())
    if not tokens:
        return None
    lower = [t.lower() for t in tokens]
    if lower[:2] == ["new", "game"]:
        return _parse_new_game(tokens[2:])
    actor = None
    if len(tokens) >= 2 and _is_player(tokens[0], names) and _verb_of(lower[1:]) is not None:
        actor, tokens, lower = tokens[0], tokens[1:], lower[1:]
    verb_info = _verb_of(lower)
    if verb_info is None:
        return None
    verb, used = verb_info
    rest, rest_lower = tokens[used:], lower[used:]
    parser = _PARSERS.get(verb)
    command = parser(verb, rest, rest_lower, names) if parser else Command(verb)
    if actor is not None:
        command = dataclasses.replace(command, actor=actor)
    return command


def _verb_of(lower: list[str]) -> tuple[str, int] | None:
    """The canonical verb at the start of the words, and how many words it took."""
    if not lower:
        return None
    first = _SYNONYMS.get(lower[0], lower[0])
    second = lower[1] if len(lower) > 1 else ""
    if first == "super" and second in ("neigh", "neighs"):
        return "super-neigh", 2
    if first == "end":
        return ("next", 2) if second == "phase" else ("end", 2 if second == "turn" else 1)
    if first == "swap" and second == "hands":
        return "swap-hands", 2
    if first == "deck" and second in ("empty", "out", "ran", "runs"):
        return "deck-empty", len(lower)
    if first == "whose" or (first == "turn" and second != ""):
        return "turn", len(lower)
    if first == "card" and second in ("of", "for"):
        return "card", 2
    if first == "discard" and second in ("pile", "piles"):
        return "discards", 2
    if first in ("undo", "redo", "yes", "no", "help", "?"):
        return ("help" if first == "?" else first), 1
    if first in ("turn", "phase", "tally", "pile", "chain", "players", "log", "rules", "discards", "card"):
        return first, 1
    if first in ("stable",):
        return "stable", 1
    if first in EVENT_VERBS:
        return first, 1
    if first == "skip":
        return "skip", 1
    return None


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


def _need_card(verb: str, tokens: list[str]) -> str:
    phrase = _words(_strip_filler(tokens))
    if not phrase:
        raise CommandError(words.say_which_card(_EXAMPLES.get(verb, verb + " rainbow aura")))
    return phrase


_EXAMPLES = {
    "play": "play rainbow aura, or play slowdown into Ben",
    "bring": "bring basic red into Ana",
    "baby": "baby Ana red",
    "steal": "steal rainbow aura from Ben",
    "destroy": "destroy rainbow aura from Ben",
    "sacrifice": "sacrifice rainbow aura",
    "return": "return rainbow aura from Ben",
    "take": "take rainbow aura from the deck",
    "swap": "swap rainbow aura from Ana with slowdown from Ben",
    "move": "move slowdown from Ana to Ben",
    "nursery": "nursery baby red from Ana",
    "card": "card rainbow aura",
}


def _parse_card_into(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """play CARD [into NAME], bring CARD [into NAME] [from SOURCE]."""
    word = None
    before, after = _split_last(tokens, lower, {"from"})
    if after is not None and len(after) >= 1 and after[-1].lower() in _SOURCES:
        word = after[-1].lower()
        tokens, lower = before, [t.lower() for t in before]
    before, after = _split_last(tokens, lower, {"into", "in", "to", "for", "on"})
    target = None
    said_into = after is not None and tokens[len(before)].lower() == "into"
    if after and (_looks_like_player(after, names) or (said_into and len(after) <= 2)):
        target = _words(after)  # "into" always names a player; "in", "to", "on" may be part of a card's name
        tokens = before
    return Command(verb, card=_need_card(verb, tokens), target=target, word=word)


def _looks_like_player(tokens: list[str], names: tuple[str, ...]) -> bool:
    """A player phrase: one word, or a whole name; when no game is known, any single word."""
    phrase = _words(tokens)
    if not names:
        return len(tokens) == 1
    key = normalize(phrase)
    return any(normalize(n) == key or normalize(n).startswith(key) for n in names) and len(tokens) <= 3


def _parse_card_from(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """steal, destroy, return, nursery, sacrifice: CARD [from|of|in NAME]."""
    before, after = _split_last(tokens, lower, {"from", "of", "in", "to"} if verb != "sacrifice" else set())
    target = None
    if after is not None and after:
        if verb == "return" and [a.lower() for a in after] in (["hand"], ["the", "hand"]):
            tokens = before
        elif _looks_like_player(after, names) or (tokens[len(before)].lower() == "from" and len(after) <= 2):
            target = _words(after)  # "from" always names a player; "of" and "in" may be part of a card's name
            tokens = before
    if verb == "return" and tokens and tokens[-1].lower() == "hand":  # "return X to hand"
        tokens = tokens[:-1]
        if tokens and tokens[-1].lower() in ("to", "the"):
            tokens = tokens[:-1]
    return Command(verb, card=_need_card(verb, tokens), target=target)


def _parse_baby(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """baby NAME BABY, or baby BABY [to|into NAME]."""
    if len(tokens) >= 2 and _is_player(tokens[0], names):
        return Command(verb, card=_need_card(verb, tokens[1:]), target=tokens[0])
    command = _parse_card_into(verb, tokens, lower, names)
    return Command(verb, card=command.card, target=command.target)


def _parse_neigh(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """neigh NAME, super neigh NAME (or "Ben neigh")."""
    tokens = [t for t in tokens if t.lower() not in ("by", "from")]
    return Command(verb, target=_words(tokens) or None)


def _parse_count(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """draw [N], discard [N | CARD], undo [N | all], redo [N | all]."""
    if not tokens:
        return Command(verb)
    if len(tokens) == 1 and lower[0] == "all" and verb in ("undo", "redo"):
        return Command(verb, word="all")
    number = parse_number(tokens[0]) if tokens else None
    if number is not None and (len(tokens) == 1 or lower[1:] in (["card"], ["cards"])):
        return Command(verb, number=number)
    if verb == "discard":
        return Command(verb, card=_need_card(verb, tokens))
    raise CommandError(words.say_a_number(verb, 2))


def _parse_take(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """take CARD from deck|discard (searching the deck or the discard pile)."""
    word = None
    if lower and lower[0] in _SOURCES and len(tokens) > 1:  # "take deck rainbow aura"
        word, tokens = lower[0], tokens[1:]
        if tokens and tokens[0].lower() == "for":
            tokens = tokens[1:]
    else:
        before, after = _split_last(tokens, lower, {"from", "in", "out"})
        if after is not None:
            rest = [a.lower() for a in after if a.lower() not in _FILLER]
            if rest and rest[0] in _SOURCES:
                word, tokens = rest[0], before
    if word not in ("deck", "discard", "discards"):
        raise CommandError(words.TAKE_FROM_WHERE)
    return Command(verb, card=_need_card(verb, tokens), word="discard" if word == "discards" else word)


def _parse_swap(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """swap CARD [from NAME] with CARD [from NAME]."""
    if "with" not in lower:
        raise CommandError(words.swap_with(_EXAMPLES["swap"]))
    index = lower.index("with")
    first = _parse_card_from("steal", tokens[:index], lower[:index], names)
    second = _parse_card_from("steal", tokens[index + 1 :], lower[index + 1 :], names)
    return Command(verb, card=first.card, target=first.target, other_card=second.card, other=second.target)


def _parse_swap_hands(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """swap hands NAME [and|with] NAME (or "Ana swap hands with Ben")."""
    people = [t for t in tokens if t.lower() not in ("and", "with")]
    if not 1 <= len(people) <= 2:
        raise CommandError(words.SWAP_HANDS_NAMES)
    return Command(verb, target=people[0], other=people[1] if len(people) == 2 else None)


def _parse_move(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """move CARD [from NAME] to NAME."""
    before, after = _split_last(tokens, lower, {"to", "into"})
    if after is None or not after:
        raise CommandError(words.move_where(_EXAMPLES["move"]))
    first = _parse_card_from("steal", before, [b.lower() for b in before], names)
    return Command(verb, card=first.card, target=first.target, other=_words(after))


def _parse_hand(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """hand NAME N (report), hands N (everyone), hand / hands (ask)."""
    numbers = [parse_number(t) for t in tokens]
    people = [t for t, n in zip(tokens, numbers) if n is None and t.lower() not in ("has", "holds", "cards", "card")]
    number = next((n for n in numbers if n is not None), None)
    if number is None:
        return Command("hands?", target=_words(people) or None)
    if verb == "hands":
        raise CommandError(words.HAND_NAME_NUMBER)
    return Command("hand", target=_words(people) or None, number=number)


def _parse_deck(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """deck N (report), deck (ask)."""
    number = parse_number(tokens[0]) if tokens else None
    if number is None:
        return Command("deck?")
    return Command("deck", number=number)


def _parse_win(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """win N: the number of Unicorns to win."""
    numbers = [parse_number(t) for t in tokens if parse_number(t) is not None]
    if not numbers:
        raise CommandError(words.say_a_number("win", 6))
    return Command("win", number=numbers[0])


def _parse_query(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """stable [NAME], card CARD, nursery [BABY from NAME], and the plain queries."""
    tokens = [t for t in tokens if t.lower() not in ("is", "the", "of", "for")]
    if verb == "card":
        return Command("card", card=_need_card("card", tokens))
    if verb == "stable":
        return Command("stable", target=_words(tokens) or None)
    return Command(verb)


def _parse_nursery(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    if not tokens:
        return Command("nursery?")
    return _parse_card_from(verb, tokens, lower, names)


def _parse_next(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    return Command(verb)


def _parse_end(verb: str, tokens: list[str], lower: list[str], names: tuple[str, ...]) -> Command:
    """end turn [to NAME]: NAME takes the next turn (a card gave them another turn)."""
    people = [t for t in tokens if t.lower() not in ("to", "for", "then", "next", "turn")]
    return Command(verb, target=_words(people) or None)


_PARSERS = {
    "play": _parse_card_into,
    "bring": _parse_card_into,
    "baby": _parse_baby,
    "neigh": _parse_neigh,
    "super-neigh": _parse_neigh,
    "steal": _parse_card_from,
    "destroy": _parse_card_from,
    "sacrifice": _parse_card_from,
    "return": _parse_card_from,
    "nursery": _parse_nursery,
    "draw": _parse_count,
    "discard": _parse_count,
    "undo": _parse_count,
    "redo": _parse_count,
    "take": _parse_take,
    "swap": _parse_swap,
    "swap-hands": _parse_swap_hands,
    "move": _parse_move,
    "hand": _parse_hand,
    "hands": _parse_hand,
    "deck": _parse_deck,
    "win": _parse_win,
    "stable": _parse_query,
    "card": _parse_query,
    "next": _parse_next,
    "end": _parse_end,
}


def _parse_new_game(tokens: list[str]) -> Command:
    """new game NAME NAME ... [first NAME] [rules ID] [win N] [two player] [babies B B ...] [deck out WORD] [hands]."""
    names: list[str] = []
    options: dict = {}
    index = 0
    lower = [t.lower() for t in tokens]
    while index < len(tokens) and lower[index] not in _OPTION_WORDS:
        if lower[index] not in ("with", "and", "players", "for"):
            names.append(tokens[index])
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
                raise CommandError(words.say_a_number("win", 6))
            if not 1 <= number <= MAX_GOAL:
                raise CommandError(words.goal_out_of_range(MAX_GOAL))
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
            raise CommandError(words.new_game_not_understood(tokens[index]))
    for name in names:
        if name.lower() in RESERVED or parse_number(name) is not None:
            raise CommandError(words.reserved_name(name))
    return Command("new-game", names=tuple(names), options=options)


_OPTION_WORDS = {"first", "rules", "win", "to", "two", "2", "2-player", "two-player", "variant", "babies", "deck",
                 "stickler", "rule-breaker", "rulebreaker", "hands", "addon"}  # fmt: skip


def find_baby(table_cards, phrase: str) -> list[Card]:
    """Baby cards whose name or id contains the phrase ("red" → Baby Unicorn (Red))."""
    key = normalize(phrase)
    babies = [c for c in table_cards if c.type is CardType.BABY]
    exact = [c for c in babies if normalize(c.name) == key or normalize(c.id) == key]
    if exact:
        return exact
    words = [w for w in re.split(r"\W+", phrase.lower()) if w and w != "baby"]
    found = [c for c in babies if all(w in c.name.lower() or w in c.id for w in words)] if words else []
    # "narwhal" fits Baby Narwhal exactly, not the Unicorns: prefer names whose last word is the phrase.
    tight = [c for c in found if normalize(c.name.split()[-1]) == key]
    return tight or found


def cards_with_words(cards, phrase: str) -> list[Card]:
    """Cards whose name has a word starting with each word typed ("basic red" → Basic Unicorn (Red))."""
    typed = [normalize(w) for w in phrase.split()]
    typed = [w for w in typed if w]
    if not typed:
        return []
    found = []
    for card in cards:
        name_words = [normalize(w) for w in re.split(r"[\s()\-]+", card.name) if normalize(w)]
        if all(any(n.startswith(w) for n in name_words) for w in typed):
            found.append(card)
    return found


def owner_of(state: GameState, card_id: str, exclude: int | None = None) -> list[int]:
    """Seats whose Stable holds the card, leaving out `exclude`."""
    return [seat for seat, p in enumerate(state.players) if card_id in p.stable and seat != exclude]


def build_event(command: Command, cards: dict[str, Card], table: Table, state: GameState) -> ev.Event:
    """The event a command records, given its card phrases resolved (`cards` maps each phrase to its card).

    `CommandError` when a player is unknown, or a needed owner cannot be worked out.
    """
    names = table.setup.players
    actor = find_player(command.actor, names) if command.actor else state.current

    def card(phrase: str | None) -> str:
        return cards[phrase].id

    def player(phrase: str | None, default: int) -> int:
        return default if phrase is None else find_player(phrase, names)

    def holder(phrase: str | None, card_id: str, exclude: int | None) -> int:
        if phrase is not None:
            return find_player(phrase, names)
        seats = owner_of(state, card_id, exclude)
        if len(seats) == 1:
            return seats[0]
        if not seats and exclude is not None and card_id in state.players[exclude].stable:
            return exclude
        raise CommandError(words.whose_stable(cards_name(card_id)))

    def cards_name(card_id: str) -> str:
        found = table.cards.get(card_id)
        return found.name if found else card_id

    verb = command.verb
    if verb in ("neigh", "super-neigh"):
        card_id = table.super_neigh_card if verb == "super-neigh" else table.neigh_card
        if card_id is None:
            raise CommandError(words.no_neigh_card(verb == "super-neigh"))
        who = player(command.target, actor if command.actor else -1)
        if who < 0:
            raise CommandError(words.who_plays(verb.replace("-", " ")))
        return ev.Respond(who, card_id)
    if verb == "play":
        card_id = card(command.card)
        if cards[command.card].type is CardType.INSTANT and state.pile:
            return ev.Respond(actor, card_id)
        found = cards[command.card]
        into = None
        if found.type.is_creature or found.type in (CardType.UPGRADE, CardType.DOWNGRADE):
            into = player(command.target, actor)
        return ev.Play(actor, card_id, into)
    if verb == "bring":
        source = _SOURCES.get(command.word or "hand", ev.Source.HAND)
        found = cards[command.card]
        if found.type is CardType.BABY and command.word is None:
            source = ev.Source.NURSERY
        return ev.Bring(actor, found.id, player(command.target, actor), source)
    if verb == "baby":
        into = player(command.target, actor)
        return ev.Bring(into, card(command.card), into, ev.Source.NURSERY)
    if verb == "nursery":
        card_id = card(command.card)
        owner = holder(command.target, card_id, None)
        return ev.ToNursery(actor, card_id, owner)
    if verb == "steal":
        card_id = card(command.card)
        return ev.Steal(actor, card_id, holder(command.target, card_id, actor))
    if verb == "destroy":
        card_id = card(command.card)
        return ev.Destroy(actor, card_id, holder(command.target, card_id, actor))
    if verb == "sacrifice":
        return ev.Sacrifice(player(command.target, actor), card(command.card))
    if verb == "return":
        card_id = card(command.card)
        return ev.ReturnToHand(actor, card_id, holder(command.target, card_id, None))
    if verb == "discard":
        if command.number is not None and command.number != 1:
            raise CommandError(words.DISCARD_ONE_AT_A_TIME)
        return ev.Discard(actor, card(command.card) if command.card else None)
    if verb == "draw":
        return ev.Draw(actor, 1 if command.number is None else command.number)
    if verb == "take":
        return ev.Take(actor, card(command.card), _SOURCES[command.word])
    if verb == "swap":
        first, second = card(command.card), card(command.other_card)
        owner = holder(command.target, first, None)
        other_owner = holder(command.other, second, owner)
        return ev.Swap(actor, first, owner, second, other_owner)
    if verb == "swap-hands":
        if command.other is None:
            return ev.SwapHands(actor, player(command.target, actor))
        return ev.SwapHands(player(command.target, actor), player(command.other, actor))
    if verb == "move":
        card_id = card(command.card)
        return ev.Move(actor, card_id, holder(command.target, card_id, None), player(command.other, actor))
    if verb == "next":
        return ev.Resolve() if state.pile or state.chain else ev.NextPhase()
    if verb == "resolve":
        return ev.Resolve()
    if verb == "skip":
        return ev.NextPhase(skip=True)
    if verb == "end":
        return ev.EndTurn(None if command.target is None else find_player(command.target, names))
    if verb == "hand":
        return ev.SetHand(player(command.target, actor), command.number)
    if verb == "deck":
        return ev.DeckEmpty() if command.number == 0 else ev.SetDeck(command.number)
    if verb == "deck-empty":
        return ev.DeckEmpty()
    if verb == "reshuffle":
        return ev.Reshuffle()
    if verb == "win":
        if not 1 <= command.number <= MAX_GOAL:
            raise CommandError(words.goal_out_of_range(MAX_GOAL))
        return ev.SetGoal(command.number)
    raise CommandError(words.not_an_event(verb))  # pragma: no cover - callers route queries elsewhere
