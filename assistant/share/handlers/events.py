"""The phone's view of the table: asked for once (`/api/state`, held for a phone that waits until the host
answers), or pushed on every change down a Server-Sent Events stream (`/api/events`), at most a few a device
(`connections.DeviceStreams`), each ended at once when its phone is taken off the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from typing import TYPE_CHECKING

from assistant.core.words.share import DEVICE_REMOVED, STREAMS_FULL, TOO_MANY_STREAMS, phone_holds_too_much
from assistant.share import connections, responses
from assistant.share.middleware import device_of
from assistant.share.responses import Refused, inert_json, json_response
from assistant.share.state import gone_why, state_of, tell

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["KEEP_ALIVE", "RECONNECT_MS", "events", "state"]

#: Seconds between the keep-alive comments of an event stream (and the longest a waiting phone's state is held).
KEEP_ALIVE = 15.0
#: Milliseconds a phone waits before it opens its event stream again after losing it.
RECONNECT_MS = 1000


async def state(request: web.Request) -> web.StreamResponse:
    """`GET /api/state`: the device's view; for a phone that waits to be let in, held until the host answers (or
    `KEEP_ALIVE` seconds), so that its page learns at once without a stream."""
    table = state_of(request)
    device = device_of(request, waiting=True)
    if device.waiting:
        table.holding.add(device.token)
        try:
            wake = table.wake
            if wake is not None and table.waits(device.token):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), KEEP_ALIVE)
        finally:
            table.holding.discard(device.token)
        device = device_of(request, waiting=True)
    return json_response(table.view(device))


async def events(request: web.Request) -> web.StreamResponse:
    """`GET /api/events`: the device's view at once and after every change, a keep-alive comment every
    `KEEP_ALIVE` seconds between, and `removed` (then the end) once its phone is taken off the table."""
    from aiohttp import web

    table = state_of(request)
    if gone_why(table.devices, request.cookies.get(table.cookie)) == "removed":
        return await _removed_stream(request)
    device = device_of(request)  # a phone that waits opens no stream: it asks for its state, one at a time
    transport = request.transport
    if transport is None:
        raise Refused(503, STREAMS_FULL)
    opened = table.streams.open(device.token, transport, table.gate)
    if opened == "crowded":  # the host is told once, naming the phone
        tell(table.on_notice, phone_holds_too_much(device.player, device.number))
    if opened == "full":
        raise Refused(503, STREAMS_FULL)
    if opened != "open":
        raise Refused(429, TOO_MANY_STREAMS, {"Retry-After": str(math.ceil(connections.STREAM_TURNOVER))})
    try:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        await response.prepare(request)
        await responses.send(response, f"retry: {RECONNECT_MS}\n\n")  # back within a second of the network's return
        sent = -1
        while (wake := table.wake) is not None:  # (None once the application shuts down)
            # the wake-up taken before looking: a change made while a view is sent wakes this one
            if table.devices.get(device.token) is None:
                data = inert_json({"error": table.gone(device.token)})
                await responses.send(response, f"event: removed\ndata: {data}\n\n")
                response.force_close()  # (the connection ends with it: a phone taken off keeps none open)
                break
            if sent != table.version:
                sent = table.version
                data = inert_json(table.view(device))
                await responses.send(response, f"event: state\nid: {sent}\ndata: {data}\n\n")
            try:
                await asyncio.wait_for(wake.wait(), KEEP_ALIVE)
            except TimeoutError:
                await responses.send(response, ": keep-alive\n\n")
    except TimeoutError:  # a phone that reads nothing for `SEND_TIMEOUT`: its stream ends (the page reconnects)
        transport.abort()
    finally:
        table.streams.close(device.token, transport, table.gate)
    return response


async def _removed_stream(request: web.Request) -> web.StreamResponse:
    """The stream of a phone the host took off the table: its `removed` event, then the end. A page whose stream
    opens only after the removal (let in a moment before) hears why as one whose stream was open does; a `401`
    would end the stream unread, and the page go back to the join screen saying nothing."""
    from aiohttp import web

    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
    await response.prepare(request)
    await responses.send(response, f"event: removed\ndata: {inert_json({'error': DEVICE_REMOVED})}\n\n")
    response.force_close()
    return response
