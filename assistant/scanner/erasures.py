"""Reading a code part of which is hidden (a reflection, a thumb), by counting what cannot be seen as *erased*.

A decoder that cannot see part of a code guesses dark or light there, and each guess that is wrong costs the error
correction twice what a symbol it knows to be missing does: level Q corrects 6 wrong codewords of a version 1
code's 26, but 13 missing ones. zxing-cpp and ZBar only guess. So when every other stage has failed, the
background stage reads the modules itself, from where the finder patterns that show put them (a `Grid`, from
`repair.code_places` or `lone.lone_grids`):

1. each module's grey level is sampled (its centre and four points around it, against sensor noise), and
   compared with the grey of the dark modules and of the light ones around it: first the darkest and lightest of
   its eight neighbours, then, `ROUNDS` times, the smoothed grey of the neighbours taken for dark and for light
   (a reflection brightens the dark modules under it smoothly, so a fixed threshold, or one from the extremes
   alone, takes its washed-out edge for light). Where the two hardly differ (a patch burnt out by a
   reflection, a thumb's even skin), the module is *erased*; elsewhere its distance from their midpoint is how
   sure it is;
2. the format (error correction level and mask) is the valid one nearest to both of its copies, erased bits left
   out;
3. each block of codewords is solved for its erased codewords (a linear system over GF(256) on the syndromes);
   while the system does not hold, the least sure codeword left is erased as well (generalized minimum distance
   decoding), as long as `SPARE` syndromes remain to check the answer;
4. the data must be one of the project's own labels (`payloads.parse_label`). A wrong solution passes the spare
   syndrome one time in 256 and is then random data, which reads as a label (alphanumeric mode, its length,
   `TA2:` and two five-character codes) about one time in 10^11: one wrong read in some 10^13 tries, and the
   card must then be in play besides.

Tuning set (`benchmarks.frames`), frames the cascade, finder repair and every other stage miss: on seeds 0 to 39,
on which it was made, 5 of 22 with a reflection and 3 of 6 with a thumb over the modules; on seeds 40 to 79,
looked at once it was done, 8 of 24 with a reflection and 2 of 7 with a thumb; no wrong read, nor any on empty
tables. 3 to 15 ms a region, so it runs in the background stage.

Versions 1 to 4 (the stickers are version 1, the first label format's version 3).

**A bent grid** (`read_bent`), for a code of any payload whose three finder patterns show but whose modules no
longer lie where one homography puts them (printed on a wrinkled cloth, a curved page): the grid is first fitted
again through the three finder patterns and the alignment pattern (versions 2 to 6), each found where its rings
correlate best near where the grid puts it (`repair.code_places` fits a grid to two of the patterns, and the third
and the corner across from the first lie where it extrapolates them), then bent: at nodes every `BENT_SPACING`
modules the grid is shifted, within `BENT_REACH` of a module, to where the modules around it are sampled furthest
from their local mean (a module's middle, not its edge), and each module takes the shift of the nodes around it.
The modules read there are drawn as a clean code and given to zxing-cpp, whose own error correction checks the
read. Tuned on the photos seen while tuning (`tests/fixtures/qr_photos`): the one a plain decoder (OpenCV's WeChat)
read and the live path did not, `qrcode-4/06` (a code printed on a wrinkled cloth): of its 841 modules, 57 and 166
wrong on the two grids of its finder patterns, 33 and 34 through all four patterns, none bent as well. Tens of
milliseconds a grid, in the background stage's job only, after every other step on the region has read nothing.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from assistant.core.scanning.payloads import parse_label
from assistant.scanner.decoders import Decoded

if TYPE_CHECKING:
    import numpy as np
    from cv2.typing import MatLike
    from numpy.typing import NDArray

#: Syndromes left over to check a solution: with k erased codewords of a block, at least this many of its
#: error correction codewords must remain beyond them.
SPARE = 1
#: A module is erased when the modules around it range over less than this share of the code's contrast (the
#: finder patterns' dark against their light).
EVEN_SHARE = 0.15
#: Modules either side of a module that its local dark and light come from.
NEIGHBOURS = 1
#: Rounds of refining each module's local dark and light levels, and how far (modules) they are smoothed over.
ROUNDS = 3
SMOOTHING = 1.0
#: Where in a module its grey level is sampled: the centre and four points this share of a module from it.
SPREAD = 0.2

#: Error correction codewords per block and number of blocks, for versions 1 to 4, by level.
_EC_PER_BLOCK = {"L": (7, 10, 15, 20), "M": (10, 16, 26, 18), "Q": (13, 22, 18, 26), "H": (17, 28, 22, 16)}
_BLOCKS = {"L": (1, 1, 1, 1), "M": (1, 1, 1, 2), "Q": (1, 1, 2, 2), "H": (1, 1, 2, 4)}
_CODEWORDS = (26, 44, 70, 100)
#: The format's two bits for each level.
_LEVEL_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}
#: The bent grid (`read_bent`): how far a node may move the grid (modules), in steps of `BENT_STEP`; the nodes'
#: spacing (modules); the spread (modules) of the modules around a node that place it. Tuned on `qrcode-4/06` of the
#: photos seen while tuning, modules wrong on its two grids: a spread of 2 leaves 9 to 56, 3 and 5 none at a reach of
#: 0.45 (at 0.3, 0 to 3; at 0.6 with a spread of 3, up to 33), at a spacing of 4 or 7 alike.
BENT_REACH, BENT_STEP, BENT_SPACING, BENT_SPREAD = 0.45, 0.1, 4, 3.0
#: How far (modules) from where the grid puts it the alignment pattern is looked for (a finder pattern, half as far),
#: in steps of a quarter module.
ALIGNMENT_REACH = 2.0
#: Pixels a module in the clean code drawn for zxing-cpp, and its quiet zone (modules).
DRAWN_MODULE, QUIET_ZONE = 4, 4
_ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"


def _powers() -> tuple[list[int], list[int]]:
    """Arithmetic in GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1: the powers of 2 (twice over, so a
    sum of two logarithms needs no modulo) and the logarithms."""
    exp, log = [0] * 510, [0] * 256
    value = 1
    for power in range(255):
        exp[power] = exp[power + 255] = value
        log[value] = power
        value <<= 1
        if value & 0x100:
            value ^= 0x11D
    return exp, log


_EXP, _LOG = _powers()


def _mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _inverse(a: int) -> int:
    return _EXP[255 - _LOG[a]]


def solve_block(block: list[int], ec: int, order: list[int], erased: int) -> list[int] | None:
    """The block (data then error correction codewords) corrected, or None. `order`: the codewords' indices,
    least sure first; the first `erased` of them are missing. More of them are erased, one at a time, until the
    syndromes are met with `SPARE` of them left over to check."""
    n = len(block)
    syndromes = []
    for j in range(ec):
        total = 0
        for value in block:  # Horner's rule at alpha^j
            total = _mul(total, _EXP[j]) ^ value
        syndromes.append(total)
    if not any(syndromes):
        return block
    for count in range(max(erased, 1), ec - SPARE + 1):
        places = order[:count]
        # sum over k of e_k * X_k^j = S_j, with X_k = alpha^(n - 1 - index): one row per syndrome.
        rows = [[_EXP[(j * (n - 1 - i)) % 255] for i in places] + [syndromes[j]] for j in range(ec)]
        values = _eliminate(rows, count)
        if values is not None:
            fixed = list(block)
            for i, value in zip(places, values, strict=True):
                fixed[i] ^= value
            return fixed
    return None


def _eliminate(rows: list[list[int]], unknowns: int) -> list[int] | None:
    """Gaussian elimination over GF(256): the unknowns, when the system has exactly one solution."""
    pivot_row = 0
    for column in range(unknowns):
        pivot = next((r for r in range(pivot_row, len(rows)) if rows[r][column]), None)
        if pivot is None:
            return None
        rows[pivot_row], rows[pivot] = rows[pivot], rows[pivot_row]
        scale = _inverse(rows[pivot_row][column])
        rows[pivot_row] = [_mul(v, scale) for v in rows[pivot_row]]
        for r in range(len(rows)):
            factor = rows[r][column]
            if r != pivot_row and factor:
                rows[r] = [v ^ _mul(factor, p) for v, p in zip(rows[r], rows[pivot_row], strict=True)]
        pivot_row += 1
    if any(row[-1] for row in rows[unknowns:]):
        return None  # the syndromes left over do not hold: more is wrong than was erased
    return [row[-1] for row in rows[:unknowns]]


def format_bits(level: str, mask: int) -> int:
    """The 15 format bits of a level and mask (BCH code, then the standard's XOR pattern)."""
    data = _LEVEL_BITS[level] << 3 | mask
    remainder = data
    for _ in range(10):
        remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
    return (data << 10 | remainder) ^ 0x5412


_FORMATS = [(format_bits(level, mask), level, mask) for level in "LMQH" for mask in range(8)]


def format_places(size: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The (row, column) of each format bit, least significant first, in its two copies."""
    first = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)] + [(8, 14 - i) for i in range(9, 15)]
    second = [(8, size - 1 - i) for i in range(8)] + [(size - 15 + i, 8) for i in range(8, 15)]
    return first, second


def is_function(size: int, row: int, column: int) -> bool:
    """Whether a module is part of a finder pattern, its separator, the format, a timing pattern or the
    alignment pattern (versions 2 to 6), not data."""
    far = size - 8
    if (row <= 8 and (column <= 8 or column >= far)) or (row >= far and column <= 8):
        return True
    if row == 6 or column == 6:
        return True
    return size > 21 and abs(row - (size - 7)) <= 2 and abs(column - (size - 7)) <= 2


@functools.cache
def data_order(size: int) -> tuple[tuple[int, int], ...]:
    """The data modules (row, column) in the order their bits are placed: two columns at a time from the right,
    up then down, skipping the vertical timing pattern."""
    order = []
    right = size - 1
    upward = True
    while right >= 1:
        if right == 6:
            right = 5
        rows = range(size - 1, -1, -1) if upward else range(size)
        for row in rows:
            for column in (right, right - 1):
                if not is_function(size, row, column):
                    order.append((row, column))
        upward = not upward
        right -= 2
    return tuple(order)


def masked(mask: int, row: int, column: int) -> bool:
    """Whether the mask pattern inverts the module."""
    y, x = row, column
    return (
        (x + y) % 2 == 0,
        y % 2 == 0,
        x % 3 == 0,
        (x + y) % 3 == 0,
        (x // 3 + y // 2) % 2 == 0,
        x * y % 2 + x * y % 3 == 0,
        (x * y % 2 + x * y % 3) % 2 == 0,
        ((x + y) % 2 + x * y % 3) % 2 == 0,
    )[mask]


@dataclass(frozen=True)
class Grid:
    """Where a code's modules are: a homography from module coordinates to pixels, and the code's side."""

    homography: Any
    size: int
    finders: tuple[tuple[int, int], ...] | None = None
    """The top-left modules (row, column) of the finder patterns that give the code's dark and light: None for
    all three."""
    whole: bool = False
    """All three finder patterns show where the grid puts them (`repair.Place.shows`): a code whose modules a
    bent grid may read (`read_bent`)."""


@dataclass(frozen=True)
class Modules:
    """What was seen of a code: for each module (row by row) whether it looks dark, and how sure that is (0 is
    erased)."""

    size: int
    dark: list[list[bool]]
    sureness: list[list[float]]


def read_modules(modules: Modules) -> str | None:
    """The payload of a code's modules when it is one of the project's labels, else None."""
    size = modules.size
    version = (size - 17) // 4
    if not 1 <= version <= len(_CODEWORDS) or size != 17 + 4 * version:
        return None
    for _, level, mask in _format_candidates(modules):
        text = _read_data(modules, version, level, mask)
        if text is not None:
            return text
    return None


def _format_candidates(modules: Modules) -> list[tuple[int, str, int]]:
    """The valid formats nearest to what both copies show, nearest first (at most two, within 3 bits each)."""
    scored = []
    for places in format_places(modules.size):
        seen = [(modules.dark[r][c], modules.sureness[r][c] > 0) for r, c in places]
        if sum(known for _, known in seen) < 10:
            continue
        for bits, level, mask in _FORMATS:
            wrong = sum(known and bool(bits >> i & 1) != dark for i, (dark, known) in enumerate(seen))
            scored.append((wrong, level, mask))
    best: dict[tuple[str, int], int] = {}
    for wrong, level, mask in sorted(scored):
        if wrong <= 3:
            best.setdefault((level, mask), wrong)
    return sorted((wrong, level, mask) for (level, mask), wrong in best.items())[:2]


def _read_data(modules: Modules, version: int, level: str, mask: int) -> str | None:
    total = _CODEWORDS[version - 1]
    values, sure = [0] * total, [math.inf] * total
    for i, (row, column) in enumerate(data_order(modules.size)[: total * 8]):
        bit = modules.dark[row][column] != masked(mask, row, column)
        values[i // 8] |= bit << (7 - i % 8)
        sure[i // 8] = min(sure[i // 8], modules.sureness[row][column])
    blocks, ec = _BLOCKS[level][version - 1], _EC_PER_BLOCK[level][version - 1]
    data_per_block = total // blocks - ec
    data: list[int] = []
    solved = []
    for b in range(blocks):
        indices = [b + k * blocks for k in range(data_per_block)]
        indices += [blocks * data_per_block + b + k * blocks for k in range(ec)]
        order = sorted(range(len(indices)), key=lambda k: sure[indices[k]])
        erased = sum(sure[i] <= 0 for i in indices)
        fixed = solve_block([values[i] for i in indices], ec, order, erased)
        if fixed is None:
            return None
        solved.append(fixed[:data_per_block])
    for k in range(data_per_block):
        data += [block[k] for block in solved]
    text = _segments(data)
    return text if text is not None and parse_label(text) is not None else None


def _segments(data: list[int]) -> str | None:
    """The text of the data codewords (numeric, alphanumeric and byte segments, with the character counts of
    versions 1 to 9), or None if they do not parse."""
    bits = "".join(f"{value:08b}" for value in data)
    at, text = 0, []

    def take(count: int) -> int | None:
        nonlocal at
        if at + count > len(bits):
            return None
        value = int(bits[at : at + count], 2)
        at += count
        return value

    while len(bits) - at >= 4:
        mode = take(4)
        if mode == 0:
            break
        width = {1: 10, 2: 9, 4: 8}.get(mode or -1)
        count = take(width) if width else None
        if count is None:
            return None
        if mode == 1:
            for start in range(0, count, 3):
                digits = min(3, count - start)
                value = take((1, 4, 7, 10)[digits])
                if value is None or value >= 10**digits:
                    return None
                text.append(f"{value:0{digits}d}")
        elif mode == 2:
            for start in range(0, count, 2):
                value = take(11 if count - start >= 2 else 6)
                if value is None:
                    return None
                pair = divmod(value, 45) if count - start >= 2 else (value,)
                if any(v >= 45 for v in pair):
                    return None
                text.append("".join(_ALPHANUMERIC[v] for v in pair))
        else:
            raw = [take(8) for _ in range(count)]
            if None in raw:
                return None
            try:
                text.append(bytes(v for v in raw if v is not None).decode("utf-8"))
            except UnicodeDecodeError:
                return None
    return "".join(text)


def sample_modules(gray: MatLike, grid: Grid) -> Modules | None:
    """The modules of a code where `grid` puts them in `gray`, each dark or light by its neighbours, and erased
    where they hardly differ (see the module docstring)."""
    import cv2
    import numpy as np

    size = grid.size
    centres = np.arange(size, dtype=np.float32) + 0.5
    grid_x, grid_y = np.meshgrid(centres, centres)
    image = gray.astype(np.float32)
    samples = []
    for dx, dy in ((0, 0), (SPREAD, 0), (-SPREAD, 0), (0, SPREAD), (0, -SPREAD)):
        points = np.stack([grid_x + dx, grid_y + dy], axis=-1).reshape(-1, 1, 2)
        pixels = cv2.perspectiveTransform(points, grid.homography).reshape(size, size, 2)
        samples.append(cv2.remap(image, pixels[..., 0], pixels[..., 1], cv2.INTER_LINEAR))
    values = np.mean(samples, axis=0)
    dark_ref, light_ref = _finder_levels(values, grid)
    contrast = light_ref - dark_ref
    if contrast <= 0:
        return None
    window = np.ones((2 * NEIGHBOURS + 1,) * 2, np.uint8)
    high = cv2.dilate(values, window, borderType=cv2.BORDER_REPLICATE)
    low = cv2.erode(values, window, borderType=cv2.BORDER_REPLICATE)
    middle = (high + low) / 2
    for _ in range(ROUNDS):
        dark = (values < middle).astype(np.float32)
        low = _smoothed(values, dark, high)
        high = _smoothed(values, 1 - dark, low)
        middle = (high + low) / 2
    sureness = np.where(high - low < EVEN_SHARE * contrast, 0.0, np.abs(values - middle) / contrast)
    return Modules(size, (values < middle).tolist(), sureness.tolist())


def _smoothed(values: NDArray[Any], chosen: NDArray[Any], fallback: NDArray[Any]) -> NDArray[Any]:
    """The grey level of the `chosen` modules (a 0/1 grid) around each module, smoothly weighted; `fallback`
    where none is near."""
    import cv2
    import numpy as np

    weight = cv2.GaussianBlur(chosen, (0, 0), SMOOTHING)
    level = cv2.GaussianBlur(values * chosen, (0, 0), SMOOTHING)
    return np.where(weight > 0.05, level / np.maximum(weight, 1e-6), fallback)


def _finder_levels(values: NDArray[np.floating[Any]], grid: Grid) -> tuple[float, float]:
    """The median grey of the finder patterns' dark modules and of their light ring."""
    import numpy as np

    dark: list[float] = []
    light: list[float] = []
    far = grid.size - 7
    for top, left in grid.finders or ((0, 0), (0, far), (far, 0)):
        for r in range(7):
            for c in range(7):
                ring = max(abs(r - 3), abs(c - 3))
                (light if ring == 2 else dark).append(values[top + r, left + c])
    return float(np.median(dark)), float(np.median(light))


def read_hidden(
    gray: MatLike,
    grids: Iterable[Grid],
    match: Callable[[Modules], str | None] | None = None,
    stage: str = "erasures",
) -> Decoded | None:
    """The label a code's region (greyscale) holds, read from the modules where each of its `grids` puts them
    (those of `repair.code_places`, or `lone.lone_grids`), the first that reads, as from `stage`; None when none
    does. The box is in `gray`'s pixels. `match`: what to try on the modules when the error correction cannot
    solve them (`known.KnownLabels.match`); its reads come from the stage "known labels". Where none of them
    reads, each grid of a code whose three finder patterns show is bent to it (`read_bent`, any payload)."""
    import cv2
    import numpy as np

    grids = list(grids)
    for grid in grids:
        modules = sample_modules(gray, grid)
        if modules is None:
            continue
        text, by = read_modules(modules), stage
        if text is None and match is not None:
            text, by = match(modules), "known labels"
        if text is not None:
            size = grid.size
            corners = np.array([[(0, 0), (size, 0), (size, size), (0, size)]], np.float32)
            x, y, w, h = cv2.boundingRect(cv2.perspectiveTransform(corners, grid.homography).astype(np.float32))
            return Decoded(text, text.encode(), (x, y, w, h), by)
    for grid in grids:
        if grid.whole and (read := read_bent(gray, grid)) is not None:
            return read
    return None


def module_centres(homography: Any, size: int) -> Any:
    """Each module's centre in pixels (size x size x 2: x, y) where `homography` puts it."""
    import cv2
    import numpy as np

    centres = np.arange(size, dtype=np.float32) + 0.5
    grid_x, grid_y = np.meshgrid(centres, centres)
    points = np.stack([grid_x, grid_y], axis=-1).reshape(-1, 1, 2)
    return np.asarray(cv2.perspectiveTransform(points, homography), np.float32).reshape(size, size, 2)


def _rings(half: int, dark: tuple[int, ...]) -> Any:
    """A square pattern of rings, 1 for light and 0 for dark: `dark` lists the rings (0 the middle) that are dark,
    out to ring `half`."""
    import numpy as np

    ring = np.maximum(*np.abs(np.mgrid[-half : half + 1, -half : half + 1]))
    return np.where(np.isin(ring, dark), 0.0, 1.0).astype(np.float32)


#: A finder pattern with its light separator round it, and an alignment pattern with the light round it.
_FINDER, _ALIGNMENT = _rings(4, (0, 1, 3)), _rings(3, (0, 2))


def _found(gray: MatLike, homography: Any, pattern: Any, centre: tuple[float, float], reach: float) -> Any:
    """Where `pattern` (module by module, see `_rings`) is best correlated with the modules `homography` puts round a
    place within `reach` modules of `centre` (module coordinates), in steps of a quarter module: that place, in
    module coordinates."""
    import cv2
    import numpy as np

    half = pattern.shape[0] // 2
    steps = np.arange(-reach, reach + 1e-6, 0.25, dtype=np.float32)
    shift_x, shift_y = (a.ravel() for a in np.meshgrid(steps, steps))
    offsets = np.arange(-half, half + 1, dtype=np.float32)
    ring_x, ring_y = (a.ravel() for a in np.meshgrid(offsets + centre[0], offsets + centre[1]))
    points = np.stack([ring_x[None, :] + shift_x[:, None], ring_y[None, :] + shift_y[:, None]], axis=-1)
    pixels = cv2.perspectiveTransform(points.reshape(-1, 1, 2), homography).reshape(len(shift_x), -1, 2)
    values = cv2.remap(gray.astype(np.float32), pixels[..., 0], pixels[..., 1], cv2.INTER_LINEAR)
    values = values - values.mean(axis=1, keepdims=True)
    centred = pattern.ravel() - pattern.mean()
    scores = values @ centred / np.maximum(np.linalg.norm(values, axis=1), 1e-6)  # correlation, up to a constant
    best = int(np.argmax(scores))
    return (centre[0] + float(shift_x[best]), centre[1] + float(shift_y[best]))


def through_patterns(gray: MatLike, grid: Grid) -> Any:
    """`grid`'s homography fitted again through the three finder patterns and the alignment pattern (versions 2 to
    6), found within `ALIGNMENT_REACH` of where the grid puts them (a finder pattern, half as far): the grid of
    `repair.code_places` is fitted to two finder patterns, so the third and the corner across from the first lie
    where it extrapolates them. A 3 x 3 homography (affine for version 1, which has no alignment pattern)."""
    import cv2
    import numpy as np

    size = grid.size
    places = [(3.5, 3.5), (size - 3.5, 3.5), (3.5, size - 3.5)]
    found = [_found(gray, grid.homography, _FINDER, place, ALIGNMENT_REACH / 2) for place in places]
    if size >= 25:
        places.append((size - 6.5, size - 6.5))
        found.append(_found(gray, grid.homography, _ALIGNMENT, places[-1], ALIGNMENT_REACH))
    target = np.asarray(cv2.perspectiveTransform(np.array([found], np.float32), grid.homography), np.float32)[0]
    source = np.array(places, np.float32)
    if len(places) == 4:
        return cv2.getPerspectiveTransform(source, target)
    return np.vstack([cv2.getAffineTransform(source, target), [0.0, 0.0, 1.0]])


def bent_centres(gray: MatLike, grid: Grid) -> Any:
    """Each module's centre in pixels (size x size x 2) on the grid bent to the code (see the module docstring)."""
    import cv2
    import numpy as np

    size = grid.size
    centres = module_centres(through_patterns(gray, grid), size)
    along_x, along_y = np.gradient(centres, axis=1), np.gradient(centres, axis=0)  # a module's step, in pixels
    module = float(np.median(np.linalg.norm(along_x, axis=-1)))
    image = gray.astype(np.float32)
    window = (max(3, round(module * 3) | 1),) * 2
    mean = cv2.blur(image, window)
    spread = np.sqrt(np.maximum(cv2.blur(image * image, window) - mean * mean, 1.0))
    apart = np.abs(image - mean) / spread  # high in a module's middle, low on its edges
    shifts = np.arange(-BENT_REACH, BENT_REACH + 1e-6, BENT_STEP, dtype=np.float32)
    scores = np.empty((len(shifts), len(shifts), size, size), np.float32)
    for i, across in enumerate(shifts):
        for j, down in enumerate(shifts):
            moved = centres + across * along_x + down * along_y
            scores[i, j] = cv2.remap(apart, moved[..., 0], moved[..., 1], cv2.INTER_LINEAR)
    nodes = np.array([*range(0, size - 1, BENT_SPACING), size - 1], np.float32)
    near = np.exp(-((np.arange(size)[:, None] - nodes[None, :]) ** 2) / (2 * BENT_SPREAD**2)).astype(np.float32)
    # Each node's score for each shift: the modules' scores weighted by their distance from it (rows times columns).
    totals = np.einsum("ijrc,ra,cb->abij", scores, near, near).reshape(len(nodes), len(nodes), -1)
    best = np.unravel_index(np.argmax(totals, axis=-1), (len(shifts), len(shifts)))
    node_shifts = np.stack([shifts[best[0]], shifts[best[1]]], axis=-1).astype(np.float32)
    du = np.asarray(cv2.resize(node_shifts[..., 0], (size, size), interpolation=cv2.INTER_LINEAR))[..., None]
    dv = np.asarray(cv2.resize(node_shifts[..., 1], (size, size), interpolation=cv2.INTER_LINEAR))[..., None]
    return (centres + du * along_x + dv * along_y).astype(np.float32)


def read_bent(gray: MatLike, grid: Grid) -> Decoded | None:
    """The code (any payload) whose modules lie on `grid` bent to it (see the module docstring), read by zxing-cpp
    from a clean drawing of them; None when it reads nothing there, or zxing-cpp is missing. The box is in `gray`'s
    pixels."""
    import cv2
    import numpy as np

    try:
        import zxingcpp
    except (ImportError, OSError):
        return None
    from assistant.scanner.decoders import payload_text

    centres = bent_centres(gray, grid)
    values = cv2.remap(gray.astype(np.float32), centres[..., 0], centres[..., 1], cv2.INTER_LINEAR)
    window = np.ones((5, 5), np.uint8)  # two modules either side: the local dark and light
    middle = (cv2.dilate(values, window) + cv2.erode(values, window)) / 2
    drawn = np.where(values < middle, 0, 255).astype(np.uint8)
    drawn = np.kron(drawn, np.ones((DRAWN_MODULE, DRAWN_MODULE), np.uint8))
    drawn = np.pad(drawn, QUIET_ZONE * DRAWN_MODULE, constant_values=255)
    try:
        results = zxingcpp.read_barcodes(
            drawn,
            formats=zxingcpp.BarcodeFormat.QRCode,  # type: ignore[arg-type]  # one format is a set of formats
            text_mode=zxingcpp.TextMode.Plain,
            is_pure=True,
        )
    except (RuntimeError, ValueError, TypeError):
        return None
    for result in results:
        if getattr(result, "valid", True):
            raw = bytes(result.bytes)
            x, y, w, h = cv2.boundingRect(centres.reshape(-1, 2))
            return Decoded(payload_text(raw, result.text), raw, (x, y, w, h), "bent grid")
    return None
