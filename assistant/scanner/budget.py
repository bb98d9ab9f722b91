"""One frame's time: a CPU budget, a wall-clock cap, and what each step of the frame is expected to cost.

`FrameBudget` is what the live loop starts when a frame arrives (`start`) and what the decoder cascade asks before
each step (`fits`): no step starts that its learnt cost says would end past the frame's deadline, or past the
wall-clock cap at the wall time steps take lately (`stretch`, more than 1 on a busy machine). Each step's cost is
learnt from its own runs (`learn`), per size class. The cascade only asks; the live loop only starts the frame,
holds time back for its aiming measurement (`start(reserve_ms=...)`, `release`) and takes out work that is not the
frame's own (`set_aside`). A test passes clocks of its own, so the deadline logic never depends on the machine.

What a frame's OpenCV calls run on is decided here too: `OPENCV_THREADS`, set where each of the scanner's own
processes starts (`use_opencv_threads`), and taken by the benchmarks, so they measure what the app runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: What one frame may cost the live loop (milliseconds), everything included: grey conversion, region search,
#: every decode and retry, the aiming measurement. A camera at 30 frames a second leaves 33 ms; the margin is for
#: the machine's own hiccups. No step starts that its learnt cost says would end past the deadline, and the retry
#: stages check it again between their image work and their decode.
FRAME_BUDGET_MS = 25.0
#: The wall-clock cap of one frame, milliseconds from its arrival, beside its CPU budget: on a busy machine the
#: frame's thread waits for a core, so its 25 ms of CPU can stretch past the camera's 33 ms. When this passes, the
#: frame stops its retries as when its budget runs out, and what it left undone goes to the background stage
#: (`skipped`), which reads it a little later instead of a late frame holding up the next ones.
FRAME_WALL_MS = 30.0
#: Costs assumed before any is measured: milliseconds per million pixels of each step (zxing-cpp on a 720p frame
#: takes 1 to 3 ms; a 2x upscale makes four times the pixels). Each is then learnt from the frames themselves.
#: "aiming" is the live loop's aiming measurement (`measure.measure_view` and the motion check) on a whole frame,
#: "card" the search for the card on its own (`measure.find_card`) for the retries.
INITIAL_MS_PER_MPX = {"zxing": 3.0, "transform": 2.0, "pyzbar": 12.0, "opencv": 20.0, "aiming": 15.0, "card": 2.0}
#: A step is started only when this multiple of its expected cost still fits (costs vary from frame to frame).
COST_MARGIN = 1.5
#: Steps shorter than this (CPU milliseconds) say too little of how the wall time stretches to be counted; the
#: stretch counted is at most `STRETCH_MOST` (a step descheduled for a long while says nothing of the next).
STRETCH_LEAST_MS, STRETCH_MOST = 0.5, 4.0


#: OpenCV's threads in each of the scanner's own processes (the scanner's child, `live_process`, and its worker's,
#: `stage_process`), set as each starts (`use_opencv_threads`). Every call the scanner makes on a frame (the grey
#: conversion, the motion check's resize, the region search) is small, and OpenCV's own pool (a thread a core) only
#: adds its threads' wake-ups to it. Every scanner benchmark ran with one thread in its own process while the app set
#: none, so they measured one thread and the app ran the pool; they now take this setting, and measure what the app
#: runs. Side by side (tuning seeds from 99100, empty tables, 12 s each; the pool as the app ran it, then one thread):
#: the worker's process 0.44 CPU s a minute at 720p (cluttered and plain) against 0.33 to 0.39, at 1080p 0.56 to
#: 0.67 against 0.51 to 0.58; a cluttered 720p table's whole cost 0.46 of raw zxing-cpp against 0.38 to 0.41 with
#: either stage; the same reads on 30 tuning stills (seeds from 84200: 23 at 720p and 25 at 1080p, either stage)
#: (docs/benchmarks.md, issue 105, 30 November 2026). The app's own process is left as it is: where it runs the
#: scanner itself (no process can start: `ui.camera.CameraWorker`) OpenCV's default holds there, not measured.
OPENCV_THREADS = 1


def budget_clock() -> Callable[[], float]:
    """The clock a frame's budget runs on: the calling thread's CPU time where it is precise (Linux, macOS), the
    wall clock elsewhere (Windows counts a thread's time in scheduler ticks of about 16 ms). On a loaded machine
    the wall clock cut the retries short, so the live path read no more than a plain decoder; in CPU time every
    frame gets the same work however busy the machine is, and a slow machine shows as fewer frames a second."""
    import sys

    if sys.platform.startswith(("linux", "darwin")):
        return time.thread_time
    return time.perf_counter


class FrameBudget:
    """A frame's deadlines and the learnt cost of each step (see the module docstring)."""

    def __init__(
        self,
        budget_ms: float | None = FRAME_BUDGET_MS,
        clock: Callable[[], float] | None = None,
        wall_ms: float | None = FRAME_WALL_MS,
        wall_clock: Callable[[], float] | None = None,
    ):
        """`budget_ms`: the hard limit of one frame; None for none (still images, the background stage).
        `clock`: seconds, by default `budget_clock()` (the thread's own CPU time). `wall_ms`: the wall-clock cap
        (none without a budget), on `wall_clock`: by default `clock` when one is given (a test's time is all one
        clock) and `time.perf_counter` otherwise."""
        self.budget_ms = budget_ms
        self.clock = clock or budget_clock()
        self.wall_ms = wall_ms
        self.wall_clock = wall_clock or clock or time.perf_counter
        self._deadline: float | None = None
        self._wall_deadline: float | None = None
        self._reserved = 0.0
        self._cost: dict = dict(INITIAL_MS_PER_MPX)
        self.stretch = 1.0
        """How many times its CPU time a step has lately taken in wall-clock time (1 on a quiet machine, more while
        the thread waits for a core): a step starts only when its cost stretched so still fits the wall-clock cap."""
        self.capped = False
        """The last `fits` said no for the wall-clock cap alone."""

    def start(self, deadline: float | None = None, reserve_ms: float = 0.0) -> None:
        """Begin a frame: its deadline (on `clock`) is `deadline`, or the budget from now, and its wall-clock cap
        (`wall_ms` from now on `wall_clock`) when it has a budget. `reserve_ms`: held back from the frame's steps
        for a later one (the aiming measurement, when it has been crowded out for a while), from the cap too at
        the wall time steps take lately (`stretch`); given back by `release`."""
        if deadline is None and self.budget_ms is not None:
            deadline = self.clock() + self.budget_ms / 1000
        self._reserved = reserve_ms / 1000 if deadline is not None else 0.0
        self._deadline = None if deadline is None else deadline - self._reserved
        self._wall_deadline = None
        if deadline is not None and self.wall_ms is not None:
            self._wall_deadline = self.wall_clock() + self.wall_ms / 1000 - self._reserved * self.stretch
        self.capped = False

    def release(self) -> None:
        """Give the time `start` held back to the frame's remaining steps."""
        if self._deadline is not None:
            self._deadline += self._reserved
        if self._wall_deadline is not None:
            self._wall_deadline += self._reserved * self.stretch
        self._reserved = 0.0

    def set_aside(self, started: float, wall_started: float) -> None:
        """Leave out of the frame's deadlines the work done since `started` (on `clock`) and `wall_started` (on
        `wall_clock`) that is not the frame's own (the background stage working in the loop's thread)."""
        if self._deadline is not None:
            self._deadline += self.clock() - started
        if self._wall_deadline is not None:
            self._wall_deadline += self.wall_clock() - wall_started

    def _cpu_left_ms(self) -> float:
        return float("inf") if self._deadline is None else (self._deadline - self.clock()) * 1000

    def _wall_left_ms(self) -> float:
        return float("inf") if self._wall_deadline is None else (self._wall_deadline - self.wall_clock()) * 1000

    def expected_ms(self, step: str, pixels: int) -> float:
        """What a step (`zxing`, `transform`, `pyzbar`, `opencv`, `aiming`, `card`) on this many pixels is expected
        to cost: learnt per size class (a small crop costs more per pixel than a whole frame), the initial guess
        until then."""
        learnt = self._cost.get((step, _size_class(pixels)))
        if learnt is None:
            return self._cost[step] * pixels / 1e6
        return learnt

    def fits(self, step: str, pixels: int, margin: float | None = None) -> bool:
        """True when a step on this many pixels is expected to end before the deadline, with a margin
        (`COST_MARGIN` unless given), and before the wall-clock cap at the wall time steps take lately (`stretch`)."""
        cost = self.expected_ms(step, pixels) * (COST_MARGIN if margin is None else margin)
        in_budget, in_cap = cost <= self._cpu_left_ms(), cost * self.stretch <= self._wall_left_ms()
        self.capped = in_budget and not in_cap
        return in_budget and in_cap

    def mark(self) -> tuple[float, float]:
        """Now on both clocks: where a step starts, for `learn`."""
        return self.clock(), self.wall_clock()

    def learn(self, step: str, pixels: int, started: float, wall_started: float | None = None) -> None:
        """Fold the cost of a step that started at `started` on `clock` (and `wall_started` on `wall_clock`) and
        ends now into its expected cost for that size (quick to rise, slow to fall), and its wall time against its
        cost into `stretch`."""
        spent = (self.clock() - started) * 1000
        if wall_started is not None and spent >= STRETCH_LEAST_MS:
            took = (self.wall_clock() - wall_started) * 1000
            ratio = min(STRETCH_MOST, max(1.0, took / spent))
            self.stretch = 0.7 * self.stretch + 0.3 * ratio
        key = (step, _size_class(pixels))
        old = self._cost.get(key)
        if old is None:
            self._cost[key] = spent
        else:
            self._cost[key] = 0.5 * old + 0.5 * spent if spent > old else 0.9 * old + 0.1 * spent


def _size_class(pixels: int) -> int:
    """Pixels in classes of a factor of two (the cost of a step grows with its size)."""
    return max(0, int(pixels).bit_length())


def use_opencv_threads() -> int:
    """Set OpenCV's threads for this whole process to `OPENCV_THREADS` (call it where one of the scanner's own
    processes starts, never in the app's); the count OpenCV then reports (`opencv_threads`)."""
    try:
        import cv2
    except ImportError:
        return 0
    cv2.setNumThreads(OPENCV_THREADS)
    return opencv_threads()


def opencv_threads() -> int:
    """OpenCV's threads in this process (0 without OpenCV)."""
    try:
        import cv2
    except ImportError:
        return 0
    return int(cv2.getNumThreads())
