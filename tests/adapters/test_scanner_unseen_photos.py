"""Real photos never tuned on (`tests/fixtures/qr_photos_unseen`, sources and licences in its NOTICE), held in front
of the live path as a still picture is: every one a plain decoder reads is announced by it."""

import csv
import json
import os
from pathlib import Path

import cv2
import pytest

from assistant.scanner.background import BackgroundStage
from assistant.scanner.decoders import Cascade
from assistant.scanner.live import CodeAnnounced, LiveScanner
from assistant.scanner.sources import load_image
from benchmarks.scanner_reads import plain_reads

UNSEEN = Path(__file__).parents[1] / "fixtures" / "qr_photos_unseen"
#: A still is held a second at 30 frames a second (as `benchmarks/scanner_reads.py` holds it).
HOLD_FRAMES = 30


def photos():
    with open(UNSEEN / "manifest.csv", encoding="utf-8") as source:
        rows = [r for r in csv.DictReader(source) if r["kind"] == "positive"]
    return [(r["image"], json.loads(r["expected_payload_json"])) for r in rows]


def counted(step):
    """A budget clock that moves `step` seconds at each look: a frame whose budget the first pass spends."""
    looks = iter(range(10**9))
    return lambda: next(looks) * step


def test_the_unseen_set_names_its_source_and_licence_for_every_photo():
    notice = (UNSEEN / "NOTICE").read_text(encoding="utf-8")
    with open(UNSEEN / "manifest.csv", encoding="utf-8") as source:
        rows = list(csv.DictReader(source))
    files = {str(p.relative_to(UNSEEN)).replace(os.sep, "/") for p in UNSEEN.rglob("*.*")}
    assert {r["image"] for r in rows} == files - {"manifest.csv", "NOTICE"}
    for row in rows:
        assert row["source_repo"] in notice and row["source_commit"] in notice and row["source_path"] in notice
    assert "MIT License" in notice and "Permission is hereby granted" in notice


@pytest.mark.parametrize("image,payload", photos(), ids=[name for name, _ in photos()])
@pytest.mark.parametrize("frame_path", ["retries-in-the-frame", "first-pass-only"])
def test_a_real_photo_a_plain_decoder_reads_is_announced_held_a_second(image, payload, frame_path):
    """The photo as it is, held still for a second (the same frame thirty times) in front of `LiveScanner` with the
    background stage behind it. Either the frame path has room for the cascade's retries (its budget clock does
    not move), or each frame's budget is spent by zxing-cpp's first pass, as on a busy machine, and the stage's job
    on the still picture must read it. `test_mobile.jpeg` (a phone's photo of a code on a screen): ZBar reads it
    as it is and zxing-cpp only halved; the path reads it first by the cascade's contrast stretch on the code's
    region, in the frame path or in the job (the job's looks at the whole frame read it too). With the job reading
    nothing, the busy case is not announced. Frames are counted; the job's time is the stage's counted clock."""
    frame = load_image(UNSEEN / image)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    plain = plain_reads(gray)
    assert any(payload in read for read in plain.values())  # a photo of the set this rule is about
    step = 0.0 if frame_path == "retries-in-the-frame" else 0.02
    stage = BackgroundStage(Cascade(budget_ms=None, clock=lambda: 0.0))
    events = []
    scanner = LiveScanner(lambda: None, events.append, Cascade(clock=counted(step)), background=stage)
    said = []
    for index in range(HOLD_FRAMES):
        said += [(a.payload, index) for a in scanner.handle(frame, index, index / 30)]
        if said:
            break
    assert [p for p, _ in said] == [payload]
    assert [e.payload for e in events if isinstance(e, CodeAnnounced)] == [payload]
    if frame_path == "first-pass-only":
        assert stage.jobs >= 1  # read by the job on the still, not by the frame path
        assert all(how == "skipped" for name, how in scanner.cascade.trace if name != "zxing")
