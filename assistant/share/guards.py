"""What keeps strangers off the shared table: the join code, the limits on guessing it (per address and for the whole
table), the devices and their tokens, the limit on a player's moves (all their phones together), and the answers kept
for retried moves. All on an injected clock, so tests never wait.
"""

from __future__ import annotations

import math
import secrets
import sys
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assistant.core.words.share import TAG_COLOURS, TAG_DIGITS, phone_tag

__all__ = [
    "CODE_LIFETIME",
    "DEVICE_IN_FLIGHT",
    "LINK_IN_FLIGHT",
    "MOST_PHONES",
    "MOST_WAITING",
    "Device",
    "Devices",
    "GuessLimit",
    "InFlight",
    "JoinCode",
    "MoveLimit",
    "Remembered",
]

Clock = Callable[[], float]

#: How long a join code lasts, in seconds; then a new one is made.
CODE_LIFETIME = 600.0
#: Wrong codes one address may send in `GUESS_WINDOW` seconds before it must wait.
MOST_WRONG, GUESS_WINDOW = 5, 60.0
#: Wrong codes from every address together in a code's lifetime: then the code is renewed and no code is taken
#: from an address that guessed wrong for a while (`GUESS_WINDOW` the first time, twice as long each time after, at
#: most `LONGEST_CLOSURE`); an address that has not guessed wrong is still heard (its right code joins), until
#: `MOST_WRONG_IN_ALL` more wrong codes come while joining is closed: then it is closed for every address, to the
#: closure's end (many addresses, as one IPv6 device may take, gain no more guesses).
MOST_WRONG_IN_ALL, LONGEST_CLOSURE = 20, 16 * GUESS_WINDOW
#: Seconds without a wrong code, once guessing has reopened, after which the next closure is the shortest again.
QUIET = CODE_LIFETIME
#: Seconds the host's opening lasts (`share allow NAME` while no phone of NAME waits): meanwhile no closure keeps a
#: right code out and no wrong code renews it, so the phone she lets in joins with the code she gave.
OPEN_FOR = 120.0  # (`words.share.OPEN_MINUTES`, said to her, is this in minutes: a test checks they agree)
#: The most phones one player may have on the table (let in or waiting). A phone waiting holds no place against a
#: newer one: when the player's places are all taken and some of them wait, the oldest waiting one makes room
#: (`Devices.make_room`), so a code holder asking first as a player never keeps that player's real phone out.
MOST_PHONES = 3
#: The most phones waiting to be let in at once, on the whole table (the oldest waiting one makes room for a newer):
#: about one a player of the largest table, so a holder asking as every player from many addresses floods nothing.
MOST_WAITING = 8
#: The most devices joined at once (then a join is refused: none is ever dropped to make room), and the most
#: addresses whose wrong guesses are remembered.
MOST_DEVICES, MOST_ADDRESSES = 64, 4096
#: The QR code's join token: random bytes, and the most characters read of a token sent (longer is wrong at once).
LINK_BYTES, LINK_MOST = 16, 64
#: Seconds a phone may wait to be let in: then it is taken off (and told so), and may ask again.
WAIT_LIMIT = 300.0
#: A player's moves (all their phones together): `MOVE_BURST` at once, then one every `MOVE_EVERY` seconds.
MOVE_BURST, MOVE_EVERY = 10, 1.0
#: A player's card reads (looking at a card's text changes nothing, so they never count as moves): their own, looser
#: limit, `READ_BURST` at once, then one every `READ_EVERY` seconds.
READ_BURST, READ_EVERY = 30, 0.25
#: Requests one device may have in flight at once, counted from their headers (its event streams apart: they have
#: their own bound, `connections.STREAMS_PER_DEVICE`). A phone's page sends one move at a time, with its state, a
#: card search and a retry beside it; more is a phone holding requests open without their bodies.
DEVICE_IN_FLIGHT = 6
#: Join requests carrying the QR code's token in flight at once, from every address together (a table's players
#: scan it a few at a time; more is someone with a photo of it holding requests open without their bodies).
LINK_IN_FLIGHT = 16
#: How long the answer to a move is kept for its retries, in seconds; and the most kept by one device (more than
#: the move limit lets it make in that time, so the time decides).
KEPT_FOR, KEPT_MOST = 3600.0, 4096


def new_code() -> str:
    """Six random digits."""
    return f"{secrets.randbelow(10**6):06d}"


def new_link() -> str:
    """The QR code's join token: 16 random bytes (128 bits), 22 characters of URL-safe base64."""
    return secrets.token_urlsafe(LINK_BYTES)


@dataclass
class JoinCode:
    """The join code: six digits, renewed when `lifetime` seconds old (or when the host asks); and beside it the QR
    code's join token (`link`), too long to guess, renewed with it except when the code is renewed because someone
    was guessing it (`renew(link=False)`: nobody guessed the token, and a phone that has just scanned it joins)."""

    clock: Clock
    lifetime: float = CODE_LIFETIME
    make: Callable[[], str] = new_code
    _code: str = ""
    _made: float = 0.0
    _link: str = ""

    def current(self) -> str:
        """The code in force now (a new one when the last is too old)."""
        now = self.clock()
        if not self._code or now - self._made >= self.lifetime:
            self.renew()
        return self._code

    def renew(self, link: bool = True) -> str:
        """Make a new code now (and a new QR token, unless `link` is False); the old one stops working."""
        self._code, self._made = self.make(), self.clock()
        if link or not self._link:
            self._link = new_link()
        return self._code

    def matches(self, code: object) -> bool:
        """The code given is the one in force (compared in constant time)."""
        return isinstance(code, str) and secrets.compare_digest(code.strip().encode(), self.current().encode())

    def link(self) -> str:
        """The QR code's join token in force now (a new one when the code grows old)."""
        self.current()
        return self._link

    def matches_link(self, token: object) -> bool:
        """The token given is the QR code's in force (no longer than `LINK_MOST` characters; compared in constant
        time)."""
        if not isinstance(token, str) or len(token) > LINK_MOST:
            return False
        return secrets.compare_digest(token.encode(), self.link().encode())


@dataclass
class GuessLimit:
    """Guesses of the join code: `most` wrong ones per address in `window` seconds, then that address waits; and
    `most_in_all` from every address together in `window_in_all` seconds, then guessing closes for every address
    that guessed wrong in that time (not for one that did not: a real phone's right code still joins) and the code
    must be renewed. When as many more wrong codes come while it is closed (from addresses that had not guessed, as
    one device on IPv6 may take many), it is closed for every address until the closure ends: the table-wide cap. The
    closures grow longer while the guessing goes on, and are the shortest again after `quiet` seconds without a
    wrong code.

    A guess is counted when it is taken, before its code is read (`take`), and given back only when its code
    proves right (`right`): guesses sent together, or whose bodies come late, are all counted."""

    clock: Clock
    most: int = MOST_WRONG
    window: float = GUESS_WINDOW
    most_in_all: int = MOST_WRONG_IN_ALL
    window_in_all: float = CODE_LIFETIME
    quiet: float = QUIET
    _wrong: dict[str, deque[float]] = field(default_factory=dict)
    _guessed: dict[str, float] = field(default_factory=dict)
    """The addresses that guessed wrong, with the time of their last wrong code (kept `window_in_all` seconds)."""
    _all: deque[float] = field(default_factory=deque)
    _closed_until: float = 0.0
    _closed_for_all: bool = False
    _closures: int = 0
    _last_wrong: float = -math.inf
    _opened_until: float = -math.inf
    """The end of the host's opening (`open`)."""

    @classmethod
    def per_address(cls, clock: Clock) -> GuessLimit:
        """The per-address limit alone, with no table-wide closure: for the QR code's token, which nobody can guess
        (2**128 tokens), so that guessing it from many addresses never closes it to a phone that scanned it."""
        return cls(clock, most_in_all=sys.maxsize, window_in_all=GUESS_WINDOW)  # (a minute's guesses kept, no more)

    def open(self, seconds: float = OPEN_FOR) -> None:
        """The host opens joining for `seconds` from now: no closure refuses an address meanwhile (the limit per
        address still does), and no wrong code asks for a new code (`wrong` gives 0: the code she gave is kept); the
        closures still in force, those the guessing made meanwhile too, apply when the opening ends."""
        self._opened_until = self.clock() + seconds

    def is_open(self) -> bool:
        """The host's opening is in force."""
        return self.clock() < self._opened_until

    def closed_to_all(self) -> float:
        """Seconds the code stays closed to every address (the table-wide cap), 0 when it is not (or while the host's
        opening is in force)."""
        now = self.clock()
        closed = self._closed_for_all and now < self._closed_until and not self.is_open()
        return self._closed_until - now if closed else 0.0

    def take(self, address: str) -> int:
        """Count a guess from the address now: 0 when it may guess, else the whole seconds it must wait (and
        nothing is counted)."""
        now = self.clock()
        opened = self.is_open()  # (the host's opening: the limit per address alone)
        closed_to = self._guessed_wrong(address) or (self._closed_for_all and now < self._closed_until)
        waits = [self._closed_until - now if closed_to and not opened else 0.0]
        for times, most, window in (
            (self._recent(address), self.most, self.window),
            (self._in_window(self._all, self.window_in_all), self.most_in_all, self.window_in_all),
        ):
            if len(times) >= most and (times is not self._all or (self._guessed_wrong(address) and not opened)):
                waits.append(times[0] + window - now)
        wait = max(waits)
        if wait > 0:
            return max(1, math.ceil(wait))
        if address not in self._wrong and len(self._wrong) >= MOST_ADDRESSES:
            self._forget_old()
        self._recent(address).append(now)
        self._all.append(now)
        return 0

    def right(self, address: str) -> None:
        """The guess taken from the address was the right code: it is not counted."""
        for times in (self._wrong.get(address), self._all):
            if times:
                times.pop()

    def wrong(self, address: str = "") -> int:
        """The guess taken from the address was wrong (it stays counted). When it made the limit for the whole
        table, guessing is closed from now for the addresses that guessed wrong (each closure twice as long as the
        last, at most `LONGEST_CLOSURE`) and the code must be renewed: which closure this is since the guessing
        began (1: the first, which the host is told of); else 0."""
        now = self.clock()
        if now - max(self._last_wrong, self._closed_until) >= self.quiet:
            self._closures = 0  # a quiet while since the last guessing: a new one starts from the shortest closure
        self._last_wrong = now
        if address:
            self._guessed[address] = now
            if len(self._guessed) > MOST_ADDRESSES:
                self._guessed = {a: t for a, t in self._guessed.items() if now - t < self.window_in_all}
                while len(self._guessed) > MOST_ADDRESSES:
                    del self._guessed[next(iter(self._guessed))]
        if len(self._in_window(self._all, self.window_in_all)) < self.most_in_all:
            return 0
        self._closed_for_all = now < self._closed_until  # closed again before it reopened: closed for everyone
        self._closed_until = now + min(self.window * 2**self._closures, LONGEST_CLOSURE)
        self._closures += 1
        self._all.clear()
        return 0 if self.is_open() else self._closures  # (under the host's opening, the code she gave is kept)

    def _guessed_wrong(self, address: str) -> bool:
        """The address sent a wrong code in the last `window_in_all` seconds."""
        last = self._guessed.get(address)
        return last is not None and self.clock() - last < self.window_in_all

    def _recent(self, address: str) -> deque[float]:
        return self._in_window(self._wrong.setdefault(address, deque(maxlen=self.most)), self.window)

    def _in_window(self, times: deque[float], window: float) -> deque[float]:
        now = self.clock()
        while times and now - times[0] >= window:
            times.popleft()
        return times

    def _forget_old(self) -> None:
        now = self.clock()
        for address in [a for a, t in self._wrong.items() if not t or now - t[-1] >= self.window]:
            del self._wrong[address]
        while len(self._wrong) >= MOST_ADDRESSES:  # still full: the oldest address goes
            del self._wrong[next(iter(self._wrong))]


@dataclass
class InFlight:
    """Requests in flight at once for each key (a device's token, the QR code's join token), at most `most`: counted
    from a request's headers, before its body is awaited, and given back when it is answered."""

    most: int
    _count: Counter[str] = field(default_factory=Counter)

    def enter(self, key: str) -> bool:
        """Count a request of the key now; False (and nothing counted) when it already has `most` in flight."""
        if self._count[key] >= self.most:
            return False
        self._count[key] += 1
        return True

    def leave(self, key: str) -> None:
        """A request of the key was answered (or its connection lost)."""
        self._count[key] -= 1
        if self._count[key] <= 0:
            del self._count[key]

    def count(self, key: str) -> int:
        """How many requests of the key are in flight now."""
        return self._count[key]


@dataclass
class MoveLimit:
    """Moves per player (all of a player's phones together, so more phones make no more moves): `burst` at once,
    then one every `every` seconds (a leaky bucket, kept as the time the player's bucket is empty again)."""

    clock: Clock
    burst: int = MOVE_BURST
    every: float = MOVE_EVERY
    _empty_at: dict[str, float] = field(default_factory=dict)

    def take(self, device: str) -> int:
        """Count a move of the device's player (`device` names the player) now: 0 when it may move, else the whole
        seconds until it may (nothing counted)."""
        now = self.clock()
        empty_at = max(self._empty_at.get(device, now), now)
        wait = empty_at + self.every - self.burst * self.every - now
        if wait > 0:
            return max(1, math.ceil(wait))
        if len(self._empty_at) >= 4 * MOST_DEVICES:  # a device whose bucket is empty is as if never seen
            self._empty_at = {d: t for d, t in self._empty_at.items() if t > now}
        self._empty_at[device] = empty_at + self.every
        return 0


@dataclass
class Device:
    """A joined phone: its secret token (the cookie), the player it records for, its CSRF token, which of the
    player's phones it is, and whether it waits to be let in (every phone does, until the host answers)."""

    token: str
    player: str
    csrf: str
    answers: Remembered
    number: int = 1
    waiting: bool = True
    since: float = 0.0
    """When it asked to join."""
    tag: str = ""
    """Its short name ("blue 7"), shown on its screen while it waits and said in the host's question, listed by
    `share devices` and taken by `share remove`: unique among the devices on the table."""
    address: str = ""
    """The address it asked to join from (`address.peer_key`): a phone waiting makes room first for a newer one
    from its own address (`Devices.make_room`)."""


@dataclass
class Devices:
    """The devices joined, by token."""

    clock: Clock = time.monotonic
    """The time the answers kept for retries are kept by."""
    by_token: dict[str, Device] = field(default_factory=dict)
    removed: deque[str] = field(default_factory=lambda: deque(maxlen=MOST_DEVICES))
    """Tokens the host removed (their phones are told so)."""
    refused: deque[str] = field(default_factory=lambda: deque(maxlen=MOST_DEVICES))
    """Tokens of phones the host did not let in (they are told so)."""
    expired: deque[str] = field(default_factory=lambda: deque(maxlen=MOST_DEVICES))
    """Tokens of phones that waited `WAIT_LIMIT` seconds unanswered (they are told so)."""
    displaced: deque[str] = field(default_factory=lambda: deque(maxlen=MOST_DEVICES))
    """Tokens of waiting phones that made room for a newer one (`make_room`; they are told so)."""
    given: deque[str] = field(default_factory=lambda: deque(maxlen=len(TAG_COLOURS) * len(TAG_DIGITS) // 2))
    """The short names given last, newest last: none is given again while another is free, so a name the host heard
    for a phone taken off (removed, refused, expired, displaced) never names the next one that asks."""

    def expire(self) -> int:
        """Take off the phones that have waited `WAIT_LIMIT` seconds to be let in; how many."""
        now = self.clock()
        tokens = [t for t, d in self.by_token.items() if d.waiting and now - d.since >= WAIT_LIMIT]
        for token in tokens:
            del self.by_token[token]
            self.expired.append(token)
        return len(tokens)

    def make_room(self, player: str, address: str = "") -> bool:
        """Room for a new phone asking to join as `player` from `address`, made only by taking off phones that wait
        (never one let in), each told so at its next request (`displaced`): while the player's places
        (`MOST_PHONES`) are all taken, the oldest of the player's waiting phones; while `MOST_WAITING` phones wait,
        the oldest waiting on the table. Of those, one from the new phone's own address goes first (a phone that
        asks again, or one device asking many times: it turns over its own places, never another's). False: the
        player's places are all taken by phones let in (`MOST_PHONES`)."""
        while self.count(player) >= MOST_PHONES:
            if not self._displace(player, address):
                return False
        while sum(d.waiting for d in self.by_token.values()) >= MOST_WAITING:
            self._displace("", address)
        return True

    def _displace(self, player: str, address: str) -> bool:
        """Take off the oldest phone that waits to join as `player` (any player: ""), one from `address` first;
        False when none waits."""
        waiting = [d for d in self.by_token.values() if d.waiting and player in ("", d.player)]
        if not waiting:
            return False
        going = next((d for d in waiting if address and d.address == address), waiting[0])
        del self.by_token[going.token]
        self.displaced.append(going.token)
        return True

    def join(self, player: str, address: str = "") -> Device | None:
        """A new device for the player (asking from `address`), with a new token and the lowest number none of the
        player's phones has; it waits until the host lets it in. None when the table is full."""
        if len(self.by_token) >= MOST_DEVICES:
            return None
        numbers = {d.number for d in self.by_token.values() if d.player == player}
        number = next(n for n in range(1, len(numbers) + 2) if n not in numbers)
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        taken = {d.tag for d in self.by_token.values()}
        free = [tag for c in TAG_COLOURS for n in TAG_DIGITS if (tag := phone_tag(c, n)) not in taken]
        tag, since = secrets.choice([tag for tag in free if tag not in self.given] or free), self.clock()
        self.given.append(tag)
        device = Device(token, player, csrf, Remembered(self.clock), number, since=since, tag=tag, address=address)
        self.by_token[device.token] = device
        return device

    def waiting(self, player: str = "") -> Device | None:
        """The phone that waits to join as the player (any player: the one that has waited longest), if any."""
        return next(
            (d for d in self.by_token.values() if d.waiting and player.casefold() in ("", d.player.casefold())), None
        )

    def count(self, player: str) -> int:
        """How many phones the player has on the table, let in or waiting."""
        return sum(d.player == player for d in self.by_token.values())

    def let_in(self, player: str) -> int:
        """How many phones the host has let in for the player."""
        return sum(d.player == player and not d.waiting for d in self.by_token.values())

    def decide(self, token: str, allow: bool) -> bool:
        """Let a waiting phone in, or keep it out (its token forgotten); False when it no longer waits."""
        device = self.by_token.get(token)
        if device is None or not device.waiting:
            return False
        if allow:
            device.waiting = False
        else:
            del self.by_token[token]
            self.refused.append(token)
        return True

    def get(self, token: str | None) -> Device | None:
        """The device with this token, or None."""
        return self.by_token.get(token) if token else None

    def tagged(self, tag: str) -> Device | None:
        """The device whose short name is `tag` (as typed: any case, any spaces between its words), if any."""
        wanted = " ".join(tag.casefold().split())
        return next((d for d in self.by_token.values() if d.tag == wanted), None)

    def players(self) -> list[str]:
        """The player of each device let in, in the order they joined."""
        return [device.player for device in self.by_token.values() if not device.waiting]

    def remove(self, player: str, number: int | None = None) -> int:
        """Forget every device of the player (or only their phone `number`); how many there were."""
        tokens = [
            t
            for t, d in self.by_token.items()
            if d.player.casefold() == player.casefold() and number in (None, d.number)
        ]
        for token in tokens:
            self._drop(token)
        return len(tokens)

    def keep(self, players: list[str]) -> int:
        """Forget the devices whose player is not among `players` (a new game); how many went."""
        tokens = [t for t, d in self.by_token.items() if d.player not in players]
        for token in tokens:
            self._drop(token)
        return len(tokens)

    def _drop(self, token: str) -> None:
        del self.by_token[token]
        self.removed.append(token)


@dataclass
class Remembered:
    """The answers to a device's past requests, by idempotency key, for `KEPT_FOR` seconds: a retry gets the first
    answer again."""

    clock: Clock
    answers: OrderedDict[str, tuple[float, Any]] = field(default_factory=OrderedDict)

    def get(self, key: str) -> Any:
        """The answer (or the future of an answer being made) kept for the key, or None."""
        self._forget_old()
        kept = self.answers.get(key)
        return kept[1] if kept is not None else None

    def keep(self, key: str, answer: Any) -> None:
        """Keep an answer for `KEPT_FOR` seconds (the oldest is forgotten beyond `KEPT_MOST`)."""
        self.answers[key] = (self.clock(), answer)
        self.answers.move_to_end(key)
        self._forget_old()
        while len(self.answers) > KEPT_MOST:
            self.answers.popitem(last=False)

    def forget(self, key: str) -> None:
        """Forget the answer kept for the key (it was never made: a retry may try again)."""
        self.answers.pop(key, None)

    def _forget_old(self) -> None:
        now = self.clock()
        while self.answers and now - next(iter(self.answers.values()))[0] >= KEPT_FOR:
            self.answers.popitem(last=False)
