"""A fact worded for an audience (`words_for`): the one entry point a front end asks for its own words of a fact.

A fact (`About`) carries values only: its kind, seats, player, move, card, owner, place, the event a move recorded,
what a question asks (`About.asked`). Each audience's words are made here from those values, matched over every
`Audience` (mypy names the `match` a new member leaves out, `assert_never`), and a question's over every kind of
`Asked`: a new audience is one member of `Audience` and one branch here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from assistant.core.game.about import About, Asked, NewPhone, RecordAnyway, SaveInstead, WhichCard, WhichInstant
from assistant.core.game.table import Table
from assistant.core.words.audience import Audience, brief_words
from assistant.core.words.cardtext import numbered_names
from assistant.core.words.entry import spoken_query
from assistant.core.words.gameplay import cost_said
from assistant.core.words.kinds import own_move
from assistant.core.words.pace import merged_own
from assistant.core.words.rulings import ASK_NARROW

__all__ = ["words_for", "asked_narrow"]


def words_for(fact: About, audience: Audience, table: Table | None = None) -> str:
    """A fact's words for an audience: the table's words; brief, its short form ("Ben's turn." for "Ben's turn: may
    use the Blue Herd Bonus.", said when it is folded again and held on a braille display); a narrow braille
    display's, who is asked or the question first (`About.asked`), else its short form; its own player's phone's,
    in the second person ("You drew a card.", made from its event with the names of `table`, the game it is of),
    else another phone's; another phone's and the laptop's of a phone's move, its own words (a fact's words never
    say how to say a move, `About.text`)."""
    match audience:
        case Audience.TABLE:
            return fact.text
        case Audience.BRIEF:
            return brief_words(fact)
        case Audience.NARROW:
            return _narrow(fact.asked) if fact.asked is not None else brief_words(fact)
        case Audience.OWN_PHONE:
            return _own(fact, table) or fact.text
        case Audience.OTHER_PHONE | Audience.PHONE_MOVE:
            return fact.text
        case _:  # pragma: no cover - mypy checks every audience is named above
            assert_never(audience)


def _own(fact: About, table: Table | None) -> str:
    """A move's words on the phone of the player who made it: several moves said as one from their values ("You
    drew a card and played Yay."), one from its event ("" for no move of a player's own, or no game to name it in:
    the table's words serve)."""
    if fact.parts:
        return merged_own(fact)
    if fact.event is None or table is None or not fact.seats:
        return ""
    return own_move(table, fact.event, fact.seats[0])


def _narrow(asked: Asked) -> str:
    """What a question or a warning asks, on a braille display of 20 cells or fewer, whose first window holds two or
    three words: who is asked, or the question, first."""
    match asked:
        case RecordAnyway(reason=reason):
            return f"{ASK_NARROW} {reason}"
        case SaveInstead(player=player, card=card, saver=saver, discards=discards, destroyed=destroyed):
            fate = "destroyed" if destroyed else "sacrificed"
            cost = cost_said(saver, discards)
            return f"{player}: save {card}? By {cost} instead. Say yes, or no to let it be {fate}."
        case WhichInstant(player=player, offered=offered):
            items = ", ".join(f"{n} {name}" for n, name in offered)
            return f"{player}: which Instant? {items}. Type a number to choose."
        case WhichCard(player=player, query=query, offered=offered):
            choices = numbered_names(offered)
            return f"{player}: which card is {spoken_query(query)}? {choices} Type a number to choose."
        case NewPhone(player=player):
            return f"{player}: new phone. Let it in?"
        case _:  # pragma: no cover - mypy checks every kind of question is named above
            assert_never(asked)


def asked_narrow(facts: Iterable[About]) -> tuple[str, ...]:
    """The questions and warnings among the facts that a narrow braille display words apart (who is asked, or the
    question, first: "Ben: new phone. Let it in?"), in those words; empty where none asks anything of its own."""
    return tuple(words_for(fact, Audience.NARROW) for fact in facts if fact.asked is not None)
