"""The sharing server's application built by its factory (`ShareServer.app`), holding no socket: served by aiohttp's
own `TestServer`, it answers as the bound server does (the same guards, the same sentences, the same headers). The
server is made for an address it never binds (127.0.0.1:8765); the client addresses it as a phone would (its Host
and Origin), so the Host check is seen comparing with the server's address, not with the test server's socket.
The binding itself (the port chosen, IPv6, addresses refused) is tested on real ports in `test_share_server.py`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp.test_utils import BaseTestServer, TestServer

from assistant.core.language.device import DeviceJoined, DeviceMove, DeviceOutcome, DeviceRequest
from assistant.core.language.table_view import LastEntry, PhoneView
from assistant.core.words.share import NO_CSRF, OTHER_HOST, TOO_LARGE, WRONG_CODE
from assistant.share.logs import LOGGERS, CrashLogHandler
from assistant.share.server import MAX_BODY, SECURITY_HEADERS, SERVER_NAME, ShareServer, TableLink

#: The port the server is made for and never binds.
PORT = 8765
#: Patience for one request on a busy machine; never a sleep.
PATIENCE = 60


@dataclass
class Phone:
    """The server, its application served by aiohttp's test server, and a client that addresses the server."""

    server: ShareServer
    served: BaseTestServer
    http: aiohttp.ClientSession
    submitted: list[DeviceRequest] = field(default_factory=list)

    def url(self, path: str) -> str:
        return str(self.served.make_url(path))

    async def post(self, path: str, body: Any, **headers: str) -> tuple[int, Any]:
        sent = {"Origin": self.server.origin, "Content-Type": "application/json", **headers}
        async with self.http.post(self.url(path), data=json.dumps(body), headers=sent) as response:
            return response.status, await response.json(content_type=None)

    async def joined(self, player: str) -> str:
        """Join as `player` with the right code, and let the phone in as the host would; its CSRF token."""
        status, body = await self.post("/api/join", {"code": self.server.current_code(), "player": player})
        assert status == 200 and body["waiting"], body
        token = next(iter(self.server.devices.by_token))
        assert self.server.decide(token, True)
        return str(body["csrf"])


def _view(player: str, version: int, last: list[LastEntry]) -> PhoneView:
    return {"version": version, "you": player, "line": f"{player}'s view.", "game": None}


def _link(submitted: list[DeviceRequest]) -> TableLink:
    """A table of Ana and Ben whose every move is recorded (and kept in `submitted`)."""

    async def submit(player: str, request: DeviceRequest) -> DeviceOutcome:
        submitted.append(request)
        return DeviceOutcome("joined" if isinstance(request, DeviceJoined) else "recorded", ("Done.",))

    return TableLink(lambda: ["Ana", "Ben"], _view, lambda query: [], submit)


@contextlib.asynccontextmanager
async def served() -> AsyncIterator[Phone]:
    """A server for Ana and Ben, its application (from the factory) served by aiohttp's `TestServer`."""
    submitted: list[DeviceRequest] = []
    server = ShareServer(_link(submitted), "127.0.0.1", PORT, clock=lambda: 1000.0)
    headers = {"Host": f"127.0.0.1:{PORT}"}  # as a phone addresses the server
    timeout = aiohttp.ClientTimeout(total=PATIENCE)
    async with TestServer(server.app()) as test_server:
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar, headers=headers, timeout=timeout) as http:
            yield Phone(server, test_server, http, submitted)


def run(test: Any) -> Any:
    return asyncio.run(asyncio.wait_for(test, PATIENCE * 2))


def test_the_factory_binds_nothing_and_its_app_has_every_route():
    server = ShareServer(_link([]), "127.0.0.1", PORT)
    app = server.app()
    paths = {route.resource.canonical for route in app.router.routes() if route.resource is not None}
    assert paths == {"/", "/page/{name}", "/api/code", "/api/join", "/api/me", "/api/state", "/api/events",
                     "/api/cards", "/api/move", "/api/answer"}  # fmt: skip
    assert (server.port, server.gate, server.origin) == (PORT, None, f"http://127.0.0.1:{PORT}")
    assert app._client_max_size == MAX_BODY


def test_the_page_comes_with_the_security_headers_and_no_version():
    async def scenario() -> None:
        async with served() as phone, phone.http.get(phone.url("/")) as response:
            assert response.status == 200 and "<html" in (await response.text()).casefold()
            assert response.headers["Server"] == SERVER_NAME
            assert {name: response.headers[name] for name in SECURITY_HEADERS} == SECURITY_HEADERS

    run(scenario())


def test_a_join_with_a_wrong_code_is_refused_and_the_right_one_joins():
    async def scenario() -> None:
        async with served() as phone:
            code = phone.server.current_code()
            wrong = f"{(int(code) + 1) % 10**6:06d}"
            assert await phone.post("/api/join", {"code": wrong, "player": "Ana"}) == (403, {"error": WRONG_CODE})
            assert phone.server.devices.players() == [] and phone.submitted == []
            status, body = await phone.post("/api/join", {"code": code, "player": "Ana"})
            assert status == 200 and body["player"] == "Ana" and body["waiting"]
            assert [type(request) for request in phone.submitted] == [DeviceJoined]

    run(scenario())


def test_the_host_check_compares_with_the_servers_address_not_the_sockets():
    async def scenario() -> None:
        async with served() as phone:
            socket_host = f"127.0.0.1:{phone.served.port}"  # where the test server listens: not the server's address
            async with phone.http.get(phone.url("/api/state"), headers={"Host": socket_host}) as response:
                assert response.status == 403 and await response.json() == {"error": OTHER_HOST}

    run(scenario())


def test_a_move_without_its_csrf_token_is_refused_and_with_it_is_submitted():
    async def scenario() -> None:
        async with served() as phone:
            csrf = await phone.joined("Ben")
            move = {"key": "key-csrf-0001", "verb": "draw"}
            assert await phone.post("/api/move", move) == (403, {"error": NO_CSRF})
            assert await phone.post("/api/move", move, **{"X-CSRF-Token": "wrong"}) == (403, {"error": NO_CSRF})
            assert not any(isinstance(request, DeviceMove) for request in phone.submitted)
            status, body = await phone.post("/api/move", move, **{"X-CSRF-Token": csrf})
            assert (status, body) == (200, {"status": "recorded", "lines": ["Done."]})
            assert isinstance(phone.submitted[-1], DeviceMove) and phone.submitted[-1].verb == "draw"

    run(scenario())


def test_a_body_past_the_limit_is_refused_with_or_without_its_length():
    async def scenario() -> None:
        async with served() as phone:
            csrf = await phone.joined("Ana")
            big = {"key": "key-large-001", "verb": "draw", "pad": "x" * MAX_BODY}
            assert await phone.post("/api/move", big, **{"X-CSRF-Token": csrf}) == (413, {"error": TOO_LARGE})

            async def chunks() -> AsyncIterator[bytes]:
                for _ in range(MAX_BODY // 1024 + 4):
                    yield b" " * 1024

            headers = {"Origin": phone.server.origin, "Content-Type": "application/json", "X-CSRF-Token": csrf}
            async with phone.http.post(phone.url("/api/move"), data=chunks(), headers=headers) as response:
                assert response.status == 413 and await response.json() == {"error": TOO_LARGE}
            assert not any(isinstance(request, DeviceMove) for request in phone.submitted)

    run(scenario())


def test_the_apps_shutdown_ends_its_streams_and_its_ticker_and_gives_the_logs_back():
    """The application's own start and shutdown carry the server's running state: a stream open when the test
    server closes ends (it is never waited for until its keep-alive), the join code's ticker stops, and aiohttp's
    loggers are the terminal's again."""

    async def scenario() -> None:
        async with served() as phone:
            await phone.joined("Ben")
            assert any(isinstance(h, CrashLogHandler) for h in logging.getLogger(LOGGERS[0]).handlers)
            async with phone.http.get(phone.url("/api/events")) as stream:
                lines = [(await stream.content.readline()).decode() for _ in range(4)]
                assert lines[0] == "retry: 1000\n" and lines[2] == "event: state\n", lines
                ticker = phone.server.state.ticker
                await phone.served.close()
                rest = await stream.content.read()  # to its end: the server closed the stream
                assert b"keep-alive" not in rest
        assert ticker is not None and ticker.cancelled()
        assert not any(isinstance(h, CrashLogHandler) for h in logging.getLogger(LOGGERS[0]).handlers)

    run(scenario())
