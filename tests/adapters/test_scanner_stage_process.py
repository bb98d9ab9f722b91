"""The background stage in a child process (`assistant.scanner.stage_process`): a real spawned process, fed real
rendered frames through shared memory, its reads back in the parent; and the thread stage when no process starts.

Nothing here is timed: the tests wait (up to a generous limit) for the child's reply, and assert what came back.
"""

import time

import cv2
import pytest

from assistant.scanner.background import BackgroundStage
from assistant.scanner.measure import find_code_regions
from assistant.scanner.stage_process import ProcessStage
from benchmarks import frames as F


def reads_of(stage, frames, limit_seconds=60.0):
    """Offer the last of `frames` (all remembered first), then collect until the stage has worked on it."""
    for index, gray in enumerate(frames):
        stage.remember(index, gray)
    last = len(frames) - 1
    stage.offer(last, frames[-1], find_code_regions(frames[-1], limit=2))
    reads, give_up = [], time.monotonic() + limit_seconds
    while (stage.jobs == 0 or stage.busy()) and time.monotonic() < give_up:
        reads += stage.take(last)
        time.sleep(0.02)
    return reads + stage.take(last)


@pytest.fixture
def thumb_frames():
    scene = F.scene_for("thumb", 0)
    gray = cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)
    return scene.payload, [gray, gray.copy()]


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
    assert stage._shm is None  # the shared ring is unlinked


def test_when_no_process_starts_the_thread_stage_does_the_work(thumb_frames, monkeypatch):
    import multiprocessing

    def refuse(method):
        raise OSError("no processes here")

    monkeypatch.setattr(multiprocessing, "get_context", refuse)
    payload, frames = thumb_frames
    stage = ProcessStage()
    stage.start()
    try:
        assert stage.failed and isinstance(stage._fallback, BackgroundStage) and stage.running
        reads = reads_of(stage, frames)
        assert [r.decoded.payload for r in reads] == [payload]
    finally:
        stage.stop()
    assert not stage.running
