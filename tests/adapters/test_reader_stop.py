"""Her screen reader told to stop (`speech.reader_stop.ReaderStop`, for the plain mode beside it): never holding the
plain mode when the reader or its daemon does not answer, and tried anew after a failure. The stop reaching a real
speech-dispatcher is tested at a pseudo-terminal (`tests/ui/test_plain_screen_reader.py`)."""

from __future__ import annotations

import threading
import time

from assistant.speech.reader_stop import ReaderStop


def test_a_reader_that_does_not_answer_holds_the_caller_at_most_the_bound_and_is_not_asked_twice_meanwhile():
    release, asked = threading.Event(), []

    def hanging() -> None:
        asked.append(1)
        release.wait(60)  # (until the test lets it go)

    stop = ReaderStop(silence=hanging)
    try:
        assert stop() is False  # not sent within STOP_WAIT_S: the caller goes on
        assert stop() is False and asked == [1]  # the first still waits: no second stop piled behind it
    finally:
        release.set()


def test_a_stop_that_failed_is_tried_again_next_time_and_one_that_answered_is_sent():
    answers = [ConnectionError("speech-dispatcher does not answer"), None]

    def silence() -> None:
        answer = answers.pop(0)
        if answer is not None:
            raise answer

    stop = ReaderStop(silence=silence)
    assert stop() is False  # failed (its connection dropped, made anew next time)
    deadline = time.monotonic() + 60  # (the failed stop's thread lets go as it ends; this only bounds a failure)
    while not stop():
        assert time.monotonic() < deadline and answers, answers
        time.sleep(0.01)  # (polled)
    assert answers == []  # the second try answered


def test_with_no_speech_dispatcher_to_reach_the_stop_is_not_sent():
    stop = ReaderStop(platform="linux", environ={"SPEECHD_ADDRESS": "unix_socket:/nonexistent/speechd.sock"})
    assert stop() is False
    stop.close()
