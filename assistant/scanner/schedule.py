"""The one scheduler of the background stage's work: what its worker is handed next, and what its answers mean.

The live loop offers frames (`offer`) and asks for aiming measurements (`aim`); the worker (`stage_process._work_loop`,
in a process of its own or, where no process can start, on a thread: the host is all that differs) takes one message
at a time and answers. This class decides, on the host's side, with time from an injected clock and nothing else:

- **one at a time**: at most one message is with the worker; a frame offered meanwhile waits, and a newer one replaces
  it (the latest wins); the worker says it is ready as soon as it has finished, with the seconds the job took;
- **rest**: after a job the next frame of the same still picture waits `rest` times the job's seconds (on `clock`); a
  frame of a new still picture (the next card held up) goes at once;
- **a picture gone**: a frame waiting for a still picture no longer in view is dropped (`remember`), and so is one
  of a picture whose code a job read, checked on a second frame (`read_in`), or whose job read nothing and showed no
  finder-like pattern (`no_finder`): nothing new is in it;
- **aiming**: an aiming request goes before a job due (a few milliseconds, and a player waits on its cue), never twice
  in a row while a job is due (asked on every frame with nothing read, the requests took every turn), and the newest
  replaces one waiting; a job's reads drop the request waiting (the card is read);
- **what came back**: jobs begun and ended (the live loop's priority rule, `live.StandIn`), the look's verdict on a
  still picture (`no_code`, `looking`), the reads (`take`), the newest view (`take_view`).

Pure: the standard library only; a test drives it with messages of its own and a clock that stands still.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

#: A region: x, y, width, height in frame pixels.
Region = tuple[int, int, int, int]


def done_with(picture: int | None, read_in: int | None, no_finder: int | None) -> bool:
    """True for a still picture no job is for any more: its code read (`read_in`) or no finder-like pattern in it
    (`no_finder`)."""
    return picture is not None and picture in (read_in, no_finder)


class JobSchedule:
    """See the module docstring. `rest`: the share of a job's seconds a frame of the same picture waits after it;
    `clock`: the seconds that rest is counted on (a test's frames' clock)."""

    def __init__(self, rest: float = 0.0, clock: Callable[[], float] = time.monotonic):
        self.rest = rest
        self.clock = clock
        self.with_worker = False
        """A message is with the worker, or it has not said it is ready since it started."""
        self.begun = self.ended = self.jobs = self.looks = self.aims = 0
        """Jobs begun and ended (looks included), frames worked on, looks that found no sign of a code, aiming
        measurements finished."""
        self.no_code: int | None = None
        self.no_finder: int | None = None
        self.read_in: int | None = None
        self.finger_over = False
        self.region: Region | None = None
        self._waiting: tuple[int, list[Region] | None, int | None] | None = None
        self._aim_waiting: tuple[int, Region | None, float | None] | None = None
        self._aimed = False  # the last message handed out was an aiming request
        self._sent_picture: int | None = None
        self._rest_until = float("-inf")
        self._asked: int | None = None  # the last still picture offered for its look
        self._answered: int | None = None  # the last still picture whose look has come back
        self._view: tuple[Any, bool] | None = None
        self._done: list[Any] = []

    def busy(self) -> bool:
        """True while a message is with the worker or a frame waits for its turn."""
        return self.with_worker or self._waiting is not None

    def remember(self, picture: int | None) -> None:
        """A frame of `picture` is in view: a frame waiting for another still picture is dropped."""
        if picture is not None and self._waiting is not None and self._waiting[2] not in (None, picture):
            self._waiting = None

    def offer(self, index: int, regions: Sequence[Region] | None, picture: int | None) -> None:
        """Frame `index` waits for the worker (replacing one waiting), with its regions (None: the worker searches)
        and its still picture (None: the picture moves); nothing for a picture done with."""
        if done_with(picture, self.read_in, self.no_finder):
            return
        self._waiting = (index, None if regions is None else [tuple(r) for r in regions], picture)  # type: ignore[misc]
        if picture is not None:
            self._asked = picture

    def aim(self, index: int, region: Region | None, squareness: float | None) -> None:
        """An aiming measurement of frame `index` is wanted (the newest replaces one waiting)."""
        self._aim_waiting = (index, region, squareness)

    def looking(self, picture: int) -> bool:
        """True while still picture `picture` was offered for its look and the verdict has not come back."""
        return self._asked == picture and self._answered != picture

    def next(self, slots: Sequence[tuple[int, int]]) -> tuple[Any, ...] | None:
        """The message to hand the worker now, or None (one is with it, nothing waits, or the job rests). `slots`:
        the frames the worker can reach, (index, slot), oldest first; a job names its frame's and those before it."""
        if self.with_worker:
            return None
        waiting = self._waiting
        if waiting is not None and done_with(waiting[2], self.read_in, self.no_finder):
            waiting = self._waiting = None  # offered while the job that read its picture's code or found it empty ran
        job_due = waiting is not None and not (waiting[2] == self._sent_picture and self.clock() < self._rest_until)
        if self._aim_waiting is not None and not (job_due and self._aimed):
            index, region, squareness = self._aim_waiting
            self._aim_waiting = None
            slot = next((s for i, s in slots if i == index), None)
            if slot is not None:  # else its frame has left the ring: a newer request will come
                self.with_worker = self._aimed = True
                return ("aim", index, slot, region, squareness)
        if waiting is None or not job_due:
            return None
        index, regions, picture = waiting
        self._waiting = None
        named = [(i, s) for i, s in slots if i <= index]
        if not named or named[-1][0] != index:
            return None  # its frame has left the ring
        self.with_worker, self._aimed, self._sent_picture = True, False, picture
        return ("job", index, named, regions, picture)

    def received(self, message: tuple[Any, ...]) -> None:
        """An answer of the worker's: "began", "seen", "view", "done" or "ready" (others are the host's)."""
        kind = message[0]
        if kind == "began":
            self.begun += 1
        elif kind == "seen":
            _, picture, shows = message
            self._answered = picture
            if not shows:
                self.no_code = picture
        elif kind == "view":
            self._view = (message[2], message[3])
            self.aims += 1
        elif kind == "done":
            _, reads, self.finger_over, worked, self.no_code, self.no_finder, self.read_in, self.region = message
            self.jobs += worked
            self.looks += not worked
            self._done.extend(reads)
            if reads:  # the card is read: no cue to aim it, and the next job goes first
                self._aim_waiting = None
        elif kind == "ready":
            self.with_worker = False
            if not self._aimed:  # a job's end (one dropped too): rest before another frame of its picture
                self.ended = self.begun
                self._rest_until = self.clock() + message[1] * self.rest

    def take(self) -> list[Any]:
        """The reads come back since the last call (each given once)."""
        done, self._done = self._done, []
        return done

    def take_view(self) -> tuple[Any, bool] | None:
        """The newest aiming measurement come back since the last call, and whether the picture moved; None: none."""
        view, self._view = self._view, None
        return view
