"""Reads per frame class at 720p and 1080p: the live path against raw zxing-cpp, ZBar and OpenCV's WeChat, on the
same frames.

Run as `.venv/bin/python -m benchmarks.scanner_reads` (`--stills N` shots per resolution, `--seed SEED` the first
shot's seed, `--no-wechat`, `--json`). Every frame is an **evaluation camera** still (`benchmarks/camera_model.py`,
never tuned on: `sample_shot(seed)`, seeds from `--seed` (0 unless told; give seeds never used before, and the
report names them), the code in the picture, each still a card of its own: `scanner_hand.card_of`, so a still
never shows the card of the still before it: with one card for all, as before, a read the stage finished from the
still before, announced during this still's hold, counted as reading this one; the thread stage's one lead at 720p,
seed 8013, was its read of seed 8012's frame), at 1280 by 720 and, the sensor widened with the same field of view,
1920 by 1080. For each frame, read or not:

- **path**: what the app's live path announces with the still held a second (`HOLD_FRAMES`, three renderings of it
  that differ in the sensor's noise, paced at 30 frames a second as a camera gives them): `LiveScanner.handle` with
  its background stage in the worker process, as the app runs it (`stage_process.ProcessStage`, known labels of
  every shipped deck, started and ready before the first still, one for all stills and both resolutions, as in an
  evening's play); each still a new hold-up (the sighting tracker starts afresh). A still whose stage has a job
  begun in its second still under way when the second ends is held on until that job comes back (`LATE_FRAMES`
  at most, and the frame after it, on which its reads are taken): a player holds a card until it is said, so a
  read that comes back late counts while it is of the card still in view (the scanner's own rule: a read of a
  frame older than the card now in view is never announced). Such reads are counted apart ("after the hold", by
  seed, and how many frames past the second); before, the next still's hold began, and the read, now stale, was
  dropped;
- **thread**: the same, with the worker on a thread instead (`ProcessStage(thread=True)`, the same scheduler,
  started and ready before the first still too), in the same run: each still is held for the worker and for the
  thread one after the other, the order alternating still by still, so the machine's load falls on both alike.
  Beside them, for each: the stage's reads dropped as stale (`LiveScanner.stale`) and the cards announced during a
  still's hold that are not in it (the goal: none);
- **zxing-cpp**: `zxingcpp.read_barcodes` on the grey frame, as it comes, its read worded as the scanner words
  a payload (`decoders.payload_text`: a code whose bytes are no text, such as jsQR's `japan-visa`, is UTF-8 with
  replacement characters, not zxing-cpp's ISO-8859-1 fallback), so a code both read is counted read by both;
- **ZBar**: `pyzbar.decode` on the grey frame, as it comes;
- **scan**: the `scan` command's own decoding of a file (`decoders.Cascade(budget_ms=None)`, every retry with no
  time limit but the wall-clock cap, on the BGR frame as the command is given it): a plain decoder too, the best
  the project has on a still;
- **WeChat**: OpenCV's WeChat detector (`cv2.wechat_qrcode_WeChatQRCode()`, no model files: its traditional
  detector, no super-resolution) on the grey frame, as it comes: the project's own OpenCV build
  (`opencv-contrib-python-headless`) has it, and the live path's last whole-frame retry is this detector too. It
  runs in a subprocess (`benchmarks/wechat_reader.py`, by this Python or the one `--wechat-python` names) given the
  same grey frames as numpy files, so its work is never counted as the live path's.

`--photos FOLDER` holds real photos instead (a folder with a `manifest.csv` as `../shared/qr_photos` has: each
photo with one code, kind "positive", held a second as it is, the same frame thirty times; its frame class the folder
it lies in), through the same stages and decoders. `--photo-width W` holds each photo wider than W scaled down to
W wide (OpenCV's area interpolation), as a camera W pixels wide framing the same view would see it (1280 for
720p, 1920 for 1080p; a phone's photo is 2000 to 4000 wide).

`--busy N` holds the set a second time right after the first, with N busy loops (`scanner_load.paused_cores`, the
busy load of every scanner benchmark: N child processes each spinning on a core, started stopped and let run for
that pass only), the classes of that pass named "RESOLUTION, busy N"; the load average (1, 5 and 15 minutes) is
noted before and after each pass. `--niceness N` runs the frame path and the thread stage N nicer than the busy
loops (the app's scanner runs at `live_process.NICENESS`, 10, below the player's other programs), and the worker
process as much less nice than them as the app's is (`live_process.WORKER_NICENESS`, 5: at 10, 5 nicer than the
loops). For each stage the jobs it began in each hold (`Stage.begun`, its looks included) are counted, with the
holds it began none in and the frames the frame path stood in for a job not begun (`live.STAND_IN_AFTER`).

Frames are counted per condition (`camera_model.conditions`: a frame may fall under several), with the frames that
a plain decoder reads and the path does not (the goal: none), by seed, per decoder.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from benchmarks import camera_model as M
from benchmarks import logs
from benchmarks.scanner_hand import card_of
from benchmarks.scanner_load import RESOLUTIONS, paused_cores, resolution, wait_ready

DECODERS = ("zxing", "zbar", "wechat", "scan")
STAGES = ("path", "thread")
#: A still is held for this many frames (a second at 30 frames a second).
HOLD_FRAMES = 30
#: ... and on, while a job the stage began in its second is under way, at most this many frames more (two seconds):
#: with both cores busy a job of a fifth of a second's CPU came back 0.9 s after the hold began, or later.
LATE_FRAMES = 60
ROOT = Path(__file__).resolve().parents[1]


def wechat_reads(python: Path, folder: Path) -> tuple[str, dict[str, list[str]]]:
    """OpenCV's version and WeChat's texts for every frame saved in `folder`, read by `python` in a subprocess."""
    done = subprocess.run([str(python), str(ROOT / "benchmarks" / "wechat_reader.py"), str(folder)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    answer = json.loads(done.stdout)
    return answer["opencv"], answer["reads"]


def plain_reads(gray: Any) -> dict[str, list[str]]:
    """The payloads zxing-cpp and ZBar read in a grey frame as it comes (zxing-cpp's worded as the scanner words a
    payload: `decoders.payload_text`), by decoder."""
    import zxingcpp
    from pyzbar import pyzbar

    from assistant.scanner.decoders import payload_text

    options = {"formats": zxingcpp.BarcodeFormat.QRCode, "text_mode": zxingcpp.TextMode.Plain}
    try:
        zbar = pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE])
    except ValueError:  # pyzbar raises on a few photos (an orientation it does not know)
        zbar = []
    return {
        "zxing": [payload_text(bytes(read.bytes), read.text) for read in zxingcpp.read_barcodes(gray, **options)],
        "zbar": [read.data.decode("utf-8", "replace") for read in zbar],
    }


def tally(frames: list[dict]) -> dict[str, dict]:
    """Per condition: frames, reads of the path and of each decoder, and the seeds a decoder read and the path did
    not (`lost_DECODER`; `lost`: their count, any decoder)."""
    classes: dict[str, dict] = {}
    for frame in frames:
        for condition in ["all", *frame["conditions"]]:
            row = classes.setdefault(condition, {"frames": 0, "path": 0, "lost": 0})
            row["frames"] += 1
            row["path"] += frame["path"]
            if "thread" in frame:
                row["thread"] = row.get("thread", 0) + frame["thread"]
            decoders = [d for d in DECODERS if d in frame]
            for decoder in decoders:
                row[decoder] = row.get(decoder, 0) + frame[decoder]
                if frame[decoder] and not frame["path"]:
                    row.setdefault(f"lost_{decoder}", []).append(frame["seed"])
            row["lost"] += any(frame[d] for d in decoders) and not frame["path"]
    return classes


class Held(NamedTuple):
    """A still held through a scanner (`held`)."""

    read: bool
    """Its card was announced."""
    wrong: int
    """Other cards announced meanwhile."""
    stood_in: int
    """Frames on which the frame path stood in for a job the worker had not begun (`LiveScanner.stood_in`)."""
    frames: int
    """Frames held: `HOLD_FRAMES` at most, but held on for a job under way (`LATE_FRAMES`), or fewer once read."""
    after: int
    """Frames past the hold's second on which it was announced (0: within it, or never)."""


def held(
    scanner: Any,
    frames: list,
    payload: str,
    offset: int,
    clock: Callable[[], float] = time.perf_counter,
    sleep: Callable[[float], None] = time.sleep,
) -> Held:
    """A still (`frames`: its renderings) held `HOLD_FRAMES` frames through `scanner`, paced at 30 frames a second on
    `clock` (waiting with `sleep`), or until its card (`payload`) is announced; held on past them while the scanner's
    background stage has a job begun in the hold under way (`LATE_FRAMES` more at most), and for the frame after it
    ended, on which its reads are taken. Frames are numbered from `offset`."""
    scanner.tracker.reset()
    stage = scanner.background
    begun = stage.begun if stage is not None else 0

    def under_way() -> bool:  # a job begun in this hold (one at a time: the latest begun) not ended
        return stage is not None and stage.begun > begun and stage.ended < stage.begun

    started, wrong, stood_in = clock(), 0, 0
    going = was = False  # a job under way after the last frame (or just ended), and after the one before
    for i in range(HOLD_FRAMES + LATE_FRAMES):
        if i >= HOLD_FRAMES and not going:
            return Held(False, wrong, stood_in, i, 0)
        pause = started + i / M.FPS - clock()
        if pause > 0:
            sleep(pause)
        said = scanner.handle(frames[i % len(frames)], offset + i)
        stood_in += scanner.stood_in
        wrong += sum(a.payload != payload for a in said)
        if any(a.payload == payload for a in said):
            return Held(True, wrong, stood_in, i + 1, max(0, i + 1 - HOLD_FRAMES))
        now = under_way()
        going, was = now or was, now
    return Held(False, wrong, stood_in, HOLD_FRAMES + LATE_FRAMES, 0)


def job_counts(frames: list[dict], stage: str) -> dict[str, Any]:
    """The jobs a stage began over a pass's holds (`Stage.begun`, looks included: each hold's own, counted from its
    first frame to its last, a job still going at its end included), with the holds it began none in among those
    held past the priority rule's bound (`live.STAND_IN_AFTER` frames: a card the first pass reads is announced on
    the hold's second frame, before any job), and the frames the frame path stood in on (`LiveScanner.stood_in`)."""
    from assistant.scanner.live import STAND_IN_AFTER

    begun = [frame[f"{stage}_begun"] for frame in frames if f"{stage}_begun" in frame]
    long = [frame[f"{stage}_begun"] for frame in frames if frame.get(f"{stage}_frames", 0) > STAND_IN_AFTER]
    stood = [frame.get(f"{stage}_stood_in", 0) for frame in frames]
    return {
        "holds": len(begun),
        "begun": sum(begun),
        "per_hold": sum(begun) / max(1, len(begun)),
        "long_holds": len(long),
        "holds_without": sum(n == 0 for n in long),
        "most": max(begun, default=0),
        "stood_in": sum(stood),
    }


def still_sets(stills: int, first: int) -> dict[str, Iterator[tuple[int, list[str], str, list]]]:
    """Per resolution, the evaluation stills from seed `first` whose code is in the picture: (seed, conditions,
    payload, three renderings), drawn as they are held."""

    def drawn(width: int, height: int) -> Iterator[tuple[int, list[str], str, list]]:
        for seed in range(first, first + stills):
            with resolution(width, height):
                shot = M.sample_shot(seed, card_of(seed))
                if not M.code_in_view(shot):
                    continue
                renders = [M.render(replace(shot, frame=f)) for f in (1, 2, 3)]
            yield seed, M.conditions(shot), shot.payload, renders

    return {name: drawn(width, height) for name, (width, height) in RESOLUTIONS.items()}


def photo_set(folder: Path, width: int | None = None) -> dict[str, Iterator[tuple[str, list[str], str, list]]]:
    """The photos of `folder`'s `manifest.csv` with one code (kind "positive"), each its own frame class (the folder it
    lies in, as zxing-cpp's samples are sorted): (image, class, payload, the photo as the one rendering). `width`: a
    photo wider is scaled down to it (area interpolation), as a camera that wide would see the same view."""
    import csv

    import cv2

    from assistant.scanner.sources import SourceError, load_image

    def drawn() -> Iterator[tuple[str, list[str], str, list]]:
        with (folder / "manifest.csv").open(newline="", encoding="utf-8") as rows:
            for row in csv.DictReader(rows):
                if row["kind"] != "positive":
                    continue
                try:
                    image = load_image(folder / row["image"])
                except SourceError:
                    continue
                if width is not None and image.shape[1] > width:
                    height = round(image.shape[0] * width / image.shape[1])
                    image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
                yield row["image"], [row["image"].split("/")[0]], json.loads(row["expected_payload_json"]), [image]

    return {"photos": drawn()}


def measure(
    stills: int,
    wechat: Path | None = None,
    first: int = 0,
    photos: Path | None = None,
    busy: int = 0,
    photo_width: int | None = None,
    niceness: int = 0,
) -> dict:
    """Every resolution, `stills` evaluation shots each from seed `first` (those with the code in the picture), or
    the photos of folder `photos` (`photo_width`: scaled down to it, see `photo_set`); WeChat's reads by `wechat`, a
    Python with opencv-contrib (None: left out). With `busy`, the set is held again right after, with that many of
    the benchmark's own busy loops on the cores (`paused_cores`): its classes named "..., busy N", the load average
    noted before and after each. `niceness`: added to the frame path's and the thread stage's once the busy loops
    are started, as the app's scanner runs at `live_process.NICENESS` below the player's other programs, and to the
    worker process's less the app's difference (`live_process.WORKER_NICENESS`); 0: as the benchmark was started."""
    import cv2
    import numpy as np

    from assistant.scanner.background import Stage
    from assistant.scanner.budget import use_opencv_threads
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.live import LiveScanner
    from assistant.scanner.live_process import NICENESS, WORKER_NICENESS
    from assistant.scanner.stage_process import ProcessStage, lower_priority
    from benchmarks.scanner import known_labels

    use_opencv_threads()  # the scanner's own setting, as in its processes (`budget.OPENCV_THREADS`)

    # The stills are drawn once, before the first pass, for every pass: drawn during a busy pass with the scanner
    # niced (`niceness`), the camera model's rendering got a tenth of a core and a pass took many minutes. Photos are
    # drawn as they are held (they are many and large).
    stills_drawn = {} if photos is not None else {k: list(v) for k, v in still_sets(stills, first).items()}

    def drawn_sets(suffix: str) -> dict[str, Iterable[tuple[Any, list[str], str, list]]]:
        made = dict(photo_set(photos, photo_width)) if photos is not None else stills_drawn
        return {name + suffix: drawn for name, drawn in made.items()}

    if photos is not None:
        seen = "seen while tuning: zxing-cpp's samples" if photos.name == "qr_photos" else "never tuned on"
        scaled = f", scaled down to {photo_width} wide" if photo_width else ""
        named = f"photos of {photos} ({seen}){scaled}, each held 1 s"
    else:
        seeds = f"seeds {first} to {first + stills - 1} (--seed {first})"
        named = f"evaluation camera stills, {seeds}, code in view, each held 1 s"
    loads = [("", 0), (f", busy {busy}", busy)] if busy else [("", 0)]
    sets = {name: (drawn, cores) for suffix, cores in loads for name, drawn in drawn_sets(suffix).items()}
    report: dict = {"set": named, "resolutions": {}, "stale": {}}
    if hasattr(os, "getloadavg"):
        report["load"] = f"load average {os.getloadavg()[0]:.1f} at the start"
    spinning = contextlib.ExitStack()  # the busy loops, ended after the stages
    switch = spinning.enter_context(paused_cores(busy))
    # As the app's scanner starts it (`live_process.set_priorities`): the worker first, lowered by as much less than
    # the frame path as the app's is (`WORKER_NICENESS` against `NICENESS`), then the frame path and the thread stage.
    worker = ProcessStage(known=known_labels())
    worker.start()
    lower_priority(worker, max(0, niceness - NICENESS + WORKER_NICENESS))
    if niceness:
        os.nice(niceness)  # the busy loops, started above, keep the machine's own
        report["niceness"] = os.getpriority(os.PRIO_PROCESS, 0) if hasattr(os, "getpriority") else niceness
    wait_ready(worker, 120)
    # The thread's worker too, started and ready before the first still: its start (imports, the known labels, about
    # a second of CPU) fell in the first still's hold, which the thread stage began no job in.
    thread = ProcessStage(known=known_labels(), thread=True)
    thread.start()
    wait_ready(thread, 120)
    stages: dict[str, Stage] = {"path": worker, "thread": thread}
    scan = Cascade(budget_ms=None)  # the `scan` command's, on a file
    frames: dict[str, list[dict]] = {}
    offset = 0
    try:
        with tempfile.TemporaryDirectory(prefix="bench-reads-") as folder, contextlib.ExitStack() as cleanup:
            for name, (drawn, cores) in sets.items():
                loaded = cleanup.enter_context(contextlib.ExitStack())  # ended below, or on an error
                switch(bool(cores))
                loaded.callback(switch, False)
                report.setdefault("loads", {})[name] = f"{_load()}"
                scanners = {
                    stage: LiveScanner(lambda: None, lambda e: None, background=stages[stage]) for stage in STAGES
                }
                wrong = dict.fromkeys(STAGES, 0)
                frames[name] = []
                for number, (seed, conditions, payload, renders) in enumerate(drawn):
                    gray = cv2.cvtColor(renders[0], cv2.COLOR_BGR2GRAY)
                    plain = plain_reads(gray)
                    frame = {
                        "seed": seed,
                        "payload": payload,
                        "conditions": conditions,
                        "zxing": payload in plain["zxing"],
                        "zbar": payload in plain["zbar"],
                        "scan": payload in [d.payload for d in scan.decode(renders[0])],
                    }
                    for stage in STAGES if number % 2 == 0 else STAGES[::-1]:
                        begun = stages[stage].begun
                        hold = held(scanners[stage], renders, payload, offset)
                        frame[stage] = hold.read
                        frame[f"{stage}_begun"] = stages[stage].begun - begun
                        frame[f"{stage}_frames"] = hold.frames
                        frame[f"{stage}_stood_in"] = hold.stood_in
                        frame[f"{stage}_after"] = hold.after
                        wrong[stage] += hold.wrong
                        offset += hold.frames + 1
                    frames[name].append(frame)
                    if wechat is not None:
                        np.save(Path(folder) / f"{name}-{number}.npy", gray)
                        frame["wechat_file"] = f"{name}-{number}"
                report["stale"][name] = {
                    stage: {"dropped": scanners[stage].stale, "wrong": wrong[stage]} for stage in STAGES
                }
                report.setdefault("jobs", {})[name] = {stage: job_counts(frames[name], stage) for stage in STAGES}
                loaded.close()
                report["loads"][name] += f" -> {_load()}"
            if wechat is not None:
                report["wechat"], reads = wechat_reads(wechat, Path(folder))
                for shots in frames.values():
                    for frame in shots:
                        frame["wechat"] = frame["payload"] in reads.get(frame.pop("wechat_file"), [])
    finally:
        for background in stages.values():
            background.stop()
        spinning.close()
    for name, shots in frames.items():
        report["resolutions"][name] = tally(shots)
    report["frames"] = frames  # each frame's reads, for the JSON
    if hasattr(os, "getloadavg"):
        report["load"] += f", {os.getloadavg()[0]:.1f} at the end"
    return report


def _load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`'s first three), or "?"."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def print_report(report: dict) -> None:
    wechat = f" WeChat: OpenCV {report['wechat']}, no model files." if "wechat" in report else " WeChat left out."
    print(f"Reads per frame class; set: {report['set']}; machine: {report.get('load', '')}.{wechat}")
    print(f"{'resolution, condition':40s}{'frames':>7s}{'path':>6s}{'thread':>7s}{'zxing':>7s}{'ZBar':>6s}"
          f"{'WeChat':>7s}{'scan':>6s}{'lost':>6s}")  # fmt: skip
    for name, classes in report["resolutions"].items():
        for condition, row in classes.items():
            print(f"{name + ', ' + condition:40s}{row['frames']:7d}{row['path']:6d}{row.get('thread', '-'):>7}"
                  f"{row['zxing']:7d}{row['zbar']:6d}{row.get('wechat', '-'):>7}{row.get('scan', '-'):>6}"
                  f"{row['lost']:6d}")  # fmt: skip
    for name, load in report.get("loads", {}).items():
        print(f"  load average (1, 5, 15 min) while holding {name}: {load}")
    print("path: the worker process; thread: the thread stage. Stale reads dropped, and other cards announced:")
    for name, stages in report.get("stale", {}).items():
        said = "; ".join(f"{stage} {f['dropped']} dropped, {f['wrong']} said" for stage, f in stages.items())
        print(f"  {name}: {said}")
    print("Jobs each stage began a hold (looks included); of the holds longer than the priority rule's bound, those")
    print("with none; the most in a hold; frames the frame path stood in on:")
    for name, stages in report.get("jobs", {}).items():
        said = "; ".join(
            f"{stage} {f['per_hold']:.1f} a hold ({f['begun']} in {f['holds']}), "
            f"none in {f['holds_without']} of {f['long_holds']}, "
            f"most {f['most']}, stood in {f['stood_in']}"
            for stage, f in stages.items()
        )
        print(f"  {name}: {said}")
    print("Read after the hold's second, its job under way when the second ended (seed: frames past it):")
    for name, shots in report.get("frames", {}).items():
        late = {s: [f"{f['seed']}: {f[f'{s}_after']}" for f in shots if f.get(f"{s}_after")] for s in STAGES}
        print(f"  {name}: " + "; ".join(f"{stage} {', '.join(seeds) or 'none'}" for stage, seeds in late.items()))
    for name, shots in report.get("frames", {}).items():
        behind = [f["seed"] for f in shots if f.get("thread") and not f["path"]]
        ahead = [f["seed"] for f in shots if f["path"] and not f.get("thread")]
        print(f"  {name}: the thread read and the worker not: {behind or 'none'}; the worker and not the thread: "
              f"{ahead or 'none'}")  # fmt: skip
    print("lost: frames a plain decoder reads and the path does not (goal: none). By seed:")
    for name, classes in report["resolutions"].items():
        for decoder in DECODERS:
            seeds = classes.get("all", {}).get(f"lost_{decoder}", [])
            print(f"  {name}, {decoder}: {', '.join(map(str, seeds)) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stills", type=int, default=60, help="evaluation shots per resolution (60)")
    parser.add_argument("--seed", type=int, default=0, help="the first shot's seed (0)")
    parser.add_argument("--no-wechat", action="store_true", help="leave OpenCV's WeChat detector out")
    parser.add_argument("--wechat-python", type=Path, help="a Python with opencv-contrib (default: this one)")
    parser.add_argument("--photos", type=Path, help="a folder of photos with a manifest.csv instead of the stills")
    parser.add_argument("--photo-width", type=int, help="scale each photo wider than this down to it (as it is)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--busy", type=int, default=0, help="hold the set again with N cores kept busy (0)")
    parser.add_argument(
        "--niceness", type=int, default=0, help="run the scanner this much nicer than the busy loops (0; the app: 10)"
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a quick run of the whole path: one shot a resolution, no WeChat; exit 0 once it has figures",
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.stills, args.no_wechat = 1, True
    wechat = None if args.no_wechat else (args.wechat_python or Path(sys.executable))
    report = measure(args.stills, wechat, args.seed, args.photos, args.busy, args.photo_width, args.niceness)
    if args.json:
        print(logs.dumps(report, indent=2))
    else:
        print_report(report)
    lost = sum(row["lost"] for classes in report["resolutions"].values() for row in classes.values() if row)
    return 0 if lost == 0 or args.smoke else 1


if __name__ == "__main__":
    raise SystemExit(main())
