"""The game tracker's side of the conversation: a typed line in, what to show and say out.

It parses a line (`commands.py`), resolves the card names in it with the app's resolver (so abbreviations and
typos work, and several matches are read out with numbers), checks the event (`Table.check`), asks the table to
confirm anything that looks against the rules, records it — written to the save before a word is said — and
announces it (`words.py`). Undo, redo, the queries, new game and resume live here too. Pure: the save is
reached through the small `GameStore` protocol the storage adapter implements.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from assistant.core import events as ev
from assistant.core import words
from assistant.core.cards import Card, CardSet, CardType, normalize
from assistant.core.commands import (
    Command,
    CommandError,
    build_event,
    cards_with_words,
    find_baby,
    find_player,
    parse_command,
)
from assistant.core.events import event_from_dict
from assistant.core.game import (
    Game,
    NothingToUndoError,
    Record,
    Setup,
    SetupError,
    Step,
    Table,
    TurnBegan,
    read_record,
    record_to_dict,
    replay,
)
from assistant.core.lookup import Resolution
from assistant.core.rules import Rules, UnknownProfileError, load_rules, parse_deck_out

#: The most events one undo or redo takes back.
MAX_UNDO = 10_000


@dataclass(frozen=True)
class Said:
    """The tracker's answer to one line."""

    lines: tuple[str, ...]
    """Screen lines, one fact each."""
    important: bool = False
    """Turn changes, warnings, errors and the winner: never dropped by speech."""
    confirm: bool = False
    """The answer asks a yes-or-no question; the next line answers it."""
    card: Card | None = None
    sound: str = ""
    """The earcon that goes with it: "your-turn" when a turn begins, "error" for what could not be done."""

    @property
    def speech(self) -> str:
        """The sentence spoken: the lines, joined."""
        return " ".join(self.lines)


@dataclass(frozen=True)
class LookUp:
    """The line asks for a card's text: the session looks it up as usual."""

    query: str


class GameLog(Protocol):
    """An open save: each record is on disk when `append` returns."""

    def append(self, record: dict) -> None:
        """Write one record durably; `OSError` when it cannot."""


class SavedGame(Protocol):
    """A save read back from disk."""

    setup: dict | None
    records: list[tuple[int, dict]]
    """(line number, content) of every line that was read whole."""
    damaged: list[int]
    """Line numbers that could not be read."""

    def set_aside(self, lines: list[int]) -> str:
        """Move these lines out of the save (keeping the original file); return where they went."""

    def open_log(self) -> GameLog:
        """Continue appending to this save."""


class GameStore(Protocol):
    """Where games are saved (`assistant/storage/saves.py`)."""

    def create(self, setup: dict) -> GameLog:
        """Start a new save with this setup, as the last game."""

    def load_last(self) -> SavedGame | None:
        """The last game saved, or None."""


@dataclass
class _Choice:
    """A command waiting for the player to pick a card by number."""

    command: Command
    phrase: str
    candidates: tuple[Card, ...]
    resolved: dict[str, Card]


@dataclass
class Tracker:
    """A game in progress and the conversation about it."""

    cards: CardSet
    resolve: Callable[[str], Resolution]
    """The app's card resolver (names, abbreviations, braille)."""
    store: GameStore | None = None
    """Where games are saved; None keeps them in memory only."""
    load_cards: Callable[[str, tuple[str, ...]], CardSet] | None = None
    """Loads another base deck and add-ons, for a game on other cards than the session's."""
    rules: Rules = field(default_factory=load_rules)
    game: Game | None = None
    log: GameLog | None = None
    _confirm: tuple[str, Callable[[], Said]] | None = None
    _choice: _Choice | None = None

    # The conversation.

    def handle(self, text: str) -> Said | LookUp | None:
        """Answer a line, or None when it is not about the game (the session treats it as a card look-up)."""
        text = text.strip()
        if self._choice is not None and text.isdigit() and len(text) < 4:
            return self._choose(int(text))
        self._choice = None
        pending = self._confirm
        if pending is not None:
            reply = text.lower().strip(".! ")
            self._confirm = None
            if reply in ("yes", "y", "confirm", "ok", "record it"):
                return pending[1]()
            if reply in ("no", "n", "cancel"):
                return Said((words.NOT_RECORDED,))
        said = self._answer(text)
        if pending is None:
            return said
        if not isinstance(said, Said):  # a card look-up while deciding: the question still waits
            self._confirm = pending
            return said
        return Said((words.NOT_RECORDED, *said.lines), said.important, said.confirm, said.card)

    def _answer(self, text: str) -> Said | LookUp | None:
        names = self.game.setup.players if self.game else ()
        card_set = self.game.table.cards if self.game else self.cards
        exact = card_set.find_exact(text)
        if exact is not None:
            if exact.type is CardType.INSTANT and self.game and self.game.state.pile and exact.has("neigh"):
                return _error(words.who_plays(exact.name.lower(), exact.name))
            return None  # a card's exact name is a look-up, even when it starts like a command ("Super Neigh")
        try:
            command = parse_command(text, names)
        except CommandError as exc:
            return _error(str(exc))
        if command is None:
            return None
        verb = command.verb
        if verb == "help":
            return Said(tuple(words.HELP_LINES) + words.GAME_HELP_LINES)
        if verb in ("yes", "no"):
            return Said((words.NOTHING_TO_CONFIRM,))
        if verb == "card":
            return LookUp(command.card)
        if verb == "new-game":
            return self._new_game(command)
        if self.game is None:
            return _error(words.NO_GAME)
        try:
            if verb in ("undo", "redo"):
                return self._undo(command)
            if verb in _QUERIES:
                return _QUERIES[verb](self, command)
            return self._event(command, {})
        except CommandError as exc:
            return _error(str(exc))

    def _choose(self, number: int) -> Said:
        choice = self._choice
        self._choice = None
        if not 1 <= number <= len(choice.candidates):
            self._choice = choice
            return _error(words.choice_out_of_range(number, len(choice.candidates)))
        resolved = dict(choice.resolved)
        resolved[choice.phrase] = choice.candidates[number - 1]
        try:
            return self._event(choice.command, resolved)
        except CommandError as exc:
            return _error(str(exc))

    def _resolve_cards(self, command: Command, resolved: dict[str, Card]) -> Said | None:
        """Resolve each card phrase not yet resolved; ask when several cards fit."""
        for phrase in command.card_phrases:
            if phrase in resolved:
                continue
            if command.verb in ("baby", "nursery"):
                babies = find_baby(self.game.table.cards, phrase)
                if len(babies) == 1:
                    resolved[phrase] = babies[0]
                    continue
                if babies:
                    self._choice = _Choice(command, phrase, tuple(babies[:5]), resolved)
                    return Said((words.choose_card_for(phrase, babies[:5]),), important=True)
            resolution = self.resolve(phrase)
            if resolution.match is not None and self.game.table.cards.get(resolution.match.id) is not None:
                resolved[phrase] = resolution.match
                continue
            by_words = cards_with_words(self.game.table.cards, phrase)
            if len(by_words) == 1:
                resolved[phrase] = by_words[0]  # the only card with a word starting with each word typed
                continue
            candidates = [c.card for c in resolution.candidates if self.game.table.cards.get(c.card.id)]
            if len(candidates) == 1 and normalize(phrase) and normalize(phrase) in normalize(candidates[0].name):
                resolved[phrase] = candidates[0]  # the only card whose name holds the letters typed
                continue
            if not candidates:
                candidates = by_words[:5]
            if not candidates:
                problem = words.query_problem(phrase)
                return _error(problem or words.no_card_for(phrase))
            self._choice = _Choice(command, phrase, tuple(candidates), resolved)
            return Said((words.choose_card_for(phrase, candidates),), important=True)
        return None

    def _event(self, command: Command, resolved: dict[str, Card]) -> Said:
        asked = self._resolve_cards(command, resolved)
        if asked is not None:
            return asked
        game = self.game
        if command.verb in ("resolve",) and not game.state.pile and not game.state.chain:
            return Said((f"{words.NOTHING_WAITING} {words.describe_prompt(game.table, game.state)}",))
        event = build_event(command, resolved, game.table, game.state)
        try:  # exactly what a save would accept, so a recorded event always reads back
            event_from_dict(event.to_dict(), len(game.setup.players), game.table.cards.by_id)
        except ev.EventError as exc:
            return _error(words.event_refused(str(exc)))
        if isinstance(event, ev.Respond) and not game.table.prepare(game.state, event).pile:
            return _error(words.NOTHING_TO_ANSWER)
        objections = game.check(event)
        if objections:
            question = words.confirm_question(game.table, objections)
            self._confirm = (question, lambda: self.record(event))
            return Said((question,), important=True, confirm=True)
        return self.record(event)

    # Recording.

    def record(self, event: ev.Event) -> Said:
        """Apply an event, write it to the save, then announce it (nothing is said of an event not saved)."""
        game = self.game
        undone = list(game.undone)
        step = game.push(event)
        try:
            self._write(Record("event", event))
        except OSError as exc:
            game.pop()
            game.undone[:] = undone
            return _error(words.save_failed(exc.strerror or str(exc)))
        turn = any(isinstance(fact, TurnBegan) for fact in step.facts)
        return Said(
            tuple(words.announce_step(game.table, step)),
            important=self._important(step),
            sound="your-turn" if turn else "",
        )

    def _important(self, step: Step) -> bool:
        return words.is_important_step(step)

    def _write(self, record: Record) -> None:
        if self.log is not None:
            self.log.append(record_to_dict(record))

    def _undo(self, command: Command) -> Said:
        game = self.game
        redo = command.verb == "redo"
        available = len(game.undone) if redo else len(game.log)
        if not available:
            return _error(words.NOTHING_TO_REDO if redo else words.NOTHING_TO_UNDO)
        count = available if command.word == "all" else min(command.number or 1, available, MAX_UNDO)
        steps: list[Step] = []
        for _ in range(count):
            step = game.redo() if redo else game.pop()
            try:
                self._write(Record("redo" if redo else "undo"))
            except OSError as exc:
                game.pop() if redo else game.redo()
                if not steps:
                    return _error(words.save_failed(exc.strerror or str(exc)))
                break
            steps.append(step)
        lines = words.undone_many(game.table, steps, redo)
        return Said(tuple(lines), important=True)

    # Starting and continuing.

    def _new_game(self, command: Command) -> Said:
        if self.game is not None and self.game.state.outcome is None and self.game.log:
            question = words.NEW_GAME_OVER_GAME
            self._confirm = (question, lambda: self._start(command))
            return Said((question,), important=True, confirm=True)
        return self._start(command)

    def _start(self, command: Command) -> Said:
        options = command.options
        cards = self.cards
        decks = options.get("decks", [])
        addons = tuple(options.get("addons", []))
        if decks or addons:
            base = decks[0] if decks else cards.base.id
            if self.load_cards is None:
                return _error(words.DECKS_AT_START)
            try:
                cards = self.load_cards(base, addons)
            except (LookupError, ValueError) as exc:
                return _error(str(exc).splitlines()[0])
        else:
            addons = tuple(deck.id for deck in cards.decks[1:])
        names = tuple(words.clean_untrusted(name, 30) for name in command.names)
        if not names:
            return _error(words.NAMES_NEEDED)
        try:
            if "rules" in options:
                profile = self.rules.profile(options["rules"])
            else:
                profile = self.rules.default_profile(cards.base.info.rules, cards.base.info.game)
        except UnknownProfileError as exc:
            return _error(str(exc))
        first = 0
        try:
            if "first" in options:
                first = find_player(options["first"], names)
            babies: tuple[str, ...] = ()
            if "babies" in options:
                babies = tuple(self._baby(cards, phrase) for phrase in options["babies"])
        except CommandError as exc:
            return _error(str(exc))
        deck_out = None
        if "deck_out" in options:
            deck_out = parse_deck_out(options["deck_out"])
            if deck_out is None:
                return _error(words.DECK_OUT_CHOICES)
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
            return _error(words.cannot_start(str(exc)))
        log = None
        if self.store is not None:
            try:
                log = self.store.create(setup.to_dict())
            except OSError as exc:
                return _error(words.save_failed(exc.strerror or str(exc)))
        self.game, self.log = game, log
        lines = words.game_started(game.table, game.state)
        if profile.game != cards.base.info.game:
            lines.insert(1, words.rules_for_another_game(cards.base.info.title))
        return Said(tuple(lines), important=True, sound="your-turn")  # it ends with the first player's turn

    def _baby(self, cards: CardSet, phrase: str) -> str:
        babies = find_baby(cards, phrase)
        if len(babies) != 1:
            raise CommandError(words.baby_unclear(phrase, [b.name for b in babies[:5]]))
        return babies[0].id

    def resume(self, repair: bool = True) -> Said:
        """Continue the last saved game exactly: replay its log; set aside any damaged part and say so.

        With `repair` False the save is only read (for `state`): nothing is set aside and nothing can be appended.
        """
        if self.store is None:
            return _error(words.NO_SAVED_GAME)
        try:
            saved = self.store.load_last()
        except OSError as exc:
            return _error(words.save_unreadable(exc.strerror or str(exc)))
        if saved is None:
            return Said((words.NO_SAVED_GAME,))
        try:
            setup = Setup.from_dict(saved.setup)
            cards = self.cards
            wanted = (setup.base, tuple(setup.addons))
            have = (cards.base.id, tuple(d.id for d in cards.decks[1:]))
            if wanted != have:
                if self.load_cards is None:
                    raise SetupError(f"it was played with the deck {setup.base}")
                cards = self.load_cards(*wanted)
            table = Table.create(setup, cards, self.rules)
        except (SetupError, LookupError, ValueError) as exc:
            return _error(words.save_cannot_continue(str(exc).splitlines()[0]))
        game = Game(table)
        bad = list(saved.damaged)
        for line, data in saved.records:
            try:
                replay(game, read_record(data, table))
            except (ev.EventError, NothingToUndoError):
                bad.append(line)
        lines = []
        kept = len(saved.records) + len(saved.damaged) - len(bad)
        try:
            if bad and repair:
                where = saved.set_aside(sorted(bad))
                lines.append(words.save_damaged(kept, len(bad), where))
            elif bad:
                lines.append(words.save_damaged_unrepaired(kept, len(bad)))
            self.log = saved.open_log() if repair else None
        except OSError as exc:
            return _error(words.save_unreadable(exc.strerror or str(exc)))
        self.game = game
        self._confirm = self._choice = None
        lines.append(words.game_resumed(table, game))
        return Said(tuple(lines), important=True)

    # Queries.

    def _query_turn(self, command: Command) -> Said:
        return Said((words.describe_turn(self.game.table, self.game.state),))

    def _query_stable(self, command: Command) -> Said:
        table, state = self.game.table, self.game.state
        if command.target is None:
            seats = range(len(state.players))
        else:
            seats = [find_player(command.target, table.setup.players)]
        lines = []
        for seat in seats:
            lines.append(words.describe_stable(table, state, seat))
            herd = words.describe_herd(table, state, seat)
            if herd:
                lines.append(herd)
        return Said(tuple(lines))

    def _query_tally(self, command: Command) -> Said:
        return Said((words.describe_tally(self.game.table, self.game.state),))

    def _query_pile(self, command: Command) -> Said:
        return Said((words.describe_pile(self.game.table, self.game.state),))

    def _query_chain(self, command: Command) -> Said:
        return Said(tuple(words.describe_chain(self.game.table, self.game.state)))

    def _query_hands(self, command: Command) -> Said:
        return Said((words.describe_hands(self.game.table, self.game.state),))

    def _query_deck(self, command: Command) -> Said:
        return Said((words.describe_draw_pile(self.game.table, self.game.state),))

    def _query_discards(self, command: Command) -> Said:
        return Said((words.describe_discard(self.game.table, self.game.state),))

    def _query_nursery(self, command: Command) -> Said:
        return Said((words.describe_nursery(self.game.table, self.game.state),))

    def _query_players(self, command: Command) -> Said:
        return Said((words.describe_players(self.game.table),))

    def _query_log(self, command: Command) -> Said:
        return Said(tuple(words.describe_log(self.game.table, self.game)))

    def _query_rules(self, command: Command) -> Said:
        return Said((words.describe_rules(self.game.table, self.game.state),))


_QUERIES: dict[str, Callable[[Tracker, Command], Said]] = {
    "turn": Tracker._query_turn,
    "phase": Tracker._query_turn,
    "stable": Tracker._query_stable,
    "tally": Tracker._query_tally,
    "pile": Tracker._query_pile,
    "chain": Tracker._query_chain,
    "hands?": Tracker._query_hands,
    "deck?": Tracker._query_deck,
    "discards": Tracker._query_discards,
    "nursery?": Tracker._query_nursery,
    "players": Tracker._query_players,
    "log": Tracker._query_log,
    "rules": Tracker._query_rules,
}


def _error(sentence: str) -> Said:
    return Said((sentence,), important=True, sound="error")
