"""The app where the POSIX terminal modules do not exist, as on Windows: it must import, open and play a game.

Run in a fresh interpreter in which importing `termios`, `tty` or `pty` fails (this test process has long imported
Textual's POSIX driver). Textual is told to use its headless driver through its own TEXTUAL_DRIVER setting, as it
would pick its Windows driver there; the game is played with Pilot, keys pressed as a player presses them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = r"""
import asyncio, importlib.abc, json, sys

HIDDEN = {"termios", "tty", "pty"}


class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Hide())
for name in HIDDEN:
    sys.modules.pop(name, None)
result = {}
try:
    import textual.drivers.linux_driver  # noqa: F401
    result["posix_driver_imports"] = True
except ModuleNotFoundError:
    result["posix_driver_imports"] = False

from assistant.cli import build_parser
from assistant.commands.app import make_app
from fake_speaker import Heard

heard = []
app = make_app(build_parser().parse_args(["--no-camera"]), Heard(heard.append))
result["driver"] = app.driver_class.__name__
LINES = [
    "new game Ana Ben Cy babies red pink narwhal win 3",
    "draw",
    "play ginormous unicorn",
    "neigh Ben",
    "neigh Cy",
    "resolve",
    "resolve",
]


async def play():
    async with app.run_test(size=(100, 40)) as pilot:
        for line in LINES:
            await pilot.press(*line, "enter")
            await pilot.pause()
        result["status"] = str(app.query_one("#status").render())
        result["answer"] = str(app.query_one("#answer").render())


asyncio.run(play())
result["heard"] = [reply.speech for reply in heard]
result["winner"] = app.session.game.state.outcome.winner
result["loaded"] = sorted(name for name in HIDDEN | {"textual.drivers.linux_driver"} if name in sys.modules)
print(json.dumps(result))
"""


def test_the_app_plays_a_game_where_termios_does_not_exist(tmp_path):
    env = dict(os.environ)
    env["TABLE_ASSISTANT_HOME"] = str(tmp_path / "home")
    env["TEXTUAL_DRIVER"] = "textual.drivers.headless_driver:HeadlessDriver"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "tests")])
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=240, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["posix_driver_imports"] is False  # the modules are really missing
    assert result["loaded"] == []
    assert result["driver"] == "HeadlessDriver"
    assert result["winner"] == 0
    assert result["status"] == "Ana wins with 3 Unicorns! The game is over."
    assert "Ana wins with 3 Unicorns!" in result["heard"][-1]
    assert any("Ginormous Unicorn" in said for said in result["heard"])
