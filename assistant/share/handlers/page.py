"""The phone's page and its files (`assistant/share/page/`, package data): plain names only, no folders."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from assistant.core.words.share import UNKNOWN_PATH
from assistant.share.responses import Refused, page_file

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["page", "page_part"]

_PAGE_FILE = re.compile(r"[A-Za-z0-9_-]{1,40}\.(js|css|svg|png|ico|html)")


async def page(request: web.Request) -> web.StreamResponse:
    """`GET /`: the page."""
    return page_file("index.html")


async def page_part(request: web.Request) -> web.StreamResponse:
    """`GET /page/{name}`: one of the page's files; `Refused` (404) for any other name."""
    name = request.match_info["name"]
    if not _PAGE_FILE.fullmatch(name):
        raise Refused(404, UNKNOWN_PATH)
    return page_file(name)
