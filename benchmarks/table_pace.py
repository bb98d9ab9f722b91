"""A whole short game heard at table pace: is every decisive fact heard in full when the next key comes 1.2 s later?

Run as `.venv/bin/python -m benchmarks.table_pace` (`--json`, `--decks uu-2nd llamas`, `--modes brief normal
coaching`, `--interval S`, `--backend`). The real app runs in a pseudo-terminal (`python -m assistant --no-camera
--deck D`, as `benchmarks/app.py` runs it) with ALSA's `file` plugin as its sound device (`benchmarks/capture.py`).
Its player is real aplay paced as a sound card plays (`AlsaCapture.paced_player`: aplay into the capture, then the
sound's own length), so a sentence takes its time and the next key can cut it. The app runs in a small wrapper
(`--child`) that notes, for each sentence played, when its player started, how long its sound is and whether it
played to its end (exit 0) or was cut off (killed); nothing else of the app is changed.

The games (`GAMES`, `--decks`): in Unstable Unicorns, a new game, turns of draw, play, the one-key answer 0, end
turn, a warning answered with the one key n, a digit pressed with no card on the pile, a win, an undo and the win
again; in Llamas Unleashed, turns up to a Herd Bonus offered at the beginning of a turn, then the win. Each step is
typed as a keyboard sends it; at table pace its last key (Enter, or the one key) comes `--interval` seconds after
the one before, whatever is being said, save a step that acts on the reply before (`Game.heard_first`), which
comes no sooner than that reply's decisive fact has been heard: the answer to a question (nobody answers what they
have not heard) and the draw of a turn that begins with a duty or a Herd Bonus (the rules put the Beginning of Turn
phase before the Draw phase; `--eager` sends that draw at pace too); at listening pace the app is left to finish
speaking first. A session alongside gives each step's reply (and its decisive fact,
`Reply.decisive`).

Measures, per verbosity and pace:
- decisive facts heard in full: a reply's decisive fact counts when each of its sentences was played to its end
  after its key, alone or within a longer sentence ("Ben's turn." in "Turn 2: Ben's turn.") (goal 100 %);
- key to first audio byte: each key to the next sound's first byte (median, p90; goal p90 150 ms; with `--json`
  each key's too);
- replies never heard: replies none of whose sentences (nor its decisive fact) reached the device (goal 0);
- seconds of speech: played per turn, and at listening pace the length of each ordinary reply (draw, play,
  resolve, end turn; goals `LENGTH_GOALS`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
#: The games, by deck: the lines typed (Enter ends each) or one key, and how many turns they hold.
#: Unstable Unicorns: "0" with no card on the pile misfires on purpose.
UNICORNS = [
    "new game Ana Ben babies red pink win 3",
    "draw",
    "play basic blue",
    "0",
    "end turn",
    "0",  # no card on the pile: explained, not typed
    "draw",
    "Ana play basic red",  # not Ana's turn: a warning asks
    "n",  # one key: not recorded
    "end turn",
    "draw",
    "play basic yellow",
    "0",  # Ana has 3 Unicorns: she wins
    "undo",
    "0",  # the win again
]
#: Llamas Unleashed: a Herd Bonus offered at the beginning of a turn, then the win.
LLAMAS = [
    "new game Ana Ben babies alpaca llama win 4",
    "draw",
    "play basic alpaca",
    "0",
    "end turn",
    "draw",
    "play basic llama",
    "0",
    "end turn",
    "draw",
    "play basic alpaca",
    "0",
    "end turn",
    "draw",
    "end turn",  # Ana has 3 Alpacas: the Alpaca Herd Bonus is offered
    "draw",
    "play basic alpaca",
    "0",  # Ana has 4 Animals: she wins
]


class Game(NamedTuple):
    steps: list[str]
    turns: int
    heard_first: frozenset[int]
    """The steps that come only once the reply before was heard (its decisive fact played in full)."""
    duties: frozenset[int] = frozenset()
    """Of those, the ones that wait for a turn's duties rather than a question (sent at pace with `--eager`)."""


GAMES = {
    "uu-2nd": Game(UNICORNS, turns=4, heard_first=frozenset({8})),  # Ana, Ben, Ana, the win again; the answer n
    "llamas": Game(LLAMAS, turns=5, heard_first=frozenset({15}), duties=frozenset({15})),  # the draw after the Herd
}
#: The steps that are ordinary replies (their length is the brief/normal goal), by how the line they stand for
#: begins (a play by another player than the turn's is not one: it is warned about).
ORDINARY = ("draw", "play ", "resolve", "end turn")
#: What a one-key step stands for, for the session alongside (None: the app answers it alone).
ONE_KEY: dict[str, str | None] = {"0": "resolve", "n": "n"}
QUIET_S = 0.8
FIRST_BYTE_GOAL_MS = 150.0
#: Seconds of speech an ordinary reply may take, by verbosity (coaching keeps its explanations).
#: The goals are "about 1.2 s" and "about 2.5 s": the brief goal is the length of a brief outcome such as "Ana: 2
#: Unicorns." (1.49 s in espeak-ng at the default rate, "Unicorns" alone 0.6 s), the normal one 2.5 s and a tenth.
LENGTH_GOALS = {"brief": 1.5, "normal": 2.6}


def child(log: str, deck: str) -> int:
    """Run the app, noting each sentence played: its start, its length, and whether it played to its end."""
    from assistant.cli import main as app_main
    from assistant.speech import backends
    from assistant.speech.player import Player

    lock = threading.Lock()
    out = open(log, "a", encoding="utf-8")
    paced = Player(("sh", "-c", 'aplay -q "$1" && exec sleep "$(soxi -D "$1")"', "player"))
    start, wait = backends.WavBackend._start, backends.WavBackend._wait
    labels: dict[int, tuple[str, float, float]] = {}

    def noting_start(self, player, path, wanted, label):  # type: ignore[no-untyped-def]
        seconds = max(0.0, (Path(path).stat().st_size - 44) / 44100)  # 16-bit mono 22050 Hz WAV
        process = start(self, paced, path, wanted, label)
        if process is not None:
            labels[process.pid] = (label, time.perf_counter(), seconds)
        return process

    def noting_wait(self, process, player):  # type: ignore[no-untyped-def]
        wait(self, process, player)
        label, began, seconds = labels.pop(process.pid, ("", 0.0, 0.0))
        record = {"text": label, "start": began, "end": time.perf_counter(), "seconds": seconds,
                  "whole": process.returncode == 0}  # fmt: skip
        with lock:
            out.write(json.dumps(record) + "\n")
            out.flush()

    backends.WavBackend._start = noting_start  # type: ignore[method-assign]
    backends.WavBackend._wait = noting_wait  # type: ignore[method-assign]
    return app_main(["--no-camera", "--deck", deck])


class App:
    """The app in a pseudo-terminal, through the child wrapper; its sound in an ALSA capture."""

    def __init__(self, folder: Path, backend: str, verbosity: str, deck: str) -> None:
        import pty

        from benchmarks.capture import AlsaCapture, FirstBytes

        self.capture = AlsaCapture(folder / "capture")
        self.log = folder / "played.jsonl"
        home = folder / "app-home"
        _write_settings(home, backend, verbosity)
        env = {**os.environ, "HOME": str(self.capture.home), "TABLE_ASSISTANT_HOME": str(home),
               "TERM": "xterm-256color", "TABLE_ASSISTANT_SCREEN_READER": "none"}  # fmt: skip
        env.pop("SPEECHD_ADDRESS", None)
        self.first_bytes = FirstBytes(self.capture)
        self.leader, follower = pty.openpty()
        self.process = subprocess.Popen([sys.executable, "-m", "benchmarks.table_pace", "--child", str(self.log),
                                         "--decks", deck],
                                        stdin=follower, stdout=follower, stderr=follower, env=env,
                                        start_new_session=True, cwd=ROOT)  # fmt: skip
        os.close(follower)
        self.drawn = threading.Event()
        """Set once the app has drawn its screen (keys typed before that reach no Textual input)."""
        threading.Thread(target=_drain, args=(self.leader, self.drawn), daemon=True).start()

    def ready(self) -> None:
        """Wait until the screen is drawn and the greeting said."""
        if not self.drawn.wait(30):
            raise SystemExit("The app never drew its screen.")
        self.quiet()

    def played(self) -> list[dict]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines() if line.strip()]

    def quiet(self) -> None:
        """Wait until nothing is playing (every sound that began has ended) and nothing began for `QUIET_S`."""
        seen, since = (-1, -1), time.monotonic()
        while time.monotonic() - since < QUIET_S:
            time.sleep(0.05)
            now = (self.first_bytes.count, len(self.played()))
            if now != seen or now[0] > now[1]:
                seen, since = now, time.monotonic()

    def heard(self, sentences: list[str], since: float, timeout: float = 15.0) -> float:
        """When each of `sentences` had been played to its end (within a sentence played after `since`); `since`
        + `timeout` if that never happens."""
        while time.perf_counter() < since + timeout:
            ends = [[p["end"] for p in self.played() if p["start"] >= since and p["whole"] and s in p["text"]]
                    for s in sentences]  # fmt: skip
            if all(ends):
                return max(min(e) for e in ends)
            time.sleep(0.02)
        return since + timeout

    def type(self, step: str) -> None:
        """Everything of a step but its last key (a line's letters, typed fast)."""
        if len(step) > 1:
            os.write(self.leader, step.encode())

    def last_key(self, step: str) -> float:
        """Its last key (Enter, or the one key); the moment it was sent."""
        moment = time.perf_counter()
        os.write(self.leader, b"\r" if len(step) > 1 else step.encode())
        return moment

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.leader)
        self.first_bytes.close()


def _write_settings(home: Path, backend: str, verbosity: str) -> None:
    from assistant.core.speech.settings import SpeechSettings
    from assistant.storage.settings import save_settings

    previous = os.environ.get("TABLE_ASSISTANT_HOME")
    os.environ["TABLE_ASSISTANT_HOME"] = str(home)
    try:
        save_settings(SpeechSettings(speech="on", backend=backend, earcons=False, player="aplay", verbosity=verbosity))
    finally:
        if previous is None:
            os.environ.pop("TABLE_ASSISTANT_HOME", None)
        else:
            os.environ["TABLE_ASSISTANT_HOME"] = previous


def _drain(fd: int, drawn: threading.Event) -> None:
    """Read the screen (unread but for the region heading that says it is drawn)."""
    try:
        while chunk := os.read(fd, 65536):
            if b"Pile and chain" in chunk:
                drawn.set()
    except OSError:
        pass


def shadow_replies(deck: str, verbosity: str) -> list:
    """Each step's reply from a session alongside, at the same verbosity (None where the app answers alone)."""
    from assistant.commands.app import table_session
    from assistant.core.language.reply import Verbosity
    from assistant.storage.decks import load_card_set

    session = table_session(load_card_set(deck), verbosity=Verbosity(verbosity))
    replies: list = []
    for step in GAMES[deck].steps:
        line = ONE_KEY.get(step, step) if len(step) == 1 else step
        game = session.game
        if step == "0" and (game is None or not game.state.pile):
            replies.append(None)  # a misfire: the app explains it, the session never sees it
            continue
        replies.append(session.handle(line or step))
    return replies


def play(folder: Path, backend: str, deck: str, verbosity: str, interval: float | None, eager: bool = False) -> dict:
    """One game of `deck`; `interval` None is listening pace. The figures."""
    from assistant.core.speech.queue import split_sentences

    game, turns, heard_first, duties = GAMES[deck]
    if eager:
        heard_first -= duties
    replies = shadow_replies(deck, verbosity)
    app = App(folder, backend, verbosity, deck)
    keys: list[float] = []
    try:
        app.ready()  # the screen drawn, the greeting said
        greeting = len(app.played())
        for step in game:
            app.type(step)
            if interval is None:
                app.quiet()
            else:
                due = keys[-1] + interval if keys else 0.0
                before = replies[len(keys) - 1] if len(keys) in heard_first else None
                if before is not None and before.decisive:  # nobody acts on what they have not heard
                    due = max(due, app.heard(split_sentences(before.decisive), keys[-1]))
                time.sleep(max(0.0, due - time.perf_counter()))
            keys.append(app.last_key(step))
        app.quiet()
        played = app.played()[greeting:]
        first_bytes = [t for t in app.first_bytes.times if t >= keys[0]]
    finally:
        app.close()
    to_first = [(min((t for t in first_bytes if t >= key), default=key + 10) - key) * 1000 for key in keys]
    decisive, heard_in_full, never = [], [], []
    lengths: list[float] = []
    for n, reply in enumerate(replies):
        if reply is None:
            continue
        after = [p for p in played if p["start"] >= keys[n]]
        whole = {p["text"] for p in after if p["whole"]}
        begun = {p["text"] for p in after}
        sentences = split_sentences(reply.speech) + split_sentences(reply.brief) + split_sentences(reply.decisive)
        if not any(s in begun for s in sentences):
            never.append(f"{n} {game[n]}")
        if reply.decisive:
            decisive.append(f"{n} {game[n]}")
            if all(any(s in text for text in whole) for s in split_sentences(reply.decisive)):
                heard_in_full.append(f"{n} {game[n]}")
        line = ONE_KEY.get(game[n], game[n]) if len(game[n]) == 1 else game[n]
        if (
            line and line.startswith(ORDINARY) and not reply.decisive
        ):  # (a resolve that wins, an end turn: decisive, not ordinary)
            lengths.append(sum(p["seconds"] for p in after if p["start"] < (keys[n + 1] if n + 1 < len(keys) else 1e18)
                               and p["text"] in split_sentences(reply.speech)))  # fmt: skip
    return {
        "deck": deck,
        "verbosity": verbosity,
        "pace": "listening" if interval is None else f"{interval} s",
        "keys": len(keys),
        "key_to_first_byte_ms": {
            "median": round(statistics.median(to_first), 1),
            "p90": round(statistics.quantiles(to_first, n=10)[-1], 1),
            "max": round(max(to_first), 1),
        },
        "key_to_first_byte_ms_each": {f"{n} {step}": round(ms, 1) for n, (step, ms) in enumerate(zip(game, to_first))},
        "decisive_facts": len(decisive),
        "decisive_heard_in_full": len(heard_in_full),
        "decisive_missed": [s for s in decisive if s not in heard_in_full],
        "replies_never_heard": never,
        "speech_played_s_per_turn": round(sum(p["end"] - p["start"] for p in played) / turns, 2),
        "speech_given_s_per_turn": round(sum(p["seconds"] for p in played) / turns, 2),
        "ordinary_reply_s": [round(v, 2) for v in lengths],
        "sentences_played": len(played),
        "sentences_cut": sum(1 for p in played if not p["whole"]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--decks", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--eager", action="store_true", help="a turn's first draw at pace, its duties heard or not")
    parser.add_argument("--modes", nargs="+", default=["brief", "normal"], choices=["brief", "normal", "coaching"])
    parser.add_argument("--interval", type=float, default=1.2, help="seconds between keys at table pace")
    parser.add_argument("--backend", choices=["pyttsx3", "espeak-ng"], default="espeak-ng")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child, args.decks[0])
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-pace-") as folder:
        for deck in args.decks:
            for mode in args.modes:
                for interval in (args.interval, None):
                    name = f"{deck}-{mode}-{'table' if interval else 'listening'}"
                    runs.append(play(Path(folder) / name, args.backend, deck, mode, interval, args.eager))
    if args.json:
        print(json.dumps(runs, indent=2))
    else:
        for run in runs:
            first = run["key_to_first_byte_ms"]
            print(f"{run['deck']}, {run['verbosity']}, {run['pace']}: decisive facts heard in full "
                  f"{run['decisive_heard_in_full']}/{run['decisive_facts']} {run['decisive_missed'] or ''}; "
                  f"key to first byte median "
                  f"{first['median']} ms, p90 {first['p90']} ms; replies never heard {len(run['replies_never_heard'])}"
                  f" {run['replies_never_heard'] or ''}; speech played {run['speech_played_s_per_turn']} s a turn "
                  f"(given {run['speech_given_s_per_turn']} s); ordinary replies {run['ordinary_reply_s']} s; "
                  f"{run['sentences_cut']} of {run['sentences_played']} sentences cut")  # fmt: skip
    missed = any(r["decisive_missed"] or r["replies_never_heard"] for r in runs)
    slow = any(r["key_to_first_byte_ms"]["p90"] > FIRST_BYTE_GOAL_MS for r in runs)
    long = any(max(r["ordinary_reply_s"], default=0) > LENGTH_GOALS.get(r["verbosity"], 1e9) for r in runs
               if r["pace"] == "listening")  # fmt: skip
    return 1 if missed or slow or long else 0


if __name__ == "__main__":
    sys.exit(main())
