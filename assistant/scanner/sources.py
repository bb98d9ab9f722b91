"""Frame sources behind one small interface: a webcam, a video file, image files or a folder of them, and a recorded
clip played as a webcam (`ClipCapture`: the app's `--camera-clip FILE`).

A source gives frames with `read()` until it returns None (the end of a file or folder) and is closed with
`close()`. Every frame a camera or a video gives is checked as it comes (`camera_frames.FrameCheck`): made 8-bit BGR
or grey, or skipped and counted, so no frame of any kind reaches the scanner. Problems are `SourceError`s carrying
a sentence from `words` ready to be shown and spoken: no camera, a lost camera (or one giving no frame the scanner
can take), a file that is not an image or a video. No source ever lets a traceback reach the player.

The webcam is read by a thread that keeps only the newest frame, so a slow decode never works on a stale picture;
on Linux it uses the V4L2 backend and asks for MJPG at 1280 by 720 (a USB webcam sends raw 720p at only a few
frames a second, MJPG at 30). The capture object is made by a factory, so tests drive the same code with a fake.
On V4L2 the live loop may set the webcam's exposure (`Webcam.set_exposure`, metered on the code by
`assistant.core.scanning.exposure`); the camera's own auto exposure is given back when the webcam is closed.
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

from assistant.core.words.scans import (
    CAMERA_FRAMES_UNUSABLE,
    CAMERA_LOST,
    NEED_OPENCV,
    camera_unavailable,
    scan_folder_empty,
    scan_not_found,
    scan_unreadable,
)
from assistant.scanner.camera_frames import FrameCheck
from assistant.scanner.decoders import load_opencv

if TYPE_CHECKING:
    from cv2.typing import MatLike

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff", ".gif", ".pgm", ".ppm", ".pbm"}
VIDEO_SUFFIXES = {".avi", ".mp4", ".mkv", ".mov", ".webm", ".mjpg", ".mjpeg", ".m4v", ".mpg", ".mpeg", ".ogv"}
CAMERA_SIZE = (1280, 720)
#: The value of V4L2's auto exposure control (`CAP_PROP_AUTO_EXPOSURE` on the V4L2 backend) that means manual exposure.
V4L2_MANUAL_EXPOSURE = 1
#: Failed reads in a row after which the camera counts as lost (about half a second at 30 frames a second).
LOST_AFTER = 15


class SourceError(Exception):
    """A source cannot give frames; `args[0]` is the sentence to show and speak."""

    @property
    def sentence(self) -> str:
        """The message for the player."""
        return self.args[0]


class FramesUnusable(SourceError):
    """A camera that goes on giving frames, none of which the scanner can take (`camera_frames`: empty, a strip): it
    is not lost, and is kept open (closed and opened again, a recording starts over and a card lying there was said
    anew each time); `args[0]` is `CAMERA_FRAMES_UNUSABLE`."""


@dataclass(frozen=True)
class Frame:
    """One picture from a source."""

    image: MatLike
    """The picture, a numpy array (BGR or greyscale)."""
    index: int
    """Its number in the source, from 0."""
    name: str
    """Where it came from: a file path, or "camera 0"."""
    time: float | None = None
    """When it was taken, seconds from the start of a video file; None for a live camera, whose frames the live
    scanner stamps with its own clock as they arrive (and for still images)."""


class FrameSource(Protocol):
    """What every source offers."""

    name: str

    def read(self) -> Frame | None:
        """The next frame, or None when there are no more. May raise `SourceError`."""

    def close(self) -> None:
        """Release the camera or file."""

    def set_exposure(self, share: float) -> bool:
        """Ask for `share` of the exposure the camera's auto exposure chose (1: give auto exposure back); False when
        the source's exposure cannot be set, so asking again is pointless."""


class Capture(Protocol):
    """What the webcam and video sources use of an OpenCV `VideoCapture` (tests pass a fake with these methods)."""

    def isOpened(self) -> bool:  # OpenCV's spelling
        """True when the camera or file could be opened."""
        ...

    def read(self) -> tuple[bool, MatLike | None]:
        """Whether a frame was read, and the frame."""
        ...

    def release(self) -> None:
        """Let the camera or file go."""
        ...

    def get(self, prop: int) -> float:
        """A property's value (0 or -1 where the backend has none)."""
        ...

    def set(self, prop: int, value: float) -> bool:
        """Set a property; False when the backend refuses."""
        ...


def _cv2() -> ModuleType:
    cv2 = load_opencv()
    if cv2 is None:
        raise SourceError(NEED_OPENCV)
    return cv2


def load_image(path: Path) -> MatLike:
    """An image file as a BGR array; `SourceError` when it is missing or cannot be read as an image.

    Read through numpy so paths with any characters work, and checked for size: OpenCV cannot load some tiny
    images at all (a 1-pixel-wide WebP), which is the same "cannot be read" for the player."""
    cv2 = _cv2()
    import numpy as np

    if not path.exists():
        raise SourceError(scan_not_found(str(path)))
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError:
        raise SourceError(scan_unreadable(str(path))) from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None or min(image.shape[:2]) < 1:
        raise SourceError(scan_unreadable(str(path)))
    return image


class ImageFiles:
    """Image files, one frame each, in the order given."""

    def __init__(self, paths: list[Path], name: str = ""):
        self.paths = [Path(p) for p in paths]
        self.name = name or (str(self.paths[0]) if len(self.paths) == 1 else "images")
        self._next = 0

    def read(self) -> Frame | None:
        """The next image; `SourceError` for one that cannot be read (the next `read` goes on after it)."""
        if self._next >= len(self.paths):
            return None
        index, path = self._next, self.paths[self._next]
        self._next += 1
        return Frame(load_image(path), index, str(path))

    def close(self) -> None:
        """Nothing to release."""

    def set_exposure(self, share: float) -> bool:
        """Image files have no exposure to set."""
        return False


class VideoFile:
    """The frames of a video file, in order."""

    def __init__(self, path: Path, capture: Capture | None = None):
        self.name = str(path)
        path = Path(path)
        if capture is None:
            cv2 = _cv2()
            if not path.exists():
                raise SourceError(scan_not_found(str(path)))
            capture = cv2.VideoCapture(str(path))
        self._capture = capture
        self._index = 0
        self.frames = FrameCheck()
        """Frames converted to 8-bit BGR or grey, and those skipped (`camera_frames`)."""
        if not capture.isOpened():
            capture.release()
            raise SourceError(scan_unreadable(str(path)))
        try:
            fps = float(capture.get(5))  # cv2.CAP_PROP_FPS (5): a file's frame rate, 0 when it does not say
        except Exception:  # a capture without properties (a test's fake): the usual webcam rate
            fps = 0.0
        self._fps = fps if 1.0 <= fps <= 1000.0 else 30.0

    def read(self) -> Frame | None:
        """The next frame, or None at the end of the video."""
        while True:
            ok, image = self._capture.read()
            if not ok or image is None:
                return None
            index, self._index = self._index, self._index + 1
            usable = self.frames.usable(image)  # a frame the scanner cannot take is skipped (counted)
            if usable is not None:
                return Frame(usable, index, self.name, index / self._fps)

    def close(self) -> None:
        """Release the file."""
        self._capture.release()

    def set_exposure(self, share: float) -> bool:
        """A video file's exposure was set when it was filmed."""
        return False


def open_capture(index: int) -> Capture:
    """An OpenCV capture for camera `index`: V4L2 on Linux, MJPG at 1280 by 720 where the camera offers it."""
    cv2 = _cv2()
    if sys.platform.startswith("linux"):
        capture = cv2.VideoCapture(index, cv2.CAP_V4L2)
    else:
        capture = cv2.VideoCapture(index)
    if capture.isOpened():
        # Ask; a camera that does not offer them keeps its own format, which is fine.
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, CAMERA_SIZE[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, CAMERA_SIZE[1])
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the driver's own queue would hand out old frames first
    return capture


class Webcam:
    """A live camera, read by a thread that keeps only the newest frame.

    `read()` waits for a frame newer than the last one returned. When the camera stops giving frames for
    `LOST_AFTER` reads in a row (unplugged, taken by another program), `read()` raises `SourceError` with
    `CAMERA_LOST`; the live loop then closes it and opens a new one every few seconds. One that goes on giving frames,
    none of which the scanner takes, for `timeout` seconds raises `FramesUnusable` instead: kept open, waited on.
    """

    def __init__(
        self,
        index: int = 0,
        capture_factory: Callable[[int], Capture] = open_capture,
        timeout: float = 2.0,
        exposure_settable: bool = sys.platform.startswith("linux"),
    ):
        """`exposure_settable`: the backend's exposure is V4L2's, in units of time (elsewhere, as on DirectShow, it
        is a power of two and is left alone)."""
        self.index = index
        self.name = f"camera {index}"
        self.timeout = timeout
        try:
            self._capture = capture_factory(index)
        except SourceError:
            raise
        except Exception:  # a backend can fail in many ways; for the player it is "no camera"
            raise SourceError(camera_unavailable(index)) from None
        if self._capture is None or not self._capture.isOpened():
            if self._capture is not None:
                self._capture.release()
            raise SourceError(camera_unavailable(index))
        self._lock = threading.Condition()
        self.frames = FrameCheck()
        """The camera's frames converted to 8-bit BGR or grey, and those skipped (`camera_frames`): a camera that
        gives none the scanner takes is lost after `timeout` seconds, as one that gives none at all."""
        self._latest: MatLike | None = None
        self._given = 0  # frames the capture gave, taken or not
        self._count = 0
        self._returned = 0
        self._delivered = 0
        self._lost = False
        self._exposure_settable = exposure_settable
        self._exposure_asked: float | None = None  # a share waiting for the reader thread to apply it
        self._auto_exposure: tuple[float, float] | None = None  # (auto mode, its exposure) while ours is set
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._reader, name=f"camera-{index}", daemon=True)
        self._thread.start()

    def _reader(self) -> None:
        failures = 0
        while not self._stop.is_set():
            with self._lock:
                asked, self._exposure_asked = self._exposure_asked, None
            if asked is not None:
                self._apply_exposure(asked)
            try:
                ok, image = self._capture.read()
            except Exception:  # a driver error mid-read is the camera going away
                ok, image = False, None
            if ok and image is not None:
                failures = 0
                with self._lock:
                    self._given += 1
                image = self.frames.usable(image)  # converted, or skipped (counted): never handed on as it came
                if image is None:
                    continue
                with self._lock:
                    self._latest = image
                    self._count += 1
                    self._lock.notify_all()
                continue
            failures += 1
            if failures >= LOST_AFTER:
                with self._lock:
                    self._lost = True
                    self._lock.notify_all()
                return
            time.sleep(0.02)

    def read(self) -> Frame | None:
        """The newest frame not yet returned (frames in between are dropped)."""
        with self._lock:
            given = self._given
            ready = self._lock.wait_for(lambda: self._count > self._returned or self._lost, timeout=self.timeout)
            if self._count > self._returned and self._latest is not None:  # a frame is kept before it is counted
                self._returned = self._count
                self._delivered += 1
                return Frame(self._latest, self._count - 1, self.name)
            if not ready and not self._lost and self._given > given:
                raise FramesUnusable(CAMERA_FRAMES_UNUSABLE)  # frames came, none the scanner takes: not lost
            if self._lost or not ready:
                raise SourceError(CAMERA_LOST)
        return None

    def set_exposure(self, share: float) -> bool:
        """Ask for `share` of the exposure the camera's auto exposure chose (1: give auto exposure back). The
        reader thread applies it between two frames, so the capture is never used by two threads at once. False
        when the camera does not let its exposure be set: asking again is then pointless."""
        with self._lock:
            if self._exposure_settable:
                self._exposure_asked = share
            return self._exposure_settable

    def _apply_exposure(self, share: float) -> None:
        cv2, capture = _cv2(), self._capture
        try:
            if share >= 1.0:
                self._give_auto_back()
                return
            if self._auto_exposure is None:
                mode, own = capture.get(cv2.CAP_PROP_AUTO_EXPOSURE), capture.get(cv2.CAP_PROP_EXPOSURE)
                if own <= 0 or not capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL_EXPOSURE):
                    self._refused()  # no exposure reported, or no manual mode
                    return
                self._auto_exposure = (mode, own)
            if not capture.set(cv2.CAP_PROP_EXPOSURE, max(1.0, round(self._auto_exposure[1] * share))):
                self._refused()  # a time shorter than the camera's least, say
        except Exception:  # a driver refusing a control leaves the camera as it was
            self._refused()

    def _give_auto_back(self) -> None:
        """The camera's own auto exposure back, if ours was set; tried once, whatever the driver answers."""
        auto, self._auto_exposure = self._auto_exposure, None
        if auto is not None:
            self._capture.set(_cv2().CAP_PROP_AUTO_EXPOSURE, auto[0])

    def _refused(self) -> None:
        """The camera refused a control: its own auto exposure back, if it was taken, and nothing asked again (a
        camera left on the last short exposure would stay dark for the rest of the session)."""
        self._exposure_settable = False
        try:
            self._give_auto_back()
        except Exception:  # a driver refusing that too leaves nothing more to try
            pass

    @property
    def dropped(self) -> int:
        """Frames the camera gave that were never returned because a newer one replaced them."""
        with self._lock:
            return self._count - self._delivered

    def close(self) -> None:
        """Stop the reader thread and release the camera."""
        self._stop.set()
        self._thread.join(timeout=1.0)
        if self._auto_exposure is not None:
            self._apply_exposure(1.0)  # a V4L2 setting outlives the program: leave the camera on auto exposure
        try:
            self._capture.release()
        except Exception:  # releasing a vanished camera may fail; it is gone either way
            pass


class ClipCapture:
    """A recorded clip played as a webcam gives frames: each frame at the file's own rate in real time, and from the
    start again at its end, so the app can scan a clip as its camera (`--camera-clip FILE`, docs/scanner.md).

    It is a `Capture`, read through `Webcam` as a camera is (a reader thread keeping the newest frame only), so
    everything after the capture is the camera's own path. A frame the reader comes late for is not caught up on:
    as a camera does, the clip goes on from the moment it is read. `clock` and `sleep` are a test's own."""

    def __init__(
        self,
        path: Path,
        open_video: Callable[[Path], Capture] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """`SourceError` when the file is missing or is no video; `open_video` opens the file (a test's fake)."""
        self.path = Path(path)
        if open_video is None:
            if not self.path.exists():
                raise SourceError(scan_not_found(str(self.path)))
            open_video = _open_video
        self._open = open_video
        self._capture = open_video(self.path)
        if not self._capture.isOpened():
            self._capture.release()
            raise SourceError(scan_unreadable(str(self.path)))
        try:
            fps = float(self._capture.get(5))  # cv2.CAP_PROP_FPS: 0 when the file does not say
        except Exception:  # a fake without properties: the usual webcam rate
            fps = 0.0
        self.period = 1 / (fps if 1.0 <= fps <= 1000.0 else 30.0)
        self._clock, self._sleep = clock, sleep
        self._due: float | None = None

    def isOpened(self) -> bool:  # OpenCV's spelling, as `Capture`
        """True while the file is open."""
        return self._capture.isOpened()

    def read(self) -> tuple[bool, MatLike | None]:
        """The next frame, once its time has come; the first frame again after the last."""
        if self._due is not None and (wait := self._due - self._clock()) > 0:
            self._sleep(wait)
        ok, image = self._capture.read()
        if not ok or image is None:  # the end: opened again from its start (seeking is unreliable in some codecs)
            self._capture.release()
            self._capture = self._open(self.path)
            ok, image = self._capture.read()
        now, due = self._clock(), (self._due or 0.0) + self.period
        self._due = due if self._due is not None and due > now else now + self.period
        return (True, image) if ok and image is not None else (False, None)

    def release(self) -> None:
        """Close the file."""
        self._capture.release()

    def get(self, prop: int) -> float:
        """A property of the file (its frame rate, its size)."""
        return float(self._capture.get(prop))

    def set(self, prop: int, value: float) -> bool:
        """A clip's exposure, size and format were fixed when it was recorded: nothing can be set."""
        return False


def _open_video(path: Path) -> Capture:
    """OpenCV's capture of a video file."""
    return _cv2().VideoCapture(str(path))


def clip_opener(path: Path) -> Callable[[], FrameSource]:
    """A function opening the clip at `path` as the app's camera (it can be sent to another process, `live_process`):
    a `Webcam` reading a `ClipCapture`, its exposure left alone, named by the file."""
    return functools.partial(_open_clip, path)


def _open_clip(path: Path) -> FrameSource:
    camera = Webcam(0, lambda _index: ClipCapture(path), exposure_settable=False)
    camera.name = str(path)
    return camera


def scan_targets(paths: list[Path]) -> Iterator[Path | SourceError]:
    """The files to scan for the paths given: files as they are, folders as their images and videos in name order;
    a `SourceError` in place of a missing path or an empty folder."""
    for path in paths:
        path = Path(path)
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES | VIDEO_SUFFIXES)
            if not inside:
                yield SourceError(scan_folder_empty(str(path)))
            yield from inside
        elif path.exists():
            yield path
        else:
            yield SourceError(scan_not_found(str(path)))


def is_video(path: Path) -> bool:
    """True for a file to be read as video: a video suffix, or the first bytes of a video container (AVI, MP4 or
    QuickTime, Matroska or WebM, Ogg, MPEG). Content is checked because FFmpeg happily "plays" a text file as
    text-mode art, which is no video for us."""
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return True
    try:
        with open(path, "rb") as file:
            head = file.read(12)
    except OSError:
        return False
    return (
        (head[:4] == b"RIFF" and head[8:12] == b"AVI ")
        or head[4:8] == b"ftyp"
        or head[:4] in (b"\x1a\x45\xdf\xa3", b"OggS", b"\x00\x00\x01\xba", b"\x00\x00\x01\xb3")
    )


def open_file(path: Path) -> FrameSource:
    """A source for one file: an image (one frame) or a video. Decided by content, not only by name: an image
    file named .avi is read as an image, and a file that is neither raises `SourceError`."""
    path = Path(path)
    if not path.exists():
        raise SourceError(scan_not_found(str(path)))
    _cv2()  # without OpenCV nothing can be opened: say that, not that a good PNG is "not an image"
    if is_video(path):
        try:
            return VideoFile(path)
        except SourceError:
            pass  # a video's header but no video OpenCV can open: perhaps an image
    try:
        load_image(path)
        return ImageFiles([path])
    except SourceError:
        raise SourceError(scan_unreadable(str(path))) from None
