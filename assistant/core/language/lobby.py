"""Before and between games: starting a new game and continuing the saved one. The lobby holds the game in
progress as a `Conversation`; pure, the save reached through the small `SaveStore` protocol the storage adapter
implements.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from assistant.core.cards.card import CardSet
from assistant.core.cards.lookup import Resolution
from assistant.core.game.about import NewGameAsked
from assistant.core.game.events import EventError
from assistant.core.game.history import Game, NothingToUndoError, read_record, replay
from assistant.core.game.rules import Rules, UnknownProfileError, load_rules, parse_deck_out
from assistant.core.game.setup import Setup, SetupError
from assistant.core.game.table import Table
from assistant.core.language.builders import find_baby, find_player
from assistant.core.language.conversation import Conversation, OpenSave
from assistant.core.language.parser import Command, CommandError
from assistant.core.language.reply import Question, Reply
from assistant.core.text import SentenceNames, clean_untrusted
from assistant.core.words.errors import (
    DECK_OUT_CHOICES,
    DECKS_AT_START,
    NAMES_NEEDED,
    baby_unclear,
    cannot_start,
    rules_for_another_game,
    save_damaged,
    save_damaged_unrepaired,
    save_failed,
    save_unreadable,
    save_unusable,
)
from assistant.core.words.gameplay import NO_SAVED_GAME
from assistant.core.words.position import game_resumed, game_started
from assistant.core.words.storage import expansion_alone, save_out_of_order, save_unwritable
from assistant.core.words.verbosity import Verbosity


class SaveReadBack(Protocol):
    """A save read back from disk."""

    setup: dict[str, Any] | None
    records: list[tuple[int, dict[str, Any]]]
    """(line number, content) of every line that was read whole."""
    damaged: list[int]
    """Line numbers that could not be read."""
    problem: str
    """Why the setup cannot be read, when `setup` is None."""
    order: str
    """A record number repeated or skipped (which line, the record the game is kept up to), or ""."""

    @property
    def name(self) -> str:
        """The save's file name, for messages."""

    def set_aside(self, lines: list[int]) -> str:
        """Move these lines out of the save (keeping the original file); return where they went."""

    def open_log(self) -> OpenSave:
        """Continue appending to this save."""


class SaveStore(Protocol):
    """Where games are saved (`assistant/storage/saves.py`)."""

    def create(self, setup: dict[str, Any]) -> OpenSave:
        """Start a new save with this setup, as the last game."""

    def load_last(self) -> SaveReadBack | None:
        """The last game saved, or None."""


def shipped_addons(cards: CardSet) -> tuple[str, ...]:
    """The expansions in a card set, by id. An owner's imported sheet is an overlay of its base deck that the
    deck loader applies by itself, so a save never names it."""
    return tuple(deck.id for deck in cards.decks[1:] if deck.info.kind != "import")


@dataclass
class Lobby:
    """The cards the session started with, the save, and the game in progress (if any)."""

    cards: CardSet
    resolve: Callable[[str], Resolution]
    """The app's card resolver (names, abbreviations, braille)."""
    store: SaveStore | None = None
    """Where games are saved; None keeps them in memory only."""
    load_cards: Callable[[str, tuple[str, ...]], CardSet] | None = None
    """Loads another base deck and add-ons, for a game on other cards than the session's."""
    rules: Rules = field(default_factory=load_rules)
    talk: Conversation | None = None
    """The game in progress."""
    verbosity: Verbosity = Verbosity.NORMAL
    """How much the game replies say."""

    @property
    def game(self) -> Game | None:
        """The game in progress, or None."""
        return self.talk.game if self.talk is not None else None

    def sentence_names(self) -> SentenceNames:
        """The card and player names the words may hold that change where a sentence ends (the game's; the cards
        loaded, with no game): speech and braille split the words with them."""
        talk = self.talk
        return talk.names if talk is not None else SentenceNames.of(card.name for card in self.cards)

    def new_game(self, command: Command) -> Reply:
        """Start a game; when one is in progress, ask first (it stays saved)."""
        game = self.game
        if game is not None and game.state.outcome is None and game.log:
            return Reply.asking(NewGameAsked(), Question(lambda: self._start(command)))
        return self._start(command)

    def _start(self, command: Command) -> Reply:
        options = command.options
        cards = self.cards
        decks = options.get("decks", [])
        addons = tuple(options.get("addons", []))
        if decks or addons:
            base = decks[0] if decks else cards.base.id
            if self.load_cards is None:
                return Reply.error(DECKS_AT_START)
            try:
                cards = self.load_cards(base, addons)
            except (LookupError, ValueError) as exc:
                return Reply.error(str(exc).splitlines()[0])
        else:
            addons = shipped_addons(cards)
        info = cards.base.info
        if info.kind == "expansion":  # an expansion's cards alone are no game
            home = self.cards.base.info
            base = home.id if home.kind == "base" and info.adds_to(home) else (info.bases[0] if info.bases else "")
            return Reply.error(expansion_alone(info.id, info.title, base))
        names = tuple(clean_untrusted(name, 30) for name in command.names)
        if not names:
            return Reply.error(NAMES_NEEDED)
        try:
            if "rules" in options:
                profile = self.rules.profile(options["rules"])
            else:
                profile = self.rules.default_profile(cards.base.info.rules, cards.base.info.game)
            first = find_player(options["first"], names) if "first" in options else 0
            babies = tuple(self._baby(cards, phrase) for phrase in options.get("babies", ()))
        except (UnknownProfileError, CommandError) as exc:
            return Reply.error(str(exc))
        deck_out = None
        if "deck_out" in options:
            deck_out = parse_deck_out(options["deck_out"])
            if deck_out is None:
                return Reply.error(DECK_OUT_CHOICES)
        setup = Setup(
            players=names,
            profile=profile.id,
            first=first,
            base=cards.base.id,
            addons=addons,
            two_player=bool(options.get("two_player")),
            goal=options.get("win"),
            deck_out=deck_out,
            babies=babies,
            hands=bool(options.get("hands")),
        )
        try:
            game = Game.new(setup, cards, self.rules)
        except SetupError as exc:
            return Reply.error(cannot_start(str(exc)))
        log = None
        if self.store is not None:
            try:
                log = self.store.create(setup.to_dict())
            except OSError as exc:
                return Reply.error(save_failed(exc.strerror or str(exc)))
        self.talk = Conversation(game, self.resolve, log, self.verbosity)
        lines = game_started(game.table, game.state, self.verbosity)
        if profile.game != cards.base.info.game:
            lines.insert(1, rules_for_another_game(cards.base.info.title))
        return Reply.of(*lines, important=True, sound="your-turn")  # it ends with the first player's turn

    def _baby(self, cards: CardSet, phrase: str) -> str:
        babies = find_baby(cards, phrase, cards.base.id)
        if len(babies) != 1:
            raise CommandError(baby_unclear(phrase, [b.name for b in babies[:5]]))
        return babies[0].id

    def saved_players(self) -> list[str]:
        """The players of the last saved game when its setup can be read, else []."""
        try:
            saved = self.store.load_last() if self.store is not None else None
        except OSError:
            return []
        players = saved.setup.get("players") if saved is not None and saved.setup is not None else None
        if not isinstance(players, list) or not players:
            return []
        return [clean_untrusted(str(name), 30) for name in players]

    def save_problem(self) -> str:
        """Why the last save cannot be continued when its setup cannot be read (said at start); "" otherwise."""
        try:
            saved = self.store.load_last() if self.store is not None else None
        except OSError as exc:
            return save_unreadable(exc.strerror or str(exc))
        if saved is None or saved.setup is not None:
            return ""
        return save_unusable(saved.name, saved.problem)

    def resume(self, repair: bool = True) -> Reply:
        """Continue the last saved game exactly: replay its log; set aside any damaged part and say so.

        With `repair` False the save is only read (for `state`): nothing is set aside and nothing can be appended.
        """
        if self.store is None:
            return Reply.error(NO_SAVED_GAME)
        try:
            saved = self.store.load_last()
        except OSError as exc:
            return Reply.error(save_unreadable(exc.strerror or str(exc)))
        if saved is None:
            return Reply.of(NO_SAVED_GAME)
        if saved.setup is None:
            return Reply.error(save_unusable(saved.name, saved.problem))
        try:
            setup = Setup.from_dict(saved.setup)
            names = tuple(clean_untrusted(name, 30) for name in setup.players)  # a save is a file: untrusted
            setup = dataclasses.replace(setup, players=names)
            cards = self.cards
            wanted = (setup.base, tuple(setup.addons))
            if wanted != (cards.base.id, shipped_addons(cards)):
                if self.load_cards is None:
                    raise SetupError(f"it was played with the deck {setup.base}")
                cards = self.load_cards(*wanted)
            table = Table.create(setup, cards, self.rules)
        except (SetupError, LookupError, ValueError) as exc:
            return Reply.error(save_unusable(saved.name, str(exc).splitlines()[0]))
        game = Game(table)
        bad = list(saved.damaged)
        for line, data in saved.records:
            try:
                replay(game, read_record(data, table))
            except (EventError, NothingToUndoError):
                bad.append(line)
        lines = [save_out_of_order(saved.name, saved.order)] if saved.order else []
        try:
            if bad and repair:
                where = saved.set_aside(sorted(bad))
                lines.append(save_damaged(saved.name, sorted(bad), where))
            elif bad:
                lines.append(save_damaged_unrepaired(saved.name, sorted(bad)))
            log = saved.open_log() if repair else None
        except OSError as exc:  # it was read: only writing to it failed (a read-only home, another window)
            return Reply.error(save_unwritable(saved.name, exc.strerror or str(exc)))
        self.talk = Conversation(game, self.resolve, log, self.verbosity)
        lines.append(game_resumed(table, game))
        return Reply.of(*lines, important=True)
