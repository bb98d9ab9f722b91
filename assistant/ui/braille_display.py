"""The braille display of the app and the plain mode: the core's `BrailleView` drawn on a BrlAPI display.

Both front ends hand it every reply they show (`show`, at the moment speech gets it, so braille and speech say the
same thing at the same time) and every key the display reports (`press`, from the display's reader thread as a
message in the app, under a lock in the plain mode); a key that asks for an answer (a line typed on the display,
a routing key on a card's name, the "whose turn" key) comes back as the reply for the front end to show, like a
typed line's.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from assistant.core.braille.display import Act, BrailleView, Press, Region, Status
from assistant.core.braille.held import Fact, Held
from assistant.core.game.about import About, Topic
from assistant.core.game.segment import Part
from assistant.core.language.reply import DISPLAY_BACK, DISPLAY_LOST, Choice, Question, Source
from assistant.core.words.audience import Audience
from assistant.core.words.entry import DISPLAY_KEYS
from assistant.core.words.gameplay import PHASE_NAMES, player_name
from assistant.core.words.pace import move_point
from assistant.core.words.screen import HISTORY_HEADING, table_regions
from assistant.core.words.worded import asked_narrow, held_apart, lines_of, texts, words_for
from assistant.session import Reply, Session

if TYPE_CHECKING:
    from assistant.braille.display import BrailleDisplay


#: Cells for text at most on a display whose first window holds only two or three words: a question shown there
#: leads with who asks (a small display's one status cell left out: 12, 14 and 20-cell displays).
NARROW_CELLS = 19


class DisplayLink:
    """A braille display wired to a session: what it shows, and what its keys do."""

    def __init__(self, display: BrailleDisplay, view: BrailleView, session: Session, status_cells: int | None = None):
        self.display = display
        self.view = view
        self.session = session
        self.status_cells = status_cells
        """The status cells chosen (None: 4 on displays of 40 cells or more, 1 for the unread count on smaller)."""
        self.lock = threading.RLock()
        self.acknowledged: list[str] = []
        """Every decisive fact a key or a line sent acknowledged, oldest first."""
        self._drawn: tuple[str, int | None] = ("", None)
        """The cells and cursor last written: the same are not written again (the pins would only twitch)."""
        self.written: tuple[int, str] = (0, "")
        """The number of the last frame written to the display (`BrailleView.frames`) and its cells."""
        self.shown = 0
        """The newest frame BRLTTY has answered after (`answered`): it has shown every frame written up to it."""
        self.quitting = False
        """`quit` was typed on the display: the front end ends."""
        self.missed: int | None = 0 if display.lost else None
        """While BRLTTY is away (gone, or not there yet at start): how many answers came; None while it answers."""
        self.found = not display.lost
        """A display has answered since the start (one not there at start is said to have come, not to be back)."""
        self._game = session.game
        """The game the moves waiting belong to (another game begins another stretch of news)."""
        self.view.resize(display.width, status_cells_for(display.width, status_cells))
        self.refresh()

    def lost(self) -> Reply:
        """BRLTTY stopped answering: the view goes on following every reply, to be shown when it is back. The notice
        saying so, for the front end to show (on the display it is overtaken by the notice that it is back)."""
        from assistant.core.words.entry import braille_display_lost

        with self.lock:
            self.missed = 0 if self.missed is None else self.missed
            # (waits on the view until it is back, then overtaken by the notice that it is back)
            return Reply.of(braille_display_lost(), important=True).coming(DISPLAY_LOST)

    def back(self) -> Reply:
        """BRLTTY answers again (or for the first time): the display is drawn as it stands (a fact held meanwhile
        first), and the notice saying so, with how many answers came while it was gone, for the front end to show."""
        from assistant.core.words.entry import braille_display_back, braille_display_found

        with self.lock:
            missed, self.missed = self.missed or 0, None
            if self.view.width != self.display.width:  # another display, or the first one found
                self.view.resize(self.display.width, status_cells_for(self.display.width, self.status_cells))
            anew = self.display.taken_back_anew()
            said = braille_display_back(missed, anew) if self.found else braille_display_found()
            self.found = True
            self.view.newest_first()  # what it drew while stopped was never read: the newest decisive fact first
            self._drawn = ("", None)
            self.draw()
            return Reply.of(said, important=True).coming(DISPLAY_BACK)  # (shown like a move, read before it goes)

    def render(self, reply: Reply) -> None:
        """A reply shown on screen (or printed) is on the display too (`FrontEnd`): its first line first, its
        decisive fact held until the player goes on. A line the computer keyboard was typing has been sent. A reply
        that answers no key of hers (`Origin.her_key` False: another hand's move, a phone's, or a notice) waits
        behind what is being read, another hand's with its point first (`BrailleView.show`). F8's digest
        (`Source.DIGEST`) is shown first, never a fact held before it, and holds none of its own; the moves it told
        no longer wait (`BrailleView.digest_said`): it never says the held fact or the win twice. On a small display
        (`NARROW_CELLS`), whose first window holds its heading alone, each of them still waits, to be read in a
        first window of its own."""
        if not reply.lines or reply.hint:
            return
        own_key, player = reply.origin.her_key, reply.origin.player
        with self.lock:
            if self.missed is not None:
                self.missed += 1
            if self.view.input.followed and own_key:
                self.view.input.clear()
            turns = [fact for fact in reply.facts if fact.topic is Topic.TURN]
            turn = (
                Fact(Held.TURN, words_for(turns[-1], Audience.BRIEF), (turns[-1],)) if turns and not own_key else None
            )
            narrow = self.view.text_width <= NARROW_CELLS
            asked = asked_narrow(reply.facts) if narrow else ()
            points = () if own_key else asked or move_point(player, reply.facts, reply.tells)
            held = to_hold(reply.facts, narrow)
            win = held is not None and held.held is Held.WIN
            # (coaching, such as how to hear a bonus, is not for a reader: she reads her sheet herself)
            shown = (segment for segment in reply.segments if segment.part is not Part.COACHING)
            lines = lines_of(shown, Audience.TABLE)
            rest = held_apart(reply.segments, reply.facts) if held else None
            source = reply.origin.source
            notice = source is Source.DISPLAY_BACK  # (the display's own news: never pushed away unseen)
            away = source is Source.DISPLAY_LOST  # (which its return overtakes)
            digest = source is Source.DIGEST
            if digest:  # its first line leads with its newest decisive fact: held too, it would be read twice
                held, rest = None, None
            self.view.show(lines, held, rest=rest, waits=not own_key, points=points, turn=turn, notice=notice,
                           move=bool(reply.tells), away=away)  # fmt: skip
            if digest:  # the moves it told wait no longer (the session's news is empty once it is all said), but on
                # a small display, whose first window holds its heading alone: there each is still read apart
                self.view.digest_said(whole=not self.session.news, win=win, apart=narrow)
            elif self.session.game is not self._game or (
                own_key and any(fact.topic is Topic.MOVE for fact in reply.tells)
            ):  # her own move, or another game: the next digest tells only the moves from here on
                self.view.waiting.new_news()
            if self.session.pending is None:  # no question open: none is held or waits (closed elsewhere, withdrawn)
                self.view.held.drop_if(_asks)
                self.view.waiting.drop_if(_asks)
            self._game = self.session.game
            self.refresh()

    def answered(self, frame: int) -> None:
        """BRLTTY answered after frame `frame` was written: it has been shown (a held fact in it is read)."""
        with self.lock:
            self.shown = max(self.shown, frame)
            self.view.answered(frame)

    def follow(self, typed: str) -> None:
        """The computer keyboard's input line as it is now: shown on the display as its own typing is (a held fact
        waits above it until the line is sent)."""
        with self.lock:
            self.view.input.follow(typed)
            self.draw()

    def acknowledge(self) -> None:
        """A line sent that was not typed here (on the computer's keyboard, or read in the plain mode): the first
        held fact is acknowledged if the display has shown it and is there (never while BRLTTY is away, nor within
        `KEPT_KEYS_PAUSE` of its return: nobody could read it yet); the reply that follows draws the display."""
        with self.lock:
            if self.missed is not None or self.display.settling():  # (just back: not read yet)
                return
            fact = self.view.held.line_sent()
            if fact:
                self.acknowledged.append(fact)

    def draw(self) -> None:
        """Write the view's cells and its cursor (at the typing point while a line is typed), unless they are
        already on the display, or it is away (nothing is shown, so nothing is read: `back` draws it)."""
        with self.lock:
            if self.missed is not None or self.display.lost:
                return
            drawn = (self.view.render(), self.view.cursor())
            if drawn != self._drawn:
                self._drawn = drawn
                self.written = (self.view.frames, drawn[0])
                self.display.write(*drawn, self.view.frames)

    def refresh(self) -> None:
        """Redraw from the game as it stands: the pile and chain, the Stables, the status cells."""
        with self.lock:
            game = self.session.game
            vocabulary = game.table.profile.vocabulary if game is not None else self.session.cards.vocabulary
            _status, pile, stables = table_regions(game, vocabulary)
            self.view.set_names([card.name for card in self.session.cards])
            self.view.set_region(Region.TABLE, pile)
            self.view.set_region(Region.STABLES, stables)
            if game is not None and game.state.outcome is None:
                state = game.state
                self.view.status = Status(
                    player_name(game.table, state.current),
                    PHASE_NAMES[state.phase],
                    isinstance(self.session.pending, Question),
                    isinstance(self.session.pending, Choice),
                )
            else:
                pending = self.session.pending
                self.view.status = Status(question=isinstance(pending, Question), choice=isinstance(pending, Choice))
            self.draw()

    def press(self, press: Press, at: float = 0.0) -> Reply | None:
        """A key of the display: the reply it asks for (a line typed, a card's text, whose turn), else None."""
        with self.lock:
            action = self.view.press(press, at, settled=not self.display.settling())
            if action.acknowledged:
                self.acknowledged.append(action.acknowledged)
            reply: Reply | None = None
            if action.act is Act.QUIT:
                self.quitting = True
            elif action.act is Act.SUBMIT:
                reply = self.session.handle(action.text)
            elif action.act is Act.READ_CARD:
                reply = self.session.card_desk.look_up(action.text)
            elif action.act is Act.WHERE:
                game = self.session.game
                reply = Reply.of(table_regions(game, self.session.cards.vocabulary)[0])
            elif action.act is Act.HELP:
                reply = Reply.of(*DISPLAY_KEYS)
            if reply is None or not reply.lines or reply.hint:
                self.draw()  # else the reply is shown (`show`): written once, never the old line before it
            return reply

    def close(self) -> None:
        """Give the display back to BRLTTY."""
        self.display.close()


def status_cells_for(width: int, chosen: int | None) -> int:
    """The status cells of a display `width` cells wide: the chosen number, else 4 on displays of 40 cells or more
    (whose turn, the phase, a mark, the unread count) and 1 on smaller ones (the unread count alone)."""
    if chosen is not None:
        return chosen
    return 4 if width >= 40 else 1


def open_link(
    session: Session, grade: int = 1, *, status_cells: int | None = None, six_key: bool = False
) -> tuple[DisplayLink | None, list[str]]:
    """The braille display, and what to say about it once (no display yet, no contracted braille). When no BRLTTY
    answers at start (none running, or one frozen), the display is looked for until one does, and shown from then
    on. `grade` 2 is contracted English braille (liblouis); `status_cells` None: 4 on displays of 40 cells or
    more, 1 on smaller ones. None only when BrlAPI is not installed."""
    from assistant.braille.display import DisplayUnavailable, awaited_display, open_display
    from assistant.braille.translate import Grade, Translator
    from assistant.core.words.entry import no_braille_display
    from assistant.core.words.outage import braille_grade2_unavailable, brlapi_missing
    from assistant.speech.player import system_of

    notes: list[str] = []
    try:
        display = open_display()
    except DisplayUnavailable as exc:
        if exc.missing:
            return None, [brlapi_missing(system_of())]
        display, notes = awaited_display(), [no_braille_display(str(exc.args[0]), exc.reason)]
    translator = Translator()
    if grade == 2 and not translator.has_liblouis:
        grade, notes = 1, [*notes, braille_grade2_unavailable(system_of())]
    chosen = Grade(grade)

    def translate(text: str) -> str:
        return translator.to_cells(text, chosen) or translator.to_cells(text) or ""

    view = BrailleView(display.width, translate, six_key=six_key, history_heading=HISTORY_HEADING)
    return DisplayLink(display, view, session, status_cells), notes


def _asks(fact: Fact) -> bool:
    """A held fact that is a question (its facts are questions, `Topic.QUESTION`): held only while one is open."""
    return bool(fact.of) and all(isinstance(about, About) and about.topic is Topic.QUESTION for about in fact.of)


def to_hold(facts: Sequence[About], narrow: bool) -> Fact | None:
    """A reply's decisive facts as the one fact the display holds (None: none), known by those facts, not their
    words: a win, a turn (when that is all it tells), or another fact. Each is held in its short form ("Ana's
    turn.", not "Ana's turn: may use the Alpaca Herd Bonus."): the answer under it begins with what the reminder is
    about (the Herd Bonus's effect), never said twice. On a `narrow` display (20 cells or fewer) a question or a
    warning leads with who asks, or the question (`words_for`, `Audience.NARROW`)."""
    audience = Audience.NARROW if narrow else Audience.BRIEF
    words = texts(facts, audience)
    if not words:
        return None
    turns = [fact for fact in facts if fact.topic is Topic.TURN]
    if any(fact.topic is Topic.WIN for fact in facts):
        return Fact(Held.WIN, words, tuple(facts))
    return Fact(Held.TURN if len(turns) == len(facts) else Held.OTHER, words, tuple(facts))
