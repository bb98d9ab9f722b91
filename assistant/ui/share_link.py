"""The front ends' side of a shared table: the sharing server (`assistant/share/`) on the session, and the `share`
commands (`share`, `share off`, `share devices`, `share remove NAME`).

The server is given callables only. `TableShare` makes them from the session: the players, a device's view, the
card search (each read under `guard`, the lock the plain mode's braille display uses, or nothing in the Textual app,
whose one loop is the session's owner), and `submit`, which the front end gives: the Textual app posts a message and
answers it with the same `show` as a typed line; the plain mode carries it out under its lock. After every reply the
front end calls `after`, so every phone's stream gets the table as it is now. What the host must be told of the
server (someone guessing the join code) is handed to `tell` as a reply, said and shown like any other; the words
of phones' moves that waited (`phone_desk.SPOKEN_EVERY`) are handed to `submit` when due, on a timer `after` sets;
the server's own logs go to the crash log. Once the table is shared on the local network, its short local name
(`http://unicorns.local:PORT/`, `assistant/share/local_name.py`) is published off the loop, then said and shown
beside the address; when it cannot be, that is said once and the address serves alone.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from assistant.core.language.device import DeviceAnswer, DeviceJoined, DeviceOutcome, DeviceRequest, HeldMovesDue
from assistant.core.language.reply import PHONES, Reply, Segment, Verbatim
from assistant.core.language.table_view import LastEntry, PhoneView, phone_view
from assistant.core.text import clean_untrusted
from assistant.core.words.cardtext import type_name
from assistant.core.words.recorded import last_moves, mover_first, recorded_lines
from assistant.core.words.share import (
    CODE_GUESSED,
    CODE_REOPENED,
    NOT_SHARING,
    QR_ONLY_IN_APP,
    REMOVE_WHOSE,
    SHARE_STOPPED,
    TAG_COLOURS,
    LastMove,
    also_at,
    code_closed,
    code_opened,
    code_renewed,
    device_list,
    device_removed,
    no_device_for,
    no_local_name,
    no_phone_named,
    phone_name,
    phone_removed,
    phone_tag,
    private_code,
    share_form,
    sharing_at,
)
from assistant.session import Session

Submit = Callable[[str, DeviceRequest], Awaitable[DeviceOutcome]]

__all__ = ["TableShare", "ThreadedShare", "apply_device", "qr_text"]

_T = TypeVar("_T")


def apply_device(session: Session, player: str, request: DeviceRequest) -> DeviceOutcome:
    """Carry out a device's move or answer, say that it joined, or say the words of its player's phones' moves that
    waited (`HeldMovesDue`), on the session (on its owner: the app's loop, or under the lock)."""
    if isinstance(request, DeviceJoined):
        return session.phone_desk.device_joined(player, request)
    if isinstance(request, DeviceAnswer):
        return session.phone_desk.device_answer(
            player, request.question, request.yes, request.device, request.phones, request.phoned
        )
    if isinstance(request, HeldMovesDue):  # (the words of the player's phones' moves that waited: `after`'s timer)
        return session.phone_desk.say_held(player)
    return session.phone_desk.device_move(player, request)


def _mark(session: Session) -> tuple[int, int, int, int]:
    game = session.game
    if game is None:
        return 0, 0, 0, 0
    return id(game), len(game.log), id(game.log[-1]) if game.log else 0, len(game.undone)


def _last_moves(session: Session, reply: Reply, at: int) -> tuple[LastMove, ...]:
    """What the phones' last moves keep of a reply that changed the game (`words.recorded.last_moves`): what it recorded
    worded by the phones themselves from its values (`words.recorded`), else its lines; `at`: the log's length now."""
    game = session.game
    lines = recorded_lines(game.table, reply.recorded) if game is not None else ()
    mover = mover_first(game.table, reply.recorded) if game is not None else ("", "")
    table = game.table if game is not None else None
    return last_moves(reply.facts, reply.tells, lines or reply.lines, mover, at=at, table=table)


def _waits(session: Session) -> tuple[int, ...]:
    """The phones' moves that wait on the host's answer (on the laptop now, then in line), by identity: the phones are
    told when it changes."""
    devices = session.phone_desk.devices
    return tuple(id(save) for save in (devices.laptop, *devices.host_saves))


#: The `share` forms whose answer is not where the table is shared (`says_where`).
_OTHER_FORMS = frozenset({"off", "devices", "remove", "allow", "refuse", "qr"})


def says_where(argument: str) -> bool:
    """A `share` line (its words after `share`) whose answer says where the table is shared and its join code:
    `share` alone or with an address, not one of its other forms (`off`, `devices`, `remove`, `allow`, `refuse`,
    `qr`)."""
    return argument.strip().partition(" ")[0].lower() not in _OTHER_FORMS


class TableShare:
    """The server on a session, and the `share` commands' answers. Its coroutines run on the server's loop."""

    def __init__(
        self,
        session: Session,
        submit: Submit,
        guard: Callable[[], AbstractContextManager[Any]] = nullcontext,
        on_code: Callable[[str], None] | None = None,
        clock: Callable[[], float] | None = None,
        tell: Callable[[Reply], None] | None = None,
        local_name: bool | None = None,
        qr: bool = True,
    ) -> None:
        self.session = session
        self.qr = qr
        """Whether this front end draws the QR code (the app: F10; plain mode draws none)."""
        self.clock = clock
        """The server's clock (join codes, the guessing limit); None: the monotonic clock."""
        self.submit = submit
        self.guard = guard
        self.on_code = on_code
        """Told each new join code (the app shows it); `tell` says it."""
        self.tell = tell
        """Told what the host must hear of the server, as a reply to show and say."""
        self.server: Any = None
        """The `assistant.share.server.ShareServer` while the table is shared."""
        self.local_name = local_name
        """Whether to publish the table's short local name (mDNS); None: unless it is shared on loopback only, which
        no phone can reach (the name would lead a phone to itself)."""
        self._name: Any = None
        """The `assistant.share.local_name.LocalName` published, to take off the network when sharing stops."""
        self.publishing: asyncio.Future[None] | None = None
        """The short local name being published (None: none asked for)."""
        self._mark = _mark(session)
        self._waits = _waits(session)
        self._held: asyncio.TimerHandle | None = None
        """The timer that says the words of phones' moves that waited (`PhoneDesk.next_due`), once due."""

    # What the server is given.

    def _players(self) -> list[str]:
        with self.guard():
            game = self.session.game
            return list(game.table.setup.players) if game is not None else []

    def _view(self, player: str, version: int, last: list[LastEntry]) -> PhoneView:
        with self.guard():
            devices = self.session.phone_desk.devices
            waits = devices.waits_of(player)
            return phone_view(self.session.game, player, version, last, devices.question_of(player), waits)

    def _cards(self, query: str) -> list[dict[str, str]]:
        with self.guard():
            return [self._card(card) for card in self.session.card_desk.find_cards(query)]

    def _all_cards(self) -> list[dict[str, str]]:
        """Every card of the game's decks (the session's, with no game): a phone searches them itself while the
        network is down."""
        with self.guard():
            game = self.session.game
            cards = game.table.cards if game is not None else self.session.cards
            return [self._card(card) for card in cards]

    def _card(self, card: Any) -> dict[str, str]:
        """A card as a phone's search lists it: id, name, type, kind and braille label."""
        label = getattr(self.session.resolver, "abbreviation", lambda card: None)(card)  # the braille resolver's
        letters = label.text if label is not None else ""
        return {"id": card.id, "name": card.name, "type": type_name(card.type, self.session.cards.vocabulary),
                "kind": card.type.value, "label": str(letters)}  # fmt: skip

    # The commands.

    async def control(self, argument: str) -> Reply:
        """`share ARGUMENT`: start (on an address, if given), `off`, `devices`, `remove NAME [PHONE]`, `allow
        [NAME]`, `refuse [NAME]`, `refuse all`. Only these exact forms are taken: `share off now` is refused, not
        `share off`."""
        word, _, rest = argument.strip().partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in ("off", "devices", "qr") and rest:
            return Reply.error(share_form(word))
        if word == "off":
            return await self.stop()
        if word == "devices":
            return self.devices()
        if word == "remove":
            return self.remove(rest)
        if word == "refuse" and rest.lower() == "all":
            return self.refuse_all()
        if word in ("allow", "refuse"):
            tagged = self.server.devices.tagged(rest) if self.server is not None and rest else None
            if tagged is not None and tagged.waiting:  # its short name ("share allow blue 7"): that phone
                with self.guard():
                    return self.session.phone_desk.decide_join(tagged.tag, word == "allow")
            if len(rest.split()) > 1:
                return Reply.error(share_form(word))
            return self.decide(rest, word == "allow")
        if word == "qr":  # (the app draws it: `assistant/ui/share_panel.py`)
            return Reply.of(QR_ONLY_IN_APP)
        return await self.start(argument.strip() or None)

    async def start(self, listen: str | None) -> Reply:
        """Share the table (the address and port as `--share` takes them; None: the local-network address);
        said: where, and the join code. Already shared: said again."""
        from assistant.share.address import AddressError, choose_address, local_candidates, parse_listen
        from assistant.share.server import ShareServer, TableLink
        from assistant.storage.crashlog import write_crash_log

        if self.server is not None:
            return self.said()
        try:
            host, port = parse_listen(listen)
            host = host or choose_address(local_candidates())
            link = TableLink(self._players, self._view, self._cards, self.submit, self._all_cards)
            timing = {"clock": self.clock} if self.clock is not None else {}
            server = ShareServer(
                link,
                host,
                port,
                on_code=self._renewed,
                on_guessing=self._guessed,
                crash_log=write_crash_log,
                on_notice=self._notice,
                on_joining=self._joining,
                **timing,
            )
            await server.start()
        except AddressError as exc:
            return Reply.error(str(exc))
        self.server = server
        if self.local_name if self.local_name is not None else not _loopback(host):
            self.publishing = asyncio.ensure_future(self._publish(server))
        return self.said()

    async def _publish(self, server: Any) -> None:
        """Publish the table's short local name off the loop (it takes a second or two), then say and show it; when
        mDNS cannot start, say why, once: the address serves alone."""
        from assistant.share.local_name import LocalName, LocalNameError

        name = LocalName(server.host, server.port)
        try:
            await asyncio.to_thread(name.publish)
        except LocalNameError as exc:
            if self.server is server and self.tell is not None:
                self.tell(Reply.of(no_local_name(str(exc))))
            return
        if self.server is not server:  # sharing stopped meanwhile
            await asyncio.to_thread(name.close)
            return
        self._name = name
        if self.on_code is not None:
            self.on_code(server.current_code())  # (the region shows the address again, the name with it)
        if self.tell is not None:
            self.tell(Reply.of(also_at(self.named)))

    def _renewed(self, code: str) -> None:
        """The join code grew old and a new one was made: shown (never said, nor printed to a screen reader), and
        the host is told that it is ready (`share` says it when asked)."""
        if self.on_code is not None:
            self.on_code(code)
        if self.tell is not None:
            self.tell(Reply(important=True, segments=code_renewed(code)))

    def _guessed(self, code: str, first: bool = True) -> None:
        """Someone was guessing the join code: the new code is shown (never said: whoever guesses may hear it), and
        the host is told why once, however long the guessing goes on."""
        if self.on_code is not None:
            self.on_code(code)
        if first and self.tell is not None:
            self.tell(Reply(important=True, segments=(Segment(Verbatim(CODE_GUESSED)), private_code(code))))

    def _joining(self, closed: int) -> None:
        """Each time joining closes to every phone (for `closed` minutes), the host is told, with what to do (the QR
        code still works where there is one; else her opening, `share allow NAME`); and each time it opens again."""
        if self.tell is not None:
            self.tell(Reply.of(code_closed(closed, self.qr) if closed else CODE_REOPENED, important=True))

    def _notice(self, sentence: str) -> None:
        """Something the host is told once: a phone let in refused for holding too many event streams (naming it),
        another phone asking for a player whose phone already waits."""
        if self.tell is not None:
            self.tell(Reply.of(sentence, important=True))

    def said(self) -> Reply:
        """Where the table is shared and the join code (or that it is not shared)."""
        if self.server is None:
            return Reply.of(NOT_SHARING)
        sentence = sharing_at(self.server.address, self.server.current_code(), self.named)
        return Reply(important=True, private=True, segments=(Segment(Verbatim(sentence)),))  # (F6: into her headphones)

    async def stop(self) -> Reply:
        """Stop sharing (the short local name taken off the network too)."""
        server, self.server = self.server, None
        if server is None:
            return Reply.of(NOT_SHARING)
        if self._held is not None:
            self._held.cancel()
            self._held = None
        if self.publishing is not None and not self.publishing.done():
            await self.publishing  # (a second or two: then the name it published is taken off, below or by it)
        self.publishing = None
        name, self._name = self._name, None
        if name is not None:
            await asyncio.to_thread(name.close)
        await server.stop()
        return Reply.of(SHARE_STOPPED, important=True)

    def devices(self) -> Reply:
        """The phones joined, by player."""
        if self.server is None:
            return Reply.of(NOT_SHARING)
        phones = list(self.server.devices.by_token.values())
        joined = [(phone_name(d.player, d.number), d.tag) for d in phones if not d.waiting]
        return Reply.of(device_list(joined, [(d.player, d.tag) for d in phones if d.waiting]))

    def remove(self, argument: str) -> Reply:
        """`share remove NAME` takes a player's phones off the table, `share remove NAME PHONE` only their phone
        PHONE (its number, as `share devices` and the laptop name it); the join code is renewed and shown (never
        said), so they cannot join again with the one they had."""
        if self.server is None:
            return Reply.of(NOT_SHARING)
        tagged = self.server.devices.tagged(argument)
        if tagged is not None:  # its short name ("share remove blue 7")
            player, number, tag = tagged.player, tagged.number, tagged.tag
            self.server.remove(player, number)
            removed = phone_removed(phone_name(player, number), tag)
            return Reply(
                important=True, segments=(Segment(Verbatim(removed)), private_code(self.server.current_code()))
            )
        words = argument.split()
        phone = words[1] if len(words) == 2 else ""
        if not 0 < len(words) <= 2 or (phone and not (phone.isascii() and phone.isdigit() and 0 < int(phone) < 100)):
            return Reply.error(REMOVE_WHOSE)
        name, number = words[0], int(phone) if phone else None
        players = [d.player for d in self.server.devices.by_token.values()]
        match = next((p for p in players if p.casefold() == name.casefold()), name)
        count = self.server.remove(match, number)
        if not count:
            shown = clean_untrusted(name, 30)
            if number is not None and shown.casefold() in TAG_COLOURS and 2 <= number <= 9:  # a short name
                return Reply.of(no_phone_named(phone_tag(shown.casefold(), str(number))))
            return Reply.of(no_device_for(shown, number))
        removed = device_removed(match, count) if number is None else phone_removed(phone_name(match, number))
        return Reply(important=True, segments=(Segment(Verbatim(removed)), private_code(self.server.current_code())))

    def refuse_all(self) -> Reply:
        """`share refuse all`: keep out every phone that waits to join, at once (a code holder asking as every
        player kept the real players out until each was refused in turn)."""
        if self.server is None:
            return Reply.of(NOT_SHARING)
        with self.guard():
            return self.session.phone_desk.refuse_all()

    def decide(self, name: str, allow: bool) -> Reply:
        """`share allow [NAME]`, `share refuse [NAME]`: let in, or keep out, the phone that waits to join as NAME
        (alone: the phone that has waited longest), as the host's yes or no to the laptop's question does."""
        if self.server is None:
            return Reply.of(NOT_SHARING)
        player = next((p for p in self._players() if p.casefold() == name.strip().casefold()), None)
        if allow and player is not None and self.server.devices.waiting(player) is None:
            self.server.open_joining()  # no phone of theirs asks yet: the code works for them, whatever the guessing
            return Reply.of(code_opened(player), important=True)
        with self.guard():
            return self.session.phone_desk.decide_join(clean_untrusted(name, 30), allow)  # typed: never echoed raw

    def after(self, reply: Reply | None = None, force: bool = False) -> None:
        """After a reply is shown: when the game changed (or `force`: a phone's question), every phone is told; the
        reply's moves and facts are kept as the last moves when the game changed (`words.recorded.last_moves`), each
        with its place in the game's log (what carries none, the log's length now); another game's replace them."""
        mark, before = _mark(self.session), self._mark
        moved = mark != before
        self._mark = mark
        waits, self._waits = self._waits, _waits(self.session)
        force = force or waits != self._waits  # a move that waits on an answer asked, passed over or taken back
        if self.server is not None and (moved or force):
            said = _last_moves(self.session, reply, mark[1]) if moved and reply else ()
            self.server.changed(said, fresh=mark[0] != before[0])
        due = self.session.phone_desk.next_due()  # (read by the session's owner: `after` is called there)
        if self.server is not None and due is not None:
            self.server.state.soon(self._arm, *due)

    def _arm(self, player: str, seconds: float) -> None:
        """On the server's loop: a timer that says the words of `player`'s phones' moves that waited, `seconds` from
        now, handed to the session's owner as a phone's move is (`submit`, `HeldMovesDue`); one timer at a time, the
        one set for later put off for words due sooner (another player's)."""
        loop = self.server.state.loop if self.server is not None else None
        if loop is None:
            return
        if self._held is not None:
            if self._held.when() <= loop.time() + seconds:
                return
            self._held.cancel()
        self._held = loop.call_later(seconds, lambda: asyncio.ensure_future(self._say_held(player)))

    async def _say_held(self, player: str) -> None:
        """The words that waited, said through `submit` (the front end shows and says the reply, then calls `after`,
        which sets the next timer while words still wait)."""
        self._held = None
        try:
            await self.submit(player, HeldMovesDue())
        except Exception:  # (the moves were shown and kept: only their words are lost)
            logging.getLogger(__name__).debug("held words not said", exc_info=True)

    @property
    def named(self) -> str:
        """The page's address at the table's short local name, once published ("": none)."""
        return f"http://{self._name.name}:{self._name.port}/" if self._name is not None else ""

    def join_url(self) -> str:
        """What the QR code holds ("" when not shared)."""
        return self.server.join_url() if self.server is not None else ""


class ThreadedShare:
    """The plain mode's sharing: the server's own asyncio loop in a thread; moves are carried out there under the
    plain mode's lock (the one the braille display's reader thread uses), and shown by the plain mode's `show`."""

    def __init__(self, session: Session, lock: AbstractContextManager[Any], show: Callable[[Reply], None]) -> None:
        self.lock = lock
        self.show = show
        self.session = session
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.share = TableShare(session, self._submit, lambda: self.lock, tell=self._tell, qr=False)

    def _tell(self, reply: Reply) -> None:
        with self.lock:
            self.show(reply.coming(PHONES))

    async def _submit(self, player: str, request: DeviceRequest) -> DeviceOutcome:
        with self.lock:  # one at a time with the lines typed and the display's keys, in the order they arrive
            outcome = apply_device(self.session, player, request)
            if outcome.reply is not None:  # (another hand's, with its player: `PhoneDesk`)
                self.show(outcome.reply)
            self.share.after(outcome.reply, force=True)
        return outcome

    def _run(self, coroutine: Coroutine[Any, Any, _T], timeout: float = 30.0) -> _T:
        if self.loop is None:
            self.loop = asyncio.new_event_loop()
            self.thread = threading.Thread(target=self.loop.run_forever, name="share-server", daemon=True)
            self.thread.start()
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def control(self, argument: str) -> Reply:
        """`share ARGUMENT`, carried out on the server's loop (never while holding the lock)."""
        return self._run(self.share.control(argument))

    def after(self, reply: Reply) -> None:
        """After a typed line's reply: phones are told when the game changed."""
        self.share.after(reply)

    def close(self) -> None:
        """Stop sharing and end the server's thread."""
        if self.loop is None:
            return
        self._run(self.share.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        if self.thread is not None:
            self.thread.join(5)


def qr_text(data: str) -> str:
    """A QR code of `data` drawn in text, two rows of modules a line (half blocks), with its quiet zone: dark modules
    are drawn in the background colour so that a phone reads it on a dark or light screen alike."""
    import qrcode

    code = qrcode.QRCode(border=2)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    if len(matrix) % 2:
        matrix.append([False] * len(matrix[0]))
    glyph = {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}
    return "\n".join(
        "".join(glyph[(top, bottom)] for top, bottom in zip(matrix[row], matrix[row + 1]))
        for row in range(0, len(matrix), 2)
    )


def _loopback(host: str) -> bool:
    """The address is this computer's own loopback (no phone reaches it)."""
    import ipaddress

    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False
