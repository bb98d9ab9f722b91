"""Reading a code of which one finder pattern alone shows: a thumb over one corner, a reflection over another.

Finder repair and erasures place the modules from two finder patterns. A thumb holding the card over one of them
and a lamp's reflection over another leave one, and one tells where the code is only roughly:

1. its rings (`repair.find_finders`) give a homography from the pattern's own module coordinates to pixels,
   each ring corner matched to the pattern's corner by its angle about the centre (less the pattern's turn, the
   average of the corners' angles modulo a quarter turn);
2. the code lies on one of the pattern's four diagonal sides: each side whose code would lie within the region
   is tried (`SIZE`: the stickers are version 1);
3. drawn out from a pattern a third of the code across, the far corners land a module or so off, so the code's
   four corners are moved, half a module at a time and then finer (`STEPS`), to where the module centres meet
   the most contrast: the grey level against its blur over a module is high in a module's middle and low on
   the edge between two, so a grid half a module off scores low;
4. the pattern may be the code's top-left, top-right or bottom-left one: the code is read in each of the three
   turns by `erasures.read_hidden`, whose error correction and label format check every read, and, where the
   error correction cannot solve it, matched against the known labels of the decks in play (`known`). Most of
   the dozen grids tried a region are wrong, but a wrong grid's modules are noise to every label: on held-out
   tuning frames (seeds 40 to 79, eight kinds of frame, four kinds of code, four sets of decks in play: 5,120
   tries) none matched a wrong label.

Tuning set (`benchmarks.frames`, a thumb over one pattern and a reflection as well, frames every other stage
misses): 2 of 9 on seeds 0 to 39, on which it was made; 2 of 10 on seeds 40 to 79, looked at once it was done;
no wrong read there, on frames with only a reflection, or on empty tables. A few milliseconds a region, up to
some 30, so the background stage runs it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from assistant.scanner.erasures import Grid
from assistant.scanner.repair import Finder, find_finders

if TYPE_CHECKING:
    from cv2.typing import MatLike

#: The side of the codes looked for, in modules (version 1).
SIZE = 21
#: The steps (modules) the corners are moved by, coarse to fine, and how many rounds over the corners each step
#: may take (each move that scores better is kept at once).
STEPS = (0.5, 0.25, 0.125)
MAX_ROUNDS = 8
#: The code's scale along each of its sides, against the pattern's, tried before the corners are moved: a pattern a
#: third of the code across gives its module size to a few per cent only.
SCALES = tuple(0.85 + 0.015 * step for step in range(21))
#: Finder patterns tried in a region (the largest).
FINDERS = 2


def lone_grids(gray: MatLike) -> list[Grid]:
    """Where the modules of a code (greyscale region) may be, for each way its largest finder-like patterns can
    stand in it alone (see the module docstring); each grid names the corner its pattern is in."""
    import numpy as np

    grids = []
    for finder in find_finders(gray)[:FINDERS]:
        local = _local_fit(finder)
        if local is None:
            continue
        for turn in range(4):
            # the pattern at the code's top left, the code turned so that it lies on the pattern's turn-th side
            homography = local @ _turned(turn) @ _moved(-3.5, -3.5)
            if not _within(homography, gray.shape, finder.module):
                continue
            homography = _refined(gray, homography, finder.module)
            middle = _moved(SIZE / 2, SIZE / 2)
            for quarter, corner in ((0, (0, 0)), (3, (0, SIZE - 7)), (1, (SIZE - 7, 0))):
                # the code turned about its middle, so that the pattern is its top-right or bottom-left one
                turned = homography @ middle @ _turned(quarter) @ np.linalg.inv(middle)
                grids.append(Grid(turned, SIZE, (corner,)))
    return grids


def _local_fit(finder: Finder) -> Any:
    """The homography from the pattern's own module coordinates (its centre at 0, 0) to pixels, or None."""
    import cv2
    import numpy as np

    cx, cy = finder.centre
    corners = [(half, x, y) for half, points in finder.rings for x, y in points]
    angles = [4 * (math.atan2(y - cy, x - cx) - math.pi / 4) for _, x, y in corners]
    turn = math.atan2(sum(map(math.sin, angles)), sum(map(math.cos, angles))) / 4
    source, target = [(0.0, 0.0)], [finder.centre]
    for half, x, y in corners:
        angle = math.atan2(y - cy, x - cx) - turn
        source.append((math.copysign(half, math.cos(angle)), math.copysign(half, math.sin(angle))))
        target.append((x, y))
    if len(set(source)) < len(source):
        return None  # two corners took the same place: not a square's
    homography, _ = cv2.findHomography(np.array(source, float), np.array(target, float))
    return homography


def _turned(quarters: int) -> Any:
    import numpy as np

    cos, sin = ((1, 0), (0, 1), (-1, 0), (0, -1))[quarters]
    return np.array([[cos, -sin, 0], [sin, cos, 0], [0, 0, 1]], float)


def _moved(dx: float, dy: float) -> Any:
    import numpy as np

    return np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], float)


def _square() -> Any:
    """The code's corners in module coordinates: top left, top right, bottom right, bottom left."""
    import numpy as np

    return np.array([(0, 0), (SIZE, 0), (SIZE, SIZE), (0, SIZE)], np.float32)


def _corners(homography: MatLike) -> Any:
    """Where `homography` puts the code's corners, in pixels."""
    import cv2

    return cv2.perspectiveTransform(_square()[None], homography)[0]


def _within(homography: MatLike, shape: tuple[int, ...], module: float) -> bool:
    """Whether the code lies within the region, give or take two modules."""
    height, width = shape[:2]
    margin = 2 * module
    return all(-margin < x < width + margin and -margin < y < height + margin for x, y in _corners(homography))


def _scorer(gray: MatLike, module: float) -> Callable[[Any], float]:
    """How well a code whose corners are at the given pixels fits the region: the mean contrast at its module
    centres (each pixel's distance from the grey level around it, blurred over about a module: high in a
    module's middle, low on the edge between two) less the mean change from one module to the next on the ring
    just outside it, where the quiet zone is even."""
    import cv2
    import numpy as np

    image = gray.astype(np.float32)
    contrast = np.abs(image - cv2.GaussianBlur(image, (0, 0), max(module, 1.0)))
    smooth = cv2.GaussianBlur(image, (0, 0), 1.0)
    square = _square()
    centres = np.arange(SIZE, dtype=np.float32) + 0.5
    inside = np.stack(np.meshgrid(centres, centres), axis=-1).reshape(-1, 1, 2)
    along = np.arange(-1, SIZE + 1, dtype=np.float32) + 0.5
    sides = [np.stack([along, np.full_like(along, edge)], axis=-1) for edge in (-0.5, SIZE + 0.5)]
    ring = np.concatenate(sides + [side[:, ::-1] for side in sides]).reshape(-1, 1, 2)

    def score(corners: MatLike) -> float:
        homography = cv2.getPerspectiveTransform(square, corners)
        pixels = cv2.perspectiveTransform(inside, homography).reshape(SIZE, SIZE, 2)
        middles = float(cv2.remap(contrast, pixels[..., 0], pixels[..., 1], cv2.INTER_LINEAR).mean())
        around = cv2.perspectiveTransform(ring, homography).reshape(4, SIZE + 2, 2)
        levels = cv2.remap(smooth, around[..., 0], around[..., 1], cv2.INTER_LINEAR)
        return middles - float(np.abs(np.diff(levels, axis=1)).mean())

    return score


def _refined(gray: MatLike, homography: MatLike, module: float) -> Any:
    """The homography with the code's corners where it fits best (`_scorer`): the best of `SCALES` along each
    side, then each corner moved by each of `STEPS` while that fits better."""
    import cv2
    import numpy as np

    score = _scorer(gray, module)
    starts = []
    for across in SCALES:
        for down in SCALES:
            # scaled about the pattern's centre (3.5, 3.5), which stays where it was found
            scaled = homography @ np.array([[across, 0, 3.5 * (1 - across)], [0, down, 3.5 * (1 - down)], [0, 0, 1]])
            corners = _corners(scaled).astype(np.float32)
            starts.append((score(corners), corners))
    best, corners = max(starts, key=lambda start: start[0])
    for step in STEPS:
        for _ in range(MAX_ROUNDS):
            better = False
            for corner in range(4):
                for direction in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    moved = corners.copy()
                    moved[corner] += np.array(direction, np.float32) * step * module
                    moved_score = score(moved)
                    if moved_score > best:
                        best, corners, better = moved_score, moved, True
            if not better:
                break
    return cv2.getPerspectiveTransform(_square(), corners)
