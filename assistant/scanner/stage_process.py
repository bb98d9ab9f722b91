"""The background stage in a process of its own, so that it does not compete with the frame loop.

On a thread (`background.BackgroundStage.start`) the stage's Python holds the interpreter's lock, and each of the
frame loop's OpenCV and zxing-cpp calls must wait for it when it returns: a frame's wall time then exceeds its
CPU time by several milliseconds. Here the same work (`BackgroundStage.work`) runs in a child process started
with the 'spawn' method (the same on Linux, macOS and Windows; no copy of the app's threads):

- **frames**: every frame the live loop remembers is copied into a ring of `SLOTS` frames in shared memory (one
  copy, well under a millisecond at 720p), each slot headed by its frame's index and the live loop's number for its
  picture; a job names the slots of its frame and of the frames before it (for the average and the check on a
  second frame), and the child copies them out at once, dropping a job whose slots were overwritten meanwhile
  (checked by the index in each slot's head); when the frame size changes, a new ring is made and the old one kept
  until the child says it has opened a newer one (a message on its way may still name it: unlinked, it could not be
  opened, and the child would die);
- **jobs**: at most one is with the child at a time; a frame offered meanwhile waits in the parent, and a newer one
  replaces it (the latest wins); the child says it is ready for the next as soon as it has finished, with how long
  the job took, and the parent may rest a share of that (`CHILD_REST`, on the stage's `clock`) before it sends
  another frame of the same picture; a frame of a new still picture (the next card held up) goes at once, and one
  waiting for a still picture no longer in view is dropped (`remember`). A job whose cascade reads nothing on its
  frame takes each slow step to the newest frame in the ring where the picture has moved on since (`_Newest`; each
  slot is headed by its frame's index and picture). A job's reads drop an aiming request waiting (the card is
  read). The child runs at the priority of the process that started it, no lower (the scanner's child, niced
  already in the app), and the live loop stands in for a job it has not begun in time (`live.STAND_IN_AFTER`);
- **the region search**: a job offered without regions (the live loop leaves the search to the child while it
  runs) is searched here (`measure.find_code_regions`), and the first region found comes back with the job's
  results (`region`: the live loop meters the exposure on it);
- **results**: the reads, whether a finger covers a corner, and whether a still picture showed no sign of a code
  come back through a pipe, collected by `take`;
- **decks**: the labels of the decks in play are sent when they change (the child keeps its own `KnownLabels`);
- **aiming**: the aiming measurement's heavy parts (`measure.measure_view`: the card search, the close-up search,
  sharpness, burnt-out patches; and the motion check against the last frame measured) run here too, on the frame
  the live loop names (`aim`); its view comes back as a message (`take_view`), and the live loop turns it into a
  cue. An aiming request goes before a waiting job (a few milliseconds, and a player waits on its cue), but never
  twice in a row while a job is due (asked on every frame with nothing read, the requests took every turn and a
  still card's job waited until the picture turned idle, a second on), and the newest one replaces one waiting.

The child is started at the first frame (`start`), stopped when the scanner closes (`stop`). When it cannot be
started (no shared memory, a sandbox without processes), the thread stage is used instead, behind the same
interface. Tests that inject clocks keep using `BackgroundStage(inline=True)`, which does the same work in the
caller's thread.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from assistant.scanner.background import AVERAGE_FRAMES, BackgroundRead, BackgroundStage, done_with, job_stage
from assistant.scanner.known import decks_key

if TYPE_CHECKING:
    from cv2.typing import MatLike

    from assistant.core.scanning.aiming import FrameView
    from assistant.scanner.known import KnownLabels

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


class ProcessStage:
    """The background stage in a child process, with `BackgroundStage`'s interface (see the module docstring)."""

    inline = False

    def __init__(
        self,
        known: KnownLabels | None = None,
        rest: float = CHILD_REST,
        clock: Callable[[], float] = time.monotonic,
        started: Callable[[ProcessStage], None] | None = None,
    ):
        """`known`: the labels of the decks in play (their decks are sent to the child when they change). `clock`:
        the seconds the rest after a job is counted on (a test's frames' clock). `started`: called once the child
        process has started, or the thread stage in its place (the scanner's child then sets the priorities)."""
        self.known = known
        self.started = started
        self.rest = rest
        self.clock = clock
        self._rest_until = float("-inf")
        self._sent_picture: int | None = None  # the picture of the last job sent
        self._aimed = False  # the last message sent was an aiming request
        self._jobs = 0
        self._begun = 0
        self._ended = 0
        self._looks = 0
        self._no_code: int | None = None
        self._no_finder: int | None = None  # `BackgroundStage.no_finder`, as the child last said it
        self._read_in: int | None = None  # `BackgroundStage.read_in`, as the child last said it
        self._finger_over = False
        self._region: tuple[int, int, int, int] | None = None
        self.failed = False
        """True when the child could not be started and the thread stage works instead."""
        self._fallback: BackgroundStage | None = None
        self._process: Any = None
        self._conn: Any = None
        self._poller: Any = None  # `select.poll` on the pipe from the child (`_readable`)
        self._frames = SharedRing()
        """The frames the live loop remembered, in memory shared with the child (this side of it)."""
        self._with_child = False  # a job is with the child, or it has not said it is ready
        self._waiting: tuple[int, list | None, int | None] | None = None
        self._aim_waiting: tuple[int, tuple[int, int, int, int] | None, float | None] | None = None
        self._view: tuple[int, FrameView, bool] | None = None
        self._asked: int | None = None  # the last still picture offered for its look
        self._answered: int | None = None  # the last still picture whose look has come back
        self.aims = 0
        """Aiming measurements the child has finished."""
        self._decks_key: tuple | None = None
        self._done: list[BackgroundRead] = []
        self._lock = threading.Lock()

    @property
    def jobs(self) -> int:
        """Frames worked on so far (by the child, or the thread stage instead)."""
        return self._fallback.jobs if self._fallback is not None else self._jobs

    @property
    def begun(self) -> int:
        """Jobs the child has begun (it says so as it takes one), looks included (`background.Stage.begun`)."""
        if self._fallback is not None:
            return self._fallback.begun
        self._poll()
        return self._begun

    @property
    def ended(self) -> int:
        """Jobs the child has ended, looks included (`background.Stage.ended`)."""
        if self._fallback is not None:
            return self._fallback.ended
        self._poll()
        return self._ended

    @property
    def looks(self) -> int:
        """Frames of a still picture looked at and found without any sign of a code (`BackgroundStage.looks`)."""
        return self._fallback.looks if self._fallback is not None else self._looks

    @property
    def no_code(self) -> int | None:
        """The last still picture in which no sign of a code was found (`BackgroundStage.no_code`)."""
        return self._fallback.no_code if self._fallback is not None else self._no_code

    @property
    def no_finder(self) -> int | None:
        """The last still picture whose job read nothing and showed no finder-like pattern
        (`BackgroundStage.no_finder`)."""
        return self._fallback.no_finder if self._fallback is not None else self._no_finder

    @property
    def finger_over(self) -> bool:
        """A finger covered a corner of the code in the last frame finished (see `repair.finger_over`)."""
        return self._fallback.finger_over if self._fallback is not None else self._finger_over

    @property
    def labels(self) -> tuple:
        """The decks in play's key (`known.decks_key`; empty without known labels)."""
        return self.known.key() if self.known is not None else ()

    @property
    def region(self) -> tuple[int, int, int, int] | None:
        """The first code-like region of the last frame the child worked on (None: none found)."""
        return self._region

    @property
    def running(self) -> bool:
        """True while the child (or the fallback's thread) is there."""
        if self._fallback is not None:
            return self._fallback.running
        return self._process is not None

    @property
    def retries_elsewhere(self) -> bool:
        """True while the child runs: the live loop then leaves every retry to it and does only the first pass
        (with the thread stage instead, the loop keeps its own budgeted retries)."""
        return self._fallback is None and self._process is not None

    def start(self) -> None:
        """Start the child process (or, when it cannot start, the thread stage); then `started`, once."""
        if self._fallback is not None:
            self._fallback.start()
            return
        if self._process is not None:
            return
        try:
            import multiprocessing

            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe()
            process = context.Process(target=_child, args=(child,), name="scanner-background", daemon=True)
            process.start()
            child.close()
        except (OSError, ValueError, RuntimeError, ImportError):
            self._use_thread()
        else:
            self._process, self._conn, self._poller = process, parent, None
            self._with_child = True  # until the child says it is ready (its imports and the labels made)
            try:
                self._send_decks(always=True)
            except (OSError, BrokenPipeError):
                self._stop_child()
        started, self.started = self.started, None
        if started is not None:
            started(self)

    def _use_thread(self) -> None:
        self.failed = True
        self._fallback = job_stage(self.known)  # the thread's own rest (`background.REST`)
        self._fallback.start()

    def busy(self) -> bool:
        """True while a frame is being worked on or waits for its turn."""
        if self._fallback is not None:
            return self._fallback.busy()
        return self._with_child or self._waiting is not None

    def remember(self, index: int, gray: MatLike, picture: int | None = None) -> None:
        """Copy a frame into the shared ring (the live loop calls it for every frame); a job waiting for a still
        picture other than `picture` (the one in view) is dropped, never sent (see `background.Stage.remember`)."""
        if self._fallback is not None:
            self._fallback.remember(index, gray, picture)
            return
        if self._process is None:
            return
        if picture is not None and self._waiting is not None and self._waiting[2] not in (None, picture):
            self._waiting = None
        try:
            self._frames.put(index, gray, picture, self._conn.send)
        except (OSError, ValueError, BrokenPipeError):  # no new ring could be made or named to the child
            self._stop_child()
            self._use_thread()

    def offer(
        self,
        index: int,
        gray: MatLike,
        regions: Iterable[tuple[int, int, int, int]] | None,
        picture: int | None = None,
    ) -> None:
        """Give the stage the latest frame the live loop could not finish (it must have been remembered);
        `regions` None: the child searches for them; `picture` as for `BackgroundStage.offer`."""
        if self._fallback is not None:
            self._fallback.offer(index, gray, regions, picture)
            return
        if self._process is None or done_with(picture, self._read_in, self._no_finder):
            return
        # replaces an older frame waiting: the latest wins
        self._waiting = (index, None if regions is None else [tuple(r) for r in regions], picture)
        if picture is not None:
            self._asked = picture
        self._send_waiting()

    def aim(self, index: int, region: tuple[int, int, int, int] | None, squareness: float | None) -> None:
        """Ask for the aiming measurement of frame `index` (it must have been remembered), on the code-like region
        the frame path found (None: none) and its squareness; its view comes back through `take_view`. The newest
        request replaces one waiting; with the thread stage instead, nothing is asked (the frame path measures)."""
        if self._fallback is not None or self._process is None:
            return
        self._aim_waiting = (index, region, squareness)
        self._send_waiting()

    def looking(self, picture: int) -> bool:
        """True while still picture `picture` has been offered for its look and the verdict (signs of a code or
        none) has not come back: the live loop then gives its frames the first pass only."""
        if self._fallback is not None:
            return self._fallback.looking(picture)
        if self._process is None or self._asked != picture:
            return False
        self._poll()
        return self._answered != picture

    def take_view(self) -> tuple[FrameView, bool] | None:
        """The newest aiming measurement the child has finished since the last call, and whether the picture moved
        since the frame measured before it; None when none has come."""
        self._poll()
        view, self._view = self._view, None
        return (view[1], view[2]) if view is not None else None

    def _send_waiting(self) -> None:
        if self._with_child or self._conn is None:
            return
        if self._waiting is not None and done_with(self._waiting[2], self._read_in, self._no_finder):
            self._waiting = None  # offered while the job that read its picture's code or found it empty ran
        waiting = self._waiting
        job_due = waiting is not None and not (waiting[2] == self._sent_picture and self.clock() < self._rest_until)
        # An aiming request goes before a job due, but not twice in a row: asked on every frame with nothing read, it
        # would otherwise take every turn the child has, and the job would wait until the picture turned idle.
        if self._aim_waiting is not None and not (job_due and self._aimed):
            index, region, squareness = self._aim_waiting
            self._aim_waiting = None
            slot = next((s for i, s in self._frames.slots if i == index), None)
            if slot is not None:  # else its frame has left the ring: a newer request will come
                try:
                    self._conn.send(("aim", index, slot, region, squareness))
                except (OSError, BrokenPipeError):
                    self._stop_child()
                    return
                self._with_child = self._aimed = True
                return
        if waiting is None or not job_due:
            return  # none, or resting after a frame of the same picture
        index, regions, picture = waiting
        slots = [(i, s) for i, s in self._frames.slots if i <= index]
        if not slots or slots[-1][0] != index:
            self._waiting = None  # its frame has left the ring
            return
        self._waiting = None
        try:
            self._send_decks()
            self._conn.send(("job", index, slots, regions, picture))
        except (OSError, BrokenPipeError):
            self._stop_child()
            return
        self._with_child, self._aimed = True, False
        self._sent_picture = picture

    def _send_decks(self, always: bool = False) -> None:
        decks = tuple(self.known.decks()) if self.known is not None else ()
        key = decks_key(decks)
        if always or key != self._decks_key:
            self._conn.send(("decks", decks))
            self._decks_key = key

    def take(self, index: int) -> list[BackgroundRead]:
        """The reads the child has finished (each given once)."""
        if self._fallback is not None:
            return self._fallback.take(index)
        self._poll()
        done, self._done = self._done, []
        return done

    def _poll(self) -> None:
        """Read every message the child has sent (reads kept for `take`, the newest view for `take_view`), and
        send it what waits when it is ready."""
        conn = self._conn
        try:
            while conn is not None and self._readable(conn):
                message = conn.recv()
                if message[0] == "began":
                    self._begun += 1
                elif message[0] == "seen":
                    _, picture, shows = message
                    self._answered = picture
                    if not shows:
                        self._no_code = picture
                elif message[0] == "view":
                    _, index, view, moving = message
                    self._view = (index, view, moving)
                    self.aims += 1
                elif message[0] == "done":
                    _, reads, finger, worked, no_code, self._no_finder, self._read_in, self._region = message
                    if worked:
                        self._jobs += 1
                    else:
                        self._looks += 1
                    self._no_code = no_code
                    self._done.extend(reads)
                    if reads:  # the card is read: no cue to aim it, and the next job goes first
                        self._aim_waiting = None
                    self._finger_over = finger
                elif message[0] == "ready":
                    self._with_child = False
                    if not self._aimed:  # a job's end (one dropped too): rest before another frame of its picture
                        self._ended = self._begun
                        self._rest_until = self.clock() + message[1] * self.rest
                elif message[0] == "ring":
                    self._frames.moved_on(message[1])
        except (EOFError, OSError):
            self._stop_child()
        self._send_waiting()

    def _readable(self, conn: Any) -> bool:
        """True when the child has sent something (or gone). The pipe's own `poll` builds a selector on every call, a
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
        """Stop the child (it finishes the frame it works on first, or is ended after two seconds)."""
        if self._fallback is not None:
            self._fallback.stop()
            return
        with self._lock:
            self._stop_child()

    def _stop_child(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = self._poller = None
        self._with_child = False
        if conn is not None:
            try:
                conn.send(("stop",))
            except (OSError, BrokenPipeError):
                pass
        if process is not None:
            process.join(timeout=2.0)
            if process.is_alive():
                process.terminate()
                process.join(timeout=1.0)
        if conn is not None:
            conn.close()
        self._frames.close()


class SharedRing:
    """The parent's side of the frames shared with the child: `SLOTS` slots of `HEAD` bytes (the frame's index and
    picture) and a grey frame each, written in turn; a new ring when the frames change size (`_Newest` reads them)."""

    def __init__(self) -> None:
        self.shm: Any = None
        self.shape: tuple[int, ...] | None = None
        self.retired: list[Any] = []  # rings replaced whose names a message on its way to the child may hold
        self.slots: deque[tuple[int, int]] = deque(maxlen=AVERAGE_FRAMES)  # (frame index, slot)
        self._next_slot = 0

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
        self.shm = shared_memory.SharedMemory(create=True, size=SLOTS * (HEAD + gray.size))
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
    """Make `stage`'s child process `by` nicer than it is (nothing with the thread stage, or where the system has no
    niceness). A process may always lower a priority of its own user's: the scanner's child starts its worker before
    lowering its own, so the worker can stand above it (`live_process.WORKER_NICENESS`)."""
    import os

    process = stage._process
    if process is None or process.pid is None or not hasattr(os, "setpriority"):
        return
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, process.pid, os.getpriority(os.PRIO_PROCESS, process.pid) + by)


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
            started = time.process_time()
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
            conn.send(("ready", time.process_time() - started))
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
