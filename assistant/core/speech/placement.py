"""Who without words: another hand's words heard where that player sits, and a short earcon for the moves that
matter to the player.

Pure rules (the speech adapter pans each sentence's sound and plays the earcon): the players' turn order is their
order around the table, the next player in turn at the listener's left, the one before her at her right; with two
players the other sits across. The listener's own replies are heard in the middle, so no other player is: the one
across the table is heard at a side of it (`Seating.across`), and every sentence of another hand's reply (its move,
and the resolves, counts, warnings and joins it tells) is heard at that hand's seat.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from assistant.core.cards.card import normalize
from assistant.core.game.about import About, Topic
from assistant.core.speech.utterance import Utterance
from assistant.core.words.kinds import kind_says

#: How far to the left (-1) or right (+1) the outermost seats are heard: not fully in one ear.
OUTERMOST = 0.8
#: How far from the middle the player across the table is heard: her own voice is in the middle, and two voices at
#: once are told apart best when they come from separate places.
ACROSS = 0.5
#: `placement` settings: by seat, by seat the other way round (turns pass to the right), or all in the middle.
PLACEMENTS = ("seats", "reversed", "off")


@dataclass(frozen=True)
class Seating:
    """The players around the table and which of them is the listener."""

    players: int
    listener: int = 0
    reversed: bool = False
    """Turns pass to the listener's right: the next player is heard at her right."""
    across: int = 1
    """The side the player across the table is heard at: -1 left, +1 right (never in the middle, hers)."""

    def place(self, seat: int | None) -> float:
        """Where a seat is heard, -1 (left) to +1 (right); 0 for the listener and an unknown seat. The seat across
        the table (the other of two players, the middle one of an even count) at `ACROSS` on its side."""
        if seat is None or seat == self.listener or not 0 <= seat < self.players:
            return 0.0
        if self.players < 3:
            return ACROSS * self.across
        offset = (seat - self.listener) % self.players  # 1: next in turn ... players - 1: just before her
        place = -OUTERMOST + (offset - 1) * 2 * OUTERMOST / (self.players - 2)
        place = -place if self.reversed else place
        return ACROSS * self.across if abs(place) < 1e-9 else place


def seating(players: tuple[str, ...], me: str, placement: str, across: str = "right") -> Seating | None:
    """The seating of a game's players with the listener named `me` (the first player when no name fits), or None
    when placement is off or there is no game; `across`: "left" or "right", where the player across is heard."""
    if placement == "off" or not players:
        return None
    listener = seat_of(players, me) or 0
    return Seating(len(players), listener, placement == "reversed", -1 if across == "left" else 1)


def seat_of(players: tuple[str, ...], name: str) -> int | None:
    """The seat of the player called `name` (any case), or None."""
    folded = [normalize(player) for player in players]
    return folded.index(normalize(name)) if normalize(name) in folded else None


def sentence_place(utterance: Utterance, seating: Seating | None) -> float:
    """Where another hand's reply is heard as a whole (its earcon alone): at that hand's seat (`Utterance.hand`, else
    the player of its first move); 0 (the middle) for her own and with no seating."""
    if seating is None or not utterance.other:
        return 0.0
    movers = [fact.seats[0] for fact in utterance.tells if fact.topic is Topic.MOVE and fact.seats]
    return seating.place(utterance.hand if utterance.hand is not None else (movers[0] if movers else None))


def sentence_places(utterance: Utterance, seating: Seating | None) -> tuple[float, ...]:
    """Where each sentence of an utterance is heard: a folded move at its player's seat; every other sentence of
    another hand's reply at that hand's seat (`Utterance.hand`, else the player of its first move): its resolves,
    counts, warnings and joins too; everything of the player's own replies in the middle (empty: all there)."""
    if seating is None:
        return ()
    own = sentence_place(utterance, seating)
    places: list[float] = []
    for fact, (start, end) in zip(utterance.folded, utterance.folded_at()):
        seat = fact.seats[0] if fact.topic is Topic.MOVE and fact.seats else None
        places += [own if seat is None else seating.place(seat)] * (end - start)
    places += [own] * max(len(utterance.split()) - len(places), 0)
    return tuple(places) if any(places) else ()


#: The earcons of moves, the one that matters most first: a card of the listener's taken, a Neigh or another
#: Instant, a card played to the pile.
_EARCONS = ("lost-card", "neigh", "pile")


def move_earcon(utterance: Utterance, seating: Seating | None, heard: Collection[About] = ()) -> str:
    """The earcon of another hand's moves in an utterance, the one that matters most to the listener ("" for
    none): a card of hers destroyed, stolen or sacrificed ("lost-card"), a Neigh or another Instant ("neigh"), a
    card played to the pile ("pile"); the moves in `heard` (their earcon heard already, when they were made)
    left out."""
    found = {_earcon(move, seating) for move in moves_of(utterance) if move not in heard}
    return next((name for name in _EARCONS if name in found), "")


def moves_of(utterance: Utterance) -> tuple[About, ...]:
    """Another hand's moves an utterance tells, merged ones each apart (none for her own)."""
    if not utterance.other:
        return ()
    return tuple(
        part for fact in (*utterance.folded, *utterance.tells) for part in fact.flat() if part.topic is Topic.MOVE
    )


def _earcon(move: About, seating: Seating | None) -> str:
    earcon = kind_says(move.move).earcon  # (what each kind sounds: `words.kinds`)
    if earcon == "lost-card" and (seating is None or move.owner != seating.listener):
        return ""
    return earcon
