"""A burst of keys is applied in the order typed, editing keys and letters alike, by the app at a real terminal (a
pseudo-terminal) with its camera running: a correction typed in one write landed in the wrong place."""

from __future__ import annotations

import os

from benchmarks import frames as F
from benchmarks.outage_rig import ROOT, PtyApp

LEFT, END = "\x1b[D", "\x1b[F"


def test_at_a_terminal_with_the_camera_running_a_burst_of_edits_lands_where_typed(private_home, tmp_path):
    """`sper`, Left ×3, `u`, End, ` neigh`, Enter in one write read "sp neureigh" (2 matches offered), 4 times in 4,
    with the camera running."""
    clip = tmp_path / "table.avi"
    F.write_clip(clip, [F.render(F.Scene(seed=i, distance_mm=380)) for i in range(6)])
    env = {**os.environ, "TABLE_ASSISTANT_HOME": str(private_home), "PYTHONPATH": str(ROOT), "TERM": "xterm"}
    env.pop("TABLE_ASSISTANT_SCREEN_READER", None)
    terminal = PtyApp(["--no-speech", "--camera-clip", str(clip)], env, size=(100, 40))
    try:
        assert terminal.wait_for("Pile and chain", timeout=120) is not None, terminal.text()
        assert terminal.wait_for("Rainbow Aura", timeout=120) is not None, terminal.text()  # the camera read its card
        for _ in range(3):
            terminal.send(f"sper{LEFT * 3}u{END} neigh\r".encode())
        assert terminal.wait_for("Type: Instant card", count=3, timeout=120) is not None, terminal.text()
    finally:
        ended = terminal.quit(timeout=60, keys=b"\x11")
        terminal.close()
    shown = terminal.text()
    assert ended is not None and "matches for" not in shown and "Traceback" not in shown, shown[-3000:]
