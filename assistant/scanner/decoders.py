"""The QR decoder cascade: zxing-cpp first, cheap retries where a code-like pattern was seen, then ZBar.

`Cascade().decode(frame)` returns every code read in a frame with its position. zxing-cpp reads most frames at
the first try in a millisecond or two; only when it finds nothing does the cascade retry, and the retries work on
the code-like regions `measure.find_code_regions` finds (the whole picture when it is small, like a photo), so a
720p frame stays far inside the 33 ms a 30-frames-a-second camera allows. What each retry buys was measured on
the shared photographs and on rendered frames (`benchmarks/scanner.py`, docs/scanner.md):

- *dark*: a stretch of the grey levels of a dim frame (low light);
- *sharpen*: an unsharp mask (small codes far away, focus blur);
- *stretch*: the same grey-level stretch inside a region (dim or low-contrast regions);
- *upscale*: a 2x cubic upscale (glare, blur);
- *upscale-global*: a 2x upscale with zxing-cpp's global-histogram binarizer (small, noisy photographs);
- *clahe-upscale*: local contrast equalisation, then 2x (motion blur, glare);
- *sharpen-more*: a stronger, wider unsharp mask (heavier blur);
- *pyzbar*: ZBar, plain and sharpened (a few codes zxing-cpp gives up on);
- *whole-...*: a still picture's job alone, on the whole frame (`WHOLE_STAGES`, `Cascade.whole_retry`): the
  global-histogram binarizer, a blur, CLAHE, and the two upscales (a code the region search cuts, or over 400 pixels),
  then OpenCV's WeChat detector (codes found by their outline: printed on cloth, bent, half in glare).

OpenCV's own QR detector is available as the optional stage `opencv`, off by default: it added no code on the
shared photographs or the rendered frames that the cascade had missed, and costs more than all retries together.

Every library is optional: a missing one is reported once through `take_notices()` and the rest carries on.
Only QR codes are looked for (other symbologies would only add false positives and time).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from assistant.core.words.scans import NO_DECODER, OPENCV_IMAGE_TOOLS, decoder_missing
from assistant.scanner.budget import FRAME_BUDGET_MS as FRAME_BUDGET_MS
from assistant.scanner.budget import FRAME_WALL_MS as FRAME_WALL_MS
from assistant.scanner.budget import FrameBudget
from assistant.scanner.budget import budget_clock as budget_clock

if TYPE_CHECKING:
    import numpy as np
    from cv2.typing import MatLike
    from numpy.typing import NDArray

    from assistant.scanner.measure import FoundCard

#: Frames at most this many pixels across are retried whole (photos); larger ones only inside regions.
WHOLE_FRAME_RETRY = 1000
#: Regions retried per frame (more cards than this in one frame are read by the first pass or the next frame).
MAX_REGIONS = 2
#: A frame whose 99th grey-level percentile is below this is dark and gets the grey-level stretch first.
DARK_LEVEL = 90
#: A frame whose median grey level is under this is dim: most of it is near black (a dark room, its exposure set by
#: a lamp's bright spot in view, which keeps the 99th percentile high), and it gets its grey levels lifted first.
DIM_LEVEL = 16
#: zxing-cpp's second try of an image, inverted (a light code on dark), where nothing was read. The live camera
#: and the background stage read the project's stickers, printed dark on light, and turn it off
#: (`Cascade.invert`): on the tuning set (`benchmarks/frames.py`, 10 seeds of every category, 120 frames) the
#: first pass reads the same 65 frames either way and costs 28 % less CPU without it (an empty busy table, where
#: nothing is ever read, 25 % less). `scan` on files keeps it: a photo may hold anyone's code. The background
#: stage's job tries the whole frame inverted once, as one of its last steps (`BackgroundStage._inverted`).
TRY_INVERT = True
#: Regions larger than this (pixels across) are not upscaled: a code that big has modules large enough already,
#: and upscaling it costs more than every other retry together.
MAX_UPSCALE_SIDE = 400
#: Regions larger than this many pixels are not handed to ZBar, whose time grows with the area and which adds
#: nothing on large, sharp regions in our measurements.
MAX_ZBAR_AREA = 400 * 400
#: The retries run inside each region, in order, until one reads a code there. One list for every stage that
#: retries: the frame path's own budgeted retries (with the thread stage), the background stage's job on a thread
#: and the same job in the worker process all run these, so what one of them reads the others try too.
#: "invert" is zxing-cpp's first pass on the region inverted (a code printed light on dark, a phone in a dark
#: theme): the live path's passes make no inverted try of their own (`TRY_INVERT`), and before, only the job's
#: look at the whole frame inverted, one of its last steps, tried one, which the thread stage's job, sharing the
#: interpreter and resting as long as it worked, reached after the hold was over. On a region it costs a fraction
#: of the whole frame's pass; where the cascade keeps zxing-cpp's own inverted try (`scan` on files) it is left
#: out, as that try does it already.
REGION_STAGES = (
    "sharpen",
    "stretch",
    "upscale",
    "invert",
    "upscale-global",
    "clahe-upscale",
    "sharpen-more",
    "pyzbar",
    "pyzbar-sharpen",
)
#: The retries a still picture's job tries on the whole frame, in order, where the cascade on its regions and the
#: job's first slow steps read nothing (`Cascade.whole_retry`, `background.BackgroundStage._slow_steps`), never on a
#: frame's path: zxing-cpp's global-histogram binarizer, a Gaussian blur of sigma `BLUR_SIGMA` (a code whose modules
#: are broken into dots or speckled by a screen's pixels), local contrast equalisation (CLAHE: glare, a shadow across
#: the code), then the two 2x upscales, plain and after CLAHE, of a frame at most `WHOLE_UPSCALE_SIDE` across. The
#: regions' retries miss these where the region search cuts the code (glare eats its edges) or the region is over
#: `MAX_UPSCALE_SIDE`. Chosen by hand on the tuning half of BoofCV's photos that WeChat alone reads
#: (`benchmarks/photo_sets/boofcv_wechat`, its odd rows) and jsQR's `issue-14-regression` (blurred); ordered
#: cheapest first (1 to 6 ms of CPU each on a photo 1920 wide, the upscales 10 to 30 ms), the productive before the
#: rare at equal cost. Last, OpenCV's WeChat detector (opencv-contrib's `wechat_qrcode`, without its model files),
#: which reads codes none of these reads (BoofCV's photos that WeChat alone reads); skipped where the OpenCV
#: installed has no such module. docs/scanner.md, "A still picture's job tries the whole frame".
WHOLE_STAGES = ("whole-global", "whole-blur", "whole-clahe", "whole-upscale", "whole-clahe-upscale", "whole-wechat")
#: The whole-frame retries that are a region's retry on the whole frame, their images made as that retry's.
WHOLE_TWINS = {"whole-upscale": "upscale", "whole-clahe-upscale": "clahe-upscale"}
#: The Gaussian blur's sigma (pixels) of "whole-blur": 1.5 and 2 read jsQR's `issue-14-regression` as it is, 1 not.
BLUR_SIGMA = 2.0
#: Frames at most this many pixels across are upscaled whole by the job's last two whole-frame retries (a photo
#: 1920 wide: 3840 after, 10 to 30 ms of CPU).
WHOLE_UPSCALE_SIDE = 2000
ALL_STAGES = ("zxing", "dark", *REGION_STAGES, *WHOLE_STAGES, "opencv")
DEFAULT_STAGES = tuple(s for s in ALL_STAGES if s != "opencv")


@dataclass(frozen=True)
class Decoded:
    """One code read in a frame."""

    payload: str
    """The payload as text (bytes that are not UTF-8 become replacement characters). Untrusted."""
    raw: bytes
    """The payload's bytes as stored in the code."""
    box: tuple[int, int, int, int]
    """Where it is: x, y, width, height in frame pixels."""
    stage: str
    """Which stage of the cascade read it."""

    @property
    def centre(self) -> tuple[float, float]:
        """The code's centre in frame pixels."""
        x, y, w, h = self.box
        return x + w / 2, y + h / 2


def _quiet_opencv() -> ModuleType:
    """Import OpenCV with its log switched off: its warnings would be written over the app's screen."""
    os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # FFmpeg's own complaints about a file that is no video
    os.environ.setdefault("OPENCV_VIDEOIO_DEBUG", "0")
    import cv2

    try:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    except AttributeError:  # older builds without the logging module: the environment variable did it
        pass
    return cv2


def load_opencv() -> ModuleType | None:
    """OpenCV with its log silenced, or None when it is not installed or does not load."""
    try:
        return _quiet_opencv()
    except (ImportError, OSError):
        return None


class Cascade:
    """Reads QR codes in greyscale (or BGR) frames with zxing-cpp, retries and ZBar; see the module docstring."""

    def __init__(
        self,
        stages: tuple[str, ...] = DEFAULT_STAGES,
        budget_ms: float | None = FRAME_BUDGET_MS,
        clock: Callable[[], float] | None = None,
        on_step: Callable[[str, str], None] | None = None,
        wall_ms: float | None = FRAME_WALL_MS,
        wall_clock: Callable[[], float] | None = None,
        budget: FrameBudget | None = None,
    ):
        """`stages`: which stages to run, a subset of `ALL_STAGES` (the order is always the cascade's own).
        `budget`: the frame's time, asked before each step (`budget.FrameBudget`); by default one made of
        `budget_ms` (the hard limit of one frame; None retries everything: still images, the background stage),
        `clock` (seconds for the deadline; by default the calling thread's own CPU time, `budget_clock()`),
        `wall_ms` (the frame's wall-clock cap) and `wall_clock` (by default `clock` when one is given).
        `on_step`: called just before each piece of work with its kind ("zxing", "pyzbar", "transform" or "card")
        and its stage: a test clock moves there, so the deadline logic is tested without depending on this
        machine."""
        unknown = set(stages) - set(ALL_STAGES)
        if unknown:
            raise ValueError(f"unknown decoder stages: {', '.join(sorted(unknown))}")
        self.stages = tuple(s for s in ALL_STAGES if s in stages)
        self.budget = budget or FrameBudget(budget_ms, clock, wall_ms, wall_clock)
        self.invert = TRY_INVERT
        """zxing-cpp also tries each image inverted where it read nothing (`TRY_INVERT`; the live path turns it
        off)."""
        self._notices: list[str] = []
        # The libraries, each loaded when the stages need it (None when missing): modules typed as Any.
        self._cv2: Any = load_opencv()
        self._np: Any = None
        self._zxing: Any = None
        self._pyzbar: Any = None
        self._opencv_detector: Any = None
        self._wechat: Any = None
        self._clahe: Any = None
        self._lift: Any = None
        self.on_step = on_step
        self.trace: list[tuple[str, str]] = []
        """The last frame's steps: (stage, "ran" | "skipped" | "cut"), "cut" when a stage stopped between its
        image work and its decode because the deadline had come."""
        self.skipped = False
        """True when the last frame left steps undone for lack of time (the background stage may do them)."""
        self.wall_limited = False
        """True when the last frame left a step undone that its CPU budget had room for, because of its wall-clock
        cap (a busy machine)."""
        try:
            import numpy

            self._np = numpy
        except ImportError:
            self._notices.append(decoder_missing("numpy"))
        if self._cv2 is None and any(s not in ("zxing", "pyzbar") for s in self.stages):
            self._notices.append(decoder_missing(OPENCV_IMAGE_TOOLS))
        needs_zxing = ("zxing", "dark", *REGION_STAGES[:7], *WHOLE_STAGES)
        if any(s in needs_zxing for s in self.stages):
            try:
                import zxingcpp

                self._zxing = zxingcpp
            except (ImportError, OSError):
                self._notices.append(decoder_missing("zxing-cpp"))
        if "pyzbar" in self.stages or "pyzbar-sharpen" in self.stages:
            try:
                from pyzbar import pyzbar

                self._pyzbar = pyzbar
            except (ImportError, OSError):  # OSError: the Python package is there but libzbar is not
                self._notices.append(decoder_missing("ZBar (pyzbar)"))
        if "opencv" in self.stages and self._cv2 is not None:
            self._opencv_detector = self._cv2.QRCodeDetectorAruco()
        if self._zxing is None and self._pyzbar is None and self._opencv_detector is None:
            self._notices.append(NO_DECODER)

    @property
    def can_decode(self) -> bool:
        """False when no decoder library loaded at all."""
        return self._np is not None and (self._zxing or self._pyzbar or self._opencv_detector) is not None

    def take_notices(self) -> list[str]:
        """Messages about missing libraries, each given once."""
        notices, self._notices = self._notices, []
        return notices

    def grey(self, frame: MatLike) -> NDArray[np.uint8]:
        """A frame as a contiguous 8-bit greyscale array (camera frames are BGR)."""
        np = self._np
        if frame.ndim == 3:
            if self._cv2 is not None:
                frame = self._cv2.cvtColor(frame, self._cv2.COLOR_BGR2GRAY)
            else:
                frame = (frame[..., :3] @ np.array([0.114, 0.587, 0.299])).astype(np.uint8)
        if frame.dtype != np.uint8:
            frame = np.clip(frame, 0, 255).astype(np.uint8)
        return np.ascontiguousarray(frame)

    @property
    def clock(self) -> Callable[[], float]:
        """The budget's clock (seconds): what each step is costed on."""
        return self.budget.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.budget.clock = clock

    def wall_clock(self) -> float:
        """Now on the budget's wall clock."""
        return self.budget.wall_clock()

    def decode(
        self,
        frame: MatLike | None,
        regions: list[tuple[int, int, int, int]] | None = None,
        started: bool = False,
        card: Callable[[], FoundCard | None] | None = None,
        retries: bool = True,
        whole: bool = True,
    ) -> list[Decoded]:
        """Every code read in the frame, left to right. `regions` (from `find_code_regions`) are searched for
        when not given, and so is the card then. `started`: the budget was started already (the live loop starts
        it as the frame arrives).
        `card`: the card found on its own (`measure.find_card`), asked for once the first pass has read nothing in
        a frame too large to retry whole; it is retried first when no region is on it (`measure.with_card`: a
        checked cloth can make one region of the whole picture). `retries`: False for the first passes alone (the
        live loop whose retries a worker process does). `whole`: False to leave out the whole frame's first passes
        (zxing-cpp, the dark frame's stretch) where they read nothing in this frame already. Never raises on a
        frame: a decoder that fails on it counts as reading nothing."""
        if not self.can_decode or frame is None or frame.size == 0 or min(frame.shape[:2]) < 2:
            return []
        if not started:
            self.budget.start()
        self.trace = []
        self.skipped = self.wall_limited = False
        gray = self.grey(frame)
        found: list[Decoded] = []
        if "zxing" in self.stages and whole:
            found = self._zxing_read(gray, "zxing")
        if not retries:  # the dark frame's stretch is a retry too: the worker's, with the rest
            return self._sorted(found)
        if not found and whole and "dark" in self.stages and self._cv2 is not None:
            lit = self.lit(gray)
            if lit is not None:
                found = self._zxing_read(lit, "dark")
        if self._cv2 is None:  # no image tools for the retries: ZBar on the whole frame is all that is left
            if not found and "pyzbar" in self.stages:
                found = self._pyzbar_read(gray, "pyzbar")
            return self._sorted(found)
        areas = self._areas(gray, regions, card)
        for x, y, w, h in areas:
            if any(x <= cx <= x + w and y <= cy <= y + h for cx, cy in (d.centre for d in found)):
                continue  # this region's code is read already
            crop = gray[y : y + h, x : x + w]
            if min(crop.shape) < 8:
                continue
            found += self._retry(crop, (x, y))
        if not found and "opencv" in self.stages:
            if self.budget.fits("opencv", gray.size):
                found = self._opencv_read(gray)
            else:
                self._skip("opencv")
        return self._sorted(found)

    def _areas(
        self,
        gray: MatLike,
        regions: list[tuple[int, int, int, int]] | None,
        card: Callable[[], FoundCard | None] | None,
    ) -> list[tuple[int, int, int, int]]:
        """Where the retries work: the whole frame when it is small (a photo), else the first regions, the card
        found on its own first among them when the budget has room for the search."""
        if max(gray.shape) <= WHOLE_FRAME_RETRY:
            return [(0, 0, gray.shape[1], gray.shape[0])]
        from assistant.scanner.measure import find_card, find_code_regions, with_card

        if regions is None:
            regions = find_code_regions(gray, limit=MAX_REGIONS)
            card = card or (lambda: find_card(gray))
        if card is not None and self.budget.fits("card", gray.size):  # the search is a step of the frame
            started_at, wall_started = self.budget.mark()
            if self.on_step is not None:
                self.on_step("card", "card")
            regions = with_card(regions, card())
            self.budget.learn("card", gray.size, started_at, wall_started)
        elif card is not None:
            self._skip("card")
        return list(regions[:MAX_REGIONS])

    def whole_look(self, gray: MatLike) -> list[Decoded]:
        """ZBar on the whole greyscale frame (the background stage's look where the regions had nothing): the
        region search may miss a code that ZBar, scanning the whole frame, reads. Nothing without ZBar."""
        if self._pyzbar is None:
            return []
        return self._pyzbar_read(gray, "whole")

    def first_pass(self, gray: MatLike, stage: str = "zxing") -> list[Decoded]:
        """zxing-cpp alone on a greyscale image (for the background stage's own image work), its reads as of
        `stage`."""
        return self._zxing_call(gray, stage, (0, 0), 1.0)

    def again(self, crop: MatLike, stage: str) -> list[Decoded]:
        """`stage` alone on a crop (one of the cascade's stages, or "whole": ZBar), when the frame's budget has room
        for it: one step, a millisecond or two, to read again a code that stage read on another frame
        (`LiveScanner._again`). WeChat's detector, tens of milliseconds on a crop, is not run there: zxing-cpp's first
        pass reads it again instead."""
        gray = self.grey(crop)
        step = "pyzbar" if stage in ("pyzbar", "pyzbar-sharpen", "whole") else "zxing"
        pixels = gray.size * self._SCALE.get(stage, 1)
        if not self.budget.fits(step, pixels) or (step == "zxing" and not self.budget.fits("transform", pixels)):
            return []
        if (stage in REGION_STAGES or stage in WHOLE_STAGES) and self._cv2 is not None:
            started, wall_started = self.budget.mark()
            if self.on_step is not None:
                self.on_step("transform", stage)
            image, scale, options = self._prepare(stage, gray)
            self.budget.learn("transform", pixels, started, wall_started)
            if stage.startswith("pyzbar"):
                return self._pyzbar_read(image, stage)
            return self._zxing_read(image, stage, (0, 0), scale, **options)
        if stage in ("pyzbar", "whole"):
            return self._pyzbar_read(gray, stage)
        if stage == "dark" and self._cv2 is not None:
            lit = self.lit(gray)
            return self._zxing_read(gray if lit is None else lit, stage)
        return self._zxing_read(gray, "zxing")

    # The stages.

    def _skip(self, stage: str, how: str = "skipped") -> None:
        self.trace.append((stage, how))
        self.skipped = True
        self.wall_limited |= self.budget.capped

    #: How many pixels each retry stage decodes, as a multiple of its region's.
    _SCALE = {"upscale": 4, "upscale-global": 4, "clahe-upscale": 4, "whole-upscale": 4, "whole-clahe-upscale": 4}

    def whole_retry(self, gray: MatLike, stage: str) -> list[Decoded]:
        """One of `WHOLE_STAGES` on the whole greyscale frame, without a deadline (a still picture's job): its reads
        in the frame's pixels, none when `stage` is not among this cascade's stages, OpenCV or zxing-cpp is
        missing, or an upscale's frame is over `WHOLE_UPSCALE_SIDE` across. Raises ValueError for a stage that is
        not one of `WHOLE_STAGES`."""
        if stage not in WHOLE_STAGES:
            raise ValueError(f"not a whole-frame retry: {stage}")
        if stage not in self.stages or self._cv2 is None or min(gray.shape[:2]) < 8:
            return []
        if stage == "whole-wechat":
            return self._wechat_read(gray)
        if self._zxing is None:
            return []
        if self._too_large(stage, gray):
            return []
        self.trace.append((stage, "ran"))
        image, scale, options = self._prepare(stage, gray)
        return self._zxing_read(image, stage, (0, 0), scale, **options)

    def symbol_found(self, gray: MatLike, stage: str | None = None) -> bool:
        """True when zxing-cpp's detector finds a QR symbol in `gray` (greyscale), or in `stage`'s image of it (a
        retry stage's, such as "upscale": twice its size), read or not: with `return_errors` it also gives a symbol
        whose finder patterns, grid and format it found and whose error correction then failed (a code too damaged,
        glared or small to read), which no table's texture gave: on none of 400 tuning empty tables at 720p and
        1080p halved (seeds from 105600) nor 200 at 640 by 480 (from 105100). False where zxing-cpp is missing or
        refuses the image, or `stage` would not work on it (an upscale's image too large: `_too_large`). About 0.4 ms
        of CPU on a 720p frame halved, 0.8 ms on a 1080p one."""
        zxing = self._zxing
        if zxing is None:
            return False
        if stage is not None and self._too_large(stage, gray):
            return False
        image = gray if stage is None else self._prepare(stage, gray)[0]
        try:
            found = zxing.read_barcodes(image, formats=zxing.BarcodeFormat.QRCode, return_errors=True, try_invert=False)
        except (RuntimeError, ValueError, TypeError):
            return False
        return bool(found)

    def _retry(self, crop: MatLike, origin: tuple[int, int]) -> list[Decoded]:
        for stage in self.stages:
            if stage not in REGION_STAGES or self._too_large(stage, crop):
                continue
            if stage.startswith("pyzbar") and crop.size > MAX_ZBAR_AREA:
                continue
            if stage == "invert" and self.invert:
                continue  # zxing-cpp's every pass tried the inverted image already
            pixels = crop.size * self._SCALE.get(stage, 1)
            step = "pyzbar" if stage.startswith("pyzbar") else "zxing"
            # Both the image work and the decode must fit before the stage starts.
            if (stage != "pyzbar" and not self.budget.fits("transform", pixels)) or not self.budget.fits(step, pixels):
                self._skip(stage)
                continue
            started, wall_started = self.budget.mark()
            if self.on_step is not None:
                self.on_step("transform", stage)
            image, scale, options = self._prepare(stage, crop)
            self.budget.learn("transform", pixels, started, wall_started)
            if not self.budget.fits(step, pixels):  # the image work took longer than it should: stop here
                self._skip(stage, "cut")
                continue
            self.trace.append((stage, "ran"))
            if step == "pyzbar":
                found = self._pyzbar_read(image, stage, origin)
            else:
                found = self._zxing_read(image, stage, origin, scale, **options)
            if found:
                return found
        return []

    def _too_large(self, stage: str, image: MatLike) -> bool:
        """True when `stage` upscales (`_SCALE`) and `image` is too large for it: a region over `MAX_UPSCALE_SIDE`
        across, a whole frame over `WHOLE_UPSCALE_SIDE`."""
        side = WHOLE_UPSCALE_SIDE if stage in WHOLE_STAGES else MAX_UPSCALE_SIDE
        return stage in self._SCALE and max(image.shape[:2]) > side

    def _prepare(self, stage: str, crop: MatLike) -> tuple[MatLike, float, dict[str, Any]]:
        """The image a retry stage decodes, its scale against the crop, and zxing-cpp's options for it."""
        cv2 = self._cv2
        stage = WHOLE_TWINS.get(stage, stage)
        if stage == "sharpen":
            return self._sharpen(crop, 1.0, 1.5), 1.0, {}
        if stage == "stretch":
            return self._stretch(crop), 1.0, {}
        if stage == "invert":
            return cv2.bitwise_not(crop), 1.0, {}
        if stage == "upscale":
            return cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC), 2.0, {"try_downscale": False}
        if stage == "upscale-global":
            big = cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
            return big, 2.0, {"binarizer": "GlobalHistogram"}
        if stage == "clahe-upscale":
            big = cv2.resize(self._equalised(crop), None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
            return big, 2.0, {"try_downscale": False}
        if stage == "sharpen-more":
            return self._sharpen(crop, 1.5, 2.0), 1.0, {}
        if stage == "whole-global":
            return crop, 1.0, {"binarizer": "GlobalHistogram"}
        if stage == "whole-blur":
            return cv2.GaussianBlur(crop, (0, 0), BLUR_SIGMA), 1.0, {}
        if stage == "whole-clahe":
            return self._equalised(crop), 1.0, {}
        if stage == "pyzbar-sharpen":
            return self._sharpen(crop, 1.0, 1.5), 1.0, {}
        return crop, 1.0, {}

    def _zxing_read(
        self, gray: MatLike, stage: str, origin: tuple[int, int] = (0, 0), scale: float = 1.0, **options: Any
    ) -> list[Decoded]:
        zxing = self._zxing
        if zxing is None:
            return []
        if stage in ("zxing", "dark"):  # the first passes: always run, but counted and learnt from
            self.trace.append((stage, "ran"))
        started, wall_started = self.budget.mark()
        try:
            return self._zxing_call(gray, stage, origin, scale, **options)
        finally:
            self.budget.learn("zxing", gray.size, started, wall_started)

    def _zxing_call(
        self, gray: MatLike, stage: str, origin: tuple[int, int], scale: float, **options: Any
    ) -> list[Decoded]:
        zxing = self._zxing
        if self.on_step is not None:
            self.on_step("zxing", stage)
        if "binarizer" in options:
            options["binarizer"] = getattr(zxing.Binarizer, options["binarizer"])
        try:
            results = zxing.read_barcodes(
                gray,
                formats=zxing.BarcodeFormat.QRCode,
                text_mode=zxing.TextMode.Plain,
                try_invert=self.invert,
                **options,
            )
        except (RuntimeError, ValueError, TypeError):  # a frame it cannot take: nothing read
            return []
        out = []
        for result in results:
            if not getattr(result, "valid", True):
                continue
            p = result.position
            xs = [p.top_left.x, p.top_right.x, p.bottom_right.x, p.bottom_left.x]
            ys = [p.top_left.y, p.top_right.y, p.bottom_right.y, p.bottom_left.y]
            raw = bytes(result.bytes)
            out.append(Decoded(payload_text(raw, result.text), raw, _box(xs, ys, origin, scale), stage))
        return out

    def _pyzbar_read(self, gray: MatLike, stage: str, origin: tuple[int, int] = (0, 0)) -> list[Decoded]:
        pyzbar = self._pyzbar
        if pyzbar is None:
            return []
        started, wall_started = self.budget.mark()
        try:
            return self._pyzbar_call(gray, stage, origin)
        finally:
            self.budget.learn("pyzbar", gray.size, started, wall_started)

    def _pyzbar_call(self, gray: MatLike, stage: str, origin: tuple[int, int]) -> list[Decoded]:
        pyzbar = self._pyzbar
        if self.on_step is not None:
            self.on_step("pyzbar", stage)
        try:
            results = pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE])
        except Exception:  # pyzbar raises ValueError (bad orientation) and ctypes errors on odd
            return []  # frames; whatever it raises, ZBar read nothing we can trust in this frame
        out = []
        for result in results:
            left, top, width, height = result.rect
            raw = bytes(result.data)
            box = (origin[0] + left, origin[1] + top, width, height)
            out.append(Decoded(payload_text(raw, None), raw, box, stage))
        return out

    def _opencv_read(self, gray: MatLike) -> list[Decoded]:
        detector = self._opencv_detector
        if detector is None:
            return []
        try:
            ok, texts, points, _ = detector.detectAndDecodeMulti(gray)
        except Exception:  # OpenCV raises cv2.error, and UnicodeDecodeError on non-UTF-8 payloads
            return []
        if not ok or points is None:
            return []
        out = []
        for text, quad in zip(texts, points):
            if text:
                out.append(Decoded(text, text.encode("utf-8"), _box(quad[:, 0], quad[:, 1], (0, 0), 1.0), "opencv"))
        return out

    def _wechat_read(self, gray: MatLike) -> list[Decoded]:
        """OpenCV's WeChat detector on the whole frame, made at its first use: its reads in the frame's pixels; none
        where the OpenCV installed has no `wechat_qrcode` module, or the detector fails."""
        if self._wechat is None:
            make = getattr(self._cv2, "wechat_qrcode_WeChatQRCode", None)
            if make is None:
                return []
            self._wechat = make()
        self.trace.append(("whole-wechat", "ran"))
        try:
            texts, quads = self._wechat.detectAndDecode(gray)
        except Exception:  # cv2.error; UnicodeDecodeError from the binding on a payload that is no UTF-8
            return []
        out = []
        for text, quad in zip(texts, quads):
            if text:
                corners = self._np.asarray(quad).reshape(-1, 2)
                box = _box(corners[:, 0], corners[:, 1], (0, 0), 1.0)
                out.append(Decoded(text, text.encode("utf-8", "replace"), box, "whole-wechat"))
        return self._sorted(out)

    # Image helpers.

    def lit(self, gray: MatLike) -> MatLike | None:
        """The "dark" stage's image of a greyscale frame: a dark frame's (its 99th percentile under `DARK_LEVEL`) grey
        levels stretched (`_stretch`); a dim one's (its median under `DIM_LEVEL`) lifted by a gamma of 0.5, which
        brings grey level 4 to 32 and 16 to 64 whatever the brightest part of the frame is; None for any other
        frame."""
        from assistant.scanner.measure import percentiles

        low, median, high = percentiles(gray, 1, 50, 99)
        if high < DARK_LEVEL:
            return self._stretch(gray, (low, high))
        if median >= DIM_LEVEL:
            return None
        if self._lift is None:
            np = self._np
            self._lift = (255 * np.sqrt(np.arange(256) / 255) + 0.5).astype(np.uint8)
        lifted: MatLike = self._cv2.LUT(gray, self._lift)
        return lifted

    def _stretch(self, gray: MatLike, levels: tuple[float, float] | None = None) -> MatLike:
        """Grey levels stretched so the 1st and 99th percentiles (`levels`, when measured already) become black and
        white."""
        from assistant.scanner.measure import percentiles

        np = self._np
        low, high = levels or percentiles(gray, 1, 99)
        if high - low < 4:
            return gray
        lut = np.clip((np.arange(256, dtype=np.float32) - low) * (255.0 / (high - low)), 0, 255).astype(np.uint8)
        return self._cv2.LUT(gray, lut)

    def _equalised(self, gray: MatLike) -> MatLike:
        """Local contrast equalisation (CLAHE, clip limit 2, 8 by 8 tiles)."""
        if self._clahe is None:
            self._clahe = self._cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8))
        equalised: MatLike = self._clahe.apply(gray)
        return equalised

    def _sharpen(self, gray: MatLike, amount: float, sigma: float) -> MatLike:
        """An unsharp mask: the picture plus `amount` times its difference from a blurred copy."""
        cv2 = self._cv2
        return cv2.addWeighted(gray, 1 + amount, cv2.GaussianBlur(gray, (0, 0), sigma), -amount, 0)

    @staticmethod
    def _sorted(found: list[Decoded]) -> list[Decoded]:
        unique: dict[bytes, Decoded] = {}
        for decoded in found:
            unique.setdefault(decoded.raw, decoded)
        return sorted(unique.values(), key=lambda d: d.centre)


def payload_text(raw: bytes, text: str | None) -> str:
    """The payload as text: UTF-8 when the bytes are UTF-8; zxing-cpp's own reading when it found the code's
    character set (such as Shift JIS, common in Japanese codes); otherwise UTF-8 with replacement characters.

    zxing-cpp falls back to ISO-8859-1 for bytes that are neither, which turns stray bytes into plausible-looking
    letters (mojibake); a reading equal to that fallback is therefore not taken."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if text and text != raw.decode("latin-1"):
        return text
    return raw.decode("utf-8", errors="replace")


def _box(xs: Sequence[float], ys: Sequence[float], origin: tuple[int, int], scale: float) -> tuple[int, int, int, int]:
    x0, x1 = min(xs) / scale, max(xs) / scale
    y0, y1 = min(ys) / scale, max(ys) / scale
    return int(origin[0] + x0), int(origin[1] + y0), max(1, int(x1 - x0)), max(1, int(y1 - y0))
