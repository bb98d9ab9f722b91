"""What a refreshable braille display shows, and what its keys mean: a pure model, fed replies and key presses.

The display shows one window of one line at a time. A new answer puts its first line on the display, so the
outcome comes first; the rest is reached by panning (left and right, a window at a time) and by the line keys
(previous and next line), which go on through the pile and chain, the Stables and the history of answers. A
decisive fact (a win, a question waiting, a turn that begins) is held on the display until the player has read it
and goes on: a line sent (Enter, on the display or on the keyboard) or a review key (which does only that); a
character typed never acknowledges it, and the line being typed is shown over it until it is sent; a status cell
marks it. Other hands' moves (a phone's) never replace what is being read: they wait, counted in the last status
cell, and panning right at the end of the answer (or the next-unread key) shows the next one. Typing on the
display's keyboard fills an input line (letters, or cells from the dot keys, or six-key entry on a keyboard's F D S
J K L), and Enter sends it as a command; the computer keyboard's line is shown the same way while it is typed. A
routing key on a card's name asks for the card's full text; the status cells, when there are any, show whose turn
it is, the phase, a mark while a question waits, and how many moves wait unread.

The model is given its translation to braille (a function from text to Unicode cells) and the texts to show; the
braille adapter (`assistant/braille/display.py`) does the drawing and reads the keys, the front ends wire the two.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.core.braille import celltable
from assistant.core.braille.held import Fact, Held, HeldFacts, Line, UnreadMoves, Waiting
from assistant.core.braille.sixkey import DOT_KEYS, EntryMode, SixKeyEntry

DEFAULT_SIZE = 40
#: Lines that end the app, typed on the display as on the keyboard (never looked up as a card).
QUIT_WORDS = ("quit", "exit")
#: The question mark of the status cells (dots 2 3 6).
QUESTION_CELL = celltable.cell([2, 3, 6])
#: The status cell of a numbered choice waiting: the number sign (dots 3 4 5 6).
CHOICE_CELL = celltable.cell([3, 4, 5, 6])
#: The status cell of a fact held on the display: the exclamation mark (dots 2 3 5).
HELD_CELL = celltable.cell([2, 3, 5])
#: The unread count's cell for 10 moves or more (all six dots); 1 to 9 are the digits' cells (a to i).
MANY_CELL = celltable.cell([1, 2, 3, 4, 5, 6])
#: How many lines of earlier answers the history region keeps (the screen's history holds 20 answers).
HISTORY_LINES = 80


class Key(enum.Enum):
    """A key of the display, as the model understands it (the adapter turns BrlAPI's codes into these)."""

    PAN_LEFT = "pan left"
    PAN_RIGHT = "pan right"
    LINE_UP = "line up"
    LINE_DOWN = "line down"
    TOP = "top"
    BOTTOM = "bottom"
    REGION_PREVIOUS = "region previous"
    REGION_NEXT = "region next"
    NEXT_UNREAD = "next unread"
    """The next of the moves waiting unread (BRLTTY's ATTRDN, "next highlighted line")."""
    ROUTE = "route"
    WHERE = "where"
    """Whose turn and what phase."""
    HELP = "help"
    """The display's keys."""
    ENTER = "enter"
    BACKSPACE = "backspace"
    CHARACTER = "character"
    """A character typed on the display's keyboard (its value)."""
    DOTS = "dots"
    """A cell typed on the display's dot keys (its value: the dots' bits, dot 1 = 1 ... dot 8 = 128)."""


@dataclass(frozen=True)
class Press:
    """One key press: the key, and its routing cell (0 = first cell), character or dots."""

    key: Key
    value: int | str = 0


class Region(enum.Enum):
    """The parts of the table the line keys move through, in order."""

    ANSWER = "answer"
    TABLE = "table"
    STABLES = "stables"
    HISTORY = "history"


class Act(enum.Enum):
    """What a key asks of the front end, beyond redrawing."""

    NONE = "none"
    SUBMIT = "submit"
    """Send `text` as a typed line."""
    READ_CARD = "read card"
    """Show the full text of the card named `text`."""
    WHERE = "where"
    """Say whose turn it is and the phase."""
    HELP = "help"
    """Show the display's keys."""
    ACKNOWLEDGED = "acknowledged"
    """A held fact was acknowledged (`text`) by a review key, which did nothing else."""
    QUIT = "quit"
    """`quit` or `exit` was typed: the front end ends, as for the same line typed on its keyboard."""


@dataclass(frozen=True)
class Action:
    """The front end's part of a key press."""

    act: Act = Act.NONE
    text: str = ""
    acknowledged: str = ""
    """The held fact this key acknowledged, if any (a key typed acknowledges it and is typed too)."""


@dataclass(frozen=True)
class Status:
    """What the status cells show: whose turn, the phase, whether a question waits (yes or no, or numbered)."""

    player: str = ""
    phase: str = ""
    question: bool = False
    choice: bool = False


class InputLine:
    """The line being typed on the display (letters, cells from the dot keys, or six-key entry), or the computer
    keyboard's line, followed while it is typed: what it says, its braille, and what a key typed does to it."""

    def __init__(self, six_key: SixKeyEntry | None = None) -> None:
        self._text = ""
        self.six_key = six_key
        self.followed = False
        """The line is the computer keyboard's (`follow`), not typed on the display."""
        self.kept = ""
        """The display's own line, unsent when the keyboard began one: typed again once the keyboard's is sent."""
        self._typing = False

    @property
    def typing(self) -> bool:
        """Something has been typed on the display and not yet sent."""
        return self._typing

    @property
    def text(self) -> str:
        """The line typed on the display so far (or the keyboard's, followed)."""
        entry = self.six_key
        return entry.text if entry is not None and not self.followed else self._text

    def cells(self, translate: Callable[[str], str]) -> str:
        """The typed line in braille: cells typed as they are, and each run of print translated whole, so that
        in grade 2 what is typed is contracted as it grows ("play" is four cells, never a grade-1 indicator a
        letter), as BRLTTY's own contracted input shows it."""
        runs = re.findall(r"[\u2800-\u28ff]+|[^\u2800-\u28ff]+", self.text)
        return "".join(run if celltable.is_cell(run[0]) else _braille(translate, run) for run in runs)

    def add(self, text: str) -> None:
        """Text (or cells) typed at the end of the line."""
        entry = self.six_key
        if entry is not None:
            entry.cells.extend(text)
        else:
            self._text += text
        self._typing = True

    def follow(self, typed: str) -> None:
        """The computer keyboard's input line as it is now: shown as the display's own typing is (over a held
        fact, which waits for the line to be sent: `HeldFacts.line_sent`)."""
        if self.typing and not self.followed:
            if not typed:
                return  # the keyboard emptied its own line: what is typed on the display stays
            self.kept = self.text  # the display's own line, unsent: kept apart, typed again after
        kept = self.kept
        self._text, self.followed = typed, bool(typed)
        if self.six_key is not None:
            self.six_key.clear()
        self._typing = bool(typed)
        if not typed and kept:
            self.clear()  # (the display's own line typed again)

    def press(self, press: Press, at: float) -> Action:
        """What a key typed on the display does to the line (`at`: when, in seconds, for six-key entry): Enter
        sends it (or ends the app: `QUIT_WORDS`), the others type or take back."""
        entry = self.six_key
        if press.key is Key.ENTER:
            if entry is not None:
                entry.flush()
            text = self.text
            self.clear()
            if text.strip().lower() in QUIT_WORDS:
                return Action(Act.QUIT, text)
            return Action(Act.SUBMIT, text) if text.strip() else Action()
        if press.key is Key.DOTS:
            bits = int(press.value)
            self.add(celltable.cell(dot + 1 for dot in range(8) if bits & (1 << dot)) if bits else " ")
            return Action()
        if press.key is Key.BACKSPACE:
            if entry is not None:
                entry.press("backspace", at)
            else:
                self._text = self._text[:-1]
            self._typing = bool(self.text) or bool(entry is not None and entry.pending)
            return Action()
        character = str(press.value)
        if entry is not None and (character.lower() in DOT_KEYS or character == " "):
            entry.press("space" if character == " " else character.lower(), at)
            self._typing = True
            return Action()
        if character.isprintable():
            self.add(character)
        return Action()

    def clear(self) -> None:
        """Forget the line typed (it was sent); a line of the display's own that the keyboard's stood in front of
        (`kept`) is typed again."""
        kept, self.kept = self.kept, ""
        self._text = ""
        self.followed = False
        if self.six_key is not None:
            self.six_key.clear()
        self._typing = False
        if kept:
            self.add(kept)


class BrailleView:
    """The display's contents and its keys' meanings; no input or output of its own. Its parts: the decisive facts
    held (`held`, `HeldFacts`), the moves waiting unread (`waiting`, `UnreadMoves`) and the line being typed
    (`input`, `InputLine`); it keeps what is shown, where the reader is in it, and what each key does.

    `width`: the display's cells; `translate`: text to Unicode braille cells (grade 1 or 2, the front end's
    choice); `status_cells`: how many of the first cells show the status (0 for none); `six_key`: letters typed on
    the display's keyboard are six-key entry (F D S J K L dots, Space ends a cell), as on the app's input line;
    `history_heading`: the first line of the history region, above the earlier
    answers (the model keeps them: an answer goes there when another takes its place)."""

    def __init__(
        self,
        width: int = DEFAULT_SIZE,
        translate: Callable[[str], str] = celltable.to_cells,
        *,
        status_cells: int = 0,
        six_key: bool = False,
        history_heading: str = "",
    ):
        self.width = self.status_cells = 0
        self.held = HeldFacts()
        """The decisive facts held, oldest first, each shown until a key acknowledges it."""
        self.resize(width, status_cells)
        self.translate = translate
        self.status = Status()
        self.names: tuple[str, ...] = ()
        self.regions: dict[Region, list[Line]] = {region: [] for region in Region}
        self.frames = 0
        """How many frames have been rendered: the number of the last (`answered` is told which were shown)."""
        self.waiting = UnreadMoves()
        """Other hands' moves not yet shown, oldest first, and the one shown until it is read."""
        self.answer: tuple[str, ...] = ()
        """The answer shown, whole (it goes to the history when another takes its place)."""
        self.history_heading = history_heading
        self._earlier: list[Line] = []
        if history_heading.strip():
            self.regions[Region.HISTORY] = [self.make_line(history_heading)]
        self.line = 0
        """The line shown: an index into `lines`."""
        self.window = 0
        """The window of that line shown: an index into its windows."""
        self.input = InputLine(SixKeyEntry(EntryMode.DOTS_THEN_SPACE) if six_key else None)
        """The line being typed on the display (or the keyboard's, followed)."""
        self._past_answer = False
        """The answer is its held fact alone: panning on from the fact goes to the line after the answer."""

    # What is shown.

    def resize(self, width: int, status_cells: int) -> None:
        """The display's size (a display taken back may be another), and how many of its cells are status cells:
        at most 4 and a quarter of the display."""
        if width < 8:
            raise ValueError(f"a braille display needs at least 8 cells, not {width}")
        self.width = width
        self.status_cells = max(0, min(status_cells, 4, width // 4))
        self.window = self.held.window = 0

    @property
    def text_width(self) -> int:
        """Cells for text: the display less its status cells."""
        return self.width - self.status_cells

    @property
    def lines(self) -> list[Line]:
        """Every line the line keys move through: the answer, the pile and chain, the Stables, the history."""
        return [line for region in Region for line in self.regions[region]]

    def set_names(self, names: Sequence[str]) -> None:
        """The card names a routing key can read (the cards in play), longest first so that the whole name wins."""
        self.names = tuple(sorted({name for name in names if name.strip()}, key=len, reverse=True))

    def set_region(self, region: Region, texts: Sequence[str]) -> None:
        """Replace a region's lines (the answer resets the position to its first line; see `show`)."""
        lines = [self.make_line(text) for text in texts if text.strip()]
        current = self.lines[self.line] if self.lines and self.line < len(self.lines) else None
        self.regions[region] = lines
        if current is not None and current in self.lines:
            self.line = self.lines.index(current)
        else:
            self.line = min(self.line, max(0, len(self.lines) - 1))
            self.window = 0

    def show(
        self,
        answer: Sequence[str],
        fact: Fact | None = None,
        *,
        rest: Sequence[str] | None = None,
        waits: bool = False,
        points: Sequence[str] = (),
        turn: Fact | None = None,
        notice: bool = False,
        move: bool = False,
        away: bool = False,
    ) -> bool:
        """A new answer: its first line on the display (the outcome first), and its decisive `fact` held (unless it
        is the fact held newest already). What the fact says is not shown again in the answer: `rest`, the answer's
        lines less the fact's (the front end leaves out the parts of the reply that tell it: `segment.held_apart`;
        None: the answer whole), unless the answer is the fact alone: then it is kept, to come back to, and panning
        on from the fact goes past it. `turn`: for another hand's move, the turn it began (None when none);
        `notice`: the display's own news (it is back), read like a move (below); `move`: another hand's reply tells
        a move (not a notice), which a digest tells too (`digest_said`); `away`: the notice that BRLTTY stopped
        answering, which waits until it is back and is then overtaken (`newest_first`).

        `waits`: another hand's move (a phone's), which answers no key of the player's: it never replaces what is
        being read (nor is held over it) but waits, in order, until the player goes on to it, and is then shown
        whole, from its first line, which begins with its point (who, then the decisive change: the new turn,
        the win, the card taken) when it has one: the first of `points` (fullest first) that fits a window, else the
        last. A waiting win goes to the front of the moves waiting, marked. Whether it is shown now (False: it
        waits). An answer of hers that takes the place of a move not yet read (no frame showing it answered by
        BRLTTY) puts that move back at the front of the moves waiting."""
        if waits:
            lines = tuple(answer)
            fits = [text for text in points if len(_braille(self.translate, text)) <= self.text_width]
            point = fits[0] if fits else points[-1] if points else ""
            if point.strip():
                lines = (f"{point} {lines[0]}".strip(), *lines[1:]) if lines else (point,)
            win = fact if fact is not None and fact.held is Held.WIN else None
            if win is not None:  # (held as its point, when it has one)
                win = dataclasses.replace(win, text=point.strip() or win.text)
            other = fact if fact is not None and fact.held is Held.OTHER else None
            later = Waiting(lines, win, turn, self.waiting.news if move else None, away, other)
            if self.answer or self.waiting or self.held or self.input.typing:
                self.waiting.wait(later)
                return False
            self._put_answer(lines)
            self.waiting.show(later)
            return True
        if self.waiting.put_back():  # a move never read (`UnreadMoves.shown`): it waits again, at the front
            self.answer = ()  # (not to the history)
        self._put_answer(tuple(answer))
        self.waiting.show(Waiting(tuple(answer)) if notice else None)  # (never pushed away unseen: it waits again)
        kept = [text for text in rest or () if text.strip()]
        if fact is not None and rest is not None:
            if kept:
                self.regions[Region.ANSWER] = [self.make_line(text) for text in kept]
            else:
                self._past_answer = True
        if fact is not None:
            self.held.hold(self.make_line(fact.text, fact))
        return True

    def newest_first(self) -> None:
        """The display is back after BRLTTY stopped answering: the present first. The newest win held, then the
        newest turn, held or begun by a move waiting unread (an older turn held is overtaken: no longer held), then
        the other facts held in order (with neither a win nor a turn, the newest of them first); nothing shown
        meanwhile was read. A win that came from another hand meanwhile, waiting unread, is held first when no win
        is (its move still waits, to be read whole). The notice that it stopped answering is overtaken: it is no
        longer waiting (nor shown, to come back), as the notice that it is back says both."""
        win, turn = self.waiting.newest_first()
        self.held.newest_first(
            self.make_line(win.text, win) if win is not None else None,
            self.make_line(turn.text, turn) if turn is not None else None,
        )

    def digest_said(self, whole: bool, win: bool, *, apart: bool = False) -> tuple[str, ...]:
        """The digest of what other hands did (F8) is the answer shown (holding no fact: it leads with its win or
        turn). It is newer than the facts held, which go (an out-of-date turn must not come before it); their texts.
        The moves it told wait no longer (they would say again what it said, a win above all): every move of this
        stretch of news when it is `whole`, else (more waits for the next F8) a move that tells the win it said.
        `apart`: a display whose first window holds the digest's heading alone (14 cells: "Since your"), where a
        reader of first windows meets none of the moves in it: each still waits, to be read whole, its point (the
        new turn, the win) first. Notices still wait. A whole digest ends the stretch."""
        dropped = self.held.drop()
        self.waiting.digest_said(whole, win, apart=apart)
        return dropped

    def answered(self, frame: int) -> None:
        """BRLTTY answered after frame number `frame` (`frames`) was written to it, so it has shown it: a held fact
        first rendered in that frame or before has been read; so has a move taken from the queue if that frame showed
        it (not one a frame before it showed, which BRLTTY may have replaced at once: her typing over it)."""
        self.held.answered(frame)
        self.waiting.answered(frame)

    def _put_answer(self, answer: tuple[str, ...]) -> None:
        """The answer shown from its first line; the one it replaces goes to the top of the history."""
        if self.answer:
            earlier = [self.make_line(text) for text in self.answer if text.strip()]
            self._earlier = [*earlier, *self._earlier][:HISTORY_LINES]
            heading = [self.make_line(self.history_heading)] if self.history_heading.strip() else []
            self.regions[Region.HISTORY] = [*heading, *self._earlier]
        self.answer = answer
        self.regions[Region.ANSWER] = [self.make_line(text) for text in answer if text.strip()]
        self.waiting.show(None)
        self._past_answer = False
        self.line = 0
        self.window = 0

    def next_unread(self) -> bool:
        """Show the next move waiting unread, whole, from its first line (the answer it replaces goes to the
        history); False when none waits."""
        move = self.waiting.next()
        if move is None:
            return False
        self._put_answer(move.lines)
        self.waiting.show(move)
        return True

    def make_line(self, text: str, fact: Fact | None = None) -> Line:
        """A line's braille, the card names in it translated apart so a routing key can tell which it is on; `fact`:
        the held fact it shows, if it is one."""
        pieces: list[tuple[str, str | None]] = []
        rest = text
        pattern = _names_pattern(self.names)
        if pattern is not None:
            position = 0
            for match in pattern.finditer(text):
                if match.start() > position:
                    pieces.append((text[position : match.start()], None))
                found = next(n for n in self.names if n.casefold() == match.group(0).casefold())
                pieces.append((match.group(0), found))
                position = match.end()
            rest = text[position:]
        pieces.append((rest, None))
        cells = ""
        names: list[tuple[int, int, str]] = []
        for piece, name in pieces:
            if not piece:
                continue
            translated = _braille(self.translate, piece)
            if name is not None:
                names.append((len(cells), len(cells) + len(translated), name))
            cells += translated
        return Line(text, cells, tuple(names), fact)

    def windows(self, line: Line) -> list[int]:
        """Where each window of a line starts: a full display's worth of cells, broken after the window's last
        blank cell whenever the word it would cut fits a window of its own, so no word is cut that can be read
        whole (a word longer than a window is cut at the window's end); a blank just past the window is skipped."""
        cells = line.cells
        starts = [0]
        width = self.text_width
        while len(cells) - starts[-1] > width:
            start = starts[-1]
            end = start + width
            if cells[end] == celltable.BLANK:  # the window ends with a whole word
                if end + 1 >= len(cells):
                    break
                starts.append(end + 1)
                continue
            blank = cells.rfind(celltable.BLANK, start + 1, end)
            following = cells.find(celltable.BLANK, end)
            word_end = following if following >= 0 else len(cells)
            starts.append(blank + 1 if blank >= 0 and word_end - (blank + 1) <= width else end)
        return starts

    def current(self) -> tuple[Line, int, int] | None:
        """The line shown and its window: where it starts and where the next one starts (None: nothing shown)."""
        if self.input.typing:  # the line being typed is never hidden, a held fact least of all: it waits above
            cells = self.input.cells(self.translate)
            start = max(0, len(cells) - self.text_width + 1)  # the end, where typing goes, and a cell for the next
            return Line(self.input.text, cells), start, len(cells)
        if self.held:
            return self._window_of(self.held[0], self.held.window)
        lines = self.lines
        if not lines:
            return None
        return self._window_of(lines[min(self.line, len(lines) - 1)], self.window)

    def _window_of(self, line: Line, index: int) -> tuple[Line, int, int]:
        starts = [*self.windows(line), len(line.cells)]
        index = min(index, len(starts) - 2)
        return line, starts[index], starts[index + 1]

    def render(self) -> str:
        """The display's cells, exactly `width` of them: the status cells, then the window. What is rendered is on
        the display (the front end renders only for a display that is there), frame number `frames`: a held fact in it
        is read once BRLTTY has answered since (`answered`)."""
        shown = self.current()
        window = ""
        self.frames += 1
        if shown is not None:
            line, start, end = shown
            window = line.cells[start:end]
            held = self.held.rendered(line, self.frames)  # (a held fact is never one of the answer's lines)
            if not held and any(line is answer for answer in self.regions[Region.ANSWER]):
                self.waiting.rendered(self.frames)
        return (self.status_text() + window).ljust(self.width, celltable.BLANK)

    def cursor(self) -> int | None:
        """Where the cursor goes (a cell of `render`, from 0): after the last cell typed while a line is typed
        and shown (the display's own or the keyboard's, followed); None when nothing is being typed."""
        if not self.input.typing:
            return None
        cells = self.input.cells(self.translate)
        start = max(0, len(cells) - self.text_width + 1)
        return min(self.status_cells + len(cells) - start, self.width - 1)

    def status_text(self) -> str:
        """The status cells: the first letter of whose turn it is, of the phase, a mark (a question mark while a
        yes-or-no question waits, a number sign while numbered cards do, else an exclamation mark while a fact is
        held or a win waits unread), and last how many moves wait unread (a digit's cell, all six dots for 10 or more;
        blank when none): with fewer status cells, the count and as many of the others as fit before it (the count's
        cell is the exclamation mark while a win waits unread, else the question's mark while one is open)."""
        if not self.status_cells:
            return ""
        player = _braille(self.translate, self.status.player[:1]) if self.status.player else celltable.BLANK
        phase = _braille(self.translate, self.status.phase[:1]) if self.status.phase else celltable.BLANK
        question = celltable.BLANK
        if self.status.question:
            question = QUESTION_CELL
        elif self.status.choice:
            question = CHOICE_CELL
        win_waits = bool(self.waiting) and self.waiting[0].win
        if not self.status.question and not self.status.choice and (self.held or win_waits):
            question = HELD_CELL
        cells = (player[-1:] + phase[-1:] + question).ljust(3, celltable.BLANK)[: self.status_cells - 1]
        if self.status_cells < 4 and (win_waits or self.status.question or self.status.choice):  # no mark cell: the
            return cells + (HELD_CELL if win_waits else question)  # count's marks a win waiting, else a question open
        return cells + unread_cell(len(self.waiting))

    # The keys.

    def press(self, press: Press, at: float = 0.0, *, settled: bool = True) -> Action:
        """What a key does (`at`: when, in seconds, for six-key entry). While a fact is held and shown, panning
        reads it on; a request (whose turn, help) acknowledges it and does what it does; any other review key only
        acknowledges it. A key typed never acknowledges it: the typing is shown (the fact waits above it, so no key
        is lost and none is hidden), and Enter, sending the line, acknowledges the fact if it has been read.
        `settled` False: the key was pressed on a display that had just come back (its keys kept while it was
        stopped, passed on at its return): it acknowledges nothing (a request is answered, a line sent)."""
        key = press.key
        if not settled and (key in (Key.WHERE, Key.HELP) or self._types(key)):
            return self._review_key(press) if not self._types(key) else self.input.press(press, at)
        if self.held and not self.input.typing and not self._types(key):
            if key is Key.PAN_RIGHT and self.held.window + 1 < len(self.windows(self.held[0])):
                self.held.window += 1
                return Action()
            if key is Key.PAN_LEFT and self.held.window > 0:
                self.held.window -= 1
                return Action()
            last = len(self.held) == 1
            acknowledged = self.held.acknowledge()
            if last and (key is Key.NEXT_UNREAD or (key is Key.PAN_RIGHT and self._past_answer and self.line == 0)):
                (self._pan_past_answer if key is Key.PAN_RIGHT else self.next_unread)()  # the next thing, one key
            if key in (Key.WHERE, Key.HELP):
                return dataclasses.replace(self._review_key(press), acknowledged=acknowledged)
            return Action(Act.ACKNOWLEDGED, acknowledged, acknowledged)
        if self.input.followed and self._types(key):  # the keyboard's line is the keyboard's: the display's own
            self.input.clear()  # line goes on (kept apart while the keyboard typed), else starts afresh
        if not self._types(key):
            return self._review_key(press)
        action = self.input.press(press, at)
        if key is Key.ENTER and action.act in (Act.SUBMIT, Act.QUIT):  # a line sent
            return dataclasses.replace(action, acknowledged=self.held.line_sent())
        return action

    def _types(self, key: Key) -> bool:
        return key in (Key.CHARACTER, Key.DOTS, Key.BACKSPACE) or (key is Key.ENTER and self.input.typing)

    def _review_key(self, press: Press) -> Action:
        key = press.key
        lines = self.lines
        if key is Key.WHERE:
            return Action(Act.WHERE)
        if key is Key.HELP:
            return Action(Act.HELP)
        if key is Key.ROUTE:
            return self._route(int(press.value))
        if key is Key.NEXT_UNREAD:
            self.next_unread()
            return Action()
        if not lines:
            return Action()
        windows = len(self.windows(lines[min(self.line, len(lines) - 1)]))
        if key is Key.PAN_RIGHT:
            if self.window + 1 < windows:
                self.window += 1
            elif self.waiting and self.line == len(self.regions[Region.ANSWER]) - 1:
                self.next_unread()  # the end of the answer: the next move waiting
            elif self.line + 1 < len(lines):
                self.line, self.window = self.line + 1, 0
        elif key is Key.PAN_LEFT:
            if self.window > 0:
                self.window -= 1
            elif self.line > 0:
                self.line -= 1
                self.window = len(self.windows(lines[self.line])) - 1
        elif key is Key.LINE_DOWN:
            self.line, self.window = min(self.line + 1, len(lines) - 1), 0
        elif key is Key.LINE_UP:
            self.line, self.window = max(self.line - 1, 0), 0
        elif key is Key.TOP:
            self.line, self.window = 0, 0
        elif key is Key.BOTTOM:
            self.line, self.window = len(lines) - 1, 0
        elif key in (Key.REGION_NEXT, Key.REGION_PREVIOUS):
            self.line, self.window = self._region_start(key is Key.REGION_NEXT), 0
        return Action()

    def _route(self, cell: int) -> Action:
        """A routing key on cell `cell` of the display: the card whose name is there, if any."""
        shown = self.current()
        if shown is None:
            return Action()
        line, start, _end = shown
        at = start + cell - self.status_cells
        for first, after, name in line.names:
            if first <= at < after:
                return Action(Act.READ_CARD, name)
        return Action()

    def _pan_past_answer(self) -> None:
        """Panning on from a held fact that was the whole answer: the line after the answer, as panning past a
        line's end goes on (the answer stays, a pan left away)."""
        answer = len(self.regions[Region.ANSWER])
        if self.next_unread():
            return
        if answer and answer < len(self.lines):
            self.line, self.window = answer, 0
        elif answer:  # nothing after it: its end, where panning stops
            self.line, self.window = answer - 1, len(self.windows(self.lines[answer - 1])) - 1

    def _region_start(self, forward: bool) -> int:
        """The first line of the next (or this, or the previous) region that has lines."""
        starts: list[int] = []
        index = 0
        for region in Region:
            if self.regions[region]:
                starts.append(index)
            index += len(self.regions[region])
        if forward:
            return next((start for start in starts if start > self.line), self.line)
        earlier = [start for start in starts if start < self.line]
        return earlier[-1] if earlier else 0


def unread_cell(count: int) -> str:
    """The status cell of `count` moves waiting unread: blank for none, a digit's cell (a to i) for 1 to 9, all six
    dots for more."""
    if count <= 0:
        return celltable.BLANK
    return celltable.to_cells("abcdefghi"[count - 1]) if count < 10 else MANY_CELL


_PATTERNS: dict[tuple[str, ...], re.Pattern[str] | None] = {}


def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern finding any of the names as whole words, longest first (kept: the names rarely change)."""
    if names not in _PATTERNS:
        if len(_PATTERNS) > 8:
            _PATTERNS.clear()
        alternatives = "|".join(re.escape(name) for name in names)
        _PATTERNS[names] = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE) if names else None
    return _PATTERNS[names]


def _braille(translate: Callable[[str], str], text: str) -> str:
    """Text in braille, spaces as blank cells (some tables keep an ordinary space)."""
    return translate(text).replace(" ", celltable.BLANK)
