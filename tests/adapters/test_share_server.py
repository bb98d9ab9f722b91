"""The sharing server's guards, over real HTTP on 127.0.0.1: a real aiohttp server on a real session (games saved
to disk), requests from aiohttp's client or a raw socket. Each test fails without the guard it names. Time is the
test's own clock: the join code's age and the guessing limit never wait on the wall clock."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import yarl

from assistant.core.game.events import Destroy, Draw, Respond, Save
from assistant.core.game.history import Phone
from assistant.core.language.device import HeldMovesDue
from assistant.core.language.reply import Control, Question
from assistant.core.words.share import (
    ACTOR_NOT_YOURS,
    DEVICE_REMOVED,
    NO_CSRF,
    NO_DEVICE,
    NOT_JSON_TYPE,
    ONE_AT_A_TIME,
    OTHER_HOST,
    OTHER_ORIGIN,
    PHONE_DISPLACED,
    PHONE_KEPT_OUT,
    QUESTION_LAPSED,
    REMOVE_WHOSE,
    SAVE_LABELS,
    STALE_PILE,
    TABLE_FULL,
    TAG_COLOURS,
    TOO_LARGE,
    UNDO_NOT_YOURS,
    UNEXPECTED,
    WAIT_EXPIRED,
    WRONG_CODE,
    code_opened,
    code_shown,
    device_list,
    device_removed,
    host_asked,
    new_phone_asks,
    new_phone_waits,
    no_device_for,
    no_phone_named,
    no_phone_waits,
    phone_asks,
    phone_kept_out,
    phone_let_in,
    phone_removed,
    phone_waits,
    phone_waits_named,
    phones_kept_out,
    phones_wait_for,
    save_waits,
    share_form,
    too_many_guesses,
    too_many_phones,
)
from assistant.phone_desk import SPOKEN_EVERY
from assistant.session import Session
from assistant.share import guards
from assistant.share.server import SECURITY_HEADERS
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameStore
from assistant.ui.share_link import TableShare, apply_device
from tests.core.talking import asks
from tests.share_table import untag

CARDS = load_card_set()
#: Patience for one request on a busy machine; never a sleep.
PATIENCE = 60


class Clock:
    """The test's own time, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Table:
    """A shared table: the session, the server's glue, an HTTP client, the clock."""

    session: Session
    share: TableShare
    http: aiohttp.ClientSession
    clock: Clock
    store: Path
    said: list[Any]

    @property
    def server(self) -> Any:
        return self.share.server

    @property
    def origin(self) -> str:
        return self.server.origin

    def url(self, path: str) -> str:
        return f"{self.origin}{path}"

    def headers(self, csrf: str | None = None, **more: str) -> dict[str, str]:
        headers = {"Origin": self.origin, "Content-Type": "application/json", **more}
        if csrf is not None:
            headers["X-CSRF-Token"] = csrf
        return headers

    async def post(
        self, path: str, body: Any, csrf: str | None = None, **headers: str
    ) -> tuple[int, dict[str, Any], Any]:
        async with self.http.post(self.url(path), data=json.dumps(body), headers=self.headers(csrf, **headers)) as r:
            return r.status, await r.json(content_type=None), r.headers

    async def get(self, path: str) -> tuple[int, dict[str, Any], Any]:
        async with self.http.get(self.url(path)) as r:
            return r.status, await r.json(content_type=None), r.headers

    @contextlib.asynccontextmanager
    async def phone(self, source: str = "") -> AsyncIterator[Table]:
        """Another phone: the same table, a client with cookies of its own (from the loopback address `source`, if
        given: a device of its own)."""
        jar = aiohttp.CookieJar(unsafe=True)
        connector = aiohttp.TCPConnector(local_addr=(source, 0)) if source else None
        timeout = aiohttp.ClientTimeout(total=PATIENCE)
        async with aiohttp.ClientSession(connector=connector, cookie_jar=jar, timeout=timeout) as http:
            yield dataclasses.replace(self, http=http)

    async def join(self, player: str) -> str:
        """Join as `player` with the code on screen, and the host lets the phone in (`share allow NAME`); the CSRF
        token."""
        code = self.server.current_code()
        status, body, _ = await self.post("/api/join", {"code": code, "player": player})
        assert status == 200, body
        if body["waiting"]:
            allowed = await self.share.control(f"allow {player}")
            assert allowed.lines[0].endswith("joined the table."), allowed.lines
        return body["csrf"]


@contextlib.asynccontextmanager
async def shared_table(
    tmp_path: Path,
    players: str = "Ana Ben Cy",
    babies: str = "red pink orange",
    cards: Any = CARDS,
    listen: str = "127.0.0.1:0",
) -> AsyncIterator[Table]:
    """A game of `players` shared on `listen` (127.0.0.1 at a free port); moves carried out as the app does (the
    session, then every phone told)."""
    session = Session(cards, store=GameStore(tmp_path / "games"))
    session.handle(f"new game {players} babies {babies}")
    said: list[Any] = []
    clock = Clock()

    async def submit(player: str, request: Any) -> Any:
        outcome = apply_device(session, player, request)
        said.append(outcome)
        share.after(outcome.reply, force=True)
        return outcome

    share = TableShare(session, submit, clock=clock)
    started = await share.start(listen)
    assert share.server is not None, started.lines
    timeout = aiohttp.ClientTimeout(total=PATIENCE)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), timeout=timeout) as http:
        try:
            yield Table(session, share, http, clock, tmp_path / "games", said)
        finally:
            await share.stop()


def run(test: Any) -> Any:
    return asyncio.run(asyncio.wait_for(test, PATIENCE * 2))


def move(verb: str, key: str, **fields: Any) -> dict[str, Any]:
    return {"key": key, "verb": verb, **fields}


def said(view: dict[str, Any]) -> list[str]:
    """The words of a view's last moves, oldest first (each is kept with its place in the game's log)."""
    return [entry["text"] for entry in view["game"]["last"]]


# No token, another player's name, another origin.


def test_without_a_token_nothing_is_read_or_recorded(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            before = list(table.session.game.log)
            status, body, _ = await table.post("/api/move", move("draw", "key-00000001"), csrf="anything")
            assert (status, body) == (401, {"error": NO_DEVICE})
            for path in ("/api/state", "/api/me", "/api/cards?q=rain", "/api/events"):
                status, body, _ = await table.get(path)
                assert (status, body) == (401, {"error": NO_DEVICE}), path
            table.http.cookie_jar.update_cookies({table.server.cookie: "made-up-token"})
            status, body, _ = await table.post("/api/move", move("draw", "key-00000002"), csrf="anything")
            assert (status, body) == (401, {"error": NO_DEVICE})
            assert table.session.game.log == before

    run(scenario())


def test_a_token_acts_as_its_own_player_only(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            csrf = await table.join("Ben")
            before = len(table.session.game.log)
            for field in ("actor", "player", "as"):
                status, body, _ = await table.post(
                    "/api/move", move("draw", f"key-actor-{field}", **{field: "Ana"}), csrf
                )
                assert (status, body) == (400, {"error": ACTOR_NOT_YOURS})
            assert len(table.session.game.log) == before
            status, body, _ = await table.post("/api/move", move("draw", "key-draw-0001"), csrf)
            assert status == 200 and body["status"] in ("recorded", "warning"), body
            if body["status"] == "warning":  # Ana's turn: Ben drawing is warned, then recorded anyway
                status, body, _ = await table.post(
                    "/api/answer", {"key": "key-answer-01", "question": body["question"], "answer": "yes"}, csrf
                )
            assert body["status"] == "recorded"
            assert table.session.game.log[-1] == Draw(1, 1)  # Ben's seat, whatever the body said
            status, me, _ = await table.get("/api/me")
            assert me["player"] == "Ben"

    run(scenario())


def test_a_post_from_another_origin_or_not_json_or_without_the_csrf_token_is_refused(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            csrf = await table.join("Ana")
            before = len(table.session.game.log)
            evil = "http://evil.example"
            status, body, _ = await table.post("/api/move", move("draw", "key-origin-1"), csrf, Origin=evil)
            assert (status, body) == (403, {"error": OTHER_ORIGIN})
            async with table.http.post(
                table.url("/api/move"), data=json.dumps(move("draw", "key-origin-2")), headers={"X-CSRF-Token": csrf}
            ) as response:  # no Origin at all
                assert response.status == 403 and await response.json() == {"error": OTHER_ORIGIN}
            status, body, _ = await table.post(
                "/api/move", move("draw", "key-type-1"), csrf, **{"Content-Type": "text/plain"}
            )  # a form a page of another site could send without asking
            assert (status, body) == (403, {"error": NOT_JSON_TYPE})
            status, body, _ = await table.post("/api/move", move("draw", "key-csrf-1"), csrf="wrong")
            assert (status, body) == (403, {"error": NO_CSRF})
            status, body, _ = await table.post("/api/move", move("draw", "key-csrf-2"))
            assert (status, body) == (403, {"error": NO_CSRF})
            status, body, _ = await table.post("/api/code", {"code": "000000"}, Origin=evil)
            assert (status, body) == (403, {"error": OTHER_ORIGIN})
            assert len(table.session.game.log) == before

    run(scenario())


def test_a_request_for_another_host_name_is_refused(tmp_path):
    """A page of another site whose name is re-pointed at this computer (DNS rebinding) sends its own Host."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await table.join("Ana")
            async with table.http.get(
                table.url("/api/state"), headers={"Host": f"evil.example:{table.server.port}"}
            ) as r:
                assert r.status == 403 and await r.json() == {"error": OTHER_HOST}
            async with table.http.get(table.url("/api/state"), headers={"Host": f"localhost:{table.server.port}"}) as r:
                assert r.status == 200  # loopback's own name is this computer

    run(scenario())


# The join code.


def test_six_wrong_codes_in_a_minute_are_slowed_then_the_code_works_again(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            code = table.server.current_code()
            wrong = f"{(int(code) + 1) % 10**6:06d}"
            for _ in range(5):
                status, body, _ = await table.post("/api/code", {"code": wrong})
                assert (status, body) == (403, {"error": WRONG_CODE})
                table.clock.now += 1
            status, body, headers = await table.post("/api/code", {"code": code})  # even the right one must wait
            assert status == 429 and headers["Retry-After"] == "55" and body == {"error": too_many_guesses(55)}
            status, body, _ = await table.post("/api/join", {"code": code, "player": "Ana"})
            assert status == 429
            assert table.server.devices.players() == []
            table.clock.now += 55
            status, body, _ = await table.post("/api/code", {"code": code})
            assert status == 200 and body["players"] == ["Ana", "Ben", "Cy"] and body["taken"] == []

    run(scenario())


def test_the_join_code_lasts_ten_minutes_then_a_new_one_is_needed(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            old = table.server.current_code()
            table.clock.now += 600
            new = table.server.current_code()
            status, body, _ = await table.post("/api/join", {"code": old, "player": "Ana"})
            assert old == new or (status, body) == (403, {"error": WRONG_CODE})
            status, body, _ = await table.post("/api/join", {"code": new, "player": "Ana"})
            assert status == 200 and body["player"] == "Ana"

    run(scenario())


# Hostile texts.


def test_hostile_names_are_inert_json_strings_and_the_page_forbids_inline_script(tmp_path):
    names = "<script>alert(1)</script> <img/src=x/onerror=alert(1)> \x1b[2JEve"

    async def scenario() -> None:
        async with shared_table(tmp_path, players=names, babies="red pink orange") as table:
            players = list(table.session.game.table.setup.players)
            assert players[2] == "Eve"  # the terminal escape was taken out when the game started
            code = table.server.current_code()
            async with table.http.post(
                table.url("/api/code"), data=json.dumps({"code": code}), headers=table.headers()
            ) as r:
                raw = await r.text()
                assert r.headers["Content-Type"].startswith("application/json")
                assert "<" not in raw and ">" not in raw  # escaped as \u003c: never markup, even if sniffed
                assert json.loads(raw)["players"] == players
            await table.join(players[0])
            async with table.http.get(table.url("/api/state")) as r:
                raw = await r.text()
                view = json.loads(raw)
                assert "<" not in raw and "\x1b" not in raw
                assert [p["name"] for p in view["game"]["players"]] == players
                assert r.headers["X-Content-Type-Options"] == "nosniff"
            async with table.http.get(table.url("/")) as r:
                policy = r.headers["Content-Security-Policy"]
                assert "default-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
                assert all(r.headers[name] == value for name, value in SECURITY_HEADERS.items())
            status, body, headers = await table.get("/api/cards?q=%3Cscript%3E")
            assert status == 200 and headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]

    run(scenario())


def test_a_card_learnt_from_a_hostile_code_is_sent_as_inert_text(tmp_path):
    from assistant.core.cards.card import CardType
    from assistant.core.cards.learning import NewCard
    from assistant.storage.decks import learn_card

    name, words = "<img src=x onerror=alert(1)>", "\x1b[2J<script>alert(1)</script> Draw a card."
    learn_card("uu-2nd", NewCard(name, words, CardType.MAGIC), CardType.MAGIC)  # into the test's private home
    cards = load_card_set("uu-2nd")
    hostile = next(card for card in cards if card.name == name)

    async def scenario() -> None:
        async with shared_table(tmp_path, cards=cards) as table:
            table.session.handle("draw")
            csrf = await table.join("Ana")
            status, body, _ = await table.post("/api/move", move("play", "key-hostile-1", card=hostile.id), csrf)
            assert body["status"] == "recorded" and body["lines"][0] == f"Ana played {name}."
            for path in ("/api/state", "/api/cards?q=onerror"):
                async with table.http.get(table.url(path)) as r:
                    raw = await r.text()
                    assert "<" not in raw and ">" not in raw and "\x1b" not in raw, path
                    assert name in json.dumps(json.loads(raw), ensure_ascii=False), path
                    assert r.headers["Content-Security-Policy"] == SECURITY_HEADERS["Content-Security-Policy"]
            view = json.loads(await (await table.http.get(table.url("/api/state"))).text())
            assert view["game"]["pile"][-1]["name"] == name

    run(scenario())


# Size.


def test_a_ten_megabyte_request_is_refused_from_its_length_without_reading_it(tmp_path):
    """Only the headers are sent, announcing 10 MB: the answer comes at once, so nothing waited for the body."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            csrf = await table.join("Ana")
            token = next(iter(table.server.devices.by_token))
            reader, writer = await asyncio.open_connection("127.0.0.1", table.server.port)
            host = f"127.0.0.1:{table.server.port}"
            writer.write(
                (
                    f"POST /api/move HTTP/1.1\r\nHost: {host}\r\nOrigin: {table.origin}\r\n"
                    f"Content-Type: application/json\r\nX-CSRF-Token: {csrf}\r\n"
                    f"Cookie: {table.server.cookie}={token}\r\n"
                    f"Content-Length: {10 * 1024 * 1024}\r\n\r\n"
                ).encode()
                + b'{"key": "'  # the start of a body, and then nothing more
            )
            await writer.drain()
            answer = await reader.read()  # until the server closes the connection
            writer.close()
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 413"), head
            assert json.loads(body) == {"error": TOO_LARGE}
            assert b"Content-Security-Policy" in head

    run(scenario())


def test_a_body_without_a_length_is_read_only_up_to_the_limit(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            csrf = await table.join("Ana")

            async def chunks() -> AsyncIterator[bytes]:
                for _ in range(64):
                    yield b" " * 1024

            async with table.http.post(table.url("/api/move"), data=chunks(), headers=table.headers(csrf)) as r:
                assert r.status == 413 and await r.json() == {"error": TOO_LARGE}

    run(scenario())


# Retries, stale pages, undo, errors.


def test_a_move_retried_with_its_key_is_recorded_once(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            csrf = await table.join("Ana")
            before = len(table.session.game.log)
            first = await table.post("/api/move", move("draw", "key-retry-001"), csrf)
            again = await table.post("/api/move", move("draw", "key-retry-001"), csrf)
            assert first[:2] == again[:2] and first[1]["status"] == "recorded"
            assert len(table.session.game.log) == before + 1
            both = await asyncio.gather(
                *(table.post("/api/move", move("draw", "key-retry-002"), csrf) for _ in range(3))
            )  # sent together, as a phone on a bad network might
            assert len({json.dumps(b[1]) for b in both}) == 1
            assert len(table.session.game.log) == before + 2

    run(scenario())


def test_a_move_whose_submit_failed_is_tried_afresh_when_retried_with_its_key(tmp_path):
    """A move the laptop failed to carry out is not remembered as the answer to its key: the phone's retry, with
    the same key, is a new try, and records the move (once)."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            csrf = await table.join("Ana")
            link, failures = table.server.state.link, [RuntimeError("a bug inside, once")]

            async def broken_once(player: str, request: Any) -> Any:
                if failures:
                    raise failures.pop()
                return await link.submit(player, request)

            table.server.state.link = type(link)(link.players, link.view, link.cards, broken_once)
            before = len(table.session.game.log)
            status, answer, _ = await table.post("/api/move", move("draw", "key-failed-001"), csrf)
            assert (status, answer) == (500, {"error": UNEXPECTED}) and len(table.session.game.log) == before
            status, answer, _ = await table.post("/api/move", move("draw", "key-failed-001"), csrf)
            assert status == 200 and answer["status"] == "recorded", answer
            again = await table.post("/api/move", move("draw", "key-failed-001"), csrf)
            assert again[:2] == (status, answer) and len(table.session.game.log) == before + 1

    run(scenario())


def test_a_move_on_a_card_that_has_left_the_pile_is_stale(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            session = table.session
            session.handle("draw")
            session.handle("play rainbow aura")
            ben = await table.join("Ben")
            async with table.phone() as cys_phone:
                cy = await cys_phone.join("Cy")
                # two Neighs at once on the same card: both recorded, in the order they came
                one, two = await asyncio.gather(
                    table.post("/api/move", move("neigh", "key-neigh-ben", on="rainbow-aura"), ben),
                    cys_phone.post("/api/move", move("neigh", "key-neigh-cy", on="rainbow-aura"), cy),
                )
            assert one[1]["status"] == two[1]["status"] == "recorded", (one, two)
            assert [type(e) for e in session.game.log[-2:]] == [Respond, Respond]
            assert {e.player for e in session.game.log[-2:]} == {1, 2}
            while session.game.state.pile:
                session.handle("resolve")
            table.share.after()
            before = len(session.game.log)
            status, body, _ = await table.post("/api/move", move("neigh", "key-stale-001", on="rainbow-aura"), ben)
            assert status == 409 and body["error"] == STALE_PILE
            status, body, _ = await table.post(
                "/api/move", move("destroy", "key-stale-002", card="baby-unicorn-pink", target="Ana"), ben
            )
            assert status == 409 and "no longer in Ana's Stable" in body["error"]
            assert len(session.game.log) == before

    run(scenario())


def test_a_phone_undoes_its_own_last_move_only(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            ana = await table.join("Ana")
            status, body, _ = await table.post("/api/move", move("draw", "key-undo-0001"), ana)
            assert body["status"] == "recorded"
            async with table.phone() as bens_phone:
                ben = await bens_phone.join("Ben")
                status, body, _ = await bens_phone.post("/api/move", move("undo", "key-undo-0002"), ben)
            assert body == {"status": "refused", "lines": [UNDO_NOT_YOURS]}
            count = len(table.session.game.log)
            status, body, _ = await table.post("/api/move", move("undo", "key-undo-0003"), ana)
            assert body["status"] == "recorded" and len(table.session.game.log) == count - 1

    run(scenario())


def test_a_recorded_move_is_on_disk_before_the_phone_is_told(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            csrf = await table.join("Ana")
            status, body, _ = await table.post("/api/move", move("draw", "key-disk-0001"), csrf)
            assert body["status"] == "recorded"
            fresh = Session(CARDS, store=GameStore(table.store))  # what a crash right now would leave
            fresh.resume_game()
            assert fresh.game.log == table.session.game.log and fresh.game.log[-1] == Draw(0, 1)

    run(scenario())


def test_bad_requests_get_a_sentence_and_a_status_never_a_traceback(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            csrf = await table.join("Ana")
            for body in ("not json", "[1, 2]", json.dumps({"key": "short", "verb": "draw"})):
                async with table.http.post(table.url("/api/move"), data=body, headers=table.headers(csrf)) as r:
                    answer = await r.json()
                    assert r.status == 400 and set(answer) == {"error"} and answer["error"].endswith(".")
            for bad in (
                move("fly", "key-bad-00001"),
                move("play", "key-bad-00002"),
                move("play", "key-bad-00003", card="no-such-card"),
                move("draw", "key-bad-00004", number=10**9),
                move("play", "key-bad-00005", card="<script>"),
            ):
                status, answer, _ = await table.post("/api/move", bad, csrf)
                assert status in (200, 400) and "Traceback" not in json.dumps(answer), (bad, answer)
                assert answer.get("status") == "refused" or set(answer) == {"error"}
            status, answer, _ = await table.get("/no/such/page")
            assert status == 404 and answer["error"].endswith(".")

            async def broken(player: str, request: Any) -> Any:
                raise RuntimeError("a bug inside")

            table.server.state.link = type(table.server.state.link)(
                table.server.state.link.players, table.server.state.link.view, table.server.state.link.cards, broken
            )
            status, answer, _ = await table.post("/api/move", move("draw", "key-bug-00001"), csrf)
            assert (status, answer) == (500, {"error": UNEXPECTED})

    run(scenario())


# The stream.


def test_the_event_stream_tells_the_phone_to_come_back_within_a_second_of_losing_it(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await table.join("Ben")
            async with table.http.get(table.url("/api/events")) as stream:
                first = (await stream.content.readline()).decode()
                assert first == "retry: 1000\n"  # EventSource's own wait is about 3 s

    run(scenario())


def test_the_event_stream_sends_the_table_at_once_and_on_each_change(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await table.join("Ben")
            async with table.http.get(table.url("/api/events")) as stream:
                assert stream.headers["Content-Type"].startswith("text/event-stream")

                async def next_state() -> dict[str, Any]:
                    event: dict[str, str] = {}
                    async for raw in stream.content:
                        line = raw.decode().rstrip("\n")
                        if not line:
                            if event.get("event") == "state":
                                return json.loads(event["data"])
                            event = {}
                            continue
                        name, _, value = line.partition(": ")
                        event[name] = value
                    raise AssertionError("the stream ended")

                first = await next_state()
                assert first["you"] == "Ben" and first["game"]["current"] == "Ana"
                reply = table.session.handle("draw")  # typed on the laptop
                table.share.after(reply)
                second = await next_state()
                assert second["version"] > first["version"]
                assert said(second)[-1:] == ["Ana drew a card."]  # its move, in its own words
                reply = table.session.handle("end turn")
                table.share.after(reply)
                third = await next_state()
                assert said(third)[-2:] == ["Ana's turn ended.", "Ben's turn."]  # no "say draw"
                assert not any("say " in line.casefold() for line in said(third))

    run(scenario())


@pytest.mark.parametrize(
    ("listen", "problem"),
    [
        ("8.8.8.8:8123", "public"),
        ("0.0.0.0:8123", "0.0.0.0 means every network this computer is on"),
        ("[::]:8123", r"\[::\] means every network this computer is on"),
        ("[ff02::1]:8123", "ff02::1 is a multicast address"),
        ("example.com:80", "like share"),
        ("1.2.3.4", "public"),
    ],
)
def test_a_public_or_unreadable_address_is_refused_with_the_reason(listen, problem):
    from assistant.share.address import AddressError, parse_listen

    with pytest.raises(AddressError, match=problem):
        parse_listen(listen)


def test_the_default_address_is_a_private_one_and_never_a_public_one_alone():
    from assistant.share.address import AddressError, choose_address, parse_listen

    assert choose_address(["127.0.0.1", "93.184.216.34", "192.168.1.20"]) == "192.168.1.20"
    assert choose_address(["fe80::1", "10.0.0.5"]) == "10.0.0.5"
    with pytest.raises(AddressError, match="93.184.216.34 is a public internet address"):
        choose_address(["127.0.0.1", "93.184.216.34"])
    with pytest.raises(AddressError, match="no local-network address"):
        choose_address(["127.0.0.1", "::1"])
    assert parse_listen("127.0.0.1:8123") == ("127.0.0.1", 8123)
    assert parse_listen("[::1]:8123") == ("::1", 8123)
    assert parse_listen("") == (None, 0)


def test_a_new_game_keeps_the_devices_of_its_players_and_forgets_the_others(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await table.join("Ana")
            async with table.phone() as bens_phone:
                await bens_phone.join("Ben")
                assert sorted(table.server.devices.players()) == ["Ana", "Ben"]
                table.share.after(table.session.handle("draw"))
                assert asks(table.session.handle("new game Ana Cy Dee babies red pink orange"))  # asked first
                table.share.after(table.session.handle("yes"))
                assert table.session.game.table.setup.players == ("Ana", "Cy", "Dee")
                status, body, _ = await bens_phone.get("/api/me")
                assert (status, body) == (401, {"error": DEVICE_REMOVED, "gone": "removed"})
            status, body, _ = await table.get("/api/me")
            assert status == 200 and body["player"] == "Ana"
            assert table.server.devices.players() == ["Ana"]

    run(scenario())


SAVE_QUESTION = "Ben may save Basic Unicorn (Red) by sacrificing Black Knight Unicorn instead. Save it?"


async def destroy_bens_unicorn(table: Table) -> tuple[int, str, dict[str, Any]]:
    """Black Knight Unicorn and a Basic Unicorn in Ben's Stable; Ana's phone destroys the Basic Unicorn (with Unicorn
    Poison): how long the log was before, Ana's CSRF token, and what her phone was answered."""
    for line in ("bring black knight unicorn into Ben", "bring basic red into Ben", "draw"):
        table.session.handle(line)
    table.session.handle("play unicorn poison")
    table.session.handle("resolve")
    csrf = await table.join("Ana")
    before = len(table.session.game.log)
    destroy = move("destroy", "key-save-0001", card="basic-unicorn-red", target="Ben")
    status, asked, _ = await table.post("/api/move", destroy, csrf)
    assert status == 200, asked
    return before, csrf, asked


def made(answer: str) -> Any:
    return (
        Save(1, "basic-unicorn-red", "black-knight-unicorn") if answer == "yes" else Destroy(0, "basic-unicorn-red", 1)
    )


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_a_save_instead_is_asked_of_the_cards_owner_on_their_phone(tmp_path, answer):
    """Ana's phone destroys Ben's Basic Unicorn while Black Knight Unicorn is in his Stable: Ben's phone is asked
    ("Ben may save ... Save it?", with "Save it" and "Do not save it"), and nothing is recorded until he answers; yes
    records the save in place of the destroy, no the destroy as made, both as made on Ana's phone (her move). Before,
    Ana's phone was asked whether Ben saves his card, with the buttons of a warning, and Ben was never asked."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table, table.phone() as ben:
            ben_csrf = await ben.join("Ben")
            before, csrf, asked = await destroy_bens_unicorn(table)
            assert asked == {"status": "asked", "lines": [phone_asks("Ben's phone", saving=True)]}
            assert laptop_said(table)[-1] == "Ben's phone is asked whether to save it."
            assert len(table.session.game.log) == before
            status, view, _ = await table.get("/api/state")
            assert view["game"]["question"] is None  # Ana's phone is asked nothing
            status, view, _ = await ben.get("/api/state")
            question = view["game"]["question"]
            assert question["lines"] == [SAVE_QUESTION] and question["labels"] == SAVE_LABELS
            assert SAVE_LABELS == {"heading": "A card may save it", "yes": "Save it", "no": "Do not save it"}
            status, body, _ = await table.post(
                "/api/answer", {"key": "key-save-0002", "question": question["id"], "answer": answer}, csrf
            )
            assert status == 409 and body["status"] == "stale"  # not Ana's to answer
            reply = {"key": "key-save-0003", "question": question["id"], "answer": answer}
            status, body, _ = await ben.post("/api/answer", reply, ben_csrf)
            assert status == 200 and body["status"] == "recorded", body
            game = table.session.game
            assert game.log[before:] == [made(answer)] and game.phone_of(game.log[-1]) == Phone(0)

    run(scenario())


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_a_save_of_a_card_whose_owner_has_no_phone_is_asked_on_the_laptop(tmp_path, answer):
    """Ben has no phone (the host, at the laptop): the laptop asks him, as it asks of a typed destroy."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            before, _, asked = await destroy_bens_unicorn(table)
            assert asked == {"status": "asked", "lines": [host_asked("Ben", saving=True)]}
            assert laptop_said(table)[-1].startswith(SAVE_QUESTION + " Say yes")
            assert isinstance(table.session.pending, Question)
            table.session.handle(answer)
            game = table.session.game
            assert game.log[before:] == [made(answer)] and game.phone_of(game.log[-1]) == Phone(0)

    run(scenario())


@pytest.mark.parametrize("answer", ["yes", "no"])
def test_a_save_of_the_hosts_card_waits_behind_her_question_on_the_laptop_never_on_the_moving_phone(tmp_path, answer):
    """Ben has no phone (the host, at the laptop) and the laptop's keyboard has a question open: Ana's phone is told
    Ben is asked on the laptop once his question is answered, and asked nothing itself; the laptop's question stays
    open. Once he answers it, the save is asked of him on the laptop, and his answer records Ana's move as made on
    her phone. Before, Ana's phone was asked ("Save it", "Do not save it") and decided for Ben."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            table.session.handle("bring black knight unicorn into Ben")
            table.session.handle("bring basic red into Ben")
            table.session.handle("draw")
            table.session.handle("play unicorn poison")
            table.session.handle("resolve")
            assert asks(table.session.handle("play yay"))  # the keyboard's own question, left open
            keyboard = table.session.pending
            csrf = await table.join("Ana")
            before = len(table.session.game.log)
            destroy = move("destroy", "key-busy-save-1", card="basic-unicorn-red", target="Ben")
            status, asked, _ = await table.post("/api/move", destroy, csrf)
            assert (status, asked) == (200, {"status": "asked", "lines": [host_asked("Ben", saving=True, later=True)]})
            assert laptop_said(table)[-1] == save_waits("Ben", "Ana")
            status, view, _ = await table.get("/api/state")
            assert view["game"]["question"] is None  # Ana's phone is asked nothing
            assert table.session.pending is keyboard and len(table.session.game.log) == before
            reply = table.session.handle("no")  # the keyboard's question answered: then the save is asked of Ben
            table.share.after(reply)
            assert reply.lines[-1].startswith(SAVE_QUESTION + " Say yes") and asks(reply)
            table.share.after(table.session.handle(answer))
            game = table.session.game
            assert game.log[before:] == [made(answer)] and game.phone_of(game.log[-1]) == Phone(0)
            status, view, _ = await table.get("/api/state")
            assert view["game"]["question"] is None

    run(scenario())


def test_an_answer_to_a_lapsed_question_is_stale(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            for line in ("draw", "play rainbow aura", "resolve"):
                table.session.handle(line)
            csrf = await table.join("Ana")
            status, warned, _ = await table.post("/api/move", move("play", "key-lapse-001", card="yay"), csrf)
            assert warned["status"] == "warning"
            table.session.handle("Ben draw")  # in Ana's turn: warned, recorded on yes
            table.share.after(table.session.handle("yes"))
            answer = {"key": "key-lapse-002", "question": warned["question"], "answer": "yes"}
            status, body, _ = await table.post("/api/answer", answer, csrf)
            assert status == 409 and body["error"] == QUESTION_LAPSED

    run(scenario())


# Every device known to the table.


async def next_event(stream: Any) -> tuple[str, dict[str, Any]]:
    """The next event of a stream (its name and data), keep-alive comments passed over."""
    event: dict[str, str] = {}
    async for raw in stream.content:
        line = raw.decode().rstrip("\n")
        if not line:
            if "event" in event:
                return event["event"], json.loads(event["data"])
            event = {}
            continue
        name, _, value = line.partition(": ")
        event[name] = value
    raise AssertionError("the stream ended")


def laptop_said(table: Table) -> list[str]:
    """What the laptop was handed to show and say for the phones, in order."""
    return [line for outcome in table.said if outcome.reply is not None for line in outcome.reply.lines]


async def ask_to_join(phone: Table, player: str) -> dict[str, Any]:
    """A phone asks to join as `player` with the code on screen: it waits for the host (its answer's body)."""
    status, joined, _ = await phone.post("/api/join", {"code": phone.server.current_code(), "player": player})
    assert status == 200 and joined["waiting"] is True, joined
    return joined


def test_even_a_players_first_phone_waits_until_the_host_lets_it_in(tmp_path):
    """Before, a player's first phone was never asked about: whoever heard the code joined as Ben before Ben, and
    owned Ben's place on the table (it recorded at once, and answered for Ben's real phone)."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            joined = await ask_to_join(table, "Ben")
            asked = "A new phone asks to record for Ben. Let it in?"
            assert untag(laptop_said(table)) == [new_phone_asks("Ben")] == [asked]
            assert untag(table.session.said[-1].lines) == (new_phone_asks("Ben"),)  # `repeat` and `history` have it
            assert isinstance(table.session.pending, Question)  # the keyboard's yes or no answers it
            before = list(table.session.game.log)
            status, body, _ = await table.post("/api/move", move("draw", "key-first-0001"), joined["csrf"])
            assert (status, body) == (403, {"error": phone_waits("Ben")})
            assert table.session.game.log == before and table.server.devices.players() == []
            reply = table.session.handle("yes")
            assert reply.lines == (phone_let_in("Ben", 1),) == ("Ben's phone joined the table.",)
            status, body, _ = await table.post("/api/move", move("discard", "key-first-0002"), joined["csrf"])
            assert status == 200 and body["status"] in ("recorded", "warning"), body
            assert table.server.devices.players() == ["Ben"]

    run(scenario())


def test_a_waiting_phone_opens_no_stream_and_holds_one_request_at_a_time(tmp_path):
    """Before, a phone that waited to be let in could open event streams: 1,023 of them from 35 addresses made every
    real phone's request fail. Now it asks for its state, one request at a time, held until the host answers."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await ask_to_join(table, "Ben")
            status, body, _ = await table.get("/api/events")
            assert (status, body) == (403, {"error": phone_waits("Ben")})
            held = asyncio.ensure_future(table.get("/api/state"))  # held until the host answers
            await until(lambda: table.server.state.holding)
            async with table.phone() as same:  # the same cookie, on another connection
                same.http.cookie_jar.update_cookies(table.http.cookie_jar.filter_cookies(yarl.URL(table.url("/"))))
                status, body, headers = await same.get("/api/state")
                assert status == 429 and body == {"error": ONE_AT_A_TIME} and headers["Retry-After"] == "1"
                status, body, _ = await same.get("/api/me")
                assert status == 429
            assert not held.done()
            assert (await table.share.control("allow")).lines == (phone_let_in("Ben", 1),)
            status, view, _ = await held
            assert status == 200 and view["game"]["current"] == "Ana" and "waiting" not in view
            status, _, _ = await table.get("/api/me")
            assert status == 200

    run(scenario())


def test_a_waiting_phone_is_told_at_once_that_it_waits_while_its_state_is_held(tmp_path):
    """Before, a phone that asked to join showed nothing for 15 s: its page said it waits only from its first state
    request, which the server holds until the host answers. Its join answer and `/api/me` now carry that view."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            joined = await ask_to_join(table, "Ben")
            waits = {"you": "Ben", "line": phone_waits_named("Ben", joined["tag"]), "game": None, "waiting": True}
            waits["tag"] = joined["tag"]  # its short name, on its screen
            assert {**joined["view"], "version": None} == {**waits, "version": None}
            status, me, _ = await table.get("/api/me")
            assert status == 200 and me["view"] == {**waits, "version": table.server.state.version}
            held = asyncio.ensure_future(table.get("/api/state"))
            await until(lambda: table.server.state.holding)
            assert not held.done()  # the state is still held: the page learns it waits from its join answer
            await table.share.control("allow")
            status, view, _ = await held
            assert status == 200 and "waiting" not in view
            status, me, _ = await table.get("/api/me")
            assert status == 200 and "view" not in me and me["waiting"] is False

    run(scenario())


async def until(condition: Any) -> None:
    """Wait until the condition holds, at most PATIENCE seconds (bounded, never a sleep of a set length)."""
    for _ in range(int(PATIENCE * 100)):
        if condition():
            return
        await asyncio.sleep(0.01)  # (the server's work on the loop, polled)
    raise AssertionError("never happened")


def test_a_second_phone_for_a_player_waits_until_the_host_says_yes(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await table.join("Ben")
            async with table.phone() as second:
                joined = await ask_to_join(second, "Ben")
                csrf = joined["csrf"]
                assert untag(laptop_said(table)[-1]) == new_phone_asks("Ben")
                assert isinstance(table.session.pending, Question)  # the laptop's yes-or-no question
                assert table.server.devices.players() == ["Ben"]
                before = list(table.session.game.log)
                status, body, _ = await second.post("/api/move", move("draw", "key-waits-0001"), csrf)
                assert (status, body) == (403, {"error": phone_waits("Ben")})
                status, body, _ = await second.get("/api/cards?q=neigh")
                assert (status, body) == (403, {"error": phone_waits("Ben")})
                assert table.session.game.log == before
                async with table.phone() as third:  # beside it, a third waits too: asked about with its rival named
                    rival = await ask_to_join(third, "Ben")
                    said = new_phone_waits("Ben", rival["tag"], (joined["tag"],))
                    assert laptop_said(table)[-1] == said
                status, view, _ = await second.get("/api/me")
                assert status == 200 and view["waiting"] is True
                reply = table.session.handle("yes")  # the host lets in the one she was asked about
                assert reply.lines[0] == phone_let_in("Ben", 2)
                assert reply.lines[1:] == (new_phone_asks("Ben", rival["tag"]),)  # then the next: no rival now
                assert table.session.handle("no").lines[0] == phone_kept_out("Ben")
                status, view, _ = await second.get("/api/state")
                assert status == 200 and view["you"] == "Ben" and view["game"]["current"] == "Ana"
                status, body, _ = await second.post("/api/move", move("discard", "key-waits-0002"), csrf)
                assert status == 200 and body["status"] == "recorded", body
                assert table.session.handle("log").lines[-1].endswith("from Ben's phone 2.")
                assert table.server.devices.players() == ["Ben", "Ben"]

    run(scenario())


def joined_code(table: Table) -> str:
    return table.server.current_code()


def test_a_phone_the_host_refuses_is_told_so_and_the_code_is_renewed_shown_not_said(tmp_path):
    """Before, `no` kept the code: the phone kept out asked again 38 ms later."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await table.join("Ben")
            old = table.server.current_code()
            async with table.phone() as second:
                await ask_to_join(second, "Ben")
                reply = table.session.handle("no")
                new = table.server.current_code()
                assert new != old
                assert reply.lines == (phone_kept_out("Ben"), code_shown(new))  # on the screen
                assert reply.speech == phone_kept_out("Ben") == "The new phone for Ben was kept out."  # not said
                status, body, _ = await second.get("/api/me")
                assert (status, body) == (401, {"error": PHONE_KEPT_OUT, "gone": "refused"})
                status, body, _ = await second.post("/api/join", {"code": old, "player": "Ben"})
                assert (status, body) == (403, {"error": WRONG_CODE})
                assert table.server.devices.players() == ["Ben"]
            status, body, _ = await table.get("/api/me")  # the first phone is untouched
            assert status == 200 and body["player"] == "Ben"

    run(scenario())


def test_sixty_four_joins_in_a_burst_leave_every_real_phone_working(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table, contextlib.AsyncExitStack() as stack:
            players = ["Ana", "Ben", "Cy"]
            phones = [await stack.enter_async_context(table.phone()) for _ in players]
            csrfs = [await phone.join(player) for phone, player in zip(phones, players)]
            code = table.server.current_code()
            jar = aiohttp.DummyCookieJar()
            connector = aiohttp.TCPConnector(limit=16)  # (one address holds at most 32 connections: the guard's own)
            timeout = aiohttp.ClientTimeout(total=PATIENCE)
            async with aiohttp.ClientSession(cookie_jar=jar, timeout=timeout, connector=connector) as http:
                burst = dataclasses.replace(table, http=http)
                answers = await asyncio.gather(
                    *(burst.post("/api/join", {"code": code, "player": players[n % 3]}) for n in range(64))
                )
            for phone, player, csrf in zip(phones, players, csrfs):
                status, body, _ = await phone.get("/api/me")
                assert (status, body.get("player")) == (200, player), body
                status, body, _ = await phone.post("/api/move", move("discard", f"key-burst-{player}"), csrf)
                assert status == 200 and body["status"] in ("recorded", "warning"), body
            statuses = [status for status, _, _ in answers]
            # a player's places (3: one let in, two that wait for the host) turn over, the older waiting phones
            # making room for the newer (never one let in); the rest are told why not:
            waiting = [d.player for d in table.server.devices.by_token.values() if d.waiting]
            assert sorted(waiting) == sorted(players * (guards.MOST_PHONES - 1))
            assert set(statuses) <= {200, 429}  # (too many joins at once: 429)
            assert all(body.get("error") for status, body, _ in answers if status != 200)
            assert all(body["waiting"] for status, body, _ in answers if status == 200)

    run(scenario())


def test_a_full_table_refuses_a_join_with_a_sentence_and_drops_no_phone(tmp_path, monkeypatch):
    from assistant.share import guards

    monkeypatch.setattr(guards, "MOST_DEVICES", 2)

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await table.join("Ana")
            async with table.phone() as ben:
                await ben.join("Ben")
                async with table.phone() as cy:
                    status, body, _ = await cy.post("/api/join", {"code": table.server.current_code(), "player": "Cy"})
                    assert (status, body) == (503, {"error": TABLE_FULL})
                for phone, player in ((table, "Ana"), (ben, "Ben")):
                    status, body, _ = await phone.get("/api/me")
                    assert (status, body["player"]) == (200, player)  # no phone was dropped to make room

    run(scenario())


def test_share_remove_renews_the_code_shown_not_said_and_keeps_the_removed_phone_out(tmp_path):
    """Before, the new code was said aloud: the phone taken off rejoined in 33 ms as the player's first phone."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            old = table.server.current_code()
            await table.join("Ben")
            reply = table.share.remove("ben")
            new = table.server.current_code()
            assert new != old and reply.lines == (device_removed("Ben", 1), code_shown(new))
            assert reply.speech == device_removed("Ben", 1)
            status, body, _ = await table.get("/api/me")
            assert (status, body) == (401, {"error": DEVICE_REMOVED, "gone": "removed"})  # why: the page says it
            async with table.http.get(table.url("/api/events")) as stream:  # a stream opened after the removal...
                assert stream.status == 200
                told = (await stream.read()).decode()  # ... is told why, and ends (before: a 401 read by no page)
            assert told == f"event: removed\ndata: {json.dumps({'error': DEVICE_REMOVED})}\n\n"
            async with table.phone() as stranger:  # a phone that never joined is told nothing of the kind
                status, body, _ = await stranger.get("/api/me")
                assert (status, body) == (401, {"error": NO_DEVICE})
                async with stranger.http.get(table.url("/api/events")) as refused:
                    assert refused.status == 401
            status, body, _ = await table.post("/api/join", {"code": old, "player": "Ben"})
            assert (status, body) == (403, {"error": WRONG_CODE})
            heard = len(table.said)
            await ask_to_join(table, "Ben")  # with the new code: asked of the host again
            assert untag(laptop_said(table)[heard:]) == [new_phone_asks("Ben")]

    run(scenario())


def test_a_removal_while_the_phones_view_is_being_sent_ends_its_stream_at_once(tmp_path, monkeypatch):
    """With the table quiet, the open stream of a phone taken off got `removed` only at its next keep-alive, 15 s
    later (2 of 6): the stream took the wake-up to wait on after sending the view, so a change made while it sent
    (here the removal, made as the view is sent) woke an event it no longer waited on. It now waits on the one it had
    before it looked (the keep-alive made an hour here: only the removal can end the stream)."""
    from assistant.share import responses
    from assistant.share.handlers import events

    monkeypatch.setattr(events, "KEEP_ALIVE", 3600.0)
    send, removed = responses.send, []

    async def removing_while_sending(response, text: str) -> None:
        if text.startswith("event: state") and not removed:
            removed.append(table_of[0].share.remove("ben"))  # the host's `share remove Ben`, as the view goes out
        await send(response, text)

    monkeypatch.setattr(responses, "send", removing_while_sending)
    table_of: list[Any] = []

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            table_of.append(table)
            await table.join("Ben")
            async with table.http.get(table.url("/api/events")) as stream:
                assert stream.status == 200
                told = (await asyncio.wait_for(stream.content.read(), 60)).decode()  # to the stream's end
            assert removed and told.rstrip().endswith(f"event: removed\ndata: {json.dumps({'error': DEVICE_REMOVED})}")

    run(scenario())


def test_share_remove_name_phone_takes_one_phone_off(tmp_path):
    """Before, `share remove Ben` removed all of Ben's phones and none could be removed alone."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await table.join("Ben")
            async with table.phone() as second:
                await second.join("Ben")
                reply = await table.share.control("remove Ben 2")
                assert reply.lines[0] == phone_removed("Ben's phone 2") == "Ben's phone 2 was taken off the table."
                status, body, _ = await second.get("/api/me")
                assert (status, body) == (401, {"error": DEVICE_REMOVED, "gone": "removed"})
                status, body, _ = await table.get("/api/me")
                assert status == 200 and body["player"] == "Ben"
                assert (await table.share.control("remove Ben 2")).lines == (no_device_for("Ben", 2),)
                assert (await table.share.control("remove Ben two")).lines == (REMOVE_WHOSE,)
                assert table.server.devices.players() == ["Ben"]

    run(scenario())


def test_share_refuse_answers_a_waiting_phone_when_the_question_is_gone(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await table.join("Ben")
            async with table.phone() as second:
                await ask_to_join(second, "Ben")
                tallied = table.session.handle("tally")  # another command: the question is asked again after it
                assert untag(tallied.lines[-1]) == new_phone_asks("Ben")
                listed = await table.share.control("devices")
                assert untag(listed.lines) == (untag(device_list([("Ben's phone", "")], [("Ben", "")])),)
                refused = await table.share.control("refuse ben")
                assert refused.lines[0] == phone_kept_out("Ben")
                status, body, _ = await second.get("/api/me")
                assert (status, body) == (401, {"error": PHONE_KEPT_OUT, "gone": "refused"})
                again = await table.share.control("allow Ben\x1b]52;c;aGk=\x07")
                assert again.lines == (no_phone_waits("Ben"),)  # said cleaned, never echoed raw

    run(scenario())


def test_a_players_own_phone_never_decides_for_another_device(tmp_path):
    """Before, any of Ben's phones answered a later phone's request, the first answer winning: a code holder joined
    as Ben and kept the real Ben's phone out within 31 ms. Now only the host answers."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            csrf = await table.join("Ben")
            async with table.phone() as second, table.http.get(table.url("/api/events")) as stream:
                assert (await next_event(stream))[1]["game"]["question"] is None
                await ask_to_join(second, "Ben")
                kind, view = await next_event(stream)  # Ben's first phone is asked nothing
                assert kind == "state" and view["game"]["question"] is None
                answer = {"key": "key-keep-out-1", "question": "anything-at-all", "answer": "no"}
                status, body, _ = await table.post("/api/answer", answer, csrf)
                assert (status, body["status"]) == (409, "stale")
                assert table.server.waits(
                    second.http.cookie_jar.filter_cookies(yarl.URL(table.url("/")))[table.server.cookie].value
                )
                assert table.session.handle("yes").lines == (phone_let_in("Ben", 2),)  # the host decides
                assert table.server.devices.players() == ["Ben", "Ben"]

    run(scenario())


def test_a_name_before_share_answers_only_that_players_phone_and_share_remove_names_the_phone_missing(tmp_path):
    """Before, `Ben share allow` let Cy's waiting phone in (a name before `share` was kept only for `remove`), and
    `share remove Ben 2` answered "Ben's phone 2 has no phone on the table."."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await ask_to_join(table, "Cy")  # Cy's phone waits

            async def typed(line: str) -> Any:
                reply = table.session.handle(line)
                return await table.share.control(reply.argument) if reply.control is Control.SHARE else reply

            assert (await typed("Ben share allow")).lines == (code_opened("Ben"),)  # none waits: she opens the code
            assert (await typed("Ben share refuse")).lines == (no_phone_waits("Ben"),)
            assert table.server.devices.waiting("Cy") is not None and table.server.devices.players() == []
            assert (await typed("Ben share allow Cy")).lines == (share_form("allow"),)
            assert table.server.devices.waiting("Cy") is not None
            tag = table.server.devices.waiting("Cy").tag
            assert (await typed(f"share allow {tag}")).lines == (phone_let_in("Cy", 1),)  # by its short name
            assert (await typed("share remove Cy 2")).lines == ("Cy has no phone 2 on the table.",)
            assert (await typed("share remove Ben 2")).lines == (no_device_for("Ben", 2),)
            assert (await typed("share remove Ben")).lines == ("Ben has no phone on the table.",)
            tag = next(iter(table.server.devices.by_token.values())).tag
            other = next(f"{c} 9" for c in TAG_COLOURS if f"{c} 9" != tag)
            assert (await typed(f"share remove {other}")).lines == (no_phone_named(other),)
            assert table.server.devices.players() == ["Cy"]

    run(scenario())


def test_share_allow_and_refuse_alone_answer_the_phone_that_waits_one_question_at_a_time(tmp_path):
    """Before, `share allow` alone said "No phone waits to join as ."; and a second phone's question was asked while
    another was open."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            assert (await table.share.control("allow")).lines == (no_phone_waits(),)
            await ask_to_join(table, "Ana")
            async with table.phone() as ben:
                await ask_to_join(ben, "Ben")
                assert untag(laptop_said(table)) == [new_phone_asks("Ana"), new_phone_waits("Ben")]
                reply = table.session.handle("yes")  # Ana's phone: then Ben's is asked, the keyboard's question now
                assert untag(reply.lines) == (phone_let_in("Ana", 1), new_phone_asks("Ben"))
                refused = await table.share.control("refuse")
                assert refused.lines == (phone_kept_out("Ben"), code_shown(table.server.current_code()))
                assert table.session.pending is None  # the question answered is no longer the keyboard's
                assert table.server.devices.players() == ["Ana"]
                assert (await table.share.control("refuse Ana Ben")).important  # not a form: refused
                assert (await table.share.control("allow Ben\x1b]52;c;aGk=\x07")).lines == (no_phone_waits("Ben"),)

    run(scenario())


def test_share_refuse_all_keeps_every_waiting_phone_out_at_once_and_lets_the_real_player_in(tmp_path):
    """A code holder asking as every player kept the real players out, and recovery took a refusal a player, each
    renewing the code: `share refuse all` keeps every waiting phone out at once, the new code shown (not said), and
    a real phone then asks with it."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            assert (await table.share.control("refuse all")).lines == (no_phone_waits(),)
            old = table.server.current_code()
            async with table.phone() as holder, table.phone() as second, table.phone() as third:
                for phone, player in ((holder, "Ana"), (second, "Ben"), (third, "Cy")):  # one holder, three cookies
                    await ask_to_join(phone, player)
                refused = await table.share.control("refuse all")
                new = table.server.current_code()
                assert new != old and refused.lines == (phones_kept_out(["Ana", "Ben", "Cy"]), code_shown(new))
                assert (
                    refused.speech
                    == phones_kept_out(["Ana", "Ben", "Cy"])
                    == ("3 waiting phones kept out, asking for Ana, Ben and Cy.")
                )
                assert table.session.pending is None and table.session.phone_desk.devices.waiting() == []
                for phone in (holder, second, third):
                    status, body, _ = await phone.get("/api/me")
                    assert (status, body) == (401, {"error": PHONE_KEPT_OUT, "gone": "refused"})
            await ask_to_join(table, "Ben")  # the real Ben, with the code shown on the laptop
            assert untag(table.session.said[-1].lines) == (new_phone_asks("Ben"),)

    run(scenario())


def test_a_phone_asking_to_join_a_player_with_three_phones_is_refused(tmp_path):
    """Before, the first Ben phone let in 61 more in 50 s with no host action."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table, contextlib.AsyncExitStack() as stack:
            phones = [await stack.enter_async_context(table.phone()) for _ in range(4)]
            for phone in phones[:3]:
                await phone.join("Ben")
            status, body, _ = await phones[3].post("/api/join", {"code": joined_code(table), "player": "Ben"})
            assert (status, body) == (409, {"error": too_many_phones("Ben", 3)})
            assert table.server.devices.players() == ["Ben"] * 3

    run(scenario())


def test_the_pages_own_labels_are_the_servers_word_for_word():
    """The page's HTML holds each label's default only until the server's words come: they are the same text, the
    `<title>` included, so a page that never hears from the server reads as one that did."""
    from html.parser import HTMLParser
    from importlib import resources

    from assistant.core.words.share import PAGE_LABELS

    class Labels(HTMLParser):
        """Each element carrying a word, with its text: one entry per element (a label may stand twice)."""

        def __init__(self) -> None:
            super().__init__()
            self.found: list[tuple[str, list[str]]] = []
            self.open: list[list[str] | None] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in ("meta", "link", "input", "br", "img"):  # no end tag
                return
            key = dict(attrs).get("data-word") or ("title" if tag == "title" else None)
            text: list[str] | None = [] if key else None
            if key and text is not None:
                self.found.append((key, text))
            self.open.append(text)

        def handle_endtag(self, tag: str) -> None:
            if self.open:
                self.open.pop()

        def handle_data(self, data: str) -> None:
            for text in self.open:
                if text is not None:
                    text.append(data)

    page = Labels()
    page.feed(resources.files("assistant.share").joinpath("page", "index.html").read_text(encoding="utf-8"))
    assert len(page.found) > 20
    wrong = [(key, "".join(text)) for key, text in page.found if PAGE_LABELS.get(key) != "".join(text).strip()]
    assert not wrong, wrong


def test_a_phone_let_in_gets_every_card_of_the_game_to_search_during_a_drop(tmp_path):
    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            joined = await ask_to_join(table, "Ben")
            status, body, _ = await table.get("/api/cards?all=1")
            assert (status, body) == (403, {"error": phone_waits("Ben")})  # nothing before the host lets it in
            assert joined["waiting"]
            await table.share.control("allow")
            status, body, _ = await table.get("/api/cards?all=1")
            ids = [card["id"] for card in body["cards"]]
            assert status == 200 and len(ids) == len(CARDS) and len(set(ids)) == len(ids)
            assert {"id": "rainbow-aura", "name": "Rainbow Aura"}.items() <= body["cards"][
                ids.index("rainbow-aura")
            ].items()

    run(scenario())


def test_a_phone_hears_its_own_players_moves_in_its_own_words(tmp_path):
    """Before, Ben's phone showed "Ben drew a card." of Ben's own draw; now "You drew a card.", and every other phone
    the table's words."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table, table.phone() as cy:
            for line in ("draw", "play rainbow aura"):
                table.share.after(table.session.handle(line))  # typed on the laptop, as the front ends do
            csrf = await table.join("Ben")
            await cy.join("Cy")
            status, body, _ = await table.post("/api/move", move("neigh", "key-own-words-1", on="rainbow-aura"), csrf)
            assert status == 200 and body["status"] == "recorded", body
            status, mine, _ = await table.get("/api/state")
            status, theirs, _ = await cy.get("/api/state")
            assert said(mine)[-1] == "You played Neigh."
            assert said(theirs)[-1] == "Ben played Neigh."
            table.share.after(table.session.handle("resolve"))
            typed = table.session.handle("Ben play yay into Cy")  # typed on the laptop: still Ben's own move
            table.share.after(table.session.handle("yes") if asks(typed) else typed)
            status, mine, _ = await table.get("/api/state")
            assert "You played Yay into Cy's Stable." in said(mine)

    run(scenario())


def test_a_phone_never_shows_its_own_players_name_as_news(tmp_path):
    """A resolve names no player, so the laptop says whose phone it came from ("Cy, from a phone: ..."); before, Cy's
    own phone showed that too. The other phones name Cy in their own words ("Cy: ..."), never the laptop's."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table, table.phone() as cy:
            for line in ("draw", "play rainbow aura"):
                table.share.after(table.session.handle(line))
            csrf = await table.join("Ben")
            cy_csrf = await cy.join("Cy")
            await table.post("/api/move", move("neigh", "key-news-0001", on="rainbow-aura"), csrf)
            status, body, _ = await cy.post("/api/move", move("resolve", "key-news-0002"), cy_csrf)
            assert status == 200 and body["status"] == "recorded", body
            resolved = "Ben's Neigh resolves: Ana's Rainbow Aura is Neighed and goes to the discard pile."
            status, theirs, _ = await table.get("/api/state")
            status, mine, _ = await cy.get("/api/state")
            assert said(theirs)[-1] == f"Cy: {resolved}"
            assert said(mine)[-1] == resolved

    run(scenario())


def test_a_phone_left_waiting_five_minutes_is_told_and_the_real_phone_may_ask(tmp_path):
    """Before, a waiting phone never expired: one whose question a typed command passed over kept the real player's
    phone out with 409 for ever, in silence."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            async with table.phone() as stranger, table.phone() as ben:
                await ask_to_join(stranger, "Ben")
                table.clock.now += guards.WAIT_LIMIT
                status, body, _ = await stranger.get("/api/state")
                assert (status, body) == (401, {"error": WAIT_EXPIRED, "gone": "expired"})
                assert (
                    WAIT_EXPIRED
                    == "Nobody let this phone in within 5 minutes, so it stopped waiting. Ask to join again."
                )
                await ask_to_join(ben, "Ben")  # the real phone asks, and the host is asked about it

    run(scenario())


def test_a_phones_move_whose_words_waited_is_said_by_the_timer_once_due_through_the_moves_own_path(tmp_path):
    """Ben's phone discards twice, the second within `SPOKEN_EVERY` of the first's line: it is shown at once and its
    words wait; once due on the desk's clock, the share's timer hands `HeldMovesDue` to the session's owner the way
    a move comes (`submit`), and the front end says the line. Before, every recorded move was said at once."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            table.session.phone_desk.clock = table.clock
            csrf = await table.join("Ben")
            heard = asyncio.Event()
            submit = table.share.submit

            async def spied(player: str, request: Any) -> Any:
                outcome = await submit(player, request)
                if isinstance(request, HeldMovesDue) and outcome.reply is not None:
                    heard.set()
                return outcome

            table.share.submit = spied
            table.clock.now += SPOKEN_EVERY  # (the join was said: a quiet while after it)
            status, body, _ = await table.post("/api/move", move("discard", "key-held-0001"), csrf)
            assert (status, body["status"]) == (200, "recorded") and table.said[-1].reply.speech
            table.clock.now += SPOKEN_EVERY - 0.1
            status, body, _ = await table.post("/api/move", move("discard", "key-held-0002"), csrf)
            assert (status, body["status"]) == (200, "recorded")
            assert table.said[-1].reply.lines and not table.said[-1].reply.speech  # shown, its words wait
            table.clock.now += 0.1  # due now: the timer (0.1 s) says it
            await asyncio.wait_for(heard.wait(), PATIENCE)
            said = table.said[-1]
            assert said.status == "said" and said.reply.speech == "Ben discarded a card." and not said.reply.lines
            assert table.session.phone_desk.next_due() is None

    run(scenario())


def test_a_holder_asking_three_times_as_one_player_never_keeps_the_real_phone_out(tmp_path):
    """A code holder asks to join as Ben 3 times from one address, filling his places with phones that wait. Before,
    the real Ben's phone was refused (409) for as long as they waited (5 minutes), and the host heard once. Now a
    waiting phone holds no place against a newer one: the holder's oldest makes room (told why at its next request),
    the real phone waits and is let in by the short name it shows; the holder asking again from its address turns
    over its own places only, never the real phone's."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table, contextlib.AsyncExitStack() as stack:
            holders = [await stack.enter_async_context(table.phone("127.0.0.2")) for _ in range(guards.MOST_PHONES)]
            tags = [(await ask_to_join(holder, "Ben"))["tag"] for holder in holders]
            ben = await stack.enter_async_context(table.phone("127.0.0.3"))
            real = (await ask_to_join(ben, "Ben"))["tag"]  # not refused: the holder's oldest made room
            status, body, _ = await holders[0].get("/api/state")
            assert (status, body["error"], body["gone"]) == (401, PHONE_DISPLACED, "displaced")
            for _ in range(2 * guards.MOST_PHONES):  # the holder asks again and again from its address
                async with table.phone("127.0.0.2") as again:
                    await ask_to_join(again, "Ben")
            waiting = [d.tag for d in table.server.devices.by_token.values() if d.player == "Ben" and d.waiting]
            assert real in waiting and len(waiting) == guards.MOST_PHONES and tags[0] not in waiting
            reply = await table.share.control(f"allow {real}")  # the name the real Ben's phone shows
            assert reply.lines[0].endswith("joined the table.")
            status, view, _ = await ben.get("/api/state")
            assert status == 200 and view["game"]["current"] == "Ana"

    run(scenario())


def test_only_places_taken_by_phones_let_in_refuse_a_phone_and_the_waiting_ones_are_bounded(tmp_path):
    """A player's places all let in: a new phone is refused (409); phones that wait never exceed `MOST_WAITING` on
    the table, the oldest making room for the newest (from many addresses, as every player)."""

    async def scenario() -> None:
        async with shared_table(tmp_path, "Ana Ben Cy Dee", "red pink orange yellow") as table:
            for number in range(guards.MOST_PHONES):
                async with table.phone(f"127.0.1.{number + 1}") as ben:
                    await ben.join("Ben")
            async with table.phone("127.0.1.9") as other:
                status, body, _ = await other.post("/api/join", {"code": table.server.current_code(), "player": "Ben"})
                assert (status, body) == (409, {"error": too_many_phones("Ben", guards.MOST_PHONES)})
            for number in range(3 * guards.MOST_WAITING):
                async with table.phone(f"127.0.2.{number + 1}") as phone:
                    await ask_to_join(phone, ("Ana", "Cy", "Dee")[number % 3])
            waiting = [d for d in table.server.devices.by_token.values() if d.waiting]
            assert len(waiting) == guards.MOST_WAITING
            assert [d.address for d in waiting] == [f"127.0.2.{n + 1}" for n in range(2 * guards.MOST_WAITING, 24)]

    run(scenario())


def test_a_join_question_a_typed_command_passed_over_is_asked_again_after_its_answer(tmp_path):
    """Before, any typed command dropped the host's question about a waiting phone, and nothing asked it again: the
    phone waited in silence and kept the player's real phone out."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await ask_to_join(table, "Ben")
            reply = table.session.handle("draw")  # typed 30 ms after the join: the question is passed over
            assert untag(reply.lines[-1]) == new_phone_asks("Ben")
            assert table.session.handle("yes").lines == (phone_let_in("Ben", 1),)
            assert table.server.devices.players() == ["Ben"]

    run(scenario())


def test_history_never_says_the_join_code_a_refusal_renewed(tmp_path):
    """Before, `history` said every line shown, "New join code on the screen: 0 8 6 7 0 7." too: the phone kept out
    heard the new code and asked again with it."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            await ask_to_join(table, "Ben")
            refused = table.session.handle("no")
            new = table.server.current_code()
            assert code_shown(new) in refused.lines and new not in refused.speech.replace(" ", "")
            reviewed = table.session.handle("history")
            assert code_shown(new) in reviewed.lines  # shown again
            assert new not in reviewed.speech.replace(" ", "") and " ".join(new) not in reviewed.speech  # never said
            repeated = table.session.handle("repeat")
            assert " ".join(new) not in repeated.speech

    run(scenario())


def test_a_code_holder_asking_as_every_player_holds_no_place_the_real_phone_is_asked_about_beside_it(tmp_path):
    """A code holder asks to join as every player first. Before, the real player's phone was refused (409) for as
    long as the holder's waited, up to 5 minutes each, and getting it in took a refusal that renewed the code. Now the
    real phone waits beside it, the host hears both short names and lets in the one the player's phone shows, with
    no code renewed and nothing to give the player again."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            holder = {player: (await ask_to_join(table, player))["tag"] for player in ("Ana", "Ben", "Cy")}
            code = table.server.current_code()
            async with table.phone() as ben:
                real = (await ask_to_join(ben, "Ben"))["tag"]  # not refused: it waits beside the holder's
                said = laptop_said(table)[-1]
                assert said == new_phone_waits("Ben", real, (holder["Ben"],))
                assert f"share allow {real}" in said and holder["Ben"].capitalize() in said
                reply = await table.share.control("allow Ben")  # which of the two: not for her to guess
                assert reply.lines == (phones_wait_for("Ben", (holder["Ben"], real)),)
                assert table.server.devices.players() == []
                reply = await table.share.control(f"allow {real}")  # the name Ben's own phone shows
                assert reply.lines[0] == phone_let_in("Ben", 2)
                status, view, _ = await ben.get("/api/state")
                assert status == 200 and view["game"]["current"] == "Ana"
                assert table.server.current_code() == code  # nothing renewed: nothing to tell the table again
                await table.share.control(f"refuse {holder['Ben']}")
                assert [d.tag for d in table.server.devices.by_token.values() if d.player == "Ben"] == [real]

    run(scenario())


def test_the_timer_for_words_that_waited_is_put_off_for_none_and_brought_forward_for_words_due_sooner(tmp_path):
    """One timer at a time (`TableShare._arm`): set for Ben's words due in 5 s, Cy's due in 0.5 s bring it forward
    (before, Cy's waited behind Ben's timer), and Dee's due in 2 s leave it."""

    async def scenario() -> None:
        async with shared_table(tmp_path) as table:
            loop = asyncio.get_running_loop()
            table.share._arm("Ben", 5.0)
            table.share._arm("Cy", 0.5)
            when = table.share._held.when()
            assert when <= loop.time() + 0.5
            table.share._arm("Dee", 2.0)
            assert table.share._held.when() == when

    run(scenario())


def test_a_short_name_the_host_heard_for_a_phone_taken_off_never_names_the_next_one():
    """A phone taken off (displaced, refused, removed, expired) leaves the short name the host heard it by; the next
    phones that ask get other names while any is free (`Devices.given`), so "share allow white 7" said for the phone
    she heard of never lets in another. Before, a freed name was drawn again at once: 1 in 64 the very next phone."""
    devices = guards.Devices(clock=lambda: 0.0)
    heard = []
    for _ in range(devices.given.maxlen or 0):
        device = devices.join("Ben", "192.0.2.9")
        assert device is not None
        heard.append(device.tag)
        devices.make_room("Ben", "192.0.2.9")
        del devices.by_token[device.token]  # taken off, as each way of taking a phone off does
    assert len(set(heard)) == len(heard) == 32
    following = devices.join("Ben", "192.0.2.9")
    assert following is not None and following.tag not in heard
