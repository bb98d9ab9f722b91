"""Every frame a camera can give is survived (`camera_frames`): empty, degenerate, odd-sized, 16-bit, floating point,
one-, two- and four-channel frames are converted or skipped at the source with a count, through the live path (a
webcam on recorded frames, the live loop, the thread fallback) and through the app's process arrangement (the scanner
in a child of its own, its worker process): no exception, no restart, no end of scanning; a card shown in a frame
that can be converted is read from it; the one after the bad frames is read too.

Before, `LiveScanner.handle` raised on an empty frame (`cv2.resize` of an empty plane), on a 16-bit or floating point
frame (`cv2.absdiff` of it and the 8-bit copy of the one before, and on the next good frame, the float copy kept),
on one or two channels; a one-row strip ended the thread fallback's thread; in the app's process each bad frame
ended the scanner's child. The webcam is the one thing stood in for, behind its real interface
(`recorded_camera.RecordedCapture`); the waits are on the scanner's own events and counts, bounded only against a
hang."""

from __future__ import annotations

import itertools
import threading
import time

import numpy as np
import pytest
from recorded_camera import RecordedCapture, record, recorded_opener

from assistant.core.scanning.payloads import label_payload
from assistant.scanner.background import job_stage
from assistant.scanner.camera_frames import MIN_SIDE, FrameCheck
from assistant.scanner.known import KnownLabels
from assistant.scanner.live import CodeAnnounced, LiveScanner, SourceLost
from assistant.scanner.live_process import LiveProcess
from assistant.scanner.sources import Webcam
from assistant.storage.decks import load_deck
from benchmarks import frames as F

FIRST = label_payload("uu-2nd", "unicorn-poison")
SHOWN = label_payload("uu-2nd", "neigh")
HIDDEN = label_payload("uu-2nd", "rainbow-aura")  # the glare scene's card, read only by the decks' labels
PATIENCE = 120.0


def _four(frame):
    return np.dstack([frame, np.full(frame.shape[:2], 255, np.uint8)])


#: Each kind of frame, made from a rendered 8-bit BGR frame, and whether it can be made one the scanner takes.
KINDS = {
    "empty": (lambda f: np.zeros((0, 0, 3), np.uint8), False),
    "no rows": (lambda f: np.zeros((0, f.shape[1], 3), np.uint8), False),
    "one row": (lambda f: f[:1].copy(), False),
    "odd-sized": (lambda f: f[3:634, 401:1204].copy(), True),  # 631 by 803: taken as it is
    "float32": (lambda f: f.astype(np.float32) / 255, True),
    "float64": (lambda f: f.astype(np.float64), True),
    "uint16": (lambda f: f.astype(np.uint16) * 257, True),
    "one channel": (lambda f: f[..., 1:2].copy(), True),
    "two channels": (lambda f: f[..., :2].copy(), True),
    "four channels": (_four, True),
}


def frames_around(kind, repeats):
    """`repeats` frames of the first card, `repeats` of the shown card in frames of `kind`, then the hidden one."""
    first = [F.render(F.Scene(payload=FIRST, centre=(0.3, 0.5), seed=i)) for i in range(repeats)]
    shown = [KINDS[kind][0](F.render(F.Scene(payload=SHOWN, centre=(0.7, 0.5), seed=i))) for i in range(repeats)]
    hidden = [F.render(F.scene_for("glare", 3))] * 6
    return first + shown + hidden


class Reported:
    """Events as they are reported (any thread), and a wait for one."""

    def __init__(self):
        self.events = []
        self.frames = (0, 0, 0)
        self.changed = threading.Condition()

    def __call__(self, event):
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()

    def counted(self, frames):
        with self.changed:
            self.frames = frames
            self.changed.notify_all()

    def payloads(self):
        return [event.payload for event in self.events if isinstance(event, CodeAnnounced)]

    def wait(self, done, failed=lambda: False):
        """Until `done()` (AssertionError at `failed()` or after PATIENCE, a guard against a hang)."""
        deadline = time.monotonic() + PATIENCE
        with self.changed:
            while not done():
                left = deadline - time.monotonic()
                assert left > 0 and not failed(), f"reported: {self.events}, frames {self.frames}"
                self.changed.wait(min(left, 1.0))


def expected(kind):
    return [FIRST, SHOWN, HIDDEN] if KINDS[kind][1] else [FIRST, HIDDEN]


@pytest.mark.parametrize("kind", KINDS)
def test_a_frame_of_any_kind_through_the_live_path_is_converted_or_skipped_and_counted(kind, tmp_path):
    """The live loop with the thread fallback, on a webcam whose every frame it takes (each handed out once the loop
    has taken the one before, or once the webcam's reader skipped it): the cards before, in and after the frames of
    `kind` are announced, the hidden one by the fallback's labels (a fallback thread ended by a bad frame reads it
    never), and the webcam counts what it converted or skipped."""
    recorded = record(tmp_path / "frames.npz", frames_around(kind, 4))
    turn, cameras, last = threading.Event(), [], {}

    def before_each():  # lockstep: the next frame once the loop has taken the last one the reader handed on
        skipped = cameras[0].frames.skipped if cameras and hasattr(cameras[0], "frames") else 0
        if last and skipped == last["skipped"]:
            turn.wait(30)  # (a guard: the loop takes each frame long before)
        turn.clear()
        last["skipped"] = skipped

    def open_camera():
        capture = RecordedCapture(recorded, period=0.0, hold=6, before_each=before_each)
        cameras.append(Webcam(0, lambda index: capture, exposure_settable=False))
        return cameras[-1]

    ticks = itertools.count()

    def clock():  # a thirtieth of a second a frame, the next frame given once this one is taken
        turn.set()
        return next(ticks) / 30

    reported, failures = Reported(), []
    known = KnownLabels(lambda: [load_deck("uu-2nd")])
    scanner = LiveScanner(open_camera, reported, background=job_stage(known), clock=clock)

    def run():
        try:
            scanner.run()
        except Exception as exc:  # before: the live path's end
            failures.append(exc)
            reported(SourceLost(repr(exc)))

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    try:
        reported.wait(lambda: HIDDEN in reported.payloads(), lambda: bool(failures))
    finally:
        scanner.stop()
        runner.join(30)
    assert failures == [] and not any(isinstance(event, SourceLost) for event in reported.events)
    assert reported.payloads() == expected(kind)
    check = cameras[0].frames
    if kind == "odd-sized":
        assert (check.converted, check.skipped) == (0, 0)  # taken as it is
    else:
        assert (check.converted, check.skipped) == ((4, 0) if KINDS[kind][1] else (0, 4))


@pytest.mark.parametrize("kind", KINDS)
def test_a_frame_of_any_kind_in_the_apps_scanner_process_ends_neither_the_child_nor_scanning(kind, tmp_path):
    """The scanner in a child process of its own with its worker process, as the app runs it, on a camera giving a
    second of frames of `kind` between two cards (a third of one, of frames it cannot take: the camera counts as
    lost after 2 s with none it takes, and on a machine loaded past its cores a second of them was read in more): no
    restart, no end of scanning, the card after them read (and the one in them, where they can be converted); the
    child counts what its camera converted or skipped."""
    recorded = record(tmp_path / "frames.npz", frames_around(kind, 30 if KINDS[kind][1] else 10))
    reported = Reported()
    process = LiveProcess(
        recorded_opener(recorded, hold=6), reported, lambda: [load_deck("uu-2nd")], None, reported.counted
    )
    assert process.start()
    pid = process.pid
    relay = threading.Thread(target=process.run, daemon=True)
    relay.start()
    try:
        lost = lambda: any(isinstance(event, SourceLost) for event in reported.events)  # noqa: E731
        reported.wait(lambda: HIDDEN in reported.payloads(), lost)
        if kind != "odd-sized":
            reported.wait(lambda: reported.frames[1 if KINDS[kind][1] else 2] > 0, lost)
    finally:
        process.stop()
        relay.join(10)
    assert process.restarts == 0 and not lost() and pid is not None
    assert HIDDEN in reported.payloads() and (SHOWN in reported.payloads()) == KINDS[kind][1]


def test_the_check_converts_each_kind_to_8_bit_and_skips_what_cannot_be_a_picture():
    frame = F.render(F.Scene(payload=SHOWN))
    check = FrameCheck()
    for kind, (make, usable) in KINDS.items():
        made = check.usable(make(frame))
        assert (made is not None) == usable, kind
        if made is not None:
            assert made.dtype == np.uint8 and made.ndim in (2, 3) and made.flags.c_contiguous, kind
            assert made.ndim == 2 or made.shape[2] == 3, kind
    assert check.usable(frame) is frame  # the usual frame as it is, uncounted
    assert check.usable(np.full((40, 40), np.nan)) is not None and check.usable("no picture") is None
    assert check.usable(np.zeros((40, 40, 5), np.uint8)) is None and check.usable(np.zeros((2, 40, 40, 3))) is None
    assert (check.converted, check.skipped) == (6 + 1, 3 + 3)
    grey = check.usable(np.array([[0.0, 0.5, 1.0]] * MIN_SIDE * 11, np.float32).reshape(MIN_SIDE, -1))
    assert grey is not None and grey.max() == 255
    deep = check.usable(np.full((MIN_SIDE, MIN_SIDE), 65535, np.uint16))
    assert deep is not None and deep.min() == 255


def test_a_camera_giving_only_frames_it_cannot_take_is_lost_once_and_back_once_its_frames_are_good(tmp_path):
    """Seconds of empty frames between two cards: the webcam hands on none, so after its `timeout` the outage is
    said once (`sources.FramesUnusable`: the camera kept open), and once it gives a good frame again scanning is back
    (said once) and the next card is read. Before, the first empty frame ended the live loop."""
    good_then_empty = [F.render(F.Scene(payload=FIRST, seed=i)) for i in range(4)]
    good_then_empty += [np.zeros((0, 0, 3), np.uint8)] * 400
    recorded = record(
        tmp_path / "frames.npz", good_then_empty + [F.render(F.Scene(payload=SHOWN, seed=i)) for i in range(4)]
    )
    capture = RecordedCapture(recorded, period=0.01, hold=4)

    def open_camera():  # the same camera opened again: it goes on where it was
        capture.released = False
        return Webcam(0, lambda index: capture, timeout=1.0, exposure_settable=False)

    reported, ticks = Reported(), itertools.count()
    scanner = LiveScanner(open_camera, reported, retry_seconds=0.01, clock=lambda: next(ticks) / 30)
    runner = threading.Thread(target=scanner.run, daemon=True)
    runner.start()
    try:
        reported.wait(lambda: SHOWN in reported.payloads(), lambda: not runner.is_alive())
    finally:
        scanner.stop()
        runner.join(30)
    told = [type(event).__name__ for event in reported.events if type(event).__name__ in ("SourceLost", "SourceBack")]
    assert told == ["SourceLost", "SourceBack"]
    assert reported.payloads() == [FIRST, SHOWN]


# A card read and left lying: at rest (`rest`)


def _lying(stage_kind):
    if stage_kind == "worker":
        from assistant.scanner.stage_process import ProcessStage

        return ProcessStage()
    if stage_kind == "thread":
        from assistant.scanner.stage_process import ProcessStage

        return ProcessStage(thread=True)
    return job_stage(None) if stage_kind == "inline" else None


@pytest.mark.parametrize("stage_kind", [None, "inline", "thread", "worker"])
def test_a_card_read_and_left_lying_is_said_once_and_watched_for_a_fraction_of_a_decode(stage_kind, monkeypatch):
    """A card lying still for 20 s of frames after its read: announced once (before, again every 10 s), and its
    frames watched at rest (zxing-cpp's first pass on one frame in `rest.LYING_STILL.first_pass_every`, before on
    every frame and more); a second card brought in beside it is read on one of its first three frames (the glance
    runs on one frame in three while a card lies still after its read, on one in two until 29 November) and
    announced on its next. The same rule with no stage, the thread fallback and the worker process."""
    from assistant.scanner import rest

    monkeypatch.delenv(rest.REPEAT_SETTING, raising=False)
    lying = [F.render(F.Scene(payload=FIRST, centre=(0.3, 0.5), seed=i)) for i in range(4)]
    both = [F.render(F.Scene(payload=SHOWN, centre=(0.7, 0.5), seed=i)) for i in range(4)]
    both = [np.where(np.arange(frame.shape[1])[None, :, None] < frame.shape[1] // 2, lying[0], frame) for frame in both]
    reported, stage = Reported(), _lying(stage_kind)
    scanner = LiveScanner(lambda: None, reported, background=stage)
    decodes, decode = [], scanner.cascade.decode
    scanner.cascade.decode = lambda *args, **kwargs: decodes.append(len(reported.events)) or decode(*args, **kwargs)
    try:
        index = 0
        while FIRST not in reported.payloads() and index < 300:  # (a guard: read within a few frames)
            scanner.handle(lying[index % 4], index, index / 30)
            index += 1
        settled_at, decodes[:] = index, []
        for index in range(settled_at, settled_at + 600):  # 20 s of the card lying still
            scanner.handle(lying[index % 4], index, index / 30)
        assert reported.payloads() == [FIRST]  # said once
        assert len(decodes) <= 600 / rest.LYING_STILL.first_pass_every + 10  # the watch: a first pass on 1 in 18
        brought = index + 1
        for index in range(brought, brought + 4):
            scanner.handle(both[index - brought], index, index / 30)
        assert reported.payloads() == [FIRST, SHOWN]  # the card brought in: said on its fourth frame at the latest
    finally:
        if stage is not None:
            stage.stop()


@pytest.mark.parametrize("stage_kind", [None, "inline", "thread"])
def test_a_frame_of_a_card_lying_still_that_gets_no_first_pass_begins_nothing(stage_kind, monkeypatch):
    """A card read and left lying: the frames at rest that get no first pass (those left without the motion check,
    two in three while it lies still after its read, `rest.motion_unchecked`, and those whose glance did not move)
    are counted and left, no budget begun, no look at the background stage; only the frames the first pass is due on
    begin (one in `rest.LYING_STILL.first_pass_every`).
    Before, each frame glanced at went through the frame's budget, the priority rule and three looks at the stage
    (and until 29 November each frame left unchecked too), most of what it cost beside its glance with the caches
    cold at 30 frames a second. Counted frames and calls, no time."""
    from assistant.scanner import rest

    monkeypatch.delenv(rest.REPEAT_SETTING, raising=False)
    lying = [F.render(F.Scene(payload=FIRST, centre=(0.3, 0.5), seed=i)) for i in range(4)]
    reported, stage = Reported(), _lying(stage_kind)
    scanner = LiveScanner(lambda: None, reported, background=stage)
    try:
        for index in range(60):  # read, and at rest
            scanner.handle(lying[index % 4], index, index / 30)
        assert reported.payloads() == [FIRST] and scanner._at_rest()
        begun, start = [], scanner.budget.start
        scanner.budget.start = lambda *args, **kwargs: begun.append(scanner._still) or start(*args, **kwargs)
        unchecked, due = [], []
        for index in range(60, 180):
            unchecked.append(rest.motion_unchecked(scanner._still + 1, lying[0].shape, lying_still=True))
            due.append(rest.resting_frame(scanner._still + 1, lying[0].shape, lying_still=True) == "first pass")
            scanner.handle(lying[index % 4], index, index / 30)
        glance, every = rest.LYING_STILL  # (720p's cadence: the frames here are smaller)
        assert sum(unchecked) >= 120 * (1 - 1 / glance) - 2 and 120 // every <= sum(due) <= 120 // every + 1
        assert len(begun) == sum(due)
        assert reported.payloads() == [FIRST] and scanner._at_rest()
    finally:
        if stage is not None:
            stage.stop()


@pytest.mark.parametrize("stage_kind", [None, "inline", "thread"])
def test_a_card_lying_still_is_checked_in_full_once_after_its_read_and_its_frames_left_alone_ask_the_rule_once_a_run(
    stage_kind, monkeypatch
):
    """A card read and lying still: its rest's first frame, checked in full (its coarse copy made), gives the rest's
    first glance, so the next frame checked is a glance against it; before, that glance had none to compare with and
    its frame was checked in full too (two coarse copies after the read, not one). And the frames left alone between
    two glances ask the rest's rule once a run (`rest.next_checked`), not each (`rest.lying_still` asked on every
    frame before). Counted copies and calls over four seconds of frames, no time; the card is said once."""
    from assistant.scanner import rest

    monkeypatch.delenv(rest.REPEAT_SETTING, raising=False)
    lying = [F.render(F.Scene(payload=FIRST, centre=(0.3, 0.5), seed=i)) for i in range(4)]
    reported, stage = Reported(), _lying(stage_kind)
    scanner = LiveScanner(lambda: None, reported, background=stage)
    asked = []
    lying_still = rest.lying_still
    monkeypatch.setattr(rest, "lying_still", lambda *args: asked.append(1) or lying_still(*args))
    try:
        index = 0
        while FIRST not in reported.payloads() and index < 300:  # (a guard: read within a few frames)
            scanner.handle(lying[index % 4], index, index / 30)
            index += 1
        copies, asked[:], read_at = 0, [], index
        for index in range(read_at, read_at + 120):
            tiny = scanner._tiny
            scanner.handle(lying[index % 4], index, index / 30)
            copies += scanner._tiny is not tiny
        assert copies == 1  # the rest's first frame's
        assert len(asked) <= 30  # of 120 frames (14 here; 127 on the code before: every frame, first passes twice)
        assert reported.payloads() == [FIRST] and scanner._at_rest()
    finally:
        if stage is not None:
            stage.stop()


@pytest.mark.parametrize("stage_kind", [None, "inline"])
def test_a_card_lying_still_after_its_read_is_glanced_at_one_frame_in_three_and_its_leaving_seen_within_three(
    stage_kind, monkeypatch
):
    """A card read, announced and lying still since (`rest.LYING_STILL`): glanced at on one frame in 3 (before, one
    in 2, as an empty table still is), and taken away, whichever frame of the three it leaves on, the picture is new
    (woken to the whole frame path) within 3 frames. Counted in frames, the rendered frames' own clock."""
    from assistant.scanner import rest

    monkeypatch.delenv(rest.REPEAT_SETTING, raising=False)
    glanced: list[int] = []
    frame_of = [0]
    glance = rest.glance
    monkeypatch.setattr(rest, "glance", lambda image: glanced.append(frame_of[0]) or glance(image))
    lying = [F.render(F.Scene(payload=FIRST, centre=(0.3, 0.5), seed=i)) for i in range(4)]
    table = [F.render(F.Scene(payload=FIRST, centre=(5.0, 5.0), seed=i)) for i in range(4)]  # the card out of view
    seen_after = []
    for leaves in (72, 73, 74):
        reported, stage = Reported(), _lying(stage_kind)
        scanner = LiveScanner(lambda: None, reported, background=stage)
        try:
            for index in range(36):  # read, announced, and at rest
                frame_of[0] = index
                scanner.handle(lying[index % 4], index, index / 30)
            assert reported.payloads() == [FIRST] and scanner._at_rest()
            glanced.clear()
            for index in range(36, leaves):
                frame_of[0] = index
                scanner.handle(lying[index % 4], index, index / 30)
            assert len(glanced) >= 10 and {b - a for a, b in itertools.pairwise(glanced)} == {3}
            picture = scanner._picture
            for index in range(leaves, leaves + 6):
                frame_of[0] = index
                scanner.handle(table[index % 4], index, index / 30)
                if scanner._picture != picture:
                    seen_after.append(index - leaves + 1)
                    break
        finally:
            if stage is not None:
                stage.stop()
    assert len(seen_after) == 3 and max(seen_after) <= 3


def test_a_card_lying_still_is_said_again_when_the_player_asks_for_repeats(monkeypatch):
    """`TABLE_ASSISTANT_SCAN_REPEAT` (`rest.REPEAT_SETTING`): seconds after which a card lying still is said again,
    read by the watch's first pass."""
    from assistant.scanner import rest

    monkeypatch.setenv(rest.REPEAT_SETTING, "10")
    lying = [F.render(F.Scene(payload=FIRST, seed=i)) for i in range(4)]
    reported = Reported()
    scanner = LiveScanner(lambda: None, reported)
    for index in range(30 * 21):  # 21 s of frames
        scanner.handle(lying[index % 4], index, index / 30)
    announced = [event.frame for event in reported.events if isinstance(event, CodeAnnounced)]
    assert len(announced) == 3 and 300 <= announced[1] - announced[0] <= 300 + rest.LYING_STILL.first_pass_every
    assert rest.repeat_seconds(environ={rest.REPEAT_SETTING: "no"}) == rest.repeat_seconds(environ={}) == float("inf")
    assert rest.repeat_seconds(10, {rest.REPEAT_SETTING: ""}) == 10  # unset or empty: the settings' scan_repeat


@pytest.mark.parametrize("runs", [1, 3], ids=["one-run", "three-runs"])
def test_a_run_of_empty_frames_under_a_card_lying_there_is_one_outage_said_once_and_the_card_not_said_again(
    tmp_path, runs
):
    """A card lying in view, then 100 empty frames in a row (a USB transfer cut short again and again), then the same
    card: the camera went on giving frames, so it is kept open, not closed and opened again; the outage is said once,
    in words of its own (`CAMERA_FRAMES_UNUSABLE`), its end once, and the card, which never left, is not said again.
    Three such runs, a second of the card between them, are said once too: a camera that falters again and again is
    not told each time.
    Before, the camera was taken for lost after its `timeout` ("The camera stopped working"), closed and opened again,
    and the card announced anew once it was back (the tracker forgot every code at a loss). The webcam is the one
    thing stood in for; the waits are on the scanner's events and the camera's counts."""
    from assistant.core.words.scans import CAMERA_FRAMES_UNUSABLE

    lying = [F.render(F.Scene(payload=FIRST, seed=i)) for i in range(4)]
    empty = [np.zeros((0, 0, 3), np.uint8)] * 100
    recorded = record(tmp_path / "frames.npz", lying * 2 + (empty + lying * 8) * (runs - 1) + empty + lying)
    capture, opened = RecordedCapture(recorded, period=0.01, hold=4), []

    def open_camera():  # the same camera opened again: it goes on where it was
        capture.released = False
        opened.append(Webcam(0, lambda index: capture, timeout=0.3, exposure_settable=False))
        return opened[-1]

    reported, ticks = Reported(), itertools.count()
    scanner = LiveScanner(open_camera, reported, retry_seconds=0.01, clock=lambda: next(ticks) / 30)
    runner = threading.Thread(target=scanner.run, daemon=True)
    runner.start()
    try:  # until the card after the empty frames has been handled for a second
        reported.wait(lambda: capture.position >= len(capture.frames) and scanner.handled >= 8 + 30)
    finally:
        scanner.stop()
        runner.join(30)
    told = [e for e in reported.events if type(e).__name__ in ("SourceLost", "SourceBack")]
    assert [type(e).__name__ for e in told] == ["SourceLost", "SourceBack"]
    assert told[0].sentence == CAMERA_FRAMES_UNUSABLE
    assert reported.payloads() == [FIRST] and len(opened) == 1
    assert opened[0].frames.skipped >= 100 * runs


@pytest.mark.parametrize(
    "kind, make, scale",
    [
        ("float32 0..1", lambda f: f.astype(np.float32) / 255, 1 / 255),
        ("float64 0..255", lambda f: f.astype(np.float64), 1.0),
        ("uint16", lambda f: f.astype(np.uint16) * 257, 257.0),
    ],
)
def test_a_converted_frame_is_the_picture_the_camera_meant_within_a_grey_level(kind, make, scale):
    """The conversion in one pass (OpenCV's scaling, the float range judged on a sample: `camera_frames`) gives the
    8-bit picture the camera's frame stands for, within a grey level of rounding: a rendered card's frame made float
    or 16-bit and back. Its cost, against raw zxing-cpp's, is `benchmarks.scanner_frames`'s matter. Not-a-number and
    infinities come out 0."""
    frame = F.render(F.Scene(payload=SHOWN))
    made = FrameCheck().usable(make(frame))
    assert made is not None and made.dtype == np.uint8 and made.shape == frame.shape
    assert int(np.abs(made.astype(np.int16) - frame.astype(np.int16)).max()) <= 1, kind
    odd = make(frame).astype(np.float64 if scale != 257.0 else np.uint16)
    if scale != 257.0:
        odd[:4, :4] = np.nan
        odd[4:8, :4] = np.inf
        assert not FrameCheck().usable(odd)[:8, :4].any()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_glance_reads_every_second_block_row_and_still_sees_a_card_come_and_go(size):
    """The glance at rest (`rest.glance`) reads one row of samples in every second block row (`rest.GLANCE_ROWS`, 18;
    36 before, one a block: its cost is the rows it reads of a frame the caches no longer hold). A still picture's
    noise does not move it, a card brought in or taken away does (`measure.moved`, a share of its blocks)."""
    import cv2

    from assistant.scanner import rest
    from assistant.scanner.measure import MOTION_SIZE, moved

    def frame(seed, centre=(0.5, 0.5)):
        return cv2.resize(F.render(F.Scene(payload=FIRST, centre=centre, seed=seed)), size)

    card = [rest.glance(frame(seed)) for seed in range(3)]
    table = [rest.glance(frame(seed, centre=(5.0, 5.0))) for seed in range(3)]
    assert card[0].shape == (rest.GLANCE_ROWS, MOTION_SIZE[0]) and rest.GLANCE_ROWS == MOTION_SIZE[1] // 2
    assert not any(moved(a, b) for a, b in itertools.combinations(card, 2))
    assert not any(moved(a, b) for a, b in itertools.combinations(table, 2))
    assert all(moved(a, b) for a, b in zip(card, table, strict=True))
