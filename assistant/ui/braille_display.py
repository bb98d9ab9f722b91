"""The braille display of the app and the plain mode: the core's `BrailleView` drawn on a BrlAPI display.

Both front ends hand it every reply they show (`show`, at the moment speech gets it, so braille and speech say the
same thing at the same time) and every key the display reports (`press`, from the display's reader thread as a
message in the app, under a lock in the plain mode); a key that asks for an answer (a line typed on the display,
a routing key on a card's name, the "whose turn" key) comes back as the reply for the front end to show, like a
typed line's.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from assistant.core.braille.display import Act, BrailleView, Press, Region, Status
from assistant.core.language.reply import Choice, Question
from assistant.core.words.entry import DISPLAY_KEYS
from assistant.core.words.gameplay import PHASE_NAMES, player_name
from assistant.core.words.repeats import without_fact
from assistant.core.words.screen import HISTORY_HEADING, table_regions
from assistant.session import Reply, Session

if TYPE_CHECKING:
    from assistant.braille.display import BrailleDisplay

#: How many earlier answers the display's history holds (as the screen's history region).
HISTORY_KEPT = 20


class DisplayLink:
    """A braille display wired to a session: what it shows, and what its keys do."""

    def __init__(self, display: BrailleDisplay, view: BrailleView, session: Session):
        self.display = display
        self.view = view
        self.session = session
        self.history: list[str] = []
        """Earlier answers' lines, newest first."""
        self.lock = threading.RLock()
        self.acknowledged: list[str] = []
        """Every decisive fact a key acknowledged, oldest first."""
        self._last: tuple[str, ...] = ()
        self._drawn: tuple[str, int | None] = ("", None)
        """The cells and cursor last written: the same are not written again (the pins would only twitch)."""
        self.quitting = False
        """`quit` was typed on the display: the front end ends."""
        self.missed: int | None = None
        """While BRLTTY is gone: how many answers came (shown again when it is back); None while it answers."""
        self.refresh()

    def lost(self) -> None:
        """BRLTTY stopped answering: the view goes on following every reply, to be shown when it is back."""
        with self.lock:
            self.missed = 0 if self.missed is None else self.missed

    def back(self) -> Reply:
        """BRLTTY answers again: the display is drawn as it stands (a fact held meanwhile first), and the notice
        saying so, with how many answers came while it was gone, for the front end to show."""
        from assistant.core.words.entry import braille_display_back

        with self.lock:
            missed, self.missed = self.missed or 0, None
            self._drawn = ("", None)
            self.draw()
        return Reply.of(braille_display_back(missed), important=True)

    def show(self, reply: Reply) -> None:
        """A reply shown on screen (or printed) is on the display too: its first line first, its decisive fact
        held until new input acknowledges it. A line the computer keyboard was typing has been sent."""
        if not reply.lines or reply.hint:
            return
        with self.lock:
            if self.missed is not None:
                self.missed += 1
            if self._last:
                self.history = [*self._last, *self.history][: HISTORY_KEPT * 4]
            self._last = reply.lines
            if self.view.input.followed:
                self.view.clear_input()
            self.view.show(reply.lines, reply.decisive)
            self.refresh()

    def follow(self, typed: str) -> None:
        """The computer keyboard's input line as it is now: shown on the display as its own typing is; when it
        grew, the first held fact is acknowledged (new input never leaves the display on an old fact)."""
        with self.lock:
            fact = self.view.follow(typed)
            if fact:
                self.acknowledged.append(fact)
            self.draw()

    def acknowledge(self) -> None:
        """New input that is not typed here (a line read in the plain mode): the first held fact is acknowledged;
        the reply that follows draws the display."""
        with self.lock:
            fact = self.view.acknowledge()
            if fact:
                self.acknowledged.append(fact)

    def draw(self) -> None:
        """Write the view's cells and its cursor (at the typing point while a line is typed), unless they are
        already on the display."""
        with self.lock:
            drawn = (self.view.render(), self.view.cursor())
            if drawn != self._drawn:
                self._drawn = drawn
                self.display.write(*drawn)

    def refresh(self) -> None:
        """Redraw from the game as it stands: the pile and chain, the Stables, the history, the status cells."""
        with self.lock:
            game = self.session.game
            vocabulary = game.table.profile.vocabulary if game is not None else self.session.cards.vocabulary
            _status, pile, stables = table_regions(game, vocabulary)
            self.view.set_names([card.name for card in self.session.cards])
            self.view.set_region(Region.TABLE, pile)
            self.view.set_region(Region.STABLES, stables)
            self.view.set_region(Region.HISTORY, [HISTORY_HEADING, *self.history])
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
            action = self.view.press(press, at)
            if action.acknowledged:
                self.acknowledged.append(action.acknowledged)
            reply: Reply | None = None
            if action.act is Act.QUIT:
                self.quitting = True
            elif action.act is Act.SUBMIT:
                reply = self.session.handle(action.text)
            elif action.act is Act.READ_CARD:
                reply = self.session.look_up(action.text)
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


def open_link(
    session: Session, grade: int = 1, *, status_cells: int | None = None, six_key: bool = False
) -> tuple[DisplayLink | None, list[str]]:
    """The braille display, if a BRLTTY answers, and what to say about it once (no display, no contracted
    braille). `grade` 2 is contracted English braille (liblouis); `status_cells` None: 4 on displays of 40 cells
    or more, none on smaller ones."""
    from assistant.braille.display import DisplayUnavailable, open_display
    from assistant.braille.translate import Grade, Translator
    from assistant.core.words.entry import BRAILLE_GRADE2_UNAVAILABLE, BRLAPI_MISSING, no_braille_display

    try:
        display = open_display()
    except DisplayUnavailable as exc:
        return None, [BRLAPI_MISSING if exc.missing else no_braille_display(str(exc.args[0]), exc.reason)]
    translator = Translator()
    notes: list[str] = []
    if grade == 2 and not translator.has_liblouis:
        grade, notes = 1, [BRAILLE_GRADE2_UNAVAILABLE]
    chosen = Grade(grade)

    def translate(text: str) -> str:
        return translator.to_cells(text, chosen) or translator.to_cells(text) or ""

    cells = status_cells if status_cells is not None else (4 if display.width >= 40 else 0)
    view = BrailleView(display.width, translate, status_cells=cells, six_key=six_key, omit=without_fact)
    return DisplayLink(display, view, session), notes
