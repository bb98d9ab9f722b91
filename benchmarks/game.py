"""Game tracker speed: one event applied and written to disk (fsync), and resuming a 10,000-event game.

Run as `.venv/bin/python -m benchmarks.game` (`--json` for the raw figures, `--events N`, `--dir FOLDER` to
measure on another disk). Saves are written in a temporary folder beside the player's data directory, so the
disk is the one real saves go to. Exits 1 when a goal is missed: under 5 ms per event (p99), resume under 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from assistant.core.cards.lookup import resolve_name
from assistant.core.game.events import Destroy, Draw, EndTurn, Event, Play, Resolve, Respond, Sacrifice
from assistant.core.language.lobby import Lobby
from assistant.core.language.verbs import parse_command
from assistant.storage.decks import load_card_set
from assistant.storage.paths import user_data_dir
from assistant.storage.saves import GameStore, encode_line
from benchmarks import logs

EVENT_GOAL_MS = 5.0
RESUME_GOAL_S = 1.0
PLAYERS = ("Ana", "Ben", "Cy", "Dee")
BASICS = ["basic-unicorn-red", "basic-unicorn-orange", "basic-unicorn-yellow", "basic-unicorn-green"]
OTHERS = ["rainbow-aura", "yay", "slowdown", "claw-machine", "ginormous-unicorn", "pandamonium", "unicorn-poison"]


def game_events(count: int) -> list[Event]:
    """A long, plausible game: turns of draw, play (sometimes Neighed, three Neighs deep), resolve, the odd
    destroy and sacrifice so Stables stay the size of a real game's, and end turn."""
    out: list[Event] = []
    stables: list[list[str]] = [[] for _ in PLAYERS]
    turn = 0
    while len(out) < count:
        seat = turn % len(PLAYERS)
        other = (seat + 1) % len(PLAYERS)
        out.append(Draw(seat))
        card = (BASICS + OTHERS)[turn % (len(BASICS) + len(OTHERS))]
        out.append(Play(seat, card, seat if card != "unicorn-poison" else None))
        neighs = turn % 4
        for n in range(neighs):
            out.append(Respond((seat + 1 + n) % len(PLAYERS), "neigh"))
        out.extend([Resolve()] * (neighs // 2 + 1))
        if neighs % 2 == 0:
            if card == "unicorn-poison":
                out.append(Resolve())  # the Magic card's link
            else:
                stables[seat].append(card)
        if len(stables[seat]) > 4:
            out.append(Sacrifice(seat, stables[seat].pop(0)))
        if turn % 5 == 0 and stables[other]:
            out.append(Destroy(seat, stables[other].pop(), other))
        out.append(EndTurn())
        turn += 1
    return out[:count]


def new_tracker(cards, folder: Path) -> Lobby:
    tracker = Lobby(cards, lambda query: resolve_name(cards, query), store=GameStore(folder))
    command = parse_command("new game Ana Ben Cy Dee babies red pink narwhal blue rules uu-five win 50")
    said = tracker.new_game(command)
    assert tracker.game is not None, said
    return tracker


def measure_events(cards, folder: Path, count: int) -> list[float]:
    """Milliseconds per event: check, apply, write and fsync, and the words announced."""
    tracker = new_tracker(cards, folder)
    times = []
    for event in game_events(count):
        start = time.perf_counter()
        tracker.game.check(event)
        tracker.talk.record(event)
        times.append((time.perf_counter() - start) * 1000)
    return times


def write_long_game(cards, folder: Path, count: int) -> None:
    """A save of `count` events, written in one go (how it was written does not matter to reading it)."""
    tracker = new_tracker(cards, folder)
    path = tracker.store.last_path()
    lines = [encode_line({"n": n, "r": e.to_dict()}) for n, e in enumerate(game_events(count), start=1)]
    with open(path, "ab") as out:
        out.write(b"".join(lines))


def measure_resume(cards, folder: Path, repeats: int = 5) -> list[float]:
    """Seconds to read, check and replay the save, `repeats` times."""
    times = []
    for _ in range(repeats):
        tracker = Lobby(cards, lambda query: resolve_name(cards, query), store=GameStore(folder))
        start = time.perf_counter()
        said = tracker.resume()
        times.append(time.perf_counter() - start)
        assert said.lines[-1].startswith("Continuing"), said
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000, help="events timed one by one (default 2000)")
    parser.add_argument("--resume-events", type=int, default=10_000, help="events in the resumed game")
    parser.add_argument("--dir", type=Path, default=None, help="where to write saves (default: the data dir's disk)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path (20 events, a 50-event game resumed); exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.events, args.resume_events = 20, 50
    cards = load_card_set("uu-2nd")
    base = args.dir or user_data_dir().parent
    base.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=base, prefix="bench-games-") as tmp:
        per_event = measure_events(cards, Path(tmp) / "events", args.events)
        write_long_game(cards, Path(tmp) / "long", args.resume_events)
        resume = measure_resume(cards, Path(tmp) / "long")
    figures = {
        "events": args.events,
        "event_median_ms": round(statistics.median(per_event), 3),
        "event_p99_ms": round(percentile(per_event, 0.99), 3),
        "event_max_ms": round(max(per_event), 3),
        "resume_events": args.resume_events,
        "resume_median_s": round(statistics.median(resume), 3),
        "resume_max_s": round(max(resume), 3),
    }
    ok = figures["event_p99_ms"] < EVENT_GOAL_MS and figures["resume_median_s"] < RESUME_GOAL_S
    figures["goals_met"] = ok
    if args.json:
        print(logs.dumps(figures, indent=2))
    else:
        print(
            f"Event applied and written (fsync), {args.events} events: median {figures['event_median_ms']} ms, "
            f"p99 {figures['event_p99_ms']} ms, max {figures['event_max_ms']} ms (goal: under {EVENT_GOAL_MS} ms)"
        )
        print(
            f"Resume a {args.resume_events}-event game: median {figures['resume_median_s']} s, "
            f"max {figures['resume_max_s']} s (goal: under {RESUME_GOAL_S} s)"
        )
        print("Goals met." if ok else "A goal was missed.")
    return 0 if ok or args.smoke else 1


if __name__ == "__main__":
    sys.exit(main())
