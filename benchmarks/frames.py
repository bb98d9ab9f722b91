"""Rendered "card on a table" camera frames for the scanner's tests and benchmark.

A card carrying one of our QR stickers (drawn by `assistant.scanner.stickers`, so the sticker is the one players
print) is placed on a wood-like table and seen by a 1280 by 720 camera at a chosen distance, then degraded the
way webcams degrade pictures: perspective, rotation, focus blur, motion blur, low light with its sensor noise,
glare, noise, a small code far away, and mixtures; and a thumb holding the card over one of the code's finder
patterns (from the card's side, or in "other thumbs" from its end as well, beside the pattern's centre, washed out
pale or not). Every frame is made from a seed, so the same seed gives the
same frame on every machine. Frames are greyscale-ready BGR numpy arrays, like a camera's.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from assistant.core.scanning.payloads import label_payload
from assistant.scanner import stickers

WIDTH, HEIGHT = 1280, 720
#: A poker-size card, as Unstable Unicorns is printed.
CARD_MM = (63.0, 88.0)
#: Card pixels per millimetre before it is warped into the frame (sharper than any frame needs).
CARD_PX_PER_MM = 8.0

#: Degradation categories of the benchmark, in report order.
CATEGORIES = (
    "clean",
    "perspective",
    "rotation",
    "blur",
    "motion",
    "dark",
    "glare",
    "noise",
    "small",
    "mixed",
    "thumb",
    "other thumbs",
)


@dataclass(frozen=True)
class Scene:
    """Everything that decides one frame."""

    payload: str = label_payload("uu-2nd", "rainbow-aura")
    distance_mm: float = 380.0
    """Camera to card: the card's size in the frame follows from it (see `mm_per_pixel`)."""
    centre: tuple[float, float] = (0.5, 0.5)
    """The card's centre as fractions of the frame's width and height (may be partly outside)."""
    angle: float = 0.0
    """Rotation in the image plane, degrees."""
    tilt: tuple[float, float] = (0.0, 0.0)
    """Perspective: how much narrower the far edge is than the near one, across and along (0 is face-on)."""
    turn: float = 0.0
    """The card turned away from the camera about its long axis, degrees: its width foreshortened by the cosine."""
    blur: float = 0.7
    """Focus blur, Gaussian sigma in pixels (a webcam's lens and demosaicing soften every picture a little)."""
    motion: tuple[float, float] = (0.0, 0.0)
    """Motion blur: length in pixels and direction in degrees."""
    gain: float = 1.0
    """Light: 1 is a well-lit table, 0.1 a dim room."""
    glare: float = 0.0
    """Peak brightness added by a reflection over the code (0 to 255; more burns out a wider patch)."""
    glare_size: float = 0.0
    """The reflection's radius in pixels (0: 20 to 40 at random); a large one hides a good part of the code."""
    noise: float = 2.0
    """Sensor noise, standard deviation in grey levels (grows as light falls)."""
    jpeg: int = 85
    """JPEG quality, as a webcam's MJPG stream compresses each frame (0: none)."""
    seed: int = 0
    """Seeds the noise and the glare's place."""
    table: int = 0
    """Which of four table textures (wood-like; the seed of `table_texture`)."""
    busy_table: str = ""
    """A busier table instead (see `BUSY_TABLES`): "" for none."""
    show_code: bool = True
    """False draws the card without a sticker (for false-positive checks)."""
    thumb: tuple[int, float] | None = None
    """A thumb holding the card over one of the code's finder patterns: (which, 0 top left, 1 top right, 2 bottom
    left; how far the middle of its rounded tip reaches past the pattern's inner edge, mm, negative short of it:
    the tip itself is up to half a thumb's width further)."""
    thumb_from_end: bool = False
    """The thumb comes from the card's nearest end (top or bottom edge) instead of its nearest side."""
    thumb_pale: float = 0.0
    """How far the thumb's skin is washed out towards white (0 as lit, 1 white): a thumb nearer the lamp than the
    card, clipped by an exposure set for the card."""
    thumb_offset: float = 0.0
    """How far the thumb's middle line passes beside the pattern's centre, mm (it then hides only part of it)."""
    extra: tuple = field(default=())
    """More (payload, centre) pairs: other cards in the same frame."""


@functools.lru_cache(maxsize=8)
def table_texture(seed: int = 0) -> np.ndarray:
    """A wood-like table top, BGR, deterministic for a seed."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    warp = cv2.GaussianBlur(rng.normal(0, 1, (HEIGHT, WIDTH)).astype(np.float32), (0, 0), 25) * 60
    grain = np.sin((y + warp) / (6 + 3 * rng.random())) * 0.5 + 0.5
    fine = cv2.GaussianBlur(rng.normal(0, 1, (HEIGHT, WIDTH)).astype(np.float32), (0, 0), 1.2)
    shade = 0.55 + 0.25 * grain + 0.05 * fine + 0.1 * (x / WIDTH)
    base = np.array([60, 105, 150], np.float32)  # a mid brown, BGR
    return np.clip(shade[..., None] * base[None, None, :] * 1.3, 0, 255).astype(np.uint8)


#: Tables whose own pattern has edges running both across and down, as a code's do: a pale wood with a dense,
#: contrasty grain and knots, and a gingham cloth.
BUSY_TABLES = ("pale grain", "gingham")


@functools.lru_cache(maxsize=4)
def busy_table_texture(kind: str, seed: int = 0) -> np.ndarray:
    """A busy table top (one of `BUSY_TABLES`), BGR, deterministic for a seed."""
    rng = np.random.default_rng(seed + 31)
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    fine = cv2.GaussianBlur(rng.normal(0, 1, (HEIGHT, WIDTH)).astype(np.float32), (0, 0), 1.0)
    if kind == "pale grain":
        # Grain lines a few pixels apart, bent around knots, from nearly white to a mid brown.
        warp = cv2.GaussianBlur(rng.normal(0, 1, (HEIGHT, WIDTH)).astype(np.float32), (0, 0), 12) * 90
        for _ in range(6):
            kx, ky, kr = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT), rng.uniform(15, 40)
            warp += 40 * kr / np.sqrt((x - kx) ** 2 + (y - ky) ** 2 + kr**2)
        grain = np.sin((y + 0.3 * x * rng.uniform(-0.2, 0.2) + warp) / 2.2) * 0.5 + 0.5
        shade = 0.62 + 0.36 * grain + 0.04 * fine
        base = np.array([175, 210, 240], np.float32)  # a pale maple, BGR
    elif kind == "gingham":
        # Two sets of stripes crossing: squares 14 pixels wide, dark where both cross, mid where one does.
        across = (np.floor(x / 14) % 2).astype(np.float32)
        down = (np.floor(y / 14) % 2).astype(np.float32)
        shade = 0.95 - 0.3 * across - 0.3 * down + 0.03 * fine
        base = np.array([200, 200, 245], np.float32)  # red and white, BGR
    else:
        raise ValueError(f"unknown table {kind!r}")
    return np.clip(shade[..., None] * base[None, None, :], 0, 255).astype(np.uint8)


@functools.lru_cache(maxsize=64)
def card_image(payload: str, show_code: bool = True, thumb: tuple | None = None) -> np.ndarray:
    """The card's back with our sticker on it, BGR, at `CARD_PX_PER_MM`, and a thumb over it when asked:
    (which pattern, reach mm, from the end, pale, offset mm), as in `Scene`."""
    w, h = (round(v * CARD_PX_PER_MM) for v in CARD_MM)
    card = np.zeros((h, w, 3), np.uint8)
    card[:] = (150, 60, 120)  # a purple card back
    cv2.rectangle(card, (12, 12), (w - 13, h - 13), (200, 160, 220), 6)
    for i in range(0, h, 24):  # a printed pattern under the sticker, so the card is not a flat colour
        cv2.line(card, (0, i), (w, i + 40), (170, 90, 150), 3)
    if not show_code:
        cv2.putText(card, "UNICORN", (40, h // 2), cv2.FONT_HERSHEY_SIMPLEX, 2.2, (240, 240, 240), 5)
        return card
    sticker = stickers.Sticker(_FakeCard(), "rb aura", payload)  # name and abbreviation only matter to print
    version = stickers.qr_version(payload)
    image = np.asarray(stickers.render_sticker(sticker, version))
    sw = round(stickers.sticker_size_mm(version)[0] * CARD_PX_PER_MM)
    sh = round(sw * image.shape[0] / image.shape[1])
    small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    x0, y0 = (w - sw) // 2, (h - sh) // 2
    card[y0 : y0 + sh, x0 : x0 + sw] = small[..., None]
    if thumb is not None:
        module = sw / (17 + 4 * version + 2 * stickers.QUIET_MODULES)
        _draw_thumb(card, thumb, (x0 + stickers.QUIET_MODULES * module, y0 + stickers.QUIET_MODULES * module), module)
    return card


#: A thumb's width, mm, and its skin (BGR) in the middle and at the sides, where it turns away from the light.
THUMB_MM = 18.0
SKIN, SKIN_SHADE = np.array([125, 160, 215], np.float32), np.array([70, 95, 150], np.float32)


def _draw_thumb(card: np.ndarray, thumb: tuple, code_origin: tuple[float, float], module: float) -> None:
    """A thumb from the card's nearest side (or end) edge over finder pattern `thumb[0]`, in place: a capsule
    shaded as a cylinder, the middle of its rounded tip `thumb[1]` mm past the pattern's inner edge, washed out
    `thumb[3]` of the way to white, its middle line `thumb[4]` mm beside the pattern's centre."""
    which, reach_mm, from_end, pale, offset_mm = thumb
    column, row = ((3.5, 3.5), (17.5, 3.5), (3.5, 17.5))[which]
    cx, cy = code_origin[0] + column * module, code_origin[1] + row * module
    h, w = card.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    # Work in (along the thumb, across it): `along` grows from the edge it comes from towards its tip.
    if from_end:
        backwards = which == 2  # from the bottom edge
        along, across_at, middle = (h - y if backwards else y), x, cx + offset_mm * CARD_PX_PER_MM
        tip = (h - cy if backwards else cy) + 3.5 * module + reach_mm * CARD_PX_PER_MM
    else:
        backwards = which == 1  # from the right edge
        along, across_at, middle = (w - x if backwards else x), y, cy + offset_mm * CARD_PX_PER_MM
        tip = (w - cx if backwards else cx) + 3.5 * module + reach_mm * CARD_PX_PER_MM
    half = THUMB_MM * CARD_PX_PER_MM / 2
    past = along - tip  # past the centre of the tip's rounding
    dist = np.where(past < 0, np.abs(across_at - middle), np.hypot(np.maximum(past, 0), across_at - middle))
    inside = dist < half
    across = np.clip(dist / half, 0, 1)[..., None]
    skin = SKIN * (1 - across**2) + SKIN_SHADE * across**2
    skin = skin + (255 - skin) * pale
    card[inside] = skin[inside].astype(np.uint8)


@dataclass(frozen=True)
class _FakeCard:
    name: str = "Rainbow Aura"


def mm_per_pixel(
    fov_deg: float = stickers.CAMERA_FOV_HORIZONTAL_DEG,
    frame: tuple[int, int] = stickers.CAMERA_FRAME,
    distance: float = stickers.CAMERA_DISTANCE_MM,
) -> float:
    """Millimetres of a card facing the camera that one pixel covers at `distance` (pinhole, square pixels)."""
    return distance / stickers.focal_px(fov_deg, frame[0])


def pixels_per_mm(distance_mm: float) -> float:
    """Frame pixels per millimetre of card at a distance, for the camera the stickers are sized for."""
    return 1.0 / (mm_per_pixel() * distance_mm / stickers.CAMERA_DISTANCE_MM)


def _card_corners(scene: Scene, centre: tuple[float, float]) -> np.ndarray:
    scale = pixels_per_mm(scene.distance_mm)
    w, h = CARD_MM[0] * scale * math.cos(math.radians(scene.turn)), CARD_MM[1] * scale
    tx, ty = scene.tilt
    # The far edge shrinks by the tilt; corners in the card's own frame, centred: TL, TR, BR, BL.
    corners = np.array(
        [
            [-w / 2 * (1 - ty), -h / 2 * (1 - tx)],
            [w / 2 * (1 - ty), -h / 2 * (1 + tx)],
            [w / 2 * (1 + ty), h / 2 * (1 + tx)],
            [-w / 2 * (1 + ty), h / 2 * (1 - tx)],
        ],
        np.float32,
    )
    a = math.radians(scene.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    return corners @ rot.T + np.array([centre[0] * WIDTH, centre[1] * HEIGHT], np.float32)


def _paste_card(frame: np.ndarray, card: np.ndarray, corners: np.ndarray) -> None:
    h, w = card.shape[:2]
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, corners)
    warped = cv2.warpPerspective(card, matrix, (WIDTH, HEIGHT), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    frame[:] = (warped * alpha + frame * (1 - alpha)).astype(np.uint8)


def render(scene: Scene) -> np.ndarray:
    """One camera frame of the scene, BGR uint8, 720 rows by 1280 columns."""
    rng = np.random.default_rng(scene.seed + 1)
    if scene.busy_table:
        frame = busy_table_texture(scene.busy_table, scene.table).copy()
    else:
        frame = table_texture(scene.table % 4).copy()
    cards = [(scene.payload, scene.centre), *scene.extra]
    for payload, centre in cards:
        thumb = None
        if scene.thumb and payload == scene.payload:
            thumb = (*scene.thumb, scene.thumb_from_end, scene.thumb_pale, scene.thumb_offset)
        _paste_card(frame, card_image(payload, scene.show_code, thumb), _card_corners(scene, centre))
    image = frame.astype(np.float32)
    if scene.glare > 0:
        cx, cy = scene.centre[0] * WIDTH, scene.centre[1] * HEIGHT
        gx, gy = cx + rng.uniform(-25, 25), cy + rng.uniform(-25, 25)
        radius = rng.uniform(20, 40)
        if scene.glare_size > 0:
            radius = scene.glare_size
        y, x = np.ogrid[0:HEIGHT, 0:WIDTH]
        image += (scene.glare * np.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * radius**2)))[..., None]
    if scene.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), scene.blur)
    length, direction = scene.motion
    if length >= 1:
        image = cv2.filter2D(image, -1, motion_kernel(length, direction))
    image *= scene.gain
    if scene.noise > 0:
        image += rng.normal(0, scene.noise, image.shape[:2]).astype(np.float32)[..., None]
    frame = np.clip(image, 0, 255).astype(np.uint8)
    if scene.jpeg:
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return frame


def motion_kernel(length: float, direction: float) -> np.ndarray:
    """A line kernel: the smear of a card moving `length` pixels in `direction` degrees during the exposure."""
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    a = math.radians(direction)
    dx, dy = math.cos(a), math.sin(a)
    for t in np.linspace(-length / 2, length / 2, max(int(length * 3), 2)):
        kernel[int(round(c + t * dy)), int(round(c + t * dx))] += 1
    return kernel / kernel.sum()


def _mix(rng: np.random.Generator, base: dict) -> None:
    """The "mixed" category: three milder troubles of the others, drawn at random, added to a scene's settings."""
    picks = rng.choice(["blur", "motion", "dark", "noise", "small", "tilt", "glare"], size=3, replace=False)
    for pick in picks:
        if pick == "blur":
            base.update(blur=rng.uniform(1.0, 1.6))
        elif pick == "motion":
            base.update(motion=(rng.uniform(4, 7), rng.uniform(0, 180)))
        elif pick == "dark":
            base.update(gain=rng.uniform(0.12, 0.25), noise=rng.uniform(1.5, 2.5))
        elif pick == "noise":
            base.update(noise=rng.uniform(10, 18))
        elif pick == "small":
            base.update(distance_mm=rng.uniform(480, 600))
        elif pick == "tilt":
            base.update(tilt=(rng.uniform(0.15, 0.25), rng.uniform(-0.15, 0.15)))
        elif pick == "glare":
            base.update(glare=rng.uniform(120, 200))


def scene_for(category: str, seed: int, payload: str | None = None) -> Scene:
    """The seed-th scene of a benchmark category (see `CATEGORIES`)."""
    rng = np.random.default_rng(seed * 7919 + CATEGORIES.index(category))
    base = dict(
        payload=payload or label_payload("uu-2nd", "rainbow-aura"),
        distance_mm=rng.uniform(300, 450),
        centre=(rng.uniform(0.3, 0.7), rng.uniform(0.35, 0.65)),
        angle=rng.uniform(-15, 15),
        tilt=(rng.uniform(-0.08, 0.08), rng.uniform(-0.08, 0.08)),
        seed=seed,
        table=seed,
    )
    if category == "perspective":
        base.update(tilt=(rng.choice([-1, 1]) * rng.uniform(0.22, 0.38), rng.choice([-1, 1]) * rng.uniform(0.1, 0.3)))
    elif category == "rotation":
        base.update(angle=rng.uniform(0, 360))
    elif category == "blur":
        base.update(blur=rng.uniform(1.8, 3.0))
    elif category == "motion":
        base.update(motion=(rng.uniform(5, 10), rng.uniform(0, 180)))
    elif category == "dark":
        base.update(gain=rng.uniform(0.03, 0.08), noise=rng.uniform(1.0, 2.5))
    elif category == "glare":
        base.update(glare=rng.uniform(250, 400))
    elif category == "noise":
        base.update(noise=rng.uniform(18, 32))
    elif category == "small":
        base.update(distance_mm=rng.uniform(850, 1150))
    elif category == "mixed":
        _mix(rng, base)
    elif category == "thumb":  # half of them tilted too, as a card held in one hand often is
        base.update(thumb=(int(rng.integers(3)), float(rng.uniform(-1.0, 3.0))))
        if rng.random() < 0.5:
            across, down = rng.choice([-1, 1], size=2)
            base.update(tilt=(across * rng.uniform(0.1, 0.3), down * rng.uniform(0.05, 0.2)))
    elif category == "other thumbs":  # from the card's end as often as its side, beside the pattern, pale or not
        base.update(
            thumb=(int(rng.integers(3)), float(rng.uniform(-1.0, 4.0))),
            thumb_from_end=bool(rng.random() < 0.5),
            thumb_pale=float(rng.choice([0.0, rng.uniform(0.4, 0.95)])),
            thumb_offset=float(rng.uniform(-4.0, 4.0)),
        )
        if rng.random() < 0.5:
            across, down = rng.choice([-1, 1], size=2)
            base.update(tilt=(across * rng.uniform(0.1, 0.3), down * rng.uniform(0.05, 0.2)))
    elif category != "clean":
        raise ValueError(f"unknown category {category!r}")
    return Scene(**base)


def region_scene(seed: int) -> Scene:
    """The seed-th frame of the region search's tuning set: a small code (0.45 to 0.8 m away: 1.1 to 2 pixels a
    millimetre) at any angle, half of them on a busy table, softened, noisy, sometimes moving or under a lamp. The
    card retried first on a busy table (docs/scanner.md) was made on seeds 0 to 199; those from 200 on are held out."""
    rng = np.random.default_rng(seed * 104723 + 17)
    table = str(rng.choice(["", "", *BUSY_TABLES]))
    return replace(
        scene_for("clean", seed),
        distance_mm=float(rng.uniform(450, 800)),
        busy_table=table,
        blur=float(rng.uniform(0.8, 2.0)),
        noise=float(rng.uniform(2, 12)),
        glare=float(rng.choice([0, 0, rng.uniform(80, 220)])),
        motion=(float(rng.choice([0, rng.uniform(2, 5)])), float(rng.uniform(0, 180))),
        angle=float(rng.uniform(-40, 40)),
    )


def empty_scene(seed: int) -> Scene:
    """A card with no code on the table: nothing must be read here."""
    rng = np.random.default_rng(seed + 104729)
    return Scene(
        distance_mm=rng.uniform(250, 500),
        centre=(rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)),
        angle=rng.uniform(0, 360),
        noise=rng.uniform(2, 20),
        show_code=False,
        seed=seed,
        table=seed,
    )


def approach_clip(seed: int, frames: int = 45, payload: str | None = None) -> list[Scene]:
    """A card brought into view: it slides in from one side, quickly then slowing down, with motion blur from
    its speed (a 1/60 s exposure at 30 frames a second smears half a frame's travel), then rests in a hand that
    trembles a little."""
    rng = np.random.default_rng(seed + 7)
    side = rng.choice(["left", "right", "top", "bottom"])
    end = (rng.uniform(0.4, 0.6), rng.uniform(0.4, 0.6))
    start = {
        "left": (-0.2, end[1]),
        "right": (1.2, end[1]),
        "top": (end[0], -0.35),
        "bottom": (end[0], 1.35),
    }[side]
    arrive = int(frames * 0.55)
    distance = rng.uniform(320, 430)
    angle = rng.uniform(-12, 12)
    scenes, previous = [], None
    for i in range(frames):
        t = min(i / arrive, 1.0)
        ease = 1 - (1 - t) ** 3
        centre = (start[0] + (end[0] - start[0]) * ease, start[1] + (end[1] - start[1]) * ease)
        if t >= 1.0:
            centre = (centre[0] + rng.normal(0, 0.002), centre[1] + rng.normal(0, 0.002))
        motion = (0.0, 0.0)
        if previous is not None:
            dx, dy = (centre[0] - previous[0]) * WIDTH, (centre[1] - previous[1]) * HEIGHT
            motion = (0.5 * math.hypot(dx, dy), math.degrees(math.atan2(dy, dx)))
        previous = centre
        scenes.append(
            Scene(
                payload=payload or label_payload("uu-2nd", "rainbow-aura"),
                distance_mm=distance,
                centre=centre,
                angle=angle,
                motion=motion,
                seed=seed * 1000 + i,
                table=seed,
            )
        )
    return scenes


def write_clip(path: str | Path, images: list[np.ndarray], fps: int = 30) -> None:
    """Write `images` as an MJPG clip at `fps` frames a second (a recorded camera for the app's `--camera-clip`)."""
    height, width = images[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    try:
        for image in images:
            writer.write(image)
    finally:
        writer.release()
