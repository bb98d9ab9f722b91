"""Which codes to announce, frame after frame: steady announcements from flickering decoder results.

A decoder run on live video misses a code now and then (motion blur, a reflection) and may, very rarely,
misread one for a single frame. The tracker therefore announces a payload only after it was read in
`confirm_frames` frames of one visit, then stays quiet about it for `cooldown` seconds while it stays in view;
a code that leaves the view and comes back is announced again at once. Several codes read in one frame are
announced left to right. Pure: the caller passes each frame's time.

Time is the frames' own (when each was taken), never the wall clock when it was handled, and a code has left only
when both the frames and the time say so: unseen in more than `gone_frames` frames that were looked at properly
and for more than `gone_seconds` of the frames' time. A frame whose decoder ran out of time before it had tried
everything (`looked=False`: a loaded machine, a late frame) is no evidence that a code left, so a card lying in
view is not announced again because the machine was busy.
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
    misses: int = 0
    """Frames looked at properly since the code was last read."""
    last_seen: float = 0.0
    """The time of the frame it was last read in."""
    announced_at: float | None = None
    """When it was last announced during this visit (frame time)."""


class SightingTracker:
    """Turns the payloads read in each frame into announcements: `update(sightings, now) -> payloads`."""

    def __init__(
        self,
        confirm_frames: int = 2,
        cooldown: float = 10.0,
        gone_frames: int = 8,
        max_gap: int = 1,
        gone_seconds: float = 0.25,
    ):
        """`confirm_frames`: reads needed before a first announcement (1 announces at once).
        `cooldown`: seconds (of the frames' time) before a code that stays in view is announced again.
        `gone_frames`, `gone_seconds`: a code unseen in more than this many frames looked at properly, and for more
        than this long, has left the view (about a quarter second at 30 frames a second, so a hand passing over a
        card does not count as the card leaving).
        `max_gap`: frames a code may be missed between two reads that still count as consecutive.
        """
        if confirm_frames < 1:
            raise ValueError(f"confirm_frames must be at least 1, not {confirm_frames}")
        self.confirm_frames = confirm_frames
        self.cooldown = cooldown
        self.gone_frames = max(gone_frames, max_gap)
        self.max_gap = max_gap
        self.gone_seconds = gone_seconds
        self._visits: dict[str, _Visit] = {}

    def update(self, sightings: Iterable[Sighting], now: float, looked: bool = True) -> list[Sighting]:
        """Record one frame's reads; return the ones to announce now, left to right. `now`: the frame's time
        (seconds, when it was taken); `looked`: False when the decoder ran out of time on this frame, so a code
        it did not read may still be there."""
        seen: dict[str, Sighting] = {}
        for sighting in sightings:
            known = seen.get(sighting.payload)  # the same code twice in a frame is one code: the surer read
            if known is None or sighting.frames > known.frames:
                seen[sighting.payload] = sighting
        for payload, visit in list(self._visits.items()):
            if payload in seen:
                continue
            if looked:
                visit.misses += 1
            if visit.misses > self.gone_frames and now - visit.last_seen > self.gone_seconds:
                del self._visits[payload]  # it left the view: its next visit starts afresh
        announce = []
        for payload, sighting in seen.items():
            visit = self._visits.setdefault(payload, _Visit())
            if visit.misses > self.max_gap:
                visit.streak = 0  # too many misses in a row: start counting again
            visit.streak += max(1, sighting.frames)
            visit.misses = 0
            visit.last_seen = now
            if visit.streak < self.confirm_frames:
                continue
            if visit.announced_at is None or now - visit.announced_at >= self.cooldown:
                visit.announced_at = now
                announce.append(sighting)
        return sorted(announce, key=lambda s: (s.x, s.y))

    def announced(self, payload: str) -> bool:
        """True while `payload` is in view and has been announced in this visit (its reads say nothing new)."""
        visit = self._visits.get(payload)
        return visit is not None and visit.announced_at is not None

    def reset(self) -> None:
        """Forget everything: every code is new again (after the camera was lost, for instance)."""
        self._visits.clear()
