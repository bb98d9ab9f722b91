"""No input ends a session, no escape reaches the terminal, no damaged file blocks the app.

Arbitrary text and command sequences into `Session.handle`, random bytes into `--plain`, and one test per defect
found by feeding the app hostile input: undecodable bytes, format and bidi characters, deep nesting in every
file the app reads, huge numbers and unclosed quotes in a reference sheet, a damaged or misnamed import.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.core.cards.sheet import MAX_ROWS, parse_sheet
from assistant.core.datatext import MAX_DEPTH, DataTextError, load_json, load_toml, nesting_depth, toml_string
from assistant.core.text import clean_untrusted
from assistant.session import Session
from assistant.storage.decks import load_card_set, take_notices

CARDS = load_card_set("uu-2nd")
#: What must never reach a terminal or a speech engine: C0 and C1 controls, bidi and other format characters
#: (U+FEFF, zero-width marks, tags), line and paragraph separators, lone surrogates.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
COMMANDS = [
    "new game Ana Ben Cy babies red pink orange", "draw", "play basic blue", "play yay", "neigh Ben", "resolve",
    "super neigh Cy", "end turn", "undo", "undo 3", "redo", "redo all", "undo all", "yes", "no", "1", "2",
    "stable", "tally", "hand Ana 9", "discard 2", "next", "destroy basic blue", "steal yay from Ana", "history",
    "repeat", "verbosity", "help", "chain", "pile", "log", "rules", "turn", "hands",
]  # fmt: skip


def _safe(text: str) -> bool:
    return not any(unicodedata.category(char) in UNSAFE_CATEGORIES for char in text)


@pytest.mark.parametrize(
    "hostile",
    ["\x1b]52;c;aGVsbG8=\x07", "\x1b[2J", "\x9b31m", "\u202eevil", "\ufeffname", "a\u2028b", "\udcff", "\x00\x07"],
)
def test_cleaning_leaves_nothing_a_terminal_or_speech_engine_would_act_on(hostile):
    cleaned = clean_untrusted(f"Ana {hostile} Ben")
    assert _safe(cleaned) and "\x1b" not in cleaned
    assert cleaned.startswith("Ana") and cleaned.endswith("Ben")


def _check_reply(session: Session, line: str) -> None:
    reply = session.handle(line)
    assert all(_safe(text) for text in (*reply.lines, reply.speech)), (line, reply)
    if session.game is not None:
        json.dumps(session.game.to_dict())  # the state is always readable and writable


#: Any text: all of Unicode, with controls, format characters, separators and lone surrogates drawn often.
ANY_TEXT = st.text(st.one_of(st.characters(), st.characters(categories=["Cc", "Cf", "Cs", "Zl", "Zp"])), max_size=300)
#: A long line: a short text repeated to thousands of characters.
LONG_LINE = st.builds(lambda text, times: text * times, st.text(min_size=1, max_size=12), st.integers(100, 4000))
#: A command with anything after it (a mutated command line).
MUTATED = st.builds(lambda command, rest: f"{command} {rest}", st.sampled_from(COMMANDS), ANY_TEXT)
#: Bytes that are not UTF-8, as Python reads them from stdin (surrogate escapes).
UNDECODABLE = st.binary(max_size=200).map(lambda raw: raw.decode("utf-8", "surrogateescape"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(ANY_TEXT, LONG_LINE, MUTATED, UNDECODABLE, st.sampled_from(COMMANDS)), max_size=25))
def test_any_text_and_any_command_sequence_gets_a_reply_and_nothing_unsafe(lines):
    session = Session(CARDS)
    for line in lines:
        _check_reply(session, line)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(COMMANDS), min_size=5, max_size=60))
def test_any_sequence_of_valid_commands_is_saved_and_read_back_the_same(lines):
    from assistant.storage.saves import GameStore

    with tempfile.TemporaryDirectory() as folder:
        session = Session(CARDS, store=GameStore(Path(folder)))
        for line in ["new game Ana Ben Cy babies red pink orange", *lines]:
            _check_reply(session, line)
        assert session.game is not None
        fresh = Session(CARDS, store=GameStore(Path(folder)))
        resumed = fresh.resume_game().lines[0]
        # What the folder held, should a save ever not be found (said once in a whole suite's run, never again).
        held = {p.name: p.stat().st_size for p in Path(folder).iterdir()}
        assert resumed.startswith("Continuing"), (resumed, held, [r.speech[:60] for r in session.said])
        assert fresh.game.to_dict() == session.game.to_dict()


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=200))
def test_undecodable_bytes_as_the_terminal_hands_them_over(raw):
    session = Session(CARDS)
    session.handle("new game Ana Ben babies red pink")
    _check_reply(session, raw.decode("utf-8", "surrogateescape"))  # how Python reads invalid UTF-8 from stdin


def _plain(home, data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "assistant", *args], input=data, capture_output=True, env=env,
                          timeout=120)  # fmt: skip


def test_random_bytes_into_the_plain_mode_end_only_at_the_end_of_input(tmp_path):
    rng = random.Random(13)
    lines = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b" ") for _ in range(150)]
    lines[::7] = [c.encode() for c in COMMANDS[: len(lines[::7])]]  # some real commands among them, a game going
    data = b"new game Ana Ben Cy\n" + b"\n".join(
        line for line in lines if line.strip().lower() not in (b"quit", b"exit")
    )
    done = _plain(tmp_path, data + b"\n", "--plain", "--no-speech")
    out = done.stdout.decode("utf-8")  # the output is valid UTF-8
    assert done.returncode == 0 and "Traceback" not in out + done.stderr.decode("utf-8", "replace")
    assert done.stderr == b"" and _safe(out.replace("\n", " "))
    state = _plain(tmp_path, b"", "state", "--json")
    assert state.returncode == 0 and json.loads(state.stdout)["setup"]["players"] == ["Ana", "Ben", "Cy"]


def test_invalid_utf8_in_a_name_is_replaced_and_the_game_is_saved(tmp_path):
    done = _plain(tmp_path, b"new game An\xffa Ben\nrainbow \xfe aura\ndraw\n", "--plain", "--no-speech")
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0 and done.stderr == b""
    assert "An\ufffda drew a card." in out and "\\x" not in out
    state = json.loads(_plain(tmp_path, b"", "state", "--json").stdout)
    assert state["setup"]["players"] == ["An\ufffda", "Ben"] and len(state["events"]) == 1


def test_player_names_read_back_from_a_save_are_cleaned(tmp_path):
    from assistant.storage.saves import GameStore, encode_line

    folder = tmp_path / "data" / "games"
    Session(CARDS, store=GameStore(folder)).handle("new game Ana Ben babies red pink")
    path = GameStore(folder).last_path()
    first, rest = path.read_bytes().split(b"\n", 1)
    setup = json.loads(first.rsplit(b"\t", 1)[0])
    setup["setup"]["players"] = ["\x1b]52;c;aGk=\x07Ana", "Ben\x1b[2J"]  # written by hand into the file
    path.write_bytes(encode_line(setup) + rest)
    for args in (("--plain", "--no-speech", "--resume"), ("state",)):
        out = _plain(tmp_path, b"turn\n", *args).stdout.decode("utf-8")
        assert "Ana" in out and "\x1b" not in out and "\x07" not in out


# Deep nesting: 600 arrays deep made the standard library's parsers raise RecursionError.


@pytest.mark.parametrize("reader", [load_toml, load_json])
def test_deep_nesting_is_refused_before_parsing_with_its_line(reader):
    text = "x = " + "[" * 600 + "]" * 600 if reader is load_toml else "\n" + "[" * 100_000 + "]" * 100_000
    with pytest.raises(DataTextError, match=f"nested more than {MAX_DEPTH} deep") as caught:
        reader(text)
    assert caught.value.line == (1 if reader is load_toml else 2)


def test_brackets_in_strings_and_comments_are_not_nesting():
    text = 'a = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\nb = [[1]]\n'
    assert nesting_depth(text) == (2, 3)
    assert load_toml(text)["b"] == [[1]]


def test_a_toml_error_names_its_line():
    with pytest.raises(DataTextError) as caught:
        load_toml('a = 1\nb = "open\nc = 3\n')
    assert caught.value.line == 2 and "not valid TOML" in caught.value.message
    with pytest.raises(DataTextError) as caught:  # a file cut off in a string: the error is at its last line
        load_toml('[deck]\nid = "x"\ntitle = "cut o')
    assert caught.value.line == 3 and "at end of document" in caught.value.message


@settings(max_examples=200)
@given(st.text())
def test_every_text_written_as_toml_reads_back_the_same(text):
    expected = re.sub("[\ud800-\udfff]", "\ufffd", text)
    assert load_toml(f"v = {toml_string(text)}\n")["v"] == expected


def test_a_voice_name_with_a_tag_character_survives_the_settings_file(tmp_path):
    from assistant.core.speech.settings import SpeechSettings
    from assistant.storage.settings import load_settings, save_settings

    path = save_settings(SpeechSettings(voice="en\U000e0001gb"), tmp_path / "settings.toml")
    assert load_settings(path) == (SpeechSettings(voice="en\U000e0001gb"), "")


def test_deeply_nested_settings_are_set_aside_and_the_defaults_used(tmp_path):
    from assistant.core.speech.settings import SpeechSettings
    from assistant.storage.settings import load_settings

    path = tmp_path / "settings.toml"
    path.write_text("[speech]\nvoice = " + "[" * 600 + "]" * 600 + "\n")
    settings_read, notice = load_settings(path)
    assert settings_read == SpeechSettings() and "nested more than" in notice
    assert not path.exists() and len(list(tmp_path.glob("settings.toml.damaged-*"))) == 1


def test_a_save_line_nested_100000_deep_is_set_aside(tmp_path):
    from assistant.storage.saves import GameStore

    store = GameStore(tmp_path)
    session = Session(CARDS, store=store)
    session.handle("new game Ana Ben babies red pink")
    session.handle("draw")
    path = store.last_path()
    body = '{"n":2,"r":' + "[" * 100_000 + "]" * 100_000 + "}"
    import zlib

    with open(path, "ab") as out:
        out.write(body.encode() + b"\t" + f"{zlib.crc32(body.encode()):08x}".encode() + b"\n")
    fresh = Session(CARDS, store=GameStore(tmp_path))
    reply = fresh.resume_game()
    assert "was damaged at line 3" in reply.lines[0] and len(fresh.game.log) == 1


# Imports: a damaged one is set aside and named; one named like a shipped deck never replaces it.


def test_a_damaged_import_is_set_aside_and_everything_else_goes_on(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(tmp_path))
    folder = tmp_path / "data" / "decks"
    folder.mkdir(parents=True)
    (folder / "uu-2nd-sheet.toml").write_text('[deck]\nid = "uu-2nd-sheet"\ntitle = "cut o')
    (folder / "llamas-sheet.toml").write_text("[deck]\nx = " + "[" * 600 + "]" * 600)
    take_notices()
    assert load_card_set("uu-2nd").get("yay") is not None
    said = take_notices()
    assert any(s.startswith("Your imported deck uu-2nd-sheet.toml is damaged at line") for s in said)
    kept = sorted(p.name for p in folder.iterdir())  # both set aside, kept whole
    assert [name.split(".damaged-")[0] for name in kept] == ["llamas-sheet.toml", "uu-2nd-sheet.toml"]
    assert all(".damaged-" in name for name in kept)
    for args in (("card", "yay"), ("state",)):
        done = _plain(tmp_path, b"", *args)
        assert done.returncode in (0, 1) and b"Traceback" not in done.stderr
    card = _plain(tmp_path, b"", "card", "yay")
    assert card.returncode == 0 and b"Yay" in card.stdout


def test_an_import_named_like_a_shipped_deck_does_not_replace_it(tmp_path, monkeypatch):
    from assistant.storage.paths import card_texts_dir

    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(tmp_path))
    folder = tmp_path / "data" / "decks"
    folder.mkdir(parents=True)
    (folder / "uu-2nd.toml").write_text((card_texts_dir() / "llamas.toml").read_text())
    take_notices()
    assert load_card_set("uu-2nd").base.info.title.startswith("Unstable Unicorns, 2nd Edition")
    assert any("has the name of a deck that comes with the app" in s for s in take_notices())


# Reference sheets.


def test_a_5000_digit_number_of_copies_is_a_line_problem():
    rows, problems = parse_sheet(f"name,type,copies,text\nYay,upgrade,{'9' * 5000},x\n", "s.csv")
    from assistant.core.cards.sheet import match_sheet
    from assistant.storage.decks import load_deck

    result = match_sheet(rows, load_deck("uu-2nd"), "uu-2nd-sheet")
    assert problems == [] and result.cards == []
    assert [p.line for p in result.problems] == [2] and "not a number from 1 to 99" in result.problems[0].message


def test_an_unclosed_quote_is_named_and_the_lines_below_it_still_read():
    rows, problems = parse_sheet('name,type,copies,text\n"Yay,upgrade,1,a\nNeigh,instant,2,b\nSlowdown,,,c\n', "s.csv")
    assert [str(p) for p in problems] == [
        "line 2: a quote opened on this line is not closed on it; the line was not imported, and the lines below "
        "it were read on their own"
    ]
    assert [(r.line, r.name) for r in rows] == [(3, "Neigh"), (4, "Slowdown")]


def test_a_sheet_stops_at_its_row_limit_and_says_where():
    text = "name,text\n" + "".join(f"Card {n},does {n}\n" for n in range(MAX_ROWS + 50))
    rows, problems = parse_sheet(text, "s.csv")
    assert len(rows) == MAX_ROWS and [p.line for p in problems] == [MAX_ROWS + 2]


def test_a_huge_search_is_not_repeated_back():
    reply = Session(CARDS).handle("search " + "unicorn " * 20_000)
    assert len(reply.speech) < 400


def test_writing_speech_to_a_file_needs_no_sound_player(tmp_path):
    import shutil

    tools = tmp_path / "bin"  # a PATH with the speech engine and no aplay, paplay or pw-play
    tools.mkdir()
    for name in ("espeak-ng", "espeak"):
        found = shutil.which(name)
        if found:
            (tools / name).symlink_to(found)
    target = tmp_path / "hello.wav"
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(tmp_path), "PATH": str(tools)}
    done = subprocess.run([sys.executable, "-m", "assistant", "say", "hello", "--to", str(target)],
                          capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert target.read_bytes()[:4] == b"RIFF" and target.stat().st_size > 10_000


def test_a_wrong_setting_is_named_with_its_line(tmp_path):
    from assistant.storage.settings import SpeechSettings, load_settings

    path = tmp_path / "settings.toml"
    path.write_text('[speech]\nvoice = "en-gb"\nrate = "fast"\n', encoding="utf-8")
    loaded, said = load_settings(path)
    assert loaded == SpeechSettings() and "speech.rate must be int (line 3)" in said


def test_a_script_with_a_stray_byte_still_replays(tmp_path):
    script = tmp_path / "game.txt"
    script.write_bytes(b"new game Ana Ben\n\xff\xfe nonsense\nstate\n")
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(tmp_path))
    run = subprocess.run(
        [sys.executable, "-m", "assistant", "--script", str(script)], capture_output=True, text=True, env=env
    )
    assert run.returncode == 0, run.stderr
    assert "Ana" in run.stdout and all(_safe(line) for line in run.stdout.splitlines())


def test_a_sheet_that_is_not_utf8_names_the_line(tmp_path):
    sheet = tmp_path / "sheet.csv"
    sheet.write_bytes(b"name,type,text\nRainbow Aura,upgrade,ours\nNew,magic,\xff\n")
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(tmp_path))
    run = subprocess.run(
        [sys.executable, "-m", "assistant", "deck", "import", str(sheet)], capture_output=True, text=True, env=env
    )
    # that line alone is left out and named; the other lines are imported
    assert run.returncode == 0 and "line 3: is not UTF-8 text; this line was not imported" in run.stdout, run.stderr
    assert "Imported 1 card" in run.stdout


def test_json_output_escapes_what_would_act_on_the_terminal_and_stays_exact(tmp_path):
    hostile = "ya\x9b2J\u202ey\U000e0001"
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(tmp_path))
    for args in (["card", "--json", hostile], ["card", "--search", "--json", hostile]):
        run = subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True, text=True, env=env)
        assert "Traceback" not in run.stderr
        assert all(_safe(line) for line in run.stdout.splitlines()), run.stdout
        assert json.loads(run.stdout)["query"] == hostile, "the data is exact: only its spelling is escaped"


# After a deck import, games are saved and read back; a save is a file: its setup is checked before it is used.


def _import(home, sheet_text: str) -> None:
    sheet = home / "sheet.csv"
    sheet.write_text(sheet_text, encoding="utf-8")
    assert _plain(home, b"", "deck", "import", str(sheet)).returncode == 0


def _edit_setup(home, change) -> None:
    from assistant.storage.saves import GameStore, encode_line

    path = GameStore(home / "data" / "games").last_path()
    first, rest = path.read_bytes().split(b"\n", 1)
    body = json.loads(first.rsplit(b"\t", 1)[0])
    change(body["setup"])
    path.write_bytes(encode_line(body) + rest)


def test_a_game_with_imported_cards_is_read_back_and_so_is_one_saved_naming_the_import_as_an_addon(tmp_path):
    _import(tmp_path, "name,type,text\nYay,upgrade,Our words for yay.\nGlitter Storm,magic,A card of ours.\n")
    game = b"new game Ana Ben\ndraw\nplay glitter storm\nyes\n"
    assert b"Ana played Glitter Storm." in _plain(tmp_path, game, "--plain", "--no-speech").stdout
    expected = json.loads(_plain(tmp_path, b"", "state", "--json").stdout)
    assert expected["setup"]["addons"] == [] and expected["events"][-1]["card"] == "glitter-storm"
    # earlier versions wrote the import into the save as an add-on: such a save reads back the same
    _edit_setup(tmp_path, lambda setup: setup.update(addons=["uu-2nd-sheet"]))
    state = _plain(tmp_path, b"", "state", "--json")
    assert state.returncode == 0, state.stderr
    assert json.loads(state.stdout)["events"] == expected["events"]
    resumed = _plain(tmp_path, b"stable\n", "--plain", "--no-speech", "--resume").stdout.decode()
    assert "Continuing the game of Ana and Ben, 2 events." in resumed and "cannot be continued" not in resumed


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda setup: setup.update(addons=[{}]), "damaged setup ({} is not text)"),
        (lambda setup: setup.update(addons="uu-dragons"), "damaged setup"),
        (lambda setup: setup.update(base=["uu-2nd"]), "damaged setup"),
        (lambda setup: setup.update(addons=["no-such-deck"]), "No deck called 'no-such-deck'"),
    ],
)
def test_state_of_a_save_whose_setup_names_no_deck_says_why_and_exits_1(tmp_path, change, problem):
    _plain(tmp_path, b"new game Ana Ben\ndraw\n", "--plain", "--no-speech")
    _edit_setup(tmp_path, change)
    done = _plain(tmp_path, b"", "state")
    said = done.stderr.decode()
    assert done.returncode == 1 and "Something went wrong" not in said, said
    assert said.startswith("The saved game game-") and f"cannot be continued: {problem}" in said
    assert ".." not in said


# A damaged file is set aside by name and line, and no kept file is ever replaced.


@pytest.mark.parametrize("where", ["settings", "import"])
def test_a_number_of_5000_digits_in_a_toml_file_is_named_by_its_line_and_set_aside(tmp_path, where):
    with pytest.raises(DataTextError) as caught:
        load_toml("a = 1\nb = " + "9" * 5000 + "\n")
    assert (caught.value.line, caught.value.message) == (2, "a number has too many digits")
    if where == "settings":
        folder, name, args = tmp_path / "config", "settings.toml", ("say", "hi", "--backend", "silent")
        content, said = "[speech]\nrate = " + "9" * 5000, "The settings file is damaged (line 2: a number has too many"
    else:
        folder, name, args = tmp_path / "data" / "decks", "uu-2nd-sheet.toml", ("card", "yay")
        content = '[deck]\nid = "uu-2nd-sheet"\nx = ' + "9" * 5000
        said = "Your imported deck uu-2nd-sheet.toml is damaged at line 3 (a number has too many digits)"
    folder.mkdir(parents=True)
    (folder / name).write_text(content + "\n")
    done = _plain(tmp_path, b"", *args)
    assert said in done.stderr.decode() and "Something went wrong" not in done.stderr.decode()
    assert not (folder / name).exists() and len(list(folder.glob(f"{name}.damaged-*"))) == 1
    if where == "import":
        assert done.returncode == 0 and b"Yay" in done.stdout


def test_a_damaged_settings_file_is_said_when_the_plain_mode_starts(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_bytes(b'[speech]\nrate = 50\nvoice = "\xff"\n')
    out = _plain(tmp_path, b"quit\n", "--plain", "--no-speech").stdout.decode()
    assert "The settings file is damaged (line 3 is not UTF-8 text): the defaults are used" in out


def test_two_files_set_aside_in_the_same_second_are_both_kept(tmp_path):
    from assistant.storage.files import set_aside

    path = tmp_path / "settings.toml"
    kept = []
    for text in ("first", "second", "third"):
        path.write_text(text)
        kept.append(set_aside(path))
    assert len(set(kept)) == 3 and sorted(p.read_text() for p in kept) == ["first", "second", "third"]


# Texts read from the owner's files are cleaned before they are shown: a hand-edited import, a sheet's name.


def test_a_hand_edited_import_shows_nothing_that_acts_on_the_terminal(tmp_path):
    _import(tmp_path, "name,type,text\nGlitter Storm,magic,A card of ours.\n")
    deck = tmp_path / "data" / "decks" / "uu-2nd-sheet.toml"
    text = deck.read_text(encoding="utf-8")
    text = text.replace('name = "Glitter Storm"', 'name = "Glitter\\u202e Storm\\u001b[31m"')
    text = text.replace('text = "A card of ours."', 'text = "A card\\u001b]52;c;aGk=\\u0007 of\\u2028ours."')
    deck.write_text(text.replace("from your reference sheet", "from\\u001b[2J your sheet"), encoding="utf-8")
    card = _plain(tmp_path, b"", "card", "glitter storm").stdout.decode()
    assert card.splitlines()[0] == "Glitter Storm" and card.splitlines()[-1] == "A card of ours."
    listed = _plain(tmp_path, b"", "deck", "list").stdout.decode()
    assert "uu-2nd-sheet: Unstable Unicorns, 2nd Edition base game, from your sheet: 1 card" in listed
    played = _plain(tmp_path, b"new game Ana Ben\nsearch ours\n", "--plain", "--no-speech").stdout.decode()
    for out in (card, listed, played):
        assert _safe(out.replace("\n", " ")), out


def test_deck_import_repeats_nothing_from_the_sheet_that_acts_on_the_terminal(tmp_path):
    sheet = tmp_path / "s\x1b[2J\u202e.csv"
    sheet.write_text("name,type,text\nRainbw Unicorn\u202e,magical,Ours.\nFoo,\x1b]52;c;aGk=\x07wiz\x9b2Jard,x\n",
                     encoding="utf-8")  # fmt: skip
    home = tmp_path / "home"
    for args in ((), ("--json",)):
        done = _plain(home, b"", "deck", "import", str(sheet), *args)
        out = done.stdout.decode()
        assert done.returncode == 0 and _safe(out.replace("\n", " ")) and "\x1b" not in out, out
        assert '"wizard" is not a card type' in out.replace('\\"', '"'), "the type column is repeated back cleaned"
    assert json.loads(out)["matched"][0]["name"] == "Rainbw Unicorn\u202e", "the data is exact: only its spelling"


def test_header_columns_are_read_as_the_owner_sees_them_and_an_unknown_one_repeated_back_cleaned():
    rows, problems = parse_sheet("name,ty\x1b[2Jpe\u202e,text\nYay,upgrade,x\n", "s.csv")
    assert problems == [] and [(r.name, r.type) for r in rows] == [("Yay", "upgrade")]
    rows, problems = parse_sheet("name,colo\x1b[2Jur\u202e,text\nYay,red,x\n", "s.csv")
    assert rows == [] and [str(p) for p in problems] == [
        "line 1: the header has unknown columns colour; the columns are name, type, text, copies, abbreviation"
    ]


# Numbers: ASCII digits or number words, never what str.isdigit() also says yes to.


@pytest.mark.parametrize("typed", ["²", "①", "٣", "𝟙", "Ⅻ", "1²", "9" * 5000])
def test_digits_that_int_refuses_are_not_numbers_anywhere(typed):
    from assistant.core.cards.sheet import parse_copies
    from assistant.core.language.parser import parse_number

    assert parse_number(typed) is None and parse_copies(typed) is None
    assert (parse_number("3"), parse_number("three"), parse_copies("3")) == (3, 3, 3)
    session = Session(CARDS)
    session.handle("new game Ana Ben babies red pink")
    session.handle("draw")
    for line, hint in (("draw", "Say draw and a number"), ("undo", "Say undo and a number"),
                       ("deck", "The deck holds about"), ("win", "Say win and a number")):  # fmt: skip
        reply = session.handle(f"{line} {typed}")
        assert reply.lines[0].startswith(hint), (line, reply.lines)
        assert len(session.game.log) == 1 and session.game.state.goal == 7


def test_non_ascii_digits_in_the_plain_mode_and_in_a_sheet_end_nothing(tmp_path):
    typed = "new game Ana Ben\ndraw ²\nundo ①\ndeck ²\nwin ²\ndraw\n".encode()
    done = _plain(tmp_path, typed, "--plain", "--no-speech")
    assert done.returncode == 0 and done.stderr == b"" and b"Ana drew a card." in done.stdout
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("name,type,copies,text\nYay,upgrade,²,x\nNeigh,instant,2,y\n", encoding="utf-8")
    done = _plain(tmp_path, b"", "deck", "import", str(sheet))
    assert done.returncode == 0 and 'line 2: copies "²" is not a number from 1 to 99' in done.stdout.decode()
