"""Hostile input: no line ends a session, no escape or bidi control reaches the screen or speech, no damaged file
blocks the app, and every damaged file is named with its line and set aside while the app goes on."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.core.sheet import MAX_SHEET_LINES, match_sheet, parse_sheet
from assistant.core.tomltext import DataFileError, load_json, load_toml, toml_string, too_deep
from assistant.core.words import clean_untrusted, search_results
from assistant.session import Session
from assistant.storage.decks import load_card_set, take_notices
from assistant.storage.files import set_aside, write_atomic
from assistant.storage.saves import GameStore, encode_line, read_save
from assistant.storage.settings import SpeechSettings, load_settings, save_settings

ROOT = Path(__file__).resolve().parents[1]
CARDS = load_card_set("uu-2nd")

#: What must never reach a terminal or a speech engine: C0 and C1 controls (ESC, BEL, CSI...), DEL, bidi
#: embeddings, overrides and isolates, the byte-order mark and other format characters, lone surrogates.
FORBIDDEN = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ud800-\udfff\U000e0000-\U000e007f]"
)


def shown(text: str) -> bool:
    return FORBIDDEN.search(text) is None


# --- cleaning ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hostile",
    [
        "\ufeffRainbow",
        "Ana\u202eneB",
        "x\u2066y\u2069",
        "\x1b]52;c;aGk=\x07clip",
        "\x1b[2Jclear",
        "\x9b31mred",
        "a\u200db",
        "tag\U000e0001",
        "sur\udcffrogate",
        "line\u2028sep",
    ],
)
def test_cleaning_drops_every_control_format_and_bidi_character(hostile):
    cleaned = clean_untrusted(hostile)
    assert shown(cleaned) and "\u2028" not in cleaned
    assert any(c.isalpha() for c in cleaned)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=400))
def test_cleaning_any_text_leaves_nothing_forbidden(text):
    cleaned = clean_untrusted(text, limit=120)
    assert shown(cleaned) and len(cleaned) <= 120


def test_a_huge_search_is_echoed_as_a_short_prefix():
    said = search_results("unicorn" * 20_000, [])
    assert len(said) < 120


# --- the one TOML writer and the bounded reader -----------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_every_string_the_writer_writes_reads_back_the_same(text):
    assert tomllib.loads(f"v = {toml_string(text)}\n")["v"] == text


def test_a_voice_name_with_a_tag_character_survives_saving_settings(tmp_path):
    path = tmp_path / "settings.toml"
    chosen = SpeechSettings(voice="en\U000e0001gb\x7f\u202e", transcript='C:\\notes "x"')
    save_settings(chosen, path)
    assert load_settings(path) == (chosen, "")


def test_a_lone_surrogate_cannot_be_stored_in_toml_so_it_is_written_as_a_replacement_character():
    written = toml_string("a\udcffb")
    assert tomllib.loads(f"v = {written}")["v"] == "a\ufffdb"


def test_nesting_is_refused_before_parsing_with_the_line():
    deep = "a = " + "[" * 600 + "]" * 600 + "\n"
    with pytest.raises(DataFileError) as caught:
        load_toml("# ok\n" + deep, "deep.toml")
    assert caught.value.line == 2 and "nested too deeply" in str(caught.value) and "deep.toml:2" in str(caught.value)
    assert too_deep('a = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n') == 0, "brackets in a string are not nesting"
    with pytest.raises(DataFileError):
        load_json("[" * 100_000 + "]" * 100_000, "save.jsonl", line=7)


def test_a_toml_error_names_the_line():
    with pytest.raises(DataFileError) as caught:
        load_toml('a = 1\nb = "open\n', "x.toml")
    assert caught.value.line == 2


# --- settings ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "damaged",
    [
        "[speech]\nrate = " + "[" * 600 + "]" * 600 + "\n",
        "[speech]\nvoice = " + "{ a = " * 600 + "1" + " }" * 600 + "\n",
        b"\xff\xfe[speech]\n",
        "[speech]\n" + "# padding\n" * 40_000,
    ],
)
def test_a_damaged_settings_file_is_set_aside_and_the_defaults_used(tmp_path, damaged):
    path = tmp_path / "settings.toml"
    path.write_bytes(damaged if isinstance(damaged, bytes) else damaged.encode())
    loaded, said = load_settings(path)
    assert loaded == SpeechSettings()
    assert "settings.toml.damaged-" in said and shown(said)
    assert not path.exists() and len(list(tmp_path.glob("settings.toml.damaged-*"))) == 1
    assert load_settings(path) == (SpeechSettings(), ""), "the next start is clean"


def test_setting_aside_keeps_the_original_and_never_overwrites_an_earlier_one(tmp_path):
    path = tmp_path / "f.toml"
    for content in (b"one", b"two"):
        write_atomic(path, content)
        set_aside(path)
    assert sorted(p.read_bytes() for p in tmp_path.glob("f.toml.damaged-*")) == [b"one", b"two"]


# --- sheets --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("copies", ["9" * 5000, "²", "①", "-3", "0"])
def test_a_bad_copies_cell_is_a_line_error_not_a_crash(copies):
    rows, problems = parse_sheet(f"name,type,text,copies\nRainbow Aura,upgrade,ours,{copies}\n", "s.csv")
    result = match_sheet(rows, CARDS.base, "uu-2nd-sheet")
    assert result.cards == []
    assert [p.line for p in result.problems] == [2] and "copies" in result.problems[0].message
    assert len(str(result.problems[0])) < 200


def test_a_hostile_type_column_is_echoed_clean():
    rows, _ = parse_sheet("name,type,text\nNew One,\x1b]52;c;aGk=\x07\u202ebad,ours\n", "s.csv")
    result = match_sheet(rows, CARDS.base, "uu-2nd-sheet")
    assert result.problems and all(shown(str(p)) for p in result.problems)


def test_an_unterminated_quote_is_named_and_the_lines_after_it_still_read():
    text = 'name,type,text\nRainbow Aura,upgrade,"ours\nUnicorn Poison,magic,also ours\nNeigh,instant,no\n'
    rows, problems = parse_sheet(text, "s.csv")
    assert [p.line for p in problems] == [2] and "never closed" in problems[0].message
    assert [(r.line, r.name) for r in rows] == [(3, "Unicorn Poison"), (4, "Neigh")]


def test_a_sheet_too_large_is_refused_at_once():
    rows, problems = parse_sheet("Rainbow Aura: ours\n" * (MAX_SHEET_LINES + 1), "s.txt")
    assert rows == [] and problems and "more than" in problems[0].message


# --- saves ---------------------------------------------------------------------------------------------------

GAME = ["new game Ana Ben babies red pink", "draw", "play rainbow aura", "end turn", "draw"]


def session(folder: Path) -> Session:
    return Session(CARDS, store=GameStore(folder), load_cards=load_card_set)


def played(folder: Path) -> Path:
    s = session(folder)
    for line in GAME:
        s.handle(line)
    path = GameStore(folder).last_path()
    assert path is not None
    return path


def test_a_save_with_crlf_line_ends_continues(tmp_path):
    path = played(tmp_path)
    expected = session(tmp_path)
    expected.resume_game()
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    fresh = session(tmp_path)
    reply = fresh.resume_game()
    assert reply.lines[0].startswith("Continuing"), reply.lines
    assert fresh.game.state == expected.game.state


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"", ":1: the file is empty"),
        (b"\x00\x01garbage\xff\n" * 3, ":1: the first line is not a game's setup"),
        (os.urandom(300).replace(b"\n", b" "), ":1: the first line is not a game's setup"),
    ],
)
def test_an_empty_or_random_save_is_refused_naming_file_and_line(tmp_path, content, said):
    path = tmp_path / "game-20260101-000000-abcd.jsonl"
    path.write_bytes(content)
    reply = session(tmp_path).resume_game()
    text = " ".join(reply.lines)
    assert path.name + said in text and shown(text)


def test_a_save_of_an_unknown_version_is_refused_clearly(tmp_path):
    path = played(tmp_path)
    lines = path.read_bytes().split(b"\n")
    head = json.loads(lines[0].rpartition(b"\t")[0])
    head["version"] = 99
    path.write_bytes(encode_line(head) + b"\n".join(lines[1:]))
    text = " ".join(session(tmp_path).resume_game().lines)
    assert f"{path.name}:1:" in text and "version 99" in text


def test_set_aside_lines_are_named_and_the_counts_agree(tmp_path):
    path = played(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[2] = b"{" * 100_000 + b"\t00000000"  # nested far too deep, and a bad checksum
    lines[3] = lines[3][:-3] + b"zzz"
    path.write_bytes(b"\n".join(lines))
    reply = session(tmp_path).resume_game()
    first = reply.lines[0]
    assert "2 damaged lines were set aside (lines 3 and 4;" in first
    assert first.endswith("the rest of the game was kept.") and not re.search(r"\d+ (events|records) were", first)
    assert reply.lines[1].startswith("Continuing")
    assert read_save(path).damaged == []


def test_player_names_read_back_from_a_save_are_cleaned(tmp_path):
    s = session(tmp_path)
    s.handle("new game Ana Ben")
    path = GameStore(tmp_path).last_path()
    lines = path.read_bytes().split(b"\n")
    head = json.loads(lines[0].rpartition(b"\t")[0])
    head["setup"]["players"] = ["\x1b]52;c;aGk=\x07Ana\x1b[2J", "B\u202een"]
    path.write_bytes(encode_line(head) + b"\n".join(lines[1:]))
    fresh = session(tmp_path)
    replies = [fresh.resume_game(), fresh.handle("state"), fresh.handle("hands")]
    for reply in replies:
        assert all(shown(line) for line in reply.lines) and shown(reply.speech)


# --- imports -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    ['[deck]\nid = "uu-2nd-sheet"\ntitle = "cut', '[deck]\nid = "uu-2nd-sheet"\nx = ' + "[" * 600 + "]" * 600],
    ids=["truncated", "nested 600 deep"],
)
def test_a_damaged_import_is_set_aside_and_look_ups_go_on(tmp_path, monkeypatch, content):
    monkeypatch.setenv("TABLE_ASSISTANT_HOME", str(tmp_path))
    decks = tmp_path / "data" / "decks"
    decks.mkdir(parents=True)
    damaged = decks / "uu-2nd-sheet.toml"
    damaged.write_text(content, encoding="utf-8")
    shadow = decks / "uu-2nd.toml"
    shadow.write_text('[deck]\nid = "uu-2nd"\n', encoding="utf-8")
    take_notices()
    cards = load_card_set("uu-2nd")
    assert cards.base.path.endswith("card_texts/uu-2nd.toml"), "a shipped deck is never shadowed"
    notices = take_notices()
    assert any("uu-2nd-sheet.toml is damaged at line 3" in n for n in notices), notices
    assert any("uu-2nd.toml has the name of a shipped deck" in n for n in notices), notices
    assert not damaged.exists() and len(list(decks.glob("uu-2nd-sheet.toml.damaged-*"))) == 1
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(tmp_path))
    look = subprocess.run(
        [sys.executable, "-m", "assistant", "card", "rainbow", "aura"], capture_output=True, text=True, env=env
    )
    assert look.returncode == 0 and "Rainbow Aura" in look.stdout and "Traceback" not in look.stderr


# --- Session.handle with anything typed ----------------------------------------------------------------------

VALID = [
    "new game Ana Ben Cy babies red pink narwhal",
    "draw",
    "draw 2",
    "play rainbow aura",
    "neigh Ben",
    "resolve",
    "end turn",
    "undo",
    "undo all",
    "redo 2",
    "state",
    "hands",
    "help",
    "discard",
    "search unicorn",
    "card rainbow aura",
    "yes",
    "no",
    "1",
]

HOSTILE = st.one_of(
    st.sampled_from(VALID),
    st.text(alphabet=st.characters(codec=None), max_size=80),
    st.binary(max_size=60).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.sampled_from(["\x1b]52;c;aGk=\x07", "\x1b[2J", "\u202eeman", "\ufeffdraw", "draw ²", "undo ①", "x" * 5000]),
    st.tuples(st.sampled_from(VALID), st.text(max_size=20)).map(" ".join),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(HOSTILE, min_size=1, max_size=12))
def test_no_typed_line_ends_a_session_or_shows_a_control_character(tmp_path_factory, lines):
    folder = tmp_path_factory.mktemp("games")
    s = session(folder)
    for line in lines:
        reply = s.handle(line)
        assert all(shown(text) for text in reply.lines), reply.lines
        assert shown(reply.speech)
        if s.game is not None:
            s.game.state.to_dict()  # the game state is always readable
    if s.game is not None:  # and what was saved reads back
        fresh = session(folder)
        assert fresh.resume_game().lines


# --- the plain mode as a process -----------------------------------------------------------------------------


def test_random_bytes_into_plain_mode_never_end_it_or_reach_the_terminal(tmp_path):
    rng = random.Random(13)
    chunks = [b"new game An\xffa Ben\n", b"card \xfe\x1b[2J\n", b"draw \xc2\xb2\n"]
    for _ in range(60):
        chunks.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).replace(b"\n", b" ") + b"\n")
        chunks.append(rng.choice([b"draw\n", b"state\n", b"undo all\n", b"end turn\n", b"\x1b]52;c;aGk=\x07\n"]))
    data = b"".join(chunk for chunk in chunks if not chunk.strip().lower().startswith((b"quit", b"exit")))
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    run = subprocess.run(
        [sys.executable, "-m", "assistant", "--plain", "--no-speech"], input=data, capture_output=True, env=env
    )
    out, err = run.stdout.decode("utf-8"), run.stderr.decode("utf-8")
    assert run.returncode == 0, err
    assert "Traceback" not in out + err and "Something went wrong" not in out + err
    assert all(shown(line) for line in out.splitlines()), [line for line in out.splitlines() if not shown(line)]
    saves = list((tmp_path / "data" / "games").glob("game-*.jsonl"))
    assert saves and all(read_save(p).setup is not None for p in saves), "no empty save is left"


def test_say_to_a_file_needs_no_sound_player(tmp_path):
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        pytest.skip("espeak-ng is not installed")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "espeak-ng").symlink_to(espeak)  # the engine, and no aplay, paplay or pw-play
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(tmp_path), PYTHONPATH=str(ROOT), PATH=str(bin_dir))
    target = tmp_path / "x.wav"
    run = subprocess.run(
        [sys.executable, "-m", "assistant", "say", "hello", "--to", str(target)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert target.stat().st_size > 10_000 and target.read_bytes()[:4] == b"RIFF"


def test_a_game_resumes_and_is_stated_with_a_damaged_import(tmp_path):
    played(tmp_path / "data" / "games")
    decks = tmp_path / "data" / "decks"
    decks.mkdir(parents=True)
    (decks / "uu-2nd-sheet.toml").write_text('[deck]\nid = "uu-2nd-sheet"\nbase = "uu-2nd', encoding="utf-8")
    env = dict(os.environ, TABLE_ASSISTANT_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    state = subprocess.run([sys.executable, "-m", "assistant", "state"], capture_output=True, text=True, env=env)
    assert state.returncode == 0, state.stderr
    assert "uu-2nd-sheet.toml is damaged at line 3" in state.stderr and "Ana" in state.stdout
    resumed = subprocess.run(
        [sys.executable, "-m", "assistant", "--plain", "--no-speech", "--resume"],
        input="state\nquit\n",
        capture_output=True,
        text=True,
        env=env,
    )
    assert resumed.returncode == 0 and "Continuing the game of Ana and Ben" in resumed.stdout, resumed.stderr
