"""Every card's own rule played: each print of each card of every shipped deck that has a rule of its own (a tag the
game engine reads, a Magic or Instant card's type, what the engine reads from its wording, variation and the rules
data: tests/core/own_rule_plays.py) is played, kind by kind, in the small position its kind's scenario
(tests/core/own_rule_scenarios.py) builds from the card's data, and the rule must be followed (an objection raised,
an effect in the chain, a protection honoured, a duty laid, a count changed). A card whose rule is not followed or
not played is named, with the reason, in docs/game.md's "Cards left to the table"; a card named there must still be
one whose rule is not played, so the list cannot drift either way. `python -m benchmarks.own_rules` counts them,
deck by deck.
"""

from __future__ import annotations

import pytest

from assistant.core.cards.card import CardType
from tests.core.own_rule_plays import Place, engine_tags, left_to_the_table, rule_kinds, shipped_places
from tests.core.own_rule_scenarios import SCENARIOS, plays

CASES = [(place, kind) for place in shipped_places() for kind in rule_kinds(place.card)]
LEFT = left_to_the_table()


def case_id(place: Place, kind: str) -> str:
    return f"{place.deck}:{place.card.id}{':' + place.print if place.print else ''}:{kind}"


@pytest.mark.parametrize("place, kind", CASES, ids=[case_id(p, k) for p, k in CASES])
def test_every_card_with_a_rule_of_its_own_plays_it(place, kind):
    if (place.deck, place.name, kind) in LEFT:
        assert not plays(place, kind), f"{place.name} ({place.deck}) plays its {kind}: take it off the docs' list"
        return
    assert kind in SCENARIOS, f"{place.name} ({place.deck}): no scenario plays {kind}; name it in docs/game.md"
    SCENARIOS[kind](place)  # fails with what was not followed


def test_every_card_left_to_the_table_has_that_rule():
    """Each line of "Cards left to the table" names a print of a card of that deck, by its name, with that kind."""
    known = {(place.deck, place.name, kind) for place, kind in CASES}
    assert sorted(set(LEFT) - known) == []
    assert all(reason.strip() for reason in LEFT.values())


def test_the_list_is_read():
    """The docs' lines are read: a line in the form is found, a line in another form is not."""
    doc = "## Cards left to the table\n- Nanny Cam (`uu-2nd`, `table_keeps`): kept\n  by the table.\n- Nanny Cam: no.\n"
    assert left_to_the_table(doc) == {("uu-2nd", "Nanny Cam", "table_keeps"): "kept by the table."}


def test_each_scenario_can_fail():
    """Every scenario, played with a Basic card of the same set in place of a card of its kind (a card with no rule
    of its own), finds its rule not followed."""
    passed = []
    for kind in SCENARIOS:
        place = next(p for p, k in CASES if k == kind)
        plain = next(c for c in place.cards if c.type is CardType.BASIC)
        assert rule_kinds(plain) == ()
        if plays(Place(place.deck, plain), kind):
            passed.append(kind)
    assert passed == []


def test_each_scenario_fails_with_every_other_card_of_its_type():
    """Every scenario, played with each card of the same type in its first card's set that lacks its kind (a Magic
    card that plays no card, for `plays_card`), finds its rule not followed."""
    passed = set()
    for kind in SCENARIOS:
        place = next(p for p, k in CASES if k == kind)
        for other in place.cards:
            if other.type is place.card.type and kind not in rule_kinds(other):
                if plays(Place(place.deck, other), kind):
                    passed.add((kind, other.id))
    assert passed == set()


def test_every_scenario_is_for_a_kind_some_card_has():
    """No scenario is left over from a kind no card has, and every tag the engine reads is carried by a card."""
    kinds = {kind for _, kind in CASES}
    assert sorted(set(SCENARIOS) - kinds) == []
    assert sorted({tag.value for tag in engine_tags()} - kinds) == []


def test_every_card_but_the_babies_and_the_basics_has_a_rule_of_its_own():
    """The kinds read every card that does anything: each print of every card of a shipped deck but a Baby or a Basic
    has at least one kind of rule, and no Baby or Basic has one (a card whose text acts but gives the tracker nothing
    to do would otherwise go uncounted)."""
    plain = (CardType.BABY, CardType.BASIC)
    unread = [(p.deck, p.name) for p in shipped_places() if (p.card.type in plain) == bool(rule_kinds(p.card))]
    assert unread == []
