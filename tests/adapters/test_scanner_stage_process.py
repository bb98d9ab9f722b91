"""The background stage in a child process (`assistant.scanner.stage_process`): a real spawned process, fed real
rendered frames through shared memory, its reads back in the parent; and the thread stage when no process starts.

Nothing here is timed: the tests wait (up to a generous limit) for the child's reply, and assert what came back.
"""

import contextlib
import threading
import time
from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from assistant.scanner.background import BackgroundStage, Job
from assistant.scanner.measure import find_code_regions
from assistant.scanner.stage_process import ProcessStage
from benchmarks import frames as F
from benchmarks.scanner_load import wait_ready


def reads_of(stage, frames, limit_seconds=60.0):
    """Offer the last of `frames` (all remembered first), then collect until the stage has worked on it."""
    for index, gray in enumerate(frames):
        stage.remember(index, gray)
    last = len(frames) - 1
    stage.offer(last, frames[-1], find_code_regions(frames[-1], limit=2))
    return collected(stage, last, limit_seconds=limit_seconds)


def collected(stage, index, worked=lambda stage: stage.jobs, limit_seconds=60.0):
    """The reads taken at frame `index` until the stage has worked (`worked`: what it has done, counted) and is idle
    again, up to a generous limit for the child's answer."""
    reads, give_up = [], time.monotonic() + limit_seconds
    while (worked(stage) == 0 or stage.busy()) and time.monotonic() < give_up:
        reads += stage.take(index)
        time.sleep(0.02)  # (the child process's answer, polled)
    return reads + stage.take(index)


def answered(stage, give_up):
    """Wait (until the wall clock's `give_up`, a generous limit) for the child to have answered every message the
    stage has sent it, and for nothing to wait for it: the next frame then finds a child that keeps up, as on a
    machine with a core to spare, whatever the load."""
    while stage.busy() and time.monotonic() < give_up:
        stage._poll()  # reads what the child sent (kept for the scanner), and sends it what waits
        time.sleep(0.01)  # (the child process's answer, polled)


@pytest.fixture
def thumb_frames():
    scene = F.scene_for("thumb", 0)
    gray = cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)
    return scene.payload, [gray, gray.copy()]


@pytest.fixture
def resting_stage():
    """A started child, ready, resting after each job on a clock that stands still; stopped after the test (the
    test waits, up to a generous limit, for its answers)."""
    stage = ProcessStage(clock=lambda: 0.0)
    stage.start()
    try:
        assert wait_ready(stage, 60)
        yield stage
    finally:
        stage.stop()


def test_the_child_process_reads_a_thumb_frame_and_stops(thumb_frames):
    payload, frames = thumb_frames
    stage = ProcessStage()
    stage.start()
    try:
        assert stage.running and not stage.failed
        reads = reads_of(stage, frames)
        assert [(r.decoded.payload, r.decoded.stage) for r in reads] == [(payload, "repair")]
        assert reads[0].frames == 2  # checked on the frame before it, copied from the ring too
        process = stage._process
    finally:
        stage.stop()
    assert not stage.running and not process.is_alive()
    assert stage._frames.shm is None  # the shared ring is unlinked


def test_a_job_whose_frame_reads_nothing_takes_its_next_passes_to_the_newest_frame(thumb_frames, resting_stage):
    """The child is given frame 1, a blank table, while the live loop has remembered two newer frames since, the card
    held up (a thumb over a finder pattern). The cascade reads nothing on frame 1, and the next passes go on the
    newest frame, 3: finder repair reads it there, checked on frame 2, and the read is of frame 3 (its delay counts
    from that frame). Before, the job ground on through the slow steps of the blank frame and read nothing. The
    rest on a clock that stands still; the test waits, up to a generous limit, for the child's answer."""
    stage = resting_stage
    payload, (gray, _) = thumb_frames
    blank = np.full_like(gray, 128)
    for index, frame in enumerate((blank, blank, gray, gray.copy())):
        stage.remember(index, frame)
    stage.offer(1, blank, [], None)
    reads = collected(stage, 3)
    assert [(r.decoded.payload, r.frame, r.frames) for r in reads] == [(payload, 3, 2)]


def test_a_still_pictures_look_goes_on_the_newest_frame_not_the_one_it_came_to_rest_on(thumb_frames, resting_stage):
    """A card comes to rest: the still picture's first job is offered its first frame (1, here blank, as a card still
    blurred from its arrival can show no sign of a code), and while the job waited the live loop remembered two newer
    frames of the picture, the card held still. The look and the work go on the newest frame: the picture shows a
    code, and the card is read there. Before, the look on frame 1 found no sign of a code, the whole still picture was
    marked as holding none (`no_code`), and the worker was offered none of it until something moved (seen on a hand
    clip at 720p that the thread stage read). The rest on a clock that stands still; the test waits, up to a generous
    limit, for the child's answer."""
    stage = resting_stage
    payload, (gray, _) = thumb_frames
    blank = np.full_like(gray, 128)
    for index, frame in enumerate((blank, blank, gray, gray.copy())):
        stage.remember(index, frame, picture=7)
    stage.offer(1, blank, None, picture=7)
    reads = collected(stage, 3, worked=lambda stage: stage.jobs + stage.looks)
    assert stage.no_code != 7 and (stage.jobs, stage.looks) == (1, 0)
    assert [(r.decoded.payload, r.frame) for r in reads] == [(payload, 3)]


def test_ten_frame_size_changes_in_a_row_leave_the_child_running_and_reading(thumb_frames):
    """The camera changes its frame size ten times in a row, a job offered on each: every ring lives until the child
    says it has moved on to a newer one, so no message reaches the child naming a ring already unlinked. Before, the
    second change in quick succession unlinked a ring whose message was still on its way, and the child died of
    `FileNotFoundError`. Nothing is timed: the test waits (up to a generous limit) for the child's read."""
    payload, frames = thumb_frames
    stage = ProcessStage()
    stage.start()
    try:
        assert wait_ready(stage, 60)
        child = stage._process
        for change in range(10):
            gray = np.full((240, 320) if change % 2 else (360, 480), 128, np.uint8)
            stage.remember(change, gray)
            stage.offer(change, gray, None)
        for index, gray in enumerate(frames, 10):  # the thumb card, at its own size: an eleventh change
            stage.remember(index, gray)
        stage.offer(11, frames[-1], None)
        reads, give_up = [], time.monotonic() + 60.0
        while not reads and stage.running and time.monotonic() < give_up:
            reads += stage.take(11)
            time.sleep(0.02)  # (the child process's answer, polled)
        assert stage._process is child and child.is_alive() and not stage.failed
        assert [r.decoded.payload for r in reads] == [payload]
        assert stage._frames.retired == []  # every ring replaced is gone once the child has moved on
    finally:
        stage.stop()
    assert stage._frames.shm is None and stage._frames.retired == []


def test_a_card_creeping_in_too_slowly_to_move_the_picture_is_looked_at_anew_and_read():
    """A card held by a thumb over a finder pattern (zxing-cpp's first pass cannot read it; the worker's finder
    repair can) creeps in from beyond the picture's left edge, 5 pixels a frame: no two frames in a row differ
    enough to move the picture, so it is one still picture from the first frame, an empty table. Once the card has
    changed the picture since that first frame, it is a new still picture, looked at and worked on: the card is
    read and announced. Before, the first frame's look (no sign of a code) held for the whole creep, and the worker
    was offered nothing of it. Frames on a frame clock; the wall clock only bounds the wait for the child."""
    from dataclasses import replace

    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import CodeAnnounced, LiveScanner

    card = F.scene_for("thumb", 0)
    rest, start = card.centre[0] * 1280, -100.0  # the card's centre at rest, and beyond the left edge
    events, stage = [], ProcessStage()
    scanner = LiveScanner(lambda: None, events.append, cascade=Cascade(clock=StillClock()), background=stage)
    rendered: dict[float, np.ndarray] = {}
    try:
        index, give_up = 0, time.monotonic() + 60.0
        while not any(isinstance(e, CodeAnnounced) for e in events) and time.monotonic() < give_up:
            x = min(rest, start + 5 * index)
            if x not in rendered:
                rendered[x] = F.render(replace(card, centre=(x / 1280, card.centre[1])))
            scanner.handle(rendered[x], index, index / 30)
            assert not scanner._moving  # never two frames in a row that differ enough to move the picture
            index += 1
            time.sleep(0.005)  # (a camera's pace: the child process works meanwhile)
        assert stage.retries_elsewhere
    finally:
        scanner.stop()
    assert all(Cascade().decode(frame, retries=False) == [] for frame in rendered.values())
    assert [e.payload for e in events if isinstance(e, CodeAnnounced)] == [card.payload]


def test_a_jobs_slow_steps_take_a_newer_frame_only_where_the_picture_or_its_code_region_changed(thumb_frames):
    """While a job's slow steps run, the live loop remembers newer frames. The job takes the newest when it shows
    another picture (a card coming in or taken away), or the same still picture changed over the job's code-like
    region (a card settling too slowly to move the picture); not when the region shows the same but for the noise
    (a cluttered empty table's job would otherwise spend a cascade on each of its slow steps). The first two frames
    of another still picture come as a job of that picture (which ends the job worked on). A real ring, written by
    the parent and read as the child reads it."""
    from assistant.scanner.background import Job
    from assistant.scanner.stage_process import _Newest

    _, (gray, _) = thumb_frames
    region = find_code_regions(gray, limit=1)[0]
    noisy = np.clip(gray + np.random.default_rng(0).normal(0, 2, gray.shape), 0, 255).astype(np.uint8)
    settled = np.roll(gray, 6, axis=1)  # the card 6 pixels on
    stage = ProcessStage(clock=lambda: 0.0)
    stage.start()
    try:
        assert wait_ready(stage, 60)
        stage.remember(0, gray, picture=7)
        first = stage._frames.slots[-1][1]  # frame 0's slot
        ring = _Newest(stage._frames.shm, gray.shape)
        ring.worked_on(0, first)
        job = Job(0, gray, [region], [(0, gray)], picture=7)
        newer = []
        for index, frame, picture in ((1, noisy, 7), (2, settled, 7), (3, gray, 8), (4, gray, None), (5, gray, 9),
                                      (6, gray, 9)):  # fmt: skip
            stage.remember(index, frame, picture=picture)
            fresh = ring.moved_on(job, region)
            newer.append(None if fresh is None else (fresh.index, fresh.picture))
            ring.worked_on(0, first)  # back on frame 0, of picture 7, for the next
    finally:
        stage.stop()
    assert newer == [None, (2, None), (3, None), (4, None), (5, None), (6, 9)]


def test_a_job_ends_where_another_still_picture_comes_and_that_pictures_own_job_reads_it(thumb_frames, resting_stage):
    """A job is given frame 1, a blank table, while the live loop has remembered two frames of another still
    picture since (8: the card held up, a thumb over a finder pattern). The cascade reads nothing on frame 1, and
    the job ends at its first slow step: the new picture's own job, its look first, is the next one offered, and it
    reads the card. Before, the job went on through its slow steps on the new picture's frame without its look, which
    the live loop waits for (its frames get the first pass only meanwhile): with both cores busy and the scanner
    niced as in the app, one job outlasted seven cards held a second each. The rest on a clock that stands still; the
    test waits, up to a generous limit, for the child's answer."""
    stage = resting_stage
    payload, (gray, _) = thumb_frames
    blank = np.full_like(gray, 128)
    for index, (frame, picture) in enumerate(((blank, 7), (blank, None), (gray, 8), (gray.copy(), 8))):
        stage.remember(index, frame, picture)
    stage.offer(1, blank, [], None)
    first = collected(stage, 3)
    jobs = stage.jobs
    assert stage.looking(8) is False  # (nothing asked of picture 8 yet)
    stage.offer(3, gray, None, picture=8)  # (its look asked: whether it is back yet is the child's pace)
    second = collected(stage, 3, worked=lambda stage: stage.jobs - jobs)
    assert first == [] and jobs == 1
    assert [(r.decoded.payload, r.frame) for r in second] == [(payload, 3)] and stage.no_code != 8


def test_a_job_whose_frames_were_overwritten_in_the_ring_meanwhile_is_dropped():
    """The child copies a job's frames out of the shared ring and checks each slot's head: when the parent has
    written a newer frame over one of them meanwhile (the ring is `SLOTS` frames, and the live loop never waits),
    the job is dropped, never worked on a frame it does not name; the frame worked on is then of no picture (-1). A
    real ring, written by the parent and read as the child reads it."""
    from assistant.scanner.stage_process import SLOTS, _copied, _Newest

    shape = (8, 12)
    frames = [np.full(shape, index, np.uint8) for index in range(SLOTS + 1)]
    stage = ProcessStage(clock=lambda: 0.0)
    stage.start()
    try:
        assert wait_ready(stage, 60)
        for index in range(3):
            stage.remember(index, frames[index], picture=5)
        job = list(stage._frames.slots)  # (frame index, slot) of frames 0, 1 and 2
        copied = _copied(stage._frames.shm, shape, job, np)
        assert copied is not None and [index for index, _ in copied] == [0, 1, 2]
        assert all((frame == index).all() for index, frame in copied)
        ring = _Newest(stage._frames.shm, shape)
        ring.worked_on(*job[0])
        assert ring.picture == 5
        for index in range(3, SLOTS + 1):  # frame SLOTS goes into frame 0's slot
            stage.remember(index, frames[index], picture=5)
        assert _copied(stage._frames.shm, shape, job, np) is None
        assert [index for index, _ in _copied(stage._frames.shm, shape, job[1:], np)] == [1, 2]  # still theirs
        ring.worked_on(*job[0])
        assert ring.picture == -1
    finally:
        stage.stop()


def test_when_no_process_starts_the_thread_stage_does_the_work(thumb_frames, monkeypatch):
    import multiprocessing

    def refuse(method):
        raise OSError("no processes here")

    monkeypatch.setattr(multiprocessing, "get_context", refuse)
    payload, frames = thumb_frames
    stage = ProcessStage()
    stage.start()
    try:
        assert stage.failed and isinstance(stage._process, threading.Thread) and stage.running
        reads = reads_of(stage, frames)
        assert [r.decoded.payload for r in reads] == [payload]
    finally:
        stage.stop()
    assert not stage.running


class StillClock:
    """A budget clock that never moves: the frame path's budget never cuts a retry short, so whatever retry it
    leaves undone, it leaves by design."""

    def __call__(self) -> float:
        return 0.0


def scan_until_read(scanner, frame, limit_seconds=60.0):
    """Hand the scanner the same frame (a card held still) until a code is announced; the frame path's trace of
    every frame. Frames are stamped on a frame clock; the wall clock only bounds the wait for the child."""
    from assistant.scanner.live import CodeAnnounced

    events, traces, index = [], [], 0
    scanner.report = events.append
    give_up = time.monotonic() + limit_seconds
    while not any(isinstance(e, CodeAnnounced) for e in events) and time.monotonic() < give_up:
        # A hand holding the card: the picture moves a little every frame, so it is never idle.
        scanner.cascade.trace = []  # a frame the frame path decodes nothing in has no trace (not the one before's)
        scanner.handle(np.roll(frame, index % 2, axis=1), index, index / 30)
        traces.append([] if scanner.stood_in else list(scanner.cascade.trace))
        index += 1
        time.sleep(0.01)  # (a camera's pace: the child process works meanwhile)
    return [e.payload for e in events if isinstance(e, CodeAnnounced)], traces


def test_with_the_child_running_the_frame_path_does_the_first_pass_only_and_the_child_reads_the_card(thumb_frames):
    """The retries (regions, upscales, repair, erasures) are the child's: on a budget that never runs out, today's
    loop would run every retry stage itself on a frame its first pass cannot read."""
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import LiveScanner

    payload, frames = thumb_frames
    frame = cv2.cvtColor(frames[0], cv2.COLOR_GRAY2BGR)
    stage = ProcessStage()
    scanner = LiveScanner(lambda: None, lambda e: None, cascade=Cascade(clock=StillClock()), background=stage)
    try:
        read, traces = scan_until_read(scanner, frame)
        assert stage.retries_elsewhere
    finally:
        scanner.stop()
    assert read == [payload]
    # The first frame starts the child; from the next on, the frame path runs the first passes alone, but on the
    # frames it stands in for a job the child has not begun yet (its imports take seconds: `live.STAND_IN_AFTER`).
    assert all(stage == "zxing" for trace in traces[1:] for stage, _ in trace)
    assert any(trace for trace in traces[1:])
    assert not stage.running


def test_with_the_child_running_a_dark_frames_stretch_is_the_childs_and_the_child_reads_it():
    """A dark frame (tuning set, seed 2) that zxing-cpp's first pass cannot read and the grey-level stretch can:
    the stretch is a retry, so the child's. The frame path runs zxing-cpp's first pass alone (before, it ran the
    stretch and a second zxing-cpp pass itself on every dark frame it could not read: twice the raw decoder), but on
    the frame where the child's read comes back standing for its own frame alone, which the frame path reads again
    on the read's box (`LiveScanner._again`) and announces."""
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import LiveScanner

    scene = F.scene_for("dark", 2)
    stage = ProcessStage()
    scanner = LiveScanner(lambda: None, lambda e: None, cascade=Cascade(clock=StillClock()), background=stage)
    try:
        read, traces = scan_until_read(scanner, F.render(scene))
        assert stage.retries_elsewhere
    finally:
        scanner.stop()
    assert read == [scene.payload]
    assert [(i, stage) for i, trace in enumerate(traces[1:-1], 1) for stage, _ in trace if stage != "zxing"] == []
    assert any(trace for trace in traces[1:])


def test_with_the_thread_host_instead_the_frame_path_does_the_first_pass_only_as_with_the_child(
    thumb_frames, monkeypatch
):
    """Where no process starts, the same worker runs on a thread under the same scheduler: the frame path leaves every
    retry to it, as to the child, and the card is read. Before, the thread stage left the frame path its own budgeted
    retries (the sharpening among them), and read other cards than the worker."""
    import multiprocessing

    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import LiveScanner

    monkeypatch.setattr(multiprocessing, "get_context", lambda method: (_ for _ in ()).throw(OSError("none")))
    payload, frames = thumb_frames
    frame = cv2.cvtColor(frames[0], cv2.COLOR_GRAY2BGR)
    stage = ProcessStage()
    scanner = LiveScanner(lambda: None, lambda e: None, cascade=Cascade(clock=StillClock()), background=stage)
    try:
        read, traces = scan_until_read(scanner, frame)
        assert stage.failed and stage.retries_elsewhere
    finally:
        scanner.stop()
    assert read == [payload]
    assert all(stage == "zxing" for trace in traces[1:] for stage, _ in trace)


def test_with_the_child_running_the_aiming_measurement_is_the_childs_and_its_cue_still_comes(monkeypatch):
    """A card held too far away to read (tuning set): the frame path asks the child for the aiming measurement and
    says the cue from the view that comes back; it never measures itself (before, `measure_view` ran in the frame
    path on its budget). Frames are stamped on a frame clock; the wall clock only bounds the wait for the child."""
    from assistant.core.scanning.aiming import Cue
    from assistant.scanner import live
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import CueGiven, LiveScanner

    measured_here = []
    measure_view = live.measure_view
    monkeypatch.setattr(live, "measure_view", lambda *a, **k: measured_here.append(1) or measure_view(*a, **k))
    steps = []
    cascade = Cascade(clock=StillClock(), on_step=lambda kind, stage: steps.append(kind))
    frame = F.render(F.Scene(seed=0, distance_mm=1500))
    events = []
    stage = ProcessStage()
    scanner = LiveScanner(lambda: None, events.append, cascade=cascade, background=stage)
    index, give_up = 0, time.monotonic() + 60.0
    try:
        while not any(isinstance(e, CueGiven) for e in events) and time.monotonic() < give_up:
            scanner.handle(frame, index, index / 30)
            index += 1
            time.sleep(0.01)  # (a camera's pace: the child process works meanwhile)
        assert stage.retries_elsewhere
    finally:
        scanner.stop()
    assert [e.cue for e in events if isinstance(e, CueGiven)] == [Cue.CLOSER]
    assert stage.aims >= 1  # the child's measurement
    assert measured_here == [] and "aiming" not in steps  # none in the frame path


def test_a_new_empty_table_gets_the_first_pass_only_until_the_childs_look_comes_back(monkeypatch):
    """An empty busy table seen anew (tuning set: a pale grain, whose pattern gives code-like regions): its first
    frame is offered to the child for a look (the child searches it for regions); until the look's verdict (no sign
    of a code) comes back, the frame path gives the still picture's frames zxing-cpp's first pass only, and then the
    picture is idle; its full frames (one a second) get the first pass, with no region search and no aiming
    measurement (nothing to aim at). Before, every frame until the verdict got the whole frame path (the region
    search, the aiming measurement), and on a busy
    machine the niced child's verdict came back many frames late. Frames are counted, never timed: the test waits
    for the verdict before it hands the frames after it."""
    from assistant.scanner import live
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import LiveScanner

    searched = []
    search = live.find_code_regions
    monkeypatch.setattr(live, "find_code_regions", lambda *a, **k: searched.append(1) or search(*a, **k))
    table = F.render(F.Scene(distance_mm=380, centre=(5.0, 5.0), busy_table="pale grain", table=0))
    stage = ProcessStage()
    stage.start()
    scanner = LiveScanner(lambda: None, lambda e: None, cascade=Cascade(clock=StillClock()), background=stage)
    try:
        assert wait_ready(stage, 60)
        scanner.handle(table, 0, 0.0)  # the first frame: the whole path, and the look asked for
        scanner.handle(table, 1, 1 / 30)  # the look not back yet: the first pass only
        give_up = time.monotonic() + 60.0
        while stage.no_code is None and time.monotonic() < give_up:
            stage.looking(scanner._picture)  # reads what the child sent
            time.sleep(0.02)  # (the child process's look, polled)
        assert stage.no_code == scanner._picture  # no sign of a code: the picture is idle from here
        asked, aim = [], stage.aim
        stage.aim = lambda index, region, squareness: asked.append((index, region)) or aim(index, region, squareness)
        for index in range(2, 62):
            scanner.handle(table, index, index / 30)
        assert stage.jobs == 0
    finally:
        scanner.stop()
    assert searched == []  # the region search is the child's, on the first frame
    # No sign of a code: nothing to aim at, and the idle full frames (one a second) ask no aiming measurement.
    assert asked == []


class SendsCounted:
    """The parent's end of the pipe to the child, counting the jobs sent."""

    def __init__(self, conn):
        self.conn, self.jobs = conn, 0

    def send(self, message):
        self.jobs += message[0] == "job"
        self.conn.send(message)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def test_a_still_held_at_1080p_gets_the_workers_read_within_half_a_second_on_the_frames_clock():
    """Two cards held up in turn at 1080p (evaluation camera; the first pass reads neither): the worker works on the
    first, then rests thirty times as long as each job took, counted on the frames' clock. The second card's frames
    go to it at once whatever that rest (it is for frames of the same picture), from the picture's second frame on,
    so its read is checked on a frame of the same picture and announced as it comes back: within half a second of
    the frames' clock, 15 frames. The worker's own work counts as no frame time (the test waits, up to a generous
    limit, for each job it has been given); before, its rest held the next card back, and the first job's read, of a
    new picture's first frame, stood for one frame and was not announced."""
    from dataclasses import replace

    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import CodeAnnounced, LiveScanner
    from benchmarks import camera_model as M
    from benchmarks.scanner_load import resolution

    with resolution(1920, 1080):
        cards = [[M.render(replace(M.sample_shot(seed), frame=f)) for f in (1, 2, 3)] for seed in (0, 18)]
    payload = M.sample_shot(18).payload
    index = 0
    stage = ProcessStage(rest=30.0, clock=lambda: index / 30)
    events = []
    scanner = LiveScanner(
        lambda: None, events.append, cascade=Cascade(clock=StillClock()), background=stage, guidance=False
    )
    stage.start()
    stage._conn = SendsCounted(stage._conn)
    try:
        assert wait_ready(stage, 60)
        for card in cards:
            first = index
            for _ in range(45):
                scanner.handle(card[index % 3], index, index / 30)
                give_up = time.monotonic() + 60.0
                while stage.jobs + stage.looks < stage._conn.jobs and time.monotonic() < give_up:
                    stage.take_view()  # reads what the child sent (no aiming asked: nothing else taken)
                    time.sleep(0.01)  # (the child process's answers, polled)
                index += 1
                if any(isinstance(e, CodeAnnounced) for e in events):
                    break
        assert stage.retries_elsewhere
    finally:
        scanner.stop()
    assert [e.payload for e in events if isinstance(e, CodeAnnounced)] == [payload]
    assert index - 1 - first <= 15
    assert stage.jobs >= 2  # the first card's frames were worked on too


class _Settable:
    """A source whose exposure can be set (the frames are handed to the scanner by the test)."""

    def set_exposure(self, share):
        return True


def test_with_the_child_running_the_region_search_is_the_childs_and_its_region_meters_the_exposure(monkeypatch):
    """A card lying still too far away to read (tuning set): while the child runs, the frame path never searches
    for code-like regions (3 to 21 ms at 720p, the most of its own time beyond zxing-cpp's first pass): its offers go
    without regions and the child searches for itself, and the first region it found comes back, on which the frame
    path meters the exposure. Before, a still picture was searched on one frame in three, a moving one on every
    frame. Frames are counted, never timed: the test waits for the child's work to come back, each frame's before
    the next frame (a child that keeps up). Before, frames came every 10 ms of the wall clock, and on a busy machine
    the child began no job within `live.STAND_IN_AFTER` frames: the frame path stood in and searched itself."""
    from assistant.scanner import live
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import LiveScanner
    from assistant.scanner.measure import white_level

    searched = []
    search = live.find_code_regions
    monkeypatch.setattr(live, "find_code_regions", lambda *a, **k: searched.append(1) or search(*a, **k))
    frame = F.render(F.Scene(seed=0, distance_mm=1500))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    metered = []
    monkeypatch.setattr(live, "white_level", lambda g, region: metered.append(region) or white_level(g, region))
    stage = ProcessStage()
    stage.start()
    scanner = LiveScanner(lambda: None, lambda e: None, cascade=Cascade(clock=StillClock()), background=stage)
    scanner.source = _Settable()
    try:
        assert wait_ready(stage, 60)
        index = 0
        give_up = time.monotonic() + 60.0
        while (stage.region is None or index < 12) and time.monotonic() < give_up:
            scanner.handle(frame, index, index / 30)
            index += 1
            answered(stage, give_up)
        metered.clear()
        while not metered and time.monotonic() < give_up:  # the next full frame (a still picture: one in 30)
            scanner.handle(frame, index, index / 30)
            index += 1
            answered(stage, give_up)
    finally:
        scanner.stop()
    assert searched == []  # never in the frame path
    assert stage.region == tuple(search(gray, limit=1)[0])  # the child's own search of the same picture
    assert metered and metered[-1] == stage.region


def test_the_app_camera_uses_the_process_stage():
    from assistant.ui.camera import CameraWorker

    worker = CameraWorker(lambda: None, lambda message: None)  # type: ignore[arg-type,return-value]
    assert isinstance(worker.scanner.background, ProcessStage)


class AnsweringChild:
    """The child's end of the pipe as the parent sees it, on the test's thread: what is sent is recorded, and the
    test puts the child's answers in."""

    def __init__(self):
        self.sent, self.answers, self.jobs = [], [], []

    def send(self, message):
        self.sent.append(message[0])
        if message[0] == "job":
            self.jobs.append((message[1], message[-1]))  # the frame's index and its picture

    def poll(self, timeout=0.0):
        return bool(self.answers)

    def recv(self):
        return self.answers.pop(0)


@contextlib.contextmanager
def answering(stage: ProcessStage) -> Iterator[AnsweringChild]:
    """`stage` with a child that is there, answering as the test says (the parent's side alone); let go after."""
    child = AnsweringChild()
    stage._process, stage._conn = object(), child
    try:
        yield child
    finally:
        stage._process = stage._conn = None
        stage._frames.close()


def test_aiming_requests_on_every_frame_leave_the_worker_turns_for_the_jobs():
    """Nothing read, so every frame asks for an aiming measurement and offers the frame, and the child finishes
    each message within the frame: an aiming request goes before a job due, but not twice in a row. Before, the
    request of each frame took the child's every turn, and a still card's job waited until the picture turned idle
    (a second on). The parent's side alone, frames counted."""
    stage = ProcessStage(rest=0.0)
    with answering(stage) as child:
        for index in range(10):
            stage._frames.slots.append((index, index))  # the frame remembered in the ring
            stage.aim(index, None, None)
            stage.offer(index, None, None, 1)
            child.answers.append(("ready", 0.001))  # done with what it had
            stage.take_view()  # the next frame's look at what the child sent
        assert child.sent.count("job") >= 4 and child.sent.count("aim") >= 4


def test_a_job_waiting_for_a_picture_gone_is_dropped_and_the_next_pictures_first_job_goes_at_once():
    """Card A (still picture 1) is offered frame after frame while the child works on its first; the child says it is
    ready during A's hold, and the rest after that job ends (on the frames' clock) as card B is held up (picture 2).
    A's frame waiting is dropped, never sent: the child is free for B's first job, offered on B's second frame, and
    takes it at once. Before, A's frame went to the child on B's first frame (its reads stale by then), and B's first
    job waited for it (on the evaluation camera, up to 0.4 s of the child's work). The parent's side alone, the
    child's answers put in by the test."""
    index = 0
    stage = ProcessStage(rest=1.0, clock=lambda: index / 30)
    gray = np.zeros((8, 8), np.uint8)
    with answering(stage) as child:
        for index, picture in enumerate((1, 1, 1, 2, 2)):
            stage.remember(index, gray, picture)
            if index == 2:
                child.answers.append(("ready", 0.01))  # done with frame 0's job: rests until 0.077 s
            if index != 3:  # the live loop offers a still picture's frames from its second
                stage.offer(index, gray, None, picture)
            stage.take(index)
        assert child.jobs == [(0, 1), (4, 2)]


def test_the_worker_is_given_the_next_frame_of_a_card_as_soon_as_its_job_ends():
    """A card held unread: each frame is offered, and the child says it is ready after each job (0.1 s of CPU). The
    next frame of the same picture goes at once (`CHILD_REST`), on a frames' clock that does not move meanwhile.
    Before, the parent rested as long as the job took (the thread's rest), and the worker tried half as many frames
    of a card coming in or held as it could. The parent's side alone, the child's answers put in by the test."""
    stage = ProcessStage(clock=lambda: 0.0)
    gray = np.zeros((8, 8), np.uint8)
    with answering(stage) as child:
        for index in range(4):
            stage.remember(index, gray, 1)
            stage.offer(index, gray, None, 1)
            child.answers.append(("ready", 0.1))  # done with the job sent
            stage.take(index)
        assert [index for index, _ in child.jobs] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "done",
    [
        ("done", [], False, True, None, 1, None, None),  # no read, no finder-like pattern (`no_finder`)
        ("done", ["read"], False, True, None, None, 1, None),  # its code read, checked on a second frame (`read_in`)
    ],
    ids=["no finder", "read"],
)
def test_a_frame_waiting_for_a_picture_whose_job_read_its_code_or_found_no_finder_pattern_is_dropped(done):
    """A card held still (or a cluttered empty table): its first job goes to the child, and the next frame of the same
    still picture waits meanwhile. The job reads the code (or reads nothing and finds no finder-like pattern), so the
    frame waiting is dropped, not sent, and no later frame of the picture is either. Before, it went to the child as
    the job ended: a card already read worked on again, 0.3 s into the next card's hold on the evaluation camera
    (`BackgroundStage.read_in`), or two jobs a cluttered table where one was meant. The parent's side alone, the
    child's answers put in by the test."""
    stage = ProcessStage(clock=lambda: 0.0)
    gray = np.zeros((8, 8), np.uint8)
    with answering(stage) as child:
        for index in range(2):
            stage.remember(index, gray, 1)
            stage.offer(index, gray, None, 1)
        child.answers += [done, ("ready", 0.1)]
        for index in range(2, 4):
            stage.remember(index, gray, 1)
            stage.offer(index, gray, None, 1)
            stage.take(index)
        stage.remember(4, gray, 2)
        stage.offer(4, gray, None, 2)  # the next card: its own job at once
        assert child.jobs == [(0, 1), (4, 2)]


def test_a_job_reading_a_still_pictures_code_checked_on_a_second_frame_marks_the_picture_read():
    """A card held still, read on its frame and checked on the frame before: its picture is `read_in`, and the thread
    stage is offered no more of it. A read standing for one frame (no frame before it) leaves the mark alone, as a
    moving picture's read does: its second read may need the next job. Real frames, the stage's own work."""
    frames = [cv2.cvtColor(F.render(F.Scene(noise=noise)), cv2.COLOR_BGR2GRAY) for noise in (2.0, 2.5)]
    stage = BackgroundStage()

    def read(index, picture, history):
        reads = stage.work(
            Job(index, frames[index % 2], find_code_regions(frames[index % 2]), history, picture=picture)
        )
        return [r.frames for r in reads]

    assert read(1, 7, [(0, frames[0])]) == [2] and stage.read_in == 7
    assert read(3, None, [(2, frames[0])]) == [2] and read(4, 8, []) == [1] and stage.read_in == 7
    stage.offer(5, frames[1], [], picture=7)
    assert not stage.busy()
    stage.offer(6, frames[1], [], picture=8)
    assert stage.busy()


def test_the_schedule_drops_a_job_waiting_for_a_picture_gone_but_keeps_a_moving_pictures():
    """The one scheduler of both hosts (`schedule.JobSchedule`), its worker busy: a still picture's frame waiting is
    dropped once another picture is in view, a frame of a moving picture (a card coming in) kept; a frame of a picture
    whose job read its code is dropped when the worker is ready, never handed to it. Pure: messages put in by the
    test, a clock that stands still."""
    from assistant.scanner.schedule import JobSchedule

    schedule, slots = JobSchedule(clock=lambda: 0.0), [(i, i) for i in range(8)]
    schedule.offer(0, [], 1)  # (waits: nothing is handed out until `next`)
    schedule.remember(1)
    assert schedule.busy()  # the same picture: kept
    schedule.remember(2)
    assert not schedule.busy()
    schedule.offer(3, [], None)
    schedule.remember(3)
    assert schedule.busy()
    schedule.offer(4, [], 3)
    schedule.received(("done", ["read"], False, True, None, None, 3, None))  # picture 3's code read, checked
    schedule.received(("ready", 0.1))
    assert schedule.next(slots) is None and not schedule.busy() and schedule.take() == ["read"]
    schedule.offer(5, None, 4)
    assert schedule.next(slots) == ("job", 5, [(i, i) for i in range(6)], None, 4) and schedule.looking(4)


def test_the_stage_tries_the_regions_as_found_before_the_widened_ones():
    """An evaluation still at 1080p (seed 5008, its second rendering, a card on a busy table whose pattern joins the
    whole picture into one region): the frame path's cascade reads it by upscaling the card's own region; the
    stage's cascade, given only that region widened (its upscale then smaller), read nothing there, so with the
    worker doing every retry the card waited for the average of later frames."""
    from dataclasses import replace

    from assistant.scanner.background import Job
    from assistant.scanner.decoders import Cascade
    from benchmarks import camera_model as M
    from benchmarks.scanner_load import resolution

    with resolution(1920, 1080):
        shot = M.sample_shot(5008)
        gray = cv2.cvtColor(M.render(replace(shot, frame=2)), cv2.COLOR_BGR2GRAY)
    stage = BackgroundStage(Cascade(budget_ms=None))
    reads = stage.work(Job(0, gray, find_code_regions(gray), []))
    assert [(r.decoded.payload, r.decoded.stage) for r in reads] == [(shot.payload, "upscale-global")]


def test_the_worker_measures_a_still_pictures_view_once_and_a_far_card_brought_closer_anew(monkeypatch):
    """The worker's aiming measurement of a still picture (a cluttered table once idle is measured once a second) is
    made once: a frame that differs by its noise alone gives back the view measured. A card 1.5 m away over a pale
    marble, in a dim room, brought a fifth closer moves too few pixels for the motion check, but changes its edges:
    measured anew, its code-like region larger (the card's size is what "closer" said again rests on). Before,
    every request was measured, 12 to 19 ms of the worker's CPU at 720p on a checked cloth. Evaluation camera
    frames."""
    from dataclasses import replace

    from assistant.scanner import measure, stage_process
    from benchmarks import camera_model as M

    far = M.Shot(distance_mm=1500.0, table="marble", lux=50.0, seed=3, frame=1)
    shots = (far, replace(far, frame=2), replace(far, frame=3, distance_mm=1250.0))
    frames = [cv2.cvtColor(M.render(shot), cv2.COLOR_BGR2GRAY) for shot in shots]
    measured = []
    measure_view = measure.measure_view
    monkeypatch.setattr(measure, "measure_view", lambda *a, **k: measured.append(1) or measure_view(*a, **k))
    aiming = stage_process._Aiming()
    (first, _), (again, _), (closer, moving) = (aiming.measure(frame, None, None) for frame in frames)
    assert len(measured) == 2 and again == replace(first, still=True) and not moving
    assert first.region is not None and closer.region is not None and closer.region[2] > first.region[2]


@pytest.mark.skipif(not hasattr(__import__("os"), "getpriority"), reason="no process priorities here")
def test_the_worker_keeps_the_niceness_of_the_process_that_started_it_and_says_each_job_begun(thumb_frames):
    """The worker process runs at the niceness of the process that starts it (in the app, the scanner's child),
    never lower: niced below it (10 more, 19 in all), a busy machine gave it no core, and it began 0 to 5 jobs across
    69 stills held. It says when it begins a job (`begun`), which the live loop's priority rule counts. A real child;
    the test waits, up to a generous limit, for its answer."""
    import os

    payload, frames = thumb_frames
    stage = ProcessStage()
    stage.start()
    try:
        assert wait_ready(stage, 60) and stage.begun == 0
        assert os.getpriority(os.PRIO_PROCESS, stage._process.pid) == os.getpriority(os.PRIO_PROCESS, 0)
        reads = reads_of(stage, frames)
        assert [r.decoded.payload for r in reads] == [payload] and stage.begun == 1
    finally:
        stage.stop()


def test_the_scanners_child_starts_its_worker_above_itself_and_below_the_app():
    """The scanner's child lowers its own priority to `NICENESS` only once its worker process has started, and the
    worker to `WORKER_NICENESS`: below the app and the player's other programs, above the frame loop. A process may
    lower a priority, never raise it, so the worker started after the child lowered its own was at the frame loop's
    niceness: with both cores busy it had a tenth of a core, and a still's job did not end within its hold. Run in a
    process of its own (its priority cannot be raised back); the test waits, up to a generous limit, for the worker."""
    import json
    import subprocess
    import sys

    from assistant.scanner.live_process import NICENESS, WORKER_NICENESS

    program = (
        "import json, os\n"
        "from assistant.scanner.live_process import set_priorities\n"
        "from assistant.scanner.stage_process import ProcessStage\n"
        "from benchmarks.scanner_load import wait_ready\n"
        "base = os.getpriority(os.PRIO_PROCESS, 0)\n"
        "stage = ProcessStage(started=set_priorities)\n"
        "before = os.getpriority(os.PRIO_PROCESS, 0)\n"
        "stage.start()\n"
        "ready = wait_ready(stage, 60)\n"
        "print(json.dumps([base, before, os.getpriority(os.PRIO_PROCESS, 0),"
        " os.getpriority(os.PRIO_PROCESS, stage._process.pid), ready]))\n"
        "stage.stop()\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True)
    base, before, child, worker, ready = json.loads(done.stdout.strip().splitlines()[-1])
    assert ready and before == base  # not lowered before the worker has started
    assert child == min(19, base + NICENESS) and worker == min(19, base + WORKER_NICENESS)


def test_the_worker_process_runs_opencv_on_the_scanners_threads_and_says_so():
    """The worker's process sets OpenCV's threads as it starts (`budget.OPENCV_THREADS`) and says how many it has: left
    to OpenCV's own pool (a thread a core), it spent 1.3 to 2.2 times the CPU of the same looks on a thread of a
    process with one. A real child; the test waits, up to a generous limit, for its answer."""
    from assistant.scanner.budget import OPENCV_THREADS

    stage = ProcessStage()
    stage.start()
    try:
        assert wait_ready(stage, 60) and not stage.failed
        assert stage.opencv_threads == OPENCV_THREADS
    finally:
        stage.stop()
