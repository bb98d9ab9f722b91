"""Joining the table: the code checked (or the QR code's join token), the players to choose from, a new device
that waits for the host's answer, and who a device is.

A guess at the code is counted before its body is read and given back only when its code proves right; a QR token
is judged from its header (`LINK_HEADER`) before the body. A second phone asking as a player for whom one already
waits waits too, and the host is asked about each with the others' short names (a code
holder asking first as every player holds no player's place: the real player's phone is asked about beside it);
only when the player's places are all taken is it refused, and the host hears once of it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from assistant.core.language.device import DeviceJoined, phone_verbs_json
from assistant.core.words.share import (
    CHOOSE_PLAYER,
    NO_GAME_TO_JOIN,
    OLD_LINK,
    PAGE_LABELS,
    TABLE_FULL,
    WRONG_CODE,
    not_a_player,
    too_many_guesses,
    too_many_phones,
)
from assistant.share.address import peer_key
from assistant.share.guards import MOST_PHONES, Device
from assistant.share.middleware import LINK_HEADER, body_of, device_of
from assistant.share.responses import Refused, json_response
from assistant.share.state import TableState, state_of

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["code", "join", "me"]


async def code(request: web.Request) -> web.StreamResponse:
    """`POST /api/code`: with the right code, the players to choose from (and those already taken) and the page's
    words and verbs."""
    table = state_of(request)
    await _guess(request, table)
    players = table.link.players()
    taken = [p for p in players if p in table.devices.players()]
    line = CHOOSE_PLAYER if players else NO_GAME_TO_JOIN
    return json_response(
        {"players": players, "taken": taken, "words": PAGE_LABELS, "verbs": phone_verbs_json(), "line": line}
    )


async def join(request: web.Request) -> web.StreamResponse:
    """`POST /api/join`: with the right code and a player of the game, a new device (its cookie) that waits for the
    host's answer, asked on the laptop."""
    table = state_of(request)
    body = await _guess(request, table)
    player = body.get("player")
    players = table.link.players()
    if not isinstance(player, str) or player not in players:
        raise Refused(400, not_a_player(str(player)[:60], players) if players else NO_GAME_TO_JOIN)
    table.expire()  # phones that waited too long: taken off, told at their next request
    address = peer_key(request.remote or "")
    if not table.devices.make_room(player, address):  # (waiting phones never hold a place against it)
        raise Refused(409, too_many_phones(player, MOST_PHONES))
    device = table.devices.join(player, address)
    if device is None:  # full: refused, never a joined phone dropped to make room
        raise Refused(503, TABLE_FULL)
    response = json_response(who(device, lambda: table.view(device)))
    response.set_cookie(table.cookie, device.token, httponly=True, samesite="Strict", path="/")
    try:  # asked on the laptop, of the host alone, as a move is said
        await table.link.submit(player, DeviceJoined(device.number, Waiting(table, device.token), device.tag))
    except Exception:  # the phone has joined; the host can still list it (`share devices`)
        logging.getLogger(__name__).debug("a join was not said", exc_info=True)
    table.bump()
    return response


async def me(request: web.Request) -> web.StreamResponse:
    """`GET /api/me`: who the device records for, its CSRF token, the page's words and verbs."""
    table = state_of(request)
    device = device_of(request, waiting=True)
    return json_response(who(device, lambda: table.view(device), words=PAGE_LABELS, verbs=phone_verbs_json()))


async def _guess(request: web.Request, table: TableState) -> dict[str, Any]:
    """The body of a join request whose code is right; `Refused` (403 or 429, or the body's 400, 408, 413)
    otherwise. The guess is counted before its body is read, and given back only when its body is read and its
    code (or its QR token) is right: requests whose bodies never come all count against their address. (A QR
    token's was once given back as soon as the token matched: someone with a photo of the QR screen held any number
    of requests open without their bodies.)"""
    address = peer_key(request.remote or "")
    table.look_closed()  # (a closure that ended is told before this guess is judged: at once, not at the next tick)
    link = request.headers.get(LINK_HEADER)
    if link is not None:  # the QR code's token, from its header: counted and judged before the body is read
        wait = table.link_guesses.take(address)
        if wait:
            raise Refused(429, too_many_guesses(wait), {"Retry-After": str(wait)})
        if not table.code.matches_link(link):
            table.link_guesses.wrong(address)
            raise Refused(403, OLD_LINK)
        body = await body_of(request)
        table.link_guesses.right(address)
        return body
    wait = table.guesses.take(address)
    if wait:
        raise Refused(429, too_many_guesses(wait), {"Retry-After": str(wait)})
    right = False
    try:
        body = await body_of(request)
        right = table.code.matches(body.get("code"))
    finally:
        if right:
            table.guesses.right(address)
        else:
            closure = table.guesses.wrong(address)
            if closure:
                table.guessed(first=closure == 1)
    if not right:
        raise Refused(403, WRONG_CODE)
    return body


def who(device: Device, view: Callable[[], Any], **more: Any) -> dict[str, Any]:
    """Who the device records for, and its CSRF token; a phone that waits also gets its view (made only then), so
    that its page says at once that it waits (its state requests are held until the host answers)."""
    me = {"player": device.player, "csrf": device.csrf, **more, "waiting": device.waiting, "tag": device.tag}
    return {**me, "view": view()} if device.waiting else me


@dataclass(frozen=True)
class Waiting:
    """A phone that waits to be let in, as the session is told of it (`JoinDecision`)."""

    table: TableState
    token: str

    def waits(self) -> bool:
        return self.table.waits(self.token)

    def decide(self, allow: bool) -> bool:
        return self.table.decide(self.token, allow)

    def code(self) -> str:
        return self.table.current_code()
