"""What a camera's odd frames cost the scanner: converting each to 8-bit (`camera_frames.FrameCheck.usable`), side by
side with raw zxing-cpp decoding the same frame, in one run.

Run as `.venv/bin/python -m benchmarks.scanner_frames` (`--frames N` timings of each, `--seed SEED`, `--json`;
`--smoke`: 720p, two timings of each). The
frame is an **evaluation camera** still (`benchmarks/camera_model.py`, `sample_shot(seed)`, the first from `--seed`
with its code in view) at 1280 by 720 and 1920 by 1080, with its card and with the card out of the picture (the
empty table), each given as a camera or its driver may give it: float32 in 0..1, float64 in 0..255, 16-bit (scaled
by 257), 8-bit BGR (the usual frame: no conversion, for scale). For each: the conversion's median and p90
milliseconds of CPU (`time.process_time` around each call, OpenCV on one thread), and raw zxing-cpp's
(`zxingcpp.read_barcodes` on the 8-bit grey frame, QR codes only, as `scanner_reads` calls it) timed alternately
with it, and their ratio; at 30 frames a second, the share of a core the conversion takes. The load average is
noted before and after.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import time
from dataclasses import replace

from benchmarks import camera_model as M
from benchmarks.scanner_load import RESOLUTIONS, percentile, resolution

#: How each kind of frame is made from the camera model's 8-bit BGR rendering.
KINDS = {
    "float32 0..1": lambda f: f.astype("float32") / 255,
    "float64 0..255": lambda f: f.astype("float64"),
    "uint16": lambda f: f.astype("uint16") * 257,
    "uint8 (as it is)": lambda f: f,
}


def _timed(call, image) -> float:
    started = time.process_time()
    call(image)
    return (time.process_time() - started) * 1000


def measure(frames: int = 60, seed: int = 0, resolutions: tuple[str, ...] = tuple(RESOLUTIONS)) -> dict:
    """Per resolution (of `resolutions`) and kind: the conversion's and raw zxing-cpp's median and p90 CPU
    milliseconds a frame."""
    import cv2
    import zxingcpp

    from assistant.scanner.budget import use_opencv_threads
    from assistant.scanner.camera_frames import FrameCheck

    use_opencv_threads()  # the scanner's own setting, as in its processes (`budget.OPENCV_THREADS`)
    options = {"formats": zxingcpp.BarcodeFormat.QRCode, "text_mode": zxingcpp.TextMode.Plain}

    def zxing(grey: object) -> object:
        return zxingcpp.read_barcodes(grey, **options)

    report: dict = {"set": f"evaluation camera still, first with its code in view from seed {seed}", "rows": []}
    if hasattr(os, "getloadavg"):
        report["load"] = f"load average {os.getloadavg()[0]:.1f} at the start"
    for name in resolutions:
        size = RESOLUTIONS[name]
        with resolution(*size):
            shot = next(s for s in (M.sample_shot(k) for k in range(seed, seed + 50)) if M.code_in_view(s))
            pictures = {
                "card": M.render(replace(shot, frame=1)),
                "empty": M.render(replace(shot, frame=1, offset_mm=(5000.0, 0.0))),  # the card out of the picture
            }
        for (kind, made), (table, bgr) in itertools.product(KINDS.items(), pictures.items()):
            grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
            image, check = made(bgr), FrameCheck()
            converted, raw = [], []
            for _ in range(frames):
                converted.append(_timed(check.usable, image))
                raw.append(_timed(zxing, grey))
            row = {
                "resolution": name,
                "kind": kind,
                "table": table,
                "convert_ms": statistics.median(converted),
                "convert_p90_ms": percentile(converted, 90),
                "zxing_ms": statistics.median(raw),
                "zxing_p90_ms": percentile(raw, 90),
            }
            row["ratio"] = row["convert_ms"] / row["zxing_ms"] if row["zxing_ms"] else float("nan")
            row["core_at_30fps"] = row["convert_ms"] * 30 / 1000
            report["rows"].append(row)
    if hasattr(os, "getloadavg"):
        report["load"] += f", {os.getloadavg()[0]:.1f} at the end"
    return report


def print_report(report: dict) -> None:
    print(report["set"] + "; " + report.get("load", ""))
    heads = ("resolution", "kind", "frame", "convert ms", "p90", "zxing ms", "p90", "ratio", "core")
    widths = (-10, -17, -6, 10, 6, 9, 6, 6, 5)
    print(" ".join(f"{h:<{-w}}" if w < 0 else f"{h:>{w}}" for h, w in zip(heads, widths, strict=True)))
    for r in report["rows"]:
        cells = (r["resolution"], r["kind"], r["table"])
        cells += tuple(f"{r[k]:.2f}" for k in ("convert_ms", "convert_p90_ms", "zxing_ms", "zxing_p90_ms", "ratio"))
        cells += (f"{r['core_at_30fps']:.2f}",)
        print(" ".join(f"{c:<{-w}}" if w < 0 else f"{c:>{w}}" for c, w in zip(cells, widths, strict=True)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=60, help="timings of each (60)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed tried for the still (0)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--smoke", action="store_true", help="a quick run: 720p, two timings of each")
    args = parser.parse_args(argv)
    report = measure(2, args.seed, ("720p",)) if args.smoke else measure(args.frames, args.seed)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
