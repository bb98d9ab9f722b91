"""Reading a code part of which is hidden: the hidden part counted as erased, not guessed.

Module grids come from the `qrcode` package (an encoder independent of the reader); frames from the tuning
renderer (`benchmarks.frames`).
"""

import random

import cv2
import pytest
import qrcode

from assistant.core.scanning.payloads import label_payload, long_label_payload
from assistant.scanner.background import BackgroundStage, Job
from assistant.scanner.decoders import Cascade
from assistant.scanner.erasures import Modules, read_modules, solve_block
from assistant.scanner.measure import find_code_regions
from benchmarks import frames as F

LABEL = label_payload("uu-2nd", "rainbow-aura")


def matrix(text: str, mask: int, level=qrcode.constants.ERROR_CORRECT_Q) -> list[list[bool]]:
    code = qrcode.QRCode(error_correction=level, mask_pattern=mask, border=0)
    code.add_data(qrcode.util.QRData(text, mode=qrcode.util.MODE_ALPHA_NUM))
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def seen(dark: list[list[bool]], hidden=lambda r, c: False, sure: float = 0.5) -> Modules:
    """The modules as the sampler would report them: the `hidden` ones erased (and guessed at random)."""
    rng = random.Random(0)
    size = len(dark)
    shown = [[rng.random() < 0.5 if hidden(r, c) else dark[r][c] for c in range(size)] for r in range(size)]
    return Modules(size, shown, [[0.0 if hidden(r, c) else sure for c in range(size)] for r in range(size)])


@pytest.mark.parametrize("mask", range(8))
def test_every_mask_of_a_label_reads(mask):
    assert read_modules(seen(matrix(LABEL, mask))) == LABEL


def test_the_first_label_format_reads_across_two_blocks():
    text = long_label_payload("uu-2nd", "rainbow-aura")
    dark = matrix(text, 2)
    assert len(dark) > 21
    assert read_modules(seen(dark, lambda r, c: 12 <= r <= 17 and c >= 14)) == text


def test_a_hidden_patch_beyond_what_guessing_corrects_reads_as_erased():
    """A disc of 4 modules' radius over the middle: guessed, its modules are wrong codewords past level Q's 6;
    known to be hidden, they are erasures, of which 13 are corrected."""
    dark = matrix(LABEL, 5)

    def disc(r, c):
        return (r - 13) ** 2 + (c - 12) ** 2 < 17

    assert read_modules(seen(dark, disc)) == LABEL
    guessed = seen(dark, disc)
    sure_everywhere = Modules(guessed.size, guessed.dark, [[0.5] * guessed.size for _ in guessed.dark])
    assert read_modules(sure_everywhere) is None


def test_wrong_modules_the_sampler_was_unsure_of_are_corrected():
    dark = matrix(LABEL, 0)
    flipped = [(10, 12), (11, 12), (14, 3), (15, 3), (18, 18), (19, 18), (20, 10), (12, 17)]
    shown = [row[:] for row in dark]
    sureness = [[0.5] * 21 for _ in range(21)]
    for r, c in flipped:
        shown[r][c] = not shown[r][c]
        sureness[r][c] = 0.05
    assert read_modules(Modules(21, shown, sureness)) == LABEL
    assert read_modules(Modules(21, shown, [[0.5] * 21 for _ in range(21)])) is None


def test_too_much_hidden_reads_nothing_rather_than_a_wrong_label():
    for seed in range(30):
        rng = random.Random(seed)
        other = label_payload("uu-2nd", f"card-{seed}")
        dark = matrix(other, seed % 8)
        top = rng.randrange(0, 8)
        assert read_modules(seen(dark, lambda r, c, top=top: top <= r < top + 12 and c >= 4)) is None, seed


def test_only_the_projects_labels_are_read():
    assert read_modules(seen(matrix("HELLO WORLD 123", 1))) is None


def test_a_block_solved_for_its_erased_codewords_and_checked_by_the_rest():
    block = [17] * 26
    assert solve_block(block, 13, list(range(26)), 11) is None  # not a codeword, and no solution checks out


# Tuning frames the cascade, finder repair and every other stage miss.
HIDDEN = [
    ("glare", 14),
    ("glare", 24),
    ("glare", 26),
    ("glare", 37),
    ("other thumbs", 14),
    ("other thumbs", 22),
    ("other thumbs", 29),
]


@pytest.fixture(scope="module")
def cascade():
    return Cascade(budget_ms=None)


@pytest.mark.parametrize(("category", "seed"), HIDDEN)
def test_the_background_stage_reads_a_code_half_hidden(cascade, category, seed):
    scene = F.scene_for(category, seed)
    gray = cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)
    assert cascade.decode(gray) == []
    regions = find_code_regions(gray, limit=3)
    reads = BackgroundStage(cascade).work(Job(seed, gray, regions, [(seed, gray)]))
    assert [(r.decoded.payload, r.decoded.stage) for r in reads] == [(scene.payload, "erasures")]
    (x, y), (_, _, w, h) = reads[0].decoded.centre, reads[0].decoded.box
    card = (scene.centre[0] * gray.shape[1], scene.centre[1] * gray.shape[0])
    assert 80 < w < 200 and 80 < h < 200  # a code of 46 mm at 25 to 45 cm
    assert abs(x - card[0]) < w / 5 and abs(y - card[1]) < h / 5  # where the code is (near the card's middle)


def test_nothing_is_read_on_an_empty_table(cascade):
    stage = BackgroundStage(cascade)
    for seed in range(12):
        gray = cv2.cvtColor(F.render(F.empty_scene(seed)), cv2.COLOR_BGR2GRAY)
        regions = find_code_regions(gray, limit=3)
        assert stage.work(Job(seed, gray, regions, [(seed, gray)])) == [], seed
