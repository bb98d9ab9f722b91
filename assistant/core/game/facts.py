"""Facts: what a step of the game did beyond the event itself (a card Neighed, a link added, the tally changed,
a winner), from which `assistant/core/words/` makes the sentences."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.core.game.chain import Link, PileCard, Trigger
from assistant.core.game.events import Phase
from assistant.core.game.tally import Outcome


@dataclass(frozen=True)
class Fact:
    """Base of everything a step reports."""


@dataclass(frozen=True)
class PileOpened(Fact):
    """A card was played and waits on the pile for answers."""

    top: PileCard


@dataclass(frozen=True)
class PileAnswered(Fact):
    """An Instant went on top of the pile, answering `answered`."""

    top: PileCard
    answered: PileCard


@dataclass(frozen=True)
class PileStopped(Fact):
    """A Neigh resolved and stopped the card under it; `played` when that was the card played."""

    stopper: PileCard
    stopped: PileCard
    played: bool
    taken: bool = False
    """True when the stopped card went to the stopper's hand, not the discard pile (Spit Happens stopping a Llama)."""


@dataclass(frozen=True)
class NeighHadNoEffect(Fact):
    """A Neigh the table recorded against a card that cannot be Neighed: discarded, with no effect."""

    neigh: PileCard
    target: PileCard
    shield: str
    """The card that makes the target impossible to Neigh (the target itself, or Yay in its player's Stable)."""


@dataclass(frozen=True)
class LimitReached(Fact):
    """A card in a Stable limits it (Tiny Stable: more than 5 Unicorns), and the limit now bites."""

    player: int
    card: str
    count: int
    limit: int


@dataclass(frozen=True)
class InstantResolved(Fact):
    """An Instant other than a Neigh resolved; its effect is a link."""

    card: PileCard


@dataclass(frozen=True)
class MayDraw(Fact):
    """A stopping counter resolved and its text lets players draw (Goatsundheit: both players may draw 1; Llama Stop
    You Right There: the stopped Instant's player may draw 2); the draws are the effect link's, added with it."""

    counter: PileCard
    players: tuple[int, ...]
    """Who may draw, the counter's player first when both may."""


@dataclass(frozen=True)
class AnimalAnswered(Fact):
    """An Instant answering an Animal card being played resolved (Surprise Emu Attack): its player destroys an
    Animal in the played card's player's Field, as a link of the chain, and the played card still resolves."""

    instant: PileCard
    played: PileCard
    """The Animal card being played, still on the pile."""


@dataclass(frozen=True)
class PileOpenAgain(Fact):
    """After a resolution the new top card can be answered again."""

    top: PileCard


@dataclass(frozen=True)
class PlayResolved(Fact):
    """The played card was not stopped: it takes effect."""

    card: PileCard


@dataclass(frozen=True)
class BabyToNursery(Fact):
    """A Baby that would have gone to a hand or the discard pile went back to the Nursery."""

    card: str
    owner: int


@dataclass(frozen=True)
class LinkAdded(Fact):
    """Effects were added to the chain as one link."""

    link: Link
    position: int
    """Its place in the chain, 1 for the next to resolve."""


@dataclass(frozen=True)
class LinkResolved(Fact):
    """The table confirmed the first link; `next` is the link that now waits, if any."""

    link: Link
    next: Link | None


@dataclass(frozen=True)
class TriggersLost(Fact):
    """Optional beginning-of-turn effects not used before the Draw phase: lost for this turn."""

    triggers: tuple[Trigger, ...]


@dataclass(frozen=True)
class MandatoryRemain(Fact):
    """Mandatory beginning-of-turn effects not done yet: they must still be done."""

    triggers: tuple[Trigger, ...]


@dataclass(frozen=True)
class TurnBegan(Fact):
    """A new turn began."""

    player: int
    turn: int


@dataclass(frozen=True)
class PhaseBegan(Fact):
    """A phase began."""

    player: int
    phase: Phase


@dataclass(frozen=True)
class OverHandLimit(Fact):
    """At the End of turn phase, a tracked hand is over the hand limit."""

    player: int
    hand: int
    limit: int


@dataclass(frozen=True)
class DeckRanOut(Fact):
    """The deck is empty."""


@dataclass(frozen=True)
class Reshuffled(Fact):
    """The discard pile became the new deck, or went into what was left of it."""

    count: int
    """The cards of the discard pile."""
    deck: int | None = None
    """The deck's size now, when cards were still in it (or its size is not known: None)."""


@dataclass(frozen=True)
class StartSkipped(Fact):
    """An Instant that answered the start of a turn made its player skip the Beginning of Turn and Draw phases
    (Flare Gun): the beginning-of-turn effects are gone and the Action phase begins."""

    player: int
    card: str


@dataclass(frozen=True)
class TurnEndsNow(Fact):
    """A card's effect that ends its owner's turn at once was done (Rhinocorn, Zombie Unicorn): the turn ends now,
    if the effect was used ("If you do")."""

    player: int
    card: str


@dataclass(frozen=True)
class PhaseSkipped(Fact):
    """A phase of this turn is skipped: a card's beginning-of-turn effect that skips it was done (Llamabot-3000,
    Hex: the Draw phase; Special Delivery: the Action phase), or its owner gave it up (Sticky Situation)."""

    player: int
    card: str
    """The card that skips it; "" when the table said so with no such card."""
    phase: Phase


@dataclass(frozen=True)
class SavedToHand(Fact):
    """A card sacrificed or destroyed while an Instant that saves it was done went to that Instant's player's hand
    (Unicorn Net); or a card that goes back to its owner's hand by its own text (`saver` is the card itself: the
    Flying Unicorns)."""

    card: str
    player: int
    saver: str


@dataclass(frozen=True)
class BackInDeck(Fact):
    """Cards went back into the deck (`ToDeck`): how many (None when the hand's size was not known) and the deck's
    size now (None when it is no longer known)."""

    count: int | None
    deck: int | None


@dataclass(frozen=True)
class TallyChanged(Fact):
    """Unicorn counts changed."""

    before: tuple[int, ...]
    after: tuple[int, ...]


@dataclass(frozen=True)
class CardMustGo(Fact):
    """A card in a Stable must now leave it, as its text says: with no Unicorn card beside it (Unicorn Flatulence:
    sacrificed), or with its owner's hand empty (Hex: moved to another player's Stable)."""

    player: int
    card: str
    empty_hand: bool
    """True when the owner's hand is empty (Hex moves on, Scratchy Wool Blanket is sacrificed); False when their
    Stable holds no Unicorn card."""


@dataclass(frozen=True)
class WinBarred(Fact):
    """A player has reached the goal, but a card in their Stable keeps them from winning (The Black Spot)."""

    player: int
    count: int
    card: str


@dataclass(frozen=True)
class BeginningSkipped(Fact):
    """A card in the current player's Stable makes them skip the Beginning of Turn phase (Broken Sundial)."""

    player: int
    card: str


@dataclass(frozen=True)
class TableKeeps(Fact):
    """A card entered a Stable with a rule the tracker leaves to the table (Nanny Cam): its rule is said."""

    card: str
    owner: int


@dataclass(frozen=True)
class HerdBonusIgnored(Fact):
    """A Herd Bonus offered to the current player does not affect another player, whose Field holds a card that
    says so (Un Herd Of)."""

    player: int
    """The player not affected."""
    card: str
    variation: str


@dataclass(frozen=True)
class WinWaits(Fact):
    """A player has reached the goal, but the pile or the chain must resolve first."""

    player: int
    count: int


@dataclass(frozen=True)
class GameOver(Fact):
    """The game ended."""

    outcome: Outcome


@dataclass(frozen=True)
class CardTravelled(Fact):
    """A card that travels passed, as its owner's turn ended, into the next player's Stable (the 1st Edition
    Puppicorn)."""

    card: str
    owner: int
    into: int


@dataclass(frozen=True)
class TurnSkipped(Fact):
    """A player's turn did not happen: they were to miss their next turn (`SkipTurn`)."""

    player: int


@dataclass(frozen=True)
class InstantsBannedNow(Fact):
    """From now until the end of the turn nobody may play an Instant (Unstoppable Ram at the beginning of its owner's
    turn: `card`; the table's `ban instants`: "")."""

    card: str
    player: int
    """The player whose turn it is."""


@dataclass(frozen=True)
class GoesBackNow(Fact):
    """Its owner's turn ended: the Unicorn a card's effect took this turn goes back where it came from (Unicorn
    Lasso, Bukkakecorn), said at that moment for the table to move it; only while it is still where it was taken
    (`moves.still_borrowed`)."""

    card: str
    owner: int
    unicorn: str
    home: int
    """The Stable it goes back to."""
    holder: int
    """The Stable it is in."""
