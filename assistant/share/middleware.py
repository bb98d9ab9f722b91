"""The guards every request of the phones' server passes, as aiohttp middleware, and the device a request comes
from, which the handlers ask for.

- `errors`, outermost: every refusal (`Refused`), aiohttp's own errors and anything raised inside become a JSON
  sentence (`responses.error`); nothing reaches a phone as a traceback. It also times the connection: busy while
  the request is handled, and waiting for its next request's head (within `connections.HEAD_TIMEOUT`) after.
- `checks`: the Host header is this server's; the size announced is within `MAX_BODY`; a POST comes from this
  server's Origin and says it is JSON.

`device_of` is the device guard the handlers call: the device cookie, the CSRF token of a move, a phone that waits
to be let in kept to one request at a time.
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
    UNEXPECTED,
    phone_waits,
)
from assistant.share.guards import Device
from assistant.share.responses import MAX_BODY, STATUS_SENTENCE, Refused, error
from assistant.share.state import gone_why, state_of

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["device_of", "middlewares"]

Handler = Callable[["web.Request"], Awaitable["web.StreamResponse"]]


def middlewares() -> list[Any]:
    """The application's middleware, outermost first: `errors`, then `checks`."""
    from aiohttp import web

    return [web.middleware(errors), web.middleware(checks)]


async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Answer every refusal and error as a JSON sentence; time the connection (busy now, waiting after)."""
    from aiohttp import web

    gate, transport = state_of(request).gate, request.transport
    if gate is not None and transport is not None:
        gate.busy(transport)
    try:
        return await handler(request)
    except Refused as refused:
        return error(refused.status, refused.sentence, refused.headers, fields=refused.fields)
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
