"""The background stage's parts a test's stand-in leaves idle (the `Stage` protocol of `assistant.scanner.live`):
no region, label or aiming view of its own, nothing to start, stop or remember. A stand-in subclasses it and gives
its own `offer`, `take` and, where it has jobs under way, `busy`."""

from __future__ import annotations

from typing import Any


class StageStandIn:
    """A stage on the test's thread that works on nothing: it takes no frame, finds no region and measures nothing.
    `retries_elsewhere` is true, as for the worker, so the live path leaves the retries to it."""

    retries_elsewhere, jobs, no_code, no_finder, finger_over, region, labels = True, 0, None, None, False, None, ()

    def offer(self, index: int, gray: Any, regions: Any, picture: Any = None) -> None:
        pass

    def take(self, index: int) -> list[Any]:
        return []

    def busy(self) -> bool:
        return False

    def start(self) -> None:
        pass

    stop = start

    def remember(self, index: int, gray: Any, picture: Any = None) -> None:
        pass

    def aim(self, index: int, region: Any, squareness: float) -> None:
        pass

    def take_view(self) -> Any:
        return None

    def looking(self, picture: Any) -> bool:
        return False
