"""The live scanner in a process of its own (`live_process`): a recorded clip played as the camera in a real child
process, its events relayed, the decks in play sent to it, its quiet asked for, and a child killed mid-game said and
started again. The waits are guards against a hung child, not timings: the clip plays in real time and each child
is spawned with its imports."""

import os
import signal
import threading
import time

import pytest

from assistant.core.scanning.payloads import label_payload
from assistant.core.words.scans import SCANNER_RESTARTED, camera_failed
from assistant.scanner import live_process
from assistant.scanner.live import CodeAnnounced, SourceBack, SourceLost, camera_opener
from assistant.scanner.live_process import LiveProcess, sendable
from assistant.scanner.sources import clip_opener
from assistant.storage.decks import load_deck
from benchmarks import frames as F

AURA = label_payload("uu-2nd", "rainbow-aura")
PATIENCE = 90.0


class Reported:
    """What a `LiveProcess` reports, as it reports it (on its relay thread), and a wait for what is wanted."""

    def __init__(self):
        self.events = []
        self.jobs = 0
        self.changed = threading.Condition()

    def __call__(self, event):
        with self.changed:
            self.events.append(event)
            self.changed.notify_all()

    def worked(self, jobs):
        """The child's count of background jobs, as it says it (`LiveProcess.worked`)."""
        with self.changed:
            self.jobs = jobs
            self.changed.notify_all()

    def wait_jobs(self, count):
        """Until the child says it has worked on `count` frames (AssertionError after PATIENCE)."""
        deadline = time.monotonic() + PATIENCE
        with self.changed:
            while self.jobs < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{self.jobs} jobs done; reported: {self.events}")
                self.changed.wait(left)

    def wait(self, wanted, after=0):
        """The index of the first event from `after` on that meets `wanted` (AssertionError after PATIENCE)."""
        deadline = time.monotonic() + PATIENCE
        with self.changed:
            while True:
                for index in range(after, len(self.events)):
                    if wanted(self.events[index]):
                        return index
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"never reported; reported: {self.events}")
                self.changed.wait(left)


def announced(payload):
    return lambda event: isinstance(event, CodeAnnounced) and event.payload == payload


def said(sentence):
    return lambda event: isinstance(event, SourceLost) and event.sentence == sentence


def started(opener, decks=None):
    """A `LiveProcess` on `opener`, started, relaying on a thread of its own; (process, reported, thread)."""
    reported = Reported()
    process = LiveProcess(opener, reported, decks, reported.worked)
    assert process.start()
    thread = threading.Thread(target=process.run, daemon=True)
    thread.start()
    return process, reported, thread


def gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.fixture
def card_clip(tmp_path):
    clip = tmp_path / "card.avi"
    F.write_clip(clip, [F.render(F.Scene(seed=i, distance_mm=380)) for i in range(6)])
    return clip


def test_the_scanner_runs_in_a_child_of_its_own_and_its_events_come_back_until_it_is_stopped(card_clip):
    process, reported, thread = started(clip_opener(card_clip))
    pid = process.pid
    try:
        assert pid is not None and pid != os.getpid()
        reported.wait(announced(AURA))
        process.quiet(0.25)  # asked of the child while a reply is made: it carries on after it
    finally:
        process.stop()
    thread.join(10)
    assert not thread.is_alive()  # `run` returns once stopped
    assert process.pid is None and gone(pid)
    assert not any(isinstance(event, SourceLost) for event in reported.events)  # a stop is not a failure


def test_the_decks_in_play_reach_the_child_when_they_change(tmp_path):
    """A reflection hides more of the code than its error correction makes up for (tuning frame, glare seed 3):
    it is read only by matching it against the labels of the decks in play. With the Llamas deck in play nothing
    is read; once the decks in play are the 2nd Edition's, the child is sent them and reads the card."""
    clip = tmp_path / "glare.avi"
    F.write_clip(clip, [F.render(F.scene_for("glare", 3))] * 6)
    in_play = [[load_deck("llamas")]]
    process, reported, thread = started(clip_opener(clip), lambda: in_play[0])
    try:
        # Until the child's third job on the wrong deck: its scanner takes the reads of the first two, and sends
        # what they announce, before the third is sent to its stage (a wait on the child's work, not on time).
        reported.wait_jobs(3)
        assert reported.jobs >= 3 and not any(isinstance(event, CodeAnnounced) for event in reported.events)
        in_play[0] = [load_deck("uu-2nd")]
        reported.wait(announced(AURA))
    finally:
        process.stop()
    thread.join(10)


class Minutes:
    """The seconds `LiveProcess` counts its child's ends over, moved on only by the test."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_scanner_killed_mid_game_is_said_and_started_again_its_ends_counted_per_minute(card_clip, monkeypatch):
    """Ends of the child are counted over a minute, not the session: one a minute after another is restarted (said);
    past `RESTARTS` within a minute scanning is given up (the reason said), and after `REST` a child is started
    again, its coming back said once it handles a frame. Before, the second end of the session was given up on (with
    one restart allowed), and scanning never came back."""
    monkeypatch.setattr(live_process, "RESTARTS", 1)
    monkeypatch.setattr(live_process, "REST", 0.0)  # (the rest's length is not what is tested)
    minutes, reported = Minutes(), Reported()
    process = LiveProcess(clip_opener(card_clip), reported, clock=minutes)
    assert process.start()
    thread = threading.Thread(target=process.run, daemon=True)
    thread.start()
    failed = camera_failed(f"exit code {-signal.SIGKILL}")
    try:
        first = reported.wait(announced(AURA))
        killed = process.pid
        os.kill(killed, signal.SIGKILL)  # as a crash in a decoder's native code would end it
        restarted = reported.wait(said(SCANNER_RESTARTED), first)
        again = reported.wait(announced(AURA), restarted)  # the new child reads the card still in view
        assert process.restarts == 1 and process.pid not in (None, killed) and gone(killed)
        minutes.now += live_process.RESTART_WINDOW  # a minute on: the first end no longer counts
        os.kill(process.pid, signal.SIGKILL)
        restarted = reported.wait(said(SCANNER_RESTARTED), again)
        again = reported.wait(announced(AURA), restarted)
        assert process.restarts == 2 and process.given_up == 0
        os.kill(process.pid, signal.SIGKILL)  # a second end within the minute: given up, the reason said
        given_up = reported.wait(said(failed), again)
        back = reported.wait(lambda event: isinstance(event, SourceBack), given_up)  # a child again, said once
        reported.wait(announced(AURA), back)
        assert process.given_up == 1 and thread.is_alive() and process.pid is not None
        assert [type(event).__name__ for event in reported.events if isinstance(event, SourceLost | SourceBack)] == [
            "SourceLost",
            "SourceLost",
            "SourceLost",
            "SourceBack",
        ]
        assert [event.sentence for event in reported.events if isinstance(event, SourceLost)] == [
            SCANNER_RESTARTED,
            SCANNER_RESTARTED,
            failed,
        ]
    finally:
        process.stop()
    thread.join(10)
    assert not thread.is_alive()


def test_only_a_camera_a_process_can_be_sent_runs_in_one(card_clip):
    """OpenCV's webcam and a clip are opened by a module's function; a test's stand-in camera, a closure, is not:
    the app's camera thread then runs the scanner itself (`ui.camera.CameraWorker`)."""
    from assistant.ui.camera import CameraWorker

    assert sendable(camera_opener(0)) and sendable(clip_opener(card_clip))
    assert not sendable(camera_opener(0, lambda index: None))  # type: ignore[arg-type,return-value]
    worker = CameraWorker(clip_opener(card_clip), lambda message: None)
    assert worker.process is not None and worker.scanner is None
    worker = CameraWorker(clip_opener(card_clip), lambda message: None, clock=lambda: 0.0)  # a test's own clock
    assert worker.process is None and worker.scanner is not None


def test_stop_returns_once_the_child_is_gone_when_the_relay_thread_took_it_first(card_clip):
    """`stop` sets the stop, and the relay thread, seeing it, may take the child to end first: `stop` then found no
    child and returned at once while the child was still closing (the app's clip test found it alive after quitting,
    at load 10). Here a thread of the test's takes it first, a child stopped with SIGSTOP (it cannot end by itself:
    killed after `GRACE`); `stop` returns only once it is gone. The bound is a guard, not a timing."""
    scanner = LiveProcess(clip_opener(card_clip), Reported())
    assert scanner.start()
    pid = scanner.pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    taking = threading.Thread(target=scanner._end_child, daemon=True)  # (the relay thread's end of the child)
    taking.start()
    try:
        deadline = time.monotonic() + PATIENCE
        while scanner.pid is not None and time.monotonic() < deadline:
            threading.Event().wait(0.005)  # (the taking thread, polled: it holds the child once `pid` is None)
        assert scanner.pid is None
        scanner.stop()
        assert gone(pid)  # (before: alive, the taking thread still waiting `GRACE` on it)
    finally:
        taking.join(PATIENCE)
        if not gone(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_stopped_child_never_blocks_a_reply_and_quitting_kills_it(card_clip):
    """A scanner child stopped with SIGSTOP read nothing: each reply's quiet was a blocking send, so the app froze
    after about 280 replies, and quitting then waited on the child for over a minute (SIGTERM to a stopped child,
    a child joined with no time limit). Now 1,000 replies' quiets return (those the child cannot take dropped) and
    quitting kills it within 5 s. The bounds are guards against a hang, not timings."""
    from assistant.ui.camera import CameraWorker

    posted = Reported()
    worker = CameraWorker(clip_opener(card_clip), lambda message: posted(message.event))
    assert worker.process is not None
    worker.start()
    try:
        posted.wait(announced(AURA))  # the child scans
        pid = worker.process.pid
        os.kill(pid, signal.SIGSTOP)
        replies = threading.Thread(target=lambda: [worker.quiet() for _ in range(1000)], daemon=True)
        replies.start()
        replies.join(30)
        assert not replies.is_alive()  # every reply's quiet returned
        assert worker.process.dropped > 0  # the child read none: what it could not take was dropped
        quitting = threading.Thread(target=worker.stop, daemon=True)
        quitting.start()
        quitting.join(5)
        assert not quitting.is_alive() and not worker.thread.is_alive()
        assert gone(pid)  # killed (SIGKILL ends a stopped child) and reaped
    finally:
        if worker.process is not None and worker.process.pid is not None:
            os.kill(worker.process.pid, signal.SIGKILL)


def test_the_child_runs_opencv_on_the_scanners_threads_and_says_so(card_clip):
    """The scanner's child sets OpenCV's threads as it starts (`budget.OPENCV_THREADS`) and says how many it has,
    before any event: the app sets none in its own process, and OpenCV's own pool (a thread a core) cost the same
    looks more CPU than one thread."""
    from assistant.scanner.budget import OPENCV_THREADS

    process, reported, thread = started(clip_opener(card_clip))
    try:
        reported.wait(announced(AURA))
        assert process.opencv_threads == OPENCV_THREADS
    finally:
        process.stop()
    thread.join(10)
