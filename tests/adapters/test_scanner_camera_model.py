"""The evaluation camera model (benchmarks/camera_model.py) agrees with the sticker sizing and with itself."""

from dataclasses import replace

import numpy as np
import pytest

from assistant.scanner import stickers
from benchmarks import camera_model as M


def test_the_same_shot_gives_the_same_frame():
    shot = M.sample_shot(7)
    assert np.array_equal(M.render(shot), M.render(shot))
    assert M.render(shot).shape == (M.HEIGHT, M.WIDTH, 3)


def test_module_size_in_the_frame_matches_the_sticker_rule():
    module_mm = stickers.module_dots() * 25.4 / stickers.DPI
    facing = M.code_module_px(M.Shot(distance_mm=400.0))
    assert facing == pytest.approx(stickers.module_px(module_mm), rel=0.02)
    # Tilted, a side's mean module is foreshortened by cos 30 degrees; the far edge's module (the rule) is smaller.
    tilted = M.code_module_px(M.Shot(distance_mm=400.0, pitch=30.0))
    assert tilted == pytest.approx(facing * np.cos(np.radians(30)), rel=0.03)
    assert tilted > stickers.module_px(module_mm, tilt_deg=30.0) >= 4.0


def test_auto_exposure_lengthens_the_exposure_then_adds_gain_as_light_falls():
    bright, living, dim = (M.exposure(lux) for lux in (900.0, 300.0, 40.0))
    assert bright[0] < M.MAX_EXPOSURE_S and bright[1] == 1.0
    assert living[0] <= M.MAX_EXPOSURE_S and dim[0] == M.MAX_EXPOSURE_S
    assert dim[1] > living[1] >= bright[1]


def test_a_hand_clip_brings_the_code_into_view_holds_it_and_takes_it_away():
    shots = M.hand_clip(3)
    seen = [M.code_in_view(s) for s in shots]
    rest = M.rest_frame(shots)
    assert not seen[0] or seen.index(False) > 0
    assert rest is not None and all(seen[rest : rest + 20])
    assert not seen[-1]  # taken away at the end
    assert len({(s.table, s.seed) for s in shots}) == 1 and len({s.frame for s in shots}) == len(shots)


def test_a_listening_player_keeps_the_card_up_and_follows_cues_heard_after_the_reach():
    passive, listening = M.HandPlayer(5), M.HandPlayer(5, listening=True, patience=4.0)
    assert [passive.shot(i) for i in range(passive.frames)] == M.hand_clip(5)
    assert listening.frames == int((listening.reach_s + 4.0) * M.FPS) > passive.frames
    held = int((listening.reach_s + listening.hold_s + 0.3) * M.FPS)  # the passive hand is leaving by then
    assert M.code_in_view(listening.shot(held)) and M.code_in_view(listening.shot(listening.frames - 1))
    # A cue during the reach is not followed; one after it is, a reaction time later.
    listening.hear("closer", 0.1)
    assert listening.shot(held).distance_mm == passive.shot(held).distance_mm
    listening.hear("closer", listening.reach_s)
    later = int((listening.reach_s + M.REACTION_S + M.MOVE_S + 0.1) * M.FPS)
    assert listening.shot(later).distance_mm < passive.shot(later).distance_mm
    passive.hear("closer", passive.reach_s)
    assert passive.shot(later).distance_mm == M.hand_clip(5)[later].distance_mm


def test_a_clip_keeps_its_table_and_light_from_frame_to_frame():
    for seed in range(5):  # a table each
        empty = replace(M.sample_shot(seed), offset_mm=(5000.0, 0.0))  # no card in the picture
        first, second = (M.render(replace(empty, frame=frame)).astype(int) for frame in (1, 2))
        assert not np.array_equal(first, second)  # the sensor's noise is drawn anew
        assert np.abs(first - second).mean() < 3.5, empty.table  # the table and the lamp are the same


def test_an_exposure_asked_for_darkens_the_frame_and_reaches_the_camera_two_frames_later():
    shot = M.Shot(distance_mm=350.0, lux=600.0, table="felt", seed=3)
    x0, y0 = M.card_corners_px(shot).min(0).astype(int)
    x1, y1 = M.card_corners_px(shot).max(0).astype(int)
    card = (slice(y0, y1), slice(x0, x1))
    own, half = (float(M.render(replace(shot, exposure_share=s))[card].mean()) for s in (1.0, 0.5))
    assert half < 0.95 * own  # a gamma-encoded picture: half the light is not half the grey level
    camera = M.ModelWebcam()
    shares = []
    for index in range(6):
        camera.frame(shot, index)
        shares.append(camera.share)
        if index == 1:
            assert camera.set_exposure(0.5)
    assert shares == [1.0, 1.0, 1.0, 0.5, 0.5, 0.5] and camera.asked == [(1, 0.5)]
