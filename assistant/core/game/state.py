"""A game's position: each player's Stable and hand, the Nursery, the piles, the turn and phase, the pile and chain.

Immutable values, so every step of a game's history keeps its own state and undo is exact; `Draft` is the mutable
copy one event's moves write (`moves.apply`). `table-assistant state` (`assistant/commands/state.py`) prints a
state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assistant.core.game.chain import Link, PileCard, Trigger
from assistant.core.game.events import Phase
from assistant.core.game.tally import Outcome


def skipped_by(skipped: tuple[tuple[Phase, str], ...], phase: Phase) -> str | None:
    """The card whose effect skips this phase of the turn (`GameState.skipped`), "" when the table said so; None
    when the turn keeps it."""
    return next((card for skipped_phase, card in skipped if skipped_phase is phase), None)


@dataclass(frozen=True)
class Borrowed:
    """A Unicorn card a card's effect took from one Stable into another for its owner's turn, to go back when that
    turn ends (Unicorn Lasso: "When your turn ends, that Unicorn goes back where it came from"; Unicorn Cuckold's
    Unicorn, given away, comes back)."""

    card: str
    """The card whose effect took it (its tag `gives_back_at_end`)."""
    owner: int
    """The seat whose turn it is taken for: the card's owner."""
    unicorn: str
    home: int
    """The Stable it came from, where it goes back."""
    holder: int
    """The Stable it was taken into."""


@dataclass(frozen=True)
class PlayerState:
    """What the tracker knows of one player."""

    stable: tuple[str, ...]
    """Card ids in the player's Stable, in the order they came in."""
    hand: int | None = None
    """Cards in hand, or None when the table has not said."""


@dataclass(frozen=True)
class GameState:
    """The whole position: immutable, so every step of the history keeps its own and undo is exact."""

    players: tuple[PlayerState, ...]
    nursery: tuple[str, ...]
    """Babies in the Nursery."""
    discard: tuple[str | None, ...]
    """The discard pile, bottom first; None is a card the table did not name."""
    deck: int | None
    """Cards left in the deck, as far as the tracker knows; None when the deck's copy counts are not known and the
    table has not said how many are left (the deck then runs out only when the table says so)."""
    turn: int
    current: int
    """The seat whose turn it is."""
    phase: Phase
    goal: int
    """Unicorns needed to win."""
    drew: bool = False
    """True once the current player has drawn in this turn's Draw phase."""
    actions: int = 0
    """Cards played (or the extra draw) in this turn's Action phase."""
    pile: tuple[PileCard, ...] = ()
    """The Instant pile, bottom (the played card) first."""
    chain: tuple[Link, ...] = ()
    """The effect chain, first link first."""
    deck_out: bool = False
    """The deck ran out and its rule waits for the chain to resolve."""
    outcome: Outcome | None = None
    """Set when the game is over."""
    lost: tuple[str, ...] = ()
    """Cards whose optional beginning-of-turn effect was let go this turn: it cannot be used until the next turn."""
    granted: tuple[str, ...] = ()
    """Cards in the current player's Stable at the beginning of this turn that give an extra play (Double Dutch):
    "if this card is in your Stable at the beginning of your turn", so one that arrives later gives none yet."""
    goals: tuple[int | None, ...] = ()
    """A player's own number to win, by seat (`win 5 Ana`); None (or no entry) for the table's `goal`."""
    cannot_win: tuple[int, ...] = ()
    """Seats the table said cannot win (a card's text the tracker does not follow), until said again."""
    skips: tuple[int, ...] = ()
    """Seats whose next turn is skipped, one entry for each turn to skip ("that player misses their next turn")."""
    instant_ban: str | None = None
    """No Instant may be played until the end of this turn: the card that says so (Unstoppable Ram), "" when the
    table said it; None when there is no such ban."""
    turn_ends: str | None = None
    """The card whose effect, just done, ends the current player's turn at once (Rhinocorn: "your turn ends at
    once"), until the turn ends or the table goes on to another phase; None otherwise."""
    skipped: tuple[tuple[Phase, str], ...] = ()
    """The phases of this turn a card's effect skips, each with that card ("" when the table said so): the Draw
    phase once Llamabot-3000's or Hex's effect is done, the Action phase once Special Delivery's is used, the one
    its owner gives up to Sticky Situation (`skipped_by`)."""
    opened: tuple[str, ...] = ()
    """The cards whose beginning-of-turn effects joined the chain as this turn began: one that arrived later had no
    effect to use this turn (Unicorn Lasso gives nothing back)."""
    done: tuple[str, ...] = ()
    """The defined actions (`DEFINED_ACTIONS`: a sacrifice, a draw ...) recorded while the chain's first link is
    being done, so a second action a card joins with "then" is warned until its first was done (rulebook 002)."""
    selected: tuple[tuple[str, int], ...] = ()
    """The cards the chain's first link has taken into a Stable while it is being done (stolen, moved, swapped),
    each with the seat whose Stable it went to: "the same card may not be selected twice in the same link" (000)."""
    borrowed: tuple[Borrowed, ...] = ()
    """The Unicorn cards taken this turn that go back when it ends (`Borrowed`), forgotten as the turn ends."""

    @property
    def stables(self) -> tuple[tuple[str, ...], ...]:
        """Every Stable, by seat."""
        return tuple(p.stable for p in self.players)

    def to_dict(self) -> dict[str, Any]:
        """The state as plain values for `state --json`."""
        return {
            "turn": self.turn,
            "current": self.current,
            "phase": self.phase.value,
            "goal": self.goal,
            "drew": self.drew,
            "actions": self.actions,
            "deck": self.deck,
            "players": [{"stable": list(p.stable), "hand": p.hand} for p in self.players],
            "nursery": list(self.nursery),
            "discard": list(self.discard),
            "pile": [{"player": c.player, "card": c.card, "into": c.into} for c in self.pile],
            "chain": [[{"card": t.card, "owner": t.owner, "kind": t.kind.value} for t in link] for link in self.chain],
            "deck_out": self.deck_out,
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "lost": list(self.lost),
            "granted": list(self.granted),
            "goals": list(self.goals),
            "cannot_win": list(self.cannot_win),
            "skips": list(self.skips),
            "instant_ban": self.instant_ban,
            "turn_ends": self.turn_ends,
            "skipped": [{"phase": phase.value, "card": card} for phase, card in self.skipped],
            "opened": list(self.opened),
            "done": list(self.done),
            "selected": [list(chosen) for chosen in self.selected],
            "borrowed": [[b.card, b.owner, b.unicorn, b.home, b.holder] for b in self.borrowed],
        }


@dataclass
class Draft:
    """A mutable copy of a state while one event is applied (`moves.apply`), frozen back into a `GameState`."""

    stables: list[tuple[str, ...]]
    hands: list[int | None]
    nursery: tuple[str, ...]
    discard: tuple[str | None, ...]
    deck: int | None
    turn: int
    current: int
    phase: Phase
    goal: int
    drew: bool
    actions: int
    pile: tuple[PileCard, ...]
    chain: tuple[Link, ...]
    deck_out: bool
    outcome: Outcome | None
    lost: tuple[str, ...]
    granted: tuple[str, ...]
    goals: tuple[int | None, ...] = ()
    cannot_win: tuple[int, ...] = ()
    skips: tuple[int, ...] = ()
    instant_ban: str | None = None
    turn_ends: str | None = None
    skipped: tuple[tuple[Phase, str], ...] = ()
    opened: tuple[str, ...] = ()
    done: tuple[str, ...] = ()
    selected: tuple[tuple[str, int], ...] = ()
    borrowed: tuple[Borrowed, ...] = ()
    entered: list[tuple[str, int]] = field(default_factory=list)
    left: list[tuple[str, int]] = field(default_factory=list)
    gone: list[tuple[str, int]] = field(default_factory=list)
    """The cards of `left` that were sacrificed or destroyed, the way their leave effect says (a leave effect "should
    this card be sacrificed or destroyed" is theirs only; "if this card is destroyed", a destroyed one's only)."""
    effects: list[Trigger] = field(default_factory=list)

    @classmethod
    def of(cls, s: GameState) -> Draft:
        """A draft of a state, to change."""
        return cls(
            [p.stable for p in s.players],
            [p.hand for p in s.players],
            s.nursery,
            s.discard,
            s.deck,
            s.turn,
            s.current,
            s.phase,
            s.goal,
            s.drew,
            s.actions,
            s.pile,
            s.chain,
            s.deck_out,
            s.outcome,
            s.lost,
            s.granted,
            s.goals,
            s.cannot_win,
            s.skips,
            s.instant_ban,
            s.turn_ends,
            s.skipped,
            s.opened,
            s.done,
            s.selected,
            s.borrowed,
        )

    def freeze(self, old: GameState) -> GameState:
        """The state the draft has become; a player whose Stable and hand did not change keeps `old`'s value."""
        players = tuple(
            p if p.stable is stable and p.hand == hand else PlayerState(stable, hand)
            for p, stable, hand in zip(old.players, self.stables, self.hands)
        )
        return GameState(
            players,
            self.nursery,
            self.discard,
            self.deck,
            self.turn,
            self.current,
            self.phase,
            self.goal,
            self.drew,
            self.actions,
            self.pile,
            self.chain,
            self.deck_out,
            self.outcome,
            self.lost,
            self.granted,
            self.goals,
            self.cannot_win,
            self.skips,
            self.instant_ban,
            self.turn_ends,
            self.skipped,
            self.opened,
            self.done,
            self.selected,
            self.borrowed,
        )
