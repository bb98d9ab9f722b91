"""The phones' server's application state, typed: what the handlers (`handlers/`) and the guards
(`middleware.py`) of the one aiohttp application read and change, stored on the application under one
`web.AppKey` (`STATE`, made by `state_key`). It owns no game: the front end's `TableLink` of callables is how it
asks about the table and hands a phone's move to the one owner of the session.

Held here: the server's address (for the Host and Origin checks, the cookie's name), the join code and the
guessing limits, the devices, the move and read limits, the event streams of each device, the view's version and
the last moves, the wake-up every event stream and held request waits on, and the join code's ticker; the changes
the front end makes (a move said, a phone removed, a phone let in or kept out), safe from any thread.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assistant.core.language.device import DeviceOutcome, DeviceRequest
from assistant.core.language.table_view import LastEntry, LastMoves, PhoneView
from assistant.core.words.share import (
    DEVICE_REMOVED,
    NO_DEVICE,
    PHONE_DISPLACED,
    PHONE_KEPT_OUT,
    WAIT_EXPIRED,
    LastMove,
    phone_waits_named,
)
from assistant.share.address import origin_host
from assistant.share.connections import DeviceStreams, Gate
from assistant.share.guards import (
    DEVICE_IN_FLIGHT,
    LINK_IN_FLIGHT,
    OPEN_FOR,
    READ_BURST,
    READ_EVERY,
    Device,
    Devices,
    GuessLimit,
    InFlight,
    JoinCode,
    MoveLimit,
)
from assistant.share.logs import CrashLogHandler

if TYPE_CHECKING:
    from aiohttp import web

__all__ = ["CODE_CHECK_S", "TableLink", "TableState", "gone_why", "state_key", "tell"]

#: Seconds between two looks at the join code's age (a new code is told to the host at the next look).
CODE_CHECK_S = 5.0
_GONE_WORDS = {
    "removed": DEVICE_REMOVED,
    "expired": WAIT_EXPIRED,
    "refused": PHONE_KEPT_OUT,
    "displaced": PHONE_DISPLACED,
    "": NO_DEVICE,
}


@dataclass(frozen=True)
class TableLink:
    """What the server is given by the front end: it never touches the session itself."""

    players: Callable[[], list[str]]
    """The players of the game in progress ([] with no game)."""
    view: Callable[[str, int, list[LastEntry]], PhoneView]
    """The view of the table for a device's player, at a version, with the last moves said (each with its place in
    the game's log)."""
    cards: Callable[[str], list[dict[str, str]]]
    """The cards a search names: id, name, type, label."""
    submit: Callable[[str, DeviceRequest], Awaitable[DeviceOutcome]]
    """Carry out a device's move or answer as its player, or say that it joined, on the session's owner; what
    became of it."""
    all_cards: Callable[[], list[dict[str, str]]] = list
    """Every card of the game's decks, as `cards` lists them (a phone searches them itself during a drop)."""


@dataclass(eq=False)
class TableState:
    """The state of one shared table's server, as its application's handlers and guards read it."""

    link: TableLink
    host: str
    """The address listened on (checked by `address.check_address` before it is given)."""
    port: int = 0
    """The port listened on (0 until the server binds, when it is asked to choose)."""
    clock: Callable[[], float] = time.monotonic
    on_code: Callable[[str], None] | None = None
    """Told each new join code made because the last grew old (the app shows it)."""
    on_guessing: Callable[[str, bool], None] | None = None
    """Told the new join code made because someone was guessing the last, and whether this is the first time of this
    guessing (the host is told why, once)."""
    on_joining: Callable[[int], None] | None = None
    """Told each time joining closes to every phone (the table-wide cap), for how many whole minutes, and each time
    it opens again (0): the host always knows whether a phone can join with the code now."""
    on_notice: Callable[[str], None] | None = None
    """Told a sentence for the host: once per device, a phone let in refused for holding too many event streams
    (naming the phone)."""
    crash_log: Callable[[BaseException], object] | None = None
    code: JoinCode = field(init=False)
    guesses: GuessLimit = field(init=False)
    link_guesses: GuessLimit = field(init=False)
    """Wrong QR tokens, per address only: guessing a token is hopeless, and its guessers never close it to the
    phones that scanned it, even while the join code is closed to every address (the table-wide cap)."""
    moves: MoveLimit = field(init=False)
    reads: MoveLimit = field(init=False)
    """A player's card reads: never counted as moves (they change nothing), with their own, looser limit."""
    devices: Devices = field(init=False)
    device_flight: InFlight = field(default_factory=lambda: InFlight(DEVICE_IN_FLIGHT))
    """Each device's requests in flight (by its token), its event streams apart."""
    link_flight: InFlight = field(default_factory=lambda: InFlight(LINK_IN_FLIGHT))
    """Join requests in flight carrying the QR code's token (by the token)."""
    streams: DeviceStreams = field(init=False)
    logs: CrashLogHandler = field(init=False)
    """asyncio's and aiohttp's records, to the crash log and never to the terminal, while the server runs."""
    gate: Gate | None = None
    """The connections' gate, once the server is bound (none while a test serves the application)."""
    version: int = 0
    last: LastMoves = field(default_factory=LastMoves)
    wake: asyncio.Event | None = None
    """Set (and made anew) at each change: every event stream and held request waits on it; None once the
    application shuts down."""
    loop: asyncio.AbstractEventLoop | None = None
    ticker: asyncio.Task[None] | None = None
    shown_code: str = ""
    """The join code the host was last shown."""
    closed_told: bool = False
    """The host was last told that joining is closed to every phone (and not yet that it opened again)."""
    holding: set[str] = field(default_factory=set)
    """The phones that wait to be let in and hold a request open now (one each at most)."""

    def __post_init__(self) -> None:
        self.code = JoinCode(self.clock)
        self.guesses = GuessLimit(self.clock)
        self.link_guesses = GuessLimit.per_address(self.clock)
        self.moves = MoveLimit(self.clock)
        self.reads = MoveLimit(self.clock, READ_BURST, READ_EVERY)
        self.devices = Devices(self.clock)
        self.streams = DeviceStreams(self.clock)
        self.logs = CrashLogHandler(self.crash_log, self.clock)

    # The address and the code.

    @property
    def cookie(self) -> str:
        """The device cookie's name, carrying the port: a browser sends cookies to every port of an address, so
        two tables (or another server) on one computer never read or overwrite each other's."""
        return f"ta_device_{self.port}"

    def hosts(self) -> set[str]:
        """The Host headers of this server: its address and port (and `localhost` on loopback; the address alone
        on port 80, which browsers leave out)."""
        hosts = {origin_host(self.host, self.port)}
        if self.host in ("127.0.0.1", "::1"):
            hosts.add(f"localhost:{self.port}")
        if self.port == 80:
            hosts |= {h.rsplit(":", 1)[0] for h in hosts}
        return hosts

    def current_code(self) -> str:
        """The join code in force (a new one when the last grew old)."""
        code = self.code.current()
        self.shown_code = self.shown_code or code
        return code

    async def tick(self) -> None:
        """Renew the join code when it grows old, and tell the host the new one; take off the phones that waited
        too long."""
        while True:
            await asyncio.sleep(CODE_CHECK_S)
            self.expire()
            self.look_closed()
            code = self.code.current()
            if code != self.shown_code:
                self.shown_code = code
                tell(self.on_code, code)

    def guessed(self, first: bool) -> None:
        """Too many wrong codes in all: a new code (the QR code's token kept), and the host is told why (the
        `first` time of this guessing: once, however long it goes on); and, once in this guessing, when the code is
        now closed to every address, for how long (the QR code still lets a phone ask)."""
        code = self.shown_code = self.code.renew(link=False)
        tell(self.on_guessing, code, first)
        self.look_closed()

    def look_closed(self) -> None:
        """Tell the host when joining has closed to every phone since she was last told (for how many minutes), or
        opened again (at the closure's end, or the end of her opening when a closure is still in force: closed)."""
        closed = self.guesses.closed_to_all()
        if bool(closed) != self.closed_told:
            self.closed_told = bool(closed)
            tell(self.on_joining, math.ceil(closed / 60))

    def open_joining(self) -> None:
        """The host opens joining (`GuessLimit.open`, for `OPEN_FOR` seconds): her answer says so, and she is told
        when it closes again."""
        self.guesses.open(OPEN_FOR)
        self.closed_told = False

    # Changes, for the event streams.

    def changed(self, lines: tuple[LastMove, ...] = (), fresh: bool = False) -> None:
        """The table changed (a move, an undo, a new game): every stream gets the new view. `lines`, what was said
        of it (each with its place in the game's log, who moved, and its words on that player's phone), are kept as
        the last moves; an undo's or a redo's take the place of those kept at the places it took back or put back.
        `fresh`: another game (its places begin again), whose moves only are kept. Safe from any thread."""
        self.soon(self.bump, tuple(lines), fresh)

    def soon(self, act: Callable[..., None], *args: Any) -> None:
        """Do `act` on the server's loop: now when called there, else as soon as the loop can."""
        loop = self.loop
        if loop is None:
            return
        if loop.is_running() and _other_thread(loop):
            loop.call_soon_threadsafe(act, *args)
        else:
            act(*args)

    def bump(self, lines: tuple[LastMove, ...] = (), fresh: bool = False) -> None:
        """A new version of the view (with what was said of it): every stream and held request wakes."""
        self.version += 1
        self.last.keep(lines, fresh)
        players = self.link.players()
        if players:
            self.devices.keep(players)  # a new game keeps the devices of its players only
        if self.wake is not None:
            self.wake.set()
            self.wake = asyncio.Event()

    def expire(self) -> None:
        """Take off the phones that waited too long to be let in (told at their next request)."""
        if self.devices.expire():
            self.bump()

    def remove(self, player: str, number: int | None = None) -> int:
        """Take a player's devices (or only their phone `number`) off the table (their streams end) and renew the
        join code, so that the phones taken off cannot join again with the code they had; how many there were."""
        count = self.devices.remove(player, number)
        if count:
            self.shown_code = self.code.renew()
            self.bump()
        return count

    def decide(self, token: str, allow: bool) -> bool:
        """Let a phone that waits to join in, or keep it out; False when it no longer waits. Keeping it out renews
        the join code at once (the phone kept out, or whoever sent it, cannot ask again with the code it had). Safe
        from any thread: the change to the devices is made on the server's loop."""
        if not self.waits(token):
            return False
        if not allow:
            self.shown_code = self.code.renew()
        self.soon(self._decided, token, allow)
        return True

    def _decided(self, token: str, allow: bool) -> None:
        if self.devices.decide(token, allow):
            self.bump()

    def waits(self, token: str) -> bool:
        """The phone of this token waits to be let in."""
        device = self.devices.get(token)
        return device is not None and device.waiting

    # What a phone is shown.

    def gone(self, token: str | None) -> str:
        """Why a token is no device's, in words: removed by the host, kept out, or never one."""
        return _GONE_WORDS[gone_why(self.devices, token)]

    def view(self, device: Device) -> PhoneView:
        """The device's view of the table; a phone that waits to be let in sees only that it waits."""
        if device.waiting:
            line = phone_waits_named(device.player, device.tag)  # its short name, which the host hears
            view: PhoneView = {"version": self.version, "you": device.player, "line": line, "game": None}
            return {**view, "waiting": True, "tag": device.tag}
        return self.link.view(device.player, self.version, self.last.of(device.player))


@functools.cache
def state_key() -> web.AppKey[TableState]:
    """The application's key of its `TableState`, made once: when `routes.py` is imported (`ShareServer.app`
    imports it when the application is first built, so that aiohttp is loaded only then). aiohttp's `AppKey` names
    itself after the module being imported when it is made (it looks for a module's frame up the stack), and on the
    plain mode's loop thread no module's frame is there but that import's."""
    from aiohttp import web

    return web.AppKey("table", TableState)


def state_of(request: web.Request) -> TableState:
    """The state of the application a request came to."""
    return request.app[state_key()]


def gone_why(devices: Devices, token: str | None) -> str:
    """Why a token is no device's: "removed" by the host, "expired" waiting, "refused" by the host, "displaced"
    waiting by a newer phone asking for its player (`Devices.make_room`), or "" (never one, or forgotten)."""
    for why, tokens in (
        ("removed", devices.removed),
        ("expired", devices.expired),
        ("refused", devices.refused),
        ("displaced", devices.displaced),
    ):
        if token in tokens:
            return why
    return ""


def tell(callback: Callable[..., None] | None, *args: Any) -> None:
    """Tell the front end something, if it asked to be told (the screen closing under it is no error: the code, for
    one, is still said by `share`)."""
    if callback is not None:
        try:
            callback(*args)
        except Exception:
            logging.getLogger(__name__).debug("the host was not told", exc_info=True)


def _other_thread(loop: asyncio.AbstractEventLoop) -> bool:
    """The caller is not on the loop's own thread."""
    try:
        return asyncio.get_running_loop() is not loop
    except RuntimeError:
        return True
