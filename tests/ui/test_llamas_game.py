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

from fake_speaker import Heard
from llamas_game import (
    ANA_FIELD,
    BEN_FIELD,
    GAME,
    PLAYERS,
    assert_the_game_was_said,
    game_lines,
    true_deck_count,
)


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
        app = make_app(Heard(spoken.append), "--no-camera", "--no-speech")
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
    # Ben's second answer keeps its number, 7, though Surprise Emu Attack is not offered against an Instant: an
    # Instant's number stays the same all game
    assert [k for k in keys if k != "0"] == ["14", "26", "35", "42", "27"], "two keys for each answer"
    assert keys.count("0") == 16, "0 resolves each card waiting on the pile"
