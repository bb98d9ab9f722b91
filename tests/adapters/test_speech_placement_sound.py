# ruff: noqa: F811 - the fixtures imported from speech_fixtures are used as test arguments
"""Who without words, heard for real: espeak-ng renders, aplay plays into ALSA's file plugin, and what reached the
"sound card" is measured. Another hand's move is heard on that player's side, faster when the player asked for it,
with its earcon in the same place; her own replies in the middle."""

from __future__ import annotations

import array
import math
import shutil
import sys

import pytest
from speech_fixtures import alsa_capture  # noqa: F401 - fixtures

from assistant.core.game.about import About, MoveKind, Topic
from assistant.core.speech.placement import Seating
from assistant.core.speech.utterance import Utterance
from assistant.speech import SpeechService
from assistant.speech.backends import EspeakBackend
from tests.facts import fact

SENTENCE = "Ben played Basic Unicorn (Blue)."
RATE = 22050  # espeak-ng's samples a second, 16-bit


def channels(raw: bytes) -> tuple[float, float]:
    """The RMS loudness of the even and odd samples of a raw 16-bit capture: left and right for a stereo one."""
    samples = array.array("h", raw[: len(raw) // 4 * 4])
    if sys.byteorder == "big":
        samples.byteswap()
    left, right = (math.sqrt(sum(s * s for s in side) / max(len(side), 1)) for side in (samples[0::2], samples[1::2]))
    return left, right


def moved(seat: int) -> tuple[About, ...]:
    name = ("Ana", "Ben", "Cy", "Dee")[seat]
    return (
        fact(
            Topic.MOVE,
            f"{name} played Basic Unicorn (Blue).",
            seat,
            player=name,
            move=MoveKind.PLAY,
            card="Basic Unicorn (Blue)",
        ),
    )


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
def test_another_hands_move_is_heard_at_that_players_seat_and_faster_her_own_in_the_middle(alsa_capture):
    backend = EspeakBackend(alsa_capture.player())
    backend.others_faster = 40
    service = SpeechService(backend)
    try:
        assert service.ready.wait(10), service.notices
        service.seating = Seating(4, listener=0)
        service.say(SENTENCE)  # her own reply
        assert service.wait_idle(20)
        service.speak(Utterance(SENTENCE, tells=moved(1), other=True))  # Ben: the next player, at her left
        assert service.wait_idle(20)
        service.speak(Utterance(SENTENCE, tells=moved(3), other=True))  # Dee: the one before her, at her right
        assert service.wait_idle(20)
    finally:
        service.close()
    own, ben, dee = (path.read_bytes() for path in alsa_capture.wait_plays(3))
    left, right = channels(own)
    assert 0.8 < left / right < 1.25  # a mono sound: the middle
    left, right = channels(ben)
    assert left > 3 * right > 0  # heard at her left, the right side lowered
    left, right = channels(dee)
    assert right > 3 * left > 0
    own_seconds, ben_seconds = len(own) / (2 * RATE), len(ben) / (4 * RATE)  # (mono, stereo)
    assert ben_seconds < 0.85 * own_seconds  # the other hands' words said faster, as asked


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
def test_a_second_voice_plays_another_hands_move_at_its_seat_while_her_own_reply_is_still_playing(alsa_capture):
    """Two voices on the real sound path: her own long reply plays (paced as a sound card plays it), another
    hand's move arrives, and its sound reaches the device before hers has ended, at that player's side."""
    from benchmarks.capture import FirstBytes

    table = SpeechService(EspeakBackend(alsa_capture.paced_player()))
    service = SpeechService(EspeakBackend(alsa_capture.paced_player()), table=table)
    first_bytes = FirstBytes(alsa_capture)
    own = ("Ana's Stable: Baby Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Green), Rainbow Aura, Yay, Stable "
           "Artist, Unicorn Lasso and Extremely Destructive Unicorn.")  # one sentence: one play  # fmt: skip
    try:
        assert service.ready.wait(10) and table.ready.wait(10), service.notices
        service.seating = Seating(4, listener=0)
        service.say(own)
        assert first_bytes.wait(1, 20) is not None
        service.speak(Utterance(SENTENCE, tells=moved(1), other=True))  # Ben, at her left
        assert first_bytes.wait(2, 20) is not None
        assert service.wait_idle(30)
    finally:
        service.close()
        first_bytes.close()
    mine, ben = (path.read_bytes() for path in alsa_capture.wait_plays(2))
    own_seconds = len(mine) / (2 * RATE)
    assert own_seconds > 3
    assert first_bytes.times[1] < first_bytes.times[0] + own_seconds  # not after hers: beside it
    left, right = channels(ben)
    assert left > 3 * right > 0
