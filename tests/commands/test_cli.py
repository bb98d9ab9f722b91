"""The command line, run as a player would run it: a real subprocess."""

import json
import subprocess
import sys

import pytest


def test_card_json_names_the_card(cli):
    result = cli("card", "rainbow aura", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["query"] == "rainbow aura"
    assert data["match"]["id"] == "rainbow-aura"
    assert data["match"]["name"] == "Rainbow Aura"
    assert data["match"]["type"] == "upgrade"
    assert data["match"]["deck"] == "uu-2nd"
    assert data["match"]["text"]
    assert set(data["match"]) >= {"id", "name", "type", "deck", "copies", "text", "tags"}


def test_card_prints_name_type_and_text_ignoring_case_and_punctuation(cli):
    result = cli("card", "TWO", "for", "one!")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Two-For-One"
    assert lines[1] == "Type: Magic card"


def test_unknown_card_exits_1_with_the_closest_names(cli):
    result = cli("card", "zzzz")
    assert result.returncode == 1
    assert "No card called zzzz" in result.stdout
    result = cli("card", "rainbo aura", "--json")
    data = json.loads(result.stdout)
    assert result.returncode in (0, 1)
    names = [c["name"] for c in data["candidates"]]
    assert "Rainbow Aura" in names


def test_deck_list_and_show(cli):
    listing = json.loads(cli("deck", "list", "--json").stdout)
    ids = {deck["id"] for deck in listing}
    assert "uu-2nd" in ids
    shown = json.loads(cli("deck", "show", "uu-2nd", "--json").stdout)
    assert shown["unique_cards"] == 84 and shown["copies"] == 127
    assert len(shown["cards"]) == 84
    assert all({"id", "name", "type", "copies", "text", "tags"} <= set(c) for c in shown["cards"])
    spoken = cli("deck", "list")
    assert spoken.returncode == 0, spoken.stderr
    assert "uu-2nd: Unstable Unicorns, 2nd Edition base game: 84 cards, 127 copies." in spoken.stdout.splitlines()
    assert "llamas: Llamas Unleashed base game: 77 cards, 127 copies." in spoken.stdout.splitlines()
    farmed = "llamas-farmed: Llamas Unleashed: Farmed and Dangerous expansion: 35 cards, 54 copies."
    assert farmed in spoken.stdout.splitlines()
    shown = cli("deck", "show", "llamas")
    assert shown.returncode == 0 and shown.stdout.startswith("Llamas Unleashed base game: 77 cards")


def test_unknown_deck_is_a_message_not_a_traceback(cli):
    result = cli("deck", "show", "no-such-deck")
    assert result.returncode == 2
    assert "No deck called 'no-such-deck'" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_terminal_says_how_to_use_plain_mode(cli):
    result = cli()
    assert result.returncode == 0
    assert "table-assistant --plain" in result.stderr
    assert "Traceback" not in result.stderr


def test_damaged_card_file_reports_file_and_line(cli, tmp_path, monkeypatch):
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "uu-2nd.toml").write_text('[deck]\nid = "uu-2nd"\n[[cards]]\nid = "x"\ntype = "upgrad"\n')
    monkeypatch.setenv("TABLE_ASSISTANT_CARD_TEXTS", str(folder))
    result = cli("card", "x")
    assert result.returncode == 2
    assert f"{folder / 'uu-2nd.toml'}:5: x: type: 'upgrad' is not a card type" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("entry", [["table-assistant"], [sys.executable, "-m", "assistant"]])
def test_both_entry_points_answer_help(entry):
    import shutil

    if entry[0] == "table-assistant":
        found = shutil.which("table-assistant") or str(
            __import__("pathlib").Path(sys.executable).parent / "table-assistant"
        )
        entry = [found]
    result = subprocess.run([*entry, "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "card" in result.stdout
