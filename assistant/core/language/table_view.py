"""What a phone on the shared table shows: the game as now, for one player, as plain values (sent as JSON), with the
last moves said, kept by their places in the game's log (`LastMoves`).

Every sentence in it comes from `assistant/core/words/` (the same ones the laptop says for `turn`, `pile`, `chain`,
`stable`); names and card names are plain strings the page shows as text, never as markup.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TypedDict

from assistant.core.game.history import Game
from assistant.core.language.device import may_do
from assistant.core.words.cardtext import type_name
from assistant.core.words.gameplay import describe_outcome
from assistant.core.words.position import describe_chain, describe_pile, describe_stable, describe_turn
from assistant.core.words.share import NO_GAME_TO_JOIN, LastKind, LastMove
from assistant.core.words.verbosity import Verbosity

__all__ = [
    "card_entry",
    "phone_view",
    "PhoneView",
    "GameView",
    "PlayerView",
    "CardEntry",
    "LastEntry",
    "LastMoves",
    "PhoneQuestion",
]


class CardEntry(TypedDict):
    """One card as the page lists it."""

    id: str
    name: str
    type: str
    """Its type in the deck's words ("Magical Unicorn", "Llama")."""
    kind: str
    """Its type's id (`CardType.value`)."""


class PileEntry(CardEntry):
    """A card on the pile, with who played it."""

    player: str


class PlayerView(TypedDict):
    """A player's seat as a phone shows it."""

    name: str
    count: int
    """How many creatures count towards the goal."""
    goal: int
    summary: str
    """Their Stable in words (`describe_stable`)."""
    cards: list[CardEntry]
    """Their Stable's cards."""
    hand: int | None
    """How many cards are in their hand (None: not known)."""


class TableWords(TypedDict):
    """The edition's words the page puts in its own labels."""

    area: str
    areas: str
    creature: str
    instant: str
    """The Neigh's name (or the Instants' type name; "" for none)."""


class _Question(TypedDict):
    id: str
    lines: list[str]


class PhoneQuestion(_Question, total=False):
    """A phone's open question (a warned move, a save offered), as `DeviceTalk.question_of` gives it: its id, its
    lines and, for a save offered, its own heading and buttons (`labels`)."""

    labels: dict[str, str]


class LastEntry(TypedDict):
    """One of the last moves as a phone shows it: its place in the game's log, its words on this phone, and what it
    tells. The page tells what is new by the place (`docs/share.md`): the same words at a new place are news again."""

    at: int
    """Its place in the game's log (`words.share.LastMove.at`): the log's length after the move it tells; for the
    words of an undo or a redo, the first place it took back or put back; 0: none known."""
    text: str
    kind: LastKind
    """"move" (a move and the facts it led to), "undo" or "redo" (its words)."""


class LastMoves:
    """The last moves the phones show (`words.share.LastMove`), the newest `most`, each with its place in the game's
    log: an undo's or a redo's words take the place of the moves kept at the places it took back or put back (by
    place, never by their words), and another game's moves replace the last game's (its places begin again)."""

    def __init__(self, most: int = 6) -> None:
        self.kept: deque[LastMove] = deque(maxlen=most)

    def keep(self, lines: Iterable[LastMove], fresh: bool = False) -> None:
        """Keep `lines` as the newest, after taking out those at the places an undo or a redo among them took back or
        put back; `fresh`: another game's, every one kept before taken out."""
        lines = tuple(lines)
        gone = {place for line in lines for place in line.back}
        if fresh or gone:
            kept = [] if fresh else [line for line in self.kept if line.at not in gone]
            self.kept = deque(kept, maxlen=self.kept.maxlen)
        self.kept.extend(lines)

    def of(self, player: str) -> list[LastEntry]:
        """The last moves as the phone of `player` shows them, oldest first: its own moves in its own words ("You drew
        a card.")."""
        return [
            {"at": line.at, "text": line.own if line.own and line.player == player else line.text, "kind": line.kind}
            for line in self.kept
        ]


class GameView(TypedDict):
    """The game as one player's phone shows it."""

    words: TableWords
    turn: str
    current: str
    """Whose turn it is."""
    phase: str
    players: list[PlayerView]
    pile: list[PileEntry]
    pile_line: str
    chain: list[str]
    last: list[LastEntry]
    """The last moves said, newest last, each with its place in the game's log."""
    winner: str | None
    may: list[str]
    """The phone verbs the player may use now (`may_do`)."""
    question: PhoneQuestion | None
    waits: list[str]
    """Where each of this player's moves that waits on another player's answer stands (a save asked of the host)."""


class _View(TypedDict):
    version: int
    you: str
    line: str
    """Said when there is no game for the player (`game` None): "" otherwise."""
    game: GameView | None


class PhoneView(_View, total=False):
    """What a phone is sent (as JSON): the view's `version`, whose phone it is (`you`), a `line` for no game, the
    `game`; `waiting` (the server's own view, with no game) while the phone waits for the host to let it in."""

    waiting: bool
    tag: str
    """The phone's short name ("blue 7"), while it waits: the host hears it in the question."""


def card_entry(game: Game, card_id: str) -> CardEntry:
    """One card as the page lists it: id, name, its type in the deck's words and the type's id (`kind`)."""
    card = game.table.card_of(card_id)
    vocabulary = game.table.profile.vocabulary
    return {"id": card.id, "name": card.name, "type": type_name(card.type, vocabulary), "kind": card.type.value}


def phone_view(
    game: Game | None,
    player: str,
    version: int,
    last: list[LastEntry],
    question: PhoneQuestion | None = None,
    waits: list[str] | None = None,
) -> PhoneView:
    """The view of the table for the device of `player`: `version` grows with every change, `last` are the last
    moves said (newest last, each with its place in the game's log), `question` the device's open warning (its id
    and lines), if any, `waits` where each of the player's moves that waits on another's answer stands."""
    if game is None or player not in game.table.setup.players:
        return {"version": version, "you": player, "line": NO_GAME_TO_JOIN, "game": None}
    table, state = game.table, game.state
    vocabulary = table.profile.vocabulary
    names = table.setup.players
    counts = table.tally(state)
    neigh = table.cards.get(table.neigh_card) if table.neigh_card else None
    players: list[PlayerView] = [
        {
            "name": name,
            "count": counts[seat],
            "goal": state.goal,
            "summary": describe_stable(table, state, seat),
            "cards": [card_entry(game, card_id) for card_id in state.players[seat].stable],
            "hand": state.players[seat].hand,
        }
        for seat, name in enumerate(names)
    ]
    view: GameView = {
        "words": {
            "area": vocabulary.area,
            "areas": f"{vocabulary.area}s",
            "creature": vocabulary.creature,
            "instant": neigh.name
            if neigh is not None
            else type_name(table.instants[0].type, vocabulary)
            if table.instants
            else "",
        },
        "turn": describe_turn(table, state, Verbosity.NORMAL),  # the page's buttons say how: no "say draw"
        "current": names[state.current],
        "phase": state.phase.value,
        "players": players,
        "pile": [{**card_entry(game, c.card), "player": names[c.player]} for c in state.pile],
        "pile_line": describe_pile(table, state, Verbosity.NORMAL),
        "chain": describe_chain(table, state) if state.chain else [],
        "last": list(last),
        "winner": describe_outcome(table, state.outcome, state) if state.outcome is not None else None,
        "may": may_do(game, player),
        "question": question,
        "waits": list(waits or ()),
    }
    return {"version": version, "you": player, "line": "", "game": view}
