"""The settings file as a player meets it: `table-assistant settings` says where it is; the speech keys of the app
(F5, F6, F7) write it, and the next start begins as they left it; a file saved with a byte-order mark is read.
And a long video scan says how far it has gone."""

from __future__ import annotations

import asyncio
import json

import cv2
import numpy as np

from assistant.cli import build_parser, main
from assistant.commands import scan
from assistant.commands.say import reply_speaker
from assistant.core.speech.settings import SpeechSettings
from assistant.core.words.scans import scan_progress
from assistant.core.words.voice import STARTED_MUTED, settings_file_at
from assistant.storage.settings import load_settings, save_settings, settings_path


def test_the_settings_command_says_where_the_file_is_and_what_is_in_force(cli, private_home):
    path = private_home / "config" / "settings.toml"
    first = cli("settings")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[0] == settings_file_at(str(path), False)
    assert 'speech = "auto"' in first.stdout and not path.exists()
    save_settings(SpeechSettings(verbosity="brief"), path)
    second = cli("settings", "--json")
    data = json.loads(second.stdout)
    assert data == {"path": str(path), "exists": True, "speech": {**data["speech"], "verbosity": "brief"}}
    assert cli("settings").stdout.splitlines()[0] == settings_file_at(str(path), True)


def test_a_settings_file_with_a_byte_order_mark_is_read_not_set_aside(private_home):
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes('\ufeff[speech]\nverbosity = "coaching"\nrate = 70\n'.encode())
    settings, notice = load_settings()
    assert notice == ""
    assert settings.verbosity == "coaching" and settings.rate == 70
    assert [p.name for p in path.parent.iterdir()] == ["settings.toml"]  # nothing set aside


def test_f5_f6_and_f7_are_written_and_the_next_start_begins_as_they_left_it(make_app, private_home):
    save_settings(SpeechSettings(backend="silent", earcons=False))
    args = build_parser().parse_args([])
    speaker, _ = reply_speaker(args)
    assert speaker is not None and not speaker.service.muted and not speaker.private
    app = make_app(speaker)

    async def scenario():
        async with app.run_test(size=(100, 40)) as pilot:
            for key in ("f5", "f6", "f7"):
                await pilot.press(key)
                await pilot.pause()

    try:
        asyncio.run(scenario())
    finally:
        speaker.service.close()
    settings, notice = load_settings()
    assert notice == ""
    assert (settings.muted, settings.private, settings.verbosity) == (True, True, "coaching")
    assert settings.backend == "silent"  # the other settings kept as they were
    again, notes = reply_speaker(args)
    try:
        assert again.service.muted and again.private
        assert notes[-1] == STARTED_MUTED  # written under the title: a silent start is explained
    finally:
        again.service.close()


def test_a_long_video_scan_says_frames_done_and_codes_found(tmp_path, capsys, monkeypatch):
    import qrcode

    monkeypatch.setattr(scan, "PROGRESS_EVERY", 10)
    code = np.array(qrcode.make("TA1:uu-2nd:rainbow-aura", border=4, box_size=4).convert("L"))
    video = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (320, 240))
    for index in range(25):
        frame = np.full((240, 320), 200, np.uint8)
        if index >= 12:  # the card comes into view after the first progress line
            frame[20 : 20 + code.shape[0], 20 : 20 + code.shape[1]] = code
        writer.write(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
    writer.release()
    assert main(["scan", str(video)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [scan_progress(str(video), 10, 0), scan_progress(str(video), 20, 1)]
    assert out.splitlines()[0].startswith(f"{video}: 1 code: Rainbow Aura (")
