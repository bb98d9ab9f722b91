"""Facts for the tests of speech, braille and the digest, made of values as the game makes them (`About` keeps no
words): `fact` makes one from the words a test means it to have, taking its values from them (a count's player,
number and noun; a duty's card, found in the deck by its words; a win's winner), and fails at once when the values
word it otherwise (`words.worded.words_for`), so a test's words are always a fact's real words."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from assistant.core.game.about import About, Counted, DutyOf, MoveKind, PromptForm, Topic, TurnOf, Waiting, WinTakenBack
from assistant.core.game.chain import PileCard, Trigger, TriggerKind
from assistant.core.game.events import EndTurn
from assistant.core.game.facts import LinkResolved
from assistant.core.game.table import Prompt, PromptKind, Table
from assistant.core.words.announce import chain_duty
from assistant.core.words.audience import Audience
from assistant.core.words.worded import words_for

PLAYERS = ("Ana", "Ben", "Cy", "Dee")


@cache
def table(game: str = "uu-2nd") -> Table:
    """A game of the four players on the deck `game` (its names and terms)."""
    from assistant.session import Session
    from assistant.storage.decks import load_card_set

    session = Session(load_card_set(game))
    session.handle(f"new game {' '.join(PLAYERS)}")
    assert session.game is not None
    return session.game.table


@cache
def _duties(game: str) -> dict[str, str]:
    """Each card's duty as a link of the chain says it, by its words (the first card of those words)."""
    found: dict[str, str] = {}
    for card in table(game).cards.by_id.values():
        said = chain_duty(table(game), (Trigger(card.id, 0, TriggerKind.ENTER),))
        found.setdefault(said, card.id)
    return found


def fact(topic: Topic, words: str, *seats: int, player: str = "", **values: object) -> About:
    """A fact of `topic` about `seats` whose table words are `words`, its values taken from them; `values`: its
    other fields (a move's kind, card, place ...)."""
    name = player or (PLAYERS[seats[0]] if seats else "")
    if topic is Topic.TURN and "'s turn" in words:  # (a name in any case, of several words)
        name = player or words.split("'s turn")[0]
    game = "llamas" if "Animal" in words else "uu-2nd"
    made: About
    match topic:
        case Topic.COUNT:
            has = " has " in words
            pieces = re.split(r", | and ", words.rstrip(".")) if has else [words.rstrip(".")]
            counts = [re.fullmatch(r"(.+?)(?: has)? (\d+) (Unicorn|Animal)s?", piece) for piece in pieces]
            names = tuple(c.group(1) for c in counts if c)
            numbers = tuple(int(c.group(2)) for c in counts if c)
            noun = next((c.group(3) for c in counts if c), "Unicorn")
            source = Counted(names, numbers, noun, has=has)
            made = About(topic, seats, name, source=source, **values)  # type: ignore[arg-type]
        case Topic.DUTY:
            link = (Trigger(_duties(game)[words], seats[0] if seats else 0, TriggerKind.ENTER),)
            made = About(topic, seats, name, source=DutyOf(link), table=table(game), **values)  # type: ignore[arg-type]
        case Topic.WIN if not seats:
            made = About(topic, source=WinTakenBack(), **values)  # type: ignore[arg-type]
        case Topic.CHAIN_DONE:
            done = LinkResolved((), None)
            state = table(game).initial_state()
            made = About(topic, seats, name, source=done, table=table(game), state=state, **values)  # type: ignore[arg-type]
        case Topic.QUESTION if words.endswith("?") and len(words.split()) <= 2:
            waiting = Waiting(Prompt(PromptKind.ANSWER, 0), PromptForm.ANSWER)
            made = About(topic, seats, name, source=waiting, table=table(game), **values)  # type: ignore[arg-type]
        case Topic.QUESTION if (pile := re.fullmatch(r"Any Neigh for (\w+)'s (.+)\?", words)) is not None:
            card = table(game).cards.find_exact(pile.group(2))
            assert card is not None, words
            top = PileCard(PLAYERS.index(pile.group(1)), card.id)
            waiting = Waiting(Prompt(PromptKind.ANSWER, 0, top=top), coached=False)
            made = About(topic, seats, name, source=waiting, table=table(game), **values)  # type: ignore[arg-type]
        case Topic.TURN if ": may use the " in words:
            variation = words.split(": may use the ")[1].split()[0].lower()
            herd = (Trigger(variation, seats[0] if seats else 0, TriggerKind.HERD),)
            turn = TurnOf(0, (herd,))
            made = About(topic, seats, name, source=turn, table=table(game), **values)  # type: ignore[arg-type]
        case Topic.MOVE if values.get("move") is MoveKind.END and words.endswith("'s turn ended."):
            state = replace(table(game).initial_state(), current=seats[0])
            made = About(topic, seats, name, event=EndTurn(), table=table(game), state=state, **values)  # type: ignore[arg-type]
        case _:
            if isinstance(values.get("owner"), int) and "whose" not in values:
                values["whose"] = PLAYERS[values["owner"]]  # type: ignore[index]
            made = About(topic, seats, name, **values)  # type: ignore[arg-type]
    said = words_for(made, Audience.TABLE)
    assert said == words, f"{topic.name} worded {said!r}, not {words!r}"
    return made


def move(words: str, seat: int, kind: str, card: str = "", at: int = 0, **values: object) -> About:
    """A move of `seat`'s player, of `kind`, whose words (its short form, made from its kind and card) are `words`."""
    return fact(Topic.MOVE, words, seat, move=MoveKind(kind), card=card, at=at, **values)


def said(fact_: About) -> str:
    """A fact's words for the table."""
    return words_for(fact_, Audience.TABLE)
