"""The conversation about a game in progress: a command in, a reply out. It always has a game (the lobby,
`lobby.py`, starts and resumes games).

It resolves the card names in a command with the app's resolver (so abbreviations and typos work, and several
matches are offered with numbers), builds the event with the verb's builder, asks the table to confirm anything
that looks against the rules, records it — written to the save before a word is said — and announces it. Undo,
redo and the questions are answered here too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from assistant.core.cards.card import Card, CardType, normalize
from assistant.core.cards.lookup import Resolution
from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.acting import save_for
from assistant.core.game.chain import is_neigh
from assistant.core.game.events import Destroy, EndTurn, Event, EventError, Sacrifice, Save, event_from_dict
from assistant.core.game.facts import GameOver, TurnBegan, TurnEndsNow
from assistant.core.game.history import (
    MAX_UNDO,
    Game,
    NothingToUndoError,
    Phone,
    Record,
    Recorded,
    Step,
    record_to_dict,
)
from assistant.core.game.objections import Objection
from assistant.core.game.segment import Channel, Part, Segment, UndoRedo, Verbatim
from assistant.core.language.builders import Context, cards_with_words, find_baby, find_player
from assistant.core.language.parser import Command, CommandError
from assistant.core.language.reply import Choice, Question, Reply
from assistant.core.language.verbs import BY_NAME, Verb
from assistant.core.text import PLAIN, SentenceNames
from assistant.core.words.announce import TURN_GOES_ON, announce_said, facts_of_step, tells_of_step
from assistant.core.words.entry import query_problem
from assistant.core.words.errors import (
    event_refused,
    instant_asked,
    no_card_for,
    no_instant_card,
    save_failed,
    say_which_card,
    which_card,
    who_plays,
)
from assistant.core.words.gameplay import NOTHING_TO_REDO, NOTHING_TO_UNDO, save_instead
from assistant.core.words.pace import advice_once, lead_with
from assistant.core.words.position import changed_facts, describe_position
from assistant.core.words.rulings import confirm_segments
from assistant.core.words.verbosity import Verbosity

#: The most candidates offered for a card named in a command.
MOST_CHOICES = 5


class OpenSave(Protocol):
    """An open save: each record is on disk when `append` returns."""

    def append(self, record: dict[str, Any]) -> None:
        """Write one record durably; `OSError` when it cannot."""


@dataclass
class Conversation:
    """A game in progress and what is said about it."""

    game: Game
    resolve: Callable[[str], Resolution]
    """The app's card resolver (names, abbreviations, braille)."""
    log: OpenSave | None = None
    """Where each record is written before it is announced; None keeps the game in memory only."""
    verbosity: Verbosity = Verbosity.NORMAL
    """How much the replies say: facts only, the facts and what is awaited, or also how to say it."""
    objections: tuple[Objection, ...] = ()
    """What the table found against the rules in the event of the last command (the typed reasons its warning
    phrased); empty when it found nothing or the command built no event."""
    offered: tuple[Save, bool] | None = None
    """The save "instead" the last command offered (Black Knight Unicorn), with whether the card was to be
    destroyed (else sacrificed); None when it offered none."""
    saving: Destroy | Sacrifice | None = None
    """The destroy or sacrifice the offered save would replace (None with no save offered): what `check_again` takes,
    when the offer waits until its owner is asked."""
    unsaved: str = ""
    """Why the last event, undo or redo tried could not be written to the save ("the disk is full"); "" when it
    was, or when the last command wrote nothing."""
    step: Step | None = None
    """The last event recorded, with the facts its announcement phrased; None before the first."""
    advised: set[str] = field(default_factory=set)
    """The advice already given this game (how to have a Herd Bonus read here): said once a game, not every turn."""
    by: Phone | None = None
    """The phone whose move is being carried out (`DeviceTalk` sets it while it runs one): each event recorded
    meanwhile is saved as made on it. None: the laptop."""

    names: SentenceNames = field(init=False, default=PLAIN)
    """The game's card and player names that change where a sentence ends ("Don't Kid Yourself!" is no sentence's
    end; "ana wins! ana's Stable" is two sentences): the sentences of a reply are found with them."""

    def __post_init__(self) -> None:
        self.names = SentenceNames.of((card.name for card in self.game.table.cards), self.game.setup.players)

    def run(self, command: Command, subject: Card | None = None) -> Reply:
        """Carry out a game command; `subject` is the card just read, meant when a command names none."""
        verb = BY_NAME[command.verb]
        self.objections, self.offered, self.saving, self.unsaved = (), None, None, ""
        try:
            if verb.name in ("undo", "redo"):
                return self._undo(command)
            if verb.answer is not None and (verb.build is None or command.asking):
                said = verb.answer(self.game, command)  # (a line, or a typed segment: the table's question)
                return Reply(
                    segments=tuple(line if isinstance(line, Segment) else Segment(Verbatim(line)) for line in said)
                )
            command, resolved = self._with_subject(verb, command, subject)
            return self._event(verb, command, resolved)
        except CommandError as exc:
            return Reply.error(str(exc))

    def _with_subject(self, verb: Verb, command: Command, subject: Card | None) -> tuple[Command, dict[str, Card]]:
        """The command with the card just read as its card, where it names none and one is meant."""
        if command.card is not None or subject is None or self.game.table.cards.get(subject.id) is None:
            if verb.card_needed and command.card is None:
                raise CommandError(say_which_card(verb.example))
            return command, {}
        if verb.card_needed or verb.name == "discard" or (verb.name in ("neigh", "super-neigh") and is_neigh(subject)):
            return dataclasses.replace(command, card=subject.name), {subject.name: subject}
        return command, {}

    def _event(self, verb: Verb, command: Command, resolved: dict[str, Card]) -> Reply:
        if verb.name == "neigh" and command.card is None and self.game.table.neigh_card is None:
            return self._which_instant(verb, command)
        asked = self._resolve_cards(verb, command, resolved)
        if asked is not None:
            return asked
        build = verb.build
        if build is None:  # the verb table's own defect: an event verb always builds its event
            raise TypeError(f"the verb {verb.name!r} builds no event")
        game = self.game
        try:
            event = build(Context(command, resolved, game.table, game.state))
        except CommandError as exc:
            return Reply.error(str(exc))
        try:  # exactly what a save would accept, so a recorded event always reads back
            event_from_dict(event.to_dict(), len(game.setup.players), game.table.cards.by_id)
        except EventError as exc:
            return Reply.error(event_refused(str(exc)))
        return self._checked(event)

    def _checked(self, event: Event, offer_save: bool = True) -> Reply:
        """Record an event, or ask first when something about it looks against the rules; with `offer_save`, a save
        "instead" its owner may make is offered first (`_saved_or_recorded`)."""
        game = self.game
        objections = self.objections = game.check(event)
        self.offered = self.saving = None
        record = partial(self._saved_or_recorded if offer_save else self.record, event)
        if objections:
            # The first reason, short, and the question in one breath; then the reasons in full.
            said = confirm_segments(game.table, objections)
            return Reply(important=True, pending=Question(record), segments=said)  # (its facts: the warning)
        return record()

    def _saved_or_recorded(self, event: Event) -> Reply:
        """Record the event; but a card about to be destroyed or sacrificed that its owner's card may save "instead"
        (Black Knight Unicorn) is offered first, from the keyboard and from a phone alike: yes records the save in
        its place, no the event as said. The offer is no warning: `objections` is emptied, `offered` says it."""
        game = self.game
        if not isinstance(event, (Destroy, Sacrifice)):
            return self.record(event)
        owner = event.owner if isinstance(event, Destroy) else event.player
        saver = save_for(game.table.cards, game.state, event.card, owner, isinstance(event, Sacrifice))
        if saver is None:
            return self.record(event)
        save = Save(owner, event.card, saver)
        self.objections, self.offered, self.saving = (), (save, isinstance(event, Destroy)), event
        destroyed = isinstance(event, Destroy)
        pending = Question(lambda: self._checked(save), refused=lambda: self.record(event))
        return Reply.asking(save_instead(game.table, save, destroyed), pending)

    def check_again(self, event: Event, offer_save: bool = True) -> Reply:
        """An event built earlier, checked against the table as it is now: recorded, warned about, or (`offer_save`)
        its save "instead" offered again (a save that waited until its owner, at the laptop, was free to answer it;
        not when its owner has just declined it)."""
        self.objections, self.offered, self.saving, self.unsaved = (), None, None, ""
        return self._checked(event, offer_save)

    def _resolve_cards(self, verb: Verb, command: Command, resolved: dict[str, Card]) -> Reply | None:
        """Resolve each card phrase not yet resolved; offer numbered cards when several fit."""
        cards = self.game.table.cards
        for phrase in command.card_phrases:
            if phrase in resolved:
                continue
            if verb.name in ("baby", "nursery"):
                babies = find_baby(cards, phrase, cards.base.id if verb.name == "baby" else None)
                if len(babies) == 1:
                    resolved[phrase] = babies[0]
                    continue
                babies = _unlike(babies)
                if len(babies) == 1:
                    resolved[phrase] = babies[0]
                    continue
                if babies:
                    return self._offer(verb, command, phrase, babies[:MOST_CHOICES], resolved)
            exact = [c for c in cards if normalize(c.name) == normalize(phrase)]
            named = _unlike(exact)
            if len(named) > 1:  # two decks print the name, and the cards play otherwise: asked, by what differs
                return self._offer(verb, command, phrase, named, resolved)
            by_id = cards.get(phrase.strip().lower())
            if by_id is not None:  # a card's own id is that card, even where two decks print its name
                resolved[phrase] = by_id
                continue
            if len(exact) == 1:  # an exact name is that card, its small words included ("Unicorn of War")
                resolved[phrase] = exact[0]
                continue
            resolution = self.resolve(phrase)
            if resolution.match is not None and cards.get(resolution.match.id) is not None:
                resolved[phrase] = resolution.match
                continue
            by_words = cards_with_words(cards, phrase)
            if len(by_words) == 1:
                resolved[phrase] = by_words[0]  # the only card with a word starting with each word typed
                continue
            candidates = [c.card for c in resolution.candidates if cards.get(c.card.id)]
            key = normalize(phrase)
            if len(candidates) == 1 and key and key in normalize(candidates[0].name):
                resolved[phrase] = candidates[0]  # the only card whose name holds the letters typed
                continue
            candidates = _unlike(candidates or by_words[:MOST_CHOICES])
            if not candidates:
                return Reply.error(query_problem(phrase) or no_card_for(phrase))
            if len(candidates) == 1:
                resolved[phrase] = candidates[0]  # (a reprint, or the add-on's copy of a base card: they play alike)
                continue
            return self._offer(verb, command, phrase, candidates, resolved)
        return None

    def _which_instant(self, verb: Verb, command: Command) -> Reply:
        """`neigh Ben` in a deck with no card named Neigh (Llamas Unleashed): the Instants Ben could play, numbered;
        the number chosen records it. `CommandError` when no player is named."""
        table, state = self.game.table, self.game.state
        named = command.target or command.actor
        if named is None:
            raise CommandError(who_plays("instant"))
        who = find_player(named, table.setup.players)
        instants = table.instants_for(state, who)
        if not instants:
            return Reply.error(no_instant_card())

        def then(card: Card) -> Reply:
            return self._event(verb, dataclasses.replace(command, card=card.name), {card.name: card})

        numbers = tuple(table.instants.index(card) + 1 if card in table.instants else 0 for card in instants)
        if 0 in numbers:  # (not one of the game's Instants: numbered in order)
            numbers = tuple(range(1, len(instants) + 1))
        numbered = list(zip(numbers, instants))
        pending = Choice(instants, then, numbers)
        return Reply.asking(instant_asked(table.setup.players[who], numbered), pending)

    def _offer(self, verb: Verb, command: Command, phrase: str, cards: list[Card], resolved: dict[str, Card]) -> Reply:
        """Numbered cards for a phrase; the number chosen carries the command on."""

        def then(card: Card) -> Reply:
            return self._event(verb, command, {**resolved, phrase: card})

        titles = {deck.info.id: deck.info.title for deck in self.game.table.cards.decks}
        asked = which_card(self._asked_of(verb, command), phrase, cards, titles)
        return Reply.asking(asked, Choice(tuple(cards), then))

    def _asked_of(self, verb: Verb, command: Command) -> str:
        """Whom a question about a command is asked of, by name: the player a Baby is for ("baby Ben pink"), else
        the one named first ("Ben play rainbow"), else whose turn it is (a name that fits no one: whose turn)."""
        table, seat = self.game.table, self.game.state.current
        named = command.target if verb.name == "baby" and command.target else command.actor
        if named:
            try:
                seat = find_player(named, table.setup.players)
            except CommandError:
                pass  # (the command itself says why, once a card is chosen)
        return table.setup.players[seat]

    def record(self, event: Event) -> Reply:
        """Apply an event, write it to the save, then announce it (nothing is said of an event not saved)."""
        game = self.game
        undone = list(game.undone)
        step = game.push(event, self.by)
        self.unsaved = ""  # (also a warned event recorded by yes, which comes here without `run`)
        try:
            self._write(Record("event", event, phone=self.by))
        except OSError as exc:
            game.pop()
            game.undone[:] = undone
            self.unsaved = exc.strerror or str(exc)
            return Reply.error(save_failed(self.unsaved))
        self.step = step
        turn = any(isinstance(fact, TurnBegan) for fact in step.facts)
        at = len(game.log)
        # a phone's move is the laptop's words of it, never how to say a move on her keyboard (the next step is the
        # mover's, on the phone): its lines keep the phone it was recorded from (`words.audience.for_hand`)
        said = announce_said(game.table, step, self.verbosity, at=at, phone=self.by)
        facts = facts_of_step(game.table, step, at)
        if not any(isinstance(fact, GameOver) for fact in step.facts):  # (a game's end leads by its own order)
            said = lead_with(facts, said, self.names)  # said first: the next key cannot cut them before they are heard
        reply = Reply(
            important=step.important,
            sound="your-turn" if turn else "",
            recorded=(Recorded((step,), at),),
            segments=tuple(advice_once(said, self.advised)),
        ).telling(tells_of_step(game.table, step, at))  # (its move is told by its line: the counts and stops too)
        if any(isinstance(fact, TurnEndsNow) for fact in step.facts) and game.state.turn_ends is not None:
            # "your turn ends at once" (Rhinocorn): the question "End Ana's turn now?" is open; yes ends it
            ask = Question(lambda: self._checked(EndTurn()), declined=TURN_GOES_ON)
            return _holding_question(dataclasses.replace(reply, pending=ask))
        return reply

    def _write(self, record: Record) -> None:
        if self.log is not None:
            self.log.append(record_to_dict(record))

    def _undo(self, command: Command) -> Reply:
        """Undo or redo one event, several, or all, as one record: a kill in the middle leaves all or none."""
        game = self.game
        redo = command.verb == "redo"
        available = len(game.undone) if redo else len(game.log)
        if not available:
            return Reply.error(NOTHING_TO_REDO if redo else NOTHING_TO_UNDO)
        count = available if command.word == "all" else min(command.number or 1, available, MAX_UNDO)
        undone, log = list(game.undone), list(game.log)
        steps: list[Step] = game.redo_many(count) if redo else game.undo(count)
        try:
            self._write(Record("redo" if redo else "undo", count=count))
        except OSError as exc:
            _restore(game, steps, redo, log, undone)
            self.unsaved = exc.strerror or str(exc)
            return Reply.error(save_failed(self.unsaved))
        done = UndoRedo(game.table, tuple(steps), redo, self.by)  # (from a phone: never "say")
        position = describe_position(game.table, steps[-1].after)
        # The state as it now is (a win taken back, the counts) is its decisive fact, said first; then what it gave
        # back; the position is on the status line (and said after, but in brief). Shown: what it gave back first.
        facts = tuple(changed_facts(game.table, steps[0].before, steps[-1].after))
        brief = self.verbosity is Verbosity.BRIEF
        segments = (
            Segment(done, channel=Channel.SCREEN),
            *(Segment(fact, (fact,), fact.states, Part.FACT) for fact in facts),
            Segment(done, channel=Channel.SPEECH),
            Segment(Verbatim(position), channel=Channel.SCREEN if brief else Channel.BOTH),
        )
        # Which events of the log it took back (or put back), by their places: what they told is no longer news.
        first = len(log) + 1 if redo else len(log) - len(steps) + 1
        kind = MoveKind.REDO if redo else MoveKind.UNDO
        tells = tuple(About(Topic.UNDO, move=kind, at=place) for place in range(first, first + len(steps)))
        recorded = (Recorded(tuple(steps), back="redo" if redo else "undo"),)
        return Reply(important=True, settles=True, recorded=recorded, segments=segments).telling(tells)


def _holding_question(reply: Reply) -> Reply:
    """A reply whose prompt became its open question ("End Ana's turn now?"): the prompt's segment, which tells the
    question (`Topic.QUESTION`), made its decisive fact in its own words (`Part.FACT`), held until it is answered,
    like every question a reply leaves open (`Reply.asking`)."""
    for n, segment in enumerate(reply.segments):
        question = next((fact for fact in segment.about if fact.topic is Topic.QUESTION), None)
        if question is not None:
            held = dataclasses.replace(segment, part=Part.FACT)
            segments = (*reply.segments[:n], held, *reply.segments[n + 1 :])
            return dataclasses.replace(reply, segments=segments)
    return reply


def _unlike(cards: list[Card]) -> list[Card]:
    """The cards, the first of each that play alike (the same name, type, marks and text, a reprint; or the same
    Basic card, which has no effect, from the base game and an add-on), so a listener is never asked to choose
    between cards that cannot be told apart."""
    seen: set[tuple[object, ...]] = set()
    kept = []
    for card in cards:
        text = "" if card.type is CardType.BASIC else card.text
        key = (card.name.casefold(), card.type, text, card.tags, card.variation)
        if key not in seen:
            seen.add(key)
            kept.append(card)
    return kept


def _restore(game: Game, steps: list[Step], redo: bool, log: list[Event], undone: list[Event]) -> None:
    """Put a game back as it was before an undo or redo that could not be saved."""
    try:
        game.undo(len(steps)) if redo else game.redo_many(len(steps))
    except NothingToUndoError:  # pragma: no cover - the steps were just taken, so they can be put back
        pass
    game.undone[:] = undone
    if game.log != log:  # the game in memory would no longer be the one on disk
        raise RuntimeError("an undo or redo that could not be saved could not be taken back either")
