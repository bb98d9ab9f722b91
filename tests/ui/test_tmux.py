"""End to end: the real app in a real terminal (tmux), typed at and read back as a person would."""

import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from assistant.core.words.screen import HISTORY_HEADING
from assistant.core.words.share import QR_BACK, QR_KEY
from tests.qr_reading import qr_lines, read_qr

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    """A tmux session running one command, 100x30 unless told, on a tmux server of its own (no other server can get
    in the way, and closing it leaves nothing behind)."""

    def __init__(self, command: list[str], env: dict[str, str], size: tuple[int, int] = (100, 30)):
        self.name = f"ta-{uuid.uuid4().hex[:8]}"
        self.folder = Path(tempfile.mkdtemp(prefix="ta-tmux-"))  # short: a socket's path has a length limit
        self.tmux = ["tmux", "-S", str(self.folder / "socket")]
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        line = f"env {exports} TERM=xterm-256color {' '.join(command)}"
        # -c: start in this checkout, whatever folder the tmux server started in (python -m imports from there)
        new = [
            *self.tmux,
            "new-session",
            "-d",
            "-s",
            self.name,
            "-c",
            str(ROOT),
            "-x",
            str(size[0]),
            "-y",
            str(size[1]),
            line,
        ]
        subprocess.run(new, check=True)

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, *keys], check=True)

    def screen(self) -> str:
        result = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return result.stdout

    def cursor(self) -> tuple[int, int]:
        """Where the terminal cursor is (column, row), as a braille display follows it."""
        result = subprocess.run([*self.tmux, "display", "-p", "-t", self.name, "#{cursor_x},#{cursor_y}"],
                                capture_output=True, text=True)  # fmt: skip
        x, y = result.stdout.strip().split(",")
        return int(x), int(y)

    def row_of(self, line: str) -> int:
        """The row of the first screen line that starts with `line`."""
        rows = self.screen().splitlines()
        return next(n for n, row in enumerate(rows) if row.startswith(line))

    def wait_for(self, text: str, timeout: float = 30.0, above: str | None = None) -> str:
        """The screen once `text` shows on it (above the line `above`, when given: in the answer, not the history
        under it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in (screen.split(above)[0] if above else screen):
                return screen
            time.sleep(0.2)  # (tmux and the app are real processes: the screen is polled)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def terminal(private_home):
    started = []

    def start(*args: str, module: bool = False, size: tuple[int, int] = (100, 30)) -> Terminal:
        script = Path(sys.executable).parent / "table-assistant"
        command = [sys.executable, "-m", "assistant"] if module else [str(script)]
        env = {"TABLE_ASSISTANT_HOME": str(private_home), "PYTHONPATH": str(ROOT)}
        term = Terminal([*command, *args], env, size)
        started.append(term)
        return term

    yield start
    for term in started:
        term.close()


def test_the_app_opens_and_shows_a_typed_card(terminal):
    term = terminal("--no-speech")
    term.wait_for("Table assistant")
    term.keys("rainbow aura", "Enter")
    screen = term.wait_for("Type: Upgrade card")
    assert "Rainbow Aura" in screen
    assert "Traceback" not in screen
    term.keys("C-q")


def test_the_qr_code_to_join_reads_from_an_80_by_24_terminal_on_f10(terminal):
    """A game shared in a terminal of 80 columns by 24 rows: F10 shows the QR code whole, and the project's decoder
    reads the page's address with the QR code's join token from the terminal's own text."""
    term = terminal("--no-speech", "--no-camera", size=(80, 24))
    term.wait_for("Table assistant")
    term.keys("new game Ana Ben Cy Dee babies red pink orange purple", "Enter")
    term.wait_for("New game: Ana")
    term.keys("share 127.0.0.1:0", "Enter")
    screen = " ".join(term.wait_for(QR_KEY.split()[-1]).split())  # (the sentence may wrap at 80 columns)
    shared = re.search(r"shared at (http://127\.0\.0\.1:\d+/)\. The join code is ([0-9 ]+)\.", screen)
    assert shared is not None, screen
    term.keys("help", "Enter")  # an answer of many lines above the share region
    # (in the answer, not the history under it, where the start's "Type a card name and press Enter" still shows:
    # F10 must not overtake the line)
    term.wait_for("Type a card name", above=HISTORY_HEADING)
    term.keys("F10")
    screen = term.wait_for(QR_BACK)
    read = read_qr(qr_lines(screen))  # the page's address with the QR code's join token, never the spoken code
    assert len(read) == 1 and re.fullmatch(re.escape(f"{shared[1]}?link=") + r"[A-Za-z0-9_-]{22}", read[0]), screen
    term.keys("C-q")


def test_plain_mode_in_a_terminal(terminal):
    term = terminal("--plain", "--no-speech")
    term.wait_for("plain mode")
    term.keys("rainbow aura", "Enter")
    term.wait_for("Type: Upgrade card")
    term.keys("zzzz", "Enter")
    term.wait_for("No card called zzzz")


def wait_until(check, timeout: float = 30.0) -> bool:
    """Until `check()` holds (True), or False after `timeout`: a bound on a failure only, never a pace to keep."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)  # (a real process's state, polled)
    return False


def test_the_table_screen_in_a_real_terminal_cursor_escape_and_one_key_neigh(terminal):
    term = terminal("--no-camera", module=True)
    term.wait_for("No game yet")
    term.keys("ug rainbow aura", "Enter")  # the braille abbreviation of Rainbow Aura (an Upgrade)
    term.wait_for("Type: Upgrade card")
    assert wait_until(lambda: term.cursor() == (0, term.row_of("Rainbow Aura"))), term.screen()
    term.keys("Escape")
    assert wait_until(lambda: "Speech" in term.screen().splitlines()[1]), term.screen()  # the status line's feedback
    screen = term.screen()
    assert "Rainbow Aura" in screen and "Type: Upgrade card" in screen, "Escape left the answer"
    assert wait_until(lambda: term.cursor() == (0, term.row_of("Rainbow Aura"))), term.screen()
    for line in ("new game Ana Ben Cy babies red pink narwhal", "draw", "play basic blue"):
        term.keys(line, "Enter")
    term.wait_for("Any Neigh for Ana's Basic Unicorn (Blue)?")
    term.keys("2")  # one key: Ben Neighs
    term.wait_for("Ben played Neigh.")
    term.wait_for("Pile, top first: Ben's Neigh and Ana's Basic Unicorn (Blue).")
    assert wait_until(lambda: term.cursor() == (0, term.row_of("Ben played Neigh."))), term.screen()
    term.keys("s", "3")  # two keys sent at once: Cy plays a Super Neigh; the cursor still ends on the answer
    term.wait_for("Cy played Super Neigh.")
    assert wait_until(lambda: term.cursor() == (0, term.row_of("Cy played Super Neigh."))), term.screen()
    term.keys("Escape", "0")  # sent together: Escape, then 0 (resolve), never Alt+0
    term.wait_for("Cy's Super Neigh resolves")
    screen = term.screen()
    assert "º" not in screen and "Traceback" not in screen
    assert wait_until(lambda: term.cursor() == (0, term.row_of("Cy's Super Neigh resolves"))), term.screen()
    status = term.screen().split("Card name, abbreviation or command")[0]
    assert "Speech stopped." not in status, "Escape ran after the 0 it came before: it stopped the 0's answer"
    term.keys("C-q")


def test_the_real_app_offers_the_saved_game_at_start_and_yes_continues_it(terminal):
    term = terminal("--no-camera", "--no-speech", module=True)
    term.wait_for("No game yet")
    term.keys("new game Ana Ben Cy", "Enter")
    term.wait_for("Turn 1: Ana goes first.")
    term.keys("draw", "Enter")
    term.wait_for("Ana drew a card.")
    term.keys("C-q")
    term.close()
    again = terminal("--no-camera", "--no-speech", module=True)
    again.wait_for("Say yes to continue it")
    assert "Ana, Ben and Cy is saved" in again.screen().replace("\n", " ")
    again.keys("yes", "Enter")
    again.wait_for("Turn 1, Ana's Action phase.")
    assert wait_until(lambda: again.cursor() == (0, again.row_of("Continuing the game"))), again.screen()
    again.keys("C-q")


def test_the_terminal_cursor_is_shown_where_a_braille_display_reads(terminal):
    """Textual hides the terminal's cursor; the app shows it again (steady), so tmux, a screen reader and a
    braille display that follow the cursor find it on the answer."""
    term = terminal("--no-camera", module=True)
    term.wait_for("No game yet")

    def shown() -> bool:
        flag = [*term.tmux, "display", "-p", "-t", term.name, "#{cursor_flag}"]
        return subprocess.run(flag, capture_output=True, text=True).stdout.strip() == "1"

    assert wait_until(shown), term.screen()
    term.keys("C-q")


def test_lines_typed_while_the_app_starts_are_kept_whole_and_in_order(terminal, private_home):
    """Lines typed before the app takes the terminal reach it through the terminal's line discipline, which turns
    Enter into a line feed: each is still sent on its own ("new game Ana Ben" then "tally"), never run together. The
    keys are typed once the process holds its saved games (the start-up it shows), before the screen is drawn."""
    term = terminal("--no-speech", "--no-camera", module=True)
    lock = private_home / "data" / "games" / "lock"
    deadline = time.monotonic() + 30
    while not (lock.exists() and lock.read_text(errors="replace").strip()):
        assert time.monotonic() < deadline, "the app never took its saved games"
        time.sleep(0.002)  # (the app's process starting, polled)
    term.keys("new game Ana Ben", "Enter", "tally", "Enter")
    screen = term.wait_for("Unicorns: Ana 0, Ben 0")
    assert "New game: Ana and Ben" in screen or "Turn 1: Ana goes first." in screen
    assert "Bentally" not in screen
