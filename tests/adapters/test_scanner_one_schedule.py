"""One live path: the background stage's worker in a process and on a thread (where no process starts) is scheduled
by one `schedule.JobSchedule`, so the same frames give the same reads in both hosts, each at its own pace.

Nothing here is timed: each frame is handed once the worker has answered everything sent to it (waited for, up to a
generous limit), so the pace is the frames' own and the hosts differ by their transport alone.
"""

import time

from assistant.scanner.decoders import Cascade
from assistant.scanner.events import CodeAnnounced, CueGiven
from assistant.scanner.live import LiveScanner
from assistant.scanner.stage_process import ProcessStage
from benchmarks import frames as F
from benchmarks.scanner import known_labels
from benchmarks.scanner_hand import CARDS
from benchmarks.scanner_load import wait_ready

#: Tuning-set stills (category, seed): a clean card the first pass reads, and cards the worker's retries read (a
#: thumb over a finder pattern, a lamp's glare, a dark room, an unfocused lens), each held `HOLD` frames in turn,
#: each a card other than the one before.
STILLS = (("clean", 3), ("thumb", 0), ("glare", 1), ("dark", 2), ("blur", 2), ("thumb", 4))
HOLD = 12


def scene(category: str, seed: int) -> F.Scene:
    """The still of `STILLS` with its own card."""
    return F.scene_for(category, seed, F.label_payload("uu-2nd", CARDS[STILLS.index((category, seed))]))


class StillClock:
    """A budget clock that never moves: the frame path's budget never cuts a step short on a loaded machine."""

    def __call__(self) -> float:
        return 0.0


def settled(stage: ProcessStage, give_up: float) -> None:
    """Wait (until the wall clock's `give_up`, a generous limit) until the worker has answered every message sent to
    it and nothing waits for it."""
    while stage.busy() and time.monotonic() < give_up:
        stage._poll()  # reads what the worker sent, and sends it what waits
        time.sleep(0.005)  # (the worker's answer, polled)


def events_of(thread: bool) -> list[tuple[int, str]]:
    """Every still of `STILLS` held in turn before the live path with the worker in a process (or on a thread): the
    announcements and cues, each with the frame it came on."""
    stage = ProcessStage(known=known_labels(), clock=lambda: index / 30, thread=thread)
    events: list[tuple[int, str]] = []
    index = 0

    def report(event: object) -> None:
        if isinstance(event, CodeAnnounced):
            events.append((index, event.payload))
        elif isinstance(event, CueGiven):
            events.append((index, event.cue.name))

    scanner = LiveScanner(lambda: None, report, cascade=Cascade(clock=StillClock()), background=stage)
    stage.start()
    try:
        assert wait_ready(stage, 120) and stage.failed is False and (stage.thread == thread)
        for category, seed in STILLS:
            frame = F.render(scene(category, seed))
            for _ in range(HOLD):
                scanner.handle(frame, index, index / 30)
                settled(stage, time.monotonic() + 60)
                index += 1
    finally:
        scanner.stop()
    return events


def test_the_same_frames_give_the_same_reads_and_cues_with_the_worker_in_a_process_and_on_a_thread():
    in_process, on_thread = events_of(thread=False), events_of(thread=True)
    assert on_thread == in_process
    said = {payload for _, payload in in_process}
    assert {scene(category, seed).payload for category, seed in STILLS} <= said
