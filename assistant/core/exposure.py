"""Exposure metered on the code, not on the table: how much of its own auto exposure to ask the camera for.

A webcam's auto exposure brings the whole picture to a middle grey. A white card held over a darker table is
then far brighter than that: the sensor clips the sticker's white, and as the lens blurs before the sensor
clips, the clipped white spills over the dark modules beside it until thin ones are gone. No decoder gets them
back. A shorter exposure keeps the white below the clip, and smears a moving hand less as well. So while a
code-like region is in view the scanner meters on it, as a phone's code reader does: `ExposureControl` takes
the region's white level each frame and says when to ask the camera for less (or, in a dim picture, more) of
the exposure its auto exposure chose, and when to give auto exposure back.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExposureLimits:
    """Where the control acts. Grey levels are of the camera's 8-bit picture."""

    bright: float = 235.0
    """A region whose white (its 99th percentile grey) is at or above this is clipped, or about to be: less
    exposure. A webcam's white balance and gamma bring a clipped white to 240-255, not always 255."""
    dim: float = 160.0
    """A region whose white is below this, while the exposure is below the camera's own: more exposure."""
    step_down: float = 0.6
    """Each step down multiplies the exposure by this."""
    step_up: float = 1.3
    """Each step up multiplies it by this (never above the camera's own)."""
    lowest: float = 0.25
    """The least share of the camera's own exposure asked for: below it the sensor's noise takes over."""
    settle_frames: int = 3
    """Frames between two changes: a camera applies a new exposure a frame or two after it is asked."""
    release_frames: int = 45
    """Frames without a code-like region after which the camera's own auto exposure is given back (1.5 s at 30
    frames a second: long enough to keep the setting while a card is turned or put down for the next one)."""


class ExposureControl:
    """See the module docstring. `update(white)` once a frame; `share` is what the camera was last asked for."""

    def __init__(self, limits: ExposureLimits = ExposureLimits()):
        self.limits = limits
        self.share = 1.0
        """The exposure asked for, as a share of the camera's own auto exposure (1: auto exposure)."""
        self._since_change = limits.settle_frames
        self._unseen = 0
        self._white: float | None = None

    def update(self, white: float | None) -> float | None:
        """Take one frame's metering: the white level of the code-like region seen, or None when none was seen.
        Returns the new share to ask the camera for when it changes (1.0: give auto exposure back), else None."""
        limits = self.limits
        self._since_change += 1
        self._white = white
        if white is None:
            self._unseen += 1
            if self.share < 1.0 and self._unseen >= limits.release_frames:
                return self._change(1.0)
            return None
        self._unseen = 0
        if self._since_change < limits.settle_frames:
            return None
        if white >= limits.bright and self.share > limits.lowest:
            return self._change(max(limits.lowest, self.share * limits.step_down))
        if white < limits.dim and self.share < 1.0:
            return self._change(min(1.0, self.share * limits.step_up))
        return None

    @property
    def spent(self) -> bool:
        """The exposure is down to `lowest` and the code's white still clipped: paper is not that bright, so what is
        clipped there is a lamp's reflection, which no exposure clears (the player must tilt the card)."""
        return self.share <= self.limits.lowest and self._white is not None and self._white >= self.limits.bright

    def _change(self, share: float) -> float:
        self.share = share
        self._since_change = 0
        return share
