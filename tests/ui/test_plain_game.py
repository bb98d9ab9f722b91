"""The game in the plain line mode, from a script, resumed, and as JSON: the command line run as a player would run
it, in real subprocesses."""

from __future__ import annotations

import io
import json

from assistant.core.words.screen import PLAIN_GREETING
from assistant.session import Session
from assistant.storage.decks import load_card_set
from assistant.storage.saves import GameStore
from assistant.ui.plain import run_plain

SCRIPT = """new game Ana Ben Cy babies red pink narwhal win 3
draw
play ginormous unicorn
neigh Ben
neigh Cy
resolve
resolve
tally
"""


def test_plain_mode_tracks_a_game_line_by_line(cli, tmp_path):
    result = cli("--plain", stdin=SCRIPT, home=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == [PLAIN_GREETING, "Deck: Unstable Unicorns, 2nd Edition base game."]
    assert "New game: Ana, Ben and Cy, clockwise. Rules: Unstable Unicorns, current base game rules." in lines
    assert "Cy's Neigh resolves and stops Ben's Neigh. Both go to the discard pile." in lines
    # the count Ginormous Unicorn made (it counts as two) is in the win, not said again after it
    won = lines.index("Ana wins with 3 Unicorns! The game is over.")
    assert lines[won + 1 :] == ["Unicorns: Ana 3, Ben 1, Cy 1. 3 to win."]  # the tally asked for
    assert "Traceback" not in result.stderr


def test_script_replays_a_game_echoing_each_command(cli, tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    result = cli("--script", str(script), home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "> play ginormous unicorn" in lines
    index = lines.index("> play ginormous unicorn")
    assert lines[index + 1] == "Ana played Ginormous Unicorn."
    assert "Ana wins with 3 Unicorns! The game is over." in lines


def test_script_that_cannot_be_read_is_a_message(cli, tmp_path):
    result = cli("--script", str(tmp_path / "missing.txt"), home=tmp_path)
    assert result.returncode == 2
    assert "Cannot read the script" in result.stderr and "Traceback" not in result.stderr


def test_resume_continues_the_last_game_and_state_json_prints_it(cli, tmp_path):
    first = cli("--plain", stdin="\n".join(SCRIPT.splitlines()[:4]) + "\n", home=tmp_path)
    assert first.returncode == 0, first.stderr
    second = cli("--plain", "--resume", stdin="neigh Cy\nresolve\nresolve\n", home=tmp_path)
    assert second.returncode == 0, second.stderr
    lines = second.stdout.splitlines()
    assert lines[2].startswith("Continuing the game of Ana, Ben and Cy, 3 events.")
    assert "Ana wins with 3 Unicorns! The game is over." in lines
    state = cli("state", "--json", home=tmp_path)
    assert state.returncode == 0, state.stderr
    data = json.loads(state.stdout)
    assert data["setup"]["players"] == ["Ana", "Ben", "Cy"]
    assert data["rules"]["id"] == "uu-current"
    assert data["state"]["outcome"] == {"ending": "goal", "winner": 0, "tied": []}
    assert data["tally"] == [3, 1, 1]
    assert [e["e"] for e in data["events"]] == ["draw", "play", "respond", "respond", "resolve", "resolve"]
    assert data["state"]["players"][0]["stable"] == ["baby-unicorn-red", "ginormous-unicorn"]
    text = cli("state", home=tmp_path)
    assert "Ana's Stable: Baby Unicorn (Red) and Ginormous Unicorn. 3 Unicorns." in text.stdout.splitlines()


def test_state_without_a_saved_game(cli, tmp_path):
    result = cli("state", "--json", home=tmp_path)
    assert result.returncode == 1
    assert "There is no saved game to continue." in result.stderr


def test_run_plain_in_process_shows_a_resumed_game_first(tmp_path):
    cards = load_card_set("uu-2nd")
    store = GameStore(tmp_path)
    Session(cards, store=store).handle("new game Ana Ben")
    session = Session(cards, store=store)
    out = io.StringIO()
    run_plain(session, ["turn\n", "quit\n", "tally\n"], out, first=session.resume_game())
    lines = out.getvalue().splitlines()
    assert lines[0] == PLAIN_GREETING
    assert lines[2].startswith("Continuing the game of Ana and Ben, 0 events.")
    assert lines[3].startswith("Turn 1, Ana's Beginning of turn phase.")
    assert len(lines) == 4, "quit stops the loop"


def test_the_plain_modes_help_is_about_the_plain_mode(cli):
    """The plain mode has no F1, Control Q, Escape, F2 or one-key answers: its help names the lines to type."""
    result = cli("--plain", stdin="help\nhelp keys\nhelp turn\nnew game Ana Ben\ndraw\nplay yay\nhelp neigh\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Help: type help. quit ends the plain mode." in out
    assert "with no Neigh, say resolve." in out
    for key in ("F1", "F2", "Control Q", "Escape", "0 for no", "press 0", "or 0"):
        assert key not in out, key
