"""What the braille display holds for its reader until it is read: the decisive facts held on it (`HeldFacts`) and
other hands' moves waiting unread (`UnreadMoves`), with the values they hold (`Held`, `Fact`, `Waiting`) and the
line of braille (`Line`: every line the display shows, a held fact's among them). Pure: the display's model
(`core/braille/display.py`, `BrailleView`) is made of them, and tells them what was rendered and what BRLTTY
answered.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import overload


class Held(enum.Enum):
    """What a held fact tells, as the front end typed it: the newest decisive state is shown first when the display
    is back (a win, then whose turn it is), and a turn overtaken by a newer one is no longer held."""

    WIN = "win"
    TURN = "turn"
    OTHER = "other"  # (a question, a warning, a duty: held as it came)


@dataclass(frozen=True)
class Fact:
    """A decisive fact to hold, as the front end typed it: what it tells, its words as shown, and `of`, the front
    end's typed values that make it this fact (the game's facts behind it). Two facts are one fact when those values
    are equal, never because their words are: "Ben's turn." of one turn is not "Ben's turn." of the next."""

    held: Held = dataclasses.field(compare=False)
    text: str = dataclasses.field(compare=False)
    of: tuple[Hashable, ...] = ()


@dataclass(frozen=True)
class Line:
    """One line of text and its braille: the cells, and which cells spell which card's name (for routing)."""

    text: str
    cells: str
    names: tuple[tuple[int, int, str], ...] = ()
    """(first cell, cell after the last, card name) for every card named on the line."""
    fact: Fact | None = None
    """The held fact it shows (None: not a held fact)."""

    @property
    def held(self) -> Held | None:
        """What it tells, for a held fact (None: not a held fact)."""
        return self.fact.held if self.fact is not None else None


@dataclass(frozen=True)
class Waiting:
    """Another hand's move waiting unread: its lines, the first beginning with its point, and whether it tells a
    win (it then waits before every other move, and a status cell marks it)."""

    lines: tuple[str, ...]
    win: Fact | None = None
    """The win it tells, as its point ("Ana wins!"), if any: held first when the display is back."""
    turn: Fact | None = None
    """The turn it began ("Cy's turn."), if any: held when the display is back, in place of an older turn held."""
    news: int | None = None
    """For another hand's move, the stretch of news it came in (`UnreadMoves.news`, which her own move or a whole
    digest ends): a digest of what other hands did (F8) tells the moves of its stretch, so they no longer wait.
    None: a notice, which no digest tells."""
    away: bool = False
    """The display's own notice that BRLTTY stopped answering, which it could not show: overtaken by its return
    (`newest_first`), whose notice says it is back, so never read after it."""
    fact: Fact | None = None
    """Its decisive fact, when it is neither a win nor a turn (a question the laptop asks, a warning): a move whose
    fact no longer holds waits no longer (`UnreadMoves.drop_if`)."""


class HeldFacts(Sequence[Line]):
    """The decisive facts held on the display, oldest first, each shown until a key acknowledges it: the first is
    the one shown, from `window`, and whether it has been read (only a fact read is acknowledged by a line sent)."""

    def __init__(self) -> None:
        self._lines: list[Line] = []
        self.read = False
        """The first held fact has been on the display and BRLTTY has answered since (`answered`): only then can a
        line sent acknowledge it. A frame written to a BRLTTY that has stopped answering is never read."""
        self.window = 0
        """The window of the first held fact shown: an index into its windows."""
        self._frame: int | None = None
        """The frame in which the first held fact was first rendered (None: not yet)."""

    @overload
    def __getitem__(self, index: int) -> Line: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Line]: ...

    def __getitem__(self, index: int | slice) -> Line | Sequence[Line]:
        return self._lines[index]

    def __len__(self) -> int:
        return len(self._lines)

    def hold(self, line: Line) -> None:
        """Hold the fact `line` shows, unless it is the fact held newest already; a win ends its game, so none of
        its turns is held any more."""
        if line.fact is None or (self._lines and self._lines[-1].fact == line.fact):
            return
        first = self._lines[0] if self._lines else None
        if line.held is Held.WIN:  # the game it ended: none of its turns is held any more
            self._lines = [held for held in self._lines if held.held is not Held.TURN]
        self._lines.append(line)
        if self._lines[0] is not first:
            self.restart()

    def restart(self) -> None:
        """Another fact is first of those held: shown from its first window, and not read yet."""
        self.window = 0
        self.read = False
        self._frame = None

    def acknowledge(self) -> str:
        """Acknowledge the first held fact (the player went on): it goes, and the next one, or the answer from its
        first line, is shown. Its text ("" when none was held)."""
        if not self._lines:
            return ""
        fact = self._lines.pop(0)
        self.restart()
        return fact.text

    def line_sent(self) -> str:
        """A line sent (on the display, or on the computer keyboard, in the plain mode): it acknowledges the first
        held fact if that has been on the display, whose text is returned ("" when none was, or it was never read)."""
        return self.acknowledge() if self.read else ""

    def drop(self) -> tuple[str, ...]:
        """Hold no fact any more (something newer says what they said); their texts."""
        dropped = tuple(line.text for line in self._lines)
        self._lines.clear()
        self.restart()
        return dropped

    def drop_if(self, over: Callable[[Fact], bool]) -> tuple[str, ...]:
        """Hold no more the facts `over` says no longer hold (a question answered or closed elsewhere: the front end
        knows it by its typed values); their texts. The first left is shown from its start when it changed."""
        first = self._lines[0] if self._lines else None
        dropped = [line for line in self._lines if line.fact is not None and over(line.fact)]
        self._lines = [line for line in self._lines if all(line is not gone for gone in dropped)]
        if (self._lines[0] if self._lines else None) is not first:
            self.restart()
        return tuple(line.text for line in dropped)

    def rendered(self, line: Line, frame: int) -> bool:
        """Frame number `frame` shows `line`: whether it is the first held fact (its first frame is noted)."""
        if not self._lines or line is not self._lines[0]:
            return False
        if self._frame is None:
            self._frame = frame
        return True

    def answered(self, frame: int) -> None:
        """BRLTTY answered after frame number `frame`: the first held fact, if first rendered then or before, is
        read."""
        if self._lines and self._frame is not None and self._frame <= frame:
            self.read = True

    def newest_first(self, win: Line | None, turn: Line | None) -> None:
        """The display is back: the newest win held first, then the newest turn (`win`, a win waiting unread, is
        held when no win is; `turn`, the newest turn begun by a move waiting unread, is held), an older turn held
        overtaken, then the other facts in order (with neither a win nor a turn, the newest of them first); none
        shown meanwhile was read."""
        if win is not None and not any(line.held is Held.WIN for line in self._lines):
            self._lines.append(win)
        if turn is not None:
            self._lines.append(turn)
        if not self._lines:
            return
        wins = [line for line in self._lines if line.held is Held.WIN]
        turns = [line for line in self._lines if line.held is Held.TURN and not wins]  # (a win ended their game)
        first = [*wins[-1:], *turns[-1:]] or [self._lines[-1]]
        rest = [line for line in self._lines if line.held is not Held.TURN and all(line is not f for f in first)]
        self._lines = [*first, *rest]
        self.restart()


class UnreadMoves(Sequence[Waiting]):
    """Other hands' moves not yet shown, oldest first (a win first): each waits until the player goes on to it; and
    the move taken from them and shown as the answer, until it is read (or put back, when it never was)."""

    def __init__(self) -> None:
        self._moves: list[Waiting] = []
        self.shown: Waiting | None = None
        """The move shown as the answer (taken from the moves waiting) until it is read: BRLTTY answered after a
        frame that showed it, and was still showing it (`answered`). An answer of hers that takes its place before
        puts it back at the front (`put_back`): a key that took it under the line she types, a frame written to a
        BRLTTY that has stopped, or one her typing covered before BRLTTY answered, shows it to nobody."""
        self._frames: set[int] = set()
        """The frames rendered that showed `shown`."""
        self.news = 0
        """The stretch of news now: other hands' moves since her own last move or the last whole digest
        (`new_news`); each move waiting is marked with it (`Waiting.news`)."""

    @overload
    def __getitem__(self, index: int) -> Waiting: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Waiting]: ...

    def __getitem__(self, index: int | slice) -> Waiting | Sequence[Waiting]:
        return self._moves[index]

    def __len__(self) -> int:
        return len(self._moves)

    def wait(self, move: Waiting) -> None:
        """A move to wait, in order; a win goes to the front, behind the wins waiting already."""
        if move.win:
            self._moves.insert(next((i for i, m in enumerate(self._moves) if not m.win), 0), move)
        else:
            self._moves.append(move)

    def show(self, move: Waiting | None) -> None:
        """`move` is shown now as the answer, not yet read (None: no move is shown)."""
        self.shown = move
        self._frames.clear()

    def put_back(self) -> bool:
        """An answer of hers takes the place of the move shown: if it was never read, it waits again, at the front
        (behind a win waiting). Whether one did."""
        unread, self.shown = self.shown, None
        if unread is None:
            return False
        wins = next((index for index, waiting in enumerate(self._moves) if not waiting.win), len(self._moves))
        self._moves.insert(0 if unread.win else wins, unread)
        return True

    def drop_if(self, over: Callable[[Fact], bool]) -> None:
        """Let the moves waiting whose fact `over` says no longer holds (a question answered or closed elsewhere) wait
        no longer: read now, they would ask what is no longer asked."""
        self._moves = [move for move in self._moves if move.fact is None or not over(move.fact)]

    def next(self) -> Waiting | None:
        """The next move waiting, taken from them (None: none waits)."""
        return self._moves.pop(0) if self._moves else None

    def rendered(self, frame: int) -> None:
        """Frame number `frame` shows the answer: the move shown, if any, is in it."""
        if self.shown is not None:
            self._frames.add(frame)

    def answered(self, frame: int) -> None:
        """BRLTTY answered after frame number `frame`: the move shown is read if that frame showed it (not one a
        frame before it showed, which BRLTTY may have replaced at once: her typing over it)."""
        if self.shown is not None and frame in self._frames:
            self.show(None)

    def newest_first(self) -> tuple[Fact | None, Fact | None]:
        """The display is back: the notice that it stopped answering is overtaken (no longer waiting, nor shown),
        and nothing drawn meanwhile was read. The first win waiting and the newest turn begun by a move waiting
        (None when none), to be held."""
        self._moves = [move for move in self._moves if not move.away]
        if self.shown is not None and self.shown.away:
            self.shown = None
        self._frames.clear()  # (a move drawn meanwhile was not read either)
        win = next((move.win for move in self._moves if move.win), None)
        return win, next((move.turn for move in reversed(self._moves) if move.turn), None)

    def digest_said(self, whole: bool, win: bool, *, apart: bool = False) -> None:
        """The digest of what other hands did (F8) told the moves of this stretch of news: they wait no longer
        (every one when it is `whole`, else one that tells the win it said); notices still wait. `apart`: its first
        window is no more than its heading (a small display), so it told none of them to a reader of first windows:
        each still waits, to be read whole, its point first. A whole digest ends the stretch."""
        told = [move for move in self._moves if move.news == self.news and (whole or (win and move.win))]
        told = [] if apart else told
        self._moves = [move for move in self._moves if all(move is not each for each in told)]
        self.news += whole

    def new_news(self) -> None:
        """Her own move (or another game): the moves from here on are the next digest's, not those waiting now."""
        self.news += 1
