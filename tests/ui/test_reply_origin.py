"""Every front end renders a reply as its origin asks (`Reply.origin`), in the app and in plain mode alike: her own
key's answer as new input, a notice (the braille display lost or back) without making what waits to be said
stale, another hand's move in turn; plain mode's fan-out is the app's, with no flags of its own."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO

import pytest

from assistant.core.braille import celltable
from assistant.core.braille.display import BrailleView
from assistant.core.language.device import DeviceMove
from assistant.core.language.reply import AT_ONCE, NOTICE, Origin, Reply, Source
from assistant.session import Session
from assistant.speech.replies import ReplySpeaker
from assistant.storage.decks import load_card_set
from assistant.ui import plain
from assistant.ui.braille_display import DisplayLink
from assistant.ui.plain import run_plain
from assistant.ui.share_link import apply_device
from tests.ui.plain_share import FakeShare

NEW_GAME = "new game Ana Ben Cy babies red pink narwhal win 3"


class Said:
    """A speaker that notes how each reply was said: as new input, as a notice, or in turn for another hand. Its
    `render` is the real speaker's, which chooses by the reply's origin."""

    render = ReplySpeaker.render

    def __init__(self) -> None:
        self.heard: list[tuple[str, str]] = []

    def __call__(self, reply: Reply) -> None:
        self.heard.append(("new input", reply.speech))

    def notice(self, reply: Reply) -> None:
        self.heard.append(("notice", reply.speech))

    def other(self, reply: Reply) -> None:
        self.heard.append(("other hand", reply.speech))

    def control(self, command: str) -> str:
        return ""


class Display:
    """A 40-cell display that is there, keeping each row written, whose reader thread is the test: `listen` keeps
    the callbacks, called by the test when BRLTTY would."""

    lost = False
    width = 40

    def __init__(self) -> None:
        self.rows: list[str] = []
        self.back: Callable[[], object] | None = None
        self.stopped: Callable[[], object] | None = None

    def write(self, cells: str, cursor: int | None = None, frame: int = 0) -> None:
        self.rows.append(celltable.from_cells(cells[4:].rstrip(celltable.BLANK)))

    def settling(self) -> bool:
        return False

    def taken_back_anew(self) -> bool:
        return False

    def listen(self, on_press, on_lost=None, on_back=None, every=0.0, on_answered=None) -> None:
        self.back, self.stopped = on_back, on_lost

    def close(self) -> None:
        pass


@pytest.fixture
def shared(monkeypatch) -> None:
    monkeypatch.setattr(plain, "ThreadedShare", FakeShare)
    FakeShare.shows.clear()


def test_plain_mode_says_each_reply_as_its_origin_asks_as_the_app_does(shared):
    session = Session(load_card_set())
    display = Display()
    link = DisplayLink(display, BrailleView(40), session)  # type: ignore[arg-type]
    speaker = Said()
    moved: list[Reply] = []

    def lines():
        yield NEW_GAME
        outcome = apply_device(session, "Ana", DeviceMove("draw"))  # Ana's phone, between her lines
        assert outcome.reply is not None and outcome.reply.origin == Origin(Source.OTHER_HAND, "Ana")
        moved.append(outcome.reply)
        FakeShare.shows[0](outcome.reply)
        assert display.back is not None
        display.back()  # BRLTTY answers: the display's news, an answer at once
        yield "tally"

    assert run_plain(session, lines(), StringIO(), speaker, share="", display=link) == 0  # type: ignore[arg-type]
    kinds = [kind for kind, _ in speaker.heard]
    assert ("other hand", moved[0].speech) in speaker.heard
    assert kinds[-2:] == ["notice", "new input"]  # the display back made nothing stale; her `tally` did


def test_the_braille_display_holds_another_hands_move_unread_and_answers_her_key_at_once():
    session = Session(load_card_set())
    display = Display()
    link = DisplayLink(display, BrailleView(40), session)  # type: ignore[arg-type]
    link.render(session.handle(NEW_GAME))
    link.answered(link.view.frames)
    apply_device(session, "Ana", DeviceMove("draw"))
    ended = apply_device(session, "Ana", DeviceMove("end")).reply
    assert ended is not None
    shown = display.rows[-1]
    link.render(ended)  # another hand's: waits behind what is being read
    assert display.rows[-1] == shown and len(link.view.waiting) == 1
    link.render(Reply.of("Sharing.").coming(AT_ONCE))  # her F9's answer: at once
    assert display.rows[-1] == "sharing."
    link.render(Reply.of("The camera was unplugged.").coming(NOTICE))  # a notice: waits too
    assert display.rows[-1] == "sharing."


def test_plain_mode_hands_every_reply_to_every_front_end_and_each_decides_from_its_values(shared):
    """No front end is skipped by which one it is. That BRLTTY stopped answering reaches the display too, which keeps
    it (`Source.DISPLAY_LOST`) until it is back, and is overtaken then, as in the app; a speech key's answer reaches
    the speech, which does not say it again (`Control.SAID`: the speaker said it as it ran the key)."""

    class Muting(Said):
        def control(self, command: str) -> str:
            self.heard.append(("control", command))
            return "Speech muted."

    session = Session(load_card_set())
    display = Display()
    link = DisplayLink(display, BrailleView(40), session)  # type: ignore[arg-type]
    speaker = Muting()
    waited: list[tuple[bool, ...]] = []
    printed = StringIO()

    def lines():
        yield NEW_GAME
        assert display.stopped is not None and display.back is not None
        display.stopped()  # BRLTTY stopped answering
        waited.append(tuple(move.away for move in link.view.waiting))
        display.back()
        waited.append(tuple(move.away for move in link.view.waiting))
        yield "mute"

    assert run_plain(session, lines(), printed, speaker, display=link) == 0  # type: ignore[arg-type]
    assert waited == [(True,), ()]  # on the display while it is away, overtaken by its return
    assert ("notice", link.lost().speech) in speaker.heard  # said, and printed
    assert link.lost().lines[0] in printed.getvalue()
    assert speaker.heard[-1] == ("control", "mute") and "Speech muted." in printed.getvalue()
    assert not [said for said in speaker.heard if "Speech muted." in said[1]]  # said once, by the key itself


def recorded_app(make_app):
    """The app with what its speech hears and what a front end added beside the others is given, each a list of
    replies in order."""
    from fake_speaker import Heard

    heard: list[Reply] = []
    rendered: list[Reply] = []

    class Recorded:
        def render(self, reply: Reply) -> None:
            rendered.append(reply)

    app = make_app(Heard(heard.append))
    app.front_ends = (*app.front_ends, Recorded())
    return app, heard, rendered


def test_the_app_hands_a_camera_cue_to_every_front_end_each_treating_it_as_a_hint(make_app):
    """An aiming cue goes through the same fan-out as every other reply (`TableApp.front_ends`): the screen puts it
    on its camera line, leaving the answer alone; the speech hears it; a front end added beside them gets it too."""
    import asyncio

    from assistant.core.scanning.aiming import Cue
    from assistant.scanner.events import CueGiven
    from assistant.ui.messages import ScannerEvent

    app, heard, rendered = recorded_app(make_app)

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press(*"new game Ana Ben", "enter")
            await pilot.pause()
            answer = str(app.query_one("#answer").render())
            app.post_message(ScannerEvent(CueGiven(Cue.CLOSER)))
            await pilot.pause()
            cue = rendered[-1]
            assert cue.hint and heard[-1] is cue
            assert str(app.query_one("#camera").render()) == "\n".join(cue.lines)
            assert str(app.query_one("#answer").render()) == answer

    asyncio.run(scenario())


def test_the_app_hands_a_control_to_every_front_end_the_one_it_concerns_runs_it(make_app):
    """`stop` and `mute` typed go through the same fan-out as every other reply: the speech runs them as Escape and
    F5 (with no speech, the speech keys answer so on the status line), the screen puts the cursor on the answer for
    `stop`, and shows nothing new; the speech says nothing of them; a front end added beside them gets them too."""
    import asyncio

    from assistant.core.language.reply import Control
    from assistant.core.words.voice import NO_SPEECH_KEYS

    app, heard, rendered = recorded_app(make_app)

    async def scenario():
        async with app.run_test() as pilot:
            await pilot.press(*"new game Ana Ben", "enter")
            await pilot.pause()
            answer, said = str(app.query_one("#answer").render()), len(heard)
            await pilot.press(*"mute", "enter")
            await pilot.pause()
            assert rendered[-1].control is Control.SPEECH and rendered[-1].argument == "mute"
            assert app.feedback == NO_SPEECH_KEYS
            await pilot.press(*"stop", "enter")
            await pilot.pause()
            assert rendered[-1].control is Control.STOP
            assert str(app.query_one("#answer").render()) == answer and len(heard) == said

    asyncio.run(scenario())
