"""A card swapped for the next one where it lay, a tenth of a second after its first read: the read of the card
before, coming back from the background stage during the new card's hold, is never announced, and the new card is
read. Rendered frames (`benchmarks/frames.py`: a card with its code under a thumb, which only the stage's finder
repair reads), the real worker on a thread, frames stamped on a frame clock; the stage's job is held until the test lets
it go (a busy machine's late job), and every other job is waited for by the stage's own count, never a sleep."""

import threading
import time
from dataclasses import replace

import cv2
import pytest

from assistant.core.scanning.payloads import label_payload
from assistant.scanner.background import BackgroundStage
from assistant.scanner.decoders import Cascade
from assistant.scanner.live import LiveScanner
from assistant.scanner.stage_process import ProcessStage
from benchmarks import frames as F

#: The frames card B is held for (two seconds at 30 a second): its own job and its announcement come well within.
HOLD = 60


class HeldStage(ProcessStage):
    """The worker on a thread (the same scheduler as its process), its jobs (the stage's own work) held while `gate`
    is shut: a job begun then waits for it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        super().__init__(thread=True)
        self.gate = threading.Event()
        self.gate.set()
        self.held = threading.Event()
        """Set once a job waits at the shut gate."""
        work = BackgroundStage.work

        def held(stage, job, seen=None, newest=None):
            if not self.gate.is_set():
                self.held.set()
            self.gate.wait(60)
            return work(stage, job, seen, newest)

        monkeypatch.setattr(BackgroundStage, "work", held)

    def settle(self) -> None:
        """Wait, by the stage's own counts, until no job runs or waits (the gate open)."""
        for _ in range(60_000):
            self._poll()  # reads what the worker sent, and sends it what waits
            if not self.busy():
                return
            time.sleep(0.001)
        raise AssertionError("the stage never finished its job")


def _cards(seed: int) -> tuple[str, str, object, object]:
    """Card A and card B, B lying exactly where A lay (the same scene, another label): their payloads and frames."""
    a = F.scene_for("thumb", seed)
    b = replace(a, payload=label_payload("uu-2nd", "unicorn-poison"))
    return a.payload, b.payload, F.render(a), F.render(b)


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("hand", [False, True], ids=["swapped-unseen", "swapped-by-a-hand"])
def test_a_card_swapped_a_tenth_of_a_second_after_its_read_is_never_announced_during_the_next_ones_hold(
    seed, hand, monkeypatch
):
    """Card A's first frame is left to the worker (its first pass reads nothing); its next frame goes to a job the
    machine is slow to run; 0.1 s after the read card B is laid where A was, unseen (no frame between: the motion
    check sees no change) or by a hand (two frames of the card on its way, the picture moving). The job then reads
    A, checked on the frame before, and its read comes back during B's hold. Before, it was taken as in view (B's
    code, where A's had been, looks the same on the motion check's coarse copy), announced during B's hold, and B's
    picture counted as at rest with every code said: B was never read."""
    payload_a, payload_b, frame_a, frame_b = _cards(seed)
    on_its_way = F.scene_for("thumb", seed)
    moving = [F.render(replace(on_its_way, centre=(0.3 + 0.1 * i, 0.3), motion=(8.0, 0.0))) for i in range(2)]
    gray_a, gray_b = (cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in (frame_a, frame_b))
    assert Cascade(budget_ms=None).decode(gray_a) == [] and Cascade(budget_ms=None).decode(gray_b) == []
    stage, announced = HeldStage(monkeypatch), []
    scanner = LiveScanner(lambda: None, lambda event: None, Cascade(clock=lambda: 0.0), background=stage)
    stage.start()
    try:
        scanner.handle(frame_a, 0, 0.0)
        stage.settle()  # A's first frame, the first pass only (the worker's job is offered from the second)
        stage.gate.clear()  # the next job is slow
        for index in range(1, 4):  # 0.1 s after the read, B is laid where A was
            shown = frame_a if index == 1 or not hand else moving[index % 2]
            announced += [(e.payload, index) for e in scanner.handle(shown, index, index / 30)]
            assert index > 1 or stage.held.wait(60)  # the job on A's second frame has begun, and waits
        for index in range(4, 4 + HOLD):
            announced += [(e.payload, index) for e in scanner.handle(frame_b, index, index / 30)]
            stage.gate.set()  # the slow job ends during B's hold
            stage.settle()
    finally:
        stage.stop()
    assert payload_a not in [p for p, i in announced if i >= 4]
    assert payload_b in [p for p, _ in announced]
