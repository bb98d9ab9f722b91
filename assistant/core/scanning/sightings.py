"""Which codes to announce, frame after frame: steady announcements from flickering decoder results.

A decoder run on live video misses a code now and then (motion blur, a reflection) and may, very rarely,
misread one for a single frame. The tracker therefore announces a payload only after it was read in
`confirm_frames` frames of one visit, then stays quiet about it for `cooldown` seconds while it stays in view;
a code that leaves the view (unseen for more than `gone_frames` frames) and comes back is announced again at once.
Several codes read in one frame are announced left to right. Pure: the caller passes the time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Sighting:
    """One payload read in one frame, and where."""

    payload: str
    x: float = 0.0
    """Horizontal position of the code's centre (any unit, used only to order codes left to right)."""
    y: float = 0.0
    """Vertical position of the code's centre."""
    frames: int = 1
    """How many frames this read stands for: a read the background stage checked on two frames (or made from
    several frames averaged) counts as that many consistent reads."""


@dataclass
class _Visit:
    streak: int = 0
    """Frames of this visit in which the code was read."""
    last_frame: int = -1
    announced_at: float | None = None
    """When it was last announced during this visit."""


class SightingTracker:
    """Turns the payloads read in each frame into announcements: `update(sightings, now) -> payloads`."""

    def __init__(self, confirm_frames: int = 2, cooldown: float = 10.0, gone_frames: int = 8, max_gap: int = 1):
        """`confirm_frames`: reads needed before a first announcement (1 announces at once).
        `cooldown`: seconds before a code that stays in view is announced again.
        `gone_frames`: frames unseen after which a code has left the view (about a quarter second at 30 frames a
        second, so a hand passing over a card does not count as the card leaving).
        `max_gap`: frames a code may be missed between two reads that still count as consecutive.
        """
        if confirm_frames < 1:
            raise ValueError(f"confirm_frames must be at least 1, not {confirm_frames}")
        self.confirm_frames = confirm_frames
        self.cooldown = cooldown
        self.gone_frames = max(gone_frames, max_gap)
        self.max_gap = max_gap
        self._frame = -1
        self._visits: dict[str, _Visit] = {}

    def update(self, sightings: Iterable[Sighting], now: float) -> list[Sighting]:
        """Record one frame's reads; return the ones to announce now, left to right."""
        self._frame += 1
        frame = self._frame
        seen: dict[str, Sighting] = {}
        for sighting in sightings:
            known = seen.get(sighting.payload)  # the same code twice in a frame is one code: the surer read
            if known is None or sighting.frames > known.frames:
                seen[sighting.payload] = sighting
        for payload in [p for p, v in self._visits.items() if frame - v.last_frame > self.gone_frames]:
            del self._visits[payload]  # it left the view: its next visit starts afresh
        announce = []
        for payload, sighting in seen.items():
            visit = self._visits.setdefault(payload, _Visit())
            if frame - visit.last_frame > self.max_gap + 1:
                visit.streak = 0  # too many misses in a row: start counting again
            visit.streak += max(1, sighting.frames)
            visit.last_frame = frame
            if visit.streak < self.confirm_frames:
                continue
            if visit.announced_at is None or now - visit.announced_at >= self.cooldown:
                visit.announced_at = now
                announce.append(sighting)
        return sorted(announce, key=lambda s: (s.x, s.y))

    def reset(self) -> None:
        """Forget everything: every code is new again (after the camera was lost, for instance)."""
        self._frame = -1
        self._visits.clear()
