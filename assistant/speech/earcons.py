"""Earcons: short distinct sounds for "code seen", "card read", "error" and "your turn", and for another hand's
move that matters: a card played to the pile, a Neigh or an Instant, a card of the player's taken.

The app makes them itself (sine tones with soft edges, standard library `wave`, `math` and `array`) and writes
them once into a folder of the data directory. An earcon that belongs to a reply travels with its words through
the speech queue, so it is heard just before them, in order (the WAV backends put its samples at the start of the
first sentence's file). A cue on its own ("code seen" while aiming) plays at once on this channel: a small thread
that starts a player child process for each, so it never waits for speech.
"""

from __future__ import annotations

import array
import math
import queue
import sys
import threading
import wave
from pathlib import Path

from assistant.speech.player import Player, Playing, end_process
from assistant.speech.soundfile import place_wav

RATE = 22050
VERSION = 1
"""Part of each file name: raise it when a tone changes, so cached files are written again."""

#: Each earcon as notes (frequency in hertz, 0 for a rest; length in milliseconds).
TONES: dict[str, tuple[tuple[float, int], ...]] = {
    "code-seen": ((1320, 40),),  # one short high tick: the camera sees a code, not yet read
    "card-read": ((660, 60), (0, 20), (990, 90)),  # rising pair: got it
    "error": ((330, 110), (0, 30), (220, 160)),  # falling, low and longer
    "your-turn": ((523, 90), (659, 90), (784, 140)),  # a rising three-note call
    # another hand's move, heard before its words (`placement.move_earcon`)
    "pile": ((880, 50),),  # one short mid tick: a card went to the pile, answer it or not
    "neigh": ((988, 40), (0, 20), (988, 40)),  # a quick double knock: a Neigh or an Instant
    "lost-card": ((440, 80), (0, 20), (294, 140)),  # falling, softer than an error: a card of yours is gone
    # one voice, her words first: any other move of another hand, known at once at its player's seat
    "move": ((587, 35),),  # one short low tick: a move of no earcon of its own (a draw, a turn's end)
}
EARCONS = tuple(TONES)


def tone_samples(notes: tuple[tuple[float, int], ...], volume: int = 100) -> array.array:
    """16-bit samples of the notes, each with 5 ms fades so they start and stop without a click."""
    samples = array.array("h")
    peak = 0.5 * 32767 * min(max(volume, 0), 100) / 100
    fade = int(RATE * 0.005)
    for frequency, milliseconds in notes:
        count = int(RATE * milliseconds / 1000)
        for i in range(count):
            edge = min(1.0, i / fade, (count - 1 - i) / fade) if fade else 1.0
            value = math.sin(2 * math.pi * frequency * i / RATE) if frequency else 0.0
            samples.append(int(peak * edge * value))
    if sys.byteorder == "big":
        samples.byteswap()  # WAV files are little-endian
    return samples


def write_earcons(folder: Path, volume: int = 100) -> dict[str, Path]:
    """Write every earcon into `folder` unless already there; return the file of each."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for name, notes in TONES.items():
        path = folder / f"{name}-v{VERSION}-{volume}.wav"
        if not path.exists():
            partial = path.with_suffix(".part")
            with wave.open(str(partial), "wb") as sound:
                sound.setnchannels(1)
                sound.setsampwidth(2)
                sound.setframerate(RATE)
                sound.writeframes(tone_samples(notes, volume).tobytes())
            partial.replace(path)  # a crash never leaves half a file under the real name
        files[name] = path
    return files


class EarconChannel:
    """Plays earcons one at a time on their own thread and player processes; a new one cuts the last one off."""

    def __init__(self, player: Player, files: dict[str, Path], private_player: Player | None = None) -> None:
        self.player = player
        self.private_player = private_player
        self.files = files
        self.played: list[str] = []
        """The earcons started, in order (tests and the benchmark read it)."""
        self._requests: queue.SimpleQueue = queue.SimpleQueue()
        self._process: Playing | None = None
        self._waiting_process: Playing | None = None
        """A sound the speech worker is waiting on (`play_and_wait`)."""
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="earcons", daemon=True)
        self._thread.start()

    @property
    def one_at_a_time(self) -> bool:
        """Its player plays one sound at a time in this process (Windows' winsound): an earcon played while words
        are said would cut them off."""
        return self.player.winsound is not None

    def play(self, name: str, private: bool = False, place: float = 0.0) -> None:
        """Queue an earcon; returns at once. `place`: where it is heard, -1 (left) to +1 (right), 0 the middle."""
        self._requests.put((name, private, place))

    def _placed(self, name: str, place: float) -> Path:
        """The earcon's file heard at `place` (a copy, made once per place, beside the earcon's own file)."""
        path = self.files[name]
        if not place:
            return path
        placed = path.with_name(f"{path.stem}-at-{place:+.2f}.wav")
        if not placed.exists():
            partial = placed.with_suffix(".part")
            partial.write_bytes(path.read_bytes())
            place_wav(partial, place)
            partial.replace(placed)
        return placed

    def _run(self) -> None:
        while True:
            request = self._requests.get()
            if request is None:
                break
            name, private, place = request
            player = self.private_player if private and self.private_player else self.player
            end_process(self._process)
            try:
                self._process = player.start(self._placed(name, place))
            except (OSError, KeyError):
                continue  # no sound for this one: the speech still carries the message
            self.played.append(name)
            self._reap()

    def _reap(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        self._process = None

    def play_and_wait(self, name: str, private: bool, wanted) -> None:
        """Play an earcon and wait for its end (the speech worker, before words a backend says itself); a cut
        (`stop_waiting`) ends it at once."""
        player = self.private_player if private and self.private_player else self.player
        try:
            process = player.start(self.files[name])
        except (OSError, KeyError):
            return
        with self._lock:
            if not wanted():
                end_process(process)
            self._waiting_process = process
        process.wait()
        with self._lock:
            self._waiting_process = None
        self.played.append(name)

    def stop_waiting(self) -> None:
        """Cut the earcon the speech worker is waiting on."""
        with self._lock:
            end_process(self._waiting_process)

    def stop(self) -> None:
        """Cut the sound playing now."""
        end_process(self._process)
        self.stop_waiting()

    def close(self) -> None:
        """Stop the channel's thread and any sound."""
        self._requests.put(None)
        self._thread.join(timeout=1.0)
        end_process(self._process)
        if self._process is not None:
            self._process.wait()
