"""The rules cases replayed as a player replays them: a script through `--script`, in a real subprocess, with its
own data folder, checked line by line against what the rulebooks and the cards say.

Rulebooks: 000 (current base game), 002 (first-edition era, 2-player variant), 004 (Llamas Unleashed).
"""

from __future__ import annotations

import pytest

CASES = [
    pytest.param(
        "uu-2nd",
        ["new game Ana Ben Cy", "draw", "play yay", "neigh Ben", "resolve"],
        # 000: Upgrade cards "are only active when they are in your Stable": Yay being played can be Neighed.
        ["Ben played Neigh.", "Ben's Neigh resolves: Ana's Yay is Neighed and goes to the discard pile."],
        id="1-yay-on-the-pile",
    ),
    pytest.param(
        "uu-2nd",
        ["new game Ana Ben Cy", "draw", "play magical kittencorn", "super neigh Ben", "neigh Ana", "yes", "resolve"],
        # Super Neigh: "A Super Neigh cannot be Neighed": the insisted Neigh has no effect.
        [
            "Super Neigh cannot be answered. Record anyway? Say yes or no.",
            "Ana's Neigh has no effect: Super Neigh cannot be Neighed. It goes to the discard pile, and Ben's "
            "Super Neigh still stands.",
        ],
        id="2-super-neigh",
    ),
    pytest.param(
        "uu-2nd",
        [
            "new game Ana Ben Cy",
            "bring double dutch into Ana",
            "draw",
            "end turn",
            "draw",
            "end turn",
            "draw",
            "end turn",
            "draw",
            "play basic red",
            "resolve",
            "play basic blue",
        ],
        # 000: "you can no longer trigger that effect this turn".
        [
            "Optional effects not used are lost for this turn: Double Dutch.",
            "Ana already played or drew. Record anyway? Ana has already played a card or drawn in this Action phase. "
            "Say yes or no.",
        ],
        id="3-double-dutch-let-go",
    ),
    pytest.param(
        "uu-2nd",
        ["new game Ana Ben Cy", "draw", "play basic red", "resolve", "draw"],
        # 000 "Action Phase": play a card OR draw a card.
        [
            "Ana already played or drew. Record anyway? Ana has already played a card or drawn in this Action phase. "
            "Say yes or no."
        ],
        id="4-second-action-draw",
    ),
    pytest.param(
        "uu-2nd",
        ["new game Ana Ben Cy", "draw", "play reset button", "resolve", "reshuffle"],
        # Reset Button: "and the discard pile is shuffled into the deck".
        ["The discard pile was shuffled into a new deck."],
        id="5-reset-button",
    ),
    pytest.param(
        "uu-2nd",
        ["new game Ana Ben two player rules uu-five"],
        # 002: the 2-player variant removes, among others, Tourist Trap, which is in no shipped deck.
        ["The rulebook also lists Tourist Trap, which is not in this deck."],
        id="6-tourist-trap",
    ),
    pytest.param(
        "llamas",
        ["new game Ana Ben Cy"],
        # 004: the Llamas deck names its Baby Animals, so one is offered as an example in the Field's words.
        [
            "Each player puts a Baby from the Nursery in their Field: say baby, a name and the Baby, for example baby "
            "Ana llama."
        ],
        id="7-llamas-babies",
    ),
    pytest.param(
        "uu-2nd",
        ["new game Ana Ben Cy", "draw", "play basic red", "neigh \x1b[2JBen"],
        ["Ben played Neigh."],
        id="7-escaped-name",
    ),
]


@pytest.mark.parametrize("deck, script, expected", CASES)
def test_a_rules_case_replayed_from_a_script(cli, tmp_path, deck, script, expected):
    path = tmp_path / "case.txt"
    path.write_text("\n".join(script) + "\n", encoding="utf-8")
    result = cli("--deck", deck, "--script", str(path), home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for line in expected:
        assert line in lines, result.stdout
    assert "for example baby Ana red" not in result.stdout if deck == "llamas" else "baby Ana red" in result.stdout
    assert "No player called" not in result.stdout and "Traceback" not in result.stderr
