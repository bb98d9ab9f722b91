# ruff: noqa: F811 - the fixtures imported from speech_fixtures are used as test arguments
"""Real sound, heard through ALSA's file plugin: aplay, the earcons, table pace, interrupts, and a real
speech-dispatcher. What is captured is what a sound card would have been sent; it is checked by measuring it
(length, loudness), and our own earcons (the same samples every time) by their bytes."""

from __future__ import annotations

import shutil
import time
import wave

import pytest
from speech_fixtures import alsa_capture, speech_dispatcher, speechd_client, start_speechd, stop_speechd  # noqa: F401 - fixtures

from assistant.core.game.about import Topic
from assistant.core.speech.queue import split_sentences
from assistant.core.speech.settings import SpeechSettings
from assistant.core.speech.utterance import Priority, Utterance
from assistant.session import Session
from assistant.speech import SpeechService, make_speaker
from assistant.speech.backends import Pyttsx3Backend
from assistant.speech.dispatcher import SpeechdBackend
from assistant.speech.earcons import EarconChannel, write_earcons
from assistant.speech.replies import ReplySpeaker
from assistant.speech.silence import trim_silent_end
from assistant.storage.decks import load_card_set
from benchmarks.capture import loudness, seconds
from tests.facts import fact

LONG = "Rainbow Aura, Upgrade card. If this card is in your Stable, your Unicorn cards cannot be destroyed."
needs_soxi = pytest.mark.skipif(not shutil.which("soxi"), reason="soxi (sox) is not installed")


def earcon_samples(path) -> bytes:
    with wave.open(str(path), "rb") as sound:
        return sound.readframes(sound.getnframes())


def wait_until(condition, seconds: float = 60.0) -> bool:
    """Wait for `condition` (a guard, not a timing)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)  # (a real player or daemon, polled)
    return bool(condition())


def started(service) -> SpeechService:
    assert service.ready.wait(60), service.notices
    return service


def test_each_sentence_is_heard_in_full_through_aplay(alsa_capture, tmp_path):
    backend = Pyttsx3Backend(alsa_capture.player())
    service = started(SpeechService(backend))
    try:
        service.say(LONG)
        assert service.wait_idle(20)
        for n, piece in enumerate(split_sentences(LONG)):
            service.render_to(piece, tmp_path / f"{n}.wav")
    finally:
        service.close()
    plays = alsa_capture.audio_bytes()
    assert backend.played == split_sentences(LONG) and len(plays) == 2  # one opening of the device each
    for n, raw in enumerate(plays):
        trim_silent_end(tmp_path / f"{n}.wav")  # as the backend plays it: the silence after it cut short
        with wave.open(str(tmp_path / f"{n}.wav"), "rb") as rendered:
            expected = rendered.getnframes() / rendered.getframerate()
        assert abs(seconds(raw) - expected) < 0.15  # the whole sentence reached the device (ALSA pads a period)
        assert loudness(raw) > 0.02
    assert len(service.notices) == 1  # the backend chosen; no sound failure


def test_an_earcon_is_heard_at_the_start_of_its_own_sentence(alsa_capture, tmp_path):
    files = write_earcons(tmp_path / "earcons")
    backend = Pyttsx3Backend(alsa_capture.player())
    service = started(SpeechService(backend, earcons=EarconChannel(alsa_capture.player(), files)))
    try:
        service.say("Ana drew a card.")
        service.say("That card is not in play.", Priority.IMPORTANT, sound="error")
        assert service.wait_idle(20)
    finally:
        service.close()
    first, second = alsa_capture.audio_bytes()
    error = earcon_samples(files["error"])
    assert not first.startswith(error[:2000])
    assert second.startswith(error)  # the sound, then at once its words, in one opening of the device
    assert seconds(second) > seconds(error) + 0.5 and loudness(second[len(error) :]) > 0.02
    assert backend.played == ["Ana drew a card.", "[error] That card is not in play."]


def reply_index(label: str, replies, start: int) -> int | None:
    """The first reply from `start` on that contains this sentence (or its decisive fact, folded)."""
    text = label.split("] ", 1)[-1]
    for index in range(start, len(replies)):
        if text in split_sentences(replies[index].speech) + split_sentences(replies[index].decisive):
            return index
    return None


@needs_soxi
def test_at_table_pace_replies_are_heard_in_order_and_the_last_one_in_full(alsa_capture, tmp_path):
    cards = load_card_set("uu-2nd")
    session = Session(cards)
    lines = ["new game Ana Ben Cy babies red pink narwhal win 7"]
    lines += ["draw", "play basic blue", "resolve", "end turn"] * 2
    files = write_earcons(tmp_path / "earcons")
    backend = Pyttsx3Backend(alsa_capture.paced_player())  # a sentence takes as long as its sound
    service = started(SpeechService(backend, earcons=EarconChannel(alsa_capture.player(), files)))
    speak = ReplySpeaker(service)
    replies = []
    try:
        for line in lines:  # faster than a table (0.3 s), so replies go stale: the rules, not the timing, decide
            replies.append(session.handle(line))
            speak(replies[-1])
            time.sleep(0.3)  # (a table's pace against sound played in real time)
        assert service.wait_idle(60)
    finally:
        service.close()
    plays = alsa_capture.wait_plays(len(backend.played))
    # Every sentence started a player. One cut by the next key as it started may not have opened the device yet
    # (a busy machine shows it): it is counted as begun, never as heard. The last, which nothing cut, reached it
    # last and in full (a sentence is more than half a second of sound).
    assert 0 < len(plays) <= len(backend.played)
    assert seconds(plays[-1].read_bytes()) > 0.5 and loudness(plays[-1].read_bytes()) > 0.02
    heard, position = [], 0
    facts = {fact for reply in replies for fact in split_sentences(reply.decisive)}
    for label in backend.played:
        index = reply_index(label, replies, position)
        if index is None and label.split("] ", 1)[-1] in facts:
            continue  # an older reply's decisive fact, folded after the turn that leads its fold (docs/speech.md)
        assert index is not None, f"{label!r} heard after a reply that followed it: {backend.played}"
        heard.append(index)
        position = index
    assert heard[-1] == len(replies) - 1
    last = backend.played[-1].split("] ", 1)[-1]  # without its earcon's label
    assert last == split_sentences(replies[-1].speech)[-1]
    important = [n for n, reply in enumerate(replies) if reply.important]
    said_next = {  # a turn the very next reply says, by value: its own player's draw ("Ben drew a card.")
        n
        for n, reply in enumerate(replies[:-1])
        if reply.facts and all(f.settled_by(replies[n + 1].tells) for f in reply.facts)
    }
    assert set(important) <= set(heard) | said_next  # never dropped: each turn change heard, at least its facts
    assert len(backend.played) < sum(len(split_sentences(r.speech)) for r in replies)  # stale ones were not


@needs_soxi
def test_an_interrupt_cuts_the_sentence_and_the_rest_is_never_heard(alsa_capture):
    backend = Pyttsx3Backend(alsa_capture.paced_player())
    service = started(SpeechService(backend))
    try:
        service.say(LONG)
        assert len(alsa_capture.wait_plays(1)) == 1
        # The player is listed just after it starts: on a busy machine aplay can reach the device before that,
        # and an interrupt then would kill it unlisted. The first sentence is under way once it is both.
        assert wait_until(lambda: backend.played)
        service.interrupt("Yay, Instant card.")
        assert len(alsa_capture.wait_plays(2)) == 2
        assert service.wait_idle(20)
    finally:
        service.close()
    assert backend.played == [split_sentences(LONG)[0], "Yay, Instant card."]
    assert len(alsa_capture.plays()) == 2


@needs_soxi
def test_a_decisive_fact_heard_whole_is_not_said_again_when_the_next_key_cuts_the_rest(alsa_capture):
    turn = "Ana's turn: may use the Alpaca Herd Bonus."
    text = f"Turn 5, {turn} Alpaca Herd Bonus: Your Alpacas cannot be destroyed. It may be used with 3 or more Alpacas."
    backend = Pyttsx3Backend(alsa_capture.paced_player())
    service = started(SpeechService(backend))
    try:
        ana = fact(Topic.TURN, turn, 0, player="Ana")
        service.speak(Utterance(text, Priority.IMPORTANT, facts=(ana,)))
        assert wait_until(lambda: len(backend.played) == 2)  # the first sentence played whole, the second begun
        service.new_input()
        service.say("Ana drew a card.")
        assert service.wait_idle(20)
    finally:
        service.close()
    assert backend.played == [
        f"Turn 5, {turn}",
        "Alpaca Herd Bonus: Your Alpacas cannot be destroyed.",
        "Ana drew a card.",
    ]
    # the turn and the draw reached the device (the cut sentence may be killed before it opens it)
    assert len(alsa_capture.wait_plays(2)) >= 2


def test_speech_dispatcher_speaks_into_the_sound_device(speech_dispatcher):
    backend = SpeechdBackend(environ=speech_dispatcher.environ)
    service = started(SpeechService(backend))
    try:
        assert service.backend is backend, service.notices
        service.say(LONG)
        assert service.wait_idle(20)
    finally:
        service.close()
    raw = b"".join(speech_dispatcher.capture.audio_bytes())
    assert seconds(raw) > 3 and loudness(raw) > 0.01  # both sentences, spoken by its espeak-ng module
    assert service.notices == ["Speech: speech-dispatcher."]


def test_speech_dispatcher_starts_from_a_folder_past_a_sockets_path_limit(alsa_capture, tmp_path):
    """A Unix socket's path may have at most 107 characters; a test's folder may take more (pytest's thousandth
    numbered folder under a worker's). The daemon's socket is reached by a short path, removed once it stops."""
    speechd_client()
    deep = tmp_path.joinpath(*["a-folder-with-a-long-name"] * 5)
    deep.mkdir(parents=True)
    assert len(str(deep / "run" / "speech-dispatcher" / "speechd.sock")) > 107
    process, socket, env = start_speechd(deep, alsa_capture)
    try:
        assert len(str(socket)) < 100
        service = started(SpeechService(SpeechdBackend(environ={**env, "SPEECHD_ADDRESS": f"unix_socket:{socket}"})))
        try:
            service.say("Ben's turn.")
            assert service.wait_idle(20) and service.notices == ["Speech: speech-dispatcher."]
        finally:
            service.close()
    finally:
        stop_speechd(process, socket)
    assert not socket.parent.parent.exists() and deep.joinpath("run").is_dir()
    assert loudness(b"".join(alsa_capture.audio_bytes())) > 0.01


def test_a_sentence_ending_before_the_client_adds_its_callback_does_not_stop_speech(speech_dispatcher, monkeypatch):
    """python3-speechd adds a message's callback only once SPEAK has been answered (its source: "we risk, that
    the callback arrives earlier"). On a busy machine the worker thread can be held up there while a short
    sentence is already said; held up here on purpose, the END comes first, and speech still goes on."""
    import speechd.client

    add_callback, handle = speechd.client._CallbackHandler.add_callback, speechd.client._CallbackHandler.__call__
    ended: set[int] = set()
    came_first: list[bool] = []  # for each sentence: its END had arrived when its callback was added

    def noted(handler, msg_id, client_id, kind, **kwargs):
        if kind == speechd.client.CallbackType.END:
            ended.add(msg_id)
        handle(handler, msg_id, client_id, kind, **kwargs)

    def late(handler, msg_id, *args):
        # Held until the daemon's END of this very sentence has reached the client (a real process: polled, the
        # bound is a failure's only), so the END always comes first, however busy the machine.
        deadline = time.monotonic() + 60
        while msg_id not in ended and time.monotonic() < deadline:
            time.sleep(0.005)
        came_first.append(msg_id in ended)
        add_callback(handler, msg_id, *args)

    monkeypatch.setattr(speechd.client._CallbackHandler, "__call__", noted)
    monkeypatch.setattr(speechd.client._CallbackHandler, "add_callback", late)
    backend = SpeechdBackend(environ=speech_dispatcher.environ)
    service = started(SpeechService(backend))
    try:
        service.say("Yay.")
        service.say("Neigh.")
        assert service.wait_idle(90), "the worker still waits for the end of a sentence said long ago"
    finally:
        service.close()
    assert came_first == [True, True]  # the race was run: each END before its callback
    assert speech_dispatcher.capture.wait_plays(1)


def test_speech_dispatcher_is_chosen_automatically_when_its_socket_answers(speech_dispatcher, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", speech_dispatcher.environ["XDG_RUNTIME_DIR"])
    monkeypatch.setenv("SPEECHD_ADDRESS", speech_dispatcher.environ["SPEECHD_ADDRESS"])
    service = make_speaker(SpeechSettings(earcons=False))
    try:
        assert service.backend.name == "speechd"
        service.say("Yay.")
        assert service.wait_idle(20)
    finally:
        service.close()
    assert len(speech_dispatcher.capture.wait_plays(1)) >= 1


def test_speech_dispatcher_stops_when_told_and_plays_earcons_before_its_words(speech_dispatcher, tmp_path):
    capture = speech_dispatcher.capture
    files = write_earcons(tmp_path / "earcons")
    error = earcon_samples(files["error"])
    text = " ".join(f"Sentence number {n} of a long card text that nobody wants to hear to its end." for n in range(8))
    backend = SpeechdBackend(environ=speech_dispatcher.environ)
    service = started(SpeechService(backend, earcons=EarconChannel(capture.player(), files)))

    def sizes() -> list[int]:
        return [path.stat().st_size for path in capture.plays()]

    try:
        service.say(text)
        assert service.wait_idle(60)
        daemon = capture.plays()[0]  # speech-dispatcher keeps the device open: its sound grows one file
        whole = daemon.stat().st_size
        service.say(text, sound="error")
        for _ in range(2000):  # until its words start arriving (a guard of about 10 s, not a timing)
            if daemon.stat().st_size > whole:
                break
            time.sleep(0.005)  # (the daemon's sound file, polled)
        earcon_then = sizes()[1:]  # what the earcon's own player had written when the words began
        service.stop()
        assert service.wait_idle(20)
    finally:
        service.close()
    assert daemon.stat().st_size > whole  # the words began
    assert earcon_then and earcon_then[0] >= len(error)  # the earcon was complete before its words
    assert capture.plays()[1].read_bytes().startswith(error)
    assert daemon.stat().st_size - whole < whole / 2  # stopped: most of the text was never said
