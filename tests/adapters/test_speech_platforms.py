# ruff: noqa: F811 - the fixtures imported from speech_fixtures are used as test arguments
"""Speech on each platform, chosen at run time behind one interface (`make_speaker(..., platform=...)`).

Linux is real: speaking through the screen reader is speaking through a real speech-dispatcher (as Orca does),
heard through ALSA's file plugin, with the earcons played beside it. Windows and macOS cannot exist here, so only
their outermost piece is stood in for, behind the interface the real one has: pyttsx3's SAPI5 and
NSSpeechSynthesizer drivers by a driver module of pyttsx3's own driver interface (`buildDriver`); the `winsound`
module (which plays each sound in this process) by one of the same name, constants and rules; macOS's `afplay` by a
program of that name on PATH; accessible_output2's NVDA and VoiceOver outputs by objects with their methods.
Everything between (the service, the backends, the players, the earcons) is the real code.
"""

from __future__ import annotations

import math
import os
import stat
import struct
import sys
import threading
import types
import wave
from pathlib import Path

import pytest
from speech_fixtures import alsa_capture, speech_dispatcher  # noqa: F401 - fixtures
from test_speech_soundfile import aiff

from assistant.core.speech.settings import SpeechSettings
from assistant.core.words.voice import (
    SPEECH_SET_SILENT,
    TABLE_INSTEAD_OWN_VOICE,
    TABLE_NO_MIXER,
    screen_reader_speaks,
    speaking_through,
    table_voice_missing,
)
from assistant.speech import OFF, OWN_VOICE, SCREEN_READER, make_backends, make_speaker, speech_route
from assistant.speech.backends import EspeakBackend, Pyttsx3Backend, SilentBackend
from assistant.speech.dispatcher import SpeechdBackend
from assistant.speech.earcons import RATE
from assistant.speech.player import Player
from assistant.speech.readers import ScreenReaderBackend, running_reader_name
from assistant.speech.screenreader import screen_reader_running
from benchmarks.capture import loudness, seconds


def voice_samples(text: str) -> bytes:
    """What the stand-in system voice renders for `text`: a tone 20 ms a character, in the earcons' format."""
    count = int(RATE * 0.02 * len(text))
    return b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 330 * i / RATE))) for i in range(count))


class SystemVoiceDriver:
    """A pyttsx3 driver (pyttsx3's driver interface, as its dummy driver documents it) standing for SAPI5 or
    NSSpeechSynthesizer: `save_to_file` writes the text's samples and reports the utterance finished. As the real
    NSSpeechSynthesizer driver does, `aiff` writes an AIFF file whatever the file is called."""

    def __init__(self, proxy, rendered: list[tuple[str, dict]], aiff: bool = False) -> None:
        self._proxy = proxy
        self._rendered = rendered
        self._aiff = aiff
        self._properties: dict = {"rate": 200, "volume": 1.0, "voice": None, "voices": []}

    def destroy(self) -> None:
        pass

    def startLoop(self) -> None:
        self._proxy.setBusy(False)  # runs the queued commands, the last of which ends the loop

    def endLoop(self) -> None:
        pass

    def iterate(self):
        yield

    def say(self, text) -> None:
        raise AssertionError("the app never lets pyttsx3 play: it renders files")

    def stop(self) -> None:
        pass

    def save_to_file(self, text, filename) -> None:
        self._proxy.setBusy(True)
        self._proxy.notify("started-utterance")
        if self._aiff:
            samples = voice_samples(text)
            Path(filename).write_bytes(aiff(list(struct.unpack(f"<{len(samples) // 2}h", samples)), RATE))
        else:
            with wave.open(filename, "wb") as sound:
                sound.setnchannels(1)
                sound.setsampwidth(2)
                sound.setframerate(RATE)
                sound.writeframes(voice_samples(text))
        self._rendered.append((text, dict(self._properties)))
        self._proxy.notify("finished-utterance", completed=True)
        self._proxy.setBusy(False)

    def getProperty(self, name):
        return self._properties[name]

    def setProperty(self, name, value) -> None:
        self._properties[name] = value


@pytest.fixture
def system_voice(monkeypatch):
    """Install the stand-in driver as pyttsx3's `sapi5` and `nsss`; what it rendered, per driver."""
    import pyttsx3

    rendered: dict[str, list[tuple[str, dict]]] = {"sapi5": [], "nsss": []}
    for name in rendered:
        module = types.ModuleType(f"pyttsx3.drivers.{name}")
        module.buildDriver = lambda proxy, name=name: SystemVoiceDriver(proxy, rendered[name], aiff=name == "nsss")  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, f"pyttsx3.drivers.{name}", module)
        monkeypatch.delitem(pyttsx3._activeEngines, name, raising=False)
    return rendered


class Winsound(types.ModuleType):
    """A `winsound` module with the real one's constants and its `PlaySound` rules: a sound from memory is played
    synchronously only (the real one raises RuntimeError for `SND_ASYNC | SND_MEMORY`), and `PlaySound(None)` stops
    the sound playing. Each sound played is written into `folder`, numbered, with the flags it came with; while
    `hold` is set, a sound plays until it is stopped."""

    SND_FILENAME, SND_ASYNC, SND_NODEFAULT, SND_MEMORY = 0x20000, 0x1, 0x2, 0x4

    def __init__(self, folder: Path) -> None:
        super().__init__("winsound")
        self.folder = folder
        self.flags: list[int] = []
        self.stops = 0
        self.hold = False
        self.threads: set[str] = set()
        self._stopped = threading.Event()

    def PlaySound(self, sound: bytes | None, flags: int) -> None:
        if sound is None:
            self.stops += 1
            self._stopped.set()
            return
        if flags & self.SND_MEMORY and flags & self.SND_ASYNC:
            raise RuntimeError("Cannot play asynchronously from memory")
        assert isinstance(sound, bytes) and sound[:4] == b"RIFF" and sound[8:12] == b"WAVE", sound[:12]
        self.flags.append(flags)
        self.threads.add(threading.current_thread().name)
        number = len(list(self.folder.iterdir()))
        (self.folder / f"{number:03}.wav").write_bytes(sound)
        self._stopped.clear()
        if self.hold:
            self._stopped.wait(30)


@pytest.fixture
def winsound(tmp_path, monkeypatch) -> Path:
    """The stand-in `winsound` as the standard library's, for the Windows player in this process; the folder its
    sounds are written into. No player process may be started meanwhile."""
    played = tmp_path / "winsound-played"
    played.mkdir()
    module = Winsound(played)
    monkeypatch.setitem(sys.modules, "winsound", module)
    return played


@pytest.fixture
def afplay(tmp_path, monkeypatch) -> Path:
    """An `afplay` program first on PATH: it copies the file it is given into the returned folder, numbered."""
    programs, played = tmp_path / "bin", tmp_path / "afplay-played"
    programs.mkdir()
    played.mkdir()
    program = programs / "afplay"
    program.write_text(
        f'#!/bin/sh\nn=$(ls "{played}" | wc -l)\ncp "$1" "{played}/$(printf %03d "$n").wav"\n', encoding="utf-8"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{programs}{os.pathsep}{os.environ['PATH']}")
    return played


def frames(path: Path) -> bytes:
    with wave.open(str(path), "rb") as sound:
        return sound.readframes(sound.getnframes())


def played_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.wav"))


def own_voice_on(platform: str, tmp_path: Path):
    settings = SpeechSettings(speech="own-voice", backend="pyttsx3", rate=70)
    return make_speaker(settings, platform=platform, earcon_folder=tmp_path / "earcons")


@pytest.mark.parametrize(
    ("platform", "driver", "player", "engine"),
    [
        ("win32", "sapi5", "winsound", "pyttsx3 with SAPI5"),
        ("darwin", "nsss", "afplay", "pyttsx3 with NSSpeechSynthesizer"),
    ],
)
def test_the_own_voice_is_the_systems_voice_played_by_the_systems_player(
    platform, driver, player, engine, system_voice, winsound, afplay, tmp_path
):
    service = own_voice_on(platform, tmp_path)
    played = {"winsound": winsound, "afplay": afplay}[player]
    earcon = frames(service.earcons.files["your-turn"])
    try:
        assert service.backend.name == "pyttsx3", service.notices
        assert service.notices[0] == f"Speech: {engine}, played with {player}."
        assert service.earcons is not None and service.earcons.player.name == player
        service.say("Your turn, Ana. Draw a card.", sound="your-turn")
        assert service.wait_idle(30)
    finally:
        service.close()
    said = [text for text, _ in system_voice[driver]]
    assert said[-2:] == ["Your turn, Ana.", "Draw a card."]  # sentence by sentence, after the warm-up word
    assert system_voice[driver][-1][1]["rate"] == 285  # rate 70: between the normal 175 and the fastest 450
    files = played_files(played)
    assert len(files) == 2  # one sound per sentence, the earcon in the first one's file
    assert frames(files[0]) == earcon + voice_samples("Your turn, Ana.")
    assert frames(files[1]) == voice_samples("Draw a card.")


@pytest.mark.parametrize(("platform", "player"), [("win32", "winsound"), ("darwin", "afplay")])
def test_each_platforms_player_is_chosen_and_killed_like_the_others(platform, player, winsound, afplay):
    found = Player.find(platform=platform)
    assert found is not None and found.name == player
    assert Player.find(platform="linux") is None or Player.find(platform="linux").name in ("aplay", "paplay", "pw-play")
    assert Player.find("winsound", platform="linux") is None  # part of Python on Windows only


def no_player_process(monkeypatch) -> None:
    """Starting a player process fails from now on: a sound on Windows must be played in this process."""

    def refused(*args, **kwargs):
        raise AssertionError(f"a player process was started: {args}")

    monkeypatch.setattr("assistant.speech.player.subprocess.Popen", refused)


def test_windows_plays_each_sound_in_this_process_from_the_wav_bytes(winsound, tmp_path, monkeypatch):
    module = sys.modules["winsound"]
    sound = tmp_path / "card.wav"
    with wave.open(str(sound), "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(RATE)
        out.writeframes(voice_samples("Rainbow Aura."))
    no_player_process(monkeypatch)
    player = Player.find(platform="win32")
    assert player is not None and player.name == "winsound" and player.command == ()
    playing = player.start(sound)
    assert playing.wait(10) == 0 and playing.poll() == 0
    assert [path.read_bytes() for path in played_files(winsound)] == [sound.read_bytes()]  # the whole file
    assert module.flags == [module.SND_MEMORY | module.SND_NODEFAULT] and module.threads == {"winsound"}
    with pytest.raises(OSError):  # a file that cannot be read is reported as a player that cannot start
        player.start(tmp_path / "gone.wav")


def test_a_sound_played_in_this_process_stops_at_once_on_a_kill(winsound, tmp_path, monkeypatch):
    from assistant.speech.player import KILLED, end_process

    module = sys.modules["winsound"]
    module.hold = True  # plays until it is stopped
    sound = tmp_path / "long.wav"
    with wave.open(str(sound), "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(RATE)
        out.writeframes(voice_samples("A long card text."))
    no_player_process(monkeypatch)
    playing = Player.find(platform="win32").start(sound)
    for _ in range(1000):  # until the sound is under way (the thread has given it to PlaySound)
        if played_files(winsound):
            break
        threading.Event().wait(0.01)  # (the player's thread, polled)
    assert playing.poll() is None
    end_process(playing)
    assert playing.wait(10) == KILLED and module.stops >= 1
    stops = module.stops  # (a stop is said again while the thread has not yet ended: more than one on a busy machine)
    end_process(playing)  # a finished one is left alone
    assert module.stops == stops


def test_the_own_voice_on_windows_is_cut_off_by_stop_with_no_process(system_voice, winsound, tmp_path, monkeypatch):
    module = sys.modules["winsound"]
    no_player_process(monkeypatch)
    service = own_voice_on("win32", tmp_path)
    try:
        module.hold = True
        service.say("Rainbow Aura. Upgrade card. Each turn you may play a card.")
        for _ in range(1000):
            if played_files(winsound):
                break
            threading.Event().wait(0.01)  # (the player's thread, polled)
        service.stop()
        assert service.wait_idle(20)
    finally:
        service.close()
    assert module.stops >= 1
    assert len(played_files(winsound)) == 1  # cut off in its first sentence: the rest never played
    assert frames(played_files(winsound)[0]) == voice_samples("Rainbow Aura.")


class ReaderOutput:
    """An accessible_output2 output with the methods the backend uses: a screen reader's or a system voice's."""

    def __init__(self, name: str, active: bool = True, system: bool = False) -> None:
        self.name, self.active, self.system = name, active, system
        self.spoken: list[tuple[str, bool]] = []
        self.silenced = 0

    def is_active(self) -> bool:
        return self.active

    def is_system_output(self) -> bool:
        return self.system

    def speak(self, text, interrupt=False) -> None:
        self.spoken.append((text, interrupt))

    def silence(self) -> None:
        self.silenced += 1


@pytest.mark.parametrize(
    ("platform", "reader", "player"), [("win32", "NVDA", "winsound"), ("darwin", "VoiceOver", "afplay")]
)
def test_speech_goes_through_the_screen_reader_and_the_earcons_still_play(
    platform, reader, player, winsound, afplay, tmp_path
):
    outputs = [ReaderOutput("SAPI5", system=True), ReaderOutput("JAWS", active=False), ReaderOutput(reader)]
    assert running_reader_name(lambda: outputs) == reader  # the system voice is never taken for a screen reader
    assert screen_reader_running({}, platform=platform, reader_name=lambda: running_reader_name(lambda: outputs))
    route = speech_route(SpeechSettings(), platform=platform, find_reader=lambda: reader)
    assert route == (SCREEN_READER, reader)
    service = make_speaker(
        SpeechSettings(),
        platform=platform,
        route=route,
        reader_backend=lambda: ScreenReaderBackend(lambda: outputs),
        earcon_folder=tmp_path / "earcons",
    )
    played = {"winsound": winsound, "afplay": afplay}[player]
    earcon_files = service.earcons.files
    try:
        assert service.backend.name == reader
        assert service.notices[0] == speaking_through(reader)
        service.say("Rainbow Aura, Upgrade card.", sound="card-read")
        assert service.wait_idle(20)
        service.stop()
        assert service.wait_idle(20)
    finally:
        service.close()
    assert outputs[2].spoken == [("Rainbow Aura, Upgrade card.", False)]
    assert outputs[2].silenced >= 1  # stop silences the screen reader
    assert outputs[0].spoken == [] and outputs[1].spoken == []
    files = played_files(played)
    assert len(files) == 1 and frames(files[0]) == frames(earcon_files["card-read"])


def test_without_the_screen_reader_library_the_own_voice_speaks(system_voice, winsound, afplay, tmp_path):
    def missing():
        raise ImportError("No module named 'accessible_output2'")

    service = make_speaker(
        SpeechSettings(speech="screen-reader", earcons=False),
        platform="win32",
        route=(SCREEN_READER, ""),
        reader_backend=lambda: ScreenReaderBackend(missing),
    )
    try:
        assert service.backend.name == "pyttsx3"
        assert service.notices == [
            "Speech: pyttsx3 with SAPI5, played with winsound.",
            table_voice_missing(TABLE_NO_MIXER, TABLE_INSTEAD_OWN_VOICE),  # winsound plays one sound at a time
        ]
    finally:
        service.close()


def test_the_route_by_setting_and_by_what_runs():
    found, none = (lambda: "Orca"), (lambda: "")
    assert speech_route(SpeechSettings(), find_reader=found) == (SCREEN_READER, "Orca")
    assert speech_route(SpeechSettings(), find_reader=none) == (OWN_VOICE, "")
    assert speech_route(SpeechSettings(speech="screen-reader"), find_reader=none) == (SCREEN_READER, "")
    assert speech_route(SpeechSettings(speech="own-voice"), find_reader=found) == (OWN_VOICE, "")
    assert speech_route(SpeechSettings(speech="on"), find_reader=found) == (OWN_VOICE, "")  # the older name
    assert speech_route(SpeechSettings(speech="off"), find_reader=found) == (OFF, "")
    assert speech_route(SpeechSettings(), no_speech=True, find_reader=found) == (OFF, "")


def test_on_linux_the_screen_reader_is_speech_dispatcher_and_a_talking_one_is_never_talked_over():
    settings = SpeechSettings(private_device="")
    backends, _ = make_backends(settings, platform="linux", route=SCREEN_READER, reader="")
    assert [type(b) for b in backends] == [SpeechdBackend, Pyttsx3Backend, EspeakBackend]
    backends, _ = make_backends(settings, platform="linux", route=SCREEN_READER, reader="Orca")
    assert [type(b) for b in backends] == [SpeechdBackend, SilentBackend]
    assert backends[1].describe() == screen_reader_speaks("Orca")
    backends, _ = make_backends(settings, platform="win32", route=OWN_VOICE)
    assert [type(b) for b in backends] == [Pyttsx3Backend, EspeakBackend]  # no speech-dispatcher on Windows
    backends, _ = make_backends(SpeechSettings(backend="silent"), platform="linux", route=SCREEN_READER, reader="Orca")
    assert [(type(b), b.reason) for b in backends] == [(SilentBackend, SPEECH_SET_SILENT)]  # silence chosen is silence


def test_through_the_screen_reader_on_linux_is_a_real_speech_dispatcher_with_earcons_beside(
    speech_dispatcher, monkeypatch, tmp_path
):
    monkeypatch.setenv("XDG_RUNTIME_DIR", speech_dispatcher.environ["XDG_RUNTIME_DIR"])
    monkeypatch.setenv("SPEECHD_ADDRESS", speech_dispatcher.environ["SPEECHD_ADDRESS"])
    monkeypatch.setenv("TABLE_ASSISTANT_SCREEN_READER", "Orca")  # what the /proc search finds with Orca running
    capture = speech_dispatcher.capture
    settings = SpeechSettings(player="aplay")
    route = speech_route(settings, platform="linux")
    assert route == (SCREEN_READER, "Orca")
    service = make_speaker(settings, platform="linux", route=route, earcon_folder=tmp_path / "earcons")
    service.earcons.player = capture.player()  # the earcons into the same capture as the daemon's sound
    try:
        assert service.backend.name == "speechd", service.notices
        service.say("Rainbow Aura, Upgrade card. Your Unicorns cannot be destroyed.", sound="card-read")
        assert service.wait_idle(30)
    finally:
        service.close()
    plays = capture.wait_plays(2)
    earcon = frames(service.earcons.files["card-read"])
    assert any(path.read_bytes().startswith(earcon) for path in plays)  # the earcon, played by our player
    speech = b"".join(p.read_bytes() for p in plays if not p.read_bytes().startswith(earcon))
    assert seconds(speech) > 2 and loudness(speech) > 0.01  # both sentences, said by the daemon


def test_a_screen_reader_that_cannot_be_reached_keeps_the_app_quiet_but_not_the_earcons(
    alsa_capture, monkeypatch, tmp_path
):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "no-daemon"))
    monkeypatch.delenv("SPEECHD_ADDRESS", raising=False)
    service = make_speaker(
        SpeechSettings(player="aplay"), platform="linux", route=(SCREEN_READER, "Orca"), earcon_folder=tmp_path / "e"
    )
    service.earcons.player = alsa_capture.player()
    cue = frames(service.earcons.files["code-seen"])
    try:
        assert service.backend.name == "silent"
        assert service.notices[-1] == screen_reader_speaks("Orca")
        service.earcon("code-seen")  # an aiming cue
        plays = alsa_capture.wait_plays(1)
    finally:
        service.close()
    assert plays and plays[0].read_bytes().startswith(cue)


def test_the_speech_files_folder_is_removed_when_the_app_ends_before_the_engine_is_closed():
    """The app may end while the speech worker is still warming the engine up: the worker never reaches `close`,
    and its folder of sound files must not be left behind."""
    import subprocess

    script = (
        "from assistant.speech.backends import EspeakBackend\n"
        "backend = EspeakBackend(None)\n"
        "folder = backend._temporary_folder()\n"
        "(folder / 'warm-up.wav').write_bytes(b'RIFF')\n"
        "print(folder)\n"
    )
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    folder = Path(shown.stdout.strip())
    assert folder.name.startswith("table-assistant-speech-")
    assert not folder.exists()
