"""The sharing server: an aiohttp application on the app's own asyncio loop, serving the phone's page, the join,
the phone's view of the table (and a Server-Sent Events stream of it) and the moves.

It owns no game. It is given a `TableLink` of callables by the front end: the players of the game, a device's view,
the card search, and `submit`, which hands a device's move to the one owner of the session (the Textual app's
loop, or the plain mode's lock) and returns what became of it. Every guard is here: the Host and Origin checks,
JSON only, the CSRF token, the body limit read from Content-Length before any byte of the body, the join code and
the limit on guessing it, the device tokens, the answers kept for retried moves. Every error is a JSON sentence
from `assistant/core/words/share.py`; nothing raised inside reaches the phone as a traceback. The protocol is
docs/share.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from assistant.core.language.device import (
    DeviceAnswer,
    DeviceMove,
    DeviceMoveError,
    DeviceOutcome,
    read_answer,
    read_move,
)
from assistant.core.words.share import (
    BODY_NOT_JSON,
    CHOOSE_PLAYER,
    DEVICE_REMOVED,
    NO_CSRF,
    NO_DEVICE,
    NO_GAME_TO_JOIN,
    NOT_JSON_TYPE,
    OTHER_HOST,
    OTHER_ORIGIN,
    PAGE_LABELS,
    TOO_LARGE,
    UNEXPECTED,
    UNKNOWN_PATH,
    WRONG_CODE,
    bad_field,
    cannot_listen,
    not_a_player,
    too_many_guesses,
)
from assistant.share.address import check_address, origin_host
from assistant.share.guards import Device, Devices, GuessLimit, JoinCode

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["MAX_BODY", "ShareServer", "TableLink", "inert_json"]

#: The largest request body read, in bytes.
MAX_BODY = 16 * 1024
#: Seconds between the keep-alive comments of an event stream.
KEEP_ALIVE = 15.0
COOKIE = "ta_device"
#: The headers every response carries.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
_KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_PAGE_FILE = re.compile(r"^[A-Za-z0-9_-]{1,40}\.(js|css|svg|png|ico|html)$")
_TYPES = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml", "png": "image/png",
          "ico": "image/x-icon", "html": "text/html"}  # fmt: skip
_STATUS_SENTENCE = {400: BODY_NOT_JSON, 404: UNKNOWN_PATH, 405: UNKNOWN_PATH, 413: TOO_LARGE}


@dataclass(frozen=True)
class TableLink:
    """What the server is given by the front end: it never touches the session itself."""

    players: Callable[[], list[str]]
    """The players of the game in progress ([] with no game)."""
    view: Callable[[str, int, list[str]], dict[str, Any]]
    """The view of the table for a device's player, at a version, with the last moves said."""
    cards: Callable[[str], list[dict[str, str]]]
    """The cards a search names: id, name, type, label."""
    submit: Callable[[str, DeviceMove | DeviceAnswer], Awaitable[DeviceOutcome]]
    """Carry out a device's move or answer as its player, on the session's owner; what became of it."""


class _Refused(Exception):
    """A request refused with a status and a sentence (and headers, such as Retry-After)."""

    def __init__(self, status: int, sentence: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(sentence)
        self.status, self.sentence, self.headers = status, sentence, headers or {}


class ShareServer:
    """The server of one shared table, listening on one local address (see `assistant/share/address.py`)."""

    def __init__(
        self,
        link: TableLink,
        host: str,
        port: int = 0,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_code: Callable[[str], None] | None = None,
    ) -> None:
        self.link = link
        self.host = check_address(host)
        self.port = port
        self.clock = clock
        self.code = JoinCode(clock)
        self.guesses = GuessLimit(clock)
        self.devices = Devices()
        self.on_code = on_code
        """Told each new join code made because the last grew old (the app shows it)."""
        self.version = 0
        self.last: deque[str] = deque(maxlen=6)
        self._runner: web.AppRunner | None = None
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._shown_code = ""
        self._ticker: asyncio.Task[None] | None = None

    # The address and the code, for the host.

    @property
    def origin(self) -> str:
        """`http://ADDRESS:PORT`, as phones write it."""
        return f"http://{origin_host(self.host, self.port)}"

    @property
    def address(self) -> str:
        """The page's address, to say and show."""
        return f"{self.origin}/"

    def join_url(self) -> str:
        """What the QR code holds: the page's address with the join code."""
        return f"{self.address}?code={self.current_code()}"

    def current_code(self) -> str:
        """The join code in force (a new one when the last grew old)."""
        code = self.code.current()
        self._shown_code = self._shown_code or code
        return code

    # Starting and stopping.

    async def start(self) -> None:
        """Listen; `OSError`-free: `AddressError` with the reason when the address cannot be used."""
        from aiohttp import web

        from assistant.share.address import AddressError

        logging.getLogger("aiohttp").addHandler(logging.NullHandler())
        logging.getLogger("aiohttp").propagate = False  # nothing is printed over the app's screen
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen(32)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            raise AddressError(cannot_listen(origin_host(self.host, self.port), exc.strerror or str(exc))) from None
        self.port = sock.getsockname()[1]
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.on_response_prepare.append(_security_headers)
        app.router.add_get("/", self._page)
        app.router.add_get("/page/{name}", self._page_file)
        app.router.add_post("/api/code", self._code)
        app.router.add_post("/api/join", self._join)
        app.router.add_get("/api/me", self._me)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/events", self._events)
        app.router.add_get("/api/cards", self._cards)
        app.router.add_post("/api/move", self._move)
        app.router.add_post("/api/answer", self._answer)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        self.current_code()
        self._ticker = asyncio.ensure_future(self._tick())

    async def stop(self) -> None:
        """Stop listening and close every stream."""
        if self._ticker is not None:
            self._ticker.cancel()
        runner, self._runner = self._runner, None
        if self._wake is not None:
            self._wake.set()
        if runner is not None:
            await runner.cleanup()

    async def _tick(self) -> None:
        """Renew the join code when it grows old, and tell the host the new one."""
        while True:
            await asyncio.sleep(5)
            code = self.code.current()
            if code != self._shown_code:
                self._shown_code = code
                if self.on_code is not None:
                    try:
                        self.on_code(code)
                    except Exception:  # the screen closing under it: the code is still said by `share`
                        logging.getLogger(__name__).debug("the new join code was not shown", exc_info=True)

    # Changes, for the event streams.

    def changed(self, lines: tuple[str, ...] = ()) -> None:
        """The table changed (a move, an undo, a new game): every stream gets the new view. `lines`, what was said
        of it, are kept as the last moves. Safe from any thread."""
        loop = self._loop
        if loop is None:
            return
        if loop.is_running() and _other_thread(loop):
            loop.call_soon_threadsafe(self._bump, tuple(lines))
        else:
            self._bump(tuple(lines))

    def _bump(self, lines: tuple[str, ...]) -> None:
        self.version += 1
        self.last.extend(lines)
        players = self.link.players()
        if players:
            self.devices.keep(players)  # a new game keeps the devices of its players only
        if self._wake is not None:
            self._wake.set()
            self._wake = asyncio.Event()

    def remove(self, player: str) -> int:
        """Take a player's devices off the table (their streams end); how many there were."""
        count = self.devices.remove(player)
        if count:
            self._bump(())
        return count

    # The guard every request passes.

    @property
    def _guard(self) -> Any:
        from aiohttp import web

        @web.middleware
        async def guard(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> Any:
            try:
                self._check(request)
                return await handler(request)
            except _Refused as refused:
                return _error(refused.status, refused.sentence, refused.headers, close=refused.status == 413)
            except web.HTTPException as exc:
                sentence = _STATUS_SENTENCE.get(exc.status, UNEXPECTED)
                return _error(exc.status, sentence, close=exc.status == 413)
            except (asyncio.CancelledError, ConnectionError):
                raise
            except Exception:  # never a traceback to a phone
                logging.getLogger(__name__).debug("share request failed", exc_info=True)
                return _error(500, UNEXPECTED)

        return guard

    def _check(self, request: web.Request) -> None:
        """Host, size, and for a POST: JSON, Origin; `_Refused` when one fails."""
        if request.host not in self._hosts():
            raise _Refused(403, OTHER_HOST)
        length = request.content_length
        if length is not None and length > MAX_BODY:
            raise _Refused(413, TOO_LARGE)
        if request.method == "POST":
            if request.headers.get("Origin") not in {f"http://{host}" for host in self._hosts()}:
                raise _Refused(403, OTHER_ORIGIN)
            if request.content_type != "application/json":
                raise _Refused(403, NOT_JSON_TYPE)

    def _hosts(self) -> set[str]:
        """The Host headers of this server: its address and port (and `localhost` on loopback; the address alone
        on port 80, which browsers leave out)."""
        hosts = {origin_host(self.host, self.port)}
        if self.host in ("127.0.0.1", "::1"):
            hosts.add(f"localhost:{self.port}")
        if self.port == 80:
            hosts |= {h.rsplit(":", 1)[0] for h in hosts}
        return hosts

    def _device(self, request: web.Request, csrf: bool = False) -> Device:
        """The device of the request's cookie (and, for a move, its CSRF token); `_Refused` otherwise."""
        token = request.cookies.get(COOKIE)
        device = self.devices.get(token)
        if device is None:
            raise _Refused(401, DEVICE_REMOVED if token in self.devices.removed else NO_DEVICE)
        if csrf and request.headers.get("X-CSRF-Token") != device.csrf:
            raise _Refused(403, NO_CSRF)
        return device

    # Pages.

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return _file("index.html")

    async def _page_file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if not _PAGE_FILE.match(name):
            raise _Refused(404, UNKNOWN_PATH)
        return _file(name)

    # Joining.

    async def _guess(self, request: web.Request) -> dict[str, Any]:
        """The body of a join request whose code is right; `_Refused` (403 or 429) otherwise."""
        address = request.remote or ""
        wait = self.guesses.wait(address)
        if wait:
            raise _Refused(429, too_many_guesses(wait), {"Retry-After": str(wait)})
        body = await _json(request)
        if not self.code.matches(body.get("code")):
            self.guesses.wrong(address)
            raise _Refused(403, WRONG_CODE)
        return body

    async def _code(self, request: web.Request) -> web.StreamResponse:
        await self._guess(request)
        players = self.link.players()
        taken = [p for p in players if p in self.devices.players()]
        line = CHOOSE_PLAYER if players else NO_GAME_TO_JOIN
        return _json_response({"players": players, "taken": taken, "words": PAGE_LABELS, "line": line})

    async def _join(self, request: web.Request) -> web.StreamResponse:
        body = await self._guess(request)
        player = body.get("player")
        players = self.link.players()
        if not isinstance(player, str) or player not in players:
            raise _Refused(400, not_a_player(str(player)[:60], players) if players else NO_GAME_TO_JOIN)
        device = self.devices.join(player)
        response = _json_response({"player": player, "csrf": device.csrf})
        response.set_cookie(COOKIE, device.token, httponly=True, samesite="Strict", path="/")
        self._bump(())
        return response

    async def _me(self, request: web.Request) -> web.StreamResponse:
        device = self._device(request)
        return _json_response({"player": device.player, "csrf": device.csrf, "words": PAGE_LABELS})

    # The table.

    async def _state(self, request: web.Request) -> web.StreamResponse:
        device = self._device(request)
        return _json_response(self.link.view(device.player, self.version, list(self.last)))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        from aiohttp import web

        device = self._device(request)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        await response.prepare(request)
        sent = -1
        while self._runner is not None:
            if self.devices.get(device.token) is None:
                data = inert_json({"error": DEVICE_REMOVED})
                await response.write(f"event: removed\ndata: {data}\n\n".encode())
                break
            if sent != self.version:
                sent = self.version
                data = inert_json(self.link.view(device.player, sent, list(self.last)))
                await response.write(f"event: state\nid: {sent}\ndata: {data}\n\n".encode())
            wake = self._wake
            if wake is None:
                break
            try:
                await asyncio.wait_for(wake.wait(), KEEP_ALIVE)
            except TimeoutError:
                await response.write(b": keep-alive\n\n")
        return response

    async def _cards(self, request: web.Request) -> web.StreamResponse:
        self._device(request)
        query = request.query.get("q", "")[:60]
        return _json_response({"cards": self.link.cards(query)[:10] if query.strip() else []})

    # Moves.

    async def _move(self, request: web.Request) -> web.StreamResponse:
        return await self._act(request, read_move)

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        return await self._act(request, read_answer)

    async def _act(self, request: web.Request, read: Callable[[Any], DeviceMove | DeviceAnswer]) -> web.Response:
        """A move or an answer: once per idempotency key, as the device's player, in the order they arrive."""
        device = self._device(request, csrf=True)
        body = await _json(request)
        key = body.get("key")
        if not isinstance(key, str) or not _KEY.match(key):
            raise _Refused(400, bad_field("key"))
        kept = device.answers.get(key)
        if kept is not None:  # a retry: the first answer again (waiting for it if it is still being made)
            status, data = await asyncio.shield(kept)
            return _json_response(data, status)
        try:
            request_made = read(body)
        except DeviceMoveError as exc:
            raise _Refused(400, str(exc)) from None
        answer: asyncio.Future[tuple[int, dict[str, Any]]] = asyncio.get_running_loop().create_future()
        device.answers.keep(key, answer)
        try:
            outcome = await self.link.submit(device.player, request_made)
        except BaseException:
            device.answers.forget(key)  # not carried out: a retry may try again
            answer.cancel()
            raise
        status, data = _outcome_json(outcome)
        answer.set_result((status, data))
        return _json_response(data, status)


def _outcome_json(outcome: DeviceOutcome) -> tuple[int, dict[str, Any]]:
    """The status and body a phone gets for what became of its move."""
    if outcome.status == "stale":
        return 409, {"error": " ".join(outcome.lines), "status": "stale", "lines": list(outcome.lines)}
    data: dict[str, Any] = {"status": outcome.status, "lines": list(outcome.lines)}
    if outcome.question is not None:
        data["question"] = outcome.question
    return 200, data


async def _json(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (at most `MAX_BODY` bytes are read); `_Refused` when it is not one."""
    from aiohttp import web

    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise _Refused(413, TOO_LARGE) from None
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise _Refused(400, BODY_NOT_JSON) from None
    if not isinstance(body, dict):
        raise _Refused(400, BODY_NOT_JSON)
    return body


def inert_json(data: Any) -> str:
    """JSON on one line with `<`, `>` and `&` escaped (as `\\u003c`...): a name or a card's text can never read as
    markup, even to a browser that sniffs."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _json_response(data: dict[str, Any], status: int = 200) -> web.Response:
    from aiohttp import web

    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"}, dumps=inert_json)


def _error(status: int, sentence: str, headers: dict[str, str] | None = None, close: bool = False) -> web.Response:
    """An error as JSON with its sentence; `close` ends the connection (a body left unread is never read)."""
    response = _json_response({"error": sentence}, status)
    response.headers.update(headers or {})
    if close:
        response.force_close()
    return response


def _file(name: str) -> web.Response:
    """One of the page's files, from the package."""
    from aiohttp import web

    try:
        data = resources.files("assistant.share").joinpath("page", name).read_bytes()
    except (FileNotFoundError, IsADirectoryError, OSError):
        raise _Refused(404, UNKNOWN_PATH) from None
    kind = _TYPES[name.rsplit(".", 1)[1]]
    charset = "utf-8" if kind.startswith("text/") or kind.endswith("+xml") else None
    return web.Response(body=data, content_type=kind, charset=charset, headers={"Cache-Control": "no-cache"})


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)


def _other_thread(loop: asyncio.AbstractEventLoop) -> bool:
    """The caller is not on the loop's own thread."""
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:
        return True
