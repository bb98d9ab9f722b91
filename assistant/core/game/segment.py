"""A piece of a reply, typed: what it says, what that tells and where it goes.

A reply is a sequence of segments (`assistant.core.language.reply.Reply`), and every front end renders from them:
the screen shows the shown ones, line by line; speech says the spoken ones, in order, and knows which sentences
tell which decisive fact by the segment that carries it; a braille display leaves out the segments whose fact it
holds, those that only restate it, and coaching. A segment keeps no words made for an audience: what it says is a
value (`Says`: a fact, told in that fact's own words; a line of a step's announcement, told from the step; or
text that tells no fact), worded for each audience at the
edge by `assistant.core.words.worded.segment_words` (and `lines_of`, `speech_of`). Nothing reads the words back: a
reply in other words (a translation) is rendered and cut the same way.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from assistant.core.game.about import About, State, Topic
from assistant.core.game.facts import Fact
from assistant.core.game.history import Phone, Step
from assistant.core.game.table import Table
from assistant.core.text import PLAIN, SentenceNames


class Channel(enum.Enum):
    """Where a segment goes."""

    BOTH = "both"
    """Shown and said."""
    SCREEN = "screen"
    """Shown only (the app's own keys listed on screen, lines whose speech says them otherwise)."""
    SPEECH = "speech"
    """Said only (speech that says shown lines in another order or in brief)."""

    @property
    def shown(self) -> bool:
        """On the screen (and a braille display)."""
        return self is not Channel.SPEECH

    @property
    def spoken(self) -> bool:
        """Said aloud."""
        return self is not Channel.SCREEN


class Part(enum.Enum):
    """What kind of words a segment holds, beyond what it tells."""

    SAID = "said"
    """An answer's own words."""
    FACT = "fact"
    """A decisive fact in its own short words (its table words, `words.worded.words_for`), said first: a braille
    display holding it leaves it out of the answer under it."""
    COACHING = "coaching"
    """Said for a learner (how to have a Herd Bonus read here): said once a game, never on a braille display."""
    HELP = "help"
    """The command table's help: a front end with keys of its own lists them after it."""
    PRIVATE = "private"
    """Shown on the app's own screen and a braille display only (a new join code), never said: where a screen
    reader reads the lines (plain mode), the words give a line of their own in its place ("A new join code is
    ready: ...", `words.worded.reader_lines`)."""


@dataclass(frozen=True)
class ChainLink:
    """A link of the effect chain that a segment's words tell, as values: its place in the chain and its effects,
    each named as said ("the effect of Unicorn Poison, played by Cy"). Where the duty its words say again is held
    apart, the words name the link by these alone (`words.worded.apart_words`)."""

    position: int
    """Its place in the chain (1 for the first)."""
    names: tuple[str, ...]
    """Its effects, each named as said, in order."""


@dataclass(frozen=True)
class Verbatim:
    """Words that tell no fact of their own and are the same for every audience: a help line, a card's text, an
    error sentence, a notice, a line held apart (`words.worded.held_apart`). It keeps no values to word it from
    because it tells nothing an audience words otherwise. (A step's lines are `Told`: worded from the step.)"""

    text: str
    """The words, one or more whole sentences ("" for none: a segment that only carries what a reply tells)."""


class Line(enum.Enum):
    """Which line of a step's announcement a `Told` is (`words.announce.announce_said`)."""

    EVENT = "event"
    """The event: "Ana played Rainbow Aura." (at the brief level, "Ana: Rainbow Aura.")."""
    RESOLVED = "resolved"
    """A resolve that resolved a link of the chain, said before what followed: "Ana uses the effect of ..."."""
    TURN = "turn"
    """The turn that began, with its beginning-of-turn duties (`Told.fact`, a `TurnBegan`)."""
    DUTIES = "duties"
    """The beginning-of-turn duties of a link added outside a new turn (`Told.fact`, a `LinkAdded`)."""
    FACT = "fact"
    """A fact that followed, at the level asked (`Told.fact`): a count, a link of the chain, the phase ..."""
    ENDED = "ended"
    """How the game ended (`Told.fact`, a `GameOver`), "The game is over." left to its own line (`OVER`)."""
    OVER = "over"
    """ "The game is over.", joined to the line of how it ended."""
    NOTHING = "nothing"
    """ "Nothing was waiting to resolve.": a resolve with nothing on the pile nor in the chain."""


@dataclass(frozen=True)
class Told:
    """A line of a step's announcement as values, with no words: the step it tells, which line it is, the fact it
    tells (for a line of one fact), the level asked and the phone the step was recorded from. Worded for each
    audience at the edge (`words.announce.told_words`, through `words.worded.segment_words`): on the laptop, a move
    made on a phone never says how to say a move (`words.audience.for_hand`); on the phones, the normal level."""

    table: Table
    """The game it is of, for its names and its prompt."""
    step: Step
    """The step the line tells, with the states on each side."""
    line: Line
    """Which line it is."""
    fact: Fact | None = None
    """The fact a line of one fact tells (`Line.TURN`, `DUTIES`, `FACT`, `ENDED`); None for the others."""
    brief: bool = False
    """Asked at the brief level (the facts alone)."""
    coached: bool = True
    """Asked at the coaching level (with how to say the next move); neither: the normal level."""
    phone: Phone | None = None
    """The phone the step was recorded from (None: the laptop's keyboard)."""
    leaving: tuple[About, ...] = ()
    """Decisive facts said first, before it, whose words it says again sentence for sentence: those sentences are
    left out of its words, in the audience's words of both (`words.pace.lead_with`); (): none."""
    names: SentenceNames = PLAIN
    """The names that change where its sentences end (the game's cards and players), for leaving some out."""


@dataclass(frozen=True)
class UndoRedo:
    """What an undo or a redo gave back, as values, with no words: the steps it took back (or did again) and the
    phone it was asked from. Worded for each audience at the edge (`words.kinds.undone_words`, through
    `words.worded.segment_words`): "Undone: Dee's Basic Unicorn (Purple) is back on the pile."; on the laptop, one
    asked from a phone never says how to say a move (`words.audience.for_hand`)."""

    table: Table
    """The game it is of, for its names."""
    steps: tuple[Step, ...]
    """The steps taken back or done again, oldest first (at least one)."""
    redo: bool = False
    """A redo (False: an undo)."""
    phone: Phone | None = None
    """The phone it was asked from (None: the laptop's keyboard)."""


#: What a segment says (`Segment.says`), worded for an audience by `words.worded.segment_words`: a fact in its own
#: words (`About`, worded by `words.worded.words_for`: "You drew a card." on her own phone where the table hears
#: "Ben drew a card."), a line of a step's announcement (`Told`, worded by `words.announce.told_words`), what an
#: undo or a redo gave back (`UndoRedo`, worded by `words.kinds.undone_words`), or words that tell no fact and are
#: alike for every audience (`Verbatim`).
Says = About | Told | UndoRedo | Verbatim


@dataclass(frozen=True)
class Segment:
    """A piece of a reply: what it says and what that tells."""

    says: Says
    """What it says, as a value (`Says`), one or more whole sentences once worded (`words.worded.segment_words`)."""
    about: tuple[About, ...] = ()
    """The decisive facts and the move these words tell (`Reply.facts`, `Reply.tells`), typed."""
    states: frozenset[State] = frozenset()
    """The states the words tell (a turn, counts: `About.states`), even where they tell them at length ("Turn 2:
    Ben's turn." tells the turn)."""
    part: Part = Part.SAID
    channel: Channel = Channel.BOTH
    joined: bool = False
    """On the screen, the words go on the line before (a fact and its reminder on one line); else a new line."""
    repeats: tuple[About, ...] = ()
    """Decisive facts its words say again inside longer words (a link of the chain with what its card does, its
    duty): where they are held apart (a braille display), the words name it by its values alone (`link`,
    `words.worded.apart_words`: "Effect chain: the effect of Unicorn Poison, played by Cy.")."""
    link: ChainLink | None = None
    """For a link of the effect chain whose words say its duty again (`repeats`), the link as values."""
    tells: tuple[About, ...] = ()
    """What else the reply tells that its words do not say as a move of theirs (`Reply.tells`): every count a step
    changed (what a digest of the moves missed is made of), what an Instant stopped, the events an undo took back.
    A move the words say is in `about`; these have no words of their own here."""

    def restates(self, facts: Iterable[About]) -> bool:
        """It tells states and only states that `facts` tell ("Turn 2: Ben's turn." for "Ben's turn."): a display
        holding those facts leaves it out, as speech that said them first does."""
        told = frozenset().union(*(fact.states for fact in facts))
        return bool(self.states) and self.states <= told


#: What a reply tells beside its decisive facts (`Reply.tells`): a move, what an Instant stopped, an event taken back.
TOLD = frozenset({Topic.MOVE, Topic.STOPPED, Topic.UNDO})


def facts_of(segments: Iterable[Segment]) -> tuple[About, ...]:
    """The decisive facts segments carry (`Reply.facts`), in order, each once: every fact their words tell but a move
    (`TOLD`), and a question only where it is held as a fact in its own words (`Part.FACT`: a question the reply
    leaves open); what the table waits for, told by the prompt's line, is open only until the next step."""
    return tuple(
        dict.fromkeys(
            fact
            for segment in segments
            for fact in segment.about
            if fact.topic not in TOLD and (fact.topic is not Topic.QUESTION or segment.part is Part.FACT)
        )
    )


def tells_of(segments: Iterable[Segment]) -> tuple[About, ...]:
    """What segments tell beside the decisive facts (`Reply.tells`), each once: the moves their words say (`TOLD`),
    then what they carry with no words of their own (`Segment.tells`). (Kept once by a dict, in linear time: an `undo
    all` tells every event it takes back, ten thousand in a long game.)"""
    segments = tuple(segments)
    said = (fact for segment in segments for fact in segment.about if fact.topic in TOLD)
    return tuple(dict.fromkeys([*said, *(fact for segment in segments for fact in segment.tells)]))


def of_lines(lines: Iterable[str], speech: str | None = None) -> tuple[Segment, ...]:
    """Segments for lines shown and a speech given whole: each line shown and said when the speech is the lines
    joined (or None); else the lines shown only and the speech said only."""
    lines = tuple(lines)
    if speech is None or speech == " ".join(lines):
        return tuple(Segment(Verbatim(line)) for line in lines)
    screen = tuple(Segment(Verbatim(line), channel=Channel.SCREEN) for line in lines)
    return (*screen, Segment(Verbatim(speech), channel=Channel.SPEECH)) if speech else screen
