"""Aiming cues on the evaluation camera (benchmarks/camera_model.py, never tuned on): for a card held too far,
too close, turned away or moving, the cue names the problem, and doing what the cue says leads to a read."""

from dataclasses import replace

import cv2
import pytest

from assistant.core.scanning.aiming import Cue, aiming_cue
from assistant.core.words.scans import aiming_words
from assistant.scanner.decoders import Cascade
from assistant.scanner.measure import find_code_regions, highlight, measure_view
from assistant.scanner.repair import around, finger_over, hidden_places
from benchmarks import camera_model as M
from benchmarks import frames as F

#: What goes wrong, the cue that should be said, and what the player does on hearing it.
CASES = {
    "too far": (dict(distance_mm=1200.0), Cue.CLOSER, dict(distance_mm=400.0)),
    "too far, busy tables": (dict(distance_mm=1200.0), Cue.CLOSER, dict(distance_mm=400.0)),
    "too close": (dict(distance_mm=55.0), Cue.FURTHER, dict(distance_mm=300.0)),
    "turned away": (dict(yaw=65.0), Cue.TILT, dict(yaw=15.0)),
    "moving": (dict(velocity=(350.0, 0.0, 0.0)), Cue.HOLD_STILL, dict(velocity=(0.0, 0.0, 0.0))),
    # Tilting the card moves a lamp's reflection off it (the reflection goes where the mirror angle sends it).
    # Both cues ask for a tilt: a reflection burning out half the code also leaves a squashed region.
    "a reflection": (dict(glare=1.2, glare_at=(0.5, 0.35)), (Cue.GLARE, Cue.TILT), dict(glare=0.0, yaw=12.0)),
    # A thumb over one of the code's three finder patterns: no decoder's frame loop reads it; held by its edges
    # the card reads.
    "a thumb on a corner": (dict(finger=M.CORNER_THUMB), Cue.FINGER, dict(finger=None)),
}
SEEDS = range(5)  # a different table each: wood, felt, laminate, checked cloth, marble
#: On wood grain and a checked cloth the region search takes the table's own pattern for a code, and a card far away
#: is told "closer" from its own size (found as its bright sticker): kept as a case of its own.
BUSY = {"wood", "cloth"}


@pytest.fixture(scope="module")
def cascade():
    return Cascade(budget_ms=None)


def look(shot, cascade):
    """Read or not, and the cue: the frame loop's measurement, and what the background stage says of a finger over
    the first code-like region."""
    gray = cv2.cvtColor(M.render(shot), cv2.COLOR_BGR2GRAY)
    read = any(d.payload == shot.payload for d in cascade.decode(gray))
    view = measure_view(gray)
    regions = find_code_regions(gray, limit=1)
    if regions:
        crop = around(gray, regions[0])[0]
        view = replace(view, hidden_corner=finger_over(crop, hidden_places(crop)))
    return read, aiming_cue(view)


def tables(case: str) -> list[int]:
    if case == "too far":
        return [s for s in SEEDS if M.TABLES[s] not in BUSY]
    if case == "too far, busy tables":
        return [s for s in SEEDS if M.TABLES[s] in BUSY]
    return list(SEEDS)


@pytest.mark.parametrize("case", list(CASES))
def test_a_cue_names_the_problem_and_following_it_leads_to_a_read(case, cascade):
    wrong, expected, fix = CASES[case]
    cued, followed = 0, 0
    unread = 0
    for seed in tables(case):
        shot = replace(M.Shot(lux=350.0, table=M.TABLES[seed], seed=seed), **wrong)
        read, cue = look(shot, cascade)
        if read:
            continue
        unread += 1
        wanted = expected if isinstance(expected, tuple) else (expected,)
        if cue not in wanted:
            continue
        cued += 1
        fixed_read, fixed_cue = look(replace(shot, **fix), cascade)
        followed += fixed_read
        assert fixed_cue not in wanted or fixed_read  # the cue stops once its problem is gone
    assert unread >= 2, "the condition must make the code unreadable on at least two tables"
    assert cued >= unread / 2, f"{case}: the cue was {expected} in only {cued} of {unread} unread frames"
    assert followed == cued, f"{case}: doing what the cue said read {followed} of {cued}"


def test_every_cue_has_words():
    for cue in Cue:
        assert aiming_words(cue.value).endswith(".")


@pytest.mark.parametrize(
    "problem, seed",
    [
        ("too close", 1),
        ("turned away", 2),
        ("turned away", 4),
        ("turned away", 18),
        ("a reflection", 0),
        ("off the edge", 1),
        ("off the edge", 3),
    ],
)
def test_a_player_following_the_cues_on_an_evaluation_clip_gets_the_card_announced(problem, seed):
    """The closed loop: the app's live loop on the evaluation camera, a player who holds the card up with a problem
    and does what each cue says (benchmarks/camera_model.GuidedPlayer); the first cue names the problem and the
    card is announced within the clip (on the checked cloth, scene 3 half off the picture was told "tilt" and scene
    18 turned away "move up", both about the cloth's checks, and neither was read; on the dim marble, scene 4 turned
    away was told "hold still", its foreshortened modules measuring blurred, and was not read).
    Unbudgeted stages and a background stage on a still clock, so the outcome
    does not hang on the machine's speed."""
    from assistant.scanner.background import BackgroundStage
    from benchmarks.scanner import GUIDED_FPS, GUIDED_S, guided_clip

    class Still:
        def __call__(self) -> float:
            return 0.0

    background = BackgroundStage(Cascade(budget_ms=None, clock=Still()), frame_ms=1000 / GUIDED_FPS)
    run = guided_clip(problem, seed, cascade=Cascade(budget_ms=None), background=background)
    if (problem, seed) in (("too close", 1), ("turned away", 18)):
        # The stage reads these cards as they are held up, before any cue is due: the first by its look at the whole
        # frame (ZBar; without that look: told "further", read at 1.0 s), the second by ZBar on its region, a read
        # of one frame the frame path reads again by that step on the next (before, the thread stage's reads were
        # not read again: told "move up" about the cloth's checks, then read).
        assert run["cues"] == [] and run["announced_s"] < 0.5, run
        return
    assert run["cues"] and run["cues"][0] in M.NAMES_THE_PROBLEM[problem], run
    assert run["announced_s"] is not None and run["announced_s"] < GUIDED_S, run


def test_the_player_does_what_each_cue_says():
    hold = M.Hold(distance_mm=1100.0, yaw=65.0, glare=1.2, sweep_mm_s=300.0, offset_mm=(-270.0, 0.0))
    assert M.follow_cue(hold, "closer").distance_mm < hold.distance_mm
    assert M.follow_cue(M.Hold(distance_mm=70.0), "further").distance_mm > 70.0
    turned = M.follow_cue(hold, "tilt")
    assert turned.yaw < 30.0 and turned.glare == 0.0  # a turn that large also moves the reflection off
    assert M.follow_cue(M.Hold(yaw=3.0, glare=1.2), "tilt").glare == 1.2  # a card already facing barely turns
    assert M.follow_cue(M.Hold(glare=1.2), "glare").glare == 0.0
    assert M.follow_cue(hold, "hold still").sweep_mm_s == 0.0
    assert M.follow_cue(hold, "finger").thumb is False
    # Cut off at the picture's left edge, the code is off to the player's right: "move left" brings it in.
    assert M.follow_cue(hold, "move left").offset_mm[0] > hold.offset_mm[0]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_card_far_away_washed_out_by_the_exposure_is_found_and_told_closer(seed, cascade):
    """110 cm away over the dark wood and felt, the exposure lifts the card's blurred code to the sticker's white:
    bright all through, it was taken for a reflection, and the cue was about the wood's grain or none. A card is a
    rectangle, so it is found and told to come closer (not blind: made after those guided clips)."""
    base, hold = M.problem_hold("too far", seed)
    assert base.table in {"wood", "felt"}
    player = M.GuidedPlayer(base, hold, seed)
    for index in (5, 10, 15, 30):  # the sensor's noise differs from frame to frame
        gray = cv2.cvtColor(M.render(player.shot(index / 15, index)), cv2.COLOR_BGR2GRAY)
        assert not cascade.decode(gray)
        view = measure_view(gray)
        assert view.card is not None and view.card_side == pytest.approx(63 * M.FOCAL_PX / 1100, rel=0.15), index
        assert aiming_cue(view) is Cue.CLOSER, index


def test_a_card_half_off_the_picture_on_wood_grain_comes_before_the_grain():
    """The region search takes the evaluation camera's wood grain for codes, larger than a card half off the
    picture's left edge; the card's black on white is far starker, so its region comes first and the cue says which
    way to move it (not blind: made after the guided clip of this card was told "move down", about the grain)."""
    base, hold = M.problem_hold("off the edge", 0)
    assert base.table == "wood"
    shot = M.GuidedPlayer(base, hold, 0).shot(1.0, 15)
    gray = cv2.cvtColor(M.render(shot), cv2.COLOR_BGR2GRAY)
    regions = find_code_regions(gray, limit=6)
    assert len(regions) >= 4  # the grain's regions as well as the card's
    x, y, w, h = regions[0]
    cx, cy = M.code_corners_px(shot).mean(axis=0)
    assert x <= cx <= x + w and y <= cy <= y + h
    assert aiming_cue(measure_view(gray)) is Cue.MOVE_LEFT


def test_a_reflection_left_unclipped_by_a_lowered_exposure_is_far_brighter_than_the_paper():
    # Tuning frames at a third of their exposure: the reflection no longer clips, the paper is a mid grey.
    def measured(category, seed):
        scene = F.scene_for(category, seed)
        gray = cv2.cvtColor(F.render(replace(scene, gain=scene.gain * 0.36)), cv2.COLOR_BGR2GRAY)
        x, y, w, h = find_code_regions(gray)[0]
        return highlight(gray[y : y + h, x : x + w]), measure_view(gray)

    for seed in (0, 4, 5):  # three of the 15 in 20 that measure over 1.4 (the others 1.32 to 1.36)
        lit, view = measured("glare", seed)
        assert lit > 1.4 and aiming_cue(view) is Cue.GLARE
        assert view.saturated < 0.04  # nothing burnt out: the patch measure alone would not see it
        plain, view = measured("clean", seed)
        assert plain < 1.1 and aiming_cue(view) is not Cue.GLARE
