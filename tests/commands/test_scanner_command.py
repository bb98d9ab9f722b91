"""`table-assistant scan` when parts are missing, and its options after the sub-command."""

import sys

import cv2
import pytest

from assistant.cli import main
from assistant.core.words.scans import NEED_OPENCV, NO_DECODER, camera_unavailable, scan_unreadable
from assistant.scanner import decoders, sources
from benchmarks import frames as F


@pytest.fixture
def code_png(tmp_path):
    path = tmp_path / "card.png"
    cv2.imwrite(str(path), F.render(F.scene_for("clean", 0)))
    return path


def test_no_speech_after_the_sub_command_is_accepted(capsys):
    # No camera exists here: the command must get as far as opening camera 7 and say it cannot.
    status = main(["scan", "--camera", "7", "--no-speech"])
    out, err = capsys.readouterr()
    assert status == 1
    assert "unrecognized arguments" not in err
    assert camera_unavailable(7) in out + err


def test_scan_camera_says_a_card_lying_still_once_as_the_app_does(capsys, monkeypatch):
    """`scan --camera` builds its own tracker (for `--confirm N`): it takes the app's repeat rule, a card lying still
    said once unless the settings' `scan_repeat` (or `TABLE_ASSISTANT_SCAN_REPEAT`) asks for repeats. Before, its
    tracker kept its own 10 s: a card lying still was said again every 10 s. No camera exists here: the scanner's
    tracker is taken as the command opens the camera."""
    from assistant.core.speech.settings import SpeechSettings
    from assistant.scanner import rest
    from assistant.scanner.live import LiveScanner
    from assistant.storage.settings import save_settings

    monkeypatch.delenv(rest.REPEAT_SETTING, raising=False)
    cooldowns: list[float] = []

    def opened(scanner: LiveScanner) -> bool:
        cooldowns.append(scanner.tracker.cooldown)
        return False  # no camera: the command says so and ends

    monkeypatch.setattr(LiveScanner, "open", opened)
    assert main(["scan", "--camera", "7", "--no-speech", "--confirm", "1"]) == 1
    save_settings(SpeechSettings(scan_repeat=12))
    assert main(["scan", "--camera", "7", "--no-speech"]) == 1
    assert cooldowns == [float("inf"), 12]


def test_no_speech_before_the_sub_command_still_works(capsys):
    assert main(["--no-speech", "scan", "--camera", "7"]) == 1
    assert camera_unavailable(7) in "".join(capsys.readouterr())


def test_without_any_decoder_scan_says_so_and_fails(code_png, capsys, monkeypatch):
    for module in ("zxingcpp", "pyzbar", "pyzbar.pyzbar"):
        monkeypatch.setitem(sys.modules, module, None)  # importing it now raises ImportError
    status = main(["scan", str(code_png)])
    out, err = capsys.readouterr()
    assert status == 1
    assert NO_DECODER in err
    assert "no code" not in out


def test_without_opencv_a_png_is_not_called_not_an_image(code_png, capsys, monkeypatch):
    monkeypatch.setattr(decoders, "load_opencv", lambda: None)
    monkeypatch.setattr(sources, "load_opencv", lambda: None)
    with pytest.raises(sources.SourceError) as caught:
        sources.open_file(code_png)
    assert caught.value.sentence == NEED_OPENCV
    status = main(["scan", str(code_png)])
    out, err = capsys.readouterr()
    assert status == 1
    assert NEED_OPENCV in err and scan_unreadable(str(code_png)) not in out + err


def test_with_everything_installed_the_png_reads(code_png, capsys):
    assert main(["scan", str(code_png)]) == 0
    assert "1 code: Rainbow Aura" in capsys.readouterr().out
