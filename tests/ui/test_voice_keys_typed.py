"""Every F key has a typed command, and her voice's dials turn by command and by key (issue 106, items 3 and 4):
`mute` and `private` do what F5 and F6 do, in the app, in the plain mode and from a braille display's keyboard (a
line typed there is a line); `rate 70`, `faster`, `volume 50`, `pitch 40` and `table rate 80` change the voice at
once, are said at the new setting and written to the settings file; a bad value gets the range and the setting now."""

from __future__ import annotations

import asyncio
import dataclasses
import io

import pytest

from assistant.commands.app import make_session
from assistant.commands.say import retuner
from assistant.core.language.reply import Control
from assistant.core.words.voice import SPEECH_MUTED, SPEECH_UNMUTED, dial_out_of_range, dial_set
from assistant.session import Session
from assistant.speech import SpeechService
from assistant.speech.replies import ReplySpeaker
from assistant.storage.decks import load_card_set
from assistant.storage.settings import load_settings
from assistant.ui.plain import run_plain
from tests.recording_backend import RecordingBackend


class Tuned(RecordingBackend):
    """The recording backend, which turns its dials as a WAV engine does and remembers each turn."""

    def __init__(self) -> None:
        super().__init__()
        self.turned: list[tuple[str, int]] = []

    def retune(self, dial: str, value: int) -> bool:
        self.turned.append((dial, value))
        return True


def speaker() -> tuple[ReplySpeaker, SpeechService, Tuned]:
    backend = Tuned()
    service = SpeechService(backend)
    assert service.ready.wait(30)
    return ReplySpeaker(service), service, backend


def said(backend: RecordingBackend) -> list[str]:
    return [record.text for record in backend.records if record.kind == "said"]


def test_mute_and_private_are_commands_the_front_end_runs():
    session = Session(load_card_set())
    for line in ("mute", "private", "Private reading"):
        reply = session.handle(line)
        assert (reply.control, reply.argument) == (Control.SPEECH, line.split()[0].lower())
        assert not reply.lines  # (not a card look-up: "No card called mute")


def test_mute_typed_in_the_app_mutes_as_f5_does(make_app):
    speak, service, _ = speaker()

    async def scenario():
        app = make_app(speak)
        async with app.run_test() as pilot:
            await pilot.press(*"mute", "enter")
            await pilot.pause()
            assert service.muted
            assert str(app.query_one("#status").render()).endswith(SPEECH_MUTED)
            await pilot.press(*"private", "enter")
            await pilot.pause()
            assert speak.private and service.muted
            await pilot.press(*"mute", "enter")
            await pilot.pause()
            assert not service.muted

    asyncio.run(scenario())
    service.close()


def test_mute_typed_in_the_plain_mode_mutes_and_prints_it():
    speak, service, _ = speaker()
    out = io.StringIO()
    run_plain(Session(load_card_set()), ["mute\n", "mute\n"], out, speak)
    service.close()
    printed = out.getvalue().splitlines()
    assert printed[-2:] == [SPEECH_MUTED, SPEECH_UNMUTED]
    assert not any("No card called" in line for line in printed)


def test_a_rate_typed_is_applied_said_at_it_and_written(private_home):
    speak, service, backend = speaker()
    session = make_session(_args())
    session.retune = retuner(speak)
    reply = session.handle("rate 70")
    assert reply.lines == (dial_set("rate", False, 70, 0, 100),)
    assert backend.turned == [("rate", 70)]  # turned before the reply is said: it is said at the new rate
    session.handle("table pitch 30")
    session.handle("volume 20")
    service.close()
    written = load_settings()[0]
    assert (written.rate, written.table_pitch, written.volume) == (70, 30, 20)
    assert (session.speech.rate, session.speech.table_pitch) == (70, 30)


@pytest.mark.parametrize(
    ("line", "problem"),
    [("rate 150", "not 150"), ("rate fast", "takes a number"), ("rate robot 60", "no voice called robot")],
)
def test_a_bad_value_gets_the_range_and_the_setting_now(private_home, line, problem):
    session = make_session(_args())
    reply = session.handle(line)
    assert problem in reply.speech and "from 0 to 100" in reply.speech and "50" in reply.speech
    assert reply.sound == "error" and reply.lines == (reply.speech,)
    assert not (private_home / "config" / "settings.toml").exists()  # nothing written


def test_a_step_stops_at_the_limit_and_says_so():
    session = Session(load_card_set())
    lines = [session.handle("louder").speech for _ in range(2)]
    assert lines == ["Volume 100 already, the loudest."] * 2
    for _ in range(5):
        last = session.handle("faster").speech
    assert last == dial_set("rate", False, 100, 0, 100) == "Rate 100, the fastest."
    assert session.handle("rate -1").speech == dial_out_of_range("rate", False, 100, -1, 0, 100)


def test_the_keys_turn_her_voice(make_app, private_home):
    speak, service, backend = speaker()

    async def scenario():
        app = make_app(speak)
        async with app.run_test() as pilot:
            for key in ("ctrl+up", "ctrl+up", "ctrl+down", "shift+down", "ctrl+shift+up"):
                await pilot.press(key)
            await pilot.pause()
            assert app.query_one("#prompt").value == ""
            assert str(app.query_one("#answer").render()) == "Pitch 60."

    asyncio.run(scenario())
    assert service.wait_idle(5)
    service.close()
    assert backend.turned == [("rate", 60), ("rate", 70), ("rate", 60), ("volume", 90), ("pitch", 60)]
    assert said(backend)[-1] == "Pitch 60."
    assert load_settings()[0].rate == 60


def test_the_table_voice_is_turned_apart_from_hers():
    backend, table = Tuned(), Tuned()
    table_service = SpeechService(table)
    service = SpeechService(backend, table=table_service)
    assert service.ready.wait(30) and table_service.ready.wait(30)
    speak = ReplySpeaker(service)
    session = Session(load_card_set())
    session.retune = lambda settings, name: speak.retune(name, getattr(settings, name))
    session.handle("table rate 80")
    session.handle("rate mine 40")
    service.close()
    assert (table.turned, backend.turned) == ([("rate", 80)], [("rate", 40)])


def _args():
    from assistant.cli import build_parser

    return build_parser().parse_args(["--no-camera"])


def test_help_and_the_man_page_list_the_typed_speech_keys():
    from assistant.cli import build_parser
    from assistant.commands.helptext import man_page

    listed = Session(load_card_set()).handle("help commands all").lines
    assert {"mute: speech off, or on again (F5 in the app).", "rate 70, volume 50, pitch 40"} & set(listed)
    assert any(line.startswith("private: private reading on or off") for line in listed)
    assert any("table rate 80, table faster: the table voice;" in line for line in listed)
    page = man_page(build_parser(), "0")
    assert "\\fBmute\\fR\nSpeech off, or on again (F5 in the app)." in page
    assert "\\fBrate, table pitch\\fR" in page


def test_a_damaged_settings_file_is_set_aside_and_a_rate_typed_then_written_anew(private_home):
    from assistant.storage.settings import settings_path

    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[speech]\nrate = 'fast'\n", encoding="utf-8")
    settings, notice = load_settings()  # as the app starts: said, and the file kept aside
    assert "damaged" in notice and settings.rate == 50
    session = make_session(_args(), settings)
    assert session.handle("rate 70").speech == "Rate 70."
    assert load_settings() == (dataclasses.replace(settings, rate=70), "")
    assert [p.name for p in path.parent.iterdir() if ".damaged-" in p.name]  # the damaged one still kept
