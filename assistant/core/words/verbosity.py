"""How much the game replies say: the level the sentences of `announce` and `position` are made at (the
conversation keeps the player's level; the speech settings store it by its value)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Verbosity"]


class Verbosity(StrEnum):
    """How much the game replies say: facts only, the facts and what is awaited, or that with how to say it."""

    BRIEF = "brief"
    NORMAL = "normal"
    COACHING = "coaching"

    def next(self) -> Verbosity:
        """The level after this one, back to brief after coaching."""
        levels = list(Verbosity)
        return levels[(levels.index(self) + 1) % len(levels)]
