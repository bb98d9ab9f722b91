"""Reading a code with one of its three finder patterns hidden, as a thumb holding the card often hides one.

Every decoder starts by finding the three finder patterns (the nested squares in a code's corners), so none
reads a code with a thumb over one of them. A finder pattern holds no data, though: the code is all there
except for what the thumb covers beyond it, and level Q error correction makes up for a quarter of the code.
`repaired_views` finds the two patterns that show (`find_finders`), works out where the third must be for each
way the two can stand (side by side along an edge, or across the diagonal), and paints a finder pattern there
for the decoder to find.

The third pattern's place comes from a homography fitted to the corners and centres of the two that show,
least sure across the line through them, so the painted pattern is then moved that way (`SHIFTS`). On the
tuning set (`benchmarks.frames`, category "thumb": a thumb over one pattern, half of the cards tilted) the
fitted place alone read 20 of the first 24 frames, the shifts 47 of 48. The decoder's error correction still
checks every read, so a wrong guess reads nothing rather than a wrong card. A few milliseconds a region, up to
25 when nothing reads, so the background stage runs it, not the frame loop.

`finger_over` tells the aiming cue when a finger covers a corner: the same search, and the hidden corner even.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from assistant.scanner.erasures import Grid
from assistant.scanner.measure import grown

if TYPE_CHECKING:
    import numpy as np
    from cv2.typing import MatLike
    from numpy.typing import NDArray

#: A finder pattern's rings, as (half its side in modules, dark): the separator, the dark ring, the light ring,
#: the dark centre.
RINGS = ((4.5, False), (3.5, True), (2.5, False), (1.5, True))
#: The painted pattern's size against a true one: the fit's own patterns come out a little large, as a blurred
#: dark ring spreads over the light around it (measured on the tuning set).
PAINT_SCALE = 0.95
#: Where the painted pattern goes, in modules from the fitted place across the line through the two patterns
#: that show (the fit is least sure that way), in the order tried.
SHIFTS = (0.0, 0.5, -0.5, 1.0, -1.0)
#: The smallest module looked for, pixels.
MIN_MODULE = 3
#: A finder pattern's dark centre against the light square round it, by area: 9 to 25 modules, but blur and
#: thresholding shrink the one and grow the other (0.18 at 5 pixels a module on the evaluation camera).
CORE_SHARE = (0.1, 0.6)
#: At most this many finder-like patterns are paired up (the largest), so a busy picture costs little.
MAX_FINDERS = 5
#: Two patterns of one code may differ this much in size (a card tilted far back: its near edge looks larger).
MAX_SIZE_RATIO = 2.0
#: QR versions whose layout is tried (the project's stickers are version 1).
VERSIONS = range(1, 7)
#: At most this many views are painted for one region (four places by five shifts).
MAX_VIEWS = 20
#: Regions longer than this (pixels) are not repaired: a code held up to be read is far smaller, but on a busy
#: table the region found can take in the table's pattern around the card (over 600 pixels on a checked cloth).
MAX_SIDE = 800
#: Module contrast (`_module_contrast`, as a share of the region's range from dark to white) of a code's modules
#: at least, and of an even surface (a finger) at most. Tuning set: a code's middle 0.42 to 0.62, a table's or a
#: card margin's under 0.1; a thumb over a pattern 0.005 to 0.013, a reflection over one 0.057 and more (its
#: light falls off from the middle).
MODULE_CONTRAST, EVEN_CONTRAST = 0.15, 0.03
#: Pixels a module in the squares `finger_over` looks at.
SQUARE_PX = 4
#: A hidden pattern's square burnt out flat over more than this share is under a reflection (tuning set: thumbs
#: 0, a reflection hiding a whole pattern 0.83).
BURNT_SHARE = 0.5
#: The margin added around a code-like region, as a share of its longer side: a painted pattern at the very edge
#: of the picture searched is not found.
MARGIN = 0.1


@dataclass(frozen=True)
class Finder:
    """A finder-like pattern: its centre and module size (pixels), and its inner rings, each as (half its side in
    modules, its four corners in pixels)."""

    centre: tuple[float, float]
    module: float
    rings: list[tuple[float, Any]]


def find_finders(gray: MatLike) -> list[Finder]:
    """The finder-like patterns in a greyscale image, largest first: a dark outline holding a light square that
    holds a dark one, the two with a finder pattern's proportions (5 and 3 modules across). Only the inner two
    are measured: the dark ring's outline often runs into the modules beside it."""
    import cv2

    found: list[Finder] = []
    binaries = (
        cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)[1],
        cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 5),
    )
    for binary in binaries:
        contours, hierarchy = cv2.findContours(binary, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
        if hierarchy is None:
            continue
        links = hierarchy[0]
        for hole, (_, _, core, parent) in enumerate(links):
            if parent < 0 or core < 0 or links[core][2] >= 0:
                continue  # not a light square inside a dark outline, holding a dark square with nothing in it
            hole_area, core_area = cv2.contourArea(contours[hole]), cv2.contourArea(contours[core])
            if hole_area < (5 * MIN_MODULE) ** 2 or not CORE_SHARE[0] < core_area / hole_area < CORE_SHARE[1]:
                continue
            rings = [(2.5, _square(contours[hole])), (1.5, _square(contours[core]))]
            if 1.5 < cv2.contourArea(contours[parent]) / hole_area < 2.6:
                rings.append((3.5, _square(contours[parent])))
            moments = cv2.moments(contours[core])
            if any(corners is None for _, corners in rings) or moments["m00"] == 0:
                continue
            centre = (moments["m10"] / moments["m00"], moments["m01"] / moments["m00"])
            module = math.sqrt(hole_area) / 5
            if any(math.dist(centre, f.centre) < 2 * f.module for f in found):
                continue  # the same pattern, found by the other threshold
            found.append(Finder(centre, module, rings))
    return sorted(found, key=lambda f: -f.module)[:MAX_FINDERS]


def _square(contour: MatLike) -> NDArray[np.float64] | None:
    """The four corners of a contour that is a convex quadrilateral (as float pixels), else None."""
    import cv2

    hull = cv2.convexHull(contour)
    if cv2.contourArea(contour) < 0.85 * cv2.contourArea(hull):
        return None
    corners = cv2.approxPolyDP(hull, 0.08 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    return corners.astype(float) if len(corners) == 4 else None


def around(gray: MatLike, region: tuple[int, int, int, int]) -> tuple[MatLike, tuple[int, int]]:
    """A code-like region of a frame with `MARGIN` around it, and where that crop starts in the frame."""
    x0, y0, w, h = grown(region, MARGIN, gray.shape)
    return gray[y0 : y0 + h, x0 : x0 + w], (x0, y0)


def finger_over(gray: MatLike, places: list[Place]) -> bool:
    """True when a finger or thumb covers a corner of the code in a region (greyscale) whose `hidden_places` are
    `places`. Only a way of standing whose code would lie over the code's modules counts (the middle of the code
    it implies varies from module to module both across and down, as a table, a card's margin or its edge do
    not), with the hidden corner even (no modules show there, nor a reflection's fall-off) but not burnt out flat
    (`measure.burnt_out_pixels`) over most of it, as a reflection clipped to white is. A thumb the camera clips
    to white too is taken for a reflection."""
    import numpy as np

    from assistant.scanner.measure import burnt_out_pixels

    if not places:
        return False
    dark, light = (float(v) for v in np.percentile(gray, (5, 95)))
    spread = max(light - dark, 1.0)
    burnt = burnt_out_pixels(gray)
    return any(
        _module_contrast(_straightened(gray, place, (place.size / 2,) * 2, 3.0)) >= MODULE_CONTRAST * spread
        and _module_contrast(_straightened(gray, place, place.hidden, 3.5)) < EVEN_CONTRAST * spread
        and float(_straightened(burnt, place, place.hidden, 3.5).mean()) < BURNT_SHARE
        for place in places
    )


def _straightened(gray: MatLike, place: Place, centre: tuple[float, float], half: float) -> MatLike:
    """The square `half` modules either side of `centre` (modules) of a place's code, straightened to
    `SQUARE_PX` pixels a module."""
    import cv2
    import numpy as np

    cx, cy = centre
    side = round(2 * half * SQUARE_PX)
    to_modules = np.array([[1 / SQUARE_PX, 0, cx - half], [0, 1 / SQUARE_PX, cy - half], [0, 0, 1]])
    flags = cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR
    return cv2.warpPerspective(gray, place.homography @ to_modules, (side, side), flags=flags)


def _module_contrast(square: MatLike) -> float:
    """How much a straightened square changes from one module to the next, in its least changing direction (grey
    levels): high over modules, low over an even surface or a single edge."""
    import numpy as np

    s, step = square.astype(np.float32), SQUARE_PX
    across = float(np.abs(s[:, step:] - s[:, :-step]).mean())
    down = float(np.abs(s[step:, :] - s[:-step, :]).mean())
    return min(across, down)


def repaired_views(gray: MatLike, places: list[Place]) -> Iterator[MatLike]:
    """Copies of a code's region (greyscale) with a finder pattern painted where a hidden one would be: at each
    of its `hidden_places`, then the same moved by each of `SHIFTS`, `MAX_VIEWS` at most."""
    import numpy as np

    if not places:
        return
    dark, light = (float(v) for v in np.percentile(gray, (5, 95)))
    views = [(place, shift) for shift in SHIFTS for place in places]
    for place, shift in views[:MAX_VIEWS]:
        (cx, cy), (ax, ay) = place.hidden, place.across
        yield _painted(gray, place.homography, (cx + shift * ax, cy + shift * ay), dark, light)


@dataclass(frozen=True)
class Place:
    """Where a hidden finder pattern would be, for one way two patterns that show can stand in a code."""

    homography: Any
    """From module coordinates to pixels."""
    hidden: tuple[float, float]
    """The hidden pattern's centre, in modules."""
    across: tuple[float, float]
    """The unit direction (in modules) across the line through the two that show."""
    size: int
    """The code's side, in modules."""
    shows: bool
    """A third pattern found is there: the code is whole."""

    @property
    def grid(self) -> Grid:
        """Where the code's modules are, for reading them (`erasures`)."""
        return Grid(self.homography, self.size, whole=self.shows)


def code_places(gray: MatLike) -> list[Place]:
    """Every way two finder-like patterns in a code's region (greyscale) can stand in one code, whether the third
    shows or not; none when the region is too large to be a code held up."""
    if max(gray.shape[:2]) > MAX_SIDE:
        return []
    return list(_places(find_finders(gray), gray.shape))


def hidden_places(gray: MatLike, places: list[Place] | None = None) -> list[Place]:
    """Where a hidden finder pattern may be in a code's region (greyscale): nowhere when fewer than two show, when
    all three do (the code is not missing one), or when the region is too large to be a code held up. `places`:
    the region's `code_places`, when known already."""
    places = code_places(gray) if places is None else places
    return [] if any(place.shows for place in places) else places


def _places(finders: list[Finder], shape: tuple[int, ...]) -> Iterator[Place]:
    """Each way two of `finders` can stand in a code with the third pattern's centre inside the image."""
    height, width = shape[:2]
    for a in finders:
        for b in finders:
            if a is b or max(a.module, b.module) / min(a.module, b.module) > MAX_SIZE_RATIO:
                continue
            module = (a.module + b.module) / 2
            apart = math.dist(a.centre, b.centre)
            for diagonal in (False, True):
                side = apart / math.sqrt(2) if diagonal else apart  # centre to centre along an edge, pixels
                version = round((side / module - 10) / 4)
                if version not in VERSIONS:
                    continue
                far = 17 + 4 * version - 3.5  # the far patterns' centres, in modules
                if not 0.8 < side / module / (far - 3.5) < 1.25:
                    continue
                top_left, top_right, bottom_left = (3.5, 3.5), (far, 3.5), (3.5, far)
                # (where a is, where b is, where the hidden one is, the direction across a and b's line)
                roles = (
                    [(bottom_left, top_right, top_left, (math.sqrt(0.5), math.sqrt(0.5)))]
                    if diagonal
                    else [
                        (top_left, top_right, bottom_left, (0.0, 1.0)),
                        (top_left, bottom_left, top_right, (1.0, 0.0)),
                    ]
                )
                for at_a, at_b, hidden, across in roles:
                    homography = _fit(a, at_a, b, at_b)
                    if homography is None:
                        continue
                    x, y = _project(homography, hidden)
                    if -2 * module < x < width + 2 * module and -2 * module < y < height + 2 * module:
                        third = (f for f in finders if f is not a and f is not b)
                        shows = any(math.dist((x, y), f.centre) < 3 * module for f in third)
                        yield Place(homography, hidden, across, 17 + 4 * version, shows)


def _fit(a: Finder, at_a: tuple[float, float], b: Finder, at_b: tuple[float, float]) -> MatLike | None:
    """The homography taking module coordinates to pixels with finder `a` centred at `at_a` and `b` at `at_b`,
    from their centres and rings' corners (each corner matched to the pattern's corner it lies nearest to, by
    the similarity the two centres give); None when the corners do not fit."""
    import cv2
    import numpy as np

    za, zb = complex(*at_a), complex(*at_b)
    scale = (complex(*b.centre) - complex(*a.centre)) / (zb - za)
    shift = complex(*a.centre) - scale * za
    source, target = [], []
    for finder, (cx, cy) in ((a, at_a), (b, at_b)):
        for half, corners in finder.rings:
            for x, y in corners:
                guess = (complex(x, y) - shift) / scale
                source.append((cx + math.copysign(half, guess.real - cx), cy + math.copysign(half, guess.imag - cy)))
                target.append((x, y))
        source.append((cx, cy))
        target.append(finder.centre)
    if len(set(source)) < len(source):
        return None  # two corners took the same place: the outline is not a square's
    homography, _ = cv2.findHomography(np.array(source, float), np.array(target, float))
    return homography


def _project(homography: MatLike, point: tuple[float, float]) -> tuple[float, float]:
    x, y = point
    u, v, w = homography @ (x, y, 1.0)
    return float(u / w), float(v / w)


def _painted(gray: MatLike, homography: MatLike, centre: tuple[float, float], dark: float, light: float) -> MatLike:
    """A copy of `gray` with a finder pattern (and its light separator) drawn centred at `centre` (modules)."""
    import cv2
    import numpy as np

    image = gray.copy()
    cx, cy = centre
    for half, is_dark in RINGS:
        h = half * PAINT_SCALE
        corners = [_project(homography, (cx + sx * h, cy + sy * h)) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        points = np.round(np.array(corners) * 16).astype(np.int32)
        cv2.fillConvexPoly(image, points, round(dark if is_dark else light), cv2.LINE_AA, 4)
    return image
