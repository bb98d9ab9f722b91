"""The whole Llamas Unleashed game of tests/fixtures/llamas_game.txt and what it must say, shared by the tests
that play it: in the plain mode and the app (tests/ui/test_llamas_game.py) and on a deck imported from the
owner's reference sheet (tests/adapters/test_llamas_sheet.py)."""

from __future__ import annotations

from pathlib import Path

from assistant.core.cards.card import CardType
from assistant.storage.decks import load_deck

GAME = Path(__file__).resolve().parent / "fixtures" / "llamas_game.txt"
PLAYERS = ["Ana", "Ben", "Cy", "Dee"]

#: What the game must say, whichever front end plays it: each counter's effect, the Herd Bonuses, the win.
SAID = [
    # Spit Happens, a taker: the stopped Basic Llama is a Llama, so Ana takes it
    "Ana's Spit Happens resolves and stops Ben's Basic Llama. It is a Llama, so Ana takes it into their hand; "
    "Spit Happens goes to the discard pile.",
    # Goatsundheit: both may draw
    "Goatsundheit lets Ben and Cy each draw a card.",
    # Surprise Emu Attack: a destroy in Dee's Field, and the Basic Ram still comes in
    "Cy's Surprise Emu Attack resolves: Cy destroys an Animal card in Dee's Field; say destroy and the card. "
    "Dee's Basic Ram still resolves.",
    "Cy destroyed Baby Ram in Dee's Field.",
    # Llama Stop You Right There stops Dee's Baaa'd Move!, an Instant: Ben may draw
    "Ben's Llama Stop You Right There resolves and stops Dee's Baaa'd Move!. Both go to the discard pile.",
    "Llama Stop You Right There stopped an Instant, so Ben may draw, as the card says.",
    # #Studlife brings a Baby of the pair's variation from the Nursery
    "Dee brought Baby Ram into Dee's Field from the Nursery.",
    "Ana wins with 7 Animals! The game is over.",
]
#: A Herd Bonus is said by what it does first, then why it may be used.
ALPACA_HERD = "Alpaca Herd Bonus: Your Alpacas cannot be destroyed. They can still be sacrificed."
#: After what the deck says the Alpaca Herd Bonus does (a deck made from a sheet says whose words they are first).
ALPACA_DOES = " It may be used with 3 or more Alpacas."
RAM_HERD = "Ram Herd Bonus: "  # Ben's Llamas, made Rams
GOAT_HERD = "Goat Herd Bonus: "
#: Ana's Field at the end: the Baby placed at the start, two Alpacas in one turn (Magical Alpacacorn), one from
#: the deck (Alluring Alpaca Flute), the Llama her Spit Happens took, Adorable Alpaca and Henry the Huarizo.
ANA_FIELD = ["baby-alpaca", "magical-alpacacorn", "basic-alpaca", "basic-alpaca", "basic-llama", "adorable-alpaca",
             "henry-the-huarizo"]  # fmt: skip
BEN_FIELD = ["baby-llama", "magical-llamacorn", "basic-llama", "legal-ramifications", "basic-ram"]


def game_lines() -> list[str]:
    """The game's commands, one event a line."""
    return [line for line in GAME.read_text(encoding="utf-8").splitlines() if line.strip()]


def true_deck_count() -> int:
    """The deck after the deal, from the deck files: the base game's 127 cards and the pack's 54, less the 12
    Babies in the Nursery and four hands of five."""
    base, pack = load_deck("llamas"), load_deck("llamas-farmed")
    babies = sum(card.copies for card in (*base.cards, *pack.cards) if card.type is CardType.BABY)
    assert (base.total_copies, pack.total_copies, babies) == (127, 54, 12)
    return 127 + 54 - 12 - 4 * 5


def assert_the_game_was_said(said: list[str], alpaca_does: str = ALPACA_DOES) -> None:
    """Every outcome line of the game, the Herd Bonuses (the Alpaca one with what it does, the Ram and Goat ones
    sending the players to their reference card), and never an empty deck nor a warning."""
    missing = [line for line in SAID if line not in said]
    assert missing == []
    assert ALPACA_HERD + alpaca_does in said
    for herd in (RAM_HERD, GOAT_HERD):
        offered = [line for line in said if line.startswith(herd)]
        assert offered and "back of your reference card" in offered[0], herd
    assert not any("deck is empty" in line.lower() for line in said)
    assert not any("Against the rules" in line for line in said), "the game is played by the rules"
