"""The plain line mode: one command per line on stdin, the answer's lines on stdout.

No Textual and no screen drawing, so Speakup, BRLTTY and scripts can follow it line by line. The same loop
replays a whole game from a file (`table-assistant --script FILE`), echoing each command before its answer.
`stop`, `repeat` and `history` work as in the app: the session answers them, and this loop stops the speech or
says an answer again.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol, TextIO

from assistant.core.language.reply import FrontEnd
from assistant.core.speech.utterance import Utterance, reader_may_take
from assistant.core.text import clean_untrusted
from assistant.core.words.cardtext import deck_chosen
from assistant.core.words.entry import QUIT_ON_KEYBOARD
from assistant.core.words.screen import PLAIN_GREETING
from assistant.core.words.voice import NO_SPEECH_KEYS
from assistant.session import Control, Reply, Session
from assistant.ui.share_link import ThreadedShare

if TYPE_CHECKING:
    from assistant.core.braille.display import Press
    from assistant.ui.braille_display import DisplayLink

#: Printed before each line is read at a terminal, so a screen reader knows the app waits for a command.
PROMPT = "> "


class Prompt:
    """The prompt the plain mode waits at, at a terminal, so that a notice that comes meanwhile (a sound that failed)
    is printed on a line of its own, the prompt and what was typed so far shown again under it: printed after the
    `> `, it read as part of the line being typed. Another hand's lines that come meanwhile are printed the same way
    at a bare prompt, and held until her Enter while she has begun a line (`beside`): printed into it, a phone's
    "Cy played Neigh." joined her half-typed line ("turnCy played Neigh."), and her reader read the two as one."""

    def __init__(self) -> None:
        self.shown = ""
        """The prompt on the terminal's last line while a line is read; "" while a line is answered."""
        self.lock = threading.Lock()

    def waiting(self, prompt: str) -> None:
        with self.lock:
            self.shown = prompt

    def answered(self) -> None:
        with self.lock:
            self.shown = ""

    def notice(self, text: str, stream: TextIO | None = None) -> None:
        """Print a notice (on stderr), on a line of its own: at the prompt, the line is cleared first and the prompt
        with what was typed printed again after it."""
        stream = stream or sys.stderr
        with self.lock:
            if self.shown:
                sys.stdout.write("\r\x1b[K")  # back to the start of the prompt's line, cleared
                sys.stdout.flush()
            print(text, file=stream, flush=True)
            if self.shown:
                sys.stdout.write(self.shown + _typed())
                sys.stdout.flush()

    def beside(self, lines: Sequence[str], stream: TextIO, waiting: list[str]) -> None:
        """Print `lines` on `stream` (stdout) while a line may be read: at once when none is (her line is being
        answered, or a script runs); at the prompt with nothing typed, after the lines `waiting` (taken from it), on
        lines of their own, the prompt shown again under them. With part of a line typed nothing is printed: they
        join `waiting`, which the caller prints after her Enter, as readline-based programs hold what comes while a
        line is edited (a line redrawn under them would leave readline's cursor where it was not, had she moved it
        back in the line)."""
        with self.lock:
            if self.shown and _typed():
                waiting.extend(lines)
                return
            if self.shown:
                lines = [*waiting, *lines]
                waiting.clear()
                stream.write("\r\x1b[K")  # back to the start of the prompt's line, cleared
            for text in lines:
                print(text, file=stream)
            if self.shown:
                stream.write(self.shown)
            stream.flush()


def _typed() -> str:
    """What readline holds of the line being typed ("" without readline)."""
    readline = sys.modules.get("readline")
    return str(readline.get_line_buffer()) if readline is not None else ""


#: The plain mode's prompt, as a notice sees it.
PROMPTED = Prompt()


def edited_lines(prompt: str = "") -> Iterator[str]:
    """The lines typed at a terminal, each read after `prompt`, with line editing and this run's history (Left and
    Right move in the line, Up and Down recall earlier lines), through readline where Python has it (GNU readline,
    or libedit on macOS; Windows' console edits lines and keeps a history itself). Without it, an arrow key typed
    its escape sequence into the line ("^[[A" sent as a command). docs/commands.md says why readline."""
    try:
        import readline
    except ImportError:
        pass  # lines are read as they are typed, the console's own editing aside
    else:
        if "libedit" not in (readline.__doc__ or ""):
            readline.parse_and_bind("tab: tab-insert")  # a Tab is a Tab, never a file name completed
    while True:
        PROMPTED.waiting(prompt)
        try:
            line = input(prompt)
        except EOFError:
            return
        finally:
            PROMPTED.answered()
        yield line


class PlainSpeaker(Protocol):
    """What the plain mode needs of the thing that speaks (`assistant.speech.replies.ReplySpeaker`): a reply said,
    and the speech keys (`stop`); a reply is said as its origin asks by its `render` (`FrontEnd`), when it has
    one, else by the speaker itself."""

    def __call__(self, reply: Reply) -> None:
        """Speak a reply to a line read."""

    def control(self, command: str) -> str:
        """Run a speech key (stop, repeat...); the line to show."""


def run_plain(
    session: Session,
    stdin: Iterable[str] = sys.stdin,
    stdout: TextIO = sys.stdout,
    speak: PlainSpeaker | None = None,
    *,
    echo: bool = False,
    first: Reply | None = None,
    prompt: str = "",
    display: DisplayLink | None = None,
    share: str | None = None,
    notes: Sequence[str] = (),
    reader: bool = False,
    stop_reader: Callable[[], object] | None = None,
) -> int:
    """Read lines until end of input or `quit`; print (and speak, if `speak` is given) each reply.

    `echo` prints each line read, after "> ", before its answer (for scripts); `first` is a reply to show before
    the first line (a resumed game); `prompt` is printed before each line is read (at a terminal); `display`: a
    braille display that shows every answer too, whose keys are answered like lines typed (one at a time with
    the lines read here); `share`: share the table at once (`--share`: "" for the local-network address, or
    ADDRESS:PORT); `notes`: lines about the app itself (the speech engine chosen), printed on stderr just after the
    greeting, so the first words are the app's; `reader`: a screen reader reads the printed lines aloud (`speak`
    then says only what the reader does not: its earcons, and other hands' moves in the table voice);
    `stop_reader`: tells her screen reader to stop talking (`speech.reader_stop.ReaderStop`), when a move closes the
    question a reply of hers asks while her reader may still be reading it (`_Shown`). Moves from phones are carried
    out under the same lock as the lines read here and the display's keys, in the order they arrive, and shown and
    said like a typed line's answer (beside her reader, said once: `_Shown`).
    """
    session.screen_keys = False  # the help names lines to type, not the app's keys
    lock = display.lock if display is not None else threading.RLock()
    shared: ThreadedShare | None = None

    shown = _Shown(stdout, speak, display, reader=reader, stop_reader=stop_reader if reader else None)
    show = shown.show

    def share_control(argument: str) -> None:  # never under the lock: the server's loop takes it for each move
        nonlocal shared
        if shared is None:
            shared = ThreadedShare(session, lock, show)
        reply = shared.control(argument)
        with lock:
            show(reply)

    show(Reply.of(PLAIN_GREETING, deck_chosen(session.cards)))
    if notes:
        stdout.flush()
        for note in notes:
            print(note, file=sys.stderr, flush=True)
    if first is not None:
        show(first)
    if share is not None:
        share_control(share)

    if display is not None:
        _listen(display, lock, show)
    lines = iter(stdin)
    while True:
        if prompt:
            print(prompt, end="", file=stdout, flush=True)
            PROMPTED.waiting(prompt)
        line = next(lines, None)
        PROMPTED.answered()
        if line is None or line.strip().lower() in ("quit", "exit"):
            break
        if not line.strip():  # (what came while she typed it is printed now)
            shown.printed.flush()
            continue
        shown.answering = True  # (a phone's move shown from now until her reply is printed after it)
        with lock:
            if echo:  # the echo is cleaned (no terminal escapes); the line itself goes to the session as typed
                print(f"> {clean_untrusted(line)}", file=stdout)
            if display is not None:  # new input: a fact held on the display is acknowledged
                display.acknowledge()
            reply = session.handle(line)
            if reply.control is not Control.SHARE:
                show(reply)
            shown.held_after()
            if shared is not None:
                shared.after(reply)
        if reply.control is Control.SHARE:
            share_control(reply.argument)
    shown.printed.flush()
    if shared is not None:
        shared.close()
    return 0


class _Shown:
    """How the plain mode shows a reply: printed, on the braille display, said. A phone's move shown while her line
    is answered (`answering`: from her Enter until her reply is printed) is said at once (the table voice) but
    printed and shown after her reply, in the order the moves came: her screen reader reads all new output in order
    and her next Enter cancels it, so a move printed just before her reply would take her reply's turn. One that
    comes while she has begun a line is printed after her Enter (`Prompt.beside`), never into her line.

    Beside her screen reader (`reader`), each other hand's move is heard once: while the table voice says it (on,
    with a voice, not muted: `ReplySpeaker.table_voice`) it is not printed, as her reader would read it at the same
    time (77 of 239 of her reader's messages in a game were other hands' moves, both voices at once for 82.7 s);
    `missed` and `history` print it when she asks. With no table voice it is printed, for her reader alone.

    Her reader reads a printed line at its own pace until her next key stops it: a reply of hers that asks the
    table's question ("The pile, from the top: Cy's Basic Goat. Any Instant for Cy's Basic Goat? ...") was still
    being read when Cy's resolve won the game from a phone, and her reader said the question 2.4 s after the win.
    When another hand's move closes that question (it records a move or tells a decisive fact, as
    `SpeechQueue.closed_by` has it) while her reader may still be reading the reply (`_Printed.asking_until`), her
    reader is told to stop (`stop_reader`) before the move is said or printed: the reply is stale, and stays on the
    screen."""

    def __init__(
        self,
        stdout: TextIO,
        speak: PlainSpeaker | None,
        display: DisplayLink | None,
        *,
        reader: bool = False,
        stop_reader: Callable[[], object] | None = None,
    ) -> None:
        self.said = _Said(speak) if speak is not None else None
        self.answering = False
        self.stop_reader = stop_reader
        self.printed = _Printed(stdout, lambda: reader and self.said is not None and self.said.table_voice)
        self.after_hers = [_AfterHers(self.printed, self)]
        """The front ends that show another hand's reply after her own (`_AfterHers`), printed first."""
        if display is not None:
            self.after_hers.append(_AfterHers(display, self))
        self.front_ends: tuple[FrontEnd, ...] = tuple(
            end for end in (self.after_hers[0], self.said, *self.after_hers[1:]) if end is not None
        )
        """Every reply is rendered on each, in this order (`show`): printed, said, on a braille display; each decides
        from the reply's own values what to do with it."""

    def show(self, reply: Reply) -> None:
        """Render a reply on every front end. A speech key typed (`mute`, `private`) is run by the speaker, as F5 and
        F6 do, which says its answer itself: that answer (`Control.SAID`) is rendered on every front end."""
        if reply.control is Control.SPEECH:
            line = self.said.speak.control(reply.argument) if self.said is not None else NO_SPEECH_KEYS
            reply = dataclasses.replace(Reply.of(line), control=Control.SAID)
        if self.stop_reader is not None and self._closes_her_question(reply):
            self.printed.asking_until = 0.0
            self.stop_reader()
        for end in self.front_ends:
            end.render(reply)

    def _closes_her_question(self, reply: Reply) -> bool:
        """Another hand's reply that closes the question of a reply of hers her reader may still be reading."""
        if reply.origin.own_key or self.answering:
            return False
        return bool(reply.tells or reply.facts) and time.monotonic() < self.printed.asking_until

    def held_after(self) -> None:
        """Her reply is printed: the moves held meanwhile are printed and shown now (already said), then what came
        while she typed her line."""
        self.answering = False
        for end in self.after_hers:
            end.release()
        self.printed.flush()


class _AfterHers:
    """A front end that shows another hand's reply (`Origin.own_key` False: a phone's move, the phones' news) after
    her own: one that comes while her line is answered (`_Shown.answering`) waits, in the order they came, until her
    reply is printed (`release`); the speech says it at once, in the table voice."""

    def __init__(self, end: FrontEnd, shown: _Shown) -> None:
        self.end, self.shown = end, shown
        self.held: list[Reply] = []

    def render(self, reply: Reply) -> None:
        if self.shown.answering and not reply.origin.own_key:
            self.held.append(reply)
        else:
            self.end.render(reply)

    def release(self) -> None:
        """Her reply is shown: what waited is shown now, in order."""
        while self.held:
            self.end.render(self.held.pop(0))


def _listen(display: DisplayLink, lock: AbstractContextManager[object], show: Callable[[Reply], None]) -> None:
    """Answer the braille display's keys under `lock`, one at a time with the lines read, on its reader thread;
    `show` shows and says a reply, and that BRLTTY stopped answering (once: the reader looks for it again, and when
    it answers the display is shown as it stands, with what it missed)."""

    def pressed(press: Press) -> None:
        with lock:
            reply = display.press(press, time.monotonic())
            if display.quitting:  # `quit` typed on the display: the next line read ends
                display.quitting = False
                show(Reply.of(QUIT_ON_KEYBOARD))
            elif reply is not None:
                show(reply)

    def lost() -> None:
        with lock:
            show(display.lost())

    def back() -> None:
        with lock:
            show(display.back())

    display.display.listen(pressed, lost, back, on_answered=display.answered)


class _Printed:
    """The printed lines as a front end (`FrontEnd`): a reply's lines on stdout, as a screen reader is given them
    (a new join code is never printed, only that it is ready), never into a line she has begun at the prompt
    (`Prompt.beside`); `stop` prints nothing."""

    def __init__(self, stdout: TextIO, voiced: Callable[[], bool] = lambda: False) -> None:
        self.stdout = stdout
        self.voiced = voiced
        """Beside her screen reader, other hands' moves are said in the table voice now (`_Shown`): not printed."""
        self.waiting: list[str] = []
        """Lines that came while she had begun a line at the prompt: printed after her Enter (`flush`)."""
        self.asking_until = 0.0
        """Until when (`time.monotonic()`) her screen reader may still be reading the table's question a reply of
        hers asks (`Utterance.asks_from`), printed last: as long as a slow reader takes to read that reply
        (`reader_may_take`); 0 when the last lines printed ask none, or are another hand's (stopping her reader
        would cut them too)."""

    def render(self, reply: Reply) -> None:
        if reply.control is Control.STOP or (not reply.origin.own_key and (self.voiced() or not reply.reader_lines)):
            return  # (another hand's words said only, `PhoneDesk.say_held`: nothing to print, the prompt left alone)
        PROMPTED.beside(reply.reader_lines, self.stdout, self.waiting)
        asks = reply.origin.own_key and Utterance.of_reply(reply).asks_from() is not None
        self.asking_until = time.monotonic() + reader_may_take(" ".join(reply.reader_lines)) if asks else 0.0

    def flush(self) -> None:
        """Her line is sent (and answered): the lines that waited for it are printed."""
        lines, self.waiting[:] = list(self.waiting), []
        PROMPTED.beside(lines, self.stdout, self.waiting)
        if lines:
            self.asking_until = 0.0


class _Said:
    """The speech as a front end (`FrontEnd`): `stop` stops it; a reply is said as its origin asks (the speaker's
    own `render`), or, by a speaker that has none, said as it comes."""

    def __init__(self, speak: PlainSpeaker) -> None:
        self.speak = speak

    def render(self, reply: Reply) -> None:
        if reply.control is Control.STOP:
            self.speak.control("stop")
            return
        if reply.control is Control.SAID:  # (a speech key's answer: the speaker said it as it ran the key)
            return
        getattr(self.speak, "render", self.speak)(reply)

    @property
    def table_voice(self) -> bool:
        """Other hands' moves are said now in a voice of their own (`ReplySpeaker.table_voice`; False for a speaker
        that has none)."""
        return bool(getattr(self.speak, "table_voice", False))
