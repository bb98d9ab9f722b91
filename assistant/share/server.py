"""The sharing server: the phones' aiohttp application (`routes.py`) bound to one local address, on the app's own
asyncio loop, serving the phone's page, the join, the phone's view of the table (and a Server-Sent Events stream of
it) and the moves.

It owns no game. It is given a `TableLink` of callables by the front end: the players of the game, a device's view,
the card search, and `submit`, which hands a device's move to the one owner of the session (the Textual app's
loop, or the plain mode's lock) and returns what became of it. The application is laid out as aiohttp's are: the
route table (`routes.py`), handler functions an area (`handlers/`: join, moves, events, cards, page) that read the
application's typed state (`state.py`, under a `web.AppKey`), and the guards as middleware (`middleware.py`: the
Host and Origin checks, JSON only, the body limit read from Content-Length before any byte of the body; the CSRF
token and the device tokens). The join code and the limits on guessing it, the limit on a player's moves and the
answers kept for retried moves are in `guards.py`; the connections themselves pass `connections.Gate`. Every error
is a JSON sentence from `assistant/core/words/share.py` with the security headers (`responses.py`), aiohttp's own
errors too; nothing raised inside reaches the phone as a traceback, nor the player's terminal as a log
(`logs.py`). The protocol is docs/share.md.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from assistant.core.words.share import UNEXPECTED, LastMove
from assistant.share import connections
from assistant.share.address import check_address, listening_socket, origin_host
from assistant.share.connections import Gate, raise_open_files
from assistant.share.guards import Devices, GuessLimit, JoinCode
from assistant.share.middleware import LINK_HEADER
from assistant.share.responses import (
    MAX_BODY,
    SECURITY_HEADERS,
    SERVER_NAME,
    STATUS_SENTENCE,
    answer_headers,
    error,
    inert_json,
)
from assistant.share.state import TableLink, TableState

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["LINK_HEADER", "MAX_BODY", "SECURITY_HEADERS", "SERVER_NAME", "ShareServer", "TableLink", "inert_json"]

#: Seconds an idle connection is kept open between requests.
IDLE = 15.0


class ShareServer:
    """The server of one shared table, listening on one local address (see `assistant/share/address.py`): its
    application's state (`state`), the application made from it (`app`), and the binding (`start`, `stop`)."""

    def __init__(
        self,
        link: TableLink,
        host: str,
        port: int = 0,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_code: Callable[[str], None] | None = None,
        on_guessing: Callable[[str, bool], None] | None = None,
        crash_log: Callable[[BaseException], object] | None = None,
        on_notice: Callable[[str], None] | None = None,
        on_joining: Callable[[int], None] | None = None,
    ) -> None:
        """`on_code`, `on_guessing`, `on_joining`, `on_notice`: what the host is told (see `TableState`);
        `crash_log`: where asyncio's and aiohttp's records go while the server runs."""
        self.state = TableState(
            link, check_address(host), port, clock, on_code, on_guessing, on_joining, on_notice, crash_log=crash_log
        )
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.AbstractServer | None = None

    # What the front end reads of the state.

    @property
    def host(self) -> str:
        """The address listened on."""
        return self.state.host

    @property
    def port(self) -> int:
        """The port listened on (the one chosen once bound, when it was 0)."""
        return self.state.port

    @property
    def devices(self) -> Devices:
        """The devices joined, by token."""
        return self.state.devices

    @property
    def code(self) -> JoinCode:
        """The join code and the QR code's join token."""
        return self.state.code

    @property
    def guesses(self) -> GuessLimit:
        """The limits on guessing the join code."""
        return self.state.guesses

    @property
    def gate(self) -> Gate | None:
        """The connections' gate, once bound."""
        return self.state.gate

    @property
    def origin(self) -> str:
        """`http://ADDRESS:PORT`, as phones write it."""
        return f"http://{origin_host(self.host, self.port)}"

    @property
    def address(self) -> str:
        """The page's address, to say and show."""
        return f"{self.origin}/"

    @property
    def cookie(self) -> str:
        """The device cookie's name (`TableState.cookie`)."""
        return self.state.cookie

    def join_url(self) -> str:
        """What the QR code holds: the page's address with the QR's join token (never the spoken code: the token
        stays open while the code is closed to every address by guessing)."""
        self.state.current_code()
        return f"{self.address}?link={self.state.code.link()}"

    def current_code(self) -> str:
        """The join code in force (a new one when the last grew old)."""
        return self.state.current_code()

    # What the front end changes (each safe from any thread: see `TableState`).

    def changed(self, lines: tuple[LastMove, ...] = (), fresh: bool = False) -> None:
        """The table changed: every stream gets the new view (`TableState.changed`)."""
        self.state.changed(lines, fresh)

    def remove(self, player: str, number: int | None = None) -> int:
        """Take a player's devices (or only their phone `number`) off the table; how many (`TableState.remove`)."""
        return self.state.remove(player, number)

    def decide(self, token: str, allow: bool) -> bool:
        """Let a waiting phone in, or keep it out; False when it no longer waits (`TableState.decide`)."""
        return self.state.decide(token, allow)

    def waits(self, token: str) -> bool:
        """The phone of this token waits to be let in."""
        return self.state.waits(token)

    def open_joining(self) -> None:
        """The host opens joining with the code for a while, whatever the guessing (`TableState.open_joining`)."""
        self.state.open_joining()

    # The application, and starting and stopping.

    def app(self) -> web.Application:
        """The server's aiohttp application, holding no socket (`routes.application`). `start` binds it to the
        server's address; tests serve it with aiohttp's own `TestServer`, as phones would address the server's
        `origin` (the Host and Origin checks compare with the server's address, not a socket's)."""
        from assistant.share.routes import application  # (aiohttp is loaded with it: see `state.state_key`)

        return application(self.state)

    async def start(self) -> None:
        """Listen on the server's address: bind it (the port chosen then, when it was 0), then serve `app` there
        through `connections.Gate`; `OSError`-free: `AddressError` with the reason when the address cannot be used."""
        from aiohttp import web

        sock = listening_socket(self.host, self.port)
        self.state.port = sock.getsockname()[1]
        handling: dict[str, Any] = {"access_log": None, "keepalive_timeout": IDLE}
        self._runner = web.AppRunner(self.app(), shutdown_timeout=1.0, **handling)
        await self._runner.setup()  # (the application's start: `routes._opened`)
        handler = _handler_class()
        server = self._runner.server  # made by `setup`
        gate = self.state.gate = Gate(min(connections.MOST_CONNECTIONS, raise_open_files() // 2))
        loop = self.state.loop
        protocol = gate.protocol(lambda: handler(server, loop=loop, **handling))
        self._listener = await asyncio.get_running_loop().create_server(protocol, sock=sock)

    async def stop(self) -> None:
        """Stop listening and close every stream."""
        runner, self._runner = self._runner, None
        if self._listener is not None:
            self._listener.close()
        if runner is not None:
            await runner.cleanup()  # (the application's shutdown and cleanup: `routes._closing`, `_closed`)
        if self.state.gate is not None:
            self.state.gate.close()
        self.state.logs.remove()


def _handler_class() -> Any:
    """aiohttp's protocol for one connection, whose own errors (a request line or a header it cannot read, one too
    large) are answered like every other: a JSON sentence with the security headers, never an echo of the
    request, and the connection closed."""
    from aiohttp.web_protocol import RequestHandler

    class Handler(RequestHandler):
        def handle_error(
            self, request: Any, status: int = 500, exc: BaseException | None = None, message: str | None = None
        ) -> web.StreamResponse:
            super().handle_error(request, status, exc, message)  # logged (to the crash log), and checked unsent
            response = error(status, STATUS_SENTENCE.get(status, UNEXPECTED), close=True)
            answer_headers(response)
            return response

    return Handler
