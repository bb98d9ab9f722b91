"""The app heard: a key pressed in the real Textual app to the first audio byte of its reply at the sound device.

Run as `.venv/bin/python -m benchmarks.app` (`--json` for the raw figures, `--runs N` start-ups, `--backend`).
The app runs as a player runs it (`python -m assistant --no-camera`, in a pseudo-terminal), with ALSA's `file`
plugin as its sound device (`benchmarks/capture.py`), so real aplay writes what it plays into numbered files,
one per sentence played; a watcher notes when each file's first byte arrives (`FirstBytes`). Keys are written to
the terminal as a keyboard sends them; each is timed from its last byte (Enter, or the one key of a one-key answer)
to the first byte of the next sentence played. That sentence is checked against the transcript the app writes
(`transcript` setting): it must be the start of the reply the same line gets from a session alongside.

Measures:
- start-up: the app started to its first screen (the region heading "Pile and chain" drawn) and to the first audio
  byte of its first spoken sentence (the greeting), each start beside a bare `import textual.app` in a fresh
  interpreter timed in the same run (the floor of any Textual app), with the load average at the time;
- typed card look-ups: a card's name typed, Enter to the first byte of its reply;
- a game at the table: new game, then turns of draw, play, the one-key answer 0 (no Neigh) and end turn; each key
  to the first byte of its reply, one-key answers apart.

Earcons are off, so each sound played is a sentence. Before each key the app is left to finish speaking, so the
figures are the latency of one reply, not of a queue (`benchmarks/speech.py` measures table pace).
Exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks import logs
from benchmarks.speech import FIRST_BYTE_GOAL_MS, STARTUP_GOAL_S, read_transcript, summary

ROOT = Path(__file__).resolve().parents[1]
#: The game played: each step a line typed (Enter ends it) or a one-key answer (a single digit).
GAME = ["new game Ana Ben Cy babies red pink narwhal win 7"]
for _colour in ("blue", "red", "yellow", "green", "purple"):
    GAME += ["draw", f"play basic {_colour}", "0", "end turn"]
#: What a one-key answer stands for, for the session alongside.
ONE_KEY = {"0": "resolve"}
#: How long without a new sentence means the app has finished speaking.
QUIET_S = 0.6


def typed(leader: int, step: str) -> bytes:
    """Type a step as a keyboard sends it, all but its last key: a line is typed, then a pause as a person types
    (its last key is Enter); one character is a one-key answer (it is its own last key). The last key, to send."""
    if len(step) == 1:
        return step.encode()
    os.write(leader, step.encode())
    time.sleep(0.15)  # typed before Enter, as a person types
    return b"\r"


class RunningApp:
    """The app in a pseudo-terminal, its sound in an ALSA capture, its transcript in a file."""

    def __init__(self, folder: Path, backend: str, *arguments: str, settings: dict[str, object] | None = None) -> None:
        """`arguments`: the app's command-line arguments besides `--no-camera`; `settings`: other settings than the
        benchmark's own (`pty_start.write_settings`)."""
        from benchmarks.capture import AlsaCapture, FirstBytes
        from benchmarks.pty_start import app_env, drain_in_background, start, write_settings

        self.capture = AlsaCapture(folder / "capture")
        self.transcript = folder / "said.txt"
        home = folder / "app-home"
        write_settings(home, backend=backend, transcript=str(self.transcript), **(settings or {}))
        env = app_env(self.capture.home, home)
        self.first_bytes = FirstBytes(self.capture)
        command = [sys.executable, "-m", "assistant", "--no-camera", *arguments]
        self.drawn = threading.Event()
        self.leader, self.process, self.began = start(command, env)
        self.reader = drain_in_background(self.leader, self.drawn)  # the screen, unread but for its first drawing
        self.drawn_at: float | None = None
        self._noting = threading.Thread(target=self._note_drawn, daemon=True)
        self._noting.start()

    def _note_drawn(self) -> None:
        if self.drawn.wait(20):
            self.drawn_at = time.perf_counter()

    def shown(self) -> float:
        """Seconds from starting the app to its first screen (read once the first sentence is heard)."""
        self._noting.join(20)
        if self.drawn_at is None:
            raise SystemExit("The app never drew its screen in 20 s.")
        return self.drawn_at - self.began

    def started(self) -> float:
        """Seconds from starting the app to the first byte of its first sentence."""
        moment = self.first_bytes.wait(1, 20)
        if moment is None:
            raise SystemExit("The app never spoke: no sound reached the capture in 20 s.")
        return moment - self.began

    def quiet(self) -> None:
        """Wait until no new sentence has started for `QUIET_S`."""
        self.first_bytes.quiet(QUIET_S)

    def said_lines(self) -> list[str]:
        if not self.transcript.exists():
            return []
        return [text for _, kind, text in read_transcript(self.transcript) if not kind.startswith("notice")]

    def press(self, step: str) -> tuple[float, str]:
        """Type a step as a keyboard would; milliseconds from its last key to the first byte of the next sentence,
        and the first thing said after the key (from the transcript)."""
        self.quiet()
        said_before = len(self.said_lines())
        plays = self.first_bytes.count
        key = typed(self.leader, step)
        began = time.perf_counter()
        os.write(self.leader, key)
        moment = self.first_bytes.wait(plays + 1, 10)
        if moment is None:
            raise SystemExit(f"Nothing was heard after {step!r}.")
        self.quiet()
        said = self.said_lines()[said_before:]
        return (moment - began) * 1000, said[0] if said else ""

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.leader)
        self.first_bytes.close()


def bare_textual_import() -> float:
    """Seconds a fresh interpreter takes to import `textual.app` and exit: the floor under any Textual app's start."""
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import textual.app"], check=True, cwd=ROOT)
    return time.perf_counter() - began


def one_start(folder: Path, backend: str) -> tuple[float, float, float]:
    """One start of the app beside a bare Textual import: (to the first screen, to the first spoken byte, the bare
    import), seconds."""
    bare = bare_textual_import()
    app = RunningApp(folder, backend)
    try:
        spoken = app.started()
        return app.shown(), spoken, bare
    finally:
        app.close()


def expected_start(speech: str) -> str:
    """The first words a reply's first sentence starts with (the transcript line may be one sentence of it)."""
    return " ".join(speech.split()[:3])


def run(folder: Path, backend: str, count: int, steps: int | None = None) -> dict:
    """One app run: start-up, typed look-ups, and the game (its first `steps` steps; None: all); the figures."""
    from assistant.session import Session
    from assistant.storage.decks import load_card_set

    cards = load_card_set("uu-2nd")
    titles = sorted(card.name for card in cards)
    app = RunningApp(folder, backend)
    figures: dict = {"wrong_sentence": []}
    try:
        figures["startup_s"] = round(app.started(), 3)
        figures["first_screen_s"] = round(app.shown(), 3)
        shadow = Session(cards)  # the same lines, for the reply each should get
        look_ups = []
        for n in range(count):
            name = titles[(n * 7) % len(titles)]
            span, said = app.press(name)
            reply = shadow.handle(name)
            if not said.startswith(expected_start(reply.speech)):
                figures["wrong_sentence"].append((name, said[:60]))
            look_ups.append(span)
        typed: list[float] = []
        one_key: list[float] = []
        for step in GAME[:steps]:
            span, said = app.press(step)
            reply = shadow.handle(ONE_KEY.get(step, step))
            if not said.startswith(expected_start(reply.speech)):
                figures["wrong_sentence"].append((step, said[:60]))
            (one_key if step in ONE_KEY else typed).append(span)
        figures["look_up"] = summary(look_ups)
        figures["game_typed"] = summary(typed)
        figures["game_one_key"] = summary(one_key)
        figures["all_keys"] = summary(look_ups + typed + one_key)
    finally:
        app.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30, help="typed card look-ups (default 30)")
    parser.add_argument("--runs", type=int, default=3, help="app start-ups (default 3; the first also plays)")
    parser.add_argument("--backend", choices=["pyttsx3", "espeak-ng"], default="pyttsx3")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: one start, 2 look-ups, one turn; exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.count, args.runs = 2, 1
    for program in ("aplay",):
        if not shutil.which(program):
            raise SystemExit(f"{program} is needed (alsa-utils): it plays into ALSA's file plugin here.")
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-app-") as folder:
        bares = [round(bare_textual_import(), 3)]
        figures = run(Path(folder) / "run-0", args.backend, args.count, 5 if args.smoke else None)
        startups, screens = [figures.pop("startup_s")], [figures.pop("first_screen_s")]
        for n in range(1, args.runs):
            screen, spoken, bare = one_start(Path(folder) / f"run-{n}", args.backend)
            screens.append(round(screen, 3))
            startups.append(round(spoken, 3))
            bares.append(round(bare, 3))
    figures["startup_s"] = startups
    figures["first_screen_s"] = screens
    figures["bare_textual_import_s"] = bares
    figures["screen_to_bare"] = round(statistics.median(screens) / statistics.median(bares), 2)
    figures["load"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]
    figures["backend"] = args.backend
    goals = {
        "key_to_first_byte": figures["all_keys"]["p90_ms"] <= FIRST_BYTE_GOAL_MS,
        "startup": statistics.median(startups) <= STARTUP_GOAL_S,
        "right_sentence": not figures["wrong_sentence"],
    }
    figures["goals"] = goals
    figures["goals_met"] = all(goals.values())
    if args.json:
        print(logs.dumps(figures, indent=2))
    else:
        print_figures(figures)
    return 0 if figures["goals_met"] or args.smoke else 1


def print_figures(figures: dict) -> None:
    def line(label: str, key: str) -> str:
        f = figures[key]
        return f"{label}, {f['count']}: median {f['median_ms']} ms, p90 {f['p90_ms']} ms, max {f['max_ms']} ms"

    print(f"The app heard through ALSA's file plugin, {figures['backend']} backend")
    print(line("Key to first audio byte, all keys", "all_keys") + f" (goal: p90 {FIRST_BYTE_GOAL_MS:.0f} ms)")
    print(line("  typed card names, Enter", "look_up"))
    print(line("  game commands typed, Enter", "game_typed"))
    print(line("  one-key answers (0, no Neigh)", "game_one_key"))
    print(
        f"App start to its first screen, {len(figures['first_screen_s'])} runs: {figures['first_screen_s']} s; "
        f"a bare import of textual.app in the same run: {figures['bare_textual_import_s']} s (medians' ratio "
        f"{figures['screen_to_bare']}); load average {figures['load'][0]} before, {figures['load'][1]} after"
    )
    print(f"App start to its first spoken byte, {len(figures['startup_s'])} runs: {figures['startup_s']} s "
          f"(goal: median {STARTUP_GOAL_S} s)")  # fmt: skip
    wrong = figures["wrong_sentence"]
    print("Every key's first sentence was its reply's." if not wrong else f"Wrong first sentence: {wrong}")
    goals = figures["goals"]
    print("Goals met." if figures["goals_met"] else
          "A goal was missed: " + ", ".join(k for k, v in goals.items() if not v) + ".")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
