"""Llamas Unleashed numbers the card tags do not give, from the rules data (assistant/core/game/rules.toml): the
hand limit changes of Prehistoric Llamadon and Fannypaca, and Llamanator making every Animal in its Field a Llama."""

from __future__ import annotations

from assistant.core.game.rules import load_rules
from assistant.core.game.tally import hand_limit, herd
from assistant.storage.decks import load_card_set

CARDS = load_card_set("llamas", ["llamas-farmed"])
RULES = load_rules()


def test_prehistoric_llamadon_lowers_its_owners_hand_limit_by_five():
    stables = (("prehistoric-llamadon",), ())
    assert hand_limit(0, stables, CARDS, RULES, 7).limit == 2
    assert hand_limit(1, stables, CARDS, RULES, 7).limit == 7, "only its owner's limit"
    assert hand_limit(0, stables, CARDS, RULES, 7).unknown == ()


def test_fannypaca_raises_its_owners_hand_limit_by_two():
    stables = (("fannypaca",), ("fannypaca", "prehistoric-llamadon"))
    assert hand_limit(0, stables, CARDS, RULES, 7).limit == 9
    assert hand_limit(1, stables, CARDS, RULES, 7).limit == 4


def test_llamanator_makes_every_animal_in_its_field_a_llama():
    field = ("llamanator", "basic-goat", "basic-ram", "baby-alpaca", "fannypaca")
    assert herd(field, CARDS, RULES) == {"llama": 4}
    assert herd(("basic-goat", "basic-ram"), CARDS, RULES) == {"goat": 1, "ram": 1}
