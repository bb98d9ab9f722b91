"""Speech latency, heard: from a call (or a key) to the first audio byte of the right sentence at the sound device.

Run as `.venv/bin/python -m benchmarks.speech` (`--json` for the raw figures, `--count N`, `--backend espeak-ng`,
`--skip-startup`). There is no sound card here: ALSA's `file` plugin is the sound device
(`benchmarks/capture.py`), so real aplay writes the samples it plays into numbered files, one per opening of
the device, and a watcher thread notes the moment each file's first byte arrives (polled every 0.5 ms). Which file
is which sentence is the player that began starting last before that first byte (`WavBackend.starting_hook`;
players run one after the other), so a player cut off just after it started, but heard, counts, and one never
heard does not.

Measures:
- say() to the first byte, a one-line card name and the longest card text, with the time the player process
  started beside it (the previous method's figure, from the same runs);
- interrupt() to the next sentence's first byte, while the next sentence renders and while one plays;
- table pace: a scripted game through `Session.handle` and the real `ReplySpeaker`, one command every 1.2 s for
  20 commands; each key to its reply's first byte, the last reply's start after its key, the slowest reply's,
  and order violations (a sentence heard after one from a later reply). `table_pace(handle, speak, ...)` takes
  any handle and speaker, so the same run can drive the app;
- start-up: the app started in a pseudo-terminal to the first byte of its first spoken sentence;
- how long the calling thread is held in say(), interrupt() and new_input().

The earcons and the sentences are both played by the same player into the capture. ALSA's null device takes
samples as fast as they come, so a sentence "plays" as long as its sound only with the paced player (aplay, then
a wait as long as the sound: `AlsaCapture.paced_player`), used where duration matters (interrupts, table pace).
Exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from assistant.core.speech.queue import split_sentences
from assistant.core.words.cardtext import card_title, describe_card
from assistant.speech import SpeechService
from assistant.speech.backends import EspeakBackend, Pyttsx3Backend, WavBackend
from assistant.speech.earcons import EarconChannel, write_earcons
from assistant.speech.player import Player
from assistant.speech.replies import ReplySpeaker
from assistant.storage.decks import load_card_set
from benchmarks import logs
from benchmarks.capture import AlsaCapture, FirstBytes

FIRST_BYTE_GOAL_MS = 100.0
INTERRUPT_GOAL_MS = 50.0
BLOCKED_GOAL_MS = 2.0
LAST_REPLY_GOAL_MS = 1000.0
STARTUP_GOAL_S = 1.5

#: The table-pace game: 20 commands, a plain game of three players, each turn a Basic Unicorn of its own colour.
TABLE_LINES = ["new game Ana Ben Cy babies red pink narwhal win 7"]
for _colour in ("blue", "red", "yellow", "green"):
    TABLE_LINES += ["draw", f"play basic {_colour}", "resolve", "end turn"]
TABLE_LINES += ["draw", "play basic purple", "resolve"]


def read_transcript(path: Path | str) -> list[tuple[str, str, str]]:
    """The lines of a transcript (`assistant/speech/transcript.py`) as (time, kind and marks, text), for the tests
    and the benchmarks."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        stamp, label, text = line.split("\t", 2)
        out.append((stamp, label, text))
    return out


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def summary(spans: list[float]) -> dict:
    return {"median_ms": round(statistics.median(spans), 1), "p90_ms": round(percentile(spans, 0.9), 1),
            "max_ms": round(max(spans), 1), "count": len(spans)}  # fmt: skip


class Heard:
    """A speech service whose sound goes into an ALSA capture, with each player start and first byte timed."""

    def __init__(self, backend_name: str, capture: AlsaCapture, player: Player, earcons: bool = False) -> None:
        maker = Pyttsx3Backend if backend_name == "pyttsx3" else EspeakBackend
        self.backend: WavBackend = maker(player)
        self.backend.started_hook = self._started
        self.backend.starting_hook = self._starting
        self.starting: list[tuple[float, str]] = []
        """Each player about to start: the moment, and what it plays (`WavBackend.played`'s label)."""
        self.capture = capture
        self.first_bytes = FirstBytes(capture)
        self._starts: list[float] = []
        self._changed = threading.Condition()
        channel = EarconChannel(player, write_earcons(capture.folder / "earcons")) if earcons else None
        self.service = SpeechService(self.backend, earcons=channel)
        if not self.service.ready.wait(10) or self.service.backend is not self.backend:
            raise SystemExit(f"The {backend_name} backend cannot be opened here: {self.service.notices}")
        self.blocked: list[float] = []
        """Milliseconds the calling thread spent in each call made through `call`."""

    def _started(self) -> None:
        with self._changed:
            self._starts.append(time.perf_counter())
            self._changed.notify_all()

    def _starting(self, label: str) -> None:
        self.starting.append((time.perf_counter(), label))

    def heard_since(self, starts: int, first_bytes: int) -> list[tuple[float, str]]:
        """Each sound that reached the device since then: its first byte's moment and what it was. A sound is
        the last player that began starting before its first byte (players run one after the other), so a player
        cut off just after it started, but heard, is counted, and one that never reached the device is not."""
        begun = self.starting[starts:]
        heard = []
        for moment in self.first_bytes.times[first_bytes:]:
            labels = [label for began, label in begun if began <= moment]
            heard.append((moment, labels[-1] if labels else ""))
        return heard

    def first_byte_of(self, text: str, starts: int, first_bytes: int, timeout: float = 10.0) -> float:
        """The moment the first sound of `text` (a sentence) since then reached the device, waiting for it: the
        first byte to arrive once its player began starting. (Not the sound whose player began last before a byte:
        on a loaded machine the next sentence's player may begin starting before this one's first byte arrives.)"""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            began = next((at for at, label in self.starting[starts:] if label.split("] ", 1)[-1] == text), None)
            if began is not None:
                after = [moment for moment in self.first_bytes.times[first_bytes:] if moment >= began]
                if after:
                    return after[0]
            time.sleep(0.001)
        heard = [label for _, label in self.heard_since(starts, first_bytes)]
        raise SystemExit(f"{text!r} was never heard: {heard}")

    def player_started(self, count: int) -> float:
        """The moment the `count`-th player process started (the previous method's end point)."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self._starts) >= count, 10):
                raise SystemExit("A player never started: the engine or the player is not working.")
            return self._starts[count - 1]

    @property
    def plays(self) -> int:
        return len(self.backend.played)

    def call(self, method, *args) -> float:
        """Call a service method; note how long the caller was held; return the moment it was called."""
        start = time.perf_counter()
        method(*args)
        self.blocked.append((time.perf_counter() - start) * 1000)
        return start

    def close(self) -> None:
        self.service.close()
        self.first_bytes.close()


def measure_first_byte(heard: Heard, texts: list[str]) -> tuple[list[float], list[float]]:
    """Milliseconds from say() to the first audio byte, and to the player started, one utterance at a time."""
    to_byte, to_start = [], []
    for text in texts:
        count, starts, first_bytes = heard.plays, len(heard.starting), heard.first_bytes.count
        said = heard.call(heard.service.say, text)
        to_byte.append((heard.first_byte_of(split_sentences(text)[0], starts, first_bytes) - said) * 1000)
        to_start.append((heard.player_started(count + 1) - said) * 1000)
        heard.service.wait_idle(30)
    return to_byte, to_start


def measure_interrupt(heard: Heard, long_text: str, texts: list[str], pause: float) -> list[float]:
    """Milliseconds from interrupt() to the next sentence's first byte; the interrupt comes `pause` seconds after
    the long text's first sentence's first byte."""
    spans = []
    first_sentence = split_sentences(long_text)[0]
    for text in texts:
        starts, first_bytes = len(heard.starting), heard.first_bytes.count
        heard.call(heard.service.say, long_text)
        heard.first_byte_of(first_sentence, starts, first_bytes)
        time.sleep(pause)
        interrupted = heard.call(heard.service.interrupt, text)
        spans.append((heard.first_byte_of(text, starts, first_bytes) - interrupted) * 1000)
        heard.service.stop()
        heard.service.wait_idle(10)
    return spans


def match_replies(played: Sequence[str], replies: Sequence) -> tuple[list[int | None], int]:
    """Which reply each play belongs to (None when it cannot be placed), and how many plays were heard after a
    later reply's (order violations). A play is a sentence of a reply's speech or its brief form, the earcon's
    name before it when the two share a file."""
    owners: list[int | None] = []
    position, violations = 0, 0
    for label in played:
        text = label.split("] ", 1)[-1] if label.startswith("[") else label

        def holds(index: int, text: str = text) -> bool:
            reply = replies[index]
            return text in split_sentences(reply.speech) or text == getattr(reply, "brief", None)

        later = next((n for n in range(position, len(replies)) if holds(n)), None)
        if later is None:
            owners.append(None)
            if any(holds(n) for n in range(position)):
                violations += 1
            continue
        owners.append(later)
        position = later
    return owners, violations


def table_pace(
    handle: Callable[[str], object],
    speak: Callable[[object], None],
    heard: Heard,
    lines: Sequence[str] = TABLE_LINES,
    interval: float = 1.2,
) -> dict:
    """Type `lines` one every `interval` seconds: `handle(line)` gives the reply, `speak(reply)` says it (the app
    would do both on Enter). Return each key's time to its reply's first audio byte (None when the reply was
    dropped as stale), the last reply's start after its key, the order violations and what was dropped."""
    start_starts = len(heard.starting)
    start_bytes = heard.first_bytes.count
    keys, replies = [], []
    began = time.perf_counter()
    for n, line in enumerate(lines):
        time.sleep(max(0.0, began + n * interval - time.perf_counter()))
        keys.append(time.perf_counter())
        reply = handle(line)
        replies.append(reply)
        heard.call(speak, reply)
    if not heard.service.wait_idle(120):
        raise SystemExit("Speech never caught up.")
    time.sleep(0.2)  # the last sound's first byte is seen by the watcher
    sounds = heard.heard_since(start_starts, start_bytes)
    played = [label for _, label in sounds]
    moments = [moment for moment, _ in sounds]
    owners, violations = match_replies(played, replies)
    first: dict[int, float] = {}
    for owner, moment in zip(owners, moments, strict=True):
        if owner is not None and owner not in first:
            first[owner] = moment
    to_start = [(first[n] - keys[n]) * 1000 if n in first else None for n in range(len(lines))]
    heard_lines = [n for n in range(len(lines)) if n in first]
    return {
        "commands": len(lines),
        "interval_s": interval,
        "key_to_first_byte_ms": [round(v, 1) if v is not None else None for v in to_start],
        "last_reply_start_ms": round(to_start[-1], 1) if to_start[-1] is not None else None,
        "slowest_reply_start_ms": round(max(v for v in to_start if v is not None), 1),
        "replies_heard": len(heard_lines),
        "replies_dropped": len(lines) - len(heard_lines),
        "important_replies": sum(1 for r in replies if getattr(r, "important", False)),
        "important_heard": sum(1 for n in heard_lines if getattr(replies[n], "important", False)),
        "order_violations": violations,
        "unplaced_plays": sum(1 for o in owners if o is None),
        "sentences_played": len(played),
        "sentences_given": sum(len(split_sentences(getattr(r, "speech", ""))) for r in replies),
        "last_heard_at_s": round(moments[-1] - keys[0], 2) if moments else None,
    }


def measure_startup(capture: AlsaCapture, runs: int, command: Sequence[str] | None = None) -> list[float]:
    """Seconds from starting the app (in a pseudo-terminal, as a player would) to the first audio byte of its
    first spoken sentence. `command` defaults to the Textual app without a camera."""
    from benchmarks.pty_start import app_env, drain_in_background, start

    command = list(command or [sys.executable, "-m", "assistant", "--no-camera"])
    spans = []
    for run in range(runs):
        home = capture.folder / f"startup-{run}"
        home.mkdir()
        before = len(capture.plays())
        leader, process, began = start(command, app_env(capture.home, home))
        drain_in_background(leader)  # the app's screen, unread
        try:
            while time.perf_counter() - began < 20:
                plays = capture.plays()[before:]
                if plays and plays[0].stat().st_size > 0:
                    spans.append(time.perf_counter() - began)
                    break
                time.sleep(0.001)
            else:
                raise SystemExit("The app never spoke: no sound reached the capture in 20 s.")
        finally:
            process.kill()
            process.wait()
            os.close(leader)
    return spans


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="utterances per latency measure (default 100)")
    parser.add_argument("--backend", choices=["pyttsx3", "espeak-ng"], default="pyttsx3")
    parser.add_argument("--skip-startup", action="store_true", help="do not start the app")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: 6 utterances a measure, 3 commands at table pace, no app started; "
        "exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.count, args.skip_startup = 6, True
    for program in ("aplay", "soxi"):
        if not shutil.which(program):
            raise SystemExit(f"{program} is needed (alsa-utils, sox): it plays into ALSA's file plugin here.")
    cards = load_card_set("uu-2nd")
    all_cards = sorted(cards, key=lambda card: card.id)
    titles = [card_title(card, cards.vocabulary) for card in all_cards]
    names = [titles[n % len(titles)] for n in range(args.count)]
    longest = max(all_cards, key=lambda card: len(card.text))
    long_text = describe_card(longest, cards.vocabulary)

    with tempfile.TemporaryDirectory(prefix="bench-speech-") as folder:
        figures: dict = {"backend": args.backend, "count": args.count, "long_card_text_chars": len(long_text)}
        blocked: list[float] = []

        capture = AlsaCapture(Path(folder) / "plain")
        heard = Heard(args.backend, capture, capture.player())
        try:
            to_byte, to_start = measure_first_byte(heard, names)
            long_byte, long_start = measure_first_byte(heard, [long_text] * max(args.count // 5, 5))
        finally:
            heard.close()
        blocked += heard.blocked
        figures["first_byte_card_name"] = summary(to_byte)
        figures["player_started_card_name"] = summary(to_start)
        figures["first_byte_long_card_text"] = summary(long_byte)
        figures["player_started_long_card_text"] = summary(long_start)

        capture = AlsaCapture(Path(folder) / "paced")
        heard = Heard(args.backend, capture, capture.paced_player())
        try:
            figures["interrupt_mid_render"] = summary(
                measure_interrupt(heard, long_text, names[: args.count // 2], 0.0)
            )
            figures["interrupt_while_playing"] = summary(
                measure_interrupt(heard, long_text, names[: args.count // 2], 0.05)
            )
        finally:
            heard.close()
        blocked += heard.blocked

        from assistant.session import Session

        capture = AlsaCapture(Path(folder) / "table")
        heard = Heard(args.backend, capture, capture.paced_player(), earcons=True)
        try:
            session = Session(cards)
            lines = TABLE_LINES[:3] if args.smoke else TABLE_LINES
            pace = table_pace(session.handle, ReplySpeaker(heard.service), heard, lines)
        finally:
            heard.close()
        blocked += heard.blocked
        figures["table_pace"] = pace

        if not args.skip_startup:
            capture = AlsaCapture(Path(folder) / "startup")
            figures["startup_s"] = [round(s, 3) for s in measure_startup(capture, 5)]

        figures["caller_blocked_calls"] = len(blocked)
        figures["caller_blocked_median_ms"] = round(statistics.median(blocked), 3)
        figures["caller_blocked_p99_ms"] = round(percentile(blocked, 0.99), 3)
        figures["caller_blocked_max_ms"] = round(max(blocked), 3)

    last = pace["last_reply_start_ms"]
    goals = {
        "first_byte": figures["first_byte_card_name"]["p90_ms"] <= FIRST_BYTE_GOAL_MS,
        "interrupt": max(figures["interrupt_mid_render"]["p90_ms"], figures["interrupt_while_playing"]["p90_ms"])
        < INTERRUPT_GOAL_MS,
        "last_reply": last is not None and last <= LAST_REPLY_GOAL_MS,
        # whichever command came last: every reply heard started within the same second of its key
        "every_reply": pace["slowest_reply_start_ms"] <= LAST_REPLY_GOAL_MS,
        "order": pace["order_violations"] == 0,
        "caller_blocked": figures["caller_blocked_max_ms"] < BLOCKED_GOAL_MS,
    }
    if "startup_s" in figures:
        goals["startup"] = statistics.median(figures["startup_s"]) <= STARTUP_GOAL_S
    figures["goals"] = goals
    figures["goals_met"] = all(goals.values())
    if args.json:
        print(logs.dumps(figures, indent=2))
    else:
        print_figures(figures)
    return 0 if figures["goals_met"] or args.smoke else 1


def print_figures(figures: dict) -> None:
    def line(label, key):
        f = figures[key]
        return f"{label}: median {f['median_ms']} ms, p90 {f['p90_ms']} ms, max {f['max_ms']} ms"

    print(f"Speech heard through ALSA's file plugin, {figures['backend']} backend, {figures['count']} per measure")
    print(
        line("say() to first audio byte, card name", "first_byte_card_name")
        + f" (goal: p90 {FIRST_BYTE_GOAL_MS:.0f} ms)"
    )
    print(line("  previous method, say() to player started", "player_started_card_name"))
    print(line(f"say() to first audio byte, longest card text ({figures['long_card_text_chars']} chars)",
               "first_byte_long_card_text"))  # fmt: skip
    print(line("  previous method, say() to player started", "player_started_long_card_text"))
    print(line("interrupt() to next sentence's first byte, while the next sentence renders", "interrupt_mid_render"))
    print(line("interrupt() to next sentence's first byte, while a sentence plays", "interrupt_while_playing")
          + f" (goal: p90 under {INTERRUPT_GOAL_MS:.0f} ms)")  # fmt: skip
    pace = figures["table_pace"]
    heard = [v for v in pace["key_to_first_byte_ms"] if v is not None]
    print(f"Table pace, {pace['commands']} commands every {pace['interval_s']} s: last reply started "
          f"{pace['last_reply_start_ms']} ms after its key (goal: {LAST_REPLY_GOAL_MS:.0f} ms), the slowest "
          f"{pace['slowest_reply_start_ms']} ms; "
          f"order violations {pace['order_violations']}; replies heard {pace['replies_heard']} "
          f"(important {pace['important_heard']} of {pace['important_replies']}), dropped as stale "
          f"{pace['replies_dropped']}; sentences played {pace['sentences_played']} "
          f"of {pace['sentences_given']}")  # fmt: skip
    if heard:
        print(f"  key to its reply's first byte, replies heard: median {statistics.median(heard):.1f} ms, "
              f"p90 {percentile(heard, 0.9):.1f} ms, max {max(heard):.1f} ms")  # fmt: skip
    if "startup_s" in figures:
        print(f"App start to its first spoken byte, {len(figures['startup_s'])} runs: {figures['startup_s']} s "
              f"(goal: median {STARTUP_GOAL_S} s)")  # fmt: skip
    print(f"Calling thread held, {figures['caller_blocked_calls']} calls: median {figures['caller_blocked_median_ms']} "
          f"ms, p99 {figures['caller_blocked_p99_ms']} ms, max {figures['caller_blocked_max_ms']} ms "
          f"(goal: under {BLOCKED_GOAL_MS:.0f} ms)")  # fmt: skip
    goals = figures["goals"]
    print("Goals met." if figures["goals_met"] else
          "A goal was missed: " + ", ".join(k for k, v in goals.items() if not v) + ".")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
