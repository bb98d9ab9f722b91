"""Matching a code hidden past its error correction against the labels of the decks in play.

Module grids are the sticker sheet's own (`stickers.printed_codes`, made with the `qrcode` package); frames come
from the tuning renderer (`benchmarks.frames`).
"""

import random
from dataclasses import replace

import cv2
import pytest

from assistant.core.scanning.payloads import label_payload
from assistant.scanner.background import BackgroundStage, Job
from assistant.scanner.decoders import Cascade
from assistant.scanner.erasures import Modules, data_order, read_modules
from assistant.scanner.known import KnownLabels
from assistant.scanner.measure import find_code_regions
from assistant.scanner.stickers import deck_stickers, printed_codes, qr_matrix, sheet_version
from assistant.storage.decks import load_deck
from benchmarks import frames as F

LABEL = label_payload("uu-2nd", "rainbow-aura")
DATA = data_order(21)


@pytest.fixture(scope="module")
def second():
    return load_deck("uu-2nd")


@pytest.fixture(scope="module")
def known(second):
    book = KnownLabels(lambda: [second])
    book.prepare()
    return book


def seen(dark, shows, wrong=0.0, seed=0) -> Modules:
    """The modules as the sampler reports them: those `shows` does not pass erased (guessed at random), and a
    share `wrong` of those that show read wrongly, as sure as the rest."""
    rng = random.Random(seed)
    size = len(dark)
    shown = [
        [(dark[r][c] != (rng.random() < wrong)) if shows(r, c) else rng.random() < 0.5 for c in range(size)]
        for r in range(size)
    ]
    return Modules(size, shown, [[0.5 if shows(r, c) else 0.0 for c in range(size)] for r in range(size)])


def corner_hidden(r, c):
    """A reflection over most of the code's lower right: 12 rows by 12 columns, past level Q even as erasures."""
    return not (r >= 9 and c >= 9)


def test_a_label_hidden_past_its_error_correction_is_matched(known):
    modules = seen(qr_matrix(LABEL), corner_hidden, wrong=0.06)
    assert read_modules(modules) is None
    assert known.match(modules) == LABEL


@pytest.mark.parametrize("seed", range(10))
def test_every_card_of_the_deck_is_matched_as_itself(known, second, seed):
    card = second.cards[seed * 7]
    payload = label_payload("uu-2nd", card.id)
    assert known.match(seen(qr_matrix(payload), corner_hidden, wrong=0.06, seed=seed)) == payload


@pytest.mark.parametrize(
    "payload",
    [label_payload("uu-2nd", "no-such-card"), label_payload("llamas", "henry-the-huarizo"), "HTTP://EXAMPLE.COM/CARD"],
)
def test_a_code_not_among_the_labels_in_play_is_not_matched(known, payload):
    dark = qr_matrix(payload)
    assert known.match(seen(dark, lambda r, c: True)) is None
    if len(dark) == 21:
        assert known.match(seen(dark, corner_hidden)) is None


def test_what_every_card_of_a_deck_shares_matches_none_of_them(known):
    """Only the modules of the label's first ten characters show (the format's name and the deck's code): they
    agree with every card of the deck alike."""
    prefix = set(DATA[:68])
    modules = seen(qr_matrix(LABEL), lambda r, c: (r, c) in prefix)
    assert sum(s > 0 for row in modules.sureness for s in row) >= 0.25 * len(DATA)  # enough shows; it is the margin
    assert known.match(modules) is None


def test_too_little_showing_matches_nothing(known):
    """Forty modules of the error correction alone, all agreeing with the label, are not enough to go on."""
    shows = set(DATA[160:200])
    assert known.match(seen(qr_matrix(LABEL), lambda r, c: (r, c) in shows)) is None
    shows = set(DATA[100:208])
    assert known.match(seen(qr_matrix(LABEL), lambda r, c: (r, c) in shows)) == LABEL


def test_the_decks_in_play_are_asked_each_time(second):
    llamas = load_deck("llamas")
    in_play = [second]
    book = KnownLabels(lambda: list(in_play))
    payload = label_payload("llamas", llamas.cards[0].id)
    modules = seen(qr_matrix(payload), corner_hidden)
    assert book.match(modules) is None
    in_play.append(llamas)
    assert book.match(modules) == payload
    in_play.remove(second)
    assert book.match(modules) == payload
    assert book.match(seen(qr_matrix(LABEL), corner_hidden)) is None


def test_the_codes_are_the_sticker_sheets_own(second):
    stickers = deck_stickers(second, {card.id: "x" for card in second.cards}, unique=True)
    version = sheet_version(stickers)
    codes = printed_codes(second)
    assert [payload for payload, _ in codes] == [s.payload for s in stickers]
    assert all(matrix == qr_matrix(payload, version) for payload, matrix in codes)


# Tuning frames with a reflection, a thumb, or a thumb over a finder pattern and a reflection (the glare given),
# that every other stage misses.
HIDDEN = [
    ("glare", 3, None),
    ("glare", 9, None),
    ("glare", 20, None),
    ("glare", 34, None),
    ("other thumbs", 8, None),
    ("thumb", 13, 300.0),
    ("thumb", 14, 310.0),
]


@pytest.fixture(scope="module")
def cascade():
    return Cascade(budget_ms=None)


def background_reads(cascade, known, gray, seed):
    regions = find_code_regions(gray, limit=3)
    reads = BackgroundStage(cascade, known=known).work(Job(seed, gray, regions, [(seed, gray)]))
    return [(r.decoded.payload, r.decoded.stage) for r in reads]


@pytest.mark.parametrize(("category", "seed", "glare"), HIDDEN)
def test_the_background_stage_reads_a_code_too_hidden_to_decode_by_its_label(cascade, known, category, seed, glare):
    scene = F.scene_for(category, seed)
    if glare is not None:
        scene = replace(scene, glare=glare)
    gray = cv2.cvtColor(F.render(scene), cv2.COLOR_BGR2GRAY)
    assert cascade.decode(gray) == []
    assert background_reads(cascade, None, gray, seed) == []
    assert background_reads(cascade, known, gray, seed) == [(scene.payload, "known labels")]
    llamas = load_deck("llamas")
    assert background_reads(cascade, KnownLabels(lambda: [llamas]), gray, seed) == []  # its deck not in play


def test_nothing_is_matched_on_an_empty_table(cascade, known):
    for seed in range(12):
        gray = cv2.cvtColor(F.render(F.empty_scene(seed)), cv2.COLOR_BGR2GRAY)
        assert background_reads(cascade, known, gray, seed) == [], seed
