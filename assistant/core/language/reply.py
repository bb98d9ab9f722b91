"""What the app shows and says in answer to one line, and the one kind of question a reply can leave open.

The game conversation, the session, the Textual app, the plain mode and the speech all use this one `Reply`, so
what is shown and what is said cannot drift apart. A reply may leave a question open (`pending`): numbered cards
to choose from (a digit answers) or a yes-or-no question (a warned game event); the session keeps it until the
next line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from assistant.core.cards.card import Card
from assistant.core.game.about import About, Asked, Offered, Topic
from assistant.core.game.history import Recorded
from assistant.core.game.segment import (
    Channel,
    Part,
    Segment,
    Verbatim,
    facts_of,
    tells_of,
)
from assistant.core.words.audience import Audience
from assistant.core.words.worded import lines_of, reader_lines, segment_words, speech_of, texts

__all__ = [
    "Channel",
    "Choice",
    "Control",
    "FrontEnd",
    "Origin",
    "Part",
    "Pending",
    "Question",
    "Reply",
    "Segment",
    "Verbatim",
    "Source",
]


@dataclass(frozen=True)
class Choice:
    """Numbered cards read out; a digit picks one, and `then` answers with that card. `numbers`: each card's number,
    when it keeps one all game (an Instant's place in the game's list of Instants, `help instants`); empty: 1, 2, 3,
    ... in order."""

    cards: tuple[Card, ...]
    then: Callable[[Card], Reply]
    numbers: tuple[int, ...] = ()

    def card_for(self, number: int) -> Card | None:
        """The card a number picks; None when it picks none."""
        numbers = self.numbers or tuple(range(1, len(self.cards) + 1))
        return next((card for card, n in zip(self.cards, numbers) if n == number), None)

    @property
    def highest(self) -> int:
        """The highest number read out."""
        return max(self.numbers, default=0) if self.numbers else len(self.cards)


@dataclass(frozen=True)
class Question:
    """A yes-or-no question: yes runs `then`; no, or any other command, does nothing. `other` may take another
    answer (a card's type, for a card being added): it returns its reply, or None when the line is not one.
    `declined` is said for no, and before the reply to another command ("": only for no); None means "Not
    recorded." (a warned event). `refused`, when given, is what no does instead (a phone kept out). `waits`, when
    given, is what another command does instead of closing it: the question of another hand's move, which only its
    answer settles (a save a phone's move offered her), kept waiting to be asked again after that command's reply."""

    then: Callable[[], Reply]
    other: Callable[[str], Reply | None] | None = None
    declined: str | None = None
    refused: Callable[[], Reply] | None = None
    waits: Callable[[], None] | None = None


Pending = Choice | Question


class Control(StrEnum):
    """What a front end does itself for a reply: speech and the screen are its own."""

    NONE = ""
    STOP = "stop"
    """Stop talking (the reply says nothing)."""
    REPEAT = "repeat"
    """The reply is the last answer again: said again even if it was said before."""
    SPEECH = "speech"
    """A speech key the front end runs itself, as its key does (`argument`: "mute" as F5, "private" as F6)."""
    SHARE = "share"
    """Share the table with phones, or stop, or list or remove their devices (`share`, `argument` says which)."""
    SAID = "said"
    """A speech key's answer (`SPEECH`), which the speaker said itself as it ran the key: shown, never said again."""

    @property
    def runs(self) -> bool:
        """A front end runs it itself (stop, a speech key, `share`): the reply shows and says nothing of its own."""
        return self in (Control.STOP, Control.SPEECH, Control.SHARE)


class Source(StrEnum):
    """Where a reply came from, which decides how each front end treats it (`Origin`)."""

    OWN_KEY = "own key"
    """Her own key: a line typed, a card scanned, a key of hers answered. What still waits to be said is stale;
    a braille display shows it at once; the phones' QR code gives the screen back."""
    NOTICE = "notice"
    """A notice that arrives on its own (the camera lost, the display lost, the terminal too small for the QR
    code): said after what is being said, nothing made stale; it waits unread on a braille display."""
    DIGEST = "digest"
    """F8's answer, the digest of what other hands did: her own key's (new input), which a braille display shows
    first, never a fact held before it, holding none of its own (`DisplayLink`)."""
    AT_ONCE = "at once"
    """An answer to a key of hers that is not new input (F9, F10, her `share` lines): said as a notice, but shown at
    once on a braille display."""
    DISPLAY_BACK = "display back"
    """The braille display's own news that it answers again: said as a notice, shown at once on the display and
    never pushed away there unseen."""
    DISPLAY_LOST = "display lost"
    """The notice that the braille display stopped answering: said as a notice; it waits on the display until the
    notice that it is back overtakes it."""
    OTHER_HAND = "other hand"
    """Another hand's: a move, answer or join from a player's phone, or the phones' news (a new join code): said in
    turn at that player's seat, never cutting what is being said; it waits unread on a braille display."""


@dataclass(frozen=True)
class Origin:
    """Where a reply came from (`Source`), with the player whose hand it is when it is another hand's ("": the
    phones' own news, or the laptop's)."""

    source: Source = Source.OWN_KEY
    player: str = ""

    @classmethod
    def other_hand(cls, player: str = "") -> Origin:
        """Another hand's reply: `player`'s phone ("": the phones' own news)."""
        return cls(Source.OTHER_HAND, player)

    @property
    def new_input(self) -> bool:
        """It answers her own new input: what still waits to be said is stale."""
        return self.source in (Source.OWN_KEY, Source.DIGEST)

    @property
    def own_key(self) -> bool:
        """It did not come from another hand: said where it comes, not in turn."""
        return self.source is not Source.OTHER_HAND

    @property
    def her_key(self) -> bool:
        """It answers a key of hers (new input or not), or is the display's news that it is back: a braille display
        shows it at once."""
        return self.source in (Source.OWN_KEY, Source.DIGEST, Source.AT_ONCE, Source.DISPLAY_BACK)


#: Her own key's origin: every reply to a line typed, unless told otherwise.
OWN_KEY = Origin()
#: A notice that arrives on its own.
NOTICE = Origin(Source.NOTICE)
#: An answer to a key of hers that is not new input.
AT_ONCE = Origin(Source.AT_ONCE)
#: F8's digest of what other hands did.
DIGEST = Origin(Source.DIGEST)
#: The braille display answers again.
DISPLAY_BACK = Origin(Source.DISPLAY_BACK)
#: The braille display stopped answering.
DISPLAY_LOST = Origin(Source.DISPLAY_LOST)
#: The phones' own news (a join code renewed, another phone asking to join): another hand's, no player's.
PHONES = Origin(Source.OTHER_HAND)


class FrontEnd(Protocol):
    """Something a reply is rendered on: the answer pane, the speech, a braille display, the phones, plain mode's
    printed lines. The app and plain mode each keep a list of them and hand every reply to each in turn; each
    decides from the reply's own values (its `origin`, its segments, its facts) what to do with it."""

    def render(self, reply: Reply) -> None:
        """Show, say or send the reply, as this front end does."""


@dataclass(frozen=True, kw_only=True)
class Reply:
    """What the app shows and says in answer to one line: a sequence of typed segments (`segments`), which every
    front end renders from; `lines` and `speech` are their views. Built from segments only (`Reply.of`,
    `Reply.asking`, `Reply.error`, or `segments=` itself), every field by name: no words kept beside them."""

    important: bool = False
    """Errors, warnings, turn changes and the winner: never dropped by the speech queue."""
    card: Card | None = None
    """The card the reply is about, if any: it becomes the subject of the next command ("play" with no name)."""
    hint: bool = False
    """An aiming cue from the camera: shown on the camera line only, and said only when nothing else is."""
    sound: str = ""
    """The earcon played with it ("code-seen", "error", "your-turn"; a card reply plays "card-read")."""
    pending: Pending | None = field(default=None, compare=False)
    """A question the reply leaves open for the next line."""
    control: Control = Control.NONE
    """What the front end does itself (stop talking, say again); not a new answer for the history."""
    settles: bool = False
    """The line took back what was said before it (an undo, a redo): a decisive fact it cut off is not said again
    (a win undone is no win)."""
    argument: str = ""
    """What a control is given, as typed (`share off`: "off"; `share 127.0.0.1:8123`: the address)."""
    origin: Origin = OWN_KEY
    """Where it came from: her own key, a notice, an answer at once, another hand (`Origin`); a front end treats
    it by this, never by flags passed beside it."""
    recorded: tuple[Recorded, ...] = field(default=(), compare=False)
    """What it recorded, undid or redid, as values (the steps, their place in the log, a phone's move attributed to
    its player): the phones word it themselves (`words.recorded.recorded_lines`); (): nothing recorded."""
    segments: tuple[Segment, ...] = ()
    """What it shows and says, in order, each piece with what it tells (`Segment`)."""
    private: bool = False
    """Said into the private channel (headphones) where private reading is on (F6), as a card read is: the join
    code she asked for (`share`)."""

    @property
    def hand(self) -> str:
        """The player whose device the reply answers (a phone's move, answer or join): heard at that player's seat,
        every sentence of it; "" for the laptop's own."""
        return self.origin.player if self.origin.source is Source.OTHER_HAND else ""

    def coming(self, origin: Origin) -> Reply:
        """The same reply, come from `origin`."""
        return dataclasses.replace(self, origin=origin)

    @property
    def facts(self) -> tuple[About, ...]:
        """The decisive facts of the reply, typed, each short ("Ana wins!", "Ana's turn, not Ben's. Record anyway?"):
        a win or the game's end, a turn that begins, a count, a question waiting. Never lost when the next key or
        another hand's move cuts the reply: said after, and held on the status line and a braille display until the
        next. Read from the segments that tell them (`facts_of`): kept nowhere else."""
        return facts_of(self.segments)

    @property
    def tells(self) -> tuple[About, ...]:
        """What else the reply tells, typed: the move it recorded (merged with other moves when they pile up, and
        what a digest of the moves missed is made of), the counts it changed, what an Instant stopped, the events an
        undo took back. Read from its segments (`tells_of`): kept nowhere else."""
        return tells_of(self.segments)

    def telling(self, tells: Iterable[About]) -> Reply:
        """The same reply telling `tells` too: those its segments do not tell already, carried by its first segment
        (`Segment.tells`; a segment of no words, neither shown nor said, when it has none)."""
        told = self.tells
        more = tuple(fact for fact in tells if fact not in told)
        if not more:
            return self
        first, *rest = self.segments or (Segment(Verbatim(""), channel=Channel.SPEECH),)
        first = dataclasses.replace(first, tells=(*first.tells, *more))
        return dataclasses.replace(self, segments=(first, *rest))

    @property
    def lines(self) -> tuple[str, ...]:
        """Screen lines, one fact each (the shown segments), in the table's words."""
        return lines_of(self.segments, Audience.TABLE)

    @property
    def reader_lines(self) -> tuple[str, ...]:
        """Screen lines as a screen reader is given them (plain mode): a new join code in other words."""
        return reader_lines(self.segments)

    @property
    def speech(self) -> str:
        """The sentences spoken, in the table's words ("" for nothing: the spoken segments)."""
        return speech_of(self.segments, Audience.TABLE)

    @property
    def restates(self) -> frozenset[str]:
        """Its lines that tell only states its facts tell, in other words ("Turn 2: Ben's turn." for "Ben's turn."),
        known from the states each segment tells: a braille display holding the facts leaves them out."""
        return frozenset(
            segment_words(segment, Audience.TABLE)
            for segment in self.segments
            if segment.channel.shown and not segment.joined and segment.restates(self.facts)
        )

    @property
    def help(self) -> bool:
        """It is the command table's help (`Part.HELP`): a front end with keys of its own lists them after it."""
        return any(segment.part is Part.HELP for segment in self.segments)

    @property
    def decisive(self) -> str:
        """The decisive facts' words, as one text ("": none)."""
        return texts(self.facts)

    @classmethod
    def of(
        cls, *lines: str, important: bool = False, sound: str = "", card: Card | None = None, hint: bool = False
    ) -> Reply:
        """A reply whose speech is its lines, joined."""
        segments = tuple(Segment(Verbatim(line)) for line in lines)
        return cls(important=important, sound=sound, card=card, hint=hint, segments=segments)

    @classmethod
    def error(cls, sentence: str) -> Reply:
        """Something that could not be done or found: important, with the error sound."""
        return cls(important=True, sound="error", segments=(Segment(Verbatim(sentence)),))

    @classmethod
    def asking(
        cls,
        question: Asked | Offered,
        pending: Pending,
        *,
        important: bool = True,
        card: Card | None = None,
        sound: str = "",
    ) -> Reply:
        """A question left open (important unless told: the cards a search found are offered, not asked): the
        question is its decisive fact (`Topic.QUESTION`), held until answered, its one segment the fact in its own
        words; `question`: what it asks, typed (`About.asked`, which a small braille display words who is asked
        first; or `About.source`, a question of the app's own)."""
        if isinstance(question, Asked):
            fact = About(Topic.QUESTION, asked=question)
        else:
            fact = About(Topic.QUESTION, source=question)
        segment = Segment(fact, (fact,), part=Part.FACT)
        return cls(important=important, card=card, sound=sound, pending=pending, segments=(segment,))

    @property
    def choices(self) -> tuple[Card, ...]:
        """The numbered cards the reply offers, if any."""
        return self.pending.cards if isinstance(self.pending, Choice) else ()

    def before(self, *notes: str | Segment) -> Reply:
        """The same reply with notes shown and said first (a notice, "Not recorded."), each a line."""
        return dataclasses.replace(self, segments=(*_segments(notes), *self.segments))

    def after(self, *notes: str | Segment) -> Reply:
        """The same reply with notes shown and said after it ("From Ben's phone 2."), each a line."""
        return dataclasses.replace(self, segments=(*self.segments, *_segments(notes)))

    def after_first(self, *notes: str | Segment) -> Reply:
        """The same reply with notes after its first line, so that its outcome still comes first."""
        first = next((n + 1 for n, segment in enumerate(self.segments) if segment.channel.shown), 0)
        while first < len(self.segments) and self.segments[first].joined:
            first += 1
        segments = (*self.segments[:first], *_segments(notes), *self.segments[first:])
        return dataclasses.replace(self, segments=segments)

    def led_by(self, words: str) -> Reply:
        """The same reply with words said first, at the start of its first line ("Ben, from a phone:")."""
        segments, first = list(self.segments), True
        for n, segment in enumerate(segments):
            if segment.channel.shown and first:
                segments[n], first = dataclasses.replace(segment, joined=True), False
        return dataclasses.replace(self, segments=(Segment(Verbatim(words)), *segments))

    def then(self, other: Reply) -> Reply:
        """This reply's words, then another's, with the other's question and importance (a notice before a question);
        the facts of both, as their segments tell them."""
        return dataclasses.replace(other, segments=(*self.segments, *other.segments))


def _segments(notes: tuple[str | Segment, ...]) -> tuple[Segment, ...]:
    """Notes as segments, each a line shown and said."""
    return tuple(note if isinstance(note, Segment) else Segment(Verbatim(note)) for note in notes)
