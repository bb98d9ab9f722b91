"""The card search of a phone let in: the cards a few words name, or (`?all=1`) every card of the game's decks,
which a phone searches itself while the network is down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.share.middleware import device_of
from assistant.share.responses import json_response
from assistant.share.state import state_of

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["cards"]


async def cards(request: web.Request) -> web.StreamResponse:
    """`GET /api/cards?q=WORDS` (at most 10 cards; none for no words) or `?all=1`."""
    device_of(request)
    link = state_of(request).link
    if request.query.get("all") == "1":  # once a phone is let in: its search while the network is down
        return json_response({"cards": link.all_cards()})
    query = request.query.get("q", "")[:60]
    return json_response({"cards": link.cards(query)[:10] if query.strip() else []})
