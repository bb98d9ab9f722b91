"""A phone's move and its answer to its own question: read from its JSON, made into the request the session
carries out as the device's player, once per idempotency key (a retry gets the first answer again), within the
player's move limit (or, for a card read, the looser read limit)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from assistant.core.language.device import (
    DeviceAnswer,
    DeviceMove,
    DeviceMoveError,
    DeviceOutcome,
    read_answer,
    read_move,
)
from assistant.core.words.share import bad_field, too_many_moves, too_many_reads
from assistant.share.middleware import body_of, device_of
from assistant.share.responses import Refused, json_response
from assistant.share.state import state_of

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["answer", "move"]

_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")  # (matched whole: `$` would let a trailing newline through)


async def move(request: web.Request) -> web.StreamResponse:
    """`POST /api/move`: a move of the device's player."""
    return await _act(request, read_move)


async def answer(request: web.Request) -> web.StreamResponse:
    """`POST /api/answer`: the device's answer to its own open question."""
    return await _act(request, read_answer)


async def _act(request: web.Request, read: Callable[[Any], DeviceMove | DeviceAnswer]) -> web.Response:
    """A move or an answer: once per idempotency key, as the device's player, in the order they arrive."""
    table = state_of(request)
    device = device_of(request, csrf=True)
    body = await body_of(request)
    key = body.get("key")
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise Refused(400, bad_field("key"))
    kept = device.answers.get(key)
    if kept is not None:  # a retry: the first answer again (waiting for it if it is still being made)
        status, data = await asyncio.shield(kept)
        return json_response(data, status)
    try:
        phones = table.devices.let_in(device.player)
        phoned = tuple(table.devices.players())
        request_made = dataclasses.replace(read(body), device=device.number, phones=phones, phoned=phoned)
    except DeviceMoveError as exc:
        raise Refused(400, str(exc)) from None
    reading = isinstance(request_made, DeviceMove) and request_made.verb == "read"
    wait = (table.reads if reading else table.moves).take(device.player)  # from all the player's phones together
    if wait:
        raise Refused(429, (too_many_reads if reading else too_many_moves)(wait), {"Retry-After": str(wait)})
    answered: asyncio.Future[tuple[int, dict[str, Any]]] = asyncio.get_running_loop().create_future()
    device.answers.keep(key, answered)
    try:
        outcome = await table.link.submit(device.player, request_made)
    except BaseException:
        device.answers.forget(key)  # not carried out: a retry may try again
        answered.cancel()
        raise
    status, data = _outcome_json(outcome)
    answered.set_result((status, data))
    return json_response(data, status)


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
