"""The background stage: what does not fit a frame's budget, done on the latest frame at a lower rate.

The live loop (`LiveScanner.handle`) must finish every frame within `decoders.FRAME_BUDGET_MS`; when its cascade
leaves retries undone, or reads nothing where a code-like region is, it offers the frame here. The background
stage takes one frame at a time (a newer one offered replaces the one waiting) and does, without a deadline:

1. the card found on its own goes first among the regions when none of the first two is on it (`measure.with_card`:
   a busy table's pattern may take every region);
2. the whole cascade on that frame, every retry stage included, on each region as found (as the frame path with
   the thread stage tries them: the upscales shrink a larger crop less, and an evaluation still at 1080p that
   "upscale-global" reads on the card's own region it missed on the wider one), then on each region widened by
   `WIDEN` of its longer side all round: a reflection on part of a code leaves too few edges there for the region
   search, which then cuts that part off (finder patterns included); the frame loop has no time for the larger
   crops;
3. when that fails and only two of the code's three finder patterns show, **finder repair** (`repair`): a
   finder pattern painted where the hidden one must be, as under a thumb holding the card; and whether a
   finger covers that corner (`finger_over`, for the aiming cue: the frame loop has no time to look);
4. when that fails, **erasures** (`erasures`): the modules read from where the finder patterns that show put
   them, those a reflection burns out or a thumb covers counted as erased rather than guessed, which the error
   correction makes up for twice as many of (one of the project's own labels only); and when even that cannot
   solve them, the **known labels** (`known`): what shows of the modules matched against the labels of the decks
   in play, one read only when it agrees with one label far better than with any other; where only one finder
   pattern shows (a thumb over one, a reflection over another), **one finder** (`lone`): the modules read by
   erasures from where that one pattern and the module contrast around it put them;
5. when that fails and the card is held still, the **average of the last frames** over the code's region:
   averaging four frames halves the sensor noise of a dim room, which a single frame cannot do;
6. on a still picture, when that fails, the **whole-frame retries** (`decoders.WHOLE_STAGES`, one a step): the
   global-histogram binarizer, a blur, CLAHE and two upscales on the whole frame, which the region search may have
   cut a code out of (glare) or which upscale a code over 400 pixels across, then OpenCV's WeChat detector;
7. when that fails too and the card moved (its region changed from the frame before: a card held still shows no
   motion blur), **motion deblurring**: a Wiener deconvolution of the region with straight-line blur
   kernels (5 to 13 pixels, every 15 degrees) until one reads, within `DEBLUR_SECONDS`; on the tuning set it
   reads 8 of the 9 motion-blurred frames every other stage misses, in about 80 ms (too slow for a frame, fine
   here);
8. a read is checked on the frame before it by the steps that read it (the cascade around the code; steps 3 and
   4 on the same regions; the inverted look below on the whole frame), or comes from several frames averaged, and
   is then reported as standing for two frames, so the sighting tracker may announce it at once; a read seen in
   one frame only counts as one (the stage's next read comes several frames on, too late to be its second).

Where the regions give nothing, the stage takes **a look at the whole frame** with ZBar (`Cascade.whole_look`),
as a still picture's look does too: the region search can miss a sticker (under a glare spot, far away) that ZBar,
scanning the whole frame, reads; with it the stage reads every frame ZBar alone reads. On the tuning frames
(`benchmarks/frames.py`, 15 seeds of every category, 180 frames) neither ZBar's whole-frame scan nor zxing-cpp's
second binarizer on the whole frame read any of the 49 frames the cascade misses there, at 29 ms and 1.3 ms of
CPU a 720p frame; ZBar was chosen as the plain decoder the live path read fewer than (see docs/scanner.md).
Then zxing-cpp's first pass on the whole frame inverted (`_inverted`): a code printed light on dark, which the live
path's own passes do not try (`decoders.TRY_INVERT`), 1 to 2 ms a 720p frame.

A frame of a still picture (`offer(..., picture=N)`: the live loop numbers each picture that stands still) is
first looked at for **signs of a code** (`shows_code`: the card found on its own with its code's black showing in
it, or a finder-like pattern in one of the first code-like regions), a few milliseconds; without any, nothing more
is done (`looks`, not `jobs`) and the picture is marked as holding no code (`no_code`), so the live loop offers no
more of it until something moves. An empty table's wood grain or felt gives code-like regions all evening, and
working on them (up to a second of CPU a frame, deblurring included) was most of what the camera cost on an empty
table. A picture that jumps in one frame and then stands still (an empty table seen anew) is a still picture
from that first frame: one look, no work. A frame of a picture that moves on (two frames in a row) is worked on
whatever it shows: a card coming in is blurred.

It never delays the next frame: on a camera its worker runs in a process of its own, or on a thread where no
process starts (`stage_process.ProcessStage`, one scheduler for both, `schedule.JobSchedule`); the live loop only
collects finished results (`take`). `BackgroundStage` itself (tests and the benchmark) works in the caller's thread
and holds each result back for as many frames as the work took, as a worker beside the frame loop would deliver
it. OpenCV's WeChat QR detector (opencv-contrib's, without its CNN's model files) is a still picture's last
whole-frame retry (`decoders.WHOLE_STAGES`).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    from cv2.typing import MatLike
    from numpy.typing import NDArray

    from assistant.core.scanning.aiming import FrameView
    from assistant.scanner.measure import FoundCard

from assistant.scanner import deblur
from assistant.scanner.decoders import WHOLE_FRAME_RETRY, WHOLE_STAGES, Cascade, Decoded
from assistant.scanner.erasures import read_hidden
from assistant.scanner.known import KnownLabels
from assistant.scanner.lone import lone_grids
from assistant.scanner.measure import grown
from assistant.scanner.repair import Place, around, code_places, finger_over, hidden_places, repaired_views
from assistant.scanner.schedule import done_with

#: Frames kept for the average (at 30 frames a second, about 130 ms of a card held still).
AVERAGE_FRAMES = 4
#: Mean absolute grey-level change between two frames' crops under which the card counts as held still.
STILL_LEVEL = 6.0
#: Blur lengths (pixels) and directions (degrees) the deblurring tries, and how long it may take per frame.
DEBLUR_LENGTHS = (5, 7, 9, 11, 13)
DEBLUR_ANGLES = tuple(range(0, 180, 15))
DEBLUR_SECONDS = 0.3
#: How much wider than the region search's own the regions the cascade retries here are, on each side, as a share
#: of the region's longer side.
WIDEN = 0.25
#: How many of the regions finder repair works on.
REPAIR_REGIONS = 2
#: After each frame the inline stage rests for this share of the time the frame took (counted in frames: the tests'
#: and the benchmark's host, `BackgroundStage`).
REST = 1.0
#: A card found on its own shows its code's black when its darkest 5 % of pixels are under this share of its
#: brightest 1 %. Evaluation camera stills at 720p (seeds 0 to 149): of the 54 cards in view the frame path does
#: not read, 51 are found on their own, at 0.27 to 0.67; of the other three, two show finder-like patterns (the
#: stage reads both) and one nothing (the stage does not read it). The bright patches of a checked cloth taken for
#: a card: 0.87 to 0.95, and one of 60 empty tables at 0.56 (it passes).
CODE_DARK = 0.75
#: A card cut off by the picture's edge over this share of the picture or more is held close, not a patch of the
#: table at its edge (a checked cloth's: 1 % of the picture at most on the evaluation camera).
CLOSE_CARD_SHARE = 0.25
#: The cascade's retries that a still picture's look tries on a frame the cascade retries whole (at most
#: `decoders.WHOLE_FRAME_RETRY` across: a photo, a small camera's frame), after ZBar's look read nothing: there the
#: look's signs of a code (`shows_code`) come from code-like regions that the cascade itself does not use, and a
#: code they miss was read by no job at all. The cheapest retries, in order until one reads: zxing-cpp on the frame
#: sharpened, then with its grey levels stretched (about 1.4 ms of CPU on an empty 640 by 480 frame together), then
#: the first three of the job's whole-frame retries (`decoders.WHOLE_STAGES`: the global-histogram binarizer, the
#: blur, CLAHE; about 1 ms each more there), once a still picture. jsQR's photos (never tuned on until then):
#: `museum-2` (a small code on a museum's wall, sharpened) and `windows-screenshot` (a code on a red screen, its grey
#: levels within 45 of each other, stretched), which `scan` reads and the live path did not; the last three, the
#: tuning half of BoofCV's photos that WeChat alone reads, four of whose photos under 1000 pixels show no sign of a
#: code to the look (glare).
LOOK_RETRIES = ("sharpen", "stretch", "whole-global", "whole-blur", "whole-clahe")


@dataclass(frozen=True)
class BackgroundRead:
    """A code the background stage read, and the frame it was read in."""

    decoded: Decoded
    frame: int
    frames: int
    """How many frames the read stands for (2 when checked on a second frame or read from an average)."""
    patch: Any = field(default=None, compare=False)
    """The code as its frame showed it (`measure.code_patch`, made by `BackgroundStage.work`; None: not kept): the
    live loop tells by it whether the code in view is still this one once the picture has moved since its frame."""


class Stage(Protocol):
    """What the live loop asks of a background stage, on a thread (`BackgroundStage`) or in a worker process
    (`stage_process.ProcessStage`): the loop never asks which one it has."""

    @property
    def jobs(self) -> int:
        """Frames worked on so far."""

    @property
    def begun(self) -> int:
        """Jobs begun so far, looks included (a busy machine may leave one offered waiting for a core)."""

    @property
    def ended(self) -> int:
        """Jobs ended so far, looks included: one is under way while `begun` is more."""

    @property
    def no_code(self) -> int | None:
        """The last still picture in which no sign of a code was found."""

    @property
    def no_finder(self) -> int | None:
        """The last still picture whose job read nothing and showed no finder-like pattern: offered no more."""

    @property
    def finger_over(self) -> bool:
        """A finger covered a corner of the code in the last frame finished."""

    @property
    def region(self) -> tuple[int, int, int, int] | None:
        """The first code-like region of the last frame the stage searched (None: none, or it searches none)."""

    @property
    def labels(self) -> tuple:
        """What tells the labels of the decks in play apart (`known.decks_key`): when they change, the live loop
        works on a still picture again."""

    @property
    def retries_elsewhere(self) -> bool:
        """True when the stage does every retry, the region search and the aiming measurement, and the live loop
        only zxing-cpp's first pass."""

    def start(self) -> None:
        """Start working beside the live loop (nothing to do where the work is done in the caller's thread)."""

    def stop(self) -> None:
        """Stop working (the frame worked on is finished first)."""

    def busy(self) -> bool:
        """True while a frame is being worked on or waits for its turn."""

    def remember(self, index: int, gray: MatLike, picture: int | None = None) -> None:
        """Keep a frame (the live loop calls it for every frame it offers from). `picture`: the live loop's number
        for the picture in view; a job waiting for another still picture is dropped (that picture is gone: its reads
        would be stale, and it would hold up the new picture's first job)."""

    def offer(
        self, index: int, gray: MatLike, regions: Iterable[tuple[int, int, int, int]] | None, picture: int | None
    ) -> None:
        """The latest frame the live loop could not finish, its code-like regions (None: searched by the stage)
        and the still picture it belongs to (None: the picture moves)."""

    def take(self, index: int) -> list[BackgroundRead]:
        """The reads finished by frame `index` (each given once)."""

    def aim(self, index: int, region: tuple[int, int, int, int] | None, squareness: float | None) -> None:
        """Ask for the aiming measurement of frame `index` (where `retries_elsewhere`; else nothing is asked)."""

    def take_view(self) -> tuple[FrameView, bool] | None:
        """The newest aiming measurement finished since the last call, and whether the picture moved (None:
        none)."""

    def looking(self, picture: int) -> bool:
        """True while still picture `picture`'s look for signs of a code has been asked and not come back."""


@dataclass
class Job:
    """One frame's work for the background stage: the frame, its regions and the frames before it (handed to the
    worker process as it is)."""

    index: int
    gray: Any
    regions: list
    history: list
    ready_at: int = 0
    free_at: int = 0
    results: list | None = None
    finger_over: bool = False
    picture: int | None = None
    """The still picture the frame belongs to (the live loop's number for it); None while the picture moves."""


#: A slow step of a job (`BackgroundStage._slow_steps`): given the frame worked on and its regions, its reads.
SlowStep = Callable[[Job, list[tuple[int, int, int, int]]], list[BackgroundRead]]


class BackgroundStage:
    """See the module docstring: the work of a job (`work`), done in the caller's thread (the inline host: tests and
    the benchmark), its results held back for as many frames as the work took. `offer(index, gray, regions)` each
    frame the live loop could not finish, `take(index)` each frame for what is done. A live camera's stage is
    `stage_process.ProcessStage`, whose worker (a process, or a thread) does the same `work`."""

    retries_elsewhere = False
    """The live loop keeps its own budgeted retries, its region search and its aiming measurement beside this stage
    (see `stage_process.ProcessStage.retries_elsewhere`)."""
    region = None
    """The frame path searches for the regions itself (`retries_elsewhere`)."""

    def __init__(
        self,
        cascade: Cascade | None = None,
        frame_ms: float = 1000 / 30,
        known: KnownLabels | None = None,
        rest: float = REST,
    ):
        """`known`: the labels of the decks in play, to match a code too hidden to decode against (see
        `assistant.scanner.known`); None to read only what decodes. `frame_ms`: a frame's time, which a job's
        delay is counted in; `rest`: after each frame, the stage waits this share of the time the frame took before
        it takes the next (see `REST`)."""
        self.cascade = cascade or Cascade(budget_ms=None)
        self.cascade.invert = False  # the stickers are dark on light (`decoders.TRY_INVERT`)
        self._glance = Cascade(tuple(s for s in LOOK_RETRIES if s in self.cascade.stages), None, wall_ms=None)
        self._glance.invert = False
        self.known = known
        self.rest = rest
        self.frame_ms = frame_ms
        self._history: deque = deque(maxlen=AVERAGE_FRAMES)
        self._running: Job | None = None
        self._done: list[BackgroundRead] = []
        self.jobs = 0
        """Frames worked on so far (a frame of a still picture only looked at for signs of a code not counted)."""
        self.begun = self.ended = 0
        """Jobs begun and ended so far, looks included (`Stage.begun`, `Stage.ended`)."""
        self.looks = 0
        """Frames of a still picture looked at and found without any sign of a code (see `shows_code`)."""
        self.no_code: int | None = None
        """The last still picture (the live loop's number for it) in which no sign of a code was found."""
        self.no_finder: int | None = None
        """The last still picture whose job read nothing and showed no finder-like pattern (`finder_like`): offered
        no more frames until it moves (the live loop goes on with it as with any still picture)."""
        self.read_in: int | None = None
        """The last still picture a job read its codes in, each checked on a second frame (announced at once):
        offered no more frames until it moves. Its next job, begun as the reading one ended, ran into the next
        card's hold."""
        self.finger_over = False
        """A finger covered a corner of the code in the last frame finished (see `repair.finger_over`)."""
        self.retried_whole: int | None = None
        """The last still picture on which every whole-frame retry (`decoders.WHOLE_STAGES`) read nothing: its later
        jobs, on frames that differ by the sensor's noise alone, skip them (WeChat's detector among them, 0.13 to
        0.7 s a frame). A read stays retried: checked on the frame before, it may stand for one frame, and the next
        job's read then confirms it."""

    def remember(self, index: int, gray: MatLike, picture: int | None = None) -> None:
        """Keep a frame for the average (the live loop calls it for every frame; only the last few are kept)."""
        self._history.append((index, gray))

    @property
    def labels(self) -> tuple:
        """The decks in play's key (`known.decks_key`; empty without known labels)."""
        return self.known.key() if self.known is not None else ()

    def aim(self, index: int, region: tuple[int, int, int, int] | None, squareness: float | None) -> None:
        """Nothing asked: the frame path measures (`retries_elsewhere`)."""

    def take_view(self) -> tuple[FrameView, bool] | None:
        """None: the frame path measures (`retries_elsewhere`)."""
        return None

    def looking(self, picture: int) -> bool:
        """False: a still picture's look is done as it is offered."""
        return False

    def busy(self) -> bool:
        """True while a frame is being "worked on" (its results held back, or its rest after them)."""
        return self._running is not None

    def offer(
        self,
        index: int,
        gray: MatLike,
        regions: Iterable[tuple[int, int, int, int]] | None,
        picture: int | None = None,
    ) -> None:
        """Work on the latest frame the live loop could not finish, with its code-like regions (None: they are
        searched for here), unless still "working" on an earlier one. `picture`: the live loop's number for the
        still picture the frame belongs to (it is then worked on only where it shows signs of a code), None while
        the picture moves."""
        from assistant.scanner.measure import find_code_regions

        if done_with(picture, self.read_in, self.no_finder) or self._running is not None:
            return
        found = list(regions) if regions is not None else find_code_regions(gray)
        job = self._running = Job(index, gray, found, list(self._history), picture=picture)
        clock = self.cascade.clock
        started = clock()
        job.results = self.work(job)
        self.ended += 1
        elapsed_ms = (clock() - started) * 1000
        job.ready_at = job.index + max(1, math.ceil(elapsed_ms / self.frame_ms))
        job.free_at = job.index + max(1, math.ceil(elapsed_ms * (1 + self.rest) / self.frame_ms))

    def take(self, index: int) -> list[BackgroundRead]:
        """The reads finished by frame `index` (each given once)."""
        running = self._running
        if running is not None and running.ready_at <= index and running.results is not None:
            self._done.extend(running.results)
            self.finger_over = running.finger_over
            running.results = None  # given once; the stage rests until `free_at`
        if running is not None and running.free_at <= index and running.results is None:
            self._running = None
        done, self._done = self._done, []
        return done

    def start(self) -> None:
        """Nothing: the work is done in the caller's thread."""

    def stop(self) -> None:
        """Nothing: the work is done in the caller's thread."""

    def work(
        self,
        job: Job,
        seen: Callable[[bool], None] | None = None,
        newest: Callable[[Job, tuple[int, int, int, int] | None], Job | None] | None = None,
    ) -> list[BackgroundRead]:
        """Everything the stage does for one frame (see the module docstring). `seen`: told, as soon as it is
        known, whether a still picture's frame shows signs of a code (before the whole frame's look or the work:
        the worker process tells the live loop at once). `newest`: given the job and its first region, the newest
        frame remembered when later and the picture has moved on (None: it is not); where the cascade reads nothing
        on the job's frame, each slow step (`_slow_steps`) first gives way to it, the cascade on it first (a card
        coming in or settling reads on a later frame), or ends the job where it is of another still picture
        (`Job.picture` set): its own job, its look first, comes next (one job outlasted seven cards before). On a
        still picture, the codes beside those it reads too (`_swept`); one whose codes it reads, each checked on a
        second frame, is `read_in`."""
        frames = {index: gray for index, gray in job.history}
        frames[job.index] = job.gray

        def fresh(worked: Job, region: tuple[int, int, int, int] | None) -> Job | None:
            later = newest(worked, region) if newest is not None else None
            if later is not None:
                frames[later.index] = later.gray
            return later

        reads = self._work(job, seen, fresh if newest is not None else None)
        if reads and job.picture not in (None, self.retried_whole):
            reads += self._swept(job, reads)
        if job.picture is not None and reads and all(read.frames == 2 for read in reads):
            self.read_in = job.picture
        return [_kept(read, frames.get(read.frame)) for read in reads]

    def _swept(self, job: Job, reads: list[BackgroundRead]) -> list[BackgroundRead]:
        """The codes beside those a still picture's job read (a sheet of several, two cards side by side): the job's
        steps end at the first that reads, and a picture read is offered no more (`read_in`, or at rest once the
        frame path confirms its read), so the whole-frame retries (`decoders.WHOLE_STAGES`) not yet run in the job
        look for more on its frame; WeChat's detector apart (0.13 to 0.7 s of CPU a camera frame, 2 to 2.6 s on a
        photo 2560 pixels tall). Each code not read yet is checked on the frame before by the same retry. BoofCV's
        photos that WeChat alone reads: on two sheets of three codes the job read one or two, and WeChat another
        (`bright_spots/image019` and `image023`)."""
        ran = max((WHOLE_STAGES.index(r.decoded.stage) for r in reads if r.decoded.stage in WHOLE_STAGES), default=-1)
        more: list[BackgroundRead] = []
        for stage in (s for s in WHOLE_STAGES[ran + 1 :] if s != "whole-wechat"):
            more += self._retried(job, stage, {r.decoded.raw for r in reads + more})
        return more

    def _retried(self, job: Job, stage: str, read: Container[bytes] = ()) -> list[BackgroundRead]:
        """One of `decoders.WHOLE_STAGES` on the job's frame: the codes it reads (but those `read` already, raw
        bytes), each checked on the frame before by the same retry."""
        reader = partial(self.cascade.whole_retry, stage=stage)
        return self._checked(job, [d for d in reader(job.gray) if d.raw not in read], reader)

    def _work(
        self,
        job: Job,
        seen: Callable[[bool], None] | None,
        newest: Callable[[Job, tuple[int, int, int, int] | None], Job | None] | None,
    ) -> list[BackgroundRead]:
        """`work`'s reads: those of the first step that reads."""
        from assistant.scanner.measure import find_card, with_card

        given = job
        self.begun += 1
        card = find_card(job.gray)
        if job.picture is not None:
            shows = shows_code(job.gray, job.regions, card)
            itself = not shows and shows_symbol(job.gray, job.regions, self.cascade)
            if seen is not None:
                seen(shows or itself)
            if not shows:
                self.looks += 1
                reads = self._looked(job, itself)
                if reads or not itself:
                    return reads
        self.jobs += 1
        found = self._cascade(job, card)
        if found:
            return self._checked(job, found)
        regions = with_card(job.regions, card)
        for step in self._slow_steps(given):
            fresh = newest(job, regions[0] if regions else None) if newest is not None else None
            if fresh is not None and fresh.picture is not None and fresh.picture != given.picture:
                return []  # another still picture is in view: its own job, its look first, comes next
            if fresh is not None:
                job, card = fresh, find_card(fresh.gray)
                regions = with_card(job.regions, card)
                found = self._cascade(job, card)
                if found:
                    return self._checked(job, found)
            reads = step(job, regions)
            if reads:
                return reads
        if given.picture is not None and not finder_like(job.gray, regions):
            # A still picture whose job reads nothing and shows no finder-like pattern (a checked cloth's bright
            # patch the look took for a card) is given no more jobs until it moves (`no_finder`).
            self.no_finder = given.picture
        return []

    def _looked(self, job: Job, itself: bool) -> list[BackgroundRead]:
        """A still picture without a sign of a code around it (`shows_code`): the whole frame's look (`_whole`,
        halved), alone unless the look reads nothing where the code itself shows (`itself`, `shows_symbol`): its job
        follows then, and the picture is not marked as holding none (`no_code`). A code it reads
        is a sign of one after all: the read is checked on the frame before by the same look, so it stands for two
        frames there (two decodes of two frames, what the sighting tracker wants of every read), and the picture is
        not marked as holding none (`no_code`), so its next frames are offered as a code's are. Before, it was
        marked all the same: no job followed, and the read, standing for one frame, was announced only if the frame
        path's `_again` read it too, which a frame whose budget was spent never did (BoofCV's six pathological photos,
        296 pixels square, missed with both cores busy)."""
        reads = self._whole(job.gray, halved=True)
        if not reads and not itself:
            self.no_code = job.picture
        return self._checked(job, reads, lambda gray: self._whole(gray, halved=True))

    def _slow_steps(self, given: Job) -> Iterator[SlowStep]:
        """The steps after the cascade, in order, each given the frame worked on and its regions (the card found on
        its own among them): the whole frame's look, the whole frame inverted, a code with part of it hidden
        (whether a finger covers a corner of `given`'s code told on the way), the average of the last frames, on a
        still picture the whole-frame retries once (`decoders.WHOLE_STAGES`, one a step, each read checked on the
        frame before by the same retry; `retried_whole`), and the deblurring, one blur kernel a step (all of them
        within `DEBLUR_SECONDS`; a newer frame taken between two goes on with the next kernel; none once a region
        held still is met: no motion, no motion blur, and no newer frame to look for either)."""
        spectra: dict[tuple[int, tuple[int, int, int, int]], Any] = {}
        still: list[bool] = []  # a deblurring step found its region held still: the deblurring ends there

        def whole(job: Job, regions: list[tuple[int, int, int, int]]) -> list[BackgroundRead]:
            return self._checked(job, self._whole(job.gray), self._whole)

        def hidden(job: Job, regions: list[tuple[int, int, int, int]]) -> list[BackgroundRead]:
            reads, first = self._hidden_read(job.gray, regions)
            if reads:
                return self._checked(job, reads, lambda gray: self._hidden_read(gray, regions)[0])
            if first is not None:
                given.finger_over = finger_over(*first)  # only for a code not read: it decides a cue
            return []

        def inverted(job: Job, regions: list[tuple[int, int, int, int]]) -> list[BackgroundRead]:
            return self._checked(job, self._inverted(job.gray), self._inverted)

        def average(job: Job, regions: list[tuple[int, int, int, int]]) -> list[BackgroundRead]:
            averaged = self._average(job, regions)
            if averaged is None:
                return []
            image, origin = averaged
            reads = self.cascade.decode(image, [(0, 0, image.shape[1], image.shape[0])])
            return [BackgroundRead(_moved(d, origin, "average"), job.index, 2) for d in reads]

        def deblurred(length: int, angle: int) -> SlowStep:
            def step(job: Job, regions: list[tuple[int, int, int, int]]) -> list[BackgroundRead]:
                if not regions:
                    return []
                x, y, w, h = regions[0]
                crop = job.gray[y : y + h, x : x + w]
                if min(crop.shape[:2]) < 16 or max(crop.shape[:2]) > 600:
                    return []
                key = (job.index, regions[0])
                if key not in spectra:
                    spectra.clear()
                    # A card that did not move from the frame before shows no motion blur: nothing to deblur (the
                    # frames before that may be another picture's: a table seen anew after the camera moved).
                    spectra[key] = None if self._held_still(job, regions, 2) is not None else deblur.spectrum(crop)
                if spectra[key] is None:
                    still.append(True)
                    return []
                reads = self.cascade.first_pass(deblur.deblurred(spectra[key], crop.shape, length, angle))
                return [BackgroundRead(_moved(d, (x, y), "deblur"), job.index, 1) for d in reads]

            return step

        yield from (whole, inverted, hidden, average)
        yield from self._whole_retries(given)
        give_up = self.cascade.clock() + DEBLUR_SECONDS
        for length in DEBLUR_LENGTHS:
            for angle in DEBLUR_ANGLES:
                if self.cascade.clock() > give_up or still:
                    return
                yield deblurred(length, angle)

    def _whole_retries(self, given: Job) -> Iterator[SlowStep]:
        """The whole-frame retries as slow steps (`decoders.WHOLE_STAGES`, each read checked on the frame before by
        the same retry): on a still picture that showed signs of a code alone (never a moving one's job), until they
        all read nothing on it (`retried_whole`). WeChat's detector, the slowest, not where a finger covers a corner
        of `given`'s code: the job's end tells her so at once."""
        if given.picture is None or given.picture == self.retried_whole:
            return

        def retried(stage: str) -> SlowStep:
            return lambda job, regions: self._retried(job, stage)

        def retried_all(job: Job, regions: list[tuple[int, int, int, int]]) -> list[BackgroundRead]:
            self.retried_whole = given.picture  # none read: the picture's next jobs skip them
            return []

        yield from (retried(s) for s in WHOLE_STAGES if s != "whole-wechat" or not given.finger_over)
        yield retried_all

    def _checked(
        self, job: Job, found: list[Decoded], read: Callable[[Any], list[Decoded]] | None = None
    ) -> list[BackgroundRead]:
        """Codes read in the job's frame, each standing for two frames when `read` (the reader that read it, given
        a frame; None: the cascade around where it was) reads it again in the frame before."""
        return [
            BackgroundRead(d, job.index, 2 if self._also_before(job, d, read or self._near(d)) else 1) for d in found
        ]

    def _cascade(self, job: Job, card: FoundCard | None) -> list[Decoded]:
        """The cascade, every retry stage included, on the job's regions as found (the card found on its own among
        them), then on those that widening changes, widened (a table's pattern joined into the whole picture is
        not worked on twice, nor the whole frame's first passes run again)."""
        from assistant.scanner.measure import with_card

        regions = with_card(job.regions, card)
        # No regions: the cascade searches for them, and takes the card already searched for rather than its own.
        found = self.cascade.decode(job.gray, regions or None, card=lambda: card)
        widened = [wide for region in regions if (wide := grown(region, WIDEN, job.gray.shape)) != region]
        if not found and widened:
            found = self.cascade.decode(job.gray, widened, card=lambda: card, whole=False)
        return found

    def _whole(self, gray: MatLike, halved: bool = False) -> list[Decoded]:
        """The whole frame's look (`Cascade.whole_look`): ZBar on the whole frame, where the regions had nothing.
        `halved`: a camera frame (over `decoders.WHOLE_FRAME_RETRY` wide) at half its size, for a still picture
        without a sign of a code (an empty table): at full size it was 20 to 65 ms of each new 720p table, a tenth of
        its cost against raw zxing-cpp; halved, a quarter of that, and it read the same (none of the 4 such pictures
        among 120 tuning stills, seeds 30100 to 30219, either way; the dim tuning frames ZBar reads, all). A frame
        the cascade retries whole that ZBar reads nothing in is given `LOOK_RETRIES` too, on a still picture's look."""
        small, factor = look_picture(gray) if halved else (gray, 1)
        if factor > 1:
            return [_scaled(d, factor) for d in self.cascade.whole_look(small)]
        reads = self.cascade.whole_look(gray)
        if halved and not reads and max(gray.shape[:2]) <= WHOLE_FRAME_RETRY:
            reads = self._glance.decode(gray, whole=False)  # a small frame's look: `LOOK_RETRIES`
            for stage in (s for s in LOOK_RETRIES if s in WHOLE_STAGES):
                if reads:
                    break
                reads = self._glance.whole_retry(gray, stage)
        return reads

    def _inverted(self, gray: MatLike) -> list[Decoded]:
        """zxing-cpp's first pass on the whole frame inverted: a code printed light on dark (not the project's
        stickers, which the live path's own passes leave to this step: `decoders.TRY_INVERT`)."""
        import cv2

        return self.cascade.first_pass(cv2.bitwise_not(gray), "inverted")

    def _hidden_read(
        self, gray: MatLike, regions: list[tuple[int, int, int, int]]
    ) -> tuple[list[Decoded], tuple[MatLike, list[Place]] | None]:
        """A code of the first regions with part of it hidden, read by finder repair, erasures, the known labels
        or one finder (steps 3 and 4 of the module docstring), in frame pixels (none or one); and the first
        region's crop with where its hidden finder pattern may be (for `finger_over`)."""
        first = None  # the first region, and where its hidden pattern may be
        tried = []  # each region: its crop, where that starts, and how a code's finder patterns may stand in it
        for region in regions[:REPAIR_REGIONS]:
            crop, origin = around(gray, region)
            places = code_places(crop)
            tried.append((crop, origin, places))
            hidden = hidden_places(crop, places)
            first = first or (crop, hidden)
            for view in repaired_views(crop, hidden):
                reads = self.cascade.first_pass(view)
                if reads:
                    return [_moved(reads[0], origin, "repair")], first
        match = self.known.match if self.known is not None else None
        for crop, origin, places in tried:
            if places:
                read = read_hidden(crop, (place.grid for place in places), match)
            else:
                read = read_hidden(crop, lone_grids(crop), match, stage="one finder")
            if read is not None:
                return [_moved(read, origin, read.stage)], first
        return [], first

    def _also_before(self, job: Job, decoded: Decoded, read: Callable[[Any], list[Decoded]]) -> bool:
        """The same code read again in the frame before by `read` (the reader that read it, given a frame): a read
        that stands for two."""
        earlier = [g for i, g in job.history if i < job.index and g.shape == job.gray.shape]
        return bool(earlier) and any(d.raw == decoded.raw for d in read(earlier[-1]))

    def _near(self, decoded: Decoded) -> Callable[[Any], list[Decoded]]:
        """A reader of a frame around where `decoded` was (`read_near`)."""
        return lambda gray: read_near(self.cascade, gray, decoded.box)

    def _average(
        self, job: Job, regions: list[tuple[int, int, int, int]]
    ) -> tuple[NDArray[np.uint8], tuple[int, int]] | None:
        """The mean of the last frames over the first region, when the card stayed still; else None."""
        import numpy as np

        crops = self._held_still(job, regions)
        if crops is None:
            return None  # the card moved: averaging would only blur it
        mean = np.clip(sum(crops) / len(crops), 0, 255).astype(np.uint8)
        return mean, (regions[0][0], regions[0][1])

    def _held_still(
        self, job: Job, regions: list[tuple[int, int, int, int]], last: int = AVERAGE_FRAMES
    ) -> list[NDArray[np.float32]] | None:
        """The first region's crops of the `last` frames up to the job's, when the card stayed still in it (no two
        `changed`); None when it moved, or there is no such region or frame before."""
        import numpy as np

        frames = [g for i, g in job.history if i <= job.index and g.shape == job.gray.shape]
        if len(frames) < 2 or not regions:
            return None
        x, y, w, h = regions[0]
        crops = [g[y : y + h, x : x + w].astype(np.float32) for g in frames[-last:]]
        if min(crops[0].shape[:2]) < 8 or any(changed(c, crops[-1]) for c in crops[:-1]):
            return None
        return crops


def job_stage(known: KnownLabels | None) -> BackgroundStage:
    """The stage that does the worker's jobs (`stage_process._child`), in its process or on its thread: one maker for
    both, so they try the same steps (the cascade's every retry, `decoders.REGION_STAGES`, and the slow steps after
    it)."""
    return BackgroundStage(known=known)


def read_near(cascade: Cascade, image: MatLike, box: tuple[int, int, int, int], started: bool = False) -> list[Decoded]:
    """The cascade on `image` around `box`: the box and half its size again all round (the reads in the crop's
    pixels; `started` as for `Cascade.decode`). Where a read is checked on another frame."""
    x, y, w, h = box
    pad = max(w, h) // 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    crop = image[y0 : y + h + pad, x0 : x + w + pad]
    if min(crop.shape[:2]) < 8:
        return []
    return cascade.decode(crop, [(0, 0, crop.shape[1], crop.shape[0])], started=started)


def changed(before: MatLike, after: MatLike) -> bool:
    """True when two crops of one region differ by more than `STILL_LEVEL` on average: the card in it moved."""
    import numpy as np

    return float(np.abs(np.asarray(before, np.float32) - after).mean()) > STILL_LEVEL


def _kept(read: BackgroundRead, gray: MatLike | None) -> BackgroundRead:
    """`read` with its code as its frame (`gray`, None: not at hand) showed it (`measure.code_patch`)."""
    from assistant.scanner.measure import code_patch

    return read if gray is None else replace(read, patch=code_patch(gray, read.decoded.box))


def _scaled(d: Decoded, factor: int) -> Decoded:
    """A read of a frame shrunk by `factor`, in the full frame's pixels."""
    return Decoded(
        d.payload, d.raw, (d.box[0] * factor, d.box[1] * factor, d.box[2] * factor, d.box[3] * factor), d.stage
    )


def _moved(d: Decoded, origin: tuple[int, int], stage: str) -> Decoded:
    """A read of a crop starting at `origin`, in the frame's pixels, as from `stage`."""
    x, y, w, h = d.box
    return Decoded(d.payload, d.raw, (x + origin[0], y + origin[1], w, h), stage)


def shows_code(
    gray: MatLike,
    regions: list[tuple[int, int, int, int]],
    card: tuple[tuple[int, int, int, int], float] | None,
) -> bool:
    """True when a frame shows signs of a code: the card found on its own (`card`, from `measure.find_card`) with
    its code's black in it (`CODE_DARK`), or a finder-like pattern (`repair.find_finders`) in one of the first
    `REPAIR_REGIONS` code-like regions. Wood grain, felt and a plain table show neither; a code too blurred, hidden
    or reflected to read mostly shows both, and on the evaluation camera every still card the stage reads shows
    one. A few milliseconds at 720p (the card search, then the finder search on two regions).

    A card cut off by the picture's edge is closed by its hull, which takes in the table around it (a checked
    cloth's dark checks beside a bright one): its black counts only with a finder-like pattern in it, or when it
    takes `CLOSE_CARD_SHARE` of the picture or more (a card held close, its code filling the picture: a photo seen
    while tuning, 256 pixels square, in which no finder pattern is found). Evaluation camera at 720p: of 12 empty
    checked cloths the look fired on (seeds 16003 to 16198 and four seen before), 11 were such a patch; of 1200
    fresh empty tables (16200 to 16599, 16600 to 16999, 17600 to 17999), 3 still fire (a patch amid a checked
    cloth). It changes the look on none of 250 evaluation stills with a card (720p and 1080p), the 180 tuning
    frames and the 137 photos with a code; on 10 of the 48 photos without one it no longer fires."""
    from assistant.core.scanning.aiming import inside
    from assistant.scanner.measure import percentiles

    if card is not None:
        box = card[0]
        x, y, w, h = box
        darkest, brightest = percentiles(gray[y : y + h, x : x + w], 5, 99)
        whole = inside(box, gray.shape[1], gray.shape[0]) or w * h >= CLOSE_CARD_SHARE * gray.size
        if darkest < CODE_DARK * brightest and (whole or finder_like(gray, [box])):
            return True
    return finder_like(gray, regions)


def shows_symbol(gray: MatLike, regions: list[tuple[int, int, int, int]], cascade: Cascade) -> bool:
    """True when a frame shows the code itself where `shows_code` finds no sign around it: a QR symbol zxing-cpp's
    detector finds, read or not (`Cascade.symbol_found`: a code too damaged, glared or small to read), in the look's
    picture (`look_picture`), in that picture as the cascade's "dark" stage sees a dark or dim one (`Cascade.lit`: a
    page in a dark room beside a lamp's spot, its contrast too low for the detector as it is), or in one of the first
    `REPAIR_REGIONS` code-like regions at twice its size (the cascade's "upscale", on a region small enough for it);
    or, in a frame the cascade retries whole, three finder-like patterns standing as one code (`repair.code_places`: a
    code whose quiet zone is cut off, where zxing-cpp finds no symbol). A code that fills a picture, sits in glare or
    is a few pixels a module shows neither sign of `shows_code` (the region search finds parts of it, or no finder
    pattern in it, and no card around it). The look is tried first there, then the job (`BackgroundStage._looked`).

    BoofCV's photos that WeChat alone reads showed `shows_code` nothing in 16 of 35; this finds 13 (the other three
    the look's own retries read); on the fresh photos' tuning half it found the one photo lost (a code of 75 pixels
    on a package, its region at twice its size). Tuning empty tables (seeds from 105000, 100 of each kind, plain and
    cluttered, at 640 by 480, 720p and 1080p) and the 44 photos without a code: it fires on none on which
    `shows_code` does not; none of those tables, nor of the 96 photos without a code the repository and the shared
    photos hold, is dark or dim. About 0.4 ms at 720p, 7 ms on a 640 by 480 frame (the finder search on the whole
    frame)."""
    picture = look_picture(gray)[0]
    lit = cascade.lit(picture)
    pictures = (picture,) if lit is None else (picture, lit)
    crops = (around(gray, region)[0] for region in regions[:REPAIR_REGIONS])
    if any(map(cascade.symbol_found, pictures)) or any(cascade.symbol_found(crop, "upscale") for crop in crops):
        return True
    return max(gray.shape[:2]) <= WHOLE_FRAME_RETRY and any(place.shows for place in code_places(gray))


def look_picture(gray: MatLike) -> tuple[MatLike, int]:
    """The picture a still picture's look works on, and how many of the frame's pixels across one of its pixels
    spans: a camera frame over `decoders.WHOLE_FRAME_RETRY` wide at half its size (`BackgroundStage._whole`), any
    other frame as it is."""
    if gray.shape[1] <= WHOLE_FRAME_RETRY:
        return gray, 1
    import cv2

    return cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), 2


def finder_like(gray: MatLike, regions: list[tuple[int, int, int, int]]) -> bool:
    """True when one of the first `REPAIR_REGIONS` code-like regions holds a finder-like pattern
    (`repair.find_finders`)."""
    from assistant.scanner.repair import MAX_SIDE, find_finders

    for region in regions[:REPAIR_REGIONS]:
        crop, _ = around(gray, region)
        if max(crop.shape[:2]) <= MAX_SIDE and find_finders(crop):
            return True
    return False
