"""Bytes that are not text in the terminal's encoding, and text the terminal cannot show, under real locales.

The suite's own locale (C.UTF-8) makes Python read stdin leniently, which hid every failure here: these tests make
a strict UTF-8 desktop locale (en_US.UTF-8) and a Latin-1 one (en_US.ISO-8859-1) with `localedef` (Debian's
`locales` package, installed by scripts/setup.sh) and run the real command in them.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.ui.terminal import lenient_decoder, transliterate

ROOT = Path(__file__).resolve().parents[2]
UTF8, LATIN1 = "en_US.UTF-8", "en_US.ISO-8859-1"

#: Commands of a game in progress; the fuzz mutates them.
COMMANDS = [
    "draw",
    "Ana play yay",
    "tally",
    "hand",
    "Ben discard 1",
    "end turn",
    "card rainbow aura",
    "undo",
    "redo",
    "search unicorn",
    "stable Ana",
    "help",
    "state",
]


@pytest.fixture(scope="session")
def locales(tmp_path_factory) -> Path:
    """A folder of compiled locales (LOCPATH) holding en_US.UTF-8 and en_US.ISO-8859-1."""
    if shutil.which("localedef") is None or not Path("/usr/share/i18n/locales/en_US").exists():
        pytest.fail("these tests need Debian's locales package: run scripts/setup.sh")
    folder = tmp_path_factory.mktemp("locales")
    for name, charmap in ((UTF8, "UTF-8"), (LATIN1, "ISO-8859-1")):
        subprocess.run(["localedef", "-i", "en_US", "-f", charmap, str(folder / name)], check=True,
                       capture_output=True)  # fmt: skip
    return folder


def _env(locales: Path, home: Path, lang: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONUTF8", "PYTHONIOENCODING"))}
    return {**env, "LOCPATH": str(locales), "LANG": lang, "PYTHONUTF8": "0", "TABLE_ASSISTANT_HOME": str(home)}


def _run(locales: Path, home: Path, lang: str, data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "assistant", *args], input=data, capture_output=True,
                          env=_env(locales, home, lang), cwd=ROOT, timeout=120)  # fmt: skip


@pytest.mark.parametrize("lang", [UTF8, LATIN1])
def test_the_locale_is_strict_so_the_tests_would_see_the_failure(locales, tmp_path, lang):
    probe = "import sys; print(sys.stdin.errors, sys.stdout.errors, sys.stdout.encoding)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=_env(locales, tmp_path, lang))  # fmt: skip
    errors_in, errors_out, encoding = done.stdout.split()
    assert (errors_in, errors_out) == ("strict", "strict")
    assert encoding == ("utf-8" if lang == UTF8 else "iso8859-1")


def test_an_invalid_byte_in_a_utf8_locale_is_answered_and_the_session_goes_on(locales, tmp_path):
    done = _run(locales, tmp_path, UTF8, b"new game Ana Ben\ndraw\n\xe9\ntally\n", "--plain", "--no-speech")
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0 and done.stderr == b""
    assert "New game: Ana and Ben" in out and "Ana drew a card." in out and "Unicorns: Ana 0, Ben 0." in out


def test_latin1_input_is_read_as_latin1_and_an_ellipsis_is_written_as_dots(locales, tmp_path):
    long_search = b"search \xe9" + b"x" * 120  # too long to repeat whole: cut with an ellipsis
    done = _run(locales, tmp_path, LATIN1, b"new game Ana Ren\xe9\n" + long_search + b"\ndraw\n", "--plain",
                "--no-speech")  # fmt: skip
    out = done.stdout.decode("latin-1")
    assert done.returncode == 0 and done.stderr == b""
    assert "Ana and Ren\xe9" in out  # "é" typed on a Latin-1 terminal is "é"
    assert "No card mentions " in out and "xxx...." in out and "Ana drew a card." in out
    state = json.loads(_run(locales, tmp_path, UTF8, b"", "state", "--json").stdout)
    assert state["setup"]["players"] == ["Ana", "Ren\xe9"]


#: Bytes a mutation inserts: Latin-1 letters, bytes UTF-8 never starts with, cut sequences, an escape.
_NOISE = [b"\xe9", b"\xff", b"\xc3", b"\xe2\x80", b"\x1b[2J", b"\xc3\xa9"]


def _mutate(rng: random.Random, line: bytes) -> bytes:
    """A command with a few bytes replaced, inserted or removed: invalid UTF-8, cut sequences, controls."""
    data = bytearray(line)
    for _ in range(rng.randrange(1, 4)):
        where = rng.randrange(len(data) + 1)
        choice = rng.randrange(4)
        noise = rng.choice([*_NOISE, bytes([rng.randrange(256)])])
        if choice == 0:
            data[where:where] = noise
        elif choice == 1 and data:
            data[min(where, len(data) - 1)] = rng.randrange(128, 256)
        elif choice == 2 and data:
            del data[min(where, len(data) - 1)]
        else:
            data[where:where] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6)))
    return bytes(data).replace(b"\n", b" ").replace(b"\r", b" ")


def _fuzz_input(seed: int) -> bytes:
    rng = random.Random(seed)
    lines = []
    for _ in range(120):
        kind = rng.randrange(3)
        if kind == 0:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))).replace(b"\n", b" ")
        elif kind == 1:
            line = _mutate(rng, rng.choice(COMMANDS).encode())
        else:
            line = rng.choice(COMMANDS).encode()
        if line.strip().lower() not in (b"quit", b"exit"):
            lines.append(line)
    return b"new game Ana Ben Cy\n" + b"\n".join(lines) + b"\ntally\n"


@pytest.mark.parametrize("lang", [UTF8, LATIN1])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_and_mutated_bytes_end_a_session_only_at_the_end_of_input(locales, tmp_path, lang, seed):
    done = _run(locales, tmp_path, lang, _fuzz_input(seed), "--plain", "--no-speech")
    out = done.stdout.decode("utf-8" if lang == UTF8 else "latin-1")  # what the terminal's encoding reads
    assert done.returncode == 0, done.stderr
    assert done.stderr == b"" and "Traceback" not in out
    assert "New game: Ana, Ben and Cy" in out
    # the last line, `tally`, was answered: nothing before it ended the session
    assert out.rstrip().splitlines()[-1].startswith("Unicorns: Ana ")
    state = json.loads(_run(locales, tmp_path, UTF8, b"", "state", "--json").stdout)
    assert state["setup"]["players"] == ["Ana", "Ben", "Cy"]


@pytest.mark.parametrize("lang", [UTF8, LATIN1])
def test_a_script_and_command_line_arguments_with_invalid_bytes(locales, tmp_path, lang):
    script = tmp_path / "game.txt"
    script.write_bytes(b"new game Ana Ben\ncard r\xe9inbow \xff aura\ndraw\n")
    done = _run(locales, tmp_path, lang, b"", "--script", str(script), "--no-speech")
    assert done.returncode == 0 and done.stderr == b"" and b"Ana drew a card." in done.stdout
    card = subprocess.run([sys.executable.encode(), b"-m", b"assistant", b"card", b"ya\xffy\xe9\xe2\x80\xa6"],
                          capture_output=True, env=_env(locales, tmp_path, lang), cwd=ROOT, timeout=60)  # fmt: skip
    assert b"Traceback" not in card.stderr and card.returncode in (0, 1)
    assert (card.stdout + card.stderr).strip()


def test_transliteration_keeps_what_ascii_can_say():
    assert transliterate("Ren\xe9 \u2026 \u2014 \u201cYay\u201d \u2800\udce9") == 'Rene ... - "Yay" ??'


@pytest.mark.parametrize("lang", [UTF8, LATIN1])
def test_the_key_reader_decodes_in_the_terminal_encoding_and_never_raises(locales, lang):
    probe = ("from assistant.ui.terminal import lenient_decoder; import locale; locale.setlocale(locale.LC_ALL, '');"
             " d = lenient_decoder('utf-8')(); print(ascii(d.decode(b'a\\xe9\\xff\\xc3', final=True)))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                          env=_env(locales, Path("/nonexistent"), lang))  # fmt: skip
    expected = "'a\\ufffd\\ufffd\\ufffd'" if lang == UTF8 else "'a\\xe9\\xff\\xc3'"
    assert done.stdout.strip() == expected, done.stderr
    assert lenient_decoder()  # importable where Textual asks for it


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize("lang", [UTF8, LATIN1])
def test_the_app_reads_raw_8bit_bytes_without_ending(locales, tmp_path, lang):
    """The real app in tmux, in the locale; bytes sent straight to its terminal (tmux send-keys -H)."""
    from tests.ui.test_tmux import Terminal

    env = {k: v for k, v in _env(locales, tmp_path, lang).items() if k in ("LOCPATH", "LANG", "PYTHONUTF8")}
    env |= {"TABLE_ASSISTANT_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    term = Terminal([sys.executable, "-m", "assistant", "--no-speech", "--no-camera"], env)
    try:
        term.wait_for("Card name")
        term.keys("new game Ana Ben", "Enter")
        term.wait_for("New game: Ana and Ben")
        term.keys("-H", "e9", "ff", "c3")
        term.keys("Enter")
        term.keys("tally", "Enter")
        screen = term.wait_for("Unicorns: Ana 0, Ben 0")
        assert "Traceback" not in screen and "Error" not in screen
        term.keys("help win", "Enter")  # still running: it answers the next line (a wait on its answer, not on time)
        assert "Traceback" not in term.wait_for("How to win")
    finally:
        term.close()
