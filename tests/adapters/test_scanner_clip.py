"""A recorded clip as the app's camera (`--camera-clip FILE`): `ClipCapture` plays a video file at its own pace and
from the start again at its end, through the same `Webcam` the camera is read by."""

import asyncio
import os
import time

import cv2
import numpy as np
import pytest
from fake_speaker import Heard

from assistant.cli import build_parser
from assistant.commands.app import _camera
from assistant.commands.app import make_app as app_factory
from assistant.core.words.scans import scan_not_found, scan_unreadable
from assistant.scanner.sources import ClipCapture, SourceError, Webcam, clip_opener
from benchmarks import frames as F


class FakeVideo:
    """A stand-in for OpenCV's capture of a video file: its frames, then none (the end of the file)."""

    opened_times = 0

    def __init__(self, frames, fps=10.0):
        self.frames, self.fps, self.position, self.released = list(frames), fps, 0, False
        FakeVideo.opened_times += 1

    def isOpened(self):  # OpenCV's spelling
        return not self.released

    def get(self, prop):
        return self.fps if prop == 5 else 0.0

    def read(self):
        if self.position >= len(self.frames):
            return False, None
        self.position += 1
        return True, self.frames[self.position - 1]

    def release(self):
        self.released = True


class Clock:
    """A clock that only `sleep` (and a test) moves."""

    def __init__(self):
        self.now = 100.0
        self.slept = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.slept.append(round(seconds, 6))
        self.now += seconds


def test_a_clip_gives_each_frame_at_its_own_rate_and_starts_again_at_its_end():
    clock, opened = Clock(), []

    def open_video(path):
        opened.append(path)
        return FakeVideo(["a", "b", "c"], fps=10.0)

    clip = ClipCapture("clip.avi", open_video, clock=clock, sleep=clock.sleep)
    got = [clip.read()[1] for _ in range(7)]
    assert got == ["a", "b", "c", "a", "b", "c", "a"]
    assert len(opened) == 3  # opened at the start, then again at each end
    assert clip.period == pytest.approx(0.1)
    assert clock.slept == [pytest.approx(0.1)] * 6  # no wait before the first frame, a tenth of a second after


def test_a_clip_read_late_goes_on_from_now_and_does_not_catch_up():
    clock = Clock()
    clip = ClipCapture("clip.avi", lambda path: FakeVideo(range(10), fps=10.0), clock=clock, sleep=clock.sleep)
    clip.read()
    clock.now += 0.55  # the reader was busy for five and a half frames
    assert clip.read() == (True, 1)  # at once: its time had come
    assert clock.slept == []
    clip.read()  # the next a whole frame after that one, not at once to catch up
    assert clock.slept == [pytest.approx(0.1)]


def test_a_clip_with_no_frame_rate_plays_at_a_webcams_thirty_and_sets_nothing():
    clip = ClipCapture("clip.avi", lambda path: FakeVideo(["a"], fps=0.0))
    assert clip.period == pytest.approx(1 / 30)
    assert clip.set(cv2.CAP_PROP_EXPOSURE, 10) is False


def test_a_recorded_clip_is_read_through_the_webcam_named_by_its_file(tmp_path):
    shades = [np.full((48, 64, 3), shade, np.uint8) for shade in (20, 120, 220)]
    clip = tmp_path / "three.avi"
    F.write_clip(clip, shades)
    camera = clip_opener(clip)()
    try:
        assert isinstance(camera, Webcam) and camera.name == str(clip)
        # Twice the clip's length: a file that ended would be a camera lost after its third frame.
        means = [round(float(camera.read().image.mean()), -1) for _ in range(6)]
    finally:
        camera.close()
    assert set(means) <= {20.0, 120.0, 220.0}
    assert camera.set_exposure(0.5) is False  # a clip's exposure was fixed when it was recorded


def test_a_missing_clip_or_one_that_is_no_video_says_so_as_a_sentence(tmp_path):
    with pytest.raises(SourceError) as missing:
        clip_opener(tmp_path / "gone.avi")()
    assert missing.value.sentence == scan_not_found(str(tmp_path / "gone.avi"))
    text = tmp_path / "notes.avi"
    text.write_text("not a video", encoding="utf-8")
    with pytest.raises(SourceError) as unreadable:
        clip_opener(text)()
    assert unreadable.value.sentence == scan_unreadable(str(text))


def test_camera_clip_opens_the_clip_unless_no_camera_is_asked_for_and_outranks_the_settings(tmp_path):
    from assistant.core.speech.settings import SpeechSettings

    clip = tmp_path / "clip.avi"
    F.write_clip(clip, [np.zeros((48, 64, 3), np.uint8)])
    parse = build_parser().parse_args
    no_webcam = SpeechSettings(camera=False)
    opener = _camera(parse(["--camera-clip", str(clip)]), no_webcam)
    assert opener is not None
    source = opener()
    try:
        assert source.name == str(clip)
    finally:
        source.close()
    assert _camera(parse(["--no-camera", "--camera-clip", str(clip)]), SpeechSettings()) is None
    assert _camera(parse([]), no_webcam) is None


def test_the_app_with_a_clip_as_its_camera_says_the_card_in_it_and_still_takes_typing(tmp_path):
    clip = tmp_path / "card.avi"
    F.write_clip(clip, [F.render(F.Scene(seed=i, distance_mm=380)) for i in range(6)])
    spoken = []
    app = app_factory(build_parser().parse_args(["--camera-clip", str(clip)]), Heard(spoken.append))

    async def scenario():
        async with app.run_test() as pilot:
            assert app.camera_worker.process is not None  # the scanner in a process of its own (`live_process`)
            pids.append(app.camera_worker.process.pid)
            deadline = time.monotonic() + 60  # a guard only: the clip plays in real time, the spawned stage starts
            while not any(r.card for r in spoken) and time.monotonic() < deadline:
                await pilot.pause(0.05)
            await pilot.press(*"unicorn poison", "enter")
            await pilot.pause(0.2)

    pids = []
    asyncio.run(scenario())
    with pytest.raises(ProcessLookupError):  # the app stopped its scanner's process as it closed
        os.kill(pids[0], 0)
    cards = [r.card.id for r in spoken if r.card]
    # (the clip starts again every fifth of a second: on a busy machine the card may be said again meanwhile)
    assert cards[0] == "rainbow-aura" and "unicorn-poison" in cards
