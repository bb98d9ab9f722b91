"""What the phones' server answers with: JSON on one inert line, an error as a JSON sentence (`Refused`, raised by a
handler or a guard and answered by the error middleware), the headers every answer carries, a request's JSON body
read within its limits, an event sent on a stream, and the page's files. Every sentence comes from
`assistant/core/words/share.py`; nothing a phone sent is echoed back.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from assistant.core.datatext import load_json
from assistant.core.words.share import BODY_NOT_JSON, TOO_LARGE, TOO_SLOW, UNKNOWN_PATH
from assistant.share.connections import BODY_TIMEOUT

if TYPE_CHECKING:
    from aiohttp import web

__all__ = [
    "MAX_BODY",
    "SECURITY_HEADERS",
    "SEND_TIMEOUT",
    "SERVER_NAME",
    "STATUS_SENTENCE",
    "Refused",
    "answer_headers",
    "error",
    "inert_json",
    "json_response",
    "page_file",
    "read_json",
    "send",
]

#: The largest request body read, in bytes.
MAX_BODY = 16 * 1024
#: Seconds an event may take to be sent to a phone that does not read it, before its stream is ended.
SEND_TIMEOUT = 30.0
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
#: The sentence of each status aiohttp itself answers with (a request it cannot read, a path it has no route for).
STATUS_SENTENCE = {400: BODY_NOT_JSON, 404: UNKNOWN_PATH, 405: UNKNOWN_PATH, 408: TOO_SLOW, 413: TOO_LARGE,
                   431: TOO_LARGE}  # fmt: skip
_TYPES = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml", "png": "image/png",
          "ico": "image/x-icon", "html": "text/html"}  # fmt: skip


class Refused(Exception):
    """A request refused with a status and a sentence (and headers, such as Retry-After; and `fields` of its JSON
    beside the sentence, such as why a phone is no longer on the table); `close`: its connection ends with the
    answer (as it does for any request refused before all its body came: that body is never waited for)."""

    def __init__(
        self,
        status: int,
        sentence: str,
        headers: dict[str, str] | None = None,
        fields: dict[str, str] | None = None,
        close: bool = False,
    ) -> None:
        super().__init__(sentence)
        self.status, self.sentence, self.headers, self.fields = status, sentence, headers or {}, fields or {}
        self.close = close


def inert_json(data: Any) -> str:
    """JSON on one line with `<`, `>` and `&` escaped (as `\\u003c`...): a name or a card's text can never read as
    markup, even to a browser that sniffs."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def json_response(data: Mapping[str, object], status: int = 200) -> web.Response:
    """A JSON answer, never cached."""
    from aiohttp import web

    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"}, dumps=inert_json)


def error(
    status: int,
    sentence: str,
    headers: dict[str, str] | None = None,
    close: bool = False,
    fields: dict[str, str] | None = None,
) -> web.Response:
    """An error as JSON with its sentence (and `fields` beside it); `close` ends the connection, as a body too large
    or too slow does (a body left unread is never read)."""
    response = json_response({"error": sentence, **(fields or {})}, status)
    response.headers.update(headers or {})
    if close or status in (408, 413):
        response.force_close()
    return response


def answer_headers(response: web.StreamResponse) -> None:
    """The headers every answer carries: the security headers, and a `Server` that names no version."""
    response.headers.update(SECURITY_HEADERS)
    response.headers["Server"] = SERVER_NAME


async def read_json(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (at most `MAX_BODY` bytes are read, within `BODY_TIMEOUT` seconds); `Refused`
    (400, 408 or 413) when it is not one."""
    from aiohttp import web

    try:
        raw = await asyncio.wait_for(request.read(), BODY_TIMEOUT)
    except web.HTTPRequestEntityTooLarge:
        raise Refused(413, TOO_LARGE) from None
    except TimeoutError:
        raise Refused(408, TOO_SLOW) from None
    try:
        body = load_json(raw.decode("utf-8"))  # bounded in depth: 7,000 nested lists are refused, not a crash
        json.dumps(body, ensure_ascii=False).encode("utf-8")  # a lone surrogate ("\ud800") is no text
    except (UnicodeError, ValueError):
        raise Refused(400, BODY_NOT_JSON) from None
    if not isinstance(body, dict):
        raise Refused(400, BODY_NOT_JSON)
    return body


async def send(response: web.StreamResponse, event: str) -> None:
    """Send an event on a stream; a phone that reads nothing for `SEND_TIMEOUT` seconds has its stream ended
    (`TimeoutError`)."""
    await asyncio.wait_for(response.write(event.encode()), SEND_TIMEOUT)


def page_file(name: str) -> web.Response:
    """One of the page's files, from the package; `Refused` (404) when there is none of that name."""
    from aiohttp import web

    try:
        data = resources.files("assistant.share").joinpath("page", name).read_bytes()
    except (FileNotFoundError, IsADirectoryError, OSError):
        raise Refused(404, UNKNOWN_PATH) from None
    kind = _TYPES[name.rsplit(".", 1)[1]]
    charset = "utf-8" if kind.startswith("text/") or kind.endswith("+xml") else None
    return web.Response(body=data, content_type=kind, charset=charset, headers={"Cache-Control": "no-cache"})
