"""Who a fact's words are for (`Audience`): the table, said and shown on the laptop; the laptop telling a move made
on a phone; the brief level; the phone of the player the words are about; another player's phone; a narrow braille
display.

A fact carries values; each front end asks `words_for` for its own audience's words of it (the braille display,
the phones' last moves), and a new audience is one member here and one branch in `words_for` (matched exhaustively:
mypy names the `match` a new member leaves out, `assert_never`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import assert_never

from assistant.core.game.about import About, Topic
from assistant.core.words.gameplay import turn_began

__all__ = ["Audience", "words_for", "asked_narrow", "is_coached"]


class Audience(enum.Enum):
    """Who hears or reads a fact's words."""

    TABLE = "table"
    """The laptop, said and shown: the table's words, with how to say the next move where it helps ("say resolve
    when it is done")."""
    PHONE_MOVE = "phone-move"
    """The laptop telling a move another hand made on a phone (the table voice's, where there is one): the table's
    words, never how to say a move on her keyboard ("say destroy and the card", "say resolve when it is done"): the
    move's next step is the mover's, on the phone, and no one at the table types it."""
    BRIEF = "brief"
    """The laptop at the brief level: the facts alone, short, never how to say a move (a fact's own words, said
    again folded, in a digest, on the phones)."""
    OWN_PHONE = "own-phone"
    """The phone of the player who made the move: in the second person ("You drew a card."), never how to say a move
    (the phone's buttons say how)."""
    OTHER_PHONE = "other-phone"
    """Another player's phone: the table's words, never how to say a move."""
    NARROW = "narrow"
    """A braille display of 20 cells or fewer, whose first window holds two or three words: who, or the question,
    first."""


def words_for(fact: About, audience: Audience) -> str:
    """A fact's words for an audience: the table's words; brief, its short form ("Ben's turn." for "Ben's turn: may
    use the Blue Herd Bonus.", said when it is folded again and held on a braille display); a narrow braille
    display's, who asks or the question first, else its short form; its own player's phone's, in the second person
    ("You drew a card."), else another phone's; another phone's and the laptop's of a phone's move, its own words
    (a fact's words never say how to say a move, `About.text`)."""
    match audience:
        case Audience.TABLE:
            return fact.text
        case Audience.BRIEF:
            return _brief(fact)
        case Audience.NARROW:
            return fact.narrow or _brief(fact)
        case Audience.OWN_PHONE:
            return fact.own or fact.text
        case Audience.OTHER_PHONE | Audience.PHONE_MOVE:
            return fact.text
        case _:  # pragma: no cover - mypy checks every audience is named above
            assert_never(audience)


def _brief(fact: About) -> str:
    """A fact's brief words, made from its values: a turn by its player alone ("Ben's turn.", its duties left out:
    a reminder longer than the gap between keys is never said whole twice); else its own words."""
    if fact.topic is Topic.TURN and fact.player:
        return turn_began(0, fact.player, brief=True)
    return fact.text


def asked_narrow(facts: Iterable[About]) -> tuple[str, ...]:
    """The questions and warnings among the facts that a narrow braille display words apart (who asks, or the
    question, first: "Ben: new phone. Let it in?"), in those words; empty where none has words of its own there."""
    return tuple(words_for(fact, Audience.NARROW) for fact in facts if fact.narrow)


def is_coached(audience: Audience) -> bool:
    """The audience's words may say how to say the next move on her keyboard ("say destroy and the card"): the
    laptop's own (the table, a braille display); never a fact's brief words (said again folded, in a digest, on the
    phones), nor a phone's, whose buttons say how, nor the laptop's words of a phone's move, whose next step is the
    mover's."""
    match audience:
        case Audience.TABLE | Audience.NARROW:
            return True
        case Audience.BRIEF | Audience.OWN_PHONE | Audience.OTHER_PHONE | Audience.PHONE_MOVE:
            return False
        case _:  # pragma: no cover - mypy checks every audience is named above
            assert_never(audience)
