"""The phones' server's route table, and the application made from it (aiohttp's app-factory pattern): the routes,
the guards every request passes (`middleware.py`), the headers every answer carries, and the application's state
(`TableState`, under `state.state_key()`), whose running part (its loop, the wake-up of the event streams and held
requests, the logs sent to the crash log, the join code's ticker) is set up on the application's start and ended on
its shutdown. It holds no socket: `ShareServer.start` binds it; tests serve it with aiohttp's own `TestServer`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from assistant.share.handlers import cards, events, join, moves, page
from assistant.share.middleware import middlewares
from assistant.share.responses import MAX_BODY, answer_headers
from assistant.share.state import TableState, state_key

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["ROUTES", "STATE", "application"]

#: The application's key of its state (made now, at import: see `state.state_key`).
STATE = state_key()

Handler = Callable[["web.Request"], Awaitable["web.StreamResponse"]]

#: Every route: its method, its path, its handler (docs/share.md says what each takes and answers).
ROUTES: tuple[tuple[str, str, Handler], ...] = (
    ("GET", "/", page.page),
    ("GET", "/page/{name}", page.page_part),
    ("POST", "/api/code", join.code),
    ("POST", "/api/join", join.join),
    ("GET", "/api/me", join.me),
    ("GET", "/api/state", events.state),
    ("GET", "/api/events", events.events),
    ("GET", "/api/cards", cards.cards),
    ("POST", "/api/move", moves.move),
    ("POST", "/api/answer", moves.answer),
)


def application(table: TableState) -> web.Application:
    """The server's aiohttp application for the table's state, holding no socket."""
    from aiohttp import web

    app = web.Application(client_max_size=MAX_BODY, middlewares=middlewares())
    app[STATE] = table
    app.on_response_prepare.append(_security_headers)
    app.on_startup.append(_opened)
    app.on_shutdown.append(_closing)  # before the connections are waited for: the streams end at once
    app.on_cleanup.append(_closed)
    for method, path, handler in ROUTES:
        if method == "GET":
            app.router.add_get(path, handler)  # (HEAD too, as aiohttp adds for a GET)
        else:
            app.router.add_route(method, path, handler)
    return app


async def _opened(app: web.Application) -> None:
    table = app[STATE]
    table.loop = asyncio.get_running_loop()
    table.wake = asyncio.Event()
    table.logs.install()  # nothing is printed over the app's screen
    table.current_code()
    table.ticker = asyncio.ensure_future(table.tick())


async def _closing(app: web.Application) -> None:
    """Stop the ticker and end every event stream and held request (each sees no wake-up left, and returns)."""
    table = app[STATE]
    if table.ticker is not None:
        table.ticker.cancel()
    wake, table.wake = table.wake, None
    if wake is not None:
        wake.set()


async def _closed(app: web.Application) -> None:
    app[STATE].logs.remove()


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    answer_headers(response)
