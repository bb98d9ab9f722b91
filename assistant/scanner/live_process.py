"""The live scanner in a process of its own, so that a camera's work never takes the app's interpreter.

In the app's process, the camera's work held the interpreter: the webcam's reader thread, each frame's first pass
and the sightings, and (the background stage's own process having never started under Textual, `_real_stderr`) its
retries too. A key then waited for it, and the event loop stalled up to a tenth of a second at a reply. Here the
whole `LiveScanner` (the camera, the frame path, and its background stage in a process of its own) runs in a child
started with the 'spawn' method, and the app's process only relays what it reports:

- **events**: each event the scanner reports (`live.LiveEvent`, all plain data) comes back through a pipe; `run`,
  on the caller's thread (the app's camera thread), hands each one to `report` as it arrives;
- **decks**: the decks in play, whose labels a code too hidden to decode is matched against
  (`known.KnownLabels`), are sent when they change (`run` looks every `DECKS_EVERY` seconds);
- **quiet**: `quiet` asks the child's scanner for its quiet (`LiveScanner.quiet`) while the app makes a reply;
- **work done**: the child says how many frames its background stage has worked on as the count grows (looked at
  every `JOBS_EVERY` seconds); `jobs` holds it and `worked` is told it, so a caller can wait on the child's work
  (a test on the decks in play waits for the child's jobs on the wrong deck, not for a length of time);
- **never waiting on the child**: every message goes through a short queue that a thread of its own sends from, so
  a child that reads nothing (stopped with SIGSTOP, or hung) never blocks a reply: once the queue is full, a message
  is dropped (`dropped` counts them), never waited for. On `stop` the child has `GRACE` seconds to close its camera
  and background stage, and is then killed with SIGKILL, which also ends a stopped child (SIGTERM waits for it to
  be continued), so quitting never waits on it;
- **priority**: the child runs at `NICENESS`, so that on a busy machine a reply's speech and screen go before a
  frame; its worker process at `WORKER_NICENESS`, below the app and the player's other programs but above the
  frame loop (started before the child lowers its own priority: a process may lower a priority, not raise it).
  At the frame loop's niceness, with both cores busy, the worker had a tenth of a core: a still's job did not end
  within its hold, and the thread stage read more;
- **OpenCV's threads**: the child sets them as it starts (`budget.OPENCV_THREADS`, one: its calls are too small for
  a pool) and says how many it has (`opencv_threads`);
- **frames**: the child says how many frames its scanner has handled, and how many of the camera's it converted or
  skipped (`camera_frames`), as they change (looked at every `JOBS_EVERY` seconds); `frames` holds them and
  `counted` is told them, so a test waits on the child's frames, not for a length of time;
- **an unexpected end** (a decoder library that crashed, the child killed): the player is told
  (`SCANNER_RESTARTED`) and the child is started again, at most `RESTARTS` times within `RESTART_WINDOW` seconds
  (before, within the session: three ends spread over an hour stopped scanning for good); past that, scanning stops
  with the reason (`camera_failed`) and typing carries on, and after `REST` seconds a child is started again, its
  ends counted afresh: once it handles a frame, the player is told scanning is back (`SourceBack`, said once). A
  crash in a native library no longer takes the app with it.

The camera opener must be one that can be sent to another process (`live.camera_opener` with OpenCV's capture,
`sources.clip_opener`); `sendable` says whether it is. Where it is not (a test's stand-in camera) or no process
can start, the app's camera thread runs the scanner itself (`ui.camera.CameraWorker`).
"""

from __future__ import annotations

import atexit
import contextlib
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from assistant.core.cards.card import Deck
from assistant.core.words.scans import SCANNER_RESTARTED, camera_failed
from assistant.scanner.events import LiveEvent, SourceBack, SourceLost
from assistant.scanner.known import decks_key
from assistant.scanner.sources import FrameSource

#: Times a child that ended unexpectedly is started again within `RESTART_WINDOW` seconds before scanning is given up.
RESTARTS = 3
#: Seconds over which the child's unexpected ends are counted (a minute: ends further apart are never given up on).
RESTART_WINDOW = 60.0
#: Seconds scanning rests once given up, before a child is started again (its ends counted afresh).
REST = 60.0
#: Seconds between looks at the decks in play (a change is sent to the child).
DECKS_EVERY = 0.5
#: The child's niceness: a busy machine serves the app first.
NICENESS = 10
#: The child's worker process's niceness: below the app, above the frame loop, whose first passes are cheap.
WORKER_NICENESS = 5
#: Messages waiting to be sent to the child; more are dropped (a child that reads nothing never blocks a reply).
WAITING_MESSAGES = 16
#: Seconds a stopping child has to close its camera and background stage before it is killed.
GRACE = 2.0
#: Seconds between the child's looks at its background stage's count of jobs (a change is sent to the parent).
JOBS_EVERY = 0.25


def sendable(open_source: Callable[[], FrameSource]) -> bool:
    """True when `open_source` can be sent to another process (a function of a module, not a closure)."""
    import pickle

    try:
        pickle.dumps(open_source)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


class LiveProcess:
    """A `LiveScanner` in a child process (see the module docstring): `start`, then `run` on a thread of the
    caller's until `stop`."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        report: Callable[[LiveEvent], None],
        decks: Callable[[], Sequence[Deck]] | None = None,
        worked: Callable[[int], None] | None = None,
        counted: Callable[[tuple[int, int, int]], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        repeat: float = 0,
    ):
        """`report` is called on `run`'s thread; `decks`: the decks in play, asked for on that thread too; `worked`:
        told on that thread the child's count of background jobs each time it grows (`jobs`); `counted`: told there
        the child's counts of frames as they change (`frames`); `clock`: the seconds its ends are counted over;
        `repeat`: seconds after which the child's scanner says a card lying still again (`LiveScanner`'s, the
        settings' `scan_repeat`)."""
        self.open_source = open_source
        self.report = report
        self.decks = decks or (lambda: ())
        self.worked = worked or (lambda jobs: None)
        self.counted = counted or (lambda frames: None)
        self.clock = clock
        self.repeat = repeat
        self.jobs = 0
        """Frames the current child's background stage has worked on, as it last said."""
        self.frames = (0, 0, 0)
        """The current child's frames handled by its scanner, and those of its camera converted and skipped
        (`camera_frames.FrameCheck`), as it last said."""
        self.opencv_threads: int | None = None
        """OpenCV's threads in the current child, as it said on starting (`budget.OPENCV_THREADS`; None: not yet)."""
        self.restarts = 0
        """Times the child was started again after ending unexpectedly (in the session)."""
        self.given_up = 0
        """Times scanning was given up (more than `RESTARTS` ends within `RESTART_WINDOW` seconds)."""
        self._ends: list[float] = []
        self._back_to_say = False
        self.dropped = 0
        """Messages dropped because the child read none of those waiting (`WAITING_MESSAGES`)."""
        self._process: Any = None
        self._conn: Any = None
        self._outbox: queue.Queue[tuple | None] | None = None
        self._decks_key: tuple | None = None
        self._send_lock = threading.Lock()
        self._ending = threading.Lock()
        """Held while a child is ended: `stop` returns only once the child is gone, whichever thread took it."""
        self._stopping = threading.Event()

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        return self._process.pid if self._process is not None else None

    def start(self) -> bool:
        """Start the child; False when it cannot be started (the caller scans on its own thread instead)."""
        try:
            import multiprocessing

            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe()
            decks = tuple(self.decks())
            # Not a daemon: a daemon may not start the background stage's own process. `stop` ends it, at exit too
            # (registered after multiprocessing's own exit handler, so it runs first): killed after `GRACE` seconds,
            # the child is never left for that handler, which waits on a child with no time limit.
            process = context.Process(target=_child, args=(child, self.open_source, decks, self.repeat), name="scanner")
            with _real_stderr():
                process.start()
            child.close()
        except (OSError, ValueError, RuntimeError, ImportError):
            return False
        outbox: queue.Queue[tuple | None] = queue.Queue(WAITING_MESSAGES)
        threading.Thread(target=_sending, args=(parent, outbox), name="scanner-sends", daemon=True).start()
        self._process, self._conn, self._outbox = process, parent, outbox
        self.jobs, self.frames = 0, (0, 0, 0)
        self._decks_key = decks_key(decks)
        atexit.register(self.stop)
        return True

    def run(self) -> None:
        """Hand each event the child reports to `report` until `stop`; start the child again when it ends
        unexpectedly (said), at most `RESTARTS` times within `RESTART_WINDOW` seconds; past that the reason is said,
        and scanning rests `REST` seconds before a child is started again (said once it handles a frame)."""
        while True:
            failure = self._relay()
            self._end_child()  # (also one started as `stop` came)
            if self._stopping.is_set():
                return
            now = self.clock()
            self._ends = [*(end for end in self._ends if now - end < RESTART_WINDOW), now]
            given_up = len(self._ends) > RESTARTS
            if not given_up:
                self.restarts += 1
                self.report(SourceLost(SCANNER_RESTARTED))
            else:
                self.given_up += 1
                self._ends = []
                self.report(SourceLost(camera_failed(failure)))
                if self._stopping.wait(REST):
                    return
                self._back_to_say = True
            if not self.start():
                break
        if not given_up:  # (given up, the reason was said already)
            self.report(SourceLost(camera_failed(failure)))

    def _relay(self) -> str:
        """Relay the child's events until its pipe ends (or `stop`); what ended it (the exception's kind the child
        sent, or its exit code)."""
        conn, failure = self._conn, ""
        while conn is not None and not self._stopping.is_set():
            try:
                self._send_decks()
                if not conn.poll(DECKS_EVERY):
                    continue
                message = conn.recv()
            except (EOFError, OSError):
                break
            if message[0] == "event":
                self._say_back()  # (an event comes from a frame handled: scanning is back before what it says)
                self.report(message[1])
            elif message[0] == "jobs":
                self.jobs = message[1]
                self.worked(message[1])
            elif message[0] == "frames":
                self._counted(message[1])
            elif message[0] == "threads":
                self.opencv_threads = message[1]
            elif message[0] == "failed":
                failure = message[1]
        if not failure and self._process is not None and not self._stopping.is_set():
            self._process.join(2.0)
            failure = f"exit code {self._process.exitcode}"
        return failure

    def _counted(self, frames: tuple[int, int, int]) -> None:
        """The child's counts of frames (`frames`); scanning said to be back at its first frame handled after it was
        given up."""
        self.frames = frames
        if frames[0] > 0:
            self._say_back()
        self.counted(frames)

    def _say_back(self) -> None:
        """Scanning said to be back (`SourceBack`), once, at the child's first frame handled after it was given up."""
        if self._back_to_say:
            self._back_to_say = False
            self.report(SourceBack())

    def _send_decks(self) -> None:
        decks = tuple(self.decks())
        key = decks_key(decks)
        if key != self._decks_key and self._send(("decks", decks)):
            self._decks_key = key

    def quiet(self, seconds: float) -> None:
        """Ask the child's scanner to handle no frame for `seconds` from now (`LiveScanner.quiet`; any thread)."""
        self._send(("quiet", seconds))

    def _send(self, message: tuple) -> bool:
        """Queue a message for the child, never waiting; False when it was dropped (or there is no child)."""
        with self._send_lock:
            if self._outbox is None:
                return False
            try:
                self._outbox.put_nowait(message)
            except queue.Full:
                self.dropped += 1
                return False
            return True

    def stop(self) -> None:
        """Stop the child (it closes the camera and its background stage first, or is killed after `GRACE`
        seconds); `run` then returns. Any thread; called again at exit."""
        self._stopping.set()
        self._send(("stop",))
        self._end_child()
        atexit.unregister(self.stop)

    def _end_child(self) -> None:
        """End the child (the relay thread, its pipe ended or `stop` set, or `stop` itself, whichever comes first);
        a second caller waits until the first has ended it (before, `stop` found no child and returned while the
        relay thread still waited on one slow to close)."""
        with self._ending:
            with self._send_lock:
                process, conn, outbox = self._process, self._conn, self._outbox
                self._process = self._conn = self._outbox = None
            if outbox is not None:
                with contextlib.suppress(queue.Full):  # (full: its sends fail once the child has ended)
                    outbox.put_nowait(None)  # the sending thread ends after what waits
            if process is not None:
                process.join(GRACE)
                if process.is_alive():
                    process.kill()  # SIGKILL: a child stopped with SIGSTOP ends too
                    process.join(GRACE)
            if conn is not None:
                conn.close()


def _sending(conn: Any, outbox: queue.Queue[tuple | None]) -> None:
    """Send each message of `outbox` to the child until None (a send waits while the child reads nothing: only this
    thread waits then)."""
    while (message := outbox.get()) is not None:
        try:
            conn.send(message)
        except (OSError, ValueError):
            return  # the child has ended (or its pipe was closed): `run` finds its pipe closed


@contextlib.contextmanager
def _real_stderr() -> Iterator[None]:
    """The process's own standard error as `sys.stderr` meanwhile: a Textual app puts a stand-in there whose
    descriptor is -1, and the first process started hands `sys.stderr`'s descriptor to multiprocessing's resource
    tracker, which then cannot start (a ValueError)."""
    saved = sys.stderr
    sys.stderr = sys.__stderr__ or saved
    try:
        yield
    finally:
        sys.stderr = saved


def set_priorities(stage: Any) -> None:
    """Once the worker process has started (`ProcessStage.started`, on the first frame it is offered), at this
    process's priority: the worker lowered to `WORKER_NICENESS`, then this process to `NICENESS`. A process may lower
    a priority, never raise it: a worker started after this process lowered its own would be as nice as the frame
    loop, or nicer."""
    import os

    from assistant.scanner.stage_process import lower_priority

    lower_priority(stage, WORKER_NICENESS)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)


def _child(conn: Any, open_source: Callable[[], FrameSource], decks: Sequence[Deck], repeat: float = 0) -> None:
    """The child: the scanner on this process's main thread, the parent's messages read on another; OpenCV's threads
    set first (`budget.use_opencv_threads`) and said to the parent ("threads")."""
    _silenced()
    from assistant.scanner.budget import use_opencv_threads
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.known import KnownLabels
    from assistant.scanner.live import LiveScanner
    from assistant.scanner.stage_process import ProcessStage

    in_play = [decks]
    lock = threading.Lock()

    def send(message: tuple) -> None:
        with lock:
            try:
                conn.send(message)
            except (OSError, ValueError):
                pass  # the parent has gone: the listener stops the scanner

    send(("threads", use_opencv_threads()))
    known = KnownLabels(lambda: in_play[0])
    stage = ProcessStage(known=known, started=set_priorities)
    # Each frame's budget on the thread's CPU time (`budget.budget_clock`), every retry in the stage's process.
    scanner = LiveScanner(
        open_source,
        lambda event: send(("event", event)),
        cascade=Cascade(clock=None),
        background=stage,
        repeat=repeat,
    )

    def listen() -> None:
        said, counts = 0, (0, 0, 0)  # the stage's jobs and the frames' counts the parent has been told of
        while True:
            try:
                if stage.jobs != said:
                    said = stage.jobs
                    send(("jobs", said))
                if _counts(scanner) != counts:
                    counts = _counts(scanner)
                    send(("frames", counts))
                if not conn.poll(JOBS_EVERY):
                    continue
                message = conn.recv()
            except (EOFError, OSError):
                break  # the parent has gone
            if message[0] == "stop":
                break
            if message[0] == "quiet":
                scanner.quiet(message[1])
            elif message[0] == "decks":
                in_play[0] = message[1]
        scanner.stop()

    threading.Thread(target=listen, name="scanner-messages", daemon=True).start()
    try:
        scanner.run()
    except Exception as exc:  # said by the parent, which starts the scanner again
        send(("failed", exc.__class__.__name__))
    finally:
        conn.close()


def _counts(scanner: Any) -> tuple[int, int, int]:
    """The frames `scanner` has handled, and those converted and skipped by it and by its camera as now opened."""
    checks = [scanner.frames, getattr(scanner.source, "frames", None)]
    return (
        scanner.handled,
        sum(check.converted for check in checks if check is not None),
        sum(check.skipped for check in checks if check is not None),
    )


def _silenced() -> None:
    """The child's output and errors to nothing: it shares the app's terminal, where a line of its own would be
    drawn over the app's screen (and read by a screen reader or braille display)."""
    import os

    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        os.close(quiet)
    except OSError:
        pass
