"""Real audio: WAV files rendered by pyttsx3 and espeak-ng, earcons, and player processes that are missing, die
or are killed. Sound is checked by measuring it (header, duration, loudness), never by comparing bytes, which
vary from run to run."""

import array
import math
import os
import shutil
import sys
import wave
from pathlib import Path

import pytest

from assistant.core.speech.settings import SpeechSettings
from assistant.core.words.voice import player_failed, player_missing, speech_backend_chosen, wav_written
from assistant.speech import SpeechError, SpeechService, make_speaker
from assistant.speech.backends import AHEAD_NICENESS, EspeakBackend, Pyttsx3Backend
from assistant.speech.earcons import EARCONS, EarconChannel, write_earcons
from assistant.speech.player import Player

SHORT = "Rainbow Aura."
LONG = "Rainbow Aura, Upgrade card. If this card is in your Stable, your Unicorn cards cannot be destroyed."
ROOT = Path(__file__).resolve().parents[2]

needs_espeak = pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")


def measure(path: Path) -> tuple[float, float]:
    """Seconds and RMS loudness (0 to 1) of a 16-bit mono WAV file; asserts a sane header."""
    with wave.open(str(path), "rb") as sound:
        assert sound.getnchannels() == 1
        assert sound.getsampwidth() == 2
        assert 8000 <= sound.getframerate() <= 48000
        frames = sound.readframes(sound.getnframes())
        seconds = sound.getnframes() / sound.getframerate()
    samples = array.array("h", frames)
    if sys.byteorder == "big":
        samples.byteswap()
    rms = math.sqrt(sum(s * s for s in samples) / max(len(samples), 1)) / 32768
    return seconds, rms


@pytest.fixture(params=["pyttsx3", pytest.param("espeak-ng", marks=needs_espeak)])
def renderer(request):
    service = make_speaker(SpeechSettings(backend=request.param, earcons=False), wav_only=True)
    assert service.backend.name == request.param, service.notices
    yield service
    service.close()


def test_rendered_speech_has_a_valid_header_is_not_silent_and_grows_with_the_text(renderer, tmp_path, capfd):
    short, long = tmp_path / "short.wav", tmp_path / "long.wav"
    renderer.render_to(SHORT, short)
    renderer.render_to(LONG, long)
    short_seconds, short_rms = measure(short)
    long_seconds, long_rms = measure(long)
    assert 0.3 < short_seconds < 3
    assert long_seconds > 3 * short_seconds
    assert short_rms > 0.02 and long_rms > 0.02
    assert capfd.readouterr() == ("", "")  # pyttsx3's own "Audio saved to" print is silenced


@needs_espeak
def test_rate_setting_changes_the_length_of_speech(tmp_path):
    lengths = []
    for rate in (20, 80):
        service = make_speaker(SpeechSettings(backend="espeak-ng", rate=rate, earcons=False), wav_only=True)
        try:
            service.render_to(LONG, tmp_path / f"rate-{rate}.wav")
        finally:
            service.close()
        lengths.append(measure(tmp_path / f"rate-{rate}.wav")[0])
    assert lengths[0] > 1.5 * lengths[1]


def test_the_silence_after_a_rendered_sentence_is_cut_to_a_short_pause(renderer, tmp_path):
    from assistant.speech.silence import PAUSE_KEPT, SILENCE_LEVEL, trim_silent_end

    path = tmp_path / "turn.wav"
    renderer.render_to("Turn 2: Ben's turn.", path)
    before, _ = measure(path)
    with wave.open(str(path), "rb") as sound:
        rate, samples = sound.getframerate(), array.array("h", sound.readframes(sound.getnframes()))
    heard = max(n for n, v in enumerate(samples) if abs(v) >= SILENCE_LEVEL) + 1
    assert before - heard / rate > 0.2, "the engine leaves a silence after the sentence"
    trim_silent_end(path)
    after, _ = measure(path)
    assert after == pytest.approx(heard / rate + PAUSE_KEPT, abs=0.002)  # the words all kept, a short pause after
    with wave.open(str(path), "rb") as sound:
        assert sound.readframes(heard) == samples[:heard].tobytes()
    quiet = tmp_path / "quiet.wav"
    with wave.open(str(quiet), "wb") as sound:  # nothing but silence: left as it is
        sound.setparams((1, 2, 22050, 0, "NONE", "not compressed"))
        sound.writeframes(bytes(4410))
    trim_silent_end(quiet)
    assert measure(quiet)[0] == pytest.approx(0.1)


def test_render_without_a_wav_engine_is_an_error_in_words(tmp_path):
    service = make_speaker(SpeechSettings(backend="silent", earcons=False))
    try:
        with pytest.raises(SpeechError, match="cannot write sound files"):
            service.render_to(SHORT, tmp_path / "x.wav")
    finally:
        service.close()


def logging_player(log: Path, exit_code: int = 0) -> Player:
    """A stand-in player: notes each file it is given and its length, makes noise on both outputs, then ends."""
    script = f'echo "$1" >> "{log}"; echo playing; echo complaint >&2; exit {exit_code}'
    return Player(("sh", "-c", script, "player"))


def lingering_player(log: Path) -> Player:
    """A stand-in player that plays "forever" (until killed), noting each file."""
    return Player(("sh", "-c", f'echo "$1" >> "{log}"; exec sleep 60', "player"))


def speak_with(backend, *texts, interrupt: str = ""):
    service = SpeechService(backend)
    try:
        assert service.ready.wait(60)
        for text in texts:
            service.say(text)
        if interrupt:
            service.interrupt(interrupt)
        assert service.wait_idle(20)
    finally:
        service.close()
    return service


def lines(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def wait_for_lines(log: Path, count: int, service) -> None:
    """Wait until a stand-in player has noted `count` files (a guard of about 10 s, not a timing)."""
    for _ in range(1000):
        if len(lines(log)) >= count:
            return
        service.wait_idle(0.01)
    raise AssertionError(f"the player noted {lines(log)}")


def test_a_player_that_succeeds_plays_every_sentence(tmp_path, capfd):
    log = tmp_path / "played.log"
    service = speak_with(Pyttsx3Backend(logging_player(log)), LONG)
    played = lines(log)
    assert len(played) == 2  # two sentences, each its own file, rendered while the one before played
    assert service.notices == [speech_backend_chosen("pyttsx3", "sh")]
    assert capfd.readouterr() == ("", "")


@needs_espeak
def test_espeak_ng_renders_a_sentence_ahead_nicer_than_the_app_in_its_session_and_the_first_as_the_app(
    tmp_path, monkeypatch
):
    """The first sentence is what the player waits for; the next renders while it plays, yielding the cores to the
    app's reply: nicer than the app, and in the app's session (where each session has an equal share of the cores,
    a niceness counts only within one). Both in a process group of their own, out of Ctrl+C's reach. The engine is
    the real one, behind a script that notes its process group, session and niceness once it has its text."""
    noted = tmp_path / "noted.log"
    folder = tmp_path / "bin"
    folder.mkdir()
    engine = folder / "espeak-ng"
    real = shutil.which("espeak-ng")
    engine.write_text(
        f'#!/bin/sh\ntext=$(cat)\necho $$ $(cut -d" " -f5,6,19 /proc/$$/stat) >> "{noted}"\n'
        f'printf %s "$text" | "{real}" "$@"\n'
    )
    engine.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    log = tmp_path / "played.log"
    service = speak_with(EspeakBackend(logging_player(log)), LONG)
    own = os.getpriority(os.PRIO_PROCESS, 0)
    (first, first_group, first_session, first_nice), (ahead, ahead_group, ahead_session, ahead_nice) = (
        [int(field) for field in line.split()] for line in lines(noted)
    )
    assert (first_group, first_session, first_nice) == (first, first, own)
    assert (ahead_group, ahead_session, ahead_nice) == (ahead, os.getsid(0), min(19, own + AHEAD_NICENESS))
    assert len(lines(log)) == 2  # both rendered and played
    assert service.notices == [speech_backend_chosen("espeak-ng", "sh")]


def test_a_player_that_is_missing_gives_one_notice_and_no_terminal_noise(capfd):
    service = speak_with(Pyttsx3Backend(Player(("no-such-player-program",))), SHORT, LONG, SHORT)
    assert service.notices[1:] == [player_missing("no-such-player-program", "No such file or directory")]
    assert service.history == [SHORT, LONG, SHORT]
    assert capfd.readouterr() == ("", "")


def test_a_player_that_dies_gives_one_notice_and_no_terminal_noise(tmp_path, capfd):
    log = tmp_path / "played.log"
    service = speak_with(Pyttsx3Backend(logging_player(log, exit_code=3)), SHORT, SHORT)
    assert len(lines(log)) == 2
    assert service.notices[1:] == [player_failed("sh", 3)]
    assert capfd.readouterr() == ("", "")


@pytest.mark.skipif(not shutil.which("aplay"), reason="aplay is not installed")
def test_aplay_on_a_device_that_does_not_exist_makes_no_terminal_noise(capfd):
    player = Player.find("aplay", "no-such-device")
    service = speak_with(EspeakBackend(player) if shutil.which("espeak-ng") else Pyttsx3Backend(player), SHORT)
    assert len(service.notices) == 2 and "aplay stopped with error" in service.notices[1]
    assert capfd.readouterr() == ("", "")


def test_an_interrupt_kills_the_player_and_the_next_utterance_plays(tmp_path, capfd):
    log = tmp_path / "played.log"
    backend = Pyttsx3Backend(lingering_player(log))
    service = SpeechService(backend)
    try:
        service.say(LONG)
        wait_for_lines(log, 1, service)  # the first sentence is playing (its player noted its file)
        service.interrupt("Yay.")
        wait_for_lines(log, 2, service)
        service.stop()
        assert service.wait_idle(5)
    finally:
        service.close()
    first, second = lines(log)
    assert first != second  # the second sentence of LONG never played: "Yay." came next
    assert service.history == [LONG, "Yay."]
    assert service.notices == [speech_backend_chosen("pyttsx3", "sh")]  # a kill is not a failure
    assert capfd.readouterr() == ("", "")


def test_earcons_are_short_distinct_and_audible(tmp_path):
    files = write_earcons(tmp_path / "earcons")
    assert set(files) == set(EARCONS)
    measured = {name: measure(path) for name, path in files.items()}
    for seconds, rms in measured.values():
        assert 0.03 <= seconds <= 0.5
        assert rms > 0.05
    assert len({path.read_bytes() for path in files.values()}) == len(files)
    before = {path: path.stat().st_mtime_ns for path in files.values()}
    assert write_earcons(tmp_path / "earcons") == files  # written once, then reused
    assert {path: path.stat().st_mtime_ns for path in files.values()} == before


def test_earcons_play_on_their_own_channel_while_speech_plays(tmp_path, capfd):
    speech_log, sound_log = tmp_path / "speech.log", tmp_path / "sounds.log"
    channel = EarconChannel(logging_player(sound_log), write_earcons(tmp_path / "earcons"))
    service = SpeechService(Pyttsx3Backend(lingering_player(speech_log)), earcons=channel)
    try:
        service.say(LONG)
        wait_for_lines(speech_log, 1, service)
        service.earcon("card-read")  # speech is still "playing": the sound does not wait for it
        wait_for_lines(sound_log, 1, service)
        assert service.busy
        service.stop()
    finally:
        service.close()
    assert Path(lines(sound_log)[0]).name.startswith("card-read")
    assert capfd.readouterr() == ("", "")


def test_say_to_writes_a_measurable_wav(cli, tmp_path):
    target = tmp_path / "card.wav"
    result = cli("say", "--to", str(target), LONG, home=tmp_path)
    assert result.returncode == 0, result.stderr
    seconds, rms = measure(target)
    assert seconds > 3 and rms > 0.02
    assert result.stdout.strip() == wav_written(str(target), seconds)
    assert result.stderr == ""


def test_say_with_nothing_to_say_it_with_fails_in_words(cli, tmp_path):
    result = cli("say", "--backend", "silent", "hello", home=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("Nothing was said: Speech is off")
    assert "Traceback" not in result.stderr


def test_say_with_a_damaged_settings_file_still_speaks_and_says_so(cli, tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").write_text("[speech]\nrate = 'fast'\n")
    target = tmp_path / "x.wav"
    result = cli("say", "--to", str(target), "Yay.", home=tmp_path)
    assert result.returncode == 0
    assert result.stderr.startswith("The settings file is damaged (speech.rate must be int (line 2))")
    assert measure(target)[0] > 0.2


def test_private_utterances_play_only_on_the_headphones_player(tmp_path, capfd):
    table, headphones = tmp_path / "table.log", tmp_path / "headphones.log"
    backend = Pyttsx3Backend(logging_player(table), logging_player(headphones))
    service = SpeechService(backend)
    try:
        service.say("Ben's turn.")
        service.say("Your hand. Yay.", private=True)
        assert service.wait_idle(20)
    finally:
        service.close()
    assert len(lines(table)) == 1 and len(lines(headphones)) == 2  # "Your hand." and "Yay." are two sentences
    assert capfd.readouterr() == ("", "")


@pytest.mark.skipif(not shutil.which("aplay"), reason="aplay is not installed")
def test_say_through_a_player_that_fails_says_so_in_one_sentence(cli, tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.toml").write_text('[speech]\nplayer = "aplay"\ndevice = "no-such-device"\n')
    result = cli("say", "Yay.", home=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().startswith("The sound player aplay stopped with error")
    assert len(result.stderr.strip().splitlines()) == 1


def test_every_earcon_a_kind_of_move_sounds_is_one_the_sound_adapter_plays():
    from assistant.core.words.kinds import KINDS

    assert {says.earcon for says in KINDS.values()} - {""} <= set(EARCONS)
