"""Live scanning: frames from a source, through the cascade and the sighting tracker, out as events.

`LiveScanner` is what the `scan --camera` command and the app's camera thread both run. It only reports
events through a callback (`CodeAnnounced`, `CueGiven`, `SourceLost`, `SourceBack`, `ScannerNotice`); it never
shows or speaks anything itself, so the app decides what a player sees and hears. A lost camera is closed and
reopened every `retry_seconds` until it comes back or the scanner is stopped.
"""

from __future__ import annotations

import functools
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from assistant.core.scanning.aiming import Cue, CuePacer, FrameView, aiming_cue
from assistant.core.scanning.exposure import ExposureControl
from assistant.core.scanning.sightings import Sighting, SightingTracker
from assistant.scanner import rest
from assistant.scanner.background import BackgroundRead, Stage, read_near
from assistant.scanner.camera_frames import FrameCheck
from assistant.scanner.decoders import ALL_STAGES, Cascade, Decoded
from assistant.scanner.events import CodeAnnounced, CueGiven, LiveEvent, ScannerNotice, SourceBack, SourceLost
from assistant.scanner.measure import (
    MOTION_SIZE,
    changed_at,
    find_card,
    find_code_regions,
    measure_view,
    moved,
    same_code,
    shrunk,
    white_level,
)
from assistant.scanner.sources import Capture, FrameSource, FramesUnusable, SourceError

if TYPE_CHECKING:
    from cv2.typing import MatLike

    from assistant.scanner.measure import FoundCard


#: While nothing code-like is in view, the aiming measurement runs on one frame in this many.
AIM_EVERY = 3
#: With the worker process measuring, a still picture is measured on one frame in this many until it turns idle: a
#: cue needs two measurements agreeing over half a second (`CuePacer`), and a still picture's view changes only by
#: its noise. A frame that moved alone after a still picture (a table seen anew, a card taken away in one frame: the
#: next frame is another still picture, or moves on and is measured itself) is not measured; its picture's measurement
#: is owed, and asked on its first full frame once the worker's look at it found signs of a code (an empty table's
#: never: it rests). That measurement, the card and code-like region searches over the whole frame, was 27 ms of the
#: worker's CPU a new cluttered table at 720p, half of what the worker spent on it, for a view no cue can settle on
#: alone (`CuePacer` wants two measurements half a second apart).
AIM_STILL = 8
#: A picture that has not moved for this many frames with nothing read in it is idle (a second at 30 frames a
#: second) until something moves in front of the camera (a card brought in moves the picture): one frame in
#: `IDLE_EVERY` is then given zxing-cpp's first pass on the whole frame, one in `IDLE_FULL` the whole path (the
#: region search, the retries, the aiming measurement), the others are left alone. A card far away is too small
#: to move the picture as it comes in; it is read by those frames (the cues have been said: at most two while
#: nothing moves). Both are for frames of `IDLE_PIXELS`; a larger frame's are stretched in proportion to its pixels
#: (one in 7 and one in 68 at 1920 by 1080): an idle table costs the same pixels a second at any resolution.
IDLE_AFTER = 30
IDLE_EVERY = 3
IDLE_FULL = 30
#: A picture at rest (an empty table) gets the first pass on one frame in this many, and the motion check on one in
#: `rest.MOTION_EVERY` (a card read lying still: `rest.LYING_STILL`): the rule is `rest`'s, for both stages.
IDLE_EVERY_EMPTY = rest.FIRST_PASS_EVERY
IDLE_PIXELS = rest.PIXELS
#: Frames of a still picture the background stage is given, until something moves: more of the same picture
#: hold nothing new for it (its average of the last frames has had its tries). A still picture in which the stage
#: finds no sign of a code (`background.shows_code`: an empty table) is given none after that look.
IDLE_JOBS = 4
#: A code-like region larger than this share of the picture (one over it) is a table's pattern joined into one,
#: the card among it: the frame's retries look for the card on its own there (`measure.with_card`).
TABLE_REGION = 4
#: After this many frames in a row with no time left for the aiming measurement, or idle (half a second at 30
#: frames a second), the next full frame holds its expected cost back from the retries and runs it whatever is
#: left: a cue may come late, never not at all (with every core busy, the wall-clock cap alone left no frame room
#: for it).
AIM_STARVED = 15
#: The priority rule: a still picture the worker process has begun no job for (`Stage.begun`) after this many frames
#: (a third of a second: the worker, given a core, begins its look within a frame or two), or whose job has not ended
#: (`Stage.ended`) this many frames after it began, is a picture the machine starves the worker of: the frame path
#: then stands in for the job's first steps (its own region search and the cascade's retries within the frame's
#: budget, as with the thread stage) on one frame in `STAND_IN_EVERY`, at most `IDLE_JOBS` times a picture, and on
#: the frame after one that read something (its second read), until the worker's job for it has ended. Counted in
#: frames, never in seconds: a busy machine's late frames count the same.
STAND_IN_AFTER = 9
STAND_IN_EVERY = 3
#: The coarse copies of the frames remembered by the background stage kept to check its reads against the picture
#: in view (`LiveScanner.stale`): about eight seconds of frames. A read of a frame older than that is stale.
SIGNATURES = 256
#: A read of a frame taken less than this long (seconds, the frames' time) before the frame in view is never stale:
#: no hand takes one card away and brings the next in so fast, and a card moving in changes much of the picture
#: where its code was from one frame to the next.
STALE_AFTER = 0.5


#: The stages of the cascade (and the whole frame's look, ZBar's): a read of the worker process's by one of them may
#: be read again by the frame path's cascade (`LiveScanner._again`).
CASCADE_STAGES = frozenset((*ALL_STAGES, "whole"))
#: The numbers of the pictures, one count for every scanner of the process: a background stage that outlives its
#: scanner (a benchmark's, one for many clips) never takes a new scanner's picture for one it has judged.
_PICTURES = itertools.count(1)


@dataclass
class _Frame:
    """One frame on its way through `LiveScanner.handle`'s steps."""

    index: int
    now: float
    gray: MatLike
    starved: bool
    regions: list[tuple[int, int, int, int]] = field(default_factory=list)
    shapes: list[float] = field(default_factory=list)
    card: Callable[[], FoundCard | None] | None = None
    searched: bool = True
    """False when the frame path left the region search to the worker process."""
    stand_in: bool = False
    """True when the frame path does the first steps of a job the worker process has not begun (`STAND_IN_AFTER`)."""


@dataclass(slots=True)
class _RestLeft:
    """The rest as the last frame left (or glanced at still) set it (`LiveScanner._resting_left`). It holds for the
    frames after it while nothing that decides it has changed: a new picture, a read (the still count begun again),
    a card settled or woken, another shape."""

    still: int
    """The picture's still count at the last frame left."""
    checked: int
    """The next frame the rest checks (`rest.next_checked`)."""
    first_pass: bool
    """Whether the first pass is due on that frame."""
    lying: bool
    """Whether a card read lay still (`rest.lying_still`)."""
    key: tuple[int, int, tuple[int, ...]]
    """The picture, the one settled then, and the frames' shape."""


@dataclass
class StandIn:
    """The priority rule (`STAND_IN_AFTER`): whether a frame of the picture in view stands in for the background
    stage's job on it, the worker process's or the thread fallback's, which has not begun or has run too long."""

    begun_at: int = 0
    """The stage's jobs begun (`Stage.begun`) when the picture in view came to rest."""
    stood: int = 0
    """The frames of it the frame path stood in for the stage on."""
    read: bool = False
    """Whether the last of them read something (the next stands in too: its second read)."""
    job_seen: int = 0
    """The jobs begun when the count was last seen to grow."""
    job_from: int = 0
    """The picture's frame it was seen on (a job under way that long is starved too)."""

    def new_picture(self, begun: int) -> None:
        """A new picture came to rest, with the stage's jobs begun so far."""
        self.begun_at, self.stood, self.read = begun, 0, False

    def stands(self, stage: Stage | None, still: int, settled: bool, at_rest: bool) -> bool:
        """True when this frame stands in: `still`, the frames the picture has been still; `settled`, every code
        read in it announced; `at_rest`, the picture at rest (`rest`). The thread fallback's look at a new still
        picture is waited for as the worker's is (`rest.WAIT_EVERY`)."""
        if stage is not None and self.read and not settled:
            self.stood += 1
            return True
        if stage is None or self.stood >= IDLE_JOBS or at_rest:
            return False
        begun, waited = stage.begun, still  # frames with no job begun, or since the one under way began
        if begun != self.begun_at:
            if stage.ended >= begun:
                return False  # the stage keeps up: its job for the picture has ended
            if begun != self.job_seen:
                self.job_seen, self.job_from = begun, still
            waited -= self.job_from
        stands = waited >= STAND_IN_AFTER and (waited - STAND_IN_AFTER) % STAND_IN_EVERY == 0
        self.stood += stands
        return stands


class LiveScanner:
    """Reads a source frame by frame and reports what to announce."""

    _faltered: FrameSource | None = None
    """The camera opened whose frames the scanner could not take, once said (`sources.FramesUnusable`)."""
    _glanced: str | None = None
    """This frame's glance at rest, when `_resting_left` took it (`rest.Glance.check`)."""
    _left: _RestLeft | None = None
    """The rest as the last frame left (or glanced at still) set it (`_resting_left`)."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        report: Callable[[LiveEvent], None],
        cascade: Cascade | None = None,
        tracker: SightingTracker | None = None,
        pacer: CuePacer | None = None,
        guidance: bool = True,
        retry_seconds: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
        background: Stage | None = None,
        quiet_clock: Callable[[], float] = time.monotonic,
        repeat: float = 0,
    ):
        """`background`: the stage that finishes, beside the frame loop, what a frame's budget left undone (see
        `assistant.scanner.background`): in a process of its own (`stage_process.ProcessStage`, the app and
        `scan --camera`) it takes every retry off the loop's interpreter; None for none. `quiet_clock`: the seconds
        `quiet` counts, real ones (a test's frames' clock may stand still; the interpreter's time does not). `repeat`:
        seconds after which a card lying still is said again (the settings' `scan_repeat`; 0: once, `rest`), for the
        tracker made here."""
        self.open_source = open_source
        self.report = report
        self.cascade = cascade or Cascade()
        self.cascade.invert = False  # the stickers are dark on light (`decoders.TRY_INVERT`)
        self.tracker = tracker or SightingTracker(cooldown=rest.repeat_seconds(repeat))  # a card lying still: once
        self.pacer = pacer or CuePacer()
        self.guidance = guidance
        self.retry_seconds = retry_seconds
        self.clock = clock
        self.quiet_clock = quiet_clock
        self.background = background
        self.budget = self.cascade.budget
        """The frames' time (`budget.FrameBudget`): started here as each frame arrives, asked by the cascade."""
        self.source: FrameSource | None = None
        # Frames read from the source and handled; frames handed to `handle` directly that were converted or skipped
        # (`camera_frames`: a source's own were checked as they came).
        self.handled, self.frames = 0, FrameCheck()
        self._started = 0.0  # the frame's start on the budget's clock (its own work only)
        self.frame_ms = 0.0
        """What the last frame cost the loop, milliseconds on the cascade's clock (grey conversion to cue)."""
        self.cue_skipped = False
        """True when the last frame had no time left for the aiming measurement."""
        self.stood_in = False
        """True when the last frame stood in for a job the worker process had not begun (`STAND_IN_AFTER`)."""
        self.stopping = threading.Event()
        self._quiet_until = float("-inf")
        self._lost = False
        # the last frame measured for a cue, shrunk to tell whether the picture moved
        self._shrunk: MatLike | None = None
        # whether the last view measured saw nothing (no code-like region, no card), and frames since it
        self._nothing_seen = False
        # the last frame's coarse copy and how many frames the picture has been still with nothing read (idle)
        self._tiny: MatLike | None = None
        # ... and the motion check of a picture at rest, on a glance at fewer of the frame's rows (`rest.Glance`)
        self._still, self._glance = 0, rest.Glance()
        self._anchor: MatLike | None = None
        """The coarse copy of the still picture's first frame: a card creeping in, too slowly for any two frames in a
        row to differ, makes a new still picture once it has changed the picture since (`_idle`)."""
        self._crept_from = 0
        """The first of the pictures that, up to the one in view, each began as the one before crept (slowly moved,
        never jumped or moved between two frames: the same card)."""
        self._picture, self._settled = 0, -1
        """A number for the picture in view, new whenever it moves (the background stage's `no_code` names one), and
        the still picture every code read in which has been announced (a card read, lying there: at rest, `rest`)."""
        self._moving = False
        """True when the last frame moved against the one before."""
        self._moves = 0
        """Frames in a row that moved against the one before (a new still picture moves in one frame alone)."""
        self._jobs_when_still = 0
        """The background stage's job count when the picture was last seen moving (or a code read)."""
        self._stand_in = StandIn()
        """The priority rule (`STAND_IN_AFTER`): when the frame path stands in for the background stage."""
        # Frames left unmeasured for a cue while nothing is seen (`AIM_EVERY`); the still picture whose first frame,
        # a lone jump, was not measured (`AIM_STILL`): its first full frame once the worker's look found signs of a
        # code is (0: none owed).
        self._unmeasured, self._aim_owed = 0, 0
        self._aims_skipped = 0
        """Frames in a row whose aiming measurement did not fit."""
        self._sighted = False
        """This frame read a code (a view measured on an earlier frame then gives no cue)."""
        self._labels: tuple = ()
        """The background stage's `labels` when its jobs were last counted afresh."""
        self._signatures: dict[int, tuple[float, MatLike, int | None]] = {}
        """The time, coarse copy and still picture (None: moving) of each frame the background stage remembered, by
        its index (`SIGNATURES` of them)."""
        self._unsure: list[BackgroundRead] = []
        """Reads of the background stage that came back as the picture jumped: told in view or stale on the next
        frame (`_in_view`)."""
        self.stale = 0
        """Reads of the background stage dropped: the picture in view no longer showed, where the code was read,
        what the frame read showed there (the card read has gone, another may be there)."""
        self.exposure: ExposureControl | None = ExposureControl()
        """Metering on the code for a source whose exposure can be set (`set_exposure`); None once it cannot."""
        for notice in self.cascade.take_notices():
            self.report(ScannerNotice(notice))

    def open(self) -> bool:
        """Open the source; on failure report it (once per loss) and return False."""
        try:
            self.source = self.open_source()
        except SourceError as exc:
            self.source = None
            if not self._lost:
                self._lost = True
                self.report(SourceLost(exc.sentence))
            return False
        self.exposure = ExposureControl()  # a camera opened anew starts on its own auto exposure
        return True

    def step(self) -> bool:
        """Read and handle one frame; False when the source has ended (a file) or is lost (a camera)."""
        if self.source is None:
            return False
        try:
            frame = self.source.read()
        except FramesUnusable as exc:
            # The camera goes on giving frames the scanner cannot take: not lost, kept open, said once until it gives
            # a good one (and once for a camera opened: one that falters again and again is not told each time). No
            # frame says that a card lying there has left, so it is not said again once they come.
            if not self._lost and self._faltered is not self.source:
                self._faltered = self.source
                self._lost = True
                self.report(SourceLost(exc.sentence))
            return True
        except SourceError as exc:
            self._close()
            self.tracker.reset()
            self._settled = -1  # every code is new again: a card lying there too, once the camera is back
            if not self._lost:  # said once: a camera opened again that gives no usable frame is not lost anew
                self._lost = True
                self.report(SourceLost(exc.sentence))
            return False
        if frame is None:
            return False
        image = self.frames.usable(frame.image)  # (a source's frames were checked there: as they are)
        if image is None:
            return True  # skipped and counted; the source goes on
        if self._lost:
            self._lost = False  # back once it gives a frame the scanner takes, not as soon as it opens
            self.report(SourceBack())
        self.handle(image, frame.index, frame.time)
        self.handled += 1
        return True

    def handle(self, image: MatLike, index: int = 0, taken: float | None = None) -> list[CodeAnnounced]:
        """Decode one picture and report announcements and cues; return the announcements.

        `taken`: when the frame was taken (a video file's position); None stamps it with `clock` as it arrives
        (a live camera). Sightings, their cooldown and the cues' pacing all go by that time, never by how long the
        work took.

        Everything here counts against one budget (`budget.FrameBudget`, started as the frame arrives): grey
        conversion, the region search, the cascade and its retries, the aiming measurement; and against a cap in
        wall-clock time, which a busy machine reaches first. What does not fit is left to the background stage,
        which never holds up the next frame. The steps: `_begin` (the budget), `_idle` (what this frame gets),
        `_first_pass` (an idle picture's cheap look), `_search` (the code-like regions), the cascade,
        `_background` (offer and collect), `_sightings` (announce) and `_aim` (the cue)."""
        usable = self.frames.usable(image)  # (a camera's frames were checked by its reader: as they are)
        if usable is None:
            return []  # an empty or degenerate frame, counted (`frames`)
        image = usable
        now = self.clock() if taken is None else taken  # (the frame's time, read as it arrives: a test's frames' clock)
        if self._resting_left(image):
            return []
        starved = self._begin(image)
        if not self.cascade.can_decode:
            return []
        idle = self._idle(image)
        # (whether this frame stands in for a job the background stage has not begun or ended: `StandIn`)
        settled = self._settled == self._picture
        stand_in = self.stood_in = self._stand_in.stands(self.background, self._still, settled, self._at_rest())
        if stand_in:
            idle = "full"
        if idle != "full" and self.guidance:
            self._aims_skipped += 1  # measured no more than a crowded-out frame: an idle card's cue comes too
        if idle == "skip":
            # Nothing decoded, but what the background stage has finished is taken now, not at the next full frame
            # (an idle picture's are a second apart: a still card's read waited for one).
            late = self._taken(index, now, image)
            return self._end(self._views(self._sightings(index, now, late, looked=False) if late else [], now))
        frame = _Frame(index, now, self.cascade.grey(image), starved, stand_in=stand_in)
        if not stand_in and (idle == "first pass" or self._looked_empty()):
            return self._end(self._views(self._first_pass(frame), now))
        self._search(frame)
        found = self.cascade.decode(
            frame.gray, frame.regions, started=True, card=frame.card, retries=self._worker() is None or stand_in
        )
        self._stand_in.read = stand_in and bool(found)
        sightings = [Sighting(d.payload, *d.centre) for d in found]
        skipped = self.cascade.skipped  # (before `_again` may run the cascade once more)
        sightings += self._background(frame, found)
        announced = self._sightings(frame.index, now, sightings, looked=bool(found) or not (skipped or self._working()))
        if not announced and self.guidance and not sightings:
            self._aim(frame)
        return self._end(self._views(announced, now))

    def _resting_left(self, image: MatLike) -> bool:
        """True for a frame of a picture at rest that gets neither the first pass nor more than a glance: one left
        without the motion check (`rest.motion_unchecked`), or one whose glance did not move (`rest.Glance`) and
        that no first pass is due on. Counted, and nothing else done on it; what the background stage finished is
        taken on the next frame that gets more. Before, each went through the frame's budget, the priority rule and
        three looks at the stage (those left unchecked until 29 November, those glanced at still until 30
        November): 0.12 ms of CPU at 720p with the caches cold, as they are at 30 frames a second, most of what such
        a frame cost beside its glance. A glance that moved is kept for `_idle`, which checks the frame in full.

        A frame left (or glanced at still) says which frame the rest checks next and what it gets there
        (`rest.next_checked`, `_left`): the frames up to it are left, and it is glanced at, without asking the
        rest's rule again while nothing that decides it has changed. Each question cost a frame tens of microseconds
        with the caches cold, on every frame until 30 November."""
        self._glanced = None
        still, shape, left = self._still + 1, image.shape, self._left
        key = (self._picture, self._settled, shape)
        if left is not None and left.still == self._still and left.key == key:
            lying = left.lying  # (the rest as the frame before left it: no glance changed it since)
            if still < left.checked:
                self._still = left.still = still
                self._aims_skipped += self.guidance
                return True
            if left.first_pass:
                return False  # the first pass is due: `_idle` glances
            checked = True
        else:
            if not (self._still and self._tiny is not None and self._at_rest()):
                return False
            lying = rest.lying_still(self._settled == self._picture, self._glance)
            checked = not rest.motion_unchecked(still, shape, lying)
            if checked and rest.resting_frame(still, shape, lying) != "skip":
                return False  # the first pass is due: `_idle` glances
        if checked:
            self._glanced = self._glance.check(image)
            if self._glanced != "still":
                return False
        self._still = still
        self._moving, self._moves = False, 0
        self._aims_skipped += self.guidance  # (as any frame that is not full)
        self.stood_in = self.cue_skipped = self._sighted = False
        self.frame_ms = 0.0
        self._left = _RestLeft(still, *rest.next_checked(still, shape, lying), lying, key)
        return True

    def _begin(self, image: MatLike) -> bool:
        """Start the frame's budget as it arrives; True when the aiming measurement has been crowded out for
        `AIM_STARVED` frames, and its expected cost is then held back from the retries (a cue can wait a few
        frames, not for ever)."""
        starved = self.guidance and self._aims_skipped >= AIM_STARVED and self._worker() is None
        self._sighted = False
        pixels = image.shape[0] * image.shape[1]
        self.budget.start(reserve_ms=self.budget.expected_ms("aiming", pixels) if starved else 0.0)
        self._started = self.budget.clock()
        self.cue_skipped = False
        return starved

    def _end(self, announced: list[CodeAnnounced]) -> list[CodeAnnounced]:
        """Note what the frame cost (`frame_ms`) and return its announcements."""
        self.frame_ms = (self.budget.clock() - self._started) * 1000
        return announced

    def _first_pass(self, frame: _Frame) -> list[CodeAnnounced]:
        """An idle picture's frame: zxing-cpp's first pass on the whole frame, no retries, no cue; and what the
        background stage has finished. With the thread stage the dark frame's stretch too, but on an empty table
        (the stage's look found no sign of a code in it), which gets zxing-cpp's first pass alone with either stage:
        its histogram of the whole frame cost the thread stage's idle first pass half as much again."""
        resting = self._at_rest()
        found = self.cascade.decode(frame.gray, [], started=True, retries=self._worker() is None and not resting)
        sightings = [Sighting(d.payload, *d.centre) for d in found]
        sightings += self._taken(frame.index, frame.now, frame.gray)
        # A picture at rest has not moved: a card read in it that this pass missed has not left (`rest`).
        looked = (bool(found) or not self._working()) and self._settled != self._picture
        return self._sightings(frame.index, frame.now, sightings, looked=looked)

    def _at_rest(self) -> bool:
        """True when the still picture in view is at rest (`rest`): the background stage's look found no sign of a
        code in it (an empty table), or every code read in it has been announced (a card read, lying there)."""
        background = self.background
        return self._settled == self._picture or (background is not None and background.no_code == self._picture)

    def _waiting(self) -> bool:
        """True while the background stage looks at the still picture in view (`Stage.looking`) or works on a job
        begun since it came to rest (`rest.WAIT_EVERY`)."""
        stage = self.background
        if stage is None:
            return False
        return stage.looking(self._picture) or (stage.begun != self._stand_in.begun_at and stage.busy())

    def _working(self) -> bool:
        """True while the worker process has a frame in hand or waiting (or a measurement): a frame the frame path
        gave the first pass alone meanwhile is no evidence that a card it read has left, as a frame whose retries ran
        out of time is not (the tracker's `looked`). Before, such frames counted, and two reads of the worker's one
        job apart (a code under glare read by its labels, a second or two on) were never consecutive."""
        worker = self._worker()
        return worker is not None and worker.busy()

    def _looked_empty(self) -> bool:
        """True when the worker process has looked at this still picture and found no sign of a code in it (an
        empty table): its full frames then get the first pass alone. Nothing is offered to the worker (it has looked
        at this picture), and there is nothing to aim at (before, an aiming measurement was asked and dropped: the
        frame was never copied to the worker)."""
        worker = self._worker()
        return self._still > 0 and worker is not None and worker.no_code == self._picture

    def _search(self, frame: _Frame) -> None:
        """The code-like regions (and their squareness), metered for exposure; and the card found on its own,
        asked for by the retries only where the search joined a quarter of the picture or more into one region
        (a checked cloth's checks, the card among them). The aiming measurement then takes the same search.

        With the worker process doing the retries, the search is its work too (its offer and its aiming request go
        without regions, and it searches for itself): the exposure is metered on the first region of the worker's
        last search, a frame or a few old."""
        gray = frame.gray
        worker = self._worker()
        if worker is not None and not frame.stand_in:
            frame.searched = False
            region = worker.region
            self.exposure = metered(self.exposure, self.source, gray, [region] if region is not None else [])
            return
        frame.regions = find_code_regions(gray, shapes=frame.shapes)
        self.exposure = metered(self.exposure, self.source, gray, frame.regions)
        regions = frame.regions
        if regions and regions[0][2] * regions[0][3] > gray.size / TABLE_REGION:
            frame.card = functools.cache(lambda: find_card(gray))

    def _background(self, frame: _Frame, found: list[Decoded]) -> list[Sighting]:
        """Hand the background stage what the frame left undone, and take what it has finished."""
        background = self.background
        if background is None:
            return []
        background.remember(frame.index, frame.gray, self._picture)
        background.start()  # (nothing to do for a stage working in this thread, or already started)
        # A picture that has not moved since the stage worked on it `IDLE_JOBS` times holds nothing new for it,
        # nor does a still one in which the stage found no sign of a code (an empty table's grain or felt). In a
        # process of its own the stage is offered a frame without code-like regions too: its look at the whole
        # frame may read what the region search missed. So is the thread stage a still picture's: its look finds a
        # plain table (nothing code-like) empty, as it never did when offered none of it.
        # New decks in play (a game started, a card learnt) are new labels to match a still card against.
        labels = background.labels
        if self._still == 0 or labels != self._labels:
            self._jobs_when_still, self._labels = background.jobs, labels
        # A picture that moved in this frame alone is a new still one (a table seen anew, the camera knocked), and
        # only one that moves on is worked on whatever it shows (a card coming in is blurred).
        picture = None if self._moves >= 2 else self._picture
        # Every frame remembered, offered or not: the worker's next pass may go on the newest frame it finds.
        if self._tiny is not None:  # (always: `_idle` made it)
            self._signatures[frame.index] = (frame.now, self._tiny, picture)
        if len(self._signatures) > SIGNATURES:
            del self._signatures[next(iter(self._signatures))]
        # The worker process is offered a still picture's frames from its second on: its read is then checked on a
        # frame of the same picture (`BackgroundRead.frames`) and announced at once; a read of the picture's first
        # frame stood for one frame, and the worker's next read came a job and a rest later, too late to be its
        # second. (The thread stage's reads come a frame or two apart: it is offered the first frame too.)
        if (
            (picture is None or self._still > 0 or not background.retries_elsewhere)
            and not found
            and (self.cascade.skipped or frame.regions or background.retries_elsewhere or picture is not None)
            and background.jobs - self._jobs_when_still < IDLE_JOBS
            and (picture is None or background.no_code != picture)
        ):
            handed, handed_wall = self.budget.mark()
            background.offer(frame.index, frame.gray, frame.regions if frame.searched else None, picture)
            # Inline (tests, benchmark) it works here; a thread would not: not the frame's time.
            self._started += self.budget.clock() - handed
            self.budget.set_aside(handed, handed_wall)
        return self._taken(frame.index, frame.now, frame.gray)

    def _taken(self, index: int, now: float, image: MatLike) -> list[Sighting]:
        """The background stage's reads finished by frame `index` (taken at `now`, `image`) of a card still in view
        (`_in_view`), as sightings, each read by the worker process in one frame alone read again in this one
        (`_again`)."""
        if self.background is None:
            return []
        reads, self._unsure = [*self._unsure, *self.background.take(index)], []
        sightings = []
        for read in reads:
            verdict = self._in_view(read, now, image)
            if verdict is None:
                self._unsure.append(read)
            elif verdict:
                frames = read.frames + (read.frames == 1 and self._again(read.decoded, image))
                sightings.append(Sighting(read.decoded.payload, *read.decoded.centre, frames=frames))
        return sightings

    def _again(self, decoded: Decoded, image: MatLike) -> bool:
        """True when the background stage's read `decoded`, which stands for its frame alone, is read again in this
        frame (`image`) around where it was, on its box and half its size again all round: the stage that read it,
        alone, a millisecond or two, within the frame's budget; then, with the worker, the cascade. That is the
        second read the sighting tracker wants. Before, the worker's next read came a job later, two or more frames
        on, too late to count. Only a read by one of the cascade's own stages is tried: what finder repair, the
        erasures, the known labels, one finder, the average or the deblurring read, the cascade would not read
        again. The thread stage's reads too: its frame path's own retries, cut by the frame's budget, may not reach
        the step that read it (a code printed light on dark read by `invert`, a fourth retry), and its next read
        came a job and a rest later."""
        if decoded.stage not in CASCADE_STAGES:
            return False
        x, y, w, h = decoded.box
        pad = max(w, h) // 2
        crop = image[max(0, y - pad) : y + h + pad, max(0, x - pad) : x + w + pad]
        if min(crop.shape[:2]) < 8:
            return False
        if any(d.raw == decoded.raw for d in self.cascade.again(crop, decoded.stage)):
            return True
        if self._worker() is None:  # the frame path's own cascade ran on this frame already (the thread stage)
            return False
        return any(d.raw == decoded.raw for d in read_near(self.cascade, image, decoded.box, started=True))

    def _in_view(self, read: BackgroundRead, now: float, image: MatLike) -> bool | None:
        """True when the frame in view (taken at `now`, `image`) still shows, where the code was, what the read's
        frame showed there (on their coarse copies, and the code itself where the stage kept it: `BackgroundRead.patch`,
        `measure.same_code`; the coarse copy alone took another card laid where the one read had lain for the same, and
        the read of the card before, coming back during the next one's hold, was announced, the next card's picture
        counted as at rest and never read), or when the read's frame was taken less than `STALE_AFTER`
        before it and, since, the picture has not come to rest as another still picture but by creeping (a card
        coming in changes its box from frame to frame, and one creeping makes new still pictures of the same card);
        else the read is stale, dropped and counted (`stale`): a card read late must not be announced while the next
        one is held up. None when that cannot be told yet: the picture jumped in this frame alone, which a card
        moving on and the next card held still both do; the next frame tells (before, such a read was announced, and
        a card read a third of a second before the next one was held up was said during its hold)."""
        taken, before, picture = self._signatures.get(read.frame, (float("-inf"), None, None))
        if before is not None and self._tiny is not None:
            if not changed_at(before, self._tiny, read.decoded.box, image.shape):
                if read.patch is None or same_code(read.patch, image, read.decoded.box):
                    return True
                if picture == self._picture:
                    # Nothing moved, yet another code lies where the one read lay: a card swapped for the next one
                    # too evenly for the motion check. The next card's picture is a new one (its own jobs, its look).
                    self._new_picture(self._tiny, crept=False)
                    self.stale += 1
                    return False
        if now - taken < STALE_AFTER:
            if picture is None or self._moves >= 2 or (picture >= self._crept_from and self._moves == 0):
                return True  # read while the picture moved, moving on now, or crept since: a card on its way in
            if self._moves == 1:
                return None
        self.stale += 1
        return False

    def _sightings(self, index: int, now: float, sightings: list[Sighting], looked: bool) -> list[CodeAnnounced]:
        """The codes to announce from this frame's sightings (a frame whose cascade ran out of time with nothing
        read, `looked` False, is no evidence that a card left the view), announced after the confirmation cue."""
        self._sighted = self._sighted or bool(sightings)
        announced = [CodeAnnounced(s.payload, index) for s in self.tracker.update(sightings, now, looked)]
        settled = bool(sightings) and all(self.tracker.announced(s.payload) for s in sightings)
        if sightings and not (settled and self._settled == self._picture):
            self._still = 0  # something new read: not at rest, however still the picture
            if self.background is not None:
                self._jobs_when_still = self.background.jobs
        if sightings:  # every code read here has been said: at rest (`rest`); a code not yet said wakes it
            self._settled = self._picture if settled else -1
        self._announce(announced, now)
        return announced

    def _aim(self, frame: _Frame) -> None:
        """The aiming measurement and its cue, when nothing was read. It has a cost of its own, learnt from its own
        runs, and is skipped when that no longer fits the frame (unless crowded out for a while). While nothing
        code-like is in view, nor was in the last view measured (an empty table), it runs on every `AIM_EVERY`th
        frame only: cues settle over half a second and are said at most every 1.5 s, so a tenth of a second
        between measurements loses nothing."""
        self.budget.release()  # the time held back for the measurement, if any
        gray = frame.gray
        worker = self._worker()
        if frame.searched and not frame.regions and self._nothing_seen and self._unmeasured < AIM_EVERY - 1:
            self._unmeasured += 1
        elif worker is not None and self._still == 0 and self._moves == 1:
            # A frame that moved alone after a still picture: its picture's measurement is owed (`AIM_STILL`).
            self._aim_owed = self._picture
            return
        elif (
            worker is not None
            and 0 < self._still < IDLE_AFTER
            and (
                self._still % AIM_STILL
                if self._aim_owed != self._picture
                else worker.looking(self._picture) or worker.no_code == self._picture
            )
        ):
            # A still picture's view is measured by the worker on one frame in `AIM_STILL` until it turns idle (each
            # measurement took 14 to 18 ms of the worker's CPU at 720p on a checked cloth, most of a cluttered empty
            # table's first second), and on its first full frame after its look when owed. An idle picture's full
            # frames, one a second, are each measured.
            return
        elif worker is not None:
            # The worker process measures (its heavy parts: the card and close-up searches, sharpness, burnt-out
            # patches, the motion check); the cue comes from its view a few frames on (`_views`).
            region = frame.regions[0] if frame.regions else None
            worker.aim(frame.index, region, frame.shapes[0] if frame.shapes else None)
            self._unmeasured = self._aims_skipped = self._aim_owed = 0
        elif frame.starved or self.budget.fits("aiming", gray.size):
            started, wall_started = self.budget.mark()
            if self.cascade.on_step is not None:  # a test's clock spends the measurement's time here
                self.cascade.on_step("aiming", "aiming")
            said = self._measure(frame)
            self.budget.learn("aiming", gray.size, started, wall_started)
            if said is not None:
                self.report(CueGiven(said))
        else:
            self.cue_skipped = True
            self._aims_skipped += 1

    def _measure(self, frame: _Frame) -> Cue | None:
        """Measure the view for a cue and pace it; the cue to say now, if any."""
        gray, shapes = frame.gray, frame.shapes
        region = frame.regions[0] if frame.regions else None
        view = measure_view(gray, region, squareness=shapes[0] if shapes else None, card_search=frame.card)
        small, before = shrunk(gray), self._shrunk
        self._shrunk = small
        moving = before is not None and moved(before, small)
        return self._cue(replace(view, still=before is not None and not moving), moving, frame.now)

    def _cue(self, view: FrameView, moving: bool, now: float) -> Cue | None:
        """The cue for a measured view, paced; the cue to say now, if any. Whether a finger covers a corner of the
        code comes from the background stage, which looks for finder patterns anyway."""
        if self.background is not None and self.background.finger_over:
            view = replace(view, hidden_corner=True)
        exposure = self.exposure
        if exposure is not None and exposure.share < 1.0:
            view = replace(view, exposure_shortened=True, clipped_however_exposed=exposure.reflection)
        cue = aiming_cue(view)
        card = view.card_side if view.card is not None else None
        seen = view.region is not None or view.card is not None
        said = self.pacer.pace(cue, now, moved=moving, seen=seen, card=card)
        self._unmeasured = self._aims_skipped = 0
        self._nothing_seen = not seen
        return said

    def _views(self, announced: list[CodeAnnounced], now: float) -> list[CodeAnnounced]:
        """The cue from an aiming measurement the worker process finished (asked for by `_aim`), said when this
        frame announced nothing; `announced` returned as it is."""
        worker = self._worker()
        if not self.guidance or worker is None:
            return announced
        measured = worker.take_view()
        if measured is not None and not announced and not self._sighted:
            said = self._cue(*measured, now)
            if said is not None:
                self.report(CueGiven(said))
        return announced

    def _worker(self) -> Stage | None:
        """The background stage while it does every retry (the worker process, `stage_process`): the retries (the
        dark stretch among them), the region search and the aiming measurement are then its work, and the frame
        path does zxing-cpp's first pass only. None otherwise (no stage, or the thread stage)."""
        background = self.background
        return background if background is not None and background.retries_elsewhere else None

    def _announce(self, announced: list[CodeAnnounced], now: float) -> None:
        """Report the codes to announce, after the confirmation cue."""
        if not announced:
            return
        if self.guidance:
            self.pacer.pace(Cue.READ, now)  # said at once, always; guidance settles again from here
            self.report(CueGiven(Cue.READ))
        for event in announced:
            self.report(event)

    def _idle(self, image: MatLike) -> str:
        """What to do with this frame: "skip", "first pass" or "full" (see `IDLE_AFTER`). The picture is idle once
        it has been still, with nothing read, for `IDLE_AFTER` frames (an empty table, a card lying unread), or as
        soon as the background stage's look found no sign of a code in it. The
        motion is told on a coarse copy of the frame's green (or grey) plane, every fourth pixel of every fourth row
        of a frame 1280 wide (every sixth of a frame 1920 wide: the same 320 by 180 samples at any resolution; every
        fourth at 1080p took 0.8 ms of a paced frame, most of what an idle 1080p table cost), in blocks of
        `measure.MOTION_SIZE`."""
        import cv2

        resting = bool(self._still and self._tiny is not None and self._at_rest())
        glanced = "moved"  # (what the glance at rest saw, `rest.Glance.check`; `_resting_left` may have glanced)
        if resting and (glanced := self._glanced or self._glance.check(image)) == "still":
            # a frame at rest given the first pass whose glance did not move (`rest`; those left without the motion
            # check, and those glanced at still with no first pass due, never come here: `_resting_left`)
            self._still += 1
            self._moving, self._moves = False, 0
            lying = rest.lying_still(self._settled == self._picture, self._glance)
            return rest.resting_frame(self._still, image.shape, lying)
        step = max(4, round(4 * image.shape[1] / 1280))
        plane = image[::step, ::step, 1] if image.ndim == 3 else image[::step, ::step]
        tiny = cv2.resize(plane, MOTION_SIZE, interpolation=cv2.INTER_AREA)
        before, self._tiny = self._tiny, tiny
        new = before is None or before.shape != tiny.shape
        # a camera's first: not known to move; at rest, a glance that moved against the rest's first alone neither
        self._moving = before is not None and not new and glanced == "moved" and moved(before, tiny)
        self._moves = self._moves + 1 if self._moving else 0
        crept = not new and not self._moving and self._anchor is not None and moved(self._anchor, tiny)
        if new or self._moving or crept:
            self._new_picture(tiny, crept)
            return "full"
        if resting:
            self._glance.confirmed()
        elif self._glance.last is None and self._at_rest():
            # The rest's first frame, checked in full: its glance is the first of the rest, so the next frame checked
            # is a glance against it. Before, that glance had none to compare with and was checked in full too.
            self._glance.check(image)
        self._still += 1
        if self._settled == self._picture:
            # a card read, lying there: the watch (`rest`)
            return rest.resting_frame(self._still, image.shape, rest.lying_still(True, self._glance))
        background = self.background
        # A still picture in which the background stage's look found no sign of a code (an empty table) is idle at
        # once, not after a second: each new table costs its first frames and one look.
        looked = background is not None and background.no_code == self._picture
        # So is one whose job (the worker's or the thread's) read nothing and showed no finder-like pattern (a bright
        # patch the look took for a card, or a card it cannot read): the worker is offered no more of it, and its
        # full frames would add only the first pass to the aiming measurements. Those a cue settles on go on as
        # they would (one frame in `AIM_STILL` over its half second), so a cue is said as soon.
        worked = background is not None and background.no_finder == self._picture
        scale = max(1.0, image.shape[0] * image.shape[1] / IDLE_PIXELS)
        if looked:
            # An empty table gets the first pass alone, on one frame in `IDLE_EVERY_EMPTY`: no full frame once a
            # second either. With the worker a full frame of it was a first pass anyway (`_looked_empty`: nothing to
            # offer or aim at), one more off the grid (3 of 13 a 4 s table); with the thread stage it was the region
            # search, the retries and the aiming measurement, a third of a cluttered table's cost.
            return rest.resting_frame(self._still, image.shape)
        if self._still < IDLE_AFTER and not worked and self._waiting():
            # The stage's look at this new still picture (signs of a code, or none), or its job on it, has not come
            # back: its frames get the first pass on one in `rest.WAIT_EVERY` until it does, with either stage (an
            # empty table costs its first frame and a look, however late; a cluttered one the look took for a card,
            # its job); a stage starved of a core is stood in for (`StandIn`).
            return rest.waiting_frame(self._still)
        if (self._still < IDLE_AFTER and not worked) or self._still % round(IDLE_FULL * scale) == 0:
            return "full"
        if worked and self._still <= 2 * AIM_STILL and self._still % AIM_STILL == 0:
            return "full"
        every = IDLE_EVERY_EMPTY if worked else IDLE_EVERY
        return "first pass" if self._still % round(every * scale) == 0 else "skip"

    def _new_picture(self, tiny: MatLike, crept: bool) -> None:
        """A new picture in view (its coarse copy `tiny`), `crept` when it came by creeping from the one before."""
        self._still = 0
        self._glance.forget()
        self._picture = next(_PICTURES)
        begun = self.background.begun if self.background is not None else 0  # the stage's jobs begun so far
        self._stand_in.new_picture(begun)
        self._anchor = tiny
        if not crept:
            self._crept_from = self._picture

    def quiet(self, seconds: float) -> None:
        """Leave the interpreter to the app for `seconds` on `quiet_clock` (from any thread): `run` handles no frame
        meanwhile, then the newest (a webcam's reader keeps no other)."""
        self._quiet_until = self.quiet_clock() + seconds

    def run(self) -> None:
        """Scan until `stop()`: open, read frames, and after a loss retry every `retry_seconds`; no frame while
        asked to be `quiet`."""
        while not self.stopping.is_set():
            if self.source is None and not self.open():
                self.stopping.wait(self.retry_seconds)
                continue
            wait = self._quiet_until - self.quiet_clock()
            if wait > 0:
                self.stopping.wait(min(wait, 0.05))
                continue
            if not self.step():
                if not self._lost:  # a file that ended: done
                    break
                self.stopping.wait(self.retry_seconds)
        self._close()
        if self.background is not None:
            self.background.stop()

    def stop(self) -> None:
        """Ask `run` to finish (from any thread)."""
        self.stopping.set()
        if self.background is not None:
            self.background.stop()

    def _close(self) -> None:
        if self.source is not None:
            try:
                self.source.close()
            finally:
                self.source = None


def metered(
    exposure: ExposureControl | None,
    source: FrameSource | None,
    gray: MatLike,
    regions: list[tuple[int, int, int, int]],
) -> ExposureControl | None:
    """Meter the exposure on the code-like region seen (`regions`' first), for a source that lets its exposure be set
    (see `assistant.core.scanning.exposure`): the control to go on with, None once the source refused (the first
    refusal ends it: a file's at once). The live loop's metering, apart from its frame path."""
    if exposure is None or source is None:
        return exposure
    share = exposure.update(white_level(gray, regions[0]) if regions else None)
    return None if share is not None and not source.set_exposure(share) else exposure


def camera_opener(index: int, capture_factory: Callable[[int], Capture] | None = None) -> Callable[[], FrameSource]:
    """A function opening webcam `index` (with a fake capture factory in tests); with OpenCV's own capture it can be
    sent to another process (`live_process`)."""
    from assistant.scanner.sources import Webcam, open_capture

    return functools.partial(Webcam, index, capture_factory or open_capture)
