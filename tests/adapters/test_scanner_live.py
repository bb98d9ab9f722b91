"""Live scanning through the webcam source with a fake capture, the app's camera thread, the scan command and the
printable sticker sheet."""

import asyncio
import itertools
import json
import math
import threading
import time
from dataclasses import replace

import cv2
import numpy as np
import pytest
from fake_speaker import Heard
from PIL import Image
from stage_standin import StageStandIn

from assistant.cli import main
from assistant.core.scanning.aiming import Cue, CuePacer
from assistant.core.scanning.exposure import ExposureLimits
from assistant.core.scanning.payloads import label_payload
from assistant.core.scanning.sightings import SightingTracker
from assistant.core.words.scans import (
    CAMERA_BACK,
    CAMERA_LOST,
    aiming_words,
    camera_unavailable,
    scan_not_found,
    scan_unreadable,
)
from assistant.scanner.background import BackgroundRead
from assistant.scanner.decoders import Cascade, Decoded
from assistant.scanner.live import (
    IDLE_JOBS,
    CodeAnnounced,
    CueGiven,
    LiveScanner,
    SourceBack,
    SourceLost,
    camera_opener,
)
from assistant.scanner.measure import find_code_regions
from assistant.scanner.sources import Frame, SourceError, Webcam
from assistant.session import Session
from assistant.storage.decks import load_card_set, load_deck
from benchmarks import frames as F

AURA = label_payload("uu-2nd", "rainbow-aura")


class FakeCapture:
    """A stand-in for cv2.VideoCapture: plays frames, then fails like an unplugged camera (or repeats the last)."""

    def __init__(self, frames, opened=True, lose_at_end=True, delay=0.001):
        self.frames = list(frames)
        self.opened = opened
        self.lose_at_end = lose_at_end
        self.delay = delay
        self.position = 0
        self.served = 0
        """Frames handed out so far."""
        self.released = False
        self.settings = {}
        self.played = threading.Event()
        """Set once every frame has been handed out (the next read finds none new)."""

    def isOpened(self):  # OpenCV's spelling
        return self.opened and not self.released

    def set(self, prop, value):
        self.settings[prop] = value
        return True

    def read(self):
        time.sleep(self.delay)  # (the stand-in webcam's frame interval, as a real one has)
        if self.released:
            return False, None
        if self.position < len(self.frames):
            frame = self.frames[self.position]
            self.position += 1
        else:
            self.played.set()
            if self.lose_at_end:
                return False, None
            frame = self.frames[-1]
        self.served += 1
        return True, frame

    def release(self):
        self.released = True


class LockstepCapture(FakeCapture):
    """A FakeCapture that hands out its next frame only once the live loop has taken the one before (`took`, from
    the loop's clock): on a busy machine the camera's reader would otherwise replace frames the loop never saw (the
    newest frame only, as a camera gives), and a card shown for a few frames could be seen too seldom to announce."""

    def __init__(self, frames, **kwargs):
        super().__init__(frames, **kwargs)
        self.turn = threading.Event()
        self.turn.set()

    def took(self):
        self.turn.set()

    def read(self):
        self.turn.wait(10)  # a guard: the loop takes each frame long before
        self.turn.clear()
        return super().read()


def frame_clock(source):
    """A live scanner's clock for a test source: a thirtieth of a second per frame read, however long the machine
    takes over each (on a busy one, 30 frames took longer than the 10 s cooldown, and a card was announced twice)."""
    return lambda: source.index / 30


def rendered(count, **scene):
    return [F.render(F.Scene(seed=i, **scene)) for i in range(count)]


def test_webcam_gives_the_newest_frame_and_drops_stale_ones():
    frames = [np.full((32, 32), i, np.uint8) for i in range(50)]
    capture = FakeCapture(frames, lose_at_end=False, delay=0.0005)
    camera = Webcam(0, lambda index: capture)
    assert capture.played.wait(10)  # the reader thread has taken every frame, the last one kept as the newest
    frame = camera.read()
    assert int(frame.image[0, 0]) == 49  # the newest, not the first
    assert camera.dropped > 0
    camera.close()


def test_webcam_lost_mid_game_raises_a_sentence_and_a_missing_one_too():
    camera = Webcam(0, lambda index: FakeCapture([np.zeros((32, 32), np.uint8)] * 3))
    with pytest.raises(SourceError) as caught:
        for _ in range(10):
            camera.read()
    assert caught.value.sentence == CAMERA_LOST
    camera.close()
    with pytest.raises(SourceError) as caught:
        Webcam(1, lambda index: FakeCapture([], opened=False))
    assert caught.value.sentence == camera_unavailable(1)


class V4L2Capture(FakeCapture):
    """A fake capture with V4L2's exposure controls: auto exposure on (mode 3) at `own` (0: not reported)."""

    def __init__(self, frames, own=156.0):
        super().__init__(frames, lose_at_end=False)
        self.settings = {cv2.CAP_PROP_AUTO_EXPOSURE: 3.0, cv2.CAP_PROP_EXPOSURE: own}
        self.calls = []

    def get(self, prop):
        return self.settings.get(prop, 0.0)

    def set(self, prop, value):
        self.calls.append((prop, value))
        return super().set(prop, value)


def _applied(capture, count):
    """Wait until the reader thread has made `count` control calls (it applies them between frames; the bound is a
    failure's only)."""
    deadline = time.monotonic() + 60
    while len(capture.calls) < count and time.monotonic() < deadline:
        time.sleep(0.005)  # (the camera's reader thread, polled)
    return capture.calls


def test_webcam_exposure_is_set_between_frames_against_its_own_and_auto_is_given_back_on_close():
    capture = V4L2Capture([np.zeros((32, 32), np.uint8)])
    camera = Webcam(0, lambda index: capture, exposure_settable=True)
    assert camera.set_exposure(0.5)
    manual, exposure = cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE
    assert _applied(capture, 2) == [(manual, 1), (exposure, 78)]
    assert camera.set_exposure(0.25)
    assert _applied(capture, 3)[-1] == (exposure, 39)  # a share of the camera's own exposure, not of the last
    camera.close()
    assert capture.calls[-1] == (manual, 3.0) and len(capture.calls) == 4


def test_a_webcam_refusing_a_short_exposure_gets_its_auto_exposure_back_and_is_asked_no_more():
    class ShortestCapture(V4L2Capture):
        def set(self, prop, value):
            self.calls.append((prop, value))
            return not (prop == cv2.CAP_PROP_EXPOSURE and value < 20)  # its least exposure: 2 ms

    capture = ShortestCapture([np.zeros((32, 32), np.uint8)])
    camera = Webcam(0, lambda index: capture, exposure_settable=True)
    manual, exposure = cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE
    assert camera.set_exposure(0.5)
    assert _applied(capture, 2) == [(manual, 1), (exposure, 78)]
    assert camera.set_exposure(0.06)
    assert _applied(capture, 4)[2:] == [(exposure, 9), (manual, 3.0)]  # refused: the camera's own auto mode back
    assert not camera.set_exposure(0.5)
    camera.close()
    assert len(capture.calls) == 4  # nothing more to give back


def test_a_webcam_whose_driver_fails_giving_auto_exposure_back_keeps_delivering_frames():
    class FailingCapture(V4L2Capture):
        def set(self, prop, value):
            self.calls.append((prop, value))
            if prop == cv2.CAP_PROP_AUTO_EXPOSURE and value != 1:
                raise RuntimeError("the driver refuses")
            return not (prop == cv2.CAP_PROP_EXPOSURE and value < 20)

    capture = FailingCapture([np.zeros((32, 32), np.uint8)])
    camera = Webcam(0, lambda index: capture, exposure_settable=True)
    assert camera.set_exposure(0.06)
    manual, exposure = cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE
    assert _applied(capture, 3) == [(manual, 1), (exposure, 9), (manual, 3.0)]  # tried once, not again and again
    assert not camera.set_exposure(0.5)
    assert camera.read() is not None and camera.read() is not None  # the reader thread carries on
    camera.close()
    assert len(capture.calls) == 3


def test_a_webcam_whose_exposure_cannot_be_set_is_left_alone_and_says_so():
    capture = V4L2Capture([np.zeros((32, 32), np.uint8)], own=0.0)  # no exposure reported: nothing to take over
    camera = Webcam(0, lambda index: capture, exposure_settable=True)
    assert camera.set_exposure(0.5)
    deadline = time.monotonic() + 60  # a bound on a failure only
    while camera.set_exposure(0.5) and time.monotonic() < deadline:
        time.sleep(0.005)  # (the camera's reader thread, polled)
    assert not camera.set_exposure(0.5) and capture.calls == []
    camera.close()
    assert capture.calls == []
    other = V4L2Capture([np.zeros((32, 32), np.uint8)])
    camera = Webcam(0, lambda index: other, exposure_settable=False)  # a backend whose exposure is not a time
    assert not camera.set_exposure(0.5)
    camera.close()
    assert other.calls == []


class ExposedSource:
    """Tuning frames of `scene` under the exposure the live loop asks for (the scene's light times the share),
    from the frame after it is asked, as a webcam applies it; `settable=False`: a camera that refuses."""

    name = "rendered camera"

    def __init__(self, scene, settable=True):
        self.scene, self.settable = scene, settable
        self.share, self.waiting, self.index = 1.0, None, 0
        self.asked = []

    def read(self):
        if self.waiting is not None:
            self.share, self.waiting = self.waiting, None
        self.index += 1
        image = F.render(replace(self.scene, seed=self.index, gain=self.scene.gain * self.share))
        return Frame(image, self.index, self.name)

    def set_exposure(self, share):
        self.asked.append(share)
        if self.settable:
            self.waiting = share
        return self.settable

    def close(self):
        pass


def test_a_code_clipped_by_the_exposure_is_read_once_the_loop_has_lowered_it():
    # A card 42 cm away, soft focus, exposed 2.5 times too long: its white spills over the modules, unreadable.
    scene = F.Scene(blur=2.0, gain=2.5, distance_mm=420)
    outcomes = {}
    for settable in (True, False):
        source, events = ExposedSource(scene, settable), []
        scanner = LiveScanner(
            lambda s=source: s,
            events.append,
            cascade=Cascade(budget_ms=None),
            guidance=False,
            clock=frame_clock(source),
        )
        scanner.open()
        for _ in range(12):
            scanner.step()
        outcomes[settable] = (source.asked, [e for e in events if isinstance(e, CodeAnnounced)])
    asked, announced = outcomes[True]
    assert asked and max(asked) < 1.0  # less than the camera's own, stepped down (and back up if it overshot)
    assert [e.payload for e in announced] == [AURA]
    asked, announced = outcomes[False]
    assert len(asked) == 1 and announced == []  # refused once, never asked again, and never read


def _exposed_run(scene):
    """What the live loop asked of an `ExposedSource` showing `scene` for 30 frames, and what it reported."""
    source, events = ExposedSource(scene), []
    scanner = LiveScanner(lambda: source, events.append, cascade=Cascade(budget_ms=None), clock=frame_clock(source))
    scanner.open()
    for _ in range(30):
        scanner.step()
    return source.asked, events


def test_a_code_under_a_reflection_that_a_quarter_of_the_exposure_still_clips_is_read_at_a_shorter_one():
    asked, events = _exposed_run(F.Scene(glare=1500.0, glare_size=45.0))
    assert min(asked) < ExposureLimits().reflection_below
    assert [e.payload for e in events if isinstance(e, CodeAnnounced)] == [AURA]


def test_a_reflection_no_exposure_clears_is_named_and_the_exposure_goes_down_to_its_least():
    # A lamp mirrored in the sticker, so bright that the least exposure still clips it.
    asked, events = _exposed_run(F.Scene(glare=6000.0, glare_size=45.0))
    assert min(asked) == ExposureLimits().lowest
    assert CueGiven(Cue.GLARE) in events and not any(isinstance(e, CodeAnnounced) for e in events)


def test_live_scanner_announces_a_card_once_and_confirms_it():
    events = []

    def report(event):
        events.append(event)
        if isinstance(event, SourceLost):
            scanner.stop()  # a lost camera is otherwise retried for ever

    capture, ticks = LockstepCapture(rendered(6, distance_mm=380)), itertools.count()

    def clock():  # a thirtieth of a second a frame, each frame taken before the camera gives the next
        capture.took()
        return next(ticks) / 30

    frames = camera_opener(0, lambda i: capture)
    # No frame budget: on a busy machine the wall-clock cap cuts the retries this card needs (its deadlines are the
    # budget's tests' matter), and the card would be read by no frame.
    scanner = LiveScanner(frames, report, Cascade(budget_ms=None), clock=clock)
    scanner.run()
    announced = [e for e in events if isinstance(e, CodeAnnounced)]
    assert [e.payload for e in announced] == [AURA]
    assert CueGiven(Cue.READ) in events
    assert isinstance(events[-1], SourceLost)


class LateStage(StageStandIn):
    """A worker stand-in on the test's thread: it reads `payload` at `box` in the first frame offered, and gives that
    read back only once the test lets it (`late`), as a busy worker does seconds on."""

    def __init__(self, payload, box):
        self.payload, self.box = payload, box
        self.read, self.late, self.given = None, False, False
        self.begun = 0  # each frame offered is begun at once, and ended: a worker given a core

    @property
    def ended(self):
        return self.begun

    def offer(self, index, gray, regions, picture=None):
        self.begun += 1
        if self.read is None:
            self.read = BackgroundRead(Decoded(self.payload, self.payload.encode(), self.box, "repair"), index, 2)

    def take(self, index):
        if not self.late or self.given or self.read is None:
            return []
        self.given = True
        return [self.read]


class AimCountingStage(LateStage):
    """A worker stand-in that reads nothing and counts the aiming measurements asked of it, by frame; with `view`,
    each measurement's view comes back on the next frame, the picture still."""

    def __init__(self, view=None):
        super().__init__("", (0, 0, 1, 1))
        self.aimed = []
        self.view, self.measured = view, None

    def offer(self, index, gray, regions, picture=None):
        self.begun += 1

    def aim(self, index, region, squareness):
        self.aimed.append(index)
        self.measured = self.view

    def take_view(self):
        view, self.measured = self.measured, None
        return None if view is None else (view, False)


class FrameClockScanner:
    """A scanner on a stand-in `stage`, its frames stamped on a frame clock (30 a second); each cue kept with the
    frame it came on (`cues`)."""

    def __init__(self, stage):
        self.cues = []
        self._index = 0
        clock = lambda: 0.0  # noqa: E731 (frames are stamped with their own times)
        cascade = Cascade(budget_ms=None, clock=clock)
        self.scanner = LiveScanner(lambda: None, self._event, cascade=cascade, background=stage, clock=clock)

    def _event(self, event):
        if isinstance(event, CueGiven):
            self.cues.append((self._index, event.cue))

    def handle(self, frame, index):
        self._index = index
        self.scanner.handle(frame, index, index / 30)


def test_with_the_worker_a_still_picture_is_measured_for_a_cue_on_one_frame_in_eight():
    """With the worker process measuring, a still picture (a cluttered table, a card lying unread) has its view
    measured on one frame in `AIM_STILL` until it turns idle, a moving one on every frame from its second. Before,
    one in three (and before that every frame) asked the worker for a measurement (14 to 18 ms of its CPU each at
    720p: most of what a cluttered empty table seen anew cost). Frames counted on a frame clock."""
    from assistant.scanner.live import AIM_STILL, IDLE_AFTER

    stage = AimCountingStage()
    scanner = FrameClockScanner(stage)
    table = np.full((360, 640, 3), 128, np.uint8)
    for index in range(IDLE_AFTER):
        scanner.handle(table, index)
    assert stage.aimed[0] == 0  # the first frame: the picture is new
    assert AIM_STILL == 8 and len(stage.aimed) == 1 + (IDLE_AFTER - 1) // AIM_STILL
    moving = [np.full((360, 640, 3), 40 + 60 * (i % 2), np.uint8) for i in range(6)]
    for index, frame in enumerate(moving, IDLE_AFTER):
        scanner.handle(frame, index)
    # every moving frame but the first, which moved alone so far (a new still picture's jump, `AIM_STILL`)
    assert stage.aimed[-5:] == list(range(IDLE_AFTER + 1, IDLE_AFTER + 6))


def test_a_still_far_card_measured_by_the_worker_is_told_closer_within_0_6_s():
    """Measured on one frame in eight, a still picture's cue settles as it did measured on every frame: a card far
    away, held still, is told "closer" after the half second a cue settles over, not a measurement later. Frames on
    a frame clock."""
    from assistant.core.scanning.aiming import FrameView

    stage = AimCountingStage(FrameView(1280, 720, (600, 300, 60, 60), sharpness=1000.0, brightness=130.0))
    scanner = FrameClockScanner(stage)
    table = np.full((360, 640, 3), 128, np.uint8)
    for index in range(30):
        scanner.handle(table, index)
    cues = scanner.cues
    assert cues and cues[0][1] is Cue.CLOSER and cues[0][0] <= 17  # measured on every third frame: 15


@pytest.mark.parametrize("empty", [True, False], ids=["empty-table", "signs-of-a-code"])
def test_a_table_seen_anew_in_one_frame_is_measured_for_a_cue_only_once_its_look_found_signs_of_a_code(empty):
    """A still table, then in one frame another (a card taken away, the camera turned): the frame that jumped is not
    measured by the worker for a cue. An empty table (the look found no sign of a code) is never measured: it rests;
    one the look found signs of a code in is measured on its first full frame after the look, then on one frame in
    `AIM_STILL`, and a far card held still there is told "closer" as soon as when its jump was measured (its cue
    settles over half a second). Before, the jump was measured (27 ms of the worker's CPU a new cluttered table at
    720p, half of what the worker spent on it). Frames on a frame clock."""
    from assistant.core.scanning.aiming import FrameView
    from assistant.scanner.live import AIM_STILL, IDLE_AFTER

    stage = AimCountingStage(FrameView(1280, 720, (600, 300, 60, 60), sharpness=1000.0, brightness=130.0))
    looked = []

    def offer(index, gray, regions, picture=None):
        stage.begun += 1
        looked.append(index)
        if empty and index >= IDLE_AFTER:
            stage.no_code = picture  # the look's verdict on the second table: no sign of a code

    stage.offer = offer
    scanner = FrameClockScanner(stage)
    first, second = np.full((360, 640, 3), 128, np.uint8), np.full((360, 640, 3), 60, np.uint8)
    view, stage.view = stage.view, None  # the first table: nothing seen in it
    for index in range(IDLE_AFTER):
        scanner.handle(first, index)
    stage.view, aimed = view, len(stage.aimed)
    for index in range(IDLE_AFTER, 2 * IDLE_AFTER):
        scanner.handle(second, index)
    jump, cues = IDLE_AFTER, scanner.cues
    assert looked[-1] > jump and jump not in stage.aimed[aimed:]
    if empty:
        assert stage.aimed[aimed:] == [] and cues == []
    else:
        after_look = jump + 1  # the look's verdict here comes at once
        assert stage.aimed[aimed : aimed + 3] == [after_look, jump + AIM_STILL, jump + 2 * AIM_STILL]
        assert cues and cues[0][1] is Cue.CLOSER and cues[0][0] - jump <= 17


def test_a_still_picture_the_workers_job_found_no_finder_pattern_in_is_idle_at_once_its_cue_measured_as_soon():
    """The worker's job on a still picture read nothing and found no finder-like pattern (a checked cloth's bright
    patch the look took for a card, or a card it cannot read): it is offered no more of the picture, whose frames
    are then idle at once (zxing-cpp's first pass on one in `IDLE_EVERY_EMPTY`), but for those measured for a cue
    to settle on (one in `AIM_STILL` over half a second, as before, so a cue is said as soon). Before, every frame
    of its first second went the full path, each copied to the worker, four of them measured. Frames on a frame
    clock."""
    from assistant.scanner.live import AIM_STILL, IDLE_AFTER, IDLE_EVERY_EMPTY

    stage, remembered, passes = AimCountingStage(), [], []
    stage.remember = lambda index, gray, picture=None: remembered.append(index)  # the full path's frames
    stage.offer = lambda index, gray, regions, picture=None: (
        setattr(stage, "no_finder", picture) or setattr(stage, "begun", stage.begun + 1)
    )  # the job's verdict, the job begun at once
    clock = lambda: 0.0  # noqa: E731 (frames are stamped with their own times)
    cascade = Cascade(budget_ms=None, clock=clock)
    scanner = LiveScanner(lambda: None, lambda e: None, cascade=cascade, background=stage, clock=clock)
    decode = cascade.decode
    cascade.decode = lambda *a, **k: passes.append(index) or decode(*a, **k)
    table = np.full((360, 640, 3), 128, np.uint8)
    for index in range(IDLE_AFTER):
        scanner.handle(table, index, index / 30)
    measured = [0, AIM_STILL, 2 * AIM_STILL]  # the measurements a cue settles on over its half second
    assert stage.aimed == measured and remembered == sorted({0, 1, *measured})  # offered at 1: no finder
    assert passes == sorted({0, 1, *measured, *range(0, IDLE_AFTER, IDLE_EVERY_EMPTY)})


@pytest.mark.parametrize("held", [True, False], ids=["card-still-held", "next-card-held"])
def test_a_background_read_is_announced_only_while_its_card_is_in_view(held):
    """Card A (a thumb over its code: zxing-cpp's first pass cannot read it) is held up and its frame offered to the
    worker; the read comes back a second later. Still held, it is announced; once card B is held up in its place, the
    read of A is stale: dropped and counted, never announced (before, it was said during B's hold). Frames are counted
    on a frame clock; nothing is timed."""
    card_a, card_b = (F.scene_for("thumb", seed) for seed in (0, 1))
    frame_a, frame_b = F.render(card_a), F.render(card_b)
    box = find_code_regions(cv2.cvtColor(frame_a, cv2.COLOR_BGR2GRAY), limit=1)[0]
    stage, events = LateStage(card_a.payload, box), []
    scanner = LiveScanner(lambda: None, events.append, Cascade(clock=lambda: 0.0), background=stage)
    for index in range(3):
        scanner.handle(frame_a, index, index / 30)
    shown = frame_a if held else frame_b
    for index in range(3, 30):  # card A still held, or card B brought in and held where A was, for a second
        scanner.handle(shown, index, index / 30)
    stage.late = True
    scanner.handle(shown, 30, 30 / 30)
    announced = [e.payload for e in events if isinstance(e, CodeAnnounced)]
    assert stage.read.frame < 3  # a frame of card A
    assert (announced, scanner.stale) == (([card_a.payload], 0) if held else ([], 1))


@pytest.mark.parametrize("stage", ["sharpen", "repair"])
def test_a_workers_read_of_one_frame_is_read_again_by_the_frame_path_where_the_cascade_can(stage):
    """A blurred card held still that zxing-cpp's first pass cannot read and the cascade's sharpening can: the worker's
    read of it, standing for its frame alone, comes back on frame 10. A read of the cascade's own stages is read
    again there by the frame path, on its box (the cascade's retries on that crop alone), and announced on that
    frame: before, the tracker waited for a second read of the worker's, a job and two or more frames later. A read
    of one of the worker's own steps (finder repair) is not tried again: the frame path then runs the first pass
    alone, and the read waits for a second. Frames counted on a frame clock."""
    card = F.scene_for("blur", 4)  # tuning set: read by "sharpen", not by the first pass
    frame = F.render(card)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    box = find_code_regions(gray, limit=1)[0]
    worker = LateStage(card.payload, box)
    read = Decoded(card.payload, card.payload.encode(), box, stage)
    worker.offer = lambda index, gray, regions, picture=None: (
        setattr(  # one frame's read, by `stage`
            worker, "read", worker.read or BackgroundRead(read, index, 1)
        )
        or setattr(worker, "begun", worker.begun + 1)
    )
    scanner = LiveScanner(lambda: None, lambda event: None, Cascade(clock=lambda: 0.0), background=worker)
    announced, traces = [], {}
    for index in range(12):
        worker.late = index >= 10
        announced += [(a.payload, index) for a in scanner.handle(frame, index, index / 30)]
        traces[index] = {name for name, _ in scanner.cascade.trace}
    assert Cascade().decode(gray, retries=False) == [] and worker.read.frame < 10
    if stage == "sharpen":
        assert announced == [(card.payload, 10)] and "sharpen" in traces[10]
    else:
        assert announced == [] and traces[10] == {"zxing"}


@pytest.mark.parametrize("busy", [True, False], ids=["worker-busy-between", "worker-idle-between"])
def test_two_reads_of_the_workers_jobs_apart_are_consecutive_while_it_worked_between_them(busy):
    """A card under glare, held still: only the worker's known labels read it, in one frame at a time, a job apart
    (frames 10 and 20 here). While the worker had a frame in hand between them, the frames the frame path gave the
    first pass alone are no evidence that the card left: the two reads are consecutive, and the card is announced
    on the second. Before, those frames counted as looked at, the tracker started again at each read, and such a
    card was announced seconds late or never. Were the worker idle between them, the frames looked at would count,
    as before. Frames counted on a frame clock."""
    card = F.scene_for("blur", 4)
    frame = F.render(card)
    box = find_code_regions(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), limit=1)[0]
    read = Decoded(card.payload, card.payload.encode(), box, "known labels")
    worker = LateStage(card.payload, box)
    # Each a read of a frame the live loop handed the worker whole (its first: frames waiting for the worker's job
    # get the first pass on one in three alone, `rest.WAIT_EVERY`, and are not the worker's).
    worker.take = lambda index: [BackgroundRead(read, 0, 1)] if index in (10, 20) else []
    worker.busy = lambda: busy
    scanner = LiveScanner(lambda: None, lambda event: None, Cascade(clock=lambda: 0.0), background=worker)
    announced = []
    for index in range(24):
        announced += [(a.payload, index) for a in scanner.handle(frame, index, index / 30)]
    assert announced == ([(card.payload, 20)] if busy else [])


def test_a_new_scanner_on_a_stage_that_judged_another_scanners_picture_is_not_judged_by_it():
    """One background stage outlives a scanner (the benchmarks give every clip a scanner of its own, one stage for
    all): the stage found no sign of a code in the first scanner's still picture (an empty table). The next scanner's
    first still picture, a card held up, is offered to the stage all the same. Before, each scanner numbered its
    pictures from 1, the new card's picture took the judged one's number, and the stage was offered nothing of it.
    Frames counted on a frame clock."""
    card = F.scene_for("blur", 4)
    table, held = F.render(replace(card, show_code=False)), F.render(card)
    box = find_code_regions(cv2.cvtColor(held, cv2.COLOR_BGR2GRAY), limit=1)[0]
    stage = LateStage(card.payload, box)
    first = LiveScanner(lambda: None, lambda event: None, Cascade(clock=lambda: 0.0), background=stage)
    for index in range(3):
        first.handle(table, index, index / 30)
    stage.no_code, stage.read = first._picture, None  # the stage's look: no sign of a code in that picture
    second = LiveScanner(lambda: None, lambda event: None, Cascade(clock=lambda: 0.0), background=stage)
    for index in range(3):
        second.handle(held, index, index / 30)
    assert stage.read is not None and stage.read.frame > 0  # offered from the held card's second frame


def _a_read_held_back():
    """Card A held three frames (its read offered to a stage that will give it back late), and two other cards'
    frames to come: card A, frame B, frame C, the stage, the events and the scanner."""
    card_a, card_b, card_c = (F.scene_for("thumb", seed) for seed in (0, 1, 2))
    frame_a, frame_b, frame_c = F.render(card_a), F.render(card_b), F.render(card_c)
    box = find_code_regions(cv2.cvtColor(frame_a, cv2.COLOR_BGR2GRAY), limit=1)[0]
    stage, events = LateStage(card_a.payload, box), []
    scanner = LiveScanner(lambda: None, events.append, Cascade(clock=lambda: 0.0), background=stage)
    for index in range(3):
        scanner.handle(frame_a, index, index / 30)
    stage.late = True
    return card_a, frame_b, frame_c, stage, events, scanner


@pytest.mark.parametrize("moves_on", [False, True], ids=["next-card-held-at-once", "picture-moving-on"])
def test_a_read_coming_back_as_the_picture_jumps_waits_a_frame_to_tell_a_card_coming_in_from_the_next_held(moves_on):
    """Card A's read comes back a tenth of a second after its frame, on the very frame the picture jumps. When the
    next frame shows the new picture held still (card B held up at once where A was), the read is stale: dropped and
    counted (before, it was announced: its frame was under `STALE_AFTER` old, and the time won over the picture).
    When the picture moves on (a card on its way in, here a third picture), it is announced a frame later. Frames
    counted on a frame clock; nothing is timed."""
    card_a, frame_b, frame_c, stage, events, scanner = _a_read_held_back()
    scanner.handle(frame_b, 3, 3 / 30)  # the jump: the read comes back, not yet told
    said_at_jump = [e.payload for e in events if isinstance(e, CodeAnnounced)]
    scanner.handle(frame_c if moves_on else frame_b, 4, 4 / 30)
    announced = [e.payload for e in events if isinstance(e, CodeAnnounced)]
    assert stage.read.frame < 3 and said_at_jump == []
    assert (announced, scanner.stale) == (([card_a.payload], 0) if moves_on else ([], 1))


@pytest.mark.parametrize("late", [0.4, 0.6], ids=["under-half-a-second", "over-half-a-second"])
def test_a_read_coming_back_while_the_picture_moves_on_is_announced_only_under_half_a_second_after_its_frame(late):
    """Card A's read comes back as the picture moves on (another card on its way in), `late` seconds after its frame,
    which the next frame shows no more: under half a second (`STALE_AFTER`) it is a card still coming in, and is
    announced a frame later; over it, no hand could still be bringing it in, and it is stale (dropped, counted). The
    frames' own times, literal here, so that a change of the constant is caught; nothing is timed."""
    card_a, frame_b, frame_c, stage, events, scanner = _a_read_held_back()
    offered = stage.read.frame / 30  # the time of the read's frame
    scanner.handle(frame_b, 3, offered + late - 1 / 30)  # the jump: the read comes back, not yet told
    scanner.handle(frame_c, 4, offered + late)  # the picture moves on
    announced = [e.payload for e in events if isinstance(e, CodeAnnounced)]
    assert (announced, scanner.stale) == (([card_a.payload], 0) if late < 0.5 else ([], 1))


@pytest.mark.parametrize("back_at", [40, 42], ids=["skipped-frame", "first-pass-frame"])
def test_a_read_the_worker_finishes_while_the_picture_is_idle_is_announced_on_the_frame_it_comes_back(back_at):
    """Card A held still (a thumb over its code: zxing-cpp's first pass cannot read it); its frame goes to the worker,
    whose read comes back once the picture has been idle for a third of a second: its frames are then skipped, or
    given the first pass only, and one a second the whole path. The read is announced on the frame it comes back
    (one skipped, or one given the first pass); before, it waited in the stage for the next full frame, frame 60.
    Frames counted on a frame clock."""
    card = F.scene_for("thumb", 0)
    frame = F.render(card)
    box = find_code_regions(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), limit=1)[0]
    stage, announced = LateStage(card.payload, box), []
    scanner = LiveScanner(lambda: None, lambda event: None, Cascade(clock=lambda: 0.0), background=stage)
    for index in range(70):
        stage.late = index >= back_at
        announced += [(a.payload, index) for a in scanner.handle(frame, index, index / 30)]
    assert announced == [(card.payload, back_at)]


def test_live_scanner_gives_aiming_cues_for_a_code_it_cannot_read():
    events = []
    clock = iter(range(100))
    # No frame budget: on a slow machine the aiming measurement would not fit one, and no cue would come.
    scanner = LiveScanner(lambda: None, events.append, Cascade(budget_ms=None), clock=lambda: next(clock) * 2.0)
    for image in rendered(3, distance_mm=1500):
        scanner.handle(image)
    for image in rendered(3, distance_mm=380, motion=(14, 20)):
        scanner.handle(image)
    cues = [e.cue for e in events if isinstance(e, CueGiven)]
    assert cues[0] is Cue.CLOSER and Cue.HOLD_STILL in cues
    assert not any(isinstance(e, CodeAnnounced) for e in events)


def test_a_blurred_code_under_a_reflection_is_told_glare_while_the_picture_is_still():
    """A code measured blurred is first held still, since a moving white sticker smears into patches that look
    burnt out; but when the picture does not move from frame to frame, the burnt-out patch is a reflection."""
    held = replace(F.scene_for("glare", 0), blur=2.0)  # tuning set: unreadable, a patch of 0.12, sharpness 61
    moved = replace(held, centre=(held.centre[0] + 0.06, held.centre[1]))
    still, shaken = F.render(held), F.render(moved)

    def cues(frames):
        events = []
        ticks = iter([index / 10 for index in range(len(frames))])
        scanner = LiveScanner(lambda: None, events.append, Cascade(budget_ms=None), clock=ticks.__next__)
        for index, image in enumerate(frames):
            scanner.handle(image, index)
        return [e.cue for e in events if isinstance(e, CueGiven)]

    assert cues([still] * 12) == [Cue.GLARE]
    assert cues([still, shaken] * 6) == [Cue.HOLD_STILL]


@pytest.mark.parametrize("table", F.BUSY_TABLES)
def test_an_empty_busy_table_is_told_no_more_than_two_cues(table):
    """A table whose own pattern is taken for a code gives a cue that stays as long as the table: with nothing
    moving in front of the camera it is said twice, not every few seconds for a whole game."""
    empty = F.Scene(centre=(5.0, 5.0), busy_table=table)  # no card in the picture
    frames = [F.render(replace(empty, seed=seed)) for seed in range(40)]  # 20 s at 2 frames a second, noise only

    def cues(pacer):
        events = []
        ticks = iter([index / 2 for index in range(len(frames))])
        scanner = LiveScanner(lambda: None, events.append, Cascade(budget_ms=None), pacer=pacer, clock=ticks.__next__)
        for index, image in enumerate(frames):
            scanner.handle(image, index)
        return [e.cue for e in events if isinstance(e, CueGiven)]

    assert len(cues(CuePacer(most=10**9))) >= 4  # without the limit: one every 4 s
    assert len(cues(CuePacer())) == 2


def test_lost_camera_is_retried_and_comes_back():
    events = []
    captures = []
    frames = rendered(8, distance_mm=380)
    ticks = itertools.count()

    def open_camera():
        captures.append(None)
        if len(captures) == 2:  # unplugged at the first retry, back at the second
            raise SourceError(camera_unavailable(0))
        # Each frame handed out once the loop has taken the one before: a busy machine's loop, late to frames,
        # saw only the last before the loss, too few to announce.
        captures[-1] = LockstepCapture(frames)
        return Webcam(0, lambda i: captures[-1])

    def clock():  # a thirtieth of a second a frame
        captures[-1].took()
        return next(ticks) / 30

    # No frame budget: on a busy machine its wall-clock cap cuts the retries short (the budget's tests' matter).
    scanner = LiveScanner(open_camera, events.append, Cascade(budget_ms=None), retry_seconds=0.01, clock=clock)
    runner = threading.Thread(target=scanner.run)
    runner.start()
    deadline = time.monotonic() + 120  # a bound on a failure only
    while sum(isinstance(e, CodeAnnounced) for e in events) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)  # (the scanner's thread, polled)
    scanner.stop()
    runner.join(5)
    kinds = [type(e).__name__ for e in events if not isinstance(e, CueGiven)]
    assert kinds[:4] == ["CodeAnnounced", "SourceLost", "SourceBack", "CodeAnnounced"]
    assert isinstance(events[[type(e) for e in events].index(SourceLost)], SourceLost)
    assert SourceBack() in events


# The app, with a fake camera


class FakeClock:
    """The scanner's seconds, which pass only when the test moves them on: however slow this machine is, a card
    lying in view is not announced again until the test says the cooldown is over."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


async def wait_for(condition, pilot, seconds=60.0):
    """Until `condition()` holds; `seconds` bounds a failure only (a loaded machine is slow, never wrong)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        await pilot.pause(0.05)
    return condition()


def test_app_shows_and_speaks_a_scanned_card(make_app, monkeypatch):
    """A card lying in view is said again after the cooldown only when the player asks for repeats (the setting,
    `rest.REPEAT_SETTING`, here at the tracker's 10 s); by default it is said once (`test_scanner_frames`)."""
    monkeypatch.setenv("TABLE_ASSISTANT_SCAN_REPEAT", "10")
    spoken = []
    frames = rendered(5, distance_mm=380)
    camera = camera_opener(0, lambda i: FakeCapture(frames, lose_at_end=False, delay=0.03))
    clock = FakeClock()
    cooldown = SightingTracker().cooldown

    async def scenario():
        app = make_app(Heard(spoken.append), camera=camera, clock=clock)
        async with app.run_test() as pilot:
            assert await wait_for(lambda: any(r.card for r in spoken), pilot)
            answer = str(app.query_one("#answer").render())
            assert answer.splitlines()[0] == "Rainbow Aura"
            await pilot.press(*"unicorn poison", "enter")  # typing still works while the camera runs
            await pilot.pause()
            assert spoken[-1].card.id == "unicorn-poison"
            await pilot.pause(0.3)  # the camera goes on reading the card lying in view, frame after frame
            assert [r.card.id for r in spoken if r.card] == ["rainbow-aura", "unicorn-poison"]  # not repeated
            clock.advance(cooldown)  # the card has now lain in view for the whole cooldown: said again
            assert await wait_for(lambda: [r.card.id for r in spoken if r.card][-1] == "rainbow-aura", pilot)

    asyncio.run(scenario())
    cards = [r.card.id for r in spoken if r.card]
    assert cards == ["rainbow-aura", "unicorn-poison", "rainbow-aura"]


def test_app_reads_a_card_too_hidden_to_decode_by_the_labels_of_the_decks_in_play(make_app):
    """A reflection hides more of the code than its error correction makes up for (tuning frame, glare seed 3):
    the app's camera matches what shows against the labels of its session's decks; with a deck in play that the
    card is not from, nothing is said, however long the camera looks."""
    frame = F.render(F.scene_for("glare", 3))
    assert Cascade(budget_ms=None).decode(frame) == []

    def run(*args: str, read: bool = True) -> list[str]:
        spoken = []
        capture = FakeCapture([frame], lose_at_end=False, delay=0.03)
        camera = camera_opener(0, lambda i: capture)

        async def scenario():
            # However long the background stage takes here, the card in view stays within its cooldown.
            app = make_app(Heard(spoken.append), *args, camera=camera, clock=FakeClock())
            async with app.run_test() as pilot:
                worker = app.camera_worker
                if read:  # waited for (a guard, not a timing)
                    assert await wait_for(lambda: any(r.card for r in spoken), pilot, seconds=60)
                else:  # a still picture unread is worked on `IDLE_JOBS` times; a reply then would come within a second
                    assert await wait_for(lambda: worker.scanner.background.jobs >= IDLE_JOBS, pilot, seconds=60)
                    await wait_for(lambda: any(r.card for r in spoken), pilot, seconds=1)
                # Then 90 more frames of the card lying there (a guard, not a timing).
                served = capture.served
                await wait_for(lambda: capture.served >= served + 90, pilot, seconds=60)

        asyncio.run(scenario())
        return [r.card.id for r in spoken if r.card]

    # Read once. A card only the background stage reads is seen at the pace of its jobs, many frames apart on a
    # busy machine; but a card has left only when the frames' own time says so too, and on the fake clock no time
    # passes, so it lies in view however loaded the machine is.
    assert run() == ["rainbow-aura"]
    assert run("--deck", "llamas", read=False) == []


def test_app_learns_a_card_from_a_full_text_its_camera_reads(make_app):
    """Rulebook 004: the braille deck's codes hold each card's full text. A real QR code of a card the deck lacks,
    seen by the app's camera, is offered; yes, typed on the input line, imports it and play goes on with it."""
    from assistant.storage.paths import imported_decks_dir

    text = "Wool Gathering: Magic card. Draw two cards, then discard one."
    frames = rendered(5, payload=text, distance_mm=300)
    assert [d.payload for d in Cascade(budget_ms=None).decode(frames[0])] == [text]
    camera = camera_opener(0, lambda i: FakeCapture(frames, lose_at_end=False, delay=0.03))
    spoken = []

    def said(words_in):
        return lambda: any(words_in in r.speech for r in spoken)

    async def scenario():
        app = make_app(Heard(spoken.append), "--deck", "llamas", camera=camera, clock=FakeClock())  # offered once
        async with app.run_test() as pilot:
            assert await wait_for(said("A card this deck does not have: Wool Gathering, Magic card."), pilot)
            await pilot.press(*"yes", "enter")
            assert await wait_for(said("Wool Gathering is now in your deck, as a Magic card."), pilot)
            await pilot.press(*"wool gathering", "enter")
            await pilot.pause()
            assert spoken[-1].card is not None and spoken[-1].card.text == "Draw two cards, then discard one."

    asyncio.run(scenario())
    assert "Wool Gathering" in (imported_decks_dir() / "llamas-learned.toml").read_text()


def test_app_without_a_camera_says_so_once_and_works_on_typed_input(make_app):
    spoken = []

    def no_camera():
        raise SourceError(camera_unavailable(0))

    async def scenario():
        app = make_app(Heard(spoken.append), camera=no_camera)
        async with app.run_test() as pilot:
            assert await wait_for(lambda: spoken, pilot)
            await pilot.press(*"rainbow aura", "enter")
            await pilot.pause()
            assert str(app.query_one("#answer").render()).startswith("Rainbow Aura")

    asyncio.run(scenario())
    assert [r.speech for r in spoken].count(camera_unavailable(0)) == 1
    assert spoken[-1].card.id == "rainbow-aura"


class PlayedSource:
    """A camera that hands out its frames in order, each once, as fast as the loop takes them, then the last one
    again and again; `frame_clock(source)` is its clock. No frame is dropped and no time passes but the frames'
    own, so what the loop makes of them is the same on a busy machine as on a quiet one (only slower)."""

    name = "played camera"

    def __init__(self, frames):
        self.frames, self.index = frames, 0

    def read(self):
        image = self.frames[min(self.index, len(self.frames) - 1)]
        self.index += 1
        return Frame(image, self.index, self.name)

    def set_exposure(self, share):
        return False

    def close(self):
        pass


def test_app_shows_cues_on_the_camera_line_and_hostile_payloads_literally(make_app):
    """The app's own scanner on the frames' clock: the code in view for three frames, then a far card in a hand that
    moves it a little, too small to read, for more than the cue's settling time (a second of frames). The cue comes
    from the frames, never from how many of them a busy machine got through in so many seconds."""
    spoken = []
    hostile = "[bold]\x1b[31mowned[/bold]"
    far = rendered(1, distance_mm=1500)[0]
    source = PlayedSource([_qr_on_table(hostile)] * 3 + [far, np.roll(far, 40, axis=1)] * 15)

    async def scenario():
        app = make_app(Heard(spoken.append), camera=lambda: source, clock=frame_clock(source))
        async with app.run_test() as pilot:
            # A bound on a failure only: a frame takes all the time it needs, and the cue comes by the 30th.
            assert await wait_for(lambda: any(r.hint and "Closer" in r.speech for r in spoken), pilot, seconds=120)
            assert str(app.query_one("#camera").render()) == "Closer."
            unknown = next(r for r in spoken if r.speech.startswith("Unknown code"))
            assert unknown.speech == "Unknown code: [bold]owned[/bold]"  # escape gone, markup kept as text
            shown = str(app.query_one("#history-text").render()) + str(app.query_one("#answer").render())
            assert "Unknown code: [bold]owned[/bold]" in shown

    asyncio.run(scenario())


def test_each_scanner_event_gets_its_reply_and_only_a_newer_cue_replaces_a_waiting_one():
    from assistant.core.language.reply import NOTICE
    from assistant.scanner.live import ScannerNotice
    from assistant.ui.camera import camera_reply
    from assistant.ui.messages import ScannerEvent

    session = Session(load_card_set())
    read = camera_reply(session, CodeAnnounced(AURA, 3))
    assert read.card.id == "rainbow-aura" and read.origin.new_input
    cue = camera_reply(session, CueGiven(Cue.CLOSER))
    assert cue.hint and cue.speech == aiming_words(Cue.CLOSER.value) and cue.origin.new_input
    assert camera_reply(session, SourceLost(CAMERA_LOST)).speech == CAMERA_LOST
    assert camera_reply(session, SourceBack()).speech == CAMERA_BACK
    notice = camera_reply(session, ScannerNotice("The camera is slow."))
    assert notice.important and notice.speech == "The camera is slow." and notice.origin is NOTICE
    older, newer = ScannerEvent(CueGiven(Cue.CLOSER)), ScannerEvent(CueGiven(Cue.HOLD_STILL))
    assert older.can_replace(newer)
    assert not older.can_replace(ScannerEvent(CodeAnnounced(AURA, 4)))
    assert not ScannerEvent(SourceBack()).can_replace(newer)


def _qr_on_table(payload):
    import qrcode

    code = qrcode.QRCode(border=4, box_size=6)
    code.add_data(payload)
    image = np.array(code.make_image().convert("L"))
    frame = np.full((720, 1280), 120, np.uint8)
    frame[200 : 200 + image.shape[0], 500 : 500 + image.shape[1]] = image
    return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)


# The scan command


def test_scan_command_json_for_images_and_a_video(tmp_path, capsys):
    image = tmp_path / "card.png"
    cv2.imwrite(str(image), F.render(F.Scene(distance_mm=380)))
    video = tmp_path / "clip.avi"
    F.write_clip(video, [F.render(scene) for scene in F.approach_clip(5, frames=20)])
    assert main(["scan", "--json", str(image), str(video)]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["path"] for o in objects] == [str(image), str(video)]
    for item in objects:
        assert item["payloads"] == [AURA] and item["cards"] == ["rainbow-aura"] and item["decode_ms"] > 0
    assert main(["scan", "--json", "--frames", str(video)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["frame"] for o in lines[:-1]] == list(range(20)) and lines[-1]["frames"] == 20


def test_scan_command_text_output_and_bad_files(tmp_path, capsys):
    image = tmp_path / "card.png"
    cv2.imwrite(str(image), F.render(F.Scene(distance_mm=380)))
    bad = tmp_path / "bad.png"
    bad.write_text("no picture")
    assert main(["scan", str(image), str(bad), str(tmp_path / "gone.jpg")]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[0].startswith(f"{image}: 1 code: Rainbow Aura (")
    assert scan_unreadable(str(bad)) in err and scan_not_found(str(tmp_path / "gone.jpg")) in err
    assert "Traceback" not in out + err
    assert main(["scan"]) == 2


def test_scan_command_names_the_deck_of_a_label_not_in_play(tmp_path, capsys):
    """A sticker of the 2nd Edition scanned with Llamas Unleashed in play: the card is not announced, and the line
    under its payload says which deck it belongs to; a label of no known deck says that."""
    ours, stranger = tmp_path / "ours.png", tmp_path / "stranger.png"
    cv2.imwrite(str(ours), F.render(F.Scene(distance_mm=380)))
    cv2.imwrite(str(stranger), F.render(F.Scene(distance_mm=380, payload=label_payload("no-such-deck", "x"))))
    assert main(["scan", "--deck", "llamas", str(ours), str(stranger)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{ours}: 1 code (") and lines[1] == f"  payload: {AURA}"
    assert (
        lines[2] == "  Rainbow Aura, a card of Unstable Unicorns, 2nd Edition base game (uu-2nd), not the deck in play."
    )
    assert lines[5].endswith("not in play, and not one of the decks this program knows.")
    assert main(["scan", str(ours)]) == 0  # the deck in play: no such line
    assert len(capsys.readouterr().out.splitlines()) == 2


# The sticker sheet


def printed_abbreviations(deck):
    """What the labels command prints under each code: the deck's braille abbreviations."""
    from assistant.braille.maps import deck_abbreviations
    from assistant.storage.paths import braille_map_dir

    return {card_id: entry.text for card_id, entry in deck_abbreviations(deck, braille_map_dir()).items()}


def test_sticker_module_meets_the_size_rule_at_40_cm_tilted_30_degrees(tmp_path):
    """The rule: a 1280-pixel-wide webcam with a 70 degree horizontal field of view, 40 cm away, sees every module
    at 4 pixels or more even with the card tilted 30 degrees; the code and its quiet zone fit the card's width.
    Measured on the sheet as printed: the width of a finder pattern (7 modules) in the page's dots."""
    from assistant.scanner import stickers

    assert main(["labels", "uu-2nd", "--out", str(tmp_path / "sheet.png"), "--unique"]) == 0
    deck = load_deck("uu-2nd")
    _, printed = stickers.sheet_pages(deck, printed_abbreviations(deck), unique=True)
    version = stickers.sheet_version(printed)
    assert version == 1
    x, y, w, h = stickers.slot_boxes(version)[0]
    page = np.array(Image.open(tmp_path / "sheet.png").convert("L"))
    # A row through the top edge of the top-left finder pattern, whose first dark run is 7 modules long.
    row = page[y + int((stickers.QUIET_MODULES + 0.5) * stickers.module_dots()), x : x + w]
    dark = np.flatnonzero(row < 128)
    breaks = np.flatnonzero(np.diff(dark) > 1)
    finder_dots = int(dark[breaks[0]] - dark[0] + 1)
    module_mm = finder_dots / 7 * 25.4 / stickers.DPI
    focal = 1280 / 2 / math.tan(math.radians(35))  # pixels, 70 degrees across 1280
    t = math.radians(30)
    half = 21 * module_mm / 2  # version 1: 21 modules; the far edge of the tilted code is its smallest part
    far_edge_px = module_mm * focal * math.cos(t) * 400 / (400 + half * math.sin(t)) ** 2
    assert far_edge_px >= 4.0, (finder_dots, far_edge_px)
    assert stickers.module_px(module_mm, tilt_deg=30) == pytest.approx(far_edge_px)
    width, height = stickers.sticker_size_mm(version)
    assert width <= stickers.CARD_MM[0] and height < stickers.CARD_MM[1]


@pytest.mark.parametrize("suffix", [".png", ".pdf"])
def test_labels_command_writes_a_sheet(tmp_path, capsys, suffix):
    out = tmp_path / f"sheet{suffix}"
    assert main(["labels", "uu-2nd", "--out", str(out), "--unique"]) == 0
    assert out.exists() and out.stat().st_size > 10_000
    said = capsys.readouterr().out
    assert "QR stickers" in said and "matte label paper" in said
    if suffix == ".pdf":
        assert (
            out.read_bytes().startswith(b"%PDF")
            and out.read_bytes().count(b"/Type /Page\n") + out.read_bytes().count(b"/Type /Page ") >= 1
        )


def test_every_sticker_on_the_sheet_decodes_back_to_its_card(tmp_path):
    from assistant.core.scanning.payloads import resolve_payload
    from assistant.scanner import stickers

    deck = load_deck("uu-2nd")
    cards = load_card_set()
    assert main(["labels", "uu-2nd", "--out", str(tmp_path / "sheet.png")]) == 0
    pages = stickers.page_paths(tmp_path / "sheet.png", 15)
    assert all(p.exists() for p in pages) and not stickers.page_paths(tmp_path / "sheet.png", 16)[-1].exists()
    _, printed = stickers.sheet_pages(deck, printed_abbreviations(deck))
    assert len(printed) == deck.total_copies
    cascade = Cascade(budget_ms=None)  # what the stickers allow, not what this machine manages in a frame
    boxes = stickers.slot_boxes(stickers.sheet_version(printed))
    # As a webcam at 40 cm sees a sticker: 300 dots an inch shrunk to 0.381 mm a pixel (about 0.22 of the size).
    scale = (25.4 / stickers.DPI) / F.mm_per_pixel()
    read = []
    for page in pages:
        image = np.array(Image.open(page).convert("L"))
        for x, y, w, h in boxes:
            seen = cv2.resize(image[y : y + h, x : x + w], None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            found = cascade.decode(seen)
            if found:
                assert len(found) == 1
                read.append(found[0].payload)
    assert read == [s.payload for s in printed]
    assert [resolve_payload(p, cards).card.id for p in read] == [s.card.id for s in printed]


def test_labels_sheet_refuses_other_formats(tmp_path, capsys):
    assert main(["labels", "uu-2nd", "--out", str(tmp_path / "sheet.svg")]) == 2
    assert "FILE.pdf or FILE.png" in capsys.readouterr().err


def test_tracker_reset_after_loss_announces_again():
    tracker = SightingTracker()
    from assistant.core.scanning.sightings import Sighting

    assert tracker.update([Sighting("A")], 0) == [] and tracker.update([Sighting("A")], 0.1)
    tracker.reset()
    assert tracker.update([Sighting("A")], 0.2) == [] and tracker.update([Sighting("A")], 0.3)


class CountingSource:
    """A source that counts the frames read from it (the same blank picture each time)."""

    name = "counting"

    def __init__(self):
        self.reads = 0
        self.image = np.full((72, 128, 3), 200, np.uint8)

    def read(self):
        self.reads += 1
        time.sleep(0.002)  # (a frame source's interval, as a real one has)
        return Frame(self.image, self.reads, self.name)

    def set_exposure(self, share):
        return False

    def close(self):
        pass


class LookedAtClock(FakeClock):
    """A `FakeClock` that counts the times it is read, so a test waits on the scanner's loop having looked at it (a
    real event of the loop's thread), never on a length of time."""

    def __init__(self):
        super().__init__()
        self.looks = 0
        self.looked = threading.Condition()

    def __call__(self):
        with self.looked:
            self.looks += 1
            self.looked.notify_all()
        return self.now

    def wait_looks(self, count):
        """Until the clock has been read `count` times (AssertionError after 30 s, a bound on a failure only)."""
        with self.looked:
            assert self.looked.wait_for(lambda: self.looks >= count, 30), f"read {self.looks} times"


def test_a_quiet_scanner_reads_no_frame_until_its_time_is_up():
    """`LiveScanner.quiet`: while the app makes a reply, the scanner's loop handles no frame, on its quiet clock
    (the test's, which only the test moves), and reads again once that time has passed."""
    clock, source = LookedAtClock(), CountingSource()
    scanner = LiveScanner(lambda: source, lambda event: None, guidance=False, clock=FakeClock(), quiet_clock=clock)
    scanner.quiet(0.25)
    thread = threading.Thread(target=scanner.run, daemon=True)
    thread.start()
    try:
        clock.wait_looks(clock.looks + 3)  # the loop has looked at its quiet three times, each before any frame
        assert source.reads == 0
        clock.advance(0.25)
        deadline = time.monotonic() + 30
        while source.reads < 3 and time.monotonic() < deadline:
            time.sleep(0.01)  # (the scanner's thread, polled)
        assert source.reads >= 3
    finally:
        scanner.stop()
        thread.join(5)


def test_the_apps_reply_quiets_its_camera_but_an_aiming_cue_does_not(make_app):
    """Each reply the app shows (a key's, a card the camera read) has the interpreter to itself for
    `camera.REPLY_QUIET_S`: the camera's loop handles no frame meanwhile (its quiet clock, the test's, stands still,
    so it stays quiet); an aiming cue, a line on the camera's own region, does not quiet it."""
    from assistant.core.language.reply import Reply

    clock, source = LookedAtClock(), CountingSource()
    app = make_app(Heard(), camera=lambda: source, clock=FakeClock())

    async def reads_in(pilot):
        """The frames read while the camera's loop looks at its quiet three times more (each look is one turn of the
        loop: a frame read, or none while quiet)."""
        before, looks = source.reads, clock.looks
        assert await wait_for(lambda: clock.looks >= looks + 3, pilot, seconds=30)
        return source.reads - before

    async def reads_again(pilot):
        before = source.reads
        return await wait_for(lambda: source.reads > before, pilot, seconds=30)

    async def run():
        async with app.run_test() as pilot:
            assert await wait_for(lambda: source.reads > 0, pilot, seconds=30)
            app.camera_worker.scanner.quiet_clock = clock
            app.show(Reply.of("Move the card closer.", hint=True))
            assert await reads_again(pilot)
            for key in "yay":
                await pilot.press(key)
            await pilot.press("enter")
            assert "Yay" in app.query_one("#answer").render().plain
            assert await reads_in(pilot) <= 1  # a frame begun as the reply came, at most
            clock.advance(0.25)
            assert await reads_again(pilot)

    asyncio.run(run())


class StarvedStage(LateStage):
    """A worker process the machine gives no core: every frame offered waits, none is ever begun (`begun` stays
    0), and it reads nothing."""

    def __init__(self):
        super().__init__("", (0, 0, 1, 1))
        self.offered = 0

    def offer(self, index, gray, regions, picture=None):
        self.offered += 1

    def busy(self):
        return self.offered > 0  # a job waits for a core


class SlowStage(StarvedStage):
    """A worker process the machine gives a tenth of a core: it begins the first frame offered at once and never ends
    that job in the test's time (`ended` stays 0), and it reads nothing."""

    def offer(self, index, gray, regions, picture=None):
        self.offered += 1
        self.begun = 1

    @property
    def ended(self):
        return 0


@pytest.mark.parametrize(("table", "starved"), [("card", StarvedStage), ("empty", StarvedStage), ("card", SlowStage)])
def test_a_still_picture_whose_job_the_worker_has_not_begun_gets_its_first_steps_from_the_frame_path(table, starved):
    """The priority rule. A busy machine gives the worker process no core: it begins no job (or begins one and does
    not end it). Once a still picture has waited `STAND_IN_AFTER` frames for one (or for the job under way to end),
    the frame path does the job's first steps itself (its own region search and the cascade's retries, within the
    frame's budget) on one frame in `STAND_IN_EVERY`: a blurred card only the retries read is announced on the frame
    after the first of them (its second read, stood in for too); an empty table costs at most `IDLE_JOBS` such
    frames, and every frame keeps within the frame's budget while the frame path keeps the CPU busy. Before, the
    frame path ran zxing-cpp's first pass alone whatever the worker did, and the card was never read; and until the
    rule counted a job under way, a job begun in time and starved after stopped it (the card never read either).
    Frames counted on a test clock that only the decoding steps move: no wall time."""
    from test_scanner_budget import COST_MS, TestClock

    from assistant.scanner.decoders import FRAME_BUDGET_MS
    from assistant.scanner.live import STAND_IN_AFTER, STAND_IN_EVERY

    card = F.scene_for("blur", 4)  # tuning set: read by the cascade's sharpening, not by its first pass
    frame = F.render(card) if table == "card" else F.render(replace(F.scene_for("blur", 4), distance_mm=5000))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert Cascade(budget_ms=None).decode(gray, retries=False) == []
    clock, worker = TestClock(), starved()
    cascade = Cascade(clock=clock, on_step=lambda kind, stage: clock.spend(COST_MS[kind]))
    scanner = LiveScanner(lambda: None, lambda event: None, cascade, background=worker, clock=clock, guidance=False)
    announced, retried, spent = [], [], []
    for index in range(90):
        before = clock.now
        announced += [(a.payload, index) for a in scanner.handle(frame, index, index / 30)]
        spent.append((clock.now - before) * 1000)
        if any(name != "zxing" for name, how in scanner.cascade.trace if how == "ran"):
            retried.append(index)
    assert worker.begun == (starved is SlowStage) and worker.ended == 0 and worker.offered > 0
    assert max(spent) <= FRAME_BUDGET_MS + COST_MS["zxing"] + COST_MS["transform"]
    if starved is SlowStage:  # offered frame 1 (a still picture's second), its job seen begun on frame 2
        assert retried[0] == 2 + STAND_IN_AFTER and announced == [(card.payload, 2 + STAND_IN_AFTER + 1)]
    elif table == "card":
        assert retried[0] == STAND_IN_AFTER and announced == [(card.payload, STAND_IN_AFTER + 1)]
    else:
        assert announced == [] and 1 <= len(retried) <= IDLE_JOBS
        assert retried == list(range(STAND_IN_AFTER, STAND_IN_AFTER + STAND_IN_EVERY * len(retried), STAND_IN_EVERY))
