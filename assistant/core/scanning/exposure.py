"""Exposure metered on the code, not on the table: how much of its own auto exposure to ask the camera for.

A webcam's auto exposure brings the whole picture to a middle grey. A white card held over a darker table is
then far brighter than that: the sensor clips the sticker's white, and as the lens blurs before the sensor
clips, the clipped white spills over the dark modules beside it until thin ones are gone. No decoder gets them
back. A shorter exposure keeps the white below the clip, and smears a moving hand less as well. So while a
code-like region is in view the scanner meters on it, as a phone's code reader does: `ExposureControl` takes
the region's white level each frame and says when to ask the camera for less (or, in a dim picture, more) of
the exposure its auto exposure chose, and when to give auto exposure back.

A white still clipped at a quarter of the camera's own exposure is no paper: it is a lamp's reflection. The
control then says so (`reflection`, for the cue to tilt the card) and goes on down: a reflection is far brighter
than paper, and at a few hundredths of the exposure the code under a weaker one shows again.
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
    step_down: float = 0.45
    """Each step down multiplies the exposure by this: four steps from the camera's own to `lowest` (0.4 s at 30
    frames a second), within the moment a card is held up. Paper clipped at the camera's own exposure lands above
    `dim` after one step (a gamma of 2.2 makes 0.45 of the light 70 % of the grey level)."""
    step_up: float = 1.3
    """Each step up multiplies it by this (never above the camera's own)."""
    lowest: float = 0.06
    """The least share of the camera's own exposure asked for: a code under a reflection, with its paper dim and
    noisy there, still reads; much below it the sensor's noise takes over."""
    reflection_below: float = 0.25
    """At or below this share a white still clipped is a reflection (`ExposureControl.reflection`): no paper is
    that bright under the light that made the camera choose its own exposure."""
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
        self._reflection = False

    def update(self, white: float | None) -> float | None:
        """Take one frame's metering: the white level of the code-like region seen, or None when none was seen.
        Returns the new share to ask the camera for when it changes (1.0: give auto exposure back), else None."""
        limits = self.limits
        self._since_change += 1
        if white is None:
            self._unseen += 1
            if self.share < 1.0 and self._unseen >= limits.release_frames:
                return self._change(1.0)
            return None
        self._unseen = 0
        applied = self._since_change >= limits.settle_frames - 1  # this frame was taken at the share asked
        if applied and white >= limits.bright and self.share <= limits.reflection_below:
            self._reflection = True
        if self._since_change < limits.settle_frames:
            return None
        if white >= limits.bright and self.share > limits.lowest:
            return self._change(max(limits.lowest, self.share * limits.step_down))
        if white < limits.dim and self.share < 1.0:
            return self._change(min(1.0, self.share * limits.step_up))
        return None

    @property
    def reflection(self) -> bool:
        """The code's white was still clipped once the exposure was down to `reflection_below`: paper is not that
        bright, so what was clipped there is a lamp's reflection. It stays said while the exposure goes on down
        (a reflection no longer clipped may still hide the code), until the white turns dim (the card was tilted
        away from the lamp) or no code is seen for `release_frames`."""
        return self._reflection

    def _change(self, share: float) -> float:
        if share > self.share:
            self._reflection = False
        self.share = share
        self._since_change = 0
        return share
