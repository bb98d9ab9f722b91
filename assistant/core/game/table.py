"""What is fixed for a game (setup, cards, rules) and the rule questions about a turn and its counts: the tally, the
hand limit, the actions allowed, what may be done now. Which card acts in a Stable is `acting.py`'s, who may win
with which number `judge.py`'s. The game (`history.py`) calls `checks.check` and `moves.apply` with the table; the
table itself imports neither."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from assistant.core.cards.card import Card, CardSet, CardType, Tag, normalize
from assistant.core.game.acting import beginning_skipped, stable_card_with, triggers_silenced
from assistant.core.game.chain import (
    Link,
    PileCard,
    TriggerKind,
    begin_turn_link,
    first_with,
    in_play,
    is_plain_neigh,
)
from assistant.core.game.events import EventError, Phase
from assistant.core.game.rules import MAX_PLAYERS, MIN_PLAYERS, DeckOut, Profile, Rules, load_rules
from assistant.core.game.setup import DEALT, MAX_NAME, Setup, SetupError
from assistant.core.game.state import GameState, PlayerState, skipped_by
from assistant.core.game.tally import HandLimit, hand_limit, herd, unicorn_count


class PromptKind(enum.Enum):
    """What the table is waiting for."""

    GAME_OVER = "game-over"
    ANSWER = "answer"
    """A card waits on the pile and may be answered (or resolved)."""
    RESOLVE = "resolve"
    """The top card of the pile may not be answered: it resolves."""
    OPTIONAL = "optional"
    """Only optional beginning-of-turn effects wait: use them, or draw to let them go."""
    BEGINNING = "beginning"
    """Beginning-of-turn effects to do."""
    CHAIN = "chain"
    """The next link of the effect chain to do."""
    TURN_ENDS = "turn-ends"
    """A card's effect just done ends the turn at once (Rhinocorn): end it now, rather than go on to a phase."""
    DRAW = "draw"
    SKIP_DRAW = "skip-draw"
    """A card's effect just done skips the Draw phase (Llamabot-3000): skip it, rather than draw."""
    GIVE_UP = "give-up"
    """A card makes the current player give up the Draw or the Action phase, as they choose (Sticky Situation),
    and neither is said yet: skip draw or skip action."""
    ACTION = "action"
    """Play a card or draw one more."""
    END_TURN = "end-turn"
    """The Action phase's play is spent."""
    DISCARD = "discard"
    """End of turn phase, over the hand limit."""
    NEXT_TURN = "next-turn"
    """End of turn phase, within the hand limit."""


@dataclass(frozen=True)
class Prompt:
    """What may be done now (`Table.prompt`), for the words to phrase."""

    kind: PromptKind
    player: int
    """The current player."""
    top: PileCard | None = None
    """The top card of the pile (ANSWER, RESOLVE)."""
    shield: str | None = None
    """RESOLVE: the card that makes the top card impossible to Neigh (the top card itself: a Super Neigh)."""
    link: Link = ()
    """The first link of the chain (OPTIONAL, BEGINNING, CHAIN)."""
    limit: HandLimit | None = None
    """The hand limit (DISCARD, NEXT_TURN)."""
    excess: int = 0
    """Cards over the hand limit (DISCARD)."""

    def pile_top(self) -> PileCard:
        """The top card of the pile (ANSWER, RESOLVE); `PromptError` for a prompt that has none."""
        if self.top is None:
            raise PromptError(f"a {self.kind.name} prompt names no card on the pile")
        return self.top

    def shielded_by(self) -> str:
        """RESOLVE: the card that makes the top card impossible to Neigh; `PromptError` for a prompt with none."""
        if self.shield is None:
            raise PromptError(f"a {self.kind.name} prompt names no card that stops a Neigh")
        return self.shield

    def hand_limit(self) -> HandLimit:
        """The hand limit (DISCARD, NEXT_TURN); `PromptError` for a prompt that has none."""
        if self.limit is None:
            raise PromptError(f"a {self.kind.name} prompt names no hand limit")
        return self.limit


class PromptError(LookupError):
    """A prompt asked for what its kind does not have (the words asked `Table.prompt` for the wrong thing)."""


@dataclass(frozen=True)
class Table:
    """What is fixed for a game — setup, cards, rules — and the rules of moving from one state to the next: the
    turn's phases and prompt, the plays allowed, the tally and the hand limit."""

    setup: Setup
    cards: CardSet
    rules: Rules
    profile: Profile
    removed: frozenset[str]
    """Card ids out of the deck (the 2-player variant)."""
    removed_elsewhere: tuple[str, ...] = ()
    """Cards the rulebook's 2-player list names that are in none of this game's decks (said once, at the start)."""
    _counts: dict[tuple[str, ...], int] = field(default_factory=dict, compare=False, repr=False)
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
            for baby in dict.fromkeys(chosen):  # a Baby printed in copies may be shared (004: 3 of each)
                card = cards.get(baby)
                copies = max(1, card.copies) if card is not None else 1
                if chosen.count(baby) > copies:
                    name = card.name if card else baby
                    problems.append(
                        "two players have the same Baby"
                        if copies == 1
                        else f"{chosen.count(baby)} players chose {name}, which has {copies} copies"
                    )
            for baby in chosen:
                card = cards.get(baby)
                if card is None or card.type is not CardType.BABY:
                    problems.append(f"{baby!r} is not a Baby card of this deck")
        if problems or profile is None:
            raise SetupError("; ".join(problems))
        listed = rules.two_player_removed if setup.two_player else ()
        removed = frozenset(c for c in listed if c in cards.by_id)
        return cls(setup, cards, rules, profile, removed, tuple(c for c in listed if c not in cards.by_id))

    # Reading a state.

    @property
    def deck_out_rule(self) -> DeckOut:
        """What happens when the deck runs out in this game."""
        return self.setup.deck_out or self.profile.deck_out[0]

    @property
    def deck_counted(self) -> bool:
        """True when every card that goes into the deck has a known number of copies, so the tracker counts the
        deck; False when a deck file's copies are placeholders (`copies_known = false`): the count is then unknown
        and the deck runs out only when the table says so."""
        return all(self.cards.copies_known(c) for c in self.cards if c.type is not CardType.BABY)

    @property
    def neigh_card(self) -> str | None:
        """The id of the plain Neigh of this card set (`is_plain_neigh`, most copies), or None: without one the
        table is asked which Instant (`instants`)."""
        neighs = [c for c in self.cards if is_plain_neigh(c)]
        return max(neighs, key=lambda c: c.copies).id if neighs else None

    @property
    def instants(self) -> tuple[Card, ...]:
        """The Instant cards of this game, in deck order (the 2-player variant's removed cards left out)."""
        return tuple(c for c in self.cards if c.type is CardType.INSTANT and c.id not in self.removed)

    @property
    def super_neigh_card(self) -> str | None:
        """The id of the Super Neigh of this card set, or None."""
        return next((c.id for c in self.cards if c.has(Tag.SUPER_NEIGH)), None)

    def instants_for(self, state: GameState, player: int) -> tuple[Card, ...]:
        """The Instants a player could answer the pile's top card with, in deck order: those tagged
        `answers_animal` only against another player's Animal card being played, and none whose every copy the
        tracker already sees (where copies are known). All the game's Instants when that leaves none."""
        top = state.pile[-1] if state.pile else None
        top_card = self.cards.get(top.card) if top is not None else None
        animal = (
            len(state.pile) == 1
            and top is not None
            and top_card is not None
            and top_card.type.is_creature
            and top.player != player
        )
        fitting = [
            c
            for c in self.instants
            if (animal or not c.has(Tag.ANSWERS_ANIMAL))
            and not (self.cards.copies_known(c) and self.copies_seen(state, c.id) >= c.copies)
        ]
        return tuple(fitting) or self.instants

    def initial_state(self) -> GameState:
        """The position before the first event: Babies placed, hands dealt, the first turn beginning."""
        setup = self.setup
        count = len(setup.players)
        babies = setup.babies or ("",) * count
        # every copy of a Baby waits in the Nursery (Llamas Unleashed prints 3 of each), less those placed
        nursery = [c.id for c in self.cards if c.type is CardType.BABY for _ in range(max(1, c.copies))]
        for baby in babies:
            if baby in nursery:
                nursery.remove(baby)
        drawn = [c for c in self.cards if c.type is not CardType.BABY and c.id not in self.removed]
        neigh_each = setup.two_player and self.rules.two_player_neigh_each and self.neigh_card is not None
        deck = sum(c.copies for c in drawn) - DEALT * count - (count if neigh_each else 0)
        hand = (DEALT + (1 if neigh_each else 0)) if setup.hands else None
        players = tuple(PlayerState((baby,) if baby else (), hand) for baby in babies)
        goal = setup.goal or self.profile.goal(count)
        known = max(0, deck) if self.deck_counted else None
        state = GameState(players, tuple(nursery), (), known, 1, setup.first, Phase.BEGINNING, goal)
        link = self.begin_link(state.players[setup.first].stable, setup.first)
        if not link:
            return state
        opened = tuple(t.card for t in link if t.kind.is_beginning)
        return replace(state, chain=(link,), granted=self.extra_plays(link), opened=opened)

    def tally(self, state: GameState) -> tuple[int, ...]:
        """Each player's Unicorn count."""
        return self.tally_of(state.stables)

    def tally_of(self, stables: Iterable[tuple[str, ...]]) -> tuple[int, ...]:
        """Each Stable's Unicorn count, remembered by Stable (the same Stable counts the same)."""
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
        return self.limit_for(state.stables, player)

    def limit_for(self, stables: tuple[tuple[str, ...], ...], player: int) -> HandLimit:
        """One player's hand limit with these Stables (the one place the hand limit is worked out)."""
        return hand_limit(player, stables, self.cards, self.rules, self.profile.hand_limit)

    def neigh_shield(self, stables: tuple[tuple[str, ...], ...], target: PileCard) -> str | None:
        """The card that makes a card on the pile impossible to Neigh, or None.

        The card itself, when it says so (a Super Neigh, on the pile); or a card in its player's Stable that
        protects what they play (Yay). Such a card protects only from the Stable: "Upgrade cards ... have no
        effect while they are in your hand ... only active when they are in your Stable" (rulebook 000), so Yay
        being played protects nothing yet.
        """
        card = self.cards.get(target.card)
        if card is not None and card.type is CardType.INSTANT and card.has(Tag.CANNOT_BE_NEIGHED):
            return card.id
        return stable_card_with(self.cards, stables, target.player, Tag.CANNOT_BE_NEIGHED)

    def phase_owed(self, opened: tuple[str, ...], skipped: tuple[tuple[Phase, str], ...]) -> str | None:
        """The card that makes the current player give up their Draw or their Action phase this turn, as they
        choose (Sticky Situation: its effect joined the chain as the turn began), while they have given up neither
        for it (`GameState.opened`, `GameState.skipped`); None otherwise."""
        given = {card for _, card in skipped}
        return next(
            (c for c in opened if (card := self.cards.get(c)) and card.has(Tag.GIVES_UP_PHASE) and c not in given),
            None,
        )

    def prompt(self, state: GameState) -> Prompt:
        """What the table may do now: answer the pile, resolve the chain, or the phase's choices."""
        current = state.current
        if state.outcome is not None:
            return Prompt(PromptKind.GAME_OVER, current)
        if state.pile:
            top = state.pile[-1]
            shield = self.neigh_shield(state.stables, top)
            return Prompt(PromptKind.ANSWER if shield is None else PromptKind.RESOLVE, current, top=top, shield=shield)
        if state.chain:
            link = state.chain[0]
            if all(t.kind.is_optional_at_beginning for t in link):
                return Prompt(PromptKind.OPTIONAL, current, link=link)
            if all(t.kind.is_beginning for t in link):
                return Prompt(PromptKind.BEGINNING, current, link=link)
            return Prompt(PromptKind.CHAIN, current, link=link)
        if state.turn_ends is not None:
            return Prompt(PromptKind.TURN_ENDS, current)
        if state.phase < Phase.ACTION and self.phase_owed(state.opened, state.skipped) is not None:
            return Prompt(PromptKind.GIVE_UP, current)
        if state.phase in (Phase.BEGINNING, Phase.DRAW):
            skipped = skipped_by(state.skipped, Phase.DRAW) is not None
            return Prompt(PromptKind.SKIP_DRAW if skipped else PromptKind.DRAW, current)
        if state.phase is Phase.ACTION:
            spent = state.actions >= self.allowed_actions(state)
            return Prompt(PromptKind.END_TURN if spent else PromptKind.ACTION, current)
        limit = self.hand_limit(state, current)
        hand = state.players[current].hand
        if hand is not None and hand > limit.limit:
            return Prompt(PromptKind.DISCARD, current, limit=limit, excess=hand - limit.limit)
        return Prompt(PromptKind.NEXT_TURN, current, limit=limit)

    def passive_bonus(self, variation: str) -> bool:
        """True when a variation's Herd Bonus, as far as a deck says, only protects ("Your Alpacas cannot be
        destroyed"): it holds for the turn, and letting the Draw phase begin loses nothing."""
        return self.cards.passive_bonus(variation)  # a tag of the deck (`[herd_bonus] passive`), never its words

    def herd(self, state: GameState, player: int) -> dict[str, int]:
        """Animals per variation in a player's Field (Llamas Unleashed)."""
        return herd(state.stables[player], self.cards, self.rules)

    def allowed_actions(self, state: GameState) -> int:
        """Cards the current player may play this Action phase: 1, plus 1 for each extra-play card such as Double
        Dutch that was in their Stable when the turn began ("if this card is in your Stable at the beginning of
        your turn"), unless its optional effect was let go. A card that gives another turn (Change of Luck) gives
        no extra play."""
        return 1 + len(self.extra_play_cards(state.granted, state.lost))

    @staticmethod
    def extra_play_cards(granted: tuple[str, ...], lost: tuple[str, ...]) -> list[str]:
        """The cards that give the current player an extra play this turn: those `granted`, less those `lost`."""
        kept, left = [], list(lost)  # "you can no longer trigger that effect this turn" (000)
        for card_id in granted:
            if card_id in left:
                left.remove(card_id)
            else:
                kept.append(card_id)
        return kept

    def extra_play_card(self, state: GameState) -> str:
        """The card that gives the current player an extra play this turn (Double Dutch), "" when none does."""
        return next(iter(self.extra_play_cards(state.granted, state.lost)), "")

    def extra_plays(self, link: Link) -> tuple[str, ...]:
        """The cards of a beginning-of-turn link that give an extra play this turn (`GameState.granted`)."""
        return tuple(
            t.card for t in link if t.kind.is_beginning and (c := self.cards.get(t.card)) and c.has(Tag.EXTRA_ACTION)
        )

    def playing_effect(self, chain: tuple[Link, ...]) -> str | None:
        """The card whose effect being done (the chain's first link) plays another card at once (Dragon Kiss,
        Wizard Unicorn, Critical Hit), or None: a card played now is that effect's play, not the turn's."""
        trigger = first_with(self.cards, chain[0], Tag.PLAYS_CARD) if chain else None
        return trigger.card if trigger is not None else None

    def effects_waiting(self, state: GameState) -> bool:
        """True when the chain holds an effect that must be resolved before play goes on (not only optional
        beginning-of-turn effects, which the player may let go)."""
        return any(not t.kind.is_optional_at_beginning for link in state.chain for t in link)

    def copies_seen(self, state: GameState, card_id: str) -> int:
        """Copies of a card in Stables, the discard pile, the Nursery, the pile and in play while their effect is
        done (a Magic card's link in the chain)."""
        seen = sum(stable.count(card_id) for stable in state.stables)
        seen += state.discard.count(card_id) + state.nursery.count(card_id)
        if in_play(self.cards.get(card_id)):
            seen += sum(1 for link in state.chain for t in link if t.kind is TriggerKind.MAGIC and t.card == card_id)
        return seen + sum(1 for c in state.pile if c.card == card_id)

    def begin_link(self, stable: tuple[str, ...], owner: int) -> Link:
        """The beginning-of-turn effects of a Stable (Herd Bonuses included), as one link of the chain.

        None when a card makes its owner skip the Beginning of Turn phase (Broken Sundial); the cards whose
        triggered effects are silenced there (Blinding Light, Dragon's Blessing) add nothing.
        """
        if beginning_skipped(self.cards, stable):
            return ()
        counts = herd(stable, self.cards, self.rules) if self.profile.herd_bonus else {}
        active = tuple(c for c in stable if not triggers_silenced(self.cards, stable, c))
        return begin_turn_link(active, owner, self.cards, counts, self.profile.herd_bonus)

    def card_of(self, card_id: str) -> Card:
        card = self.cards.get(card_id)
        if card is None:
            raise EventError(f"{card_id!r} is not a card of this game")
        return card
