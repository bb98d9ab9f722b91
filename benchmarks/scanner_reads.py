"""Reads per frame class at 720p and 1080p: the live path against raw zxing-cpp and ZBar, on the same frames.

Run as `.venv/bin/python -m benchmarks.scanner_reads` (`--stills N` shots per resolution, `--json`). Every frame is
an **evaluation camera** still (`benchmarks/camera_model.py`, never tuned on: `sample_shot(seed)`, seeds from 0,
the code in the picture), at 1280 by 720 and, the sensor widened with the same field of view, 1920 by 1080.
For each frame, read or not:

- **path**: what the app's live path reads given the time: the frame path's first pass, then the background
  stage's work on the frame as the worker process does it (`BackgroundStage.work`, known labels of every shipped
  deck: the cascade on the regions, the whole frame's look, repair, erasures, known labels, the average), with
  zxing-cpp's inverted try off as on the live path (`decoders.TRY_INVERT`);
- **zxing-cpp**: `zxingcpp.read_barcodes` on the grey frame, as it comes;
- **ZBar**: `pyzbar.decode` on the grey frame, as it comes;
- OpenCV's WeChat detector is not installed here (it ships only in `opencv-contrib-python`, which replaces the
  project's `opencv-python-headless`), so it is not measured.

Frames are counted per condition (`camera_model.conditions`: a frame may fall under several), with the frames that
a plain decoder reads and the path does not (the goal: none).
"""

from __future__ import annotations

import argparse
import json
import os

from benchmarks import camera_model as M
from benchmarks.scanner_load import RESOLUTIONS, resolution


def measure(stills: int) -> dict:
    """Every resolution, `stills` evaluation shots each (those with the code in the picture)."""
    import cv2
    import zxingcpp
    from pyzbar import pyzbar

    from assistant.scanner.background import BackgroundStage, _Job
    from assistant.scanner.decoders import Cascade
    from assistant.scanner.measure import find_code_regions
    from benchmarks.scanner import known_labels

    cv2.setNumThreads(1)
    report: dict = {"set": f"evaluation camera stills, seeds 0 to {stills - 1}, code in view", "resolutions": {}}
    if hasattr(os, "getloadavg"):
        report["load"] = f"load average {os.getloadavg()[0]:.1f} at the start"
    for name, (width, height) in RESOLUTIONS.items():
        first = Cascade(stages=("zxing", "dark"), budget_ms=None)
        stage = BackgroundStage(Cascade(budget_ms=None), inline=True, known=known_labels())
        first.invert = stage.cascade.invert = False  # as the live path reads (`decoders.TRY_INVERT`)
        classes: dict[str, dict[str, int]] = {}
        with resolution(width, height):
            for seed in range(stills):
                shot = M.sample_shot(seed)
                if not M.code_in_view(shot):
                    continue
                gray = cv2.cvtColor(M.render(shot), cv2.COLOR_BGR2GRAY)
                path = shot.payload in [d.payload for d in first.decode(gray)]
                if not path:
                    job = _Job(seed, gray, find_code_regions(gray), [(seed, gray)])
                    path = shot.payload in [r.decoded.payload for r in stage.work(job)]
                options = {"formats": zxingcpp.BarcodeFormat.QRCode, "text_mode": zxingcpp.TextMode.Plain}
                zx = shot.payload in [r.text for r in zxingcpp.read_barcodes(gray, **options)]
                zb = shot.payload in [
                    r.data.decode("utf-8", "replace") for r in pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE])
                ]
                for condition in ["all", *M.conditions(shot)]:
                    row = classes.setdefault(condition, dict.fromkeys(("frames", "path", "zxing", "zbar", "lost"), 0))
                    row["frames"] += 1
                    row["path"] += path
                    row["zxing"] += zx
                    row["zbar"] += zb
                    row["lost"] += (zx or zb) and not path
        report["resolutions"][name] = classes
    if hasattr(os, "getloadavg"):
        report["load"] += f", {os.getloadavg()[0]:.1f} at the end"
    return report


def print_report(report: dict) -> None:
    print(f"Reads per frame class; set: {report['set']}; machine: {report.get('load', '')}.")
    print(f"{'resolution, condition':40s}{'frames':>7s}{'path':>6s}{'zxing':>7s}{'ZBar':>6s}{'lost':>6s}")
    for name, classes in report["resolutions"].items():
        for condition, row in classes.items():
            print(
                f"{name + ', ' + condition:40s}{row['frames']:7d}{row['path']:6d}{row['zxing']:7d}{row['zbar']:6d}"
                f"{row['lost']:6d}"
            )
    print("lost: frames zxing-cpp or ZBar reads and the path does not (goal: none).")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stills", type=int, default=60, help="evaluation shots per resolution (60)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args(argv)
    report = measure(args.stills)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    lost = sum(row["lost"] for classes in report["resolutions"].values() for row in classes.values() if row)
    return 0 if lost == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
