"""An evaluation camera: a physically based model of a webcam looking at a card in a hand, never tuned on.

`benchmarks/frames.py` is the tuning set: the cascade's stages and the aiming thresholds were chosen on it. This
module is a second, independent model, written from how a webcam forms a picture rather than from the
degradations the cascade was tuned against, and used only to evaluate (fixed seeds, so every run is the same):

- **Pose in 3-D**: the card (63 by 88 mm, carrying the project's own sticker from `assistant.scanner.stickers`)
  at a distance, offset and rotation (yaw, pitch, roll), projected by a pinhole lens with a 70 degree horizontal
  field of view onto 1280 by 720 pixels; the perspective follows from the pose, not from a chosen warp.
- **Lens**: fixed focus at 60 cm (thin lens, 3 mm focal length, f/2), so a card held close is out of focus by
  the blur circle the optics give, plus the lens's own softness and cos^4 vignetting.
- **Exposure**: auto-exposure aims the picture's mean at 45 % of full scale: the exposure time grows as light
  falls, up to 1/30 s, then analogue gain up to 16x. Hand motion during that exposure is the motion blur, so a
  dim room blurs a moving card more, as it does on a real webcam.
- **Sensor**: an RGGB Bayer mosaic, photon shot noise (6,000-electron full well) and 3-electron read noise,
  both amplified by the gain; 10-bit quantisation; demosaicing (OpenCV's bilinear); grey-world white balance;
  sRGB gamma; JPEG (quality 70 to 90), as a USB webcam's MJPG stream.
- **The world**: procedural table textures (wood, felt, laminate, checked cloth, marble), a lamp's glare on a
  sleeved card, and a finger or thumb holding the card, sometimes over the code.

Still frames (`sample_shot`) draw every condition from a realistic spread; clips (`hand_clip`) follow a hand
bringing a card into view, holding it with a tremor and taking it away. Nothing here is imported by the app.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from assistant.core.scanning.payloads import label_payload
from assistant.scanner import stickers

WIDTH, HEIGHT = 1280, 720
FOV_H_DEG = 70.0
FOCAL_PX = WIDTH / 2 / math.tan(math.radians(FOV_H_DEG) / 2)
CARD_MM = (63.0, 88.0)
#: Lens: focal length and aperture (mm) and where a fixed-focus webcam is focused.
LENS_F_MM, LENS_APERTURE_MM, FOCUS_MM = 3.0, 1.5, 600.0
PIXEL_MM = 2 * LENS_F_MM * math.tan(math.radians(FOV_H_DEG) / 2) / WIDTH
FULL_WELL, READ_NOISE = 6000.0, 3.0
MAX_EXPOSURE_S, MAX_GAIN, AE_TARGET = 1 / 30, 16.0, 0.45
#: Illuminance (lux) that, on a white card, fills the sensor at 1/1000 s and gain 1 (sets the light scale).
LUX_SCALE = 12_000.0
TABLES = ("wood", "felt", "laminate", "cloth", "marble")
FPS = 30.0
#: OpenCV's code for an RGGB mosaic (older builds name it by the second row: BayerBG).
_BAYER_RGGB = getattr(cv2, "COLOR_BayerRGGB2RGB", cv2.COLOR_BayerBG2RGB)


@dataclass(frozen=True)
class Shot:
    """Everything that decides one frame of the evaluation camera."""

    payload: str = label_payload("uu-2nd", "rainbow-aura")
    distance_mm: float = 400.0
    """Camera to the card's centre, along the optical axis."""
    offset_mm: tuple[float, float] = (0.0, 0.0)
    """The card's centre across and down from the optical axis."""
    yaw: float = 0.0
    """Turn about the vertical axis, degrees (the card's left edge comes closer)."""
    pitch: float = 0.0
    """Turn about the horizontal axis, degrees."""
    roll: float = 0.0
    """Rotation in the card's own plane, degrees."""
    velocity: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Hand speed during the exposure: mm/s across, mm/s down, degrees/s of roll."""
    lux: float = 300.0
    """Light on the table: 50 a dim room, 300 a living room, 800 a bright kitchen."""
    table: str = "wood"
    glare: float = 0.0
    """Strength of a lamp's reflection on the card (0 none, 1 reaching the sensor's full scale, more saturates)."""
    glare_at: tuple[float, float] = (0.5, 0.5)
    """Where on the card the reflection is, as fractions of its width and height."""
    finger: tuple[float, float, float] | None = None
    """A thumb over the card: (edge position 0..1 around the card's outline, reach into the card in mm, width mm)."""
    jpeg: int = 80
    seed: int = 0
    """Seeds the scene: the table's grain, the lamp's colour, the reflection's size, the thumb's skin."""
    frame: int = 0
    """The frame's number in a clip: only the sensor's noise changes with it (the table, light and reflection of
    a clip stay as they are)."""
    show_code: bool = True
    exposure_share: float = 1.0
    """The exposure the app asked the camera for, as a share of what its auto exposure chose (1: auto exposure).
    The exposure time is cut, the gain left where auto exposure put it, as a webcam set to a manual exposure
    does; the light of a clip does not change, so the share of the frame's own auto exposure stands for the share
    of the one the app took over."""


def _rotation(yaw: float, pitch: float, roll: float) -> np.ndarray:
    y, p, r = (math.radians(v) for v in (yaw, pitch, roll))
    ry = np.array([[math.cos(y), 0, math.sin(y)], [0, 1, 0], [-math.sin(y), 0, math.cos(y)]])
    rx = np.array([[1, 0, 0], [0, math.cos(p), -math.sin(p)], [0, math.sin(p), math.cos(p)]])
    rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    return ry @ rx @ rz


def card_points(shot: Shot, points_mm: np.ndarray) -> np.ndarray:
    """Points on the card (mm from its centre, x right, y down) in camera space (mm)."""
    pts = np.column_stack([points_mm, np.zeros(len(points_mm))])
    centre = np.array([shot.offset_mm[0], shot.offset_mm[1], shot.distance_mm])
    return pts @ _rotation(shot.yaw, shot.pitch, shot.roll).T + centre


def project(camera_points: np.ndarray) -> np.ndarray:
    """Pinhole projection to pixel coordinates."""
    z = np.maximum(camera_points[:, 2], 1.0)
    return np.column_stack(
        [FOCAL_PX * camera_points[:, 0] / z + WIDTH / 2, FOCAL_PX * camera_points[:, 1] / z + HEIGHT / 2]
    )


def card_corners_px(shot: Shot) -> np.ndarray:
    """The card's corners in the frame: TL, TR, BR, BL."""
    w, h = CARD_MM
    return project(card_points(shot, np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])))


def code_corners_px(shot: Shot) -> np.ndarray:
    """The QR code's corners (without quiet zone) in the frame."""
    version = stickers.qr_version(shot.payload)
    side = (17 + 4 * version) * stickers.module_dots(version=version) * 25.4 / stickers.DPI
    s = side / 2
    cy = _sticker_offset_mm(version)
    return project(card_points(shot, np.array([[-s, cy - s], [s, cy - s], [s, cy + s], [-s, cy + s]])))


def _sticker_offset_mm(version: int) -> float:
    """Down from the card's centre to the code's centre (the sticker is centred, its text under the code)."""
    w, h = stickers.sticker_size_mm(version)
    return -(h - w) / 2


def code_module_px(shot: Shot) -> float:
    """The smallest module size in pixels, from the code's shortest projected side."""
    c = code_corners_px(shot)
    sides = [float(np.linalg.norm(c[i] - c[(i + 1) % 4])) for i in range(4)]
    return min(sides) / (17 + 4 * stickers.qr_version(shot.payload))


def code_in_view(shot: Shot) -> bool:
    """True when the whole code lies inside the frame (the moment a card has 'entered the view')."""
    c = code_corners_px(shot)
    return bool(np.all(c[:, 0] >= 0) and np.all(c[:, 0] < WIDTH) and np.all(c[:, 1] >= 0) and np.all(c[:, 1] < HEIGHT))


# The world: reflectance images (linear, 0..1, RGB order).


@functools.lru_cache(maxsize=8)
def table_reflectance(kind: str, seed: int) -> np.ndarray:
    """A procedural table top filling the frame, linear RGB reflectance (float32)."""
    rng = np.random.default_rng(seed * 31 + TABLES.index(kind))
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)

    def smooth(sigma: float) -> np.ndarray:
        n = rng.normal(0, 1, (HEIGHT // 4, WIDTH // 4)).astype(np.float32)
        n = cv2.GaussianBlur(n, (0, 0), max(sigma / 4, 0.5))
        n = cv2.resize(n, (WIDTH, HEIGHT), interpolation=cv2.INTER_CUBIC)
        return n / (n.std() + 1e-6)

    if kind == "wood":
        angle = rng.uniform(-0.3, 0.3)
        u = x * math.sin(angle) + y * math.cos(angle) + 25 * smooth(60)
        rings = 0.5 + 0.5 * np.sin(u / rng.uniform(5, 11) + 2 * smooth(30))
        tone = 0.55 + 0.3 * rings + 0.05 * smooth(2)
        base = np.array([0.42, 0.24, 0.11]) * rng.uniform(0.6, 1.2)
    elif kind == "felt":
        tone = 0.9 + 0.06 * smooth(1.5) + 0.05 * smooth(40)
        base = np.array([0.05, 0.28, 0.1]) if rng.random() < 0.6 else np.array([0.3, 0.05, 0.06])
    elif kind == "laminate":
        tone = 0.92 + 0.03 * smooth(3) + 0.04 * smooth(80) + 0.02 * np.sin(x / 3.0)
        base = np.array([0.7, 0.68, 0.62]) * rng.uniform(0.6, 1.0)
    elif kind == "cloth":
        period = rng.uniform(30, 60)
        check = ((np.floor(x / period) + np.floor(y / period)) % 2).astype(np.float32)
        weave = 0.92 + 0.08 * np.sin(x * 1.3) * np.sin(y * 1.3)
        tone = (0.35 + 0.6 * check) * weave
        base = np.array([0.75, 0.15, 0.12]) if rng.random() < 0.5 else np.array([0.15, 0.25, 0.7])
    else:  # marble
        veins = np.abs(np.sin((x + y) / 90 + 3 * smooth(50)))
        tone = 0.85 - 0.35 * np.exp(-veins * 12) + 0.03 * smooth(2)
        base = np.array([0.82, 0.82, 0.8])
    image = np.clip(tone[..., None] * base[None, None, :], 0.01, 0.95).astype(np.float32)
    return image


@functools.lru_cache(maxsize=32)
def card_reflectance(payload: str, show_code: bool, px_per_mm: float) -> np.ndarray:
    """The card as seen from its back, with the project's printed sticker, linear RGB at `px_per_mm`."""
    w, h = (round(v * px_per_mm) for v in CARD_MM)
    card = np.empty((h, w, 3), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # A card back unlike the tuning set's: a deep blue with a radial pattern and a light border.
    r = np.hypot(xx - w / 2, yy - h / 2) / px_per_mm
    card[:] = np.array([0.08, 0.1, 0.35])
    card *= (0.8 + 0.2 * np.cos(r / 2.5))[..., None]
    border = round(3 * px_per_mm)
    card[:border] = card[-border:] = card[:, :border] = card[:, -border:] = np.array([0.85, 0.82, 0.75])
    if show_code:
        version = stickers.qr_version(payload)
        sticker = stickers.Sticker(_Named(), "rb aura", payload)
        image = np.asarray(stickers.render_sticker(sticker, version), np.float32) / 255.0
        sw_mm, sh_mm = stickers.sticker_size_mm(version)
        sw, sh = round(sw_mm * px_per_mm), round(sh_mm * px_per_mm)
        small = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
        paper = 0.04 + 0.84 * small  # ink is not black, paper is not white
        x0 = (w - sw) // 2
        y0 = (h - sh) // 2
        card[y0 : y0 + sh, x0 : x0 + sw] = paper[..., None]
    return card


@dataclass(frozen=True)
class _Named:
    name: str = "Rainbow Aura"


def _finger_mask(shot: Shot, shape, px_per_mm: float) -> np.ndarray | None:
    """A thumb over the card, in the card's own pixels: a rounded capsule from one edge inwards."""
    if shot.finger is None:
        return None
    where, reach, width = shot.finger
    h, w = shape
    perimeter = 2 * (w + h)
    p = (where % 1.0) * perimeter
    if p < w:
        start, inward = (p, 0.0), (0.0, 1.0)
    elif p < w + h:
        start, inward = (w - 1.0, p - w), (-1.0, 0.0)
    elif p < 2 * w + h:
        start, inward = (w - (p - w - h), h - 1.0), (0.0, -1.0)
    else:
        start, inward = (0.0, h - (p - 2 * w - h)), (1.0, 0.0)
    mask = np.zeros((h, w), np.float32)
    outside = (start[0] - inward[0] * 40 * px_per_mm, start[1] - inward[1] * 40 * px_per_mm)
    tip = (start[0] + inward[0] * reach * px_per_mm, start[1] + inward[1] * reach * px_per_mm)
    thickness = max(2, round(width * px_per_mm))
    cv2.line(mask, tuple(map(round, outside)), tuple(map(round, tip)), 1.0, thickness)
    cv2.circle(mask, tuple(map(round, tip)), thickness // 2, 1.0, -1)
    return cv2.GaussianBlur(mask, (0, 0), 0.8 * px_per_mm)


def _motion_kernel(dx: float, dy: float) -> np.ndarray | None:
    length = math.hypot(dx, dy)
    if length < 0.7:
        return None
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size + 2, size + 2), np.float32)
    c = (size + 1) / 2
    for t in np.linspace(-0.5, 0.5, max(3, int(length * 4))):
        kernel[int(round(c + t * dy)), int(round(c + t * dx))] += 1
    return kernel / kernel.sum()


def exposure(lux: float, mean_reflectance: float = 0.3) -> tuple[float, float]:
    """Auto-exposure: (exposure time in seconds, analogue gain) that put the mean at `AE_TARGET` of full scale."""
    signal_per_s = lux / LUX_SCALE * 1000 * mean_reflectance  # fraction of full scale per second at gain 1
    t = min(MAX_EXPOSURE_S, AE_TARGET / max(signal_per_s, 1e-9))
    gain = float(np.clip(AE_TARGET / max(signal_per_s * t, 1e-9), 1.0, MAX_GAIN))
    return t, gain


def render(shot: Shot) -> np.ndarray:
    """One frame from the evaluation camera, BGR uint8, 720 by 1280."""
    rng = np.random.default_rng(shot.seed + 99_991)
    # Frame 0 (every still) draws its noise after the scene's own draws, from the same generator.
    noise = rng if shot.frame == 0 else np.random.default_rng([shot.seed + 99_991, shot.frame])
    scene = table_reflectance(shot.table, shot.seed % 3).copy()
    # The card, drawn at about twice the scale it takes in the frame, then warped by the pose's homography.
    corners = card_corners_px(shot)
    span = max(
        np.linalg.norm(corners[0] - corners[1]) / CARD_MM[0], np.linalg.norm(corners[1] - corners[2]) / CARD_MM[1]
    )
    px_per_mm = float(np.clip(round(2 * span * 2) / 2, 1.0, 16.0))
    card = card_reflectance(shot.payload, shot.show_code, px_per_mm)
    h, w = card.shape[:2]
    finger = _finger_mask(shot, (h, w), px_per_mm)
    if finger is not None:
        skin = np.array([0.55, 0.36, 0.28], np.float32) * (0.7 + 0.3 * rng.random())
        card = card * (1 - finger[..., None]) + skin * finger[..., None]
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
    warped = cv2.warpPerspective(card, matrix, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(np.ones((h, w), np.float32), matrix, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR)
    scene = scene * (1 - alpha[..., None]) + warped * alpha[..., None]
    # Light: illuminance times reflectance, a lamp's glare on the card, vignetting.
    radiance = scene
    if shot.glare > 0:
        gx, gy = shot.glare_at
        centre = matrix @ np.array([gx * w, gy * h, 1.0])
        cx, cy = centre[0] / centre[2], centre[1] / centre[2]
        size = rng.uniform(12, 30) * span
        yy, xx = np.ogrid[0:HEIGHT, 0:WIDTH]
        spot = np.exp(-(((xx - cx) / size) ** 2 + ((yy - cy) / (0.6 * size)) ** 2)) * alpha
        radiance = radiance + (shot.glare / 0.3 * spot)[..., None].astype(np.float32)  # in reflectance units
    radiance = radiance * _vignetting()
    # Lens: defocus from the thin-lens blur circle, plus the lens's own softness.
    z = shot.distance_mm
    circle_mm = LENS_APERTURE_MM * abs(z - FOCUS_MM) / z * LENS_F_MM / (FOCUS_MM - LENS_F_MM)
    sigma = math.hypot(circle_mm / PIXEL_MM / 2.4, 0.55)
    # Blur only around the card (the table's texture is smooth at this scale; the card is what is read).
    x0, y0 = np.floor(corners.min(0)).astype(int) - 40
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 40
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(WIDTH, x1), min(HEIGHT, y1)
    roi = (slice(y0, y1), slice(x0, x1))
    if x1 - x0 > 8 and y1 - y0 > 8:
        radiance[roi] = cv2.GaussianBlur(np.ascontiguousarray(radiance[roi]), (0, 0), sigma)
    # Exposure, and the hand's motion during it.
    t, gain = exposure(shot.lux, float(np.mean(scene)))
    t *= shot.exposure_share
    vx, vy, vr = shot.velocity
    scale = FOCAL_PX / z
    dx, dy = vx * t * scale, vy * t * scale
    dx += vr * t * math.pi / 180 * 40 * scale  # a turning card smears its edges too (40 mm lever)
    kernel = _motion_kernel(dx, dy)
    if kernel is not None and x1 - x0 > 8 and y1 - y0 > 8:
        radiance[roi] = cv2.filter2D(np.ascontiguousarray(radiance[roi]), -1, kernel)
    warmth = float(rng.uniform(0, 1)) if shot.seed % 2 else 0.0  # half the frames under a warm lamp
    illuminant = np.array([1.0, 1.0 - 0.15 * warmth, 1.0 - 0.4 * warmth], np.float32)
    signal = radiance * illuminant * (shot.lux / LUX_SCALE * 1000 * t * gain)
    # Sensor: Bayer RGGB, shot and read noise amplified by the gain, 10-bit ADC.
    mosaic = np.empty((HEIGHT, WIDTH), np.float32)
    mosaic[0::2, 0::2] = signal[0::2, 0::2, 0]
    mosaic[0::2, 1::2] = signal[0::2, 1::2, 1]
    mosaic[1::2, 0::2] = signal[1::2, 0::2, 1]
    mosaic[1::2, 1::2] = signal[1::2, 1::2, 2]
    electrons = np.clip(mosaic, 0, None) * FULL_WELL / gain
    noisy = electrons + noise.standard_normal(electrons.shape, dtype=np.float32) * np.sqrt(electrons + READ_NOISE**2)
    raw = np.clip(noisy * gain / FULL_WELL, 0, 1)
    raw10 = np.round(raw * 1023).astype(np.uint16)
    rgb = cv2.cvtColor(raw10, _BAYER_RGGB).astype(np.float32) / 1023
    # Auto white balance: half-way to grey world (a table of one colour should not turn grey, a warm lamp should
    # be partly corrected, as webcams do).
    means = rgb[::8, ::8].reshape(-1, 3).mean(0) + 1e-6
    rgb = rgb * np.sqrt(means.mean() / means)[None, None, :]
    levels = np.clip(rgb * 4095, 0, 4095).astype(np.uint16)
    frame = _SRGB_LUT()[levels][..., ::-1]
    ok, data = cv2.imencode(".jpg", np.ascontiguousarray(frame), [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


class ModelWebcam:
    """The evaluation camera as the live loop's source, for what the app asks of a webcam: its exposure
    (`set_exposure`, as `assistant.scanner.sources.Webcam`). A new exposure applies `LATENCY` frames after it is
    asked for, as a webcam's does. Frames are rendered by `frame(shot, index)`; `read` gives none."""

    name = "evaluation camera"
    LATENCY = 2

    def __init__(self) -> None:
        self.share = 1.0
        self.asked: list[tuple[int, float]] = []
        """Every exposure asked for, as (frame it was asked at, share)."""
        self._pending: list[tuple[int, float]] = []
        self._index = 0

    def frame(self, shot: Shot, index: int) -> np.ndarray:
        """The frame `index` of a clip, under the exposure that has reached the camera by then."""
        self._index = index
        while self._pending and self._pending[0][0] <= index:
            self.share = self._pending.pop(0)[1]
        return render(replace(shot, exposure_share=self.share))

    def set_exposure(self, share: float) -> bool:
        self.asked.append((self._index, share))
        self._pending.append((self._index + self.LATENCY, share))
        return True

    def read(self) -> None:
        return None

    def close(self) -> None:
        pass


@functools.lru_cache(maxsize=1)
def _vignetting() -> np.ndarray:
    """cos^4 of the angle off the optical axis, per pixel (the corners get less light)."""
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    off_axis = np.hypot(xx - WIDTH / 2, yy - HEIGHT / 2) / FOCAL_PX
    return (np.cos(np.arctan(off_axis)) ** 4)[..., None].astype(np.float32)


@functools.lru_cache(maxsize=1)
def _SRGB_LUT() -> np.ndarray:  # a constant, made on first use
    """12-bit linear levels to 8-bit sRGB."""
    v = np.arange(4096, dtype=np.float64) / 4095
    srgb = np.where(v <= 0.0031308, 12.92 * v, 1.055 * np.power(v, 1 / 2.4) - 0.055)
    return np.clip(np.round(srgb * 255), 0, 255).astype(np.uint8)


# Drawing conditions.


def sample_shot(seed: int, payload: str | None = None, show_code: bool = True) -> Shot:
    """A still frame with every condition drawn from a realistic spread (seeded)."""
    rng = np.random.default_rng(seed + 5_000_000)
    distance = float(rng.uniform(250, 550))
    half_w = distance * math.tan(math.radians(FOV_H_DEG) / 2)
    half_h = half_w * HEIGHT / WIDTH
    tilt = float(rng.uniform(0, 40))
    direction = rng.uniform(0, 2 * math.pi)
    speed = float(rng.choice([0, 0, rng.uniform(5, 40), rng.uniform(40, 250)]))
    heading = rng.uniform(0, 2 * math.pi)
    return Shot(
        payload=payload or label_payload("uu-2nd", "rainbow-aura"),
        distance_mm=distance,
        offset_mm=(float(rng.uniform(-0.45, 0.45) * half_w), float(rng.uniform(-0.35, 0.35) * half_h)),
        yaw=tilt * math.cos(direction),
        pitch=tilt * math.sin(direction),
        roll=float(rng.uniform(-25, 25)),
        velocity=(speed * math.cos(heading), speed * math.sin(heading), float(rng.normal(0, 8))),
        lux=float(np.exp(rng.uniform(np.log(40), np.log(900)))),
        table=TABLES[seed % len(TABLES)],
        glare=float(rng.uniform(0.4, 1.6)) if rng.random() < 0.2 else 0.0,
        glare_at=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.6))),
        finger=(float(rng.random()), float(rng.uniform(8, 26)), float(rng.uniform(15, 20)))
        if rng.random() < 0.3
        else None,
        jpeg=int(rng.integers(70, 91)),
        seed=seed,
        show_code=show_code,
    )


def conditions(shot: Shot) -> list[str]:
    """The conditions a frame falls under, for the per-condition rates (a frame may fall under several)."""
    t, gain = exposure(shot.lux)
    out = []
    tilt = math.degrees(math.acos(math.cos(math.radians(shot.yaw)) * math.cos(math.radians(shot.pitch))))
    scale = FOCAL_PX / shot.distance_mm
    blur = math.hypot(shot.velocity[0], shot.velocity[1]) * t * scale
    module = code_module_px(shot)
    if tilt >= 25:
        out.append("tilt 25-40 deg")
    if gain >= 4:
        out.append("low light (gain >= 4)")
    if blur > 6:
        out.append("motion blur > 6 px")
    elif blur > 2:
        out.append("motion blur 2-6 px")
    if shot.glare > 0:
        out.append("glare")
    if shot.finger is not None:
        out.append("finger on the card")
    if module < 3.5:
        out.append("module < 3.5 px")
    if not out:
        out.append("none of these")
    return out


# A player following the cues: the closed loop on the evaluation camera.

#: What goes wrong when a blind player first holds a card up, as changes to the hold.
PROBLEMS: dict[str, dict] = {
    "too far": {"distance_mm": 1100.0},
    "too close": {"distance_mm": 70.0},
    "turned away": {"yaw": 65.0},
    "moving": {"sweep_mm_s": 300.0},
    "a reflection": {"glare": 1.2},
    "off the edge": {"edge": True},
    "a thumb on a corner": {"thumb_on_corner": True},
}
#: A thumb from the card's left edge over the code's top-left finder pattern, its tip 1 mm past it: (place along
#: the card's outline, reach, width) as `Shot.finger`. The pattern's centre is 23.1 mm below the card's top and
#: 16.1 mm in from its left edge (a 59.4 mm sticker centred across, 5.5 mm above the middle, its 21-module code
#: 2.2 mm a module inside a 3-module margin); the outline runs clockwise from the top left corner, 302 mm round.
CORNER_THUMB = ((2 * 63.0 + 2 * 88.0 - 23.1) / 302.0, 16.1 + 3.5 * 2.2 + 1.0, 18.0)
#: The cue that names each problem (a reflection may also squash the code's outline: both ask for a tilt).
NAMES_THE_PROBLEM: dict[str, tuple[str, ...]] = {
    "too far": ("closer",),
    "too close": ("further",),
    "turned away": ("tilt",),
    "moving": ("hold still",),
    "a reflection": ("glare", "tilt"),
    "off the edge": ("move left", "move right", "move up", "move down"),
    "a thumb on a corner": ("finger",),
}
#: The player: seconds from hearing a cue to starting to move, and the move itself.
REACTION_S, MOVE_S = 0.6, 0.5


@dataclass(frozen=True)
class Hold:
    """How the player holds the card up: the pose the hand aims at (the tremor is added frame by frame)."""

    distance_mm: float = 400.0
    offset_mm: tuple[float, float] = (0.0, 0.0)
    yaw: float = 0.0
    pitch: float = 0.0
    glare: float = 0.0
    sweep_mm_s: float = 0.0
    """A hand waving the card side to side (1 Hz) at this peak speed."""
    lux: float = 300.0
    thumb: bool = True
    """The thumb stays where the scene put it (`Shot.finger`); False once the player holds the card by its edges."""


def problem_hold(problem: str, seed: int) -> tuple[Shot, Hold]:
    """The scene (table, light, grip) of an evaluation still `seed`, and a hold with `problem`."""
    base = replace(sample_shot(seed + 20_000), finger=None, glare=0.0, velocity=(0.0, 0.0, 0.0), roll=0.0)
    tilt = min(15.0, math.hypot(base.yaw, base.pitch))
    hold = Hold(lux=max(base.lux, 150.0), yaw=tilt)
    change = dict(PROBLEMS[problem])
    if change.pop("thumb_on_corner", False):
        base = replace(base, finger=CORNER_THUMB)
    if change.pop("edge", False):
        # Half the code off the picture's left edge (the code's own half-width is about 23 mm).
        half_w = hold.distance_mm * math.tan(math.radians(FOV_H_DEG) / 2)
        change["offset_mm"] = (-half_w + 5.0, 0.0)
    return replace(base, glare_at=(0.5, 0.3)), replace(hold, **change)


def follow_cue(hold: Hold, cue: str) -> Hold:
    """What a player does on hearing a cue (fixed before any run, never adjusted to the scanner's results).

    Closer: 30 % nearer, not nearer than 25 cm. Further: 15 cm back. Tilt: turns the card most of the way to face
    the camera. A reflection: tilts the card 12 degrees, which sends a mirror reflection 24 degrees away, some
    17 cm across the card at 40 cm, off it. Hold still: the hand stops waving (its tremor stays). Move: 8 cm
    that way (left and right are the player's, facing the camera: the picture's right is their left). More
    light: a lamp turned on, three times the light. A finger: the thumb moves to the card's edge, off the code.
    A reflection stays on the code only while the card keeps its angle: any turn of 8 degrees or more (the
    reflection moves twice the turn) sends it off."""
    x, y = hold.offset_mm
    moves: dict[str, dict] = {
        "closer": {"distance_mm": max(250.0, hold.distance_mm * 0.7)},
        "further": {"distance_mm": hold.distance_mm + 150.0},
        "tilt": {"yaw": hold.yaw * 0.3, "pitch": hold.pitch * 0.3},
        "glare": {"yaw": hold.yaw + (12.0 if hold.yaw < 20 else -12.0), "glare": 0.0},
        "hold still": {"sweep_mm_s": 0.0},
        "move left": {"offset_mm": (x + 80.0, y)},
        "move right": {"offset_mm": (x - 80.0, y)},
        "move up": {"offset_mm": (x, y - 60.0)},
        "move down": {"offset_mm": (x, y + 60.0)},
        "more light": {"lux": hold.lux * 3},
        "finger": {"thumb": False},
    }
    moved = replace(hold, **moves.get(cue, {}))
    if math.hypot(moved.yaw - hold.yaw, moved.pitch - hold.pitch) >= 8.0:
        moved = replace(moved, glare=0.0)  # any turn of 8 degrees or more sends a mirror reflection off the code
    return moved


def _blend(a: Hold, b: Hold, u: float) -> Hold:
    """The hold part way (u from 0 to 1, eased) from `a` to `b`."""
    e = 1 - (1 - u) ** 3

    def mix(p: float, q: float) -> float:
        return p + (q - p) * e

    return Hold(
        mix(a.distance_mm, b.distance_mm),
        (mix(a.offset_mm[0], b.offset_mm[0]), mix(a.offset_mm[1], b.offset_mm[1])),
        mix(a.yaw, b.yaw),
        mix(a.pitch, b.pitch),
        a.glare if u < 0.5 else b.glare,
        mix(a.sweep_mm_s, b.sweep_mm_s),
        mix(a.lux, b.lux),
        a.thumb if u < 0.5 else b.thumb,
    )


class Listener:
    """How a player's hold changes as they follow cues: a cue heard while not already moving is acted on
    `REACTION_S` later, the move taking `MOVE_S` (`follow_cue` says what each cue does)."""

    def __init__(self, hold: Hold):
        self.start = self.target = hold
        self.move_at = -1.0
        self.followed: list[str] = []

    def hold_at(self, t: float) -> Hold:
        if t <= self.move_at:
            return self.start
        return _blend(self.start, self.target, min(1.0, (t - self.move_at) / MOVE_S))

    def hear(self, cue: str, t: float) -> None:
        if t < self.move_at + MOVE_S:  # still moving on the last cue
            return
        self.start = self.hold_at(t + REACTION_S)
        self.target = follow_cue(self.start, cue)
        self.move_at = t + REACTION_S
        self.followed.append(cue)


def _posed(base: Shot, position: Callable[[float], tuple[Hold, np.ndarray]], t: float, frame: int) -> Shot:
    """`base` as the hand holds it at `t` seconds, frame `frame` of a clip: `position(t)` is the hold and the card's
    centre (mm); its velocity is taken from the positions 5 ms either side."""
    hold, p = position(t)
    v = (position(t + 0.005)[1] - position(t - 0.005)[1]) / 0.01
    return replace(
        base,
        distance_mm=hold.distance_mm,
        offset_mm=(float(p[0]), float(p[1])),
        yaw=hold.yaw,
        pitch=hold.pitch,
        glare=hold.glare,
        lux=hold.lux,
        finger=base.finger if hold.thumb else None,
        velocity=(float(v[0]), float(v[1]), 0.0),
        frame=frame,
    )


class GuidedPlayer:
    """A player holding a card up and following each cue: `shot(t)` is the frame at `t` seconds, `hear(cue, t)`
    a cue said at `t`."""

    def __init__(self, base: Shot, hold: Hold, seed: int = 0):
        self.base = base
        self.listener = Listener(hold)
        rng = np.random.default_rng(seed + 9_000_000)
        self.tremor_hz, self.tremor_mm = float(rng.uniform(8, 12)), float(rng.uniform(0.4, 1.2))

    def hear(self, cue: str, t: float) -> None:
        self.listener.hear(cue, t)

    def _position(self, t: float) -> tuple[Hold, np.ndarray]:
        hold = self.listener.hold_at(t)
        sweep = hold.sweep_mm_s / (2 * math.pi) * math.sin(2 * math.pi * t)
        w = 2 * math.pi * self.tremor_hz * t
        tremor = self.tremor_mm * np.array([math.sin(w), math.cos(w)])
        return hold, np.array(hold.offset_mm) + np.array([sweep, 0.0]) + tremor

    def shot(self, t: float, index: int) -> Shot:
        return _posed(self.base, self._position, t, index)


# The evaluation clips: a hand bringing a card in, passive or following the cues.


class HandPlayer:
    """A hand bringing a card into view, holding it up with a tremor for a moment, then taking it away.

    The card comes in from one side at 300 to 700 mm/s, slowing as the hand arrives (a critically damped
    reach), is held for 0.8 to 1.6 s at 30 to 50 cm with physiological tremor (8 to 12 Hz, about a millimetre)
    and a slow drift, then leaves. The light, table, tilt and grip are drawn once per clip.

    `listening`: the player the app is made for, who keeps the card up until hearing it announced (`patience`
    seconds at most from entering, then gives up) and, once the reach is over, does what each cue says (as
    `GuidedPlayer`: `follow_cue`, 0.6 s to react). Until a cue is followed its frames are the passive clip's."""

    def __init__(self, seed: int, payload: str | None = None, listening: bool = False, patience: float = 6.0):
        rng = np.random.default_rng(seed + 8_000_000)
        self.listening = listening
        self.base = sample_shot(seed + 10_000, payload)
        distance = float(rng.uniform(300, 500))
        half_w = distance * math.tan(math.radians(FOV_H_DEG) / 2)
        half_h = half_w * HEIGHT / WIDTH
        self.hold = np.array([rng.uniform(-0.25, 0.25) * half_w, rng.uniform(-0.2, 0.2) * half_h])
        side = int(rng.integers(4))
        self.start = (
            self.hold
            + [
                np.array([-(half_w + 90), 0.0]),
                np.array([half_w + 90, 0.0]),
                np.array([0.0, half_h + 110]),
                np.array([0.0, -(half_h + 110)]),
            ][side]
        )
        tilt = float(rng.uniform(0, 30))
        direction = rng.uniform(0, 2 * math.pi)
        self.reach_s = float(rng.uniform(0.5, 0.9))
        self.hold_s = float(rng.uniform(0.8, 1.6))
        self.leave_s = 0.4
        self.tremor_hz, self.tremor_mm = float(rng.uniform(8, 12)), float(rng.uniform(0.4, 1.2))
        passive = self.reach_s + self.hold_s + self.leave_s
        self.frames = int((self.reach_s + patience if listening else passive) * FPS)
        self.away = self.hold + np.array([0.0, half_h + 150])
        pose = Hold(
            distance_mm=distance,
            yaw=tilt * math.cos(direction),
            pitch=tilt * math.sin(direction),
            glare=self.base.glare,
            lux=self.base.lux,
        )
        self.listener = Listener(pose)

    def _path(self, t: float) -> np.ndarray:
        """Where the hand carries the card's centre at `t` seconds (mm across and down from the optical axis)."""
        reach_s, hold_s = self.reach_s, self.hold_s
        if t < reach_s:
            ease = 1 - (1 - t / reach_s) ** 3
            p = self.start + (self.hold - self.start) * ease
        elif t < reach_s + hold_s or self.listening:
            p = self.hold + np.array([3 * math.sin(0.7 * t), 2 * math.sin(0.5 * t + 1)])
        else:
            u = (t - reach_s - hold_s) / self.leave_s
            p = self.hold + (self.away - self.hold) * u**2
        w = 2 * math.pi * self.tremor_hz * t
        return p + self.tremor_mm * np.array([math.sin(w), math.cos(w)])

    def _position(self, t: float) -> tuple[Hold, np.ndarray]:
        hold = self.listener.hold_at(t)
        return hold, self._path(t) + np.array(hold.offset_mm)

    def hear(self, cue: str, t: float) -> None:
        """A cue said at `t` seconds: followed once the reach is over, by a listening player."""
        if self.listening and t >= self.reach_s:
            self.listener.hear(cue, t)

    def shot(self, index: int) -> Shot:
        return _posed(self.base, self._position, index / FPS, index)


def hand_clip(seed: int, payload: str | None = None) -> list[Shot]:
    """The frames of a passive `HandPlayer`'s clip: the card is brought in, held a moment and taken away."""
    player = HandPlayer(seed, payload)
    return [player.shot(i) for i in range(player.frames)]


def rest_frame(shots: list[Shot], speed_mm_s: float = 100.0) -> int | None:
    """The first frame of a clip in which the whole code is in view and the hand has slowed to `speed_mm_s`
    (above the tremor's own speed, which reaches about 75 mm/s)."""
    for index, shot in enumerate(shots):
        if code_in_view(shot) and math.hypot(shot.velocity[0], shot.velocity[1]) <= speed_mm_s:
            return index
    return None
