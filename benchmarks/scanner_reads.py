"""Reads per frame class at 720p and 1080p: the live path against raw zxing-cpp, ZBar and OpenCV's WeChat, on the
same frames.

Run as `.venv/bin/python -m benchmarks.scanner_reads` (`--stills N` shots per resolution, `--no-wechat`, `--json`).
Every frame is an **evaluation camera** still (`benchmarks/camera_model.py`, never tuned on: `sample_shot(seed)`,
seeds from 0, the code in the picture), at 1280 by 720 and, the sensor widened with the same field of view, 1920
by 1080. For each frame, read or not:

- **path**: what the app's live path reads given the time: the frame path's first pass, then the background
  stage's work on the frame as the worker process does it (`BackgroundStage.work`, known labels of every shipped
  deck: the cascade on the regions, the whole frame's look, repair, erasures, known labels, the average), with
  zxing-cpp's inverted try off as on the live path (`decoders.TRY_INVERT`);
- **zxing-cpp**: `zxingcpp.read_barcodes` on the grey frame, as it comes;
- **ZBar**: `pyzbar.decode` on the grey frame, as it comes;
- **WeChat**: OpenCV's WeChat detector (`cv2.wechat_qrcode_WeChatQRCode()`, no model files: its traditional
  detector, no super-resolution) on the grey frame, as it comes. It ships only in `opencv-contrib-python`, which
  cannot live beside the app's `opencv-python` in one venv, so it runs in a venv of its own, `.venv-wechat` at the
  project's root (made on first use: `python3 -m venv`, then `pip install opencv-contrib-python-headless numpy`;
  `--wechat-python` names another Python that has it), in a subprocess (`benchmarks/wechat_reader.py`) given the
  same grey frames as numpy files.

Frames are counted per condition (`camera_model.conditions`: a frame may fall under several), with the frames that
a plain decoder reads and the path does not (the goal: none), by seed, per decoder.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import camera_model as M
from benchmarks.scanner_load import RESOLUTIONS, resolution

DECODERS = ("zxing", "zbar", "wechat")
ROOT = Path(__file__).resolve().parents[1]
WECHAT_VENV = ROOT / ".venv-wechat"


def wechat_python(venv: Path = WECHAT_VENV) -> Path:
    """The Python of the WeChat venv, made (and the wheel installed) when it is not there yet."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "opencv-contrib-python-headless", "numpy"],
                       check=True)  # fmt: skip
    return python


def wechat_reads(python: Path, folder: Path) -> tuple[str, dict[str, list[str]]]:
    """OpenCV's version and WeChat's texts for every frame saved in `folder`, read by `python` in a subprocess."""
    done = subprocess.run([str(python), str(ROOT / "benchmarks" / "wechat_reader.py"), str(folder)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    answer = json.loads(done.stdout)
    return answer["opencv"], answer["reads"]


def tally(frames: list[dict]) -> dict[str, dict]:
    """Per condition: frames, reads of the path and of each decoder, and the seeds a decoder read and the path did
    not (`lost_DECODER`; `lost`: their count, any decoder)."""
    classes: dict[str, dict] = {}
    for frame in frames:
        for condition in ["all", *frame["conditions"]]:
            row = classes.setdefault(condition, {"frames": 0, "path": 0, "lost": 0})
            row["frames"] += 1
            row["path"] += frame["path"]
            decoders = [d for d in DECODERS if d in frame]
            for decoder in decoders:
                row[decoder] = row.get(decoder, 0) + frame[decoder]
                if frame[decoder] and not frame["path"]:
                    row.setdefault(f"lost_{decoder}", []).append(frame["seed"])
            row["lost"] += any(frame[d] for d in decoders) and not frame["path"]
    return classes


def measure(stills: int, wechat: Path | None = None) -> dict:
    """Every resolution, `stills` evaluation shots each (those with the code in the picture); WeChat's reads by
    `wechat`, a Python with opencv-contrib (None: left out)."""
    import cv2
    import numpy as np
    import zxingcpp
    from pyzbar import pyzbar

    from assistant.scanner.background import BackgroundStage, Job
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.measure import find_code_regions
    from benchmarks.scanner import known_labels

    cv2.setNumThreads(1)
    report: dict = {"set": f"evaluation camera stills, seeds 0 to {stills - 1}, code in view", "resolutions": {}}
    if hasattr(os, "getloadavg"):
        report["load"] = f"load average {os.getloadavg()[0]:.1f} at the start"
    frames: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-reads-") as folder:
        for name, (width, height) in RESOLUTIONS.items():
            first = Cascade(stages=("zxing", "dark"), budget_ms=None)
            stage = BackgroundStage(Cascade(budget_ms=None), inline=True, known=known_labels())
            first.invert = stage.cascade.invert = False  # as the live path reads (`decoders.TRY_INVERT`)
            frames[name] = []
            with resolution(width, height):
                for seed in range(stills):
                    shot = M.sample_shot(seed)
                    if not M.code_in_view(shot):
                        continue
                    gray = cv2.cvtColor(M.render(shot), cv2.COLOR_BGR2GRAY)
                    path = shot.payload in [d.payload for d in first.decode(gray)]
                    if not path:
                        job = Job(seed, gray, find_code_regions(gray), [(seed, gray)])
                        path = shot.payload in [r.decoded.payload for r in stage.work(job)]
                    options = {"formats": zxingcpp.BarcodeFormat.QRCode, "text_mode": zxingcpp.TextMode.Plain}
                    zbar = pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE])
                    frames[name].append(
                        {
                            "seed": seed,
                            "payload": shot.payload,
                            "conditions": M.conditions(shot),
                            "path": path,
                            "zxing": shot.payload in [r.text for r in zxingcpp.read_barcodes(gray, **options)],
                            "zbar": shot.payload in [r.data.decode("utf-8", "replace") for r in zbar],
                        }
                    )
                    if wechat is not None:
                        np.save(Path(folder) / f"{name}-{seed}.npy", gray)
        if wechat is not None:
            report["wechat"], reads = wechat_reads(wechat, Path(folder))
            for name, shots in frames.items():
                for frame in shots:
                    frame["wechat"] = frame["payload"] in reads.get(f"{name}-{frame['seed']}", [])
    for name, shots in frames.items():
        report["resolutions"][name] = tally(shots)
    if hasattr(os, "getloadavg"):
        report["load"] += f", {os.getloadavg()[0]:.1f} at the end"
    return report


def print_report(report: dict) -> None:
    wechat = f" WeChat: OpenCV {report['wechat']}, no model files." if "wechat" in report else " WeChat left out."
    print(f"Reads per frame class; set: {report['set']}; machine: {report.get('load', '')}.{wechat}")
    print(f"{'resolution, condition':40s}{'frames':>7s}{'path':>6s}{'zxing':>7s}{'ZBar':>6s}{'WeChat':>7s}{'lost':>6s}")
    for name, classes in report["resolutions"].items():
        for condition, row in classes.items():
            print(f"{name + ', ' + condition:40s}{row['frames']:7d}{row['path']:6d}{row['zxing']:7d}{row['zbar']:6d}"
                  f"{row.get('wechat', '-'):>7}{row['lost']:6d}")  # fmt: skip
    print("lost: frames a plain decoder reads and the path does not (goal: none). By seed:")
    for name, classes in report["resolutions"].items():
        for decoder in DECODERS:
            seeds = classes.get("all", {}).get(f"lost_{decoder}", [])
            print(f"  {name}, {decoder}: {', '.join(map(str, seeds)) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stills", type=int, default=60, help="evaluation shots per resolution (60)")
    parser.add_argument("--no-wechat", action="store_true", help="leave OpenCV's WeChat detector out")
    parser.add_argument("--wechat-python", type=Path, help="a Python with opencv-contrib (default: .venv-wechat's)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args(argv)
    wechat = None if args.no_wechat else (args.wechat_python or wechat_python())
    report = measure(args.stills, wechat)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    lost = sum(row["lost"] for classes in report["resolutions"].values() for row in classes.values() if row)
    return 0 if lost == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
