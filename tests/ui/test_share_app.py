"""The shared table in the front ends: the Textual app (Pilot, speech recorded through the real speech service to a
transcript) and the plain mode, each sharing on 127.0.0.1 with a phone's requests sent there. A phone's move is
shown, said (with whose move it was) and answered to the phone; a phone's warning and the keyboard's question leave
each other open; the share commands answer in both modes."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import threading
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from io import StringIO
from typing import Any

import aiohttp

from assistant.core.game.history import Phone as SavedPhone
from assistant.core.language.reply import Question
from assistant.core.words.share import (
    CODE_GUESSED,
    CODE_READY,
    NO_DEVICES,
    QR_KEY,
    SHARE_STOPPED,
    code_shown,
    device_list,
    device_removed,
    new_phone_asks,
    new_phone_waits,
    phone_asks,
    phone_kept_out,
    phone_let_in,
    phone_waits,
)
from assistant.session import Session
from assistant.speech import SpeechService
from assistant.speech.replies import ReplySpeaker
from assistant.speech.transcript import Transcript
from assistant.storage.decks import load_card_set
from assistant.ui.plain import run_plain
from benchmarks.speech import read_transcript
from tests.fake_speaker import Heard
from tests.qr_reading import read_qr
from tests.recording_backend import RecordingBackend
from tests.share_table import untag

PATIENCE = 60
SHARED = re.compile(r"shared at (?P<address>http://127\.0\.0\.1:(?P<port>\d+))/\. The join code is (?P<code>[0-9 ]+)\.")


def text(app: Any, widget_id: str) -> str:
    return str(app.query_one(f"#{widget_id}").render())


class Phone:
    """A phone's requests from the app's own loop (the server answers on it)."""

    def __init__(self, http: aiohttp.ClientSession, server: Any) -> None:
        self.http, self.server, self.csrf = http, server, ""
        self.keys = 0

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        headers = {"Origin": self.server.origin, "Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        async with self.http.post(f"{self.server.origin}{path}", data=json.dumps(body), headers=headers) as r:
            return r.status, await r.json()

    async def join(self, player: str) -> None:
        status, body = await self.post("/api/join", {"code": self.server.current_code(), "player": player})
        assert status == 200, body
        self.csrf = body["csrf"]

    async def move(self, verb: str, **fields: Any) -> dict[str, Any]:
        self.keys += 1
        status, body = await self.post("/api/move", {"key": f"key-{verb}-{self.keys:06d}", "verb": verb, **fields})
        assert status == 200, body
        return body

    async def answer(self, question: str, yes: bool) -> dict[str, Any]:
        self.keys += 1
        body = {"key": f"key-answer-{self.keys:06d}", "question": question, "answer": "yes" if yes else "no"}
        status, answer = await self.post("/api/answer", body)
        assert status == 200, answer
        return answer


def test_a_phones_move_is_shown_and_said_in_the_app_and_the_questions_stay_apart(make_app, tmp_path):
    path = tmp_path / "said.txt"
    service = SpeechService(RecordingBackend(), transcript=Transcript(path))
    assert service.ready.wait(60)
    others: list[str] = []

    class Hands(ReplySpeaker):
        """The real speaker, noting the replies said for another hand (a phone's move: said in turn)."""

        def other(self, reply: Any) -> None:
            others.append(reply.speech)
            super().other(reply)

    app = make_app(Hands(service), "--share", "127.0.0.1:0")

    def said() -> list[str]:
        return [line for _, kind, line in read_transcript(path) if kind.startswith(("message", "important"))]

    async def typed(pilot: Any, line: str) -> None:
        await pilot.press(*line, "enter")
        await pilot.pause()

    async def scenario() -> None:
        async with app.run_test(size=(110, 70)) as pilot:
            for _ in range(400):  # the server starts in a worker as the app opens
                if app.share.link.server is not None:
                    break
                await pilot.pause(0.05)
            server = app.share.link.server
            assert server is not None and server.host == "127.0.0.1"
            shown = text(app, "share")
            first = f"{text(app, 'answer')}\n{shown}"  # (the newest answer says where: the region, not again)
            assert first.count(server.address) == 1 and " ".join(server.current_code()) in first and QR_KEY in shown
            assert "▀" not in shown  # the QR code is drawn alone, on F10 (tests/ui/test_share_qr.py)
            await typed(pilot, "new game Ana Ben Cy babies red pink orange")
            jar, second_jar = aiohttp.CookieJar(unsafe=True), aiohttp.CookieJar(unsafe=True)
            timeout = aiohttp.ClientTimeout(total=PATIENCE)
            async with (
                aiohttp.ClientSession(cookie_jar=jar, timeout=timeout) as http,
                aiohttp.ClientSession(cookie_jar=second_jar, timeout=timeout) as second_http,
            ):
                ana = Phone(http, server)
                await ana.join("Ana")
                await pilot.pause()
                assert untag(text(app, "answer")) == new_phone_asks("Ana")  # the host is asked, and answers
                await typed(pilot, "yes")
                assert text(app, "answer") == phone_let_in("Ana", 1)
                old = server.current_code()
                async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), timeout=timeout) as cy:
                    await Phone(cy, server).join("Cy")
                await pilot.pause()
                await typed(pilot, "no")  # kept out: a new code, shown at once in the share region, never said
                new = server.current_code()
                assert new != old and text(app, "answer") == f"{phone_kept_out('Cy')}\n{code_shown(new)}"
                assert " ".join(new) in text(app, "share") and " ".join(old) not in text(app, "share")
                answer = await ana.move("draw")
                await pilot.pause()
                assert answer == {"status": "recorded", "lines": ["Ana drew a card.", "Action phase."]}
                assert text(app, "answer") == "Ana drew a card.\nAction phase."
                assert service.wait_idle(10)
                assert said()[-1] == "Ana drew a card. Action phase."
                # the join's question and the move, each said as another hand's: never cutting what is said
                assert untag(others) == [new_phone_asks("Ana"), new_phone_asks("Cy"), "Ana drew a card. Action phase."]
                assert new_phone_asks("Ana") in untag(said())
                assert app.session.game.log[-1].player == 0
                read = await ana.move("read", card="rainbow-aura")  # a card's text: on the phone alone
                await pilot.pause()
                assert read["status"] == "text" and read["lines"][0] == "Rainbow Aura"
                assert text(app, "answer") == "Ana drew a card.\nAction phase."  # nothing shown on the laptop
                assert service.wait_idle(10)
                assert untag(others) == [
                    new_phone_asks("Ana"),
                    new_phone_asks("Cy"),
                    "Ana drew a card. Action phase.",
                ]  # nor said

                await typed(pilot, "play rainbow aura")
                await typed(pilot, "resolve")
                await typed(pilot, "play yay")  # a second play: the keyboard is asked
                keyboard = app.session.pending
                assert isinstance(keyboard, Question)
                warned = await ana.move("play", card="slowdown", target="Ben")  # the phone is asked too
                await pilot.pause()
                assert warned["status"] == "warning" and "anyway?" in warned["lines"][0]
                assert app.session.pending is keyboard  # the keyboard's question is still the keyboard's
                assert text(app, "answer") == phone_asks("Ana's phone")  # said, and nothing asked of the host
                answered = await ana.answer(warned["question"], yes=True)  # the phone's answer, its own question
                await pilot.pause()
                assert (
                    answered["status"] == "recorded"
                    and answered["lines"][0] == "Ana played Slowdown into Ben's Stable."
                )
                assert app.session.pending is keyboard
                await typed(pilot, "no")  # and the keyboard's own answer
                assert text(app, "answer").startswith("Not recorded.")
                assert app.session.game.state.pile[-1].card == "slowdown"

                await typed(pilot, "resolve")
                warned = await ana.move("play", card="yay")
                await typed(pilot, "play basic red")  # the keyboard asks while the phone's question waits
                assert isinstance(app.session.pending, Question)
                answered = await ana.answer(warned["question"], yes=False)
                await pilot.pause()
                assert answered == {"status": "refused", "lines": ["Not recorded."]}
                assert isinstance(app.session.pending, Question)  # the phone's no did not answer the keyboard

                second = Phone(second_http, server)  # a second phone for Ana: it waits for the host
                await second.join("Ana")
                await pilot.pause()
                assert untag(text(app, "answer")) == new_phone_waits("Ana")  # the keyboard's question is left open
                status, refused = await second.post("/api/move", {"key": "key-second-0001", "verb": "discard"})
                assert (status, refused) == (403, {"error": phone_waits("Ana")})
                await typed(pilot, "share allow ana")
                await pilot.pause()
                assert text(app, "answer") == phone_let_in("Ana", 2)
                assert (await second.move("discard"))["status"] in ("recorded", "warning")

                await typed(pilot, "share devices")
                await pilot.pause()
                assert untag(text(app, "answer")) == device_list([("Ana's phone", ""), ("Ana's phone 2", "")])
                code = server.current_code()
                await typed(pilot, "share remove ana")
                await pilot.pause()
                new = server.current_code()
                assert new != code and text(app, "answer") == f"{device_removed('Ana', 2)}\n{code_shown(new)}"
                assert " ".join(new) in text(app, "share")  # the new code is shown at once
                status, _ = await ana.post("/api/move", {"key": "key-after-removed", "verb": "draw"})
                assert status == 401
                await typed(pilot, "share off")
                await pilot.pause()
                assert text(app, "answer") == SHARE_STOPPED and not app.query_one("#share").display

    try:
        asyncio.run(asyncio.wait_for(scenario(), PATIENCE * 3))
    finally:
        service.close()


def test_the_app_says_why_and_shows_a_new_code_when_someone_guesses_the_code(make_app):
    heard: list[str] = []
    app = make_app(Heard(lambda reply: heard.append(reply.speech)), "--share", "127.0.0.1:0")

    async def scenario() -> None:
        async with app.run_test(size=(110, 70)) as pilot:
            for _ in range(400):  # the server starts in a worker as the app opens
                if app.share.link.server is not None:
                    break
                await pilot.pause(0.05)
            server = app.share.link.server
            old = server.current_code()
            wrong = f"{(int(old) + 1) % 10**6:06d}"
            for number in range(20):  # 20 addresses, one wrong code each
                connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{number + 2}", 0), force_close=True)
                async with aiohttp.ClientSession(connector=connector) as http:
                    headers = {"Origin": server.origin, "Content-Type": "application/json"}
                    body = json.dumps({"code": wrong})
                    async with http.post(f"{server.origin}/api/code", data=body, headers=headers) as r:
                        assert r.status == 403
            await pilot.pause()
            new = server.current_code()
            assert new != old
            assert text(app, "answer") == f"{CODE_GUESSED}\n{code_shown(new)}"
            assert heard[-1] == CODE_GUESSED  # the code is shown, never said: whoever guesses may hear it
            assert " ".join(new) in text(app, "share") and " ".join(old) not in text(app, "share")

    asyncio.run(asyncio.wait_for(scenario(), PATIENCE * 2))


def _request(port: int, method: str, path: str, body: Any = None, cookie: str = "", csrf: str = "") -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
    headers = {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json", "X-CSRF-Token": csrf}
    if cookie:
        headers["Cookie"] = cookie
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = json.loads(response.read())
    cookie_out = response.getheader("Set-Cookie", "")
    connection.close()
    return response.status, data, cookie_out


@dataclass
class Plain:
    """The plain mode of a new game of Ana, Ben and Cy: its session, what it printed, what it said."""

    session: Session = field(default_factory=lambda: Session(load_card_set()))
    out: StringIO = field(default_factory=StringIO)
    heard: list[str] = field(default_factory=list)

    def shared(self) -> Generator[str, None, tuple[int, str]]:
        """The first lines typed: the new game, then `share` on 127.0.0.1; the port and join code it said (`yield
        from` it in the lines typed)."""
        yield "new game Ana Ben Cy babies red pink orange"
        yield "share 127.0.0.1:0"
        found = SHARED.search(self.out.getvalue())
        assert found is not None, self.out.getvalue()
        return int(found["port"]), found["code"].replace(" ", "")

    def run(self, lines: Iterator[str], hands: type[Heard] = Heard) -> list[str]:
        """Run the plain mode on the lines typed, each reply said through `hands`; the lines it printed."""
        assert run_plain(self.session, lines, self.out, hands(lambda reply: self.heard.append(reply.speech))) == 0
        return self.out.getvalue().splitlines()


def test_the_plain_mode_shares_and_records_two_phones_moves_under_its_lock():
    plain = Plain()
    session, heard = plain.session, plain.heard
    answers: list[Any] = []

    def phones() -> Iterator[str]:
        """The lines typed; between them, two phones join and Neigh at the same moment."""
        port, code = yield from plain.shared()
        yield "draw"
        yield "play rainbow aura"
        devices = []
        for player in ("Ben", "Cy"):
            status, body, cookie = _request(port, "POST", "/api/join", {"code": code, "player": player})
            assert status == 200
            devices.append((player, cookie.split(";")[0], body["csrf"]))
        yield "yes"  # Ben's phone; then Cy's is asked
        yield "yes"

        def neigh(player: str, cookie: str, csrf: str) -> None:
            move = {"key": f"key-neigh-{player}", "verb": "neigh", "on": "rainbow-aura"}
            answers.append(_request(port, "POST", "/api/move", move, cookie, csrf))

        threads = [threading.Thread(target=neigh, args=device) for device in devices]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(PATIENCE)
        status, body, cookie = _request(port, "POST", "/api/join", {"code": code, "player": "Ben"})
        assert status == 200 and body["waiting"] is True  # a second phone for Ben: the laptop is asked
        second = (cookie.split(";")[0], body["csrf"])
        yield "yes"
        answers.append(_request(port, "POST", "/api/move", {"key": "key-second-ben", "verb": "resolve"}, *second))
        yield "share devices"
        yield "share remove ben"
        yield "share off"
        yield "quit"

    class Hands(Heard):
        """Which hand each reply is said for: the player's own keys, or another's (a phone's move, said in turn)."""

        def other(self, reply: Any) -> None:
            others.append(reply.speech)
            super().other(reply)

    others: list[str] = []
    printed = plain.run(phones(), Hands)
    joins = [new_phone_asks("Ben"), new_phone_waits("Cy"), new_phone_asks("Ben")]
    neighs = ["Ben played Neigh. Neigh?", "Cy played Neigh. Neigh?"]
    assert sorted(untag(others[:-1])) == sorted(joins + neighs)  # said in turn, never cutting the speech
    assert [a[0] for a in answers] == [200] * 3 and [a[1]["status"] for a in answers] == ["recorded"] * 3
    assert phone_let_in("Ben", 2) in printed
    assert session.game.phone_of(session.game.log[-1]) == SavedPhone(1, 2)  # the resolve, from Ben's second phone
    responders = [event.player for event in session.game.log[-3:-1]]
    assert sorted(responders) == [1, 2]  # both recorded, in the order they arrived
    first, second = ("Ben", "Cy") if responders == [1, 2] else ("Cy", "Ben")
    assert printed.index(f"{first} played Neigh.") < printed.index(f"{second} played Neigh.")  # both said, in order
    assert heard.index(f"{first} played Neigh. Neigh?") < heard.index(f"{second} played Neigh. Neigh?")
    listed = device_list([("Ben's phone", ""), ("Cy's phone", ""), ("Ben's phone 2", "")])
    assert listed in untag(printed) and SHARE_STOPPED in printed
    removed = printed.index(device_removed("Ben", 2))  # the new code not printed: plain mode's lines are read aloud
    assert printed[removed + 1] == CODE_READY and not any(line.startswith("New join code") for line in printed)
    assert NO_DEVICES not in printed


def test_the_plain_mode_says_why_and_shows_a_new_code_when_someone_guesses_the_code():
    """Strangers at 7 addresses try 3 wrong codes each: at the 20th the laptop says why the code changed, and shows
    the new code without saying it."""
    plain = Plain()

    def lines() -> Iterator[str]:
        port, code = yield from plain.shared()
        wrong = f"{(int(code) + 1) % 10**6:06d}"
        for number in range(2, 9):
            for _ in range(3):
                connection = http.client.HTTPConnection(
                    "127.0.0.1", port, timeout=PATIENCE, source_address=(f"127.0.0.{number}", 0)
                )
                headers = {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json"}
                connection.request("POST", "/api/code", body=json.dumps({"code": wrong}), headers=headers)
                assert connection.getresponse().status in (403, 429)
                connection.close()
        yield "share"
        yield "quit"

    printed, heard = plain.run(lines()), plain.heard
    codes = [found["code"].replace(" ", "") for found in map(SHARED.search, printed) if found is not None]
    assert len(codes) == 2 and codes[0] != codes[1]  # `share` says the new code
    told = printed.index(CODE_GUESSED)
    assert printed[told + 1] == CODE_READY and not [line for line in printed[: told + 2] if codes[1] in line]
    assert [line for line in heard if CODE_GUESSED in line] == [CODE_GUESSED]  # the new code is not said


def test_the_qr_code_drawn_in_text_reads_back_as_the_pages_address_with_the_code():
    """Each character is two modules (half blocks); drawn as a light terminal shows them, a real decoder reads it."""
    from assistant.ui.share_link import qr_text

    url = "http://192.168.1.20:40123/?code=407119"
    assert read_qr(qr_text(url).splitlines()) == [url]


def test_in_the_app_a_save_of_the_hosts_card_waits_behind_her_question_and_is_asked_and_said_after(make_app, tmp_path):
    """Ana at the laptop has a question open when Ben's phone destroys her Basic Unicorn, which her Black Knight
    Unicorn may save: the laptop says the save waits, her question stays hers; once she answers it, the save is
    shown and said (through the real speech service) as hers to answer, and her yes records it as Ben's phone's
    move. Before, Ben's phone was asked, and she heard only "Ben's phone is asked whether to save it."."""
    from assistant.core.game.events import Save
    from assistant.core.words.share import host_asked, save_waits

    path = tmp_path / "said.txt"
    service = SpeechService(RecordingBackend(), transcript=Transcript(path))
    assert service.ready.wait(60)
    app = make_app(ReplySpeaker(service), "--share", "127.0.0.1:0")
    question = "Ana may save Basic Unicorn (Red) by sacrificing Black Knight Unicorn instead. Save it?"

    def said() -> list[str]:
        return [line for _, kind, line in read_transcript(path) if kind.startswith(("message", "important"))]

    async def typed(pilot: Any, line: str) -> None:
        await pilot.press(*line, "enter")
        await pilot.pause()

    async def scenario() -> None:
        async with app.run_test(size=(110, 70)) as pilot:
            for _ in range(400):  # the server starts in a worker as the app opens
                if app.share.link.server is not None:
                    break
                await pilot.pause(0.05)
            server = app.share.link.server
            assert server is not None
            await typed(pilot, "new game Ana Ben Cy babies red pink orange")
            timeout = aiohttp.ClientTimeout(total=PATIENCE)
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), timeout=timeout) as http:
                ben = Phone(http, server)
                await ben.join("Ben")
                await pilot.pause()
                await typed(pilot, "yes")  # Ben's phone let in
                for line in ("bring black knight unicorn into Ana", "bring basic red into Ana", "draw", "end turn"):
                    await typed(pilot, line)
                for line in ("Ben draw", "Ben play unicorn poison", "resolve", "play yay"):
                    await typed(pilot, line)
                keyboard = app.session.pending
                assert isinstance(keyboard, Question)  # her own question: the chain must resolve first
                asked = await ben.move("destroy", card="basic-unicorn-red", target="Ana")
                await pilot.pause()
                assert asked == {"status": "asked", "lines": [host_asked("Ana", saving=True, later=True)]}
                assert text(app, "answer") == save_waits("Ana", "Ben")
                assert app.session.pending is keyboard
                await typed(pilot, "no")  # her question answered: then the save is asked of her
                assert text(app, "answer").splitlines()[-1].startswith(question)
                assert isinstance(app.session.pending, Question)
                assert service.wait_idle(20)
                assert save_waits("Ana", "Ben") in said() and any(question in line for line in said())
                assert not any("phone is asked whether to save" in line for line in said())
                await typed(pilot, "yes")
                game = app.session.game
                assert game.log[-1] == Save(0, "basic-unicorn-red", "black-knight-unicorn")
                assert game.phone_of(game.log[-1]) == SavedPhone(1)

    try:
        asyncio.run(asyncio.wait_for(scenario(), PATIENCE * 3))
    finally:
        service.close()
