"""Card into view → announced, on hand clips: how long a player holding a card up waits for the live path to say it.

Run as `.venv/bin/python -m benchmarks.scanner_hand` (`--clips N`, `--seed SEED`, `--busy N`, `--json`). The clips
are the **evaluation camera**'s (`benchmarks/camera_model.py`, never tuned on), seeds `--seed` on (`FIRST_SEED` unless
told; give seeds never used before, and the report names them): a hand (`camera_model.HandPlayer`) brings a card of the
2nd Edition in from an edge of the picture at 300 to 700 mm/s, slowing as it arrives (motion blur while it moves,
from the hand's speed over the exposure time the light gives), a thumb over part of the card's edge (`Shot.finger`:
anywhere round the outline, reaching 5 to 12 mm in, 15 to 20 mm wide; the code starts 8.4 mm in from the card's long
edges, so a thumb at a side may cover the code's outer modules), then holds it still but for a tremor and a slow
drift for up to `HOLD_S` seconds, following no cue. The light, table, tilt, reflection and JPEG quality are each
clip's own draw. Each clip is rendered at 1280 by 720 and written as an MJPG video, as a webcam sends it.

The live path as the app runs it: `LiveScanner.handle` on each frame, the background stage in its worker process
(`stage_process.ProcessStage`, known labels of every shipped deck, started and ready before the first clip, one for
all clips as in an evening's play), each clip a new hold-up (a scanner of its own); and beside it, on the same clip
right after (or before: the order alternates, so the machine's load falls on both alike), the same path with the
worker on a thread instead (`ProcessStage(thread=True)`, the same scheduler, started at the clip's first frame). Frames
come at 30 a second in real time, as a camera gives them: the loop takes the frame whose time has come (frames it
was too late for are skipped, as the webcam's newest-frame reader does), and each frame is stamped with its own time
in the clip.

**Latency**: from the first frame in which the whole code is in view (`camera_model.code_in_view`) to the frame on
which the scanner reports the card (`CodeAnnounced`, the sighting tracker's announcement): the frame clock of the
clip, which the real-time pacing keeps equal to the wall clock. What the app then does to say it (the session's
reply, the speech engine, the first audio byte) is not in it; `benchmarks/app.py` times that part. Median and p90
over the clips announced, with those never announced while held, and how many were announced on a read of the
background stage; for those, the **stage's delay**: from the frame the stage's read came from to the frame on which
it was announced. **Stale**: reads of the stage dropped because the picture had changed where they were read
(`LiveScanner.stale`), and announcements of a card not in the clip (the goal: none). The load average is read
before and after, and at the start of each clip's play.

**Plain decoders, side by side**: after a clip's plays, on the machine as it is, every frame of the clip as the
camera sends it (the MJPG video decoded) is read by zxing-cpp, ZBar and OpenCV's WeChat (`scanner_reads.plain_reads`
and `scanner_reads.wechat_reads`, as on stills; `--no-wechat` leaves WeChat out): each one's first frame reading the
card, from the frame the code is in view. **Behind**: a clip a plain decoder reads on some frame that a run never
announced (the goal: none; the exit status counts it).

**A busy machine** (`--busy N`): each clip is played again through both stages right after its plays on the machine
as it is, with N child processes each spinning on a core (`scanner_load.paused_cores`, the busy load of every
scanner benchmark: started once, stopped, and let run for those plays only, so the clips are rendered on a quiet
machine); those runs are named "worker, busy N" and "thread, busy N", side by side with the quiet ones in one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from benchmarks import camera_model as M
from benchmarks import logs
from benchmarks.scanner_load import paused_cores, wait_ready

FIRST_SEED = 700
HOLD_S = 4.0
CARDS = (
    "rainbow-aura",
    "unicorn-poison",
    "glitter-bomb",
    "back-kick",
    "yay",
    "neigh",
    "super-neigh",
    "ginormous-unicorn",
    "targeted-destruction",
    "basic-unicorn-red",
    "rainbow-lasso",
    "blinding-light",
)


def card_of(seed: int) -> str:
    """The payload of the card of clip or still `seed`: one of `CARDS` by seed, so that consecutive seeds show
    different cards (a late read of the one before is then never counted as reading this one)."""
    from assistant.core.scanning.payloads import label_payload

    return label_payload("uu-2nd", CARDS[seed % len(CARDS)])


def held_clip(seed: int) -> tuple[list[M.Shot], str]:
    """The shots of clip `seed` (a thumb over the card's edge, held until the clip ends) and its payload."""
    import numpy as np

    payload = card_of(seed)
    player = M.HandPlayer(seed, payload, listening=True, patience=HOLD_S)
    rng = np.random.default_rng(seed + 7_000_000)
    thumb = (float(rng.random()), float(rng.uniform(5, 12)), float(rng.uniform(15, 20)))
    player.base = replace(player.base, finger=thumb)
    return [player.shot(i) for i in range(player.frames)], payload


def write_clip(path: Path, shots: list[M.Shot]) -> None:
    import cv2

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), M.FPS, (M.WIDTH, M.HEIGHT))
    try:
        for shot in shots:
            writer.write(M.render(shot))
    finally:
        writer.release()


def play(path: Path, payload: str, stage, offset: int) -> dict:  # type: ignore[no-untyped-def]
    """The clip at `path` through a live scanner on `stage`, paced at 30 frames a second: the clip's frame on which
    its card (`payload`) was announced (`announced`, None: never), the frame the stage's read of it came from (`read`,
    None: the frame path read it), the frames it was too late for (`skipped`), the stage's stale reads dropped
    (`stale`) and the cards announced that are not in the clip (`wrong`)."""
    import cv2

    from assistant.scanner.live import LiveScanner
    from benchmarks.scanner_load import reads_noted

    take = stage.take
    taken = reads_noted(stage, offset)  # (a late read of the play before is none of this one's)
    scanner = LiveScanner(lambda: None, lambda event: None, background=stage)  # type: ignore[arg-type,return-value]
    video = cv2.VideoCapture(str(path))
    position, skipped, started, wrong = -1, 0, time.perf_counter(), 0

    def played(at: int | None) -> dict:
        read = taken.get(payload) if at is not None else None
        return {"announced": at, "read": None if read is None else read - offset, "skipped": skipped,
                "stale": scanner.stale, "wrong": wrong}  # fmt: skip

    try:
        while True:
            due = int((time.perf_counter() - started) * M.FPS)
            if due <= position:  # this frame's time has not come: wait for it
                time.sleep(max(0.0, (position + 1) / M.FPS - (time.perf_counter() - started)))
                due = position + 1
            while position < due - 1:  # frames the loop was too late for
                if not video.grab():
                    return played(None)
                position, skipped = position + 1, skipped + 1
            ok, image = video.read()
            if not ok:
                return played(None)
            position += 1
            said = scanner.handle(image, offset + position, taken=(offset + position) / M.FPS)
            wrong += sum(a.payload != payload for a in said)
            if any(a.payload == payload for a in said):
                return played(position)
    finally:
        video.release()
        stage.take = take


STAGES = ("worker", "thread")
#: The plain decoders each clip is read by too, side by side (`plain_firsts`).
PLAIN = ("zxing", "zbar", "wechat")


def plain_firsts(path: Path, payload: str, wechat: Path | None, folder: Path) -> dict[str, int | None]:
    """The first frame of the clip at `path` (the video decoded, as the camera sends it) in which each plain decoder
    reads its card (`payload`), None: none reads it; WeChat's by the Python `wechat` (None: left out, no entry),
    on the grey frames saved in `folder` and removed after."""
    import cv2
    import numpy as np

    from benchmarks.scanner_reads import plain_reads, wechat_reads

    first: dict[str, int | None] = {decoder: None for decoder in PLAIN if wechat is not None or decoder != "wechat"}
    video = cv2.VideoCapture(str(path))
    position = -1
    try:
        while True:
            ok, image = video.read()
            if not ok:
                break
            position += 1
            gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
            for decoder, payloads in plain_reads(gray).items():
                if first[decoder] is None and payload in payloads:
                    first[decoder] = position
            if wechat is not None:
                np.save(folder / f"{position:05d}.npy", gray)
    finally:
        video.release()
    if wechat is not None:
        _version, reads = wechat_reads(wechat, folder)
        first["wechat"] = min((int(stem) for stem, texts in reads.items() if payload in texts), default=None)
        for saved in folder.glob("*.npy"):
            saved.unlink()
    return first


def runs(busy: int = 0) -> tuple[str, ...]:
    """The runs of every clip by name: each stage on the machine as it is and, with `busy`, each again with that many
    cores kept busy ("worker, busy 2")."""
    loads = ("", f", busy {busy}") if busy else ("",)
    return tuple(f"{stage}{load}" for load in loads for stage in STAGES)


def order(clip: int, busy: int = 0) -> list[str]:
    """The runs of the `clip`th clip (0 the first) in the order played: on the machine as it is, then with the busy
    loops; the stages' order alternating clip by clip, so the machine's load falls on both alike."""
    stages = STAGES if clip % 2 == 0 else STAGES[::-1]
    return sorted(runs(busy), key=lambda name: (", busy" in name, stages.index(name.split(",")[0])))


def measure(clips: int, first: int = FIRST_SEED, busy: int = 0, wechat: Path | None = None) -> dict:
    """Each clip from seed `first` on, played through the live path with the worker process and with the thread
    stage, one after the other (the order alternating clip by clip); with `busy`, each played again right after
    with that many cores kept busy (`paused_cores`); then read by the plain decoders (`plain_firsts`, WeChat by the
    Python `wechat`, None: left out)."""
    from assistant.scanner.background import Stage
    from assistant.scanner.budget import use_opencv_threads
    from assistant.scanner.stage_process import ProcessStage
    from benchmarks.scanner import known_labels

    use_opencv_threads()  # the scanner's own setting, as in its processes (`budget.OPENCV_THREADS`)
    report: dict = {
        "set": f"evaluation camera hand clips, seeds {first} to {first + clips - 1} (--seed {first}), 720p",
        "load_before": f"{os.getloadavg()[0]:.1f}",
        "busy": busy,
        "runs": list(runs(busy)),
        "loads": {name: [] for name in runs(busy)},
        "clips": [],
    }
    worker = ProcessStage(known=known_labels())
    worker.start()
    wait_ready(worker, 120)
    stages: dict[str, Stage] = {"worker": worker, "thread": ProcessStage(known=known_labels(), thread=True)}
    offset = 0
    try:
        with tempfile.TemporaryDirectory(prefix="bench-hand-") as folder, paused_cores(busy) as switch:
            for n, seed in enumerate(range(first, first + clips)):
                shots, payload = held_clip(seed)
                enter = next((i for i, s in enumerate(shots) if M.code_in_view(s)), None)
                path = Path(folder) / f"clip-{seed}.avi"
                write_clip(path, shots)
                clip: dict = {
                    "seed": seed,
                    "card": payload,
                    "enter": enter,
                    "conditions": M.conditions(shots[enter if enter is not None else 0]),
                }
                loaded = False
                for name in order(n, busy):
                    if loaded != (", busy" in name):
                        loaded = not loaded
                        switch(loaded)
                    report["loads"][name].append(os.getloadavg()[0])
                    run = play(path, payload, stages[name.split(",")[0]], offset)
                    offset += len(shots) + 30
                    at, read = run["announced"], run["read"]
                    run["latency_s"] = None if at is None or enter is None else max(0, at - enter) / M.FPS
                    run["stage_delay_s"] = None if at is None or read is None else (at - read) / M.FPS
                    clip[name] = run
                switch(False)  # this clip read by the plain decoders, and the next rendered, on the machine as it is
                frames = Path(folder) / "frames"
                frames.mkdir(exist_ok=True)
                clip["plain"] = plain_firsts(path, payload, wechat, frames)
                report["clips"].append(clip)
    finally:
        for stage in stages.values():
            stage.stop()
    report["load_after"] = f"{os.getloadavg()[0]:.1f}"
    read_plainly = [c for c in report["clips"] if any(at is not None for at in c["plain"].values())]
    for name in runs(busy):
        report[name] = summary([c[name] for c in report["clips"]])
        report[name]["behind"] = [c["seed"] for c in read_plainly if c[name]["announced"] is None]
    for decoder in report["clips"][0]["plain"] if report["clips"] else ():
        read = [(c["plain"][decoder], c["enter"] or 0) for c in report["clips"] if c["plain"][decoder] is not None]
        waits = [max(0, at - enter) / M.FPS for at, enter in read]
        report[decoder] = {"read": len(waits), "median_s": round(statistics.median(waits), 3) if waits else None}
    return report


def summary(runs: list[dict]) -> dict:
    """One stage's figures over the clips: announced, never, on a read of the stage, the latency's median, p90 and
    maximum, the stage's delay's median and maximum, stale reads dropped and wrong cards announced."""
    from benchmarks.speech import percentile

    latencies = [r["latency_s"] for r in runs if r["latency_s"] is not None]
    delays = [r["stage_delay_s"] for r in runs if r["stage_delay_s"] is not None]
    figures = {
        "announced": len(latencies),
        "never": len(runs) - len(latencies),
        "by_stage": len(delays),
        "stale": sum(r["stale"] for r in runs),
        "wrong": sum(r["wrong"] for r in runs),
    }
    if latencies:
        figures |= {
            "median_s": round(statistics.median(latencies), 3),
            "p90_s": round(percentile(latencies, 0.9), 3),
            "max_s": round(max(latencies), 3),
        }
    if delays:
        figures |= {"delay_median_s": round(statistics.median(delays), 3), "delay_max_s": round(max(delays), 3)}
    return figures


def print_report(report: dict) -> None:
    busy = f"; 'busy {report['busy']}': {report['busy']} cores kept busy by child processes" if report["busy"] else ""
    print(
        f"Card into view to announced; set: {report['set']}; load average {report['load_before']} before, "
        f"{report['load_after']} after{busy}."
    )
    for c in report["clips"]:
        said = []
        for name in report["runs"]:
            run = c[name]
            at = f"{run['latency_s']:.3f} s" if run["latency_s"] is not None else "never"
            by = f" (the stage's read, {run['stage_delay_s']:.3f} s after its frame)" if run["read"] is not None else ""
            said.append(f"{name} {at}{by}")
        plain = ", ".join(f"{d} {'never' if at is None else f'frame {at}'}" for d, at in c["plain"].items())
        print(f"  seed {c['seed']}: in view at frame {c['enter']}; {'; '.join(said)}; plain decoders' first reads: "
              f"{plain}; {', '.join(c['conditions'])}")  # fmt: skip
    for name in report["runs"]:
        f, loads = report[name], report["loads"][name]
        figures = f"median {f['median_s']} s, p90 {f['p90_s']} s, max {f['max_s']} s; " if f["announced"] else ""
        delay = f" (its delay median {f['delay_median_s']} s, max {f['delay_max_s']} s)" if f["by_stage"] else ""
        load = f"; load (1 min) {min(loads):.1f} to {max(loads):.1f}" if loads else ""
        print(
            f"{name}: {f['announced']} of {len(report['clips'])} announced: {figures}{f['by_stage']} on a read of "
            f"the stage{delay}; {f['never']} never; stale reads dropped {f['stale']}, wrong cards said {f['wrong']}"
            f"{load}; behind a plain decoder (goal: none): {', '.join(map(str, f['behind'])) or 'none'}"
        )
    for decoder in PLAIN:
        if decoder in report:
            f = report[decoder]
            wait = f", its first read median {f['median_s']} s after the code is in view" if f["read"] else ""
            print(f"{decoder} on every frame: {f['read']} of {len(report['clips'])} clips read{wait}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=int, default=12, help="hand clips (12)")
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help=f"the first clip's seed ({FIRST_SEED})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--busy", type=int, default=0, help="play each clip again with N cores kept busy by child processes (0)"
    )
    parser.add_argument("--no-wechat", action="store_true", help="leave OpenCV's WeChat detector out")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: one hand clip, no WeChat; exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.clips, args.no_wechat = 1, True
    report = measure(args.clips, args.seed, args.busy, None if args.no_wechat else Path(sys.executable))
    if args.json:
        print(logs.dumps(report, indent=2))
    else:
        print_report(report)
    behind = any(report[name]["behind"] for name in report["runs"])
    return 1 if behind and not args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
