"""A running session: the cards in play and the reply to each line the player types.

The Textual app and the plain line mode both feed lines to `Session.handle` and show and speak the `Reply` it
returns, so the two modes cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from assistant.core import brailletable, words
from assistant.core.aiming import Cue
from assistant.core.cards import Card, CardSet
from assistant.core.lookup import Resolution, resolve_name
from assistant.core.search import search_cards, search_words
from assistant.core.tracker import GameStore, LookUp, Said, Tracker


@dataclass(frozen=True)
class Reply:
    """What the app shows and says in answer to one line."""

    lines: tuple[str, ...]
    """Screen lines, one fact each."""
    speech: str
    """The sentence spoken."""
    important: bool = False
    """Errors and turn changes: never dropped by the speech queue."""
    card: Card | None = None
    """The card the reply is about, if any."""
    confirm: bool = False
    """The reply asks a yes-or-no question (a warned game event); the next line, yes or no, answers it."""
    hint: bool = False
    """An aiming cue from the camera: shown on the camera line only, and said only when nothing else is."""
    sound: str = ""
    """The earcon played with it ("code-seen", "error", "your-turn"; a card reply plays "card-read")."""


class CardResolver(Protocol):
    """What a session resolves queries with (`assistant.braille.resolver.BrailleResolver`)."""

    def resolve(self, query: str) -> Resolution:
        """The card meant by the query, or candidates, or nothing."""

    def take_notice(self) -> str:
        """A one-time message for the player (such as "contracted braille needs liblouis"), or ""."""


@dataclass
class Session:
    """The cards in play and what is pending (candidates waiting for a digit)."""

    cards: CardSet
    resolver: CardResolver | None = None
    """The resolver of typed queries; the standard-library name resolver when None."""
    pending: tuple[Card, ...] = field(default=())
    store: GameStore | None = None
    """Where games are saved (`assistant.storage.saves.GameStore`); None keeps games in memory only."""
    load_cards: Callable[[str, tuple[str, ...]], CardSet] | None = None
    """Loads another base deck and add-ons, for a game or a saved game on other decks."""
    tracker: Tracker = field(init=False)
    """The game tracker: game commands go to it first."""

    def __post_init__(self) -> None:
        self.tracker = Tracker(self.cards, self.resolve, store=self.store, load_cards=self.load_cards)

    def resume_game(self) -> Reply:
        """Continue the last saved game (the app calls this on start, the plain mode with --resume)."""
        return _from_said(self.tracker.resume())

    def resolve(self, query: str) -> Resolution:
        """Resolve a query with the best resolver available."""
        if self.resolver is not None:
            return self.resolver.resolve(query)
        return resolve_name(self.cards, query)

    def handle(self, line: str) -> Reply:
        """Answer one typed line."""
        text = line.strip()
        reading = brailletable.from_cells(text).strip() if brailletable.has_cells(text) else ""
        if reading.isdigit():
            text = reading  # a number typed in braille (⠼⠃) picks a candidate too
        answer = self.tracker.handle(text)
        if isinstance(answer, LookUp):
            return self.look_up(answer.query)
        if answer is not None:
            return _from_said(answer)
        if text.isdigit() and len(text) < 4:
            return self._choose(int(text))
        if text.lower() in ("help", "?"):
            return _reply(words.HELP_LINES, words.HELP_SPOKEN)
        command, _, rest = text.partition(" ")
        if command.lower() == "search":
            return self.search(rest)
        return self.look_up(text)

    def search(self, query: str) -> Reply:
        """The cards whose name, text or tags mention the words, numbered so that a digit reads one."""
        if not search_words(query):
            return Reply((words.SEARCH_NOTHING,), words.SEARCH_NOTHING, important=True)
        found = [f.card for f in search_cards(self.cards, query)]
        self.pending = tuple(found[: words.SEARCH_READ_OUT])
        sentence = words.search_results(query, found)
        return Reply((sentence,), sentence)

    def look_up(self, query: str) -> Reply:
        """Resolve a card query and describe the outcome."""
        resolution = self.resolve(query)
        notice = self.resolver.take_notice() if self.resolver is not None else ""
        vocabulary = self.cards.vocabulary
        if resolution.match is not None:
            self.pending = ()
            card = resolution.match
            reply = Reply(tuple(words.card_lines(card, vocabulary)), words.describe_card(card, vocabulary), card=card)
        else:
            self.pending = tuple(c.card for c in resolution.candidates)
            sentence = words.describe_resolution(resolution, vocabulary)
            reply = Reply((sentence,), sentence, important=True, sound="" if self.pending else "error")
        if notice:  # said once, before the answer, and kept on screen with it
            reply = Reply(
                (notice, *reply.lines), f"{notice} {reply.speech}", important=True, card=reply.card, sound=reply.sound
            )
        return reply

    def scanned(self, payload: str | bytes) -> Reply:
        """Answer a code read by the camera (untrusted payload): its card, its words, or "unknown code"."""
        from assistant.core.payloads import PayloadKind, resolve_payload

        meaning = resolve_payload(payload, self.cards)
        vocabulary = self.cards.vocabulary
        if meaning.card is not None and meaning.kind is not PayloadKind.TEXT:
            self.pending = ()
            card = meaning.card
            return Reply(tuple(words.card_lines(card, vocabulary)), words.describe_card(card, vocabulary), card=card)
        if meaning.kind is PayloadKind.TEXT:
            text = words.scanned_text(meaning.payload)
            return Reply((text,), text, card=meaning.card)
        if meaning.kind is PayloadKind.LABEL and meaning.deck_in_play:
            sentence = words.label_card_not_in_deck(meaning.deck, meaning.card_id)
        elif meaning.kind is PayloadKind.LABEL:
            sentence = words.label_not_in_play(meaning.deck, meaning.card_id)
        else:
            sentence = words.unknown_code(meaning.payload)
        return Reply((sentence,), sentence, important=True, sound="error")

    def aiming(self, cue: Cue) -> Reply:
        """An aiming cue (`assistant.core.aiming.Cue`) as a hint reply."""
        sentence = words.aiming_words(cue.value)
        # the confirmation's sound is the card reply's "card-read" that follows it
        return Reply((sentence,), sentence, hint=True, sound="" if cue is Cue.READ else "code-seen")

    def notice(self, sentence: str) -> Reply:
        """A sentence from an adapter (no camera, camera lost, a decoder missing): shown and said, never dropped."""
        return Reply((sentence,), sentence, important=True)

    def _choose(self, number: int) -> Reply:
        if not self.pending:
            sentence = words.NO_CHOICE_PENDING
            return Reply((sentence,), sentence, important=True, sound="error")
        if not 1 <= number <= len(self.pending):
            sentence = words.choice_out_of_range(number, len(self.pending))
            return Reply((sentence,), sentence, important=True, sound="error")
        card = self.pending[number - 1]
        self.pending = ()
        vocabulary = self.cards.vocabulary
        return Reply(tuple(words.card_lines(card, vocabulary)), words.describe_card(card, vocabulary), card=card)


def _from_said(said: Said) -> Reply:
    return Reply(
        said.lines, said.speech, important=said.important, card=said.card, confirm=said.confirm, sound=said.sound
    )


def _reply(lines, speech: str) -> Reply:
    return Reply(tuple(lines), speech)
