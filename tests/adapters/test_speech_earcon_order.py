# ruff: noqa: F811 - the fixtures imported from speech_fixtures are used as test arguments
"""The turn's earcon is heard with the sentence that says the turn ended, in every route: where the backend plays the
earcon itself (espeak-ng and pyttsx3 through a player: her voice, the table voice, one voice) and where the earcon's
own player goes between the words (speech-dispatcher, beside her screen reader)."""

from __future__ import annotations

import shutil

import pytest
from speech_fixtures import alsa_capture  # noqa: F401 - fixtures

from assistant.core.game.about import MoveKind, Topic
from assistant.core.game.segment import Part, Segment, Verbatim
from assistant.core.speech.utterance import Priority, Utterance
from assistant.speech import SpeechService
from assistant.speech.backends import EspeakBackend
from assistant.speech.earcons import EarconChannel, write_earcons
from assistant.speech.player import Player
from tests.facts import fact, said
from tests.recording_backend import RecordingBackend

COUNT = fact(Topic.COUNT, "Cy 3 Unicorns.", 2, player="Cy")
ENDED = fact(Topic.MOVE, "Cy's turn ended.", 2, player="Cy", move=MoveKind.END, at=9)
TURN = fact(Topic.TURN, "Ana's turn.", 0, player="Ana")


def turn_ended() -> Utterance:
    """Cy's turn end led by Cy's count, as a reply leads with its decisive facts, with the turn's earcon."""
    return Utterance(
        priority=Priority.IMPORTANT,
        sound="your-turn",
        tells=(ENDED,),
        facts=(COUNT, TURN),
        segments=(
            Segment(Verbatim("Cy 3 Unicorns."), (COUNT,), COUNT.states, Part.FACT),
            Segment(Verbatim("Cy's turn ended."), (ENDED,)),
            Segment(Verbatim("Turn 5: Ana's turn."), (TURN,), TURN.states),
        ),
    )


class Ordered:
    """What was heard, words and earcons, in the order they were played."""

    def __init__(self) -> None:
        self.heard: list[str] = []


class WordsAfterTheEarcon(RecordingBackend):
    """A backend that cannot play the earcon files itself (as speech-dispatcher and a screen reader)."""

    plays_sounds = False

    def __init__(self, order: Ordered) -> None:
        super().__init__()
        self.order = order

    def speak(self, utterance, wanted, more=lambda: True, finished=lambda index: None, began=lambda i, s: None):
        self.order.heard += utterance.split()
        super().speak(utterance, wanted, more, finished, began)


class RecordedChannel(EarconChannel):
    def __init__(self, order: Ordered, files) -> None:
        super().__init__(Player(("true",)), files)
        self.order = order

    def play_and_wait(self, name: str, private: bool, wanted) -> None:
        self.order.heard.append(f"[{name}]")


def test_where_the_earcon_plays_between_the_words_it_is_heard_just_before_the_turns_end(tmp_path):
    order = Ordered()
    service = SpeechService(WordsAfterTheEarcon(order), earcons=RecordedChannel(order, write_earcons(tmp_path / "e")))
    try:
        assert service.ready.wait(60)
        service.speak(turn_ended())
        assert service.wait_idle(20)
    finally:
        service.close()
    assert order.heard == ["Cy 3 Unicorns.", "[your-turn]", "Cy's turn ended.", "Turn 5: Ana's turn."]


@pytest.mark.skipif(not shutil.which("espeak-ng"), reason="espeak-ng is not installed")
def test_where_the_backend_plays_the_earcon_it_starts_the_sentence_of_the_turns_end(alsa_capture, tmp_path):
    files = write_earcons(tmp_path / "earcons")
    backend = EspeakBackend(alsa_capture.player())
    service = SpeechService(backend, earcons=EarconChannel(alsa_capture.player(), files))
    try:
        assert service.ready.wait(60), service.notices
        service.speak(turn_ended())
        assert service.wait_idle(20)
    finally:
        service.close()
    assert backend.played == ["Cy 3 Unicorns.", "[your-turn] Cy's turn ended.", "Turn 5: Ana's turn."]
    with open(files["your-turn"], "rb") as sound:
        chime = sound.read()[44:2044]  # (its first samples, past the WAV header)
    count, ended, _ = alsa_capture.audio_bytes()
    assert chime not in count and chime in ended


class Clock:
    """A clock moved on by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class PlacedChannel(EarconChannel):
    def __init__(self, files) -> None:
        super().__init__(Player(("true",)), files)
        self.asked: list[tuple[str, float]] = []

    def play(self, name: str, private: bool = False, place: float = 0.0) -> None:
        self.asked.append((name, place))
        super().play(name, private, place)


def test_one_voice_while_she_types_a_move_is_an_earcon_at_its_seat_at_once_and_its_words_at_her_pause(tmp_path):
    from assistant.core.speech.placement import Seating

    clock = Clock()
    backend = RecordingBackend()
    channel = PlacedChannel(write_earcons(tmp_path / "e"))
    service = SpeechService(backend, earcons=channel, clock=clock, at_pause=True)
    drew = fact(Topic.MOVE, "Ben drew a card.", 1, player="Ben", move=MoveKind.DRAW, at=3)
    neigh = fact(Topic.MOVE, "Dee played Neigh.", 3, player="Dee", move=MoveKind.NEIGH, card="Neigh", at=4)
    try:
        assert service.ready.wait(60)
        service.seating = Seating(4, listener=0)
        service.new_input()
        service.say("Ana 2 Unicorns.")  # her key's reply
        clock.now = 0.3
        service.speak(Utterance(tells=(drew,), other=True, segments=(Segment(Verbatim(said(drew)), (drew,)),)))
        service.speak(Utterance(tells=(neigh,), other=True, segments=(Segment(Verbatim(said(neigh)), (neigh,)),)))
        assert channel.asked == [("move", Seating(4, 0).place(1)), ("neigh", Seating(4, 0).place(3))]  # at once
        assert Seating(4, 0).place(1) < 0 < Seating(4, 0).place(3)  # Ben at her left, Dee at her right
        clock.now = 1.5
        assert not service.wait_idle(0.6)  # no pause yet: their words wait
        assert backend.said == ["Ana 2 Unicorns."]
        clock.now = 0.0 + 2.1  # no key for 2 s: her pause
        assert service.wait_idle(20)
    finally:
        service.close()
    assert backend.said[0] == "Ana 2 Unicorns."
    assert "Ben drew a card." in " ".join(backend.said[1:]) and "Dee played Neigh." in " ".join(backend.said[1:])


def test_one_voice_a_phones_move_whose_words_wait_is_known_by_its_earcon_at_once_and_once(tmp_path):
    """A phone's move within 3 s of its player's last line has no words now (`phone_desk.SPOKEN_EVERY`: its words
    wait for the line said merged). In one voice its earcon is heard at once, at its player's seat, as any move of
    another hand is; and not again when its merged line comes. Before, the speech was given nothing: no earcon."""
    from assistant.core.game.segment import Channel
    from assistant.core.language.reply import Origin, Reply
    from assistant.core.speech.placement import Seating
    from assistant.speech.replies import ReplySpeaker

    clock = Clock()
    backend = RecordingBackend()
    channel = PlacedChannel(write_earcons(tmp_path / "e"))
    service = SpeechService(backend, earcons=channel, clock=clock, at_pause=True)
    speaker = ReplySpeaker(service)
    speaker.players = lambda: ("Ana", "Ben", "Cy", "Dee")
    speaker.me = "Ana"
    drew = fact(Topic.MOVE, "Ben drew a card.", 1, player="Ben", move=MoveKind.DRAW, at=3)
    neigh = fact(Topic.MOVE, "Ben played Neigh.", 1, player="Ben", move=MoveKind.NEIGH, card="Neigh", at=4)
    waiting = Reply(segments=(Segment(Verbatim(said(neigh)), (neigh,), channel=Channel.SCREEN),)).coming(
        Origin.other_hand("Ben")
    )
    line = Reply(segments=(Segment(Verbatim("Ben drew a card and played Neigh."), (drew, neigh)),)).coming(
        Origin.other_hand("Ben")
    )
    ben = Seating(4, 0).place(1)
    try:
        assert service.ready.wait(60)
        speaker(Reply.of("Ana 2 Unicorns."))  # her key's reply
        clock.now = 0.3
        speaker.other(waiting)
        assert channel.asked == [("neigh", ben)]  # at once, at Ben's seat
        clock.now = 0.6
        speaker.other(line)  # the desk's merged line: the draw is new, the Neigh was heard
        assert channel.asked == [("neigh", ben), ("move", ben)]
        clock.now = 2.7  # her pause: the line's words
        assert service.wait_idle(20)
    finally:
        service.close()
    assert backend.said[0] == "Ana 2 Unicorns."
    assert "Ben drew a card and played Neigh." in " ".join(backend.said[1:])
    assert [name for name, _ in channel.asked].count("neigh") == 1
    assert not any(record.sound for record in backend.records[1:]), backend.records  # none again with the words
