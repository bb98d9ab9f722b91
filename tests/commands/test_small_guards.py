"""The smaller robustness guards: a learnt card scanned again, a save whose setup is damaged said at start, an
import deck file that is not applied said, limits on a deck file's copies and texts, a game on an expansion alone,
escape characters from command-line arguments, and `say --to` a folder that does not exist."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from argparse import Namespace
from pathlib import Path

import pytest

from assistant.commands.app import make_session
from assistant.core.cards.cardfile import CardDataError, parse_deck
from assistant.core.words.errors import SETUP_DAMAGED, could_not_write, save_unusable
from assistant.core.words.learned import code_differs
from assistant.core.words.storage import expansion_alone, import_not_applied, import_unknown_base, import_wrong_kind
from assistant.storage.decks import load_card_set, take_notices
from assistant.storage.paths import imported_decks_dir
from assistant.storage.saves import GameStore

ROOT = Path(__file__).resolve().parents[2]
#: An import deck file's header, as `deck import` writes it.
HEAD = (
    '[deck]\nid = "mine"\ntitle = "Mine"\nedition = "2nd Edition"\ngame = "unstable-unicorns"\nkind = "import"\n'
    'vocabulary = "unicorn"\ncomplete = true\nbase = "uu-2nd"\n\n'
)


def test_a_learnt_card_scanned_again_in_other_words_says_they_differ_and_keeps_its_words(private_home):
    session = make_session(Namespace(deck="llamas", addon=[]))
    session.card_desk.scanned("Llama Llama Duck: Magic card. Every player gives one card from their hand to the left.")
    assert "is now in your deck" in session.handle("yes").speech
    again = session.card_desk.scanned("Llama Llama Duck: Magic card. Every player draws three cards.")
    assert again.lines[0] == code_differs("Llama Llama Duck", "Every player draws three cards.")
    assert "added" not in again.speech
    session.handle("y")  # a stray key replaces nothing
    card = session.cards.find_exact("Llama Llama Duck")
    assert card is not None and "gives one card" in card.text


def test_a_save_whose_setup_is_damaged_is_said_at_start(private_home):
    folder = private_home / "data" / "games"
    folder.mkdir(parents=True)
    save = folder / "game-20260101-000000-abcd.jsonl"
    save.write_bytes(b'{"format":"table-assist\n')
    session = make_session(Namespace(deck=None, addon=[]))
    first = session.offer_resume()
    assert first is not None and first.lines == (save_unusable(save.name, SETUP_DAMAGED),)
    assert GameStore(folder).last_path() == save  # kept as it is


def _write_import(name: str, kind: str, base: str) -> None:
    folder = imported_decks_dir()
    folder.mkdir(parents=True, exist_ok=True)
    kind_line = f'kind = "{kind}"\n' if kind else ""
    head = HEAD.replace('kind = "import"\n', kind_line).replace('base = "uu-2nd"', f'base = "{base}"')
    (folder / f"{name}.toml").write_text(
        head.replace("mine", name)
        + '[[cards]]\nid = "yay"\nname = "Yay"\ntype = "upgrade"\ncopies = 2\ntext = "Our own words."\n'
    )


@pytest.mark.parametrize(
    ("kind", "base", "reason"),
    [("base", "uu-2nd", import_wrong_kind("base")), ("import", "uu-3rd", import_unknown_base("uu-3rd"))],
)
def test_an_import_with_a_wrong_kind_or_base_is_said_not_silently_left_out(private_home, kind, base, reason):
    take_notices()
    _write_import("mine", kind, base)
    cards = load_card_set("uu-2nd")
    assert cards.find_exact("Yay").text != "Our own words."
    assert import_not_applied("mine.toml", reason) in take_notices()


DECK = HEAD + '[[cards]]\nid = "yay"\nname = "Yay"\ntype = "upgrade"\ncopies = {copies}\ntext = "{text}"\n'


def test_a_deck_file_with_a_billion_copies_is_refused_on_its_line():
    with pytest.raises(CardDataError, match="copies: 1000000000 is more than 99"):
        parse_deck(DECK.format(copies=1_000_000_000, text="Fine."), "mine.toml")
    assert parse_deck(DECK.format(copies=99, text="Fine."), "mine.toml").cards[0].copies == 99


def test_a_card_text_of_a_megabyte_is_refused_not_read_out():
    with pytest.raises(CardDataError, match="text: is longer than 2,000 characters"):
        parse_deck(DECK.format(copies=1, text="x" * 1_500_000), "mine.toml")


def test_a_game_on_an_expansion_alone_is_refused_with_how_to_play_it(private_home):
    session = make_session(Namespace(deck=None, addon=[]))
    reply = session.handle("new game Ana Ben deck uu-dragons")
    dragons = load_card_set("uu-2nd", ["uu-dragons"]).decks[1].info
    assert reply.lines == (expansion_alone("uu-dragons", dragons.title, "uu-2nd"),) and session.game is None
    assert session.handle("new game Ana Ben deck uu-2nd addon uu-dragons").lines[0].startswith("New game")


def _run(*args: str, home: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True, env=env, cwd=ROOT,
                          timeout=120)  # fmt: skip


def test_escape_characters_in_arguments_never_reach_the_terminal(tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("name,text,type\nYay,Our words.,Upgrade\n")
    evil = "x\x1b[2J\x1b]0;owned\x07\x9b31m"
    runs = [
        _run("deck", "import", str(sheet), "--deck", evil, home=tmp_path),
        _run("labels", "uu-2nd", "--braille", str(tmp_path / f"{evil}.txt"), home=tmp_path),
        _run("labels", "uu-2nd", "--out", str(tmp_path / f"{evil}.svg"), home=tmp_path),
        _run("say", "hi", "--to", str(tmp_path / "none" / f"{evil}.wav"), home=tmp_path),
    ]
    for done in runs:
        out = done.stdout + done.stderr
        assert out.strip() and b"Traceback" not in out
        assert b"\x1b" not in out and b"\x07" not in out and "\x9b".encode() not in out, out


def test_say_to_a_folder_that_does_not_exist_says_so_at_once(tmp_path):
    start = time.monotonic()  # only to show it does not wait for the speech engine; the limit is generous
    done = _run("say", "hi", "--to", "/nonexistent/x.wav", home=tmp_path)
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert done.stderr.decode().strip() == could_not_write("/nonexistent/x.wav", "No such file or directory")
    assert time.monotonic() - start < 30
