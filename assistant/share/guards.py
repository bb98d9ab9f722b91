"""What keeps strangers off the shared table: the join code, the limit on guessing it, the devices and their
tokens, and the answers kept for retried moves. All on an injected clock, so tests never wait.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CODE_LIFETIME", "Device", "Devices", "GuessLimit", "JoinCode", "Remembered"]

Clock = Callable[[], float]

#: How long a join code lasts, in seconds; then a new one is made.
CODE_LIFETIME = 600.0
#: Wrong codes one address may send in `GUESS_WINDOW` seconds before it must wait.
MOST_WRONG, GUESS_WINDOW = 5, 60.0
#: The most devices joined at once, and the most addresses whose wrong guesses are remembered.
MOST_DEVICES, MOST_ADDRESSES = 64, 4096
#: How many answers to past moves each device keeps, for retries.
KEPT_ANSWERS = 256


def new_code() -> str:
    """Six random digits."""
    return f"{secrets.randbelow(10**6):06d}"


@dataclass
class JoinCode:
    """The join code: six digits, renewed when `lifetime` seconds old (or when the host asks)."""

    clock: Clock
    lifetime: float = CODE_LIFETIME
    make: Callable[[], str] = new_code
    _code: str = ""
    _made: float = 0.0

    def current(self) -> str:
        """The code in force now (a new one when the last is too old)."""
        now = self.clock()
        if not self._code or now - self._made >= self.lifetime:
            self.renew()
        return self._code

    def renew(self) -> str:
        """Make a new code now; the old one stops working."""
        self._code, self._made = self.make(), self.clock()
        return self._code

    def matches(self, code: object) -> bool:
        """The code given is the one in force (compared in constant time)."""
        return isinstance(code, str) and secrets.compare_digest(code.strip().encode(), self.current().encode())


@dataclass
class GuessLimit:
    """Wrong join codes per address: `most` in `window` seconds, then the address waits."""

    clock: Clock
    most: int = MOST_WRONG
    window: float = GUESS_WINDOW
    _wrong: dict[str, deque[float]] = field(default_factory=dict)

    def wait(self, address: str) -> int:
        """Whole seconds the address must wait before its next guess (0: it may guess now)."""
        times = self._recent(address)
        if len(times) < self.most:
            return 0
        return max(1, int(times[0] + self.window - self.clock() + 0.999))

    def wrong(self, address: str) -> None:
        """Count a wrong code from the address."""
        if address not in self._wrong and len(self._wrong) >= MOST_ADDRESSES:
            self._forget_old()
        self._recent(address).append(self.clock())

    def _recent(self, address: str) -> deque[float]:
        times = self._wrong.setdefault(address, deque(maxlen=self.most))
        now = self.clock()
        while times and now - times[0] >= self.window:
            times.popleft()
        return times

    def _forget_old(self) -> None:
        now = self.clock()
        for address in [a for a, t in self._wrong.items() if not t or now - t[-1] >= self.window]:
            del self._wrong[address]
        while len(self._wrong) >= MOST_ADDRESSES:  # still full: the oldest address goes
            del self._wrong[next(iter(self._wrong))]


@dataclass
class Device:
    """A joined phone: its secret token (the cookie), the player it records for, its CSRF token."""

    token: str
    player: str
    csrf: str
    answers: Remembered = field(default_factory=lambda: Remembered())


@dataclass
class Devices:
    """The devices joined, by token."""

    by_token: dict[str, Device] = field(default_factory=dict)
    removed: deque[str] = field(default_factory=lambda: deque(maxlen=MOST_DEVICES))
    """Tokens the host removed (their phones are told so)."""

    def join(self, player: str) -> Device:
        """A new device for the player, with a new token; the oldest device goes when there are too many."""
        if len(self.by_token) >= MOST_DEVICES:
            self._drop(next(iter(self.by_token)))
        device = Device(secrets.token_urlsafe(32), player, secrets.token_urlsafe(24))
        self.by_token[device.token] = device
        return device

    def get(self, token: str | None) -> Device | None:
        """The device with this token, or None."""
        return self.by_token.get(token) if token else None

    def players(self) -> list[str]:
        """The player of each device, in the order they joined."""
        return [device.player for device in self.by_token.values()]

    def remove(self, player: str) -> int:
        """Forget every device of the player; how many there were."""
        tokens = [t for t, d in self.by_token.items() if d.player.casefold() == player.casefold()]
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
    """The answers to a device's past requests, by idempotency key: a retry gets the first answer again."""

    answers: OrderedDict[str, Any] = field(default_factory=OrderedDict)

    def get(self, key: str) -> Any:
        """The answer (or the future of an answer being made) kept for the key, or None."""
        return self.answers.get(key)

    def keep(self, key: str, answer: Any) -> None:
        """Keep an answer (the oldest is forgotten beyond `KEPT_ANSWERS`)."""
        self.answers[key] = answer
        self.answers.move_to_end(key)
        while len(self.answers) > KEPT_ANSWERS:
            self.answers.popitem(last=False)

    def forget(self, key: str) -> None:
        """Forget the key's answer: the move was not carried out, so a retry is a new try, not that failure."""
        self.answers.pop(key, None)
