"""The table's short local name on the network, by multicast DNS ("mDNS", what phones resolve `NAME.local` by):
`http://unicorns.local:PORT/` is easier to say aloud than an address of numbers.

Published with the pure-Python `zeroconf` package, imported here only and only when sharing starts. It answers for
`unicorns.local` (or `unicorns-2.local`, ... when another computer on the network already answers for it) with the
address the table is shared on, on that address's network only, and advertises the page as a web service. The
calls block (the name is first asked for on the network, then announced), so the front end makes them off its loop.
When mDNS cannot start (no `zeroconf`, no multicast on that network, the address not this computer's),
`LocalNameError` says why in words, and the table is shared at its address as before.
"""

from __future__ import annotations

import socket
from typing import Any

__all__ = ["NAME", "LocalName", "LocalNameError"]

#: The short name, the same on every computer (a computer's own name may be long, or private): the first one free
#: on the network of `NAME`, `NAME-2`, ... `NAME-9`.
NAME = "unicorns"
MOST_NAMES = 9
#: How long a name is asked for on the network before it is taken to be free (ms). A responder delays its answer
#: (RFC 6762 5.4 and 6) and, for a name it announced within the last second, holds it back: with zeroconf 0.154 a
#: table published a moment before was first heard after 0.8 s, and a 400 ms question took its name as free.
ASK_MS = 1500
SERVICE = "_http._tcp.local."


class LocalNameError(Exception):
    """mDNS could not start: the reason, in words."""


class LocalName:
    """The short name of the table shared at `address`:`port`, published on that address's network (`base`: the
    name before ".local", `NAME` unless given)."""

    def __init__(self, address: str, port: int, base: str | None = None) -> None:
        self.address = address
        self.port = port
        self.base = base if base is not None else NAME
        self.name = ""
        """The name published ("unicorns.local"), once it is."""
        self._zeroconf: Any = None

    def publish(self) -> str:
        """Publish the first free name and return it ("unicorns.local"). Blocks for a second or two."""
        try:
            import zeroconf
        except ImportError:
            raise LocalNameError("the zeroconf package is not installed") from None
        family = socket.AF_INET6 if ":" in self.address else socket.AF_INET
        try:
            packed = socket.inet_pton(family, self.address)
            self._zeroconf = zeroconf.Zeroconf(interfaces=[self.address])
            name = self._free_name(zeroconf)
            info = zeroconf.ServiceInfo(
                SERVICE, f"Table Assistant.{SERVICE}", port=self.port, addresses=[packed], server=f"{name}."
            )
            self._zeroconf.register_service(info, allow_name_change=True)
        except LocalNameError:
            self.close()
            raise
        except Exception as exc:  # (OSError, zeroconf.Error, or any other: the table stays shared at its address)
            self.close()
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
            raise LocalNameError(reason.rstrip(".")) from None
        self.name = name
        return name

    def _free_name(self, zeroconf: Any) -> str:
        """The first of `NAME.local`, `NAME-2.local`, ... that nothing on the network answers for."""
        for number in range(1, MOST_NAMES + 1):
            name = f"{self.base}.local" if number == 1 else f"{self.base}-{number}.local"
            if not zeroconf.AddressResolver(f"{name}.").request(self._zeroconf, ASK_MS):
                return name
        raise LocalNameError(f"{self.base}.local to {self.base}-{MOST_NAMES}.local are all taken")

    def close(self) -> None:
        """Take the name off the network (its goodbye is sent); safe to call twice."""
        published, self._zeroconf = self._zeroconf, None
        if published is not None:
            published.close()  # (unregisters every service first)
