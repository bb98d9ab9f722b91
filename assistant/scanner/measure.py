"""Measuring a frame: where something code-like is, how big, how sharp and how bright.

Used twice: the decoder cascade retries only inside code-like regions (cheap on a 720p frame), and the aiming
guidance (`assistant.core.scanning.aiming`) turns the measurements into a cue. A QR code is a dense patch of edges
running
both across and down; wood grain, lines of text and card borders have edges mostly one way, so requiring both
directions keeps the table and the card's pattern out. A card far away on a busy table (a dense grain, a checked
cloth) defeats that: its code is too small to show a module grid, and the table's pattern is taken for the code, so
the card is also looked for on its own, as its white sticker, the brightest compact patch on the table
(`find_card`). numpy and OpenCV are imported inside the functions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from assistant.core.scanning.aiming import FrameView, inside

if TYPE_CHECKING:
    import numpy as np
    from cv2.typing import MatLike
    from numpy.typing import NDArray

#: Regions are searched on a frame shrunk to at most this many pixels across (fast, and plenty for a code).
SEARCH_WIDTH = 320
#: The smallest region kept, in search pixels (a sticker 1.2 m away is still about 12 of them).
MIN_SEARCH_SIDE = 7
#: A region whose grey levels spread (5th to 95th percentile, on the contrast-stretched search picture) less than
#: this share of the starkest region's goes after the stark ones. Set on the evaluation camera's guided frames
#: (not blind): there the wood grain's regions spread 92 to 144 grey levels where a code half off the picture
#: spreads 241 to 244; a code blurred by motion (57 to 72) can go after the card's own pieces. On the tuning set
#: it changes the cue of none of 35 unread frames of every kind.
STARK_SHARE = 0.6
#: How many of the largest regions are ranked by how stark they are (a smaller one is never returned).
STARK_AMONG = 6


def find_code_regions(
    gray: MatLike, limit: int = 3, shapes: list[float] | None = None, search_width: int = SEARCH_WIDTH
) -> list[tuple[int, int, int, int]]:
    """Up to `limit` code-like regions of a greyscale frame, as (x, y, width, height) in frame pixels, most
    code-like first. Empty when nothing in the frame looks like a code. `shapes`, when given, receives each
    region's squareness (shorter over longer side of the smallest rectangle around it at any angle)."""
    import cv2
    import numpy as np

    height, width = gray.shape[:2]
    scale = min(1.0, search_width / width)
    small = cv2.resize(
        gray, (max(1, round(width * scale)), max(1, round(height * scale))), interpolation=cv2.INTER_AREA
    )
    if min(small.shape) < MIN_SEARCH_SIDE:
        return []
    # Stretch contrast first, so a code in a dark frame is found as readily as in a bright one.
    low, high = percentiles(small, 1, 99)
    if high - low < 8:
        return []
    lut = np.clip((np.arange(256, dtype=np.float32) - low) * (255.0 / (high - low)), 0, 255).astype(np.uint8)
    small = cv2.LUT(small, lut)
    gx = np.abs(cv2.Sobel(small, cv2.CV_16S, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(small, cv2.CV_16S, 0, 1, ksize=3))
    edges_x = (gx > 120).astype(np.float32)
    edges_y = (gy > 120).astype(np.float32)
    box = (5, 5)
    both = np.minimum(cv2.blur(edges_x, box), cv2.blur(edges_y, box))
    mask: MatLike = (both > 0.18).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    found = []
    for index in range(1, count):
        x, y, w, h, area = stats[index]
        if min(w, h) < MIN_SEARCH_SIDE or max(w, h) > 3 * min(w, h) or area < 0.35 * w * h:
            continue
        found.append((int(area), int(x), int(y), int(w), int(h), index))
    # Largest first, but among the largest few a region far less stark than the starkest one (the spread of its
    # grey levels under `STARK_SHARE` of that one's) goes after every stark one: a code is black on white, a
    # table's grain is not.
    found = sorted(found, reverse=True)[: max(limit, STARK_AMONG)]
    spreads = [float(np.ptp(np.percentile(small[y : y + h, x : x + w], (5, 95)))) for _, x, y, w, h, _ in found]
    stark = STARK_SHARE * max(spreads, default=0.0)
    found = [f for f, spread in sorted(zip(found, spreads), key=lambda pair: pair[1] < stark)]
    regions = []
    for _, x, y, w, h, index in found[:limit]:
        if shapes is not None:
            # The outline's corners have the hull of every pixel of the region, at a fraction of the points.
            outline, _ = cv2.findContours(
                (labels[y : y + h, x : x + w] == index).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
            )
            (_, _), (a, b), _ = cv2.minAreaRect(np.concatenate(outline))
            shapes.append(float(min(a, b) / max(a, b, 1e-6)))
        pad = 0.15 * max(w, h)  # the density map shrinks the code a little at its edges: give it back
        x0, y0 = max(0.0, (x - pad) / scale), max(0.0, (y - pad) / scale)
        x1, y1 = min(float(width), (x + w + pad) / scale), min(float(height), (y + h + pad) / scale)
        regions.append((int(x0), int(y0), int(x1 - x0), int(y1 - y0)))
    return regions


#: The card is searched for on a frame shrunk to this many pixels across (a sticker 1.4 m away is still 19 of them).
CARD_SEARCH_WIDTH = 640
#: The least area of a found card, in card-search pixels (a sticker some 4 m away).
MIN_CARD_AREA = 40
#: A found card's shorter side is at least this share of its longer one (a card tilted a little is foreshortened),
#: or down to the second share if its code's black shows in it (`CARD_DARK`): a card turned far away, or what the
#: picture's edge leaves of one (a strip along the edge).
CARD_SHAPE, NARROW_CARD_SHAPE = 0.55, 0.25
#: A card narrower than `CARD_SHAPE`, or cut off by the picture's edge, must show its code's black: its darkest 5 %
#: under this share of the level that picks out its paper. On the tuning set: 0.05 at most on sharp cards, up to
#: 0.49 blurred and 0.59 a metre away (a turned card's modules are foreshortened to a grey); a pale streak of a wood
#: table along the picture's edge, 0.73 and more.
CARD_DARK = 0.65
#: A card facing the camera is this much narrower than long (63 by 88 mm): a card turned away keeps its length, so
#: its width is measured as at least this share of it.
FACING_SHAPE = 63 / 88
#: The most of a found card's outline that may be bright: the code inside a sticker is not (its dark modules, or far
#: away their grey blur), leaving 43 to 70 % of it bright on the tuning frames.
MAX_CARD_LIT = 0.85
#: A patch bright all through is still the card when it fills this much of the smallest rectangle around it and is
#: this many card-search pixels across at least (a card within 1.4 m): a card is a rectangle, its code washed out by
#: the exposure far away over a dark table, where a reflection is an ellipse (under 0.8).
CARD_RECTANGLE, CARD_RECTANGLE_SIDE = 0.9, 20
#: A card whose outline a thumb across the sticker's margin opens (closed by its hull) is taken only when no whole
#: one is found and when its shorter side is at least this many frame pixels, a card near enough to read
#: (`aiming.Thresholds.min_card_side`): at a third of its exposure a reflection's bright spot, its hull taking in
#: some of the code, is a 60-pixel patch (tuning set).
BROKEN_CARD_SIDE = 88


def reduced(gray: MatLike) -> MatLike:
    """The frame shrunk to `CARD_SEARCH_WIDTH` across (as it is when narrower): the one reduced copy the aiming
    measurement's card search and coarse close-up search share, made once a frame (`measure_view`)."""
    import cv2

    height, width = gray.shape[:2]
    scale = min(1.0, CARD_SEARCH_WIDTH / width)
    if scale >= 1.0:
        return gray
    return cv2.resize(gray, (max(1, round(width * scale)), max(1, round(height * scale))), interpolation=cv2.INTER_AREA)


def find_card(gray: MatLike, small: MatLike | None = None) -> FoundCard | None:
    """The card seen on its own, or None: its box (x, y, width, height in frame pixels) and its shorter side at any
    angle (frame pixels).

    The sticker's white paper is the brightest thing on a table. A card far enough away to need finding this way
    is within the picture's brightest 0.1 % to 1 %: pixels above half-way between those two grey levels, joined,
    make a patch card-shaped (its sides no more than about 2 to 1, since a tilted card is foreshortened, or 4 to 1
    for a card turned far away, when its code's black shows in it: `NARROW_CARD_SHAPE`, `CARD_DARK`) and solid
    (filling three quarters of the smallest rectangle around its outline), with the code inside its outline not
    bright (a patch bright all through is a reflection or a plain light patch), unless the patch is a rectangle
    large enough for a card whose code the exposure washes out (`CARD_RECTANGLE`). The largest such patch is the
    card.
    A card near the camera is more than 1 % of the picture, so when none is found that way the same is looked for
    above half-way between the picture's median and its brightest 0.1 %, a little less solid (two thirds: cut off
    by the picture's edge, its outline takes in a corner of the table's pattern).
    A card the picture's edge cuts off has its outline open where its code meets the edge: the edge closes it (the
    hull around the outline), what is left may be narrow, and the code's black must show in it (`CARD_DARK`),
    which a pale streak of the table along the edge does not. A narrow card's width is measured from its length
    (`FACING_SHAPE`): turned away, a card keeps its length.
    A thumb across the sticker's white margin opens its outline into the code as the edge does: when no whole
    outline is found at either level, one that is not solid is closed by its hull, if its code's black shows and
    it is near enough to read (`BROKEN_CARD_SIDE`).
    `small`: the frame already `reduced` (the same picture the search would make, shared with other steps)."""
    if gray.size == 0:
        return None
    height, width = gray.shape[:2]
    scale = min(1.0, CARD_SEARCH_WIDTH / width)
    if small is None:
        small = reduced(gray)
    middle, bright, brightest = percentiles(small, 50, 99, 99.9)
    for broken in (False, True):  # an outline a thumb opens only when no whole one is found
        for level, solid in (((bright + brightest) / 2, 0.75), ((middle + brightest) / 2, 0.65)):
            found = _bright_patch(small, level, solid, BROKEN_CARD_SIDE * scale if broken else None)
            if found is not None:
                (x, y, w, h), side = found
                return (int(x / scale), int(y / scale), round(w / scale), round(h / scale)), float(side / scale)
    return None


def _bright_patch(
    small: MatLike, level: float, solid: float, broken: float | None = None
) -> tuple[tuple[int, int, int, int], float] | None:
    """The largest card-shaped patch of pixels brighter than `level` (see `find_card`): its box and shorter side.
    `broken`: only patches whose outline is not solid, closed by their hull (a thumb across the sticker's margin),
    and whose shorter side is at least this many pixels."""
    import cv2
    import numpy as np

    lit = (small > level).astype(np.uint8)
    mask = cv2.morphologyEx(lit, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    height, width = small.shape[:2]
    candidates = []
    for outline in contours:
        x, y, w, h = cv2.boundingRect(outline)
        cut = not inside((x, y, w, h), width, height)
        if cut:
            # Cut off by the picture's edge, a sticker's outline is open where its code meets the edge: the edge
            # closes it, as the hull around the outline does.
            outline = cv2.convexHull(outline)
        area = cv2.contourArea(outline)
        if area >= MIN_CARD_AREA:
            candidates.append((area, (x, y, w, h), cut, outline))
    # The largest first: the first patch taken is then the one to return (a checked cloth's hundreds of checks are
    # not each measured), but for a thumb's broken outline, whose hull may grow past a larger one's.
    best = None
    for area, (x, y, w, h), cut, outline in sorted(candidates, key=lambda candidate: candidate[0], reverse=True):
        if best is not None:
            if broken is None:
                break  # the rest are no larger
            if area <= best[0]:
                continue
        (_, _), (a, b), _ = cv2.minAreaRect(outline)
        narrow = min(a, b) < CARD_SHAPE * max(a, b)
        if broken is not None:
            if cut or area >= solid * a * b or min(a, b) < broken:
                continue
            # A thumb across the sticker's white margin opens its outline into the code, as the picture's edge
            # does: the hull closes it.
            outline = cv2.convexHull(outline)
            area = cv2.contourArea(outline)
        if min(a, b) < NARROW_CARD_SHAPE * max(a, b) or area < solid * a * b:
            continue
        filled = np.zeros((h, w), np.uint8)
        cv2.drawContours(filled, [outline - np.array([x, y])], -1, 1, cv2.FILLED)
        if (cut or narrow or broken is not None) and np.percentile(
            small[y : y + h, x : x + w][filled > 0], 5
        ) > CARD_DARK * level:
            continue  # no black code in it: a bright streak of the table
        bright = np.count_nonzero(lit[y : y + h, x : x + w] & filled) > MAX_CARD_LIT * np.count_nonzero(filled)
        if bright and (area < CARD_RECTANGLE * a * b or min(a, b) < CARD_RECTANGLE_SIDE):
            continue  # bright all through, and no card's rectangle: a reflection or a speck of light
        best = (area, (x, y, w, h), max(min(a, b), FACING_SHAPE * max(a, b)))
    return None if best is None else (best[1], best[2])


#: The card found on its own (`find_card`): its box (x, y, width, height in frame pixels) and its shorter side.
FoundCard = tuple[tuple[int, int, int, int], float]
#: How many of the first code-like regions are looked at for one on the card found on its own (`with_card`).
CARD_AMONG = 2


def with_card(regions: list[tuple[int, int, int, int]], card: FoundCard | None) -> list[tuple[int, int, int, int]]:
    """The code-like regions, after the card found on its own (`card`, from `find_card`) when none of the first
    `CARD_AMONG` is on it (`on_card`): on a busy table the table's pattern takes every place (a checked cloth can
    make one region of the whole picture), and a code there was never worked on."""
    if card is None or any(on_card(region, card[0]) for region in regions[:CARD_AMONG]):
        return regions
    return [card[0], *regions]


def on_card(region: tuple[int, int, int, int], card: tuple[int, int, int, int]) -> bool:
    """True when a code-like region is the card's own: it overlaps the card and is at most three times its size
    across (a region off the card, or far larger, is the table's own pattern)."""
    x, y, w, h = region
    cx, cy, cw, ch = card
    overlaps = x < cx + cw and cx < x + w and y < cy + ch and cy < y + h
    return overlaps and max(w, h) <= 3 * max(cw, ch)


#: Frames are compared on copies shrunk to this size (a block of 20 by 20 pixels of a 720p frame each): the
#: sensor's noise averages away, a card moving across the picture does not.
MOTION_SIZE = (64, 36)
#: A shrunk pixel whose grey level changed by more than this has changed.
MOTION_STEP = 12
#: The picture moved when more than this share of the shrunk pixels changed. On the tuning set a still table
#: changes none of them from frame to frame, a card held still in a trembling hand 0.6 to 1.3 %, a card being
#: brought in 2 to 6 % (every one of 30 approach clips moves during its reach).
MOTION_SHARE = 0.015


def shrunk(gray: MatLike) -> MatLike:
    """The frame shrunk for `moved`."""
    import cv2

    return cv2.resize(gray, MOTION_SIZE, interpolation=cv2.INTER_AREA)


def moved(before: MatLike, after: MatLike) -> bool:
    """True when two shrunk frames (`shrunk`) differ: something moved in front of the camera."""
    import cv2

    # (OpenCV's difference and count: a tenth of numpy's widening and mean, run on every frame.) A still picture's
    # largest difference is its noise, under the step: one call then says so, where the difference, its threshold and
    # its count were three, each tens of microseconds with the caches cold (the same verdict: no pixel over the step).
    if cv2.norm(before, after, cv2.NORM_INF) <= MOTION_STEP:
        return False
    _, changed = cv2.threshold(cv2.absdiff(before, after), MOTION_STEP, 1, cv2.THRESH_BINARY)
    return cv2.countNonZero(changed) / changed.size > MOTION_SHARE


#: Two shrunk frames are the same picture when no pixel differs by more than this. On the evaluation camera a still
#: picture's noise changes them by 1 to 3 (low light included); a card 1.2 to 2 m away brought a fifth closer, by 9
#: (over a pale marble, 2 m away) to 34, where `moved` sees no motion.
SAME_STEP = 6


def unchanged(before: MatLike, after: MatLike) -> bool:
    """True when no pixel of two shrunk frames (`shrunk`) differs by more than `SAME_STEP`: the same picture, its
    noise apart (where `moved` allows a trembling hand's few pixels)."""
    import cv2

    return bool(cv2.absdiff(before, after).max() <= SAME_STEP)


#: A read of the background stage is stale (the card it read has gone from where it was read) when more than this
#: share of the shrunk pixels over its code changed between its frame and the frame in view. A card held still in a
#: trembling hand changes a few of them; another card there, or the table where the card was, most.
STALE_SHARE = 0.5


def changed_at(before: MatLike, after: MatLike, box: tuple[int, int, int, int], shape: tuple[int, ...]) -> bool:
    """True when two shrunk frames (`moved`'s) of frames of `shape` (height, width) differ over `box` (x, y, width,
    height in the frames' pixels, at least one shrunk pixel): what was there has gone."""
    import numpy as np

    rows, columns = before.shape[:2]
    x, y, w, h = box
    x0 = min(columns - 1, max(0, x * columns // shape[1]))
    y0 = min(rows - 1, max(0, y * rows // shape[0]))
    x1, y1 = max(x0 + 1, -(-(x + w) * columns // shape[1])), max(y0 + 1, -(-(y + h) * rows // shape[0]))
    over = (slice(y0, y1), slice(x0, x1))
    changed = np.abs(before[over].astype(np.int16) - after[over].astype(np.int16)) > MOTION_STEP
    return bool(changed.mean() > STALE_SHARE)


#: A code read by the background stage is kept as its frame showed it (`code_patch`): its box cut out and brought to
#: this many pixels a side, about two to three a module of the stickers' codes (21 to 25 modules).
PATCH_SIDE = 64
#: How far (a share of the box's side) the code in view may lie from where it was read and still be matched.
PATCH_SHIFT = 0.12
#: The code in view is the one read (`same_code`) when its patch matches the one kept this well (normalised
#: correlation, at the best shift within `PATCH_SHIFT`). Evaluation camera stills (seeds 96000 to 96059, 720p and
#: 1080p, never tuned on): the same code moved 2 to 5 pixels with sensor noise added, 0.86 at least; another card's
#: code laid exactly where it was, 0.78 at most (median 0.61). On the motion check's coarse copy the two look alike.
SAME_CODE = 0.82


def code_patch(gray: MatLike, box: tuple[int, int, int, int]) -> MatLike | None:
    """The code in `box` (x, y, width, height, frame pixels) of a frame (grey or BGR), `PATCH_SIDE` pixels a side
    of grey (area interpolation); None when the box holds under 4 pixels a side of the frame."""
    import cv2

    x, y, w, h = box
    crop = gray[max(0, y) : y + h, max(0, x) : x + w]
    if min(crop.shape[:2]) < 4:
        return None
    if crop.ndim == 3:
        crop = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    return cv2.resize(crop, (PATCH_SIDE, PATCH_SIDE), interpolation=cv2.INTER_AREA)


def same_code(patch: MatLike, image: MatLike, box: tuple[int, int, int, int]) -> bool:
    """True when the frame in view (`image`, grey or BGR) still shows, around `box`, the code kept in `patch`
    (`code_patch` of the frame it was read in): their normalised correlation reaches `SAME_CODE` at the box itself,
    cut and shrunk as the patch was (a code that has not moved: a code of small modules, shrunk from a wider crop,
    would not match itself), or at some shift of up to `PATCH_SHIFT` of the box. A few milliseconds, asked only of a
    read whose frame was of another still picture."""
    import cv2

    x, y, w, h = box
    if w < 4 or h < 4:
        return False
    here = code_patch(image, box)
    if here is not None and here.shape == patch.shape:
        if cv2.matchTemplate(here, patch, cv2.TM_CCOEFF_NORMED).max() >= SAME_CODE:
            return True
    mx, my = round(PATCH_SHIFT * w), round(PATCH_SHIFT * h)
    x0, y0 = max(0, x - mx), max(0, y - my)
    crop = image[y0 : y + h + my, x0 : x + w + mx]
    if crop.ndim == 3:
        crop = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    size = (round(crop.shape[1] * PATCH_SIDE / w), round(crop.shape[0] * PATCH_SIDE / h))
    if size[0] < PATCH_SIDE or size[1] < PATCH_SIDE:
        return False  # cut off by the picture's edge past the code itself
    around = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
    return bool(cv2.matchTemplate(around, patch, cv2.TM_CCOEFF_NORMED).max() >= SAME_CODE)


def grown(region: tuple[int, int, int, int], share: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """`region` grown by `share` of its longer side on every side, within a frame of `shape` (height, width)."""
    x, y, w, h = region
    margin = round(share * max(w, h))
    x0, y0 = max(0, x - margin), max(0, y - margin)
    return x0, y0, min(shape[1], x + w + margin) - x0, min(shape[0], y + h + margin) - y0


def white_level(gray: MatLike, region: tuple[int, int, int, int]) -> float:
    """The white of a code-like region: its 99th percentile grey level (what `ExposureControl` meters on)."""
    x, y, w, h = region
    return percentiles(gray[y : y + h, x : x + w], 1, 99)[1]


def percentiles(gray: MatLike, *percents: float) -> tuple[float, ...]:
    """Grey-level percentiles from one histogram (much faster than sorting the pixels)."""
    import cv2
    import numpy as np

    hist = cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel()
    cumulative = np.cumsum(hist)
    total = cumulative[-1]
    return tuple(float(np.searchsorted(cumulative, total * percent / 100)) for percent in percents)


def sharpness(gray: MatLike) -> float:
    """How crisp the picture is: the variance of the second derivative along the least sharp of four directions
    (across, down and both diagonals), scaled to the picture's own contrast.

    Taking the least sharp direction catches motion blur, which smears one direction only and leaves an
    all-directions measure (the variance of the Laplacian) high; the contrast scaling keeps a dim but sharp code
    from being taken for a blurred one."""
    import cv2
    import numpy as np

    if gray.size == 0 or min(gray.shape[:2]) < 3:
        return 0.0
    low, high = percentiles(gray, 2, 98)
    spread = max(high - low, 1.0)
    image = gray.astype(np.float32)
    least = min(float(cv2.filter2D(image, -1, kernel)[1:-1, 1:-1].var()) for kernel in _DIRECTIONS)
    return least * (255.0 / spread) ** 2


def _direction_kernels() -> tuple[NDArray[np.float32], ...]:
    import numpy as np

    across = np.array([[0, 0, 0], [-1, 2, -1], [0, 0, 0]], np.float32)
    diagonal = np.array([[-1, 0, 0], [0, 2, 0], [0, 0, -1]], np.float32)
    return (across, across.T.copy(), diagonal, np.fliplr(diagonal).copy())


class _Kernels:
    """The four directional kernels, made on first use (numpy is imported lazily)."""

    def __iter__(self) -> Iterator[NDArray[np.float32]]:
        global _DIRECTIONS
        _DIRECTIONS = _direction_kernels()
        return iter(_DIRECTIONS)


_DIRECTIONS: Iterable[NDArray[np.float32]] = _Kernels()


def measure_view(
    gray: MatLike,
    region: tuple[int, int, int, int] | None = None,
    read: bool = False,
    squareness: float | None = None,
    card_search: Callable[[], FoundCard | None] | None = None,
) -> FrameView:
    """The measurements aiming guidance needs; the region (and its squareness) is searched for when not given.
    `card_search`: the card found on its own, when the caller has searched for it already (`find_card`)."""
    height, width = gray.shape[:2]
    if region is None:
        shapes: list[float] = []
        regions = find_code_regions(gray, limit=1, shapes=shapes)
        region = regions[0] if regions else None
        squareness = shapes[0] if shapes else None
    small = reduced(gray)  # once, for the card search and the coarse close-up search
    card, card_side = (find_card(gray, small) if card_search is None else card_search()) or (None, 0.0)
    code = functools.cache(lambda: _code_on(gray, card) if card is not None else None)  # searched when needed
    close = _close_up(gray, small)
    if (
        close is not None
        and card is not None
        and (not on_card(close, card) or (inside(card, width, height) and code() is not None))
    ):
        # The table's own pattern, coarsely: the card is elsewhere, or whole in the picture with a code of its own
        # (a card held so close that its code fills the picture is cut off by the picture's edges).
        close = None
    if close is not None and (region is None or _area(close) > 2 * _area(region)):
        region, squareness = close, None  # a code held so close that it fills the picture, out of focus
    elif card is not None and region is not None and not _card_own(region, card):
        # The region is the table's pattern: the card found on its own is aimed, its code where one shows in it.
        region, squareness = code() or (card, None)
    if region is None:
        brightness = float(gray.mean()) if gray.size else 0.0
        return FrameView(width, height, None, 0.0, brightness, read, card=card, card_side=card_side)
    x, y, w, h = region
    patch = gray[y : y + h, x : x + w]
    brightness = float(patch.mean()) if patch.size else 0.0
    return FrameView(
        width,
        height,
        region,
        sharpness(patch),
        brightness,
        read,
        saturated=_burnt_out(gray, region),
        highlight=highlight(patch),
        squareness=1.0 if squareness is None else squareness,
        card=card,
        card_side=card_side,
    )


#: A code-like region with more than this many times the area of the card found in it takes in the table around
#: the card (its own region takes in some of the card around the code: 2 to 3.6 times on the tuning set).
WIDER_THAN_CARD = 6


def _card_own(region: tuple[int, int, int, int], card: tuple[int, int, int, int]) -> bool:
    """True when a code-like region is the card's own (`on_card`) and no more than `WIDER_THAN_CARD` times its
    area: a larger one takes in the table around the card too."""
    return on_card(region, card) and _area(region) <= WIDER_THAN_CARD * _area(card)


def _area(box: tuple[int, int, int, int]) -> int:
    return box[2] * box[3]


def _code_on(gray: MatLike, card: tuple[int, int, int, int]) -> tuple[tuple[int, int, int, int], float | None] | None:
    """The code-like region within a card found on its own and its squareness, or None when none shows there:
    searched on the card's box alone (at the scale of the search over the whole picture), the table's pattern
    around it no longer joins it."""
    x, y, w, h = card
    shapes: list[float] = []
    width = max(1, round(w * SEARCH_WIDTH / gray.shape[1]))
    found = find_code_regions(gray[y : y + h, x : x + w], limit=1, shapes=shapes, search_width=width)
    if not found:
        return None
    rx, ry, rw, rh = found[0]
    return (x + rx, y + ry, rw, rh), shapes[0]


#: `highlight` measures a region shrunk by this factor, which averages a sensor's noise away but not a reflection.
HIGHLIGHT_SHRINK = 4


def highlight(patch: MatLike) -> float:
    """How much brighter the brightest part of a region is than its paper: the 99th over the 90th percentile grey
    level, on the region shrunk by `HIGHLIGHT_SHRINK` (1 when it is too small to say). A sticker's white paper is
    the brightest thing a code holds, and fills more than a tenth of its region, so the 90th percentile is the
    paper; only a reflection is much brighter than that without being clipped, as one is once the exposure has
    been lowered (`assistant.core.scanning.exposure`)."""
    import cv2

    h, w = patch.shape[:2]
    if min(h, w) < 4 * HIGHLIGHT_SHRINK:
        return 1.0
    small = cv2.resize(patch, (w // HIGHLIGHT_SHRINK, h // HIGHLIGHT_SHRINK), interpolation=cv2.INTER_AREA)
    paper, brightest = percentiles(small, 90, 99)
    return brightest / max(paper, 1.0)


#: The coarse search for a code held very close: modules are then tens of pixels and blurred, too coarse for the
#: ordinary search, but a few pixels each on a picture shrunk to this width.
CLOSE_SEARCH_WIDTH = 64


def _close_up(gray: MatLike, small: MatLike | None = None) -> tuple[int, int, int, int] | None:
    """A code-like region filling most of the picture's height on a very coarse search, or None. `small`: the
    frame `reduced` already, searched instead of the whole frame (shrinking it to 64 pixels across costs more from
    the whole frame than the search itself), the region given back in the frame's pixels."""
    height, width = gray.shape[:2]
    source = gray if small is None else small
    regions = find_code_regions(source, limit=1, search_width=CLOSE_SEARCH_WIDTH)
    if not regions:
        return None
    if source is not gray:
        x_scale, y_scale = width / source.shape[1], height / source.shape[0]
        x, y, w, h = regions[0]
        regions = [(int(x * x_scale), int(y * y_scale), round(w * x_scale), round(h * y_scale))]
    if min(regions[0][2], regions[0][3]) > 0.6 * height:
        return regions[0]
    return None


def _burnt_out(gray: MatLike, region: tuple[int, int, int, int]) -> float:
    """The largest patch burnt out to a flat white by a reflection in and around a code-like region (grown by half
    its size on each side: a reflection hides part of the code from the region search, so the region found may be
    what is left of it), as a share of the region's own area (capped at 1).

    A sensor's clipped pixels all sit at its top level with none of the noise every other pixel carries (that
    level is 255 for a white reflection but lower in grey for a coloured one), so a burnt-out pixel is a bright
    one (180 or more) whose whole 7 by 7 neighbourhood lies within 2 grey levels. A code's modules and a lit but
    unclipped white (its noise) never are, so a readable sticker, even an over-exposed one, scores near 0. The
    largest joined patch is what counts, not all of them: a reflection is one blob, while a sticker's white
    clipped flat by the exposure shows only as the small pieces between its modules."""
    import cv2
    import numpy as np

    x, y, w, h = region
    height, width = gray.shape[:2]
    x0, y0 = max(0, x - w // 2), max(0, y - h // 2)
    x1, y1 = min(width, x + w + w // 2), min(height, y + h + h // 2)
    nearby = gray[y0:y1, x0:x1]
    if nearby.size == 0 or w * h == 0:
        return 0.0
    burnt = burnt_out_pixels(nearby)
    if not burnt.any():
        return 0.0  # (joining no pixels into patches cost more than the rest of the measurement)
    count, _, stats, _ = cv2.connectedComponentsWithStats(burnt, connectivity=8)
    largest = int(np.max(stats[1:, cv2.CC_STAT_AREA])) if count > 1 else 0
    return min(1.0, largest / (w * h))


def burnt_out_pixels(gray: MatLike) -> NDArray[np.uint8]:
    """1 where a greyscale image is burnt out to a flat white (see `_burnt_out`), else 0 (uint8)."""
    import cv2
    import numpy as np

    window = np.ones((7, 7), np.uint8)
    lowest = cv2.erode(gray, window)
    return ((lowest >= 180) & (cv2.dilate(gray, window) - lowest <= 2)).astype(np.uint8)
