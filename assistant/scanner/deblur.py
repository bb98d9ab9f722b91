"""Motion deblurring for the background stage (`background.BackgroundStage`): a region's spectrum deconvolved with a
straight-line blur kernel (a Wiener filter)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from cv2.typing import MatLike
    from numpy.typing import NDArray

#: The Wiener filter's noise-to-signal ratio: higher is steadier on noisy frames, lower sharper.
WIENER_NSR = 0.01


def spectrum(crop: MatLike) -> Any:
    """The Fourier transform of a region, for `deblurred`."""
    import numpy as np

    return np.fft.rfft2(crop.astype(np.float32))


def deblurred(transform: Any, shape: tuple[int, ...], length: int, angle: int) -> NDArray[np.uint8]:
    """A region (its `spectrum` as `transform`, of `shape`) deconvolved with a straight-line blur of `length` pixels
    at `angle` degrees (a Wiener filter)."""
    import numpy as np

    kernel = np.fft.rfft2(line_psf(length, angle, shape[:2]))
    restored = np.fft.irfft2(transform * np.conj(kernel) / (np.abs(kernel) ** 2 + WIENER_NSR), s=shape[:2])
    return np.clip(restored, 0, 255).astype(np.uint8)


def line_psf(length: int, angle: float, shape: tuple[int, ...]) -> np.ndarray:
    """A straight-line blur of `length` pixels at `angle` degrees, centred at the origin of an image of `shape`
    (wrapped around, as the Fourier transform wants it), summing to one."""
    import numpy as np

    psf = np.zeros(shape, np.float32)
    a = math.radians(angle)
    for t in np.linspace(-length / 2, length / 2, length * 3):
        psf[int(round(t * math.sin(a))) % shape[0], int(round(t * math.cos(a))) % shape[1]] += 1
    return psf / psf.sum()
