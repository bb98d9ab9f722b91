"""What each kind of move decides, in one table (`KINDS`): the earcon another hand's move of that kind sounds, how a
merged sentence says it ("Ben drew a card and played Yay."), whether its own player's phone says it in its own
words (`words.share.own_move`), whether it is said with whose card it took, whether it took a card from its owner's
Stable (a digest says those first), whether it answers the pile, and whether a braille display shows the card it
took first. A new `MoveKind` gets its one row here (`tests/core/test_move_kinds.py` fails until it
has); whether another hand's move of a kind is decisive is the game's own table (`game.about.DECISIVE`), read by
`About.decisive` below the words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from assistant.core.game.about import MoveKind

__all__ = ["KindSays", "KINDS", "kind_says"]

#: The earcons a move may sound ("": none), by their names in the sound adapter (`assistant.speech.earcons`).
Earcon = Literal["", "lost-card", "neigh", "pile"]


@dataclass(frozen=True)
class KindSays:
    """What one kind of move decides."""

    earcon: Earcon = ""
    """The earcon of another hand's move of this kind ("": none); "lost-card" only where the card was the listener's
    (`speech.placement.move_earcon` leaves it out where it was someone else's)."""
    did: str = ""
    """What the move's player did, said after their name in a merged sentence ("{card}": the card's name, whose it
    was where the move took it from a Stable: "destroyed Ana's Rainbow Aura"; "{on}": the card an Instant stopped);
    "": a kind with no short form, said in its own words and never merged (`words.pace.merge_moves`)."""
    own: bool = True
    """Whether a move of this kind is a player's own, said by that player's phone in the second person ("You drew a
    card.", `words.share.own_move`); False: no one's move (a resolve, the deck set) or no event of its own (an undo,
    merged moves), and every phone shows the table's words of it."""
    whose: bool = False
    """It takes a card from its owner's Stable and a merged sentence says whose it was ("destroyed Ana's Rainbow
    Aura", "their own" for the mover's, "your own" on the mover's phone)."""
    takes_away: bool = False
    """It takes a card out of its owner's Stable (`About.owner`): a digest of what was missed says first those that
    took hers (`words.pace.missed`)."""
    answers: bool = False
    """An Instant, a Neigh or another: said with the card it answered, and told apart from the card it stopped."""
    point: bool = False
    """Its point is the card it takes from a Stable: a braille display shows that first in the move's window ("Ana
    stole Ben's Narwhal.", `words.entry.move_point`)."""


#: What each kind of move decides, one row a kind.
KINDS: dict[MoveKind, KindSays] = {
    MoveKind.PLAY: KindSays("pile", "played {card}"),
    MoveKind.INSTANT: KindSays("neigh", "played {card}", answers=True),
    MoveKind.NEIGH: KindSays("neigh", "played {card}", answers=True),
    MoveKind.RESOLVE: KindSays(own=False),
    MoveKind.BRING: KindSays(did="brought {card} into a Stable"),
    MoveKind.STEAL: KindSays("lost-card", "stole {card}", whose=True, takes_away=True, point=True),
    MoveKind.DESTROY: KindSays("lost-card", "destroyed {card}", whose=True, takes_away=True, point=True),
    MoveKind.SACRIFICE: KindSays("lost-card", "sacrificed {card}", point=True),
    MoveKind.SAVE: KindSays(),
    MoveKind.DISCARD: KindSays(did="discarded {card}"),
    MoveKind.RETURN: KindSays(did="returned {card} to a hand", whose=True, takes_away=True, point=True),
    MoveKind.TO_DISCARD: KindSays(),
    MoveKind.DRAW: KindSays(did="drew a card"),
    MoveKind.TAKE: KindSays(did="took {card}"),
    MoveKind.SWAP: KindSays(takes_away=True, point=True),
    MoveKind.MOVE: KindSays(takes_away=True, point=True),
    MoveKind.NURSERY: KindSays(takes_away=True),
    MoveKind.NEXT: KindSays(own=False),
    MoveKind.END: KindSays(did="ended the turn"),
    MoveKind.HAND: KindSays(),
    MoveKind.DECK: KindSays(own=False),
    MoveKind.DECK_EMPTY: KindSays(own=False),
    MoveKind.RESHUFFLE: KindSays(own=False),
    MoveKind.TO_DECK: KindSays(),
    MoveKind.GOAL: KindSays(),
    MoveKind.CANNOT_WIN: KindSays(),
    MoveKind.SKIP_TURN: KindSays(),
    MoveKind.SKIP_PHASE: KindSays(own=False),
    MoveKind.GIVE: KindSays(),
    MoveKind.BAN: KindSays(own=False),
    MoveKind.USE: KindSays(),
    # (an Instant that resolved, in a digest: `on` the card it stopped)
    MoveKind.STOP: KindSays(did="stopped {on} with {card}", own=False),
    MoveKind.UNDO: KindSays(own=False),
    MoveKind.REDO: KindSays(own=False),
    MoveKind.MOVES: KindSays(own=False),
}

#: What a fact that tells no move decides: nothing.
_NO_MOVE = KindSays(own=False)


def kind_says(kind: MoveKind | None) -> KindSays:
    """What a kind of move decides (`KINDS`); for no move (a fact that tells none), nothing."""
    return _NO_MOVE if kind is None else KINDS[kind]
