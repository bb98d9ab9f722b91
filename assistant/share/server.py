"""The sharing server: an aiohttp application on the app's own asyncio loop, serving the phone's page, the join,
the phone's view of the table (and a Server-Sent Events stream of it) and the moves.

It owns no game. It is given a `TableLink` of callables by the front end: the players of the game, a device's view,
the card search, and `submit`, which hands a device's move to the one owner of the session (the Textual app's
loop, or the plain mode's lock) and returns what became of it. Every guard is here: the Host and Origin checks,
JSON only, the CSRF token, the body limit read from Content-Length before any byte of the body and the time a body
may take, the join code and the limits on guessing it, the device tokens, the limit on a player's moves, the
answers kept for retried moves; the connections themselves pass `connections.Gate`. Every error is a JSON sentence
from `assistant/core/words/share.py` with the security headers, aiohttp's own errors too; nothing raised inside
reaches the phone as a traceback, nor the player's terminal as a log (`logs.py`). The protocol is docs/share.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from assistant.core.datatext import load_json
from assistant.core.language.device import (
    DeviceAnswer,
    DeviceJoined,
    DeviceMove,
    DeviceMoveError,
    DeviceOutcome,
    DeviceRequest,
    phone_verbs_json,
    read_answer,
    read_move,
)
from assistant.core.language.table_view import LastEntry, LastMoves, PhoneView
from assistant.core.words.share import (
    BODY_NOT_JSON,
    CHOOSE_PLAYER,
    DEVICE_REMOVED,
    NO_CSRF,
    NO_DEVICE,
    NO_GAME_TO_JOIN,
    NOT_JSON_TYPE,
    OLD_LINK,
    ONE_AT_A_TIME,
    OTHER_HOST,
    OTHER_ORIGIN,
    PAGE_LABELS,
    PHONE_KEPT_OUT,
    STREAMS_FULL,
    TABLE_FULL,
    TOO_LARGE,
    TOO_MANY_STREAMS,
    TOO_SLOW,
    UNEXPECTED,
    UNKNOWN_PATH,
    WAIT_EXPIRED,
    WRONG_CODE,
    LastMove,
    another_phone_asks,
    another_phone_waits,
    bad_field,
    not_a_player,
    phone_holds_too_much,
    phone_waits,
    phone_waits_named,
    too_many_guesses,
    too_many_moves,
    too_many_phones,
    too_many_reads,
)
from assistant.share import connections
from assistant.share.address import check_address, listening_socket, origin_host, peer_key
from assistant.share.connections import BODY_TIMEOUT, DeviceStreams, Gate, raise_open_files
from assistant.share.guards import MOST_PHONES, READ_BURST, READ_EVERY, Device, Devices, GuessLimit, JoinCode, MoveLimit
from assistant.share.logs import CrashLogHandler

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["MAX_BODY", "SERVER_NAME", "ShareServer", "TableLink", "inert_json"]

#: The largest request body read, in bytes.
MAX_BODY = 16 * 1024
#: Seconds between the keep-alive comments of an event stream.
KEEP_ALIVE = 15.0
#: Seconds an event may take to be sent to a phone that does not read it, before its stream is ended.
SEND_TIMEOUT = 30.0
#: Milliseconds a phone waits before it opens its event stream again after losing it.
RECONNECT_MS = 1000
#: Seconds an idle connection is kept open between requests.
IDLE = 15.0
#: Seconds between two looks at the join code's age (a new code is told to the host at the next look).
CODE_CHECK_S = 5.0
#: What every answer says in `Server`: no name of a library, no version.
SERVER_NAME = "table-assistant"
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
#: The header that carries the QR code's join token (from the page's address) to `/api/code` and `/api/join`.
LINK_HEADER = "X-Join-Link"
_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")  # (matched whole: `$` would let a trailing newline through)
_PAGE_FILE = re.compile(r"[A-Za-z0-9_-]{1,40}\.(js|css|svg|png|ico|html)")
_TYPES = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml", "png": "image/png",
          "ico": "image/x-icon", "html": "text/html"}  # fmt: skip
_GONE_WORDS = {"removed": DEVICE_REMOVED, "expired": WAIT_EXPIRED, "refused": PHONE_KEPT_OUT, "": NO_DEVICE}
_STATUS_SENTENCE = {400: BODY_NOT_JSON, 404: UNKNOWN_PATH, 405: UNKNOWN_PATH, 408: TOO_SLOW, 413: TOO_LARGE,
                    431: TOO_LARGE}  # fmt: skip


@dataclass(frozen=True)
class TableLink:
    """What the server is given by the front end: it never touches the session itself."""

    players: Callable[[], list[str]]
    """The players of the game in progress ([] with no game)."""
    view: Callable[[str, int, list[LastEntry]], PhoneView]
    """The view of the table for a device's player, at a version, with the last moves said (each with its place in
    the game's log)."""
    cards: Callable[[str], list[dict[str, str]]]
    """The cards a search names: id, name, type, label."""
    submit: Callable[[str, DeviceRequest], Awaitable[DeviceOutcome]]
    """Carry out a device's move or answer as its player, or say that it joined, on the session's owner; what
    became of it."""
    all_cards: Callable[[], list[dict[str, str]]] = list
    """Every card of the game's decks, as `cards` lists them (a phone searches them itself during a drop)."""


class _Refused(Exception):
    """A request refused with a status and a sentence (and headers, such as Retry-After; and `fields` of its JSON
    beside the sentence, such as why a phone is no longer on the table)."""

    def __init__(
        self, status: int, sentence: str, headers: dict[str, str] | None = None, fields: dict[str, str] | None = None
    ) -> None:
        super().__init__(sentence)
        self.status, self.sentence, self.headers, self.fields = status, sentence, headers or {}, fields or {}


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
        on_guessing: Callable[[str, bool, int], None] | None = None,
        crash_log: Callable[[BaseException], object] | None = None,
        on_notice: Callable[[str], None] | None = None,
    ) -> None:
        self.link = link
        self.host = check_address(host)
        self.port = port
        self.clock = clock
        self.code = JoinCode(clock)
        self.guesses = GuessLimit(clock)
        self.link_guesses = GuessLimit.per_address(clock)
        """Wrong QR tokens, per address only: guessing a token is hopeless, and its guessers never close it to the
        phones that scanned it, even while the join code is closed to every address (the table-wide cap)."""
        self._closed_told = False
        """The host was told, in this guessing, that the join code is closed to every phone (and the QR code not)."""
        self.moves = MoveLimit(clock)
        self.reads = MoveLimit(clock, READ_BURST, READ_EVERY)
        """A player's card reads: never counted as moves (they change nothing), with their own, looser limit."""
        self.devices = Devices(clock)
        self.on_code = on_code
        """Told each new join code made because the last grew old (the app shows it)."""
        self.on_guessing = on_guessing
        """Told the new join code made because someone was guessing the last, whether this is the first time of this
        guessing (the host is told why, once), and, the first time in this guessing that the code is closed to every
        address, for how many whole minutes (else 0): the host is told once that the QR code still works."""
        self.on_notice = on_notice
        """Told a sentence for the host: once per device, a phone let in refused for holding too many event streams
        (naming the phone); once per waiting phone, another phone asking for the same player."""
        self._noticed: set[str] = set()
        """The waiting phones the host was told another phone asks beside."""
        self.streams = DeviceStreams(clock)
        self.logs = CrashLogHandler(crash_log, clock)
        """asyncio's and aiohttp's records, to the crash log and never to the terminal, while the server runs."""
        self.gate: Gate | None = None
        self._listener: asyncio.AbstractServer | None = None
        self.version = 0
        self.last = LastMoves()
        self._runner: web.AppRunner | None = None
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._shown_code = ""
        self._ticker: asyncio.Task[None] | None = None
        self._holding: set[str] = set()
        """The phones that wait to be let in and hold a request open now (one each at most)."""

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
        """What the QR code holds: the page's address with the QR's join token (never the spoken code: the token
        stays open while the code is closed to every address by guessing)."""
        self.current_code()
        return f"{self.address}?link={self.code.link()}"

    @property
    def cookie(self) -> str:
        """The device cookie's name, carrying the port: a browser sends cookies to every port of an address, so
        two tables (or another server) on one computer never read or overwrite each other's."""
        return f"ta_device_{self.port}"

    def current_code(self) -> str:
        """The join code in force (a new one when the last grew old)."""
        code = self.code.current()
        self._shown_code = self._shown_code or code
        return code

    # The application, and starting and stopping.

    def app(self) -> web.Application:
        """The server's aiohttp application, holding no socket: its routes, the guard every request passes, the
        headers every answer carries; when it starts, the server's running state (its loop, the wake-up of the event
        streams and held requests, the logs sent to the crash log, the join code's ticker), which its shutdown ends.
        `start` binds it to the server's address; tests serve it with aiohttp's own `TestServer`, as phones would
        address the server's `origin` (the Host and Origin checks compare with the server's address, not a socket's)."""
        from aiohttp import web

        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.on_response_prepare.append(_security_headers)
        app.on_startup.append(self._opened)
        app.on_shutdown.append(self._closing)  # before the connections are waited for: the streams end at once
        app.on_cleanup.append(self._closed)
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
        return app

    async def _opened(self, app: web.Application) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self.logs.install()  # nothing is printed over the app's screen
        self.current_code()
        self._ticker = asyncio.ensure_future(self._tick())

    async def _closing(self, app: web.Application) -> None:
        """Stop the ticker and end every event stream and held request (each sees no wake-up left, and returns)."""
        if self._ticker is not None:
            self._ticker.cancel()
        wake, self._wake = self._wake, None
        if wake is not None:
            wake.set()

    async def _closed(self, app: web.Application) -> None:
        self.logs.remove()

    async def start(self) -> None:
        """Listen on the server's address: bind it (the port chosen then, when it was 0), then serve `app` there
        through `connections.Gate`; `OSError`-free: `AddressError` with the reason when the address cannot be used."""
        from aiohttp import web

        sock = listening_socket(self.host, self.port)
        self.port = sock.getsockname()[1]
        handling: dict[str, Any] = {"access_log": None, "keepalive_timeout": IDLE}
        self._runner = web.AppRunner(self.app(), shutdown_timeout=1.0, **handling)
        await self._runner.setup()  # (the application's start: `_opened`)
        handler = _handler_class()
        server = self._runner.server  # made by `setup`
        self.gate = Gate(min(connections.MOST_CONNECTIONS, raise_open_files() // 2))
        protocol = self.gate.protocol(lambda: handler(server, loop=self._loop, **handling))
        self._listener = await asyncio.get_running_loop().create_server(protocol, sock=sock)

    async def stop(self) -> None:
        """Stop listening and close every stream."""
        runner, self._runner = self._runner, None
        if self._listener is not None:
            self._listener.close()
        if runner is not None:
            await runner.cleanup()  # (the application's shutdown and cleanup: `_closing`, `_closed`)
        if self.gate is not None:
            self.gate.close()
        self.logs.remove()

    async def _tick(self) -> None:
        """Renew the join code when it grows old, and tell the host the new one."""
        while True:
            await asyncio.sleep(CODE_CHECK_S)
            if self.devices.expire():  # phones that waited too long: taken off, told at their next request
                self._bump(())
            code = self.code.current()
            if code != self._shown_code:
                self._shown_code = code
                _tell(self.on_code, code)

    # Changes, for the event streams.

    def changed(self, lines: tuple[LastMove, ...] = (), fresh: bool = False) -> None:
        """The table changed (a move, an undo, a new game): every stream gets the new view. `lines`, what was said
        of it (each with its place in the game's log, who moved, and its words on that player's phone), are kept as
        the last moves; an undo's or a redo's take the place of those kept at the places it took back or put back.
        `fresh`: another game (its places begin again), whose moves only are kept. Safe from any thread."""
        self._soon(self._bump, tuple(lines), fresh)

    def _soon(self, act: Callable[..., None], *args: Any) -> None:
        """Do `act` on the server's loop: now when called there, else as soon as the loop can."""
        loop = self._loop
        if loop is None:
            return
        if loop.is_running() and _other_thread(loop):
            loop.call_soon_threadsafe(act, *args)
        else:
            act(*args)

    def _bump(self, lines: tuple[LastMove, ...], fresh: bool = False) -> None:
        self.version += 1
        self.last.keep(lines, fresh)
        players = self.link.players()
        if players:
            self.devices.keep(players)  # a new game keeps the devices of its players only
        if self._wake is not None:
            self._wake.set()
            self._wake = asyncio.Event()

    def remove(self, player: str, number: int | None = None) -> int:
        """Take a player's devices (or only their phone `number`) off the table (their streams end) and renew the
        join code, so that the phones taken off cannot join again with the code they had; how many there were."""
        count = self.devices.remove(player, number)
        if count:
            self._shown_code = self.code.renew()
            self._bump(())
        return count

    def decide(self, token: str, allow: bool) -> bool:
        """Let a phone that waits to join in, or keep it out; False when it no longer waits. Keeping it out renews
        the join code at once (the phone kept out, or whoever sent it, cannot ask again with the code it had). Safe
        from any thread: the change to the devices is made on the server's loop."""
        if not self.waits(token):
            return False
        if not allow:
            self._shown_code = self.code.renew()
        self._soon(self._decided, token, allow)
        return True

    def _decided(self, token: str, allow: bool) -> None:
        if self.devices.decide(token, allow):
            self._bump(())

    def waits(self, token: str) -> bool:
        """The phone of this token waits to be let in."""
        device = self.devices.get(token)
        return device is not None and device.waiting

    # The guard every request passes.

    @property
    def _guard(self) -> Any:
        from aiohttp import web

        @web.middleware
        async def guard(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> Any:
            gate, transport = self.gate, request.transport
            if gate is not None and transport is not None:
                gate.busy(transport)
            try:
                self._check(request)
                return await handler(request)
            except _Refused as refused:
                return _error(refused.status, refused.sentence, refused.headers, fields=refused.fields)
            except web.HTTPException as exc:
                sentence = _STATUS_SENTENCE.get(exc.status, UNEXPECTED)
                return _error(exc.status, sentence)
            except (asyncio.CancelledError, ConnectionError):
                raise
            except Exception:  # never a traceback to a phone
                logging.getLogger(__name__).debug("share request failed", exc_info=True)
                return _error(500, UNEXPECTED)
            finally:
                if gate is not None and transport is not None:
                    gate.waiting(transport)  # the next request's head must come in time

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

    def _device(self, request: web.Request, csrf: bool = False, waiting: bool = False) -> Device:
        """The device of the request's cookie (and, for a move, its CSRF token); `_Refused` otherwise, and for a
        device that waits to be let in unless `waiting`."""
        token = request.cookies.get(self.cookie)
        if self.devices.expire():  # phones that waited too long: taken off, told at their next request
            self._bump(())
        device = self.devices.get(token)
        if device is None:
            gone = _gone_why(self.devices, token)  # (the page tells its player why: "removed", "refused", "expired")
            raise _Refused(401, self._gone(token), fields={"gone": gone} if gone else None)
        if csrf and request.headers.get("X-CSRF-Token") != device.csrf:
            raise _Refused(403, NO_CSRF)
        if device.waiting and not waiting:
            raise _Refused(403, phone_waits(device.player))
        if device.waiting and device.token in self._holding:  # a phone that waits holds one request at most
            raise _Refused(429, ONE_AT_A_TIME, {"Retry-After": "1"})
        return device

    def _gone(self, token: str | None) -> str:
        """Why a token is no device's, in words: removed by the host, kept out, or never one."""
        return _GONE_WORDS[_gone_why(self.devices, token)]

    def _view(self, device: Device) -> PhoneView:
        """The device's view of the table; a phone that waits to be let in sees only that it waits."""
        if device.waiting:
            line = phone_waits_named(device.player, device.tag)  # its short name, which the host hears
            view: PhoneView = {"version": self.version, "you": device.player, "line": line, "game": None}
            return {**view, "waiting": True, "tag": device.tag}
        return self.link.view(device.player, self.version, self.last.of(device.player))

    # Pages.

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return _file("index.html")

    async def _page_file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if not _PAGE_FILE.fullmatch(name):
            raise _Refused(404, UNKNOWN_PATH)
        return _file(name)

    # Joining.

    async def _guess(self, request: web.Request) -> dict[str, Any]:
        """The body of a join request whose code is right; `_Refused` (403 or 429, or the body's 400, 408, 413)
        otherwise. The guess is counted before its body is read, and given back only when its code is right."""
        address = peer_key(request.remote or "")
        link = request.headers.get(LINK_HEADER)
        if link is not None:  # the QR code's token, from its header: counted and judged before the body is read
            wait = self.link_guesses.take(address)
            if wait:
                raise _Refused(429, too_many_guesses(wait), {"Retry-After": str(wait)})
            if not self.code.matches_link(link):
                self.link_guesses.wrong(address)
                raise _Refused(403, OLD_LINK)
            self.link_guesses.right(address)
            return await _json(request)
        wait = self.guesses.take(address)
        if wait:
            raise _Refused(429, too_many_guesses(wait), {"Retry-After": str(wait)})
        right = False
        try:
            body = await _json(request)
            right = self.code.matches(body.get("code"))
        finally:
            if right:
                self.guesses.right(address)
            else:
                closure = self.guesses.wrong(address)
                if closure:
                    self._guessed(first=closure == 1)
        if not right:
            raise _Refused(403, WRONG_CODE)
        return body

    def _guessed(self, first: bool) -> None:
        """Too many wrong codes in all: a new code (the QR code's token kept), and the host is told why (the
        `first` time of this guessing: once, however long it goes on); and, once in this guessing, when the code is
        now closed to every address, for how long (the QR code still lets a phone ask)."""
        code = self._shown_code = self.code.renew(link=False)
        if first:
            self._closed_told = False
        closed = self.guesses.closed_to_all()
        minutes = math.ceil(closed / 60) if closed and not self._closed_told else 0
        self._closed_told = self._closed_told or bool(minutes)
        _tell(self.on_guessing, code, first, minutes)

    async def _code(self, request: web.Request) -> web.StreamResponse:
        await self._guess(request)
        players = self.link.players()
        taken = [p for p in players if p in self.devices.players()]
        line = CHOOSE_PLAYER if players else NO_GAME_TO_JOIN
        return _json_response(
            {"players": players, "taken": taken, "words": PAGE_LABELS, "verbs": phone_verbs_json(), "line": line}
        )

    async def _join(self, request: web.Request) -> web.StreamResponse:
        body = await self._guess(request)
        player = body.get("player")
        players = self.link.players()
        if not isinstance(player, str) or player not in players:
            raise _Refused(400, not_a_player(str(player)[:60], players) if players else NO_GAME_TO_JOIN)
        if self.devices.expire():  # phones that waited too long: taken off, told at their next request
            self._bump(())
        first = self.devices.waiting(player)
        if first is not None:  # one phone at a time waits for the host's answer; the host hears once of the next
            if first.token not in self._noticed:
                self._noticed.add(first.token)
                _tell(self.on_notice, another_phone_asks(player))
            raise _Refused(409, another_phone_waits(player))
        if self.devices.count(player) >= MOST_PHONES:
            raise _Refused(409, too_many_phones(player, MOST_PHONES))
        device = self.devices.join(player)
        if device is None:  # full: refused, never a joined phone dropped to make room
            raise _Refused(503, TABLE_FULL)
        response = _json_response(_who(device, lambda: self._view(device)))
        response.set_cookie(self.cookie, device.token, httponly=True, samesite="Strict", path="/")
        try:  # asked on the laptop, of the host alone, as a move is said
            await self.link.submit(player, DeviceJoined(device.number, _Waiting(self, device.token), device.tag))
        except Exception:  # the phone has joined; the host can still list it (`share devices`)
            logging.getLogger(__name__).debug("a join was not said", exc_info=True)
        self._bump(())
        return response

    async def _me(self, request: web.Request) -> web.StreamResponse:
        device = self._device(request, waiting=True)
        return _json_response(_who(device, lambda: self._view(device), words=PAGE_LABELS, verbs=phone_verbs_json()))

    # The table.

    async def _state(self, request: web.Request) -> web.StreamResponse:
        """The device's view; for a phone that waits to be let in, held until the host answers (or `KEEP_ALIVE`
        seconds), so that its page learns at once without a stream."""
        device = self._device(request, waiting=True)
        if device.waiting:
            self._holding.add(device.token)
            try:
                wake = self._wake
                if wake is not None and self.waits(device.token):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), KEEP_ALIVE)
            finally:
                self._holding.discard(device.token)
            device = self._device(request, waiting=True)
        return _json_response(self._view(device))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        from aiohttp import web

        if _gone_why(self.devices, request.cookies.get(self.cookie)) == "removed":
            return await _removed_stream(request)
        device = self._device(request)  # a phone that waits opens no stream: it asks for its state, one at a time
        transport = request.transport
        if transport is None:
            raise _Refused(503, STREAMS_FULL)
        opened = self.streams.open(device.token, transport, self.gate)
        if opened == "crowded":  # the host is told once, naming the phone
            _tell(self.on_notice, phone_holds_too_much(device.player, device.number))
        if opened == "full":
            raise _Refused(503, STREAMS_FULL)
        if opened != "open":
            raise _Refused(429, TOO_MANY_STREAMS, {"Retry-After": str(math.ceil(connections.STREAM_TURNOVER))})
        try:
            response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
            await response.prepare(request)
            await _send(response, f"retry: {RECONNECT_MS}\n\n")  # back within a second of the network's return
            sent = -1
            while (wake := self._wake) is not None:  # (None once the application shuts down)
                # the wake-up taken before looking: a change made while a view is sent wakes this one
                if self.devices.get(device.token) is None:
                    data = inert_json({"error": self._gone(device.token)})
                    await _send(response, f"event: removed\ndata: {data}\n\n")
                    response.force_close()  # (the connection ends with it: a phone taken off keeps none open)
                    break
                if sent != self.version:
                    sent = self.version
                    data = inert_json(self._view(device))
                    await _send(response, f"event: state\nid: {sent}\ndata: {data}\n\n")
                try:
                    await asyncio.wait_for(wake.wait(), KEEP_ALIVE)
                except TimeoutError:
                    await _send(response, ": keep-alive\n\n")
        except TimeoutError:  # a phone that reads nothing for `SEND_TIMEOUT`: its stream ends (the page reconnects)
            transport.abort()
        finally:
            self.streams.close(device.token, transport, self.gate)
        return response

    async def _cards(self, request: web.Request) -> web.StreamResponse:
        self._device(request)
        if request.query.get("all") == "1":  # once a phone is let in: its search while the network is down
            return _json_response({"cards": self.link.all_cards()})
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
        if not isinstance(key, str) or not _KEY.fullmatch(key):
            raise _Refused(400, bad_field("key"))
        kept = device.answers.get(key)
        if kept is not None:  # a retry: the first answer again (waiting for it if it is still being made)
            status, data = await asyncio.shield(kept)
            return _json_response(data, status)
        try:
            phones = self.devices.let_in(device.player)
            phoned = tuple(self.devices.players())
            request_made = dataclasses.replace(read(body), device=device.number, phones=phones, phoned=phoned)
        except DeviceMoveError as exc:
            raise _Refused(400, str(exc)) from None
        reading = isinstance(request_made, DeviceMove) and request_made.verb == "read"
        wait = (self.reads if reading else self.moves).take(device.player)  # from all the player's phones together
        if wait:
            raise _Refused(429, (too_many_reads if reading else too_many_moves)(wait), {"Retry-After": str(wait)})
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


def _who(device: Device, view: Callable[[], Any], **more: Any) -> dict[str, Any]:
    """Who the device records for, and its CSRF token; a phone that waits also gets its view (made only then), so
    that its page says at once that it waits (its state requests are held until the host answers)."""
    me = {"player": device.player, "csrf": device.csrf, **more, "waiting": device.waiting, "tag": device.tag}
    return {**me, "view": view()} if device.waiting else me


@dataclass(frozen=True)
class _Waiting:
    """A phone that waits to be let in, as the session is told of it (`JoinDecision`)."""

    server: ShareServer
    token: str

    def waits(self) -> bool:
        return self.server.waits(self.token)

    def decide(self, allow: bool) -> bool:
        return self.server.decide(self.token, allow)

    def code(self) -> str:
        return self.server.current_code()


def _gone_why(devices: Devices, token: str | None) -> str:
    """Why a token is no device's: "removed" by the host, "expired" waiting, "refused" by the host, or "" (never
    one, or forgotten)."""
    for why, tokens in (
        ("removed", devices.removed),
        ("expired", devices.expired),
        ("refused", devices.refused),
    ):
        if token in tokens:
            return why
    return ""


async def _removed_stream(request: web.Request) -> web.StreamResponse:
    """The stream of a phone the host took off the table: its `removed` event, then the end. A page whose stream
    opens only after the removal (let in a moment before) hears why as one whose stream was open does; a `401`
    would end the stream unread, and the page go back to the join screen saying nothing."""
    from aiohttp import web

    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
    await response.prepare(request)
    await _send(response, f"event: removed\ndata: {inert_json({'error': DEVICE_REMOVED})}\n\n")
    response.force_close()
    return response


def _outcome_json(outcome: DeviceOutcome) -> tuple[int, dict[str, Any]]:
    """The status and body a phone gets for what became of its move."""
    if outcome.status == "stale":
        return 409, {"error": " ".join(outcome.lines), "status": "stale", "lines": list(outcome.lines)}
    data: dict[str, Any] = {"status": outcome.status, "lines": list(outcome.lines)}
    if outcome.question is not None:
        data["question"] = outcome.question
    if outcome.labels is not None:
        data["labels"] = outcome.labels
    return 200, data


async def _json(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (at most `MAX_BODY` bytes are read); `_Refused` when it is not one."""
    from aiohttp import web

    try:
        raw = await asyncio.wait_for(request.read(), BODY_TIMEOUT)
    except web.HTTPRequestEntityTooLarge:
        raise _Refused(413, TOO_LARGE) from None
    except TimeoutError:
        raise _Refused(408, TOO_SLOW) from None
    try:
        body = load_json(raw.decode("utf-8"))  # bounded in depth: 7,000 nested lists are refused, not a crash
        json.dumps(body, ensure_ascii=False).encode("utf-8")  # a lone surrogate ("\ud800") is no text
    except (UnicodeError, ValueError):
        raise _Refused(400, BODY_NOT_JSON) from None
    if not isinstance(body, dict):
        raise _Refused(400, BODY_NOT_JSON)
    return body


async def _send(response: web.StreamResponse, event: str) -> None:
    """Send an event on a stream; a phone that reads nothing for `SEND_TIMEOUT` seconds has its stream ended."""
    await asyncio.wait_for(response.write(event.encode()), SEND_TIMEOUT)


def inert_json(data: Any) -> str:
    """JSON on one line with `<`, `>` and `&` escaped (as `\\u003c`...): a name or a card's text can never read as
    markup, even to a browser that sniffs."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _json_response(data: Mapping[str, object], status: int = 200) -> web.Response:
    from aiohttp import web

    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"}, dumps=inert_json)


def _error(
    status: int,
    sentence: str,
    headers: dict[str, str] | None = None,
    close: bool = False,
    fields: dict[str, str] | None = None,
) -> web.Response:
    """An error as JSON with its sentence (and `fields` beside it); `close` ends the connection, as a body too large
    or too slow does (a body left unread is never read)."""
    response = _json_response({"error": sentence, **(fields or {})}, status)
    response.headers.update(headers or {})
    if close or status in (408, 413):
        response.force_close()
    return response


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
            response = _error(status, _STATUS_SENTENCE.get(status, UNEXPECTED), close=True)
            _answer_headers(response)
            return response

    return Handler


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
    _answer_headers(response)


def _answer_headers(response: web.StreamResponse) -> None:
    """The headers every answer carries: the security headers, and a `Server` that names no version."""
    response.headers.update(SECURITY_HEADERS)
    response.headers["Server"] = SERVER_NAME


def _tell(callback: Callable[..., None] | None, *args: Any) -> None:
    """Tell the front end something, if it asked to be told (the screen closing under it is no error: the code, for
    one, is still said by `share`)."""
    if callback is not None:
        try:
            callback(*args)
        except Exception:
            logging.getLogger(__name__).debug("the host was not told", exc_info=True)


def _other_thread(loop: asyncio.AbstractEventLoop) -> bool:
    """The caller is not on the loop's own thread."""
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:
        return True
