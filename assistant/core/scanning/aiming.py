"""Aiming guidance for a blind player: one short cue from what the camera sees, and how often to say it.

The scanner adapter measures a frame (where a code-like pattern is, how big, how sharp, how bright); this
module turns those numbers into one cue, so the choice is a pure function tested on its own and on rendered
frames. Cues are ordered by what must be fixed first: a code cut off by the edge of the picture cannot be read
however sharp it is, a dark picture is also a blurred one (long exposure, noise), a code too close fills the
picture and is out of focus, a finger hides a corner of a code whose other corners show, a reflection burns out
part of a sharp code, or of any code in a still picture (and leaves a small, squashed piece of it, so it is named
before size and shape), one too far is too small, a blurred one needs holding still unless the picture is still
and the code squashed (a card turned far away: its foreshortened modules measure blurred), one turned away from
the camera is squashed.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass


class Cue(enum.Enum):
    """One piece of aiming guidance; its value names the words spoken (see `words.scans.aiming_words`)."""

    READ = "read"
    """A code was read: the distinct confirmation."""
    MOVE_LEFT = "move left"
    MOVE_RIGHT = "move right"
    MOVE_UP = "move up"
    MOVE_DOWN = "move down"
    MORE_LIGHT = "more light"
    CLOSER = "closer"
    FURTHER = "further"
    """The code fills the picture (or is cut off on opposite sides): too close to read or focus."""
    TILT = "tilt"
    """The code is squashed: the card is turned away from the camera."""
    GLARE = "glare"
    """A reflection (a lamp on a glossy card or sleeve) burns out part of the code: tilt the card a little."""
    FINGER = "finger"
    """A thumb or finger covers one of the code's corners (its finder patterns): hold the card by its edges."""
    HOLD_STILL = "hold still"


@dataclass(frozen=True)
class FrameView:
    """What the scanner measured in one frame."""

    width: int
    """Frame width in pixels."""
    height: int
    """Frame height in pixels."""
    region: tuple[int, int, int, int] | None = None
    """The code-like region seen (x, y, width, height in pixels), or None when nothing like a code is seen."""
    sharpness: float = 0.0
    """How crisp the region is (second-derivative variance along its least sharp direction); low means blurred."""
    brightness: float = 128.0
    """Mean grey level of the region (or the frame), 0 to 255."""
    read: bool = False
    """A code was read in this frame."""
    saturated: float = 0.0
    """The largest patch burnt out to a flat, clipped white in and around the region, as a share of the region's
    area (capped at 1): a reflection hiding part of the code."""
    highlight: float = 1.0
    """How much brighter the region's brightest part is than its white paper (99th over 90th percentile grey level;
    1 for a code alone): a reflection the camera does not clip, once the exposure has been lowered."""
    clipped_however_exposed: bool = False
    """The code's white stays clipped at an exposure far shorter than the camera's own
    (`assistant.core.scanning.exposure.ExposureControl.reflection`): a reflection, however sharp or still the code."""
    exposure_shortened: bool = False
    """The scanner has asked the camera for less than its own exposure (`assistant.core.scanning.exposure`): a dark
    picture
    is then the scanner's doing, not the room's, and asks for no more light."""
    squareness: float = 1.0
    """The code-like region's shape: its shorter side over its longer one, measured on the smallest rectangle
    around it at any angle (1 for a code facing the camera, cos 40 degrees = 0.77 tilted 40 degrees)."""
    card: tuple[int, int, int, int] | None = None
    """The card found on its own, as the brightest compact patch of the picture (its white sticker, or the whole
    card when a light border joins it), (x, y, width, height) in pixels; None when none is seen."""
    card_side: float = 0.0
    """The found card's shorter side in pixels, measured at any angle: its width, 59 to 63 mm."""
    hidden_corner: bool = False
    """Two of the code's three finder patterns (the squares in its corners) show, and the third is not where they
    put it, nor burnt out to a flat white there: a thumb or finger over that corner."""
    still: bool = False
    """The picture did not move since the frame before (a card held up, trembling only): a burnt-out patch on it is
    then no smear of a moving white sticker, even where the code measures blurred."""


@dataclass(frozen=True)
class Thresholds:
    """Where each cue starts. Defaults measured on rendered 1280 by 720 frames (see docs/scanner.md)."""

    dark: float = 55.0
    """Below this mean grey level: "more light"."""
    min_side: int = 100
    """A code-like region (the card, as the scanner finds it) narrower than this many pixels is too far away to
    read: "closer". On rendered 720p frames a card reads reliably up to about 1 m, where it is some 80 pixels
    wide; the margin asks for "closer" a little before that."""
    min_sharpness: float = 100.0
    """Below this sharpness (second-derivative variance in the least sharp direction, see
    `assistant.scanner.measure.sharpness`): "hold still". Rendered unreadable blurred frames measure 15 to 60,
    sharp ones 600 and more."""
    edge_margin: int = 4
    """A region within this many pixels of the frame's edge is cut off by it."""
    max_side: float = 0.7
    """A region whose shorter side is more than this fraction of the frame's height (or cut off on opposite
    sides), when also blurred, is too close for the webcam's fixed focus: "further"."""
    max_saturated: float = 0.04
    """A patch burnt out to a flat white larger than this share of the region, on a sharp region: "glare". On 40
    rendered tuning frames of each kind, those without a reflection measure 0.025 at most; 17 of the 23 a reflection
    leaves unreadable measure more than 0.04 (6 to 17 %)."""
    max_highlight: float = 1.4
    """A region whose brightest part is more than this many times as bright as its paper (`FrameView.highlight`):
    "glare", as for a burnt-out patch. Tuning set, exposure lowered to 0.6 and 0.36 of its own: 10 and 15 of 20
    glare frames measure more; without a reflection, at its own exposure or 1.5 times it, 1.26 at most (a small far
    code, whose paper is a smaller share of its region). The noisiest frames (noise of 18 to 32 grey levels) reach
    1.85 at 0.36, an exposure the metering lowers to only for a white clipped in a bright picture."""
    max_saturated_squashed: float = 0.1
    """The same on a squashed region (squareness below `min_squareness`). A card turned 65 degrees away from the
    evaluation camera over a dark felt has its white edge clipped flat by the exposure, a 0.055 patch; the squashed
    pieces a reflection leaves of a code on the evaluation hand clips measure 0.38 and more (not blind)."""
    min_squareness: float = 0.7
    """A region squarer than this is facing the camera well enough; below it (tilted more than about 45
    degrees): "tilt"."""
    min_card_side: float = 88.0
    """A card found on its own (`FrameView.card`) narrower than this many pixels is too far away to read, whatever
    code-like region was found: "closer". Set on the rendered tuning frames of busy tables: every frame reads with
    the card 60 cm away (its sticker 89 to 95 pixels wide), some do not from 65 cm (82 to 87 pixels), and there it
    is coming closer that makes the code stand out from the table. 88 pixels is the sticker's 59.4 mm at 62 cm, a
    whole card's 63 mm at 65 cm."""


def aiming_cue(view: FrameView, limits: Thresholds = Thresholds(), facing_player: bool = True) -> Cue | None:
    """The one cue for this frame, or None when there is nothing useful to say.

    `facing_player`: the camera looks at the player (a laptop's webcam), so the picture is a mirror of what the
    player sees and a code cut off on the picture's left needs the card moved to the player's left. With a camera
    looking down at the table from the player's side, pass False.
    """
    if view.read:
        return Cue.READ
    card = view.card
    far_card = (
        card is not None
        and view.card_side < limits.min_card_side
        and inside(card, view.width, view.height, limits.edge_margin)  # a card cut off is no measure of its distance
    )
    if view.region is None or far_card:
        # A small card is too far away, whatever region was found (the table's own pattern, or the card with a
        # margin of table, measure larger than its code); with nothing code-like, a very dark picture may be why,
        # otherwise the player is not aiming yet.
        if view.brightness < limits.dark and not view.exposure_shortened:
            return Cue.MORE_LIGHT
        return Cue.CLOSER if far_card else None
    x, y, w, h = view.region
    left = x <= limits.edge_margin
    right = x + w >= view.width - limits.edge_margin
    top = y <= limits.edge_margin
    bottom = y + h >= view.height - limits.edge_margin
    filling = (left and right) or (top and bottom) or min(w, h) > limits.max_side * view.height
    if filling and view.sharpness < limits.min_sharpness:
        return Cue.FURTHER  # filling the picture and out of focus (a fixed-focus webcam): too close
    if left != right:  # cut off on one side only
        # Cut off on the player's own left (the picture's right when the camera faces them): move right.
        players_left = right if facing_player else left
        return Cue.MOVE_RIGHT if players_left else Cue.MOVE_LEFT
    if top != bottom:
        return Cue.MOVE_DOWN if top else Cue.MOVE_UP
    if view.brightness < limits.dark and not view.exposure_shortened:
        return Cue.MORE_LIGHT
    sharp = view.sharpness >= limits.min_sharpness
    squashed = view.squareness < limits.min_squareness
    # A small burnt-out patch on a squashed code may be the white card edge clipped by the exposure as the card turns
    # away: "face the camera" first, which also moves a reflection; a large one is named whatever the shape.
    glare = (
        view.saturated > (limits.max_saturated_squashed if squashed else limits.max_saturated)
        or view.highlight > limits.max_highlight
    )
    if view.hidden_corner and sharp:
        # Before a reflection: a corner burnt out by one is not counted as hidden (`hidden_corner`), and a white
        # sticker clipped by the camera's exposure looks burnt out too. Before size and shape: the patterns that
        # show are large enough to find.
        return Cue.FINGER
    if (glare and (sharp or view.still)) or view.clipped_however_exposed:
        # Blurred, only in a still picture (a moving sticker's smear looks burnt out too). Before size and shape:
        # what a reflection leaves of a code is a small, squashed piece, and the cure for a reflection is the same
        # at any angle (tilt a little away from the light), unlike "face the camera".
        return Cue.GLARE
    if max(w, h) < limits.min_side:
        return Cue.CLOSER
    if not sharp:
        if squashed and view.still:
            return Cue.TILT  # held still, a card turned far away measures blurred: its modules are foreshortened
        return Cue.HOLD_STILL  # a code smeared across a clipped white sticker looks burnt out too: moving, not glare
    if squashed:
        return Cue.TILT
    return None


def inside(box: tuple[int, int, int, int], width: int, height: int, margin: int = 0) -> bool:
    """True when the box keeps more than `margin` pixels from every edge of the picture."""
    x, y, w, h = box
    return x > margin and y > margin and x + w < width - margin and y + h < height - margin


class CuePacer:
    """Paces cues, so guidance never floods the speech nor talks to a card still on its way in.

    A cue is said only once it has settled: it is this frame's cue and was the cue of more than `share` of the frames
    measured over the last `settle` seconds (and the frame before, when frames come slower than that), and of at
    least `votes` of them, and `settle` seconds have passed since the first frame or the last read. A card being
    brought in changes its cue as it moves (cut off, then blurred, then read); a problem that stays keeps its cue.
    A frame in which nothing code-like was seen (`seen` False) has no say: a reflection burning out most of a code
    leaves a piece that the search finds in one frame and not the next, and the frames that found it agree.
    Then at most one cue every `interval` seconds, the same cue again only after `repeat` seconds, and no more
    than `most` cues while nothing moves in front of the camera: a table's own pattern taken for a code gives cues
    that stay as long as the table does, and a player who has not moved after two cues will not after a third. The
    confirmation of a read is said at once, always.

    A player who came closer as asked, but not enough, hears "closer" again after `interval` rather than `repeat`,
    and that counts as a move: the found card's side (`card`), as the median over the last `settle` seconds, is
    `acted` times what it was when the cue was said or more. A card far away moves too few pixels for the motion
    measure, and a player told "closer" once from 1.1 m was left 3.4 s in silence at 77 cm. Only the card counts:
    the code-like regions a busy table's pattern offers change size from frame to frame by half."""

    def __init__(
        self,
        interval: float = 1.5,
        repeat: float = 4.0,
        settle: float = 0.5,
        share: float = 0.5,
        most: int = 2,
        votes: int = 2,
        acted: float = 1.2,
    ):
        self.interval = interval
        self.repeat = repeat
        self.settle = settle
        self.share = share
        self.most = most
        self.votes = votes
        self.acted = acted
        self._last: tuple[Cue, float] | None = None
        self._said_card: float | None = None  # the card's side when the last cue was said
        self._unmoved = 0  # cues said since the picture last moved
        self._window: deque[tuple[float, Cue | None, bool, float | None]] = deque()
        self._since: float | None = None

    def pace(
        self,
        cue: Cue | None,
        now: float,
        moved: bool = False,
        seen: bool = True,
        card: float | None = None,
    ) -> Cue | None:
        """This frame's cue (None: nothing to say about it), whether the picture moved since the frame before,
        whether anything code-like was seen in it and the found card's shorter side in pixels (None: no card
        found); returns the cue to say now, if any."""
        window = self._window
        if moved or cue is Cue.READ:
            self._unmoved = 0
        if cue is Cue.READ:
            window.clear()  # the next card settles afresh
            self._since = None
            self._last = (cue, now)
            return cue
        if self._since is None:
            self._since = now
        window.append((now, cue, seen, card))
        while len(window) > 2 and now - window[0][0] > self.settle:
            window.popleft()
        side = self._card_side()
        acted = (
            cue is Cue.CLOSER
            and self._last is not None
            and self._last[0] is cue
            and side is not None
            and self._said_card is not None
            and side >= self.acted * self._said_card
        )
        if acted:
            self._unmoved = 0
        if cue is None or now - self._since < self.settle:
            return None
        agree = sum(c is cue for _, c, _, _ in window)
        if agree <= self.share * sum(voted for _, _, voted, _ in window) or agree < self.votes:
            return None
        if self._unmoved >= self.most:
            return None
        if self._last is not None:
            last_cue, when = self._last
            if now - when < self.interval or (cue is last_cue and not acted and now - when < self.repeat):
                return None
        self._unmoved += 1
        self._last = (cue, now)
        self._said_card = side
        return cue

    def _card_side(self) -> float | None:
        """The median of the found card's side over the frames in the window (None: no card found in them)."""
        sides = sorted(side for *_, side in self._window if side is not None)
        return sides[len(sides) // 2] if sides else None
