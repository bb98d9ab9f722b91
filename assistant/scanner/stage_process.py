"""The background stage's host: its worker in a process of its own, or on a thread where no process starts.

On a thread the worker's Python holds the interpreter's lock, and each of the frame loop's OpenCV and zxing-cpp calls
must wait for it when it returns: a frame's wall time then exceeds its CPU time by several milliseconds. So the worker
(`_child`: `BackgroundStage.work`, the region search, the aiming measurement) runs in a child process started with
the 'spawn' method (the same on Linux, macOS and Windows; no copy of the app's threads); where none can start (no
shared memory, a sandbox without processes), or `thread` asks for it, the same `_child` runs on a thread, its pipe a
pair of queues (`_ThreadPipe`) and its ring plain memory (`_LocalMemory`). Either way one scheduler
(`schedule.JobSchedule`) decides what the worker is handed, so both hosts give the same reads, each at its pace:

- **frames**: every frame the live loop remembers is copied into a ring of `SLOTS` frames in shared memory (one
  copy, well under a millisecond at 720p), each slot headed by its frame's index and the live loop's number for its
  picture; a job names the slots of its frame and of the frames before it (for the average and the check on a
  second frame), and the child copies them out at once, dropping a job whose slots were overwritten meanwhile
  (checked by the index in each slot's head); when the frame size changes, a new ring is made and the old one kept
  until the child says it has opened a newer one (a message on its way may still name it: unlinked, it could not be
  opened, and the child would die);
- **jobs**: handed out by the schedule (one at a time, the latest frame wins, a picture gone or done with dropped,
  an aiming request first but never twice in a row while a job is due). A job whose cascade reads nothing on its
  frame takes each slow step to the newest frame in the ring where the picture has moved on since (`_Newest`). The
  worker runs at the priority of the process that started it, no lower (the scanner's child, niced already in the
  app), and the live loop stands in for a job it has not begun in time (`live.STAND_IN_AFTER`);
- **the region search**: a job offered without regions (the live loop leaves the search to the child while it
  runs) is searched here (`measure.find_code_regions`), and the first region found comes back with the job's
  results (`region`: the live loop meters the exposure on it);
- **results**: the reads, whether a finger covers a corner, and whether a still picture showed no sign of a code
  come back through a pipe, collected by `take`;
- **decks**: the labels of the decks in play are sent when they change (the child keeps its own `KnownLabels`);
- **aiming**: the aiming measurement's heavy parts (`measure.measure_view`: the card search, the close-up search,
  sharpness, burnt-out patches; and the motion check against the last frame measured) run here too, on the frame
  the live loop names (`aim`); its view comes back as a message (`take_view`), and the live loop turns it into a
  cue.

The worker is started at the first frame (`start`), stopped when the scanner closes (`stop`). Tests that inject
clocks keep using `BackgroundStage`, which does the same work in the caller's thread.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from assistant.scanner.background import AVERAGE_FRAMES, BackgroundRead, BackgroundStage, job_stage
from assistant.scanner.budget import opencv_threads, use_opencv_threads
from assistant.scanner.known import decks_key
from assistant.scanner.schedule import JobSchedule

if TYPE_CHECKING:
    from cv2.typing import MatLike

    from assistant.core.scanning.aiming import FrameView
    from assistant.scanner.known import KnownLabels

#: How often (seconds) Python lets another thread take the interpreter's lock while a worker thread runs: the default
#: 5 ms is how long the frame loop may wait for it after each OpenCV or zxing-cpp call while the worker's Python
#: runs; 1 ms cuts that wait (a process-wide setting, made when the worker's thread starts).
SWITCH_INTERVAL = 0.001
#: Frames in the shared ring: the job's own and `AVERAGE_FRAMES` before it, with room for the frames that arrive
#: while the child copies them out.
SLOTS = AVERAGE_FRAMES + 8
#: Bytes at the head of each slot: the frame's index and the live loop's number for the picture it shows (-1: none
#: given), signed 64-bit integers.
HEAD = 16
#: The rest after a job before another frame of the same picture, as a share of the job's CPU time: none, as the
#: child, niced and in a process of its own, shares neither the interpreter's lock nor (where cores are busy) a core
#: the frame loop wants, and a card coming in or held unread is tried again at once. With the thread's rest
#: (`background.REST`, as long as the job took) the worker tried half as many frames, and announced fewer hand clips
#: than the thread stage, whose frame path retries on every frame. Idle, a still picture's jobs are counted
#: (`live.IDLE_JOBS`), so the rest costs an empty table nothing.
CHILD_REST = 0.0


def _from_schedule(name: str) -> Any:
    """A property of `ProcessStage`: what the worker said, as its schedule holds it (`background.Stage`)."""
    return property(lambda stage: getattr(stage.schedule, name))


class ProcessStage:
    """The background stage's host: its worker in a child process, or on a thread where no process starts (or
    `thread` asks for one), scheduled by one `schedule.JobSchedule` either way (see the module docstring)."""

    def __init__(
        self,
        known: KnownLabels | None = None,
        rest: float = CHILD_REST,
        clock: Callable[[], float] = time.monotonic,
        started: Callable[[ProcessStage], None] | None = None,
        thread: bool = False,
    ):
        """`known`: the labels of the decks in play (their decks are sent to the worker when they change). `clock`:
        the seconds the rest after a job is counted on (a test's frames' clock). `started`: called once the worker has
        started (the scanner's child then sets the priorities). `thread`: the worker on a thread from the start."""
        self.known = known
        self.started = started
        self.schedule = JobSchedule(rest, clock)
        """What the worker is handed next, and what its answers say (the one scheduler of either host)."""
        self.failed = False
        """True when the worker's process could not be started and a thread works instead."""
        self.thread = thread
        self._process: Any = None
        """The worker: its process, or its thread (`failed` or `thread`)."""
        self._conn: Any = None
        self._poller: Any = None  # `select.poll` on the pipe from the child (`_readable`)
        self._frames = SharedRing()
        """The frames the live loop remembered, in memory the worker reads (this side of it)."""
        self._decks_key: tuple | None = None
        self._lock = threading.Lock()
        self.opencv_threads: int | None = None
        """OpenCV's threads where the worker runs, as it said on starting (its process's: `budget.OPENCV_THREADS`;
        on a thread, those of the process it shares; None: not yet)."""

    jobs = _from_schedule("jobs")
    """Frames worked on so far."""
    looks = _from_schedule("looks")
    """Frames of a still picture looked at and found without any sign of a code."""
    aims = _from_schedule("aims")
    """Aiming measurements the worker has finished."""
    no_code = _from_schedule("no_code")
    """The last still picture in which no sign of a code was found."""
    no_finder = _from_schedule("no_finder")
    """The last still picture whose job read nothing and showed no finder pattern."""
    finger_over = _from_schedule("finger_over")
    """A finger covered a corner of the code in the last frame finished."""
    region = _from_schedule("region")
    """The first code-like region of the last frame the worker worked on (None: none)."""

    @property
    def begun(self) -> int:
        """Jobs the worker has begun (it says so as it takes one), looks included (`background.Stage.begun`)."""
        self._poll()
        return self.schedule.begun

    @property
    def ended(self) -> int:
        """Jobs the worker has ended, looks included (`background.Stage.ended`)."""
        self._poll()
        return self.schedule.ended

    labels = BackgroundStage.labels
    """The decks in play's key (`known.decks_key`; empty without known labels)."""

    @property
    def retries_elsewhere(self) -> bool:
        """True while the worker runs: the live loop then leaves every retry, the region search and the aiming
        measurement to it and does only the first pass, whichever host it has."""
        return self._process is not None

    running = retries_elsewhere

    def start(self) -> None:
        """Start the worker, in a child process (or on a thread: `thread`, or no process starts); then `started`."""
        if self._process is not None:
            return
        spawned = None if self.thread else _spawned()
        if spawned is None:
            self.failed = self.failed or not self.thread
            parent, child = _ThreadPipe.pair()
            spawned = threading.Thread(target=_child, args=(child,), name="scanner-background", daemon=True), parent
            sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
            spawned[0].start()
        self._frames.local = isinstance(spawned[0], threading.Thread)
        self._process, self._conn = spawned
        self._poller = None
        self.schedule.with_worker = True  # until the worker says it is ready (its imports and the labels made)
        try:
            self._send_decks(always=True)
        except (OSError, BrokenPipeError):
            self._stop_child()
        started, self.started = self.started, None
        if started is not None:
            started(self)

    def busy(self) -> bool:
        """True while a frame is being worked on or waits for its turn."""
        return self.schedule.busy()

    def remember(self, index: int, gray: MatLike, picture: int | None = None) -> None:
        """Copy a frame into the ring (the live loop calls it for every frame); a job waiting for a still picture
        other than `picture` (the one in view) is dropped, never sent (see `background.Stage.remember`)."""
        if self._process is None:
            return
        self.schedule.remember(picture)
        try:
            self._frames.put(index, gray, picture, self._conn.send)
        except (OSError, ValueError, BrokenPipeError):  # no new ring could be made or named to the child
            self._stop_child()
            if not self.thread:  # no shared memory: the worker goes on a thread, with plain memory for its ring
                self.failed = self.thread = True
                self.start()

    def offer(
        self,
        index: int,
        gray: MatLike,
        regions: Iterable[tuple[int, int, int, int]] | None,
        picture: int | None = None,
    ) -> None:
        """Give the stage the latest frame the live loop could not finish (it must have been remembered);
        `regions` None: the worker searches for them; `picture` as for `BackgroundStage.offer`."""
        if self._process is None:
            return
        self.schedule.offer(index, None if regions is None else list(regions), picture)
        self._send_waiting()

    def aim(self, index: int, region: tuple[int, int, int, int] | None, squareness: float | None) -> None:
        """Ask for the aiming measurement of frame `index` (it must have been remembered), on the code-like region
        the frame path found (None: none) and its squareness; its view comes back through `take_view`."""
        if self._process is None:
            return
        self.schedule.aim(index, region, squareness)
        self._send_waiting()

    def looking(self, picture: int) -> bool:
        """True while still picture `picture` has been offered for its look and the verdict (signs of a code or
        none) has not come back: the live loop then gives its frames the first pass only."""
        if self._process is None or not self.schedule.looking(picture):
            return False
        self._poll()
        return self.schedule.looking(picture)

    def take_view(self) -> tuple[FrameView, bool] | None:
        """The newest aiming measurement the worker has finished since the last call, and whether the picture moved
        since the frame measured before it; None when none has come."""
        self._poll()
        return self.schedule.take_view()

    def _send_waiting(self) -> None:
        if self._conn is None:
            return
        message = self.schedule.next(self._frames.slots)
        if message is None:
            return
        try:
            if message[0] == "job":
                self._send_decks()
            self._conn.send(message)
        except (OSError, BrokenPipeError):
            self._stop_child()

    def _send_decks(self, always: bool = False) -> None:
        decks = tuple(self.known.decks()) if self.known is not None else ()
        key = decks_key(decks)
        if always or key != self._decks_key:
            self._conn.send(("decks", decks))
            self._decks_key = key

    def take(self, index: int) -> list[BackgroundRead]:
        """The reads the worker has finished (each given once)."""
        self._poll()
        return self.schedule.take()

    def _poll(self) -> None:
        """Read every message the worker has sent (for the schedule, and the ring's for the ring), and send it what
        waits when it is ready."""
        conn = self._conn
        try:
            while conn is not None and self._readable(conn):
                message = conn.recv()
                if message[0] == "ring":
                    self._frames.moved_on(message[1])
                elif message[0] == "threads":
                    self.opencv_threads = message[1]
                else:
                    self.schedule.received(message)
        except (EOFError, OSError):
            self._stop_child()
        self._send_waiting()

    def _readable(self, conn: Any) -> bool:
        """True when the worker has sent something (or gone). The pipe's own `poll` builds a selector on every call, a
        tenth of a millisecond a frame while a table stands idle; one `select.poll` kept for the pipe (where there is
        one, as on Linux and macOS) asks in a few microseconds."""
        if self._poller is None:
            import select

            if not hasattr(select, "poll") or not hasattr(conn, "fileno"):
                return bool(conn.poll())
            self._poller = select.poll()
            self._poller.register(conn.fileno(), select.POLLIN)
        return bool(self._poller.poll(0))

    def stop(self) -> None:
        """Stop the worker (it finishes the frame it works on first, or a process is ended after two seconds)."""
        with self._lock:
            self._stop_child()

    def _stop_child(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = self._poller = None
        self.schedule.with_worker = False
        if conn is not None:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(("stop",))
        if process is not None:
            process.join(timeout=2.0)
            if not isinstance(process, threading.Thread) and process.is_alive():
                process.terminate()
                process.join(timeout=1.0)
        if conn is not None:
            conn.close()
        self._frames.close()


class _ThreadPipe:
    """One end of a pipe between two threads (the thread host): a `multiprocessing` connection's `send`, `recv`,
    `poll` and `close`, messages passed as they are (no copy); `recv` raises EOFError once the other end closed."""

    def __init__(self, inbox: queue.SimpleQueue[Any], outbox: queue.SimpleQueue[Any]):
        self._inbox, self._outbox = inbox, outbox
        self.send, self.close = outbox.put, lambda: outbox.put(_CLOSED)

    @classmethod
    def pair(cls) -> tuple[_ThreadPipe, _ThreadPipe]:
        """The two ends."""
        there, back = queue.SimpleQueue[Any](), queue.SimpleQueue[Any]()
        return cls(back, there), cls(there, back)

    def poll(self) -> bool:
        """True when a message (or the other end's close) waits."""
        return not self._inbox.empty()

    def recv(self) -> Any:
        """The next message, waiting for it; EOFError once the other end closed (and on every later call)."""
        message = self._inbox.get()
        if message is _CLOSED:
            self._inbox.put(message)
            raise EOFError
        return message


def _spawned() -> tuple[Any, Any] | None:
    """The worker's process, started, and the parent's end of its pipe; None when no process can start."""
    try:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(target=_process_child, args=(child,), name="scanner-background", daemon=True)
        process.start()
        child.close()
    except (OSError, ValueError, RuntimeError, ImportError):
        return None
    return process, parent


#: What a closed `_ThreadPipe` end leaves for the other end.
_CLOSED = object()


class _LocalMemory:
    """The thread host's ring: plain memory with `SharedMemory`'s `buf`, `name` (itself, handed to the worker as it
    is), `close` and `unlink` (nothing to release)."""

    def __init__(self, size: int):
        self.buf = memoryview(bytearray(size))
        self.name = self

    def close(self) -> None:
        """Nothing: the memory goes with its last reference."""

    def unlink(self) -> None:
        """Nothing: the memory goes with its last reference."""


class SharedRing:
    """The parent's side of the frames shared with the child: `SLOTS` slots of `HEAD` bytes (the frame's index and
    picture) and a grey frame each, written in turn; a new ring when the frames change size (`_Newest` reads them)."""

    def __init__(self) -> None:
        self.shm: Any = None
        self.shape: tuple[int, ...] | None = None
        self.retired: list[Any] = []  # rings replaced whose names a message on its way to the child may hold
        self.slots: deque[tuple[int, int]] = deque(maxlen=AVERAGE_FRAMES)  # (frame index, slot)
        self._next_slot = 0
        self.local = False
        """The worker is a thread: the rings are plain memory (`_LocalMemory`), not shared."""

    def put(self, index: int, gray: MatLike, picture: int | None, send: Callable[[tuple[object, ...]], None]) -> None:
        """Copy a frame into the next slot; a frame of another size first makes a new ring, named to the child with
        `send`. OSError, ValueError or BrokenPipeError when no ring can be made or named."""
        import numpy as np

        if gray.shape != self.shape:
            self._new(gray, send)
        slot = self._next_slot
        self._next_slot = (slot + 1) % SLOTS
        size = HEAD + gray.size
        view = np.ndarray((size,), np.uint8, self.shm.buf, slot * size)
        view[HEAD:] = np.asarray(gray, np.uint8).reshape(-1)
        view[:HEAD] = np.array([index, -1 if picture is None else picture], np.int64).view(np.uint8)
        self.slots.append((index, slot))

    def _new(self, gray: MatLike, send: Callable[[tuple[object, ...]], None]) -> None:
        """A ring for frames of `gray`'s shape (the first frame, or the camera changed its size)."""
        from multiprocessing import shared_memory

        if self.shm is not None:
            # Kept until the child says it has moved on to a newer ring: a job or a ring message naming this one
            # may still be on its way to it (unlinked, it could no longer be opened: the child would die).
            self.retired.append(self.shm)
            self.shm, self.shape = None, None
        size = SLOTS * (HEAD + gray.size)
        self.shm = _LocalMemory(size) if self.local else shared_memory.SharedMemory(create=True, size=size)
        send(("ring", self.shm.name, tuple(gray.shape)))
        self.shape = tuple(gray.shape)
        self.slots.clear()

    def moved_on(self, name: str) -> None:
        """The child opened ring `name`: no message on its way names a ring made before it, so those go."""
        names = [shm.name for shm in self.retired]
        gone = names.index(name) if name in names else len(names)
        for shm in self.retired[:gone]:
            _release(shm)
        del self.retired[:gone]

    def close(self) -> None:
        """Release every ring, the one in use and those retired."""
        for shm in [*self.retired, self.shm]:
            if shm is not None:
                _release(shm)
        self.retired.clear()
        self.shm = None
        self.shape = None


def lower_priority(stage: ProcessStage, by: int) -> None:
    """Make `stage`'s worker `by` nicer than it is (a thread where it has a niceness of its own, as on Linux; nothing
    where the system has no niceness). A process may always lower a priority of its own user's: the scanner's child
    starts its worker before lowering its own, so the worker can stand above it (`live_process.WORKER_NICENESS`)."""
    import os

    worker = stage._process
    pid = getattr(worker, "native_id" if isinstance(worker, threading.Thread) else "pid", None)
    if pid is None or not hasattr(os, "setpriority"):
        return
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, pid, os.getpriority(os.PRIO_PROCESS, pid) + by)


def _process_child(conn: Any) -> None:
    """The worker's process: OpenCV's threads set for it (`budget.use_opencv_threads`; a thread host's are its
    process's, the scanner's child's), then `_child`."""
    use_opencv_threads()
    _child(conn)


def _child(conn: Any) -> None:
    """The child's loop: take a job, copy its frames out of the ring, work, send the reads, say ready (with the
    CPU seconds the job took: the parent rests)."""
    import numpy as np

    from assistant.scanner.background import Job
    from assistant.scanner.known import KnownLabels
    from assistant.scanner.measure import find_code_regions

    # The child keeps the niceness of the process that started it, which may lower it (`lower_priority`: in the app
    # the scanner's child sets it to `live_process.WORKER_NICENESS`, above its own): it used to add
    # `background.NICENESS` to it, 19 in all, the least a process can have, and on a busy machine it got no core (0
    # to 5 jobs across 69 stills held). The frame loop stands in for a job the child has not begun or ended in time
    # (`live.STAND_IN_AFTER`).
    decks: list = [()]
    stage = job_stage(KnownLabels(lambda: decks[0]))
    aiming = _Aiming()
    shm: Any = None
    shape: tuple[int, ...] = ()
    try:
        first = conn.recv()  # the decks in play, sent right after the start
        if first[0] == "stop":
            return
        if first[0] == "decks":
            decks[0] = first[1]
            stage.known.prepare()  # type: ignore[union-attr]
        conn.send(("threads", opencv_threads()))
        conn.send(("ready", 0.0))
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return
            if message[0] == "stop":
                return
            if message[0] == "ring":
                shm, shape = _opened(shm, message[1]), message[2]
                conn.send(("ring", message[1]))  # the parent may now let the rings before it go
                continue
            if message[0] == "decks":
                decks[0] = message[1]
                stage.known.prepare()  # type: ignore[union-attr]
                continue
            started = time.thread_time()
            if message[0] == "aim":
                _, index, slot, region, squareness = message
                frames = _copied(shm, shape, [(index, slot)], np) if shm is not None else None
                if frames is not None:
                    conn.send(("view", index, *aiming.measure(frames[0][1], region, squareness)))
            else:
                _, index, slots, regions, picture = message
                conn.send(("began", index))  # the live loop stands in for a job not begun in time (`live.STAND_IN`)
                ring = _Newest(shm, shape)
                # A still picture's job (its look first) goes on the newest frame of the ring: the frame offered is
                # one of the picture's first, where a card coming to rest may still be blurred, and the look's verdict
                # on it holds for the whole picture (no sign of a code: no job until something moves).
                job = ring.job(index, picture) if picture is not None else None
                frames = _copied(shm, shape, slots, np) if job is None and shm is not None else None
                if frames is not None:
                    ring.worked_on(*slots[-1])
                    gray = frames[-1][1]
                    found = regions if regions is not None else find_code_regions(gray)
                    job = Job(index, gray, found, frames, picture=picture)
                if job is not None:
                    _work(conn, stage, job, ring.moved_on)
            conn.send(("ready", time.thread_time() - started))
    finally:
        if shm is not None:
            shm.close()
        conn.close()


def _work(conn: Any, stage: BackgroundStage, job: Any, newest: Callable[[Any, Any], Any] | None = None) -> None:
    """One job in the child: the look's verdict sent as soon as it is known (`seen`), then the reads and the job's
    first region (None: none). `newest`: the ring's newest frame as a job, when later than the frame worked on and
    the picture has moved on since (`_Newest.moved_on`)."""
    jobs = stage.jobs

    def seen(shows: bool) -> None:
        conn.send(("seen", job.picture, shows))  # before the whole frame's scan or the work

    reads = stage.work(job, seen, newest)
    region = tuple(job.regions[0]) if job.regions else None
    conn.send(
        ("done", reads, job.finger_over, stage.jobs > jobs, stage.no_code, stage.no_finder, stage.read_in, region)
    )


class _Aiming:
    """The aiming measurement as the child makes it: `measure.measure_view` on the frame, and whether the picture
    moved since the frame measured before it (`measure.moved` on their shrunk copies), as the live loop made it.
    A view is measured again only where the picture changed since (`measure.unchanged`): a still picture differs from
    frame to frame by its noise alone, and measuring its view anew (12 to 19 ms of the worker's CPU at 720p on a
    checked cloth) was most of what a cluttered table cost once idle, its full frame measured once a second."""

    def __init__(self) -> None:
        self._shrunk: Any = None
        self._last: tuple[Any, tuple[int, int, int, int] | None, float | None, FrameView] | None = None
        """The shrunk copy of the frame last measured, the region and squareness it was given, and its view."""

    def measure(
        self, gray: MatLike, region: tuple[int, int, int, int] | None, squareness: float | None
    ) -> tuple[FrameView, bool]:
        """The view of `gray` (its `still` set) and whether the picture moved since the last one measured."""
        from dataclasses import replace

        from assistant.scanner.measure import measure_view, moved, shrunk, unchanged

        small, before, last = shrunk(gray), self._shrunk, self._last
        if last is not None and last[1:3] == (region, squareness) and unchanged(last[0], small):
            view = last[3]
        else:
            view = measure_view(gray, region, squareness=squareness)
            self._last = (small, region, squareness, view)
        self._shrunk = small
        moving = before is not None and moved(before, small)
        return replace(view, still=before is not None and not moving), moving


class _Newest:
    """The ring's newest frame, for a job whose cascade read nothing on its own frame: while the child worked on it
    the live loop went on remembering frames, and each slow step (the whole frame's look, the hidden-code steps, the
    average, each deblurring kernel) first takes the newest of them when the picture has moved on since the frame
    worked on (`moved_on`: a card coming in, settling or taken away: the next frame may read where this one did not),
    the cascade on it first. A newer frame of a still picture whose code-like region has not changed differs by its
    noise alone, and taking it would cost a cluttered empty table's job a cascade a step. Its reads are of that
    frame, and count their delay from it."""

    def __init__(self, shm: Any, shape: tuple[int, ...]):
        self.shm, self.shape = shm, shape
        self.picture = -1
        """The live loop's number for the picture of the frame worked on (-1: none given, as a moving one)."""

    def job(self, after: int, picture: int | None = None) -> Any:
        """The newest frame in the ring as a job of still picture `picture` (its regions searched, the frames before
        it for the average) when it is later than frame `after`; None when none is, or it was overwritten while
        copied."""
        import numpy as np

        from assistant.scanner.background import Job
        from assistant.scanner.measure import find_code_regions

        if self.shm is None:
            return None
        heads = self._heads()
        if heads[-1][0] <= after:
            return None
        frames = _copied(self.shm, self.shape, [(i, s) for i, _, s in heads[-AVERAGE_FRAMES:]], np)
        if frames is None:
            return None
        index, gray = frames[-1]
        self.picture = heads[-1][1]
        return Job(index, gray, find_code_regions(gray), frames, picture=picture)

    def moved_on(self, job: Any, region: tuple[int, int, int, int] | None) -> Any:
        """The newest frame in the ring as a job (as `job` gives it) when it is later than `job`'s frame and shows
        another picture (or one the live loop gave no number), or the same still picture changed over `region` (a
        card settling too slowly to move the picture: `background.changed`); None otherwise. A frame of another
        still picture (the two newest frames share its number: a picture that moved renews it every frame) comes
        as a job of that picture, which ends the job worked on (`BackgroundStage.work`)."""
        import numpy as np

        from assistant.scanner.background import changed

        if self.shm is None:
            return None
        heads = self._heads()
        index, shows, slot = heads[-1]
        if index <= job.index:
            return None
        if shows != self.picture and shows != -1 and heads[-2][1] == shows:
            return self.job(job.index, shows)  # the first two frames of another still picture: a job of its own
        if shows == self.picture != -1:
            if region is None:
                return None
            x, y, w, h = region
            size = HEAD + int(np.prod(self.shape))
            newest = np.ndarray(self.shape, np.uint8, self.shm.buf, slot * size + HEAD)
            if not changed(job.gray[y : y + h, x : x + w], newest[y : y + h, x : x + w]):
                return None
        return self.job(job.index)

    def worked_on(self, index: int, slot: int) -> None:
        """Frame `index`, in `slot`, is the one worked on (its picture noted, -1 when overwritten meanwhile)."""
        head = self._heads([slot])[0]
        self.picture = head[1] if head[0] == index else -1

    def _heads(self, slots: Iterable[int] = range(SLOTS)) -> list[tuple[int, int, int]]:
        """The frame index and picture number at the head of each slot, with the slot, oldest frame first."""
        import numpy as np

        size = HEAD + int(np.prod(self.shape))
        heads = [(np.ndarray((2,), np.int64, self.shm.buf, slot * size), slot) for slot in slots]
        return sorted((int(head[0]), int(head[1]), slot) for head, slot in heads)


def _opened(before: Any, name: str) -> Any:
    """The child's view of ring `name`, the one `before` closed (None: it cannot be opened, which the parent's
    keeping it until the child has moved on rules out; the jobs naming it are then dropped)."""
    from multiprocessing import shared_memory

    if before is not None:
        before.close()
    if isinstance(name, _LocalMemory):
        return name
    try:
        return shared_memory.SharedMemory(name=name)
    except OSError:
        return None


def _release(shm: Any) -> None:
    """Close and unlink a ring of the parent's."""
    shm.close()
    try:
        shm.unlink()
    except OSError:  # gone already
        pass


def _copied(shm: Any, shape: tuple[int, ...], slots: list[tuple[int, int]], np: Any) -> list | None:
    """The frames of `slots` copied out of the ring, or None when the parent has overwritten one meanwhile."""
    size = HEAD + int(np.prod(shape))
    frames = []
    for index, slot in slots:
        view = np.ndarray((size,), np.uint8, shm.buf, slot * size)
        frame = view[HEAD:].reshape(shape).copy()
        if int(view[:HEAD].view(np.int64)[0]) != index:
            return None
        frames.append((index, frame))
    return frames
