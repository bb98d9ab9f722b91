"""`table-assistant card` and the plain mode with abbreviations, typos and braille cells, run as a player would."""

import io
import json
from argparse import Namespace

from assistant.commands.app import make_session
from assistant.core.words.cardtext import NO_CHOICE_PENDING
from assistant.core.words.entry import NO_LETTERS, NOTHING_TYPED, query_too_long
from assistant.ui.plain import run_plain


def test_card_accepts_an_abbreviation_with_a_typo(cli):
    result = cli("card", "ug", "rainbw", "aura")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == ["Rainbow Aura", "Type: Upgrade card"]


def test_card_accepts_contracted_braille_and_json_gives_match_abbreviation_and_scores(cli):
    result = cli("card", "⠥⠛⠀⠗⠁⠔⠃⠪⠀⠁⠥⠗⠁", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["match"]["id"] == "rainbow-aura"
    assert data["abbreviation"] == "ug rainbow aura"
    assert data["candidates"] == [{"id": "rainbow-aura", "name": "Rainbow Aura", "type": "upgrade", "score": 100.0}]


def test_card_json_lists_ranked_candidates_when_unsure(cli):
    result = cli("card", "ug", "rainbow", "--json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["match"] is None and data["abbreviation"] is None
    assert [c["id"] for c in data["candidates"]][:2] == ["rainbow-aura", "rainbow-lasso"]
    scores = [c["score"] for c in data["candidates"]]
    assert scores == sorted(scores, reverse=True)


def test_card_bad_input_is_a_message_and_exit_1(cli):
    for query, sentence in (("", NOTHING_TYPED), ("\x01\x02", NO_LETTERS),
                            ("y" * 10_000, query_too_long(10_000))):  # fmt: skip
        result = cli("card", query)
        assert result.returncode == 1
        assert result.stdout.strip() == sentence
        assert "Traceback" not in result.stderr


def test_plain_mode_resolves_braille_and_picks_a_numbered_candidate():
    session = make_session(Namespace(deck=None, addon=[]))
    stdin = io.StringIO("⠗⠁⠔⠃⠪\n3\nm rainbow\n⠭⠟⠵⠭\n5\nquit\n")
    stdout = io.StringIO()
    spoken = []
    assert run_plain(session, stdin, stdout, speak=spoken.append) == 0
    said = [reply.speech for reply in spoken[1:]]  # after the greeting, which is said too
    spoken = spoken[1:]
    assert said[0].startswith("4 matches for that braille: ")  # contracted cells have no uncontracted reading
    assert "Type a number to choose." in said[0]
    third = said[0].split(": ", 1)[1].split(", ")[2].split(" ", 1)[1].rstrip(".")
    assert spoken[1].card.name == third
    assert spoken[2].card.id == "rainbow-unicorn"
    assert said[3].startswith("No card called xqzx, typed in braille, and nothing close.")
    assert said[4] == NO_CHOICE_PENDING
    assert "Rainbow Unicorn" in stdout.getvalue()


def test_the_plain_command_line_takes_typos_braille_and_braille_numbers(cli):
    result = cli("--plain", stdin="ug rainbw aura\nug rainbow\n⠼⠃\n\x00\x01\nquit\n")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert lines[2] == "Rainbow Aura"
    choices = next(line for line in lines if line.startswith("4 matches for ug rainbow:"))
    assert "1 Rainbow Aura, 2 Rainbow Lasso" in choices
    assert lines[lines.index(choices) + 1] == "Rainbow Lasso"
    assert lines[-1] == NO_LETTERS
