"""A whole Llamas Unleashed game, as its owner plays it: four players, from the new game line to the win, in the
plain mode from a script and in the app with the one-key answers. The game (tests/fixtures/llamas_game.txt, one
event a line, a blank line between turns) places the Babies from the Nursery, plays cards by the braille labels
read off them (m, b, i, action, ug, dg), answers with counters of each kind (Spit Happens takes the Llama it
stops, Goatsundheit lets both draw, Llama Stop You Right There stops an Instant and lets its player draw, Surprise
Emu Attack destroys an Animal while the played card still comes in), hears the Alpaca, Ram (Legal Ramifications)
and Goat Herd Bonuses, uses #Studlife, and ends when Ana's seventh Animal comes in."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from assistant.core.cards.card import CardType
from assistant.storage.decks import load_deck

GAME = Path(__file__).resolve().parents[1] / "fixtures" / "llamas_game.txt"
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
    "Basic Ram is played: it enters Dee's Field.",
    "Cy destroyed Baby Ram in Dee's Field.",
    # Llama Stop You Right There stops Dee's Baaa'd Move!, an Instant: Ben may draw
    "Ben's Llama Stop You Right There resolves and stops Dee's Baaa'd Move!. Both go to the discard pile.",
    "Llama Stop You Right There stopped an Instant, so Ben may draw, as the card says.",
    # #Studlife brings a Baby of the pair's variation from the Nursery
    "Dee brought Baby Ram into Dee's Field from the Nursery.",
    "Ana wins with 7 Animals! The game is over.",
]
ALPACA_HERD = (
    "Herd Bonus: 3 or more Alpacas, so the Alpaca Herd Bonus may be used. It does this: Your Alpacas cannot be "
    "destroyed. They can still be sacrificed."
)
RAM_HERD = "Herd Bonus: 3 or more Rams, so the Ram Herd Bonus may be used."  # Ben's Llamas, made Rams
GOAT_HERD = "Herd Bonus: 3 or more Goats, so the Goat Herd Bonus may be used. Not known from any public source."
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


def assert_the_game_was_said(said: list[str]) -> None:
    """Every outcome line of the game, the Herd Bonuses, and never an empty deck."""
    missing = [line for line in SAID if line not in said]
    assert missing == []
    assert ALPACA_HERD in said
    ram = [line for line in said if line.startswith(RAM_HERD)]
    assert ram and "Read the exact bonus on the back of your reference card." in ram[0]
    assert any(line.startswith(GOAT_HERD) for line in said)
    assert not any("deck is empty" in line.lower() for line in said)
    assert not any("looks against the rules" in line for line in said), "the game is played by the rules"


def test_a_whole_llamas_game_from_a_script_in_the_plain_mode(cli, tmp_path):
    home = tmp_path / "home"
    result = cli("--script", str(GAME), "--no-speech", home=home)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "Deck: Unstable Unicorns, 2nd Edition base game.", "Llamas is chosen on the new game line"
    start = lines.index("> " + game_lines()[0])
    assert lines[start + 1 : start + 5] == [
        "New game: Ana, Ben, Cy and Dee, clockwise. Rules: Llamas Unleashed rules.",
        f"7 Animals to win. The deck holds about {true_deck_count()} cards after the deal.",
        "In the Fields: Ana has Baby Alpaca, Ben has Baby Llama, Cy has Baby Goat and Dee has Baby Ram.",
        "Turn 1: Ana goes first.",
    ]
    nursery = "The Nursery: 2 copies of Baby Llama, 2 copies of Baby Alpaca, 2 copies of Baby Goat and 2 copies of"
    assert lines[lines.index("> nursery") + 1].startswith(nursery)
    # a card looked up by its label, then played as the card just read
    assert lines[lines.index("> m alpacacorn") + 1] == "Magical Alpacacorn"
    assert lines[lines.index("> play") + 1] == "Ana played Magical Alpacacorn."
    assert_the_game_was_said(lines)
    assert lines[-4:] == [
        "> tally",
        "Animals: Ana 7, Ben 4, Cy 3, Dee 3. 7 to win.",
        "> deck",
        "The deck holds about 124 cards; when it runs out, the most Animals wins.",
    ]
    assert "Traceback" not in result.stderr

    state = cli("state", "--json", home=home)
    assert state.returncode == 0, state.stderr
    data = json.loads(state.stdout)
    assert (data["setup"]["base"], data["setup"]["addons"]) == ("llamas", ["llamas-farmed"])
    assert data["state"]["outcome"] == {"ending": "goal", "winner": 0, "tied": []}
    assert data["tally"] == [7, 4, 3, 3]
    fields = [player["stable"] for player in data["state"]["players"]]
    assert fields[0] == ANA_FIELD and fields[1] == BEN_FIELD
    assert fields[2] == ["baby-goat", "magical-goaticorn", "basic-goat"]
    assert fields[3] == ["basic-ram", "basic-ram", "studlife", "baby-ram"]
    assert sorted(data["state"]["nursery"]) == sorted(["baby-llama", "baby-alpaca", "baby-goat", "baby-ram"] * 2)
    taken = sum(e.get("count", 1) for e in data["events"] if e["e"] == "draw")
    taken += sum(1 for e in data["events"] if e.get("source") == "deck")  # the Alpaca the Flute brought in
    assert data["state"]["deck"] == true_deck_count() - taken == 124, "each draw and each card taken counted"


#: The game's answers given with the one-key answers of the app: the line, then who answers with which Instant.
ONE_KEY = {
    "Ana plays i spit happens": ("Ana", "Spit Happens"),
    "neigh Ben": ("Ben", "Goatsundheit"),  # the script answers the question with its number on the next line
    "Cy plays i emu attack": ("Cy", "Surprise Emu Attack"),
    "Dee plays i baaad move": ("Dee", "Baaa'd Move!"),
    "Ben plays i llama stop": ("Ben", "Llama Stop You Right There"),
}


def test_the_same_game_in_the_app_with_the_one_key_answers(make_app):
    """The app as `table-assistant --no-camera` opens it: each line entered, each counter two keys (the player's
    number, then the Instant's number as the question reads it), and 0 to resolve a card waiting on the pile."""
    spoken = []
    keys = []

    async def scenario():
        app = make_app(spoken.append, "--no-camera", "--no-speech")
        async with app.run_test(size=(110, 40)) as pilot:
            lines = iter(game_lines())
            for line in lines:
                session = app.session
                if line in ONE_KEY:
                    player, instant = ONE_KEY[line]
                    seat = str(PLAYERS.index(player) + 1)
                    await pilot.press(seat)
                    await pilot.pause()
                    question = spoken[-1].speech
                    assert question.startswith(f"Which Instant does {player} play?")
                    number = question.split(f" {instant}")[0].rsplit(" ", 1)[-1]
                    await pilot.press(number)
                    keys.append(seat + number)
                    if line == "neigh Ben":
                        next(lines)  # the number the script types
                elif line == "resolve" and session.game is not None and session.game.state.pile:
                    await pilot.press("0")
                    keys.append("0")
                else:  # the line put in the input line whole, then Enter: key by key, 150 lines take a minute
                    app.query_one("#prompt").value = line
                    await pilot.press("enter")
            game = app.session.game
            assert game.state.outcome is not None and game.state.outcome.winner == 0
            assert [list(stable) for stable in game.state.stables][:2] == [ANA_FIELD, BEN_FIELD]

    asyncio.run(scenario())
    said = [line for reply in spoken for line in reply.lines]
    assert_the_game_was_said(said)
    # Ben's second answer is 6 of 6: Surprise Emu Attack is not offered against an Instant
    assert [k for k in keys if k != "0"] == ["14", "26", "35", "42", "26"], "two keys for each answer"
    assert keys.count("0") == 16, "0 resolves each card waiting on the pile"
