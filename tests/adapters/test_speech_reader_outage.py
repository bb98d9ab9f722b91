"""speech-dispatcher lost mid-sentence and started again (docs/robustness.md, "Outages"): a real daemon in the
test's own runtime folder (`speech_fixtures.start_speechd`), its sound captured through ALSA's file plugin.

Its client waits for a reply with no timeout; before, the speech worker waited there for the rest of the session,
nothing said so, and a failure came out in the client's own words ("Original error: None Additional error: None").
"""

from __future__ import annotations

import os
import signal
import threading

from speech_fixtures import alsa_capture, speech_dispatcher, start_speechd, stop_speechd  # noqa: F401 - fixtures

from assistant.core.speech.utterance import Priority
from assistant.core.words.outage import reader_back, reader_lost
from assistant.speech.dispatcher import READER_NAME, SpeechdBackend
from assistant.speech.service import SpeechService
from tests.recording_backend import RecordingBackend

#: A bound on waits for the real daemon (its sound, the service idle): only a failure's, one that holds on a machine
#: loaded far past its cores (it was 20 s).
GUARD = 300.0
LONG = " ".join(
    ["Rainbow Aura, Upgrade card. While this card is in your Stable, your Unicorns cannot be destroyed."] * 4
)


class Notices:
    """The service's notices as they come, waited on."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.cond = threading.Condition()

    def __call__(self, sentence: str) -> None:
        with self.cond:
            self.said.append(sentence)
            self.cond.notify_all()

    def wait_for(self, sentence: str) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: sentence in self.said, GUARD)


def test_speech_dispatcher_killed_mid_sentence_is_said_once_in_plain_words_and_used_again_when_it_returns(
    speech_dispatcher,  # noqa: F811 - a fixture
    tmp_path,
):
    capture = speech_dispatcher.capture
    backend = SpeechdBackend(environ=speech_dispatcher.environ)
    backend.reconnect_every = 0.05
    notices = Notices()
    table = SpeechService(RecordingBackend())  # the table voice: the channel that remains (a recording stands in)
    service = SpeechService([backend], on_notice=notices, table=table)
    restarted = None
    try:
        assert service.ready.wait(GUARD) and service.backend is backend
        service.say(LONG)
        assert capture.wait_plays(1, GUARD)  # the daemon is saying it now
        os.killpg(speech_dispatcher.pid, signal.SIGKILL)  # killed mid-sentence (the screen reader restarting)
        assert notices.wait_for(reader_lost(READER_NAME)), notices.said  # seen while it waited for the end
        assert table.wait_idle(GUARD) and table.backend.said == [reader_lost(READER_NAME)]  # said by the table voice
        service.new_input()  # her next key: cut off, and its reply said
        service.say("Rainbow Aura.", Priority.MESSAGE)
        assert service.wait_idle(GUARD)  # (before: the worker waited in the client's cancel for good)
        plays = len(capture.plays())
        restarted, _, _ = start_speechd(tmp_path, capture)  # back, on the same socket
        assert notices.wait_for(reader_back(READER_NAME)), notices.said
        service.say("Unicorn Poison.")
        assert service.wait_idle(GUARD)
        assert len(capture.wait_plays(plays + 1, GUARD)) > plays  # heard through the daemon again
        assert notices.said.count(reader_lost(READER_NAME)) == 1 and notices.said.count(reader_back(READER_NAME)) == 1
        assert not any("Original error" in said or "Additional error" in said for said in notices.said)
    finally:
        service.close()
        if restarted is not None:
            stop_speechd(restarted)


def test_a_speech_dispatcher_that_stops_answering_is_given_up_when_her_key_cuts_it(
    speech_dispatcher,  # noqa: F811 - a fixture
):
    capture = speech_dispatcher.capture
    backend = SpeechdBackend(environ=speech_dispatcher.environ)
    notices = Notices()
    service = SpeechService([backend], on_notice=notices)
    try:
        assert service.ready.wait(GUARD) and service.backend is backend
        service.say(LONG)
        assert capture.wait_plays(1, GUARD)
        os.killpg(speech_dispatcher.pid, signal.SIGSTOP)  # stopped mid-sentence: its socket open, never answering
        service.new_input()
        service.say("Rainbow Aura.")
        assert service.wait_idle(GUARD)  # the cancel given up after its bound, not waited on for good
        assert notices.said.count(reader_lost(READER_NAME)) == 1
    finally:
        os.killpg(speech_dispatcher.pid, signal.SIGCONT)
        service.close()


def test_a_speech_dispatcher_stopped_mid_sentence_with_no_key_after_is_found_lost_when_its_end_is_late(
    speech_dispatcher,  # noqa: F811 - a fixture
):
    capture = speech_dispatcher.capture
    backend = SpeechdBackend(environ=speech_dispatcher.environ)
    backend.end_grace = 0.5  # (5 s in the app: a sentence's end this late past its length asks the daemon)
    notices = Notices()
    service = SpeechService([backend], on_notice=notices)
    try:
        assert service.ready.wait(GUARD) and service.backend is backend
        service.say(LONG)
        assert capture.wait_plays(1, GUARD)
        os.killpg(speech_dispatcher.pid, signal.SIGSTOP)  # stopped mid-sentence, and she presses nothing
        assert notices.wait_for(reader_lost(READER_NAME)), notices.said  # (before: waited for its end for good)
        assert service.wait_idle(GUARD)
    finally:
        os.killpg(speech_dispatcher.pid, signal.SIGCONT)
        service.close()
