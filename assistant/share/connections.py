"""How many connections the sharing server holds, and for how long, so that strangers cannot jam the table.

- At most `PER_ADDRESS` connections from one address (IPv6 and IPv4 alike: a single address, never a /64, which a whole
  home network shares), and at most `most` in all: half the files the process may open, up to `MOST_CONNECTIONS`
  (the open-file limit is raised toward its ceiling first).
- A connection must deliver a whole request's head (its line and headers) within `HEAD_TIMEOUT` seconds of opening,
  or of its last answer; otherwise it is cut. A body has its own limit (`BODY_TIMEOUT`, in the server).
- When every place is taken, the connection that has waited longest without a request, or for its request's body,
  is cut to make room; when every connection is busy with a request (an event stream, a move being carried out),
  the new one is refused. (A connection waiting for a body was once busy: headers sent without bodies from one
  phone's cookie filled every place, and real phones' connections were refused.)
- Event streams may take at most `most` less a quarter (`reserved`): the rest is kept for connections that hold no
  stream (a join, a state, a move), so phones that hold streams can never fill every place. (Each device holds at
  most a few streams itself: the server's events route.)

The gate stands between asyncio and aiohttp's own protocol: each accepted connection is admitted, or closed before
aiohttp sees a byte of it.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any, cast

from assistant.share.address import peer_key

__all__ = [
    "BODY_TIMEOUT",
    "HEAD_TIMEOUT",
    "STREAMS_PER_DEVICE",
    "STREAM_TURNOVER",
    "DeviceStreams",
    "Gate",
    "raise_open_files",
]

#: Seconds a connection has to send a request's head, from its opening or its last answer.
HEAD_TIMEOUT = 10.0
#: Seconds a request's body may take to arrive, once its head has.
BODY_TIMEOUT = 10.0
#: Connections from one address (a phone needs its event stream and a few requests; a browser opens at most 6).
PER_ADDRESS = 32
#: Connections in all, at most.
MOST_CONNECTIONS = 1024
#: Event streams one device may hold at once (a phone's page needs one; a few more for a page reloaded or opened twice).
STREAMS_PER_DEVICE = 3
#: Seconds a device's oldest stream must have lasted before a new one may end it (a page comes back after a second).
STREAM_TURNOVER = 5.0


def raise_open_files() -> int:
    """Raise this process's soft limit of open files toward its hard limit (as far as `MOST_CONNECTIONS` * 4: room
    for every connection and the app's own files, no more), where the system lets it; the soft limit now
    (`MOST_CONNECTIONS` * 2 where there is no such limit, as on Windows)."""
    try:
        import resource
    except ImportError:
        return 2 * MOST_CONNECTIONS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * MOST_CONNECTIONS if hard == resource.RLIM_INFINITY else min(hard, 4 * MOST_CONNECTIONS)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (OSError, ValueError):  # macOS caps it below an infinite hard limit: keep what there is
            pass
    return 2 * MOST_CONNECTIONS if soft == resource.RLIM_INFINITY else soft


class Gate:
    """The connections of one server: admitted, timed while they wait for a request, cut when they are too many."""

    def __init__(self, most: int, per_address: int = PER_ADDRESS) -> None:
        self.most = most
        self.per_address = per_address
        self._address: dict[asyncio.Transport, str] = {}
        """Every connection admitted, with the address it is counted against."""
        self._waiting: dict[asyncio.Transport, asyncio.TimerHandle] = {}
        """The connections waiting for a request's head or its body, longest waiting first, each with the timer that
        cuts it."""
        self._count: Counter[str] = Counter()
        self._streams: set[asyncio.Transport] = set()
        """The connections holding an event stream."""

    @property
    def reserved(self) -> int:
        """The places no event stream may take: a quarter of them, kept for requests that hold none."""
        return max(1, self.most // 4)

    def stream(self, transport: asyncio.Transport) -> bool:
        """The connection begins an event stream: False (and not counted) when the streams' share is full."""
        if transport not in self._streams and len(self._streams) >= self.most - self.reserved:
            return False
        self._streams.add(transport)
        return True

    def unstream(self, transport: asyncio.Transport) -> None:
        """The connection's event stream ended."""
        self._streams.discard(transport)

    def protocol(self, make_handler: Callable[[], asyncio.BaseProtocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for `loop.create_server`: aiohttp's handler for each connection the gate admits."""
        return lambda: _Guarded(self, make_handler())

    def admit(self, transport: asyncio.Transport) -> bool:
        """Whether a new connection may be kept (making room by cutting the longest waiting one if need be); an
        admitted connection waits for its first request's head."""
        peer = transport.get_extra_info("peername")
        address = peer_key(str(peer[0])) if peer else ""
        if self._count[address] >= self.per_address:
            return False
        if len(self._address) >= self.most:
            if not self._waiting:
                return False
            self.cut(next(iter(self._waiting)))
        self._address[transport] = address
        self._count[address] += 1
        self.waiting(transport)
        return True

    def waiting(self, transport: asyncio.Transport) -> None:
        """The connection waits for a request's head: cut if it has none within `HEAD_TIMEOUT` seconds."""
        if transport not in self._address:
            return
        self.busy(transport)
        loop = asyncio.get_running_loop()
        self._waiting[transport] = loop.call_later(HEAD_TIMEOUT, self.cut, transport)

    def reading(self, transport: asyncio.Transport) -> None:
        """The connection's request waits for its body: it may be cut to make room, as one waiting for a request's
        head may (the body's own limit, `BODY_TIMEOUT`, answers it first; the timer here is the backstop)."""
        if transport not in self._address:
            return
        self.busy(transport)
        loop = asyncio.get_running_loop()
        self._waiting[transport] = loop.call_later(BODY_TIMEOUT + HEAD_TIMEOUT, self.cut, transport)

    def busy(self, transport: asyncio.Transport) -> None:
        """A request's head came on the connection: it is no longer timed, nor cut to make room."""
        timer = self._waiting.pop(transport, None)
        if timer is not None:
            timer.cancel()

    def cut(self, transport: asyncio.Transport) -> None:
        """Close a connection at once (its place is free now)."""
        self.forget(transport)
        transport.abort()

    def forget(self, transport: asyncio.Transport) -> None:
        """The connection is gone: its place is free."""
        self.busy(transport)
        self._streams.discard(transport)
        address = self._address.pop(transport, None)
        if address is not None:
            self._count[address] -= 1
            if not self._count[address]:
                del self._count[address]

    def close(self) -> None:
        """The server stops: no timer is left behind."""
        for transport in list(self._waiting):
            self.busy(transport)


class DeviceStreams:
    """The event streams each device holds (by its token), at most `STREAMS_PER_DEVICE`: a new one ends the oldest
    once that has lasted `STREAM_TURNOVER` seconds; sooner, it is refused. Every stream also takes a place of the
    gate's streams' share."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._held: dict[str, list[tuple[float, asyncio.Transport]]] = {}
        self._crowded: set[str] = set()

    def open(self, token: str, transport: asyncio.Transport, gate: Gate | None) -> str:
        """Begin a stream of the device: "open"; "crowded" (refused: too many of its own, the first time for this
        device), "again" (refused: too many of its own, told before), or "full" (refused: the streams' share is
        taken)."""
        held = self._held.get(token, [])
        if len(held) >= STREAMS_PER_DEVICE:
            began, oldest = held[0]
            if self.clock() - began < STREAM_TURNOVER:
                first = token not in self._crowded
                self._crowded.add(token)
                return "crowded" if first else "again"
            held.pop(0)
            if gate is not None:
                gate.unstream(oldest)
            oldest.abort()  # the oldest stream ends (its page, if still open, comes back and ends the next oldest)
        if gate is not None and not gate.stream(transport):
            return "full"
        self._held.setdefault(token, []).append((self.clock(), transport))
        return "open"

    def close(self, token: str, transport: asyncio.Transport, gate: Gate | None) -> None:
        """The stream ended."""
        held = self._held.get(token, [])
        held[:] = [entry for entry in held if entry[1] is not transport]
        if not held:
            self._held.pop(token, None)
        if gate is not None:
            gate.unstream(transport)


class _Guarded(asyncio.Protocol):
    """One connection: handed to aiohttp's protocol when the gate admits it, closed at once otherwise."""

    def __init__(self, gate: Gate, handler: Any) -> None:
        self.gate = gate
        self.handler = handler
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport = cast(asyncio.Transport, transport)  # a stream server's connections
        if not self.gate.admit(transport):
            transport.abort()
            return
        self.transport = transport
        self.handler.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.transport is not None:
            self.handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self.handler.eof_received() if self.transport is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.gate.forget(self.transport)
            self.handler.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.transport is not None:
            self.handler.pause_writing()

    def resume_writing(self) -> None:
        if self.transport is not None:
            self.handler.resume_writing()
