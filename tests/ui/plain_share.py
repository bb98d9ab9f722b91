"""The share as plain mode makes it, without its server, for plain mode's tests: its `show` is how a phone's move
is shown (`ThreadedShare._submit` calls it, under the lock, from another hand)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assistant.session import Reply
from tests.ui.test_plain_line_editing import reading, shows
from tests.ui.test_share_app import SHARED, _request


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


def bens_phone_let_in(terminal: Any, played: str) -> tuple[int, str, str]:
    """A game at a plain mode's pseudo-terminal (`benchmarks.outage_rig.PtyApp`) with Ben's phone let in: Ana draws
    and plays Rainbow Aura (`played`: what its answer shows), shares the table, Ben's phone joins and she lets it in.
    Returns the port, Ben's cookie and his CSRF token. Each wait is for what the program shows."""
    shows(terminal, "> ")
    for line, answer in (("new game Ana Ben Cy babies red pink orange", "New game"), ("draw", "drew"),
                         ("play rainbow aura", played), ("share 127.0.0.1:0", "join code")):  # fmt: skip
        reading(terminal)
        terminal.type(line)
        shows(terminal, answer)
    found = SHARED.search(terminal.text())
    assert found is not None, terminal.text()
    port, code = int(found["port"]), found["code"].replace(" ", "")
    status, body, cookie = _request(port, "POST", "/api/join", {"code": code, "player": "Ben"})
    assert status == 200, body
    shows(terminal, "Let it in?")
    reading(terminal)
    terminal.type("yes")
    shows(terminal, "Ben's phone")
    reading(terminal)
    return port, cookie.split(";")[0], body["csrf"]
