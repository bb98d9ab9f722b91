"""Who a fact's words are for (`Audience`): the table, said and shown on the laptop; the brief level; the phone of
the player the words are about; another player's phone; a narrow braille display.

A fact carries values; each front end asks the words for its own audience's words of it, and a new audience is one
member here and one branch where its words differ (matched exhaustively, so mypy names every place a new member
must be decided: `assert_never` in the `match`).
"""

from __future__ import annotations

import enum

__all__ = ["Audience"]


class Audience(enum.Enum):
    """Who hears or reads a fact's words."""

    TABLE = "table"
    """The laptop, said and shown: the table's words, with how to say the next move where it helps ("say resolve
    when it is done")."""
    BRIEF = "brief"
    """The laptop at the brief level: the facts alone, short."""
    OWN_PHONE = "own-phone"
    """The phone of the player who made the move: in the second person ("You drew a card."), never how to say a move
    (the phone's buttons say how)."""
    OTHER_PHONE = "other-phone"
    """Another player's phone: the table's words, never how to say a move."""
    NARROW = "narrow"
    """A braille display of 20 cells or fewer, whose first window holds two or three words: who, or the question,
    first."""
