"""Hearing without a sound card: ALSA's `file` plugin captures exactly what a player sends to the sound device.

`AlsaCapture(folder)` writes a home folder whose `.asoundrc` makes ALSA's default device a `file` PCM (raw
samples into `folder/audio/play`, `slave.pcm "null"`). Any program started with that home (`capture.env`) —
aplay, espeak-ng, speech-dispatcher and its output module — "plays" into those files instead of a sound card.
With `truncate false` ALSA never overwrites: each time the device is opened it writes a new file (`play`,
`play.0001`, `play.0002`, ...), so one player process is one numbered file, in the order they started.

Test and benchmark support, not shipped in the app: the tests and `benchmarks/speech.py` use it to check real
sound (bytes, their length in seconds, silence or not) and to time a call to the first audio byte of the right
sentence. ALSA's null device takes samples as fast as they come, so a player into the capture ends at once;
`paced_player()` adds the sound's own length after it, as a sound card would take, so speech still has a
duration to interrupt and to fall behind with.
"""

from __future__ import annotations

import array
import math
import os
import sys
import threading
import time
from pathlib import Path

from assistant.speech.player import Player

ASOUNDRC = """pcm.!default {{
    type file
    slave.pcm "null"
    file "{path}"
    format "raw"
    truncate false
}}
"""

#: The sample format espeak-ng (and pyttsx3's espeak driver) and the earcons use: 16-bit mono at 22050 Hz.
BYTES_PER_SECOND = 22050 * 2


class AlsaCapture:
    """A folder where everything played through ALSA's default device is captured, one file per opening."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.home = self.folder / "home"
        self.audio = self.folder / "audio"
        self.home.mkdir(parents=True, exist_ok=True)
        self.audio.mkdir(parents=True, exist_ok=True)
        self.base = self.audio / "play"
        (self.home / ".asoundrc").write_text(ASOUNDRC.format(path=self.base), encoding="utf-8")

    @property
    def env(self) -> dict[str, str]:
        """The environment of a program whose sound should be captured."""
        return {**os.environ, "HOME": str(self.home)}

    def player(self, *options: str) -> Player:
        """Real aplay, playing into the capture."""
        return Player(("env", f"HOME={self.home}", "aplay", "-q", *options))

    def paced_player(self) -> Player:
        """Real aplay into the capture, then a wait as long as the sound (soxi -D), as a sound card would take.

        A kill during the wait is an interrupt: the sound has "stopped" there."""
        script = f'HOME="{self.home}" aplay -q "$1" && exec sleep "$(soxi -D "$1")"'
        return Player(("sh", "-c", script, "player"))

    def play_path(self, index: int) -> Path:
        """The file of the `index`-th play (from 0), written or not."""
        return self.base if index == 0 else self.audio / f"play.{index:04d}"

    def plays(self) -> list[Path]:
        """The files written so far, in the order the device was opened."""
        files = [p for p in self.audio.iterdir() if p.name == "play" or p.name.startswith("play.")]
        return sorted(files, key=lambda p: 0 if p.name == "play" else int(p.name.split(".")[1]))

    def audio_bytes(self) -> list[bytes]:
        """The samples of each play, in order."""
        return [p.read_bytes() for p in self.plays()]

    def wait_plays(self, count: int, timeout: float = 10.0) -> list[Path]:
        """Wait until `count` plays have sound in them (a guard, not a timing); their files."""
        end = time.monotonic() + timeout
        while True:
            plays = [p for p in self.plays() if p.stat().st_size > 0]
            if len(plays) >= count or time.monotonic() > end:
                return plays
            time.sleep(0.005)


class FirstBytes:
    """Watches a capture from a thread and notes, for each play, the moment its first audio byte arrived
    (`time.perf_counter()`, polled every `interval` seconds)."""

    def __init__(self, capture: AlsaCapture, interval: float = 0.0005) -> None:
        self.capture = capture
        self.interval = interval
        self.times: list[float] = []
        """When each play's first byte was seen, in play order (plays that stayed silent left out)."""
        self.silent: list[Path] = []
        """The files of plays that opened the device but wrote nothing before the next one opened it."""
        self._changed = threading.Condition()
        self._running = True
        self._thread = threading.Thread(target=self._watch, name="first-bytes", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        # Only the next file and the one after it are looked at (their names are known: play, play.0001, ...), so
        # a poll costs two stats however many plays there were, and the watcher does not slow down what it
        # measures.
        while self._running:
            now = time.perf_counter()
            path = self.capture.play_path(len(self.times) + len(self.silent))
            try:
                arrived = path.stat().st_size > 0
            except OSError:
                arrived = False
            if arrived:
                with self._changed:
                    self.times.append(now)
                    self._changed.notify_all()
                continue  # the one after it may have arrived in the same poll
            following = self.capture.play_path(len(self.times) + len(self.silent) + 1)
            if following.exists() and path.exists() and path.stat().st_size == 0:
                # the device was opened and closed with no sound (a player killed at once), and the next one
                # is already there: this file will stay empty; it is left out so the watch goes on
                self.silent.append(path)
                continue
            time.sleep(self.interval)

    def wait(self, count: int, timeout: float = 10.0) -> float | None:
        """The moment the `count`-th play's first byte arrived, waiting for it; None when it never did."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.times) >= count, timeout):
                return None
            return self.times[count - 1]

    @property
    def count(self) -> int:
        with self._changed:
            return len(self.times)

    def quiet(self, seconds: float) -> None:
        """Wait until no new play has begun for `seconds` (a guard, not a timing)."""
        count, since = self.count, time.monotonic()
        while time.monotonic() - since < seconds:
            time.sleep(0.02)
            if self.count != count:
                count, since = self.count, time.monotonic()

    def close(self) -> None:
        self._running = False
        self._thread.join(timeout=1.0)


def loudness(raw: bytes) -> float:
    """RMS loudness (0 to 1) of raw 16-bit little-endian samples."""
    samples = array.array("h", raw[: len(raw) - len(raw) % 2])
    if sys.byteorder == "big":
        samples.byteswap()
    return math.sqrt(sum(s * s for s in samples) / max(len(samples), 1)) / 32768


def seconds(raw: bytes) -> float:
    """The length of raw samples in the espeak-ng format (16-bit mono, 22050 Hz)."""
    return len(raw) / BYTES_PER_SECOND


#: speech-dispatcher's configuration for a screen reader's voice that takes real time: a generic module whose
#: command notes when a message began, streams espeak-ng's sound as it is made into aplay (into the capture), as a
#: screen reader's synthesiser streams it, notes its length and waits until it has played as long, as a sound card
#: would take; its end noted too, and its sound kept (`ReaderStandIn.said`, "sound"). A cancel kills the command, so
#: an end not noted is a message cut.
READER_CONFIG = """LogLevel 2
LogDir "{log}"
AudioOutputMethod "alsa"
AddModule "reader" "sd_generic" "{module}"
DefaultModule reader
"""
READER_MODULE = """Debug 0
GenericExecuteSynth "printf %s \\'$DATA\\' | {script}"
GenericCmdDependency "espeak-ng"
GenericLanguage "en" "en" "utf-8"
AddVoice "en" "MALE1" "en"
"""
READER_SCRIPT = """#!/bin/sh
text=$(cat)
out=$(mktemp --suffix=.wav)
start=$(date +%s.%N)
printf 'began\t%s\t%s\n' "$start" "$text" | tr -d '\r' >> "{said}"
espeak-ng --stdout "$text" | tee "$out" | HOME="{home}" aplay -q
seconds=$(awk -v b="$(stat -c %s "$out")" 'BEGIN {{ print (b - 44) / 44100 }}')  # 16-bit mono at 22050 Hz
printf 'length\t%s\n' "$seconds" >> "{said}"
sleep "$(awk -v s="$seconds" -v b="$start" -v n="$(date +%s.%N)" 'BEGIN {{ r = s - (n - b); print (r > 0 ? r : 0) }}')"
printf 'ended\t%s\n' "$(date +%s.%N)" >> "{said}"
mv "$out" "{sound}/$start.wav"
"""


class ReaderStandIn:
    """A real speech-dispatcher standing for her screen reader (Orca speaks through it; NVDA and JAWS queue alike):
    what it is given is rendered, played into the capture and takes its time, message after message; `said()`
    reads back each message's start (this process's `time.perf_counter()`), length, words, end (None: cut) and
    the WAV of what it played (a message heard to its end)."""

    def __init__(self, capture: AlsaCapture, folder: Path) -> None:
        import shutil
        import subprocess

        from assistant.speech.dispatcher import socket_answers

        self.folder = folder
        runtime, config, log = folder / "run", folder / "speechd-config", folder / "speechd-log"
        for part in (runtime, config, log):
            part.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.said_path = folder / "reader-said.tsv"
        script = folder / "reader.sh"
        self.sound = folder / "sound"
        self.sound.mkdir(parents=True, exist_ok=True)
        script.write_text(
            READER_SCRIPT.format(said=self.said_path, home=capture.home, sound=self.sound), encoding="utf-8"
        )
        script.chmod(0o755)
        module = config / "reader.conf"
        module.write_text(READER_MODULE.format(script=script), encoding="utf-8")
        (config / "speechd.conf").write_text(READER_CONFIG.format(log=log, module=module), encoding="utf-8")
        self.socket = runtime / "speech-dispatcher" / "speechd.sock"
        program = shutil.which("speech-dispatcher")
        if program is None:
            raise SystemExit("speech-dispatcher is needed (scripts/setup.sh installs it).")
        env = {**os.environ, "HOME": str(capture.home), "XDG_RUNTIME_DIR": str(runtime)}
        env.pop("SPEECHD_ADDRESS", None)
        self.process = subprocess.Popen(
            [program, "-s", "-t", "0", "-C", str(config), "-S", str(self.socket), "-P", str(runtime / "pid")],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not socket_answers(self.socket) and self.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        if not socket_answers(self.socket):
            self.close()
            raise SystemExit("speech-dispatcher did not start (see its log in the run's folder).")
        self.environ = {"XDG_RUNTIME_DIR": str(runtime), "SPEECHD_ADDRESS": f"unix_socket:{self.socket}"}

    def said(self) -> list[dict]:
        """Each message the reader began: start, seconds, text, end (None when it was cut), and "sound": the WAV it
        played (None when it was cut)."""
        offset = time.time() - time.perf_counter()
        out: list[dict] = []
        if not self.said_path.exists():
            return out
        for line in self.said_path.read_text(encoding="utf-8", errors="replace").splitlines():
            parts = line.split("\t")
            if parts[0] == "began" and len(parts) >= 3:
                out.append({"start": float(parts[1]) - offset, "seconds": 0.0, "text": parts[2], "end": None,
                            "sound": None, "name": parts[1]})  # fmt: skip
            elif parts[0] == "length" and out:
                out[-1]["seconds"] = float(parts[1] or 0)
            elif parts[0] == "ended" and out and out[-1]["end"] is None:
                out[-1]["end"] = float(parts[1]) - offset
                kept = self.sound / f"{out[-1]['name']}.wav"
                out[-1]["sound"] = str(kept) if kept.exists() else None
        return out

    def close(self) -> None:
        import signal

        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except Exception:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
