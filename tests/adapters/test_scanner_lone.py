"""One finder: a code with a thumb over one finder pattern and a reflection over another, read from the one left.

Codes are the sticker sheet's own modules (`stickers.qr_matrix`, made with the `qrcode` package) drawn in
perspective with OpenCV, and frames from the tuning renderer (`benchmarks.frames`), decoded by the real zxing-cpp.
"""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from assistant.core.scanning.payloads import label_payload
from assistant.scanner import lone
from assistant.scanner.background import BackgroundStage, Job
from assistant.scanner.decoders import Cascade
from assistant.scanner.erasures import read_hidden
from assistant.scanner.known import KnownLabels
from assistant.scanner.lone import lone_grids
from assistant.scanner.measure import find_code_regions
from assistant.scanner.repair import code_places
from assistant.scanner.stickers import qr_matrix
from assistant.storage.decks import load_deck
from benchmarks import frames as F

LABEL = label_payload("uu-2nd", "rainbow-aura")
#: Where the code's corners (top left, top right, bottom right, bottom left) land: a card tilted back and turned.
CORNERS = np.array([(70, 60), (215, 85), (225, 240), (55, 215)], np.float32)


def code_in_perspective(payload: str, hide: bool = True, burnt: tuple[int, int] | None = None):
    """A code drawn on a white card over a darker table, in perspective, slightly blurred, with (if `hide`) a
    thumb's even grey over its top-right finder pattern and a burnt-out reflection over its bottom-left one (each
    pattern hidden with its light separator, out to two modules beyond the code); `burnt`: the reflection also
    burns out the modules from this (row, column) to the code's bottom-right corner."""
    matrix = np.array(qr_matrix(payload), bool)
    size = len(matrix)
    module = 12
    flat = np.full(((size + 8) * module,) * 2, 225, np.uint8)
    flat[4 * module : (size + 4) * module, 4 * module : (size + 4) * module] = np.where(
        np.kron(matrix, np.ones((module, module), bool)), 35, 225
    )
    if hide:
        near, far = 2 * module, (size + 4 - 8) * module
        flat[near : 12 * module, far : far + 10 * module] = 150  # thumb over the top-right pattern
        flat[far : far + 10 * module, near : 12 * module] = 255  # reflection over the bottom-left one
    if burnt is not None:
        row, column = burnt
        flat[(row + 4) * module : (size + 4) * module, (column + 4) * module : (size + 4) * module] = 255
    square = np.array([(4, 4), (size + 4, 4), (size + 4, size + 4), (4, size + 4)], np.float32) * module
    homography = cv2.getPerspectiveTransform(square, CORNERS)
    image = cv2.warpPerspective(flat, homography, (300, 300), borderValue=70)
    return cv2.GaussianBlur(image, (0, 0), 1.0)


def test_one_finder_pattern_showing_gives_no_pair_and_no_decoder_reads_it():
    image = code_in_perspective(LABEL)
    assert code_places(image) == []
    assert Cascade(budget_ms=None).decode(image) == []


def test_the_code_is_read_from_the_one_finder_pattern_that_shows():
    read = read_hidden(code_in_perspective(LABEL), lone_grids(code_in_perspective(LABEL)), stage="one finder")
    assert read is not None and (read.payload, read.stage) == (LABEL, "one finder")
    x, y, w, h = read.box
    left, top = CORNERS.min(axis=0)
    right, bottom = CORNERS.max(axis=0)
    assert abs(x - left) < 4 and abs(y - top) < 4 and abs(x + w - right) < 4 and abs(y + h - bottom) < 4


def test_the_grid_drawn_out_from_the_pattern_alone_is_too_far_off_to_read(monkeypatch):
    image = code_in_perspective(LABEL)
    monkeypatch.setattr(lone, "SCALES", (1.0,))
    monkeypatch.setattr(lone, "STEPS", ())
    assert read_hidden(image, lone_grids(image)) is None


def test_a_code_that_is_not_one_of_the_projects_labels_is_not_read():
    image = code_in_perspective("https://example.org/not-a-label")
    assert lone_grids(image)  # the pattern is found, the grids tried
    assert read_hidden(image, lone_grids(image)) is None


def test_a_whole_code_gives_grids_too_and_reads_the_same():
    image = code_in_perspective(LABEL, hide=False)
    read = read_hidden(image, lone_grids(image))
    assert read is not None and read.payload == LABEL


def test_a_code_hidden_past_its_error_correction_is_matched_against_the_labels_in_play():
    # Besides the two finder patterns, the reflection burns out the code's bottom-right 11 by 11 modules.
    image = code_in_perspective(LABEL, burnt=(10, 10))
    grids = lone_grids(image)
    assert read_hidden(image, grids) is None
    known = KnownLabels(lambda: [load_deck("uu-2nd")])
    read = read_hidden(image, grids, known.match, stage="one finder")
    assert read is not None and (read.payload, read.stage) == (LABEL, "known labels")
    assert read_hidden(image, grids, KnownLabels(lambda: [load_deck("llamas")]).match) is None  # not in play


@pytest.mark.parametrize("seed", [7, 11])
def test_the_background_stage_reads_a_thumb_and_a_reflection_from_the_finder_left(seed):
    # Tuning frames (a thumb over one pattern, a reflection over another) that every other stage misses.
    scene = F.scene_for("thumb", seed)
    scene = replace(scene, glare=float(np.random.default_rng(seed + 555).uniform(150, 350)))
    gray = cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)
    cascade = Cascade(budget_ms=None)
    assert cascade.decode(gray) == []
    regions = find_code_regions(gray, limit=3)
    reads = BackgroundStage(cascade).work(Job(seed, gray, regions, [(seed, gray)]))
    assert [(r.decoded.payload, r.decoded.stage) for r in reads] == [(scene.payload, "one finder")]


def thumb_and_reflection(seed: int):
    """A tuning frame with a thumb over one finder pattern and a reflection over another, greyscale."""
    scene = F.scene_for("thumb", seed)
    scene = replace(scene, glare=float(np.random.default_rng(seed + 555).uniform(150, 350)))
    return scene, cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)


def test_a_read_of_a_hidden_code_is_checked_on_the_frame_before_and_then_stands_for_two():
    # Background reads come several frames apart, so a read standing for one frame would need the frame loop to
    # read the code too before it is announced; checked on the frame before, it is announced at once.
    scene, gray = thumb_and_reflection(7)
    before = np.clip(gray + np.random.default_rng(1).normal(0, 2, gray.shape), 0, 255).astype(np.uint8)
    empty = cv2.cvtColor(F.render(F.empty_scene(7)), cv2.COLOR_BGR2GRAY)
    regions = find_code_regions(gray, limit=3)
    stage = BackgroundStage(Cascade(budget_ms=None))
    for history, frames in (([(6, before), (7, gray)], 2), ([(6, empty), (7, gray)], 1), ([(7, gray)], 1)):
        reads = stage.work(Job(7, gray, regions, history))
        assert [(r.decoded.payload, r.decoded.stage, r.frames) for r in reads] == [
            (scene.payload, "one finder", frames)
        ]
