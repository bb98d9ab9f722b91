"""Where the sharing server may listen: this computer's local-network address by default, never a public one.

An address is fine when it is private (10/8, 172.16/12, 192.168/16, fc00::/7), loopback or link-local; a public
address, or an address that is not an address at all, is refused with the reason. The default address is found
without sending anything: a UDP socket "connected" to a private address only asks the system which of its own
addresses it would use, and the host's name lists the others.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

from assistant.core.words.share import (
    NO_LOCAL_ADDRESS,
    SHARE_ADDRESS_FORM,
    cannot_listen,
    every_address,
    not_own_address,
    public_address,
)

__all__ = [
    "AddressError",
    "check_address",
    "choose_address",
    "listening_socket",
    "local_candidates",
    "origin_host",
    "parse_listen",
    "peer_key",
]

#: What `--share` alone listens on: the local-network address, with a free port.
DEFAULT_PORT = 0


class AddressError(ValueError):
    """The server cannot listen there: the message says why, ready to be said."""


def check_address(host: str) -> str:
    """The address, normalised, when the server may listen on it; `AddressError` when it is public or not an
    address (a name is not taken: a name could point anywhere). An IPv4 address written as IPv6 (`::ffff:a.b.c.d`)
    is judged, and listened on, as the IPv4 address it is: `::ffff:0.0.0.0` would be every IPv4 address."""
    try:
        address = _unmapped(ipaddress.ip_address(host.strip("[]")))
    except ValueError:
        raise AddressError(SHARE_ADDRESS_FORM) from None
    if address.is_unspecified:  # (`[::ffff:0.0.0.0]` too: every IPv4 address)
        raise AddressError(every_address(host if host.startswith("[") or ":" not in host else f"[{host}]"))
    if address.is_multicast:
        raise AddressError(not_own_address(str(address)))
    if not (address.is_private or address.is_loopback or address.is_link_local):
        raise AddressError(public_address(str(address)))
    return str(address)


def _unmapped(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """An IPv4-mapped IPv6 address as its IPv4 address; any other as it is."""
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped if mapped is not None else address


def peer_key(host: str) -> str:
    """Who a connection or a guess is counted against: the single address, IPv4 (also written as IPv6) or IPv6 alike.
    Not an IPv6 /64: every device of a home network shares its /64, so one neighbour's wrong codes would lock every
    phone out. One device may take many addresses of its /64; the table-wide limits (`GuessLimit`'s closure for every
    address, the code's renewal, the gate's connections in all) bound what it gains by that."""
    try:
        address = _unmapped(ipaddress.ip_address(host.split("%")[0]))
    except ValueError:
        return host
    return str(address)


def parse_listen(text: str | None) -> tuple[str | None, int]:
    """`ADDRESS:PORT`, `ADDRESS`, `:PORT`, `[::1]:PORT` or nothing, as (address or None for the default, port; 0 is a
    free port). `AddressError` when it cannot be read or the address may not be listened on."""
    text = (text or "").strip()
    if not text:
        return None, DEFAULT_PORT
    host, port_text = text, ""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    port = DEFAULT_PORT
    if port_text:
        if not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5) or int(port_text) > 65535:
            raise AddressError(SHARE_ADDRESS_FORM)
        port = int(port_text)
    return (check_address(host) if host else None), port


def local_candidates() -> list[str]:
    """This computer's own addresses that a phone might reach, best first: the one the system routes to a private
    network by, then those its name lists. Nothing is sent."""
    found: list[str] = []
    for family, probe in ((socket.AF_INET, "10.255.255.255"), (socket.AF_INET6, "fd00::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))  # a UDP connect sends no packet
                found.append(udp.getsockname()[0])
        except OSError:
            continue
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return list(dict.fromkeys(a.split("%")[0] for a in found))


def choose_address(candidates: Iterable[str]) -> str:
    """The address to listen on by default: the first private one (a home or office network), else a link-local
    one; `AddressError` when the only addresses are public (the reason names one) or there is none but loopback."""
    public = None
    link_local = None
    for text in candidates:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if address.is_loopback or address.is_unspecified:
            continue
        if address.is_link_local:
            link_local = link_local or str(address)
        elif address.is_private:
            return str(address)
        else:
            public = public or str(address)
    if link_local is not None:
        return link_local
    if public is not None:
        raise AddressError(public_address(public))
    raise AddressError(NO_LOCAL_ADDRESS)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to `host` and `port` (0: a free one) and listening, ready for the loop; `AddressError` with the
    reason, never `OSError`, when the address cannot be used (taken, or not this computer's)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(32)
        sock.setblocking(False)
    except OSError as exc:
        sock.close()
        raise AddressError(cannot_listen(origin_host(host, port), exc.strerror or str(exc))) from None
    return sock


def origin_host(host: str, port: int) -> str:
    """`host:port` as a browser writes it in a URL, an Origin or a Host header (IPv6 in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
