"""Speech latency: from `say()` to the player process starting, from an interrupt to the next utterance's player
starting, and how long the calling thread is held in `say()` and `interrupt()`.

Run as `.venv/bin/python -m benchmarks.speech` (`--json` for the raw figures, `--count N`, `--backend espeak-ng`).
The engine is the real one (pyttsx3 rendering WAV files by default); the player is `aplay -q -D null` (ALSA's
null device: a real aplay process that needs no sound card) for the first measure, and a stand-in that plays
until it is killed (`sh -c 'exec sleep 600'`) for the interrupt, because aplay on the null device returns at once
and there would be nothing to interrupt. Exits 1 when a goal is missed: first audio of a one-line card name
within 150 ms of `say()` (p90), interrupt to next under 50 ms (p90), the calling thread never held 2 ms or more.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import threading
import time

from assistant.core import words
from assistant.speech import SpeechService
from assistant.speech.backends import EspeakBackend, Pyttsx3Backend
from assistant.speech.player import Player
from assistant.storage.decks import load_card_set

FIRST_AUDIO_GOAL_MS = 150.0
INTERRUPT_GOAL_MS = 50.0
BLOCKED_GOAL_MS = 2.0


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class Timed:
    """A speech service whose backend notes the moment each player process has started."""

    def __init__(self, backend_name: str, player: Player) -> None:
        maker = Pyttsx3Backend if backend_name == "pyttsx3" else EspeakBackend
        self.backend = maker(player)
        self.backend.started_hook = self._started
        self._starts: list[float] = []
        self._changed = threading.Condition()
        self.service = SpeechService(self.backend)
        if not self.service.ready.wait(10) or self.service.backend is not self.backend:
            raise SystemExit(f"The {backend_name} backend cannot be opened here: {self.service.notices}")
        self.blocked: list[float] = []
        """Milliseconds the calling thread spent in each say() or interrupt()."""

    def _started(self) -> None:
        with self._changed:
            self._starts.append(time.perf_counter())
            self._changed.notify_all()

    def next_start(self, count: int) -> float:
        """Wait until `count` players have started; the moment the last of them did."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self._starts) >= count, 10):
                raise SystemExit("A player never started: the engine or the player is not working.")
            return self._starts[count - 1]

    @property
    def started(self) -> int:
        with self._changed:
            return len(self._starts)

    def call(self, method, *args) -> float:
        """Call say or interrupt; note how long the caller was held; return the moment it was called."""
        start = time.perf_counter()
        method(*args)
        self.blocked.append((time.perf_counter() - start) * 1000)
        return start

    def close(self) -> None:
        self.service.close()


def measure_first_audio(backend_name: str, texts: list[str]) -> tuple[list[float], Timed]:
    """Milliseconds from say() to the player process started, one utterance at a time."""
    timed = Timed(backend_name, Player(("aplay", "-q", "-D", "null")))
    spans = []
    try:
        for text in texts:
            count = timed.started
            said = timed.call(timed.service.say, text)
            spans.append((timed.next_start(count + 1) - said) * 1000)
            timed.service.wait_idle(10)
    finally:
        timed.close()
    return spans, timed


def measure_interrupt(backend_name: str, long_text: str, texts: list[str], pause: float) -> tuple[list[float], Timed]:
    """Milliseconds from interrupt() to the next utterance's player started; the interrupt comes `pause` seconds
    after the long text's first sentence started playing."""
    timed = Timed(backend_name, Player(("sh", "-c", "exec sleep 600", "player")))
    spans = []
    try:
        for text in texts:
            count = timed.started
            timed.call(timed.service.say, long_text)
            timed.next_start(count + 1)
            time.sleep(pause)
            interrupted = timed.call(timed.service.interrupt, text)
            spans.append((timed.next_start(count + 2) - interrupted) * 1000)
            timed.service.stop()
            timed.service.wait_idle(10)
    finally:
        timed.close()
    return spans, timed


def summary(spans: list[float]) -> dict:
    return {"median_ms": round(statistics.median(spans), 1), "p90_ms": round(percentile(spans, 0.9), 1),
            "max_ms": round(max(spans), 1)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="utterances per measure (default 100)")
    parser.add_argument("--backend", choices=["pyttsx3", "espeak-ng"], default="pyttsx3")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not shutil.which("aplay"):
        raise SystemExit("aplay is needed (alsa-utils): it plays to ALSA's null device here.")
    cards = load_card_set("uu-2nd")
    all_cards = sorted(cards, key=lambda card: card.id)
    titles = [words.card_title(card, cards.vocabulary) for card in all_cards]
    names = [titles[n % len(titles)] for n in range(args.count)]
    longest = max(all_cards, key=lambda card: len(card.text))
    long_text = words.describe_card(longest, cards.vocabulary)

    first, timed_first = measure_first_audio(args.backend, names)
    first_long, timed_long = measure_first_audio(args.backend, [long_text] * max(args.count // 5, 5))
    mid_render, timed_mid = measure_interrupt(args.backend, long_text, names, pause=0.0)
    playing, timed_playing = measure_interrupt(args.backend, long_text, names, pause=0.05)
    blocked = timed_first.blocked + timed_long.blocked + timed_mid.blocked + timed_playing.blocked
    figures = {
        "backend": args.backend,
        "count": args.count,
        "first_audio_card_name": summary(first),
        "first_audio_long_card_text": summary(first_long),
        "long_card_text_chars": len(long_text),
        "interrupt_to_next_mid_render": summary(mid_render),
        "interrupt_to_next_while_playing": summary(playing),
        "caller_blocked_calls": len(blocked),
        "caller_blocked_median_ms": round(statistics.median(blocked), 3),
        "caller_blocked_p99_ms": round(percentile(blocked, 0.99), 3),
        "caller_blocked_max_ms": round(max(blocked), 3),
    }
    worst_interrupt = max(figures["interrupt_to_next_mid_render"]["p90_ms"],
                          figures["interrupt_to_next_while_playing"]["p90_ms"])  # fmt: skip
    goals = {
        "first_audio": figures["first_audio_card_name"]["p90_ms"] < FIRST_AUDIO_GOAL_MS,
        "interrupt": worst_interrupt < INTERRUPT_GOAL_MS,
        "caller_blocked": figures["caller_blocked_max_ms"] < BLOCKED_GOAL_MS,
    }
    figures["goals"] = goals
    figures["goals_met"] = all(goals.values())
    if args.json:
        print(json.dumps(figures, indent=2))
    else:

        def line(label, key):
            f = figures[key]
            return f"{label}: median {f['median_ms']} ms, p90 {f['p90_ms']} ms, max {f['max_ms']} ms"

        print(f"Speech latency, {args.backend} backend, {args.count} utterances per measure")
        print(line("say() to player started, one-line card name", "first_audio_card_name")
              + f" (goal: under {FIRST_AUDIO_GOAL_MS:.0f} ms)")  # fmt: skip
        print(line(f"say() to player started, longest card text ({len(long_text)} characters)",
                   "first_audio_long_card_text"))  # fmt: skip
        print(line("interrupt() to next player started, while the next sentence renders",
                   "interrupt_to_next_mid_render")
              + f" (goal: under {INTERRUPT_GOAL_MS:.0f} ms)")  # fmt: skip
        print(line("interrupt() to next player started, while a sentence plays", "interrupt_to_next_while_playing")
              + f" (goal: under {INTERRUPT_GOAL_MS:.0f} ms)")  # fmt: skip
        print(
            f"Calling thread held in say()/interrupt(), {len(blocked)} calls: median "
            f"{figures['caller_blocked_median_ms']} ms, p99 {figures['caller_blocked_p99_ms']} ms, "
            f"max {figures['caller_blocked_max_ms']} ms (goal: under {BLOCKED_GOAL_MS:.0f} ms)"
        )
        print("Goals met." if figures["goals_met"] else
              "A goal was missed: " + ", ".join(k for k, v in goals.items() if not v) + ".")  # fmt: skip
    return 0 if figures["goals_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
