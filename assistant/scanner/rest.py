"""The watch over a picture at rest: what each frame of a still picture with nothing new to find gets.

A picture is at rest once it is still and there is nothing more to find in it: a table the background stage's look
found no sign of a code in (an empty table), or one whose every code read has been announced while it lay there (a
card read and left lying: before, each of its frames got zxing-cpp's first pass and more, 1.07 to 1.40 times raw
zxing-cpp decoding every frame with the worker process and 2.2 to 2.7 times with the thread fallback, for as long
as it lay there). The same rule for both stages, here, asked by the live loop (`live.LiveScanner._idle`):

- the motion check on one frame in `MOTION_EVERY` (`LYING_STILL` for a card read lying still) and on every frame
  given the first pass, on a glance (`Glance`: one row of samples in every second block row of the motion
  measure's, `GLANCE_EVERY`, a tenth of the rows the moving picture's coarse copy reads): a card brought in, or the one
  lying there taken away, moves the glance, and the frame is then checked as a moving picture's is, which wakes it
  (a frame or two later) to the whole frame path;
- zxing-cpp's first pass on the whole frame on one frame in `FIRST_PASS_EVERY` (`LYING_STILL` for a card read lying
  still; for frames of `PIXELS`, stretched in proportion to a larger frame's pixels: one in 27 at 1920 by 1080): a
  card brought in too small to move the picture is read by those frames, 0.4 s apart; the others are left alone (no
  budget begun, no look at the background stage: `live.LiveScanner._resting_left`);
- a frame at rest is no evidence that a card read has gone (`resting_looked`): the picture has not moved, so the
  card lying there has not left, however often the first pass misses it (the worker's retries may have read it).

A card lying still is announced once (`repeat_seconds`): its reads at rest say nothing new. A player who wants it
said again while it lies there sets the settings file's `scan_repeat` to the seconds between (as a repeat was every
10 s before), or for one run the environment variable `REPEAT_SETTING`, which wins over the file when set.
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, NamedTuple

from assistant.scanner.measure import MOTION_SIZE, moved

if TYPE_CHECKING:
    from cv2.typing import MatLike


class Watch(NamedTuple):
    """The spacing of a picture at rest's frames: the glance (motion check) on one frame in `glance_every`, and
    zxing-cpp's first pass on one in `first_pass_every` (for frames of `PIXELS`), which is glanced at too."""

    glance_every: int
    first_pass_every: int


#: One frame in this many (for frames of `PIXELS`; one in 27 at 1920 by 1080) gets the first pass in a picture at
#: rest: the first pass reads a card there only if one came in too small to move the picture, and 0.4 s is soon
#: enough for it. With one in 6, an empty table at 720p cost 0.6 times raw zxing-cpp decoding every frame (its
#: steady state most of it: each first pass is a whole raw decode); the goal is half.
FIRST_PASS_EVERY = 12
PIXELS = 1280 * 720
#: The motion check runs on one frame in this many of a picture at rest, and on every frame given the first pass: a
#: card brought in wakes the picture a frame later at most. Every frame's check (the frame sampled, shrunk and
#: compared twice) cost an idle empty table at 720p about as much CPU as its first passes, and on a cluttered table,
#: where raw zxing-cpp is quick, a tenth of raw zxing-cpp decoding every frame.
MOTION_EVERY = 2
#: A card read, announced and lying still since (the picture unchanged since that read, no glance moved) is watched
#: more sparsely than an empty table: the glance (the motion check) on one frame in `LYING_STILL.glance_every`, and
#: the first pass on one in `LYING_STILL.first_pass_every` (a second; stretched as `FIRST_PASS_EVERY` is: one in 68
#: at 1920 by 1080); a card moved or taken away is glanced at within two frames (66 ms at 30 frames a second; one
#: with an empty table's `MOTION_EVERY`), and its first passes read nothing new (its code has been said). The table
#: with no card read keeps `MOTION_EVERY` and `FIRST_PASS_EVERY`, so a card put on it is read as soon as before.
#: Why: a card lying still at 720p cost 0.21 to 0.32 times raw zxing-cpp decoding every frame (issue 105's goal 0.2),
#: of which, profiled on tuning seeds from 99100, the first pass on one frame in 12 was 0.14 ms a frame, the glance
#: on one in 2 0.065 ms, the frame check 0.04 ms and the loop's wake-up 0.08 to 0.09 ms; one glance in 3 and one first
#: pass in 18 came to 0.22 of raw in that profile. On evaluation seeds from 99730 (one run, quiet and with both cores
#: busy): 0.197 to 0.205 of raw with the thread stage, 0.201 to 0.216 with the worker process (whose own CPU is 0.003
#: of raw: the 0.22 to 0.24 measured first was the benchmark's first condition and its clock ticks); 1080p 0.10 to
#: 0.12 (docs/benchmarks.md, issue 105). On fresh seeds from 108500 the same code gave 0.16 to 0.22, so the goal held
#: by luck: a first pass (with its grey conversion and glance, 1.8 ms at 720p) was half the frame path's time at rest
#: and the frames left alone a fifth (tuning seeds 99100 and 99103: 0.20 to 0.25 ms a frame). One first pass a second
#: (30) took that to 0.16 to 0.18 ms; one glance in 4 as well to 0.14 to 0.16, not made: a card taken away would be
#: seen a frame later. Its price: a second card too small to move the picture is read up to a second after it comes
#: (0.6 s before), and a card said again on the player's asking (`repeat_seconds`) up to a second late.
LYING_STILL = Watch(glance_every=3, first_pass_every=30)
#: A new still picture with nothing read in it, while the background stage's look at it (signs of a code, or none) has
#: not come back, gets the first pass on one frame in this many (the first frame after the one it came to rest on,
#: then every third), the others the motion check alone; with either stage, for `live.IDLE_AFTER` frames at most. Its
#: first frame had the whole path and read nothing, and the next ones differ from it by the sensor's noise alone; a
#: card brought in moves the picture, and the frames that move get the whole path. Before, each of them got the first
#: pass (with the thread fallback, every one from its ninth on the whole path with its retries): with both cores busy
#: the niced look came back a third of a second late, and a cluttered empty table at 720p cost 0.53 (the worker) and
#: 0.62 (the thread fallback) times raw zxing-cpp decoding every frame, the thread fallback's p99 2.44 times raw
#: zxing-cpp's. A stage starved longer than that is stood in for by the frame path (`live.STAND_IN_AFTER`).
WAIT_EVERY = 3
#: The glance (`glance`) reads one row of samples in every `GLANCE_EVERY`th of the motion measure's block rows
#: (`measure.MOTION_SIZE`): `GLANCE_ROWS` rows, the same samples a row as the coarse copy. Its cost is memory: each
#: row read of a frame the caches no longer hold cost about 4 microseconds at 720p (36 rows 0.15 ms cold against
#: 0.02 warm), the largest part of a glance. Motion is a share of its blocks (`measure.moved`), and a card brought in
#: or taken away spans many block rows, so every second row sees it as every row did; a still picture's noise per
#: block is the same (its five samples), 9 grey levels at most against `measure.MOTION_STEP` 12. One row a block
#: (36) until 30 November.
GLANCE_EVERY = 2
GLANCE_ROWS = MOTION_SIZE[1] // GLANCE_EVERY
#: The environment variable that asks for a card lying still to be said again: seconds between (0: said once, until it
#: leaves the view and comes back); unset, empty or not a number: the settings file's `scan_repeat` holds.
REPEAT_SETTING = "TABLE_ASSISTANT_SCAN_REPEAT"


def scale(shape: tuple[int, ...]) -> float:
    """How much larger than `PIXELS` a frame of `shape` is (at least 1): its rest's frames are that much further
    apart, so a table at rest costs the same pixels a second at any resolution."""
    return max(1.0, shape[0] * shape[1] / PIXELS)


def watch(lying_still: bool) -> Watch:
    """The spacing of a picture at rest: `LYING_STILL` for a card read, announced and lying still since, else an
    empty table's (`MOTION_EVERY`, `FIRST_PASS_EVERY`)."""
    return LYING_STILL if lying_still else Watch(MOTION_EVERY, FIRST_PASS_EVERY)


def lying_still(settled: bool, glance: Glance) -> bool:
    """True while a card read and announced lies still (`LYING_STILL`): `settled`, the picture in view unchanged
    since every code read in it was announced, and no `glance` at it moved or changed since."""
    return settled and not glance.changes


def resting_frame(still: int, shape: tuple[int, ...], lying_still: bool = False) -> str:
    """What frame `still` of a picture at rest (frames since it came to rest) gets: "first pass" or "skip";
    `lying_still`: a card read lying still since (`LYING_STILL`)."""
    return "first pass" if still % round(watch(lying_still).first_pass_every * scale(shape)) == 0 else "skip"


def motion_unchecked(still: int, shape: tuple[int, ...], lying_still: bool = False) -> bool:
    """True when frame `still` of a picture at rest is left without the motion check: not one the first pass is due
    on, and one in `MOTION_EVERY` (one in `LYING_STILL.glance_every` for a card read lying still) checked. The next
    check compares with the last frame checked, a few frames back, so a card coming in moves it more, never less;
    the still picture's noise does not add up."""
    spacing = watch(lying_still)
    return bool(still % spacing.glance_every and still % round(spacing.first_pass_every * scale(shape)))


def next_checked(still: int, shape: tuple[int, ...], lying_still: bool = False) -> tuple[int, bool]:
    """The first frame after frame `still` of a picture at rest that gets the motion check or the first pass
    (`motion_unchecked` false), and whether the first pass is due on it (`resting_frame`): the frames before it are
    left alone whatever they show, so the live loop leaves them, and glances at that one, without asking again
    (`live.LiveScanner._resting_left`)."""
    spacing = watch(lying_still)
    first_pass = round(spacing.first_pass_every * scale(shape))
    glanced = (still // spacing.glance_every + 1) * spacing.glance_every
    passed = (still // first_pass + 1) * first_pass
    return min(glanced, passed), passed <= glanced


def glance(image: MatLike) -> MatLike:
    """A picture at rest's motion copy: `measure.MOTION_SIZE` wide and `GLANCE_ROWS` high, from one row in every
    `GLANCE_EVERY`th block's height (the middle one) of the samples the moving picture's coarse copy takes (every
    fourth pixel of the green plane at 720p, every sixth at 1080p). Its cost is the rows it reads: the frame's rows
    are no longer in the caches by the time it is checked, and the coarse copy's 180 rows of 720 cost 0.2 ms a frame
    checked, the glance's 36 rows (one a block) 0.09 to 0.15 (CPU, 720p, cold; at 1080p 0.23 and 0.1). On the
    evaluation camera a still picture's noise changes a block of it by 11 grey levels at most (the coarse copy's by
    6), under `measure.MOTION_STEP` (tuning seeds 98600 to 98615, four frames each, 720p and 1080p); 9 at most on
    the 18 rows (seeds from 98600, 8 shots of a card, a plain and a cluttered table, three frames each)."""
    import cv2

    step = max(4, round(4 * image.shape[1] / 1280))
    rows = max(1, image.shape[0] // MOTION_SIZE[1]) * GLANCE_EVERY
    plane = image[rows // 2 :: rows, ::step, 1] if image.ndim == 3 else image[rows // 2 :: rows, ::step]
    return cv2.resize(plane[:GLANCE_ROWS], (MOTION_SIZE[0], GLANCE_ROWS), interpolation=cv2.INTER_AREA)


class Glance:
    """The motion check of a picture at rest, on its glances (`glance`): the last one checked and the first of its
    rest (a card creeping in, too slowly for two checks in a row to differ, moves it against the first). A glance
    that moved is no verdict: the frame is then checked as a moving picture's is (its coarse copy against the last
    one, and against the still picture's first), so the glance can wake the picture no more often than before, and
    miss no motion that moves its blocks. One that moved against the first alone (a card creeping in) is no motion
    between frames: the frame is checked in full against the still picture's first only (the last coarse copy may
    be many frames old, and the creep since then would look like a jump)."""

    def __init__(self) -> None:
        self.last: MatLike | None = None
        self.first: MatLike | None = None
        self.changes = 0
        """Glances of this picture that moved or changed against one before (a card lying still is then watched
        as an empty table is, `LYING_STILL`)."""

    def forget(self) -> None:
        """A new picture: its rest begins anew."""
        self.last = self.first = None
        self.changes = 0

    def check(self, image: MatLike) -> str:
        """The glance of `image` against the last one checked and the first of the rest: "still" (neither moved),
        "changed" (the last did not move, the first did: a card creeping in), or "moved" (the last moved, or there is
        none to compare with yet); the frame is then checked in full, where "changed" is no motion between frames."""
        copy = glance(image)
        last, self.last = self.last, copy
        if last is None or self.first is None or last.shape != copy.shape:
            self.first = copy
            return "moved"
        verdict = "moved" if moved(last, copy) else "changed" if moved(self.first, copy) else "still"
        self.changes += verdict != "still"
        return verdict

    def confirmed(self) -> None:
        """The frame whose glance moved was checked in full and found still (the sensor's noise, a shadow): its
        glance is the first of the rest from here."""
        self.first = self.last


def waiting_frame(still: int) -> str:
    """What frame `still` of a new still picture whose look has not come back gets (`WAIT_EVERY`): "first pass" or
    "skip"."""
    return "first pass" if still % WAIT_EVERY == 1 else "skip"


def repeat_seconds(setting: float = 0, environ: dict[str, str] | None = None) -> float:
    """Seconds after which a card lying still in view is said again (infinity: never): `REPEAT_SETTING` when it is a
    number, else `setting` (the settings file's `scan_repeat`); 0 or less: never."""
    value = (os.environ if environ is None else environ).get(REPEAT_SETTING, "").strip()
    try:
        seconds = float(value)
    except ValueError:
        seconds = float(setting)
    return seconds if math.isfinite(seconds) and seconds > 0 else math.inf
