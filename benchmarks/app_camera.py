"""The app heard with its camera running: a key to the first audio byte of its reply with the camera scanning a
card-rich clip, against the camera off, and the event loop's longest stall while it scans.

Run as `.venv/bin/python -m benchmarks.app_camera` (`--rounds N`, `--clip FILE` to reuse a rendered clip,
`--backend`, `--keep FOLDER` for the logs, `--json`). The real app runs as a player runs it, in a pseudo-terminal
(as `benchmarks/app.py` and `benchmarks/table_pace.py` run it), with ALSA's `file` plugin as its sound device
(`benchmarks/capture.py`: real aplay writes each sentence into a numbered file; a watcher notes when each file's
first byte arrives), in two conditions:

- **camera on**: `--camera-clip CLIP`, the app's camera fed from a recorded clip through the same interface a
  webcam has (`sources.ClipCapture` read by `sources.Webcam`: a reader thread, the newest frame only, the clip at
  its own 30 frames a second, from the start again at its end), so every frame goes through the app's own camera
  thread, frame path and background stage in its worker process, as with a webcam;
- **camera off**: `--no-camera`.

The clip (`render_clip`) is card-rich: hand clips of the **evaluation camera** (`benchmarks/camera_model.py`, never
tuned on; `HandPlayer` seeds `CLIP_SEEDS`), each a different card of the 2nd Edition brought in from an edge
(motion blur while it moves), held a moment with a tremor and taken away, one after another at 1280 by 720, so
the scanner is always at work: codes coming into view, read, announced, leaving.

The conditions alternate in one run (`--rounds` rounds; each round runs both, the first of the two alternating
from round to round), so the machine's load is shared between them; only one app runs at a time, so the camera
off is not measured beside a scanning app. Each round starts the app afresh, waits until its screen is drawn and
its greeting said and then `WARM_S` more (the stage's worker process started, the clip playing), and plays the same
ordinary commands (`STEPS`: card names typed, then a game: new game, draw, play, the one-key answer 0, end turn)
at table pace: each key once the app is quiet (nothing new said for `QUIET_S`) and no sooner than `PACE_S` after
the one before. Each is timed from its last key (Enter, or the one key) to the first audio byte of the next
sentence played. The app runs in a small wrapper (`--child`) that notes each sentence as its player starts and
each reply the app makes to its camera (`ui.camera.camera_reply`: a card announced, an aiming cue), so the sentence
heard first is known: a key whose first sentence belongs to a reply to the camera given since the second before
the key (said just before the key's own reply) is not counted, and the count is reported with what was said. The
sentence heard first is also compared with the reply the same line gets from a session alongside (the first 30
characters); a key counted whose sentence differs is listed (`unlike_shadow`): with the camera on, cards the
camera read go into the app's session, which the session alongside does not see.

The wrapper also runs a watch on the app's own asyncio event loop (the Textual app's): a task that sleeps
`TICK_S` again and again and notes each time it woke more than `STALL_NOTE_MS` late. **Stall**: the longest it
woke late, from the warm-up's end to the last key, per condition, with the loop thread's own CPU time in it and its
time runnable but waiting for a core (Linux's scheduler statistics; the rest is time it was blocked: the disk, a
lock, the interpreter held by another thread, or a virtual machine's core taken by its host); *between keys* leaves
out the second after each key (the app's own work on the key and its reply), leaving what the camera's work costs
the loop.

Figures: median, p90 and max per condition, and the differences (goal: camera-on p90 within `GOAL_P90_DIFF_MS`
of camera-off's; stall at most `GOAL_STALL_MS`). The load average is read before and after. Exits 1 when a goal
is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks import logs

ROOT = Path(__file__).resolve().parents[1]
#: The hand clips the camera-on app scans (evaluation camera), each with its own card (`CLIP_CARDS`).
CLIP_SEEDS = tuple(range(300, 310))
CLIP_CARDS = (
    "rainbow-aura",
    "unicorn-poison",
    "basic-unicorn-red",
    "neigh",
    "super-neigh",
    "glitter-bomb",
    "ginormous-unicorn",
    "back-kick",
    "targeted-destruction",
    "yay",
)
#: Card names typed, then a game, as in `benchmarks/app.py`; one-character steps are one-key answers.
LOOK_UPS = ["Rainbow Aura", "Unicorn Poison", "Glitter Bomb", "Back Kick", "Yay"]
GAME = ["new game Ana Ben Cy babies red pink narwhal win 7"]
for _colour in ("blue", "red", "yellow", "green"):
    GAME += ["draw", f"play basic {_colour}", "0", "end turn"]
STEPS = LOOK_UPS + GAME
ONE_KEY = {"0": "resolve"}
CONDITIONS = {"camera on": "clip", "camera off": None}
QUIET_S, PACE_S, WARM_S = 0.6, 1.2, 3.0
#: The smoke run's warm-up (its three keys come once the stage's worker has had a second to start) and its voice,
#: at its fastest (it waits for each reply to be said).
SMOKE_WARM_S = 1.0
SMOKE_SPEECH: dict[str, object] = {"rate": 100}
TICK_S, STALL_NOTE_MS = 0.005, 5.0
#: Seconds after a key during which the loop's stalls are the key's own work (left out of "between keys").
KEY_WORK_S = 1.0
GOAL_P90_DIFF_MS, GOAL_STALL_MS = 20.0, 50.0


def render_clip(path: Path, seeds: tuple[int, ...] = CLIP_SEEDS, every: int = 1) -> int:
    """Write the card-rich clip (MJPG at 30 frames a second, 1280 by 720); the number of frames. `every`: only every
    `every`-th frame of each hand clip (the hand moves that much faster; a frame takes some 0.1 s to render)."""
    import cv2

    from assistant.core.scanning.payloads import label_payload
    from benchmarks import camera_model as M

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), M.FPS, (M.WIDTH, M.HEIGHT))
    count = 0
    try:
        for n, seed in enumerate(seeds):
            for shot in M.hand_clip(seed, label_payload("uu-2nd", CLIP_CARDS[n % len(CLIP_CARDS)]))[::every]:
                writer.write(M.render(shot))
                count += 1
    finally:
        writer.release()
    return count


# The wrapper the app runs in.


def run_queue_wait() -> Callable[[], float]:
    """For the calling thread: a function giving the seconds it has waited, runnable, for a core (Linux's
    scheduler statistics, `/proc/thread-self/schedstat`, its second field); elsewhere, always 0."""
    try:
        descriptor = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
    except OSError:
        return lambda: 0.0
    return lambda: int(os.pread(descriptor, 100, 0).split()[1]) / 1e9


def child(log: str, arguments: list[str]) -> int:
    """Run the app with `arguments`, noting in `log` (JSON lines) each sentence as its player starts (`play`: the
    moment, the text) and each time the event loop woke late (`stall`: milliseconds, the moment it woke)."""
    from assistant.cli import main as app_main
    from assistant.speech import backends
    from assistant.ui.app import TableApp

    lock = threading.Lock()
    out = open(log, "a", encoding="utf-8")

    def write(record: dict) -> None:
        with lock:
            out.write(logs.dumps(record) + "\n")
            out.flush()

    start = backends.WavBackend._start

    def noting_start(self, player, path, wanted, label):  # type: ignore[no-untyped-def]
        write({"play": time.perf_counter(), "text": label})
        return start(self, player, path, wanted, label)

    async def watch() -> None:
        queued = run_queue_wait()
        while True:
            before, cpu, waited = time.perf_counter(), time.thread_time(), queued()
            await asyncio.sleep(TICK_S)
            woke = time.perf_counter()
            late = (woke - before - TICK_S) * 1000
            if late > STALL_NOTE_MS:
                cpu_ms, queued_ms = (time.thread_time() - cpu) * 1000, (queued() - waited) * 1000
                write({"stall": round(late, 2), "at": woke, "cpu": round(cpu_ms, 2), "queued": round(queued_ms, 2)})

    from assistant.ui import camera

    replying = camera.camera_reply

    def noting_reply(session, event):  # type: ignore[no-untyped-def]
        reply = replying(session, event)
        write({"camera": time.perf_counter(), "speech": reply.speech})
        return reply

    camera.camera_reply = noting_reply
    mounted = TableApp.on_mount
    tasks: list[asyncio.Task] = []

    def watched_mount(self):  # type: ignore[no-untyped-def]
        mounted(self)
        tasks.append(asyncio.get_running_loop().create_task(watch()))

    backends.WavBackend._start = noting_start  # type: ignore[method-assign]
    TableApp.on_mount = watched_mount  # type: ignore[method-assign]
    return app_main(arguments)


class App:
    """The app in a pseudo-terminal through the wrapper; its sound in an ALSA capture."""

    def __init__(
        self, folder: Path, backend: str, arguments: list[str], settings: dict[str, object] | None = None
    ) -> None:
        from benchmarks.capture import AlsaCapture, FirstBytes
        from benchmarks.pty_start import app_env, drain_in_background, start, write_settings

        self.capture = AlsaCapture(folder / "capture")
        self.log = folder / "app.jsonl"
        home = folder / "app-home"
        write_settings(home, backend=backend, transcript=str(folder / "said.txt"), **(settings or {}))
        env = app_env(self.capture.home, home)
        self.first_bytes = FirstBytes(self.capture)
        command = [sys.executable, "-m", "benchmarks.app_camera", "--child", str(self.log), "--", *arguments]
        self.leader, self.process, _ = start(command, env)
        self.drawn = threading.Event()
        drain_in_background(self.leader, self.drawn)

    def records(self) -> list[dict]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines() if line.strip()]

    def ready(self, warm: float) -> None:
        """Wait until the screen is drawn, then `warm` seconds, then quiet."""
        if not self.drawn.wait(60):
            raise SystemExit("The app never drew its screen.")
        time.sleep(warm)
        self.quiet()

    def quiet(self) -> None:
        """Wait until no new sentence has started for `QUIET_S`."""
        self.first_bytes.quiet(QUIET_S)

    def press(self, step: str) -> tuple[float, float | None]:
        """Type a step as a keyboard would: the moment its last key was sent, and the moment the first byte of the
        next sentence arrived (None: nothing within 10 s)."""
        from benchmarks.app import typed

        key = typed(self.leader, step)
        plays = self.first_bytes.count
        began = time.perf_counter()
        os.write(self.leader, key)
        return began, self.first_bytes.wait(plays + 1, 10)

    def first_said(self, after: float) -> tuple[str, bool]:
        """The text of the first sentence whose player started after `after`, and whether it is the camera's: a
        sentence of a reply to the camera (a card it announced, an aiming cue) given since the key before."""
        records = self.records()
        plays = [r for r in records if "play" in r and r["play"] >= after]
        if not plays:
            return "", False
        first = min(plays, key=lambda r: r["play"])
        text = " ".join(first["text"].split())
        camera = [" ".join(r["speech"].split()) for r in records
                  if "camera" in r and after - KEY_WORK_S <= r["camera"] <= first["play"]]  # fmt: skip
        return first["text"], any(text and text in speech for speech in camera)

    def stalls(self, start: float, end: float) -> list[tuple[float, float, float, float]]:
        """(moment, milliseconds late, the loop's own CPU milliseconds meanwhile, its milliseconds waiting for a
        core) of each late wake-up between `start` and `end`."""
        return [(r["at"], r["stall"], r["cpu"], r["queued"]) for r in self.records()
                if "stall" in r and start <= r["at"] <= end]  # fmt: skip

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.leader)
        self.first_bytes.close()


def starts_reply(said: str, speech: str) -> bool:
    """Whether the sentence heard first is the start of the reply `speech` (or the reply the start of it, for a
    reply shorter than a sentence): the two agree over their first 30 characters, or the shorter one's length."""
    said, speech = " ".join(said.split()), " ".join(speech.split())
    n = min(len(said), len(speech), 30)
    return n > 0 and said[:n] == speech[:n]


def longest(
    stalls: list[tuple[float, float, float, float]], keys: list[float] | None = None
) -> tuple[float, float, float]:
    """The longest stall, the loop's own CPU in it and its wait for a core; with `keys`, leaving out those within
    `KEY_WORK_S` after a key."""
    kept = [s[1:] for s in stalls if keys is None or not any(0 <= s[0] - k <= KEY_WORK_S for k in keys)]
    ms, cpu, queued = max(kept, default=(0.0, 0.0, 0.0))
    return round(ms, 1), round(cpu, 1), round(queued, 1)


def block(folder: Path, backend: str, clip: Path | None, smoke: bool = False) -> dict:
    """One start of the app with the camera on the clip (or off), `WARM_S` after its greeting, every step played;
    its spans, stalls and keys whose first sentence was not the reply. `smoke`: `SMOKE_WARM_S`, the first three
    steps, the voice at its fastest (`SMOKE_SPEECH`)."""
    from assistant.session import Session
    from assistant.storage.decks import load_card_set

    arguments = ["--camera-clip", str(clip)] if clip is not None else ["--no-camera"]
    app = App(folder, backend, arguments, SMOKE_SPEECH if smoke else None)
    spans: list[float] = []
    other_first: list[tuple[str, str]] = []
    unlike: list[tuple[str, str, str]] = []
    keys: list[float] = []
    try:
        app.ready(SMOKE_WARM_S if smoke else WARM_S)
        began = time.perf_counter()
        shadow = Session(load_card_set("uu-2nd"))
        last = 0.0
        for step in STEPS[: 3 if smoke else None]:
            app.quiet()
            if (wait := last + PACE_S - time.perf_counter()) > 0:
                time.sleep(wait)
            key, heard = app.press(step)
            last = key
            keys.append(key)
            reply = shadow.handle(ONE_KEY.get(step, step))
            if heard is None:
                other_first.append((step, "(nothing heard in 10 s)"))
                continue
            app.quiet()
            said, cameras = app.first_said(key)
            if cameras:
                other_first.append((step, said[:70]))
                continue
            spans.append((heard - key) * 1000)
            if not starts_reply(said, reply.speech):
                unlike.append((step, said[:70], reply.speech[:70]))
        ended = time.perf_counter()
        stalls = app.stalls(began, ended)
    finally:
        app.close()
    return {"spans": spans, "other_first": other_first, "unlike": unlike, "stalls": stalls, "keys": keys}


def summary(spans: list[float]) -> dict:
    from benchmarks.speech import percentile

    if not spans:
        return {"count": 0}
    return {
        "count": len(spans),
        "median_ms": round(statistics.median(spans), 1),
        "p90_ms": round(percentile(spans, 0.9), 1),
        "max_ms": round(max(spans), 1),
    }


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "?"


def measure(folder: Path, backend: str, rounds: int, clip: Path | None, smoke: bool = False) -> dict:
    """Every round, both conditions alternating; the figures per condition and their differences. `smoke`: a clip
    of one card (every third frame), three steps a block, `SMOKE_WARM_S` of warm-up."""
    report: dict = {"backend": backend, "rounds": rounds, "load_before": load()}
    if clip is None:
        clip = folder / "card-rich.avi"
        seeds = CLIP_SEEDS[:1] if smoke else CLIP_SEEDS
        frames = render_clip(clip, seeds, 3 if smoke else 1)
        report["clip"] = f"evaluation camera hand clips, seeds {seeds[0]} to {seeds[-1]}, {frames} frames"
    else:
        report["clip"] = str(clip)
    runs: dict[str, list[dict]] = {name: [] for name in CONDITIONS}
    for n in range(rounds):
        order = list(CONDITIONS) if n % 2 == 0 else list(reversed(CONDITIONS))
        for name in order:
            runs[name].append(
                block(
                    folder / f"round-{n}-{name.replace(' ', '-')}",
                    backend,
                    clip if CONDITIONS[name] else None,
                    smoke,
                )
            )
    report["load_after"] = load()
    for name, blocks in runs.items():
        spans = [s for b in blocks for s in b["spans"]]
        stalls = [s for b in blocks for s in b["stalls"]]
        stall_ms, stall_cpu_ms, stall_queued_ms = longest(stalls)
        report[name] = {
            **summary(spans),
            "other_first": [o for b in blocks for o in b["other_first"]],
            "unlike_shadow": [u for b in blocks for u in b["unlike"]],
            "stall_ms": stall_ms,
            "stall_cpu_ms": stall_cpu_ms,
            "stall_queued_ms": stall_queued_ms,
            "stall_between_keys_ms": max((longest(b["stalls"], b["keys"])[0] for b in blocks), default=0.0),
        }
    on, off = report["camera on"], report["camera off"]
    if on["count"] and off["count"]:
        report["difference_ms"] = {k: round(on[k] - off[k], 1) for k in ("median_ms", "p90_ms", "max_ms")}
        report["goals"] = {
            "p90 within +20 ms": report["difference_ms"]["p90_ms"] <= GOAL_P90_DIFF_MS,
            "stall at most 50 ms": on["stall_ms"] <= GOAL_STALL_MS,
        }
    return report


def print_report(report: dict) -> None:
    print(
        f"The app heard with its camera on a card-rich clip ({report['clip']}) and off; {report['rounds']} rounds, "
        f"{report['backend']}; load average {report['load_before']} before, {report['load_after']} after."
    )
    for name in CONDITIONS:
        f = report[name]
        if not f["count"]:
            print(f"{name}: no key counted")
            continue
        print(
            f"{name}, {f['count']} keys: key to first audio byte median {f['median_ms']} ms, p90 {f['p90_ms']} ms, "
            f"max {f['max_ms']} ms; loop stall {f['stall_ms']} ms (its own CPU {f['stall_cpu_ms']} ms, waiting for a "
            f"core {f['stall_queued_ms']} ms; "
            f"{f['stall_between_keys_ms']} ms between keys); "
            f"{len(f['other_first'])} keys heard something else first"
        )
    if "difference_ms" in report:
        d = report["difference_ms"]
        print(
            f"on minus off: median {d['median_ms']:+} ms, p90 {d['p90_ms']:+} ms, max {d['max_ms']:+} ms "
            f"(goal: p90 within +{GOAL_P90_DIFF_MS:.0f} ms; stall at most {GOAL_STALL_MS:.0f} ms)"
        )
        print(", ".join(f"{goal}: {'met' if met else 'missed'}" for goal, met in report["goals"].items()))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child(argv[1], argv[3:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each with the camera on and off (3)")
    parser.add_argument("--clip", type=Path, help="a clip to scan instead of rendering the card-rich one")
    parser.add_argument("--backend", choices=["pyttsx3", "espeak-ng"], default="espeak-ng")
    parser.add_argument("--keep", type=Path, help="keep each run's logs (the app's plays, stalls, camera replies) here")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: one round, a clip of one card (every third frame), a second's warm-up, "
        "three keys a start; exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.rounds = 1
    if not shutil.which("aplay"):
        raise SystemExit("aplay is needed (alsa-utils): it plays into ALSA's file plugin here.")
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        report = measure(args.keep, args.backend, args.rounds, args.clip)
    else:
        with tempfile.TemporaryDirectory(prefix="bench-app-camera-") as folder:
            report = measure(Path(folder), args.backend, args.rounds, args.clip, args.smoke)
    if args.json:
        print(logs.dumps(report, indent=2))
    else:
        print_report(report)
    return 0 if args.smoke or all(report.get("goals", {"measured": False}).values()) else 1


if __name__ == "__main__":
    sys.exit(main())
