"""The logs of asyncio and aiohttp kept off the player's terminal while the table is shared: each record goes to the
crash log (a callable the front end gives: the server never imports storage), a few a minute at most, the rest
counted and the count written with the next one kept. Nothing is ever printed: a flood of failed connections once
wrote hundreds of thousands of traceback lines over the app's screen, and into the screen reader.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable

__all__ = ["LOGGERS", "CrashLogHandler", "LoggedProblem"]

#: The loggers kept off the terminal.
LOGGERS = ("asyncio", "aiohttp")
#: Records written to the crash log in `LOG_WINDOW` seconds; those beyond are counted, not written.
MOST_LOGGED, LOG_WINDOW = 5, 60.0


class LoggedProblem(Exception):
    """A record of asyncio's or aiohttp's log, as the crash log keeps it (its exception, if any, as the cause)."""


class CrashLogHandler(logging.Handler):
    """A handler of the loggers in `LOGGERS` that hands each record to `sink` as a `LoggedProblem`, at most
    `MOST_LOGGED` in `LOG_WINDOW` seconds of `clock`."""

    def __init__(self, sink: Callable[[BaseException], object] | None, clock: Callable[[], float]) -> None:
        super().__init__(logging.WARNING)
        self.sink = sink
        self.clock = clock
        self.left_out = 0
        """Records not written since the last one that was."""
        self._written: deque[float] = deque(maxlen=MOST_LOGGED)

    def install(self) -> None:
        """Take over the loggers: their records come here, and never reach the terminal."""
        for name in LOGGERS:
            logger = logging.getLogger(name)
            logger.addHandler(self)
            logger.propagate = False

    def remove(self) -> None:
        """Give the loggers back (as they were once no handler of this kind is left on them)."""
        for name in LOGGERS:
            logger = logging.getLogger(name)
            logger.removeHandler(self)
            if not any(isinstance(handler, CrashLogHandler) for handler in logger.handlers):
                logger.propagate = True

    def emit(self, record: logging.LogRecord) -> None:
        if self.sink is None or _client_gone(record):
            return
        now = self.clock()
        if len(self._written) == MOST_LOGGED and now - self._written[0] < LOG_WINDOW:
            self.left_out += 1
            return
        self._written.append(now)
        try:  # never `handleError`, which prints to the terminal
            text = f"{record.name}: {record.getMessage()}"
            if self.left_out:
                text += f" ({self.left_out} more records left out before this one)"
                self.left_out = 0
            problem = LoggedProblem(text)
            if record.exc_info is not None and record.exc_info[1] is not None:
                problem.__cause__ = record.exc_info[1]
            self.sink(problem)
        except Exception:  # a record that cannot be written, or the crash log failing: still nothing is printed
            return


def _client_gone(record: logging.LogRecord) -> bool:
    """The record tells only that a phone closed its connection while it was answered (a tab closed, the Wi-Fi
    lost): no problem of the app, and nothing for the crash log."""
    error = record.exc_info[1] if record.exc_info else None
    return isinstance(error, ConnectionError) or record.getMessage().startswith("socket.send() raised exception")
