"""Cards, decks and card sets: the values every other part of the app talks about (`table-assistant card`, in
`assistant/commands/card.py`, prints one)."""

from __future__ import annotations

import difflib
import enum
import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


class CardType(enum.Enum):
    """The seven kinds of card printed on the decks."""

    BABY = "baby"
    BASIC = "basic"
    MAGICAL = "magical"
    UPGRADE = "upgrade"
    DOWNGRADE = "downgrade"
    MAGIC = "magic"
    INSTANT = "instant"

    @property
    def is_creature(self) -> bool:
        """True for Unicorn (or Animal) cards: Baby, Basic and Magical."""
        return self in (CardType.BABY, CardType.BASIC, CardType.MAGICAL)


class Vocabulary(enum.Enum):
    """Which words a game uses for the area in front of a player and the creatures in it."""

    UNICORN = "unicorn"
    ANIMAL = "animal"

    @property
    def area(self) -> str:
        """ "Stable" or "Field"."""
        return "Stable" if self is Vocabulary.UNICORN else "Field"

    @property
    def creature(self) -> str:
        """ "Unicorn" or "Animal"."""
        return "Unicorn" if self is Vocabulary.UNICORN else "Animal"


class Tag(enum.StrEnum):
    """What the tracker needs to know about a card. A deck file naming any other tag fails to load, so a typo
    cannot silently turn a rule off.

    Each member is its name in the deck files and its `meaning`, the one copy of what the tag says: the table of
    tags in docs/card-text-format.md is made from them (`python -m assistant.core.cards.card`), and a test fails
    while that table is not theirs."""

    meaning: str
    """What a card carrying the tag does, and what the tracker does with it: one or more sentences, read by people
    (the docs' table of tags), never by a rule."""

    def __new__(cls, value: str, meaning: str = "") -> Tag:
        """A member: its name in the deck files and its meaning. Raises ValueError, on import, for a member given
        no meaning. (A look-up, `Tag("steal")`, finds a member and never comes here: hence the default.)"""
        if not meaning:
            raise ValueError(f"the tag {value!r} has no meaning")
        member = str.__new__(cls, value)
        member._value_ = value
        member.meaning = meaning
        return member

    # When an effect happens, and how a card counts.
    BEGIN_TURN_TRIGGER = "begin_turn_trigger", "Has an effect at the beginning of its owner's turn that must be done."
    BEGIN_TURN_OPTIONAL = (
        "begin_turn_optional",
        "Has an effect at the beginning of its owner's turn that the owner may choose to do.",
    )
    ENTER_TRIGGER = "enter_trigger", "Does something when it enters a Stable."
    LEAVE_TRIGGER = "leave_trigger", "Does something when it leaves a Stable."
    CONTINUOUS = "continuous", "Has an effect for as long as it is in a Stable."
    COUNTS_AS_TWO = "counts_as_two", "Counts as two Unicorns (Ginormous Unicorn)."
    NOT_A_UNICORN_EFFECT = (
        "not_a_unicorn_effect",
        "The Unicorns in its Stable stop counting as Unicorns, and effects on Unicorn cards do nothing to them "
        "(Pandamonium and the other Masquerade cards): an effect whose wording acts on a Unicorn card is warned there.",
    )
    HAND_LIMIT_CHANGE = "hand_limit_change", "Changes a hand limit."

    # What the owner of its Stable, or another player, may not play, and where a card may not enter.
    CANNOT_BE_NEIGHED = (
        "cannot_be_neighed",
        "The card cannot be Neighed (Super Neigh), or it makes its owner's cards impossible to Neigh (Yay, No "
        "Probllama).",
    )
    STOPS_NEIGHS = (
        "stops_neighs",
        "The owner of its Stable cannot play Neigh cards (the 2nd Edition Slowdown, Ginormous Unicorn).",
    )
    STOPS_INSTANTS = (
        "stops_instants",
        "The owner of its Stable cannot play any Instant card (the 1st Edition Slowdown, Tranquilizer).",
    )
    STOPS_UPGRADES = "stops_upgrades", "The owner of its Stable cannot play Upgrade cards (Broken Stable)."
    STOPS_MAGIC = "stops_magic", "The owner of its Stable cannot play Magic cards."
    STOPS_BASICS = "stops_basics", "The owner of its Stable cannot play Basic Unicorn cards."
    STOPS_STEALING = "stops_stealing", "The owner of its Stable cannot steal cards (Paladin Unicorn)."
    STOPS_DESTROYING = (
        "stops_destroying",
        "The effects of its owner's cards cannot destroy any card (Divine Peace).",
    )
    STOPS_OTHERS_BASICS = (
        "stops_others_basics",
        "The other players cannot play Basic Unicorn cards (Queen Bee Unicorn, 1st Edition first print).",
    )
    BASICS_ONLY_HERE = (
        "basics_only_here",
        "Basic Unicorn cards may enter no Stable but its owner's (Queen Bee Unicorn).",
    )
    NO_BASICS_HERE = (
        "no_basics_here",
        "Basic Unicorn cards cannot enter its owner's Stable (Extreme Adventurer Unicorn).",
    )
    NO_BABIES = "no_babies", "Baby Unicorn cards cannot enter any Stable (Eunuchorn)."
    NO_LLAMAS_HERE = "no_llamas_here", "Llama Animal cards cannot enter its owner's Field (Velcro Barrier)."
    NO_ALPACAS_HERE = "no_alpacas_here", "Alpaca Animal cards cannot enter its owner's Field (Velcro Barrier)."
    NEEDS_BASIC = (
        "needs_basic",
        "The card itself may enter only a Stable that holds a Basic Unicorn card (Unicorn Speed).",
    )

    # What keeps cards from an effect.
    PROTECTS_UNICORNS = (
        "protects_unicorns",
        "The Unicorn cards in its owner's Stable cannot be destroyed (Rainbow Aura).",
    )
    UPGRADES_EVERYWHERE = (
        "upgrades_everywhere",
        "The Upgrade cards in its Stable protect every player's Stable as they protect their own (Cupcakes For "
        "Everyone).",
    )
    PROTECTS_BABIES = (
        "protects_babies",
        "The Baby cards in its Field cannot be sacrificed, destroyed or stolen (The Kids Are Alright).",
    )
    HERD_BONUS_PROOF = (
        "herd_bonus_proof",
        "Other players' Herd Bonuses do not affect its owner (Un Herd Of): said when one is offered.",
    )
    INDESTRUCTIBLE = "indestructible", "The card itself cannot be destroyed or sacrificed (the 1st Edition Puppicorn)."
    MAGIC_PROOF = "magic_proof", "Magic cards cannot destroy the card itself (Magical Kittencorn)."
    TRIGGER_PROOF = "trigger_proof", "Triggered effects cannot destroy the card itself (The Tiniest Unicorn)."
    MAGIC_UNTOUCHABLE = (
        "magic_untouchable",
        "Magic cards cannot steal, move, swap or return the card itself either (the 1st Edition Magical Kittencorn).",
    )
    OTHERS_TRIGGER_PROOF = (
        "others_trigger_proof",
        "The triggered effects of other players' cards cannot destroy or affect the Unicorns in its owner's Stable "
        "(Dragon Protection).",
    )
    UNICORN_EFFECT_PROOF = (
        "unicorn_effect_proof",
        "The effects of other players' Unicorn cards cannot destroy or affect the Unicorns in its owner's Stable "
        "(Dragon Protection's older print).",
    )
    DRAGON_PROOF = (
        "dragon_proof",
        "Cards with the word Dragon in their name cannot destroy or affect the Unicorns in its owner's Stable (Dragon "
        "Slayer Unicorn).",
    )

    # What its owner must do, may not win by, or needs.
    AT_MOST_FIVE = (
        "at_most_five",
        "Its owner must sacrifice a Unicorn (or Animal) whenever they have more than 5 of them (Tiny Stable, "
        "Crowded Field).",
    )
    NO_WIN_WITH_BASICS = (
        "no_win_with_basics",
        "Its owner cannot win while their Stable holds a Basic Unicorn card (The Black Spot).",
    )
    NO_WIN = "no_win", "Its owner cannot win while it is in their Field, whatever their count (Hunger Strike)."
    GOAL_MINUS_TWO = (
        "goal_minus_two",
        "Its owner wins with 2 fewer Unicorns or Animals than their number to win (Embrace Diversity).",
    )
    NEEDS_ALL_VARIATIONS = (
        "needs_all_variations",
        "The card itself may enter only a Field holding an Animal of each of the 4 variations (Embrace Diversity).",
    )
    NEEDS_VARIATION = (
        "needs_variation",
        "The card may be played only while its player's Field holds an Animal of the variation its text names (No "
        "Probllama: a Llama; Ramstar Energy Drink: a Ram).",
    )
    BANS_INSTANTS = (
        "bans_instants",
        "At the beginning of its owner's turn, nobody may play an Instant until that turn is over (Unstoppable Ram).",
    )
    NO_GOATS_HERE = "no_goats_here", "Goat Animal cards cannot enter its owner's Field (Bridge Troll On Duty)."
    NO_RAMS_HERE = "no_rams_here", "Ram Animal cards cannot enter its owner's Field (Bridge Troll On Duty)."
    NO_BABIES_HERE = "no_babies_here", "Baby Animal cards cannot enter its owner's Field (No Kidding)."
    STOPS_LLAMA_NAMES = (
        "stops_llama_names",
        "Its owner cannot play a card with the word Llama in its name (Llamaphobia).",
    )
    GIVES_BACK_AT_END = (
        "gives_back_at_end",
        "The Unicorn its effect took this turn goes back when its owner's turn ends (Unicorn Lasso, Bukkakecorn).",
    )
    TRAVELS = (
        "travels",
        "When its owner's turn ends it passes into the next player's Stable (the 1st Edition Puppicorn).",
    )
    SKIPS_BEGINNING = (
        "skips_beginning",
        "Its owner skips the Beginning of Turn phase, so no beginning-of-turn effect happens (Broken Sundial).",
    )
    TABLE_KEEPS = (
        "table_keeps",
        "Has a rule the tracker leaves to the table (Nanny Cam's hand face up): the sentence is said when the card "
        "enters a Stable.",
    )
    SHUFFLES_ITSELF = (
        "shuffles_itself",
        "A Magic card whose effect puts the card itself back into the deck with the discard pile (Shake Up): it goes "
        "to the discard pile at once, not once its effect is done, so the reshuffle takes it; every other Magic card "
        "stays in play until its effect is done.",
    )

    # What its effect does to the turn's phases.
    SKIPS_DRAW = (
        "skips_draw",
        "Its beginning-of-turn effect, once done, skips its owner's Draw phase (Llamabot-3000, Hex, Pony Play): no "
        "draw is prompted, a draw is warned, and `skip` goes on to the Action phase.",
    )
    SKIPS_ACTION = (
        "skips_action",
        "Its beginning-of-turn effect, used (a Baby brought from the Nursery while it is done), skips its owner's "
        "Action phase (Special Delivery, #Studlife): after the Draw phase the End of turn phase begins, and a play is "
        "warned.",
    )
    GIVES_UP_PHASE = (
        "gives_up_phase",
        "At the beginning of its owner's turn they give up their Draw or their Action phase, as they choose (Sticky "
        "Situation): `skip draw` or `skip action` says which, and the tracker asks while neither is said.",
    )
    ENDS_TURN = (
        "ends_turn",
        "Its effect, once done, ends its owner's turn at once (Rhinocorn, Zombie Unicorn, Rainbow Sprinkles): the "
        'tracker asks whether the turn ends now ("End Ana\'s turn now?") instead of prompting the next phase.',
    )

    # What stops the effects of the cards in its Stable, and when it leaves on its own.
    MAKES_BASIC = (
        "makes_basic",
        "The Unicorn cards in its Stable count as Basic Unicorns, 1 each (Blinding Light, 2nd Edition).",
    )
    UNICORNS_EFFECTLESS = (
        "unicorns_effectless",
        "None of the effects of the Unicorn cards in its Stable work, the continuous ones included (Blinding Light, "
        "1st Edition first print and 2nd Edition: Ginormous Unicorn there stops no Neigh; Legal Ramifications).",
    )
    SILENCES_UNICORNS = (
        "silences_unicorns",
        "The triggered effects of the Unicorn cards in its Stable do not happen (Blinding Light).",
    )
    SILENCES_DOWNGRADES = (
        "silences_downgrades",
        "The Downgrade cards in its Stable have no effect (Dragon's Blessing).",
    )
    GONE_WITHOUT_UNICORNS = (
        "gone_without_unicorns",
        "Its owner sacrifices it once their Stable holds no Unicorn card (Unicorn Flatulence).",
    )
    MOVES_ON_EMPTY_HAND = (
        "moves_on_empty_hand",
        "It moves to another player's Stable once its owner's hand is empty (Hex).",
    )
    GONE_ON_EMPTY_HAND = (
        "gone_on_empty_hand",
        "Its owner sacrifices it once their hand is empty (Scratchy Wool Blanket).",
    )
    EACH_AIMED_AT = (
        "each_aimed_at",
        "A duty in the chain each time another player's effect aims at it (stolen, destroyed, moved, returned, "
        "swapped): that player must discard a card (Static-Charged Alpaca).",
    )
    RESHUFFLES = "reshuffles", "Its effect shuffles the discard pile into the deck (Reset Button)."

    # Instants.
    NEIGH = "neigh", "An Instant that stops a card being played."
    SUPER_NEIGH = "super_neigh", "A Neigh that cannot be answered (Super Neigh)."
    TAKES_STOPPED = (
        "takes_stopped",
        "A counter (with `neigh`) whose player takes the stopped card into their hand when it is of the variation "
        'the counter\'s text names ("If it is a Llama card, it goes into your hand"), a hybrid counting as each of '
        "its variations (Spit Happens, Alpaca Your Bags, Baaa'd Move!, Don't Kid Yourself!). The counter itself, an "
        "Instant, is of no variation: only a counter whose text names none is read by its own `variation`.",
    )
    BOTH_DRAW = (
        "both_draw",
        "A counter after which its player and the stopped card's player may each draw (Goatsundheit; Neigh, Thank "
        "You).",
    )
    DRAWS_IF_INSTANT = (
        "draws_if_instant",
        "A counter whose player may draw when the card it stopped was an Instant (Llama Stop You Right There).",
    )
    ANSWERS_ANIMAL = (
        "answers_animal",
        "An Instant played when another player plays an Animal card: it does not stop that card, which still "
        "resolves, and destroys an Animal in that player's Field (Surprise Emu Attack).",
    )

    # What the effect does, as a description.
    STEAL = "steal", "Its effect moves a card from another player's Stable (a steal)."
    DESTROY = "destroy", "Its effect sends a card from another player's Stable to the discard pile (a destroy)."
    SACRIFICE = "sacrifice", "Its effect sends a card from its player's own Stable to the discard pile (a sacrifice)."
    DISCARD = "discard", "Its effect makes a player discard."
    DRAW = "draw", "Its effect makes a player draw."
    SEARCH_DECK = "search_deck", "Its effect searches the deck."
    SEARCH_DISCARD = "search_discard", "Its effect takes a card from the discard pile."
    RETURN_TO_HAND = "return_to_hand", "Its effect returns a card to a hand."
    SWAP = "swap", "Its effect swaps cards or hands."
    PROTECTS = (
        "protects",
        "Protects cards from being destroyed or otherwise affected, as a description only: the tracker checks the "
        "precise tags of each protection (`protects_unicorns`, `magic_proof` and the others above).",
    )

    # What its effect changes in a turn, or in the way a card goes.
    EXTRA_ACTION = (
        "extra_action",
        "Gives one more play in the Action phase, counted from the beginning of a turn that finds the card in its "
        "owner's Stable (Double Dutch, Unicorn Dungeon): never on the turn the card arrives, and not once its "
        '"may" is let go.',
    )
    EXTRA_TURN = (
        "extra_turn",
        "Its player takes another turn after this one (Change of Luck, Dragon's Fortune): not another play this turn; "
        "the table says `end turn NAME`.",
    )
    PLAYS_CARD = (
        "plays_card",
        "Its effect plays another card at once (Dragon Kiss, Wizard Unicorn, Critical Hit): that play is the "
        "effect's, neither the turn's action nor a play the chain should wait for, and it is not warned while the "
        "effect is being done.",
    )
    TO_DECK = (
        "to_deck",
        "Its effect puts a hand, or cards from a hand or a Stable, back into the deck (Shake Up, Dragon Skies).",
    )
    MUST_DESTROY = (
        "must_destroy",
        "The effect done as the card is played (a Magic card's, or its effect as it enters) requires its player to "
        "destroy, as a first or a later action (Two-For-One): read from the wording (`required_actions`), so an "
        "import gets it; under their own Divine Peace (`stops_destroying`) they may not play it, and playing it is "
        "warned (000).",
    )
    MUST_STEAL = (
        "must_steal",
        "The effect done as the card is played (a Magic card's, or its effect as it enters) requires its player to "
        "steal, as a first or a later action (Unicorn Swap): read from the wording (`required_actions`), so an "
        "import gets it; under their own Paladin Unicorn (`stops_stealing`) they may not play it, and playing it is "
        "warned (000).",
    )
    BACK_TO_HAND = (
        "back_to_hand",
        "The card itself goes back to its owner's hand, not the discard pile, when it is sacrificed or destroyed "
        "(every Flying Unicorn, the Llamas flyers): the tracker moves it there, the hand count follows, and no leave "
        "effect waits in the chain for it; while a card silences its triggered effects (Blinding Light) it goes to "
        "the discard pile.",
    )
    SAVES_CARD = (
        "saves_card",
        "An Instant that answers a card being sacrificed or destroyed: while its effect is done, that card goes to "
        "its player's hand, not the discard pile (Unicorn Net).",
    )
    SKIPS_START = (
        "skips_start",
        "An Instant that answers the start of another player's turn: once its effect is done, that player skips the "
        "Beginning of Turn and Draw phases (Flare Gun).",
    )

    # Duties: what the card asks each time its moment comes.
    EACH_UNICORN_MOVES = (
        "each_unicorn_moves",
        "A duty whenever a Unicorn card comes into its owner's Stable or goes out of it (Barbed Wire).",
    )
    EACH_CARD_ENTERS = (
        "each_card_enters",
        "A duty each time another card enters its owner's Stable (Scratchy Wool Blanket).",
    )
    EACH_UNICORN_LOST = (
        "each_unicorn_lost",
        "A duty each time a Unicorn card in its owner's Stable is sacrificed or destroyed (Unicorn Overboard).",
    )
    EACH_UNICORN_DESTROYED = (
        "each_unicorn_destroyed",
        "A duty each time another player destroys a Unicorn card in its owner's Stable (Wall Of Horns, Llama Lawyer).",
    )
    EACH_CARD_DESTROYED = (
        "each_card_destroyed",
        "A duty each time any card in its owner's Stable is destroyed (Careful, I Bite).",
    )
    EACH_DESTROY = "each_destroy", "A duty each time its owner destroys a Unicorn card (Costume Party Rampire)."
    EACH_DRAW = "each_draw", "A duty each time its owner draws (Extremely Small Backpack)."
    EACH_LLAMA_PLAYED = "each_llama_played", "A duty each time any player plays a Llama card (Llamaste)."
    EACH_MAGIC_PLAYED = "each_magic_played", "A duty each time its owner plays a Magic card (Critical Hit)."
    NURSERY = "nursery", "Is a Baby, or moves Babies to or from the Nursery."


def tags_table() -> str:
    """The table of tags in docs/card-text-format.md, in Markdown: one row a tag, in the order of `Tag`, with its
    meaning."""
    rows = [f"| `{tag.value}` | {tag.meaning} |" for tag in Tag]
    return "\n".join(["| tag | meaning |", "| --- | --- |", *rows]) + "\n"


class Confidence(enum.StrEnum):
    """How well a card text is checked against public transcriptions of the printed card."""

    CONFIRMED = "confirmed"
    """Two independent sources agree with it."""
    SINGLE_SOURCE = "single-source"
    """Only one source gives it."""
    UNVERIFIED = "unverified"
    """No source could be checked; it may be a guess."""


@dataclass(frozen=True)
class PrintVariant:
    """What the card does in another print of the same deck, where the prints differ in a way that changes play."""

    print: str
    """Which print this is, spoken: "1st Edition, second print"."""
    text: str
    """What the card does in that print, in our own words."""
    tags: frozenset[Tag] | None = None
    """The tags of that print; None when they are the same as the card's."""
    confidence: Confidence = Confidence.CONFIRMED
    """How well this print's text is checked."""
    marks: tuple[str, ...] = ()
    """Words found in this print's printed wording and not in the other's (folded to lower case): an owner's
    reference sheet whose text holds all of them is this print."""
    sources: tuple[str, ...] = ()
    """The public transcriptions this print's text was checked against."""


#: The animal variations of Llamas Unleashed; a hybrid is written with "+", such as "llama+alpaca".
VARIATIONS = ("llama", "alpaca", "goat", "ram")


@functools.lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """Fold a name or query for comparison: lower case, accents off, only letters and digits kept. Remembered: a
    look-up folds every card's name again and again (a typed line, hundreds of times)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed.casefold() if ch.isalnum() and ch.isascii())


#: What a player adds to a card look-up to hear the card's other print: "card seductive unicorn, other print".
OTHER_PRINT_WORDS = ("other print", "other prints", "another print")


def split_other_print(query: str) -> tuple[str, bool]:
    """The card query without a trailing "other print", and whether it was there."""
    folded = " ".join(re.findall(r"[^\s,;:.!?]+", query.lower()))
    for words in OTHER_PRINT_WORDS:
        if folded == words:
            return "", True
        if folded.endswith(" " + words):
            kept = re.sub(r"[\s,;:.!?]*" + r"\W+".join(words.split()) + r"[\s.!?]*$", "", query, flags=re.IGNORECASE)
            return kept.strip(), True
    return query, False


def slugify(name: str) -> str:
    """Make a card id from a name: "Two-For-One" → "two-for-one"."""
    decomposed = unicodedata.normalize("NFKD", name).casefold()
    # accents off, not turned into a break: "Llama Piñata" is llama-pinata, as the shipped deck names it
    letters = "".join(char for char in decomposed if not unicodedata.combining(char))
    return re.sub(r"[^a-z0-9]+", "-", letters).strip("-")


@dataclass(frozen=True)
class Card:
    """One card of a deck, as the players know it."""

    id: str
    """Stable identifier, unique within a card set (a slug of the name)."""
    name: str
    """The printed name."""
    type: CardType
    """Baby, Basic, Magical, Upgrade, Downgrade, Magic or Instant."""
    copies: int
    """How many copies of this card the deck holds."""
    text: str
    """What the card does, in our own words, ready to be spoken."""
    deck: str
    """The id of the deck the card comes from."""
    tags: frozenset[Tag] = frozenset()
    """What the tracker needs to know about the card."""
    variation: str | None = None
    """Llamas Unleashed only: llama, alpaca, goat, ram or a hybrid such as "llama+alpaca"."""
    abbreviation: str | None = None
    """The braille label on the physical card, where an owner's imported sheet gives it (shipped decks keep
    theirs in `braille_map/`)."""
    confidence: Confidence = Confidence.CONFIRMED
    """How well the text is checked; a card made from the owner's own sheet or card is confirmed."""
    print: str = ""
    """Which print the text follows when the card names one (otherwise the deck's edition)."""
    print_variants: tuple[PrintVariant, ...] = ()
    """What the card does in the other prints, where that changes play."""
    sources: tuple[str, ...] = ()
    """The public transcriptions the text was checked against."""

    def has(self, tag: Tag) -> bool:
        """True when the card carries `tag`."""
        return tag in self.tags

    def to_dict(self) -> dict[str, Any]:
        """A plain dictionary for JSON output."""
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "type": self.type.value,
            "deck": self.deck,
            "copies": self.copies,
            "text": self.text,
            "tags": sorted(self.tags),
        }
        if self.variation:
            out["variation"] = self.variation
        if self.abbreviation:
            out["abbreviation"] = self.abbreviation
        out["confidence"] = self.confidence.value
        if self.print:
            out["print"] = self.print
        if self.sources:
            out["sources"] = list(self.sources)
        if self.print_variants:
            out["print_variants"] = [
                {"print": v.print, "text": v.text, "confidence": v.confidence.value} for v in self.print_variants
            ]
        return out


@dataclass(frozen=True)
class DeckInfo:
    """A deck file's metadata."""

    id: str
    """Short identifier used on the command line, such as "uu-2nd"."""
    title: str
    """The full title, spoken when the deck is chosen."""
    edition: str
    """Which edition or print run the texts follow."""
    game: str
    """"unstable-unicorns" or "llamas-unleashed"."""
    kind: str
    """"base" for a playable deck, "expansion" for an add-on, "import" for an owner's reference sheet."""
    vocabulary: Vocabulary
    """Stable and Unicorn, or Field and Animal."""
    complete: bool
    """False when the list of cards is known to be incomplete."""
    rules: str = ""
    """The rule profile this deck is played with by default."""
    notes: str = ""
    """What the players should know about the deck's sources and gaps."""
    base: str = ""
    """For an import: the deck whose cards it overrides or extends."""
    bases: tuple[str, ...] = ()
    """For an expansion: the base decks it can be added to; empty means every base deck of its game."""
    herd_bonus: tuple[tuple[str, str], ...] = ()
    """Llamas Unleashed: ("rule", text) and (variation, what its Herd Bonus does), as far as they are known."""
    passive_bonus: tuple[str, ...] = ()
    """Llamas Unleashed: the variations whose Herd Bonus only protects (`passive` in `[herd_bonus]`): it holds for
    the turn, so letting the Draw phase begin loses nothing."""
    confidence: Confidence = Confidence.CONFIRMED
    """How well the deck's texts are checked, unless a card says otherwise."""
    copies_known: bool = True
    """False when the copy counts are placeholders (no public source gives them)."""

    def adds_to(self, base: DeckInfo) -> bool:
        """True when this expansion can be added to that base deck."""
        if self.kind != "expansion" or base.kind != "base" or base.game != self.game:
            return False
        return not self.bases or base.id in self.bases


@dataclass(frozen=True)
class Deck:
    """A deck file: its metadata and its cards, in file order."""

    info: DeckInfo
    cards: tuple[Card, ...]
    path: str = ""
    """The file it was read from, for messages."""

    @property
    def id(self) -> str:
        """The deck's id."""
        return self.info.id

    @property
    def total_copies(self) -> int:
        """How many physical cards the deck holds, Babies included."""
        return sum(card.copies for card in self.cards)


@dataclass
class CardSet:
    """The cards in play: one base deck, any add-ons and imports, looked up by id or name."""

    decks: list[Deck]
    by_id: dict[str, Card] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for deck in self.decks:
            for card in deck.cards:
                self.by_id[card.id] = card
        self._by_name = {normalize(card.name): card for card in self.by_id.values()}

    @property
    def base(self) -> Deck:
        """The base deck (the first one)."""
        return self.decks[0]

    @property
    def vocabulary(self) -> Vocabulary:
        """The base deck's vocabulary."""
        return self.base.info.vocabulary

    def herd_bonus(self, variation: str) -> tuple[str, bool]:
        """What a variation's Herd Bonus does as far as a deck says, and whether the owner's imported sheet says it
        (an import wins over the deck it overlays); ("", False) when no deck says."""
        for deck in reversed(self.decks):
            text = dict(deck.info.herd_bonus).get(variation, "")
            if text:
                return text, deck.info.kind == "import"
        return "", False

    def passive_bonus(self, variation: str) -> bool:
        """A variation's Herd Bonus only protects, as a deck tags it (`DeckInfo.passive_bonus`): an owner's own
        sheet gives the printed bonus's words, not a new bonus, so a deck's tag holds for its text too."""
        return any(variation in deck.info.passive_bonus for deck in self.decks)

    def copies_known(self, card: Card) -> bool:
        """False when the card's deck gives placeholder copy counts."""
        return all(deck.info.copies_known for deck in self.decks if deck.id == card.deck)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.by_id.values())

    def __len__(self) -> int:
        return len(self.by_id)

    def get(self, card_id: str) -> Card | None:
        """The card with this id, or None."""
        return self.by_id.get(card_id)

    def find_exact(self, query: str) -> Card | None:
        """The card whose id or name equals the query once case, spaces and punctuation are ignored."""
        key = normalize(query)
        if not key:
            return None
        card = self._by_name.get(key)
        if card is None:
            card = next((c for c in self.by_id.values() if normalize(c.id) == key), None)
        return card

    def closest(self, query: str, limit: int = 5) -> list[Card]:
        """The cards whose names are closest to the query, best first (standard-library fuzzy match)."""
        key = normalize(query)
        if not key:
            return []
        names = list(self._by_name)
        partial = [n for n in names if key in n]
        close = difflib.get_close_matches(key, names, n=limit, cutoff=0.5)
        ordered = list(dict.fromkeys(sorted(partial, key=len) + close))
        return [self._by_name[n] for n in ordered[:limit]]


if __name__ == "__main__":  # print the table of tags of docs/card-text-format.md
    print(tags_table(), end="")
