"""One thing the speech says (`Utterance`): its words, what it is about as typed values, its sentences as they are
played and where each of its facts ends, and how it competes with the others (`Priority`). The queue
(`queue.py`) decides what is said next from these. Its words are made from its typed pieces (the facts folded into
it, its segments), and where a sentence, a fact or its move lies is found from those pieces' boundaries: nothing
here compares words with words, nor reads them back but to split a piece into its sentences."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.game.segment import Channel, Segment, Verbatim
from assistant.core.language.reply import Reply, Source
from assistant.core.text import PLAIN, SentenceNames, split_sentences
from assistant.core.words.audience import Audience
from assistant.core.words.worded import segment_words, speech_of, words_for


class Priority(enum.Enum):
    """How an utterance competes with the others (never its place in the order)."""

    IMPORTANT = "important"
    """Errors, warnings, turn changes: said in order; the player's next key drops it, its decisive fact folded."""
    MESSAGE = "message"
    """Answers and announcements: said in order; the player's next key drops it, its decisive fact folded."""
    ECHO = "echo"
    """Navigation echo (a braille cell typed): only the latest waiting one is said."""
    HINT = "hint"
    """Nice to know ("code seen"): dropped when anything else is being said or waiting."""


#: How fast a screen reader is taken to speak, in words a second (about 210 a minute, a reader's default rate), where
#: it says nothing of how long a sentence lasts (`reader_seconds`).
READER_WORDS_PER_SECOND = 3.5


def reader_seconds(text: str) -> float:
    """About how long a screen reader takes to say `text` (`READER_WORDS_PER_SECOND`)."""
    return len(text.split()) / READER_WORDS_PER_SECOND


#: How much longer than `reader_seconds` a screen reader may take to say a text: twice, a reader at half the usual
#: rate (about 105 words a minute).
READER_SLOWER = 2.0


def reader_may_take(text: str) -> float:
    """The longest a screen reader handed `text` may still be saying it, in seconds (`READER_SLOWER`): while it may, a
    table's question in it that another hand's move closed is stopped (the plain mode beside her reader, `ui.plain`;
    a reader that queues what it is given, `SpeechWorker.handed_on`)."""
    return READER_SLOWER * reader_seconds(text)


#: The facts an earcon is heard with (`Utterance.sound_at`): the turn's earcon ("your-turn") just before the sentence
#: that says the turn ended or whose turn it is now, never before a count or a move said ahead of it ("Cy 3 Unicorns.
#: Cy's turn ended. Turn 5: Ana's turn." chimes at "Cy's turn ended."); an earcon not named here before its first
#: sentence.
SOUND_WITH: dict[str, Callable[[About], bool]] = {
    "your-turn": lambda fact: fact.topic is Topic.TURN or (fact.topic is Topic.MOVE and fact.move is MoveKind.END),
}


@dataclass(frozen=True)
class Utterance:
    """One thing to say."""

    text: str = ""
    """The words, already cleaned (they come from `assistant.core.words`), the folded facts first: made from
    `folded` and `segments` where it has either (`__post_init__`), given whole only for words of no parts (a
    sentence of the app's own, a repeat)."""
    priority: Priority = Priority.MESSAGE
    private: bool = False
    """Hidden information (your own hand): only for the headphones device, never the table's speakers."""
    review: bool = False
    """A repeat or a step through the history: not put into the history again."""
    sound: str = ""
    """An earcon heard just before the words ("error", "your-turn"), or alone when there are no words."""
    facts: tuple[About, ...] = ()
    """The decisive facts it carries (`Reply.facts`), said first in its own words: never lost. Cut off before they
    were heard, or dropped, they are folded into the next reply."""
    tells: tuple[About, ...] = ()
    """The move it tells of (`Reply.tells`): merged with other hands' moves when they pile up."""
    folded: tuple[About, ...] = ()
    """The facts of earlier replies, cut or dropped, that its text begins with (each brief, `words_for`)."""
    other: bool = False
    """It tells of another hand's move, not of the player's own key: a reply whose source is another hand's
    (`of_reply` with `Source.OTHER_HAND`), said in turn (`SpeechQueue.arrive`), or other hands' moves merged."""
    hand: int | None = None
    """The seat of the player whose device it came from (another hand's reply): heard at that seat, every sentence
    of it (`placement.sentence_places`); None: the player of its first move, or no other hand."""
    places: tuple[float, ...] = ()
    """Where each sentence is heard, from the first, -1 (left) to +1 (right); empty: all in the middle (set by the
    speech service just before it is said: `placement.sentence_places`)."""
    names: SentenceNames = PLAIN
    """The card and player names its words may hold, which change where its sentences end (`split`): given by the
    front end with the words, from the game it speaks of."""
    segments: tuple[Segment, ...] = ()
    """Its own words as typed segments (`Reply.segments`), which say which sentences tell each of its facts and its
    move: a fact ends with the first segment that tells it. Words given whole are one segment that tells nothing:
    its facts are then taken as said first, in order (as a reply says them)."""

    def __post_init__(self) -> None:
        """Its words made in one place: from its folded facts' words and its spoken segments when it has either
        (`text` given beside them is not read); words given whole become its one segment, said only, that tells
        nothing typed."""
        if self.segments or self.folded:
            folded = [words for fact in self.folded if (words := words_for(fact, Audience.BRIEF).strip())]
            object.__setattr__(
                self, "text", " ".join([*folded, speech_of(self.segments, Audience.TABLE).strip()]).strip()
            )
        elif self.text.strip():
            object.__setattr__(self, "segments", (Segment(Verbatim(self.text), channel=Channel.SPEECH),))

    @classmethod
    def of_reply(
        cls,
        reply: Reply,
        source: Source = Source.OWN_KEY,
        priority: Priority = Priority.MESSAGE,
        *,
        private: bool = False,
        sound: str = "",
        hand: int | None = None,
        names: SentenceNames = PLAIN,
    ) -> Utterance:
        """A reply to say, whole: its words its spoken segments, its decisive facts and what it tells as its segments
        carry them (`Reply.facts`, `Reply.tells`). The one place a reply becomes speech. `source`: where it came
        from, as the speaker treats it (`Reply.origin`); another hand's (`Source.OTHER_HAND`) tells of that hand's
        move (`other`), said in turn; `hand`: that hand's seat; `names`: the game's names that change where its
        sentences end."""
        return cls(
            priority=priority,
            private=private,
            sound=sound,
            facts=reply.facts,
            tells=reply.tells,
            other=source is Source.OTHER_HAND,
            hand=hand,
            names=names,
            segments=reply.segments,
        )

    def split(self, text: str | None = None) -> list[str]:
        """Its sentences as they are played, or those of some `text` of it (`split_sentences` with its `names`).
        Its own sentences are split piece by piece (`_layout`): each folded fact, then each spoken segment, so where
        one piece ends and the next begins is a sentence's end whatever the words, even after a card name's own "!"
        ("Cy played Neigh, Mate!" then "Dee played Super Neigh."); a segment that ends in no sentence's mark ("Ben,
        from a phone:") shares its last sentence with the next. Inside a piece, card names are kept whole as
        `split_sentences` keeps them."""
        if text is not None:
            return split_sentences(text, names=self.names)
        return list(self._layout.sentences)

    @cached_property
    def _layout(self) -> _Layout:
        """Its sentences and where each piece of it lies among them, found once from the pieces' own boundaries:
        each folded fact's words (always ending a sentence), then each spoken segment's (ending one when its words
        end in ".", "!", "?" or ";")."""
        found: list[str] = []
        open_ = False

        def place(words: str) -> tuple[int, int]:
            sentences = split_sentences(words, names=self.names)
            joined = open_ and bool(found) and bool(sentences)
            start = len(found) - 1 if joined else len(found)
            if joined:
                found[-1] = f"{found[-1]} {sentences.pop(0)}"
            found.extend(sentences)
            return start, len(found)

        folded = []
        for fact in self.folded:
            words = words_for(fact, Audience.BRIEF).strip()
            folded.append(place(words) if words else (len(found), len(found)))
        spans = []
        for segment in self.segments:
            words = segment_words(segment, Audience.TABLE).strip()
            if not segment.channel.spoken or not words:
                continue
            start, end = place(words)
            spans.append((segment, start, end))
            open_ = not ends_sentence(words)
        return _Layout(tuple(found), tuple(folded), tuple(spans))

    def sound_at(self) -> int:
        """The sentence its earcon is heard just before (an index into `split()`): for an earcon of `SOUND_WITH`, the
        first sentence of the first piece (a folded fact, a spoken segment) that tells a fact it goes with, found by
        the typed facts, never the words; 0 otherwise, and when no piece tells one."""
        goes_with = SOUND_WITH.get(self.sound)
        if goes_with is None:
            return 0
        pieces = [
            *((fact.flat(), start) for fact, (start, _) in zip(self.folded, self.folded_at())),
            *(
                (tuple(part for fact in segment.about for part in fact.flat()), start)
                for segment, start, _ in self._spans()
            ),
        ]
        return next((start for facts, start in pieces if any(goes_with(fact) for fact in facts)), 0)

    def parted(self, at: int) -> tuple[Utterance, Utterance]:
        """Its sentences before `at` and from `at` on, as two utterances of words given whole (each its own
        sentences, split as they are here, heard at their places), for a backend that cannot play an earcon inside
        an utterance: the one before without its earcon, the one after with it."""
        sentences = self.split()
        head, tail = sentences[:at], sentences[at:]
        base = replace(self, folded=(), segments=(), facts=(), tells=())
        return (
            replace(base, text=" ".join(head), sound="", places=self.places[:at], segments=_whole(head)),
            replace(base, text=" ".join(tail), places=self.places[at:], segments=_whole(tail)),
        )

    def folded_at(self) -> tuple[tuple[int, int], ...]:
        """Where each of its folded facts is said: its first sentence and the one after its last (indices into
        `split()`), in the order of `folded`."""
        return self._layout.folded

    def _spans(self) -> tuple[tuple[Segment, int, int], ...]:
        """Its spoken segments, each with the sentences it spans (from, to: indices into `split()`); a segment that
        ends no sentence ("Ben, from a phone:") shares its last sentence with the next."""
        return self._layout.spans

    def _pieces(self) -> list[tuple[About, int, int]]:
        """Its facts in the order its text says them, each with its first sentence and the one after its last: the
        folded facts, then its own, each where the first segment that tells it lies. Words given whole tell no fact
        by a segment: its facts are taken as said first, in order, each in as many sentences as its own words
        hold (as a reply says them)."""
        pieces = [(fact, start, end) for fact, (start, end) in zip(self.folded, self.folded_at())]
        at = self.own_from()
        spans = self._spans()
        for fact in self.facts:
            told = next(((start, end) for segment, start, end in spans if fact in segment.about), None)
            if told is None:
                told = (at, at + len(self.split(words_for(fact, Audience.TABLE))))
            at = told[1]
            pieces.append((fact, *told))
        return pieces

    def unheard(self, heard: int) -> list[About]:
        """Its facts, folded and its own, not heard in full when it stops with its first `heard` sentences heard;
        the move of another hand's reply too when it was cut before its sentence was heard."""
        unheard = [(n, fact) for n, (fact, _, end) in enumerate(self._pieces()) if end > heard]
        folded = [part for n, fact in unheard if n < len(self.folded) for part in fact.flat()]
        own = [fact for n, fact in unheard if n >= len(self.folded)]
        moves = self.tells if self.other and heard <= self._move_sentence() else ()
        return [*folded, *moves, *own]  # (a move before what followed it)

    def needed(self) -> int:
        """How many of its first sentences say what it is for: the facts folded into it, its own facts, the
        sentence of its move, and at least the first of its own words. A sentence after those only explains."""
        facts_end = max((end for _, _, end in self._pieces()), default=0)
        told = any(fact.topic is Topic.MOVE for fact in self.tells)
        return max(facts_end, self._move_sentence() + 1 if told else 0, self.own_from() + 1)

    def own_from(self) -> int:
        """The first sentence of its own words (after the facts folded into it)."""
        return self.folded_at()[-1][1] if self.folded else 0

    def _move_sentence(self) -> int:
        """The sentence that tells its move: the first of the segment that tells it; else the first of its own words
        that says none of its facts ("Ben 0 Unicorns. Cy destroyed ...": the second; "Dee, from a phone: ended the
        turn. Turn 5: Ana's turn.": the first)."""
        spans = self._spans()
        moves = {fact for fact in self.tells if fact.topic is Topic.MOVE}
        told = next((start for segment, start, _ in spans if moves & set(segment.about)), None)
        if told is not None:
            return told
        said: set[int] = set()
        for segment, start, end in spans:
            if set(segment.about) & set(self.facts):
                said.update(range(start, end))
        for fact, start, end in self._pieces()[len(self.folded) :]:
            if not any(fact in segment.about for segment, _, _ in spans):
                said.update(range(start, end))
        at = self.own_from()
        while at in said:
            at += 1
        return at

    def asks_from(self) -> int | None:
        """The first sentence of the table's question it says (a segment telling a `Topic.QUESTION` that is not one
        of its own decisive facts: what the table waits for now, "Any Neigh for Ben's Neigh?"); None: it asks none.
        The question is open only until the next move is recorded."""
        return next(
            (
                start
                for segment, start, _ in self._spans()
                if any(fact.topic is Topic.QUESTION and fact not in self.facts for fact in segment.about)
            ),
            None,
        )

    def kept(self) -> list[About]:
        """What of it is said later when it is dropped before it began: its folded and its own facts, and another
        hand's move."""
        folded = [part for fact in self.folded for part in fact.flat()]
        return [*folded, *(self.tells if self.other else ()), *self.facts]


@dataclass(frozen=True)
class _Layout:
    """An utterance's sentences and where its pieces lie among them (`Utterance._layout`)."""

    sentences: tuple[str, ...]
    folded: tuple[tuple[int, int], ...]
    """Each folded fact's first sentence and the one after its last."""
    spans: tuple[tuple[Segment, int, int], ...]
    """Each spoken segment with words, its first sentence and the one after its last."""


def _whole(sentences: list[str]) -> tuple[Segment, ...]:
    """Sentences given whole as spoken segments, one a sentence, so they are split where they were."""
    return tuple(Segment(Verbatim(sentence), channel=Channel.SPEECH) for sentence in sentences)


def ends_sentence(words: str) -> bool:
    """Words that end a sentence: their last mark is ".", "!", "?" or ";" (a card name's own "!" included)."""
    return words.rstrip()[-1:] in (".", "!", "?", ";")
