"""A chain link said at the brief level keeps every option and every step the normal level says (issue 103): "Choose
one: destroy an Upgrade, or sacrifice a Downgrade", never "Choose one: destroy an Upgrade." alone; Spitting Fire!
with its "then". Shorter, never only the first.

Over every print of every shipped card and each kind of link it makes (`tests/core/test_rules_seven.py`'s
`every_print`, `trigger_kinds`), on the words alone: the brief duty (`duty_short`) against the normal level's gist
of the same link (`card_gist`, which the normal level says after "which does this:").
"""

from __future__ import annotations

import re

import pytest

from assistant.core.game.chain import TriggerKind
from assistant.core.words.cardtext import LEAVING, card_gist, duty_short
from tests.core.test_rules_seven import SHIPPED, every_print, trigger_kinds

#: Where a choice's next option begins, and a step done after the one before it.
OPTION = re.compile(r"[;,] or\b")
STEP = re.compile(r"\bthen\b", re.IGNORECASE)


def _marks(text: str) -> tuple[int, int]:
    """The options and the steps a link's words say (an opening "Then" of an Instant's effect is no step)."""
    text = re.sub(r"^then ", "", text.strip(), flags=re.IGNORECASE)
    return len(OPTION.findall(text)), len(STEP.findall(text))


def shortened(deck_id: str) -> list[tuple[str, str, str, str]]:
    """Each print and link kind whose brief duty says fewer options or steps than the normal level's words."""
    wrong = []
    for card in every_print(deck_id):
        for kind in trigger_kinds(card):
            about = {TriggerKind.ENTER: "enters", TriggerKind.LEAVE: LEAVING}.get(kind, "")
            normal = card_gist(card, "beginning of your turn" if kind is TriggerKind.BEGIN else about)
            brief = duty_short(normal)
            options, steps = _marks(normal)
            said_options, said_steps = _marks(brief)
            if said_options < options or said_steps < steps:
                wrong.append((card.id, kind.value, normal, brief))
    return wrong


@pytest.mark.parametrize("deck_id", SHIPPED)
def test_the_brief_link_says_every_option_and_step_of_the_normal_one(deck_id):
    assert shortened(deck_id) == []


@pytest.mark.parametrize(
    ("gist", "brief"),
    [
        (
            "Choose one: destroy an Upgrade card in another player's Stable, or sacrifice a Downgrade card in your "
            "Stable",
            "Choose one: destroy an Upgrade, or sacrifice a Downgrade.",
        ),
        (
            "Discard a card, then either sacrifice a card or destroy a card",
            "Discard a card, then either sacrifice a card or destroy a card.",
        ),
        (
            "Choose one: sacrifice a card in your Stable, then destroy a card in another player's Stable; or put a "
            "card from the discard pile straight into your Stable",
            "Choose one: sacrifice a card, then destroy a card; or put a card from the discard pile straight into "
            "your Stable.",
        ),
        (
            "you may name any player, who must then discard 2 cards",
            "May name any player, who must then discard 2 cards.",
        ),
        ("Destroy a Unicorn card in another player's Stable", "Destroy a Unicorn."),
        (
            "Look through the deck, take out an Alpaca card and bring it straight into your Field, then shuffle the "
            "deck",
            "Look through the deck, take out an Alpaca, then shuffle.",
        ),
    ],
)
def test_every_option_is_said_shorter(gist, brief):
    said = duty_short(gist)
    assert said == brief
    assert len(said.rstrip(".")) <= len(gist), "never longer than the normal level's words"
