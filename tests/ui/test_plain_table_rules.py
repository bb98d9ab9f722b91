"""The rules a table meets every game, replayed as a player types them in the plain mode (`--plain`, a real
subprocess with its own data folder), each citing the card or the rulebook line it follows.

Rulebook 000 (current base game): "Effects in the chain must resolve" before play goes on; a card's own text is
never against the rules.
"""

from __future__ import annotations

import pytest

CASES = [
    pytest.param(
        "uu-nsfw",
        [
            "new game Ana Ben",
            "draw",
            "play unicorn dungeon",
            "resolve",
            "play wasted white unicorn",
        ],
        # Unicorn Dungeon: "if this card is in your Stable at the beginning of your turn, you may play 2 cards": on
        # the turn it arrives, a second card is still the turn's second play.
        [
            "Ana already played or drew. Record anyway? Ana has already played a card or drawn in this Action phase. "
            "Say yes or no."
        ],
        [],
        id="1-extra-play-not-on-the-turn-it-arrives",
    ),
    pytest.param(
        "uu-nsfw",
        [
            "new game Ana Ben",
            "draw",
            "play unicorn dungeon",
            "resolve",
            "end turn",
            "draw",
            "end turn",
            "resolve",
            "draw",
            "play wasted white unicorn",
            "resolve",
            "play horse with a dildo",
        ],
        # ... and from the next turn that finds it in the Stable, a second card is allowed.
        ["Ana played Horse With A Dildo."],
        ["Ana has already played a card or drawn in this Action phase"],
        id="1-extra-play-from-the-next-turn",
    ),
    pytest.param(
        "uu-2nd",
        [
            "new game Ana Ben babies red pink hands",
            "draw",
            "play change of luck",
            "resolve",
            "resolve",
            "play basic red",
        ],
        # Change of Luck: "take another turn" is another turn, not another play.
        [
            "Ana already played or drew. Record anyway? Ana has already played a card or drawn in this Action phase. "
            "Say yes or no."
        ],
        [],
        id="1-another-turn-is-not-another-play",
    ),
    pytest.param(
        "uu-2nd",
        [
            "new game Ana Ben babies red pink hands",
            "deck 2",
            "draw",
            "play shake up",
            "resolve",
            "reshuffle",
            "shuffle hand into deck",
            "draw 5",
            "hands",
            "deck",
        ],
        # Shake Up: this card, every card in your hand and the whole discard pile go back into the deck; draw 5.
        ["5 cards went back into the deck, which now has 7.", "Cards in hand: Ana 5, Ben 5."],
        ["The deck ran out", "Ben wins", "Against the rules"],
        id="2-shake-up-hand-into-the-deck",
    ),
    pytest.param(
        "uu-2nd",
        [
            "new game Ana Ben babies red pink",
            "draw",
            "play barbed wire into Ben",
            "resolve",
            "end turn",
            "draw",
            "play basic red",
            "resolve",
            "chain",
        ],
        # Barbed Wire: a Unicorn card coming into or going out of its Stable costs its owner a discard.
        ["1: Barbed Wire in Ben's Stable."],
        [],
        id="3-barbed-wire-duty-joins-the-chain",
    ),
    pytest.param(
        "llamas",
        ["new game Ana Ben", "bring llamaste into Ben", "draw", "play basic llama", "resolve", "chain"],
        # Llamaste: each time any player, you included, plays a Llama Animal card, you may draw a card; the duty
        # is said with its whole condition.
        [
            "Effect chain: Llamaste in Ben's Field, which does this: Each time any player, you included, plays a Llama "
            "Animal card, you may draw a card.",
            "1: Llamaste in Ben's Field.",
        ],
        [],
        id="3-llamaste-duty-in-a-llamas-game",
    ),
    pytest.param(
        "uu-2nd",
        [
            "new game Ana Ben addon uu-dragons babies red pink",
            "draw",
            "play dragon kiss",
            "resolve",
            "play unicorn poison from deck",
        ],
        # Dragon Kiss: look through the deck for a Magic card and play it at once.
        ["Ana played Unicorn Poison from the deck."],
        ["Against the rules", "Baby red could be"],
        id="4-dragon-kiss-plays-a-card-unwarned",
    ),
    pytest.param(
        "uu-2nd",
        ["new game Ana Ben addon uu-dragons", "baby Ana red", "baby Ben dragoncorn pink", "stable"],
        # 000 "HOW TO START": each player puts a Baby Unicorn into their Stable. With the Dragons added, "red" is the
        # base deck's Baby Unicorn (Red); the Dragoncorn is named as such.
        ["Ana's Stable: Baby Unicorn (Red). 1 Unicorn.", "Ben's Stable: Baby Dragoncorn (Pink). 1 Unicorn."],
        ["Which card is"],
        id="5-a-baby-with-an-add-on",
    ),
    pytest.param(
        "uu-2nd",
        [
            "new game Ana Ben Cy babies red pink narwhal addon uu-adventures",
            "bring basic red into Ben",
            "draw",
            "play unicorn poison",
            "resolve",
            "Ben play unicorn net",
            "resolve",
            "destroy basic red",
        ],
        # Unicorn Net: when a card is about to be destroyed, that card comes to your hand, not the discard pile.
        [
            "Ben played Unicorn Net.",
            "Unicorn Net: Basic Unicorn (Red) goes to Ben's hand, not the discard pile.",
        ],
        ["Against the rules"],
        id="5-unicorn-net-answers-the-effect",
    ),
    pytest.param(
        "uu-2nd",
        [
            "new game Ana Ben Cy babies red pink narwhal addon uu-adventures",
            "draw",
            "end turn",
            "Cy play flare gun",
            "resolve",
            "resolve",
            "turn",
        ],
        # Flare Gun: when another player's turn begins, they skip the Beginning of Turn and Draw phases.
        ["Flare Gun: Ben skips the Beginning of Turn phase and the Draw phase, and the Action phase begins."],
        ["Against the rules"],
        id="5-flare-gun-answers-the-start-of-a-turn",
    ),
    pytest.param(
        "uu-2nd",
        [
            "new game Ana Ben Cy babies red pink narwhal addon uu-adventures",
            "bring basic red into Cy",
            "draw",
            "play seductive unicorn",
            "resolve",
            "Ben play fishing rod",
            "resolve",
            "Ben steal basic red from Cy",
            "stable Ben",
        ],
        # Fishing Rod: played when another player tries to steal; the card moves into your Stable instead. Its
        # effect is said once it resolved, first in the chain, and the catch is Ben's own steal.
        [
            "Fishing Rod is played and goes to the discard pile.",
            "Ben stole Basic Unicorn (Red) from Cy's Stable.",
            "Ben's Stable: Baby Unicorn (Pink) and Basic Unicorn (Red). 2 Unicorns.",
        ],
        ["Against the rules"],
        id="5-fishing-rod-answers-a-steal",
    ),
    pytest.param(
        "uu-2nd",
        ["new game Ana Ben babies red pink addon uu-nsfw-expansion", "draw", "play basic red", "Ben play hell neigh"],
        # Hell Neigh! (NSFW expansion): its own mark ends the sentence, never "Hell Neigh!.".
        ["Ben played Hell Neigh!", "Neigh?"],
        ["Hell Neigh!.", "Hell Neigh!?"],
        id="6-a-name-with-its-own-mark",
    ),
    pytest.param(
        "uu-nsfw",
        ["new game Ana Ben", "draw", "play unicorn dungeon"],
        # The NSFW Neigh card is The Safeword Is Neigh: the question asks for a Neigh.
        ["Ana played Unicorn Dungeon.", "Neigh?"],
        ["Any The Safeword Is Neigh"],
        id="6-the-neigh-question",
    ),
    pytest.param(
        "llamas",
        [
            "new game Ana Ben",
            "bring basic alpaca into Ana",
            "resolve",
            "bring adorable alpaca into Ana",
            "resolve",
            "bring alpacacopter into Ana",
            "resolve",
            "resolve",
            "draw",
            "end turn",
            "draw",
            "end turn",
            "draw",
            "end turn",
            "draw",
            "end turn",
            "resolve",
        ],
        # 004: the Alpaca Herd Bonus ("Your Alpacas cannot be destroyed") is passive: never "lost for this turn",
        # and its resolution starts with a capital.
        ["The Alpaca Herd Bonus resolved."],
        ["lost for this turn", "the Alpaca Herd Bonus resolved."],
        id="6-a-passive-herd-bonus",
    ),
]


#: Card texts as the plain mode reads them: the card and its other print.
TEXTS = [
    pytest.param(
        "uu-1st",
        ["card unicorn phoenix", "card unicorn phoenix, other print", "card double dutch"],
        # The 1st Edition Unicorn Phoenix follows the first print (destroyed with no card to discard); the second
        # print is its other print; Double Dutch opens with the standard opening.
        [
            "When this card enters your Stable, you must discard a card. Each time it is sacrificed or destroyed, it "
            "comes straight back into your Stable. Should you have no card to discard, this card is destroyed.",
            "Another print of this card differs: say other print after its name to hear it.",
            "If this card is in your Stable at the beginning of your turn, you may play 2 cards this turn instead "
            "of 1.",
        ],
        ["No card called"],
        id="7-phoenix-first-print-and-the-standard-opening",
    ),
    pytest.param(
        "uu-2nd",
        ["card annoying flying unicorn"],
        # The 2nd Edition Annoying Flying Unicorn: any player, not only another.
        [
            "When this card enters your Stable, you may pick any player, and that player must discard a card. Should "
            "this card be sacrificed or destroyed, it goes back to your hand."
        ],
        ["another player"],
        id="7-annoying-flying-unicorn-any-player",
    ),
    pytest.param(
        "uu-2nd",
        ["card stabby the unicorn", "card slowdown"],
        # Our own words (docs/card-text-format.md): Stabby the Unicorn and Slowdown said freshly, their defined terms
        # (sacrificed, destroyed, destroy, "you cannot play Neigh cards") kept; tests/core/test_own_words.py measures.
        [
            "Should this card be sacrificed or destroyed, you may destroy one Unicorn card in another player's Stable.",
            "You cannot play Neigh cards for as long as this card sits in your Stable.",
        ],
        ["No card called"],
        id="8-own-words",
    ),
]


def replay(cli, home, deck: str, script: list[str], expected: list[str], absent: list[str]):
    """Replay the lines in the plain mode: each expected line is said whole, no absent words anywhere."""
    result = cli("--plain", "--no-speech", "--deck", deck, stdin="\n".join(script) + "\n", home=home)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for line in expected:
        assert line in lines, result.stdout
    for words in absent:
        assert words not in result.stdout, result.stdout
    return result


@pytest.mark.parametrize("deck, script, expected, absent", TEXTS)
def test_a_card_text_read_in_the_plain_mode(cli, tmp_path, deck, script, expected, absent):
    replay(cli, tmp_path / "home", deck, script, expected, absent)


@pytest.mark.parametrize("deck, script, expected, absent", CASES)
def test_a_table_rule_replayed_in_the_plain_mode(cli, tmp_path, deck, script, expected, absent):
    result = replay(cli, tmp_path / "home", deck, script, expected, absent)
    assert "No game is being tracked" not in result.stdout and "Traceback" not in result.stderr
