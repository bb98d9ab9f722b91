"""Aiming cues on the evaluation camera (benchmarks/camera_model.py, never tuned on): for a card held too far,
too close, turned away or moving, the cue names the problem, and doing what the cue says leads to a read."""

from dataclasses import replace

import cv2
import pytest

from assistant.core import words
from assistant.core.aiming import Cue, aiming_cue
from assistant.scanner.decoders import Cascade
from assistant.scanner.measure import measure_view
from benchmarks import camera_model as M

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
}
SEEDS = range(5)  # a different table each: wood, felt, laminate, checked cloth, marble
#: A small code far away is told apart from the table only on plain tables: on wood grain and a checked cloth the
#: region search takes the table's own pattern for a code, and the cue is about that instead (a known weakness).
BUSY = {"wood", "cloth"}


@pytest.fixture(scope="module")
def cascade():
    return Cascade(budget_ms=None)


def look(shot, cascade):
    gray = cv2.cvtColor(M.render(shot), cv2.COLOR_BGR2GRAY)
    read = any(d.payload == shot.payload for d in cascade.decode(gray))
    return read, aiming_cue(measure_view(gray))


def tables(case: str) -> list[int]:
    if case == "too far":
        return [s for s in SEEDS if M.TABLES[s] not in BUSY]
    if case == "too far, busy tables":
        return [s for s in SEEDS if M.TABLES[s] in BUSY]
    return list(SEEDS)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="table pattern taken for a code"))
        if c.endswith("busy tables")
        else c
        for c in CASES
    ],
)
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
        assert words.aiming_words(cue.value).endswith(".")
