"""OpenCV's WeChat QR detector on saved frames, for `benchmarks/scanner_reads.py`: run in a process of its own, by a
Python whose OpenCV has the contrib modules (the project's own, `opencv-contrib-python-headless`), so that its work
is never counted as the live path's.

`python benchmarks/wechat_reader.py FOLDER` reads every `*.npy` in FOLDER (a grey frame each, as
`numpy.save` wrote it) and prints one JSON object: each file's stem and the texts the detector read in it. The
detector is made with no model files (`cv2.wechat_qrcode_WeChatQRCode()`): its traditional detector and no
super-resolution, as the wheel ships it (its CNN models are a separate download, which this machine cannot make).
Imports nothing of the project.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def read_folder(folder: Path) -> dict[str, list[str]]:
    """Each frame's stem and the texts WeChat read in it."""
    import cv2
    import numpy as np

    cv2.setNumThreads(1)
    detector = cv2.wechat_qrcode_WeChatQRCode()
    out = {}
    for path in sorted(folder.glob("*.npy")):
        try:
            texts, _points = detector.detectAndDecode(np.load(path))
        except UnicodeDecodeError:  # OpenCV's Python call raises on a payload that is not UTF-8: no text given
            texts = []
        out[path.stem] = [str(t) for t in texts]
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: wechat_reader.py FOLDER", file=sys.stderr)
        return 2
    print(json.dumps({"opencv": __import__("cv2").__version__, "reads": read_folder(Path(argv[0]))}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
