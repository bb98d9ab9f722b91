"""The share as plain mode makes it, without its server, for plain mode's tests: its `show` is how a phone's move
is shown (`ThreadedShare._submit` calls it, under the lock, from another hand)."""

from __future__ import annotations

from collections.abc import Callable

from assistant.session import Reply


class FakeShare:
    """Stands for `ThreadedShare`: keeps each `show` it is given in `shows`."""

    shows: list[Callable[[Reply], None]] = []

    def __init__(self, session, lock, show) -> None:
        FakeShare.shows.append(show)

    def control(self, argument: str) -> Reply:
        return Reply.of("Sharing.")

    def after(self, reply: Reply) -> None:
        pass

    def close(self) -> None:
        pass
