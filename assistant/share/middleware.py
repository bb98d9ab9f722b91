"""The guards every request of the phones' server passes, as aiohttp middleware, the device a request comes from,
which the handlers ask for, and a request's body, read as a connection that may be cut.

- `errors`, outermost: every refusal (`Refused`), aiohttp's own errors and anything raised inside become a JSON
  sentence (`responses.error`); nothing reaches a phone as a traceback. It also times the connection: busy while
  the request is handled, and waiting for its next request's head (within `connections.HEAD_TIMEOUT`) after.
- `checks`: the Host header is this server's; the size announced is within `MAX_BODY`; a POST comes from this
  server's Origin and says it is JSON.
- `in_flight`: a device's requests (its cookie; its event streams apart) and the join requests carrying the QR
  code's token are counted from their headers, at most `DEVICE_IN_FLIGHT` and `LINK_IN_FLIGHT` at once; one more is
  refused at once and its connection closed, its body never waited for. (Before, one let-in phone's cookie sent as
  headers without bodies from 33 addresses held a thousand requests, each for the body's 10 seconds.)

`device_of` is the device guard the handlers call: the device cookie, the CSRF token of a move, a phone that waits
to be let in kept to one request at a time. `body_of` reads a request's JSON body while its connection counts as
waiting (`connections.Gate.reading`): when every place is taken, it may be cut for a new connection, as one waiting
for a request's head may.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from assistant.core.words.share import (
    NO_CSRF,
    NOT_JSON_TYPE,
    ONE_AT_A_TIME,
    OTHER_HOST,
    OTHER_ORIGIN,
    TOO_LARGE,
    TOO_MANY_AT_ONCE,
    TOO_MANY_JOINING,
    UNEXPECTED,
    phone_waits,
)
from assistant.share.guards import Device, InFlight
from assistant.share.responses import MAX_BODY, STATUS_SENTENCE, Refused, error, read_json
from assistant.share.state import gone_why, state_of

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["LINK_HEADER", "body_of", "device_of", "middlewares"]

#: The header that carries the QR code's join token (from the page's address) to `/api/code` and `/api/join`.
LINK_HEADER = "X-Join-Link"
#: The path of the event streams, which a device's own bound counts (`connections.DeviceStreams`), not `in_flight`.
EVENTS_PATH = "/api/events"

Handler = Callable[["web.Request"], Awaitable["web.StreamResponse"]]


def middlewares() -> list[Any]:
    """The application's middleware, outermost first: `errors`, `checks`, then `in_flight`."""
    from aiohttp import web

    return [web.middleware(errors), web.middleware(checks), web.middleware(in_flight)]


async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer every refusal and error as a JSON sentence; time the connection (busy now, waiting after)."""
    from aiohttp import web

    gate, transport = state_of(request).gate, request.transport
    if gate is not None and transport is not None:
        gate.busy(transport)
    try:
        return await handler(request)
    except Refused as refused:
        response = error(refused.status, refused.sentence, refused.headers, refused.close, refused.fields)
        if refused.close or not request.content.is_eof():  # its body not all come: sent now, the connection closed
            # after it, so that the rest of the body is never waited for
            await response.prepare(request)
            await response.write_eof()
            request.protocol.force_close()  # (aiohttp would otherwise read and drop the body for 10 seconds)
        return response
    except web.HTTPException as exc:
        return error(exc.status, STATUS_SENTENCE.get(exc.status, UNEXPECTED))
    except (asyncio.CancelledError, ConnectionError):
        raise
    except Exception:  # never a traceback to a phone
        logging.getLogger(__name__).debug("share request failed", exc_info=True)
        return error(500, UNEXPECTED)
    finally:
        if gate is not None and transport is not None:
            gate.waiting(transport)  # the next request's head must come in time


async def checks(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Host, size, and for a POST: JSON, Origin; `Refused` when one fails."""
    hosts = state_of(request).hosts()
    if request.host not in hosts:
        raise Refused(403, OTHER_HOST)
    length = request.content_length
    if length is not None and length > MAX_BODY:
        raise Refused(413, TOO_LARGE)
    if request.method == "POST":
        if request.headers.get("Origin") not in {f"http://{host}" for host in hosts}:
            raise Refused(403, OTHER_ORIGIN)
        if request.content_type != "application/json":
            raise Refused(403, NOT_JSON_TYPE)
    return await handler(request)


async def in_flight(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Count the request against its device and its QR token (those it carries), from its headers; `Refused` (429,
    the connection closed) when either has as many in flight as it may."""
    table = state_of(request)
    counted: list[tuple[InFlight, str, str]] = []
    token = request.cookies.get(table.cookie)
    if token and request.path != EVENTS_PATH and table.devices.get(token) is not None:
        counted.append((table.device_flight, token, TOO_MANY_AT_ONCE))
    link = request.headers.get(LINK_HEADER)
    if link is not None and table.code.matches_link(link):
        counted.append((table.link_flight, link, TOO_MANY_JOINING))
    entered: list[tuple[InFlight, str]] = []
    try:
        for flight, key, sentence in counted:
            if not flight.enter(key):
                raise Refused(429, sentence, {"Retry-After": "1"}, close=True)
            entered.append((flight, key))
        return await handler(request)
    finally:
        for flight, key in entered:
            flight.leave(key)


async def body_of(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (`responses.read_json`), its connection counted meanwhile as one waiting, which
    may be cut to make room when every place is taken."""
    gate, transport = state_of(request).gate, request.transport
    if gate is not None and transport is not None:
        gate.reading(transport)
    try:
        return await read_json(request)
    finally:
        if gate is not None and transport is not None:
            gate.busy(transport)


def device_of(request: web.Request, csrf: bool = False, waiting: bool = False) -> Device:
    """The device of the request's cookie (and, for a move, its CSRF token); `Refused` otherwise, and for a
    device that waits to be let in unless `waiting`."""
    table = state_of(request)
    token = request.cookies.get(table.cookie)
    table.expire()  # phones that waited too long: taken off, told at their next request
    device = table.devices.get(token)
    if device is None:
        gone = gone_why(table.devices, token)  # (the page tells its player why: "removed", "refused", "expired")
        raise Refused(401, table.gone(token), fields={"gone": gone} if gone else None)
    if csrf and request.headers.get("X-CSRF-Token") != device.csrf:
        raise Refused(403, NO_CSRF)
    if device.waiting and not waiting:
        raise Refused(403, phone_waits(device.player))
    if device.waiting and device.token in table.holding:  # a phone that waits holds one request at most
        raise Refused(429, ONE_AT_A_TIME, {"Retry-After": "1"})
    return device
