"""The game tracker's model: the setup, the state, and events checked, applied, undone and redone.

Like a chess board with its move stack: `Game.push(event)` applies an event and keeps the state before it, `pop()`
undoes it, `redo()` puts it back. A game is its `Setup` plus its list of events; a save is that list, and loading
replays it through `push`, the code that applied it live. `Table.check` says what looks against the rules
(the table decides whether to record it anyway); `Table.apply` trusts and never refuses a well-formed event.
Each step also returns `facts` — what happened beyond the event itself (a card Neighed, a link added, the tally
changed, a winner) — from which `assistant/core/words/` makes the sentences.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from assistant.core.cards import CardSet, CardType, normalize
from assistant.core.chain import (
    Link,
    PileCard,
    Trigger,
    TriggerKind,
    begin_turn_link,
    cannot_be_answered,
    enters_a_stable,
    is_neigh,
    movement_link,
    resolve_top,
)
from assistant.core.events import (
    Bring,
    DeckEmpty,
    Destroy,
    Discard,
    Draw,
    EndTurn,
    Event,
    EventError,
    Move,
    NextPhase,
    Phase,
    Play,
    Reshuffle,
    Resolve,
    Respond,
    ReturnToHand,
    Sacrifice,
    SetDeck,
    SetGoal,
    SetHand,
    Source,
    Steal,
    Swap,
    SwapHands,
    Take,
    ToNursery,
    event_from_dict,
)
from assistant.core.rules import MAX_PLAYERS, MIN_PLAYERS, DeckOut, Profile, Rules, load_rules
from assistant.core.tally import (
    Ending,
    HandLimit,
    Outcome,
    first_to_goal,
    hand_limit,
    herd,
    most_unicorns,
    unicorn_count,
)

#: Cards dealt to each player at the start (rulebook 000: "deal 5 cards to each player").
DEALT = 5
#: The longest player name kept.
MAX_NAME = 30


class SetupError(ValueError):
    """A setup that cannot start a game (too few players, a name twice, an unknown Baby...)."""


@dataclass(frozen=True)
class Setup:
    """Everything decided before the first turn."""

    players: tuple[str, ...]
    """Names in clockwise seating order."""
    profile: str
    """The rule profile id."""
    first: int = 0
    """The seat of the player who goes first."""
    base: str = "uu-2nd"
    """The base deck id."""
    addons: tuple[str, ...] = ()
    """Expansion deck ids."""
    two_player: bool = False
    """The 2-player variant (rulebook 002): cards removed, one Neigh to each player."""
    goal: int | None = None
    """The table's own number of Unicorns to win, instead of the profile's."""
    deck_out: DeckOut | None = None
    """The table's choice when the deck runs out (first edition: stickler or rule-breaker); None: the profile's."""
    babies: tuple[str, ...] = ()
    """Each seat's Baby, by card id ("" for none yet); empty when Babies are placed by events."""
    hands: bool = False
    """True to count hand sizes from the deal; otherwise they are unknown until the table reports them."""

    def to_dict(self) -> dict:
        """The setup as a plain dictionary for the save file."""
        return {
            "players": list(self.players),
            "profile": self.profile,
            "first": self.first,
            "base": self.base,
            "addons": list(self.addons),
            "two_player": self.two_player,
            "goal": self.goal,
            "deck_out": self.deck_out.value if self.deck_out else None,
            "babies": list(self.babies),
            "hands": self.hands,
        }

    @classmethod
    def from_dict(cls, data: object) -> Setup:
        """Read a setup back from its save form; `SetupError` when it is malformed."""
        if not isinstance(data, dict):
            raise SetupError("the setup must be a table")
        known = {"players", "profile", "first", "base", "addons", "two_player", "goal", "deck_out", "babies", "hands"}
        if set(data) - known:
            raise SetupError(f"unknown setup field {sorted(set(data) - known)[0]!r}")
        try:
            players = tuple(_text(n) for n in data["players"])
            addons = tuple(_text(a) for a in data.get("addons", []))
            babies = tuple(_text(b, empty=True) for b in data.get("babies", []))
            deck_out = data.get("deck_out")
            return cls(
                players=players,
                profile=_text(data["profile"]),
                first=_whole(data.get("first", 0)),
                base=_text(data.get("base", "uu-2nd")),
                addons=addons,
                two_player=_flag(data.get("two_player", False)),
                goal=None if data.get("goal") is None else _whole(data["goal"]),
                deck_out=None if deck_out is None else DeckOut(deck_out),
                babies=babies,
                hands=_flag(data.get("hands", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupError(f"damaged setup ({exc})") from None


def _text(value, empty: bool = False) -> str:
    if not isinstance(value, str) or (not value and not empty):
        raise TypeError(f"{value!r} is not text")
    return value


def _whole(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def _flag(value) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value


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
    deck: int
    """Cards left in the deck, as far as the tracker knows."""
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

    @property
    def stables(self) -> tuple[tuple[str, ...], ...]:
        """Every Stable, by seat."""
        return tuple(p.stable for p in self.players)

    @property
    def is_quiet(self) -> bool:
        """True when neither the pile nor the chain waits for anything: a winner may be declared."""
        return not self.pile and not self.chain

    def to_dict(self) -> dict:
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
        }


# Facts: what a step did beyond the event itself, for the words.


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


@dataclass(frozen=True)
class InstantResolved(Fact):
    """An Instant other than a Neigh resolved; its effect is a link."""

    card: PileCard


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
    """The discard pile became the new deck."""

    count: int


@dataclass(frozen=True)
class TallyChanged(Fact):
    """Unicorn counts changed."""

    before: tuple[int, ...]
    after: tuple[int, ...]


@dataclass(frozen=True)
class WinWaits(Fact):
    """A player has reached the goal, but the pile or the chain must resolve first."""

    player: int
    count: int


@dataclass(frozen=True)
class GameOver(Fact):
    """The game ended."""

    outcome: Outcome


# Objections: what looks against the rules.


class Rule(enum.Enum):
    """Which rule an event seems to break."""

    GAME_OVER = "game-over"
    NOT_YOUR_TURN = "not-your-turn"
    NOT_DRAWN = "not-drawn"
    ACTION_USED = "action-used"
    ACTION_OVER = "action-over"
    CHAIN_OPEN = "chain-open"
    INSTANT_NOT_PLAYED = "instant-not-played"
    BABY_NOT_IN_HAND = "baby-not-in-hand"
    NOT_A_BABY = "not-a-baby"
    NOT_FOR_STABLE = "not-for-stable"
    REMOVED_CARD = "removed-card"
    NO_COPIES_LEFT = "no-copies-left"
    EMPTY_HAND = "empty-hand"
    NOTHING_TO_ANSWER = "nothing-to-answer"
    NOT_INSTANT = "not-instant"
    CANNOT_BE_ANSWERED = "cannot-be-answered"
    OWN_CARD = "own-card"
    CANNOT_NEIGH = "cannot-neigh"
    CANNOT_BE_NEIGHED = "cannot-be-neighed"
    NOT_IN_STABLE = "not-in-stable"
    STEAL_OWN = "steal-own"
    DESTROY_OWN = "destroy-own"
    PROTECTED = "protected"
    NOT_IN_DISCARD = "not-in-discard"
    NOT_IN_NURSERY = "not-in-nursery"
    DECK_EMPTY = "deck-empty"
    HAND_OVER_LIMIT = "hand-over-limit"
    NO_RESHUFFLE = "no-reshuffle"
    NOTHING_TO_RESOLVE = "nothing-to-resolve"


@dataclass(frozen=True)
class Objection:
    """One reason an event looks against the rules, with what the sentence needs."""

    rule: Rule
    player: int | None = None
    card: str | None = None
    other: str | None = None
    """A second card: the one that forbids or protects."""
    owner: int | None = None
    number: int | None = None
    limit: int | None = None


@dataclass(frozen=True)
class Step:
    """One event applied (or undone): the states on each side and what happened."""

    event: Event
    before: GameState
    after: GameState
    facts: tuple[Fact, ...] = ()


class NothingToUndoError(LookupError):
    """Undo with no event left, or redo with nothing undone."""


# Events that leave the Instant pile open; any other event first lets the pile resolve (nobody answered).
_KEEPS_PILE = (Respond, Resolve, SetHand, SetDeck, SetGoal)
_STABLE_TYPES = (CardType.UPGRADE, CardType.DOWNGRADE)


@dataclass
class _Draft:
    """A mutable copy of a state while one event is applied."""

    stables: list[tuple[str, ...]]
    hands: list[int | None]
    nursery: tuple[str, ...]
    discard: tuple[str | None, ...]
    deck: int
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
    entered: list[tuple[str, int]] = field(default_factory=list)
    left: list[tuple[str, int]] = field(default_factory=list)
    effects: list[Trigger] = field(default_factory=list)

    @classmethod
    def of(cls, s: GameState) -> _Draft:
        return cls(
            [p.stable for p in s.players], [p.hand for p in s.players], s.nursery, s.discard, s.deck, s.turn,
            s.current, s.phase, s.goal, s.drew, s.actions, s.pile, s.chain, s.deck_out, s.outcome,
        )  # fmt: skip

    def freeze(self, old: GameState) -> GameState:
        players = tuple(
            p if p.stable is stable and p.hand == hand else PlayerState(stable, hand)
            for p, stable, hand in zip(old.players, self.stables, self.hands)
        )
        return GameState(
            players, self.nursery, self.discard, self.deck, self.turn, self.current, self.phase, self.goal,
            self.drew, self.actions, self.pile, self.chain, self.deck_out, self.outcome,
        )  # fmt: skip


@dataclass(frozen=True)
class Table:
    """What is fixed for a game — setup, cards, rules — and the rules of moving from one state to the next."""

    setup: Setup
    cards: CardSet
    rules: Rules
    profile: Profile
    removed: frozenset[str]
    """Card ids out of the deck (the 2-player variant)."""
    _counts: dict = field(default_factory=dict, compare=False, repr=False)
    """Unicorn counts by Stable: Stables are immutable tuples, shared between states, so a count is computed once."""

    @classmethod
    def create(cls, setup: Setup, cards: CardSet, rules: Rules | None = None) -> Table:
        """Check a setup against the cards and rules; `SetupError` lists what is wrong."""
        rules = rules or load_rules()
        problems = []
        count = len(setup.players)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            problems.append(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count}")
        folded = [normalize(name) for name in setup.players]
        if not all(folded):
            problems.append("each player's name needs a letter or a digit")
        elif len(set(folded)) != len(folded):
            problems.append("two players have the same name")
        if any(not name.strip() or len(name) > MAX_NAME for name in setup.players):
            problems.append(f"player names must be 1 to {MAX_NAME} characters")
        if not 0 <= setup.first < max(count, 1):
            problems.append("the first player is not one of the players")
        profile = rules.profiles.get(setup.profile)
        if profile is None:
            problems.append(f"no rules called {setup.profile!r}")
        if setup.two_player and count != 2:
            problems.append("the 2-player variant needs exactly 2 players")
        if setup.two_player and profile is not None and not profile.two_player:
            problems.append(f"the rules {profile.id} have no 2-player variant")
        if setup.goal is not None and not 1 <= setup.goal <= 50:
            problems.append("the number to win must be between 1 and 50")
        if setup.deck_out is not None and profile is not None and setup.deck_out not in profile.deck_out:
            problems.append(f"the rules {profile.id} do not allow {setup.deck_out.value} when the deck runs out")
        if setup.babies:
            if len(setup.babies) != count:
                problems.append("give one Baby for each player")
            chosen = [b for b in setup.babies if b]
            if len(set(chosen)) != len(chosen):
                problems.append("two players have the same Baby")
            for baby in chosen:
                card = cards.get(baby)
                if card is None or card.type is not CardType.BABY:
                    problems.append(f"{baby!r} is not a Baby card of this deck")
        if problems:
            raise SetupError("; ".join(problems))
        removed = frozenset(c for c in rules.two_player_removed if c in cards.by_id and setup.two_player)
        return cls(setup, cards, rules, profile, removed)

    # Reading a state.

    @property
    def deck_out_rule(self) -> DeckOut:
        """What happens when the deck runs out in this game."""
        return self.setup.deck_out or self.profile.deck_out[0]

    @property
    def neigh_card(self) -> str | None:
        """The id of the plain Neigh of this card set (most copies), or None."""
        neighs = [c for c in self.cards if c.has("neigh") and not c.has("super_neigh")]
        return max(neighs, key=lambda c: c.copies).id if neighs else None

    @property
    def super_neigh_card(self) -> str | None:
        """The id of the Super Neigh of this card set, or None."""
        return next((c.id for c in self.cards if c.has("super_neigh")), None)

    def initial_state(self) -> GameState:
        """The position before the first event: Babies placed, hands dealt, the first turn beginning."""
        setup = self.setup
        count = len(setup.players)
        babies = setup.babies or ("",) * count
        nursery = tuple(c.id for c in self.cards if c.type is CardType.BABY and c.id not in babies)
        deck = sum(c.copies for c in self.cards if c.type is not CardType.BABY and c.id not in self.removed)
        neigh_each = setup.two_player and self.rules.two_player_neigh_each and self.neigh_card is not None
        deck -= DEALT * count + (count if neigh_each else 0)
        hand = (DEALT + (1 if neigh_each else 0)) if setup.hands else None
        players = tuple(PlayerState((baby,) if baby else (), hand) for baby in babies)
        goal = setup.goal or self.profile.goal(count)
        state = GameState(players, nursery, (), max(0, deck), 1, setup.first, Phase.BEGINNING, goal)
        link = self._begin_link(state.players[setup.first].stable, setup.first)
        return replace(state, chain=(link,)) if link else state

    def tally(self, state: GameState) -> tuple[int, ...]:
        """Each player's Unicorn count."""
        return self._tally(state.stables)

    def _tally(self, stables) -> tuple[int, ...]:
        counts = self._counts
        if len(counts) > 4096:  # a long game: forget old Stables rather than grow without end
            counts.clear()
        out = []
        for stable in stables:
            count = counts.get(stable)
            if count is None:
                count = counts[stable] = unicorn_count(stable, self.cards)
            out.append(count)
        return tuple(out)

    def hand_limit(self, state: GameState, player: int) -> HandLimit:
        """One player's hand limit in this state."""
        return hand_limit(player, state.stables, self.cards, self.rules, self.profile.hand_limit)

    def herd(self, state: GameState, player: int) -> dict[str, int]:
        """Animals per variation in a player's Field (Llamas Unleashed)."""
        return herd(state.stables[player], self.cards, self.rules)

    def allowed_actions(self, state: GameState) -> int:
        """Cards the current player may play this Action phase: 1, plus 1 for each extra-action card such as
        Double Dutch in their Stable."""
        extra = 0
        for card_id in state.players[state.current].stable:
            card = self.cards.get(card_id)
            at_beginning = card is not None and (card.has("begin_turn_optional") or card.has("begin_turn_trigger"))
            if at_beginning and card.has("extra_action"):
                extra += 1
        return 1 + extra

    def effects_waiting(self, state: GameState) -> bool:
        """True when the chain holds an effect that must be resolved before play goes on (not only optional
        beginning-of-turn effects, which the player may let go)."""
        return any(not t.kind.is_optional_at_beginning for link in state.chain for t in link)

    def copies_seen(self, state: GameState, card_id: str) -> int:
        """Copies of a card in Stables, the discard pile, the Nursery and the pile."""
        seen = sum(stable.count(card_id) for stable in state.stables)
        seen += state.discard.count(card_id) + state.nursery.count(card_id)
        return seen + sum(1 for c in state.pile if c.card == card_id)

    # Checking.

    def prepare(self, state: GameState, event: Event) -> GameState:
        """The state the event will meet: an open pile nobody answered resolves first."""
        if state.pile and not isinstance(event, _KEEPS_PILE):
            draft = _Draft.of(state)
            self._close_pile(draft, [])
            return draft.freeze(state)
        return state

    def check(self, state: GameState, event: Event) -> tuple[Objection, ...]:
        """What about the event looks against the rules, in this state; empty when nothing does."""
        s = self.prepare(state, event)
        out: list[Objection] = []
        if s.outcome is not None and not isinstance(event, (SetHand, SetDeck, SetGoal)):
            out.append(Objection(Rule.GAME_OVER))
        checker = _CHECKS.get(type(event))
        if checker is not None:
            checker(self, s, event, out)
        return tuple(out)

    def _card(self, card_id: str):
        card = self.cards.get(card_id)
        if card is None:
            raise EventError(f"{card_id!r} is not a card of this game")
        return card

    def _check_hand(self, s: GameState, player: int, out: list) -> None:
        if s.players[player].hand == 0:
            out.append(Objection(Rule.EMPTY_HAND, player))

    def _check_copies(self, s: GameState, card_id: str, out: list) -> None:
        card = self._card(card_id)
        if self.copies_seen(s, card_id) >= card.copies:
            out.append(Objection(Rule.NO_COPIES_LEFT, card=card_id, number=card.copies))

    def _check_in_stable(self, s: GameState, card_id: str, owner: int, out: list) -> None:
        if card_id not in s.players[owner].stable:
            out.append(Objection(Rule.NOT_IN_STABLE, card=card_id, owner=owner))

    def _check_play(self, s: GameState, e: Play, out: list) -> None:
        card = self._card(e.card)
        if card.type is CardType.INSTANT:
            out.append(Objection(Rule.INSTANT_NOT_PLAYED, e.player, e.card))
        if card.type is CardType.BABY:
            out.append(Objection(Rule.BABY_NOT_IN_HAND, e.player, e.card))
        if e.card in self.removed:
            out.append(Objection(Rule.REMOVED_CARD, card=e.card))
        if e.player != s.current:
            out.append(Objection(Rule.NOT_YOUR_TURN, e.player, owner=s.current))
        elif card.type is not CardType.INSTANT:
            if s.phase is Phase.END:
                out.append(Objection(Rule.ACTION_OVER, e.player))
            elif s.phase < Phase.ACTION and not s.drew:
                out.append(Objection(Rule.NOT_DRAWN, e.player))
            if self.effects_waiting(s):
                out.append(Objection(Rule.CHAIN_OPEN))
            elif s.actions >= self.allowed_actions(s):
                out.append(Objection(Rule.ACTION_USED, e.player, number=s.actions))
        self._check_hand(s, e.player, out)
        if card.type is not CardType.BABY:
            self._check_copies(s, e.card, out)

    def _check_respond(self, s: GameState, e: Respond, out: list) -> None:
        card = self._card(e.card)
        if not s.pile:
            out.append(Objection(Rule.NOTHING_TO_ANSWER, e.player, e.card))
            return
        top = s.pile[-1]
        if card.type is not CardType.INSTANT:
            out.append(Objection(Rule.NOT_INSTANT, e.player, e.card))
        if cannot_be_answered(self.cards.get(top.card)):
            out.append(Objection(Rule.CANNOT_BE_ANSWERED, top.player, top.card))
        if top.player == e.player:
            out.append(Objection(Rule.OWN_CARD, e.player, top.card))
        if is_neigh(card):
            blocker = self._stable_card_with(s, e.player, "stops_neighs")
            if blocker:
                out.append(Objection(Rule.CANNOT_NEIGH, e.player, e.card, other=blocker))
            shield = self._stable_card_with(s, top.player, "cannot_be_neighed")
            if shield and not cannot_be_answered(self.cards.get(top.card)):
                out.append(Objection(Rule.CANNOT_BE_NEIGHED, top.player, top.card, other=shield))
        if e.card in self.removed:
            out.append(Objection(Rule.REMOVED_CARD, card=e.card))
        self._check_hand(s, e.player, out)
        self._check_copies(s, e.card, out)

    def _stable_card_with(self, s: GameState, player: int, tag: str) -> str | None:
        for card_id in s.players[player].stable:
            card = self.cards.get(card_id)
            if card is not None and card.has(tag) and card.type is not CardType.INSTANT:
                return card_id
        return None

    def _check_resolve(self, s: GameState, e: Resolve, out: list) -> None:
        if not s.pile and not s.chain:
            out.append(Objection(Rule.NOTHING_TO_RESOLVE))

    def _check_bring(self, s: GameState, e: Bring, out: list) -> None:
        card = self._card(e.card)
        if not (enters_a_stable(card)):
            out.append(Objection(Rule.NOT_FOR_STABLE, e.player, e.card))
        if e.source is Source.NURSERY:
            if card.type is not CardType.BABY:
                out.append(Objection(Rule.NOT_A_BABY, card=e.card))
            elif e.card not in s.nursery:
                out.append(Objection(Rule.NOT_IN_NURSERY, card=e.card))
            return
        if card.type is CardType.BABY:
            out.append(Objection(Rule.BABY_NOT_IN_HAND, e.player, e.card))
        self._check_source(s, e.player, e.card, e.source, out)

    def _check_source(self, s: GameState, player: int, card_id: str, source: Source, out: list) -> None:
        if source is Source.HAND:
            self._check_hand(s, player, out)
            self._check_copies(s, card_id, out)
        elif source is Source.DECK:
            if s.deck == 0:
                out.append(Objection(Rule.DECK_EMPTY, number=1))
            self._check_copies(s, card_id, out)
        elif source is Source.DISCARD and card_id not in s.discard and None not in s.discard:
            out.append(Objection(Rule.NOT_IN_DISCARD, card=card_id))

    def _check_steal(self, s: GameState, e: Steal, out: list) -> None:
        if e.owner == e.player:
            out.append(Objection(Rule.STEAL_OWN, e.player, e.card))
        self._check_in_stable(s, e.card, e.owner, out)

    def _check_destroy(self, s: GameState, e: Destroy, out: list) -> None:
        if e.owner == e.player:
            out.append(Objection(Rule.DESTROY_OWN, e.player, e.card))
        self._check_in_stable(s, e.card, e.owner, out)
        card = self._card(e.card)
        if card.type.is_creature:
            for card_id in s.players[e.owner].stable:
                guard = self.cards.get(card_id)
                if guard is not None and guard.type is CardType.UPGRADE and guard.has("protects"):
                    out.append(Objection(Rule.PROTECTED, card=e.card, other=card_id, owner=e.owner))
                    break

    def _check_sacrifice(self, s: GameState, e: Sacrifice, out: list) -> None:
        self._check_in_stable(s, e.card, e.player, out)

    def _check_discard(self, s: GameState, e: Discard, out: list) -> None:
        self._check_hand(s, e.player, out)
        if e.card is not None:
            if self._card(e.card).type is CardType.BABY:
                out.append(Objection(Rule.BABY_NOT_IN_HAND, e.player, e.card))
            else:
                self._check_copies(s, e.card, out)

    def _check_return(self, s: GameState, e: ReturnToHand, out: list) -> None:
        self._check_in_stable(s, e.card, e.owner, out)

    def _check_draw(self, s: GameState, e: Draw, out: list) -> None:
        if s.deck < e.count:
            out.append(Objection(Rule.DECK_EMPTY, e.player, number=s.deck))

    def _check_take(self, s: GameState, e: Take, out: list) -> None:
        if self._card(e.card).type is CardType.BABY:
            out.append(Objection(Rule.BABY_NOT_IN_HAND, e.player, e.card))
        self._check_source(s, e.player, e.card, e.source, out)

    def _check_swap(self, s: GameState, e: Swap, out: list) -> None:
        self._check_in_stable(s, e.card, e.owner, out)
        self._check_in_stable(s, e.other_card, e.other_owner, out)

    def _check_move(self, s: GameState, e: Move, out: list) -> None:
        self._check_in_stable(s, e.card, e.owner, out)

    def _check_nursery(self, s: GameState, e: ToNursery, out: list) -> None:
        if self._card(e.card).type is not CardType.BABY:
            out.append(Objection(Rule.NOT_A_BABY, card=e.card))
        self._check_in_stable(s, e.card, e.owner, out)

    def _check_next(self, s: GameState, e: NextPhase, out: list) -> None:
        if self.effects_waiting(s):
            out.append(Objection(Rule.CHAIN_OPEN))
        if s.phase is Phase.DRAW and not s.drew and not e.skip:
            out.append(Objection(Rule.NOT_DRAWN, s.current))
        if s.phase is Phase.END:
            self._check_hand_limit(s, out)

    def _check_end_turn(self, s: GameState, e: EndTurn, out: list) -> None:
        if self.effects_waiting(s):
            out.append(Objection(Rule.CHAIN_OPEN))
        self._check_hand_limit(s, out)

    def _check_hand_limit(self, s: GameState, out: list) -> None:
        hand = s.players[s.current].hand
        limit = self.hand_limit(s, s.current).limit
        if hand is not None and hand > limit:
            out.append(Objection(Rule.HAND_OVER_LIMIT, s.current, number=hand, limit=limit))

    def _check_reshuffle(self, s: GameState, e: Reshuffle, out: list) -> None:
        if DeckOut.RESHUFFLE not in self.profile.deck_out:
            out.append(Objection(Rule.NO_RESHUFFLE))

    # Applying.

    def apply(self, state: GameState, event: Event) -> tuple[GameState, tuple[Fact, ...]]:
        """The state after the event, and the facts to announce. Trusts the event (see `check`)."""
        handler = _APPLY.get(type(event))
        if handler is None:
            raise EventError(f"{type(event).__name__} is not an event")
        d = _Draft.of(state)
        facts: list[Fact] = []
        before = self.tally(state)
        winner_before = first_to_goal(before, state.goal, state.current)
        if d.pile and not isinstance(event, _KEEPS_PILE):
            self._close_pile(d, facts)
        handler(self, d, event, facts)
        self._flush(d, facts)
        after = self._tally(d.stables)
        if after != before:
            facts.append(TallyChanged(before, after))
        self._judge(d, after, winner_before, facts)
        return d.freeze(state), tuple(facts)

    def _judge(self, d: _Draft, counts: tuple[int, ...], winner_before: int | None, facts: list[Fact]) -> None:
        """Declare a winner once the pile and chain are empty; apply the deck-out rule."""
        if d.outcome is not None:
            return
        quiet = not d.pile and not d.chain
        winner = first_to_goal(counts, d.goal, d.current)
        if winner is not None:
            if quiet:
                d.outcome = Outcome(Ending.GOAL, winner)
                facts.append(GameOver(d.outcome))
            elif winner_before is None or any(isinstance(f, TallyChanged) for f in facts):
                facts.append(WinWaits(winner, counts[winner]))
            return
        if not d.deck_out:
            return
        rule = self.deck_out_rule
        if rule is DeckOut.RESHUFFLE:
            d.deck_out = False
            self._reshuffle(d, facts)
        elif quiet:
            d.deck_out = False
            d.outcome = (
                most_unicorns(tuple(d.stables), self.cards) if rule is DeckOut.MOST_WINS else Outcome(Ending.NO_WINNER)
            )
            facts.append(GameOver(d.outcome))

    def _close_pile(self, d: _Draft, facts: list[Fact]) -> None:
        while d.pile:
            self._step_pile(d, facts)
            self._flush(d, facts)

    def _step_pile(self, d: _Draft, facts: list[Fact]) -> None:
        step = resolve_top(d.pile, self.cards)
        d.pile = step.pile
        if step.resolved is not None:
            played = step.resolved
            card = self.cards.get(played.card)
            if enters_a_stable(card):
                into = played.player if played.into is None else played.into
                self._enter(d, played.card, into)
            else:
                self._to_discard(d, played.card, played.player, facts)
                if card is not None and card.type is CardType.MAGIC:
                    d.effects.append(Trigger(played.card, played.player, TriggerKind.MAGIC))
            facts.append(PlayResolved(played))
        elif step.stopper is not None:
            for gone in step.discarded:
                self._to_discard(d, gone.card, gone.player, facts)
            facts.append(PileStopped(step.stopper, step.stopped, not d.pile))
        elif step.instant is not None:
            self._to_discard(d, step.instant.card, step.instant.player, facts)
            d.effects.append(Trigger(step.instant.card, step.instant.player, TriggerKind.INSTANT))
            facts.append(InstantResolved(step.instant))
        if d.pile and (step.stopper is not None or step.instant is not None):
            facts.append(PileOpenAgain(d.pile[-1]))

    def _flush(self, d: _Draft, facts: list[Fact]) -> None:
        """Turn what moved in one moment into one link of the chain."""
        link = movement_link(d.entered, d.left, self.cards) + tuple(d.effects)
        d.entered.clear()
        d.left.clear()
        d.effects.clear()
        if link:
            d.chain = d.chain + (link,)
            facts.append(LinkAdded(link, len(d.chain)))

    def _enter(self, d: _Draft, card_id: str, into: int) -> None:
        d.stables[into] = d.stables[into] + (card_id,)
        d.entered.append((card_id, into))

    def _leave(self, d: _Draft, card_id: str, owner: int) -> None:
        stable = d.stables[owner]
        if card_id in stable:
            index = stable.index(card_id)
            d.stables[owner] = stable[:index] + stable[index + 1 :]
            d.left.append((card_id, owner))

    def _to_discard(self, d: _Draft, card_id: str | None, owner: int, facts: list[Fact]) -> None:
        card = self.cards.get(card_id) if card_id else None
        if card is not None and card.type is CardType.BABY:  # "never added to ... the discard pile" (000)
            d.nursery = d.nursery + (card_id,)
            facts.append(BabyToNursery(card_id, owner))
        else:
            d.discard = d.discard + (card_id,)

    def _to_hand(self, d: _Draft, card_id: str, player: int, facts: list[Fact]) -> None:
        card = self.cards.get(card_id)
        if card is not None and card.type is CardType.BABY:  # "never added to ... a player's hand" (000)
            d.nursery = d.nursery + (card_id,)
            facts.append(BabyToNursery(card_id, player))
        else:
            self._hand(d, player, 1)

    def _hand(self, d: _Draft, player: int, change: int) -> None:
        if d.hands[player] is not None:
            d.hands[player] = max(0, d.hands[player] + change)

    def _from_deck(self, d: _Draft, count: int, facts: list[Fact]) -> None:
        if count <= 0:
            return
        had = d.deck
        d.deck = max(0, d.deck - count)
        if had > 0 and d.deck == 0:
            d.deck_out = True
            facts.append(DeckRanOut())

    def _from_discard(self, d: _Draft, card_id: str) -> None:
        for wanted in (card_id, None):  # the named card, or else one the table never named
            if wanted in d.discard:
                index = len(d.discard) - 1 - d.discard[::-1].index(wanted)
                d.discard = d.discard[:index] + d.discard[index + 1 :]
                return

    def _reshuffle(self, d: _Draft, facts: list[Fact]) -> None:
        count = len(d.discard)
        d.deck += count
        d.discard = ()
        facts.append(Reshuffled(count))

    def _begin_link(self, stable: tuple[str, ...], owner: int) -> Link:
        counts = herd(stable, self.cards, self.rules) if self.profile.herd_bonus else {}
        return begin_turn_link(stable, owner, self.cards, counts, self.profile.herd_bonus)

    def _set_phase(self, d: _Draft, phase: Phase, facts: list[Fact]) -> None:
        if d.phase is Phase.BEGINNING and phase is not Phase.BEGINNING:
            self._lose_optional(d, facts)
        d.phase = phase
        facts.append(PhaseBegan(d.current, phase))
        if phase is Phase.END:
            hand = d.hands[d.current]
            limit = hand_limit(d.current, tuple(d.stables), self.cards, self.rules, self.profile.hand_limit).limit
            if hand is not None and hand > limit:
                facts.append(OverHandLimit(d.current, hand, limit))

    def _advance(self, d: _Draft, phase: Phase, facts: list[Fact]) -> None:
        while d.phase < phase:
            self._set_phase(d, d.phase.next, facts)

    def _lose_optional(self, d: _Draft, facts: list[Fact]) -> None:
        """ "If you move to your Draw phase without triggering an optional triggered effect, you can no longer
        trigger that effect this turn" (000); mandatory ones "you must still do" (002)."""
        lost: list[Trigger] = []
        chain: list[Link] = []
        for link in d.chain:
            kept = tuple(t for t in link if not t.kind.is_optional_at_beginning)
            lost.extend(t for t in link if t.kind.is_optional_at_beginning)
            if kept:
                chain.append(kept)
        if lost:
            d.chain = tuple(chain)
            facts.append(TriggersLost(tuple(lost)))
        remaining = tuple(t for link in d.chain for t in link if t.kind is TriggerKind.BEGIN)
        if remaining:
            facts.append(MandatoryRemain(remaining))

    def _new_turn(self, d: _Draft, facts: list[Fact], to: int | None = None) -> None:
        if d.phase is Phase.BEGINNING:
            self._lose_optional(d, facts)
        d.turn += 1
        d.current = (d.current + 1) % len(d.stables) if to is None else to
        d.phase = Phase.BEGINNING
        d.drew = False
        d.actions = 0
        facts.append(TurnBegan(d.current, d.turn))
        link = self._begin_link(d.stables[d.current], d.current)
        if link:
            d.chain = d.chain + (link,)
            facts.append(LinkAdded(link, len(d.chain)))

    def _only_optional_waiting(self, d: _Draft) -> bool:
        return all(t.kind.is_optional_at_beginning for link in d.chain for t in link)

    def _apply_play(self, d: _Draft, e: Play, facts: list[Fact]) -> None:
        card = self._card(e.card)
        self._hand(d, e.player, -1)
        if e.player == d.current and card.type is not CardType.INSTANT:
            if d.phase < Phase.ACTION and self._only_optional_waiting(d):
                self._advance(d, Phase.ACTION, facts)
            d.actions += 1
        into = (e.player if e.into is None else e.into) if enters_a_stable(card) else None
        d.pile = (PileCard(e.player, e.card, into),)
        facts.append(PileOpened(d.pile[0]))

    def _apply_respond(self, d: _Draft, e: Respond, facts: list[Fact]) -> None:
        self._hand(d, e.player, -1)
        if not d.pile:  # nothing to answer (the check says so): the Instant is simply spent
            self._to_discard(d, e.card, e.player, facts)
            return
        answered = d.pile[-1]
        d.pile = d.pile + (PileCard(e.player, e.card),)
        facts.append(PileAnswered(d.pile[-1], answered))

    def _apply_resolve(self, d: _Draft, e: Resolve, facts: list[Fact]) -> None:
        if d.pile:
            self._step_pile(d, facts)
        elif d.chain:
            link = d.chain[0]
            d.chain = d.chain[1:]
            facts.append(LinkResolved(link, d.chain[0] if d.chain else None))

    def _apply_bring(self, d: _Draft, e: Bring, facts: list[Fact]) -> None:
        if e.source is Source.HAND:
            self._hand(d, e.player, -1)
        elif e.source is Source.DECK:
            self._from_deck(d, 1, facts)
        elif e.source is Source.DISCARD:
            self._from_discard(d, e.card)
        elif e.card in d.nursery:
            index = d.nursery.index(e.card)
            d.nursery = d.nursery[:index] + d.nursery[index + 1 :]
        self._enter(d, e.card, e.into)

    def _apply_steal(self, d: _Draft, e: Steal, facts: list[Fact]) -> None:
        self._leave(d, e.card, e.owner)
        self._enter(d, e.card, e.player)

    def _apply_destroy(self, d: _Draft, e: Destroy, facts: list[Fact]) -> None:
        self._leave(d, e.card, e.owner)
        self._to_discard(d, e.card, e.owner, facts)

    def _apply_sacrifice(self, d: _Draft, e: Sacrifice, facts: list[Fact]) -> None:
        self._leave(d, e.card, e.player)
        self._to_discard(d, e.card, e.player, facts)

    def _apply_discard(self, d: _Draft, e: Discard, facts: list[Fact]) -> None:
        self._hand(d, e.player, -1)
        self._to_discard(d, e.card, e.player, facts)

    def _apply_return(self, d: _Draft, e: ReturnToHand, facts: list[Fact]) -> None:
        self._leave(d, e.card, e.owner)
        self._to_hand(d, e.card, e.owner, facts)

    def _apply_draw(self, d: _Draft, e: Draw, facts: list[Fact]) -> None:
        self._hand(d, e.player, e.count)
        self._from_deck(d, e.count, facts)
        if e.player != d.current or not self._only_optional_waiting(d):
            return  # another player's draw, or a draw an effect in the chain asked for
        if d.phase is Phase.BEGINNING:
            self._set_phase(d, Phase.DRAW, facts)
        if d.phase is Phase.DRAW:
            d.drew = True
            self._set_phase(d, Phase.ACTION, facts)
        elif d.phase is Phase.ACTION and not d.chain:
            d.actions += 1  # "DRAW an additional card" is the Action phase's choice

    def _apply_take(self, d: _Draft, e: Take, facts: list[Fact]) -> None:
        if e.source is Source.DECK:
            self._from_deck(d, 1, facts)
        elif e.source is Source.DISCARD:
            self._from_discard(d, e.card)
        elif e.card in d.nursery:
            index = d.nursery.index(e.card)
            d.nursery = d.nursery[:index] + d.nursery[index + 1 :]
        self._to_hand(d, e.card, e.player, facts)

    def _apply_swap(self, d: _Draft, e: Swap, facts: list[Fact]) -> None:
        self._leave(d, e.card, e.owner)
        self._leave(d, e.other_card, e.other_owner)
        self._enter(d, e.card, e.other_owner)
        self._enter(d, e.other_card, e.owner)

    def _apply_swap_hands(self, d: _Draft, e: SwapHands, facts: list[Fact]) -> None:
        d.hands[e.player], d.hands[e.other] = d.hands[e.other], d.hands[e.player]

    def _apply_move(self, d: _Draft, e: Move, facts: list[Fact]) -> None:
        self._leave(d, e.card, e.owner)
        self._enter(d, e.card, e.into)

    def _apply_nursery(self, d: _Draft, e: ToNursery, facts: list[Fact]) -> None:
        self._leave(d, e.card, e.owner)
        d.nursery = d.nursery + (e.card,)

    def _apply_next(self, d: _Draft, e: NextPhase, facts: list[Fact]) -> None:
        if d.phase is Phase.END:
            self._new_turn(d, facts)
        else:
            self._set_phase(d, d.phase.next, facts)

    def _apply_end_turn(self, d: _Draft, e: EndTurn, facts: list[Fact]) -> None:
        self._new_turn(d, facts, e.to)

    def _apply_set_hand(self, d: _Draft, e: SetHand, facts: list[Fact]) -> None:
        d.hands[e.player] = e.count

    def _apply_set_deck(self, d: _Draft, e: SetDeck, facts: list[Fact]) -> None:
        had = d.deck
        d.deck = e.count
        if e.count == 0 and had > 0:
            d.deck_out = True
            facts.append(DeckRanOut())

    def _apply_deck_empty(self, d: _Draft, e: DeckEmpty, facts: list[Fact]) -> None:
        d.deck = 0
        d.deck_out = True
        facts.append(DeckRanOut())

    def _apply_reshuffle(self, d: _Draft, e: Reshuffle, facts: list[Fact]) -> None:
        d.deck_out = False
        self._reshuffle(d, facts)

    def _apply_set_goal(self, d: _Draft, e: SetGoal, facts: list[Fact]) -> None:
        d.goal = e.count


_CHECKS = {
    Play: Table._check_play,
    Respond: Table._check_respond,
    Resolve: Table._check_resolve,
    Bring: Table._check_bring,
    Steal: Table._check_steal,
    Destroy: Table._check_destroy,
    Sacrifice: Table._check_sacrifice,
    Discard: Table._check_discard,
    ReturnToHand: Table._check_return,
    Draw: Table._check_draw,
    Take: Table._check_take,
    Swap: Table._check_swap,
    Move: Table._check_move,
    ToNursery: Table._check_nursery,
    NextPhase: Table._check_next,
    EndTurn: Table._check_end_turn,
    Reshuffle: Table._check_reshuffle,
}

_APPLY = {
    Play: Table._apply_play,
    Respond: Table._apply_respond,
    Resolve: Table._apply_resolve,
    Bring: Table._apply_bring,
    Steal: Table._apply_steal,
    Destroy: Table._apply_destroy,
    Sacrifice: Table._apply_sacrifice,
    Discard: Table._apply_discard,
    ReturnToHand: Table._apply_return,
    Draw: Table._apply_draw,
    Take: Table._apply_take,
    Swap: Table._apply_swap,
    SwapHands: Table._apply_swap_hands,
    Move: Table._apply_move,
    ToNursery: Table._apply_nursery,
    NextPhase: Table._apply_next,
    EndTurn: Table._apply_end_turn,
    SetHand: Table._apply_set_hand,
    SetDeck: Table._apply_set_deck,
    DeckEmpty: Table._apply_deck_empty,
    Reshuffle: Table._apply_reshuffle,
    SetGoal: Table._apply_set_goal,
}


class Game:
    """A table and its history: the states after each event, the log, and what undo has set aside for redo."""

    def __init__(self, table: Table):
        self.table = table
        self._states: list[GameState] = [table.initial_state()]
        self.log: list[Event] = []
        """The events in effect, oldest first."""
        self.undone: list[Event] = []
        """Events undone, the most recently undone last; redo takes from the end."""

    @classmethod
    def new(cls, setup: Setup, cards: CardSet, rules: Rules | None = None) -> Game:
        """A game at its first turn; `SetupError` when the setup cannot start one."""
        return cls(Table.create(setup, cards, rules))

    @property
    def state(self) -> GameState:
        """The current position."""
        return self._states[-1]

    @property
    def initial(self) -> GameState:
        """The position before the first event."""
        return self._states[0]

    @property
    def setup(self) -> Setup:
        """The game's setup."""
        return self.table.setup

    def state_before(self, index: int) -> GameState:
        """The state event number `index` (from 0) of the log was applied to."""
        return self._states[index]

    def check(self, event: Event) -> tuple[Objection, ...]:
        """What about the event looks against the rules now."""
        return self.table.check(self.state, event)

    def push(self, event: Event) -> Step:
        """Apply an event (trusted: call `check` first) and forget anything undone."""
        step = self._apply(event)
        self.undone.clear()
        return step

    def _apply(self, event: Event) -> Step:
        before = self.state
        after, facts = self.table.apply(before, event)
        self._states.append(after)
        self.log.append(event)
        return Step(event, before, after, facts)

    def pop(self) -> Step:
        """Undo the last event; `NothingToUndoError` when there is none."""
        if not self.log:
            raise NothingToUndoError("nothing to undo")
        event = self.log.pop()
        before = self._states.pop()
        self.undone.append(event)
        return Step(event, before, self.state)

    def redo(self) -> Step:
        """Apply again the event undone last; `NothingToUndoError` when nothing was undone."""
        if not self.undone:
            raise NothingToUndoError("nothing to redo")
        return self._apply(self.undone.pop())

    def to_dict(self) -> dict:
        """The whole game as plain values for `state --json`."""
        table = self.table
        state = self.state
        return {
            "setup": self.setup.to_dict(),
            "rules": {"id": table.profile.id, "title": table.profile.title, "rulebook": table.profile.rulebook},
            "state": state.to_dict(),
            "tally": list(table.tally(state)),
            "events": [event.to_dict() for event in self.log],
            "undone": [event.to_dict() for event in self.undone],
        }


@dataclass(frozen=True)
class Record:
    """One line of a save after the setup: an event, an undo or a redo."""

    kind: str
    """"event", "undo" or "redo"."""
    event: Event | None = None


def read_record(data: object, table: Table) -> Record:
    """A save line's content as a record; `EventError` when it is malformed or names what is not in the game."""
    if isinstance(data, dict) and data.get("e") in ("undo", "redo") and len(data) == 1:
        return Record(data["e"])
    return Record("event", event_from_dict(data, len(table.setup.players), table.cards.by_id))


def record_to_dict(record: Record) -> dict:
    """A record in its save form."""
    return record.event.to_dict() if record.event is not None else {"e": record.kind}


def replay(game: Game, record: Record) -> Step:
    """Apply one saved record to a game, through the same `push`, `pop` and `redo` a live game uses."""
    if record.kind == "undo":
        return game.pop()
    if record.kind == "redo":
        return game.redo()
    return game.push(record.event)
