"""The table's short local name (`http://unicorns.local:PORT/`) by multicast DNS, for real: published with zeroconf on
this machine and resolved by another process with zeroconf's own querying; and when mDNS cannot start, said once,
the table shared at its address as before.

Published on loopback (127.0.0.1), the one network every machine running the tests has; the app itself publishes
the name only on the local network it shares on (`TableShare.local_name`), never on loopback, which no phone
reaches. Each test publishes a name of its own (`unicorns-t` and a few letters): tests running at once on this
machine, each a table, would otherwise take `unicorns`, `unicorns-2`, ... in whatever order they came."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("zeroconf", reason="zeroconf is a dependency: scripts/setup.sh installs it")

from test_share_server import PATIENCE, run

from assistant.core.words.share import also_at, no_local_name, sharing_at
from assistant.share import local_name
from assistant.share.local_name import NAME, LocalName, LocalNameError
from assistant.ui.share_link import TableShare


@pytest.fixture
def base(monkeypatch: pytest.MonkeyPatch) -> str:
    """This test's own short name (the table's own, `unicorns`, is checked without publishing it)."""
    own = f"{NAME}-t{secrets.token_hex(3)}"
    monkeypatch.setattr(local_name, "NAME", own)
    return own


def test_the_tables_short_name_is_unicorns():
    assert LocalName("127.0.0.1", 8123).base == "unicorns"


def resolve(name: str, address: str = "127.0.0.1") -> list[str]:
    """The addresses another process finds for `name` on `address`'s network, asking by mDNS with zeroconf's own
    resolver (a real query, answered by the publishing process's responder)."""
    program = (
        "import sys, zeroconf\n"
        f"found = zeroconf.Zeroconf(interfaces=[{address!r}])\n"
        f"resolver = zeroconf.AddressResolver({name + '.'!r})\n"
        "resolver.request(found, 3000)\n"
        "print(' '.join(resolver.parsed_addresses()))\n"
        "found.close()\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_short_name_is_published_and_another_program_resolves_it_to_the_tables_address(base):
    name = LocalName("127.0.0.1", 8123)
    try:
        published = name.publish()
        assert published == f"{base}.local", published
        assert resolve(published) == ["127.0.0.1"]
    finally:
        name.close()


def test_a_second_table_on_the_same_network_gets_a_name_of_its_own(base):
    first, second = LocalName("127.0.0.1", 8123), LocalName("127.0.0.1", 8124)
    try:
        one, other = first.publish(), second.publish()
        assert (one, other) == (f"{base}.local", f"{base}-2.local")
        assert resolve(other) == ["127.0.0.1"]
    finally:
        first.close()
        second.close()


def test_mdns_that_cannot_start_says_why():
    """An address this machine does not have: no network to publish on (the reason is the system's own)."""
    with pytest.raises(LocalNameError, match="No such device"):
        LocalName("203.0.113.7", 8123).publish()


def test_mdns_without_zeroconf_says_why(monkeypatch):
    monkeypatch.setitem(sys.modules, "zeroconf", None)  # (an import of it fails, as where it is not installed)
    with pytest.raises(LocalNameError, match="the zeroconf package is not installed"):
        LocalName("127.0.0.1", 8123).publish()


async def _shared(told: list[Any], local_name: bool) -> TableShare:
    from assistant.session import Session
    from assistant.storage.decks import load_card_set

    async def submit(player: str, request: Any) -> Any:
        raise AssertionError("no move here")

    share = TableShare(Session(load_card_set()), submit, tell=told.append, local_name=local_name)
    await share.start("127.0.0.1:0")
    return share


async def _told(told: list[Any]) -> Any:
    for _ in range(PATIENCE * 10):  # (published off the loop, by zeroconf's own thread: waited for, never slept on)
        if told:
            return told[0]
        await asyncio.sleep(0.1)
    raise AssertionError("nothing was said of the short name")


def test_sharing_says_and_shows_the_short_name_and_takes_it_off_when_sharing_stops(base):
    async def scenario() -> None:
        told: list[Any] = []
        share = await _shared(told, local_name=True)
        port = share.server.port
        said = await _told(told)
        named = share.named
        assert named == f"http://{base}.local:{port}/", named
        assert said.lines == (also_at(named),)
        code = share.server.current_code()
        assert share.said().lines == (sharing_at(share.server.address, code, named),)
        host = named.removeprefix("http://").split(":")[0]
        assert await asyncio.to_thread(resolve, host) == ["127.0.0.1"]
        await share.stop()
        assert await asyncio.to_thread(resolve, host) == []  # its goodbye sent: no longer answered

    run(scenario())


def test_when_mdns_cannot_start_the_host_is_told_once_and_the_address_serves(monkeypatch):
    monkeypatch.setitem(sys.modules, "zeroconf", None)

    async def scenario() -> None:
        told: list[Any] = []
        share = await _shared(told, local_name=True)
        try:
            said = await _told(told)
            assert said.lines == (no_local_name("the zeroconf package is not installed"),)
            assert share.said().lines == (sharing_at(share.server.address, share.server.current_code()),)
            again = await share.control("")  # `share` again: the address and the code, nothing more said of mDNS
            assert again.lines == share.said().lines and len(told) == 1
        finally:
            await share.stop()

    run(scenario())


def test_a_table_shared_on_loopback_only_publishes_no_name():
    async def scenario() -> None:
        told: list[Any] = []
        share = await _shared(told, local_name=None)  # (as the app does: None, decided by the address)
        try:
            assert share.publishing is None and share.named == ""
        finally:
            await share.stop()

    run(scenario())


def test_sharing_stopped_while_the_name_is_being_published_takes_it_off_too(base):
    """`share off` at once after `share`: it waits for the name being published, which is then taken off (nothing
    answers for a table no longer shared)."""

    async def scenario() -> None:
        told: list[Any] = []
        share = await _shared(told, local_name=True)
        assert share.publishing is not None and not share.publishing.done()
        await share.stop()
        assert share.named == "" and told == []  # (nothing said of a name no longer shared)
        assert await asyncio.to_thread(resolve, f"{base}.local") == []

    run(scenario())
