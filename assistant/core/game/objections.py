"""Objections: why an event looks against the rules, one small typed record per kind.

`assistant/core/game/checks.py` makes them; the table decides (a warned event can still be recorded); the words say
each in one sentence (`assistant/core/words/rulings.py`, `describe_objection`).
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.core.cards.wording import Cost, Need, UnicornAction
from assistant.core.game.events import Phase


@dataclass(frozen=True)
class Objection:
    """Base of every objection."""


@dataclass(frozen=True)
class GameIsOver(Objection):
    """The game has ended."""


@dataclass(frozen=True)
class NotYourTurn(Objection):
    """A player acts in another player's turn."""

    player: int
    current: int
    """The seat whose turn it is."""


@dataclass(frozen=True)
class NotDrawn(Objection):
    """The current player has not drawn in the Draw phase yet."""

    player: int


@dataclass(frozen=True)
class ActionUsed(Objection):
    """The Action phase's play or draw is spent."""

    player: int
    actions: int


@dataclass(frozen=True)
class ActionOver(Objection):
    """The Action phase is over."""

    player: int


@dataclass(frozen=True)
class ChainOpen(Objection):
    """Effects in the chain must resolve first."""


@dataclass(frozen=True)
class InstantNotPlayed(Objection):
    """An Instant played as a card of the turn: it only answers another card."""

    player: int
    card: str


@dataclass(frozen=True)
class BabyNotInHand(Objection):
    """A Baby played, discarded or taken: Babies are never in a hand, the deck or the discard pile."""

    player: int
    card: str


@dataclass(frozen=True)
class NotABaby(Objection):
    """A card from the Nursery that is not a Baby."""

    card: str


@dataclass(frozen=True)
class NotForStable(Objection):
    """A card brought into a Stable that never goes there (Magic, Instant)."""

    player: int
    card: str


@dataclass(frozen=True)
class RemovedCard(Objection):
    """A card taken out of the deck for the 2-player variant."""

    card: str


@dataclass(frozen=True)
class NoCopiesLeft(Objection):
    """Every copy of the card is already seen on the table."""

    card: str
    copies: int


@dataclass(frozen=True)
class EmptyHand(Objection):
    """A player known to hold no cards plays or discards one."""

    player: int


@dataclass(frozen=True)
class HandTooShort(Objection):
    """`discard N` with fewer cards than N in a hand whose size is known."""

    player: int
    asked: int
    held: int


@dataclass(frozen=True)
class NothingToAnswer(Objection):
    """An Instant played while no card waits on the pile."""

    player: int
    card: str


@dataclass(frozen=True)
class NotInstant(Objection):
    """A card answering the pile that is not an Instant."""

    player: int
    card: str


@dataclass(frozen=True)
class NotAnAnimal(Objection):
    """An Instant that answers an Animal card being played (Surprise Emu Attack) played on anything else: an Instant
    on the pile, or a card that is not an Animal."""

    player: int
    card: str
    top: str
    """The card it answers."""


@dataclass(frozen=True)
class CannotBeAnswered(Objection):
    """The top card of the pile may not be answered (a Super Neigh)."""

    player: int
    """Who played the top card."""
    card: str


@dataclass(frozen=True)
class OwnCard(Objection):
    """A player answers their own card."""

    player: int
    card: str


@dataclass(frozen=True)
class CannotNeigh(Objection):
    """A card in the player's Stable forbids them to play Neigh cards."""

    player: int
    card: str
    blocker: str
    """The card that forbids it."""


@dataclass(frozen=True)
class CannotBeNeighed(Objection):
    """A card in the owner's Stable makes their cards impossible to Neigh."""

    player: int
    """The owner of the card being Neighed."""
    card: str
    shield: str
    """The card that protects it."""


@dataclass(frozen=True)
class NotInStable(Objection):
    """A card named in a Stable that does not hold it."""

    card: str
    owner: int


@dataclass(frozen=True)
class StealOwn(Objection):
    """Stealing from one's own Stable."""

    player: int
    card: str


@dataclass(frozen=True)
class DestroyOwn(Objection):
    """Destroying in one's own Stable (that is a sacrifice)."""

    player: int
    card: str


@dataclass(frozen=True)
class Protected(Objection):
    """A card in the owner's Stable protects the card from being destroyed."""

    card: str
    guard: str
    owner: int


@dataclass(frozen=True)
class NotInDiscard(Objection):
    """A card taken from the discard pile that is not there."""

    card: str


@dataclass(frozen=True)
class NotInNursery(Objection):
    """A Baby taken from the Nursery that is not there."""

    card: str


@dataclass(frozen=True)
class DeckTooSmall(Objection):
    """More cards drawn than the deck holds."""

    left: int
    """Cards left in the deck."""


@dataclass(frozen=True)
class HandOverLimit(Objection):
    """The turn ends with a hand over the hand limit."""

    player: int
    hand: int
    limit: int


@dataclass(frozen=True)
class NoReshuffle(Objection):
    """These rules do not shuffle the discard pile into a new deck."""


@dataclass(frozen=True)
class NothingToResolve(Objection):
    """Resolve said with nothing on the pile or in the chain."""


@dataclass(frozen=True)
class CannotPlay(Objection):
    """A card in the player's Stable forbids them to play cards of this kind (Broken Stable: Upgrades)."""

    player: int
    card: str
    blocker: str


@dataclass(frozen=True)
class CannotEnter(Objection):
    """A card in a Stable forbids this card to enter that Stable (Queen Bee Unicorn: Basic Unicorns)."""

    card: str
    into: int
    blocker: str
    owner: int
    """Whose Stable holds the blocker."""


@dataclass(frozen=True)
class CannotSteal(Objection):
    """A card in the player's Stable forbids them to steal."""

    player: int
    blocker: str


@dataclass(frozen=True)
class Indestructible(Objection):
    """The card says it cannot be destroyed or sacrificed."""

    card: str
    sacrificed: bool = False
    """The event sacrifices it (else it destroys it)."""


@dataclass(frozen=True)
class MagicCannotDestroy(Objection):
    """A Magic card's effect destroying a card that Magic cards cannot destroy."""

    card: str
    magic: str


@dataclass(frozen=True)
class NeedsBasic(Objection):
    """A card that may enter only a Stable holding a Basic Unicorn card, entering one that holds none."""

    card: str
    into: int


@dataclass(frozen=True)
class VariationKeptOut(Objection):
    """A card in a Field keeps Animals of a variation out of it (Velcro Barrier: Llamas and Alpacas)."""

    card: str
    into: int
    blocker: str
    variation: str


@dataclass(frozen=True)
class CannotDestroy(Objection):
    """A card in the player's Stable forbids their cards' effects to destroy (Divine Peace)."""

    player: int
    blocker: str


@dataclass(frozen=True)
class FirstNotDone(Objection):
    """The second of two actions a card joins with "then" (Two-For-One: sacrifice, then destroy), while that card's
    effect is done and its first action was not (rulebook 002: "you may only perform the second action if you
    successfully perform the first")."""

    player: int
    card: str
    first: str
    second: str


@dataclass(frozen=True)
class MandatoryNotDone(Objection):
    """`resolve` of a mandatory beginning-of-turn effect (Sadistic Ritual) while none of the actions its card names
    was recorded as its link was being done (rulebook 002: "If the effect is mandatory, you must still do it")."""

    player: int
    card: str
    actions: tuple[str, ...]
    """The actions the card's effect names (`mandatory_actions`), in `DEFINED_ACTIONS` terms and its tags'."""


@dataclass(frozen=True)
class NotGivenBack(Objection):
    """The turn ends while a Unicorn card a card's effect took for it is still where it was taken (Unicorn Lasso:
    "When your turn ends, that Unicorn goes back where it came from"): a mandatory duty of the turn, said before the
    turn ends."""

    player: int
    card: str
    unicorn: str
    home: int
    holder: int


@dataclass(frozen=True)
class NothingToUse(Objection):
    """`use CARD` with no optional beginning-of-turn effect of that card of the player's waiting in the chain."""

    player: int
    card: str


@dataclass(frozen=True)
class EffectForbidden(Objection):
    """A card whose effect must do an action (Unicorn Poison: destroy) played by a player whose own Stable holds a
    card that forbids them that action (Divine Peace: "the effects of your cards cannot destroy"): it asks for the
    impossible, so it may not be played (000)."""

    player: int
    card: str
    blocker: str
    action: UnicornAction


@dataclass(frozen=True)
class TriggerCannotDestroy(Objection):
    """A triggered effect destroying a card that triggered effects cannot destroy (The Tiniest Unicorn)."""

    card: str
    source: str
    """The card whose triggered effect is being done."""


@dataclass(frozen=True)
class Guarded(Objection):
    """A card in the owner's Stable keeps this effect from their Unicorns (Dragon Protection, Dragon Slayer)."""

    card: str
    owner: int
    guard: str
    source: str
    """The card whose effect is being done."""


@dataclass(frozen=True)
class OthersCannotPlay(Objection):
    """A card in another player's Stable forbids the player to play cards of this kind (Queen Bee Unicorn, 1st
    Edition: the other players cannot play Basic Unicorn cards)."""

    player: int
    card: str
    blocker: str
    owner: int
    """Whose Stable holds the blocker."""


@dataclass(frozen=True)
class MagicCannotAffect(Objection):
    """A Magic card's effect stealing, moving, swapping or returning a card that Magic cards cannot affect."""

    card: str
    magic: str


@dataclass(frozen=True)
class NeedsAllVariations(Objection):
    """A card that may enter only a Field holding an Animal of each variation (Embrace Diversity) enters one that
    lacks some."""

    card: str
    into: int
    missing: tuple[str, ...]
    """The variations the Field lacks, in the order Llama, Alpaca, Goat, Ram."""


@dataclass(frozen=True)
class NeedsVariation(Objection):
    """A card its player may play only while their Field holds an Animal of a variation (No Probllama: a Llama)."""

    player: int
    card: str
    variation: str


@dataclass(frozen=True)
class NotAUnicornHere(Objection):
    """A Unicorn card destroyed, stolen, moved, sacrificed, returned, sent to the Nursery or into the deck by an
    effect on Unicorn cards while a card in its Stable makes it no Unicorn (Pandamonium: a Panda; Unicorn Poison
    cannot touch it)."""

    card: str
    owner: int
    mask: str
    """The card that makes the Unicorns there something else (Pandamonium)."""
    effect: str
    """The card whose effect is being done."""
    action: UnicornAction
    """What that effect would do to it."""


@dataclass(frozen=True)
class CannotSave(Objection):
    """A save "instead" its card's text does not give: not a card that saves, not that card, not in the Stable, or
    a known hand too small to pay."""

    player: int
    card: str
    saver: str


@dataclass(frozen=True)
class PhaseIsSkipped(Objection):
    """The Draw phase's draw, or an Action phase's play or draw, in a turn whose phase a card's effect skipped
    (Llamabot-3000, Hex: the Draw phase; Special Delivery, #Studlife: the Action phase; Sticky Situation: the one
    given up)."""

    player: int
    card: str
    """The card that skips it; "" when the table said so with no such card."""
    phase: Phase


@dataclass(frozen=True)
class ExtraIsAPlay(Objection):
    """A draw as the Action phase's second action, where a card gives one more play only (Double Dutch: "you may
    play 2 cards"), not one more draw."""

    player: int
    card: str
    """The card that gives the extra play."""


@dataclass(frozen=True)
class Impossible(Objection):
    """A Magic card whose effect has nothing to act on (000: "If you have a card in your hand that requires you to
    perform an impossible action, you may not play it"): Unicorn Poison with no Unicorn to destroy."""

    player: int
    card: str
    need: Need


@dataclass(frozen=True)
class ActionImpossible(Objection):
    """A card whose effect requires of its player an action (`Cost`: a sacrifice, a discard, a destroy) with fewer
    cards there for it than it acts on (000: "If you have a card in your hand that requires you to perform an
    impossible action, you may not play it"): Two-For-One with its player's Stable empty."""

    player: int
    card: str
    cost: Cost
    found: int
    """How many cards there are that the action may act on."""


@dataclass(frozen=True)
class SelectedTwice(Objection):
    """A card the link being done already took into this Stable, chosen again by that link (000, "Order of
    Resolution": "the same card may not be selected twice in the same link")."""

    card: str
    owner: int
    """The player whose Stable holds it now."""
    source: str
    """The first card of the link being done."""


@dataclass(frozen=True)
class MandatoryFirst(Objection):
    """A card taken, while a link of several effects is done, by an action none of its mandatory effects names, when
    a mandatory effect of that link not done yet needs it (it could not be done without it): 000, "Order of
    Resolution": "You must select targets for mandatory effects before selecting targets for optional effects"."""

    card: str
    owner: int
    """The player whose Stable holds it."""
    mandatory: str
    """The card whose mandatory effect needs it."""


@dataclass(frozen=True)
class TargetUnfit(Objection):
    """A card played with a declared target (`play unicorn poison targeting Ben`) that its own target rule rules out:
    the player themselves where the card needs another player, or a Stable with nothing the card needs (empty, or
    every Unicorn protected from it: Rainbow Aura)."""

    player: int
    card: str
    target: int
    need: Need


@dataclass(frozen=True)
class InstantsBanned(Objection):
    """No Instant may be played until the end of this turn (Unstoppable Ram, or the table said so: `ban` "")."""

    player: int
    card: str
    ban: str


@dataclass(frozen=True)
class NameBanned(Objection):
    """A card in the player's Field forbids them cards with a word in their name (Llamaphobia: Llama)."""

    player: int
    card: str
    blocker: str


@dataclass(frozen=True)
class HeldIn(Objection):
    """A card in a Field keeps the Animals of a variation already there from moving to another player's Field
    (Velcro Barrier, Bridge Troll On Duty: "Those already in it cannot be moved")."""

    card: str
    owner: int
    blocker: str
    variation: str
