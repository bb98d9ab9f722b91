"""Speech settings (the TOML file, a damaged one set aside) and the screen-reader check behind `speech = auto`."""

import re
from dataclasses import fields

import pytest

from assistant.core.speech.settings import BACKENDS, SettingError, SpeechSettings, format_settings, parse_settings
from assistant.core.words.voice import settings_damaged
from assistant.speech import OFF, make_backends, speech_route
from assistant.speech.screenreader import screen_reader_running
from assistant.storage.settings import load_settings, save_settings, settings_path


def test_no_file_gives_the_defaults_and_no_notice():
    assert load_settings() == (SpeechSettings(), "")


def test_saved_settings_read_back_the_same():
    chosen = SpeechSettings(speech="on", backend="espeak-ng", rate=70, voice='en-gb "x" \\ é', volume=40,
                            earcons=False, player="paplay", device="", private_device="plughw:1,0",
                            transcript="~/games/said.txt")  # fmt: skip
    path = save_settings(chosen)
    assert path == settings_path() and path.exists()
    assert load_settings() == (chosen, "")
    assert not list(path.parent.glob("*.new"))


def test_the_written_file_is_simple_key_value_lines():
    text = format_settings(SpeechSettings())
    assert "[speech]" in text
    assert 'speech = "auto"' in text and "rate = 50" in text and "earcons = true" in text
    assert len([line for line in text.splitlines() if " = " in line]) == len(fields(SpeechSettings))


def test_a_setting_at_the_top_of_the_file_counts_as_one_under_speech():
    """`camera = false` at the top (where a user writes it first) made the whole file "damaged": it is a setting."""
    assert parse_settings("camera = false\n") == SpeechSettings(camera=False)
    assert parse_settings("camera = false\n[speech]\nrate = 80\n") == SpeechSettings(camera=False, rate=80)
    assert parse_settings("speech = 'off'\n") == SpeechSettings(speech="off")  # the setting, not its table
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("# mine\ncamera = false\n")
    assert load_settings() == (SpeechSettings(camera=False), "") and path.exists()


def test_a_partial_file_keeps_the_other_defaults():
    assert parse_settings("[speech]\nrate = 80\n") == SpeechSettings(rate=80)
    assert parse_settings("") == SpeechSettings()


@pytest.mark.parametrize(
    "text, problem",
    [
        ("[speech\nrate = 1", "Expected"),
        ("[speech]\nrate = 101\n", "speech.rate must be from 0 to 100"),
        ("[speech]\nrate = true\n", "speech.rate must be int"),
        ("[speech]\nspeech = 'loud'\n", "speech.speech must be one of auto, screen-reader, own-voice, off, on"),
        ("[speech]\nbackend = 'sapi'\n", "speech.backend must be one of"),
        ("[speech]\nshout = true\n", "unknown setting speech.shout"),
        ("[colours]\nx = 1\n", "unknown setting colours"),
        ("speech = 1\n", "speech must be str"),  # at the top: the speech setting, not its table
        ("rate = 101\n", "rate must be from 0 to 100 (line 1)"),
        ("shout = true\n[speech]\n", "unknown setting shout (line 1)"),
        ("camera = false\n[speech]\ncamera = true\n", "camera is set twice: at the top of the file and under"),
        ("[speech]\nscan_repeat = -1\n", "speech.scan_repeat must be from 0 to 3600"),
        ("scan_repeat = 3601\n", "scan_repeat must be from 0 to 3600 (line 1)"),
        ("scan_repeat = 2.5\n", "scan_repeat must be int"),
    ],
)
def test_bad_values_are_errors_that_say_what_is_wrong(text, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        parse_settings(text)


@pytest.mark.parametrize(
    "text, key, line",
    [
        ("[speech]\nmuted = false\nrate = 101\n", "speech.rate", 3),
        ("muted = false\n\nshout = true\n[speech]\n", "shout", 3),
        ("[colours]\nx = 1\n", "colours", 1),
        ("camera = false\n[speech]\ncamera = true\n", "camera", 1),
    ],
)
def test_a_bad_setting_is_known_by_its_name_as_a_value_never_by_reading_the_sentence_back(text, key, line):
    with pytest.raises(SettingError) as caught:
        parse_settings(text)
    assert caught.value.key == key and str(caught.value).endswith(f"(line {line})")


def test_scan_repeat_is_a_setting_checked_and_passed_to_the_scanner(monkeypatch):
    """`scan_repeat`: seconds after which a card lying still before the camera is said again (0, the default: once);
    the app's camera worker builds its scanner with it, and `TABLE_ASSISTANT_SCAN_REPEAT`, when set, wins for the
    run. Before, it was the environment variable alone (an unknown setting here)."""
    from assistant.scanner import rest
    from assistant.ui.camera import CameraWorker

    monkeypatch.delenv(rest.REPEAT_SETTING, raising=False)
    assert parse_settings("scan_repeat = 10\n").scan_repeat == 10
    assert SpeechSettings().scan_repeat == 0 and "scan_repeat = 0" in format_settings(SpeechSettings())

    def cooldown(repeat: int) -> float:
        # A clock of the test's own: the worker scans on its thread (no process), its scanner built here.
        worker = CameraWorker(lambda: None, lambda message: None, clock=lambda: 0.0, repeat=repeat)  # type: ignore[arg-type,return-value]
        assert worker.scanner is not None
        try:
            return worker.scanner.tracker.cooldown
        finally:
            worker.scanner.stop()

    assert cooldown(0) == float("inf") and cooldown(10) == 10
    monkeypatch.setenv(rest.REPEAT_SETTING, "0")
    assert cooldown(10) == float("inf")  # the variable wins for the run
    monkeypatch.setenv(rest.REPEAT_SETTING, "4")
    assert cooldown(0) == 4


def test_a_damaged_file_is_said_set_aside_and_the_defaults_used():
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text("[speech]\nrate = 'fast'\n")
    settings, notice = load_settings()
    assert settings == SpeechSettings()
    kept = list(path.parent.glob("settings.toml.damaged-*"))
    assert len(kept) == 1 and kept[0].read_text() == "[speech]\nrate = 'fast'\n"
    assert not path.exists()
    assert notice == settings_damaged("speech.rate must be int (line 2)", kept[0].name)
    assert load_settings() == (SpeechSettings(), "")  # said once: the next start finds no file


def test_a_file_that_is_not_text_is_damaged_too():
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe\x00")
    settings, notice = load_settings()
    assert settings == SpeechSettings() and notice.startswith("The settings file is damaged")


def fake_system(tmp_path, processes=(), modules=()):
    proc, sys_root = tmp_path / "proc", tmp_path / "sys"
    (sys_root / "module").mkdir(parents=True)
    for module in modules:
        (sys_root / "module" / module).mkdir()
    (proc / "self").mkdir(parents=True)
    for pid, (comm, cmdline) in enumerate(processes, start=100):
        (proc / str(pid)).mkdir()
        (proc / str(pid) / "comm").write_text(comm + "\n")
        (proc / str(pid) / "cmdline").write_bytes(b"\0".join(a.encode() for a in cmdline) + b"\0")
    return proc, sys_root


def test_screen_reader_detection(tmp_path):
    quiet = fake_system(tmp_path / "a", [("bash", ["bash"]), ("python3", ["python3", "-m", "http.server"])])
    assert screen_reader_running({}, *quiet) == ""
    orca = fake_system(tmp_path / "b", [("orca", ["/usr/bin/python3", "/usr/bin/orca"])])
    assert screen_reader_running({}, *orca) == "Orca"
    orca_by_python = fake_system(tmp_path / "c", [("python3", ["/usr/bin/python3", "/usr/bin/orca", "--replace"])])
    assert screen_reader_running({}, *orca_by_python) == "Orca"
    speakup = fake_system(tmp_path / "d", modules=["speakup_soft"])
    assert screen_reader_running({}, *speakup) == "Speakup"
    assert screen_reader_running({"TABLE_ASSISTANT_SCREEN_READER": "NVDA"}, *quiet) == "NVDA"
    assert screen_reader_running({"TABLE_ASSISTANT_SCREEN_READER": "no"}, *orca) == ""


def test_speech_route_says_whether_the_app_speaks(monkeypatch):
    def speaks(settings: SpeechSettings, no_speech: bool = False) -> bool:
        return speech_route(settings, no_speech)[0] != OFF

    monkeypatch.setenv("TABLE_ASSISTANT_SCREEN_READER", "Orca")
    assert speaks(SpeechSettings(speech="auto"))  # through the screen reader
    assert speaks(SpeechSettings(speech="on"))
    assert not speaks(SpeechSettings(speech="off"))
    assert not speaks(SpeechSettings(speech="on"), no_speech=True)
    monkeypatch.setenv("TABLE_ASSISTANT_SCREEN_READER", "off")
    assert speaks(SpeechSettings(speech="auto"))


@pytest.mark.parametrize("backend", [name for name in BACKENDS if name != "auto"])
def test_every_backend_the_settings_file_may_name_is_one_the_app_makes(backend):
    """A speech backend is its class (`speech/backends.py`), its name in `BACKENDS` and its maker in `make_backends`:
    a name the file accepts with no maker, or a maker of another name, fails here."""
    made, _ = make_backends(SpeechSettings(backend=backend))
    assert [one.name for one in made] == [backend]


def test_auto_tries_every_own_voice_the_platform_has_in_order():
    names = [name for name in BACKENDS if name not in ("auto", "silent")]
    assert [one.name for one in make_backends(SpeechSettings(), platform="linux")[0]] == names
    assert [one.name for one in make_backends(SpeechSettings(), platform="win32")[0]] == names[1:]  # no speechd
