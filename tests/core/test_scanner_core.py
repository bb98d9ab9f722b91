"""The scanner's pure core: payload meanings, steady announcements, aiming cues."""

import pytest

from assistant.core.scanning.aiming import Cue, CuePacer, FrameView, Thresholds, aiming_cue
from assistant.core.scanning.exposure import ExposureControl, ExposureLimits
from assistant.core.scanning.payloads import (
    PayloadKind,
    label_payload,
    long_label_payload,
    parse_label,
    resolve_payload,
    short_code,
)
from assistant.core.scanning.sightings import Sighting, SightingTracker
from assistant.core.text import MAX_UNTRUSTED
from assistant.core.words.scans import aiming_words
from assistant.session import Session
from assistant.storage.decks import load_all_decks, load_card_set


@pytest.fixture(scope="module")
def cards():
    return load_card_set()


# Payloads


def test_label_payload_is_short_upper_case_and_round_trips(cards):
    payload = label_payload("uu-2nd", "rainbow-aura")
    assert len(payload) == 15 and payload.startswith("TA2:") and payload == payload.upper()
    assert parse_label(payload) == (short_code("uu-2nd"), short_code("rainbow-aura"))
    meaning = resolve_payload(payload, cards)
    assert meaning.kind is PayloadKind.LABEL and meaning.card.id == "rainbow-aura"


def test_every_card_label_resolves_to_its_card_in_both_formats(cards):
    for make in (label_payload, long_label_payload):
        wrong = [c.id for c in cards if resolve_payload(make(c.deck, c.id), cards).card != c]
        assert wrong == []


def test_old_labels_are_still_read(cards):
    assert resolve_payload("TA1:UU-2ND:RAINBOW-AURA", cards).card.id == "rainbow-aura"


def test_short_codes_are_unique_within_every_shipped_deck_and_among_decks():
    decks, _ = load_all_decks()
    for deck in decks:
        assert len({short_code(c.id) for c in deck.cards}) == len(deck.cards), deck.id
    assert len({short_code(d.id) for d in decks}) == len(decks)


def test_label_of_a_deck_not_in_play_names_it_without_a_card(cards):
    meaning = resolve_payload("TA1:LL-BASE:SPITTING-LLAMA", cards)
    assert meaning.kind is PayloadKind.LABEL and meaning.card is None and not meaning.deck_in_play
    assert (meaning.deck, meaning.card_id) == ("ll-base", "spitting-llama")


@pytest.mark.parametrize(
    "payload",
    [
        "TA1:EVIL-DECK:RAINBOW-AURA",
        "TA1:UU-1ST:RAINBOW-AURA",
        label_payload("uu-1st", "rainbow-aura"),
        label_payload("evil-deck", "rainbow-aura"),
    ],
)
def test_a_label_of_another_deck_never_announces_the_card_in_play(cards, payload):
    meaning = resolve_payload(payload, cards)
    assert meaning.card is None and not meaning.deck_in_play
    reply = Session(cards).card_desk.scanned(payload)
    assert reply.card is None and "not in play" in reply.speech and "Rainbow Aura" not in reply.speech


@pytest.mark.parametrize("payload", ["TA1:UU-2ND:NOT-A-CARD", label_payload("uu-2nd", "not-a-card")])
def test_a_label_of_the_deck_in_play_for_a_card_it_lacks_says_so(cards, payload):
    meaning = resolve_payload(payload, cards)
    assert meaning.card is None and meaning.deck_in_play and meaning.deck == "uu-2nd"
    speech = Session(cards).card_desk.scanned(payload).speech
    assert "not in play" not in speech and "does not have" in speech and "uu-2nd" in speech


def test_a_full_text_naming_no_card_in_play_is_flagged_as_a_new_card(cards):
    text = "Llama Drama. Trade hands with any player, then each player draws a card."
    meaning = resolve_payload(text, cards)
    assert meaning.kind is PayloadKind.TEXT and meaning.card is None and meaning.new_card_text
    known = resolve_payload("Rainbow Aura. While this card is in your Stable, nothing happens.", cards)
    assert known.card.id == "rainbow-aura" and not known.new_card_text
    assert not resolve_payload("Rainbow Aura", cards).new_card_text


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/cards/rainbow-aura",
        "https://example.org/cards/rainbow-aura.html",
        "http://example.org/uu/Rainbow%20Aura",
        "https://example.org/lookup?card=rainbow-aura",
        "https://example.org/lookup?lang=en&name=Rainbow+Aura",
        "https://example.org/x?q=RAINBOW_AURA",
    ],
)
def test_url_names_a_card_by_its_last_segment_or_a_parameter(cards, url):
    meaning = resolve_payload(url, cards)
    assert meaning.kind is PayloadKind.URL and meaning.card.id == "rainbow-aura"


def test_url_naming_no_card_is_unknown(cards):
    assert resolve_payload("https://example.org/about", cards).kind is PayloadKind.UNKNOWN


def test_card_name_alone_and_card_text_payloads(cards):
    assert resolve_payload("Rainbow Aura", cards).card.id == "rainbow-aura"
    text = "Rainbow Aura. While this card is in your Stable, your Unicorns cannot be destroyed."
    meaning = resolve_payload(text, cards)
    assert meaning.kind is PayloadKind.TEXT and meaning.card.id == "rainbow-aura"
    prose = resolve_payload("Draw two cards and then discard one card.", cards)
    assert prose.kind is PayloadKind.TEXT and prose.card is None


@pytest.mark.parametrize("payload", ["12345678", "WIFI:S:home;T:WPA;P:x;;", "", "   "])
def test_anything_else_is_unknown(cards, payload):
    assert resolve_payload(payload, cards).kind is PayloadKind.UNKNOWN


def test_session_answers_a_scan_like_a_typed_name(cards):
    session = Session(cards)
    typed = session.handle("rainbow aura")
    scanned = session.card_desk.scanned(label_payload("uu-2nd", "rainbow-aura"))
    assert scanned.card == typed.card and scanned.lines == typed.lines and scanned.speech == typed.speech


HOSTILE = {
    "escape sequences": "\x1b[2J\x1b]0;owned\x07\x1b[31mred\x9b31m",
    "markup": "[bold red]x[/bold red] [link=https://e.org]y[/link]",
    "control characters": "a\x00b\x08c\rd\x7fe\u202ef",
    "3 KB": "A" * 3000,
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_payloads_are_cleaned_and_capped(cards, name):
    reply = Session(cards).card_desk.scanned(HOSTILE[name])
    for text in (*reply.lines, reply.speech):
        assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text and "\x00" not in text
        assert len(text) <= MAX_UNTRUSTED + len("Unknown code: ")
    if name == "markup":
        assert "[bold red]x[/bold red]" in reply.speech  # shown literally, never interpreted


def test_invalid_utf8_bytes_become_replacement_characters(cards):
    reply = Session(cards).card_desk.scanned(b"\xff\xfe\xc3(\x1b[1mcard")
    assert reply.card is None and "\ufffd" in reply.speech and "\x1b" not in reply.speech


# Steady announcements


def frames(tracker, sequence, start=0.0, step=1 / 30):
    out = []
    for i, payloads in enumerate(sequence):
        out.append([s.payload for s in tracker.update([Sighting(p, x) for p, x in payloads], start + i * step)])
    return out


def test_announced_after_two_consistent_frames_then_once():
    said = frames(SightingTracker(), [[("A", 1)]] * 5)
    assert said == [[], ["A"], [], [], []]


def test_confirm_frames_is_configurable():
    said = frames(SightingTracker(confirm_frames=3), [[("A", 1)]] * 4)
    assert said == [[], [], ["A"], []]
    assert frames(SightingTracker(confirm_frames=1), [[("A", 1)]]) == [["A"]]


def test_a_single_misread_frame_is_never_announced():
    said = frames(SightingTracker(), [[("A", 1)], [("B", 1)], [("A", 1)], [], [], []])
    assert "B" not in sum(said, [])


def test_brief_dropout_does_not_count_as_leaving():
    sequence = [[("A", 1)]] * 3 + [[]] * 3 + [[("A", 1)]] * 3
    assert sum(frames(SightingTracker(gone_frames=8), sequence), []) == ["A"]


def test_leaving_and_coming_back_announces_again_even_within_the_cool_down():
    sequence = [[("A", 1)]] * 3 + [[]] * 10 + [[("A", 1)]] * 3
    said = frames(SightingTracker(gone_frames=8, cooldown=60), sequence)
    assert sum(said, []) == ["A", "A"]


def test_leaving_takes_frames_looked_at_and_time_both():
    # Ten frames without the code, but all taken within a tenth of a second (a 100 frames a second video): not yet
    # gone; nor after 20 frames in which the decoder ran out of time (a loaded machine), however long they took.
    tracker = SightingTracker(gone_frames=8, gone_seconds=0.25, cooldown=60)
    sequence = [[("A", 1)]] * 3 + [[]] * 10 + [[("A", 1)]] * 3
    assert sum(frames(tracker, sequence, step=0.01), []) == ["A"]
    tracker = SightingTracker(gone_frames=8, gone_seconds=0.25, cooldown=60)
    said = [tracker.update([Sighting("A")], t / 10) for t in range(3)]
    said += [tracker.update([], 0.3 + t, looked=False) for t in range(20)]
    said += [tracker.update([Sighting("A")], 30.0 + t / 10) for t in range(3)]
    assert [s.payload for s in sum(said, [])] == ["A"]


def test_staying_in_view_repeats_only_after_the_cool_down():
    tracker = SightingTracker(cooldown=2.0)
    said = frames(tracker, [[("A", 1)]] * 12, step=0.25)  # three seconds, four frames a second
    assert [i for i, s in enumerate(said) if s] == [1, 9]


def test_several_codes_in_one_frame_are_each_announced_once_left_to_right():
    sequence = [[("right", 900), ("left", 100), ("middle", 500)]] * 4
    said = frames(SightingTracker(), sequence)
    assert said[1] == ["left", "middle", "right"] and sum(said[2:], []) == []


def test_confirm_frames_below_one_is_refused():
    with pytest.raises(ValueError):
        SightingTracker(confirm_frames=0)


# Aiming cues


def view(**changes):
    base = dict(width=1280, height=720, region=(500, 250, 200, 200), sharpness=1000.0, brightness=130.0)
    base.update(changes)
    return FrameView(**base)


def test_each_cue_from_measured_properties():
    assert aiming_cue(view(read=True)) is Cue.READ
    assert aiming_cue(view()) is None  # seen, big, sharp, bright: nothing to say, the decoder will get it
    assert aiming_cue(view(region=None)) is None
    assert aiming_cue(view(region=None, brightness=20)) is Cue.MORE_LIGHT
    assert aiming_cue(view(brightness=30)) is Cue.MORE_LIGHT
    assert aiming_cue(view(region=(600, 300, 60, 60))) is Cue.CLOSER
    assert aiming_cue(view(sharpness=50)) is Cue.HOLD_STILL
    assert aiming_cue(view(region=(0, 250, 120, 200)), facing_player=False) is Cue.MOVE_RIGHT
    assert aiming_cue(view(region=(1180, 250, 100, 200)), facing_player=False) is Cue.MOVE_LEFT
    assert aiming_cue(view(region=(500, 0, 200, 150))) is Cue.MOVE_DOWN
    assert aiming_cue(view(region=(500, 600, 200, 120))) is Cue.MOVE_UP


def test_a_camera_facing_the_player_mirrors_left_and_right():
    assert aiming_cue(view(region=(0, 250, 120, 200)), facing_player=True) is Cue.MOVE_LEFT
    assert aiming_cue(view(region=(1180, 250, 100, 200)), facing_player=True) is Cue.MOVE_RIGHT


def test_cut_off_beats_dark_beats_small_beats_blurred():
    assert aiming_cue(view(region=(500, 0, 60, 60), brightness=20, sharpness=1)) is Cue.MOVE_DOWN
    assert aiming_cue(view(region=(500, 250, 60, 60), brightness=20, sharpness=1)) is Cue.MORE_LIGHT
    assert aiming_cue(view(region=(500, 250, 60, 60), sharpness=1)) is Cue.CLOSER


def test_a_picture_darkened_by_the_scanners_own_exposure_asks_for_no_more_light():
    assert aiming_cue(view(region=None, brightness=20, exposure_shortened=True)) is None
    assert aiming_cue(view(region=(500, 250, 60, 60), brightness=20, exposure_shortened=True)) is Cue.CLOSER
    assert aiming_cue(view(brightness=30, exposure_shortened=True)) is None  # the code is read, or cued otherwise


def test_thresholds_are_adjustable():
    assert aiming_cue(view(sharpness=300), Thresholds(min_sharpness=400)) is Cue.HOLD_STILL
    assert aiming_cue(view(sharpness=300), Thresholds(min_sharpness=200)) is None


def test_every_cue_has_words():
    assert all(aiming_words(cue.value) for cue in Cue)
    assert len({aiming_words(cue.value) for cue in Cue}) == len(Cue)


def test_cues_are_rate_limited_but_the_confirmation_is_not():
    pacer = CuePacer(interval=1.5, repeat=4.0, settle=0.0, votes=1)
    assert pacer.pace(Cue.CLOSER, 0.0) is Cue.CLOSER
    assert pacer.pace(Cue.CLOSER, 1.0) is None
    assert pacer.pace(Cue.HOLD_STILL, 1.0) is None
    assert pacer.pace(Cue.HOLD_STILL, 1.6) is Cue.HOLD_STILL
    assert pacer.pace(Cue.HOLD_STILL, 3.0) is None  # the same cue again waits longer
    assert pacer.pace(Cue.HOLD_STILL, 5.7, moved=True) is Cue.HOLD_STILL
    assert pacer.pace(Cue.READ, 5.8) is Cue.READ
    assert pacer.pace(None, 10.0) is None


def test_no_more_than_two_cues_while_nothing_moves():
    # A table's pattern taken for a code: its cue is said twice, then not again until something moves.
    pacer = CuePacer(settle=0.0, share=0.0, votes=1)
    said = [pacer.pace(Cue.TILT, t / 2) for t in range(60)]
    assert [(t / 2, cue) for t, cue in enumerate(said) if cue] == [(0.0, Cue.TILT), (4.0, Cue.TILT)]
    assert pacer.pace(Cue.CLOSER, 30.0) is None  # another cue neither
    assert pacer.pace(Cue.TILT, 30.5, moved=True) is Cue.TILT
    # A read starts the count again too.
    assert pacer.pace(Cue.TILT, 35.0) is Cue.TILT
    assert pacer.pace(Cue.TILT, 40.0) is None
    assert pacer.pace(Cue.READ, 41.0) is Cue.READ
    assert pacer.pace(Cue.TILT, 43.0) is Cue.TILT


def test_a_player_who_came_closer_but_not_enough_hears_closer_again_sooner():
    # Told "closer" with the card found 75 pixels wide; it comes to 100: "closer" again after 1.5 s, not 4 s.
    pacer = CuePacer(settle=0.0, votes=1)
    assert pacer.pace(Cue.CLOSER, 0.0, card=75.0) is Cue.CLOSER
    assert pacer.pace(Cue.CLOSER, 1.0, card=100.0) is None  # never before the interval
    assert pacer.pace(Cue.CLOSER, 1.6, card=100.0) is Cue.CLOSER
    # Not come closer since: the usual 4 s wait, and after two cues since the player last moved, no third.
    assert pacer.pace(Cue.CLOSER, 3.2, card=104.0) is None
    assert pacer.pace(Cue.CLOSER, 5.7, card=104.0) is Cue.CLOSER
    assert pacer.pace(Cue.CLOSER, 9.8, card=104.0) is None
    # Coming closer counts as a move, though the motion measure missed it: "closer" once more.
    assert pacer.pace(Cue.CLOSER, 9.9, card=125.0) is Cue.CLOSER
    # No card found: nothing says the player came closer (a busy table's code-like regions change size by half
    # from frame to frame, so they are not asked). Nor does the card's size speak for any other cue.
    pacer = CuePacer(settle=0.0, votes=1)
    assert pacer.pace(Cue.CLOSER, 0.0, card=75.0) is Cue.CLOSER
    assert pacer.pace(Cue.CLOSER, 1.6) is None
    pacer = CuePacer(settle=0.0, votes=1)
    assert pacer.pace(Cue.TILT, 0.0, card=75.0) is Cue.TILT
    assert pacer.pace(Cue.TILT, 1.6, card=120.0) is None


def test_the_card_size_that_tells_a_player_came_closer_is_the_median_over_the_settling_time():
    # One frame in which the card measures large (a bright patch joining it) is not the player coming closer.
    pacer = CuePacer(settle=0.5, votes=1, share=0.0)
    said = [pacer.pace(Cue.CLOSER, t / 10, card=75.0) for t in range(10)]
    assert said.count(Cue.CLOSER) == 1
    sides = [75.0, 75.0, 130.0, 75.0, 75.0, 75.0] * 4
    assert [pacer.pace(Cue.CLOSER, 1.0 + t / 10, card=side) for t, side in enumerate(sides)].count(Cue.CLOSER) == 0
    # Held 30 % closer for the settling time: said again.
    assert Cue.CLOSER in [pacer.pace(Cue.CLOSER, 3.5 + t / 10, card=98.0) for t in range(6)]


def cues_said(pacer: CuePacer, cues: list[Cue | None], start: float = 0.0, step: float = 0.1) -> list[Cue]:
    """The cues said over frames `step` seconds apart."""
    said = [pacer.pace(cue, start + i * step) for i, cue in enumerate(cues)]
    return [cue for cue in said if cue is not None]


def test_a_cue_is_said_only_once_it_has_settled():
    # A card brought in: cut off, then blurred, then a reflection that stays. Only the reflection is said, once it
    # has been the cue of most frames for half a second.
    pacer = CuePacer(settle=0.5)
    reach = [Cue.MOVE_LEFT, Cue.MOVE_LEFT, Cue.HOLD_STILL, None, Cue.HOLD_STILL]
    assert cues_said(pacer, reach + [Cue.GLARE] * 6) == [Cue.GLARE]
    # Nothing is said in the first half second, whatever the cue.
    assert cues_said(CuePacer(settle=0.5), [Cue.CLOSER] * 5) == []
    assert cues_said(CuePacer(settle=0.5), [Cue.CLOSER] * 6) == [Cue.CLOSER]
    # A cue flickering with others never has the frames' majority.
    flicker = [Cue.CLOSER, Cue.HOLD_STILL, Cue.TILT] * 10
    assert cues_said(CuePacer(settle=0.5), flicker) == []


def test_frames_that_saw_nothing_have_no_say_but_one_frame_alone_is_not_enough():
    # A reflection burning out most of the code: the search finds what is left of it in one frame of three.
    flicker = [(Cue.GLARE, True), (None, False), (None, False)] * 10
    pacer = CuePacer(settle=0.5)
    said = [pacer.pace(cue, i * 0.1, seen=seen) for i, (cue, seen) in enumerate(flicker)]
    assert [cue for cue in said if cue] == [Cue.GLARE]
    # Frames that saw the card with nothing to say about it do have a say.
    pacer = CuePacer(settle=0.5)
    said = [pacer.pace(cue, i * 0.1) for i, (cue, _) in enumerate(flicker)]
    assert not any(said)
    # A single frame among ones that saw nothing (a table's pattern, once) is no cue.
    lone = [(None, False)] * 6 + [(Cue.TILT, True)] + [(None, False)] * 6
    pacer = CuePacer(settle=0.5)
    assert not any(pacer.pace(cue, i * 0.1, seen=seen) for i, (cue, seen) in enumerate(lone))


def test_settling_starts_again_after_a_read():
    pacer = CuePacer(settle=0.5, interval=0.0, repeat=0.0, most=10)
    assert cues_said(pacer, [Cue.CLOSER] * 8) == [Cue.CLOSER, Cue.CLOSER, Cue.CLOSER]
    assert pacer.pace(Cue.READ, 0.8) is Cue.READ  # the confirmation at once
    assert cues_said(pacer, [Cue.CLOSER] * 5, start=0.9) == []  # the next card settles afresh
    assert cues_said(pacer, [Cue.CLOSER] * 2, start=1.5) == [Cue.CLOSER, Cue.CLOSER]


def test_frames_slower_than_the_settling_time_settle_on_two_in_a_row():
    pacer = CuePacer(settle=0.5, interval=0.0, repeat=0.0, most=10)
    # Never a cue that changed from the frame before.
    assert cues_said(pacer, [Cue.CLOSER, Cue.TILT, Cue.TILT, Cue.CLOSER], step=2.0) == [Cue.TILT]


def test_a_small_card_seen_on_its_own_is_told_to_come_closer():
    card = dict(card=(620, 330, 40, 48), card_side=40.0)  # a sticker some 1.4 m away
    assert aiming_cue(view(region=None, **card)) is Cue.CLOSER
    # Whatever region was found (the table's own pattern, off the card or around it), the card's size decides.
    assert aiming_cue(view(region=(100, 100, 300, 250), **card)) is Cue.CLOSER
    assert aiming_cue(view(region=(0, 0, 1280, 720), sharpness=50, **card)) is Cue.CLOSER
    # A region on the card, taking in some table around it, measures larger than the code: the card's size decides.
    assert aiming_cue(view(region=(580, 290, 120, 120), sharpness=50, **card)) is Cue.CLOSER
    assert aiming_cue(view(region=None, brightness=20, **card)) is Cue.MORE_LIGHT
    # A card cut off by the picture's edge is no measure of its distance.
    assert aiming_cue(view(region=None, card=(0, 330, 30, 48), card_side=30.0)) is None


def test_a_card_seen_on_its_own_near_enough_leaves_the_cues_as_they_were():
    card = dict(card=(560, 280, 140, 165), card_side=140.0)  # a sticker some 40 cm away
    assert aiming_cue(view(region=None, **card)) is None
    assert aiming_cue(view(region=(0, 0, 1280, 720), sharpness=50, **card)) is Cue.FURTHER
    assert aiming_cue(view(region=None, **card), Thresholds(min_card_side=150)) is Cue.CLOSER


def test_a_reflection_on_a_sharp_code_is_named_before_its_size_and_shape():
    # What a reflection leaves of a code is a small, squashed piece: the cue names the reflection whatever the angle.
    assert aiming_cue(view(saturated=0.5)) is Cue.GLARE
    assert aiming_cue(view(saturated=0.5, squareness=0.4)) is Cue.GLARE
    assert aiming_cue(view(region=(600, 300, 60, 60), saturated=0.5)) is Cue.GLARE
    assert aiming_cue(view(squareness=0.4)) is Cue.TILT
    # A small patch is a reflection on a code facing the camera, but on a squashed one first the turn: the white
    # card edge of a card turned far away can be clipped flat by the exposure.
    assert aiming_cue(view(saturated=0.06)) is Cue.GLARE
    assert aiming_cue(view(saturated=0.06, squareness=0.4)) is Cue.TILT
    # A blurred one is first held still: a code smeared across a clipped white sticker also looks burnt out.
    assert aiming_cue(view(saturated=0.5, sharpness=50)) is Cue.HOLD_STILL
    # Unless the picture is still: a card that does not move smears nothing, so the patch is a reflection.
    assert aiming_cue(view(saturated=0.5, sharpness=50, still=True)) is Cue.GLARE
    assert aiming_cue(view(sharpness=50, still=True)) is Cue.HOLD_STILL
    # Blurred and squashed: a moving card is held still first, a still one is turned far away (its modules are
    # foreshortened past what measures sharp).
    assert aiming_cue(view(sharpness=50, squareness=0.4)) is Cue.HOLD_STILL
    assert aiming_cue(view(sharpness=50, squareness=0.4, still=True)) is Cue.TILT
    assert aiming_cue(view(saturated=0.5, brightness=30)) is Cue.MORE_LIGHT
    # Once the exposure is lowered a reflection may no longer be clipped: far brighter than the paper, it is named.
    assert aiming_cue(view(highlight=1.6)) is Cue.GLARE
    assert aiming_cue(view(highlight=1.6, sharpness=50, still=True)) is Cue.GLARE
    assert aiming_cue(view(highlight=1.2, sharpness=50, still=True)) is Cue.HOLD_STILL


def test_a_hidden_corner_is_named_before_a_reflection_size_and_shape():
    assert aiming_cue(view(hidden_corner=True)) is Cue.FINGER
    assert aiming_cue(view(hidden_corner=True, squareness=0.4)) is Cue.FINGER
    # A corner burnt out by a reflection does not count as hidden; a sticker clipped white looks burnt out too.
    assert aiming_cue(view(hidden_corner=True, saturated=0.5)) is Cue.FINGER
    assert aiming_cue(view(hidden_corner=True, sharpness=50)) is Cue.HOLD_STILL  # blurred: the count is unsure
    assert aiming_cue(view(hidden_corner=True, region=(500, 0, 200, 150))) is Cue.MOVE_DOWN  # cut off first
    assert aiming_words(Cue.FINGER.value) == "A finger covers the code. Hold the card by its edges."


# Exposure metered on the code


def _metered(control, whites):
    """What `ExposureControl.update` returned for each frame's white level."""
    return [control.update(white) for white in whites]


def test_a_clipped_code_asks_for_less_exposure_step_by_step_down_to_the_floor():
    limits = ExposureLimits()
    control = ExposureControl(limits)
    said = _metered(control, [250.0] * 30)
    changes = [share for share in said if share is not None]
    assert said[0] == pytest.approx(limits.step_down)  # at once: no change was waiting to settle
    assert said[1 : limits.settle_frames] == [None] * (limits.settle_frames - 1)  # the camera is still applying it
    assert changes == sorted(changes, reverse=True) and changes[-1] == limits.lowest == control.share
    assert all(share is None for share in said[said.index(limits.lowest) + 1 :])  # never below the floor


def test_a_white_in_the_band_keeps_the_exposure_and_a_dim_one_goes_back_up_to_auto_at_most():
    control = ExposureControl()
    _metered(control, [250.0] * 7)
    lowered = control.share
    assert lowered < 1.0
    assert _metered(control, [200.0] * 10) == [None] * 10 and control.share == lowered
    risen = [share for share in _metered(control, [120.0] * 30) if share is not None]
    assert risen == sorted(risen) and risen[-1] == 1.0 == control.share
    assert _metered(ExposureControl(), [120.0] * 10) == [None] * 10  # never above the camera's own


def test_auto_exposure_is_given_back_once_no_code_is_seen_for_a_while():
    limits = ExposureLimits()
    control = ExposureControl(limits)
    _metered(control, [250.0] * 4)
    said = _metered(control, [None] * limits.release_frames)
    assert said[:-1] == [None] * (limits.release_frames - 1) and said[-1] == 1.0 == control.share
    control = ExposureControl(limits)
    _metered(control, [250.0])
    assert _metered(control, ([None] * (limits.release_frames - 1) + [200.0]) * 2).count(1.0) == 0  # a code came back


def test_a_white_still_clipped_at_a_quarter_of_the_exposure_is_a_reflection_while_the_exposure_goes_on_down():
    limits = ExposureLimits()
    control = ExposureControl(limits)
    seen = []
    for _ in range(4 * limits.settle_frames):
        control.update(250.0)
        seen.append((control.share, control.reflection))
    low = next(i for i, (share, _) in enumerate(seen) if share <= limits.reflection_below)
    said = [i for i, (_, reflection) in enumerate(seen) if reflection]
    assert said[0] == low + limits.settle_frames - 1  # judged on a frame taken at that share, not one before
    assert said == list(range(said[0], len(seen))) and control.share == limits.lowest < limits.reflection_below
    control.update(200.0)  # no longer clipped, but a reflection may still hide the code: still said
    assert control.reflection
    _metered(control, [100.0] * limits.settle_frames)  # dim: tilted away from the lamp, the exposure goes up
    assert control.share > limits.lowest and not control.reflection
    assert not ExposureControl(limits).reflection  # at the camera's own exposure a clipped white may be the paper
    # However blurred or moving the code: paper is not that bright, so it is no smear of a white sticker.
    assert aiming_cue(view(clipped_however_exposed=True, sharpness=50)) is Cue.GLARE


@pytest.mark.parametrize(
    "payload, name, text, card_type",
    [
        ("Upgrade: Rainbow Aura", "Rainbow Aura", "", "upgrade"),
        ("MAGIC CARD / Wool Gathering / Draw two.", "Wool Gathering", "Draw two.", "magic"),
        ("UPGRADE CARD - Rainbow Aura - Nothing happens.", "Rainbow Aura", "Nothing happens.", "upgrade"),
        ("Wool Gathering / Magic / Draw two.", "Wool Gathering", "Draw two.", "magic"),
        ("action Wool Gathering: Draw two.", "Wool Gathering", "Draw two.", "magic"),
        ("Wool Gathering - Draw two - then discard.", "Wool Gathering", "Draw two - then discard.", None),
        ("dg Wool Gathering", "Wool Gathering", "", "downgrade"),
        ("Wool Gathering", "Wool Gathering", "", None),
    ],
)
def test_a_card_text_is_read_as_a_player_means_it(payload, name, text, card_type):
    from assistant.core.cards.learning import card_text_parts

    parts = card_text_parts(payload)
    assert parts is not None and (parts.name, parts.text) == (name, text)
    assert (parts.type.value if parts.type else None) == card_type


def test_prose_with_dashes_is_no_card_text():
    from assistant.core.cards.learning import card_text_parts, read_card_text

    text = "Rainbow Aura. Your Unicorns - all of them - cannot be destroyed."
    assert card_text_parts(text) is None and read_card_text(text) is None


def test_a_card_named_like_a_type_is_a_name_not_a_type_line():
    from assistant.core.cards.learning import card_text_parts

    parts = card_text_parts("Baby Llama / Born in the nursery.", lambda field: field == "Baby Llama")
    assert parts is not None and parts.name == "Baby Llama" and parts.text == "Born in the nursery."
