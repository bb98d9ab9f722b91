"""A refreshable braille display through BrlAPI, BRLTTY's client library (Debian `python3-brlapi`).

`open_display` connects where `BRLAPI_HOST` and `BRLAPI_AUTH` say (BrlAPI's own defaults when they are unset) and
takes the display in "TTY mode" for this program; `BrailleDisplay.write` puts a line of Unicode braille cells on
it; `BrailleDisplay.listen` starts a thread that reads its keys and hands each one, as the core's `Press`, to a
function (the app posts it as a message). What the cells and keys mean is `assistant/core/braille/display.py`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: this module is imported first thing, to take the display at once
    from assistant.core.braille.display import Press

#: The longest start-up waits for BRLTTY: a frozen BRLTTY, or a port that accepts and never answers, is given up.
CONNECT_TIMEOUT = 2.0
#: How often a lost display is looked for again, in seconds: often, so that the app's connection already waits in
#: the queue of a BRLTTY started again before it accepts any (BRLTTY 6.5 reads the display's keys from about half a
#: second after it starts, as its own, and accepts connections a second after it starts); a refused connection
#: costs next to nothing.
RECONNECT_EVERY = 0.1
#: How long BRLTTY may take to answer the round trip after a write before it is taken as stopped (away until it
#: answers): far longer than its answer on a loaded machine (a few milliseconds), far shorter than a reader's pause.
STALL_AFTER = 2.0
#: Seconds without a key that end the keys BRLTTY kept while it was stopped: it passes them on once it answers again
#: (or once a display is taken back), 20 to 90 ms apart (measured: a 17-key line took about a second), so they come
#: on until a pause this long, from its return or from the last of them. A key that moves the display (panning, the
#: line keys, top and bottom, the next-unread key, a routing key) read until then was pressed on a display that did
#: not move: it is not passed on, so what the display shows when it is back (its notice, or the newest decisive fact)
#: is shown from its start. Keys typed, Enter, whose turn and help are always passed on, but until then nothing sent
#: acknowledges a fact held on the display (`settling`): it was typed unseen. Nobody reads a window that fast.
KEPT_KEYS_PAUSE = 0.5
#: The width assumed for a display not there at start, until it is found (the common desktop size).
DEFAULT_WIDTH = 40


class DisplayUnavailable(Exception):
    """No BRLTTY answered, or BrlAPI is not installed (`missing`): `args[0]` says where it was looked for;
    `reason`, when known, why it was given up (it did not answer in time)."""

    def __init__(self, where: str, missing: bool = False, reason: str = ""):
        super().__init__(where)
        self.missing = missing
        self.reason = reason


def _environment(name: str) -> bytes | None:
    """A BrlAPI environment value as the bytes it holds (never decoded: a byte that is not UTF-8 is passed on as
    it is, and BrlAPI refuses what it cannot use); None when unset or empty."""
    value = os.environb.get(name.encode()) if os.supports_bytes_environ else None
    if value is None and not os.supports_bytes_environ:
        text = os.environ.get(name)
        value = text.encode("utf-8", "surrogateescape") if text is not None else None
    return value or None


def brlapi_address() -> str:
    """Where BrlAPI is asked for a display, safe to show and speak: `BRLAPI_HOST` (a byte that is not UTF-8 read
    as U+FFFD, escapes and control characters removed), else BrlAPI's default (the local server)."""
    from assistant.core.text import clean_untrusted

    host = _environment("BRLAPI_HOST")
    return clean_untrusted(host.decode("utf-8", "replace"), 100) if host else "localhost:0"


def open_display(connect: Callable[[], Any] | None = None, timeout: float = CONNECT_TIMEOUT) -> BrailleDisplay:
    """Connect to BRLTTY and take its display; raise `DisplayUnavailable` when none answers, or none answers
    within `timeout` seconds (the connection is tried on a thread of its own, so a frozen server or a port that
    accepts and never answers cannot hang the caller). The connection `connect_early` began is taken when there is
    one, its time counted from when it began."""
    global _early
    try:
        import brlapi
    except ImportError as exc:
        raise DisplayUnavailable(brlapi_address(), missing=True) from exc
    opener = connect if connect is not None else _connector(brlapi)

    def take() -> Any:
        return _Attempt(lambda: _take_display(opener, brlapi), brlapi).result(timeout)

    early, _early = _early, None
    if early is not None and (connect is not None or early.where != _where()):
        early.abandon()  # begun for another server (the environment changed since): never used
        early = None
    first = early.result(timeout) if early is not None else take()
    return BrailleDisplay(first, brlapi, lambda: _take_display(opener, brlapi), opener)


def awaited_display() -> BrailleDisplay:
    """A display no BRLTTY answered for at start (none running yet, or one frozen): not there, and looked for
    every tenth of a second once it is listened to (`BrailleDisplay.listen`), which takes it when a BRLTTY answers."""
    import brlapi

    opener = _connector(brlapi)
    return BrailleDisplay(None, brlapi, lambda: _take_display(opener, brlapi), opener)


#: The connection begun at the process's start (`connect_early`), until `open_display` takes it.
_early: _Attempt | None = None


def connect_early() -> None:
    """Begin connecting to BRLTTY now, on a thread, as the process's first step when a braille display is chosen:
    from the moment the display is taken, BRLTTY keeps every key typed on it for this program until it is read,
    so keys typed while the rest of the app starts are not lost (before it, BRLTTY takes them itself).
    `open_display` takes this connection; a second call does nothing."""
    global _early
    if _early is not None:
        return
    try:
        import brlapi
    except ImportError:
        return  # said by `open_display`
    opener = _connector(brlapi)
    _early = _Attempt(lambda: _take_display(opener, brlapi), brlapi, _where())


def _where() -> tuple[bytes | None, bytes | None]:
    return _environment("BRLAPI_HOST"), _environment("BRLAPI_AUTH")


def connect_early_if_chosen(argv: list[str]) -> None:
    """`connect_early` when the command line `argv` (the program's own, `sys.argv`) chooses the braille display:
    called before anything else is imported, so the display is taken within a few tenths of a second of the
    start (the settings' choice is known only once they are read: `commands/app.py` begins it then)."""
    name = os.path.basename(argv[0]) if argv else ""
    ours = name.startswith("table-assistant") or (name == "__main__.py" and "assistant" in argv[0])
    if ours and "--braille-display" in argv[1:]:
        connect_early()


def wait_early(timeout: float = CONNECT_TIMEOUT) -> None:
    """Wait until the connection `connect_early` began is made or given up (at most `timeout` seconds from when
    it began), so that what the process does next comes after the display is taken; nothing when none began."""
    if _early is not None:
        _early.wait(timeout)


def _connector(brlapi: Any) -> Callable[[], Any]:
    """Connecting where the environment says (its raw bytes), else to BrlAPI's default."""
    host, auth = _environment("BRLAPI_HOST"), _environment("BRLAPI_AUTH")
    if host is None and auth is None:
        return brlapi.Connection  # type: ignore[no-any-return]  # BrlAPI is untyped
    return lambda: brlapi.Connection(host, auth)


def _take_display(opener: Callable[[], Any], brlapi: Any) -> Any:
    """A connection in TTY mode whose display knows its size; `DisplayUnavailable` otherwise (a connection made
    and then refused the display is closed: looked for every tenth of a second, it would otherwise leave one
    connection more on the server each time)."""
    connection: Any = None
    try:
        connection = opener()
        connection.enterTtyModeWithPath()
        for _ in range(40):  # a server whose display is still starting says 0 cells: a moment later it knows
            if connection.displaySize[0]:
                break
            time.sleep(0.05)
    except (brlapi.ConnectionError, brlapi.OperationError, OSError, ValueError, TypeError) as exc:
        if connection is not None:
            _close(connection, brlapi, leave=False)  # (leaving TTY mode waits for an answer that may not come)
        raise DisplayUnavailable(brlapi_address()) from exc
    if not connection.displaySize[0]:
        connection.closeConnection()
        raise DisplayUnavailable(brlapi_address())
    return connection


class _Attempt:
    """`attempt()` begun on a thread of its own; its result waited for at most `timeout` seconds from when it began
    (`DisplayUnavailable` with the reason after that); a connection made after it was given up is closed, never
    left holding the display."""

    def __init__(self, attempt: Callable[[], Any], brlapi: Any, where: object = None):
        self.where = where
        """What it was begun for (the BrlAPI environment), to be taken only for the same."""
        self._brlapi = brlapi
        self._began = time.monotonic()
        self._done = threading.Event()
        self._given_up = threading.Event()
        self._outcome: list[Any] = []
        self._attempt = attempt
        threading.Thread(target=self._run, name="braille-connect", daemon=True).start()

    def _run(self) -> None:
        try:
            self._outcome.append(self._attempt())
        except BaseException as exc:  # handed to the caller as it is
            self._outcome.append(exc)
        self._done.set()
        if self._given_up.is_set() and not isinstance(self._outcome[0], BaseException):
            try:
                self._outcome[0].closeConnection()
            except (self._brlapi.ConnectionError, self._brlapi.OperationError, OSError):
                pass

    def abandon(self) -> None:
        """Never taken: its connection is closed whenever it is made."""
        self._given_up.set()
        if self._done.is_set() and self._outcome and not isinstance(self._outcome[0], BaseException):
            _close(self._outcome[0], self._brlapi)

    def wait(self, timeout: float) -> bool:
        """Wait until it is done, at most `timeout` seconds from when it began; whether it is done."""
        return self._done.wait(max(0.0, timeout - (time.monotonic() - self._began)))

    def result(self, timeout: float) -> Any:
        """The connection, or the exception it raised; `DisplayUnavailable` when not done in time."""
        if not self.wait(timeout):
            self._given_up.set()
            if not self._done.is_set():
                from assistant.core.words.entry import braille_no_answer_in_time

                raise DisplayUnavailable(brlapi_address(), reason=braille_no_answer_in_time(timeout))
        result = self._outcome[0]
        if isinstance(result, BaseException):
            raise result
        return result


class BrailleDisplay:
    """An open braille display: its size, a line written, its keys read on a thread of their own; when the
    server goes away, it is looked for again (`reopen`, which may wait as long as a frozen BRLTTY does: it runs on
    that thread) and the display taken back when it answers. With no `connection`, the display was not there at
    start: it is looked for in the same way from the moment it is listened to."""

    def __init__(
        self,
        connection: Any,
        module: Any,
        reopen: Callable[[], Any] | None = None,
        answerer: Callable[[], Any] | None = None,
    ):
        self._connection = connection
        self._brlapi = module
        self._reopen = reopen
        self._answerer = answerer
        """Opens a connection for the round trips after each write (`listen`'s `on_answered`); None: none made."""
        self._lock = threading.Lock()  # writing and closing from the app's thread, reading keys from another
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None
        self.lost = connection is None
        """The server is not answering (stopped, or not there yet) and has not come back yet."""
        self.width = int(connection.displaySize[0]) if connection is not None else DEFAULT_WIDTH
        """The display's cells (its first row; the common size until a display not there at start is found)."""
        self._written = 0
        """The number of the last frame written (`write`'s `frame`)."""
        self._to_confirm = threading.Event()
        """Set by a write: the round trip after it (`_answers`) is due."""
        self._stalled = False
        """BRLTTY took longer than `STALL_AFTER` to answer a round trip, and has not answered it yet."""
        self.clock: Callable[[], float] = time.monotonic
        """Seconds, for `KEPT_KEYS_PAUSE` (a test gives a clock of its own)."""
        self._back_at: float | None = None
        """When BRLTTY last answered again, or the display was last taken back, or the last key it kept since came
        (`clock`): the keys it kept end `KEPT_KEYS_PAUSE` after it; None: never away, or those keys have ended."""
        self.looks = 0
        """How many times the display was looked for while it was not there (`_come_back`: each try, counted as it
        begins)."""
        self.keys_gone = False
        """The display was taken back from a BRLTTY started anew (its connection had been lost): keys typed on it
        while no BRLTTY ran, or before the new one let a program take it, reached no program. Set until read
        (`taken_back_anew`); a stopped BRLTTY that resumes keeps every key typed, so it never sets it."""

    def write(self, cells: str, cursor: int | None = None, frame: int = 0) -> None:
        """Show a line of Unicode braille cells (cut or padded to the display's width), with the cursor (dots 7
        and 8) on cell `cursor` (from 0), or none. `frame`: its number, told to `on_answered` (`listen`) once BRLTTY
        has answered after it (a write to a BRLTTY that has stopped raises nothing: only an answer says it was
        shown)."""
        shown = self._brlapi.CURSOR_OFF if cursor is None or not 0 <= cursor < self.width else cursor + 1
        with self._lock:
            if self._stopped.is_set() or self.lost:
                return
            try:
                self._connection.writeText(cells[: self.width].ljust(self.width, "\u2800"), shown)
            except (self._brlapi.OperationError, self._brlapi.ConnectionError, OSError):
                return  # the server went away: the reader notices
            self._written = frame
            self._to_confirm.set()

    def listen(
        self,
        on_press: Callable[[Press], object],
        on_lost: Callable[[], object] | None = None,
        on_back: Callable[[], object] | None = None,
        every: float = RECONNECT_EVERY,
        on_answered: Callable[[int], object] | None = None,
    ) -> None:
        """Read the display's keys on a thread of its own; each key the model knows goes to `on_press`.
        `on_lost` is called when the server goes away or stops answering; the display is then looked for every
        `every` seconds and, when it answers again, taken back and `on_back` called (the caller redraws it).
        `on_answered`: after each write, a round trip to BRLTTY is made on another thread, and the frame written
        told to it once BRLTTY answered (it has shown it); a round trip not answered within `STALL_AFTER` seconds
        is a BRLTTY stopped (`on_lost`), back when it answers (`on_back`)."""
        lost = on_lost if on_lost is not None else (lambda: None)
        back = on_back if on_back is not None else (lambda: None)
        if self._answerer is not None:
            threading.Thread(
                target=self._answers, args=(lost, back, on_answered), name="braille-answers", daemon=True
            ).start()

        def run() -> None:
            if self.lost:  # not there at start (said then): looked for until it comes
                if not self._come_back(every):
                    return
                back()
            while not self._stopped.is_set():
                try:
                    code = self._connection.readKeyWithTimeout(200)
                except (self._brlapi.OperationError, self._brlapi.ConnectionError, OSError):
                    if self._stopped.is_set():
                        return
                    with self._lock:
                        said, self.lost, self._stalled = self.lost and self._stalled, True, False
                    if not said:  # (a BRLTTY found stopped was said to be away already)
                        lost()
                    if not self._come_back(every):
                        return
                    back()
                    continue
                if code is None or self._stopped.is_set():
                    continue
                self._kept_key()
                press = press_of(int(code), self._brlapi)
                if press is not None and not self._pressed_while_away(press):
                    on_press(press)

        self._thread = threading.Thread(target=run, name="braille-display", daemon=True)
        self._thread.start()

    def _answers(
        self, lost: Callable[[], object], back: Callable[[], object], answered: Callable[[int], object] | None
    ) -> None:
        """After each write, a round trip to BRLTTY (`sync`) on a connection of its own (BrlAPI's round trip on the
        display's connection, written to from another thread, can wait forever): BRLTTY answers it once it has
        handled what came before it, so the frame is then known shown. One that takes longer than `STALL_AFTER`
        seconds, the connection's making included, is a BRLTTY stopped, away until it answers; an error is left to
        the key reader (the server went away), and the connection is made anew for the next."""
        connection: Any = None
        while not self._stopped.is_set():
            if not self._to_confirm.wait(0.2):
                continue
            with self._lock:
                self._to_confirm.clear()
                frame, display = self._written, self._connection
            timer = threading.Timer(STALL_AFTER, self._stall, (display, lost))  # (from before the connection is
            timer.daemon = True  # made: a BRLTTY stopped before the first round trip never answers the connecting)
            timer.start()
            try:
                connection = connection if connection is not None else self._answerer()  # type: ignore[misc]
                connection.sync()
            except (self._brlapi.OperationError, self._brlapi.ConnectionError, OSError, ValueError, TypeError):
                if connection is not None:
                    _close(connection, self._brlapi)
                connection = None
                continue
            finally:
                timer.cancel()
            with self._lock:
                resumed = self._stalled and self._connection is display and not self._stopped.is_set()
                if resumed:
                    self._stalled = self.lost = False
                    self._back_at = self.clock()
            if resumed:
                back()
            if answered is not None and not self._stopped.is_set():
                answered(frame)
        if connection is not None:
            _close(connection, self._brlapi)

    def _stall(self, connection: Any, lost: Callable[[], object]) -> None:
        """BRLTTY has not answered the round trip on `connection` in time: away (nothing is written) until it does."""
        with self._lock:
            if self.lost or self._connection is not connection or self._stopped.is_set():
                return
            self.lost = self._stalled = True
        lost()

    def _come_back(self, every: float) -> bool:
        """Look for the server until it answers (True, the display taken back) or the display is closed."""
        if self._reopen is None:
            return False
        while not self._stopped.wait(every):
            self.looks += 1
            try:
                connection = self._reopen()  # on this thread: a frozen BRLTTY is waited for until it resumes
            except DisplayUnavailable:
                continue
            with self._lock:
                if self._stopped.is_set():
                    _close(connection, self._brlapi)
                    return False
                old, self._connection = self._connection, connection
                self.width = int(connection.displaySize[0]) or self.width
                self.lost = False
                self._back_at = self.clock()
                self.keys_gone = self.keys_gone or old is not None
            if old is not None:
                _close(old, self._brlapi)
            return True
        return False

    def _kept_key(self) -> None:
        """A key read: while BRLTTY passes on the keys it kept, the next may follow it (`KEPT_KEYS_PAUSE` from it)."""
        if self.settling():
            with self._lock:
                if self._back_at is not None:
                    self._back_at = self.clock()

    def _pressed_while_away(self, press: Press) -> bool:
        """A key that moves the display, pressed while it was stopped (`KEPT_KEYS_PAUSE`): not passed on."""
        from assistant.core.braille.display import Key

        moves = (Key.PAN_LEFT, Key.PAN_RIGHT, Key.LINE_UP, Key.LINE_DOWN, Key.TOP, Key.BOTTOM, Key.REGION_PREVIOUS,
                 Key.REGION_NEXT, Key.NEXT_UNREAD, Key.ROUTE)  # fmt: skip
        if press.key not in moves:
            return False
        return self.settling()

    def settling(self) -> bool:
        """BRLTTY is away, or still passes on the keys it kept while stopped (no pause of `KEPT_KEYS_PAUSE` in them
        since it answered again, or the display was taken back): what is sent now was typed on a display nobody could
        read, so it acknowledges no fact held there. Once that pause has come, it is over until the next outage."""
        with self._lock:
            if self.lost:
                return True
            if self._back_at is not None and self.clock() - self._back_at >= KEPT_KEYS_PAUSE:
                self._back_at = None  # (the kept keys have ended: her own keys from here on)
            return self._back_at is not None

    def taken_back_anew(self) -> bool:
        """Whether the display was taken back from a BRLTTY started anew since the last call (`keys_gone`)."""
        with self._lock:
            anew, self.keys_gone = self.keys_gone, False
        return anew

    def close(self) -> None:
        """Stop reading keys and give the display back to BRLTTY."""
        self._stopped.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        with self._lock:
            if self._connection is not None:  # a stopped BRLTTY never answers the leaving: the closing says it
                _close(self._connection, self._brlapi, leave=not self._stalled)


def _close(connection: Any, brlapi: Any, leave: bool = True) -> None:
    """Leave TTY mode (`leave`: BrlAPI waits for BRLTTY's answer) and close a connection (which waits for nothing:
    BRLTTY takes the display back when it sees it closed), whatever state the server is in."""
    try:
        if leave:
            connection.leaveTtyMode()
    except (brlapi.OperationError, brlapi.ConnectionError, OSError):
        pass
    try:
        connection.closeConnection()
    except (brlapi.OperationError, brlapi.ConnectionError, OSError):
        pass


def press_of(code: int, brlapi: Any) -> Press | None:
    """A BrlAPI key code as the model's key, or None for a key the app does not use.

    Commands (`KEY_TYPE_CMD`): panning, the line keys, top and bottom, the previous and next region (BRLTTY's
    "different line" keys), routing keys, dots typed, INFO (whose turn), HELP (the display's keys), ATTRDN (the next
    move waiting unread: BRLTTY's "next highlighted line"); symbols
    (`KEY_TYPE_SYM`): a character typed on the display's keyboard, Backspace, Enter."""
    from assistant.core.braille.display import Key, Press

    kind = code & brlapi.KEY_TYPE_MASK
    if kind == brlapi.KEY_TYPE_CMD:
        block = code & brlapi.KEY_CMD_BLK_MASK
        argument = code & brlapi.KEY_CMD_ARG_MASK
        if block == brlapi.KEY_CMD_ROUTE:
            return Press(Key.ROUTE, argument)
        if block == brlapi.KEY_CMD_PASSDOTS:
            return Press(Key.DOTS, argument & 0xFF)
        if block:
            return None
        commands = {
            brlapi.KEY_CMD_FWINLT: Key.PAN_LEFT,
            brlapi.KEY_CMD_FWINRT: Key.PAN_RIGHT,
            brlapi.KEY_CMD_LNUP: Key.LINE_UP,
            brlapi.KEY_CMD_LNDN: Key.LINE_DOWN,
            brlapi.KEY_CMD_TOP: Key.TOP,
            brlapi.KEY_CMD_TOP_LEFT: Key.TOP,
            brlapi.KEY_CMD_BOT: Key.BOTTOM,
            brlapi.KEY_CMD_BOT_LEFT: Key.BOTTOM,
            brlapi.KEY_CMD_PRDIFLN: Key.REGION_PREVIOUS,
            brlapi.KEY_CMD_NXDIFLN: Key.REGION_NEXT,
            brlapi.KEY_CMD_PRPGRPH: Key.REGION_PREVIOUS,
            brlapi.KEY_CMD_NXPGRPH: Key.REGION_NEXT,
            brlapi.KEY_CMD_PRPROMPT: Key.REGION_PREVIOUS,
            brlapi.KEY_CMD_NXPROMPT: Key.REGION_NEXT,
            brlapi.KEY_CMD_INFO: Key.WHERE,
            brlapi.KEY_CMD_HOME: Key.WHERE,
            brlapi.KEY_CMD_HELP: Key.HELP,
            brlapi.KEY_CMD_ATTRDN: Key.NEXT_UNREAD,
        }
        key = commands.get(argument)
        return Press(key) if key is not None else None
    if kind == brlapi.KEY_TYPE_SYM:
        symbol = code & brlapi.KEY_CODE_MASK
        if symbol == brlapi.KEY_SYM_BACKSPACE or symbol in (0x08, 0x7F):
            return Press(Key.BACKSPACE)
        if symbol in (brlapi.KEY_SYM_LINEFEED, 0x0D, 0x0A):
            return Press(Key.ENTER)
        if symbol < 0x100:
            character = chr(symbol)
            return Press(Key.CHARACTER, character) if character.isprintable() else None
        if symbol & 0xFF000000 == brlapi.KEY_SYM_UNICODE:
            character = chr(symbol & 0xFFFFFF)
            return Press(Key.CHARACTER, character) if character.isprintable() else None
    return None
