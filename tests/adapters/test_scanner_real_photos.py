"""Never behind a plain decoder on real photos (issue 105): every photo that zxing-cpp, ZBar, OpenCV's WeChat or `scan`
reads is announced by the live path, held a second in front of it as a still picture is, whether the frame path has
room for its retries or not. Both sets the repository holds: the photos seen while tuning (`tests/fixtures/qr_photos`,
zxing-cpp's samples) and those never tuned on (`tests/fixtures/qr_photos_unseen`). Untimed: the frame budget's and
the stage's clocks are the test's own, so the machine's load decides nothing."""

import csv
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
import qrcode
import zxingcpp

from assistant.scanner.background import BackgroundStage
from assistant.scanner.decoders import Cascade
from assistant.scanner.live import CodeAnnounced, LiveScanner
from assistant.scanner.measure import find_card, find_code_regions
from assistant.scanner.sources import SourceError, load_image
from benchmarks import scanner_reads

FIXTURES = Path(__file__).parents[1] / "fixtures"
SETS = ("qr_photos", "qr_photos_unseen")
#: A still is held a second at 30 frames a second (as `benchmarks/scanner_reads.py` holds it).
HOLD_FRAMES = 30


def photos():
    rows = []
    for name in SETS:
        with open(FIXTURES / name / "manifest.csv", encoding="utf-8") as source:
            rows += [(name, r["image"], json.loads(r["expected_payload_json"])) for r in csv.DictReader(source)
                     if r["kind"] == "positive"]  # fmt: skip
    return rows


def held():
    """Every photo, as a parameter of a test holding it."""
    return [pytest.param(folder, image, payload, id=f"{folder}/{image}") for folder, image, payload in photos()]


def plain_reads(frame):
    """Which plain decoders read what, on the photo as it is: zxing-cpp, ZBar and WeChat on it in grey, `scan`'s cascade
    (every retry, no time limit) on it as the command is given it."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    try:
        wechat = cv2.wechat_qrcode_WeChatQRCode().detectAndDecode(gray)[0]  # (opencv-contrib's, as the app's)
    except UnicodeDecodeError:  # OpenCV's binding raises on a payload that is no UTF-8: WeChat reads no text
        wechat = ()
    return {
        **scanner_reads.plain_reads(gray),  # zxing-cpp's and ZBar's, as the benchmark counts them
        "wechat": list(wechat),
        "scan": [d.payload for d in Cascade(budget_ms=None, wall_ms=None).decode(frame)],
    }


def counted(step):
    """A clock that moves `step` seconds at each look: a frame whose budget the first pass spends."""
    looks = iter(range(10**9))
    return lambda: next(looks) * step


def announced(frame, step):
    """The payloads the live path announces with the photo held a second: `LiveScanner` with the work the worker
    does in its process or on its thread (`background.BackgroundStage`, its inline host: `schedule.JobSchedule`
    gives both hosts the same reads), on a clock that stands still, so each job's reads come on the next
    frame. `step`: the frame budget's
    clock's move at each look (0: every retry fits the frame)."""
    stage = BackgroundStage(Cascade(budget_ms=None, clock=lambda: 0.0, wall_ms=None))
    events = []
    scanner = LiveScanner(lambda: None, events.append, Cascade(clock=counted(step), wall_ms=None), background=stage)
    for index in range(HOLD_FRAMES):
        if scanner.handle(frame, index, index / 30):
            break
    return [e.payload for e in events if isinstance(e, CodeAnnounced)]


def readers(folder, image, payload, frame):
    """The plain decoders that read the photo; the test is skipped when none does."""
    found = [name for name, read in plain_reads(frame).items() if payload in read]
    if not found:
        pytest.skip("no plain decoder reads it")
    return found


@pytest.mark.parametrize("folder,image,payload", held())
def test_a_photo_a_plain_decoder_reads_is_announced_with_room_for_every_retry(folder, image, payload):
    """Quiet: the frame path's budget clock does not move, so every retry fits each frame; the job runs too."""
    frame = load_image(FIXTURES / folder / image)
    by = readers(folder, image, payload, frame)
    assert payload in announced(frame, 0.0), f"read by {by}, not by the live path"


@pytest.mark.parametrize("folder,image,payload", held())
def test_a_photo_a_plain_decoder_reads_is_announced_with_the_first_pass_alone_in_the_frame(folder, image, payload):
    """Busy: each frame's budget is spent by zxing-cpp's first pass (its clock moves 20 ms at each look), so what the
    first pass misses the job on the still picture must read, as on a machine whose cores are taken."""
    frame = load_image(FIXTURES / folder / image)
    by = readers(folder, image, payload, frame)
    assert payload in announced(frame, 0.02), f"read by {by}, not by the live path"


def test_the_photos_without_a_code_are_announced_as_nothing():
    """The 44 photos of zxing-cpp's samples that hold no QR code, held a second with every retry and the job (the
    bent grid included, `erasures.read_bent`): nothing is announced."""
    folder = FIXTURES / "qr_photos"
    with open(folder / "manifest.csv", encoding="utf-8") as source:
        images = [r["image"] for r in csv.DictReader(source) if r["kind"] == "falsepositive"]
    assert len(images) == 44
    said = {}
    for image in images:
        try:
            frame = load_image(folder / image)
        except SourceError:  # the two 1-pixel-wide images: a sentence, tested with the cascade
            continue
        said[image] = announced(frame, 0.0)
    assert {image: payloads for image, payloads in said.items() if payloads} == {}


@pytest.mark.parametrize("image", ["qrcode-2/9.png", "qrcode-2/14.png"])
def test_a_code_only_the_look_reads_is_announced_from_the_look_checked_on_a_second_frame(image):
    """A still photo that shows no sign of a code to the stage's look (`background.shows_code`: no card found on its
    own, no finder-like region), whose code ZBar's look at the whole frame reads, while the frame path reads nothing
    (no first pass, each frame's budget spent: as a first pass that misses a code only ZBar reads). The look's read
    is checked on the frame before by the same look, so it stands for two frames and is announced; before, the
    picture was marked as holding no code, no job followed, and the read stood for its frame alone (BoofCV's
    pathological photos, missed with both cores busy)."""
    frame = load_image(FIXTURES / "qr_photos" / image)
    stage = BackgroundStage(Cascade(budget_ms=None, clock=lambda: 0.0, wall_ms=None))
    events = []
    path = Cascade(stages=("sharpen",), clock=counted(0.02), wall_ms=None)
    scanner = LiveScanner(lambda: None, events.append, path, background=stage)
    said = [payload for index in range(HOLD_FRAMES) for payload in scanner.handle(frame, index, index / 30)]
    assert stage.looks >= 1 and stage.jobs == 0  # the look alone read it: no sign of a code, no job
    assert [a.payload for a in said] == [plain_reads(frame)["zbar"][0]]


def code_matrix(payload, border=0, error_correction=qrcode.constants.ERROR_CORRECT_M):
    """The QR code of `payload` as its modules (True: dark), with `border` light modules around."""
    code = qrcode.QRCode(border=border, box_size=1, error_correction=error_correction)
    code.add_data(payload)
    return np.array(code.get_matrix(), bool)


def drawn_code(payload, dark, light, module, border=0, error_correction=qrcode.constants.ERROR_CORRECT_M):
    """The QR code of `payload` drawn in grey levels (floats): its dark modules at `dark`, its light ones at `light`,
    each `module` pixels square, with `border` light modules around."""
    modules = code_matrix(payload, border, error_correction)
    return np.kron(np.where(modules, dark, light), np.ones((module, module)))


def faint_code(payload):
    """A small picture (300 by 267, under `decoders.WHOLE_FRAME_RETRY`) of a code whose grey levels lie within 12 of
    each other (modules of 4 pixels, a little noise and blur), as jsQR's `windows-screenshot`, a code on a red
    screen, is in grey: zxing-cpp's first pass does not read it, its stretched grey levels do."""
    modules = drawn_code(payload, 88.0, 100.0, 4)
    gray = np.full((267, 300), 94.0)
    gray[24 : 56 + modules.shape[0], 54 : 86 + modules.shape[1]] = 100.0  # the quiet zone, 4 modules
    gray[40 : 40 + modules.shape[0], 70 : 70 + modules.shape[1]] = modules
    gray += np.random.default_rng(0).normal(0, 1.5, gray.shape)
    gray = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 0.8)
    return cv2.cvtColor(gray.clip(0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


def test_a_small_pictures_look_tries_the_cascades_first_retries_and_its_read_is_announced(monkeypatch):
    """A still picture the cascade retries whole (a photo, a small camera's frame) whose look finds no sign of a code
    (`background.shows_code`, as on jsQR's `museum-2` and `windows-screenshot`) and which ZBar's look does not read
    (a stage without ZBar here), while the frame path reads nothing (no first pass, each frame's budget spent). The
    look tries `background.LOOK_RETRIES` on the whole frame: the stretched grey levels read the code, the read is
    checked on the frame before by the same look and announced. Before, the picture was marked as holding no code
    and no job followed: nothing was said, though `scan` reads both photos."""
    import zxingcpp

    from assistant.scanner import background
    from assistant.scanner.decoders import DEFAULT_STAGES

    frame = faint_code("Happy birthday")
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert zxingcpp.read_barcodes(gray, formats=zxingcpp.BarcodeFormat.QRCode) == []  # a retry's to read
    monkeypatch.setattr(background, "shows_code", lambda *args: False)
    stages = tuple(s for s in DEFAULT_STAGES if not s.startswith("pyzbar"))
    stage = BackgroundStage(Cascade(stages, budget_ms=None, clock=lambda: 0.0, wall_ms=None))
    path = Cascade(stages=("sharpen",), clock=counted(0.02), wall_ms=None)
    scanner = LiveScanner(lambda: None, lambda event: None, path, background=stage)
    said = [payload for index in range(HOLD_FRAMES) for payload in scanner.handle(frame, index, index / 30)]
    assert stage.looks >= 1 and stage.jobs == 0  # the look alone read it: no sign of a code, no job
    assert [a.payload for a in said] == ["Happy birthday"]


def dotted_code(payload, size, module, dot, card):
    """A picture (`size`: height, width) of a code whose modules are broken into round dots (`dot` pixels in radius,
    `module` pixels apart; a little noise), as jsQR's `issue-14-regression` (a rendered document) and BoofCV's glare
    photos show theirs: zxing-cpp's first pass and the cascade's retries on its regions read nothing; blurred, the dots
    join into modules again. `card`: on a card found on its own (a light card on a darker table, its code's black in
    it: a sign of a code to the look), or on a plain light picture (none)."""
    modules = code_matrix(payload)
    top, left = size[0] // 4, size[1] // 3
    side = modules.shape[0] * module
    gray = np.full(size, 90.0 if card else 210.0)
    if card:
        gray[top - 6 * module : top + side + 6 * module, left - 4 * module : left + side + 4 * module] = 210.0
    for row, column in zip(*np.nonzero(modules)):
        centre = (left + column * module + module // 2, top + row * module + module // 2)
        cv2.circle(gray, centre, dot, 40.0, -1)
    gray += np.random.default_rng(0).normal(0, 2, gray.shape)
    return cv2.cvtColor(gray.clip(0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


def held_still(frame, stages):
    """What the live path says of `frame` held a second as a still picture, its stage's cascade given `stages` (the
    frame path's own budget spent on every frame: only the worker's job reads), and the stages that read it."""
    stage = BackgroundStage(Cascade(stages, budget_ms=None, clock=lambda: 0.0, wall_ms=None))
    path = Cascade(stages=("sharpen",), clock=counted(0.02), wall_ms=None)
    scanner = LiveScanner(lambda: None, lambda event: None, path, background=stage)
    said = [payload for index in range(HOLD_FRAMES) for payload in scanner.handle(frame, index, index / 30)]
    return [a.payload for a in said], stage


def test_a_still_cards_dotted_code_is_read_by_the_jobs_whole_frame_retries():
    """A card held still at 1080p (over `decoders.WHOLE_FRAME_RETRY`: the retries work on regions) whose code's
    modules are dots: the look sees a sign of a code (the card, its code's black in it), the job's cascade on the
    regions and its slow steps read nothing, and the whole-frame retries (`decoders.WHOLE_STAGES`) do, by the blur;
    the read is checked on the frame before and announced once. Without those retries (the cascade's stages before
    them) nothing is said: BoofCV's glare photos that WeChat alone read were so missed."""
    from assistant.scanner.decoders import DEFAULT_STAGES, WHOLE_STAGES

    frame = dotted_code("Happy birthday", (1080, 1920), module=8, dot=3, card=True)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert zxingcpp.read_barcodes(gray, formats=zxingcpp.BarcodeFormat.QRCode) == []
    before = tuple(s for s in DEFAULT_STAGES if s not in WHOLE_STAGES)
    said, stage = held_still(frame, before)
    assert said == [] and stage.jobs >= 1  # a job was worked, and read nothing
    said, stage = held_still(frame, DEFAULT_STAGES)
    assert said == ["Happy birthday"]
    assert stage.cascade.trace.count(("whole-blur", "ran")) == 2  # and on the frame before, to check it


def test_a_code_beside_the_one_a_still_pictures_job_reads_is_read_too():
    """Two codes held still at 1080p: a plain one, which the job's cascade reads at once, and beside it the dotted one
    only the whole-frame blur reads. The job goes on past its first read with the whole-frame retries
    (`BackgroundStage._swept`), and both are said. Before, the job ended at its first read, the picture was read and
    offered no more, and the dotted code was never said (as on two sheets of three codes among BoofCV's photos)."""

    from assistant.scanner.decoders import DEFAULT_STAGES

    frame = dotted_code("Happy birthday", (1080, 1920), module=8, dot=3, card=True)
    plain = drawn_code("Unicorn", 40, 210, 6, border=4).astype(np.uint8)
    frame[650 : 650 + plain.shape[0], 1400 : 1400 + plain.shape[1]] = plain[..., None]
    said, stage = held_still(frame, DEFAULT_STAGES)
    assert sorted(said) == ["Happy birthday", "Unicorn"]
    assert ("whole-wechat", "ran") not in stage.cascade.trace  # the sweep leaves WeChat's detector out


def test_a_small_pictures_look_tries_the_whole_frame_retries_too(monkeypatch):
    """A small still picture (640 by 480: the cascade retries it whole) of a dotted code on a plain light page, in
    which the look finds no sign of a code (as on four of BoofCV's glare photos that WeChat alone read): the look's
    retries (`background.LOOK_RETRIES`) go on past sharpening and stretching to the first whole-frame retries, and
    the blur reads it, with no job. Before, nothing was said."""
    from assistant.scanner import background
    from assistant.scanner.decoders import DEFAULT_STAGES

    frame = dotted_code("Happy birthday", (480, 640), module=6, dot=2, card=False)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert not background.shows_code(gray, find_code_regions(gray), find_card(gray))
    monkeypatch.setattr(background, "LOOK_RETRIES", ("sharpen", "stretch"))
    assert held_still(frame, DEFAULT_STAGES)[0] == []  # the look's two retries before
    monkeypatch.undo()
    said, stage = held_still(frame, DEFAULT_STAGES)
    assert said == ["Happy birthday"] and stage.looks >= 1 and stage.jobs == 0


def test_the_last_whole_frame_retry_is_wechats_detector_and_reads_a_card_in_the_frames_pixels():
    """`Cascade.whole_retry(gray, "whole-wechat")`: OpenCV's WeChat detector (opencv-contrib's `wechat_qrcode`) on the
    whole frame, the job's last whole-frame retry: a card at 720p is read, its box in the frame's pixels around the
    code. Before, there was no such retry (a ValueError), and BoofCV's photos that WeChat alone reads were missed."""
    from assistant.scanner.decoders import WHOLE_STAGES
    from benchmarks import frames as F

    assert WHOLE_STAGES[-1] == "whole-wechat"
    card = F.scene_for("clean", 1)
    gray = cv2.cvtColor(F.render(card), cv2.COLOR_BGR2GRAY)
    cascade = Cascade(budget_ms=None, wall_ms=None)
    reads = cascade.whole_retry(gray, "whole-wechat")
    assert [(d.payload, d.stage) for d in reads] == [(card.payload, "whole-wechat")]
    x, y, w, h = reads[0].box
    code = find_code_regions(gray, limit=1)[0]  # where the code is: its box is around it
    assert x <= code[0] + code[2] / 2 <= x + w and y <= code[1] + code[3] / 2 <= y + h and 20 < w < gray.shape[1] / 2
    assert cascade.trace[-1] == ("whole-wechat", "ran")


def cut_off_code(payload, side=296, band=32):
    """A small picture (`side` pixels square) that a code fills, its quiet zone on the right cut off by a black band
    touching the code, as in BoofCV's pathological photos: ZBar reads nothing; the region search finds only parts of
    the code, none holding a finder pattern; WeChat's detector reads it. (zxing-cpp's detector finds its symbol; in
    two of those photos it finds none, which the tests that need it say.)"""
    modules = code_matrix(payload)
    module = (side - band - 16) // modules.shape[0]
    drawn = np.kron(np.where(modules, 0, 255), np.ones((module, module))).astype(np.uint8)
    gray = np.full((side, side), 255, np.uint8)
    top, left = (side - drawn.shape[0]) // 2, side - band - drawn.shape[1]
    gray[top : top + drawn.shape[0], left : left + drawn.shape[1]] = drawn
    gray[:, side - band :] = 0
    return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)


def damaged_code(payload):
    """A 720p picture of a code on a plain light page, a third of its middle painted over grey (a stain, a glare
    spot): no decoder reads it, zxing-cpp's detector still finds its finder patterns, grid and format."""
    modules = drawn_code(payload, 30, 220, 8, error_correction=qrcode.constants.ERROR_CORRECT_L).astype(np.uint8)
    gray = np.full((720, 1280), 220, np.uint8)
    side = modules.shape[0]
    gray[200 : 200 + side, 500 : 500 + side] = modules
    gray[200 + side // 3 : 200 + 2 * side // 3, 500 + side // 4 : 500 + 3 * side // 4] = 128
    return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)


def small_code(payload):
    """A 640 by 480 picture of a small code on a grey table, its modules 2 pixels and a little blurred (a code on a
    package in the street, as in the fresh photos' tuning half), and the code-like region around it: zxing-cpp's
    detector finds no symbol in the whole picture, and does in the region at twice its size."""
    modules = cv2.resize(np.where(code_matrix(payload, border=4), 40.0, 200.0), None, fx=2, fy=2)
    gray = np.full((480, 640), 150.0)
    gray[200 : 200 + modules.shape[0], 300 : 300 + modules.shape[1]] = modules
    gray = cv2.GaussianBlur(gray, (0, 0), 0.6) + np.random.default_rng(0).normal(0, 3, gray.shape)
    return gray.clip(0, 255).astype(np.uint8), (290, 190, modules.shape[1] + 20, modules.shape[0] + 20)


def dim_code(payload, show_code=True, seed=0):
    """A 1080p picture of a dark room lit by one lamp's spot, as BoofCV's `bright_spots/image013`: a page at grey
    level 18 with its code's modules at 4, the room around at 3, sensor noise, and beside the page a lamp's spot
    bright enough to clip (so the frame's 99th percentile is 255 and its median 3). zxing-cpp and ZBar read nothing
    (the page's contrast is under zxing-cpp's least), WeChat's detector reads it."""
    shape = (1080, 1920)
    gray = np.full(shape, 3.0)
    if show_code:
        modules = drawn_code(payload, 4, 18, 6, border=4)
        gray[300 : 300 + modules.shape[0], 500 : 500 + modules.shape[1]] = modules
    yy, xx = np.ogrid[0 : shape[0], 0 : shape[1]]
    gray += 400 * np.exp(-(((xx - 1400) / 180.0) ** 2 + ((yy - 650) / 150.0) ** 2))
    gray += np.random.default_rng(seed).normal(0, 1.5, shape)
    return cv2.cvtColor(gray.clip(0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


def test_a_dim_picture_lit_by_a_lamps_spot_is_looked_at_and_read_with_its_grey_levels_lifted(monkeypatch):
    """A page in a dark room beside a lamp's spot, held still (`dim_code`): the frame is dim (`decoders.DIM_LEVEL`),
    not dark (the spot keeps its 99th percentile high), so the "dark" stage's image of it (`Cascade.lit`) is the frame
    lifted by a gamma of 0.5; on it the look finds the code itself (`shows_symbol`), and the job's cascade reads it by
    that stage; said once. Without the lift (no frame dim) the look finds no sign, no job runs and nothing is said, as
    BoofCV's `image013` was missed. A dark frame is still stretched, a well-lit one not lifted; the same room without
    the page shows no sign with or without the lift."""

    from assistant.scanner.background import look_picture, shows_code, shows_symbol
    from assistant.scanner.decoders import DARK_LEVEL, DEFAULT_STAGES, DIM_LEVEL

    frame = dim_code("Happy birthday")
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    reads = plain_reads(frame)
    assert reads["zxing"] == reads["zbar"] == [] and reads["wechat"] == ["Happy birthday"]
    cascade = Cascade()
    assert np.median(gray) < DIM_LEVEL and np.percentile(gray, 99) >= DARK_LEVEL
    assert not cascade.symbol_found(look_picture(gray)[0])
    regions = find_code_regions(gray)
    assert not shows_code(gray, regions, find_card(gray)) and shows_symbol(gray, regions, cascade)
    said, stage = held_still(frame, DEFAULT_STAGES)
    assert said == ["Happy birthday"] and stage.jobs >= 1
    assert ("dark", "ran") in stage.cascade.trace
    lit = cascade.lit(gray)
    assert lit is not None and int(lit[gray == 4].min()) >= 31  # grey level 4 lifted to 32
    assert cascade.lit(np.full((64, 64), 120, np.uint8)) is None
    dark = cascade.lit((gray // 4).clip(0, 60).astype(np.uint8))  # the spot dimmed too: the 99th percentile under 90
    assert dark is not None and int(dark.max()) == 255
    empty = cv2.cvtColor(dim_code("", show_code=False), cv2.COLOR_BGR2GRAY)
    regions = find_code_regions(empty)
    assert not shows_code(empty, regions, find_card(empty)) and not shows_symbol(empty, regions, cascade)
    monkeypatch.setattr("assistant.scanner.decoders.DIM_LEVEL", 0)
    assert not shows_symbol(gray, find_code_regions(gray), cascade)
    said, stage = held_still(frame, DEFAULT_STAGES)
    assert said == [] and stage.jobs == 0


def test_a_code_whose_regions_show_no_finder_pattern_is_still_a_sign_of_a_code_to_the_look(monkeypatch):
    """`background.shows_symbol`, where `shows_code` finds no sign given no card found on its own and no code-like
    region (as on BoofCV's photos that WeChat alone reads and whose look found no sign, so no job ran): a small
    picture a code fills, cut off by a black
    band, shows three finder-like patterns standing as one code (`repair.code_places`; zxing-cpp's detector taken as
    finding no symbol, as in BoofCV's `pathological/image002` and `003`); a damaged code at 720p is a symbol zxing-cpp's
    detector finds and cannot read (`Cascade.symbol_found`, on the look's halved frame). An empty table of each kind,
    at 640 by 480 and at 720p, shows neither. A small code is a symbol to the detector in its region at twice the
    size only. Before, no such code was a sign."""
    from dataclasses import replace

    from assistant.scanner.background import look_picture, shows_code, shows_symbol
    from benchmarks import camera_model as M
    from benchmarks.scanner_hand import card_of
    from benchmarks.scanner_load import resolution

    cut, damaged = (
        cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in (cut_off_code("Happy birthday"), damaged_code("Unicorn"))
    )
    reads = plain_reads(cut_off_code("Happy birthday"))
    assert reads["zxing"] == reads["zbar"] == [] and reads["wechat"] == ["Happy birthday"]
    cascade = Cascade()
    assert cascade.symbol_found(look_picture(damaged)[0]) and not zxingcpp.read_barcodes(damaged)
    assert not shows_code(damaged, [], None) and shows_symbol(damaged, [], cascade)
    small, region = small_code("http://example.org/39/")
    assert not cascade.symbol_found(small) and shows_symbol(small, [region], cascade)
    assert not shows_symbol(small, [], cascade)
    monkeypatch.setattr(Cascade, "symbol_found", lambda self, gray, stage=None: False)
    assert not shows_code(cut, [], None) and shows_symbol(cut, [], cascade) and not shows_symbol(damaged, [], cascade)
    monkeypatch.undo()
    tables = []
    for width, height in ((640, 480), (1280, 720)):
        with resolution(width, height):
            for seed in range(105000, 105005):  # each of the five tables once
                shot = replace(M.sample_shot(seed, card_of(seed)), offset_mm=(5000.0, 0.0))  # the card out of view
                gray = Cascade().grey(M.render(shot))
                regions = find_code_regions(gray)
                tables.append(shows_code(gray, regions, find_card(gray)) or shows_symbol(gray, regions, cascade))
    assert tables == [False] * 10


def test_a_small_picture_a_cut_off_code_fills_gets_a_job_and_wechats_retry_reads_it(monkeypatch):
    """The cut-off code held still a second (the frame path's own budget spent: only the worker reads; zxing-cpp's
    detector taken as finding no symbol, as in BoofCV's `pathological/image002` and `003`): the look sees the code's
    three finder patterns, and as the look itself reads nothing a job runs, and its last retry, WeChat's detector,
    reads it; said once. Before, the look found no sign, no job ran, and nothing was said."""
    from assistant.scanner.decoders import DEFAULT_STAGES

    monkeypatch.setattr(Cascade, "symbol_found", lambda self, gray, stage=None: False)

    said, stage = held_still(cut_off_code("Happy birthday"), DEFAULT_STAGES)
    assert said == ["Happy birthday"] and stage.jobs >= 1
    assert ("whole-wechat", "ran") in stage.cascade.trace


def test_a_still_card_no_step_reads_gets_the_whole_frame_retries_once_over_its_jobs(monkeypatch):
    """A card under a reflection that hides more of its code than error correction makes up for (tuning frame, glare
    seed 3), held still: the stage works on its picture `live.IDLE_JOBS` times and reads nothing; WeChat's detector,
    the last whole-frame retry, runs in the first of those jobs alone (its frames differ by the sensor's noise only).
    Before, it ran in each, 0.13 to 0.7 s of CPU a frame, and with both cores busy the jobs outlasted a minute."""
    from assistant.scanner.decoders import DEFAULT_STAGES
    from assistant.scanner.live import IDLE_JOBS
    from benchmarks import frames as F

    calls = []
    wechat = Cascade._wechat_read
    monkeypatch.setattr(Cascade, "_wechat_read", lambda self, gray: calls.append(1) or wechat(self, gray))
    frame = F.render(F.scene_for("glare", 3))
    stage = BackgroundStage(Cascade(DEFAULT_STAGES, budget_ms=None, clock=lambda: 0.0, wall_ms=None))
    path = Cascade(stages=("sharpen",), clock=counted(0.02), wall_ms=None)
    scanner = LiveScanner(lambda: None, lambda event: None, path, background=stage)
    said = [payload for index in range(4 * HOLD_FRAMES) for payload in scanner.handle(frame, index, index / 30)]
    assert said == [] and stage.jobs >= IDLE_JOBS
    assert len(calls) == 1


def test_a_whole_frame_retry_is_one_of_its_own_and_upscales_no_large_frame():
    """`Cascade.whole_retry`: a stage not among `decoders.WHOLE_STAGES` is an error; a frame over
    `decoders.WHOLE_UPSCALE_SIDE` across is not upscaled (no read, no step)."""

    from assistant.scanner.decoders import WHOLE_UPSCALE_SIDE

    cascade = Cascade(budget_ms=None, wall_ms=None)
    with pytest.raises(ValueError, match="sharpen"):
        cascade.whole_retry(np.zeros((64, 64), np.uint8), "sharpen")
    cascade.trace = []
    assert cascade.whole_retry(np.full((8, WHOLE_UPSCALE_SIDE + 1), 255, np.uint8), "whole-upscale") == []
    assert cascade.trace == []


def test_no_whole_frame_retry_on_a_frames_path_or_a_moving_pictures_job():
    """The whole-frame retries are a still picture's job's alone: the frame path's cascade, every stage given and no
    deadline, runs none of them on the dotted card's frame (and reads nothing), nor does a job on a frame of a
    picture that moves (`picture=None`), which reads nothing either."""
    from assistant.scanner.decoders import WHOLE_STAGES

    gray = cv2.cvtColor(dotted_code("Happy birthday", (1080, 1920), module=8, dot=3, card=True), cv2.COLOR_BGR2GRAY)
    cascade = Cascade(budget_ms=None, wall_ms=None)
    assert cascade.decode(gray) == []
    assert not {stage for stage, _ in cascade.trace} & set(WHOLE_STAGES)
    stage = BackgroundStage(Cascade(budget_ms=None, clock=lambda: 0.0, wall_ms=None))
    ran = []
    stage.cascade.on_step = lambda kind, step: ran.append(step)
    stage.offer(0, gray, None, picture=None)
    assert stage.take(10**6) == [] and stage.jobs == 1
    assert not set(ran) & set(WHOLE_STAGES)
