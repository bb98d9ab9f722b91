"""Who a fact's words are for (`Audience`): the table, said and shown on the laptop; the laptop telling a move made
on a phone; the brief level; the phone of the player the words are about; another player's phone; a narrow braille
display.

A fact carries values; each front end asks `words.worded.words_for` for its own audience's words of it (the braille
display, the phones' last moves), and a new audience is one member here and one branch in `words_for` and in
`is_coached` (matched exhaustively: mypy names the `match` a new member leaves out, `assert_never`).
"""

from __future__ import annotations

import enum
from typing import assert_never

from assistant.core.game.history import Phone

__all__ = ["Audience", "is_coached", "for_hand"]


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


def for_hand(audience: Audience, phone: Phone | None) -> Audience:
    """The audience a step's words are made for, from the phone the step was recorded from (`phone`; None: the
    laptop's keyboard), the one place this is decided: the laptop's words (`TABLE`) of a move made on a phone are
    `PHONE_MOVE`'s (the move's next step is the mover's, on the phone); any other audience is its own."""
    return Audience.PHONE_MOVE if audience is Audience.TABLE and phone is not None else audience
