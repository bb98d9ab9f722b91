"""Table pace on the real sound path: espeak-ng's renders played through the app's mixer, on the mixer's own clock.
One voice: her key every 1.2 s, phones' moves between them, every move heard within 10 s of its tap. The table
voice: a move tapped while another hand's long sentence is said is heard within a second."""

from __future__ import annotations

import shutil
import threading
import time

import numpy as np
import pytest

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.speech.utterance import Utterance
from assistant.speech import SpeechService
from assistant.speech.backends import EspeakBackend
from assistant.speech.mixer import Mixer
from assistant.speech.player import Player
from tests.facts import fact

#: Real seconds any one wait of the test may take (espeak-ng renders on a loaded machine).
PATIENCE_S = 60.0


class GatedClock:
    """The mixer's clock: it goes on only as the mixer paces itself (it sleeps as long as its sound is ahead), and
    never past the moment the test lets it reach (`run_to`), so a key comes exactly when it is due."""

    def __init__(self) -> None:
        self.now = 0.0
        self.gate = 0.0
        self.cond = threading.Condition()

    def __call__(self) -> float:
        with self.cond:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self.cond:
            target = self.now + seconds
            if target > self.gate:
                self.now = max(self.now, self.gate)
                self.cond.notify_all()
                self.cond.wait_for(lambda: self.gate >= target, timeout=PATIENCE_S)
            self.now = max(self.now, target)
            self.cond.notify_all()

    def run_to(self, moment: float, idle) -> None:
        """Let the mixer's time run to `moment`; when nothing plays or waits to be said, it is moved there. `idle` is
        asked outside the clock's lock: the speech thread reads the clock while holding its own lock, which `idle`
        takes too (asked inside, the two threads could each wait on the other's lock)."""
        deadline = time.monotonic() + PATIENCE_S
        with self.cond:
            self.gate = moment
            self.cond.notify_all()
        while True:
            with self.cond:
                if self.now >= moment:
                    break
            if idle():
                with self.cond:
                    self.now = max(self.now, moment)
                    self.cond.notify_all()
                break
            assert time.monotonic() < deadline, f"stuck at {self.now} on the way to {moment}"
            with self.cond:
                self.cond.wait(0.005)


class Silent:
    """A sound device that takes every block (the mixer paces itself by its clock)."""

    def open(self) -> None:
        pass

    def write(self, block: np.ndarray) -> None:
        pass

    def close(self) -> None:
        pass


def _move(seat: int, card: str, at: int) -> About:
    player = ("Ana", "Ben", "Cy", "Dee")[seat]
    return fact(Topic.MOVE, f"{player} discarded {card}.", seat, player=player, move=MoveKind.DISCARD, card=card, at=at)


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
def test_one_voice_through_the_mixer_hears_every_phone_move_within_10_s_while_her_keys_keep_coming():
    clock = GatedClock()
    mixer = Mixer(Silent(), clock=clock, sleep=clock.sleep)
    backend = EspeakBackend(Player((), mixer=mixer))
    started: list[tuple[float, str]] = []
    backend.starting_hook = lambda label: started.append((clock(), label))
    service = SpeechService(backend, clock=clock)
    cards = ["Glitter Bomb", "Unicorn Poison", "Black Knight", "Extra Tail"]
    taps = [(0.5 + 2.5 * n, card) for n, card in enumerate(cards)]
    keys = [1.2 * n for n in range(18)]  # about 21 s of her keys, one every 1.2 s
    try:
        assert service.ready.wait(PATIENCE_S)
        events = sorted([(t, "key", n) for n, t in enumerate(keys)] + [(t, "tap", n) for n, (t, _) in enumerate(taps)])
        idle = lambda: not service.busy and not mixer.busy  # noqa: E731
        for moment, kind, n in events:
            clock.run_to(moment, idle)
            if kind == "key":
                service.new_input()
                service.say(f"Reply {n}. Ana's Stable holds Basic Unicorn, Rainbow Aura and Neigh. Say more.")
            else:
                seat, card = 1 + n % 3, cards[n]
                player = ("Ana", "Ben", "Cy", "Dee")[seat]
                text = f"{player}, from a phone: discarded {card}. It went to the discard pile."
                service.speak(Utterance(text, other=True, hand=seat, tells=(_move(seat, card, n + 1),)))
        clock.run_to(keys[-1] + 30.0, idle)
    finally:
        service.close()
        mixer.close()
    waits = {}
    for tapped, card in taps:
        heard = [at for at, label in started if card in label and at >= tapped]
        waits[card] = round(min(heard) - tapped, 2) if heard else None
    assert all(wait is not None and wait <= 10.0 for wait in waits.values()), (waits, started)
    # her keys kept coming all the while: most of her replies began at their key
    at_once = [
        n for n, t in enumerate(keys) if any(abs(at - t) < 0.1 and f"Reply {n}." in label for at, label in started)
    ]
    assert len(at_once) >= len(keys) // 2, (at_once, started)


def _long_sentence_then_a_move(*, held: bool) -> list[tuple[float, str]]:
    """Ben's long sentence said by the table voice on the mixer, Cy's move tapped at 0.6 s of it; what each player
    began with, at what moment of the mixer's clock. `held`: the speech thread is held just after the mixer began
    Ben's sentence until Cy's move has arrived (a loaded machine: the mixer plays on while that thread waits for the
    interpreter)."""
    clock = GatedClock()
    mixer = Mixer(Silent(), clock=clock, sleep=clock.sleep)
    backend = EspeakBackend(Player((), mixer=mixer), rate=69)
    started: list[tuple[float, str]] = []
    backend.starting_hook = lambda label: started.append((clock(), label))
    arrived = threading.Event()
    if held:
        backend.started_hook = lambda: None if len(started) > 1 else arrived.wait(PATIENCE_S)  # Ben's alone
    table = SpeechService(backend, clock=clock)
    idle = lambda: not table.busy and not mixer.busy  # noqa: E731
    ben = fact(Topic.MOVE, "Ben played Glitter Bomb.", 1, player="Ben", move=MoveKind.PLAY, card="Glitter Bomb", at=1)
    cy = fact(Topic.MOVE, "Cy played Neigh.", 2, player="Cy", move=MoveKind.NEIGH, card="Neigh", at=2)
    long = "Ben, from a phone: played Glitter Bomb, a Magic card that makes him sacrifice a card and destroy one."
    try:
        assert table.ready.wait(PATIENCE_S)
        table.speak(Utterance(long, other=True, hand=1, tells=(ben,)))
        clock.run_to(0.6, idle)
        table.speak(Utterance("Cy, from a phone: played Neigh on Ben's Glitter Bomb.", other=True, hand=2, tells=(cy,)))
        arrived.set()
        if held:  # the mixer's clock stays at the tap until the speech thread has gone on (a cut sound plays on
            # until the thread it waits for kills it: a few milliseconds of a real clock, unbounded on this one)
            deadline = time.monotonic() + PATIENCE_S
            while not (len(started) > 1 or backend.played):  # the next player began, or Ben's went on playing
                assert time.monotonic() < deadline, started
                threading.Event().wait(0.005)  # (the speech thread, polled)
        clock.run_to(30.0, idle)
    finally:
        arrived.set()
        table.close()
        mixer.close()
    return started


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
@pytest.mark.parametrize("held", [False, True], ids=["at-its-pace", "speech-thread-held-as-the-mixer-begins"])
def test_the_table_voice_through_the_mixer_says_a_move_tapped_during_a_long_sentence_within_a_second(held: bool):
    started = _long_sentence_then_a_move(held=held)
    labels = [label for _, label in started]
    assert labels[0].startswith("Ben, from a phone"), started
    assert labels[1] == "Ben played Glitter Bomb.", started  # cut, said again in its short words
    heard = min(at for at, label in started if label.startswith("Cy"))
    assert heard - 0.6 <= 1.0, started
