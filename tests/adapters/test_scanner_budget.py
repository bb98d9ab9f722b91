"""The live loop's hard budget per frame, and the background stage that takes what does not fit.

Time here is a test clock that only the decoding steps move (each zxing-cpp call costs a fixed number of
milliseconds, each image transform another), so what is asserted is the deadline logic and the work done or
skipped, never the speed of the machine running the tests. The frames and decoders are real.
"""

import copy
import time

import cv2
import numpy as np
import pytest

from assistant.core.scanning.sightings import Sighting, SightingTracker
from assistant.scanner.background import BackgroundStage
from assistant.scanner.decoders import FRAME_BUDGET_MS, REGION_STAGES, Cascade
from assistant.scanner.live import CodeAnnounced, LiveScanner
from benchmarks import frames as F

ZXING_MS, TRANSFORM_MS, AIMING_MS = 4.0, 1.5, 6.0


class TestClock:
    """Seconds that move only when a step does work."""

    __test__ = False

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def spend(self, ms: float) -> None:
        self.now += ms / 1000


COST_MS = {"zxing": ZXING_MS, "pyzbar": ZXING_MS, "transform": TRANSFORM_MS, "aiming": AIMING_MS, "card": 1.0}


def slow_cascade(clock: TestClock, **options) -> Cascade:
    """A real cascade whose every decode and image transform costs test-clock time."""
    return Cascade(clock=clock, on_step=lambda kind, stage: clock.spend(COST_MS[kind]), **options)


@pytest.fixture(scope="module")
def unreadable_frame():
    """A frame that makes every stage work: a code-like region (a card with its code) no stage can read, from
    heavy motion blur and glare over a small code."""
    scene = F.Scene(distance_mm=700, motion=(14.0, 30.0), glare=320.0, noise=12.0, seed=3)
    return F.render(scene)


def test_unbudgeted_cascade_runs_every_stage_on_the_slow_frame(unreadable_frame):
    clock = TestClock()
    cascade = slow_cascade(clock, budget_ms=None)
    assert cascade.decode(unreadable_frame) == []
    ran = [stage for stage, how in cascade.trace if how == "ran"]
    assert "zxing" in ran and all(stage in ran for stage in ("sharpen", "stretch", "sharpen-more", "pyzbar"))
    assert not cascade.skipped
    assert clock.now * 1000 > FRAME_BUDGET_MS  # this frame, unbudgeted, would overrun a frame's time


def test_the_budget_holds_on_the_slow_frame_and_the_rest_goes_to_the_background(unreadable_frame):
    clock = TestClock()
    cascade = slow_cascade(clock)
    background = BackgroundStage()
    scanner = LiveScanner(lambda: None, lambda event: None, cascade=cascade, background=background, clock=clock)
    spent = []
    # A hand moving the card (a still picture showing no sign of a code would only be looked at by the stage).
    moving = [unreadable_frame, np.roll(unreadable_frame, 40, axis=1)]
    # The first frames teach the cascade what each step costs. The first two are pictures of their own (a picture
    # that moved in one frame alone is a new still one, only looked at); from the third the picture moves on.
    for index in range(8):
        before = clock.now
        scanner.handle(moving[index % 2], index)
        spent.append((clock.now - before) * 1000)
        assert cascade.skipped  # not everything fitted: something was left undone
        skipped = [stage for stage, how in cascade.trace if how in ("skipped", "cut")]
        assert skipped and set(skipped) <= set(REGION_STAGES) | {"opencv"}
    # Once the costs are known, no frame runs past its budget; the first may overrun by at most one step.
    assert max(spent[1:]) <= FRAME_BUDGET_MS
    assert spent[0] <= FRAME_BUDGET_MS + ZXING_MS + TRANSFORM_MS
    assert background.jobs >= 1  # the frame the loop could not finish was handed over


def test_a_stage_whose_image_work_overran_is_cut_before_its_decode(unreadable_frame):
    clock = TestClock()
    calls = []

    def very_slow(kind, stage):
        clock.spend(COST_MS[kind])
        if kind == "transform":
            calls.append(stage)
            clock.spend(30.0 if stage == "stretch" else 0.0)  # the second stage's image work takes the whole frame

    cascade = Cascade(clock=clock, on_step=very_slow)
    cascade.decode(unreadable_frame)
    assert ("stretch", "cut") in cascade.trace
    after = cascade.trace[cascade.trace.index(("stretch", "cut")) + 1 :]
    assert all(how != "ran" for _, how in after)  # nothing ran after the deadline passed
    assert calls[-1] == "stretch"


def test_aiming_is_skipped_when_no_time_is_left(unreadable_frame):
    clock = TestClock()
    cascade = slow_cascade(clock, budget_ms=ZXING_MS + 0.5)  # time for the first pass only
    scanner = LiveScanner(lambda: None, lambda event: None, cascade=cascade, clock=clock)
    scanner.handle(unreadable_frame)
    scanner.handle(unreadable_frame)
    assert scanner.cue_skipped and scanner.frame_ms <= ZXING_MS + 0.5 + ZXING_MS


def test_background_reads_what_the_loop_skipped_and_its_read_counts_for_two_frames():
    scene = F.scene_for("glare", 1)
    frame = F.render(scene)
    clock = TestClock()
    starved = slow_cascade(clock, budget_ms=ZXING_MS + 0.5)  # the loop itself may only try the first pass
    assert Cascade(budget_ms=None).decode(frame), "the frame must be readable given time"
    if starved.decode(frame):
        pytest.skip("the first pass reads this frame already")
    background = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))  # its work takes no time
    events = []
    scanner = LiveScanner(
        lambda: None, events.append, cascade=starved, background=background, clock=clock, guidance=False
    )
    for index in range(6):
        scanner.handle(frame, index)
    announced = [e for e in events if isinstance(e, CodeAnnounced)]
    assert [e.payload for e in announced] == [scene.payload]


def test_inline_background_delivers_as_late_as_its_work_took():
    stage = BackgroundStage(frame_ms=10.0)
    clock = TestClock()
    stage.cascade.clock = clock
    work = stage.work

    def slow_work(job):
        clock.spend(35.0)
        return work(job)

    stage.work = slow_work  # type: ignore[method-assign]
    frame = F.render(F.scene_for("clean", 0))
    gray = np.ascontiguousarray(frame[..., 1])
    stage.remember(0, gray)
    stage.offer(0, gray, [])
    assert stage.busy()
    assert stage.take(3) == []  # 35 ms of work at 10 ms a frame: ready at frame 4
    stage.offer(1, gray, [])  # refused while busy, as a thread still working would be
    reads = stage.take(4)
    assert reads and reads[0].frame == 0 and stage.jobs == 1


def test_a_sighting_standing_for_two_frames_is_announced_at_once():
    tracker = SightingTracker(confirm_frames=2)
    assert [s.payload for s in tracker.update([Sighting("A", frames=2)], 0.0)] == ["A"]
    assert tracker.update([Sighting("B")], 0.1) == []


def test_background_thread_reads_a_frame_offered_to_it_and_stops():
    from assistant.scanner.stage_process import ProcessStage

    scene = F.scene_for("glare", 1)
    frame = F.render(scene)
    gray = np.ascontiguousarray(frame[..., 1])
    stage = ProcessStage(thread=True)
    stage.start()
    try:
        stage.remember(0, gray)
        stage.offer(0, gray, [])
        reads = []
        for _ in range(500):  # up to 10 s on a slow machine; the work itself takes well under a second
            reads += stage.take(0)
            if reads or not stage.busy():
                reads += stage.take(0)
                break
            time.sleep(0.02)  # (the child process's answer, polled)
        assert [r.decoded.payload for r in reads] == [scene.payload] and stage.jobs == 1
    finally:
        stage.stop()
    assert not stage.running


@pytest.mark.parametrize("before", ["none", "moved", "still"])
def test_background_deblurs_a_motion_blurred_code_no_other_stage_reads_unless_the_card_was_still(before):
    """A code smeared by the card's motion: the deblurring reads it, alone or with a frame before it in which the card
    stood elsewhere. Where the frames before show the region unchanged (a card held still, or a checked cloth the
    look took for a card), there is no motion to undo: the average is tried instead, and the deblurring (60 kernels,
    a third of a cluttered table's job) is not."""
    from assistant.scanner.background import Job
    from assistant.scanner.measure import find_code_regions

    scene = F.scene_for("motion", 2)  # a tuning-set frame smeared about 10 pixels
    gray = Cascade().grey(F.render(scene))
    assert Cascade(budget_ms=None).decode(gray) == []
    history = {"none": [], "moved": [(0, np.roll(gray, 12, axis=1)), (1, gray)], "still": [(0, gray.copy()), (1, gray)]}
    stage = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))  # never gives up for time
    reads = stage.work(Job(1, gray, find_code_regions(gray, limit=2), history[before]))
    expected = [] if before == "still" else [(scene.payload, "deblur")]
    assert [(r.decoded.payload, r.decoded.stage) for r in reads] == expected


def test_a_jobs_deblurring_ends_where_the_card_did_not_move_from_the_frame_before():
    """A new still picture's first job: the frames before its own are another picture's (a table seen anew after
    the camera moved, here the card 12 pixels aside), but from the frame before to the job's the card did not move,
    and a card that did not move shows no motion blur. The deblurring is not tried, and the job asks the ring for
    no newer frame between its kernels. Before, every frame in the history had to match, so such a job ran all 60
    kernels (a third of a cluttered table's job), asking for a newer frame before each; a blur painted on two
    identical frames was read by them."""
    from assistant.scanner.background import Job
    from assistant.scanner.measure import find_code_regions

    gray = Cascade().grey(F.render(F.scene_for("motion", 2)))
    history = [(0, np.roll(gray, 12, axis=1)), (1, gray.copy()), (2, gray)]
    asked = []
    stage = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
    reads = stage.work(
        Job(2, gray, find_code_regions(gray, limit=2), history), newest=lambda job, region: asked.append(job.index)
    )
    assert reads == [] and len(asked) == 5  # the whole frame's looks (2), the hidden code, the average, a kernel


def test_a_job_works_once_on_a_region_widening_cannot_change():
    """A pattern of modules over the whole picture (a cluttered table's checks) is one code-like region, the whole
    frame: widening cannot change it, and the job's cascade works on it once, zxing-cpp's first pass on the whole
    frame once. Before, the widened regions' second go ran every retry on the same whole frame again, the first
    pass too."""
    from assistant.scanner.background import Job
    from assistant.scanner.measure import find_code_regions

    modules = (np.random.default_rng(1).integers(0, 2, (45, 80)) * 200 + 30).astype(np.uint8)
    gray = cv2.resize(modules, (1280, 720), interpolation=cv2.INTER_NEAREST)
    regions = find_code_regions(gray)
    assert regions == [(0, 0, 1280, 720)]
    steps = []
    cascade = Cascade(budget_ms=None, clock=TestClock())
    cascade.on_step = lambda kind, stage: steps.append((kind, stage))
    assert BackgroundStage(cascade).work(Job(1, gray, regions, [])) == []
    assert steps.count(("zxing", "zxing")) == 1 and steps.count(("zxing", "sharpen")) == 1
    assert steps.count(("zxing", "inverted")) == 1  # the whole frame's inverted look, a step of its own


@pytest.mark.parametrize("photo", ["qr-inv-1", "qr-inv-2"])
def test_the_worker_reads_a_code_printed_light_on_dark_where_the_live_path_tries_no_inversion(photo):
    """A code printed light on dark (photos seen while tuning; not the project's stickers, but anyone's code held
    up, or a phone in a dark theme): the live path's first pass makes no inverted try (`decoders.TRY_INVERT`: 28 %
    of the first pass's CPU), so the retries try the region inverted (`invert`, one of `REGION_STAGES`), the
    worker's job among them, its read checked on the frame before as the cascade's are. Before, raw zxing-cpp read
    these photos and the live path did not; then the job's whole frame inverted, one of its last steps, read them."""
    from pathlib import Path

    from assistant.scanner.background import Job
    from assistant.scanner.measure import find_code_regions

    folder = Path(__file__).parents[1] / "fixtures" / "qr_photos" / "qrcode-2"
    gray = cv2.imread(str(folder / f"{photo}.webp"), cv2.IMREAD_GRAYSCALE)
    expected = (folder / f"{photo}.txt").read_text(encoding="utf-8")
    live = Cascade(budget_ms=None)
    live.invert = False  # as the live path runs it
    assert live.decode(gray, retries=False) == []
    assert [d.stage for d in live.decode(gray)] == ["invert"]
    stage = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
    reads = stage.work(Job(2, gray, find_code_regions(gray), [(1, gray.copy()), (2, gray)]))
    assert [(r.decoded.payload, r.decoded.stage, r.frames) for r in reads] == [(expected, "invert", 2)]


def test_background_widens_a_region_a_reflection_cut_short_and_reads_the_code():
    # An evaluation clip's frame (a card held up under a lamp, the exposure already lowered): the reflection over
    # the top of the code leaves too few edges there, so the region search cuts off the top finder patterns.
    from dataclasses import replace

    import cv2

    from assistant.scanner.background import WIDEN
    from assistant.scanner.measure import find_code_regions, grown
    from benchmarks import camera_model as M

    shot = replace(M.HandPlayer(2007).shot(30), exposure_share=0.2)
    gray = cv2.cvtColor(M.render(shot), cv2.COLOR_BGR2GRAY)
    regions = find_code_regions(gray)
    code_top = M.code_corners_px(shot)[:, 1].min()
    assert regions and regions[0][1] > code_top  # the region starts below the code's top edge
    assert Cascade(budget_ms=None).decode(gray, regions) == []
    stage = BackgroundStage()
    stage.offer(30, gray, regions)
    reads = stage.take(10_000)
    assert [r.decoded.payload for r in reads] == [shot.payload]
    assert grown((10, 20, 100, 50), WIDEN, (100, 200)) == (0, 0, 135, 95)  # 25 px each way, within the frame


@pytest.mark.parametrize(
    ("category", "seed"), [("glare", 10), ("glare", 11), ("other thumbs", 15), ("thumb", 12), ("other thumbs", 12)]
)
def test_background_works_on_the_card_when_a_checked_cloth_takes_every_region(category, seed):
    # Tuning frames on the gingham: the region search finds the cloth's checks, not the card's code, and the frame
    # loop cannot read the code (a reflection, a thumb); the card found on its own is worked on first. The last two
    # have a thumb across the sticker's white margin, which opens its outline: the card is found by its hull.
    from dataclasses import replace

    import cv2

    from assistant.scanner.background import Job
    from assistant.scanner.measure import find_card, find_code_regions, on_card

    scene = replace(F.scene_for(category, seed), busy_table="gingham")
    gray = cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)
    regions = find_code_regions(gray, limit=2)
    card = find_card(gray)
    assert card is not None and not any(on_card(region, card[0]) for region in regions)
    assert Cascade(budget_ms=None).decode(gray, regions) == []
    reads = BackgroundStage(Cascade(budget_ms=None)).work(Job(seed, gray, regions, [(seed, gray)]))
    assert [r.decoded.payload for r in reads] == [scene.payload]


def _one_region_of_the_picture(seed):
    """A frame of the region search's tuning set with a small code on the gingham (`frames.region_scene`): the
    cloth's checks join into one region the size of the picture, too large for the upscales or ZBar, and no retry
    on it reads the code."""
    import cv2

    from assistant.scanner.measure import find_code_regions

    scene = F.region_scene(seed)
    gray = cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)
    regions = find_code_regions(gray, limit=2)
    assert regions == [(0, 0, gray.shape[1], gray.shape[0])]
    assert Cascade(budget_ms=None).decode(gray, regions) == []
    return scene, gray, regions


@pytest.mark.parametrize("seed", [146, 161, 174])
def test_the_card_found_on_its_own_is_retried_first_when_a_checked_cloth_makes_one_region_of_the_picture(seed):
    from assistant.scanner.measure import find_card

    scene, gray, regions = _one_region_of_the_picture(seed)
    cascade = Cascade(budget_ms=None)
    assert [d.payload for d in cascade.decode(gray, regions, card=lambda: find_card(gray))] == [scene.payload]
    initial = Cascade().budget.expected_ms("card", gray.size)
    assert cascade.budget.expected_ms("card", gray.size) != initial  # a step, learnt


def test_the_frame_loop_reads_the_card_on_a_checked_cloth_within_its_budget():
    scene, gray, _ = _one_region_of_the_picture(146)
    clock = TestClock()
    events: list = []
    scanner = LiveScanner(lambda: None, events.append, cascade=slow_cascade(clock), clock=clock, guidance=False)
    moving = [gray, np.roll(gray, 40, axis=1)]
    spent = []
    # The first frames teach the cascade what each step costs. The first two are pictures of their own (a picture
    # that moved in one frame alone is a new still one, only looked at); from the third the picture moves on.
    for index in range(8):
        before = clock.now
        scanner.handle(moving[index % 2], index, index / 30)
        spent.append((clock.now - before) * 1000)
    assert [e.payload for e in events if isinstance(e, CodeAnnounced)] == [scene.payload]
    assert max(spent) <= FRAME_BUDGET_MS + ZXING_MS + TRANSFORM_MS


def test_a_card_lying_in_view_under_late_frames_is_announced_once():
    """A small card only a retry reads lies in view for eight seconds. Halfway, the machine gets loaded: every step
    takes ten times as long, so the frame loop falls behind (the camera's frames reach it 0.4 s apart, the ones in
    between dropped) and each frame's budget runs out after the first pass, which cannot read this card. Those
    frames are no evidence that the card left: it is announced once, by the frames' own time, on a clock no machine
    moves. (Once read, the card lying still is at rest, `rest`: its frames, late or not, get the watch alone, and no
    frame of it at rest counts as looked at.)"""
    scene = F.scene_for("small", 2)
    frame = F.render(scene)
    assert [d.stage for d in Cascade(budget_ms=None).decode(frame)] == ["upscale"]  # the first pass misses it
    clock = TestClock()
    load = [1.0]
    cascade = Cascade(clock=clock, on_step=lambda kind, stage: clock.spend(COST_MS[kind] * load[0]))
    events = []
    scanner = LiveScanner(lambda: None, events.append, cascade=cascade, clock=clock, guidance=False)
    taken = 0.0
    for index in range(40):
        loaded = 5 <= index < 25
        load[0] = 10.0 if loaded else 1.0
        said = scanner.handle(frame, index, taken)
        assert not loaded or cascade.skipped or not said  # a late frame: retries that did not fit, or at rest
        taken += 0.4 if loaded else 1 / 30
    assert taken < scanner.tracker.cooldown  # all within one cooldown: once is right
    assert [e.payload for e in events if isinstance(e, CodeAnnounced)] == [scene.payload]
    # The same frames with the card gone from every late frame: it left, and is announced again when it is back.
    empty = np.full_like(frame, 200)
    events.clear()
    scanner = LiveScanner(lambda: None, events.append, cascade=slow_cascade(TestClock()), clock=clock, guidance=False)
    for index in range(40):
        scanner.handle(empty if 5 <= index < 25 else frame, index, index * 0.1)
    assert [e.payload for e in events if isinstance(e, CodeAnnounced)] == [scene.payload] * 2


def test_the_aiming_measurement_is_budgeted_from_its_own_cost_on_a_slow_frame(unreadable_frame):
    """One budget for the whole frame, the aiming measurement included. On a slow frame the measurement costs
    20 ms of the 25: once its own cost is learnt it runs only on frames that leave that much (the retries give way
    to it when it has been crowded out for half a second), and no frame after the first runs past the budget."""
    clock = TestClock()
    costs = dict(COST_MS, aiming=20.0)
    cascade = Cascade(clock=clock, on_step=lambda kind, stage: clock.spend(costs[kind]))
    scanner = LiveScanner(lambda: None, lambda event: None, cascade=cascade, clock=clock)
    spent, measured = [], []
    moving = [unreadable_frame, np.roll(unreadable_frame, 40, axis=1)]  # a hand moving: never an idle picture
    for index in range(40):
        before = clock.now
        scanner.handle(moving[index % 2], index, index / 30)
        spent.append((clock.now - before) * 1000)
        measured.append(not scanner.cue_skipped)
        assert abs(scanner.frame_ms - spent[-1]) < 1e-6  # the frame's own account holds everything it did
    assert cascade.budget.expected_ms("aiming", unreadable_frame.shape[0] * unreadable_frame.shape[1]) >= 20.0
    runs = [i for i, m in enumerate(measured) if m]
    assert 2 <= len(runs) <= 4  # measured, but only once crowded out for half a second: the retries come first
    assert all(b - a == 16 for a, b in zip(runs, runs[1:], strict=False)) and runs[-1] >= 40 - 17
    # The measurement's first run may overrun by its own cost, still unknown; once learnt, no frame overruns.
    assert max(spent[runs[0] + 1 :]) <= FRAME_BUDGET_MS
    assert max(spent) <= FRAME_BUDGET_MS + ZXING_MS + TRANSFORM_MS


def test_an_empty_table_is_measured_for_aiming_on_every_third_frame_only():
    """Nothing code-like in view, nor in the last view measured: the aiming measurement runs on one frame in
    `AIM_EVERY`; a card coming into view is measured on every frame again."""
    from assistant.scanner.live import AIM_EVERY

    clock = TestClock()
    aimed = []
    cascade = Cascade(budget_ms=None, clock=clock, on_step=lambda kind, stage: aimed.append(kind == "aiming"))
    scanner = LiveScanner(lambda: None, lambda event: None, cascade=cascade, clock=clock)
    empty = np.full((720, 1280, 3), 90, np.uint8)
    card = F.render(F.Scene(distance_mm=700, motion=(14.0, 30.0), glare=320.0, noise=12.0, seed=3))
    counts = []
    for frames in (empty, card):
        for index in range(12):
            aimed.clear()
            scanner.handle(frames, index, index / 30)
            counts.append(sum(aimed))
    assert AIM_EVERY == 3 and counts[:12] == [1, 0, 0] * 4
    assert counts[12:] == [1] * 12


def test_a_still_picture_with_nothing_read_goes_idle_and_wakes_when_something_moves():
    """An empty table, still: after a second only one frame in twelve is decoded (the stage's look found no sign of
    a code in it: `IDLE_EVERY_EMPTY`; one in six before, one in three before that; and, until the thread stage's
    empty table lost its full frames, one in thirty more), and the background stage gets no more than `IDLE_JOBS`
    frames of it; a card brought in moves the picture and is read on the very next frame."""
    from assistant.scanner.live import IDLE_AFTER, IDLE_EVERY_EMPTY, IDLE_JOBS

    clock = TestClock()
    decoded = []
    cascade = Cascade(budget_ms=None, clock=clock, on_step=lambda kind, stage: decoded.append(stage == "zxing"))
    background = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
    events = []
    scanner = LiveScanner(lambda: None, events.append, cascade=cascade, background=background, clock=clock)
    table = F.render(F.Scene(distance_mm=380, centre=(5.0, 5.0), busy_table="gingham"))  # the card far out of view
    counts = []
    for index in range(90):
        decoded.clear()
        scanner.handle(table, index, index / 30)
        counts.append(sum(decoded))
    # Idle before a second has passed: the stage's look found no sign of a code in the cloth (one look, no job).
    assert counts[0] and 0 < sum(counts[:IDLE_AFTER]) < IDLE_AFTER // 2
    decoded_frames = [i for i in range(IDLE_AFTER, 90) if i % IDLE_EVERY_EMPTY == 0]
    assert IDLE_EVERY_EMPTY == 12 and sum(counts[IDLE_AFTER:]) == len(decoded_frames)
    assert background.jobs <= IDLE_JOBS + 1
    card = F.render(F.Scene(distance_mm=380, busy_table="gingham"))
    scanner.handle(card, 90, 3.0)
    scanner.handle(card, 91, 3.0 + 1 / 30)
    assert [e.payload for e in events if isinstance(e, CodeAnnounced)] == [F.Scene().payload]


def test_an_idle_1080p_table_is_decoded_in_proportion_to_its_pixels():
    """An idle table's frames cost the same pixels a second at any resolution: at 1920 by 1080 one frame in 27 gets
    zxing-cpp's first pass where one in 12 does at 1280 by 720 (an empty table: `IDLE_EVERY_EMPTY`), so an empty
    1080p table costs no more than a 720p one."""
    from assistant.scanner.live import IDLE_AFTER

    table = F.render(F.Scene(distance_mm=380, centre=(5.0, 5.0), busy_table="gingham"))  # the card far out of view
    decodes, decoded = {}, []
    for width, height in ((1280, 720), (1920, 1080)):
        clock = TestClock()
        cascade = Cascade(budget_ms=None, clock=clock, on_step=lambda kind, stage: decoded.append(stage == "zxing"))
        background = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
        scanner = LiveScanner(lambda: None, lambda e: None, cascade=cascade, background=background, clock=clock)
        frame = cv2.resize(table, (width, height), interpolation=cv2.INTER_LINEAR)
        for index in range(IDLE_AFTER + 210):
            if index == IDLE_AFTER:
                decoded.clear()
            scanner.handle(frame, index, index / 30)
        decodes[height] = sum(decoded)
    # one in 12 and one in 27, nothing else (no full frame once a second on an empty table)
    assert decodes[720] == len([i for i in range(IDLE_AFTER, IDLE_AFTER + 210) if i % 12 == 0])
    assert decodes[1080] == len([i for i in range(IDLE_AFTER, IDLE_AFTER + 210) if i % 27 == 0])


@pytest.mark.parametrize(("light", "table_kind"), [("lit", "gingham"), ("dim", "gingham"), ("lit", "")])
def test_an_empty_table_gets_the_first_pass_alone_with_the_thread_stage_as_with_the_worker(light, table_kind):
    """Once the stage's look found no sign of a code in a still picture (an empty table), its frames get zxing-cpp's
    first pass alone, on one frame in `IDLE_EVERY_EMPTY`, with the thread stage as with the worker process: no
    full frame once a second (`IDLE_FULL`: the region search, the frame path's retries and the aiming measurement, a
    third of a cluttered table's cost with the thread stage) and, in a dim room, no dark frame's stretch (its
    histogram of the whole frame). Before, frames 30 and 60 ran the region search, the retries and the aiming
    measurement, and every first pass of the dim table its stretch too. A plain table (no code-like region) is
    looked at too: before, the thread stage was offered no frame of it, so it was never found empty, and it got a
    second of full frames, then the first pass on one frame in 3 and a full frame once a second (the thread
    fallback's idle plain tables at 720p over half of raw zxing-cpp's cost). Counted in frames and steps."""
    from assistant.scanner.decoders import DARK_LEVEL
    from assistant.scanner.live import IDLE_EVERY_EMPTY
    from assistant.scanner.measure import find_code_regions

    clock, frame_of, steps = TestClock(), [0], []
    cascade = Cascade(budget_ms=None, clock=clock, on_step=lambda kind, stage: steps.append((frame_of[0], stage)))
    background = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
    scanner = LiveScanner(lambda: None, lambda event: None, cascade=cascade, background=background, clock=clock)
    table = F.render(F.Scene(distance_mm=380, centre=(5.0, 5.0), busy_table=table_kind))  # the card out of view
    assert bool(find_code_regions(cascade.grey(table))) == bool(table_kind)  # a plain table: nothing code-like
    if light == "dim":
        table = (table * 0.3).astype(np.uint8)
        assert int(cascade.grey(table).max()) < DARK_LEVEL
    looked = None
    for index in range(90):
        frame_of[0] = index
        scanner.handle(table, index, index / 30)
        if looked is None and background.no_code is not None:
            looked = index
    assert looked is not None and looked < IDLE_EVERY_EMPTY
    after = [(index, stage) for index, stage in steps if index > looked]
    first_passes = [index for index in range(looked + 1, 90) if index % IDLE_EVERY_EMPTY == 0]
    assert after == [(index, "zxing") for index in first_passes]


@pytest.mark.parametrize("held", ["look", "job"])
def test_with_the_thread_stage_a_new_still_pictures_frames_wait_for_its_look_as_the_workers_do(monkeypatch, held):
    """The thread host, started, its look at a new still picture (a cluttered empty table) held until the test lets
    it end, as a busy machine holds a thread at niceness 10: meanwhile the frames get what the worker's get
    (`rest.waiting_frame`: zxing-cpp's first pass on one frame in `rest.WAIT_EVERY`, nothing on the others), and the
    frame path stands in for the starved stage on `IDLE_JOBS` frames at most (`STAND_IN_AFTER`, the priority rule
    of both stages); once the look finds no sign of a code, the table is at rest. Before, each frame got the first
    pass, and every frame from the `STAND_IN_AFTER`th on the whole path (the region search, the retries): with both
    cores busy the thread fallback's cluttered 720p tables cost 0.62 of raw zxing-cpp decoding every frame, its p99
    2.44 times raw zxing-cpp's. The same while its job on the picture is under way ("job": the look took the
    clutter for a card, the job held): before, every frame of it ran the whole path until `IDLE_AFTER`. Counted in
    frames and steps; the look's end waited for, not timed."""
    import threading

    from assistant.scanner import background as stage_module
    from assistant.scanner import rest
    from assistant.scanner.live import IDLE_AFTER, IDLE_JOBS
    from assistant.scanner.stage_process import ProcessStage

    let_go, shows_code = threading.Event(), stage_module.shows_code
    if held == "look":
        monkeypatch.setattr(stage_module, "shows_code", lambda *args: let_go.wait(30) and shows_code(*args))
    else:
        cascade_of = BackgroundStage._cascade
        monkeypatch.setattr(stage_module, "shows_code", lambda *args: True)  # the clutter taken for a card
        monkeypatch.setattr(
            BackgroundStage, "_cascade", lambda self, *args: let_go.wait(30) and cascade_of(self, *args)
        )
    clock, frame_of, steps = TestClock(), [0], []
    cascade = Cascade(budget_ms=None, clock=clock, on_step=lambda kind, stage: steps.append((frame_of[0], stage)))
    background = ProcessStage(thread=True)
    scanner = LiveScanner(lambda: None, lambda event: None, cascade=cascade, background=background, clock=clock)
    table = F.render(F.Scene(distance_mm=380, centre=(5.0, 5.0), busy_table="gingham"))  # the card out of view
    try:
        for index in range(IDLE_AFTER):
            frame_of[0] = index
            scanner.handle(table, index, index / 30)
        assert background.busy() and background.no_code is None
        assert background.looking(scanner._picture) == (held == "look")
        by_frame: dict[int, list[str]] = {}
        for index, stage in steps:
            if index >= 1:
                by_frame.setdefault(index, []).append(stage)
        whole = sorted(index for index, stages in by_frame.items() if len(stages) > 1)
        first = sorted(index for index, stages in by_frame.items() if stages == ["zxing"])
        assert len(whole) == IDLE_JOBS  # the frame path stood in for the starved look, no more
        assert first and all(rest.waiting_frame(index) == "first pass" for index in first)
        assert len(by_frame) < IDLE_AFTER / 2  # most frames waiting got nothing
        let_go.set()
        if held == "job":
            return
        for _ in range(30_000):  # until the look has come back (a guard, not a timing)
            if background.no_code == scanner._picture:
                break
            time.sleep(0.001)
        assert not background.looking(scanner._picture) and background.no_code == scanner._picture
    finally:
        let_go.set()
        background.stop()


def test_an_empty_still_table_gives_the_stage_no_jobs_while_a_still_unread_card_does():
    """A still picture is worked on by the background stage only where it shows signs of a code: the checked
    cloth's pattern gives code-like regions (which alone used to earn it `IDLE_JOBS` jobs), but the stage's look
    finds no card with a code's black and no finder pattern, so it gets no job and is offered nothing more until
    something moves. A still card the frame loop cannot read in its budget still goes to the stage, which reads it."""
    from assistant.scanner.measure import find_code_regions

    table = F.render(F.Scene(distance_mm=380, centre=(5.0, 5.0), busy_table="gingham"))  # the card far out of view
    assert find_code_regions(Cascade().grey(table)), "the table's pattern must look code-like to the region search"
    scene = F.scene_for("glare", 1)
    card = F.render(scene)

    def watch(frame, frames: int) -> tuple[BackgroundStage, list[str]]:
        clock = TestClock()
        starved = slow_cascade(clock, budget_ms=ZXING_MS + 0.5)  # the loop may only try the first pass
        background = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
        events: list = []
        scanner = LiveScanner(lambda: None, events.append, cascade=starved, background=background, clock=clock)
        for index in range(frames):
            scanner.handle(frame, index, index / 30)
        return background, [e.payload for e in events if isinstance(e, CodeAnnounced)]

    background, announced = watch(table, 90)
    assert background.jobs == 0 and announced == []
    assert 1 <= background.looks <= 2  # looked at once (inline, a look still "running" may be offered one more)
    assert slow_cascade(TestClock(), budget_ms=ZXING_MS + 0.5).decode(card) == []  # not by the first pass
    background, announced = watch(card, 12)
    assert background.jobs >= 1 and background.looks == 0  # worked on: it shows signs of a code
    assert announced == [scene.payload]


def test_the_wall_clock_cap_stops_the_retries_on_a_busy_machine_and_hands_the_rest_to_the_stage():
    """The budget is the frame thread's CPU time; on a busy machine each step's wall time stretches (here three
    times its CPU time: the thread waits for a core). The frame's wall-clock cap (`FRAME_WALL_MS` from its arrival)
    then stops the retries before the CPU budget would, and the frame's unfinished work goes to the background
    stage, which reads the card. On a quiet machine the same frames are read by the frame loop's own retries. A
    frame may overrun its cap by the image work of the step it was in (a stage is cut before its decode)."""
    from assistant.scanner.decoders import FRAME_WALL_MS

    scene = F.scene_for("small", 2)  # a small card only a retry reads (the upscale)
    frame = F.render(scene)

    def watch(stretch: float) -> tuple[Cascade, BackgroundStage, list[float], list[str]]:
        """The frames' cascade as it was after the first frame the wall clock limited (the last frame's otherwise:
        frames waiting for the stage's job get the first pass alone, `rest.WAIT_EVERY`)."""
        cpu, wall = TestClock(), TestClock()

        def step(kind: str, stage: str) -> None:
            cpu.spend(COST_MS[kind])
            wall.spend(COST_MS[kind] * stretch)

        cascade = Cascade(clock=cpu, wall_clock=wall, on_step=step)
        background = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
        events: list = []
        scanner = LiveScanner(
            lambda: None, events.append, cascade=cascade, background=background, clock=wall, guidance=False
        )
        walls, limited = [], None
        for index in range(6):
            before = wall.now
            scanner.handle(frame, index, index / 30)
            walls.append((wall.now - before) * 1000)
            if limited is None and cascade.wall_limited:
                limited = copy.copy(cascade)
        return limited or cascade, background, walls, [e.payload for e in events if isinstance(e, CodeAnnounced)]

    cascade, background, walls, announced = watch(1.0)
    assert announced == [scene.payload] and background.jobs == 0  # the retries read it within the budget
    assert not cascade.wall_limited and max(walls) <= FRAME_BUDGET_MS + ZXING_MS
    cascade, background, walls, announced = watch(3.0)
    assert cascade.wall_limited and cascade.skipped  # stopped by the wall clock, with CPU budget left
    assert any(how in ("skipped", "cut") for _, how in cascade.trace)
    assert max(walls) <= FRAME_WALL_MS + 3.0 * TRANSFORM_MS
    assert background.jobs >= 1 and announced == [scene.payload]  # read by the stage instead


def test_a_busy_machine_delays_the_aiming_cue_but_never_drops_it():
    """With every core busy each step's wall time stretches (here three times its CPU time), and the wall-clock cap
    leaves no frame room for the aiming measurement after its retries. Crowded out for `AIM_STARVED` frames, the
    measurement then runs anyway, and a far card still gets its cue."""
    from assistant.core.scanning.aiming import Cue
    from assistant.scanner.live import AIM_STARVED, CueGiven

    far = F.render(F.Scene(distance_mm=1500, seed=1))
    cpu, wall = TestClock(), TestClock()

    def step(kind: str, stage: str) -> None:
        cpu.spend(COST_MS[kind])
        wall.spend(COST_MS[kind] * 3.0)

    cascade = Cascade(clock=cpu, wall_clock=wall, on_step=step)
    events: list = []
    scanner = LiveScanner(lambda: None, events.append, cascade=cascade, clock=wall)
    moving = [far, np.roll(far, 40, axis=1)]  # a hand holding it: never an idle picture
    measured = []
    for index in range(3 * (AIM_STARVED + 1)):
        scanner.handle(moving[index % 2], index, index / 30)
        measured.append(not scanner.cue_skipped)
    runs = [i for i, m in enumerate(measured) if m]
    assert cascade.wall_limited and len(runs) >= 2  # the cap stops the frames, yet the measurement runs
    assert all(b - a <= AIM_STARVED + 1 for a, b in zip(runs, runs[1:], strict=False))
    assert Cue.CLOSER in [e.cue for e in events if isinstance(e, CueGiven)]


def test_a_step_starts_only_when_its_cost_stretched_by_a_busy_machine_still_fits_the_wall_clock_cap():
    """Steps that lately took three times their CPU time in wall time (the thread waiting for a core) are costed
    three times over against the frame's wall-clock cap: a step whose CPU cost would fit the wall time left, but
    whose stretched cost would not, is left to the background stage rather than started and overrunning the cap."""
    from assistant.scanner.decoders import FRAME_WALL_MS

    cpu, wall = TestClock(), TestClock()
    cascade = Cascade(clock=cpu, wall_clock=wall)
    pixels = 1_000_000
    for _ in range(12):  # zxing-cpp on a frame: 2 ms of CPU, 6 ms of wall time
        started, wall_started = cpu(), wall()
        cpu.spend(2.0)
        wall.spend(6.0)
        cascade.budget.learn("zxing", pixels, started, wall_started)
    assert cascade.budget.stretch == pytest.approx(3.0, abs=0.05)
    expected = cascade.budget.expected_ms("zxing", pixels) * 1.5  # with the cascade's margin
    cascade.budget.start()
    wall.spend(FRAME_WALL_MS - 2 * expected)  # wall time left: twice the cost (unstretched, it would fit), not thrice
    assert not cascade.budget.fits("zxing", pixels)
    wall.now -= (expected * 1.5) / 1000  # half as much again left: three times the cost fits
    assert cascade.budget.fits("zxing", pixels)


def test_each_new_empty_table_costs_the_stage_one_look_and_no_job():
    """A new still picture (an empty table seen anew: the picture jumps in one frame, then stands still) is a still
    picture from its first frame: the stage looks at it once for signs of a code and works on none of it. Only a
    picture that moves on (a card coming in, blurred) is worked on whatever it shows; the jump's frame used to be
    such a frame, a second or two of the stage's work on a table's grain for every new still picture."""
    tables = [
        F.render(F.Scene(distance_mm=380, centre=(5.0, 5.0), busy_table=kind, table=seed))
        for seed in range(3)
        for kind in F.BUSY_TABLES
    ]
    background = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
    clock = TestClock()
    scanner = LiveScanner(lambda: None, lambda e: None, cascade=Cascade(budget_ms=None, clock=clock), clock=clock)
    scanner.background = background
    index = 0
    for table in tables:
        for _ in range(40):
            scanner.handle(table, index, index / 30)
            index += 1
    assert background.jobs == 0
    assert len(tables) <= background.looks <= 2 * len(tables)


def test_a_bright_patch_cut_off_by_the_pictures_edge_is_a_sign_of_a_code_only_with_a_finder_pattern():
    """A checked cloth at the picture's edge (an empty table of the evaluation camera, seed 16028): a bright check
    cut off by the edge is taken for a card, and its hull takes in the dark checks beside it, the "code's black" the
    look fired on (every such table then cost a job and a second of cues, 7 to 9 CPU s a minute at 720p). A card cut
    off by the edge with its code in view (tuning set) shows a finder pattern in it and is still a sign of a code."""
    from dataclasses import replace

    from assistant.core.scanning.aiming import inside
    from assistant.scanner.background import shows_code
    from assistant.scanner.measure import find_card, find_code_regions
    from benchmarks import camera_model as M
    from benchmarks.scanner_hand import card_of

    shot = replace(M.sample_shot(16028, card_of(16028)), offset_mm=(5000.0, 0.0))  # the card far out of the picture
    cloth = Cascade().grey(M.render(shot))
    edge = Cascade().grey(F.render(F.Scene(centre=(0.95, 0.5), distance_mm=380)))
    looks = {}
    for name, gray in (("cloth", cloth), ("card", edge)):
        card = find_card(gray)
        assert card is not None and not inside(card[0], gray.shape[1], gray.shape[0])  # each cut off by the edge
        looks[name] = shows_code(gray, find_code_regions(gray), card)
    assert looks == {"cloth": False, "card": True}


def test_a_still_picture_whose_job_finds_no_finder_pattern_gets_no_more_jobs(monkeypatch):
    """Where the look finds signs of a code on an empty table (a checked cloth's bright patch taken for a card with a
    code's black; forced here), the picture gets one job: it reads nothing and no finder-like pattern shows in its
    regions, so the stage is offered no more of the picture until it moves. Before, each such table cost `IDLE_JOBS`
    jobs or more (8 to 17 CPU s a minute at 720p when one was seen anew every 4 s). Counted in jobs, frame by frame."""
    from assistant.scanner import background as stage_module
    from assistant.scanner.live import IDLE_AFTER

    monkeypatch.setattr(stage_module, "shows_code", lambda *args: True)
    table = F.render(F.Scene(distance_mm=380, centre=(5.0, 5.0), busy_table="gingham"))  # the card far out of view
    background = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
    clock = TestClock()
    scanner = LiveScanner(
        lambda: None, lambda e: None, cascade=Cascade(budget_ms=None, clock=clock), background=background, clock=clock
    )
    for index in range(4 * IDLE_AFTER):
        scanner.handle(table, index, index / 30)
    assert background.jobs == 1 and background.no_finder == scanner._picture


def test_where_the_regions_give_nothing_the_stage_looks_at_the_whole_frame(monkeypatch):
    """A dim frame zxing-cpp's first pass misses and ZBar, scanning the whole frame, reads (tuning frame, dark 0):
    with the region search finding nothing there and the still picture's look seeing no sign of a code, the stage
    still reads it by its look at the whole frame, so it never reads less than ZBar alone."""
    import cv2
    from pyzbar import pyzbar

    from assistant.scanner import background as stage_module
    from assistant.scanner.background import Job

    scene = F.scene_for("dark", 0)
    gray = cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)
    assert scene.payload not in [d.payload for d in Cascade(budget_ms=None).first_pass(gray)]
    assert scene.payload in [r.data.decode() for r in pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE])]
    monkeypatch.setattr(stage_module, "shows_code", lambda *args: False)  # the look sees no sign of a code
    stage = BackgroundStage(Cascade(budget_ms=None))
    looked_at = []
    whole_look = stage.cascade.whole_look
    stage.cascade.whole_look = lambda image: looked_at.append(image.shape) or whole_look(image)
    reads = stage.work(Job(0, gray, [], [(0, gray)], picture=1))
    assert [(r.decoded.payload, r.decoded.stage) for r in reads] == [(scene.payload, "whole")]
    assert stage.looks == 1 and stage.jobs == 0  # a look, not a job
    # ZBar looked at the camera frame halved (a quarter of its cost on each new empty table), and the read's box is
    # in the frame's own pixels, on the code.
    assert looked_at == [(360, 640)]
    full = pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE])[0].rect
    assert all(abs(a - b) <= 4 for a, b in zip(reads[0].decoded.box, full, strict=True))


def test_a_read_of_the_whole_frames_look_after_the_cascade_is_checked_on_the_frame_before_by_the_same_look(monkeypatch):
    """A frame with signs of a code whose code the cascade around it cannot read and ZBar, scanning the whole frame,
    does (BoofCV's glare photos: the cascade's regions miss it; here the cascade is made to read nothing, tuning
    frame dark 0): the whole frame's look, the first slow step, reads it, and checks it on the frame before by the
    same look, so the read stands for two frames and is announced at once. Before, it was checked by the cascade
    around the code, which had just failed on it: it stood for one frame, and the worker's next job came too late to
    be its second (missed with the photo held a second)."""
    import cv2

    from assistant.scanner import background as stage_module
    from assistant.scanner.background import Job

    scene = F.scene_for("dark", 0)
    gray = cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)
    monkeypatch.setattr(stage_module, "shows_code", lambda *args: True)  # the look sees a sign of a code
    stage = BackgroundStage(Cascade(budget_ms=None))
    stage.cascade.decode = lambda *args, **kwargs: []  # the cascade reads nothing of it, around it or not
    reads = stage.work(Job(1, gray, [], [(0, gray), (1, gray)], picture=1))
    assert [(r.decoded.payload, r.decoded.stage, r.frames) for r in reads] == [(scene.payload, "whole", 2)]
    assert stage.read_in == 1  # the picture's code is read: no more jobs for it


def _light_on_dark(payload: str, seed: int, invert: bool = True) -> np.ndarray:
    """A 1280 by 720 camera frame (grey table, sensor noise of `seed`) holding a code rendered by qrcode, drawn light
    on dark by OpenCV's inversion where `invert` (as a phone in a dark theme shows it)."""
    import qrcode

    code = qrcode.QRCode(border=4, box_size=6)
    code.add_data(payload)
    image = np.array(code.make_image().convert("L"))
    if invert:
        image = cv2.bitwise_not(image)
    frame = np.full((720, 1280), 120, np.uint8)
    frame[200 : 200 + image.shape[0], 500 : 500 + image.shape[1]] = image
    noise = np.random.default_rng(seed).normal(0, 3, frame.shape)
    return cv2.cvtColor(np.clip(frame + noise, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


@pytest.mark.parametrize("invert", [False, True])
def test_the_thread_fallback_reads_a_code_printed_light_on_dark_within_a_third_of_a_second(invert):
    """The fallback thread stage (no worker process): its frame path keeps its own budgeted retries, and those are
    the job's (`decoders.REGION_STAGES`), zxing-cpp's pass on the region inverted among them (`invert`, the fourth
    retry: on this test clock, 4 ms a decode whatever its size, the frame's budget ends before it). The code printed
    dark on light is announced on the second frame; printed light on dark, the job's cascade reads it on its first
    frame and its next job, checked on a frame before, within a third of a second. Before, the job reached its whole
    frame's inverted look after its cascade, widened regions and ZBar's look (frame 19 here), and with a real thread
    sharing the interpreter under load after the second's hold (0 of 20 such stills). Counted frames, a test clock
    moved only by the decoding steps: no wall time."""
    clock = TestClock()
    events = []
    stage = BackgroundStage(slow_cascade(clock, budget_ms=None))
    scanner = LiveScanner(lambda: None, events.append, cascade=slow_cascade(clock), background=stage, clock=clock)
    said = []
    for index in range(30):
        said += [(index, a.payload) for a in scanner.handle(_light_on_dark("LIGHT-ON-DARK", index, invert), index)]
    assert len(said) == 1 and said[0][1] == "LIGHT-ON-DARK"
    assert said[0][0] <= (10 if invert else 1)


def test_the_frame_path_the_thread_stage_and_the_worker_try_one_list_of_retries():
    """One list of retries (`REGION_STAGES`) for every stage that retries: the frame path's own (with the thread
    stage), the thread stage's job and the worker process's job (`background.job_stage` makes both stages), the
    inverted look on a region among them; `scan` on files, whose zxing-cpp tries every image inverted itself,
    leaves it out."""
    from assistant.scanner.background import job_stage
    from assistant.scanner.decoders import DEFAULT_STAGES

    thread, worker = job_stage(None), job_stage(None)
    live = LiveScanner(lambda: None, lambda event: None, background=thread)
    assert live.cascade.stages == thread.cascade.stages == worker.cascade.stages == DEFAULT_STAGES
    assert "invert" in REGION_STAGES and not live.cascade.invert and not thread.cascade.invert
    gray = cv2.cvtColor(_light_on_dark("ONE LIST", 0), cv2.COLOR_BGR2GRAY)
    crop = gray[150:500, 450:850]
    for cascade in (live.cascade, thread.cascade):
        cascade.budget.budget_ms = None
        assert [(d.payload, d.stage) for d in cascade.decode(crop)] == [("ONE LIST", "invert")]
    files = Cascade(budget_ms=None)
    assert [d.stage for d in files.decode(crop)] == ["zxing"] and ("invert", "ran") not in files.trace


def test_an_empty_tables_motion_is_checked_on_one_frame_in_two_and_a_card_brought_in_is_read_a_frame_later_at_most(
    monkeypatch,
):
    """Once the stage's look found no sign of a code in a still picture (an empty table), the motion check (the frame
    sampled, shrunk and compared) runs on one frame in `MOTION_EVERY_EMPTY` and on each frame given the first pass,
    on a glance at one row of samples in each block (`rest.Glance`), the frame checked in full only where the glance
    moved; before, on every frame, as costly on an idle table as its first passes. A card brought in on a frame left
    unchecked wakes the picture on the next and is announced a frame later than on a checked one. Counted in
    frames."""
    import assistant.scanner.live as live
    from assistant.scanner import rest

    checks: list[int] = []
    frame_of = [0]
    moved, glance = live.moved, rest.glance
    monkeypatch.setattr(live, "moved", lambda before, after: checks.append(frame_of[0]) or moved(before, after))
    monkeypatch.setattr(rest, "glance", lambda image: checks.append(frame_of[0]) or glance(image))

    def scanner_on(table):
        cascade = Cascade(budget_ms=None, clock=TestClock())
        background = BackgroundStage(Cascade(budget_ms=None, clock=TestClock()))
        return LiveScanner(lambda: None, lambda event: None, cascade=cascade, background=background), background

    table = F.render(F.Scene(distance_mm=380, centre=(5.0, 5.0), busy_table="gingham"))  # the card far out of view
    card = F.render(F.Scene(distance_mm=380, busy_table="gingham"))
    announced_at = {}
    for arrives in (60, 61):
        scanner, background = scanner_on(table)
        checks.clear()
        for index in range(arrives):
            frame_of[0] = index
            scanner.handle(table, index, index / 30)
        assert background.no_code is not None
        idle = range(IDLE_AFTER_EMPTY_FROM, arrives)
        # the table still from frame 0; at rest each check is a glance (`rest.Glance`), in full only where it moved
        assert [i for i in idle if i in checks] == [i for i in idle if i % 2 == 0]
        assert checks.count(max(i for i in idle if i % 2 == 0)) == 1  # the glance alone: nothing moved
        for index in range(arrives, arrives + 4):
            frame_of[0] = index
            said = scanner.handle(card, index, index / 30)
            if said:
                announced_at[arrives] = index - arrives
                break
    assert announced_at == {60: 1, 61: 2} and rest.MOTION_EVERY == 2


#: A frame by which the stage's look has come back on the test's checked cloth (it comes back on the first frames).
IDLE_AFTER_EMPTY_FROM = 12
